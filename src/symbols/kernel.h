/*
 * symbols/kernel.h - the kernel's symbols as perf reads them without a
 * vmlinux: /proc/kallsyms (or a file given, as perf's --kallsyms), the
 * kernel's own text as [kernel.kallsyms] and each module's as [name].
 */
#ifndef PEO_SYMBOLS_KERNEL_H
#define PEO_SYMBOLS_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "symbols/table.h"

/* The kernel proper, or one module: its symbols and the range they span. */
struct sym_kpart {
	char *name;            /* "[kernel.kallsyms]" or "[module]", as perf names the dso */
	uint64_t start, end;   /* the addresses its symbols cover */
	struct sym_table syms; /* addresses as kallsyms gives them */
};

struct sym_kernel {
	struct sym_kpart *parts; /* parts[0]: the kernel proper */
	size_t nparts;
	char *hidden; /* why no addresses could be read (kptr_restrict...), or NULL */
};

/*
 * Read the kernel's symbols from @kallsyms (NULL: /proc/kallsyms) into @out
 * (zeroed).  Every address zero (kptr_restrict, or not root with
 * perf_event_paranoid above 1) leaves no symbols, and out->hidden says
 * what is hidden and how to see it.  Returns 0; -ENOENT (no such file),
 * -EINVAL (a line that is not kallsyms': its file and line number), -ENOMEM.
 */
PEO_HIDDEN int sym_kernel_load(const char *kallsyms, struct sym_kernel *out);

/* The part holding @addr (its symbols or the range between them), or NULL. */
PEO_HIDDEN const struct sym_kpart *sym_kernel_part(const struct sym_kernel *k, uint64_t addr);

/* Free what @k holds. */
PEO_HIDDEN void sym_kernel_fini(struct sym_kernel *k);

#endif
