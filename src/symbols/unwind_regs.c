/*
 * symbols/unwind_regs.c - a sample's user registers (perf's numbering,
 * PERF_REG_<ARCH>_*, in sample_regs_user's bit order) as the DWARF
 * register numbers the machine's ABI gives them, for the unwinder.
 */
#include <elf.h>
#include <string.h>

#include "symbols/unwind.h"

/* x86_64: DWARF 0..16 are rax rdx rcx rbx rsi rdi rbp rsp r8..r15 and the
 * return address (rip); perf's are AX BX CX DX SI DI BP SP IP FLAGS CS SS
 * DS ES FS GS R8..R15. */
static const uint8_t x86_64_perf_of_dwarf[17] = { 0, 3, 2, 1, 4, 5, 6, 7,
						   16, 17, 18, 19, 20, 21, 22, 23, 8 };
#define X86_64_PERF_IP 8
#define X86_64_PERF_SP 7

/* aarch64: perf's X0..X28, X29 (fp), LR (x30), SP are 0..31 and DWARF's
 * x0..x30, sp the same numbers; perf's PC (32) has no DWARF number.  A
 * signed return address has its code in bits 63..56 and 54..48 (bit 55
 * tells user from kernel): user code is below 1 << 48. */
#define ARM64_PERF_SP 31
#define ARM64_PERF_PC 32
#define ARM64_USER_ADDRESS ((1ull << 48) - 1)
#define ARM64_LR 30

/* The value of perf register @reg, when @mask sampled it. */
static int sampled(uint64_t mask, const uint64_t *regs, size_t nr, unsigned reg, uint64_t *val)
{
	size_t at;

	if (reg >= 64 || !(mask >> reg & 1))
		return 0;
	at = (size_t)__builtin_popcountll(mask & ((1ull << reg) - 1));
	if (at >= nr)
		return 0;
	*val = regs[at];
	return 1;
}

int sym_dwarf_regs(uint16_t machine, uint64_t mask, const uint64_t *regs, size_t nr,
		   struct sym_dwarf_regs *out)
{
	unsigned pc_reg, sp_reg;

	memset(out, 0, sizeof(*out));
	switch (machine) {
	case EM_X86_64:
		out->n = 17;
		for (unsigned i = 0; i < out->n; i++)
			if (sampled(mask, regs, nr, x86_64_perf_of_dwarf[i], &out->val[i]))
				out->have |= 1ull << i;
		pc_reg = X86_64_PERF_IP;
		sp_reg = X86_64_PERF_SP;
		out->ra_mask = ~0ull;
		break;
	case EM_AARCH64:
		out->n = 32;
		for (unsigned i = 0; i < out->n; i++)
			if (sampled(mask, regs, nr, i, &out->val[i]))
				out->have |= 1ull << i;
		pc_reg = ARM64_PERF_PC;
		sp_reg = ARM64_PERF_SP;
		out->ra_mask = ARM64_USER_ADDRESS;
		out->val[ARM64_LR] &= out->ra_mask; /* a leaf's return address, maybe signed */
		break;
	default:
		return -1;
	}
	if (!sampled(mask, regs, nr, pc_reg, &out->pc) || !sampled(mask, regs, nr, sp_reg, &out->sp))
		return -1;
	return 0;
}
