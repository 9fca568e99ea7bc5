/*
 * test_elf.c - peo_elf_symbol_offset(), the uprobe file offset of a symbol:
 * checked against where the running process really mapped the symbol
 * (/proc/self/maps), on hand-built ELF32/ELF64 files of either byte order,
 * and on damaged files (truncated, bad offsets, sizes and indexes, every byte
 * of a small file flipped) that must fail with a sentence, never crash.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "test_util.h"

/* The function the first test looks up in this very executable. */
int peo_elf_test_target(int x);
__attribute__((noinline, used)) int peo_elf_test_target(int x)
{
	return x * 7 + 3;
}

/*
 * Where runtime address @addr comes from, per /proc/self/maps: the file
 * offset (addr - start + offset of its mapping) and the mapped file's path.
 */
static int maps_file_offset(uintptr_t addr, uint64_t *off, char *path, size_t cap)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4096];
	int found = -1;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, foff;
		char perms[8];
		int pos = 0;
		char *p;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s%n", &start, &end, perms, &foff, &pos) < 4 ||
		    !pos)
			continue;
		if (addr < start || addr >= end)
			continue;
		*off = addr - start + foff;
		p = line + pos;
		while (*p == ' ')
			p++;
		p[strcspn(p, "\n")] = '\0';
		snprintf(path, cap, "%s", p);
		found = 0;
		break;
	}
	fclose(f);
	return found;
}

/* A temporary file holding @len bytes of @data; its path goes to @path. */
static void write_temp(char *path, size_t cap, const void *data, size_t len)
{
	int fd;

	snprintf(path, cap, "/tmp/peo-test-elf-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

/* The whole of the file at @path, malloc'd. */
static unsigned char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t size;
	unsigned char *buf;

	assert_true(fd >= 0);
	size = lseek(fd, 0, SEEK_END);
	assert_true(size > 0);
	buf = malloc((size_t)size);
	assert_non_null(buf);
	assert_int_equal(pread(fd, buf, (size_t)size, 0), (ssize_t)size);
	close(fd);
	*len = (size_t)size;
	return buf;
}

/* A function defined in this test, in /proc/self/exe, is where maps says. */
static void own_function_offset_matches_maps(void **state)
{
	uintptr_t addr = (uintptr_t)&peo_elf_test_target;
	uint64_t want = 0, got = 0;
	char path[4096];

	(void)state;
	assert_int_equal(peo_elf_test_target(1), 10);
	assert_int_equal(maps_file_offset(addr, &want, path, sizeof(path)), 0);
	if (peo_elf_symbol_offset("/proc/self/exe", "peo_elf_test_target", &got) < 0)
		fail_msg("%s", peo_last_error());
	assert_int_equal(got, want);
	/* The same through the path the kernel mapped. */
	got = 0;
	assert_int_equal(peo_elf_symbol_offset(path, "peo_elf_test_target", &got), 0);
	assert_int_equal(got, want);
}

/* A libc function, through the libc this process mapped. */
static void libc_function_offset_matches_maps(void **state)
{
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	void *fn;
	uint64_t want = 0, got = 0;
	char path[4096];

	(void)state;
	if (!libc)
		PEO_SKIP("no libc.so.6 loaded in this process (not glibc?): %s", dlerror());
	fn = dlsym(libc, "getppid");
	dlclose(libc);
	assert_non_null(fn);
	assert_int_equal(maps_file_offset((uintptr_t)fn, &want, path, sizeof(path)), 0);
	assert_true(path[0] == '/');
	if (peo_elf_symbol_offset(path, "getppid", &got) < 0)
		fail_msg("%s", peo_last_error());
	assert_int_equal(got, want);
}

static void offset_suffix_is_added(void **state)
{
	uint64_t base = 0, hex = 0, dec = 0;

	(void)state;
	assert_int_equal(peo_elf_symbol_offset("/proc/self/exe", "peo_elf_test_target", &base), 0);
	assert_int_equal(peo_elf_symbol_offset("/proc/self/exe", "peo_elf_test_target+0x10", &hex), 0);
	assert_int_equal(hex, base + 16);
	assert_int_equal(peo_elf_symbol_offset("/proc/self/exe", "peo_elf_test_target+10", &dec), 0);
	assert_int_equal(dec, base + 10);
	assert_int_equal(peo_elf_symbol_offset("/proc/self/exe", "peo_elf_test_target+0xzz", &dec),
			 -EINVAL);
	assert_error_contains("0xzz");
	assert_int_equal(peo_elf_symbol_offset("/proc/self/exe", "+16", &dec), -EINVAL);
	assert_int_equal(peo_elf_symbol_offset("/proc/self/exe", "", &dec), -EINVAL);
}

static void missing_symbol_is_enoent(void **state)
{
	uint64_t off = 0;

	(void)state;
	assert_int_equal(peo_elf_symbol_offset("/proc/self/exe", "peo_no_such_symbol_xyz", &off),
			 -ENOENT);
	assert_error_contains("peo_no_such_symbol_xyz");
	assert_error_contains("/proc/self/exe");
}

static void missing_file_is_enoent(void **state)
{
	uint64_t off = 0;

	(void)state;
	assert_int_equal(peo_elf_symbol_offset("/nonexistent/peo-elf-test", "main", &off), -ENOENT);
	assert_error_contains("/nonexistent/peo-elf-test");
}

static void non_elf_file_is_einval(void **state)
{
	static const char text[] = "#!/bin/sh\necho this is a shell script, not an ELF file\n";
	char path[64];
	uint64_t off = 0;

	(void)state;
	write_temp(path, sizeof(path), text, sizeof(text) - 1);
	assert_int_equal(peo_elf_symbol_offset(path, "main", &off), -EINVAL);
	assert_error_contains("not an ELF file");
	assert_error_contains(path);
	unlink(path);
	write_temp(path, sizeof(path), "", 0);
	assert_int_equal(peo_elf_symbol_offset(path, "main", &off), -EINVAL);
	assert_error_contains("not an ELF file");
	unlink(path);
	assert_int_equal(peo_elf_symbol_offset("/", "main", &off), -EINVAL);
	assert_error_contains("not an ELF file");
}

/* ------------------------------------------------ damaged copies of ourselves */

struct exe_copy {
	unsigned char *buf;
	size_t len;
	Elf64_Ehdr eh;
	int symtab; /* index of .symtab, or -1 */
	Elf64_Shdr sym;
};

static int load_exe(struct exe_copy *c)
{
	c->buf = slurp("/proc/self/exe", &c->len);
	memcpy(&c->eh, c->buf, sizeof(c->eh));
	c->symtab = -1;
	if (c->eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    c->eh.e_ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB
										: ELFDATA2MSB))
		return -1;
	for (int i = 0; i < c->eh.e_shnum; i++) {
		Elf64_Shdr s;

		memcpy(&s, c->buf + c->eh.e_shoff + (size_t)i * c->eh.e_shentsize, sizeof(s));
		if (s.sh_type == SHT_SYMTAB) {
			c->symtab = i;
			c->sym = s;
		}
	}
	return 0;
}

/* Write @len bytes of the (modified) copy, look ourselves up, expect @want. */
static void expect_damaged(const struct exe_copy *c, size_t len, int want, const char *needle)
{
	char path[64];
	uint64_t off = 0;
	int rc;

	write_temp(path, sizeof(path), c->buf, len);
	rc = peo_elf_symbol_offset(path, "peo_elf_test_target", &off);
	unlink(path);
	if (rc != want)
		fail_msg("%zu bytes: got %d, want %d: %s", len, rc, want, peo_last_error());
	assert_error_contains(needle);
}

static void put_shdr(struct exe_copy *c, int i, const Elf64_Shdr *s)
{
	memcpy(c->buf + c->eh.e_shoff + (size_t)i * c->eh.e_shentsize, s, sizeof(*s));
}

static void truncated_copies_are_einval(void **state)
{
	struct exe_copy c;
	size_t cuts[] = { 10, 40, 4096, 0, 0 };

	(void)state;
	if (load_exe(&c) < 0) {
		free(c.buf);
		PEO_SKIP("this test executable is not a native-endian ELF64");
	}
	cuts[3] = c.len / 2;
	cuts[4] = c.len - 1;
	for (size_t i = 0; i < PEO_ARRAY_SIZE(cuts); i++)
		if (cuts[i] < c.len)
			expect_damaged(&c, cuts[i], -EINVAL, "offset");
	if (c.eh.e_shoff >= 4096) {
		expect_damaged(&c, 4096, -EINVAL, "malformed ELF: section header table at offset 0x");
		assert_error_contains("runs past the end of the file (4096 bytes)");
	}
	free(c.buf);
}

static void corrupted_fields_are_einval(void **state)
{
	struct exe_copy c;
	Elf64_Ehdr eh;
	Elf64_Shdr s;

	(void)state;
	if (load_exe(&c) < 0) {
		free(c.buf);
		PEO_SKIP("this test executable is not a native-endian ELF64");
	}
	/* e_shoff past the end. */
	eh = c.eh;
	eh.e_shoff = c.len + 64;
	memcpy(c.buf, &eh, sizeof(eh));
	expect_damaged(&c, c.len, -EINVAL, "offset");
	assert_error_contains("section header table");
	/* e_shoff so large that adding the table's size overflows. */
	eh.e_shoff = UINT64_MAX - 8;
	memcpy(c.buf, &eh, sizeof(eh));
	expect_damaged(&c, c.len, -EINVAL, "offset");
	/* e_shentsize smaller than a section header. */
	eh = c.eh;
	eh.e_shentsize = 12;
	memcpy(c.buf, &eh, sizeof(eh));
	expect_damaged(&c, c.len, -EINVAL, "e_shentsize at offset 0x3a");
	/* e_phoff past the end (the symbol is found, then mapped). */
	eh = c.eh;
	eh.e_phoff = c.len;
	memcpy(c.buf, &eh, sizeof(eh));
	if (c.symtab >= 0)
		expect_damaged(&c, c.len, -EINVAL, "program header table at offset");
	memcpy(c.buf, &c.eh, sizeof(c.eh));

	if (c.symtab < 0) {
		free(c.buf);
		PEO_SKIP("this test executable has no .symtab to damage (stripped?)");
	}
	/* The symbol table's sh_size past the end, and so large it overflows. */
	s = c.sym;
	s.sh_size = c.len;
	put_shdr(&c, c.symtab, &s);
	expect_damaged(&c, c.len, -EINVAL, "sh_size, at offset 0x");
	s.sh_size = UINT64_MAX - 7;
	put_shdr(&c, c.symtab, &s);
	expect_damaged(&c, c.len, -EINVAL, "offset");
	/* sh_offset past the end. */
	s = c.sym;
	s.sh_offset = UINT64_MAX - 100;
	put_shdr(&c, c.symtab, &s);
	expect_damaged(&c, c.len, -EINVAL, "offset");
	/* sh_link to no section, and to a section that is not a string table. */
	s = c.sym;
	s.sh_link = c.eh.e_shnum + 7;
	put_shdr(&c, c.symtab, &s);
	expect_damaged(&c, c.len, -EINVAL, "sh_link at offset 0x");
	s.sh_link = (Elf64_Word)c.symtab;
	put_shdr(&c, c.symtab, &s);
	expect_damaged(&c, c.len, -EINVAL, "not SHT_STRTAB");
	/* sh_entsize smaller than a symbol. */
	s = c.sym;
	s.sh_entsize = 5;
	put_shdr(&c, c.symtab, &s);
	expect_damaged(&c, c.len, -EINVAL, "sh_entsize at offset 0x");
	/* A symbol's st_name past the end of the string table. */
	put_shdr(&c, c.symtab, &c.sym);
	{
		Elf64_Sym sym;
		size_t at = c.sym.sh_offset + c.sym.sh_entsize; /* symbol 1 */

		memcpy(&sym, c.buf + at, sizeof(sym));
		sym.st_name = 0x7ffffff0;
		memcpy(c.buf + at, &sym, sizeof(sym));
		expect_damaged(&c, c.len, -EINVAL, "st_name at offset 0x");
	}
	free(c.buf);
}

/* ------------------------------------------------- hand-built ELF files */

/* Store @v in @n bytes at @p, in the given byte order. */
static void put(unsigned char *p, unsigned n, uint64_t v, int be)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (be ? 8 * (n - 1 - i) : 8 * i));
}

enum {
	TEXT_OFF = 0x80, TEXT_SIZE = 0x40, TEXT_VADDR = 0x400080,
	SYMTAB_OFF = 0xc0, NSYMS = 5,
	STRTAB_OFF = 0x140, SHSTRTAB_OFF = 0x160, SHDR_OFF = 0x188, NSECTIONS = 5,
	BUILT_MAX = 0x300,
};
static const char strtab[] = "\0myfunc\0twin\0ext";        /* myfunc 1, twin 8, ext 13 */
static const char shstrtab[] = "\0.text\0.symtab\0.strtab\0.shstrtab"; /* 1, 7, 15, 23 */

/*
 * A minimal shared object: one PT_LOAD mapping .text (file 0x80, vaddr
 * 0x400080), a .symtab with a LOCAL FUNC "myfunc" at 0x400090, a GLOBAL
 * OBJECT "twin" at 0x4000a0 and a GLOBAL FUNC "twin" at 0x4000b0, and an
 * undefined "ext".  Returns its size.
 */
static size_t build_elf(unsigned char *b, int is64, int be)
{
	unsigned w = is64 ? 8 : 4, ehsize = is64 ? 64 : 52, phsize = is64 ? 56 : 32;
	unsigned shsize = is64 ? 64 : 40, symsize = is64 ? 24 : 16;
	struct { uint32_t name; unsigned char info; uint16_t shndx; uint64_t value, size; } syms[NSYMS] = {
		{ 0, 0, 0, 0, 0 },
		{ 1, (STB_LOCAL << 4) | STT_FUNC, 1, 0x400090, 0x10 },
		{ 8, (STB_GLOBAL << 4) | STT_OBJECT, 1, 0x4000a0, 0x10 },
		{ 8, (STB_GLOBAL << 4) | STT_FUNC, 1, 0x4000b0, 0x10 },
		{ 13, (STB_GLOBAL << 4) | STT_FUNC, 0, 0, 0 },
	};
	struct { uint32_t name, type; uint64_t flags, addr, off, size; uint32_t link, info; uint64_t align, entsize; } sh[NSECTIONS] = {
		{ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
		{ 1, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, TEXT_VADDR, TEXT_OFF, TEXT_SIZE, 0, 0, 16, 0 },
		{ 7, SHT_SYMTAB, 0, 0, SYMTAB_OFF, NSYMS * symsize, 3, 2, w, symsize },
		{ 15, SHT_STRTAB, 0, 0, STRTAB_OFF, sizeof(strtab), 0, 0, 1, 0 },
		{ 23, SHT_STRTAB, 0, 0, SHSTRTAB_OFF, sizeof(shstrtab), 0, 0, 1, 0 },
	};
	unsigned char *p;

	memset(b, 0, BUILT_MAX);
	memcpy(b, ELFMAG, SELFMAG);
	b[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	b[EI_DATA] = be ? ELFDATA2MSB : ELFDATA2LSB;
	b[EI_VERSION] = EV_CURRENT;
	put(b + 16, 2, ET_DYN, be);
	put(b + 18, 2, is64 ? EM_SPARCV9 : EM_SPARC, be);
	put(b + 20, 4, EV_CURRENT, be);
	put(b + (is64 ? 32 : 28), w, ehsize, be);             /* e_phoff */
	put(b + (is64 ? 40 : 32), w, SHDR_OFF, be);           /* e_shoff */
	put(b + (is64 ? 52 : 40), 2, ehsize, be);             /* e_ehsize */
	put(b + (is64 ? 54 : 42), 2, phsize, be);             /* e_phentsize */
	put(b + (is64 ? 56 : 44), 2, 1, be);                  /* e_phnum */
	put(b + (is64 ? 58 : 46), 2, shsize, be);             /* e_shentsize */
	put(b + (is64 ? 60 : 48), 2, NSECTIONS, be);          /* e_shnum */
	put(b + (is64 ? 62 : 50), 2, 4, be);                  /* e_shstrndx */

	p = b + ehsize; /* the one program header */
	put(p, 4, PT_LOAD, be);
	put(p + (is64 ? 4 : 24), 4, PF_R | PF_X, be);         /* p_flags */
	put(p + (is64 ? 8 : 4), w, TEXT_OFF, be);             /* p_offset */
	put(p + (is64 ? 16 : 8), w, TEXT_VADDR, be);          /* p_vaddr */
	put(p + (is64 ? 24 : 12), w, TEXT_VADDR, be);         /* p_paddr */
	put(p + (is64 ? 32 : 16), w, TEXT_SIZE, be);          /* p_filesz */
	put(p + (is64 ? 40 : 20), w, TEXT_SIZE, be);          /* p_memsz */
	put(p + (is64 ? 48 : 28), w, 0x1000, be);             /* p_align */

	memset(b + TEXT_OFF, 0xcc, TEXT_SIZE);
	for (unsigned i = 0; i < NSYMS; i++) {
		p = b + SYMTAB_OFF + i * symsize;
		put(p, 4, syms[i].name, be);
		p[is64 ? 4 : 12] = syms[i].info;
		put(p + (is64 ? 6 : 14), 2, syms[i].shndx, be);
		put(p + (is64 ? 8 : 4), w, syms[i].value, be);
		put(p + (is64 ? 16 : 8), w, syms[i].size, be);
	}
	memcpy(b + STRTAB_OFF, strtab, sizeof(strtab));
	memcpy(b + SHSTRTAB_OFF, shstrtab, sizeof(shstrtab));
	for (unsigned i = 0; i < NSECTIONS; i++) {
		p = b + SHDR_OFF + i * shsize;
		put(p, 4, sh[i].name, be);
		put(p + 4, 4, sh[i].type, be);
		put(p + 8, w, sh[i].flags, be);
		put(p + (is64 ? 16 : 12), w, sh[i].addr, be);
		put(p + (is64 ? 24 : 16), w, sh[i].off, be);
		put(p + (is64 ? 32 : 20), w, sh[i].size, be);
		put(p + (is64 ? 40 : 24), 4, sh[i].link, be);
		put(p + (is64 ? 44 : 28), 4, sh[i].info, be);
		put(p + (is64 ? 48 : 32), w, sh[i].align, be);
		put(p + (is64 ? 56 : 36), w, sh[i].entsize, be);
	}
	return SHDR_OFF + NSECTIONS * shsize;
}

static const struct { int is64, be; const char *name; } variants[] = {
	{ 1, 1, "ELF64 big-endian" },
	{ 0, 1, "ELF32 big-endian" },
	{ 1, 0, "ELF64 little-endian" },
	{ 0, 0, "ELF32 little-endian" },
};

static void lookup_ok(const char *path, const char *symbol, uint64_t want, const char *what)
{
	uint64_t off = 0;

	if (peo_elf_symbol_offset(path, symbol, &off) < 0)
		fail_msg("%s: %s: %s", what, symbol, peo_last_error());
	if (off != want)
		fail_msg("%s: %s: offset 0x%llx, want 0x%llx", what, symbol,
			 (unsigned long long)off, (unsigned long long)want);
}

static void hand_built_files_resolve(void **state)
{
	unsigned char b[BUILT_MAX];
	char path[64];
	uint64_t off = 0;

	(void)state;
	for (size_t v = 0; v < PEO_ARRAY_SIZE(variants); v++) {
		size_t len = build_elf(b, variants[v].is64, variants[v].be);
		unsigned shsize = variants[v].is64 ? 64 : 40;

		write_temp(path, sizeof(path), b, len);
		lookup_ok(path, "myfunc", 0x90, variants[v].name);
		lookup_ok(path, "twin", 0xb0, variants[v].name); /* the FUNC, not the OBJECT */
		lookup_ok(path, "twin+0x10", 0xc0, variants[v].name);
		lookup_ok(path, "myfunc+3", 0x93, variants[v].name);
		assert_int_equal(peo_elf_symbol_offset(path, "nosuch", &off), -ENOENT);
		assert_error_contains("\"nosuch\"");
		assert_int_equal(peo_elf_symbol_offset(path, "ext", &off), -ENOENT);
		assert_error_contains("undefined");
		assert_int_equal(peo_elf_symbol_offset(path, "myfun", &off), -ENOENT);
		unlink(path);

		/* Without its symbol table (sh_type PROGBITS): a stripped file. */
		put(b + SHDR_OFF + 2 * shsize + 4, 4, SHT_PROGBITS, variants[v].be);
		write_temp(path, sizeof(path), b, len);
		assert_int_equal(peo_elf_symbol_offset(path, "myfunc", &off), -ENOENT);
		assert_error_contains("no symbol table");
		assert_error_contains("stripped");
		assert_error_contains("offset");
		unlink(path);
	}
}

/*
 * Every truncation of each hand-built file, and every byte of it set to a
 * few values: never a crash (ASan watches), always 0, -ENOENT or -EINVAL
 * with a sentence.
 */
static void damaged_hand_built_files_never_crash(void **state)
{
	static const int values[] = { 0x00, 0xff, 0x7f, 0x80, -1 /* +1 */, -2 /* ^0x40 */ };
	unsigned char b[BUILT_MAX], d[BUILT_MAX];
	char path[64];
	uint64_t off;
	unsigned long ok = 0, enoent = 0, einval = 0;
	int fd;

	(void)state;
	write_temp(path, sizeof(path), "", 0);
	fd = open(path, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	for (size_t v = 0; v < PEO_ARRAY_SIZE(variants); v++) {
		size_t len = build_elf(b, variants[v].is64, variants[v].be);

		for (size_t cut = 0; cut < len; cut++) {
			assert_int_equal(ftruncate(fd, 0), 0);
			assert_int_equal(pwrite(fd, b, cut, 0), (ssize_t)cut);
			if (peo_elf_symbol_offset(path, "twin", &off) != -EINVAL)
				fail_msg("%s cut to %zu bytes: %s", variants[v].name, cut, peo_last_error());
		}
		assert_int_equal(pwrite(fd, b, len, 0), (ssize_t)len);
		for (size_t at = 0; at < len; at++) {
			for (size_t k = 0; k < PEO_ARRAY_SIZE(values); k++) {
				int rc;

				memcpy(d, b, len);
				d[at] = (unsigned char)(values[k] == -1 ? b[at] + 1
							: values[k] == -2 ? b[at] ^ 0x40 : values[k]);
				assert_int_equal(pwrite(fd, d, len, 0), (ssize_t)len);
				rc = peo_elf_symbol_offset(path, "twin", &off);
				if (rc == 0)
					ok++;
				else if (rc == -ENOENT)
					enoent++;
				else if (rc == -EINVAL)
					einval++;
				else
					fail_msg("%s byte 0x%zx = 0x%02x: %d %s", variants[v].name, at, d[at],
						 rc, peo_last_error());
				if (rc < 0 && !peo_last_error()[0])
					fail_msg("%s byte 0x%zx: %d with no sentence", variants[v].name, at, rc);
			}
		}
	}
	close(fd);
	unlink(path);
	print_message("damaged files: %lu found, %lu ENOENT, %lu EINVAL\n", ok, enoent, einval);
	assert_true(ok > 0 && enoent > 0 && einval > 0);
}

/* The build id of this program as the loader mapped it: its PT_NOTE
 * segments in memory, read apart from the parser under test. */
struct loaded_id {
	uint8_t id[20];
	size_t len;
};

static int find_loaded_id(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct loaded_id *out = arg;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum && !out->len; i++) {
		const unsigned char *p, *end;

		if (info->dlpi_phdr[i].p_type != PT_NOTE)
			continue;
		p = (const unsigned char *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
		end = p + info->dlpi_phdr[i].p_memsz;
		while (p + 12 <= end) {
			uint32_t h[3];
			size_t name = 0, desc;

			memcpy(h, p, 12);
			name = (h[0] + 3u) & ~3u;
			desc = (h[1] + 3u) & ~3u;
			if (h[2] == 3 && h[0] == 4 && !memcmp(p + 12, "GNU", 4) && h[1] <= 20) {
				memcpy(out->id, p + 12 + name, h[1]);
				out->len = h[1];
				break;
			}
			p += 12 + name + desc;
		}
	}
	return 1; /* the first object is the program itself */
}

/* GNU build ids: from this test's own binary (the same bytes as the note
 * the loader mapped), and from notes built by hand, whole, truncated and
 * with lying sizes. */
static void build_ids_from_notes(void **state)
{
	unsigned char notes[64] = { 0 };
	uint32_t head[3] = { 4, 20, 3 }; /* namesz, descsz, NT_GNU_BUILD_ID */
	uint8_t id[20], want[20];
	struct loaded_id loaded = { .len = 0 };
	size_t len = 0;
	int rc;

	(void)state;
	for (int i = 0; i < 20; i++)
		want[i] = (uint8_t)(0xa0 + i);
	memcpy(notes, head, 12);
	memcpy(notes + 12, "GNU", 4);
	memcpy(notes + 16, want, 20);
	assert_int_equal(peo_notes_build_id(notes, 36, 0, id, &len), 1);
	assert_int_equal(len, 20);
	assert_memory_equal(id, want, 20);
	assert_int_equal(peo_notes_build_id(notes, 35, 0, id, &len), 0); /* cut short */
	head[1] = 0xfffffff0; /* a descsz past the notes: no read past them, no overflow */
	memcpy(notes, head, 12);
	assert_int_equal(peo_notes_build_id(notes, 36, 0, id, &len), 0);
	head[1] = 20;
	head[2] = 1; /* another note type */
	memcpy(notes, head, 12);
	assert_int_equal(peo_notes_build_id(notes, 36, 0, id, &len), 0);
	/* this test binary: gcc and clang give it a build id by default on Debian */
	dl_iterate_phdr(find_loaded_id, &loaded); /* the loader's view decides, not the parser's */
	if (!loaded.len)
		PEO_SKIP("this test binary has no build id note (its loaded PT_NOTE holds none)");
	rc = peo_elf_build_id("/proc/self/exe", id, &len);
	assert_int_equal(rc, 0);
	assert_int_equal(len, loaded.len);
	assert_memory_equal(id, loaded.id, len);
	assert_int_equal(peo_elf_build_id("/nonexistent-file", id, &len), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(own_function_offset_matches_maps),
		PEO_TEST(libc_function_offset_matches_maps),
		PEO_TEST(offset_suffix_is_added),
		PEO_TEST(missing_symbol_is_enoent),
		PEO_TEST(missing_file_is_enoent),
		PEO_TEST(non_elf_file_is_einval),
		PEO_TEST(truncated_copies_are_einval),
		PEO_TEST(corrupted_fields_are_einval),
		PEO_TEST(hand_built_files_resolve),
		PEO_TEST(damaged_hand_built_files_never_crash),
		PEO_TEST(build_ids_from_notes),
	};

	return PEO_TEST_MAIN("elf", tests);
}
