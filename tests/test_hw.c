/*
 * test_hw.c - hardware events.  Each test probes by opening the event: where
 * the machine has no PMU it skips with the kernel's answer; where it has one
 * the counts must move with the work.
 */
#include <errno.h>
#include <unistd.h>

#include "test_util.h"

static int open_hw(uint64_t config, int group_fd, int *err)
{
	struct peo_attr a;
	int fd;

	peo_attr_init(&a);
	a.type = PEO_TYPE_HARDWARE;
	a.config = config;
	a.disabled = group_fd < 0;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = peo_sys_open(&a, 0, -1, group_fd, PEO_FLAG_FD_CLOEXEC);
	*err = fd < 0 ? -fd : 0;
	return fd;
}

#define OPEN_OR_SKIP(fd, config, group)                                                     \
	do {                                                                                \
		int err_;                                                                   \
		(fd) = open_hw(config, group, &err_);                                       \
		if ((fd) < 0 && (err_ == ENOENT || err_ == EOPNOTSUPP || err_ == ENODEV))   \
			PEO_SKIP("hardware event unavailable: %s", peo_last_error());       \
		if ((fd) < 0)                                                               \
			fail_msg("%s", peo_last_error());                                   \
	} while (0)

static void cycles_count_work(void **state)
{
	uint64_t small, big;
	int fd;

	(void)state;
	OPEN_OR_SKIP(fd, PEO_COUNT_HW_CPU_CYCLES, -1);
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	peo_test_spin_ns(2000000);
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	small = peo_test_read_count(fd);
	assert_int_equal(peo_sys_ioc_reset(fd, 0), 0);
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	peo_test_spin_ns(20000000);
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	big = peo_test_read_count(fd);
	assert_true(small > 0);
	assert_true(big > small * 3); /* ten times the work, well over three times the cycles */
	close(fd);
}

static void cycles_and_instructions_group(void **state)
{
	uint64_t cycles, insns;
	int leader, member;

	(void)state;
	OPEN_OR_SKIP(leader, PEO_COUNT_HW_CPU_CYCLES, -1);
	{
		int err;

		member = open_hw(PEO_COUNT_HW_INSTRUCTIONS, leader, &err);
		if (member < 0) {
			close(leader);
			PEO_SKIP("instructions unavailable with cycles: %s", peo_last_error());
		}
	}
	assert_int_equal(peo_sys_ioc_enable(leader, PEO_IOC_FLAG_GROUP), 0);
	peo_test_spin_ns(10000000);
	assert_int_equal(peo_sys_ioc_disable(leader, PEO_IOC_FLAG_GROUP), 0);
	cycles = peo_test_read_count(leader);
	insns = peo_test_read_count(member);
	print_message("cycles %llu, instructions %llu\n", (unsigned long long)cycles, (unsigned long long)insns);
	assert_true(cycles > 0);
	assert_true(insns > 0);
	close(member);
	close(leader);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cycles_count_work),
		cmocka_unit_test(cycles_and_instructions_group),
	};

	return PEO_TEST_MAIN("hw", tests);
}
