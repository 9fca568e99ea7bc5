/*
 * record_regs.c - a sample's registers by name: the machine's register
 * numbers (sample_regs_user's bits) and the place of one among those a
 * sample holds (in mask bit order).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "peo/record.h"

#define EM_X86_64_ 62
#define EM_AARCH64_ 183

static const char *const x86_names[PEO_REG_X86_64_MAX] = {
	"ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "ip", "flags", "cs", "ss",
	"ds", "es", "fs", "gs", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};

/* @name's number among x86_64's, or -1. */
static int x86_reg(const char *name)
{
	char *end;
	long n;

	for (int i = 0; i < PEO_REG_X86_64_MAX; i++) /* "ax", or "rax" as a disassembler writes it */
		if (!strcasecmp(name, x86_names[i]) ||
		    (i < 9 && (name[0] == 'r' || name[0] == 'R') && !strcasecmp(name + 1, x86_names[i])))
			return i;
	if (!strcasecmp(name, "rflags") || !strcasecmp(name, "eflags"))
		return PEO_REG_X86_FLAGS;
	if (!strncasecmp(name, "xmm", 3) && name[3] >= '0' && name[3] <= '9' &&
	    (n = strtol(name + 3, &end, 10)) <= 15 && !*end)
		return PEO_REG_X86_XMM((int)n);
	return -1;
}

/* @name's number among arm64's, or -1. */
static int arm64_reg(const char *name)
{
	char *end;
	long n;

	if ((name[0] == 'x' || name[0] == 'X') && name[1] >= '0' && name[1] <= '9' &&
	    (n = strtol(name + 1, &end, 10)) <= 30 && !*end)
		return (int)n; /* x30 is lr */
	return !strcasecmp(name, "fp") ? PEO_REG_ARM64_X29
	       : !strcasecmp(name, "lr") ? PEO_REG_ARM64_LR
	       : !strcasecmp(name, "sp") ? PEO_REG_ARM64_SP
	       : !strcasecmp(name, "pc") ? PEO_REG_ARM64_PC
	       : !strcasecmp(name, "vg") ? PEO_REG_ARM64_VG
				       : -1;
}

int peo_reg_number(uint16_t e_machine, const char *name)
{
	int n;

	if (!name)
		return peo_fail(EINVAL, "peo_reg_number: argument 'name' is NULL");
	if (!e_machine)
#if defined(__aarch64__)
		e_machine = EM_AARCH64_;
#else
		e_machine = EM_X86_64_;
#endif
	if (e_machine == EM_X86_64_)
		n = x86_reg(name);
	else if (e_machine == EM_AARCH64_)
		n = arm64_reg(name);
	else
		return peo_fail(EINVAL, "peo_reg_number: machine %u: peo knows the registers of "
				"x86_64 (62) and arm64 (183)", e_machine);
	if (n >= 0)
		return n;
	return peo_fail(ENOENT, "no register '%s' on %s: %s", name,
			e_machine == EM_X86_64_ ? "x86_64" : "arm64",
			e_machine == EM_X86_64_
				? "ax bx cx dx si di bp sp ip flags cs ss ds es fs gs r8-r15 xmm0-xmm15"
				: "x0-x30 fp lr sp pc vg");
}

int peo_sample_reg(const struct peo_record *r, int intr, int reg, uint64_t *value)
{
	const struct peo_sample *s;
	uint64_t mask, abi;
	const void *regs;
	uint32_t nr, at;

	if (!r || !value)
		return peo_fail(EINVAL, "peo_sample_reg: argument '%s' is NULL", r ? "value" : "r");
	if (r->header.type != PEO_RECORD_SAMPLE || !r->attr)
		return peo_fail(EINVAL, "peo_sample_reg: a %s record%s has no registers",
				peo_record_type_name(r->header.type),
				r->attr ? "" : " without its attr");
	if (reg < 0 || reg > 63)
		return peo_fail(EINVAL, "peo_sample_reg: register %d: numbers run from 0 to 63", reg);
	s = &r->u.sample;
	mask = intr ? r->attr->sample_regs_intr : r->attr->sample_regs_user;
	abi = intr ? s->regs_intr_abi : s->regs_user_abi;
	regs = intr ? s->regs_intr : s->regs_user;
	nr = intr ? s->regs_intr_nr : s->regs_user_nr;
	if (!(mask >> reg & 1))
		return peo_fail(ENOENT, "register %d is not among the %s registers the event asked "
				"for (mask %#llx)", reg, intr ? "interrupt" : "user",
				(unsigned long long)mask);
	if (abi == PEO_SAMPLE_REGS_ABI_NONE || !regs)
		return peo_fail(ENOENT, "this sample holds no %s registers (a kernel thread's, or "
				"none sampled)", intr ? "interrupt" : "user");
	/* the registers below @reg in the mask come first */
	at = (uint32_t)__builtin_popcountll(mask & ((1ull << reg) - 1));
	if (at >= nr)
		return peo_fail(ENOENT, "the sample holds %u registers, not register %d's place %u",
				nr, reg, at);
	*value = peo_record_u64(r, regs, at);
	return 0;
}
