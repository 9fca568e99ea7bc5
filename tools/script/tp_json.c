/*
 * script/tp_json.c - a tracepoint sample's own fields in peo script --json,
 * decoded by the event's format (perf script prints them only through the
 * print fmt, as text).
 */
#include "script/json.h"

/* An integer field's elements: 1, 2, 4 or 8 bytes each, the size a whole number of them. */
static int int_elements(const struct peo_tp_field *fld)
{
	uint32_t esize = fld->array_len ? fld->size / fld->array_len : fld->size;

	return !fld->data_loc && (esize == 1 || esize == 2 || esize == 4 || esize == 8) &&
	       (!fld->array_len || fld->size % fld->array_len == 0);
}

/* Element @i of an integer field: a number, or "0x..." when perf prints it in hex. */
static void out_element(struct out *o, const struct peo_tp_field *fld, const struct peo_record *r,
			const void *raw, size_t raw_size, size_t i)
{
	int64_t v = 0;
	char *p = out_room(o, 24);

	/* in the payload: out_value() checked */
	(void)peo_tp_field_int(fld, r, raw, raw_size, i, &v);
	if (fld->is_hex)
		p = put_json_hex(p, (uint64_t)v);
	else
		p = fld->is_signed ? put_i64(p, v, 0) : put_dec(p, (uint64_t)v, 0, 0);
	out_advance(o, p);
}

static void out_value(struct out *o, const struct peo_tp_field *fld, const struct peo_record *r,
		      const void *raw, size_t raw_size)
{
	const unsigned char *b;
	size_t n;

	/* text by its type; an unsigned char array is bytes (a buffer, an address) */
	int text = fld->is_text && !strstr(fld->type, "unsigned");

	if (!text && int_elements(fld)) { /* the common case: checked here, no call */
		if ((uint64_t)fld->offset + fld->size > raw_size) {
			out_str(o, "null");
		} else if (!fld->array_len) {
			out_element(o, fld, r, raw, raw_size, 0);
		} else {
			out_char(o, '[');
			for (uint32_t i = 0; i < fld->array_len; i++) {
				if (i)
					out_char(o, ',');
				out_element(o, fld, r, raw, raw_size, i);
			}
			out_char(o, ']');
		}
	} else if (text ? peo_tp_field_bytes(fld, r, raw, raw_size, (const void **)&b, &n)
			: peo_tp_field_raw_bytes(fld, r, raw, raw_size, (const void **)&b, &n)) {
		out_str(o, "null"); /* past the payload */
	} else if (text) { /* up to its NUL */
		out_json_string(o, (const char *)b, n);
	} else { /* bytes, all of them */
		out_char(o, '[');
		for (size_t i = 0; i < n; i++) {
			char *p = out_room(o, 1 + 21); /* put_dec() writes 8 bytes at least */

			if (i)
				*p++ = ',';
			out_advance(o, put_dec(p, b[i], 0, 0));
		}
		out_char(o, ']');
	}
}

/* ,"fields":{"NAME": for the first field, else ,"NAME": (a C identifier:
 * nothing to escape), in one room when it fits one. */
static void out_key(struct out *o, const char *name, int after_first)
{
	static const char first[] = ",\"fields\":{\"", next[] = ",\"";
	size_t len = out_strlen(name);
	char *p;

	if (len > 256) { /* any length: a piece at a time */
		out_str(o, after_first ? next : first);
		out_bytes(o, name, len);
		out_bytes(o, "\":", 2);
		return;
	}
	p = out_room(o, sizeof(first) + len + 2);
	p = after_first ? put_bytes(p, next, sizeof(next) - 1) : put_bytes(p, first, sizeof(first) - 1);
	p = put_bytes(p, name, len);
	out_advance(o, put_bytes(p, "\":", 2));
}

void json_tp_fields(struct out *o, const struct peo_tp_format *f, const struct peo_record *r,
		    const void *raw, size_t raw_size)
{
	int put = 0;

	for (size_t i = 0; i < peo_tp_format_count(f); i++) {
		const struct peo_tp_field *fld = peo_tp_format_field(f, i);

		if (fld->common)
			continue;
		out_key(o, fld->name, put++);
		out_value(o, fld, r, raw, raw_size);
	}
	if (put)
		out_char(o, '}');
}
