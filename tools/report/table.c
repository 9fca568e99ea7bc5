/*
 * report/table.c - the profile's stacks grouped into rows by the sort
 * keys, per event, and printed as perf 6.1's report --stdio prints them:
 * the header comments, the columns as wide as their widest entry (of all
 * rows, the hidden ones too), rows by overhead (with --children: by the
 * period of the samples whose stack holds the row, then by their own),
 * ties by the keys' values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report/report.h"

/* A row: its keys' values and its periods. */
struct row {
	const char *comm, *dso, *sym;
	const char *parent; /* the parent key's symbol; NULL: [other] */
	const char *sym_dso; /* the sym key's binary: perf's row is a binary's function */
	uint32_t tid, cpu;
	uint64_t addr;   /* the address, where no symbol names it */
	uint64_t symoff; /* the symoff key's offset into sym */
	uint64_t samples;
	char src[160];   /* the srcline or srcfile key's text */
	char level;      /* perf's [k] or [.] */
	int inlined;     /* sym is a function inlined there */
	uint64_t self, children;
	size_t last_stack; /* the stack it was last counted in as a child, + 1 */
	size_t graph_stack; /* the stack it last took a chain of, + 1 */
	uint32_t graph;     /* its call graph's root (0: none yet) */
};

struct rows {
	struct row *v;
	size_t n, cap;
	size_t *slots; /* hash: index + 1 */
	size_t nslots;
	const struct report_args *a;
	struct report_data *d;   /* the frames' source lines; the threads' names at the end */
	int chained;             /* the event samples its callchain */
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return path[0] == '[' || !slash ? path : slash + 1;
}

/* Where frame @f is in the source, as perf's srcline (@file_only: its
 * srcfile) key says it: "file:line" (the file's base name); without the
 * line, "function+offset" (decimal), or "binary[offset]" where no symbol
 * names it; nothing mapped, "??:0".  srcfile: the file, or "".  (perf
 * 6.1 says "??:0" for every address of a binary after its addr2line
 * failed there 123 times.) */
static void srcline_of(const struct rows *t, const struct peo_frame *f, int file_only, char *buf,
		       size_t cap)
{
	size_t n = 0;
	const struct peo_srcline *l = f->dso && !(f->flags & PEO_FRAME_KERNEL)
				      ? report_lines_find(t->d, f->dso, f->dso_offset, &n) : NULL;

	if (l && n && l[0].file)
		snprintf(buf, cap, file_only ? "%s" : "%s:%u", base_name(l[0].file), l[0].line);
	else if (file_only)
		buf[0] = 0;
	else if (!f->dso)
		snprintf(buf, cap, "??:0");
	else if (f->sym)
		snprintf(buf, cap, "%s+%llu", f->sym, (unsigned long long)f->symoff);
	else
		snprintf(buf, cap, "%s[%llx]", base_name(f->dso), (unsigned long long)f->dso_offset);
}

/* Frame @f of a stack's samples (whose parent is @parent) as a row's keys
 * (the others zero). */
static struct row row_of(const struct rows *t, const struct peo_profile_stack *st,
			 const struct peo_frame *f, const char *parent)
{
	const struct report_args *a = t->a;
	struct row r = { 0 };
	const char *last;

	for (int k = 0; k < a->nkeys; k++)
		switch (a->keys[k]) {
		case KEY_COMM:
			r.comm = st->comm ? st->comm : ":-1";
			break;
		case KEY_PID: /* perf's row is the thread's, named as it was last */
			r.tid = st->tid;
			last = peo_processes_comm(t->d->procs, st->tid);
			r.comm = last ? last : st->comm ? st->comm : ":-1";
			break;
		case KEY_DSO:
			r.dso = f->dso ? base_name(f->dso) : NULL; /* [unknown] */
			break;
		case KEY_SYMOFF:
			r.symoff = f->sym ? f->symoff : 0;
			/* fall through */ /* the symbol and where in it */
		case KEY_SYM:
			r.sym = f->sym;
			r.sym_dso = f->dso;
			/* no symbol: the address in its binary (perf's map-relative one) */
			r.addr = f->sym ? 0 : f->dso ? f->dso_offset : f->addr;
			r.level = (f->flags & PEO_FRAME_KERNEL) ? 'k' : '.';
			r.inlined = (f->flags & PEO_FRAME_INLINED) != 0;
			break;
		case KEY_CPU:
			r.cpu = st->cpu;
			break;
		case KEY_SRCLINE:
		case KEY_SRCFILE:
			srcline_of(t, f, a->keys[k] == KEY_SRCFILE, r.src, sizeof(r.src));
			break;
		case KEY_PARENT:
			r.parent = parent;
			break;
		case KEY_PERIOD: /* columns, no key */
		case KEY_SAMPLE:
		case KEY_OVERHEAD:
		case KEY_CHILDREN:
			break;
		}
	return r;
}

static int strcmp0(const char *a, const char *b)
{
	return a == b ? 0 : !a ? -1 : !b ? 1 : strcmp(a, b);
}

/* Key @key of rows @x and @y: their order as perf sorts it. */
static int cmp_key(enum report_key key, const struct row *x, const struct row *y)
{
	int c = 0;

	switch (key) {
	case KEY_COMM:
		c = strcmp0(x->comm, y->comm);
		break;
	case KEY_PID:
		c = x->tid != y->tid ? (x->tid < y->tid ? -1 : 1) : strcmp0(x->comm, y->comm);
		break;
	case KEY_DSO: /* [unknown] after every binary, as perf sorts a missing one */
		c = x->dso == y->dso ? 0 : !x->dso ? 1 : !y->dso ? -1 : strcmp(x->dso, y->dso);
		break;
	case KEY_SYM:
	case KEY_SYMOFF:
		c = (x->sym == NULL) - (y->sym == NULL); /* named ones first */
		if (!c)
			c = x->sym ? strcmp(x->sym, y->sym)
				   : x->addr != y->addr ? (x->addr < y->addr ? -1 : 1) : 0;
		if (!c)
			c = (x->level > y->level) - (x->level < y->level);
		if (!c)
			c = x->inlined - y->inlined;
		if (!c)
			c = (x->symoff > y->symoff) - (x->symoff < y->symoff);
		if (!c) /* one name in two binaries: two functions */
			c = strcmp0(x->sym_dso, y->sym_dso);
		break;
	case KEY_CPU:
		c = x->cpu != y->cpu ? ((int32_t)x->cpu < (int32_t)y->cpu ? -1 : 1) : 0;
		break;
	case KEY_SRCLINE:
	case KEY_SRCFILE:
		c = strcmp(x->src, y->src);
		break;
	case KEY_PARENT: /* [other] first */
		c = strcmp0(x->parent, y->parent);
		break;
	case KEY_PERIOD: /* columns, no key */
	case KEY_SAMPLE:
	case KEY_OVERHEAD:
	case KEY_CHILDREN:
		break;
	}
	return c;
}

/* Rows with the same keys are one; else their order as perf sorts ties. */
static int cmp_keys(const struct report_args *a, const struct row *x, const struct row *y)
{
	int c = 0;

	for (int k = 0; k < a->nkeys && !c; k++)
		c = cmp_key(a->keys[k], x, y);
	return c;
}

static uint64_t row_hash(const struct report_args *a, const struct row *r)
{
	uint64_t h = 1469598103934665603ull;

	for (int k = 0; k < a->nkeys; k++) {
		enum report_key key = a->keys[k];
		const char *s = key == KEY_DSO ? r->dso : key == KEY_SYM || key == KEY_SYMOFF ? r->sym
			      : key == KEY_SRCLINE || key == KEY_SRCFILE ? r->src
			      : key == KEY_PARENT ? r->parent
			      : key == KEY_COMM || key == KEY_PID ? r->comm : NULL;

		for (; s && *s; s++)
			h = (h ^ (unsigned char)*s) * 1099511628211ull;
		h = (h ^ r->tid ^ (uint64_t)r->cpu << 32 ^ r->addr ^ (uint64_t)r->level ^
		     (uint64_t)r->inlined << 8 ^ r->symoff << 16) * 1099511628211ull;
	}
	return h;
}

/* The row of @key's keys, made when new; NULL out of memory. */
static struct row *find_row(struct rows *t, const struct row *key)
{
	size_t at;

	if ((t->n + 1) * 2 > t->nslots) {
		size_t want = t->nslots ? t->nslots * 2 : 1024;
		size_t *s = calloc(want, sizeof(*s));

		if (!s)
			return NULL;
		for (size_t i = 0; i < t->n; i++) {
			for (at = row_hash(t->a, &t->v[i]) & (want - 1); s[at]; at = (at + 1) & (want - 1))
				;
			s[at] = i + 1;
		}
		free(t->slots);
		t->slots = s;
		t->nslots = want;
	}
	for (at = row_hash(t->a, key) & (t->nslots - 1); t->slots[at]; at = (at + 1) & (t->nslots - 1))
		if (!cmp_keys(t->a, &t->v[t->slots[at] - 1], key))
			return &t->v[t->slots[at] - 1];
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct row *more = realloc(t->v, cap * sizeof(*more));

		if (!more)
			return NULL;
		t->v = more;
		t->cap = cap;
	}
	t->v[t->n] = *key;
	t->slots[at] = ++t->n;
	return &t->v[t->n - 1];
}

/* Whether @f has @value among its values (or is not given). */
static int filter_has(const struct report_filter *f, const char *value)
{
	if (!f->n)
		return 1;
	for (size_t i = 0; value && i < f->n; i++)
		if (!strcmp(f->v[i], value))
			return 1;
	return 0;
}

static int filter_has_num(const struct report_filter *f, uint32_t value)
{
	char num[16];

	snprintf(num, sizeof(num), "%u", value);
	return filter_has(f, num);
}

/* Whether frame @fr of stack @st passes the filters: a row of its. */
static int passes(const struct report_args *a, const struct peo_profile_stack *st,
		  const struct peo_frame *fr)
{
	return filter_has(&a->comms, st->comm ? st->comm : ":-1") &&
	       filter_has(&a->dsos, fr->dso ? base_name(fr->dso) : "[unknown]") &&
	       filter_has(&a->symbols, fr->sym) && filter_has_num(&a->pids, st->pid) &&
	       filter_has_num(&a->tids, st->tid);
}

int report_stack_passes(const struct report_args *a, const struct peo_profile_stack *st)
{
	int dso = !a->dsos.n, sym = !a->symbols.n;

	for (size_t f = 0; f < st->nframes && !(dso && sym); f++) {
		const struct peo_frame *fr = st->frames[f];

		dso |= filter_has(&a->dsos, fr->dso ? base_name(fr->dso) : "[unknown]");
		sym |= filter_has(&a->symbols, fr->sym);
	}
	return dso && sym && filter_has(&a->comms, st->comm ? st->comm : ":-1") &&
	       filter_has_num(&a->pids, st->pid) && filter_has_num(&a->tids, st->tid);
}

/* Stack @i's chains (@st) into the call graphs of its rows (@at: each
 * frame's row, SIZE_MAX for none), as perf gives them: the sample's own
 * row the whole chain; with @children each other row on it the chain
 * from its first frame on (in the chains' order), once a stack.  @chain
 * and @chain_at: room for the frames in perf's order (the functions
 * inlined at the sample's address before its own function, where the
 * stack lists them after it, its row's frame).  0, or -1 out of memory. */
static int add_chains(const struct report_args *a, int children, struct callgraph *g,
		      const struct peo_profile_stack *st, size_t i, const size_t *at,
		      const struct peo_frame **chain, size_t *chain_at, struct rows *t)
{
	size_t n = st->nframes, own = 0;
	int caller = a->cg.caller;

	if (st->frames[0]->flags & REPORT_FRAME_NO_CALLERS)
		return 0; /* no chain at all to perf */
	while (own + 1 < n && (st->frames[own + 1]->flags & PEO_FRAME_INLINED) &&
	       st->frames[own + 1]->addr == st->frames[0]->addr)
		own++;
	for (size_t f = 0; f < n; f++) { /* the sample's frame after its inlined ones */
		size_t from = f < own ? f + 1 : f == own ? 0 : f;

		chain[f] = st->frames[from];
		chain_at[f] = at[from];
	}
	for (size_t k = 0; k < (children ? n + 1 : 1); k++) {
		/* the sample's own row first, then from the outermost in (caller) or out */
		size_t f = !k ? own : caller ? n - k : k - 1;
		struct row *r = chain_at[f] == SIZE_MAX ? NULL : &t->v[chain_at[f]];

		if (!r || r->graph_stack == i + 1)
			continue;
		r->graph_stack = i + 1;
		if (!r->graph && !(r->graph = callgraph_root(g)))
			return -1;
		if (caller ? callgraph_add(g, r->graph, chain + (k ? f : n - 1), k ? f + 1 : n, -1,
					   st->period, st->count)
			   : callgraph_add(g, r->graph, chain + (k ? f : 0), k ? n - f : n, 1,
					   st->period, st->count))
			return -1;
	}
	return 0;
}

/* Stack @st's parent: its first function (in the chains' order: from the
 * outermost with @caller) that -p's expression names; NULL for none. */
static const char *parent_of(const struct report_args *a, const struct peo_profile_stack *st,
			     int caller)
{
	for (size_t k = 0; a->parent && k < st->nframes; k++) {
		const struct peo_frame *f = st->frames[caller ? st->nframes - 1 - k : k];

		if (f->sym && !regexec(a->parent, f->sym, 0, NULL, 0))
			return f->sym;
	}
	return NULL;
}

/* Event @event's rows from @p's stacks into @t (the filters' alone), and
 * their call graphs into @g when not NULL.  0, or -1 out of memory. */
static int make_rows(const struct report_args *a, int children, const struct peo_profile *p,
		     uint32_t event, struct rows *t, struct callgraph *g)
{
	struct peo_profile_stack st;
	size_t *at = NULL, *chain_at = NULL, cap = 0;
	const struct peo_frame **chain = NULL;
	int status = -1;

	for (size_t i = 0; i < peo_profile_stacks(p); i++) {
		peo_profile_stack(p, i, &st);
		char level = '.';

		if (st.event != event)
			continue;
		if (st.nframes > cap) {
			size_t *more = realloc(at, st.nframes * sizeof(*at)), *more_at;
			const struct peo_frame **more_chain;

			if (more)
				at = more;
			more_at = more ? realloc(chain_at, st.nframes * sizeof(*chain_at)) : NULL;
			if (more_at)
				chain_at = more_at;
			more_chain = more_at ? realloc(chain, st.nframes * sizeof(*chain)) : NULL;
			if (!more_chain)
				goto out;
			chain = more_chain;
			cap = st.nframes;
		}
		const char *parent = t->chained ? parent_of(a, &st, a->cg.caller) : NULL;

		for (size_t f = 0; f < st.nframes; f++) /* rows of frames not looked at: none */
			at[f] = SIZE_MAX;

		for (size_t f = 0; f < (children ? st.nframes : 1); f++) {
			struct row key = row_of(t, &st, st.frames[f], parent), *r;

			/* perf leaves an address in no map the level of the
			 * sample's own ip (its cpumode) */
			if (!st.frames[f]->dso && f)
				key.level = level;
			if (!f)
				level = key.level;
			at[f] = SIZE_MAX;
			if (!passes(a, &st, st.frames[f]))
				continue;
			if (!(r = find_row(t, &key)))
				goto out;
			at[f] = (size_t)(r - t->v);
			if (!f) {
				r->self += st.period;
				r->samples += st.count;
			}
			if (children && r->last_stack != i + 1) { /* once a stack, however deep */
				r->children += st.period;
				r->last_stack = i + 1;
			}
		}
		if (g && add_chains(a, children, g, &st, i, at, chain, chain_at, t))
			goto out;
	}
	status = 0;
out:
	free(at);
	free(chain_at);
	free(chain);
	return status;
}

static const struct report_args *sort_args;

/* The larger first. */
static int desc(uint64_t x, uint64_t y)
{
	return x != y ? (x > y ? -1 : 1) : 0;
}

/* Rows by the fields of sort_args->order, each in perf's way: shares,
 * periods and samples the larger first, keys as perf orders them; then
 * by all the keys. */
static int by_order(const void *pa, const void *pb)
{
	const struct row *x = pa, *y = pb;
	int c = 0;

	for (int k = 0; k < sort_args->norder && !c; k++)
		switch (sort_args->order[k]) {
		case KEY_CHILDREN:
			c = desc(x->children, y->children);
			break;
		case KEY_OVERHEAD:
		case KEY_PERIOD:
			c = desc(x->self, y->self);
			break;
		case KEY_SAMPLE:
			c = desc(x->samples, y->samples);
			break;
		default:
			c = cmp_key(sort_args->order[k], x, y);
		}
	return c ? c : cmp_keys(sort_args, x, y);
}

static const char *const header_of[] = {
	[KEY_COMM] = "Command", [KEY_PID] = "    Pid:Command", [KEY_DSO] = "Shared Object",
	[KEY_SYM] = "Symbol", [KEY_CPU] = "CPU", [KEY_SYMOFF] = "Symbol",
	[KEY_SRCLINE] = "Source:Line", [KEY_SRCFILE] = "Source File",
	[KEY_PARENT] = "Parent symbol", [KEY_PERIOD] = "Period", [KEY_SAMPLE] = "Samples",
	[KEY_OVERHEAD] = "Overhead", [KEY_CHILDREN] = "Children",
};

/* perf's numbers' columns: to the right, 12 wide (shares: 8) */
static int numeric(enum report_key k)
{
	return k == KEY_PERIOD || k == KEY_SAMPLE || k == KEY_OVERHEAD || k == KEY_CHILDREN;
}

static int share(enum report_key k)
{
	return k == KEY_OVERHEAD || k == KEY_CHILDREN;
}

/* Column @k of @r (of all samples' @total period), as perf prints it, into @buf. */
static void cell(enum report_key k, const struct row *r, uint64_t total, char *buf, size_t cap)
{
	switch (k) {
	case KEY_COMM:
		snprintf(buf, cap, "%s", r->comm);
		break;
	case KEY_PID:
		snprintf(buf, cap, "%7d:%s", (int)r->tid, r->comm);
		break;
	case KEY_DSO:
		snprintf(buf, cap, "%s", r->dso ? r->dso : "[unknown]");
		break;
	case KEY_SYM:
	case KEY_SYMOFF:
		if (r->sym && k == KEY_SYMOFF)
			snprintf(buf, cap, "[%c] %s%s+0x%llx", r->level, r->sym,
				 r->inlined ? " (inlined)" : "", (unsigned long long)r->symoff);
		else if (r->sym)
			snprintf(buf, cap, "[%c] %s%s", r->level, r->sym, r->inlined ? " (inlined)" : "");
		else
			snprintf(buf, cap, "[%c] %#.16llx", r->level, (unsigned long long)r->addr);
		break;
	case KEY_CPU:
		snprintf(buf, cap, "%*.*d", 3, 3, (int)r->cpu);
		break;
	case KEY_SRCLINE:
	case KEY_SRCFILE:
		snprintf(buf, cap, "%s", r->src);
		break;
	case KEY_PARENT:
		snprintf(buf, cap, "%s", r->parent ? r->parent : "[other]");
		break;
	case KEY_PERIOD:
		snprintf(buf, cap, "%12llu", (unsigned long long)r->self);
		break;
	case KEY_SAMPLE:
		snprintf(buf, cap, "%12llu", (unsigned long long)r->samples);
		break;
	case KEY_OVERHEAD:
	case KEY_CHILDREN:
		snprintf(buf, cap, "%7.2f%%",
			 100.0 * (double)(k == KEY_OVERHEAD ? r->self : r->children) / (double)total);
		break;
	}
}

/* perf's count with a unit: "614 ", "1K", "2M". */
static void with_unit(uint64_t n, char *buf, size_t cap)
{
	char unit = ' ';

	if (n > 1000) {
		n /= 1000;
		unit = 'K';
	}
	if (n > 1000) {
		n /= 1000;
		unit = 'M';
	}
	if (n > 1000) {
		n /= 1000;
		unit = 'G';
	}
	snprintf(buf, cap, "%llu%c", (unsigned long long)n, unit);
}

/* The columns' names, right-aligned for numbers, and their dots. */
static void print_header(const struct report_args *a, const int *width)
{
	for (int k = 0; k < a->ncols; k++)
		printf(numeric(a->cols[k]) ? "%s%*s" : "%s%-*s", k ? "  " : "# ", width[k],
		       /* perf's default columns call the own share Self (-F's Overhead) */
		       k == 1 && !a->nfields && a->cols[0] == KEY_CHILDREN ? "Self"
		       : header_of[a->cols[k]]);
	printf("\n#");
	for (int k = 0; k < a->ncols; k++) {
		printf(k ? "  " : " ");
		for (int i = 0; i < width[k]; i++)
			putchar('.');
	}
	printf("\n#\n");
}

static void print_row(const struct report_args *a, const int *width, const struct row *r,
		      uint64_t total)
{
	char buf[4096];

	for (int k = 0; k < a->ncols; k++) {
		enum report_key c = a->cols[k];
		int last = k == a->ncols - 1;

		cell(c, r, total, buf, sizeof(buf));
		if (c == KEY_CHILDREN && a->children != 1) /* not counted */
			snprintf(buf, sizeof(buf), "N/A");
		/* perf pads every column but a symbol or a source line in the last */
		printf(numeric(c) ? "  %*s" : "  %-*s",
		       last && (c == KEY_SYM || c == KEY_SYMOFF || c == KEY_SRCLINE || c == KEY_SRCFILE)
		       ? 0 : width[k], buf);
	}
	putchar('\n');
}

/* Event @ev's block: its sample count and period, its rows. */
static int print_event(const struct report_args *a, int children, struct report_data *d,
		       uint32_t ev)
{
	struct rows t = { .a = a, .d = d };
	struct callgraph *g = NULL;
	const struct peo_attr *attr = peo_perfdata_attr(d->f, ev);
	int width[2 * REPORT_MAX_KEYS + 2], status = -1;
	uint64_t period, samples = peo_profile_samples(d->profile, ev, &period);
	const char *name = peo_perfdata_event_name(d->f, ev);
	char count[32], buf[4096];

	if (!samples)
		return 0;
	if (!period)
		period = 1; /* samples of no weight: 0.00% each, not a division by zero */
	t.chained = attr && (attr->sample_type & PEO_SAMPLE_CALLCHAIN);
	/* the graphs of an event that samples its callchain (as perf) */
	if (a->cg.mode != CG_NONE && t.chained && callgraph_new(&g))
		goto out;
	if (make_rows(a, children, d->profile, ev, &t, g))
		goto out;
	for (int k = 0; k < a->ncols; k++) {
		enum report_key c = a->cols[k];

		width[k] = share(c) ? 8 : numeric(c) ? 12 : (int)strlen(header_of[c]);
		if (c == KEY_CPU || numeric(c))
			continue; /* perf's are 3, 8 and 12 wide, whatever the values ("-001") */
		for (size_t i = 0; i < t.n; i++) {
			cell(c, &t.v[i], period, buf, sizeof(buf));
			if ((int)strlen(buf) > width[k])
				width[k] = (int)strlen(buf);
		}
	}
	sort_args = a;
	if (t.n) /* none when the filters keep none: qsort's pointer may not be NULL */
		qsort(t.v, t.n, sizeof(*t.v), by_order);
	if (!a->quiet) {
		with_unit(samples, count, sizeof(count));
		printf("# Samples: %s of event '%s'", count, name ? name : "?");
		if (a->time)
			printf(" (time slices: %s)", a->time);
		printf("\n# Event count (approx.): %llu\n#\n", (unsigned long long)period);
		print_header(a, width);
	}
	for (size_t i = 0; i < t.n; i++) {
		/* the first share shown is the one --percent-limit weighs */
		int by_children = a->ncols && a->cols[0] == KEY_CHILDREN && children;
		double pct = 100.0 * (double)(by_children ? t.v[i].children : t.v[i].self) /
			     (double)period;

		if (pct < a->percent_limit)
			continue;
		print_row(a, width, &t.v[i], period);
		if (g && t.v[i].graph &&
		    callgraph_print(g, t.v[i].graph, &a->cg, stdout, period, period,
				    children ? t.v[i].children : t.v[i].self))
			goto out;
	}
	printf("\n\n"); /* -q too, as perf */
	status = 0;
out:
	if (status)
		fprintf(stderr, "peo report: out of memory for the report's rows\n");
	callgraph_free(g);
	free(t.v);
	free(t.slots);
	return status;
}

/* Whether @k is a column a filter of one value makes all the same (perf
 * names it in the header instead). */
static int elided(const struct report_args *a, enum report_key k)
{
	return (k == KEY_COMM && a->comms.n == 1) || (k == KEY_DSO && a->dsos.n == 1);
}

static int has(const enum report_key *v, int n, enum report_key k)
{
	for (int i = 0; i < n; i++)
		if (v[i] == k)
			return 1;
	return 0;
}

/* @args as printed (@children: the samples' chains counted): the
 * columns, the sort order and the keys that group (perf's rules).
 * Without -F, the shares then the keys, sorted in that order; with -F,
 * its fields then -s's keys, sorted by -s's keys then the fields (by the
 * fields alone without -s). */
static struct report_args shown_of(const struct report_args *args, int children)
{
	struct report_args e = *args;

	e.children = children; /* as counted: 1 or 0 */
	e.ncols = e.norder = e.nkeys = 0;
	if (!args->nfields) {
		if (children)
			e.cols[e.ncols++] = KEY_CHILDREN;
		e.cols[e.ncols++] = KEY_OVERHEAD;
		for (int k = 0; k < args->nkeys; k++)
			e.cols[e.ncols++] = args->keys[k];
		memcpy(e.order, e.cols, sizeof(e.order));
		e.norder = e.ncols;
	} else {
		for (int k = 0; k < args->nfields; k++)
			e.cols[e.ncols++] = args->fields[k];
		for (int k = 0; args->keys_given && k < args->nkeys; k++) {
			if (!has(e.cols, e.ncols, args->keys[k]))
				e.cols[e.ncols++] = args->keys[k];
			e.order[e.norder++] = args->keys[k];
		}
		for (int k = 0; k < args->nfields; k++)
			if (!has(e.order, e.norder, args->fields[k]))
				e.order[e.norder++] = args->fields[k];
	}
	/* a filter's one value is named in the header, not a column */
	int n = e.ncols;

	e.ncols = 0;
	for (int k = 0; k < n; k++)
		if (!elided(args, e.cols[k]))
			e.cols[e.ncols++] = e.cols[k];
	/* the keys that group: the columns' keys */
	for (int k = 0; k < e.ncols; k++)
		if (!numeric(e.cols[k]))
			e.keys[e.nkeys++] = e.cols[k];
	return e;
}

int report_print(const struct report_args *args, struct report_data *d)
{
	/* perf's default: children where callchains were recorded */
	int children = args->children && d->has_callchains;
	struct report_args shown = shown_of(args, children);
	const struct report_args *a = &shown;

	/* perf's chains: the callers first with --children, else the leaf */
	if (!args->cg_order_given)
		shown.cg.caller = children;

	if (a->header)
		perf_header_print(stdout, d->f, a->input, a->show_info);
	if (!a->quiet) {
		if (!a->header)
			printf("# To display the perf.data header info, please use --header/--header-only "
			       "options.\n#\n");
		if (a->comms.n == 1)
			printf("# comm: %s\n", a->comms.v[0]);
		if (a->dsos.n == 1)
			printf("# dso: %s\n", a->dsos.v[0]);
		printf("#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)d->lost_samples);
	}
	for (size_t ev = 0; ev < peo_perfdata_attr_count(d->f); ev++)
		if (print_event(a, children, d, (uint32_t)ev))
			return -1;
	if (!peo_profile_stacks(d->profile)) /* said, as perf says it, not an empty page */
		fprintf(stderr, "peo report: %s has no samples: nothing to report (peo script "
			"--stats counts the records it has)\n", a->input);
	return 0;
}
