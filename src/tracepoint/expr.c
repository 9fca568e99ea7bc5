/*
 * expr.c - the C expressions a tracepoint's print fmt passes as
 * arguments, evaluated over one payload: integer arithmetic, comparisons,
 * logic and the conditional operator, casts, string literals, REC->field
 * and REC->array[i], __get_str(), __get_dynamic_array(), __get_bitmask(),
 * __builtin_expect(), and the kernel's helpers __print_flags(),
 * __print_symbolic(), __print_hex() and __print_array().  A name the
 * format does not define (a kernel variable such as jiffies) is 0, as
 * perf's evaluator takes it; alone as a table entry's value, no value.
 * Recursive descent, one function per precedence level of C.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tracepoint/expr.h"
#include "tracepoint/expr_internal.h"


int tpx_fail(struct parser *ps, int err, const char *what)
{
	if (!ps->err)
		ps->err = peo_fail(err, "print fmt: %s at '%.40s'", what, ps->p);
	return ps->err;
}

void tpx_skip_space(struct parser *ps)
{
	while (ps->p < ps->end && isspace((unsigned char)*ps->p))
		ps->p++;
}

/* The next token is @tok (punctuation): consume it and say so. */
int tpx_accept(struct parser *ps, const char *tok)
{
	size_t n = strlen(tok);

	tpx_skip_space(ps);
	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, tok, n))
		return 0;
	/* "<" is not "<<" nor "<=", "&" is not "&&", "|" is not "||"... */
	if (n == 1 && ps->p + 1 < ps->end && strchr("<>&|=", *tok) &&
	    (ps->p[1] == *tok || ps->p[1] == '='))
		return 0;
	if (n == 1 && strchr("!=", *tok) && ps->p + 1 < ps->end && ps->p[1] == '=')
		return 0;
	ps->p += n;
	return 1;
}

int tpx_expect(struct parser *ps, const char *tok)
{
	if (tpx_accept(ps, tok))
		return 0;
	char what[32];

	snprintf(what, sizeof(what), "'%s' expected", tok);
	return tpx_fail(ps, ENOTSUP, what);
}

/* An identifier at the cursor (not consumed): its length, 0 if none. */
size_t tpx_ident_len(struct parser *ps)
{
	size_t n = 0;

	tpx_skip_space(ps);
	while (ps->p + n < ps->end && (isalnum((unsigned char)ps->p[n]) || ps->p[n] == '_'))
		n++;
	return n && !isdigit((unsigned char)ps->p[0]) ? n : 0;
}

int tpx_ident_is(struct parser *ps, const char *name)
{
	size_t n = tpx_ident_len(ps);

	return n == strlen(name) && !memcmp(ps->p, name, n);
}

int tpx_is_true(const struct tp_value *v)
{
	return v->is_string ? 1 : v->num != 0;
}

/* ------------------------------------------------------------ casts */

/* The bytes and signedness of a cast's type words; 0: not a type (then
 * the parenthesis is an expression's). */
int tpx_type_of(const char *words, size_t len, int *bytes, int *uns)
{
	static const struct {
		const char *word;
		int bytes, uns;
	} typedefs[] = {
		{ "u8", 1, 1 },     { "u16", 2, 1 },   { "u32", 4, 1 },   { "u64", 8, 1 },
		{ "s8", 1, 0 },     { "s16", 2, 0 },   { "s32", 4, 0 },   { "s64", 8, 0 },
		{ "__u8", 1, 1 },   { "__u16", 2, 1 }, { "__u32", 4, 1 }, { "__u64", 8, 1 },
		{ "__s8", 1, 0 },   { "__s16", 2, 0 }, { "__s32", 4, 0 }, { "__s64", 8, 0 },
		{ "size_t", 8, 1 }, { "gfp_t", 4, 1 }, { "bool", 1, 1 },  { "_Bool", 1, 1 },
		{ "pid_t", 4, 0 },  { "dev_t", 4, 1 }, { "void", 8, 1 },
		{ "loff_t", 8, 0 }, { "off_t", 8, 0 }, { "ssize_t", 8, 0 }, { "ino_t", 8, 1 },
		{ "pgoff_t", 8, 1 }, { "sector_t", 8, 1 }, { "uid_t", 4, 1 }, { "gid_t", 4, 1 },
		{ "umode_t", 2, 1 }, { "ktime_t", 8, 0 }, { "time64_t", 8, 0 },
		{ "uintptr_t", 8, 1 }, { "phys_addr_t", 8, 1 }, { "dma_addr_t", 8, 1 },
	};
	int longs = 0, is_short = 0, is_char = 0, is_int = 0, unsigned_word = 0, signed_word = 0;
	int td = -1, tagged = 0; /* tagged: 1 struct/union, 2 enum, +2 once named */

	for (const char *w = words, *e = words + len; w < e;) {
		size_t n = 0;

		while (w < e && (isspace((unsigned char)*w) || *w == '*'))
			w++;
		while (w + n < e && (isalnum((unsigned char)w[n]) || w[n] == '_'))
			n++;
		if (!n)
			break;
#define WORD_IS(lit) (n == sizeof(lit) - 1 && !memcmp(w, lit, n))
		if (WORD_IS("unsigned"))
			unsigned_word = 1;
		else if (WORD_IS("signed"))
			signed_word = 1;
		else if (WORD_IS("long"))
			longs++;
		else if (WORD_IS("short"))
			is_short = 1;
		else if (WORD_IS("char"))
			is_char = 1;
		else if (WORD_IS("int"))
			is_int = 1;
		else if (WORD_IS("struct") || WORD_IS("union") || WORD_IS("enum"))
			tagged = WORD_IS("enum") ? 2 : 1; /* the tag's name follows */
		else if (tagged == 1 || tagged == 2)
			tagged += 2; /* the tag's name: a struct is known by pointer only */
		else if (!WORD_IS("const") && !WORD_IS("volatile")) {
			size_t i = 0;

			while (i < sizeof(typedefs) / sizeof(typedefs[0]) &&
			       !(strlen(typedefs[i].word) == n && !memcmp(typedefs[i].word, w, n)))
				i++;
			if (i == sizeof(typedefs) / sizeof(typedefs[0]))
				return 0; /* a word that is no type: not a cast */
			td = (int)i;
		}
#undef WORD_IS
		w += n;
	}
	*bytes = td >= 0 ? typedefs[td].bytes : is_char ? 1 : is_short ? 2 : longs ? 8
		: is_int || unsigned_word || signed_word || tagged == 4 ? 4 : 0;
	if (tagged == 3 && !memchr(words, '*', len))
		return 0; /* a struct by value: no integer */
	*uns = unsigned_word ? 1 : signed_word ? 0 : td >= 0 ? typedefs[td].uns : 0;
	if ((*bytes || tagged == 3) && memchr(words, '*', len)) { /* a pointer */
		*bytes = 8;
		*uns = 1;
	}
	return *bytes != 0;
}

void tpx_apply_cast(struct tp_value *v, int bytes, int uns)
{
	if (v->is_string || bytes >= 8) {
		v->uns = v->is_string ? 0 : uns;
		return;
	}
	uint64_t mask = (UINT64_C(1) << (8 * bytes)) - 1, x = (uint64_t)v->num & mask;

	if (!uns && (x >> (8 * bytes - 1)))
		x |= ~mask; /* sign-extend */
	v->num = (int64_t)x;
	v->uns = uns;
}

/* ------------------------------------------------------------ primaries */

/* The @len bytes written at the scratch space's free end become *@out, a
 * string (NUL-terminated there), and that space is taken. */
void tpx_take_scratch(struct parser *ps, size_t len, struct tp_value *out)
{
	char *text = ps->scratch + ps->scratch_used;

	text[len] = '\0';
	out->is_string = 1;
	out->str = text;
	out->len = len;
	ps->scratch_used += len + 1;
}

static int conditional(struct parser *ps, struct tp_value *out);

int tpx_string_literal(struct parser *ps, struct tp_value *out)
{
	char *dst = ps->scratch + ps->scratch_used;
	size_t n = 0;

	for (ps->p++; ps->p < ps->end && *ps->p != '"'; ps->p++) {
		char c = *ps->p;

		if (c == '\\' && ps->p + 1 < ps->end) {
			c = *++ps->p;
			c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
		}
		if (ps->scratch_used + n + 1 >= ps->scratch_cap)
			return tpx_fail(ps, ENOSPC, "strings longer than the scratch space");
		dst[n++] = c;
	}
	if (ps->p >= ps->end)
		return tpx_fail(ps, ENOTSUP, "a string without its closing quote");
	if (ps->scratch_used + n >= ps->scratch_cap) /* "" with the space full: no room for its NUL */
		return tpx_fail(ps, ENOSPC, "strings longer than the scratch space");
	ps->p++;
	tpx_take_scratch(ps, n, out);
	return 0;
}

int tpx_char_literal(struct parser *ps, struct tp_value *out)
{
	const char *p = ps->p + 1;
	char c;

	if (p < ps->end && *p == '\\' && p + 1 < ps->end) { /* the escapes formats use */
		p++;
		c = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p == '0' ? '\0' : *p;
	} else if (p < ps->end) {
		c = *p;
	} else {
		return tpx_fail(ps, ENOTSUP, "a character without its closing quote");
	}
	if (++p >= ps->end || *p != '\'')
		return tpx_fail(ps, ENOTSUP, "a character without its closing quote");
	ps->p = p + 1;
	out->num = c; /* an int, as C's 'c' */
	return 0;
}

int tpx_number_literal(struct parser *ps, struct tp_value *out)
{
	char *end;
	uint64_t v = strtoull(ps->p, &end, 0);

	if (end == ps->p || end > ps->end)
		return tpx_fail(ps, ENOTSUP, "a number expected");
	ps->p = end;
	out->num = (int64_t)v;
	out->uns = v > INT64_MAX;
	while (ps->p < ps->end && strchr("uUlL", *ps->p)) { /* suffixes */
		out->uns |= *ps->p == 'u' || *ps->p == 'U';
		ps->p++;
	}
	return 0;
}

/* The field named by the @n bytes at @name, or NULL (the failure set). */
static const struct peo_tp_field *find_field(struct parser *ps, const char *name, size_t n)
{
	char buf[128], what[192];
	const struct peo_tp_field *fld;

	snprintf(buf, sizeof(buf), "%.*s", (int)n, name);
	if ((fld = peo_tp_format_find(ps->f, buf)))
		return fld;
	snprintf(what, sizeof(what), "no field '%s' in the format", buf);
	tpx_fail(ps, ENOTSUP, what);
	return NULL;
}

/* Field @fld's bytes (a string's, a __data_loc's data, an array's elements). */
int tpx_field_bytes(struct parser *ps, const struct peo_tp_field *fld, struct tp_value *out)
{
	const void *b;

	out->is_string = 1;
	if (peo_tp_field_bytes(fld, ps->rec, ps->raw, ps->raw_size, &b, &out->len)) {
		if (!ps->dead)
			return ps->err = -EPROTO;
		b = "", out->len = 0;
	}
	out->str = b;
	return 0;
}

/* A field by name: a string for char arrays and __data_loc (or when
 * @want_string), else its integer. */
static int field_value(struct parser *ps, const char *name, size_t n, int want_string,
		       struct tp_value *out)
{
	const struct peo_tp_field *fld = find_field(ps, name, n);

	return fld ? tpx_field(ps, fld, want_string, out) : ps->err;
}

int tpx_field(struct parser *ps, const struct peo_tp_field *fld, int want_string,
	      struct tp_value *out)
{
	if (want_string || fld->data_loc || fld->is_text)
		return tpx_field_bytes(ps, fld, out);
	if (peo_tp_field_int(fld, ps->rec, ps->raw, ps->raw_size, 0, &out->num)) {
		if (!ps->dead)
			return ps->err = -EPROTO;
		out->num = 0;
	}
	out->uns = !fld->is_signed;
	return 0;
}

/*
 * A table entry's value that is a name alone: perf's evaluator knows the
 * softirq and hrtimer restart names (formats of older kernels use them);
 * any other (an enum constant the format leaves undefined) is no value,
 * and its entry never matches.  Returns 1 with *@v, or 0.
 */
int tpx_name_value(const char *name, size_t n, int64_t *v)
{
	static const struct {
		const char *name;
		int64_t value;
	} names_known[] = {
		{ "HI_SOFTIRQ", 0 },       { "TIMER_SOFTIRQ", 1 },  { "NET_TX_SOFTIRQ", 2 },
		{ "NET_RX_SOFTIRQ", 3 },   { "BLOCK_SOFTIRQ", 4 },  { "IRQ_POLL_SOFTIRQ", 5 },
		{ "TASKLET_SOFTIRQ", 6 },  { "SCHED_SOFTIRQ", 7 },  { "HRTIMER_SOFTIRQ", 8 },
		{ "RCU_SOFTIRQ", 9 },      { "HRTIMER_NORESTART", 0 }, { "HRTIMER_RESTART", 1 },
	};

	for (size_t i = 0; i < sizeof(names_known) / sizeof(names_known[0]); i++)
		if (strlen(names_known[i].name) == n && !memcmp(names_known[i].name, name, n)) {
			*v = names_known[i].value;
			return 1;
		}
	return 0;
}

/* The name [@s, @e) is alone (spaces and parentheses around it): its length, else 0. */
size_t tpx_lone_name(const char *s, const char *e, const char **name)
{
	size_t n = 0;

	while (s < e && (isspace((unsigned char)*s) || *s == '('))
		s++;
	while (e > s && (isspace((unsigned char)e[-1]) || e[-1] == ')'))
		e--;
	if (s == e || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	while (s + n < e && (isalnum((unsigned char)s[n]) || s[n] == '_'))
		n++;
	*name = s;
	return s + n == e ? n : 0;
}

/* REC->name[index], after the '[': element index of an array field. */
static int element(struct parser *ps, const char *name, size_t n, struct tp_value *out)
{
	struct tp_value index;
	const struct peo_tp_field *fld;

	if (conditional(ps, &index) || tpx_expect(ps, "]") || !(fld = find_field(ps, name, n)))
		return ps->err;
	if (!fld->array_len)
		return tpx_fail(ps, ENOTSUP, "a subscript of a field that is no array");
	return tpx_element(ps, fld, &index, out);
}

int tpx_element(struct parser *ps, const struct peo_tp_field *fld, const struct tp_value *index,
		struct tp_value *out)
{
	if (index->is_string || index->num < 0 || (uint64_t)index->num >= fld->array_len) {
		char what[192];

		if (ps->dead)
			return 0;
		snprintf(what, sizeof(what), "subscript %lld past the %u elements of '%s'",
			 (long long)index->num, fld->array_len, fld->name);
		return tpx_fail(ps, ENOTSUP, what);
	}
	if (ps->dead) /* not evaluated: its field is not read */
		return 0;
	if ((ps->err = peo_tp_field_int(fld, ps->rec, ps->raw, ps->raw_size, (size_t)index->num,
					&out->num)))
		return ps->err;
	out->uns = !fld->is_signed;
	return 0;
}

/* "(name)" after a helper's name (__get_str...): the field's name in *@name, *@n bytes. */
static int field_arg(struct parser *ps, const char **name, size_t *n)
{
	if (tpx_expect(ps, "("))
		return ps->err;
	*n = tpx_ident_len(ps);
	*name = ps->p;
	ps->p += *n;
	if (!*n)
		return tpx_fail(ps, ENOTSUP, "a helper of no field name");
	return tpx_expect(ps, ")");
}

/*
 * __print_hex(buffer, length), __print_hex_str(buffer, length) and
 * __print_array(buffer, count, element size), after the name, as perf
 * prints them: bytes in hex joined by spaces, in hex run together, and
 * elements (1, 2, 4 or 8 bytes, in the payload's byte order) in unsigned
 * decimal joined by spaces.  The buffer is __get_dynamic_array(field) or
 * an array field; what lies past its bytes is not read.
 */
static int print_bytes(struct parser *ps, char kind, struct tp_value *out)
{
	struct tp_value buf = { 0 }, count = { 0 }, size = { .num = 1 };
	const unsigned char *b;
	size_t n, len = 0, room = ps->scratch_cap - ps->scratch_used;
	char *text = ps->scratch + ps->scratch_used;
	const char *arg_end;
	const struct peo_tp_field *fld;

	if (tpx_expect(ps, "("))
		return ps->err;
	arg_end = peo_tp_arg_end(ps->p, ps->end);
	if ((fld = peo_tp_arg_field(ps->f, ps->p, arg_end))) { /* a field alone: its bytes */
		if (tpx_field_bytes(ps, fld, &buf))
			return ps->err;
		ps->p = arg_end;
	} else if (conditional(ps, &buf)) {
		return ps->err;
	}
	if (!buf.is_string)
		return tpx_fail(ps, ENOTSUP, "a hex or array print of no bytes");
	if (tpx_expect(ps, ",") || conditional(ps, &count) ||
	    (kind == 'a' && (tpx_expect(ps, ",") || conditional(ps, &size))) || tpx_expect(ps, ")"))
		return ps->err;
	if (count.is_string || size.is_string || (size.num != 1 && size.num != 2 && size.num != 4 &&
						    size.num != 8))
		return tpx_fail(ps, ENOTSUP, "a hex or array print's count or element size");
	b = (const unsigned char *)buf.str;
	n = count.num < 0 ? 0 : (uint64_t)count.num; /* elements (bytes for hex) */
	if (n > buf.len / (size_t)size.num)
		n = buf.len / (size_t)size.num;
	for (size_t i = 0; i < n && len + 24 < room; i++) {
		uint64_t v = 0;

		if (kind != 'a') {
			len += (size_t)snprintf(text + len, room - len, kind == 'h' && i ? " %02x" : "%02x",
						b[i]);
			continue;
		}
		switch (size.num) { /* the element in the payload's byte order */
		case 1: v = b[i]; break;
		case 2: v = peo_load_u16(b + 2 * i, ps->rec->swapped); break;
		case 4: v = peo_load_u32(b + 4 * i, ps->rec->swapped); break;
		default: v = peo_load_u64(b + 8 * i, ps->rec->swapped); break;
		}
		len += (size_t)snprintf(text + len, room - len, i ? " %llu" : "%llu",
					(unsigned long long)v);
	}
	if (len + 24 >= room && n)
		return tpx_fail(ps, ENOSPC, "a hex or array print longer than the scratch space");
	tpx_take_scratch(ps, len, out);
	return 0;
}

/*
 * __get_bitmask(field) and __get_cpumask(field) (and their _rel forms),
 * after the name, as the kernel's own trace prints them ("%*pb"): the
 * bitmap's bits in hex, 32 to a group, the highest group first, groups
 * joined by commas, each zero-padded to its width (perf 6.1 has no such
 * helper).  The bitmap is the field's unsigned longs, 8 bytes each unless
 * its size says 4.
 */
static int print_bitmask(struct parser *ps, struct tp_value *out)
{
	struct tp_value buf = { 0 };
	const unsigned char *b;
	const char *name;
	size_t n, len = 0, room = ps->scratch_cap - ps->scratch_used, word;
	char *text = ps->scratch + ps->scratch_used;
	uint64_t bits;

	if (field_arg(ps, &name, &n) || field_value(ps, name, n, 1, &buf)) /* a string: its bytes */
		return ps->err;
	b = (const unsigned char *)buf.str;
	word = buf.len % 8 ? 4 : 8;
	bits = (uint64_t)(buf.len / word * word) * 8; /* whole words: a multiple of 32 */
	if (bits / 32 * 9 + 9 >= room)
		return tpx_fail(ps, ENOSPC, "a bitmask longer than the scratch space");
	for (uint64_t at = bits; at >= 32; at -= 32) {
		uint64_t bit = at - 32, w = bit / (word * 8), group;
		int swap = ps->rec && ps->rec->swapped; /* no record: host order */

		group = word == 8 ? peo_load_u64(b + 8 * w, swap) >> (bit % 64)
				  : peo_load_u32(b + 4 * w, swap);
		len += (size_t)snprintf(text + len, room - len, "%s%08llx", len ? "," : "",
					(unsigned long long)(uint32_t)group);
	}
	tpx_take_scratch(ps, len, out);
	return 0;
}

/*
 * __print_flags(value, "delim", { mask, "name" }, ...) and
 * __print_symbolic(value, { value, "name" }, ...), after the name.  Flags:
 * each whole mask set in the value, in table order, joined by the
 * delimiter, what is left over in hex; a zero value prints nothing, as
 * the kernel and perf print it.  Symbolic: the first equal value's name,
 * else the value in hex.
 * An entry whose value cannot be evaluated (an enum name the format does
 * not define) is passed over.
 */
static int print_table(struct parser *ps, int flags, struct tp_value *out)
{
	struct tp_value v = { 0 }, delim = { 0 }, key, name;
	struct tpx_table t;

	if (tpx_expect(ps, "(") || conditional(ps, &v) || tpx_expect(ps, ","))
		return ps->err;
	if (v.is_string)
		return tpx_fail(ps, ENOTSUP, "a table's value is a string");
	if (flags && (conditional(ps, &delim) || tpx_expect(ps, ",")))
		return ps->err;
	if (flags && !delim.is_string)
		return tpx_fail(ps, ENOTSUP, "__print_flags' delimiter is not a string");
	tpx_table_start(&t, &v);
	while (tpx_accept(ps, "{")) {
		const char *entry = ps->p;
		size_t mark = ps->scratch_used;
		const char *key_end = peo_tp_arg_end(entry, ps->end), *lone;
		size_t lone_n = tpx_lone_name(entry, key_end, &lone);
		int known, unknown = 0;

		/* a value the format cannot evaluate is passed over; a name alone
		 * that it does not define (an enum constant) is no value: its
		 * entry never matches (perf prints the first such flag's name for
		 * a zero value; the kernel, knowing the value, nothing, and so
		 * does this).  Inside an expression a name is 0, as perf takes it. */
		if (lone_n) {
			memset(&key, 0, sizeof(key));
			known = 1;
			unknown = !tpx_name_value(lone, lone_n, &key.num);
			ps->p = key_end;
		} else {
			known = !conditional(ps, &key) && !key.is_string;
			if (!known) {
				ps->err = 0;
				ps->p = key_end;
			}
		}
		if (tpx_expect(ps, ",") || conditional(ps, &name) || tpx_expect(ps, "}"))
			return ps->err;
		if (!name.is_string && name.num) /* a NULL name ends the table */
			return tpx_fail(ps, ENOTSUP, "a table entry's name is not a string");
		tpx_table_entry(&t, flags, &v, &delim, known, unknown, &key, &name);
		ps->scratch_used = mark; /* the name's literal is copied: its space is free */
		if (!tpx_accept(ps, ","))
			break;
	}
	if (tpx_expect(ps, ")"))
		return ps->err;
	return tpx_table_end(ps, &t, flags, &v, &delim, out);
}

void tpx_table_start(struct tpx_table *t, const struct tp_value *v)
{
	t->len = 0;
	t->printed = t->matched = 0;
	t->left = (uint64_t)v->num;
}

void tpx_table_entry(struct tpx_table *t, int flags, const struct tp_value *v,
		     const struct tp_value *delim, int known, int unknown,
		     const struct tp_value *key, const struct tp_value *name)
{
	known &= name->is_string;
	if (known && !t->matched) {
		uint64_t k = (uint64_t)key->num;
		int take = !unknown && (flags ? k && (t->left & k) == k : k == (uint64_t)v->num);

		if (take && flags && t->printed)
			t->len += (size_t)snprintf(t->text + t->len, sizeof(t->text) - t->len, "%.*s",
						   (int)delim->len, delim->str);
		if (take && t->len < sizeof(t->text))
			t->len += (size_t)snprintf(t->text + t->len, sizeof(t->text) - t->len, "%.*s",
						   (int)name->len, name->str);
		t->matched = take && !flags;
		t->printed |= take;
		if (take && flags)
			t->left &= ~k;
	}
	if (t->len >= sizeof(t->text))
		t->len = sizeof(t->text) - 1;
}

int tpx_table_end(struct parser *ps, struct tpx_table *t, int flags, const struct tp_value *v,
		  const struct tp_value *delim, struct tp_value *out)
{
	if (!t->matched && (!flags || t->left) && t->len < sizeof(t->text))
		/* what no entry names, in hex (after the delimiter when flags came before) */
		t->len += (size_t)snprintf(t->text + t->len, sizeof(t->text) - t->len,
					   "%.*s0x%" PRIx64,
					   flags && t->printed ? (int)delim->len : 0,
					   flags ? delim->str : "", flags ? t->left : (uint64_t)v->num);
	if (t->len >= sizeof(t->text))
		t->len = sizeof(t->text) - 1;
	if (ps->scratch_used + t->len + 1 > ps->scratch_cap)
		return tpx_fail(ps, ENOSPC, "a table's text longer than the scratch space");
	memcpy(ps->scratch + ps->scratch_used, t->text, t->len);
	tpx_take_scratch(ps, t->len, out);
	return 0;
}

static int primary(struct parser *ps, struct tp_value *out)
{
	const char *name = NULL;
	size_t n;

	memset(out, 0, sizeof(*out));
	tpx_skip_space(ps);
	if (ps->p >= ps->end)
		return tpx_fail(ps, ENOTSUP, "an argument ends early");
	if (*ps->p == '"')
		return tpx_string_literal(ps, out);
	if (*ps->p == '\'')
		return tpx_char_literal(ps, out);
	if (isdigit((unsigned char)*ps->p))
		return tpx_number_literal(ps, out);
	if (tpx_accept(ps, "(")) {
		if (conditional(ps, out))
			return ps->err;
		return tpx_expect(ps, ")");
	}
	n = tpx_ident_len(ps);
	if (n == 3 && !memcmp(ps->p, "REC", 3)) {
		ps->p += 3;
		if (tpx_expect(ps, "->"))
			return ps->err;
		n = tpx_ident_len(ps);
		if (!n)
			return tpx_fail(ps, ENOTSUP, "a field name expected after REC->");
		ps->p += n;
		name = ps->p - n;
		if (tpx_accept(ps, "["))
			return element(ps, name, n, out);
		return field_value(ps, name, n, 0, out);
	}
	if (tpx_ident_is(ps, "__builtin_expect")) { /* (value, expected): the value */
		struct tp_value expected;

		ps->p += n;
		if (tpx_expect(ps, "(") || conditional(ps, out) || tpx_expect(ps, ",") ||
		    conditional(ps, &expected))
			return ps->err;
		return tpx_expect(ps, ")");
	}
	if (tpx_ident_is(ps, "__get_str") || tpx_ident_is(ps, "__get_rel_str") ||
	    tpx_ident_is(ps, "__get_dynamic_array") || tpx_ident_is(ps, "__get_rel_dynamic_array") ||
	    tpx_ident_is(ps, "__get_dynamic_array_len") || tpx_ident_is(ps, "__get_rel_dynamic_array_len")) {
		/* the field's bytes; the _len forms their count */
		int len_only = tpx_ident_is(ps, "__get_dynamic_array_len") ||
			       tpx_ident_is(ps, "__get_rel_dynamic_array_len");

		ps->p += n;
		if (field_arg(ps, &name, &n) || field_value(ps, name, n, 1, out))
			return ps->err;
		if (len_only) {
			out->num = (int64_t)out->len;
			out->is_string = 0;
			out->uns = 1;
		}
		return 0;
	}
	if (tpx_ident_is(ps, "__get_bitmask") || tpx_ident_is(ps, "__get_rel_bitmask") ||
	    tpx_ident_is(ps, "__get_cpumask") || tpx_ident_is(ps, "__get_rel_cpumask")) {
		ps->p += n;
		return print_bitmask(ps, out);
	}
	if (tpx_ident_is(ps, "__print_flags") || tpx_ident_is(ps, "__print_symbolic")) {
		int flags = tpx_ident_is(ps, "__print_flags");

		ps->p += n;
		return print_table(ps, flags, out);
	}
	if (tpx_ident_is(ps, "__print_hex") || tpx_ident_is(ps, "__print_hex_str") ||
	    tpx_ident_is(ps, "__print_array")) {
		char kind = tpx_ident_is(ps, "__print_hex") ? 'h' : tpx_ident_is(ps, "__print_hex_str") ? 's' : 'a';

		ps->p += n;
		return print_bytes(ps, kind, out);
	}
	if (n) { /* a kernel variable or enum constant the format does not define */
		const char *after = ps->p + n;

		while (after < ps->end && isspace((unsigned char)*after))
			after++;
		if (after < ps->end && *after == '(') /* __print_hex(...), a helper: no name */
			return tpx_fail(ps, ENOTSUP, "a helper peo does not evaluate");
		out->num = 0;
		ps->p += n;
		return 0;
	}
	return tpx_fail(ps, ENOTSUP, "an operand expected");
}

/*
 * Whether "(@s..@close)" is a cast to a typedef tpx_type_of() does not know:
 * one name, then an operand (a name, a number, a parenthesis), as in
 * "(loff_t)REC->index"; "(x) - 1" stays an expression.
 */
int tpx_typedef_cast(const char *s, const char *close)
{
	const char *after = close + 1;

	while (s < close && isspace((unsigned char)*s))
		s++;
	if (s == close || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	while (s < close && (isalnum((unsigned char)*s) || *s == '_'))
		s++;
	while (s < close && isspace((unsigned char)*s))
		s++;
	while (isspace((unsigned char)*after))
		after++;
	return s == close && (isalnum((unsigned char)*after) || *after == '_' || *after == '(');
}

/* ------------------------------------------------------------ operators */

static int unary_inner(struct parser *ps, struct tp_value *out);

static int unary(struct parser *ps, struct tp_value *out)
{
	int err;

	if (++ps->depth > MAX_DEPTH)
		return tpx_fail(ps, ENOTSUP, "expressions nested more than 200 deep");
	err = unary_inner(ps, out);
	ps->depth--;
	return err;
}

int tpx_unary_op(struct parser *ps, char op, struct tp_value *v)
{
	if (op == '!') {
		v->num = !tpx_is_true(v);
		v->is_string = v->uns = 0;
		return 0;
	}
	if (v->is_string)
		return tpx_fail(ps, ENOTSUP, "arithmetic on a string");
	v->num = op == '~' ? ~v->num : op == '-' ? (int64_t)(0 - (uint64_t)v->num) : v->num;
	return 0;
}

static int unary_inner(struct parser *ps, struct tp_value *out)
{
	int bytes, uns, known;

	tpx_skip_space(ps);
	if (tpx_accept(ps, "!") || tpx_accept(ps, "~") || tpx_accept(ps, "-") || tpx_accept(ps, "+")) {
		char op = ps->p[-1];

		if (unary(ps, out))
			return ps->err;
		return tpx_unary_op(ps, op, out);
	}
	if (tpx_cast(ps, &known, &bytes, &uns)) {
		if (unary(ps, out))
			return ps->err;
		if (known) /* a typedef this does not know leaves the value as it is */
			tpx_apply_cast(out, bytes, uns);
		return 0;
	}
	return primary(ps, out);
}

int tpx_cast(struct parser *ps, int *known, int *bytes, int *uns)
{
	const char *close = ps->p + 1;

	*known = *bytes = *uns = 0;
	if (ps->p >= ps->end || *ps->p != '(') /* else a parenthesized expression, or none */
		return 0;
	while (close < ps->end && *close != ')' && *close != '(')
		close++;
	if (close >= ps->end || *close != ')' ||
	    !((*known = tpx_type_of(ps->p + 1, (size_t)(close - ps->p - 1), bytes, uns)) ||
	      tpx_typedef_cast(ps->p + 1, close)))
		return 0;
	ps->p = close + 1;
	return 1;
}


const char *const tpx_levels[TPX_LEVELS][5] = {
	{ "*", "/", "%" }, { "+", "-" }, { "<<", ">>" }, { "<=", ">=", "<", ">" },
	{ "==", "!=" },    { "&" },      { "^" },        { "|" },
	{ "&&" },          { "||" },
};

int tpx_apply(struct parser *ps, const char *op, struct tp_value *l, const struct tp_value *r)
{
	uint64_t a = (uint64_t)l->num, b = (uint64_t)r->num;
	int uns = l->uns || r->uns;

	if (!strcmp(op, "&&") || !strcmp(op, "||")) {
		l->num = !strcmp(op, "&&") ? tpx_is_true(l) && tpx_is_true(r) : tpx_is_true(l) || tpx_is_true(r);
		l->is_string = l->uns = 0;
		return 0;
	}
	if (l->is_string || r->is_string)
		return tpx_fail(ps, ENOTSUP, "arithmetic on a string");
	if (ps->dead) { /* not evaluated: any value does, and none may trap */
		l->num = 0;
		l->uns = uns;
		return 0;
	}
	if ((*op == '/' || *op == '%') && !b)
		return tpx_fail(ps, EDOM, "a division by zero");
	if ((*op == '/' || *op == '%') && !uns && r->num == -1) { /* INT64_MIN / -1 wraps, not traps */
		l->num = *op == '/' ? (int64_t)(0 - a) : 0;
		l->uns = 0;
		return 0;
	}
	switch (op[0] | op[1] << 8) {
	case '*': a *= b; break;
	case '/': a = uns ? a / b : (uint64_t)(l->num / r->num); break;
	case '%': a = uns ? a % b : (uint64_t)(l->num % r->num); break;
	case '+': a += b; break;
	case '-': a -= b; break;
	case '<' | '<' << 8: a = b < 64 ? a << b : 0; break;
	case '>' | '>' << 8: a = b >= 64 ? 0 : uns ? a >> b : (uint64_t)(l->num >> b); break;
	case '<': a = uns ? a < b : l->num < r->num; uns = 0; break;
	case '>': a = uns ? a > b : l->num > r->num; uns = 0; break;
	case '<' | '=' << 8: a = uns ? a <= b : l->num <= r->num; uns = 0; break;
	case '>' | '=' << 8: a = uns ? a >= b : l->num >= r->num; uns = 0; break;
	case '=' | '=' << 8: a = a == b; uns = 0; break;
	case '!' | '=' << 8: a = a != b; uns = 0; break;
	case '&': a &= b; break;
	case '^': a ^= b; break;
	case '|': a |= b; break;
	}
	l->num = (int64_t)a;
	l->uns = uns;
	return 0;
}

static int binary(struct parser *ps, int level, struct tp_value *out)
{
	if (level < 0)
		return unary(ps, out);
	if (binary(ps, level - 1, out))
		return ps->err;
	for (;;) {
		const char *op = NULL;
		struct tp_value r;
		int skip, err;

		for (int i = 0; i < 5 && tpx_levels[level][i] && !op; i++)
			if (tpx_accept(ps, tpx_levels[level][i]))
				op = tpx_levels[level][i];
		if (!op)
			return 0;
		/* && and || leave their right side unevaluated once the left decides */
		skip = (!strcmp(op, "&&") && !tpx_is_true(out)) || (!strcmp(op, "||") && tpx_is_true(out));
		ps->dead += skip;
		err = binary(ps, level - 1, &r);
		ps->dead -= skip;
		if (err || tpx_apply(ps, op, out, &r))
			return ps->err;
	}
}

static int conditional(struct parser *ps, struct tp_value *out)
{
	struct tp_value yes, no;
	int taken, err;

	if (binary(ps, TPX_LEVELS - 1, out))
		return ps->err;
	if (!tpx_accept(ps, "?"))
		return 0;
	/* both branches are parsed (the cursor must pass them); one is evaluated */
	taken = tpx_is_true(out);
	ps->dead += !taken;
	err = conditional(ps, &yes);
	ps->dead += 2 * taken - 1; /* now dead for the other branch */
	err = err || tpx_expect(ps, ":") || conditional(ps, &no);
	ps->dead -= taken;
	if (err)
		return ps->err;
	*out = taken ? yes : no;
	return 0;
}

const char *peo_tp_arg_end(const char *p, const char *e)
{
	const char *start = p;
	int depth = 0, quote = 0;

	for (; p < e; p++) {
		if (*p == '"' && (p == start || p[-1] != '\\'))
			quote = !quote;
		if (quote)
			continue;
		if (*p == '\'' && p + 2 < e) { /* a character: ',' or '(' inside is no separator */
			p += p[1] == '\\' && p + 3 < e ? 3 : 2;
			continue;
		}
		depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if (*p == ',' && !depth)
			break;
	}
	return p;
}

const struct peo_tp_field *peo_tp_arg_field(const struct peo_tp_format *f, const char *s,
					    const char *e)
{
	const char *name;
	size_t n;
	char buf[128];

	while (s < e && isspace((unsigned char)*s))
		s++;
	if (e - s <= 5 || memcmp(s, "REC->", 5) || !(n = tpx_lone_name(s + 5, e, &name)) ||
	    name != s + 5)
		return NULL;
	snprintf(buf, sizeof(buf), "%.*s", (int)n, name);
	return peo_tp_format_find(f, buf);
}

int peo_tp_expr_eval(const struct peo_tp_format *f, const struct peo_record *rec, const void *raw,
		     size_t raw_size, const char *s, const char *e, char *scratch,
		     size_t scratch_cap, struct tp_value *out)
{
	struct parser ps = { f, rec, raw, raw_size, s, e, scratch, scratch_cap, 0, 0, 0, 0 };

	if (!scratch_cap)
		return peo_fail(EINVAL, "print fmt: no scratch space");
	scratch[0] = '\0';
	if (conditional(&ps, out))
		return ps.err;
	tpx_skip_space(&ps);
	if (ps.p != ps.end)
		return tpx_fail(&ps, ENOTSUP, "text after the expression");
	return 0;
}
