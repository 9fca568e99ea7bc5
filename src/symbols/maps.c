/*
 * symbols/maps.c - each process's memory maps, sorted by start, apart.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/maps.h"

struct proc {
	uint32_t pid;
	int used; /* 0: an empty slot (pid 0 is a pid like the others) */
	struct sym_map *maps;
	size_t n, cap;
	uint64_t gen; /* changes with its maps (sym_maps_of()) */
};

static size_t slot_of(const struct sym_maps *m, uint32_t pid)
{
	size_t i = (pid * 2654435761u) & (m->cap - 1);

	while (m->procs[i].used && m->procs[i].pid != pid)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int grow_table(struct sym_maps *m)
{
	struct sym_maps bigger = { .cap = m->cap ? m->cap * 2 : 256 };

	bigger.procs = calloc(bigger.cap, sizeof(*bigger.procs));
	if (!bigger.procs)
		return -1;
	for (size_t i = 0; i < m->cap; i++)
		if (m->procs[i].used)
			bigger.procs[slot_of(&bigger, m->procs[i].pid)] = m->procs[i];
	bigger.n = m->n;
	free(m->procs);
	*m = bigger;
	return 0;
}

static struct proc *proc_of(struct sym_maps *m, uint32_t pid, int create)
{
	size_t i;

	if (!m->cap && (!create || grow_table(m)))
		return NULL;
	i = slot_of(m, pid);
	if (m->procs[i].used || !create)
		return m->procs[i].used ? &m->procs[i] : NULL;
	if ((m->n + 1) * 2 > m->cap) {
		if (grow_table(m))
			return NULL;
		i = slot_of(m, pid);
	}
	m->procs[i].pid = pid;
	m->procs[i].used = 1;
	m->n++;
	return &m->procs[i];
}

/* Insert keeping starts sorted; a new map replaces what it overlaps, and
 * of a map it overlaps in part the rest stays, as perf splits it (the
 * maps stay apart, so those it overlaps are one run of them). */
int sym_maps_add(struct sym_maps *m, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		 struct sym_dso *dso, int exec)
{
	struct proc *p;
	struct sym_map put[3];
	uint64_t end = start + len;
	size_t a = 0, b, r = 0, n;

	if (!len || end < start)
		return 0; /* maps nothing (a damaged record): no lookup could find it */
	if (!(p = proc_of(m, pid, 1)))
		return peo_fail(ENOMEM, "out of memory for process %u's maps", pid);
	m->hit_valid = 0;
	p->gen = ++m->gen;
	while (a < p->n && p->maps[a].end <= start)
		a++;
	for (b = a; b < p->n && p->maps[b].start < end; b++)
		;
	if (a < b && p->maps[a].start < start) /* the part of the first before the new one */
		put[r++] = (struct sym_map){ p->maps[a].start, start, p->maps[a].pgoff, p->maps[a].dso,
					     p->maps[a].exec };
	put[r++] = (struct sym_map){ start, end, pgoff, dso, exec };
	if (a < b && p->maps[b - 1].end > end) /* the part of the last after it */
		put[r++] = (struct sym_map){ end, p->maps[b - 1].end,
					     p->maps[b - 1].pgoff + (end - p->maps[b - 1].start),
					     p->maps[b - 1].dso, p->maps[b - 1].exec };
	n = p->n - (b - a) + r;
	if (n > p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct sym_map *more = realloc(p->maps, cap * sizeof(*more));

		if (!more)
			return peo_fail(ENOMEM, "out of memory for process %u's maps", pid);
		p->maps = more;
		p->cap = cap;
	}
	memmove(p->maps + a + r, p->maps + b, (p->n - b) * sizeof(*p->maps));
	memcpy(p->maps + a, put, r * sizeof(*put));
	p->n = n;
	return 0;
}

int sym_maps_identity(const char *filename, uint32_t flags)
{
	static const char *const prefixes[] = { "/dev/zero", "/anon_hugepage", "[stack", "/SYSV" };

	if (!filename || (flags & 0x40000) /* MAP_HUGETLB */ || !strcmp(filename, "//anon") ||
	    !strcmp(filename, "[heap]"))
		return 1;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(filename, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

int sym_maps_fork(struct sym_maps *m, uint32_t parent, uint32_t child)
{
	struct proc *pp, *cp;

	if (parent == child)
		return 0;
	/* A pid used before is a new process now: none of the old one's maps */
	if ((cp = proc_of(m, child, 0))) {
		cp->n = 0;
		cp->gen = ++m->gen;
		m->hit_valid = 0; /* the cache may hold one of them */
	}
	if (!proc_of(m, parent, 0))
		return 0;
	/* The child first: making it may move the table, adding its maps does
	 * not (so the parent's entry is looked up again after). */
	if (!proc_of(m, child, 1))
		return peo_fail(ENOMEM, "out of memory for process %u's maps", child);
	pp = proc_of(m, parent, 0);
	for (size_t i = 0; i < pp->n; i++)
		if (sym_maps_add(m, child, pp->maps[i].start, pp->maps[i].end - pp->maps[i].start,
				 pp->maps[i].pgoff, pp->maps[i].dso, pp->maps[i].exec))
			return -ENOMEM;
	return 0;
}

void sym_maps_forget(struct sym_maps *m, uint32_t pid)
{
	struct proc *p = proc_of(m, pid, 0);

	if (p) {
		p->n = 0;
		p->gen = ++m->gen;
	}
	m->hit_valid = 0;
}

const struct sym_map *sym_maps_find(struct sym_maps *m, uint32_t pid, uint64_t addr)
{
	struct proc *p;
	size_t lo = 0, hi;

	if (m->hit_valid && pid == m->hit_pid && addr >= m->hit.start && addr < m->hit.end)
		return &m->hit;
	p = proc_of(m, pid, 0);
	if (!p)
		return NULL;
	hi = p->n;
	while (lo < hi) { /* the last map starting at or below addr */
		size_t mid = (lo + hi) / 2;

		if (p->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= p->maps[lo - 1].end)
		return NULL;
	m->hit_valid = 1;
	m->hit_pid = pid;
	m->hit = p->maps[lo - 1];
	return &m->hit;
}

const struct sym_map *sym_maps_of(struct sym_maps *m, uint32_t pid, size_t *n, uint64_t *gen)
{
	struct proc *p = proc_of(m, pid, 0);

	*n = p ? p->n : 0;
	*gen = p ? p->gen : 0;
	return p ? p->maps : NULL;
}

void sym_maps_free(struct sym_maps *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->procs[i].maps);
	free(m->procs);
	memset(m, 0, sizeof(*m));
}
