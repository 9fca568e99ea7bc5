/*
 * event_catalog.c - every event name a machine offers, for `peo list`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_internal.h"

struct visitor {
	peo_event_visit_fn visit;
	void *ctx;
	int stop; /* what visit returned to stop the walk */
};

static int emit(struct visitor *v, const char *name, const char *aliases,
		enum peo_event_kind kind, const char *pmu, const char *alias_of,
		const char *description)
{
	struct peo_event_info info;

	memset(&info, 0, sizeof(info));
	info.name = name;
	info.aliases = aliases ? aliases : "";
	info.kind = kind;
	info.pmu = pmu;
	info.alias_of = alias_of;
	info.description = description;
	v->stop = v->visit(&info, v->ctx);
	return v->stop;
}

static int visit_generic(struct visitor *v)
{
	const struct peo_symbolic_event *sym = NULL;
	char name[96];
	uint64_t config;
	size_t n, i;
	unsigned k;
	int r = 0, hw;

	sym = peo_symbolic_events(&n);
	/* software first: on machines without a PMU they are what works */
	for (hw = 0; hw < 2; hw++)
		for (i = 0; i < n && !r; i++)
			if ((sym[i].type == PEO_TYPE_HARDWARE) == hw)
				r = emit(v, sym[i].name, sym[i].alias,
					 hw ? PEO_EVENT_KIND_HARDWARE : PEO_EVENT_KIND_SOFTWARE,
					 hw ? "cpu" : "software", NULL,
					 hw ? "Hardware event" : "Software event");
	for (k = 0; !r && peo_cache_name(k, name, sizeof(name), &config); k++)
		r = emit(v, name, NULL, PEO_EVENT_KIND_CACHE, "cpu", NULL, "Hardware cache event");
	return r;
}

static int visit_pmu_aliases(struct visitor *v, const char *pmu_dir)
{
	char **pmus, **aliases, path[4096], name[600];
	int np = peo_list_dir(pmu_dir, &pmus), na, i, j, r = 0;

	if (np < 0)
		return np == -ENOMEM ? peo_fail(ENOMEM, "out of memory") : 0;
	for (i = 0; i < np && !r; i++) {
		snprintf(path, sizeof(path), "%s/%s/events", pmu_dir, pmus[i]);
		na = peo_list_dir(path, &aliases);
		for (j = 0; j < na && !r; j++) {
			char *terms;

			if (!peo_pmu_is_alias_name(aliases[j]))
				continue;
			snprintf(path, sizeof(path), "%s/%s/events/%s", pmu_dir, pmus[i], aliases[j]);
			terms = peo_read_text_file(path);
			snprintf(name, sizeof(name), "%s/%s/", pmus[i], aliases[j]);
			r = emit(v, name, NULL, PEO_EVENT_KIND_PMU, pmus[i], terms ? terms : "",
				 "Kernel PMU event");
			free(terms);
		}
		if (na > 0)
			peo_free_names(aliases, na);
	}
	peo_free_names(pmus, np);
	return r;
}

static int visit_tracepoint(void *arg, const char *sys, const char *event)
{
	char name[600];

	snprintf(name, sizeof(name), "%s:%s", sys, event);
	return emit(arg, name, NULL, PEO_EVENT_KIND_TRACEPOINT, "tracepoint", NULL,
		    "Tracepoint event");
}

static int visit_tracepoints(struct visitor *v, const char *dir)
{
	int r;

	if (!dir)
		return 0;
	r = peo_tracepoint_walk(dir, "*", "*", 1, visit_tracepoint, v);
	if (v->stop)
		return v->stop;
	if (r == -ENOMEM)
		return peo_fail(ENOMEM, "out of memory");
	return 0; /* an unreadable tracefs offers no names */
}

int peo_event_foreach(peo_event_visit_fn visit, void *ctx, const struct peo_event_parse_opts *opts)
{
	struct visitor v = { visit, ctx, 0 };
	const char *pmu_dir;
	int r;

	if (!visit)
		return peo_fail(EINVAL, "peo_event_foreach: argument 'visit' is NULL");
	r = peo_opts_check(opts, sizeof(*opts), "peo_event_parse_opts");
	if (r)
		return r;
	pmu_dir = opts && opts->pmu_dir ? opts->pmu_dir : peo_default_pmu_dir();
	r = visit_generic(&v);
	if (!r)
		r = visit_pmu_aliases(&v, pmu_dir);
	if (!r)
		r = visit_tracepoints(&v, peo_tracefs_dir(opts ? opts->tracefs_dir : NULL));
	return r;
}
