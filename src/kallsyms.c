/*
 * kallsyms.c - kallsyms files, line by line (peo_kallsyms_read(): the one
 * reader, used by the symbolizer's kernel tables too), and the running
 * kernel's symbols for the %pS and %ps conversions of tracepoint print
 * fmts (perf resolves them the same way, from the machine reading the
 * file): loaded once per process, on first use, sorted by address.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* "ADDR TYPE NAME" and an optional "\t[MODULE]": cut @s in place into @l. */
static int parse_line(char *s, size_t len, struct peo_kallsyms_line *l)
{
	char *p = s, *end = s + len, *name;
	uint64_t addr = 0;
	int digits = 0;

	for (; p < end && digits <= 16; p++, digits++) {
		unsigned c = (unsigned char)*p, v;

		if (c - '0' < 10)
			v = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			v = (c | 0x20) - 'a' + 10;
		else
			break;
		addr = addr << 4 | v;
	}
	if (!digits || digits > 16 || end - p < 4 || p[0] != ' ' || p[1] <= ' ' || p[1] > '~' ||
	    p[2] != ' ')
		return -1;
	l->addr = addr;
	l->type = p[1];
	name = p += 3;
	while (p < end && *p > ' ')
		p++;
	if (p == name)
		return -1;
	l->module = NULL;
	if (p < end) { /* "\t[module]", the rest of the line */
		if (*p != '\t' || end - p < 4 || p[1] != '[' || end[-1] != ']')
			return -1;
		*p = '\0';
		end[-1] = '\0';
		l->module = p + 2;
		for (p = p + 2; p < end - 1; p++)
			if (*p <= ' ' || *p == ']')
				return -1;
	}
	*end = '\0';
	l->name = name;
	return 0;
}

int peo_kallsyms_read(const char *path, peo_kallsyms_fn fn, void *arg)
{
	FILE *in = fopen(path, "re");
	char *line = NULL, *vbuf;
	size_t cap = 0;
	ssize_t len;
	int err = 0;
	struct peo_kallsyms_line l = { 0 };

	if (!in)
		return peo_fail(errno, "cannot open %s: %s", path, strerror(errno));
	vbuf = malloc(1 << 18);
	if (vbuf) /* stdio's small buffer makes thousands of slow reads of /proc/kallsyms */
		setvbuf(in, vbuf, _IOFBF, 1 << 18);
	while ((len = getline(&line, &cap, in)) > 0) {
		l.lineno++;
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (parse_line(line, (size_t)len, &l)) {
			err = peo_fail(EINVAL, "%s:%lu: not a kallsyms line (ADDRESS TYPE NAME, "
				       "and a tab and [MODULE] for a module's): \"%.60s\"",
				       path, l.lineno, line);
			break;
		}
		if ((err = fn(&l, arg)))
			break;
	}
	if (!err && ferror(in))
		err = peo_fail(EIO, "cannot read %s: %s", path, strerror(errno));
	fclose(in);
	free(vbuf);
	free(line);
	return err;
}

/* The %pS table: every symbol with an address, of any type. */
struct ksym {
	uint64_t addr;
	uint32_t name; /* offset into names */
};

static struct {
	struct ksym *syms;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
} table;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int add(const struct peo_kallsyms_line *l, void *arg)
{
	size_t len = strlen(l->name) + 1;

	(void)arg;
	if (!l->addr) /* a hidden address */
		return 0;
	if (table.n == table.cap) {
		size_t cap = table.cap ? 2 * table.cap : 4096;
		struct ksym *more = realloc(table.syms, cap * sizeof(*more));

		if (!more)
			return -ENOMEM;
		table.syms = more;
		table.cap = cap;
	}
	if (table.names_len + len > table.names_cap) {
		size_t cap = 2 * table.names_cap + len + 65536;
		char *more = cap > UINT32_MAX ? NULL : realloc(table.names, cap);

		if (!more)
			return -ENOMEM;
		table.names = more;
		table.names_cap = cap;
	}
	memcpy(table.names + table.names_len, l->name, len);
	table.syms[table.n].addr = l->addr;
	table.syms[table.n++].name = (uint32_t)table.names_len;
	table.names_len += len;
	return 0;
}

/* Read the table; a failure keeps what was read (lookups find less), and
 * leaves the caller's error sentence alone. */
static void load(void)
{
	peo_error_quiet(1);
	peo_kallsyms_read("/proc/kallsyms", add, NULL);
	peo_error_quiet(0);
	qsort(table.syms, table.n, sizeof(*table.syms), by_addr);
}

int peo_kallsyms_find(uint64_t addr, const char **name, uint64_t *offset)
{
	size_t lo = 0, hi;

	pthread_once(&table_once, load);
	hi = table.n;
	if (!hi || addr < table.syms[0].addr)
		return 0;
	while (hi - lo > 1) { /* the last symbol at or below addr */
		size_t mid = lo + (hi - lo) / 2;

		if (table.syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*name = table.names + table.syms[lo].name;
	*offset = addr - table.syms[lo].addr;
	return 1;
}
