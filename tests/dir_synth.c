/*
 * dir_synth.c - `dir_synth [-z] [-s] DIR FILL NAME...`: tie_dir.h's
 * directory for script_compare.sh, whose samples tie in time: perf script
 * and peo script must print them in the same order.  FILL is none, turn,
 * inflated or unsorted (enum tie_fill); -z compresses the data files; -s
 * gives the event sample_id_all (perf then sorts by time).  Exits 3 when
 * -z is asked of a build without zstd.
 */
#include <stdio.h>
#include <string.h>

#include "tie_dir.h"

int main(int argc, char **argv)
{
	static const char *const fills[] = { "none", "turn", "inflated", "unsorted" };
	struct tie_dir_opts o = { .fill = TIE_FILL_NONE };
	int fill = -1;
	char why[4400];

	for (; argc > 1 && argv[1][0] == '-'; argc--, argv++) {
		if (!strcmp(argv[1], "-z"))
			o.compress = 1;
		else if (!strcmp(argv[1], "-s"))
			o.sample_id_all = 1;
		else
			break;
	}
	for (int i = 0; argc >= 4 && i < (int)(sizeof(fills) / sizeof(fills[0])); i++)
		if (!strcmp(argv[2], fills[i]))
			fill = i;
	if (fill < 0) {
		fprintf(stderr, "usage: dir_synth [-z] [-s] DIR none|turn|inflated|unsorted NAME...\n");
		return 2;
	}
	o.fill = (enum tie_fill)fill;
	if (tie_dir_write(argv[1], &o, (const char *const *)argv + 3, (size_t)(argc - 3), why,
			  sizeof(why))) {
		fprintf(stderr, "dir_synth: %s\n", why);
		return strncmp(why, "no zstd", 7) ? 1 : 3;
	}
	return 0;
}
