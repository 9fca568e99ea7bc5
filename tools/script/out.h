/*
 * script/out.h - peo script's output buffer: numbers formatted by hand and
 * written to the fd in large blocks (printf's format parsing was a third of
 * peo script's time); a pool worker's buffer grows instead, and the pool's
 * writer thread writes it (the copy into the page cache was another quarter).
 */
#ifndef PEO_TOOLS_SCRIPT_OUT_H
#define PEO_TOOLS_SCRIPT_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

struct out {
	int fd;
	int failed;   /* a write failed with this errno (EPIPE...): stop writing, report once */
	char *buf;    /* the buffer being filled: n of cap bytes used */
	size_t n, cap;
	unsigned long writes; /* times what was buffered went to the fd: bytes before n moved on */
	char own[1 << 18];    /* the buffer, unless it grows */
};

/* Start buffering for @fd, written by this thread. */
void out_init(struct out *o, int fd);

/*
 * A buffer of @cap bytes that grows instead of being written (a batch's
 * text, written by someone else in order).  Returns 0, or -1 (memory).
 * When it cannot grow, what it held is dropped and failed is set.
 */
int out_init_growing(struct out *o, size_t cap);

/* Free a growing buffer's memory. */
void out_free_growing(struct out *o);

/* Write @n bytes at @p to @fd whole (EINTR retried): at the fd's offset
 * when @at is -1, else at file offset @at (pwrite; the fd's offset left
 * alone).  Returns 0, or -1 with errno. */
int out_write_all(int fd, const char *p, size_t n, off_t at);

/* Write what is buffered; a growing buffer grows instead.
 * Returns 0, or -1 once a write (or growing) has failed. */
int out_flush(struct out *o);

/* Flush the last of it.  Returns 0, or -1 with errno when a write failed. */
int out_finish(struct out *o);

/* Make room for @need more bytes. */
static inline char *out_room(struct out *o, size_t need)
{
	if (o->cap - o->n < need)
		out_flush(o);
	return o->buf + o->n;
}

/* The end of what a put_*() call wrote into the room: counted as written. */
static inline void out_advance(struct out *o, const char *end)
{
	o->n = (size_t)(end - o->buf);
}

/*
 * put_*(): write at @p, in room the caller made with out_room(), and return
 * the end.  A sample line makes room once for its columns and puts them
 * without a check each (the checks had been a third of the formatting).
 * Inline: a line is a dozen of these calls, a million lines a second.
 */

/* @len bytes at @s: 16 bytes at a time (a vector register's), else whole
 * words, the last piece overlapping the one before (a call to a small
 * libc's memcpy would cost as much as the copy). */
static inline char *put_bytes(char *p, const char *s, size_t len)
{
	size_t i = 0;

	if (len >= 16) { /* a record handed to a worker: about 100 bytes */
		for (; i + 16 < len; i += 16)
			memcpy(p + i, s + i, 16);
		memcpy(p + len - 16, s + len - 16, 16);
	} else if (len >= 8) {
		memcpy(p, s, 8);
		memcpy(p + len - 8, s + len - 8, 8);
	} else if (len >= 4) {
		memcpy(p, s, 4);
		memcpy(p + len - 4, s + len - 4, 4);
	} else {
		for (; i < len; i++)
			p[i] = s[i];
	}
	return p + len;
}

/* @n spaces (a few: padding of a column). */
static inline char *put_spaces(char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = ' ';
	return p + n;
}

/* Spaces to fill @width around @len characters. */
static inline size_t out_pad_of(int width, int len)
{
	int w = width < 0 ? -width : width;

	return w > len ? (size_t)(w - len) : 0;
}

/* @len bytes at @s padded with spaces to |@width|: left of them when
 * @width > 0, right of them when < 0.  Room: @len + |@width|. */
static inline char *put_padded(char *p, const char *s, size_t len, int width)
{
	size_t pad = out_pad_of(width, (int)len);

	if (width > 0)
		p = put_spaces(p, pad);
	p = put_bytes(p, s, len);
	return width < 0 ? put_spaces(p, pad) : p;
}

/* The number of decimal digits of @v (1 for 0): from its bit length (a
 * bit is log10(2) ~ 1233/4096 digits), then one compare, no division. */
static inline int out_dec_digits(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
		10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
	};
	int t = ((64 - __builtin_clzll(v | 1)) * 1233) >> 12;

	return t + (v >= pow10[t]) + !v;
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
		end -= 2;
		memcpy(end, pairs + 2 * (v % 100), 2);
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

/*
 * The 8 decimal digits of @v (under 10^8), zero-padded, as the bytes of a
 * u64 in memory order, made all at once: the halves' pairs by one multiply
 * each 32-bit lane, then each pair's digits by one multiply each 16-bit
 * lane (x * 10486 >> 20 is x / 100 below 10^4, x * 103 >> 10 is x / 10
 * below 100; no lane's product reaches the next).
 */
static inline uint64_t out_dec8(uint32_t v)
{
	uint64_t x = v / 10000u | (uint64_t)(v % 10000u) << 32; /* lanes: first 4 digits, last 4 */
	uint64_t y = ((x * 10486) >> 20) & 0x0000007f0000007full;
	uint64_t z;

	y |= (x - y * 100) << 16; /* 16-bit lanes: the pairs, first first */
	z = ((y * 103) >> 10) & 0x000f000f000f000full;
	z |= (y - z * 10) << 8; /* bytes: the digits, first first */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	z = __builtin_bswap64(z);
#endif
	return z + 0x3030303030303030ull;
}

/* The last @k (1 to 8) bytes in memory of word @w moved to its front. */
static inline uint64_t out_last_bytes(uint64_t w, int k)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return w >> (8 * (8 - k));
#else
	return w << (8 * (8 - k));
#endif
}

/* Exactly @digits decimal digits of @v, zero-padded (the fraction of a
 * time): up to 16 made 8 at a time by out_dec8() and stored as whole words,
 * the first cut to its digits (a pair per division had been a tenth of a
 * text run, a copy of a length known only at run time a tenth of JSON's).
 * @digits is 1 or more.  Room: @digits, and at least 8: bytes past the
 * digits are overwritten by the next put. */
static inline char *put_dec_zero(char *p, uint64_t v, int digits)
{
	if (digits <= 8) {
		uint64_t w = out_last_bytes(out_dec8((uint32_t)(v % 100000000u)), digits);

		memcpy(p, &w, 8);
	} else if (digits <= 16) {
		uint64_t hi = out_last_bytes(out_dec8((uint32_t)(v / 100000000u % 100000000u)),
					     digits - 8);
		uint64_t lo = out_dec8((uint32_t)(v % 100000000u));

		memcpy(p, &hi, 8);
		memcpy(p + digits - 8, &lo, 8);
	} else {
		out_dec_at(p + digits, v, digits);
	}
	return p + digits;
}

/* Decimal of @mag, '-' first when @neg, padded to |@width| as put_padded().
 * Room: 21 + |@width|. */
static inline char *put_dec(char *p, uint64_t mag, int neg, int width)
{
	int digits, len;
	size_t pad;

	if (mag < 100 && !width) { /* most fields (cpu, misc, sizes, small ids): no word math */
		*p = '-';
		p += neg;
		p[0] = (char)('0' + mag / 10);
		p[mag >= 10] = (char)('0' + mag % 10);
		return p + 1 + (mag >= 10);
	}
	digits = out_dec_digits(mag);
	len = digits + neg;
	pad = out_pad_of(width, len);

	if (width > 0)
		p = put_spaces(p, pad);
	if (neg)
		*p++ = '-';
	p = put_dec_zero(p, mag, digits);
	return width < 0 ? put_spaces(p, pad) : p;
}

static inline char *put_i64(char *p, int64_t v, int width)
{
	return v < 0 ? put_dec(p, 0 - (uint64_t)v, 1, width) : put_dec(p, (uint64_t)v, 0, width);
}

/* The 8 hex digits of @x as the bytes of a u64 in memory order (the most
 * significant digit first): nibbles spread one per byte by shifts, then
 * turned into characters all at once. */
static inline uint64_t out_hex8(uint32_t x)
{
	uint64_t n = x, letters;

	n = ((n & 0xffff0000u) << 16) | (n & 0xffffu);
	n = ((n & 0x0000ff000000ff00ull) << 8) | (n & 0x000000ff000000ffull);
	n = ((n & 0x00f000f000f000f0ull) << 4) | (n & 0x000f000f000f000full);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	n = __builtin_bswap64(n); /* byte 0, the first in memory, gets the top nibble */
#endif
	letters = ((n + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull; /* digits over 9 */
	return n + 0x3030303030303030ull + letters * ('a' - '0' - 10);
}

/* Turn the first @k bytes in memory (none when @k <= 0, all 8 when @k >= 8)
 * of a word of '0's into spaces. */
static inline uint64_t out_zeros_to_spaces(uint64_t w, int k)
{
	uint64_t m;

	if (k <= 0)
		return w;
	if (k >= 8)
		m = ~0ull;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	else
		m = (1ull << (8 * k)) - 1;
#else
	else
		m = ~(~0ull >> (8 * k));
#endif
	return w - (m & 0x1010101010101010ull); /* '0' - 0x10 is ' ' */
}

/* Lower-case hex, no 0x, padded to |@width| as put_padded().  The 16 digits
 * are made at once, and a width of 16 (every address column) is one 16-byte
 * copy: a digit at a time had been a fifth of a text run.  Room: 16 + |@width|. */
static inline char *put_hex(char *p, uint64_t v, int width)
{
	int len = v ? (67 - __builtin_clzll(v)) / 4 : 1;
	uint64_t w[2] = { out_hex8((uint32_t)(v >> 32)), out_hex8((uint32_t)v) };

	if (width == 16) {
		w[0] = out_zeros_to_spaces(w[0], 16 - len);
		w[1] = out_zeros_to_spaces(w[1], 8 - len);
		memcpy(p, w, 16);
		return p + 16;
	}
	return put_padded(p, (const char *)w + 16 - len, (size_t)len, width);
}

/* The checked forms: each makes its own room. */

static inline void out_char(struct out *o, char c)
{
	*out_room(o, 1) = c;
	o->n++;
}

/* @len bytes at @s (longer than the buffer: a piece at a time). */
static inline void out_bytes(struct out *o, const char *s, size_t len)
{
	while (len > o->cap / 2) {
		size_t piece = o->cap / 2;

		out_advance(o, put_bytes(out_room(o, piece), s, piece));
		s += piece;
		len -= piece;
	}
	out_advance(o, put_bytes(out_room(o, len), s, len));
}

/* strlen inlined: a comm a line, and a call into a small libc per line
 * cost more than its few bytes. */
static inline size_t out_strlen(const char *s)
{
	size_t len = 0;

	while (s[len])
		len++;
	return len;
}

static inline void out_str(struct out *o, const char *s)
{
	out_bytes(o, s, out_strlen(s));
}

/* @len bytes at @s right-aligned in @width columns (longer ones are not cut;
 * any length: out_bytes() takes them a piece at a time). */
static inline void out_bytes_right(struct out *o, const char *s, size_t len, int width)
{
	size_t pad = out_pad_of(width, (int)len);

	if (pad)
		out_advance(o, put_spaces(out_room(o, pad), pad));
	out_bytes(o, s, len);
}

/* Decimal, right-aligned in @width (negative @width: left-aligned). */
static inline void out_u64(struct out *o, uint64_t v, int width)
{
	out_advance(o, put_dec(out_room(o, 21 + out_pad_of(width, 0)), v, 0, width));
}

/* Lower-case hex, no 0x, right-aligned in @width. */
static inline void out_hex(struct out *o, uint64_t v, int width)
{
	out_advance(o, put_hex(out_room(o, 16 + out_pad_of(width, 0)), v, width));
}

static inline char *put_quote(char *p)
{
	*p = '"';
	return p + 1;
}

/* @len bytes at @s as a JSON string, quotes included: '"' and '\\'
 * escaped, control characters and bytes that are not UTF-8 as \u00XX.
 * Room: 6 * @len + 2. */
char *put_json_string(char *p, const char *s, size_t len);

/* The same into @o, of any length. */
void out_json_string(struct out *o, const char *s, size_t len);

#endif
