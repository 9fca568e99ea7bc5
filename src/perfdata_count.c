/*
 * perfdata_count.c - record counts by type and samples by event, what perf
 * report --stats prints, without parsing records: most records are only
 * their header, read in place (peo_pd_next_plain); the few the reader acts
 * on take the full path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata_internal.h"

_Static_assert(PEO_RECORD_USER_MAX <= PEO_PERFDATA_COUNT_TYPES, "a record type past by_type");

/* Count one record; @attr is its event's when known, else found here. */
static int count_one(struct peo_perfdata *f, struct peo_perfdata_counts *c, uint32_t type,
		     const unsigned char *bytes, size_t size, const struct peo_attr *attr)
{
	int ev = 0;

	c->total++;
	if (type < PEO_PERFDATA_COUNT_TYPES)
		c->by_type[type]++;
	if (type != PEO_RECORD_SAMPLE)
		return 0;
	if (f->nevents != 1 || attr) { /* one event: every sample is its */
		struct peo_record r;

		if (!attr && peo_record_peek(f->parser, bytes, size, &r, NULL) >= 0)
			attr = r.attr;
		ev = peo_perfdata_event_of(f, attr);
	}
	if (ev < 0 || !f->nevents) {
		c->samples_unknown_event++;
		return 0;
	}
	if ((size_t)ev >= c->nevents) {
		uint64_t *more = realloc(c->samples_by_event, (size_t)(ev + 1) * sizeof(*more));

		if (!more)
			return peo_fail(ENOMEM, "out of memory counting %d events", ev + 1);
		memset(more + c->nevents, 0, ((size_t)ev + 1 - c->nevents) * sizeof(*more));
		c->samples_by_event = more;
		c->nevents = (size_t)ev + 1;
	}
	c->samples_by_event[ev]++;
	return 0;
}

int peo_perfdata_count(struct peo_perfdata *f, struct peo_perfdata_counts *c)
{
	struct peo_perfdata_record r;
	struct peo_event_header h;
	const unsigned char *at;
	int got, err;

	if (!f || !c)
		return peo_fail(EINVAL, "peo_perfdata_count: argument '%s' is NULL", f ? "c" : "f");
	memset(c, 0, sizeof(*c));
	for (;;) {
		if (!f->dir && peo_pd_next_plain(f, &h, &at)) {
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
	c->samples_by_event = NULL;
	c->nevents = 0;
}
