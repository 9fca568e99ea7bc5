/*
 * symbols/binary.h - what the symbolizer needs of one ELF binary (an
 * executable, a shared library, the vdso): its functions (table.h, in
 * the ELF's virtual addresses), its loadable segments (to turn an offset
 * in the file, which a memory map gives, into such an address), its build
 * id, and where the symbols came from.  Read by elf_table.c with elfutils
 * (libdwfl finds the separate debug file: by build id under
 * /usr/lib/debug/.build-id and perf's cache ~/.debug, by .gnu_debuglink,
 * and .gnu_debugdata's MiniDebugInfo), names demangled as perf 6.1 shows
 * them (demangle.c).
 */
#ifndef PEO_SYMBOLS_BINARY_H
#define PEO_SYMBOLS_BINARY_H

#include <stddef.h>
#include <stdint.h>

#include "symbols/table.h"

/* A PT_LOAD segment: the file's bytes [offset, offset + size) at vaddr. */
struct sym_segment {
	uint64_t offset, vaddr, size;
};

/* A section of a vmlinux (sym_load.kernel): its name, addresses and the
 * symbols in it, as perf 6.1 gives each section with symbols a map. */
struct sym_section {
	char *name;
	uint64_t addr, size;
	struct sym_table syms;
};

struct sym_binary {
	struct sym_table syms;     /* none when read by sections */
	struct sym_section *sections; /* read by sections (sym_load.kernel): the
				       * .text first, then those with symbols */
	size_t nsections;
	uint64_t ref_value;        /* sym_load.ref_name's value, when has_ref */
	int has_ref;
	struct sym_table data; /* its data objects (STT_OBJECT): a sample's data address */
	struct sym_segment *seg;
	size_t nseg;
	uint8_t build_id[20];
	size_t build_id_len; /* 0: the file has none */
	char *symbols_from;  /* the file the table was read from (a debug file, or the binary) */
	char *file;          /* the binary read (for its code and CFI), or NULL: a copy gone since */
	char *note;          /* a debug file of its build id that was ignored, said why; or NULL */
};

/* How to find a binary. */
struct sym_load {
	const char *path;     /* as the recording names it (an MMAP's filename) */
	const char *symfs;    /* a root to read it under (perf's --symfs), or NULL */
	const uint8_t *build_id; /* the recorded build id, or NULL: a file whose id differs is refused */
	size_t build_id_len;
	int demangle;         /* names as perf 6.1 shows them (else as in the file) */
	/* A vmlinux: its data objects and labels of data sections kept too,
	 * the symbols filed by section, no copy from perf's cache tried (the
	 * caller names each file), as perf 6.1 reads a kernel's image. */
	int kernel;
	const char *ref_name; /* a vmlinux: the symbol whose value ref_value gets
			       * (perf's relocation reference, _text), or NULL */
};

/*
 * Read the binary @how names into @out (zeroed): the file at symfs + path,
 * else perf's build-id cache copy (~/.debug/.build-id/xx/rest/elf) when a
 * build id is given; its symbols from the file or its debug file.
 * Returns 0; -ENOENT when no such file is found; -ESTALE when the file's
 * build id is not the recorded one (the sentence names both); -EINVAL for
 * a file that is not ELF or is damaged (the sentence names the file and
 * the offset); -ENOTSUP when peo was built without elfutils; -ENOMEM.
 * A binary without symbols is read (0) with an empty table.
 * With how->kernel: sections[0] is the .text (-ENOENT when the file has
 * none); each table finished as perf finishes a vmlinux's: the .text's as
 * sym_table_finish() does, the other sections' without ends given to
 * symbols without a size (such a symbol holds its own address only).
 */
PEO_HIDDEN int sym_binary_load(const struct sym_load *how, struct sym_binary *out);

/* Free what @b holds. */
PEO_HIDDEN void sym_binary_fini(struct sym_binary *b);

/* The ELF address of byte @offset of the file (a map's pgoff plus the
 * address's distance from the map's start): 1 and *@vaddr, or 0 when no
 * segment holds it. */
PEO_HIDDEN int sym_binary_vaddr(const struct sym_binary *b, uint64_t offset, uint64_t *vaddr);

/* demangle.c: @name as perf 6.1 prints it (C++ and Rust, no parameters),
 * malloc'd; NULL when it is not mangled (or peo was built without a
 * demangler). */
PEO_HIDDEN char *sym_demangle(const char *name);

#endif
