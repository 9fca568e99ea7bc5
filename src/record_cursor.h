/*
 * record_cursor.h - reading a record's fields in order, with every read
 * bounds-checked and byte-swapped when the record is foreign.
 */
#ifndef PEO_RECORD_CURSOR_H
#define PEO_RECORD_CURSOR_H

#include <stdint.h>
#include <string.h>

#include "internal.h"

struct cursor {
	const unsigned char *p;
	size_t end;  /* bytes of the record the fields may use (before a trailer) */
	size_t off;
	int swap;
	uint32_t type; /* the record's type, for sentences */
	int err;       /* the first failure, sticky: later reads return 0 */
};

/* Record the first failure: which field of which record, at which offset. */
PEO_HIDDEN void peo_cursor_fail(struct cursor *c, const char *field, uint64_t need);

/* Are @n more bytes there?  Sets the failure when not. */
static inline int cursor_need(struct cursor *c, const char *field, uint64_t n)
{
	if (c->err)
		return 0;
	if (c->off <= c->end && n <= c->end - c->off)
		return 1;
	peo_cursor_fail(c, field, n);
	return 0;
}

/* An unsigned field of @n bytes (8, 4 or 2, a constant once inlined);
 * 0 once the record has failed. */
static inline uint64_t cursor_uint(struct cursor *c, const char *field, size_t n)
{
	const unsigned char *at;
	uint64_t v;

	if (!cursor_need(c, field, n))
		return 0;
	at = c->p + c->off;
	v = n == 8 ? peo_load_u64(at, c->swap) :
	    n == 4 ? peo_load_u32(at, c->swap) : peo_load_u16(at, c->swap);
	c->off += n;
	return v;
}

static inline uint64_t cursor_u64(struct cursor *c, const char *field)
{
	return cursor_uint(c, field, 8);
}

static inline uint32_t cursor_u32(struct cursor *c, const char *field)
{
	return (uint32_t)cursor_uint(c, field, 4);
}

static inline uint16_t cursor_u16(struct cursor *c, const char *field)
{
	return (uint16_t)cursor_uint(c, field, 2);
}

/* @n bytes in place, or NULL; @n is checked before any use (untrusted counts). */
static inline const void *cursor_bytes(struct cursor *c, const char *field, uint64_t n)
{
	const void *at;

	if (!cursor_need(c, field, n))
		return NULL;
	at = c->p + c->off;
	c->off += (size_t)n;
	return at;
}

/* An array of @n elements of @size bytes, the multiplication checked first. */
static inline const void *cursor_array(struct cursor *c, const char *field, uint64_t n,
				       size_t size)
{
	if (!c->err && c->off <= c->end && n > (c->end - c->off) / size) {
		peo_cursor_fail(c, field, UINT64_MAX);
		return NULL;
	}
	return cursor_bytes(c, field, n * size);
}

/* A NUL-terminated string filling the rest of the fields (padded to 8). */
PEO_HIDDEN const char *peo_cursor_string(struct cursor *c, const char *field);

#endif
