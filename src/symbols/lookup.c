/*
 * symbols/lookup.c - an address of a process to its binary, symbol and
 * offset, as perf finds them: a kernel address in the kernel's symbols,
 * a user one through the process's maps into the file mapped there.
 */
#include <errno.h>
#include <string.h>

#include "symbols/processes.h"

static int in_kernel(uint16_t cpumode)
{
	return cpumode == PEO_RECORD_MISC_KERNEL || cpumode == PEO_RECORD_MISC_GUEST_KERNEL;
}

/* @out's symbol from @t at @at (an address of @t's), else none. */
static int named(const struct sym_table *t, uint64_t at, struct peo_frame *out)
{
	const struct sym_entry *e = sym_table_find(t, at);

	if (!e)
		return 0;
	out->sym = sym_name(t, e);
	out->symoff = at - e->start;
	if (e->flags & SYM_PLT)
		out->flags |= PEO_FRAME_PLT;
	return 1;
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

static int user_frame(struct peo_processes *p, uint32_t pid, uint64_t addr, struct peo_frame *out)
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
	return named(&b->syms, vaddr, out);
}

int peo_processes_lookup(struct peo_processes *p, uint32_t pid, uint16_t cpumode, uint64_t addr,
			 uint32_t flags, struct peo_frame *out)
{
	size_t sz;
	int err;

	if (!p || !out)
		return peo_fail(EINVAL, "peo_processes_lookup: argument '%s' is NULL", p ? "out" : "p");
	if ((err = PEO_SIZED(out, peo_frame, PEO_FRAME_SZ_0_2)))
		return err;
	if (flags)
		return peo_fail(EINVAL, "peo_processes_lookup: flags 0x%x: no flag is known yet", flags);
	sz = out->sz;
	memset(out, 0, sz < sizeof(*out) ? sz : sizeof(*out)); /* past it: zeroed by PEO_SIZED */
	out->sz = sz;
	out->addr = addr;
	out->dso_offset = addr;
	return in_kernel(cpumode) ? kernel_frame(p, addr, out) : user_frame(p, pid, addr, out);
}
