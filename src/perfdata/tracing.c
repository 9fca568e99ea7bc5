/*
 * tracing.c - the TRACING_DATA feature: the tracefs format files
 * perf saved with the recording, so tracepoint payloads are read with the
 * formats of the machine that wrote them.
 *
 * Layout: "\x17\x08Dtracing" VERSION "\0", an endianness byte (1: big), the
 * size of a long, u32 page size; "header_page\0" u64 size + text;
 * "header_event\0" u64 size + text; u32 ftrace formats, each u64 size +
 * text; u32 systems, each "name\0" u32 count, each u64 size + format text;
 * then u32-sized kallsyms (passed over) and printk formats (the kernel
 * strings a format's %s of a pointer names).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/reader.h"
#include "tracepoint/format.h"

struct tcur {
	const unsigned char *p;
	size_t n, at;
	int big;
	int err;
};

static int tfail(struct tcur *c, const char *what)
{
	if (!c->err)
		c->err = peo_fail(EPROTO, "perf.data: TRACING_DATA: %s at section byte %zu runs past "
				  "its %zu bytes", what, c->at, c->n);
	return c->err;
}

static uint64_t tnum(struct tcur *c, size_t size, const char *what)
{
	uint64_t v = 0;

	if (c->err || c->n - c->at < size)
		return tfail(c, what), 0;
	for (size_t i = 0; i < size; i++)
		v |= (uint64_t)c->p[c->at + (c->big ? size - 1 - i : i)] << (8 * i);
	c->at += size;
	return v;
}

/* A NUL-terminated string at the cursor. */
static const char *tstr(struct tcur *c, const char *what)
{
	const char *s = (const char *)c->p + c->at;
	const unsigned char *nul = c->err ? NULL : memchr(c->p + c->at, '\0', c->n - c->at);

	if (!nul)
		return tfail(c, what), "";
	c->at = (size_t)(nul - c->p) + 1;
	return s;
}

/* Skip @size bytes of text, returning where they start. */
static const char *tskip(struct tcur *c, uint64_t size, const char *what)
{
	const char *s = (const char *)c->p + c->at;

	if (c->err || size > c->n - c->at)
		return tfail(c, what), NULL;
	c->at += (size_t)size;
	return s;
}

/* Does format text @t (@n bytes) say "name: @name"? */
static int names(const char *t, size_t n, const char *name)
{
	size_t len = strlen(name);

	return n > 6 + len && !strncmp(t, "name: ", 6) && !strncmp(t + 6, name, len) &&
	       (t[6 + len] == '\n' || t[6 + len] == '\r');
}

/*
 * After the systems: kallsyms (u32 size + text), passed over, then the
 * printk formats (u32 size + text), the kernel strings @fmt's %s of a
 * pointer names.  Older files end before them: then there are none.
 */
static void attach_strings(struct tcur *c, struct peo_tp_format *fmt)
{
	struct tp_strings *strings;
	const char *text;
	uint32_t size;

	peo_error_quiet(1); /* a file that ends early loses only the strings */
	tskip(c, tnum(c, 4, "kallsyms' size"), "kallsyms");
	size = (uint32_t)tnum(c, 4, "the printk formats' size");
	text = tskip(c, size, "the printk formats");
	if (!c->err && text && size && !peo_tp_strings_parse(&strings, text, size))
		peo_tp_format_set_strings(fmt, strings);
	peo_error_quiet(0);
}

int peo_perfdata_tp_format(struct peo_perfdata *f, const char *sys, const char *name,
			   struct peo_tp_format **out)
{
	struct tcur c = { 0 };
	const void *b;
	const char *found = NULL;
	char *copy;
	size_t n, found_size = 0;
	uint32_t count;
	int err;

	if (!f || !sys || !name || !out)
		return peo_fail(EINVAL, "peo_perfdata_tp_format: a NULL argument");
	*out = NULL;
	err = peo_perfdata_feature(f, PEO_FEAT_TRACING_DATA, &b, &n);
	if (err)
		return err;
	c.p = b;
	c.n = n;
	if (n < 16 || memcmp(b, "\x17\x08" "Dtracing", 10))
		return peo_fail(EPROTO, "perf.data: TRACING_DATA does not start with its magic");
	c.at = 10;
	tstr(&c, "the version");
	c.big = (int)tnum(&c, 1, "the endianness");
	tnum(&c, 1, "the size of a long");
	tnum(&c, 4, "the page size");
	if (strcmp(tstr(&c, "header_page"), "header_page") && !c.err)
		return peo_fail(EPROTO, "perf.data: TRACING_DATA has no header_page");
	tskip(&c, tnum(&c, 8, "header_page's size"), "header_page");
	if (strcmp(tstr(&c, "header_event"), "header_event") && !c.err)
		return peo_fail(EPROTO, "perf.data: TRACING_DATA has no header_event");
	tskip(&c, tnum(&c, 8, "header_event's size"), "header_event");
	count = (uint32_t)tnum(&c, 4, "the ftrace format count");
	for (uint32_t i = 0; i < count && !c.err; i++)
		tskip(&c, tnum(&c, 8, "an ftrace format's size"), "an ftrace format");
	count = (uint32_t)tnum(&c, 4, "the system count");
	for (uint32_t i = 0; i < count && !c.err; i++) {
		const char *system = tstr(&c, "a system name");
		uint32_t events = (uint32_t)tnum(&c, 4, "an event count");

		for (uint32_t e = 0; e < events && !c.err; e++) {
			uint64_t size = tnum(&c, 8, "a format's size");
			const char *text = tskip(&c, size, "a format");

			if (text && !found && !strcmp(system, sys) && names(text, (size_t)size, name)) {
				found = text;
				found_size = (size_t)size;
				peo_error_quiet(1); /* what is malformed after it is not its error */
			}
		}
	}
	if (!found)
		return c.err ? c.err : peo_fail(ENOENT, "perf.data: TRACING_DATA has no format for "
						"%s:%s", sys, name);
	peo_error_quiet(0);
	/* a section malformed after the format loses only the strings that follow it */
	copy = malloc(found_size + 1);
	if (!copy)
		return peo_fail(ENOMEM, "out of memory for a tracepoint format");
	memcpy(copy, found, found_size);
	copy[found_size] = '\0';
	err = peo_tp_format_parse(out, copy);
	free(copy);
	if (!err)
		attach_strings(&c, *out); /* nothing after a malformed list (c.err) */
	return err;
}
