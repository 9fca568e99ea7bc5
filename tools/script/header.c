/*
 * script/header.c - peo script --header: the file's header features
 * before the records, whole (as perf report --header-only -I prints
 * them, perf_header.c), and the build ids (as perf buildid-list's pairs).
 */
#include <stdio.h>

#include "commands.h"
#include "script/output.h"
#include "script/run.h"

static void header_start(struct script_run *run)
{
	perf_header_features(stdout, run->f, 1, 1);
}

const struct script_output script_header_output = {
	.start = header_start,
};
