/*
 * cmd_script.c - peo script: the records of a perf.data file as perf
 * script prints them (text), as JSON Lines, or counted as perf report
 * --stats counts them.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <peo/peo.h>

#include "commands.h"
#include "script_maps.h"
#include "script_log.h"
#include "script_out.h"
#include "script_pool.h"
#include "script_json.h"
#include "script_threads.h"

enum field {
	F_COMM = 1 << 0, F_PID = 1 << 1, F_TID = 1 << 2, F_CPU = 1 << 3, F_TIME = 1 << 4,
	F_EVENT = 1 << 5, F_IP = 1 << 6, F_ADDR = 1 << 7, F_PERIOD = 1 << 8,
	F_TRACE = 1 << 9,
};

static const struct {
	const char *name;
	unsigned bit;
} field_names[] = {
	{ "comm", F_COMM }, { "pid", F_PID }, { "tid", F_TID }, { "cpu", F_CPU },
	{ "time", F_TIME }, { "event", F_EVENT }, { "ip", F_IP }, { "addr", F_ADDR },
	{ "period", F_PERIOD }, { "trace", F_TRACE },
};

/* The most bytes of an event's column (a longer name is cut). */
#define LABEL_MAX 4096

struct script_args {
	const char *input;
	unsigned fields; /* -F's; 0: perf's default for the event, with these changes: */
	unsigned fields_add, fields_del; /* -F +field,-field */
	int json, stats, header, ns, show_task, show_mmap;
	int force; /* -f: read a damaged file as far as it goes */
	int order; /* enum peo_perfdata_order */
	int workers; /* formatting threads; -1: by the CPUs */
};

/* The most formatting workers by default, for text and for JSON (see
 * default_workers()). */
#define MAX_WORKERS 4
#define MAX_JSON_WORKERS 6

/* A parser the formatting workers share (they only read it), freed by the last to let go. */
struct shared_parser {
	struct peo_record_parser *p;
	unsigned refs; /* atomic */
};

/* The last pid/tid (or pid or tid) column and whole seconds printed: runs
 * of samples share them, and their digits were a fifth of a text run. */
struct column_cache {
	uint64_t key;
	int valid;
	size_t len;
	char text[48];
};

struct script;

/*
 * A formatting worker's own (one without workers): text records are
 * parsed and printed with it.  Every worker reads every state record
 * (parsers, COMM, FORK, MMAP...) from the log, so each has the names and
 * maps as they stand at each of its lines.  On cache lines of their own:
 * shared, every write of one thread had stalled the others' reads.
 */
struct fmt {
	_Alignas(64) const struct script *s;
	struct out *out; /* the batch's text */
	struct shared_parser *parser;
	struct script_log_cursor cursor;
	struct peo_record rec;
	struct script_threads threads;
	struct script_maps maps;
	struct column_cache pid_tid, one_id, seconds;
	int failed; /* a record did not parse (its sentence in error): nothing after it */
	char error[1100];
};

struct script {
	/* The reading thread's (and, before and after the records, the only one's). */
	struct script_args a;
	struct peo_perfdata *f;
	int name_width; /* the longest event name, for the event column */
	struct per_event {
		char *label; /* its column of a sample line, made on first use */
		size_t label_len;
		struct peo_tp_format *format; /* for -F trace: loaded on first use */
		int format_tried;
		/* Its samples', decided at the first: fields_for() its attr, and
		 * the format their entries carry (NULL: none wanted, or none). */
		int sample_known;
		unsigned sample_fields;
		const struct peo_tp_format *sample_format;
	} *events; /* by the event's index in the file; grows as a pipe's HEADER_ATTRs add events */
	size_t nevents;
	struct script_pool *pool; /* text records formatted by workers, or NULL */
	unsigned char *batch;     /* the pool's batch being filled: used of cap bytes */
	size_t batch_used, batch_cap;
	int stop;                 /* the output stopped (a record did not parse, a write failed) */
	unsigned char *solo;      /* an entry's room without workers */
	size_t parser_events;     /* the events the last parser sent knew (SIZE_MAX: none sent) */
	/* The last sample's event and its kept column: runs of samples share
	 * them, and looking them up was a tenth of the reading thread's work. */
	const struct peo_attr *last_attr;
	struct per_event *last_event;
	char pad[LABEL_MAX]; /* a column made for one line (no event index, or no memory) */
	struct script_log log;    /* the state records, for every worker */
	struct fmt *fmts;         /* the workers' (or the one without workers) */
	unsigned nfmts;
	struct out out; /* the lines, when this thread formats them (no workers) */
	char refused[512]; /* why -F cannot be printed for the file's events */
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: peo script [-i FILE|-] [-F FIELDS] [--json] [--stats] [--header]\n"
		"                  [--show-task-events] [--show-mmap-events] [--ns]\n"
		"                  [--ordered|--no-ordered] [--workers N] [-f]\n"
		"  -i, --input FILE       the perf.data to read (default perf.data; - for stdin)\n"
		"  -F, --fields LIST      comm,pid,tid,cpu,time,event,ip,addr,period,trace\n"
		"                         (+field,-field: changes to each event's default)\n"
		"  --json                 one JSON object per record (JSON Lines); a\n"
		"                         tracepoint's fields under \"fields\"\n"
		"  --stats                record counts by type, as perf report --stats\n"
		"  --header               the file's header features, then the records\n"
		"  --show-task-events     COMM, FORK and EXIT records too\n"
		"  --show-mmap-events     MMAP and MMAP2 records too\n"
		"  --ns                   times with nanoseconds\n"
		"  --ordered              time order (perf's rounds) even where perf would\n"
		"                         not sort: events without sample_id_all\n"
		"  --no-ordered           file order (a directory: perf's reading order)\n"
		"  --workers N            formatting threads (default: one per CPU beside\n"
		"                         the reading thread's, at most %d, or %d with\n"
		"                         --json; 0: none)\n"
		"  -f, --force            read a damaged file as far as it goes: a recording\n"
		"                         that was not finished (perf record killed) or a\n"
		"                         file cut short; the records stop at one cut by the\n"
		"                         end, with a note of where\n", MAX_WORKERS, MAX_JSON_WORKERS);
}

/*
 * -F LIST: the fields, or, when every item starts with + or -, fields
 * added to or taken from perf's default ones (perf's rule: the two kinds
 * do not mix).  Returns 0, or -1 after saying what was wrong.
 */
static int parse_fields(const char *list, struct script_args *a)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int err = 0, changes = -1; /* -1 until the first item says which kind */

	if (!copy) {
		fprintf(stderr, "peo script: -F '%s': out of memory\n", list);
		return -1;
	}
	a->fields = a->fields_add = a->fields_del = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save)) {
		int sign = *tok == '+' ? 1 : *tok == '-' ? -1 : 0;
		const char *name = tok + (sign != 0);
		size_t i;

		if (changes < 0)
			changes = sign != 0;
		if (changes != (sign != 0)) {
			fprintf(stderr, "peo script: -F '%s': '%s' mixes a plain field with +field "
				"and -field ones; give the fields, or only changes to the default "
				"ones\n", list, tok);
			err = -1;
			break;
		}
		for (i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
			if (!strcmp(name, field_names[i].name))
				break;
		if (i == sizeof(field_names) / sizeof(field_names[0])) {
			fprintf(stderr, "peo script: -F '%s': unknown field '%s'; the fields are "
				"comm,pid,tid,cpu,time,event,ip,addr,period,trace (each may start "
				"with + or -: a change to the default ones)\n", list, name);
			err = -1;
		} else if (sign > 0) {
			a->fields_add |= field_names[i].bit;
			a->fields_del &= ~field_names[i].bit;
		} else if (sign < 0) {
			a->fields_del |= field_names[i].bit;
			a->fields_add &= ~field_names[i].bit;
		} else {
			a->fields |= field_names[i].bit;
		}
	}
	if (!err && changes < 0) {
		fprintf(stderr, "peo script: -F '%s': no field given; the fields are "
			"comm,pid,tid,cpu,time,event,ip,addr,period,trace\n", list);
		err = -1;
	}
	free(copy);
	return err;
}

static int parse_args(int argc, char **argv, struct script_args *a)
{
	enum { O_JSON = 256, O_STATS, O_HEADER, O_NS, O_TASK, O_MMAP, O_ORDERED, O_NO_ORDERED,
	       O_WORKERS };
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "fields", required_argument, NULL, 'F' },
		{ "json", no_argument, NULL, O_JSON },
		{ "stats", no_argument, NULL, O_STATS },
		{ "header", no_argument, NULL, O_HEADER },
		{ "ns", no_argument, NULL, O_NS },
		{ "show-task-events", no_argument, NULL, O_TASK },
		{ "show-mmap-events", no_argument, NULL, O_MMAP },
		{ "ordered", no_argument, NULL, O_ORDERED },
		{ "no-ordered", no_argument, NULL, O_NO_ORDERED },
		{ "workers", required_argument, NULL, O_WORKERS },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long workers;
	int c;

	memset(a, 0, sizeof(*a));
	a->order = PEO_PERFDATA_ORDER_AS_PERF;
	a->input = "perf.data";
	a->workers = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+i:F:fh", opts, NULL)) != -1) {
		switch (c) {
		case 'i': a->input = optarg; break;
		case 'F':
			if (parse_fields(optarg, a))
				return 2;
			break;
		case O_JSON: a->json = 1; break;
		case O_STATS: a->stats = 1; break;
		case O_HEADER: a->header = 1; break;
		case O_NS: a->ns = 1; break;
		case O_TASK: a->show_task = 1; break;
		case O_MMAP: a->show_mmap = 1; break;
		case O_ORDERED: a->order = PEO_PERFDATA_TIME_ORDER; break;
		case O_NO_ORDERED: a->order = PEO_PERFDATA_FILE_ORDER; break;
		case O_WORKERS:
			if (number_arg("script", "--workers", optarg, 0, 64,
				       " (0: format on the reading thread)", &workers))
				return 2;
			a->workers = (int)workers;
			break;
		case 'f': a->force = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "peo script: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	return -1;
}

/* ---------------------------------------------------------------- text */

static const char *event_name(struct script *s, const struct peo_record *r, char *buf, size_t cap)
{
	int i = peo_perfdata_event_of(s->f, r->attr);
	const char *name = i >= 0 ? peo_perfdata_event_name(s->f, (size_t)i) : NULL;

	if (name)
		return name;
	snprintf(buf, cap, "%s", i >= 0 ? "event" : "unknown");
	return buf;
}

static int name_width(struct script *s)
{
	if (!s->name_width)
		for (size_t i = 0; i < peo_perfdata_attr_count(s->f); i++) {
			const char *n = peo_perfdata_event_name(s->f, i);
			int len = n ? (int)strlen(n) : 5;

			s->name_width = len > s->name_width ? len : s->name_width;
		}
	return s->name_width;
}

/* What is kept for @r's event, made room for on first sight; NULL when
 * the event has no index or memory ran out. */
static struct per_event *event_of(struct script *s, const struct peo_record *r)
{
	int i = peo_perfdata_event_of(s->f, r->attr);
	struct per_event *more;
	size_t want;

	if (i < 0)
		return NULL;
	if ((size_t)i < s->nevents)
		return &s->events[i];
	want = (size_t)i + 1;
	more = realloc(s->events, want * sizeof(*more));
	if (!more)
		return NULL;
	memset(more + s->nevents, 0, (want - s->nevents) * sizeof(*more));
	s->events = more;
	s->nevents = want;
	return &s->events[i];
}

/* A sample's event, kept for the run of samples of one event that follow
 * (looking it up was a tenth of the reading thread's work); NULL when it
 * has no index or memory ran out. */
static struct per_event *sample_event(struct script *s, const struct peo_record *r)
{
	if (!r->attr)
		return NULL;
	if (r->attr != s->last_attr) { /* event_of() may move the events: the kept one too */
		s->last_event = event_of(s, r);
		s->last_attr = r->attr;
	}
	return s->last_event;
}

/* A sample's event column (text: right-aligned and ": "; JSON: the quoted
 * name), made in @buf (@cap bytes).  Returns its length. */
static size_t label_now(struct script *s, const struct peo_record *r, char *buf, size_t cap)
{
	char name[64];
	const char *n = event_name(s, r, name, sizeof(name));
	size_t len = strlen(n);
	int made;

	if (s->a.json) { /* a name too long for @cap quoted is cut before quoting: still JSON */
		if (6 * len + 2 > cap)
			len = (cap - 2) / 6;
		return (size_t)(put_json_string(buf, n, len) - buf);
	}
	made = snprintf(buf, cap, "%*s: ", name_width(s), n);
	return made < 0 ? 0 : (size_t)made < cap ? (size_t)made : cap - 1;
}

/* The event's column of a sample line (text: right-aligned and ": "; JSON:
 * the quoted name), made once per event; NULL when the event has no index
 * or memory ran out. */
static const char *event_label(struct script *s, struct per_event *e, const struct peo_record *r,
			       size_t *len)
{
	if (!e)
		return NULL;
	if (!e->label) {
		char text[LABEL_MAX];

		e->label_len = label_now(s, r, text, sizeof(text));
		e->label = strndup(text, e->label_len);
	}
	*len = e->label_len;
	return e->label;
}

/* A sample's event column: its label kept, else (no event index, or out of
 * memory) made in s->pad for this line. */
static const char *sample_column(struct script *s, struct per_event *e, const struct peo_record *r,
				 size_t *len)
{
	const char *label = event_label(s, e, r, len);

	if (label)
		return label;
	*len = label_now(s, r, s->pad, sizeof(s->pad));
	return s->pad;
}

static uint64_t sample_period(const struct peo_record *r)
{
	if (r->attr && (r->attr->sample_type & PEO_SAMPLE_PERIOD))
		return r->u.sample.period;
	return r->attr && !r->attr->freq ? r->attr->sample_period : 0;
}

/* Whether @c holds @key's text; if not, it is now @key's, to be made. */
static int cache_holds(struct column_cache *c, uint64_t key)
{
	if (c->valid && c->key == key)
		return 1;
	c->key = key;
	c->valid = 1;
	return 0;
}

/* snprintf's result as the cache's length (none when it failed or was cut). */
static void cache_made(struct column_cache *c, int len)
{
	c->len = len > 0 && (size_t)len < sizeof(c->text) ? (size_t)len : 0;
}

/* The time column "seconds.fraction: " (the seconds cached: runs of
 * samples share them).  Room: sizeof(seconds.text) + 11. */
static char *put_time(struct fmt *w, char *p, uint64_t ns, int with_ns)
{
	if (!cache_holds(&w->seconds, ns / 1000000000u))
		cache_made(&w->seconds, snprintf(w->seconds.text, sizeof(w->seconds.text), "%5llu.",
						 (unsigned long long)(ns / 1000000000u)));
	p = put_bytes(p, w->seconds.text, w->seconds.len);
	if (with_ns)
		p = put_dec_zero(p, ns % 1000000000u, 9);
	else
		p = put_dec_zero(p, ns % 1000000000u / 1000, 6);
	*p++ = ':';
	*p++ = ' ';
	return p;
}

static const char *comm_of(struct fmt *w, uint32_t tid, char *buf, size_t cap)
{
	const char *c = script_threads_comm(&w->threads, tid);

	if (c)
		return c;
	snprintf(buf, cap, ":%d", (int32_t)tid); /* -1 as perf: no thread */
	return buf;
}

/*
 * What the reading thread hands the formatting workers, in a batch or in
 * the log.  A record entry holds a record's bytes as the file has them,
 * for a worker to parse and print, with what needs the file to resolve
 * (the event's column, its tracepoint format); the record follows this
 * header (then the event column, when it is not one kept for good).
 * New parsers, and in text the records that build state (COMM, FORK,
 * MMAP...), go in the log, and a sync entry at their place in the batch
 * has its worker read the log up to them; every other record goes in the
 * batch.
 */
enum entry_kind { ENTRY_RECORD, ENTRY_SYNC, ENTRY_PARSER };

struct entry {
	uint32_t size;      /* bytes: this header, the record, a column; a multiple of 8 */
	uint32_t rec_len;   /* the record's header.size */
	uint32_t label_len; /* the event column's bytes */
	uint16_t kind;      /* enum entry_kind */
	uint16_t print;     /* a sync's: print the line of the log's record it reaches */
	const char *label;  /* the column: the reading thread's label, or after the record */
	uint64_t offset;    /* the record's place in the file, for an error's sentence, */
	const char *source; /* and the file: a directory's data file, or NULL */
	union {
		const struct peo_tp_format *format; /* -F trace: the sample's event's, or NULL */
		struct shared_parser *parser;       /* a parser entry's */
		uint64_t upto;                      /* a sync's: read the log's entries below it */
	} u;
};

/* The most an entry holds: a record of the largest size, a column. */
#define ENTRY_MAX (sizeof(struct entry) + 65536 + LABEL_MAX)
_Static_assert(ENTRY_MAX + sizeof(struct entry) <= SCRIPT_POOL_ENTRY_MAX,
	       "a batch holds any entry and a sync");
_Static_assert(ENTRY_MAX <= SCRIPT_LOG_ENTRY_MAX, "the log holds any entry");
_Static_assert(sizeof(struct entry) % 8 == 0, "records after an entry stay 8-aligned");

/*
 * The fields of a line of @attr's event: -F's, else perf's default for
 * its kind with -F's +/- changes.  A tracepoint's: its fields, no period,
 * no ip but for its callchain when -F is not given at all.  cpu shows
 * only when sampled.
 */
static unsigned fields_for(const struct script_args *a, const struct peo_attr *attr)
{
	unsigned d;

	if (a->fields)
		return a->fields;
	if (attr && attr->type == PEO_TYPE_TRACEPOINT)
		d = F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_TRACE |
		    ((attr->sample_type & PEO_SAMPLE_CALLCHAIN) && !a->fields_add && !a->fields_del
			     ? F_IP : 0);
	else
		d = F_COMM | F_TID | F_CPU | F_TIME | F_PERIOD | F_EVENT | F_IP;
	return (d | a->fields_add) & ~a->fields_del;
}

/* The columns a line starts with: comm, pid/tid, cpu, time (from @id's fields). */
static void print_start(struct fmt *w, unsigned fl, const struct peo_sample_id *id,
			uint32_t comm_tid, int unpadded_comm)
{
	struct out *o = w->out;
	char *p;

	if (fl & F_COMM) {
		char cbuf[32];
		const char *c = comm_of(w, comm_tid, cbuf, sizeof(cbuf));

		out_bytes_right(o, c, out_strlen(c), unpadded_comm ? 0 : 16);
		out_char(o, ' ');
	}
	/* the rest in room made once: pid/tid and time texts, cpu, punctuation */
	p = out_room(o, sizeof(w->pid_tid.text) + sizeof(w->seconds.text) + 64);
	if ((fl & F_PID) && (fl & F_TID)) {
		if (!cache_holds(&w->pid_tid, (uint64_t)id->pid << 32 | id->tid))
			cache_made(&w->pid_tid, snprintf(w->pid_tid.text, sizeof(w->pid_tid.text),
							 "%5d/%-5d ", (int32_t)id->pid,
							 (int32_t)id->tid));
		p = put_bytes(p, w->pid_tid.text, w->pid_tid.len);
	} else if (fl & (F_PID | F_TID)) {
		int32_t one = (int32_t)((fl & F_PID) ? id->pid : id->tid);

		if (!cache_holds(&w->one_id, (uint32_t)one))
			cache_made(&w->one_id, snprintf(w->one_id.text, sizeof(w->one_id.text), "%5d ",
							one)); /* -1 as perf */
		p = put_bytes(p, w->one_id.text, w->one_id.len);
	}
	if ((fl & F_CPU) && (id->fields & PEO_SAMPLE_CPU)) {
		*p++ = '[';
		p = put_dec_zero(p, id->cpu, out_dec_digits(id->cpu) > 3 ? out_dec_digits(id->cpu) : 3);
		*p++ = ']';
		*p++ = ' ';
	}
	if ((fl & F_TIME) && (id->fields & PEO_SAMPLE_TIME))
		p = put_time(w, p, id->time, w->s->a.ns);
	out_advance(o, p);
}

/* The tracepoint format of the sample's event: the file's TRACING_DATA, else tracefs. */
static struct peo_tp_format *format_of(struct script *s, struct per_event *e)
{
	const char *name, *colon;
	char sys[128], tp[256];

	if (!e)
		return NULL;
	if (!e->format_tried) {
		e->format_tried = 1;
		name = peo_perfdata_event_name(s->f, (size_t)(e - s->events));
		colon = name ? strchr(name, ':') : NULL;
		if (colon) { /* "sys:name", modifiers (":u") after: the file's format, else this machine's */
			snprintf(sys, sizeof(sys), "%.*s", (int)(colon - name), name);
			snprintf(tp, sizeof(tp), "%.*s", (int)strcspn(colon + 1, ":"), colon + 1);
			if (peo_perfdata_tp_format(s->f, sys, tp, &e->format) &&
			    peo_tp_format_load(&e->format, NULL, sys, tp))
				e->format = NULL;
		}
	}
	return e->format;
}

/* A callchain sample's frames, a line each, and the blank line perf ends it with. */
static void print_callchain(struct fmt *w, const struct peo_record *r)
{
	struct out *o = w->out;
	struct peo_callchain_iter it = { .sz = sizeof(it) };
	uint64_t ip, off;
	int64_t ctx;
	char *p;

	out_char(o, '\n');
	peo_callchain_begin(&it, r);
	while (peo_callchain_next(&it, &ip, &ctx)) {
		/* perf prints a user frame as its offset in the mapped file */
		if (ctx == PEO_CONTEXT_USER && script_maps_offset(&w->maps, r->sample_id.pid, ip, &off))
			ip = off;
		p = out_room(o, 18);
		*p++ = '\t';
		p = put_hex(p, ip, 16);
		*p++ = '\n';
		out_advance(o, p);
	}
	out_char(o, '\n');
}

/* Whether the lines of @attr's event end in a callchain (perf then does
 * not pad the comm). */
static int ends_in_callchain(unsigned fl, const struct peo_attr *attr)
{
	return (fl & F_IP) && attr && (attr->sample_type & PEO_SAMPLE_CALLCHAIN);
}

/* perf script's sample line for the fields asked (perf's order, whatever
 * -F's); @label is the event's column, @format the tracepoint's for -F trace. */
static void print_sample(struct fmt *w, const struct peo_record *r, const char *label,
			 size_t label_len, const struct peo_tp_format *format)
{
	const struct peo_sample *smp = &r->u.sample;
	uint64_t st = r->attr ? r->attr->sample_type : 0;
	unsigned fl = fields_for(&w->s->a, r->attr);
	int chain = ends_in_callchain(fl, r->attr);
	struct out *o = w->out;
	char *p;

	/* perf pads the comm, unless a callchain follows */
	print_start(w, fl, &r->sample_id, r->sample_id.tid, chain);
	if (fl & F_PERIOD) { /* a fixed period (-c) is not sampled: the attr has it */
		p = put_dec(out_room(o, 32), sample_period(r), 0, 10);
		*p++ = ' ';
		out_advance(o, p);
	}
	out_bytes(o, label, label_len);
	if (format) {
		char text[4096];

		if (peo_tp_format_print(format, r, smp->raw, smp->raw_size, text, sizeof(text)) >= 0) {
			out_bytes(o, text, strnlen(text, sizeof(text)));
		} else { /* never nothing: the fields as they are, as perf does */
			out_str(o, "[FAILED TO PARSE] ");
			if (peo_tp_format_print_fields(format, r, smp->raw, smp->raw_size, text,
						       sizeof(text)) >= 0)
				out_bytes(o, text, strnlen(text, sizeof(text)));
		}
	}
	if ((fl & F_ADDR) && (st & PEO_SAMPLE_ADDR))
		out_hex(o, smp->addr, 16);
	if (chain && smp->callchain_nr) {
		print_callchain(w, r);
		return;
	}
	if ((fl & F_IP) && (st & PEO_SAMPLE_IP)) {
		p = out_room(o, 17);
		*p++ = ' ';
		out_advance(o, put_hex(p, smp->ip, 16));
	}
	out_char(o, '\n');
}

/* ---------------------------------------------------------------- JSON */

/* A JSON sample; @label is its event's quoted name, @format its tracepoint
 * format (or NULL).  Its fixed fields go in room made once, the callchain's
 * frames in room made a frame at a time. */
static void print_sample_json(struct fmt *w, const struct peo_record *r, const char *label,
			      size_t label_len, const struct peo_tp_format *format)
{
	static const char start[] = "{\"type\":\"SAMPLE\",\"event\":";
	const struct peo_sample *smp = &r->u.sample;
	uint64_t st = r->attr ? r->attr->sample_type : 0;
	struct out *o = w->out;
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
	p = PUT_U64(p, "period", sample_period(r));
	if (st & (PEO_SAMPLE_ID | PEO_SAMPLE_IDENTIFIER)) /* the same id where both are */
		p = PUT_U64(p, "id", st & PEO_SAMPLE_ID ? smp->id : smp->identifier);
	out_advance(o, p);
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

/* The first record a worker cannot print, in its sentence; nothing is printed after it. */
static void record_failed(struct fmt *w, const struct entry *e)
{
	/* a directory's data file by its path, as the reader names it */
	snprintf(w->error, sizeof(w->error), "%s%s%s%sperf.data: record at offset %llu: %s",
		 e->source ? w->s->a.input : "", e->source ? "/" : "", e->source ? e->source : "",
		 e->source ? ": " : "", (unsigned long long)e->offset, peo_last_error());
	w->failed = 1;
}

/* A record other than a sample (entry @e's): one of perf's own that does
 * not decode stops the output, as a record that does not parse does (its
 * line is ended first, the lines before stay JSON). */
static void print_other_json(struct fmt *w, const struct peo_record *r, const struct entry *e)
{
	struct out *o = w->out;
	int bad = 0;

	out_str(o, "{\"type\":\"");
	out_str(o, peo_user_record_type_name(r->header.type));
	out_char(o, '"');
	JSON_U64(o, "misc", r->header.misc);
	if (r->header.type >= PEO_RECORD_HEADER_ATTR && r->header.type < PEO_RECORD_USER_MAX)
		bad = json_user_record(o, w->s->f, r);
	else
		json_kernel_record(o, r);
	out_str(o, "}\n");
	if (bad)
		record_failed(w, e);
}

/* ------------------------------------------------------------- records */

/* The names and maps text lines need (each worker keeps its own).  -1
 * out of memory: the output then stops with a sentence, never with a
 * thread's name or map silently missing. */
static int track_threads(struct fmt *w, const struct peo_record *r)
{
	int err = 0;

	if (r->header.type == PEO_RECORD_MMAP || r->header.type == PEO_RECORD_MMAP2)
		err = script_maps_add(&w->maps, r->u.mmap.pid, r->u.mmap.addr, r->u.mmap.len,
				      script_maps_identity(r->u.mmap.filename, r->u.mmap.flags)
					      ? r->u.mmap.addr /* addresses as they are */
					      : r->u.mmap.pgoff);
	else if (r->header.type == PEO_RECORD_FORK && r->u.task.pid != r->u.task.ppid)
		err = script_maps_fork(&w->maps, r->u.task.ppid, r->u.task.pid);
	if (r->header.type == PEO_RECORD_COMM)
		err |= script_threads_set(&w->threads, r->u.comm.tid, r->u.comm.comm);
	else if (r->header.type == PEO_RECORD_FORK) /* the parent's comm, or none */
		err |= script_threads_fork(&w->threads, r->u.task.ptid, r->u.task.tid);
	return err;
}

/* MMAP, MMAP2, COMM, FORK and EXIT lines, as perf script's --show-*-events print them. */
static void print_side(struct fmt *w, const struct peo_record *r)
{
	const struct peo_rec_mmap *m = &r->u.mmap;
	char line[4400];

	unsigned fl = fields_for(&w->s->a, r->attr);
	uint32_t own = r->header.type == PEO_RECORD_COMM ? r->u.comm.tid
		     : r->header.type == PEO_RECORD_FORK || r->header.type == PEO_RECORD_EXIT
			     ? r->u.task.tid : m->tid;

	/* As perf: the comm of the record's own thread, as the record left it
	 * (the sample_id's tid column is 0 for those perf made at the start);
	 * unpadded when the event's samples end in a callchain. */
	print_start(w, fl, &r->sample_id, own, ends_in_callchain(fl, r->attr));
	switch (r->header.type) {
	case PEO_RECORD_COMM:
		snprintf(line, sizeof(line), "PERF_RECORD_COMM%s: %s:%u/%u\n",
			 r->u.comm.exec ? " exec" : "", r->u.comm.comm, r->u.comm.pid, r->u.comm.tid);
		break;
	case PEO_RECORD_FORK:
	case PEO_RECORD_EXIT:
		snprintf(line, sizeof(line), "PERF_RECORD_%s(%u:%u):(%u:%u)\n",
			 r->header.type == PEO_RECORD_FORK ? "FORK" : "EXIT", r->u.task.pid,
			 r->u.task.tid, r->u.task.ppid, r->u.task.ptid);
		break;
	case PEO_RECORD_MMAP:
		snprintf(line, sizeof(line), "PERF_RECORD_MMAP %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#"
			 PRIx64 "]: %c %s\n", (int)m->pid, (int)m->tid, m->addr, m->len, m->pgoff,
			 (r->header.misc & PEO_RECORD_MISC_MMAP_DATA) ? 'r' : 'x', m->filename);
		break;
	default: /* MMAP2: device and inode, or a build id; then prot and flags */
		if (m->build_id) {
			char hex[41];

			for (int k = 0; k < m->build_id_size; k++)
				snprintf(hex + 2 * k, 3, "%02x", m->build_id[k]);
			hex[2 * m->build_id_size] = '\0';
			snprintf(line, sizeof(line), "PERF_RECORD_MMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64
				 ") @ %#" PRIx64 " <%s>]: %c%c%c%c %s\n", (int)m->pid, (int)m->tid,
				 m->addr, m->len, m->pgoff, hex, (m->prot & 1) ? 'r' : '-',
				 (m->prot & 2) ? 'w' : '-', (m->prot & 4) ? 'x' : '-',
				 (m->flags & 1) ? 's' : 'p', m->filename);
		} else {
			snprintf(line, sizeof(line), "PERF_RECORD_MMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64
				 ") @ %#" PRIx64 " %02x:%02x %" PRIu64 " %" PRIu64 "]: %c%c%c%c %s\n",
				 (int)m->pid, (int)m->tid, m->addr, m->len, m->pgoff, m->maj, m->min,
				 m->ino, m->ino_generation, (m->prot & 1) ? 'r' : '-',
				 (m->prot & 2) ? 'w' : '-', (m->prot & 4) ? 'x' : '-',
				 (m->flags & 1) ? 's' : 'p', m->filename);
		}
		break;
	}
	out_bytes(w->out, line, strnlen(line, sizeof(line)));
}

/* Whether a text run shows the lines of records of @type (not SAMPLE). */
static int side_shown(const struct script *s, uint32_t type)
{
	if (type == PEO_RECORD_MMAP || type == PEO_RECORD_MMAP2)
		return s->a.show_mmap;
	return s->a.show_task && (type == PEO_RECORD_COMM || type == PEO_RECORD_FORK ||
				  type == PEO_RECORD_EXIT);
}

/* @w now parses with @sp (dropping its old parser, freed by the last worker to let go). */
static void adopt_parser(struct fmt *w, struct shared_parser *sp)
{
	struct shared_parser *old = w->parser;

	if (old && __atomic_sub_fetch(&old->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		peo_record_parser_free(old->p);
		free(old);
	}
	w->parser = sp;
}

static void format_entry(struct fmt *w, const struct entry *e, int print);

/* Read the log up to entry @upto, printing the line of the last one when @print. */
static void read_log(struct fmt *w, uint64_t upto, int print)
{
	const struct entry *e;
	size_t n;

	while ((e = script_log_next(&w->cursor, upto, &n)))
		format_entry(w, e, print && w->cursor.pos == upto);
}

/* A worker's work on one entry: a record parsed with its parser, its
 * names and maps kept, its line printed (when @print); a parser adopted;
 * the log read up to a sync's place. */
static void format_entry(struct fmt *w, const struct entry *e, int print)
{
	const char *rec = (const char *)(e + 1);
	uint32_t t;

	if (e->kind == ENTRY_PARSER) {
		adopt_parser(w, e->u.parser);
		return;
	}
	if (e->kind == ENTRY_SYNC) {
		read_log(w, e->u.upto, e->print);
		return;
	}
	if (w->failed)
		return; /* nothing after a record that does not parse */
	if (peo_record_parse(w->parser->p, rec, e->rec_len, &w->rec)) {
		record_failed(w, e);
		return;
	}
	t = w->rec.header.type;
	if (w->s->a.json) {
		if (t == PEO_RECORD_SAMPLE)
			print_sample_json(w, &w->rec, e->label, e->label_len, e->u.format);
		else if (print)
			print_other_json(w, &w->rec, e);
		return;
	}
	if (t == PEO_RECORD_SAMPLE) {
		print_sample(w, &w->rec, e->label, e->label_len, e->u.format);
		return;
	}
	if (track_threads(w, &w->rec)) {
		snprintf(w->error, sizeof(w->error),
			 "%s%s%s%sperf.data: record at offset %llu: out of memory keeping the names and maps of %zu threads",
			 e->source ? w->s->a.input : "", e->source ? "/" : "", e->source ? e->source : "",
			 e->source ? ": " : "",
			 (unsigned long long)e->offset, w->threads.n);
		w->failed = 1;
		return;
	}
	if (print)
		print_side(w, &w->rec);
}

/* A batch's entries, formatted into @o by worker @worker (or, without
 * workers, into the one output).  Non-zero when a record did not parse:
 * the output stops after this batch's lines. */
static int format_entries(void *ctx, unsigned worker, const unsigned char *bytes, size_t n,
			  struct out *o)
{
	struct fmt *w = &((struct script *)ctx)->fmts[worker];

	w->out = o;
	for (size_t at = 0; at < n;) {
		const struct entry *e = (const struct entry *)(const void *)(bytes + at);

		format_entry(w, e, 1);
		at += e->size;
	}
	return w->failed;
}

/* A sync entry at @e: read the log below @upto (printing the last one's line when @print). */
static void put_sync(struct entry *e, uint64_t upto, int print)
{
	memset(e, 0, sizeof(*e));
	e->size = sizeof(*e);
	e->kind = ENTRY_SYNC;
	e->print = (uint16_t)print;
	e->u.upto = upto;
}

/* Room for an entry of @need bytes (at most ENTRY_MAX): in the batch
 * being filled (after the sync a new batch starts with), else this
 * thread's own. */
static struct entry *entry_room_slow(struct script *s, size_t need)
{
	struct entry *e;

	if (!s->pool)
		return (struct entry *)(void *)s->solo;
	if (s->batch_cap - s->batch_used < need + sizeof(*e)) {
		s->batch = script_pool_next_batch(s->pool, s->batch_used, &s->batch_cap);
		s->batch_used = 0;
		s->stop = script_pool_halted(s->pool);
	}
	e = (struct entry *)(void *)(s->batch + s->batch_used);
	if (!s->batch_used) { /* its worker first reads what the other workers' batches added to the log */
		put_sync(e, s->log.count, 0);
		s->batch_used = sizeof(*e);
		e++;
	}
	return e;
}

/* The same, its common case inline (room left in a batch begun). */
static inline struct entry *entry_room(struct script *s, size_t need)
{
	if (s->batch_used && s->batch_cap - s->batch_used >= need + sizeof(struct entry))
		return (struct entry *)(void *)(s->batch + s->batch_used);
	return entry_room_slow(s, need);
}

/* The entry filled: a worker formats it, else this thread now. */
static void entry_done(struct script *s, struct entry *e)
{
	e->size = (e->size + 7u) & ~7u;
	if (s->pool) {
		s->batch_used += e->size;
		return;
	}
	format_entries(s, 0, (const unsigned char *)e, e->size, &s->out);
	s->stop = s->fmts[0].failed || s->out.failed; /* a record that does not parse, a write */
}

/* The log entry at @e (in the log's room) is filled: commit it, and a sync
 * to it goes in the batch (its line printed when @print). */
static void log_done(struct script *s, struct entry *e, int print)
{
	/* the room first: a batch it starts reads the log up to before this entry */
	struct entry *sync = entry_room(s, sizeof(*sync));

	script_log_commit(&s->log, e->size); /* it rounds the size up */
	put_sync(sync, s->log.count, print);
	entry_done(s, sync);
}

/* Hand the workers a copy of the reader's parser: the file's events so
 * far.  Returns 0, or -ENOMEM. */
static int send_parser(struct script *s)
{
	struct shared_parser *sp = calloc(1, sizeof(*sp));
	struct entry *e = script_log_room(&s->log, sizeof(*e));

	if (!sp || !e || peo_record_parser_clone(&sp->p, peo_perfdata_parser(s->f))) {
		free(sp);
		return -ENOMEM;
	}
	sp->refs = s->nfmts;
	memset(e, 0, sizeof(*e));
	e->size = sizeof(*e);
	e->kind = ENTRY_PARSER;
	e->u.parser = sp;
	log_done(s, e, 0);
	s->parser_events = peo_perfdata_attr_count(s->f);
	s->last_attr = NULL; /* the reader's attrs may have moved */
	return 0;
}

/* Whether records of @type build the names and maps text lines need:
 * every worker reads them (from the log). */
static int builds_state(uint32_t type)
{
	return type == PEO_RECORD_COMM || type == PEO_RECORD_FORK || type == PEO_RECORD_MMAP ||
	       type == PEO_RECORD_MMAP2;
}

/* Whether a record of @type is printed (JSON: all but the side records not
 * asked for), or needed for its names and maps (text). */
static int wanted(const struct script *s, uint32_t type)
{
	if (s->a.json)
		return !(builds_state(type) || type == PEO_RECORD_EXIT) || side_shown(s, type);
	return type == PEO_RECORD_SAMPLE || builds_state(type) || side_shown(s, type);
}

/*
 * Whether -F asks for a field that the samples of the file's events from
 * index @from on do not carry: perf refuses to print those, and so does
 * this (the sentence in s->refused) rather than leave the column out.
 */
static int fields_refused(struct script *s, size_t from)
{
	static const struct {
		unsigned field;
		uint64_t sample;
		const char *name, *how;
	} needs[] = {
		{ F_PID, PEO_SAMPLE_TID, "pid", "it was not recorded" },
		{ F_TID, PEO_SAMPLE_TID, "tid", "it was not recorded" },
		{ F_CPU, PEO_SAMPLE_CPU, "cpu", "record with -a or --sample-cpu" },
		{ F_TIME, PEO_SAMPLE_TIME, "time", "record with -T" },
		{ F_IP, PEO_SAMPLE_IP, "ip", "it was not recorded" },
		{ F_ADDR, PEO_SAMPLE_ADDR, "addr", "record with -d" },
	};
	unsigned asked = s->a.fields ? s->a.fields : s->a.fields_add;

	if (s->a.json) /* every field a sample has, none asked */
		return 0;
	for (size_t i = from; i < peo_perfdata_attr_count(s->f); i++) {
		const struct peo_attr *attr = peo_perfdata_attr(s->f, i);
		const char *name = peo_perfdata_event_name(s->f, i);

		for (size_t k = 0; k < sizeof(needs) / sizeof(needs[0]); k++)
			if ((asked & needs[k].field) && !(attr->sample_type & needs[k].sample)) {
				snprintf(s->refused, sizeof(s->refused), "-F %s: the samples of "
					 "event '%s' have no %s (%s); leave it out of -F",
					 needs[k].name, name ? name : "?", needs[k].name, needs[k].how);
				return 1;
			}
	}
	return 0;
}

/* What every sample of @e's event (@attr) gets, decided once: its fields,
 * and its tracepoint format when its fields or JSON print its raw data. */
static void sample_decided(struct script *s, struct per_event *e, const struct peo_attr *attr)
{
	e->sample_known = 1;
	e->sample_fields = fields_for(&s->a, attr);
	e->sample_format = (s->a.json || (e->sample_fields & F_TRACE)) &&
					   (attr->sample_type & PEO_SAMPLE_RAW) &&
					   attr->type == PEO_TYPE_TRACEPOINT
				   ? format_of(s, e)
				   : NULL;
}

/*
 * A record, unparsed, to the formatting workers (when they need it): in
 * the log when it builds state (text), else in the batch.  The file's
 * events grew (or it has no parser yet): a new parser goes first.  Returns
 * 0, -ENOMEM, or -EINVAL when -F asks for a field the new events' samples
 * lack (the sentence in s->refused).
 */
static int send_record(struct script *s, const struct peo_perfdata_record *pr)
{
	const struct peo_record *r = &pr->rec;
	uint32_t t = r->header.type, rec_len = r->header.size, room = (rec_len + 7u) & ~7u;
	unsigned fl;
	const char *label = NULL;
	size_t label_len = 0;
	int in_log = !s->a.json && builds_state(t); /* JSON keeps no state */
	struct per_event *ev;
	struct entry *e;

	if (t != PEO_RECORD_SAMPLE && !wanted(s, t))
		return 0;
	if (s->parser_events != peo_perfdata_attr_count(s->f)) {
		if (fields_refused(s, s->parser_events == SIZE_MAX ? 0 : s->parser_events))
			return -EINVAL;
		if (send_parser(s))
			return -ENOMEM;
	}
	ev = t == PEO_RECORD_SAMPLE ? sample_event(s, r) : NULL;
	if (ev && !ev->sample_known)
		sample_decided(s, ev, r->attr);
	fl = ev ? ev->sample_fields : t == PEO_RECORD_SAMPLE ? fields_for(&s->a, r->attr) : 0;
	if (t != PEO_RECORD_SAMPLE || !(s->a.json || (fl & F_EVENT))) {
		/* no event column */
	} else if (ev && ev->label) { /* kept: passed as it is */
		label = ev->label;
		label_len = ev->label_len;
	} else {
		label = sample_column(s, ev, r, &label_len);
	}
	if (!in_log)
		e = entry_room(s, sizeof(*e) + room + (label == s->pad ? label_len : 0));
	else if (!(e = script_log_room(&s->log, sizeof(*e) + room)))
		return -ENOMEM;
	e->size = (uint32_t)(sizeof(*e) + room);
	e->rec_len = rec_len;
	e->kind = ENTRY_RECORD;
	e->print = 0;
	e->offset = pr->offset;
	e->source = peo_perfdata_source(s->f);
	e->u.format = NULL;
	put_bytes((char *)(e + 1), r->bytes, rec_len);
	if (label == s->pad) { /* made for this line: it goes after the record */
		label = put_bytes((char *)(e + 1) + room, s->pad, label_len) - label_len;
		e->size += (uint32_t)label_len;
	}
	e->label = label;
	e->label_len = (uint32_t)label_len;
	if (ev)
		e->u.format = ev->sample_format;
	if (!in_log)
		entry_done(s, e);
	else
		log_done(s, e, side_shown(s, t));
	return 0;
}

/* perf report --stats's layout: by type number, then per event. */
static void print_stats(struct script *s, const struct peo_perfdata_counts *c)
{
	printf("\nAggregated stats:\n");
	printf("%16s events: %10" PRIu64 "\n", "TOTAL", c->total);
	for (uint32_t t = 0; t < PEO_RECORD_USER_MAX; t++)
		if (c->by_type[t])
			printf("%16s events: %10" PRIu64 "  (%4.1f%%)\n", peo_user_record_type_name(t),
			       c->by_type[t], 100.0 * (double)c->by_type[t] / (double)c->total);
	for (size_t i = 0; i < c->nevents; i++) {
		const char *name = peo_perfdata_event_name(s->f, i);

		printf("%s stats:\n", name ? name : "event");
		printf("%16s events: %10" PRIu64 "\n", "SAMPLE", c->samples_by_event[i]);
		if (c->lost_samples_by_event[i]) /* the samples LOST_SAMPLES records say were lost */
			printf("%16s events: %10" PRIu64 "\n", "LOST_SAMPLES",
			       c->lost_samples_by_event[i]);
	}
}

static void print_string_feature(struct script *s, unsigned bit, const char *label)
{
	const char *v;

	if (!peo_perfdata_feature_string(s->f, bit, &v))
		printf("# %s : %s\n", label, v);
}

/* CPU_TOPOLOGY and NUMA_TOPOLOGY as perf report --header-only -I prints them. */
static void print_topology(struct script *s)
{
	const struct peo_cpu_topology *t;
	const struct peo_numa_node *nodes;
	size_t n;

	if (!peo_perfdata_cpu_topology(s->f, &t)) {
		for (size_t i = 0; i < t->ncore_siblings; i++)
			printf("# sibling sockets : %s\n", t->core_siblings[i]);
		for (size_t i = 0; t->has_dies && i < t->ndie_siblings; i++)
			printf("# sibling dies    : %s\n", t->die_siblings[i]);
		for (size_t i = 0; i < t->nthread_siblings; i++)
			printf("# sibling threads : %s\n", t->thread_siblings[i]);
		for (size_t i = 0; i < t->ncpus; i++)
			if (t->has_dies)
				printf("# CPU %zu: Core ID %u, Die ID %u, Socket ID %u\n", i,
				       t->cpus[i].core_id, t->cpus[i].die_id, t->cpus[i].socket_id);
			else
				printf("# CPU %zu: Core ID %u, Socket ID %u\n", i, t->cpus[i].core_id,
				       t->cpus[i].socket_id);
	}
	if (!peo_perfdata_numa_topology(s->f, &nodes, &n))
		for (size_t i = 0; i < n; i++)
			printf("# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n"
			       "# node%u cpu list : %s\n", nodes[i].node, nodes[i].mem_total,
			       nodes[i].mem_free, nodes[i].node, nodes[i].cpus);
}

/* PMU_MAPPINGS, GROUP_DESC and CACHE, in perf's words. */
static void print_groups_and_caches(struct script *s)
{
	const struct peo_pmu_mapping *pmus;
	const struct peo_group_desc *groups;
	const struct peo_cache_level *caches;
	size_t n;

	if (!peo_perfdata_pmu_mappings(s->f, &pmus, &n)) {
		printf("# pmu mappings:");
		for (size_t i = 0; i < n; i++)
			printf("%s %s = %u", i ? "," : "", pmus[i].name, pmus[i].type);
		printf("\n");
	}
	if (!peo_perfdata_group_desc(s->f, &groups, &n))
		for (size_t i = 0; i < n; i++) {
			printf("# group: %s{", strcmp(groups[i].name, "{anon_group}") ? groups[i].name : "");
			for (uint32_t m = 0; m < groups[i].nr_members; m++) {
				const char *name = peo_perfdata_event_name(s->f, groups[i].leader_idx + m);

				printf("%s%s", m ? "," : "", name ? name : "?");
			}
			printf("}\n");
		}
	if (!peo_perfdata_cache(s->f, &caches, &n)) {
		printf("# CPU cache info:\n");
		for (size_t i = 0; i < n; i++)
			printf("#  L%u %-15s %8s [%s]\n", caches[i].level, caches[i].type, caches[i].size,
			       caches[i].map);
	}
}

/* SAMPLE_TIME, MEM_TOPOLOGY's summary and COMPRESSED, in perf's words. */
static void print_times_and_memory(struct script *s)
{
	struct peo_mem_topology mem = { .sz = sizeof(mem) };
	struct peo_compressed z = { .sz = sizeof(z) };
	uint64_t first, last;

	if (!peo_perfdata_sample_time(s->f, &first, &last))
		printf("# time of first sample : %" PRIu64 ".%06" PRIu64 "\n"
		       "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n"
		       "# sample duration : %10.3f ms\n", first / 1000000000u,
		       first % 1000000000u / 1000, last / 1000000000u, last % 1000000000u / 1000,
		       (double)(last - first) / 1e6);
	if (!peo_perfdata_mem_topology(s->f, &mem))
		printf("# memory nodes (nr %" PRIu64 ", block size 0x%" PRIx64 "):\n", mem.count,
		       mem.block_size);
	if (!peo_perfdata_compressed(s->f, &z))
		printf("# compressed : %s, level = %u, ratio = %u\n", z.type == 1 ? "Zstd" : "Unknown",
		       z.level, z.ratio);
}

/* BUILD_ID entries, one per line: "# build id : HEX FILE" (perf buildid-list's pairs). */
static void print_build_ids(struct script *s)
{
	const struct peo_build_id *ids;
	size_t n;

	if (peo_perfdata_build_ids(s->f, &ids, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		printf("# build id : ");
		for (uint8_t k = 0; k < ids[i].size; k++)
			printf("%02x", ids[i].id[k]);
		printf(" %s\n", ids[i].filename);
	}
}

/* The features, in the order and words of perf report --header-only. */
static void print_header(struct script *s)
{
	uint32_t avail, online;
	uint64_t kb;
	const char *const *argv;
	size_t argc;

	print_string_feature(s, PEO_FEAT_HOSTNAME, "hostname");
	print_string_feature(s, PEO_FEAT_OSRELEASE, "os release");
	print_string_feature(s, PEO_FEAT_VERSION, "perf version");
	print_string_feature(s, PEO_FEAT_ARCH, "arch");
	if (!peo_perfdata_nrcpus(s->f, &avail, &online))
		printf("# nrcpus online : %u\n# nrcpus avail : %u\n", online, avail);
	print_string_feature(s, PEO_FEAT_CPUDESC, "cpudesc");
	print_string_feature(s, PEO_FEAT_CPUID, "cpuid");
	if (!peo_perfdata_feature_u64(s->f, PEO_FEAT_TOTAL_MEM, &kb))
		printf("# total memory : %" PRIu64 " kB\n", kb);
	if (!peo_perfdata_feature_strings(s->f, PEO_FEAT_CMDLINE, &argv, &argc)) {
		printf("# cmdline : "); /* perf leaves a blank after each word */
		for (size_t i = 0; i < argc; i++)
			printf("%s ", argv[i]);
		printf("\n");
	}
	for (size_t i = 0; i < peo_perfdata_attr_count(s->f); i++) {
		const char *name = peo_perfdata_event_name(s->f, i);
		size_t nids;

		peo_perfdata_attr_ids(s->f, i, &nids);
		printf("# event : name = %s, type = %u, config = 0x%" PRIx64 ", ids = %zu\n",
		       name ? name : "?", peo_perfdata_attr(s->f, i)->type,
		       peo_perfdata_attr(s->f, i)->config, nids);
	}
	print_topology(s);
	print_groups_and_caches(s);
	print_times_and_memory(s);
	print_build_ids(s);
}

/*
 * A sentence of the reader's, about the input: the input named first
 * unless the sentence names it (a directory's name the file of it they
 * are about; standard input's open errors say so), then @more.
 */
static void say_input(const struct script *s, const char *sentence, const char *more)
{
	const char *in = s->a.input, *name = strcmp(in, "-") ? in : "standard input";
	size_t n = strlen(name);
	int named = !strncmp(sentence, name, n) && (sentence[n] == '/' || sentence[n] == ':');

	fprintf(stderr, "peo script: %s%s%s%s\n", named ? "" : name, named ? "" : ": ", sentence,
		more);
}

/* The reader failed with @err: its sentence, and what to do where there is something. */
static void read_failed(const struct script *s, int err)
{
	say_input(s, peo_last_error(),
		  err == -ENODATA ? "; `peo script --force` reads the whole records there are"
		  : err == -ESPIPE ? "; give the file: peo script -i FILE"
				   : "");
}

/* Under --force: where the records stopped at a cut one, after the lines. */
static void say_stopped(const struct script *s)
{
	const char *stopped = peo_perfdata_stopped(s->f);

	if (stopped)
		say_input(s, stopped, "; the records stop before it (--force)");
}

/* The CPUs this process may run on (1 when it cannot tell). */
static int cpus_allowed(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) ? 1 : CPU_COUNT(&set);
}

/*
 * Formatting workers by default: a core each beside the reading thread's,
 * up to as many as the reading thread keeps busy; none on one core.  Per
 * thread CPU time on the 222 MB file: the reading thread 105-130 ms, a
 * text worker of 4 about 50 ms, a JSON worker of 4 about 120 ms (more
 * bytes made, and its share of the writes) and of 6 about 77 ms.
 */
static unsigned default_workers(int json)
{
	unsigned most = json ? MAX_JSON_WORKERS : MAX_WORKERS;
	int cpus = cpus_allowed();

	return cpus < 2 ? 0 : (unsigned)cpus - 1 > most ? most : (unsigned)cpus - 1;
}

/* Let go of what @w holds, the parsers the log still has for it too. */
static void fmt_free(struct fmt *w, uint64_t log_end)
{
	const struct entry *e;
	size_t n;

	while ((e = script_log_next(&w->cursor, log_end, &n)))
		if (e->kind == ENTRY_PARSER)
			adopt_parser(w, e->u.parser);
	adopt_parser(w, NULL);
	script_threads_free(&w->threads);
	script_maps_free(&w->maps);
}

/* The workers' state, their log and their pool (or this thread's room to
 * format in, without one).  Returns 0, or -ENOMEM. */
static int workers_start(struct script *s)
{
	unsigned workers = s->a.workers >= 0 ? (unsigned)s->a.workers : default_workers(s->a.json);
	size_t bytes = (workers ? workers : 1) * sizeof(*s->fmts);

	/* zeroed before anything can fail: run_records() frees what is there */
	if (!(s->fmts = aligned_alloc(_Alignof(struct fmt), bytes)))
		return -ENOMEM;
	memset(s->fmts, 0, bytes);
	for (size_t i = 0; i < bytes / sizeof(*s->fmts); i++)
		s->fmts[i].rec.sz = sizeof(s->fmts[i].rec);
	/* the pool's threads touch the fmts only once a batch is handed over */
	/* JSON, three times the text's bytes, keeps the writer thread: workers
	 * writing their own wait on each other's writes (bench/bench_output.c),
	 * spinning; on 16 cores JSON took 223 against 253 ms and 205 against
	 * 216 (medians of 7 and 11), a fifth less CPU.  Text keeps its pwrites */
	if (workers && script_pool_start(&s->pool, workers, 1, !s->a.json, format_entries, s))
		workers = 0; /* no threads: this thread formats and writes */
	s->nfmts = workers ? workers : 1;
	if (script_log_init(&s->log, s->nfmts))
		return -ENOMEM;
	for (unsigned i = 0; i < s->nfmts; i++) {
		s->fmts[i].s = s;
		script_log_reader_start(&s->log, &s->fmts[i].cursor);
	}
	if (s->pool) {
		s->batch = script_pool_next_batch(s->pool, 0, &s->batch_cap);
		return 0;
	}
	s->solo = malloc(ENTRY_MAX);
	return s->solo ? 0 : -ENOMEM;
}

/* Every record to the workers (or formatted here).  Returns 0, or -1 said. */
static int run_records(struct script *s)
{
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	unsigned stopper = 0;
	int got = 0, ended, oom, started = workers_start(s), sent = started;

	/* sent: 0, -ENOMEM, or -EINVAL (refused) */
	while (!sent && !s->stop && (got = peo_perfdata_next(s->f, &rec)) == 1)
		sent = send_record(s, &rec);
	oom = sent == -ENOMEM;
	if (s->pool) /* every line printed, up to a record that does not parse */
		ended = script_pool_finish(s->pool, s->batch_used, &stopper);
	else
		ended = out_finish(&s->out) ? -1 : s->fmts && s->fmts[0].failed ? -2 : 0;
	if (ended == -3)
		fprintf(stderr, "peo script: out of memory for the formatted text of a batch; try "
			"fewer --workers\n");
	else if (ended == -1)
		fprintf(stderr, "peo script: writing the output: %s\n", strerror(errno));
	else if (ended == -2)
		fprintf(stderr, "peo script: %s\n", s->fmts[stopper].error);
	else if (oom)
		fprintf(stderr, "peo script: out of memory %s\n",
			started ? "to start the formatters" : "for the records handed to the formatters");
	else if (sent < 0)
		fprintf(stderr, "peo script: %s\n", s->refused);
	else if (got < 0)
		read_failed(s, got);
	else if (!ended)
		say_stopped(s);
	for (unsigned i = 0; s->fmts && i < s->nfmts; i++)
		fmt_free(&s->fmts[i], s->log.count);
	free(s->fmts);
	script_log_free(&s->log);
	free(s->solo);
	return ended || got < 0 || sent < 0 ? -1 : 0;
}

int cmd_script(int argc, char **argv)
{
	static struct script s; /* 256 KiB of output buffer: not on the stack */
	int ret, got = 0;

	memset(&s, 0, sizeof(s));
	s.parser_events = SIZE_MAX;
	ret = parse_args(argc, argv, &s.a);
	if (ret >= 0)
		return ret;
	/* Records are parsed by the formatting workers; counting needs
	 * neither order nor a parse. */
	PEO_OPTS(peo_perfdata_opts, po, .ordered = s.a.stats ? PEO_PERFDATA_FILE_ORDER : s.a.order,
		 .headers_only = 1, .readahead_thread = 1, .force = s.a.force);

	if ((got = peo_perfdata_open(&s.f, s.a.input, &po))) {
		read_failed(&s, got);
		return 1;
	}
	if (peo_perfdata_damaged(s.f)) /* --force: what is wrong, before the lines */
		say_input(&s, peo_perfdata_damaged(s.f), "; reading the records there are (--force)");
	out_init(&s.out, 1);
	if (s.a.header)
		print_header(&s);
	fflush(stdout); /* what stdio printed goes before the records */
	if (s.a.stats) {
		struct peo_perfdata_counts counts = { .sz = sizeof(counts) };

		got = peo_perfdata_count(s.f, &counts);
		if (!got)
			print_stats(&s, &counts);
		else
			read_failed(&s, got);
		if (!got)
			say_stopped(&s);
		peo_perfdata_counts_free(&counts);
	} else {
		got = run_records(&s);
	}
	for (size_t i = 0; i < s.nevents; i++) {
		peo_tp_format_free(s.events[i].format);
		free(s.events[i].label);
	}
	free(s.events);
	peo_perfdata_close(s.f);
	return got < 0 ? 1 : 0;
}
