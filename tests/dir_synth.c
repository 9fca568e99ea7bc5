/*
 * dir_synth.c - `dir_synth DIR FILL NAME...`: tie_dir.h's directory for
 * script_compare.sh, whose samples tie in time: perf script and peo
 * script must print them in the same order (perf's reading order).
 */
#include <stdio.h>
#include <string.h>

#include "tie_dir.h"

int main(int argc, char **argv)
{
	char why[4400];

	if (argc < 4 || (strcmp(argv[2], "0") && strcmp(argv[2], "1"))) {
		fprintf(stderr, "usage: dir_synth DIR FILL(0|1) NAME...\n");
		return 2;
	}
	if (tie_dir_write(argv[1], argv[2][0] == '1', (const char *const *)argv + 3,
			  (size_t)(argc - 3), why, sizeof(why))) {
		fprintf(stderr, "dir_synth: %s\n", why);
		return 1;
	}
	return 0;
}
