/*
 * record_sample.c - the fields of a SAMPLE record, in the order the kernel
 * writes them, and the decoders of its packed words (branch flags,
 * DATA_SRC) and of its callchain's context markers.
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

void peo_sample_layout(uint64_t st, struct sample_layout *l)
{
	static const struct {
		uint64_t bit;
		size_t at;
	} order[] = { /* the kernel's order */
		{ PEO_SAMPLE_IDENTIFIER, offsetof(struct sample_layout, identifier) },
		{ PEO_SAMPLE_IP, offsetof(struct sample_layout, ip) },
		{ PEO_SAMPLE_TID, offsetof(struct sample_layout, tid) },
		{ PEO_SAMPLE_TIME, offsetof(struct sample_layout, time) },
		{ PEO_SAMPLE_ADDR, offsetof(struct sample_layout, addr) },
		{ PEO_SAMPLE_ID, offsetof(struct sample_layout, id) },
		{ PEO_SAMPLE_STREAM_ID, offsetof(struct sample_layout, stream_id) },
		{ PEO_SAMPLE_CPU, offsetof(struct sample_layout, cpu) },
		{ PEO_SAMPLE_PERIOD, offsetof(struct sample_layout, period) },
	};
	uint16_t at = 8; /* after the header */

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < PEO_ARRAY_SIZE(order); i++)
		if (st & order[i].bit) {
			memcpy((char *)l + order[i].at, &at, sizeof(at));
			at += 8;
		}
	l->end = at;
}

/* The fixed-size fields at their known places, each written (0 when not
 * sampled: the record was not cleared under them): the caller checked that
 * the record reaches the last of them (a field at a time, with a bounds
 * check each, had been most of a sample's parse). */
static void parse_fixed(struct cursor *c, const struct sample_layout *l, uint64_t st,
			struct peo_sample *s)
{
	const unsigned char *b = c->p;
	int swap = c->swap;

	/* an absent field's place is 0: the load reads the header, and is dropped */
	s->identifier = (st & PEO_SAMPLE_IDENTIFIER) ? peo_load_u64(b + l->identifier, swap) : 0;
	s->ip = (st & PEO_SAMPLE_IP) ? peo_load_u64(b + l->ip, swap) : 0;
	s->pid = (st & PEO_SAMPLE_TID) ? peo_load_u32(b + l->tid, swap) : 0;
	s->tid = (st & PEO_SAMPLE_TID) ? peo_load_u32(b + l->tid + 4, swap) : 0;
	s->time = (st & PEO_SAMPLE_TIME) ? peo_load_u64(b + l->time, swap) : 0;
	s->addr = (st & PEO_SAMPLE_ADDR) ? peo_load_u64(b + l->addr, swap) : 0;
	s->id = (st & PEO_SAMPLE_ID) ? peo_load_u64(b + l->id, swap) : 0;
	s->stream_id = (st & PEO_SAMPLE_STREAM_ID) ? peo_load_u64(b + l->stream_id, swap) : 0;
	s->cpu = (st & PEO_SAMPLE_CPU) ? peo_load_u32(b + l->cpu, swap) : 0;
	s->cpu_res = (st & PEO_SAMPLE_CPU) ? peo_load_u32(b + l->cpu + 4, swap) : 0;
	s->period = (st & PEO_SAMPLE_PERIOD) ? peo_load_u64(b + l->period, swap) : 0;
	c->off = l->end;
}

/* The same fields through the cursor: a record too short for them gets
 * the sentence naming the first one missing. */
static void parse_fixed_checked(struct cursor *c, uint64_t st, struct peo_sample *s)
{
	memset(s, 0, offsetof(struct peo_sample, read)); /* the fields absent or cut short */
	if (st & PEO_SAMPLE_IDENTIFIER)
		s->identifier = cursor_u64(c, "identifier");
	if (st & PEO_SAMPLE_IP)
		s->ip = cursor_u64(c, "ip");
	if (st & PEO_SAMPLE_TID) {
		s->pid = cursor_u32(c, "pid");
		s->tid = cursor_u32(c, "tid");
	}
	if (st & PEO_SAMPLE_TIME)
		s->time = cursor_u64(c, "time");
	if (st & PEO_SAMPLE_ADDR)
		s->addr = cursor_u64(c, "addr");
	if (st & PEO_SAMPLE_ID)
		s->id = cursor_u64(c, "id");
	if (st & PEO_SAMPLE_STREAM_ID)
		s->stream_id = cursor_u64(c, "stream_id");
	if (st & PEO_SAMPLE_CPU) {
		s->cpu = cursor_u32(c, "cpu");
		s->cpu_res = cursor_u32(c, "cpu.res");
	}
	if (st & PEO_SAMPLE_PERIOD)
		s->period = cursor_u64(c, "period");
}

#define RARE_FIELDS                                                                        \
	(PEO_SAMPLE_BRANCH_STACK | PEO_SAMPLE_REGS_USER | PEO_SAMPLE_STACK_USER |          \
	 PEO_SAMPLE_WEIGHT_TYPE | PEO_SAMPLE_DATA_SRC | PEO_SAMPLE_TRANSACTION |             \
	 PEO_SAMPLE_REGS_INTR | PEO_SAMPLE_PHYS_ADDR | PEO_SAMPLE_CGROUP |                   \
	 PEO_SAMPLE_DATA_PAGE_SIZE | PEO_SAMPLE_CODE_PAGE_SIZE | PEO_SAMPLE_AUX)

static void parse_rare(struct cursor *c, const struct parse_attr *pa, struct peo_sample *s);
static void copy_sample_id(struct peo_record *r, uint64_t st);

void peo_parse_sample(struct cursor *c, const struct parse_attr *pa, struct peo_record *r)
{
	struct peo_sample *s = &r->u.sample;
	uint64_t st = pa->attr.sample_type;

	if (pa->fixed.end <= c->end) /* the fields start after the header */
		parse_fixed(c, &pa->fixed, st, s);
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
	copy_sample_id(r, st);
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
static void copy_sample_id(struct peo_record *r, uint64_t st)
{
	const struct peo_sample *s = &r->u.sample;

	r->sample_id.fields = st & (PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_ID |
				    PEO_SAMPLE_STREAM_ID | PEO_SAMPLE_CPU | PEO_SAMPLE_IDENTIFIER);
	r->sample_id.pid = s->pid;
	r->sample_id.tid = s->tid;
	r->sample_id.time = s->time;
	r->sample_id.id = s->id;
	r->sample_id.stream_id = s->stream_id;
	r->sample_id.cpu = s->cpu;
	r->sample_id.cpu_res = s->cpu_res;
	r->sample_id.identifier = s->identifier;
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

	if (!s->branches || i >= s->branch_nr)
		return peo_fail(ERANGE, "peo_sample_branch: entry %zu of %llu", i,
				(unsigned long long)s->branch_nr);
	e = (const unsigned char *)s->branches + 24 * i;
	memset(out, 0, sizeof(*out));
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

void peo_data_src_decode(uint64_t v, struct peo_data_src *out)
{
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
}

void peo_callchain_begin(struct peo_callchain_iter *it, const struct peo_record *r)
{
	memset(it, 0, sizeof(*it));
	it->r = r;
	if (r->header.type == PEO_RECORD_SAMPLE) {
		it->ips = r->u.sample.callchain;
		it->nr = r->u.sample.callchain_nr;
	} else if (r->header.type == PEO_RECORD_CALLCHAIN_DEFERRED) {
		it->ips = r->u.callchain_deferred.ips;
		it->nr = r->u.callchain_deferred.nr;
		it->context = PEO_CONTEXT_USER; /* deferred chains are user stacks */
	}
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
