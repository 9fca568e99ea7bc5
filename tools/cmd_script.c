/*
 * cmd_script.c - peo script: the records of a perf.data file as perf
 * script prints them (text), as JSON Lines, or counted as perf report
 * --stats counts them.  This file reads the options and picks the
 * outputs; script/run.c runs them.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <peo/peo.h>

#include "commands.h"
#include "script/output.h"
#include "script/run.h"

static const struct {
	const char *name;
	unsigned bit;
} field_names[] = {
	{ "comm", F_COMM }, { "pid", F_PID }, { "tid", F_TID }, { "cpu", F_CPU },
	{ "time", F_TIME }, { "event", F_EVENT }, { "ip", F_IP }, { "addr", F_ADDR },
	{ "period", F_PERIOD }, { "trace", F_TRACE }, { "sym", F_SYM }, { "symoff", F_SYMOFF },
	{ "dso", F_DSO }, { "srcline", F_SRCLINE },
};

#define FIELD_LIST "comm,pid,tid,cpu,time,event,ip,sym,symoff,dso,srcline,addr,period,trace"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: peo script [-i FILE|-] [-F FIELDS] [--json] [--stats] [--header]\n"
		"                  [--show-task-events] [--show-mmap-events] [--ns]\n"
		"                  [--ordered|--no-ordered] [--workers N] [-f]\n"
		"                  [--symfs DIR] [--kallsyms FILE] [-k FILE] [--no-demangle]\n"
		"                  [--[no-]inline]\n"
		"  -i, --input FILE       the perf.data to read (default perf.data; - for stdin)\n"
		"  -F, --fields LIST      " FIELD_LIST "\n"
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
		"                         the reading thread's, at most %u, or %u with\n"
		"                         --json; 0: none)\n"
		"  -f, --force            read a damaged file as far as it goes: a recording\n"
		"                         that was not finished (perf record killed) or a\n"
		"                         file cut short; the records stop at one cut by the\n"
		"                         end, with a note of where\n"
		"  --symfs DIR            read the recording's binaries under DIR\n"
		"  --kallsyms FILE        the kernel's symbols from FILE, not /proc/kallsyms\n"
		"  -k, --vmlinux FILE     the kernel's own symbols from the vmlinux FILE\n"
		"                         (its build id checked), not kallsyms\n"
		"  --no-demangle          C++ and Rust names as the binaries spell them\n"
		"  --inline, --no-inline  unwound stacks with (the default) or without\n"
		"                         their inlined functions' frames\n",
		script_text_output.max_workers,
		script_json_output.max_workers);
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
				FIELD_LIST " (each may start with + or -: a change to the "
				"default ones)\n", list, name);
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
			FIELD_LIST "\n", list);
		err = -1;
	}
	free(copy);
	return err;
}

static int parse_args(int argc, char **argv, struct script_args *a)
{
	enum { O_JSON = 256, O_STATS, O_HEADER, O_NS, O_TASK, O_MMAP, O_ORDERED, O_NO_ORDERED,
	       O_WORKERS, O_SYMFS, O_KALLSYMS, O_NO_DEMANGLE, O_NO_INLINE, O_INLINE };
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
		{ "symfs", required_argument, NULL, O_SYMFS },
		{ "kallsyms", required_argument, NULL, O_KALLSYMS },
		{ "vmlinux", required_argument, NULL, 'k' },
		{ "no-demangle", no_argument, NULL, O_NO_DEMANGLE },
		{ "no-inline", no_argument, NULL, O_NO_INLINE },
		{ "inline", no_argument, NULL, O_INLINE },
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
	while ((c = getopt_long(argc, argv, "+i:F:fk:h", opts, NULL)) != -1) {
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
		case O_SYMFS: a->symfs = optarg; break;
		case O_KALLSYMS: a->kallsyms = optarg; break;
		case 'k':
			/* as perf, a file that is not there is refused before reading */
			if (access(optarg, R_OK)) {
				fprintf(stderr, "peo script: -k %s: %s\n", optarg, strerror(errno));
				return 2;
			}
			a->vmlinux = optarg;
			break;
		case O_NO_DEMANGLE: a->no_demangle = 1; break;
		case O_NO_INLINE: a->no_inline = 1; break;
		case O_INLINE: a->no_inline = 0; break;
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

int cmd_script(int argc, char **argv)
{
	struct script_run run;
	int ret;

	memset(&run, 0, sizeof(run));
	ret = parse_args(argc, argv, &run.a);
	if (ret >= 0)
		return ret;
	if (run.a.header)
		run.outputs[run.noutputs++] = &script_header_output;
	run.outputs[run.noutputs++] = run.a.stats  ? &script_stats_output
				      : run.a.json ? &script_json_output
						   : &script_text_output;
	run.exiting = 1;
	return script_run(&run);
}
