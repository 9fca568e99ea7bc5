/*
 * open.c - opening perf.data: the file header (or the pipe header),
 * the attrs and their ids, the feature index, and the event names.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/reader.h"

#define MAGIC_LE 0x32454c4946524550ULL /* "PERFILE2" read as a little-endian u64 */
#define FILE_HEADER_BYTES 104
#define PIPE_HEADER_BYTES 16
#define DEFAULT_WINDOW (4u << 20)

uint64_t peo_pd_u64(const struct peo_perfdata *f, const void *p)
{
	return peo_load_u64(p, f->swap);
}

uint32_t peo_pd_u32(const struct peo_perfdata *f, const void *p)
{
	return peo_load_u32(p, f->swap);
}

/* A {offset, size} section inside the file, or -EPROTO naming it. */
static int read_section(struct peo_perfdata *f, const unsigned char *at, uint64_t where,
			const char *name, struct pd_section *s)
{
	s->offset = peo_pd_u64(f, at);
	s->size = peo_pd_u64(f, at + 8);
	if (s->offset > f->file_size || s->size > f->file_size - s->offset)
		return peo_fail(EPROTO, "perf.data: the %s section at header offset %llu says "
				"[%llu, +%llu), past the file's %llu bytes", name,
				(unsigned long long)where, (unsigned long long)s->offset,
				(unsigned long long)s->size, (unsigned long long)f->file_size);
	return 0;
}

/* Add event @raw (attr bytes in file order, @n of them) with @nids ids in host order. */
int peo_pd_add_event(struct peo_perfdata *f, const void *raw, size_t n, uint64_t *ids,
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
	grown = realloc(f->events, (f->nevents + 1) * sizeof(*grown));
	if (!grown) {
		free(ids);
		return peo_fail(ENOMEM, "out of memory for event %zu", f->nevents);
	}
	f->events = grown;
	ev = &f->events[f->nevents];
	memset(ev, 0, sizeof(*ev));
	memset(&file_order, 0, sizeof(file_order));
	memcpy(&file_order, raw, n < sizeof(file_order) ? n : sizeof(file_order));
	peo_attr_to_host(&file_order, sizeof(file_order), f->swap, &ev->attr);
	if (ev->attr.size > n || ev->attr.size < PEO_ATTR_SIZE_VER0) /* trust what is there */
		ev->attr.size = (uint32_t)(n < sizeof(file_order) ? n : sizeof(file_order));
	ev->ids = ids;
	ev->nids = nids;
	err = peo_record_parser_add(f->parser, &file_order, ids, nids);
	if (err) {
		free(ids);
		return peo_fail(EPROTO, "perf.data: event %zu (attr at offset %llu): %s", f->nevents,
				(unsigned long long)where, peo_last_error());
	}
	f->nevents++;
	return 0;
}

static int read_attrs(struct peo_perfdata *f, uint64_t attr_size, const struct pd_section *attrs)
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

		err = pd_source_read_at(&f->src, at, entry, attr_size, "an attr");
		if (!err)
			err = read_section(f, entry + attr_size - 16, at + attr_size - 16, "attr ids", &ids);
		if (err)
			break;
		n = (size_t)(ids.size / 8);
		if (n && !(list = malloc(n * 8)))
			err = peo_fail(ENOMEM, "out of memory for %zu ids", n);
		if (!err && n)
			err = pd_source_read_at(&f->src, ids.offset, list, n * 8, "attr ids");
		for (size_t i = 0; !err && i < n; i++)
			list[i] = peo_pd_u64(f, &list[i]);
		if (err)
			free(list);
		else
			err = peo_pd_add_event(f, entry, (size_t)attr_size - 16, list, n, at);
	}
	free(entry);
	return err;
}

/* A feature section must lie apart from the header and the data (one laid
 * over them, or pointing back to the start, would be read as garbage). */
static int feature_apart(struct peo_perfdata *f, unsigned bit)
{
	const struct pd_section *s = &f->features[bit];

	if (!s->size)
		return 0;
	if (s->offset < FILE_HEADER_BYTES)
		return peo_fail(EPROTO, "perf.data: feature %u's section [%llu, +%llu) overlaps the "
				"104-byte header", bit, (unsigned long long)s->offset,
				(unsigned long long)s->size);
	if (f->data.size && s->offset < f->data.offset + f->data.size &&
	    f->data.offset < s->offset + s->size)
		return peo_fail(EPROTO, "perf.data: feature %u's section [%llu, +%llu) and the data "
				"section [%llu, +%llu) overlap", bit, (unsigned long long)s->offset,
				(unsigned long long)s->size, (unsigned long long)f->data.offset,
				(unsigned long long)f->data.size);
	return 0;
}

/* A damaged file's sentence (@text): refused with -ENODATA, or under
 * opts.force kept for peo_perfdata_damaged() (read anyway). */
static int damaged(struct peo_perfdata *f, const char *text)
{
	if (!f->force)
		return peo_fail(ENODATA, "%s", text);
	free(f->damaged);
	if (!(f->damaged = strdup(text)))
		return peo_fail(ENOMEM, "out of memory for a sentence of %zu bytes", strlen(text));
	return 0;
}

/* How many bits of the feature bitmap are set. */
static unsigned feature_count(const struct peo_perfdata *f, const unsigned char *bitmap)
{
	unsigned n = 0;

	for (unsigned word = 0; word < PEO_FEAT_MAX / 64; word++)
		n += (unsigned)__builtin_popcountll(peo_pd_u64(f, bitmap + 8 * word));
	return n;
}

/* Feature index entry @i at @at: its section, 0 when it lies inside the file. */
static int index_entry(struct peo_perfdata *f, uint64_t at, unsigned i, struct pd_section *s)
{
	unsigned char sec[16];

	if (at + 16ULL * (i + 1) > f->file_size ||
	    pd_source_read_at(&f->src, at + 16ULL * i, sec, sizeof(sec), "the feature index"))
		return -1;
	s->offset = peo_pd_u64(f, sec);
	s->size = peo_pd_u64(f, sec + 8);
	return s->offset <= f->file_size && s->size <= f->file_size - s->offset ? 0 : 1;
}

/*
 * How many of the @n index entries at @at come before a cut: the file was
 * cut short inside its features when the index runs past the file's end,
 * or the sections past it are the last ones, the first of them cut by the
 * end (the writer puts them after the index in bit order).  @n when none
 * is cut; one section elsewhere past the end is a malformed file (read
 * on, for read_section() to say so), not a cut one.
 */
static unsigned features_before_cut(struct peo_perfdata *f, uint64_t at, unsigned n)
{
	struct pd_section s;
	unsigned first = n;

	for (unsigned i = 0; i < n; i++) {
		int bad = index_entry(f, at, i, &s);

		if (bad < 0)
			return first < i ? first : i; /* the index itself is cut */
		if (!bad && first < n)
			return n; /* a whole one after a broken one: not a cut */
		if (bad && first == n) {
			if (s.offset > f->file_size)
				return n;
			first = i;
		}
	}
	return first;
}

/* The feature index: one section per set bit, in bit order, after the data. */
static int read_feature_index(struct peo_perfdata *f, const unsigned char *bitmap)
{
	uint64_t at = f->data.offset + f->data.size;
	unsigned n = feature_count(f, bitmap), whole, i = 0;
	int err = 0;

	if (f->damaged) /* the data runs to the file's end: its features were never written, or are gone */
		return 0;
	whole = features_before_cut(f, at, n);
	if (whole < n) {
		char text[320];

		snprintf(text, sizeof(text), "the file is cut short: it ends at offset %llu, inside "
			 "its feature sections (the events' names, the host...) after the %llu bytes "
			 "of records, which are whole; %u of the %u sections are whole",
			 (unsigned long long)f->file_size, (unsigned long long)f->data.size, whole, n);
		if ((err = damaged(f, text)))
			return err;
	}
	for (unsigned bit = 0; bit < PEO_FEAT_MAX && !err && i < whole; bit++) {
		uint64_t word = peo_pd_u64(f, bitmap + 8 * (bit / 64));
		unsigned char sec[16];

		if (!(word >> (bit % 64) & 1))
			continue;
		err = pd_source_read_at(&f->src, at, sec, sizeof(sec), "the feature index");
		if (!err)
			err = read_section(f, sec, at, "feature", &f->features[bit]);
		if (!err)
			err = feature_apart(f, bit);
		if (!err)
			f->has_feature[bit] = 1;
		at += 16;
		i++;
	}
	return err;
}

/* Whether the @n entries of a feature index at @at all lie in the file. */
static int index_fits(struct peo_perfdata *f, uint64_t at, unsigned n)
{
	struct pd_section s;

	for (unsigned i = 0; i < n; i++)
		if (index_entry(f, at, i, &s))
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
static int data_end(struct peo_perfdata *f, const unsigned char *bitmap)
{
	uint64_t off = f->data.offset, size = f->data.size, file = f->file_size;
	char text[320];

	if (off < FILE_HEADER_BYTES || off > file)
		return 0; /* read_section() says what is wrong */
	if (size == 0 && file > off &&
	    (!feature_count(f, bitmap) || !index_fits(f, off, feature_count(f, bitmap))))
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
	f->data.size = file - off; /* under force: the records are what there is */
	return damaged(f, text);
}

static int open_file_mode(struct peo_perfdata *f, const unsigned char *first16)
{
	unsigned char h[FILE_HEADER_BYTES];
	struct pd_section attrs;
	uint64_t attr_size;
	int err;

	memcpy(h, first16, 16);
	err = pd_source_read_at(&f->src, 16, h + 16, sizeof(h) - 16, "the file header");
	if (err)
		return err;
	attr_size = peo_pd_u64(f, h + 16);
	err = read_section(f, h + 24, 24, "attrs", &attrs);
	f->data.offset = peo_pd_u64(f, h + 40);
	f->data.size = peo_pd_u64(f, h + 48);
	if (!err)
		err = data_end(f, h + 72);
	if (!err && !f->damaged) /* damaged: its data now runs to the file's end */
		err = read_section(f, h + 40, 40, "data", &f->data);
	if (!err && f->data.offset < FILE_HEADER_BYTES && f->data.size)
		err = peo_fail(EPROTO, "perf.data: the data section at offset %llu overlaps the "
			       "104-byte header", (unsigned long long)f->data.offset);
	if (!err && attrs.size && f->data.size && attrs.offset < f->data.offset + f->data.size &&
	    f->data.offset < attrs.offset + attrs.size)
		err = peo_fail(EPROTO, "perf.data: the attrs section [%llu, +%llu) and the data "
			       "section [%llu, +%llu) overlap", (unsigned long long)attrs.offset,
			       (unsigned long long)attrs.size, (unsigned long long)f->data.offset,
			       (unsigned long long)f->data.size);
	if (!err)
		err = read_attrs(f, attr_size, &attrs);
	if (!err)
		err = read_feature_index(f, h + 72);
	f->src.pos = f->data.offset;
	f->src.end = f->data.offset + f->data.size;
	return err;
}

/*
 * Whether records go out in time order.  perf script and perf report sort
 * only when the first event has sample_id_all: without it only samples
 * carry a time.  A pipe's events are not known when perf decides: it sorts.
 */
static int in_time_order(const struct peo_perfdata *f, int ordered)
{
	const struct peo_attr *first = peo_pd_parser_attr(f, 0);

	if (ordered == PEO_PERFDATA_ORDER_AS_PERF)
		return f->pipe || !first || first->sample_id_all;
	return ordered == PEO_PERFDATA_TIME_ORDER;
}

int peo_perfdata_open_fd(struct peo_perfdata **out, int fd, const struct peo_perfdata_opts *opts)
{
	struct peo_perfdata_opts o = { .sz = sizeof(o) };
	unsigned char first[16];
	struct peo_perfdata *f;
	struct stat st;
	uint64_t magic, size;
	int err;

	if (!out)
		return peo_fail(EINVAL, "peo_perfdata_open: argument 'out' is NULL");
	*out = NULL;
	err = peo_opts_check(opts, sizeof(o), "peo_perfdata_opts");
	if (err)
		return err;
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	f = calloc(1, sizeof(*f));
	if (!f)
		return peo_fail(ENOMEM, "out of memory for a perf.data reader");
	/* a window asked for: read in windows of that size */
	pd_source_init(&f->src, fd, fstat(fd, &st) != 0 || !S_ISREG(st.st_mode),
		       o.window ? o.window : DEFAULT_WINDOW, !o.window, !!o.readahead_thread);
	f->own_fd = -1;
	f->force = !!o.force;
	f->pipe = f->src.sequential;
	f->file_size = f->src.sequential ? UINT64_MAX : (uint64_t)st.st_size;
	err = pd_source_read_at(&f->src, 0, first, sizeof(first), "the header");
	if (!err) {
		memcpy(&magic, first, 8);
		if (magic == __builtin_bswap64(MAGIC_LE))
			f->swap = 1;
		else if (magic != MAGIC_LE)
			err = peo_fail(EPROTO, "perf.data: the first 8 bytes are not PERFILE2 (in "
				       "either byte order): not a perf.data file, or an old v1 one");
	}
	if (!err) {
		PEO_OPTS(peo_record_parser_opts, po, .byte_order = f->swap ? PEO_BYTE_ORDER_BIG
									: PEO_BYTE_ORDER_LITTLE);
		union {
			uint16_t u;
			unsigned char b[2];
		} host = { 1 };

		/* The writer's order: ours, or the other one. */
		f->big_endian = host.b[0] == 0 ? !f->swap : f->swap;
		po.byte_order = f->big_endian ? PEO_BYTE_ORDER_BIG : PEO_BYTE_ORDER_LITTLE;
		err = peo_record_parser_new(&f->parser, &po);
	}
	if (!err) {
		size = peo_pd_u64(f, first + 8);
		if (size == PIPE_HEADER_BYTES) {
			f->pipe = 1; /* a pipe-mode stream, even when saved to a file */
			f->src.pos = PIPE_HEADER_BYTES;
			f->src.end = f->file_size;
		} else if (size >= FILE_HEADER_BYTES && !f->src.sequential) {
			err = open_file_mode(f, first);
		} else if (size == FILE_HEADER_BYTES) {
			err = peo_fail(ESPIPE, "a file-mode perf.data (its header is 104 bytes, as perf "
				       "record -o FILE writes it) comes through a pipe, which cannot seek "
				       "to its parts: read the file itself, not a pipe of it (a pipe "
				       "carries the pipe-mode stream perf record -o - writes)");
		} else {
			err = peo_fail(EPROTO, "perf.data: header size %llu at offset 8 is neither "
				       "16 (pipe mode) nor 104 (file mode)%s", (unsigned long long)size,
				       f->pipe ? " for a stream" : "");
		}
	}
	f->headers_only = !!o.headers_only;
	f->parse_fields = !f->headers_only;
	if (!err && (unsigned)o.ordered > PEO_PERFDATA_ORDER_AS_PERF)
		err = peo_fail(EINVAL, "peo_perfdata_open: opts.ordered %d is not %d (file order), "
			       "%d (time order) or %d (as perf)", o.ordered, PEO_PERFDATA_FILE_ORDER,
			       PEO_PERFDATA_TIME_ORDER, PEO_PERFDATA_ORDER_AS_PERF);
	if (!err && in_time_order(f, o.ordered))
		err = peo_pd_order_new(f);
	if (err) {
		peo_perfdata_close(f);
		return err;
	}
	*out = f;
	return 0;
}

/* perf record --threads: DIR/data is the header file, DIR/data.N the streams. */
static int open_directory(struct peo_perfdata **out, const char *dir, const struct peo_perfdata_opts *opts)
{
	char path[4096];
	int err;

	snprintf(path, sizeof(path), "%s/data", dir);
	if (access(path, F_OK) && errno == ENOENT)
		return peo_fail(ENOENT, "%s: a directory without a 'data' file, so not a perf.data "
				"directory (perf record --threads writes DIR/data and DIR/data.N)", dir);
	err = peo_perfdata_open(out, path, opts);
	if (err)
		return err;
	if ((*out)->damaged) { /* named as the data files' notes are: "DIR/data: ..." */
		size_t n = strlen(path) + strlen((*out)->damaged) + 3;
		char *named = malloc(n);

		if (named)
			snprintf(named, n, "%s: %s", path, (*out)->damaged);
		free((*out)->damaged);
		(*out)->damaged = named;
		if (!named) {
			peo_perfdata_close(*out);
			*out = NULL;
			return peo_fail(ENOMEM, "out of memory for a sentence");
		}
	}
	err = peo_pd_dir_open(*out, dir);
	if (err) {
		peo_perfdata_close(*out);
		*out = NULL;
	}
	return err;
}

int peo_perfdata_open(struct peo_perfdata **out, const char *path, const struct peo_perfdata_opts *opts)
{
	int fd, err;

	if (!out || !path)
		return peo_fail(EINVAL, "peo_perfdata_open: argument '%s' is NULL", out ? "path" : "out");
	*out = NULL;
	if (!strcmp(path, "-")) {
		err = peo_perfdata_open_fd(out, 0, opts);
		return err ? peo_fail(-err, "standard input: %s", peo_last_error()) : 0;
	}
	{
		struct stat st;

		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			return open_directory(out, path, opts);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return peo_fail(errno, "cannot open '%s': %s", path, strerror(errno));
	err = peo_perfdata_open_fd(out, fd, opts);
	if (err) {
		close(fd);
		return peo_fail(-err, "%s: %s", path, peo_last_error());
	}
	(*out)->own_fd = fd;
	return 0;
}

void pd_events_free(struct pd_event *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].ids);
		free(v[i].name);
	}
	free(v);
}

const char *peo_perfdata_damaged(const struct peo_perfdata *f)
{
	return f ? f->damaged : NULL;
}

const char *peo_perfdata_stopped(const struct peo_perfdata *f)
{
	return f ? peo_pd_dir_stopped(f) : NULL;
}

void peo_perfdata_close(struct peo_perfdata *f)
{
	if (!f)
		return;
	free(f->damaged);
	free(f->stopped);
	pd_events_free(f->events, f->nevents);
	for (unsigned i = 0; i < PEO_FEAT_MAX; i++) {
		free(f->feature_bytes[i]);
		free(f->feature_lists[i]);
	}
	pd_source_fini(&f->src);
	peo_perfdata_inflate_free(f);
	peo_pd_order_free(f);
	peo_pd_dir_free(f);
	peo_pd_typed_free(f);
	if (!f->borrowed_parser)
		peo_record_parser_free(f->parser);
	if (f->own_fd >= 0)
		close(f->own_fd);
	free(f);
}

int peo_perfdata_is_pipe(const struct peo_perfdata *f)
{
	return f ? f->pipe : 0;
}

enum peo_byte_order peo_perfdata_byte_order(const struct peo_perfdata *f)
{
	return f && f->big_endian ? PEO_BYTE_ORDER_BIG : PEO_BYTE_ORDER_LITTLE;
}

size_t peo_perfdata_attr_count(const struct peo_perfdata *f)
{
	return f ? f->nevents : 0;
}

const struct peo_attr *peo_perfdata_attr(const struct peo_perfdata *f, size_t i)
{
	return f && i < f->nevents ? &f->events[i].attr : NULL;
}

const uint64_t *peo_perfdata_attr_ids(const struct peo_perfdata *f, size_t i, size_t *n)
{
	if (!f || i >= f->nevents) {
		if (n)
			*n = 0;
		return NULL;
	}
	if (n)
		*n = f->events[i].nids;
	return f->events[i].ids;
}

const struct peo_record_parser *peo_perfdata_parser(const struct peo_perfdata *f)
{
	return f ? f->parser : NULL;
}

int peo_perfdata_event_of(const struct peo_perfdata *f, const struct peo_attr *attr)
{
	size_t i;

	/* not the reader's: below its array, or (wrapped) past it */
	if (!f || !attr || !f->parser->attrs || (uintptr_t)attr < (uintptr_t)f->parser->attrs)
		return -1;
	if (((uintptr_t)attr - (uintptr_t)f->parser->attrs) % sizeof(struct parse_attr))
		return -1; /* inside one, not at its start */
	i = peo_pd_attr_index(f, attr);
	return i < f->nevents ? (int)i : -1;
}
