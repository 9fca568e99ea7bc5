/*
 * elf_symbols.c - the file offset of a symbol in an ELF file, for uprobes,
 * and its GNU build id, for perf.data's BUILD_ID feature.
 *
 * Our own reader, just large enough for this: ELF32 and ELF64, either byte
 * order.  The file is read with pread(2), and every offset, size, count and
 * index taken from it is checked against the file's length (or the table it
 * indexes) before it is used, so a damaged or hostile file gives -EINVAL and
 * a sentence naming the byte offset of the bad field, never a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* The few ELF constants we need, from the System V gABI. */
enum {
	ELF_CLASS32 = 1,
	ELF_CLASS64 = 2,
	ELF_DATA_LSB = 1,
	ELF_DATA_MSB = 2,
	ELF_PT_LOAD = 1,
	ELF_SHT_SYMTAB = 2,
	ELF_SHT_STRTAB = 3,
	ELF_SHT_DYNSYM = 11,
	ELF_SHN_UNDEF = 0,
	ELF_SHN_XINDEX = 0xffff,
	ELF_PN_XNUM = 0xffff,
	ELF_STB_LOCAL = 0,
	ELF_STT_SECTION = 3,
	ELF_STT_FILE = 4,
	ELF_STT_FUNC = 2,
	ELF_STT_TLS = 6,
	ELF_STT_GNU_IFUNC = 10,
};

/* Where each field we read lies, for one ELF class. */
struct elf_layout {
	uint8_t word;  /* size of addresses, offsets and xwords */
	uint8_t ehsize, phsize, shsize, symsize;
	uint8_t e_phoff, e_shoff, e_phentsize, e_phnum, e_shentsize, e_shnum;
	uint8_t p_type, p_offset, p_vaddr, p_filesz;
	uint8_t sh_type, sh_offset, sh_size, sh_link, sh_info, sh_entsize;
	uint8_t st_name, st_info, st_shndx, st_value;
};

static const struct elf_layout layout32 = {
	.word = 4, .ehsize = 52, .phsize = 32, .shsize = 40, .symsize = 16,
	.e_phoff = 28, .e_shoff = 32, .e_phentsize = 42, .e_phnum = 44,
	.e_shentsize = 46, .e_shnum = 48,
	.p_type = 0, .p_offset = 4, .p_vaddr = 8, .p_filesz = 16,
	.sh_type = 4, .sh_offset = 16, .sh_size = 20, .sh_link = 24, .sh_info = 28,
	.sh_entsize = 36,
	.st_name = 0, .st_info = 12, .st_shndx = 14, .st_value = 4,
};

static const struct elf_layout layout64 = {
	.word = 8, .ehsize = 64, .phsize = 56, .shsize = 64, .symsize = 24,
	.e_phoff = 32, .e_shoff = 40, .e_phentsize = 54, .e_phnum = 56,
	.e_shentsize = 58, .e_shnum = 60,
	.p_type = 0, .p_offset = 8, .p_vaddr = 16, .p_filesz = 32,
	.sh_type = 4, .sh_offset = 24, .sh_size = 32, .sh_link = 40, .sh_info = 44,
	.sh_entsize = 56,
	.st_name = 0, .st_info = 4, .st_shndx = 6, .st_value = 8,
};

struct elf {
	const char *path;
	int fd;
	uint64_t size; /* the file's length: the bound for every offset */
	const struct elf_layout *l;
	int swap; /* the file's byte order is not the host's */
	uint64_t phoff, phnum, shoff, shnum;
	unsigned phentsize, shentsize;
	unsigned char *shdrs; /* the section header table, shnum * shentsize bytes */
};

typedef unsigned long long ull;

static uint16_t get16(const struct elf *e, const unsigned char *p)
{
	return peo_load_u16(p, e->swap);
}

static uint32_t get32(const struct elf *e, const unsigned char *p)
{
	return peo_load_u32(p, e->swap);
}

static uint64_t get64(const struct elf *e, const unsigned char *p)
{
	return peo_load_u64(p, e->swap);
}

/* An address, offset or xword: 4 bytes in ELF32, 8 in ELF64. */
static uint64_t getword(const struct elf *e, const unsigned char *p)
{
	return e->l->word == 8 ? get64(e, p) : get32(e, p);
}

/* Do @len bytes at @off lie inside the file? */
static int in_file(const struct elf *e, uint64_t off, uint64_t len)
{
	return off <= e->size && len <= e->size - off;
}

static int malformed(const struct elf *e, const char *fmt, ...) PEO_PRINTF(2, 3);
static int malformed(const struct elf *e, const char *fmt, ...)
{
	char what[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return peo_fail(EINVAL, "%s: malformed ELF: %s", e->path, what);
}

/* Read @len bytes at @off (already bounds-checked) into @buf. */
static int elf_pread(const struct elf *e, void *buf, uint64_t len, uint64_t off, const char *what)
{
	unsigned char *p = buf;

	while (len) {
		size_t chunk = len > (1u << 30) ? (1u << 30) : (size_t)len;
		ssize_t n = pread(e->fd, p, chunk, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return peo_fail(EIO, "%s: reading the %s (%llu bytes at offset 0x%llx) failed: %s",
					e->path, what, (ull)len, (ull)off, strerror(errno));
		if (n == 0)
			return peo_fail(EIO, "%s: reading the %s at offset 0x%llx: the file ended early "
					"(did it shrink while being read?)", e->path, what, (ull)off);
		p += n;
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	return 0;
}

/* A new buffer holding @len bytes at @off (already bounds-checked). */
static int elf_load(const struct elf *e, uint64_t off, uint64_t len, const char *what,
		    unsigned char **out)
{
	unsigned char *buf;
	int err;

	*out = NULL;
	if (len > SIZE_MAX)
		return peo_fail(ENOMEM, "%s: the %s (%llu bytes) does not fit in memory",
				e->path, what, (ull)len);
	buf = malloc(len ? (size_t)len : 1);
	if (!buf)
		return peo_fail(ENOMEM, "%s: no memory for the %s (%llu bytes)", e->path, what, (ull)len);
	err = elf_pread(e, buf, len, off, what);
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	return 0;
}

static const unsigned char *shdr(const struct elf *e, uint64_t i)
{
	return e->shdrs + i * e->shentsize;
}

/* The file offset of field @field of section header @i, for messages. */
static ull shdr_field_off(const struct elf *e, uint64_t i, unsigned field)
{
	return (ull)(e->shoff + i * e->shentsize + field);
}

/* The ELF header and the section header table. */
static int elf_read_headers(struct elf *e)
{
	static const unsigned char magic[4] = { 0x7f, 'E', 'L', 'F' };
	unsigned char eh[64];
	unsigned host_data = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? ELF_DATA_MSB : ELF_DATA_LSB;
	uint64_t table;
	int err;

	memset(eh, 0, sizeof(eh));
	if (e->size < 16) {
		if (e->size && (err = elf_pread(e, eh, e->size, 0, "ELF header")))
			return err;
		if (e->size >= 4 && !memcmp(eh, magic, 4))
			return malformed(e, "the ELF identification (16 bytes at offset 0x0) runs past "
					 "the end of the file (%llu bytes)", (ull)e->size);
		return peo_fail(EINVAL, "%s: not an ELF file (%llu bytes, too short for an ELF header)",
				e->path, (ull)e->size);
	}
	if ((err = elf_pread(e, eh, e->size < 64 ? e->size : 64, 0, "ELF header")))
		return err;
	if (memcmp(eh, magic, 4))
		return peo_fail(EINVAL, "%s: not an ELF file (it does not start with \\x7fELF)", e->path);
	if (eh[4] == ELF_CLASS32)
		e->l = &layout32;
	else if (eh[4] == ELF_CLASS64)
		e->l = &layout64;
	else
		return malformed(e, "e_ident[EI_CLASS] at offset 0x4 is %u, neither ELFCLASS32 (1) "
				 "nor ELFCLASS64 (2)", eh[4]);
	if (eh[5] != ELF_DATA_LSB && eh[5] != ELF_DATA_MSB)
		return malformed(e, "e_ident[EI_DATA] at offset 0x5 is %u, neither ELFDATA2LSB (1) "
				 "nor ELFDATA2MSB (2)", eh[5]);
	e->swap = eh[5] != host_data;
	if (e->size < e->l->ehsize)
		return malformed(e, "the ELF header (%u bytes at offset 0x0) runs past the end of "
				 "the file (%llu bytes)", e->l->ehsize, (ull)e->size);

	e->phoff = getword(e, eh + e->l->e_phoff);
	e->phnum = get16(e, eh + e->l->e_phnum);
	e->phentsize = get16(e, eh + e->l->e_phentsize);
	e->shoff = getword(e, eh + e->l->e_shoff);
	e->shnum = get16(e, eh + e->l->e_shnum);
	e->shentsize = get16(e, eh + e->l->e_shentsize);

	if (!e->shoff) {
		e->shnum = 0; /* no section headers */
		return 0;
	}
	if (e->shentsize < e->l->shsize)
		return malformed(e, "e_shentsize at offset 0x%x is %u, smaller than a section header "
				 "(%u bytes)", e->l->e_shentsize, e->shentsize, e->l->shsize);
	if (!e->shnum || e->phnum == ELF_PN_XNUM) {
		/* Extended numbering: the counts are in section header 0. */
		unsigned char s0[64];

		if (!in_file(e, e->shoff, e->l->shsize))
			return malformed(e, "section header table at offset 0x%llx runs past the end of "
					 "the file (%llu bytes): e_shoff is at offset 0x%x",
					 (ull)e->shoff, (ull)e->size, e->l->e_shoff);
		if ((err = elf_pread(e, s0, e->l->shsize, e->shoff, "section header 0")))
			return err;
		if (!e->shnum)
			e->shnum = getword(e, s0 + e->l->sh_size);
		if (e->phnum == ELF_PN_XNUM)
			e->phnum = get32(e, s0 + e->l->sh_info);
		if (!e->shnum)
			return 0; /* no sections after all */
	}
	if (e->shnum > e->size / e->shentsize)
		return malformed(e, "section header table at offset 0x%llx runs past the end of the "
				 "file (%llu bytes): e_shnum (at offset 0x%x) says %llu entries of %u "
				 "bytes", (ull)e->shoff, (ull)e->size, e->l->e_shnum, (ull)e->shnum,
				 e->shentsize);
	table = e->shnum * e->shentsize;
	if (!in_file(e, e->shoff, table))
		return malformed(e, "section header table at offset 0x%llx runs past the end of the "
				 "file (%llu bytes): e_shoff (at offset 0x%x) with %llu entries of %u "
				 "bytes", (ull)e->shoff, (ull)e->size, e->l->e_shoff, (ull)e->shnum,
				 e->shentsize);
	return elf_load(e, e->shoff, table, "section header table", &e->shdrs);
}

/* The best match so far for the wanted name. */
struct elf_match {
	int score;          /* 0: none; +2 for a function, +1 for a non-local binding */
	uint64_t value;
	uint64_t section;   /* the symbol table it came from */
	uint64_t index;     /* its index there */
	int undefined_seen; /* the name appeared only as an undefined reference */
	uint64_t searched;  /* symbols looked at */
};

static const char *table_name(uint32_t type)
{
	return type == ELF_SHT_SYMTAB ? ".symtab" : ".dynsym";
}

/* Check section @i's contents lie in the file; @what names it. */
static int section_in_file(const struct elf *e, uint64_t i, const char *what,
			   uint64_t *off, uint64_t *size)
{
	const unsigned char *s = shdr(e, i);

	*off = getword(e, s + e->l->sh_offset);
	*size = getword(e, s + e->l->sh_size);
	if (!in_file(e, *off, *size))
		return malformed(e, "section %llu (%s): its %llu bytes (sh_size, at offset 0x%llx) "
				 "at sh_offset 0x%llx (at offset 0x%llx) run past the end of the "
				 "file (%llu bytes)", (ull)i, what, (ull)*size,
				 shdr_field_off(e, i, e->l->sh_size), (ull)*off,
				 shdr_field_off(e, i, e->l->sh_offset), (ull)e->size);
	return 0;
}

/* Look for @name (@len bytes) in the symbol table in section @i. */
static int search_table(const struct elf *e, uint64_t i, const char *name, size_t len,
			struct elf_match *m)
{
	const struct elf_layout *l = e->l;
	const unsigned char *s = shdr(e, i);
	const char *what = table_name(get32(e, s + l->sh_type));
	uint64_t symoff, symsize, stroff, strsize, entsize, count, k;
	uint32_t link = get32(e, s + l->sh_link);
	unsigned char *syms = NULL, *strs = NULL;
	int err;

	entsize = getword(e, s + l->sh_entsize);
	if (!entsize)
		entsize = l->symsize;
	if (entsize < l->symsize)
		return malformed(e, "section %llu (%s): sh_entsize at offset 0x%llx is %llu, smaller "
				 "than a symbol (%u bytes)", (ull)i, what,
				 shdr_field_off(e, i, l->sh_entsize), (ull)entsize, l->symsize);
	if ((err = section_in_file(e, i, what, &symoff, &symsize)))
		return err;
	if (link == 0 || link >= e->shnum)
		return malformed(e, "section %llu (%s): sh_link at offset 0x%llx is %u, which is no "
				 "string table: the file has sections 1 to %llu",
				 (ull)i, what, shdr_field_off(e, i, l->sh_link), link,
				 (ull)e->shnum - 1);
	if (get32(e, shdr(e, link) + l->sh_type) != ELF_SHT_STRTAB)
		return malformed(e, "section %llu (%s): sh_link at offset 0x%llx names section %u, "
				 "whose sh_type (at offset 0x%llx) is %u, not SHT_STRTAB (3)",
				 (ull)i, what, shdr_field_off(e, i, l->sh_link), link,
				 shdr_field_off(e, link, l->sh_type),
				 get32(e, shdr(e, link) + l->sh_type));
	if ((err = section_in_file(e, link, "string table", &stroff, &strsize)))
		return err;

	count = symsize / entsize;
	if (!count)
		return 0;
	if ((err = elf_load(e, symoff, symsize, what, &syms)) ||
	    (err = elf_load(e, stroff, strsize, "string table", &strs)))
		goto out;

	for (k = 0; k < count; k++) {
		const unsigned char *sym = syms + k * entsize;
		uint32_t name_at = get32(e, sym + l->st_name);
		unsigned info = sym[l->st_info], type = info & 0xf, bind = info >> 4;
		int score;

		m->searched++;
		if (name_at >= strsize) {
			err = malformed(e, "symbol %llu of section %llu (%s): st_name at offset 0x%llx "
					"is 0x%x, past the end of its string table (section %u, %llu "
					"bytes)", (ull)k, (ull)i, what,
					(ull)(symoff + k * entsize + l->st_name), name_at, link,
					(ull)strsize);
			goto out;
		}
		if (strsize - name_at <= len || memcmp(strs + name_at, name, len) ||
		    strs[name_at + len] != '\0')
			continue;
		if (get16(e, sym + l->st_shndx) == ELF_SHN_UNDEF) {
			m->undefined_seen = 1;
			continue;
		}
		if (type == ELF_STT_SECTION || type == ELF_STT_FILE || type == ELF_STT_TLS)
			continue;
		score = (type == ELF_STT_FUNC || type == ELF_STT_GNU_IFUNC ? 2 : 0) +
			(bind != ELF_STB_LOCAL ? 1 : 0) + 1;
		if (score > m->score) {
			m->score = score;
			m->value = getword(e, sym + l->st_value);
			m->section = i;
			m->index = k;
			if (score == 4)
				break;
		}
	}
out:
	free(syms);
	free(strs);
	return err;
}

/* Map virtual address @value to its file offset through the PT_LOAD segments. */
static int vaddr_to_offset(const struct elf *e, const char *name, uint64_t value, uint64_t *out)
{
	const struct elf_layout *l = e->l;
	unsigned char *ph;
	uint64_t k, loads = 0;
	int err;

	if (!e->phnum || !e->phoff)
		return peo_fail(EINVAL, "%s: the file has no program headers (a relocatable object?), "
				"so symbol \"%s\" has no load address to map to a file offset: uprobes "
				"need an executable or a shared library", e->path, name);
	if (e->phentsize < l->phsize)
		return malformed(e, "e_phentsize at offset 0x%x is %u, smaller than a program header "
				 "(%u bytes)", l->e_phentsize, e->phentsize, l->phsize);
	if (e->phnum > e->size / e->phentsize || !in_file(e, e->phoff, e->phnum * e->phentsize))
		return malformed(e, "program header table at offset 0x%llx runs past the end of the "
				 "file (%llu bytes): e_phoff (at offset 0x%x) with %llu entries of %u "
				 "bytes", (ull)e->phoff, (ull)e->size, l->e_phoff, (ull)e->phnum,
				 e->phentsize);
	if ((err = elf_load(e, e->phoff, e->phnum * e->phentsize, "program header table", &ph)))
		return err;
	for (k = 0; k < e->phnum; k++) {
		const unsigned char *p = ph + k * e->phentsize;
		uint64_t vaddr, filesz;

		if (get32(e, p + l->p_type) != ELF_PT_LOAD)
			continue;
		loads++;
		vaddr = getword(e, p + l->p_vaddr);
		filesz = getword(e, p + l->p_filesz);
		if (value >= vaddr && value - vaddr < filesz) {
			*out = value - vaddr + getword(e, p + l->p_offset);
			free(ph);
			return 0;
		}
	}
	free(ph);
	return peo_fail(EINVAL, "%s: symbol \"%s\" (value 0x%llx) lies in none of the file's %llu "
			"PT_LOAD segments, so it has no file offset a uprobe can use",
			e->path, name, (ull)value, (ull)loads);
}

/* Split "name+OFF" into the name's length and OFF (decimal or 0x hex). */
static int split_symbol(const char *symbol, size_t *len, uint64_t *addend)
{
	const char *plus = strrchr(symbol, '+');
	const char *num;
	char *end;
	unsigned long long v;
	int base = 10;

	*len = strlen(symbol);
	*addend = 0;
	if (plus && plus[1]) {
		num = plus + 1;
		if (num[0] == '0' && (num[1] == 'x' || num[1] == 'X')) {
			base = 16;
			num += 2;
		}
		if (!(base == 16 ? (*num >= '0' && *num <= '9') || (*num >= 'a' && *num <= 'f') ||
				   (*num >= 'A' && *num <= 'F')
				 : (*num >= '0' && *num <= '9')))
			return peo_fail(EINVAL, "symbol \"%s\": \"%s\" after the '+' is not an offset "
					"(decimal or 0x hex)", symbol, plus + 1);
		errno = 0;
		v = strtoull(num, &end, base);
		if (*end || errno)
			return peo_fail(EINVAL, "symbol \"%s\": \"%s\" after the '+' is not an offset "
					"(decimal or 0x hex, at most 64 bits)", symbol, plus + 1);
		*len = (size_t)(plus - symbol);
		*addend = v;
	}
	if (!*len)
		return peo_fail(EINVAL, "symbol \"%s\": the symbol name is empty", symbol);
	return 0;
}

/* The value of the best symbol called @name (@len bytes). */
static int elf_find(struct elf *e, const char *name, size_t len, uint64_t *value)
{
	static const uint32_t order[] = { ELF_SHT_SYMTAB, ELF_SHT_DYNSYM };
	struct elf_match m;
	int have[2] = { 0, 0 };
	uint64_t i;
	size_t t;
	int err;

	memset(&m, 0, sizeof(m));
	for (t = 0; t < PEO_ARRAY_SIZE(order) && m.score < 4; t++) {
		for (i = 0; i < e->shnum && m.score < 4; i++) {
			if (get32(e, shdr(e, i) + e->l->sh_type) != order[t])
				continue;
			have[t] = 1;
			if ((err = search_table(e, i, name, len, &m)))
				return err;
		}
	}
	if (m.score) {
		*value = m.value;
		return 0;
	}
	if (!have[0] && !have[1])
		return peo_fail(ENOENT, "%s has no symbol table (no .symtab or .dynsym section: it is "
				"stripped), so symbol \"%.*s\" cannot be looked up; give the probe a "
				"file offset instead of a symbol name", e->path, (int)len, name);
	if (!have[0])
		peo_fail(ENOENT, "%s: no symbol \"%.*s\" in its .dynsym (%llu symbols); the file has "
			 "no .symtab (it is stripped), so only its exported symbols can be found: use "
			 "the unstripped file or give the probe a file offset instead",
			 e->path, (int)len, name, (ull)m.searched);
	else
		peo_fail(ENOENT, "%s: no symbol \"%.*s\" in its %s (%llu symbols searched)",
			 e->path, (int)len, name, have[1] ? ".symtab or .dynsym" : ".symtab",
			 (ull)m.searched);
	if (m.undefined_seen)
		peo_fail_append("; it is only referenced here (undefined), so it is defined in a "
				"library this file links against");
	return -ENOENT;
}

int peo_elf_symbol_offset(const char *path, const char *symbol, uint64_t *offset)
{
	struct elf e;
	struct stat st;
	uint64_t addend, value = 0, off = 0;
	size_t len;
	char *name = NULL;
	int err;

	if (!path || !symbol || !offset)
		return peo_fail(EINVAL, "peo_elf_symbol_offset: path, symbol and offset must not be NULL");
	if ((err = split_symbol(symbol, &len, &addend)))
		return err;
	memset(&e, 0, sizeof(e));
	e.path = path;
	e.fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not hang us */
	if (e.fd < 0) {
		err = errno;
		if (err == ENOENT)
			return peo_fail(ENOENT, "%s: No such file or directory: no ELF file to look up "
					"symbol \"%s\" in", path, symbol);
		return peo_fail(err, "open(%s) to look up symbol \"%s\": %s", path, symbol,
				strerror(err));
	}
	if (fstat(e.fd, &st) < 0) {
		err = peo_fail(EIO, "fstat(%s): %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = peo_fail(EINVAL, "%s: not an ELF file (not a regular file)", path);
		goto out;
	}
	e.size = (uint64_t)st.st_size;
	if ((err = elf_read_headers(&e)))
		goto out;
	name = strndup(symbol, len);
	if (!name) {
		err = peo_fail(ENOMEM, "no memory for a symbol name");
		goto out;
	}
	if ((err = elf_find(&e, name, len, &value)))
		goto out;
	if ((err = vaddr_to_offset(&e, name, value, &off)))
		goto out;
	*offset = off + addend;
out:
	free(name);
	free(e.shdrs);
	close(e.fd);
	return err;
}

/* ------------------------------------------------------------ build ids */

#define ELF_PT_NOTE 4
#define NT_GNU_BUILD_ID 3

int peo_notes_build_id(const unsigned char *notes, size_t len, int swap, uint8_t id[20],
		       size_t *id_len)
{
	size_t at = 0;

	while (len - at >= 12) {
		uint32_t v[3];
		size_t name_at, desc_at, next;

		for (int i = 0; i < 3; i++)
			v[i] = peo_load_u32(notes + at + 4 * i, swap);
		name_at = at + 12;
		if (v[0] > len || v[1] > len) /* sizes past the notes: stop, no overflow below */
			return 0;
		desc_at = name_at + ((v[0] + 3u) & ~(size_t)3);
		next = desc_at + ((v[1] + 3u) & ~(size_t)3);
		if (desc_at > len || next > len || v[1] > len - desc_at)
			return 0;
		if (v[2] == NT_GNU_BUILD_ID && v[0] == 4 && !memcmp(notes + name_at, "GNU", 4) &&
		    v[1] && v[1] <= 20) {
			memcpy(id, notes + desc_at, v[1]);
			*id_len = v[1];
			return 1;
		}
		at = next;
	}
	return 0;
}

int peo_elf_build_id(const char *path, uint8_t id[20], size_t *id_len)
{
	struct elf e;
	struct stat st;
	int err, found = 0;

	memset(&e, 0, sizeof(e));
	e.path = path;
	e.fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (e.fd < 0)
		return peo_fail(errno, "open(%s) for its build id: %s", path, strerror(errno));
	if (fstat(e.fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(e.fd);
		return peo_fail(EINVAL, "%s: not a regular file, so no build id", path);
	}
	e.size = (uint64_t)st.st_size;
	err = elf_read_headers(&e);
	for (uint64_t i = 0; !err && !found && i < e.phnum && e.phentsize >= e.l->phsize; i++) {
		unsigned char ph[64], *notes;
		uint64_t at = e.phoff + i * e.phentsize, off, size;

		if (!in_file(&e, at, e.l->phsize) || elf_pread(&e, ph, e.l->phsize, at, "program header"))
			break;
		if (get32(&e, ph + e.l->p_type) != ELF_PT_NOTE)
			continue;
		off = getword(&e, ph + e.l->p_offset);
		size = getword(&e, ph + e.l->p_filesz);
		if (!in_file(&e, off, size) || size > (1u << 20) ||
		    elf_load(&e, off, size, "note segment", &notes))
			continue;
		found = peo_notes_build_id(notes, (size_t)size, e.swap, id, id_len);
		free(notes);
	}
	free(e.shdrs);
	close(e.fd);
	if (err)
		return err;
	return found ? 0 : peo_fail(ENOENT, "%s has no GNU build id note", path);
}
