/*
 * perfdata_order.c - records in time order, by perf's FINISHED_ROUND rule:
 * a round's end means no record older than the newest one of the round
 * before it is still to come, so those can go out.  Held records are
 * copies in a min-heap on (time, arrival), so equal times keep file order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata_internal.h"

struct held {
	uint64_t time, seq, offset;
	size_t len;
	unsigned char *bytes;
};

struct pd_order {
	struct held *heap;
	size_t n, cap;
	uint64_t seq;
	uint64_t max_time;   /* newest time queued */
	uint64_t next_flush; /* the newest time as of the last round's end */
	uint64_t limit;      /* records up to this time may go out */
	int draining;        /* the data ended: everything may go out */
	unsigned char *out;  /* the record last handed out */
};

int peo_pd_order_new(struct peo_perfdata *f)
{
	f->order = calloc(1, sizeof(*f->order));
	return f->order ? 0 : peo_fail(ENOMEM, "out of memory for time ordering");
}

void peo_pd_order_free(struct peo_perfdata *f)
{
	if (!f->order)
		return;
	for (size_t i = 0; i < f->order->n; i++)
		free(f->order->heap[i].bytes);
	free(f->order->heap);
	free(f->order->out);
	free(f->order);
	f->order = NULL;
}

static int before(const struct held *a, const struct held *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static int push(struct pd_order *o, const struct peo_perfdata_record *r, uint64_t time)
{
	struct held h = { time, o->seq++, r->offset, r->rec.header.size, NULL };
	size_t i;

	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 1024;
		struct held *more = realloc(o->heap, cap * sizeof(*more));

		if (!more)
			return peo_fail(ENOMEM, "out of memory holding %zu records for time order", o->n);
		o->heap = more;
		o->cap = cap;
	}
	h.bytes = malloc(h.len);
	if (!h.bytes)
		return peo_fail(ENOMEM, "out of memory holding a record for time order");
	memcpy(h.bytes, r->rec.bytes, h.len);
	for (i = o->n++; i > 0 && before(&h, &o->heap[(i - 1) / 2]); i = (i - 1) / 2)
		o->heap[i] = o->heap[(i - 1) / 2];
	o->heap[i] = h;
	if (time > o->max_time)
		o->max_time = time;
	return 0;
}

static struct held pop(struct pd_order *o)
{
	struct held top = o->heap[0], last = o->heap[--o->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= o->n)
			break;
		if (c + 1 < o->n && before(&o->heap[c + 1], &o->heap[c]))
			c++;
		if (!before(&o->heap[c], &last))
			break;
		o->heap[i] = o->heap[c];
		i = c;
	}
	if (o->n)
		o->heap[i] = last;
	return top;
}

/* The time a record is ordered by, or 0 when it has none (it goes at once). */
static int record_time(const struct peo_record *r, uint64_t *t)
{
	if (r->header.type >= PEO_RECORD_MAX || !r->attr)
		return 0;
	if (r->header.type == PEO_RECORD_SAMPLE) {
		*t = r->u.sample.time;
		return !!(r->attr->sample_type & PEO_SAMPLE_TIME);
	}
	*t = r->sample_id.time;
	return !!(r->sample_id.fields & PEO_SAMPLE_TIME);
}

int peo_perfdata_next(struct peo_perfdata *f, struct peo_perfdata_record *out)
{
	struct pd_order *o;
	uint64_t t;
	int got;

	if (!f || !out)
		return peo_fail(EINVAL, "peo_perfdata_next: argument '%s' is NULL", f ? "rec" : "f");
	o = f->order;
	if (!o)
		return peo_pd_next_raw(f, out);
	free(o->out);
	o->out = NULL;
	for (;;) {
		if (o->n && (o->draining || o->heap[0].time <= o->limit)) {
			struct held h = pop(o);
			int err;

			o->out = h.bytes;
			memset(out, 0, sizeof(*out));
			out->offset = h.offset;
			err = peo_record_parse(f->parser, h.bytes, h.len, &out->rec);
			return err ? err : 1;
		}
		if (o->draining)
			return 0;
		got = peo_pd_next_raw(f, out);
		if (got < 0)
			return got;
		if (got == 0) {
			o->draining = 1;
			continue;
		}
		if (out->rec.header.type == PEO_RECORD_FINISHED_ROUND) {
			o->limit = o->next_flush;
			o->next_flush = o->max_time;
			return 1;
		}
		if (!record_time(&out->rec, &t))
			return 1;
		if ((got = push(o, out, t)))
			return got;
	}
}
