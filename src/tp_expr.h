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

/* The field an argument [@s, @e) names when it is "REC->name" alone, else NULL. */
PEO_HIDDEN const struct peo_tp_field *peo_tp_arg_field(const struct peo_tp_format *f,
						       const char *s, const char *e);

/*
 * tp_prog.c: a print fmt argument [@s, @e) of @f compiled once, or NULL
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

/* A print fmt's argument: its text, and its compiled form or NULL. */
struct tp_arg {
	const char *s, *e;
	struct tp_prog *prog;
};

/* tp_format.c: @f's print fmt arguments, in order (*@args; their count
 * returned), and where its format string ends (*@fmt_end unless NULL: its
 * closing quote, or the text's end; NULL when it does not start with one). */
PEO_HIDDEN size_t peo_tp_format_args(const struct peo_tp_format *f, const struct tp_arg **args,
				     const char **fmt_end);

/* peo_tp_format_print() as it is (@reference 0), or with every argument
 * evaluated by the interpreter and every conversion by snprintf (1: for
 * tests that hold the fast paths to the same text). */
PEO_HIDDEN int peo_tp_format_print_as(const struct peo_tp_format *f, const struct peo_record *rec,
				      const void *raw, size_t raw_size, char *buf, size_t cap,
				      int reference);

/* tp_format.c: whether @rec's payload is big-endian. */
PEO_HIDDEN int peo_tp_raw_is_big(const struct peo_record *rec);

/*
 * tp_ip.c: the address extension @ext (the letters after "%p": I4, i4,
 * I6, i6, I6c, IS and iS with p and c; at most @ext_max of them) over the
 * @n bytes at @b, into @out (@cap bytes, 64 or more); @little: the payload
 * is little-endian (%pI4h's host order).  The letters it
 * takes in *@used.  Returns the text's length (INVALIDIPv4 or INVALIDIPv6,
 * as perf prints them, when @n is not the address's size), or -ENOTSUP for
 * another extension.
 */
PEO_HIDDEN int peo_tp_ip_print(const char *ext, size_t ext_max, size_t *used,
			       const unsigned char *b, size_t n, int little, char *out, size_t cap);

/* tp_strings.c: the kernel strings tracepoints record by address. */
struct tp_strings;
/* Parse a printk formats list (@len bytes of `0xADDR : "text"` lines).
 * Returns 0 with *@out (free with peo_tp_strings_free()), or -ENOMEM. */
PEO_HIDDEN int peo_tp_strings_parse(struct tp_strings **out, const char *text, size_t len);
/* The string at @addr, or NULL when the list (which may be NULL) has none. */
PEO_HIDDEN const char *peo_tp_strings_find(const struct tp_strings *s, uint64_t addr);
PEO_HIDDEN void peo_tp_strings_free(struct tp_strings *s);

/* tp_format.c: @f's list of kernel strings (NULL: none), which it owns once set. */
PEO_HIDDEN void peo_tp_format_set_strings(struct peo_tp_format *f, struct tp_strings *s);
PEO_HIDDEN const struct tp_strings *peo_tp_format_strings(const struct peo_tp_format *f);

#endif
