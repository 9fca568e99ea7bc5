/*
 * script/run.h - one run of peo script: the input opened, its outputs
 * started, the records delivered to the output that takes them, the
 * outputs finished; and the sentences about the input that every output
 * says the same way.
 */
#ifndef PEO_TOOLS_SCRIPT_RUN_H
#define PEO_TOOLS_SCRIPT_RUN_H

#include <peo/peo.h>

#include "script/args.h"
#include "script/output.h"

/* How a delivery of the records ended. */
enum script_end {
	SCRIPT_END_DONE,            /* every record handed over, the input read to its end */
	SCRIPT_END_WRITE_FAILED,    /* writing the output failed (run->write_errno) */
	SCRIPT_END_RECORD_FAILED,   /* a record did not parse or decode: no line after it (run->why) */
	SCRIPT_END_TEXT_NO_MEMORY,  /* a batch's formatted text could not grow */
	SCRIPT_END_START_NO_MEMORY, /* the workers could not be started */
	SCRIPT_END_SEND_NO_MEMORY,  /* no memory for the records handed to the workers */
	SCRIPT_END_REFUSED,         /* the output cannot print the file's events (run->why) */
	SCRIPT_END_READ_FAILED,     /* the input could not be read on (run->read_error) */
};

struct script_run {
	/* Read by every worker for every record: a line of its own, not one
	 * the reading thread's stack (where run lives) writes too. */
	_Alignas(64) struct script_args a;
	struct peo_perfdata *f;
	struct peo_symbols *syms; /* the binaries and kernel, shared by the workers */
	const struct script_output *outputs[2]; /* the header's, then the one for the records */
	unsigned noutputs;
	int name_width;   /* the longest event name (0: not measured yet) */
	int exiting;      /* the command exits after the run: its tables are left to the exit */
	int read_error;   /* SCRIPT_END_READ_FAILED's negative errno */
	int write_errno;  /* SCRIPT_END_WRITE_FAILED's errno */
	char why[1100];   /* SCRIPT_END_RECORD_FAILED's or SCRIPT_END_REFUSED's sentence */
};

/*
 * Open @run's input (run->a; run->outputs set), run its outputs, close it.
 * Returns the command's exit status: 0, or 1 after saying on stderr what
 * went wrong.
 */
int script_run(struct script_run *run);

/* The longest of the file's event names, for a column that fits them all. */
int script_name_width(struct script_run *run);

/*
 * Say on stderr a sentence of the reader's about the input: the input
 * named first unless @sentence names it, then @more.
 */
void script_say_input(const struct script_run *run, const char *sentence, const char *more);

/* Say that reading failed with @err (a negative errno), and what to do where there is something. */
void script_read_failed(const struct script_run *run, int err);

/* Under --force: say where the records stopped at a cut one, if they did. */
void script_say_stopped(const struct script_run *run);

/*
 * Hand every record of run->f to @o's record hook, on formatting workers
 * (script/deliver.c).  Says nothing: returns how it ended, the details in
 * @run.
 */
enum script_end script_deliver(struct script_run *run, const struct script_output *o);

#endif
