/*
 * cmd_stat.c - `peo stat`: count events for a command, a process, a
 * thread, CPUs or a cgroup, and print them as perf stat does.
 */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <peo/peo.h>

#include "commands.h"
#include "stat_output.h"
#include "stat_session.h"

#define DEFAULT_EVENTS "task-clock,context-switches,cpu-migrations,page-faults," \
		       "cycles,instructions,branches,branch-misses"
/* perf counts CPUs with cpu-clock: task-clock follows tasks, not CPUs. */
#define DEFAULT_CPU_EVENTS "cpu-clock,context-switches,cpu-migrations,page-faults," \
			   "cycles,instructions,branches,branch-misses"

struct stat_args {
	char *events;        /* -e, joined with ',' */
	int all_cpus;        /* -a */
	const char *cpus;    /* -C */
	const char *pids;    /* -p: a list of process ids, as given */
	const char *tids;    /* -t: a list of thread ids, as given */
	struct stat_cgroup_arg *cgroups; /* each -G, in order */
	size_t ncgroups;
	enum stat_aggr aggr; /* -A / --per-thread */
	long interval_ms;    /* -I */
	int runs;            /* -r */
	const char *sep;     /* -x */
	int json;            /* -j */
	const char *output;  /* -o */
	int no_inherit;      /* -i */
	char **argv;         /* the command, or NULL */
};

/* One printed line's key and its statistics over the runs. */
struct line_stats {
	size_t event, index; /* event number; CPU or thread index in the target */
	struct peo_count last, prev; /* this run's count; the previous -I read */
	double sum, sumsq;   /* of the scaled count over runs */
};

static volatile sig_atomic_t stop_signal;
static volatile pid_t child_pid;

static void on_signal(int sig, siginfo_t *info, void *ctx)
{
	(void)ctx;
	if (sig == SIGCHLD)
		return; /* only wakes pselect() */
	stop_signal = sig;
	/* Sent by a process (kill), not the terminal: pass it to the command. */
	if (child_pid > 0 && info && info->si_code <= 0)
		kill(child_pid, sig);
}

static void install_handlers(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCHLD };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_NOCLDSTOP; /* no SA_RESTART: waits return EINTR */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: peo stat [options] [-- COMMAND [ARGS]]\n\n"
		"  -e, --event EVENTS        events to count (repeatable; default: perf's set)\n"
		"  -a, --all-cpus            every task on every online CPU\n"
		"  -C, --cpu CPUS            every task on these CPUs (\"0-3,6\")\n"
		"  -p, --pid PIDS            every thread of running processes (\"12,34\")\n"
		"  -t, --tid TIDS            running threads (\"12,34\")\n"
		"  -G, --cgroup NAMES        count the -e events before it in these cgroups, one\n"
		"                            name per event (with -a or -C; \"\" for none)\n"
		"  -A, --no-aggr, --per-cpu  one line per CPU\n"
		"      --per-thread          one line per thread (of -p, -t, or with -a of\n"
		"                            every process)\n"
		"  -I, --interval-print MS   print the counts of each MS-millisecond interval\n"
		"  -r, --repeat N            run the command N times; print means and spread\n"
		"  -x, --field-separator SEP CSV output, perf's columns\n"
		"  -j, --json-output         JSON output, perf's keys\n"
		"  -o, --output FILE         write to FILE instead of stderr\n"
		"  -i, --no-inherit          do not count the command's children\n");
}

/* -G applies to the events before it, so keep where it stood. */
static int add_cgroup_arg(struct stat_args *a, const char *names)
{
	struct stat_cgroup_arg *more = realloc(a->cgroups, (a->ncgroups + 1) * sizeof(*more));

	if (!more)
		return -1;
	a->cgroups = more;
	more[a->ncgroups].names = names;
	more[a->ncgroups].events_len = a->events ? strlen(a->events) : 0;
	a->ncgroups++;
	return 0;
}

/* -p/-t LIST: every id well formed and alive now (the sentence names the item). */
static int check_id_list(int opt, const char *list)
{
	PEO_OPTS(peo_target_opts, o, .kind = opt == 'p' ? PEO_TARGET_PID : PEO_TARGET_TID,
		 .pids = list);
	struct peo_target *t;

	if (peo_target_new(&t, &o)) {
		fprintf(stderr, "peo stat: -%c: %s\n", opt, peo_last_error());
		return -1;
	}
	peo_target_free(t);
	return 0;
}

/* --per-thread -a: every thread in the system, each its own line. */
static int per_thread_all(const struct stat_args *a)
{
	return a->aggr == STAT_AGGR_THREAD && a->all_cpus && !a->cpus && !a->pids && !a->tids;
}

static int check_per_thread(const struct stat_args *a)
{
	if (a->aggr != STAT_AGGR_THREAD || a->pids || a->tids || per_thread_all(a))
		return 0;
	/* as perf: a command's threads are not known before they run */
	fprintf(stderr, "peo stat: --per-thread needs -p PIDS, -t TIDS, or -a without -C (every "
		"thread in the system)%s\n", a->cpus ? "; -C counts CPUs, not threads: drop it"
						 : "; add one of them");
	return 2;
}

/* Combinations that cannot work; returns 0 or the usage error's exit status. */
static int check_args(struct stat_args *a)
{
	if (!a->argv && !a->pids && !a->tids && !a->all_cpus && !a->cpus) {
		fprintf(stderr, "peo stat: nothing to count: give a command (peo stat -- CMD), "
			"-p PIDS, -t TIDS, -a or -C CPUS\n");
		return 2;
	}
	if (a->pids && a->tids) {
		fprintf(stderr, "peo stat: -p and -t: give one of them\n");
		return 2;
	}
	if ((a->pids || a->tids) && (a->all_cpus || a->cpus)) {
		/* perf's "PID/TID switch overriding SYSTEM" (or CPU) */
		fprintf(stderr, "peo stat: -%c overrides %s: counting only the listed %s, on any "
			"CPU (as perf does)\n", a->pids ? 'p' : 't', a->cpus ? "-C" : "-a",
			a->pids ? "processes" : "threads");
		a->all_cpus = 0;
		a->cpus = NULL;
	}
	if (a->ncgroups && !a->all_cpus && !a->cpus) {
		fprintf(stderr, "peo stat: -G '%s': cgroups are counted per CPU; add -a or -C CPUS\n",
			a->cgroups[0].names);
		return 2;
	}
	if (check_per_thread(a))
		return 2;
	if (per_thread_all(a) && a->ncgroups) {
		fprintf(stderr, "peo stat: -G with --per-thread -a: cgroups are counted per CPU, "
			"--per-thread -a per thread; drop one of them (perf prints no counts)\n");
		return 2;
	}
	if (per_thread_all(a) && a->runs > 1) {
		fprintf(stderr, "peo stat: -r %d with --per-thread -a: each run counts the "
			"threads alive when it starts, so runs cannot be averaged thread by "
			"thread; drop -r, or name fixed threads with -p or -t\n", a->runs);
		return 2;
	}
	return 0;
}

/* Returns 0, or the exit status for a usage error (-1 for --help). */
static int parse_args(int argc, char **argv, struct stat_args *a)
{
	static const struct option longs[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "cgroup", required_argument, NULL, 'G' },
		{ "no-aggr", no_argument, NULL, 'A' },
		{ "per-cpu", no_argument, NULL, 'A' },
		{ "per-thread", no_argument, NULL, 'T' },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json-output", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "no-inherit", no_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long v;
	int c;

	a->runs = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+e:aC:p:t:G:AI:r:x:jo:ih", longs, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (list_arg_append(&a->events, optarg))
				return 1;
			break;
		case 'a': a->all_cpus = 1; break;
		case 'C': a->cpus = optarg; break;
		case 'p':
		case 't':
			if (check_id_list(c, optarg))
				return 2;
			*(c == 'p' ? &a->pids : &a->tids) = optarg;
			break;
		case 'G':
			if (add_cgroup_arg(a, optarg))
				return 1;
			break;
		case 'A': a->aggr = STAT_AGGR_CPU; break;
		case 'T': a->aggr = STAT_AGGR_THREAD; break;
		case 'I':
			if (number_arg("stat", "-I", optarg, 1, LONG_MAX, "", &a->interval_ms))
				return 2;
			break;
		case 'r':
			if (number_arg("stat", "-r", optarg, 1, LONG_MAX, "", &v))
				return 2;
			a->runs = (int)v;
			break;
		case 'x': a->sep = optarg; break;
		case 'j': a->json = 1; break;
		case 'o': a->output = optarg; break;
		case 'i': a->no_inherit = 1; break;
		case 'h': usage(stdout); return -1;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc)
		a->argv = argv + optind;
	return check_args(a);
}

/* What "Performance counter stats for ..." names. */
static void target_text(const struct stat_args *a, char *out, size_t cap)
{
	size_t len;

	if (a->pids)
		snprintf(out, cap, "process id '%s'", a->pids);
	else if (a->tids)
		snprintf(out, cap, "thread id '%s'", a->tids);
	else if (a->cpus && !a->all_cpus)
		snprintf(out, cap, "'CPU(s) %s'", a->cpus);
	else if (a->all_cpus)
		snprintf(out, cap, "'system wide'");
	else {
		len = (size_t)snprintf(out, cap, "'");
		for (char **p = a->argv; *p && len + 2 < cap; p++)
			len += (size_t)snprintf(out + len, cap - len, "%s%s", p == a->argv ? "" : " ", *p);
		if (len + 2 >= cap)
			len = cap - 2;
		snprintf(out + len, cap - len, "'");
	}
}

/* Where to count; events with a -G cgroup count in it on these CPUs. */
static void target_opts(const struct stat_args *a, pid_t child, struct peo_target_opts *o)
{
	o->cpus = a->cpus; /* NULL: every online CPU */
	if (per_thread_all(a)) {
		o->kind = PEO_TARGET_ALL_THREADS; /* as perf: each thread on any CPU */
	} else if (a->all_cpus || a->cpus) {
		o->kind = PEO_TARGET_CPUS;
	} else if (a->pids) {
		o->kind = PEO_TARGET_PID;
		o->pids = a->pids;
	} else if (a->tids) {
		o->kind = PEO_TARGET_TID;
		o->pids = a->tids;
	} else {
		o->kind = PEO_TARGET_TID;
		o->pid = child;
	}
}

/* ------------------------------------------------------------ the lines */

static enum peo_count_by count_by(enum stat_aggr aggr)
{
	return aggr == STAT_AGGR_CPU ? PEO_COUNT_CPU : aggr == STAT_AGGR_THREAD ? PEO_COUNT_THREAD
										: PEO_COUNT_ALL;
}

static size_t keys_per_event(const struct stat_session *s, enum stat_aggr aggr)
{
	return aggr == STAT_AGGR_CPU ? s->ncpus : aggr == STAT_AGGR_THREAD ? s->nthreads : 1;
}

/* Take this read into each line's `last`. */
static void collect(const struct stat_session *s, enum stat_aggr aggr, struct line_stats *ls,
		    size_t nlines)
{
	for (size_t l = 0; l < nlines; l++)
		stat_session_count(s, ls[l].event, count_by(aggr), ls[l].index, &ls[l].last);
}

/* The standard deviation of the mean of @n samples with @sum and @sumsq. */
static double stddev_of_mean(double sum, double sumsq, int n)
{
	double mean = sum / n, var = sumsq / n - mean * mean; /* population variance */

	return n > 1 && var > 0 ? sqrt(var / (n - 1)) : 0;
}

static struct peo_count delta(const struct peo_count *now, const struct peo_count *before)
{
	struct peo_count d = *now;

	d.value -= before->value;
	d.time_enabled -= before->time_enabled;
	d.time_running -= before->time_running;
	d.scaled = peo_count_scale(d.value, d.time_enabled, d.time_running);
	return d;
}

static void fill_line(struct stat_line *out, const struct stat_session *s, enum stat_aggr aggr,
		      const struct line_stats *ls, const struct peo_count *c, int runs)
{
	const struct stat_event *e = &s->events[ls->event];

	memset(out, 0, sizeof(*out));
	out->event = peo_event_name(e->ev);
	out->unit = peo_event_unit(e->ev);
	out->attr = peo_event_attr(e->ev);
	out->scale = peo_event_scale(e->ev);
	out->cpu = aggr == STAT_AGGR_CPU ? s->cpus[ls->index] : -1;
	out->cgroup = e->cgroup;
	if (aggr == STAT_AGGR_THREAD) {
		out->tid = (int)s->tids[ls->index];
		out->comm = s->comms[ls->index];
	}
	out->enabled = c->time_enabled;
	out->running = c->time_running;
	out->value = (double)c->scaled;
	out->stddev_pct = -1;
	if (e->open_errno)
		out->state = STAT_NOT_SUPPORTED;
	else if (!c->time_running)
		out->state = STAT_NOT_COUNTED;
	if (runs > 1) {
		/* We print the mean over the runs (perf 6.1 prints the last run's
		 * count, which the man page's "average" does not describe). */
		double mean = ls->sum / runs;

		out->value = mean;
		out->run_mean = mean;
		out->stddev_pct = mean ? 100.0 * stddev_of_mean(ls->sum, ls->sumsq, runs) / mean : 0;
	}
}

/* Busiest first; ties in thread order, as perf's stable sort leaves them. */
static int by_value_desc(const void *x, const void *y)
{
	const struct stat_line *a = x, *b = y;

	if (a->value != b->value)
		return (a->value < b->value) - (a->value > b->value);
	return (a->tid > b->tid) - (a->tid < b->tid);
}

/* Whether @ls is the line of a thread that exited before its counter was
 * opened (--per-thread -p): perf leaves such threads out. */
static int thread_gone(const struct stat_session *s, enum stat_aggr aggr,
		       const struct line_stats *ls)
{
	const struct stat_event *e = &s->events[ls->event];

	return aggr == STAT_AGGR_THREAD && e->group &&
	       peo_group_slot_count(e->group) == s->nthreads &&
	       peo_group_fd(e->group, ls->index, e->member) == -ESRCH;
}

/*
 * Build and print every line; @interval_ts < 0 outside -I.  @all_threads:
 * --per-thread -a, where perf prints only the threads with a count (the
 * rest stay as metric denominators, as in perf's shadow stats).
 */
static void print_all(const struct stat_output_opts *oo, const struct stat_session *s,
		      enum stat_aggr aggr, int all_threads, struct line_stats *ls, size_t nlines,
		      int runs, double elapsed_ns, double interval_ts)
{
	struct stat_line *lines = calloc(nlines, sizeof(*lines));
	size_t per = keys_per_event(s, aggr);

	if (!lines)
		return;
	for (size_t l = 0; l < nlines; l++) {
		struct peo_count c = interval_ts >= 0 ? delta(&ls[l].last, &ls[l].prev) : ls[l].last;

		fill_line(&lines[l], s, aggr, &ls[l], &c, runs);
		lines[l].hidden = (all_threads && lines[l].value == 0) ||
				  thread_gone(s, aggr, &ls[l]);
	}
	/* --per-thread: each event's threads, busiest first, as perf sorts them */
	for (size_t first = 0; aggr == STAT_AGGR_THREAD && first < nlines; first += per)
		qsort(lines + first, per, sizeof(*lines), by_value_desc);
	stat_print_lines(oo, lines, nlines, elapsed_ns, interval_ts);
	free(lines);
}

/* ------------------------------------------------------------ one run */

struct run_result {
	double elapsed_s;
	struct rusage usage;
	int have_usage;
	int status; /* the command's wait status, or -1 */
	int own_command; /* the counters counted the command itself */
};

/* Is some -p/-t thread still there?  perf too counts until all have gone. */
static int target_alive(const struct stat_args *a, const struct stat_session *s)
{
	if (!a->pids && !a->tids)
		return 1;
	for (size_t i = 0; i < s->nthreads; i++)
		if (kill(s->tids[i], 0) == 0 || errno != ESRCH)
			return 1;
	return 0;
}

static int child_has_exited(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

/*
 * Wait for the end of the run: the command's exit, a signal, or the -p/-t
 * target's exit; in -I mode print each interval meanwhile.  Signals are
 * blocked except inside pselect(), so none is missed between a check and
 * the sleep.
 */
static int wait_for_end(const struct stat_args *a, struct peo_child *child,
			const struct stat_output_opts *oo, struct stat_session *s,
			struct line_stats *ls, size_t nlines, double t0)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD };
	double tick = a->interval_ms / 1e3, next = t0 + tick;
	sigset_t block, orig;
	int err = 0;

	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&block, sigs[i]);
	sigprocmask(SIG_BLOCK, &block, &orig);
	for (;;) {
		double wait;

		if (child ? child_has_exited(peo_child_pid(child))
			  : (stop_signal || !target_alive(a, s)))
			break;
		wait = a->interval_ms ? next - now_s() : child ? 3600 : 0.1;
		if (wait > 0) {
			struct timespec ts = { .tv_sec = (time_t)wait };

			ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
			pselect(0, NULL, NULL, NULL, &ts, &orig);
		}
		if (!a->interval_ms || now_s() < next)
			continue;
		err = stat_session_read(s);
		if (err)
			break;
		collect(s, oo->aggr, ls, nlines);
		print_all(oo, s, oo->aggr, per_thread_all(a), ls, nlines, 1, a->interval_ms * 1e6,
			  now_s() - t0);
		for (size_t l = 0; l < nlines; l++)
			ls[l].prev = ls[l].last;
		next += tick;
	}
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return err;
}

/*
 * Open the session with the soft fd limit raised to the hard one, as perf
 * raises it on EMFILE: --per-thread -a opens an fd per event and thread.
 * The old limit comes back after, so the next run's command keeps it.
 */
static int open_counters(struct stat_session *s, const struct peo_target_opts *where,
			 const struct peo_counter_opts *co)
{
	struct rlimit old, raised;
	int have = getrlimit(RLIMIT_NOFILE, &old) == 0, err;

	raised = old;
	raised.rlim_cur = old.rlim_max;
	/* may fail (rlim_max over nr_open); an open that runs out then says so */
	if (have && raised.rlim_cur != old.rlim_cur)
		setrlimit(RLIMIT_NOFILE, &raised);
	err = stat_session_open(s, where, co);
	if (have)
		setrlimit(RLIMIT_NOFILE, &old);
	return err;
}

/* Spawn the command (if any), open the counters, count until the end, read. */
static int one_run(const struct stat_args *a, struct stat_session *s,
		   const struct stat_output_opts *oo, struct line_stats **ls, size_t *nlines,
		   struct run_result *r)
{
	PEO_OPTS(peo_counter_opts, co);
	PEO_OPTS(peo_target_opts, where);
	struct peo_child *child = NULL;
	int cpu_wide = (a->all_cpus || a->cpus) && !per_thread_all(a), ret = 1;
	double t0;

	r->status = -1;
	r->have_usage = 0;
	if (a->argv && peo_child_spawn(&child, (const char *const *)a->argv)) {
		fprintf(stderr, "peo stat: %s\n", peo_last_error());
		return 1;
	}
	child_pid = child ? peo_child_pid(child) : 0;
	target_opts(a, child_pid, &where);
	co.inherit = !cpu_wide && !a->no_inherit;
	/* The command's own counters start at its exec; others when timing starts. */
	co.enable_on_exec = child && where.kind == PEO_TARGET_TID && !where.pids;
	if (open_counters(s, &where, &co))
		goto out;
	if (!*ls) {
		size_t per = keys_per_event(s, oo->aggr);

		*nlines = s->nevents * per;
		*ls = calloc(*nlines ? *nlines : 1, sizeof(**ls));
		if (!*ls)
			goto out;
		for (size_t l = 0; l < *nlines; l++) {
			(*ls)[l].event = l / per;
			(*ls)[l].index = l % per;
		}
	}
	for (size_t l = 0; l < *nlines; l++)
		memset(&(*ls)[l].prev, 0, sizeof((*ls)[l].prev));
	t0 = now_s();
	if (!co.enable_on_exec && stat_session_enable(s, 1))
		goto out;
	if (child && peo_child_start(child)) {
		fprintf(stderr, "peo stat: %s\n", peo_last_error());
		ret = 127;
		goto out;
	}
	/* --per-thread -a lists the waiting command as "peo": name it as it runs now */
	if (child && where.kind == PEO_TARGET_ALL_THREADS)
		stat_session_reread_comm(s, peo_child_pid(child));
	if (wait_for_end(a, child, oo, s, *ls, *nlines, t0))
		goto out;
	r->elapsed_s = now_s() - t0;
	if (!co.enable_on_exec && stat_session_enable(s, 0))
		goto out;
	r->own_command = co.enable_on_exec;
	while (child) {
		int err = peo_child_wait(child, &r->status, &r->usage);

		if (err == -EINTR)
			continue;
		if (err) {
			fprintf(stderr, "peo stat: %s\n", peo_last_error());
			goto out;
		}
		r->have_usage = 1;
		break;
	}
	child_pid = 0;
	if (stat_session_read(s))
		goto out;
	collect(s, oo->aggr, *ls, *nlines);
	if (a->interval_ms) /* the last, partial interval, as perf prints it */
		print_all(oo, s, oo->aggr, per_thread_all(a), *ls, *nlines, 1,
			  a->interval_ms * 1e6, r->elapsed_s);
	ret = 0;
out:
	child_pid = 0;
	stat_session_close(s);
	peo_child_free(child);
	return ret;
}

static int nmi_watchdog_on(void)
{
	FILE *f = fopen("/proc/sys/kernel/nmi_watchdog", "re");
	int on = 0;

	if (f) {
		on = fgetc(f) == '1';
		fclose(f);
	}
	return on;
}

static FILE *open_output(const char *path)
{
	FILE *out;
	time_t now = time(NULL);
	char when[64];

	if (!path)
		return stderr;
	out = fopen(path, "we");
	if (!out) {
		fprintf(stderr, "peo stat: -o '%s': %s\n", path, strerror(errno));
		return NULL;
	}
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", localtime(&now));
	fprintf(out, "# started on %s\n\n", when); /* as perf stat -o writes */
	return out;
}

/* The command's status: its exit code, or 128 + the signal that ended it. */
static int final_status(const struct run_result *r)
{
	if (r->status == -1)
		return 0;
	if (WIFSIGNALED(r->status))
		fprintf(stderr, "peo stat: the command was ended by signal %d (%s)\n",
			WTERMSIG(r->status), strsignal(WTERMSIG(r->status)));
	return peo_exit_code(r->status);
}

int cmd_stat(int argc, char **argv)
{
	struct stat_args a = { 0 };
	struct stat_output_opts oo = { 0 };
	struct stat_session s = { 0 };
	struct line_stats *ls = NULL;
	struct run_result r = { 0 };
	struct stat_times times = { 0 };
	double elapsed_sum = 0, elapsed_sumsq = 0;
	char text[512];
	size_t nlines = 0;
	int ret, runs_done = 0;

	ret = parse_args(argc, argv, &a);
	if (ret)
		goto done;
	ret = 1;
	if (stat_session_parse(&s, a.events ? a.events : a.all_cpus || a.cpus ? DEFAULT_CPU_EVENTS
								      : DEFAULT_EVENTS))
		goto done;
	if (stat_session_set_cgroups(&s, a.cgroups, a.ncgroups)) {
		ret = 2; /* a usage error, as parse_args's */
		goto done;
	}
	oo.out = open_output(a.output);
	if (!oo.out)
		goto done;
	oo.format = a.json ? STAT_FORMAT_JSON : a.sep ? STAT_FORMAT_CSV : STAT_FORMAT_HUMAN;
	oo.sep = a.sep ? a.sep : ",";
	oo.runs = a.runs;
	oo.interval = a.interval_ms > 0;
	oo.aggr = a.aggr;
	oo.cgroups = a.ncgroups > 0;
	target_text(&a, text, sizeof(text));
	oo.target_text = text;
	install_handlers();
	if (oo.interval)
		stat_print_interval_header(&oo);
	for (int run = 0; run < a.runs && !stop_signal; run++) {
		ret = one_run(&a, &s, &oo, &ls, &nlines, &r);
		if (ret)
			goto done;
		runs_done++;
		elapsed_sum += r.elapsed_s;
		elapsed_sumsq += r.elapsed_s * r.elapsed_s;
		for (size_t l = 0; l < nlines; l++) {
			ls[l].sum += (double)ls[l].last.scaled;
			ls[l].sumsq += (double)ls[l].last.scaled * (double)ls[l].last.scaled;
		}
	}
	if (!oo.interval) {
		oo.runs = runs_done;
		stat_print_header(&oo);
		print_all(&oo, &s, a.aggr, per_thread_all(&a), ls, nlines, runs_done,
			  elapsed_sum / runs_done * 1e9, -1);
		times.elapsed_s = elapsed_sum / runs_done;
		times.elapsed_stddev_s = stddev_of_mean(elapsed_sum, elapsed_sumsq, runs_done);
		times.have_rusage = r.have_usage && r.own_command && runs_done == 1;
		times.user_s = r.usage.ru_utime.tv_sec + r.usage.ru_utime.tv_usec / 1e6;
		times.sys_s = r.usage.ru_stime.tv_sec + r.usage.ru_stime.tv_usec / 1e6;
		for (size_t l = 0; l < nlines; l++)
			if (!s.events[ls[l].event].open_errno && !ls[l].last.time_running)
				times.nmi_watchdog_hint = nmi_watchdog_on();
		stat_print_footer(&oo, &times);
	}
	ret = final_status(&r);
done:
	if (oo.out && oo.out != stderr) {
		char name[4200];

		snprintf(name, sizeof(name), "'%s'", a.output);
		if (output_finish("stat", oo.out, name) && ret >= 0 && !ret)
			ret = 1; /* counted, but the counts were lost */
	}
	fflush(stderr);
	stat_session_free(&s);
	free(ls);
	free(a.events);
	free(a.cgroups);
	if (ret >= 0 && stop_signal && !r.have_usage) {
		/* Interrupted with no command: end as the signal would have, as perf does. */
		signal(stop_signal, SIG_DFL);
		raise(stop_signal);
	}
	return ret < 0 ? 0 : ret;
}
