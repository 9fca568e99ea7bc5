/*
 * test_perfdata_source.c - the perf.data reader's source alone
 * (src/perfdata/source.h), on bytes made here: a file read through the
 * least window, through mapped windows and mapped whole (with and without
 * the readahead thread), and a pipe; every byte handed out is the one
 * written, and an end that cuts the bytes asked for says how many are there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfdata/source.h"
#include "test_util.h"

/* The byte at offset @i of every file here. */
static unsigned char byte_at(uint64_t i)
{
	return (unsigned char)(i * 131 + (i >> 9));
}

/* A memfd of @n such bytes. */
static int file_of(size_t n)
{
	unsigned char *b = malloc(n);
	int fd = memfd_create("source", MFD_CLOEXEC);

	assert_non_null(b);
	assert_true(fd >= 0);
	for (size_t i = 0; i < n; i++)
		b[i] = byte_at(i);
	assert_int_equal(write(fd, b, n), (ssize_t)n);
	free(b);
	return fd;
}

/* Read a file's [pos, end) or a pipe to its end in steps of 1 to 300
 * bytes (asked for, then passed), checking each against byte_at(); the
 * answer at the end. */
static int read_through(struct pd_source *s)
{
	uint64_t have = 0, step = 1;
	int got;

	for (;;) {
		size_t need = (size_t)(step % 300) + 1;

		if (!s->sequential && s->end - s->pos < need)
			need = (size_t)(s->end - s->pos);
		if (!need)
			return 0;
		got = pd_source_fill(s, need, "bytes", &have);
		if (got == PD_SOURCE_CUT && s->sequential) { /* the pipe's last bytes */
			assert_true(have < need);
			need = (size_t)have;
		} else if (got != 1) {
			return got;
		}
		assert_true(pd_source_holds(s, need));
		for (size_t i = 0; i < need; i++)
			assert_int_equal(pd_source_at(s)[i], byte_at(s->pos + i));
		if (pd_source_due(s))
			pd_source_advance(s, s->pos);
		s->pos += need;
		step = step * 7 + 3;
	}
}

/* A file's bytes from offset 16 to its end, through the least window (a
 * window mapped at a time: the section is not mapped whole). */
static void file_through_windows(void **state)
{
	struct pd_source s;
	size_t n = 3 * PEO_PD_MIN_WINDOW + 1000;
	int fd = file_of(n), got;
	uint64_t have = 0;

	(void)state;
	pd_source_init(&s, fd, 0, 1, 0, 0); /* a window of 1 byte is the least one */
	assert_int_equal(s.window, PEO_PD_MIN_WINDOW);
	s.pos = 16;
	s.end = n;
	got = read_through(&s);
	assert_int_equal(got, 0);
	assert_int_equal(s.pos, n);
	assert_false(pd_source_stable(&s));
	/* the last 8 bytes, then 4 asked for past them: the end cuts them */
	s.pos = n - 4;
	assert_int_equal(pd_source_fill(&s, 8, "bytes", &have), PD_SOURCE_CUT);
	assert_int_equal(have, 4);
	/* more than a window: refused, saying so */
	assert_int_equal(pd_source_fill(&s, PEO_PD_MIN_WINDOW + 1, "a record", &have), -EPROTO);
	assert_non_null(strstr(peo_last_error(), "read window"));
	pd_source_fini(&s);
	close(fd);
}

/* The same mapped whole, with and without the readahead thread: the
 * bytes stay where they are, and pages behind the reader go. */
static void file_mapped_whole(void **state)
{
	size_t n = 3 * POPULATE_STEP + 5000;
	int fd = file_of(n);

	(void)state;
	for (int ahead = 0; ahead < 2; ahead++) {
		struct pd_source s;

		pd_source_init(&s, fd, 0, 4u << 20, 1, ahead);
		s.pos = 104;
		s.end = n;
		assert_int_equal(read_through(&s), 0);
		assert_int_equal(s.pos, n);
		if (sizeof(size_t) == 8)
			assert_true(pd_source_stable(&s));
		if (sizeof(size_t) == 8 && !ahead) /* dropped behind the reader (else by the helper) */
			assert_true(s.released > 0);
		pd_source_fini(&s);
		assert_null(s.ahead);
	}
	close(fd);
}

/* Bytes outside the window, at offsets, and past the file's end. */
static void read_at_offsets(void **state)
{
	struct pd_source s;
	unsigned char b[40];
	int fd = file_of(1000);

	(void)state;
	pd_source_init(&s, fd, 0, 0, 1, 0);
	assert_int_equal(pd_source_read_at(&s, 900, b, sizeof(b), "forty bytes"), 0);
	for (size_t i = 0; i < sizeof(b); i++)
		assert_int_equal(b[i], byte_at(900 + i));
	assert_int_equal(pd_source_read_at(&s, 980, b, sizeof(b), "forty bytes"), -EPROTO);
	assert_non_null(strstr(peo_last_error(), "forty bytes at offset 980: the file ends after 20"));
	pd_source_fini(&s);
	close(fd);
}

/* Passing over bytes, copied or not, and past the data's end. */
static void pass_over_bytes(void **state)
{
	struct pd_source s;
	unsigned char b[100];
	int fd = file_of(1000);

	(void)state;
	pd_source_init(&s, fd, 0, 0, 0, 0);
	s.pos = 10;
	s.end = 900;
	assert_int_equal(pd_source_pass(&s, 100, "a payload", b), 0);
	assert_int_equal(s.pos, 110);
	for (size_t i = 0; i < sizeof(b); i++)
		assert_int_equal(b[i], byte_at(10 + i));
	assert_int_equal(pd_source_pass(&s, 700, "a payload", NULL), 0);
	assert_int_equal(pd_source_pass(&s, 91, "a payload", NULL), -EPROTO);
	assert_non_null(strstr(peo_last_error(), "runs past the data section's end"));
	pd_source_fini(&s);
	close(fd);
}

/* A pipe of @n bytes from offset 0 (written whole: under its buffer). */
static int pipe_of(size_t n)
{
	unsigned char b[4096];
	int p[2];

	assert_true(n <= sizeof(b));
	assert_int_equal(pipe(p), 0);
	for (size_t i = 0; i < n; i++)
		b[i] = byte_at(i);
	assert_int_equal(write(p[1], b, n), (ssize_t)n);
	close(p[1]);
	return p[0];
}

/* A pipe in order to its end, a payload passed with its bytes copied, and
 * an end that cuts what is asked for. */
static void pipe_in_order(void **state)
{
	struct pd_source s;
	unsigned char b[50];
	uint64_t have = 0;
	int fd = pipe_of(4000);

	(void)state;
	pd_source_init(&s, fd, 1, 0, 1, 1); /* a pipe is neither mapped nor read ahead */
	assert_int_equal(pd_source_fill(&s, 16, "the header", &have), 1);
	s.pos = 16;
	assert_int_equal(pd_source_pass(&s, sizeof(b), "a payload", b), 0);
	for (size_t i = 0; i < sizeof(b); i++)
		assert_int_equal(b[i], byte_at(16 + i));
	assert_int_equal(read_through(&s), 0); /* a clean end: nothing left */
	assert_int_equal(s.pos, 4000);
	assert_false(pd_source_stable(&s));
	pd_source_fini(&s);
	close(fd);

	fd = pipe_of(100);
	pd_source_init(&s, fd, 1, 0, 0, 0);
	s.pos = 0;
	assert_int_equal(pd_source_fill(&s, 96, "bytes", &have), 1);
	s.pos = 96;
	assert_int_equal(pd_source_fill(&s, 8, "a record header", &have), PD_SOURCE_CUT);
	assert_int_equal(have, 4);
	pd_source_fini(&s);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(file_through_windows),
		PEO_TEST(file_mapped_whole),
		PEO_TEST(read_at_offsets),
		PEO_TEST(pass_over_bytes),
		PEO_TEST(pipe_in_order),
	};

	return PEO_TEST_MAIN("perfdata_source", tests);
}
