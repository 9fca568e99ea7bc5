/*
 * record.c - the record parser: its attrs, finding a record's attr by id,
 * and every record type but SAMPLE (record_sample.c, which also lays out
 * the fixed fields and reads the sample_id trailer).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

static int host_is_big_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 0;
}

int peo_record_parser_new(struct peo_record_parser **out, const struct peo_record_parser_opts *opts)
{
	struct peo_record_parser_opts o = { .sz = sizeof(o) };
	struct peo_record_parser *p;
	int err;

	if (!out)
		return peo_fail(EINVAL, "peo_record_parser_new: argument 'out' is NULL");
	*out = NULL;
	err = peo_opts_check(opts, sizeof(o), "peo_record_parser_opts");
	if (err)
		return err;
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	if (o.byte_order > PEO_BYTE_ORDER_BIG)
		return peo_fail(EINVAL, "peo_record_parser_new: byte_order %d is not an enum "
				"peo_byte_order value", (int)o.byte_order);
	p = calloc(1, sizeof(*p));
	if (!p)
		return peo_fail(ENOMEM, "out of memory for a record parser");
	p->swap = o.byte_order != PEO_BYTE_ORDER_NATIVE &&
		  (o.byte_order == PEO_BYTE_ORDER_BIG) != host_is_big_endian();
	*out = p;
	return 0;
}

void peo_record_parser_free(struct peo_record_parser *p)
{
	if (!p)
		return;
	free(p->attrs);
	free(p->ids);
	free(p);
}

int peo_record_parser_clone(struct peo_record_parser **out, const struct peo_record_parser *p)
{
	struct peo_record_parser *c;

	if (!p || !out)
		return peo_fail(EINVAL, "peo_record_parser_clone: argument '%s' is NULL",
				!p ? "p" : "out");
	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return peo_fail(ENOMEM, "out of memory for a record parser");
	c->swap = p->swap;
	c->attrs = p->nattrs ? malloc(p->nattrs * sizeof(*c->attrs)) : NULL;
	c->ids = p->nids ? malloc(p->nids * sizeof(*c->ids)) : NULL;
	if ((p->nattrs && !c->attrs) || (p->nids && !c->ids)) {
		peo_record_parser_free(c);
		return peo_fail(ENOMEM, "out of memory copying a parser of %zu attrs and %zu ids",
				p->nattrs, p->nids);
	}
	if (p->nattrs)
		memcpy(c->attrs, p->attrs, p->nattrs * sizeof(*c->attrs));
	if (p->nids)
		memcpy(c->ids, p->ids, p->nids * sizeof(*c->ids));
	c->nattrs = p->nattrs;
	c->nids = p->nids;
	*out = c;
	return 0;
}

int peo_record_parser_add(struct peo_record_parser *p, const struct peo_attr *attr,
			  const uint64_t *ids, size_t nids)
{
	struct parse_attr *attrs, *a;
	struct id_entry *more;

	if (!p || !attr)
		return peo_fail(EINVAL, "peo_record_parser_add: argument '%s' is NULL", p ? "attr" : "p");
	if (nids && !ids)
		return peo_fail(EINVAL, "peo_record_parser_add: nids is %zu but ids is NULL", nids);
	attrs = realloc(p->attrs, (p->nattrs + 1) * sizeof(*attrs));
	if (!attrs)
		return peo_fail(ENOMEM, "out of memory for a parser attr");
	p->attrs = attrs;
	a = &attrs[p->nattrs];
	peo_attr_to_host(attr, sizeof(*attr), p->swap, &a->attr);
	if (a->attr.size < PEO_ATTR_SIZE_VER0)
		return peo_fail(EINVAL, "peo_record_parser_add: attr %zu has size %u, under the "
				"first published %d bytes (wrong byte order?)", p->nattrs,
				a->attr.size, PEO_ATTR_SIZE_VER0);
	peo_sample_layout(a->attr.sample_type, a->attr.sample_id_all, &a->fixed);
	if (p->nattrs && (a->fixed.id_at != p->attrs[0].fixed.id_at || !a->fixed.id_at ||
			  a->fixed.id_back != p->attrs[0].fixed.id_back))
		return peo_fail(EINVAL, "peo_record_parser_add: attr %zu's sample_type 0x%llx puts "
				"the event id elsewhere than attr 0's 0x%llx; with several attrs "
				"every one needs PEO_SAMPLE_IDENTIFIER (or ID at the same place) "
				"so each record can say whose it is", p->nattrs,
				(unsigned long long)a->attr.sample_type,
				(unsigned long long)p->attrs[0].attr.sample_type);
	more = realloc(p->ids, (p->nids + nids + 1) * sizeof(*more));
	if (!more)
		return peo_fail(ENOMEM, "out of memory for %zu ids", nids);
	p->ids = more;
	for (size_t i = 0; i < nids; i++) {
		p->ids[p->nids + i].id = ids[i];
		p->ids[p->nids + i].attr = p->nattrs;
	}
	p->nids += nids;
	p->nattrs++;
	return 0;
}

/* Whose record, by its id, when there are several attrs: the index, -1
 * when the id is no attr's, -2 when the record cannot hold it. */
static int find_attr_by_id(const struct peo_record_parser *p, const unsigned char *rec,
			   uint32_t type, size_t size, uint64_t *id_out)
{
	const struct parse_attr *a0 = &p->attrs[0];
	size_t at;
	uint64_t id;

	if (type == PEO_RECORD_SAMPLE) {
		at = a0->fixed.id_at; /* never 0: a second attr is refused without one */
	} else {
		if (!a0->fixed.id_back)
			return 0; /* nothing says whose: perf takes the first attr too */
		if (a0->fixed.id_back > size)
			return -2;
		at = size - a0->fixed.id_back;
	}
	if (at < 8 || size < 8 || at > size - 8)
		return -2; /* too short to hold the id */
	id = peo_load_u64(rec + at, p->swap);
	*id_out = id;
	for (size_t i = 0; i < p->nids; i++)
		if (p->ids[i].id == id)
			return (int)p->ids[i].attr;
	/* Records perf synthesizes (COMM, MMAP of running tasks) carry id 0 or
	 * another event's: like perf, read them with the first attr. */
	return type == PEO_RECORD_SAMPLE ? -1 : 0;
}

/* Whose record (find_attr_by_id's answers); with one attr, every record is
 * its own, without a call. */
static inline int find_attr(const struct peo_record_parser *p, const unsigned char *rec,
			    uint32_t type, size_t size, uint64_t *id_out)
{
	return p->nattrs == 1 ? 0 : find_attr_by_id(p, rec, type, size, id_out);
}

/* @h, the header decoded at @bytes, noted in @out with the bytes and order. */
static void note_header(const struct peo_record_parser *p, const void *bytes,
			struct peo_event_header h, struct peo_record *out)
{
	out->header = h;
	out->bytes = bytes;
	out->swapped = p->swap;
}

void peo_cursor_fail(struct cursor *c, const char *field, uint64_t need)
{
	c->err = peo_fail(EPROTO, "%s record: field '%s' at byte %zu needs %s%llu bytes, but the "
			  "record has %zu there", peo_record_type_name(c->type), field, c->off,
			  need == UINT64_MAX ? "more than " : "",
			  (unsigned long long)(need == UINT64_MAX ? c->end - c->off : need),
			  c->off <= c->end ? c->end - c->off : 0);
}

const char *peo_cursor_string(struct cursor *c, const char *field)
{
	const char *s = (const char *)c->p + c->off;

	if (c->err || c->off >= c->end || !memchr(s, '\0', c->end - c->off)) {
		if (!c->err)
			c->err = peo_fail(EPROTO, "%s record: field '%s' at byte %zu has no NUL "
					  "before byte %zu", peo_record_type_name(c->type), field,
					  c->off, c->end);
		return NULL;
	}
	c->off = c->end; /* the string and its padding fill the fields */
	return s;
}

void peo_parse_read(struct cursor *c, uint64_t fmt, struct peo_read *r)
{
	size_t per = 1 + !!(fmt & PEO_FORMAT_ID) + !!(fmt & PEO_FORMAT_LOST);

	r->format = fmt;
	if (fmt & PEO_FORMAT_GROUP) {
		r->nr = cursor_u64(c, "read.nr");
		if (fmt & PEO_FORMAT_TOTAL_TIME_ENABLED)
			r->time_enabled = cursor_u64(c, "read.time_enabled");
		if (fmt & PEO_FORMAT_TOTAL_TIME_RUNNING)
			r->time_running = cursor_u64(c, "read.time_running");
		r->values = cursor_array(c, "read.values", r->nr, 8 * per);
		return;
	}
	/* One value: value, [enabled], [running], [id], [lost]; kept in the
	 * group layout's order by reading the times first. */
	r->nr = 1;
	r->values = cursor_bytes(c, "read.value", 8);
	if (fmt & PEO_FORMAT_TOTAL_TIME_ENABLED)
		r->time_enabled = cursor_u64(c, "read.time_enabled");
	if (fmt & PEO_FORMAT_TOTAL_TIME_RUNNING)
		r->time_running = cursor_u64(c, "read.time_running");
	r->single_tail = cursor_bytes(c, "read.id/lost", 8 * (per - 1));
}

static void parse_mmap(struct cursor *c, struct peo_record *r, int two)
{
	struct peo_rec_mmap *m = &r->u.mmap;

	m->pid = cursor_u32(c, "pid");
	m->tid = cursor_u32(c, "tid");
	m->addr = cursor_u64(c, "addr");
	m->len = cursor_u64(c, "len");
	m->pgoff = cursor_u64(c, "pgoff");
	if (two && (r->header.misc & PEO_RECORD_MISC_MMAP_BUILD_ID)) {
		const uint8_t *b = cursor_bytes(c, "build_id", 24);

		if (b) {
			m->build_id_size = b[0] > 20 ? 20 : b[0];
			m->build_id = b + 4;
		}
	} else if (two) {
		m->maj = cursor_u32(c, "maj");
		m->min = cursor_u32(c, "min");
		m->ino = cursor_u64(c, "ino");
		m->ino_generation = cursor_u64(c, "ino_generation");
	}
	if (two) {
		m->prot = cursor_u32(c, "prot");
		m->flags = cursor_u32(c, "flags");
	}
	m->filename = peo_cursor_string(c, "filename");
}

static void parse_task(struct cursor *c, struct peo_rec_task *t)
{
	t->pid = cursor_u32(c, "pid");
	t->ppid = cursor_u32(c, "ppid");
	t->tid = cursor_u32(c, "tid");
	t->ptid = cursor_u32(c, "ptid");
	t->time = cursor_u64(c, "time");
}

static void parse_text_poke(struct cursor *c, struct peo_rec_text_poke *t)
{
	t->addr = cursor_u64(c, "addr");
	t->old_len = cursor_u16(c, "old_len");
	t->new_len = cursor_u16(c, "new_len");
	t->old_bytes = cursor_bytes(c, "bytes (old)", t->old_len);
	t->new_bytes = cursor_bytes(c, "bytes (new)", t->new_len);
	c->off = c->err ? c->off : c->end; /* padding */
}

/* Every record type but SAMPLE; unknown types only flag themselves. */
static void parse_other(struct cursor *c, struct peo_record *r, const struct peo_attr *attr)
{
	switch (r->header.type) {
	case PEO_RECORD_MMAP:
	case PEO_RECORD_MMAP2:
		parse_mmap(c, r, r->header.type == PEO_RECORD_MMAP2);
		break;
	case PEO_RECORD_LOST:
		r->u.lost.id = cursor_u64(c, "id");
		r->u.lost.lost = cursor_u64(c, "lost");
		break;
	case PEO_RECORD_COMM:
		r->u.comm.pid = cursor_u32(c, "pid");
		r->u.comm.tid = cursor_u32(c, "tid");
		r->u.comm.exec = !!(r->header.misc & PEO_RECORD_MISC_COMM_EXEC);
		r->u.comm.comm = peo_cursor_string(c, "comm");
		break;
	case PEO_RECORD_EXIT:
	case PEO_RECORD_FORK:
		parse_task(c, &r->u.task);
		break;
	case PEO_RECORD_THROTTLE:
	case PEO_RECORD_UNTHROTTLE:
		r->u.throttle.time = cursor_u64(c, "time");
		r->u.throttle.id = cursor_u64(c, "id");
		r->u.throttle.stream_id = cursor_u64(c, "stream_id");
		break;
	case PEO_RECORD_READ:
		r->u.read.pid = cursor_u32(c, "pid");
		r->u.read.tid = cursor_u32(c, "tid");
		peo_parse_read(c, attr ? attr->read_format : 0, &r->u.read.read);
		break;
	case PEO_RECORD_AUX:
		r->u.aux.aux_offset = cursor_u64(c, "aux_offset");
		r->u.aux.aux_size = cursor_u64(c, "aux_size");
		r->u.aux.flags = cursor_u64(c, "flags");
		break;
	case PEO_RECORD_ITRACE_START:
		r->u.itrace_start.pid = cursor_u32(c, "pid");
		r->u.itrace_start.tid = cursor_u32(c, "tid");
		break;
	case PEO_RECORD_LOST_SAMPLES:
		r->u.lost_samples.lost = cursor_u64(c, "lost");
		break;
	case PEO_RECORD_SWITCH:
	case PEO_RECORD_SWITCH_CPU_WIDE:
		r->u.sw.out = !!(r->header.misc & PEO_RECORD_MISC_SWITCH_OUT);
		r->u.sw.preempt = !!(r->header.misc & PEO_RECORD_MISC_SWITCH_OUT_PREEMPT);
		if (r->header.type == PEO_RECORD_SWITCH_CPU_WIDE) {
			r->u.sw.next_prev_pid = cursor_u32(c, "next_prev_pid");
			r->u.sw.next_prev_tid = cursor_u32(c, "next_prev_tid");
		}
		break;
	case PEO_RECORD_NAMESPACES:
		r->u.namespaces.pid = cursor_u32(c, "pid");
		r->u.namespaces.tid = cursor_u32(c, "tid");
		r->u.namespaces.nr = cursor_u64(c, "nr_namespaces");
		r->u.namespaces.entries = cursor_array(c, "link_info", r->u.namespaces.nr, 16);
		break;
	case PEO_RECORD_KSYMBOL:
		r->u.ksymbol.addr = cursor_u64(c, "addr");
		r->u.ksymbol.len = cursor_u32(c, "len");
		r->u.ksymbol.ksym_type = cursor_u16(c, "ksym_type");
		r->u.ksymbol.flags = cursor_u16(c, "flags");
		r->u.ksymbol.name = peo_cursor_string(c, "name");
		break;
	case PEO_RECORD_BPF_EVENT:
		r->u.bpf_event.type = cursor_u16(c, "type");
		r->u.bpf_event.flags = cursor_u16(c, "flags");
		r->u.bpf_event.id = cursor_u32(c, "id");
		r->u.bpf_event.tag = cursor_bytes(c, "tag", 8);
		break;
	case PEO_RECORD_CGROUP:
		r->u.cgroup.id = cursor_u64(c, "id");
		r->u.cgroup.path = peo_cursor_string(c, "path");
		break;
	case PEO_RECORD_TEXT_POKE:
		parse_text_poke(c, &r->u.text_poke);
		break;
	case PEO_RECORD_AUX_OUTPUT_HW_ID:
		r->u.aux_output_hw_id.hw_id = cursor_u64(c, "hw_id");
		break;
	case PEO_RECORD_CALLCHAIN_DEFERRED:
		r->u.callchain_deferred.cookie = cursor_u64(c, "cookie");
		r->u.callchain_deferred.nr = cursor_u64(c, "nr");
		r->u.callchain_deferred.ips = cursor_array(c, "ips", r->u.callchain_deferred.nr, 8);
		break;
	default:
		r->unknown = 1;
		break;
	}
}

/*
 * Zero what a SAMPLE's parse does not write itself: the header, bytes and
 * swapped flag are taken, the fixed fields and the sample_id are written
 * whole (absent ones as 0).  A third less to clear than the whole record,
 * which had been a fifth of the parse.
 */
static void clear_for_sample(struct peo_record *out)
{
	_Static_assert(offsetof(struct peo_record, u.sample.read) % 8 == 0 &&
		       offsetof(struct peo_record, sample_id) % 8 == 0, "spans of whole u64s");
	peo_zero_span(out, offsetof(struct peo_record, u.sample.read),
		      offsetof(struct peo_record, sample_id));
	out->attr = NULL;
	out->unknown = 0;
	out->sample_id.fields = 0; /* an early error leaves no trailer of the record before */
}

int peo_record_parse(const struct peo_record_parser *p, const void *bytes, size_t len,
		     struct peo_record *out)
{
	int err;

	if (!p || !bytes || !out)
		return peo_fail(EINVAL, "peo_record_parse: argument '%s' is NULL",
				!p ? "p" : !bytes ? "bytes" : "out");
	if ((err = PEO_SIZED(out, peo_record, PEO_RECORD_SZ_0_1)))
		return err;
	return peo_record_fill(p, bytes, len, out);
}

int peo_record_fill(const struct peo_record_parser *p, const void *bytes, size_t len,
		    struct peo_record *out)
{
	struct cursor c = { 0 };
	const struct parse_attr *pa = NULL;
	struct peo_event_header h;
	uint64_t id = 0;
	int who;

	if (len < sizeof(h)) {
		peo_record_zero(out);
		return peo_fail(EPROTO, "record: %zu bytes cannot hold the 8-byte header", len);
	}
	h = peo_load_header(bytes, p->swap);
	if (h.type == PEO_RECORD_SAMPLE)
		clear_for_sample(out);
	else
		peo_record_zero(out);
	note_header(p, bytes, h, out);
	if (h.size < sizeof(h) || h.size > len)
		return peo_fail(EPROTO, "%s record: header.size %u is %s", peo_record_type_name(h.type),
				h.size, h.size < sizeof(h) ? "under the header's own 8 bytes"
							    : "more than the bytes given");
	if (!p->nattrs && (h.type == PEO_RECORD_SAMPLE || h.type == PEO_RECORD_READ))
		return peo_fail(EINVAL, "%s record: the parser has no attr; add one with "
				"peo_record_parser_add()", peo_record_type_name(h.type));
	if (p->nattrs && h.type < PEO_RECORD_MAX) { /* perf's own types carry no id */
		who = find_attr(p, bytes, h.type, h.size, &id);
		if (who == -2)
			return peo_fail(EPROTO, "%s record of %u bytes is too short to hold "
					"the event id", peo_record_type_name(h.type), h.size);
		if (who < 0)
			return peo_fail(ENOENT, "%s record: id %llu belongs to no attr the "
					"parser was given", peo_record_type_name(h.type),
					(unsigned long long)id);
		pa = who ? &p->attrs[who] : p->attrs; /* the usual 0 without a multiply */
		out->attr = &pa->attr;
	}
	c.p = bytes;
	c.off = sizeof(h);
	c.end = h.size;
	c.swap = p->swap;
	c.type = h.type;
	if (h.type == PEO_RECORD_SAMPLE) {
		peo_parse_sample(&c, pa, out);
		return c.err;
	}
	if (pa && pa->fixed.trailer_bytes && h.type < PEO_RECORD_MAX) {
		if (pa->fixed.trailer_bytes > h.size - sizeof(h))
			return peo_fail(EPROTO, "%s record of %u bytes cannot hold its %u-byte "
					"sample_id trailer", peo_record_type_name(h.type), h.size,
					pa->fixed.trailer_bytes);
		peo_parse_trailer(&pa->fixed, bytes, h.size, p->swap, &out->sample_id);
		c.end = h.size - pa->fixed.trailer_bytes;
	}
	parse_other(&c, out, pa ? &pa->attr : NULL);
	return c.err;
}

/* The attr of the record at @b (header @h) by the cheapest route, or NULL
 * when none is known (the full parse says why). */
static const struct parse_attr *peek_attr(const struct peo_record_parser *p,
					  const unsigned char *b, struct peo_event_header h)
{
	uint64_t id = 0;
	int who;

	if (!p->nattrs || h.type >= PEO_RECORD_MAX)
		return NULL;
	who = find_attr(p, b, h.type, h.size, &id);
	return who < 0 ? NULL : &p->attrs[who];
}

int peo_record_peek(const struct peo_record_parser *p, const void *bytes, size_t len,
		    struct peo_record *out, uint64_t *time)
{
	const unsigned char *b = bytes;
	const struct parse_attr *pa;
	struct peo_event_header h;
	size_t at;

	h = peo_load_header(bytes, p->swap);
	note_header(p, bytes, h, out);
	out->attr = NULL;
	out->unknown = 0; /* not a memset of the whole record: that was most of a --stats run */
	out->sample_id.fields = 0;
	if (h.size < sizeof(h) || h.size > len)
		return peo_fail(EPROTO, "%s record: header.size %u does not fit the %zu bytes given",
				peo_record_type_name(h.type), h.size, len);
	pa = peek_attr(p, b, h);
	if (!pa)
		return 0;
	out->attr = &pa->attr;
	if (!time || !(pa->attr.sample_type & PEO_SAMPLE_TIME))
		return 0;
	if (h.type == PEO_RECORD_SAMPLE)
		at = pa->fixed.at[FIXED_TIME];
	else if (pa->fixed.trailer_bytes && pa->fixed.trailer_bytes <= h.size - 8u)
		at = h.size - pa->fixed.back[FIXED_TIME];
	else
		return 0;
	if (at + 8 > h.size)
		return 0;
	*time = peo_load_u64(b + at, p->swap);
	return 1;
}

int peo_record_sample_pid_ip(const struct peo_record_parser *p, const void *bytes, size_t len,
			     uint32_t *pid, uint64_t *ip)
{
	const unsigned char *b = bytes;
	struct peo_event_header h = peo_load_header(bytes, p->swap);
	const struct parse_attr *pa;

	if (h.type != PEO_RECORD_SAMPLE || h.size < sizeof(h) || h.size > len ||
	    !(pa = peek_attr(p, b, h)) || !pa->fixed.at[FIXED_TID] || !pa->fixed.at[FIXED_IP] ||
	    pa->fixed.end > h.size)
		return 0;
	*pid = peo_load_u32(b + pa->fixed.at[FIXED_TID], p->swap);
	*ip = peo_load_u64(b + pa->fixed.at[FIXED_IP], p->swap);
	return 1;
}

int peo_record_parse_segments(const struct peo_record_parser *p, const void *seg0, size_t len0,
			      const void *seg1, size_t len1, void *scratch, size_t cap,
			      struct peo_record *out)
{
	if (!seg1 || !len1)
		return peo_record_parse(p, seg0, len0, out);
	if (!scratch || cap < len0 + len1)
		return peo_fail(ENOSPC, "peo_record_parse_segments: the record is split %zu + %zu "
				"bytes; the scratch buffer holds %zu", len0, len1, scratch ? cap : 0);
	memcpy(scratch, seg0, len0);
	memcpy((char *)scratch + len0, seg1, len1);
	return peo_record_parse(p, scratch, len0 + len1, out);
}

uint64_t peo_record_u64(const struct peo_record *r, const void *array, size_t i)
{
	return peo_record_word(r, array, i);
}

int peo_read_value(const struct peo_record *r, const struct peo_read *read, size_t i,
		   struct peo_read_value *out)
{
	int has_id = !!(read->format & PEO_FORMAT_ID), has_lost = !!(read->format & PEO_FORMAT_LOST);
	const unsigned char *tail;
	int err;

	if ((err = PEO_SIZED(out, peo_read_value, PEO_READ_VALUE_SZ_0_1)))
		return err;
	if (!read->values || i >= read->nr)
		return peo_fail(ERANGE, "peo_read_value: entry %zu of %llu", i,
				(unsigned long long)read->nr);
	*out = (struct peo_read_value){ .sz = out->sz };
	if (read->format & PEO_FORMAT_GROUP) {
		const unsigned char *e = (const unsigned char *)read->values + 8 * i * (1 + has_id + has_lost);

		out->value = peo_load_u64(e, r->swapped);
		tail = e + 8;
	} else {
		out->value = peo_load_u64(read->values, r->swapped);
		tail = read->single_tail;
	}
	if (has_id)
		out->id = peo_load_u64(tail, r->swapped);
	if (has_lost)
		out->lost = peo_load_u64(tail + 8 * has_id, r->swapped);
	return 0;
}

const char *peo_record_type_name(uint32_t type)
{
	static const char *const names[] = {
		NULL, "MMAP", "LOST", "COMM", "EXIT", "THROTTLE", "UNTHROTTLE", "FORK", "READ",
		"SAMPLE", "MMAP2", "AUX", "ITRACE_START", "LOST_SAMPLES", "SWITCH",
		"SWITCH_CPU_WIDE", "NAMESPACES", "KSYMBOL", "BPF_EVENT", "CGROUP", "TEXT_POKE",
		"AUX_OUTPUT_HW_ID", "CALLCHAIN_DEFERRED",
	};

	return type < PEO_ARRAY_SIZE(names) && names[type] ? names[type] : "UNKNOWN";
}
