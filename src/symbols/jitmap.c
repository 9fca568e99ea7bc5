/*
 * symbols/jitmap.c - a JIT's symbols from /tmp/perf-PID.map, the file a
 * JIT (V8, the JVM's perf agent, LuaJIT...) writes for perf: a line
 * "START SIZE name" for each function it made, START and SIZE in hex,
 * the name the rest of the line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/dso.h"

int sym_jitmap_load(const char *path, struct sym_binary *out)
{
	FILE *f = fopen(path, "re");
	char line[4096];
	unsigned long lineno = 0;
	int err = 0;

	if (!f)
		return peo_fail(errno, "%s: %s (the JIT wrote no symbols for perf)", path,
				strerror(errno));
	while (!err && fgets(line, sizeof(line), f)) {
		uint64_t start, size;
		int at = 0;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %n", &start, &size, &at) != 2 || !at ||
		    !line[at]) {
			err = peo_fail(EINVAL, "%s:%lu: '%.80s' is not START SIZE NAME (hex, hex, "
				       "text)", path, lineno, line);
			break;
		}
		err = sym_table_add(&out->syms, start, size, line + at, SYM_GLOBAL, 0);
	}
	fclose(f);
	if (!err)
		err = sym_table_finish(&out->syms);
	if (err)
		sym_table_fini(&out->syms);
	return err;
}
