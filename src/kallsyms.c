/*
 * kallsyms.c - kallsyms files, line by line (peo_kallsyms_read(): the one
 * reader, used by the symbolizer's kernel tables too), and the running
 * kernel's symbols for the %pS and %ps conversions of tracepoint print
 * fmts (perf resolves them the same way, from the machine reading the
 * file): loaded once per process, on first use, sorted by address.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* kallsyms' longest line (a 512-byte name, a 56-byte module name) fits
 * this many bytes: a longer one is no kallsyms line. */
#define LINE_MAX_BYTES 4096

/*
 * The line at @s, "ADDR TYPE NAME" and an optional "\t[MODULE]", then a
 * newline, or @end when it is the file's (@eof): cut in place into @l
 * (its strings NUL-terminated).  One pass, no search for the newline
 * first (a tenth of reading 120k lines).  Returns the next line's start,
 * or NULL when the line has another shape (or, not at @eof, no end).
 */
static char *parse_line(char *s, char *end, int eof, struct peo_kallsyms_line *l)
{
	char *p = s, *name;
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
		return NULL;
	l->addr = addr;
	l->type = p[1];
	name = p += 3;
	while (p < end && (unsigned char)*p > ' ')
		p++;
	if (p == name)
		return NULL;
	l->name = name;
	l->name_len = (size_t)(p - name);
	l->module = NULL;
	if (p < end && *p == '\t') { /* "\t[module]" */
		*p++ = '\0';
		if (end - p < 2 || *p++ != '[')
			return NULL;
		l->module = p;
		while (p < end && (unsigned char)*p > ' ' && *p != ']')
			p++;
		if (p == l->module || p == end || *p != ']')
			return NULL;
		*p++ = '\0';
	}
	if (p - s > LINE_MAX_BYTES)
		return NULL; /* as long wherever it is in the file */
	if (p < end && *p == '\n') {
		*p = '\0';
		return p + 1;
	}
	if (p < end || !eof)
		return NULL;
	*p = '\0'; /* the file's last line, without its newline: the buffer has room */
	return p;
}

/* Hand @fn each line of @buf[0..*len) that is whole (at least
 * LINE_MAX_BYTES before the end, or all of them at @eof); what is left
 * is moved to the front and *len becomes its length. */
static int parse_lines(const char *path, char *buf, size_t *len, int eof, peo_kallsyms_fn fn,
		       void *arg, struct peo_kallsyms_line *l)
{
	char *p = buf, *end = buf + *len, *next;
	int err = 0;

	while (p < end && !err && (eof || end - p > LINE_MAX_BYTES)) {
		l->lineno++;
		if ((next = parse_line(p, end, eof, l))) {
			err = fn(l, arg);
			p = next;
			continue;
		}
		next = memchr(p, '\n', (size_t)(end - p));
		if (next)
			*next = '\0';
		else
			*end = '\0';
		err = peo_fail(EINVAL, "%s:%lu: not a kallsyms line (ADDRESS TYPE NAME, and a tab and "
			       "[MODULE] for a module's): \"%.60s\"", path, l->lineno, p);
	}
	memmove(buf, p, (size_t)(end - p));
	*len = (size_t)(end - p);
	return err;
}

int peo_kallsyms_read(const char *path, peo_kallsyms_fn fn, void *arg)
{
	/* Read in large chunks and parsed in place: /proc/kallsyms costs the
	 * kernel less per read, and no line is copied (its 120k lines). */
	const size_t cap = 1 << 20;
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	struct peo_kallsyms_line l = { 0 };
	char *buf;

	if (fd < 0)
		return peo_fail(errno, "cannot open %s: %s", path, strerror(errno));
	if (!(buf = malloc(cap + 1))) {
		close(fd);
		return peo_fail(ENOMEM, "out of memory reading %s", path);
	}
	peo_prefault(buf, cap);
	for (;;) {
		ssize_t got = read(fd, buf + len, cap - len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = peo_fail(errno, "cannot read %s: %s", path, strerror(errno));
			break;
		}
		len += (size_t)got;
		if ((err = parse_lines(path, buf, &len, got == 0, fn, arg, &l)) || got == 0)
			break;
	}
	close(fd);
	free(buf);
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
