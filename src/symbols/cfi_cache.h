/*
 * symbols/cfi_cache.h - a fast path for unwinding: each code address's
 * CFI rules (libdw's dwarf_cfi_addrframe, from .eh_frame) read once and
 * kept in the simple forms compilers emit (CFA = register + offset; a
 * register saved at CFA + offset, equal to CFA + offset, the same, or
 * undefined), then applied frame after frame without libdwfl.  Anything
 * else (a CFA expression, a signal frame, no FDE, memory outside the
 * stack copy) makes it give up, and the caller unwinds with libdwfl.
 */
#ifndef PEO_SYMBOLS_CFI_CACHE_H
#define PEO_SYMBOLS_CFI_CACHE_H

#ifdef PEO_HAVE_LIBDW
#include <elfutils/libdwfl.h>

#include "symbols/unwind.h"

struct sym_cfi_cache; /* zero-initialised by calloc */

/*
 * Unwind from @regs (its first @regs->n DWARF registers, and pc) over
 * @stack, the @stack_size bytes from @regs->sp, with the CFI of @dwfl's
 * modules: up to @max addresses into @ips as libdwfl gives them (the
 * ip, then return addresses).  Returns how many, or -1 where the fast
 * path cannot tell (the caller then asks libdwfl).  @c caches by
 * address: free it (sym_cfi_cache_free) when @dwfl goes.
 */
PEO_HIDDEN int sym_cfi_unwind(struct sym_cfi_cache **c, Dwfl *dwfl,
			      const struct sym_dwarf_regs *regs, const uint8_t *stack,
			      uint64_t stack_size, uint64_t *ips, size_t max);

PEO_HIDDEN void sym_cfi_cache_free(struct sym_cfi_cache *c);
#endif

#endif
