/*
 * symbols/cfi_cache.c - unwinding by cached CFI rules (cfi_cache.h).
 * libdwfl spends ~1.2 us a frame (a Dwarf_Frame made and freed, each
 * register's rule turned into a DWARF expression and evaluated); deep
 * stacks repeat the same few hundred addresses, so each address's rules
 * are read once here and applied as plain arithmetic.
 */
#ifdef PEO_HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/cfi_cache.h"

enum rule_kind {
	R_UNDEF,  /* unknown in the caller */
	R_SAME,   /* as in this frame */
	R_AT_CFA, /* saved at CFA + off */
	R_CFA,    /* equal to CFA + off */
	R_REG,    /* equal to register reg */
};

struct rule {
	uint8_t kind, reg;
	int64_t off;
};

struct entry {
	uint64_t pc;      /* the address looked up (a caller's: its return address - 1) */
	int8_t state;     /* 0 empty, 1 rules known, -1 not for the fast path */
	uint8_t cfa_reg, ra;
	int64_t cfa_off;
	struct rule r[SYM_UNWIND_MAX_REGS];
};

struct sym_cfi_cache {
	struct entry *e;
	size_t n, cap;
};

void sym_cfi_cache_free(struct sym_cfi_cache *c)
{
	if (c)
		free(c->e);
	free(c);
}

/* One register's rule as libdw gives it, in the forms above: 0, or -1. */
static int read_rule(Dwarf_Frame *f, unsigned reg, struct rule *out)
{
	Dwarf_Op mem[3], *ops;
	size_t nops, i = 0;

	if (dwarf_frame_register(f, (int)reg, mem, &ops, &nops))
		return -1;
	if (!nops) {
		out->kind = ops ? R_UNDEF : R_SAME; /* ops_mem: undefined; NULL: same value */
		return 0;
	}
	if (ops[0].atom == DW_OP_call_frame_cfa) {
		out->off = 0;
		i = 1;
		if (i < nops && ops[i].atom == DW_OP_plus_uconst)
			out->off = (int64_t)ops[i++].number;
		out->kind = R_AT_CFA;
		if (i < nops && ops[i].atom == DW_OP_stack_value) {
			out->kind = R_CFA;
			i++;
		}
		return i == nops ? 0 : -1;
	}
	if (nops == 2 && ops[0].atom == DW_OP_bregx && !ops[0].number2 &&
	    ops[1].atom == DW_OP_stack_value && ops[0].number < SYM_UNWIND_MAX_REGS) {
		out->kind = R_REG;
		out->reg = (uint8_t)ops[0].number;
		return 0;
	}
	return -1;
}

/* @e's rules for address @pc of @dwfl (state -1 when not simple). */
static void read_rules(Dwfl *dwfl, uint64_t pc, unsigned nregs, struct entry *e)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
	Dwarf_Addr bias, start, end;
	Dwarf_CFI *cfi = mod ? dwfl_module_eh_cfi(mod, &bias) : NULL;
	Dwarf_Frame *f = NULL;
	Dwarf_Op *ops;
	size_t nops;
	bool signal;
	int ra;

	e->state = -1;
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &f) || !f)
		return;
	ra = dwarf_frame_info(f, &start, &end, &signal);
	if (ra < 0 || (unsigned)ra >= nregs || signal || dwarf_frame_cfa(f, &ops, &nops) ||
	    nops != 1 || ops[0].atom != DW_OP_bregx || ops[0].number >= nregs)
		goto out;
	e->cfa_reg = (uint8_t)ops[0].number;
	e->cfa_off = (int64_t)ops[0].number2;
	e->ra = (uint8_t)ra;
	for (unsigned i = 0; i < nregs; i++)
		if (read_rule(f, i, &e->r[i]))
			goto out;
	e->state = 1;
out:
	free(f);
}

static size_t slot(uint64_t pc, size_t cap)
{
	return (size_t)((pc * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

/* The entry of @pc, read when new; NULL out of memory. */
static struct entry *entry_of(struct sym_cfi_cache *c, Dwfl *dwfl, uint64_t pc, unsigned nregs)
{
	size_t i;

	if ((c->n + 1) * 2 > c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 512;
		struct entry *t = calloc(cap, sizeof(*t));

		if (!t)
			return NULL;
		for (size_t k = 0; k < c->cap; k++)
			if (c->e[k].state) {
				for (i = slot(c->e[k].pc, cap); t[i].state; i = (i + 1) & (cap - 1))
					;
				t[i] = c->e[k];
			}
		free(c->e);
		c->e = t;
		c->cap = cap;
	}
	for (i = slot(pc, c->cap); c->e[i].state; i = (i + 1) & (c->cap - 1))
		if (c->e[i].pc == pc)
			return &c->e[i];
	c->n++;
	c->e[i].pc = pc;
	read_rules(dwfl, pc, nregs, &c->e[i]);
	return &c->e[i];
}

int sym_cfi_unwind(struct sym_cfi_cache **cp, Dwfl *dwfl, const struct sym_dwarf_regs *regs,
		   const uint8_t *stack, uint64_t stack_size, uint64_t *ips, size_t max)
{
	/* this frame's registers and its caller's, swapped at each step */
	uint64_t bufs[2][SYM_UNWIND_MAX_REGS], *val = bufs[0], *next = bufs[1], *t;
	uint64_t have = regs->have, pc = regs->pc;
	unsigned n = regs->n;
	size_t got = 0;

	if (!*cp && !(*cp = calloc(1, sizeof(**cp))))
		return -1;
	memcpy(val, regs->val, sizeof(bufs[0]));
	while (got < max) {
		struct entry *e;
		uint64_t cfa, nhave = 0;

		ips[got++] = pc;
		if (got == max)
			break;
		e = entry_of(*cp, dwfl, got > 1 ? pc - 1 : pc, n);
		if (!e || e->state < 0 || !(have >> e->cfa_reg & 1))
			return -1;
		cfa = val[e->cfa_reg] + (uint64_t)e->cfa_off;
		for (unsigned i = 0; i < n; i++) {
			const struct rule *r = &e->r[i];
			uint64_t at;

			switch (r->kind) {
			case R_UNDEF:
				continue;
			case R_SAME:
				if (!(have >> i & 1))
					continue;
				next[i] = val[i];
				break;
			case R_AT_CFA:
				at = cfa + (uint64_t)r->off;
				if (at < regs->sp || at - regs->sp > stack_size ||
				    stack_size - (at - regs->sp) < 8)
					return -1; /* libdwfl reads the mapped file there */
				memcpy(&next[i], stack + (at - regs->sp), 8);
				break;
			case R_CFA:
				next[i] = cfa + (uint64_t)r->off;
				break;
			case R_REG:
				if (!(have >> r->reg & 1))
					continue;
				next[i] = val[r->reg];
				break;
			}
			nhave |= 1ull << i;
		}
		if (e->r[e->ra].kind == R_UNDEF)
			break; /* the outermost frame */
		if (!(nhave >> e->ra & 1) || !(pc = next[e->ra] & regs->ra_mask))
			return -1;
		t = val;
		val = next;
		next = t;
		have = nhave;
	}
	return (int)got;
}
#endif
