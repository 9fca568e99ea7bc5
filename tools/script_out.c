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

int out_pwrite_all(int fd, const char *p, size_t n, off_t at)
{
	while (n) {
		ssize_t w = pwrite(fd, p, n, at);

		if (w < 0 && errno == EINTR)
			continue;
		if (w == 0)
			errno = EIO;
		if (w <= 0)
			return -1;
		p += w;
		at += w;
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

/* The characters of a JSON string, escaped, without the quotes. */
static char *put_json_chars(char *p, const unsigned char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			*p++ = '\\';
			*p++ = (char)c;
		} else if (c < 0x20) {
			memcpy(p, "\\u00", 4);
			p[4] = hex[c >> 4];
			p[5] = hex[c & 15];
			p += 6;
		} else {
			*p++ = (char)c;
		}
	}
	return p;
}

char *put_json_string(char *p, const char *s, size_t len)
{
	return put_quote(put_json_chars(put_quote(p), (const unsigned char *)s, len));
}

void out_json_string(struct out *o, const char *s, size_t len)
{
	/* a piece whose escaped form fits the room out_room() can make */
	size_t piece = o->cap / 12 ? o->cap / 12 : 1;

	out_char(o, '"');
	for (size_t at = 0; at < len; at += piece) {
		size_t n = len - at < piece ? len - at : piece;

		out_advance(o, put_json_chars(out_room(o, 6 * n), (const unsigned char *)s + at, n));
	}
	out_char(o, '"');
}
