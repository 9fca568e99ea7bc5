/*
 * dir.c - directory mode (perf record --threads): DIR/data holds
 * the header, the attrs, the features and the records perf synthesized;
 * each DIR/data.N holds one ring's records, already in time order and
 * without FINISHED_ROUND.  Each has a read window of its own.
 *
 * perf reads the header file, then the data files in the order the
 * directory lists them (it does not sort them), 2 MiB of records from each
 * in turn (a COMPRESSED record's bytes in the file count, and what it
 * holds is read in its turn).  In file order that is the order records go
 * out in.  In time order the streams are merged by time, and equal times
 * keep perf's reading order: a tie goes to the record of the earlier turn,
 * then to the stream perf reads first.  A data file's own records are not
 * quite in time order, and perf sorts them all: each stream is put in
 * time order first (perfdata/dir_sort.c), then the streams merged
 * (perfdata/dir_merge.c): each stream is a source of the merge.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/dir_merge.h"
#include "perfdata/dir_sort.h"
#include "perfdata/reader.h"

#define TURN_BYTES (2u << 20) /* what perf reads of one stream before the next */

/* One of the directory's files: its record stream and its place in the merge. */
struct dir_input {
	struct pd_stream *st;            /* the reader's own (data), or own (data.N) */
	struct pd_stream own;            /* a data.N's stream, over the directory's header */
	int fd;                          /* a data.N's, closed with it; -1 for data */
	char name[NAME_MAX + 1];         /* "data" or "data.N" (peo_perfdata_source) */
	char *path;                      /* "DIR/data.N", for its errors */
	char *stopped;                   /* "DIR/data.N: " and where a cut record ended it */
	struct peo_perfdata_record rec;  /* its next record, when have */
	uint64_t time;
	uint64_t turn;       /* perf's reading turn of that record (ties go to the earlier) */
	uint64_t turn_start; /* file offset where this turn began */
	uint64_t peeked;     /* records peeked: the last one's place in the stream is one less */
	int have, has_time, done, started;
	/* Time order: the records held back, and the one that goes next: a
	 * held one (cand), else the peeked one; ready once settle() chose it. */
	struct pd_dir_sort sort;
	struct pd_held *cand;
	int ready;
	struct pd_held *gone; /* the held record pulled last: released at the next pull */
};

struct pd_dir {
	struct dir_input *s; /* s[0] is the header file's own data section (reader f) */
	size_t n;
	struct dir_input *last; /* the stream whose record went out last */
	int scanned;            /* time order: each stream's late records are known */
	struct pd_merge *merge; /* the streams merged, made at the first record */
};

static int is_data_file(const char *name)
{
	char *end;

	if (strncmp(name, "data.", 5) || !name[5])
		return 0;
	strtoul(name + 5, &end, 10);
	return !*end;
}

/* @in's stream over the records of data file @fd (@size bytes) for @f's
 * events, with @f's window: peeked for the merge, parsed on the way out. */
static void stream_init(const struct peo_perfdata *f, struct dir_input *in, int fd, uint64_t size)
{
	in->fd = fd;
	in->st = &in->own;
	/* its buffer had when first needed */
	pd_source_init(&in->own.src, fd, 0, f->st.src.window, f->st.src.map_whole, 0);
	in->own.src.end = size;
	pd_stream_init(&in->own, f->hdr, 0, 1, f->st.force);
}

int peo_pd_dir_open(struct peo_perfdata *f, const char *dir)
{
	char **names = NULL, path[4096];
	struct pd_dir *d;
	int n, err = 0;

	n = peo_list_dir_order(dir, &names, 0); /* as listed, as perf takes them */
	if (n < 0)
		return peo_fail(-n, "perf.data directory %s: cannot list it: %s", dir, strerror(-n));
	d = calloc(1, sizeof(*d));
	if (!d) {
		peo_free_names(names, n);
		return peo_fail(ENOMEM, "out of memory for a perf.data directory");
	}
	f->dir = d;
	d->s = calloc((size_t)n + 1, sizeof(*d->s));
	if (!d->s)
		err = peo_fail(ENOMEM, "out of memory for %d data files", n);
	if (!err) {
		d->s[0].st = &f->st; /* the directory's reader's own */
		d->s[0].fd = -1;
		snprintf(d->s[0].name, sizeof(d->s[0].name), "data");
		snprintf(path, sizeof(path), "%s/data", dir);
		if (!(d->s[0].path = strdup(path)))
			err = peo_fail(ENOMEM, "out of memory for a perf.data directory");
		d->n = 1;
		f->st.parse_fields = 0; /* peeked for the merge, parsed on the way out */
		f->st.want_time = 1;
	}
	for (int i = 0; !err && i < n; i++) {
		struct stat st;
		int fd;

		if (!is_data_file(names[i]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			err = peo_fail(errno, "perf.data directory: cannot open %s: %s", path,
				       strerror(errno));
			if (fd >= 0)
				close(fd);
			break;
		}
		snprintf(d->s[d->n].name, sizeof(d->s[d->n].name), "%s", names[i]);
		d->s[d->n].path = strdup(path);
		stream_init(f, &d->s[d->n], fd, (uint64_t)st.st_size);
		d->n++; /* freed with the others */
		if (!d->s[d->n - 1].path)
			err = peo_fail(ENOMEM, "out of memory for a perf.data directory");
	}
	peo_free_names(names, n);
	return err;
}

void peo_pd_dir_free(struct peo_perfdata *f)
{
	struct pd_dir *d = f->dir;

	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		if (d->s[i].st == &d->s[i].own)
			pd_stream_fini(&d->s[i].own);
		if (d->s[i].fd >= 0)
			close(d->s[i].fd);
		free(d->s[i].gone); /* out of the sort's heap */
		peo_pd_sort_free(&d->s[i].sort);
		free(d->s[i].path);
		free(d->s[i].stopped);
	}
	pd_merge_free(d->merge);
	free(d->s);
	free(d);
	f->dir = NULL;
}

/* An error of stream @s's file: its path before the sentence (whose offset
 * is in it), as the header file's are named by peo_perfdata_open(). */
static int stream_failed(const struct dir_input *s, int err)
{
	return peo_fail(-err, "%s: %s", s->path ? s->path : s->name, peo_last_error());
}

const char *peo_pd_dir_stopped(const struct peo_perfdata *f)
{
	const struct pd_dir *d = f->dir;

	if (!d)
		return f->st.stopped;
	for (size_t i = 0; i < d->n; i++) /* "DIR/data.N: the data ends inside..." */
		if (d->s[i].stopped)
			return d->s[i].stopped;
	return NULL;
}

/* A stream that stopped at a cut record (opts.force): its note, named. */
static int stream_stopped(struct dir_input *s)
{
	size_t n;

	if (!s->st->stopped || s->stopped)
		return 0;
	n = strlen(s->st->stopped) + strlen(s->path ? s->path : s->name) + 3;
	if (!(s->stopped = malloc(n)))
		return peo_fail(ENOMEM, "out of memory for a sentence");
	snprintf(s->stopped, n, "%s: %s", s->path ? s->path : s->name, s->st->stopped);
	return 0;
}

/* Make sure stream @s has its next record peeked, unless it has ended. */
static inline __attribute__((always_inline)) int fill(struct dir_input *s)
{
	int got;

	if (s->have || s->done)
		return 0;
	got = pd_stream_next(s->st, &s->rec);
	if (got < 0)
		return stream_failed(s, got);
	if (got == 0) {
		s->done = 1;
		return stream_stopped(s);
	}
	s->have = 1;
	s->peeked++;
	s->has_time = s->st->has_time;
	s->time = s->st->time;
	/* perf's turn ends after the record that fills 2 MiB; the records a
	 * COMPRESSED one holds (their offset is where the reader stands) are
	 * read in its turn. */
	if (!s->started) {
		s->started = 1;
		s->turn_start = s->rec.offset;
	} else if (s->rec.offset != s->st->src.pos && s->rec.offset - s->turn_start >= TURN_BYTES) {
		s->turn++;
		s->turn_start = s->rec.offset;
	}
	return 0;
}

/* Each stream's late records, from a pass of a stream of its own. */
static int scan_streams(struct peo_perfdata *f, struct pd_dir *d)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct pd_stream *own = d->s[i].st;
		struct dir_input pass = { 0 };
		int fd = fcntl(own->src.fd, F_DUPFD_CLOEXEC, 0), err;

		if (fd < 0)
			return peo_fail(errno, "%s: cannot read it twice: %s", d->s[i].name,
					strerror(errno));
		stream_init(f, &pass, fd, own->src.end); /* its end: the data section or the file */
		pass.own.src.pos = own->src.pos; /* the header file's data section */
		err = peo_pd_sort_scan(&d->s[i].sort, &pass.own);
		pd_stream_fini(&pass.own);
		close(fd);
		if (err)
			return err;
	}
	d->scanned = 1;
	return 0;
}

/*
 * Time order: stream @s's next record, held back (copied) while a late
 * record still to come goes before it.  A record without a time goes at once.
 */
static int settle(struct dir_input *s)
{
	int got;

	for (;;) {
		struct pd_held *top = peo_pd_sort_top(&s->sort);
		uint64_t bound;

		if ((got = fill(s)))
			return got;
		s->cand = NULL;
		s->ready = 1;
		if (!s->have) {
			s->cand = top;
			s->ready = top != NULL;
			return 0;
		}
		if (!s->has_time)
			return 0;
		bound = peo_pd_sort_bound(&s->sort, s->peeked - 1);
		if (top && top->time <= s->time) { /* held earlier: first at a tie */
			if (top->time <= bound) {
				s->cand = top;
				return 0;
			}
		} else if (s->time <= bound) {
			return 0;
		}
		s->ready = 0;
		if ((got = peo_pd_sort_hold(&s->sort, &s->rec, s->time, s->peeked - 1, s->turn)))
			return stream_failed(s, got);
		s->have = 0;
	}
}

const char *peo_perfdata_source(const struct peo_perfdata *f)
{
	return f && f->dir && f->dir->last ? f->dir->last->name : NULL;
}

/*
 * Stream @ctx as a source of the merge: its next record, the oldest held
 * one (cand) or the one peeked, with its time and turn.  A held one is
 * released at the next pull, a peeked one stays in the stream's window
 * until the next peek.
 */
static int pull_stream(void *ctx, struct pd_merge_rec *rec)
{
	struct dir_input *s = ctx;
	int got;

	if (s->gone)
		peo_pd_sort_release(&s->sort, s->gone);
	s->gone = NULL;
	s->ready = 0;
	if (!peo_pd_sort_top(&s->sort) && s->sort.next_late == s->sort.nlate) {
		/* nothing held, no late record to come: settle() is the peek */
		if ((got = fill(s)) || !s->have)
			return got;
	} else if ((got = settle(s)) || !s->ready) {
		return got;
	}
	if (s->cand) { /* out of the sort's heap */
		s->gone = peo_pd_sort_pop(&s->sort);
		*rec = (struct pd_merge_rec){ s->gone->time, s->gone->turn, 1, &s->gone->rec };
	} else {
		*rec = (struct pd_merge_rec){ s->time, s->turn, s->has_time, &s->rec };
		s->have = 0; /* its window holds it until the next peek */
	}
	s->cand = NULL;
	return 1;
}

/* The merge of the streams, each a source, in time order when @f's is. */
static int merge_new(struct peo_perfdata *f, struct pd_dir *d)
{
	struct pd_merge_src *src = calloc(d->n, sizeof(*src));
	int err;

	if (!src)
		return peo_fail(ENOMEM, "out of memory merging %zu data files", d->n);
	for (size_t i = 0; i < d->n; i++)
		src[i] = (struct pd_merge_src){ pull_stream, &d->s[i] };
	err = pd_merge_new(src, d->n, f->order != NULL, &d->merge);
	free(src);
	return err;
}

int peo_pd_dir_next(struct peo_perfdata *f, struct peo_perfdata_record *out)
{
	struct pd_dir *d = f->dir;
	const struct pd_merge_rec *rec;
	size_t from;
	int got;

	d->last = NULL;
	if (f->order && !d->scanned && (got = scan_streams(f, d)))
		return got;
	if (!d->merge && (got = merge_new(f, d)))
		return got;
	if ((got = pd_merge_next(d->merge, &rec, &from)) <= 0)
		return got;
	d->last = &d->s[from];
	*out = *(const struct peo_perfdata_record *)rec->item;
	if (!f->headers_only && out->rec.header.type < PEO_RECORD_MAX &&
	    (got = pd_record_parse(f->hdr, out->rec.bytes, out->rec.header.size, out->offset,
				       &out->rec)))
		return stream_failed(d->last, got);
	return 1;
}
