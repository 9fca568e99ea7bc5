/*
 * reader.h - the perf.data reader (struct peo_perfdata) and what its files
 * share.  Its stages, bottom up: source.c (the bytes), stream.c (one
 * file's, pipe's or data file's records in file order), order_reader.c
 * (time order by the FINISHED_ROUND rule: order.c's stage over the stream)
 * or dir.c (a --threads directory's streams, each sorted by dir_sort.c,
 * merged by dir_merge.c), next.c (peo_perfdata_next); header.c reads what
 * the file says of itself.
 */
#ifndef PEO_PERFDATA_INTERNAL_H
#define PEO_PERFDATA_INTERNAL_H

#include "perfdata/header.h"
#include "perfdata/stream.h"
#include "record_internal.h"

struct peo_perfdata {
	struct pd_stream st;   /* the file's or pipe's records (a directory's: DIR/data's) */
	int own_fd;            /* st.src.fd when it is closed with the reader, else -1 */
	struct pd_header *hdr; /* what the file says of itself (st.hdr too) */
	struct pd_order *order; /* time ordering (opts.ordered), or NULL */
	struct pd_dir *dir;    /* directory mode: the data.N streams, or NULL */
	int headers_only;      /* opts.headers_only */
};

/* perfdata/dir.c: directory mode */
struct pd_dir;
PEO_HIDDEN int peo_pd_dir_open(struct peo_perfdata *f, const char *dir);
PEO_HIDDEN int peo_pd_dir_next(struct peo_perfdata *f, struct peo_perfdata_record *out);
PEO_HIDDEN void peo_pd_dir_free(struct peo_perfdata *f);
/* Where the records stopped at a cut one (f's own, or a data file's). */
PEO_HIDDEN const char *peo_pd_dir_stopped(const struct peo_perfdata *f);
/* perfdata/order_reader.c: the records in time order by perf's
 * FINISHED_ROUND rule (opts.ordered): the stream's records through the
 * ordering stage (perfdata/order.h). */
struct pd_order;
PEO_HIDDEN int peo_pd_order_new(struct peo_perfdata *f);
PEO_HIDDEN int peo_pd_order_next(struct peo_perfdata *f, struct peo_perfdata_record *out);
PEO_HIDDEN void peo_pd_order_free(struct peo_perfdata *f);

#endif
