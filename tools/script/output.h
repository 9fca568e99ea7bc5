/*
 * script/output.h - peo script's outputs, a file each: text lines as perf
 * script prints them (script/text.c), JSON Lines (script/json.c), the
 * header's features (script/header.c) and perf report --stats's counts
 * (script/stats.c); and the interface between an output and the
 * delivery of records (script/run.c runs the outputs; script/deliver.c
 * and script/worker.c hand the records over).
 *
 * A run starts each of its outputs, hands every record that the output
 * taking records wants to it (parsed, in the file's order, on the
 * formatting worker whose batch holds it, each worker printing into its
 * own buffer, the buffers written in order), then finishes each output.
 * Each hook may be NULL, but an output with a record hook has shows,
 * sample_needs and column too.
 */
#ifndef PEO_TOOLS_SCRIPT_OUTPUT_H
#define PEO_TOOLS_SCRIPT_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include <peo/peo.h>

#include "script/args.h"

struct script_run;
struct script_worker;

/* A record handed to an output's record hook. */
struct script_record {
	const struct peo_record *rec;       /* parsed */
	const char *column;                 /* a sample's event column, when asked (F_EVENT) */
	size_t column_len;
	const struct peo_tp_format *format; /* a sample's tracepoint format (F_TRACE), or NULL */
	int print; /* 0: a record the output does not show, handed over only
		    * for the names and maps it changes (keeps_state) */
};

struct script_output {
	/* Before any record, on the reading thread; stdio is flushed after. */
	void (*start)(struct script_run *run);

	/*
	 * A record's lines, into w->out, on worker @w: 0, or -1 when the
	 * record does not decode (the sentence in peo_last_error()), after
	 * which nothing more is handed over.  NULL: the output takes no
	 * records one by one.  At most one output of a run has one.
	 */
	int (*record)(struct script_worker *w, const struct script_record *r);
	/* Whether it prints records of @type (SAMPLE always); others are not handed over. */
	int (*shows)(const struct script_args *a, uint32_t type);
	/* What a sample of @attr's event needs (asked once per event): its
	 * column (F_EVENT), its tracepoint format (F_TRACE). */
	unsigned (*sample_needs)(const struct script_args *a, const struct peo_attr *attr);
	/* The column of event @name, made in @buf (@cap bytes); its length. */
	size_t (*column)(struct script_run *run, const char *name, char *buf, size_t cap);
	/* Whether it can print the samples of the file's events from index
	 * @from on: 0, or -1 with the reason in run->why.  Asked again as a
	 * pipe's events grow. */
	int (*check_events)(struct script_run *run, size_t from);
	/* What its lines need of the symbols, read ahead on threads of their
	 * own while the records start (PEO_PRELOAD_*: the kernel's, the
	 * recorded binaries', their DWARF; peo_symbols_preload()).  0 or
	 * NULL: they name no function. */
	unsigned (*preload)(struct script_run *run);
	/* The workers keep the threads' names and maps (w->threads, w->maps):
	 * every worker is handed every COMM, FORK, MMAP and MMAP2 record. */
	int keeps_state;
	size_t worker_size;   /* bytes of the output's own that each worker keeps (w->own, zeroed) */
	unsigned max_workers; /* formatting workers by default, at most */
	int positioned;       /* workers may write their own text at its place in a regular file */

	/* After the records: 0, or -1 after saying on stderr what failed. */
	int (*finish)(struct script_run *run);
	/* Reads the records in the file's order, whatever --ordered says. */
	int file_order;
};

/* The DWARF a run's lines read, as PEO_PRELOAD_DWARF: inlined frames
 * of unwound stacks (--call-graph dwarf, unless --no-inline) or srcline
 * (@srcline). */
unsigned script_preload_dwarf(struct script_run *run, int srcline);

extern const struct script_output script_text_output, script_json_output, script_header_output,
	script_stats_output;

/* Whether records of @type build the threads' names and maps. */
static inline int script_builds_state(uint32_t type)
{
	return type == PEO_RECORD_COMM || type == PEO_RECORD_FORK || type == PEO_RECORD_MMAP ||
	       type == PEO_RECORD_MMAP2;
}

/* Whether --show-task-events or --show-mmap-events asks for records of @type. */
static inline int script_side_shown(const struct script_args *a, uint32_t type)
{
	if (type == PEO_RECORD_MMAP || type == PEO_RECORD_MMAP2)
		return a->show_mmap;
	return a->show_task && (type == PEO_RECORD_COMM || type == PEO_RECORD_FORK ||
				type == PEO_RECORD_EXIT);
}

/* A sample's period: sampled, else the attr's fixed one (-c), else 0. */
static inline uint64_t script_sample_period(const struct peo_record *r)
{
	if (r->attr && (r->attr->sample_type & PEO_SAMPLE_PERIOD))
		return r->u.sample.period;
	return r->attr && !r->attr->freq ? r->attr->sample_period : 0;
}

#endif
