/*
 * test_writer_pipe.c - the perf.data writer's pipe mode on any fd
 * (peo_perfdata_writer_open_pipe, what peo record -o - writes): a regular
 * file gets a stream, not a file-mode perf.data; the header and attrs go
 * out with the first record and each round as it ends, so the stream read
 * back before close holds every round; the HEADER_ATTR attr is 128 bytes
 * (perf 6.1 reads that many whatever attr.size says); a reader gone is
 * -EPIPE from then on; -z compresses a stream, its COMPRESSED feature first.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "synth_sample.h"
#include "test_util.h"

/* A new empty regular file, unlinked: its fd. */
static int temp_file(void)
{
	char path[] = "/tmp/peo-writer-pipe-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	return fd;
}

/* The samples a reader finds in @fd's bytes so far, which must be a
 * pipe-mode stream; -1 when it cannot be read.  The file is opened anew
 * (a dup() would share, and move, the writer's offset). */
static long samples_in(int fd)
{
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	struct peo_perfdata *f;
	char path[64];
	long n = 0;
	int dup_fd, got;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	dup_fd = open(path, O_RDONLY);
	assert_true(dup_fd >= 0);
	if (peo_perfdata_open_fd(&f, dup_fd, NULL)) {
		close(dup_fd);
		return -1;
	}
	assert_int_equal(peo_perfdata_is_pipe(f), 1);
	struct peo_perfdata_layout lay = { .sz = sizeof(lay) };

	assert_int_equal(peo_perfdata_layout(f, &lay), -ENOTSUP); /* no offsets in a stream */
	while ((got = peo_perfdata_next(f, &rec)) == 1)
		n += rec.rec.header.type == PEO_RECORD_SAMPLE;
	peo_perfdata_close(f);
	close(dup_fd);
	return got < 0 ? -1 : n;
}

static struct peo_perfdata_writer *stream_on(int fd)
{
	struct peo_perfdata_writer *w;
	struct peo_attr a;
	uint64_t ids[2] = { 7, 8 };

	synth_sample_attr(&a, 1); /* needs 64 bytes */
	assert_int_equal(peo_perfdata_writer_open_pipe(&w, fd), 0);
	assert_int_equal(peo_perfdata_writer_add_event(w, &a, ids, 2, "cpu-clock"), 0);
	return w;
}

static int add_samples(struct peo_perfdata_writer *w, int from, int n)
{
	for (int i = from; i < from + n; i++) {
		struct synth_sample s = synth_sample(0x400000 + (uint64_t)i, 10, 10,
						     1000 + 10 * (uint64_t)i);
		int err = peo_perfdata_writer_record(w, &s, sizeof(s));

		if (err)
			return err;
	}
	return 0;
}

/* A regular file gets a stream, streamed round by round. */
static void a_file_gets_a_stream_round_by_round(void **state)
{
	struct peo_perfdata_writer *w;
	unsigned char head[40];
	uint64_t hsize;
	uint32_t attr_size;
	uint16_t rsize;
	int fd = temp_file();

	(void)state;
	w = stream_on(fd);
	for (int round = 0; round < 3; round++) {
		assert_int_equal(add_samples(w, 5 * round, 5), 0);
		assert_int_equal(peo_perfdata_writer_finished_round(w), 0);
		/* every round is in the file before close: a recorder killed keeps it */
		assert_int_equal(samples_in(fd), 5 * (round + 1));
	}
	assert_int_equal(add_samples(w, 15, 2), 0); /* no round: out at close */
	assert_int_equal(peo_perfdata_writer_close(w), 0);
	assert_int_equal(samples_in(fd), 17);

	assert_int_equal(pread(fd, head, sizeof(head), 0), (ssize_t)sizeof(head));
	memcpy(&hsize, head + 8, 8);
	memcpy(&rsize, head + 22, 2);
	memcpy(&attr_size, head + 28, 4);
	assert_memory_equal(head, "PERFILE2", 8);
	assert_int_equal(hsize, 16);
	assert_int_equal(head[16], PEO_RECORD_HEADER_ATTR);
	assert_int_equal(attr_size, PEO_ATTR_SIZE_VER7); /* not the 64 bytes it needs */
	assert_int_equal(rsize, 8 + PEO_ATTR_SIZE_VER7 + 2 * 8); /* the ids after attr.size */
	close(fd);
}

/* An fd that cannot take a stream is refused with a sentence. */
static void unwritable_fds_are_refused(void **state)
{
	struct peo_perfdata_writer *w = (void *)1;
	int fd = temp_file(), rd;
	char path[64];

	(void)state;
	assert_int_equal(peo_perfdata_writer_open_pipe(NULL, fd), -EINVAL);
	assert_int_equal(peo_perfdata_writer_open_pipe(&w, -1), -EBADF);
	assert_null(w);
	assert_int_equal(peo_perfdata_writer_open_pipe(&w, 1000), -EBADF); /* not open */
	assert_error_contains("fd 1000 is not open");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rd = open(path, O_RDONLY);
	assert_true(rd >= 0);
	assert_int_equal(peo_perfdata_writer_open_pipe(&w, rd), -EBADF);
	assert_error_contains("open for reading only");
	close(rd);
	close(fd);
}

/* A reader that went away: -EPIPE (SIGPIPE blocked), and from then on. */
static void a_reader_gone_is_epipe(void **state)
{
	struct peo_perfdata_writer *w;
	sigset_t pipe_sig, old;
	int p[2];

	(void)state;
	sigemptyset(&pipe_sig);
	sigaddset(&pipe_sig, SIGPIPE);
	assert_int_equal(sigprocmask(SIG_BLOCK, &pipe_sig, &old), 0);
	assert_int_equal(pipe(p), 0);
	w = stream_on(p[1]);
	assert_int_equal(add_samples(w, 0, 3), 0); /* the header went: the pipe holds it */
	close(p[0]);
	assert_int_equal(peo_perfdata_writer_finished_round(w), -EPIPE);
	assert_error_contains("Broken pipe");
	assert_int_equal(add_samples(w, 3, 1), -EPIPE);
	assert_int_equal(peo_perfdata_writer_close(w), -EPIPE);
	close(p[1]);
	{ /* take the SIGPIPE the writes left pending before unblocking it */
		struct timespec now = { 0, 0 };

		while (sigtimedwait(&pipe_sig, NULL, &now) == SIGPIPE)
			;
	}
	assert_int_equal(sigprocmask(SIG_SETMASK, &old, NULL), 0);
}

/* -z on a stream: the COMPRESSED feature first, then compressed records. */
static void a_stream_compresses(void **state)
{
	struct peo_perfdata_writer *w;
	int fd = temp_file(), err;

	(void)state;
	w = stream_on(fd);
	assert_int_equal(add_samples(w, 0, 4), 0); /* plain, as peo record's synthesized ones */
	err = peo_perfdata_writer_compress(w, 1, 4096, 0);
	if (err == -ENOTSUP) {
		peo_perfdata_writer_abandon(w);
		close(fd);
		PEO_SKIP("peo was built without zstd");
	}
	assert_int_equal(err, 0);
	assert_int_equal(add_samples(w, 4, 20), 0);
	assert_int_equal(peo_perfdata_writer_finished_round(w), 0);
	assert_int_equal(samples_in(fd), 24);
	assert_int_equal(peo_perfdata_writer_count(w, PEO_RECORD_COMPRESSED) > 0, 1);
	assert_int_equal(peo_perfdata_writer_close(w), 0);
	assert_int_equal(samples_in(fd), 24);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_file_gets_a_stream_round_by_round),
		cmocka_unit_test(unwritable_fds_are_refused),
		cmocka_unit_test(a_reader_gone_is_epipe),
		cmocka_unit_test(a_stream_compresses),
	};

	return PEO_TEST_MAIN("writer_pipe", tests);
}
