/*
 * target.c - what to count, resolved into CPUs and threads: CPU lists,
 * the online CPUs, processes' threads from /proc (one process, a list of
 * them, or every one), thread lists, a cgroup directory.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counter_internal.h"

#define CPU_LIST_MAX 8192 /* CPUs a list may name: the kernel's NR_CPUS ceiling */

/* Add CPUs @lo..@hi to @t once each, in ascending order of first mention. */
static int add_cpu_range(struct peo_target *t, long lo, long hi)
{
	for (long c = lo; c <= hi; c++) {
		size_t i;
		int *grown;

		for (i = 0; i < t->ncpus && t->cpus[i] != c; i++)
			;
		if (i < t->ncpus)
			continue;
		grown = realloc(t->cpus, (t->ncpus + 1) * sizeof(*t->cpus));
		if (!grown)
			return peo_fail(ENOMEM, "out of memory for the CPU list");
		t->cpus = grown;
		t->cpus[t->ncpus++] = (int)c;
	}
	return 0;
}

int peo_cpu_list_parse(struct peo_target *t, const char *list, const char *what)
{
	const char *p = list;

	if (!*p)
		return peo_fail(EINVAL, "%s: the CPU list is empty; give CPUs such as \"0-3,6\"", what);
	while (*p) {
		char *end;
		long lo, hi;

		if (*p < '0' || *p > '9')
			goto bad;
		lo = hi = strtol(p, &end, 10);
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				goto bad;
			hi = strtol(p, &end, 10);
			p = end;
		}
		if (lo > hi || hi >= CPU_LIST_MAX)
			return peo_fail(EINVAL, "%s: CPU range %ld-%ld in \"%s\" is %s", what, lo, hi,
					list, lo > hi ? "backwards" : "past the largest CPU number Linux allows");
		if (add_cpu_range(t, lo, hi))
			return -ENOMEM;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	return peo_fail(EINVAL, "%s: unexpected '%c' at offset %td of CPU list \"%s\"; "
			"write CPUs as \"0-3,6\"", what, *p ? *p : ' ', p - list, list);
}

int peo_cpu_list_parse_tolerated(struct peo_target *t, const char *list)
{
	int err;

	peo_error_quiet(1);
	err = peo_cpu_list_parse(t, list, "a sysfs list");
	peo_error_quiet(0);
	return err;
}

/* Every online CPU, from sysfs (a CPU list itself). */
static int online_cpus(struct peo_target *t)
{
	const char *path = "/sys/devices/system/cpu/online";
	char *text = peo_read_text_file(path);
	int err;

	if (!text) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		if (n < 1)
			return peo_fail(ENOENT, "cannot read %s to find the online CPUs", path);
		return add_cpu_range(t, 0, n - 1);
	}
	err = peo_cpu_list_parse(t, text, path);
	free(text);
	return err;
}

/* Refuse CPUs that do not exist or are offline, naming the one at fault. */
static int check_cpus_online(struct peo_target *t, const char *what)
{
	struct peo_target online = { 0 };
	int err = online_cpus(&online);

	for (size_t i = 0; !err && i < t->ncpus; i++) {
		size_t j;

		for (j = 0; j < online.ncpus && online.cpus[j] != t->cpus[i]; j++)
			;
		if (j == online.ncpus)
			err = peo_fail(ENOENT, "%s: CPU %d is not online (online: %d CPUs, see "
				       "/sys/devices/system/cpu/online)", what, t->cpus[i], (int)online.ncpus);
	}
	free(online.cpus);
	return err;
}

static int add_thread(struct peo_target *t, pid_t tid)
{
	pid_t *grown = realloc(t->threads, (t->nthreads + 1) * sizeof(*t->threads));

	if (!grown)
		return peo_fail(ENOMEM, "out of memory for the thread list");
	t->threads = grown;
	t->threads[t->nthreads++] = tid;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Sort the threads by id and drop repeats (a list may name one twice). */
static void sort_threads(struct peo_target *t)
{
	size_t kept = 0;

	qsort(t->threads, t->nthreads, sizeof(*t->threads), cmp_pid);
	for (size_t i = 0; i < t->nthreads; i++)
		if (!kept || t->threads[kept - 1] != t->threads[i])
			t->threads[kept++] = t->threads[i];
	t->nthreads = kept;
}

/* Every thread of process @pid; @who starts the error sentences. */
static int process_threads(struct peo_target *t, pid_t pid, const char *who)
{
	char dir[64], **names;
	int n, err = 0;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	n = peo_list_dir(dir, &names);
	if (n < 0)
		return peo_fail(n == -ENOENT ? ESRCH : -n, "%s: cannot list %s: %s%s", who, dir,
				strerror(-n), n == -ENOENT ? "; no such process (has it exited?)" : "");
	for (int i = 0; i < n && !err; i++)
		err = add_thread(t, (pid_t)atoi(names[i]));
	peo_free_names(names, n);
	if (!err && !n)
		err = peo_fail(ESRCH, "%s: %s lists no threads; the process has exited", who, dir);
	return err;
}

static int one_thread(struct peo_target *t, pid_t tid, const char *who)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d", (int)tid);
	if (!peo_path_exists(path) && kill(tid, 0) && errno == ESRCH)
		return peo_fail(ESRCH, "%s: no such thread (no %s)", who, path);
	return add_thread(t, tid);
}

/*
 * The next id of a list such as "1234, 5678" (item @item, from 1) at *@pos:
 * blanks before an id are skipped and one trailing comma ends the list, as
 * perf's -p and -t read them.  Returns 1 with *@id set, 0 at the end, or
 * -EINVAL naming the item.
 */
static int next_list_id(const char **pos, const char *list, const char *what, int item,
			pid_t *id)
{
	const char *p = *pos;
	size_t len;
	char *end;
	long v;

	if (!*p)
		return item > 1 ? 0 : peo_fail(EINVAL, "%s \"\": the list is empty; give ids "
					       "separated by commas, such as \"1234,5678\"", what);
	while (isspace((unsigned char)*p))
		p++;
	errno = 0;
	v = isdigit((unsigned char)*p) ? strtol(p, &end, 10) : 0;
	if (v > 0 && v <= INT_MAX && !errno && (*end == ',' || !*end)) {
		*id = (pid_t)v;
		*pos = *end ? end + 1 : end;
		return 1;
	}
	len = strcspn(*pos, ",");
	if (!len)
		return peo_fail(EINVAL, "%s \"%s\": item %d is empty; give ids separated by "
				"single commas, such as \"1234,5678\"", what, list, item);
	return peo_fail(EINVAL, "%s \"%s\": item %d, \"%.*s\", is not an id from 1 to %d; "
			"give ids separated by commas, such as \"1234,5678\"", what, list, item,
			(int)len, *pos, INT_MAX);
}

/* The threads of each process (PID) or each thread (TID) of @list. */
static int id_list_threads(struct peo_target *t, const char *list, int processes)
{
	const char *what = processes ? "target pids" : "target tids", *pos = list;
	char who[320];
	pid_t id = 0;
	int err, item = 1;

	while ((err = next_list_id(&pos, list, what, item, &id)) > 0) {
		snprintf(who, sizeof(who), "%s \"%.200s\": item %d, %s %d", what, list, item,
			 processes ? "pid" : "tid", (int)id);
		err = processes ? process_threads(t, id, who) : one_thread(t, id, who);
		if (err)
			return err;
		item++;
	}
	return err;
}

/* A zombie or dead task: perf_event_open() answers ESRCH for it. */
static int thread_has_exited(const char *pid, const char *tid)
{
	char path[128], *text, *state;
	int exited;

	snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", pid, tid);
	text = peo_read_text_file(path);
	if (!text)
		return 1; /* gone since the listing */
	state = strrchr(text, ')'); /* the comm may hold spaces and parentheses */
	exited = !state || state[1] != ' ' || state[2] == 'Z' || state[2] == 'X' ||
		 state[2] == 'x';
	free(text);
	return exited;
}

/* The living threads of every process in /proc; ones that vanish meanwhile are skipped. */
static int all_threads(struct peo_target *t)
{
	char **procs;
	int n = peo_list_dir("/proc", &procs), err = 0;

	if (n < 0)
		return peo_fail(-n, "target all threads: cannot list /proc: %s; is procfs mounted?",
				strerror(-n));
	for (int i = 0; i < n && !err; i++) {
		char dir[300], **tids;
		int m;

		if (!isdigit((unsigned char)procs[i][0]))
			continue;
		snprintf(dir, sizeof(dir), "/proc/%s/task", procs[i]);
		m = peo_list_dir(dir, &tids);
		for (int j = 0; j < m && !err; j++)
			if (!thread_has_exited(procs[i], tids[j]))
				err = add_thread(t, (pid_t)atoi(tids[j]));
		if (m > 0)
			peo_free_names(tids, m);
	}
	peo_free_names(procs, n);
	if (!err && !t->nthreads)
		err = peo_fail(ESRCH, "target all threads: /proc lists no living thread");
	return err;
}

/* PEO_TARGET_PID and PEO_TARGET_TID: .pids, else the one .pid. */
static int task_threads(struct peo_target *t, const struct peo_target_opts *o)
{
	int processes = o->kind == PEO_TARGET_PID;
	char who[64];

	if (o->pids)
		return id_list_threads(t, o->pids, processes);
	if (o->pid <= 0)
		return peo_fail(EINVAL, "target pid: %d is not a process id; give a pid > 0 "
				"(PEO_TARGET_SELF counts the calling thread)", (int)o->pid);
	snprintf(who, sizeof(who), "target %s %d", processes ? "pid" : "tid", (int)o->pid);
	return processes ? process_threads(t, o->pid, who) : one_thread(t, o->pid, who);
}

/*
 * Where perf_event cgroups live: a v1 hierarchy mounted with the perf_event
 * controller, else the cgroup2 mount (where that controller is implicit).
 */
void peo_cgroup_root(char *root, size_t cap)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char dev[256], dir[1024], type[64], options[1024];
	int found = 0;

	snprintf(root, cap, "/sys/fs/cgroup");
	if (!f)
		return;
	while (fscanf(f, "%255s %1023s %63s %1023s %*s %*s", dev, dir, type, options) == 4) {
		if (!strcmp(type, "cgroup") && strstr(options, "perf_event")) {
			snprintf(root, cap, "%s", dir);
			break;
		}
		if (!strcmp(type, "cgroup2") && !found) {
			snprintf(root, cap, "%s", dir);
			found = 1;
		}
	}
	fclose(f);
}

static int open_cgroup(struct peo_target *t, const char *name)
{
	char root[1024], path[4096];

	if (!*name)
		return peo_fail(EINVAL, "target cgroup: the name is empty; give a cgroup directory, "
				"relative to the cgroup mount or absolute");
	peo_cgroup_root(root, sizeof(root));
	if (name[0] == '/' && peo_path_exists(name))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s", root, name + (name[0] == '/'));
	t->cgroup_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->cgroup_fd < 0)
		return peo_fail(errno, "target cgroup '%s': cannot open %s: %s%s", name, path,
				strerror(errno), errno == ENOENT ? "; create it first (mkdir), or "
				"name an existing one relative to the cgroup mount" : "");
	return add_thread(t, -1);
}

static int resolve(struct peo_target *t, const struct peo_target_opts *o)
{
	int cpu_wide = o->kind == PEO_TARGET_CPUS || o->kind == PEO_TARGET_CGROUP;
	int err = 0;

	if (o->cpus) {
		err = peo_cpu_list_parse(t, o->cpus, "target cpus");
		if (!err)
			err = check_cpus_online(t, "target cpus");
	} else if (cpu_wide || o->per_cpu) {
		err = online_cpus(t);
	} else {
		err = add_cpu_range(t, -1, -1);
	}
	if (err)
		return err;
	switch (o->kind) {
	case PEO_TARGET_SELF:
		return add_thread(t, 0);
	case PEO_TARGET_PID:
	case PEO_TARGET_TID:
		err = task_threads(t, o);
		break;
	case PEO_TARGET_ALL_THREADS:
		err = all_threads(t);
		break;
	case PEO_TARGET_CPUS:
		return add_thread(t, -1);
	case PEO_TARGET_CGROUP:
		if (!o->cgroup)
			return peo_fail(EINVAL, "target cgroup: opts.cgroup is NULL; name the cgroup "
					"directory");
		return open_cgroup(t, o->cgroup);
	default:
		return peo_fail(EINVAL, "target kind %d is not an enum peo_target_kind value",
				(int)o->kind);
	}
	if (!err)
		sort_threads(t);
	return err;
}

int peo_target_new(struct peo_target **out, const struct peo_target_opts *opts)
{
	struct peo_target_opts o = { .sz = sizeof(o), .kind = PEO_TARGET_SELF };
	struct peo_target *t;
	int err;

	if (!out)
		return peo_fail(EINVAL, "peo_target_new: argument 'out' is NULL");
	*out = NULL;
	err = peo_opts_check(opts, sizeof(o), "peo_target_opts");
	if (err)
		return err;
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	t = calloc(1, sizeof(*t));
	if (!t)
		return peo_fail(ENOMEM, "out of memory for a target");
	t->kind = o.kind;
	t->cgroup_fd = -1;
	err = resolve(t, &o);
	if (err) {
		peo_target_free(t);
		return err;
	}
	*out = t;
	return 0;
}

void peo_target_free(struct peo_target *t)
{
	if (!t)
		return;
	if (t->cgroup_fd >= 0)
		close(t->cgroup_fd);
	free(t->cpus);
	free(t->threads);
	free(t);
}

size_t peo_target_cpu_count(const struct peo_target *t)
{
	return t ? t->ncpus : 1;
}

int peo_target_cpu(const struct peo_target *t, size_t i)
{
	return t && i < t->ncpus ? t->cpus[i] : -1;
}

size_t peo_target_thread_count(const struct peo_target *t)
{
	return t ? t->nthreads : 1;
}

pid_t peo_target_thread(const struct peo_target *t, size_t i)
{
	if (!t)
		return 0;
	return i < t->nthreads ? t->threads[i] : -1;
}

enum peo_target_kind peo_target_kind(const struct peo_target *t)
{
	return t ? t->kind : PEO_TARGET_SELF;
}
