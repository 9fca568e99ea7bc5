/*
 * symbols/table.c - symbol tables: filled, put in perf's order, searched.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/table.h"

#define PAGE 4096u

int sym_table_reserve(struct sym_table *t, size_t n, size_t names)
{
	if (t->cap - t->n < n) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct sym_entry *v;

		while (cap - t->n < n)
			cap *= 2;
		if (!(v = realloc(t->v, cap * sizeof(*v))))
			return peo_fail(ENOMEM, "out of memory for %zu symbols", cap);
		t->v = v;
		t->cap = cap;
		peo_prefault(t->v + t->n, (cap - t->n) * sizeof(*v)); /* the kernel's 120k: 1,800 faults */
	}
	if (t->names_cap - t->names_len < names) {
		size_t cap = t->names_cap ? t->names_cap * 2 : 4096;
		char *more;

		while (cap - t->names_len < names)
			cap *= 2;
		if (cap > UINT32_MAX || !(more = realloc(t->names, cap)))
			return peo_fail(ENOMEM, "out of memory for %zu bytes of symbol names", cap);
		t->names = more;
		t->names_cap = cap;
		peo_prefault(t->names + t->names_len, cap - t->names_len);
	}
	return 0;
}

int sym_table_add(struct sym_table *t, uint64_t start, uint64_t size, const char *name,
		  enum sym_bind bind, unsigned flags)
{
	return sym_table_add_len(t, start, size, name, strlen(name), bind, flags);
}

int sym_table_add_len(struct sym_table *t, uint64_t start, uint64_t size, const char *name,
		      size_t name_len, enum sym_bind bind, unsigned flags)
{
	size_t len = name_len + 1;
	int err;

	if ((t->n == t->cap || t->names_cap - t->names_len < len) &&
	    (err = sym_table_reserve(t, 1, len)))
		return err;
	memcpy(t->names + t->names_len, name, len);
	/* a size past the end of the address space (a damaged file's) ends there */
	t->v[t->n] = (struct sym_entry){ .start = start,
					 .end = size > UINT64_MAX - start ? UINT64_MAX : start + size,
					 .name = (uint32_t)t->names_len, .order = (uint32_t)t->n,
					 .bind = (uint8_t)bind, .flags = (uint8_t)flags };
	t->names_len += len;
	t->n++;
	return 0;
}

static int by_start(const void *pa, const void *pb)
{
	const struct sym_entry *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* Whether @t's symbols are in by_start()'s order already. */
static int sorted(const struct sym_table *t)
{
	for (size_t i = 1; i < t->n; i++)
		if (by_start(&t->v[i - 1], &t->v[i]) > 0)
			return 0;
	return 1;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* Whether @b, at the same start as @a (added before it), is the one perf keeps. */
static int b_wins(const struct sym_table *t, const struct sym_entry *a, const struct sym_entry *b)
{
	const char *na = sym_name(t, a), *nb = sym_name(t, b);
	int a_sized = a->end > a->start, b_sized = b->end > b->start;
	size_t ua, ub;

	if (a_sized != b_sized)
		return b_sized;
	if ((a->bind == SYM_WEAK) != (b->bind == SYM_WEAK))
		return a->bind == SYM_WEAK;
	if ((a->bind == SYM_GLOBAL) != (b->bind == SYM_GLOBAL))
		return b->bind == SYM_GLOBAL;
	ua = leading_underscores(na);
	ub = leading_underscores(nb);
	if (ua != ub)
		return ub < ua;
	return strlen(nb) > strlen(na);
}

int sym_table_finish_before(struct sym_table *t, uint64_t next)
{
	struct sym_entry *last;
	size_t kept = 0;

	if (!t->n)
		return 0;
	if (!sorted(t)) /* kallsyms comes sorted: its 120k lines need no sort */
		qsort(t->v, t->n, sizeof(*t->v), by_start);
	/* Ends first, then the choice among aliases, in perf's order: an alias
	 * without a size ends where it starts, so of aliases that all lack
	 * one (kallsyms' lines) the last has a size and is the one kept. */
	for (size_t i = 0; i + 1 < t->n; i++)
		if (t->v[i].end == t->v[i].start)
			t->v[i].end = t->v[i + 1].start;
	last = &t->v[t->n - 1];
	if (last->end == last->start) /* the page after its own; the address space's end at most */
		last->end = next > last->start ? next
			    : last->start > UINT64_MAX - 2 * PAGE ? UINT64_MAX
			    : (last->start + PAGE - 1) / PAGE * PAGE + PAGE;
	for (size_t i = 1; i < t->n; i++) {
		if (t->v[i].start == t->v[kept].start) {
			if (b_wins(t, &t->v[kept], &t->v[i]))
				t->v[kept] = t->v[i];
			continue;
		}
		t->v[++kept] = t->v[i];
	}
	t->n = kept + 1;
	return 0;
}

int sym_table_finish(struct sym_table *t)
{
	return sym_table_finish_before(t, 0);
}

void sym_table_relocate(struct sym_table *t, uint64_t reloc)
{
	int wrapped = 0;

	for (size_t i = 0; i < t->n; i++) {
		struct sym_entry *e = &t->v[i];

		e->start += reloc;
		e->end = e->end + reloc < e->start ? UINT64_MAX : e->end + reloc;
		wrapped |= i && e->start < e[-1].start;
	}
	if (wrapped) /* a damaged file's symbols moved past the address space's end */
		qsort(t->v, t->n, sizeof(*t->v), by_start);
}

size_t sym_starting_at_or_below(const void *v, size_t n, size_t size, size_t offset, uint64_t addr)
{
	const char *base = v;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t start;

		memcpy(&start, base + mid * size + offset, sizeof(start));
		if (start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct sym_entry *sym_table_find(const struct sym_table *t, uint64_t addr)
{
	size_t lo = sym_starting_at_or_below(t->v, t->n, sizeof(*t->v),
					     offsetof(struct sym_entry, start), addr);

	/* the last symbol starting at or below addr, or one a few back that spans it (a symbol
	 * inside another: perf finds the outer one past the inner's end) */
	for (size_t i = lo, back = 0; i > 0 && back < 4; i--, back++)
		if (addr < t->v[i - 1].end)
			return &t->v[i - 1];
	return NULL;
}

void sym_table_fini(struct sym_table *t)
{
	free(t->v);
	free(t->names);
	memset(t, 0, sizeof(*t));
}
