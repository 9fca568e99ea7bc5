/*
 * test_time_order.c - a single perf.data in time order comes out as perf's
 * ordered events deliver it, also when the file breaks FINISHED_ROUND's
 * promise (perf warns of "out of order events" then, and peo must still
 * print what perf prints).  The expected order comes from a model of
 * perf's queue written here, independent of peo's runs and heap:
 *   - records are queued sorted by time, equal times in arrival order;
 *   - FINISHED_ROUND delivers those up to the previous round's newest
 *     time, then notes the newest time queued;
 *   - that newest time is of the records queued: the first record after
 *     the queue emptied sets it, older or not;
 *   - the end delivers the rest.
 * So a record older than a round's flush waits for the next round and goes
 * out sorted among its records.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "order_file.h"
#include "peo/peo.h"
#include "test_util.h"

#define MOST 4000

/* perf's queue, modeled: the records by time, ties in arrival order. */
struct model {
	uint64_t time[MOST], ip[MOST];
	size_t n;
	uint64_t newest, flush_to;
	uint64_t out[MOST]; /* the ips delivered, in order */
	size_t nout;
};

/* A sample written (order_file_calls.sample): queued. */
static void model_queue(void *arg, uint64_t time, uint64_t ip)
{
	struct model *m = arg;
	size_t at = m->n;

	if (!m->n || time > m->newest)
		m->newest = time;
	while (at && m->time[at - 1] > time) { /* after the equal ones */
		m->time[at] = m->time[at - 1];
		m->ip[at] = m->ip[at - 1];
		at--;
	}
	m->time[at] = time;
	m->ip[at] = ip;
	m->n++;
}

/* Deliver the queued records up to @limit. */
static void model_flush(struct model *m, uint64_t limit)
{
	size_t k = 0;

	while (k < m->n && m->time[k] <= limit)
		m->out[m->nout++] = m->ip[k++];
	memmove(m->time, m->time + k, (m->n - k) * sizeof(m->time[0]));
	memmove(m->ip, m->ip + k, (m->n - k) * sizeof(m->ip[0]));
	m->n -= k;
}

/* A FINISHED_ROUND written (order_file_calls.round). */
static void model_round(void *arg)
{
	struct model *m = arg;

	model_flush(m, m->flush_to);
	m->flush_to = m->newest;
}

/*
 * Write a file of @kind (order_file.h), model perf's delivery of it, and
 * read it in time order, mapped and in small windows: the same ips in the
 * same order.
 */
static void file_comes_out_as_perfs_queue(enum order_kind kind, uint64_t seed)
{
	static struct model m;
	const struct order_file_calls calls = { model_queue, model_round, &m };
	char path[] = "/tmp/peo-order-XXXXXX", why[4200];
	int fd = mkstemp(path);
	long n;

	assert_true(fd >= 0);
	close(fd);
	memset(&m, 0, sizeof(m));
	n = order_file_write(path, kind, seed, MOST, &calls, why, sizeof(why));
	if (n < 0)
		fail_msg("%s", why);
	model_flush(&m, UINT64_MAX);
	assert_int_equal(m.nout, n);
	for (size_t window = 0; window <= 128 << 10; window += 128 << 10) {
		PEO_OPTS(peo_perfdata_opts, o, .ordered = PEO_PERFDATA_TIME_ORDER, .window = window);
		struct peo_perfdata_record rec = { .sz = sizeof(rec) };
		struct peo_perfdata *f;
		size_t k = 0;
		int got;

		assert_int_equal(peo_perfdata_open(&f, path, &o), 0);
		while ((got = peo_perfdata_next(f, &rec)) == 1) {
			if (rec.rec.header.type != PEO_RECORD_SAMPLE)
				continue;
			assert_true(k < (size_t)n);
			if (rec.rec.u.sample.ip != m.out[k])
				fail_msg("file %d of kind %d: sample %zu is ip %#llx at %llu, perf "
					 "delivers ip %#llx", (int)seed, (int)kind, k,
					 (unsigned long long)rec.rec.u.sample.ip,
					 (unsigned long long)rec.rec.u.sample.time,
					 (unsigned long long)m.out[k]);
			k++;
		}
		assert_int_equal(got, 0);
		assert_int_equal(k, n);
		peo_perfdata_close(f);
	}
	assert_int_equal(unlink(path), 0);
}

/* Rings a little apart, as perf record writes them. */
static void rings_a_little_apart(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 30; seed++)
		file_comes_out_as_perfs_queue(ORDER_RINGS_CLOSE, seed);
}

/* Now and then a record older than the last round's flush: it waits for the
 * next round, sorted among its records, not out at once. */
static void records_older_than_the_flush(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 30; seed++)
		file_comes_out_as_perfs_queue(ORDER_FAR_BACK, seed);
}

/* Rings that drift apart: the queue empties at rounds, and its newest time
 * starts again from the next record, older than the ones gone. */
static void rings_that_drift_apart(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 30; seed++)
		file_comes_out_as_perfs_queue(ORDER_RINGS_DRIFT, seed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(rings_a_little_apart),
		PEO_TEST(records_older_than_the_flush),
		PEO_TEST(rings_that_drift_apart),
	};

	return PEO_TEST_MAIN("time_order", tests);
}
