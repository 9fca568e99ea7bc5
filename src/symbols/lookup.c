/*
 * symbols/lookup.c - an address of a process to its binary, symbol and
 * offset, as perf finds them: a kernel address in the kernel's symbols,
 * a user one through the process's maps into the file mapped there.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "symbols/processes.h"

static int in_kernel(uint16_t cpumode)
{
	return cpumode == PEO_RECORD_MISC_KERNEL || cpumode == PEO_RECORD_MISC_GUEST_KERNEL;
}

/* @out's symbol from @t at @at (an address of @t's), else none (@t may be
 * NULL). */
static int named(const struct sym_table *t, uint64_t at, struct peo_frame *out)
{
	const struct sym_entry *e = t ? sym_table_find(t, at) : NULL;

	if (!e)
		return 0;
	out->sym = sym_name(t, e);
	out->symoff = at - e->start;
	if (e->flags & SYM_PLT)
		out->flags |= PEO_FRAME_PLT;
	return 1;
}

/* A data address's symbol: a data object, or a function, in one table as
 * perf keeps them: a function without a size ends at the next object, so
 * it does not name an address past an object after it. */
static int data_named(const struct sym_binary *b, uint64_t at, struct peo_frame *out)
{
	const struct sym_table *d = &b->data;
	size_t below = sym_starting_at_or_below(d->v, d->n, sizeof(*d->v),
						offsetof(struct sym_entry, start), at);
	const struct sym_entry *fn = sym_table_find(&b->syms, at);

	if (named(d, at, out))
		return 1;
	if (fn && below && d->v[below - 1].start > fn->start)
		return 0; /* an object lies between the function and the address */
	return named(&b->syms, at, out);
}

static int kernel_frame(struct peo_processes *p, uint64_t addr, struct peo_frame *out)
{
	const struct sym_kpart *part = sym_kernel_part(sym_symbols_kernel(p->syms), addr);

	out->flags |= PEO_FRAME_KERNEL;
	if (!part)
		return 0; /* in no part of the kernel: perf says [unknown] ([unknown]) */
	out->dso = part->name;
	return named(&part->syms, addr, out);
}

static int user_frame(struct peo_processes *p, uint32_t pid, uint64_t addr, uint32_t flags,
		      struct peo_frame *out)
{
	const struct sym_map *m = sym_maps_find(&p->maps, pid, addr);
	const struct sym_binary *b;
	uint64_t vaddr;

	if (!m || !m->dso)
		return 0;
	out->dso = m->dso->name;
	out->dso_offset = addr - m->start + m->pgoff;
	if (!(b = sym_dso_binary(p->syms, m->dso)))
		return 0;
	if (m->dso->kind == SYM_DSO_JIT) /* a JIT's symbols are at the process's addresses */
		vaddr = addr;
	else if (!sym_binary_vaddr(b, out->dso_offset, &vaddr))
		return 0;
	return (flags & PEO_LOOKUP_DATA) ? data_named(b, vaddr, out) : named(&b->syms, vaddr, out);
}

int peo_processes_lookup(struct peo_processes *p, uint32_t pid, uint16_t cpumode, uint64_t addr,
			 uint32_t flags, struct peo_frame *out)
{
	size_t sz;
	int err, kernel, found;

	if (!p || !out)
		return peo_fail(EINVAL, "peo_processes_lookup: argument '%s' is NULL", p ? "out" : "p");
	if ((err = PEO_SIZED(out, peo_frame, PEO_FRAME_SZ_0_2)))
		return err;
	if (flags & ~(uint32_t)PEO_LOOKUP_DATA)
		return peo_fail(EINVAL, "peo_processes_lookup: flags 0x%x: unknown flags 0x%x (the "
				"flags are PEO_LOOKUP_*)", flags, flags & ~(uint32_t)PEO_LOOKUP_DATA);
	sz = out->sz;
	memset(out, 0, sz < sizeof(*out) ? sz : sizeof(*out)); /* past it: zeroed by PEO_SIZED */
	out->sz = sz;
	out->addr = addr;
	out->dso_offset = addr;
	kernel = in_kernel(cpumode);
	found = kernel ? kernel_frame(p, addr, out) : user_frame(p, pid, addr, flags, out);
	if ((flags & PEO_LOOKUP_DATA) && !out->dso) { /* the other space, as perf's fallback */
		out->flags = 0;
		found = kernel ? user_frame(p, pid, addr, flags, out) : kernel_frame(p, addr, out);
	}
	return found;
}
