/*
 * peo.c - the peo command: dispatch to a subcommand.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
	{ "report", cmd_report, "where the samples of a perf.data file went, by function" },
	{ "check", cmd_check, "validate a perf.data file; the offset of the first problem" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: peo [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nRun `peo help COMMAND` (or `peo COMMAND --help`) for a command's options.\n");
}

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* "'WORD' is not a peo command", with the nearest command when it is a typo. */
static void not_a_command(const char *who, const char *word)
{
	const char *names[NCOMMANDS + 2], *near;
	size_t n = 0;

	for (size_t i = 0; i < NCOMMANDS; i++)
		names[n++] = commands[i].name;
	names[n++] = "help";
	names[n++] = "version";
	near = peo_suggest(word, names, n);
	if (near)
		fprintf(stderr, "%s: '%s' is not a peo command: did you mean `%s`? (see `peo --help`)\n",
			who, word, near);
	else
		fprintf(stderr, "%s: '%s' is not a peo command; see `peo --help`\n", who, word);
}

/* `peo help CMD`: CMD's own --help, as `perf help CMD` shows its page. */
static int help(int argc, char **argv)
{
	char opt[] = "--help";

	if (argc < 3) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[2], commands[i].name)) {
			char *args[] = { argv[2], opt, NULL };

			return commands[i].run(2, args);
		}
	not_a_command("peo help", argv[2]);
	return 2;
}

/*
 * A command's exit status @rc, once its standard output is flushed and
 * closed: a write that failed there (a full disk, `> /dev/full`) is said,
 * and the status is 1, where the command itself found nothing wrong.
 */
static int finish(const char *tool, int rc)
{
	if (rc)
		return rc; /* it said what went wrong; the output adds nothing */
	return output_finish(tool, stdout, "standard output");
}

static char out_buf[64 * 1024];

int main(int argc, char **argv)
{
	size_t i;

	/* Not a terminal: fully buffered from the first line, as glibc
	 * buffers it, in a buffer that holds any usage text whole: musl wrote
	 * the first line (or a long printf) at once, and when that write
	 * failed its errno was gone by the final flush. */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, out_buf, _IOFBF, sizeof(out_buf));
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("peo %s (libpeo %s)\n", PEO_VERSION_STRING, peo_version());
		return finish("--version", 0);
	}
	if (!strcmp(argv[1], "help"))
		return finish("help", help(argc, argv));
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return finish(argv[1], 0);
	}
	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish(commands[i].name, commands[i].run(argc - 1, argv + 1));
	not_a_command("peo", argv[1]);
	return 2;
}
