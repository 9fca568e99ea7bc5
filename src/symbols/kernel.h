/*
 * symbols/kernel.h - the kernel's symbols as perf reads them: without a
 * vmlinux, /proc/kallsyms (or a file given, as perf's --kallsyms), the
 * kernel's own text as [kernel.kallsyms] and each module's as [name];
 * with a vmlinux, the kernel's own from its sections (vmlinux.c).
 */
#ifndef PEO_SYMBOLS_KERNEL_H
#define PEO_SYMBOLS_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "symbols/binary.h"
#include "symbols/table.h"

/* The kernel proper, or one module: its symbols and the range they span. */
struct sym_kpart {
	char *name;            /* "[kernel.kallsyms]" or "[module]", as perf names the dso */
	uint64_t start, end;   /* the kernel: [_text, _etext), the map perf record
				* writes; a module: its range in the modules list,
				* or without one the span of its symbols */
	struct sym_table syms; /* addresses as kallsyms gives them */
};

struct sym_kernel {
	struct sym_kpart *parts; /* parts[0]: the kernel proper; then the modules
				  * (and a vmlinux's other sections) by start */
	size_t nparts;
	char *hidden; /* why no addresses could be read (kptr_restrict...), or NULL */
	const char *text_name; /* "_text" or "_stext", as kallsyms gave it, or NULL */
	uint64_t text_addr;    /* its address: where the kernel runs */
	char *vmlinux;  /* the vmlinux its own symbols came from, or NULL: kallsyms */
};

/*
 * Read the kernel's symbols from @kallsyms (NULL: /proc/kallsyms) into @out
 * (zeroed), with perf 6.1's rules (kernel.c's head): text, weak, data and
 * bss lines kept, one table per part, the last of aliases kept.  Modules
 * are those of the modules list, /proc/modules for the live file (none
 * when it is missing: a kernel without modules), the file "modules"
 * beside a saved one (perf's build-id cache keeps both); a saved file
 * without one gives every module of its lines, spanning its symbols.
 * Every address zero (kptr_restrict, or not root with perf_event_paranoid
 * above 1) leaves no parts, and out->hidden says what is hidden, why (the
 * sysctls' values) and how to see it.  Returns 0; -ENOENT and the other
 * errors of open(2) (the sentence names the file), -EINVAL (a line that is
 * not kallsyms': its file, line number and text), -ENOMEM.
 */
PEO_HIDDEN int sym_kernel_load(const char *kallsyms, struct sym_kernel *out);

/* The part whose range holds @addr (with a symbol there or not), or NULL. */
PEO_HIDDEN const struct sym_kpart *sym_kernel_part(const struct sym_kernel *k, uint64_t addr);

/*
 * Give part @name ("[kernel.kallsyms]" or "[module]") the range [@start,
 * @end): a recording's, as perf script takes the kernel's and each
 * module's range from the perf.data's maps, not from the reading machine.
 * The kernel's symbols from a vmlinux keep its .text's range (perf maps
 * the kernel anew when it reads one).
 * Returns 0, or -ENOENT (no part of that name) with a sentence.
 */
PEO_HIDDEN int sym_kernel_set_range(struct sym_kernel *k, const char *name, uint64_t start,
				    uint64_t end);

/*
 * vmlinux.c: the kernel's own symbols from vmlinux @b (read by sections,
 * sym_load.kernel) in place of kallsyms', as perf 6.1 maps a vmlinux: its
 * .text as parts[0], [kernel.kallsyms], over the .text's range only; each
 * other section with symbols a part named [kernel.kallsyms]SECTION
 * ("[kernel.kallsyms].init.text"), over its range; every address moved by
 * @reloc (where the kernel ran minus where the file puts it: KASLR).  The
 * modules of @k stay.  @b's tables move into @k (@b is left empty but
 * still to be freed); @path is kept as k->vmlinux.  Returns 0 or -ENOMEM.
 */
PEO_HIDDEN int sym_kernel_use_vmlinux(struct sym_kernel *k, struct sym_binary *b, uint64_t reloc,
				      const char *path);

/* The modules (and other parts past parts[0]) sorted by start again. */
PEO_HIDDEN void sym_kernel_sort_parts(struct sym_kernel *k);

/* Free what @k holds. */
PEO_HIDDEN void sym_kernel_fini(struct sym_kernel *k);

#endif
