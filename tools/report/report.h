/*
 * report/report.h - peo report: a recording's samples aggregated by stack
 * (the library's peo_profile, report/collect.c), then grouped into rows
 * by the sort keys and printed as perf report --stdio prints them
 * (report/table.c).
 */
#ifndef PEO_TOOLS_REPORT_H
#define PEO_TOOLS_REPORT_H

#include <regex.h>
#include <stdint.h>
#include <stdio.h>

#include <peo/peo.h>

/* The sort keys (perf's names).  PERIOD, SAMPLE, OVERHEAD and CHILDREN
 * are columns that group nothing: the row's own period, samples and
 * share, and the share of the samples whose chain holds it. */
enum report_key {
	KEY_COMM, KEY_PID, KEY_DSO, KEY_SYM, KEY_CPU, KEY_SYMOFF, KEY_SRCLINE, KEY_SRCFILE,
	KEY_PARENT, KEY_PERIOD, KEY_SAMPLE, KEY_OVERHEAD, KEY_CHILDREN,
};

#define REPORT_MAX_KEYS 8

/* A sample's ip frame whose callchain perf has as empty: a dwarf sample
 * whose user stack unwound to nothing (no callers known, no graph). */
#define REPORT_FRAME_NO_CALLERS (1u << 31)

/* -g: how the call graphs under the rows are printed (perf's modes). */
enum callgraph_mode { CG_NONE, CG_GRAPH, CG_FRACTAL, CG_FLAT, CG_FOLDED };
enum callgraph_value { CG_PERCENT, CG_PERIOD, CG_COUNT };

struct callgraph_opts {
	enum callgraph_mode mode;
	int caller;          /* the outermost frame first (else the leaf) */
	double min_percent;  /* branches of less are left out */
	enum callgraph_value value;
	unsigned print_limit; /* entries, branches or chains printed at most (0: all) */
	int skip_first;      /* -s starts with sym: the row's own symbol not repeated */
};

/* A filter's comma-separated values (--comms, --dsos, --symbols, --pid,
 * --tid): split in place in @list; @n 0 when not given. */
struct report_filter {
	char *list;
	char *v[64];
	size_t n;
};

struct report_args {
	const char *input;
	/* -F: the columns in this order (keys and overhead, overhead_children,
	 * period, sample), then -s's keys not among them */
	enum report_key fields[REPORT_MAX_KEYS];
	int nfields;
	int keys_given;      /* -s given */
	/* what report_print() makes of them: the columns, and the fields the
	 * rows are sorted by (the first first) */
	enum report_key cols[2 * REPORT_MAX_KEYS + 2], order[2 * REPORT_MAX_KEYS + 2];
	int ncols, norder;
	const char *base;    /* -i given twice: the first, the before (input the after) */
	enum report_key keys[REPORT_MAX_KEYS];
	int nkeys;
	int children;        /* 1: --children, 0: --no-children, -1: perf's default */
	double percent_limit;
	int quiet;           /* -q: the rows alone */
	int header;          /* --header: the file's header first (perf's layout) */
	int show_info;       /* -I: the header's features whole */
	struct callgraph_opts cg; /* -g: the call graphs under the rows */
	int cg_order_given;  /* -g caller or callee given (else by --children) */
	int folded;          /* --folded: the stacks as folded lines, no table */
	const char *flamegraph; /* --flamegraph FILE: the stacks as an SVG flame graph, no table */
	const char *pprof;      /* --pprof FILE: the profile as pprof's profile.proto, gzipped */
	const char *symfs, *kallsyms, *vmlinux;
	int want_lines;      /* a key needs the frames' source lines (srcline, srcfile) */
	const regex_t *parent; /* -p: what names a stack's parent (the parent key) */
	/* rows of these alone, their shares of all samples (perf's
	 * --percentage absolute) */
	struct report_filter comms, dsos, symbols, pids, tids;
	/* --time START,END: the samples from START to END alone (ns, both
	 * in; 0 and UINT64_MAX when not given), the argument as given */
	uint64_t time_start, time_end;
	const char *time;
};

/* A recording read: its samples' stacks, per event. */
struct report_data {
	struct peo_perfdata *f;
	struct peo_symbols *syms;
	struct peo_processes *procs;
	struct peo_profile *profile;
	uint64_t lost_samples;  /* LOST_SAMPLES records' */
	int has_callchains;     /* some event samples its callchain */
	uint64_t state_gen;     /* state records so far: a cached frame of an older one is stale */
	struct report_cached *cache; /* frames looked up, by address (collect.c) */
	struct report_raw *raw;      /* samples' raw stacks, their profile stacks (collect.c) */
	const struct report_args *args; /* the command's (collect.c keeps it) */
	int lines_failed;       /* out of memory for them: the lines are missing */
	struct report_lines *lines; /* --pprof: each user frame's source lines (lines.c) */
};

/* Read @a->input into @d.  0, or -1 after saying why on stderr. */
int report_collect(const struct report_args *a, struct report_data *d);

/* Free what report_collect() made; with @exiting (the command exits
 * next), its processes and symbols are left to the exit (exit_keep()). */
void report_data_free(struct report_data *d, int exiting);

/* Print the report of @d as perf report --stdio.  0, or -1 (out of memory, said). */
int report_print(const struct report_args *a, struct report_data *d);

/* report/folded.c: @d's stacks as folded lines. */
enum fold_kind { FOLD_COMM, FOLD_USER, FOLD_KERNEL, FOLD_JIT, FOLD_INLINED };

struct fold_line {
	size_t at;        /* its text: comm;outer;...;leaf, NUL-terminated */
	size_t kinds_at;  /* its fields' kinds (enum fold_kind), one per ';'-separated field */
	uint64_t weight;  /* the samples' periods (a tracepoint's: their count) */
	uint64_t count;   /* the samples */
};

struct folded {
	char *text;
	unsigned char *kinds;
	struct fold_line *lines; /* sorted bytewise, no two the same */
	size_t n;
	const char *event;       /* the event kept (tracepoints' too), or NULL */
	uint64_t total_weight, total_count;
};

/* @d's stacks folded into *@f (report_fold_free() frees it): the lines
 * stackcollapse-perf.pl makes of perf script's output.  0, or -1 (out of
 * memory, said). */
int report_fold(struct report_data *d, struct folded *f);
void report_fold_free(struct folded *f);

/* A line of two profiles (a baseline's and another's): its weight and
 * samples in each, 0 where it is not. */
struct fold_pair {
	const char *text;            /* comm;outer;...;leaf */
	const unsigned char *kinds;  /* its fields' kinds */
	uint64_t weight, count;      /* the other profile's */
	uint64_t base_weight, base_count;
};

/* The lines of @base and @f (report_fold()'s) joined by their text into
 * *@out (free() it; its strings are theirs), *@n of them, sorted
 * bytewise.  0, or -1 (out of memory, said). */
int report_fold_join(const struct folded *base, const struct folded *f, struct fold_pair **out,
		     size_t *n);

/* report_fold() of @base into *@fb and of @d into *@f (both freed on a
 * failure).  0, or -1 (said). */
int report_fold_two(struct report_data *base, struct report_data *d, struct folded *fb,
		    struct folded *f);

/* Print the stacks of @base and @d as difffolded.pl's lines ("comm;...;
 * leaf base-weight weight") on @out.  0, or -1 (said). */
int report_folded_diff(struct report_data *base, struct report_data *d, FILE *out);

/* Print @d's stacks as folded lines ("comm;outer;...;leaf weight") on
 * @out, as FlameGraph's stackcollapse-perf.pl makes them of perf script's
 * output (report/folded.c).  0, or -1 (out of memory or a write failed,
 * said). */
int report_folded(struct report_data *d, FILE *out);

/* table.c: whether stack @st is one of the filters' (@a): its comm, pid
 * and tid among theirs, and a frame in one of --dsos and one of
 * --symbols: what --folded, --flamegraph and --pprof keep. */
int report_stack_passes(const struct report_args *a, const struct peo_profile_stack *st);

/* report/lines.c: user frame @fr's source lines (where its binary and
 * offset are first seen: looked up on a worker thread meanwhile).  0, or
 * -1 out of memory. */
int report_lines_add(struct report_data *d, const struct peo_frame *fr);
/* Every frame's lines looked up (the worker joined): before
 * report_lines_find().  0, or -1 when some were lost for memory. */
int report_lines_finish(struct report_data *d);
/* The lines kept for @offset of binary @dso (the frames' own pointer):
 * innermost first, *@n of them; NULL when none. */
const struct peo_srcline *report_lines_find(const struct report_data *d, const char *dso,
					    uint64_t offset, size_t *n);
void report_lines_free(struct report_lines *t);

/* Write @d's profile to @path as pprof's profile.proto, gzipped
 * (report/pprof.c), @input named in its comment.  0, or -1 (said). */
int report_pprof(struct report_data *d, const char *path, const char *input);

/* Write @d's folded stacks as an interactive SVG flame graph to @path,
 * titled by @input (report/flamegraph.c).  0, or -1 (said). */
int report_flamegraph(struct report_data *d, const char *path, const char *input);

/* The differential flame graph of @base (the before) and @d (the after),
 * titled by @base_input and @input: frames as wide as their share of
 * @d, red where they grew and blue where they shrank against @base
 * scaled to @d's total (report/flamegraph.c).  0, or -1 (said). */
int report_flamegraph_diff(struct report_data *base, struct report_data *d, const char *path,
			   const char *base_input, const char *input);

/* report/callgraph.c: the rows' call graphs, one trie of frames each. */
struct callgraph;
int callgraph_new(struct callgraph **out); /* 0, or -1 out of memory */
void callgraph_free(struct callgraph *g);
/* A new row's tree: its root node; 0 out of memory. */
uint32_t callgraph_root(struct callgraph *g);
/* Add the chain of @n frames at @frames[0], @frames[@step], ... (@step
 * -1 walks back) with its samples' @period and @count under @root.  0, or
 * -1 out of memory. */
int callgraph_add(struct callgraph *g, uint32_t root, const struct peo_frame *const *frames,
		  size_t n, int step, uint64_t period, uint64_t count);
/* Print @root's tree on @out as perf report --stdio does under a row
 * whose own period is @row_period: shares of @total, branches under
 * @o->min_percent of @callchain_total (fractal: of the branches where
 * they start) left
 * out.  0, or -1 out of memory. */
int callgraph_print(const struct callgraph *g, uint32_t root, const struct callgraph_opts *o,
		    FILE *out, uint64_t total, uint64_t callchain_total, uint64_t row_period);

#endif
