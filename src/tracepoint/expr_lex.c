/*
 * expr_lex.c - the tokens of a print fmt argument as the parser
 * (expr_parse.c) reads them: punctuation, names, string, character and
 * number literals, casts and the types they name, fields by name.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracepoint/expr_tree.h"

int tpx_fail(struct tpx_lexer *lx, int err, const char *what)
{
	if (!lx->err) {
		lx->err = -err;
		snprintf(lx->why, sizeof(lx->why), "print fmt: %s at '%.40s'", what, lx->p);
	}
	return -1;
}

void tpx_skip_space(struct tpx_lexer *lx)
{
	while (lx->p < lx->end && isspace((unsigned char)*lx->p))
		lx->p++;
}

int tpx_accept(struct tpx_lexer *lx, const char *tok)
{
	size_t n = strlen(tok);

	tpx_skip_space(lx);
	if ((size_t)(lx->end - lx->p) < n || memcmp(lx->p, tok, n))
		return 0;
	/* "<" is not "<<" nor "<=", "&" is not "&&", "|" is not "||"... */
	if (n == 1 && lx->p + 1 < lx->end && strchr("<>&|=", *tok) &&
	    (lx->p[1] == *tok || lx->p[1] == '='))
		return 0;
	if (n == 1 && strchr("!=", *tok) && lx->p + 1 < lx->end && lx->p[1] == '=')
		return 0;
	lx->p += n;
	return 1;
}

int tpx_expect(struct tpx_lexer *lx, const char *tok)
{
	char what[32];

	if (tpx_accept(lx, tok))
		return 0;
	snprintf(what, sizeof(what), "'%s' expected", tok);
	return tpx_fail(lx, ENOTSUP, what);
}

size_t tpx_ident_len(struct tpx_lexer *lx)
{
	size_t n = 0;

	tpx_skip_space(lx);
	while (lx->p + n < lx->end && (isalnum((unsigned char)lx->p[n]) || lx->p[n] == '_'))
		n++;
	return n && !isdigit((unsigned char)lx->p[0]) ? n : 0;
}

int tpx_ident_is(struct tpx_lexer *lx, const char *name)
{
	size_t n = tpx_ident_len(lx);

	return n == strlen(name) && !memcmp(lx->p, name, n);
}

int tpx_string_literal(struct tpx_lexer *lx, char **out, size_t *len)
{
	const char *start = ++lx->p;
	char *dst;
	size_t n = 0;

	while (lx->p < lx->end && *lx->p != '"')
		lx->p += *lx->p == '\\' && lx->p + 1 < lx->end ? 2 : 1;
	if (lx->p >= lx->end)
		return tpx_fail(lx, ENOTSUP, "a string without its closing quote");
	if (!(dst = malloc((size_t)(lx->p - start) + 1)))
		return tpx_fail(lx, ENOMEM, "out of memory for a string");
	for (const char *s = start; s < lx->p; s++) {
		char c = *s;

		if (c == '\\' && s + 1 < lx->p) {
			c = *++s;
			c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
		}
		dst[n++] = c;
	}
	dst[n] = '\0';
	lx->p++;
	*out = dst;
	*len = n;
	return 0;
}

int tpx_char_literal(struct tpx_lexer *lx, struct tp_value *out)
{
	const char *p = lx->p + 1;
	char c;

	if (p < lx->end && *p == '\\' && p + 1 < lx->end) { /* the escapes formats use */
		p++;
		c = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p == '0' ? '\0' : *p;
	} else if (p < lx->end) {
		c = *p;
	} else {
		return tpx_fail(lx, ENOTSUP, "a character without its closing quote");
	}
	if (++p >= lx->end || *p != '\'')
		return tpx_fail(lx, ENOTSUP, "a character without its closing quote");
	lx->p = p + 1;
	out->num = c; /* an int, as C's 'c' */
	return 0;
}

int tpx_number_literal(struct tpx_lexer *lx, struct tp_value *out)
{
	char *end;
	uint64_t v = strtoull(lx->p, &end, 0);

	if (end == lx->p || end > lx->end)
		return tpx_fail(lx, ENOTSUP, "a number expected");
	lx->p = end;
	out->num = (int64_t)v;
	out->uns = v > INT64_MAX;
	while (lx->p < lx->end && strchr("uUlL", *lx->p)) { /* suffixes */
		out->uns |= *lx->p == 'u' || *lx->p == 'U';
		lx->p++;
	}
	return 0;
}

/* The bytes and signedness of a cast's type words; 0: not a type (then
 * the parenthesis is an expression's). */
static int type_of(const char *words, size_t len, int *bytes, int *uns)
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

/*
 * Whether "(@s..@close)" is a cast to a typedef type_of() does not know:
 * one name, then an operand (a name, a number, a parenthesis), as in
 * "(loff_t)REC->index"; "(x) - 1" stays an expression.
 */
static int typedef_cast(const char *s, const char *close)
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

int tpx_cast(struct tpx_lexer *lx, int *known, int *bytes, int *uns)
{
	const char *close = lx->p + 1;

	*known = *bytes = *uns = 0;
	if (lx->p >= lx->end || *lx->p != '(') /* else a parenthesized expression, or none */
		return 0;
	while (close < lx->end && *close != ')' && *close != '(')
		close++;
	if (close >= lx->end || *close != ')' ||
	    !((*known = type_of(lx->p + 1, (size_t)(close - lx->p - 1), bytes, uns)) ||
	      typedef_cast(lx->p + 1, close)))
		return 0;
	lx->p = close + 1;
	return 1;
}

const struct peo_tp_field *tpx_find_field(struct tpx_lexer *lx, const char *name, size_t n)
{
	char buf[128], what[192];
	const struct peo_tp_field *fld;

	snprintf(buf, sizeof(buf), "%.*s", (int)n, name);
	if ((fld = peo_tp_format_find(lx->f, buf)))
		return fld;
	snprintf(what, sizeof(what), "no field '%s' in the format", buf);
	tpx_fail(lx, ENOTSUP, what);
	return NULL;
}

/*
 * A table entry's key that is a name alone: perf's evaluator knows the
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
