/*
 * opts.c - the sized-options rule: a caller's struct may be older (smaller)
 * than ours, or newer (bigger) as long as the fields we do not know are zero.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

int peo_opts_check(const void *opts, size_t known_size, const char *type)
{
	const unsigned char *bytes = opts;
	size_t sz, i;

	if (!opts)
		return 0;
	memcpy(&sz, opts, sizeof(sz));
	if (sz < sizeof(size_t))
		return peo_fail(EINVAL, "struct %s: sz is %zu; set it with PEO_OPTS()", type, sz);
	for (i = known_size; i < sz; i++)
		if (bytes[i])
			return peo_fail(E2BIG,
					"struct %s: byte %zu is set but this libpeo (%s) knows only "
					"the first %zu bytes; upgrade libpeo or leave newer fields zero",
					type, i, PEO_VERSION_STRING, known_size);
	return 0;
}
