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

/* Keep the target's CPUs and threads (and thread names) for printing. */
static int remember_target(struct stat_session *s, const struct peo_target *t)
{
	s->ncpus = peo_target_cpu_count(t);
	s->nthreads = peo_target_thread_count(t);
	free(s->cpus);
	free(s->tids);
	free(s->comms);
	s->cpus = calloc(s->ncpus, sizeof(*s->cpus));
	s->tids = calloc(s->nthreads, sizeof(*s->tids));
	s->comms = calloc(s->nthreads, sizeof(*s->comms));
	if (!s->cpus || !s->tids || !s->comms) {
		fprintf(stderr, "peo stat: out of memory\n");
		return -1;
	}
	for (size_t i = 0; i < s->ncpus; i++)
		s->cpus[i] = peo_target_cpu(t, i);
	for (size_t i = 0; i < s->nthreads; i++) {
		char path[64];
		FILE *f;

		s->tids[i] = peo_target_thread(t, i);
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)s->tids[i]);
		f = s->tids[i] > 0 ? fopen(path, "re") : NULL;
		if (f && fgets(s->comms[i], sizeof(s->comms[i]), f))
			s->comms[i][strcspn(s->comms[i], "\n")] = '\0';
		if (f)
			fclose(f);
	}
	return 0;
}

int stat_session_open(struct stat_session *s, const struct peo_target *target,
		      const struct peo_counter_opts *opts)
{
	size_t i = 0;

	s->ngroups = 0;
	if (remember_target(s, target))
		return -1;
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
	return 0;
}

int stat_session_enable(struct stat_session *s, int enable)
{
	for (size_t i = 0; i < s->ngroups; i++)
		if ((enable ? peo_group_enable : peo_group_disable)(s->groups[i]) < 0) {
			fprintf(stderr, "peo stat: %s\n", peo_last_error());
			return -1;
		}
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
	free(s->cpus);
	free(s->tids);
	free(s->comms);
	memset(s, 0, sizeof(*s));
}
