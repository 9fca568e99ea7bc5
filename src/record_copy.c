/*
 * record_copy.c - peo_record_copy(): a parsed record with its bytes and
 * attr copied into one allocation, each pointer into the old bytes moved
 * to the same place in the copy: a record that outlives its ring, file or
 * parser.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "peo/record.h"

struct owned {
	struct peo_record rec; /* first: the caller's pointer is this */
	struct peo_attr attr;
	uint64_t bytes[];      /* header.size bytes, 8-aligned as in a ring */
};

/* @p, when it points into the @len bytes at @from, at the same place of @to. */
static const void *moved(const void *p, const unsigned char *from, size_t len, unsigned char *to)
{
	const unsigned char *c = p;

	return c && c >= from && c < from + len ? to + (c - from) : p;
}

#define MOVE(field) ((field) = moved((field), from, len, to))

int peo_record_copy(const struct peo_record *r, struct peo_record **out)
{
	const unsigned char *from;
	struct peo_record *c;
	unsigned char *to;
	struct owned *o;
	size_t len;

	if (!r || !out)
		return peo_fail(EINVAL, "peo_record_copy: argument '%s' is NULL", r ? "out" : "r");
	*out = NULL;
	if (r->sz < sizeof(*r) || !r->bytes || r->header.size < sizeof(r->header))
		return peo_fail(EINVAL, "peo_record_copy: not a parsed record (sz %zu, %u bytes)",
				r->sz, r->header.size);
	from = r->bytes;
	len = r->header.size;
	if (!(o = malloc(sizeof(*o) + ((len + 7) & ~(size_t)7))))
		return peo_fail(ENOMEM, "out of memory for a copy of a %u-byte record", r->header.size);
	to = (unsigned char *)o->bytes;
	memcpy(to, from, len);
	o->rec = *r;
	o->rec.sz = sizeof(o->rec); /* what this copy holds, whatever the caller's */
	o->rec.bytes = to;
	if (r->attr) {
		o->attr = *r->attr;
		o->rec.attr = &o->attr;
	}
	c = &o->rec;
	switch (r->unknown ? 0 : r->header.type) {
	case PEO_RECORD_SAMPLE:
		MOVE(c->u.sample.read.values);
		MOVE(c->u.sample.read.single_tail);
		MOVE(c->u.sample.callchain);
		MOVE(c->u.sample.raw);
		MOVE(c->u.sample.branches);
		MOVE(c->u.sample.branch_counters);
		MOVE(c->u.sample.regs_user);
		MOVE(c->u.sample.stack_user);
		MOVE(c->u.sample.regs_intr);
		MOVE(c->u.sample.aux);
		break;
	case PEO_RECORD_MMAP:
	case PEO_RECORD_MMAP2:
		MOVE(c->u.mmap.build_id);
		MOVE(c->u.mmap.filename);
		break;
	case PEO_RECORD_COMM:
		MOVE(c->u.comm.comm);
		break;
	case PEO_RECORD_READ:
		MOVE(c->u.read.read.values);
		MOVE(c->u.read.read.single_tail);
		break;
	case PEO_RECORD_NAMESPACES:
		MOVE(c->u.namespaces.entries);
		break;
	case PEO_RECORD_KSYMBOL:
		MOVE(c->u.ksymbol.name);
		break;
	case PEO_RECORD_BPF_EVENT:
		MOVE(c->u.bpf_event.tag);
		break;
	case PEO_RECORD_CGROUP:
		MOVE(c->u.cgroup.path);
		break;
	case PEO_RECORD_TEXT_POKE:
		MOVE(c->u.text_poke.old_bytes);
		MOVE(c->u.text_poke.new_bytes);
		break;
	case PEO_RECORD_CALLCHAIN_DEFERRED:
		MOVE(c->u.callchain_deferred.ips);
		break;
	default: /* no pointers besides bytes and attr */
		break;
	}
	*out = c;
	return 0;
}

void peo_record_free(struct peo_record *copy)
{
	free(copy); /* the struct owned it starts */
}
