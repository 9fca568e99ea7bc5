/*
 * expr.h - evaluating a print fmt argument (expr.c) for print.c.
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

/*
 * Evaluate the C expression [@s, @e) over one payload.  Text the
 * expression makes (string literals, __print_flags...) goes into @scratch,
 * which must outlive the value.  Returns 0, -ENOTSUP naming what peo does
 * not evaluate, -EPROTO for a field past the payload, -EDOM, -ENOSPC.
 */
PEO_HIDDEN int peo_tp_expr_eval(const struct peo_tp_format *f, const struct peo_record *rec,
				const void *raw, size_t raw_size, const char *s, const char *e,
				char *scratch, size_t scratch_cap, struct tp_value *out);

/*
 * The end of the comma-separated argument at @p: the first ',' outside
 * parentheses and string literals, or @e.
 */
PEO_HIDDEN const char *peo_tp_arg_end(const char *p, const char *e);

/* The field an argument [@s, @e) names when it is "REC->name" alone, else NULL. */
PEO_HIDDEN const struct peo_tp_field *peo_tp_arg_field(const struct peo_tp_format *f,
						       const char *s, const char *e);

/*
 * prog.c: a print fmt argument [@s, @e) of @f compiled once, or NULL
 * when it uses what only peo_tp_expr_eval() evaluates (or memory ran out).
 */
struct tp_prog;
PEO_HIDDEN struct tp_prog *peo_tp_prog_compile(const struct peo_tp_format *f, const char *s,
					       const char *e);
PEO_HIDDEN void peo_tp_prog_free(struct tp_prog *pg);

/* peo_tp_prog_eval() could not do exactly what peo_tp_expr_eval() does
 * (a string the scratch space would not hold): that evaluates it. */
#define TP_PROG_INTERPRET (-4097)

/*
 * Evaluate @pg over one payload, as peo_tp_expr_eval() evaluates its
 * text: the same value, failures and sentences.  Returns 0, a negative
 * errno, or TP_PROG_INTERPRET.
 */
PEO_HIDDEN int peo_tp_prog_eval(const struct tp_prog *pg, const struct peo_tp_format *f,
				const struct peo_record *rec, const void *raw, size_t raw_size,
				char *scratch, size_t scratch_cap, struct tp_value *out);

#endif
