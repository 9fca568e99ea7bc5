/*
 * test_tool.c - the peo command: --version, features (table and JSON Lines),
 * and a clear error for a bad option.  Runs the built binary ($PEO_TOOL).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* Runs `peo ARGS` ($PEO_TOOL), its stdout and stderr in @out; returns its exit status. */
static int run_peo(const char *args, char *out, size_t cap)
{
	const char *tool = getenv("PEO_TOOL");
	char cmd[512];

	assert_non_null(tool);
	snprintf(cmd, sizeof(cmd), "%s %s", tool, args);
	return peo_test_run_capture(cmd, out, cap);
}

static char out[256 * 1024];

static void version_prints_the_library_version(void **state)
{
	(void)state;
	assert_int_equal(run_peo("--version", out, sizeof(out)), 0);
	assert_non_null(strstr(out, PEO_VERSION_STRING));
	assert_non_null(strstr(out, peo_version()));
}

static void features_table_shows_the_kernel_size_and_every_row(void **state)
{
	const struct peo_feature *f;
	size_t n;
	char expect[64];

	(void)state;
	assert_int_equal(peo_features_probe(&f, &n), 0);
	assert_int_equal(run_peo("features", out, sizeof(out)), 0);
	snprintf(expect, sizeof(expect), "perf_event_attr size %d, peo's is %zu", peo_kernel_attr_size(),
		 sizeof(struct peo_attr));
	assert_non_null(strstr(out, expect));
	for (size_t i = 0; i < n; i++) {
		char row[96];

		snprintf(row, sizeof(row), "  %-24s %-7s %-8s", f[i].name, f[i].since,
			 f[i].state == PEO_FEATURE_SUPPORTED ? "yes" : f[i].state == PEO_FEATURE_MISSING ? "no" : "unknown");
		if (!strstr(out, row))
			fail_msg("row missing from peo features: \"%s\"", row);
	}
}

static void features_json_is_one_object_per_line(void **state)
{
	const struct peo_feature *f;
	size_t n, lines = 0;
	char *line, *save = NULL;

	(void)state;
	assert_int_equal(peo_features_probe(&f, &n), 0);
	assert_int_equal(run_peo("features --json", out, sizeof(out)), 0);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t len = strlen(line);

		assert_true(len > 2 && line[0] == '{' && line[len - 1] == '}');
		if (lines == 0)
			assert_non_null(strstr(line, "\"attr_size\":"));
		else
			assert_non_null(strstr(line, "\"accepted\":"));
		lines++;
	}
	assert_int_equal(lines, n + 1); /* the kernel line, then one per feature */
}

static void bad_options_name_the_problem(void **state)
{
	(void)state;
	assert_int_equal(run_peo("features --bogus", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "unknown option '--bogus'"));
	assert_int_equal(run_peo("frobnicate", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "'frobnicate' is not a peo command"));
	assert_int_equal(run_peo("", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "usage: peo"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(version_prints_the_library_version),
		cmocka_unit_test(features_table_shows_the_kernel_size_and_every_row),
		cmocka_unit_test(features_json_is_one_object_per_line),
		cmocka_unit_test(bad_options_name_the_problem),
	};

	return PEO_TEST_MAIN("tool", tests);
}
