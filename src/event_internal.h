/*
 * event_internal.h - what the event layer's files share: the event and list
 * objects, the parser's state, and each kind's encoder.
 */
#ifndef PEO_EVENT_INTERNAL_H
#define PEO_EVENT_INTERNAL_H

#include "internal.h"

struct peo_event {
	struct peo_attr attr;
	char *name;
	char *pmu;
	char *unit;
	char *probe_target; /* the string attr.config1 points at (uprobe path, kprobe symbol) */
	double scale;
	enum peo_event_kind kind;
	size_t leader;
	unsigned int flags;
	int exclude_gh; /* G or H given: u and p no longer set exclude_guest */
	int expanded;   /* named by its encoder (glob or instance match): modifiers get appended */
};

struct peo_event_list {
	struct peo_event **events;
	size_t count;
	size_t cap;
};

/* A piece of the string being parsed. */
struct peo_token {
	const char *s;
	size_t len;
};

struct peo_parse {
	const char *str; /* the whole string, for columns */
	const char *pmu_dir;
	const char *tracefs_opt; /* the caller's tracefs, or NULL */
	struct peo_event_list *list;
};

/* 1-based column of @t in the string. */
static inline size_t peo_column(const struct peo_parse *p, struct peo_token t)
{
	return (size_t)(t.s - p->str) + 1;
}

/* event.c: a new event at the end of @list, attr initialised as perf does. */
PEO_HIDDEN struct peo_event *peo_event_new(struct peo_event_list *list,
					   enum peo_event_kind kind, const char *pmu);
/* Replace a string member (name, unit, ...) with a copy of @len bytes of @s. */
PEO_HIDDEN int peo_event_set_string(char **field, const char *s, size_t len);

/* pmu.c: pmu/terms/ (one event per PMU instance) and bare sysfs aliases. */
PEO_HIDDEN int peo_pmu_add(struct peo_parse *p, struct peo_token pmu, struct peo_token terms);
/* Events for @word as an alias of any PMU; 0 when no PMU has it. */
PEO_HIDDEN int peo_pmu_add_alias(struct peo_parse *p, struct peo_token word);
/* Apply perf's generic terms (config*, period, freq, name) to an event of no PMU. */
PEO_HIDDEN int peo_terms_apply_generic(struct peo_parse *p, struct peo_event *ev,
				       struct peo_token terms);
/* Is @name (or a path ending in it) an alias, not its .scale/.unit/... companion? */
PEO_HIDDEN int peo_pmu_is_alias_name(const char *name);
/* Offer every PMU name and alias to a suggestion. */
PEO_HIDDEN void peo_pmu_suggest(const char *pmu_dir, struct peo_suggest *s, int aliases);
/* The type of PMU @name under @pmu_dir, or -errno. */
PEO_HIDDEN long peo_pmu_type(const char *pmu_dir, const char *name);
/* Put @value in the bits @spec ("config:0-7,32-35") names; -EINVAL with @why. */
PEO_HIDDEN int peo_format_apply(struct peo_attr *attr, const char *spec, uint64_t value,
				char *why, size_t cap);

/* event_tracepoint.c: subsystem:event, globs expanded. */
PEO_HIDDEN int peo_tracepoint_add(struct peo_parse *p, struct peo_token sys,
				  struct peo_token name);
/*
 * Call @fn for each tracepoint matching both globs, in name order or in
 * tracefs's own order; stops at and returns @fn's first non-zero value.
 */
PEO_HIDDEN int peo_tracepoint_walk(const char *dir, const char *sys_glob, const char *name_glob,
				   int sorted, int (*fn)(void *ctx, const char *sys, const char *name),
				   void *ctx);
/* The tracefs directory in use: the caller's, or the first mounted default. */
PEO_HIDDEN const char *peo_tracefs_dir(const char *opt);
/* A tracepoint's @file ("id", "format") under tracefs @dir, into @path. */
PEO_HIDDEN void peo_tracepoint_file(char *path, size_t cap, const char *dir, const char *sys,
				    const char *name, const char *file);

/* probe.c: uprobe:PATH:TARGET, kprobe:TARGET and their ret forms. */
PEO_HIDDEN int peo_probe_add(struct peo_parse *p, struct peo_token kind, struct peo_token path,
			     struct peo_token target);

/* Parse a number token (decimal, 0x hex, 0 octal as strtoull); -EINVAL if not one. */
PEO_HIDDEN int peo_token_number(struct peo_token t, uint64_t *out);

#endif /* PEO_EVENT_INTERNAL_H */
