/*
 * stream.c - the records of one file, pipe or data file in file order, out
 * of the source's window (stream.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/stream.h"

void pd_stream_init(struct pd_stream *s, struct pd_header *hdr, int parse_fields, int want_time,
		    int force)
{
	struct pd_source src = s->src;

	*s = (struct pd_stream){ .src = src, .hdr = hdr, .parse_fields = parse_fields,
				 .want_time = want_time, .force = force };
}

void pd_stream_fini(struct pd_stream *s)
{
	free(s->stopped);
	s->stopped = NULL;
	pd_inflate_free(s);
	pd_source_fini(&s->src);
}

/* A record cut by the end of the data or stream, at s->src.pos, with @have
 * of its @need bytes there (@what: "a record", "a record header"): under
 * force the data ends there (s->stopped says so, and 0 is returned); else
 * -EPROTO naming it. */
static int cut(struct pd_stream *s, const char *what, uint64_t have, uint64_t need)
{
	char text[256];

	snprintf(text, sizeof(text), "the %s ends inside %s at offset %llu: %llu of its %llu "
		 "bytes are there", s->hdr->pipe ? "stream" : "data", what, (unsigned long long)s->src.pos,
		 (unsigned long long)have, (unsigned long long)need);
	if (!s->force && !s->hdr->pipe) /* a file's record past its data section: the header is wrong */
		return peo_fail(EPROTO, "perf.data: %s at offset %llu needs %llu bytes, but the data "
				"section ends %llu bytes later", what, (unsigned long long)s->src.pos,
				(unsigned long long)need, (unsigned long long)have);
	if (!s->force)
		return peo_fail(EPROTO, "perf.data: %s", text);
	if (!s->stopped && !(s->stopped = strdup(text)))
		return peo_fail(ENOMEM, "out of memory for a sentence");
	return 0;
}

/* Make the window hold the next @need bytes: 1; 0 at a clean end (or,
 * under opts.force, at a record cut by the end); -errno. */
static int fill(struct pd_stream *s, size_t need, const char *what)
{
	uint64_t have;
	int got = pd_source_fill(&s->src, need, what, &have);

	return got == PD_SOURCE_CUT ? cut(s, what, have, need) : got;
}

/* TRACING_DATA as a record (pipe mode): kept as the feature section, as a file has it. */
static int keep_tracing_data(struct pd_stream *s, uint64_t size, uint64_t padded)
{
	unsigned char *copy;
	int err;

	if (size > (64u << 20)) /* the formats of every tracepoint are a few MiB */
		return pd_source_pass(&s->src, padded, "TRACING_DATA's data", NULL);
	copy = malloc(padded ? (size_t)padded : 1);
	if (!copy)
		return peo_fail(ENOMEM, "out of memory for %llu bytes of TRACING_DATA",
				(unsigned long long)size);
	err = pd_source_pass(&s->src, padded, "TRACING_DATA's data", copy);
	if (err) {
		free(copy);
		return err;
	}
	free(s->hdr->feature_bytes[PEO_FEAT_TRACING_DATA]);
	s->hdr->feature_bytes[PEO_FEAT_TRACING_DATA] = copy;
	s->hdr->features[PEO_FEAT_TRACING_DATA].size = size;
	s->hdr->has_feature[PEO_FEAT_TRACING_DATA] = 1;
	return 0;
}

/* HEADER_ATTR (pipe mode): the attr, then the ids of its events. */
static int add_header_attr(struct pd_stream *s, const struct peo_record *r, uint64_t offset)
{
	const unsigned char *p;
	size_t asize, nids;
	uint64_t *ids = NULL;

	if (peo_pd_header_attr(s->hdr, r, &p, &asize, &nids))
		return peo_fail(EPROTO, "perf.data: record at offset %llu: %s",
				(unsigned long long)offset, peo_last_error());
	if (nids && !(ids = malloc(nids * 8)))
		return peo_fail(ENOMEM, "out of memory for %zu ids", nids);
	for (size_t i = 0; i < nids; i++)
		ids[i] = peo_pd_u64(s->hdr, p + asize + 8 * i);
	return peo_pd_add_event(s->hdr, p, asize, ids, nids, offset + 8);
}

/* HEADER_FEATURE (pipe mode): u64 feature bit, then the section's bytes. */
static int keep_feature(struct pd_stream *s, const unsigned char *rec, size_t size)
{
	uint64_t bit;
	void *copy;

	if (size < 16)
		return 0;
	bit = peo_pd_u64(s->hdr, rec + 8);
	if (bit >= PEO_FEAT_MAX)
		return 0; /* a feature from the future: nothing reads it */
	copy = malloc(size - 16 ? size - 16 : 1);
	if (!copy)
		return peo_fail(ENOMEM, "out of memory for feature %llu", (unsigned long long)bit);
	memcpy(copy, rec + 16, size - 16);
	free(s->hdr->feature_bytes[bit]);
	free(s->hdr->feature_lists[bit]); /* they pointed into the old bytes */
	s->hdr->feature_lists[bit] = NULL;
	peo_pd_typed_forget(s->hdr, (unsigned)bit);
	s->hdr->feature_bytes[bit] = copy;
	s->hdr->features[bit].size = size - 16;
	s->hdr->has_feature[bit] = 1;
	if (bit == PEO_FEAT_EVENT_DESC)
		s->hdr->names_read = 0;
	return 0;
}

/* EVENT_UPDATE of type NAME (2): u64 type, u64 id, then the name. */
static void name_from_update(struct pd_stream *s, const unsigned char *rec, size_t size)
{
	uint64_t id;

	if (size <= 24 || peo_pd_u64(s->hdr, rec + 8) != 2 || !memchr(rec + 24, '\0', size - 24))
		return;
	id = peo_pd_u64(s->hdr, rec + 16);
	for (size_t i = 0; i < s->hdr->nevents; i++)
		for (size_t k = 0; k < s->hdr->events[i].nids; k++)
			if (s->hdr->events[i].ids[k] == id && !s->hdr->events[i].name)
				s->hdr->events[i].name = strdup((const char *)rec + 24);
}

/* Whether a record is of a type no one here knows: past the kernel's and
 * not one of perf's own (64 up to USER_MAX), which this layer knows though
 * the record parser does not.  The peek and the whole parse both say so. */
static void perf_types_known(struct peo_record *r)
{
	uint32_t t = r->header.type;

	if (t >= PEO_RECORD_MAX) /* a kernel type is as the record parser says (known) */
		r->unknown = t < PEO_RECORD_HEADER_ATTR || t >= PEO_RECORD_USER_MAX;
}

/* The header, bytes and attr of the record at @bytes (its time in
 * s->time when the reader orders by time and it has one), without the
 * fields' parse: what ordering and counting need.  Returns 0 or -EPROTO. */
static int peek(struct pd_stream *s, const void *bytes, size_t len, struct peo_record *out)
{
	int err = peo_record_peek(s->hdr->parser, bytes, len, out, s->want_time ? &s->time : NULL);

	s->has_time = err == 1;
	perf_types_known(out);
	return err < 0 ? err : 0;
}

/* Parse the record at @bytes (@len) into @out; user types keep header and bytes. */
static int parse(struct pd_stream *s, const void *bytes, size_t len, uint64_t offset,
		 struct peo_perfdata_record *out)
{
	out->offset = offset;
	out->payload = NULL;
	out->payload_size = 0;
	if (!s->parse_fields) /* sorting or counting: header, attr and time only */
		return peek(s, bytes, len, &out->rec);
	return pd_record_parse(s->hdr, bytes, len, offset, &out->rec);
}

int pd_record_parse(const struct pd_header *hdr, const void *bytes, size_t len, uint64_t offset,
		    struct peo_record *out)
{
	int err = peo_record_fill(hdr->parser, bytes, len, out);

	if (err)
		return peo_fail(err == -ENOENT ? EPROTO : -err, "perf.data: record at offset %llu: %s",
				(unsigned long long)offset, peo_last_error());
	perf_types_known(out);
	return 0;
}

int pd_stream_next_plain(struct pd_stream *s, struct peo_event_header *h, const unsigned char **at)
{
	const unsigned char *p;

	if (s->inflate || !pd_source_holds(&s->src, sizeof(*h)) ||
	    (!s->src.sequential && s->src.pos >= s->src.end))
		return 0;
	if (pd_source_due(&s->src))
		pd_source_advance(&s->src, s->src.pos);
	p = pd_source_at(&s->src);
	*h = peo_load_header(p, s->hdr->swap);
	if (h->size < sizeof(*h) || !pd_source_holds(&s->src, h->size))
		return 0; /* the full path reads more, or says what is wrong */
	switch (h->type) { /* the types the reader acts on */
	case PEO_RECORD_HEADER_ATTR:
	case PEO_RECORD_HEADER_FEATURE:
	case PEO_RECORD_EVENT_UPDATE:
	case PEO_RECORD_HEADER_TRACING_DATA:
	case PEO_RECORD_AUXTRACE:
	case PEO_RECORD_COMPRESSED:
	case PEO_RECORD_COMPRESSED2:
		return 0;
	}
	*at = p;
	s->src.pos += h->size;
	return 1;
}

int pd_stream_next(struct pd_stream *s, struct peo_perfdata_record *out)
{
	struct peo_event_header h;
	const unsigned char *at;
	uint64_t offset;
	int got, err;

	for (;;) {
		const void *inner;
		size_t inner_len;

		if (s->inflate) {
			got = pd_inflate_next(s, &inner, &inner_len);
			if (got < 0)
				return got;
			if (got) {
				s->stable = 0; /* in the inflate buffer, reused */
				return (err = parse(s, inner, inner_len, s->src.pos, out)) ? err : 1;
			}
		}
		if (!s->src.sequential && s->src.pos >= s->src.end)
			return 0;
		if (pd_source_due(&s->src))
			pd_source_advance(&s->src, s->oldest_in_use ? s->oldest_in_use(s->oldest_ctx, s->src.pos)
								   : s->src.pos);
		s->stable = pd_source_stable(&s->src);
		/* The window usually holds the next record whole: no call to fill(). */
		if (!pd_source_holds(&s->src, sizeof(h))) {
			got = fill(s, sizeof(h), "a record header");
			if (got <= 0)
				return got;
		}
		at = pd_source_at(&s->src);
		/* Records 1 KiB (a few hundred ns) ahead: the hardware's prefetch
		 * stops at each page, and the header's load had waited on memory there. */
		__builtin_prefetch(at + 1024);
		h = peo_load_header(at, s->hdr->swap);
		offset = s->src.pos;
		if (h.size < sizeof(h))
			return peo_fail(EPROTO, "perf.data: record at offset %llu has size %u, under "
					"its own 8-byte header (type %u)", (unsigned long long)offset,
					h.size, h.type);
		if (!pd_source_holds(&s->src, h.size)) {
			got = fill(s, h.size, "a record");
			if (got <= 0) /* 0: cut by the end, under opts.force */
				return got;
		}
		at = pd_source_at(&s->src);
		err = parse(s, at, h.size, offset, out);
		if (err)
			return err;
		s->src.pos += h.size;
		switch (h.type) {
		case PEO_RECORD_HEADER_ATTR:
			if (s->hdr->pipe && (err = add_header_attr(s, &out->rec, offset)))
				return err;
			break;
		case PEO_RECORD_HEADER_FEATURE:
			err = keep_feature(s, at, h.size);
			break;
		case PEO_RECORD_EVENT_UPDATE:
			name_from_update(s, at, h.size);
			break;
		case PEO_RECORD_HEADER_TRACING_DATA: /* u32 size; the data follows, padded */
			if (h.size >= 12) {
				uint64_t size = peo_pd_u32(s->hdr, at + 8);

				out->payload_size = (size + 7ULL) & ~7ULL;
				err = keep_tracing_data(s, size, out->payload_size);
			}
			break;
		case PEO_RECORD_AUXTRACE: /* u64 size first; the data follows */
			if (h.size >= 16) {
				out->payload_size = peo_pd_u64(s->hdr, at + 8);
				err = pd_source_pass(&s->src, out->payload_size, "AUXTRACE's data", NULL);
			}
			break;
		case PEO_RECORD_COMPRESSED:
		case PEO_RECORD_COMPRESSED2:
			/* Handed out itself (perf counts it), then what it holds. */
			err = pd_inflate_start(s, &out->rec, offset);
			break;
		}
		return err ? err : 1;
	}
}

const char *peo_user_record_type_name(uint32_t type)
{
	/* perf's own names, as perf report --stats prints them */
	static const char *const names[] = {
		"ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND", "ID_INDEX",
		"AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP",
		"STAT_CONFIG", "STAT", "STAT_ROUND", "EVENT_UPDATE", "TIME_CONV", "FEATURE",
		"COMPRESSED", "FINISHED_INIT", "COMPRESSED2", "BPF_METADATA", "SCHEDSTAT_CPU",
		"SCHEDSTAT_DOMAIN",
	};

	if (type >= PEO_RECORD_HEADER_ATTR && type < PEO_RECORD_USER_MAX)
		return names[type - PEO_RECORD_HEADER_ATTR];
	return peo_record_type_name(type);
}
