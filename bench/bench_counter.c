/*
 * bench_counter.c - the counting layer's read and open paths against the
 * raw system calls they wrap, both measured in this run.
 *
 * Each case runs its baseline and peo's version in ROUNDS alternating
 * rounds (the order flips every round, so clock drift and neighbours'
 * noise fall on both sides), and prints the fastest round's ns/op of each
 * (noise only ever adds time, so the minimum is the cost itself), the
 * ratio peo/baseline and the difference, then the medians' ratio.  Lower is better; a ratio near
 * 1.00 means peo adds nothing measurable.  This is a report, never a
 * pass/fail test: it exits 0 unless an operation fails outright.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <peo/peo.h>

/*
 * Many short rounds (~20 ms each) rather than a few long ones: on a small
 * VM the host's noise comes in bursts of tens of ms, and short alternating
 * rounds let the median drop the rounds a burst hit on either side.
 */
#define ROUNDS 41
#define READ_ITERS 20000L
#define OPEN_ITERS 2000L /* an open+close costs ~8x a read */
#define MAX_GROUP 8

static volatile uint64_t sink; /* results land here so no loop is optimised away */

struct ctx {
	int fd;                       /* a raw fd (baseline reads) */
	struct peo_counter *c;
	struct peo_group *g;
	size_t n;
	struct peo_attr attr;         /* what the open cases open */
	uint64_t buf[4 + 3 * MAX_GROUP];
	struct peo_count counts[MAX_GROUP];
};

typedef void (*bench_fn)(struct ctx *x, long iters);

static void die(const char *what, int err)
{
	fprintf(stderr, "bench_counter: %s failed: %s\n  %s\n", what, strerror(err < 0 ? -err : err),
		peo_last_error());
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------ operations */

static void raw_read(struct ctx *x, long iters)
{
	for (long i = 0; i < iters; i++) {
		if (read(x->fd, x->buf, sizeof(x->buf)) <= 0)
			die("read()", errno);
		sink += x->buf[0];
	}
}

static void counter_read(struct ctx *x, long iters)
{
	for (long i = 0; i < iters; i++) {
		int err = peo_counter_read(x->c, &x->counts[0]);

		if (err)
			die("peo_counter_read()", err);
		sink += x->counts[0].value;
	}
}

static void group_read(struct ctx *x, long iters)
{
	for (long i = 0; i < iters; i++) {
		int err = peo_group_read(x->g, x->counts, x->n);

		if (err < 0)
			die("peo_group_read()", err);
		sink += x->counts[0].value;
	}
}

/* The raw system call at the kernel's own attr size (no E2BIG round trip). */
static void raw_open_close(struct ctx *x, long iters)
{
	for (long i = 0; i < iters; i++) {
		long fd = syscall(SYS_perf_event_open, &x->attr, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);

		if (fd < 0)
			die("perf_event_open()", errno);
		close((int)fd);
	}
}

static void sys_open_close(struct ctx *x, long iters)
{
	for (long i = 0; i < iters; i++) {
		int fd = peo_sys_open(&x->attr, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);

		if (fd < 0)
			die("peo_sys_open()", fd);
		close(fd);
	}
}

/*
 * peo_counter_open(NULL target, NULL opts) makes, per open: the
 * perf_event_open (through peo_sys_open, so on a kernel whose attr is
 * smaller than peo's a failed E2BIG try first) and ~7 small mallocs; a lone
 * counter needs no ioctl(PERF_EVENT_IOC_ID), its reads carry the id.  The
 * first open in a process also probes PERF_FORMAT_LOST with one more
 * open+close (the warm-up absorbs it).
 */
static void counter_open_close(struct ctx *x, long iters)
{
	for (long i = 0; i < iters; i++) {
		struct peo_counter *c;
		int err = peo_counter_open(&c, &x->attr, NULL, NULL);

		if (err)
			die("peo_counter_open()", err);
		peo_counter_close(c);
	}
}

static void target_new_free(struct ctx *x, long iters)
{
	PEO_OPTS(peo_target_opts, o, .kind = PEO_TARGET_SELF);

	for (long i = 0; i < iters; i++) {
		struct peo_target *t;
		int err = peo_target_new(&t, &o);

		if (err)
			die("peo_target_new()", err);
		peo_target_free(t);
	}
}

/* ------------------------------------------------------------ measuring */

static double ns_per_op(bench_fn fn, struct ctx *x, long iters)
{
	uint64_t t0 = now_ns();

	fn(x, iters);
	return (double)(now_ns() - t0) / (double)iters;
}

static int cmp_double(const void *a, const void *b)
{
	double d = *(const double *)a - *(const double *)b;

	return (d > 0) - (d < 0);
}

static double minimum(const double *v)
{
	double m = v[0];

	for (int i = 1; i < ROUNDS; i++)
		m = v[i] < m ? v[i] : m;
	return m;
}

static double median(double *v)
{
	qsort(v, ROUNDS, sizeof(*v), cmp_double);
	return v[ROUNDS / 2];
}

/* One line: median of @base (NULL: none, for pure overhead) and of @peo. */
static void measure(const char *name, bench_fn base, struct ctx *bx, bench_fn peo,
		    struct ctx *px, long iters)
{
	double b[ROUNDS] = { 0 }, p[ROUNDS];

	if (base)
		base(bx, iters / 10); /* warm-up: caches, branch predictors, first-use probes */
	peo(px, iters / 10);
	for (int r = 0; r < ROUNDS; r++) {
		if (base && r % 2 == 0)
			b[r] = ns_per_op(base, bx, iters);
		p[r] = ns_per_op(peo, px, iters);
		if (base && r % 2 == 1)
			b[r] = ns_per_op(base, bx, iters);
	}
	if (!base) {
		printf("%-40s %10s %10.1f %7s %9s\n", name, "-", minimum(p), "-", "-");
		return;
	}
	double mb = minimum(b), mp = minimum(p), db = median(b), dp = median(p);

	printf("%-40s %10.1f %10.1f %7.3f %+9.1f   %7.3f\n", name, mb, mp, mp / mb, mp - mb, dp / db);
	/* for bench/report.sh's table: figure, peo, baseline, baseline/peo */
	printf("RESULT|%s|%.1f ns|%s|%.1f ns|%.2f\n", name, mp,
	       strstr(name, " vs ") ? strstr(name, " vs ") + 4 : "raw syscall", mb, mb / mp);
}

/* ---------------------------------------------------------------- setup */

/* read_format as libpeo builds it (src/group.c prepare_attr): LOST only
 * where the kernel has it (6.0+), so both sides read the same bytes. */
static uint64_t read_format(int group)
{
	uint64_t f = PEO_FORMAT_TOTAL_TIME_ENABLED | PEO_FORMAT_TOTAL_TIME_RUNNING | PEO_FORMAT_ID;
	struct peo_attr a;
	int fd;

	peo_attr_init(&a);
	a.type = PEO_TYPE_SOFTWARE;
	a.config = PEO_COUNT_SW_DUMMY;
	a.disabled = 1;
	a.read_format = PEO_FORMAT_LOST;
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		f |= PEO_FORMAT_LOST;
	}
	return f | (group ? PEO_FORMAT_GROUP : 0);
}

static void sw_attr(struct peo_attr *a, uint64_t config)
{
	peo_attr_init(a);
	a->type = PEO_TYPE_SOFTWARE;
	a->config = config;
}

/* Warn when peo's fd answers a read with other bytes than the baseline's. */
static void check_same_bytes(const char *name, int raw_fd, int peo_fd)
{
	uint64_t b1[4 + 3 * MAX_GROUP], b2[4 + 3 * MAX_GROUP];
	ssize_t r1 = read(raw_fd, b1, sizeof(b1)), r2 = read(peo_fd, b2, sizeof(b2));

	if (r1 != r2)
		printf("# warning: %s: baseline read %zd bytes, peo's fd %zd: not the same work\n",
		       name, r1, r2);
}

static void print_header(void)
{
	char line[256], cpu[256] = "unknown CPU";
	struct utsname u;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (colon && !strncmp(line, "model name", 10)) {
			snprintf(cpu, sizeof(cpu), "%s", colon + 2);
			cpu[strcspn(cpu, "\n")] = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	uname(&u);
	printf("# bench_counter: %s, %ld online CPUs, Linux %s; peo %s\n", cpu,
	       sysconf(_SC_NPROCESSORS_ONLN), u.release, peo_version());
	printf("# fastest of %d alternating rounds; ns per operation; ratio = peo/baseline, "
	       "lower is better; diff = peo - baseline (ns); median = the medians' ratio\n", ROUNDS);
	printf("%-40s %10s %10s %7s %9s   %7s\n", "case", "baseline", "peo", "ratio", "diff", "median");
}

int main(void)
{
	static const uint64_t sw[MAX_GROUP] = {
		PEO_COUNT_SW_TASK_CLOCK, PEO_COUNT_SW_CPU_CLOCK, PEO_COUNT_SW_PAGE_FAULTS,
		PEO_COUNT_SW_CONTEXT_SWITCHES, PEO_COUNT_SW_CPU_MIGRATIONS,
		PEO_COUNT_SW_PAGE_FAULTS_MIN, PEO_COUNT_SW_PAGE_FAULTS_MAJ,
		PEO_COUNT_SW_ALIGNMENT_FAULTS,
	};
	PEO_OPTS(peo_counter_opts, on, .enabled = 1);
	PEO_OPTS(peo_counter_opts, on_user, .enabled = 1, .user_read = 1);
	struct ctx base = { .fd = -1 }, peo = { .fd = -1 };
	cpu_set_t set;
	char name[64];
	int err, ksize;

	/* One CPU: no migrations mid-round, and both sides see the same caches. */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		printf("# warning: could not pin to CPU 0: %s\n", strerror(errno));
	print_header();

	/* a. one counter read: raw read() vs peo_counter_read(), task-clock. */
	sw_attr(&base.attr, PEO_COUNT_SW_TASK_CLOCK);
	base.attr.read_format = read_format(0);
	base.fd = peo_sys_open(&base.attr, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (base.fd < 0)
		die("peo_sys_open(task-clock)", base.fd);
	sw_attr(&peo.attr, PEO_COUNT_SW_TASK_CLOCK);
	if ((err = peo_counter_open(&peo.c, &peo.attr, NULL, &on)))
		die("peo_counter_open(task-clock)", err);
	check_same_bytes("counter read", base.fd, peo_counter_fd(peo.c, 0));
	measure("counter read (task-clock)", raw_read, &base, counter_read, &peo, READ_ITERS);
	peo_counter_close(peo.c);

	/* c. self-read: the control page is checked first; with no rdpmc (every
	 * software event, and this VM) it falls back to one read(). */
	if ((err = peo_counter_open(&peo.c, &peo.attr, NULL, &on_user)))
		die("peo_counter_open(task-clock, user_read)", err);
	measure("counter read, user_read fallback", raw_read, &base, counter_read, &peo, READ_ITERS);
	counter_read(&peo, 1);
	printf("# user_read: last read was %s\n",
	       peo_counter_user_read_ok(peo.c) == 1 ? "rdpmc (no syscall)" : "the read() fallback");
	peo_counter_close(peo.c);
	close(base.fd);

	/* b. group reads of n software events: raw leader read() vs peo_group_read(). */
	for (size_t n = 1; n <= MAX_GROUP; n *= 2) {
		struct peo_attr attrs[MAX_GROUP];
		int fds[MAX_GROUP];
		uint64_t fmt = read_format(1);

		/* As libpeo does: leader opened disabled, members enabled, then
		 * the leader enabled, so every member counts (see group.c). */
		for (size_t m = 0; m < n; m++) {
			sw_attr(&attrs[m], sw[m]);
			attrs[m].read_format = fmt;
			attrs[m].disabled = m == 0;
			fds[m] = peo_sys_open(&attrs[m], 0, -1, m ? fds[0] : -1, PEO_FLAG_FD_CLOEXEC);
			if (fds[m] < 0)
				die("peo_sys_open(group member)", fds[m]);
		}
		if ((err = peo_sys_ioc_enable(fds[0], 0)))
			die("PERF_EVENT_IOC_ENABLE", err);
		for (size_t m = 0; m < n; m++)
			sw_attr(&attrs[m], sw[m]);
		if ((err = peo_group_open(&peo.g, attrs, n, NULL, &on)))
			die("peo_group_open()", err);
		base.fd = fds[0];
		peo.n = n;
		snprintf(name, sizeof(name), "group read, %zu event%s", n, n > 1 ? "s" : "");
		check_same_bytes(name, base.fd, peo_group_fd(peo.g, 0, 0));
		measure(name, raw_read, &base, group_read, &peo, READ_ITERS);
		peo_group_close(peo.g);
		for (size_t m = n; m-- > 0;)
			close(fds[m]);
	}

	/* d. open+close of a disabled task-clock counter on this thread. */
	sw_attr(&base.attr, PEO_COUNT_SW_TASK_CLOCK);
	base.attr.disabled = 1;
	base.attr.read_format = read_format(0);
	peo.attr = base.attr;
	ksize = peo_kernel_attr_size();
	if (ksize < 0)
		die("peo_kernel_attr_size()", ksize);
	base.attr.size = (uint32_t)ksize;
	/* A kernel takes a larger attr whose extra bytes are zero, so
	 * peo_sys_open makes one call here too, just at peo's size. */
	printf("# open cases: baseline syscall at the kernel's attr size %d, peo_sys_open at %zu\n",
	       ksize, sizeof(struct peo_attr));
	measure("open+close: peo_sys_open vs syscall", raw_open_close, &base, sys_open_close, &peo,
		OPEN_ITERS);
	sw_attr(&peo.attr, PEO_COUNT_SW_TASK_CLOCK); /* the counter sets its own read_format */
	base.attr = peo.attr;
	base.attr.disabled = 1;
	base.attr.read_format = read_format(0);
	measure("open+close: peo_counter_open vs sys_open", sys_open_close, &base,
		counter_open_close, &peo, OPEN_ITERS);
	/* Pure overhead, no system call to compare with: absolute ns only. */
	measure("peo_target_new+free (SELF)", NULL, NULL, target_new_free, &peo, READ_ITERS);
	return 0;
}
