/*
 * cmd_features.c - `peo features [--json]`: the kernel's perf_event_open
 * feature table, as probed by libpeo.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include <peo/peo.h>

#include "commands.h"

static const char *state_name(enum peo_feature_state s)
{
	return s == PEO_FEATURE_SUPPORTED ? "yes" : s == PEO_FEATURE_MISSING ? "no" : "unknown";
}

static const char *source_name(enum peo_feature_source s)
{
	switch (s) {
	case PEO_FEATURE_PROBED:
		return "probed";
	case PEO_FEATURE_BY_SIZE:
		return "attr size";
	case PEO_FEATURE_BY_FLAG:
		return "its flag";
	default:
		return "release";
	}
}

static void print_table(const struct utsname *u, const struct peo_feature *f, size_t n)
{
	int kind = -1;
	size_t i;

	printf("Linux %s (%s): perf_event_attr size %d, peo's is %zu\n", u->release, u->machine,
	       peo_kernel_attr_size(), sizeof(struct peo_attr));
	for (i = 0; i < n; i++) {
		if ((int)f[i].kind != kind) {
			kind = (int)f[i].kind;
			printf("\n%-26s %-7s %-8s %-10s %s\n", peo_feature_kind_name(f[i].kind), "since",
			       "accepted", "found by", "note");
		}
		printf("  %-24s %-7s %-8s %-10s %s", f[i].name, f[i].since, state_name(f[i].state),
		       source_name(f[i].source), f[i].note);
		if (f[i].probe_errno)
			printf(" (%s)", strerror(f[i].probe_errno));
		putchar('\n');
	}
}

static void print_json(const struct utsname *u, const struct peo_feature *f, size_t n)
{
	size_t i;

	printf("{\"kernel\":");
	json_print_string(stdout, u->release);
	printf(",\"machine\":");
	json_print_string(stdout, u->machine);
	printf(",\"attr_size\":%d,\"peo_attr_size\":%zu}\n", peo_kernel_attr_size(), sizeof(struct peo_attr));
	for (i = 0; i < n; i++) {
		printf("{\"kind\":");
		json_print_string(stdout, peo_feature_kind_name(f[i].kind));
		printf(",\"name\":");
		json_print_string(stdout, f[i].name);
		printf(",\"since\":");
		json_print_string(stdout, f[i].since);
		printf(",\"accepted\":\"%s\",\"found_by\":\"%s\",\"errno\":%d,\"note\":",
		       state_name(f[i].state), source_name(f[i].source), f[i].probe_errno);
		json_print_string(stdout, f[i].note);
		printf("}\n");
	}
}

int cmd_features(int argc, char **argv)
{
	const struct peo_feature *f;
	struct utsname u;
	size_t n;
	int json = 0;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			json = 1;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: peo features [--json]\n\n"
			       "Probes which attr sizes, fields, sample_type and read_format bits, attr flags,\n"
			       "record types and ioctls this kernel accepts, by opening harmless software events.\n"
			       "  -j, --json   one JSON object per line: the kernel first, then each feature\n");
			return 0;
		} else {
			fprintf(stderr, "peo features: unknown option '%s'; it takes only --json\n", argv[i]);
			return 2;
		}
	}
	if (peo_features_probe(&f, &n) < 0) {
		fprintf(stderr, "peo features: %s\n", peo_last_error());
		return 1;
	}
	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	if (json)
		print_json(&u, f, n);
	else
		print_table(&u, f, n);
	return 0;
}
