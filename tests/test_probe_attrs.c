/*
 * test_probe_attrs.c - the typed constructors: peo_attr_uprobe(),
 * peo_attr_kprobe() and peo_attr_breakpoint() encode what the strings
 * uprobe:PATH:SYMBOL, kprobe:SYMBOL+OFF and mem:ADDR/LEN:rwx encode; a
 * uprobe (and its return) on this test's own function counts each call;
 * peo_task_events_disable() and _enable() stop and start this thread's
 * events.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <peo/peo.h>

#include "test_util.h"

#define CALLS 10

static volatile unsigned long sink;

void peo_test_probed(void); /* in the symbol table, for the probe */

__attribute__((noinline, used)) void peo_test_probed(void)
{
	sink++;
	__asm__ volatile("" ::: "memory");
}

/* This test's own binary. */
static const char *self_path(void)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (n <= 0)
		return NULL;
	path[n] = '\0';
	return path;
}

/* @a and the parser's attr of @str, the pointer fields left out. */
static void same_as_string(struct peo_attr a, const char *str)
{
	struct peo_event_list *list;
	struct peo_attr b;

	assert_int_equal(peo_event_parse(&list, str, NULL), 1);
	b = *peo_event_attr(peo_event_list_get(list, 0));
	peo_event_list_free(list);
	if (a.type != PEO_TYPE_BREAKPOINT)
		a.config1 = b.config1 = 0; /* uprobe_path, kprobe_func: pointers */
	assert_memory_equal(&a, &b, sizeof(a));
}

static void uprobe_counts_each_call(void **state)
{
	const char *path = self_path();
	char str[PATH_MAX + 64];
	struct peo_counter *c;
	struct peo_count n;
	struct peo_attr a;
	int err;

	(void)state;
	PEO_SKIP_UNDER_VALGRIND("uprobes trap the real code, not valgrind's copy");
	assert_non_null(path);
	err = peo_attr_uprobe(&a, path, "peo_test_probed", 0, 0);
	if (err == -ENOENT)
		PEO_SKIP("%s", peo_last_error());
	assert_int_equal(err, 0);
	snprintf(str, sizeof(str), "uprobe:%s:peo_test_probed", path);
	same_as_string(a, str);
	for (int ret = 0; ret < 2; ret++) {
		assert_int_equal(peo_attr_uprobe(&a, path, "peo_test_probed", 0,
						 ret ? PEO_PROBE_RETURN : 0), 0);
		err = peo_counter_open(&c, &a, NULL, NULL);
		if (err == -EACCES || err == -EPERM)
			PEO_SKIP("uprobes are not allowed here: %s", peo_last_error());
		assert_int_equal(err, 0);
		peo_counter_enable(c);
		for (int i = 0; i < CALLS; i++)
			peo_test_probed();
		peo_counter_disable(c);
		assert_int_equal(peo_counter_read(c, &n), 0);
		assert_int_equal(n.value, CALLS);
		peo_counter_close(c);
	}
	/* a symbol the binary lacks: named */
	assert_true(peo_attr_uprobe(&a, path, "no_such_function_here", 0, 0) < 0);
	assert_non_null(strstr(peo_last_error(), "no_such_function_here"));
	assert_int_equal(peo_attr_uprobe(&a, NULL, NULL, 0, 0), -EINVAL);
	assert_int_equal(peo_attr_uprobe(&a, path, NULL, 0, 8), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "flags"));
}

static void kprobe_as_its_string(void **state)
{
	struct peo_attr a;
	int err;

	(void)state;
	err = peo_attr_kprobe(&a, "do_sys_openat2", 4, 0);
	if (err == -ENOENT) { /* this machine: kprobes are not built in */
		assert_non_null(strstr(peo_last_error(), "kprobe PMU"));
		PEO_SKIP("%s", peo_last_error());
	}
	assert_int_equal(err, 0);
	same_as_string(a, "kprobe:do_sys_openat2+4");
	assert_int_equal(peo_attr_kprobe(&a, NULL, 0xffffffff81000000ull, 0), 0);
	same_as_string(a, "kprobe:0xffffffff81000000");
	assert_int_equal(peo_attr_kprobe(&a, "do_sys_openat2", 0, PEO_PROBE_RETURN), 0);
	same_as_string(a, "kretprobe:do_sys_openat2");
}

static void breakpoint_as_its_string(void **state)
{
	struct peo_attr a;

	(void)state;
	assert_int_equal(peo_attr_breakpoint(&a, 0x1000, 8, PEO_BP_W), 0);
	same_as_string(a, "mem:0x1000/8:w");
	assert_int_equal(peo_attr_breakpoint(&a, 0x2000, 0, PEO_BP_RW), 0);
	same_as_string(a, "mem:0x2000:rw");
	assert_int_equal(peo_attr_breakpoint(&a, 0x3000, 0, PEO_BP_X), 0);
	same_as_string(a, "mem:0x3000:x");
	assert_int_equal(a.bp_len, sizeof(long));
	assert_int_equal(peo_attr_breakpoint(&a, 0x1000, 4, PEO_BP_X | PEO_BP_W), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "access"));
	assert_int_equal(peo_attr_breakpoint(&a, 0x1000, 9, PEO_BP_W), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "length 9"));
	assert_int_equal(peo_attr_breakpoint(NULL, 0x1000, 4, PEO_BP_W), -EINVAL);
}

static void task_events_stop_and_start(void **state)
{
	PEO_OPTS(peo_counter_opts, o, .enabled = 1);
	struct peo_counter *c;
	struct peo_count n1, n2, n3;
	struct peo_attr a;

	(void)state;
	peo_attr_init(&a);
	a.type = PEO_TYPE_SOFTWARE;
	a.config = PEO_COUNT_SW_TASK_CLOCK;
	a.exclude_kernel = a.exclude_hv = 1;
	assert_int_equal(peo_counter_open(&c, &a, NULL, &o), 0);
	assert_int_equal(peo_task_events_disable(), 0);
	assert_int_equal(peo_counter_read(c, &n1), 0);
	peo_test_spin_ns(20 * 1000000ull);
	assert_int_equal(peo_counter_read(c, &n2), 0);
	assert_int_equal(n2.value, n1.value); /* stopped: not a nanosecond more */
	assert_int_equal(peo_task_events_enable(), 0);
	peo_test_spin_ns(20 * 1000000ull);
	assert_int_equal(peo_counter_read(c, &n3), 0);
	assert_true(n3.value > n2.value); /* counting again: the spin's user time */
	peo_counter_close(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(uprobe_counts_each_call),
		PEO_TEST(kprobe_as_its_string),
		PEO_TEST(breakpoint_as_its_string),
		PEO_TEST(task_events_stop_and_start),
	};

	return PEO_TEST_MAIN("probe_attrs", tests);
}
