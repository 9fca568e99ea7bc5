/*
 * test_target.c - targets of several tasks: the id lists of
 * peo_target_opts.pids (PEO_TARGET_PID and PEO_TARGET_TID, read as perf's
 * -p and -t read them) and PEO_TARGET_ALL_THREADS (perf stat --per-thread
 * -a); then, on the kernel, each listed thread's getppid calls counted
 * exactly by the syscalls:sys_enter_getppid tracepoint.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "test_util.h"

#define SELF_CALLS 1000     /* the test's main thread */
#define WORKER_CALLS 2000   /* its second thread */
#define WORKLOAD_CALLS 3000 /* the workload process */
#define LIST_TRIES 10       /* listings of every thread before an ESRCH is final */

/* ------------------------------------------------------------ helpers */

static void getppid_calls(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/* A second thread of this process: it tells its tid, then waits for a byte. */
struct worker {
	pthread_t th;
	int ready[2], go[2];
	pid_t tid;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	char c;

	if (write(w->ready[1], &tid, sizeof(tid)) != sizeof(tid) || read(w->go[0], &c, 1) != 1)
		return arg;
	getppid_calls(WORKER_CALLS);
	return NULL;
}

static void worker_start(struct worker *w)
{
	assert_int_equal(pipe2(w->ready, O_CLOEXEC), 0);
	assert_int_equal(pipe2(w->go, O_CLOEXEC), 0);
	assert_int_equal(pthread_create(&w->th, NULL, worker_main, w), 0);
	assert_int_equal(read(w->ready[0], &w->tid, sizeof(w->tid)), sizeof(w->tid));
}

/* Let the worker make its calls (@go) or just end, and join it. */
static void worker_finish(struct worker *w, int go)
{
	if (go)
		assert_int_equal(write(w->go[1], "g", 1), 1);
	close(w->go[1]);
	pthread_join(w->th, NULL);
	close(w->go[0]);
	close(w->ready[0]);
	close(w->ready[1]);
}

/* The bundled workload, blocked on its stdin until workload_finish(). */
struct workload {
	pid_t pid;
	int wake;
};

static void workload_start(struct workload *wl)
{
	const char *prog = getenv("PEO_WORKLOAD");
	char n[32];
	int p[2];

	assert_non_null(prog);
	snprintf(n, sizeof(n), "%d", WORKLOAD_CALLS);
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	wl->pid = fork();
	assert_true(wl->pid >= 0);
	if (wl->pid == 0) {
		dup2(p[0], 0);
		execl(prog, prog, "-w", "-n", n, (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	wl->wake = p[1];
}

static void workload_finish(struct workload *wl)
{
	int status;

	assert_int_equal(write(wl->wake, "g", 1), 1);
	close(wl->wake);
	assert_int_equal(waitpid(wl->pid, &status, 0), wl->pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* The index of thread @tid in @t, or -1. */
static long thread_index(const struct peo_target *t, pid_t tid)
{
	for (size_t i = 0; i < peo_target_thread_count(t); i++)
		if (peo_target_thread(t, i) == tid)
			return (long)i;
	return -1;
}

/* Threads sorted by id, none twice. */
static void assert_sorted_once(const struct peo_target *t)
{
	for (size_t i = 1; i < peo_target_thread_count(t); i++)
		assert_true(peo_target_thread(t, i - 1) < peo_target_thread(t, i));
}

static void assert_list_error(enum peo_target_kind kind, const char *list, int err,
			      const char *needle)
{
	PEO_OPTS(peo_target_opts, o, .kind = kind, .pids = list);
	struct peo_target *t = (struct peo_target *)&o; /* must come back NULL */

	assert_int_equal(peo_target_new(&t, &o), err);
	assert_null(t);
	assert_error_contains(needle);
}

/* A child that has exited and is not reaped yet: a zombie in /proc. */
static pid_t make_zombie(void)
{
	pid_t pid = fork();
	char path[64], *text = NULL;

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 500; i++, usleep(2000)) {
		FILE *f = fopen(path, "re");
		char line[512];

		if (f && fgets(line, sizeof(line), f) && (text = strrchr(line, ')')) &&
		    text[2] == 'Z') {
			fclose(f);
			return pid;
		}
		if (f)
			fclose(f);
	}
	fail_msg("child %d did not become a zombie within a second", (int)pid);
	return pid;
}

/* ------------------------------------------------------------- lists */

static void pid_list_reads_like_perf(void **state)
{
	char list[96];
	pid_t self = getpid();
	struct peo_target *t;
	struct worker w;

	(void)state;
	worker_start(&w);
	/* blanks before an id and one trailing comma, as perf's -p; a repeat counts once */
	snprintf(list, sizeof(list), " %d,\t%d,", (int)self, (int)self);
	PEO_OPTS(peo_target_opts, o, .kind = PEO_TARGET_PID, .pids = list);
	t = peo_test_target(&o);
	assert_int_equal(peo_target_thread_count(t), 2);
	assert_int_equal(peo_target_thread(t, 0), self);
	assert_int_equal(peo_target_thread(t, 1), w.tid);
	assert_int_equal(peo_target_cpu_count(t), 1);
	assert_int_equal(peo_target_cpu(t, 0), -1);
	peo_target_free(t);

	/* .pids wins over .pid */
	o.pid = 1;
	snprintf(list, sizeof(list), "%d", (int)w.tid); /* a thread names its whole process */
	t = peo_test_target(&o);
	assert_int_equal(peo_target_thread_count(t), 2);
	assert_int_equal(thread_index(t, 1), -1);
	peo_target_free(t);
	worker_finish(&w, 0);
}

static void pid_list_errors_name_the_item(void **state)
{
	char list[96];
	pid_t gone = fork();

	(void)state;
	assert_true(gone >= 0);
	if (gone == 0)
		_exit(0);
	assert_int_equal(waitpid(gone, NULL, 0), gone); /* reaped: no such process now */
	assert_list_error(PEO_TARGET_PID, "", -EINVAL, "the list is empty");
	assert_list_error(PEO_TARGET_PID, ",1", -EINVAL, "item 1 is empty");
	assert_list_error(PEO_TARGET_PID, "1,,1", -EINVAL, "item 2 is empty");
	assert_list_error(PEO_TARGET_PID, "1,,", -EINVAL, "item 2 is empty");
	assert_list_error(PEO_TARGET_PID, "1 2", -EINVAL, "item 1, \"1 2\", is not an id");
	assert_list_error(PEO_TARGET_PID, "1,abc", -EINVAL, "item 2, \"abc\", is not an id");
	assert_list_error(PEO_TARGET_PID, "1,12abc", -EINVAL, "item 2, \"12abc\"");
	assert_list_error(PEO_TARGET_PID, "0", -EINVAL, "item 1, \"0\", is not an id from 1");
	assert_list_error(PEO_TARGET_PID, "-1", -EINVAL, "item 1, \"-1\"");
	assert_list_error(PEO_TARGET_PID, "1,99999999999", -EINVAL, "item 2, \"99999999999\"");
	assert_list_error(PEO_TARGET_PID, "1;2", -EINVAL, "separated by commas");
	snprintf(list, sizeof(list), "%d,%d", (int)getpid(), (int)gone);
	assert_list_error(PEO_TARGET_PID, list, -ESRCH, "no such process");
	assert_error_contains("item 2, pid ");
	assert_list_error(PEO_TARGET_TID, list, -ESRCH, "no such thread");
	assert_error_contains("target tids");
	assert_list_error(PEO_TARGET_TID, "5,x", -EINVAL, "item 2, \"x\"");
}

static void tid_list_names_threads(void **state)
{
	char list[96];
	struct peo_target *t;
	struct worker w;

	(void)state;
	worker_start(&w);
	snprintf(list, sizeof(list), "%d,%d,%d", (int)w.tid, (int)getpid(), (int)w.tid);
	PEO_OPTS(peo_target_opts, o, .kind = PEO_TARGET_TID, .pids = list);
	t = peo_test_target(&o);
	assert_int_equal(peo_target_thread_count(t), 2); /* sorted, the repeat dropped */
	assert_int_equal(peo_target_thread(t, 0), getpid());
	assert_int_equal(peo_target_thread(t, 1), w.tid);
	peo_target_free(t);

	snprintf(list, sizeof(list), "%d", (int)w.tid);
	t = peo_test_target(&o); /* only the thread, not its process */
	assert_int_equal(peo_target_thread_count(t), 1);
	assert_int_equal(peo_target_thread(t, 0), w.tid);
	peo_target_free(t);
	worker_finish(&w, 0);
}

/* per_cpu: a task target with a slot per online CPU, as perf record's rings. */
static void per_cpu_task_target_has_each_online_cpu(void **state)
{
	PEO_OPTS(peo_target_opts, o, .kind = PEO_TARGET_PID, .pid = getpid(), .per_cpu = 1);
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	struct peo_target *t = peo_test_target(&o), *any;

	(void)state;
	assert_int_equal(peo_target_cpu_count(t), online);
	assert_int_equal(peo_target_cpu(t, 0), 0);
	assert_int_equal(peo_target_thread(t, 0), getpid());
	o.per_cpu = 0; /* the default: one slot, any CPU */
	any = peo_test_target(&o);
	assert_int_equal(peo_target_cpu_count(any), 1);
	assert_int_equal(peo_target_cpu(any, 0), -1);
	assert_int_equal(peo_target_thread_count(any), peo_target_thread_count(t));
	peo_target_free(any);
	peo_target_free(t);
}

/* A caller built before .pids existed never has it read. */
static void pids_beyond_an_older_size_are_not_read(void **state)
{
	struct peo_target_opts o = {
		.sz = offsetof(struct peo_target_opts, pids),
		.kind = PEO_TARGET_TID,
		.pid = getpid(),
		.pids = "not read",
	};
	struct peo_target *t = peo_test_target(&o);

	(void)state;
	assert_int_equal(peo_target_thread_count(t), 1);
	assert_int_equal(peo_target_thread(t, 0), getpid());
	peo_target_free(t);
}

static void all_threads_lists_the_living(void **state)
{
	PEO_OPTS(peo_target_opts, o, .kind = PEO_TARGET_ALL_THREADS);
	pid_t zombie = make_zombie();
	struct peo_target *t;
	struct worker w;

	(void)state;
	worker_start(&w);
	t = peo_test_target(&o);
	assert_int_equal(peo_target_kind(t), PEO_TARGET_ALL_THREADS);
	assert_true(thread_index(t, getpid()) >= 0);
	assert_true(thread_index(t, w.tid) >= 0);
	assert_true(thread_index(t, 1) >= 0); /* init */
	assert_int_equal(thread_index(t, zombie), -1); /* the kernel would refuse it */
	assert_sorted_once(t);
	assert_int_equal(peo_target_cpu(t, 0), -1);
	peo_target_free(t);

	o.cpus = "0"; /* each thread while on CPU 0 */
	t = peo_test_target(&o);
	assert_int_equal(peo_target_cpu_count(t), 1);
	assert_int_equal(peo_target_cpu(t, 0), 0);
	assert_true(peo_target_thread_count(t) > 2);
	peo_target_free(t);
	assert_int_equal(waitpid(zombie, NULL, 0), zombie);
	worker_finish(&w, 0);
}

/* ------------------------------------------------------ on the kernel */

/*
 * Open syscalls:sys_enter_getppid on the target @o names (listing every
 * thread again while one ends before its open, as peo stat does).
 */
static struct peo_group *open_getppid(const struct peo_target_opts *o, struct peo_target **t)
{
	PEO_OPTS(peo_counter_opts, co, .enabled = 1);
	struct peo_event_list *list;
	struct peo_group *g = NULL;
	int err = -ESRCH;

	assert_int_equal(peo_event_parse(&list, "syscalls:sys_enter_getppid", NULL), 1);
	for (int i = 0; i < LIST_TRIES && err == -ESRCH; i++) {
		*t = peo_test_target(o);
		err = peo_group_open_events(&g, list, 0, 1, *t, &co);
		if (err)
			peo_target_free(*t);
	}
	if (err)
		print_error("open: %s\n", peo_last_error());
	assert_int_equal(err, 0);
	peo_event_list_free(list);
	return g;
}

static uint64_t thread_count_of(const struct peo_group *g, const struct peo_target *t, pid_t tid)
{
	struct peo_count c;
	long i = thread_index(t, tid);

	assert_true(i >= 0);
	assert_int_equal(peo_group_counts(g, PEO_COUNT_THREAD, (size_t)i, &c, 1), 1);
	return c.value;
}

/* Wake the worker and the workload, make this thread's calls, wait for them all. */
static void run_all(struct worker *w, struct workload *wl)
{
	getppid_calls(SELF_CALLS);
	worker_finish(w, 1);
	workload_finish(wl);
}

/*
 * Count getppid on a target of @kind (a -p list of the workload and this
 * process, or with LIST_IS_TIDS a -t list of the worker and the workload)
 * while this thread, a worker and the workload make their calls; each
 * thread's count must be exact.
 */
enum which { MAIN_TOO = 1, EXACT_TOTAL = 2, LIST_IS_TIDS = 4 };

static void count_ours(enum peo_target_kind kind, unsigned which, void **state)
{
	char list[96];
	struct peo_target *t;
	struct peo_group *g;
	struct workload wl;
	struct peo_count c;
	struct worker w;
	uint64_t want = WORKER_CALLS + WORKLOAD_CALLS + ((which & MAIN_TOO) ? SELF_CALLS : 0);

	(void)state;
	PEO_SKIP_WITHOUT_TRACEPOINT("syscalls", "sys_enter_getppid");
	worker_start(&w);
	workload_start(&wl);
	if (which & LIST_IS_TIDS) /* not the main thread; a blank after the comma */
		snprintf(list, sizeof(list), "%d, %d", (int)w.tid, (int)wl.pid);
	else
		snprintf(list, sizeof(list), "%d,%d", (int)wl.pid, (int)getpid());
	PEO_OPTS(peo_target_opts, o, .kind = kind,
		 .pids = kind == PEO_TARGET_ALL_THREADS ? NULL : list);
	g = open_getppid(&o, &t);
	if (kind == PEO_TARGET_PID)
		assert_int_equal(peo_target_thread_count(t), 3); /* main, worker, workload */
	run_all(&w, &wl);
	assert_int_equal(peo_group_read(g, &c, 1), 1);
	if (which & EXACT_TOTAL)
		assert_int_equal(c.value, want);
	else /* other processes may call getppid too; each of ours is exact */
		assert_true(c.value >= want);
	if (which & MAIN_TOO)
		assert_int_equal(thread_count_of(g, t, getpid()), SELF_CALLS);
	assert_int_equal(thread_count_of(g, t, w.tid), WORKER_CALLS);
	assert_int_equal(thread_count_of(g, t, wl.pid), WORKLOAD_CALLS);
	peo_group_close(g);
	peo_target_free(t);
}

static void pid_list_counts_each_process(void **state)
{
	count_ours(PEO_TARGET_PID, MAIN_TOO | EXACT_TOTAL, state);
}

static void tid_list_counts_only_those_threads(void **state)
{
	count_ours(PEO_TARGET_TID, EXACT_TOTAL | LIST_IS_TIDS, state);
}

static void all_threads_count_each_thread(void **state)
{
	count_ours(PEO_TARGET_ALL_THREADS, MAIN_TOO, state);
}

/* The thread whose open answers ESRCH, as a thread that exited after
 * /proc listed it (test_target's own hook of the system call). */
static pid_t vanished;

static int open_but_vanished(struct peo_attr *attr, pid_t pid, int cpu, int group_fd,
			     unsigned long flags)
{
	long fd;

	if (pid == vanished)
		return -ESRCH;
	fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
	return fd >= 0 ? (int)fd : -errno;
}

/* A -p process's thread gone before its open is left out, as perf leaves
 * it out; a -t thread named is not (the open fails, as perf's). */
static void pid_target_drops_a_vanished_thread(void **state)
{
	PEO_OPTS(peo_counter_opts, co, .enabled = 1);
	struct peo_event_list *list;
	struct peo_target *t;
	struct peo_group *g = NULL;
	struct worker w;
	char ids[32];
	long i;

	(void)state;
	worker_start(&w);
	vanished = w.tid;
	peo_open_hook = open_but_vanished;
	assert_int_equal(peo_event_parse(&list, "task-clock", NULL), 1);
	snprintf(ids, sizeof(ids), "%d", (int)getpid());
	{
		PEO_OPTS(peo_target_opts, o, .kind = PEO_TARGET_PID, .pids = ids);

		t = peo_test_target(&o);
	}
	assert_int_equal(peo_group_open_events(&g, list, 0, 1, t, &co), 0);
	i = thread_index(t, w.tid);
	assert_true(i >= 0);
	assert_int_equal(peo_group_fd(g, (size_t)i, 0), -ESRCH);
	assert_true(peo_group_fd(g, (size_t)thread_index(t, getpid()), 0) >= 0);
	peo_group_close(g);
	peo_target_free(t);
	snprintf(ids, sizeof(ids), "%d", (int)w.tid);
	{
		PEO_OPTS(peo_target_opts, o, .kind = PEO_TARGET_TID, .pids = ids);

		t = peo_test_target(&o);
	}
	assert_int_equal(peo_group_open_events(&g, list, 0, 1, t, &co), -ESRCH);
	peo_target_free(t);
	peo_open_hook = NULL;
	peo_event_list_free(list);
	worker_finish(&w, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(pid_list_reads_like_perf),
		PEO_TEST(pid_target_drops_a_vanished_thread),
		PEO_TEST(per_cpu_task_target_has_each_online_cpu),
		PEO_TEST(pid_list_errors_name_the_item),
		PEO_TEST(tid_list_names_threads),
		PEO_TEST(pids_beyond_an_older_size_are_not_read),
		PEO_TEST(all_threads_lists_the_living),
		PEO_TEST(pid_list_counts_each_process),
		PEO_TEST(tid_list_counts_only_those_threads),
		PEO_TEST(all_threads_count_each_thread),
	};

	return PEO_TEST_MAIN("target", tests);
}
