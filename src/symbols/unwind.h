/*
 * symbols/unwind.h - a sample's user stack unwound with the binaries'
 * DWARF call frame information (libdwfl), one Dwfl per process kept until
 * its maps change; and the functions inlined at an address.
 */
#ifndef PEO_SYMBOLS_UNWIND_H
#define PEO_SYMBOLS_UNWIND_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

struct peo_processes;
struct sym_uproc;

/* The most DWARF registers a machine's initial frame takes here. */
#define SYM_UNWIND_MAX_REGS 33

/* A sample's registers as DWARF numbers them, for the ELF machine the
 * process runs (EM_X86_64, EM_AARCH64). */
struct sym_dwarf_regs {
	uint64_t val[SYM_UNWIND_MAX_REGS];
	uint64_t have;   /* bit n: val[n] was sampled */
	unsigned n;      /* DWARF registers 0..n-1 that the machine's first frame sets */
	uint64_t pc, sp; /* the sampled ip and stack pointer */
	/* The bits of a return address that hold it: arm64's above the user
	 * address space (48 bits, where Linux maps code unless asked for
	 * more) hold a pointer authentication code where code signs them
	 * (-mbranch-protection), left out. */
	uint64_t ra_mask;
};

/*
 * unwind_regs.c: @regs (@nr words in the bit order of @mask, the attr's
 * sample_regs_user) as DWARF registers of @machine.  Returns 0, or -1
 * where the machine is not known or the pc or sp was not sampled.
 */
PEO_HIDDEN int sym_dwarf_regs(uint16_t machine, uint64_t mask, const uint64_t *regs, size_t nr,
			      struct sym_dwarf_regs *out);

/* Zero-initialise it; what struct peo_processes keeps for unwinding. */
struct sym_unwind {
	struct sym_uproc **procs; /* each process's Dwfl and inline cache (never moved) */
	size_t n, cap;
	size_t last;             /* the process of the last call (runs of one's samples) */
	uint64_t clock;          /* calls so far: which process's Dwfl was used least recently */
	struct sym_inlines *inlines; /* inlines.c's */
	char *debuginfo_path;    /* libdwfl's search list for debug files; NULL: its default */
	void *callbacks;         /* the Dwfl_Callbacks every process's Dwfl shares */
	pthread_mutex_t callbacks_lock; /* callbacks are made by whichever thread asks first */
	/* peo_processes_binary_srclines()'s answers, kept apart from the
	 * owner's (another thread asks), under their own lock */
	pthread_mutex_t apart_lock;
	struct sym_inlines *apart;
};

/* Ready @u (zeroed) for use; sym_unwind_free() undoes it. */
PEO_HIDDEN void sym_unwind_init(struct sym_unwind *u);
PEO_HIDDEN void sym_unwind_free(struct sym_unwind *u);

/* The Dwfl_Callbacks every Dwfl of @p's uses (made when first asked;
 * they point into @p), or NULL out of memory (a sentence). */
PEO_HIDDEN const void *sym_unwind_callbacks(struct peo_processes *p);

/* inlines.c: what peo_processes_inlines() keeps, freed. */
PEO_HIDDEN void sym_inlines_free(struct sym_inlines *in);

#endif
