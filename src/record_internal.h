/*
 * record_internal.h - what the record parser's files share.
 */
#ifndef PEO_RECORD_INTERNAL_H
#define PEO_RECORD_INTERNAL_H

#include <string.h>

#include "record_cursor.h"

/* The fixed leading fields of a SAMPLE, in the kernel's order: their
 * index in fixed_fields[] (record_sample.c) and in a layout's at[]/back[]. */
enum fixed_slot {
	FIXED_IDENTIFIER, FIXED_IP, FIXED_TID, FIXED_TIME, FIXED_ADDR, FIXED_ID,
	FIXED_STREAM_ID, FIXED_CPU, FIXED_PERIOD, FIXED_N
};

/* Where an attr's fixed-size fields lie, worked out once from its
 * sample_type by peo_sample_layout() (byte offsets; 0: not there). */
struct sample_layout {
	uint64_t keep[FIXED_N]; /* ~0 where at[] is a field's (0 drops a load at 0) */
	uint16_t at[FIXED_N];   /* in a SAMPLE, from its start */
	uint16_t end;           /* in a SAMPLE, the first byte after them */
	uint16_t back[FIXED_N]; /* in a sample_id trailer, back from the record's end */
	uint16_t trailer_bytes; /* the trailer's size (0: none, or no sample_id_all) */
	uint16_t id_at;         /* the event id in a SAMPLE (IDENTIFIER, else ID) */
	uint16_t id_back;       /* the event id in a trailer, back from the end */
	uint64_t id_fields;     /* sample_id.fields: the bits of those a trailer can hold */
};

struct parse_attr {
	struct peo_attr attr; /* host order */
	struct sample_layout fixed;
};

struct id_entry {
	uint64_t id;
	size_t attr;
};

struct peo_record_parser {
	int swap;
	struct parse_attr *attrs;
	size_t nattrs;
	struct id_entry *ids;
	size_t nids;
};

/*
 * Zero bytes [@from, @to) of @base, both multiples of 8 known at compile
 * time, with plain vector stores.  gcc makes a memset of a record's size
 * `rep stosq`, whose start-up cost was a quarter of a file's sample
 * parse, and whose stores the first loads of the record then waited on.
 */
static inline void peo_zero_span(void *base, size_t from, size_t to)
{
	typedef unsigned char v16 __attribute__((vector_size(16), aligned(8), may_alias));
	unsigned char *p = (unsigned char *)base + from;
	size_t i = 0;

#pragma GCC unroll 64
	for (; i + 16 <= to - from; i += 16)
		*(v16 *)(void *)(p + i) = (v16){ 0 };
	if (i < to - from)
		memset(p + i, 0, 8);
}

/* Zero the record but its sz, the caller's. */
static inline void peo_record_zero(struct peo_record *r)
{
	size_t sz = r->sz;

	_Static_assert(sizeof(*r) % 8 == 0, "the record is whole u64s");
	peo_zero_span(r, 0, sizeof(*r));
	r->sz = sz;
}

/* Word @i of a u64 array of @r, in host order (peo_record_u64(), inline). */
static inline uint64_t peo_record_word(const struct peo_record *r, const void *array, size_t i)
{
	return peo_load_u64((const unsigned char *)array + 8 * i, r->swapped);
}

/* A read_format block at the cursor. */
PEO_HIDDEN void peo_parse_read(struct cursor *c, uint64_t read_format, struct peo_read *r);
/* peo_record_parse() of a record of libpeo's own (its sz unset) or one
 * whose arguments and sz were checked. */
PEO_HIDDEN int peo_record_fill(const struct peo_record_parser *p, const void *bytes, size_t len,
			       struct peo_record *out);
/*
 * The header, bytes and attr of a record, and its time when it has one and
 * @time is not NULL (returns 1 then, 0 when not, -EPROTO for a header that
 * does not fit): what sorting and counting need, without parsing the
 * fields.  Of the rest of @out only unknown (0) and sample_id.fields (0,
 * none parsed) are set.
 */
PEO_HIDDEN int peo_record_peek(const struct peo_record_parser *p, const void *bytes, size_t len,
			       struct peo_record *out, uint64_t *time);
/*
 * A SAMPLE's pid and ip read at their fixed places, without a full parse
 * (for a caller that needs only those): 1, or 0 when the record is not a
 * sample of a known event carrying both (the full parse says why, if any).
 */
PEO_HIDDEN int peo_record_sample_pid_ip(const struct peo_record_parser *p, const void *bytes,
					size_t len, uint32_t *pid, uint64_t *ip);
/* record_sample.c: the fixed-size fields' places for @sample_type, and
 * in the trailer when @sample_id_all. */
PEO_HIDDEN void peo_sample_layout(uint64_t sample_type, int sample_id_all, struct sample_layout *l);
/* record_sample.c: the sample_id trailer of the @size bytes at @rec, which
 * the caller checked can hold it. */
PEO_HIDDEN void peo_parse_trailer(const struct sample_layout *l, const unsigned char *rec,
				  size_t size, int swap, struct peo_sample_id *id);
/* record_sample.c: a SAMPLE record's fields, with its attr @pa (not NULL). */
PEO_HIDDEN void peo_parse_sample(struct cursor *c, const struct parse_attr *pa,
				 struct peo_record *r);

#endif
