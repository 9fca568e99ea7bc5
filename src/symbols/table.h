/*
 * symbols/table.h - a binary's (or the kernel's) symbol table as perf
 * reads it: functions sorted by start, each with an end, one symbol per
 * address (perf's choice among aliases), lookups by binary search.  The
 * ELF reader (elf_table.c) and the kallsyms reader (kernel.c) fill one
 * with sym_table_add(), then sym_table_finish() applies perf's rules.
 */
#ifndef PEO_SYMBOLS_TABLE_H
#define PEO_SYMBOLS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

enum sym_bind { SYM_LOCAL, SYM_GLOBAL, SYM_WEAK };

enum sym_flags {
	SYM_PLT = 1u << 0, /* a PLT entry made from a relocation ("name@plt") */
};

struct sym_entry {
	uint64_t start, end; /* [start, end) in the binary's own addresses */
	uint32_t name;       /* offset into the table's names */
	uint32_t order;      /* its place among those added (ties go to the first) */
	uint8_t bind;        /* enum sym_bind */
	uint8_t flags;       /* enum sym_flags */
};

struct sym_table {
	struct sym_entry *v;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
};

/*
 * Make room for @n more symbols and @names more bytes of names (sized
 * ahead, a large table is not copied as it grows).  Returns 0 or -ENOMEM
 * (with a sentence).
 */
PEO_HIDDEN int sym_table_reserve(struct sym_table *t, size_t n, size_t names);

/*
 * Add a symbol at @start of @size bytes (0: unknown, ended by the next
 * one at finish), named @name (copied), of binding @bind and @flags.
 * Returns 0 or -ENOMEM (with a sentence).
 */
PEO_HIDDEN int sym_table_add(struct sym_table *t, uint64_t start, uint64_t size, const char *name,
			     enum sym_bind bind, unsigned flags);

/* sym_table_add() of a name whose length (@name_len, its NUL not
 * counted) the caller knows. */
PEO_HIDDEN int sym_table_add_len(struct sym_table *t, uint64_t start, uint64_t size,
				 const char *name, size_t name_len, enum sym_bind bind,
				 unsigned flags);

/*
 * Sort, end each symbol without a size at the next one's start (an alias
 * of the next, at the same start, keeps no size) and the last one at the
 * end of the page after the one it starts in, then keep one symbol per
 * start address as perf does (one with a size over one without, a
 * non-weak over a weak, a global over a local, the fewest leading
 * underscores, the longest name, the first added).  That order is perf's,
 * for ELF files and kallsyms alike: of aliases that all lack a size (every
 * kallsyms line) the last added is kept.  Returns 0 or -ENOMEM.
 */
PEO_HIDDEN int sym_table_finish(struct sym_table *t);

/*
 * sym_table_finish(), but a last symbol without a size ends at @next when
 * @next lies past its start: perf ends a module's last kallsyms symbol at
 * the next module's first, and only the kernel's (or a module's followed
 * by the kernel's, or by none) at the page rule.
 */
PEO_HIDDEN int sym_table_finish_before(struct sym_table *t, uint64_t next);

/* Move every symbol of a finished table by @reloc (modulo 2^64, as a
 * kernel moved by KASLR); one that wraps past the end of the address
 * space (only a damaged file's) keeps the table sorted, its end at most
 * the space's end. */
PEO_HIDDEN void sym_table_relocate(struct sym_table *t, uint64_t reloc);

/* How many of the @n items of @size bytes at @v, sorted by the uint64_t
 * start address at @offset in each, start at or below @addr. */
PEO_HIDDEN size_t sym_starting_at_or_below(const void *v, size_t n, size_t size, size_t offset,
					   uint64_t addr);

/* The symbol holding @addr, or NULL. */
PEO_HIDDEN const struct sym_entry *sym_table_find(const struct sym_table *t, uint64_t addr);

static inline const char *sym_name(const struct sym_table *t, const struct sym_entry *e)
{
	return t->names + e->name;
}

/* Free what @t holds (it may then be filled again). */
PEO_HIDDEN void sym_table_fini(struct sym_table *t);

#endif
