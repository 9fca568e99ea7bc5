/*
 * test_writer_files.c - the perf.data writer's file names and locks: a
 * file written aside leaves its name alone until published, is removed
 * when abandoned, keeps an older file as NAME.old; a second writer of a
 * file being written (or of the NAME.old publishing would replace) is
 * refused with the first's pid, and one refused at publishing keeps its
 * own name, its file whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

static char dir[] = "/tmp/peo-writer-files-XXXXXX";

static void path_of(char *buf, size_t cap, const char *name)
{
	snprintf(buf, cap, "%s/%s", dir, name);
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int has_text(const char *path, const char *text)
{
	char buf[256] = { 0 };
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	return n == strlen(text) && !memcmp(buf, text, n);
}

/* How many entries of the directory start with @prefix. */
static int count_prefixed(const char *prefix)
{
	char cmd[256], line[64];
	FILE *p;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "ls -a %s", dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		n += !strncmp(line, prefix, strlen(prefix));
	pclose(p);
	return n;
}

/* An event, one sample, closed: a file peo_perfdata_open() reads. */
static void finish_one(struct peo_perfdata_writer *w)
{
	struct peo_attr a;
	uint64_t ids[1] = { 1 }, rec[5] = { PEO_RECORD_SAMPLE | (uint64_t)40 << 48, 0x400000,
					    7 | (uint64_t)7 << 32, 1000, 1 };

	peo_test_sw_attr(&a, PEO_COUNT_SW_CPU_CLOCK);
	a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_PERIOD;
	assert_int_equal(peo_perfdata_writer_add_event(w, &a, ids, 1, "cpu-clock"), 0);
	assert_int_equal(peo_perfdata_writer_record(w, rec, sizeof(rec)), 0);
	assert_int_equal(peo_perfdata_writer_close(w), 0);
}

static void assert_perf_data(const char *path)
{
	struct peo_perfdata *f;

	assert_int_equal(peo_perfdata_open(&f, path, NULL), 0);
	peo_perfdata_close(f);
}

/* Whether files in the test's directory can be made without a name
 * (O_TMPFILE), as the writer makes them until they are published. */
static int unnamed_here(void)
{
#ifdef O_TMPFILE
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd < 0)
		return 0;
	close(fd);
	return access("/proc/self/fd", X_OK) == 0;
#else
	return 0;
#endif
}

/* A recorder killed before it publishes (SIGKILL: nothing of it runs)
 * leaves no file behind, where its file has no name until then. */
static void test_killed_before_publish_leaves_nothing(void **state)
{
	char p[128];
	int status;
	pid_t pid;

	(void)state;
	if (!unnamed_here())
		PEO_SKIP("%s cannot hold files without a name (O_TMPFILE): there a killed "
			 "recorder leaves NAME.peo-XXXXXX", dir);
	path_of(p, sizeof(p), "killed.data");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct peo_perfdata_writer *w;
		struct peo_attr a;
		uint64_t ids[1] = { 1 };

		peo_test_sw_attr(&a, PEO_COUNT_SW_CPU_CLOCK);
		if (peo_perfdata_writer_open_aside(&w, p) ||
		    peo_perfdata_writer_add_event(w, &a, ids, 1, "cpu-clock"))
			_exit(1);
		raise(SIGKILL);
		_exit(2);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_int_equal(count_prefixed("killed.data"), 0);
}

static void test_abandoned_aside_leaves_nothing(void **state)
{
	struct peo_perfdata_writer *w;
	char p[128];

	(void)state;
	path_of(p, sizeof(p), "gone.data");
	assert_int_equal(peo_perfdata_writer_open_aside(&w, p), 0);
	assert_int_equal(access(p, F_OK), -1); /* not there until published */
	/* no name at all where the filesystem allows, else one of its own */
	assert_int_equal(count_prefixed("gone.data.peo-"), unnamed_here() ? 0 : 1);
	peo_perfdata_writer_abandon(w);
	assert_int_equal(count_prefixed("gone.data"), 0);
}

static void test_publish_keeps_old(void **state)
{
	struct peo_perfdata_writer *w;
	char p[128], old[160];

	(void)state;
	path_of(p, sizeof(p), "kept.data");
	snprintf(old, sizeof(old), "%s.old", p);
	put_file(p, "before");
	assert_int_equal(peo_perfdata_writer_open_aside(&w, p), 0);
	assert_true(has_text(p, "before")); /* untouched until published */
	assert_int_equal(peo_perfdata_writer_publish(w), 0);
	assert_string_equal(peo_perfdata_writer_path(w), p);
	assert_true(has_text(old, "before"));
	finish_one(w);
	assert_perf_data(p);
	assert_int_equal(count_prefixed("kept.data.peo-"), 0);
}

static void test_second_writer_refused(void **state)
{
	struct peo_perfdata_writer *a, *b;
	char p[128], pid[32];
	struct stat st;

	(void)state;
	path_of(p, sizeof(p), "busy.data");
	snprintf(pid, sizeof(pid), "(pid %d)", (int)getpid());
	assert_int_equal(peo_perfdata_writer_open(&a, p), 0);
	/* a plain open neither empties it nor writes it */
	assert_int_equal(peo_perfdata_writer_open(&b, p), -EBUSY);
	assert_error_contains("being written by another recorder");
	assert_error_contains(pid);
	assert_int_equal(peo_perfdata_writer_open_aside(&b, p), -EBUSY);
	finish_one(a);
	assert_int_equal(stat(p, &st), 0);
	assert_true(st.st_size > 0);
	assert_perf_data(p);
	assert_int_equal(count_prefixed("busy.data.peo-"), 0);
}

static void test_refused_at_publish_keeps_own_name(void **state)
{
	struct peo_perfdata_writer *a, *b;
	char p[128], mine[256];

	(void)state;
	path_of(p, sizeof(p), "race.data");
	/* both start while the name is free; the first publishes */
	assert_int_equal(peo_perfdata_writer_open_aside(&a, p), 0);
	assert_int_equal(peo_perfdata_writer_open_aside(&b, p), 0);
	assert_int_equal(peo_perfdata_writer_publish(a), 0);
	assert_int_equal(peo_perfdata_writer_publish(b), -EBUSY);
	assert_error_contains("being written by another recorder");
	snprintf(mine, sizeof(mine), "%s", peo_perfdata_writer_path(b));
	assert_int_equal(strncmp(mine, p, strlen(p)), 0);
	assert_non_null(strstr(mine, ".peo-"));
	finish_one(b); /* its close tries no more */
	finish_one(a);
	assert_perf_data(p);
	assert_perf_data(mine);
	assert_int_equal(access(mine, F_OK), 0);
	unlink(mine);
}

static void test_old_being_written_refused(void **state)
{
	struct peo_perfdata_writer *a, *b;
	char p[128], old[160];

	(void)state;
	path_of(p, sizeof(p), "two.data");
	snprintf(old, sizeof(old), "%s.old", p);
	put_file(p, "before");
	assert_int_equal(peo_perfdata_writer_open(&a, old), 0); /* someone records to NAME.old */
	assert_int_equal(peo_perfdata_writer_open_aside(&b, p), -EBUSY);
	assert_error_contains(".old is being written");
	assert_true(has_text(p, "before"));
	finish_one(a);
	assert_perf_data(old);
}

static int make_dir(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(test_abandoned_aside_leaves_nothing),
		PEO_TEST(test_killed_before_publish_leaves_nothing),
		PEO_TEST(test_publish_keeps_old),
		PEO_TEST(test_second_writer_refused),
		PEO_TEST(test_refused_at_publish_keeps_own_name),
		PEO_TEST(test_old_being_written_refused),
	};
	int failed = PEO_TEST_MAIN_SETUP("writer_files", tests, make_dir);
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return failed;
}
