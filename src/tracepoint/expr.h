/*
 * expr.h - a print fmt argument, a C expression over a payload's fields,
 * parsed once per format into a tree (expr_parse.c) and evaluated for
 * each payload (expr_eval.c), for print.c.
 */
#ifndef PEO_TRACEPOINT_EXPR_H
#define PEO_TRACEPOINT_EXPR_H

#include "internal.h"

/* An argument's value: an integer (unsigned as C would treat it) or text. */
struct tp_value {
	int is_string, uns;
	int64_t num;
	const char *str; /* not NUL-terminated: len bytes */
	size_t len;
};

/* A parsed argument. */
struct tp_expr;

/*
 * Parse the argument [@s, @e) of @f, whose text must outlive the tree.
 * An argument peo cannot evaluate (a kernel function's call, a syntax
 * error) parses too, into a tree whose evaluation fails with the sentence
 * saying why (peo_tp_expr_error()).  Returns 0 with *@out (free with
 * peo_tp_expr_free()), or -ENOMEM.
 */
PEO_HIDDEN int peo_tp_expr_parse(const struct peo_tp_format *f, const char *s, const char *e,
				 struct tp_expr **out);
PEO_HIDDEN void peo_tp_expr_free(struct tp_expr *x);

/* Why @x cannot be evaluated (the sentence its evaluation fails with), or
 * NULL when it parsed. */
PEO_HIDDEN const char *peo_tp_expr_error(const struct tp_expr *x);

/*
 * Evaluate @x over one payload (@raw, @raw_size bytes, in @rec's byte
 * order; @rec may be NULL: host order).  Text the expression makes
 * (__print_flags(), __print_hex()...) goes into @scratch (@scratch_cap
 * bytes), which must outlive the value.  Returns 0 with *@out; -ENOTSUP
 * naming what peo does not evaluate, -EPROTO for a field past the
 * payload, -EDOM for a division by zero, -ENOSPC when the text would not
 * fit, -EINVAL with no scratch space.
 */
PEO_HIDDEN int peo_tp_expr_eval(const struct tp_expr *x, const struct peo_tp_format *f,
				const struct peo_record *rec, const void *raw, size_t raw_size,
				char *scratch, size_t scratch_cap, struct tp_value *out);

/*
 * The end of the comma-separated argument at @p: the first ',' outside
 * parentheses, string and character literals, or @e.
 */
PEO_HIDDEN const char *peo_tp_arg_end(const char *p, const char *e);

/* The field an argument [@s, @e) names when it is "REC->name" alone, else NULL. */
PEO_HIDDEN const struct peo_tp_field *peo_tp_arg_field(const struct peo_tp_format *f,
						       const char *s, const char *e);

#endif
