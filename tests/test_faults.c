/*
 * test_faults.c - peo under syscalls that fail, through the real kernel
 * boundary (fault_inject.h: a seccomp supervisor answers the chosen calls):
 * EINTR on read and on waits, EMFILE midway through a group or a per-CPU
 * set, ENOMEM from a ring's mmap, ENOSPC and EIO under the perf.data
 * writer, and older kernels: smaller attrs (E2BIG) and refused bits (EINVAL).
 * Each body runs in a child and returns 0, or 1 having printed what failed
 * (PEO_CHECK).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <peo/peo.h>
#include <peo/perfdata.h>

#include "fault_inject.h"
#include "internal.h"
#include "test_util.h"

#define PERF_FD "anon_inode:[perf_event]"

/* Run @body under @rules; skip when this kernel has no seccomp supervisor. */
#define RUN(rules, body, arg, calls)                                                          \
	do {                                                                                  \
		int st_ = fault_run(rules, sizeof(rules) / sizeof((rules)[0]), body, arg, calls); \
		if (st_ == FAULT_CANNOT_RUN)                                                  \
			PEO_SKIP("no seccomp user notification here: %s", strerror(fault_why)); \
		assert_int_equal(st_, 0); /* a broken harness (-errno) fails too */          \
	} while (0)

/* ------------------------------------------------------------- EINTR */

static int read_through_eintr(void *arg)
{
	struct peo_counter *c;
	struct peo_count n;
	struct peo_attr a;

	(void)arg;
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	PEO_CHECK(peo_counter_open(&c, &a, NULL, NULL) == 0);
	PEO_CHECK(peo_counter_enable(c) == 0);
	peo_test_spin_ns(2000000);
	PEO_CHECK(peo_counter_read(c, &n) == 0); /* three EINTRs first: retried */
	PEO_CHECK(n.value >= 1000000 && n.time_running > 0);
	peo_counter_close(c);
	return 0;
}

static void counter_read_retries_eintr(void **state)
{
	const struct fault_rule rules[] = { { .nr = SYS_read, .err = EINTR, .from = 1, .times = 3,
					      .fd_prefix = PERF_FD } };
	unsigned calls[1];

	(void)state;
	RUN(rules, read_through_eintr, NULL, calls);
	assert_int_equal(calls[0], 4); /* three interrupted, the fourth read the count */
}

/* getppid samples into a ring; interrupted waits lose none of them. */
static int wait_through_eintr(void *arg)
{
	char why[256];
	PEO_OPTS(peo_ring_opts, ro, .data_pages = 16);
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	struct peo_ring_set *set;
	struct peo_ring *r;
	struct peo_attr a;
	int fd, got, interrupted = 0;
	size_t samples = 0;

	(void)arg;
	PEO_CHECK(peo_test_tracepoint_attr(&a, "syscalls", "sys_enter_getppid", why, sizeof(why)) == 0);
	a.sample_type = PEO_SAMPLE_TID;
	a.wakeup_events = 100; /* a wakeup per 100 samples (each wakes one waiter once) */
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	PEO_CHECK(fd >= 0);
	PEO_CHECK(peo_ring_map(&r, fd, &ro) == 0);
	PEO_CHECK(peo_ring_set_new(&set) == 0 && peo_ring_set_add(set, r) >= 0);
	for (int i = 0; i < 100; i++)
		getppid();
	while ((got = peo_ring_set_wait(set, 1000)) == -EINTR) /* a signal: wait again */
		interrupted++;
	PEO_CHECK(interrupted == 2 && got == 1); /* epoll_wait: twice EINTR */
	while (peo_ring_next(r, &rec, NULL, 0) == 1)
		samples += rec.header.type == PEO_RECORD_SAMPLE;
	peo_ring_consume(r);
	for (int i = 0; i < 100; i++)
		getppid();
	PEO_CHECK(peo_ring_wait(r, 1000) == -EINTR); /* poll: once EINTR, returned to the caller */
	PEO_CHECK(peo_ring_wait(r, 1000) == 1);
	while (peo_ring_next(r, &rec, NULL, 0) == 1)
		samples += rec.header.type == PEO_RECORD_SAMPLE;
	peo_ring_consume(r);
	PEO_CHECK(samples == 200);
	peo_ring_set_free(set);
	peo_ring_unmap(r);
	close(fd);
	return 0;
}

static void waits_interrupted_lose_nothing(void **state)
{
	/* glibc's epoll_wait may be either syscall; poll is ppoll on some */
	const struct fault_rule rules[] = { /* arm64 has only the p-forms */
#ifdef SYS_epoll_wait
		{ .nr = SYS_epoll_wait, .err = EINTR, .from = 1, .times = 2 },
#endif
		{ .nr = SYS_epoll_pwait, .err = EINTR, .from = 1, .times = 2 },
#ifdef SYS_poll
		{ .nr = SYS_poll, .err = EINTR, .from = 1, .times = 1 },
#endif
		{ .nr = SYS_ppoll, .err = EINTR, .from = 1, .times = 1 },
	};

	(void)state;
	PEO_SKIP_WITHOUT_TRACEPOINT("syscalls", "sys_enter_getppid");
	RUN(rules, wait_through_eintr, NULL, NULL);
}

/* ------------------------------------------- EMFILE, ENOMEM midway */

static int group_open_fails_cleanly(void *arg)
{
	int want = *(int *)arg;
	struct peo_attr attrs[4];
	struct peo_group *g;
	int before = peo_test_count_fds(), err;

	peo_test_sw_attr(&attrs[0], PEO_COUNT_SW_TASK_CLOCK);
	peo_test_sw_attr(&attrs[1], PEO_COUNT_SW_PAGE_FAULTS);
	peo_test_sw_attr(&attrs[2], PEO_COUNT_SW_CONTEXT_SWITCHES);
	peo_test_sw_attr(&attrs[3], PEO_COUNT_SW_CPU_MIGRATIONS);
	err = peo_group_open(&g, attrs, 4, NULL, NULL);
	PEO_CHECK(err == -want);
	PEO_CHECK(strstr(peo_last_error(), strerror(want)));
	PEO_CHECK(strstr(peo_last_error(), "context-switches")); /* the third member, which failed */
	PEO_CHECK(peo_test_count_fds() == before);                  /* the two opened are closed */
	return 0;
}

static void group_open_fails_midway(int err)
{
	const struct fault_rule rules[] = { { .nr = SYS_perf_event_open, .err = err, .from = 1,
					      .config_set = 1,
					      .config = PEO_COUNT_SW_CONTEXT_SWITCHES } };

	RUN(rules, group_open_fails_cleanly, &err, NULL);
}

static void group_open_emfile_midway(void **state)
{
	(void)state;
	group_open_fails_midway(EMFILE);
}

static void group_open_enomem_midway(void **state)
{
	(void)state;
	group_open_fails_midway(ENOMEM);
}

static int per_cpu_set_fails_cleanly(void *arg)
{
	PEO_OPTS(peo_target_opts, to, .kind = PEO_TARGET_CPUS);
	struct peo_counter *c;
	struct peo_target *t;
	struct peo_attr a;
	int before, err;

	(void)arg;
	PEO_CHECK(peo_target_new(&t, &to) == 0);
	before = peo_test_count_fds();
	peo_attr_init(&a);
	a.type = PEO_TYPE_SOFTWARE;
	a.config = PEO_COUNT_SW_CPU_CLOCK;
	err = peo_counter_open(&c, &a, t, NULL);
	PEO_CHECK(err == -EMFILE);
	PEO_CHECK(strstr(peo_last_error(), "CPU")); /* which slot failed */
	PEO_CHECK(peo_test_count_fds() == before);
	peo_target_free(t);
	return 0;
}

static void per_cpu_set_emfile_midway(void **state)
{
	/* the last CPU's open fails: every earlier one must be closed */
	const struct fault_rule rules[] = { { .nr = SYS_perf_event_open, .err = EMFILE,
					      .from = (unsigned)sysconf(_SC_NPROCESSORS_ONLN),
					      .config_set = 1, .config = PEO_COUNT_SW_CPU_CLOCK } };

	(void)state;
	RUN(rules, per_cpu_set_fails_cleanly, NULL, NULL);
}

static int ring_map_fails_cleanly(void *arg)
{
	PEO_OPTS(peo_ring_opts, ro, .data_pages = 4);
	struct peo_ring *r = NULL;
	struct peo_attr a;
	int fd, before;

	(void)arg;
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	a.sample_period = 1000000;
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	PEO_CHECK(fd >= 0);
	before = peo_test_count_fds();
	PEO_CHECK(peo_ring_map(&r, fd, &ro) == -ENOMEM && !r);
	PEO_CHECK(strstr(peo_last_error(), "mmap"));
	PEO_CHECK(peo_test_count_fds() == before);
	PEO_CHECK(peo_ring_map(&r, fd, &ro) == 0); /* the next try works: nothing half-done */
	peo_ring_unmap(r);
	close(fd);
	return 0;
}

static void ring_map_enomem(void **state)
{
	const struct fault_rule rules[] = { { .nr = SYS_mmap, .err = ENOMEM, .from = 1, .times = 1,
					      .fd_prefix = PERF_FD } };

	(void)state;
	RUN(rules, ring_map_fails_cleanly, NULL, NULL);
}

/* A cgroup event refused with ENOENT (as Linux 6.1 refuses a child cgroup on
 * cgroup2): the sentence blames the cgroup, not a missing event. */
static int cgroup_enoent_names_the_cgroup(void *arg)
{
	struct peo_attr a;
	int cg = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;

	(void)arg;
	PEO_CHECK(cg >= 0);
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	fd = peo_sys_open(&a, cg, 0, -1, PEO_FLAG_PID_CGROUP | PEO_FLAG_FD_CLOEXEC);
	PEO_CHECK(fd == -ENOENT);
	PEO_CHECK(strstr(peo_last_error(), "has no perf_event state"));
	PEO_CHECK(!strstr(peo_last_error(), "no software event")); /* task-clock exists */
	close(cg);
	return 0;
}

static void cgroup_enoent_blames_the_cgroup(void **state)
{
	const struct fault_rule rules[] = { { .nr = SYS_perf_event_open, .err = ENOENT, .from = 1,
					      .config_set = 1, .config = PEO_COUNT_SW_TASK_CLOCK } };

	(void)state;
	RUN(rules, cgroup_enoent_names_the_cgroup, NULL, NULL);
}

/* ------------------------------------------------ the perf.data writer */

struct writer_case {
	char path[64];
	int err;
};

/* 40-byte samples, IP|TID|TIME|PERIOD, far past the writer's 1 MiB buffer. */
static int write_until_failure(void *arg)
{
	struct writer_case *wc = arg;
	struct peo_perfdata_writer *w;
	struct peo_perfdata_counts counts = { .sz = sizeof(counts) };
	struct peo_perfdata *f;
	struct peo_attr a;
	uint64_t ids[1] = { 1 }, rec[5], written = 0;
	int err = 0;

	peo_test_sw_attr(&a, PEO_COUNT_SW_CPU_CLOCK);
	a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_PERIOD;
	PEO_CHECK(peo_perfdata_writer_open(&w, wc->path) == 0);
	PEO_CHECK(peo_perfdata_writer_add_event(w, &a, ids, 1, "cpu-clock") == 0);
	for (uint64_t i = 0; i < 100000 && !err; i++) {
		rec[0] = PEO_RECORD_SAMPLE | (uint64_t)40 << 48;
		rec[1] = 0x400000 + i;
		rec[2] = 7 | (uint64_t)7 << 32;
		rec[3] = 1000 + i;
		rec[4] = 1;
		err = peo_perfdata_writer_record(w, rec, sizeof(rec));
		written += !err;
	}
	PEO_CHECK(err == -wc->err); /* the failed write, kept */
	PEO_CHECK(peo_perfdata_writer_close(w) == -wc->err);
	PEO_CHECK(strstr(peo_last_error(), wc->path));
	/* what went whole is a valid file: the header names it */
	PEO_CHECK(peo_perfdata_open(&f, wc->path, NULL) == 0);
	PEO_CHECK(peo_perfdata_count(f, &counts) == 0);
	PEO_CHECK(counts.by_type[PEO_RECORD_SAMPLE] > 0 && counts.by_type[PEO_RECORD_SAMPLE] < written);
	peo_perfdata_counts_free(&counts);
	peo_perfdata_close(f);
	return 0;
}

static void writer_keeps_a_valid_file(int err)
{
	/* The second flush of records fails once (pwrites: ids, attr, header,
	 * then a flush per MiB of records); the header is rewritten at close. */
	const struct fault_rule rules[] = { { .nr = SYS_pwrite64, .err = err, .from = 5, .times = 1,
					      .fd_prefix = "/tmp/peo-fault" } };
	struct writer_case wc = { .err = err };
	int fd;

	snprintf(wc.path, sizeof(wc.path), "/tmp/peo-fault-XXXXXX");
	fd = mkstemp(wc.path);
	assert_true(fd >= 0);
	close(fd);
	RUN(rules, write_until_failure, &wc, NULL);
	unlink(wc.path);
}

static void writer_enospc(void **state)
{
	(void)state;
	writer_keeps_a_valid_file(ENOSPC);
}

static void writer_eio(void **state)
{
	(void)state;
	writer_keeps_a_valid_file(EIO);
}

/* ------------------------------------------------------ older kernels */

static int sizes_as_an_older_kernel(void *arg)
{
	uint32_t size = *(uint32_t *)arg;
	const struct peo_attr_field *fields;
	const struct peo_feature *t;
	size_t n, nfields, checked = 0;

	PEO_CHECK(peo_kernel_attr_size() == (int)size);
	PEO_CHECK(peo_features_probe(&t, &n) == 0);
	fields = peo_attr_fields(&nfields);
	for (size_t i = 0; i < n; i++) {
		int past = -1;

		if (t[i].kind == PEO_FEATURE_ATTR_SIZE)
			past = t[i].value > size;
		for (size_t k = 0; t[i].kind == PEO_FEATURE_ATTR_FIELD && k < nfields; k++)
			if (!strcmp(fields[k].name, t[i].name))
				past = fields[k].offset + fields[k].size > size;
		if (past < 0)
			continue;
		/* exactly what this size allows: a field past it is missing */
		PEO_CHECK(past == (t[i].state == PEO_FEATURE_MISSING));
		checked++;
	}
	PEO_CHECK(checked > 0);
	/* a field past the size: E2BIG with the sentence that names it; an
	 * ordinary request still opens, at the smaller size */
	PEO_CHECK(peo_test_config3_refused() == 0);
	return 0;
}

static void older_attr_sizes(void **state)
{
	static const uint32_t sizes[] = { PEO_ATTR_SIZE_VER0, PEO_ATTR_SIZE_VER1, PEO_ATTR_SIZE_VER2,
					  PEO_ATTR_SIZE_VER3, PEO_ATTR_SIZE_VER4, PEO_ATTR_SIZE_VER5,
					  PEO_ATTR_SIZE_VER6, PEO_ATTR_SIZE_VER7 };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint32_t size = sizes[i];
		const struct fault_rule rules[] = { { .nr = SYS_perf_event_open, .attr_size = size } };

		RUN(rules, sizes_as_an_older_kernel, &size, NULL);
	}
}

/* A kernel before 6.0, which answers EINVAL to PERF_FORMAT_LOST. */
static const struct fault_rule no_format_lost[] = {
	{ .nr = SYS_perf_event_open, .reject_read_format = PEO_FORMAT_LOST },
};

/* A kernel before 6.0 refuses PERF_FORMAT_LOST: counting goes on without it. */
static int count_without_format_lost(void *arg)
{
	const struct peo_feature *t;
	struct peo_counter *c;
	struct peo_count n;
	struct peo_attr a;
	size_t nf;
	int seen = 0;

	(void)arg;
	PEO_CHECK(peo_features_probe(&t, &nf) == 0);
	for (size_t i = 0; i < nf; i++)
		if (t[i].kind == PEO_FEATURE_READ_FORMAT && !strcmp(t[i].name, "LOST")) {
			PEO_CHECK(t[i].state == PEO_FEATURE_MISSING && t[i].probe_errno == EINVAL);
			seen = 1;
		}
	PEO_CHECK(seen);
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	PEO_CHECK(peo_counter_open(&c, &a, NULL, NULL) == 0);
	PEO_CHECK(peo_counter_enable(c) == 0);
	peo_test_spin_ns(1000000);
	PEO_CHECK(peo_counter_read(c, &n) == 0 && n.value > 0 && n.lost == 0);
	peo_counter_close(c);
	return 0;
}

static void older_kernel_without_format_lost(void **state)
{
	(void)state;
	RUN(no_format_lost, count_without_format_lost, NULL, NULL);
}

/* peo record on such a kernel: the file's attr has no LOST, and perf's tools read it. */
static int record_without_format_lost(void *arg)
{
	char cmd[512], path[] = "/tmp/peo-fault-rec-XXXXXX";
	struct peo_perfdata *f;
	int fd = mkstemp(path), status;

	PEO_CHECK(fd >= 0);
	close(fd);
	(void)arg;
	snprintf(cmd, sizeof(cmd), "%s record -o %s -- %s -b 50 >/dev/null 2>&1", getenv("PEO_TOOL"),
		 path, getenv("PEO_WORKLOAD"));
	status = system(cmd); /* the filter goes with fork and exec */
	PEO_CHECK(status == 0);
	PEO_CHECK(peo_perfdata_open(&f, path, NULL) == 0);
	PEO_CHECK(peo_perfdata_attr_count(f) >= 1);
	PEO_CHECK(!(peo_perfdata_attr(f, 0)->read_format & PEO_FORMAT_LOST));
	PEO_CHECK(peo_perfdata_attr(f, 0)->read_format & PEO_FORMAT_ID);
	peo_perfdata_close(f);
	unlink(path);
	return 0;
}

static void older_kernel_record_falls_back(void **state)
{
	(void)state;
	if (!getenv("PEO_TOOL") || !getenv("PEO_WORKLOAD"))
		PEO_SKIP("PEO_TOOL or PEO_WORKLOAD is not set (run under ctest)");
	RUN(no_format_lost, record_without_format_lost, NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(counter_read_retries_eintr),
		PEO_TEST(waits_interrupted_lose_nothing),
		PEO_TEST(group_open_emfile_midway),
		PEO_TEST(group_open_enomem_midway),
		PEO_TEST(per_cpu_set_emfile_midway),
		PEO_TEST(ring_map_enomem),
		PEO_TEST(cgroup_enoent_blames_the_cgroup),
		PEO_TEST(writer_enospc),
		PEO_TEST(writer_eio),
		PEO_TEST(older_attr_sizes),
		PEO_TEST(older_kernel_without_format_lost),
		PEO_TEST(older_kernel_record_falls_back),
	};

	return PEO_TEST_MAIN("faults", tests);
}
