/*
 * cmd_list.c - `peo list [--json] [PATTERN]`: every event this machine
 * offers, grouped by kind, each tried with perf_event_open so the ones this
 * machine cannot count are marked (tracepoints only when few, or asked).
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <peo/peo.h>

#include "commands.h"

struct list_ctx {
	const char *pattern;
	int json;
	int last_kind;
	unsigned shown;
	unsigned unopenable;
};

/* perf's kind words for `perf list KIND`. */
static int pattern_is_kind(const char *pattern, enum peo_event_kind kind)
{
	static const struct {
		const char *word;
		enum peo_event_kind kind;
	} words[] = {
		{ "hw", PEO_EVENT_KIND_HARDWARE },     { "hardware", PEO_EVENT_KIND_HARDWARE },
		{ "sw", PEO_EVENT_KIND_SOFTWARE },     { "software", PEO_EVENT_KIND_SOFTWARE },
		{ "cache", PEO_EVENT_KIND_CACHE },     { "hwcache", PEO_EVENT_KIND_CACHE },
		{ "pmu", PEO_EVENT_KIND_PMU },         { "tracepoint", PEO_EVENT_KIND_TRACEPOINT },
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(pattern, words[i].word))
			return words[i].kind == kind ? 1 : 0;
	return -1;
}

static int matches(const struct list_ctx *c, const struct peo_event_info *info)
{
	int k;

	if (!c->pattern)
		return 1;
	k = pattern_is_kind(c->pattern, info->kind);
	if (k >= 0)
		return k;
	if (strpbrk(c->pattern, "*?["))
		return !fnmatch(c->pattern, info->name, 0);
	return strcasestr(info->name, c->pattern) || strcasestr(info->aliases, c->pattern);
}

/* Open every event the name expands to on this thread; 0 or -errno with @why. */
static int try_open(const char *name, char *why, size_t cap)
{
	struct peo_event_list *list;
	int n = peo_event_parse(&list, name, NULL), i, fd, err = 0;

	if (n < 0) {
		snprintf(why, cap, "%s", peo_last_error());
		return n;
	}
	for (i = 0; i < n && !err; i++) {
		fd = peo_event_open(peo_event_list_get(list, (size_t)i), NULL, 0, -1, -1,
				    PEO_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			err = fd;
			snprintf(why, cap, "%s", peo_last_error());
		} else {
			close(fd);
		}
	}
	peo_event_list_free(list);
	return err;
}

static const char *kind_title(enum peo_event_kind kind)
{
	switch (kind) {
	case PEO_EVENT_KIND_SOFTWARE: return "Software events";
	case PEO_EVENT_KIND_HARDWARE: return "Hardware events";
	case PEO_EVENT_KIND_CACHE: return "Hardware cache events";
	case PEO_EVENT_KIND_PMU: return "Kernel PMU events";
	case PEO_EVENT_KIND_TRACEPOINT: return "Tracepoints";
	default: return peo_event_kind_name(kind);
	}
}

static void print_json(const struct peo_event_info *info, int untried, int err,
		       const char *why)
{
	printf("{\"name\":");
	json_print_string(stdout, info->name);
	printf(",\"aliases\":");
	json_print_string(stdout, info->aliases);
	printf(",\"kind\":\"%s\",\"pmu\":", peo_event_kind_name(info->kind));
	json_print_string(stdout, info->pmu);
	if (info->alias_of) {
		printf(",\"alias_of\":");
		json_print_string(stdout, info->alias_of);
	}
	if (untried) {
		printf(",\"openable\":null}\n");
		return;
	}
	printf(",\"openable\":%s", err ? "false" : "true");
	if (err) {
		printf(",\"reason\":");
		json_print_string(stdout, why);
	}
	printf("}\n");
}

static void print_text(struct list_ctx *c, const struct peo_event_info *info, int err)
{
	char shown[512];

	if ((int)info->kind != c->last_kind) {
		printf("%s%s:\n", c->last_kind < 0 ? "" : "\n", kind_title(info->kind));
		c->last_kind = (int)info->kind;
	}
	if (info->aliases[0])
		snprintf(shown, sizeof(shown), "%s OR %s", info->name, info->aliases);
	else
		snprintf(shown, sizeof(shown), "%s", info->name);
	printf("  %-50s [%s]%s\n", shown, info->description,
	       err ? "  (cannot open here)" : "");
}

/* One listed name, copied out of peo_event_foreach's callback. */
struct entry {
	struct peo_event_info info;
	int err;
	int untried;
	char *why;
};

/*
 * Closing a tracepoint event costs this kernel one RCU grace period under a
 * global mutex (about 33 ms here), so trying thousands takes over a minute:
 * beyond this many, tracepoints are listed untried unless --check-all.
 */
#define MAX_TRIED_TRACEPOINTS 100

struct entries {
	struct list_ctx *ctx;
	struct entry *v;
	size_t n, cap;
	size_t next; /* the next entry a checker thread takes */
	pthread_mutex_t lock;
};

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

static int collect(const struct peo_event_info *info, void *arg)
{
	struct entries *e = arg;
	struct entry *slot;

	if (!matches(e->ctx, info))
		return 0;
	if (e->n == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 256;
		struct entry *grown = realloc(e->v, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		e->v = grown;
		e->cap = cap;
	}
	slot = &e->v[e->n];
	memset(slot, 0, sizeof(*slot));
	slot->info.kind = info->kind;
	slot->info.name = dup_or_empty(info->name);
	slot->info.aliases = dup_or_empty(info->aliases);
	slot->info.pmu = dup_or_empty(info->pmu);
	slot->info.alias_of = info->alias_of ? strdup(info->alias_of) : NULL;
	slot->info.description = dup_or_empty(info->description);
	e->n++;
	if (!slot->info.name || !slot->info.aliases || !slot->info.pmu || !slot->info.description ||
	    (info->alias_of && !slot->info.alias_of))
		return -ENOMEM;
	return 0;
}

static void free_const(const char *s)
{
	free((void *)(uintptr_t)s);
}

static void free_entries(struct entries *e)
{
	size_t i;

	for (i = 0; i < e->n; i++) {
		free_const(e->v[i].info.name);
		free_const(e->v[i].info.aliases);
		free_const(e->v[i].info.pmu);
		free_const(e->v[i].info.alias_of);
		free_const(e->v[i].info.description);
		free(e->v[i].why);
	}
	free(e->v);
}

/*
 * Closing a tracepoint event waits for an RCU grace period (tens of ms), so
 * the names are tried from many threads at once: their waits overlap.
 */
static void *checker(void *arg)
{
	struct entries *e = arg;
	char why[1024];

	for (;;) {
		size_t i;

		pthread_mutex_lock(&e->lock);
		i = e->next++;
		pthread_mutex_unlock(&e->lock);
		if (i >= e->n)
			return NULL;
		if (e->v[i].untried)
			continue;
		why[0] = '\0';
		e->v[i].err = try_open(e->v[i].info.name, why, sizeof(why));
		if (e->v[i].err)
			e->v[i].why = strdup(why);
	}
}

static unsigned mark_untried(struct entries *e, int check_all)
{
	size_t i, tracepoints = 0;

	for (i = 0; i < e->n; i++)
		tracepoints += e->v[i].info.kind == PEO_EVENT_KIND_TRACEPOINT;
	if (check_all || tracepoints <= MAX_TRIED_TRACEPOINTS)
		return 0;
	for (i = 0; i < e->n; i++)
		e->v[i].untried = e->v[i].info.kind == PEO_EVENT_KIND_TRACEPOINT;
	return (unsigned)tracepoints;
}

static void check_all(struct entries *e)
{
	pthread_t threads[64];
	size_t n = e->n < 64 ? e->n : 64, started = 0, i;

	for (i = 0; i < n; i++)
		if (thread_start(&threads[started], checker, e) == 0)
			started++;
	if (!started)
		checker(e);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
}

static void usage(FILE *out)
{
	fprintf(out, "usage: peo list [--json] [--check-all] [PATTERN]\n"
		     "  PATTERN  a glob (sched:*), a substring, or a kind: hw, sw, cache, pmu, "
		     "tracepoint\n"
		     "  --json   one JSON object per event (openable: true, false with a reason,\n"
		     "           or null when not tried)\n"
		     "  --check-all  try every tracepoint too, even thousands (slow)\n");
}

int cmd_list(int argc, char **argv)
{
	struct list_ctx c = { .last_kind = -1 };
	struct entries e = { .ctx = &c, .lock = PTHREAD_MUTEX_INITIALIZER };
	unsigned untried;
	int i, r, check_every = 0;
	size_t n;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			c.json = 1;
		} else if (!strcmp(argv[i], "--check-all")) {
			check_every = 1;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-' || c.pattern) {
			fprintf(stderr, "peo list: unexpected argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else {
			c.pattern = argv[i];
		}
	}
	r = peo_event_foreach(collect, &e, NULL);
	if (r < 0) {
		fprintf(stderr, "peo list: %s\n", r == -ENOMEM ? "out of memory" : peo_last_error());
		free_entries(&e);
		return 1;
	}
	untried = mark_untried(&e, check_every);
	check_all(&e);
	for (n = 0; n < e.n; n++) {
		struct entry *en = &e.v[n];

		c.shown++;
		c.unopenable += en->err != 0;
		if (c.json)
			print_json(&en->info, en->untried, en->err, en->why ? en->why : "");
		else
			print_text(&c, &en->info, en->err);
	}
	free_entries(&e);
	pthread_mutex_destroy(&e.lock);
	if (!c.json && c.shown) {
		printf("\n%u events, %u cannot be opened on this machine%s\n", c.shown,
		       c.unopenable, c.unopenable ? " (peo list --json gives each one's reason)" : "");
		if (untried)
			printf("%u tracepoints were listed without trying them: closing each costs "
			       "the kernel ~30 ms; give a pattern ('sched:*') or --check-all\n",
			       untried);
	}
	if (c.pattern && !c.shown) {
		fprintf(stderr, "peo list: no event matches '%s'\n", c.pattern);
		return 1;
	}
	return 0;
}
