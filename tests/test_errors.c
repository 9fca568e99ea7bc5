/*
 * test_errors.c - each errno this machine lets us provoke through the
 * explained open (peo_open_explained(): the one under peo_sys_open(), with
 * the attr size as given; peo_sys_open() itself for E2BIG): the negative
 * errno, the key facts of peo_last_error()'s sentence, errno left as it was,
 * and no fd left open.  peo_sys_perf_event_open()'s plain sentence is
 * test_sys's.
 *
 * Checks that change the process (fd limits, dropping root) run in a forked
 * child, which reports through a pipe and its exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "test_util.h"

#define ERRNO_MARK 12345
#define NOBODY 65534

/* ------------------------------------------------------------- helpers */

/* peo_open_explained() with errno set to a mark that must survive. */
static int open_checked(struct peo_attr *attr, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	int fd;

	errno = ERRNO_MARK;
	fd = peo_open_explained(attr, pid, cpu, group_fd, flags);
	assert_int_equal(errno, ERRNO_MARK);
	return fd;
}

/* Expect @err from opening @attr; closes the fd (and fails) if it opened. */
static void expect_open_error(struct peo_attr *attr, pid_t pid, int cpu, int group_fd, int err)
{
	int fd = open_checked(attr, pid, cpu, group_fd, PEO_FLAG_FD_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		fail_msg("perf_event_open opened fd %d; expected -%d (%s)", fd, err, strerror(err));
	}
	if (fd != -err)
		print_error("sentence: %s\n", peo_last_error());
	assert_int_equal(fd, -err);
}

/* The sentence must contain the printf-formatted text. */
static void assert_error_containsf(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void assert_error_containsf(int line, const char *fmt, ...)
{
	char needle[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(needle, sizeof(needle), fmt, ap);
	va_end(ap);
	peo_assert_error_contains(needle, __FILE__, line);
}
#define ASSERT_ERROR_CONTAINSF(...) assert_error_containsf(__LINE__, __VA_ARGS__)

/* "6.18.44-foo" >= major.minor? */
/* ------------------------------------------------ checks in a forked child */

enum { CHILD_PASSED = 0, CHILD_FAILED = 1, CHILD_SKIPPED = 2 };

struct child_report {
	char *msg;
	size_t cap;
};

/* Records why the child failed or skipped; returns @code. */
static int child_says(struct child_report *r, int code, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int child_says(struct child_report *r, int code, int line, const char *fmt, ...)
{
	int n = snprintf(r->msg, r->cap, "%s:%d: ", __FILE__, line);
	va_list ap;

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < r->cap)
		vsnprintf(r->msg + n, r->cap - (size_t)n, fmt, ap);
	va_end(ap);
	return code;
}
#define CHILD_CHECK(r, cond, ...)                                               \
	do {                                                                    \
		if (!(cond))                                                    \
			return child_says(r, CHILD_FAILED, __LINE__, __VA_ARGS__); \
	} while (0)
#define CHILD_SKIP(r, ...) return child_says(r, CHILD_SKIPPED, __LINE__, __VA_ARGS__)

static int child_sentence_has(struct child_report *r, int line, const char *needle)
{
	if (strstr(peo_last_error(), needle))
		return 1;
	child_says(r, CHILD_FAILED, line, "peo_last_error() lacks \"%s\":\n  %s", needle, peo_last_error());
	return 0;
}
#define CHILD_SENTENCE_HAS(r, needle)                         \
	do {                                                  \
		if (!child_sentence_has(r, __LINE__, needle)) \
			return CHILD_FAILED;                  \
	} while (0)

/*
 * Runs @fn in a forked child; the parent gets its exit code and message.
 * The child never returns into cmocka: it leaves with _exit().
 */
static int run_in_child(int (*fn)(struct child_report *r), char *msg, size_t cap)
{
	int pipefd[2];
	int status = 0;
	size_t got = 0;
	pid_t pid;

	assert_int_equal(pipe2(pipefd, O_CLOEXEC), 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char text[1024] = "";
		struct child_report r = { text, sizeof(text) };
		int code;
		size_t len, off = 0;

		close(pipefd[0]);
		code = fn(&r);
		len = strlen(text);
		while (off < len) {
			ssize_t n = write(pipefd[1], text + off, len - off);

			if (n <= 0)
				break;
			off += (size_t)n;
		}
		_exit(code);
	}
	close(pipefd[1]);
	while (got + 1 < cap) {
		ssize_t n = read(pipefd[0], msg + got, cap - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	msg[got] = '\0';
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status))
		fail_msg("the child did not exit normally (status %#x): %s", status, msg);
	return WEXITSTATUS(status);
}

/* ----------------------------------------------------------------- EBADF */

static void test_ebadf_group_fd(void **state)
{
	struct peo_attr attr;
	int closed, devnull;

	(void)state;
	/* An fd number that was just open and is not any more. */
	closed = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(closed >= 0);
	close(closed);
	peo_test_sw_attr(&attr, PEO_COUNT_SW_TASK_CLOCK);
	expect_open_error(&attr, 0, -1, closed, EBADF);
	ASSERT_ERROR_CONTAINSF("group_fd %d is not an open perf event fd", closed);
	assert_error_contains("Bad file descriptor");

	/* An open fd that is not a perf event: the kernel says EBADF too. */
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(devnull >= 0);
	expect_open_error(&attr, 0, -1, devnull, EBADF);
	ASSERT_ERROR_CONTAINSF("group_fd %d is not an open perf event fd", devnull);
	close(devnull);
}

/* ---------------------------------------------------------------- EFAULT */

static void test_efault_null_attr(void **state)
{
	(void)state;
	PEO_SKIP_UNDER_VALGRIND("valgrind's own perf_event_open wrapper reads the attr and "
				"crashes on NULL before the kernel can answer EFAULT");
	expect_open_error(NULL, 0, -1, -1, EFAULT);
	assert_error_contains("attr NULL");
	assert_error_contains("attr pointer");
	assert_error_contains("not readable memory");
}

/* ---------------------------------------------------------------- EINVAL */

static void test_einval_unknown_sample_type(void **state)
{
	struct peo_attr attr;

	(void)state;
	peo_test_sw_attr(&attr, PEO_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 100000;
	attr.sample_type = PEO_SAMPLE_IP | (1ULL << 40);
	expect_open_error(&attr, 0, -1, -1, EINVAL);
	ASSERT_ERROR_CONTAINSF("sample_type has bits no kernel defines (%#llx)", 1ULL << 40);
}

static void test_einval_sigtrap_without_remove_on_exec(void **state)
{
	struct peo_attr attr;

	(void)state;
	peo_test_sw_attr(&attr, PEO_COUNT_SW_TASK_CLOCK);
	attr.sigtrap = 1;
	expect_open_error(&attr, 0, -1, -1, EINVAL);
	assert_error_contains("sigtrap needs remove_on_exec");
}

static void test_einval_pid_and_cpu_minus_one(void **state)
{
	struct peo_attr attr;

	(void)state;
	peo_test_sw_attr(&attr, PEO_COUNT_SW_TASK_CLOCK);
	expect_open_error(&attr, -1, -1, -1, EINVAL);
	assert_error_contains("pid -1, cpu -1");
	assert_error_contains("pid -1 with cpu -1 is not allowed");
}

static void test_einval_cpu_beyond_machine(void **state)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct peo_attr attr;
	const int cpu = 4096;

	(void)state;
	assert_true(ncpu > 0);
	if (ncpu > cpu)
		PEO_SKIP("this machine has %ld CPUs, so cpu %d exists", ncpu, cpu);
	peo_test_sw_attr(&attr, PEO_COUNT_SW_TASK_CLOCK);
	expect_open_error(&attr, 0, cpu, -1, EINVAL);
	ASSERT_ERROR_CONTAINSF("cpu %d does not exist (this machine has CPUs 0-%ld)", cpu, ncpu - 1);
}

static void test_einval_flag_newer_than_kernel(void **state)
{
	struct peo_attr attr;
	int fd;

	(void)state;
	peo_test_sw_attr(&attr, PEO_COUNT_SW_TASK_CLOCK);
	attr.defer_output = 1;
	fd = open_checked(&attr, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (peo_test_release_at_least("6.19")) {
		if (fd >= 0)
			close(fd);
		PEO_SKIP("Linux >= 6.19 knows defer_output (open returned %d)", fd);
	}
	if (fd >= 0) {
		close(fd);
		fail_msg("a kernel before 6.19 accepted defer_output (fd %d)", fd);
	}
	assert_int_equal(fd, -EINVAL);
	assert_error_contains("attr flag defer_output needs Linux 6.19; this kernel rejects it");
}

/*
 * The kernel answers EINVAL, not ENOENT, for a tracepoint id it lacks:
 * perf_trace_init() starts from -EINVAL and finds no event with that id.
 */
static void test_einval_unknown_tracepoint_id(void **state)
{
	struct peo_attr attr;

	(void)state;
	peo_test_sw_attr(&attr, 0);
	attr.type = PEO_TYPE_TRACEPOINT;
	attr.config = 0xfffffff;
	expect_open_error(&attr, 0, -1, -1, EINVAL);
	ASSERT_ERROR_CONTAINSF("tracepoint id %llu", 0xfffffffULL);
	ASSERT_ERROR_CONTAINSF("no tracepoint may have id %llu", 0xfffffffULL);
}

/* ---------------------------------------------------------------- ENOENT */

static void test_enoent_no_hardware_pmu(void **state)
{
	int has_pmu = peo_test_cpu_pmu(NULL, 0);
	struct peo_attr attr;
	int fd;

	(void)state;
	peo_test_sw_attr(&attr, 0);
	attr.type = PEO_TYPE_HARDWARE;
	attr.config = PEO_COUNT_HW_CPU_CYCLES;
	fd = open_checked(&attr, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (has_pmu) {
		if (fd >= 0) {
			close(fd);
			return; /* a machine with a PMU counts cycles */
		}
		PEO_SKIP("this machine has a CPU PMU but cycles failed: %s", peo_last_error());
	}
	if (fd >= 0) {
		close(fd);
		fail_msg("no CPU PMU found in /sys/bus/event_source/devices, yet hardware/cycles "
			 "opened: peo_find_cpu_pmu() misses this machine's PMU");
	}
	assert_int_equal(fd, -ENOENT);
	assert_error_contains("hardware/cycles");
	assert_error_contains("this machine exposes no hardware PMU");
}

/* Make @rel (a directory, or a file when @file) under @root. */
static void make_node(const char *root, const char *rel, int file)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (file)
		close(open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
	else
		mkdir(path, 0755);
	assert_true(access(path, F_OK) == 0);
}

/*
 * Which PMU the ENOENT sentence blames, on fake sysfs trees: x86's RAPL
 * "power" and uncore PMUs (cpumask) are no core PMU; an Arm one is found by
 * its `cpus` file; "cpu" wins over all.
 */
static void test_core_pmu_by_name_or_cpus_file(void **state)
{
	char root[] = "/tmp/peo-pmus-XXXXXX", name[32];

	(void)state;
	assert_non_null(mkdtemp(root));
	make_node(root, "power", 0);
	make_node(root, "power/events", 0);
	make_node(root, "uncore_imc_0", 0);
	make_node(root, "uncore_imc_0/cpumask", 1);
	make_node(root, "msr", 0);
	assert_int_equal(peo_find_cpu_pmu(root, name, sizeof(name)), 0);
	make_node(root, "armv8_pmuv3_0", 0);
	make_node(root, "armv8_pmuv3_0/cpus", 1);
	assert_int_equal(peo_find_cpu_pmu(root, name, sizeof(name)), 1);
	assert_string_equal(name, "armv8_pmuv3_0");
	make_node(root, "cpu", 0);
	assert_int_equal(peo_find_cpu_pmu(root, name, sizeof(name)), 1);
	assert_string_equal(name, "cpu");
	assert_int_equal(peo_find_cpu_pmu("/nonexistent-peo", name, sizeof(name)), 0);
	assert_int_equal(peo_test_remove_tree(root), 0);
}

static void test_enoent_unknown_pmu_type(void **state)
{
	struct peo_attr attr;
	const uint32_t type = 0x7fff0000;

	(void)state;
	peo_test_sw_attr(&attr, 0);
	attr.type = type;
	expect_open_error(&attr, 0, -1, -1, ENOENT);
	ASSERT_ERROR_CONTAINSF("no PMU has type %u", type);
}

/* ----------------------------------------------------------------- ESRCH */

static void test_esrch_exited_pid(void **state)
{
	struct peo_attr attr;
	int status = 0;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	assert_int_equal(waitpid(pid, &status, 0), pid); /* reaped: the pid is free */
	peo_test_sw_attr(&attr, PEO_COUNT_SW_TASK_CLOCK);
	expect_open_error(&attr, pid, -1, -1, ESRCH);
	ASSERT_ERROR_CONTAINSF("no process or thread %d exists", (int)pid);
}

/* ---------------------------------------------------------------- EMFILE */

/*
 * The soft RLIMIT_NOFILE that leaves exactly @room free fd numbers below
 * it.  The limit caps fd numbers, not the count, and fds above it (such as
 * ones a harness left open) stay open, so count free slots from 0.
 */
static rlim_t limit_with_room(int room)
{
	int fd;

	for (fd = 0; room > 0; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
			room--;
	return (rlim_t)fd;
}

static int emfile_child(struct child_report *r)
{
	enum { ROOM = 4 };
	struct peo_attr attr;
	struct rlimit rl;
	int fds[ROOM + 1];
	int n, fd = 0;
	rlim_t limit = limit_with_room(ROOM);
	char want[64];

	CHILD_CHECK(r, getrlimit(RLIMIT_NOFILE, &rl) == 0, "getrlimit: %s", strerror(errno));
	if (limit > rl.rlim_max)
		CHILD_SKIP(r, "the hard RLIMIT_NOFILE %llu is below %llu", (unsigned long long)rl.rlim_max,
			   (unsigned long long)limit);
	rl.rlim_cur = limit;
	CHILD_CHECK(r, setrlimit(RLIMIT_NOFILE, &rl) == 0, "setrlimit: %s", strerror(errno));

	peo_test_sw_attr(&attr, PEO_COUNT_SW_TASK_CLOCK);
	for (n = 0; n <= ROOM; n++) {
		errno = ERRNO_MARK;
		fd = peo_open_explained(&attr, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
		CHILD_CHECK(r, errno == ERRNO_MARK, "errno changed to %d", errno);
		if (fd < 0)
			break;
		fds[n] = fd;
		CHILD_CHECK(r, (rlim_t)fd < limit, "fd %d opened past RLIMIT_NOFILE %llu", fd,
			    (unsigned long long)limit);
	}
	CHILD_CHECK(r, n == ROOM, "%d events opened under RLIMIT_NOFILE %llu, which left room for %d", n,
		    (unsigned long long)limit, ROOM);
	CHILD_CHECK(r, fd == -EMFILE, "after %d events open returned %d, not -EMFILE: %s", n, fd,
		    fd < 0 ? peo_last_error() : "");
	snprintf(want, sizeof(want), "RLIMIT_NOFILE %llu,", (unsigned long long)limit);
	CHILD_SENTENCE_HAS(r, want);
	CHILD_SENTENCE_HAS(r, "open file limit");
	while (n > 0)
		close(fds[--n]);
	return CHILD_PASSED;
}

static void test_emfile_rlimit(void **state)
{
	char msg[1024];
	int code;

	(void)state;
	code = run_in_child(emfile_child, msg, sizeof(msg));
	if (code == CHILD_SKIPPED)
		PEO_SKIP("%s", msg);
	if (code != CHILD_PASSED)
		fail_msg("child exit %d: %s", code, msg);
}

/* ----------------------------------------------------------------- E2BIG */

static void test_e2big_raw_sizes(void **state)
{
	int ksize = peo_kernel_attr_size();
	long page = sysconf(_SC_PAGESIZE);
	struct peo_attr attr, *big;
	int fd;

	(void)state;
	assert_true(ksize >= PEO_ATTR_SIZE_VER0);
	assert_true(page >= (long)sizeof(attr));

	/* Below VER0: E2BIG, with the kernel's own size written back. */
	peo_test_sw_attr(&attr, PEO_COUNT_SW_TASK_CLOCK);
	attr.size = 32;
	expect_open_error(&attr, 0, -1, -1, E2BIG);
	assert_int_equal(attr.size, (uint32_t)ksize);
	assert_error_contains("attr.size 32 is not one the kernel accepts");
	ASSERT_ERROR_CONTAINSF("this kernel's own size is %d", ksize);

	/* Past a page: E2BIG even though every byte past ours is zero. */
	big = calloc(2, (size_t)page);
	assert_non_null(big);
	peo_test_sw_attr(big, PEO_COUNT_SW_TASK_CLOCK);
	big->size = (uint32_t)(2 * page);
	expect_open_error(big, 0, -1, -1, E2BIG);
	assert_int_equal(big->size, (uint32_t)ksize);
	ASSERT_ERROR_CONTAINSF("attr.size %ld is not one the kernel accepts", 2 * page);
	ASSERT_ERROR_CONTAINSF("this kernel's own size is %d", ksize);

	/* Exactly a page of zeros past our struct is accepted. */
	peo_test_sw_attr(big, PEO_COUNT_SW_TASK_CLOCK);
	big->size = (uint32_t)page;
	fd = open_checked(big, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	assert_true(fd >= 0);
	close(fd);
	free(big);

	/* Size 0 means VER0 and succeeds. */
	peo_test_sw_attr(&attr, PEO_COUNT_SW_TASK_CLOCK);
	attr.size = 0;
	fd = open_checked(&attr, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	assert_true(fd >= 0);
	close(fd);
}

/* A task-clock attr that asks for config4; returns the kernel's attr size. */
static int attr_with_config4(struct peo_attr *attr)
{
	int ksize = peo_kernel_attr_size();

	assert_true(ksize >= PEO_ATTR_SIZE_VER0);
	peo_test_sw_attr(attr, PEO_COUNT_SW_TASK_CLOCK);
	attr->config4 = 1;
	return ksize;
}

static void test_e2big_negotiated_field(void **state)
{
	struct peo_attr attr;
	int ksize = attr_with_config4(&attr);
	int fd;

	(void)state;
	if (ksize >= (int)sizeof(struct peo_attr))
		PEO_SKIP("the kernel's perf_event_attr (%d bytes) holds config4", ksize);
	errno = ERRNO_MARK;
	fd = peo_sys_open(&attr, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	assert_int_equal(errno, ERRNO_MARK);
	if (fd >= 0)
		close(fd);
	assert_int_equal(fd, -E2BIG);
	assert_int_equal(attr.size, sizeof(struct peo_attr)); /* peo_sys_open leaves attr alone */
	ASSERT_ERROR_CONTAINSF("attr.config4 needs perf_event_attr size >= %d (Linux 6.19); this kernel accepts %d",
			       PEO_ATTR_SIZE_VER9, ksize);

	/* The same attr without config4 negotiates down and opens. */
	attr.config4 = 0;
	errno = ERRNO_MARK;
	fd = peo_sys_open(&attr, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	assert_int_equal(errno, ERRNO_MARK);
	assert_true(fd >= 0);
	close(fd);
}

static void test_e2big_raw_full_size(void **state)
{
	struct peo_attr attr;
	int ksize = attr_with_config4(&attr);

	(void)state;
	if (ksize >= (int)sizeof(struct peo_attr))
		PEO_SKIP("the kernel's perf_event_attr (%d bytes) holds config4", ksize);
	expect_open_error(&attr, 0, -1, -1, E2BIG);
	assert_int_equal(attr.size, (uint32_t)ksize);
	ASSERT_ERROR_CONTAINSF("attr.size %zu is larger than this kernel's %d and a byte past %d is non-zero",
			       sizeof(struct peo_attr), ksize, ksize);
}

/* ------------------------------------------------------------- EOVERFLOW */

static void test_eoverflow_max_stack(void **state)
{
	struct peo_attr attr;
	long max_stack = 0;

	(void)state;
	if (peo_test_read_long("/proc/sys/kernel/perf_event_max_stack", &max_stack) < 0)
		PEO_SKIP("cannot read /proc/sys/kernel/perf_event_max_stack");
	if (max_stack + 1 > UINT16_MAX)
		PEO_SKIP("perf_event_max_stack %ld: sample_max_stack (16 bits) cannot exceed it", max_stack);
	peo_test_sw_attr(&attr, PEO_COUNT_SW_TASK_CLOCK);
	attr.sample_type = PEO_SAMPLE_CALLCHAIN;
	attr.sample_period = 1000;
	attr.sample_max_stack = (uint16_t)(max_stack + 1);
	expect_open_error(&attr, 0, -1, -1, EOVERFLOW);
	ASSERT_ERROR_CONTAINSF("attr.sample_max_stack %ld exceeds kernel.perf_event_max_stack %ld", max_stack + 1,
			       max_stack);
}

/* --------------------------------------------------------------- EACCES */

static int eacces_child(struct child_report *r)
{
	struct peo_attr attr;
	long level = 0;
	int dropped = 0;
	char want[64];
	int fd;

	CHILD_CHECK(r, peo_test_read_long("/proc/sys/kernel/perf_event_paranoid", &level) == 0,
		    "cannot read perf_event_paranoid");
	if (geteuid() == 0) {
		if (setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 || setuid(NOBODY) < 0)
			CHILD_SKIP(r, "cannot drop root to uid %d: %s", NOBODY, strerror(errno));
		dropped = 1;
	}

	/* Kernel mode as an unprivileged user: refused at level >= 2. */
	peo_test_sw_attr(&attr, PEO_COUNT_SW_TASK_CLOCK);
	attr.exclude_kernel = 0;
	errno = ERRNO_MARK;
	fd = peo_open_explained(&attr, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	CHILD_CHECK(r, errno == ERRNO_MARK, "errno changed to %d", errno);
	if (fd >= 0 && !dropped) {
		close(fd);
		CHILD_SKIP(r, "uid %d may count kernel mode (CAP_PERFMON or CAP_SYS_ADMIN?)", (int)getuid());
	}
	CHILD_CHECK(r, fd == -EACCES, "uid %d, paranoid %ld: kernel-mode task-clock returned %d, not -EACCES: %s",
		    (int)getuid(), level, fd, fd < 0 ? peo_last_error() : "");
	snprintf(want, sizeof(want), "perf_event_paranoid is %ld", level);
	CHILD_SENTENCE_HAS(r, want);
	CHILD_SENTENCE_HAS(r, "exclude_kernel");

	/* What an unprivileged user may still do: its own task, user space. */
	peo_test_sw_attr(&attr, PEO_COUNT_SW_TASK_CLOCK); /* exclude_kernel=1, exclude_hv=1 */
	errno = ERRNO_MARK;
	fd = peo_open_explained(&attr, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	CHILD_CHECK(r, errno == ERRNO_MARK, "errno changed to %d", errno);
	if (level >= 3 && fd == -EACCES) /* Debian's level 3 refuses everything */
		return CHILD_PASSED;
	CHILD_CHECK(r, fd >= 0, "uid %d, paranoid %ld: user-space task-clock returned %d: %s", (int)getuid(),
		    level, fd, peo_last_error());
	close(fd);
	return CHILD_PASSED;
}

static void test_eacces_unprivileged_kernel_mode(void **state)
{
	long level = 0;
	char msg[1024];
	int code;

	(void)state;
	if (peo_test_read_long("/proc/sys/kernel/perf_event_paranoid", &level) < 0)
		PEO_SKIP("cannot read /proc/sys/kernel/perf_event_paranoid");
	if (level < 2)
		PEO_SKIP("kernel.perf_event_paranoid is %ld: unprivileged users may count kernel mode, "
			 "so there is no EACCES to provoke", level);
	code = run_in_child(eacces_child, msg, sizeof(msg));
	if (code == CHILD_SKIPPED)
		PEO_SKIP("%s", msg);
	if (code != CHILD_PASSED)
		fail_msg("child exit %d: %s", code, msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(test_ebadf_group_fd),
		PEO_TEST(test_efault_null_attr),
		PEO_TEST(test_einval_unknown_sample_type),
		PEO_TEST(test_einval_sigtrap_without_remove_on_exec),
		PEO_TEST(test_einval_pid_and_cpu_minus_one),
		PEO_TEST(test_einval_cpu_beyond_machine),
		PEO_TEST(test_einval_flag_newer_than_kernel),
		PEO_TEST(test_einval_unknown_tracepoint_id),
		PEO_TEST(test_enoent_no_hardware_pmu),
		PEO_TEST(test_core_pmu_by_name_or_cpus_file),
		PEO_TEST(test_enoent_unknown_pmu_type),
		PEO_TEST(test_esrch_exited_pid),
		PEO_TEST(test_emfile_rlimit),
		PEO_TEST(test_e2big_raw_sizes),
		PEO_TEST(test_e2big_negotiated_field),
		PEO_TEST(test_e2big_raw_full_size),
		PEO_TEST(test_eoverflow_max_stack),
		PEO_TEST(test_eacces_unprivileged_kernel_mode),
	};

	return PEO_TEST_MAIN("errors", tests);
}
