/*
 * symbols/inflated.c - a debug file's compressed DWARF inflated ahead:
 * Debian's debug files (libc6-dbg...) keep their .debug_* sections
 * zlib-compressed (SHF_COMPRESSED), and libdw inflates every one with zlib
 * when it first opens the DWARF (libc's: 3.8 MB into 10 MB, 85 ms here,
 * three fifths of unwinding a --call-graph dwarf recording).  libdeflate
 * inflates the same in a fifth of the time; the sections are written,
 * inflated, into a copy of the file in memory (a memfd, by libelf), which
 * libdwfl then reads as if it were the debug file.
 */
#include <errno.h>
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

/* The largest alignment a section may ask of the copy: libelf pads to it
 * (a damaged header's 2^32 made a 4 GB copy). */
#define MAX_ALIGN 65536u

/* Whether @in has a zlib-compressed section (and none of a kind we cannot
 * copy: extended section numbering, an alignment past MAX_ALIGN). */
static int worth_copying(Elf *in)
{
	size_t shstrndx;
	int compressed = 0;

	if (elf_getshdrstrndx(in, &shstrndx) || shstrndx >= SHN_LORESERVE)
		return 0;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(in, scn));) {
		GElf_Shdr sh;
		GElf_Chdr ch;

		if (!gelf_getshdr(scn, &sh) || sh.sh_addralign > MAX_ALIGN)
			return 0;
		if (!(sh.sh_flags & SHF_COMPRESSED))
			continue;
		if (!gelf_getchdr(scn, &ch) || ch.ch_type != ELFCOMPRESS_ZLIB ||
		    ch.ch_addralign > MAX_ALIGN)
			return 0; /* another compression (libdw's business), or damaged */
		compressed = 1;
	}
	return compressed;
}

/* Section @scn's data in the copy: inflated into *@buf (the caller frees
 * it) when compressed, else the file's bytes as they are.  0, or -1. */
static int copy_section(Elf *in, Elf_Scn *scn, Elf_Scn *out_scn,
			struct libdeflate_decompressor *inflater, void **buf)
{
	GElf_Shdr sh;
	GElf_Chdr ch;
	Elf_Data *raw = elf_rawdata(scn, NULL), *data = elf_newdata(out_scn);
	size_t head = gelf_getclass(in) == ELFCLASS32 ? sizeof(Elf32_Chdr) : sizeof(Elf64_Chdr);
	size_t got;

	*buf = NULL;
	if (!gelf_getshdr(scn, &sh) || !data)
		return -1;
	data->d_type = ELF_T_BYTE; /* bytes as the file has them: nothing converted */
	data->d_align = sh.sh_addralign ? sh.sh_addralign : 1;
	if (sh.sh_type == SHT_NOBITS || !(sh.sh_flags & SHF_COMPRESSED)) {
		data->d_buf = sh.sh_type == SHT_NOBITS || !raw ? NULL : raw->d_buf;
		data->d_size = sh.sh_type == SHT_NOBITS ? sh.sh_size : raw ? raw->d_size : 0;
		return gelf_update_shdr(out_scn, &sh) ? 0 : -1;
	}
	/* deflate makes at most 1032 bytes of one: a larger size is a damaged header's */
	if (!raw || raw->d_size < head || !gelf_getchdr(scn, &ch) ||
	    ch.ch_size / 1032 > raw->d_size - head || !(*buf = malloc(ch.ch_size ? ch.ch_size : 1)))
		return -1;
	peo_prefault(*buf, ch.ch_size); /* libc's 10 MB: 2,500 faults were 4/5 of the inflating */
	if (libdeflate_zlib_decompress(inflater, (const char *)raw->d_buf + head, raw->d_size - head,
				       *buf, ch.ch_size, &got) != LIBDEFLATE_SUCCESS ||
	    got != ch.ch_size)
		return -1;
	data->d_buf = *buf;
	data->d_size = ch.ch_size;
	data->d_align = ch.ch_addralign ? ch.ch_addralign : 1;
	sh.sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
	sh.sh_size = ch.ch_size;
	sh.sh_addralign = ch.ch_addralign;
	return gelf_update_shdr(out_scn, &sh) ? 0 : -1;
}

/* @in with its sections inflated, written by libelf to @out_fd.  0, or -1. */
static int write_copy(Elf *in, int out_fd)
{
	struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
	Elf *out = elf_begin(out_fd, ELF_C_WRITE, NULL);
	size_t nscn = 0, nphdr = 0;
	void **bufs = NULL;
	GElf_Ehdr eh;
	int err = !inflater || !out || !gelf_getehdr(in, &eh) || elf_getshdrnum(in, &nscn) ||
		  elf_getphdrnum(in, &nphdr) || !gelf_newehdr(out, gelf_getclass(in)) ||
		  !gelf_update_ehdr(out, &eh) || !(bufs = calloc(nscn ? nscn : 1, sizeof(*bufs)));

	if (!err && nphdr && !gelf_newphdr(out, nphdr))
		err = 1;
	for (size_t i = 0; !err && i < nphdr; i++) {
		GElf_Phdr ph;

		err = !gelf_getphdr(in, (int)i, &ph) || !gelf_update_phdr(out, (int)i, &ph);
	}
	for (Elf_Scn *scn = NULL; !err && (scn = elf_nextscn(in, scn));) {
		Elf_Scn *copy = elf_newscn(out);

		err = !copy || copy_section(in, scn, copy, inflater, &bufs[elf_ndxscn(scn)]);
	}
	/* libelf lays the copy out: its headers' offsets, the sections' */
	if (!err && elf_update(out, ELF_C_WRITE) < 0)
		err = 1;
	if (out)
		elf_end(out);
	for (size_t i = 0; bufs && i < nscn; i++)
		free(bufs[i]);
	free(bufs);
	if (inflater)
		libdeflate_free_decompressor(inflater);
	return err ? -1 : 0;
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
	if (worth_copying(in) && (copy = memfd_create("peo-inflated-debug", MFD_CLOEXEC)) >= 0 &&
	    write_copy(in, copy)) {
		close(copy);
		copy = -1;
	}
	elf_end(in);
	return copy;
}
#endif
