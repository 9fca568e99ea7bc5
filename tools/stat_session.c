/*
 * stat_session.c - open the events of a `peo stat` run as their groups.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat_session.h"

int stat_session_parse(struct stat_session *s, const char *events)
{
	int n;

	memset(s, 0, sizeof(*s));
	n = peo_event_parse(&s->list, events, NULL);
	if (n < 0) {
		fprintf(stderr, "peo stat: -e '%s': %s\n", events, peo_last_error());
		return -1;
	}
	s->nevents = (size_t)n;
	s->events = calloc(s->nevents, sizeof(*s->events));
	s->groups = calloc(s->nevents, sizeof(*s->groups));
	if (!s->events || !s->groups) {
		fprintf(stderr, "peo stat: out of memory\n");
		return -1;
	}
	for (size_t i = 0; i < s->nevents; i++)
		s->events[i].ev = peo_event_list_get(s->list, i);
	return 0;
}

/* What perf shows as <not supported> instead of stopping. */
static int machine_lacks_it(int err)
{
	return err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV || err == -ENXIO;
}

static void remember_comms(struct stat_session *s, const struct peo_target *t)
{
	size_t n = peo_target_thread_count(t);

	s->comms = calloc(n, sizeof(*s->comms));
	for (size_t i = 0; s->comms && i < n; i++) {
		char path[64];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/comm", (int)peo_target_thread(t, i));
		f = fopen(path, "re");
		if (f && fgets(s->comms[i], sizeof(s->comms[i]), f))
			s->comms[i][strcspn(s->comms[i], "\n")] = '\0';
		if (f)
			fclose(f);
	}
}

int stat_session_open(struct stat_session *s, const struct peo_target *target,
		      const struct peo_counter_opts *opts)
{
	size_t i = 0;

	s->target = target;
	s->ngroups = 0;
	while (i < s->nevents) {
		size_t n = 1;
		struct peo_group *g;
		int err;

		while (i + n < s->nevents && peo_event_leader(s->events[i + n].ev) == i)
			n++;
		err = peo_group_open_events(&g, s->list, i, n, target, opts);
		if (err && !machine_lacks_it(err)) {
			fprintf(stderr, "peo stat: %s\n", peo_last_error());
			return -1;
		}
		for (size_t m = 0; m < n; m++) {
			s->events[i + m].group = err ? NULL : g;
			s->events[i + m].member = m;
			s->events[i + m].open_errno = err ? -err : 0;
		}
		if (!err)
			s->groups[s->ngroups++] = g;
		i += n;
	}
	free(s->comms);
	remember_comms(s, target);
	return 0;
}

int stat_session_read(struct stat_session *s)
{
	for (size_t i = 0; i < s->ngroups; i++)
		if (peo_group_read(s->groups[i], NULL, 0) < 0) {
			fprintf(stderr, "peo stat: %s\n", peo_last_error());
			return -1;
		}
	return 0;
}

void stat_session_count(const struct stat_session *s, size_t i, enum peo_count_by by,
			size_t index, struct peo_count *out)
{
	const struct stat_event *e = &s->events[i];
	struct peo_count counts[64], *all = counts;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!e->group)
		return;
	n = peo_group_size(e->group);
	if (n > 64 && !(all = calloc(n, sizeof(*all))))
		return;
	if (peo_group_counts(e->group, by, index, all, n) > 0)
		*out = all[e->member];
	if (all != counts)
		free(all);
}

void stat_session_close(struct stat_session *s)
{
	for (size_t i = 0; i < s->ngroups; i++)
		peo_group_close(s->groups[i]);
	for (size_t i = 0; i < s->nevents; i++)
		s->events[i].group = NULL;
	s->ngroups = 0;
}

void stat_session_free(struct stat_session *s)
{
	stat_session_close(s);
	peo_event_list_free(s->list);
	free(s->events);
	free(s->groups);
	free(s->comms);
	memset(s, 0, sizeof(*s));
}
