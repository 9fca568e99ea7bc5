/*
 * script/worker.h - a formatting worker of peo script (or the reading
 * thread, without workers): it parses the records it is handed, keeps
 * the threads' names and maps when its output asks, and hands each record
 * to the output's record hook.  Every worker reads every state record
 * (parsers, and COMM, FORK, MMAP... when kept) from the log, so each has
 * the names and maps as they stand at each of its lines.
 */
#ifndef PEO_TOOLS_SCRIPT_WORKER_H
#define PEO_TOOLS_SCRIPT_WORKER_H

#include <stddef.h>
#include <stdint.h>

#include <peo/peo.h>

#include "script/log.h"
#include "script/out.h"

struct script_run;
struct script_output;
struct shared_parser;

/* On cache lines of their own: shared, every write of one thread had
 * stalled the others' reads. */
struct script_worker {
	/* What an output's record hook may use */
	_Alignas(64) const struct script_run *run;
	struct out *out;               /* where the lines go: the batch's text */
	void *own;                     /* the output's own (its worker_size bytes) */
	/* threads' names and processes' maps, when the output keeps them
	 * (made at the first state record); its binaries are the run's */
	struct peo_processes *procs;
	uint64_t state_gen; /* state records kept: what was looked up before them may differ now */
	/* The delivery's */
	const struct script_output *output;
	struct shared_parser *parser;
	struct script_log_cursor cursor;
	struct peo_record rec;
	int failed; /* a record did not parse (its sentence in error): nothing after it */
	char error[1100];
};

/*
 * The pool's work (script_pool_fn): a batch's @n bytes of entries
 * formatted by worker number @worker of the array @workers, into @o.
 * Returns non-zero when a record did not parse: the output stops after
 * this batch's lines.
 */
int script_worker_format(void *workers, unsigned worker, const unsigned char *bytes, size_t n,
			 struct out *o);

/* Let go of what @w holds, the parsers the log still has for it (below
 * @log_end) too; with @exiting (the command exits next), its processes
 * are left to the exit (exit_keep()). */
void script_worker_free(struct script_worker *w, uint64_t log_end, int exiting);

#endif
