/*
 * test_ring_stress.c - the ring and the record parser where they are under
 * pressure: a ring too small for what is written (lost accounting through
 * the counter API, the LOST records and PERF_FORMAT_LOST agreeing), an
 * overwrite ring snapshotted while a thread keeps writing into it, and one
 * parser shared by several threads at once (record.h's promise).
 *
 * Every figure asserted follows from the work the test did (how many
 * syscalls, how many pages), never from how fast the machine ran it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "test_util.h"

/* lseek(-1, arg, SEEK_SET) fails with EBADF, and its tracepoint records arg. */
static void mark(uint64_t arg)
{
	syscall(SYS_lseek, -1, (long)arg, SEEK_SET);
}

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Byte offset of lseek's offset field in the RAW payload (set up once). */
static int raw_arg_offset = -1;

static int group_setup(void **state)
{
	(void)state;
	return peo_test_syscall_tracepoints(&raw_arg_offset);
}

static struct peo_record_parser *parser_or_fail(const struct peo_attr *a, const uint64_t *id)
{
	struct peo_record_parser *p;

	assert_int_equal(peo_record_parser_new(&p, NULL), 0);
	assert_int_equal(peo_record_parser_add(p, a, id, id ? 1 : 0), 0);
	return p;
}

/* The lseek offset a parsed sample carries, or UINT64_MAX without one. */
static uint64_t sample_arg(const struct peo_record *rec)
{
	uint64_t v;

	if (raw_arg_offset < 0 || rec->u.sample.raw_size < (uint32_t)raw_arg_offset + 8)
		return UINT64_MAX;
	memcpy(&v, (const unsigned char *)rec->u.sample.raw + raw_arg_offset, 8);
	return v;
}

/* ------------------------------------------------------------ (d) lost */

struct drained {
	uint64_t samples;     /* SAMPLE records of the calling thread */
	uint64_t lost_recs;   /* LOST records */
	uint64_t lost_sum;    /* what they say was lost */
	uint64_t other;       /* anything else */
};

/* Read every record now in @r with @p, counting; consume them. */
static void drain(struct peo_ring *r, const struct peo_record_parser *p, struct drained *d)
{
	unsigned char scratch[4096];
	struct peo_ring_record rr = { .sz = sizeof(rr) };
	pid_t me = gettid_();
	int got;

	while ((got = peo_ring_next(r, &rr, scratch, sizeof(scratch))) == 1) {
		struct peo_record rec = { .sz = sizeof(rec) };
		int err = peo_record_parse(p, rr.data, rr.header.size, &rec);

		if (err)
			print_error("%s\n", peo_last_error());
		assert_int_equal(err, 0);
		if (rec.header.type == PEO_RECORD_SAMPLE) {
			assert_int_equal(rec.u.sample.tid, me);
			d->samples++;
		} else if (rec.header.type == PEO_RECORD_LOST) {
			d->lost_recs++;
			d->lost_sum += rec.u.lost.lost;
		} else {
			d->other++;
		}
	}
	assert_int_equal(got, 0);
	peo_ring_consume(r);
}

/*
 * Open @a on the calling thread through peo_counter_open() (which asks for
 * PERF_FORMAT_LOST), map a one-page ring on it, run @work without reading
 * the ring, and check lost + received == the count, with the lost figure
 * the same in peo_count.lost, the LOST records and peo_ring_stats().
 * @at_least: the events @work certainly generates.
 */
static void lost_through_counter(struct peo_attr *a, void (*work)(void), uint64_t at_least,
				 uint64_t exact)
{
	PEO_OPTS(peo_target_opts, to, .kind = PEO_TARGET_SELF);
	struct peo_target *t = peo_test_target(&to);
	struct peo_counter *c;
	struct peo_record_parser *p;
	struct peo_ring *r;
	struct peo_count cnt, cnt2;
	struct peo_ring_stats st = { .sz = sizeof(st) };
	struct drained d = { 0 };
	size_t rec_size = 8 + 8; /* header + pid/tid */
	size_t ring_size;
	int err;

	if (!peo_test_release_at_least("6.0"))
		PEO_SKIP("PERF_FORMAT_LOST needs Linux 6.0");
	a->sample_type = PEO_SAMPLE_TID;
	err = peo_counter_open(&c, a, t, NULL);
	if (err)
		print_error("%s\n", peo_last_error());
	assert_int_equal(err, 0);
	r = peo_test_map_ring(peo_counter_fd(c, 0), 1, 0);
	ring_size = peo_ring_data_size(r);
	p = parser_or_fail(a, NULL);

	assert_int_equal(peo_counter_enable(c), 0);
	work();
	assert_int_equal(peo_counter_disable(c), 0);
	assert_int_equal(peo_counter_read(c, &cnt), 0);
	drain(r, p, &d);

	if (exact)
		assert_int_equal(cnt.value, exact);
	assert_true(cnt.value >= at_least);
	/* The ring cannot hold more than ring_size / rec_size records, so at
	 * least the rest were lost, whatever the speed. */
	assert_true(at_least * rec_size > 2 * ring_size);
	assert_true(d.samples <= ring_size / rec_size);
	if (!(cnt.lost >= cnt.value - ring_size / rec_size && cnt.lost > 0))
		print_error("count %llu lost %llu received %llu ring %zu\n",
			    (unsigned long long)cnt.value, (unsigned long long)cnt.lost,
			    (unsigned long long)d.samples, ring_size);
	assert_true(cnt.lost > 0);
	assert_true(cnt.lost >= cnt.value - ring_size / rec_size);
	/* Every event counted was either received or lost. */
	assert_int_equal(d.samples + cnt.lost, cnt.value);
	/* The kernel writes its LOST record once there is room: one more event
	 * after the drain brings it (and that event's sample). */
	assert_int_equal(peo_counter_enable(c), 0);
	getppid();
	peo_test_touch_pages(1);
	assert_int_equal(peo_counter_disable(c), 0);
	drain(r, p, &d);
	assert_int_equal(peo_counter_read(c, &cnt2), 0);
	assert_int_equal(d.samples + cnt2.lost, cnt2.value);
	assert_true(d.lost_recs >= 1);
	assert_int_equal(d.lost_sum, cnt2.lost);
	assert_int_equal(peo_ring_stats(r, &st), 0);
	assert_int_equal(st.lost_records, d.lost_recs);
	assert_int_equal(st.lost, cnt2.lost);
	assert_int_equal(d.other, 0);
	print_message("  lost: count %llu, received %llu, lost %llu in %llu LOST records "
		      "(ring %zu bytes)\n", (unsigned long long)cnt2.value,
		      (unsigned long long)d.samples, (unsigned long long)cnt2.lost,
		      (unsigned long long)d.lost_recs, ring_size);

	peo_record_parser_free(p);
	peo_ring_unmap(r);
	peo_counter_close(c);
	peo_target_free(t);
}

#define GETPPID_CALLS 5000u

static void call_getppid(void)
{
	for (unsigned i = 0; i < GETPPID_CALLS; i++)
		getppid();
}

static void lost_tracepoint_counter_api(void **state)
{
	char why[256];
	struct peo_attr a;

	(void)state;
	assert_int_equal(peo_test_tracepoint_attr(&a, "syscalls", "sys_enter_getppid", why,
						  sizeof(why)), 0);
	a.disabled = 1;
	/* getppid hits the tracepoint exactly once a call: the count is known. */
	lost_through_counter(&a, call_getppid, GETPPID_CALLS, GETPPID_CALLS);
}

#define FAULT_PAGES 3000u

static void touch_pages(void)
{
	peo_test_touch_pages(FAULT_PAGES);
}

static void lost_page_faults_counter_api(void **state)
{
	struct peo_attr a;

	(void)state;
	peo_test_sw_attr(&a, PEO_COUNT_SW_PAGE_FAULTS);
	a.sample_period = 1;
	/* Each new page faults at least once (more faults may come: malloc's). */
	lost_through_counter(&a, touch_pages, FAULT_PAGES, 0);
}

/* ------------------------------------------------- (e) live overwrite ring */

struct writer { /* shared with the writer thread: atomics only */
	int stop;
	pid_t tid;
	uint64_t done; /* marks made so far */
};

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	uint64_t i = 0;

	__atomic_store_n(&w->tid, gettid_(), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) {
		mark(++i);
		__atomic_store_n(&w->done, i, __ATOMIC_RELAXED);
	}
	return NULL;
}

#define LIVE_SNAPSHOTS 200

static void overwrite_snapshots_of_a_live_writer(void **state)
{
	char why[256];
	struct peo_attr a;
	struct writer w = { 0 };
	pthread_t th;
	struct peo_ring *r;
	struct peo_record_parser *p;
	unsigned char *buf;
	size_t size;
	uint64_t id, prev_newest = 0, records = 0, min_recs = UINT64_MAX, lost_seen = 0;
	uint64_t deadline;
	unsigned snaps = 0, live = 0;
	int fd;

	(void)state;
	assert_int_equal(pthread_create(&th, NULL, writer_main, &w), 0);
	while (!__atomic_load_n(&w.tid, __ATOMIC_ACQUIRE))
		sched_yield();
	assert_int_equal(peo_test_tracepoint_attr(&a, "syscalls", "sys_enter_lseek", why,
						  sizeof(why)), 0);
	a.sample_type = PEO_SAMPLE_IDENTIFIER | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_RAW;
	a.write_backward = 1;
	fd = peo_sys_open(&a, w.tid, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd < 0)
		print_error("%s\n", peo_last_error());
	assert_true(fd >= 0);
	assert_int_equal(peo_sys_ioc_id(fd, &id), 0);
	r = peo_test_map_ring(fd, 2, 1);
	size = peo_ring_data_size(r);
	buf = malloc(size);
	assert_non_null(buf);
	p = parser_or_fail(&a, &id);

	/*
	 * Snapshots while the writer runs: LIVE_SNAPSHOTS of them that found
	 * newer records than the one before (the writer was live), within a
	 * generous deadline for a loaded machine.
	 */
	deadline = now_ns() + 60ull * 1000000000u;
	while (live < LIVE_SNAPSHOTS && now_ns() < deadline) {
		long got = peo_ring_snapshot(r, buf, size);
		uint64_t prev_arg = UINT64_MAX, prev_time = UINT64_MAX, newest = 0, n = 0;
		/* A LOST record is written in the same space as the first sample
		 * after the drop, before it: newest first, LOST, that sample, then
		 * the samples from before the drop, lost.lost marks earlier.  The
		 * next LOST may follow that sample at once (two drops with one
		 * sample between), so the gap waits for the next sample. */
		uint64_t pending = 0, gap = 0;
		size_t at;

		if (got < 0)
			print_error("%s\n", peo_last_error());
		assert_true(got >= 0 && (size_t)got <= size);
		assert_int_equal(got % 8, 0);
		snaps++;
		if (got == 0) {
			/* nothing written yet: only before the first record */
			assert_int_equal(prev_newest, 0);
			sched_yield();
			continue;
		}
		for (at = 0; at < (size_t)got; n++) {
			struct peo_event_header h;
			struct peo_record rec = { .sz = sizeof(rec) };
			int err;

			memcpy(&h, buf + at, sizeof(h));
			if (!(h.size >= 8 && h.size % 8 == 0 && at + h.size <= (size_t)got &&
			      (h.type == PEO_RECORD_SAMPLE || h.type == PEO_RECORD_LOST)))
				print_error("snapshot %u: record at %zu: type %u size %u of %ld\n",
					    snaps, at, h.type, h.size, got);
			assert_true(h.size >= 8 && h.size % 8 == 0 && at + h.size <= (size_t)got);
			assert_true(h.type == PEO_RECORD_SAMPLE || h.type == PEO_RECORD_LOST);
			err = peo_record_parse(p, buf + at, h.size, &rec);
			if (err)
				print_error("%s\n", peo_last_error());
			assert_int_equal(err, 0);
			if (h.type == PEO_RECORD_LOST) {
				/* Output paused by an earlier snapshot dropped samples
				 * (newest first: the LOST precedes, in the buffer, the
				 * samples written before the pause). */
				assert_int_equal(rec.u.lost.id, id);
				assert_true(rec.u.lost.lost > 0);
				lost_seen += rec.u.lost.lost;
				pending += rec.u.lost.lost;
				at += h.size;
				continue;
			}
			assert_int_equal(rec.u.sample.identifier, id);
			assert_int_equal(rec.u.sample.tid, w.tid);
			assert_int_equal(rec.u.sample.pid, getpid());
			{
				uint64_t arg = sample_arg(&rec);

				assert_true(arg != UINT64_MAX && arg >= 1);
				if (n == 0 || newest == 0)
					newest = arg;
				/* Newest first: each sample is the writer's previous
				 * mark, or as many before as a LOST record said. */
				if (prev_arg != UINT64_MAX) {
					uint64_t want = prev_arg - 1 - gap;

					if (arg != want)
						print_error("snapshot %u: record %llu at %zu of %ld: mark %llu after %llu (%llu lost)\n",
							    snaps, (unsigned long long)n, at, got, (unsigned long long)arg,
							    (unsigned long long)prev_arg, (unsigned long long)gap);
					assert_int_equal(arg, want);
				}
				prev_arg = arg;
				gap = pending;
				pending = 0;
			}
			assert_true(rec.u.sample.time <= prev_time);
			prev_time = rec.u.sample.time;
			records++;
			at += h.size;
		}
		if (n < min_recs)
			min_recs = n;
		/* The newest mark never goes back, and the writer has made it. */
		assert_true(newest >= prev_newest);
		assert_true(newest <= __atomic_load_n(&w.done, __ATOMIC_RELAXED) + 1);
		if (newest > prev_newest)
			live++;
		prev_newest = newest;
		sched_yield();
	}
	__atomic_store_n(&w.stop, 1, __ATOMIC_RELAXED);
	assert_int_equal(pthread_join(th, NULL), 0);
	print_message("  live snapshots: %u taken, %u with newer records, %llu records checked, "
		      "fewest in one %llu, %llu marks dropped while paused\n", snaps, live,
		      (unsigned long long)records, (unsigned long long)min_recs,
		      (unsigned long long)lost_seen);
	if (live < LIVE_SNAPSHOTS)
		print_error("the writer advanced in only %u snapshots in 60 s\n", live);
	assert_true(live >= LIVE_SNAPSHOTS);

	peo_record_parser_free(p);
	free(buf);
	peo_ring_unmap(r);
	close(fd);
}

/* ------------------------------------------------- (f) one shared parser */

/* What a parse produced, field by field, to compare across threads. */
struct parsed {
	int err;
	uint32_t type;
	uint16_t size;
	const struct peo_attr *attr;
	uint32_t pid, tid;
	uint64_t time, identifier, ip, arg, callchain_nr, callchain0, lost;
	uint32_t raw_size;
	uint64_t sid_fields, sid_time, sid_id;
};

static void summarize(const struct peo_record_parser *p, const void *bytes, size_t len,
		      struct parsed *out)
{
	struct peo_record rec = { .sz = sizeof(rec) };

	memset(out, 0, sizeof(*out));
	out->err = peo_record_parse(p, bytes, len, &rec);
	if (out->err)
		return;
	out->type = rec.header.type;
	out->size = rec.header.size;
	out->attr = rec.attr;
	out->sid_fields = rec.sample_id.fields;
	out->sid_time = rec.sample_id.time;
	out->sid_id = rec.sample_id.id | rec.sample_id.identifier;
	if (rec.header.type == PEO_RECORD_SAMPLE) {
		out->pid = rec.u.sample.pid;
		out->tid = rec.u.sample.tid;
		out->time = rec.u.sample.time;
		out->identifier = rec.u.sample.identifier;
		out->ip = rec.u.sample.ip;
		out->raw_size = rec.u.sample.raw_size;
		out->arg = rec.u.sample.raw_size ? sample_arg(&rec) : 0;
		out->callchain_nr = rec.u.sample.callchain_nr;
		out->callchain0 = rec.u.sample.callchain_nr ? peo_record_u64(&rec,
							     rec.u.sample.callchain, 0) : 0;
	} else if (rec.header.type == PEO_RECORD_LOST) {
		out->lost = rec.u.lost.lost;
	}
}

struct corpus {
	unsigned char *bytes;
	size_t len;
	size_t *offs; /* record starts */
	size_t n;
	struct parsed *want;
	const struct peo_record_parser *p;
};

struct parse_worker {
	pthread_t th;
	const struct corpus *c;
	int rounds;
	char msg[512];
};

#define CHECK(cond) PEO_CHECK_TEXT(w->msg, sizeof(w->msg), cond, #cond)

static int parse_all(struct parse_worker *w)
{
	const struct corpus *c = w->c;

	for (int round = 0; round < w->rounds; round++) {
		for (size_t i = 0; i < c->n; i++) {
			size_t len = (i + 1 < c->n ? c->offs[i + 1] : c->len) - c->offs[i];
			struct parsed got;

			summarize(c->p, c->bytes + c->offs[i], len, &got);
			CHECK(memcmp(&got, &c->want[i], sizeof(got)) == 0);
			/* A cut record fails, with this thread's own sentence. */
			if (len > 16 && c->want[i].type == PEO_RECORD_SAMPLE) {
				struct peo_record rec = { .sz = sizeof(rec) };

				CHECK(peo_record_parse(c->p, c->bytes + c->offs[i], len - 8, &rec) < 0);
				CHECK(peo_last_error()[0] != '\0');
			}
		}
	}
	return 0;
}

#undef CHECK

static void *parse_worker_main(void *arg)
{
	struct parse_worker *w = arg;

	return (void *)(intptr_t)parse_all(w);
}

#define PARSE_THREADS 4

static void shared_parser_many_threads(void **state)
{
	char why[256];
	struct peo_attr a[2];
	int fd[2];
	uint64_t id[2];
	struct peo_ring *r;
	struct peo_record_parser *p;
	struct peo_ring_record rr = { .sz = sizeof(rr) };
	unsigned char scratch[8192];
	struct corpus c = { 0 };
	struct parse_worker w[PARSE_THREADS];
	size_t cap = 1 << 20, ncap = 8192, samples[2] = { 0, 0 };
	int got;

	(void)state;
	/* Two events into one ring, told apart by their ids: lseek with a
	 * callchain and its offset, getppid with the time. */
	assert_int_equal(peo_test_tracepoint_attr(&a[0], "syscalls", "sys_enter_lseek", why,
						  sizeof(why)), 0);
	a[0].sample_type = PEO_SAMPLE_IDENTIFIER | PEO_SAMPLE_IP | PEO_SAMPLE_TID |
			   PEO_SAMPLE_TIME | PEO_SAMPLE_CALLCHAIN | PEO_SAMPLE_RAW;
	assert_int_equal(peo_test_tracepoint_attr(&a[1], "syscalls", "sys_enter_getppid", why,
						  sizeof(why)), 0);
	a[1].sample_type = PEO_SAMPLE_IDENTIFIER | PEO_SAMPLE_TID | PEO_SAMPLE_TIME;
	for (int k = 0; k < 2; k++) {
		a[k].sample_id_all = 1;
		a[k].disabled = 1;
		fd[k] = peo_sys_open(&a[k], 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
		if (fd[k] < 0)
			print_error("%s\n", peo_last_error());
		assert_true(fd[k] >= 0);
		assert_int_equal(peo_sys_ioc_id(fd[k], &id[k]), 0);
	}
	r = peo_test_map_ring(fd[0], 64, 0);
	assert_int_equal(peo_ring_add(r, fd[1]), 0);
	assert_int_equal(peo_record_parser_new(&p, NULL), 0);
	assert_int_equal(peo_record_parser_add(p, &a[0], &id[0], 1), 0);
	assert_int_equal(peo_record_parser_add(p, &a[1], &id[1], 1), 0);

	for (int k = 0; k < 2; k++)
		assert_int_equal(peo_sys_ioc_enable(fd[k], 0), 0);
	for (uint64_t i = 1; i <= 1000; i++) {
		mark(i);
		if (i % 3 == 0)
			getppid();
	}
	for (int k = 0; k < 2; k++)
		assert_int_equal(peo_sys_ioc_disable(fd[k], 0), 0);

	c.bytes = malloc(cap);
	c.offs = malloc(ncap * sizeof(*c.offs));
	assert_non_null(c.bytes);
	assert_non_null(c.offs);
	while ((got = peo_ring_next(r, &rr, scratch, sizeof(scratch))) == 1) {
		assert_true(c.len + rr.header.size <= cap && c.n < ncap);
		c.offs[c.n++] = c.len;
		memcpy(c.bytes + c.len, rr.data, rr.header.size);
		c.len += rr.header.size;
	}
	assert_int_equal(got, 0);
	peo_ring_consume(r);
	/* A made-up LOST record of the first event, with its sample_id trailer
	 * (TIME and IDENTIFIER are the sample_id fields of a[0]: tid, time, id). */
	{
		struct vec v = { .n = 0 };

		vec_record_begin(&v, 0, PEO_RECORD_LOST, 0);
		vec_put64(&v, id[0]);
		vec_put64(&v, 12345);
		vec_put32(&v, (uint32_t)getpid());
		vec_put32(&v, (uint32_t)gettid_());
		vec_put64(&v, 777);
		vec_put64(&v, id[0]);
		vec_record_end(&v);
		assert_true(c.len + v.n <= cap && c.n < ncap);
		c.offs[c.n++] = c.len;
		memcpy(c.bytes + c.len, v.b, v.n);
		c.len += v.n;
	}

	/* The reference: one thread, one parse each. */
	c.p = p;
	c.want = calloc(c.n, sizeof(*c.want));
	assert_non_null(c.want);
	for (size_t i = 0; i < c.n; i++) {
		size_t len = (i + 1 < c.n ? c.offs[i + 1] : c.len) - c.offs[i];

		summarize(p, c.bytes + c.offs[i], len, &c.want[i]);
		if (c.want[i].err)
			print_error("record %zu: %s\n", i, peo_last_error());
		assert_int_equal(c.want[i].err, 0);
		if (c.want[i].type == PEO_RECORD_SAMPLE) {
			int k = c.want[i].identifier == id[1];

			assert_true(c.want[i].identifier == id[k]);
			assert_ptr_not_equal(c.want[i].attr, NULL);
			assert_int_equal(c.want[i].tid, gettid_());
			if (k == 0) {
				assert_int_equal(c.want[i].arg, samples[0] + 1);
				assert_true(c.want[i].callchain_nr > 0);
			}
			samples[k]++;
		}
	}
	assert_int_equal(samples[0], 1000);
	assert_int_equal(samples[1], 333);
	assert_int_equal(c.want[c.n - 1].type, PEO_RECORD_LOST);
	assert_int_equal(c.want[c.n - 1].lost, 12345);
	assert_int_equal(c.want[c.n - 1].sid_time, 777);

	/* Now the same parser from several threads at once. */
	for (int k = 0; k < PARSE_THREADS; k++) {
		w[k].c = &c;
		w[k].rounds = 20;
		w[k].msg[0] = '\0';
		assert_int_equal(pthread_create(&w[k].th, NULL, parse_worker_main, &w[k]), 0);
	}
	for (int k = 0; k < PARSE_THREADS; k++) {
		void *ret;

		assert_int_equal(pthread_join(w[k].th, &ret), 0);
		if (ret)
			print_error("parser thread %d: %s\n", k, w[k].msg);
		assert_null(ret);
	}
	print_message("  shared parser: %zu records parsed %d times by each of %d threads\n", c.n,
		      20, PARSE_THREADS);

	free(c.want);
	free(c.offs);
	free(c.bytes);
	peo_record_parser_free(p);
	peo_ring_unmap(r);
	close(fd[0]);
	close(fd[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(lost_tracepoint_counter_api),
		PEO_TEST(lost_page_faults_counter_api),
		PEO_TEST(overwrite_snapshots_of_a_live_writer),
		PEO_TEST(shared_parser_many_threads),
	};

	return PEO_TEST_MAIN_SETUP("ring_stress", tests, group_setup);
}
