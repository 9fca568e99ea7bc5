/*
 * source.c - the bytes of a perf.data file or stream through a window
 * (source.h): pread() or read() into a buffer, a mapped window, or the
 * data section mapped whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfdata/source.h"

void pd_source_init(struct pd_source *s, int fd, int sequential, size_t window, int map_whole,
		    int readahead_thread)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->sequential = sequential;
	s->window = window < PEO_PD_MIN_WINDOW ? PEO_PD_MIN_WINDOW : window;
	s->map_whole = map_whole;
	s->readahead_thread = readahead_thread;
}

void pd_source_fini(struct pd_source *s)
{
	free(s->buf);
	s->buf = NULL;
	pd_ahead_stop(s); /* before the mapping it reads goes */
	if (s->map)
		munmap(s->map, s->map_len);
	s->map = NULL;
}

int pd_source_read_at(struct pd_source *s, uint64_t off, void *buf, size_t n, const char *what)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = s->sequential ? read(s->fd, (char *)buf + got, n - got)
				    : pread(s->fd, (char *)buf + got, n - got, (off_t)(off + got));

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

/*
 * The whole data section as one mapping (64-bit): records and held ones
 * point into it and are never copied.  Memory stays bounded because pages
 * are populated only a step ahead of the reader (one madvise, cheaper than
 * a fault per 16 pages) and dropped behind the oldest byte still in use.
 * 0 when it cannot be mapped (then windows or pread do it).
 */
static int map_whole(struct pd_source *s)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), lead = (size_t)(s->pos % page);
	uint64_t want = s->end - s->pos;
	void *m;

	if (s->whole || !s->map_whole || sizeof(size_t) < 8 || !want || want > SIZE_MAX - lead)
		return s->whole;
	m = mmap(NULL, lead + (size_t)want, PROT_READ, MAP_PRIVATE, s->fd, (off_t)(s->pos - lead));
	if (m == MAP_FAILED)
		return 0;
	s->map = m;
	s->map_len = lead + (size_t)want;
	s->win = (unsigned char *)m + lead;
	s->buf_pos = s->pos;
	s->len = (size_t)want;
	s->whole = 1;
	s->populated = s->released = s->pos - lead;
	s->advance_at = s->pos;
	if (s->readahead_thread)
		pd_ahead_start(s); /* without it the reader populates as it goes */
	return 1;
}

void pd_source_advance(struct pd_source *s, uint64_t keep)
{
	uint64_t pos = s->pos;
	uint64_t base = s->buf_pos - (uint64_t)((unsigned char *)s->win - (unsigned char *)s->map);
	uint64_t map_end = base + s->map_len, from, drop;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (s->ahead) {
		pd_ahead_tell(s->ahead, (size_t)(pos - base), (size_t)(keep - base));
		s->advance_at = pos + POPULATE_STEP / 4;
		return;
	}
	if (pos + POPULATE_STEP / 2 > s->populated && s->populated < map_end) {
		uint64_t n = map_end - s->populated < POPULATE_STEP ? map_end - s->populated
								     : POPULATE_STEP;

		madvise((char *)s->map + (s->populated - base), (size_t)n, MADV_POPULATE_READ);
		s->populated += n; /* page-aligned: it starts at base and steps in pages */
	}
	drop = pd_release_span(&s->released, keep, page, RELEASE_STEP, &from);
	if (drop)
		madvise((char *)s->map + (from - base), (size_t)drop, MADV_DONTNEED);
	s->advance_at = pos + POPULATE_STEP / 4;
}

/*
 * A file's next @want bytes from s->pos as a mapping instead of a copy
 * (where the whole section cannot be mapped): the pages come straight from
 * the page cache, and the window before is unmapped, so memory stays at
 * one window.  0 when mmap is refused (then pread does it).
 */
static int map_window(struct pd_source *s, size_t want)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), lead = (size_t)(s->pos % page);
	void *m;

	if (map_whole(s))
		return 1;
	if (s->map)
		munmap(s->map, s->map_len);
	s->map = NULL;
	m = mmap(NULL, lead + want, PROT_READ, MAP_PRIVATE | MAP_POPULATE, s->fd,
		 (off_t)(s->pos - lead));
	if (m == MAP_FAILED)
		return 0;
	s->map = m;
	s->map_len = lead + want;
	s->win = (unsigned char *)m + lead;
	s->buf_pos = s->pos;
	s->len = want;
	return 1;
}

/*
 * The buffer reads go into, had when first needed (a mapped file never
 * needs it): the window's size, else as much as can be had down to the
 * least window (the largest record and its neighbour), which becomes the
 * window.  0, or -ENOMEM.
 */
static int have_buffer(struct pd_source *s)
{
	size_t want = s->window;

	while (!s->buf) {
		s->buf = malloc(want);
		if (s->buf)
			s->window = want;
		else if (want <= PEO_PD_MIN_WINDOW)
			return peo_fail(ENOMEM, "out of memory for a read window (%zu bytes, and down "
					"to %u)", s->window, PEO_PD_MIN_WINDOW);
		else
			want = want / 2 < PEO_PD_MIN_WINDOW ? PEO_PD_MIN_WINDOW : want / 2;
	}
	return 0;
}

int pd_source_fill(struct pd_source *s, size_t need, const char *what, uint64_t *have)
{
	size_t keep, room;
	int err;

	if (s->pos >= s->buf_pos && s->pos - s->buf_pos <= s->len &&
	    s->len - (s->pos - s->buf_pos) >= need)
		return 1;
	if (need > s->window)
		return peo_fail(EPROTO, "perf.data: %s at offset %llu needs %zu bytes, more than the "
				"%zu-byte read window", what, (unsigned long long)s->pos, need,
				s->window);
	if (!s->sequential) {
		uint64_t left = s->end - s->pos;
		size_t want = left < s->window ? (size_t)left : s->window;

		if (want < need) {
			*have = left;
			return PD_SOURCE_CUT;
		}
		if (map_window(s, want))
			return 1;
		if ((err = have_buffer(s)))
			return err;
		want = left < s->window ? (size_t)left : s->window; /* the window may be less now */
		err = pd_source_read_at(s, s->pos, s->buf, want, "the data section");
		if (err)
			return err;
		s->win = s->buf;
		s->buf_pos = s->pos;
		s->len = want;
		return 1;
	}
	/* Pipe: keep the unread tail, then read until there is enough. */
	if ((err = have_buffer(s)))
		return err;
	if (need > s->window) /* a window cut down for want of memory */
		return peo_fail(ENOMEM, "out of memory for a read window of %zu bytes for %s at "
				"offset %llu", need, what, (unsigned long long)s->pos);
	keep = s->pos - s->buf_pos <= s->len ? s->len - (size_t)(s->pos - s->buf_pos) : 0;
	memmove(s->buf, s->buf + (s->len - keep), keep);
	s->win = s->buf;
	s->buf_pos = s->pos;
	s->len = keep;
	while (s->len < need) {
		ssize_t r;

		room = s->window - s->len;
		r = read(s->fd, s->buf + s->len, room);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return peo_fail(EIO, "perf.data: reading the stream at offset %llu: %s",
					(unsigned long long)(s->buf_pos + s->len), strerror(errno));
		if (r == 0 && s->len)
			*have = s->len;
		if (r == 0)
			return s->len ? PD_SOURCE_CUT : 0;
		s->len += (size_t)r;
	}
	return 1;
}

int pd_source_pass(struct pd_source *s, uint64_t n, const char *what, unsigned char *dst)
{
	while (s->sequential && n) {
		size_t have = s->len - (size_t)(s->pos - s->buf_pos);
		size_t step = n < have ? (size_t)n : have;
		uint64_t cut;
		int r;

		if (dst) {
			memcpy(dst, s->win + (s->pos - s->buf_pos), step);
			dst += step;
		}
		s->pos += step;
		n -= step;
		if (!n)
			break;
		r = pd_source_fill(s, 1, what, &cut);
		if (r != 1) /* a byte asked for: never cut, only ended */
			return r < 0 ? r : peo_fail(EPROTO, "perf.data: the stream ends inside %s", what);
	}
	if (!s->sequential) {
		int err;

		if (n > s->end - s->pos)
			return peo_fail(EPROTO, "perf.data: %s of %llu bytes at offset %llu runs past the "
					"data section's end", what, (unsigned long long)n,
					(unsigned long long)s->pos);
		if (dst && (err = pd_source_read_at(s, s->pos, dst, (size_t)n, what)))
			return err;
		s->pos += n;
	}
	return 0;
}
