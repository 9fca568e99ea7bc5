/*
 * test_sym_kernel.c - the kernel's symbols from kallsyms files
 * (symbols/kernel.c): made-up files in a temporary folder (modules with
 * and without a modules list, aliases, types perf drops, hidden
 * addresses, malformed lines, a file of 200,000 lines), the live
 * /proc/kallsyms, and a reader without the right to see addresses; a
 * vmlinux named through peo_symbols (this test's own file: relocated by
 * the recording's kernel map; another build id than the recorded; not
 * ELF; stripped); the kernel and this file read ahead by
 * peo_symbols_preload() while another thread looks them up.
 * tests/sym_kernel_compare.sh checks the same code against perf script.
 */
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

#include "symbols/binary.h"
#include "symbols/kernel.h"

#include <peo/peo.h>

static char dir[] = "/tmp/peo-test-sym-kernel-XXXXXX";

static int make_dir(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

/* Write @text to DIR/@name; returns the path (static buffer). */
static const char *write_file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* "sym+0xoff (dso)" as perf script prints a kernel frame, or the [unknown]s. */
static const char *frame(const struct sym_kernel *k, uint64_t addr)
{
	static char out[256];
	const struct sym_kpart *part = sym_kernel_part(k, addr);
	const struct sym_entry *e = part ? sym_table_find(&part->syms, addr) : NULL;

	if (e)
		snprintf(out, sizeof(out), "%s+0x%llx (%s)", sym_name(&part->syms, e),
			 (unsigned long long)(addr - e->start), part->name);
	else
		snprintf(out, sizeof(out), "[unknown] (%s)", part ? part->name : "[unknown]");
	return out;
}

static const char synthetic[] =
	"ffffffff81000000 T srso_alias_untrain_ret\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 t __pfx_foo\n"
	"ffffffff81000110 T foo\n"
	"ffffffff81000200 r a_read_only_thing\n"
	"ffffffff81000240 A an_absolute_one\n"
	"ffffffff81000300 T strong_global_name\n"
	"ffffffff81000300 W __weak_a\n"
	"ffffffff81000400 W weak_b\n"
	"ffffffff81000400 t b\n"
	"ffffffff81000500 d some_data\n"
	"ffffffff81000600 T _etext\n"
	"ffffffff81000700 t an_init_function\n"
	"ffffffffc0001000 t m1_a\t[mod_one]\n"
	"ffffffffc0001040 t m1_b\t[mod_one]\n"
	"ffffffffc0002000 T m2_a\t[mod_two]\n"
	"ffffffffc0003000 t $x\t[mod_two]\n"
	"ffffffffc0004000 t ftrace_trampoline\t[__builtin__ftrace]\n";

static void check_kernel_part(const struct sym_kernel *k)
{
	assert_string_equal(k->parts[0].name, "[kernel.kallsyms]");
	/* from _text up to the first module, as perf stretches its kernel map */
	assert_int_equal(k->parts[0].start, 0xffffffff81000000ull);
	assert_int_equal(k->parts[0].end, 0xffffffffc0001000ull);
	/* of the lines at one address the last (perf ends them first) */
	assert_string_equal(frame(k, 0xffffffff81000000ull), "_text+0x0 ([kernel.kallsyms])");
	assert_string_equal(frame(k, 0xffffffff81000301ull), "__weak_a+0x1 ([kernel.kallsyms])");
	assert_string_equal(frame(k, 0xffffffff81000401ull), "b+0x1 ([kernel.kallsyms])");
	/* __pfx_ padding is named; r and A lines are not symbols to perf */
	assert_string_equal(frame(k, 0xffffffff81000105ull), "__pfx_foo+0x5 ([kernel.kallsyms])");
	assert_string_equal(frame(k, 0xffffffff81000250ull), "foo+0x140 ([kernel.kallsyms])");
	assert_string_equal(frame(k, 0xffffffff81000550ull), "some_data+0x50 ([kernel.kallsyms])");
	/* past _etext: still the kernel's (init text) */
	assert_string_equal(frame(k, 0xffffffff81000700ull),
			    "an_init_function+0x0 ([kernel.kallsyms])");
	assert_string_equal(frame(k, 0xffffffff80000000ull), "[unknown] ([unknown])");
}

/* No modules list beside the file: each module spans its symbols. */
static void test_modules_by_symbols(void **state)
{
	struct sym_kernel k;

	(void)state;
	assert_int_equal(sym_kernel_load(write_file("plain", synthetic), &k), 0);
	assert_null(k.hidden);
	assert_int_equal(k.nparts, 4);
	check_kernel_part(&k);
	assert_string_equal(k.parts[1].name, "[mod_one]");
	assert_string_equal(k.parts[2].name, "[mod_two]");
	assert_string_equal(k.parts[3].name, "[__builtin__ftrace]");
	/* a module's last symbol ends at the next module's first */
	assert_int_equal(k.parts[1].start, 0xffffffffc0001000ull);
	assert_int_equal(k.parts[1].end, 0xffffffffc0002000ull);
	assert_string_equal(frame(&k, 0xffffffffc0001fffull), "m1_b+0xfbf ([mod_one])");
	/* ARM's $ labels are dropped */
	assert_string_equal(frame(&k, 0xffffffffc0003004ull), "m2_a+0x1004 ([mod_two])");
	/* the last one: the end of the page after its own */
	assert_int_equal(k.parts[3].end, 0xffffffffc0005000ull);
	assert_string_equal(frame(&k, 0xffffffffc0004fffull),
			    "ftrace_trampoline+0xfff ([__builtin__ftrace])");
	assert_string_equal(frame(&k, 0xffffffffc0005000ull), "[unknown] ([unknown])");
	sym_kernel_fini(&k);
}

/* A modules list beside the file (as perf's build-id cache keeps one):
 * the modules' ranges are its, and a module it does not name is dropped. */
static void test_modules_listed(void **state)
{
	struct sym_kernel k;
	char path[256];

	(void)state;
	assert_int_equal(mkdir(strcat(strcpy(path, dir), "/cache"), 0755), 0);
	write_file("cache/modules", "mod_one 4096 0 - Live 0xffffffffc0001000\n"
				    "mod_two 12288 1 mod_one, Live 0xffffffffc0002000 (OE)\n");
	strcpy(path, write_file("cache/kallsyms", synthetic));
	assert_int_equal(sym_kernel_load(path, &k), 0);
	assert_int_equal(k.nparts, 3);
	check_kernel_part(&k);
	assert_string_equal(k.parts[2].name, "[mod_two]");
	assert_int_equal(k.parts[2].start, 0xffffffffc0002000ull);
	assert_int_equal(k.parts[2].end, 0xffffffffc0005000ull);
	/* m2_a ends where the dropped module's symbol starts, as in perf */
	assert_string_equal(frame(&k, 0xffffffffc0003fffull), "m2_a+0x1fff ([mod_two])");
	/* inside the module, past its symbols */
	assert_string_equal(frame(&k, 0xffffffffc0004800ull), "[unknown] ([mod_two])");
	assert_string_equal(frame(&k, 0xffffffffc0005000ull), "[unknown] ([unknown])");
	/* the ranges a recording gives */
	assert_int_equal(sym_kernel_set_range(&k, "[mod_two]", 0xffffffffc0002000ull,
					      0xffffffffc0003000ull), 0);
	assert_string_equal(frame(&k, 0xffffffffc0003000ull), "[unknown] ([unknown])");
	assert_int_equal(sym_kernel_set_range(&k, "[mod_one]", 0xffffffffc0006000ull,
					      0xffffffffc0007000ull), 0);
	assert_string_equal(k.parts[1].name, "[mod_two]"); /* sorted again */
	/* a range without its symbols: kallsyms gives them where they are */
	assert_string_equal(frame(&k, 0xffffffffc0006010ull), "[unknown] ([mod_one])");
	/* where mod_one was: the kernel's map now stretches to mod_two */
	assert_string_equal(frame(&k, 0xffffffffc0001000ull), "[unknown] ([kernel.kallsyms])");
	assert_int_equal(sym_kernel_set_range(&k, "[kernel.kallsyms]", 0xffffffff81000000ull,
					      0xffffffff81000800ull), 0);
	assert_string_equal(frame(&k, 0xffffffff81000700ull),
			    "an_init_function+0x0 ([kernel.kallsyms])");
	assert_int_equal(sym_kernel_set_range(&k, "[mod_three]", 1, 2), -ENOENT);
	assert_error_contains("[mod_three]");
	sym_kernel_fini(&k);
}

static void test_hidden_file(void **state)
{
	struct sym_kernel k;
	const char *path;

	(void)state;
	path = write_file("zeros", "0000000000000000 T _stext\n"
				   "0000000000000000 t foo\n"
				   "0000000000000000 t bar\t[mod]\n");
	assert_int_equal(sym_kernel_load(path, &k), 0);
	assert_int_equal(k.nparts, 0);
	assert_null(sym_kernel_part(&k, 0));
	assert_non_null(k.hidden);
	assert_non_null(strstr(k.hidden, path));
	assert_non_null(strstr(k.hidden, "every kernel address as 0"));
	assert_non_null(strstr(k.hidden, "as root"));
	sym_kernel_fini(&k);
}

static void test_malformed(void **state)
{
	static const char *bad[] = {
		"ffffffff8100zz00 T x\n",       /* not hex */
		"ffffffff81000000 T\n",         /* no name */
		"ffffffff81000000  T x\n",      /* two spaces */
		"ffffffff81000000 TT x\n",      /* a type of two letters */
		"ffffffff81000000 T x y\n",     /* two names */
		"ffffffff81000000 t x\t[mod\n", /* no closing bracket */
		"ffffffff81000000 t x\t[]\n",   /* no module name */
		"1ffffffff81000000 T x\n",      /* 17 digits */
		"\n",                           /* empty */
	};
	char text[256], want[300];
	const char *path;
	struct sym_kernel k;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "ffffffff81000000 T _text\nffffffff81000010 t y\n%s", bad[i]);
		path = write_file("bad", text);
		assert_int_equal(sym_kernel_load(path, &k), -EINVAL);
		snprintf(want, sizeof(want), "%s:3:", path);
		assert_error_contains(want);
		assert_null(k.parts);
	}
	/* a line longer than any kallsyms writes, in the middle of a file
	 * read in several pieces and as its last line */
	for (int last = 0; last < 2; last++) {
		FILE *f;

		snprintf(want, sizeof(want), "%s/long", dir);
		assert_non_null(f = fopen(want, "w"));
		for (unsigned i = 0; i < 30000; i++)
			fprintf(f, "%016llx t f%u\n", 0xffffffff81000000ull + 16 * i, i);
		fprintf(f, "ffffffff82000000 t ");
		for (int i = 0; i < 5000; i++)
			fputc('x', f);
		fputc('\n', f);
		for (unsigned i = 0; !last && i < 30000; i++)
			fprintf(f, "%016llx t g%u\n", 0xffffffff83000000ull + 16 * i, i);
		assert_int_equal(fclose(f), 0);
		assert_int_equal(sym_kernel_load(want, &k), -EINVAL);
		assert_error_contains(":30001: not a kallsyms line");
	}
	assert_int_equal(sym_kernel_load("/nonexistent/kallsyms", &k), -ENOENT);
	assert_error_contains("/nonexistent/kallsyms");
}

/* As many lines as a big machine's kallsyms (200,000: 190,000 of the
 * kernel's, 10,000 in 50 modules), in the kernel's order. */
static void test_big(void **state)
{
	char path[256];
	struct sym_kernel k;
	size_t n = 0;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/big", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "ffffffff81000000 T _text\n");
	for (unsigned i = 1; i < 190000; i++)
		fprintf(f, "%016llx %c kernel_function_%u\n", 0xffffffff81000000ull + 0x40ull * i,
			i % 3 ? 't' : 'T', i);
	for (unsigned i = 0; i < 10000; i++)
		fprintf(f, "%016llx t module_function_%u\t[module_%u]\n",
			0xffffffffc0000000ull + 0x100000ull * (i / 200) + 0x40ull * (i % 200), i, i / 200);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(sym_kernel_load(path, &k), 0);
	assert_int_equal(k.nparts, 51);
	for (size_t i = 0; i < k.nparts; i++)
		n += k.parts[i].syms.n;
	assert_int_equal(n, 200000);
	assert_string_equal(frame(&k, 0xffffffff81000000ull + 0x40ull * 123456 + 7),
			    "kernel_function_123456+0x7 ([kernel.kallsyms])");
	assert_string_equal(frame(&k, 0xffffffffc0000000ull + 0x100000ull * 49 + 0x40ull * 199 + 1),
			    "module_function_9999+0x1 ([module_49])");
	sym_kernel_fini(&k);
}

/* The first function line of @path (its address and name), or 0. */
static uint64_t first_text(const char *path, char *name, size_t cap)
{
	char line[600], type;
	unsigned long long addr = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char sym[520];

		if (sscanf(line, "%llx %c %519s", &addr, &type, sym) == 3 && (type == 'T' || type == 't') &&
		    !strchr(line, '[') && !strcmp(sym, "_text")) {
			snprintf(name, cap, "%s", sym);
			break;
		}
		addr = 0;
	}
	fclose(f);
	return addr;
}

static void test_live(void **state)
{
	struct sym_kernel k;
	char name[520];
	uint64_t text;
	int err;

	(void)state;
	if (access("/proc/kallsyms", R_OK))
		PEO_SKIP("/proc/kallsyms is not readable here: %s", strerror(errno));
	err = sym_kernel_load(NULL, &k);
	assert_int_equal(err, 0);
	if (k.hidden) {
		char why[600];

		snprintf(why, sizeof(why), "%s", k.hidden);
		sym_kernel_fini(&k);
		PEO_SKIP("%s", why);
	}
	text = first_text("/proc/kallsyms", name, sizeof(name));
	if (!text) {
		sym_kernel_fini(&k);
		PEO_SKIP("/proc/kallsyms has no _text line");
	}
	assert_true(k.nparts >= 1);
	assert_int_equal(k.parts[0].start, text);
	assert_true(k.parts[0].end > text);
	assert_ptr_equal(sym_kernel_part(&k, text), &k.parts[0]);
	assert_non_null(sym_table_find(&k.parts[0].syms, text));
	assert_true(k.parts[0].syms.n > 1000);
	sym_kernel_fini(&k);
}

/* A reader that may not see the kernel's addresses (user nobody): no
 * symbols, and a sentence naming the sysctls. */
static void test_hidden_live(void **state)
{
	pid_t pid;
	int status;

	(void)state;
	if (geteuid())
		PEO_SKIP("not root: cannot become user nobody to read /proc/kallsyms as one");
	if (access("/proc/kallsyms", R_OK))
		PEO_SKIP("/proc/kallsyms is not readable here");
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct sym_kernel k;
		char line[100] = "";
		FILE *f;
		int zero;

		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(3);
		f = fopen("/proc/kallsyms", "r");
		if (!f || !fgets(line, sizeof(line), f))
			_exit(4);
		fclose(f);
		zero = !strncmp(line, "0000000000000000 ", 17);
		if (sym_kernel_load(NULL, &k))
			_exit(5);
		if (zero && !(k.hidden && !k.nparts && strstr(k.hidden, "/proc/kallsyms") &&
			      strstr(k.hidden, "kernel.kptr_restrict")))
			_exit(6);
		if (!zero && k.hidden)
			_exit(7);
		if (k.hidden)
			fprintf(stderr, "as nobody: %s\n", k.hidden);
		sym_kernel_fini(&k);
		_exit(zero ? 0 : 2);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 3)
		PEO_SKIP("cannot become user nobody (65534)");
	if (WEXITSTATUS(status) == 2)
		PEO_SKIP("user nobody sees the kernel's addresses here (perf_event_paranoid <= 1)");
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* A vmlinux named to a peo_symbols (with @id, of @len bytes, as the
 * recorded kernel's build id when @len), its kernel read by a lookup of
 * @addr; *@out the frame.  Returns the processes (free them, then their
 * symbols). */
static struct peo_processes *with_vmlinux(const char *vmlinux, const uint8_t *id, size_t len,
					  const struct peo_record *map, uint64_t addr,
					  struct peo_frame *out)
{
	PEO_OPTS(peo_symbols_opts, so, .vmlinux = vmlinux);
	struct peo_symbols *s;
	struct peo_processes *p;

	assert_int_equal(peo_symbols_new(&s, &so), 0);
	if (len)
		assert_int_equal(peo_symbols_add_build_id(s, "[kernel.kallsyms]", id, len), 0);
	assert_int_equal(peo_processes_new(&p, s, NULL), 0);
	if (map)
		assert_int_equal(peo_processes_add_record(p, map), 0);
	out->sz = sizeof(*out);
	assert_true(peo_processes_lookup(p, 0, PEO_RECORD_MISC_KERNEL, addr, 0, out) >= 0);
	return p;
}

static void free_processes(struct peo_processes *p)
{
	struct peo_symbols *s = peo_processes_symbols(p);

	peo_processes_free(p);
	peo_symbols_free(s);
}

/* The one note of @p's symbols (there must be one). */
static const char *one_note(struct peo_processes *p)
{
	const char *note = NULL;

	assert_int_equal(peo_symbols_notes(peo_processes_symbols(p), &note, 1), 1);
	fprintf(stderr, "note: %s\n", note);
	return note;
}

/* This test's own file, an ELF with symbols, as a vmlinux. */
static const char *own_file(void)
{
	static char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	assert_true(n > 0);
	path[n] = '\0';
	return path;
}

/* A vmlinux whose build id is not the recorded kernel's: one note naming
 * the file and both ids, and the kernel's symbols from kallsyms. */
static void test_vmlinux_other_build_id(void **state)
{
	static const uint8_t id[20] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
					0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, 0x12, 0x34, 0x56, 0x78 };
	const char *file = own_file(), *note;
	struct peo_frame f;
	struct peo_processes *p;

	(void)state;
	p = with_vmlinux(file, id, sizeof(id), NULL, 0xffffffff81000000ull, &f);
	note = one_note(p);
	assert_non_null(strstr(note, file));
	assert_non_null(strstr(note, " has build id "));
	assert_non_null(strstr(note, "not the recorded kernel's 112233445566778899aabbccddeeff0012345678"));
	assert_non_null(strstr(note, "the kernel's symbols come from"));
	free_processes(p);
}

/* A vmlinux that is not ELF, or has no symbols: a note naming it. */
static void test_vmlinux_unusable(void **state)
{
	char stripped[300], cmd[4500];
	const char *text = write_file("vmlinux.txt", "not an ELF file\n"), *note;
	struct peo_frame f;
	struct peo_processes *p;

	(void)state;
	p = with_vmlinux(text, NULL, 0, NULL, 0xffffffff81000000ull, &f);
	note = one_note(p);
	assert_non_null(strstr(note, text));
	assert_non_null(strstr(note, "not a readable ELF file"));
	free_processes(p);

	snprintf(stripped, sizeof(stripped), "%s/stripped", dir);
	/* its dynamic symbols too (a sanitizer's build exports many) */
	snprintf(cmd, sizeof(cmd), "objcopy --strip-all -R .dynsym -R .dynstr -R .gnu.hash -R .hash "
		 "-R .gnu.version '%s' '%s' 2>/dev/null", own_file(), stripped);
	if (system(cmd))
		PEO_SKIP("objcopy --strip-all failed (binutils missing?): no stripped ELF to try");
	p = with_vmlinux(stripped, NULL, 0, NULL, 0xffffffff81000000ull, &f);
	note = one_note(p);
	assert_non_null(strstr(note, stripped));
	assert_non_null(strstr(note, "has no symbols in a .text section"));
	free_processes(p);
}

/* Two functions of this file, read as a vmlinux's, the recording's kernel
 * map saying where the first was (its pgoff, as [kernel.kallsyms]_text's
 * gives _text's): every address moved by the same offset (KASLR). */
void vmlinux_ref(void);
void vmlinux_probe(void);
__attribute__((noinline)) void vmlinux_ref(void)
{
	__asm__ volatile("");
}
__attribute__((noinline)) void vmlinux_probe(void)
{
	__asm__ volatile("");
}

static void test_vmlinux_relocated(void **state)
{
	const uint64_t ran_at = 0xffffffff9a000000ull; /* where "the kernel" ran */
	uint64_t probe = ran_at + (uint64_t)((uintptr_t)vmlinux_probe - (uintptr_t)vmlinux_ref);
	struct peo_record map = { .sz = sizeof(map) };
	struct peo_frame f;
	struct peo_processes *p;

	(void)state;
	map.header.type = PEO_RECORD_MMAP;
	map.header.misc = PEO_RECORD_MISC_KERNEL;
	map.u.mmap = (struct peo_rec_mmap){ .pid = (uint32_t)-1, .addr = ran_at, .len = 1 << 20,
					    .pgoff = ran_at,
					    .filename = "[kernel.kallsyms]vmlinux_ref" };
	p = with_vmlinux(own_file(), NULL, 0, &map, probe, &f);
	assert_int_equal(peo_symbols_notes(peo_processes_symbols(p), NULL, 0), 0);
	assert_non_null(f.sym);
	assert_string_equal(f.sym, "vmlinux_probe");
	assert_int_equal(f.symoff, 0);
	assert_string_equal(f.dso, "[kernel.kallsyms]");
	assert_true(f.flags & PEO_FRAME_KERNEL);
	free_processes(p);
}

struct preload_run {
	struct peo_symbols *s;
	unsigned what;
	int err;
};

static void *preload_thread(void *arg)
{
	struct preload_run *r = arg;

	r->err = peo_symbols_preload(r->s, r->what);
	return NULL;
}

/* peo_symbols_preload(): the kernel read ahead, before the recording's
 * kernel map is fed, which the first lookup still applies (no note); this
 * file's own symbols read ahead by its build id on another thread while
 * this one looks up the kernel and this file, each lookup the same as
 * without the preload.  Bad arguments refused. */
static void test_preload(void **state)
{
	PEO_OPTS(peo_symbols_opts, so, .kallsyms = write_file("preload", synthetic));
	struct peo_record map = { .sz = sizeof(map) };
	struct sym_load how = { .path = own_file(), .demangle = 1 };
	struct sym_binary own;
	struct preload_run run = { .what = PEO_PRELOAD_KERNEL | PEO_PRELOAD_BINARIES |
					   PEO_PRELOAD_DWARF };
	struct peo_processes *p;
	struct peo_frame f = { .sz = sizeof(f) };
	pthread_t t;

	(void)state;
	assert_int_equal(peo_symbols_new(&run.s, &so), 0);
	assert_int_equal(peo_symbols_preload(NULL, PEO_PRELOAD_KERNEL), -EINVAL);
	assert_int_equal(peo_symbols_preload(run.s, 0), -EINVAL);
	assert_error_contains("PEO_PRELOAD_BINARIES (with PEO_PRELOAD_DWARF) or both");
	assert_int_equal(peo_symbols_preload(run.s, 1u << 7), -EINVAL);
	assert_int_equal(peo_symbols_preload(run.s, PEO_PRELOAD_KERNEL | PEO_PRELOAD_DWARF), -EINVAL);
	assert_int_equal(peo_symbols_preload(run.s, PEO_PRELOAD_KERNEL), 0);

	map.header.type = PEO_RECORD_MMAP;
	map.header.misc = PEO_RECORD_MISC_KERNEL;
	map.u.mmap = (struct peo_rec_mmap){ .pid = (uint32_t)-1, .addr = 0xffffffff81000100ull,
					    .len = 0x1000, .filename = "[kernel.kallsyms]_text" };
	assert_int_equal(peo_processes_new(&p, run.s, NULL), 0);
	assert_int_equal(peo_processes_add_record(p, &map), 0);
	/* the map starts past _text: an address before it is no kernel's */
	assert_true(peo_processes_lookup(p, 0, PEO_RECORD_MISC_KERNEL, 0xffffffff81000050ull, 0, &f) >= 0);
	assert_null(f.sym);
	assert_true(peo_processes_lookup(p, 0, PEO_RECORD_MISC_KERNEL, 0xffffffff81000111ull, 0, &f) >= 0);
	assert_string_equal(f.sym, "foo");
	assert_int_equal(f.symoff, 1);
	assert_int_equal(peo_symbols_notes(run.s, NULL, 0), 0);
	peo_processes_free(p);
	peo_symbols_free(run.s);

	/* both at once, beside lookups of what is being read */
	if (sym_binary_load(&how, &own))
		PEO_SKIP("this test's own file cannot be read for symbols: %s", peo_last_error());
	if (!own.build_id_len) {
		sym_binary_fini(&own);
		PEO_SKIP("this test's own file has no build id to preload it by");
	}
	assert_int_equal(peo_symbols_new(&run.s, &so), 0);
	assert_int_equal(peo_symbols_add_build_id(run.s, own_file(), own.build_id, own.build_id_len), 0);
	sym_binary_fini(&own);
	assert_int_equal(peo_processes_new(&p, run.s, NULL), 0);
	assert_int_equal(peo_processes_add_live(p, getpid()), 0);
	assert_int_equal(pthread_create(&t, NULL, preload_thread, &run), 0);
	for (int i = 0; i < 200; i++) {
		assert_true(peo_processes_lookup(p, (uint32_t)getpid(), PEO_RECORD_MISC_USER,
						 (uintptr_t)vmlinux_probe, 0, &f) >= 0);
		assert_non_null(f.sym);
		assert_string_equal(f.sym, "vmlinux_probe");
		assert_int_equal(f.symoff, 0);
		assert_true(peo_processes_lookup(p, 0, PEO_RECORD_MISC_KERNEL, 0xffffffff81000111ull, 0,
						 &f) >= 0);
		assert_string_equal(f.sym, "foo");
	}
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(run.err, 0);
	assert_int_equal(peo_symbols_notes(run.s, NULL, 0), 0);
	peo_processes_free(p);
	peo_symbols_free(run.s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modules_by_symbols),
		cmocka_unit_test(test_modules_listed),
		cmocka_unit_test(test_hidden_file),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_big),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_hidden_live),
		cmocka_unit_test(test_vmlinux_other_build_id),
		cmocka_unit_test(test_vmlinux_unusable),
		cmocka_unit_test(test_vmlinux_relocated),
		cmocka_unit_test(test_preload),
	};
	int rc = PEO_TEST_MAIN_SETUP("sym_kernel", tests, make_dir);

	peo_test_remove_tree(dir);
	return rc;
}
