// SPDX-License-Identifier: GPL-2.0-only
/* The uprobes on present calls (present_attach.h). */
#include "present_attach.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "trace/ftutil.h"
#include "trace/present.h"
#include "procnames.h"
#include "util.h"

int ft_present_spec_parse(const char *arg, struct ft_present_spec *s,
			  bool *is_auto, char *err, size_t errlen)
{
	const char *at = strchr(arg, '@');
	size_t n = at ? (size_t)(at - arg) : strlen(arg);

	memset(s, 0, sizeof(*s));
	*is_auto = false;
	if (!strcmp(arg, "auto")) {
		*is_auto = true;
		return 0;
	}
	if (!n || n >= sizeof(s->func)) {
		snprintf(err, errlen, "expected auto or FUNC[@LIB], got '%.80s'",
			 arg);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!(isalnum((unsigned char)arg[i]) || arg[i] == '_' ||
		      arg[i] == '.' || arg[i] == '$')) {
			snprintf(err, errlen,
				 "'%.*s' is not a function name (FUNC[@LIB])",
				 (int)(n < 80 ? n : 80), arg);
			return -1;
		}
	memcpy(s->func, arg, n);
	if (at) {
		if (!at[1] || strlen(at + 1) >= sizeof(s->lib)) {
			snprintf(err, errlen, "'%.80s': no library after '@'",
				 arg);
			return -1;
		}
		snprintf(s->lib, sizeof(s->lib), "%s", at + 1);
	}
	return 0;
}

void ft_present_cli_add(struct ft_present_cli *c, const char *arg)
{
	struct ft_present_spec sp;
	bool is_auto;
	char err[300];

	if (ft_present_spec_parse(arg, &sp, &is_auto, err, sizeof(err)))
		gs_die(EXIT_USAGE, "option --present: %s", err);
	if (is_auto) {
		c->autodetect = true;
		return;
	}
	if (c->nspec == FT_PRESENT_MAX_SPECS)
		gs_die(EXIT_USAGE, "option --present: at most %d functions",
		       FT_PRESENT_MAX_SPECS);
	c->spec[c->nspec++] = sp;
}

void ft_present_cli_pid(struct ft_present_cli *c, const char *arg)
{
	char p[64];
	struct stat st;

	c->pid = (pid_t)gs_opt_u64("--pid", arg, 1, INT32_MAX);
	snprintf(p, sizeof(p), "/proc/%d", (int)c->pid);
	if (stat(p, &st))
		gs_die(EXIT_USAGE, "option --pid: no process %d", (int)c->pid);
}

void ft_present_cli_check(const struct ft_present_cli *c, bool command)
{
	if (c->pid && command)
		gs_die(EXIT_USAGE, "option --pid: not with a command (-- CMD): "
				   "the command is the target");
	if (ft_present_cli_any(c) && !c->pid && !command)
		gs_die(EXIT_USAGE, "option --present needs -p PID or a command "
				   "after --");
}

void ft_presents_init(struct ft_presents *p, struct bpf_program *prog,
		      bool autodetect, const struct ft_present_spec *spec,
		      size_t nspec, pid_t root, int verbose)
{
	memset(p, 0, sizeof(*p));
	p->prog = prog;
	p->autodetect = autodetect;
	if (nspec > FT_PRESENT_MAX_SPECS)
		nspec = FT_PRESENT_MAX_SPECS;
	memcpy(p->spec, spec, nspec * sizeof(*spec));
	p->nspec = nspec;
	p->root = root;
	p->verbose = verbose;
}

static uint32_t func_id(struct ft_presents *p, const char *name)
{
	for (size_t i = 0; i < p->nfuncs; i++)
		if (!strcmp(p->funcs[i], name))
			return (uint32_t)i;
	if (p->nfuncs == FT_PRESENT_MAX_FUNCS)
		return 0;
	snprintf(p->funcs[p->nfuncs], sizeof(p->funcs[0]), "%s", name);
	return (uint32_t)p->nfuncs++;
}

const char *ft_presents_func(const struct ft_presents *p, uint32_t id)
{
	return id < p->nfuncs ? p->funcs[id] : "present";
}

/* One uprobe: func in the file at path (as the process sees it: under
 * /proc/PID/root), for pid. Tried once per (pid, file, func); a file
 * without the symbol is remembered as tried. */
static size_t attach_one(struct ft_presents *p, pid_t pid, const char *path,
			 const char *func)
{
	char real[600];
	struct stat st;
	uint32_t fid;
	struct ft_present_att *a;

	/* the file as the process sees it (a container has its own root) */
	snprintf(real, sizeof(real), "/proc/%d/root%s", (int)pid, path);
	if (stat(real, &st)) {
		snprintf(real, sizeof(real), "%s", path);
		if (stat(real, &st))
			return 0;
	}
	fid = func_id(p, func);
	for (size_t i = 0; i < p->natt; i++) {
		const struct ft_present_att *o = &p->att[i];

		if (o->pid == pid && o->func == fid &&
		    ((o->dev == st.st_dev && o->ino == st.st_ino) ||
		     !strcmp(o->path, path)))
			return 0;
	}
	if (p->nlinks >= FT_PRESENT_MAX_ATTACH) {
		if (!p->full)
			gs_warn("present: %d uprobes attached; no more",
				FT_PRESENT_MAX_ATTACH);
		p->full = true;
		return 0;
	}
	if (FT_VEC_RESERVE(p->att, p->natt, p->attcap))
		return 0;
	a = &p->att[p->natt++];
	memset(a, 0, sizeof(*a));
	a->pid = pid;
	a->dev = st.st_dev;
	a->ino = st.st_ino;
	a->func = fid;
	snprintf(a->path, sizeof(a->path), "%s", path);
	{
		LIBBPF_OPTS(bpf_uprobe_opts, uo, .func_name = func,
			    .bpf_cookie = (uint64_t)(uint32_t)pid << 32 | fid);

		a->link = bpf_program__attach_uprobe_opts(p->prog, pid, real, 0,
							  &uo);
	}
	if (!a->link) {
		if (p->verbose)
			gs_warn("present: %s in %s (pid %d): not attached: %s",
				func, path, (int)pid, strerror(errno));
		return 0;
	}
	p->nlinks++;
	if (p->verbose)
		gs_warn("present: %s in %s (pid %d) attached", func, path,
			(int)pid);
	return 1;
}

/* The file name after the last '/'. */
static const char *base(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* Does the mapped file at path match a spec's library: a path (exact), or
 * a file name (the file's name, or its name up to a '.' after it:
 * "libGLX.so.0" matches libGLX.so.0.0.0)? */
static bool lib_matches(const char *lib, const char *path)
{
	const char *b = base(path);
	size_t n = strlen(lib);

	if (strchr(lib, '/'))
		return !strcmp(lib, path);
	return !strncmp(b, lib, n) && (b[n] == '\0' || b[n] == '.');
}

/* Does the ELF file at path name soname among its DT_NEEDED? (glvnd's
 * libGL.so.1 needs libGLX.so.0 and only jumps there.) */
static bool elf_needs(const char *path, const char *soname)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e = NULL;
	Elf_Scn *scn = NULL;
	bool found = false;

	if (fd < 0)
		return false;
	if (elf_version(EV_CURRENT) != EV_NONE)
		e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && !found && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !(d = elf_getdata(scn, NULL)) || !sh.sh_entsize)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Dyn dyn;
			const char *name;

			if (!gelf_getdyn(d, (int)i, &dyn) ||
			    dyn.d_tag != DT_NEEDED)
				continue;
			name = elf_strptr(e, sh.sh_link, dyn.d_un.d_val);
			if (name && !strcmp(name, soname)) {
				found = true;
				break;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return found;
}

/* What to probe in the files of one process (paths as mapped). */
static size_t attach_files(struct ft_presents *p, pid_t pid,
			   const char *const *paths, size_t n)
{
	size_t added = 0;

	if (p->autodetect) {
		struct ft_present_target tg[16];
		bool *glvnd = calloc(n ? n : 1, sizeof(*glvnd)), glx = false;
		size_t k;

		/* libGL's ELF matters only while no libGLX is mapped (with
		 * one, libGL is never probed): no reads on later scans */
		for (size_t i = 0; i < n && !glx; i++)
			glx = !strncmp(base(paths[i]), "libGLX.so", 9);
		/* the file as the process sees it, else as we do */
		for (size_t i = 0; glvnd && !glx && i < n; i++) {
			char real[600];

			if (strncmp(base(paths[i]), "libGL.so", 8))
				continue;
			snprintf(real, sizeof(real), "/proc/%d/root%s", (int)pid,
				 paths[i]);
			glvnd[i] = elf_needs(real, "libGLX.so.0") ||
				   elf_needs(paths[i], "libGLX.so.0");
		}
		k = ft_present_auto_targets(paths, n, glvnd, tg, 16);
		free(glvnd);

		for (size_t i = 0; i < k; i++)
			added += attach_one(p, pid, paths[tg[i].path], tg[i].func);
	}
	for (size_t s = 0; s < p->nspec; s++)
		for (size_t i = 0; i < n; i++)
			if (!p->spec[s].lib[0] ||
			    lib_matches(p->spec[s].lib, paths[i]))
				added += attach_one(p, pid, paths[i],
						    p->spec[s].func);
	return added;
}

/* ---- before a command runs: where the loader will find its libraries -- */

static size_t add_dir(char dirs[][512], size_t n, size_t max, const char *d,
		      size_t len)
{
	if (!len || len >= 512 || n >= max || d[0] != '/')
		return n;
	for (size_t i = 0; i < n; i++)
		if (strlen(dirs[i]) == len && !strncmp(dirs[i], d, len))
			return n;
	memcpy(dirs[n], d, len);
	dirs[n][len] = '\0';
	return n + 1;
}

/* Directories named in one ld.so.conf file (its "include" lines too, one
 * level deep). */
static size_t conf_dirs(const char *file, char dirs[][512], size_t n,
			size_t max, int depth)
{
	FILE *f = fopen(file, "r");
	char line[600];

	if (!f)
		return n;
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *e;

		while (isspace((unsigned char)*s))
			s++;
		e = s + strcspn(s, "#\n");
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
		*e = '\0';
		if (!strncmp(s, "include", 7) && isspace((unsigned char)s[7])) {
			glob_t g;

			for (s += 8; isspace((unsigned char)*s); s++)
				;
			if (depth < 2 && !glob(s, 0, NULL, &g)) {
				for (size_t i = 0; i < g.gl_pathc; i++)
					n = conf_dirs(g.gl_pathv[i], dirs, n, max,
						      depth + 1);
				globfree(&g);
			}
		} else if (*s == '/') {
			n = add_dir(dirs, n, max, s, strlen(s));
		}
	}
	fclose(f);
	return n;
}

/* LD_LIBRARY_PATH, ld.so.conf, then the standard directories: the order
 * the loader searches (its cache holds what ld.so.conf names). */
static size_t loader_dirs(char dirs[][512], size_t max)
{
	static const char *const std[] = {
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
		"/lib64", "/usr/lib64", "/lib", "/usr/lib",
	};
	const char *ld = getenv("LD_LIBRARY_PATH");
	size_t n = 0;

	while (ld && *ld) {
		size_t l = strcspn(ld, ":;");

		n = add_dir(dirs, n, max, ld, l);
		ld += l;
		if (*ld)
			ld++;
	}
	n = conf_dirs("/etc/ld.so.conf", dirs, n, max, 0);
	for (size_t i = 0; i < sizeof(std) / sizeof(std[0]); i++)
		n = add_dir(dirs, n, max, std[i], strlen(std[i]));
	return n;
}

/* The first directory holding name, into out. */
static bool find_lib(char dirs[][512], size_t ndirs, const char *name,
		     char *out, size_t len)
{
	for (size_t i = 0; i < ndirs; i++) {
		char p[1100];

		snprintf(p, sizeof(p), "%s/%s", dirs[i], name);
		if (!access(p, R_OK) && strlen(p) < len) {
			snprintf(out, len, "%s", p);
			return true;
		}
	}
	return false;
}

/* The executable files pid has mapped (paths as it sees them). */
static size_t mapped_files(pid_t pid, char ***paths)
{
	char fn[64], *buf = NULL, *line, *save = NULL, err[256];
	size_t len, n = 0, cap = 0;
	char **v = NULL;

	*paths = NULL;
	snprintf(fn, sizeof(fn), "/proc/%d/maps", (int)pid);
	if (gs_read_file(fn, 0, &buf, &len, err, sizeof(err)))
		return 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct ft_maps_line m;
		bool dup = false;

		if (!ft_maps_parse_line(line, &m) || !m.path)
			continue;
		for (size_t i = 0; i < n && !dup; i++)
			dup = !strcmp(v[i], m.path);
		if (dup || FT_VEC_RESERVE(v, n, cap))
			continue;
		v[n] = strdup(m.path);
		if (v[n])
			n++;
	}
	free(buf);
	*paths = v;
	return n;
}

static void free_paths(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static size_t attach_process(struct ft_presents *p, pid_t pid)
{
	char **paths;
	size_t n = mapped_files(pid, &paths), added;

	added = attach_files(p, pid, (const char *const *)paths, n);
	free_paths(paths, n);
	return added;
}

size_t ft_presents_start(struct ft_presents *p, bool command)
{
	char dirs[32][512], found[8][600];
	const char *paths[8 + FT_PRESENT_MAX_SPECS];
	size_t ndirs, n = 0, added;

	if (!p->root)
		return 0;
	if (!command)
		return ft_presents_scan(p, 0);
	ndirs = loader_dirs(dirs, 32);
	if (p->autodetect)
		for (size_t i = 0; i < ft_present_nloader_libs && n < 8; i++)
			if (find_lib(dirs, ndirs, ft_present_loader_libs[i],
				     found[n], sizeof(found[0])))
				n++;
	for (size_t i = 0; i < n; i++)
		paths[i] = found[i];
	added = 0;
	if (p->autodetect)
		added += attach_files(p, p->root, paths, n);
	/* named libraries: a path as it is, a file name in the loader's
	 * directories */
	for (size_t s = 0; s < p->nspec; s++) {
		char f[600];
		const char *lib = p->spec[s].lib;

		if (!lib[0])
			continue;
		if (strchr(lib, '/'))
			added += attach_one(p, p->root, lib, p->spec[s].func);
		else if (find_lib(dirs, ndirs, lib, f, sizeof(f)))
			added += attach_one(p, p->root, f, p->spec[s].func);
	}
	return added;
}

size_t ft_presents_scan(struct ft_presents *p, uint64_t now_ns)
{
	pid_t pids[256];
	size_t n, added = 0;

	if (!p->root || (now_ns && now_ns < p->next_scan_ns))
		return 0;
	p->next_scan_ns = now_ns + (uint64_t)FT_PRESENT_SCAN_MS * 1000000ULL;
	n = ft_proc_tree(p->root, pids, 256);
	for (size_t i = 0; i < n; i++)
		added += attach_process(p, pids[i]);
	return added;
}

void ft_presents_describe(const struct ft_presents *p, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->natt && o + 1 < len; i++) {
		const struct ft_present_att *a = &p->att[i];
		int w;

		if (!a->link)
			continue;
		w = snprintf(buf + o, len - o, "%s%s@%s (pid %d)", o ? ", " : "",
			     p->funcs[a->func], a->path, (int)a->pid);
		if (w < 0)
			break;
		o += (size_t)w;
	}
	if (o >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

void ft_presents_close(struct ft_presents *p)
{
	for (size_t i = 0; i < p->natt; i++)
		if (p->att[i].link)
			bpf_link__destroy(p->att[i].link);
	free(p->att);
	p->att = NULL;
	p->natt = p->attcap = p->nlinks = 0;
}
