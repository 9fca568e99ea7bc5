/*
 * record_sample.c - the fields of a SAMPLE record, in the order the kernel
 * writes them (the fixed ones laid out once per attr, and read back from a
 * sample_id trailer too), and the decoders of its packed words (branch
 * flags, DATA_SRC) and of its callchain's context markers.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "record_internal.h"

/* Register words: one per bit of the mask, none when abi says NONE. */
static void parse_regs(struct cursor *c, const char *field, uint64_t mask, uint64_t *abi,
		       uint32_t *nr, const void **regs)
{
	*abi = cursor_u64(c, field);
	if (*abi == PEO_SAMPLE_REGS_ABI_NONE)
		return;
	*nr = (uint32_t)__builtin_popcountll(mask);
	*regs = cursor_array(c, field, *nr, 8);
}

static void parse_branches(struct cursor *c, uint64_t bst, struct peo_sample *s)
{
	s->branch_nr = cursor_u64(c, "branch_stack.nr");
	if (bst & PEO_SAMPLE_BRANCH_HW_INDEX)
		s->branch_hw_idx = cursor_u64(c, "branch_stack.hw_idx");
	s->branches = cursor_array(c, "branch_stack.entries", s->branch_nr, 24);
	if (bst & PEO_SAMPLE_BRANCH_COUNTERS)
		s->branch_counters = cursor_array(c, "branch_stack.counters", s->branch_nr, 8);
}

static void parse_stack_user(struct cursor *c, struct peo_sample *s)
{
	s->stack_user_size = cursor_u64(c, "stack_user.size");
	if (!s->stack_user_size)
		return; /* no data and no dyn_size */
	s->stack_user = cursor_bytes(c, "stack_user.data", s->stack_user_size);
	s->stack_user_dyn_size = cursor_u64(c, "stack_user.dyn_size");
	if (!c->err && s->stack_user_dyn_size > s->stack_user_size)
		c->err = peo_fail(EPROTO, "SAMPLE record: stack_user.dyn_size %llu is more than its "
				  "size %llu (byte %zu)", (unsigned long long)s->stack_user_dyn_size,
				  (unsigned long long)s->stack_user_size, c->off - 8);
}

static void parse_weight(struct cursor *c, uint64_t st, struct peo_sample *s)
{
	s->weight = cursor_u64(c, (st & PEO_SAMPLE_WEIGHT_STRUCT) ? "weight_struct" : "weight");
	if (!(st & PEO_SAMPLE_WEIGHT_STRUCT))
		return;
	/* The uapi orders var1_dw, var2_w, var3_w by byte order so that they
	 * sit at the same bits of the u64 on either. */
	s->weight_var1 = (uint32_t)s->weight;
	s->weight_var2 = (uint16_t)(s->weight >> 32);
	s->weight_var3 = (uint16_t)(s->weight >> 48);
}

/*
 * The fixed leading fields of a SAMPLE, indexed by enum fixed_slot (whose
 * order is the kernel's): each a u64 (two u32 when it has a second name),
 * kept at @at of struct peo_sample and, when a sample_id trailer holds it,
 * at @sid of struct peo_sample_id (0: not in the trailer).  The trailer
 * holds its fields in the same order, but IDENTIFIER last.  All that
 * walks these fields (layouts, checked reads, copies) walks this table.
 */
static const struct fixed_field {
	uint64_t bit;
	const char *name, *name2;
	uint8_t at, sid;
} fixed_fields[FIXED_N] = {
	[FIXED_IDENTIFIER] = { PEO_SAMPLE_IDENTIFIER, "identifier", NULL,
			       offsetof(struct peo_sample, identifier),
			       offsetof(struct peo_sample_id, identifier) },
	[FIXED_IP] = { PEO_SAMPLE_IP, "ip", NULL, offsetof(struct peo_sample, ip), 0 },
	[FIXED_TID] = { PEO_SAMPLE_TID, "pid", "tid", offsetof(struct peo_sample, pid),
			offsetof(struct peo_sample_id, pid) },
	[FIXED_TIME] = { PEO_SAMPLE_TIME, "time", NULL, offsetof(struct peo_sample, time),
			 offsetof(struct peo_sample_id, time) },
	[FIXED_ADDR] = { PEO_SAMPLE_ADDR, "addr", NULL, offsetof(struct peo_sample, addr), 0 },
	[FIXED_ID] = { PEO_SAMPLE_ID, "id", NULL, offsetof(struct peo_sample, id),
		       offsetof(struct peo_sample_id, id) },
	[FIXED_STREAM_ID] = { PEO_SAMPLE_STREAM_ID, "stream_id", NULL,
			      offsetof(struct peo_sample, stream_id),
			      offsetof(struct peo_sample_id, stream_id) },
	[FIXED_CPU] = { PEO_SAMPLE_CPU, "cpu", "cpu.res", offsetof(struct peo_sample, cpu),
			offsetof(struct peo_sample_id, cpu) },
	[FIXED_PERIOD] = { PEO_SAMPLE_PERIOD, "period", NULL, offsetof(struct peo_sample, period), 0 },
};

/* A pair's halves are stored as one u64 (below). */
_Static_assert(offsetof(struct peo_sample, tid) == offsetof(struct peo_sample, pid) + 4 &&
	       offsetof(struct peo_sample, cpu_res) == offsetof(struct peo_sample, cpu) + 4 &&
	       offsetof(struct peo_sample_id, tid) == offsetof(struct peo_sample_id, pid) + 4 &&
	       offsetof(struct peo_sample_id, cpu_res) == offsetof(struct peo_sample_id, cpu) + 4,
	       "u32 pairs are adjacent");

void peo_sample_layout(uint64_t st, int sample_id_all, struct sample_layout *l)
{
	uint16_t at = 8, back = 0; /* a SAMPLE's fields start after the header */

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < FIXED_N; i++)
		if (st & fixed_fields[i].bit) {
			l->keep[i] = ~0ULL;
			l->at[i] = at;
			at += 8;
			if (fixed_fields[i].sid)
				l->id_fields |= fixed_fields[i].bit;
		}
	l->end = at;
	l->id_at = l->at[FIXED_IDENTIFIER] ? l->at[FIXED_IDENTIFIER] : l->at[FIXED_ID];
	if (!sample_id_all)
		return;
	/* From the record's end backwards: IDENTIFIER (last there), then the
	 * others in reverse sample order. */
	for (size_t k = 0; k < FIXED_N; k++) {
		size_t i = k ? FIXED_N - k : FIXED_IDENTIFIER;

		if ((st & fixed_fields[i].bit) && fixed_fields[i].sid) {
			back += 8;
			l->back[i] = back;
		}
	}
	l->trailer_bytes = back;
	l->id_back = l->back[FIXED_IDENTIFIER] ? l->back[FIXED_IDENTIFIER] : l->back[FIXED_ID];
}

/* Slot @i's u64 at @p in host order: a u32 pair keeps its halves' places. */
static inline __attribute__((always_inline)) uint64_t load_slot(const unsigned char *p, size_t i,
								 int swap)
{
	uint64_t v = peo_load_u64(p, swap);

	return swap && fixed_fields[i].name2 ? v << 32 | v >> 32 : v;
}

/* Every slot at its place in @l->at, written 0 when not sampled (the
 * record was not cleared under them); @swap a constant, for a loop each. */
static inline __attribute__((always_inline)) void load_fixed(const unsigned char *b,
							     const struct sample_layout *l,
							     int swap, struct peo_sample *s)
{
#pragma GCC unroll 16
	for (size_t i = 0; i < FIXED_N; i++) {
		/* an absent slot's place is 0: the load reads the header, and the
		 * mask drops it (a test and branch each had cost more) */
		uint64_t v = load_slot(b + l->at[i], i, swap) & l->keep[i];

		memcpy((char *)s + fixed_fields[i].at, &v, 8);
	}
}

/* The fixed-size fields without a check each: the caller checked that the
 * record reaches the last of them (a field at a time, with a bounds check
 * each, had been most of a sample's parse). */
static void parse_fixed(struct cursor *c, const struct sample_layout *l, struct peo_sample *s)
{
	if (c->swap)
		load_fixed(c->p, l, 1, s);
	else
		load_fixed(c->p, l, 0, s);
	c->off = l->end;
}

/* The same fields through the cursor: a record too short for them gets
 * the sentence naming the first one missing. */
static void parse_fixed_checked(struct cursor *c, uint64_t st, struct peo_sample *s)
{
	memset(s, 0, offsetof(struct peo_sample, read)); /* the fields absent or cut short */
	for (size_t i = 0; i < FIXED_N; i++) {
		const struct fixed_field *f = &fixed_fields[i];
		char *to = (char *)s + f->at;

		if (!(st & f->bit))
			continue;
		if (f->name2) {
			uint32_t v[2];

			v[0] = cursor_u32(c, f->name);
			v[1] = cursor_u32(c, f->name2);
			memcpy(to, v, 8);
		} else {
			uint64_t v = cursor_u64(c, f->name);

			memcpy(to, &v, 8);
		}
	}
}

void peo_parse_trailer(const struct sample_layout *l, const unsigned char *rec, size_t size,
		       int swap, struct peo_sample_id *id)
{
	id->fields = l->id_fields;
#pragma GCC unroll 16
	for (size_t i = 0; i < FIXED_N; i++)
		if (fixed_fields[i].sid && l->back[i]) {
			uint64_t v = load_slot(rec + size - l->back[i], i, swap);

			memcpy((char *)id + fixed_fields[i].sid, &v, 8);
		}
}

#define RARE_FIELDS                                                                        \
	(PEO_SAMPLE_BRANCH_STACK | PEO_SAMPLE_REGS_USER | PEO_SAMPLE_STACK_USER |          \
	 PEO_SAMPLE_WEIGHT_TYPE | PEO_SAMPLE_DATA_SRC | PEO_SAMPLE_TRANSACTION |             \
	 PEO_SAMPLE_REGS_INTR | PEO_SAMPLE_PHYS_ADDR | PEO_SAMPLE_CGROUP |                   \
	 PEO_SAMPLE_DATA_PAGE_SIZE | PEO_SAMPLE_CODE_PAGE_SIZE | PEO_SAMPLE_AUX)

static void parse_rare(struct cursor *c, const struct parse_attr *pa, struct peo_sample *s);
static void copy_sample_id(struct peo_record *r, const struct sample_layout *l);

void peo_parse_sample(struct cursor *c, const struct parse_attr *pa, struct peo_record *r)
{
	struct peo_sample *s = &r->u.sample;
	uint64_t st = pa->attr.sample_type;

	if (pa->fixed.end <= c->end) /* the fields start after the header */
		parse_fixed(c, &pa->fixed, s);
	else
		parse_fixed_checked(c, st, s);
	if (st & PEO_SAMPLE_READ)
		peo_parse_read(c, pa->attr.read_format, &s->read);
	if (st & PEO_SAMPLE_CALLCHAIN) {
		s->callchain_nr = cursor_u64(c, "callchain.nr");
		s->callchain = cursor_array(c, "callchain.ips", s->callchain_nr, 8);
	}
	if (st & PEO_SAMPLE_RAW) {
		s->raw_size = cursor_u32(c, "raw.size");
		s->raw = cursor_bytes(c, "raw.data", s->raw_size);
	}
	if (st & RARE_FIELDS)
		parse_rare(c, pa, s);
	copy_sample_id(r, &pa->fixed);
}

/* The fields after RAW: sampled by few (a test each had been a fifth of a
 * tracepoint sample's parse). */
static void parse_rare(struct cursor *c, const struct parse_attr *pa, struct peo_sample *s)
{
	uint64_t st = pa->attr.sample_type;

	if (st & PEO_SAMPLE_BRANCH_STACK)
		parse_branches(c, pa->attr.branch_sample_type, s);
	if (st & PEO_SAMPLE_REGS_USER)
		parse_regs(c, "regs_user", pa->attr.sample_regs_user, &s->regs_user_abi,
			   &s->regs_user_nr, &s->regs_user);
	if (st & PEO_SAMPLE_STACK_USER)
		parse_stack_user(c, s);
	if (st & PEO_SAMPLE_WEIGHT_TYPE)
		parse_weight(c, st, s);
	if (st & PEO_SAMPLE_DATA_SRC)
		s->data_src = cursor_u64(c, "data_src");
	if (st & PEO_SAMPLE_TRANSACTION)
		s->transaction = cursor_u64(c, "transaction");
	if (st & PEO_SAMPLE_REGS_INTR)
		parse_regs(c, "regs_intr", pa->attr.sample_regs_intr, &s->regs_intr_abi,
			   &s->regs_intr_nr, &s->regs_intr);
	if (st & PEO_SAMPLE_PHYS_ADDR)
		s->phys_addr = cursor_u64(c, "phys_addr");
	if (st & PEO_SAMPLE_CGROUP)
		s->cgroup = cursor_u64(c, "cgroup");
	if (st & PEO_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = cursor_u64(c, "data_page_size");
	if (st & PEO_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = cursor_u64(c, "code_page_size");
	if (st & PEO_SAMPLE_AUX) {
		s->aux_size = cursor_u64(c, "aux.size");
		s->aux = cursor_bytes(c, "aux.data", s->aux_size);
	}
}

/* The sample's id fields, also as the trailer view of other records. */
static void copy_sample_id(struct peo_record *r, const struct sample_layout *l)
{
	r->sample_id.fields = l->id_fields;
#pragma GCC unroll 16
	for (size_t i = 0; i < FIXED_N; i++)
		if (fixed_fields[i].sid)
			memcpy((char *)&r->sample_id + fixed_fields[i].sid,
			       (const char *)&r->u.sample + fixed_fields[i].at, 8);
}

/* Field at bit @pos, @width bits wide, of a bitfield word in host layout. */
static unsigned bits(uint64_t v, unsigned pos, unsigned width)
{
	return (unsigned)((v >> pos) & ((1ULL << width) - 1));
}

int peo_sample_branch(const struct peo_record *r, size_t i, struct peo_branch *out)
{
	const struct peo_sample *s = &r->u.sample;
	const unsigned char *e;
	uint64_t f;
	int err;

	if ((err = PEO_SIZED(out, peo_branch, PEO_BRANCH_SZ_0_1)))
		return err;
	if (!s->branches || i >= s->branch_nr)
		return peo_fail(ERANGE, "peo_sample_branch: entry %zu of %llu", i,
				(unsigned long long)s->branch_nr);
	e = (const unsigned char *)s->branches + 24 * i;
	*out = (struct peo_branch){ .sz = out->sz };
	out->from = peo_record_u64(r, e, 0);
	out->to = peo_record_u64(r, e, 1);
	/* A plain bitfield word: laid out from the top on a big-endian writer. */
	f = peo_bitfield_word(peo_record_u64(r, e, 2), r->swapped);
	out->mispred = bits(f, 0, 1);
	out->predicted = bits(f, 1, 1);
	out->in_tx = bits(f, 2, 1);
	out->abort = bits(f, 3, 1);
	out->cycles = bits(f, 4, 16);
	out->type = bits(f, 20, 4);
	out->spec = bits(f, 24, 2);
	out->new_type = bits(f, 26, 4);
	out->priv = bits(f, 30, 3);
	return 0;
}

int peo_data_src_decode(uint64_t v, struct peo_data_src *out)
{
	int err;

	if (!out)
		return peo_fail(EINVAL, "peo_data_src_decode: argument 'out' is NULL");
	if ((err = PEO_SIZED(out, peo_data_src, PEO_DATA_SRC_SZ_0_1)))
		return err;
	/* The uapi keeps these positions in the u64 on either byte order. */
	out->op = bits(v, 0, 5);
	out->lvl = bits(v, 5, 14);
	out->snoop = bits(v, 19, 5);
	out->lock = bits(v, 24, 2);
	out->dtlb = bits(v, 26, 7);
	out->lvl_num = bits(v, 33, 4);
	out->remote = bits(v, 37, 1);
	out->snoopx = bits(v, 38, 2);
	out->blk = bits(v, 40, 3);
	out->hops = bits(v, 43, 3);
	if (out->sz >= PEO_DATA_SRC_SZ_0_2)
		out->region = bits(v, 46, 5);
	return 0;
}

int peo_callchain_begin(struct peo_callchain_iter *it, const struct peo_record *r)
{
	int err;

	if (!it || !r)
		return peo_fail(EINVAL, "peo_callchain_begin: argument '%s' is NULL", it ? "r" : "it");
	if ((err = PEO_SIZED(it, peo_callchain_iter, PEO_CALLCHAIN_ITER_SZ_0_1)))
		return err;
	*it = (struct peo_callchain_iter){ .sz = it->sz };
	it->r = r;
	if (r->header.type == PEO_RECORD_SAMPLE) {
		it->ips = r->u.sample.callchain;
		it->nr = r->u.sample.callchain_nr;
	} else if (r->header.type == PEO_RECORD_CALLCHAIN_DEFERRED) {
		it->ips = r->u.callchain_deferred.ips;
		it->nr = r->u.callchain_deferred.nr;
		it->context = PEO_CONTEXT_USER; /* deferred chains are user stacks */
	}
	return 0;
}

int peo_callchain_next(struct peo_callchain_iter *it, uint64_t *ip, int64_t *context)
{
	while (it->ips && it->i < it->nr) {
		uint64_t v = peo_record_word(it->r, it->ips, it->i++);

		if (v >= PEO_CONTEXT_ENTRY(PEO_CONTEXT_MAX)) {
			it->context = (int64_t)v;
			if (it->context != PEO_CONTEXT_USER_DEFERRED || it->i >= it->nr)
				continue;
			v = peo_record_word(it->r, it->ips, it->i++); /* the cookie */
		}
		*ip = v;
		*context = it->context;
		return 1;
	}
	return 0;
}
