/*
 * format.h - what format.c keeps of a tracepoint format beyond its fields
 * (its print fmt's arguments, its kernel strings), for print.c and for
 * the perf.data reader.
 */
#ifndef PEO_TRACEPOINT_FORMAT_H
#define PEO_TRACEPOINT_FORMAT_H

#include "tracepoint/expr.h"
#include "tracepoint/kernel_strings.h"

/* A print fmt's argument: its text, its tree, and the field it names
 * when it is "REC->name" alone (%pI4's address), else NULL. */
struct tp_arg {
	const char *s, *e;
	struct tp_expr *expr;
	const struct peo_tp_field *fld;
};

/* @f's print fmt arguments, in order (*@args; their count
 * returned), and where its format string ends (*@fmt_end unless NULL: its
 * closing quote, or the text's end; NULL when it does not start with one). */
PEO_HIDDEN size_t peo_tp_format_args(const struct peo_tp_format *f, const struct tp_arg **args,
				     const char **fmt_end);

/* peo_tp_format_print() as it is (@reference 0), or with every
 * conversion by snprintf (1: for tests that hold the fast paths to the
 * same text). */
PEO_HIDDEN int peo_tp_format_print_as(const struct peo_tp_format *f, const struct peo_record *rec,
				      const void *raw, size_t raw_size, char *buf, size_t cap,
				      int reference);

/* Whether @rec's payload is big-endian. */
PEO_HIDDEN int peo_tp_raw_is_big(const struct peo_record *rec);

/* @f's list of kernel strings (NULL: none), which it owns once set. */
PEO_HIDDEN void peo_tp_format_set_strings(struct peo_tp_format *f, struct tp_strings *s);
PEO_HIDDEN const struct tp_strings *peo_tp_format_strings(const struct peo_tp_format *f);

#endif
