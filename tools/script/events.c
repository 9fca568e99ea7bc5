/*
 * script/events.c - what peo script's reading thread keeps of each event
 * of the file: its column of a sample line and its tracepoint format,
 * made once, and what the output needs of its samples, decided at the
 * first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script/events.h"
#include "script/run.h"

struct script_event *script_events_of(struct script_events *s, const struct peo_record *r)
{
	int i = peo_perfdata_event_of(s->run->f, r->attr);
	struct script_event *more;
	size_t want;

	if (i < 0)
		return NULL;
	if ((size_t)i < s->n)
		return &s->v[i];
	want = (size_t)i + 1;
	more = realloc(s->v, want * sizeof(*more));
	if (!more)
		return NULL;
	memset(more + s->n, 0, (want - s->n) * sizeof(*more));
	s->v = more;
	s->n = want;
	return &s->v[i];
}

/* A sample's event column, made by the output in @buf (@cap bytes).  Returns its length. */
static size_t column_now(struct script_events *s, const struct peo_record *r, char *buf, size_t cap)
{
	int i = peo_perfdata_event_of(s->run->f, r->attr);
	const char *name = i >= 0 ? peo_perfdata_event_name(s->run->f, (size_t)i) : NULL;

	if (!name)
		name = i >= 0 ? "event" : "unknown";
	return s->o->column(s->run, name, buf, cap);
}

/* The event's column of a sample line, made once per event; NULL when
 * the event has no index or memory ran out. */
static const char *event_label(struct script_events *s, struct script_event *e,
			       const struct peo_record *r, size_t *len)
{
	if (!e)
		return NULL;
	if (!e->label) {
		char text[LABEL_MAX];

		e->label_len = column_now(s, r, text, sizeof(text));
		e->label = strndup(text, e->label_len);
	}
	*len = e->label_len;
	return e->label;
}

const char *script_events_column(struct script_events *s, struct script_event *e,
				 const struct peo_record *r, size_t *len)
{
	const char *label = event_label(s, e, r, len);

	if (label)
		return label;
	*len = column_now(s, r, s->pad, sizeof(s->pad));
	return s->pad;
}

/* The tracepoint format of the sample's event: the file's TRACING_DATA, else tracefs. */
static struct peo_tp_format *format_of(struct script_events *s, struct script_event *e)
{
	const char *name, *colon;
	char sys[128], tp[256];

	if (!e)
		return NULL;
	if (!e->format_tried) {
		e->format_tried = 1;
		name = peo_perfdata_event_name(s->run->f, (size_t)(e - s->v));
		colon = name ? strchr(name, ':') : NULL;
		if (colon) { /* "sys:name", modifiers (":u") after: the file's format, else this machine's */
			snprintf(sys, sizeof(sys), "%.*s", (int)(colon - name), name);
			snprintf(tp, sizeof(tp), "%.*s", (int)strcspn(colon + 1, ":"), colon + 1);
			if (peo_perfdata_tp_format(s->run->f, sys, tp, &e->format) &&
			    peo_tp_format_load(&e->format, NULL, sys, tp))
				e->format = NULL;
		}
	}
	return e->format;
}

void script_events_decide(struct script_events *s, struct script_event *e,
			  const struct peo_attr *attr)
{
	e->sample_known = 1;
	e->sample_needs = s->o->sample_needs(&s->run->a, attr);
	e->sample_format = (e->sample_needs & F_TRACE) && (attr->sample_type & PEO_SAMPLE_RAW) &&
					   attr->type == PEO_TYPE_TRACEPOINT
				   ? format_of(s, e)
				   : NULL;
}

void script_events_free(struct script_events *s)
{
	for (size_t i = 0; i < s->n; i++) {
		peo_tp_format_free(s->v[i].format);
		free(s->v[i].label);
	}
	free(s->v);
}
