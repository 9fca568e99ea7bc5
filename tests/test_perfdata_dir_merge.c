/*
 * test_perfdata_dir_merge.c - the merge of a --threads directory's streams
 * (src/perfdata/dir_merge.h) alone: made-up streams, no file, through
 * pd_merge_next() in the order perf reads them.  The rule (as dir.c's
 * comment, tests/tie_dir.c and test_perfdata.c's directory cases have it):
 *   - file order: turn 0 of each stream in the order given, then turn 1
 *     of each, ...; a stream that ended is passed;
 *   - time order: the oldest next record goes first; at a tie the earlier
 *     turn, then the stream given first; a record without a time goes at
 *     once (the stream given first among several), before a later stream
 *     is read at all;
 *   - a stream's error comes out with its index, and the next call pulls
 *     that stream again.
 * Hand-made cases spell it out; a model, written here apart from the
 * merge's heap, checks random streams.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "peo/peo.h"
#include "perfdata/dir_merge.h"
#include "test_util.h"

#define MOST 400
#define STREAMS 8
#define NONE UINT64_MAX /* a record without a time */
#define ID(s, k) ((s) * 1000 + (k))

/* A made-up stream: times (or NONE) and turns; record k's item is ID(sid, k). */
struct fake {
	uint64_t time[MOST], turn[MOST];
	size_t n, next;
	size_t fail_at; /* pulling this record fails once (-EIO); MOST: never */
	int failed, sid;
	size_t pulls;
	int id[MOST];
};

static int fake_pull(void *ctx, struct pd_merge_rec *rec)
{
	struct fake *s = ctx;
	size_t k = s->next;

	s->pulls++;
	if (k == s->fail_at && !s->failed) {
		s->failed = 1;
		return peo_fail(EIO, "the fake stream %d broke at %zu", s->sid, k);
	}
	if (k == s->n)
		return 0;
	s->next++;
	s->id[k] = ID(s->sid, (int)k);
	rec->has_time = s->time[k] != NONE;
	rec->time = rec->has_time ? s->time[k] : 12345; /* not looked at */
	rec->turn = s->turn[k];
	rec->item = &s->id[k];
	return 1;
}

/* Stream @sid with @n records of @times and @turns (NULL: all turn 0). */
static void make(struct fake *s, int sid, const uint64_t *times, const uint64_t *turns, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->sid = sid;
	s->n = n;
	s->fail_at = MOST;
	for (size_t k = 0; k < n; k++) {
		s->time[k] = times[k];
		s->turn[k] = turns ? turns[k] : 0;
	}
}

/* Every record of the @n streams through a new merge: their ids in *out;
 * an error is noted as -1000 - the stream's index; the count returned. */
static size_t drain(struct fake *s, size_t n, int by_time, int *out)
{
	struct pd_merge_src src[STREAMS];
	struct pd_merge *m;
	const struct pd_merge_rec *rec;
	size_t nout = 0, from;
	int got;

	for (size_t i = 0; i < n; i++)
		src[i] = (struct pd_merge_src){ fake_pull, &s[i] };
	assert_int_equal(pd_merge_new(src, n, by_time, &m), 0);
	while ((got = pd_merge_next(m, &rec, &from)) != 0) {
		assert_true(nout < STREAMS * MOST + STREAMS);
		assert_true(from < n);
		if (got < 0) {
			assert_int_equal(got, -EIO);
			assert_error_contains("the fake stream");
			out[nout++] = -1000 - (int)from;
			continue;
		}
		assert_int_equal(got, 1);
		assert_int_equal(*(int *)rec->item / 1000, (int)from);
		out[nout++] = *(int *)rec->item;
	}
	pd_merge_free(m);
	return nout;
}

static void comes_out_as(struct fake *s, size_t n, int by_time, const int *want, size_t nwant)
{
	static int got[STREAMS * MOST + STREAMS];
	size_t ngot = drain(s, n, by_time, got);

	for (size_t i = 0; i < ngot && i < nwant; i++)
		if (got[i] != want[i])
			fail_msg("record %zu: %d, want %d", i, got[i], want[i]);
	assert_int_equal(ngot, nwant);
}

static struct fake f[STREAMS];

static void interleaved_times(void **state)
{
	const uint64_t a[] = { 1, 4, 7 }, b[] = { 2, 5, 8 }, c[] = { 3, 6 };
	const int want[] = { ID(0, 0), ID(1, 0), ID(2, 0), ID(0, 1), ID(1, 1),
			     ID(2, 1), ID(0, 2), ID(1, 2) };

	(void)state;
	make(&f[0], 0, a, NULL, 3);
	make(&f[1], 1, b, NULL, 3);
	make(&f[2], 2, c, NULL, 2);
	comes_out_as(f, 3, 1, want, 8);
}

/* A tie goes to the record of the earlier turn, then the stream given first. */
static void ties_by_turn_then_stream(void **state)
{
	const uint64_t a[] = { 5, 5 }, a_turn[] = { 0, 1 }, b[] = { 5, 5 }, c[] = { 5 };
	const int want[] = { ID(0, 0), ID(1, 0), ID(1, 1), ID(2, 0), ID(0, 1) };

	(void)state;
	make(&f[0], 0, a, a_turn, 2);
	make(&f[1], 1, b, NULL, 2);
	make(&f[2], 2, c, NULL, 1);
	comes_out_as(f, 3, 1, want, 5);
}

/* A record without a time goes at once, before a later stream is read. */
static void untimed_at_once(void **state)
{
	const uint64_t a[] = { 10, 20 }, b[] = { NONE, 5 }, c[] = { 1 };
	const int want[] = { ID(1, 0), ID(2, 0), ID(1, 1), ID(0, 0), ID(0, 1) };
	struct pd_merge_src src[3];
	struct pd_merge *m;
	const struct pd_merge_rec *rec;
	size_t from;

	(void)state;
	make(&f[0], 0, a, NULL, 2);
	make(&f[1], 1, b, NULL, 2);
	make(&f[2], 2, c, NULL, 1);
	for (size_t i = 0; i < 3; i++)
		src[i] = (struct pd_merge_src){ fake_pull, &f[i] };
	assert_int_equal(pd_merge_new(src, 3, 1, &m), 0);
	assert_int_equal(pd_merge_next(m, &rec, &from), 1);
	assert_int_equal(*(int *)rec->item, ID(1, 0));
	assert_int_equal(f[2].pulls, 0); /* not read yet */
	pd_merge_free(m);
	make(&f[0], 0, a, NULL, 2);
	make(&f[1], 1, b, NULL, 2);
	make(&f[2], 2, c, NULL, 1);
	comes_out_as(f, 3, 1, want, 5);
}

/* Empty streams and one that ends early are passed; ties in the same turn by stream. */
static void empty_and_early_end(void **state)
{
	const uint64_t b[] = { 1, 2, 3, 4 }, c[] = { 2 };
	const int want[] = { ID(1, 0), ID(1, 1), ID(2, 0), ID(1, 2), ID(1, 3) };
	const int want_file[] = { ID(1, 0), ID(1, 1), ID(1, 2), ID(1, 3), ID(2, 0) };

	(void)state;
	for (int by_time = 0; by_time < 2; by_time++) {
		make(&f[0], 0, b, NULL, 0);
		make(&f[1], 1, b, NULL, 4);
		make(&f[2], 2, c, NULL, 1);
		make(&f[3], 3, b, NULL, 0);
		comes_out_as(f, 4, by_time, by_time ? want : want_file, 5);
	}
	comes_out_as(f, 0, 1, want, 0);
}

/* A stream's error after the records before it; the next call pulls it again. */
static void a_stream_fails(void **state)
{
	const uint64_t a[] = { 1, 3, 5 }, b[] = { 2, 4, 6 };
	const int want[] = { ID(0, 0), ID(1, 0), -1001, ID(0, 1), ID(1, 1), ID(0, 2), ID(1, 2) };
	const int want_file[] = { ID(0, 0), ID(0, 1), ID(0, 2), ID(1, 0), -1001, ID(1, 1), ID(1, 2) };
	const int want_first[] = { -1001, ID(0, 0), ID(1, 0), ID(0, 1), ID(1, 1), ID(0, 2), ID(1, 2) };

	(void)state;
	for (int by_time = 0; by_time < 2; by_time++) {
		make(&f[0], 0, a, NULL, 3);
		make(&f[1], 1, b, NULL, 3);
		f[1].fail_at = 1;
		comes_out_as(f, 2, by_time, by_time ? want : want_file, 7);
	}
	make(&f[0], 0, a, NULL, 3); /* its first record: before any goes out */
	make(&f[1], 1, b, NULL, 3);
	f[1].fail_at = 0;
	comes_out_as(f, 2, 1, want_first, 7);
}

/* File order: each stream's turn 0 in order, then each one's turn 1, ... */
static void file_order_by_turns(void **state)
{
	const uint64_t t[] = { 9, 8, 7, 6, 5 }, a_turn[] = { 0, 0, 1, 1, 2 }, b_turn[] = { 0, 1, 1 },
		       d_turn[] = { 2 };
	const int want[] = { ID(0, 0), ID(0, 1), ID(1, 0), ID(0, 2), ID(0, 3),
			     ID(1, 1), ID(1, 2), ID(0, 4), ID(3, 0) };

	(void)state;
	make(&f[0], 0, t, a_turn, 5);
	make(&f[1], 1, t, b_turn, 3);
	make(&f[2], 2, t, NULL, 0);
	make(&f[3], 3, t, d_turn, 1);
	comes_out_as(f, 4, 0, want, 9);
}

/* The model: every stream's next record known; file order by turns;
 * time order: untimed first (stream given first), else (time, turn, stream). */
static size_t model(const struct fake *s, size_t n, int by_time, int *out)
{
	size_t at[STREAMS] = { 0 }, nout = 0;

	if (!by_time) {
		size_t left = 0;

		for (size_t i = 0; i < n; i++)
			left += s[i].n;
		for (uint64_t turn = 0; left; turn++)
			for (size_t i = 0; i < n; i++)
				while (at[i] < s[i].n && s[i].turn[at[i]] == turn) {
					out[nout++] = ID((int)i, (int)at[i]++);
					left--;
				}
		return nout;
	}
	for (;;) {
		size_t best = n;

		for (size_t i = 0; i < n && best == n; i++)
			if (at[i] < s[i].n && s[i].time[at[i]] == NONE)
				best = i;
		for (size_t i = 0; i < n && best == n; i++)
			if (at[i] < s[i].n)
				best = i;
		for (size_t i = best + 1; i < n && best < n && s[best].time[at[best]] != NONE; i++) {
			uint64_t t = s[best].time[at[best]], turn = s[best].turn[at[best]];

			if (at[i] < s[i].n && (s[i].time[at[i]] < t ||
					       (s[i].time[at[i]] == t && s[i].turn[at[i]] < turn)))
				best = i; /* a tie stays with the stream given first */
		}
		if (best == n)
			return nout;
		out[nout++] = ID((int)best, (int)at[best]++);
	}
}

static void random_streams_as_the_model(void **state)
{
	static int want[STREAMS * MOST];

	(void)state;
	srand(28);
	for (int round = 0; round < 300; round++) {
		size_t n = 1 + (size_t)(rand() % STREAMS);
		int by_time = round % 2;

		for (size_t i = 0; i < n; i++) {
			size_t len = rand() % 5 ? (size_t)(rand() % MOST) : 0;
			uint64_t now = 0, turn = 0;

			memset(&f[i], 0, sizeof(f[i]));
			f[i].sid = (int)i;
			f[i].n = len;
			f[i].fail_at = MOST;
			for (size_t k = 0; k < len; k++) {
				f[i].time[k] = rand() % 20 ? (now += (uint64_t)(rand() % 4)) : NONE;
				f[i].turn[k] = turn += rand() % 30 == 0;
			}
		}
		comes_out_as(f, n, by_time, want, model(f, n, by_time, want));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(interleaved_times),
		PEO_TEST(ties_by_turn_then_stream),
		PEO_TEST(untimed_at_once),
		PEO_TEST(empty_and_early_end),
		PEO_TEST(a_stream_fails),
		PEO_TEST(file_order_by_turns),
		PEO_TEST(random_streams_as_the_model),
	};

	return PEO_TEST_MAIN("perfdata_dir_merge", tests);
}
