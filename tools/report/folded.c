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

/* Frame @f's parts after a ';' each: its name split at "->", each tidied;
 * [unknown] as its binary's base name in brackets where one is known. */
static void put_frame(struct text *t, const struct peo_frame *f, int java)
{
	const char *s = f->sym;

	if (!s) {
		const char *dso = f->dso, *slash = dso ? strrchr(dso, '/') : NULL;

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
static void put_stack(struct text *t, const struct peo_profile_stack *st, int java)
{
	size_t inl = 0;

	while (inl + 1 < st->nframes && (st->frames[inl + 1]->flags & PEO_FRAME_INLINED) &&
	       st->frames[inl + 1]->addr == st->frames[0]->addr)
		inl++;
	for (size_t k = st->nframes; k-- > inl + 1;)
		put_frame(t, st->frames[k], java);
	put_frame(t, st->frames[0], java);
	for (size_t k = inl; k > 0; k--)
		put_frame(t, st->frames[k], java);
}

struct line {
	size_t at;       /* in the text */
	uint64_t weight;
};

static const char *g_text; /* qsort's: the lines' text */

static int by_text(const void *pa, const void *pb)
{
	const struct line *a = pa, *b = pb;

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

int report_folded(struct report_data *d, FILE *out)
{
	size_t n = peo_profile_stacks(d->profile), nlines = 0;
	struct line *lines = calloc(n ? n : 1, sizeof(*lines));
	struct text t = { 0 };
	long first = -1;
	int err = 0;

	if (!lines) {
		fprintf(stderr, "peo report: out of memory for the folded stacks\n");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct peo_profile_stack st;
		const struct peo_attr *attr;
		const char *comm;

		if (peo_profile_stack(d->profile, i, &st) || !kept(d, &st, &first))
			continue;
		attr = peo_perfdata_attr(d->f, st.event);
		comm = st.comm ? st.comm : ":-1";
		lines[nlines].at = t.n;
		lines[nlines++].weight = attr && attr->type == PEO_TYPE_TRACEPOINT ? st.count
											: st.period;
		for (const char *c = comm; *c; c++)
			put(&t, *c == ' ' ? "_" : c, 1);
		put_stack(&t, &st, !strncmp(comm, "java", 4));
		put(&t, "", 1); /* the line's end: its own NUL */
	}
	if (t.failed) {
		fprintf(stderr, "peo report: out of memory for the folded stacks\n");
		free(lines);
		free(t.s);
		return -1;
	}
	g_text = t.s;
	qsort(lines, nlines, sizeof(*lines), by_text);
	for (size_t i = 0; i < nlines;) {
		uint64_t w = 0;
		size_t j = i;

		while (j < nlines && !strcmp(t.s + lines[j].at, t.s + lines[i].at))
			w += lines[j++].weight;
		if (fprintf(out, "%s %llu\n", t.s + lines[i].at, (unsigned long long)w) < 0)
			err = -1;
		i = j;
	}
	free(lines);
	free(t.s);
	return err;
}
