/*
 * pmu.c - PMUs under /sys/bus/event_source/devices: their type, the bit
 * layout of their terms (format directory), their named events (events
 * directory, with .scale and .unit), and perf's generic terms.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_internal.h"

long peo_pmu_type(const char *pmu_dir, const char *name)
{
	char path[4096];
	long type;
	int err;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s/type", pmu_dir, name);
	err = peo_read_long_file(path, &type);
	if (err)
		return err;
	return type < 0 || type > 0xffffffffL ? -EINVAL : type;
}

/* ------------------------------------------------------------------ formats */

static uint64_t *format_field(struct peo_attr *attr, const char *name, size_t len)
{
	if (len == 6 && !memcmp(name, "config", 6))
		return &attr->config;
	if (len == 7 && !memcmp(name, "config1", 7))
		return &attr->config1;
	if (len == 7 && !memcmp(name, "config2", 7))
		return &attr->config2;
	if (len == 7 && !memcmp(name, "config3", 7))
		return &attr->config3;
	if (len == 7 && !memcmp(name, "config4", 7))
		return &attr->config4;
	return NULL;
}

/* The bits a spec names, as a mask per bit position in order of use. */
static int format_bits(const char *spec, uint64_t **field, struct peo_attr *attr,
		       unsigned char *order, unsigned *nbits, char *why, size_t cap)
{
	const char *colon = strchr(spec, ':'), *s;
	uint64_t seen = 0;

	*nbits = 0;
	*field = colon ? format_field(attr, spec, (size_t)(colon - spec)) : NULL;
	if (!*field) {
		snprintf(why, cap, "format '%s' names no attr field (config, config1, config2, "
			 "config3)", spec);
		return -EINVAL;
	}
	for (s = colon + 1; *s;) {
		char *end;
		unsigned long lo = strtoul(s, &end, 10), hi = lo, b;

		if (end == s)
			goto bad;
		if (*end == '-') {
			s = end + 1;
			hi = strtoul(s, &end, 10);
			if (end == s)
				goto bad;
		}
		if (lo > hi || hi > 63)
			goto bad;
		for (b = lo; b <= hi; b++) {
			if (seen & (1ULL << b))
				goto bad;
			seen |= 1ULL << b;
			order[(*nbits)++] = (unsigned char)b;
		}
		if (*end == ',')
			end++;
		else if (*end && !isspace((unsigned char)*end))
			goto bad;
		s = end;
		while (isspace((unsigned char)*s))
			s++;
	}
	if (*nbits)
		return 0;
bad:
	snprintf(why, cap, "format '%s' is not FIELD:LO[-HI][,LO[-HI]...]", spec);
	return -EINVAL;
}

int peo_format_apply(struct peo_attr *attr, const char *spec, uint64_t value, char *why,
		     size_t cap)
{
	unsigned char order[64];
	unsigned nbits, i;
	uint64_t *field;
	int err = format_bits(spec, &field, attr, order, &nbits, why, cap);

	if (err)
		return err;
	if (nbits < 64 && value >> nbits) {
		snprintf(why, cap, "value %#llx does not fit in its %u bit%s (%s)",
			 (unsigned long long)value, nbits, nbits == 1 ? "" : "s", spec);
		return -ERANGE;
	}
	for (i = 0; i < nbits; i++) {
		uint64_t bit = 1ULL << order[i];

		*field = (value >> i) & 1 ? *field | bit : *field & ~bit;
	}
	return 0;
}

/* -------------------------------------------------------------------- terms */

struct term_ctx {
	struct peo_parse *p;
	struct peo_event *ev;
	const char *pmu_path; /* NULL for generic events */
	const char *source;   /* alias file being expanded, or NULL for the user's text */
	char required[8][64]; /* '?' terms still to be given */
	int nrequired;
	char supplied[16][64]; /* terms the user gave, in any order */
	int nsupplied;
};

static int apply_terms(struct term_ctx *c, struct peo_token terms, int depth);

static int term_fail(struct term_ctx *c, int err, struct peo_token key, const char *fmt,
		     const char *detail)
{
	if (c->source)
		return peo_fail(err, "term '%.*s' in %s: %s", (int)key.len, key.s, c->source,
				detail ? detail : fmt);
	return peo_fail(err, "term '%.*s' at column %zu: %s", (int)key.len, key.s,
			peo_column(c->p, key), detail ? detail : fmt);
}

int peo_pmu_is_alias_name(const char *name)
{
	static const char *const suffixes[] = { ".scale", ".unit", ".per-pkg", ".snapshot" };
	size_t n = strlen(name), i;

	for (i = 0; i < PEO_ARRAY_SIZE(suffixes); i++) {
		size_t k = strlen(suffixes[i]);

		if (n > k && !strcmp(name + n - k, suffixes[i]))
			return 0;
	}
	return 1;
}

static void offer_dir(struct peo_suggest *s, const char *dir, int aliases_only)
{
	char **names;
	int n = peo_list_dir(dir, &names), i;

	for (i = 0; i < n; i++)
		if (!aliases_only || peo_pmu_is_alias_name(names[i]))
			peo_suggest_offer(s, names[i]);
	if (n > 0)
		peo_free_names(names, n);
}

static int unknown_term(struct term_ctx *c, struct peo_token key)
{
	static const char *const generic[] = { "config", "config1", "config2", "config3",
					       "period", "freq", "name" };
	char dir[4096], hint[160], detail[400];
	struct peo_suggest s;
	size_t i;

	peo_suggest_init(&s, key.s, key.len);
	for (i = 0; i < PEO_ARRAY_SIZE(generic); i++)
		peo_suggest_offer(&s, generic[i]);
	if (c->pmu_path) {
		snprintf(dir, sizeof(dir), "%s/format", c->pmu_path);
		offer_dir(&s, dir, 0);
		snprintf(dir, sizeof(dir), "%s/events", c->pmu_path);
		offer_dir(&s, dir, 1);
	}
	peo_suggest_text(&s, hint, sizeof(hint));
	if (c->pmu_path)
		snprintf(detail, sizeof(detail), "PMU '%s' has no such format or event%s (see "
			 "%s/format and %s/events)", c->ev->pmu, hint, c->pmu_path, c->pmu_path);
	else
		snprintf(detail, sizeof(detail), "not a term of a generic event%s (terms here: "
			 "config, config1, config2, config3, period, freq, name)", hint);
	return term_fail(c, EINVAL, key, NULL, detail);
}

/* An alias: its terms, its .scale and .unit. */
static int apply_alias(struct term_ctx *c, const char *path, int depth)
{
	char extra[4400];
	char *text = peo_read_text_file(path);
	struct peo_token terms;
	const char *saved = c->source;
	int err;

	if (!text)
		return peo_fail(errno == ENOMEM ? ENOMEM : EIO, "reading %s: %s", path,
				strerror(errno));
	terms.s = text;
	terms.len = strlen(text);
	c->source = path;
	err = apply_terms(c, terms, depth + 1);
	c->source = saved;
	free(text);
	if (err)
		return err;
	snprintf(extra, sizeof(extra), "%s.scale", path);
	text = peo_read_text_file(extra);
	if (text) {
		char *end;
		double scale = strtod(text, &end);

		if (end == text || scale == 0) {
			err = peo_fail(EINVAL, "%s: '%s' is not a scale factor", extra, text);
			free(text);
			return err;
		}
		c->ev->scale = scale;
		free(text);
	}
	snprintf(extra, sizeof(extra), "%s.unit", path);
	text = peo_read_text_file(extra);
	if (text) {
		err = peo_event_set_string(&c->ev->unit, text, strlen(text));
		free(text);
		if (err)
			return peo_fail(ENOMEM, "out of memory");
	}
	return 0;
}

static int name_in(char (*names)[64], int n, struct peo_token key)
{
	int i;

	for (i = 0; i < n; i++)
		if (strlen(names[i]) == key.len && !memcmp(names[i], key.s, key.len))
			return i;
	return -1;
}

static void require_term(struct term_ctx *c, struct peo_token key)
{
	if (name_in(c->supplied, c->nsupplied, key) >= 0)
		return;
	if (c->nrequired < (int)PEO_ARRAY_SIZE(c->required))
		snprintf(c->required[c->nrequired++], sizeof(c->required[0]), "%.*s", (int)key.len,
			 key.s);
}

static void supply_term(struct term_ctx *c, struct peo_token key)
{
	int i = name_in(c->required, c->nrequired, key);

	if (i >= 0)
		c->required[i][0] = '\0';
	if (!c->source && c->nsupplied < (int)PEO_ARRAY_SIZE(c->supplied))
		snprintf(c->supplied[c->nsupplied++], sizeof(c->supplied[0]), "%.*s", (int)key.len,
			 key.s);
}

static int key_is(struct peo_token key, const char *s)
{
	return strlen(s) == key.len && !memcmp(key.s, s, key.len);
}

static int apply_term(struct term_ctx *c, struct peo_token key, struct peo_token val,
		      int has_value, int depth)
{
	struct peo_attr *a = &c->ev->attr;
	char path[4200], why[200];
	uint64_t v = 1;
	uint64_t *whole = format_field(a, key.s, key.len);

	if (key_is(key, "name")) {
		if (!has_value || !val.len)
			return term_fail(c, EINVAL, key, "write name=TEXT", NULL);
		if (val.len >= 2 && val.s[0] == '\'' && val.s[val.len - 1] == '\'') {
			val.s++;
			val.len -= 2;
		}
		return peo_event_set_string(&c->ev->name, val.s, val.len) ? peo_fail(ENOMEM, "out of memory") : 0;
	}
	if (has_value && val.len == 1 && val.s[0] == '?') {
		if (!c->source)
			return term_fail(c, EINVAL, key, "'?' marks a value a sysfs alias needs; give "
					 "a number", NULL);
		require_term(c, key);
		return 0;
	}
	if (has_value && peo_token_number(val, &v)) {
		snprintf(why, sizeof(why), "'%.*s' is not a number (decimal or 0x hex)",
			 (int)val.len, val.s);
		return term_fail(c, EINVAL, key, NULL, why);
	}
	supply_term(c, key);
	if (whole) {
		*whole = v;
		return 0;
	}
	if (key_is(key, "period") || key_is(key, "freq")) {
		if (!has_value)
			return term_fail(c, EINVAL, key, "needs a value, e.g. period=10000", NULL);
		a->sample_period = v;
		a->freq = key_is(key, "freq");
		return 0;
	}
	if (c->pmu_path) {
		char *spec;
		int err;

		snprintf(path, sizeof(path), "%s/format/%.*s", c->pmu_path, (int)key.len, key.s);
		spec = peo_read_text_file(path);
		if (spec) {
			err = peo_format_apply(a, spec, v, why, sizeof(why));
			free(spec);
			return err ? term_fail(c, EINVAL, key, NULL, why) : 0;
		}
		snprintf(path, sizeof(path), "%s/events/%.*s", c->pmu_path, (int)key.len, key.s);
		if (!has_value && key.len && peo_pmu_is_alias_name(path) && peo_path_exists(path)) {
			if (depth > 0)
				return term_fail(c, EINVAL, key, "an alias may not name another alias", NULL);
			return apply_alias(c, path, depth);
		}
	}
	return unknown_term(c, key);
}

static int apply_terms(struct term_ctx *c, struct peo_token terms, int depth)
{
	const char *s = terms.s, *end = terms.s + terms.len;

	while (s < end) {
		struct peo_token key = { s, 0 }, val = { NULL, 0 };
		const char *comma = memchr(s, ',', (size_t)(end - s));
		const char *stop = comma ? comma : end, *eq;
		int err;

		while (key.s < stop && isspace((unsigned char)*key.s))
			key.s++;
		eq = memchr(key.s, '=', (size_t)(stop - key.s));
		key.len = (size_t)((eq ? eq : stop) - key.s);
		while (key.len && isspace((unsigned char)key.s[key.len - 1]))
			key.len--;
		if (!key.len) {
			struct peo_token at = { s, 1 };

			if (c->source)
				return peo_fail(EINVAL, "%s: empty term", c->source);
			return peo_fail(EINVAL, "empty term at column %zu", peo_column(c->p, at));
		}
		if (eq) {
			val.s = eq + 1;
			while (val.s < stop && isspace((unsigned char)*val.s))
				val.s++;
			val.len = (size_t)(stop - val.s);
			while (val.len && isspace((unsigned char)val.s[val.len - 1]))
				val.len--;
		}
		err = apply_term(c, key, val, eq != NULL, depth);
		if (err)
			return err;
		s = comma ? comma + 1 : end;
	}
	return 0;
}

static int check_required(struct term_ctx *c, struct peo_token where)
{
	int i;

	for (i = 0; i < c->nrequired; i++)
		if (c->required[i][0])
			return peo_fail(EINVAL, "event '%.*s' at column %zu needs a value for '%s': "
					"write %s=N among its terms", (int)where.len, where.s,
					peo_column(c->p, where), c->required[i], c->required[i]);
	return 0;
}

int peo_terms_apply_generic(struct peo_parse *p, struct peo_event *ev, struct peo_token terms)
{
	struct term_ctx c = { .p = p, .ev = ev };

	return apply_terms(&c, terms, 0);
}

/* ------------------------------------------------------------ PMU events */

static int is_instance_of(const char *name, struct peo_token base)
{
	const char *rest;

	if (strncmp(name, "uncore_", 7) == 0 && strlen(name + 7) >= base.len &&
	    !memcmp(name + 7, base.s, base.len) && (name[7 + base.len] == '\0' || name[7 + base.len] == '_'))
		rest = name + 7 + base.len;
	else if (strlen(name) > base.len && !memcmp(name, base.s, base.len))
		rest = name + base.len;
	else
		return 0;
	if (!*rest)
		return 1;
	if (*rest++ != '_' || !*rest)
		return 0;
	return strspn(rest, "0123456789") == strlen(rest);
}

/* PMU directories @word names: itself, a glob's matches, or its numbered instances. */
static int pmu_matches(struct peo_parse *p, struct peo_token word, char ***out)
{
	char **names, pattern[256];
	int n, i, kept = 0, glob;

	*out = NULL;
	if (word.len >= sizeof(pattern))
		return -ENAMETOOLONG;
	snprintf(pattern, sizeof(pattern), "%.*s", (int)word.len, word.s);
	glob = strpbrk(pattern, "*?") != NULL;
	if (!glob && peo_pmu_type(p->pmu_dir, pattern) >= 0) {
		names = malloc(sizeof(*names));
		if (!names || !(names[0] = strdup(pattern))) {
			free(names);
			return -ENOMEM;
		}
		*out = names;
		return 1;
	}
	n = peo_list_dir(p->pmu_dir, &names);
	if (n <= 0)
		return n == -ENOMEM ? n : 0;
	for (i = 0; i < n; i++) {
		int take = glob ? !fnmatch(pattern, names[i], 0) : is_instance_of(names[i], word);

		if (take && peo_pmu_type(p->pmu_dir, names[i]) >= 0)
			names[kept++] = names[i];
		else
			free(names[i]);
	}
	if (!kept) {
		free(names);
		return 0;
	}
	*out = names;
	return kept;
}

static int add_pmu_event(struct peo_parse *p, const char *pmu, struct peo_token terms,
			 struct peo_token where, int named)
{
	char path[4096];
	struct term_ctx c = { .p = p };
	long type = peo_pmu_type(p->pmu_dir, pmu);
	int err;

	if (type < 0)
		return peo_fail(type == -ENOENT ? ENOENT : EINVAL, "PMU '%s': %s/%s/type is %s", pmu,
				p->pmu_dir, pmu, type == -ENOENT ? "missing" : "not a number");
	c.ev = peo_event_new(p->list, PEO_EVENT_KIND_PMU, pmu);
	if (!c.ev)
		return peo_fail(ENOMEM, "out of memory");
	c.ev->attr.type = (uint32_t)type;
	snprintf(path, sizeof(path), "%s/%s", p->pmu_dir, pmu);
	c.pmu_path = path;
	err = apply_terms(&c, terms, 0);
	if (!err)
		err = check_required(&c, where);
	if (!err && named && !c.ev->name) {
		char name[512];

		snprintf(name, sizeof(name), "%s/%.*s/", pmu, (int)terms.len, terms.s);
		err = peo_event_set_string(&c.ev->name, name, strlen(name)) ? peo_fail(ENOMEM, "out of memory") : 0;
		c.ev->expanded = 1;
	}
	return err;
}

int peo_pmu_add(struct peo_parse *p, struct peo_token pmu, struct peo_token terms)
{
	char **names;
	struct peo_token where = { pmu.s, (size_t)(terms.s + terms.len + 1 - pmu.s) };
	int n = pmu_matches(p, pmu, &names), i, err = 0;

	if (n == -ENAMETOOLONG)
		return peo_fail(EINVAL, "PMU name '%.*s' at column %zu is too long", (int)pmu.len,
				pmu.s, peo_column(p, pmu));
	if (n < 0)
		return peo_fail(ENOMEM, "out of memory");
	if (n == 0) {
		struct peo_suggest s;
		char hint[160];

		if (memchr(pmu.s, '*', pmu.len) || memchr(pmu.s, '?', pmu.len))
			return peo_fail(ENOENT, "no PMU matches '%.*s' at column %zu (PMUs are the "
					"directories of %s)", (int)pmu.len, pmu.s,
					peo_column(p, pmu), p->pmu_dir);
		peo_suggest_init(&s, pmu.s, pmu.len);
		peo_pmu_suggest(p->pmu_dir, &s, 0);
		return peo_fail(ENOENT, "unknown PMU '%.*s' at column %zu%s (PMUs are the "
				"directories of %s)", (int)pmu.len, pmu.s, peo_column(p, pmu),
				peo_suggest_text(&s, hint, sizeof(hint)), p->pmu_dir);
	}
	for (i = 0; i < n && !err; i++)
		err = add_pmu_event(p, names[i], terms, where, n > 1);
	peo_free_names(names, n);
	return err;
}

int peo_pmu_add_alias(struct peo_parse *p, struct peo_token word)
{
	char **pmus, path[4096];
	int n = peo_list_dir(p->pmu_dir, &pmus), i, matches = 0, err = 0;

	if (n < 0)
		return n == -ENOMEM ? peo_fail(ENOMEM, "out of memory") : 0;
	/* keep the PMUs that have the alias at the front; several get pmu/alias/ names */
	for (i = 0; i < n; i++) {
		char *pmu = pmus[i];

		snprintf(path, sizeof(path), "%s/%s/events/%.*s", p->pmu_dir, pmu, (int)word.len,
			 word.s);
		if (peo_pmu_is_alias_name(path) && peo_path_exists(path)) {
			pmus[i] = pmus[matches];
			pmus[matches++] = pmu;
		}
	}
	for (i = 0; i < matches && !err; i++)
		err = add_pmu_event(p, pmus[i], word, word, matches > 1);
	peo_free_names(pmus, n);
	return err ? err : matches;
}

void peo_pmu_suggest(const char *pmu_dir, struct peo_suggest *s, int aliases)
{
	char **pmus, path[4096];
	int n = peo_list_dir(pmu_dir, &pmus), i;

	for (i = 0; i < n; i++) {
		peo_suggest_offer(s, pmus[i]);
		if (aliases) {
			snprintf(path, sizeof(path), "%s/%s/events", pmu_dir, pmus[i]);
			offer_dir(s, path, 1);
		}
	}
	if (n > 0)
		peo_free_names(pmus, n);
}
