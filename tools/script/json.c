/*
 * script/json.c - peo script --json: one JSON object a record (JSON
 * Lines), every field it carries; a sample's tracepoint fields by its
 * format.  The fields of each kind of record are script/json_kernel.c's
 * and script/json_user.c's (script/json.h).
 */
#include <string.h>

#include "script/frames.h"
#include "script/json.h"
#include "script/output.h"
#include "script/run.h"
#include "script/srcline.h"
#include "script/worker.h"

/* ,"sym":...,"symoff":N,"dso":... of a frame: what is known of it. */
static void json_symbol(struct out *o, const struct peo_frame *fr)
{
	if (fr->sym) {
		json_key_str(o, "sym", fr->sym);
		JSON_U64(o, "symoff", fr->symoff);
	}
	if (fr->dso)
		json_key_str(o, "dso", fr->dso);
}

/* A frame's place for json_frame(): @place (NULL: none known) in a frame
 * of an unwound stack or not. */
struct json_place {
	const struct peo_srcline *place;
	int unwound;
};

/* Whether --json was asked for srclines (-F srcline or +srcline). */
static int json_srclines(const struct script_worker *w)
{
	return ((w->run->a.fields | w->run->a.fields_add) & F_SRCLINE) != 0;
}

/* ,"srcline":"file:line" as perf script prints it under a frame (none
 * when it prints nothing). */
static void json_srcline(struct out *o, const struct peo_frame *fr, const struct peo_srcline *pl,
			 int unwound)
{
	char text[256];
	size_t len = script_srcline_text(fr, pl, unwound, text, sizeof(text));

	if (len)
		json_key_str(o, "srcline", text);
}

/* One frame of "frames": {"ip":"0x..",...what it is} (and "inlined":true
 * for a function inlined there, named with the outer symbol's offset),
 * with its source line when @pl (see json_srcline()). */
static void json_frame(struct out *o, int *n, uint64_t ip, const struct peo_frame *fr, int inlined,
		       const struct json_place *pl)
{
	out_str(o, (*n)++ ? ",{\"ip\":\"0x" : "{\"ip\":\"0x");
	out_advance(o, put_quote(put_hex(out_room(o, 18), ip, 0)));
	if (inlined) {
		json_key_str(o, "sym", fr->sym);
		JSON_U64(o, "symoff", fr->symoff);
		out_str(o, ",\"inlined\":true");
	} else {
		json_symbol(o, fr);
	}
	if (pl)
		json_srcline(o, fr, pl->place, pl->unwound);
	out_char(o, '}');
}

/* ,"frames":[{"ip":...,"sym":...},...]: the callchain's frames (its
 * context markers left out), each with what it is; for a sample with a
 * user stack, its kernel part, then the user frames unwound (a caller's
 * ip is its return address, named at the address before it, as perf
 * names it), each after the functions inlined there. */
static void json_frames(struct script_worker *w, const struct peo_record *r)
{
	struct peo_callchain_iter it = { .sz = sizeof(it) };
	struct peo_frame fr = { .sz = sizeof(fr) };
	struct out *o = w->out;
	uint64_t ip, ips[SCRIPT_MAX_STACK];
	int64_t ctx;
	int n = 0, nu = script_unwind(w, r, ips);

	int src = json_srclines(w), inl = !w->run->a.no_inline;

	out_str(o, ",\"frames\":[");
	peo_callchain_begin(&it, r);
	while (peo_callchain_next(&it, &ip, &ctx)) {
		struct peo_srcline places[SCRIPT_MAX_PLACES];
		uint16_t mode = callchain_cpumode(ctx);
		int np;

		if (nu && mode == PEO_RECORD_MISC_USER)
			break; /* the unwound frames stand for it */
		script_look_up(w, r, mode, ip, &fr);
		np = src && mode == PEO_RECORD_MISC_USER ? script_places(w, r, ip, places) : 0;
		json_frame(o, &n, ip, &fr, 0,
			   src ? &(struct json_place){ np ? places : NULL, 0 } : NULL);
	}
	for (int i = 0; i < nu; i++) {
		uint64_t at = script_unwound_at(i, ips[i]);
		const char *names[SCRIPT_MAX_PLACES - 1];
		struct peo_srcline places[SCRIPT_MAX_PLACES];
		int k = 0, np = 0;

		script_look_up(w, r, PEO_RECORD_MISC_USER, at, &fr);
		if (fr.sym && w->procs && inl)
			k = peo_processes_inlines(w->procs, r->sample_id.pid, at, names,
						  SCRIPT_MAX_PLACES - 1);
		k = k > 0 ? k : 0;
		if (src)
			np = script_places(w, r, at, places);
		for (int j = 0; j < k; j++) {
			struct peo_frame in = fr;

			in.sym = names[j];
			json_frame(o, &n, ips[i], &in, strcmp(names[j], fr.sym) != 0,
				   src ? &(struct json_place){ j < np ? &places[j] : NULL, 1 } : NULL);
		}
		json_frame(o, &n, ips[i], &fr, 0,
			   src ? &(struct json_place){ np > k ? &places[k] : NULL, inl && fr.sym } : NULL);
	}
	out_char(o, ']');
}

/* A JSON sample; @label is its event's quoted name, @format its tracepoint
 * format (or NULL).  Its fixed fields go in room made once, the callchain's
 * frames in room made a frame at a time. */
static void print_sample_json(struct script_worker *w, const struct peo_record *r,
			      const char *label, size_t label_len, const struct peo_tp_format *format)
{
	struct out *o = w->out;
	static const char start[] = "{\"type\":\"SAMPLE\",\"event\":";
	const struct peo_sample *smp = &r->u.sample;
	uint64_t st = r->attr ? r->attr->sample_type : 0;
	char *p;

	out_bytes(o, start, sizeof(start) - 1);
	out_bytes(o, label, label_len);
	p = out_room(o, 9 * JSON_FIELD_ROOM); /* the 9 PUT_*() below at most */
	p = PUT_U64(p, "misc", r->header.misc); /* cpumode, exact ip... */
	if (st & PEO_SAMPLE_TID) {
		p = PUT_PID(p, "pid", smp->pid);
		p = PUT_PID(p, "tid", smp->tid);
	}
	if (st & PEO_SAMPLE_TIME)
		p = PUT_U64(p, "time", smp->time);
	if (st & PEO_SAMPLE_CPU)
		p = PUT_U64(p, "cpu", smp->cpu);
	if (st & PEO_SAMPLE_IP)
		p = PUT_HEX(p, "ip", smp->ip);
	if (st & PEO_SAMPLE_ADDR)
		p = PUT_HEX(p, "addr", smp->addr);
	p = PUT_U64(p, "period", script_sample_period(r));
	if (st & (PEO_SAMPLE_ID | PEO_SAMPLE_IDENTIFIER)) /* the same id where both are */
		p = PUT_U64(p, "id", st & PEO_SAMPLE_ID ? smp->id : smp->identifier);
	out_advance(o, p);
	if ((st & PEO_SAMPLE_TID) && w->procs) {
		const char *comm = peo_processes_comm(w->procs, smp->tid);

		if (comm)
			json_key_str(o, "comm", comm);
	}
	if (st & PEO_SAMPLE_IP) {
		struct peo_frame fr = { .sz = sizeof(fr) };

		uint16_t mode = r->header.misc & PEO_RECORD_MISC_CPUMODE_MASK;

		script_look_up(w, r, mode, smp->ip, &fr);
		json_symbol(o, &fr);
		if (json_srclines(w)) {
			struct peo_srcline places[SCRIPT_MAX_PLACES];
			int np = mode == PEO_RECORD_MISC_USER ? script_places(w, r, smp->ip, places) : 0;

			json_srcline(o, &fr, np ? places : NULL, 0);
		}
	}
	if (st & PEO_SAMPLE_ADDR) { /* a page fault's addr, named as perf names it */
		struct peo_frame fr = { .sz = sizeof(fr) };

		if (script_addr_named(w, r, &fr)) {
			if (fr.sym) {
				json_key_str(o, "addr_sym", fr.sym);
				JSON_U64(o, "addr_symoff", fr.symoff);
			}
			if (fr.dso)
				json_key_str(o, "addr_dso", fr.dso);
		}
	}
	if (st & PEO_SAMPLE_CALLCHAIN) {
		/* The kernel's ips as they are, its context markers (PERF_CONTEXT_*:
		 * where the kernel's frames end and the user's begin) included.
		 * The key and the first frame's quote in one copy. */
		static const char first[] = ",\"callchain\":[\"0x", next[] = ",\"0x";

		for (uint64_t i = 0; i < smp->callchain_nr; i++) {
			p = i ? put_bytes(out_room(o, sizeof(first) + 17), next, sizeof(next) - 1)
			      : put_bytes(out_room(o, sizeof(first) + 17), first, sizeof(first) - 1);
			out_advance(o, put_quote(put_hex(p, peo_record_u64(r, smp->callchain, i), 0)));
		}
		out_str(o, smp->callchain_nr ? "]" : ",\"callchain\":[]");
		json_frames(w, r);
	}
	if (st & PEO_SAMPLE_RAW)
		JSON_U64(o, "raw_size", smp->raw_size);
	if (format && smp->raw) /* a tracepoint's, by its format; else its bytes */
		json_tp_fields(o, format, r, smp->raw, smp->raw_size);
	else if (smp->raw)
		json_hex_bytes(o, "raw", smp->raw, smp->raw_size);
	if (st & JSON_SAMPLE_MORE)
		json_sample_more(o, r);
	out_bytes(o, "}\n", 2);
}

/* A record other than a sample.  Returns non-zero when one of perf's own
 * does not decode (its line is ended first: the lines before stay JSON). */
static int print_other_json(struct out *o, const struct peo_perfdata *f, const struct peo_record *r)
{
	int bad = 0;

	out_str(o, "{\"type\":\"");
	out_str(o, peo_user_record_type_name(r->header.type));
	out_char(o, '"');
	JSON_U64(o, "misc", r->header.misc);
	if (r->header.type >= PEO_RECORD_HEADER_ATTR && r->header.type < PEO_RECORD_USER_MAX)
		bad = json_user_record(o, f, r);
	else
		json_kernel_record(o, r);
	out_str(o, "}\n");
	return bad;
}

static int json_record(struct script_worker *w, const struct script_record *r)
{
	if (r->rec->header.type == PEO_RECORD_SAMPLE)
		print_sample_json(w, r->rec, r->column, r->column_len, r->format);
	else if (r->print && print_other_json(w->out, w->run->f, r->rec))
		return -1;
	return 0;
}

/* Every record but the side ones (task and maps) not asked for. */
static int json_shows(const struct script_args *a, uint32_t type)
{
	return !(script_builds_state(type) || type == PEO_RECORD_EXIT) || script_side_shown(a, type);
}

/* Every field a sample has, none asked: its event's name, its tracepoint's fields. */
static unsigned json_sample_needs(const struct script_args *a, const struct peo_attr *attr)
{
	(void)a;
	(void)attr;
	return F_EVENT | F_TRACE;
}

/* The event column: the quoted name (one too long for @cap quoted is cut
 * before quoting: still JSON). */
static size_t json_column(struct script_run *run, const char *name, char *buf, size_t cap)
{
	size_t len = strlen(name);

	(void)run;
	if (6 * len + 2 > cap)
		len = (cap - 2) / 6;
	return (size_t)(put_json_string(buf, name, len) - buf);
}

/* Every line names its ip's function and binary. */
static unsigned json_preload(struct script_run *run)
{
	return PEO_PRELOAD_KERNEL | PEO_PRELOAD_BINARIES |
	       script_preload_dwarf(run, ((run->a.fields | run->a.fields_add) & F_SRCLINE) != 0);
}

const struct script_output script_json_output = {
	.record = json_record,
	.shows = json_shows,
	.sample_needs = json_sample_needs,
	.column = json_column,
	.preload = json_preload,
	.keeps_state = 1, /* comm, and what each address is */
	.max_workers = 6,
	/* JSON, three times the text's bytes, keeps the writer thread: workers
	 * writing their own wait on each other's writes (bench/bench_output.c),
	 * spinning; on 16 cores JSON took 223 against 253 ms and 205 against
	 * 216 (medians of 7 and 11), a fifth less CPU. */
	.positioned = 0,
};
