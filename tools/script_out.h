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

void out_str(struct out *o, const char *s);
/* @s right-aligned in @width columns (longer strings are not cut). */
void out_str_right(struct out *o, const char *s, int width);
void out_char(struct out *o, char c);
/* Decimal, right-aligned in @width (negative @width: left-aligned). */
void out_u64(struct out *o, uint64_t v, int width);
/* Lower-case hex, no 0x, right-aligned in @width. */
void out_hex(struct out *o, uint64_t v, int width);
/* Zero-padded decimal of exactly @digits digits (the fraction of a time). */
void out_u64_zero(struct out *o, uint64_t v, int digits);

#endif
