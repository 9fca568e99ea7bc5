/*
 * open.c - the reader opened and closed: a file, a pipe or a --threads
 * directory, over its source (source.h) and its header (header.h), with
 * time ordering where asked; and the reader's answers about the header.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/reader.h"
#include "sized.h"

#define DEFAULT_WINDOW (4u << 20)

/*
 * Whether records go out in time order.  perf script and perf report sort
 * only when the first event has sample_id_all: without it only samples
 * carry a time.  A pipe's events are not known when perf decides: it sorts.
 */
static int in_time_order(const struct peo_perfdata *f, int ordered)
{
	const struct peo_attr *first = peo_pd_parser_attr(f->hdr, 0);

	if (ordered == PEO_PERFDATA_ORDER_AS_PERF)
		return f->hdr->pipe || !first || first->sample_id_all;
	return ordered == PEO_PERFDATA_TIME_ORDER;
}

int peo_perfdata_open_fd(struct peo_perfdata **out, int fd, const struct peo_perfdata_opts *opts)
{
	struct peo_perfdata_opts o = { .sz = sizeof(o) };
	struct peo_perfdata *f;
	struct stat st;
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
	pd_source_init(&f->st.src, fd, fstat(fd, &st) != 0 || !S_ISREG(st.st_mode),
		       o.window ? o.window : DEFAULT_WINDOW, !o.window, !!o.readahead_thread);
	f->own_fd = -1;
	f->headers_only = !!o.headers_only;
	f->hdr = calloc(1, sizeof(*f->hdr));
	pd_stream_init(&f->st, f->hdr, !f->headers_only, 0, !!o.force);
	if (!f->hdr)
		err = peo_fail(ENOMEM, "out of memory for a perf.data reader");
	else
		err = pd_header_read(f->hdr, &f->st.src, f->st.src.sequential ? UINT64_MAX
							: (uint64_t)st.st_size, !!o.force);
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
	if ((*out)->hdr->damaged) { /* named as the data files' notes are: "DIR/data: ..." */
		size_t n = strlen(path) + strlen((*out)->hdr->damaged) + 3;
		char *named = malloc(n);

		if (named)
			snprintf(named, n, "%s: %s", path, (*out)->hdr->damaged);
		free((*out)->hdr->damaged);
		(*out)->hdr->damaged = named;
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

const char *peo_perfdata_damaged(const struct peo_perfdata *f)
{
	return f ? f->hdr->damaged : NULL;
}

const char *peo_perfdata_stopped(const struct peo_perfdata *f)
{
	return f ? peo_pd_dir_stopped(f) : NULL;
}

void peo_perfdata_close(struct peo_perfdata *f)
{
	if (!f)
		return;
	pd_stream_fini(&f->st);
	peo_pd_order_free(f);
	peo_pd_dir_free(f); /* its data files' streams share the header */
	pd_header_free(f->hdr);
	if (f->own_fd >= 0)
		close(f->own_fd);
	free(f);
}

int peo_perfdata_is_pipe(const struct peo_perfdata *f)
{
	return f ? f->hdr->pipe : 0;
}

int peo_perfdata_layout(const struct peo_perfdata *f, struct peo_perfdata_layout *out)
{
	int err;

	if (!f || !out)
		return peo_fail(EINVAL, "peo_perfdata_layout: a NULL argument");
	if ((err = PEO_SIZED(out, peo_perfdata_layout, PEO_PERFDATA_LAYOUT_SZ_0_2)))
		return err;
	if (f->hdr->pipe)
		return peo_fail(ENOTSUP, "peo_perfdata_layout: a pipe-mode stream has no header "
				"with offsets");
	out->data_offset = f->hdr->data.offset;
	out->data_size = f->hdr->data.size;
	out->feat_offset = f->hdr->data.offset + f->hdr->data.size;
	return 0;
}

int peo_perfdata_has_feature(const struct peo_perfdata *f, unsigned bit)
{
	return f && bit < PEO_FEAT_MAX && f->hdr->has_feature[bit];
}

enum peo_byte_order peo_perfdata_byte_order(const struct peo_perfdata *f)
{
	return f && f->hdr->big_endian ? PEO_BYTE_ORDER_BIG : PEO_BYTE_ORDER_LITTLE;
}

size_t peo_perfdata_attr_count(const struct peo_perfdata *f)
{
	return f ? f->hdr->nevents : 0;
}

const struct peo_attr *peo_perfdata_attr(const struct peo_perfdata *f, size_t i)
{
	return f && i < f->hdr->nevents ? &f->hdr->events[i].attr : NULL;
}

const uint64_t *peo_perfdata_attr_ids(const struct peo_perfdata *f, size_t i, size_t *n)
{
	if (!f || i >= f->hdr->nevents) {
		if (n)
			*n = 0;
		return NULL;
	}
	if (n)
		*n = f->hdr->events[i].nids;
	return f->hdr->events[i].ids;
}

const struct peo_record_parser *peo_perfdata_parser(const struct peo_perfdata *f)
{
	return f ? f->hdr->parser : NULL;
}

int peo_perfdata_event_of(const struct peo_perfdata *f, const struct peo_attr *attr)
{
	size_t i;

	/* not the reader's: below its array, or (wrapped) past it */
	if (!f || !attr || !f->hdr->parser->attrs || (uintptr_t)attr < (uintptr_t)f->hdr->parser->attrs)
		return -1;
	if (((uintptr_t)attr - (uintptr_t)f->hdr->parser->attrs) % sizeof(struct parse_attr))
		return -1; /* inside one, not at its start */
	i = peo_pd_attr_index(f->hdr, attr);
	return i < f->hdr->nevents ? (int)i : -1;
}
