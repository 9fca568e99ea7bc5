/*
 * sym_lookup.c - a binary's symbols as peo reads them (sym_binary_load),
 * for sym_elf_compare.sh:
 *
 *     sym_lookup [-s SYMFS] [-b BUILDID] [-m] FILE            the table
 *     sym_lookup [-s SYMFS] [-b BUILDID] [-m] FILE OFFSET...  per file offset
 *
 * The table: "START END NAME" per symbol (hex ELF addresses).  Per offset
 * (hex, as perf script prints a user frame's address): "OFFSET NAME+0xOFF",
 * or "OFFSET [unknown]".  -m keeps names mangled.  Exit 1 with the error
 * sentence when the binary cannot be read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <peo/peo.h>

#include "symbols/binary.h"

static size_t parse_hex_id(const char *s, uint8_t *id)
{
	size_t n = 0;

	while (n < 20 && s[0] && s[1] && sscanf(s, "%2hhx", &id[n]) == 1)
		n++, s += 2;
	return n;
}

int main(int argc, char **argv)
{
	struct sym_load how = { .demangle = 1 };
	struct sym_binary b;
	uint8_t id[20];
	int opt, err;

	while ((opt = getopt(argc, argv, "s:b:m")) != -1) {
		if (opt == 's')
			how.symfs = optarg;
		else if (opt == 'b') {
			how.build_id = id;
			how.build_id_len = parse_hex_id(optarg, id);
		} else if (opt == 'm')
			how.demangle = 0;
		else
			return 2;
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: sym_lookup [-s SYMFS] [-b BUILDID] [-m] FILE [OFFSET...]\n");
		return 2;
	}
	how.path = argv[optind++];
	err = sym_binary_load(&how, &b);
	if (err) {
		fprintf(stderr, "sym_lookup: %s (%d)\n", peo_last_error(), err);
		return 1;
	}
	if (optind == argc)
		for (size_t i = 0; i < b.syms.n; i++)
			printf("%" PRIx64 " %" PRIx64 " %s\n", b.syms.v[i].start, b.syms.v[i].end,
			       sym_name(&b.syms, &b.syms.v[i]));
	for (; optind < argc; optind++) {
		uint64_t off = strtoull(argv[optind], NULL, 16), vaddr;
		const struct sym_entry *e = sym_binary_vaddr(&b, off, &vaddr) ?
						    sym_table_find(&b.syms, vaddr) : NULL;

		if (e)
			printf("%" PRIx64 " %s+0x%" PRIx64 "\n", off, sym_name(&b.syms, e), vaddr - e->start);
		else
			printf("%" PRIx64 " [unknown]\n", off);
	}
	sym_binary_fini(&b);
	return 0;
}
