/*
 * test_util.c - shared helpers for peo's cmocka tests.
 */
#include <dirent.h>
#include <ftw.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define PEO_HAVE_VALGRIND_H 1
#endif
#endif

static int skipped;

void peo_test_note_skip(const char *fmt, ...)
{
	va_list ap;

	skipped++;
	printf("[  SKIP    ] reason: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

int peo_test_run(const char *name, const struct CMUnitTest *tests, size_t n,
		 CMFixtureFunction group_setup)
{
	int failed = _cmocka_run_group_tests(name, tests, n, group_setup, NULL);

	printf("[ SUMMARY  ] %s: %zu tests, %d failed, %d skipped\n", name, n, failed, skipped);
	if (failed == 0 && skipped > 0 && (size_t)skipped == n)
		return 77;
	return failed;
}

void peo_assert_error_contains(const char *needle, const char *file, int line)
{
	const char *msg = peo_last_error();

	if (!strstr(msg, needle)) {
		print_error("%s:%d: peo_last_error() lacks \"%s\":\n  %s\n", file, line, needle, msg);
		_fail(file, line);
	}
}

int peo_test_check_failed(char *buf, size_t cap, const char *file, int line, const char *cond)
{
	if (buf)
		snprintf(buf, cap, "%s:%d: failed: %s (last error: %s)", file, line, cond,
			 peo_last_error());
	else
		fprintf(stderr, "%s:%d: failed: %s (last error: %s)\n", file, line, cond,
			peo_last_error());
	return 1;
}

void peo_test_sw_attr(struct peo_attr *attr, uint64_t config)
{
	peo_attr_init(attr);
	attr->type = PEO_TYPE_SOFTWARE;
	attr->config = config;
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

void peo_test_watch_attr(struct peo_attr *a, const volatile void *addr)
{
	peo_attr_init(a);
	a->type = PEO_TYPE_BREAKPOINT;
	a->bp_type = PEO_BP_W;
	a->bp_addr = (uint64_t)(uintptr_t)addr;
	a->bp_len = PEO_BP_LEN_8;
	a->sample_period = 1;
}

int peo_test_config3_refused(void)
{
	struct peo_attr a;
	int fd;

	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	a.config3 = 1;
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		close(fd);
	PEO_CHECK(fd == -E2BIG);
	PEO_CHECK(strstr(peo_last_error(), "attr.config3 needs perf_event_attr size >= 136 (Linux 6.3)"));
	PEO_CHECK(strstr(peo_last_error(), "this kernel accepts"));
	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	PEO_CHECK(fd >= 0);
	close(fd);
	return 0;
}

uint64_t peo_test_read_count(int fd)
{
	uint64_t v = 0;

	assert_int_equal(read(fd, &v, sizeof(v)), sizeof(v));
	return v;
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void peo_test_spin_ns(uint64_t ns)
{
	uint64_t end = cpu_ns() + ns;
	volatile uint64_t sink = 0;

	while (cpu_ns() < end)
		for (int i = 0; i < 1000; i++)
			sink += (uint64_t)i;
	(void)sink;
}

void peo_test_touch_pages(size_t pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	for (size_t i = 0; i < pages; i++)
		((volatile char *)p)[i * page] = 1;
	munmap(p, pages * page);
}

/* The mask before the first pin, put back by peo_test_unpin(). */
static cpu_set_t unpinned;
static int pinned;

void peo_test_pin_to_cpu(int cpu)
{
	cpu_set_t set;

	if (!pinned) {
		assert_int_equal(sched_getaffinity(0, sizeof(unpinned), &unpinned), 0);
		pinned = 1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	assert_int_equal(sched_setaffinity(0, sizeof(set), &set), 0);
}

void peo_test_unpin(void)
{
	if (!pinned)
		return;
	sched_setaffinity(0, sizeof(unpinned), &unpinned); /* undoing a pin: nothing to assert */
	pinned = 0;
}

int peo_test_release_at_least(const char *since)
{
	struct utsname u;
	unsigned rmaj = 0, rmin = 0, smaj = 0, smin = 0;

	assert_int_equal(uname(&u), 0);
	assert_true(sscanf(u.release, "%u.%u", &rmaj, &rmin) == 2);
	assert_true(sscanf(since, "%u.%u", &smaj, &smin) >= 1);
	return rmaj != smaj ? rmaj > smaj : rmin >= smin;
}

int peo_test_run_capture(const char *cmd, char *out, size_t cap)
{
	char line[1024];
	FILE *p;
	size_t n;
	int len, status;

	out[0] = '\0';
	len = snprintf(line, sizeof(line), "%s 2>&1", cmd);
	if (len < 0 || (size_t)len >= sizeof(line))
		return -1; /* not a cut command line */
	p = popen(line, "r");
	if (!p)
		return -1;
	n = fread(out, 1, cap - 1, p);
	out[n] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int peo_test_count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the DIR's own fd */
}

int peo_test_read_long(const char *path, long *out)
{
	FILE *f = fopen(path, "re");
	int ok = f && fscanf(f, "%ld", out) == 1;

	if (f)
		fclose(f);
	return ok ? 0 : -1;
}

int peo_test_cpu_pmu(char *name, size_t cap)
{
	/* by preference: on a hybrid machine the big cores' (cpu_atom's count nothing
	 * while the test runs on a big core) */
	static const char *const core[] = { "cpu", "cpu_core", "cpum_cf", "cpu_atom" };
	const char *root = "/sys/bus/event_source/devices";
	char path[512], other[256] = "";
	struct dirent *e;
	DIR *d;

	for (size_t i = 0; i < sizeof(core) / sizeof(core[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, core[i]);
		if (access(path, F_OK) == 0) {
			if (name)
				snprintf(name, cap, "%s", core[i]);
			return 1;
		}
	}
	/* else one that covers CPUs (arm's armv8_pmuv3_0...) */
	d = opendir(root);
	while (d && !other[0] && (e = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s/cpus", root, e->d_name);
		if (e->d_name[0] != '.' && access(path, F_OK) == 0)
			snprintf(other, sizeof(other), "%s", e->d_name);
	}
	if (d)
		closedir(d);
	if (other[0] && name)
		snprintf(name, cap, "%s", other);
	return other[0] != 0;
}

int peo_test_pin_to_pmu(const char *pmu)
{
	char path[512];
	cpu_set_t set;
	long cpu;
	FILE *f;
	int got;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/cpus", pmu);
	if (!(f = fopen(path, "r")))
		return 0; /* it covers every CPU */
	got = fscanf(f, "%ld", &cpu); /* "0-7,16-23": the first is enough */
	fclose(f);
	if (got != 1 || cpu < 0 || cpu >= CPU_SETSIZE)
		return -1;
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -1 : (int)cpu + 1;
}

/* Where tracefs is mounted: its own place, or under debugfs. */
static const char *const tracefs_roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

long long peo_test_tracepoint_id(const char *sys, const char *name, char *why, size_t cap)
{
	char path[256];
	FILE *f = NULL;
	long long id = -1;

	for (int attempt = 0; attempt < 2 && !f; attempt++) {
		for (size_t i = 0; i < sizeof(tracefs_roots) / sizeof(tracefs_roots[0]) && !f; i++) {
			snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs_roots[i], sys, name);
			f = fopen(path, "re");
		}
		/* EBUSY: it is mounted already, and the tracepoint is missing */
		if (!f && attempt == 0 && mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) < 0 &&
		    errno != EBUSY) {
			snprintf(why, cap, "tracefs is not mounted and mounting it failed (%s)", strerror(errno));
			return -1;
		}
	}
	if (!f) {
		snprintf(why, cap, "tracepoint %s:%s does not exist in tracefs", sys, name);
		return -1;
	}
	if (fscanf(f, "%lld", &id) != 1)
		snprintf(why, cap, "%s holds no number", path);
	fclose(f);
	return id;
}

int peo_test_lseek_offset_field(char *why, size_t cap)
{
	char path[128], line[256];
	int off = -1;

	for (size_t i = 0; i < sizeof(tracefs_roots) / sizeof(tracefs_roots[0]) && off < 0; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_lseek/format", tracefs_roots[i]);
		if (!(f = fopen(path, "re")))
			continue;
		while (off < 0 && fgets(line, sizeof(line), f)) {
			char *p = strstr(line, " offset;");

			if (p && (p = strstr(p, "offset:")))
				off = atoi(p + 7);
		}
		fclose(f);
	}
	if (off < 0)
		snprintf(why, cap, "no 'offset' field in sys_enter_lseek's format file");
	return off;
}

int peo_test_tracepoint_attr(struct peo_attr *a, const char *sys, const char *name, char *why,
			     size_t cap)
{
	long long id = peo_test_tracepoint_id(sys, name, why, cap);

	peo_attr_init(a);
	if (id < 0)
		return -1;
	a->type = PEO_TYPE_TRACEPOINT;
	a->config = (uint64_t)id;
	a->sample_period = 1;
	return 0;
}

static int fds_at_setup;

int peo_test_fds_setup(void **state)
{
	(void)state;
	fds_at_setup = peo_test_count_fds();
	return 0;
}

int peo_test_fds_teardown(void **state)
{
	int now = peo_test_count_fds();

	(void)state;
	peo_test_unpin(); /* a test that failed while pinned leaves the next ones free */
	if (now != fds_at_setup) {
		print_error("fd leak: %d fds open before the test, %d after\n", fds_at_setup, now);
		return -1;
	}
	return 0;
}

struct peo_target *peo_test_target(const struct peo_target_opts *o)
{
	struct peo_target *t = NULL;
	int err = peo_target_new(&t, o);

	if (err)
		print_error("peo_target_new: %s\n", peo_last_error());
	assert_int_equal(err, 0);
	return t;
}

void vec_put(struct vec *v, uint64_t x, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		size_t shift = 8 * (v->big ? size - 1 - i : i);

		v->b[v->n++] = (unsigned char)(x >> shift);
	}
}

void vec_put64(struct vec *v, uint64_t x)
{
	vec_put(v, x, 8);
}

void vec_put32(struct vec *v, uint32_t x)
{
	vec_put(v, x, 4);
}

void vec_put16(struct vec *v, uint16_t x)
{
	vec_put(v, x, 2);
}

void vec_bytes(struct vec *v, const void *p, size_t n)
{
	memcpy(v->b + v->n, p, n);
	v->n += n;
}

void vec_pad8(struct vec *v)
{
	while (v->n % 8)
		v->b[v->n++] = 0;
}

void vec_zeros_to(struct vec *v, size_t n)
{
	while (v->n < n)
		v->b[v->n++] = 0;
}

void vec_put_at(struct vec *v, size_t at, uint64_t x, size_t size)
{
	size_t n = v->n;

	v->n = at;
	vec_put(v, x, size);
	v->n = n;
}

void vec_attr(struct vec *v, const struct peo_attr *a)
{
	uint64_t flags = a->flags;
	size_t start = v->n;

	if (v->big) { /* bitfields from the top */
		uint64_t r = 0;

		for (int i = 0; i < 64; i++)
			if (flags >> i & 1)
				r |= 1ULL << (63 - i);
		flags = r;
	}
	vec_put32(v, a->type);
	vec_put32(v, a->size);
	vec_put64(v, a->config);
	vec_put64(v, a->sample_period);
	vec_put64(v, a->sample_type);
	vec_put64(v, a->read_format);
	vec_put64(v, flags);
	vec_put32(v, a->wakeup_events);
	vec_put32(v, a->bp_type);
	vec_put64(v, a->config1);
	vec_put64(v, a->config2);
	vec_put64(v, a->branch_sample_type);
	vec_put64(v, a->sample_regs_user);
	vec_put32(v, a->sample_stack_user);
	vec_put32(v, (uint32_t)a->clockid);
	vec_put64(v, a->sample_regs_intr);
	vec_put32(v, a->aux_watermark);
	vec_put16(v, a->sample_max_stack);
	vec_put16(v, a->__reserved_2);
	vec_put32(v, a->aux_sample_size);
	if (v->big) { /* aux_action's bitfields from the top of their word */
		uint32_t r = 0;

		for (int i = 0; i < 32; i++)
			if (a->aux_action >> i & 1)
				r |= 1U << (31 - i);
		vec_put32(v, r);
	} else {
		vec_put32(v, a->aux_action);
	}
	vec_put64(v, a->sig_data);
	vec_put64(v, a->config3);
	vec_put64(v, a->config4);
	vec_zeros_to(v, start + sizeof(*a));
}

int peo_test_under_valgrind(void)
{
#ifdef PEO_HAVE_VALGRIND_H
	return RUNNING_ON_VALGRIND != 0;
#else
	const char *preload = getenv("LD_PRELOAD");

	return preload && strstr(preload, "vgpreload") != NULL;
#endif
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int peo_test_remove_tree(const char *path)
{
	return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void vec_record_begin(struct vec *v, int big, uint32_t type, uint16_t misc)
{
	memset(v, 0, sizeof(*v));
	v->big = big;
	vec_put32(v, type);
	vec_put16(v, misc);
	vec_put16(v, 0);
}

void vec_record_end(struct vec *v)
{
	vec_put_at(v, 6, v->n, 2);
}

void peo_test_foreign_attr(struct peo_attr *out, const struct peo_attr *host, int big)
{
	struct vec v = { .big = big };

	vec_attr(&v, host);
	memcpy(out, v.b, sizeof(*out));
}

struct peo_record_parser *peo_test_parser_for(int big, const struct peo_attr *host_attr)
{
	PEO_OPTS(peo_record_parser_opts, o, .byte_order = big ? PEO_BYTE_ORDER_BIG
							       : PEO_BYTE_ORDER_LITTLE);
	struct peo_record_parser *p;
	struct peo_attr a;

	assert_int_equal(peo_record_parser_new(&p, &o), 0);
	if (host_attr) {
		peo_test_foreign_attr(&a, host_attr, big);
		assert_int_equal(peo_record_parser_add(p, &a, NULL, 0), 0);
	}
	return p;
}

void peo_test_base_attr(struct peo_attr *a, uint64_t sample_type)
{
	peo_attr_init(a);
	a->type = PEO_TYPE_SOFTWARE;
	a->sample_type = sample_type;
	a->sample_id_all = 1;
}

int peo_test_syscall_tracepoints(int *lseek_offset)
{
	char why[256];

	if (peo_test_tracepoint_id("syscalls", "sys_enter_lseek", why, sizeof(why)) < 0 ||
	    peo_test_tracepoint_id("syscalls", "sys_enter_getppid", why, sizeof(why)) < 0 ||
	    (*lseek_offset = peo_test_lseek_offset_field(why, sizeof(why))) < 0) {
		peo_test_note_skip("%s", why);
		return -1;
	}
	return 0;
}

struct peo_ring *peo_test_map_ring(int fd, size_t pages, int overwrite)
{
	PEO_OPTS(peo_ring_opts, o, .data_pages = pages, .overwrite = overwrite);
	struct peo_ring *r;
	int err = peo_ring_map(&r, fd, &o);

	if (err)
		print_error("%s\n", peo_last_error());
	assert_int_equal(err, 0);
	return r;
}
