/*
 * kernel_strings.c - the kernel's constant strings that tracepoints record by
 * address (a "const char *" field printed with %s: rcu's context names,
 * wbt's messages, __func__ names), from the printk formats list: lines
 * `0xADDRESS : "text"`, saved in the recording's TRACING_DATA and found in
 * tracefs' printk_formats on this machine.  Sorted by address for lookup.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tracepoint/kernel_strings.h"

struct tp_string {
	uint64_t addr;
	const char *text; /* in the table's own copy of the list, NUL-terminated */
};

struct tp_strings {
	char *copy;
	struct tp_string *v;
	size_t n;
};

static int by_addr(const void *a, const void *b)
{
	uint64_t x = ((const struct tp_string *)a)->addr, y = ((const struct tp_string *)b)->addr;

	return x < y ? -1 : x > y;
}

int peo_tp_strings_parse(struct tp_strings **out, const char *text, size_t len)
{
	struct tp_strings *s = calloc(1, sizeof(*s));
	size_t lines = 1;
	char *line, *next;

	*out = NULL;
	if (!s || !(s->copy = malloc(len + 1))) {
		free(s);
		return peo_fail(ENOMEM, "out of memory for the printk formats");
	}
	memcpy(s->copy, text, len);
	s->copy[len] = '\0';
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (!(s->v = calloc(lines, sizeof(*s->v)))) {
		peo_tp_strings_free(s);
		return peo_fail(ENOMEM, "out of memory for the printk formats");
	}
	for (line = s->copy; line; line = next) { /* a line not of the form is passed over */
		char *end, *sep, *q;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		sep = strstr(line, " : \"");
		q = sep ? strrchr(sep + 4, '"') : NULL;
		if (!q)
			continue;
		s->v[s->n].addr = strtoull(line, &end, 16);
		if (end == line)
			continue;
		if (q - (sep + 4) >= 2 && q[-2] == '\\' && q[-1] == 'n')
			q -= 2; /* a trailing "\n" escape: perf prints the string without it */
		*q = '\0';
		s->v[s->n++].text = sep + 4;
	}
	qsort(s->v, s->n, sizeof(*s->v), by_addr);
	*out = s;
	return 0;
}

const char *peo_tp_strings_find(const struct tp_strings *s, uint64_t addr)
{
	size_t lo = 0, hi = s ? s->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].addr == addr)
			return s->v[mid].text;
		if (s->v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void peo_tp_strings_free(struct tp_strings *s)
{
	if (!s)
		return;
	free(s->v);
	free(s->copy);
	free(s);
}
