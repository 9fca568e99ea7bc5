/*
 * test_callgraph.c - the call graphs under peo report's rows
 * (tools/report/callgraph.c): frames the same by perf's function key
 * (one function whatever the address, an inlined one by name, an unnamed
 * address by address); the graph, fractal, flat and folded layouts
 * printed exactly as perf prints them for a tree worked out by hand;
 * thresholds, the single branch printed without its share, the row's
 * own symbol left out, the print limit; 100,000 chains 64 deep.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "report/report.h"

#define BIN "/bin/x"

static struct peo_frame fn(const char *sym, uint64_t addr)
{
	/* a function of BIN starting at addr & ~0xff */
	return (struct peo_frame){ .sz = sizeof(struct peo_frame), .addr = addr, .sym = sym,
				   .dso = BIN, .dso_offset = addr, .symoff = addr & 0xff };
}

/* Add the chain of @n frames (the caller first) @times with @period each. */
static void add(struct callgraph *g, uint32_t root, const struct peo_frame *const *f, size_t n,
		uint64_t period)
{
	assert_int_equal(callgraph_add(g, root, f, n, 1, period, 1), 0);
}

/* @root printed with @o (total and row period 100) into a string. */
static char *print(struct callgraph *g, uint32_t root, struct callgraph_opts o, uint64_t row)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	assert_non_null(out);
	assert_int_equal(callgraph_print(g, root, &o, out, 100, 100, row), 0);
	fclose(out);
	return text;
}

/* A -> B -> C 60, A -> B -> D 30, A -> E 10: the tree worked out below,
 * in a new graph *@g. */
static uint32_t abcde(struct callgraph **g)
{
	static struct peo_frame a, b, c, d, e, b2;

	assert_int_equal(callgraph_new(g), 0);
	uint32_t root = callgraph_root(*g);

	a = fn("A", 0x1010), b = fn("B", 0x2020), c = fn("C", 0x3030), d = fn("D", 0x4040);
	e = fn("E", 0x5050), b2 = fn("B", 0x2077); /* B again, another address in it */
	const struct peo_frame *abc[] = { &a, &b, &c }, *abd[] = { &a, &b2, &d }, *ae[] = { &a, &e };

	assert_int_not_equal(root, 0);
	add(*g, root, abc, 3, 60);
	add(*g, root, abd, 3, 30);
	add(*g, root, ae, 2, 10);
	return root;
}

static void graph_layout(void **state)
{
	struct callgraph *g;
	char *text;

	(void)state;
	uint32_t root = abcde(&g);

	text = print(g, root, (struct callgraph_opts){ .mode = CG_GRAPH, .min_percent = 0.5 }, 100);
	assert_string_equal(text,
			    "            |\n"
			    "            ---A\n"
			    "               |          \n"
			    "               |--90.00%--B\n"
			    "               |          |          \n"
			    "               |          |--60.00%--C\n"
			    "               |          |          \n"
			    "               |           --30.00%--D\n"
			    "               |          \n"
			    "                --10.00%--E\n"
			    "\n");
	free(text);
	/* a row of more than its chains: the one branch's share is printed */
	text = print(g, root, (struct callgraph_opts){ .mode = CG_GRAPH, .min_percent = 0.5 }, 200);
	assert_non_null(strstr(text, "            |          \n             --100.00%--A\n"));
	free(text);
	/* 15% and more: E (10%) left out, D's branch the last */
	text = print(g, root, (struct callgraph_opts){ .mode = CG_GRAPH, .min_percent = 15 }, 100);
	assert_null(strstr(text, "E"));
	assert_non_null(strstr(text, "                --90.00%--B\n"));
	free(text);
	/* sorted by symbol first: the row's own (A) is not repeated, and with
	 * nothing else in its run the branches start at the margin */
	text = print(g, root, (struct callgraph_opts){ .mode = CG_GRAPH, .skip_first = 1 }, 100);
	assert_true(!strncmp(text, "            |          \n            |--90.00%--B\n", 49));
	assert_null(strstr(text, "A"));
	free(text);
	/* counts and periods instead of shares */
	text = print(g, root, (struct callgraph_opts){ .mode = CG_GRAPH, .value = CG_COUNT }, 100);
	assert_non_null(strstr(text, "|--2--B\n"));
	free(text);
	text = print(g, root, (struct callgraph_opts){ .mode = CG_GRAPH, .value = CG_PERIOD }, 100);
	assert_non_null(strstr(text, "|--60--C\n"));
	free(text);
	/* one branch at each place */
	text = print(g, root, (struct callgraph_opts){ .mode = CG_GRAPH, .print_limit = 1 }, 100);
	assert_null(strstr(text, "D"));
	assert_null(strstr(text, "E"));
	free(text);
	callgraph_free(g);
}

static void fractal_layout(void **state)
{
	struct callgraph *g;
	char *text;

	(void)state;
	uint32_t root = abcde(&g);

	/* each branch's share of where it starts; E (10 of A's 100) under
	 * 15% is left out and shown as [...], straight after the last */
	text = print(g, root, (struct callgraph_opts){ .mode = CG_FRACTAL, .min_percent = 15 }, 100);
	assert_string_equal(text,
			    "            |\n"
			    "            ---A\n"
			    "               |          \n"
			    "               |--90.00%--B\n"
			    "               |          |          \n"
			    "               |          |--66.67%--C\n"
			    "               |          |          \n"
			    "               |           --33.33%--D\n"
			    "                --10.00%--[...]\n"
			    "\n");
	free(text);
	callgraph_free(g);
}

static void flat_and_folded(void **state)
{
	struct callgraph *g;
	char *text;

	(void)state;
	uint32_t root = abcde(&g);

	text = print(g, root, (struct callgraph_opts){ .mode = CG_FOLDED, .min_percent = 0.5 }, 100);
	assert_string_equal(text, "60.00% A;B;C\n30.00% A;B;D\n10.00% A;E\n");
	free(text);
	text = print(g, root, (struct callgraph_opts){ .mode = CG_FLAT, .min_percent = 20 }, 100);
	assert_string_equal(text,
			    "           60.00%\n                A\n                B\n                C\n\n"
			    "           30.00%\n                A\n                B\n                D\n\n");
	free(text);
	callgraph_free(g);
}

/* perf's function key: one function whatever the address; an inlined one
 * by its name (in whatever binary); an unnamed address by the address. */
static void frames_the_same(void **state)
{
	struct callgraph *g;
	struct peo_frame f1 = fn("f", 0x1010), f2 = fn("f", 0x1099), g1 = fn("g", 0x2010);
	struct peo_frame in1 = fn("inl", 0x3010), in2 = fn("inl", 0x7010), plain = fn("inl", 0x8010);
	struct peo_frame u1 = { .sz = sizeof(u1), .addr = 0x9000 }, u2 = u1, u3 = u1;
	char *text;

	(void)state;
	in1.flags = in2.flags = PEO_FRAME_INLINED;
	in2.dso = "/lib/other";
	u3.addr = 0x9001;
	const struct peo_frame *c1[] = { &f1, &in1, &u1 }, *c2[] = { &f2, &in2, &u2 },
			       *c3[] = { &f1, &in1, &u3 }, *c4[] = { &g1 }, *c5[] = { &f1, &plain };

	assert_int_equal(callgraph_new(&g), 0);
	uint32_t root = callgraph_root(g);

	add(g, root, c1, 3, 1);
	add(g, root, c2, 3, 1);
	add(g, root, c3, 3, 1);
	add(g, root, c4, 1, 1);
	add(g, root, c5, 2, 1); /* a function of inl's name, not inlined: inl's node */
	text = print(g, root, (struct callgraph_opts){ .mode = CG_FOLDED }, 5);
	/* u1 and u2 one address, u3 another: two chains through f and inl;
	 * ties in perf's order (the larger address first, a node's branches
	 * before it) */
	assert_string_equal(text, "2.00% f;inl (inlined);0x9000\n1.00% g\n"
				  "1.00% f;inl (inlined);0x9001\n1.00% f;inl (inlined)\n");
	free(text);
	callgraph_free(g);
}

/* 100,000 chains 64 deep (a branch at every level of a binary counter
 * of 17 bits), through the depth mask's 32 bits: all counted, printed. */
static void many_deep_chains(void **state)
{
	enum { CHAINS = 100000, DEPTH = 64 };
	static struct peo_frame frames[DEPTH][2];
	const struct peo_frame *chain[DEPTH];
	struct callgraph *g;
	char *text = NULL, name[DEPTH][2][8];
	size_t size = 0, lines = 0;

	(void)state;
	for (int d = 0; d < DEPTH; d++)
		for (int b = 0; b < 2; b++) {
			snprintf(name[d][b], sizeof(name[d][b]), "f%d_%d", d, b);
			frames[d][b] = fn(name[d][b], (uint64_t)(d * 2 + b + 1) << 8);
		}
	assert_int_equal(callgraph_new(&g), 0);
	uint32_t root = callgraph_root(g);

	for (int i = 0; i < CHAINS; i++) {
		for (int d = 0; d < DEPTH; d++)
			chain[d] = &frames[d][d >= DEPTH - 17 ? (i >> (DEPTH - 1 - d)) & 1 : 0];
		add(g, root, chain, DEPTH, 1);
	}
	FILE *out = open_memstream(&text, &size);
	struct callgraph_opts o = { .mode = CG_FOLDED };

	assert_int_equal(callgraph_print(g, root, &o, out, CHAINS, CHAINS, CHAINS), 0);
	fclose(out);
	for (char *p = text; (p = strchr(p, '\n')); p++)
		lines++;
	assert_int_equal(lines, 1u << 17 > CHAINS ? CHAINS : 1u << 17);
	free(text);
	o.mode = CG_GRAPH;
	text = NULL;
	out = open_memstream(&text, &size);
	assert_int_equal(callgraph_print(g, root, &o, out, CHAINS, CHAINS, CHAINS), 0);
	fclose(out);
	assert_non_null(strstr(text, "---f0_0\n"));
	free(text);
	callgraph_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(graph_layout),
		cmocka_unit_test(fractal_layout),
		cmocka_unit_test(flat_and_folded),
		cmocka_unit_test(frames_the_same),
		cmocka_unit_test(many_deep_chains),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
