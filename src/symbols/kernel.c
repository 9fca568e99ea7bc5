/*
 * symbols/kernel.c - the kernel's symbols from a kallsyms file, as perf
 * 6.1 reads them without a vmlinux (checked against perf script here,
 * tests/sym_kernel_compare.sh):
 *   - it keeps the lines of types t, w, d, b (either case) and drops the
 *     others (r, a, u, v, n...) and ARM's '$' local labels;
 *   - a line with "\t[MODULE]" belongs to that module's table, the others
 *     to [kernel.kallsyms]; a module the modules list does not name gets
 *     no table (perf has no map for it: [__builtin__ftrace], [bpf]);
 *   - each symbol ends where the next starts, the kernel's last one (and a
 *     module's followed by the kernel's) at the end of the page after its
 *     own, a module's followed by another module's at that one's start;
 *     ends come before the choice among aliases, so of the lines at one
 *     address the last is kept;
 *   - the kernel covers _text (_stext where there is no _text) up to the
 *     first module: perf record's map of it ends at _etext, but perf script
 *     stretches it to the next map (start_kernel, in .init.text past
 *     _etext, is named in the idle tasks' stacks); a module covers its
 *     /proc/modules range.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "symbols/kernel.h"

#define PAGE 4096u

static const char live_kallsyms[] = "/proc/kallsyms";

struct kload {
	struct sym_kernel *k;
	size_t cap;      /* of k->parts */
	size_t last_mod; /* the part of the last module line (they come in runs) */
	size_t with_addr; /* lines with a nonzero address */
	uint64_t text, stext, etext; /* 0: not seen */
};

/* Whether perf keeps a symbol of kallsyms type @type. */
static int kept_type(char type)
{
	switch (type) {
	case 'T': case 't': case 'W': case 'w': case 'D': case 'd': case 'B': case 'b':
		return 1;
	default:
		return 0;
	}
}

/* The binding perf gives a kallsyms type: only 'W' is weak. */
static enum sym_bind type_bind(char type)
{
	if (type == 'W')
		return SYM_WEAK;
	return type >= 'A' && type <= 'Z' ? SYM_GLOBAL : SYM_LOCAL;
}

/* Whether @part is module @module's, "[@module]" (@len: its length). */
static int is_module(const struct sym_kpart *part, const char *module, size_t len)
{
	return !strncmp(part->name + 1, module, len) && !strcmp(part->name + 1 + len, "]");
}

/* The part named [@module], added when new. */
static struct sym_kpart *module_part(struct kload *ld, const char *module)
{
	struct sym_kernel *k = ld->k;
	size_t len = strlen(module);

	if (ld->last_mod && is_module(&k->parts[ld->last_mod], module, len))
		return &k->parts[ld->last_mod];
	for (size_t i = 1; i < k->nparts; i++)
		if (is_module(&k->parts[i], module, len)) {
			ld->last_mod = i;
			return &k->parts[i];
		}
	if (k->nparts == ld->cap) {
		size_t cap = ld->cap * 2;
		struct sym_kpart *more = realloc(k->parts, cap * sizeof(*more));

		if (!more)
			return NULL;
		k->parts = more;
		ld->cap = cap;
	}
	memset(&k->parts[k->nparts], 0, sizeof(k->parts[0]));
	if (asprintf(&k->parts[k->nparts].name, "[%s]", module) < 0) {
		k->parts[k->nparts].name = NULL;
		return NULL;
	}
	ld->last_mod = k->nparts;
	return &k->parts[k->nparts++];
}

/* Where perf finds the kernel's start and end: a function (or absolute) symbol, the first. */
static void note_bounds(struct kload *ld, const struct peo_kallsyms_line *l)
{
	uint64_t *at = NULL;

	if (l->module || l->name[0] != '_' || !strchr("TtWwA", l->type))
		return;
	if (!strcmp(l->name, "_text"))
		at = &ld->text;
	else if (!strcmp(l->name, "_stext"))
		at = &ld->stext;
	else if (!strcmp(l->name, "_etext"))
		at = &ld->etext;
	if (at && !*at)
		*at = l->addr;
}

static int add_line(const struct peo_kallsyms_line *l, void *arg)
{
	struct kload *ld = arg;
	struct sym_kpart *part;

	if (l->addr)
		ld->with_addr++;
	note_bounds(ld, l);
	if (!kept_type(l->type) || l->name[0] == '$')
		return 0;
	part = l->module ? module_part(ld, l->module) : &ld->k->parts[0];
	if (!part)
		return peo_fail(ENOMEM, "out of memory for the kernel's modules");
	if (!part->syms.n || l->addr < part->start) /* its lowest, until finish_parts() */
		part->start = l->addr;
	return sym_table_add_len(&part->syms, l->addr, 0, l->name, l->name_len, type_bind(l->type), 0);
}

/* One sentence: what hid the addresses, and how to see them. */
static int say_hidden(struct sym_kernel *k, const char *path)
{
	long restrict_ = -1, paranoid = -1;
	int n;

	peo_read_long_file("/proc/sys/kernel/kptr_restrict", &restrict_);
	peo_read_long_file("/proc/sys/kernel/perf_event_paranoid", &paranoid);
	if (strcmp(path, live_kallsyms))
		n = asprintf(&k->hidden, "%s gives every kernel address as 0 (it was saved where "
			     "they were hidden from its reader): no kernel symbols; save it again as "
			     "root, or read /proc/kallsyms", path);
	else if (restrict_ >= 2)
		n = asprintf(&k->hidden, "/proc/kallsyms hides the kernel's addresses from every "
			     "user, root too, while kernel.kptr_restrict=%ld: no kernel symbols; "
			     "set kernel.kptr_restrict to 0 and run as root to see them", restrict_);
	else if (restrict_ == 1)
		n = asprintf(&k->hidden, "/proc/kallsyms hides the kernel's addresses from users "
			     "without CAP_SYSLOG while kernel.kptr_restrict=1: no kernel symbols; "
			     "run as root, or set kernel.kptr_restrict to 0 and "
			     "kernel.perf_event_paranoid (now %ld) to 1 or less", paranoid);
	else if (restrict_ == 0)
		n = asprintf(&k->hidden, "/proc/kallsyms hides the kernel's addresses from users "
			     "without CAP_SYSLOG while kernel.perf_event_paranoid=%ld (with "
			     "kernel.kptr_restrict=0): no kernel symbols; run as root, or set "
			     "kernel.perf_event_paranoid to 1 or less", paranoid);
	else
		n = asprintf(&k->hidden, "/proc/kallsyms hides the kernel's addresses from this "
			     "user: no kernel symbols; run as root (see the kernel.kptr_restrict "
			     "and kernel.perf_event_paranoid sysctls)");
	if (n < 0) {
		k->hidden = NULL;
		return peo_fail(ENOMEM, "out of memory for a sentence");
	}
	return 0;
}

/* A module's range from a modules list ("NAME SIZE USES DEPS STATE ADDRESS"):
 * 1 when listed, 0 when not. */
static int listed_range(const char *list, const char *name, uint64_t *start, uint64_t *end)
{
	size_t len = strlen(name) - 2; /* name is "[module]" */

	for (const char *p = list; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long size, addr;

		if (strncmp(p, name + 1, len) || p[len] != ' ')
			continue;
		if (sscanf(p + len, " %llu %*s %*s %*s %llx", &size, &addr) != 2)
			return 0;
		*start = addr;
		*end = addr + size;
		return 1;
	}
	return 0;
}

/* The modules list that goes with @path: /proc/modules for the live file
 * (none at all when the kernel has no modules), a "modules" file beside a
 * saved one (perf's build-id cache keeps them so); *none 1 when there is
 * no list, and each module then spans its symbols. */
static char *modules_list(const char *path, int *none)
{
	char *list, *beside;
	const char *slash;

	*none = 0;
	if (!strcmp(path, live_kallsyms)) {
		list = peo_read_text_file("/proc/modules");
		return list ? list : strdup("");
	}
	slash = strrchr(path, '/');
	if (asprintf(&beside, "%.*smodules", slash ? (int)(slash - path + 1) : 0, path) < 0)
		return NULL;
	list = peo_read_text_file(beside);
	free(beside);
	*none = !list;
	return list;
}

static int by_start(const void *pa, const void *pb)
{
	const struct sym_kpart *a = pa, *b = pb;

	return a->start < b->start ? -1 : a->start > b->start;
}

void sym_kernel_sort_parts(struct sym_kernel *k)
{
	if (k->nparts > 1)
		qsort(k->parts + 1, k->nparts - 1, sizeof(*k->parts), by_start);
}

static void part_fini(struct sym_kpart *p)
{
	free(p->name);
	sym_table_fini(&p->syms);
}

/* The kernel's part ends where the first module above it starts (or at the
 * end of the address space), as perf stretches its kernel map; a vmlinux's
 * ends with its .text. */
static void stretch_kernel(struct sym_kernel *k)
{
	if (k->vmlinux)
		return;
	k->parts[0].end = UINT64_MAX;
	for (size_t i = 1; i < k->nparts; i++)
		if (k->parts[i].start > k->parts[0].start) {
			k->parts[0].end = k->parts[i].start;
			break;
		}
}

/* End each part's symbols, give each part its range, drop unlisted modules. */
static int finish_parts(struct sym_kernel *k, const struct kload *ld, const char *path)
{
	struct sym_kpart *mods = k->parts + 1;
	size_t nmods = k->nparts - 1, kept = 0;
	uint64_t kernel_first = k->parts[0].syms.n ? k->parts[0].start : UINT64_MAX;
	int none, err = 0;
	char *list;

	/* a module's last symbol ends at the next module's first (in address
	 * order, the kernel's excepted); so sort the modules by their first */
	qsort(mods, nmods, sizeof(*mods), by_start);
	for (size_t i = 0; i < nmods && !err; i++) {
		uint64_t next = i + 1 < nmods ? mods[i + 1].start : 0;

		if (kernel_first > mods[i].start && (!next || kernel_first < next))
			next = 0; /* the kernel's symbols come next */
		err = sym_table_finish_before(&mods[i].syms, next);
	}
	if (!err)
		err = sym_table_finish(&k->parts[0].syms);
	if (err)
		return err;

	list = modules_list(path, &none);
	if (!list && !none)
		return peo_fail(ENOMEM, "out of memory for the modules list");
	for (size_t i = 0; i < nmods; i++) {
		struct sym_kpart *m = &mods[i];

		m->end = m->syms.v[m->syms.n - 1].end;
		if (!none && !listed_range(list, m->name, &m->start, &m->end)) {
			part_fini(m);
			continue;
		}
		mods[kept++] = *m;
	}
	free(list);
	k->nparts = kept + 1;
	sym_kernel_sort_parts(k);

	k->parts[0].start = ld->text ? ld->text : ld->stext ? ld->stext : kernel_first;
	/* where the kernel runs, as perf finds it for a vmlinux's relocation */
	k->text_name = ld->text ? "_text" : ld->stext ? "_stext" : NULL;
	k->text_addr = ld->text ? ld->text : ld->stext;
	stretch_kernel(k);
	return 0;
}

/* Room for the kernel's symbols from @path, made at once (not grown and
 * copied as they come): sized by the file (about 44 bytes a line, 24 of
 * them the name), or for /proc/kallsyms (no size) by a large kernel's
 * 128k lines. */
static int reserve_kernel(struct sym_table *t, const char *path)
{
	struct stat st;
	size_t bytes = 128 * 44 * 1024;

	if (!stat(path, &st) && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size < 1l << 30)
		bytes = (size_t)st.st_size;
	return sym_table_reserve(t, bytes / 40, bytes * 6 / 10);
}

int sym_kernel_load(const char *kallsyms, struct sym_kernel *out)
{
	const char *path = kallsyms ? kallsyms : live_kallsyms;
	struct kload ld = { .k = out, .cap = 16 };
	int err;

	memset(out, 0, sizeof(*out));
	out->parts = calloc(ld.cap, sizeof(*out->parts));
	if (!out->parts || !(out->parts[0].name = strdup("[kernel.kallsyms]"))) {
		free(out->parts);
		out->parts = NULL;
		return peo_fail(ENOMEM, "out of memory for the kernel's symbols");
	}
	out->nparts = 1;
	err = reserve_kernel(&out->parts[0].syms, path);
	if (!err)
		err = peo_kallsyms_read(path, add_line, &ld);
	if (!err && !ld.with_addr) {
		sym_kernel_fini(out);
		err = say_hidden(out, path);
	} else if (!err) {
		err = finish_parts(out, &ld, path);
	}
	if (err)
		sym_kernel_fini(out);
	return err;
}

const struct sym_kpart *sym_kernel_part(const struct sym_kernel *k, uint64_t addr)
{
	size_t n;

	if (!k->nparts)
		return NULL;
	if (addr >= k->parts[0].start && addr < k->parts[0].end)
		return &k->parts[0];
	n = sym_starting_at_or_below(k->parts + 1, k->nparts - 1, sizeof(*k->parts), /* modules */
				     offsetof(struct sym_kpart, start), addr);
	return n && addr < k->parts[n].end ? &k->parts[n] : NULL;
}

int sym_kernel_set_range(struct sym_kernel *k, const char *name, uint64_t start, uint64_t end)
{
	for (size_t i = 0; i < k->nparts; i++) {
		if (strcmp(k->parts[i].name, name))
			continue;
		if (!i && k->vmlinux)
			return 0; /* perf maps a vmlinux's .text where it is */
		k->parts[i].start = start;
		k->parts[i].end = end;
		if (i) /* the modules stay sorted by start */
			sym_kernel_sort_parts(k);
		stretch_kernel(k);
		return 0;
	}
	return peo_fail(ENOENT, "no kernel symbols for %s: the kallsyms file has none of its "
			"lines, or the modules list does not name it", name);
}

void sym_kernel_fini(struct sym_kernel *k)
{
	for (size_t i = 0; i < k->nparts; i++)
		part_fini(&k->parts[i]);
	free(k->parts);
	free(k->hidden);
	free(k->vmlinux);
	memset(k, 0, sizeof(*k));
}
