/*
 * opts.c - the sized-struct rules (common.h).  Options: a caller's struct
 * may be older (smaller) than ours, or newer (bigger) as long as the fields
 * we do not know are zero.  Structs we fill: at least their first release's
 * size, and what we do not know of a newer one is zeroed.
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

int peo_sized_check(void *out, size_t sz, size_t first, size_t known, const char *type)
{
	if (sz < first)
		return peo_fail(EINVAL, "struct %s: sz is %zu, under the %zu bytes of its first "
				"release; set it to sizeof(struct %s) before the call",
				type, sz, first, type);
	if (sz > known) /* a newer caller: the fields we do not know read as absent */
		memset((unsigned char *)out + known, 0, sz - known);
	return 0;
}
