/*
 * symbols/inflated.c - a debug file's compressed DWARF inflated ahead:
 * Debian's debug files (libc6-dbg...) keep their .debug_* sections
 * zlib-compressed (SHF_COMPRESSED), and libdw inflates every one with zlib
 * when it first opens the DWARF (libc's: 3.8 MB into 10 MB, 85 ms here,
 * three fifths of unwinding a --call-graph dwarf recording).  libdeflate
 * inflates the same in a fifth of the time, straight into a copy of the
 * file in memory (a memfd: the file's bytes, the inflated sections after
 * them, their headers patched to point there), which libdwfl then reads
 * as if it were the debug file.  Given a cache directory, the copy is a
 * file there, named by the debug file's build id, that later runs read
 * as it is: no inflation at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/inflated.h"

#if !defined(PEO_HAVE_LIBDW) || !defined(PEO_HAVE_DEFLATE)
int sym_inflated_available(void)
{
	return 0;
}

int sym_inflated_copy(int fd, const char *cache_dir)
{
	(void)fd;
	(void)cache_dir;
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

/* What a copy of a debug file takes: its bytes, its compressed sections. */
struct copy_plan {
	Elf *in;
	const char *raw;
	size_t size, nscn;
	GElf_Ehdr eh;
	struct inflating *v;
	long n;
	uint64_t total; /* the copy's size */
};

/* @p made for the file @in: 0, or -1 when it has nothing this copy can
 * inflate (nothing compressed, another compression, a damaged header). */
static int plan_copy(Elf *in, struct copy_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->in = in;
	if (!(p->raw = elf_rawfile(in, &p->size)) || !gelf_getehdr(in, &p->eh) ||
	    elf_getshdrnum(in, &p->nscn) || !headers_patchable(in, &p->eh, p->size, p->nscn) ||
	    !(p->v = calloc(p->nscn ? p->nscn : 1, sizeof(*p->v))) ||
	    (p->n = plan(in, p->size, p->v, p->nscn, &p->total)) <= 0 || p->total > SIZE_MAX / 2 ||
	    (off_t)p->total < 0) {
		free(p->v);
		p->v = NULL;
		return -1;
	}
	return 0;
}

/* The copy written into @out (sized to it already): the file's bytes as
 * they are, each compressed section inflated after them (straight into
 * the file's pages: nothing copied twice), its header pointed there.  0,
 * or -1. */
static int write_copy(const struct copy_plan *p, int out)
{
	struct libdeflate_decompressor *inflater = NULL;
	char *map = mmap(NULL, p->total, PROT_READ | PROT_WRITE, MAP_SHARED, out, 0);
	int err = -1;

	if (map == MAP_FAILED || !(inflater = libdeflate_alloc_decompressor()))
		goto out;
	copy_around(map, p->raw, p->size, p->v, p->n);
	copy_headers(map, p->raw, p->size, &p->eh);
	/* the inflated sections' pages at once (they start past the file's bytes) */
	peo_prefault(map + ((p->size + 63) & ~(size_t)63),
		     p->total - ((p->size + 63) & ~(uint64_t)63));
	for (long i = 0; i < p->n; i++) {
		const struct inflating *c = &p->v[i];
		size_t got;

		if (libdeflate_zlib_decompress(inflater, c->from, c->from_len, map + c->at,
					       c->ch.ch_size, &got) != LIBDEFLATE_SUCCESS ||
		    got != c->ch.ch_size)
			goto out;
		patch_header(p->in, map, &p->eh, c);
	}
	err = 0;
out:
	if (inflater)
		libdeflate_free_decompressor(inflater);
	if (map != MAP_FAILED)
		munmap(map, p->total);
	return err;
}

/* The file's build id (its GNU build-id note) in hex into @hex: 1, or 0
 * when it has none. */
static int debug_build_id(Elf *in, char hex[41])
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(in, scn));) {
		GElf_Shdr sh;
		Elf_Data *d;
		uint8_t id[20];
		size_t len;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE &&
		    !(sh.sh_flags & SHF_COMPRESSED) && (d = elf_rawdata(scn, NULL)) && d->d_buf &&
		    peo_notes_build_id(d->d_buf, d->d_size, 0, id, &len)) {
			for (size_t i = 0; i < len; i++)
				snprintf(hex + 2 * i, 3, "%02x", id[i]);
			return 1;
		}
	}
	return 0;
}

/* @path's directories made as needed (0755, as ~/.cache's): 0, or -1. */
static int make_parents(char *path)
{
	for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		int err;

		*slash = 0;
		err = mkdir(path, 0755) && errno != EEXIST;
		*slash = '/';
		if (err)
			return -1;
	}
	return 0;
}

/* The cache's copy at @path when it is whole (a regular file of the
 * plan's size: a copy is linked there only once written), else -1 (and a
 * wrong one removed, for ours to take its place). */
static int cached_copy(const char *path, const struct copy_plan *p)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && (uint64_t)st.st_size == p->total)
		return fd;
	close(fd);
	unlink(path);
	return -1;
}

/* A new copy in the cache at @path: written into an unnamed file of its
 * directory, its blocks reserved first (a full disk fails here, not as a
 * SIGBUS in the mapping), then linked under its name whole.  Its fd, or
 * -1 (the caller makes one in memory). */
static int new_cached_copy(char *path, const struct copy_plan *p)
{
	char *slash = strrchr(path, '/'), self[64];
	int fd;

	if (!slash || make_parents(path))
		return -1;
	*slash = 0;
	fd = open(path, O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
	*slash = '/';
	if (fd < 0)
		return -1;
	if (fallocate(fd, 0, 0, (off_t)p->total) || write_copy(p, fd)) {
		close(fd);
		return -1;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	/* another process's copy there first (EEXIST) is as good; none
	 * linked (no /proc), this run still reads its own */
	linkat(AT_FDCWD, self, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
	return fd;
}

/* A copy in memory (a memfd): its fd, or -1. */
static int memory_copy(const struct copy_plan *p)
{
	int fd = memfd_create("peo-inflated-debug", MFD_CLOEXEC);

	if (fd >= 0 && (ftruncate(fd, (off_t)p->total) || write_copy(p, fd))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int sym_inflated_available(void)
{
	return 1;
}

int sym_inflated_copy(int fd, const char *cache_dir)
{
	struct copy_plan p;
	Elf *in;
	char hex[41], *path = NULL;
	int copy = -1;

	elf_version(EV_CURRENT);
	if (!(in = elf_begin(fd, ELF_C_READ_MMAP, NULL)))
		return -1;
	if (elf_kind(in) == ELF_K_ELF && !plan_copy(in, &p)) {
		if (cache_dir && *cache_dir && debug_build_id(in, hex) &&
		    asprintf(&path, "%s/%.2s/%s.debug", cache_dir, hex, hex + 2) >= 0 &&
		    (copy = cached_copy(path, &p)) < 0)
			copy = new_cached_copy(path, &p);
		if (copy < 0)
			copy = memory_copy(&p);
		free(path);
		free(p.v);
	}
	elf_end(in);
	return copy;
}
#endif
