/*
 * test_threads.c - DESIGN.md's promise: separate objects from separate
 * threads.  Several threads at once each parse events, count, sample into
 * a ring, write and read back a perf.data of their own, and check that
 * peo_last_error() holds their own sentence; the feature probe, shared and
 * made once, is asked by all at the same moment.  Meant for ThreadSanitizer
 * (make check builds it with -fsanitize=thread); in plain builds it checks
 * the results.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <peo/peo.h>
#include <peo/perfdata.h>

#include "test_util.h"

#define THREADS 4
#define ROUNDS 20

struct worker {
	int index;
	pthread_barrier_t *start;
	char failure[512]; /* empty when every check held */
};

/* In worker @w: a failed check ends its work, the sentence kept for the test. */
#define CHECK(w, cond) PEO_CHECK_TEXT((w)->failure, sizeof((w)->failure), cond, #cond)

/* Its own error sentence, whatever the other threads fail with meanwhile. */
static int own_errors(struct worker *w)
{
	struct peo_event_list *list;
	char bad[32];

	snprintf(bad, sizeof(bad), "no-such-event-%d", w->index);
	CHECK(w, peo_event_parse(&list, bad, NULL) < 0);
	sched_yield();
	CHECK(w, strstr(peo_last_error(), bad) != NULL);
	return 0;
}

static int count(struct worker *w)
{
	const struct peo_feature *t;
	struct peo_event_list *list;
	struct peo_group *g;
	struct peo_count c[2];
	size_t n;

	CHECK(w, peo_features_probe(&t, &n) == 0 && n > 0);
	CHECK(w, peo_event_parse(&list, "task-clock:u,page-faults:u", NULL) == 2);
	CHECK(w, peo_group_open_events(&g, list, 0, 2, NULL, NULL) == 0);
	CHECK(w, peo_group_enable(g) == 0);
	peo_test_spin_ns(200000);
	peo_test_touch_pages(4);
	CHECK(w, peo_group_read(g, c, 2) == 2);
	CHECK(w, c[0].value > 0 && c[1].value >= 4);
	peo_group_close(g);
	peo_event_list_free(list);
	return 0;
}

static int sample(struct worker *w)
{
	PEO_OPTS(peo_ring_opts, ro, .data_pages = 4);
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	struct peo_ring *r;
	struct peo_attr a;
	int fd, samples = 0;

	peo_test_sw_attr(&a, PEO_COUNT_SW_TASK_CLOCK);
	a.sample_period = 100000; /* every 100 us of this thread's CPU time */
	a.sample_type = PEO_SAMPLE_TID | PEO_SAMPLE_TIME;
	a.disabled = 0;
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	CHECK(w, fd >= 0);
	CHECK(w, peo_ring_map(&r, fd, &ro) == 0);
	peo_test_spin_ns(5000000); /* 5 ms of this thread's CPU: about 50 samples */
	while (peo_ring_next(r, &rec, NULL, 0) == 1)
		samples += rec.header.type == PEO_RECORD_SAMPLE;
	peo_ring_consume(r);
	peo_ring_unmap(r);
	close(fd);
	CHECK(w, samples > 0);
	return 0;
}

/* A perf.data of its own, read back with the read-ahead helper thread. */
static int file(struct worker *w)
{
	char path[64];
	struct peo_perfdata_writer *wr;
	struct peo_perfdata_counts c = { .sz = sizeof(c) };
	struct peo_perfdata *f;
	struct peo_attr a;
	uint64_t id = 1, rec[5];
	int fd;

	snprintf(path, sizeof(path), "/tmp/peo-threads-XXXXXX");
	fd = mkstemp(path);
	CHECK(w, fd >= 0);
	close(fd);
	peo_test_sw_attr(&a, PEO_COUNT_SW_CPU_CLOCK);
	a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_PERIOD;
	CHECK(w, peo_perfdata_writer_open(&wr, path) == 0);
	CHECK(w, peo_perfdata_writer_add_event(wr, &a, &id, 1, "cpu-clock") == 0);
	for (uint64_t i = 0; i < 2000; i++) {
		rec[0] = PEO_RECORD_SAMPLE | (uint64_t)40 << 48;
		rec[1] = 0x1000 + i;
		rec[2] = (uint64_t)w->index | (uint64_t)w->index << 32;
		rec[3] = i;
		rec[4] = 1;
		CHECK(w, peo_perfdata_writer_record(wr, rec, sizeof(rec)) == 0);
	}
	CHECK(w, peo_perfdata_writer_close(wr) == 0);
	PEO_OPTS(peo_perfdata_opts, o, .readahead_thread = 1, .ordered = 1);
	CHECK(w, peo_perfdata_open(&f, path, &o) == 0);
	CHECK(w, peo_perfdata_count(f, &c) == 0);
	CHECK(w, c.by_type[PEO_RECORD_SAMPLE] == 2000);
	peo_perfdata_counts_free(&c);
	peo_perfdata_close(f);
	unlink(path);
	return 0;
}

static void *work(void *arg)
{
	struct worker *w = arg;

	pthread_barrier_wait(w->start); /* all at once, the probe included */
	for (int i = 0; i < ROUNDS; i++)
		if (own_errors(w) || count(w) || sample(w) || (i % 5 == 0 && file(w)))
			break;
	return NULL;
}

static void separate_objects_from_separate_threads(void **state)
{
	struct worker w[THREADS];
	pthread_t t[THREADS];
	pthread_barrier_t start;

	(void)state;
	pthread_barrier_init(&start, NULL, THREADS);
	for (int i = 0; i < THREADS; i++) {
		w[i] = (struct worker){ .index = i, .start = &start };
		assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
	}
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	pthread_barrier_destroy(&start);
	for (int i = 0; i < THREADS; i++) {
		if (w[i].failure[0])
			print_error("thread %d: %s\n", i, w[i].failure);
		assert_string_equal(w[i].failure, "");
	}
}

/* A ring set woken from another thread while one waits in it. */
struct waker {
	struct peo_ring_set *set;
	pthread_barrier_t *ready;
};

static void *wake_it(void *arg)
{
	struct waker *k = arg;

	pthread_barrier_wait(k->ready);
	usleep(20000);
	peo_ring_set_wake(k->set);
	return NULL;
}

static void ring_set_woken_from_another_thread(void **state)
{
	pthread_barrier_t ready;
	struct timespec t0, t1;
	struct waker k;
	pthread_t t;

	(void)state;
	assert_int_equal(peo_ring_set_new(&k.set), 0);
	pthread_barrier_init(&ready, NULL, 2);
	k.ready = &ready;
	assert_int_equal(pthread_create(&t, NULL, wake_it, &k), 0);
	pthread_barrier_wait(&ready);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(peo_ring_set_wait(k.set, 5000), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* woken, long before 5 s (a timeout returns 0 too); the waker's 20 ms
	 * sleep may take far longer on a loaded machine, but not 4 s */
	assert_true((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 < 4000);
	assert_int_equal(pthread_join(t, NULL), 0);
	pthread_barrier_destroy(&ready);
	peo_ring_set_free(k.set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(separate_objects_from_separate_threads),
		PEO_TEST(ring_set_woken_from_another_thread),
	};

	return PEO_TEST_MAIN("threads", tests);
}
