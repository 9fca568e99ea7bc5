/*
 * header.h - what a perf.data says of itself: its byte order, where its
 * data lies, its events (attrs, ids, names), its feature sections and
 * their decodings, and the record parser made for its events.  A file's
 * comes from its header (pd_header_read); a pipe's arrives among the
 * records (stream.c adds to it).  The data.N files of a --threads directory
 * share their header file's.
 */
#ifndef PEO_PERFDATA_HEADER_H
#define PEO_PERFDATA_HEADER_H

#include "perfdata/source.h"
#include "record_internal.h"

struct pd_section {
	uint64_t offset, size;
};

/* An event of a file read or written: its attr, its ids, its name. */
struct pd_event {
	struct peo_attr attr; /* host order */
	uint64_t *ids;        /* host order */
	size_t nids;
	char *name;           /* from EVENT_DESC (or given), or NULL */
};

/* Free @n events' ids and names, and the array. */
PEO_HIDDEN void pd_events_free(struct pd_event *v, size_t n);

struct pd_header {
	int pipe;       /* pipe-mode format: attrs and features arrive as records */
	int swap;       /* the file is in the other byte order */
	int big_endian; /* the writer's order */
	int force;      /* opts.force: read a damaged file as far as it goes */
	uint64_t file_size;
	struct pd_source *src; /* the header file's bytes: feature sections are read when asked */
	struct pd_section data;
	struct pd_section features[PEO_FEAT_MAX];
	unsigned char has_feature[PEO_FEAT_MAX];
	void *feature_bytes[PEO_FEAT_MAX];
	const char **feature_lists[PEO_FEAT_MAX]; /* string lists, pointing into feature_bytes */
	size_t feature_list_len[PEO_FEAT_MAX];
	void *decoded[PEO_FEAT_MAX]; /* typed decodings (perfdata/typed.c) */
	size_t decoded_n[PEO_FEAT_MAX];
	int names_read; /* EVENT_DESC's names are in events[] */
	struct pd_event *events;
	size_t nevents;
	struct peo_record_parser *parser;
	char *damaged; /* what force read past (peo_perfdata_damaged), or NULL */
};

/*
 * Read the header of the file or stream at @src's start (@file_size bytes;
 * UINT64_MAX for a pipe) into @h (zeroed): the byte order, the parser,
 * and for a file its attrs and feature index; src->pos and src->end then
 * bound the data.  A damaged file is refused (-ENODATA), or under @force
 * read as far as it goes (h->damaged says why).  0 or a negative errno.
 */
PEO_HIDDEN int pd_header_read(struct pd_header *h, struct pd_source *src, uint64_t file_size,
			      int force);
/* Free @h and all it holds (NULL is ignored). */
PEO_HIDDEN void pd_header_free(struct pd_header *h);

/* A u64 or u32 of the file, in host order. */
PEO_HIDDEN uint64_t peo_pd_u64(const struct pd_header *h, const void *p);
PEO_HIDDEN uint32_t peo_pd_u32(const struct pd_header *h, const void *p);
/* Add an event: attr bytes in file order (@n of them, at file offset
 * @where for an error), ids (taken over) in host order. */
PEO_HIDDEN int peo_pd_add_event(struct pd_header *h, const void *raw, size_t n, uint64_t *ids,
				size_t nids, uint64_t where);
/* perfdata/features.c: feature section @bit's bytes (read when first asked,
 * kept until @h goes) in *@bytes and *@size.  0, -EINVAL (a NULL
 * argument), -ENOENT (the file has none), -ENOMEM, -EIO or -EPROTO. */
PEO_HIDDEN int pd_header_feature(struct pd_header *h, unsigned bit, const void **bytes,
				 size_t *size);
/* perfdata/features.c: a perf_header_string at @p: bytes used, or 0 when it overruns. */
PEO_HIDDEN size_t peo_pd_header_string(const struct pd_header *h, const unsigned char *p,
				       size_t avail, const char **s);
/* perfdata/typed.c: the COMPRESSED feature decoded (peo_perfdata_compressed()). */
PEO_HIDDEN int pd_header_compressed(struct pd_header *h, struct peo_compressed *out);
/* perfdata/user.c: a HEADER_ATTR record's attr (file order, *attr_size
 * bytes) and its count of ids after it.  0, or -EPROTO when they do not fit. */
PEO_HIDDEN int peo_pd_header_attr(const struct pd_header *h, const struct peo_record *r,
				  const unsigned char **attr, size_t *attr_size, size_t *nids);
/* The parser's host-order copy of event @i's attr (what records point to). */
static inline const struct peo_attr *peo_pd_parser_attr(const struct pd_header *h, size_t i)
{
	return i < h->parser->nattrs ? &h->parser->attrs[i].attr : NULL;
}
/* The index of @attr, which must be one of the parser's attrs (a record's
 * rec.attr, as the stream's peek gives it): the parser keeps its attrs in
 * the order they were added, as the file's events, in an array of struct
 * parse_attr.  Unchecked (it runs once per held record). */
static inline size_t peo_pd_attr_index(const struct pd_header *h, const struct peo_attr *attr)
{
	return ((uintptr_t)attr - (uintptr_t)&h->parser->attrs[0].attr) / sizeof(struct parse_attr);
}

/* perfdata/typed.c: free the typed decodings (of one feature, or all). */
PEO_HIDDEN void peo_pd_typed_forget(struct pd_header *h, unsigned bit);
PEO_HIDDEN void peo_pd_typed_free(struct pd_header *h);

#endif
