/*
 * order_synth.c - `order_synth FILE KIND SEED`: order_file.h's perf.data
 * (KIND 0, 1 or 2: enum order_kind) for script_compare.sh, where peo script
 * must print its samples in the order perf script does.
 */
#include <stdio.h>
#include <stdlib.h>

#include "order_file.h"

int main(int argc, char **argv)
{
	char why[4200];
	long kind = argc == 4 ? strtol(argv[2], NULL, 10) : -1;

	if (kind < 0 || kind > ORDER_RINGS_DRIFT) {
		fprintf(stderr, "usage: order_synth FILE 0|1|2 SEED\n");
		return 2;
	}
	if (order_file_write(argv[1], (enum order_kind)kind, strtoull(argv[3], NULL, 0), 4000,
			     NULL, why, sizeof(why)) < 0) {
		fprintf(stderr, "order_synth: %s\n", why);
		return 1;
	}
	return 0;
}
