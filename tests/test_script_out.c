/*
 * test_script_out.c - peo script's hand-written number and string
 * formatting against snprintf, over values at every digit-count boundary
 * and random ones, every width and alignment, and a buffer that fills up
 * mid-number (the bytes written to the fd must be the same), written by
 * this thread and by the writer thread; and the formatting worker's
 * batches, handed over in order.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#include "commands.h"
#include "script_out.h"
#include "script_maps.h"
#include "script_pipe.h"

/* Values around every power of 10 and 16, and random ones of every size. */
static size_t sample_values(uint64_t *v, size_t cap)
{
	size_t n = 0;
	uint64_t p = 1, x = 0x9e3779b97f4a7c15ULL;

	for (int i = 0; i < 20 && n + 3 <= cap; i++, p *= 10) {
		v[n++] = p - 1;
		v[n++] = p;
		v[n++] = p + 1;
	}
	for (int i = 0; i < 64 && n + 2 <= cap; i++) {
		v[n++] = (uint64_t)1 << i;
		v[n++] = ((uint64_t)1 << i) - 1;
	}
	while (n < cap) { /* xorshift: every magnitude */
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v[n++] = x >> (x & 63);
	}
	v[0] = UINT64_MAX;
	return n;
}

/* A buffer that writes to a memfd, read back whole after out_flush(). */
struct capture {
	struct out o;
	int fd;
};

/* With @threaded, a writer thread writes the full buffers. */
static void capture_open(struct capture *c, int threaded)
{
	c->fd = memfd_create("script_out", 0);
	assert_true(c->fd >= 0);
	out_init(&c->o, c->fd);
	if (threaded)
		assert_int_equal(out_start_writer(&c->o), 0);
}

static char *capture_text(struct capture *c, size_t *len)
{
	off_t end;
	char *text;

	assert_int_equal(out_finish(&c->o), 0);
	end = lseek(c->fd, 0, SEEK_END);
	text = calloc(1, (size_t)end + 1);
	assert_non_null(text);
	assert_int_equal(pread(c->fd, text, (size_t)end, 0), end);
	close(c->fd);
	*len = (size_t)end;
	return text;
}

static void numbers_match_printf_in(int threaded)
{
	static uint64_t v[4000];
	static const int widths[] = { 0, 1, 5, 10, 16, 20, 24, -1, -5, -20, -24 };
	size_t n = sample_values(v, sizeof(v) / sizeof(v[0])), len, want_len = 0;
	size_t cap = n * 11 * 4 * 40;
	char *want = malloc(cap), *got;
	struct capture c;

	assert_non_null(want);
	capture_open(&c, threaded);
	for (size_t i = 0; i < n; i++)
		for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
			int wd = widths[w];

			out_u64(&c.o, v[i], wd);
			out_i64(&c.o, (int64_t)v[i], wd);
			out_hex(&c.o, v[i], wd);
			out_advance(&c.o, put_dec_zero(out_room(&c.o, 9), v[i] % 1000000000u, 9));
			out_char(&c.o, '|');
			want_len += (size_t)snprintf(want + want_len, cap - want_len,
						     "%*" PRIu64 "%*" PRId64 "%*" PRIx64 "%09" PRIu64 "|",
						     wd, v[i], wd, (int64_t)v[i], wd, v[i],
						     v[i] % 1000000000u);
		}
	got = capture_text(&c, &len);
	assert_int_equal(len, want_len); /* crosses the buffer many times */
	assert_memory_equal(got, want, len);
	free(got);
	free(want);
}

static void numbers_match_printf(void **state)
{
	(void)state;
	numbers_match_printf_in(0);
}

/* The same bytes in the same order when a writer thread writes them. */
static void numbers_match_printf_threaded(void **state)
{
	(void)state;
	numbers_match_printf_in(1);
}

/* out_dec8() against printf: every value below 10^5, a stride through
 * the rest, and each power of 10 and its neighbours up to 10^8. */
static void eight_digits_match_printf(void **state)
{
	char want[16];
	uint64_t w;

	(void)state;
	for (uint32_t v = 0; v < 100000000u; v += v < 100000 ? 1 : 997) {
		w = out_dec8(v);
		snprintf(want, sizeof(want), "%08u", v);
		if (memcmp(&w, want, 8))
			fail_msg("out_dec8(%u) is '%.8s'", v, (const char *)&w);
	}
	for (uint32_t p = 10; p <= 100000000u; p *= 10)
		for (uint32_t v = p - 2; v <= p + 1 && v < 100000000u; v++) {
			w = out_dec8(v);
			snprintf(want, sizeof(want), "%08u", v);
			assert_memory_equal(&w, want, 8);
		}
	w = out_dec8(99999999u);
	assert_memory_equal(&w, "99999999", 8);
}

/* A child inherits its parent's maps at FORK, also when making the child
 * grows the table under the parent (a real file had crashed peo script
 * there: the parent's entry was read from the freed table). */
static void maps_follow_fork_while_the_table_grows(void **state)
{
	struct script_maps m = { 0 };
	uint64_t off;

	(void)state;
	for (uint32_t pid = 1; pid <= 128; pid++) /* a 256-slot table, half full: the next grows it */
		assert_int_equal(script_maps_add(&m, pid, 0x400000 + pid * 0x1000, 0x1000, pid), 0);
	assert_int_equal(script_maps_add(&m, 1, 0x7f0000, 0x2000, 0x5000), 0);
	assert_int_equal(m.cap, 256); /* what the test is about: the fork's child grows it */
	assert_int_equal(script_maps_fork(&m, 1, 1000), 0);
	assert_int_equal(m.cap, 512);
	assert_int_equal(script_maps_offset(&m, 1000, 0x7f0010, &off), 1);
	assert_int_equal(off, 0x5010);
	assert_int_equal(script_maps_offset(&m, 1000, 0x401008, &off), 1);
	assert_int_equal(off, 0x9); /* pid 1's first map, pgoff 1 */
	assert_int_equal(script_maps_offset(&m, 1000, 0x402000, &off), 0); /* pid 2's only */
	assert_int_equal(script_maps_offset(&m, 1, 0x7f1fff, &off), 1);
	assert_int_equal(off, 0x6fff);
	/* a parent with no maps: nothing to copy, nothing made */
	assert_int_equal(script_maps_fork(&m, 5000, 5001), 0);
	assert_int_equal(script_maps_offset(&m, 5001, 0x401008, &off), 0);
	script_maps_free(&m);
}

/* Every length of copy: the word loop, the overlapping last word, the
 * 4-byte pair and single bytes each meet their edges. */
static void bytes_of_every_length(void **state)
{
	char src[80], want[80 * 81 / 2 + 1], *got;
	size_t want_len = 0, len;
	struct capture c;

	(void)state;
	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (char)('A' + i % 57);
	capture_open(&c, 0);
	for (size_t n = 0; n < sizeof(src); n++) {
		out_bytes(&c.o, src, n);
		memcpy(want + want_len, src, n);
		want_len += n;
	}
	got = capture_text(&c, &len);
	assert_int_equal(len, want_len);
	assert_memory_equal(got, want, len);
	free(got);
}

/* What the worker saw: the entries' numbers, to be 0, 1, 2... in order. */
struct seen {
	uint32_t next;
	int out_of_order, batches;
};

static void check_batch(void *ctx, const unsigned char *bytes, size_t n)
{
	struct seen *seen = ctx;

	seen->batches++;
	for (size_t at = 0; at < n;) {
		uint32_t v[2]; /* number, size */

		memcpy(v, bytes + at, sizeof(v));
		seen->out_of_order |= v[0] != seen->next++;
		at += v[1];
	}
}

/* Entries of many sizes, up to the largest, cross many batches while the
 * worker takes them: each arrives once, in order, and finish waits for all. */
static void pipe_keeps_order(void **state)
{
	struct script_pipe *p;
	struct seen seen = { 0 };
	uint32_t n = 20000, x = 12345;

	(void)state;
	assert_int_equal(script_pipe_start(&p, check_batch, &seen), 0);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t v[2] = { i, 8 };
		unsigned char *at;

		x = x * 1103515245u + 12345u;
		if (i % 1000 == 999)
			v[1] = SCRIPT_PIPE_ENTRY_MAX; /* the largest an entry may be */
		else
			v[1] = 8 + 8 * (x >> 24 & 255);
		at = script_pipe_room(p, v[1]);
		memcpy(at, v, sizeof(v));
		memset(at + sizeof(v), 0xab, v[1] - sizeof(v));
		script_pipe_commit(p, v[1]);
	}
	script_pipe_finish(p);
	assert_int_equal(seen.next, n);
	assert_false(seen.out_of_order);
	assert_true(seen.batches > 4); /* the ring of batches went round */
}

static void strings_pad_and_align(void **state)
{
	struct capture c;
	size_t len;
	char *got;
	const char *want = "     abc|abc|abcdef|   x|x   |\"\"|syscalls:sys_enter_getppid: |";

	(void)state;
	capture_open(&c, 0);
	out_bytes_right(&c.o, "abc", 3, 8);
	out_char(&c.o, '|');
	out_str(&c.o, "abc|");
	out_bytes_right(&c.o, "abcdef", 6, 3); /* longer than the width: not cut */
	out_char(&c.o, '|');
	out_advance(&c.o, put_padded(out_room(&c.o, 4), "x", 1, 4));
	out_char(&c.o, '|');
	out_advance(&c.o, put_padded(out_room(&c.o, 4), "x", 1, -4));
	out_str(&c.o, "|\"\"|");
	out_bytes(&c.o, "syscalls:sys_enter_getppid: |", 29); /* words, then a tail */
	got = capture_text(&c, &len);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(got, want, len);
	free(got);
}

/* A failed write is remembered and reported, not retried forever, with
 * and without the writer thread. */
static void a_failed_write_is_reported(void **state)
{
	struct out *o = calloc(1, sizeof(*o));
	int fd = open("/dev/full", O_WRONLY);

	(void)state;
	assert_non_null(o);
	if (fd < 0) {
		free(o);
		PEO_SKIP("/dev/full cannot be opened: %m");
	}
	for (int threaded = 0; threaded < 2; threaded++) {
		out_init(o, fd);
		if (threaded)
			assert_int_equal(out_start_writer(o), 0);
		out_str(o, "text");
		out_flush(o); /* the thread may not have written it yet */
		out_str(o, "more");
		assert_int_equal(out_finish(o), -1);
		assert_int_equal(o->failed, 1);
	}
	close(fd);
	free(o);
}

static void *report_mask(void *arg)
{
	pthread_sigmask(SIG_BLOCK, NULL, arg);
	return NULL;
}

/* Helper threads leave SIGINT, SIGTERM and SIGCHLD to the main thread (a
 * SIGCHLD caught elsewhere would not interrupt peo record's wait), and take
 * SIGPIPE as perf does; the caller's own mask is left as it was. */
static void helper_threads_leave_signals_to_main(void **state)
{
	sigset_t seen, before, after;
	pthread_t t;

	(void)state;
	sigemptyset(&seen);
	pthread_sigmask(SIG_BLOCK, NULL, &before);
	assert_int_equal(thread_start(&t, report_mask, &seen), 0);
	pthread_join(t, NULL);
	pthread_sigmask(SIG_BLOCK, NULL, &after);
	assert_true(sigismember(&seen, SIGINT) && sigismember(&seen, SIGTERM) &&
		    sigismember(&seen, SIGCHLD));
	assert_false(sigismember(&seen, SIGPIPE));
	assert_int_equal(sigismember(&after, SIGINT), sigismember(&before, SIGINT));
	assert_int_equal(sigismember(&after, SIGCHLD), sigismember(&before, SIGCHLD));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers_match_printf),
		cmocka_unit_test(eight_digits_match_printf),
		cmocka_unit_test(maps_follow_fork_while_the_table_grows),
		cmocka_unit_test(numbers_match_printf_threaded),
		cmocka_unit_test(bytes_of_every_length),
		cmocka_unit_test(pipe_keeps_order),
		cmocka_unit_test(strings_pad_and_align),
		cmocka_unit_test(a_failed_write_is_reported),
		cmocka_unit_test(helper_threads_leave_signals_to_main),
	};

	return PEO_TEST_MAIN("script_out", tests);
}
