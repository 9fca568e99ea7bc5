/*
 * expr_parse.c - a print fmt argument parsed once into a tree
 * (expr_tree.h) that expr_eval.c evaluates for each payload: integer
 * arithmetic, comparisons, logic and the conditional operator, casts,
 * string and character literals, REC->field and REC->array[i],
 * __get_str(), __get_dynamic_array() and their _rel and _len forms,
 * __get_bitmask(), __get_cpumask(), __builtin_expect(), and the kernel's
 * helpers __print_flags(), __print_symbolic(), __print_hex(),
 * __print_hex_str() and __print_array().  A name the format does not
 * define (a kernel variable such as jiffies) is 0, as perf's evaluator
 * takes it; alone as a table entry's key, no value.  A call of any other
 * function (jiffies_to_msecs(), a kernel function peo cannot run) leaves
 * the argument unevaluated, as perf leaves it.  Recursive descent, one
 * function per precedence level of C; operators on constants alone are
 * folded into their value.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tracepoint/expr_tree.h"

struct parse {
	struct tpx_lexer lx;
	struct tp_expr *x;
	int depth; /* nesting of unary operators and parentheses */
};

/* Room for one more @size-byte element at the end of the array whose
 * pointer is at @slot (@n used of *@cap): its index, or -1.  The pointer
 * is copied in and out as bytes: any array's, without a cast to void **. */
static int grow(void *slot, size_t size, size_t *n, size_t *cap)
{
	void *v;

	memcpy(&v, slot, sizeof(v));
	if (*n == *cap) {
		size_t more = *cap ? 2 * *cap : 16;

		if (!(v = realloc(v, more * size)))
			return -1;
		memcpy(slot, &v, sizeof(v));
		*cap = more;
	}
	return (int)(*n)++;
}

static int out_of_memory(struct parse *ps)
{
	return tpx_fail(&ps->lx, ENOMEM, "out of memory for a print format's argument");
}

/* Append the @n elements of @size bytes at @list to the tree's list at
 * *@slot (@used of *@cap): where they start, or -1. */
static long append(struct parse *ps, void *slot, size_t *used, size_t *cap, const void *list,
		   size_t n, size_t size)
{
	size_t start = *used;

	for (size_t k = 0; k < n; k++) {
		int at = grow(slot, size, used, cap);
		char *base;

		if (at < 0)
			return out_of_memory(ps);
		memcpy(&base, slot, sizeof(base));
		memcpy(base + (size_t)at * size, (const char *)list + k * size, size);
	}
	return (long)start;
}

/* A new node of @kind, its operands none: its index, or -1. */
static int new_node(struct parse *ps, enum tpx_kind kind)
{
	struct tp_expr *x = ps->x;
	int i = grow(&x->nodes, sizeof(*x->nodes), &x->nnodes, &x->cap_nodes);

	if (i < 0)
		return out_of_memory(ps);
	memset(&x->nodes[i], 0, sizeof(x->nodes[i]));
	x->nodes[i].kind = kind;
	x->nodes[i].a = x->nodes[i].b = x->nodes[i].c = -1;
	x->nodes[i].at = ps->lx.p;
	return i;
}

static int conditional(struct parse *ps);
static int unary(struct parse *ps);

static int string_literal(struct parse *ps)
{
	struct tp_expr *x = ps->x;
	char *text;
	size_t len;
	int i;

	if (tpx_string_literal(&ps->lx, &text, &len))
		return -1;
	if ((i = grow(&x->strings, sizeof(*x->strings), &x->nstrings, &x->cap_strings)) < 0) {
		free(text);
		return out_of_memory(ps);
	}
	x->strings[i] = text; /* freed with the tree from here on */
	if ((i = new_node(ps, TPX_VALUE)) < 0)
		return -1;
	x->nodes[i].v = (struct tp_value){ .is_string = 1, .str = text, .len = len };
	return i;
}

/* A field by the name at the cursor (@n bytes), into node @i. */
static int take_field(struct parse *ps, int i, size_t n)
{
	const char *name = ps->lx.p;

	ps->lx.p += n;
	if (!(ps->x->nodes[i].fld = tpx_find_field(&ps->lx, name, n)))
		return -1;
	return i;
}

/* REC->name or REC->name[index], the cursor at REC. */
static int field(struct parse *ps)
{
	const char *name;
	size_t n;
	int i, index;

	ps->lx.p += 3;
	if (tpx_expect(&ps->lx, "->"))
		return -1;
	if (!(n = tpx_ident_len(&ps->lx)))
		return tpx_fail(&ps->lx, ENOTSUP, "a field name expected after REC->");
	name = ps->lx.p;
	ps->lx.p += n;
	if (!tpx_accept(&ps->lx, "[")) { /* the field's value */
		if ((i = new_node(ps, TPX_FIELD)) < 0)
			return -1;
		ps->lx.p = name;
		return take_field(ps, i, n);
	}
	if ((index = conditional(ps)) < 0 || tpx_expect(&ps->lx, "]") ||
	    (i = new_node(ps, TPX_ELEMENT)) < 0 ||
	    !(ps->x->nodes[i].fld = tpx_find_field(&ps->lx, name, n)))
		return -1;
	if (!ps->x->nodes[i].fld->array_len)
		return tpx_fail(&ps->lx, ENOTSUP, "a subscript of a field that is no array");
	ps->x->nodes[i].a = index;
	return i;
}

/* "(name)" after a helper's name (__get_str...): its field into node @i. */
static int field_arg(struct parse *ps, int i)
{
	size_t n;

	if (tpx_expect(&ps->lx, "("))
		return -1;
	if (!(n = tpx_ident_len(&ps->lx)))
		return tpx_fail(&ps->lx, ENOTSUP, "a helper of no field name");
	if (take_field(ps, i, n) < 0 || tpx_expect(&ps->lx, ")"))
		return -1;
	return i;
}

/* __get_str(field) and the other helpers of a field's bytes, the cursor
 * after the name; the _len forms (@count) give their count. */
static int get_bytes(struct parse *ps, int count)
{
	int i = new_node(ps, TPX_FIELD);

	if (i < 0 || field_arg(ps, i) < 0)
		return -1;
	ps->x->nodes[i].bytes_wanted = 1;
	ps->x->nodes[i].count = count;
	return i;
}

/*
 * __print_hex(buffer, length), __print_hex_str(buffer, length) and
 * __print_array(buffer, count, element size), after the name (@kind 'h',
 * 's', 'a').  A buffer that is a field alone is its bytes.
 */
static int print_bytes(struct parse *ps, char kind)
{
	const char *arg_end;
	const struct peo_tp_field *fld;
	int i = new_node(ps, TPX_BYTES), buf;

	if (i < 0 || tpx_expect(&ps->lx, "("))
		return -1;
	arg_end = peo_tp_arg_end(ps->lx.p, ps->lx.end);
	if ((fld = peo_tp_arg_field(ps->lx.f, ps->lx.p, arg_end))) { /* a field alone: its bytes */
		if ((buf = new_node(ps, TPX_FIELD)) < 0)
			return -1;
		ps->x->nodes[buf].fld = fld;
		ps->x->nodes[buf].bytes_wanted = 1;
		ps->lx.p = arg_end;
	} else if ((buf = conditional(ps)) < 0) {
		return -1;
	}
	ps->x->nodes[i].a = buf;
	ps->x->nodes[i].at = ps->lx.p; /* where "no bytes" is told */
	if (tpx_expect(&ps->lx, ",") || (ps->x->nodes[i].b = conditional(ps)) < 0 ||
	    (kind == 'a' && (tpx_expect(&ps->lx, ",") || (ps->x->nodes[i].c = conditional(ps)) < 0)) ||
	    tpx_expect(&ps->lx, ")"))
		return -1;
	ps->x->nodes[i].op = kind;
	ps->x->nodes[i].at_end = ps->lx.p;
	return i;
}

/* A table's entries, after its value (and delimiter): { key, name }... */
static int table_entries(struct parse *ps, int t)
{
	struct tp_expr *x = ps->x;
	struct tpx_entry *list = NULL;
	size_t n = 0, cap = 0;
	long first;

	while (tpx_accept(&ps->lx, "{")) {
		const char *key_end = peo_tp_arg_end(ps->lx.p, ps->lx.end), *lone;
		size_t lone_n = tpx_lone_name(ps->lx.p, key_end, &lone);
		struct tpx_entry e = { .key = -1 };
		int k, depth = ps->depth;

		if (lone_n) { /* a name alone: its value if known, else none */
			e.unknown = !tpx_name_value(lone, lone_n, &e.value);
			ps->lx.p = key_end;
		} else if ((e.key = conditional(ps)) < 0) {
			/* a key peo cannot read (a kernel function's call): the
			 * entry is passed over, as one that cannot be evaluated */
			if (ps->lx.err == -ENOMEM)
				goto fail;
			ps->lx.err = 0;
			ps->depth = depth;
			e.key = -1;
			e.unparsed = 1;
			ps->lx.p = key_end;
		}
		if (tpx_expect(&ps->lx, ",") || (e.name = conditional(ps)) < 0 ||
		    tpx_expect(&ps->lx, "}"))
			goto fail;
		e.at = ps->lx.p;
		if ((k = grow(&list, sizeof(*list), &n, &cap)) < 0) {
			out_of_memory(ps);
			goto fail;
		}
		list[k] = e;
		if (!tpx_accept(&ps->lx, ","))
			break;
	}
	/* the entries together at the end of the tree's list (a table inside
	 * an entry put its own there before) */
	if ((first = append(ps, &x->entries, &x->nentries, &x->cap_entries, list, n,
			    sizeof(*list))) < 0)
		goto fail;
	x->nodes[t].first = (size_t)first;
	x->nodes[t].n = n;
	free(list);
	return 0;
fail:
	free(list);
	return -1;
}

/*
 * __print_flags(value, "delim", { mask, "name" }, ...) and
 * __print_symbolic(value, { value, "name" }, ...), after the name.
 */
static int print_table(struct parse *ps, int flags)
{
	struct tp_expr *x = ps->x;
	int t = new_node(ps, TPX_TABLE), v, delim = -1;

	if (t < 0 || tpx_expect(&ps->lx, "(") || (v = conditional(ps)) < 0 ||
	    tpx_expect(&ps->lx, ","))
		return -1;
	x->nodes[t].a = v;
	x->nodes[t].at = ps->lx.p; /* where a value that is a string is told */
	if (flags && ((delim = conditional(ps)) < 0 || tpx_expect(&ps->lx, ",")))
		return -1;
	x->nodes[t].b = delim;
	x->nodes[t].op = flags ? 'f' : 's';
	x->nodes[t].at_delim = ps->lx.p;
	if (table_entries(ps, t) || tpx_expect(&ps->lx, ")"))
		return -1;
	x->nodes[t].at_end = ps->lx.p;
	return t;
}

static int primary(struct parse *ps)
{
	struct tpx_lexer *lx = &ps->lx;
	size_t n;
	int i;

	tpx_skip_space(lx);
	if (lx->p >= lx->end)
		return tpx_fail(lx, ENOTSUP, "an argument ends early");
	if (*lx->p == '"')
		return string_literal(ps);
	if (*lx->p == '\'' || isdigit((unsigned char)*lx->p)) {
		struct tp_value v = { 0 };

		if ((*lx->p == '\'' ? tpx_char_literal(lx, &v) : tpx_number_literal(lx, &v)) ||
		    (i = new_node(ps, TPX_VALUE)) < 0)
			return -1;
		ps->x->nodes[i].v = v;
		return i;
	}
	if (tpx_accept(lx, "(")) {
		i = conditional(ps);
		return i < 0 || tpx_expect(lx, ")") ? -1 : i;
	}
	n = tpx_ident_len(lx);
	if (n == 3 && !memcmp(lx->p, "REC", 3))
		return field(ps);
	if (tpx_ident_is(lx, "__builtin_expect")) { /* (value, expected): the value */
		if ((i = new_node(ps, TPX_EXPECT)) < 0)
			return -1;
		lx->p += n;
		if (tpx_expect(lx, "(") || (ps->x->nodes[i].a = conditional(ps)) < 0 ||
		    tpx_expect(lx, ",") || (ps->x->nodes[i].b = conditional(ps)) < 0 ||
		    tpx_expect(lx, ")"))
			return -1;
		return i;
	}
	if (tpx_ident_is(lx, "__get_str") || tpx_ident_is(lx, "__get_rel_str") ||
	    tpx_ident_is(lx, "__get_dynamic_array") || tpx_ident_is(lx, "__get_rel_dynamic_array") ||
	    tpx_ident_is(lx, "__get_dynamic_array_len") ||
	    tpx_ident_is(lx, "__get_rel_dynamic_array_len")) {
		int count = !memcmp(lx->p + n - 4, "_len", 4);

		lx->p += n;
		return get_bytes(ps, count);
	}
	if (tpx_ident_is(lx, "__get_bitmask") || tpx_ident_is(lx, "__get_rel_bitmask") ||
	    tpx_ident_is(lx, "__get_cpumask") || tpx_ident_is(lx, "__get_rel_cpumask")) {
		lx->p += n;
		if ((i = new_node(ps, TPX_BITMASK)) < 0 || field_arg(ps, i) < 0)
			return -1;
		ps->x->nodes[i].at = lx->p;
		return i;
	}
	if (tpx_ident_is(lx, "__print_flags") || tpx_ident_is(lx, "__print_symbolic")) {
		int flags = tpx_ident_is(lx, "__print_flags");

		lx->p += n;
		return print_table(ps, flags);
	}
	if (tpx_ident_is(lx, "__print_hex") || tpx_ident_is(lx, "__print_hex_str") ||
	    tpx_ident_is(lx, "__print_array")) {
		char kind = tpx_ident_is(lx, "__print_hex") ? 'h'
			    : tpx_ident_is(lx, "__print_hex_str") ? 's' : 'a';

		lx->p += n;
		return print_bytes(ps, kind);
	}
	if (n) { /* a kernel variable or enum constant the format does not define */
		const char *after = lx->p + n;

		while (after < lx->end && isspace((unsigned char)*after))
			after++;
		if (after < lx->end && *after == '(') /* a kernel function: its value is unknown */
			return tpx_fail(lx, ENOTSUP, "a helper peo does not evaluate");
		lx->p += n;
		return new_node(ps, TPX_VALUE); /* zeroed: 0 */
	}
	return tpx_fail(lx, ENOTSUP, "an operand expected");
}

static int unary_inner(struct parse *ps)
{
	struct tpx_lexer *lx = &ps->lx;
	int i, known, bytes, uns;

	tpx_skip_space(lx);
	if (tpx_accept(lx, "!") || tpx_accept(lx, "~") || tpx_accept(lx, "-") || tpx_accept(lx, "+")) {
		char op = lx->p[-1];
		int u;

		if ((i = new_node(ps, TPX_UNARY)) < 0 || (u = unary(ps)) < 0)
			return -1;
		ps->x->nodes[i].op = op;
		ps->x->nodes[i].a = u;
		ps->x->nodes[i].at = lx->p;
		return i;
	}
	if (tpx_cast(lx, &known, &bytes, &uns)) {
		int u;

		if ((i = new_node(ps, TPX_CAST)) < 0 || (u = unary(ps)) < 0)
			return -1;
		ps->x->nodes[i].known = known;
		ps->x->nodes[i].bytes = bytes;
		ps->x->nodes[i].uns = uns;
		ps->x->nodes[i].a = u;
		return i;
	}
	return primary(ps);
}

static int unary(struct parse *ps)
{
	int i;

	if (++ps->depth > TPX_MAX_NESTING)
		return tpx_fail(&ps->lx, ENOTSUP, "expressions nested more than 200 deep");
	i = unary_inner(ps);
	ps->depth--;
	return i;
}

/* Operators of precedence @level and tighter: a chain of this level's
 * operators, or the operand alone.  The chain's links are kept here
 * until it ends, then put together in the tree's list (an operand's own
 * chains put theirs there before). */
static int binary(struct parse *ps, int level)
{
	struct tp_expr *x = ps->x;
	struct tpx_link *list = NULL;
	size_t n = 0, cap = 0;
	long first;
	int operand, chain;

	if (level < 0)
		return unary(ps);
	if ((operand = binary(ps, level - 1)) < 0)
		return -1;
	for (;;) {
		const char *op = NULL;
		int k, r;

		for (int j = 0; j < 5 && tpx_levels[level][j] && !op; j++)
			if (tpx_accept(&ps->lx, tpx_levels[level][j]))
				op = tpx_levels[level][j];
		if (!op)
			break;
		if ((r = binary(ps, level - 1)) < 0)
			goto fail;
		if ((k = grow(&list, sizeof(*list), &n, &cap)) < 0) {
			out_of_memory(ps);
			goto fail;
		}
		list[k] = (struct tpx_link){ .op = op, .operand = r, .at = ps->lx.p };
	}
	if (!n)
		return operand;
	if ((chain = new_node(ps, TPX_CHAIN)) < 0 ||
	    (first = append(ps, &x->links, &x->nlinks, &x->cap_links, list, n, sizeof(*list))) < 0)
		goto fail;
	free(list);
	x->nodes[chain].a = operand;
	x->nodes[chain].first = (size_t)first;
	x->nodes[chain].n = n;
	return chain;
fail:
	free(list);
	return -1;
}

static int conditional(struct parse *ps)
{
	struct tp_expr *x = ps->x;
	int c, yes, no, i;

	if ((c = binary(ps, TPX_LEVELS - 1)) < 0)
		return -1;
	if (!tpx_accept(&ps->lx, "?"))
		return c;
	if (++ps->depth > TPX_MAX_NESTING)
		return tpx_fail(&ps->lx, ENOTSUP, "expressions nested more than 200 deep");
	if ((yes = conditional(ps)) < 0 || tpx_expect(&ps->lx, ":") || (no = conditional(ps)) < 0 ||
	    (i = new_node(ps, TPX_COND)) < 0)
		return -1;
	ps->depth--;
	x->nodes[i].a = c;
	x->nodes[i].b = yes;
	x->nodes[i].c = no;
	return i;
}

/* Whether the tree under node @i is deeper than @limit. */
static int deeper_than(const struct tp_expr *x, int i, int limit)
{
	const struct tpx_node *n;

	if (i < 0)
		return 0;
	if (limit <= 0)
		return 1;
	n = &x->nodes[i];
	if (deeper_than(x, n->a, limit - 1) || deeper_than(x, n->b, limit - 1) ||
	    deeper_than(x, n->c, limit - 1))
		return 1;
	for (size_t k = n->first; n->kind == TPX_CHAIN && k < n->first + n->n; k++)
		if (deeper_than(x, x->links[k].operand, limit - 1))
			return 1;
	for (size_t k = n->first; n->kind == TPX_TABLE && k < n->first + n->n; k++)
		if (deeper_than(x, x->entries[k].key, limit - 1) ||
		    deeper_than(x, x->entries[k].name, limit - 1))
			return 1;
	return 0;
}

static int is_number(const struct tp_expr *x, int i)
{
	return i < 0 || (x->nodes[i].kind == TPX_VALUE && !x->nodes[i].v.is_string);
}

/*
 * Operators on numbers alone become their value (sched_switch's masks are
 * a dozen operators on constants), a chain's leading ones too.  Live,
 * that is the value the evaluation computes; in a dead operand it
 * computes 0 instead, but no dead value is ever seen.  One that fails (a
 * division by zero) stays, for the evaluation to report.
 */
static void fold(struct tp_expr *x, int i)
{
	char scratch[16];
	struct tpx_eval ev = { .x = x, .scratch = scratch, .scratch_cap = sizeof(scratch) };
	struct tpx_node *n;
	struct tp_value v;

	if (i < 0)
		return;
	n = &x->nodes[i];
	fold(x, n->a);
	fold(x, n->b);
	fold(x, n->c);
	for (size_t k = n->first; n->kind == TPX_CHAIN && k < n->first + n->n; k++)
		fold(x, x->links[k].operand);
	for (size_t k = n->first; n->kind == TPX_TABLE && k < n->first + n->n; k++) {
		fold(x, x->entries[k].key);
		fold(x, x->entries[k].name);
	}
	if ((n->kind == TPX_UNARY || n->kind == TPX_CAST) && is_number(x, n->a) &&
	    !tpx_eval_node(&ev, i, &v)) {
		n->kind = TPX_VALUE;
		n->v = v;
		return;
	}
	if (n->kind != TPX_CHAIN || !is_number(x, n->a))
		return;
	/* the leading links of numbers, one at a time, into the first operand */
	while (n->n && is_number(x, x->links[n->first].operand)) {
		size_t links = n->n;

		n->n = 1; /* the chain of its first link alone */
		if (tpx_eval_node(&ev, i, &v)) {
			n->n = links; /* a failure: the evaluation's to report */
			return;
		}
		x->nodes[n->a].v = v;
		n->first++;
		n->n = links - 1;
	}
	if (!n->n) {
		n->kind = TPX_VALUE;
		n->v = x->nodes[n->a].v;
	}
}

void peo_tp_expr_free(struct tp_expr *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nstrings; i++)
		free(x->strings[i]);
	free(x->strings);
	free(x->nodes);
	free(x->links);
	free(x->entries);
	free(x->why);
	free(x);
}

const char *peo_tp_expr_error(const struct tp_expr *x)
{
	return x && x->err ? x->why : NULL;
}

int peo_tp_expr_parse(const struct peo_tp_format *f, const char *s, const char *e,
		      struct tp_expr **out)
{
	struct tp_expr *x = calloc(1, sizeof(*x));
	struct parse ps = { .lx = { .f = f, .p = s, .end = e }, .x = x };

	*out = NULL;
	if (!x)
		return peo_fail(ENOMEM, "out of memory for a print format's argument");
	x->root = conditional(&ps);
	tpx_skip_space(&ps.lx);
	if (x->root >= 0 && ps.lx.p != ps.lx.end)
		tpx_fail(&ps.lx, ENOTSUP, "text after the expression");
	if (!ps.lx.err && deeper_than(x, x->root, TPX_MAX_TREE_DEPTH))
		tpx_fail(&ps.lx, ENOTSUP, "expressions nested more than 256 deep");
	if (ps.lx.err && ps.lx.err != -ENOMEM && !(x->why = strdup(ps.lx.why)))
		ps.lx.err = -ENOMEM;
	if (ps.lx.err == -ENOMEM) {
		peo_tp_expr_free(x);
		return peo_fail(ENOMEM, "out of memory for a print format's argument");
	}
	if ((x->err = ps.lx.err)) {
		x->root = -1;
	} else {
		peo_error_quiet(1); /* a constant's failure is the evaluation's to tell */
		fold(x, x->root);
		peo_error_quiet(0);
	}
	*out = x;
	return 0;
}
