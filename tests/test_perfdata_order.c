/*
 * test_perfdata_order.c - the ordering stage (src/perfdata/order.h) alone:
 * made-up records, no file, through pd_order_next() in the order perf's
 * ordered events deliver them.  The rule, as perf's queue goes (and as
 * tests/test_time_order.c models it for whole files):
 *   - records with a time are queued sorted by time, equal times in
 *     arrival order;
 *   - FINISHED_ROUND lets out those up to the previous round's newest
 *     time, then notes the newest time queued; the round's record itself
 *     has no time and goes first, as every record without one does;
 *   - the newest time is of the records queued: the first record after
 *     the queue emptied sets it, older or not than those gone;
 *   - the end (or the source's error) lets out the rest, then says so.
 * Hand-made cases spell the rule out; a model of the queue, written here
 * apart from the stage's runs and heap, checks random streams.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "peo/peo.h"
#include "perfdata/order.h"
#include "test_util.h"

#define MOST 3000
#define NONE UINT64_MAX /* a record without a time */
#define ROUND (UINT64_MAX - 1) /* a FINISHED_ROUND */

/* A made-up source: times (or NONE, ROUND); record k's bytes say k. */
struct fake {
	const uint64_t *time;
	size_t n, next;
	int stays;       /* each record in its own place (else one buffer, reused) */
	int fail;        /* -EIO at the end instead of 0 */
	uint64_t one[2]; /* the reused buffer */
	uint64_t own[MOST][2];
};

static int fake_pull(void *ctx, struct pd_order_rec *rec)
{
	struct fake *s = ctx;
	size_t k = s->next;
	uint64_t *bytes;

	if (k == s->n)
		return s->fail ? peo_fail(EIO, "the fake source broke after %zu records", k) : 0;
	s->next++;
	bytes = s->stays ? s->own[k] : s->one;
	bytes[0] = k;
	bytes[1] = ~(uint64_t)k;
	memset(rec, 0, sizeof(*rec));
	rec->bytes = (const unsigned char *)bytes;
	rec->len = sizeof(s->one);
	rec->offset = 1000 + 16 * k;
	rec->tag = (uint32_t)k * 3;
	rec->round_end = s->time[k] == ROUND;
	rec->has_time = s->time[k] < ROUND;
	rec->time = rec->has_time ? s->time[k] : 0;
	rec->stays = s->stays;
	return 1;
}

/* Every record of @s through a new stage: their numbers in *out, in the
 * order they came; the last answer (0 or the error) in *end. */
static size_t drain(struct fake *s, size_t *out, int *end)
{
	const struct pd_order_src src = { fake_pull, s };
	struct pd_order *o;
	struct pd_order_rec rec;
	size_t n = 0;
	int got;

	assert_int_equal(pd_order_new(&o), 0);
	while ((got = pd_order_next(o, &src, &rec)) == 1) {
		uint64_t k, check;

		memcpy(&k, rec.bytes, 8);
		memcpy(&check, rec.bytes + 8, 8);
		assert_int_equal(rec.len, 16);
		assert_true(k < s->n);
		assert_true(check == ~k); /* the bytes whole, not overwritten */
		assert_int_equal(rec.offset, 1000 + 16 * k);
		assert_int_equal(rec.held, s->time[k] < ROUND); /* timed ones are held */
		if (rec.held) {
			assert_int_equal(rec.tag, k * 3);
			assert_int_equal(rec.time, s->time[k]);
			/* where bytes stay, held ones are not copied */
			assert_int_equal(rec.bytes == (const unsigned char *)s->own[k], s->stays);
		}
		assert_true(n < MOST);
		out[n++] = (size_t)k;
	}
	*end = got;
	pd_order_free(o);
	return n;
}

/* @times through the stage, copied and in place: the records come out as @want. */
static void comes_out_as(const uint64_t *times, size_t n, const size_t *want, size_t nwant)
{
	static struct fake s;
	size_t out[MOST];
	int end;

	for (int stays = 0; stays <= 1; stays++) {
		memset(&s, 0, sizeof(s));
		s.time = times;
		s.n = n;
		s.stays = stays;
		assert_int_equal(drain(&s, out, &end), nwant);
		assert_int_equal(end, 0);
		for (size_t i = 0; i < nwant; i++)
			if (out[i] != want[i])
				fail_msg("record %zu out is #%zu, the rule has #%zu", i, out[i], want[i]);
	}
}

#define COMES_OUT_AS(times, ...)                                                   \
	do {                                                                       \
		const size_t want_[] = { __VA_ARGS__ };                            \
		comes_out_as(times, sizeof(times) / sizeof(times[0]), want_,       \
			     sizeof(want_) / sizeof(want_[0]));                    \
	} while (0)

/* Within a round records go back in time: sorted, once the round after
 * it ends (the first round's end lets out only what is not newer than 0). */
static void sorted_a_round_late(void **state)
{
	/*                     #0  #1  #2  #3     #4  #5  #6     #7 */
	const uint64_t t[] = { 3, 1, 2, ROUND, 5, 4, ROUND, 6 };

	(void)state;
	COMES_OUT_AS(t, 3, 6, 1, 2, 0, 5, 4, 7);
}

/* Records without a time pass at once, the held ones wait. */
static void untimed_pass_at_once(void **state)
{
	const uint64_t t[] = { 5, NONE, 3, NONE, 4 };

	(void)state;
	COMES_OUT_AS(t, 1, 3, 2, 4, 0);
}

/* Equal times keep their order of arrival, across rounds too. */
static void ties_in_arrival_order(void **state)
{
	const uint64_t t[] = { 7, 2, 7, ROUND, 2, 7, ROUND, ROUND, 7 };

	(void)state;
	/* the 2nd round's end lets out up to 7: #1, #4 (time 2), #0, #2, #5 (time 7) */
	COMES_OUT_AS(t, 3, 6, 1, 4, 0, 2, 5, 7, 8);
}

/* A record older than the last round's flush is not out at once: it waits
 * for the next round's, and goes out sorted among that round's records. */
static void older_than_the_flush_waits(void **state)
{
	const uint64_t t[] = { 10, 20, ROUND, 30, ROUND, 15, 40, NONE, ROUND, 35 };

	(void)state;
	/* #4 lets out 10, 20; #5 (15) waits, behind #7 without a time, until
	 * #8 lets out up to 30: 15, 30; the end 35, 40 */
	COMES_OUT_AS(t, 2, 4, 0, 1, 7, 8, 5, 3, 9, 6);
}

/* The queue empties: its newest time starts again from the next record,
 * though older than the ones gone. */
static void newest_time_starts_again(void **state)
{
	const uint64_t t[] = { 100, ROUND, ROUND, 50, 60, ROUND, 70, ROUND, ROUND };

	(void)state;
	/* #2 lets out 100; #5 lets out up to 100 (50, 60) and notes 60, not
	 * 100; so #7 lets out up to 60 only: 70 waits for #8 */
	COMES_OUT_AS(t, 1, 2, 0, 5, 3, 4, 7, 8, 6);
}

/* The source's error comes after every record held before it. */
static void error_after_the_held(void **state)
{
	static struct fake s;
	const uint64_t t[] = { 9, 8, ROUND, 7 };
	size_t out[MOST];
	int end;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.time = t;
	s.n = 4;
	s.fail = 1;
	assert_int_equal(drain(&s, out, &end), 4);
	assert_int_equal(end, -EIO);
	assert_error_contains("the fake source broke after 4 records");
	assert_int_equal(out[0], 2);
	assert_int_equal(out[1], 3);
	assert_int_equal(out[2], 1);
	assert_int_equal(out[3], 0);
}

/* The oldest offset held: what the source must keep. */
static void oldest_held_offset(void **state)
{
	static struct fake s;
	const uint64_t t[] = { 5, 3, 4, ROUND, NONE };
	const struct pd_order_src src = { fake_pull, &s };
	struct pd_order *o;
	struct pd_order_rec rec;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.time = t;
	s.n = 5;
	s.stays = 1;
	assert_int_equal(pd_order_new(&o), 0);
	assert_int_equal(pd_order_oldest(o, 77), 77); /* none held */
	assert_int_equal(pd_order_next(o, &src, &rec), 1); /* the round's end, #3 */
	assert_int_equal(rec.offset, 1000 + 16 * 3);
	assert_int_equal(pd_order_oldest(o, 5000), 1000); /* #0 is held */
	assert_int_equal(pd_order_oldest(o, 900), 900);
	assert_int_equal(pd_order_next(o, &src, &rec), 1); /* #4, no time */
	assert_int_equal(pd_order_next(o, &src, &rec), 1); /* the end: #1 (3) */
	assert_int_equal(rec.offset, 1000 + 16 * 1);
	assert_int_equal(pd_order_next(o, &src, &rec), 1); /* #2 (4) */
	assert_int_equal(pd_order_next(o, &src, &rec), 1); /* #0 (5) */
	assert_int_equal(pd_order_oldest(o, 5000), 5000);
	assert_int_equal(pd_order_next(o, &src, &rec), 0);
	pd_order_free(o);
}

/* perf's queue, modeled: sorted by (time, arrival), out to *out. */
struct model {
	uint64_t time[MOST];
	size_t k[MOST], n;
	uint64_t newest, flush_to;
	size_t out[MOST], nout;
};

static void model_flush(struct model *m, uint64_t limit)
{
	size_t i = 0;

	while (i < m->n && m->time[i] <= limit)
		m->out[m->nout++] = m->k[i++];
	memmove(m->time, m->time + i, (m->n - i) * sizeof(m->time[0]));
	memmove(m->k, m->k + i, (m->n - i) * sizeof(m->k[0]));
	m->n -= i;
}

static void model_take(struct model *m, size_t k, uint64_t time)
{
	size_t at = m->n;

	if (time == NONE || time == ROUND) {
		m->out[m->nout++] = k;
		if (time == ROUND) {
			model_flush(m, m->flush_to);
			m->flush_to = m->newest;
		}
		return;
	}
	if (!m->n || time > m->newest)
		m->newest = time;
	while (at && m->time[at - 1] > time) {
		m->time[at] = m->time[at - 1];
		m->k[at] = m->k[at - 1];
		at--;
	}
	m->time[at] = time;
	m->k[at] = k;
	m->n++;
}

/* Random streams: rings a little apart, far-back records, few distinct
 * times (ties), untimed records and rounds: the stage goes as the model. */
static void random_streams_as_the_model(void **state)
{
	static struct model m;
	static uint64_t t[MOST];

	(void)state;
	srand(28);
	for (int round = 0; round < 200; round++) {
		uint64_t now = 1000;
		size_t n = 200 + (size_t)(rand() % 2000);
		int spread = 1 + rand() % 50;

		for (size_t k = 0; k < n; k++) {
			int roll = rand() % 100;

			if (roll < 5)
				t[k] = ROUND;
			else if (roll < 9)
				t[k] = NONE;
			else if (roll < 11)
				t[k] = now > 500 ? now - 500 : 0; /* far back */
			else
				t[k] = (now += (uint64_t)(rand() % 3)) - (uint64_t)(rand() % spread);
		}
		memset(&m, 0, sizeof(m));
		for (size_t k = 0; k < n; k++)
			model_take(&m, k, t[k]);
		model_flush(&m, UINT64_MAX);
		comes_out_as(t, n, m.out, m.nout);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(sorted_a_round_late),
		PEO_TEST(untimed_pass_at_once),
		PEO_TEST(ties_in_arrival_order),
		PEO_TEST(older_than_the_flush_waits),
		PEO_TEST(newest_time_starts_again),
		PEO_TEST(error_after_the_held),
		PEO_TEST(oldest_held_offset),
		PEO_TEST(random_streams_as_the_model),
	};

	return PEO_TEST_MAIN("perfdata_order", tests);
}
