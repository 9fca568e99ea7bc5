/*
 * test_sampler.c - peo_sampler: events sampled in one object, records
 * handed out parsed and bound to their event, tracepoint fields by name,
 * side records, a pollable fd, CPU targets, and bad input refused with a
 * sentence.  Counts asserted are what the workload guarantees: every
 * getppid of a tracepoint sampled at each hit, at least one sample of
 * CPU burnt under a clock sampled at 10 kHz.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <peo/peo.h>

#include "counter_internal.h"
#include "test_util.h"

#define CALLS 200

/* @want samples a second, or the kernel's limit where that is lower (an
 * emulated machine's, lowered by the kernel as sampling takes long). */
static uint64_t rate(uint64_t want)
{
	long max;

	return peo_test_read_long("/proc/sys/kernel/perf_event_max_sample_rate", &max) == 0 &&
			       max > 0 && (uint64_t)max < want
		       ? (uint64_t)max
		       : want;
}

/* @s, the sampler of @events, or a skip saying why it cannot open here. */
#define OPEN_OR_SKIP(s, events, t, o)                                                        \
	do {                                                                                 \
		int err_ = peo_sampler_open(&(s), events, t, o);                             \
		if (err_ == -EACCES || err_ == -EPERM || err_ == -ENOENT || err_ == -ENODEV) \
			PEO_SKIP("%s cannot be sampled here: %s", events, peo_last_error()); \
		assert_int_equal(err_, 0);                                                   \
		assert_non_null(s);                                                          \
	} while (0)

/* cpu-clock on this thread: samples of this thread, named, in user space. */
static void samples_this_thread(void **state)
{
	PEO_OPTS(peo_sampler_opts, o, .freq = rate(10000));
	struct peo_sampler *s;
	const struct peo_record *r;
	unsigned long samples = 0, user = 0;
	int got;

	(void)state;
	OPEN_OR_SKIP(s, "cpu-clock", NULL, &o);
	assert_int_equal(peo_sampler_event_count(s), 1);
	assert_string_equal(peo_sampler_event_name(s, 0), "cpu-clock");
	assert_null(peo_sampler_event_name(s, 1));
	assert_true(peo_sampler_attr(s, 0)->freq);
	assert_true(peo_sampler_attr(s, 0)->sample_type & PEO_SAMPLE_PERIOD);
	assert_int_equal(peo_sampler_enable(s), 0);
	peo_test_spin_ns(100 * 1000000ull);
	assert_int_equal(peo_sampler_disable(s), 0);
	while ((got = peo_sampler_next(s, &r)) == 1) {
		if (r->header.type != PEO_RECORD_SAMPLE)
			continue;
		samples++;
		assert_int_equal(r->u.sample.tid, (uint32_t)syscall(SYS_gettid));
		assert_int_equal(r->u.sample.pid, (uint32_t)getpid());
		assert_int_equal(peo_sampler_event_of(s, r), 0);
		user += peo_record_cpumode(r) == PEO_CPUMODE_USER;
	}
	assert_int_equal(got, 0);
	assert_true(samples > 0);
	assert_true(user > 0); /* the burn loop is user code */
	assert_int_equal(peo_sampler_next(s, &r), 0); /* drained stays drained */
	peo_sampler_close(s);
}

/* A tracepoint: each hit a sample (its attr's period 1), fields by name. */
static void tracepoint_fields_by_name(void **state)
{
	struct peo_sampler *s;
	const struct peo_record *r;
	int64_t nr, pid;
	int n = 0, got;

	(void)state;
	PEO_SKIP_WITHOUT_TRACEPOINT("syscalls", "sys_enter_getppid");
	OPEN_OR_SKIP(s, "syscalls:sys_enter_getppid", NULL, NULL);
	assert_int_equal(peo_sampler_attr(s, 0)->sample_period, 1);
	assert_false(peo_sampler_attr(s, 0)->freq);
	peo_sampler_enable(s);
	for (int i = 0; i < CALLS; i++)
		getppid();
	peo_sampler_disable(s);
	while ((got = peo_sampler_next(s, &r)) == 1) {
		if (r->header.type != PEO_RECORD_SAMPLE)
			continue;
		n++;
		assert_int_equal(peo_sampler_field(s, r, "__syscall_nr", &nr), 0);
		assert_int_equal(nr, SYS_getppid);
		assert_int_equal(peo_sampler_field(s, r, "common_pid", &pid), 0);
		assert_int_equal(pid, getpid());
	}
	assert_int_equal(got, 0);
	assert_int_equal(n, CALLS);
	assert_int_equal(peo_sampler_lost(s), 0);
	/* a field it lacks: named, with the fields it has */
	peo_sampler_enable(s);
	getppid();
	peo_sampler_disable(s);
	while ((got = peo_sampler_next(s, &r)) == 1 && r->header.type != PEO_RECORD_SAMPLE)
		;
	assert_int_equal(got, 1);
	assert_int_equal(peo_sampler_field(s, r, "no_such_field", &nr), -ENOENT);
	assert_non_null(strstr(peo_last_error(), "no_such_field"));
	assert_non_null(strstr(peo_last_error(), "__syscall_nr"));
	peo_sampler_close(s);
}

/* Two events in one sampler: each record bound to its own.  (An explicit
 * .freq would apply to both, as perf record's -F.) */
static void two_events_bound_by_id(void **state)
{
	struct peo_sampler *s;
	const struct peo_record *r;
	int64_t nr;
	int per[2] = { 0, 0 }, got;
	char events[128];

	(void)state;
	PEO_SKIP_WITHOUT_TRACEPOINT("syscalls", "sys_enter_getppid");
	/* each its own rate: the clock's term, the tracepoint's every hit */
	snprintf(events, sizeof(events), "cpu-clock/freq=%llu/,syscalls:sys_enter_getppid",
		 (unsigned long long)rate(10000));
	OPEN_OR_SKIP(s, events, NULL, NULL);
	assert_int_equal(peo_sampler_attr(s, 0)->sample_freq, rate(10000));
	assert_int_equal(peo_sampler_attr(s, 1)->sample_period, 1);
	assert_int_equal(peo_sampler_event_count(s), 2);
	assert_true(peo_sampler_attr(s, 0)->sample_type & PEO_SAMPLE_IDENTIFIER);
	assert_true(peo_sampler_attr(s, 1)->sample_type & PEO_SAMPLE_IDENTIFIER);
	peo_sampler_enable(s);
	for (int i = 0; i < CALLS; i++)
		getppid();
	peo_test_spin_ns(50 * 1000000ull);
	peo_sampler_disable(s);
	while ((got = peo_sampler_next(s, &r)) == 1) {
		int ev;

		if (r->header.type != PEO_RECORD_SAMPLE)
			continue;
		ev = peo_sampler_event_of(s, r);
		assert_true(ev == 0 || ev == 1);
		per[ev]++;
		if (ev == 0) /* cpu-clock is no tracepoint */
			assert_int_equal(peo_sampler_field(s, r, "__syscall_nr", &nr), -ENOENT);
	}
	assert_int_equal(got, 0);
	assert_int_equal(per[1], CALLS);
	assert_true(per[0] > 0);
	peo_sampler_close(s);
}

/* Two COMM records: this thread named @name, then its name again. */
static void rename_briefly(const char *name)
{
	char old[17] = "";

	prctl(PR_GET_NAME, old);
	prctl(PR_SET_NAME, name);
	prctl(PR_SET_NAME, old);
}

/* Side records asked for: a COMM when the thread renames itself. */
static void side_records(void **state)
{
	PEO_OPTS(peo_sampler_opts, o, .period = 1000000000, .records = PEO_SAMPLER_COMM,
		 .enabled = 1);
	struct peo_sampler *s;
	const struct peo_record *r;
	int comms = 0;

	(void)state;
	OPEN_OR_SKIP(s, "task-clock", NULL, &o);
	assert_false(peo_sampler_attr(s, 0)->disabled);
	assert_true(peo_sampler_attr(s, 0)->comm);
	assert_false(peo_sampler_attr(s, 0)->mmap);
	rename_briefly("peo-sampled");
	while (peo_sampler_next(s, &r) == 1)
		if (r->header.type == PEO_RECORD_COMM && !strcmp(r->u.comm.comm, "peo-sampled"))
			comms++;
	assert_int_equal(comms, 1);
	peo_sampler_close(s);
}

struct tally {
	int samples, comms, others, stop_at;
};

static int on_sample(const struct peo_record *r, void *ctx)
{
	struct tally *t = ctx;

	assert_int_equal(r->header.type, PEO_RECORD_SAMPLE);
	return ++t->samples == t->stop_at ? 7 : 0;
}

static int on_comm(const struct peo_record *r, void *ctx)
{
	assert_int_equal(r->header.type, PEO_RECORD_COMM);
	((struct tally *)ctx)->comms++;
	return 0;
}

static int on_other(const struct peo_record *r, void *ctx)
{
	assert_int_not_equal(r->header.type, PEO_RECORD_SAMPLE);
	assert_int_not_equal(r->header.type, PEO_RECORD_COMM);
	((struct tally *)ctx)->others++;
	return 0;
}

/* A visitor: each record to its type's callback, the rest to other; a
 * callback's non-zero value stops and is returned. */
static void visitor(void **state)
{
	PEO_OPTS(peo_sampler_opts, o, .records = PEO_SAMPLER_COMM | PEO_SAMPLER_MMAP,
		 .enabled = 1);
	PEO_OPTS(peo_record_visitor, v, .sample = on_sample, .comm = on_comm, .other = on_other);
	struct peo_record_visitor small = { .sz = sizeof(small) - 1 };
	struct tally t = { .stop_at = CALLS / 2 };
	struct peo_sampler *s;
	const struct peo_record *r;
	int got, stopped = 0;

	(void)state;
	PEO_SKIP_WITHOUT_TRACEPOINT("syscalls", "sys_enter_getppid");
	OPEN_OR_SKIP(s, "syscalls:sys_enter_getppid", NULL, &o);
	rename_briefly("peo-visited");
	for (int i = 0; i < CALLS; i++)
		getppid();
	peo_sampler_disable(s);
	while (peo_sampler_next(s, &r) == 1)
		if ((got = peo_record_visit(r, &v, &t)) != 0) {
			assert_int_equal(got, 7);
			stopped++;
		}
	assert_int_equal(stopped, 1);
	assert_int_equal(t.samples, CALLS);
	assert_int_equal(t.comms, 2);
	/* nothing to call: 0; bad arguments refused */
	v = (struct peo_record_visitor){ .sz = sizeof(v) };
	peo_sampler_enable(s);
	getppid();
	peo_sampler_disable(s);
	assert_int_equal(peo_sampler_next(s, &r), 1);
	assert_int_equal(peo_record_visit(r, &v, NULL), 0);
	assert_int_equal(peo_record_visit(r, &small, NULL), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "sz"));
	assert_int_equal(peo_record_visit(NULL, &v, NULL), -EINVAL);
	peo_sampler_close(s);
}

/* Copies outlive the sampler: its rings unmapped, each copy's pointers
 * read its own bytes (ASan would see them read freed or unmapped memory). */
static void copies_outlive_the_rings(void **state)
{
	PEO_OPTS(peo_sampler_opts, o, .records = PEO_SAMPLER_COMM | PEO_SAMPLER_MMAP,
		 .sample_type = PEO_SAMPLE_CALLCHAIN, .enabled = 1);
	struct peo_record *copies[CALLS + 64];
	const struct peo_record *r;
	struct peo_sampler *s;
	int n = 0, samples = 0, comms = 0;

	(void)state;
	PEO_SKIP_WITHOUT_TRACEPOINT("syscalls", "sys_enter_getppid");
	OPEN_OR_SKIP(s, "syscalls:sys_enter_getppid", NULL, &o);
	rename_briefly("peo-copied");
	for (int i = 0; i < CALLS; i++)
		getppid();
	peo_sampler_disable(s);
	while (peo_sampler_next(s, &r) == 1 && n < (int)(sizeof(copies) / sizeof(copies[0])))
		assert_int_equal(peo_record_copy(r, &copies[n++]), 0);
	peo_sampler_close(s); /* the rings are gone */
	for (int i = 0; i < n; i++) {
		struct peo_record *c = copies[i];
		int32_t pid;

		assert_non_null(c->attr);
		if (c->header.type == PEO_RECORD_SAMPLE) {
			samples++;
			assert_true(c->u.sample.callchain_nr > 0);
			assert_true(peo_record_u64(c, c->u.sample.callchain, 0) != 0);
			assert_true(c->u.sample.raw_size >= 8);
			memcpy(&pid, (const char *)c->u.sample.raw + 4, sizeof(pid)); /* common_pid */
			assert_int_equal(pid, getpid());
		} else if (c->header.type == PEO_RECORD_COMM) {
			comms += !strcmp(c->u.comm.comm, "peo-copied");
		}
		peo_record_free(c);
	}
	assert_int_equal(samples, CALLS);
	assert_int_equal(comms, 1);
	assert_int_equal(peo_record_copy(NULL, &copies[0]), -EINVAL);
	peo_record_free(NULL);
}

/* The fd polls readable once a sample waits (woken at each); the wait
 * says so too.  (A perf fd's readiness is taken by the poll that sees it:
 * the wait is asked after a sample of its own.) */
static void pollable(void **state)
{
	PEO_OPTS(peo_sampler_opts, o, .wakeup_events = 1);
	struct peo_sampler *s;
	struct pollfd p;

	(void)state;
	PEO_SKIP_WITHOUT_TRACEPOINT("syscalls", "sys_enter_getppid");
	OPEN_OR_SKIP(s, "syscalls:sys_enter_getppid", NULL, &o);
	p = (struct pollfd){ .fd = peo_sampler_fd(s), .events = POLLIN };
	assert_true(p.fd >= 0);
	assert_int_equal(poll(&p, 1, 0), 0); /* nothing yet */
	peo_sampler_enable(s);
	getppid();
	peo_sampler_disable(s);
	assert_int_equal(poll(&p, 1, 5000), 1);
	peo_sampler_enable(s);
	getppid();
	peo_sampler_disable(s);
	assert_int_equal(peo_sampler_wait(s, 5000), 1);
	peo_sampler_close(s);
}

/* Every CPU: a ring each, each sample's CPU one of the target's. */
static void every_cpu(void **state)
{
	PEO_OPTS(peo_target_opts, to, .kind = PEO_TARGET_CPUS);
	PEO_OPTS(peo_sampler_opts, o, .freq = 1000);
	struct peo_target *t;
	struct peo_sampler *s;
	const struct peo_record *r;
	int samples = 0, err;

	(void)state;
	assert_int_equal(peo_target_new(&t, &to), 0);
	err = peo_sampler_open(&s, "cpu-clock", t, &o);
	if (err == -EACCES || err == -EPERM) {
		peo_target_free(t);
		PEO_SKIP("a CPU-wide sampler is not allowed here: %s", peo_last_error());
	}
	assert_int_equal(err, 0);
	assert_true(peo_sampler_attr(s, 0)->sample_type & PEO_SAMPLE_CPU);
	peo_sampler_enable(s);
	peo_test_spin_ns(30 * 1000000ull);
	peo_sampler_disable(s);
	while (peo_sampler_next(s, &r) == 1) {
		int known = 0;

		if (r->header.type != PEO_RECORD_SAMPLE)
			continue;
		samples++;
		for (size_t c = 0; c < peo_target_cpu_count(t); c++)
			known |= (uint32_t)peo_target_cpu(t, c) == r->u.sample.cpu;
		assert_true(known);
	}
	assert_true(samples > 0);
	peo_sampler_close(s);
	peo_target_free(t);
}

/* A cgroup: only its task's samples (a child that joins it and spins,
 * while this process spins outside it). */
static void a_cgroup(void **state)
{
	char root[1024], dir[1200], procs[1300], name[64];
	struct peo_target *t;
	struct peo_sampler *s;
	const struct peo_record *r;
	int samples = 0, status, err;
	pid_t child;

	(void)state;
	snprintf(name, sizeof(name), "peo-sampler-%d", (int)getpid());
	peo_cgroup_root(root, sizeof(root)); /* perf_event's v1 hierarchy, else cgroup2 */
	snprintf(dir, sizeof(dir), "%s/%s", root, name);
	if (mkdir(dir, 0755) < 0)
		PEO_SKIP("cannot create %s: %s (needs root and a writable cgroup tree)", dir,
			 strerror(errno));
	PEO_OPTS(peo_target_opts, to, .kind = PEO_TARGET_CGROUP, .cgroup = name);
	PEO_OPTS(peo_sampler_opts, o, .freq = rate(4000), .enabled = 1);
	assert_int_equal(peo_target_new(&t, &to), 0);
	err = peo_sampler_open(&s, "cpu-clock", t, &o);
	assert_int_equal(err, 0);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	child = fork();
	if (child == 0) {
		FILE *f = fopen(procs, "w");

		if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f))
			_exit(1);
		peo_test_spin_ns(100 * 1000000ull);
		_exit(0);
	}
	assert_true(child > 0);
	peo_test_spin_ns(100 * 1000000ull); /* outside the cgroup: none of it sampled */
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_int_equal(status, 0);
	peo_sampler_disable(s);
	while (peo_sampler_next(s, &r) == 1)
		if (r->header.type == PEO_RECORD_SAMPLE) {
			samples++;
			assert_int_equal(r->u.sample.pid, (uint32_t)child);
		}
	assert_true(samples > 0);
	peo_sampler_close(s);
	peo_target_free(t);
	assert_int_equal(rmdir(dir), 0);
}

/* From the caller's attrs: no name, the sampling fields set on a copy. */
static void from_attrs(void **state)
{
	PEO_OPTS(peo_sampler_opts, o, .freq = rate(10000));
	struct peo_attr a = { .size = sizeof(a), .type = PEO_TYPE_SOFTWARE,
			      .config = PEO_COUNT_SW_CPU_CLOCK, .exclude_kernel = 1,
			      .exclude_hv = 1 };
	struct peo_sampler *s = NULL;
	const struct peo_record *r;
	int samples = 0;

	(void)state;
	assert_int_equal(peo_sampler_open_attrs(&s, &a, 1, NULL, &o), 0);
	assert_int_equal(a.sample_type, 0); /* the caller's is not changed */
	assert_string_equal(peo_sampler_event_name(s, 0), "");
	peo_sampler_enable(s);
	peo_test_spin_ns(50 * 1000000ull);
	peo_sampler_disable(s);
	while (peo_sampler_next(s, &r) == 1)
		if (r->header.type == PEO_RECORD_SAMPLE) {
			samples++;
			assert_int_equal(peo_record_cpumode(r), PEO_CPUMODE_USER);
		}
	assert_true(samples > 0);
	peo_sampler_close(s);
}

/* Registers by name: a user sample's pc register is its ip. */
static void registers_by_name(void **state)
{
#if defined(__aarch64__)
	const char *pc_name = "pc";
#else
	const char *pc_name = "ip";
#endif
	int pc = peo_reg_number(0, pc_name), sp = peo_reg_number(0, "sp");
	PEO_OPTS(peo_sampler_opts, o, .freq = rate(10000), .sample_type = PEO_SAMPLE_REGS_USER,
		 .regs_user = (1ull << pc) | (1ull << sp));
	struct peo_sampler *s;
	const struct peo_record *r;
	uint64_t v, stack;
	int user = 0;

	(void)state;
	assert_true(pc >= 0 && sp >= 0);
	OPEN_OR_SKIP(s, "cpu-clock:u", NULL, &o);
	peo_sampler_enable(s);
	peo_test_spin_ns(50 * 1000000ull);
	peo_sampler_disable(s);
	while (peo_sampler_next(s, &r) == 1) {
		if (r->header.type != PEO_RECORD_SAMPLE ||
		    peo_record_cpumode(r) != PEO_CPUMODE_USER)
			continue;
		user++;
		assert_int_equal(peo_sample_reg(r, 0, pc, &v), 0);
		assert_int_equal(v, r->u.sample.ip);
		assert_int_equal(peo_sample_reg(r, 0, sp, &stack), 0);
		assert_true(stack > 0x1000);
		/* one the event did not ask for, and the interrupt set it has not */
		assert_int_equal(peo_sample_reg(r, 0, sp == 1 ? 2 : 1, &v), -ENOENT);
		assert_non_null(strstr(peo_last_error(), "mask"));
		assert_int_equal(peo_sample_reg(r, 1, pc, &v), -ENOENT);
	}
	assert_true(user > 0);
	peo_sampler_close(s);
	/* the names of both machines, whatever this one is */
	assert_int_equal(peo_reg_number(62, "rax"), PEO_REG_X86_AX);
	assert_int_equal(peo_reg_number(62, "R15"), PEO_REG_X86_R15);
	assert_int_equal(peo_reg_number(62, "eflags"), PEO_REG_X86_FLAGS);
	assert_int_equal(peo_reg_number(62, "xmm3"), PEO_REG_X86_XMM(3));
	assert_int_equal(peo_reg_number(183, "x30"), PEO_REG_ARM64_LR);
	assert_int_equal(peo_reg_number(183, "fp"), PEO_REG_ARM64_X29);
	assert_int_equal(peo_reg_number(183, "pc"), PEO_REG_ARM64_PC);
	assert_int_equal(peo_reg_number(62, "x31"), -ENOENT);
	assert_non_null(strstr(peo_last_error(), "r8-r15"));
	assert_int_equal(peo_reg_number(183, "xmm0"), -ENOENT);
	assert_int_equal(peo_reg_number(3, "ax"), -EINVAL);
}

/* inherit: a ring per CPU (the kernel maps none of an inherited event on
 * any CPU); a thread target on any CPU is refused, saying what to do. */
static void inherit_rings_per_cpu(void **state)
{
	PEO_OPTS(peo_sampler_opts, o, .freq = rate(1000), .inherit = 1);
	PEO_OPTS(peo_target_opts, any_cpu, .kind = PEO_TARGET_TID, .pid = 0);
	PEO_OPTS(peo_target_opts, cpus, .kind = PEO_TARGET_CPUS);
	PEO_OPTS(peo_sampler_opts, trap, .sigtrap = 1);
	struct peo_sampler *s;
	struct peo_target *t;
	const struct peo_record *r;
	int samples = 0;

	(void)state;
	OPEN_OR_SKIP(s, "cpu-clock", NULL, &o);
	assert_true(peo_sampler_attr(s, 0)->inherit);
	peo_sampler_enable(s);
	peo_test_spin_ns(50 * 1000000ull);
	peo_sampler_disable(s);
	while (peo_sampler_next(s, &r) == 1)
		samples += r->header.type == PEO_RECORD_SAMPLE;
	assert_true(samples > 0);
	peo_sampler_close(s);
	any_cpu.pid = (pid_t)syscall(SYS_gettid);
	assert_int_equal(peo_target_new(&t, &any_cpu), 0);
	assert_int_equal(peo_sampler_open(&s, "cpu-clock", t, &o), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "per_cpu"));
	peo_target_free(t);
	assert_int_equal(peo_target_new(&t, &cpus), 0);
	assert_int_equal(peo_sampler_open(&s, "cpu-clock", t, &trap), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "sigtrap"));
	peo_target_free(t);
}

/* Bad input: refused, the sentence naming what and why; nothing leaks. */
static void bad_input(void **state)
{
	PEO_OPTS(peo_sampler_opts, pages, .ring_pages = 3);
	PEO_OPTS(peo_sampler_opts, records, .records = 1u << 20);
	PEO_OPTS(peo_sampler_opts, stack, .sample_type = PEO_SAMPLE_STACK_USER, .stack_user = 12);
	struct peo_sampler *s = NULL;
	struct peo_attr a = { .size = sizeof(a), .type = PEO_TYPE_SOFTWARE };
	const struct peo_record *r;

	(void)state;
	assert_int_equal(peo_sampler_open(&s, "cpu-clock", NULL, &pages), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "ring_pages"));
	assert_non_null(strstr(peo_last_error(), "power of two"));
	assert_int_equal(peo_sampler_open(&s, "cpu-clock", NULL, &records), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "records"));
	assert_int_equal(peo_sampler_open(&s, "cpu-clock", NULL, &stack), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "stack_user"));
	assert_true(peo_sampler_open(&s, "no-such-event-xyz", NULL, NULL) < 0);
	assert_non_null(strstr(peo_last_error(), "no-such-event-xyz"));
	assert_null(s);
	assert_int_equal(peo_sampler_open(NULL, "cpu-clock", NULL, NULL), -EINVAL);
	assert_int_equal(peo_sampler_open(&s, NULL, NULL, NULL), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "events"));
	assert_int_equal(peo_sampler_open_attrs(&s, &a, 0, NULL, NULL), -EINVAL);
	assert_int_equal(peo_sampler_next(NULL, &r), -EINVAL);
	assert_int_equal(peo_sampler_enable(NULL), -EINVAL);
	assert_int_equal(peo_sampler_event_count(NULL), 0);
	assert_string_equal(peo_cpumode_name(PEO_CPUMODE_GUEST_USER), "guest-user");
	assert_string_equal(peo_cpumode_name((enum peo_cpumode)7), "unknown");
	peo_sampler_close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(samples_this_thread), PEO_TEST(tracepoint_fields_by_name),
		PEO_TEST(two_events_bound_by_id), PEO_TEST(side_records),
		PEO_TEST(pollable), PEO_TEST(every_cpu), PEO_TEST(a_cgroup),
		PEO_TEST(from_attrs), PEO_TEST(registers_by_name), PEO_TEST(visitor), PEO_TEST(inherit_rings_per_cpu),
		PEO_TEST(copies_outlive_the_rings),
		PEO_TEST(bad_input),
	};

	return PEO_TEST_MAIN("sampler", tests);
}
