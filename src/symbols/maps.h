/*
 * symbols/maps.h - each process's memory maps, from MMAP/MMAP2 records
 * (or /proc/PID/maps), inherited at FORK: which binary an address of a
 * process falls in, and where in the file.
 */
#ifndef PEO_SYMBOLS_MAPS_H
#define PEO_SYMBOLS_MAPS_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

struct sym_dso;
struct proc;

/* [start, end) of a process maps the file (dso) from byte pgoff. */
struct sym_map {
	uint64_t start, end, pgoff;
	struct sym_dso *dso; /* NULL: nothing known is mapped (an identity map's pgoff is its start) */
	int exec;            /* executable (its file's CFI unwinds the code there) */
};

/* Zero-initialise it. */
struct sym_maps {
	struct proc *procs;
	size_t cap, n;
	/* The map the last lookup found (a callchain's frames mostly fall in
	 * the one before): valid until maps change. */
	int hit_valid;
	uint32_t hit_pid;
	struct sym_map hit;
	uint64_t gen; /* the last generation given a process's maps */
};

/* Process @pid mapped [start, start + len) of @dso at file offset @pgoff,
 * executable when @exec (what it overlaps goes; an empty or wrapping
 * range is ignored).  0 or -ENOMEM. */
PEO_HIDDEN int sym_maps_add(struct sym_maps *m, uint32_t pid, uint64_t start, uint64_t len,
			    uint64_t pgoff, struct sym_dso *dso, int exec);

/* Whether perf reads the addresses of a map of @filename (with MMAP2's
 * @flags) as they are, not as offsets in a file: anonymous memory
 * ("//anon", /dev/zero, huge pages), stacks, the heap, SysV shared memory.
 * Add such a map with its start as its @pgoff. */
PEO_HIDDEN int sym_maps_identity(const char *filename, uint32_t flags);

/* @child starts with a copy of @parent's maps (a FORK of a new process),
 * and none of an earlier process of the same pid.  0 or -ENOMEM. */
PEO_HIDDEN int sym_maps_fork(struct sym_maps *m, uint32_t parent, uint32_t child);

/* Process @pid has no maps (it is read anew from /proc). */
PEO_HIDDEN void sym_maps_forget(struct sym_maps *m, uint32_t pid);

/* The map of process @pid holding @addr, or NULL: valid until maps change. */
PEO_HIDDEN const struct sym_map *sym_maps_find(struct sym_maps *m, uint32_t pid, uint64_t addr);

/* Process @pid's maps, sorted by start (*@n of them), and *@gen, which
 * differs after any change of them (0: the process has none); valid until
 * maps change. */
PEO_HIDDEN const struct sym_map *sym_maps_of(struct sym_maps *m, uint32_t pid, size_t *n,
					     uint64_t *gen);

PEO_HIDDEN void sym_maps_free(struct sym_maps *m);

#endif
