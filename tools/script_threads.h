/*
 * script_threads.h - thread id to comm, from the records of a perf.data.
 */
#ifndef PEO_TOOLS_SCRIPT_THREADS_H
#define PEO_TOOLS_SCRIPT_THREADS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct slot;

/* Open addressing over tids; zero-initialise it. */
struct script_threads {
	struct slot *slots;
	size_t cap, n;
	/* The last lookup's answer (runs of one thread's samples), until a set. */
	uint32_t last_tid;
	const char *last_comm;
};

/* Thread @tid is now called @comm.  Returns 0, or -1 out of memory. */
int script_threads_set(struct script_threads *t, uint32_t tid, const char *comm);

/* Its comm, "swapper" for tid 0, or NULL when no record named it. */
const char *script_threads_comm(struct script_threads *t, uint32_t tid);

void script_threads_free(struct script_threads *t);

#endif
