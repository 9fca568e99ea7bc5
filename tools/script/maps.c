/*
 * script/maps.c - each process's memory maps from MMAP/MMAP2 records (and
 * inherited at FORK), to turn a user address into its offset in the file
 * mapped there, as perf script prints callchain addresses.
 */
#include <stdlib.h>
#include <string.h>

#include "script/maps.h"

struct map {
	uint64_t start, end, pgoff;
};

struct proc {
	uint32_t pid;
	int used; /* 0: an empty slot (pid 0 is a pid like the others) */
	struct map *maps;
	size_t n, cap;
};

static size_t slot_of(const struct script_maps *m, uint32_t pid)
{
	size_t i = (pid * 2654435761u) & (m->cap - 1);

	while (m->procs[i].used && m->procs[i].pid != pid)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int grow_table(struct script_maps *m)
{
	struct script_maps bigger = { .cap = m->cap ? m->cap * 2 : 256 };

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

static struct proc *proc_of(struct script_maps *m, uint32_t pid, int create)
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
int script_maps_add(struct script_maps *m, uint32_t pid, uint64_t start, uint64_t len,
		    uint64_t pgoff)
{
	struct proc *p;
	struct map put[3];
	uint64_t end = start + len;
	size_t a = 0, b, r = 0, n;

	if (!len || end < start)
		return 0; /* maps nothing (a damaged record): no lookup could find it */
	if (!(p = proc_of(m, pid, 1)))
		return -1;
	m->hit_valid = 0;
	while (a < p->n && p->maps[a].end <= start)
		a++;
	for (b = a; b < p->n && p->maps[b].start < end; b++)
		;
	if (a < b && p->maps[a].start < start) /* the part of the first before the new one */
		put[r++] = (struct map){ p->maps[a].start, start, p->maps[a].pgoff };
	put[r++] = (struct map){ start, end, pgoff };
	if (a < b && p->maps[b - 1].end > end) /* the part of the last after it */
		put[r++] = (struct map){ end, p->maps[b - 1].end,
					 p->maps[b - 1].pgoff + (end - p->maps[b - 1].start) };
	n = p->n - (b - a) + r;
	if (n > p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct map *more = realloc(p->maps, cap * sizeof(*more));

		if (!more)
			return -1;
		p->maps = more;
		p->cap = cap;
	}
	memmove(p->maps + a + r, p->maps + b, (p->n - b) * sizeof(*p->maps));
	memcpy(p->maps + a, put, r * sizeof(*put));
	p->n = n;
	return 0;
}

int script_maps_identity(const char *filename, uint32_t flags)
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

int script_maps_fork(struct script_maps *m, uint32_t parent, uint32_t child)
{
	struct proc *pp, *cp;

	if (parent == child)
		return 0;
	/* A pid used before is a new process now: none of the old one's maps */
	if ((cp = proc_of(m, child, 0))) {
		cp->n = 0;
		m->hit_valid = 0; /* the cache may hold one of them */
	}
	if (!proc_of(m, parent, 0))
		return 0;
	/* The child first: making it may move the table, adding its maps does
	 * not (so the parent's entry is looked up again after). */
	if (!proc_of(m, child, 1))
		return -1;
	pp = proc_of(m, parent, 0);
	for (size_t i = 0; i < pp->n; i++)
		if (script_maps_add(m, child, pp->maps[i].start, pp->maps[i].end - pp->maps[i].start,
				    pp->maps[i].pgoff))
			return -1;
	return 0;
}

int script_maps_offset(struct script_maps *m, uint32_t pid, uint64_t addr, uint64_t *off)
{
	struct proc *p;
	size_t lo = 0, hi;

	if (m->hit_valid && pid == m->hit_pid && addr >= m->hit_start && addr < m->hit_end) {
		*off = addr - m->hit_start + m->hit_pgoff;
		return 1;
	}
	p = proc_of(m, pid, 0);
	if (!p)
		return 0;
	hi = p->n;
	while (lo < hi) { /* the last map starting at or below addr */
		size_t mid = (lo + hi) / 2;

		if (p->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= p->maps[lo - 1].end)
		return 0;
	*off = addr - p->maps[lo - 1].start + p->maps[lo - 1].pgoff;
	m->hit_valid = 1;
	m->hit_pid = pid;
	m->hit_start = p->maps[lo - 1].start;
	m->hit_end = p->maps[lo - 1].end;
	m->hit_pgoff = p->maps[lo - 1].pgoff;
	return 1;
}

void script_maps_free(struct script_maps *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->procs[i].maps);
	free(m->procs);
	memset(m, 0, sizeof(*m));
}
