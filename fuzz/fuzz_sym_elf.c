/*
 * fuzz_sym_elf.c - libFuzzer target for the ELF symbol reader
 * (src/symbols/elf_table.c over elfutils): the input is a whole binary,
 * written to a file under a scratch symfs (so libdwfl's search for a debug
 * file stays inside it).  It is read (0) or refused with -EINVAL and a
 * sentence naming the file; a table read is sorted, no symbol ends before
 * it starts, each segment's offsets map to addresses.  Then read again as
 * a vmlinux (by sections, as peo script -k reads one), placed as the
 * kernel's symbols (symbols/vmlinux.c) relocated by its _text: refused
 * with -EINVAL or -ENOENT (no .text symbols), or each part sorted.  A
 * binary read is also mapped into a process model and its DWARF asked
 * (peo_processes_srclines, _inlines, a data lookup) at its symbols and
 * segments: answers or nothing, never a crash.  Its compressed sections
 * are inflated into a copy: none made, or an ELF file.
 *
 * Seeds: a small static binary and a small PIE (symbols, PLT, build id),
 * and srcline_sample built -O2 -g (DWARF 5: lines, an inlined function),
 * also with its DWARF zlib-compressed.
 * Build and run: make fuzz.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "peo/peo.h"
#include "symbols/binary.h"
#include "symbols/inflated.h"
#include "symbols/kernel.h"
#include "symbols/processes.h"

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

/* What the DWARF says at @addr of the file mapped at @base: places with
 * files or none, names, no crash. */
static void ask_at(struct peo_processes *p, uint64_t addr)
{
	struct peo_srcline pl[8];
	const char *names[8];
	struct peo_frame fr = { .sz = sizeof(fr) };
	int n = peo_processes_srclines(p, 1, addr, pl, 8), k;

	CHECK(n >= 0 || n == -ENOMEM || n == -ENOTSUP);
	for (int i = 0; i < n; i++)
		CHECK(!pl[i].file || strlen(pl[i].file) < 1u << 20);
	k = peo_processes_inlines(p, 1, addr, names, 8);
	CHECK(k >= 0 || k == -ENOMEM || k == -ENOTSUP);
	for (int i = 0; i < k; i++)
		CHECK(names[i]);
	CHECK(peo_processes_lookup(p, 1, PEO_RECORD_MISC_USER, addr, PEO_LOOKUP_DATA, &fr) >= 0);
}

/* The file mapped whole at 0x400000 of process 1, its DWARF asked at
 * its symbols' starts and its segments' starts and middles. */
static void as_mapped(const struct sym_binary *b, size_t size)
{
	PEO_OPTS(peo_symbols_opts, so, .symfs = symfs);
	struct peo_symbols *syms;
	struct peo_processes *p;
	const uint64_t base = 0x400000;

	if (peo_symbols_new(&syms, &so))
		return;
	if (peo_processes_new(&p, syms, NULL)) {
		peo_symbols_free(syms);
		return;
	}
	if (!sym_processes_map(p, 1, base, size + 4096, 0, "/bin", 0, 1, NULL, 0)) {
		for (size_t i = 0; i < b->syms.n && i < 64; i++) {
			uint64_t off = b->syms.v[i].start; /* its offset, where segments are the identity */

			for (size_t s = 0; s < b->nseg; s++)
				if (off >= b->seg[s].vaddr && off - b->seg[s].vaddr < b->seg[s].size)
					ask_at(p, base + b->seg[s].offset + (off - b->seg[s].vaddr));
		}
		for (size_t s = 0; s < b->nseg; s++) {
			ask_at(p, base + b->seg[s].offset);
			ask_at(p, base + b->seg[s].offset + b->seg[s].size / 2);
		}
	}
	peo_processes_free(p);
	peo_symbols_free(syms);
}

/* The file's compressed sections inflated into a copy (symbols/inflated.c):
 * none, or an ELF file. */
static void inflated(void)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC), copy;
	char magic[4];

	CHECK(fd >= 0);
	copy = sym_inflated_copy(fd, NULL);
	close(fd);
	if (copy < 0)
		return;
	CHECK(pread(copy, magic, 4, 0) == 4 && !memcmp(magic, "\177ELF", 4));
	close(copy);
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
	inflated();
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
	as_mapped(&b, size);
	sym_binary_fini(&b);
	as_vmlinux();
	return 0;
}
