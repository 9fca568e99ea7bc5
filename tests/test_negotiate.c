/*
 * test_negotiate.c - attr size negotiation.  An older kernel is simulated by
 * peo_open_hook: it applies the kernel's size rule for a chosen size, then
 * passes the call (at a size the real kernel accepts) to the real syscall.
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "test_util.h"

static uint32_t fake_size;   /* the simulated kernel's sizeof(perf_event_attr) */
static int fake_strict;      /* E2BIG for any bigger size, even a zero tail */
static uint32_t sizes_seen[4];
static int calls;

static int fake_old_kernel(struct peo_attr *attr, pid_t pid, int cpu, int group_fd,
			   unsigned long flags)
{
	const unsigned char *p = (const unsigned char *)attr;
	uint32_t size = attr->size ? attr->size : PEO_ATTR_SIZE_VER0;
	struct peo_attr copy;
	long fd;

	if (calls < 4)
		sizes_seen[calls] = attr->size;
	calls++;
	if (size > fake_size) {
		int tail = 0;

		for (uint32_t i = fake_size; i < size; i++)
			tail |= p[i];
		if (tail || fake_strict) {
			attr->size = fake_size;
			return -E2BIG;
		}
	}
	copy = *attr;
	copy.size = size < fake_size ? size : fake_size;
	fd = syscall(SYS_perf_event_open, &copy, pid, cpu, group_fd, flags);
	return fd < 0 ? -errno : (int)fd;
}

static int install(void **state)
{
	(void)state;
	calls = 0;
	memset(sizes_seen, 0, sizeof(sizes_seen));
	fake_strict = 0;
	peo_open_hook = fake_old_kernel;
	return 0;
}

static int uninstall(void **state)
{
	(void)state;
	peo_open_hook = NULL;
	return 0;
}

static void names_the_field_an_older_kernel_lacks(void **state)
{
	struct peo_attr a;

	(void)state;
	fake_size = PEO_ATTR_SIZE_VER7; /* a 5.13 .. 6.2 kernel */
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	a.config3 = 5;
	assert_int_equal(peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC), -E2BIG);
	assert_error_contains("attr.config3 needs perf_event_attr size >= 136 (Linux 6.3); this kernel accepts 128");
	assert_error_contains("software/task-clock");
	assert_int_equal(calls, 1); /* nothing to retry: the field is really used */
	assert_int_equal(a.size, sizeof(a)); /* the caller's attr is not touched */
}

static void names_every_field_past_the_size(void **state)
{
	struct peo_attr a;

	(void)state;
	fake_size = PEO_ATTR_SIZE_VER5; /* 4.1 .. 5.4 */
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	a.aux_sample_size = 4096;
	a.sig_data = 1;
	a.config4 = 1;
	assert_int_equal(peo_sys_open(&a, 0, -1, -1, 0), -E2BIG);
	assert_error_contains("attr.aux_sample_size needs perf_event_attr size >= 120 (Linux 5.5)");
	assert_error_contains("attr.sig_data needs perf_event_attr size >= 128 (Linux 5.13)");
	assert_error_contains("attr.config4 needs perf_event_attr size >= 144 (Linux 6.19)");
	assert_error_contains("this kernel accepts 112");
}

/* A kernel that refuses any bigger size gets a retry at its own size. */
static void retries_at_the_kernel_size_when_nothing_past_it_is_used(void **state)
{
	struct peo_attr a;
	int fd;

	(void)state;
	fake_size = PEO_ATTR_SIZE_VER7;
	fake_strict = 1;
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	a.sample_max_stack = 8; /* inside VER7: fine */
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(calls, 2);
	assert_int_equal(sizes_seen[0], sizeof(struct peo_attr)); /* always our full size first */
	assert_int_equal(sizes_seen[1], PEO_ATTR_SIZE_VER7);
	close(fd);
}

/* With the documented rule a zero tail needs no retry at all. */
static void a_zero_tail_opens_at_full_size(void **state)
{
	struct peo_attr a;
	int fd;

	(void)state;
	fake_size = PEO_ATTR_SIZE_VER1;
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(calls, 1);
	assert_int_equal(sizes_seen[0], sizeof(struct peo_attr));
	close(fd);
}

/* A byte past the size but inside a field still names that field. */
static void a_field_straddling_the_size_is_named(void **state)
{
	struct peo_attr a;

	(void)state;
	fake_size = 100; /* not a VER size: inside sample_regs_intr */
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	a.sample_regs_intr = 1ull << 60; /* the non-zero byte is at offset 103 */
	assert_int_equal(peo_sys_open(&a, 0, -1, -1, 0), -E2BIG);
	assert_error_contains("attr.sample_regs_intr needs perf_event_attr size >= 104 (Linux 3.19)");
}

/* On the real kernel every field it knows opens (config4, which it may not
 * know, is test_errors.c's test_e2big_negotiated_field). */
static void real_kernel_negotiation(void **state)
{
	struct peo_attr a;
	int ksize = peo_kernel_attr_size();
	int fd;

	(void)state;
	assert_true(ksize >= PEO_ATTR_SIZE_VER0);
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	a.config3 = ksize >= PEO_ATTR_SIZE_VER8 ? 7 : 0; /* ignored by software events */
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	assert_true(fd >= 0);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(names_the_field_an_older_kernel_lacks, install, uninstall),
		cmocka_unit_test_setup_teardown(names_every_field_past_the_size, install, uninstall),
		cmocka_unit_test_setup_teardown(retries_at_the_kernel_size_when_nothing_past_it_is_used, install, uninstall),
		cmocka_unit_test_setup_teardown(a_zero_tail_opens_at_full_size, install, uninstall),
		cmocka_unit_test_setup_teardown(a_field_straddling_the_size_is_named, install, uninstall),
		cmocka_unit_test(real_kernel_negotiation),
	};

	return PEO_TEST_MAIN("negotiate", tests);
}
