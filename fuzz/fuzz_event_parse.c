/*
 * fuzz_event_parse.c - libFuzzer target for the event-string parser
 * (peo_event_parse: event_parse.c, pmu.c, tracepoint.c, probe.c).
 *
 * Each input is one event string (made NUL-terminated; an embedded NUL ends
 * it early, as it would for a C caller).  PMUs and tracepoints come from the
 * fixture trees tests/fixtures/pmu and tests/fixtures/tracefs, found from
 * this file's own path, so a run does not depend on the machine's sysfs.
 *
 * On success every event is walked with every accessor and the results are
 * checked against event.h's promises; on failure peo_last_error() must hold a
 * sentence that this input's parse wrote.  Nothing is ever opened: the
 * library's open hook is set to abort, so a parse that reached
 * perf_event_open(2) would show up as a crash.  ("uprobe:PATH:SYM" inputs do
 * make the parser open PATH read-only to look up SYM; that is expected.)
 *
 * Build and run: make fuzz (FUZZ_SECONDS=60 per target by default).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h" /* peo_open_hook, from src/ */
#include "peo/peo.h"

#include "fuzz_check.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

static char pmu_dir[PATH_MAX];
static char tracefs_dir[PATH_MAX];
static struct peo_event_parse_opts opts;

static int no_open(struct peo_attr *attr, pid_t pid, int cpu, int group_fd,
		   unsigned long flags)
{
	(void)attr;
	(void)pid;
	(void)cpu;
	(void)group_fd;
	(void)flags;
	fprintf(stderr, "fuzz_event_parse: the parser called perf_event_open\n");
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char suffix[] = "/fuzz/fuzz_event_parse.c";
	const char *file = __FILE__;
	size_t n = strlen(file), root;
	struct stat st;

	(void)argc;
	(void)argv;
	/* __FILE__ is absolute under CMake; a relative one means "run from the repo root". */
	root = n >= sizeof(suffix) - 1 && !strcmp(file + n - (sizeof(suffix) - 1), suffix)
		       ? n - (sizeof(suffix) - 1)
		       : 0;
	snprintf(pmu_dir, sizeof(pmu_dir), "%.*s%stests/fixtures/pmu", (int)root, file,
		 root ? "/" : "");
	snprintf(tracefs_dir, sizeof(tracefs_dir), "%.*s%stests/fixtures/tracefs", (int)root,
		 file, root ? "/" : "");
	if (stat(pmu_dir, &st) || !S_ISDIR(st.st_mode) || stat(tracefs_dir, &st) ||
	    !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "fuzz_event_parse: fixtures not found at %s and %s (from __FILE__ %s)\n",
			pmu_dir, tracefs_dir, file);
		exit(1);
	}
	{
		PEO_OPTS(peo_event_parse_opts, o, .pmu_dir = pmu_dir, .tracefs_dir = tracefs_dir);

		opts = o;
	}
	peo_open_hook = no_open;
	return 0;
}

/* Touch every byte of a string the list owns (ASan checks the reads). */
static size_t touch(const char *s, const char *what, size_t i)
{
	CHECK_SAYS(s != NULL, "event %zu: %s is NULL", i, what);
	return strlen(s);
}

static void walk(const struct peo_event_list *list, int rc)
{
	size_t count = peo_event_list_count(list), i;
	volatile size_t sink = 0;

	CHECK_SAYS(count == (size_t)rc, "parse returned %d but the list holds %zu events", rc, count);
	CHECK_SAYS(peo_event_list_get(list, count) == NULL, "get(count) is not NULL");
	for (i = 0; i < count; i++) {
		const struct peo_event *ev = peo_event_list_get(list, i);
		const struct peo_attr *attr;
		enum peo_event_kind kind;
		unsigned int flags;
		size_t leader;
		double scale;

		CHECK_SAYS(ev != NULL, "event %zu of %zu is NULL", i, count);
		attr = peo_event_attr(ev);
		CHECK_SAYS(attr != NULL, "event %zu: attr is NULL", i);
		CHECK_SAYS(attr->size == sizeof(struct peo_attr), "event %zu: attr.size %u", i,
			   (unsigned)attr->size);
		CHECK_SAYS(attr->precise_ip <= 3, "event %zu: precise_ip %u", i,
			   (unsigned)attr->precise_ip);
		sink += touch(peo_event_name(ev), "name", i);
		sink += touch(peo_event_pmu(ev), "pmu", i);
		sink += touch(peo_event_unit(ev), "unit", i);
		kind = peo_event_kind(ev);
		CHECK_SAYS(strcmp(peo_event_kind_name(kind), "unknown") != 0, "event %zu: kind %d", i,
			   (int)kind);
		if (kind == PEO_EVENT_KIND_UPROBE)
			sink += touch((const char *)(uintptr_t)attr->uprobe_path, "uprobe path", i);
		else if (kind == PEO_EVENT_KIND_KPROBE && attr->kprobe_func)
			sink += touch((const char *)(uintptr_t)attr->kprobe_func, "kprobe symbol", i);
		leader = peo_event_leader(ev);
		CHECK_SAYS(leader <= i, "event %zu: leader %zu comes after it", i, leader);
		CHECK_SAYS(peo_event_leader(peo_event_list_get(list, leader)) == leader,
			   "event %zu: its leader %zu is led by another", i, leader);
		flags = peo_event_flags(ev);
		CHECK_SAYS(!(flags & ~(unsigned)(PEO_EVENT_PRECISE_MAX | PEO_EVENT_SAMPLE_READ |
						 PEO_EVENT_WEAK_GROUP | PEO_EVENT_IN_GROUP)),
			   "event %zu: unknown flags %#x", i, flags);
		CHECK_SAYS(leader == i || (flags & PEO_EVENT_IN_GROUP),
			   "event %zu: led by %zu outside a group", i, leader);
		scale = peo_event_scale(ev);
		CHECK_SAYS(isfinite(scale) && scale != 0, "event %zu: scale %g", i, scale);
	}
	(void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char sentinel[] = "peo_event_parse: argument 'str' is NULL";
	struct peo_event_list *list = (struct peo_event_list *)(uintptr_t)1;
	char *str = malloc(size + 1);
	int rc;

	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';

	/* Leave a known sentence, so a failure that writes none is seen. */
	CHECK_SAYS(peo_event_parse(&list, NULL, &opts) < 0 && list == NULL, "NULL str accepted");
	CHECK_SAYS(!strncmp(peo_last_error(), sentinel, sizeof(sentinel) - 1), "sentinel: %s",
		   peo_last_error());

	list = (struct peo_event_list *)(uintptr_t)1;
	rc = peo_event_parse(&list, str, &opts);
	if (rc > 0) {
		CHECK_SAYS(list != NULL, "success (%d) without a list", rc);
		walk(list, rc);
		peo_event_list_free(list);
	} else {
		const char *msg = peo_last_error();

		CHECK_SAYS(rc < 0, "parse returned 0 for \"%s\"", str);
		CHECK_SAYS(list == NULL, "failure %d left a list", rc);
		CHECK_SAYS(msg && msg[0], "failure %d with an empty peo_last_error()", rc);
		CHECK_SAYS(strncmp(msg, sentinel, sizeof(sentinel) - 1) != 0,
			   "failure %d did not set peo_last_error()", rc);
	}
	free(str);
	return 0;
}
