/*
 * fuzz_record.c - libFuzzer target for the record parser (record.c,
 * record_sample.c, attr_host.c): any attr, any bytes, either byte order.
 *
 * Input: 41 bytes of configuration (sample_type, read_format,
 * branch_sample_type, sample_regs_user, sample_regs_intr as u64, then a
 * byte whose bit 0 asks for big-endian records and bit 1 for
 * sample_id_all), then the record bytes.  A successful parse must point
 * only into the input, and every accessor must stay inside it; a failure
 * must leave a sentence.
 *
 * Build and run: make fuzz.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peo/peo.h"

#include "fuzz_check.h"

static const uint8_t *in_lo, *in_hi;
static volatile uint64_t keep; /* the walk's reads land here */

static void inside(const void *p, uint64_t len)
{
	const uint8_t *c = p;

	CHECK(!p || (c >= in_lo && len <= (uint64_t)(in_hi - c)));
}

static void walk(const struct peo_record *r)
{
	const struct peo_sample *s = &r->u.sample;
	struct peo_callchain_iter it = { .sz = sizeof(it) };
	struct peo_read_value rv = { .sz = sizeof(rv) };
	struct peo_branch b = { .sz = sizeof(b) };
	uint64_t ip, sink = 0;
	int64_t ctx;

	if (r->header.type == PEO_RECORD_SAMPLE) {
		inside(s->raw, s->raw_size);
		inside(s->stack_user, s->stack_user_size);
		inside(s->aux, s->aux_size);
		inside(s->callchain, 8 * s->callchain_nr);
		inside(s->branches, 24 * s->branch_nr);
		inside(s->regs_user, 8ull * s->regs_user_nr);
		for (size_t i = 0; i < s->read.nr && i < 64; i++)
			if (peo_read_value(r, &s->read, i, &rv) == 0)
				sink += rv.value + rv.id + rv.lost;
		for (size_t i = 0; i < s->branch_nr && i < 64; i++)
			if (peo_sample_branch(r, i, &b) == 0)
				sink += b.from + b.cycles;
		for (uint32_t i = 0; i < s->regs_intr_nr; i++)
			sink += peo_record_u64(r, s->regs_intr, i);
	}
	if (r->header.type == PEO_RECORD_READ)
		for (size_t i = 0; i < r->u.read.read.nr && i < 64; i++)
			if (peo_read_value(r, &r->u.read.read, i, &rv) == 0)
				sink += rv.value;
	if (r->header.type == PEO_RECORD_NAMESPACES)
		inside(r->u.namespaces.entries, 16 * r->u.namespaces.nr);
	if (r->header.type == PEO_RECORD_MMAP || r->header.type == PEO_RECORD_MMAP2)
		sink += strlen(r->u.mmap.filename);
	if (r->header.type == PEO_RECORD_COMM)
		sink += strlen(r->u.comm.comm);
	peo_callchain_begin(&it, r);
	while (peo_callchain_next(&it, &ip, &ctx) == 1)
		sink += ip;
	keep = sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct peo_record_parser *p;
	struct peo_record r = { .sz = sizeof(r) };
	struct peo_attr a;
	uint64_t cfg[5];
	uint8_t mode;
	unsigned char *copy;

	if (size < 41)
		return 0;
	memcpy(cfg, data, sizeof(cfg));
	mode = data[40];
	data += 41;
	size -= 41;
	{
		PEO_OPTS(peo_record_parser_opts, o, .byte_order = (mode & 1) ? PEO_BYTE_ORDER_BIG
									  : PEO_BYTE_ORDER_LITTLE);
		CHECK(peo_record_parser_new(&p, &o) == 0);
	}
	/* The attr as the same writer would have written it. */
	peo_attr_init(&a);
	a.sample_type = cfg[0] & (PEO_SAMPLE_MAX - 1);
	a.read_format = cfg[1] & (PEO_FORMAT_MAX - 1);
	a.branch_sample_type = cfg[2];
	a.sample_regs_user = cfg[3];
	a.sample_regs_intr = cfg[4];
	a.sample_id_all = !!(mode & 2);
	if (mode & 1) { /* what a big-endian writer's bytes look like to us */
		struct peo_attr be = a;
		uint64_t flags = 0;

		be.type = __builtin_bswap32(a.type);
		be.size = __builtin_bswap32(a.size);
		be.sample_type = __builtin_bswap64(a.sample_type);
		be.read_format = __builtin_bswap64(a.read_format);
		be.branch_sample_type = __builtin_bswap64(a.branch_sample_type);
		be.sample_regs_user = __builtin_bswap64(a.sample_regs_user);
		be.sample_regs_intr = __builtin_bswap64(a.sample_regs_intr);
		for (int i = 0; i < 64; i++)
			if (a.flags >> i & 1)
				flags |= 1ULL << (63 - i);
		be.flags = __builtin_bswap64(flags);
		a = be;
	}
	CHECK(peo_record_parser_add(p, &a, NULL, 0) == 0);
	/* An exact-size heap copy, so ASan sees any read past the end. */
	copy = malloc(size ? size : 1);
	CHECK(copy);
	memcpy(copy, data, size);
	in_lo = copy;
	in_hi = copy + size;
	if (peo_record_parse(p, copy, size, &r) == 0)
		walk(&r);
	else
		CHECK(peo_last_error()[0]);
	free(copy);
	peo_record_parser_free(p);
	return 0;
}
