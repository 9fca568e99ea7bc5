/*
 * header.c - what a perf.data says of itself (header.h): the file header
 * (or a pipe's), the attrs and their ids, the feature index, and a file
 * damaged or cut short, refused or (opts.force) read as far as it goes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/header.h"

#define MAGIC_LE 0x32454c4946524550ULL /* "PERFILE2" read as a little-endian u64 */
#define FILE_HEADER_BYTES 104
#define PIPE_HEADER_BYTES 16

uint64_t peo_pd_u64(const struct pd_header *h, const void *p)
{
	return peo_load_u64(p, h->swap);
}

uint32_t peo_pd_u32(const struct pd_header *h, const void *p)
{
	return peo_load_u32(p, h->swap);
}

/* A {offset, size} section inside the file, or -EPROTO naming it. */
static int read_section(struct pd_header *h, const unsigned char *at, uint64_t where,
			const char *name, struct pd_section *s)
{
	s->offset = peo_pd_u64(h, at);
	s->size = peo_pd_u64(h, at + 8);
	if (s->offset > h->file_size || s->size > h->file_size - s->offset)
		return peo_fail(EPROTO, "perf.data: the %s section at header offset %llu says "
				"[%llu, +%llu), past the file's %llu bytes", name,
				(unsigned long long)where, (unsigned long long)s->offset,
				(unsigned long long)s->size, (unsigned long long)h->file_size);
	return 0;
}

/* Add event @raw (attr bytes in file order, @n of them) with @nids ids in host order. */
int peo_pd_add_event(struct pd_header *h, const void *raw, size_t n, uint64_t *ids,
		     size_t nids, uint64_t where)
{
	struct pd_event *ev, *grown;
	struct peo_attr file_order;
	int err;

	if (n < PEO_ATTR_SIZE_VER0) {
		free(ids);
		return peo_fail(EPROTO, "perf.data: attr at offset %llu is %zu bytes, under the first "
				"published %d", (unsigned long long)where, n, PEO_ATTR_SIZE_VER0);
	}
	grown = realloc(h->events, (h->nevents + 1) * sizeof(*grown));
	if (!grown) {
		free(ids);
		return peo_fail(ENOMEM, "out of memory for event %zu", h->nevents);
	}
	h->events = grown;
	ev = &h->events[h->nevents];
	memset(ev, 0, sizeof(*ev));
	memset(&file_order, 0, sizeof(file_order));
	memcpy(&file_order, raw, n < sizeof(file_order) ? n : sizeof(file_order));
	peo_attr_to_host(&file_order, sizeof(file_order), h->swap, &ev->attr);
	if (ev->attr.size > n || ev->attr.size < PEO_ATTR_SIZE_VER0) /* trust what is there */
		ev->attr.size = (uint32_t)(n < sizeof(file_order) ? n : sizeof(file_order));
	ev->ids = ids;
	ev->nids = nids;
	err = peo_record_parser_add(h->parser, &file_order, ids, nids);
	if (err) {
		free(ids);
		return peo_fail(EPROTO, "perf.data: event %zu (attr at offset %llu): %s", h->nevents,
				(unsigned long long)where, peo_last_error());
	}
	h->nevents++;
	return 0;
}

static int read_attrs(struct pd_header *h, struct pd_source *src, uint64_t attr_size, const struct pd_section *attrs)
{
	unsigned char *entry;
	int err = 0;

	if (attr_size < PEO_ATTR_SIZE_VER0 + 16 || attr_size > 4096)
		return peo_fail(EPROTO, "perf.data: attr_size %llu at offset 16 is impossible (an attr "
				"is %d to a few hundred bytes, plus 16 for its ids section)",
				(unsigned long long)attr_size, PEO_ATTR_SIZE_VER0);
	if (attrs->size % attr_size)
		return peo_fail(EPROTO, "perf.data: the attrs section (%llu bytes at %llu) is not a "
				"whole number of %llu-byte entries", (unsigned long long)attrs->size,
				(unsigned long long)attrs->offset, (unsigned long long)attr_size);
	entry = malloc(attr_size);
	if (!entry)
		return peo_fail(ENOMEM, "out of memory for an attr");
	for (uint64_t at = attrs->offset; !err && at < attrs->offset + attrs->size; at += attr_size) {
		struct pd_section ids;
		uint64_t *list = NULL;
		size_t n;

		err = pd_source_read_at(src, at, entry, attr_size, "an attr");
		if (!err)
			err = read_section(h, entry + attr_size - 16, at + attr_size - 16, "attr ids", &ids);
		if (err)
			break;
		n = (size_t)(ids.size / 8);
		if (n && !(list = malloc(n * 8)))
			err = peo_fail(ENOMEM, "out of memory for %zu ids", n);
		if (!err && n)
			err = pd_source_read_at(src, ids.offset, list, n * 8, "attr ids");
		for (size_t i = 0; !err && i < n; i++)
			list[i] = peo_pd_u64(h, &list[i]);
		if (err)
			free(list);
		else
			err = peo_pd_add_event(h, entry, (size_t)attr_size - 16, list, n, at);
	}
	free(entry);
	return err;
}

/* A feature section must lie apart from the header and the data (one laid
 * over them, or pointing back to the start, would be read as garbage). */
static int feature_apart(struct pd_header *h, unsigned bit)
{
	const struct pd_section *s = &h->features[bit];

	if (!s->size)
		return 0;
	if (s->offset < FILE_HEADER_BYTES)
		return peo_fail(EPROTO, "perf.data: feature %u's section [%llu, +%llu) overlaps the "
				"104-byte header", bit, (unsigned long long)s->offset,
				(unsigned long long)s->size);
	if (h->data.size && s->offset < h->data.offset + h->data.size &&
	    h->data.offset < s->offset + s->size)
		return peo_fail(EPROTO, "perf.data: feature %u's section [%llu, +%llu) and the data "
				"section [%llu, +%llu) overlap", bit, (unsigned long long)s->offset,
				(unsigned long long)s->size, (unsigned long long)h->data.offset,
				(unsigned long long)h->data.size);
	return 0;
}

/* A damaged file's sentence (@text): refused with -ENODATA, or under
 * opts.force kept for peo_perfdata_damaged() (read anyway). */
static int damaged(struct pd_header *h, const char *text)
{
	if (!h->force)
		return peo_fail(ENODATA, "%s", text);
	free(h->damaged);
	if (!(h->damaged = strdup(text)))
		return peo_fail(ENOMEM, "out of memory for a sentence of %zu bytes", strlen(text));
	return 0;
}

/* How many bits of the feature bitmap are set. */
static unsigned feature_count(const struct pd_header *h, const unsigned char *bitmap)
{
	unsigned n = 0;

	for (unsigned word = 0; word < PEO_FEAT_MAX / 64; word++)
		n += (unsigned)__builtin_popcountll(peo_pd_u64(h, bitmap + 8 * word));
	return n;
}

/* Feature index entry @i at @at: its section, 0 when it lies inside the file. */
static int index_entry(struct pd_header *h, struct pd_source *src, uint64_t at, unsigned i, struct pd_section *s)
{
	unsigned char sec[16];

	if (at + 16ULL * (i + 1) > h->file_size ||
	    pd_source_read_at(src, at + 16ULL * i, sec, sizeof(sec), "the feature index"))
		return -1;
	s->offset = peo_pd_u64(h, sec);
	s->size = peo_pd_u64(h, sec + 8);
	return s->offset <= h->file_size && s->size <= h->file_size - s->offset ? 0 : 1;
}

/*
 * How many of the @n index entries at @at come before a cut: the file was
 * cut short inside its features when the index runs past the file's end,
 * or the sections past it are the last ones, the first of them cut by the
 * end (the writer puts them after the index in bit order).  @n when none
 * is cut; one section elsewhere past the end is a malformed file (read
 * on, for read_section() to say so), not a cut one.
 */
static unsigned features_before_cut(struct pd_header *h, struct pd_source *src, uint64_t at, unsigned n)
{
	struct pd_section s;
	unsigned first = n;

	for (unsigned i = 0; i < n; i++) {
		int bad = index_entry(h, src, at, i, &s);

		if (bad < 0)
			return first < i ? first : i; /* the index itself is cut */
		if (!bad && first < n)
			return n; /* a whole one after a broken one: not a cut */
		if (bad && first == n) {
			if (s.offset > h->file_size)
				return n;
			first = i;
		}
	}
	return first;
}

/* The feature index: one section per set bit, in bit order, after the data. */
static int read_feature_index(struct pd_header *h, struct pd_source *src, const unsigned char *bitmap)
{
	uint64_t at = h->data.offset + h->data.size;
	unsigned n = feature_count(h, bitmap), whole, i = 0;
	int err = 0;

	if (h->damaged) /* the data runs to the file's end: its features were never written, or are gone */
		return 0;
	whole = features_before_cut(h, src, at, n);
	if (whole < n) {
		char text[320];

		snprintf(text, sizeof(text), "the file is cut short: it ends at offset %llu, inside "
			 "its feature sections (the events' names, the host...) after the %llu bytes "
			 "of records, which are whole; %u of the %u sections are whole",
			 (unsigned long long)h->file_size, (unsigned long long)h->data.size, whole, n);
		if ((err = damaged(h, text)))
			return err;
	}
	for (unsigned bit = 0; bit < PEO_FEAT_MAX && !err && i < whole; bit++) {
		uint64_t word = peo_pd_u64(h, bitmap + 8 * (bit / 64));
		unsigned char sec[16];

		if (!(word >> (bit % 64) & 1))
			continue;
		err = pd_source_read_at(src, at, sec, sizeof(sec), "the feature index");
		if (!err)
			err = read_section(h, sec, at, "feature", &h->features[bit]);
		if (!err)
			err = feature_apart(h, bit);
		if (!err)
			h->has_feature[bit] = 1;
		at += 16;
		i++;
	}
	return err;
}

/* Whether the @n entries of a feature index at @at all lie in the file. */
static int index_fits(struct pd_header *h, struct pd_source *src, uint64_t at, unsigned n)
{
	struct pd_section s;

	for (unsigned i = 0; i < n; i++)
		if (index_entry(h, src, at, i, &s))
			return 0;
	return 1;
}

/*
 * The data section against the file's end.  A recording that was not
 * finished (perf record or peo record killed: the header is written at
 * the start with a data size of 0, and set only at the end) has records
 * after the header's parts and no feature index there; a file cut short
 * ends inside its data.  Either is refused (-ENODATA, saying how many
 * bytes of records there are), or under opts.force read to the file's end.
 */
static int data_end(struct pd_header *h, struct pd_source *src, const unsigned char *bitmap)
{
	uint64_t off = h->data.offset, size = h->data.size, file = h->file_size;
	char text[320];

	if (off < FILE_HEADER_BYTES || off > file)
		return 0; /* read_section() says what is wrong */
	if (size == 0 && file > off &&
	    (!feature_count(h, bitmap) || !index_fits(h, src, off, feature_count(h, bitmap))))
		snprintf(text, sizeof(text), "the recording was not finished: the data size in the "
			 "header is 0; %llu bytes of records follow at offset %llu",
			 (unsigned long long)(file - off), (unsigned long long)off);
	else if (size > file - off)
		snprintf(text, sizeof(text), "the file is cut short: the header says %llu bytes of "
			 "records at offset %llu, but the file ends %llu bytes into them (the feature "
			 "sections after them are gone)", (unsigned long long)size,
			 (unsigned long long)off, (unsigned long long)(file - off));
	else
		return 0;
	h->data.size = file - off; /* under force: the records are what there is */
	return damaged(h, text);
}

static int open_file_mode(struct pd_header *h, struct pd_source *src, const unsigned char *first16)
{
	unsigned char raw[FILE_HEADER_BYTES];
	struct pd_section attrs;
	uint64_t attr_size;
	int err;

	memcpy(raw, first16, 16);
	err = pd_source_read_at(src, 16, raw + 16, sizeof(raw) - 16, "the file header");
	if (err)
		return err;
	attr_size = peo_pd_u64(h, raw + 16);
	err = read_section(h, raw + 24, 24, "attrs", &attrs);
	h->data.offset = peo_pd_u64(h, raw + 40);
	h->data.size = peo_pd_u64(h, raw + 48);
	if (!err)
		err = data_end(h, src, raw + 72);
	if (!err && !h->damaged) /* damaged: its data now runs to the file's end */
		err = read_section(h, raw + 40, 40, "data", &h->data);
	if (!err && h->data.offset < FILE_HEADER_BYTES && h->data.size)
		err = peo_fail(EPROTO, "perf.data: the data section at offset %llu overlaps the "
			       "104-byte header", (unsigned long long)h->data.offset);
	if (!err && attrs.size && h->data.size && attrs.offset < h->data.offset + h->data.size &&
	    h->data.offset < attrs.offset + attrs.size)
		err = peo_fail(EPROTO, "perf.data: the attrs section [%llu, +%llu) and the data "
			       "section [%llu, +%llu) overlap", (unsigned long long)attrs.offset,
			       (unsigned long long)attrs.size, (unsigned long long)h->data.offset,
			       (unsigned long long)h->data.size);
	if (!err)
		err = read_attrs(h, src, attr_size, &attrs);
	if (!err)
		err = read_feature_index(h, src, raw + 72);
	src->pos = h->data.offset;
	src->end = h->data.offset + h->data.size;
	return err;
}


int pd_header_read(struct pd_header *h, struct pd_source *src, uint64_t file_size, int force)
{
	unsigned char first[16];
	uint64_t magic, size;
	int err;

	h->src = src;
	h->force = force;
	h->pipe = src->sequential;
	h->file_size = file_size;
	err = pd_source_read_at(src, 0, first, sizeof(first), "the header");
	if (!err) {
		memcpy(&magic, first, 8);
		if (magic == __builtin_bswap64(MAGIC_LE))
			h->swap = 1;
		else if (magic != MAGIC_LE)
			err = peo_fail(EPROTO, "perf.data: the first 8 bytes are not PERFILE2 (in "
				       "either byte order): not a perf.data file, or an old v1 one");
	}
	if (!err) {
		PEO_OPTS(peo_record_parser_opts, po, .byte_order = h->swap ? PEO_BYTE_ORDER_BIG
									: PEO_BYTE_ORDER_LITTLE);
		union {
			uint16_t u;
			unsigned char b[2];
		} host = { 1 };

		/* The writer's order: ours, or the other one. */
		h->big_endian = host.b[0] == 0 ? !h->swap : h->swap;
		po.byte_order = h->big_endian ? PEO_BYTE_ORDER_BIG : PEO_BYTE_ORDER_LITTLE;
		err = peo_record_parser_new(&h->parser, &po);
	}
	if (err)
		return err;
	size = peo_pd_u64(h, first + 8);
	if (size == PIPE_HEADER_BYTES) {
		h->pipe = 1; /* a pipe-mode stream, even when saved to a file */
		src->pos = PIPE_HEADER_BYTES;
		src->end = h->file_size;
		return 0;
	}
	if (size >= FILE_HEADER_BYTES && !src->sequential)
		return open_file_mode(h, src, first);
	if (size == FILE_HEADER_BYTES)
		return peo_fail(ESPIPE, "a file-mode perf.data (its header is 104 bytes, as perf "
				"record -o FILE writes it) comes through a pipe, which cannot seek "
				"to its parts: read the file itself, not a pipe of it (a pipe "
				"carries the pipe-mode stream perf record -o - writes)");
	return peo_fail(EPROTO, "perf.data: header size %llu at offset 8 is neither 16 (pipe "
			"mode) nor 104 (file mode)%s", (unsigned long long)size,
			h->pipe ? " for a stream" : "");
}

void pd_header_free(struct pd_header *h)
{
	if (!h)
		return;
	free(h->damaged);
	pd_events_free(h->events, h->nevents);
	for (unsigned i = 0; i < PEO_FEAT_MAX; i++) {
		free(h->feature_bytes[i]);
		free(h->feature_lists[i]);
	}
	peo_pd_typed_free(h);
	peo_record_parser_free(h->parser);
	free(h);
}

void pd_events_free(struct pd_event *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].ids);
		free(v[i].name);
	}
	free(v);
}
