/*
 * stream.h - the records of one file, pipe or --threads data file in file
 * order, over its source (source.h): each record's header and bytes, a
 * record cut by the end, and perf's own records that the stream acts on
 * (a pipe's attrs and features go into the header it reads with;
 * EVENT_UPDATE's names; TRACING_DATA and AUXTRACE payloads passed over;
 * COMPRESSED records expanded, zstd.c).  It knows nothing of time order:
 * the stages above it peek at each record's time and order them.
 */
#ifndef PEO_PERFDATA_STREAM_H
#define PEO_PERFDATA_STREAM_H

#include "perfdata/header.h"
#include "perfdata/source.h"

struct pd_inflate; /* perfdata/zstd.c */

struct pd_stream {
	struct pd_source src;       /* the bytes (src.fd is its owner's) */
	struct pd_header *hdr;      /* the events and byte order (not owned; a pipe's grows) */
	struct pd_inflate *inflate; /* records expanded from COMPRESSED ones */
	int parse_fields;           /* 0: records are only peeked at (header, attr, time) */
	int want_time;              /* peeking also reads the time */
	int force;                  /* a record cut by the end ends the data, with a note */
	int stable;                 /* the last record stays mapped (not in a buffer reused) */
	int has_time;               /* the last record peeked at has a time, */
	uint64_t time;              /* this one */
	char *stopped;              /* where a cut record ended the data (under force) */
	/* The oldest offset that a record handed on still points to, or @pos:
	 * the mapping is dropped below it.  NULL: none is held above. */
	uint64_t (*oldest_in_use)(void *ctx, uint64_t pos);
	void *oldest_ctx;
};

/*
 * A stream over @hdr's events: its source is the caller's to set up
 * (pd_source_init, pos and end), and kept; the rest is set here.  @parse_fields
 * 0 peeks at records only, @want_time reads their time then, @force reads
 * a cut file as far as it goes.
 */
PEO_HIDDEN void pd_stream_init(struct pd_stream *s, struct pd_header *hdr, int parse_fields,
			       int want_time, int force);
/* What the stream holds goes (its source's buffer and mapping, its
 * expansion, its note); the fd and the header stay. */
PEO_HIDDEN void pd_stream_fini(struct pd_stream *s);

/*
 * The next record in file order into @out (offset, header, bytes; its
 * fields when parse_fields, else its attr and, under want_time, its time
 * in s->time when s->has_time).  Returns 1; 0 at the end (or, under
 * force, at a record cut by it: s->stopped says where); -EPROTO for a
 * record that does not fit (its offset named), -ENOMEM, -EIO, -ENOTSUP (a
 * compressed record, without zstd).
 */
PEO_HIDDEN int pd_stream_next(struct pd_stream *s, struct peo_perfdata_record *out);

/*
 * The next record's header and bytes when it is whole in the window and
 * the stream takes no action on its type: 1, advanced past it; 0 when
 * pd_stream_next() must read it.  For a reader in file order only.
 */
PEO_HIDDEN int pd_stream_next_plain(struct pd_stream *s, struct peo_event_header *h,
				    const unsigned char **at);

/*
 * The record at @bytes (@len) parsed whole for @hdr's events (kernel
 * types' fields, perf's own types' header and bytes); an error's sentence
 * names its @offset.  0 or a negative errno (-EPROTO for a record the
 * file's attrs do not fit).
 */
PEO_HIDDEN int pd_record_parse(const struct pd_header *hdr, const void *bytes, size_t len,
			       uint64_t offset, struct peo_record *out);

/* perfdata/zstd.c: records inside a COMPRESSED/COMPRESSED2 record. */
PEO_HIDDEN int pd_inflate_start(struct pd_stream *s, const struct peo_record *r, uint64_t offset);
PEO_HIDDEN int pd_inflate_next(struct pd_stream *s, const void **rec, size_t *len);
PEO_HIDDEN void pd_inflate_free(struct pd_stream *s);

#endif
