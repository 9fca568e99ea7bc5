/*
 * event_tracepoint.c - subsystem:event tracepoints, their ids read from tracefs,
 * with * and ? globs expanding to every match.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event_internal.h"

const char *peo_tracefs_dir(const char *opt)
{
	static const char *const defaults[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[64];
	size_t i;

	if (opt)
		return opt;
	for (i = 0; i < PEO_ARRAY_SIZE(defaults); i++) {
		snprintf(path, sizeof(path), "%s/events", defaults[i]);
		if (peo_path_exists(path))
			return defaults[i];
	}
	return NULL;
}

void peo_tracepoint_file(char *path, size_t cap, const char *dir, const char *sys,
			 const char *name, const char *file)
{
	snprintf(path, cap, "%s/events/%s/%s/%s", dir, sys, name, file);
}

static int add_one(struct peo_parse *p, const char *dir, const char *sys, const char *name,
		   int named, struct peo_token where)
{
	char path[4096];
	struct peo_event *ev;
	long id;
	int err;

	peo_tracepoint_file(path, sizeof(path), dir, sys, name, "id");
	err = peo_read_long_file(path, &id);
	if (err == -EACCES || err == -EPERM)
		return peo_fail(EACCES, "tracepoint '%s:%s' at column %zu: cannot read %s: %s; run as "
				"root or make tracefs readable, as root: mount -o remount,mode=755 %s "
				"(perf's advice)", sys, name, peo_column(p, where), path,
				strerror(-err), dir);
	if (err) {
		char why[400];
		struct peo_buf b = { why, sizeof(why), 0 };

		why[0] = '\0';
		peo_explain_fd_limit(&b, -err);
		return peo_fail(-err, "tracepoint '%s:%s' at column %zu: reading its id from %s: %s%s%s",
				sys, name, peo_column(p, where), path, strerror(-err),
				b.len ? ": " : "", why);
	}
	ev = peo_event_new(p->list, PEO_EVENT_KIND_TRACEPOINT, "tracepoint");
	if (!ev)
		return peo_fail(ENOMEM, "out of memory");
	ev->attr.type = PEO_TYPE_TRACEPOINT;
	ev->attr.config = (uint64_t)id;
	/* perf's parser samples every hit of a tracepoint */
	ev->attr.sample_period = 1;
	if (named) {
		char text[512];

		snprintf(text, sizeof(text), "%s:%s", sys, name);
		if (peo_event_set_string(&ev->name, text, strlen(text)))
			return peo_fail(ENOMEM, "out of memory");
		ev->expanded = 1;
	}
	return 0;
}

static int unknown_tracepoint(struct peo_parse *p, const char *dir, const char *sys,
			      const char *name, struct peo_token where)
{
	char path[4096], hint[400], probe[200];
	struct peo_suggest s;
	char **names;
	int n, i;

	snprintf(path, sizeof(path), "%s/events/%s", dir, sys);
	n = peo_list_dir(path, &names);
	if (n >= 0) {
		peo_suggest_init(&s, name, strlen(name));
		for (i = 0; i < n; i++)
			peo_suggest_offer(&s, names[i]);
		peo_free_names(names, n);
		hint[0] = '\0';
		if (peo_suggest_text(&s, probe, sizeof(probe))[0])
			snprintf(hint, sizeof(hint), ": did you mean '%s:%s'?", sys, s.best);
		return peo_fail(ENOENT, "unknown tracepoint '%s:%s' at column %zu%s%s", sys, name,
				peo_column(p, where), hint,
				hint[0] ? "" : " (its subsystem has no such event; see `peo list`)");
	}
	snprintf(path, sizeof(path), "%s/events", dir);
	peo_suggest_init(&s, sys, strlen(sys));
	n = peo_list_dir(path, &names);
	for (i = 0; i < n; i++)
		peo_suggest_offer(&s, names[i]);
	if (n > 0)
		peo_free_names(names, n);
	return peo_fail(ENOENT, "unknown event or tracepoint subsystem '%s' in '%s:%s' at column "
			"%zu%s", sys, sys, name, peo_column(p, where),
			peo_suggest_text(&s, hint, sizeof(hint)));
}

int peo_tracepoint_walk(const char *dir, const char *sys_glob, const char *name_glob,
			int sorted, int (*fn)(void *ctx, const char *sys, const char *name),
			void *ctx)
{
	char path[4096], **subsystems, **events;
	int ns, ne, i, j, r = 0;

	snprintf(path, sizeof(path), "%s/events", dir);
	ns = peo_list_dir_order(path, &subsystems, sorted);
	if (ns < 0)
		return ns;
	for (i = 0; i < ns && !r; i++) {
		if (fnmatch(sys_glob, subsystems[i], 0))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", dir, subsystems[i]);
		ne = peo_list_dir_order(path, &events, sorted);
		for (j = 0; j < ne && !r; j++) {
			if (fnmatch(name_glob, events[j], 0))
				continue;
			/* skip enable, filter and the like: only events have an id */
			peo_tracepoint_file(path, sizeof(path), dir, subsystems[i], events[j], "id");
			if (peo_path_exists(path))
				r = fn(ctx, subsystems[i], events[j]);
		}
		if (ne > 0)
			peo_free_names(events, ne);
	}
	peo_free_names(subsystems, ns);
	return r;
}

struct match_ctx {
	struct peo_parse *p;
	const char *dir;
	struct peo_token where;
	int added;
	int failed; /* an error of add_one, whose sentence is set */
};

static int add_match(void *arg, const char *sys, const char *name)
{
	struct match_ctx *m = arg;
	int err = add_one(m->p, m->dir, sys, name, 1, m->where);

	m->added += !err;
	m->failed |= err != 0;
	return err;
}

static int add_matches(struct peo_parse *p, const char *dir, const char *sys_glob,
		       const char *name_glob, struct peo_token where)
{
	/* perf keeps tracefs's own order for glob matches, not sorted */
	struct match_ctx m = { p, dir, where, 0, 0 };
	int err = peo_tracepoint_walk(dir, sys_glob, name_glob, 0, add_match, &m);

	if (m.failed)
		return err;
	if (err)
		return peo_fail(-err, "listing %s/events: %s", dir, strerror(-err));
	if (!err && !m.added)
		return peo_fail(ENOENT, "no tracepoint matches '%s:%s' at column %zu", sys_glob,
				name_glob, peo_column(p, where));
	return err;
}

/*
 * No tracefs events directory could be seen: say whether one is mounted but
 * closed to this user (tracefs mounted with mode 0700, as some
 * distributions do) or none is mounted at all.
 */
static int no_tracefs(struct peo_parse *p, struct peo_token sys, struct peo_token name)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char events[64];

	for (size_t i = 0; i < PEO_ARRAY_SIZE(dirs); i++) {
		struct stat st;
		int err;

		snprintf(events, sizeof(events), "%s/events", dirs[i]);
		if (access(events, F_OK) == 0 || (errno != EACCES && errno != EPERM))
			continue;
		err = errno;
		if (stat(dirs[i], &st))
			st.st_mode = 0, st.st_uid = 0;
		return peo_fail(EACCES, "tracepoint '%.*s:%.*s' at column %zu: tracefs is mounted at "
				"%s but this user (uid %u) cannot read it: %s (the mount's mode is "
				"%04o, owner uid %u); make it readable, as root: mount -o "
				"remount,mode=755 %s (perf's advice), or run as root",
				(int)sys.len, sys.s, (int)name.len, name.s, peo_column(p, sys), dirs[i],
				(unsigned)geteuid(), strerror(err), (unsigned)(st.st_mode & 07777),
				(unsigned)st.st_uid, dirs[i]);
	}
	return peo_fail(ENOENT, "tracepoint '%.*s:%.*s' at column %zu: tracefs is not mounted "
			"(looked in /sys/kernel/tracing and /sys/kernel/debug/tracing); as "
			"root: mount -t tracefs nodev /sys/kernel/tracing", (int)sys.len,
			sys.s, (int)name.len, name.s, peo_column(p, sys));
}

int peo_tracepoint_add(struct peo_parse *p, struct peo_token sys, struct peo_token name)
{
	const char *dir = peo_tracefs_dir(p->tracefs_opt);
	char s[256], n[256];
	int err;

	if (!name.len) {
		struct peo_token at = { name.s, 0 };

		return peo_fail(EINVAL, "expected a tracepoint name after '%.*s:' at column %zu",
				(int)sys.len, sys.s, peo_column(p, at));
	}
	if (!dir)
		return no_tracefs(p, sys, name);
	if (sys.len >= sizeof(s) || name.len >= sizeof(n))
		return peo_fail(EINVAL, "tracepoint '%.*s:%.*s' at column %zu: names are at most %zu "
				"characters", (int)sys.len, sys.s, (int)name.len, name.s,
				peo_column(p, sys), sizeof(s) - 1);
	snprintf(s, sizeof(s), "%.*s", (int)sys.len, sys.s);
	snprintf(n, sizeof(n), "%.*s", (int)name.len, name.s);
	if (strpbrk(s, "*?") || strpbrk(n, "*?"))
		return add_matches(p, dir, s, n, sys);
	err = add_one(p, dir, s, n, 0, sys);
	if (err == -ENOENT || err == -ENOTDIR)
		return unknown_tracepoint(p, dir, s, n, sys);
	return err;
}
