/*
 * script_out.c - hand-formatted numbers into a block buffer.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "script_out.h"

int out_flush(struct out *o)
{
	size_t done = 0;

	while (!o->failed && done < o->n) {
		ssize_t w = write(o->fd, o->buf + done, o->n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			o->failed = 1;
		else
			done += (size_t)w;
	}
	o->n = 0;
	return o->failed ? -1 : 0;
}

void out_str(struct out *o, const char *s)
{
	while (*s) {
		char *p = out_room(o, 64);
		size_t i = 0;

		while (i < 64 && s[i]) {
			p[i] = s[i];
			i++;
		}
		o->n += i;
		s += i;
	}
}

void out_char(struct out *o, char c)
{
	*out_room(o, 1) = c;
	o->n++;
}

/* Pad with spaces to @width around @len bytes at @s, on the left when right-aligned. */
static void padded(struct out *o, const char *s, size_t len, int width)
{
	size_t w = (size_t)(width < 0 ? -width : width), pad = w > len ? w - len : 0;
	char *p = out_room(o, len + pad);

	/* Byte loops: these runs are a few bytes, shorter than a call to memcpy. */
	if (width > 0)
		for (size_t i = 0; i < pad; i++)
			*p++ = ' ';
	for (size_t i = 0; i < len; i++)
		*p++ = s[i];
	if (width < 0)
		for (size_t i = 0; i < pad; i++)
			*p++ = ' ';
	o->n += len + pad;
}

void out_str_right(struct out *o, const char *s, int width)
{
	padded(o, s, strlen(s), width);
}

void out_u64(struct out *o, uint64_t v, int width)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	padded(o, p, (size_t)(tmp + sizeof(tmp) - p), width);
}

void out_hex(struct out *o, uint64_t v, int width)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[24], *p = tmp + sizeof(tmp);

	do
		*--p = digits[v & 15];
	while (v >>= 4);
	padded(o, p, (size_t)(tmp + sizeof(tmp) - p), width);
}

void out_u64_zero(struct out *o, uint64_t v, int digits)
{
	char *p = out_room(o, (size_t)digits);

	for (int i = digits - 1; i >= 0; i--, v /= 10)
		p[i] = (char)('0' + v % 10);
	o->n += (size_t)digits;
}
