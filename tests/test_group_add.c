/*
 * test_group_add.c - groups built one member at a time (peo_group_new(),
 * peo_group_add(), peo_group_add_event()) and counts looked up by the
 * member's handle (peo_group_count()), as perf-event's Group and Builder
 * do; a failed add leaves the group as it was.  What is asserted is what
 * the work guarantees: fresh pages touched fault at least once each.
 */
#include <errno.h>
#include <string.h>

#include <peo/peo.h>

#include "test_util.h"

#define PAGES 100

static struct peo_group *new_group(const struct peo_target *t)
{
	struct peo_group *g = NULL;

	assert_int_equal(peo_group_new(&g, t, NULL), 0);
	assert_int_equal(peo_group_size(g), 1); /* the dummy leader */
	return g;
}

static void members_one_at_a_time(void **state)
{
	struct peo_group *g = new_group(NULL);
	struct peo_count counts[3], clock, faults, leader;
	struct peo_attr pf;
	size_t task = 0, fault = 0;

	(void)state;
	assert_int_equal(peo_group_add_event(g, "task-clock:u", &task), 0);
	peo_attr_init(&pf);
	pf.type = PEO_TYPE_SOFTWARE;
	pf.config = PEO_COUNT_SW_PAGE_FAULTS;
	pf.exclude_kernel = pf.exclude_hv = 1;
	assert_int_equal(peo_group_add(g, &pf, &fault), 0);
	assert_int_equal(task, 1);
	assert_int_equal(fault, 2);
	assert_int_equal(peo_group_size(g), 3);
	assert_int_equal(peo_group_count(g, task, &clock), -EINVAL); /* nothing read yet */
	assert_non_null(strstr(peo_last_error(), "peo_group_read"));
	assert_int_equal(peo_group_enable(g), 0);
	peo_test_spin_ns(20 * 1000000ull);
	peo_test_touch_pages(PAGES);
	assert_int_equal(peo_group_disable(g), 0);
	assert_int_equal(peo_group_read(g, counts, 3), 3);
	assert_int_equal(peo_group_count(g, task, &clock), 0);
	assert_int_equal(peo_group_count(g, fault, &faults), 0);
	assert_int_equal(peo_group_count(g, 0, &leader), 0);
	assert_true(clock.value > 0);
	assert_true(faults.value >= PAGES); /* each fresh page faults once at least */
	assert_int_equal(leader.value, 0);  /* the dummy counts nothing */
	/* by handle, the same as by position */
	assert_memory_equal(&counts[task], &clock, sizeof(clock));
	assert_memory_equal(&counts[fault], &faults, sizeof(faults));
	assert_int_equal(peo_group_count(g, 3, &clock), -EINVAL);
	peo_group_close(g);
}

/* An add that fails leaves the group as it was, and still readable. */
static void failed_add_changes_nothing(void **state)
{
	struct peo_group *g = new_group(NULL);
	struct peo_counter *c;
	struct peo_count counts[2];
	struct peo_attr bad, clock;
	size_t m = 99;

	(void)state;
	assert_int_equal(peo_group_add_event(g, "task-clock:u", &m), 0);
	peo_attr_init(&bad);
	bad.type = 0x7fff; /* no such PMU */
	assert_true(peo_group_add(g, &bad, &m) < 0);
	assert_int_equal(m, 1); /* untouched */
	assert_int_equal(peo_group_size(g), 2);
	assert_int_equal(peo_group_add_event(g, "task-clock:u,page-faults:u", &m), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "one at a time"));
	assert_true(peo_group_add_event(g, "no-such-event-here", &m) < 0);
	assert_int_equal(peo_group_size(g), 2);
	peo_group_enable(g);
	peo_test_spin_ns(5 * 1000000ull);
	peo_group_disable(g);
	assert_int_equal(peo_group_read(g, counts, 2), 2);
	assert_true(counts[1].value > 0);
	/* a counter is no group; NULLs refused */
	peo_attr_init(&clock);
	clock.type = PEO_TYPE_SOFTWARE;
	clock.config = PEO_COUNT_SW_TASK_CLOCK;
	clock.exclude_kernel = clock.exclude_hv = 1;
	assert_int_equal(peo_counter_open(&c, &clock, NULL, NULL), 0);
	assert_int_equal(peo_group_add((struct peo_group *)(void *)c, &clock, &m), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "counter"));
	peo_counter_close(c);
	assert_int_equal(peo_group_add(NULL, &clock, &m), -EINVAL);
	assert_int_equal(peo_group_add(g, NULL, &m), -EINVAL);
	assert_int_equal(peo_group_count(NULL, 0, counts), -EINVAL);
	peo_group_close(g);
}

/* Every CPU: each slot gets the member, the count sums the slots. */
static void members_on_every_cpu(void **state)
{
	PEO_OPTS(peo_target_opts, to, .kind = PEO_TARGET_CPUS);
	struct peo_target *t;
	struct peo_group *g = NULL;
	struct peo_count clock;
	uint64_t sum = 0; /* the slots' */
	size_t m;
	int err;

	(void)state;
	assert_int_equal(peo_target_new(&t, &to), 0);
	err = peo_group_new(&g, t, NULL);
	if (err == -EACCES || err == -EPERM) {
		peo_target_free(t);
		PEO_SKIP("a CPU-wide group is not allowed here: %s", peo_last_error());
	}
	assert_int_equal(err, 0);
	assert_int_equal(peo_group_add_event(g, "cpu-clock", &m), 0);
	for (size_t s = 0; s < peo_group_slot_count(g); s++)
		assert_true(peo_group_fd(g, s, m) >= 0);
	peo_group_enable(g);
	peo_test_spin_ns(10 * 1000000ull);
	peo_group_disable(g);
	assert_int_equal(peo_group_read(g, NULL, 0), 2);
	assert_int_equal(peo_group_count(g, m, &clock), 0);
	assert_true(clock.value > 0);
	for (size_t c = 0; c < peo_target_cpu_count(t); c++) {
		struct peo_count by_cpu[2];

		assert_int_equal(peo_group_counts(g, PEO_COUNT_CPU, c, by_cpu, 2), 2);
		sum += by_cpu[m].value;
	}
	assert_int_equal(sum, clock.value);
	peo_group_close(g);
	peo_target_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(members_one_at_a_time),
		PEO_TEST(failed_add_changes_nothing),
		PEO_TEST(members_on_every_cpu),
	};

	return PEO_TEST_MAIN("group_add", tests);
}
