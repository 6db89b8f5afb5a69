// SPDX-License-Identifier: GPL-2.0-only
/*
 * lavd --check --btf FILE (kcheck.c) on kernels made here: BTF files
 * built from lavd's own object, one kfunc changed at a time, judged as
 * libbpf would resolve them. The faults are the ones Debian kernels show:
 * a kfunc whose public prototype kept the implicit 'aux' argument (7.1
 * and 7.2 builds), a kfunc renamed away, a guarded one absent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "../lavd/kcheck.h"

/* How the made kernel differs from the one lavd was written for */
struct kernel_spec {
	const char *const *drop;	/* kfuncs it lacks */
	const char *aux;		/* one kfunc that keeps 'aux' */
	bool no_ops;			/* no struct sched_ext_ops */
};

static bool listed(const char *const *names, const char *name)
{
	for (; names && *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}

/* Adds FUNC name(int, ...) with nargs arguments, plus 'aux' when asked */
static void add_kfunc(struct btf *k, int int_id, int aux_ptr, const char *name,
		      int nargs, bool aux)
{
	int proto = btf__add_func_proto(k, int_id);

	assert_true(proto > 0);
	for (int i = 0; i < nargs; i++)
		assert_int_equal(btf__add_func_param(k, "arg", int_id), 0);
	if (aux)
		assert_int_equal(btf__add_func_param(k, "aux", aux_ptr), 0);
	assert_true(btf__add_func(k, name, BTF_FUNC_GLOBAL, proto) > 0);
}

/* A kernel BTF file with every kfunc lavd declares, as spec says */
static char *make_kernel(const struct kernel_spec *spec)
{
	struct btf *prog = lavd_program_btf(), *k = btf__new_empty();
	static char path[64];
	int int_id, aux_ptr, fd;
	const void *raw;
	__u32 size;

	assert_non_null(prog);
	int_id = btf__add_int(k, "int", 4, BTF_INT_SIGNED);
	aux_ptr = btf__add_ptr(k, btf__add_struct(k, "bpf_prog_aux", 0));
	if (!spec->no_ops)
		assert_true(btf__add_struct(k, "sched_ext_ops", 0) > 0);
	for (__u32 id = 1; id < btf__type_cnt(prog); id++) {
		const struct btf_type *t = btf__type_by_id(prog, id);
		char name[128];
		char *flavour;

		if (!btf_is_func(t) || btf_vlen(t) != BTF_FUNC_EXTERN)
			continue;
		snprintf(name, sizeof(name), "%s", btf__name_by_offset(prog, t->name_off));
		flavour = strstr(name, "___lavd");
		if (flavour)
			*flavour = '\0';
		if (listed(spec->drop, name))
			continue;
		add_kfunc(k, int_id, aux_ptr, name,
			  btf_vlen(btf__type_by_id(prog, t->type)),
			  spec->aux && !strcmp(spec->aux, name));
	}
	raw = btf__raw_data(k, &size);
	snprintf(path, sizeof(path), "/tmp/lavd-kcheck-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, raw, size), (ssize_t)size);
	close(fd);
	btf__free(k);
	btf__free(prog);
	return path;
}

/* Judges the kernel spec describes; out gets the report's text */
static bool judge(const struct kernel_spec *spec, char **out)
{
	char *path = make_kernel(spec);
	size_t len;
	FILE *f = open_memstream(out, &len);
	bool ok = lavd_kernel_check(f, path);

	fclose(f);
	unlink(path);
	return ok;
}

static void fitting_kernel_loads(void **state)
{
	struct kernel_spec spec = { 0 };
	char *out;

	(void)state;
	assert_true(judge(&spec, &out));
	assert_non_null(strstr(out, "struct sched_ext_ops yes"));
	assert_non_null(strstr(out, "kfuncs: every one lavd needs resolves"));
	assert_non_null(strstr(out, ": lavd can load there\n"));
	free(out);
}

/* Debian's 7.2.12: the public prototype still takes 'aux' */
static void implicit_aux_left_in_btf(void **state)
{
	struct kernel_spec spec = { .aux = "scx_bpf_kick_cpu" };
	char *out;

	(void)state;
	assert_false(judge(&spec, &out));
	assert_non_null(strstr(out, "kfuncs whose arguments differ from lavd's "
			       "call: scx_bpf_kick_cpu (takes 3, lavd passes 2; "
			       "the last is the implicit 'aux')"));
	assert_non_null(strstr(out, "a fault of this kernel's build"));
	assert_non_null(strstr(out, ": lavd cannot load there\n"));
	free(out);
}

static void required_kfunc_missing(void **state)
{
	const char *const drop[] = { "scx_bpf_create_dsq", NULL };
	struct kernel_spec spec = { .drop = drop };
	char *out;

	(void)state;
	assert_false(judge(&spec, &out));
	assert_non_null(strstr(out, "kfuncs missing: scx_bpf_create_dsq\n"));
	assert_null(strstr(out, "implicit 'aux'"));
	free(out);
}

/* A renamed kfunc needs one of its names: 6.12 has only the oldest */
static void renamed_kfunc_one_name_is_enough(void **state)
{
	const char *const newer[] = { "scx_bpf_dsq_insert___v2",
				      "scx_bpf_dsq_insert", NULL };
	const char *const all[] = { "scx_bpf_dsq_insert___v2", "scx_bpf_dsq_insert",
				    "scx_bpf_dispatch", NULL };
	struct kernel_spec old = { .drop = newer }, none = { .drop = all };
	char *out;

	(void)state;
	assert_true(judge(&old, &out));
	free(out);
	assert_false(judge(&none, &out));
	assert_non_null(strstr(out, "kfuncs missing: scx_bpf_dsq_insert___v2 "
			       "(or scx_bpf_dsq_insert, scx_bpf_dispatch)"));
	free(out);
}

/* Calls behind bpf_ksym_exists(): said, not fatal */
static void guarded_kfuncs_may_be_absent(void **state)
{
	const char *const drop[] = { "scx_bpf_now", "scx_bpf_cpu_curr",
				     "scx_bpf_cpuperf_set", NULL };
	struct kernel_spec spec = { .drop = drop };
	char *out, *line;

	(void)state;
	assert_true(judge(&spec, &out));
	line = strstr(out, "guarded kfuncs it lacks (lavd goes without): ");
	assert_non_null(line);
	for (int i = 0; drop[i]; i++)
		assert_non_null(strstr(line, drop[i]));
	free(out);
}

static void no_sched_ext_or_no_btf(void **state)
{
	struct kernel_spec spec = { .no_ops = true };
	size_t len;
	char *out;
	FILE *f;

	(void)state;
	assert_false(judge(&spec, &out));
	assert_non_null(strstr(out, "struct sched_ext_ops no"));
	assert_null(strstr(out, "kfuncs missing"));	/* one line says it */
	free(out);
	f = open_memstream(&out, &len);
	assert_false(lavd_kernel_check(f, "/nonexistent/vmlinux"));
	fclose(f);
	assert_non_null(strstr(out, "/nonexistent/vmlinux: no BTF ("));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fitting_kernel_loads),
		cmocka_unit_test(implicit_aux_left_in_btf),
		cmocka_unit_test(required_kfunc_missing),
		cmocka_unit_test(renamed_kfunc_one_name_is_enough),
		cmocka_unit_test(guarded_kfuncs_may_be_absent),
		cmocka_unit_test(no_sched_ext_or_no_btf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
