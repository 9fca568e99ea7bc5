/*
 * report/callgraph.c - the call graph under each row of peo report
 * --stdio, in perf report's -g modes: graph (each branch's share of all
 * samples), fractal (of its parent's), flat (each chain whole) and folded
 * (each chain on one line).
 *
 * A row's chains go into a trie of frames, one node a frame, a frame the
 * same as another when perf's function key says so (the same function of
 * the same binary; an inlined one by its name; an unnamed address by the
 * address).  perf keeps its tree compressed, one node a run of frames; a
 * run ends where a chain ends or branches, so the trie's runs are perf's
 * nodes and are printed as such.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

struct cg_node {
	const struct peo_frame *fr; /* NULL for a row's root */
	uint32_t parent, first_child, next_sibling; /* node indexes; 0: none */
	uint32_t nchildren;
	uint64_t hit, total;     /* periods: of the chains ending here, of all through it */
	uint64_t hit_count, total_count; /* the same in samples */
};

struct callgraph {
	struct cg_node *v; /* v[0] unused: index 0 is "none" */
	size_t n, cap;
	uint32_t *slots;   /* (parent, frame) -> node, open addressing */
	size_t nslots;
};

int callgraph_new(struct callgraph **out)
{
	struct callgraph *g = calloc(1, sizeof(*g));

	if (!g)
		return -1;
	g->n = 1;
	*out = g;
	return 0;
}

void callgraph_free(struct callgraph *g)
{
	if (!g)
		return;
	free(g->v);
	free(g->slots);
	free(g);
}

static int strcmp0(const char *a, const char *b)
{
	return a == b ? 0 : !a ? -1 : !b ? 1 : strcmp(a, b);
}

/* Where @f's function starts in its binary, or @f's address when no symbol
 * names it: its key with its binary, as perf matches chain entries. */
static uint64_t key_address(const struct peo_frame *f)
{
	return f->sym ? f->dso_offset - f->symoff : f->addr;
}

static int frame_cmp(const struct peo_frame *a, const struct peo_frame *b)
{
	if (a == b)
		return 0;
	if (a->sym && b->sym && ((a->flags | b->flags) & PEO_FRAME_INLINED))
		return strcmp(a->sym, b->sym);
	int c = strcmp0(a->dso, b->dso);

	if (c)
		return c;
	if (!a->sym != !b->sym) /* perf then compares the addresses */
		return a->addr != b->addr ? (a->addr < b->addr ? -1 : 1) : 0;
	return key_address(a) != key_address(b) ? (key_address(a) < key_address(b) ? -1 : 1) : 0;
}

/* By the name where there is one: an inlined function matches a frame
 * of the same name, inlined or not (frame_cmp()). */
static uint64_t frame_hash(const struct peo_frame *f, uint32_t parent)
{
	uint64_t h = 1469598103934665603ull ^ parent;

	if (f->sym)
		for (const char *s = f->sym; *s; s++)
			h = (h ^ (unsigned char)*s) * 1099511628211ull;
	else
		h ^= f->addr * 0x9e3779b97f4a7c15ull;
	return (h ^ h >> 29) * 0xbf58476d1ce4e5b9ull;
}

/* A node for @fr under @parent; 0 out of memory. */
static uint32_t new_node(struct callgraph *g, uint32_t parent, const struct peo_frame *fr)
{
	if (g->n >= g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 1024;
		struct cg_node *more = cap < UINT32_MAX ? realloc(g->v, cap * sizeof(*more)) : NULL;

		if (!more)
			return 0;
		g->v = more;
		g->cap = cap;
	}
	g->v[g->n] = (struct cg_node){ .fr = fr, .parent = parent };
	if (parent) {
		g->v[g->n].next_sibling = g->v[parent].first_child;
		g->v[parent].first_child = (uint32_t)g->n;
		g->v[parent].nchildren++;
	}
	return (uint32_t)g->n++;
}

uint32_t callgraph_root(struct callgraph *g)
{
	return new_node(g, 0, NULL);
}

/* @parent's child for @fr, made when new; 0 out of memory. */
static uint32_t child(struct callgraph *g, uint32_t parent, const struct peo_frame *fr)
{
	size_t at;

	if (g->n * 2 >= g->nslots) {
		size_t want = g->nslots ? g->nslots * 2 : 4096;
		uint32_t *s = calloc(want, sizeof(*s));

		if (!s)
			return 0;
		for (size_t i = 1; i < g->n; i++) {
			if (!g->v[i].parent)
				continue; /* roots are found by their rows */
			for (at = frame_hash(g->v[i].fr, g->v[i].parent) & (want - 1); s[at];
			     at = (at + 1) & (want - 1))
				;
			s[at] = (uint32_t)i;
		}
		free(g->slots);
		g->slots = s;
		g->nslots = want;
	}
	for (at = frame_hash(fr, parent) & (g->nslots - 1); g->slots[at];
	     at = (at + 1) & (g->nslots - 1)) {
		const struct cg_node *c = &g->v[g->slots[at]];

		if (c->parent == parent && !frame_cmp(c->fr, fr))
			return g->slots[at];
	}
	uint32_t i = new_node(g, parent, fr);

	if (i)
		g->slots[at] = i;
	return i;
}

int callgraph_add(struct callgraph *g, uint32_t root, const struct peo_frame *const *frames,
		  size_t n, int step, uint64_t period, uint64_t count)
{
	uint32_t at = root;

	g->v[root].total += period;
	g->v[root].total_count += count;
	for (size_t i = 0; i < n; i++) {
		if (!(at = child(g, at, frames[(ptrdiff_t)i * step])))
			return -1;
		g->v[at].total += period;
		g->v[at].total_count += count;
	}
	g->v[at].hit += period;
	g->v[at].hit_count += count;
	return 0;
}

/* Printing: one row's tree. */
struct cg_print {
	const struct callgraph *g;
	const struct callgraph_opts *o;
	FILE *out;
	uint64_t min_hit;
	int printed; /* anything */
};

/* The least a branch under @node must weigh to be shown: fractal's share
 * of the branches there (rounded up, as perf), else p->min_hit. */
static uint64_t least(const struct cg_print *p, uint32_t node)
{
	const struct cg_node *c = &p->g->v[node];
	double x = (double)(c->total - c->hit) * (p->o->min_percent / 100.0);
	uint64_t m = (uint64_t)x;

	if (p->o->mode != CG_FRACTAL)
		return p->min_hit;
	return (double)m < x ? m + 1 : m;
}

/* The last node of the run (perf's node) that starts at @i: where a
 * chain ends (samples of no period too) or branches. */
static uint32_t run_end(const struct callgraph *g, uint32_t i)
{
	while (!g->v[i].hit_count && g->v[i].nchildren == 1)
		i = g->v[i].first_child;
	return i;
}

static const struct callgraph *sort_g;

/* Siblings in the order perf's tree keeps them: a new node goes before a
 * smaller one, so by binary, then address, the larger first. */
static int by_key(const void *pa, const void *pb)
{
	return frame_cmp(sort_g->v[*(const uint32_t *)pb].fr, sort_g->v[*(const uint32_t *)pa].fr);
}

/* Siblings by their share, the larger first; ties by_key(). */
static int by_total(const void *pa, const void *pb)
{
	const struct cg_node *x = &sort_g->v[*(const uint32_t *)pa];
	const struct cg_node *y = &sort_g->v[*(const uint32_t *)pb];

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return by_key(pa, pb);
}

/* @node's children of at least @min_hit, sorted by @cmp; *@n of them.
 * NULL when none (or out of memory: *@n is then SIZE_MAX). */
static uint32_t *kids(const struct callgraph *g, uint32_t node, uint64_t min_hit, size_t *n,
		      int (*cmp)(const void *, const void *))
{
	uint32_t *v = malloc((g->v[node].nchildren + 1) * sizeof(*v));

	*n = 0;
	if (!v) {
		*n = SIZE_MAX;
		return NULL;
	}
	for (uint32_t c = g->v[node].first_child; c; c = g->v[c].next_sibling)
		if (g->v[c].total >= min_hit)
			v[(*n)++] = c;
	sort_g = g;
	if (*n > 1)
		qsort(v, *n, sizeof(*v), cmp);
	return v;
}

static void margin(struct cg_print *p, int left)
{
	fprintf(p->out, "%*s", 12 + left, "");
	p->printed = 1;
}

/* A frame's name as perf's chains print it. */
static void put_name(struct cg_print *p, const struct peo_frame *f)
{
	if (!f)
		fputs("[...]", p->out);
	else if (f->sym)
		fprintf(p->out, "%s%s", f->sym, (f->flags & PEO_FRAME_INLINED) ? " (inlined)" : "");
	else
		fprintf(p->out, "%#llx", (unsigned long long)f->addr);
}

static void put_value(struct cg_print *p, uint64_t period, uint64_t count, uint64_t total)
{
	switch (p->o->value) {
	case CG_PERIOD:
		fprintf(p->out, "%llu", (unsigned long long)period);
		break;
	case CG_COUNT:
		fprintf(p->out, "%llu", (unsigned long long)count);
		break;
	default:
		fprintf(p->out, "%.2f%%", total ? 100.0 * (double)period / (double)total : 0.0);
	}
}

/* perf's depth mask is an int shifted by the depth: its bits wrap at 32 on
 * x86, which deep graphs show; so do ours. */
static int mask_has(unsigned mask, int depth)
{
	return (mask >> (depth & 31)) & 1;
}

static unsigned mask_bit(int depth)
{
	return 1u << (depth & 31);
}

/* The branch line between siblings. */
static void graph_line(struct cg_print *p, int depth, unsigned mask, int left)
{
	margin(p, left);
	for (int i = 0; i < depth; i++)
		fputs(mask_has(mask, i) ? "|          " : "           ", p->out);
	fputc('\n', p->out);
}

/* One entry of a branch: its first (@first) with the branch's value. */
static void graph_entry(struct cg_print *p, const struct peo_frame *f, int first, uint64_t period,
			uint64_t count, uint64_t total, int depth, unsigned mask, int left)
{
	margin(p, left);
	for (int i = 0; i < depth; i++) {
		fputc(mask_has(mask, i) ? '|' : ' ', p->out);
		if (first && i == depth - 1) {
			fputs("--", p->out);
			put_value(p, period, count, total);
			fputs("--", p->out);
		} else {
			fputs("          ", p->out);
		}
	}
	put_name(p, f);
	fputc('\n', p->out);
}

/* The branches under @node, @depth deep, their shares of @total. */
static int graph_branches(struct cg_print *p, uint32_t node, uint64_t total, int depth,
			  unsigned mask, int left)
{
	const struct callgraph *g = p->g;
	size_t n;
	uint32_t *v = kids(g, node, least(p, node), &n, by_total);
	uint64_t remaining = total, counted = 0;
	unsigned new_mask = mask;
	int fractal = p->o->mode == CG_FRACTAL;

	if (n == SIZE_MAX)
		return -1;
	for (size_t k = 0; k < n; k++) {
		const struct cg_node *c = &g->v[v[k]];
		uint32_t end = run_end(g, v[k]);

		remaining -= c->total;
		counted += c->total_count;
		/* the last branch's line stops here, unless fractal's rest follows */
		if (k == n - 1 && (!fractal || !remaining))
			new_mask &= ~mask_bit(depth - 1);
		graph_line(p, depth, mask, left);
		for (uint32_t i = v[k], first = 1;; i = g->v[i].first_child, first = 0) {
			graph_entry(p, g->v[i].fr, first, c->total, c->total_count, total, depth,
				    new_mask, left);
			if (i == end)
				break;
		}
		if (graph_branches(p, end, fractal ? g->v[end].total - g->v[end].hit : total,
				   depth + 1, new_mask | mask_bit(depth), left)) {
			free(v);
			return -1;
		}
		if (k + 1 == p->o->print_limit)
			break;
	}
	if (fractal && remaining && remaining != total) { /* the share below the threshold */
		uint64_t below = g->v[node].total_count - g->v[node].hit_count;

		/* perf leaves it out when counting samples and none are left */
		if (p->o->value == CG_COUNT && n && below <= counted) {
			free(v);
			return 0;
		}
		new_mask &= ~mask_bit(depth - 1);
		graph_entry(p, NULL, 1, remaining, below - counted, total, depth, new_mask, left);
	}
	free(v);
	return 0;
}

static int print_graph(struct cg_print *p, uint32_t root, uint64_t total, uint64_t row_period)
{
	const struct callgraph *g = p->g;
	size_t n;
	uint32_t *v = kids(g, root, least(p, root), &n, by_total);
	int left = 0, status;

	if (n == SIZE_MAX)
		return -1;
	if (p->o->mode == CG_FRACTAL)
		total = row_period;
	/* one branch of the row's whole period: no share printed, one level less */
	if (n == 1 && g->v[v[0]].total == row_period) {
		uint32_t end = run_end(g, v[0]);
		int started = 0;
		unsigned shown = 0;

		for (uint32_t i = v[0];; i = g->v[i].first_child) {
			/* perf leaves out the row's own symbol when sorting by it first */
			if (i != v[0] || !p->o->skip_first) {
				margin(p, left);
				if (!started) {
					fputs("|\n", p->out);
					margin(p, left);
					fputs("---", p->out);
					left += 3;
					started = 1;
				}
				put_name(p, g->v[i].fr);
				fputc('\n', p->out);
				if (++shown == p->o->print_limit)
					break;
			}
			if (i == end)
				break;
		}
		root = end;
	}
	free(v);
	status = graph_branches(p, root, total, 1, 1, left);
	if (p->printed)
		fputc('\n', p->out);
	return status;
}

/* flat and folded: each chain that ends in a node, the nodes by their
 * own period, the larger first; ties in the order perf walks its tree
 * (a node's branches before it). */
struct cg_ending {
	uint32_t node;
	uint32_t seq;
};

static int by_hit(const void *pa, const void *pb)
{
	const struct cg_ending *x = pa, *y = pb;
	const struct cg_node *a = &sort_g->v[x->node], *b = &sort_g->v[y->node];

	if (a->hit != b->hit)
		return a->hit > b->hit ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int collect_endings(const struct callgraph *g, uint32_t node, uint64_t min_hit,
			   struct cg_ending **v, size_t *n, size_t *cap)
{
	size_t nk;
	uint32_t *k = kids(g, node, 0, &nk, by_key);

	if (nk == SIZE_MAX)
		return -1;
	for (size_t i = 0; i < nk; i++)
		if (collect_endings(g, k[i], min_hit, v, n, cap)) {
			free(k);
			return -1;
		}
	free(k);
	if (!g->v[node].hit_count || g->v[node].hit < min_hit)
		return 0;
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct cg_ending *more = realloc(*v, c * sizeof(*more));

		if (!more)
			return -1;
		*v = more;
		*cap = c;
	}
	(*v)[*n] = (struct cg_ending){ .node = node, .seq = (uint32_t)*n };
	(*n)++;
	return 0;
}

/* The frames from the root to @node, each after @sep (the first after
 * @first_sep). */
static void put_path(struct cg_print *p, uint32_t node, const char *first_sep, const char *sep,
		     int *first)
{
	if (!p->g->v[node].fr)
		return;
	put_path(p, p->g->v[node].parent, first_sep, sep, first);
	fputs(*first ? first_sep : sep, p->out);
	*first = 0;
	put_name(p, p->g->v[node].fr);
}

static int print_chains(struct cg_print *p, uint32_t root, uint64_t total)
{
	struct cg_ending *v = NULL;
	size_t n = 0, cap = 0;

	if (collect_endings(p->g, root, p->min_hit, &v, &n, &cap)) {
		free(v);
		return -1;
	}
	sort_g = p->g;
	if (n > 1)
		qsort(v, n, sizeof(*v), by_hit);
	for (size_t i = 0; i < n; i++) {
		const struct cg_node *c = &p->g->v[v[i].node];
		int first = 1;

		if (p->o->mode == CG_FLAT) {
			fputs("           ", p->out);
			put_value(p, c->total, c->total_count, total);
			put_path(p, v[i].node, "\n                ", "\n                ", &first);
			fputs("\n\n", p->out);
		} else {
			put_value(p, c->hit, c->hit_count, total);
			put_path(p, v[i].node, " ", ";", &first);
			fputc('\n', p->out);
		}
		if (i + 1 == p->o->print_limit)
			break;
	}
	free(v);
	return 0;
}

int callgraph_print(const struct callgraph *g, uint32_t root, const struct callgraph_opts *o,
		    FILE *out, uint64_t total, uint64_t callchain_total, uint64_t row_period)
{
	struct cg_print p = { .g = g, .o = o, .out = out };

	p.min_hit = (uint64_t)((double)callchain_total * (o->min_percent / 100.0));
	if (o->mode == CG_FLAT || o->mode == CG_FOLDED)
		return print_chains(&p, root, total);
	return print_graph(&p, root, total, row_period);
}
