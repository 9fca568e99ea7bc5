/*
 * recording_symbols.c - the symbols peo script and peo report read a
 * recording's addresses with: the command's options, the debug cache the
 * environment names, every build id the recording lists; and whether
 * they need the binaries' DWARF for unwound stacks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <peo/peo.h>

#include "commands.h"

/* $PEO_DEBUG_CACHE ("off": none), else $XDG_CACHE_HOME/peo/debug, else
 * ~/.cache/peo/debug, into @buf; NULL for none. */
static const char *debug_cache_dir(char *buf, size_t size)
{
	const char *env = getenv("PEO_DEBUG_CACHE"), *xdg = getenv("XDG_CACHE_HOME"),
		   *home = getenv("HOME");
	int n;

	if (env && *env)
		return strcmp(env, "off") ? env : NULL;
	if (xdg && xdg[0] == '/') /* the spec ignores a relative one */
		n = snprintf(buf, size, "%s/peo/debug", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, size, "%s/.cache/peo/debug", home);
	else
		return NULL;
	return n > 0 && (size_t)n < size ? buf : NULL;
}

int recording_symbols(struct peo_perfdata *f, struct peo_symbols_opts *so,
		      struct peo_symbols **out)
{
	char dir[4096];
	const struct peo_build_id *ids;
	size_t n;
	int err;

	so->debug_cache = debug_cache_dir(dir, sizeof(dir));
	if (peo_symbols_new(out, so))
		return -1;
	if (peo_perfdata_build_ids(f, &ids, &n))
		return 0; /* none recorded: binaries are read as they are */
	for (size_t i = 0; i < n; i++)
		if (ids[i].size && ids[i].filename &&
		    (err = peo_symbols_add_build_id(*out, ids[i].filename, ids[i].id, ids[i].size)) ==
			    -ENOMEM)
			return -1;
	return 0;
}

int recording_has_stacks(struct peo_perfdata *f)
{
	for (size_t i = 0; i < peo_perfdata_attr_count(f); i++)
		if (peo_perfdata_attr(f, i)->sample_type & PEO_SAMPLE_STACK_USER)
			return 1;
	return 0;
}
