/*
 * script/run.c - one run of peo script: open the input, start the
 * outputs, deliver the records to the one that takes them, say how that
 * ended, finish the outputs.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "script/run.h"

int script_name_width(struct script_run *run)
{
	if (!run->name_width)
		for (size_t i = 0; i < peo_perfdata_attr_count(run->f); i++) {
			const char *n = peo_perfdata_event_name(run->f, i);
			int len = n ? (int)strlen(n) : 5;

			run->name_width = len > run->name_width ? len : run->name_width;
		}
	return run->name_width;
}

void script_say_input(const struct script_run *run, const char *sentence, const char *more)
{
	/* a directory's name the file of it they are about; standard input's
	 * open errors say so */
	const char *in = run->a.input, *name = strcmp(in, "-") ? in : "standard input";
	size_t n = strlen(name);
	int named = !strncmp(sentence, name, n) && (sentence[n] == '/' || sentence[n] == ':');

	fprintf(stderr, "peo script: %s%s%s%s\n", named ? "" : name, named ? "" : ": ", sentence,
		more);
}

void script_read_failed(const struct script_run *run, int err)
{
	script_say_input(run, peo_last_error(),
			 err == -ENODATA ? "; `peo script --force` reads the whole records there are"
			 : err == -ESPIPE ? "; give the file: peo script -i FILE"
					  : "");
}

void script_say_stopped(const struct script_run *run)
{
	const char *stopped = peo_perfdata_stopped(run->f);

	if (stopped)
		script_say_input(run, stopped, "; the records stop before it (--force)");
}

/* How the delivery ended, said on stderr (where the records stopped at a
 * cut one, when they all came).  Returns 0 when it ended well, else -1. */
static int say_end(const struct script_run *run, enum script_end end)
{
	switch (end) {
	case SCRIPT_END_DONE:
		script_say_stopped(run);
		return 0;
	case SCRIPT_END_TEXT_NO_MEMORY:
		fprintf(stderr, "peo script: out of memory for the formatted text of a batch; try "
			"fewer --workers\n");
		break;
	case SCRIPT_END_WRITE_FAILED:
		fprintf(stderr, "peo script: writing the output: %s\n", strerror(run->write_errno));
		break;
	case SCRIPT_END_RECORD_FAILED:
	case SCRIPT_END_REFUSED:
		fprintf(stderr, "peo script: %s\n", run->why);
		break;
	case SCRIPT_END_START_NO_MEMORY:
	case SCRIPT_END_SEND_NO_MEMORY:
		fprintf(stderr, "peo script: out of memory %s\n",
			end == SCRIPT_END_START_NO_MEMORY ? "to start the formatters"
							  : "for the records handed to the formatters");
		break;
	case SCRIPT_END_READ_FAILED:
		script_read_failed(run, run->read_error);
		break;
	}
	return -1;
}

/* The binaries and kernel the workers look addresses up in, with the
 * build ids the recording gives.  0, or -1 after saying why. */
static int symbols_start(struct script_run *run)
{
	PEO_OPTS(peo_symbols_opts, so, .symfs = run->a.symfs, .kallsyms = run->a.kallsyms,
		 .vmlinux = run->a.vmlinux, .no_demangle = run->a.no_demangle);

	if (recording_symbols(run->f, &so, &run->syms)) {
		fprintf(stderr, "peo script: %s\n", peo_last_error());
		return -1;
	}
	return 0;
}

unsigned script_preload_dwarf(struct script_run *run, int srcline)
{
	return srcline || (!run->a.no_inline && recording_has_stacks(run->f)) ? PEO_PRELOAD_DWARF : 0;
}

/* What hid symbols, a sentence each, once. */
static void say_symbol_notes(struct script_run *run)
{
	const char *notes[16];
	size_t n = peo_symbols_notes(run->syms, notes, 16);

	for (size_t i = 0; i < n && i < 16; i++)
		fprintf(stderr, "peo script: note: %s\n", notes[i]);
	if (n > 16)
		fprintf(stderr, "peo script: note: and %zu more of the kind\n", n - 16);
}

int script_run(struct script_run *run)
{
	const struct script_output *taker = NULL;
	int order = run->a.order, err, failed = 0;
	struct preloader preloaders[2];

	for (unsigned i = 0; i < run->noutputs; i++) {
		if (run->outputs[i]->file_order)
			order = PEO_PERFDATA_FILE_ORDER;
		if (run->outputs[i]->record)
			taker = run->outputs[i];
	}
	/* Records are parsed by the formatting workers */
	PEO_OPTS(peo_perfdata_opts, po, .ordered = order, .headers_only = 1, .readahead_thread = 1,
		 .force = run->a.force);

	if ((err = peo_perfdata_open(&run->f, run->a.input, &po))) {
		script_read_failed(run, err);
		return 1;
	}
	if (symbols_start(run)) {
		peo_perfdata_close(run->f);
		return 1;
	}
	if (peo_perfdata_damaged(run->f)) /* --force: what is wrong, before the lines */
		script_say_input(run, peo_perfdata_damaged(run->f),
				 "; reading the records there are (--force)");
	for (unsigned i = 0; i < run->noutputs; i++)
		if (run->outputs[i]->start)
			run->outputs[i]->start(run);
	fflush(stdout); /* what stdio printed goes before the records */
	/* what the lines need of the symbols, read while the records start */
	preload_start(preloaders, run->syms, taker && taker->preload ? taker->preload(run) : 0);
	if (taker)
		failed = say_end(run, script_deliver(run, taker));
	preload_join(preloaders);
	for (unsigned i = 0; i < run->noutputs; i++)
		if (run->outputs[i]->finish && run->outputs[i]->finish(run))
			failed = -1;
	say_symbol_notes(run);
	if (!run->exiting || !exit_keep(run->syms))
		peo_symbols_free(run->syms);
	peo_perfdata_close(run->f);
	return failed ? 1 : 0;
}
