/*
 * symbols/processes.h - struct peo_processes: threads' names and
 * processes' maps, over the binaries of a peo_symbols.
 */
#ifndef PEO_SYMBOLS_PROCESSES_H
#define PEO_SYMBOLS_PROCESSES_H

#include "symbols/dso.h"
#include "symbols/maps.h"
#include "symbols/threads.h"
#include "symbols/unwind.h"

struct peo_processes {
	struct peo_symbols *syms;
	int own_syms; /* made with it, freed with it */
	struct sym_threads threads;
	struct sym_maps maps;
	struct sym_unwind unwind;
};

/* Process @pid maps [start, start + len) of the file named @filename from
 * byte @pgoff (MMAP2's @flags: perf reads some maps' addresses as they
 * are), @exec when the map is executable: anonymous code is a JIT's,
 * named by /tmp/perf-PID.map as perf names it.  0 or -ENOMEM. */
PEO_HIDDEN int sym_processes_map(struct peo_processes *p, uint32_t pid, uint64_t start,
				 uint64_t len, uint64_t pgoff, const char *filename,
				 uint32_t flags, int exec, const uint8_t *build_id,
				 size_t build_id_len);

#endif
