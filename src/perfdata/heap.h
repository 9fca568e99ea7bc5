/*
 * heap.h - a binary min-heap of record streams by their next
 * record's (time, seq), for the merges by time: a file's runs
 * (perfdata/order.c) and a directory's data files (perfdata/dir_merge.c), and
 * of the records a data file holds back (perfdata/dir_sort.c).  A
 * round of perf record -a has a run per CPU, and --threads a file per CPU:
 * a scan of them all for each record cost as much as the rest of the read.
 * Keys sit in the slots, so a sift compares without going to the streams.
 */
#ifndef PEO_PERFDATA_HEAP_H
#define PEO_PERFDATA_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct pd_heap_slot {
	uint64_t time, seq; /* seq: the tie-break, unique among the slots */
	size_t stream;      /* the caller's index of the stream (or its address) */
};

struct pd_heap {
	struct pd_heap_slot *v; /* room for every stream: the caller sizes it */
	size_t n;
};

static inline int pd_heap_before(const struct pd_heap_slot *a, const struct pd_heap_slot *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* @slot put at @at or below it, under the slots that go before it. */
static inline void pd_heap_sift_down(struct pd_heap *h, size_t at, struct pd_heap_slot slot)
{
	for (;;) {
		size_t child = 2 * at + 1;

		if (child >= h->n)
			break;
		if (child + 1 < h->n && pd_heap_before(&h->v[child + 1], &h->v[child]))
			child++;
		if (!pd_heap_before(&h->v[child], &slot))
			break;
		h->v[at] = h->v[child];
		at = child;
	}
	h->v[at] = slot;
}

/* A stream that has a record again: into the heap (its room is there). */
static inline void pd_heap_add(struct pd_heap *h, struct pd_heap_slot slot)
{
	size_t at = h->n++;

	while (at && pd_heap_before(&slot, &h->v[(at - 1) / 2])) {
		h->v[at] = h->v[(at - 1) / 2];
		at = (at - 1) / 2;
	}
	h->v[at] = slot;
}

/* The top stream's record went out and it has another: its new key. */
static inline void pd_heap_top_moved(struct pd_heap *h, struct pd_heap_slot slot)
{
	if (h->n == 1) /* one stream, as one CPU's program: nothing to sift */
		h->v[0] = slot;
	else
		pd_heap_sift_down(h, 0, slot);
}

/* The top stream's record went out and it has no other: out of the heap. */
static inline void pd_heap_pop(struct pd_heap *h)
{
	if (--h->n)
		pd_heap_sift_down(h, 0, h->v[h->n]);
}

#endif
