/*
 * symbols/symbols.c - struct peo_symbols made and freed, and what it says
 * of itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/dso.h"

int peo_symbols_new(struct peo_symbols **out, const struct peo_symbols_opts *opts)
{
	struct peo_symbols *s;
	int err;

	if (!out)
		return peo_fail(EINVAL, "peo_symbols_new: argument 'out' is NULL");
	*out = NULL;
	if ((err = peo_opts_check(opts, sizeof(s->opts), "peo_symbols_opts")))
		return err;
	s = calloc(1, sizeof(*s));
	if (!s)
		return peo_fail(ENOMEM, "out of memory for a peo_symbols");
	if (opts)
		memcpy(&s->opts, opts, opts->sz < sizeof(s->opts) ? opts->sz : sizeof(s->opts));
	s->opts.sz = sizeof(s->opts);
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->kernel_load, NULL);
	if ((s->opts.symfs && !(s->symfs = strdup(s->opts.symfs))) ||
	    (s->opts.kallsyms && !(s->kallsyms = strdup(s->opts.kallsyms))) ||
	    (s->opts.vmlinux && !(s->vmlinux = strdup(s->opts.vmlinux))) ||
	    (s->opts.debug_cache && !(s->debug_cache = strdup(s->opts.debug_cache)))) {
		peo_symbols_free(s);
		return peo_fail(ENOMEM, "out of memory for a peo_symbols");
	}
	s->opts.symfs = s->symfs;
	s->opts.kallsyms = s->kallsyms;
	s->opts.vmlinux = s->vmlinux;
	s->opts.debug_cache = s->debug_cache;
	*out = s;
	return 0;
}

void peo_symbols_free(struct peo_symbols *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nbuckets; i++)
		for (struct sym_dso *d = s->buckets[i], *next; d; d = next) {
			next = d->next;
			if (d->state > 0)
				sym_binary_fini(&d->bin);
			if (d->inflated >= 0)
				close(d->inflated);
			pthread_mutex_destroy(&d->load);
			free(d->name);
			free(d);
		}
	free(s->buckets);
	sym_kernel_fini(&s->kernel); /* read, perhaps by peo_symbols_preload() alone, or empty */
	free(s->kernel_why);
	for (size_t i = 0; i < s->nkranges; i++)
		free(s->kranges[i].part);
	free(s->kranges);
	free(s->kref_name);
	for (size_t i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	free(s->notes);
	free(s->symfs);
	free(s->kallsyms);
	free(s->vmlinux);
	free(s->debug_cache);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->kernel_load);
	free(s);
}

int peo_symbols_available(void)
{
#ifdef PEO_HAVE_LIBDW
	return 1;
#else
	return 0;
#endif
}

size_t peo_symbols_notes(struct peo_symbols *s, const char **out, size_t max)
{
	size_t n;

	if (!s)
		return 0;
	pthread_mutex_lock(&s->lock);
	n = s->nnotes;
	for (size_t i = 0; out && i < n && i < max; i++)
		out[i] = s->notes[i];
	pthread_mutex_unlock(&s->lock);
	return n;
}

int peo_symbols_add_build_id(struct peo_symbols *s, const char *path, const uint8_t *id, size_t len)
{
	if (!s || !path || !id)
		return peo_fail(EINVAL, "peo_symbols_add_build_id: a NULL argument");
	if (!len || len > 20)
		return peo_fail(EINVAL, "peo_symbols_add_build_id: a build id of %zu bytes: they "
				"have 1 to 20", len);
	return sym_dso_get(s, path, id, len) ? 0 : -ENOMEM;
}
