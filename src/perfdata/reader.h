/*
 * reader.h - the perf.data reader (struct peo_perfdata) and what its files
 * share.  Its stages, bottom up: source.c (the bytes), stream.c (one
 * file's or pipe's records in file order), order_reader.c (time order by
 * the FINISHED_ROUND rule: order.c's stage over the stream) or dir.c (a
 * --threads directory's files, each sorted by dir_sort.c, merged by
 * dir_merge.c), next.c (peo_perfdata_next); header.c
 * reads what the file says of itself.
 */
#ifndef PEO_PERFDATA_INTERNAL_H
#define PEO_PERFDATA_INTERNAL_H

#include "perfdata/header.h"
#include "perfdata/source.h"
#include "record_internal.h"

struct pd_inflate; /* perfdata/zstd.c */

struct peo_perfdata {
	struct pd_source src;       /* the file's bytes */
	int own_fd;                 /* src.fd when it is closed with the reader, else -1 */
	struct pd_header *hdr;      /* what the file says of itself */
	int borrowed_hdr;           /* a data.N stream's: its directory's, not freed with it */
	int stable;                 /* the last raw record stays mapped: hold it uncopied */
	struct pd_inflate *inflate; /* records expanded from COMPRESSED ones */
	struct pd_order *order;     /* time ordering (opts.ordered), or NULL */
	/* The oldest file offset that a record handed on still points to (the
	 * ordering's held ones), or @pos: the mapping is dropped below it. */
	uint64_t (*oldest_in_use)(const struct peo_perfdata *f, uint64_t pos);
	struct pd_dir *dir;         /* directory mode: the data.N streams, or NULL */
	int parse_fields;           /* 0: records are only peeked at (header, attr, time) */
	int headers_only;           /* opts.headers_only */
	int want_time;              /* peeking also reads the time (ordering, merging) */
	uint64_t peek_time;         /* the last peeked record's time, */
	int peek_has_time;          /* when it has one */
	int force;                  /* opts.force: read a damaged file as far as it goes */
	char *stopped;              /* where a cut record ended the data (peo_perfdata_stopped) */
};

/* perfdata/user.c: a HEADER_ATTR record's attr (file order, *attr_size
 * bytes) and its count of ids after it.  0, or -EPROTO when they do not fit. */
PEO_HIDDEN int peo_pd_header_attr(const struct peo_perfdata *f, const struct peo_record *r,
				  const unsigned char **attr, size_t *attr_size, size_t *nids);
/* perfdata/features.c: a perf_header_string at @p: bytes used, or 0 when it overruns. */
PEO_HIDDEN size_t peo_pd_header_string(const struct peo_perfdata *f, const unsigned char *p,
				       size_t avail, const char **s);
/* The parser's host-order copy of event @i's attr (what records point to). */
static inline const struct peo_attr *peo_pd_parser_attr(const struct peo_perfdata *f, size_t i)
{
	return i < f->hdr->parser->nattrs ? &f->hdr->parser->attrs[i].attr : NULL;
}
/* The index of @attr, which must be one of the parser's attrs (a record's
 * rec.attr, as the reader's peek gives it): the parser keeps its attrs in
 * the order they were added, as the file's events, in an array of struct
 * parse_attr.  Unchecked (it runs once per held record). */
static inline size_t peo_pd_attr_index(const struct peo_perfdata *f, const struct peo_attr *attr)
{
	return ((uintptr_t)attr - (uintptr_t)&f->hdr->parser->attrs[0].attr) / sizeof(struct parse_attr);
}
/* perfdata/stream.c: a record cut by the end of the data or stream, at
 * f->pos, with @have of its @need bytes there (@what: "a record", "a record
 * header"): under opts.force the data ends there (f->stopped says so, and
 * 0 is returned); else -EPROTO naming it. */
PEO_HIDDEN int peo_pd_cut(struct peo_perfdata *f, const char *what, uint64_t have, uint64_t need);
/* perfdata/stream.c: the next record in file order. */
PEO_HIDDEN int peo_pd_next_raw(struct peo_perfdata *f, struct peo_perfdata_record *out);
/* The record at @bytes parsed whole (kernel types' fields, user types'
 * header and bytes); an error's sentence names its @offset.  Returns 0 or
 * a negative errno (-EPROTO for a record the file's attrs do not fit). */
PEO_HIDDEN int peo_pd_parse_fields(struct peo_perfdata *f, const void *bytes, size_t len,
				   uint64_t offset, struct peo_record *out);

/* The next record's header and bytes when it is whole in the window and the
 * reader takes no action on its type (file order only): 1, advanced past
 * it; 0 when peo_pd_next_raw() must read it. */
PEO_HIDDEN int peo_pd_next_plain(struct peo_perfdata *f, struct peo_event_header *h,
				 const unsigned char **at);
/* perfdata/dir.c: directory mode */
struct pd_dir;
PEO_HIDDEN int peo_pd_dir_open(struct peo_perfdata *f, const char *dir);
PEO_HIDDEN int peo_pd_dir_next(struct peo_perfdata *f, struct peo_perfdata_record *out);
PEO_HIDDEN void peo_pd_dir_free(struct peo_perfdata *f);
/* Where the records stopped at a cut one (f's own, or a data file's). */
PEO_HIDDEN const char *peo_pd_dir_stopped(const struct peo_perfdata *f);
/* perfdata/order_reader.c: the records in time order by perf's
 * FINISHED_ROUND rule (opts.ordered): peo_pd_next_raw()'s through the
 * ordering stage (perfdata/order.h). */
struct pd_order;
PEO_HIDDEN int peo_pd_order_new(struct peo_perfdata *f);
PEO_HIDDEN int peo_pd_order_next(struct peo_perfdata *f, struct peo_perfdata_record *out);
PEO_HIDDEN void peo_pd_order_free(struct peo_perfdata *f);

/* perfdata/zstd.c: records inside a COMPRESSED/COMPRESSED2 record. */
PEO_HIDDEN int peo_perfdata_inflate_start(struct peo_perfdata *f, const struct peo_record *r,
					  uint64_t offset);
PEO_HIDDEN int peo_perfdata_inflate_next(struct peo_perfdata *f, const void **rec, size_t *len);
PEO_HIDDEN void peo_perfdata_inflate_free(struct peo_perfdata *f);

#endif
