/*
 * test_script_fetch.c - peo script's reading thread (tools/script_fetch.c)
 * against the reader itself: the same records in the same order, with the
 * same bytes, whether they last in the mapped file or are copied (held in
 * COMPRESSED records, or read through a window), over many blocks; the
 * same error at the same record of a broken file; an early end; and
 * peo_perfdata_record_lasts(), which decides what is copied.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#include "script_fetch.h"

#define SAMPLES 20000 /* about five blocks of the reading thread's */

/* A sample of IP|TID|TIME|PERIOD. */
struct sample {
	struct peo_event_header h;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time, period;
};

/* A file of @n samples in rounds of 100, times out of order within each
 * round (time order moves them), compressed when @zstd; its path in @path.
 * Returns 0, or -ENOTSUP when compression was asked of a build without zstd
 * (nothing written). */
static int write_samples(char *path, size_t cap, int n, int zstd)
{
	struct peo_perfdata_writer *w;
	struct peo_attr a;
	uint64_t ids[1] = { 7 }, x = 0x9e3779b97f4a7c15ULL;
	int fd;

	snprintf(path, cap, "/tmp/peo_fetch.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	peo_attr_init(&a);
	a.type = PEO_TYPE_SOFTWARE;
	a.config = PEO_COUNT_SW_CPU_CLOCK;
	a.sample_period = 1000;
	a.sample_id_all = 1;
	a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_PERIOD;
	assert_int_equal(peo_perfdata_writer_open(&w, path), 0);
	assert_int_equal(peo_perfdata_writer_add_event(w, &a, ids, 1, "cpu-clock"), 0);
	if (zstd) {
		int err = peo_perfdata_writer_compress(w, 1, 512 << 12, 0);

		if (err == -ENOTSUP) {
			peo_perfdata_writer_abandon(w);
			unlink(path);
			return err;
		}
		assert_int_equal(err, 0);
	}
	for (int i = 0; i < n; i++) {
		struct sample s = { { PEO_RECORD_SAMPLE, PEO_RECORD_MISC_USER, sizeof(s) },
				    0x400000 + (uint64_t)i, 500, 501, 0, 1000 };

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		s.time = 1000000ull * (uint64_t)(i / 100 + 1) + x % 100000;
		assert_int_equal(peo_perfdata_writer_record(w, &s, sizeof(s)), 0);
		if (i % 100 == 99)
			assert_int_equal(peo_perfdata_writer_finished_round(w), 0);
	}
	assert_int_equal(peo_perfdata_writer_close(w), 0);
	return 0;
}

/* A reader as peo script opens one: time order, headers only; through a
 * window of @window bytes when not 0 (then nothing is mapped whole). */
static struct peo_perfdata *open_as_script(const char *path, size_t window)
{
	struct peo_perfdata *f;
	PEO_OPTS(peo_perfdata_opts, o, .ordered = PEO_PERFDATA_TIME_ORDER, .headers_only = 1,
		 .readahead_thread = 1, .window = window);

	assert_int_equal(peo_perfdata_open(&f, path, &o), 0);
	return f;
}

/* The records of @path through the reading thread and straight from a
 * second reader are the same, to the end; returns how many of them lasted. */
static int same_records(const char *path, size_t window, int *count)
{
	struct peo_perfdata *direct = open_as_script(path, window);
	struct peo_perfdata *fetched = open_as_script(path, window);
	struct script_fetch *q;
	struct peo_perfdata_record a, b;
	int got_a, got_b, lasted = 0;

	assert_int_equal(script_fetch_start(&q, fetched), 0);
	*count = 0;
	do {
		got_a = peo_perfdata_next(direct, &a);
		got_b = script_fetch_next(q, &b);
		assert_int_equal(got_a, got_b);
		if (got_a != 1)
			break;
		lasted += peo_perfdata_record_lasts(direct, &a);
		assert_int_equal(a.rec.header.type, b.rec.header.type);
		assert_int_equal(a.rec.header.size, b.rec.header.size);
		assert_int_equal(a.rec.header.misc, b.rec.header.misc);
		assert_memory_equal(a.rec.bytes, b.rec.bytes, a.rec.header.size);
		assert_int_equal(a.offset, b.offset);
		assert_int_equal(a.payload_size, b.payload_size);
		assert_int_equal(a.rec.unknown, b.rec.unknown);
		assert_int_equal(a.rec.swapped, b.rec.swapped);
		assert_int_equal(peo_perfdata_event_of(direct, a.rec.attr),
				 peo_perfdata_event_of(fetched, b.rec.attr));
		(*count)++;
	} while (1);
	assert_int_equal(got_a, 0);
	script_fetch_end(q);
	peo_perfdata_close(fetched);
	peo_perfdata_close(direct);
	return lasted;
}

static void fetched_records_are_the_readers(void **state)
{
	char path[64];
	int count, lasted;

	(void)state;
	write_samples(path, sizeof(path), SAMPLES, 0);
	/* mapped whole: every record lasts and is passed as it is */
	lasted = same_records(path, 0, &count);
	assert_int_equal(count, SAMPLES + SAMPLES / 100); /* and the FINISHED_ROUNDs */
	assert_int_equal(lasted, count);
	/* through a window: none lasts, each is copied */
	lasted = same_records(path, 64 << 10, &count);
	assert_int_equal(count, SAMPLES + SAMPLES / 100);
	assert_int_equal(lasted, 0);
	unlink(path);
}

static void fetched_compressed_records_are_copied(void **state)
{
	char path[64];
	int count, lasted;

	(void)state;
	if (write_samples(path, sizeof(path), SAMPLES, 1))
		PEO_SKIP("peo was built without zstd: no COMPRESSED records to write");
	lasted = same_records(path, 0, &count);
	assert_true(count > SAMPLES); /* the samples, their rounds' ends, the COMPRESSED records */
	/* the COMPRESSED records themselves are in the mapped file; what they hold is not */
	assert_true(lasted > 0 && lasted < count - SAMPLES / 2);
	unlink(path);
}

static void a_broken_record_stops_both_alike(void **state)
{
	char path[64], direct_error[1024];
	struct peo_perfdata *direct, *fetched;
	struct script_fetch *q;
	struct peo_perfdata_record a, b;
	uint64_t broken = 0;
	int got_a, got_b, n = 0, samples = 0;
	FILE *fp;
	uint16_t tiny = 4; /* a header.size under the header's own 8 bytes */

	(void)state;
	write_samples(path, sizeof(path), SAMPLES, 0);
	{ /* the 15000th sample in the file breaks */
		PEO_OPTS(peo_perfdata_opts, o, .ordered = PEO_PERFDATA_FILE_ORDER);

		assert_int_equal(peo_perfdata_open(&direct, path, &o), 0);
		while (samples < 15000 && peo_perfdata_next(direct, &a) == 1)
			if (a.rec.header.type == PEO_RECORD_SAMPLE && ++samples == 15000)
				broken = a.offset;
		peo_perfdata_close(direct);
	}
	assert_true(broken > 0);
	fp = fopen(path, "r+b");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, (long)broken + 6, SEEK_SET), 0); /* its header.size */
	assert_int_equal(fwrite(&tiny, sizeof(tiny), 1, fp), 1);
	assert_int_equal(fclose(fp), 0);

	direct = open_as_script(path, 0);
	fetched = open_as_script(path, 0);
	assert_int_equal(script_fetch_start(&q, fetched), 0);
	while ((got_a = peo_perfdata_next(direct, &a)) == 1) {
		assert_int_equal(script_fetch_next(q, &b), 1);
		assert_int_equal(a.offset, b.offset);
		n++;
	}
	snprintf(direct_error, sizeof(direct_error), "%s", peo_last_error());
	got_b = script_fetch_next(q, &b);
	assert_true(got_a < 0);
	assert_int_equal(got_b, got_a);
	assert_int_equal(script_fetch_next(q, &b), got_a); /* and again */
	assert_string_equal(script_fetch_error(q), direct_error);
	assert_non_null(strstr(direct_error, "offset"));
	assert_true(n > 4096 * 2); /* past several blocks */
	script_fetch_end(q);
	peo_perfdata_close(fetched);
	peo_perfdata_close(direct);
	unlink(path);
}

static void an_early_end_stops_the_thread(void **state)
{
	char path[64];
	struct peo_perfdata *f;
	struct script_fetch *q;
	struct peo_perfdata_record r;

	(void)state;
	write_samples(path, sizeof(path), SAMPLES, 0);
	f = open_as_script(path, 0);
	assert_int_equal(script_fetch_start(&q, f), 0);
	for (int i = 0; i < 10; i++)
		assert_int_equal(script_fetch_next(q, &r), 1);
	script_fetch_end(q); /* the thread waits for blocks to be taken: it is stopped there */
	assert_int_equal(script_fetch_start(&q, f), 0);
	script_fetch_end(q); /* and before any block was taken */
	peo_perfdata_close(f);
	unlink(path);
}

static void lasts_refuses_null_and_foreign_records(void **state)
{
	char path[64];
	struct peo_perfdata *f;
	struct peo_perfdata_record r, copy;
	unsigned char bytes[64];

	(void)state;
	write_samples(path, sizeof(path), 300, 0);
	f = open_as_script(path, 0);
	assert_int_equal(peo_perfdata_next(f, &r), 1);
	assert_int_equal(peo_perfdata_record_lasts(f, &r), 1);
	assert_int_equal(peo_perfdata_record_lasts(NULL, &r), 0);
	assert_int_equal(peo_perfdata_record_lasts(f, NULL), 0);
	copy = r; /* the same record, its bytes elsewhere */
	memcpy(bytes, r.rec.bytes, r.rec.header.size);
	copy.rec.bytes = bytes;
	assert_int_equal(peo_perfdata_record_lasts(f, &copy), 0);
	peo_perfdata_close(f);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(fetched_records_are_the_readers),
		PEO_TEST(fetched_compressed_records_are_copied),
		PEO_TEST(a_broken_record_stops_both_alike),
		PEO_TEST(an_early_end_stops_the_thread),
		PEO_TEST(lasts_refuses_null_and_foreign_records),
	};

	return PEO_TEST_MAIN("script_fetch", tests);
}
