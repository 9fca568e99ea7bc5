/*
 * cmd_attr.c - `peo attr EVENT...`: parse each event string and print the
 * attr of every event it names, in perf's `-vv` perf_event_attr format, so
 * the output can be compared line by line with `perf stat -vv -e EVENT`.
 */
#include <stdio.h>
#include <string.h>

#include <peo/peo.h>

#include "commands.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: peo attr [--help] EVENT...\n");
}

static void help(void)
{
	usage(stdout);
	printf("\n"
	       "Parses each EVENT the way `perf -e` does and prints the perf_event_attr of\n"
	       "every event it names, one block per event, in the format of `perf stat -vv`.\n"
	       "Only the event's own fields are set (type, config*, bp_*, exclude_*,\n"
	       "precise_ip, sample period or frequency from terms); what a tool adds when it\n"
	       "opens the event (read_format, disabled, inherit, ...) is left zero.\n"
	       "\n"
	       "examples:\n"
	       "  peo attr cycles:u\n"
	       "  peo attr '{task-clock,page-faults}:u' sched:sched_switch mem:0x1000/8:w\n");
}

/* Is argv[i] an option (before any "--")? */
static int is_option(const char *arg)
{
	return arg[0] == '-' && arg[1] != '\0';
}

int cmd_attr(int argc, char **argv)
{
	int dashdash = argc; /* index of "--", or argc */
	int nevents = 0;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			dashdash = i;
			break;
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			help();
			return 0;
		}
		if (is_option(argv[i])) {
			fprintf(stderr, "peo attr: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
		nevents++;
	}
	nevents += argc - (dashdash < argc ? dashdash + 1 : argc);
	if (!nevents) {
		fprintf(stderr, "peo attr: no event given\n");
		usage(stderr);
		return 2;
	}

	for (i = 1; i < argc; i++) {
		struct peo_event_list *list = NULL;
		size_t n, k;

		if (i == dashdash)
			continue;
		if (peo_event_parse(&list, argv[i], NULL) < 0) {
			fprintf(stderr, "peo attr: %s\n", peo_last_error());
			return 1;
		}
		n = peo_event_list_count(list);
		for (k = 0; k < n; k++)
			attr_print_perf(stdout, peo_event_attr(peo_event_list_get(list, k)));
		peo_event_list_free(list);
	}
	return 0; /* main() checks the output's writes (output_finish()) */
}
