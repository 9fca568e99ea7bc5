/*
 * stat_output.h - how `peo stat` prints what it counted, in perf stat's
 * three formats: the human table, -x SEP (CSV) and -j (JSON lines).  The
 * counting is done elsewhere; this file only formats, including the derived
 * metric column ("CPUs utilized", "/sec", "insn per cycle", ...).
 */
#ifndef PEO_TOOLS_STAT_OUTPUT_H
#define PEO_TOOLS_STAT_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

struct peo_attr;

enum stat_format { STAT_FORMAT_HUMAN, STAT_FORMAT_CSV, STAT_FORMAT_JSON };

/* How lines are split: only the -I column header depends on it. */
enum stat_aggr {
	STAT_AGGR_GLOBAL, /* one line per event */
	STAT_AGGR_CPU,    /* -A: per CPU */
	STAT_AGGR_THREAD  /* --per-thread */
};

enum stat_state {
	STAT_COUNTED,       /* value is meaningful */
	STAT_NOT_SUPPORTED, /* the event could not be opened: "<not supported>" */
	STAT_NOT_COUNTED    /* opened but never ran (running == 0): "<not counted>" */
};

/* One printed line: one event, aggregated or for one CPU or thread. */
struct stat_line {
	const char *event;     /* the name the user gave (or perf's default name) */
	const char *unit;      /* sysfs .unit of the event, or "" */
	enum stat_state state;
	/*
	 * The count scaled for multiplexing, before .scale; ns for task-clock
	 * and cpu-clock.  With -r, perf 6.1 prints the last run's count,
	 * enabled and running here (not the mean: see run_mean).
	 */
	double value;
	uint64_t enabled;      /* ns, summed over what was aggregated */
	uint64_t running;      /* ns, summed over what was aggregated */
	/* with -r: the stddev of the mean count as % of value (perf 6.1
	 * divides by the printed count); else < 0 */
	double stddev_pct;
	/*
	 * With -r: the mean count over the runs.  perf 6.1 derives the other
	 * events' metrics from it (page-faults of the last run per mean
	 * task-clock second); ignored when runs is 1.
	 */
	double run_mean;
	int cpu;               /* >= 0 for a per-CPU line, else -1 */
	int tid;               /* > 0 for a per-thread line, else 0 */
	const char *comm;      /* the thread's name when tid > 0 */
	/*
	 * -G: the cgroup the event counted in, as the user named it; NULL or
	 * "" for an event in no cgroup.  Printed only when o->cgroups is set;
	 * metrics pair only events of the same cgroup, as perf's do.
	 */
	const char *cgroup;
	/*
	 * How the event was opened: perf picks the metric by type, config and
	 * the exclude_* bits (instructions:u pairs only with cycles:u).  NULL
	 * classifies perf's generic names ("cycles", "task-clock:u", ...).
	 */
	const struct peo_attr *attr;
	double scale;          /* sysfs .scale, applied to value when printed; 0 means 1 */
	/*
	 * Not printed, but still a metric denominator for the lines of its
	 * thread: --per-thread -a leaves out zero counts as perf does, whose
	 * shadow stats still hold them ("0.000 /sec" beside a hidden clock).
	 */
	int hidden;
};

struct stat_output_opts {
	FILE *out;
	enum stat_format format;
	const char *sep;         /* the -x separator (CSV only) */
	int runs;                /* -r N (1 when not given) */
	const char *target_text; /* what follows "Performance counter stats for ":
	                          * "'true'", "'sleep 1'", "process id '123'",
	                          * "thread id '5'", "'system wide'", "'CPU(s) 0,2'" */
	int interval;            /* non-zero in -I mode */
	int cgroups;             /* -G was given: every line gets a cgroup column
	                          * after the event name ("" where none) */
	enum stat_aggr aggr;     /* for the -I column header */
	/*
	 * Width of the unit column: perf uses the longest unit among the
	 * events it opened, at least 4 ("msec").  stat_print_lines widens it
	 * to the lines it is given; set it when a unit is longer than 4 so the
	 * -I header lines up too.
	 */
	int unit_width;
};

struct stat_times {
	double elapsed_s;        /* wall time of the run (mean with -r) */
	double elapsed_stddev_s; /* with -r, stddev of the mean; else 0 */
	int have_rusage;         /* a command was run: print user and sys */
	double user_s, sys_s;
	/* perf's "Some events weren't counted" hint: some line was
	 * <not counted> and /proc/sys/kernel/nmi_watchdog is 1. */
	int nmi_watchdog_hint;
};

/* Human format only: the blank line, "Performance counter stats for ...:", blank line. */
void stat_print_header(const struct stat_output_opts *o);

/*
 * Print @n lines in order.  Metrics are computed among lines of the same
 * CPU/thread: task-clock and cpu-clock give "CPUs utilized" over
 * @elapsed_ns, other events a rate per task-clock second, instructions
 * with cycles give IPC, and so on as perf does.  @interval_ts is the -I
 * timestamp in seconds printed first on each line, or < 0 outside -I mode.
 * In -I mode perf divides by the -I period, not the measured interval, so
 * pass the period as @elapsed_ns there.
 */
void stat_print_lines(const struct stat_output_opts *o, const struct stat_line *lines, size_t n,
		      double elapsed_ns, double interval_ts);

/* Human format only: the "seconds time elapsed" block (and user/sys). */
void stat_print_footer(const struct stat_output_opts *o, const struct stat_times *t);

/*
 * -I, human format: the "#           time             counts unit events"
 * line (with CPU or comm-pid per o->aggr).  perf prints it before the first
 * interval and again before every 25th.
 */
void stat_print_interval_header(const struct stat_output_opts *o);

#endif
