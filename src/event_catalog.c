/*
 * event_catalog.c - every event name a machine offers, for `peo list`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_internal.h"

static int visit_generic(peo_event_visit_fn visit, void *ctx)
{
	const struct peo_symbolic_event *sym;
	struct peo_event_info info;
	char name[96];
	uint64_t config;
	size_t n, i;
	unsigned k;
	int r, pass;

	sym = peo_symbolic_events(&n);
	/* software first, as perf lists them after hardware but users look for them first */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i++) {
			int hw = sym[i].type == PEO_TYPE_HARDWARE;

			if (hw != pass)
				continue;
			memset(&info, 0, sizeof(info));
			info.name = sym[i].name;
			info.aliases = sym[i].alias ? sym[i].alias : "";
			info.kind = hw ? PEO_EVENT_KIND_HARDWARE : PEO_EVENT_KIND_SOFTWARE;
			info.pmu = hw ? "cpu" : "software";
			info.description = hw ? "Hardware event" : "Software event";
			r = visit(&info, ctx);
			if (r)
				return r;
		}
	for (k = 0; peo_cache_name(k, name, sizeof(name), &config); k++) {
		memset(&info, 0, sizeof(info));
		info.name = name;
		info.aliases = "";
		info.kind = PEO_EVENT_KIND_CACHE;
		info.pmu = "cpu";
		info.description = "Hardware cache event";
		r = visit(&info, ctx);
		if (r)
			return r;
	}
	return 0;
}

static int is_alias_name(const char *name)
{
	return !strchr(name, '.');
}

static int visit_pmu_aliases(const char *pmu_dir, peo_event_visit_fn visit, void *ctx)
{
	char **pmus, **aliases, path[4096], name[600];
	struct peo_event_info info;
	int np = peo_list_dir(pmu_dir, &pmus), na, i, j, r = 0;

	if (np < 0)
		return np == -ENOMEM ? peo_fail(ENOMEM, "out of memory") : 0;
	for (i = 0; i < np && !r; i++) {
		snprintf(path, sizeof(path), "%s/%s/events", pmu_dir, pmus[i]);
		na = peo_list_dir(path, &aliases);
		for (j = 0; j < na && !r; j++) {
			char *terms;

			if (!is_alias_name(aliases[j]))
				continue;
			snprintf(path, sizeof(path), "%s/%s/events/%s", pmu_dir, pmus[i], aliases[j]);
			terms = peo_read_text_file(path);
			snprintf(name, sizeof(name), "%s/%s/", pmus[i], aliases[j]);
			memset(&info, 0, sizeof(info));
			info.name = name;
			info.aliases = "";
			info.kind = PEO_EVENT_KIND_PMU;
			info.pmu = pmus[i];
			info.alias_of = terms ? terms : "";
			info.description = "Kernel PMU event";
			r = visit(&info, ctx);
			free(terms);
		}
		if (na > 0)
			peo_free_names(aliases, na);
	}
	peo_free_names(pmus, np);
	return r;
}

static int visit_tracepoints(const char *dir, peo_event_visit_fn visit, void *ctx)
{
	char **subsystems, **events, path[4096], name[600];
	struct peo_event_info info;
	int ns, ne, i, j, r = 0;

	if (!dir)
		return 0;
	snprintf(path, sizeof(path), "%s/events", dir);
	ns = peo_list_dir(path, &subsystems);
	if (ns < 0)
		return ns == -ENOMEM ? peo_fail(ENOMEM, "out of memory") : 0;
	for (i = 0; i < ns && !r; i++) {
		snprintf(path, sizeof(path), "%s/events/%s", dir, subsystems[i]);
		ne = peo_list_dir(path, &events);
		for (j = 0; j < ne && !r; j++) {
			snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, subsystems[i], events[j]);
			if (!peo_path_exists(path))
				continue;
			snprintf(name, sizeof(name), "%s:%s", subsystems[i], events[j]);
			memset(&info, 0, sizeof(info));
			info.name = name;
			info.aliases = "";
			info.kind = PEO_EVENT_KIND_TRACEPOINT;
			info.pmu = "tracepoint";
			info.description = "Tracepoint event";
			r = visit(&info, ctx);
		}
		if (ne > 0)
			peo_free_names(events, ne);
	}
	peo_free_names(subsystems, ns);
	return r;
}

int peo_event_foreach(peo_event_visit_fn visit, void *ctx, const struct peo_event_parse_opts *opts)
{
	const char *pmu_dir;
	int r;

	if (!visit)
		return peo_fail(EINVAL, "peo_event_foreach: argument 'visit' is NULL");
	r = peo_opts_check(opts, sizeof(*opts), "peo_event_parse_opts");
	if (r)
		return r;
	pmu_dir = opts && opts->pmu_dir ? opts->pmu_dir : peo_default_pmu_dir();
	r = visit_generic(visit, ctx);
	if (!r)
		r = visit_pmu_aliases(pmu_dir, visit, ctx);
	if (!r)
		r = visit_tracepoints(peo_tracefs_dir(opts ? opts->tracefs_dir : NULL), visit, ctx);
	return r;
}
