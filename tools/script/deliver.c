/*
 * script/deliver.c - the reading thread's side of peo script's delivery:
 * every record an output wants, unparsed, to the formatting workers in
 * batches (the state records, and the parsers, in the log that every
 * worker reads), with what needs the file to resolve: the event's column
 * and its tracepoint format (script/events.c).  Without workers, this
 * thread formats each record as it goes.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script/entry.h"
#include "script/events.h"
#include "script/run.h"
#include "script/worker.h"

struct deliver {
	struct script_run *run;
	const struct script_output *o;
	struct script_events events; /* what is kept of each event */
	struct script_pool *pool; /* records formatted by workers, or NULL */
	unsigned char *batch;     /* the pool's batch being filled: used of cap bytes */
	size_t batch_used, batch_cap;
	int stop;                 /* the output stopped (a record did not parse, a write failed) */
	unsigned char *solo;      /* an entry's room without workers */
	size_t parser_events;     /* the events the last parser sent knew (SIZE_MAX: none sent) */
	struct script_log log;    /* the state records, for every worker */
	struct script_worker *workers; /* the workers' (or the one without workers) */
	unsigned nworkers;
	struct out out; /* the lines, when this thread formats them (no workers) */
};

/* ----------------------------------------------------------- entries */

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
static struct entry *entry_room_slow(struct deliver *d, size_t need)
{
	struct entry *e;

	if (!d->pool)
		return (struct entry *)(void *)d->solo;
	if (d->batch_cap - d->batch_used < need + sizeof(*e)) {
		d->batch = script_pool_next_batch(d->pool, d->batch_used, &d->batch_cap);
		d->batch_used = 0;
		d->stop = script_pool_halted(d->pool);
	}
	e = (struct entry *)(void *)(d->batch + d->batch_used);
	if (!d->batch_used) { /* its worker first reads what the other workers' batches added to the log */
		put_sync(e, d->log.count, 0);
		d->batch_used = sizeof(*e);
		e++;
	}
	return e;
}

/* The same, its common case inline (room left in a batch begun). */
static inline struct entry *entry_room(struct deliver *d, size_t need)
{
	if (d->batch_used && d->batch_cap - d->batch_used >= need + sizeof(struct entry))
		return (struct entry *)(void *)(d->batch + d->batch_used);
	return entry_room_slow(d, need);
}

/* The entry filled: a worker formats it, else this thread now. */
static void entry_done(struct deliver *d, struct entry *e)
{
	e->size = (e->size + 7u) & ~7u;
	if (d->pool) {
		d->batch_used += e->size;
		return;
	}
	script_worker_format(d->workers, 0, (const unsigned char *)e, e->size, &d->out);
	d->stop = d->workers[0].failed || d->out.failed; /* a record that does not parse, a write */
}

/* The log entry at @e (in the log's room) is filled: commit it, and a sync
 * to it goes in the batch (its line printed when @print). */
static void log_done(struct deliver *d, struct entry *e, int print)
{
	/* the room first: a batch it starts reads the log up to before this entry */
	struct entry *sync = entry_room(d, sizeof(*sync));

	script_log_commit(&d->log, e->size); /* it rounds the size up */
	put_sync(sync, d->log.count, print);
	entry_done(d, sync);
}

/* Hand the workers a copy of the reader's parser: the file's events so
 * far.  Returns 0, or -ENOMEM. */
static int send_parser(struct deliver *d)
{
	struct shared_parser *sp = calloc(1, sizeof(*sp));
	struct entry *e = script_log_room(&d->log, sizeof(*e));

	if (!sp || !e || peo_record_parser_clone(&sp->p, peo_perfdata_parser(d->run->f))) {
		free(sp);
		return -ENOMEM;
	}
	sp->refs = d->nworkers;
	memset(e, 0, sizeof(*e));
	e->size = sizeof(*e);
	e->kind = ENTRY_PARSER;
	e->u.parser = sp;
	log_done(d, e, 0);
	d->parser_events = peo_perfdata_attr_count(d->run->f);
	d->events.last_attr = NULL; /* the reader's attrs may have moved */
	return 0;
}

/* Whether a record of @type (not SAMPLE) goes to the workers: shown, or
 * needed for the names and maps they keep. */
static int wanted(const struct deliver *d, uint32_t type)
{
	return d->o->shows(&d->run->a, type) || (d->o->keeps_state && script_builds_state(type));
}

/*
 * A record, unparsed, to the formatting workers (when they need it): in
 * the log when it builds state they keep, else in the batch.  The file's
 * events grew (or it has no parser yet): a new parser goes first.
 * Returns 0, -ENOMEM, or -EINVAL when the output refuses the new events
 * (the sentence in run->why).
 */
static int send_record(struct deliver *d, const struct peo_perfdata_record *pr)
{
	const struct peo_record *r = &pr->rec;
	uint32_t t = r->header.type, rec_len = r->header.size, room = (rec_len + 7u) & ~7u;
	unsigned needs;
	const char *label = NULL;
	size_t label_len = 0, known;
	int in_log = d->o->keeps_state && script_builds_state(t);
	struct script_event *ev;
	struct entry *e;

	if (t != PEO_RECORD_SAMPLE && !wanted(d, t))
		return 0;
	if (d->parser_events != peo_perfdata_attr_count(d->run->f)) {
		known = d->parser_events == SIZE_MAX ? 0 : d->parser_events;
		if (d->o->check_events && d->o->check_events(d->run, known))
			return -EINVAL;
		if (send_parser(d))
			return -ENOMEM;
	}
	ev = t == PEO_RECORD_SAMPLE ? script_events_sample(&d->events, r) : NULL;
	needs = ev ? ev->sample_needs
		   : t == PEO_RECORD_SAMPLE ? d->o->sample_needs(&d->run->a, r->attr) : 0;
	if (t != PEO_RECORD_SAMPLE || !(needs & F_EVENT)) {
		/* no event column */
	} else if (ev && ev->label) { /* kept: passed as it is */
		label = ev->label;
		label_len = ev->label_len;
	} else {
		label = script_events_column(&d->events, ev, r, &label_len);
	}
	if (!in_log)
		e = entry_room(d, sizeof(*e) + room + (label == d->events.pad ? label_len : 0));
	else if (!(e = script_log_room(&d->log, sizeof(*e) + room)))
		return -ENOMEM;
	e->size = (uint32_t)(sizeof(*e) + room);
	e->rec_len = rec_len;
	e->kind = ENTRY_RECORD;
	e->print = 0;
	e->offset = pr->offset;
	e->source = peo_perfdata_source(d->run->f);
	e->u.format = NULL;
	put_bytes((char *)(e + 1), r->bytes, rec_len);
	if (label == d->events.pad) { /* made for this line: it goes after the record */
		label = put_bytes((char *)(e + 1) + room, d->events.pad, label_len) - label_len;
		e->size += (uint32_t)label_len;
	}
	e->label = label;
	e->label_len = (uint32_t)label_len;
	if (ev)
		e->u.format = ev->sample_format;
	if (!in_log)
		entry_done(d, e);
	else
		log_done(d, e, d->o->shows(&d->run->a, t));
	return 0;
}

/* ----------------------------------------------------------- workers */

/* The CPUs this process may run on (1 when it cannot tell). */
static int cpus_allowed(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) ? 1 : CPU_COUNT(&set);
}

/*
 * Formatting workers by default: a core each beside the reading thread's,
 * up to as many as the reading thread keeps busy (@most); none on one
 * core.  Per thread CPU time on the 222 MB file: the reading thread
 * 105-130 ms, a text worker of 4 about 50 ms, a JSON worker of 4 about
 * 120 ms (more bytes made, and its share of the writes) and of 6 about
 * 77 ms.
 */
static unsigned default_workers(unsigned most)
{
	int cpus = cpus_allowed();

	return cpus < 2 ? 0 : (unsigned)cpus - 1 > most ? most : (unsigned)cpus - 1;
}

/* The workers' state, their log and their pool (or this thread's room to
 * format in, without one).  Returns 0, or -ENOMEM. */
static int workers_start(struct deliver *d)
{
	const struct script_args *a = &d->run->a;
	unsigned workers = a->workers >= 0 ? (unsigned)a->workers : default_workers(d->o->max_workers);
	size_t bytes = (workers ? workers : 1) * sizeof(*d->workers);
	size_t own = (d->o->worker_size + 63) & ~(size_t)63; /* its own cache lines */

	/* zeroed before anything can fail: script_deliver() frees what is there */
	if (!(d->workers = aligned_alloc(_Alignof(struct script_worker), bytes)))
		return -ENOMEM;
	memset(d->workers, 0, bytes);
	for (size_t i = 0; i < bytes / sizeof(*d->workers); i++)
		d->workers[i].rec.sz = sizeof(d->workers[i].rec);
	/* the pool's threads touch the workers only once a batch is handed over */
	if (workers && script_pool_start(&d->pool, workers, 1, d->o->positioned,
					 script_worker_format, d->workers))
		workers = 0; /* no threads: this thread formats and writes */
	d->nworkers = workers ? workers : 1;
	if (script_log_init(&d->log, d->nworkers))
		return -ENOMEM;
	for (unsigned i = 0; i < d->nworkers; i++) {
		struct script_worker *w = &d->workers[i];

		w->run = d->run;
		w->output = d->o;
		script_log_reader_start(&d->log, &w->cursor);
		if (own && !(w->own = aligned_alloc(64, own)))
			return -ENOMEM;
		if (own)
			memset(w->own, 0, own);
	}
	if (d->pool) {
		d->batch = script_pool_next_batch(d->pool, 0, &d->batch_cap);
		return 0;
	}
	d->solo = malloc(ENTRY_MAX);
	return d->solo ? 0 : -ENOMEM;
}

/* How the pool's output ended, as the delivery's. */
static enum script_end pool_end(enum script_pool_end end)
{
	switch (end) {
	case SCRIPT_POOL_WRITE_FAILED: return SCRIPT_END_WRITE_FAILED;
	case SCRIPT_POOL_STOPPED: return SCRIPT_END_RECORD_FAILED;
	case SCRIPT_POOL_NO_MEMORY: return SCRIPT_END_TEXT_NO_MEMORY;
	default: return SCRIPT_END_DONE;
	}
}

/* What @d holds, the workers' too. */
static void deliver_free(struct deliver *d)
{
	for (unsigned i = 0; d->workers && i < d->nworkers; i++)
		script_worker_free(&d->workers[i], d->log.count, d->run->exiting);
	free(d->workers);
	script_log_free(&d->log);
	free(d->solo);
	script_events_free(&d->events);
	free(d);
}

enum script_end script_deliver(struct script_run *run, const struct script_output *o)
{
	struct deliver *d = calloc(1, sizeof(*d)); /* 256 KiB of output buffer: not on the stack */
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	unsigned stopper = 0;
	int got = 0, started, sent;
	enum script_end end;

	if (!d)
		return SCRIPT_END_START_NO_MEMORY;
	d->run = d->events.run = run;
	d->o = d->events.o = o;
	d->parser_events = SIZE_MAX;
	out_init(&d->out, 1);
	started = sent = workers_start(d); /* 0, -ENOMEM, or (sent) -EINVAL: refused */
	while (!sent && !d->stop && (got = peo_perfdata_next(run->f, &rec)) == 1)
		sent = send_record(d, &rec);
	if (d->pool) /* every line printed, up to a record that does not parse */
		end = pool_end(script_pool_finish(d->pool, d->batch_used, &stopper));
	else
		end = out_finish(&d->out)			  ? SCRIPT_END_WRITE_FAILED
		      : d->workers && d->workers[0].failed ? SCRIPT_END_RECORD_FAILED
							  : SCRIPT_END_DONE;
	if (end == SCRIPT_END_WRITE_FAILED)
		run->write_errno = errno;
	else if (end == SCRIPT_END_RECORD_FAILED)
		snprintf(run->why, sizeof(run->why), "%s", d->workers[stopper].error);
	else if (end != SCRIPT_END_DONE) /* the text's memory: said first */
		;
	else if (sent == -ENOMEM)
		end = started ? SCRIPT_END_START_NO_MEMORY : SCRIPT_END_SEND_NO_MEMORY;
	else if (sent < 0)
		end = SCRIPT_END_REFUSED;
	else if (got < 0)
		end = SCRIPT_END_READ_FAILED;
	run->read_error = got;
	deliver_free(d);
	return end;
}
