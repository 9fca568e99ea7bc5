/*
 * event.c - the event and event-list objects and their accessors.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "event_internal.h"

struct peo_event *peo_event_new(struct peo_event_list *list, enum peo_event_kind kind,
				const char *pmu)
{
	struct peo_event *ev;

	if (list->count == list->cap) {
		size_t cap = list->cap ? list->cap * 2 : 8;
		struct peo_event **grown = realloc(list->events, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		list->events = grown;
		list->cap = cap;
	}
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return NULL;
	if (peo_event_set_string(&ev->pmu, pmu, strlen(pmu))) {
		free(ev);
		return NULL;
	}
	peo_attr_init(&ev->attr);
	/* perf counts the host only unless told otherwise. */
	ev->attr.exclude_guest = 1;
	ev->kind = kind;
	ev->scale = 1.0;
	ev->leader = list->count;
	list->events[list->count++] = ev;
	return ev;
}

int peo_event_set_string(char **field, const char *s, size_t len)
{
	char *copy = malloc(len + 1);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, s, len);
	copy[len] = '\0';
	free(*field);
	*field = copy;
	return 0;
}

int peo_token_number(struct peo_token t, uint64_t *out)
{
	char text[32], *end;

	/* strtoull would skip spaces and take a sign: "- 1" is not a number here */
	if (t.len == 0 || t.len >= sizeof(text) || !isxdigit((unsigned char)t.s[0]))
		return -EINVAL;
	memcpy(text, t.s, t.len);
	text[t.len] = '\0';
	errno = 0;
	*out = strtoull(text, &end, 0);
	if (*end || errno)
		return -EINVAL;
	return 0;
}

void peo_event_list_free(struct peo_event_list *list)
{
	size_t i;

	if (!list)
		return;
	for (i = 0; i < list->count; i++) {
		struct peo_event *ev = list->events[i];

		free(ev->name);
		free(ev->pmu);
		free(ev->unit);
		free(ev->probe_target);
		free(ev);
	}
	free(list->events);
	free(list);
}

size_t peo_event_list_count(const struct peo_event_list *list)
{
	return list ? list->count : 0;
}

const struct peo_event *peo_event_list_get(const struct peo_event_list *list, size_t index)
{
	return list && index < list->count ? list->events[index] : NULL;
}

const struct peo_attr *peo_event_attr(const struct peo_event *ev)
{
	return &ev->attr;
}

const char *peo_event_name(const struct peo_event *ev)
{
	return ev->name ? ev->name : "";
}

const char *peo_event_pmu(const struct peo_event *ev)
{
	return ev->pmu;
}

enum peo_event_kind peo_event_kind(const struct peo_event *ev)
{
	return ev->kind;
}

const char *peo_event_kind_name(enum peo_event_kind kind)
{
	static const char *const names[] = {
		[PEO_EVENT_KIND_HARDWARE] = "hardware", [PEO_EVENT_KIND_SOFTWARE] = "software",
		[PEO_EVENT_KIND_CACHE] = "cache",       [PEO_EVENT_KIND_RAW] = "raw",
		[PEO_EVENT_KIND_PMU] = "pmu",           [PEO_EVENT_KIND_TRACEPOINT] = "tracepoint",
		[PEO_EVENT_KIND_BREAKPOINT] = "breakpoint", [PEO_EVENT_KIND_UPROBE] = "uprobe",
		[PEO_EVENT_KIND_KPROBE] = "kprobe",
	};

	if ((unsigned)kind < PEO_ARRAY_SIZE(names))
		return names[kind];
	return "unknown";
}

size_t peo_event_leader(const struct peo_event *ev)
{
	return ev->leader;
}

unsigned int peo_event_flags(const struct peo_event *ev)
{
	return ev->flags;
}

double peo_event_scale(const struct peo_event *ev)
{
	return ev->scale;
}

const char *peo_event_unit(const struct peo_event *ev)
{
	return ev->unit ? ev->unit : "";
}
