/*
 * print.c - a tracepoint payload printed by its print fmt: the format
 * string's conversions filled from its arguments, C expressions over the
 * payload's fields (parsed once by expr_parse.c, evaluated by expr_eval.c).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tracepoint/format.h"
#include "tracepoint/ip.h"

/*
 * snprintf with a conversion spec built from the print fmt: only flags,
 * digits, '.', '*', "ll" and one conversion letter go into it, so the
 * argument types always match.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static int format_string(char *out, size_t cap, const char *spec, int len, const char *s)
{
	return snprintf(out, cap, spec, len, s);
}

static int format_number(char *out, size_t cap, const char *spec, long long v)
{
	return snprintf(out, cap, spec, v);
}
#pragma GCC diagnostic pop

/* A plain %lld, %lli, %llu or %llx (@conv) of @v into @out, as snprintf
 * writes it; its length.  Most conversions have no flags or width. */
static int plain_number(char *out, long long v, char conv)
{
	char digits[24];
	int n = 0, len = 0, neg = (conv == 'd' || conv == 'i') && v < 0;
	unsigned long long m = neg ? 0 - (unsigned long long)v : (unsigned long long)v;
	unsigned base = conv == 'x' ? 16 : 10;

	do {
		digits[n++] = "0123456789abcdef"[m % base];
		m /= base;
	} while (m);
	if (neg)
		out[len++] = '-';
	while (n)
		out[len++] = digits[--n];
	out[len] = '\0';
	return len;
}

/* Whether @c (not NUL) is one of @set: strchr() inlined, a call into a
 * small libc for each letter of each conversion had cost more than it. */
static inline int one_of(char c, const char *set)
{
	for (; *set; set++)
		if (*set == c)
			return 1;
	return 0;
}

/* Append to @buf, keeping it NUL-terminated; the length counts what would fit. */
static void put(char *buf, size_t cap, size_t *len, const char *s, size_t n)
{
	if (*len < cap) {
		size_t room = cap - *len - 1, k = n < room ? n : room;

		memcpy(buf + *len, s, k);
		buf[*len + k] = '\0';
	}
	*len += n;
}

int peo_tp_format_print(const struct peo_tp_format *f, const struct peo_record *rec,
			const void *raw, size_t raw_size, char *buf, size_t cap)
{
	return peo_tp_format_print_as(f, rec, raw, raw_size, buf, cap, 0);
}

int peo_tp_format_print_as(const struct peo_tp_format *f, const struct peo_record *rec,
			   const void *raw, size_t raw_size, char *buf, size_t cap, int reference)
{
	const char *p = peo_tp_format_print_fmt(f), *fmt_end;
	const struct tp_arg *args;
	size_t len = 0, nargs, next = 0;

	if (!f || !raw || !buf || !cap)
		return peo_fail(EINVAL, "peo_tp_format_print: a NULL argument or no room");
	buf[0] = '\0';
	if (*p != '"')
		return peo_fail(ENOTSUP, "print fmt: '%.40s' does not start with a string", p);
	nargs = peo_tp_format_args(f, &args, &fmt_end); /* split, and compiled, with the format */
	for (const char *c = p + 1; c < fmt_end; c++) {
		char spec[32], out[512], scratch[1024];
		const struct peo_tp_field *fld;
		const char *a, *ae;
		struct tp_value v;
		size_t k = 0;
		int err, n;

		if (*c == '\\' && c + 1 < fmt_end) { /* the C escapes a format uses */
			c++;
			put(buf, cap, &len, *c == 'n' ? "\n" : *c == 't' ? "\t" : c, 1);
			continue;
		}
		if (*c != '%') { /* a run of text, to the next conversion or escape */
			const char *run = c;

			while (c + 1 < fmt_end && c[1] != '%' && c[1] != '\\')
				c++;
			put(buf, cap, &len, run, (size_t)(c - run + 1));
			continue;
		}
		if (c[1] == '%') {
			put(buf, cap, &len, "%", 1);
			c++;
			continue;
		}
		/* %[flags][width][.prec][length]conv, rebuilt with ll for integers */
		spec[k++] = '%';
		for (c++; c < fmt_end && one_of(*c, "-+ #0") && k < 8; c++)
			spec[k++] = *c;
		for (; c < fmt_end && (isdigit((unsigned char)*c) || *c == '.') && k < 20; c++)
			spec[k++] = *c;
		while (c < fmt_end && one_of(*c, "hlLzjt"))
			c++;
		if (c >= fmt_end)
			break;
		if (next == nargs)
			return peo_fail(ENOTSUP, "print fmt: conversion '%c' has no argument", *c);
		a = args[next].s;
		ae = args[next].e;
		err = peo_tp_expr_eval(args[next].expr, f, rec, raw, raw_size, scratch,
				       sizeof(scratch), &v);
		fld = args[next].fld;
		next++;
		if (err)
			return err;
		if (*c == 's') {
			if (!v.is_string) { /* a pointer to a kernel string: by its address, as perf */
				const char *known = peo_tp_strings_find(peo_tp_format_strings(f),
									(uint64_t)v.num);

				if (known) {
					v.str = known;
					v.len = strlen(known);
				} else {
					v.len = (size_t)snprintf(scratch, sizeof(scratch), "%" PRIx64,
								 (uint64_t)v.num);
					v.str = scratch;
				}
			}
			if (k == 1 && !reference) { /* a plain %s: to its NUL, as snprintf's would be */
				size_t m = strnlen(v.str, v.len);

				put(buf, cap, &len, v.str, m < sizeof(out) ? m : sizeof(out) - 1);
				continue;
			}
			char *dot = memchr(spec, '.', k);

			if (dot) { /* "%.3s": the precision cuts the length; the spec takes '*' */
				size_t prec = (size_t)strtoul(dot + 1, NULL, 10);

				v.len = v.len < prec ? v.len : prec;
				k = (size_t)(dot - spec);
			}
			spec[k++] = '.';
			spec[k++] = '*';
			spec[k++] = 's';
			spec[k] = '\0';
			n = format_string(out, sizeof(out), spec, (int)v.len, v.str);
		} else if (*c == 'p' && c + 1 < fmt_end && (c[1] == 'I' || c[1] == 'i')) {
			/* %pI4, %pI6c, %pISpc...: the address in the field's bytes (u8 or char) */
			const void *bytes;
			size_t nbytes, used = 0;

			if (!fld)
				return peo_fail(ENOTSUP, "print fmt: an address of '%.*s', not of a "
						"field", (int)(ae - a), a);
			if ((err = peo_tp_field_raw_bytes(fld, rec, raw, raw_size, &bytes, &nbytes)))
				return err;
			n = peo_tp_ip_print(c + 1, (size_t)(fmt_end - c - 1), &used, bytes, nbytes,
					    !peo_tp_raw_is_big(rec), out, sizeof(out));
			if (n < 0)
				return n;
			c += used;
		} else if (one_of(*c, "diouxXcp")) {
			if (v.is_string)
				return peo_fail(ENOTSUP, "print fmt: %%%c of a string", *c);
			const char *sym;
			uint64_t off;

			if (*c == 'p' && c + 1 < fmt_end && one_of(c[1], "SsFfB")) {
				/* %pS: symbol+offset, %ps: symbol, from this machine's kallsyms */
				int with_off = c[1] == 'S' || c[1] == 'F' || c[1] == 'B';

				c++;
				if (peo_kallsyms_find((uint64_t)v.num, &sym, &off))
					n = with_off ? snprintf(out, sizeof(out), "%s+0x%" PRIx64, sym, off)
						     : snprintf(out, sizeof(out), "%s", sym);
				else
					n = snprintf(out, sizeof(out), "0x%" PRIx64, (uint64_t)v.num);
			} else if (*c == 'p') { /* perf's %p: 0x and the hex value, NULL as "(nil)" */
				n = v.num ? snprintf(out, sizeof(out), "0x%" PRIx64, (uint64_t)v.num)
					  : snprintf(out, sizeof(out), "(nil)");
			} else if (*c == 'c') {
				n = snprintf(out, sizeof(out), "%c", (int)v.num);
			} else if (k == 1 && !reference && one_of(*c, "diux")) {
				n = plain_number(out, (long long)v.num, *c);
			} else {
				spec[k++] = 'l';
				spec[k++] = 'l';
				spec[k++] = *c;
				spec[k] = '\0';
				n = format_number(out, sizeof(out), spec, (long long)v.num);
			}
		} else {
			return peo_fail(ENOTSUP, "print fmt: conversion '%c' is not supported", *c);
		}
		put(buf, cap, &len, out, n < 0 ? 0 : (size_t)n < sizeof(out) ? (size_t)n : sizeof(out) - 1);
	}
	return (int)(len < (size_t)INT32_MAX ? len : (size_t)INT32_MAX);
}

/*
 * Whether @fld prints as text: a string, or a fixed array of bytes that
 * reads as text up to its first NUL (perf prints it so).  1 with its bytes
 * up to that NUL in *@b and *@n; 0 when not; a negative errno when a
 * string's bytes run past the payload.
 */
static int text_of(const struct peo_tp_field *fld, const struct peo_record *rec,
		   const void *raw, size_t raw_size, const void **b, size_t *n)
{
	const unsigned char *p;
	const void *nul;
	int err;

	if (!fld->is_text && (!fld->array_len || fld->data_loc || fld->size != fld->array_len))
		return 0;
	if ((err = peo_tp_field_raw_bytes(fld, rec, raw, raw_size, b, n)))
		return fld->is_text ? err : 0; /* an array's error: told by its bytes' print */
	if ((nul = memchr(*b, '\0', *n))) /* text ends at its NUL */
		*n = (size_t)((const char *)nul - (const char *)*b);
	p = *b;
	for (size_t i = 0; !fld->is_text && i < *n; i++)
		if (!isprint(p[i]))
			return 0;
	return 1;
}

int peo_tp_format_print_fields(const struct peo_tp_format *f, const struct peo_record *rec,
			       const void *raw, size_t raw_size, char *buf, size_t cap)
{
	size_t len = 0;

	if (!f || !raw || !buf || !cap)
		return peo_fail(EINVAL, "peo_tp_format_print_fields: a NULL argument or no room");
	buf[0] = '\0';
	for (size_t i = 0; i < peo_tp_format_count(f); i++) {
		const struct peo_tp_field *fld = peo_tp_format_field(f, i);
		const void *text;
		size_t text_len;
		char out[64];
		int n, err, is_text;

		if (fld->common)
			continue;
		if (len)
			put(buf, cap, &len, " ", 1);
		put(buf, cap, &len, fld->name, strlen(fld->name));
		put(buf, cap, &len, "=", 1);
		if ((is_text = text_of(fld, rec, raw, raw_size, &text, &text_len)) < 0)
			return is_text;
		if (is_text) {
			put(buf, cap, &len, text, text_len);
		} else if (fld->data_loc || fld->array_len ||
			   (fld->size != 1 && fld->size != 2 && fld->size != 4 && fld->size != 8)) {
			/* its bytes */
			const unsigned char *b;
			size_t blen;

			if ((err = peo_tp_field_bytes(fld, rec, raw, raw_size, (const void **)&b, &blen)))
				return err;
			put(buf, cap, &len, "ARRAY[", 6);
			for (size_t k = 0; k < blen; k++) {
				n = snprintf(out, sizeof(out), k ? ", %02x" : "%02x", b[k]);
				put(buf, cap, &len, out, (size_t)n);
			}
			put(buf, cap, &len, "]", 1);
		} else {
			int64_t v;

			if ((err = peo_tp_field_int(fld, rec, raw, raw_size, 0, &v)))
				return err;
			/* as perf: pointers and unsigned longs in hex, signed shorts two wide */
			n = fld->is_hex ? snprintf(out, sizeof(out), "0x%" PRIx64, (uint64_t)v)
			    : fld->is_signed && fld->size == 2 ? snprintf(out, sizeof(out), "%2d", (int)v)
			    : fld->is_signed ? snprintf(out, sizeof(out), "%" PRId64, v)
					     : snprintf(out, sizeof(out), "%" PRIu64, (uint64_t)v);
			put(buf, cap, &len, out, (size_t)n);
		}
	}
	return (int)(len < (size_t)INT32_MAX ? len : (size_t)INT32_MAX);
}
