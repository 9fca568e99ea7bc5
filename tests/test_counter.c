/*
 * test_counter.c - the counting layer against the real kernel: targets,
 * counters, groups of 8 matched by id, enable/disable/reset as one, the
 * read paths (0-byte reads, ENOSPC growth, the control page's fallback),
 * other processes, CPUs, cgroups, and fork-exec with enable_on_exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "counter_internal.h"
#include "test_util.h"

#define GETPPID_CALLS 5000

static void sw_attr(struct peo_attr *a, uint64_t config)
{
	peo_attr_init(a);
	a->type = PEO_TYPE_SOFTWARE;
	a->config = config;
}

static void call_getppid(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/* ---------------------------------------------------------------- targets */

static void target_cpu_lists(void **state)
{
	PEO_OPTS(peo_target_opts, o, .kind = PEO_TARGET_CPUS, .cpus = "0");
	struct peo_target *t = peo_test_target(&o);
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	(void)state;
	assert_int_equal(peo_target_cpu_count(t), 1);
	assert_int_equal(peo_target_cpu(t, 0), 0);
	assert_int_equal(peo_target_thread(t, 0), -1);
	peo_target_free(t);

	o.cpus = NULL; /* every online CPU */
	t = peo_test_target(&o);
	assert_int_equal(peo_target_cpu_count(t), online);
	assert_int_equal(peo_target_cpu(t, (size_t)online - 1), online - 1);
	peo_target_free(t);

	o.cpus = "0-1x";
	assert_int_equal(peo_target_new(&t, &o), -EINVAL);
	assert_null(t);
	assert_error_contains("unexpected 'x' at offset 3");
	o.cpus = "1-0";
	assert_int_equal(peo_target_new(&t, &o), -EINVAL);
	assert_error_contains("backwards");
	o.cpus = "4000";
	assert_int_equal(peo_target_new(&t, &o), -ENOENT);
	assert_error_contains("CPU 4000 is not online");
	o.cpus = "";
	assert_int_equal(peo_target_new(&t, &o), -EINVAL);
	assert_error_contains("empty");
}

/* A sysfs list the library works around when malformed (the perf.data
 * writer's topology): parsed as any other, but a bad one leaves the
 * sentence of the user's last failure as it was. */
static void tolerated_cpu_list_keeps_the_last_error(void **state)
{
	PEO_OPTS(peo_target_opts, o, .kind = PEO_TARGET_CPUS, .cpus = "1-0");
	struct peo_target t = { 0 }, *none;
	char saved_error[1024];

	(void)state;
	assert_int_equal(peo_target_new(&none, &o), -EINVAL); /* the user's last failure */
	snprintf(saved_error, sizeof(saved_error), "%s", peo_last_error());
	assert_non_null(strstr(saved_error, "backwards"));
	assert_true(peo_cpu_list_parse_tolerated(&t, "0-2x") < 0);
	assert_string_equal(peo_last_error(), saved_error);
	assert_true(peo_cpu_list_parse_tolerated(&t, "") < 0);
	assert_string_equal(peo_last_error(), saved_error);
	free(t.cpus); /* what the failed parses left: the next must stand alone */
	t = (struct peo_target){ 0 };
	assert_int_equal(peo_cpu_list_parse_tolerated(&t, "0-2,5"), 0);
	assert_int_equal(t.ncpus, 4);
	for (int i = 0; i < 3; i++)
		assert_int_equal(t.cpus[i], i);
	assert_int_equal(t.cpus[3], 5);
	free(t.cpus);
	t = (struct peo_target){ 0 };
	/* and the plain parse still says what was wrong */
	assert_true(peo_cpu_list_parse(&t, "0-2x", "test list") < 0);
	assert_error_contains("test list");
	free(t.cpus);
}

static void *park(void *arg)
{
	int *fd = arg;
	char c;

	return read(*fd, &c, 1) < 0 ? arg : NULL;
}

static void target_process_lists_threads(void **state)
{
	PEO_OPTS(peo_target_opts, o, .kind = PEO_TARGET_PID, .pid = getpid());
	struct peo_target *t;
	pthread_t th;
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(pthread_create(&th, NULL, park, &p[0]), 0);
	t = peo_test_target(&o);
	assert_int_equal(peo_target_thread_count(t), 2);
	assert_int_equal(peo_target_thread(t, 0), getpid()); /* sorted: the main thread first */
	assert_int_equal(peo_target_cpu(t, 0), -1);
	peo_target_free(t);
	assert_int_equal(write(p[1], "x", 1), 1);
	pthread_join(th, NULL);
	close(p[0]);
	close(p[1]);

	o.pid = 0;
	assert_int_equal(peo_target_new(&t, &o), -EINVAL);
	assert_error_contains("target pid: 0 is not a process id");
	o.pid = 0x3ffffff0; /* above pid_max's ceiling */
	assert_int_equal(peo_target_new(&t, &o), -ESRCH);
	assert_error_contains("no such process");
	o.kind = PEO_TARGET_TID;
	assert_int_equal(peo_target_new(&t, &o), -ESRCH);
	o.kind = PEO_TARGET_CGROUP;
	o.cgroup = "peo-no-such-cgroup";
	assert_int_equal(peo_target_new(&t, &o), -ENOENT);
	assert_error_contains("peo-no-such-cgroup: No such file or directory");
	o.kind = (enum peo_target_kind)42;
	assert_int_equal(peo_target_new(&t, &o), -EINVAL);
}

static void target_opts_size_rule(void **state)
{
	struct {
		struct peo_target_opts o;
		uint64_t newer;
	} big = { .o = { .sz = sizeof(big) }, .newer = 1 };
	struct peo_target *t;

	(void)state;
	assert_int_equal(peo_target_new(&t, &big.o), -E2BIG);
	big.newer = 0;
	assert_int_equal(peo_target_new(&t, &big.o), 0); /* zero tail: accepted */
	peo_target_free(t);
}

/* --------------------------------------------------------------- counters */

static void counter_counts_own_work(void **state)
{
	struct peo_counter *c;
	struct peo_count n0, n1;
	struct peo_attr a;

	(void)state;
	sw_attr(&a, PEO_COUNT_SW_PAGE_FAULTS);
	a.exclude_kernel = 1;
	assert_int_equal(peo_counter_open(&c, &a, NULL, NULL), 0);
	assert_int_equal(peo_counter_read(c, &n0), 0);
	assert_int_equal(n0.value, 0); /* opened disabled */
	assert_int_equal(n0.time_enabled, 0);
	assert_int_equal(peo_counter_enable(c), 0);
	peo_test_touch_pages(300);
	assert_int_equal(peo_counter_disable(c), 0);
	assert_int_equal(peo_counter_read(c, &n1), 0);
	assert_in_range(n1.value, 300, 300 + 64); /* ASan's shadow pages fault too */
	assert_true(n1.time_enabled > 0);
	assert_int_equal(n1.time_enabled, n1.time_running);
	assert_int_equal(n1.scaled, n1.value);
	assert_true(n1.id != 0);
	peo_test_touch_pages(50); /* disabled: not counted */
	assert_int_equal(peo_counter_read(c, &n0), 0);
	assert_int_equal(n0.value, n1.value);
	assert_int_equal(peo_counter_reset(c), 0);
	assert_int_equal(peo_counter_read(c, &n0), 0);
	assert_int_equal(n0.value, 0);
	peo_counter_close(c);
}

/* The control page says no user reads here; the read() fallback answers. */
static void counter_user_read_falls_back(void **state)
{
	PEO_OPTS(peo_counter_opts, o, .enabled = 1, .user_read = 1);
	struct peo_counter *c;
	struct peo_count n, direct;
	struct peo_attr a;
	void *page;

	(void)state;
	sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	assert_int_equal(peo_counter_open(&c, &a, NULL, &o), 0);
	/* A software event's own page says what peo skips looking at: no rdpmc. */
	page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, peo_counter_fd(c, 0), 0);
	assert_true(page != MAP_FAILED);
	assert_int_equal(((const struct peo_mmap_page *)page)->cap_user_rdpmc, 0);
	assert_int_equal(peo_mmap_page_read(page, &direct), 0);
	munmap(page, (size_t)sysconf(_SC_PAGESIZE));
	peo_test_spin_ns(2000000);
	assert_int_equal(peo_counter_read(c, &n), 0);
	assert_int_equal(peo_counter_user_read_ok(c), 0);
	/* task-clock runs on the perf clock, the spin on the thread CPU clock:
	 * they differ by microseconds (2 of 721 runs read just under 2 ms). */
	assert_true(n.value >= 1900000);
	assert_true(n.time_running > 0);
	peo_counter_close(c);

	/* user_read on another thread's counter is refused. */
	{
		PEO_OPTS(peo_target_opts, to, .kind = PEO_TARGET_CPUS, .cpus = "0");
		struct peo_target *t = peo_test_target(&to);

		assert_int_equal(peo_counter_open(&c, &a, t, &o), -EINVAL);
		assert_error_contains("user_read needs a counter on the calling thread");
		peo_target_free(t);
	}
	assert_int_equal(peo_counter_user_read_ok(NULL), -EINVAL);
}

/* The msr PMU's tsc is not a software event: its page is mapped and read
 * (here it says "read()" too: msr offers no rdpmc). */
static void counter_user_read_maps_hardware_pages(void **state)
{
	PEO_OPTS(peo_counter_opts, o, .enabled = 1, .user_read = 1);
	const struct peo_mmap_page *page;
	struct peo_event_list *list;
	struct peo_counter *c;
	struct peo_count n;
	struct peo_attr m;
	int err;

	(void)state;
	if (peo_event_parse(&list, "msr/tsc/", NULL) != 1)
		PEO_SKIP("no msr PMU here: %s", peo_last_error());
	m = *peo_event_attr(peo_event_list_get(list, 0));
	peo_event_list_free(list);
	m.exclude_guest = 0; /* the msr PMU refuses it */
	err = peo_counter_open(&c, &m, NULL, &o);
	if (err)
		PEO_SKIP("msr/tsc/ does not open: %s", peo_last_error());
	page = ((struct peo_group *)c)->page;
	assert_non_null(page);
	assert_int_equal(peo_counter_read(c, &n), 0);
	assert_int_equal(peo_counter_user_read_ok(c), page->cap_user_rdpmc && page->index);
	assert_true(n.value > 0);
	peo_counter_close(c);
}

/* A read() of 0 bytes is what a pinned counter in error state returns. */
static void zero_byte_read_is_reported(void **state)
{
	struct peo_counter *c;
	struct peo_count n;
	struct peo_attr a;
	int null_fd, fd;

	(void)state;
	sw_attr(&a, PEO_COUNT_SW_DUMMY);
	assert_int_equal(peo_counter_open(&c, &a, NULL, NULL), 0);
	fd = peo_counter_fd(c, 0);
	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(null_fd >= 0);
	assert_int_equal(dup3(null_fd, fd, O_CLOEXEC), fd); /* reads now return 0 bytes */
	close(null_fd);
	assert_int_equal(peo_counter_read(c, &n), -ENODATA);
	assert_error_contains("returned 0 bytes");
	assert_error_contains("error state");
	peo_counter_close(c);
}

/* ----------------------------------------------------------------- groups */

static const uint64_t eight[] = {
	PEO_COUNT_SW_TASK_CLOCK,      PEO_COUNT_SW_PAGE_FAULTS,     PEO_COUNT_SW_PAGE_FAULTS_MIN,
	PEO_COUNT_SW_CONTEXT_SWITCHES, PEO_COUNT_SW_CPU_MIGRATIONS, PEO_COUNT_SW_PAGE_FAULTS_MAJ,
	PEO_COUNT_SW_ALIGNMENT_FAULTS, PEO_COUNT_SW_CPU_CLOCK,
};

static struct peo_group *open_eight(const struct peo_counter_opts *o)
{
	struct peo_attr attrs[8];
	struct peo_group *g = NULL;

	for (size_t i = 0; i < 8; i++) {
		sw_attr(&attrs[i], eight[i]);
		attrs[i].exclude_kernel = 1;
	}
	if (peo_group_open(&g, attrs, 8, NULL, o))
		print_error("peo_group_open: %s\n", peo_last_error());
	assert_non_null(g);
	return g;
}

static void group_of_eight_reads_by_id(void **state)
{
	struct peo_group *g = open_eight(NULL);
	struct peo_count c[8];

	(void)state;
	assert_int_equal(peo_group_size(g), 8);
	assert_int_equal(peo_group_enable(g), 0);
	peo_test_touch_pages(200);
	peo_test_spin_ns(1000000);
	assert_int_equal(peo_group_disable(g), 0);
	assert_int_equal(peo_group_read(g, c, 8), 8);
	for (size_t i = 0; i < 8; i++) {
		uint64_t id;

		assert_int_equal(peo_sys_ioc_id(peo_group_fd(g, 0, i), &id), 0);
		assert_int_equal(c[i].id, id);
		/* One read: every member shares the leader's times. */
		assert_int_equal(c[i].time_enabled, c[0].time_enabled);
	}
	assert_true(c[0].value >= 1000000);         /* task-clock, ns */
	assert_in_range(c[1].value, 200, 200 + 32); /* page-faults */
	assert_int_equal(c[2].value, c[1].value);   /* all minor */
	assert_int_equal(c[5].value, 0);            /* no major faults */
	assert_true(c[7].value >= 1000000);         /* cpu-clock */
	assert_int_equal(peo_group_read(g, c, 7), -EINVAL); /* too little room */
	assert_error_contains("room for 7 counts, the group has 8");
	peo_group_close(g);
}

static void group_enable_disable_reset_as_one(void **state)
{
	struct peo_group *g = open_eight(NULL);
	struct peo_count a[8], b[8];

	(void)state;
	for (int round = 0; round < 2; round++) { /* a second enable must start every member again */
		assert_int_equal(peo_group_reset(g), 0);
		assert_int_equal(peo_group_enable(g), 0);
		peo_test_touch_pages(100);
		peo_test_spin_ns(500000);
		assert_int_equal(peo_group_disable(g), 0);
		assert_int_equal(peo_group_read(g, a, 8), 8);
		assert_true(a[0].value >= 500000);
		assert_true(a[7].value >= 500000);
		assert_in_range(a[1].value, 100, 100 + 32);
		assert_int_equal(a[2].value, a[1].value);
		peo_test_touch_pages(100); /* disabled: nobody counts */
		assert_int_equal(peo_group_read(g, b, 8), 8);
		for (size_t i = 0; i < 8; i++)
			assert_int_equal(b[i].value, a[i].value);
	}
	assert_int_equal(peo_group_reset(g), 0);
	assert_int_equal(peo_group_read(g, b, 8), 8);
	for (size_t i = 0; i < 8; i++)
		assert_int_equal(b[i].value, 0);
	peo_group_close(g);
}

/* A member added to our leader by someone else: the buffer grows, ours still match. */
static void group_read_grows_on_enospc(void **state)
{
	PEO_OPTS(peo_counter_opts, o, .enabled = 1);
	struct peo_group *g;
	struct peo_count c[2];
	struct peo_attr attrs[2], extra[3];
	int extra_fd[3];

	(void)state;
	sw_attr(&attrs[0], PEO_COUNT_SW_TASK_CLOCK);
	sw_attr(&attrs[1], PEO_COUNT_SW_PAGE_FAULTS);
	assert_int_equal(peo_group_open(&g, attrs, 2, NULL, &o), 0);
	for (int i = 0; i < 3; i++) {
		sw_attr(&extra[i], PEO_COUNT_SW_CONTEXT_SWITCHES);
		extra[i].read_format = PEO_FORMAT_GROUP | PEO_FORMAT_ID |
				       PEO_FORMAT_TOTAL_TIME_ENABLED | PEO_FORMAT_TOTAL_TIME_RUNNING;
		extra_fd[i] = peo_sys_open(&extra[i], 0, -1, peo_group_fd(g, 0, 0), PEO_FLAG_FD_CLOEXEC);
		assert_true(extra_fd[i] >= 0);
	}
	peo_test_touch_pages(64);
	size_t before = ((struct peo_group *)g)->buf_bytes;
	assert_int_equal(peo_group_read(g, c, 2), 2);
	assert_true(((struct peo_group *)g)->buf_bytes > before);
	assert_in_range(c[1].value, 64, 64 + 32);
	for (int i = 0; i < 3; i++)
		close(extra_fd[i]);
	peo_group_close(g);
}

static void group_from_event_strings(void **state)
{
	PEO_OPTS(peo_counter_opts, o, .enabled = 1);
	struct peo_event_list *list;
	struct peo_group *g;
	struct peo_count c[2];

	(void)state;
	PEO_SKIP_WITHOUT_TRACEPOINT("syscalls", "sys_enter_getppid");
	assert_int_equal(peo_event_parse(&list, "{syscalls:sys_enter_getppid,page-faults:u}", NULL), 2);
	assert_int_equal(peo_group_open_events(&g, list, 0, 2, NULL, &o), 0);
	call_getppid(GETPPID_CALLS);
	assert_int_equal(peo_group_read(g, c, 2), 2);
	assert_int_equal(c[0].value, GETPPID_CALLS); /* exactly: tracepoints do not skid */
	peo_group_close(g);
	assert_int_equal(peo_group_open_events(&g, list, 1, 2, NULL, &o), -EINVAL);
	assert_error_contains("past the list's 2 events");
	peo_event_list_free(list);
}

/* ------------------------------------------------ other tasks, CPUs, cgroups */

/*
 * Start the workload waiting on its stdin; returns its pid and the pipe to
 * wake it.  Returns once the child has exec'ed the workload (no sleep to
 * guess it): EOF on @ready means the exec closed the child's O_CLOEXEC copy
 * of its write end; a failed exec writes its errno there instead.  Until the
 * wake the workload makes no getppid call and starts no thread.
 */
static pid_t start_waiting_workload(int *wake_fd, const char *threads)
{
	const char *prog = getenv("PEO_WORKLOAD");
	char n[32];
	int p[2], ready[2], err = 0;
	ssize_t got;
	pid_t pid;

	snprintf(n, sizeof(n), "%d", GETPPID_CALLS);
	assert_non_null(prog);
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(pipe2(ready, O_CLOEXEC), 0);
	pid = fork();
	if (pid == 0) {
		/* dup2(0, 0) would keep O_CLOEXEC (a test run with stdin closed). */
		if (p[0] == 0)
			fcntl(0, F_SETFD, 0);
		else
			dup2(p[0], 0);
		execl(prog, prog, "-w", "-n", n, "-m", "100", "-T", threads, (char *)NULL);
		err = errno;
		if (write(ready[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	assert_true(pid > 0);
	close(p[0]);
	close(ready[1]);
	do
		got = read(ready[0], &err, sizeof(err));
	while (got < 0 && errno == EINTR);
	close(ready[0]);
	if (got != 0)
		print_error("cannot run %s: %s\n", prog, got > 0 ? strerror(err) : strerror(errno));
	assert_int_equal(got, 0);
	*wake_fd = p[1];
	return pid;
}

static int finish_workload(pid_t pid, int wake_fd)
{
	int status;

	assert_int_equal(write(wake_fd, "go", 2), 2);
	close(wake_fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

/* Number of BPF programs on the tracepoint of @fd (from any event), or -1. */
static long bpf_programs_on(int fd)
{
	struct peo_query_bpf q = { .ids_len = 0 }; /* "how many?" */

	return peo_sys_ioc_query_bpf(fd, &q) == 0 ? (long)q.prog_cnt : -1;
}

/*
 * Count the workload's getppid calls on @target; the count must be exact (or
 * at least, system-wide).
 *
 * A BPF program attached with PERF_EVENT_IOC_SET_BPF belongs to the
 * tracepoint, not to the event it was attached through: perf_syscall_enter()
 * runs the tracepoint's programs on every hit and, when they return 0, gives
 * the hit to no perf event on any task or CPU.  test_sys attaches a "return 0"
 * program to this tracepoint, so running beside it loses counts here (CTest
 * keeps them apart with RESOURCE_LOCK, see tests/CMakeLists.txt); a wrong
 * count says how many programs were attached around the count.
 */
static void count_getppid_on(const struct peo_target_opts *to, pid_t pid, int wake_fd, int exact,
			     int inherit)
{
	PEO_OPTS(peo_counter_opts, o, .enabled = 1, .inherit = inherit);
	struct peo_event_list *list;
	struct peo_target *t = peo_test_target(to);
	struct peo_group *g;
	struct peo_count c;
	long progs_before;
	int err;

	assert_int_equal(peo_event_parse(&list, "syscalls:sys_enter_getppid", NULL), 1);
	err = peo_group_open_events(&g, list, 0, 1, t, &o);
	if (err)
		print_error("open: %s\n", peo_last_error());
	assert_int_equal(err, 0);
	assert_int_equal(peo_group_slot_count(g), peo_target_cpu_count(t) * peo_target_thread_count(t));
	progs_before = bpf_programs_on(peo_group_fd(g, 0, 0));
	assert_int_equal(finish_workload(pid, wake_fd), 0);
	assert_int_equal(peo_group_read(g, &c, 1), 1);
	if (exact ? c.value != GETPPID_CALLS : c.value < GETPPID_CALLS)
		print_error("counted %llu of the workload's %d getppid calls (time enabled %llu ns, "
			    "running %llu ns); BPF programs on the tracepoint before/after: %ld/%ld "
			    "(one that returns 0 drops every hit for every perf event: is test_sys or "
			    "a BPF tool using syscalls:sys_enter_getppid?)\n",
			    (unsigned long long)c.value, GETPPID_CALLS,
			    (unsigned long long)c.time_enabled, (unsigned long long)c.time_running,
			    progs_before, bpf_programs_on(peo_group_fd(g, 0, 0)));
	if (exact)
		assert_int_equal(c.value, GETPPID_CALLS);
	else
		assert_true(c.value >= GETPPID_CALLS);
	/* The per-thread or per-CPU breakdown adds up to the total. */
	{
		struct peo_count part, sum = { 0 };
		int by_cpu = peo_target_thread_count(t) == 1;
		size_t k = by_cpu ? peo_target_cpu_count(t) : peo_target_thread_count(t);

		for (size_t i = 0; i < k; i++) {
			assert_int_equal(peo_group_counts(g, by_cpu ? PEO_COUNT_CPU : PEO_COUNT_THREAD,
							  i, &part, 1), 1);
			sum.value += part.value;
		}
		assert_int_equal(sum.value, c.value);
		assert_int_equal(peo_group_counts(g, PEO_COUNT_CPU, 9999, &part, 1), -EINVAL);
	}
	peo_group_close(g);
	peo_target_free(t);
	peo_event_list_free(list);
}

static void pid_target_counts_every_thread(void **state)
{
	int wake;
	pid_t pid;

	(void)state;
	PEO_SKIP_WITHOUT_TRACEPOINT("syscalls", "sys_enter_getppid");
	pid = start_waiting_workload(&wake, "4");
	PEO_OPTS(peo_target_opts, to, .kind = PEO_TARGET_PID, .pid = pid);
	struct peo_target *t = peo_test_target(&to);

	assert_int_equal(peo_target_thread_count(t), 1); /* its threads start after the wake */
	peo_target_free(t);
	count_getppid_on(&to, pid, wake, 1, 1); /* so inherit must count them */
}

static void tid_target_counts_one_thread(void **state)
{
	int wake;
	pid_t pid;

	(void)state;
	PEO_SKIP_WITHOUT_TRACEPOINT("syscalls", "sys_enter_getppid");
	pid = start_waiting_workload(&wake, "1");
	PEO_OPTS(peo_target_opts, to, .kind = PEO_TARGET_TID, .pid = pid);
	count_getppid_on(&to, pid, wake, 1, 0);
}

static void cpu_targets_count_system_wide(void **state)
{
	int wake;
	pid_t pid;

	(void)state;
	PEO_SKIP_WITHOUT_TRACEPOINT("syscalls", "sys_enter_getppid");
	pid = start_waiting_workload(&wake, "1");
	PEO_OPTS(peo_target_opts, all, .kind = PEO_TARGET_CPUS);
	count_getppid_on(&all, pid, wake, 0, 0); /* every CPU: at least the workload's */

	/* CPU 0 alone, with the workload pinned there. */
	pid = start_waiting_workload(&wake, "1");
	{
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(0, &set);
		assert_int_equal(sched_setaffinity(pid, sizeof(set), &set), 0);
	}
	PEO_OPTS(peo_target_opts, cpu0, .kind = PEO_TARGET_CPUS, .cpus = "0");
	count_getppid_on(&cpu0, pid, wake, 0, 0);
}

/* The cgroup this process's test makes, in @dir (@cap bytes); its name in @name. */
static void test_cgroup(char *dir, size_t cap, char name[64])
{
	char root[1024];

	peo_cgroup_root(root, sizeof(root));
	snprintf(name, 64, "peo-test-%d", (int)getpid());
	snprintf(dir, cap, "%s/%s", root, name);
}

/* However the test ended: its cgroup's tasks killed, the cgroup removed
 * (a failed assertion had left one behind each run), then the fd check. */
static int remove_test_cgroup(void **state)
{
	char dir[1200], procs[1300], name[64];
	FILE *in;
	int pid;

	test_cgroup(dir, sizeof(dir), name);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	if ((in = fopen(procs, "r"))) {
		while (fscanf(in, "%d", &pid) == 1) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0); /* the test's workload: a child of this process */
		}
		fclose(in);
	}
	for (int i = 0; i < 100 && rmdir(dir) < 0 && errno == EBUSY; i++)
		usleep(10000); /* a killed task leaves its cgroup a moment later */
	return peo_test_fds_teardown(state);
}

static void cgroup_target_counts_its_tasks(void **state)
{
	char dir[1200], procs[1300], pidtext[32], name[64];
	int wake, fd;
	pid_t pid;

	(void)state;
	PEO_SKIP_WITHOUT_TRACEPOINT("syscalls", "sys_enter_getppid");
	test_cgroup(dir, sizeof(dir), name);
	if (mkdir(dir, 0755) < 0)
		PEO_SKIP("cannot create %s: %s (needs root and a writable cgroup tree)", dir,
			 strerror(errno));
	pid = start_waiting_workload(&wake, "1");
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	snprintf(pidtext, sizeof(pidtext), "%d", (int)pid);
	fd = open(procs, O_WRONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_true(write(fd, pidtext, strlen(pidtext)) > 0);
	close(fd);
	PEO_OPTS(peo_target_opts, to, .kind = PEO_TARGET_CGROUP, .cgroup = name);
	count_getppid_on(&to, pid, wake, 1, 0); /* only the workload lives in the cgroup */
	assert_int_equal(rmdir(dir), 0);
}

/* ------------------------------------------------------------ fork and exec */

static void child_counts_from_exec(void **state)
{
	PEO_OPTS(peo_counter_opts, o, .enable_on_exec = 1, .inherit = 1);
	const char *argv[] = { getenv("PEO_WORKLOAD"), "-n", "5000", "-m", "100", "-e", "3", NULL };
	struct peo_event_list *list;
	struct peo_target *t;
	struct peo_child *child;
	struct peo_group *g;
	struct peo_count c[2];
	struct rusage ru;
	int status;

	(void)state;
	PEO_SKIP_WITHOUT_TRACEPOINT("syscalls", "sys_enter_getppid");
	assert_non_null(argv[0]);
	assert_int_equal(peo_child_spawn(&child, argv), 0);
	PEO_OPTS(peo_target_opts, to, .kind = PEO_TARGET_TID, .pid = peo_child_pid(child));
	t = peo_test_target(&to);
	assert_int_equal(peo_event_parse(&list, "{syscalls:sys_enter_getppid,page-faults}", NULL), 2);
	assert_int_equal(peo_group_open_events(&g, list, 0, 2, t, &o), 0);
	assert_int_equal(peo_group_read(g, c, 2), 2);
	assert_int_equal(c[0].time_enabled, 0); /* nothing before exec */
	assert_int_equal(peo_child_start(child), 0);
	assert_int_equal(peo_child_wait(child, &status, &ru), 0);
	assert_int_equal(peo_exit_code(status), 3); /* its exit status comes back */
	assert_int_equal(peo_group_read(g, c, 2), 2);
	assert_int_equal(c[0].value, GETPPID_CALLS);
	assert_true(c[1].value >= 100);
	assert_true(ru.ru_minflt >= 100); /* the usage is the command's: its 100 fresh pages */
	peo_group_close(g);
	peo_target_free(t);
	peo_event_list_free(list);
	peo_child_free(child);
}

static void child_errors_and_signals(void **state)
{
	const char *missing[] = { "peo-no-such-command", NULL };
	const char *killed[] = { getenv("PEO_WORKLOAD"), "-k", "15", NULL };
	struct peo_child *child;
	int status;

	(void)state;
	assert_int_equal(peo_child_spawn(&child, missing), 0);
	assert_int_equal(peo_child_start(child), -ENOENT);
	assert_error_contains("cannot run 'peo-no-such-command'");
	assert_int_equal(peo_child_wait(child, &status, NULL), -ECHILD);
	peo_child_free(child);

	assert_int_equal(peo_child_spawn(&child, killed), 0);
	assert_int_equal(peo_child_start(child), 0);
	assert_int_equal(peo_child_wait(child, &status, NULL), 0);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(peo_exit_code(status), 128 + SIGTERM);
	peo_child_free(child);

	/* Never started: freed without exec'ing, and reaped. */
	assert_int_equal(peo_child_spawn(&child, killed), 0);
	pid_t pid = peo_child_pid(child);
	peo_child_free(child);
	assert_int_equal(waitpid(pid, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);

	const char *empty[] = { NULL };
	assert_int_equal(peo_child_spawn(&child, empty), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(target_cpu_lists),
		PEO_TEST(tolerated_cpu_list_keeps_the_last_error),
		PEO_TEST(target_process_lists_threads),
		PEO_TEST(target_opts_size_rule),
		PEO_TEST(counter_counts_own_work),
		PEO_TEST(counter_user_read_falls_back),
		PEO_TEST(counter_user_read_maps_hardware_pages),
		PEO_TEST(zero_byte_read_is_reported),
		PEO_TEST(group_of_eight_reads_by_id),
		PEO_TEST(group_enable_disable_reset_as_one),
		PEO_TEST(group_read_grows_on_enospc),
		PEO_TEST(group_from_event_strings),
		PEO_TEST(pid_target_counts_every_thread),
		PEO_TEST(tid_target_counts_one_thread),
		PEO_TEST(cpu_targets_count_system_wide),
		cmocka_unit_test_setup_teardown(cgroup_target_counts_its_tasks, peo_test_fds_setup,
						remove_test_cgroup),
		PEO_TEST(child_counts_from_exec),
		PEO_TEST(child_errors_and_signals),
	};

	return PEO_TEST_MAIN("counter", tests);
}
