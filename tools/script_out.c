/*
 * script_out.c - peo script's buffers written out (the formatting is inline
 * in script_out.h), or grown for a pool worker's batch.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "script_out.h"

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

void out_init(struct out *o, int fd)
{
	o->fd = fd;
	o->failed = 0;
	o->buf = o->own;
	o->n = 0;
	o->cap = sizeof(o->own);
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

int out_flush(struct out *o)
{
	if (o->fd < 0)
		return grow(o);
	if (!o->failed && o->n && out_write_all(o->fd, o->buf, o->n))
		o->failed = errno;
	o->n = 0;
	return o->failed ? -1 : 0;
}

int out_finish(struct out *o)
{
	out_flush(o);
	if (!o->failed)
		return 0;
	errno = o->failed;
	return -1;
}
