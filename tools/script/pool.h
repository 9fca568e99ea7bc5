/*
 * script/pool.h - peo script's formatting on several cores: the reading
 * thread fills batches of entries; batch g goes to worker g % workers,
 * which formats it into a buffer of its own; a writer thread writes the
 * buffers in batch order (or, asked to, into a regular file with two
 * workers or more, each worker writes its own at its place; with one
 * worker, it writes its text itself as it makes it).  The output is the
 * same whatever the number of workers, and reading, formatting and
 * writing overlap.
 */
#ifndef PEO_TOOLS_SCRIPT_POOL_H
#define PEO_TOOLS_SCRIPT_POOL_H

#include <stddef.h>

#include "script/out.h"

/* The largest entry a batch takes: the caller's entries must fit. */
#define SCRIPT_POOL_ENTRY_MAX (256u << 10)

struct script_pool;

/*
 * Worker @worker's work on one batch: @n bytes of entries, formatted into
 * @o (a buffer that grows, or with one worker one that is written as it
 * fills: out_room() may write what is in it).
 * Returns 0, or non-zero to stop the output after this batch's.
 */
typedef int (*script_pool_fn)(void *ctx, unsigned worker, const unsigned char *bytes, size_t n,
			      struct out *o);

/*
 * Start @workers (1 or more) worker threads calling @fn(@ctx, ...) and a
 * writer thread writing to @fd from its offset on (none for one worker:
 * it writes); @fd's offset is left after the text, however it was written.  With @positioned, two workers
 * or more and a regular file (not appended to), each worker writes its own
 * batches at their places instead; else the writer thread writes them all.
 * Returns 0, or -1 when threads or memory could not be had (*@out NULL:
 * the caller does the work itself).
 */
int script_pool_start(struct script_pool **out, unsigned workers, int fd, int positioned,
		      script_pool_fn fn, void *ctx);

/*
 * Hand the batch being filled (its first @used bytes: entries) to its
 * worker unless it is empty, and return the next batch, empty, with its
 * size (at least SCRIPT_POOL_ENTRY_MAX) in *@cap; waits while every batch
 * is taken.  The first call (with @used 0) returns the first batch.
 */
unsigned char *script_pool_next_batch(struct script_pool *p, size_t used, size_t *cap);

/* Whether the output stopped: a batch's work asked it, or a write failed. */
int script_pool_halted(struct script_pool *p);

/* How the pool's output ended. */
enum script_pool_end {
	SCRIPT_POOL_DONE,         /* every batch formatted and written */
	SCRIPT_POOL_WRITE_FAILED, /* a write failed (errno set) */
	SCRIPT_POOL_STOPPED,      /* a batch's work asked the output to stop */
	SCRIPT_POOL_NO_MEMORY,    /* a batch's text could not grow */
};

/*
 * Hand over the last batch (its first @used bytes), wait until every
 * batch is formatted and written (up to a stop), end the threads and free
 * the pool.  Returns how it ended; when SCRIPT_POOL_STOPPED, the number
 * of the worker whose batch stopped it in *@stopper.
 */
enum script_pool_end script_pool_finish(struct script_pool *p, size_t used, unsigned *stopper);

#endif
