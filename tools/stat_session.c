/*
 * stat_session.c - open the events of a `peo stat` run as their groups,
 * each in its -G cgroup.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
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
	s->text = events;
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

/* ------------------------------------------------------------- cgroups */

static int same_cgroup(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* "cgroup 'NAME'" or "no cgroup", for sentences. */
static const char *cgroup_text(const char *cgroup, char *buf, size_t cap)
{
	if (!cgroup)
		return "no cgroup";
	snprintf(buf, cap, "cgroup '%s'", cgroup);
	return buf;
}

/* How many events the first @len bytes of the -e text name. */
static int events_before(const struct stat_session *s, size_t len, size_t *out)
{
	struct peo_event_list *l = NULL;
	char *prefix;
	int n;

	*out = 0;
	if (!len)
		return 0;
	prefix = strndup(s->text, len);
	if (!prefix) {
		fprintf(stderr, "peo stat: out of memory\n");
		return -1;
	}
	/* a prefix of whole -e options, which the full text parsed already */
	n = peo_event_parse(&l, prefix, NULL);
	if (n < 0)
		fprintf(stderr, "peo stat: -e '%s': %s\n", prefix, peo_last_error());
	free(prefix);
	peo_event_list_free(l);
	if (n < 0)
		return -1;
	*out = (size_t)n;
	return 0;
}

/* Event @e counts in cgroup @name (@len bytes; 0 for none). */
static int set_event_cgroup(struct stat_event *e, const char *name, size_t len)
{
	char *copy = NULL;

	if (len && !(copy = strndup(name, len))) {
		fprintf(stderr, "peo stat: out of memory\n");
		return -1;
	}
	free(e->cgroup);
	e->cgroup = copy;
	return 0;
}

static size_t count_names(const char *names)
{
	size_t n = 1;

	for (; *names; names++)
		n += *names == ',';
	return n;
}

static int too_many_names(const char *names, size_t earlier, size_t nev)
{
	size_t n = count_names(names);

	if (!nev)
		fprintf(stderr, "peo stat: -G '%s': no event comes before it; -G gives cgroups to "
			"the -e events named before it, in order (as perf does), so write "
			"-e EVENTS -G CGROUPS\n", names);
	else if (!earlier)
		fprintf(stderr, "peo stat: -G '%s': %zu cgroups for the %zu event%s before it; give "
			"at most one per event, in order (an empty name, as in -G a,,c, leaves "
			"that event in no cgroup)\n", names, n, nev, nev == 1 ? "" : "s");
	else
		fprintf(stderr, "peo stat: -G '%s': earlier -G options named %zu cgroup%s, this one "
			"%zu more, for the %zu event%s before it; each -G goes on from the event "
			"where the last one stopped, so give fewer names or put this -G after "
			"more -e events\n", names, earlier, earlier == 1 ? "" : "s", n, nev,
			nev == 1 ? "" : "s");
	return -1;
}

/* One -G: its names to events *given, *given + 1, ... before it. */
static int apply_cgroup_arg(struct stat_session *s, const struct stat_cgroup_arg *a,
			    size_t *given)
{
	size_t nev, earlier = *given;
	const char *p = a->names;

	if (events_before(s, a->events_len, &nev))
		return -1;
	if (earlier + count_names(a->names) > nev)
		return too_many_names(a->names, earlier, nev);
	for (;;) {
		size_t len = strcspn(p, ",");

		if (set_event_cgroup(&s->events[(*given)++], p, len))
			return -1;
		if (!p[len])
			break;
		p += len + 1;
	}
	/* perf: a first -G with one name covers every event before it */
	for (size_t i = 1; *given == 1 && i < nev; i++) {
		const char *first = s->events[0].cgroup;

		if (set_event_cgroup(&s->events[i], first, first ? strlen(first) : 0))
			return -1;
	}
	return 0;
}

/*
 * The kernel refuses a member whose cgroup is not its leader's (EINVAL),
 * and one in no cgroup would silently count in the leader's; perf prints
 * <not supported> or the wrong column.  Refuse before opening.
 */
static int check_groups(const struct stat_session *s)
{
	for (size_t i = 0; i < s->nevents; i++) {
		const struct stat_event *e = &s->events[i], *lead;
		char a[300], b[300];

		lead = &s->events[peo_event_leader(e->ev)];
		if (same_cgroup(e->cgroup, lead->cgroup))
			continue;
		fprintf(stderr, "peo stat: -G: '%s' would count in %s but its group leader '%s' in "
			"%s; a group counts only in its leader's cgroup, so give every member of "
			"the group the leader's cgroup (repeat the name once per member)\n",
			peo_event_name(e->ev), cgroup_text(e->cgroup, a, sizeof(a)),
			peo_event_name(lead->ev), cgroup_text(lead->cgroup, b, sizeof(b)));
		return -1;
	}
	return 0;
}

int stat_session_set_cgroups(struct stat_session *s, const struct stat_cgroup_arg *args,
			     size_t n)
{
	size_t given = 0;

	for (size_t i = 0; i < n; i++)
		if (apply_cgroup_arg(s, &args[i], &given))
			return -1;
	return check_groups(s);
}

/* ------------------------------------------------------------- opening */

/* The target of @where in @cgroup (NULL: @where itself), made once per open. */
static struct peo_target *target_for(struct stat_session *s, const struct peo_target_opts *where,
				     const char *cgroup)
{
	struct peo_target_opts o = *where;
	struct stat_target *more, *t;

	for (size_t i = 0; i < s->ntargets; i++)
		if (same_cgroup(s->targets[i].cgroup, cgroup))
			return s->targets[i].target;
	more = realloc(s->targets, (s->ntargets + 1) * sizeof(*more));
	if (!more) {
		fprintf(stderr, "peo stat: out of memory\n");
		return NULL;
	}
	s->targets = more;
	t = &s->targets[s->ntargets];
	memset(t, 0, sizeof(*t));
	if (cgroup) {
		o.kind = PEO_TARGET_CGROUP;
		o.cgroup = cgroup;
	}
	if (peo_target_new(&t->target, &o)) {
		fprintf(stderr, "peo stat: %s%s\n", cgroup ? "-G: " : "", peo_last_error());
		return NULL;
	}
	t->cgroup = cgroup ? strdup(cgroup) : NULL;
	if (cgroup && !t->cgroup) {
		peo_target_free(t->target);
		fprintf(stderr, "peo stat: out of memory\n");
		return NULL;
	}
	s->ntargets++;
	return t->target;
}

static void free_targets(struct stat_session *s)
{
	for (size_t i = 0; i < s->ntargets; i++) {
		peo_target_free(s->targets[i].target);
		free(s->targets[i].cgroup);
	}
	free(s->targets);
	s->targets = NULL;
	s->ntargets = 0;
}

static void read_comm(struct stat_session *s, size_t i)
{
	char path[64];
	FILE *f;

	s->comms[i][0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)s->tids[i]);
	f = s->tids[i] > 0 ? fopen(path, "re") : NULL;
	if (f && fgets(s->comms[i], sizeof(s->comms[i]), f))
		s->comms[i][strcspn(s->comms[i], "\n")] = '\0';
	if (f)
		fclose(f);
}

void stat_session_reread_comm(struct stat_session *s, pid_t tid)
{
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->tids[i] == tid)
			read_comm(s, i);
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
		s->tids[i] = peo_target_thread(t, i);
		read_comm(s, i);
	}
	return 0;
}

/* stat_session_open() once; -ESRCH unprinted when @quiet_esrch, -EAGAIN
 * after the paranoid fallback. */
static int open_once(struct stat_session *s, const struct peo_target_opts *where,
		     const struct peo_counter_opts *opts, int quiet_esrch)
{
	struct peo_target *base = target_for(s, where, NULL);
	size_t i = 0;

	s->ngroups = 0;
	if (!base || remember_target(s, base))
		return -1;
	while (i < s->nevents) {
		size_t n = 1;
		struct peo_target *t;
		struct peo_group *g;
		int err;

		while (i + n < s->nevents && peo_event_leader(s->events[i + n].ev) == i)
			n++;
		t = target_for(s, where, s->events[i].cgroup); /* check_groups: members share it */
		if (!t)
			return -1;
		err = peo_group_open_events(&g, s->list, i, n, t, opts);
		if (err == -ESRCH && quiet_esrch)
			return -ESRCH;
		if (!s->user_fallback && user_fallback(s->list, err, "stat", "counting")) {
			s->user_fallback = 1;
			return -EAGAIN;
		}
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

#define LIST_TRIES 10 /* listings of every thread before an ESRCH is final */

int stat_session_open(struct stat_session *s, const struct peo_target_opts *where,
		      const struct peo_counter_opts *opts)
{
	int all = where->kind == PEO_TARGET_ALL_THREADS, err;

	for (int try = 1;; try++) {
		err = open_once(s, where, opts, all && try < LIST_TRIES);
		if (err != -ESRCH && err != -EAGAIN)
			return err ? -1 : 0;
		stat_session_close(s); /* a thread ended since the listing, or the events
					* became :u: open again */
	}
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
	free_targets(s);
}

void stat_session_free(struct stat_session *s)
{
	stat_session_close(s);
	for (size_t i = 0; s->events && i < s->nevents; i++)
		free(s->events[i].cgroup);
	peo_event_list_free(s->list);
	free(s->events);
	free(s->groups);
	free(s->cpus);
	free(s->tids);
	free(s->comms);
	memset(s, 0, sizeof(*s));
}
