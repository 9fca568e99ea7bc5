/*
 * test_privileges.c - peo as an unprivileged user at each perf_event_paranoid
 * level this test may set (2, 1, 0, -1; the sysctl is restored after): what
 * the level allows opens, what it refuses fails with the sentence that names
 * the level and the fix, and peo stat / peo record fall back to user space
 * only (:u) as perf does, saying so.  Each check runs in a child that drops
 * root for nobody (65534); it returns 0, or 1 after printing what failed
 * (PEO_CHECK), and the parent names the level it failed at.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <peo/peo.h>
#include <peo/perfdata.h>

#include "internal.h"
#include "test_util.h"

#define PARANOID "/proc/sys/kernel/perf_event_paranoid"
#define NOBODY 65534

static char dir[] = "/tmp/peo-priv-XXXXXX"; /* where nobody may write */

static int write_level(long level)
{
	FILE *f = fopen(PARANOID, "we");
	int ok = f && fprintf(f, "%ld\n", level) > 0;

	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -1;
}

static int open_task_clock(int user_only, pid_t pid, int cpu)
{
	struct peo_attr a;

	peo_attr_init(&a);
	a.type = PEO_TYPE_SOFTWARE;
	a.config = PEO_COUNT_SW_TASK_CLOCK;
	a.exclude_kernel = a.exclude_hv = !!user_only;
	return peo_sys_open(&a, pid, cpu, -1, PEO_FLAG_FD_CLOEXEC);
}

/* @fd, an open at @level: from level @from up refused (EACCES or EPERM),
 * the sentence naming the level and holding @advice and @fix; below, open.
 * Returns 0, or 1 having said what failed. */
static int refused_from(long level, long from, int fd, const char *advice, const char *fix)
{
	char needle[64];

	if (level < from) {
		PEO_CHECK(fd >= 0);
		close(fd);
		return 0;
	}
	snprintf(needle, sizeof(needle), "kernel.perf_event_paranoid is %ld", level);
	PEO_CHECK(fd == -EACCES || fd == -EPERM);
	PEO_CHECK(strstr(peo_last_error(), needle));
	PEO_CHECK(strstr(peo_last_error(), advice));
	PEO_CHECK(strstr(peo_last_error(), fix));
	return 0;
}

/* The library, as nobody at @level. */
static int library_checks(long level)
{
	struct peo_event_list *list;
	struct peo_sampler *s;
	int fd, n;

	/* self-monitoring in user space: every level */
	fd = open_task_clock(1, 0, -1);
	PEO_CHECK(fd >= 0);
	peo_test_spin_ns(1000000);
	PEO_CHECK(peo_test_read_count(fd) > 0);
	close(fd);
	/* kernel mode: refused from 2 up, with the :u advice and the fix */
	PEO_CHECK(!refused_from(level, 2, open_task_clock(0, 0, -1), "exclude_kernel=1",
				"Fix: run as root or with CAP_PERFMON"));
	/* a whole CPU: refused from 1 up */
	PEO_CHECK(!refused_from(level, 1, open_task_clock(1, -1, 0), "CPU-wide",
				"sysctl kernel.perf_event_paranoid="));
	/* perf's fallback: only where the level is the reason */
	PEO_CHECK(peo_event_parse(&list, "task-clock,page-faults,cs:u", NULL) == 3);
	n = peo_event_user_fallback(list, -EACCES, NULL);
	PEO_CHECK(n == (level >= 2 ? 2 : 0)); /* cs:u already counts user space only */
	PEO_CHECK(!strcmp(peo_event_name(peo_event_list_get(list, 0)),
			  level >= 2 ? "task-clock:u" : "task-clock"));
	PEO_CHECK(peo_event_attr(peo_event_list_get(list, 1))->exclude_kernel == (level >= 2));
	peo_event_list_free(list);
	/* a sampler takes the same fallback, and says so in its event's name */
	PEO_CHECK(peo_sampler_open(&s, "cpu-clock", NULL, NULL) == 0);
	PEO_CHECK(peo_sampler_attr(s, 0)->exclude_kernel == (level >= 2));
	PEO_CHECK(!strcmp(peo_sampler_event_name(s, 0), level >= 2 ? "cpu-clock:u" : "cpu-clock"));
	peo_sampler_close(s);
	return 0;
}

/* The commands, as nobody at @level. */
static int tool_checks(long level)
{
	const char *tool = getenv("PEO_TOOL"), *workload = getenv("PEO_WORKLOAD");
	char cmd[512], out[8192], path[128];
	struct peo_perfdata *f;
	int said;

	PEO_CHECK(tool && workload); /* the caller skipped without them */
	snprintf(cmd, sizeof(cmd), "%s stat -e task-clock,page-faults -- %s -b 20", tool, workload);
	PEO_CHECK(peo_test_run_capture(cmd, out, sizeof(out)) == 0);
	said = strstr(out, "counting user space only") != NULL;
	PEO_CHECK(said == (level >= 2));
	PEO_CHECK((strstr(out, "task-clock:u") != NULL) == (level >= 2));
	PEO_CHECK(strstr(out, "page-faults"));
	snprintf(path, sizeof(path), "%s/rec%ld.data", dir, level);
	snprintf(cmd, sizeof(cmd), "%s record -o %s -- %s -b 20", tool, path, workload);
	PEO_CHECK(peo_test_run_capture(cmd, out, sizeof(out)) == 0);
	PEO_CHECK((strstr(out, "sampling user space only") != NULL) == (level >= 2));
	PEO_CHECK(peo_perfdata_open(&f, path, NULL) == 0);
	PEO_CHECK(peo_perfdata_attr(f, 0)->exclude_kernel == (level >= 2));
	PEO_CHECK(!strcmp(peo_perfdata_event_name(f, 0), level >= 2 ? "cpu-clock:u" : "cpu-clock"));
	peo_perfdata_close(f);
	/* what the level forbids and no fallback helps: a clear refusal */
	snprintf(cmd, sizeof(cmd), "%s stat -a -e task-clock:u -- %s -b 5", tool, workload);
	if (level >= 1) {
		PEO_CHECK(peo_test_run_capture(cmd, out, sizeof(out)) != 0);
		PEO_CHECK(strstr(out, "kernel.perf_event_paranoid is"));
		PEO_CHECK(strstr(out, "Fix:"));
	} else {
		PEO_CHECK(peo_test_run_capture(cmd, out, sizeof(out)) == 0);
	}
	return 0;
}

/* Run @checks as nobody at each level; skip where we may not. */
static void at_each_level(int (*checks)(long))
{
	static const long levels[] = { 2, 1, 0, -1 };
	long saved;
	int failed = 0;

	if (geteuid() != 0)
		PEO_SKIP("not root: cannot set %s or become another user", PARANOID);
	if (peo_test_read_long(PARANOID, &saved) || write_level(saved))
		PEO_SKIP("%s cannot be written here", PARANOID);
	/* no assert until the level is restored: a failure must not leave it changed */
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]) && !failed; i++) {
		pid_t pid;
		int status = -1;

		if (write_level(levels[i])) {
			failed = 1;
			break;
		}
		fflush(NULL);
		pid = fork();
		if (pid < 0) {
			failed = 1;
			break;
		}
		if (pid == 0) {
			if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
				_exit(2);
			_exit(checks(levels[i]));
		}
		waitpid(pid, &status, 0);
		failed = !WIFEXITED(status) || WEXITSTATUS(status);
		if (failed) /* what failed the child printed (PEO_CHECK); the level is ours */
			print_error("as nobody at %s %ld: failed\n", PARANOID, levels[i]);
	}
	assert_int_equal(write_level(saved), 0);
	assert_false(failed);
}

static void library_as_nobody(void **state)
{
	(void)state;
	at_each_level(library_checks);
}

/* Whether user nobody may execute @path: every directory on the way must
 * be open to others, which root's own access() cannot tell.  1 yes, 0 no
 * (access refused: the skip's reason), -1 when the probe itself failed. */
static int nobody_reaches(const char *path)
{
	pid_t pid;
	int status = -1;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(2);
		_exit(access(path, X_OK) ? 1 : 0); /* access() asks as the real uid: nobody */
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) > 1)
		return -1;
	return WEXITSTATUS(status) == 0;
}

static void tools_as_nobody(void **state)
{
	const char *tool = getenv("PEO_TOOL"), *workload = getenv("PEO_WORKLOAD");

	(void)state;
	if (!tool || !workload)
		PEO_SKIP("PEO_TOOL or PEO_WORKLOAD is not set (run under ctest)");
	if (geteuid() == 0) {
		int tool_ok = nobody_reaches(tool), workload_ok = nobody_reaches(workload);

		assert_true(tool_ok >= 0 && workload_ok >= 0); /* fork, setuid: root may */
		if (!tool_ok || !workload_ok)
			PEO_SKIP("user nobody cannot reach %s: a directory on the way is closed to "
				 "others (build in a world-readable place, e.g. under /tmp, to run "
				 "this test)", tool_ok ? workload : tool);
	}
	at_each_level(tool_checks);
}

/*
 * tracefs mounted but closed to others (mode 0700, as some systems mount
 * it): for nobody the tracepoint's sentence says tracefs is there but
 * unreadable and gives perf's fix (remount with mode=755), not "tracefs
 * is not mounted".  The mount's mode is restored before any assert.
 */
static int tracefs_checks(const char *mount)
{
	struct peo_event_list *list = NULL;
	char fix[128];
	int n;

	n = peo_event_parse(&list, "sched:sched_switch", NULL);
	peo_event_list_free(list);
	PEO_CHECK(n == -EACCES);
	PEO_CHECK(!strstr(peo_last_error(), "not mounted"));
	PEO_CHECK(strstr(peo_last_error(), "tracefs is mounted at"));
	PEO_CHECK(strstr(peo_last_error(), "cannot read it"));
	PEO_CHECK(strstr(peo_last_error(), "0700"));
	snprintf(fix, sizeof(fix), "mount -o remount,mode=755 %s", mount);
	PEO_CHECK(strstr(peo_last_error(), fix));
	return 0;
}

static void tracefs_closed_to_others(void **state)
{
	const char *mount = "/sys/kernel/tracing";
	struct stat st;
	pid_t pid;
	int status = -1, restored;

	(void)state;
	if (geteuid() != 0)
		PEO_SKIP("not root: cannot change tracefs's mode or become another user");
	if (stat(mount, &st) || access("/sys/kernel/tracing/events/sched/sched_switch/id", R_OK))
		PEO_SKIP("no tracefs with sched:sched_switch at %s", mount);
	if (access("/sys/kernel/debug/tracing/events", F_OK) == 0)
		PEO_SKIP("tracefs is also reachable under /sys/kernel/debug/tracing: closing %s alone "
			 "hides nothing", mount);
	if (chmod(mount, 0700))
		PEO_SKIP("chmod 0700 %s: %s", mount, strerror(errno));
	/* no assert until the mode is restored */
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(2);
		_exit(tracefs_checks(mount));
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	restored = chmod(mount, st.st_mode & 07777) == 0;
	assert_true(restored);
	assert_true(pid > 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static int make_dir(void **state)
{
	(void)state;
	return mkdtemp(dir) && !chmod(dir, 0777) ? 0 : -1;
}

static int remove_dir(void **state)
{
	(void)state;
	return peo_test_remove_tree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(library_as_nobody),
		PEO_TEST(tools_as_nobody),
		PEO_TEST(tracefs_closed_to_others),
	};

	if (make_dir(NULL))
		return 1;
	int failed = PEO_TEST_MAIN("privileges", tests);
	remove_dir(NULL);
	return failed;
}
