/*
 * kallsyms.c - the running kernel's symbols from /proc/kallsyms, for the
 * %pS and %ps conversions of tracepoint print fmts (perf resolves them the
 * same way, from the machine reading the file).  Loaded once per process,
 * on first use, sorted by address.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct ksym {
	uint64_t addr;
	uint32_t name; /* offset into names */
};

static struct {
	struct ksym *syms;
	size_t n;
	char *names;
} table;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Read the table; on any failure it stays empty and lookups find nothing. */
static void load(void)
{
	FILE *in = fopen("/proc/kallsyms", "re");
	size_t cap = 0, names_cap = 0, names_len = 0;
	char *vbuf;
	char line[512];

	if (!in)
		return;
	vbuf = malloc(1 << 18);
	if (vbuf) /* stdio's small buffer makes thousands of slow reads of kallsyms */
		setvbuf(in, vbuf, _IOFBF, 1 << 18);
	while (fgets(line, sizeof(line), in)) {
		unsigned long long addr;
		char type, name[256];
		size_t len;

		/* "ffffffff81000000 T _stext [module]": zero addresses are hidden ones */
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr)
			continue;
		len = strlen(name) + 1;
		if (table.n == cap) {
			struct ksym *more = realloc(table.syms, (cap = cap ? 2 * cap : 4096) * sizeof(*more));

			if (!more)
				break;
			table.syms = more;
		}
		if (names_len + len > names_cap || names_len + len > UINT32_MAX) {
			char *more = names_len + len > UINT32_MAX ? NULL :
				     realloc(table.names, names_cap = 2 * names_cap + len + 65536);

			if (!more)
				break;
			table.names = more;
		}
		memcpy(table.names + names_len, name, len);
		table.syms[table.n].addr = addr;
		table.syms[table.n++].name = (uint32_t)names_len;
		names_len += len;
	}
	fclose(in);
	free(vbuf);
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
