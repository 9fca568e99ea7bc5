/*
 * test_sys.c - the raw layer against the real kernel: software events count
 * what the workload does, and every ioctl does what the kernel documents
 * (or fails with the documented errno and a sentence: the bare call's
 * plain, peo_sys_open()'s explained).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "test_util.h"

#define MS 1000000ull

static int open_sw(uint64_t config, int group_fd)
{
	struct peo_attr a;
	int fd;

	peo_test_sw_attr(&a, config);
	if (group_fd >= 0)
		a.disabled = 0; /* members follow the leader */
	fd = peo_sys_perf_event_open(&a, 0, -1, group_fd, PEO_FLAG_FD_CLOEXEC);
	if (fd < 0)
		fail_msg("%s", peo_last_error());
	return fd;
}

static void task_clock_counts_cpu_time(void **state)
{
	int fd = open_sw(PEO_COUNT_SW_TASK_CLOCK, -1);
	uint64_t before, after, idle;

	(void)state;
	assert_int_equal(peo_test_read_count(fd), 0); /* disabled: nothing yet */
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	peo_test_spin_ns(30 * MS);
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	before = peo_test_read_count(fd);
	assert_true(before >= 25 * MS);
	assert_true(before <= 300 * MS);
	peo_test_spin_ns(20 * MS); /* disabled: must not count */
	idle = peo_test_read_count(fd);
	assert_int_equal(idle, before);
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	peo_test_spin_ns(20 * MS);
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	after = peo_test_read_count(fd);
	assert_true(after >= before + 15 * MS);
	close(fd);
}

static void cpu_clock_counts_wall_time_while_running(void **state)
{
	int fd = open_sw(PEO_COUNT_SW_CPU_CLOCK, -1);
	uint64_t v;

	(void)state;
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	peo_test_spin_ns(20 * MS);
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	v = peo_test_read_count(fd);
	assert_true(v >= 15 * MS);
	close(fd);
}

static void page_faults_count_touched_pages(void **state)
{
	int fd = open_sw(PEO_COUNT_SW_PAGE_FAULTS, -1);
	uint64_t small, big;

	(void)state;
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	peo_test_touch_pages(10);
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	small = peo_test_read_count(fd);
	assert_int_equal(peo_sys_ioc_reset(fd, 0), 0);
	assert_int_equal(peo_test_read_count(fd), 0);
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	peo_test_touch_pages(500);
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	big = peo_test_read_count(fd);
	assert_true(small >= 10);
	assert_true(big >= 500);
	assert_true(big > small);
	close(fd);
}

/* Switches happen in kernel mode: a user-only (:u) counter sees none. */
static void context_switches_count_sleeps_in_kernel_mode(void **state)
{
	int user_only = open_sw(PEO_COUNT_SW_CONTEXT_SWITCHES, -1);
	struct peo_attr a;
	int fd;

	(void)state;
	peo_test_sw_attr(&a, PEO_COUNT_SW_CONTEXT_SWITCHES);
	a.exclude_kernel = 0;
	fd = peo_sys_perf_event_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		close(user_only);
		PEO_SKIP("counting kernel mode is not allowed here: %s", peo_last_error());
	}
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	assert_int_equal(peo_sys_ioc_enable(user_only, 0), 0);
	for (int i = 0; i < 20; i++)
		usleep(500); /* each sleep switches this thread out */
	assert_int_equal(peo_sys_ioc_disable(user_only, 0), 0);
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	assert_true(peo_test_read_count(fd) >= 20);
	assert_int_equal(peo_test_read_count(user_only), 0);
	close(user_only);
	close(fd);
}

/* ENABLE/DISABLE/RESET with PERF_IOC_FLAG_GROUP act on every member. */
static void group_flag_acts_on_the_whole_group(void **state)
{
	int leader = open_sw(PEO_COUNT_SW_TASK_CLOCK, -1);
	int member = open_sw(PEO_COUNT_SW_PAGE_FAULTS, leader);
	uint64_t lv, mv;

	(void)state;
	assert_int_equal(peo_sys_ioc_enable(leader, PEO_IOC_FLAG_GROUP), 0);
	peo_test_touch_pages(50);
	peo_test_spin_ns(5 * MS);
	assert_int_equal(peo_sys_ioc_disable(leader, PEO_IOC_FLAG_GROUP), 0);
	lv = peo_test_read_count(leader);
	mv = peo_test_read_count(member);
	assert_true(lv >= 4 * MS);
	assert_true(mv >= 50);
	peo_test_touch_pages(50); /* group disabled: the member stays put */
	assert_int_equal(peo_test_read_count(member), mv);
	assert_int_equal(peo_sys_ioc_reset(leader, PEO_IOC_FLAG_GROUP), 0);
	assert_int_equal(peo_test_read_count(leader), 0);
	assert_int_equal(peo_test_read_count(member), 0);
	close(member);
	close(leader);
}

static int open_sampling(uint64_t period, int inherit)
{
	struct peo_attr a;
	int fd;

	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	a.sample_period = period;
	a.sample_type = PEO_SAMPLE_IP;
	a.inherit = inherit ? 1 : 0;
	fd = peo_sys_perf_event_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd < 0)
		fail_msg("%s", peo_last_error());
	return fd;
}

/* REFRESH enables a sampling event for N overflows, then it disables itself. */
static void refresh_arms_overflows(void **state)
{
	int fd = open_sampling(1 * MS, 0);
	int counting = open_sw(PEO_COUNT_SW_TASK_CLOCK, -1);
	int inherited = open_sampling(1 * MS, 1);
	uint64_t after_overflow, later;

	(void)state;
	assert_int_equal(peo_sys_ioc_refresh(fd, 1), 0);
	peo_test_spin_ns(20 * MS); /* well past one 1 ms period */
	after_overflow = peo_test_read_count(fd);
	peo_test_spin_ns(10 * MS);
	later = peo_test_read_count(fd);
	assert_true(after_overflow >= 1 * MS);
	assert_int_equal(later, after_overflow); /* disabled itself at the overflow */

	assert_int_equal(peo_sys_ioc_refresh(counting, 1), -EINVAL);
	assert_error_contains("PERF_EVENT_IOC_REFRESH");
	assert_error_contains("sampling event");
	assert_int_equal(peo_sys_ioc_refresh(inherited, 1), -EINVAL);
	close(inherited);
	close(counting);
	close(fd);
}

static void period_changes_and_rejects_bad_values(void **state)
{
	int fd = open_sampling(1 * MS, 0);

	(void)state;
	assert_int_equal(peo_sys_ioc_period(fd, 2 * MS), 0);
	assert_int_equal(peo_sys_ioc_period(fd, 1ull << 63), -EINVAL);
	assert_error_contains("PERF_EVENT_IOC_PERIOD");
	assert_error_contains("bit 63");
	close(fd);
}

static void *map_ring(int fd, size_t *len)
{
	void *p;

	*len = 2 * (size_t)sysconf(_SC_PAGESIZE);
	p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(p != MAP_FAILED);
	return p;
}

static void set_output_and_pause_output(void **state)
{
	int target = open_sampling(1 * MS, 0);
	int other = open_sampling(1 * MS, 0);
	int cpu_wide;
	struct peo_attr a;
	size_t len;
	void *ring;

	(void)state;
	assert_int_equal(peo_sys_ioc_pause_output(target, 1), -EINVAL); /* no ring yet */
	assert_error_contains("no ring buffer");
	ring = map_ring(target, &len);
	assert_int_equal(peo_sys_ioc_set_output(other, target), 0);
	assert_int_equal(peo_sys_ioc_set_output(other, -1), 0);
	assert_int_equal(peo_sys_ioc_pause_output(target, 1), 0);
	assert_int_equal(peo_sys_ioc_pause_output(target, 0), 0);

	/* A CPU-wide event cannot write into a per-task ring on any CPU. */
	peo_test_sw_attr(&a, PEO_COUNT_SW_CPU_CLOCK);
	a.sample_period = 1 * MS;
	cpu_wide = peo_sys_perf_event_open(&a, -1, 0, -1, PEO_FLAG_FD_CLOEXEC);
	if (cpu_wide >= 0) {
		assert_int_equal(peo_sys_ioc_set_output(cpu_wide, target), -EINVAL);
		assert_error_contains("same CPU");
		close(cpu_wide);
	}
	munmap(ring, len);
	close(other);
	close(target);
}

static void id_is_unique_and_matches_read_format(void **state)
{
	struct peo_attr a;
	uint64_t id1 = 0, id2 = 0;
	uint64_t buf[2];
	int fd1, fd2;

	(void)state;
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	a.read_format = PEO_FORMAT_ID;
	fd1 = peo_sys_perf_event_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	fd2 = peo_sys_perf_event_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	assert_true(fd1 >= 0 && fd2 >= 0);
	assert_int_equal(peo_sys_ioc_id(fd1, &id1), 0);
	assert_int_equal(peo_sys_ioc_id(fd2, &id2), 0);
	assert_true(id1 != 0 && id1 != id2);
	assert_int_equal(read(fd1, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(buf[1], id1); /* value, id */
	close(fd2);
	close(fd1);
}

static int open_tracepoint(long long id, int *saved_err)
{
	struct peo_attr a;
	int fd;

	peo_attr_init(&a);
	a.type = PEO_TYPE_TRACEPOINT;
	a.config = (uint64_t)id;
	a.disabled = 1;
	fd = peo_sys_perf_event_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	*saved_err = fd < 0 ? -fd : 0;
	return fd;
}

/* Count getppid() calls on tracepoint @id under @filter. */
static uint64_t count_getppid_with_filter(long long id, const char *filter)
{
	int err, fd = open_tracepoint(id, &err);
	uint64_t v;

	assert_true(fd >= 0);
	assert_int_equal(peo_sys_ioc_set_filter(fd, filter), 0);
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	for (int i = 0; i < 100; i++)
		syscall(SYS_getppid);
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	v = peo_test_read_count(fd);
	close(fd);
	return v;
}

/* A filter on a tracepoint decides what it counts; one filter per event. */
static void set_filter_selects_what_a_tracepoint_counts(void **state)
{
	char why[256], filter[64];
	long long id = peo_test_tracepoint_id("syscalls", "sys_enter_getppid", why, sizeof(why));
	int fd, err, sw;

	(void)state;
	if (id < 0)
		PEO_SKIP("%s", why);
	fd = open_tracepoint(id, &err);
	if (fd < 0)
		PEO_SKIP("cannot open a tracepoint here (%s): %s", strerror(err), peo_last_error());
	snprintf(filter, sizeof(filter), "common_pid == %d", (int)getpid());
	assert_true(count_getppid_with_filter(id, filter) >= 100);
	assert_int_equal(count_getppid_with_filter(id, "common_pid == 1"), 0);

	assert_int_equal(peo_sys_ioc_set_filter(fd, "no_such_field == 1"), -EINVAL);
	assert_error_contains("PERF_EVENT_IOC_SET_FILTER");
	assert_int_equal(peo_sys_ioc_set_filter(fd, filter), 0);
	assert_int_equal(peo_sys_ioc_set_filter(fd, filter), -EEXIST);
	assert_error_contains("one filter per event");
	sw = open_sw(PEO_COUNT_SW_TASK_CLOCK, -1);
	assert_int_equal(peo_sys_ioc_set_filter(sw, "common_pid == 1"), -EINVAL);
	assert_error_contains("tracepoints");
	close(sw);
	close(fd);
}

/*
 * Load "r0 = 1; exit" as a tracepoint program.  It must return 1: a program
 * set with PERF_EVENT_IOC_SET_BPF belongs to the tracepoint, and while one
 * returning 0 is attached the kernel gives that tracepoint's hits to no perf
 * event at all, which made other tests' exact getppid counts come up short.
 */
static int load_bpf_prog(uint32_t *prog_id)
{
	struct bpf_insn insns[2];
	union bpf_attr a;
	struct bpf_prog_info info;
	int fd;

	memset(insns, 0, sizeof(insns));
	insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K;
	insns[0].imm = 1;
	insns[1].code = BPF_JMP | BPF_EXIT;
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_TRACEPOINT;
	a.insns = (uint64_t)(uintptr_t)insns;
	a.insn_cnt = 2;
	a.license = (uint64_t)(uintptr_t)"GPL";
	fd = (int)syscall(SYS_bpf, BPF_PROG_LOAD, &a, sizeof(a));
	if (fd < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (syscall(SYS_bpf, BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a)) < 0) {
		close(fd);
		return -errno;
	}
	*prog_id = info.id;
	return fd;
}

static void set_bpf_and_query_bpf(void **state)
{
	char why[256];
	long long id = peo_test_tracepoint_id("syscalls", "sys_enter_getppid", why, sizeof(why));
	struct {
		struct peo_query_bpf q;
		uint32_t ids[4];
	} query;
	uint32_t prog_id = 0, prog2_id = 0;
	int fd, fd2, err, prog, prog2, pipefd[2], sw;

	(void)state;
	if (id < 0)
		PEO_SKIP("%s", why);
	fd = open_tracepoint(id, &err);
	if (fd < 0)
		PEO_SKIP("cannot open a tracepoint here (%s)", strerror(err));
	memset(&query, 0, sizeof(query));
	query.q.ids_len = 4;
	assert_int_equal(peo_sys_ioc_query_bpf(fd, &query.q), 0);
	assert_int_equal(query.q.prog_cnt, 0);

	assert_int_equal(peo_sys_ioc_set_bpf(fd, -1), -EBADF);
	assert_int_equal(pipe(pipefd), 0);
	assert_int_equal(peo_sys_ioc_set_bpf(fd, pipefd[0]), -EINVAL);
	close(pipefd[0]);
	close(pipefd[1]);

	sw = open_sw(PEO_COUNT_SW_TASK_CLOCK, -1);
	assert_int_equal(peo_sys_ioc_query_bpf(sw, &query.q), -EINVAL);
	assert_error_contains("tracepoint");
	close(sw);

	prog = load_bpf_prog(&prog_id);
	if (prog < 0) {
		close(fd);
		PEO_SKIP("cannot load a BPF program here (%s): SET_BPF/QUERY_BPF checked for errors only",
			 strerror(-prog));
	}
	assert_int_equal(peo_sys_ioc_set_bpf(fd, prog), 0);
	query.q.ids_len = 4;
	assert_int_equal(peo_sys_ioc_query_bpf(fd, &query.q), 0);
	assert_int_equal(query.q.prog_cnt, 1);
	assert_int_equal(query.ids[0], prog_id);

	/* Programs are per tracepoint: a second event's program shows too. */
	fd2 = open_tracepoint(id, &err);
	prog2 = load_bpf_prog(&prog2_id);
	assert_true(fd2 >= 0 && prog2 >= 0);
	assert_int_equal(peo_sys_ioc_set_bpf(fd2, prog2), 0);
	query.q.ids_len = 0; /* "how many?" */
	assert_int_equal(peo_sys_ioc_query_bpf(fd, &query.q), 0);
	assert_int_equal(query.q.prog_cnt, 2);
	query.q.ids_len = 1;
	assert_int_equal(peo_sys_ioc_query_bpf(fd, &query.q), -ENOSPC);
	assert_int_equal(query.q.prog_cnt, 2);
	assert_error_contains("ids_len");
	close(prog2);
	close(fd2);
	close(prog);
	close(fd);
}

static volatile uint64_t watched[2];

static void modify_attributes_works_on_breakpoints_only(void **state)
{
	struct peo_attr a;
	int sw = open_sw(PEO_COUNT_SW_TASK_CLOCK, -1);
	int bp, err;

	(void)state;
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	err = peo_sys_ioc_modify_attributes(sw, &a);
	assert_true(err == -EINVAL || err == -EOPNOTSUPP); /* 6.1 says EOPNOTSUPP */
	assert_error_contains("breakpoint");
	close(sw);

	peo_test_watch_attr(&a, &watched[0]);
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	bp = peo_sys_perf_event_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (bp < 0)
		PEO_SKIP("breakpoints cannot be opened here: %s", peo_last_error());
	a.bp_addr = (uint64_t)(uintptr_t)&watched[1];
	assert_int_equal(peo_sys_ioc_modify_attributes(bp, &a), 0);
	a.bp_type = PEO_BP_EMPTY; /* the kernel only accepts a real type */
	assert_int_equal(peo_sys_ioc_modify_attributes(bp, &a), -EINVAL);
	close(bp);
}

static void ioctls_on_a_non_perf_fd_say_so(void **state)
{
	int p[2];
	uint64_t id;

	(void)state;
	assert_int_equal(pipe(p), 0);
	errno = 4242;
	assert_int_equal(peo_sys_ioc_enable(p[0], 0), -ENOTTY);
	assert_int_equal(errno, 4242);
	assert_error_contains("ioctl(fd");
	assert_error_contains("not a perf event");
	assert_int_equal(peo_sys_ioc_id(p[0], &id), -ENOTTY);
	close(p[0]);
	close(p[1]);
	assert_int_equal(peo_sys_ioc_disable(p[0], 0), -EBADF);
	assert_error_contains("not open");
}

/* Sizes the kernel documents: 0 means VER0, 64 is VER0, bigger with a
 * zero tail is fine. */
static void attr_sizes_behave_as_documented(void **state)
{
	struct {
		struct peo_attr a;
		unsigned char tail[64];
	} big;
	struct peo_attr a;
	int fd;

	(void)state;
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	a.size = 0;
	fd = peo_sys_perf_event_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	assert_true(fd >= 0);
	close(fd);
	a.size = PEO_ATTR_SIZE_VER0;
	fd = peo_sys_perf_event_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	assert_true(fd >= 0);
	close(fd);

	memset(&big, 0, sizeof(big));
	peo_test_sw_attr(&big.a, PEO_COUNT_SW_TASK_CLOCK);
	big.a.size = sizeof(big);
	fd = peo_sys_perf_event_open(&big.a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	assert_true(fd >= 0);
	close(fd);
	big.tail[63] = 1; /* a byte no kernel knows */
	fd = peo_sys_perf_event_open(&big.a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	assert_int_equal(fd, -E2BIG);
	assert_true(big.a.size < sizeof(big)); /* the kernel wrote its size */
	assert_int_equal(big.a.size, peo_kernel_attr_size());
}

static void cloexec_flag_sets_fd_cloexec(void **state)
{
	struct peo_attr a;
	int fd;

	(void)state;
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	fd = peo_sys_perf_event_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	assert_true(fd >= 0);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	fd = peo_sys_perf_event_open(&a, 0, -1, -1, 0);
	assert_true(fd >= 0);
	assert_false(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

/* The bare call's sentence names the call and the errno and guesses no
 * cause; peo_sys_open(), the open above it, adds the cause. */
static void bare_call_says_only_the_errno(void **state)
{
	struct peo_attr a;
	char bare[256], explained[256], want[256];
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int fd, explained_fd, saved;

	(void)state;
	assert_true(devnull >= 0);
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	errno = 12345;
	fd = peo_sys_perf_event_open(&a, 0, -1, devnull, PEO_FLAG_FD_CLOEXEC);
	saved = errno;
	snprintf(bare, sizeof(bare), "%s", peo_last_error());
	explained_fd = peo_sys_open(&a, 0, -1, devnull, PEO_FLAG_FD_CLOEXEC);
	snprintf(explained, sizeof(explained), "%s", peo_last_error());
	close(devnull);

	assert_int_equal(saved, 12345);
	assert_int_equal(fd, -EBADF);
	snprintf(want, sizeof(want),
		 "perf_event_open(software/task-clock, pid 0, cpu -1, group_fd %d, flags 0x8): %s",
		 devnull, strerror(EBADF));
	assert_string_equal(bare, want);
	assert_int_equal(explained_fd, -EBADF);
	snprintf(want + strlen(want), sizeof(want) - strlen(want),
		 ": group_fd %d is not an open perf event fd (use -1 to start a new group)", devnull);
	assert_string_equal(explained, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(task_clock_counts_cpu_time),
		PEO_TEST(bare_call_says_only_the_errno),
		PEO_TEST(cpu_clock_counts_wall_time_while_running),
		PEO_TEST(page_faults_count_touched_pages),
		PEO_TEST(context_switches_count_sleeps_in_kernel_mode),
		PEO_TEST(group_flag_acts_on_the_whole_group),
		PEO_TEST(refresh_arms_overflows),
		PEO_TEST(period_changes_and_rejects_bad_values),
		PEO_TEST(set_output_and_pause_output),
		PEO_TEST(id_is_unique_and_matches_read_format),
		PEO_TEST(set_filter_selects_what_a_tracepoint_counts),
		PEO_TEST(set_bpf_and_query_bpf),
		PEO_TEST(modify_attributes_works_on_breakpoints_only),
		PEO_TEST(ioctls_on_a_non_perf_fd_say_so),
		PEO_TEST(attr_sizes_behave_as_documented),
		PEO_TEST(cloexec_flag_sets_fd_cloexec),
	};

	return PEO_TEST_MAIN("sys", tests);
}
