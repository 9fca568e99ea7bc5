/*
 * script/text.c - peo script's text output: each sample's line as perf
 * script prints it, for the fields -F asks (or perf's default for the
 * event), its callchain's frames, and the COMM, FORK, EXIT, MMAP and
 * MMAP2 lines --show-task-events and --show-mmap-events ask.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "script/frames.h"
#include "script/output.h"
#include "script/run.h"
#include "script/srcline.h"
#include "script/worker.h"

/* The last pid/tid (or pid or tid) column and whole seconds printed: runs
 * of samples share them, and their digits were a fifth of a text run. */
struct column_cache {
	uint64_t key;
	int valid;
	size_t len;
	char text[48];
};

/* A callchain frame's line as printed last, for its address in its process
 * (deep stacks repeat their frames: the line is copied, not looked up and
 * made again), until the worker keeps another state record. */
struct frame_line {
	uint64_t ip, gen;
	uint32_t pid;      /* 0 for a kernel frame: the same in every process */
	uint16_t key;      /* its cpumode and symbol fields (frame_key()) */
	uint16_t len;      /* 0: empty */
	char text[168];
};
#define FRAME_LINES 2048 /* a power of two */

/*
 * The last callchain's frames and their text, kept to print the next one:
 * a deep stack's samples share their outer frames (a recursion 40 calls
 * deep differs in its innermost one or two), so the frames a sample shares
 * with the one before, counted from the outermost, are one copy of the
 * text printed for them (45 lookups in the frame-line cache had been a
 * third of the deep-callchain bench's formatting).  Frames are indexed from
 * the outermost (j = 0), so the shared ones keep their places; the text
 * ends at the end of text[].  Valid for one process, field set and state.
 */
#define CHAIN_FRAMES 256
struct last_chain {
	uint64_t gen;
	uint32_t pid;
	unsigned fl;
	int n;                          /* frames; -1: none kept */
	uint64_t ip[CHAIN_FRAMES];      /* by j */
	uint16_t mode[CHAIN_FRAMES];    /* by j */
	uint32_t from[CHAIN_FRAMES];    /* by j: the text's bytes from frame j's line on */
	char text[16384];
};

/* A worker's own (w->own). */
struct text_worker {
	struct column_cache pid_tid, one_id, seconds;
	struct frame_line lines[FRAME_LINES];
	struct last_chain chain;
};

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
			     ? F_IP | F_SYM | F_SYMOFF | F_DSO : 0);
	else
		d = F_COMM | F_TID | F_CPU | F_TIME | F_PERIOD | F_EVENT | F_IP | F_SYM | F_SYMOFF |
		    F_DSO;
	return (d | a->fields_add) & ~a->fields_del;
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
static char *put_time(struct text_worker *t, char *p, uint64_t ns, int with_ns)
{
	if (!cache_holds(&t->seconds, ns / 1000000000u))
		cache_made(&t->seconds, snprintf(t->seconds.text, sizeof(t->seconds.text), "%5llu.",
						 (unsigned long long)(ns / 1000000000u)));
	p = put_bytes(p, t->seconds.text, t->seconds.len);
	if (with_ns)
		p = put_dec_zero(p, ns % 1000000000u, 9);
	else
		p = put_dec_zero(p, ns % 1000000000u / 1000, 6);
	*p++ = ':';
	*p++ = ' ';
	return p;
}

static const char *comm_of(struct script_worker *w, uint32_t tid, char *buf, size_t cap)
{
	const char *c = w->procs ? peo_processes_comm(w->procs, tid) : NULL;

	if (c)
		return c;
	snprintf(buf, cap, ":%d", (int32_t)tid); /* -1 as perf: no thread */
	return buf;
}

/* The columns a line starts with: comm, pid/tid, cpu, time (from @id's fields). */
static void print_start(struct script_worker *w, unsigned fl, const struct peo_sample_id *id,
			uint32_t comm_tid, int unpadded_comm)
{
	struct text_worker *t = w->own;
	struct out *o = w->out;
	char *p;

	if (fl & F_COMM) {
		char cbuf[32];
		const char *c = comm_of(w, comm_tid, cbuf, sizeof(cbuf));

		out_bytes_right(o, c, out_strlen(c), unpadded_comm ? 0 : 16);
		out_char(o, ' ');
	}
	/* the rest in room made once: pid/tid and time texts, cpu, punctuation */
	p = out_room(o, sizeof(t->pid_tid.text) + sizeof(t->seconds.text) + 64);
	if ((fl & F_PID) && (fl & F_TID)) {
		if (!cache_holds(&t->pid_tid, (uint64_t)id->pid << 32 | id->tid))
			cache_made(&t->pid_tid, snprintf(t->pid_tid.text, sizeof(t->pid_tid.text),
							 "%5d/%-5d ", (int32_t)id->pid,
							 (int32_t)id->tid));
		p = put_bytes(p, t->pid_tid.text, t->pid_tid.len);
	} else if (fl & (F_PID | F_TID)) {
		int32_t one = (int32_t)((fl & F_PID) ? id->pid : id->tid);

		if (!cache_holds(&t->one_id, (uint32_t)one))
			cache_made(&t->one_id, snprintf(t->one_id.text, sizeof(t->one_id.text), "%5d ",
							one)); /* -1 as perf */
		p = put_bytes(p, t->one_id.text, t->one_id.len);
	}
	if ((fl & F_CPU) && (id->fields & PEO_SAMPLE_CPU)) {
		*p++ = '[';
		p = put_dec_zero(p, id->cpu, out_dec_digits(id->cpu) > 3 ? out_dec_digits(id->cpu) : 3);
		*p++ = ']';
		*p++ = ' ';
	}
	if ((fl & F_TIME) && (id->fields & PEO_SAMPLE_TIME))
		p = put_time(t, p, id->time, w->run->a.ns);
	out_advance(o, p);
}

/* " sym+0xoff (dso)" after a frame's address, as the fields ask. */
static void print_symbol(struct out *o, unsigned fl, const struct peo_frame *fr)
{
	if (fl & F_SYM) {
		out_char(o, ' ');
		out_str(o, fr->sym ? fr->sym : "[unknown]");
		if (fr->sym && (fl & F_SYMOFF)) {
			char *p = put_bytes(out_room(o, 19), "+0x", 3);

			out_advance(o, put_hex(p, fr->symoff, 0));
		}
	}
	if (fl & F_DSO) {
		out_bytes(o, " (", 2);
		out_str(o, fr->dso ? fr->dso : "[unknown]");
		out_char(o, ')');
	}
}

/* A frame's source line as -F srcline asks: "\n  burn.c:30" (@len 0: none). */
static void print_place(struct out *o, const char *text, size_t len)
{
	if (len) {
		out_bytes(o, "\n  ", 3);
		out_bytes(o, text, len);
	}
}

/* The room a frame's source line takes. */
#define PLACE_ROOM 256

/* A frame's line, "\tADDRESS sym+0xoff (dso)\n", with its source line. */
static void print_frame(struct out *o, unsigned fl, uint64_t ip, const struct peo_frame *fr,
			const char *place, size_t place_len)
{
	char *p = put_bytes(out_room(o, 18), "\t", 1);

	out_advance(o, put_hex(p, fr->dso && !(fr->flags & PEO_FRAME_KERNEL) ? fr->dso_offset : ip,
			       16));
	print_symbol(o, fl, fr);
	print_place(o, place, place_len);
	out_char(o, '\n');
}

static uint16_t frame_key(uint16_t mode, unsigned fl)
{
	return (uint16_t)(mode << 4 | (fl & (F_SYM | F_SYMOFF | F_DSO | F_SRCLINE)) / F_SYM);
}

/* The functions inlined at unwound frame @at (named @fr), as perf prints
 * them before it: "\tADDRESS name+0xoff (inlined)", the outer symbol's
 * offset; with -F srcline, each one's line ("\n  file:line (inlined)").
 * @names holds them (@n), @places their places (@np); returns the room
 * they take. */
static size_t inline_room(const char **names, int n, unsigned fl)
{
	size_t need = 0;

	for (int i = 0; i < n; i++)
		need += 48 + out_strlen(names[i]) + (fl & F_SRCLINE ? PLACE_ROOM : 0);
	return need;
}

static void print_inlines(struct out *o, unsigned fl, const struct peo_frame *fr,
			  const char **names, int n, const struct peo_srcline *places, int np)
{
	for (int i = 0; i < n; i++) {
		/* perf prints an inlined function named as the outer one as that */
		struct peo_frame in = { .sym = names[i], .symoff = fr->symoff, .dso = fr->dso };
		char place[PLACE_ROOM];
		size_t len = fl & F_SRCLINE ? script_srcline_text(fr, i < np ? &places[i] : NULL, 1,
								   place, sizeof(place))
					    : 0;

		if (fr->sym && !strcmp(names[i], fr->sym)) {
			print_frame(o, fl, fr->addr, fr, place, len);
			continue;
		}
		out_advance(o, put_hex(put_bytes(out_room(o, 18), "\t", 1), fr->dso_offset, 16));
		print_symbol(o, fl & ~F_DSO, &in);
		print_place(o, place, len);
		out_str(o, " (inlined)\n");
	}
}

/* A frame's lines: for an unwound one (@unwound), the functions inlined
 * at @at first.  Copied from the cache when printed before (deep stacks
 * repeat their frames), until the worker keeps another state record. */
static void print_frame_lines(struct script_worker *w, const struct peo_record *r, unsigned fl,
			      uint16_t mode, uint64_t ip, uint64_t at, int unwound)
{
	struct text_worker *t = w->own;
	struct out *o = w->out;
	struct peo_frame fr = { .sz = sizeof(fr) };
	uint16_t key = (uint16_t)(frame_key(mode, fl) | unwound << 14);
	uint32_t pid = mode == PEO_RECORD_MISC_KERNEL ? 0 : r->sample_id.pid;
	struct frame_line *c = &t->lines[(ip * 0x9e3779b97f4a7c15ull + pid + (uint64_t)unwound) >> 53 &
					 (FRAME_LINES - 1)];
	const char *names[SCRIPT_MAX_PLACES - 1];
	struct peo_srcline places[SCRIPT_MAX_PLACES];
	char place[PLACE_ROOM];
	int n = 0, np = 0, inl = unwound && !w->run->a.no_inline;
	size_t need, start, place_len = 0;

	if (c->len && c->ip == ip && c->pid == pid && c->key == key && c->gen == w->state_gen) {
		out_bytes(o, c->text, c->len);
		return;
	}
	script_look_up(w, r, mode, at, &fr);
	if (inl && fr.sym && (fl & F_SYM) && w->procs) {
		n = peo_processes_inlines(w->procs, r->sample_id.pid, at, names,
					  SCRIPT_MAX_PLACES - 1);
		n = n > 0 ? n : 0;
	}
	if (fl & F_SRCLINE) {
		if (mode == PEO_RECORD_MISC_USER)
			np = script_places(w, r, at, places);
		/* the outer function's place: where the inlined ones were called */
		place_len = script_srcline_text(&fr, np > n ? &places[n] : NULL, inl && fr.sym,
						place, sizeof(place));
	}
	need = 32 + (fr.sym ? out_strlen(fr.sym) : 9) + (fr.dso ? out_strlen(fr.dso) : 9) +
	       place_len + inline_room(names, n, fl);
	if (need > sizeof(c->text)) { /* not kept */
		out_room(o, need);
		print_inlines(o, fl, &fr, names, n, places, np);
		print_frame(o, fl, at, &fr, place, place_len);
		return;
	}
	out_room(o, need); /* no flush while it is made: its bytes stay where they go */
	start = o->n;
	print_inlines(o, fl, &fr, names, n, places, np);
	print_frame(o, fl, at, &fr, place, place_len);
	*c = (struct frame_line){ ip, w->state_gen, pid, key, (uint16_t)(o->n - start), { 0 } };
	memcpy(c->text, o->buf + start, c->len);
}

/* A frame-pointer callchain's frames of @r (@n of them, @ips and @modes
 * in the callchain's order), printed: those shared with the last one
 * printed (the outermost ones) as a copy of its text, the others looked
 * up; then kept as the last. */
static void print_chain_frames(struct script_worker *w, const struct peo_record *r, unsigned fl,
			       const uint64_t *ips, const uint16_t *modes, int n)
{
	struct last_chain *c = &((struct text_worker *)w->own)->chain;
	struct out *o = w->out;
	uint32_t pid = r->sample_id.pid, at[CHAIN_FRAMES];
	unsigned long writes = o->writes;
	int same = 0, fresh;
	size_t start = o->n, shared;

	if (c->n >= 0 && c->pid == pid && c->fl == fl && c->gen == w->state_gen)
		while (same < n && same < c->n && c->ip[same] == ips[n - 1 - same] &&
		       c->mode[same] == modes[n - 1 - same])
			same++;
	fresh = n - same;
	for (int i = 0; i < fresh; i++) {
		at[i] = (uint32_t)(o->n - start); /* meaningless once the buffer was written out */
		print_frame_lines(w, r, fl, modes[i], ips[i], ips[i], 0);
	}
	shared = same ? c->from[same - 1] : 0;
	out_bytes(o, c->text + sizeof(c->text) - shared, shared);
	/* the new text kept: the fresh lines go before the shared ones */
	c->n = -1;
	if (o->writes != writes || o->n - start > sizeof(c->text))
		return; /* written out meanwhile, or too long to keep */
	memcpy(c->text + sizeof(c->text) - (o->n - start), o->buf + start, o->n - start - shared);
	for (int i = 0; i < fresh; i++) {
		int j = n - 1 - i;

		c->ip[j] = ips[i];
		c->mode[j] = modes[i];
		c->from[j] = (uint32_t)(o->n - start) - at[i];
	}
	c->n = n;
	c->pid = pid;
	c->fl = fl;
	c->gen = w->state_gen;
}

/* A callchain sample's frames, a line each, and the blank line perf ends
 * it with.  perf prints a user frame's address as its offset in the file
 * mapped there, and looks a callchain's up as it is (a return address, not
 * minus one).  A sample with a user stack (--call-graph dwarf): the
 * callchain's kernel part, then the frames unwound, callers named and
 * printed at their return address minus one, with their inlined functions,
 * as perf 6.1 prints them. */
static void print_callchain(struct script_worker *w, const struct peo_record *r, unsigned fl)
{
	struct peo_callchain_iter it = { .sz = sizeof(it) };
	uint64_t ip, ips[SCRIPT_MAX_STACK], chain[CHAIN_FRAMES];
	uint16_t modes[CHAIN_FRAMES];
	int64_t ctx;
	int n = script_unwind(w, r, ips), k = 0;

	out_char(w->out, '\n');
	peo_callchain_begin(&it, r);
	while (peo_callchain_next(&it, &ip, &ctx)) {
		uint16_t mode = callchain_cpumode(ctx);

		if (n && mode == PEO_RECORD_MISC_USER)
			break; /* the unwound frames stand for it */
		if (!n && k < CHAIN_FRAMES) { /* printed whole below */
			chain[k] = ip;
			modes[k++] = mode;
			continue;
		}
		if (k) { /* more frames than are kept: those so far one by one */
			for (int i = 0; i < k; i++)
				print_frame_lines(w, r, fl, modes[i], chain[i], chain[i], 0);
			k = 0;
			((struct text_worker *)w->own)->chain.n = -1;
		}
		print_frame_lines(w, r, fl, mode, ip, ip, 0);
	}
	if (k)
		print_chain_frames(w, r, fl, chain, modes, k);
	for (int i = 0; i < n; i++)
		print_frame_lines(w, r, fl, PEO_RECORD_MISC_USER, ips[i],
				  script_unwound_at(i, ips[i]), i ? 1 : 2);
	out_char(w->out, '\n');
}

/* Whether the lines of @attr's event end in a callchain (perf then does
 * not pad the comm). */
static int ends_in_callchain(unsigned fl, const struct peo_attr *attr)
{
	return (fl & F_IP) && attr && (attr->sample_type & PEO_SAMPLE_CALLCHAIN);
}

/* perf script's sample line for the fields asked (perf's order, whatever
 * -F's); @label is the event's column, @format the tracepoint's for -F trace. */
static void print_sample(struct script_worker *w, const struct peo_record *r, const char *label,
			 size_t label_len, const struct peo_tp_format *format)
{
	const struct peo_sample *smp = &r->u.sample;
	uint64_t st = r->attr ? r->attr->sample_type : 0;
	unsigned fl = fields_for(&w->run->a, r->attr);
	int chain = ends_in_callchain(fl, r->attr);
	struct out *o = w->out;
	char *p;

	/* perf pads the comm, unless a callchain follows */
	print_start(w, fl, &r->sample_id, r->sample_id.tid, chain);
	if (fl & F_PERIOD) { /* a fixed period (-c) is not sampled: the attr has it */
		p = put_dec(out_room(o, 32), script_sample_period(r), 0, 10);
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
	if ((fl & F_ADDR) && (st & PEO_SAMPLE_ADDR)) {
		struct peo_frame fr = { .sz = sizeof(fr) };

		out_hex(o, smp->addr, 16);
		if (script_addr_named(w, r, &fr))
			print_symbol(o, fl, &fr);
	}
	if (chain && (smp->callchain_nr || script_has_stack(r))) {
		print_callchain(w, r, fl);
		return;
	}
	if ((fl & F_IP) && (st & PEO_SAMPLE_IP)) {
		struct peo_frame fr = { .sz = sizeof(fr) };

		p = out_room(o, 17);
		*p++ = ' ';
		out_advance(o, put_hex(p, smp->ip, 16));
		if (fl & (F_SYM | F_DSO | F_SRCLINE)) {
			uint16_t mode = r->header.misc & PEO_RECORD_MISC_CPUMODE_MASK;

			script_look_up(w, r, mode, smp->ip, &fr);
			print_symbol(o, fl, &fr);
		}
		if (fl & F_SRCLINE) {
			struct peo_srcline places[SCRIPT_MAX_PLACES];
			char place[PLACE_ROOM];
			int np = (r->header.misc & PEO_RECORD_MISC_CPUMODE_MASK) == PEO_RECORD_MISC_USER
					 ? script_places(w, r, smp->ip, places)
					 : 0;

			print_place(o, place, script_srcline_text(&fr, np ? places : NULL, 0, place,
								  sizeof(place)));
		}
	}
	out_char(o, '\n');
}

/* MMAP, MMAP2, COMM, FORK and EXIT lines, as perf script's --show-*-events print them. */
static void print_side(struct script_worker *w, const struct peo_record *r)
{
	const struct peo_rec_mmap *m = &r->u.mmap;
	char line[4400];

	unsigned fl = fields_for(&w->run->a, r->attr);
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

static int text_record(struct script_worker *w, const struct script_record *r)
{
	if (r->rec->header.type == PEO_RECORD_SAMPLE)
		print_sample(w, r->rec, r->column, r->column_len, r->format);
	else if (r->print)
		print_side(w, r->rec);
	return 0;
}

/* The event column: the name right-aligned to the longest one's width, and ": ". */
static size_t text_column(struct script_run *run, const char *name, char *buf, size_t cap)
{
	int made = snprintf(buf, cap, "%*s: ", script_name_width(run), name);

	return made < 0 ? 0 : (size_t)made < cap ? (size_t)made : cap - 1;
}

/*
 * Whether -F asks for a field that the samples of the file's events from
 * index @from on do not carry: perf refuses to print those, and so does
 * this (the sentence in run->why) rather than leave the column out.
 */
static unsigned text_preload(struct script_run *run)
{
	unsigned fl = 0;

	for (size_t i = 0; i < peo_perfdata_attr_count(run->f); i++)
		fl |= fields_for(&run->a, peo_perfdata_attr(run->f, i));
	if (!(fl & (F_SYM | F_SYMOFF | F_DSO | F_SRCLINE | F_ADDR)))
		return 0;
	return PEO_PRELOAD_KERNEL | PEO_PRELOAD_BINARIES |
	       script_preload_dwarf(run, (fl & F_SRCLINE) != 0);
}

static int text_check_events(struct script_run *run, size_t from)
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
	unsigned asked = run->a.fields ? run->a.fields : run->a.fields_add;

	for (size_t i = from; i < peo_perfdata_attr_count(run->f); i++) {
		const struct peo_attr *attr = peo_perfdata_attr(run->f, i);
		const char *name = peo_perfdata_event_name(run->f, i);

		for (size_t k = 0; k < sizeof(needs) / sizeof(needs[0]); k++)
			if ((asked & needs[k].field) && !(attr->sample_type & needs[k].sample)) {
				/* 512: the sentence's room as it always was */
				snprintf(run->why, 512, "-F %s: the samples of event '%s' have no "
					 "%s (%s); leave it out of -F", needs[k].name,
					 name ? name : "?", needs[k].name, needs[k].how);
				return -1;
			}
	}
	return 0;
}

const struct script_output script_text_output = {
	.record = text_record,
	.shows = script_side_shown,
	.sample_needs = fields_for,
	.column = text_column,
	.check_events = text_check_events,
	.preload = text_preload,
	.keeps_state = 1,
	.worker_size = sizeof(struct text_worker),
	.max_workers = 4,
	.positioned = 1, /* text keeps its pwrites */
};
