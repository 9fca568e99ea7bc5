/*
 * script_out.h - peo script's output buffer: numbers formatted by hand and
 * written to the fd in large blocks (printf's format parsing was a third of
 * peo script's time), by a writer thread when one is started (the copy into
 * the page cache was another quarter).
 */
#ifndef PEO_TOOLS_SCRIPT_OUT_H
#define PEO_TOOLS_SCRIPT_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct out_writer; /* script_out.c */

struct out {
	int fd;
	int failed;   /* a write failed (EPIPE...): stop writing, report once */
	char *buf;    /* the buffer being filled: n of cap bytes used */
	size_t n, cap;
	struct out_writer *w; /* the thread writing full buffers, or NULL */
	char own[1 << 16];    /* the buffer when there is no writer thread */
};

/* Start buffering for @fd, written by this thread. */
void out_init(struct out *o, int fd);

/*
 * Hand full buffers to a thread that writes them, so formatting goes on
 * while the kernel copies.  Returns 0, or -1 (then this thread writes).
 */
int out_start_writer(struct out *o);

/* Write (or hand over) what is buffered.  Returns 0, or -1 once a write has failed. */
int out_flush(struct out *o);

/* Flush, wait for the writer thread and stop it.  Returns 0, or -1 when a write failed. */
int out_finish(struct out *o);

/* Make room for @need more bytes. */
static inline char *out_room(struct out *o, size_t need)
{
	if (o->cap - o->n < need)
		out_flush(o);
	return o->buf + o->n;
}

/* Inline: a line is a dozen of these calls, a million lines a second. */

static inline void out_char(struct out *o, char c)
{
	*out_room(o, 1) = c;
	o->n++;
}

/* Spaces to fill @width around @len characters, and where they go. */
static inline size_t out_pad_of(int width, int len)
{
	int w = width < 0 ? -width : width;

	return w > len ? (size_t)(w - len) : 0;
}

/*
 * A field of @len characters padded to |@width| (spaces left of it when
 * @width > 0, right of it when < 0): out_field() makes room, writes the
 * left padding and returns where the characters go; out_field_end() takes
 * the end of those characters, writes the right padding and counts it all.
 * Byte loops: these runs are a few bytes, shorter than a call to memcpy
 * (the musl build keeps them loops: -fno-tree-loop-distribute-patterns).
 */
static inline char *out_field(struct out *o, size_t len, int width)
{
	size_t pad = out_pad_of(width, (int)len);
	char *p = out_room(o, len + pad);

	if (width > 0)
		for (size_t i = 0; i < pad; i++)
			*p++ = ' ';
	return p;
}

static inline void out_field_end(struct out *o, char *end, size_t len, int width)
{
	size_t pad = out_pad_of(width, (int)len);

	if (width < 0)
		for (size_t i = 0; i < pad; i++)
			*end++ = ' ';
	o->n += len + pad;
}

/* Pad with spaces to |@width| around @len bytes at @s, left of them when @width > 0. */
static inline void out_padded(struct out *o, const char *s, size_t len, int width)
{
	char *p = out_field(o, len, width);

	for (size_t i = 0; i < len; i++)
		*p++ = s[i];
	out_field_end(o, p, len, width);
}

/* @len bytes at @s, copied a word at a time (labels of a few dozen bytes:
 * a call to a small libc's memcpy would cost as much as the copy). */
static inline void out_bytes(struct out *o, const char *s, size_t len)
{
	char *p;
	size_t i = 0;

	if (len > o->cap / 2) { /* more than the buffer holds at once */
		for (; i < len; i++)
			out_char(o, s[i]);
		return;
	}
	p = out_room(o, len);
	for (; i + 8 <= len; i += 8)
		memcpy(p + i, s + i, 8);
	for (; i < len; i++)
		p[i] = s[i];
	o->n += len;
}

static inline void out_str(struct out *o, const char *s)
{
	size_t len = 0;

	while (s[len])
		len++;
	if (len > o->cap / 2) {
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

/* The number of decimal digits of @v (1 for 0). */
static inline int out_dec_digits(uint64_t v)
{
	int n = 1;

	for (; v >= 10000; v /= 10000)
		n += 4;
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* @digits (at most 8) decimal digits of @v written backwards ending at
 * @end, two at a time from a table: half the divisions of one at a time. */
static inline void out_dec32_at(char *end, uint32_t v, int digits)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";

	for (; digits >= 2; digits -= 2, v /= 100) {
		const char *d = pairs + 2 * (v % 100);

		*--end = d[1];
		*--end = d[0];
	}
	if (digits)
		*--end = (char)('0' + v % 10);
}

/* @digits decimal digits of @v ending at @end: eight at a time in 32-bit
 * arithmetic, cheaper than a chain of 64-bit divisions. */
static inline void out_dec_at(char *end, uint64_t v, int digits)
{
	for (; digits > 8; digits -= 8, end -= 8, v /= 100000000u)
		out_dec32_at(end, (uint32_t)(v % 100000000u), 8);
	out_dec32_at(end, (uint32_t)v, digits);
}

/* Decimal, right-aligned in @width (negative @width: left-aligned).
 * Digits go straight into the buffer: no copy from a scratch string. */
static inline void out_u64(struct out *o, uint64_t v, int width)
{
	int len = out_dec_digits(v);
	char *p = out_field(o, (size_t)len, width);

	out_dec_at(p + len, v, len);
	out_field_end(o, p + len, (size_t)len, width);
}

/* Signed decimal, right-aligned in @width (negative @width: left-aligned). */
static inline void out_i64(struct out *o, int64_t v, int width)
{
	uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	int digits = out_dec_digits(mag), len = digits + (v < 0);
	char *p = out_field(o, (size_t)len, width);

	if (v < 0)
		*p++ = '-';
	out_dec_at(p + digits, mag, digits);
	out_field_end(o, p + digits, (size_t)len, width);
}

/* Lower-case hex, no 0x, right-aligned in @width. */
static inline void out_hex(struct out *o, uint64_t v, int width)
{
	int len = v ? (67 - __builtin_clzll(v)) / 4 : 1;
	char *p = out_field(o, (size_t)len, width);

	for (int i = len - 1; i >= 0; i--, v >>= 4)
		p[i] = "0123456789abcdef"[v & 15];
	out_field_end(o, p + len, (size_t)len, width);
}

/* Zero-padded decimal of exactly @digits digits (the fraction of a time). */
static inline void out_u64_zero(struct out *o, uint64_t v, int digits)
{
	char *p = out_room(o, (size_t)digits);

	out_dec_at(p + digits, v, digits);
	o->n += (size_t)digits;
}

#endif
