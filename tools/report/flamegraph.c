/*
 * report/flamegraph.c - peo report --flamegraph FILE.svg: the folded
 * stacks (report/folded.c) drawn as an interactive flame graph, one
 * self-contained SVG that any browser opens without a server: a frame's
 * width is its share of the weight, its callees stand on it, siblings in
 * name order; a click zooms to a frame (its callers greyed below), the
 * search (a regular expression) paints the matches and says their share,
 * and each frame's tooltip says its samples and share.  Frames are
 * coloured by kind: user code in reds and yellows, kernel in orange, JIT
 * code in green, inlined functions in aqua, threads' names in grey.
 *
 * Of two recordings (a before and an after), the differential graph: the
 * after's frames, red where they grew and blue where they shrank against
 * the before (scaled to the after's total), the deeper the more.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

#define WIDTH 1200.0      /* the image, px */
#define PAD 10.0          /* left and right */
#define FRAME_H 16        /* a frame's height, px */
#define TOP 60            /* title, search, legend */
#define BOTTOM 34         /* the details line */
#define FONT 12.0         /* px */
#define CHAR_W (FONT * 0.59) /* an average character's width */
#define MIN_PX 0.1        /* narrower frames (and what stands on them) are left out */

/* Lines by frames: ';' below every character, so a frame's lines stay
 * together ("a;b;c" before "a;b!"). */
static int by_frames(const void *pa, const void *pb)
{
	const unsigned char *a = (const unsigned char *)((const struct fold_pair *)pa)->text;
	const unsigned char *b = (const unsigned char *)((const struct fold_pair *)pb)->text;

	for (;; a++, b++) {
		int x = *a == ';' ? 1 : *a, y = *b == ';' ? 1 : *b;

		if (x != y)
			return x - y;
		if (!x)
			return 0;
	}
}

/* An open frame: where its name is, its kind, where it starts. */
struct open_frame {
	const char *name;
	size_t len;
	unsigned char kind;
	uint64_t start, count;
	uint64_t base;    /* the before's weight (a differential graph) */
};

struct svg {
	FILE *out;
	uint64_t total;  /* the weight of the whole graph */
	double scale;    /* px per weight */
	int height;
	/* a differential graph: the before's total, its weight scaled by
	 * base_scale to the after's; the largest change of a frame (found by
	 * a first pass that draws nothing: measuring) */
	int diff, measuring;
	uint64_t base_total;
	double base_scale, max_delta;
};

static void put_escaped(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		switch (s[i]) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			if ((unsigned char)s[i] < 0x20)
				fputc('?', out); /* no control characters in XML */
			else
				fputc(s[i], out);
		}
}

/* A name's colour, varied by its bytes within its kind's range. */
static void colour(const struct open_frame *f, char *buf, size_t cap)
{
	uint32_t h = 2166136261u;
	double v1, v2;

	for (size_t i = 0; i < f->len; i++)
		h = (h ^ (unsigned char)f->name[i]) * 16777619u;
	v1 = (h & 0xff) / 255.0;
	v2 = (h >> 8 & 0xff) / 255.0;
	switch (f->kind) {
	case FOLD_COMM:
		snprintf(buf, cap, "rgb(%d,%d,%d)", 170 + (int)(30 * v1), 170 + (int)(30 * v1),
			 190 + (int)(30 * v1));
		break;
	case FOLD_KERNEL:
		snprintf(buf, cap, "rgb(%d,%d,0)", 210 + (int)(45 * v1), 110 + (int)(60 * v2));
		break;
	case FOLD_JIT:
		snprintf(buf, cap, "rgb(%d,%d,%d)", (int)(60 * v2), 180 + (int)(60 * v1),
			 (int)(60 * v2));
		break;
	case FOLD_INLINED:
		snprintf(buf, cap, "rgb(%d,%d,%d)", 60 + (int)(60 * v2), 180 + (int)(50 * v1),
			 200 + (int)(50 * v1));
		break;
	default: /* user code */
		snprintf(buf, cap, "rgb(%d,%d,%d)", 205 + (int)(50 * v1), (int)(200 * v2),
			 (int)(55 * v1));
	}
}

/* A differential graph's colour: white unchanged, red grown, blue shrunk,
 * the deeper the larger the change (@delta of the largest, @max). */
static void diff_colour(double delta, double max, char *buf, size_t cap)
{
	int pale = 210 - (int)(210 * (max > 0 ? (delta < 0 ? -delta : delta) / max : 0));

	if (delta > 0)
		snprintf(buf, cap, "rgb(255,%d,%d)", pale, pale);
	else if (delta < 0)
		snprintf(buf, cap, "rgb(%d,%d,255)", pale, pale);
	else
		snprintf(buf, cap, "rgb(250,250,250)");
}

/* Frame @f at @depth, ended at @end: its group (title, rect, label). */
static void draw(struct svg *g, const struct open_frame *f, int depth, uint64_t end)
{
	double x = PAD + (double)f->start * g->scale, w = (double)(end - f->start) * g->scale;
	double y = g->height - BOTTOM - (depth + 1) * FRAME_H;
	double pct = g->total ? 100.0 * (double)(end - f->start) / (double)g->total : 0;
	double delta = (double)(end - f->start) - (double)f->base * g->base_scale;
	size_t fits = w / CHAR_W >= 3 ? (size_t)(w / CHAR_W) : 0;
	char fill[48]; /* "rgb(R,G,B)", any int in each */

	if (g->measuring) {
		if (depth && (delta < 0 ? -delta : delta) > g->max_delta)
			g->max_delta = delta < 0 ? -delta : delta;
		return;
	}
	if (w < MIN_PX)
		return;
	if (g->diff)
		diff_colour(delta, g->max_delta, fill, sizeof(fill));
	else
		colour(f, fill, sizeof(fill));
	fprintf(g->out, "<g class=\"f\" data-x=\"%llu\" data-w=\"%llu\" data-d=\"%d\" data-n=\"%llu\">"
		"<title>", (unsigned long long)f->start, (unsigned long long)(end - f->start), depth,
		(unsigned long long)f->count);
	put_escaped(g->out, f->name, f->len);
	if (g->diff) /* its share after, before, and the change in points */
		fprintf(g->out, " (%llu sample%s, %.2f%%; before %.2f%%, %+.2f)",
			(unsigned long long)f->count, f->count == 1 ? "" : "s", pct,
			g->base_total ? 100.0 * (double)f->base / (double)g->base_total : 0.0,
			pct - (g->base_total ? 100.0 * (double)f->base / (double)g->base_total : 0.0));
	else
		fprintf(g->out, " (%llu sample%s, %.2f%%)", (unsigned long long)f->count,
			f->count == 1 ? "" : "s", pct);
	fprintf(g->out, "</title><rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" "
		"height=\"%d\" fill=\"%s\" rx=\"2\"/><text x=\"%.1f\" y=\"%.0f\">", x, y, w,
		FRAME_H - 1, fill, x + 3, y + FRAME_H - 4);
	if (fits >= f->len)
		put_escaped(g->out, f->name, f->len);
	else if (fits >= 3) {
		put_escaped(g->out, f->name, fits - 2);
		fputs("..", g->out);
	}
	fputs("</text></g>\n", g->out);
}

/* The fields of line @l into @v (its names, its kinds): how many, at most @max. */
static size_t split(const struct fold_pair *l, struct open_frame *v, size_t max)
{
	const char *s = l->text;
	size_t n = 0;

	for (;;) {
		const char *semi = strchr(s, ';');
		size_t len = semi ? (size_t)(semi - s) : strlen(s);

		if (n == max)
			break;
		v[n] = (struct open_frame){ .name = s, .len = len, .kind = l->kinds[n] };
		n++;
		if (!semi)
			break;
		s = semi + 1;
	}
	return n;
}

static const char script[] =
#include "report/flamegraph_js.inc"
	;

struct legend {
	const char *name, *fill;
};

static void head(struct svg *g, const char *title)
{
	static const struct legend kinds[] = {
		{ "user", "rgb(230,100,27)" }, { "kernel", "rgb(232,140,0)" },
		{ "JIT", "rgb(30,210,30)" },   { "inlined", "rgb(90,205,225)" },
	};
	static const struct legend changes[] = {
		{ "grew", "rgb(255,60,60)" }, { "shrank", "rgb(60,60,255)" },
		{ "the same", "rgb(250,250,250)" },
	};
	const struct legend *legend = g->diff ? changes : kinds;
	size_t nlegend = g->diff ? 3 : 4;

	fprintf(g->out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" id=\"peo-flamegraph\" width=\"%.0f\" height=\"%d\" "
		"viewBox=\"0 0 %.0f %d\" xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style>text { font-family: Verdana, sans-serif; font-size: %.0fpx; fill: #000; }\n"
		"g.f text { pointer-events: none; }\n g.f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
		"g.f.hidden { display: none; }\n g.f.parent rect { opacity: 0.5; }\n"
		"#title { font-size: 17px; text-anchor: middle; }\n"
		"#unzoom, #search { cursor: pointer; }\n #unzoom.hidden { display: none; }</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"#f8f8f0\"/>\n"
		"<text id=\"title\" x=\"%.0f\" y=\"24\">", WIDTH, g->height, WIDTH, g->height, FONT,
		WIDTH / 2);
	put_escaped(g->out, title, strlen(title));
	fprintf(g->out, "</text>\n<text id=\"unzoom\" class=\"hidden\" x=\"%.0f\" y=\"24\">Reset Zoom"
		"</text>\n<text id=\"search\" x=\"%.0f\" y=\"24\" text-anchor=\"end\">Search</text>\n"
		"<text id=\"matched\" x=\"%.0f\" y=\"%d\" text-anchor=\"end\"></text>\n"
		"<text id=\"details\" x=\"%.0f\" y=\"%d\"> </text>\n", PAD, WIDTH - PAD, WIDTH - PAD,
		g->height - 12, PAD, g->height - 12);
	for (size_t i = 0; i < nlegend; i++)
		fprintf(g->out, "<rect x=\"%.0f\" y=\"38\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			"<text x=\"%.0f\" y=\"49\">%s</text>\n", PAD + 90.0 * (double)i, legend[i].fill,
			PAD + 90.0 * (double)i + 16, legend[i].name);
}

/* The frames of @v's @n lines (sorted by_frames()), each drawn once all
 * its lines are in; the deepest line has @max fields. */
static void frames(struct svg *g, const struct fold_pair *v, size_t n, struct open_frame *open,
		   struct open_frame *cur, size_t max, uint64_t count)
{
	size_t nopen = 1;
	uint64_t x = 0;

	/* the root, all: open over everything */
	open[0] = (struct open_frame){ .name = "all", .len = 3, .kind = FOLD_COMM, .count = count,
				       .base = g->base_total };
	for (size_t i = 0; i < n; i++) {
		size_t k = split(&v[i], cur, max), same = 0;

		/* the frames this line shares with the open ones stay open */
		while (same < k && same + 1 < nopen && open[same + 1].len == cur[same].len &&
		       open[same + 1].kind == cur[same].kind &&
		       !memcmp(open[same + 1].name, cur[same].name, cur[same].len))
			same++;
		while (nopen > same + 1) {
			nopen--;
			draw(g, &open[nopen], (int)nopen, x);
		}
		for (size_t j = same; j < k; j++) {
			open[nopen] = cur[j];
			open[nopen].start = x;
			open[nopen].count = open[nopen].base = 0;
			nopen++;
		}
		for (size_t j = 1; j < nopen; j++) {
			open[j].count += v[i].count;
			open[j].base += v[i].base_weight;
		}
		x += v[i].weight;
	}
	while (nopen > 0) {
		nopen--;
		draw(g, &open[nopen], (int)nopen, x);
	}
}

/* Draw @v's @n lines (of @total weight, @count samples) to @path under
 * @title; @g says whether it is a differential graph.  0, or -1 (said). */
static int write_svg(struct svg *g, struct fold_pair *v, size_t n, uint64_t total, uint64_t count,
		     const char *path, const char *title)
{
	struct open_frame *open = NULL, *cur = NULL;
	size_t max = 1;
	int err = 0;

	for (size_t i = 0; i < n; i++) { /* the deepest stack: the fields of a line */
		size_t k = 1;

		for (const char *s = v[i].text; *s; s++)
			k += *s == ';';
		max = k > max ? k : max;
	}
	if (!(open = calloc(max + 1, sizeof(*open))) || !(cur = calloc(max + 1, sizeof(*cur)))) {
		fprintf(stderr, "peo report: out of memory for the flame graph\n");
		err = -1;
		goto out;
	}
	if (!(g->out = fopen(path, "w"))) {
		fprintf(stderr, "peo report: --flamegraph %s: %s; give a file that can be written\n",
			path, strerror(errno));
		err = -1;
		goto out;
	}
	g->total = total;
	g->scale = total ? (WIDTH - 2 * PAD) / (double)total : 0;
	g->height = TOP + (int)(max + 1) * FRAME_H + BOTTOM;
	head(g, title);
	qsort(v, n, sizeof(*v), by_frames);
	if (g->diff) {
		g->measuring = 1;
		frames(g, v, n, open, cur, max, count);
		g->measuring = 0;
	}
	frames(g, v, n, open, cur, max, count);
	fprintf(g->out, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n</svg>\n", script);
	if (ferror(g->out) | fclose(g->out)) {
		fprintf(stderr, "peo report: writing %s: %s\n", path, strerror(errno ? errno : EIO));
		err = -1;
	}
out:
	free(open);
	free(cur);
	return err;
}

int report_flamegraph(struct report_data *d, const char *path, const char *input)
{
	struct folded f, none = { 0 };
	struct fold_pair *v = NULL;
	struct svg g = { 0 };
	char title[512];
	size_t n;
	int err = -1;

	if (report_fold(d, &f))
		return -1;
	snprintf(title, sizeof(title), "%s: %s, %llu samples", input, f.event ? f.event : "no samples",
		 (unsigned long long)f.total_count);
	if (!report_fold_join(&none, &f, &v, &n))
		err = write_svg(&g, v, n, f.total_weight, f.total_count, path, title);
	free(v);
	report_fold_free(&f);
	return err;
}

int report_flamegraph_diff(struct report_data *base, struct report_data *d, const char *path,
			   const char *base_input, const char *input)
{
	struct folded fb, f;
	struct fold_pair *v = NULL;
	struct svg g = { .diff = 1 };
	char title[1024];
	size_t n;
	int err = -1;

	if (report_fold_two(base, d, &fb, &f))
		return -1;
	snprintf(title, sizeof(title), "%s against %s: %s, %llu samples (before: %llu)", input,
		 base_input, f.event ? f.event : "no samples", (unsigned long long)f.total_count,
		 (unsigned long long)fb.total_count);
	g.base_total = fb.total_weight;
	g.base_scale = fb.total_weight ? (double)f.total_weight / (double)fb.total_weight : 0;
	if (!report_fold_join(&fb, &f, &v, &n))
		err = write_svg(&g, v, n, f.total_weight, f.total_count, path, title);
	free(v);
	report_fold_free(&fb);
	report_fold_free(&f);
	return err;
}
