/*
 * script/json_user.c - peo script --json: the fields of perf's own records
 * (64 and up), under perf's names for them; a field called "type" under
 * RECORD_type, since "type" is the record's own.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "commands.h"
#include "script/json.h"

static uint64_t file_u64(const void *f, const void *array, size_t i)
{
	return peo_perfdata_user_u64(f, array, i);
}

/* ,"key":value with a key not known at compile time. */
static void json_u64(struct out *o, const char *key, uint64_t v)
{
	json_key(o, key);
	out_u64(o, v, 0);
}

/* ,"key":"text" of a fixed-size field of @cap bytes (its NUL, if any, ends it). */
static void json_fixed_str(struct out *o, const char *key, const void *text, size_t cap)
{
	json_key(o, key);
	out_json_string(o, text, strnlen(text, cap));
}

static void json_stat_config(struct out *o, const struct peo_perfdata *f,
			     const struct peo_user_record *u)
{
	static const char *const tags[] = { "aggr_mode", "interval", "scale", "aggr_level" };

	uint64_t nr = u->u.stat_config.nr;

	for (uint64_t i = 0; i < nr; i++) {
		uint64_t tag = peo_perfdata_user_u64(f, u->u.stat_config.pairs, 2 * i);
		uint64_t v = peo_perfdata_user_u64(f, u->u.stat_config.pairs, 2 * i + 1);
		uint64_t later = i + 1;
		char name[32];

		/* A repeated tag: the last one counts, as perf applies them in
		 * order, and a key twice in one object is not JSON readers agree on. */
		while (later < nr && peo_perfdata_user_u64(f, u->u.stat_config.pairs, 2 * later) != tag)
			later++;
		if (later < nr)
			continue;
		if (tag < sizeof(tags) / sizeof(tags[0])) {
			json_u64(o, tags[tag], v);
		} else { /* a tag newer than peo: kept under its number */
			snprintf(name, sizeof(name), "tag_%llu", (unsigned long long)tag);
			json_u64(o, name, v);
		}
	}
}

static void json_thread_map(struct out *o, const struct peo_perfdata *f,
			    const struct peo_user_record *u)
{
	out_str(o, ",\"threads\":[");
	for (uint64_t i = 0; i < u->u.thread_map.nr; i++) {
		const unsigned char *e = (const unsigned char *)u->u.thread_map.entries + 24 * i;

		out_str(o, i ? ",{\"pid\":" : "{\"pid\":");
		out_u64(o, peo_perfdata_user_u64(f, e, 0), 0);
		json_fixed_str(o, "comm", e + 8, 16);
		out_char(o, '}');
	}
	out_char(o, ']');
}

static void json_id_index(struct out *o, const struct peo_perfdata *f,
			  const struct peo_user_record *u)
{
	static const char *const keys[] = { "{\"id\":", ",\"idx\":", ",\"cpu\":", ",\"tid\":" };

	JSON_U64(o, "nr", u->u.id_index.nr);
	out_str(o, ",\"entries\":[");
	for (uint64_t i = 0; i < u->u.id_index.nr; i++) {
		if (i)
			out_char(o, ',');
		for (unsigned k = 0; k < 4; k++) { /* cpu and tid: -1 for "any" */
			uint64_t v = peo_perfdata_user_u64(f, u->u.id_index.entries, 4 * i + k);

			out_str(o, keys[k]);
			out_advance(o, k < 2 ? put_dec(out_room(o, 21), v, 0, 0)
					     : put_i64(out_room(o, 21), (int64_t)v, 0));
		}
		if (u->u.id_index.entries_2) {
			JSON_U64(o, "machine_pid", peo_perfdata_user_u64(f, u->u.id_index.entries_2, 2 * i));
			JSON_U64(o, "vcpu", peo_perfdata_user_u64(f, u->u.id_index.entries_2, 2 * i + 1));
		}
		out_char(o, '}');
	}
	out_char(o, ']');
}

struct attr_json {
	struct out *o;
	int put; /* fields put so far: the first has no comma */
};

/* An attr field as JSON: a number, signed, or "0x..." for configs, masks and bit sets. */
static void json_attr_item(void *ctx, const struct attr_item *it)
{
	struct attr_json *j = ctx;
	size_t len = out_strlen(it->key); /* the kernel's short names */
	char *p = out_room(j->o, 26 + len);

	if (j->put++)
		*p++ = ',';
	*p++ = '"';
	p = put_bytes(put_bytes(p, it->key, len), "\":", 2);
	if (it->style == 'x' || it->style == 'b')
		p = put_json_hex(p, it->v);
	else if (it->style == 'd')
		p = put_i64(p, (int64_t)it->v, 0);
	else
		p = put_dec(p, it->v, 0, 0);
	out_advance(j->o, p);
}

/* ,"attr":{...},"ids":[...]: every field of the attr, zero or not, under
 * the kernel's names (a union's by what the attr says it holds). */
static void json_header_attr(struct out *o, const struct peo_perfdata *f,
			     const struct peo_user_record *u)
{
	struct attr_json j = { o, 0 };

	out_str(o, ",\"attr\":{");
	attr_walk(&u->u.header_attr.attr, json_attr_item, &j);
	out_char(o, '}');
	json_u64_array(o, "ids", file_u64, f, u->u.header_attr.ids, u->u.header_attr.nids, 0);
}

int json_user_record(struct out *o, const struct peo_perfdata *f, const struct peo_record *r)
{
	struct peo_user_record u = { .sz = sizeof(u) };
	char num[64];
	int err;

	/* many a FINISHED_ROUND, no fields: asking costs an error's sentence each */
	if (r->header.type == PEO_RECORD_FINISHED_ROUND || r->header.type == PEO_RECORD_FINISHED_INIT)
		return 0;
	if ((err = peo_perfdata_decode_user(f, r, &u)))
		return err == -ENOENT ? 0 : -1; /* no fields (HEADER_ATTR...), or a malformed one */
	switch (u.type) {
	case PEO_RECORD_STAT:
		JSON_U64(o, "id", u.u.stat.id);
		JSON_PID(o, "cpu", u.u.stat.cpu);
		JSON_U64(o, "thread", u.u.stat.thread);
		JSON_U64(o, "value", u.u.stat.value);
		JSON_U64(o, "enabled", u.u.stat.enabled);
		JSON_U64(o, "running", u.u.stat.running);
		break;
	case PEO_RECORD_STAT_ROUND:
		out_str(o, u.u.stat_round.kind ? ",\"kind\":\"FINAL\"" : ",\"kind\":\"INTERVAL\"");
		JSON_U64(o, "time", u.u.stat_round.time);
		break;
	case PEO_RECORD_STAT_CONFIG:
		json_stat_config(o, f, &u);
		break;
	case PEO_RECORD_THREAD_MAP:
		json_thread_map(o, f, &u);
		break;
	case PEO_RECORD_CPU_MAP:
		out_str(o, ",\"cpus\":[");
		for (uint32_t i = 0; i < u.u.cpu_map.nr; i++) {
			snprintf(num, sizeof(num), "%s%d", i ? "," : "",
				 peo_perfdata_cpu_map_cpu(f, &u, i));
			out_str(o, num);
		}
		out_char(o, ']');
		break;
	case PEO_RECORD_EVENT_UPDATE:
		JSON_U64(o, "kind", u.u.event_update.kind); /* 0 unit, 1 scale, 2 name, 3 cpus */
		JSON_U64(o, "id", u.u.event_update.id);
		if (u.u.event_update.kind == 3) { /* a CPU map's bytes, after kind and id */
			json_hex_bytes(o, "data", (const unsigned char *)r->bytes + 24,
				       r->header.size > 24 ? r->header.size - 24u : 0);
		} else if (u.u.event_update.kind == 1) { /* every digit; JSON has no inf or nan */
			if (isfinite(u.u.event_update.scale))
				snprintf(num, sizeof(num), ",\"scale\":%.17g", u.u.event_update.scale);
			else
				snprintf(num, sizeof(num), ",\"scale\":null");
			out_str(o, num);
		} else if (u.u.event_update.text) {
			out_str(o, u.u.event_update.kind ? ",\"name\":" : ",\"unit\":");
			json_str(o, u.u.event_update.text);
		}
		break;
	case PEO_RECORD_ID_INDEX:
		json_id_index(o, f, &u);
		break;
	case PEO_RECORD_TIME_CONV:
		JSON_U64(o, "time_shift", u.u.time_conv.time_shift);
		JSON_U64(o, "time_mult", u.u.time_conv.time_mult);
		JSON_U64(o, "time_zero", u.u.time_conv.time_zero);
		if (u.u.time_conv.has_cycles) {
			JSON_U64(o, "time_cycles", u.u.time_conv.time_cycles);
			JSON_HEX(o, "time_mask", u.u.time_conv.time_mask);
			JSON_U64(o, "cap_user_time_zero", u.u.time_conv.cap_user_time_zero);
			JSON_U64(o, "cap_user_time_short", u.u.time_conv.cap_user_time_short);
		}
		break;
	case PEO_RECORD_HEADER_FEATURE: /* the section as it is (--header decodes it) */
		JSON_U64(o, "feature", u.u.header_feature.feature);
		json_hex_bytes(o, "data", u.u.header_feature.bytes, u.u.header_feature.size);
		break;
	case PEO_RECORD_AUXTRACE: /* its payload follows the record; not read */
		JSON_U64(o, "size", u.u.auxtrace.size);
		JSON_HEX(o, "offset", u.u.auxtrace.offset);
		JSON_HEX(o, "reference", u.u.auxtrace.reference);
		JSON_U64(o, "idx", u.u.auxtrace.idx);
		JSON_PID(o, "tid", u.u.auxtrace.tid);
		JSON_PID(o, "cpu", u.u.auxtrace.cpu);
		break;
	case PEO_RECORD_HEADER_ATTR:
		json_header_attr(o, f, &u);
		break;
	case PEO_RECORD_HEADER_TRACING_DATA: /* the format files follow the record; not read */
		JSON_U64(o, "size", u.u.tracing_data.size);
		break;
	case PEO_RECORD_HEADER_EVENT_TYPE:
		JSON_U64(o, "id", u.u.event_type.id);
		json_key_str(o, "name", u.u.event_type.name);
		break;
	case PEO_RECORD_HEADER_BUILD_ID:
		JSON_PID(o, "pid", (uint32_t)u.u.build_id.pid);
		json_hex_bytes(o, "build_id", u.u.build_id.id, u.u.build_id.size);
		json_key_str(o, "filename", u.u.build_id.filename);
		break;
	case PEO_RECORD_AUXTRACE_INFO:
		JSON_U64(o, "auxtrace_info_type", u.u.auxtrace_info.type);
		json_u64_array(o, "priv", file_u64, f, u.u.auxtrace_info.priv, u.u.auxtrace_info.npriv, 1);
		break;
	case PEO_RECORD_AUXTRACE_ERROR:
		JSON_U64(o, "auxtrace_error_type", u.u.auxtrace_error.type);
		JSON_U64(o, "code", u.u.auxtrace_error.code);
		JSON_PID(o, "cpu", u.u.auxtrace_error.cpu);
		JSON_PID(o, "pid", u.u.auxtrace_error.pid);
		JSON_PID(o, "tid", u.u.auxtrace_error.tid);
		JSON_U64(o, "fmt", u.u.auxtrace_error.fmt);
		JSON_HEX(o, "ip", u.u.auxtrace_error.ip);
		if (u.u.auxtrace_error.fmt >= 1)
			JSON_U64(o, "time", u.u.auxtrace_error.time);
		json_key_str(o, "msg", u.u.auxtrace_error.msg);
		/* fmt 2's machine_pid and vcpu, where the record holds them (else none made up) */
		if (u.u.auxtrace_error.fmt >= 2 && r->header.size >= 8u + 32 + 8 + 64 + 8) {
			JSON_PID(o, "machine_pid", u.u.auxtrace_error.machine_pid);
			JSON_PID(o, "vcpu", u.u.auxtrace_error.vcpu);
		}
		break;
	case PEO_RECORD_BPF_METADATA:
		json_key_str(o, "prog_name", u.u.bpf_metadata.prog_name);
		out_str(o, ",\"entries\":[");
		for (uint64_t i = 0; i < u.u.bpf_metadata.nr; i++) {
			const char *e = (const char *)u.u.bpf_metadata.entries + 320 * i;

			out_str(o, i ? ",{\"key\":" : "{\"key\":");
			out_json_string(o, e, strnlen(e, 64));
			json_fixed_str(o, "value", e + 64, 256);
			out_char(o, '}');
		}
		out_char(o, ']');
		break;
	case PEO_RECORD_SCHEDSTAT_CPU:
	case PEO_RECORD_SCHEDSTAT_DOMAIN: /* the common head; the counters by version follow */
		JSON_U64(o, "timestamp", u.u.schedstat.timestamp);
		JSON_PID(o, "cpu", u.u.schedstat.cpu);
		JSON_U64(o, "version", u.u.schedstat.version);
		json_hex_bytes(o, "data", u.u.schedstat.rest, u.u.schedstat.rest_size);
		break;
	}
	return 0;
}
