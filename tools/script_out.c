/*
 * script_out.c - writing peo script's buffers out (the formatting is inline
 * in script_out.h): by this thread, or by a writer thread (a script_pipe
 * whose work is write(2)) that takes each full buffer while this one fills
 * the next.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "script_out.h"
#include "script_pipe.h"

struct out_writer {
	struct script_pipe *pipe;
	int fd;
	int failed; /* a write failed with this errno: set by the writer thread, read atomically */
};

int out_write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w == 0)
			errno = EIO; /* a write that takes nothing would loop forever */
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The writer thread's work: one full buffer, unless a write failed before. */
static void write_batch(void *ctx, const unsigned char *bytes, size_t n)
{
	struct out_writer *w = ctx;

	if (!__atomic_load_n(&w->failed, __ATOMIC_RELAXED) && out_write_all(w->fd, (const char *)bytes, n))
		__atomic_store_n(&w->failed, errno, __ATOMIC_RELAXED);
}

void out_init(struct out *o, int fd)
{
	o->fd = fd;
	o->failed = 0;
	o->buf = o->own;
	o->n = 0;
	o->cap = sizeof(o->own);
	o->w = NULL;
}

int out_init_growing(struct out *o, size_t cap)
{
	out_init(o, -1);
	o->buf = malloc(cap);
	if (!o->buf) {
		o->buf = o->own;
		return -1;
	}
	o->cap = cap;
	return 0;
}

void out_free_growing(struct out *o)
{
	if (o->buf != o->own)
		free(o->buf);
	o->buf = o->own;
}

/* Twice the room for a growing buffer; on failure its text is dropped (failed says so). */
static int grow(struct out *o)
{
	char *more = o->failed ? NULL : realloc(o->buf, o->cap * 2);

	if (!more) {
		o->failed = ENOMEM;
		o->n = 0;
		return -1;
	}
	o->buf = more;
	o->cap *= 2;
	return 0;
}

int out_start_writer(struct out *o)
{
	struct out_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return -1;
	w->fd = o->fd;
	if (script_pipe_start(&w->pipe, write_batch, w)) {
		free(w);
		return -1;
	}
	out_flush(o); /* what this thread buffered goes first */
	o->w = w;
	o->buf = (char *)script_pipe_next_batch(w->pipe, 0, &o->cap);
	return 0;
}

int out_flush(struct out *o)
{
	struct out_writer *w = o->w;

	if (o->fd < 0)
		return grow(o);
	if (!w) {
		if (!o->failed && o->n && out_write_all(o->fd, o->buf, o->n))
			o->failed = errno;
	} else {
		if (o->n)
			o->buf = (char *)script_pipe_next_batch(w->pipe, o->n, &o->cap);
		o->failed = __atomic_load_n(&w->failed, __ATOMIC_RELAXED);
	}
	o->n = 0;
	return o->failed ? -1 : 0;
}

int out_finish(struct out *o)
{
	struct out_writer *w = o->w;
	int failed;

	out_flush(o);
	if (w) {
		script_pipe_finish(w->pipe); /* every buffer written, the thread joined */
		failed = w->failed;
		free(w);
		out_init(o, o->fd); /* this thread's own buffer from here */
		o->failed = failed;
	}
	if (!o->failed)
		return 0;
	errno = o->failed;
	return -1;
}
