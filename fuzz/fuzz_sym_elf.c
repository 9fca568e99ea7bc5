/*
 * fuzz_sym_elf.c - libFuzzer target for the ELF symbol reader
 * (src/symbols/elf_table.c over elfutils): the input is a whole binary,
 * written to a file under a scratch symfs (so libdwfl's search for a debug
 * file stays inside it).  It is read (0) or refused with -EINVAL and a
 * sentence naming the file; a table read is sorted, no symbol ends before
 * it starts, each segment's offsets map to addresses.
 *
 * Seeds: a small static binary and a small PIE (symbols, PLT, build id).
 * Build and run: make fuzz.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "peo/peo.h"
#include "symbols/binary.h"

#include "fuzz_check.h"

static char symfs[64], file[96];

static void scratch(void)
{
	snprintf(symfs, sizeof(symfs), "/tmp/peo-fuzz-sym-XXXXXX");
	CHECK(mkdtemp(symfs));
	snprintf(file, sizeof(file), "%s/bin", symfs);
	unsetenv("HOME"); /* no build-id cache */
	unsetenv("DEBUGINFOD_URLS");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sym_load how = { .path = "/bin", .demangle = 1 };
	struct sym_binary b;
	FILE *f;
	int err;

	if (!*symfs)
		scratch();
	how.symfs = symfs;
	f = fopen(file, "wb");
	CHECK(f);
	CHECK(fwrite(data, 1, size, f) == size);
	CHECK(fclose(f) == 0);
	err = sym_binary_load(&how, &b);
	if (err) {
		CHECK_SAYS(err == -EINVAL || err == -ENOMEM, "%d: %s", err, peo_last_error());
		CHECK_SAYS(strstr(peo_last_error(), file), "%s", peo_last_error());
		return 0;
	}
	for (size_t i = 0; i < b.syms.n; i++) {
		CHECK(b.syms.v[i].end >= b.syms.v[i].start);
		CHECK(i == 0 || b.syms.v[i - 1].start < b.syms.v[i].start);
		CHECK(b.syms.v[i].name < b.syms.names_len);
	}
	for (size_t i = 0; i < b.nseg; i++) {
		uint64_t v;

		CHECK(!b.seg[i].size || sym_binary_vaddr(&b, b.seg[i].offset, &v));
	}
	sym_binary_fini(&b);
	return 0;
}
