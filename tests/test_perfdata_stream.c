/*
 * test_perfdata_stream.c - the perf.data reader's record stream alone
 * (src/perfdata/stream.h), over files the writer makes here: a file's
 * records in file order through the least window, each at the offset the
 * previous one ends; peeking gives each record's attr and time; a pipe's
 * HEADER_ATTR and EVENT_UPDATE records grow the header the stream reads
 * with; a stream cut inside a record is refused naming the offset, or
 * under force ends there with a note; compressed records give back the
 * records they hold, in order.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/stream.h"
#include "synth_sample.h"
#include "test_util.h"

#define ROUND_EVERY 100

/* Sample @i of every file here. */
static struct synth_sample sample(int i)
{
	return synth_sample(0x400000 + (uint64_t)i, 10, 11, 1000 + 10 * (uint64_t)i);
}

enum form { FILE_FORM, PIPE_FORM, COMPRESSED_PIPE };

/* A memfd holding @n samples, a FINISHED_ROUND after each ROUND_EVERY, in
 * @form; -1 when the form cannot be written here (no zstd). */
static int written(enum form form, int n)
{
	struct peo_perfdata_writer *w;
	struct peo_attr a;
	uint64_t ids[2] = { 7, 8 };
	int fd = memfd_create("stream", MFD_CLOEXEC);

	assert_true(fd >= 0);
	synth_sample_attr(&a, 1);
	if (form == FILE_FORM)
		assert_int_equal(peo_perfdata_writer_open_fd(&w, fd), 0);
	else
		assert_int_equal(peo_perfdata_writer_open_pipe(&w, fd), 0);
	assert_int_equal(peo_perfdata_writer_add_event(w, &a, ids, 2, "cpu-clock"), 0);
	if (form == COMPRESSED_PIPE &&
	    peo_perfdata_writer_compress(w, 1, 1u << 20, PEO_RECORD_COMPRESSED) == -ENOTSUP) {
		peo_perfdata_writer_close(w);
		close(fd);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct synth_sample s = sample(i);

		assert_int_equal(peo_perfdata_writer_record(w, &s, sizeof(s)), 0);
		if ((i + 1) % ROUND_EVERY == 0)
			assert_int_equal(peo_perfdata_writer_finished_round(w), 0);
	}
	assert_int_equal(peo_perfdata_writer_close(w), 0);
	return fd;
}

/* A stream over @fd from its start (a pipe's read() when @sequential),
 * through the least window; its header read is returned. */
static struct pd_header *open_stream(struct pd_stream *s, int fd, int sequential,
				     int parse_fields, int want_time, int force)
{
	struct pd_header *h = calloc(1, sizeof(*h));
	struct stat st;

	assert_non_null(h);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	pd_source_init(&s->src, fd, sequential, 1, 0, 0);
	assert_int_equal(s->src.window, PEO_PD_MIN_WINDOW);
	assert_int_equal(pd_header_read(h, &s->src, sequential ? UINT64_MAX : (uint64_t)st.st_size,
					force), 0);
	pd_stream_init(s, h, parse_fields, want_time, force);
	return h;
}

static void close_stream(struct pd_stream *s)
{
	pd_header_free(s->hdr);
	pd_stream_fini(s);
}

/* What a reading found: the samples in order, the rounds, the compressed. */
struct seen {
	int samples, rounds, compressed;
	uint64_t last_offset, last_size; /* the last record's (not one expanded) */
	uint64_t sample_offset;          /* the last sample's */
};

/* Read @s to its end (the answer returned), checking each sample is the
 * next one written and that each record of the file starts where the one
 * before it ended. */
static int read_all(struct pd_stream *s, struct seen *v)
{
	struct peo_perfdata_record r = { .sz = sizeof(r) };
	uint64_t next_at = 0;
	int got;

	memset(v, 0, sizeof(*v));
	while ((got = pd_stream_next(s, &r)) == 1) {
		const struct peo_record *rec = &r.rec;

		if (rec->header.type == PEO_RECORD_SAMPLE) {
			struct synth_sample want = sample(v->samples++);

			v->sample_offset = r.offset;
			assert_memory_equal(rec->bytes, &want, sizeof(want));
			assert_int_equal(rec->header.size, sizeof(want));
			if (s->parse_fields) {
				assert_int_equal(rec->u.sample.ip, want.ip);
				assert_int_equal(rec->u.sample.time, want.time);
				assert_int_equal(rec->u.sample.tid, want.tid);
			}
			assert_non_null(rec->attr);
			assert_int_equal(rec->attr->sample_type, PEO_SAMPLE_IP | PEO_SAMPLE_TID |
					 PEO_SAMPLE_TIME | PEO_SAMPLE_PERIOD);
		}
		v->rounds += rec->header.type == PEO_RECORD_FINISHED_ROUND;
		if (rec->header.type == PEO_RECORD_COMPRESSED) {
			v->compressed++;
			next_at = r.offset + rec->header.size;
			continue;
		}
		if (v->compressed && rec->header.type == PEO_RECORD_SAMPLE) {
			/* expanded: they stand at the end of the record that held them */
			assert_int_equal(r.offset, next_at);
			assert_false(s->stable);
			continue;
		}
		if (next_at)
			assert_int_equal(r.offset, next_at);
		next_at = r.offset + rec->header.size + r.payload_size;
		v->last_offset = r.offset;
		v->last_size = rec->header.size;
	}
	return got;
}

/* A file's records in file order, through a window refilled many times. */
static void a_file_in_file_order(void **state)
{
	int n = 20000, fd = written(FILE_FORM, n);
	struct pd_header *h;
	struct pd_stream s;
	struct seen v;

	(void)state;
	h = open_stream(&s, fd, 0, 1, 0, 0);
	assert_true(h->data.size > 5 * PEO_PD_MIN_WINDOW);
	assert_int_equal(read_all(&s, &v), 0);
	assert_int_equal(v.samples, n);
	assert_int_equal(v.rounds, n / ROUND_EVERY);
	assert_int_equal(v.last_offset + v.last_size, h->data.offset + h->data.size);
	assert_int_equal(pd_stream_next(&s, &(struct peo_perfdata_record){ .sz = 0 }), 0);
	assert_null(s.stopped);
	close_stream(&s);
	close(fd);
}

/* Peeking: each record's attr, and a sample's time; a round has none. */
static void peeking_gives_attr_and_time(void **state)
{
	struct peo_perfdata_record r = { .sz = sizeof(r) };
	int n = 1000, fd = written(FILE_FORM, n), samples = 0, got;
	struct pd_header *h;
	struct pd_stream s;

	(void)state;
	h = open_stream(&s, fd, 0, 0, 1, 0);
	while ((got = pd_stream_next(&s, &r)) == 1) {
		if (r.rec.header.type == PEO_RECORD_FINISHED_ROUND) {
			assert_false(s.has_time);
			continue;
		}
		assert_int_equal(r.rec.header.type, PEO_RECORD_SAMPLE);
		assert_true(s.has_time);
		assert_int_equal(s.time, sample(samples).time);
		assert_ptr_equal(r.rec.attr, peo_pd_parser_attr(h, 0));
		samples++;
	}
	assert_int_equal(got, 0);
	assert_int_equal(samples, n);
	close_stream(&s);
	close(fd);
}

/* A pipe's events arrive among its records, into the header. */
static void a_pipe_adds_its_events(void **state)
{
	int n = 3000, fd = written(PIPE_FORM, n);
	struct pd_header *h;
	struct pd_stream s;
	struct seen v;

	(void)state;
	h = open_stream(&s, fd, 1, 1, 0, 0);
	assert_true(h->pipe);
	assert_int_equal(h->nevents, 0);
	assert_int_equal(read_all(&s, &v), 0);
	assert_int_equal(v.samples, n);
	assert_int_equal(v.rounds, n / ROUND_EVERY);
	assert_int_equal(h->nevents, 1);
	assert_int_equal(h->events[0].nids, 2);
	assert_int_equal(h->events[0].ids[0], 7);
	assert_int_equal(h->events[0].ids[1], 8);
	assert_string_equal(h->events[0].name, "cpu-clock"); /* from EVENT_UPDATE */
	close_stream(&s);
	close(fd);
}

/* A pipe cut 12 bytes into its last sample: refused naming the offset;
 * under force, the records before it and a note. */
static void a_cut_stream(void **state)
{
	int n = 550, fd = written(PIPE_FORM, n);
	struct pd_stream s;
	struct seen v;
	char want[128];

	(void)state;
	open_stream(&s, fd, 1, 1, 0, 0);
	assert_int_equal(read_all(&s, &v), 0);
	close_stream(&s);
	assert_int_equal(ftruncate(fd, (off_t)(v.sample_offset + 12)), 0);
	snprintf(want, sizeof(want), "the stream ends inside a record at offset %llu: 12 of its "
		 "%zu bytes are there", (unsigned long long)v.sample_offset,
		 sizeof(struct synth_sample));
	for (int force = 0; force < 2; force++) {
		struct seen cut;

		open_stream(&s, fd, 1, 1, 0, force);
		assert_int_equal(read_all(&s, &cut), force ? 0 : -EPROTO);
		assert_non_null(strstr(force ? s.stopped : peo_last_error(), want));
		assert_int_equal(cut.samples, n - 1);
		close_stream(&s);
	}
	close(fd);
}

/* perf record -z: each COMPRESSED record, then the records it holds. */
static void compressed_records_expand(void **state)
{
	int n = 30000, fd = written(COMPRESSED_PIPE, n);
	struct pd_stream s;
	struct seen v;

	(void)state;
	if (fd < 0)
		PEO_SKIP("peo was built without zstd: no compressed records to read");
	open_stream(&s, fd, 1, 0, 1, 0);
	assert_int_equal(read_all(&s, &v), 0);
	assert_int_equal(v.samples, n);
	assert_true(v.compressed > 1); /* 1.2 MB of samples: more than one 64 KiB record */
	close_stream(&s);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_file_in_file_order),
		cmocka_unit_test(peeking_gives_attr_and_time),
		cmocka_unit_test(a_pipe_adds_its_events),
		cmocka_unit_test(a_cut_stream),
		cmocka_unit_test(compressed_records_expand),
	};

	return PEO_TEST_MAIN("perfdata_stream", tests);
}
