/*
 * script/out.c - peo script's buffers written out (the formatting is inline
 * in script/out.h), or grown for a pool worker's batch.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "script/out.h"

int out_write_all(int fd, const char *p, size_t n, off_t at)
{
	while (n) {
		ssize_t w = at < 0 ? write(fd, p, n) : pwrite(fd, p, n, at);

		if (w < 0 && errno == EINTR)
			continue;
		if (w == 0)
			errno = EIO; /* a write that takes nothing would loop forever */
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
		if (at >= 0)
			at += w;
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
	o->writes = 0;
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
	if (!o->failed && o->n && out_write_all(o->fd, o->buf, o->n, -1))
		o->failed = errno;
	o->n = 0;
	o->writes++;
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

/* The length of the well-formed UTF-8 sequence at @s (@avail bytes
 * there), or 0 (a lone byte of 0x80 and up, an overlong or surrogate form). */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf; /* the second byte's range */
	size_t n;

	if (c < 0xc2 || c > 0xf4)
		return 0;
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (avail < n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/*
 * The characters of a JSON string from the first @len of the @avail bytes
 * at @s, escaped, without the quotes: '"' and '\\', control characters
 * and bytes that are not UTF-8 (JSON is UTF-8 text; a comm or a path can
 * be any bytes) as \u00XX, the byte's value.  A sequence that starts
 * before @len is taken whole.  Returns the end; the bytes taken in *@took.
 */
static char *put_json_chars(char *p, const unsigned char *s, size_t len, size_t avail,
			    size_t *took)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, k;

	while (i < len) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			*p++ = '\\';
			*p++ = (char)c;
		} else if (c >= 0x20 && c < 0x80) {
			*p++ = (char)c;
		} else if (c >= 0x80 && (k = utf8_len(s + i, avail - i))) {
			memcpy(p, s + i, k);
			p += k;
			i += k;
			continue;
		} else {
			memcpy(p, "\\u00", 4);
			p[4] = hex[c >> 4];
			p[5] = hex[c & 15];
			p += 6;
		}
		i++;
	}
	*took = i;
	return p;
}

char *put_json_string(char *p, const char *s, size_t len)
{
	size_t took;

	return put_quote(put_json_chars(put_quote(p), (const unsigned char *)s, len, len, &took));
}

void out_json_string(struct out *o, const char *s, size_t len)
{
	/* a piece whose escaped form (and a sequence begun in it) fits the room out_room() makes */
	size_t piece = o->cap / 12 ? o->cap / 12 : 1, took;

	out_char(o, '"');
	for (size_t at = 0; at < len; at += took) {
		size_t n = len - at < piece ? len - at : piece;

		out_advance(o, put_json_chars(out_room(o, 6 * n + 3), (const unsigned char *)s + at,
					      n, len - at, &took));
	}
	out_char(o, '"');
}
