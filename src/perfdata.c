/*
 * perfdata.c - opening perf.data: the file header (or the pipe header),
 * the attrs and their ids, the feature index, and the event names.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata_internal.h"

#define MAGIC_LE 0x32454c4946524550ULL /* "PERFILE2" read as a little-endian u64 */
#define FILE_HEADER_BYTES 104
#define PIPE_HEADER_BYTES 16
#define MIN_WINDOW (128u << 10)
#define DEFAULT_WINDOW (4u << 20)

uint64_t peo_pd_u64(const struct peo_perfdata *f, const void *p)
{
	return peo_load_u64(p, f->swap);
}

uint32_t peo_pd_u32(const struct peo_perfdata *f, const void *p)
{
	return peo_load_u32(p, f->swap);
}

/* Read exactly @n bytes at @off (file mode) or next (pipe mode). */
int peo_pd_read_at(struct peo_perfdata *f, uint64_t off, void *buf, size_t n, const char *what)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = f->sequential ? read(f->fd, (char *)buf + got, n - got)
				    : pread(f->fd, (char *)buf + got, n - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return peo_fail(EIO, "perf.data: reading %s (%zu bytes at offset %llu): %s", what,
					n, (unsigned long long)off, strerror(errno));
		if (r == 0)
			return peo_fail(EPROTO, "perf.data: %s at offset %llu: the file ends after %zu "
					"of its %zu bytes", what, (unsigned long long)off, got, n);
		got += (size_t)r;
	}
	return 0;
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

		err = peo_pd_read_at(f, at, entry, attr_size, "an attr");
		if (!err)
			err = read_section(f, entry + attr_size - 16, at + attr_size - 16, "attr ids", &ids);
		if (err)
			break;
		n = (size_t)(ids.size / 8);
		if (n && !(list = malloc(n * 8)))
			err = peo_fail(ENOMEM, "out of memory for %zu ids", n);
		if (!err && n)
			err = peo_pd_read_at(f, ids.offset, list, n * 8, "attr ids");
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

/* The feature index: one section per set bit, in bit order, after the data. */
static int read_feature_index(struct peo_perfdata *f, const unsigned char *bitmap)
{
	uint64_t at = f->data.offset + f->data.size;
	int err = 0;

	for (unsigned bit = 0; bit < PEO_FEAT_MAX && !err; bit++) {
		uint64_t word = peo_pd_u64(f, bitmap + 8 * (bit / 64));
		unsigned char sec[16];

		if (!(word >> (bit % 64) & 1))
			continue;
		err = peo_pd_read_at(f, at, sec, sizeof(sec), "the feature index");
		if (!err)
			err = read_section(f, sec, at, "feature", &f->features[bit]);
		if (!err)
			err = feature_apart(f, bit);
		if (!err)
			f->has_feature[bit] = 1;
		at += 16;
	}
	return err;
}

static int open_file_mode(struct peo_perfdata *f, const unsigned char *first16)
{
	unsigned char h[FILE_HEADER_BYTES];
	struct pd_section attrs;
	uint64_t attr_size;
	int err;

	memcpy(h, first16, 16);
	err = peo_pd_read_at(f, 16, h + 16, sizeof(h) - 16, "the file header");
	if (err)
		return err;
	attr_size = peo_pd_u64(f, h + 16);
	err = read_section(f, h + 24, 24, "attrs", &attrs);
	if (!err)
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
	f->pos = f->data.offset;
	f->end = f->data.offset + f->data.size;
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
	f->fd = fd;
	f->own_fd = -1;
	f->window = o.window ? (o.window < MIN_WINDOW ? MIN_WINDOW : o.window) : DEFAULT_WINDOW;
	f->map_whole = !o.window; /* a window asked for: read in windows of that size */
	f->readahead_thread = !!o.readahead_thread;
	f->sequential = fstat(fd, &st) != 0 || !S_ISREG(st.st_mode);
	f->pipe = f->sequential;
	f->file_size = f->sequential ? UINT64_MAX : (uint64_t)st.st_size;
	err = peo_pd_read_at(f, 0, first, sizeof(first), "the header");
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
			f->pos = PIPE_HEADER_BYTES;
			f->end = f->file_size;
		} else if (size >= FILE_HEADER_BYTES && !f->sequential) {
			err = open_file_mode(f, first);
		} else {
			err = peo_fail(EPROTO, "perf.data: header size %llu at offset 8 is neither "
				       "16 (pipe mode) nor 104 (file mode)%s", (unsigned long long)size,
				       f->pipe ? " for a stream" : "");
		}
	}
	if (!err && !(f->buf = malloc(f->window)))
		err = peo_fail(ENOMEM, "out of memory for a %zu-byte read window", f->window);
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
	err = peo_perfdata_open(out, path, opts);
	if (err)
		return err;
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
	if (!strcmp(path, "-"))
		return peo_perfdata_open_fd(out, 0, opts);
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

void peo_perfdata_close(struct peo_perfdata *f)
{
	if (!f)
		return;
	pd_events_free(f->events, f->nevents);
	for (unsigned i = 0; i < PEO_FEAT_MAX; i++) {
		free(f->feature_bytes[i]);
		free(f->feature_lists[i]);
	}
	free(f->buf);
	peo_pd_ahead_stop(f); /* before the mapping it reads goes */
	if (f->map)
		munmap(f->map, f->map_len);
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
