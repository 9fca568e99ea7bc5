/*
 * test_tp_prog.c - print fmt arguments compiled once (src/tracepoint/prog.c)
 * against the interpreter that reads their text for each payload
 * (src/tracepoint/expr.c): every tracepoint format this machine's tracefs has,
 * and made-up formats for what the kernel's do not reach, printed over
 * payloads of chosen and random values (fields short of the payload
 * too), in either byte order: the same text, and the same error and
 * sentence where one fails.  And the compiling pays: sched_switch's prev_state is
 * compiled.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "event_internal.h"
#include "internal.h"
#include "tracepoint/format.h"

#define PAYLOADS 40

static uint64_t next_random(uint64_t *x)
{
	*x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
	return *x;
}

/* A value for a field: small ones (table keys, flags) as often as any. */
static uint64_t field_value(uint64_t *x)
{
	uint64_t r = next_random(x);

	switch (r % 4) {
	case 0: return r >> 56;         /* 0-255 */
	case 1: return 1ull << (r % 64); /* one flag */
	case 2: return 0;
	default: return next_random(x);
	}
}

/* A payload for @f of @size bytes (its fields' worth, more, or fewer):
 * integers of chosen values, __data_loc fields at strings in the tail. */
static size_t make_payload(const struct peo_tp_format *f, unsigned char *raw, size_t cap,
			   uint64_t *x, int big, int cut)
{
	size_t end = 0, tail;

	for (size_t i = 0; i < peo_tp_format_count(f); i++) {
		const struct peo_tp_field *fld = peo_tp_format_field(f, i);

		if (fld->offset + (size_t)fld->size > end)
			end = fld->offset + (size_t)fld->size;
	}
	if (end > cap / 2)
		end = cap / 2;
	for (size_t i = 0; i < cap; i++)
		raw[i] = (unsigned char)(next_random(x) % 3 ? 'a' + next_random(x) % 26 : 0);
	tail = end;
	for (size_t i = 0; i < peo_tp_format_count(f); i++) {
		const struct peo_tp_field *fld = peo_tp_format_field(f, i);
		uint64_t v = field_value(x);
		size_t n = fld->size;

		if (fld->offset + (size_t)n > end || fld->is_text)
			continue;
		if (fld->data_loc && n == 4) { /* offset | length << 16, at a string in the tail */
			uint32_t len = (uint32_t)(next_random(x) % 24), at = (uint32_t)tail;

			if (tail + len + 1 > cap)
				continue;
			raw[tail + len] = 0;
			tail += len + 1;
			v = (fld->data_loc == 2 ? at - (fld->offset + 4) : at) | (uint64_t)(len + 1) << 16;
		}
		if (n != 1 && n != 2 && n != 4 && n != 8)
			continue;
		for (size_t k = 0; k < n; k++) /* in the payload's byte order */
			raw[fld->offset + (big ? n - 1 - k : k)] = (unsigned char)(v >> (8 * k));
	}
	if (cut) /* short: fields past the payload */
		return tail ? next_random(x) % tail : 0;
	return tail;
}

struct tally {
	size_t formats, args, compiled, prints, errors;
};

/* Print @f over PAYLOADS payloads both ways; each pair the same. */
static void same_both_ways(const struct peo_tp_format *f, const char *what, uint64_t *x,
			   struct tally *t)
{
	const struct tp_arg *args;
	size_t nargs = peo_tp_format_args(f, &args, NULL);
	static unsigned char raw[4096];
	char a[8192], b[8192], ea[1100], eb[1100];

	t->formats++;
	t->args += nargs;
	for (size_t i = 0; i < nargs; i++)
		t->compiled += args[i].prog != NULL;
	for (int i = 0; i < PAYLOADS; i++) {
		int big = i % 4 == 3, cut = i % 5 == 4;
		struct peo_record rec = { .sz = sizeof(rec), .swapped = big };
		size_t size = make_payload(f, raw, sizeof(raw), x, big, cut);
		int ga, gb;

		ga = peo_tp_format_print_as(f, &rec, raw, size, a, sizeof(a), 0);
		snprintf(ea, sizeof(ea), "%s", ga < 0 ? peo_last_error() : "");
		gb = peo_tp_format_print_as(f, &rec, raw, size, b, sizeof(b), 1);
		snprintf(eb, sizeof(eb), "%s", gb < 0 ? peo_last_error() : "");
		if (ga != gb || strcmp(a, b) || strcmp(ea, eb)) { /* a failure's text so far too */
			fprintf(stderr, "%s, payload %d (%zu bytes, %s): compiled %d '%s' %s\n"
				"  interpreted %d '%s' %s\n", what, i, size, big ? "big" : "little",
				ga, a, ea, gb, b, eb);
			fail();
		}
		t->prints++;
		t->errors += ga < 0;
	}
}

static void every_format_here_prints_the_same(void **state)
{
	const char *dir = peo_tracefs_dir(NULL);
	char path[4096];
	struct tally t = { 0 };
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	DIR *events, *sys;
	struct dirent *s, *e;

	(void)state;
	if (!dir)
		PEO_SKIP("tracefs is not mounted: no formats to compare on");
	snprintf(path, sizeof(path), "%s/events", dir);
	if (!(events = opendir(path)))
		PEO_SKIP("%s cannot be read: %m", path);
	while ((s = readdir(events))) {
		if (s->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", dir, s->d_name);
		if (!(sys = opendir(path)))
			continue;
		while ((e = readdir(sys))) {
			struct peo_tp_format *f;
			char what[600];

			if (e->d_name[0] == '.' ||
			    peo_tp_format_load(&f, NULL, s->d_name, e->d_name))
				continue;
			snprintf(what, sizeof(what), "%s:%s", s->d_name, e->d_name);
			same_both_ways(f, what, &x, &t);
			peo_tp_format_free(f);
		}
		closedir(sys);
	}
	closedir(events);
	fprintf(stderr, "  %zu formats, %zu of their %zu arguments compiled, %zu prints "
		"(%zu errors) the same both ways\n", t.formats, t.compiled, t.args, t.prints,
		t.errors);
	assert_true(t.formats > 100);
	assert_true(t.compiled > t.args / 2);
}

/* Formats the kernel's do not make: every construct and failure the
 * compiled form takes, and some it leaves to the interpreter. */
static void made_up_formats_print_the_same(void **state)
{
	static const char *const prints[] = {
		"\"%d %d %d %d\", -REC->a, ~REC->b, REC->a / REC->b, REC->a % (REC->b - REC->b)",
		"\"%d %s\", REC->b && REC->a / 0, REC->a ? \"yes\" : \"no\"",
		"\"%d %d\", REC->a || 1 / REC->zero, (u8)REC->a + (s16)REC->b",
		"\"%s\", __print_flags(REC->a, \"|\", { 1, \"A\" }, { 2, \"B\" }, { 4, \"C\" })",
		("\"%s\", __print_symbolic(REC->b, { 0, \"zero\" }, { 1, \"one\" }, "
		 "{ HRTIMER_RESTART, \"r\" }, { NO_SUCH, \"n\" }, { 1 / REC->zero, \"z\" })"),
		"\"%s\", __print_flags(REC->a, REC->b, { 1, \"A\" })",
		"\"%s\", __print_symbolic(\"x\", { 1, \"A\" })",
		"\"%s\", __print_flags(REC->a, \"|\", { 1, 7 })",
		"\"%d %d\", __builtin_expect(REC->a, 1), __builtin_expect(!!REC->b, REC->a / REC->zero)",
		"\"%d\", REC->a + \"s\"",
		"\"%c%c %d\", REC->a ? 'S' : ' ', REC->b ? ',' : '\\n', 'A' + REC->a",
		"\"%d %d\", -\"s\", jiffies + REC->a",
		"\"%s %d\", REC->name, REC->a < REC->b ? REC->a <= 3 : REC->b >= 4 == 1 != 0",
		"\"%d %d\", REC->a << 70, REC->a >> 3 ^ REC->b & 5 | 2",
		"\"%s\", REC->a ? \"\" : \"\"",
		"\"%d\", (loff_t)REC->a * (unsigned long)REC->b",
		"\"%d\", REC->missing",
		"\"%d %d %d\", REC->arr[1], REC->arr[REC->a & 7], REC->b ? 1 : REC->arr[9]",
		"\"%d %d\", REC->a[0], REC->arr[\"s\"]",
		"\"%s\", __get_str(name)",
		"\"%s %d %d\", __get_rel_str(name), __get_dynamic_array_len(name), __get_str(a)",
		"\"%d\", f(REC->a)",
		"\"%d %d\", REC->a REC->b",
		"\"%d\"",
		"\"%s\", (REC->a ? __print_flags(REC->a, \"|\", { 1, \"A\" }) : \"R\")",
		("\"%s %s\", __print_symbolic(REC->a & 3, { 1, __print_flags(REC->b, \"|\", "
		 "{ 1, \"A\" }, { 2, \"B\" }) }, { 2, \"two\" }), __print_symbolic(REC->b & 1, "
		 "{ 0, \"z\" }, { (__print_flags(REC->a, \",\", { 4, \"C\" }), 1), \"o\" })"),
		("\"%s\", __print_symbolic(__print_symbolic(REC->a & 1, { 1, \"x\" }) ? 1 : 0, "
		 "{ 1, \"one\" })"),
	};
	struct tally t = { 0 };
	uint64_t x = 12345;

	(void)state;
	for (size_t i = 0; i < sizeof(prints) / sizeof(prints[0]); i++) {
		char text[2048];
		struct peo_tp_format *f;

		snprintf(text, sizeof(text),
			 "name: made_up\nID: 1\nformat:\n"
			 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			 "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
			 "\tfield:unsigned long b;\toffset:16;\tsize:8;\tsigned:0;\n"
			 "\tfield:int zero;\toffset:24;\tsize:4;\tsigned:1;\n"
			 "\tfield:__data_loc char[] name;\toffset:28;\tsize:4;\tsigned:1;\n"
			 "\tfield:u8 arr[4];\toffset:32;\tsize:4;\tsigned:0;\n"
			 "\nprint fmt: %s\n", prints[i]);
		assert_int_equal(peo_tp_format_parse(&f, text), 0);
		same_both_ways(f, prints[i], &x, &t);
		peo_tp_format_free(f);
	}
	fprintf(stderr, "  %zu of %zu arguments compiled, %zu prints (%zu errors) the same\n",
		t.compiled, t.args, t.prints, t.errors);
	assert_true(t.compiled > 10 && t.compiled < t.args); /* and some left to the interpreter */
	assert_true(t.errors > 0 && t.errors < t.prints);
}

/* The expression that made peo script slow: compiled, whole. */
static void sched_switch_prev_state_is_compiled(void **state)
{
	static const char print[] =
		"print fmt: \"prev_state=%s%s\", (REC->prev_state & ((((0x00000000 | 0x00000001 | "
		"0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) "
		"<< 1) - 1)) ? __print_flags(REC->prev_state & ((((0x00000000 | 0x00000001 | "
		"0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) "
		"<< 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, "
		"\"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, "
		"{ 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & "
		"(((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
		"0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\"\n";
	static const struct {
		int64_t state;
		const char *text;
	} want[] = { { 0, "prev_state=R" }, { 1, "prev_state=S" }, { 2, "prev_state=D" },
		     { 0x81, "prev_state=S|I" }, { 0x100, "prev_state=R+" }, { 0x102, "prev_state=D+" } };
	char text[2048], out[256];
	struct peo_tp_format *f;
	const struct tp_arg *args;
	struct peo_record rec = { .sz = sizeof(rec) };

	(void)state;
	snprintf(text, sizeof(text), "name: sched_switch\nformat:\n"
		 "\tfield:long prev_state;\toffset:8;\tsize:8;\tsigned:1;\n\n%s", print);
	assert_int_equal(peo_tp_format_parse(&f, text), 0);
	assert_int_equal(peo_tp_format_args(f, &args, NULL), 2);
	assert_non_null(args[0].prog);
	assert_non_null(args[1].prog);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		unsigned char raw[16] = { 0 };

		memcpy(raw + 8, &want[i].state, 8);
		assert_true(peo_tp_format_print(f, &rec, raw, sizeof(raw), out, sizeof(out)) > 0);
		assert_string_equal(out, want[i].text);
	}
	peo_tp_format_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(every_format_here_prints_the_same),
		PEO_TEST(made_up_formats_print_the_same),
		PEO_TEST(sched_switch_prev_state_is_compiled),
	};

	return PEO_TEST_MAIN("tp_prog", tests);
}
