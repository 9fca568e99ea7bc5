/*
 * script_out.h - peo script's output buffer: numbers formatted by hand and
 * written to the fd in large blocks (printf's format parsing was a third of
 * peo script's time).
 */
#ifndef PEO_TOOLS_SCRIPT_OUT_H
#define PEO_TOOLS_SCRIPT_OUT_H

#include <stddef.h>
#include <stdint.h>

struct out {
	int fd;
	int failed; /* a write failed (EPIPE...): stop writing, report once */
	size_t n;
	char buf[1 << 16];
};

/* Write what is buffered.  Returns 0, or -1 once a write has failed. */
int out_flush(struct out *o);

/* Make room for @need more bytes. */
static inline char *out_room(struct out *o, size_t need)
{
	if (sizeof(o->buf) - o->n < need)
		out_flush(o);
	return o->buf + o->n;
}

/* Inline: a line is a dozen of these calls, a million lines a second. */

static inline void out_char(struct out *o, char c)
{
	*out_room(o, 1) = c;
	o->n++;
}

/* Pad with spaces to |@width| around @len bytes at @s, left of them when @width > 0. */
static inline void out_padded(struct out *o, const char *s, size_t len, int width)
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

static inline void out_str(struct out *o, const char *s)
{
	size_t len = 0;

	while (s[len])
		len++;
	if (len > sizeof(o->buf) / 2) {
		while (*s)
			out_char(o, *s++);
		return;
	}
	out_padded(o, s, len, 0);
}

/* @s right-aligned in @width columns (longer strings are not cut). */
static inline void out_str_right(struct out *o, const char *s, int width)
{
	size_t len = 0;

	while (s[len])
		len++;
	out_padded(o, s, len, width);
}

/* Decimal, right-aligned in @width (negative @width: left-aligned). */
static inline void out_u64(struct out *o, uint64_t v, int width)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	out_padded(o, p, (size_t)(tmp + sizeof(tmp) - p), width);
}

/* Lower-case hex, no 0x, right-aligned in @width. */
static inline void out_hex(struct out *o, uint64_t v, int width)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	do
		*--p = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	out_padded(o, p, (size_t)(tmp + sizeof(tmp) - p), width);
}

/* Zero-padded decimal of exactly @digits digits (the fraction of a time). */
static inline void out_u64_zero(struct out *o, uint64_t v, int digits)
{
	char *p = out_room(o, (size_t)digits);

	for (int i = digits - 1; i >= 0; i--, v /= 10)
		p[i] = (char)('0' + v % 10);
	o->n += (size_t)digits;
}

#endif
