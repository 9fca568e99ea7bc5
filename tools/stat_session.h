/*
 * stat_session.h - the events of one `peo stat` run: parsed, given their
 * -G cgroups, opened as their groups, read, and reported per event, CPU or
 * thread.
 * Built only on libpeo's public API.
 */
#ifndef PEO_TOOLS_STAT_SESSION_H
#define PEO_TOOLS_STAT_SESSION_H

#include <peo/peo.h>

struct stat_event {
	const struct peo_event *ev;
	struct peo_group *group; /* NULL when the event could not be opened */
	size_t member;           /* its index in the group */
	int open_errno;          /* why it could not be opened, or 0 */
	char *cgroup;            /* -G: the cgroup it counts in, or NULL */
};

/* One -G option: its comma list and where on the command line it stood. */
struct stat_cgroup_arg {
	const char *names;  /* "a,b", "a,,c"; an empty name means no cgroup */
	size_t events_len;  /* strlen of the joined -e text given before it */
};

/* A target the session made, and the cgroup it names (NULL: none). */
struct stat_target {
	char *cgroup;
	struct peo_target *target;
};

struct stat_session {
	struct peo_event_list *list;
	const char *text;  /* the event text parsed (not owned) */
	struct stat_event *events;
	size_t nevents;
	struct peo_group **groups;
	size_t ngroups;
	int user_fallback;      /* perf_event_paranoid refused kernel mode: the events became :u */
	struct stat_target *targets; /* while open: the CPUs, then one per cgroup */
	size_t ntargets;
	/* What the last open's target named, kept after it is freed: */
	int *cpus;         /* its CPUs (-1: any) */
	size_t ncpus;
	pid_t *tids;       /* its threads (0 self, -1 every task) */
	/* and their names when opened: /proc's comm, longer than a task's
	 * 15 characters for kernel threads ("kworker/u8:0-ext4-rsv-conversion") */
	char (*comms)[64];
	size_t nthreads;
};

/* Parse @events into @s; returns 0 or prints the parse error and returns -1. */
int stat_session_parse(struct stat_session *s, const char *events);

/*
 * Give the events the cgroups of @n -G options, as perf does: each -G's
 * names go to the events given before it, in order, continuing where the
 * previous -G stopped; a lone first name goes to every event before it.
 * Returns 0, or prints what is wrong (more names than events, a group
 * split over cgroups) and returns -1.
 */
int stat_session_set_cgroups(struct stat_session *s, const struct stat_cgroup_arg *args,
			     size_t n);

/*
 * Open every group on the target @where names (the event's cgroup, if it
 * has one, on @where's CPUs).  Events the machine lacks (ENOENT,
 * EOPNOTSUPP, ENODEV, ENXIO) are kept as unsupported; any other failure
 * is printed and returns -1.  PEO_TARGET_ALL_THREADS is listed again when
 * a thread ended between the listing and its open (ESRCH), as perf drops
 * such a thread.
 */
int stat_session_open(struct stat_session *s, const struct peo_target_opts *where,
		      const struct peo_counter_opts *opts);

/* Read thread @tid's name again (a command listed before its exec). */
void stat_session_reread_comm(struct stat_session *s, pid_t tid);

/* Enable or disable every open group; -1 (printed) on failure. */
int stat_session_enable(struct stat_session *s, int enable);

/* Read every open group once; -1 (printed) on failure. */
int stat_session_read(struct stat_session *s);

/* Event @i's count summed as @by/@index selects (zeros when unsupported). */
void stat_session_count(const struct stat_session *s, size_t i, enum peo_count_by by,
			size_t index, struct peo_count *out);

/* Close the groups and targets (the parse and cgroups stay for the next run). */
void stat_session_close(struct stat_session *s);

/* Close and free everything. */
void stat_session_free(struct stat_session *s);

#endif
