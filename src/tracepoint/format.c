/*
 * format.c - tracepoint format files: their fields, and reading those
 * fields out of a sample's RAW payload.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_internal.h"
#include "tracepoint/format.h"

struct peo_tp_format {
	char *name;
	long long id;
	struct peo_tp_field *fields; /* their name and type strings are ours */
	size_t n;
	char *print; /* what follows "print fmt: " */
	const char *fmt_end; /* the format string's closing quote (or the text's end) */
	struct tp_arg *args; /* its arguments, each parsed */
	size_t nargs;
	struct tp_strings *strings; /* the kernel strings its %s of a pointer names, or NULL */
};

static void free_strings(struct peo_tp_field *fld)
{
	free((void *)(uintptr_t)fld->name);
	free((void *)(uintptr_t)fld->type);
}

void peo_tp_format_free(struct peo_tp_format *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		free_strings(&f->fields[i]);
	free(f->fields);
	free(f->name);
	free(f->print);
	for (size_t i = 0; i < f->nargs; i++)
		peo_tp_expr_free(f->args[i].expr);
	free(f->args);
	peo_tp_strings_free(f->strings);
	free(f);
}

void peo_tp_format_set_strings(struct peo_tp_format *f, struct tp_strings *s)
{
	peo_tp_strings_free(f->strings);
	f->strings = s;
}

const struct tp_strings *peo_tp_format_strings(const struct peo_tp_format *f)
{
	return f->strings;
}

/* Copy of the value after "key:" up to ';' or end of line. */
static int take_number(const char *line, const char *key, long long *out)
{
	const char *p = strstr(line, key);
	char *end;

	if (!p)
		return -1;
	*out = strtoll(p + strlen(key), &end, 10);
	return end == p + strlen(key) ? -1 : 0;
}

/*
 * "field:TYPE NAME[N];" -> its type and name.  The name is the last word
 * (an array's [N] kept apart); the type is everything before it.
 */
static int split_decl(const char *decl, size_t len, struct peo_tp_field *fld)
{
	size_t end = len, name_at;
	const char *br;

	while (end && isspace((unsigned char)decl[end - 1]))
		end--;
	br = memchr(decl, '[', end);
	/* "__data_loc char[] name": the brackets belong to the type */
	if (br && (size_t)(br - decl) < end && br[1] != ']') {
		size_t name_end = (size_t)(br - decl);

		fld->array_len = (uint32_t)strtoul(br + 1, NULL, 0);
		end = name_end;
	}
	name_at = end;
	while (name_at && (isalnum((unsigned char)decl[name_at - 1]) || decl[name_at - 1] == '_'))
		name_at--;
	if (name_at == end)
		return -1;
	fld->name = strndup(decl + name_at, end - name_at);
	while (name_at && isspace((unsigned char)decl[name_at - 1]))
		name_at--;
	fld->type = strndup(decl, name_at);
	if (!fld->name || !fld->type)
		return -ENOMEM;
	fld->data_loc = !strncmp(fld->type, "__data_loc", 10) ? 1 : !strncmp(fld->type, "__rel_loc", 9) ? 2 : 0;
	fld->common = !strncmp(fld->name, "common_", 7);
	fld->is_text = (fld->data_loc || fld->array_len) && strstr(fld->type, "char");
	return 0;
}

static int parse_field_line(struct peo_tp_format *f, const char *line, size_t lineno)
{
	const char *decl = strstr(line, "field:") + 6, *semi = strchr(decl, ';');
	struct peo_tp_field fld = { 0 }, *grown;
	long long off, size, sign = 0;
	int err;

	if (!semi || take_number(semi, "offset:", &off) || take_number(semi, "size:", &size) ||
	    off < 0 || size < 0 || off > UINT32_MAX || size > UINT32_MAX)
		return peo_fail(EPROTO, "tracepoint format line %zu: expected 'field:TYPE NAME; "
				"offset:N; size:N; signed:N;', got '%.80s'", lineno, line);
	take_number(semi, "signed:", &sign);
	err = split_decl(decl, (size_t)(semi - decl), &fld);
	if (err) {
		free_strings(&fld);
		return err == -ENOMEM ? peo_fail(ENOMEM, "out of memory for a format field")
				      : peo_fail(EPROTO, "tracepoint format line %zu: no field name "
						 "in '%.80s'", lineno, line);
	}
	fld.offset = (uint32_t)off;
	fld.size = (uint32_t)size;
	fld.is_signed = sign != 0;
	fld.is_hex = strchr(fld.type, '*') || (!fld.is_signed && strstr(fld.type, "long"));
	grown = realloc(f->fields, (f->n + 1) * sizeof(*grown));
	if (!grown) {
		free_strings(&fld);
		return peo_fail(ENOMEM, "out of memory for a format field");
	}
	f->fields = grown;
	f->fields[f->n++] = fld;
	return 0;
}

/*
 * The print fmt's arguments after its string, comma-separated at
 * parenthesis depth 0, each parsed once (expr_parse.c).  Returns 0 or
 * -ENOMEM.
 */
static int parse_args(struct peo_tp_format *f)
{
	const char *p = f->print, *end;
	size_t cap = 0;

	if (*p != '"')
		return 0;
	for (p++; *p && !(*p == '"' && p[-1] != '\\'); p++)
		;
	f->fmt_end = p;
	if (!*p)
		return 0;
	end = p + strlen(p);
	for (p++;;) {
		const char *a;
		struct tp_arg *more;
		int err;

		while (p < end && (*p == ',' || isspace((unsigned char)*p)))
			p++;
		a = p;
		p = peo_tp_arg_end(p, end);
		if (a == p)
			return 0;
		if (f->nargs == cap) {
			cap = cap ? 2 * cap : 8;
			if (!(more = realloc(f->args, cap * sizeof(*more))))
				return peo_fail(ENOMEM, "out of memory for a print format's arguments");
			f->args = more;
		}
		f->args[f->nargs] = (struct tp_arg){ a, p, NULL, peo_tp_arg_field(f, a, p) };
		if ((err = peo_tp_expr_parse(f, a, p, &f->args[f->nargs].expr)))
			return err;
		f->nargs++;
	}
}

size_t peo_tp_format_args(const struct peo_tp_format *f, const struct tp_arg **args,
			  const char **fmt_end)
{
	if (fmt_end)
		*fmt_end = f->fmt_end;
	*args = f->args;
	return f->nargs;
}

int peo_tp_format_parse(struct peo_tp_format **out, const char *text)
{
	struct peo_tp_format *f;
	size_t lineno = 0;
	int err = 0;

	if (!out || !text)
		return peo_fail(EINVAL, "peo_tp_format_parse: argument '%s' is NULL", out ? "text" : "out");
	*out = NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return peo_fail(ENOMEM, "out of memory for a tracepoint format");
	f->id = -1;
	for (const char *line = text; *line && !err;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[1024];

		lineno++;
		snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) - 1 ? len : sizeof(buf) - 1), line);
		if (!strncmp(line, "print fmt: ", 11) && !f->print) {
			if (!(f->print = strndup(line + 11, len - 11)))
				err = peo_fail(ENOMEM, "out of memory for a print format");
		} else if (strstr(buf, "field:"))
			err = parse_field_line(f, buf, lineno);
		else if (!strncmp(buf, "name:", 5) && !f->name)
			f->name = strdup(buf + 5 + strspn(buf + 5, " \t"));
		else if (!strncmp(buf, "ID:", 3))
			f->id = strtoll(buf + 3, NULL, 10);
		line += len + (nl != NULL);
	}
	if (!err && !f->n)
		err = peo_fail(EPROTO, "tracepoint format: no 'field:' line in %zu lines", lineno);
	if (!err && f->print)
		err = parse_args(f);
	if (err) {
		peo_tp_format_free(f);
		return err;
	}
	*out = f;
	return 0;
}

int peo_tp_format_load(struct peo_tp_format **out, const char *tracefs, const char *sys,
		       const char *name)
{
	const char *dir = peo_tracefs_dir(tracefs);
	char path[4096], *text;
	int err;

	if (!out || !sys || !name)
		return peo_fail(EINVAL, "peo_tp_format_load: argument '%s' is NULL",
				!out ? "out" : !sys ? "sys" : "name");
	*out = NULL;
	if (!dir)
		return peo_fail(ENOENT, "tracepoint %s:%s: tracefs is not mounted; as root: mount -t "
				"tracefs nodev /sys/kernel/tracing", sys, name);
	peo_tracepoint_file(path, sizeof(path), dir, sys, name, "format");
	text = peo_read_text_file(path);
	if (!text) {
		err = errno;
		return peo_fail(err, "tracepoint %s:%s: cannot read %s: %s", sys, name, path,
				strerror(err));
	}
	err = peo_tp_format_parse(out, text);
	free(text);
	snprintf(path, sizeof(path), "%s/printk_formats", dir);
	if (!err && (text = peo_read_text_file(path))) { /* unreadable: %s of a pointer in hex */
		struct tp_strings *strings;

		peo_error_quiet(1); /* without memory for them: %s of a pointer in hex */
		if (!peo_tp_strings_parse(&strings, text, strlen(text)))
			peo_tp_format_set_strings(*out, strings);
		peo_error_quiet(0);
		free(text);
	}
	return err;
}

const char *peo_tp_format_name(const struct peo_tp_format *f)
{
	return f && f->name ? f->name : "";
}

long long peo_tp_format_id(const struct peo_tp_format *f)
{
	return f ? f->id : -1;
}

size_t peo_tp_format_count(const struct peo_tp_format *f)
{
	return f ? f->n : 0;
}

const struct peo_tp_field *peo_tp_format_field(const struct peo_tp_format *f, size_t i)
{
	return f && i < f->n ? &f->fields[i] : NULL;
}

const struct peo_tp_field *peo_tp_format_find(const struct peo_tp_format *f, const char *name)
{
	for (size_t i = 0; f && name && i < f->n; i++)
		if (!strcmp(f->fields[i].name, name))
			return &f->fields[i];
	return NULL;
}

/* The @size (1, 2, 4 or 8; its callers check) bytes at @p, swapped when @swap. */
static uint64_t load(const unsigned char *p, uint32_t size, int swap)
{
	return size == 8 ? peo_load_u64(p, swap) : size == 4 ? peo_load_u32(p, swap)
	     : size == 2 ? peo_load_u16(p, swap) : *p;
}

static int host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 0;
}

/* Bytes in @raw are in the record's order; @swap says whether that is not little-endian. */
int peo_tp_raw_is_big(const struct peo_record *rec)
{
	return host_big_endian() != (rec && rec->swapped);
}

int peo_tp_field_int(const struct peo_tp_field *fld, const struct peo_record *rec, const void *raw,
		     size_t raw_size, size_t index, int64_t *out)
{
	uint32_t esize;
	uint64_t at, v;

	if (!fld || !raw || !out)
		return peo_fail(EINVAL, "peo_tp_field_int: argument '%s' is NULL",
				!fld ? "field" : !raw ? "raw" : "out");
	esize = fld->array_len ? fld->size / fld->array_len : fld->size;
	if (esize != 1 && esize != 2 && esize != 4 && esize != 8)
		return peo_fail(EINVAL, "field '%s' has %u-byte elements, not an integer", fld->name, esize);
	at = fld->offset + (uint64_t)index * esize;
	if ((fld->array_len ? index >= fld->array_len : index > 0) || at + esize > raw_size)
		return peo_fail(EPROTO, "field '%s' element %zu at offset %llu lies past the %zu-byte "
				"payload", fld->name, index, (unsigned long long)at, raw_size);
	v = load((const unsigned char *)raw + at, esize, rec && rec->swapped);
	if (fld->is_signed && esize < 8 && (v >> (8 * esize - 1) & 1))
		v |= ~0ULL << (8 * esize);
	*out = (int64_t)v;
	return 0;
}

int peo_tp_field_bytes(const struct peo_tp_field *fld, const struct peo_record *rec, const void *raw,
		       size_t raw_size, const void **bytes, size_t *len)
{
	int err;

	if (!fld || !raw || !bytes || !len)
		return peo_fail(EINVAL, "peo_tp_field_bytes: a NULL argument");
	if ((err = peo_tp_field_raw_bytes(fld, rec, raw, raw_size, bytes, len)))
		return err;
	if (strstr(fld->type, "char")) { /* text; a __data_loc u8[] is bytes, NULs and all */
		const unsigned char *nul = memchr(*bytes, '\0', *len);

		if (nul)
			*len = (size_t)(nul - (const unsigned char *)*bytes);
	}
	return 0;
}

int peo_tp_field_raw_bytes(const struct peo_tp_field *fld, const struct peo_record *rec,
			   const void *raw, size_t raw_size, const void **bytes, size_t *len)
{
	const unsigned char *p = raw;
	uint64_t at, n;

	if (!fld || !raw || !bytes || !len)
		return peo_fail(EINVAL, "peo_tp_field_raw_bytes: a NULL argument");
	if ((uint64_t)fld->offset + fld->size > raw_size)
		return peo_fail(EPROTO, "field '%s' at offset %u (%u bytes) lies past the %zu-byte "
				"payload", fld->name, fld->offset, fld->size, raw_size);
	at = fld->offset;
	n = fld->size;
	if (fld->data_loc && fld->size < 4) /* a forged format: the u32 would overrun */
		return peo_fail(EPROTO, "field '%s': a __data_loc of %u bytes, not 4", fld->name,
				fld->size);
	if (fld->data_loc) {
		uint64_t loc = load(p + fld->offset, 4, rec && rec->swapped);

		at = (loc & 0xffff) + (fld->data_loc == 2 ? fld->offset + fld->size : 0);
		n = loc >> 16;
		if (at + n > raw_size)
			return peo_fail(EPROTO, "field '%s': its data at offset %llu (%llu bytes) lies "
					"past the %zu-byte payload", fld->name, (unsigned long long)at,
					(unsigned long long)n, raw_size);
	}
	*bytes = p + at;
	*len = (size_t)n;
	return 0;
}

const char *peo_tp_format_print_fmt(const struct peo_tp_format *f)
{
	return f && f->print ? f->print : "";
}
