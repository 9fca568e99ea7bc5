/*
 * expr_eval.c - a print fmt argument's tree (expr_parse.c) evaluated over
 * one payload, as C evaluates the expression: integers 64 bits wide,
 * unsigned where C's operands would make them so, and the operands C
 * does not evaluate (the branch of ?: not taken, the right of && or ||
 * once the left decides) read without failing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tracepoint/expr_tree.h"

const char *const tpx_levels[TPX_LEVELS][5] = {
	{ "*", "/", "%" }, { "+", "-" }, { "<<", ">>" }, { "<=", ">=", "<", ">" },
	{ "==", "!=" },    { "&" },      { "^" },        { "|" },
	{ "&&" },          { "||" },
};

/* A failure (@err, the sentence naming @what at @at), kept in ev->err; returns it. */
static int fail(struct tpx_eval *ev, const char *at, int err, const char *what)
{
	if (!ev->err)
		ev->err = peo_fail(err, "print fmt: %s at '%.40s'", what, at);
	return ev->err;
}

static int is_true(const struct tp_value *v)
{
	return v->is_string ? 1 : v->num != 0;
}

/* The @len bytes written at the scratch space's free end become *@out, a
 * string (NUL-terminated there), and that space is taken. */
static void take_scratch(struct tpx_eval *ev, size_t len, struct tp_value *out)
{
	char *text = ev->scratch + ev->scratch_used;

	text[len] = '\0';
	out->is_string = 1;
	out->str = text;
	out->len = len;
	ev->scratch_used += len + 1;
}

/* Field @fld's bytes (a string's, a __data_loc's data, an array's
 * elements); none, in dead code, when past the payload. */
static int field_bytes(struct tpx_eval *ev, const struct peo_tp_field *fld, struct tp_value *out)
{
	const void *b;

	out->is_string = 1;
	if (peo_tp_field_bytes(fld, ev->rec, ev->raw, ev->raw_size, &b, &out->len)) {
		if (!ev->dead)
			return ev->err = -EPROTO;
		b = "", out->len = 0;
	}
	out->str = b;
	return 0;
}

/* Field @fld's value: its bytes for text, __data_loc (or @want_bytes),
 * else its integer (0, in dead code, when past the payload). */
static int field(struct tpx_eval *ev, const struct peo_tp_field *fld, int want_bytes,
		 struct tp_value *out)
{
	if (want_bytes || fld->data_loc || fld->is_text)
		return field_bytes(ev, fld, out);
	if (peo_tp_field_int(fld, ev->rec, ev->raw, ev->raw_size, 0, &out->num)) {
		if (!ev->dead)
			return ev->err = -EPROTO;
		out->num = 0;
	}
	out->uns = !fld->is_signed;
	return 0;
}

/* Element @index of array field @fld (none read in dead code; one past
 * the array a failure only when live). */
static int element(struct tpx_eval *ev, const struct tpx_node *n, const struct tp_value *index,
		   struct tp_value *out)
{
	const struct peo_tp_field *fld = n->fld;

	if (index->is_string || index->num < 0 || (uint64_t)index->num >= fld->array_len) {
		char what[192];

		if (ev->dead)
			return 0;
		snprintf(what, sizeof(what), "subscript %lld past the %u elements of '%s'",
			 (long long)index->num, fld->array_len, fld->name);
		return fail(ev, n->at, ENOTSUP, what);
	}
	if (ev->dead) /* not evaluated: its field is not read */
		return 0;
	if ((ev->err = peo_tp_field_int(fld, ev->rec, ev->raw, ev->raw_size, (size_t)index->num,
					&out->num)))
		return ev->err;
	out->uns = !fld->is_signed;
	return 0;
}

static void apply_cast(struct tp_value *v, int bytes, int uns)
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

/* Unary operator @op ('!', '~', '-', '+') of node @n on *@v. */
static int unary_op(struct tpx_eval *ev, const struct tpx_node *n, struct tp_value *v)
{
	if (n->op == '!') {
		v->num = !is_true(v);
		v->is_string = v->uns = 0;
		return 0;
	}
	if (v->is_string)
		return fail(ev, n->at, ENOTSUP, "arithmetic on a string");
	v->num = n->op == '~' ? ~v->num : n->op == '-' ? (int64_t)(0 - (uint64_t)v->num) : v->num;
	return 0;
}

/* Binary operator @op (one of tpx_levels') on *@l and *@r, into *@l; a
 * failure told at @at. */
static int apply(struct tpx_eval *ev, const char *op, const char *at, struct tp_value *l,
		 const struct tp_value *r)
{
	uint64_t a = (uint64_t)l->num, b = (uint64_t)r->num;
	int uns = l->uns || r->uns;

	if ((op[0] == '&' || op[0] == '|') && op[1] == op[0]) {
		l->num = op[0] == '&' ? is_true(l) && is_true(r) : is_true(l) || is_true(r);
		l->is_string = l->uns = 0;
		return 0;
	}
	if (l->is_string || r->is_string)
		return fail(ev, at, ENOTSUP, "arithmetic on a string");
	if (ev->dead) { /* not evaluated: any value does, and none may trap */
		l->num = 0;
		l->uns = uns;
		return 0;
	}
	if ((*op == '/' || *op == '%') && !b)
		return fail(ev, at, EDOM, "a division by zero");
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

/* a op b op c...: left to right, && and || leaving their right side
 * unevaluated once the left decides. */
static int chain(struct tpx_eval *ev, const struct tpx_node *n, struct tp_value *out)
{
	if (tpx_eval_node(ev, n->a, out))
		return ev->err;
	for (size_t k = n->first; k < n->first + n->n; k++) {
		const struct tpx_link *l = &ev->x->links[k];
		int skip = l->op[1] == l->op[0] && ((l->op[0] == '&' && !is_true(out)) ||
						    (l->op[0] == '|' && is_true(out)));
		struct tp_value r;
		int err;

		ev->dead += skip;
		err = tpx_eval_node(ev, l->operand, &r);
		ev->dead -= skip;
		if (err || apply(ev, l->op, l->at, out, &r))
			return ev->err;
	}
	return 0;
}

/*
 * __print_hex() ('h': bytes in hex joined by spaces), __print_hex_str()
 * ('s': run together) and __print_array() ('a': elements of 1, 2, 4 or 8
 * bytes, in the payload's byte order, in unsigned decimal joined by
 * spaces), as perf prints them.  What lies past the buffer's bytes is
 * not read, whatever the count says.
 */
static int print_bytes(struct tpx_eval *ev, const struct tpx_node *n, struct tp_value *out)
{
	struct tp_value buf = { 0 }, count = { 0 }, size = { .num = 1 };
	const unsigned char *b;
	size_t k, len = 0, room;
	int swap = ev->rec && ev->rec->swapped;
	char *text;

	if (tpx_eval_node(ev, n->a, &buf))
		return ev->err;
	if (!buf.is_string)
		return fail(ev, n->at, ENOTSUP, "a hex or array print of no bytes");
	if (tpx_eval_node(ev, n->b, &count) || (n->c >= 0 && tpx_eval_node(ev, n->c, &size)))
		return ev->err;
	if (count.is_string || size.is_string || (size.num != 1 && size.num != 2 && size.num != 4 &&
						    size.num != 8))
		return fail(ev, n->at_end, ENOTSUP, "a hex or array print's count or element size");
	room = ev->scratch_cap - ev->scratch_used;
	text = ev->scratch + ev->scratch_used;
	b = (const unsigned char *)buf.str;
	k = count.num < 0 ? 0 : (uint64_t)count.num; /* elements (bytes for hex) */
	if (k > buf.len / (size_t)size.num)
		k = buf.len / (size_t)size.num;
	for (size_t i = 0; i < k && len + 24 < room; i++) {
		uint64_t v = 0;

		if (n->op != 'a') {
			len += (size_t)snprintf(text + len, room - len, n->op == 'h' && i ? " %02x" : "%02x",
						b[i]);
			continue;
		}
		switch (size.num) { /* the element in the payload's byte order */
		case 1: v = b[i]; break;
		case 2: v = peo_load_u16(b + 2 * i, swap); break;
		case 4: v = peo_load_u32(b + 4 * i, swap); break;
		default: v = peo_load_u64(b + 8 * i, swap); break;
		}
		len += (size_t)snprintf(text + len, room - len, i ? " %llu" : "%llu",
					(unsigned long long)v);
	}
	if (len + 24 >= room && k)
		return fail(ev, n->at_end, ENOSPC, "a hex or array print longer than the scratch space");
	take_scratch(ev, len, out);
	return 0;
}

/*
 * __get_bitmask(field) and __get_cpumask(field), as the kernel's own trace
 * prints them ("%*pb"): the bitmap's bits in hex, 32 to a group, the
 * highest group first, groups joined by commas, each zero-padded to its
 * width (perf 6.1 has no such helper).  The bitmap is the field's
 * unsigned longs, 8 bytes each unless its size says 4.
 */
static int print_bitmask(struct tpx_eval *ev, const struct tpx_node *n, struct tp_value *out)
{
	struct tp_value buf = { 0 };
	const unsigned char *b;
	size_t len = 0, room = ev->scratch_cap - ev->scratch_used, word;
	char *text = ev->scratch + ev->scratch_used;
	int swap = ev->rec && ev->rec->swapped; /* no record: host order */
	uint64_t bits;

	if (field_bytes(ev, n->fld, &buf))
		return ev->err;
	b = (const unsigned char *)buf.str;
	word = buf.len % 8 ? 4 : 8;
	bits = (uint64_t)(buf.len / word * word) * 8; /* whole words: a multiple of 32 */
	if (bits / 32 * 9 + 9 >= room)
		return fail(ev, n->at, ENOSPC, "a bitmask longer than the scratch space");
	for (uint64_t at = bits; at >= 32; at -= 32) {
		uint64_t bit = at - 32, w = bit / (word * 8), group;

		group = word == 8 ? peo_load_u64(b + 8 * w, swap) >> (bit % 64)
				  : peo_load_u32(b + 4 * w, swap);
		len += (size_t)snprintf(text + len, room - len, "%s%08llx", len ? "," : "",
					(unsigned long long)(uint32_t)group);
	}
	take_scratch(ev, len, out);
	return 0;
}

/*
 * __print_flags(value, "delim", { mask, "name" }, ...) and
 * __print_symbolic(value, { value, "name" }, ...).  Flags: each whole mask
 * set in the value, in table order, joined by the delimiter, what is left
 * over in hex; a zero value prints nothing, as the kernel and perf print
 * it.  Symbolic: the first equal value's name, else the value in hex.  An
 * entry whose key cannot be evaluated is passed over; a name alone that
 * the format does not define (an enum constant) is no value: its entry
 * never matches (perf prints the first such flag's name for a zero value;
 * the kernel, knowing the value, nothing, and so does this).
 */
static int print_table(struct tpx_eval *ev, const struct tpx_node *n, struct tp_value *out)
{
	struct tp_value v = { 0 }, delim = { 0 };
	int flags = n->op == 'f', printed = 0, matched = 0;
	uint64_t left;
	char text[512];
	size_t len = 0;

	if (tpx_eval_node(ev, n->a, &v))
		return ev->err;
	if (v.is_string)
		return fail(ev, n->at, ENOTSUP, "a table's value is a string");
	if (flags && tpx_eval_node(ev, n->b, &delim))
		return ev->err;
	if (flags && !delim.is_string)
		return fail(ev, n->at_delim, ENOTSUP, "__print_flags' delimiter is not a string");
	left = (uint64_t)v.num;
	for (size_t k = n->first; k < n->first + n->n; k++) {
		const struct tpx_entry *e = &ev->x->entries[k];
		struct tp_value key = { .num = e->value }, name;
		size_t mark = ev->scratch_used;
		int known = !e->unparsed, take;

		if (e->key >= 0) {
			known = !tpx_eval_node(ev, e->key, &key) && !key.is_string;
			ev->err = 0; /* one that fails is passed over */
		}
		if (tpx_eval_node(ev, e->name, &name))
			return ev->err;
		if (!name.is_string && name.num) /* a NULL name ends the table */
			return fail(ev, e->at, ENOTSUP, "a table entry's name is not a string");
		ev->scratch_used = mark; /* the name is copied: its space is free */
		if (!known || !name.is_string || matched)
			continue;
		take = !e->unknown && (flags ? key.num && (left & (uint64_t)key.num) == (uint64_t)key.num
					     : key.num == v.num);
		if (take && flags && printed)
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%.*s", (int)delim.len,
						delim.str);
		if (take && len < sizeof(text))
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%.*s", (int)name.len,
						name.str);
		if (len >= sizeof(text))
			len = sizeof(text) - 1;
		matched = take && !flags;
		printed |= take;
		if (take && flags)
			left &= ~(uint64_t)key.num;
	}
	if (!matched && (!flags || left) && len < sizeof(text))
		/* what no entry names, in hex (after the delimiter when flags came before) */
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%.*s0x%" PRIx64,
					flags && printed ? (int)delim.len : 0, flags ? delim.str : "",
					flags ? left : (uint64_t)v.num);
	if (len >= sizeof(text))
		len = sizeof(text) - 1;
	if (ev->scratch_used + len + 1 > ev->scratch_cap)
		return fail(ev, n->at_end, ENOSPC, "a table's text longer than the scratch space");
	memcpy(ev->scratch + ev->scratch_used, text, len);
	take_scratch(ev, len, out);
	return 0;
}

int tpx_eval_node(struct tpx_eval *ev, int i, struct tp_value *out)
{
	const struct tpx_node *n = &ev->x->nodes[i];
	struct tp_value r;
	int taken, err;

	memset(out, 0, sizeof(*out));
	switch (n->kind) {
	case TPX_VALUE:
		*out = n->v;
		return 0;
	case TPX_FIELD:
		if (field(ev, n->fld, n->bytes_wanted, out))
			return ev->err;
		if (n->count) { /* the bytes' count */
			out->num = (int64_t)out->len;
			out->is_string = 0;
			out->uns = 1;
		}
		return 0;
	case TPX_ELEMENT:
		if (tpx_eval_node(ev, n->a, &r))
			return ev->err;
		return element(ev, n, &r, out);
	case TPX_UNARY:
		if (tpx_eval_node(ev, n->a, out))
			return ev->err;
		return unary_op(ev, n, out);
	case TPX_CAST:
		if (tpx_eval_node(ev, n->a, out))
			return ev->err;
		if (n->known) /* a typedef peo does not know leaves the value as it is */
			apply_cast(out, n->bytes, n->uns);
		return 0;
	case TPX_CHAIN:
		return chain(ev, n, out);
	case TPX_COND: /* both branches evaluated, the one not taken as dead */
		if (tpx_eval_node(ev, n->a, out))
			return ev->err;
		taken = is_true(out);
		ev->dead += !taken;
		err = tpx_eval_node(ev, n->b, out);
		if (!err) {
			ev->dead += 2 * taken - 1;
			err = tpx_eval_node(ev, n->c, taken ? &r : out);
			ev->dead -= taken;
		}
		return err ? ev->err : 0;
	case TPX_EXPECT:
		return tpx_eval_node(ev, n->a, out) || tpx_eval_node(ev, n->b, &r) ? ev->err : 0;
	case TPX_TABLE:
		return print_table(ev, n, out);
	case TPX_BYTES:
		return print_bytes(ev, n, out);
	case TPX_BITMASK:
		return print_bitmask(ev, n, out);
	}
	return fail(ev, n->at, ENOTSUP, "a node peo does not know");
}

int peo_tp_expr_eval(const struct tp_expr *x, const struct peo_tp_format *f,
		     const struct peo_record *rec, const void *raw, size_t raw_size, char *scratch,
		     size_t scratch_cap, struct tp_value *out)
{
	struct tpx_eval ev = { .x = x, .f = f, .rec = rec, .raw = raw, .raw_size = raw_size,
			       .scratch = scratch, .scratch_cap = scratch_cap };

	if (!scratch_cap)
		return peo_fail(EINVAL, "print fmt: no scratch space");
	scratch[0] = '\0';
	if (x->err)
		return peo_fail(-x->err, "%s", x->why);
	return tpx_eval_node(&ev, x->root, out) ? ev.err : 0;
}
