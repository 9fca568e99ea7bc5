/*
 * dir_merge.h - the merge of a --threads directory's record streams
 * (DIR/data's, then each DIR/data.N's, as the directory lists them) into
 * one.  It knows no file: the reader (perfdata/dir.c) feeds it each data
 * file's records (already in time order, perfdata/dir_sort.h), a test
 * made-up ones (tests/test_perfdata_dir_merge.c).
 *
 * perf reads the streams in turns, 2 MiB of one stream before the next;
 * each record comes with its turn (the source counts them).  The rule:
 *   - file order (perf --no-ordered): turn 0 of each stream in the order
 *     given, then turn 1 of each, and so on; a stream that ended is passed;
 *   - time order: the oldest next record of all goes first; at equal times
 *     the record of the earlier turn, then the stream given first; a
 *     record without a time goes at once when it is a stream's next
 *     (before any with a time; among several, the stream given first);
 *   - in time order the streams are first read in the order given, each up
 *     to its first record, and the reading stops at a record without a
 *     time, which goes out before a later stream is read;
 *   - a stream that fails: its error, with the records before it gone out;
 *     the next call pulls from that stream again.
 */
#ifndef PEO_PERFDATA_DIR_MERGE_H
#define PEO_PERFDATA_DIR_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* One record of a stream, as the merge sees it. */
struct pd_merge_rec {
	uint64_t time; /* its time, when has_time */
	uint64_t turn; /* perf's reading turn of its stream it is read in */
	int has_time;
	void *item;    /* the source's: what the record is (the merge only hands it on) */
};

/* A stream: @pull fills *rec with its next record and returns 1, or 0 at
 * its end, or a negative errno (its sentence set by peo_fail()).  A
 * record's item stays valid until the next pull of the same stream. */
struct pd_merge_src {
	int (*pull)(void *ctx, struct pd_merge_rec *rec);
	void *ctx;
};

struct pd_merge;

/* A merge of the @n streams @src (copied; their contexts stay the
 * caller's), in time order when @by_time, else in file order: 0 and *out,
 * or -ENOMEM. */
PEO_HIDDEN int pd_merge_new(const struct pd_merge_src *src, size_t n, int by_time,
			    struct pd_merge **out);
/* Frees @m (NULL is fine). */
PEO_HIDDEN void pd_merge_free(struct pd_merge *m);
/*
 * The next record, *out pointing at it (valid until the next call), and
 * the index of its stream into *from: 1; 0 when every stream ended; or a
 * negative errno, a stream's error (its index in *from).  Pulls each
 * stream as the rule needs.
 */
PEO_HIDDEN int pd_merge_next(struct pd_merge *m, const struct pd_merge_rec **out, size_t *from);

#endif
