/*
 * symbols/dso.h - the binaries a peo_symbols knows, by the name the maps
 * give them, each read once, when an address first falls in it (or by
 * peo_symbols_preload()), by whichever thread gets there first (the
 * others wait for that binary alone); and the kernel's symbols, read the
 * same way.
 */
#ifndef PEO_SYMBOLS_DSO_H
#define PEO_SYMBOLS_DSO_H

#include <pthread.h>
#include <stdint.h>

#include "symbols/binary.h"
#include "symbols/kernel.h"

#include "peo/symbols.h"

enum sym_dso_kind {
	SYM_DSO_FILE,  /* an ELF file on disk */
	SYM_DSO_ANON,  /* memory perf reads as it is (//anon, [heap], [stack]...): no symbols */
	SYM_DSO_VDSO,  /* [vdso]: perf's build-id cache copy, else this process's own */
	SYM_DSO_JIT,   /* /tmp/perf-PID.map: a JIT's symbols, at their addresses */
	SYM_DSO_SPECIAL, /* another name in brackets ([vsyscall], [uprobes]...): nothing to read */
};

struct sym_dso {
	char *name;            /* as the maps name it */
	pthread_mutex_t load;  /* held while it is read: another thread needing it waits */
	enum sym_dso_kind kind;
	uint8_t build_id[20];  /* as recorded (MMAP2, BUILD_ID), when build_id_len */
	size_t build_id_len;
	_Atomic int state;     /* 0 not read yet, 1 read (bin), -1 could not be (note kept) */
	int inflated;          /* under load: its debug file for DWARF (sym_dso_debug_fd()),
				* open: inflated, or as it is; -1 none, -2 not tried yet */
	const char *debug_cache; /* where its inflated debug file is kept (the owner's opts) */
	struct sym_binary bin;
	struct sym_dso *next;  /* in its hash chain */
};

/* A recording's map of the kernel or a module: its part's name and range. */
struct sym_krange {
	char *part;
	uint64_t start, end;
};

struct peo_symbols {
	struct peo_symbols_opts opts;
	char *symfs, *kallsyms, *vmlinux, *debug_cache; /* the opts' strings, copied */
	pthread_mutex_t lock;       /* the table below, the kernel's maps, the notes */
	pthread_mutex_t kernel_load; /* held while kallsyms is read (before s->lock) */
	int kernel_read;            /* under kernel_load: 1 read into kernel, -1 failed */
	char *kernel_why;           /* under kernel_load: why it failed */
	struct sym_dso **buckets;
	size_t nbuckets, n;
	_Atomic int kernel_state;   /* as sym_dso.state */
	struct sym_kernel kernel;
	struct sym_krange *kranges; /* the recording's kernel maps, applied when it is read */
	size_t nkranges;
	char *kref_name;            /* where the recording says the kernel ran: the symbol */
	uint64_t kref_addr;         /* ([kernel.kallsyms]_text's "_text") and its address
				     * (the map's pgoff), for a vmlinux's relocation */
	char **notes;               /* peo_symbols_notes(): sentences, each once, never moved */
	size_t nnotes;
};

/* The binary named @name, made when new; a build id given is kept unless
 * one is known.  NULL out of memory (a sentence). */
PEO_HIDDEN struct sym_dso *sym_dso_get(struct peo_symbols *s, const char *name,
				       const uint8_t *build_id, size_t build_id_len);

/* @d's symbols, read on first use; NULL when they cannot be (the reason
 * among the notes, once). */
PEO_HIDDEN const struct sym_binary *sym_dso_binary(struct peo_symbols *s, struct sym_dso *d);

/* For libdwfl's search of @d's DWARF: the separate debug file its symbols
 * came from, its compressed sections inflated (sym_inflated_copy(), made
 * once and shared by every Dwfl reading @d), else the file as it is: an
 * fd of its own, *@name its path (malloc'd).  -1 when @d's symbols came
 * from no separate file (libdwfl then searches as it does). */
PEO_HIDDEN int sym_dso_debug_fd(struct sym_dso *d, char **name);

/* The kernel's symbols, read on first use (never NULL: empty when hidden). */
PEO_HIDDEN const struct sym_kernel *sym_symbols_kernel(struct peo_symbols *s);

/* A kernel MMAP record's map ("[kernel.kallsyms]_text", or a module's
 * path): its part gets that range, as perf takes them from the recording;
 * the kernel's @pgoff is where its symbol (_text) was, the reference a
 * vmlinux is relocated by.  0 or -ENOMEM. */
PEO_HIDDEN int sym_symbols_kernel_map(struct peo_symbols *s, const char *filename, uint64_t start,
				      uint64_t len, uint64_t pgoff);

/* kernel_image.c: the kernel's own symbols from a vmlinux, into
 * s->kernel (kallsyms' read already), as perf 6.1 chooses the file: the
 * one named (opts.vmlinux), else the first of its candidates whose build
 * id is the recorded kernel's; none when opts.kallsyms is given.  A file
 * named but not usable leaves a note and kallsyms' symbols.  Returns 1
 * when a vmlinux is used, else 0.  Under s->lock. */
PEO_HIDDEN int sym_symbols_vmlinux(struct peo_symbols *s);

/* The recorded kernel's build id ([kernel.kallsyms] in the recording's
 * table), or NULL; *@len its length.  Under s->lock. */
PEO_HIDDEN const uint8_t *sym_symbols_kernel_build_id(struct peo_symbols *s, size_t *len);

/* vdso.c: [vdso] read from this process's own vdso (a copy in a memfd),
 * with @how's build id checked.  As sym_binary_load(). */
PEO_HIDDEN int sym_vdso_load(const struct sym_load *how, struct sym_binary *out);

/* jitmap.c: a JIT's /tmp/perf-PID.map ("START SIZE name" a line, in hex)
 * into @out's table, its addresses the process's.  As sym_binary_load(). */
PEO_HIDDEN int sym_jitmap_load(const char *path, struct sym_binary *out);

/* Add @sentence (what peo_last_error() says, when NULL) to the notes
 * unless it is there already; the caller holds s->lock. */
PEO_HIDDEN void sym_note_locked(struct peo_symbols *s, const char *sentence);

#endif
