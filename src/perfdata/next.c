/*
 * next.c - the reader's records, peo_perfdata_next(), from the top of its
 * stages: a --threads directory's streams (dir.c: in perf's reading order,
 * or merged by time), else the file's records in time order by the
 * FINISHED_ROUND rule (order.c), else in file order (stream.c); each stage
 * reads the one below it, down to the source's bytes (source.c).
 */
#include <errno.h>
#include <stddef.h>

#include "perfdata/reader.h"

/* The next record from the top stage: 1, 0 at the end, or a negative errno. */
static int next_record(struct peo_perfdata *f, struct peo_perfdata_record *out)
{
	if (f->dir)
		return peo_pd_dir_next(f, out);
	if (f->order)
		return peo_pd_order_next(f, out);
	return pd_stream_next(&f->st, out);
}

int peo_perfdata_next(struct peo_perfdata *f, struct peo_perfdata_record *out)
{
	size_t sz;
	int got;

	if (!f || !out)
		return peo_fail(EINVAL, "peo_perfdata_next: argument '%s' is NULL", f ? "rec" : "f");
	if ((got = PEO_SIZED(out, peo_perfdata_record, PEO_PERFDATA_RECORD_SZ_0_1)))
		return got;
	sz = out->sz;
	got = next_record(f, out);
	/* Records of the reader's own are copied over @out whole: its sizes are the caller's. */
	out->sz = sz;
	out->rec.sz = sz - offsetof(struct peo_perfdata_record, rec);
	return got;
}
