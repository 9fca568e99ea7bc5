/*
 * script/events.h - what peo script's reading thread keeps of each event
 * of the file (script/events.c): its column of a sample line, its
 * tracepoint format, and what the output needs of its samples.
 */
#ifndef PEO_TOOLS_SCRIPT_EVENTS_H
#define PEO_TOOLS_SCRIPT_EVENTS_H

#include <stddef.h>

#include <peo/peo.h>

#include "script/entry.h"
#include "script/output.h"

struct script_run;

struct script_event {
	char *label; /* its column of a sample line, made on first use */
	size_t label_len;
	struct peo_tp_format *format; /* loaded on first use */
	int format_tried;
	/* Its samples', decided at the first: what the output needs of them,
	 * and the format their entries carry (NULL: none wanted, or none). */
	int sample_known;
	unsigned sample_needs;
	const struct peo_tp_format *sample_format;
};

/* Set run and o, the rest zeroed; script_events_free() when done. */
struct script_events {
	struct script_run *run;
	const struct script_output *o;
	/* by the event's index in the file; grows as a pipe's HEADER_ATTRs add events */
	struct script_event *v;
	size_t n;
	/* The last sample's attr and event: runs of samples share them, and
	 * looking them up was a tenth of the reading thread's work.  Set
	 * last_attr to NULL when the reader's attrs may have moved. */
	const struct peo_attr *last_attr;
	struct script_event *last;
	char pad[LABEL_MAX]; /* a column made for one line (no event index, or no memory) */
};

/* What is kept for @r's event, made room for on first sight; NULL when
 * the event has no index or memory ran out. */
struct script_event *script_events_of(struct script_events *s, const struct peo_record *r);

/* What every sample of @e's event (@attr) gets, decided once: what the
 * output needs, and the tracepoint format when it needs the raw data's. */
void script_events_decide(struct script_events *s, struct script_event *e,
			  const struct peo_attr *attr);

/* A sample's event, its samples' needs decided; NULL when it has no index
 * or memory ran out. */
static inline struct script_event *script_events_sample(struct script_events *s,
							 const struct peo_record *r)
{
	if (!r->attr)
		return NULL;
	if (r->attr != s->last_attr) { /* script_events_of() may move the events: the kept one too */
		s->last = script_events_of(s, r);
		s->last_attr = r->attr;
	}
	if (s->last && !s->last->sample_known)
		script_events_decide(s, s->last, r->attr);
	return s->last;
}

/* A sample's event column (@e's, or NULL): its label kept, else (no event
 * index, or out of memory) made in s->pad for this line; its length in *@len. */
const char *script_events_column(struct script_events *s, struct script_event *e,
				 const struct peo_record *r, size_t *len);

/* Free the labels and formats. */
void script_events_free(struct script_events *s);

#endif
