/*
 * sym_kernel_lookup.c - the kernel's symbols for addresses read from
 * standard input, one hex address a line, printed as perf script prints a
 * kernel frame: "ADDR sym+0xOFF (dso)", "[unknown] (dso)" inside a part
 * with no symbol there, "[unknown] ([unknown])" outside every part.  For
 * tests/sym_kernel_compare.sh.
 *
 * usage: sym_kernel_lookup [--time] [KALLSYMS]
 *   KALLSYMS  the file to read (default /proc/kallsyms)
 *   --time    print the load's wall-clock time to stderr
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "symbols/kernel.h"

#include <peo/peo.h>

int main(int argc, char **argv)
{
	struct sym_kernel k;
	struct timespec t0, t1;
	const char *path = NULL;
	int timed = 0, err;
	char line[128];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--time"))
			timed = 1;
		else
			path = argv[i];
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = sym_kernel_load(path, &k);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (err) {
		fprintf(stderr, "sym_kernel_lookup: %s\n", peo_last_error());
		return 1;
	}
	if (timed) {
		size_t n = 0;

		for (size_t i = 0; i < k.nparts; i++)
			n += k.parts[i].syms.n;
		fprintf(stderr, "loaded %zu symbols in %zu parts in %.1f ms\n", n, k.nparts,
			(double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	}
	if (k.hidden)
		fprintf(stderr, "sym_kernel_lookup: %s\n", k.hidden);
	while (fgets(line, sizeof(line), stdin)) {
		uint64_t addr = strtoull(line, NULL, 16);
		const struct sym_kpart *part = sym_kernel_part(&k, addr);
		const struct sym_entry *e = part ? sym_table_find(&part->syms, addr) : NULL;

		if (e)
			printf("%" PRIx64 " %s+0x%" PRIx64 " (%s)\n", addr, sym_name(&part->syms, e),
			       addr - e->start, part->name);
		else
			printf("%" PRIx64 " [unknown] (%s)\n", addr, part ? part->name : "[unknown]");
	}
	sym_kernel_fini(&k);
	return 0;
}
