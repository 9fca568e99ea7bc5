/*
 * test_features.c - the kernel feature table: consistent with the running
 * kernel's release, with the attr size boundary seen by raw syscalls, and
 * cached (one table for every caller and thread); and a probe that fails,
 * seen in a fresh process (the probe is made once per process) whose opens
 * a hook refuses.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "internal.h" /* peo_open_hook */
#include "test_util.h"

static const struct peo_feature *table;
static size_t table_len;

static int load(void **state)
{
	(void)state;
	if (peo_features_probe(&table, &table_len) < 0) {
		print_error("%s\n", peo_last_error());
		return -1;
	}
	return 0;
}

static const struct peo_feature *find(enum peo_feature_kind kind, const char *name)
{
	for (size_t i = 0; i < table_len; i++)
		if (table[i].kind == kind && !strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

/* Every decided feature agrees with the release that introduced it. */
static void probes_agree_with_the_kernel_release(void **state)
{
	struct utsname u;
	int disagreements = 0, decided = 0;

	(void)state;
	uname(&u);
	for (size_t i = 0; i < table_len; i++) {
		const struct peo_feature *f = &table[i];
		int expect;

		if (f->state == PEO_FEATURE_UNKNOWN || f->kind == PEO_FEATURE_ATTR_SIZE)
			continue;
		decided++;
		expect = peo_test_release_at_least(f->since);
		if (expect != (f->state == PEO_FEATURE_SUPPORTED)) {
			print_error("%s %s (since %s): %s on Linux %s (%s, errno %d)\n",
				    peo_feature_kind_name(f->kind), f->name, f->since,
				    f->state == PEO_FEATURE_SUPPORTED ? "supported" : "missing",
				    u.release, f->note, f->probe_errno);
			disagreements++;
		}
	}
	assert_true(decided > 100);
	assert_int_equal(disagreements, 0);
}

/* The size peo reports is the boundary the kernel itself enforces. */
static void kernel_attr_size_is_the_e2big_boundary(void **state)
{
	struct {
		struct peo_attr a;
		unsigned char pad[64];
	} buf;
	int ksize = peo_kernel_attr_size();
	long fd;

	(void)state;
	assert_true(ksize >= PEO_ATTR_SIZE_VER0 && ksize % 8 == 0);
	if (ksize >= (int)sizeof(struct peo_attr))
		PEO_SKIP("the kernel's attr (%d bytes) is at least peo's: no boundary inside peo_attr", ksize);
	memset(&buf, 0, sizeof(buf));
	peo_test_sw_attr(&buf.a, PEO_COUNT_SW_TASK_CLOCK);
	buf.a.size = sizeof(buf);
	((unsigned char *)&buf)[ksize] = 1; /* first byte the kernel does not know */
	fd = syscall(SYS_perf_event_open, &buf.a, 0, -1, -1, 0);
	assert_int_equal(fd, -1);
	assert_int_equal(errno, E2BIG);
	assert_int_equal(buf.a.size, ksize);

	memset(&buf, 0, sizeof(buf));
	peo_test_sw_attr(&buf.a, PEO_COUNT_SW_TASK_CLOCK);
	buf.a.size = sizeof(buf);
	((unsigned char *)&buf)[ksize - 1] = 1; /* last byte it knows: no E2BIG */
	fd = syscall(SYS_perf_event_open, &buf.a, 0, -1, -1, 0);
	if (fd >= 0)
		close((int)fd);
	else
		assert_int_not_equal(errno, E2BIG);
}

/* The table's size rows and field rows follow from that size. */
static void sizes_and_fields_follow_the_kernel_size(void **state)
{
	int ksize = peo_kernel_attr_size();
	const struct peo_feature *ver0 = find(PEO_FEATURE_ATTR_SIZE, "VER0 (64 bytes)");
	const struct peo_feature *config4 = find(PEO_FEATURE_ATTR_FIELD, "config4");
	const struct peo_feature *config2 = find(PEO_FEATURE_ATTR_FIELD, "config2");

	(void)state;
	assert_non_null(ver0);
	assert_non_null(config4);
	assert_non_null(config2);
	assert_int_equal(ver0->state, PEO_FEATURE_SUPPORTED);
	assert_int_equal(config2->state, ksize >= PEO_ATTR_SIZE_VER1 ? PEO_FEATURE_SUPPORTED : PEO_FEATURE_MISSING);
	assert_int_equal(config4->state, ksize >= PEO_ATTR_SIZE_VER9 ? PEO_FEATURE_SUPPORTED : PEO_FEATURE_MISSING);
	for (size_t i = 0; i < table_len; i++)
		if (table[i].kind == PEO_FEATURE_ATTR_SIZE)
			assert_int_equal(table[i].state, table[i].value <= (uint64_t)ksize
							     ? PEO_FEATURE_SUPPORTED : PEO_FEATURE_MISSING);
}

/* Records follow their flags; ioctls this kernel has are all known. */
static void records_follow_flags_and_ioctls_are_known(void **state)
{
	const struct peo_feature *sw = find(PEO_FEATURE_RECORD, "SWITCH");
	const struct peo_feature *cs = find(PEO_FEATURE_ATTR_FLAG, "context_switch");
	size_t ioctls = 0;

	(void)state;
	assert_non_null(sw);
	assert_non_null(cs);
	assert_int_equal(sw->source, PEO_FEATURE_BY_FLAG);
	assert_int_equal(sw->state, cs->state);
	for (size_t i = 0; i < table_len; i++) {
		if (table[i].kind != PEO_FEATURE_IOCTL)
			continue;
		ioctls++;
		/* ENOTTY is the kernel's "unknown ioctl"; any other answer knows it. */
		assert_int_equal(table[i].state == PEO_FEATURE_SUPPORTED, table[i].probe_errno != ENOTTY);
	}
	assert_int_equal(ioctls, 12);
}

struct thread_result {
	const struct peo_feature *table;
	size_t len;
	int rc;
};

static void *probe_in_thread(void *arg)
{
	struct thread_result *r = arg;

	r->rc = peo_features_probe(&r->table, &r->len);
	return NULL;
}

static void one_cached_table_for_every_thread(void **state)
{
	pthread_t t[4];
	struct thread_result r[4];

	(void)state;
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, probe_in_thread, &r[i]), 0);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_int_equal(r[i].rc, 0);
		assert_ptr_equal(r[i].table, table);
		assert_int_equal(r[i].len, table_len);
	}
}

/* ------------------------------------------------ a probe that fails */

#define PROBE_CHILD_ARG "--probe-refused"
static int refused_err;

/* Refuses every open with refused_err. */
static int refuse_all(struct peo_attr *a, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	return -refused_err;
}

/* Lets plain opens through (to /dev/null) and refuses the size probe's. */
static int refuse_size_probe(struct peo_attr *a, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	if (((unsigned char *)a)[sizeof(*a) - 1])
		return -refused_err;
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/* In the child: the probe under the hook @how ("open" or "size") refusing
 * with errno @err; prints what each public call returns and says. */
static int probe_child(const char *how, int err)
{
	int rc;

	refused_err = err;
	peo_open_hook = strcmp(how, "size") ? refuse_all : refuse_size_probe;
	rc = peo_features_probe(NULL, NULL);
	printf("probe %d %s\n", rc, peo_last_error());
	rc = peo_kernel_attr_size();
	printf("size %d %s\n", rc, peo_last_error());
	return 0;
}

/* Runs probe_child(@how, @err) in a fresh process; its output in @out. */
static void run_probe_child(const char *how, int err, char *out, size_t cap)
{
	char self[PATH_MAX], cmd[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	assert_true(n > 0);
	self[n] = '\0';
	snprintf(cmd, sizeof(cmd), "'%s' %s %s %d", self, PROBE_CHILD_ARG, how, err);
	assert_int_equal(peo_test_run_capture(cmd, out, cap), 0);
}

/* Both lines of the child say @rc and @sentence. */
static void expect_probe_failure(const char *out, int rc, const char *sentence)
{
	char want[2048];

	snprintf(want, sizeof(want), "probe %d %s\nsize %d %s\n", rc, sentence, rc, sentence);
	assert_string_equal(out, want);
}

/* The failed open's sentence: what was tried, the errno, and the cause the
 * explainer names (as root: not the paranoid level). */
static void refused_probe_is_explained(void **state)
{
	char out[2048];

	(void)state;
	if (geteuid() != 0)
		PEO_SKIP("the expected cause of EACCES is root's; running as uid %d", (int)getuid());
	run_probe_child("open", EACCES, out, sizeof(out));
	expect_probe_failure(out, -EACCES,
			     "feature probe: perf_event_open(software/task-clock:u, pid 0, cpu -1): "
			     "Permission denied: the caller is root, so perf_event_paranoid is not the "
			     "cause: this event refuses perf (some tracepoints do), or a security policy "
			     "(lockdown, an LSM, a seccomp filter) forbids it");
}

/* EINVAL sends the explainer to the feature table, which this failed probe
 * has not: it answers without the table (and without waiting on itself). */
static void invalid_probe_is_explained_without_the_table(void **state)
{
	char out[2048];

	(void)state;
	run_probe_child("open", EINVAL, out, sizeof(out));
	expect_probe_failure(out, -EINVAL,
			     "feature probe: perf_event_open(software/task-clock:u, pid 0, cpu -1): "
			     "Invalid argument: the kernel rejected this attr; common causes: a group "
			     "member on another CPU or task than its leader, pinned/exclusive on a group "
			     "member, an option this PMU lacks. `peo features` lists what this kernel "
			     "accepts");
}

/* A failure after the first open is said without a cause. */
static void failed_size_probe_is_said(void **state)
{
	char out[2048];

	(void)state;
	run_probe_child("size", EACCES, out, sizeof(out));
	expect_probe_failure(out, -EACCES,
			     "feature probe: finding the kernel's attr size failed: Permission denied");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(probes_agree_with_the_kernel_release),
		cmocka_unit_test(kernel_attr_size_is_the_e2big_boundary),
		cmocka_unit_test(sizes_and_fields_follow_the_kernel_size),
		cmocka_unit_test(records_follow_flags_and_ioctls_are_known),
		cmocka_unit_test(one_cached_table_for_every_thread),
		cmocka_unit_test(refused_probe_is_explained),
		cmocka_unit_test(invalid_probe_is_explained_without_the_table),
		cmocka_unit_test(failed_size_probe_is_said),
	};

	if (argc == 4 && !strcmp(argv[1], PROBE_CHILD_ARG))
		return probe_child(argv[2], atoi(argv[3]));
	return PEO_TEST_MAIN_SETUP("features", tests, load);
}
