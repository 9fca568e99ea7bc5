/*
 * count.c - record counts by type and samples by event, what perf
 * report --stats prints, without parsing records: most records are only
 * their header, read in place (pd_stream_next_plain); the few the reader acts
 * on take the full path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/reader.h"

_Static_assert(PEO_RECORD_USER_MAX <= PEO_PERFDATA_COUNT_TYPES, "a record type past by_type");

/* *@arr from @old to @n entries, the new ones zero. */
static int grow_zeroed(uint64_t **arr, size_t old, size_t n)
{
	uint64_t *more = realloc(*arr, n * sizeof(*more));

	if (!more)
		return -ENOMEM;
	memset(more + old, 0, (n - old) * sizeof(*more));
	*arr = more;
	return 0;
}

/* Count one record; @attr is its event's when known, else found here. */
static int count_one(struct peo_perfdata *f, struct peo_perfdata_counts *c, uint32_t type,
		     const unsigned char *bytes, size_t size, const struct peo_attr *attr)
{
	uint64_t lost = 0;
	int ev = 0;

	c->total++;
	if (type < PEO_PERFDATA_COUNT_TYPES)
		c->by_type[type]++;
	if (type == PEO_RECORD_LOST_SAMPLES && size >= 16) /* header, u64 lost, sample_id */
		c->lost_samples += (lost = peo_pd_u64(f->hdr, bytes + 8));
	if (type != PEO_RECORD_SAMPLE && !lost)
		return 0;
	if (f->hdr->nevents != 1 || attr) { /* one event: every sample is its */
		struct peo_record r;

		if (!attr && peo_record_peek(f->hdr->parser, bytes, size, &r, NULL) >= 0)
			attr = r.attr;
		ev = peo_perfdata_event_of(f, attr);
	}
	if (ev < 0) {
		c->samples_unknown_event += type == PEO_RECORD_SAMPLE;
		return 0; /* lost samples of no known event stay in the total only */
	}
	if ((size_t)ev >= c->nevents) {
		size_t n = (size_t)ev + 1;

		if (grow_zeroed(&c->samples_by_event, c->nevents, n) ||
		    grow_zeroed(&c->lost_samples_by_event, c->nevents, n))
			return peo_fail(ENOMEM, "out of memory counting %d events", ev + 1);
		c->nevents = n;
	}
	if (type == PEO_RECORD_SAMPLE)
		c->samples_by_event[ev]++;
	else
		c->lost_samples_by_event[ev] += lost;
	return 0;
}

int peo_perfdata_count(struct peo_perfdata *f, struct peo_perfdata_counts *c)
{
	struct peo_perfdata_record r = { .sz = sizeof(r) };
	struct peo_event_header h;
	const unsigned char *at;
	int got, err;

	if (!f || !c)
		return peo_fail(EINVAL, "peo_perfdata_count: argument '%s' is NULL", f ? "c" : "f");
	if ((err = PEO_SIZED(c, peo_perfdata_counts, PEO_PERFDATA_COUNTS_SZ_0_1)))
		return err;
	*c = (struct peo_perfdata_counts){ .sz = c->sz };
	for (;;) {
		if (!f->dir && !f->order && pd_stream_next_plain(&f->st, &h, &at)) {
			err = count_one(f, c, h.type, at, h.size, NULL);
		} else {
			got = peo_perfdata_next(f, &r);
			if (got <= 0) {
				if (got < 0)
					peo_perfdata_counts_free(c);
				return got;
			}
			err = count_one(f, c, r.rec.header.type, r.rec.bytes, r.rec.header.size,
					r.rec.attr);
		}
		if (err) {
			peo_perfdata_counts_free(c);
			return err;
		}
	}
}

void peo_perfdata_counts_free(struct peo_perfdata_counts *c)
{
	if (!c)
		return;
	free(c->samples_by_event);
	free(c->lost_samples_by_event);
	c->samples_by_event = NULL;
	c->lost_samples_by_event = NULL;
	c->nevents = 0;
}
