/*
 * dir_merge.c - a --threads directory's record streams merged, in perf's
 * reading order or by time (perfdata/dir_merge.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "perfdata/dir_merge.h"
#include "perfdata/heap.h"

/* A stream's next record, pulled and not yet gone out (have). */
struct head {
	struct pd_merge_rec rec;
	int have, done;
};

struct pd_merge {
	struct pd_merge_src *src;
	struct head *h;
	size_t n;
	int by_time;
	size_t cur;          /* file order: the stream whose turn it is, */
	uint64_t turn;       /* and which of its turns */
	struct pd_heap heap; /* time order: the streams that have a record, by it */
	size_t heap_filled;  /* the streams whose first record was pulled into it */
	int top_gone;        /* time order: the top's record went out: pull it next */
};

int pd_merge_new(const struct pd_merge_src *src, size_t n, int by_time, struct pd_merge **out)
{
	struct pd_merge *m = calloc(1, sizeof(*m));

	*out = m;
	if (m) {
		m->src = calloc(n + 1, sizeof(*m->src));
		m->h = calloc(n + 1, sizeof(*m->h));
		m->heap.v = calloc(n + 1, sizeof(*m->heap.v));
	}
	if (!m || !m->src || !m->h || !m->heap.v) {
		pd_merge_free(m);
		*out = NULL;
		return peo_fail(ENOMEM, "out of memory merging %zu data files", n);
	}
	for (size_t i = 0; i < n; i++)
		m->src[i] = src[i];
	m->n = n;
	m->by_time = by_time;
	return 0;
}

void pd_merge_free(struct pd_merge *m)
{
	if (!m)
		return;
	free(m->src);
	free(m->h);
	free(m->heap.v);
	free(m);
}

/* Make sure stream @i has its next record pulled, unless it has ended. */
static inline __attribute__((always_inline)) int fill(struct pd_merge *m, size_t i)
{
	struct head *h = &m->h[i];
	int got;

	if (h->have || h->done)
		return 0;
	got = m->src[i].pull(m->src[i].ctx, &h->rec);
	if (got < 0)
		return got;
	if (got == 0)
		h->done = 1;
	else
		h->have = 1;
	return 0;
}

/*
 * Stream @i's key: a record without a time goes at once (the first
 * stream's first); else by time, a tie to the record of the earlier turn,
 * then to the stream given first.  So seq is the stream's index for no
 * time, (turn + 1) * n + index for a time.
 */
static struct pd_heap_slot key_of(const struct pd_merge *m, size_t i)
{
	const struct pd_merge_rec *r = &m->h[i].rec;

	if (!r->has_time)
		return (struct pd_heap_slot){ 0, i, i };
	return (struct pd_heap_slot){ r->time, (r->turn + 1) * m->n + i, i };
}

/* The stream on top of the heap, or NULL when it is empty. */
static const struct head *heap_top(const struct pd_merge *m)
{
	return m->heap.n ? &m->h[m->heap.v[0].stream] : NULL;
}

/*
 * Time order: the stream with the oldest next record, the top of the heap
 * (*best, or n when none).  Streams are first pulled in the order given,
 * but only up to a record without time: it goes at once, before a later
 * stream is read (whose first record may be broken), as perf sends it.
 */
static int next_by_time(struct pd_merge *m, size_t *best)
{
	const struct head *top;
	int got;

	*best = m->n;
	if (m->top_gone) {
		size_t i = m->heap.v[0].stream;

		if ((got = fill(m, i))) /* pulled again on the next call */
			return *best = i, got;
		if (m->h[i].have)
			pd_heap_top_moved(&m->heap, key_of(m, i));
		else
			pd_heap_pop(&m->heap);
		m->top_gone = 0;
	}
	while (m->heap_filled < m->n && !((top = heap_top(m)) && !top->rec.has_time)) {
		size_t i = m->heap_filled;

		if ((got = fill(m, i))) /* retried from this stream on the next call */
			return *best = i, got;
		if (m->h[i].have)
			pd_heap_add(&m->heap, key_of(m, i));
		m->heap_filled++;
	}
	if (m->heap.n) {
		*best = m->heap.v[0].stream;
		m->top_gone = 1;
	}
	return 0;
}

/* File order: perf's reading order, each stream's turn in the order given. */
static int next_by_reading(struct pd_merge *m, size_t *next)
{
	size_t ended = 0; /* streams passed in a row that have ended */
	int got;

	*next = m->n;
	while (ended < m->n) {
		struct head *h = &m->h[m->cur];

		if ((got = fill(m, m->cur)))
			return *next = m->cur, got;
		if (h->have && h->rec.turn == m->turn) {
			*next = m->cur;
			return 0;
		}
		/* Its turn is over (every live stream's next turn is the next one). */
		ended = h->done ? ended + 1 : 0;
		if (++m->cur == m->n) {
			m->cur = 0;
			m->turn++;
		}
	}
	return 0;
}

int pd_merge_next(struct pd_merge *m, const struct pd_merge_rec **out, size_t *from)
{
	size_t i;
	int got = m->by_time ? next_by_time(m, &i) : next_by_reading(m, &i);

	*from = i;
	if (got)
		return got;
	if (i == m->n)
		return 0;
	*out = &m->h[i].rec;
	m->h[i].have = 0; /* its item stays valid until its next pull */
	return 1;
}
