/*
 * test_hw.c - hardware events.  Each test probes by opening the event: where
 * the machine has no PMU it skips with the kernel's answer; where it has one
 * the counts must move with the work.  make check-hw runs these in an arm64
 * guest whose emulated PMU (armv8_pmuv3) really counts: the event layer's
 * hardware and raw spellings, groups read by id, multiplexing, overflow
 * sampling, and the older kernel's attr size.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <peo/peo.h>

#include "internal.h"
#include "test_util.h"

/* Work whose instruction count does not depend on time: @n loop rounds. */
static uint64_t fixed_work(uint64_t n)
{
	volatile uint64_t x = 1;

	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + i;
	return x;
}

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

/* Open event string @s on this thread, enabled; -errno when it cannot. */
static int open_string(const char *s, struct peo_event_list **list)
{
	int n = peo_event_parse(list, s, NULL), fd;

	if (n < 0)
		return n;
	fd = peo_event_open(peo_event_list_get(*list, 0), NULL, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd < 0)
		peo_event_list_free(*list);
	return fd;
}

/* The count of @fd over @rounds of fixed work. */
static uint64_t count_over(int fd, uint64_t rounds)
{
	assert_int_equal(peo_sys_ioc_reset(fd, 0), 0);
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	fixed_work(rounds);
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	return peo_test_read_count(fd);
}

/* Generic, raw and PMU-term spellings each count, and more with more work. */
static void events_through_the_event_layer(void **state)
{
	char pmu[32], term[96];
	const char *strings[4];

	(void)state;
	if (!peo_test_cpu_pmu(pmu, sizeof(pmu)))
		PEO_SKIP("no CPU PMU in /sys/bus/event_source/devices");
#ifdef __aarch64__
	snprintf(term, sizeof(term), "%s/event=0x11/u", pmu); /* CPU_CYCLES */
	strings[2] = "r11:u";
#else
	snprintf(term, sizeof(term), "%s/event=0x3c/u", pmu); /* unhalted core cycles */
	strings[2] = "r003c:u";
#endif
	strings[0] = "cycles:u";
	strings[1] = "instructions:u";
	strings[3] = term;
	for (size_t i = 0; i < 4; i++) {
		struct peo_event_list *list;
		uint64_t small, big;
		int fd = open_string(strings[i], &list);

		if (fd < 0) {
			print_error("%s: %s\n", strings[i], peo_last_error());
			fail_msg("%s does not open on a machine with a %s PMU", strings[i], pmu);
		}
		assert_int_equal(peo_event_attr(peo_event_list_get(list, 0))->exclude_kernel, 1);
		small = count_over(fd, 100000);
		big = count_over(fd, 1000000);
		print_message("%-28s %12llu for 1e5 rounds, %12llu for 1e6\n", strings[i],
			      (unsigned long long)small, (unsigned long long)big);
		assert_true(small > 0);
		assert_true(big > 5 * small); /* ten times the work */
		close(fd);
		peo_event_list_free(list);
	}
}

/* What the PMU lacks fails with peo's sentence naming the PMU. */
static void unsupported_generic_events_say_so(void **state)
{
	static const char *const generic[] = { "cache-references", "cache-misses", "branches",
						"branch-misses", "bus-cycles", "ref-cycles" };
	char pmu[32];
	int refused = 0;

	(void)state;
	if (!peo_test_cpu_pmu(pmu, sizeof(pmu)))
		PEO_SKIP("no CPU PMU in /sys/bus/event_source/devices");
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
		struct peo_event_list *list;
		int fd = open_string(generic[i], &list);

		if (fd >= 0) {
			close(fd);
			peo_event_list_free(list);
			continue;
		}
		print_message("%s: %s\n", generic[i], peo_last_error());
		assert_true(fd == -ENOENT || fd == -EOPNOTSUPP);
		assert_error_contains("does not implement this event");
		assert_error_contains(pmu);
		refused++;
	}
	if (!refused) /* nothing said here: not a pass */
		PEO_SKIP("every generic event opens on %s: no refusal to check", pmu);
	print_message("%d of the generic events are not in this PMU\n", refused);
}

/* A cycles+instructions group through the counting layer, read by id. */
static void group_read_by_id_grows(void **state)
{
	struct peo_attr attrs[2];
	struct peo_group *g;
	struct peo_count a[2], b[2];
	int err;

	(void)state;
	for (int i = 0; i < 2; i++) {
		peo_attr_init(&attrs[i]);
		attrs[i].type = PEO_TYPE_HARDWARE;
		attrs[i].config = i ? PEO_COUNT_HW_INSTRUCTIONS : PEO_COUNT_HW_CPU_CYCLES;
		attrs[i].exclude_kernel = attrs[i].exclude_hv = 1;
	}
	err = peo_group_open(&g, attrs, 2, NULL, NULL);
	if (err == -ENOENT || err == -EOPNOTSUPP)
		PEO_SKIP("%s", peo_last_error());
	assert_int_equal(err, 0);
	assert_int_equal(peo_group_enable(g), 0);
	fixed_work(100000);
	assert_int_equal(peo_group_read(g, a, 2), 2);
	fixed_work(1000000);
	assert_int_equal(peo_group_read(g, b, 2), 2);
	assert_int_equal(peo_group_disable(g), 0);
	assert_true(a[0].id != a[1].id);
	for (int i = 0; i < 2; i++) {
		assert_true(a[i].value > 0);
		assert_true(b[i].value > a[i].value * 5);
		assert_int_equal(b[i].time_running, b[i].time_enabled); /* a group: all or nothing */
	}
	peo_group_close(g);
}

/* More counters than the PMU has: multiplexed, and the scaled estimates agree
 * with an unscaled count of the same fixed work. */
static void multiplexing_scales_right(void **state)
{
	enum { N = 16, ROUNDS = 3000000 };
	struct peo_counter *c[N];
	struct peo_count n;
	struct peo_attr a;
	uint64_t alone;
	int err, multiplexed = 0;

	(void)state;
	peo_attr_init(&a);
	a.type = PEO_TYPE_HARDWARE;
	a.config = PEO_COUNT_HW_INSTRUCTIONS;
	a.exclude_kernel = a.exclude_hv = 1;
	err = peo_counter_open(&c[0], &a, NULL, NULL);
	if (err == -ENOENT || err == -EOPNOTSUPP)
		PEO_SKIP("%s", peo_last_error());
	assert_int_equal(err, 0);
	assert_int_equal(peo_counter_enable(c[0]), 0);
	fixed_work(ROUNDS);
	assert_int_equal(peo_counter_disable(c[0]), 0);
	assert_int_equal(peo_counter_read(c[0], &n), 0);
	alone = n.value;
	assert_int_equal(n.time_running, n.time_enabled);
	peo_counter_close(c[0]);
	for (int i = 0; i < N; i++)
		assert_int_equal(peo_counter_open(&c[i], &a, NULL, NULL), 0);
	for (int i = 0; i < N; i++)
		assert_int_equal(peo_counter_enable(c[i]), 0);
	fixed_work(ROUNDS);
	for (int i = 0; i < N; i++)
		assert_int_equal(peo_counter_disable(c[i]), 0);
	for (int i = 0; i < N; i++) {
		assert_int_equal(peo_counter_read(c[i], &n), 0);
		multiplexed += n.time_running < n.time_enabled;
		print_message("counter %2d: value %10llu running %5.1f%% scaled %10llu (alone %llu)\n", i,
			      (unsigned long long)n.value,
			      100.0 * (double)n.time_running / (double)(n.time_enabled ? n.time_enabled : 1),
			      (unsigned long long)n.scaled, (unsigned long long)alone);
		assert_true(n.time_running > 0);
		/* within 20%: the enable/disable loops and the rotation points add a little */
		assert_true(n.scaled > alone * 8 / 10 && n.scaled < alone * 12 / 10);
		peo_counter_close(c[i]);
	}
	assert_true(multiplexed > 0);
}

/* Overflow sampling on cycles fills a ring with user-space ips. */
static void cycles_overflow_samples_into_a_ring(void **state)
{
	PEO_OPTS(peo_ring_opts, ro, .data_pages = 16);
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	struct peo_ring *r;
	struct peo_attr a;
	int fd, samples = 0, user = 0;

	(void)state;
	peo_attr_init(&a);
	a.type = PEO_TYPE_HARDWARE;
	a.config = PEO_COUNT_HW_CPU_CYCLES;
	a.exclude_kernel = a.exclude_hv = 1;
	a.sample_period = 100000;
	a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID;
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd == -ENOENT || fd == -EOPNOTSUPP)
		PEO_SKIP("%s", peo_last_error());
	assert_true(fd >= 0);
	assert_int_equal(peo_ring_map(&r, fd, &ro), 0);
	fixed_work(3000000);
	while (peo_ring_next(r, &rec, NULL, 0) == 1)
		if (rec.header.type == PEO_RECORD_SAMPLE) {
			samples++;
			user += (rec.header.misc & PEO_RECORD_MISC_CPUMODE_MASK) == PEO_RECORD_MISC_USER;
		}
	peo_ring_consume(r);
	print_message("%d samples, %d in user space\n", samples, user);
	assert_true(samples >= 10);
	assert_int_equal(user, samples); /* exclude_kernel */
	peo_ring_unmap(r);
	close(fd);
}

/* An older kernel (the guest's 6.1): config3 past its attr is refused with
 * the sentence that says so; an ordinary request opens. */
static void older_kernel_refuses_config3(void **state)
{
	int size = peo_kernel_attr_size();

	(void)state;
	if (size >= 136)
		PEO_SKIP("this kernel's attr is %d bytes: it has config3", size);
	assert_int_equal(peo_test_config3_refused(), 0); /* what failed is printed above */
}

static volatile int watch_traps;
static volatile uint64_t watch_data, watch_addr;
static volatile uint64_t watched;

static void on_watch_trap(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_code == 6) { /* TRAP_PERF: si_addr, then the attr's sig_data */
		unsigned long word;

		memcpy(&word, (const char *)&si->si_addr + sizeof(void *), sizeof(word));
		watch_data = word;
		watch_addr = (uint64_t)(uintptr_t)si->si_addr;
		watch_traps++;
	}
}

/*
 * The watchpoint's work, in a child: 0 when three writes gave three SIGTRAPs
 * with sig_data and the address, 77 when it never fires, 1 otherwise.
 * @has_sigtrap: the kernel is 5.13 or later (asked in the parent: a cmocka
 * assert must not run in a forked child).
 */
static int watch_three_writes(int has_sigtrap)
{
	struct sigaction sa = { .sa_sigaction = on_watch_trap, .sa_flags = SA_SIGINFO };
	struct peo_attr a;
	int fd;

	peo_test_watch_attr(&a, &watched);
	a.exclude_kernel = a.exclude_hv = 1;
	a.sigtrap = 1;
	a.remove_on_exec = 1; /* the kernel demands it with sigtrap */
	a.sig_data = 0xc0ffee;
	a.disabled = 1;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTRAP, &sa, NULL))
		return 1;
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd < 0) { /* no breakpoint slots, or a kernel before sigtrap (5.13): skip; else fail */
		printf("watchpoint: %s\n", peo_last_error());
		return -fd == ENOENT || -fd == EOPNOTSUPP || -fd == ENODEV || -fd == ENOSPC ||
		       (-fd == EINVAL && !has_sigtrap) ? 77 : 1;
	}
	if (peo_sys_ioc_enable(fd, 0))
		return 1;
	for (int i = 0; i < 3; i++)
		watched = (uint64_t)i + 1;
	peo_sys_ioc_disable(fd, 0);
	printf("watchpoint: %d SIGTRAPs, sig_data %#llx, si_addr %#llx (watched at %#llx)\n",
	       watch_traps, (unsigned long long)watch_data, (unsigned long long)watch_addr,
	       (unsigned long long)(uintptr_t)&watched);
	if (!watch_traps)
		return 77;
	return watch_traps == 3 && watch_data == 0xc0ffee &&
	       watch_addr == (uint64_t)(uintptr_t)&watched ? 0 : 1;
}

/* A write watchpoint fires on each write, and with sigtrap each hit is a
 * SIGTRAP carrying sig_data.  Probed in a child with a deadline: a kernel
 * may never fire it, or trap the same write again and again. */
static void watchpoint_fires_with_sigtrap(void **state)
{
	int status, has_sigtrap = peo_test_release_at_least("5.13");
	pid_t pid;

	(void)state;
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(10);
		fflush(stdout);
		_exit(watch_three_writes(has_sigtrap));
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		PEO_SKIP("three writes under a sigtrap watchpoint did not finish in 10 s: the "
			 "kernel keeps trapping (seen in the arm64 6.1 guest); counting "
			 "watchpoints work there (test_event_open)");
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		PEO_SKIP("a write watchpoint with sigtrap does not open or never fires here");
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(cycles_count_work),
		PEO_TEST(cycles_and_instructions_group),
		PEO_TEST(events_through_the_event_layer),
		PEO_TEST(unsupported_generic_events_say_so),
		PEO_TEST(group_read_by_id_grows),
		PEO_TEST(multiplexing_scales_right),
		PEO_TEST(cycles_overflow_samples_into_a_ring),
		PEO_TEST(older_kernel_refuses_config3),
		PEO_TEST(watchpoint_fires_with_sigtrap),
	};
	char pmu[64];

	/* on a hybrid machine, a CPU of the PMU the tests name (cpu_core) */
	if (peo_test_cpu_pmu(pmu, sizeof(pmu)) && peo_test_pin_to_pmu(pmu) < 0)
		fprintf(stderr, "test_hw: cannot keep to a CPU of %s: counts may be 0\n", pmu);
	return PEO_TEST_MAIN("hw", tests);
}
