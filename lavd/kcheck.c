// SPDX-License-Identifier: GPL-2.0-only
/* Could lavd load on this kernel? (kcheck.h) */
#include "kcheck.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <gelf.h>
#include <libelf.h>

#include "skel.h"
#include "sysinfo.h"

/*
 * Kfuncs that changed names between kernels: one name of each row must
 * resolve (lib/scx_compat.bpf.h calls the newest that does).
 */
static const char *const renamed[][3] = {
	{ "scx_bpf_dsq_insert___v2", "scx_bpf_dsq_insert", "scx_bpf_dispatch" },
	{ "__scx_bpf_dsq_insert_vtime", "scx_bpf_dsq_insert_vtime",
	  "scx_bpf_dispatch_vtime" },
	{ "scx_bpf_dsq_move_to_local___v2", "scx_bpf_dsq_move_to_local",
	  "scx_bpf_consume" },
};
#define NR_RENAMED (sizeof(renamed) / sizeof(renamed[0]))

/*
 * Kfuncs the program calls only behind bpf_ksym_exists() under their own
 * name. The ones it declares with a ___lavd flavour are guarded too.
 */
static const char *const guarded[] = { "scx_bpf_now", "scx_bpf_cpuperf_set" };

/* One line of names, "a, b (why), c" */
struct name_list {
	char buf[1536];
	size_t len;
	int n;
};

static void list_add(struct name_list *l, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (l->len + 8 >= sizeof(l->buf))
		return;		/* a long list keeps its head; n still counts */
	if (l->n)
		l->len += (size_t)snprintf(l->buf + l->len, sizeof(l->buf) - l->len, ", ");
	va_start(ap, fmt);
	w = vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap);
	va_end(ap);
	l->len = w < 0 ? l->len : l->len + (size_t)w;
	if (l->len >= sizeof(l->buf))
		l->len = sizeof(l->buf) - 1;
	l->n++;
}

/* What the kernel has under one name, against lavd's declaration. */
struct kf_fit {
	bool present, fits;
	int kargs, largs;
	bool aux;		/* its last argument is the implicit 'aux' */
};

/*
 * Resolves like libbpf: a FUNC of the name in the kernel's BTF with as
 * many arguments as lavd declares. A kfunc with implicit arguments
 * (KF_IMPLICIT_ARGS) shows the kernel's BTF a prototype without them and
 * keeps the full one as NAME_impl; a build that skipped that rewrite
 * leaves 'aux' in the public prototype, and no program can call it.
 */
static struct kf_fit fit_of(const struct btf *kbtf, const char *name, int largs)
{
	struct kf_fit f = { .largs = largs };
	const struct btf_type *t, *proto;
	const struct btf_param *p;
	int id = btf__find_by_name_kind(kbtf, name, BTF_KIND_FUNC);

	if (id < 0)
		return f;
	t = btf__type_by_id(kbtf, (__u32)id);
	proto = t ? btf__type_by_id(kbtf, t->type) : NULL;
	if (!proto || !btf_is_func_proto(proto))
		return f;
	f.present = true;
	f.kargs = btf_vlen(proto);
	f.fits = f.kargs == largs;
	p = btf_params(proto);
	f.aux = f.kargs > 0 &&
		!strcmp(btf__name_by_offset(kbtf, p[f.kargs - 1].name_off), "aux");
	return f;
}

/* libbpf's lookup name: NAME___flavour is looked up as NAME */
static bool essential_name(const char *name, char *out, size_t size)
{
	size_t n = strlen(name), len = n;

	for (size_t i = n >= 5 ? n - 5 + 1 : 0; i-- > 0;)
		if (name[i] != '_' && !strncmp(name + i + 1, "___", 3) &&
		    name[i + 4] != '_') {
			len = i + 1;
			break;
		}
	if (len >= size)
		return false;
	memcpy(out, name, len);
	out[len] = '\0';
	return len != n;
}

static int renamed_row(const char *name)
{
	for (size_t r = 0; r < NR_RENAMED; r++)
		for (int j = 0; j < 3; j++)
			if (!strcmp(renamed[r][j], name))
				return (int)r;
	return -1;
}

static bool is_guarded(const char *name)
{
	for (size_t i = 0; i < sizeof(guarded) / sizeof(guarded[0]); i++)
		if (!strcmp(guarded[i], name))
			return true;
	return false;
}

/* The verdict on every kfunc the program declares */
struct kf_report {
	struct name_list missing, differ, optional;
	bool row_ok[NR_RENAMED], row_seen[NR_RENAMED], row_aux[NR_RENAMED], aux;
	char row_differ[NR_RENAMED][224];
	int called, resolved;
};

static void judge(struct kf_report *r, const char *name, struct kf_fit f,
		  bool flavoured)
{
	int row = renamed_row(name);

	r->called++;
	r->resolved += f.fits;
	if (row >= 0) {
		r->row_seen[row] = true;
		r->row_ok[row] = r->row_ok[row] || f.fits;
		r->row_aux[row] = r->row_aux[row] || f.aux;
		if (f.present && !f.fits && !r->row_differ[row][0])
			snprintf(r->row_differ[row], sizeof(r->row_differ[row]),
				 "%s (takes %d, lavd passes %d%s)", name, f.kargs,
				 f.largs, f.aux ? "; the last is the implicit 'aux'" : "");
		return;
	}
	if (f.fits)
		return;
	if (flavoured || is_guarded(name)) {
		list_add(&r->optional, "%s", name);
		return;
	}
	r->aux = r->aux || f.aux;
	if (!f.present)
		list_add(&r->missing, "%s", name);
	else
		list_add(&r->differ, "%s (takes %d, lavd passes %d%s)", name,
			 f.kargs, f.largs, f.aux ? "; the last is the implicit 'aux'" : "");
}

/*
 * The BTF of lavd's own object as compiled: libbpf's open rewrites the
 * extern FUNCs (linkage, the .ksyms section), so read the .BTF section of
 * the ELF the skeleton embeds.
 */
struct btf *lavd_program_btf(void)
{
	size_t sz, shstrndx;
	/* elf_memory() reads the image; it takes char * for its other modes */
	char *image = (char *)lavd__elf_bytes(&sz);
	struct btf *btf = NULL;
	Elf_Scn *scn = NULL;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	elf = elf_memory(image, sz);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		goto out;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) ||
		    strcmp(elf_strptr(elf, shstrndx, sh.sh_name) ?: "", ".BTF"))
			continue;
		d = elf_getdata(scn, NULL);
		btf = d ? btf__new(d->d_buf, (__u32)d->d_size) : NULL;
		break;
	}
out:
	elf_end(elf);
	return btf;
}

/* Walks the extern FUNCs of lavd's own object (never loaded). */
static int judge_program(const struct btf *kbtf, struct kf_report *r)
{
	struct btf *pbtf = lavd_program_btf();
	char ename[128];

	if (!pbtf)
		return -1;
	for (__u32 id = 1; id < btf__type_cnt(pbtf); id++) {
		const struct btf_type *t = btf__type_by_id(pbtf, id);
		const char *name;
		bool flavoured;

		/* a FUNC keeps its linkage in vlen */
		if (!btf_is_func(t) || btf_vlen(t) != BTF_FUNC_EXTERN)
			continue;
		name = btf__name_by_offset(pbtf, t->name_off);
		flavoured = essential_name(name, ename, sizeof(ename));
		judge(r, ename, fit_of(kbtf, ename,
				       btf_vlen(btf__type_by_id(pbtf, t->type))),
		      flavoured);
	}
	btf__free(pbtf);
	for (size_t row = 0; row < NR_RENAMED; row++) {
		if (!r->row_seen[row] || r->row_ok[row])
			continue;
		r->aux = r->aux || r->row_aux[row];
		if (r->row_differ[row][0])
			list_add(&r->differ, "%s", r->row_differ[row]);
		else
			list_add(&r->missing, "%s (or %s, %s)", renamed[row][0],
				 renamed[row][1], renamed[row][2]);
	}
	return 0;
}

/* One line per finding; true when every kfunc lavd needs resolves. */
static bool report_kfuncs(const struct btf *kbtf, const char *who, FILE *out)
{
	struct kf_report r = { 0 };

	if (judge_program(kbtf, &r) < 0) {
		fprintf(out, "%s: cannot read lavd's own BPF object\n", who);
		return false;
	}
	if (r.missing.n)
		fprintf(out, "%s: kfuncs missing: %s\n", who, r.missing.buf);
	if (r.differ.n)
		fprintf(out, "%s: kfuncs whose arguments differ from lavd's call: %s\n",
			who, r.differ.buf);
	if (r.aux)
		fprintf(out, "%s: its BTF still shows the implicit 'aux' argument "
			"(no NAME_impl twin): a fault of this kernel's build; no "
			"sched_ext program calling these kfuncs can load there\n",
			who);
	if (!r.missing.n && !r.differ.n)
		fprintf(out, "%s: kfuncs: every one lavd needs resolves (%d of "
			"the %d names it declares)\n", who, r.resolved, r.called);
	if (r.optional.n)
		fprintf(out, "%s: guarded kfuncs it lacks (lavd goes without): %s\n",
			who, r.optional.buf);
	return !r.missing.n && !r.differ.n;
}

bool lavd_kernel_check(FILE *out, const char *btf_path)
{
	const char *who = btf_path ? btf_path : "this kernel";
	bool scx = true, ok;
	struct btf *btf;

	if (!btf_path) {
		scx = access(GS_SCX_ROOT, F_OK) == 0;
		fprintf(out, "this kernel: sched_ext %s\n", scx ? "yes" :
			"no (" GS_SCX_ROOT " is missing)");
	}
	btf = btf_path ? btf__parse(btf_path, NULL) : btf__load_vmlinux_btf();
	if (!btf) {
		char why[128];

		/* libbpf's own codes (an unknown format) are past errno's */
		libbpf_strerror(errno, why, sizeof(why));
		fprintf(out, "%s: no BTF (%s%s): lavd cannot load %s\n", who,
			btf_path ? "" : "/sys/kernel/btf/vmlinux: ", why,
			btf_path ? "there" : "here");
		return false;
	}
	ok = btf__find_by_name_kind(btf, "sched_ext_ops", BTF_KIND_STRUCT) >= 0;
	fprintf(out, "%s: BTF yes, struct sched_ext_ops %s\n", who,
		ok ? "yes" : "no");
	/* without the ops type every kfunc is missing: one line says it */
	ok = ok && report_kfuncs(btf, who, out) && scx;
	btf__free(btf);
	fprintf(out, "%s: %s\n", who, ok ?
		(btf_path ? "lavd can load there" : "lavd can load here") :
		(btf_path ? "lavd cannot load there" :
		 "lavd cannot load here (lavd --check --eevdf: what runs instead)"));
	return ok;
}
