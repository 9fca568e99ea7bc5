/*
 * json_out.h - for the tests of peo script --json's pieces (tools/
 * script_json_*.c): an output buffer to put into, then its text.
 */
#ifndef PEO_TESTS_JSON_OUT_H
#define PEO_TESTS_JSON_OUT_H

#include <stdlib.h>
#include <string.h>

#include "script/out.h"

/* A growing buffer (its 256 KiB struct on the heap, not the test's stack). */
static inline struct out *json_out_new(void)
{
	struct out *o = malloc(sizeof(*o));

	assert_non_null(o);
	assert_int_equal(out_init_growing(o, 4096), 0);
	return o;
}

/* @o's text, NUL-terminated, for the caller to free; @o is freed. */
static inline char *json_out_text(struct out *o)
{
	char *text;

	assert_false(o->failed);
	text = strndup(o->buf, o->n);
	assert_non_null(text);
	out_free_growing(o);
	free(o);
	return text;
}

/* @o's text is @want; @o is freed. */
static inline void json_out_expect(struct out *o, const char *want)
{
	char *got = json_out_text(o);

	assert_string_equal(got, want);
	free(got);
}

#endif
