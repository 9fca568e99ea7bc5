/*
 * order.c - the ordering stage (perfdata/order.h): records in time order,
 * by perf's FINISHED_ROUND rule:
 * a round's end means no record older than the newest one of the round
 * before it is still to come, so those can go out.  Where a file breaks
 * that promise, peo goes as perf's queue goes: a record older than a
 * flush waits for the next round's, and the newest time is that of the
 * records held (the first after all went out sets it).
 *
 * Held records are copied into large chunks (reused once every record in
 * them is out) and kept in sorted runs: a ring's records arrive in time
 * order, so a new record joins a run whose last time is not newer, and the
 * next record out is the smallest head of the runs, kept on top of a heap
 * of the runs that hold records (perfdata/heap.h).  Equal times keep their
 * order of arrival.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/heap.h"
#include "perfdata/order.h"

#define CHUNK_BYTES (4u << 20)
#define IN_FILE UINT32_MAX /* a held record's chunk when its bytes are the source's (they stay) */

struct held {
	uint64_t time, seq, offset;
	unsigned char *bytes;
	uint32_t len, chunk;
	uint32_t tag; /* the source's */
};

struct run {
	struct held *v;
	size_t head, n, cap;
};

struct chunk {
	unsigned char *mem;
	size_t used, cap, live;
};

struct pd_order {
	struct run *runs;
	size_t nruns;
	struct pd_heap heap; /* the runs that hold records, by their heads (room for nruns) */
	struct chunk *chunks;
	size_t nchunks, cur;
	uint64_t seq, held;
	uint64_t max_time;   /* newest time held (since none was) */
	uint64_t next_flush; /* the newest time as of the last round's end */
	uint64_t limit;      /* records up to this time may go out */
	int draining;        /* the data ended: everything may go out */
	int may_out;         /* a held record may be due: look for one (else read on) */
	size_t last_run;     /* the run the last held record joined: the next one's likely run */
	uint32_t out_chunk;  /* the chunk of the record last handed out: release it next */
	int error;           /* the reading failed (-errno): it comes after the held records */
	char error_text[1024]; /* its sentence, kept while they go out */
};

uint64_t pd_order_oldest(const struct pd_order *o, uint64_t pos)
{
	uint64_t keep = pos;

	/* A run's records arrived in the source's order: its head is its oldest offset. */
	for (size_t i = 0; i < o->nruns; i++)
		if (o->runs[i].head < o->runs[i].n && o->runs[i].v[o->runs[i].head].offset < keep)
			keep = o->runs[i].v[o->runs[i].head].offset;
	return keep;
}

int pd_order_new(struct pd_order **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return peo_fail(ENOMEM, "out of memory for time ordering");
	(*out)->out_chunk = IN_FILE;
	return 0;
}

void pd_order_free(struct pd_order *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->nruns; i++)
		free(o->runs[i].v);
	for (size_t i = 0; i < o->nchunks; i++)
		free(o->chunks[i].mem);
	free(o->runs);
	free(o->heap.v);
	free(o->chunks);
	free(o);
}

/* A chunk's room: CHUNK_BYTES, or less when that cannot be had (down to
 * @len, rounded up to 64 KiB); 0 when not even that can. */
static size_t chunk_alloc(struct chunk *c, uint32_t len)
{
	size_t least = ((size_t)len + 0xffffu) & ~(size_t)0xffffu;

	for (size_t cap = len > CHUNK_BYTES ? len : CHUNK_BYTES;; cap /= 2) {
		if (cap < least)
			cap = least;
		if ((c->mem = malloc(cap)))
			return c->cap = cap;
		if (cap == least)
			return 0;
	}
}

/* Room for @len bytes: the current chunk, a drained one, or a new one. */
static unsigned char *place(struct pd_order *o, uint32_t len, uint32_t *chunk)
{
	struct chunk *c = o->nchunks ? &o->chunks[o->cur] : NULL, *more;
	size_t i;

	if (c && c->cap - c->used >= len)
		goto found;
	for (i = 0; i < o->nchunks; i++)
		if (!o->chunks[i].live && o->chunks[i].cap >= len)
			break;
	if (i == o->nchunks) {
		more = realloc(o->chunks, (o->nchunks + 1) * sizeof(*more));
		if (!more)
			return NULL;
		o->chunks = more;
		o->chunks[i].live = 0;
		if (!chunk_alloc(&o->chunks[i], len))
			return NULL;
		o->nchunks++;
	}
	o->cur = i;
	c = &o->chunks[i];
	c->used = 0;
found:
	*chunk = (uint32_t)o->cur;
	c->live++;
	c->used += (len + 7u) & ~7u;
	return c->mem + c->used - ((len + 7u) & ~7u);
}

/* Room at the end of run @r for one more record, or NULL. */
static struct held *append(struct run *r)
{
	if (r->n == r->cap && r->head && r->head >= r->n / 2) { /* reuse what went out */
		memmove(r->v, r->v + r->head, (r->n - r->head) * sizeof(*r->v));
		r->n -= r->head;
		r->head = 0;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		struct held *more = realloc(r->v, cap * sizeof(*more));

		if (!more)
			return NULL;
		r->v = more;
		r->cap = cap;
	}
	return &r->v[r->n++];
}

/* A record into its chunk slot: word copies the compiler inlines (a call to
 * a small libc's memcpy costs as much as the copy for ~100 bytes). */
static void copy_record(unsigned char *dst, const unsigned char *src, uint32_t len)
{
	uint32_t i = 0;

	for (; i + 8 <= len; i += 8)
		memcpy(dst + i, src + i, 8);
	for (; i < len; i++)
		dst[i] = src[i];
}

/* Whether run @r holds records and its newest is not newer than @time. */
static int takes(const struct run *r, uint64_t time)
{
	return r->head < r->n && r->v[r->n - 1].time <= time;
}

/*
 * A run that @time does not go back in time from: the last record's, else
 * the newest such, an empty one, or a new one.  Any will do: each run stays
 * sorted by time and arrival, and records go out by both across the runs.
 */
static struct run *run_for(struct pd_order *o, uint64_t time)
{
	struct run *more;
	struct pd_heap_slot *heap;

	if (o->last_run < o->nruns && takes(&o->runs[o->last_run], time))
		return &o->runs[o->last_run];
	for (size_t i = o->nruns; i-- > 0;)
		if (takes(&o->runs[i], time))
			return &o->runs[o->last_run = i];
	for (size_t i = 0; i < o->nruns; i++)
		if (o->runs[i].head == o->runs[i].n) { /* an empty run to reuse */
			o->runs[i].head = o->runs[i].n = 0;
			return &o->runs[o->last_run = i];
		}
	more = realloc(o->runs, (o->nruns + 1) * sizeof(*more));
	if (!more)
		return NULL;
	o->runs = more;
	heap = realloc(o->heap.v, (o->nruns + 1) * sizeof(*heap));
	if (!heap)
		return NULL;
	o->heap.v = heap;
	memset(&o->runs[o->nruns], 0, sizeof(*more));
	return &o->runs[o->last_run = o->nruns++];
}

/* Run @run's key in the heap: its head's time and arrival. */
static struct pd_heap_slot head_of(const struct pd_order *o, size_t run)
{
	const struct held *h = &o->runs[run].v[o->runs[run].head];

	return (struct pd_heap_slot){ h->time, h->seq, run };
}

/* Bytes of chunks held, for an out-of-memory sentence. */
static size_t chunk_bytes(const struct pd_order *o)
{
	size_t n = 0;

	for (size_t i = 0; i < o->nchunks; i++)
		n += o->chunks[i].cap;
	return n;
}

static int hold(struct pd_order *o, const struct pd_order_rec *r)
{
	uint64_t time = r->time;
	struct run *run = run_for(o, time);
	struct held *h = run ? append(run) : NULL;

	if (!run)
		return peo_fail(ENOMEM, "out of memory for time order: a list for run %zu of records "
				"in time order (%llu records held)", o->nruns + 1,
				(unsigned long long)o->held);
	if (!h)
		return peo_fail(ENOMEM, "out of memory for time order: a list of %zu records held "
				"in one run (%llu held in all)", run->cap ? run->cap * 2 : 256,
				(unsigned long long)o->held);
	h->time = time;
	h->seq = o->seq++;
	h->offset = r->offset;
	h->len = r->len;
	h->chunk = IN_FILE;
	h->tag = r->tag;
	if (r->stays) { /* the source keeps it (behind pd_order_oldest()) */
		h->bytes = (unsigned char *)(uintptr_t)r->bytes;
	} else {
		h->bytes = place(o, h->len, &h->chunk);
		if (!h->bytes) {
			run->n--; /* not held after all */
			return peo_fail(ENOMEM, "out of memory for time order: room to copy a %u-byte "
					"record at offset %llu (records are copied where the file is not "
					"mapped whole: a pipe, or no address space for the mapping; %llu "
					"held, in %zu bytes of chunks)", h->len,
					(unsigned long long)r->offset, (unsigned long long)o->held,
					chunk_bytes(o));
		}
		copy_record(h->bytes, r->bytes, h->len);
	}
	/* perf's newest time is of the records it holds: the first after all
	 * went out sets it, even when older than those were */
	if (!o->held++ || time > o->max_time)
		o->max_time = time;
	if (run->n - run->head == 1) /* it was empty: into the heap */
		pd_heap_add(&o->heap, head_of(o, (size_t)(run - o->runs)));
	return 0;
}

/* The run whose head goes out next, or NULL when none may. */
static struct run *next_run(struct pd_order *o)
{
	if (!o->heap.n || (!o->draining && o->heap.v[0].time > o->limit))
		return NULL;
	return &o->runs[o->heap.v[0].stream];
}

/* A held record handed out. */
static void deliver(const struct held *h, struct pd_order_rec *out)
{
	out->bytes = h->bytes;
	out->len = h->len;
	out->tag = h->tag;
	out->offset = h->offset;
	out->time = h->time;
	out->has_time = 1;
	out->round_end = 0;
	out->stays = h->chunk == IN_FILE;
	out->held = 1;
}

int pd_order_next(struct pd_order *o, const struct pd_order_src *src, struct pd_order_rec *out)
{
	struct run *r;
	int got;

	if (o->out_chunk != IN_FILE) {
		o->chunks[o->out_chunk].live--;
		o->out_chunk = IN_FILE;
	}
	for (;;) {
		if (o->may_out && (r = next_run(o))) {
			const struct held *h = &r->v[r->head++];

			if (r->head < r->n) /* moves keys only: h stays */
				pd_heap_top_moved(&o->heap, head_of(o, (size_t)(r - o->runs)));
			else
				pd_heap_pop(&o->heap);
			o->out_chunk = h->chunk;
			o->held--;
			deliver(h, out);
			return 1;
		}
		o->may_out = 0; /* until the limit moves (a round ends) or the data does */
		if (o->draining) /* the error that ended the reading, after the records before it */
			return o->error ? peo_fail(o->error, "%s", o->error_text) : 0;
		got = src->pull(src->ctx, out);
		if (got < 0) { /* every whole record read goes out first, in time order */
			o->error = got;
			snprintf(o->error_text, sizeof(o->error_text), "%s", peo_last_error());
			o->draining = o->may_out = 1;
			continue;
		}
		if (got == 0) {
			o->draining = o->may_out = 1;
			continue;
		}
		if (out->round_end) {
			o->limit = o->next_flush;
			o->next_flush = o->max_time;
			o->may_out = 1;
		}
		if (!out->has_time) { /* passes at once */
			out->held = 0;
			return 1;
		}
		/* One older than the last round's flush waits for the next, as in
		 * perf: then it goes out sorted among that round's records. */
		if ((got = hold(o, out)))
			return got;
	}
}
