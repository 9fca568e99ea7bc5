/*
 * script/log.h - an append-only log that one thread writes and several
 * read, each at its own pace: peo script's formatting workers each keep
 * their own copy of the state records build (thread names, memory maps,
 * the record parser), so every worker reads every state record, while
 * each formats only its own batches.
 *
 * Entries are counted from 0.  The writer publishes a count to a reader
 * by some other handover (a mutex): a reader reads only entries below a
 * count it was given.  Chunks every reader has left are freed (one kept
 * for reuse).
 */
#ifndef PEO_TOOLS_SCRIPT_LOG_H
#define PEO_TOOLS_SCRIPT_LOG_H

#include <stddef.h>
#include <stdint.h>

/* The largest entry: the caller's entries must fit. */
#define SCRIPT_LOG_ENTRY_MAX (128u << 10)

struct script_log_chunk;

struct script_log {
	struct script_log_chunk *head, *tail; /* oldest and newest chunk */
	struct script_log_chunk *spare;       /* one freed chunk kept for reuse */
	uint64_t count;                       /* entries appended */
	size_t nchunks;                       /* chunks allocated, the spare too */
	unsigned readers;
};

/* A reader's place, set by script_log_reader_start() (a zeroed one reads nothing). */
struct script_log_cursor {
	struct script_log_chunk *chunk;
	size_t at;
	uint64_t pos; /* entries read */
};

/* An empty log that @readers cursors read.  Returns 0, or -1 (memory). */
int script_log_init(struct script_log *l, unsigned readers);

/* @c at the log's first entry (call before any is appended). */
void script_log_reader_start(struct script_log *l, struct script_log_cursor *c);

/*
 * Room for an entry of up to @need bytes (at most SCRIPT_LOG_ENTRY_MAX),
 * 8-aligned; NULL when memory ran out.  The writer's only.
 */
void *script_log_room(struct script_log *l, size_t need);

/* The entry at the room is @n (> 0) bytes: it is entry number count (then count++). */
void script_log_commit(struct script_log *l, size_t n);

/*
 * The reader's next entry when its count is below @upto, else NULL; its
 * size in *@n.  Leaving a chunk tells the writer it may reuse it.
 */
const void *script_log_next(struct script_log_cursor *c, uint64_t upto, size_t *n);

/* Free every chunk (no reader may read on). */
void script_log_free(struct script_log *l);

#endif
