/*
 * peo.c - the peo command: dispatch to a subcommand.
 */
#include <stdio.h>
#include <string.h>

#include <peo/peo.h>

#include "commands.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "features", cmd_features, "what this kernel's perf_event_open accepts" },
	{ "list", cmd_list, "every event this machine offers, marked when it cannot open" },
	{ "stat", cmd_stat, "count events for a command, process, thread, CPUs or cgroup" },
	{ "attr", cmd_attr, "print the perf_event_attr of event strings, as perf -vv does" },
	{ "record", cmd_record, "sample a command, processes or CPUs into a perf.data" },
	{ "script", cmd_script, "print the records of a perf.data file as text or JSON Lines" },
	{ "check", cmd_check, "validate a perf.data file; the offset of the first problem" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: peo [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nRun `peo COMMAND --help` for a command's options.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("peo %s (libpeo %s)\n", PEO_VERSION_STRING, peo_version());
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "peo: '%s' is not a peo command; see `peo --help`\n", argv[1]);
	return 2;
}
