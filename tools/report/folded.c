/*
 * report/folded.c - peo report --folded: a recording's stacks as folded
 * lines ("comm;outer;...;leaf weight"), the input of flame graphs, as
 * FlameGraph's stackcollapse-perf.pl makes them from perf script's lines
 * of the same file (tests/stackcollapse.py says its rules): the weight is
 * the samples' periods (a tracepoint's samples: their count), only the
 * first sampled event is kept (tracepoints always: their lines never name
 * one where it looks), names are tidied as it tidies them, and the lines
 * are sorted bytewise.  Where it sees no frame (a sample without a
 * callchain, its ip on perf script's first line), peo gives the ip's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* A growing string. */
struct text {
	char *s;
	size_t n, cap;
	int failed;
};

static void put(struct text *t, const char *s, size_t len)
{
	if (t->failed)
		return;
	if (t->n + len + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 256;
		char *more;

		while (cap < t->n + len + 1)
			cap *= 2;
		if (!(more = realloc(t->s, cap))) {
			t->failed = 1;
			return;
		}
		t->s = more;
		t->cap = cap;
	}
	memcpy(t->s + t->n, s, len);
	t->n += len;
	t->s[t->n] = 0;
}

/* Go's method names keep what follows their parenthesis: pkg.(*T).f */
static int looks_like_go_method(const char *s, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++)
		if (s[i] == '.' && s[i + 1] == '(')
			for (size_t j = i + 2; j + 1 < len; j++)
				if (s[j] == ')' && s[j + 1] == '.')
					return 1;
	return 0;
}

/* One frame's name part (@s, @len), tidied: ';' as ':', from the first
 * '(' that does not open "(anonymous namespace)" on cut (but in a Go
 * method name), quotes dropped, a Java class's leading L too. */
static void put_tidy(struct text *t, const char *s, size_t len, int java)
{
	static const char anon[] = "(anonymous namespace)";

	if (!looks_like_go_method(s, len))
		for (size_t i = 0; i < len; i++)
			if (s[i] == '(' && (len - i < sizeof(anon) - 1 ||
					    memcmp(s + i, anon, sizeof(anon) - 1))) {
				len = i;
				break;
			}
	if (java && len && s[0] == 'L' && memchr(s, '/', len)) {
		s++;
		len--;
	}
	for (size_t i = 0; i < len; i++)
		if (s[i] != '"' && s[i] != '\'')
			put(t, s[i] == ';' ? ":" : s + i, 1);
}

/* The kind of frame @f, for a flame graph's colours. */
static unsigned char kind_of(const struct peo_frame *f)
{
	const char *dso = f->dso;
	size_t len = dso ? strlen(dso) : 0;

	if (f->flags & PEO_FRAME_INLINED)
		return FOLD_INLINED;
	if (f->flags & PEO_FRAME_KERNEL)
		return FOLD_KERNEL;
	if (dso && !strncmp(dso, "/tmp/perf-", 10) && len > 4 && !strcmp(dso + len - 4, ".map"))
		return FOLD_JIT;
	return FOLD_USER;
}

/* Frame @f's parts after a ';' each into @t, their kinds into @kinds: its
 * name split at "->", each tidied; [unknown] as its binary's base name in
 * brackets where one is known. */
static void put_frame(struct text *t, struct text *kinds, const struct peo_frame *f, int java)
{
	const char *s = f->sym;
	char kind = (char)kind_of(f);

	if (!s) {
		const char *dso = f->dso, *slash = dso ? strrchr(dso, '/') : NULL;

		put(kinds, &kind, 1);
		put(t, ";[", 2);
		dso = !dso ? "unknown" : slash ? slash + 1 : dso;
		put_tidy(t, dso, strlen(dso), java);
		put(t, "]", 1);
		return;
	}
	if (s[0] == '(')
		return; /* stackcollapse drops these */
	for (;;) {
		const char *arrow = strstr(s, "->");
		size_t len = arrow ? (size_t)(arrow - s) : strlen(s);

		put(kinds, &kind, 1);
		put(t, ";", 1);
		put_tidy(t, s, len, java);
		if (!arrow)
			break;
		s = arrow + 2;
	}
}

/* @st's frames outermost first.  The ip's own frame comes before the
 * functions inlined at it in a profile (its row's), after them in perf
 * script's lines: as perf script has them. */
static void put_stack(struct text *t, struct text *kinds, const struct peo_profile_stack *st,
		      int java)
{
	size_t inl = 0;

	while (inl + 1 < st->nframes && (st->frames[inl + 1]->flags & PEO_FRAME_INLINED) &&
	       st->frames[inl + 1]->addr == st->frames[0]->addr)
		inl++;
	for (size_t k = st->nframes; k-- > inl + 1;)
		put_frame(t, kinds, st->frames[k], java);
	put_frame(t, kinds, st->frames[0], java);
	for (size_t k = inl; k > 0; k--)
		put_frame(t, kinds, st->frames[k], java);
}

static const char *g_text; /* qsort's: the lines' text */

static int by_text(const void *pa, const void *pb)
{
	const struct fold_line *a = pa, *b = pb;

	return strcmp(g_text + a->at, g_text + b->at);
}

/* Whether stack @st's event is kept: a tracepoint's, or the first event
 * named (*@first: its index, -1 until one is). */
static int kept(struct report_data *d, const struct peo_profile_stack *st, long *first)
{
	const struct peo_attr *attr = peo_perfdata_attr(d->f, st->event);
	const char *name, *first_name;

	if (attr && attr->type == PEO_TYPE_TRACEPOINT)
		return 1;
	if (*first < 0) {
		*first = st->event;
		return 1;
	}
	if ((uint32_t)*first == st->event)
		return 1;
	name = peo_perfdata_event_name(d->f, st->event);
	first_name = peo_perfdata_event_name(d->f, (size_t)*first);
	return name && first_name && !strcmp(name, first_name);
}

/* Line @l: comm (spaces as '_'; a kind for each ';'-separated piece) and
 * @st's frames; its weight and count. */
static void add_line(struct report_data *d, struct folded *f, struct text *t, struct text *kinds,
		     const struct peo_profile_stack *st)
{
	const struct peo_attr *attr = peo_perfdata_attr(d->f, st->event);
	const char *comm = st->comm ? st->comm : ":-1";
	struct fold_line *l = &f->lines[f->n++];
	char kind = FOLD_COMM;

	l->at = t->n;
	l->kinds_at = kinds->n;
	l->count = st->count;
	l->weight = attr && attr->type == PEO_TYPE_TRACEPOINT ? st->count : st->period;
	put(kinds, &kind, 1);
	for (const char *c = comm; *c; c++) {
		put(t, *c == ' ' ? "_" : c, 1);
		if (*c == ';')
			put(kinds, &kind, 1);
	}
	put_stack(t, kinds, st, !strncmp(comm, "java", 4));
	put(t, "", 1); /* the line's end: its own NUL */
	f->total_weight += l->weight;
	f->total_count += l->count;
}

int report_fold(struct report_data *d, struct folded *f)
{
	size_t n = peo_profile_stacks(d->profile), merged = 0;
	struct text t = { 0 }, kinds = { 0 };
	long first = -1;

	memset(f, 0, sizeof(*f));
	if (!(f->lines = calloc(n ? n : 1, sizeof(*f->lines))))
		goto no_memory;
	for (size_t i = 0; i < n; i++) {
		struct peo_profile_stack st;

		if (!peo_profile_stack(d->profile, i, &st) && report_stack_passes(d->args, &st) &&
		    kept(d, &st, &first))
			add_line(d, f, &t, &kinds, &st);
	}
	f->text = t.s;
	f->kinds = (unsigned char *)kinds.s;
	if (t.failed || kinds.failed)
		goto no_memory;
	f->event = first >= 0 ? peo_perfdata_event_name(d->f, (size_t)first) : NULL;
	g_text = t.s;
	qsort(f->lines, f->n, sizeof(*f->lines), by_text);
	for (size_t i = 0; i < f->n; i++) /* equal lines as one */
		if (merged && !strcmp(t.s + f->lines[merged - 1].at, t.s + f->lines[i].at)) {
			f->lines[merged - 1].weight += f->lines[i].weight;
			f->lines[merged - 1].count += f->lines[i].count;
		} else {
			f->lines[merged++] = f->lines[i];
		}
	f->n = merged;
	return 0;
no_memory:
	fprintf(stderr, "peo report: out of memory for the folded stacks\n");
	report_fold_free(f);
	return -1;
}

void report_fold_free(struct folded *f)
{
	free(f->lines);
	free(f->text);
	free(f->kinds);
	memset(f, 0, sizeof(*f));
}

int report_folded(struct report_data *d, FILE *out)
{
	struct folded f;
	int err = 0;

	if (report_fold(d, &f))
		return -1;
	for (size_t i = 0; i < f.n; i++)
		if (fprintf(out, "%s %llu\n", f.text + f.lines[i].at,
			    (unsigned long long)f.lines[i].weight) < 0)
			err = -1;
	report_fold_free(&f);
	return err;
}

int report_fold_join(const struct folded *base, const struct folded *f, struct fold_pair **out,
		     size_t *n)
{
	struct fold_pair *v = calloc(base->n + f->n + 1, sizeof(*v));
	size_t i = 0, j = 0;

	*n = 0;
	*out = v;
	if (!v) {
		fprintf(stderr, "peo report: out of memory for the folded stacks\n");
		return -1;
	}
	/* both sorted bytewise: one pass, a line of both once */
	while (i < base->n || j < f->n) {
		const struct fold_line *b = i < base->n ? &base->lines[i] : NULL;
		const struct fold_line *l = j < f->n ? &f->lines[j] : NULL;
		int c = !b ? 1 : !l ? -1 : strcmp(base->text + b->at, f->text + l->at);
		struct fold_pair *p = &v[(*n)++];

		if (c >= 0) {
			*p = (struct fold_pair){ .text = f->text + l->at, .kinds = f->kinds + l->kinds_at,
						 .weight = l->weight, .count = l->count };
			j++;
		}
		if (c <= 0) {
			if (c < 0)
				*p = (struct fold_pair){ .text = base->text + b->at,
							 .kinds = base->kinds + b->kinds_at };
			p->base_weight = b->weight;
			p->base_count = b->count;
			i++;
		}
	}
	return 0;
}

int report_fold_two(struct report_data *base, struct report_data *d, struct folded *fb,
		    struct folded *f)
{
	if (report_fold(base, fb))
		return -1;
	if (report_fold(d, f)) {
		report_fold_free(fb);
		return -1;
	}
	return 0;
}

int report_folded_diff(struct report_data *base, struct report_data *d, FILE *out)
{
	struct folded fb, f;
	struct fold_pair *v = NULL;
	size_t n = 0;
	int err = -1;

	if (report_fold_two(base, d, &fb, &f))
		return -1;
	if (!report_fold_join(&fb, &f, &v, &n)) {
		err = 0;
		for (size_t i = 0; i < n; i++)
			if (fprintf(out, "%s %llu %llu\n", v[i].text,
				    (unsigned long long)v[i].base_weight,
				    (unsigned long long)v[i].weight) < 0)
				err = -1;
	}
	free(v);
	report_fold_free(&fb);
	report_fold_free(&f);
	return err;
}
