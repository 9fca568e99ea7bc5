/*
 * script/worker.c - a formatting worker's side of peo script's delivery:
 * entries read from its batch and from the log, records parsed, names
 * and maps kept, each record handed to the output.
 */
#include <stdio.h>
#include <stdlib.h>

#include "script/entry.h"
#include "script/output.h"
#include "script/run.h"
#include "commands.h"
#include "script/worker.h"

/* @w now parses with @sp (dropping its old parser, freed by the last worker to let go). */
static void adopt_parser(struct script_worker *w, struct shared_parser *sp)
{
	struct shared_parser *old = w->parser;

	if (old && __atomic_sub_fetch(&old->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		peo_record_parser_free(old->p);
		free(old);
	}
	w->parser = sp;
}

/* The first record @w cannot handle, in its sentence ("...: @what"); nothing
 * is printed after it. */
static void record_failed(struct script_worker *w, const struct entry *e, const char *what)
{
	/* a directory's data file by its path, as the reader names it */
	snprintf(w->error, sizeof(w->error), "%s%s%s%sperf.data: record at offset %llu: %s",
		 e->source ? w->run->a.input : "", e->source ? "/" : "", e->source ? e->source : "",
		 e->source ? ": " : "", (unsigned long long)e->offset, what);
	w->failed = 1;
}

/* The names and maps a state record changes.  Non-zero out of memory:
 * the output then stops with a sentence, never with a thread's name or map
 * silently missing. */
static int keep_state(struct script_worker *w, const struct peo_record *r)
{
	if (!w->procs && peo_processes_new(&w->procs, w->run->syms, NULL))
		return -1;
	w->state_gen++;
	return peo_processes_add_record(w->procs, r);
}

static void format_entry(struct script_worker *w, const struct entry *e, int print);

/* Read the log up to entry @upto, printing the line of the last one when @print. */
static void read_log(struct script_worker *w, uint64_t upto, int print)
{
	const struct entry *e;
	size_t n;

	while ((e = script_log_next(&w->cursor, upto, &n)))
		format_entry(w, e, print && w->cursor.pos == upto);
}

/* A worker's work on one entry: a record parsed with its parser, the
 * names and maps it changes kept, handed to the output (its line printed
 * when @print); a parser adopted; the log read up to a sync's place. */
static void format_entry(struct script_worker *w, const struct entry *e, int print)
{
	struct script_record r;
	char what[600];

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
	if (peo_record_parse(w->parser->p, (const char *)(e + 1), e->rec_len, &w->rec)) {
		record_failed(w, e, peo_last_error());
		return;
	}
	/* samples first out: the test costs them two instructions */
	if (w->rec.header.type != PEO_RECORD_SAMPLE && w->output->keeps_state &&
	    script_builds_state(w->rec.header.type) && keep_state(w, &w->rec)) {
		snprintf(what, sizeof(what), "keeping the threads' names and maps: %s",
			 peo_last_error());
		record_failed(w, e, what);
		return;
	}
	r.rec = &w->rec;
	r.column = e->label;
	r.column_len = e->label_len;
	r.format = e->u.format;
	r.print = print;
	if (w->output->record(w, &r))
		record_failed(w, e, peo_last_error());
}

int script_worker_format(void *workers, unsigned worker, const unsigned char *bytes, size_t n,
			 struct out *o)
{
	struct script_worker *w = &((struct script_worker *)workers)[worker];

	w->out = o;
	for (size_t at = 0; at < n;) {
		const struct entry *e = (const struct entry *)(const void *)(bytes + at);

		format_entry(w, e, 1);
		at += e->size;
	}
	return w->failed;
}

void script_worker_free(struct script_worker *w, uint64_t log_end, int exiting)
{
	const struct entry *e;
	size_t n;

	while ((e = script_log_next(&w->cursor, log_end, &n)))
		if (e->kind == ENTRY_PARSER)
			adopt_parser(w, e->u.parser);
	adopt_parser(w, NULL);
	if (!exiting || !exit_keep(w->procs))
		peo_processes_free(w->procs);
	free(w->own);
}
