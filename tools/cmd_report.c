/*
 * cmd_report.c - peo report: where the samples of a perf.data file went,
 * by command, binary and function (perf report's default keys), printed
 * as perf report --stdio prints them.  This file reads the options;
 * report/collect.c reads the file, report/table.c prints.
 */
#include <getopt.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report/report.h"

static const struct {
	const char *name;
	enum report_key key;
} key_names[] = {
	{ "comm", KEY_COMM }, { "pid", KEY_PID }, { "dso", KEY_DSO }, { "sym", KEY_SYM },
	{ "symbol", KEY_SYM }, { "cpu", KEY_CPU }, { "srcline", KEY_SRCLINE },
	{ "srcfile", KEY_SRCFILE }, { "parent", KEY_PARENT }, { "period", KEY_PERIOD },
	{ "sample", KEY_SAMPLE }, { "symoff", KEY_SYMOFF },
	{ "tid", KEY_PID }, /* perf's pid is the thread already */
	{ "overhead", KEY_OVERHEAD }, { "overhead_children", KEY_CHILDREN }, /* -F's */
};

#define KEY_LIST "comm, pid (or tid), dso, sym, symoff, srcline, srcfile, parent, cpu, " \
		 "period, sample"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: peo report [-i FILE] [--stdio] [-s KEYS] [-F FIELDS] [--children|--no-children]\n"
		"                  [-g [MODE][,MIN%%][,ORDER][,VALUE]] [-G] [-p REGEX]\n"
		"                  [--percent-limit N] [-q]\n"
		"                  [--folded] [--flamegraph FILE.svg] [--pprof FILE.pb.gz]\n"
		"                  [--comms LIST] [--dsos LIST] [--symbols LIST] [--pid LIST]\n"
		"                  [--tid LIST] [--time START,END] [--header|--header-only] [-I]\n"
		"                  [--symfs DIR] [--kallsyms FILE] [-k FILE]\n"
		"  -i, --input FILE       the perf.data to read (default perf.data); twice\n"
		"                         (the before, then the after) with --flamegraph or\n"
		"                         --folded: the differential graph, both weights\n"
		"  --stdio                the text report (the only one: also without it)\n"
		"  -s, --sort KEYS        comm, pid (tid), dso, sym, symoff, srcline, srcfile,\n"
		"                         parent, cpu; period and sample columns (default\n"
		"                         comm,dso,sym)\n"
		"  -F, --fields FIELDS    the columns in this order: keys, overhead,\n"
		"                         overhead_children, period, sample (then -s's keys)\n"
		"  --children             each row also with the samples whose callchain\n"
		"                         holds it (perf's default with callchains)\n"
		"  --no-children          each row with its own samples only\n"
		"  -g, --call-graph SPEC  the call graph under each row (where the callchains\n"
		"                         were recorded): MODE graph (shares of all), fractal\n"
		"                         (of the parent), flat, folded or none; MIN%% the\n"
		"                         smallest branch shown (0.5); ORDER caller (callers\n"
		"                         first: --children's default) or callee; VALUE\n"
		"                         percent, period or count\n"
		"  -G, --inverted         -g caller\n"
		"  -p, --parent REGEX     what names a stack's parent (the parent key's\n"
		"                         column; default ^sys_|^do_page_fault)\n"
		"  --percent-limit N      rows of at least N%% only\n"
		"  -q, --quiet            the rows alone\n"
		"  --folded               the stacks as folded lines (comm;outer;...;leaf\n"
		"                         weight), flame graphs' input, instead of rows\n"
		"  --flamegraph FILE.svg  the stacks as an interactive flame graph (zoom,\n"
		"                         search, tooltips) written to FILE.svg\n"
		"  --pprof FILE.pb.gz     the profile in pprof's format (gzipped protobuf),\n"
		"                         for go tool pprof and profiling backends\n"
		"  --time START,END       the samples from START to END (seconds) alone\n"
		"  --comms, --dsos, --symbols, --pid, --tid LIST\n"
		"                         rows of these (comma-separated) alone, their shares\n"
		"                         of all samples; one comm or dso: named in the header\n"
		"  --header               the file's header first, as perf prints it\n"
		"  --header-only          the file's header alone\n"
		"  -I, --show-info        the header's topologies, caches and memory whole\n"
		"  --symfs DIR, --kallsyms FILE, -k/--vmlinux FILE: as peo script's\n");
}

/* -s's comma-separated keys into @a (-F's fields, @fields: into
 * a->fields).  0, or -1 after saying which is wrong. */
static int parse_keys(struct report_args *a, const char *list, int fields)
{
	char *copy = strdup(list), *save = NULL;
	enum report_key *v = fields ? a->fields : a->keys;
	int *n = fields ? &a->nfields : &a->nkeys;
	const char *opt = fields ? "-F" : "-s";

	if (!copy) {
		fprintf(stderr, "peo report: out of memory\n");
		return -1;
	}
	*n = 0;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t i = 0;

		while (i < sizeof(key_names) / sizeof(key_names[0]) && strcmp(key_names[i].name, w))
			i++;
		/* the shares are -F's alone */
		if (i == sizeof(key_names) / sizeof(key_names[0]) || *n == REPORT_MAX_KEYS ||
		    (!fields && (key_names[i].key == KEY_OVERHEAD || key_names[i].key == KEY_CHILDREN))) {
			fprintf(stderr, "peo report: %s %s: %s; the keys are " KEY_LIST "%s (at most %d)\n",
				opt, list, *n == REPORT_MAX_KEYS ? "too many" : "an unknown key",
				fields ? ", overhead, overhead_children" : "", REPORT_MAX_KEYS);
			free(copy);
			return -1;
		}
		v[(*n)++] = key_names[i].key;
		if (key_names[i].key == KEY_SRCLINE || key_names[i].key == KEY_SRCFILE)
			a->want_lines = 1;
	}
	free(copy);
	if (!*n) {
		fprintf(stderr, "peo report: %s '%s': no key; the keys are " KEY_LIST "\n", opt, list);
		return -1;
	}
	return 0;
}

/* The first of @names that @tok begins (perf takes any prefix), as its
 * index; -1 when none. */
static int prefix_of(const char *tok, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strncmp(tok, names[i], strlen(tok)))
			return i;
	return -1;
}

/* -g's MODE,MIN%,ORDER,KEY,VALUE (any of them, in any order, perf's
 * words) into @a.  0, or -1 after saying what is wrong. */
static int parse_call_graph(struct report_args *a, const char *arg)
{
	static const char *const modes[] = { "none", "graph", "flat", "fractal", "folded" };
	static const enum callgraph_mode mode_of[] = { CG_NONE, CG_GRAPH, CG_FLAT, CG_FRACTAL,
						       CG_FOLDED };
	static const char *const orders[] = { "caller", "callee" };
	static const char *const values[] = { "percent", "period", "count" };
	static const char *const keys[] = { "function", "address", "branch" };
	char *copy = strdup(arg), *save = NULL, *end;
	int numbers = 0, i;

	if (!copy) {
		fprintf(stderr, "peo report: out of memory\n");
		return -1;
	}
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if ((i = prefix_of(tok, modes, 5)) >= 0) {
			a->cg.mode = mode_of[i];
		} else if ((i = prefix_of(tok, orders, 2)) >= 0) {
			a->cg.caller = i == 0;
			a->cg_order_given = 1;
		} else if ((i = prefix_of(tok, values, 3)) >= 0) {
			a->cg.value = (enum callgraph_value)i;
		} else if ((i = prefix_of(tok, keys, 3)) > 0) {
			fprintf(stderr, "peo report: -g %s: '%s' is not supported yet; the call "
				"graphs are keyed by function\n", arg, tok);
			free(copy);
			return -1;
		} else if (i < 0) {
			double v = strtod(tok, &end);

			if (end == tok || *end || v < 0 || numbers == 2 || (numbers && v > UINT32_MAX)) {
				fprintf(stderr, "peo report: -g %s: '%s' is not a call graph mode "
					"(graph, flat, fractal, folded, none), order (caller, callee), "
					"value (percent, period, count), threshold or print limit\n",
					arg, tok);
				free(copy);
				return -1;
			}
			if (numbers++)
				a->cg.print_limit = (unsigned)v;
			else
				a->cg.min_percent = v;
		}
	}
	free(copy);
	return 0;
}

/* Option @c's (in @longs) comma-separated @list into @f; with @numbers,
 * each a whole number.  0, or -1 after saying what is wrong. */
static int parse_filter(struct report_filter *f, const struct option *longs, int c,
			const char *list, int numbers)
{
	const char *name = "?";
	char *save = NULL;

	for (const struct option *o = longs; o->name; o++)
		if (o->val == c)
			name = o->name;
	*f = (struct report_filter){ .list = strdup(list) };
	if (!f->list || !exit_keep(f->list)) { /* the command's till it exits */
		free(f->list);
		fprintf(stderr, "peo report: out of memory\n");
		return -1;
	}
	for (char *w = strtok_r(f->list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		char *end;

		if (numbers && (strtoul(w, &end, 10), end == w || *end)) {
			fprintf(stderr, "peo report: --%s %s: '%s' is not a %s id; give ids "
				"separated by commas\n", name, list, w, strcmp(name, "pid") ? "thread" : "process");
			return -1;
		}
		if (f->n == sizeof(f->v) / sizeof(f->v[0])) {
			fprintf(stderr, "peo report: --%s: more than %zu values\n", name,
				sizeof(f->v) / sizeof(f->v[0]));
			return -1;
		}
		f->v[f->n++] = w;
	}
	if (!f->n) {
		fprintf(stderr, "peo report: --%s '%s': no value; give them separated by commas\n",
			name, list);
		return -1;
	}
	return 0;
}

/* One end of --time: SECONDS[.FRACTION] into *@ns; "" leaves it.  0, or -1. */
static int parse_seconds(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000u;
	size_t i = 0;

	if (!len)
		return 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		if (sec > 18000000000u / 10 || (sec = sec * 10 + (uint64_t)(s[i] - '0')) > 18000000000u)
			return -1;
	if (!i || (i < len && s[i] != '.'))
		return -1;
	for (i++; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (scale > 1) {
			scale /= 10;
			frac += (uint64_t)(s[i] - '0') * scale;
		}
	}
	*ns = sec * 1000000000u + frac;
	return 0;
}

/* --time START,END (seconds, as peo script prints times; either may be
 * left out) into @a.  0, or -1 after saying what to give. */
static int parse_time(struct report_args *a, const char *arg)
{
	const char *comma = strchr(arg, ',');

	a->time = arg;
	a->time_start = 0;
	a->time_end = UINT64_MAX;
	if (!comma || strchr(comma + 1, ',') || strchr(arg, ' ') || strchr(arg, '%') ||
	    parse_seconds(arg, (size_t)(comma - arg), &a->time_start) ||
	    parse_seconds(comma + 1, strlen(comma + 1), &a->time_end) ||
	    a->time_start > a->time_end) {
		fprintf(stderr, "peo report: --time %s: give START,END in seconds as peo script "
			"prints times (59275.674404,59275.774404; either may be left out); "
			"percentages and several ranges are not read yet\n", arg);
		return -1;
	}
	return 0;
}

/* What hid symbols (a binary missing or changed, kernel addresses hidden),
 * a sentence each, once, as peo script says them. */
static void say_notes(struct peo_symbols *syms)
{
	const char *notes[16];
	size_t n = peo_symbols_notes(syms, notes, 16);

	for (size_t i = 0; i < n && i < 16; i++)
		fprintf(stderr, "peo report: note: %s\n", notes[i]);
	if (n > 16)
		fprintf(stderr, "peo report: note: and %zu more of the kind\n", n - 16);
}

/* Whether @path is an empty file: said so (nothing to report, not an
 * error, as perf says "zero-sized data"). */
static int empty_file(const char *path)
{
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size)
		return 0;
	fprintf(stderr, "peo report: %s is empty (0 bytes): nothing to report; a recording "
		"stopped before it wrote its header leaves such a file\n", path);
	return 1;
}

/* --header-only: the file's header, as perf report prints it. */
static int print_header_only(const struct report_args *a)
{
	struct peo_perfdata *f;

	if (peo_perfdata_open(&f, a->input, NULL)) {
		fprintf(stderr, "peo report: %s\n", peo_last_error());
		return 1;
	}
	perf_header_print(stdout, f, a->input, a->show_info);
	peo_perfdata_close(f);
	return 0;
}

/* -i BEFORE -i AFTER: the differential flame graph, or the folded lines
 * of both (difffolded.pl's). */
static int report_two(const struct report_args *a)
{
	struct report_args before = *a;
	struct report_data base, d;
	int status;

	if (!(a->flamegraph || a->folded) || a->pprof) {
		fprintf(stderr, "peo report: -i %s -i %s: two files are compared by --flamegraph "
			"FILE.svg (a differential flame graph) or --folded (each stack's weight in "
			"both); give one file otherwise\n", a->base, a->input);
		return 2;
	}
	before.input = a->base;
	if (report_collect(&before, &base)) {
		report_data_free(&base, 1);
		return 1;
	}
	if (report_collect(a, &d)) {
		report_data_free(&d, 1);
		report_data_free(&base, 1);
		return 1;
	}
	status = (a->folded && report_folded_diff(&base, &d, stdout)) ||
			 (a->flamegraph && report_flamegraph_diff(&base, &d, a->flamegraph, a->base,
								  a->input))
		 ? 1 : 0;
	if (a->flamegraph && !status)
		fprintf(stderr, "peo report: the differential flame graph is in %s (red: grew, "
			"blue: shrank, from %s to %s): open it in a browser\n", a->flamegraph,
			a->base, a->input);
	say_notes(base.syms);
	say_notes(d.syms);
	report_data_free(&d, 1);
	report_data_free(&base, 1);
	return status;
}

int cmd_report(int argc, char **argv)
{
	enum { O_STDIO = 256, O_CHILDREN, O_NO_CHILDREN, O_PERCENT_LIMIT, O_SYMFS, O_KALLSYMS,
	       O_FOLDED, O_FLAMEGRAPH, O_PPROF, O_COMMS, O_DSOS, O_SYMBOLS, O_PID, O_TID, O_TIME,
	       O_HEADER, O_HEADER_ONLY };
	static const struct option longs[] = {
		{ "input", required_argument, NULL, 'i' }, { "stdio", no_argument, NULL, O_STDIO },
		{ "sort", required_argument, NULL, 's' },
		{ "fields", required_argument, NULL, 'F' },
		{ "children", no_argument, NULL, O_CHILDREN },
		{ "no-children", no_argument, NULL, O_NO_CHILDREN },
		{ "call-graph", optional_argument, NULL, 'g' },
		{ "inverted", no_argument, NULL, 'G' },
		{ "parent", required_argument, NULL, 'p' },
		{ "percent-limit", required_argument, NULL, O_PERCENT_LIMIT },
		{ "quiet", no_argument, NULL, 'q' }, { "symfs", required_argument, NULL, O_SYMFS },
		{ "kallsyms", required_argument, NULL, O_KALLSYMS },
		{ "vmlinux", required_argument, NULL, 'k' }, { "folded", no_argument, NULL, O_FOLDED },
		{ "flamegraph", required_argument, NULL, O_FLAMEGRAPH },
		{ "pprof", required_argument, NULL, O_PPROF },
		{ "comms", required_argument, NULL, O_COMMS }, { "dsos", required_argument, NULL, O_DSOS },
		{ "symbols", required_argument, NULL, O_SYMBOLS },
		{ "pid", required_argument, NULL, O_PID }, { "tid", required_argument, NULL, O_TID },
		{ "time", required_argument, NULL, O_TIME },
		{ "header", no_argument, NULL, O_HEADER },
		{ "header-only", no_argument, NULL, O_HEADER_ONLY },
		{ "show-info", no_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct report_args a = { .input = "perf.data", .children = -1,
				 .keys = { KEY_COMM, KEY_DSO, KEY_SYM }, .nkeys = 3,
				 .cg = { .mode = CG_GRAPH, .min_percent = 0.5 } };
	struct report_data d;
	/* what names a stack's parent: perf's default */
	const char *parent = "^sys_|^do_page_fault";
	static regex_t parent_re; /* the command's till it exits; a second run's replaces it */
	static int parent_compiled;
	char *end;
	int c, status, inputs = 0, header_only = 0, inverted = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:s:F:gGp:qIk:h", longs, NULL)) != -1) {
		switch (c) {
		case 'i': /* twice: the before, then the after */
			if (inputs++ == 1)
				a.base = a.input;
			else if (inputs > 2) {
				fprintf(stderr, "peo report: -i %s: a third file; give one, or two to "
					"compare (the before, then the after)\n", optarg);
				return 2;
			}
			a.input = optarg;
			break;
		case O_STDIO: break;
		case O_FOLDED: a.folded = 1; break;
		case O_FLAMEGRAPH: a.flamegraph = optarg; break;
		case O_PPROF: a.pprof = optarg; break;
		case O_TIME:
			if (parse_time(&a, optarg))
				return 2;
			break;
		case O_COMMS: case O_DSOS: case O_SYMBOLS: case O_PID: case O_TID:
			if (parse_filter(c == O_COMMS ? &a.comms : c == O_DSOS ? &a.dsos
					 : c == O_SYMBOLS ? &a.symbols : c == O_PID ? &a.pids : &a.tids,
					 longs, c, optarg, c == O_PID || c == O_TID))
				return 2;
			break;
		case 's':
			a.cg.skip_first = !strncmp(optarg, "sym", 3);
			a.keys_given = 1;
			if (parse_keys(&a, optarg, 0))
				return 2;
			break;
		case 'F':
			if (parse_keys(&a, optarg, 1))
				return 2;
			break;
		case O_CHILDREN: a.children = 1; break;
		case O_NO_CHILDREN: a.children = 0; break;
		case 'g':
			/* -g alone is perf's default; -g SPEC takes the next word
			 * unless it is an option */
			if (!optarg && optind < argc && argv[optind][0] != '-')
				optarg = argv[optind++];
			/* alone: perf's default spec, caller order and all */
			if (parse_call_graph(&a, optarg ? optarg
							: "graph,0.5,caller,function,percent"))
				return 2;
			break;
		case 'p':
			parent = optarg;
			break;
		case 'G': /* --inverted: the callers first, whatever -g says (perf's) */
			inverted = 1;
			break;
		case O_PERCENT_LIMIT:
			a.percent_limit = strtod(optarg, &end);
			if (end == optarg || *end || a.percent_limit < 0 || a.percent_limit > 100) {
				fprintf(stderr, "peo report: --percent-limit %s: not a percentage from 0 "
					"to 100\n", optarg);
				return 2;
			}
			/* the graphs' too, as perf (a later -g's wins), read as its float */
			a.cg.min_percent = (float)a.percent_limit;
			break;
		case 'q': a.quiet = 1; break;
		case O_HEADER: a.header = 1; break;
		case O_HEADER_ONLY: header_only = 1; break;
		case 'I': a.show_info = 1; break;
		case O_SYMFS: a.symfs = optarg; break;
		case O_KALLSYMS: a.kallsyms = optarg; break;
		case 'k': a.vmlinux = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "peo report: '%s': an argument no option takes\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (parent_compiled)
		regfree(&parent_re);
	if ((parent_compiled = (c = regcomp(&parent_re, parent, REG_EXTENDED | REG_NOSUB)) == 0),
	    c) {
		char why[256];

		regerror(c, &parent_re, why, sizeof(why));
		fprintf(stderr, "peo report: -p '%s': %s; give an extended regular expression\n",
			parent, why);
		return 2;
	}
	a.parent = &parent_re;
	if (inverted) {
		a.cg.caller = 1;
		a.cg_order_given = 1;
	}
	/* perf leaves the row's own symbol out of its graph when sorting by
	 * it first, but not with -F */
	if (a.nfields)
		a.cg.skip_first = 0;
	if (empty_file(a.input) || (a.base && empty_file(a.base)))
		return 0;
	if (header_only)
		return print_header_only(&a);
	if (a.base)
		return report_two(&a);
	if (report_collect(&a, &d)) {
		report_data_free(&d, 1);
		return 1;
	}
	if (a.folded || a.flamegraph || a.pprof) {
		status = (a.folded && report_folded(&d, stdout)) ||
				 (a.flamegraph && report_flamegraph(&d, a.flamegraph, a.input)) ||
				 (a.pprof && report_pprof(&d, a.pprof, a.input))
			 ? 1 : 0;
		if (a.flamegraph && !status)
			fprintf(stderr, "peo report: the flame graph is in %s: open it in a browser\n",
				a.flamegraph);
		say_notes(d.syms);
		report_data_free(&d, 1);
		return status;
	}
	status = report_print(&a, &d) ? 1 : 0;
	say_notes(d.syms);
	report_data_free(&d, 1);
	return status;
}
