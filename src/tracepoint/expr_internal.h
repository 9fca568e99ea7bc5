/*
 * expr_internal.h - what expr.c's interpreter of print fmt arguments
 * shares with prog.c, which compiles the arguments it can once per
 * format and evaluates them without parsing their text again.
 */
#ifndef PEO_TP_EXPR_INTERNAL_H
#define PEO_TP_EXPR_INTERNAL_H

#include "tracepoint/expr.h"

/* An argument's text being read, evaluated as it goes (expr.c), or
 * compiled (prog.c, then with no payload); the evaluation's state. */
struct parser {
	const struct peo_tp_format *f;
	const struct peo_record *rec;
	const void *raw;
	size_t raw_size;
	const char *p, *end;
	char *scratch; /* text made by __print_flags/__print_symbolic */
	size_t scratch_cap, scratch_used;
	int depth; /* nesting of unary operators and parentheses */
	int err;
	/* Above 0: in an operand C does not evaluate (the branch of ?: not
	 * taken, the right of && or || once the left decides): parsed only, so
	 * its division by zero or field past the payload is no error. */
	int dead;
};

/* Deeper nesting than any kernel format has is refused before the stack is. */
#define MAX_DEPTH 200

/* Binary operators by precedence, tightest first, loosest last. */
#define TPX_LEVELS 10
PEO_HIDDEN extern const char *const tpx_levels[TPX_LEVELS][5];

/* A failure (@err, the sentence naming @what at the cursor), kept in ps->err; returns it. */
PEO_HIDDEN int tpx_fail(struct parser *ps, int err, const char *what);
PEO_HIDDEN void tpx_skip_space(struct parser *ps);
/* The next token is @tok (punctuation): consume it and say so. */
PEO_HIDDEN int tpx_accept(struct parser *ps, const char *tok);
/* The same, else a failure. */
PEO_HIDDEN int tpx_expect(struct parser *ps, const char *tok);
/* An identifier at the cursor (not consumed): its length, 0 if none. */
PEO_HIDDEN size_t tpx_ident_len(struct parser *ps);
PEO_HIDDEN int tpx_ident_is(struct parser *ps, const char *name);
PEO_HIDDEN int tpx_is_true(const struct tp_value *v);
/* The bytes and signedness of a cast's type words; 0: not a type. */
PEO_HIDDEN int tpx_type_of(const char *words, size_t len, int *bytes, int *uns);
/* Whether "(@s..@close)" casts to a typedef tpx_type_of() does not know. */
PEO_HIDDEN int tpx_typedef_cast(const char *s, const char *close);
PEO_HIDDEN void tpx_apply_cast(struct tp_value *v, int bytes, int uns);
/* Unary operator @op ('!', '~', '-', '+') on *@v, the cursor after its operand. */
PEO_HIDDEN int tpx_unary_op(struct parser *ps, char op, struct tp_value *v);
/* A cast at the cursor, "(type)": consumed, 1 with its type (*@known 0:
 * a typedef tpx_type_of() does not know, the value left as it is); else
 * 0, nothing consumed. */
PEO_HIDDEN int tpx_cast(struct parser *ps, int *known, int *bytes, int *uns);
/* The @len bytes at the scratch space's free end become *@out, a string. */
PEO_HIDDEN void tpx_take_scratch(struct parser *ps, size_t len, struct tp_value *out);
/* A string literal (the cursor at its quote) into the scratch space. */
PEO_HIDDEN int tpx_string_literal(struct parser *ps, struct tp_value *out);
PEO_HIDDEN int tpx_number_literal(struct parser *ps, struct tp_value *out);
/* A character literal ('c', '\n'...) at the cursor: its value. */
PEO_HIDDEN int tpx_char_literal(struct parser *ps, struct tp_value *out);
/* Field @fld's bytes as a string (none, in dead code, when past the payload). */
PEO_HIDDEN int tpx_field_bytes(struct parser *ps, const struct peo_tp_field *fld,
			       struct tp_value *out);
/* Field @fld's value: its bytes for text, __data_loc (or @want_string),
 * else its integer (0, in dead code, when past the payload). */
PEO_HIDDEN int tpx_field(struct parser *ps, const struct peo_tp_field *fld, int want_string,
			 struct tp_value *out);
/* Element @index of array field @fld (none read in dead code; one past
 * the array a failure only when live). */
PEO_HIDDEN int tpx_element(struct parser *ps, const struct peo_tp_field *fld,
			   const struct tp_value *index, struct tp_value *out);
/* A table entry's value that is a name alone: 1 with *@v when known. */
PEO_HIDDEN int tpx_name_value(const char *name, size_t n, int64_t *v);
/* The name [@s, @e) is alone (spaces and parentheses around it): its length, else 0. */
PEO_HIDDEN size_t tpx_lone_name(const char *s, const char *e, const char **name);
/* Binary operator @op (one of tpx_levels') on *@l and *@r, into *@l. */
PEO_HIDDEN int tpx_apply(struct parser *ps, const char *op, struct tp_value *l,
			 const struct tp_value *r);

/*
 * The text of __print_flags() (@flags) or __print_symbolic() of value @v
 * (delimiter @delim for flags), made entry by entry.
 */
struct tpx_table {
	char text[512];
	size_t len;
	int printed, matched;
	uint64_t left;
};
PEO_HIDDEN void tpx_table_start(struct tpx_table *t, const struct tp_value *v);
/* An entry whose key (@key, or a name alone with no value: @unknown)
 * evaluated (@known) and whose name is @name. */
PEO_HIDDEN void tpx_table_entry(struct tpx_table *t, int flags, const struct tp_value *v,
				const struct tp_value *delim, int known, int unknown,
				const struct tp_value *key, const struct tp_value *name);
/* What no entry names, in hex; then the text into the scratch space as *@out. */
PEO_HIDDEN int tpx_table_end(struct parser *ps, struct tpx_table *t, int flags,
			     const struct tp_value *v, const struct tp_value *delim,
			     struct tp_value *out);

#endif
