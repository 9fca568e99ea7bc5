/*
 * symbols/inflated.c - a debug file's compressed DWARF inflated ahead:
 * Debian's debug files (libc6-dbg...) keep their .debug_* sections
 * zlib-compressed (SHF_COMPRESSED), and libdw inflates every one with zlib
 * when it first opens the DWARF (libc's: 3.8 MB into 10 MB, 85 ms here,
 * three fifths of unwinding a --call-graph dwarf recording).  libdeflate
 * inflates the same in a fifth of the time, straight into a copy of the
 * file in memory (a memfd: the file's bytes, the inflated sections after
 * them, their headers patched to point there), which libdwfl then reads
 * as if it were the debug file.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "symbols/inflated.h"

#if !defined(PEO_HAVE_LIBDW) || !defined(PEO_HAVE_DEFLATE)
int sym_inflated_available(void)
{
	return 0;
}

int sym_inflated_copy(int fd)
{
	(void)fd;
	return -1;
}
#else
#include <gelf.h>
#include <libdeflate.h>

/* The largest alignment a section may ask of the copy (a damaged header's
 * 2^32 would pad a 4 GB copy). */
#define MAX_ALIGN 65536u

/* A compressed section and where its bytes go in the copy. */
struct inflating {
	size_t ndx;        /* its index */
	uint64_t offset, size; /* where it lies in the file, compressed */
	const char *from;  /* its zlib stream */
	size_t from_len;
	GElf_Chdr ch;      /* its size and alignment inflated */
	uint64_t at;       /* its offset in the copy */
};

/* The section headers as the file lays them out, when we can patch them
 * in place: the host's byte order, the usual entry size, inside the file. */
static int headers_patchable(Elf *in, const GElf_Ehdr *eh, size_t size, size_t nscn)
{
	const unsigned char host = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
	size_t entsize = gelf_getclass(in) == ELFCLASS32 ? sizeof(Elf32_Shdr) : sizeof(Elf64_Shdr);

	return eh->e_ident[EI_DATA] == host && eh->e_shentsize == entsize && nscn < SHN_LORESERVE &&
	       eh->e_shoff <= size && nscn <= (size - eh->e_shoff) / entsize;
}

/* Each zlib-compressed section of @in, placed after the file's @size
 * bytes (*@total: the copy's size).  How many, or -1 for a file this copy
 * cannot take (another compression, a damaged header). */
static long plan(Elf *in, size_t size, struct inflating *v, size_t max, uint64_t *total)
{
	size_t head = gelf_getclass(in) == ELFCLASS32 ? sizeof(Elf32_Chdr) : sizeof(Elf64_Chdr);
	long n = 0;

	*total = (size + 63) & ~(uint64_t)63;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(in, scn));) {
		GElf_Shdr sh;
		Elf_Data *raw;
		struct inflating *c = &v[n];
		uint64_t align;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS || !(sh.sh_flags & SHF_COMPRESSED))
			continue;
		if ((size_t)n == max || !(raw = elf_rawdata(scn, NULL)) || raw->d_size < head ||
		    !gelf_getchdr(scn, &c->ch) || c->ch.ch_type != ELFCOMPRESS_ZLIB ||
		    c->ch.ch_addralign > MAX_ALIGN ||
		    /* deflate makes at most 1032 bytes of one: more is a damaged header's */
		    c->ch.ch_size / 1032 > raw->d_size - head)
			return -1;
		c->ndx = elf_ndxscn(scn);
		c->offset = sh.sh_offset;
		c->size = sh.sh_size;
		c->from = (const char *)raw->d_buf + head;
		c->from_len = raw->d_size - head;
		align = c->ch.ch_addralign ? c->ch.ch_addralign : 1;
		c->at = (*total + align - 1) / align * align;
		*total = c->at + c->ch.ch_size;
		n++;
	}
	return n;
}

static int by_offset(const void *pa, const void *pb)
{
	const struct inflating *a = pa, *b = pb;

	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* The file's @size bytes at @raw into @map but the compressed sections'
 * (@v, @n of them; nine tenths of a debug file), which are left holes:
 * never touched, no memory. */
static void copy_around(char *map, const char *raw, size_t size, struct inflating *v, long n)
{
	uint64_t from = 0;

	qsort(v, (size_t)n, sizeof(*v), by_offset);
	for (long i = 0; i <= n; i++) {
		uint64_t to = i < n ? v[i].offset : size;

		if (to > size)
			to = size;
		if (to > from)
			memcpy(map + from, raw + from, to - from);
		if (i < n && v[i].offset + v[i].size > from)
			from = v[i].offset + v[i].size > size ? size : v[i].offset + v[i].size;
	}
}

/* The ELF header and the program and section header tables as the file
 * has them, whatever a (damaged) compressed section claimed to cover. */
static void copy_headers(char *map, const char *raw, size_t size, const GElf_Ehdr *eh)
{
	const uint64_t table[][2] = {
		{ 0, eh->e_ident[EI_CLASS] == ELFCLASS32 ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr) },
		{ eh->e_phoff, (uint64_t)eh->e_phnum * eh->e_phentsize },
		{ eh->e_shoff, (uint64_t)eh->e_shnum * eh->e_shentsize },
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i][0] <= size && table[i][1] <= size - table[i][0])
			memcpy(map + table[i][0], raw + table[i][0], table[i][1]);
}

/* Section @c's header in the copy at @map: its inflated place, size and
 * alignment, no longer compressed. */
static void patch_header(Elf *in, char *map, const GElf_Ehdr *eh, const struct inflating *c)
{
	char *at = map + eh->e_shoff + c->ndx * eh->e_shentsize;

	if (gelf_getclass(in) == ELFCLASS32) {
		Elf32_Shdr sh;

		memcpy(&sh, at, sizeof(sh));
		sh.sh_flags &= ~(Elf32_Word)SHF_COMPRESSED;
		sh.sh_offset = (Elf32_Off)c->at;
		sh.sh_size = (Elf32_Word)c->ch.ch_size;
		sh.sh_addralign = (Elf32_Word)c->ch.ch_addralign;
		memcpy(at, &sh, sizeof(sh));
	} else {
		Elf64_Shdr sh;

		memcpy(&sh, at, sizeof(sh));
		sh.sh_flags &= ~(Elf64_Xword)SHF_COMPRESSED;
		sh.sh_offset = c->at;
		sh.sh_size = c->ch.ch_size;
		sh.sh_addralign = c->ch.ch_addralign;
		memcpy(at, &sh, sizeof(sh));
	}
}

/* The copy written into memory file @out: the file's bytes as they are,
 * each compressed section inflated after them (straight into the file's
 * pages: nothing copied twice), its header pointed there.  0, or -1. */
static int write_copy(Elf *in, int out)
{
	size_t size, nscn;
	const char *raw = elf_rawfile(in, &size);
	struct inflating *v = NULL;
	struct libdeflate_decompressor *inflater = NULL;
	uint64_t total;
	GElf_Ehdr eh;
	long n;
	char *map = MAP_FAILED;
	int err = -1;

	if (!raw || !gelf_getehdr(in, &eh) || elf_getshdrnum(in, &nscn) ||
	    !headers_patchable(in, &eh, size, nscn) || !(v = calloc(nscn ? nscn : 1, sizeof(*v))) ||
	    (n = plan(in, size, v, nscn, &total)) <= 0 || total > SIZE_MAX / 2 ||
	    (off_t)total < 0 || ftruncate(out, (off_t)total) ||
	    (map = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, out, 0)) == MAP_FAILED ||
	    !(inflater = libdeflate_alloc_decompressor()))
		goto out;
	copy_around(map, raw, size, v, n);
	copy_headers(map, raw, size, &eh);
	/* the inflated sections' pages at once (they start past the file's bytes) */
	peo_prefault(map + ((size + 63) & ~(size_t)63), total - ((size + 63) & ~(uint64_t)63));
	for (long i = 0; i < n; i++) {
		size_t got;

		if (libdeflate_zlib_decompress(inflater, v[i].from, v[i].from_len, map + v[i].at,
					       v[i].ch.ch_size, &got) != LIBDEFLATE_SUCCESS ||
		    got != v[i].ch.ch_size)
			goto out;
		patch_header(in, map, &eh, &v[i]);
	}
	err = 0;
out:
	if (inflater)
		libdeflate_free_decompressor(inflater);
	if (map != MAP_FAILED)
		munmap(map, total);
	free(v);
	return err;
}

int sym_inflated_available(void)
{
	return 1;
}

int sym_inflated_copy(int fd)
{
	Elf *in;
	int copy = -1;

	elf_version(EV_CURRENT);
	if (!(in = elf_begin(fd, ELF_C_READ_MMAP, NULL)))
		return -1;
	if (elf_kind(in) == ELF_K_ELF &&
	    (copy = memfd_create("peo-inflated-debug", MFD_CLOEXEC)) >= 0 && write_copy(in, copy)) {
		close(copy);
		copy = -1;
	}
	elf_end(in);
	return copy;
}
#endif
