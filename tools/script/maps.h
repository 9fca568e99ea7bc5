/*
 * script/maps.h - per-process memory maps from a perf.data's MMAP records.
 */
#ifndef PEO_TOOLS_SCRIPT_MAPS_H
#define PEO_TOOLS_SCRIPT_MAPS_H

#include <stddef.h>
#include <stdint.h>

struct proc;

/* Zero-initialise it. */
struct script_maps {
	struct proc *procs;
	size_t cap, n;
	/* The map the last lookup found (a callchain's frames mostly fall in
	 * the one before): valid until maps change. */
	int hit_valid;
	uint32_t hit_pid;
	uint64_t hit_start, hit_end, hit_pgoff;
};

/* Process @pid mapped [start, start + len) at file offset @pgoff (what
 * it overlaps goes; an empty or wrapping range is ignored).  0 or -1 (memory). */
int script_maps_add(struct script_maps *m, uint32_t pid, uint64_t start, uint64_t len,
		    uint64_t pgoff);

/* Whether perf reads the addresses of a map of @filename (with MMAP2's
 * @flags) as they are, not as offsets in a file: anonymous memory
 * ("//anon", /dev/zero, huge pages), stacks, the heap, SysV shared memory.
 * Add such a map with its start as its @pgoff. */
int script_maps_identity(const char *filename, uint32_t flags);

/* @child starts with a copy of @parent's maps (a FORK of a new process),
 * and none of an earlier process of the same pid.  0 or -1 (memory). */
int script_maps_fork(struct script_maps *m, uint32_t parent, uint32_t child);

/* 1 with *off = addr's offset in the file mapped there, or 0 when unmapped. */
int script_maps_offset(struct script_maps *m, uint32_t pid, uint64_t addr, uint64_t *off);

void script_maps_free(struct script_maps *m);

#endif
