/*
 * record_internal.h - what the record parser's files share.
 */
#ifndef PEO_RECORD_INTERNAL_H
#define PEO_RECORD_INTERNAL_H

#include <string.h>

#include "record_cursor.h"

/* Where a SAMPLE's fields of fixed size lie (byte offsets; 0: not sampled),
 * up to the first field whose size varies: read without a bounds check
 * each once the record is known to reach @end. */
struct sample_layout {
	uint16_t identifier, ip, tid, time, addr, id, stream_id, cpu, period;
	uint16_t end;
};

struct parse_attr {
	struct peo_attr attr; /* host order */
	struct sample_layout fixed;
	int sample_id_pos;    /* u64 index of the id in a sample, -1 none */
	int trailer_id_pos;   /* u64s back from a record's end to its id, 0 none */
	size_t trailer_bytes; /* the sample_id trailer's size (sample_id_all) */
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

static inline void peo_record_zero(struct peo_record *r)
{
	_Static_assert(sizeof(*r) % 8 == 0, "the record is whole u64s");
	peo_zero_span(r, 0, sizeof(*r));
}

/* Word @i of a u64 array of @r, in host order (peo_record_u64(), inline). */
static inline uint64_t peo_record_word(const struct peo_record *r, const void *array, size_t i)
{
	return peo_load_u64((const unsigned char *)array + 8 * i, r->swapped);
}

/* The sample_id trailer's size for @sample_type. */
PEO_HIDDEN size_t peo_sample_id_bytes(uint64_t sample_type);
/* A read_format block at the cursor. */
PEO_HIDDEN void peo_parse_read(struct cursor *c, uint64_t read_format, struct peo_read *r);
/*
 * The header, bytes and attr of a record, and its time when it has one and
 * @time is not NULL (returns 1 then, 0 when not, -EPROTO for a header that
 * does not fit):
 * what sorting and counting need, without parsing the fields.
 */
PEO_HIDDEN int peo_record_peek(const struct peo_record_parser *p, const void *bytes, size_t len,
			       struct peo_record *out, uint64_t *time);
/* record_sample.c: the fixed-size fields' places for @sample_type. */
PEO_HIDDEN void peo_sample_layout(uint64_t sample_type, struct sample_layout *l);
/* record_sample.c: a SAMPLE record's fields (@pa NULL: no attr, an error). */
PEO_HIDDEN void peo_parse_sample(struct cursor *c, const struct parse_attr *pa,
				 struct peo_record *r);

#endif
