/*
 * tp_expr.h - evaluating a print fmt argument (tp_expr.c) for tp_print.c.
 */
#ifndef PEO_TP_EXPR_H
#define PEO_TP_EXPR_H

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

#endif
