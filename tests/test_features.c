/*
 * test_features.c - the kernel feature table: consistent with the running
 * kernel's release, with the attr size boundary seen by raw syscalls, and
 * cached (one table for every caller and thread).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(probes_agree_with_the_kernel_release),
		cmocka_unit_test(kernel_attr_size_is_the_e2big_boundary),
		cmocka_unit_test(sizes_and_fields_follow_the_kernel_size),
		cmocka_unit_test(records_follow_flags_and_ioctls_are_known),
		cmocka_unit_test(one_cached_table_for_every_thread),
	};

	return PEO_TEST_MAIN_SETUP("features", tests, load);
}
