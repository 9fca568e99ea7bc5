/*
 * test_sym_srcline.c - peo_processes_srclines(): this test's own code,
 * symbolized live, names the lines it is at.  srcline_sample.h marks them:
 * a function defined in the header is at the header's lines (where perf
 * 6.1's addr2line names the .c file), and a function inlined into its
 * caller gives the line in it and the line of the call.
 * peo_processes_binary_srclines() answers the same by binary and offset,
 * from another thread while the model's owner looks up.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <peo/peo.h>

#include "test_util.h"

#include "srcline_sample.h"

void *srcline_noted;
static volatile long sink;

__attribute__((noinline)) void srcline_note(void)
{
	srcline_noted = __builtin_return_address(0);
	sink++;
}

enum { CALL_LINE = __LINE__ + 3 };
__attribute__((noinline)) static long outer(long x)
{
	return hdr_inlined(x) + 1;
}

/* The base name of @path. */
static const char *base(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path;
}

/* A model of this process, or a skip when peo reads no debug information. */
static struct peo_processes *self_model(void)
{
	struct peo_processes *p;

	assert_int_equal(peo_processes_new(&p, NULL, NULL), 0);
	assert_int_equal(peo_processes_add_live(p, getpid()), 0);
	return p;
}

/* Code defined in a header is at the header's lines. */
static void a_header_function(void **state)
{
	struct peo_processes *p = self_model();
	struct peo_srcline pl[4];
	uint64_t addr = (uint64_t)(uintptr_t)&hdr_spin + 8;
	int n;

	(void)state;
	sink += hdr_spin(10);
	n = peo_processes_srclines(p, (uint32_t)getpid(), addr, pl, 4);
	if (n == -ENOTSUP) {
		peo_processes_free(p);
		PEO_SKIP("peo was built without elfutils: %s", peo_last_error());
	}
	assert_int_equal(n, 1);
	assert_non_null(pl[0].file);
	assert_string_equal(base(pl[0].file), "srcline_sample.h");
	assert_true(pl[0].line > HDR_SPIN_FIRST && pl[0].line < HDR_SPIN_LAST);
	peo_processes_free(p);
}

/* An inlined function: the line in it, then the line of the call. */
static void an_inlined_function(void **state)
{
	struct peo_processes *p;
	struct peo_srcline pl[4];
	const char *names[4];
	uint64_t at;
	int n;

	(void)state;
	sink += outer(1);
	at = (uint64_t)(uintptr_t)srcline_noted - 1; /* in the call */
	p = self_model();
	n = peo_processes_srclines(p, (uint32_t)getpid(), at, pl, 4);
	if (n == -ENOTSUP) {
		peo_processes_free(p);
		PEO_SKIP("peo was built without elfutils: %s", peo_last_error());
	}
	assert_int_equal(n, 2);
	assert_string_equal(base(pl[0].file), "srcline_sample.h");
	assert_int_equal(pl[0].line, HDR_NOTE_LINE);
	assert_string_equal(base(pl[1].file), "test_sym_srcline.c");
	assert_int_equal(pl[1].line, CALL_LINE);
	assert_int_equal(peo_processes_inlines(p, (uint32_t)getpid(), at, names, 4), 1);
	assert_string_equal(names[0], "hdr_inlined");
	/* room for fewer: as many as there is room for */
	assert_int_equal(peo_processes_srclines(p, (uint32_t)getpid(), at, pl, 1), 1);
	assert_string_equal(base(pl[0].file), "srcline_sample.h");
	peo_processes_free(p);
}

struct by_binary {
	struct peo_processes *p;
	struct peo_frame fr;
	struct peo_srcline pl[4];
	int n;
};

static void *look_up_by_binary(void *arg)
{
	struct by_binary *b = arg;

	for (int i = 0; i < 200; i++)
		b->n = peo_processes_binary_srclines(b->p, b->fr.dso, b->fr.dso_offset, b->pl, 4);
	return NULL;
}

/* By the binary and offset a lookup names, on another thread while the
 * owner looks up: the same places. */
static void by_binary_and_offset(void **state)
{
	struct by_binary b = { .fr = { .sz = sizeof(b.fr) } };
	struct peo_srcline own[4];
	const char *names[4];
	pthread_t t;
	uint64_t at;

	(void)state;
	sink += outer(2);
	at = (uint64_t)(uintptr_t)srcline_noted - 1;
	b.p = self_model();
	assert_int_equal(peo_processes_lookup(b.p, (uint32_t)getpid(), PEO_RECORD_MISC_USER, at, 0,
					      &b.fr), 1);
	assert_non_null(b.fr.dso);
	assert_int_equal(pthread_create(&t, NULL, look_up_by_binary, &b), 0);
	for (int i = 0; i < 200; i++) {
		assert_true(peo_processes_srclines(b.p, (uint32_t)getpid(), at, own, 4) >= 0);
		assert_true(peo_processes_inlines(b.p, (uint32_t)getpid(), at, names, 4) >= 0);
	}
	assert_int_equal(pthread_join(t, NULL), 0);
	if (b.n == -ENOTSUP) {
		peo_processes_free(b.p);
		PEO_SKIP("peo was built without elfutils: %s", peo_last_error());
	}
	assert_int_equal(b.n, 2);
	assert_string_equal(base(b.pl[0].file), "srcline_sample.h");
	assert_int_equal(b.pl[0].line, HDR_NOTE_LINE);
	assert_string_equal(base(b.pl[1].file), "test_sym_srcline.c");
	assert_int_equal(b.pl[1].line, CALL_LINE);
	/* nothing known: a binary that is not there, an offset past the file */
	assert_int_equal(peo_processes_binary_srclines(b.p, "/nonexistent/peo-test", 0x1000, b.pl, 4),
			 0);
	assert_int_equal(peo_processes_binary_srclines(b.p, b.fr.dso, 1ull << 40, b.pl, 4), 0);
	assert_int_equal(peo_processes_binary_srclines(NULL, b.fr.dso, 0, b.pl, 4), -EINVAL);
	assert_int_equal(peo_processes_binary_srclines(b.p, NULL, 0, b.pl, 4), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "dso"));
	assert_int_equal(peo_processes_binary_srclines(b.p, b.fr.dso, 0, NULL, 4), -EINVAL);
	peo_processes_free(b.p);
}

/* Nothing known: no line, no crash; bad arguments refused. */
static void nothing_known(void **state)
{
	struct peo_processes *p = self_model();
	struct peo_srcline pl[4];
	uint64_t vdso = getauxval(AT_SYSINFO_EHDR);

	(void)state;
	assert_int_equal(peo_processes_srclines(p, (uint32_t)getpid(), 0x10, pl, 4), 0);
	if (vdso) /* the vdso has no debug information */
		assert_true(peo_processes_srclines(p, (uint32_t)getpid(), vdso + 0x800, pl, 4) <= 0);
	assert_int_equal(peo_processes_srclines(NULL, 1, 0x1000, pl, 4), -EINVAL);
	assert_int_equal(peo_processes_srclines(p, 1, 0x1000, NULL, 4), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "lines"));
	assert_int_equal(peo_processes_srclines(p, (uint32_t)getpid(), 0x10, NULL, 0), 0);
	peo_processes_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_header_function),
		cmocka_unit_test(an_inlined_function),
		cmocka_unit_test(by_binary_and_offset),
		cmocka_unit_test(nothing_known),
	};

	return PEO_TEST_MAIN("sym_srcline", tests);
}
