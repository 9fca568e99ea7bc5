/*
 * test_ring.c - the ring buffer against the real kernel: records sampled
 * from syscall tracepoints whose arguments the test chose, so every record's
 * content is known.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "test_util.h"

/* sample_type of every sampling event here: IDENTIFIER | TID | RAW. */
#define SAMPLE_TYPE (PEO_SAMPLE_IDENTIFIER | PEO_SAMPLE_TID | PEO_SAMPLE_RAW)

/* lseek(-1, arg, SEEK_SET) fails with EBADF, and its tracepoint records arg. */
static void mark(uint64_t arg)
{
	syscall(SYS_lseek, -1, (long)arg, SEEK_SET);
}

struct sample {
	uint64_t id;
	uint32_t pid, tid;
	uint64_t arg; /* lseek's offset; 0 for other tracepoints */
};

static int raw_arg_offset = -1;

/* Parse a SAMPLE of SAMPLE_TYPE from contiguous bytes. */
static void parse_sample(const void *rec, struct sample *s)
{
	const unsigned char *p = (const unsigned char *)rec + sizeof(struct peo_event_header);
	uint32_t raw_size;

	memcpy(&s->id, p, 8);
	memcpy(&s->pid, p + 8, 4);
	memcpy(&s->tid, p + 12, 4);
	memcpy(&raw_size, p + 16, 4);
	s->arg = 0;
	if (raw_arg_offset >= 0 && raw_size >= (uint32_t)raw_arg_offset + 8)
		memcpy(&s->arg, p + 20 + raw_arg_offset, 8);
}

/* Open syscalls:@name sampling every hit on @pid/@cpu; fails the test if it cannot. */
static int open_tracepoint(const char *name, pid_t pid, int cpu, int write_backward,
			   int inherit)
{
	char why[256];
	struct peo_attr a;
	int fd;

	assert_int_equal(peo_test_tracepoint_attr(&a, "syscalls", name, why, sizeof(why)), 0);
	a.sample_type = SAMPLE_TYPE;
	a.read_format = PEO_FORMAT_LOST;
	a.sample_id_all = 1;
	a.write_backward = !!write_backward;
	a.inherit = !!inherit;
	a.disabled = 1; /* cpu-wide ones would see other processes at once */
	a.wakeup_events = 1;
	fd = peo_sys_open(&a, pid, cpu, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd < 0)
		print_error("%s\n", peo_last_error());
	assert_true(fd >= 0);
	return fd;
}

/* getppid sampled on every hit with only the tid: 16-byte records. */
static void getppid_tid_attr(struct peo_attr *a)
{
	char why[256];

	/* the callers' earlier opens of the same tracepoint passed: it is there */
	if (peo_test_tracepoint_attr(a, "syscalls", "sys_enter_getppid", why, sizeof(why)))
		fail_msg("%s", why);
	a->sample_type = PEO_SAMPLE_TID;
}

static int group_setup(void **state)
{
	(void)state;
	return peo_test_syscall_tracepoints(&raw_arg_offset);
}

static uint64_t event_id(int fd)
{
	uint64_t id = 0;

	assert_int_equal(peo_sys_ioc_id(fd, &id), 0);
	return id;
}

/* ------------------------------------------------------------------ tests */

static void map_sizes_and_errors(void **state)
{
	PEO_OPTS(peo_ring_opts, three, .data_pages = 3);
	PEO_OPTS(peo_ring_opts, bytes, .data_bytes = 5000);
	struct peo_ring *r;
	int fd = open_tracepoint("sys_enter_getppid", 0, -1, 0, 0);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	(void)state;
	assert_int_equal(peo_ring_map(&r, fd, &three), -EINVAL);
	assert_null(r);
	assert_error_contains("not a power of two; use 2 or 4");
	assert_int_equal(peo_ring_map(&r, fd, &bytes), 0);
	assert_int_equal(peo_ring_data_size(r), 2 * page); /* 5000 bytes: 2 pages */
	assert_int_equal(peo_ring_fd(r), fd);
	assert_int_equal(peo_ring_page(r)->data_size, 2 * page);
	/* One ring per event: a second mapping of another size is refused. */
	{
		PEO_OPTS(peo_ring_opts, four, .data_pages = 4);
		struct peo_ring *r2;

		assert_true(peo_ring_map(&r2, fd, &four) < 0);
		assert_error_contains("mmap of a 4-page ring");
	}
	/* An fd that is not a perf event. */
	{
		int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
		struct peo_ring *r3;

		assert_true(peo_ring_map(&r3, devnull, NULL) < 0);
		close(devnull);
	}
	/* Not an overwrite ring: no snapshot; not forward: no next. */
	assert_int_equal(peo_ring_snapshot(r, NULL, 0), -EINVAL);
	assert_error_contains("forward ring");
	peo_ring_unmap(r);
	close(fd);
}

/* Read every record now in @r; check each sample; returns how many samples. */
static size_t drain_samples(struct peo_ring *r, uint64_t id, uint64_t *next_arg, size_t *wrapped)
{
	unsigned char buf[512];
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	size_t n = 0;
	int got;

	while ((got = peo_ring_next(r, &rec, wrapped && (*wrapped & 1) ? buf : NULL,
				    sizeof(buf))) == 1) {
		struct sample s;
		unsigned char joined[512];

		if (rec.header.type != PEO_RECORD_SAMPLE)
			continue;
		if (rec.seg[1]) {
			/* Both ways of reading a wrapped record give the same bytes. */
			assert_int_equal(rec.seg_len[0] + rec.seg_len[1], rec.header.size);
			memcpy(joined, rec.seg[0], rec.seg_len[0]);
			memcpy(joined + rec.seg_len[0], rec.seg[1], rec.seg_len[1]);
			if (rec.data)
				assert_memory_equal(rec.data, joined, rec.header.size);
			parse_sample(joined, &s);
			(*wrapped)++;
		} else {
			assert_ptr_equal(rec.data, rec.seg[0]);
			parse_sample(rec.data, &s);
		}
		assert_int_equal(s.id, id);
		assert_int_equal(s.pid, getpid());
		assert_int_equal(s.tid, (uint32_t)syscall(SYS_gettid));
		assert_int_equal(s.arg, *next_arg);
		(*next_arg)++;
		n++;
	}
	assert_int_equal(got, 0);
	peo_ring_consume(r);
	return n;
}

static void exact_bytes_across_the_wrap(void **state)
{
	int fd = open_tracepoint("sys_enter_lseek", 0, -1, 0, 0);
	struct peo_ring *r = peo_test_map_ring(fd, 1, 0);
	uint64_t id = event_id(fd), next = 1000, arg = 1000;
	size_t got = 0, wrapped = 0;

	(void)state;
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	/* 20 records of 72 bytes per batch: one page never fills, and record
	 * boundaries fall everywhere across its end. */
	for (int batch = 0; batch < 200; batch++) {
		for (int i = 0; i < 20; i++)
			mark(arg++);
		got += drain_samples(r, id, &next, &wrapped);
	}
	assert_int_equal(got, 4000);
	assert_true(wrapped > 10);
	{
		struct peo_ring_stats st = { .sz = sizeof(st) };

		assert_int_equal(peo_ring_stats(r, &st), 0);
		assert_int_equal(st.lost, 0);
		assert_true(st.records >= 4000);
	}
	peo_ring_unmap(r);
	close(fd);
}

static void no_loss_with_enough_pages(void **state)
{
	int fd = open_tracepoint("sys_enter_getppid", 0, -1, 0, 0);
	struct peo_ring *r = peo_test_map_ring(fd, 128, 0);
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	struct peo_ring_stats st = { .sz = sizeof(st) };
	size_t samples = 0;

	(void)state;
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	for (int i = 0; i < 10000; i++)
		getppid();
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	/* Spans: every record at once, all samples of one size, nothing between. */
	{
		const void *seg[2];
		size_t len[2];
		int got;

		while ((got = peo_ring_next_span(r, seg, len)) > 0) {
			size_t rec_size = ((const struct peo_event_header *)seg[0])->size;

			assert_int_equal(len[0] + len[1], (size_t)got * rec_size);
			/* whole records up to the one the end cuts, if it cuts one */
			assert_int_equal(peo_ring_span_whole(r), len[0] - len[0] % rec_size);
			samples += (size_t)got;
			peo_ring_consume(r);
		}
		assert_int_equal(got, 0);
	}
	assert_int_equal(peo_ring_next(r, &rec, NULL, 0), 0);
	assert_int_equal(samples, 10000);
	assert_int_equal(peo_ring_stats(r, &st), 0);
	assert_int_equal(st.lost, 0);
	assert_int_equal(st.lost_records, 0);
	peo_ring_unmap(r);
	close(fd);
}

static void lost_plus_received_is_everything(void **state)
{
	int fd = open_tracepoint("sys_enter_getppid", 0, -1, 0, 0);
	struct peo_ring *r = peo_test_map_ring(fd, 1, 0);
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	struct peo_ring_stats st = { .sz = sizeof(st) };
	uint64_t rf[3]; /* value, lost (read_format LOST), nothing else */
	size_t samples = 0;

	(void)state;
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	for (int i = 0; i < 3000; i++) /* 48-byte samples: a page holds 85 */
		getppid();
	assert_int_equal(read(fd, rf, sizeof(rf)), 16);
	while (peo_ring_next(r, &rec, NULL, 0) == 1)
		samples += rec.header.type == PEO_RECORD_SAMPLE;
	peo_ring_consume(r);
	if (!(samples > 0 && samples < 3000))
		print_error("samples %zu, lost %llu\n", samples, (unsigned long long)rf[1]);
	assert_true(samples > 0 && samples < 3000);
	assert_int_equal(samples + rf[1], 3000); /* PERF_FORMAT_LOST */
	/* The kernel writes its LOST record once there is room again. */
	getppid();
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	while (peo_ring_next(r, &rec, NULL, 0) == 1)
		samples += rec.header.type == PEO_RECORD_SAMPLE;
	peo_ring_consume(r);
	assert_int_equal(peo_ring_stats(r, &st), 0);
	assert_int_equal(st.lost_records, 1);
	assert_int_equal(st.lost, rf[1]);
	assert_int_equal(samples + st.lost, 3001);
	peo_ring_unmap(r);
	close(fd);
}

static void overwrite_snapshot_holds_the_newest(void **state)
{
	int fd = open_tracepoint("sys_enter_lseek", 0, -1, 1, 0);
	struct peo_ring *r = peo_test_map_ring(fd, 1, 1);
	size_t size = peo_ring_data_size(r);
	unsigned char *buf = malloc(size);
	struct peo_ring_stats st = { .sz = sizeof(st) };
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	uint64_t id = event_id(fd), expect;
	long got;
	size_t at, n = 0;

	(void)state;
	assert_non_null(buf);
	assert_int_equal(peo_ring_next(r, &rec, NULL, 0), -ESPIPE);
	assert_int_equal(peo_ring_snapshot(r, buf, size), 0); /* nothing yet */
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	for (uint64_t i = 1; i <= 5000; i++) /* ~90 times round a page */
		mark(i);
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	got = peo_ring_snapshot(r, buf, size);
	assert_true(got > (long)size - 2 * 72 && got <= (long)size);
	/* Newest first, contiguous, ending (in time) at the last call. */
	expect = 5000;
	for (at = 0; at < (size_t)got; n++) {
		struct peo_event_header h;
		struct sample s;

		memcpy(&h, buf + at, sizeof(h));
		assert_int_equal(h.type, PEO_RECORD_SAMPLE);
		assert_true(h.size >= 8 && at + h.size <= (size_t)got);
		parse_sample(buf + at, &s);
		assert_int_equal(s.id, id);
		assert_int_equal(s.arg, expect);
		expect--;
		at += h.size;
	}
	assert_int_equal(n, (size_t)got / 72);
	assert_int_equal(peo_ring_stats(r, &st), 0);
	assert_int_equal(st.overruns, 1);
	/* A small buffer keeps the newest records that fit. */
	got = peo_ring_snapshot(r, buf, 200);
	assert_int_equal(got, 144);
	{
		struct sample s;

		parse_sample(buf, &s);
		assert_int_equal(s.arg, 5000);
	}
	free(buf);
	peo_ring_unmap(r);
	close(fd);
}

static void set_output_shares_one_ring(void **state)
{
	int a = open_tracepoint("sys_enter_lseek", 0, -1, 0, 0);
	int b = open_tracepoint("sys_enter_getppid", 0, -1, 0, 0);
	struct peo_ring *r = peo_test_map_ring(a, 64, 0);
	uint64_t ida = event_id(a), idb = event_id(b);
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	size_t na = 0, nb = 0;

	(void)state;
	assert_int_equal(peo_ring_add(r, b), 0);
	assert_int_equal(peo_sys_ioc_enable(a, 0), 0);
	assert_int_equal(peo_sys_ioc_enable(b, 0), 0);
	for (int i = 0; i < 500; i++) {
		mark((uint64_t)i);
		getppid();
	}
	assert_int_equal(peo_sys_ioc_disable(a, 0), 0);
	assert_int_equal(peo_sys_ioc_disable(b, 0), 0);
	while (peo_ring_next(r, &rec, NULL, 0) == 1) {
		struct sample s;

		if (rec.header.type != PEO_RECORD_SAMPLE)
			continue;
		parse_sample(rec.data, &s);
		if (s.id == ida)
			assert_int_equal(s.arg, na++);
		else
			assert_int_equal(s.id, idb), nb++;
	}
	peo_ring_consume(r);
	assert_int_equal(na, 500);
	assert_int_equal(nb, 500);
	/* A pair the kernel refuses: another task's event into a per-task ring. */
	{
		pid_t child = fork();
		int c;

		if (child == 0) {
			pause();
			_exit(0);
		}
		c = open_tracepoint("sys_enter_getppid", child, -1, 0, 0);
		assert_int_equal(peo_ring_add(r, c), -EINVAL);
		assert_error_contains("same CPU");
		close(c);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	peo_ring_unmap(r);
	close(b);
	close(a);
}

static void per_cpu_rings_system_wide(void **state)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t mine = 0, seen_cpus = 0;
	pid_t tid = (pid_t)syscall(SYS_gettid);

	(void)state;
	if (ncpu > 64)
		ncpu = 64;
	{
		int fds[64];
		struct peo_ring *rings[64];

		for (long c = 0; c < ncpu; c++) {
			fds[c] = open_tracepoint("sys_enter_getppid", -1, (int)c, 0, 0);
			rings[c] = peo_test_map_ring(fds[c], 16, 0);
			assert_int_equal(peo_sys_ioc_enable(fds[c], 0), 0);
		}
		for (long c = 0; c < ncpu; c++) {
			peo_test_pin_to_cpu((int)c);
			for (int i = 0; i < 100; i++)
				getppid();
		}
		for (long c = 0; c < ncpu; c++) {
			struct peo_ring_record rec = { .sz = sizeof(rec) };

			assert_int_equal(peo_sys_ioc_disable(fds[c], 0), 0);
			while (peo_ring_next(rings[c], &rec, NULL, 0) == 1) {
				struct sample s;

				if (rec.header.type != PEO_RECORD_SAMPLE)
					continue;
				parse_sample(rec.data, &s);
				if ((pid_t)s.tid == tid) {
					mine++;
					seen_cpus |= 1ull << c;
				}
			}
			peo_ring_unmap(rings[c]);
			close(fds[c]);
		}
	}
	peo_test_unpin();
	assert_int_equal(mine, 100 * ncpu);
	assert_int_equal(seen_cpus, ncpu == 64 ? ~0ull : (1ull << ncpu) - 1);
}

/*
 * A child that makes @calls getppid calls once woken, then exits; returns
 * its pid and, in *@go, the pipe end whose first byte wakes it.
 */
static pid_t child_making_getppid(int calls, int *go)
{
	int p[2];
	pid_t child;

	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	child = fork();
	if (child == 0) {
		char c;

		if (read(p[0], &c, 1) != 1)
			_exit(1);
		for (int i = 0; i < calls; i++)
			getppid();
		_exit(0);
	}
	close(p[0]);
	*go = p[1];
	return child;
}

/* Wake the child, close the pipe and reap it. */
static void run_child(pid_t child, int go)
{
	assert_int_equal(write(go, "g", 1), 1);
	close(go);
	assert_int_equal(waitpid(child, NULL, 0), child);
}

static void wakeups_timeouts_and_hangup(void **state)
{
	int fd = open_tracepoint("sys_enter_getppid", 0, -1, 0, 0);
	struct peo_ring *r = peo_test_map_ring(fd, 8, 0);
	int go;
	pid_t child;

	(void)state;
	assert_int_equal(peo_ring_wait(r, 50), 0); /* nothing happened: timeout */
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	getppid();
	assert_int_equal(peo_ring_wait(r, 1000), 1); /* wakeup_events = 1 */
	peo_ring_unmap(r);
	close(fd);

	/* wakeup_events = 10: nine samples wake nobody, the tenth does. */
	{
		struct peo_attr a;

		getppid_tid_attr(&a);
		a.wakeup_events = 10;
		fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
		assert_true(fd >= 0);
		r = peo_test_map_ring(fd, 8, 0);
		for (int i = 0; i < 9; i++)
			getppid();
		assert_int_equal(peo_ring_wait(r, 0), 0);
		getppid();
		assert_int_equal(peo_ring_wait(r, 1000), 1);
		peo_ring_unmap(r);
		close(fd);
	}

	/* A child's event: POLLHUP once it has exited and its ring is read. */
	child = child_making_getppid(10, &go);
	fd = open_tracepoint("sys_enter_getppid", child, -1, 0, 0);
	r = peo_test_map_ring(fd, 8, 0);
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	run_child(child, go);
	{
		struct peo_ring_record rec = { .sz = sizeof(rec) };
		size_t samples = 0;
		int w;

		while ((w = peo_ring_wait(r, 2000)) == 1) {
			while (peo_ring_next(r, &rec, NULL, 0) == 1)
				samples += rec.header.type == PEO_RECORD_SAMPLE;
			peo_ring_consume(r);
		}
		assert_int_equal(w, -EPIPE);
		assert_error_contains("has exited");
		assert_int_equal(samples, 10);
	}
	peo_ring_unmap(r);
	close(fd);
}

/* Two threads mark (thread << 32 | i); the main thread drains meanwhile. */
struct producer {
	uint64_t thread;
	uint64_t calls;
	volatile int *stop;
};

static int open_tracepoint_on_cpu0_inherited(void)
{
	return open_tracepoint("sys_enter_lseek", 0, 0, 0, 1);
}

static void *produce(void *arg)
{
	struct producer *p = arg;

	while (!*p->stop) /* on CPU 0: its pthread_attr says so */
		mark(p->thread << 32 | p->calls++);
	return NULL;
}

static void two_producers_one_consumer(void **state)
{
	/* The kernel maps no inherited per-task ring (cpu -1), so the event is
	 * this process's on CPU 0, inherited by the threads, all pinned there. */
	int fd = open_tracepoint_on_cpu0_inherited();
	struct peo_ring *r = peo_test_map_ring(fd, 64, 0);
	volatile int stop = 0;
	struct producer prod[2] = { { 1, 0, &stop }, { 2, 0, &stop } };
	pthread_t th[2];
	pthread_attr_t on_cpu0;
	cpu_set_t cpu0;
	uint64_t next[3] = { 0, 0, 0 }, received = 0, gaps = 0;
	struct peo_ring_stats st = { .sz = sizeof(st) };
	uint64_t t_end;
	struct timespec ts;
	unsigned char buf[256];

	(void)state;
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	/* pinned from the start by their attr: no cmocka assert in the threads */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	assert_int_equal(pthread_attr_init(&on_cpu0), 0);
	assert_int_equal(pthread_attr_setaffinity_np(&on_cpu0, sizeof(cpu0), &cpu0), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], &on_cpu0, produce, &prod[i]), 0);
	pthread_attr_destroy(&on_cpu0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t_end = (uint64_t)ts.tv_sec + 2;
	for (;;) {
		struct peo_ring_record rec = { .sz = sizeof(rec) };
		int got;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		if ((uint64_t)ts.tv_sec >= t_end && !stop) {
			stop = 1;
			for (int i = 0; i < 2; i++)
				pthread_join(th[i], NULL);
			assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
		}
		while ((got = peo_ring_next(r, &rec, buf, sizeof(buf))) == 1) {
			struct sample s;
			uint64_t who, i;

			if (rec.header.type != PEO_RECORD_SAMPLE)
				continue;
			assert_int_equal(rec.header.size, 72);
			parse_sample(rec.data, &s);
			who = s.arg >> 32;
			i = s.arg & 0xffffffffu;
			assert_true(who == 1 || who == 2);
			assert_true(i >= next[who]); /* in order per thread */
			gaps += i - next[who];
			next[who] = i + 1;
			received++;
		}
		assert_int_equal(got, 0);
		peo_ring_consume(r);
		if (stop)
			break;
	}
	assert_int_equal(peo_ring_stats(r, &st), 0);
	/* Every call was received or counted lost; LOST records cover the gaps
	 * (the kernel's count, read(), also has losses no record reported yet). */
	{
		uint64_t rf[2];

		assert_int_equal(read(fd, rf, sizeof(rf)), 16);
		assert_int_equal(received + rf[1], prod[0].calls + prod[1].calls);
		assert_true(next[1] <= prod[0].calls && next[2] <= prod[1].calls);
		assert_true(gaps <= st.lost && st.lost <= rf[1]);
	}
	assert_true(received > 1000);
	print_message("two producers: %llu records in 2 s, %llu lost\n",
		      (unsigned long long)received, (unsigned long long)st.lost);
	peo_ring_unmap(r);
	close(fd);
}

/* Put a record header at stream offset @pos of a fake ring. */
static void put_header(unsigned char *data, size_t size, uint64_t pos, uint32_t type,
		       uint16_t rec_size)
{
	struct peo_event_header h = { .type = type, .misc = 0, .size = rec_size };

	memcpy(data + (pos & (size - 1)), &h, sizeof(h));
}

static void corrupt_header_is_an_error_with_its_offset(void **state)
{
	/* The kernel lets nobody write a ring's data pages: a ring over our
	 * own memory stands in for a corrupt one. */
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size = page;
	unsigned char *mem = calloc(1, page + size), *data = mem + page;
	struct peo_mmap_page *ctl = (struct peo_mmap_page *)mem;
	struct peo_ring *r;
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	unsigned char buf[64];

	(void)state;
	assert_non_null(mem);
	/* A LOST record (id 7, 5 lost) then a 16-byte record wrapping the end. */
	ctl->data_tail = size - 48;
	put_header(data, size, size - 48, PEO_RECORD_LOST, 24);
	memcpy(data + size - 40, &(uint64_t){ 7 }, 8);
	memcpy(data + size - 32, &(uint64_t){ 5 }, 8);
	put_header(data, size, size - 24, PEO_RECORD_SAMPLE, 32);
	memset(data + size - 16, 0xab, 16);
	memset(data, 0xcd, 8);
	put_header(data, size, size + 8, PEO_RECORD_SAMPLE, 12); /* impossible size */
	ctl->data_head = size + 16;
	/* As spans: both good records at once, in two pieces; then the error. */
	{
		const void *seg[2];
		size_t len[2];
		struct peo_ring_stats st = { .sz = sizeof(st) };

		assert_int_equal(peo_ring_over_memory(&r, mem, size, 0), 0);
		assert_int_equal(peo_ring_next_span(r, seg, len), 2);
		assert_ptr_equal(seg[0], data + size - 48);
		assert_int_equal(len[0], 48);
		assert_ptr_equal(seg[1], data);
		assert_int_equal(len[1], 8);
		assert_int_equal(peo_ring_span_whole(r), 24); /* the LOST; the sample is cut */
		assert_int_equal(peo_ring_next_span(r, seg, len), -EPROTO);
		assert_int_equal(peo_ring_stats(r, &st), 0);
		assert_int_equal(st.lost, 5);
		assert_int_equal(st.records, 2);
		peo_ring_unmap(r);
	}
	assert_int_equal(peo_ring_over_memory(&r, mem, size, 0), 0);
	assert_int_equal(peo_ring_next(r, &rec, NULL, 0), 1);
	assert_int_equal(rec.header.type, PEO_RECORD_LOST);
	assert_int_equal(peo_ring_next(r, &rec, buf, 16), -ENOSPC); /* wraps, 32 > 16 */
	assert_error_contains("is 32 bytes; the buffer holds 16");
	assert_int_equal(peo_ring_next(r, &rec, buf, sizeof(buf)), 1);
	assert_int_equal(rec.copied, 1);
	assert_int_equal(rec.seg_len[0], 24);
	assert_int_equal(rec.seg_len[1], 8);
	assert_int_equal(buf[31], 0xcd);
	assert_int_equal(buf[23], 0xab);
	assert_int_equal(peo_ring_next(r, &rec, NULL, 0), -EPROTO);
	assert_error_contains("has size 12");
	{
		char want[64];

		snprintf(want, sizeof(want), "at stream offset %zu", size + 8);
		assert_error_contains(want);
	}
	/* A record running past data_head. */
	put_header(data, size, size + 8, PEO_RECORD_SAMPLE, 64);
	assert_int_equal(peo_ring_next(r, &rec, NULL, 0), -EPROTO);
	assert_error_contains("only 8 bytes were written");
	/* A record larger than the whole ring (head far enough ahead). */
	{
		unsigned char *big = calloc(1, page + 64), *bdata = big + page;
		struct peo_mmap_page *bctl = (struct peo_mmap_page *)big;
		struct peo_ring *br;

		assert_non_null(big);
		put_header(bdata, 64, 0, PEO_RECORD_SAMPLE, 128);
		bctl->data_head = 64;
		assert_int_equal(peo_ring_over_memory(&br, big, 64, 0), 0);
		assert_int_equal(peo_ring_next(br, &rec, NULL, 0), -EPROTO);
		assert_error_contains("larger than the ring's 64 bytes");
		peo_ring_unmap(br);
		free(big);
	}
	/* A head more than a ring ahead of the reader. */
	peo_ring_unmap(r);
	ctl->data_tail = 0;
	ctl->data_head = size * 3;
	assert_int_equal(peo_ring_over_memory(&r, mem, size, 0), 0);
	assert_int_equal(peo_ring_next(r, &rec, NULL, 0), -EPROTO);
	assert_error_contains("more than the ring's");
	{
		struct peo_ring_stats st = { .sz = sizeof(st) };

		assert_int_equal(peo_ring_stats(r, &st), 0);
		assert_int_equal(st.records, 0);
	}
	peo_ring_unmap(r);
	free(mem);
}

static void aux_area_needs_a_pmu_with_one(void **state)
{
	PEO_OPTS(peo_ring_opts, o, .data_pages = 1, .aux_pages = 4);
	PEO_OPTS(peo_ring_opts, bad, .data_pages = 1, .aux_pages = 3);
	int fd = open_tracepoint("sys_enter_getppid", 0, -1, 0, 0);
	struct peo_ring *r;
	const void *aux;
	size_t size;
	int err;

	(void)state;
	assert_int_equal(peo_ring_map(&r, fd, &bad), -EINVAL);
	assert_error_contains("not a power of two");
	err = peo_ring_map(&r, fd, &o);
	/* No PMU here has an AUX buffer: the kernel refuses the second mapping. */
	assert_true(err == -EOPNOTSUPP || err == -EINVAL);
	assert_error_contains("AUX area on fd");
	assert_null(r);
	/* The path without an AUX area still reports it has none. */
	r = peo_test_map_ring(fd, 1, 0);
	assert_int_equal(peo_ring_aux(r, &aux, &size), -ENOENT);
	assert_int_equal(peo_ring_aux_head(r), 0);
	peo_ring_unmap(r);
	close(fd);
}

/* -------------------------------------------- sets, ids, signals, ioctls */

static void *wake_later(void *arg)
{
	usleep(50000);
	peo_ring_set_wake(arg);
	return NULL;
}

static void ring_set_over_per_cpu_rings(void **state)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int fds[64];
	struct peo_ring *rings[64];
	uint64_t ids[64], mine = 0;
	struct peo_ring_set *set;
	pthread_t th;
	pid_t tid = (pid_t)syscall(SYS_gettid);

	(void)state;
	if (ncpu > 64)
		ncpu = 64;
	assert_int_equal(peo_ring_set_new(&set), 0);
	/* lseek on every CPU, and getppid on every CPU sharing lseek's ring. */
	for (long c = 0; c < ncpu; c++) {
		int extra = open_tracepoint("sys_enter_getppid", -1, (int)c, 0, 0);

		fds[c] = open_tracepoint("sys_enter_lseek", -1, (int)c, 0, 0);
		rings[c] = peo_test_map_ring(fds[c], 16, 0);
		assert_int_equal(peo_ring_add(rings[c], extra), 0);
		ids[c] = event_id(extra);
		close(extra); /* the ring keeps the output; the event goes */
		assert_int_equal(peo_ring_set_add(set, rings[c]), (int)c);
	}
	assert_int_equal(peo_ring_set_add(set, rings[0]), -EEXIST);
	assert_int_equal(peo_ring_set_live(set), (size_t)ncpu);
	/* Nothing yet: a timeout; then a wake from another thread. */
	assert_int_equal(peo_ring_set_wait(set, 20), 0);
	assert_int_equal(pthread_create(&th, NULL, wake_later, set), 0);
	assert_int_equal(peo_ring_set_wait(set, 5000), 0);
	pthread_join(th, NULL);
	for (long c = 0; c < ncpu; c++)
		assert_int_equal(peo_sys_ioc_enable(fds[c], 0), 0);
	for (long c = 0; c < ncpu; c++) {
		peo_test_pin_to_cpu((int)c);
		for (int i = 0; i < 50; i++)
			mark((uint64_t)i);
	}
	while (mine < 50 * (uint64_t)ncpu) {
		int n = peo_ring_set_wait(set, 2000);

		assert_true(n > 0);
		for (int k = 0; k < n; k++) {
			struct peo_ring *r = peo_ring_set_ready(set, (size_t)k);
			struct peo_ring_record rec = { .sz = sizeof(rec) };

			while (peo_ring_next(r, &rec, NULL, 0) == 1) {
				struct sample smp;
				uint64_t id;

				if (rec.header.type != PEO_RECORD_SAMPLE)
					continue;
				assert_int_equal(peo_ring_record_id(&rec, &id), 0);
				parse_sample(rec.data, &smp);
				assert_int_equal(id, smp.id);
				for (long c = 0; c < ncpu; c++)
					assert_true(id != ids[c]); /* no getppid was made */
				mine += (pid_t)smp.tid == tid;
			}
			peo_ring_consume(r);
		}
	}
	assert_int_equal(mine, 50 * (uint64_t)ncpu);
	assert_null(peo_ring_set_ready(set, 99));
	peo_ring_set_free(set);
	for (long c = 0; c < ncpu; c++) {
		peo_ring_unmap(rings[c]);
		close(fds[c]);
	}
	peo_test_unpin();
}

static void ring_set_drops_a_finished_task(void **state)
{
	struct peo_ring_set *set;
	struct peo_ring *r;
	size_t samples = 0;
	int fd, go;
	pid_t child;

	(void)state;
	child = child_making_getppid(25, &go);
	fd = open_tracepoint("sys_enter_getppid", child, -1, 0, 0);
	r = peo_test_map_ring(fd, 8, 0);
	assert_int_equal(peo_ring_set_new(&set), 0);
	assert_int_equal(peo_ring_set_add(set, r), 0);
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	run_child(child, go);
	while (peo_ring_set_live(set) > 0) {
		struct peo_ring_record rec = { .sz = sizeof(rec) };
		int n = peo_ring_set_wait(set, 2000);

		assert_int_equal(n, 1);
		while (peo_ring_next(peo_ring_set_ready(set, 0), &rec, NULL, 0) == 1)
			samples += rec.header.type == PEO_RECORD_SAMPLE;
		peo_ring_consume(r);
	}
	assert_int_equal(samples, 25);
	peo_ring_set_free(set);
	peo_ring_unmap(r);
	close(fd);
}

static void record_id_across_the_wrap(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *mem = calloc(1, 2 * page), *data = mem + page;
	struct peo_mmap_page *ctl = (struct peo_mmap_page *)mem;
	uint64_t id = 0x1122334455667788ull, got;
	struct peo_ring *r;
	struct peo_ring_record rec = { .sz = sizeof(rec) };

	(void)state;
	assert_non_null(mem);
	/* A COMM-like record of 32 bytes whose trailing id straddles the end. */
	ctl->data_tail = ctl->data_head = page - 28 + 4; /* 8-aligned: page - 24 */
	ctl->data_tail = page - 24;
	ctl->data_head = page + 8;
	put_header(data, page, page - 24, PEO_RECORD_COMM, 32);
	memcpy(data + page - 16, "abcdefgh", 8);
	memcpy(data + page - 8, &id, 8); /* the id ends the record... */
	memmove(data, data + page - 8, 8); /* ...and lies past the wrap */
	memset(data + page - 8, 0, 8);
	memcpy(data + page - 8, "ijklmnop", 8);
	assert_int_equal(peo_ring_over_memory(&r, mem, page, 0), 0);
	assert_int_equal(peo_ring_next(r, &rec, NULL, 0), 1);
	assert_non_null(rec.seg[1]);
	assert_int_equal(peo_ring_record_id(&rec, &got), 0);
	assert_int_equal(got, id);
	rec.header.size = 8;
	assert_int_equal(peo_ring_record_id(&rec, &got), -ENODATA);
	peo_ring_unmap(r);
	free(mem);
}

static volatile sig_atomic_t rt_signals, rt_fd;

static void on_rt_signal(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	rt_signals++;
	rt_fd = si->si_fd;
}

static void refresh_arms_n_overflow_signals(void **state)
{
	struct sigaction sa = { .sa_sigaction = on_rt_signal, .sa_flags = SA_SIGINFO }, old;
	int sig = SIGRTMIN + 1, fd;
	struct peo_ring *r;
	uint64_t rf[2];

	(void)state;
	PEO_SKIP_UNDER_VALGRIND("valgrind queues signals, so overflow signals do not arrive as the kernel sends them");
	fd = open_tracepoint("sys_enter_getppid", 0, -1, 0, 0);
	r = peo_test_map_ring(fd, 8, 0);
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(sig, &sa, &old), 0);
	rt_signals = 0;
	assert_int_equal(peo_ring_set_overflow_signal(fd, sig, 0), 0);
	assert_int_equal(peo_sys_ioc_refresh(fd, 3), 0); /* enable for 3 overflows */
	for (int i = 0; i < 20; i++)
		getppid();
	assert_int_equal(rt_signals, 3);
	assert_int_equal(rt_fd, fd);
	assert_int_equal(read(fd, rf, sizeof(rf)), 16);
	assert_int_equal(rf[0], 3); /* then it disabled itself */
	/* Bad fds give the fcntl's error. */
	assert_int_equal(peo_ring_set_overflow_signal(-1, sig, 0), -EBADF);
	assert_error_contains("fcntl");
	sigaction(sig, &old, NULL);
	peo_ring_unmap(r);
	close(fd);
}

static volatile sig_atomic_t traps;
static volatile uint64_t trap_data;

static void on_sigtrap(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_code == 6) { /* TRAP_PERF */
		uint64_t data;

#ifdef si_perf_data
		data = si->si_perf_data;
#else
		/* The fault union: si_addr, then _perf._data (unsigned long). */
		unsigned long word;

		memcpy(&word, (const char *)&si->si_addr + sizeof(void *), sizeof(word));
		data = word;
#endif
		trap_data = data;
		traps++;
	}
}

static void sigtrap_carries_sig_data(void **state)
{
	struct sigaction sa = { .sa_sigaction = on_sigtrap, .sa_flags = SA_SIGINFO }, old;
	char why[256];
	long long tp = peo_test_tracepoint_id("syscalls", "sys_enter_getppid", why, sizeof(why));
	struct peo_attr a;
	int fd;

	(void)state;
	PEO_SKIP_UNDER_VALGRIND("valgrind exits on a SIGTRAP raised by perf");
	if (!peo_test_release_at_least("5.13"))
		PEO_SKIP("sigtrap arrived in Linux 5.13");
	peo_attr_init(&a);
	a.type = PEO_TYPE_TRACEPOINT;
	a.config = (uint64_t)tp;
	a.sample_period = 1;
	a.sigtrap = 1;
	a.remove_on_exec = 1; /* the kernel demands it with sigtrap */
	a.sig_data = 0xfeedf00d;
	a.disabled = 1;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGTRAP, &sa, &old), 0);
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd < 0)
		print_error("%s\n", peo_last_error());
	assert_true(fd >= 0);
	traps = 0;
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	for (int i = 0; i < 5; i++)
		getppid();
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	assert_int_equal(traps, 5);
	assert_int_equal(trap_data, 0xfeedf00d);
	sigaction(SIGTRAP, &old, NULL);
	close(fd);
}

static void pause_period_and_watermark(void **state)
{
	int fd = open_tracepoint("sys_enter_getppid", 0, -1, 0, 0);
	struct peo_ring *r = peo_test_map_ring(fd, 8, 0);
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	size_t samples = 0;

	(void)state;
	/* One sample every 4 hits, set before counting starts. */
	assert_int_equal(peo_sys_ioc_period(fd, 4), 0);
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	assert_int_equal(peo_sys_ioc_pause_output(fd, 1), 0);
	for (int i = 0; i < 8; i++)
		getppid();
	assert_int_equal(peo_ring_next(r, &rec, NULL, 0), 0); /* paused: nothing written */
	assert_int_equal(peo_sys_ioc_pause_output(fd, 0), 0);
	for (int i = 0; i < 40; i++)
		getppid();
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	while (peo_ring_next(r, &rec, NULL, 0) == 1)
		samples += rec.header.type == PEO_RECORD_SAMPLE;
	peo_ring_consume(r);
	assert_int_equal(samples, 10); /* 40 hits after the pause, every 4th */
	{
		struct peo_ring_stats st = { .sz = sizeof(st) };

		assert_int_equal(peo_ring_stats(r, &st), 0);
		/* The 2 samples made while paused come back as lost (a LOST record). */
		assert_int_equal(st.lost, 2);
	}
	peo_ring_unmap(r);
	close(fd);

	/* wakeup_watermark: no wakeup until that many bytes are in the ring. */
	{
		struct peo_attr a;

		getppid_tid_attr(&a); /* 16-byte records */
		a.watermark = 1;
		a.wakeup_watermark = 1600;
		fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
		assert_true(fd >= 0);
		r = peo_test_map_ring(fd, 8, 0);
		for (int i = 0; i < 50; i++) /* 800 bytes */
			getppid();
		assert_int_equal(peo_ring_wait(r, 0), 0);
		for (int i = 0; i < 60; i++) /* 1760 bytes */
			getppid();
		assert_int_equal(peo_ring_wait(r, 1000), 1);
		peo_ring_unmap(r);
		close(fd);
	}
}

/* As an unprivileged user, a ring past perf_event_mlock_kb + RLIMIT_MEMLOCK is refused. */
static void mlock_limit_for_unprivileged_users(void **state)
{
	int status, p[2];
	pid_t child;
	char sentence[512] = "";
	ssize_t n;

	(void)state;
	if (geteuid() != 0)
		PEO_SKIP("needs root to become an unprivileged user for the test");
	{
		long level;

		if (!peo_test_read_long("/proc/sys/kernel/perf_event_paranoid", &level) && level >= 3)
			PEO_SKIP("perf_event_paranoid is %ld (Debian's level): no unprivileged user may "
				 "open an event at all", level);
	}
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	child = fork();
	if (child == 0) {
		struct rlimit lim = { 0, 0 };
		PEO_OPTS(peo_ring_opts, big, .data_pages = 4096); /* 16 MiB */
		PEO_OPTS(peo_ring_opts, small, .data_pages = 8);
		struct peo_ring *r;
		struct peo_attr a;
		int fd, err, ok;

		close(p[0]);
		if (setrlimit(RLIMIT_MEMLOCK, &lim) || setgid(65534) || setuid(65534))
			_exit(2);
		peo_attr_init(&a);
		a.type = PEO_TYPE_SOFTWARE;
		a.config = PEO_COUNT_SW_TASK_CLOCK;
		a.sample_period = 1000000;
		a.exclude_kernel = 1; /* all that perf_event_paranoid 2 allows */
		a.exclude_hv = 1;
		fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
		if (fd < 0)
			_exit(3);
		err = peo_ring_map(&r, fd, &big);
		if (write(p[1], peo_last_error(), strlen(peo_last_error())) < 0)
			_exit(4);
		ok = peo_ring_map(&r, fd, &small) == 0; /* within the allowance */
		_exit(err == -EPERM && ok ? 0 : 5);
	}
	close(p[1]);
	n = read(p[0], sentence, sizeof(sentence) - 1);
	close(p[0]);
	assert_int_equal(waitpid(child, &status, 0), child);
	if (n > 0)
		print_message("unprivileged 4096-page ring: %s\n", sentence);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_non_null(strstr(sentence, "perf_event_mlock_kb"));
	assert_non_null(strstr(sentence, "4096-page ring"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(map_sizes_and_errors),
		PEO_TEST(exact_bytes_across_the_wrap),
		PEO_TEST(no_loss_with_enough_pages),
		PEO_TEST(lost_plus_received_is_everything),
		PEO_TEST(overwrite_snapshot_holds_the_newest),
		PEO_TEST(set_output_shares_one_ring),
		PEO_TEST(per_cpu_rings_system_wide),
		PEO_TEST(wakeups_timeouts_and_hangup),
		PEO_TEST(two_producers_one_consumer),
		PEO_TEST(corrupt_header_is_an_error_with_its_offset),
		PEO_TEST(aux_area_needs_a_pmu_with_one),
		PEO_TEST(ring_set_over_per_cpu_rings),
		PEO_TEST(ring_set_drops_a_finished_task),
		PEO_TEST(record_id_across_the_wrap),
		PEO_TEST(refresh_arms_n_overflow_signals),
		PEO_TEST(sigtrap_carries_sig_data),
		PEO_TEST(pause_period_and_watermark),
		PEO_TEST(mlock_limit_for_unprivileged_users),
	};

	return PEO_TEST_MAIN_SETUP("ring", tests, group_setup);
}
