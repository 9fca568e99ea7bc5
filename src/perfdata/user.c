/*
 * user.c - the fields of perf's own records (types 64 and up).
 */
#include <errno.h>
#include <string.h>

#include "perfdata/reader.h"

/* The bytes after the header, or -EPROTO when fewer than @need. */
static int body(const struct peo_record *r, size_t need, const unsigned char **p, size_t *n)
{
	*p = (const unsigned char *)r->bytes + 8;
	*n = r->header.size - 8u;
	if (*n < need)
		return peo_fail(EPROTO, "%s record: %zu bytes after the header, under the %zu its "
				"fields take", peo_user_record_type_name(r->header.type), *n, need);
	return 0;
}

static uint16_t u16_at(const struct peo_perfdata *f, const unsigned char *p)
{
	return peo_load_u16(p, f->hdr->swap);
}

/* nr u64 then nr entries of @each bytes: both inside the record. */
static int counted(const struct peo_perfdata *f, const struct peo_record *r, size_t each,
		   uint64_t *nr, const void **entries)
{
	const unsigned char *p;
	size_t n;
	int err = body(r, 8, &p, &n);

	if (err)
		return err;
	*nr = peo_pd_u64(f->hdr, p);
	if (*nr > (n - 8) / each)
		return peo_fail(EPROTO, "%s record: nr %llu at byte 8 needs %llu bytes; the record "
				"has %zu", peo_user_record_type_name(r->header.type),
				(unsigned long long)*nr, (unsigned long long)(*nr * each), n - 8);
	*entries = p + 8;
	return 0;
}

static int cpu_map(const struct peo_perfdata *f, const unsigned char *p, size_t n,
		   struct peo_user_record *out)
{
	uint16_t nr;

	if (n < 8)
		return peo_fail(EPROTO, "CPU_MAP record: %zu bytes, too few for its kind", n);
	out->u.cpu_map.kind = u16_at(f, p);
	out->u.cpu_map.data = p + 2;
	switch (out->u.cpu_map.kind) {
	case 0: /* u16 nr, u16 cpu[nr] */
		nr = u16_at(f, p + 2);
		if (2u + 2u + 2u * nr > n)
			return peo_fail(EPROTO, "CPU_MAP record: %u CPUs at byte 10 run past its %zu "
					"bytes", nr, n);
		out->u.cpu_map.nr = nr;
		out->u.cpu_map.data = p + 4;
		out->u.cpu_map.any = nr == 1 && u16_at(f, p + 4) == 0xffff;
		return 0;
	case 1: { /* u16 nr, u16 long_size, then mask words (u64 ones after a pad) */
		uint16_t ls = u16_at(f, p + 4);
		size_t start = ls == 8 ? 8 : 6, bits = 0;

		nr = u16_at(f, p + 2);
		if ((ls != 4 && ls != 8) || start + (size_t)ls * nr > n)
			return peo_fail(EPROTO, "CPU_MAP record: a mask of %u words of %u bytes runs "
					"past its %zu bytes (or the word size is neither 4 nor 8)",
					nr, ls, n);
		out->u.cpu_map.long_size = ls;
		out->u.cpu_map.data = p + start;
		for (uint16_t i = 0; i < nr; i++) {
			uint64_t w = ls == 8 ? peo_pd_u64(f->hdr, p + start + 8 * i)
					     : peo_pd_u32(f->hdr, p + start + 4 * i);

			bits += (size_t)__builtin_popcountll(w);
		}
		out->u.cpu_map.nr = (uint32_t)bits;
		out->u.cpu_map.start = nr; /* the word count, for peo_perfdata_cpu_map_cpu */
		return 0;
	}
	case 2: /* u8 any_cpu, u8 pad, u16 start, u16 end */
		out->u.cpu_map.any = p[2];
		out->u.cpu_map.start = u16_at(f, p + 4);
		out->u.cpu_map.end = u16_at(f, p + 6);
		if (out->u.cpu_map.end < out->u.cpu_map.start)
			return peo_fail(EPROTO, "CPU_MAP record: range %u-%u ends before it starts",
					out->u.cpu_map.start, out->u.cpu_map.end);
		out->u.cpu_map.nr = (uint32_t)(out->u.cpu_map.end - out->u.cpu_map.start + 1) +
				    (uint32_t)out->u.cpu_map.any;
		return 0;
	}
	return peo_fail(EPROTO, "CPU_MAP record: kind %u at byte 8 is none of 0 (list), 1 (mask), "
			"2 (range)", out->u.cpu_map.kind);
}

static int event_update(const struct peo_perfdata *f, const unsigned char *p, size_t n,
			struct peo_user_record *out)
{
	if (n < 16)
		return peo_fail(EPROTO, "EVENT_UPDATE record: %zu bytes, under its type and id", n);
	out->u.event_update.kind = peo_pd_u64(f->hdr, p);
	out->u.event_update.id = peo_pd_u64(f->hdr, p + 8);
	if (out->u.event_update.kind == 0 || out->u.event_update.kind == 2) { /* unit, name */
		if (n == 16 || !memchr(p + 16, '\0', n - 16))
			return peo_fail(EPROTO, "EVENT_UPDATE record: its %s at byte 24 has no NUL",
					out->u.event_update.kind ? "name" : "unit");
		out->u.event_update.text = (const char *)p + 16;
	} else if (out->u.event_update.kind == 1) { /* a double */
		uint64_t bits;

		if (n < 24)
			return peo_fail(EPROTO, "EVENT_UPDATE record: no room for its scale at byte 24");
		bits = peo_pd_u64(f->hdr, p + 16);
		memcpy(&out->u.event_update.scale, &bits, sizeof(bits));
	}
	return 0;
}

/* A NUL-terminated string in the @cap bytes at @p, or NULL. */
static const char *fixed_string(const unsigned char *p, size_t cap)
{
	return memchr(p, '\0', cap) ? (const char *)p : NULL;
}

int peo_pd_header_attr(const struct pd_header *h, const struct peo_record *r,
		       const unsigned char **attr, size_t *attr_size, size_t *nids)
{
	const unsigned char *p;
	size_t n, asize;
	int err;

	if ((err = body(r, 8, &p, &n)))
		return err;
	asize = peo_pd_u32(h, p + 4);
	if (asize < PEO_ATTR_SIZE_VER0 || asize > n || (n - asize) % 8)
		return peo_fail(EPROTO, "HEADER_ATTR record: attr.size %zu at byte 12 does not fit "
				"its %zu bytes", asize, n);
	*attr = p;
	*attr_size = asize;
	*nids = (n - asize) / 8;
	return 0;
}

/* The rarer types: EVENT_TYPE, BUILD_ID, AUXTRACE_INFO/ERROR, BPF_METADATA, SCHEDSTAT,
 * HEADER_ATTR, TRACING_DATA. */
static int decode_more(const struct peo_perfdata *f, const struct peo_record *r,
		       struct peo_user_record *out)
{
	const unsigned char *p;
	size_t n;
	int err;

	switch (r->header.type) {
	case PEO_RECORD_HEADER_ATTR: { /* the attr (its own size), then u64 ids */
		size_t asize, nids;

		if ((err = peo_pd_header_attr(f->hdr, r, &p, &asize, &nids)))
			return err;
		peo_attr_to_host(p, asize, f->hdr->swap, &out->u.header_attr.attr);
		out->u.header_attr.nids = nids;
		out->u.header_attr.ids = p + asize;
		return 0;
	}
	case PEO_RECORD_HEADER_TRACING_DATA: /* u32 size; the data follows the record */
		if ((err = body(r, 4, &p, &n)))
			return err;
		out->u.tracing_data.size = peo_pd_u32(f->hdr, p);
		return 0;
	case PEO_RECORD_HEADER_EVENT_TYPE: /* u64 id, char name[64] */
		if ((err = body(r, 72, &p, &n)))
			return err;
		out->u.event_type.id = peo_pd_u64(f->hdr, p);
		out->u.event_type.name = fixed_string(p + 8, 64);
		return out->u.event_type.name ? 0 : peo_fail(EPROTO, "EVENT_TYPE record: its name at "
							     "byte 16 has no NUL in 64 bytes");
	case PEO_RECORD_HEADER_BUILD_ID: /* pid, build_id[24] (20 + size + 3), filename */
		if ((err = body(r, 29, &p, &n)))
			return err;
		out->u.build_id.pid = (int32_t)peo_pd_u32(f->hdr, p);
		out->u.build_id.misc = r->header.misc;
		out->u.build_id.id = p + 4;
		out->u.build_id.size = (r->header.misc & (1u << 15)) && p[24] <= 20 ? p[24] : 20;
		out->u.build_id.filename = fixed_string(p + 28, n - 28);
		return out->u.build_id.filename ? 0 : peo_fail(EPROTO, "BUILD_ID record: its file name "
							       "at byte 36 has no NUL");
	case PEO_RECORD_AUXTRACE_INFO: /* u32 type, u32 reserved, u64 priv[] */
		if ((err = body(r, 8, &p, &n)))
			return err;
		out->u.auxtrace_info.type = peo_pd_u32(f->hdr, p);
		out->u.auxtrace_info.npriv = (n - 8) / 8;
		out->u.auxtrace_info.priv = p + 8;
		return 0;
	case PEO_RECORD_AUXTRACE_ERROR: { /* 6 u32, u64 ip, [u64 time], msg[64], [2 u32] */
		size_t at;

		if ((err = body(r, 32 + 64, &p, &n)))
			return err;
		out->u.auxtrace_error.type = peo_pd_u32(f->hdr, p);
		out->u.auxtrace_error.code = peo_pd_u32(f->hdr, p + 4);
		out->u.auxtrace_error.cpu = peo_pd_u32(f->hdr, p + 8);
		out->u.auxtrace_error.pid = peo_pd_u32(f->hdr, p + 12);
		out->u.auxtrace_error.tid = peo_pd_u32(f->hdr, p + 16);
		out->u.auxtrace_error.fmt = peo_pd_u32(f->hdr, p + 20);
		out->u.auxtrace_error.ip = peo_pd_u64(f->hdr, p + 24);
		at = 32;
		if (out->u.auxtrace_error.fmt >= 1) {
			if (n < at + 8 + 64)
				return peo_fail(EPROTO, "AUXTRACE_ERROR record: format %u needs a time at "
						"byte 40", out->u.auxtrace_error.fmt);
			out->u.auxtrace_error.time = peo_pd_u64(f->hdr, p + at);
			at += 8;
		}
		out->u.auxtrace_error.msg = fixed_string(p + at, 64) ? (const char *)p + at : "";
		at += 64;
		if (out->u.auxtrace_error.fmt >= 2 && n >= at + 8) {
			out->u.auxtrace_error.machine_pid = peo_pd_u32(f->hdr, p + at);
			out->u.auxtrace_error.vcpu = peo_pd_u32(f->hdr, p + at + 4);
		}
		return 0;
	}
	case PEO_RECORD_BPF_METADATA: /* char prog_name[512], u64 nr, {key[64], value[256]} */
		if ((err = body(r, 520, &p, &n)))
			return err;
		out->u.bpf_metadata.prog_name = fixed_string(p, 512);
		out->u.bpf_metadata.nr = peo_pd_u64(f->hdr, p + 512);
		out->u.bpf_metadata.entries = p + 520;
		if (!out->u.bpf_metadata.prog_name || out->u.bpf_metadata.nr > (n - 520) / 320)
			return peo_fail(EPROTO, "BPF_METADATA record: %s", !out->u.bpf_metadata.prog_name
					? "its program name at byte 8 has no NUL in 512 bytes"
					: "nr at byte 520 counts more entries than the record holds");
		return 0;
	case PEO_RECORD_SCHEDSTAT_CPU:
	case PEO_RECORD_SCHEDSTAT_DOMAIN: /* u64 timestamp, u32 cpu, u16 version, then v15-v17 fields */
		if ((err = body(r, 14, &p, &n)))
			return err;
		out->u.schedstat.timestamp = peo_pd_u64(f->hdr, p);
		out->u.schedstat.cpu = peo_pd_u32(f->hdr, p + 8);
		out->u.schedstat.version = u16_at(f, p + 12);
		out->u.schedstat.rest = p + 14;
		out->u.schedstat.rest_size = n - 14;
		return 0;
	}
	return peo_fail(ENOENT, "%s record: peo_perfdata_decode_user has no fields for it",
			peo_user_record_type_name(r->header.type));
}

int peo_perfdata_decode_user(const struct peo_perfdata *f, const struct peo_record *r,
			     struct peo_user_record *out)
{
	const unsigned char *p;
	size_t n;
	int err;

	if (!f || !r || !out)
		return peo_fail(EINVAL, "peo_perfdata_decode_user: a NULL argument");
	if ((err = PEO_SIZED(out, peo_user_record, PEO_USER_RECORD_SZ_0_1)))
		return err;
	*out = (struct peo_user_record){ .sz = out->sz };
	out->type = r->header.type;
	switch (r->header.type) {
	case PEO_RECORD_ID_INDEX:
		if ((err = counted(f, r, 32, &out->u.id_index.nr, &out->u.id_index.entries)))
			return err;
		/* the second entries only where the record has room for all of them */
		if ((r->header.size - 16u) / 48 >= out->u.id_index.nr && out->u.id_index.nr)
			out->u.id_index.entries_2 =
				(const unsigned char *)out->u.id_index.entries + 32 * out->u.id_index.nr;
		return 0;
	case PEO_RECORD_THREAD_MAP:
		return counted(f, r, 24, &out->u.thread_map.nr, &out->u.thread_map.entries);
	case PEO_RECORD_STAT_CONFIG:
		return counted(f, r, 16, &out->u.stat_config.nr, &out->u.stat_config.pairs);
	case PEO_RECORD_CPU_MAP:
		err = body(r, 0, &p, &n);
		return err ? err : cpu_map(f, p, n, out);
	case PEO_RECORD_STAT:
		if ((err = body(r, 40, &p, &n)))
			return err;
		out->u.stat.id = peo_pd_u64(f->hdr, p);
		out->u.stat.cpu = peo_pd_u32(f->hdr, p + 8);
		out->u.stat.thread = peo_pd_u32(f->hdr, p + 12);
		out->u.stat.value = peo_pd_u64(f->hdr, p + 16);
		out->u.stat.enabled = peo_pd_u64(f->hdr, p + 24);
		out->u.stat.running = peo_pd_u64(f->hdr, p + 32);
		return 0;
	case PEO_RECORD_STAT_ROUND:
		if ((err = body(r, 16, &p, &n)))
			return err;
		out->u.stat_round.kind = peo_pd_u64(f->hdr, p);
		out->u.stat_round.time = peo_pd_u64(f->hdr, p + 8);
		return 0;
	case PEO_RECORD_EVENT_UPDATE:
		err = body(r, 0, &p, &n);
		return err ? err : event_update(f, p, n, out);
	case PEO_RECORD_TIME_CONV:
		if ((err = body(r, 24, &p, &n)))
			return err;
		out->u.time_conv.time_shift = peo_pd_u64(f->hdr, p);
		out->u.time_conv.time_mult = peo_pd_u64(f->hdr, p + 8);
		out->u.time_conv.time_zero = peo_pd_u64(f->hdr, p + 16);
		if (n >= 48) { /* the long form: cycles, mask, two capability bytes */
			out->u.time_conv.has_cycles = 1;
			out->u.time_conv.time_cycles = peo_pd_u64(f->hdr, p + 24);
			out->u.time_conv.time_mask = peo_pd_u64(f->hdr, p + 32);
			out->u.time_conv.cap_user_time_zero = p[40];
			out->u.time_conv.cap_user_time_short = p[41];
		}
		return 0;
	case PEO_RECORD_HEADER_FEATURE:
		if ((err = body(r, 8, &p, &n)))
			return err;
		out->u.header_feature.feature = peo_pd_u64(f->hdr, p);
		out->u.header_feature.bytes = p + 8;
		out->u.header_feature.size = n - 8;
		return 0;
	case PEO_RECORD_AUXTRACE:
		if ((err = body(r, 36, &p, &n)))
			return err;
		out->u.auxtrace.size = peo_pd_u64(f->hdr, p);
		out->u.auxtrace.offset = peo_pd_u64(f->hdr, p + 8);
		out->u.auxtrace.reference = peo_pd_u64(f->hdr, p + 16);
		out->u.auxtrace.idx = peo_pd_u32(f->hdr, p + 24);
		out->u.auxtrace.tid = peo_pd_u32(f->hdr, p + 28);
		out->u.auxtrace.cpu = peo_pd_u32(f->hdr, p + 32);
		return 0;
	}
	return decode_more(f, r, out);
}

uint64_t peo_perfdata_user_u64(const struct peo_perfdata *f, const void *array, size_t i)
{
	return peo_pd_u64(f->hdr, (const unsigned char *)array + 8 * i);
}

int peo_perfdata_cpu_map_cpu(const struct peo_perfdata *f, const struct peo_user_record *m,
			     uint32_t i)
{
	const unsigned char *d = m->u.cpu_map.data;

	if (m->type != PEO_RECORD_CPU_MAP || i >= m->u.cpu_map.nr)
		return -1;
	switch (m->u.cpu_map.kind) {
	case 0: {
		uint16_t cpu = u16_at(f, d + 2 * i);

		return cpu == 0xffff ? -1 : cpu;
	}
	case 1: /* the i-th set bit */
		for (uint32_t w = 0, seen = 0; w < m->u.cpu_map.start; w++) {
			uint64_t word = m->u.cpu_map.long_size == 8 ? peo_pd_u64(f->hdr, d + 8 * w)
								    : peo_pd_u32(f->hdr, d + 4 * w);

			for (unsigned b = 0; b < 8u * m->u.cpu_map.long_size; b++)
				if (word >> b & 1 && seen++ == i)
					return (int)(w * 8u * m->u.cpu_map.long_size + b);
		}
		return -1;
	default: /* a range, after "any" when it is there */
		if (m->u.cpu_map.any && i == 0)
			return -1;
		return m->u.cpu_map.start + (int)i - m->u.cpu_map.any;
	}
}
