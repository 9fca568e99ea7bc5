/*
 * script_pipe.h - batches filled by one thread and handed, in order, to a
 * worker thread through a ring of a few buffers: peo script's output
 * buffers, written by a writer thread while the next one fills.
 */
#ifndef PEO_TOOLS_SCRIPT_PIPE_H
#define PEO_TOOLS_SCRIPT_PIPE_H

#include <stddef.h>

struct script_pipe;

/* The worker's work: @n bytes of entries, in the order they were filled. */
typedef void (*script_pipe_fn)(void *ctx, const unsigned char *bytes, size_t n);

/*
 * Start the worker thread, which calls @fn(@ctx, ...) on each batch.
 * Returns 0, or -1 when no thread or memory could be had (*@out NULL: the
 * caller does the work itself).
 */
int script_pipe_start(struct script_pipe **out, script_pipe_fn fn, void *ctx);

/*
 * Keep @n more bytes in the batch being filled, hand it to the worker
 * unless it is empty, and return the next batch, empty, with its size in
 * *@cap (waiting for a free one when all are taken).
 */
unsigned char *script_pipe_next_batch(struct script_pipe *p, size_t n, size_t *cap);

/* Hand over the last batch, wait until the worker has done every batch,
 * stop it and free everything. */
void script_pipe_finish(struct script_pipe *p);

#endif
