/*
 * test_sym_elf.c - sym_binary_load(), a binary's functions read with
 * elfutils, on the programs sym_sample.c and sym_sample_cxx.cc (built -O2
 * -g): every function nm lists is found at its address, at its start and in
 * its middle; perf's choice among aliases; PLT entries named as objdump
 * names them; C++ and Rust names demangled as perf 6.1 prints them; a
 * stripped copy named through a symfs finds its debug file by build id (or
 * perf's build-id cache), one with MiniDebugInfo reads that; a
 * changed binary is refused (-ESTALE) unless perf's build-id cache has the
 * recorded one; damaged files fail with a sentence naming them.
 * nm, objdump, objcopy and strip (binutils) are the oracle; tests that need
 * one skip without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/binary.h"
#include "symbols/inflated.h"
#include "test_util.h"

/* The sample program $@var names (CTest sets it), else the one built next
 * to this test (a run by hand, or under valgrind); NULL when neither. */
static const char *sample(const char *var)
{
	static char paths[2][4096];
	const char *p = getenv(var);
	char *dir = paths[strcmp(var, "PEO_SYM_SAMPLE") != 0];
	ssize_t n;

	if (p && *p)
		return p;
	n = readlink("/proc/self/exe", dir, sizeof(paths[0]) - 32);
	if (n <= 0)
		return NULL;
	dir[n] = '\0';
	strcpy(strrchr(dir, '/') + 1, strcmp(var, "PEO_SYM_SAMPLE") ? "sym_sample_cxx" : "sym_sample");
	return access(dir, X_OK) ? NULL : dir;
}

/* Load @path as is (no symfs, no build id); skips when peo has no elfutils. */
static int load(const char *path, int demangle, struct sym_binary *b)
{
	struct sym_load how = { .path = path, .demangle = demangle };

	return sym_binary_load(&how, b);
}

#define LOAD_OR_SKIP(path, demangle, b)                                                      \
	do {                                                                                 \
		int err_ = load(path, demangle, b);                                          \
		if (err_ == -ENOTSUP)                                                        \
			PEO_SKIP("peo was built without elfutils: %s", peo_last_error());   \
		if (err_)                                                                    \
			fail_msg("%s: %s", path, peo_last_error());                          \
	} while (0)

static int have_tool(const char *name)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

static const struct sym_entry *by_name(const struct sym_binary *b, const char *name)
{
	for (size_t i = 0; i < b->syms.n; i++)
		if (!strcmp(sym_name(&b->syms, &b->syms.v[i]), name))
			return &b->syms.v[i];
	return NULL;
}

/* nm's defined functions of @path, mangled: their address, size and name. */
struct nm_sym {
	unsigned long long addr, size;
	char name[512];
};

static size_t nm_functions(const char *path, struct nm_sym **out)
{
	char cmd[4200], line[1024];
	size_t n = 0, cap = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "nm --defined-only -S '%s'", path);
	f = popen(cmd, "r");
	assert_non_null(f);
	*out = NULL;
	while (fgets(line, sizeof(line), f)) {
		struct nm_sym s;
		char type;

		if (sscanf(line, "%llx %llx %c %511s", &s.addr, &s.size, &type, s.name) != 4 ||
		    !strchr("TtWi", type) || !s.size)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			*out = realloc(*out, cap * sizeof(**out));
			assert_non_null(*out);
		}
		(*out)[n++] = s;
	}
	pclose(f);
	return n;
}

/* Every sized function nm lists is the table's symbol at its start, middle
 * and last byte, under its name or an alias's at the same address. */
static void check_against_nm(const char *path)
{
	struct sym_binary b;
	struct nm_sym *nm;
	size_t n;

	if (!path)
		PEO_SKIP("the sample program was not built");
	if (!have_tool("nm"))
		PEO_SKIP("nm (binutils) is not installed");
	LOAD_OR_SKIP(path, 0, &b);
	n = nm_functions(path, &nm);
	assert_true(n >= 5);
	for (size_t i = 0; i < n; i++) {
		const struct sym_entry *e = sym_table_find(&b.syms, nm[i].addr);
		int alias = 0;

		if (!e || e->start != nm[i].addr)
			fail_msg("%s at %#llx: peo finds %s", nm[i].name, nm[i].addr,
				 e ? sym_name(&b.syms, e) : "nothing");
		assert_ptr_equal(sym_table_find(&b.syms, nm[i].addr + nm[i].size / 2), e);
		assert_ptr_equal(sym_table_find(&b.syms, nm[i].addr + nm[i].size - 1), e);
		for (size_t k = 0; k < n; k++)
			alias |= nm[k].addr == nm[i].addr && !strcmp(nm[k].name, sym_name(&b.syms, e));
		if (!alias)
			fail_msg("%s at %#llx: peo names it %s, not a name nm has there", nm[i].name,
				 nm[i].addr, sym_name(&b.syms, e));
	}
	free(nm);
	sym_binary_fini(&b);
}

static void test_nm_functions_c(void **state)
{
	check_against_nm(sample("PEO_SYM_SAMPLE"));
}

static void test_nm_functions_cxx(void **state)
{
	check_against_nm(sample("PEO_SYM_SAMPLE_CXX"));
}

/* perf's choice among symbols at one address (sym_sample.c's aliases). */
static void test_aliases(void **state)
{
	static const char *const kept[] = { "twice", "strong_name", "_one_under", "short_nm_longer" };
	static const char *const dropped[] = { "__local_twice", "weak_name", "__two_under", "short_nm" };
	const char *path = sample("PEO_SYM_SAMPLE");
	struct sym_binary b;

	if (!path)
		PEO_SKIP("the sample program was not built");
	LOAD_OR_SKIP(path, 1, &b);
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		if (!by_name(&b, kept[i]))
			fail_msg("%s is not in the table", kept[i]);
		if (by_name(&b, dropped[i]))
			fail_msg("%s is in the table, its alias %s should be", dropped[i], kept[i]);
	}
	sym_binary_fini(&b);
}

/* PLT entries: "name@plt" at the address objdump gives them. */
static void test_plt(void **state)
{
	const char *path = sample("PEO_SYM_SAMPLE");
	char cmd[4200], line[1024];
	struct sym_binary b;
	int found = 0;
	FILE *f;

	if (!path)
		PEO_SKIP("the sample program was not built");
	if (!have_tool("objdump"))
		PEO_SKIP("objdump (binutils) is not installed");
	LOAD_OR_SKIP(path, 1, &b);
	snprintf(cmd, sizeof(cmd), "objdump -d -j .plt '%s'", path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char name[512];
		const struct sym_entry *e;

		if (sscanf(line, "%llx <%511[^>]>:", &addr, name) != 2 || strlen(name) < 4 ||
		    strcmp(name + strlen(name) - 4, "@plt"))
			continue; /* not an entry (the header is "first@plt-0x10") */
		e = sym_table_find(&b.syms, addr);
		if (!e || e->start != addr || strcmp(sym_name(&b.syms, e), name))
			fail_msg("%s at %#llx: peo finds %s", name, addr, e ? sym_name(&b.syms, e) : "nothing");
		assert_int_equal(e->flags & SYM_PLT, SYM_PLT);
		assert_int_equal(e->end - e->start, 16);
		found++;
	}
	pclose(f);
	assert_true(found >= 2); /* strtod, printf... */
	sym_binary_fini(&b);
}

/* The names perf 6.1 prints for C++ and Rust (issue 29's research). */
static void test_demangle(void **state)
{
	static const char *const pairs[][2] = {
		{ "_ZN5outer5inner3BoxIlLi7EE4spinElRKSt6vectorIlSaIlEE.isra.0",
		  "outer::inner::Box<long, 7>::spin" },
		{ "_ZN1r1m10W$LT$T$GT$4spin17hd5a7223ae886dccaE", "r::m::W<T>::spin" },
		{ "_RNvMNtCs6GmmlP4bgsG_1r1mINtB2_1WyE4spinB4_", "<r::m::W<u64>>::spin" },
		{ "_ZZ4mainENKUllE_clEl", "main::{lambda(long)#1}::operator()" },
		{ "_Z1fv.cold", "f" },
	};
	char *d = sym_demangle("_Z1fv");

	if (!d)
		PEO_SKIP("peo was built without libiberty's demangler");
	assert_string_equal(d, "f");
	free(d);
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		d = sym_demangle(pairs[i][0]);
		assert_non_null(d);
		assert_string_equal(d, pairs[i][1]);
		free(d);
	}
	assert_null(sym_demangle("main"));
	assert_null(sym_demangle("_Z"));
}

static void test_cxx_names(void **state)
{
	static const char *const names[] = {
		"outer::inner::Box<long, 7>::spin", "Op::operator()",
		"core::ptr::drop_in_place<std::rt::lang_start<()>::{{closure}}>",
		"<core::ptr::NonNullh<>>::as_mut1",
	};
	const char *path = sample("PEO_SYM_SAMPLE_CXX");
	struct sym_binary b;
	char *probe = sym_demangle("_Z1fv");

	if (!path)
		PEO_SKIP("the sample program was not built");
	if (!probe)
		PEO_SKIP("peo was built without libiberty's demangler");
	free(probe);
	LOAD_OR_SKIP(path, 1, &b);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!by_name(&b, names[i]))
			fail_msg("%s is not in the table", names[i]);
	sym_binary_fini(&b);
	LOAD_OR_SKIP(path, 0, &b);
	assert_non_null(by_name(&b, "_RNvMNtCs9ltgdHTiPiY_4core3ptrINtB2_8NonNullhE7as_mut1"));
	sym_binary_fini(&b);
}

/* A scratch directory, removed by the test. */
static void scratch(char *dir, size_t cap)
{
	snprintf(dir, cap, "%s/peo-sym-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(dir));
}

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	if (rc)
		fail_msg("`%s` failed (%d)", cmd, rc);
}

/* HOME set to @dir (perf's build-id cache is $HOME/.debug); returns the
 * old value for home_restore(). */
static char *home_set(const char *dir)
{
	char *old = getenv("HOME") ? strdup(getenv("HOME")) : NULL;

	setenv("HOME", dir, 1);
	return old;
}

static void home_restore(char *old)
{
	if (old)
		setenv("HOME", old, 1);
	else
		unsetenv("HOME");
	free(old);
}

static void id_hex(char *out, const struct sym_binary *b)
{
	for (size_t i = 0; i < b->build_id_len; i++)
		sprintf(out + 2 * i, "%02x", b->build_id[i]);
}

/* A stripped copy under a symfs finds its debug file at
 * SYMFS/usr/lib/debug/.build-id/xx/rest.debug, or in perf's build-id cache
 * (~/.debug/.build-id/xx/rest/debug). */
static void test_stripped_with_debug_file(void **state)
{
	const char *path = sample("PEO_SYM_SAMPLE");
	char dir[256], id[41], *dbg, *old_home;
	struct sym_binary b;
	struct sym_load how = { .path = "/bin/sample", .demangle = 1 };

	if (!path)
		PEO_SKIP("the sample program was not built");
	if (!have_tool("objcopy") || !have_tool("strip"))
		PEO_SKIP("objcopy and strip (binutils) are not installed");
	LOAD_OR_SKIP(path, 1, &b);
	if (!b.build_id_len)
		PEO_SKIP("the sample program has no build id (the linker was not asked for one)");
	id_hex(id, &b);
	sym_binary_fini(&b);
	scratch(dir, sizeof(dir));
	old_home = home_set(dir); /* an empty build-id cache, for now */
	how.symfs = dir;
	sh("mkdir -p %s/bin %s/usr/lib/debug/.build-id/%.2s && strip -s -o %s/bin/sample '%s'", dir, dir,
	   id, dir, path);
	/* stripped, no debug file: leaf is in no table the binary has */
	assert_int_equal(sym_binary_load(&how, &b), 0);
	assert_null(by_name(&b, "leaf"));
	assert_null(b.note);
	sym_binary_fini(&b);
	/* a debug file that is no ELF: ignored, with a note naming it */
	sh("echo 'no ELF here' > %s/usr/lib/debug/.build-id/%.2s/%s.debug", dir, id, id + 2);
	assert_int_equal(sym_binary_load(&how, &b), 0);
	assert_null(by_name(&b, "leaf"));
	assert_non_null(b.note);
	assert_non_null(strstr(b.note, "is no ELF file; it is ignored"));
	assert_non_null(strstr(b.note, id + 2));
	sym_binary_fini(&b);
	sh("objcopy --only-keep-debug '%s' %s/usr/lib/debug/.build-id/%.2s/%s.debug", path, dir, id,
	   id + 2);
	assert_int_equal(sym_binary_load(&how, &b), 0);
	assert_non_null(by_name(&b, "leaf"));
	assert_non_null(by_name(&b, "twice"));
	assert_non_null(by_name(&b, "printf@plt"));
	assert_true(asprintf(&dbg, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", dir, id, id + 2) > 0);
	assert_string_equal(b.symbols_from, dbg);
	free(dbg);
	sym_binary_fini(&b);

	/* the debug file in perf's build-id cache only */
	sh("mkdir -p %s/.debug/.build-id/%.2s/%s && mv %s/usr/lib/debug/.build-id/%.2s/%s.debug "
	   "%s/.debug/.build-id/%.2s/%s/debug", dir, id, id + 2, dir, id, id + 2, dir, id, id + 2);
	assert_int_equal(sym_binary_load(&how, &b), 0);
	assert_non_null(by_name(&b, "leaf"));
	assert_non_null(strstr(b.symbols_from, "/.debug/.build-id/"));
	sym_binary_fini(&b);
	home_restore(old_home);
	sh("rm -rf %s", dir);
}

/* A stripped copy with MiniDebugInfo (an xz-compressed .symtab in
 * .gnu_debugdata, as Fedora ships binaries) names its functions.  perf 6.1
 * does not read that section; peo does, through libdwfl. */
static void test_minidebuginfo(void **state)
{
	const char *path = sample("PEO_SYM_SAMPLE");
	char dir[256], *old_home;
	struct sym_binary b;
	struct sym_load how = { .path = "/mini", .demangle = 1 };

	if (!path)
		PEO_SKIP("the sample program was not built");
	if (!have_tool("objcopy") || !have_tool("strip") || !have_tool("nm") || !have_tool("xz"))
		PEO_SKIP("objcopy, strip, nm (binutils) or xz are not installed");
	LOAD_OR_SKIP(path, 1, &b);
	sym_binary_fini(&b);
	scratch(dir, sizeof(dir));
	old_home = home_set(dir); /* no build-id cache */
	how.symfs = dir;
	/* the recipe of gdb's manual, "MiniDebugInfo" */
	sh("cd %s && nm --format=posix --defined-only '%s' | awk '$2 ~ /[Tt]/ { print $1 }' | sort >funcs && "
	   "objcopy --only-keep-debug '%s' debug && "
	   "objcopy -S --remove-section .comment --keep-symbols=funcs debug mini && "
	   "strip --strip-all -R .comment -o stripped '%s' && xz mini && "
	   "objcopy --add-section .gnu_debugdata=mini.xz stripped %s/mini",
	   dir, path, path, path, dir);
	assert_int_equal(sym_binary_load(&how, &b), 0);
	assert_non_null(by_name(&b, "leaf"));
	assert_non_null(by_name(&b, "mid"));
	assert_non_null(by_name(&b, "twice"));
	sym_binary_fini(&b);
	home_restore(old_home);
	sh("rm -rf %s", dir);
}

/* A file whose build id is not the recorded one is refused; perf's cache
 * copy of the recorded one is read instead when there is one. */
static void test_build_id(void **state)
{
	const char *path = sample("PEO_SYM_SAMPLE"), *other = sample("PEO_SYM_SAMPLE_CXX");
	char dir[256], id[41], home[512], *old_home;
	uint8_t wrong[20];
	struct sym_binary b, real;
	struct sym_load how = { .path = path, .demangle = 1 };

	if (!path || !other)
		PEO_SKIP("the sample programs were not built");
	LOAD_OR_SKIP(path, 1, &real);
	if (!real.build_id_len)
		PEO_SKIP("the sample program has no build id (the linker was not asked for one)");
	id_hex(id, &real);
	how.build_id = real.build_id;
	how.build_id_len = real.build_id_len;
	assert_int_equal(sym_binary_load(&how, &b), 0);
	sym_binary_fini(&b);

	memcpy(wrong, real.build_id, real.build_id_len);
	wrong[0] ^= 0xff;
	how.build_id = wrong;
	scratch(dir, sizeof(dir));
	old_home = home_set(dir); /* an empty build-id cache */
	assert_int_equal(sym_binary_load(&how, &b), -ESTALE);
	assert_error_contains(path);
	assert_error_contains(id);
	assert_error_contains("changed since the recording");

	/* the cache copy: for a missing file, and for a changed one */
	how.build_id = real.build_id;
	snprintf(home, sizeof(home), "%s/.debug/.build-id/%.2s/%s", dir, id, id + 2);
	sh("mkdir -p %s && cp '%s' %s/elf", home, path, home);
	how.path = "/nonexistent/sample";
	assert_int_equal(sym_binary_load(&how, &b), 0);
	assert_non_null(by_name(&b, "leaf"));
	sym_binary_fini(&b);
	how.path = other; /* the C++ sample is not the recorded binary */
	assert_int_equal(sym_binary_load(&how, &b), 0);
	assert_non_null(by_name(&b, "leaf"));
	assert_null(by_name(&b, "main::{lambda(long)#1}::operator()"));
	sym_binary_fini(&b);
	how.path = "/nonexistent/sample";
	how.build_id = wrong;
	assert_int_equal(sym_binary_load(&how, &b), -ENOENT);
	assert_error_contains("/nonexistent/sample");

	home_restore(old_home);
	sym_binary_fini(&real);
	sh("rm -rf %s", dir);
}

/* Byte @offset of the file @dir/f, at @len bytes, loaded: 0 or -EINVAL
 * naming the file, never a crash. */
static int load_damaged(const char *file, struct sym_binary *b)
{
	struct sym_load how = { .path = file, .demangle = 1 };
	int err = sym_binary_load(&how, b);

	if (err == 0) {
		sym_binary_fini(b);
		return 0;
	}
	assert_int_equal(err, -EINVAL);
	assert_error_contains(file);
	return err;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void write_all(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* The vdso, which is no file: its image as perf record saves it in the
 * build-id cache (xx/rest/vdso), read for the path "[vdso]"; its
 * functions named as perf 6.1 names them (__vdso_clock_gettime over the
 * weak clock_gettime at the same address). */
static void test_vdso(void **state)
{
	uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	char dir[256], img[300], id[41], cache[600], line[512], *old_home;
	struct sym_load how = { .path = "[vdso]", .demangle = 1 };
	unsigned long long start, end;
	struct sym_binary b;
	FILE *f;

	if (!base)
		PEO_SKIP("this process has no vdso");
	f = fopen("/proc/self/maps", "re");
	assert_non_null(f);
	start = end = 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &start, &end) == 2)
			break;
	fclose(f);
	assert_int_equal(start, base);
	scratch(dir, sizeof(dir));
	snprintf(img, sizeof(img), "%s/vdso.img", dir);
	write_all(img, (const void *)base, (size_t)(end - start));
	LOAD_OR_SKIP(img, 1, &b);
	if (!b.build_id_len)
		PEO_SKIP("this kernel's vdso has no build id");
	id_hex(id, &b);
	assert_non_null(by_name(&b, "__vdso_clock_gettime"));
	assert_null(by_name(&b, "clock_gettime"));
	how.build_id = b.build_id;
	how.build_id_len = b.build_id_len;
	old_home = home_set(dir);
	snprintf(cache, sizeof(cache), "%s/.debug/.build-id/%.2s/%s", dir, id, id + 2);
	sh("mkdir -p %s && cp %s %s/vdso", cache, img, cache);
	{
		struct sym_binary v;

		assert_int_equal(sym_binary_load(&how, &v), 0);
		assert_int_equal(v.syms.n, b.syms.n);
		assert_non_null(strstr(v.symbols_from, "/vdso"));
		sym_binary_fini(&v);
	}
	home_restore(old_home);
	sym_binary_fini(&b);
	sh("rm -rf %s", dir);
}

static void test_damaged(void **state)
{
	const char *path = sample("PEO_SYM_SAMPLE");
	char dir[256], file[300];
	struct sym_binary b;
	size_t len;
	char *elf;
	int refused = 0;

	if (!path)
		PEO_SKIP("the sample program was not built");
	LOAD_OR_SKIP(path, 1, &b);
	sym_binary_fini(&b);
	scratch(dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s/f", dir);

	write_all(file, "this is not an ELF file\n", 24);
	assert_int_equal(load_damaged(file, &b), -EINVAL);
	write_all(file, "", 0);
	assert_int_equal(load_damaged(file, &b), -EINVAL);
	assert_int_equal(load_damaged(dir, &b), -EINVAL); /* a directory */
	unlink(file);
	assert_int_equal(mkfifo(file, 0600), 0); /* a FIFO, which must not block */
	assert_int_equal(load_damaged(file, &b), -EINVAL);
	unlink(file);

	/* truncated anywhere: refused */
	elf = read_all(path, &len);
	for (size_t cut = 1; cut < len; cut += cut < 256 ? 7 : len / 61) {
		write_all(file, elf, cut);
		if (load_damaged(file, &b) != -EINVAL)
			fail_msg("%s cut to %zu of %zu bytes was read", path, cut, len);
	}
	/* bytes of the headers and tables changed: read or refused */
	for (size_t at = 0; at < len; at += at < 1024 ? 1 : 97) {
		char saved = elf[at];

		elf[at] = (char)(elf[at] ^ (at & 1 ? 0xff : 0x80));
		write_all(file, elf, len);
		refused += load_damaged(file, &b) != 0;
		elf[at] = saved;
	}
	assert_true(refused > 0);
	free(elf);
	sh("rm -rf %s", dir);
}

static void test_missing(void **state)
{
	struct sym_binary b;
	int err = load("/nonexistent/peo-sym-test", 1, &b);

	if (err == -ENOTSUP)
		PEO_SKIP("peo was built without elfutils: %s", peo_last_error());
	assert_int_equal(err, -ENOENT);
	assert_error_contains("/nonexistent/peo-sym-test");
}

/* File offsets to ELF addresses through the segments. */
static void test_vaddr(void **state)
{
	const char *path = sample("PEO_SYM_SAMPLE");
	const struct sym_entry *leaf;
	struct sym_binary b;
	uint64_t v;
	int exec_seen = 0;

	if (!path)
		PEO_SKIP("the sample program was not built");
	LOAD_OR_SKIP(path, 1, &b);
	assert_true(b.nseg >= 2);
	for (size_t i = 0; i < b.nseg; i++) {
		if (!b.seg[i].size)
			continue;
		assert_int_equal(sym_binary_vaddr(&b, b.seg[i].offset, &v), 1);
		exec_seen |= v == b.seg[i].vaddr;
	}
	assert_true(exec_seen);
	assert_int_equal(sym_binary_vaddr(&b, 1ull << 40, &v), 0);
	leaf = by_name(&b, "leaf");
	assert_non_null(leaf);
	/* the first segment (the executable one) holds leaf's bytes */
	assert_int_equal(sym_binary_vaddr(&b, leaf->start - b.seg[0].vaddr + b.seg[0].offset, &v), 1);
	assert_int_equal(v, leaf->start);
	sym_binary_fini(&b);
}

/* A debug file's zlib-compressed DWARF (objcopy --compress-debug-sections)
 * inflated into a copy in memory (symbols/inflated.c): each debug section
 * of the copy is the uncompressed program's, byte for byte; a file with
 * nothing compressed, and one that is no ELF, get no copy. */
static void test_inflated_copy(void **state)
{
	static const char *const sections[] = { ".debug_info", ".debug_abbrev", ".debug_line",
						 ".debug_str" };
	const char *path = sample("PEO_SYM_SAMPLE");
	char dir[256], file[300], buf[1 << 16];
	int fd, copy, out;
	ssize_t n;
	off_t at = 0;

	(void)state;
	if (!path)
		PEO_SKIP("the sample program was not built");
	if (!sym_inflated_available())
		PEO_SKIP("peo was built without libdeflate or elfutils: libdw inflates debug "
			 "sections itself");
	if (!have_tool("objcopy"))
		PEO_SKIP("objcopy (binutils) is not installed");
	scratch(dir, sizeof(dir));
	sh("objcopy --compress-debug-sections=zlib '%s' '%s/z'", path, dir);
	sh("readelf -SW '%s/z' | grep -q '\\.debug_info .* C '", dir); /* compressed indeed */
	snprintf(file, sizeof(file), "%s/z", dir);
	assert_true((fd = open(file, O_RDONLY)) >= 0);
	copy = sym_inflated_copy(fd, NULL);
	close(fd);
	assert_true(copy >= 0);
	snprintf(file, sizeof(file), "%s/copy", dir);
	assert_true((out = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0);
	while ((n = pread(copy, buf, sizeof(buf), at)) > 0) {
		assert_int_equal(write(out, buf, (size_t)n), n);
		at += n;
	}
	close(out);
	close(copy);
	sh("! readelf -SW '%s/copy' | grep -q '\\.debug.* C '", dir); /* none left compressed */
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		sh("objcopy --dump-section %s='%s/want' '%s' '%s/junk'", sections[i], dir, path, dir);
		sh("objcopy --dump-section %s='%s/got' '%s/copy' '%s/junk'", sections[i], dir, dir, dir);
		sh("cmp '%s/want' '%s/got'", dir, dir);
	}
	/* nothing to inflate; not ELF */
	assert_true((fd = open(path, O_RDONLY)) >= 0);
	assert_int_equal(sym_inflated_copy(fd, NULL), -1);
	close(fd);
	assert_true((fd = open("/proc/self/status", O_RDONLY)) >= 0);
	assert_int_equal(sym_inflated_copy(fd, NULL), -1);
	close(fd);
	sh("rm -rf '%s'", dir);
}

/* The same file: @a and @b are one inode. */
static int same_inode(int a, int b)
{
	struct stat sa, sb;

	return !fstat(a, &sa) && !fstat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* With a cache directory (symbols/inflated.c): the first copy is written
 * there under the file's build id (directories made), the next run reads
 * that very file, one of the wrong size (a copy cut short) is replaced,
 * and a cache that cannot be written still gives a copy in memory. */
static void test_inflated_cache(void **state)
{
	const char *path = sample("PEO_SYM_SAMPLE");
	char dir[256], z[300], cache[300], cached[400], hex[41];
	uint8_t id[20];
	size_t id_len;
	struct stat st, first;
	int fd, a, b, c, d;

	(void)state;
	if (!path)
		PEO_SKIP("the sample program was not built");
	if (!sym_inflated_available())
		PEO_SKIP("peo was built without libdeflate or elfutils: nothing is inflated");
	if (!have_tool("objcopy"))
		PEO_SKIP("objcopy (binutils) is not installed");
	scratch(dir, sizeof(dir));
	sh("objcopy --compress-debug-sections=zlib '%s' '%s/z'", path, dir);
	snprintf(z, sizeof(z), "%s/z", dir);
	if (peo_elf_build_id(z, id, &id_len))
		PEO_SKIP("the sample program has no build id (linked without --build-id)");
	for (size_t i = 0; i < id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	snprintf(cache, sizeof(cache), "%s/cache/made/here", dir);
	snprintf(cached, sizeof(cached), "%s/%.2s/%s.debug", cache, hex, hex + 2);
	assert_true((fd = open(z, O_RDONLY)) >= 0);

	assert_true((a = sym_inflated_copy(fd, cache)) >= 0);
	assert_int_equal(stat(cached, &first), 0);
	assert_true((c = open(cached, O_RDONLY)) >= 0);
	assert_true(same_inode(a, c)); /* the copy read is the one linked */
	close(c);
	sh("! readelf -SW '%s' | grep -q '\\.debug.* C '", cached);
	sh("objcopy --dump-section .debug_info='%s/want' '%s' '%s/junk'", dir, path, dir);
	sh("objcopy --dump-section .debug_info='%s/got' '%s' '%s/junk'", dir, cached, dir);
	sh("cmp '%s/want' '%s/got'", dir, dir);

	assert_true((b = sym_inflated_copy(fd, cache)) >= 0);
	assert_true(same_inode(a, b)); /* read as it is, not written again */

	assert_int_equal(truncate(cached, 100), 0);
	assert_true((c = sym_inflated_copy(fd, cache)) >= 0);
	assert_false(same_inode(a, c));
	assert_int_equal(stat(cached, &st), 0);
	assert_int_equal(st.st_size, first.st_size); /* whole again */
	sh("objcopy --dump-section .debug_info='%s/got' '%s' '%s/junk'", dir, cached, dir);
	sh("cmp '%s/want' '%s/got'", dir, dir);

	/* a cache under a file: no directory can be made there */
	snprintf(cache, sizeof(cache), "%s/z/cache", dir);
	assert_true((d = sym_inflated_copy(fd, cache)) >= 0);
	assert_int_equal(fstat(d, &st), 0);
	assert_int_equal(st.st_size, first.st_size);
	close(a);
	close(b);
	close(c);
	close(d);
	close(fd);
	sh("rm -rf '%s'", dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nm_functions_c),
		cmocka_unit_test(test_nm_functions_cxx),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_plt),
		cmocka_unit_test(test_demangle),
		cmocka_unit_test(test_cxx_names),
		cmocka_unit_test(test_stripped_with_debug_file),
		cmocka_unit_test(test_minidebuginfo),
		cmocka_unit_test(test_build_id),
		cmocka_unit_test(test_vdso),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_vaddr),
		cmocka_unit_test(test_inflated_copy),
		cmocka_unit_test(test_inflated_cache),
	};

	return PEO_TEST_MAIN("sym_elf", tests);
}
