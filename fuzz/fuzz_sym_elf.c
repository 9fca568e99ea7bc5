/*
 * fuzz_sym_elf.c - libFuzzer target for the ELF symbol reader
 * (src/symbols/elf_table.c over elfutils): the input is a whole binary,
 * written to a file under a scratch symfs (so libdwfl's search for a debug
 * file stays inside it).  It is read (0) or refused with -EINVAL and a
 * sentence naming the file; a table read is sorted, no symbol ends before
 * it starts, each segment's offsets map to addresses.  Then read again as
 * a vmlinux (by sections, as peo script -k reads one), placed as the
 * kernel's symbols (symbols/vmlinux.c) relocated by its _text: refused
 * with -EINVAL or -ENOENT (no .text symbols), or each part sorted.
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
#include "symbols/kernel.h"

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

static void check_table(const struct sym_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		CHECK(t->v[i].end >= t->v[i].start);
		CHECK(i == 0 || t->v[i - 1].start < t->v[i].start);
		CHECK(t->v[i].name < t->names_len);
	}
}

/* The file as a vmlinux: refused with a sentence naming it, or its
 * sections placed as the kernel's parts, moved as KASLR would. */
static void as_vmlinux(void)
{
	struct sym_load how = { .path = "/bin", .symfs = symfs, .kernel = 1, .ref_name = "_text" };
	struct sym_kernel k = { 0 };
	struct sym_binary b;
	int err = sym_binary_load(&how, &b);

	if (err) {
		CHECK_SAYS(err == -EINVAL || err == -ENOENT || err == -ENOMEM, "%d: %s", err,
			   peo_last_error());
		CHECK_SAYS(strstr(peo_last_error(), file), "%s", peo_last_error());
		return;
	}
	CHECK(b.nsections >= 1 && !strcmp(b.sections[0].name, ".text"));
	err = sym_kernel_use_vmlinux(&k, &b, b.has_ref ? 0xffffffff81000000ull - b.ref_value : 0,
				     file);
	sym_binary_fini(&b);
	CHECK(!err || err == -ENOMEM);
	for (size_t i = 0; i < k.nparts; i++) {
		check_table(&k.parts[i].syms);
		CHECK(i < 2 || k.parts[i - 1].start <= k.parts[i].start);
		(void)sym_kernel_part(&k, k.parts[i].start);
	}
	sym_kernel_fini(&k);
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
	check_table(&b.syms);
	for (size_t i = 0; i < b.nseg; i++) {
		uint64_t v;

		CHECK(!b.seg[i].size || sym_binary_vaddr(&b, b.seg[i].offset, &v));
	}
	sym_binary_fini(&b);
	as_vmlinux();
	return 0;
}
