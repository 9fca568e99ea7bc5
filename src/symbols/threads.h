/*
 * symbols/threads.h - thread id to comm, from the records (COMM, FORK) or /proc.
 */
#ifndef PEO_SYMBOLS_THREADS_H
#define PEO_SYMBOLS_THREADS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "internal.h"

struct slot;

/* Open addressing over tids; zero-initialise it.  The table moves as it
 * grows: keep no pointer into it (a comm) across a set or a fork. */
struct sym_threads {
	struct slot *slots;
	size_t cap, n;
	/* The last lookup's answer (runs of one thread's samples), until a
	 * set or a fork (which may move the table). */
	uint32_t last_tid;
	const char *last_comm;
};

/* Thread @tid is now called @comm (which may be one of this table's own
 * comms).  Returns 0, or -1 out of memory. */
PEO_HIDDEN int sym_threads_set(struct sym_threads *t, uint32_t tid, const char *comm);

/*
 * Thread @tid is new, made by thread @ptid (a FORK): as perf, it takes
 * @ptid's comm ("swapper" for tid 0), or none when no record named @ptid
 * (perf then calls it ":TID"), whatever a task of the same tid that came
 * before was called.  Returns 0, or -1 out of memory.
 */
PEO_HIDDEN int sym_threads_fork(struct sym_threads *t, uint32_t ptid, uint32_t tid);

/* Its comm, "swapper" for tid 0, or NULL when no record named it (or its
 * FORK's parent).  Valid until the next set or fork. */
PEO_HIDDEN const char *sym_threads_comm(struct sym_threads *t, uint32_t tid);

PEO_HIDDEN void sym_threads_free(struct sym_threads *t);

#endif
