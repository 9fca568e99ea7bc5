/*
 * test_script_out.c - peo script's hand-written number and string
 * formatting against snprintf, over values at every digit-count boundary
 * and random ones, every width and alignment, and a buffer that fills up
 * mid-number (the bytes written to the fd must be the same), written or
 * kept in a growing buffer; the formatting pool's batches, written in
 * order; the log of state records its workers share; and the delivery of
 * a file's records to an output (one that counts them), with and without
 * workers.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#include "commands.h"
#include "script/out.h"
#include "script/log.h"
#include "script/pool.h"
#include "script/json.h"
#include "script/run.h"
#include "script/worker.h"
#include "synth_sample.h"

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
	for (int64_t neg = -1; neg >= -101 && n < cap; neg -= 1) /* put_i64's short ones */
		v[n++] = (uint64_t)neg;
	while (n < cap) { /* xorshift: every magnitude */
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v[n++] = x >> (x & 63);
	}
	v[0] = UINT64_MAX;
	return n;
}

/* A buffer that writes to a memfd, read back whole after out_finish(); or,
 * growing, one that keeps its text (a pool worker's). */
struct capture {
	struct out o;
	int fd; /* -1: growing */
};

/* With @growing, a buffer of 64 bytes to start with, grown many times. */
static void capture_open(struct capture *c, int growing)
{
	c->fd = -1;
	if (growing) {
		assert_int_equal(out_init_growing(&c->o, 64), 0);
		return;
	}
	c->fd = memfd_create("script_out", 0);
	assert_true(c->fd >= 0);
	out_init(&c->o, c->fd);
}

static char *capture_text(struct capture *c, size_t *len)
{
	off_t end;
	char *text;

	if (c->fd < 0) {
		assert_false(c->o.failed);
		text = calloc(1, c->o.n + 1);
		assert_non_null(text);
		memcpy(text, c->o.buf, c->o.n);
		*len = c->o.n;
		out_free_growing(&c->o);
		return text;
	}
	assert_int_equal(out_finish(&c->o), 0);
	end = lseek(c->fd, 0, SEEK_END);
	text = calloc(1, (size_t)end + 1);
	assert_non_null(text);
	assert_int_equal(pread(c->fd, text, (size_t)end, 0), end);
	close(c->fd);
	*len = (size_t)end;
	return text;
}

static void numbers_match_printf_in(int growing)
{
	static uint64_t v[4000];
	static const int widths[] = { 0, 1, 5, 10, 16, 20, 24, -1, -5, -20, -24 };
	size_t n = sample_values(v, sizeof(v) / sizeof(v[0])), len, want_len = 0;
	size_t cap = n * 11 * 4 * 40;
	char *want = malloc(cap), *got;
	struct capture c;

	assert_non_null(want);
	capture_open(&c, growing);
	for (size_t i = 0; i < n; i++)
		for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
			int wd = widths[w], digits = 1 + (int)((i + w) % 20); /* every count of digits */
			uint64_t under = v[i], pow10 = 1;

			for (int d = 0; d < digits && d < 19; d++)
				pow10 *= 10;
			if (digits < 20)
				under %= pow10;
			out_u64(&c.o, v[i], wd);
			out_advance(&c.o, put_i64(out_room(&c.o, 21 + out_pad_of(wd, 0)), (int64_t)v[i],
						  wd));
			out_hex(&c.o, v[i], wd);
			/* the room it documents: its digits, and at least 8 */
			out_advance(&c.o, put_dec_zero(out_room(&c.o, digits > 8 ? (size_t)digits : 8),
						       under, digits));
			out_char(&c.o, '|');
			want_len += (size_t)snprintf(want + want_len, cap - want_len,
						     "%*" PRIu64 "%*" PRId64 "%*" PRIx64 "%0*" PRIu64 "|",
						     wd, v[i], wd, (int64_t)v[i], wd, v[i], digits,
						     under);
		}
	got = capture_text(&c, &len);
	assert_int_equal(len, want_len); /* crosses the buffer (or grows it) many times */
	assert_memory_equal(got, want, len);
	free(got);
	free(want);
}

static void numbers_match_printf(void **state)
{
	(void)state;
	numbers_match_printf_in(0);
}

/* The same bytes in the same order when the buffer grows instead of being written. */
static void numbers_match_printf_growing(void **state)
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

/* Every length of copy: the 16-byte loop and its overlapping last piece,
 * the two words, the 4-byte pair and single bytes each meet their edges. */
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

/* JSON strings of every byte, longer than the buffer (written a piece at a
 * time), against escaping done the plain way: in this cycle of bytes no
 * byte of 0x80 and up is UTF-8 (a lead byte is followed by another), so
 * each is \u00XX. */
static void json_strings_of_any_length(void **state)
{
	enum { LEN = 300000 }; /* more than the 256 KiB buffer */
	char *src = malloc(LEN), *want = malloc(6 * LEN + 3), *got, *w = want;
	struct capture c;
	size_t len;

	(void)state;
	assert_non_null(src);
	assert_non_null(want);
	for (size_t i = 0; i < LEN; i++)
		src[i] = (char)(1 + i % 255);
	*w++ = '"';
	for (size_t i = 0; i < LEN; i++) {
		unsigned char ch = (unsigned char)src[i];

		w += ch == '"' || ch == '\\' ? sprintf(w, "\\%c", ch)
		   : ch < 0x20 || ch >= 0x80 ? sprintf(w, "\\u%04x", ch) : sprintf(w, "%c", ch);
	}
	*w++ = '"';
	for (int growing = 0; growing < 2; growing++) {
		capture_open(&c, growing);
		out_json_string(&c.o, src, LEN);
		got = capture_text(&c, &len);
		assert_int_equal(len, (size_t)(w - want));
		assert_memory_equal(got, want, len);
		free(got);
	}
	assert_int_equal(put_json_string(want, "a\"\\\n", 4) - want, 13);
	assert_memory_equal(want, "\"a\\\"\\\\\\u000a\"", 13);
	/* UTF-8 as it is; a lone byte, an overlong form, a surrogate, a cut sequence escaped */
	{
		static const char in[] = "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|\xff|\xc0\xaf|\xed\xa0\x80|\xe2\x82";
		static const char out[] = "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|\\u00ff|\\u00c0\\u00af|"
					  "\\u00ed\\u00a0\\u0080|\\u00e2\\u0082\"";

		assert_int_equal(put_json_string(want, in, sizeof(in) - 1) - want, sizeof(out) - 1);
		assert_memory_equal(want, out, sizeof(out) - 1);
	}
	/* a 3-byte character repeated past the buffer: the pieces never cut one */
	for (size_t i = 0; i + 3 <= LEN; i += 3)
		memcpy(src + i, "\xe2\x82\xac", 3);
	capture_open(&c, 0);
	out_json_string(&c.o, src, LEN / 3 * 3);
	got = capture_text(&c, &len);
	assert_int_equal(len, LEN / 3 * 3 + 2);
	assert_memory_equal(got + 1, src, LEN / 3 * 3);
	free(got);
	free(src);
	free(want);
}

/* A tracepoint's own fields by their format, from a payload in either
 * byte order: numbers, hex, strings, arrays of elements and of bytes. */
static void tracepoint_fields_as_json(void **state)
{
	static const char format[] =
		"name: j\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\tfield:short s;\toffset:8;\tsize:2;\tsigned:1;\n"
		"\tfield:char comm[4];\toffset:10;\tsize:4;\tsigned:0;\n"
		"\tfield:const void * p;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:u32 v[2];\toffset:24;\tsize:8;\tsigned:0;\n"
		"\tfield:__data_loc u8[] buf;\toffset:32;\tsize:4;\tsigned:0;\n"
		"\tfield:u8 odd[3];\toffset:36;\tsize:3;\tsigned:0;\n"
		"\tfield:u64 past;\toffset:44;\tsize:8;\tsigned:0;\n"
		"\tfield:__data_loc unsigned char[] cmnd;\toffset:42;\tsize:4;\tsigned:0;\n";
	static const char want[] = ",\"fields\":{\"s\":-2,\"comm\":\"ab\",\"p\":\"0xdeadbeef\","
				   "\"v\":[1,4294967295],\"buf\":[7,0],\"odd\":[1,2,3],\"past\":null,"
				   "\"cmnd\":[18,0,52]}";
	struct peo_tp_format *f;

	(void)state;
	assert_int_equal(peo_tp_format_parse(&f, format), 0);
	for (int big = 0; big < 2; big++) {
		unsigned char raw[50] = { 0 }; /* past (8 bytes at 44) lies past it */
		struct peo_record rec = { .sz = sizeof(rec), .swapped = big }; /* this host is little-endian */
		struct capture c;
		size_t len;
		char *got;
		/* @n bytes of @v at @at in the payload's byte order */
		#define PUT(at, n, v) for (int k = 0; k < (n); k++) \
			raw[(at) + (big ? (n) - 1 - k : k)] = (unsigned char)((uint64_t)(v) >> 8 * k)

		PUT(8, 2, -2);
		memcpy(raw + 10, "ab\0z", 4);
		PUT(16, 8, 0xdeadbeef);
		PUT(24, 4, 1);
		PUT(28, 4, 0xffffffffu);
		PUT(32, 4, 40u | 2u << 16); /* 2 bytes at 40 */
		raw[36] = 1, raw[37] = 2, raw[38] = 3;
		raw[40] = 7;
		PUT(42, 4, 46u | 3u << 16); /* cmnd: 3 bytes at 46, a NUL among them */
		raw[46] = 0x12, raw[48] = 0x34;
		#undef PUT
		capture_open(&c, 1);
		json_tp_fields(&c.o, f, &rec, raw, sizeof(raw));
		got = capture_text(&c, &len);
		assert_string_equal(got, want);
		free(got);
	}
	peo_tp_format_free(f);
}

/* The size of the @i-th test entry: mostly small, every thousandth @largest. */
static uint32_t entry_size(uint32_t i, uint32_t *x, uint32_t largest)
{
	*x = *x * 1103515245u + 12345u;
	return i % 1000 == 999 ? largest : 8 + 8 * (*x >> 24 & 255);
}

/* Entry @i of @size bytes at @at: its number and size, then filler. */
static void put_entry(unsigned char *at, uint32_t i, uint32_t size)
{
	uint32_t v[2] = { i, size };

	memcpy(at, v, sizeof(v));
	memset(at + sizeof(v), 0xab, size - sizeof(v));
}

/* A pool test's batches: each entry's number printed, a line each;
 * stop_at's batch stops the output after its lines. */
struct numbered {
	uint32_t stop_at;
	unsigned batches[8]; /* by worker */
};

static int print_numbers(void *ctx, unsigned worker, const unsigned char *bytes, size_t n,
			 struct out *o)
{
	struct numbered *nb = ctx;
	int stop = 0;

	nb->batches[worker]++; /* each worker's own counter: no race */
	for (size_t at = 0; at < n;) {
		uint32_t v[2];

		memcpy(v, bytes + at, sizeof(v));
		out_u64(o, v[0], 0);
		out_char(o, '\n');
		stop |= v[0] == nb->stop_at;
		at += v[1];
	}
	return stop;
}

/* Fill @p with entries 0..@n-1 (sizes up to the largest); returns the
 * pool's finish.  *@batch_end and *@batch (when not NULL) receive where
 * the batch holding entry @entry ends (the first entry of the next batch,
 * or @n) and its number (batches count from 0). */
static enum script_pool_end fill_pool(struct script_pool *p, uint32_t n, unsigned *stopper,
				      uint32_t entry, uint32_t *batch_end, uint32_t *batch_no)
{
	uint32_t x = 777, start = 0, g = 0;
	size_t used = 0, cap;
	unsigned char *batch = script_pool_next_batch(p, 0, &cap);

	if (batch_end)
		*batch_end = n;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t size = entry_size(i, &x, SCRIPT_POOL_ENTRY_MAX);

		if (cap - used < size) {
			batch = script_pool_next_batch(p, used, &cap);
			used = 0;
			if (batch_end && start <= entry && entry < i)
				*batch_end = i;
			start = i;
			g++;
		}
		if (batch_no && i == entry)
			*batch_no = g;
		put_entry(batch + used, i, size);
		used += size;
	}
	return script_pool_finish(p, used, stopper);
}

/* The numbers' lines in order, 0..@n-1, then nothing: 1, or 0. */
static int lines_count_up(const char *text, size_t len, uint32_t n)
{
	char want[16];
	size_t at = 0;

	for (uint32_t i = 0; i < n; i++) {
		int w = snprintf(want, sizeof(want), "%u\n", i);

		if (at + (size_t)w > len || memcmp(text + at, want, (size_t)w))
			return 0;
		at += (size_t)w;
	}
	return at == len;
}

/* With one worker or several, every batch's lines come out in batch order,
 * and every worker takes batches.  Into a regular file several workers
 * write their batches at their places (pwrite), asked to: after what the
 * file's offset had, and the offset left at the end, as sequential writes
 * leave it; a file opened to append (pwrite would append there), or one
 * not asked to, is written in order by the writer.  Each count of workers
 * in these three ways (k % 3). */
static void pool_writes_in_batch_order(void **state)
{
	static const unsigned counts[] = { 1, 3, 5 };
	uint32_t n = 60000;

	(void)state;
	for (size_t k = 0; k < 3 * sizeof(counts) / sizeof(counts[0]); k++) {
		struct numbered nb = { .stop_at = UINT32_MAX };
		unsigned workers = counts[k / 3], stopper = 99;
		struct script_pool *p;
		struct capture c;
		size_t len;
		char *text;

		capture_open(&c, 0);
		assert_int_equal(write(c.fd, "head\n", 5), 5);
		if (k % 3 == 1) /* to append */
			assert_int_equal(fcntl(c.fd, F_SETFL, fcntl(c.fd, F_GETFL) | O_APPEND), 0);
		assert_int_equal(script_pool_start(&p, workers, c.fd, k % 3 != 2, print_numbers, &nb), 0);
		assert_int_equal(fill_pool(p, n, &stopper, 0, NULL, NULL), SCRIPT_POOL_DONE);
		assert_int_equal(stopper, 99);
		assert_int_equal(write(c.fd, "tail\n", 5), 5); /* where the offset was left */
		text = capture_text(&c, &len);
		assert_true(len > 10 && !memcmp(text, "head\n", 5) && !memcmp(text + len - 5, "tail\n", 5));
		assert_true(lines_count_up(text + 5, len - 10, n));
		for (unsigned w = 0; w < workers; w++)
			assert_true(nb.batches[w] > 0);
		free(text);
	}
}

/* A positioned write that fails (the file size limit) ends the pool with
 * -1 and its errno, as the writer's does; the file then holds the batches
 * before the first that failed, whole, and its offset is their end. */
static void pool_reports_a_failed_positioned_write(void **state)
{
	struct numbered nb = { .stop_at = UINT32_MAX };
	struct rlimit old, small = { 64 << 10, 64 << 10 };
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN); /* EFBIG, not the signal */
	struct script_pool *p;
	unsigned stopper = 99;
	int got, err;
	int fd = memfd_create("pool_limit", 0);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small.rlim_max = old.rlim_max;
	assert_int_equal(script_pool_start(&p, 3, fd, 1, print_numbers, &nb), 0);
	/* the limit only around the writes: restored before any assertion can fail */
	got = setrlimit(RLIMIT_FSIZE, &small) ? -100 : (int)fill_pool(p, 60000, &stopper, 0, NULL, NULL);
	err = errno;
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, was);
	assert_int_equal(got, SCRIPT_POOL_WRITE_FAILED);
	assert_int_equal(err, EFBIG);
	{
		off_t at = lseek(fd, 0, SEEK_CUR), size = lseek(fd, 0, SEEK_END);
		char *text = malloc((size_t)size + 1), *last;
		uint32_t lines;

		assert_non_null(text);
		assert_true(size > 0 && size <= 64 << 10);
		assert_int_equal(at, size);
		assert_int_equal(pread(fd, text, (size_t)size, 0), size);
		assert_int_equal(text[size - 1], '\n'); /* whole batches: whole lines */
		text[size - 1] = '\0';
		last = strrchr(text, '\n');
		lines = (uint32_t)strtoul(last ? last + 1 : text, NULL, 10) + 1;
		text[size - 1] = '\n';
		assert_true(lines_count_up(text, (size_t)size, lines));
		free(text);
	}
	close(fd);
}

/* A batch that asks stops the output after its own lines (those of later
 * batches, formatted meanwhile, are not written), and finish names it. */
static void pool_stops_after_the_batch_that_asks(void **state)
{
	struct numbered nb = { .stop_at = 30000 };
	struct script_pool *p;
	struct capture c;
	unsigned stopper = 99;
	size_t len;
	char *text, *last;
	uint32_t lines, batch_end, batch_no = UINT32_MAX;

	(void)state;
	capture_open(&c, 0);
	assert_int_equal(script_pool_start(&p, 3, c.fd, 1, print_numbers, &nb), 0);
	assert_int_equal(fill_pool(p, 60000, &stopper, nb.stop_at, &batch_end, &batch_no),
			 SCRIPT_POOL_STOPPED);
	assert_int_equal(stopper, batch_no % 3); /* batch g goes to worker g % 3 */
	text = capture_text(&c, &len);
	assert_true(len > 0 && text[len - 1] == '\n');
	text[len - 1] = '\0';
	last = strrchr(text, '\n');
	lines = (uint32_t)strtoul(last ? last + 1 : text, NULL, 10) + 1;
	text[len - 1] = '\n';
	assert_true(batch_end < 60000);
	assert_int_equal(lines, batch_end); /* the whole batch of entry 30000, no more */
	assert_true(lines_count_up(text, len, lines));
	free(text);
}

/* A write that fails ends the pool with SCRIPT_POOL_WRITE_FAILED and its errno. */
static void pool_reports_a_failed_write(void **state)
{
	struct numbered nb = { .stop_at = UINT32_MAX };
	struct script_pool *p;
	unsigned stopper = 99;
	int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);

	(void)state;
	if (fd < 0)
		PEO_SKIP("/dev/full cannot be opened: %m");
	assert_int_equal(script_pool_start(&p, 2, fd, 1, print_numbers, &nb), 0);
	assert_int_equal(fill_pool(p, 20000, &stopper, 0, NULL, NULL), SCRIPT_POOL_WRITE_FAILED);
	assert_int_equal(errno, ENOSPC);
	close(fd);
}

/* Each of three readers, reading at its own pace, gets every entry once in
 * order, whatever its size; chunks all readers have left are reused, so
 * the log stays a few chunks long. */
static void log_every_reader_reads_every_entry(void **state)
{
	struct script_log l;
	struct script_log_cursor c[3];
	uint32_t n = 200000, x = 99, next[3] = { 0 };
	size_t most = 0;

	(void)state;
	assert_int_equal(script_log_init(&l, 3), 0);
	for (int r = 0; r < 3; r++)
		script_log_reader_start(&l, &c[r]);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t size = entry_size(i, &x, SCRIPT_LOG_ENTRY_MAX);
		unsigned char *at = script_log_room(&l, size);

		assert_non_null(at);
		put_entry(at, i, size);
		script_log_commit(&l, size);
		for (int r = 0; r < 3; r++) { /* reader r catches up every 10^r entries */
			const unsigned char *e;
			size_t len;

			if ((i + 1) % (r == 0 ? 1 : r == 1 ? 10 : 100) && i + 1 < n)
				continue;
			while ((e = script_log_next(&c[r], l.count, &len))) {
				uint32_t v[2];

				memcpy(v, e, sizeof(v));
				assert_int_equal(v[0], next[r]);
				assert_int_equal(v[1], len);
				assert_true(len == sizeof(v) || e[len - 1] == 0xab);
				next[r]++;
			}
		}
		most = l.nchunks > most ? l.nchunks : most;
	}
	for (int r = 0; r < 3; r++)
		assert_int_equal(next[r], n);
	/* the slowest reader is at most 100 entries (~100 KiB, or one of 128
	 * KiB) behind: a 256 KiB chunk or two of the ~230 MB written, a spare */
	assert_true(most <= 4);
	script_log_free(&l);
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

/* A failed write is remembered and reported, not retried forever (the
 * pool's writer: pool_reports_a_failed_write). */
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
	out_init(o, fd);
	out_str(o, "text");
	out_flush(o);
	out_str(o, "more");
	assert_int_equal(out_finish(o), -1);
	assert_int_equal(errno, ENOSPC);
	assert_int_equal(o->failed, ENOSPC);
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

/* ------------------------------------------------- record delivery */

/* A made-up perf.data for the delivery's tests: COMM "one" (1/1), FORK
 * 2/2 of it, DELIVERY_SAMPLES samples at times 0, 1... (tid 1, then from
 * the middle, after COMM "two" of 2/2, tid 2), EXIT of 2/2. */
#define DELIVERY_SAMPLES 60000u

struct task_rec {
	struct peo_event_header h;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct comm_rec {
	struct peo_event_header h;
	uint32_t pid, tid;
	char comm[8];
};

static void write_comm(struct peo_perfdata_writer *w, uint32_t tid, const char *name)
{
	struct comm_rec c = { { PEO_RECORD_COMM, 0, sizeof(c) }, tid, tid, { 0 } };

	strncpy(c.comm, name, sizeof(c.comm) - 1);
	assert_int_equal(peo_perfdata_writer_record(w, &c, sizeof(c)), 0);
}

static void write_task(struct peo_perfdata_writer *w, uint32_t type, uint32_t tid, uint32_t ptid)
{
	struct task_rec t = { { type, 0, sizeof(t) }, tid, ptid, tid, ptid, 0 };

	assert_int_equal(peo_perfdata_writer_record(w, &t, sizeof(t)), 0);
}

/* The file at a new name made from @path (its XXXXXX replaced). */
static void write_delivery_file(char *path)
{
	struct peo_perfdata_writer *w;
	struct peo_attr a;
	uint64_t id = 7;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	synth_sample_attr(&a, 0);
	assert_int_equal(peo_perfdata_writer_open(&w, path), 0);
	assert_int_equal(peo_perfdata_writer_add_event(w, &a, &id, 1, "cpu-clock"), 0);
	write_comm(w, 1, "one");
	write_task(w, PEO_RECORD_FORK, 2, 1);
	for (uint32_t i = 0; i < DELIVERY_SAMPLES; i++) {
		uint32_t tid = i < DELIVERY_SAMPLES / 2 ? 1 : 2;
		struct synth_sample smp = synth_sample(0x1000 + i, tid, tid, i);

		if (i == DELIVERY_SAMPLES / 2)
			write_comm(w, 2, "two");
		assert_int_equal(peo_perfdata_writer_record(w, &smp, sizeof(smp)), 0);
	}
	write_task(w, PEO_RECORD_EXIT, 2, 1);
	assert_int_equal(peo_perfdata_writer_close(w), 0);
}

/* An output that counts what it is handed and prints a line for each
 * record it shows: a sample's time, "T<type>" for the others. */
struct counting {
	struct script_run run; /* first: the record hook finds the rest from w->run */
	uint64_t fail_at;      /* the time of the sample whose hook fails (UINT64_MAX: none) */
	int refuse;            /* check_events refuses the events */
};

/* What the hooks counted (atomic: the workers count together); zeroed by deliver_counting(). */
static struct {
	unsigned samples, shown, hidden_forks, wrong_comm, wrong_column, needs_asked;
} counted;

static int count_record(struct script_worker *w, const struct script_record *r)
{
	const struct counting *c = (const struct counting *)(const void *)w->run;
	const struct peo_record *rec = r->rec;
	const char *comm;
	char *p = out_room(w->out, 32);

	if (rec->header.type != PEO_RECORD_SAMPLE) {
		if (!r->print && rec->header.type == PEO_RECORD_FORK)
			__atomic_add_fetch(&counted.hidden_forks, 1, __ATOMIC_RELAXED);
		if (!r->print)
			return 0;
		__atomic_add_fetch(&counted.shown, 1, __ATOMIC_RELAXED);
		*p++ = 'T';
		p = put_dec(p, rec->header.type, 0, 0);
		*p++ = '\n';
		out_advance(w->out, p);
		return 0;
	}
	__atomic_add_fetch(&counted.samples, 1, __ATOMIC_RELAXED);
	/* the names as they stand at this record, whichever worker has it */
	comm = w->procs ? peo_processes_comm(w->procs, rec->sample_id.tid) : NULL;
	if (!comm || strcmp(comm, rec->sample_id.tid == 1 ? "one" : "two"))
		__atomic_add_fetch(&counted.wrong_comm, 1, __ATOMIC_RELAXED);
	if (r->column_len != 11 || memcmp(r->column, "[cpu-clock]", 11))
		__atomic_add_fetch(&counted.wrong_column, 1, __ATOMIC_RELAXED);
	p = put_dec(p, rec->sample_id.time, 0, 0);
	*p++ = '\n';
	out_advance(w->out, p);
	return rec->sample_id.time == c->fail_at ? -1 : 0;
}

static int count_shows(const struct script_args *a, uint32_t type)
{
	(void)a;
	return type != PEO_RECORD_FORK;
}

static unsigned count_needs(const struct script_args *a, const struct peo_attr *attr)
{
	(void)a;
	(void)attr;
	__atomic_add_fetch(&counted.needs_asked, 1, __ATOMIC_RELAXED);
	return F_EVENT;
}

static size_t count_column(struct script_run *run, const char *name, char *buf, size_t cap)
{
	(void)run;
	return (size_t)snprintf(buf, cap, "[%s]", name);
}

static int count_check(struct script_run *run, size_t from)
{
	struct counting *c = (struct counting *)(void *)run;

	assert_int_equal(from, 0);
	if (c->refuse)
		snprintf(run->why, sizeof(run->why), "refused");
	return c->refuse ? -1 : 0;
}

static const struct script_output counting_output = {
	.record = count_record,
	.shows = count_shows,
	.sample_needs = count_needs,
	.column = count_column,
	.check_events = count_check,
	.keeps_state = 1,
	.max_workers = 3,
	.positioned = 1,
};

/* Deliver @path's records to the counting output with @workers, stdout
 * into a memfd: how it ended, and the text (*@text, *@len; the caller frees). */
static enum script_end deliver_counting(struct counting *c, const char *path, int workers,
					char **text, size_t *len)
{
	PEO_OPTS(peo_perfdata_opts, po, .ordered = PEO_PERFDATA_FILE_ORDER, .headers_only = 1);
	int fd = memfd_create("delivery", 0), saved;
	enum script_end end;
	off_t size;

	memset(&counted, 0, sizeof(counted));
	c->run.a.input = path;
	c->run.a.workers = workers;
	assert_int_equal(peo_perfdata_open(&c->run.f, path, &po), 0);
	assert_true(fd >= 0);
	fflush(stdout);
	saved = dup(1);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fd, 1), 1);
	end = script_deliver(&c->run, &counting_output);
	assert_int_equal(dup2(saved, 1), 1);
	close(saved);
	peo_perfdata_close(c->run.f);
	size = lseek(fd, 0, SEEK_END);
	*text = calloc(1, (size_t)size + 1);
	assert_non_null(*text);
	assert_int_equal(pread(fd, *text, (size_t)size, 0), size);
	*len = (size_t)size;
	close(fd);
	return end;
}

/* The lines the counting output prints of the made-up file, up to the
 * sample at time @last. */
static char *counting_lines(uint64_t last, size_t *len)
{
	char *text = malloc(16 * (DELIVERY_SAMPLES + 4)), *p = text;

	assert_non_null(text);
	p += sprintf(p, "T%d\n", PEO_RECORD_COMM); /* the FORK not shown */
	for (uint64_t i = 0; i < DELIVERY_SAMPLES && i <= last; i++) {
		if (i == DELIVERY_SAMPLES / 2)
			p += sprintf(p, "T%d\n", PEO_RECORD_COMM);
		p += sprintf(p, "%" PRIu64 "\n", i);
	}
	if (last >= DELIVERY_SAMPLES)
		p += sprintf(p, "T%d\n", PEO_RECORD_EXIT);
	*len = (size_t)(p - text);
	return text;
}

/* Every record an output shows is handed to it once, parsed, with its
 * event's column, in file order whatever the workers (the text comes out
 * in order), each worker holding the names as they stand at the record;
 * a record it does not show but keeps state by is handed over unprinted. */
static void delivery_hands_every_record_over_once(void **state)
{
	char path[] = "/tmp/peo_delivery_XXXXXX", *want, *text;
	size_t want_len, len;

	(void)state;
	write_delivery_file(path);
	want = counting_lines(UINT64_MAX, &want_len);
	for (int workers = 0; workers <= 3; workers++) {
		struct counting c = { .fail_at = UINT64_MAX };

		assert_int_equal(deliver_counting(&c, path, workers, &text, &len), SCRIPT_END_DONE);
		assert_int_equal(counted.samples, DELIVERY_SAMPLES);
		assert_int_equal(counted.shown, 3); /* two COMMs and the EXIT */
		assert_true(counted.hidden_forks >= 1);
		assert_int_equal(counted.wrong_comm, 0);
		assert_int_equal(counted.wrong_column, 0);
		assert_int_equal(counted.needs_asked, 1); /* once for the event */
		assert_int_equal(len, want_len);
		assert_memory_equal(text, want, len);
		free(text);
	}
	free(want);
	unlink(path);
}

/* A record the output cannot handle ends the delivery there, named by its
 * place (without workers nothing after it is handed over, and its line is
 * the last); an output that refuses the events gets none. */
static void delivery_stops_where_the_output_says(void **state)
{
	char path[] = "/tmp/peo_delivery_XXXXXX", *want, *text;
	size_t want_len, len;

	(void)state;
	write_delivery_file(path);
	for (int workers = 0; workers <= 3; workers += 3) {
		struct counting c = { .fail_at = 1000 };

		assert_int_equal(deliver_counting(&c, path, workers, &text, &len),
				 SCRIPT_END_RECORD_FAILED);
		assert_non_null(strstr(c.run.why, "perf.data: record at offset "));
		if (workers == 0) {
			want = counting_lines(1000, &want_len);
			assert_int_equal(counted.samples, 1001);
			assert_int_equal(len, want_len);
			assert_memory_equal(text, want, len);
			free(want);
		}
		free(text);
	}
	{
		struct counting c = { .fail_at = UINT64_MAX, .refuse = 1 };

		assert_int_equal(deliver_counting(&c, path, 2, &text, &len), SCRIPT_END_REFUSED);
		assert_string_equal(c.run.why, "refused");
		assert_int_equal(counted.samples + counted.shown, 0);
		assert_int_equal(len, 0);
		free(text);
	}
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers_match_printf),
		cmocka_unit_test(eight_digits_match_printf),
		cmocka_unit_test(numbers_match_printf_growing),
		cmocka_unit_test(bytes_of_every_length),
		cmocka_unit_test(json_strings_of_any_length),
		cmocka_unit_test(tracepoint_fields_as_json),
		PEO_TEST(pool_writes_in_batch_order),
		PEO_TEST(pool_stops_after_the_batch_that_asks),
		PEO_TEST(pool_reports_a_failed_write),
		PEO_TEST(pool_reports_a_failed_positioned_write),
		PEO_TEST(log_every_reader_reads_every_entry),
		cmocka_unit_test(strings_pad_and_align),
		cmocka_unit_test(a_failed_write_is_reported),
		cmocka_unit_test(helper_threads_leave_signals_to_main),
		cmocka_unit_test(delivery_hands_every_record_over_once),
		cmocka_unit_test(delivery_stops_where_the_output_says),
	};

	return PEO_TEST_MAIN("script_out", tests);
}
