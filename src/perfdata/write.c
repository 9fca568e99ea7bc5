/*
 * write.c - writing a file-mode perf.data: the header, each
 * event's ids and attr, the data section as records come, then the feature
 * sections and their index after the data, and the header rewritten with
 * the final sizes.  Layout on disk:
 *
 *   header (104) | ids of every event | attrs | data ... | feature index | features
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/reader.h"
#include "perfdata/write.h"

#define HEADER_BYTES 104
#define MAGIC "PERFILE2"
#define BUFFER_BYTES (1u << 20)
#define MARKS 64

struct peo_perfdata_writer {
	int fd, own_fd;
	int pipe;             /* pipe mode: a stream, written in order, never rewritten */
	unsigned char sent[PEO_FEAT_MAX]; /* pipe mode: features already in the stream */
	char *path;           /* the file's name now, for messages */
	char *aside;          /* open_aside: the name it is for, until published; else NULL */
	int unnamed;          /* open_aside's file has no name yet (path: the one it is for) */
	struct pd_event *events;
	size_t nevents;
	uint32_t attr_bytes;  /* every attr is written with this size */
	int data_started;
	uint64_t data_offset; /* where the data section starts */
	uint64_t pos;         /* the file offset the buffer starts at */
	unsigned char *buf;
	size_t n;
	int err;              /* the first write error, kept: later calls return it */
	uint64_t total, by_type[PEO_PERFDATA_COUNT_TYPES]; /* records written, for _count() */
	uint64_t given;       /* their bytes, before compression */
	void *feature[PEO_FEAT_MAX];
	size_t feature_size[PEO_FEAT_MAX];
	struct pd_deflate *z;  /* records go out zstd-compressed, or NULL */
	int want_build_ids;    /* peo_perfdata_writer_build_ids() was called */
	struct pd_hits *hits;  /* the files samples hit, made at the first record */
	uint64_t marks[MARKS]; /* file mode: where recent flushes ended (records' ends) */
	size_t nmarks;
	int finished, finish_err; /* peo_perfdata_writer_finish() was called; what it returned */
};

/* Write @n bytes at @off; on failure *@done (when given) says how many went. */
static int write_some(struct peo_perfdata_writer *w, uint64_t off, const void *p, size_t n,
		      const char *what, size_t *done_out)
{
	size_t done = 0;

	while (done < n) { /* a pipe takes the bytes in order: @off is where they are in the stream */
		ssize_t r = w->pipe ? write(w->fd, (const char *)p + done, n - done)
				    : pwrite(w->fd, (const char *)p + done, n - done, (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN && w->pipe) { /* a non-blocking pipe: wait for room */
			struct pollfd room = { w->fd, POLLOUT, 0 };

			if (poll(&room, 1, -1) >= 0 || errno == EINTR)
				continue;
		}
		if (r <= 0) {
			int e = r < 0 ? errno : ENOSPC;

			w->err = peo_fail(e, "perf.data writer: writing %s (%zu bytes at offset %llu) "
					  "to %s: %s", what, n, (unsigned long long)(off + done),
					  w->path, strerror(e));
			if (done_out)
				*done_out = done;
			return w->err;
		}
		done += (size_t)r;
	}
	return 0;
}

static int write_at(struct peo_perfdata_writer *w, uint64_t off, const void *p, size_t n,
		    const char *what)
{
	return write_some(w, off, p, n, what, NULL);
}

static int flush(struct peo_perfdata_writer *w)
{
	size_t done = 0;
	int err;

	if (w->err)
		return w->err;
	if (!w->n)
		return 0;
	err = write_some(w, w->pos, w->buf, w->n, "records", &done);
	if (err) { /* a full disk: the records that went whole stay in the file */
		size_t at = 0;

		while (at + 8 <= done) {
			uint16_t size;

			memcpy(&size, w->buf + at + 6, 2);
			if (size < 8 || at + size > done)
				break;
			at += size;
		}
		w->pos += at;
		/* what did not go whole is not in the file: take it back from the counts
		 * (a COMPRESSED record was counted with no bytes given; what it holds
		 * stays counted).  A pipe's buffer may start with its header: not walked. */
		while (!w->pipe && at + 8 <= w->n) {
			struct peo_event_header h;

			memcpy(&h, w->buf + at, sizeof(h));
			if (h.size < 8 || at + h.size > w->n)
				break;
			pd_writer_counted(w, h.type, h.type == PEO_RECORD_COMPRESSED ||
					  h.type == PEO_RECORD_COMPRESSED2 ? 0 : h.size, -1);
			at += h.size;
		}
		w->n = 0;
		return err;
	}
	w->pos += w->n;
	w->n = 0;
	if (!w->pipe)
		w->marks[w->nmarks++ % MARKS] = w->pos;
	return 0;
}

/* A writer on @fd; @pipe: 1 pipe mode, 0 file mode, -1 as the fd is. */
static int open_fd_as(struct peo_perfdata_writer **out, int fd, int pipe, const char *fn)
{
	struct peo_perfdata_writer *w;
	int fl;

	if (!out)
		return peo_fail(EINVAL, "%s: argument 'out' is NULL", fn);
	*out = NULL;
	if (fd < 0)
		return peo_fail(EBADF, "%s: fd %d is not open", fn, fd);
	if (pipe > 0 && (fl = fcntl(fd, F_GETFL)) < 0)
		return peo_fail(EBADF, "%s: fd %d is not open; give an fd open for writing", fn, fd);
	if (pipe > 0 && (fl & O_ACCMODE) == O_RDONLY)
		return peo_fail(EBADF, "%s: fd %d is open for reading only; give an fd open for "
				"writing", fn, fd);
	w = calloc(1, sizeof(*w));
	if (!w || !(w->buf = malloc(BUFFER_BYTES)) || !(w->path = strdup("the output"))) {
		if (w)
			free(w->buf);
		free(w);
		return peo_fail(ENOMEM, "out of memory for a perf.data writer");
	}
	w->fd = fd;
	w->own_fd = -1;
	w->pipe = pipe >= 0 ? pipe : lseek(fd, 0, SEEK_CUR) < 0 && errno == ESPIPE;
	*out = w;
	return 0;
}

int peo_perfdata_writer_open_fd(struct peo_perfdata_writer **out, int fd)
{
	return open_fd_as(out, fd, -1, "peo_perfdata_writer_open_fd");
}

int peo_perfdata_writer_open_pipe(struct peo_perfdata_writer **out, int fd)
{
	return open_fd_as(out, fd, 1, "peo_perfdata_writer_open_pipe");
}

/* A writer on @fd, which it owns from now on (closed on failure), named @path. */
static int open_owned(struct peo_perfdata_writer **out, int fd, const char *path)
{
	int err = peo_perfdata_writer_open_fd(out, fd);

	if (err) {
		close(fd);
		return err;
	}
	(*out)->own_fd = fd;
	free((*out)->path);
	if (!((*out)->path = strdup(path))) {
		peo_perfdata_writer_abandon(*out);
		*out = NULL;
		return peo_fail(ENOMEM, "out of memory for a perf.data writer");
	}
	return 0;
}

int peo_perfdata_writer_open(struct peo_perfdata_writer **out, const char *path)
{
	struct stat st, now;
	int fd, err;

	if (!out || !path)
		return peo_fail(EINVAL, "peo_perfdata_writer_open: argument '%s' is NULL",
				out ? "path" : "out");
	*out = NULL;
	/* Emptied only once locked: a file another writer writes is left alone. */
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return peo_fail(errno, "perf.data writer: cannot create '%s': %s", path,
				strerror(errno));
	if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
		if ((err = pd_file_lock(fd, path))) {
			close(fd);
			return err;
		}
		if (stat(path, &now) || now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
			close(fd); /* renamed or replaced since it was opened: the name is in use */
			return peo_fail(EBUSY, "perf.data writer: %s was replaced as it was opened; "
					"is another program writing it?", path);
		}
		if (ftruncate(fd, 0)) {
			err = errno;
			close(fd);
			return peo_fail(err, "perf.data writer: cannot empty '%s': %s", path,
					strerror(err));
		}
	}
	return open_owned(out, fd, path);
}

int peo_perfdata_writer_open_aside(struct peo_perfdata_writer **out, const char *path)
{
	struct stat st;
	char *temp;
	int fd, kind, err;

	if (!out || !path)
		return peo_fail(EINVAL, "peo_perfdata_writer_open_aside: argument '%s' is NULL",
				out ? "path" : "out");
	*out = NULL;
	/* Refused at once when another writer has the name (or its .old): publishing
	 * would be refused later, after the recording started. */
	kind = pd_file_take(path, &fd, &st);
	if (kind < 0)
		return kind;
	if (fd >= 0)
		close(fd);
	if (kind == PD_FILE_OTHER) /* /dev/null, a FIFO, a dangling link: written through */
		return peo_perfdata_writer_open(out, path);
	if (kind == PD_FILE_REGULAR && st.st_size > 0) {
		size_t n = strlen(path) + sizeof(".old");
		char *old = malloc(n);

		if (!old)
			return peo_fail(ENOMEM, "out of memory for a file name");
		snprintf(old, n, "%s.old", path);
		kind = pd_file_take(old, &fd, &st);
		free(old);
		if (kind < 0)
			return kind;
		if (fd >= 0)
			close(fd);
	}
	if ((fd = pd_file_temp(path, &temp)) < 0)
		return fd;
	if ((err = open_owned(out, fd, temp ? temp : path))) {
		if (temp)
			unlink(temp);
		free(temp);
		return err;
	}
	(*out)->unnamed = !temp;
	free(temp);
	if (!((*out)->aside = strdup(path))) {
		if (!(*out)->unnamed)
			unlink((*out)->path);
		peo_perfdata_writer_abandon(*out);
		*out = NULL;
		return peo_fail(ENOMEM, "out of memory for a perf.data writer");
	}
	return 0;
}

int peo_perfdata_writer_publish(struct peo_perfdata_writer *w)
{
	char *name;
	int err;

	if (!w)
		return peo_fail(EINVAL, "peo_perfdata_writer_publish: argument 'w' is NULL");
	if (!w->aside)
		return 0;
	err = pd_file_publish(w->unnamed ? NULL : w->path, w->own_fd, w->aside);
	if (err) { /* tried once: the file keeps the name it has, or gets one beside */
		int said = err;

		if (w->unnamed && !pd_file_name(w->own_fd, w->aside, &name)) {
			free(w->path);
			w->path = name;
			w->unnamed = 0;
		}
		free(w->aside);
		w->aside = NULL;
		return peo_fail(-said, "%s", peo_last_error());
	}
	name = w->aside;
	w->aside = NULL;
	w->unnamed = 0;
	free(w->path);
	w->path = name;
	return 0;
}

const char *peo_perfdata_writer_path(const struct peo_perfdata_writer *w)
{
	return w && w->own_fd >= 0 && !w->unnamed ? w->path : NULL;
}

int peo_perfdata_writer_add_event(struct peo_perfdata_writer *w, const struct peo_attr *attr,
				  const uint64_t *ids, size_t nids, const char *name)
{
	struct pd_event *more, *e;

	if (!w || !attr || (nids && !ids))
		return peo_fail(EINVAL, "peo_perfdata_writer_add_event: argument '%s' is NULL",
				!w ? "w" : !attr ? "attr" : "ids");
	if (w->data_started)
		return peo_fail(EBUSY, "perf.data writer: events are added before the first record "
				"(their attrs come before the data section)");
	if (nids > SIZE_MAX / 8)
		return peo_fail(EINVAL, "perf.data writer: %zu ids", nids);
	more = realloc(w->events, (w->nevents + 1) * sizeof(*more));
	if (!more)
		return peo_fail(ENOMEM, "out of memory for an event");
	w->events = more;
	e = &w->events[w->nevents];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	if ((nids && !(e->ids = malloc(nids * 8))) || (name && !(e->name = strdup(name)))) {
		free(e->ids);
		return peo_fail(ENOMEM, "out of memory for an event");
	}
	if (nids)
		memcpy(e->ids, ids, nids * 8);
	e->nids = nids;
	w->nevents++;
	return 0;
}

/*
 * The size every attr is written with: the smallest published size that
 * holds each attr's nonzero bytes.  A reader older than our attr refuses a
 * larger size it does not know (perf 6.1 reads up to 128), so the unused
 * tail is left off.
 */
static uint32_t attr_write_size(const struct peo_perfdata_writer *w)
{
	size_t used = PEO_ATTR_SIZE_VER0;

	for (size_t i = 0; i < w->nevents; i++) {
		const unsigned char *b = (const unsigned char *)&w->events[i].attr;

		for (size_t k = sizeof(struct peo_attr); k > used; k--)
			if (b[k - 1]) {
				used = k;
				break;
			}
	}
	return peo_attr_size_holding(used);
}

/* The header with the sections as they stand: @data_size, the feature bits set. */
static void fill_header(const struct peo_perfdata_writer *w, unsigned char *h, uint64_t data_size)
{
	uint64_t v[13] = { 0 };

	memset(h, 0, HEADER_BYTES);
	memcpy(h, MAGIC, 8);
	v[1] = HEADER_BYTES;
	v[2] = w->attr_bytes + 16;                           /* attr_size: attr + ids section */
	v[3] = w->data_offset - w->nevents * (w->attr_bytes + 16); /* attrs.offset */
	v[4] = w->nevents * (w->attr_bytes + 16);            /* attrs.size */
	v[5] = w->data_offset;
	v[6] = data_size;
	for (unsigned bit = 0; bit < PEO_FEAT_MAX; bit++)
		if (w->feature[bit])
			v[9 + bit / 64] |= 1ULL << (bit % 64);
	memcpy(h + 8, v + 1, HEADER_BYTES - 8);
}

/* @len bytes into the buffer (or straight out when larger). */
int pd_writer_append(struct peo_perfdata_writer *w, const void *bytes, size_t len)
{
	int err;

	if (!len) /* append_record's empty parts: nothing, and no NULL to memcpy */
		return 0;
	if (w->err) /* after a failed write nothing more goes in: the file ends there */
		return w->err;
	if (BUFFER_BYTES - w->n < len && (err = flush(w)))
		return err;
	if (len > BUFFER_BYTES) {
		if ((err = write_at(w, w->pos, bytes, len, "a record")))
			return err;
		w->pos += len;
		return 0;
	}
	memcpy(w->buf + w->n, bytes, len);
	w->n += len;
	return 0;
}

/* A user record: an 8-byte header of @type, then @a and @b (either may be
 * empty), zero-padded to 8 bytes. */
static int append_record(struct peo_perfdata_writer *w, uint32_t type, const void *a, size_t na,
			 const void *b, size_t nb)
{
	static const unsigned char zeros[8];
	size_t size = 8 + na + nb, pad = (8 - size % 8) % 8;
	struct peo_event_header h = { type, 0, (uint16_t)(size + pad) };
	int err;

	if (size + pad > 65535)
		return peo_fail(E2BIG, "perf.data writer: a %zu-byte record of type %u is more than "
				"a record holds", size, type);
	err = pd_writer_append(w, &h, sizeof(h));
	err = err ? err : pd_writer_append(w, a, na);
	err = err ? err : pd_writer_append(w, b, nb);
	return err ? err : pd_writer_append(w, zeros, pad);
}

/* Pipe mode: features set so far go out as HEADER_FEATURE records, then
 * TRACING_DATA as its own record, in the order perf writes them. */
static int send_features(struct peo_perfdata_writer *w)
{
	static const unsigned char zeros[8];
	unsigned bit = PEO_FEAT_TRACING_DATA;
	int err = 0;

	for (unsigned b = 1; !err && b < PEO_FEAT_MAX; b++) {
		uint64_t id = b;

		if (!w->feature[b] || w->sent[b] || b == PEO_FEAT_EVENT_DESC || b == bit)
			continue;
		w->sent[b] = 1;
		err = append_record(w, PEO_RECORD_HEADER_FEATURE, &id, 8, w->feature[b],
				    w->feature_size[b]);
	}
	if (!err && w->feature[bit] && !w->sent[bit]) {
		/* a 16-byte record whose u32 is the data's size padded to 8 (perf
		 * checks it against what it parses), then the data */
		size_t pad = (8 - w->feature_size[bit] % 8) % 8;
		uint32_t size[2] = { (uint32_t)(w->feature_size[bit] + pad), 0 };

		w->sent[bit] = 1;
		err = append_record(w, PEO_RECORD_HEADER_TRACING_DATA, size, sizeof(size), NULL, 0);
		err = err ? err : pd_writer_append(w, w->feature[bit], w->feature_size[bit]);
		err = err ? err : pd_writer_append(w, zeros, pad);
	}
	return err;
}

/* Pipe mode's start: its 16-byte header, each event's HEADER_ATTR and name, the features. */
static int start_pipe(struct peo_perfdata_writer *w)
{
	uint64_t header[2] = { 0, 16 };
	int err;

	memcpy(header, MAGIC, 8);
	err = pd_writer_append(w, header, sizeof(header));
	for (size_t i = 0; !err && i < w->nevents; i++) {
		struct pd_event *e = &w->events[i];
		uint64_t update[2] = { 2, e->nids ? e->ids[0] : 0 }; /* EVENT_UPDATE: NAME, id */

		err = append_record(w, PEO_RECORD_HEADER_ATTR, &e->attr, w->attr_bytes, e->ids,
				    8 * e->nids);
		if (!err && e->name && e->nids)
			err = append_record(w, PEO_RECORD_EVENT_UPDATE, update, sizeof(update), e->name,
					    strlen(e->name) + 1);
	}
	err = err ? err : send_features(w);
	w->data_offset = w->pos + w->n; /* data_size counts the records after these */
	return err ? err : flush(w); /* the header and attrs at once: a reader can start */
}

/* Ids and attrs go out, then the data section begins. */
static int start_data(struct peo_perfdata_writer *w)
{
	uint64_t at = HEADER_BYTES, attrs_at;
	unsigned char h[HEADER_BYTES];
	unsigned char *entry;
	int err = 0;

	if (w->data_started || w->err)
		return w->err;
	w->attr_bytes = attr_write_size(w);
	/* A pipe's HEADER_ATTR: perf 6.1 takes the attr as 128 bytes whatever its
	 * size says, and newer perf reads the ids after attr.size bytes; both
	 * agree only at 128 or more, which perf writes itself. */
	if (w->pipe && w->attr_bytes < PEO_ATTR_SIZE_VER7)
		w->attr_bytes = PEO_ATTR_SIZE_VER7;
	for (size_t i = 0; i < w->nevents; i++) /* each attr as the file has it */
		w->events[i].attr.size = w->attr_bytes;
	if (w->want_build_ids && (err = pd_hits_new(&w->hits, w)))
		return w->err = err;
	if (w->pipe) {
		w->data_started = 1;
		return start_pipe(w);
	}
	for (size_t i = 0; i < w->nevents; i++) /* the ids of each event */
		at += 8 * w->events[i].nids;
	attrs_at = at;
	entry = calloc(1, w->attr_bytes + 16);
	if (!entry)
		return w->err = peo_fail(ENOMEM, "out of memory writing attrs");
	at = HEADER_BYTES;
	for (size_t i = 0; !err && i < w->nevents; i++) {
		struct pd_event *e = &w->events[i];
		uint64_t ids_section[2] = { at, 8 * e->nids };

		err = write_at(w, at, e->ids ? (const void *)e->ids : (const void *)"", 8 * e->nids,
			       "an event's ids");
		at += 8 * e->nids;
		memcpy(entry, &e->attr, w->attr_bytes);
		memcpy(entry + w->attr_bytes, ids_section, 16);
		if (!err)
			err = write_at(w, attrs_at + i * (w->attr_bytes + 16), entry,
				       w->attr_bytes + 16, "an attr");
	}
	free(entry);
	w->data_offset = attrs_at + w->nevents * (w->attr_bytes + 16);
	w->pos = w->data_offset;
	w->data_started = 1;
	/* A header already, so a recording cut short still names its sections. */
	fill_header(w, h, 0);
	return err ? err : write_at(w, 0, h, sizeof(h), "the header");
}

/* Count the whole records at the start of @bytes (@sign -1: take back what
 * a failure must not count).  Returns how many bytes they span: @len when
 * every record is whole. */
static size_t count_records(struct peo_perfdata_writer *w, const void *bytes, size_t len,
			    int sign)
{
	size_t at = 0;

	while (at < len) {
		struct peo_event_header h;

		memcpy(&h, (const unsigned char *)bytes + at, sizeof(h));
		if (h.size < 8 || h.size % 8 || h.size > len - at)
			break;
		pd_writer_counted(w, h.type, h.size, sign);
		at += h.size;
	}
	return at;
}

int peo_perfdata_writer_record(struct peo_perfdata_writer *w, const void *bytes, size_t len)
{
	size_t done;
	int err;

	if (!w || !bytes)
		return peo_fail(EINVAL, "peo_perfdata_writer_record: argument '%s' is NULL",
				w ? "bytes" : "w");
	if (w->finished)
		return peo_fail(EBUSY, "perf.data writer: %s is finished; no more records go in",
				w->path);
	if (len < 8 || len % 8)
		return peo_fail(EINVAL, "perf.data writer: a record of %zu bytes (records are a "
				"multiple of 8, at least the 8-byte header)", len);
	done = count_records(w, bytes, len, 1); /* one walk: checks and counts */
	if (done < len) { /* whole records only: readers walk them */
		struct peo_event_header h;

		count_records(w, bytes, done, -1);
		memcpy(&h, (const unsigned char *)bytes + done, sizeof(h));
		return peo_fail(EINVAL, "perf.data writer: the record at byte %zu of the %zu given "
				"has size %u, which runs past them or is not a multiple of 8; give "
				"whole records", done, len, h.size);
	}
	err = start_data(w);
	if (!err && w->hits)
		pd_hits_records(w->hits, bytes, len);
	if (!err)
		err = w->z ? pd_deflate_records(w, w->z, bytes, len) : pd_writer_append(w, bytes, len);
	if (err)
		count_records(w, bytes, len, -1);
	return err;
}

void pd_writer_counted(struct peo_perfdata_writer *w, uint32_t type, size_t size, int sign)
{
	w->given += (uint64_t)(int64_t)sign * size;
	w->total += (uint64_t)(int64_t)sign;
	if (type < PEO_PERFDATA_COUNT_TYPES)
		w->by_type[type] += (uint64_t)(int64_t)sign;
}

uint64_t peo_perfdata_writer_given_size(const struct peo_perfdata_writer *w)
{
	return w ? w->given : 0;
}

uint64_t peo_perfdata_writer_count(const struct peo_perfdata_writer *w, uint32_t type)
{
	if (!w)
		return 0;
	if (type == PEO_PERFDATA_ALL_TYPES)
		return w->total;
	return type < PEO_PERFDATA_COUNT_TYPES ? w->by_type[type] : 0;
}

int peo_perfdata_writer_finished_round(struct peo_perfdata_writer *w)
{
	const struct peo_event_header h = { PEO_RECORD_FINISHED_ROUND, 0, sizeof(h) };
	int err;

	if (!w)
		return peo_fail(EINVAL, "peo_perfdata_writer_finished_round: argument 'w' is NULL");
	if (w->finished)
		return peo_fail(EBUSY, "perf.data writer: %s is finished; no more records go in",
				w->path);
	if ((err = start_data(w)))
		return err;
	if ((err = pd_writer_append(w, &h, sizeof(h)))) /* never compressed: perf sorts by it */
		return err;
	pd_writer_counted(w, h.type, sizeof(h), 1);
	if (w->pipe) /* a stream goes out round by round: its reader sees each as it ends */
		return flush(w);
	/* A file gets each round as it ends: a recorder killed leaves what it read. */
	return w->pipe ? 0 : flush(w);
}

int peo_perfdata_writer_flush(struct peo_perfdata_writer *w)
{
	int err;

	if (!w)
		return peo_fail(EINVAL, "peo_perfdata_writer_flush: argument 'w' is NULL");
	if (!w->data_started || w->err)
		return w->err; /* said when it failed */
	if ((err = flush(w)) && !w->pipe)
		peo_fail_append("; %s keeps the %llu bytes of whole records written before it", w->path,
				(unsigned long long)(w->pos - w->data_offset));
	return err;
}

int peo_perfdata_writer_compress(struct peo_perfdata_writer *w, int level, size_t ring_bytes,
				 uint32_t record_type)
{
	int err;

	if (!w)
		return peo_fail(EINVAL, "peo_perfdata_writer_compress: argument 'w' is NULL");
	if (record_type && record_type != PEO_RECORD_COMPRESSED &&
	    record_type != PEO_RECORD_COMPRESSED2)
		return peo_fail(EINVAL, "peo_perfdata_writer_compress: argument 'record_type' is "
				"%u; use PEO_RECORD_COMPRESSED (81) or PEO_RECORD_COMPRESSED2 (83)",
				record_type);
	if (w->z)
		return 0;
	err = pd_deflate_new(&w->z, level, ring_bytes,
			     record_type ? record_type : PEO_RECORD_COMPRESSED);
	if (err || !w->pipe)
		return err;
	/* A stream's reader sizes its buffers from COMPRESSED before the first
	 * COMPRESSED record: the feature goes now, with ratio 0, as perf sends it. */
	err = pd_deflate_finish(w, w->z);
	if (!err && w->data_started)
		err = send_features(w);
	if (err) {
		pd_deflate_free(w->z);
		w->z = NULL;
	}
	return err;
}

int peo_perfdata_writer_feature(struct peo_perfdata_writer *w, unsigned bit, const void *bytes,
				size_t size)
{
	void *copy;

	if (!w || (!bytes && size))
		return peo_fail(EINVAL, "peo_perfdata_writer_feature: argument '%s' is NULL",
				w ? "bytes" : "w");
	if (bit == 0 || bit >= PEO_FEAT_MAX)
		return peo_fail(EINVAL, "perf.data writer: feature bit %u is not 1 to %d", bit,
				PEO_FEAT_MAX - 1);
	copy = malloc(size ? size : 1);
	if (!copy)
		return peo_fail(ENOMEM, "out of memory for feature %u (%zu bytes)", bit, size);
	if (size)
		memcpy(copy, bytes, size);
	free(w->feature[bit]);
	w->feature[bit] = copy;
	w->feature_size[bit] = size;
	return 0;
}

const struct pd_event *pd_writer_events(const struct peo_perfdata_writer *w, size_t *n)
{
	*n = w->nevents;
	return w->events;
}

int peo_perfdata_writer_build_ids(struct peo_perfdata_writer *w)
{
	if (!w)
		return peo_fail(EINVAL, "peo_perfdata_writer_build_ids: argument 'w' is NULL");
	if (w->data_started)
		return peo_fail(EBUSY, "perf.data writer: build ids are tracked from the first "
				"record: ask before writing any");
	w->want_build_ids = 1;
	return 0;
}

uint64_t peo_perfdata_writer_data_size(const struct peo_perfdata_writer *w)
{
	return w && w->data_started ? w->pos + w->n - w->data_offset : 0;
}

/* Free everything; the file stays as it is (one from open_aside() never
 * published is removed). */
void peo_perfdata_writer_abandon(struct peo_perfdata_writer *w)
{
	if (!w)
		return;
	pd_events_free(w->events, w->nevents);
	for (unsigned bit = 0; bit < PEO_FEAT_MAX; bit++)
		free(w->feature[bit]);
	free(w->buf);
	pd_deflate_free(w->z);
	pd_hits_free(w->hits);
	if (w->own_fd >= 0)
		close(w->own_fd);
	if (w->aside && !w->unnamed) /* never published: nobody knows its name */
		unlink(w->path);
	free(w->aside);
	free(w->path);
	free(w);
}

/* EVENT_DESC from the events: u32 nr, u32 attr size; each attr, u32 nr_ids, name, ids. */
static int event_desc(struct peo_perfdata_writer *w)
{
	struct pd_bytes b = { 0 };
	int err;

	pd_bytes_u32(&b, (uint32_t)w->nevents);
	pd_bytes_u32(&b, w->attr_bytes);
	for (size_t i = 0; i < w->nevents; i++) {
		pd_bytes_put(&b, &w->events[i].attr, w->attr_bytes);
		pd_bytes_u32(&b, (uint32_t)w->events[i].nids);
		pd_bytes_string(&b, w->events[i].name ? w->events[i].name : "");
		pd_bytes_put(&b, w->events[i].ids, 8 * w->events[i].nids);
	}
	err = b.oom ? peo_fail(ENOMEM, "out of memory making EVENT_DESC")
		    : peo_perfdata_writer_feature(w, PEO_FEAT_EVENT_DESC, b.p, b.n);
	free(b.p);
	return err;
}

/* The feature index and sections after the data; *end: where they end. */
static int write_features(struct peo_perfdata_writer *w, uint64_t *end)
{
	uint64_t index_at = w->pos, at;
	size_t nfeat = 0;
	int err = 0;

	for (unsigned bit = 0; bit < PEO_FEAT_MAX; bit++)
		nfeat += w->feature[bit] != NULL;
	at = index_at + 16 * nfeat;
	for (unsigned bit = 0, k = 0; !err && bit < PEO_FEAT_MAX; bit++) {
		uint64_t section[2] = { at, w->feature_size[bit] };

		if (!w->feature[bit])
			continue;
		err = write_at(w, index_at + 16 * k++, section, 16, "the feature index");
		if (!err)
			err = write_at(w, at, w->feature[bit], w->feature_size[bit], "a feature");
		at += w->feature_size[bit];
	}
	*end = at;
	return err;
}

/*
 * Make room for the features after a failed write: back to the newest mark
 * (a flush's end, so a record's end) at least @room bytes before the end of
 * the records, those after it taken back from the counts.  Returns 1, or 0
 * when no mark is that far back (nothing changed).
 */
static int give_back(struct peo_perfdata_writer *w, uint64_t room)
{
	uint64_t to = 0, at, total = w->total, given = w->given, by_type[PEO_PERFDATA_COUNT_TYPES];

	for (size_t i = 0; i < MARKS && i < w->nmarks; i++)
		if (w->marks[i] > w->data_offset && w->marks[i] + room <= w->pos && w->marks[i] > to)
			to = w->marks[i];
	if (!to)
		return 0;
	memcpy(by_type, w->by_type, sizeof(by_type));
	for (at = to; at < w->pos;) { /* the buffer is empty after a failed flush: read into it */
		size_t want = w->pos - at < BUFFER_BYTES ? (size_t)(w->pos - at) : BUFFER_BYTES, got = 0;
		ssize_t r = 1;

		while (got < want && (r = pread(w->fd, w->buf + got, want - got, (off_t)(at + got))) > 0)
			got += (size_t)r;
		if (got < want) { /* unreadable (opened write-only): the records stay */
			w->total = total;
			w->given = given;
			memcpy(w->by_type, by_type, sizeof(by_type));
			return 0;
		}
		for (got = 0; got + 8 <= want;) {
			struct peo_event_header h;

			memcpy(&h, w->buf + got, sizeof(h));
			if (h.size < 8 || got + h.size > want)
				break;
			pd_writer_counted(w, h.type, h.type == PEO_RECORD_COMPRESSED ||
					  h.type == PEO_RECORD_COMPRESSED2 ? 0 : h.size, -1);
			got += h.size;
		}
		if (!got) /* not records: a bug, or the file changed under us */
			break;
		at += got;
	}
	w->pos = to;
	return 1;
}

/*
 * A write failed (a full disk): the features after the records that went
 * whole, giving up the newest rounds when that makes room for them (perf
 * reads -z's records only with COMPRESSED; EVENT_DESC and BUILD_ID help
 * every reader).  Returns 0 with *@end set, or the write's error.
 */
static int features_in_room(struct peo_perfdata_writer *w, uint64_t *end)
{
	uint64_t need = 0;
	int err;

	for (unsigned bit = 0; bit < PEO_FEAT_MAX; bit++)
		if (w->feature[bit])
			need += 16 + w->feature_size[bit];
	for (unsigned tries = 0;; tries++) {
		if (ftruncate(w->fd, (off_t)w->pos)) /* the torn record's blocks come back */
			return w->err;
		w->err = 0;
		if (!(err = write_features(w, end)))
			return 0;
		/* a block more each time: filesystems give space in blocks */
		if (err != -ENOSPC || tries == 6 || !give_back(w, need + (4096ull << tries)))
			return err;
	}
}

int peo_perfdata_writer_finish(struct peo_perfdata_writer *w)
{
	unsigned char h[HEADER_BYTES];
	uint64_t end = 0;
	struct stat st;
	int err, herr, ferr = 0, features_in = 0;

	if (!w)
		return peo_fail(EINVAL, "peo_perfdata_writer_finish: argument 'w' is NULL");
	if (w->finished)
		return w->finish_err;
	w->finished = 1;
	err = start_data(w);
	if (w->pipe) { /* a stream: features set late go at its end; nothing to rewrite */
		err = err ? err : send_features(w);
		return w->finish_err = err ? err : flush(w);
	}
	if (!err)
		err = flush(w);
	if (err && w->data_started) /* say what the file still holds */
		err = peo_fail(-err, "%s; %s keeps the %llu bytes of records written before it",
			       peo_last_error(), w->path, (unsigned long long)(w->pos - w->data_offset));
	if (!err || (w->data_started && w->err)) { /* made even after a failed write */
		if (!w->feature[PEO_FEAT_EVENT_DESC])
			ferr = event_desc(w);
		if (!ferr && w->z)
			ferr = pd_deflate_finish(w, w->z); /* the COMPRESSED feature, with its ratio */
		if (!ferr && w->hits)
			ferr = pd_hits_feature(w, w->hits);
		err = err ? err : ferr;
	}
	if (!err) {
		err = write_features(w, &end);
		features_in = !err;
		if (err == -ENOSPC) /* the disk filled here: as below */
			err = peo_fail(-err, "%s; %s keeps the %llu bytes of records written before it",
				       peo_last_error(), w->path,
				       (unsigned long long)(w->pos - w->data_offset));
	}
	if (err && !ferr && w->data_started && w->err && !features_in_room(w, &end))
		features_in = 1; /* err still says what failed */
	if (!features_in) { /* the header names only the records written whole */
		for (unsigned bit = 0; bit < PEO_FEAT_MAX; bit++) {
			free(w->feature[bit]);
			w->feature[bit] = NULL;
		}
		end = w->pos; /* a record torn by the failure is cut off */
	}
	/* The header last, even after a failed write: it overwrites bytes already
	 * on disk, so it needs no new space. */
	if (w->data_started) {
		fill_header(w, h, w->pos - w->data_offset);
		w->err = 0;
		herr = write_at(w, 0, h, sizeof(h), "the header");
		err = err ? err : herr;
	}
	/* a regular file's end (/dev/null has none) */
	if (w->data_started && !fstat(w->fd, &st) && S_ISREG(st.st_mode) &&
	    ftruncate(w->fd, (off_t)end) && !err)
		err = peo_fail(errno, "perf.data writer: truncating %s: %s", w->path, strerror(errno));
	return w->finish_err = err;
}

int peo_perfdata_writer_close(struct peo_perfdata_writer *w)
{
	int err, perr;

	if (!w)
		return peo_fail(EINVAL, "peo_perfdata_writer_close: argument 'w' is NULL");
	perr = peo_perfdata_writer_publish(w); /* an aside file not yet published */
	err = peo_perfdata_writer_finish(w);
	if (w->own_fd >= 0) {
		int fd = w->own_fd;

		w->own_fd = -1;
		if (close(fd) && !err)
			err = peo_fail(errno, "perf.data writer: closing %s: %s", w->path,
				       strerror(errno));
	}
	if (!err && perr) /* the file is whole, under the name it had */
		err = peo_fail(perr, "%s; the recording is whole in %s", peo_last_error(), w->path);
	peo_perfdata_writer_abandon(w);
	return err;
}
