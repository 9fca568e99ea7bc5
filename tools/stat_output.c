/*
 * stat_output.c - perf stat's output for what peo stat counted: the human
 * table, -x SEP (CSV) and -j (JSON lines), with perf's derived metrics.
 * Widths, spellings and metric rules are perf 6.1's, checked against its
 * real output; perf's own quirks are kept where a script could see them
 * ("Ghz", "(null)", the integer percentage in CSV and JSON).  No libm: the
 * command links none.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <peo/peo.h>

#include "commands.h"
#include "stat_output.h"

#define VALUE_WIDTH 18    /* counts, right-aligned */
#define NAME_WIDTH 32     /* event name on a counted line */
#define BAD_NAME_WIDTH 25 /* event name on a <not counted>/<not supported> line */
#define MIN_UNIT_WIDTH 4  /* strlen("unit") in perf's -I header */
#define METRIC_WIDTH 35   /* " # " value unit, padded */
#define CONT_INDENT 49    /* a second metric line starts here (perf's number) */
#define CLOCK_SCALE 1e-6  /* task-clock and cpu-clock: ns printed as msec */

/* Which of perf's metric rules an event falls under. */
enum kind {
	K_OTHER,
	K_CLOCK,
	K_CYCLES,
	K_INSTRUCTIONS,
	K_STALLED_FE,
	K_STALLED_BE,
	K_BRANCHES,
	K_BRANCH_MISSES,
	K_CACHE_REFS,
	K_CACHE_MISSES,
	K_L1D,
	K_L1D_MISS,
	K_L1I,
	K_L1I_MISS,
	K_LL,
	K_LL_MISS,
	K_DTLB,
	K_DTLB_MISS,
	K_ITLB,
	K_ITLB_MISS
};

/* perf pairs events only when these exclude_* bits agree (except clocks). */
enum {
	CTX_EXCL_USER = 1,
	CTX_EXCL_KERNEL = 2,
	CTX_EXCL_HV = 4,
	CTX_EXCL_HOST = 8,
	CTX_EXCL_IDLE = 16
};

struct ev_class {
	enum kind kind;
	unsigned ctx;
};

/* ------------------------------------------------------------ classify */

static enum kind hw_kind(uint64_t config)
{
	switch (config) {
	case PEO_COUNT_HW_CPU_CYCLES: return K_CYCLES;
	case PEO_COUNT_HW_INSTRUCTIONS: return K_INSTRUCTIONS;
	case PEO_COUNT_HW_CACHE_REFERENCES: return K_CACHE_REFS;
	case PEO_COUNT_HW_CACHE_MISSES: return K_CACHE_MISSES;
	case PEO_COUNT_HW_BRANCH_INSTRUCTIONS: return K_BRANCHES;
	case PEO_COUNT_HW_BRANCH_MISSES: return K_BRANCH_MISSES;
	case PEO_COUNT_HW_STALLED_CYCLES_FRONTEND: return K_STALLED_FE;
	case PEO_COUNT_HW_STALLED_CYCLES_BACKEND: return K_STALLED_BE;
	default: return K_OTHER;
	}
}

/* perf has rules only for read accesses and read misses of five caches. */
static enum kind cache_kind(uint64_t config)
{
	static const enum kind access[] = { K_L1D, K_L1I, K_LL, K_DTLB, K_ITLB };
	static const enum kind miss[] = { K_L1D_MISS, K_L1I_MISS, K_LL_MISS, K_DTLB_MISS,
					  K_ITLB_MISS };
	uint64_t id = config & 0xff;
	uint64_t rest = config >> 8; /* op | result << 8 */

	if (id >= sizeof(access) / sizeof(access[0]))
		return K_OTHER;
	if (rest == 0)
		return access[id];
	if (rest == (PEO_COUNT_HW_CACHE_OP_READ | PEO_COUNT_HW_CACHE_RESULT_MISS << 8))
		return miss[id];
	return K_OTHER;
}

static struct ev_class class_of_attr(const struct peo_attr *a)
{
	struct ev_class c = { K_OTHER, 0 };
	/* the upper half of config names a hybrid PMU; perf's rule ignores it */
	uint64_t config = a->config & 0xffffffffu;

	if (a->type == PEO_TYPE_SOFTWARE &&
	    (a->config == PEO_COUNT_SW_CPU_CLOCK || a->config == PEO_COUNT_SW_TASK_CLOCK))
		c.kind = K_CLOCK;
	else if (a->type == PEO_TYPE_HARDWARE)
		c.kind = hw_kind(config);
	else if (a->type == PEO_TYPE_HW_CACHE)
		c.kind = cache_kind(config);
	c.ctx = (a->exclude_user ? CTX_EXCL_USER : 0) | (a->exclude_kernel ? CTX_EXCL_KERNEL : 0) |
		(a->exclude_hv ? CTX_EXCL_HV : 0) | (a->exclude_host ? CTX_EXCL_HOST : 0) |
		(a->exclude_idle ? CTX_EXCL_IDLE : 0);
	return c;
}

/* The names perf prints for the events it has rules for. */
static const struct {
	const char *name;
	enum kind kind;
} known_names[] = {
	{ "task-clock", K_CLOCK },
	{ "cpu-clock", K_CLOCK },
	{ "cycles", K_CYCLES },
	{ "cpu-cycles", K_CYCLES },
	{ "instructions", K_INSTRUCTIONS },
	{ "stalled-cycles-frontend", K_STALLED_FE },
	{ "idle-cycles-frontend", K_STALLED_FE },
	{ "stalled-cycles-backend", K_STALLED_BE },
	{ "idle-cycles-backend", K_STALLED_BE },
	{ "branches", K_BRANCHES },
	{ "branch-instructions", K_BRANCHES },
	{ "branch-misses", K_BRANCH_MISSES },
	{ "cache-references", K_CACHE_REFS },
	{ "cache-misses", K_CACHE_MISSES },
	{ "L1-dcache-loads", K_L1D },
	{ "L1-dcache-load-misses", K_L1D_MISS },
	{ "L1-icache-loads", K_L1I },
	{ "L1-icache-load-misses", K_L1I_MISS },
	{ "LLC-loads", K_LL },
	{ "LLC-load-misses", K_LL_MISS },
	{ "dTLB-loads", K_DTLB },
	{ "dTLB-load-misses", K_DTLB_MISS },
	{ "iTLB-loads", K_ITLB },
	{ "iTLB-load-misses", K_ITLB_MISS },
};

/*
 * The exclude_* bits perf's parser sets for a modifier string, or -1 when
 * @mods is not one ("sys_enter_getppid" in "syscalls:sys_enter_getppid").
 */
static int ctx_of_modifiers(const char *mods)
{
	bool u = false, k = false, h = false, G = false, H = false, I = false;
	int ctx = 0;

	for (; *mods; mods++) {
		switch (*mods) {
		case 'u': u = true; break;
		case 'k': k = true; break;
		case 'h': h = true; break;
		case 'G': G = true; break;
		case 'H': H = true; break;
		case 'I': I = true; break;
		case 'p': case 'P': case 'S': case 'D': case 'W': case 'e': case 'b': break;
		default: return -1;
		}
	}
	if (u || k || h) /* naming any privilege level excludes the others */
		ctx |= (u ? 0 : CTX_EXCL_USER) | (k ? 0 : CTX_EXCL_KERNEL) | (h ? 0 : CTX_EXCL_HV);
	if (G && !H)
		ctx |= CTX_EXCL_HOST;
	if (I)
		ctx |= CTX_EXCL_IDLE;
	return ctx;
}

static struct ev_class class_of_name(const char *event)
{
	struct ev_class c = { K_OTHER, 0 };
	const char *colon = strchr(event, ':');
	size_t len = colon ? (size_t)(colon - event) : strlen(event);
	int ctx = colon ? ctx_of_modifiers(colon + 1) : 0;

	if (ctx < 0)
		return c;
	for (size_t i = 0; i < sizeof(known_names) / sizeof(known_names[0]); i++) {
		if (strlen(known_names[i].name) == len && !strncmp(known_names[i].name, event, len)) {
			c.kind = known_names[i].kind;
			c.ctx = (unsigned)ctx;
			break;
		}
	}
	return c;
}

static struct ev_class classify(const struct stat_line *l)
{
	if (l->attr)
		return class_of_attr(l->attr);
	return class_of_name(l->event ? l->event : "");
}

/* ------------------------------------------------------- line values */

static bool is_clock(const struct stat_line *l)
{
	return classify(l).kind == K_CLOCK;
}

/* perf gives clocks unit "msec" and scale 1e-6 whatever sysfs says. */
static const char *unit_of(const struct stat_line *l)
{
	if (is_clock(l))
		return "msec";
	return l->unit ? l->unit : "";
}

static double scale_of(const struct stat_line *l)
{
	if (is_clock(l))
		return CLOCK_SCALE;
	return l->scale != 0 ? l->scale : 1.0;
}

/* perf prints <not counted> whenever the counter never ran. */
static bool counted(const struct stat_line *l)
{
	return l->state == STAT_COUNTED && l->running && l->enabled;
}

/* The printed value: msec for clocks, the sysfs scale applied otherwise. */
static double shown_value(const struct stat_line *l)
{
	return l->value * scale_of(l);
}

/*
 * What this line adds to perf's per-block "shadow" stats, the denominators
 * of other events' metrics: raw ns for clocks, the mean over runs with -r.
 */
static double shadow_value(const struct stat_line *l, int runs)
{
	double v = runs > 1 ? l->run_mean : l->value;

	if (runs <= 1 && !counted(l))
		return 0; /* perf zeroes a counter that never ran, but still counts it */
	return is_clock(l) ? v : v * scale_of(l);
}

static const char *cgroup_of(const struct stat_line *l)
{
	return l->cgroup ? l->cgroup : "";
}

/* perf keys its metric denominators by CPU, thread and cgroup. */
static bool same_block(const struct stat_line *a, const struct stat_line *b)
{
	return a->cpu == b->cpu && a->tid == b->tid && !strcmp(cgroup_of(a), cgroup_of(b));
}

/* ------------------------------------------------------------ printer */

struct printer {
	const struct stat_output_opts *o;
	FILE *f;
	const char *sep; /* " " in the human table */
	const struct stat_line *lines;
	size_t n;
	double elapsed_ns;
	double interval_ts;
	int unit_width;
	bool continued; /* human: the next metric goes on a continuation line */
};

/*
 * The mean of the @kind events counted in @l's CPU/thread block with @l's
 * exclude_* bits (clocks match whatever their bits); returns how many.
 */
static int shadow(const struct printer *p, const struct stat_line *l, enum kind kind,
		  double *avg)
{
	unsigned ctx = classify(l).ctx;
	double sum = 0;
	int count = 0;

	for (size_t i = 0; i < p->n; i++) {
		const struct stat_line *m = &p->lines[i];
		struct ev_class c;

		if (m->state == STAT_NOT_SUPPORTED || !same_block(l, m))
			continue;
		c = classify(m);
		if (c.kind != kind || (kind != K_CLOCK && c.ctx != ctx))
			continue;
		sum += shadow_value(m, p->o->runs);
		count++;
	}
	*avg = count ? sum / count : 0;
	return count;
}

static double shadow_avg(const struct printer *p, const struct stat_line *l, enum kind kind)
{
	double avg;

	shadow(p, l, kind, &avg);
	return avg;
}

static void split_ts(double ts, unsigned long *sec, unsigned long *nsec)
{
	double rounded = ts * 1e9 + 0.5;
	unsigned long long ns = 0;

	if (rounded >= 1 && rounded < 1.8e19) /* converting more is undefined */
		ns = (unsigned long long)rounded;

	*sec = (unsigned long)(ns / 1000000000ull);
	*nsec = (unsigned long)(ns % 1000000000ull);
}

/* -I: the timestamp that starts every line. */
static void print_prefix(const struct printer *p)
{
	unsigned long sec, nsec;

	if (p->interval_ts < 0)
		return;
	split_ts(p->interval_ts, &sec, &nsec);
	if (p->o->format == STAT_FORMAT_JSON)
		fprintf(p->f, "{\"interval\" : %lu.%09lu, ", sec, nsec);
	else
		fprintf(p->f, "%6lu.%09lu%s", sec, nsec, p->sep);
}

static void print_json_thread(FILE *f, const struct stat_line *l)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%s-%d", l->comm ? l->comm : "", l->tid);
	fputs("\"thread\" : ", f);
	json_print_string(f, buf);
	fputs(", ", f);
}

/* The CPU or comm-tid column; JSON objects open here outside -I. */
static void print_aggr(const struct printer *p, const struct stat_line *l)
{
	const char *comm = l->comm ? l->comm : "";

	switch (p->o->format) {
	case STAT_FORMAT_JSON:
		if (p->interval_ts < 0)
			fputc('{', p->f);
		if (l->cpu >= 0)
			fprintf(p->f, "\"cpu\" : \"%d\", ", l->cpu);
		else if (l->tid > 0)
			print_json_thread(p->f, l);
		break;
	case STAT_FORMAT_CSV:
		if (l->cpu >= 0)
			fprintf(p->f, "CPU%d%s", l->cpu, p->sep);
		else if (l->tid > 0)
			fprintf(p->f, "%s-%d%s", comm, l->tid, p->sep);
		break;
	case STAT_FORMAT_HUMAN:
		if (l->cpu >= 0)
			fprintf(p->f, "CPU%-7d ", l->cpu);
		else if (l->tid > 0)
			fprintf(p->f, "%16s-%-8d ", comm, l->tid);
		break;
	}
}

static const char *bad_text(const struct stat_line *l)
{
	return l->state == STAT_NOT_SUPPORTED ? "<not supported>" : "<not counted>";
}

/* Integral scales print whole counts; msec and Joules print 2 decimals. */
static int decimals(const struct stat_line *l)
{
	double sc = scale_of(l);

	if (!(sc > -9e18 && sc < 9e18))
		return 0; /* doubles this large are all integers (and NaN has no digits) */
	return (double)(long long)sc != sc ? 2 : 0;
}

/* -G: the cgroup right after the event name, "" for an event in none. */
static void print_cgroup(const struct printer *p, const struct stat_line *l)
{
	if (!p->o->cgroups)
		return;
	if (p->o->format == STAT_FORMAT_JSON) {
		fputs("\"cgroup\" : ", p->f);
		json_print_string(p->f, cgroup_of(l));
		fputs(", ", p->f);
	} else {
		fprintf(p->f, "%s%s", p->sep, cgroup_of(l));
	}
}

/* value, unit, event name and cgroup */
static void print_counter(const struct printer *p, const struct stat_line *l)
{
	const char *name = l->event ? l->event : "";
	bool ok = counted(l);
	FILE *f = p->f;

	switch (p->o->format) {
	case STAT_FORMAT_JSON:
		if (ok)
			fprintf(f, "\"counter-value\" : \"%f\", ", shown_value(l));
		else
			fprintf(f, "\"counter-value\" : \"%s\", ", bad_text(l));
		fputs("\"unit\" : ", f);
		json_print_string(f, unit_of(l));
		fputs(", \"event\" : ", f);
		json_print_string(f, name);
		fputs(", ", f);
		break;
	case STAT_FORMAT_CSV:
		if (ok)
			fprintf(f, "%.*f%s", decimals(l), shown_value(l), p->sep);
		else
			fprintf(f, "%s%s", bad_text(l), p->sep);
		fprintf(f, "%s%s%s", unit_of(l), p->sep, name);
		break;
	case STAT_FORMAT_HUMAN:
		/* the ' flag groups thousands as perf's big_num does, per locale */
		if (ok)
			fprintf(f, "%'*.*f ", VALUE_WIDTH, decimals(l), shown_value(l));
		else
			fprintf(f, "%*s ", VALUE_WIDTH, bad_text(l));
		fprintf(f, "%-*s %-*s", p->unit_width, unit_of(l), ok ? NAME_WIDTH : BAD_NAME_WIDTH,
			name);
		break;
	}
	print_cgroup(p, l);
}

/* -r: the relative stddev ("variance" in JSON, though it is not one). */
static void print_noise(const struct printer *p, const struct stat_line *l)
{
	double pct = l->stddev_pct > 0 ? l->stddev_pct : 0;

	if (p->o->runs <= 1)
		return;
	if (p->o->format == STAT_FORMAT_JSON)
		fprintf(p->f, "\"variance\" : %.2f, ", pct);
	else if (p->o->format == STAT_FORMAT_CSV)
		fprintf(p->f, "%s%.2f%%", p->sep, pct);
	else if (pct != 0)
		fprintf(p->f, "  ( +-%6.2f%% )", pct);
}

/* CSV and JSON truncate the percentage to an integer, as perf does. */
static void print_running(const struct printer *p, const struct stat_line *l)
{
	uint64_t run = l->running, ena = l->enabled;
	double pct = 100;

	if (run != ena && ena)
		pct = (double)(100 * run / ena);
	if (p->o->format == STAT_FORMAT_JSON)
		fprintf(p->f, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ",
			(unsigned long long)run, pct);
	else if (p->o->format == STAT_FORMAT_CSV)
		fprintf(p->f, "%s%llu%s%.2f", p->sep, (unsigned long long)run, p->sep, pct);
	else if (run != ena && ena)
		fprintf(p->f, "  (%.2f%%)", 100.0 * (double)run / (double)ena);
}

/* ------------------------------------------------------------ metrics */

/* A metric's number format, printf "%*.*f" then suffix. */
struct mfmt {
	int width, prec;
	const char *suffix;
};

static const struct mfmt F_RATIO = { 8, 3, "" };   /* CPUs utilized, GHz, /sec */
static const struct mfmt F_IPC = { 7, 2, " " };    /* insn per cycle */
static const struct mfmt F_PCT = { 7, 2, "%" };    /* of all branches, ... */
static const struct mfmt F_CACHE = { 8, 3, " %" }; /* of all cache refs */

/* Another metric for the same event: a new line under the first one. */
static void continue_line(struct printer *p, const struct stat_line *l)
{
	/* value, unit, event, aggr; perf counts the cgroup only when there is one */
	int fields = 3 + (l->cpu >= 0 || l->tid > 0) + (*cgroup_of(l) != '\0');

	switch (p->o->format) {
	case STAT_FORMAT_HUMAN:
		p->continued = true; /* written when the metric is */
		break;
	case STAT_FORMAT_CSV:
		fputc('\n', p->f);
		print_prefix(p);
		print_aggr(p, l);
		for (int i = 0; i < fields; i++)
			fputs(p->sep, p->f);
		break;
	case STAT_FORMAT_JSON:
		fputc('\n', p->f);
		print_prefix(p);
		print_aggr(p, l);
		break;
	}
}

static void metric_human(struct printer *p, const struct stat_line *l, const struct mfmt *fmt,
			 const char *unit, double val)
{
	bool continued = p->continued;
	int n, pad;

	p->continued = false;
	if (!fmt || !unit) {
		fprintf(p->f, "%*s", METRIC_WIDTH, "");
		return;
	}
	if (continued) {
		fputc('\n', p->f);
		print_prefix(p);
		print_aggr(p, l);
		fprintf(p->f, "%*s", (l->cpu >= 0 ? 8 : 0) + CONT_INDENT, "");
	}
	n = fprintf(p->f, " # ");
	n += fprintf(p->f, "%*.*f%s", fmt->width, fmt->prec, val, fmt->suffix);
	pad = METRIC_WIDTH - n - 1;
	fprintf(p->f, " %-*s", abs(pad), unit); /* printf reads a negative width so */
}

/* CSV keeps the number only: leading spaces and any "%" go. */
static void metric_csv(struct printer *p, const struct mfmt *fmt, const char *unit, double val)
{
	char buf[64], *num, *end;

	if (!fmt || !unit) {
		fprintf(p->f, "%s%s", p->sep, p->sep);
		return;
	}
	snprintf(buf, sizeof(buf), "%*.*f%s", fmt->width, fmt->prec, val, fmt->suffix);
	for (num = buf; *num == ' '; num++)
		;
	for (end = num; isdigit((unsigned char)*end) || *end == '.'; end++)
		;
	*end = '\0';
	while (*unit == ' ')
		unit++;
	fprintf(p->f, "%s%s%s%s", p->sep, num, p->sep, unit);
}

/* JSON always carries the unit, even with no value ("(null)" when none). */
static void metric_json(struct printer *p, const char *unit, double val)
{
	fprintf(p->f, "\"metric-value\" : %f, \"metric-unit\" : ", val);
	if (unit)
		json_print_string(p->f, unit);
	else
		fputs("\"(null)\"", p->f);
	fputc('}', p->f);
}

/* One metric; @fmt NULL leaves the column blank, @unit NULL means no metric. */
static void metric(struct printer *p, const struct stat_line *l, const struct mfmt *fmt,
		   const char *unit, double val)
{
	switch (p->o->format) {
	case STAT_FORMAT_HUMAN: metric_human(p, l, fmt, unit, val); break;
	case STAT_FORMAT_CSV: metric_csv(p, fmt, unit, val); break;
	case STAT_FORMAT_JSON: metric_json(p, unit, val); break;
	}
}

static void metric_ipc(struct printer *p, const struct stat_line *l, double insn)
{
	double cycles = shadow_avg(p, l, K_CYCLES);
	double fe = shadow_avg(p, l, K_STALLED_FE), be = shadow_avg(p, l, K_STALLED_BE);
	double stalled = fe > be ? fe : be;

	if (cycles)
		metric(p, l, &F_IPC, "insn per cycle", insn / cycles);
	else
		metric(p, l, NULL, "insn per cycle", 0);
	if (stalled && insn) {
		continue_line(p, l);
		metric(p, l, &F_IPC, "stalled cycles per insn", stalled / insn);
	}
}

/* misses as a percentage of accesses, blank when no accesses were counted */
static void metric_miss(struct printer *p, const struct stat_line *l, double misses,
			enum kind of, const char *unit)
{
	double total;

	if (!shadow(p, l, of, &total)) {
		metric(p, l, NULL, unit, 0);
		return;
	}
	metric(p, l, &F_PCT, unit, total ? misses / total * 100.0 : 0);
}

static void metric_cache_misses(struct printer *p, const struct stat_line *l, double misses)
{
	double refs;

	if (!shadow(p, l, K_CACHE_REFS, &refs)) {
		metric(p, l, NULL, "of all cache refs", 0);
		return;
	}
	metric(p, l, &F_CACHE, "of all cache refs", refs ? misses * 100 / refs : 0);
}

/* perf blanks a zero frontend ratio but always prints the backend one. */
static void metric_stalled(struct printer *p, const struct stat_line *l, double stalled,
			   bool frontend)
{
	double cycles = shadow_avg(p, l, K_CYCLES);
	double ratio = cycles ? stalled / cycles * 100.0 : 0;

	if (!frontend)
		metric(p, l, &F_PCT, "backend cycles idle", ratio);
	else if (ratio)
		metric(p, l, &F_PCT, "frontend cycles idle", ratio);
	else
		metric(p, l, NULL, "frontend cycles idle", 0);
}

static void metric_ghz(struct printer *p, const struct stat_line *l, double cycles)
{
	double ns = shadow_avg(p, l, K_CLOCK);

	if (ns)
		metric(p, l, &F_RATIO, "GHz", cycles / ns);
	else
		metric(p, l, NULL, "Ghz", 0); /* sic: perf's spelling when blank */
}

static void metric_cpus(struct printer *p, const struct stat_line *l, double msec)
{
	if (p->elapsed_ns)
		metric(p, l, &F_RATIO, "CPUs utilized", msec / (p->elapsed_ns * CLOCK_SCALE));
	else
		metric(p, l, NULL, "CPUs utilized", 0);
}

/* events per second of task-clock, in K, M or G above 1000 */
static void metric_rate(struct printer *p, const struct stat_line *l, double val)
{
	static const char prefixes[] = "KMG";
	char unit[8] = "/sec";
	double ns, rate = 0;

	if (!shadow(p, l, K_CLOCK, &ns)) {
		metric(p, l, NULL, NULL, 0);
		return;
	}
	if (ns) {
		int scaled = 0;

		rate = 1e9 * val / ns;
		while (scaled < 3 && rate > 1000.0) {
			rate /= 1000.0;
			scaled++;
		}
		if (scaled)
			snprintf(unit, sizeof(unit), "%c/sec", prefixes[scaled - 1]);
	}
	metric(p, l, &F_RATIO, unit, rate);
}

static void print_metrics(struct printer *p, const struct stat_line *l)
{
	double v = shown_value(l);

	switch (classify(l).kind) {
	case K_INSTRUCTIONS: metric_ipc(p, l, v); break;
	case K_BRANCH_MISSES: metric_miss(p, l, v, K_BRANCHES, "of all branches"); break;
	case K_L1D_MISS: metric_miss(p, l, v, K_L1D, "of all L1-dcache accesses"); break;
	case K_L1I_MISS: metric_miss(p, l, v, K_L1I, "of all L1-icache accesses"); break;
	case K_DTLB_MISS: metric_miss(p, l, v, K_DTLB, "of all dTLB cache accesses"); break;
	case K_ITLB_MISS: metric_miss(p, l, v, K_ITLB, "of all iTLB cache accesses"); break;
	case K_LL_MISS: metric_miss(p, l, v, K_LL, "of all LL-cache accesses"); break;
	case K_CACHE_MISSES: metric_cache_misses(p, l, v); break;
	case K_STALLED_FE: metric_stalled(p, l, v, true); break;
	case K_STALLED_BE: metric_stalled(p, l, v, false); break;
	case K_CYCLES: metric_ghz(p, l, v); break;
	case K_CLOCK: metric_cpus(p, l, v); break;
	default: metric_rate(p, l, v); break;
	}
}

/* ------------------------------------------------------------- lines */

static void print_line(struct printer *p, const struct stat_line *l)
{
	bool human = p->o->format == STAT_FORMAT_HUMAN;

	p->continued = false;
	print_prefix(p);
	print_aggr(p, l);
	print_counter(p, l);
	/* the human table puts the metric before noise and running; the others after */
	if (!human) {
		print_noise(p, l);
		print_running(p, l);
	}
	if (counted(l))
		print_metrics(p, l);
	else
		metric(p, l, NULL, "", 0);
	if (human) {
		print_noise(p, l);
		print_running(p, l);
	}
	fputc('\n', p->f);
}

/* perf sizes the unit column to the longest unit of the events it opened. */
static int unit_width(const struct stat_output_opts *o, const struct stat_line *lines, size_t n)
{
	int w = o->unit_width > MIN_UNIT_WIDTH ? o->unit_width : MIN_UNIT_WIDTH;

	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(unit_of(&lines[i]));

		if (lines[i].state != STAT_NOT_SUPPORTED && len > (size_t)w)
			w = (int)len;
	}
	return w;
}

void stat_print_lines(const struct stat_output_opts *o, const struct stat_line *lines, size_t n,
		      double elapsed_ns, double interval_ts)
{
	struct printer p = {
		.o = o,
		.f = o->out,
		.sep = o->format == STAT_FORMAT_CSV ? (o->sep ? o->sep : ",") : " ",
		.lines = lines,
		.n = n,
		.elapsed_ns = elapsed_ns,
		.interval_ts = interval_ts,
		.unit_width = unit_width(o, lines, n),
	};

	for (size_t i = 0; i < n; i++)
		if (!lines[i].hidden)
			print_line(&p, &lines[i]);
}

/* ---------------------------------------------------- header, footer */

void stat_print_header(const struct stat_output_opts *o)
{
	if (o->format != STAT_FORMAT_HUMAN)
		return;
	fprintf(o->out, "\n Performance counter stats for %s", o->target_text ? o->target_text : "");
	if (o->runs > 1)
		fprintf(o->out, " (%d runs)", o->runs);
	fputs(":\n\n", o->out);
}

void stat_print_interval_header(const struct stat_output_opts *o)
{
	int w = o->unit_width > MIN_UNIT_WIDTH ? o->unit_width : MIN_UNIT_WIDTH;

	if (o->format != STAT_FORMAT_HUMAN)
		return;
	switch (o->aggr) {
	case STAT_AGGR_CPU:
		fprintf(o->out, "#           time CPU                    counts %*s events\n", w, "unit");
		break;
	case STAT_AGGR_THREAD:
		fprintf(o->out, "#           time             comm-pid                  counts %*s events\n",
			w, "unit");
		break;
	case STAT_AGGR_GLOBAL:
		fprintf(o->out, "#           time             counts %*s events\n", w, "unit");
		break;
	}
}

/*
 * Decimals for the -r elapsed time: two past the stddev's first significant
 * digit, i.e. ceil(-log10(sd)) + 2.  perf gets 2 for a zero stddev (its
 * log10 overflows to 0) and for one above a second.
 */
static int elapsed_precision(double sd)
{
	int digits = 0;

	if (sd > 1 || !(sd > 0))
		return 2;
	for (; sd < 1 && digits < 400; digits++)
		sd *= 10;
	return digits + 2;
}

static void print_elapsed_runs(FILE *f, const struct stat_times *t)
{
	int prec = elapsed_precision(t->elapsed_stddev_s);
	double pct = t->elapsed_s ? 100.0 * t->elapsed_stddev_s / t->elapsed_s : 0;

	fprintf(f, " %17.*f +- %.*f seconds time elapsed", prec, t->elapsed_s, prec,
		t->elapsed_stddev_s);
	if (pct != 0)
		fprintf(f, "  ( +-%6.2f%% )", pct);
}

void stat_print_footer(const struct stat_output_opts *o, const struct stat_times *t)
{
	FILE *f = o->out;

	if (o->format != STAT_FORMAT_HUMAN || o->interval)
		return;
	fputc('\n', f);
	if (o->runs > 1) {
		print_elapsed_runs(f, t);
	} else {
		fprintf(f, " %17.9f seconds time elapsed", t->elapsed_s);
		if (t->have_rusage)
			fprintf(f, "\n\n %17.9f seconds user\n %17.9f seconds sys\n", t->user_s,
				t->sys_s);
	}
	fputs("\n\n", f);
	if (t->nmi_watchdog_hint)
		fputs("Some events weren't counted. Try disabling the NMI watchdog:\n"
		      "\techo 0 > /proc/sys/kernel/nmi_watchdog\n"
		      "\tperf stat ...\n"
		      "\techo 1 > /proc/sys/kernel/nmi_watchdog\n",
		      f);
}
