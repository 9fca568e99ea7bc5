/*
 * source.h - the bytes of a perf.data file or stream, the bottom of the
 * reader: a file's bytes at any offset (pread), and its data section in
 * order through a window (read into a buffer, a mapped window, or the
 * section mapped whole with page tables filled ahead of the reader and
 * dropped behind it); a pipe's bytes in order, what is consumed dropped.
 * It knows nothing of records: the record stream above it asks for the
 * next N bytes and steps past them.
 */
#ifndef PEO_PERFDATA_SOURCE_H
#define PEO_PERFDATA_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14; older kernels say EINVAL and fault instead */
#endif
/* A data section mapped whole: page tables filled a step at a time ahead of
 * the reader, pages dropped a step at a time behind the oldest byte in use. */
#define POPULATE_STEP (4u << 20)
#define RELEASE_STEP (4u << 20)

/* The least read window: the largest record (64 KiB) and its neighbour. */
#define PEO_PD_MIN_WINDOW (128u << 10)

/* pd_source_fill()'s answer when the end cuts the bytes asked for. */
#define PD_SOURCE_CUT 2

struct pd_ahead; /* readahead.c */

struct pd_source {
	int fd;
	int sequential; /* read(), not pread(): a pipe or terminal */
	uint64_t pos;   /* the next byte's offset */
	uint64_t end;   /* the data's end (a file's; a stream ends when read() says so) */
	/* The window: win[0, len) holds the bytes from buf_pos; win is buf (read
	 * or pread into it) or points into map (a mapped window or section). */
	unsigned char *win;
	uint64_t buf_pos;
	size_t len;
	size_t window;                /* the window's size */
	unsigned char *buf;           /* had when first needed */
	void *map;
	size_t map_len;
	int map_whole;                /* map the data section whole when possible */
	int whole;                    /* map is the whole data section (64-bit) */
	uint64_t populated, released; /* its page tables are filled to, dropped below */
	uint64_t advance_at;          /* the offset at which to do both again */
	int readahead_thread;         /* fill them from a helper thread */
	struct pd_ahead *ahead;       /* that thread, or NULL */
};

/*
 * A source over @fd (not owned): @sequential for a pipe; a window of
 * @window bytes (at least PEO_PD_MIN_WINDOW); @map_whole maps a file's data
 * section whole where it can, @readahead_thread then fills its page tables
 * from a helper thread.  pos and end are the caller's to set.
 */
PEO_HIDDEN void pd_source_init(struct pd_source *s, int fd, int sequential, size_t window,
			       int map_whole, int readahead_thread);
/* Its buffer, mapping and helper thread go; the fd stays. */
PEO_HIDDEN void pd_source_fini(struct pd_source *s);

/* Read exactly @n bytes at @off (a file) or next (a pipe) into @buf,
 * outside the window; @what names them in an error.  0, -EIO or -EPROTO
 * (the file ends first). */
PEO_HIDDEN int pd_source_read_at(struct pd_source *s, uint64_t off, void *buf, size_t n,
				 const char *what);

/*
 * Make the window hold [pos, pos + @need).  Returns 1; 0 at a clean end (a
 * pipe with nothing left); PD_SOURCE_CUT when the end comes first, with
 * the bytes there in *@have; -EPROTO when @need is over the window (@what
 * names the bytes), -ENOMEM, -EIO.
 */
PEO_HIDDEN int pd_source_fill(struct pd_source *s, size_t need, const char *what, uint64_t *have);

/* Whether the window holds [pos, pos + @need): most calls, without pd_source_fill(). */
static inline int pd_source_holds(const struct pd_source *s, size_t need)
{
	return s->pos >= s->buf_pos && s->pos - s->buf_pos + need <= s->len;
}

/* The bytes at pos (pd_source_holds() says how many are there). */
static inline const unsigned char *pd_source_at(const struct pd_source *s)
{
	return s->win + (s->pos - s->buf_pos);
}

/* Whether the bytes held stay where they are (the section is mapped whole)
 * until pd_source_advance() drops them. */
static inline int pd_source_stable(const struct pd_source *s)
{
	return s->whole;
}

/* Whether pd_source_advance() is due: a quarter step past the last. */
static inline int pd_source_due(const struct pd_source *s)
{
	return s->whole && s->pos >= s->advance_at;
}

/* A section mapped whole: page tables filled ahead of pos (by the helper
 * thread when there is one), pages wholly before @keep (the oldest byte
 * still in use) dropped. */
PEO_HIDDEN void pd_source_advance(struct pd_source *s, uint64_t keep);

/* Step @n bytes past pos, copying them to @dst when it is not NULL
 * (@what names them in an error).  0, or -EPROTO when the end comes first. */
PEO_HIDDEN int pd_source_pass(struct pd_source *s, uint64_t n, const char *what,
			      unsigned char *dst);

/*
 * The pages of the mapping that may be dropped: once @keep (the oldest
 * byte still in use) is more than @slack past *@released, the span from
 * *@released to @keep's page, whose start goes in *@from; *@released moves
 * to its end.  Returns its length, 0 while nothing is due.  The caller
 * drops it (madvise MADV_DONTNEED), outside any lock.
 */
static inline uint64_t pd_release_span(uint64_t *released, uint64_t keep, uint64_t page,
				       uint64_t slack, uint64_t *from)
{
	if (keep <= *released + slack)
		return 0;
	*from = *released;
	*released = keep - keep % page;
	return *released - *from;
}

/* readahead.c: the helper thread filling page tables ahead of the reader.
 * Start it (s->ahead) over s->map; without memory or a thread there is
 * none, and the reader populates as it goes. */
PEO_HIDDEN void pd_ahead_start(struct pd_source *s);
/* The reader is at @reader; pages wholly below @keep (offsets in the mapping) may go. */
PEO_HIDDEN void pd_ahead_tell(struct pd_ahead *a, size_t reader, size_t keep);
PEO_HIDDEN void pd_ahead_stop(struct pd_source *s);

#endif
