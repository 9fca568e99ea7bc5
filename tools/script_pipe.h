/*
 * script_pipe.h - peo script's second core: the reading thread fills
 * batches of entries (a record's bytes in time order, with what needs the
 * file resolved), and a worker thread parses and prints each batch in
 * order.  Reading and time order are about half of a text run, the parse
 * and formatting the other half, so a pipeline of the two nearly halves
 * it on two cores.
 */
#ifndef PEO_TOOLS_SCRIPT_PIPE_H
#define PEO_TOOLS_SCRIPT_PIPE_H

#include <stddef.h>

/* The largest entry a batch takes: the caller's entries must fit. */
#define SCRIPT_PIPE_ENTRY_MAX (256u << 10)

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
 * Room for an entry of up to @need (at most SCRIPT_PIPE_ENTRY_MAX) bytes in
 * the batch being filled; a full batch goes to the worker first (waiting
 * for a free one when all are taken).
 */
unsigned char *script_pipe_room(struct script_pipe *p, size_t need);

/* The entry at the room is @n bytes: keep them. */
void script_pipe_commit(struct script_pipe *p, size_t n);

/*
 * Keep @n more bytes in the batch being filled (a caller filling whole
 * batches rather than entries), hand it to the worker unless it is empty,
 * and return the next batch, empty, with its size in *@cap.
 */
unsigned char *script_pipe_next_batch(struct script_pipe *p, size_t n, size_t *cap);

/* Hand over the last batch, wait until the worker has done every batch,
 * stop it and free everything. */
void script_pipe_finish(struct script_pipe *p);

#endif
