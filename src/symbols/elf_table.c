/*
 * symbols/elf_table.c - one ELF binary's functions, segments and build id,
 * read with elfutils' libdwfl (binary.h).
 *
 * One offline Dwfl holds the file as a single module placed at its own
 * addresses (base 0), so every address below is the ELF's virtual address.
 * libdwfl picks the symbol table as perf does in practice: the file's
 * .symtab, else its separate debug file's (by build id or .gnu_debuglink,
 * under SYMFS/usr/lib/debug with a symfs; else perf's build-id cache),
 * else .dynsym, plus MiniDebugInfo (.gnu_debugdata).  Kept, as perf 6.1
 * keeps them: named, defined functions (STT_FUNC, STT_GNU_IFUNC) of
 * allocated sections, and untyped labels of sections named *text*; its
 * data objects (STT_OBJECT) in a table of their own, for a sample's data
 * address (perf script's addr).  PLT entries get perf 6.1's "name@plt"
 * symbols.  A vmlinux is read by sections, as perf gives each of them a
 * map of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/binary.h"

int sym_binary_vaddr(const struct sym_binary *b, uint64_t offset, uint64_t *vaddr)
{
	for (size_t i = 0; i < b->nseg; i++) {
		const struct sym_segment *s = &b->seg[i];

		if (offset >= s->offset && offset - s->offset < s->size) {
			*vaddr = s->vaddr + (offset - s->offset);
			return 1;
		}
	}
	return 0;
}

void sym_binary_fini(struct sym_binary *b)
{
	for (size_t i = 0; i < b->nsections; i++) {
		free(b->sections[i].name);
		sym_table_fini(&b->sections[i].syms);
	}
	free(b->sections);
	sym_table_fini(&b->syms);
	sym_table_fini(&b->data);
	free(b->seg);
	free(b->symbols_from);
	free(b->file);
	free(b->note);
	memset(b, 0, sizeof(*b));
}

#ifndef PEO_HAVE_LIBDW
int sym_binary_load(const struct sym_load *how, struct sym_binary *out)
{
	memset(out, 0, sizeof(*out));
	return peo_fail(ENOTSUP, "%s: peo was built without elfutils (libdw), so it reads no symbols",
			how->path);
}
#else
#include <elfutils/libdwfl.h>
#include <gelf.h>

/* One binary being read: the file, its Dwfl, and where debug files are. */
struct reader {
	const struct sym_load *how;
	char *file;            /* the path opened */
	char *debuginfo_path;  /* libdwfl's search list; NULL: its default */
	Dwfl_Callbacks cb;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;              /* the main file, owned by mod */
};

static void hex(char *out, const uint8_t *id, size_t len)
{
	for (size_t i = 0; i < len; i++)
		snprintf(out + 2 * i, 3, "%02x", id[i]);
	out[2 * len] = '\0';
}

/* A recorded id matches the file's when equal, or longer by zeros only
 * (perf pads ids to 20 bytes). */
static int same_build_id(const uint8_t *rec, size_t rec_len, const uint8_t *file, size_t file_len)
{
	if (rec_len < file_len || memcmp(rec, file, file_len))
		return 0;
	for (size_t i = file_len; i < rec_len; i++)
		if (rec[i])
			return 0;
	return 1;
}

/* perf's build-id cache copy of the binary ("elf") or of its debug file
 * ("debug"): ~/.debug/.build-id/xx/rest/@what, or NULL. */
static char *cache_copy(const uint8_t *id, size_t len, const char *what)
{
	const char *home = getenv("HOME");
	char idhex[2 * 20 + 1], *path;

	if (!home || !*home || !len || len > 20)
		return NULL;
	hex(idhex, id, len);
	if (asprintf(&path, "%s/.debug/.build-id/%.2s/%s/%s", home, idhex, idhex + 2, what) < 0)
		return NULL;
	if (access(path, R_OK)) {
		free(path);
		return NULL;
	}
	return path;
}

/* Whether regular file @fd starts as an ELF file does. */
static int is_elf(int fd)
{
	unsigned char magic[SELFMAG];
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	       pread(fd, magic, SELFMAG, 0) == SELFMAG && !memcmp(magic, ELFMAG, SELFMAG);
}

/* libdwfl's search for the debug file (by build id, by .gnu_debuglink),
 * then perf's build-id cache. */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, GElf_Addr base,
			  const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			  char **debuginfo_file_name)
{
	int fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					      debuglink_crc, debuginfo_file_name);
	const unsigned char *id;
	GElf_Addr at;
	int len;
	char *path;

	if (fd >= 0 || (len = dwfl_module_build_id(mod, &id, &at)) <= 0 ||
	    !(path = cache_copy(id, (size_t)len, "debug")))
		return fd;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !is_elf(fd)) { /* no ELF: passed over, as libdwfl's own search does */
		if (fd >= 0)
			close(fd);
		free(path);
		return -1;
	}
	*debuginfo_file_name = path;
	return fd;
}

static void reader_close(struct reader *r)
{
	if (r->dwfl)
		dwfl_end(r->dwfl);
	r->dwfl = NULL;
	r->mod = NULL;
	r->elf = NULL;
}

/* Every segment's and section's bytes inside the file: a truncated or
 * damaged file is refused here, with the offset, rather than read in part. */
static int check_layout(struct reader *r)
{
	size_t size, n;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;

	if (!elf_rawfile(r->elf, &size) || elf_getphdrnum(r->elf, &n))
		return peo_fail(EINVAL, "%s: damaged ELF file: %s", r->file, elf_errmsg(-1));
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(r->elf, (int)i, &ph))
			return peo_fail(EINVAL, "%s: damaged program header %zu: %s", r->file, i,
					elf_errmsg(-1));
		if (ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
			return peo_fail(EINVAL, "%s: damaged ELF file: segment %zu's bytes [%#" PRIx64
					", %#" PRIx64 ") run past its end (%zu bytes)",
					r->file, i, (uint64_t)ph.p_offset,
					(uint64_t)ph.p_offset + ph.p_filesz, size);
	}
	if (!gelf_getehdr(r->elf, &eh))
		return peo_fail(EINVAL, "%s: damaged ELF header: %s", r->file, elf_errmsg(-1));
	/* libelf reads a file cut before its section headers as having none */
	n = eh.e_shoff ? (eh.e_shnum ? eh.e_shnum : 1) : 0;
	if (n && (eh.e_shoff > size || n * eh.e_shentsize > size - eh.e_shoff))
		return peo_fail(EINVAL, "%s: damaged ELF file: its %zu section headers at offset %#" PRIx64
				" run past its end (%zu bytes)", r->file, n, (uint64_t)eh.e_shoff, size);
	if (elf_getshdrnum(r->elf, &n))
		return peo_fail(EINVAL, "%s: damaged section headers: %s", r->file, elf_errmsg(-1));
	while ((scn = elf_nextscn(r->elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			return peo_fail(EINVAL, "%s: damaged section header %zu: %s", r->file,
					elf_ndxscn(scn), elf_errmsg(-1));
		if (sh.sh_type != SHT_NOBITS && (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset))
			return peo_fail(EINVAL, "%s: damaged ELF file: section %zu's bytes [%#" PRIx64
					", %#" PRIx64 ") run past its end (%zu bytes)",
					r->file, elf_ndxscn(scn), (uint64_t)sh.sh_offset,
					(uint64_t)sh.sh_offset + sh.sh_size, size);
	}
	return 0;
}

/* Report r->file as the only module, at its own addresses; the ELF checked. */
static int reader_open(struct reader *r)
{
	GElf_Addr bias;
	struct stat st;
	/* O_NONBLOCK: a FIFO at the path must not hang the reader */
	int fd = open(r->file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return peo_fail(errno, "%s: %s", r->file, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return peo_fail(EINVAL, "%s: not a regular file, so not an ELF binary", r->file);
	}
	r->dwfl = dwfl_begin(&r->cb);
	if (!r->dwfl) {
		close(fd);
		return peo_fail(ENOMEM, "%s: %s", r->file, dwfl_errmsg(-1));
	}
	dwfl_report_begin(r->dwfl);
	r->mod = dwfl_report_elf(r->dwfl, r->how->path, r->file, fd, 0, true);
	if (!r->mod) {
		int err = dwfl_errno();

		close(fd);
		return peo_fail(EINVAL, "%s: not a readable ELF file: %s", r->file, dwfl_errmsg(err));
	}
	dwfl_report_end(r->dwfl, NULL, NULL);
	r->elf = dwfl_module_getelf(r->mod, &bias);
	if (!r->elf || bias)
		return peo_fail(EINVAL, "%s: not a readable ELF file: %s", r->file,
				r->elf ? "placed at an offset" : dwfl_errmsg(-1));
	return check_layout(r);
}

/* The module's build id into @out; -ESTALE when it is not the recorded one. */
static int check_build_id(struct reader *r, struct sym_binary *out)
{
	const unsigned char *bits;
	GElf_Addr at;
	int len = dwfl_module_build_id(r->mod, &bits, &at);
	char want[2 * 20 + 1], have[2 * 20 + 1];

	out->build_id_len = len > 0 && len <= 20 ? (size_t)len : 0;
	if (out->build_id_len)
		memcpy(out->build_id, bits, out->build_id_len);
	if (!r->how->build_id || !r->how->build_id_len)
		return 0;
	if (same_build_id(r->how->build_id, r->how->build_id_len, out->build_id, out->build_id_len))
		return 0;
	hex(want, r->how->build_id, r->how->build_id_len > 20 ? 20 : r->how->build_id_len);
	hex(have, out->build_id, out->build_id_len);
	if (r->how->kernel)
		return peo_fail(ESTALE, "%s has build id %s, not the recorded kernel's %s",
				r->file, out->build_id_len ? have : "(none)", want);
	return peo_fail(ESTALE, "%s has build id %s, not the recorded %s: it changed since the recording",
			r->file, out->build_id_len ? have : "(none)", want);
}

/* Open the binary: symfs + path, else perf's cache copy when the file is
 * missing or not the recorded one. */
static int open_binary(struct reader *r, struct sym_binary *out)
{
	const struct sym_load *how = r->how;
	char *cached;
	int err;

	if (asprintf(&r->file, "%s%s", how->symfs ? how->symfs : "", how->path) < 0) {
		r->file = NULL;
		return peo_fail(ENOMEM, "out of memory for a path");
	}
	err = reader_open(r);
	if (!err)
		err = check_build_id(r, out);
	if ((err != -ENOENT && err != -ENOTDIR && err != -ESTALE) || how->kernel)
		return err;
	/* "elf" for files, "vdso" for the vdso image perf record saved */
	cached = how->build_id ? cache_copy(how->build_id, how->build_id_len, "elf") : NULL;
	if (!cached && how->build_id)
		cached = cache_copy(how->build_id, how->build_id_len, "vdso");
	if (!cached)
		return err;
	reader_close(r);
	free(r->file);
	r->file = cached;
	err = reader_open(r);
	return err ? err : check_build_id(r, out);
}

/* The PT_LOAD segments, the executable ones first (an offset found in one
 * of them is code). */
static int read_segments(struct reader *r, struct sym_binary *out)
{
	size_t n;

	if (elf_getphdrnum(r->elf, &n))
		return peo_fail(EINVAL, "%s: damaged program headers: %s", r->file, elf_errmsg(-1));
	out->seg = calloc(n ? n : 1, sizeof(*out->seg));
	if (!out->seg)
		return peo_fail(ENOMEM, "out of memory for %zu segments", n);
	for (int exec = 1; exec >= 0; exec--)
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(r->elf, (int)i, &ph))
				return peo_fail(EINVAL, "%s: damaged program header %zu: %s", r->file, i,
						elf_errmsg(-1));
			if (ph.p_type != PT_LOAD || !!(ph.p_flags & PF_X) != exec)
				continue;
			/* with its zero-filled tail (.bss), which a file map's last page shows */
			out->seg[out->nseg++] = (struct sym_segment){
				.offset = ph.p_offset, .vaddr = ph.p_vaddr,
				.size = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz };
		}
	return 0;
}

/* Add @name (demangled when asked) with "@plt" appended when @plt. */
static int add_symbol(struct reader *r, struct sym_table *t, uint64_t start, uint64_t size,
		      const char *name, enum sym_bind bind, int plt)
{
	char *demangled = r->how->demangle ? sym_demangle(name) : NULL;
	char *with_plt = NULL;
	int err;

	if (demangled)
		name = demangled;
	if (size > UINT64_MAX - start) /* a damaged size: to the end of the address space */
		size = UINT64_MAX - start;
	if (plt && asprintf(&with_plt, "%s@plt", name) < 0) {
		free(demangled);
		return peo_fail(ENOMEM, "out of memory for a symbol name");
	}
	err = sym_table_add(t, start, size, plt ? with_plt : name, bind, plt ? SYM_PLT : 0);
	free(with_plt);
	free(demangled);
	return err;
}

static enum sym_bind bind_of(const GElf_Sym *s)
{
	switch (GELF_ST_BIND(s->st_info)) {
	case STB_GLOBAL:
		return SYM_GLOBAL;
	case STB_WEAK:
		return SYM_WEAK;
	default: /* STB_GNU_UNIQUE too: perf treats it as neither */
		return SYM_LOCAL;
	}
}

/* The name of section @ndx of @elf, or "". */
static const char *section_name(Elf *elf, GElf_Word ndx, GElf_Shdr *sh)
{
	size_t strndx;
	const char *name;

	if (!gelf_getshdr(elf_getscn(elf, ndx), sh) || elf_getshdrstrndx(elf, &strndx))
		return NULL;
	name = elf_strptr(elf, strndx, sh->sh_name);
	return name ? name : "";
}

/* Which table perf 6.1 keeps this symbol in: a function, or a label in
 * code (KEEP_CODE); a data object (KEEP_DATA); of a vmlinux (@kernel) data
 * objects and labels in data too, with its code (KEEP_CODE); else none. */
enum keep { KEEP_NONE, KEEP_CODE, KEEP_DATA };

static enum keep wanted(const GElf_Sym *s, GElf_Word shndx, Elf *elf, int machine,
			const char *name, int kernel)
{
	int type = GELF_ST_TYPE(s->st_info), vis = GELF_ST_VISIBILITY(s->st_other);
	int label = type == STT_NOTYPE && vis != STV_HIDDEN && vis != STV_INTERNAL;
	const char *sec;
	GElf_Shdr sh;

	if (!*name || s->st_shndx == SHN_UNDEF || s->st_shndx == SHN_ABS ||
	    s->st_shndx == SHN_COMMON || shndx == (GElf_Word)-1)
		return KEEP_NONE;
	if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT && !label)
		return KEEP_NONE;
	/* ARM's mapping symbols ($a, $d, $t, $x) mark code and data, not functions */
	if ((machine == EM_ARM || machine == EM_AARCH64) && name[0] == '$' && name[1] &&
	    strchr("adtx", name[1]) && (name[2] == '\0' || name[2] == '.'))
		return KEEP_NONE;
	sec = section_name(elf, shndx, &sh);
	if (!sec || !(sh.sh_flags & SHF_ALLOC))
		return KEEP_NONE;
	if (type == STT_OBJECT)
		return kernel ? KEEP_CODE : KEEP_DATA;
	return !label || strstr(sec, "text") || (kernel && strstr(sec, "data")) ? KEEP_CODE
										: KEEP_NONE;
}

/* A vmlinux's section @shndx of @from, added to @out when new; its index
 * in *@at, which holds the one found before (symbols come in runs). */
static int section_of(struct reader *r, struct sym_binary *out, Elf *from, GElf_Word shndx,
		      size_t *at)
{
	struct sym_section *more;
	const char *name;
	GElf_Shdr sh;

	if (!(name = section_name(from, shndx, &sh)))
		return peo_fail(EINVAL, "%s: damaged section header %u", r->file, (unsigned)shndx);
	if (*at < out->nsections && !strcmp(out->sections[*at].name, name))
		return 0;
	for (*at = 0; *at < out->nsections; ++*at)
		if (!strcmp(out->sections[*at].name, name))
			return 0;
	more = realloc(out->sections, (out->nsections + 1) * sizeof(*more));
	if (!more)
		return peo_fail(ENOMEM, "out of memory for %s's sections", r->file);
	out->sections = more;
	more += out->nsections;
	memset(more, 0, sizeof(*more));
	if (!(more->name = strdup(name)))
		return peo_fail(ENOMEM, "out of memory for %s's sections", r->file);
	more->addr = sh.sh_addr;
	more->size = sh.sh_size;
	out->nsections++;
	return 0;
}

static int read_symbols(struct reader *r, struct sym_binary *out)
{
	const struct sym_load *how = r->how;
	GElf_Ehdr eh;
	int n = dwfl_module_getsymtab(r->mod);
	size_t at = 0;

	if (!gelf_getehdr(r->elf, &eh))
		return peo_fail(EINVAL, "%s: damaged ELF header: %s", r->file, elf_errmsg(-1));
	for (int i = 1; i < n; i++) { /* 0 is the null symbol */
		GElf_Sym s;
		GElf_Addr addr, bias;
		GElf_Word shndx;
		Elf *from;
		const char *name = dwfl_module_getsym_info(r->mod, i, &s, &addr, &shndx, &from, &bias);
		struct sym_table *t = &out->syms;
		enum keep keep;
		int err;

		if (name && how->ref_name && !out->has_ref && !strcmp(name, how->ref_name)) {
			out->ref_value = addr; /* perf takes the first of that name, of any kind */
			out->has_ref = 1;
		}
		keep = name ? wanted(&s, shndx, from, eh.e_machine, name, how->kernel) : KEEP_NONE;
		if (keep == KEEP_NONE)
			continue;
		if (keep == KEEP_DATA) {
			t = &out->data;
		} else if (how->kernel) {
			if ((err = section_of(r, out, from, shndx, &at)))
				return err;
			t = &out->sections[at].syms;
		}
		err = add_symbol(r, t, addr, s.st_size, name, bind_of(&s), 0);
		if (err)
			return err;
	}
	return 0;
}

/* A vmlinux's tables finished, its .text first: perf ends the symbols
 * without a size of the .text only (its kernel map's); in another section
 * such a symbol holds its own address alone. */
static int finish_sections(struct reader *r, struct sym_binary *out)
{
	size_t text = 0;
	int err = 0;

	while (text < out->nsections && strcmp(out->sections[text].name, ".text"))
		text++;
	if (text == out->nsections)
		return peo_fail(ENOENT, "%s has no symbols in a .text section: not a vmlinux, or "
				"its symbols were stripped", r->file);
	if (text) {
		struct sym_section first = out->sections[0];

		out->sections[0] = out->sections[text];
		out->sections[text] = first;
	}
	for (size_t i = 0; i < out->nsections && !err; i++) {
		struct sym_table *t = &out->sections[i].syms;

		for (size_t j = 0; i && j < t->n; j++)
			if (t->v[j].end == t->v[j].start && t->v[j].end < UINT64_MAX)
				t->v[j].end++;
		err = sym_table_finish(t);
	}
	return err;
}

/* The section of @elf named @want, or NULL. */
static Elf_Scn *find_section(Elf *elf, const char *want, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t strndx;

	if (elf_getshdrstrndx(elf, &strndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, sh))
			continue;
		name = elf_strptr(elf, strndx, sh->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

/* The PLT's header and entry sizes where perf 6.1 does not take the
 * section's entry size for both. */
static const struct {
	int machine;
	uint64_t header, entry;
} plt_sizes[] = {
	{ EM_ARM, 20, 12 }, { EM_AARCH64, 32, 16 }, { EM_SPARC, 48, 12 }, { EM_SPARCV9, 128, 32 },
};

/* perf 6.1's PLT entries: one per .rela.plt (.rel.plt) relocation, in its
 * order, after a header, each named after the .dynsym symbol it jumps to. */
static int read_plt(struct reader *r, struct sym_binary *out)
{
	GElf_Shdr rel_sh, plt_sh, dynsym_sh;
	Elf_Scn *rel = find_section(r->elf, ".rela.plt", &rel_sh);
	Elf_Scn *dynsym;
	Elf_Data *rel_data, *sym_data;
	GElf_Ehdr eh;
	uint64_t header, entry, at;
	size_t n;

	if (!rel)
		rel = find_section(r->elf, ".rel.plt", &rel_sh);
	if (!rel || (rel_sh.sh_type != SHT_RELA && rel_sh.sh_type != SHT_REL) || !rel_sh.sh_entsize ||
	    !find_section(r->elf, ".plt", &plt_sh) || !gelf_getehdr(r->elf, &eh))
		return 0;
	dynsym = elf_getscn(r->elf, rel_sh.sh_link);
	if (!dynsym || !gelf_getshdr(dynsym, &dynsym_sh) || dynsym_sh.sh_type != SHT_DYNSYM)
		return 0;
	rel_data = elf_getdata(rel, NULL);
	sym_data = elf_getdata(dynsym, NULL);
	if (!rel_data || !sym_data)
		return 0;
	header = entry = plt_sh.sh_entsize; /* perf's sizes: the section's, or these */
	for (size_t i = 0; i < sizeof(plt_sizes) / sizeof(plt_sizes[0]); i++)
		if (plt_sizes[i].machine == eh.e_machine)
			header = plt_sizes[i].header, entry = plt_sizes[i].entry;
	if (!entry)
		return 0;
	n = rel_sh.sh_size / rel_sh.sh_entsize;
	at = plt_sh.sh_addr + header;
	for (size_t i = 0; i < n; i++, at += entry) {
		GElf_Rela rela;
		GElf_Rel rl;
		GElf_Sym s;
		const char *name = NULL;
		size_t symidx;
		int err;

		if (rel_sh.sh_type == SHT_RELA) {
			if (!gelf_getrela(rel_data, (int)i, &rela))
				break;
			symidx = GELF_R_SYM(rela.r_info);
		} else {
			if (!gelf_getrel(rel_data, (int)i, &rl))
				break;
			symidx = GELF_R_SYM(rl.r_info);
		}
		if (gelf_getsym(sym_data, (int)symidx, &s))
			name = elf_strptr(r->elf, dynsym_sh.sh_link, s.st_name);
		err = add_symbol(r, &out->syms, at, entry, name ? name : "", SYM_GLOBAL, 1);
		if (err)
			return err;
	}
	return 0;
}

/* Where the symbols came from: the debug file libdwfl read, or the binary. */
/* A sentence for a debug file of @out's build id that is there but is no
 * ELF file (libdwfl passes over it without a word), or NULL. */
static char *ignored_debug_file(const struct reader *r, const struct sym_binary *out)
{
	char idhex[2 * 20 + 1], *paths[2] = { NULL, NULL }, *note = NULL;

	if (!out->build_id_len)
		return NULL;
	hex(idhex, out->build_id, out->build_id_len);
	if (asprintf(&paths[0], "%s/usr/lib/debug/.build-id/%.2s/%s.debug",
		     r->how->symfs ? r->how->symfs : "", idhex, idhex + 2) < 0)
		paths[0] = NULL;
	paths[1] = cache_copy(out->build_id, out->build_id_len, "debug");
	for (int i = 0; i < 2 && !note; i++) {
		int fd = paths[i] ? open(paths[i], O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
		struct stat st;

		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) && !is_elf(fd) &&
		    asprintf(&note, "%s: the debug file of %s is no ELF file; it is ignored, and "
			     "only the binary's own symbols name its frames", paths[i], r->file) < 0)
			note = NULL;
		close(fd);
	}
	free(paths[0]);
	free(paths[1]);
	return note;
}

static int note_source(struct reader *r, struct sym_binary *out)
{
	const char *main_file = NULL, *debug_file = NULL;

	dwfl_module_info(r->mod, NULL, NULL, NULL, NULL, NULL, &main_file, &debug_file);
	if (!debug_file)
		out->note = ignored_debug_file(r, out);
	out->symbols_from = strdup(debug_file ? debug_file : main_file ? main_file : r->file);
	/* a memfd's path (our own vdso's copy) is closed after the read */
	if (strncmp(r->file, "/proc/self/fd/", 14))
		out->file = strdup(r->file);
	return out->symbols_from && (out->file || !strncmp(r->file, "/proc/self/fd/", 14))
		       ? 0 : peo_fail(ENOMEM, "out of memory for a path");
}

int sym_binary_load(const struct sym_load *how, struct sym_binary *out)
{
	struct reader r = {
		.how = how,
		.cb = { .find_elf = dwfl_build_id_find_elf,
			.find_debuginfo = find_debuginfo,
			.section_address = dwfl_offline_section_address },
	};
	int err;

	memset(out, 0, sizeof(*out));
	r.cb.debuginfo_path = &r.debuginfo_path;
	/* with a symfs, debug files are looked for under it only, as perf does */
	if (how->symfs && asprintf(&r.debuginfo_path, ":.debug:%s/usr/lib/debug", how->symfs) < 0) {
		r.debuginfo_path = NULL;
		return peo_fail(ENOMEM, "out of memory for a path");
	}
	err = open_binary(&r, out);
	if (!err)
		err = read_segments(&r, out);
	if (!err)
		err = read_symbols(&r, out);
	if (!err && !how->kernel)
		err = read_plt(&r, out);
	if (!err)
		err = note_source(&r, out);
	if (!err)
		err = how->kernel ? finish_sections(&r, out) : sym_table_finish(&out->syms);
	if (!err)
		err = sym_table_finish(&out->data);
	reader_close(&r);
	free(r.file);
	free(r.debuginfo_path);
	if (err)
		sym_binary_fini(out);
	return err;
}
#endif
