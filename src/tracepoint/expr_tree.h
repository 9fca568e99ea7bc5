/*
 * expr_tree.h - the tree a print fmt argument parses into: what the parser
 * (expr_parse.c, its tokens in expr_lex.c) shares with the evaluator
 * (expr_eval.c).
 */
#ifndef PEO_TRACEPOINT_EXPR_TREE_H
#define PEO_TRACEPOINT_EXPR_TREE_H

#include "tracepoint/expr.h"

enum tpx_kind {
	TPX_VALUE,   /* a number or a string literal: v */
	TPX_FIELD,   /* REC->field: its integer, or its bytes for text and __data_loc;
		      * __get_str(field) and the like (bytes): its bytes, or their count */
	TPX_ELEMENT, /* REC->field[a]: an element of an array field */
	TPX_UNARY,   /* !a, ~a, -a, +a: op */
	TPX_CAST,    /* (type)a: bytes and uns when known (else a's value as it is) */
	TPX_CHAIN,   /* a op b op c...: operators of one precedence, left to right */
	TPX_COND,    /* a ? b : c */
	TPX_EXPECT,  /* __builtin_expect(a, b): a, b evaluated too */
	TPX_TABLE,   /* __print_flags(a, b, {...}...) / __print_symbolic(a, {...}...) */
	TPX_BYTES,   /* __print_hex(a, b), __print_hex_str(a, b), __print_array(a, b, c): op 'h', 's', 'a' */
	TPX_BITMASK, /* __get_bitmask(field), __get_cpumask(field) and their _rel forms */
};

/* A node's operands are node indices, -1 for none. */
struct tpx_node {
	enum tpx_kind kind;
	char op;               /* TPX_UNARY, TPX_BYTES */
	int known, bytes, uns; /* TPX_CAST */
	int bytes_wanted, count; /* TPX_FIELD: __get_str() and the like; the _len forms */
	const char *at;        /* the text where a failure of this node is told */
	const char *at_delim;  /* TPX_TABLE: where a delimiter that is no string is told */
	const char *at_end;    /* TPX_TABLE, TPX_BYTES: where a failure after the operands is */
	struct tp_value v;     /* TPX_VALUE */
	const struct peo_tp_field *fld;
	int a, b, c;
	size_t first, n;       /* TPX_CHAIN: its links; TPX_TABLE: its entries */
};

/* One "op operand" of a chain. */
struct tpx_link {
	const char *op; /* one of tpx_levels' */
	int operand;
	const char *at;
};

/* One { key, name } of a table. */
struct tpx_entry {
	int key;       /* node, or -1: a name alone (value), or a key that does not parse */
	int unknown;   /* a name alone with no value: never matches */
	int unparsed;  /* a key that does not parse: passed over */
	int64_t value; /* a name alone's value */
	int name;      /* node */
	const char *at;
};

struct tp_expr {
	struct tpx_node *nodes;
	size_t nnodes, cap_nodes;
	struct tpx_link *links;
	size_t nlinks, cap_links;
	struct tpx_entry *entries;
	size_t nentries, cap_entries;
	char **strings; /* string literals, decoded */
	size_t nstrings, cap_strings;
	int root;
	int err;   /* the parse's failure (negative errno), 0 when it parsed */
	char *why; /* its sentence */
};

/* Binary operators by precedence, tightest first, loosest last. */
#define TPX_LEVELS 10
PEO_HIDDEN extern const char *const tpx_levels[TPX_LEVELS][5];

/* Unary operators and parentheses nested deeper than any kernel format
 * nests them are refused before the parser's stack is. */
#define TPX_MAX_NESTING 200
/* Evaluation recurses once a level of the tree: one deeper is refused.  A
 * chain a + b + c... is one level, its operands taken in a loop. */
#define TPX_MAX_TREE_DEPTH 256

/* ---- expr_lex.c: the argument's text being read */

struct tpx_lexer {
	const struct peo_tp_format *f;
	const char *p, *end;
	int err;        /* the first failure: a negative errno */
	char why[256];  /* and its sentence */
};

/* A failure (@err, the sentence naming @what at the cursor), kept in lx->err: returns -1. */
PEO_HIDDEN int tpx_fail(struct tpx_lexer *lx, int err, const char *what);
PEO_HIDDEN void tpx_skip_space(struct tpx_lexer *lx);
/* The next token is @tok (punctuation): consume it and say so. */
PEO_HIDDEN int tpx_accept(struct tpx_lexer *lx, const char *tok);
/* The same, else a failure (-1). */
PEO_HIDDEN int tpx_expect(struct tpx_lexer *lx, const char *tok);
/* An identifier at the cursor (not consumed): its length, 0 if none. */
PEO_HIDDEN size_t tpx_ident_len(struct tpx_lexer *lx);
PEO_HIDDEN int tpx_ident_is(struct tpx_lexer *lx, const char *name);
/* A string literal at the cursor (at its quote), decoded into a new
 * string (*@out, its length in *@len).  0, or -1 (a failure). */
PEO_HIDDEN int tpx_string_literal(struct tpx_lexer *lx, char **out, size_t *len);
PEO_HIDDEN int tpx_number_literal(struct tpx_lexer *lx, struct tp_value *out);
/* A character literal ('c', '\n'...) at the cursor: its value. */
PEO_HIDDEN int tpx_char_literal(struct tpx_lexer *lx, struct tp_value *out);
/* A cast at the cursor, "(type)": consumed, 1 with its type (*@known 0:
 * a typedef peo does not know, the value left as it is); else 0, nothing
 * consumed. */
PEO_HIDDEN int tpx_cast(struct tpx_lexer *lx, int *known, int *bytes, int *uns);
/* The field named by the @n bytes at @name, or NULL (a failure). */
PEO_HIDDEN const struct peo_tp_field *tpx_find_field(struct tpx_lexer *lx, const char *name,
						     size_t n);
/* A table entry's key that is a name alone: 1 with *@v when known. */
PEO_HIDDEN int tpx_name_value(const char *name, size_t n, int64_t *v);
/* The name [@s, @e) is alone (spaces and parentheses around it): its length, else 0. */
PEO_HIDDEN size_t tpx_lone_name(const char *s, const char *e, const char **name);

/* ---- expr_eval.c: one payload's evaluation */

struct tpx_eval {
	const struct tp_expr *x;
	const struct peo_tp_format *f;
	const struct peo_record *rec;
	const void *raw;
	size_t raw_size;
	char *scratch; /* text the evaluation makes */
	size_t scratch_cap, scratch_used;
	int err;
	/* Above 0: in an operand C does not evaluate (the branch of ?: not
	 * taken, the right of && or || once the left decides): its division
	 * by zero or field past the payload is no error. */
	int dead;
};

/* Node @i's value into *@out: 0, or the failure (ev->err). */
PEO_HIDDEN int tpx_eval_node(struct tpx_eval *ev, int i, struct tp_value *out);

#endif
