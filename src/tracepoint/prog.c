/*
 * prog.c - print fmt arguments compiled once per format into a tree,
 * then evaluated for each payload without reading their text again.
 * expr.c's interpreter parses an argument each time it evaluates it:
 * sched_switch's prev_state, ~150 tokens, cost 246,000 instructions a
 * sample.
 *
 * The tree takes what most formats use (numbers, strings, REC->field,
 * REC->array[index], unary and binary operators, casts, ?:,
 * __builtin_expect(), __get_str() and __get_dynamic_array() with their
 * _rel and _len forms, __print_flags() and __print_symbolic()); an
 * argument with anything else stays the interpreter's.  Evaluation follows the interpreter step for
 * step, its dead operands, failures and their sentences included, sharing
 * its helpers (expr_internal.h); where the scratch space would not
 * hold what the interpreter puts there, it hands the argument back to the
 * interpreter (TP_PROG_INTERPRET).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tracepoint/expr_internal.h"

enum kind {
	K_VALUE,  /* a number or a string literal: v */
	K_FIELD,  /* REC->field: its integer, or its bytes for text and __data_loc;
		   * __get_str(field) and the like (bytes): their bytes, or count */
	K_ELEMENT, /* REC->field[a]: an element of an array field */
	K_UNARY,  /* !a, ~a, -a, +a: op */
	K_CAST,   /* (type)a: bytes and uns when known (else a's value as it is) */
	K_BINARY, /* a op b */
	K_COND,   /* a ? b : c */
	K_EXPECT, /* __builtin_expect(a, b): a, b evaluated too */
	K_TABLE,  /* __print_flags / __print_symbolic: tables[table] */
};

struct node {
	enum kind kind;
	char op;          /* K_UNARY */
	const char *bin;  /* K_BINARY: tpx_levels' string */
	const char *at;   /* where the interpreter's cursor is when this fails */
	int known, bytes, uns; /* K_CAST */
	int bytes_wanted, count; /* K_FIELD: __get_str() and the like; the _len forms */
	struct tp_value v;
	const struct peo_tp_field *fld;
	int a, b, c;      /* operands (node indices) */
	int table;
};

struct entry {
	int key;          /* node, or -1: a name alone */
	int unknown;      /* that name has no value */
	int64_t value;    /* its value */
	int name;         /* node */
	const char *at;   /* after its '}' */
};

struct table {
	int flags, value, delim; /* delim: -1 for __print_symbolic */
	const char *value_at, *delim_at, *end_at;
	size_t first, n; /* its entries */
};

struct tp_prog {
	struct node *nodes;
	size_t nnodes, cap_nodes;
	struct entry *entries;
	size_t nentries, cap_entries;
	struct table *tables;
	size_t ntables, cap_tables;
	char **strings; /* the literals' text, decoded */
	size_t nstrings, cap_strings;
	int root;
};

/* ------------------------------------------------------------- compiling */

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

static int new_node(struct tp_prog *pg, enum kind kind)
{
	int i = grow(&pg->nodes, sizeof(*pg->nodes), &pg->nnodes, &pg->cap_nodes);

	if (i >= 0) {
		memset(&pg->nodes[i], 0, sizeof(pg->nodes[i]));
		pg->nodes[i].kind = kind;
		pg->nodes[i].a = pg->nodes[i].b = pg->nodes[i].c = -1;
	}
	return i;
}

static int compile_cond(struct parser *ps, struct tp_prog *pg);

/* A string literal at the cursor, decoded into the program's own text. */
static int compile_string(struct parser *ps, struct tp_prog *pg)
{
	struct tp_value v;
	char *copy;
	int i;

	ps->scratch_used = 0; /* decoded into the compile's scratch, then copied */
	if (tpx_string_literal(ps, &v) || !(copy = malloc(v.len + 1)))
		return -1;
	memcpy(copy, v.str, v.len + 1);
	if ((i = grow(&pg->strings, sizeof(*pg->strings), &pg->nstrings, &pg->cap_strings)) < 0) {
		free(copy);
		return -1;
	}
	pg->strings[i] = copy; /* freed with the program from here on */
	if ((i = new_node(pg, K_VALUE)) < 0)
		return -1;
	pg->nodes[i].v = (struct tp_value){ .is_string = 1, .str = copy, .len = v.len };
	return i;
}

static int compile_field(struct parser *ps, struct tp_prog *pg)
{
	char name[128];
	size_t n;
	int i;

	ps->p += 3; /* REC */
	if (tpx_expect(ps, "->") || !(n = tpx_ident_len(ps)) || n >= sizeof(name))
		return -1;
	memcpy(name, ps->p, n);
	name[n] = '\0';
	ps->p += n;
	if (tpx_accept(ps, "[")) { /* an element: its index first, then the field */
		int index = compile_cond(ps, pg);

		if (index < 0 || tpx_expect(ps, "]") || (i = new_node(pg, K_ELEMENT)) < 0 ||
		    !(pg->nodes[i].fld = peo_tp_format_find(ps->f, name)) ||
		    !pg->nodes[i].fld->array_len) /* no array: the interpreter's failure */
			return -1;
		pg->nodes[i].a = index;
		pg->nodes[i].at = ps->p;
		return i;
	}
	if ((i = new_node(pg, K_FIELD)) < 0 || !(pg->nodes[i].fld = peo_tp_format_find(ps->f, name)))
		return -1;
	return i;
}

/* __get_str(field) and the other helpers of a field's bytes, the cursor at
 * the name (@n bytes); the _len forms give their count. */
static int compile_get(struct parser *ps, struct tp_prog *pg, size_t n)
{
	int count = n > 4 && !memcmp(ps->p + n - 4, "_len", 4), i;
	char name[128];
	size_t k;

	ps->p += n;
	if (tpx_expect(ps, "(") || !(k = tpx_ident_len(ps)) || k >= sizeof(name))
		return -1;
	memcpy(name, ps->p, k);
	name[k] = '\0';
	ps->p += k;
	if (tpx_expect(ps, ")") || (i = new_node(pg, K_FIELD)) < 0 ||
	    !(pg->nodes[i].fld = peo_tp_format_find(ps->f, name)))
		return -1;
	pg->nodes[i].bytes_wanted = 1;
	pg->nodes[i].count = count;
	return i;
}

static int compile_table(struct parser *ps, struct tp_prog *pg, int flags)
{
	int ti = grow(&pg->tables, sizeof(*pg->tables), &pg->ntables, &pg->cap_tables), node;
	struct table t = { .flags = flags, .delim = -1 };

	if (ti < 0 || tpx_expect(ps, "(") || (t.value = compile_cond(ps, pg)) < 0 ||
	    tpx_expect(ps, ","))
		return -1;
	t.value_at = ps->p;
	if (flags && ((t.delim = compile_cond(ps, pg)) < 0 || tpx_expect(ps, ",")))
		return -1;
	t.delim_at = ps->p;
	t.first = pg->nentries;
	while (tpx_accept(ps, "{")) {
		const char *key_end = peo_tp_arg_end(ps->p, ps->end), *lone;
		size_t lone_n = tpx_lone_name(ps->p, key_end, &lone);
		struct entry e = { .key = -1 };
		int ei;

		if (lone_n) {
			e.unknown = !tpx_name_value(lone, lone_n, &e.value);
			ps->p = key_end;
		} else if ((e.key = compile_cond(ps, pg)) < 0) {
			return -1;
		}
		if (tpx_expect(ps, ",") || (e.name = compile_cond(ps, pg)) < 0 || tpx_expect(ps, "}"))
			return -1;
		e.at = ps->p;
		if (pg->nentries != t.first + t.n) /* a table inside an entry: not contiguous */
			return -1;
		if ((ei = grow(&pg->entries, sizeof(*pg->entries), &pg->nentries,
			       &pg->cap_entries)) < 0)
			return -1;
		pg->entries[ei] = e;
		t.n++;
		if (!tpx_accept(ps, ","))
			break;
	}
	if (tpx_expect(ps, ")"))
		return -1;
	t.end_at = ps->p;
	pg->tables[ti] = t;
	if ((node = new_node(pg, K_TABLE)) >= 0)
		pg->nodes[node].table = ti; /* tables inside it came after it */
	return node;
}

static int compile_primary(struct parser *ps, struct tp_prog *pg)
{
	size_t n;
	int i;

	tpx_skip_space(ps);
	if (ps->p >= ps->end)
		return -1;
	if (*ps->p == '"')
		return compile_string(ps, pg);
	if ((*ps->p >= '0' && *ps->p <= '9') || *ps->p == '\'') {
		struct tp_value v = { 0 };

		if ((*ps->p == '\'' ? tpx_char_literal(ps, &v) : tpx_number_literal(ps, &v)) ||
		    (i = new_node(pg, K_VALUE)) < 0)
			return -1;
		pg->nodes[i].v = v;
		return i;
	}
	if (tpx_accept(ps, "(")) {
		i = compile_cond(ps, pg);
		return i < 0 || tpx_expect(ps, ")") ? -1 : i;
	}
	n = tpx_ident_len(ps);
	if (n == 3 && !memcmp(ps->p, "REC", 3))
		return compile_field(ps, pg);
	if (tpx_ident_is(ps, "__builtin_expect")) {
		if ((i = new_node(pg, K_EXPECT)) < 0)
			return -1;
		ps->p += n;
		if (tpx_expect(ps, "(") || (pg->nodes[i].a = compile_cond(ps, pg)) < 0 ||
		    tpx_expect(ps, ",") || (pg->nodes[i].b = compile_cond(ps, pg)) < 0 ||
		    tpx_expect(ps, ")"))
			return -1;
		return i;
	}
	if (tpx_ident_is(ps, "__print_flags") || tpx_ident_is(ps, "__print_symbolic")) {
		int flags = tpx_ident_is(ps, "__print_flags");

		ps->p += n;
		return compile_table(ps, pg, flags);
	}
	if (tpx_ident_is(ps, "__get_str") || tpx_ident_is(ps, "__get_rel_str") ||
	    tpx_ident_is(ps, "__get_dynamic_array") || tpx_ident_is(ps, "__get_rel_dynamic_array") ||
	    tpx_ident_is(ps, "__get_dynamic_array_len") ||
	    tpx_ident_is(ps, "__get_rel_dynamic_array_len"))
		return compile_get(ps, pg, n);
	if (n && !strncmp(ps->p, "__", 2)) /* __print_hex(), __get_bitmask()...: the interpreter's */
		return -1;
	if (n) { /* a kernel variable or enum constant: 0, unless a call */
		const char *after = ps->p + n;

		while (after < ps->end && isspace((unsigned char)*after))
			after++;
		if (after < ps->end && *after == '(')
			return -1;
		ps->p += n;
		return new_node(pg, K_VALUE); /* zeroed: 0 */
	}
	return -1;
}

static int compile_unary(struct parser *ps, struct tp_prog *pg)
{
	int i = -1, u, known, bytes, uns;

	if (++ps->depth > MAX_DEPTH)
		return -1;
	tpx_skip_space(ps);
	if (tpx_accept(ps, "!") || tpx_accept(ps, "~") || tpx_accept(ps, "-") || tpx_accept(ps, "+")) {
		char op = ps->p[-1];

		if ((i = new_node(pg, K_UNARY)) < 0 ||
		    (u = compile_unary(ps, pg)) < 0)
			return -1;
		pg->nodes[i].op = op;
		pg->nodes[i].a = u;
		pg->nodes[i].at = ps->p;
	} else if (tpx_cast(ps, &known, &bytes, &uns)) {
		if ((i = new_node(pg, K_CAST)) < 0 || (u = compile_unary(ps, pg)) < 0)
			return -1;
		pg->nodes[i] = (struct node){ .kind = K_CAST, .known = known, .bytes = bytes,
					      .uns = uns, .a = u, .b = -1, .c = -1 };
	}
	if (i < 0)
		i = compile_primary(ps, pg);
	ps->depth--;
	return i;
}

static int compile_binary(struct parser *ps, struct tp_prog *pg, int level)
{
	int l;

	if (level < 0)
		return compile_unary(ps, pg);
	if ((l = compile_binary(ps, pg, level - 1)) < 0)
		return -1;
	for (;;) {
		const char *op = NULL;
		int i, r;

		for (int k = 0; k < 5 && tpx_levels[level][k] && !op; k++)
			if (tpx_accept(ps, tpx_levels[level][k]))
				op = tpx_levels[level][k];
		if (!op)
			return l;
		if ((r = compile_binary(ps, pg, level - 1)) < 0 || (i = new_node(pg, K_BINARY)) < 0)
			return -1;
		pg->nodes[i].bin = op;
		pg->nodes[i].a = l;
		pg->nodes[i].b = r;
		pg->nodes[i].at = ps->p;
		l = i;
	}
}

static int compile_cond(struct parser *ps, struct tp_prog *pg)
{
	int c, yes, no, i;

	if ((c = compile_binary(ps, pg, TPX_LEVELS - 1)) < 0)
		return -1;
	if (!tpx_accept(ps, "?"))
		return c;
	if ((yes = compile_cond(ps, pg)) < 0 || tpx_expect(ps, ":") ||
	    (no = compile_cond(ps, pg)) < 0 || (i = new_node(pg, K_COND)) < 0)
		return -1;
	pg->nodes[i].a = c;
	pg->nodes[i].b = yes;
	pg->nodes[i].c = no;
	return i;
}

static int eval(const struct tp_prog *pg, struct parser *ps, int i, struct tp_value *out);

/* Evaluation recurses once a level: a tree deeper than this is left to
 * the interpreter (a chain a + b + c... is as deep as it is long there;
 * the interpreter takes chains in a loop).  256 levels of the largest
 * frame (a table's) fit a formatting thread's stack many times over. */
#define MAX_TREE_DEPTH 256

/* Whether the tree under node @i is deeper than @limit. */
static int deeper_than(const struct tp_prog *pg, int i, int limit)
{
	const struct node *n;

	if (i < 0)
		return 0;
	if (limit <= 0)
		return 1;
	n = &pg->nodes[i];
	if (deeper_than(pg, n->a, limit - 1) || deeper_than(pg, n->b, limit - 1) ||
	    deeper_than(pg, n->c, limit - 1))
		return 1;
	if (n->kind == K_TABLE) {
		const struct table *t = &pg->tables[n->table];

		if (deeper_than(pg, t->value, limit - 1) || deeper_than(pg, t->delim, limit - 1))
			return 1;
		for (size_t k = t->first; k < t->first + t->n; k++)
			if (deeper_than(pg, pg->entries[k].key, limit - 1) ||
			    deeper_than(pg, pg->entries[k].name, limit - 1))
				return 1;
	}
	return 0;
}

static int is_number(const struct tp_prog *pg, int i)
{
	return i < 0 || (pg->nodes[i].kind == K_VALUE && !pg->nodes[i].v.is_string);
}

/*
 * An operator on numbers alone becomes its value (sched_switch's masks
 * are a dozen operators on constants).  Live, that is the value the
 * interpreter computes; in a dead operand it computes 0 instead, but no
 * dead value is ever seen (only a table's text in the scratch space
 * could differ in length: eval_table() then hands back).  One that fails
 * (a division by zero) stays, for the evaluation to report.
 */
static void fold(struct tp_prog *pg, int i)
{
	struct parser ps = { 0 };
	struct tp_value v;
	struct node *n;

	if (i < 0)
		return;
	n = &pg->nodes[i];
	fold(pg, n->a);
	fold(pg, n->b);
	fold(pg, n->c);
	if (n->kind == K_TABLE) {
		const struct table *t = &pg->tables[n->table];

		fold(pg, t->value);
		fold(pg, t->delim);
		for (size_t k = t->first; k < t->first + t->n; k++) {
			fold(pg, pg->entries[k].key);
			fold(pg, pg->entries[k].name);
		}
	}
	if ((n->kind == K_UNARY || n->kind == K_CAST || n->kind == K_BINARY) &&
	    is_number(pg, n->a) && is_number(pg, n->b) && !eval(pg, &ps, i, &v)) {
		n->kind = K_VALUE;
		n->v = v;
	}
}

void peo_tp_prog_free(struct tp_prog *pg)
{
	if (!pg)
		return;
	for (size_t i = 0; i < pg->nstrings; i++)
		free(pg->strings[i]);
	free(pg->strings);
	free(pg->nodes);
	free(pg->entries);
	free(pg->tables);
	free(pg);
}

struct tp_prog *peo_tp_prog_compile(const struct peo_tp_format *f, const char *s, const char *e)
{
	char scratch[4096];
	struct parser ps = { .f = f, .p = s, .end = e, .scratch = scratch,
			     .scratch_cap = sizeof(scratch) };
	struct tp_prog *pg = calloc(1, sizeof(*pg));

	if (!pg)
		return NULL;
	peo_error_quiet(1); /* what it cannot compile is the interpreter's to tell */
	pg->root = compile_cond(&ps, pg);
	tpx_skip_space(&ps);
	if (pg->root >= 0 && ps.p == ps.end && deeper_than(pg, pg->root, MAX_TREE_DEPTH))
		pg->root = -1;
	if (pg->root >= 0 && ps.p == ps.end)
		fold(pg, pg->root);
	peo_error_quiet(0);
	if (pg->root < 0 || ps.p != ps.end) {
		peo_tp_prog_free(pg);
		return NULL;
	}
	return pg;
}

/* ------------------------------------------------------------ evaluating */

/* A failure where the interpreter's cursor would be. */
static int fail_at(struct parser *ps, const char *at, int err, const char *what)
{
	ps->p = at;
	return tpx_fail(ps, err, what);
}

static int eval_table(const struct tp_prog *pg, struct parser *ps, const struct table *t,
		      struct tp_value *out)
{
	struct tp_value v = { 0 }, delim = { 0 }, key, name;
	struct tpx_table text;

	if (eval(pg, ps, t->value, &v))
		return ps->err;
	if (v.is_string)
		return fail_at(ps, t->value_at, ENOTSUP, "a table's value is a string");
	if (t->flags && eval(pg, ps, t->delim, &delim))
		return ps->err;
	if (t->flags && !delim.is_string)
		return fail_at(ps, t->delim_at, ENOTSUP, "__print_flags' delimiter is not a string");
	tpx_table_start(&text, &v);
	for (size_t k = t->first; k < t->first + t->n; k++) {
		const struct entry *e = &pg->entries[k];
		size_t mark = ps->scratch_used;
		int known = 1;

		memset(&key, 0, sizeof(key));
		if (e->key < 0) {
			key.num = e->value;
		} else {
			known = !eval(pg, ps, e->key, &key) && !key.is_string;
			if (ps->err == TP_PROG_INTERPRET)
				return ps->err;
			if (!known) /* passed over, as the interpreter passes it */
				ps->err = 0;
		}
		if (eval(pg, ps, e->name, &name))
			return ps->err;
		if (!name.is_string && name.num)
			return fail_at(ps, e->at, ENOTSUP, "a table entry's name is not a string");
		tpx_table_entry(&text, t->flags, &v, &delim, known, e->key < 0 && e->unknown, &key,
				&name);
		ps->scratch_used = mark;
	}
	/* the interpreter's space may differ (a dead table's text, folded
	 * values): where it might not hold the text, the interpreter says */
	if (ps->scratch_used + text.len + 1 > ps->scratch_cap)
		return ps->err = TP_PROG_INTERPRET;
	ps->p = t->end_at;
	return tpx_table_end(ps, &text, t->flags, &v, &delim, out);
}

static int eval(const struct tp_prog *pg, struct parser *ps, int i, struct tp_value *out)
{
	const struct node *n = &pg->nodes[i];
	struct tp_value r;
	int taken, skip, err;

	switch (n->kind) {
	case K_VALUE:
		*out = n->v;
		/* a literal takes the scratch space the interpreter copies it into */
		if (n->v.is_string && ps->scratch_used + n->v.len >= ps->scratch_cap)
			return ps->err = TP_PROG_INTERPRET;
		ps->scratch_used += n->v.is_string ? n->v.len + 1 : 0;
		return 0;
	case K_FIELD:
		memset(out, 0, sizeof(*out));
		if (tpx_field(ps, n->fld, n->bytes_wanted, out))
			return ps->err;
		if (n->count) { /* the bytes' count */
			out->num = (int64_t)out->len;
			out->is_string = 0;
			out->uns = 1;
		}
		return 0;
	case K_ELEMENT: /* the index, then the element as the interpreter reads it */
		memset(out, 0, sizeof(*out));
		if (eval(pg, ps, n->a, &r))
			return ps->err;
		ps->p = n->at;
		return tpx_element(ps, n->fld, &r, out);
	case K_UNARY:
		if (eval(pg, ps, n->a, out))
			return ps->err;
		ps->p = n->at;
		return tpx_unary_op(ps, n->op, out);
	case K_CAST:
		if (eval(pg, ps, n->a, out))
			return ps->err;
		if (n->known)
			tpx_apply_cast(out, n->bytes, n->uns);
		return 0;
	case K_BINARY:
		if (eval(pg, ps, n->a, out))
			return ps->err;
		skip = (n->bin[0] == '&' && n->bin[1] == '&' && !tpx_is_true(out)) ||
		       (n->bin[0] == '|' && n->bin[1] == '|' && tpx_is_true(out));
		ps->dead += skip;
		err = eval(pg, ps, n->b, &r);
		ps->dead -= skip;
		if (err)
			return ps->err;
		ps->p = n->at;
		return tpx_apply(ps, n->bin, out, &r);
	case K_COND:
		if (eval(pg, ps, n->a, out))
			return ps->err;
		taken = tpx_is_true(out);
		ps->dead += !taken;
		err = eval(pg, ps, n->b, out);
		if (!err) {
			ps->dead += 2 * taken - 1;
			err = eval(pg, ps, n->c, taken ? &r : out);
			ps->dead -= taken;
		}
		return err ? ps->err : 0;
	case K_EXPECT:
		return eval(pg, ps, n->a, out) || eval(pg, ps, n->b, &r) ? ps->err : 0;
	case K_TABLE:
		return eval_table(pg, ps, &pg->tables[n->table], out);
	}
	return ps->err = TP_PROG_INTERPRET;
}

int peo_tp_prog_eval(const struct tp_prog *pg, const struct peo_tp_format *f,
		     const struct peo_record *rec, const void *raw, size_t raw_size, char *scratch,
		     size_t scratch_cap, struct tp_value *out)
{
	struct parser ps = { .f = f, .rec = rec, .raw = raw, .raw_size = raw_size,
			     .scratch = scratch, .scratch_cap = scratch_cap };

	if (!scratch_cap)
		return peo_fail(EINVAL, "print fmt: no scratch space");
	scratch[0] = '\0';
	if (eval(pg, &ps, pg->root, out))
		return ps.err;
	return 0;
}
