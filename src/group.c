/*
 * group.c - events opened together on every slot of a target, enabled,
 * disabled and reset as one, and read with one read() per slot.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "counter_internal.h"
#include "event_internal.h"

/*
 * PERF_FORMAT_LOST arrived in 6.0; older kernels refuse the bit (EINVAL).
 * One probe of its own: peo_features_probe() knows it too, but opens
 * every probe event at once, which would double peo stat's start-up.
 * The probe is a disabled task-clock: it is timer-based, while opening the
 * first dummy or other software event on the system flips a static key,
 * which patches kernel text on every CPU (~0.1 ms here).
 */
static int kernel_has_format_lost(void)
{
	static int state; /* 0 unknown, 1 yes, 2 no; atomic: a race only repeats the probe */
	int known = __atomic_load_n(&state, __ATOMIC_RELAXED);
	struct peo_attr a;
	int fd;

	if (known)
		return known == 1;
	peo_attr_init(&a);
	a.type = PEO_TYPE_SOFTWARE;
	a.config = PEO_COUNT_SW_TASK_CLOCK;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.read_format = PEO_FORMAT_LOST;
	fd = peo_raw_perf_event_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		close(fd);
	known = fd >= 0 || fd != -EINVAL ? 1 : 2;
	__atomic_store_n(&state, known, __ATOMIC_RELAXED);
	return known == 1;
}

/* The attr member @m is opened with, before the per-slot choices. */
static void prepare_attr(struct peo_attr *a, const struct peo_counter_opts *o, int leader,
			 int as_group, int from_string)
{
	if (from_string) {
		/* A parsed tracepoint or breakpoint carries sample_period 1 for
		 * sampling; counting needs no overflow work, as perf stat says. */
		a->sample_period = 0;
		a->freq = 0;
		a->sample_type = 0;
	}
	a->read_format = PEO_FORMAT_TOTAL_TIME_ENABLED | PEO_FORMAT_TOTAL_TIME_RUNNING | PEO_FORMAT_ID;
	if (as_group)
		a->read_format |= PEO_FORMAT_GROUP;
	if (kernel_has_format_lost())
		a->read_format |= PEO_FORMAT_LOST;
	a->exclude_user |= !!o->exclude_user;
	a->exclude_kernel |= !!o->exclude_kernel;
	a->exclude_hv |= !!o->exclude_hv;
	a->exclude_idle |= !!o->exclude_idle;
	a->inherit = !!o->inherit;
	a->inherit_thread = !!o->inherit_thread;
	/*
	 * Only the leader starts and stops the group, and it is always opened
	 * disabled (peo_group_open_common() enables it once every member is in
	 * when opts.enabled): on 6.18 a software member that joins a running
	 * group, or is itself opened disabled, stays at zero until the group
	 * is switched off and on again.
	 */
	a->disabled = leader;
	a->enable_on_exec = leader && o->enable_on_exec;
	a->pinned = leader && o->pinned;
	a->exclusive = leader && o->exclusive;
}

/* Bytes @count elements of @size take, rounded up to 8; SIZE_MAX on overflow. */
static size_t array_bytes(size_t count, size_t size)
{
	if (size && count > (SIZE_MAX - 7) / size)
		return SIZE_MAX;
	return (count * size + 7) & ~(size_t)7;
}

/*
 * One allocation for the group and its arrays: an open is a system call
 * and a handful of these, and seven mallocs were a tenth of it.
 */
static int alloc_group(struct peo_group **out, size_t n, const struct peo_target *t)
{
	size_t ncpus = peo_target_cpu_count(t), nthreads = peo_target_thread_count(t);
	size_t nslots = ncpus * nthreads, cells = nslots * n, sizes[6], total = 0;
	struct peo_group *g;
	unsigned char *p;

	*out = NULL;
	if ((nthreads && nslots / nthreads != ncpus) || (n && cells / n != nslots))
		return peo_fail(ENOMEM, "a group of %zu events on %zu CPUs x %zu threads is too large",
				n, ncpus, nthreads);
	sizes[0] = array_bytes(1, sizeof(*g));
	sizes[1] = array_bytes(cells, sizeof(*g->snap));
	sizes[2] = array_bytes(cells, sizeof(*g->ids));
	sizes[3] = array_bytes(3 + 3 * n, sizeof(uint64_t)); /* the first read buffer */
	sizes[4] = array_bytes(cells, sizeof(*g->fds));
	sizes[5] = array_bytes(nslots, sizeof(*g->slot_cpu)) + array_bytes(nslots, sizeof(*g->slot_thread));
	for (int i = 0; i < 6; i++) {
		if (sizes[i] == SIZE_MAX || total > SIZE_MAX - sizes[i])
			return peo_fail(ENOMEM, "a group of %zu events on %zu slots is too large", n,
					nslots);
		total += sizes[i];
	}
	p = calloc(1, total);
	if (!p)
		return peo_fail(ENOMEM, "out of memory for a group of %zu events on %zu slots", n,
				nslots);
	g = (struct peo_group *)(void *)p;
	p += sizes[0];
	g->snap = (struct peo_count *)(void *)p;
	p += sizes[1];
	g->ids = (uint64_t *)(void *)p;
	p += sizes[2];
	g->buf = (uint64_t *)(void *)p;
	g->buf_bytes = (3 + 3 * n) * sizeof(uint64_t);
	p += sizes[3];
	g->fds = (int *)(void *)p;
	p += sizes[4];
	g->slot_cpu = (int *)(void *)p;
	g->slot_thread = (pid_t *)(void *)(p + array_bytes(nslots, sizeof(*g->slot_cpu)));
	g->n = n;
	g->nthreads = nthreads;
	g->nslots = nslots;
	*out = g;
	for (size_t i = 0; i < cells; i++)
		g->fds[i] = -1;
	for (size_t s = 0; s < nslots; s++) {
		g->slot_cpu[s] = peo_target_cpu(t, s / nthreads);
		g->slot_thread[s] = peo_target_thread(t, s % nthreads);
	}
	return 0;
}

static int open_slot(struct peo_group *g, size_t slot, struct peo_attr *attrs,
		     const struct peo_event_list *list, size_t first, const struct peo_target *t)
{
	int cgroup = t && t->cgroup_fd >= 0;
	pid_t pid = cgroup ? t->cgroup_fd : g->slot_thread[slot];
	unsigned long flags = PEO_FLAG_FD_CLOEXEC | (cgroup ? PEO_FLAG_PID_CGROUP : 0);
	int *fds = g->fds + slot * g->n, err;

	for (size_t m = 0; m < g->n; m++) {
		struct peo_attr a = attrs[m];
		int leader_fd = m ? fds[0] : -1;

		fds[m] = list ? peo_event_open(peo_event_list_get(list, first + m), &a, pid,
					       g->slot_cpu[slot], leader_fd, flags)
			      : peo_sys_open(&a, pid, g->slot_cpu[slot], leader_fd, flags);
		if (fds[m] == -ESRCH && t &&
		    (t->kind == PEO_TARGET_ALL_THREADS || t->kind == PEO_TARGET_PID)) {
			/* The thread exited since /proc listed it: perf drops it
			 * too (for -p, not for a -t thread named).  The slot
			 * stays closed and reads as zero. */
			for (size_t k = 0; k < m; k++) {
				close(fds[k]);
				fds[k] = -1;
			}
			fds[m] = -1;
			g->gone++;
			return 0;
		}
		if (fds[m] < 0)
			return fds[m];
		/* Group reads are matched by id; a lone counter's read() carries
		 * its id, so it skips the ioctl (a tenth of its open+close). */
		if (!(g->read_format & PEO_FORMAT_GROUP))
			continue;
		err = peo_sys_ioc_id(fds[m], &g->ids[slot * g->n + m]);
		if (err < 0)
			return err;
	}
	return 0;
}

int peo_group_open_common(struct peo_group **out, const struct peo_attr *attrs,
			  const struct peo_event_list *list, size_t first, size_t n,
			  const struct peo_target *target, const struct peo_counter_opts *opts,
			  int as_group)
{
	struct peo_counter_opts o = { .sz = sizeof(o) };
	struct peo_attr local[4], *prepared = NULL;
	struct peo_group *g = NULL;
	int err;

	if (!out)
		return peo_fail(EINVAL, "open: argument 'out' is NULL");
	*out = NULL;
	if (!n || (!attrs && !list))
		return peo_fail(EINVAL, "open: %s; give at least one event",
				n ? "the events argument is NULL" : "n is 0");
	if (list && (first >= peo_event_list_count(list) ||
		     n > peo_event_list_count(list) - first))
		return peo_fail(EINVAL, "peo_group_open_events: events %zu..%zu are past the "
				"list's %zu events", first, first + n - 1, peo_event_list_count(list));
	err = peo_opts_check(opts, sizeof(o), "peo_counter_opts");
	if (err)
		return err;
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	if (o.inherit_thread && !o.inherit)
		return peo_fail(EINVAL, "peo_counter_opts: inherit_thread needs inherit set too");
	err = alloc_group(&g, n, target);
	prepared = n <= PEO_ARRAY_SIZE(local) ? local : NULL; /* a lone counter needs no malloc */
	if (!err && !prepared && !(prepared = malloc(n * sizeof(*prepared))))
		err = peo_fail(ENOMEM, "out of memory for %zu attrs", n);
	for (size_t m = 0; !err && m < n; m++) {
		prepared[m] = list ? *peo_event_attr(peo_event_list_get(list, first + m)) : attrs[m];
		prepare_attr(&prepared[m], &o, m == 0, as_group, list != NULL);
	}
	if (!err) {
		g->read_format = prepared[0].read_format;
		g->cgroup = target && target->cgroup_fd >= 0;
		/* its own copy: the target may be freed before a member is added */
		g->cgroup_fd = g->cgroup ? fcntl(target->cgroup_fd, F_DUPFD_CLOEXEC, 0) : -1;
		g->opts = o;
	}
	for (size_t s = 0; !err && s < g->nslots; s++)
		err = open_slot(g, s, prepared, list, first, target);
	if (!err && g->gone == g->nslots)
		err = peo_fail(ESRCH, "open: every thread the target listed has exited");
	if (prepared != local)
		free(prepared);
	if (!err && o.enabled && !o.enable_on_exec)
		err = peo_group_ioctl_all(g, peo_sys_ioc_enable, "open: enabling the group");
	if (err) {
		peo_group_free(g);
		return err;
	}
	*out = g;
	return 0;
}

void peo_group_free(struct peo_group *g)
{
	if (!g)
		return;
	if (g->page)
		munmap(g->page, (size_t)sysconf(_SC_PAGESIZE));
	/* Members before their leader, so no fd outlives its group. */
	for (size_t i = g->fds ? g->nslots * g->n : 0; i-- > 0;)
		if (g->fds[i] >= 0)
			close(g->fds[i]);
	if (g->buf_grown)
		free(g->buf);
	if (g->cgroup && g->cgroup_fd >= 0)
		close(g->cgroup_fd);
	free(g->grown);
	free(g); /* the arrays live in its allocation, unless grown */
}

/* Find member @id of slot @slot; position @guess first (the usual order). */
static inline long member_of(const struct peo_group *g, size_t slot, uint64_t id, size_t guess)
{
	const uint64_t *ids = g->ids + slot * g->n;

	if (guess < g->n && ids[guess] == id)
		return (long)guess;
	for (size_t m = 0; m < g->n; m++)
		if (ids[m] == id)
			return (long)m;
	return -1;
}

/* Store one member's value; the times are the group's. */
static inline void store(struct peo_count *c, uint64_t value, uint64_t enabled, uint64_t running,
			 uint64_t id, uint64_t lost)
{
	c->value = value;
	c->time_enabled = enabled;
	c->time_running = running;
	/* Decided here, inline: reads are hot and rarely multiplexed. */
	c->scaled = enabled == running ? value : peo_count_scale(value, enabled, running);
	c->id = id;
	c->lost = lost;
}

static int parse_read(struct peo_group *g, size_t slot, size_t bytes)
{
	const uint64_t *w = g->buf;
	int lost = !!(g->read_format & PEO_FORMAT_LOST);
	size_t words = bytes / sizeof(uint64_t), per = 2 + lost, nr;
	struct peo_count *snap = g->snap + slot * g->n;

	if (!(g->read_format & PEO_FORMAT_GROUP)) {
		if (words < 4 + (size_t)lost)
			goto short_read;
		store(snap, w[0], w[1], w[2], w[3], lost ? w[4] : 0);
		return 0;
	}
	nr = words ? w[0] : 0;
	if (words < 3 || nr > (words - 3) / per)
		goto short_read;
	for (size_t i = 0; i < nr; i++) {
		const uint64_t *e = w + 3 + i * per;
		long m = member_of(g, slot, e[1], i);

		if (m < 0)
			continue; /* a member someone else added through the leader's fd */
		store(&snap[m], e[0], w[1], w[2], e[1], lost ? e[2] : 0);
	}
	return 0;
short_read:
	return peo_fail(EIO, "read of slot %zu returned %zu bytes, too few for the read_format "
			"0x%llx of %zu events", slot, bytes, (unsigned long long)g->read_format, g->n);
}

int peo_group_read_slot(struct peo_group *g, size_t slot)
{
	int fd = g->fds[slot * g->n];
	ssize_t r;

	if (fd < 0) { /* a thread gone before its open: it counted nothing */
		memset(g->snap + slot * g->n, 0, g->n * sizeof(*g->snap));
		return 0;
	}

	for (;;) {
		r = read(fd, g->buf, g->buf_bytes);
		if (r >= 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno == ENOSPC && g->buf_bytes < ((size_t)1 << 24)) {
			/* More members than we opened (added through the fd): grow. */
			void *grown = g->buf_grown ? realloc(g->buf, g->buf_bytes * 2)
						   : malloc(g->buf_bytes * 2);

			if (!grown)
				return peo_fail(ENOMEM, "out of memory growing the read buffer");
			g->buf = grown;
			g->buf_grown = 1; /* no longer the one inside the group's allocation */
			g->buf_bytes *= 2;
			continue;
		}
		return peo_fail(errno, "read(fd %d) of slot %zu (cpu %d, thread %d): %s", fd, slot,
				g->slot_cpu[slot], (int)g->slot_thread[slot], strerror(errno));
	}
	if (r == 0)
		return peo_fail(ENODATA, "read(fd %d) of slot %zu (cpu %d, thread %d) returned 0 "
				"bytes: the pinned group could not be put on the PMU and is in "
				"error state; close and reopen it, or open it unpinned", fd, slot,
				g->slot_cpu[slot], (int)g->slot_thread[slot]);
	return parse_read(g, slot, (size_t)r);
}

int peo_group_sum(const struct peo_group *g, enum peo_count_by by, size_t index,
		  struct peo_count *counts, size_t n)
{
	size_t limit;

	if (!g || !counts || n < g->n)
		return peo_fail(EINVAL, "counts: %s", !g ? "the group is NULL" : !counts ?
				"the counts array is NULL" : "the counts array is smaller than the group");
	if (!g->have_snap)
		return peo_fail(EINVAL, "counts: nothing has been read yet; call the read function first");
	limit = by == PEO_COUNT_CPU ? g->nslots / g->nthreads : by == PEO_COUNT_THREAD ? g->nthreads
		: by == PEO_COUNT_SLOT ? g->nslots : 1;
	if (by > PEO_COUNT_SLOT || (by != PEO_COUNT_ALL && index >= limit))
		return peo_fail(EINVAL, "counts: %s index %zu is out of range (%zu)",
				by > PEO_COUNT_SLOT ? "by is not an enum peo_count_by value;" : "the",
				index, limit);
	memset(counts, 0, g->n * sizeof(*counts));
	for (size_t s = 0; s < g->nslots; s++) {
		if ((by == PEO_COUNT_CPU && s / g->nthreads != index) ||
		    (by == PEO_COUNT_THREAD && s % g->nthreads != index) ||
		    (by == PEO_COUNT_SLOT && s != index))
			continue;
		for (size_t m = 0; m < g->n; m++)
			peo_count_add(&counts[m], &g->snap[s * g->n + m]);
	}
	return (int)g->n;
}

/* @ioc on the leader of every slot on @cpu (every slot when @cpu is -2). */
static int ioctl_slots(struct peo_group *g, peo_ioc_fn ioc, unsigned int flag, int cpu)
{
	for (size_t s = 0; s < g->nslots; s++) {
		int err;

		if ((cpu != -2 && g->slot_cpu[s] != cpu) || g->fds[s * g->n] < 0)
			continue; /* another CPU's, or a thread gone before its open */
		err = ioc(g->fds[s * g->n], flag);
		if (err < 0)
			return err; /* peo_sys_ioc_*() left the sentence */
	}
	return 0;
}

/*
 * A cgroup event switched on from another CPU while its cgroup runs there
 * starts from a stale cgroup clock (6.18): its enabled time comes out
 * milliseconds, or the whole uptime, too long.  So, as perf does, move to
 * each CPU in turn and switch that CPU's slots from there.
 */
static int ioctl_from_each_cpu(struct peo_group *g, peo_ioc_fn ioc, unsigned int flag)
{
	cpu_set_t orig, one;
	int pinned = !sched_getaffinity(0, sizeof(orig), &orig), err = 0;

	for (size_t s = 0; !err && s < g->nslots; s += g->nthreads) {
		int cpu = g->slot_cpu[s];

		if (pinned && cpu >= 0 && cpu < CPU_SETSIZE) {
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			(void)sched_setaffinity(0, sizeof(one), &one); /* else an IPI does it */
		}
		err = ioctl_slots(g, ioc, flag, cpu);
	}
	if (pinned)
		(void)sched_setaffinity(0, sizeof(orig), &orig);
	return err;
}

int peo_group_ioctl_all(struct peo_group *g, peo_ioc_fn ioc, const char *what)
{
	/*
	 * Enable and disable act on the leader alone: the kernel schedules a
	 * group only while its leader is on, so that starts and stops every
	 * member at once.  PERF_IOC_FLAG_GROUP would also switch each member,
	 * and members switched off that way stay at zero after a group enable
	 * (software events, 6.18).  Reset must reach every member's count.
	 */
	unsigned int flag = ioc == peo_sys_ioc_reset ? PEO_IOC_FLAG_GROUP : 0;

	if (!g)
		return peo_fail(EINVAL, "%s: the group is NULL", what);
	return g->cgroup ? ioctl_from_each_cpu(g, ioc, flag) : ioctl_slots(g, ioc, flag, -2);
}

/* ------------------------------------------------------------- public API */

int peo_group_open(struct peo_group **out, const struct peo_attr *attrs, size_t n,
		   const struct peo_target *target, const struct peo_counter_opts *opts)
{
	return peo_group_open_common(out, attrs, NULL, 0, n, target, opts, 1);
}

int peo_group_open_events(struct peo_group **out, const struct peo_event_list *list,
			  size_t first, size_t n, const struct peo_target *target,
			  const struct peo_counter_opts *opts)
{
	if (!list)
		return peo_fail(EINVAL, "peo_group_open_events: argument 'list' is NULL");
	return peo_group_open_common(out, NULL, list, first, n, target, opts, 1);
}

void peo_group_close(struct peo_group *g)
{
	peo_group_free(g);
}

size_t peo_group_size(const struct peo_group *g)
{
	return g ? g->n : 0;
}

size_t peo_group_slot_count(const struct peo_group *g)
{
	return g ? g->nslots : 0;
}

int peo_group_fd(const struct peo_group *g, size_t slot, size_t member)
{
	if (!g || slot >= g->nslots || member >= g->n)
		return peo_fail(EINVAL, "peo_group_fd: slot %zu member %zu is out of range", slot,
				member);
	if (g->fds[slot * g->n + member] < 0)
		return peo_fail(ESRCH, "peo_group_fd: slot %zu has no fd: thread %d exited before "
				"it could be opened", slot, (int)g->slot_thread[slot]);
	return g->fds[slot * g->n + member];
}

int peo_group_enable(struct peo_group *g)
{
	return peo_group_ioctl_all(g, peo_sys_ioc_enable, "peo_group_enable");
}

int peo_group_disable(struct peo_group *g)
{
	return peo_group_ioctl_all(g, peo_sys_ioc_disable, "peo_group_disable");
}

int peo_group_reset(struct peo_group *g)
{
	return peo_group_ioctl_all(g, peo_sys_ioc_reset, "peo_group_reset");
}

int peo_group_read(struct peo_group *g, struct peo_count *counts, size_t n)
{
	if (!g)
		return peo_fail(EINVAL, "peo_group_read: the group is NULL");
	if (counts && n < g->n)
		return peo_fail(EINVAL, "peo_group_read: room for %zu counts, the group has %zu", n,
				g->n);
	for (size_t s = 0; s < g->nslots; s++) {
		int err = peo_group_read_slot(g, s);

		if (err)
			return err;
	}
	g->have_snap = 1;
	if (counts && g->nslots == 1) { /* nothing to sum: the common self-monitoring case */
		memcpy(counts, g->snap, g->n * sizeof(*counts));
		return (int)g->n;
	}
	return counts ? peo_group_sum(g, PEO_COUNT_ALL, 0, counts, n) : (int)g->n;
}

int peo_group_counts(const struct peo_group *g, enum peo_count_by by, size_t index,
		     struct peo_count *counts, size_t n)
{
	return peo_group_sum(g, by, index, counts, n);
}

int peo_group_slot_cpu(const struct peo_group *g, size_t slot)
{
	return g && slot < g->nslots ? g->slot_cpu[slot] : -1;
}

pid_t peo_group_slot_thread(const struct peo_group *g, size_t slot)
{
	return g && slot < g->nslots ? g->slot_thread[slot] : -1;
}

/* ------------------------------------------------- members added later */

int peo_group_new(struct peo_group **out, const struct peo_target *target,
		  const struct peo_counter_opts *opts)
{
	struct peo_attr leader;

	peo_attr_init(&leader); /* counts nothing: the members count */
	leader.type = PEO_TYPE_SOFTWARE;
	leader.config = PEO_COUNT_SW_DUMMY;
	leader.exclude_kernel = leader.exclude_hv = 1;
	return peo_group_open_common(out, &leader, NULL, 0, 1, target, opts, 1);
}

/* The arrays of a group grown by one member: fds, ids and snap, in one
 * block (@block, malloc'd), the old members' fds and ids copied. */
struct room {
	void *block;
	int *fds;
	uint64_t *ids;
	struct peo_count *snap;
};

static int make_room(const struct peo_group *g, struct room *r)
{
	size_t n = g->n + 1, cells = g->nslots * n;
	size_t fds_bytes = array_bytes(cells, sizeof(int)), ids_bytes = array_bytes(cells, 8);
	unsigned char *p;

	if (cells / n != g->nslots || fds_bytes == SIZE_MAX || ids_bytes == SIZE_MAX ||
	    !(p = calloc(1, fds_bytes + ids_bytes + cells * sizeof(*r->snap))))
		return peo_fail(ENOMEM, "out of memory for member %zu of a group on %zu slots", n,
				g->nslots);
	r->block = p;
	r->fds = (int *)(void *)p;
	r->ids = (uint64_t *)(void *)(p + fds_bytes);
	r->snap = (struct peo_count *)(void *)(p + fds_bytes + ids_bytes);
	for (size_t s = 0; s < g->nslots; s++) {
		memcpy(r->fds + s * n, g->fds + s * g->n, g->n * sizeof(*r->fds));
		memcpy(r->ids + s * n, g->ids + s * g->n, g->n * sizeof(*r->ids));
		r->fds[s * n + g->n] = -1;
	}
	return 0;
}

/* Open @ev (of a list) or @attr as a new last member of @g on each slot;
 * on failure none of it stays and @g is as it was. */
static int add_member(struct peo_group *g, const struct peo_attr *attr,
		      const struct peo_event *ev, size_t *member)
{
	struct peo_attr a = ev ? *peo_event_attr(ev) : *attr;
	unsigned long flags = PEO_FLAG_FD_CLOEXEC | (g->cgroup ? PEO_FLAG_PID_CGROUP : 0);
	size_t n = g->n + 1, m = g->n;
	struct room r = { 0 };
	int err = 0;

	if (!(g->read_format & PEO_FORMAT_GROUP))
		return peo_fail(EINVAL, "peo_group_add: this is a counter, not a group: open one "
				"with peo_group_new() or peo_group_open()");
	prepare_attr(&a, &g->opts, 0, 1, ev != NULL);
	if ((err = make_room(g, &r)))
		return err;
	for (size_t s = 0; !err && s < g->nslots; s++) {
		int leader = r.fds[s * n], *fd = &r.fds[s * n + m];
		pid_t pid = g->cgroup ? g->cgroup_fd : g->slot_thread[s];
		struct peo_attr copy = a;

		if (leader < 0)
			continue; /* a thread gone before the group's open */
		*fd = ev ? peo_event_open(ev, &copy, pid, g->slot_cpu[s], leader, flags)
			 : peo_sys_open(&copy, pid, g->slot_cpu[s], leader, flags);
		err = *fd < 0 ? *fd : peo_sys_ioc_id(*fd, &r.ids[s * n + m]);
	}
	if (err) {
		for (size_t s = 0; s < g->nslots; s++)
			if (r.fds[s * n + m] >= 0)
				close(r.fds[s * n + m]);
		free(r.block);
		return err;
	}
	free(g->grown);
	g->grown = r.block;
	g->fds = r.fds;
	g->ids = r.ids;
	g->snap = r.snap;
	g->have_snap = 0; /* the next read takes every member's */
	g->n = n;
	*member = m;
	return 0;
}

int peo_group_add(struct peo_group *g, const struct peo_attr *attr, size_t *member)
{
	size_t m;

	if (!g || !attr)
		return peo_fail(EINVAL, "peo_group_add: argument '%s' is NULL", g ? "attr" : "group");
	return add_member(g, attr, NULL, member ? member : &m);
}

int peo_group_add_event(struct peo_group *g, const char *event, size_t *member)
{
	struct peo_event_list *list;
	size_t m;
	int err;

	if (!g || !event)
		return peo_fail(EINVAL, "peo_group_add_event: argument '%s' is NULL",
				g ? "event" : "group");
	if ((err = peo_event_parse(&list, event, NULL)) < 0)
		return err;
	if (err != 1) {
		peo_event_list_free(list);
		return peo_fail(EINVAL, "peo_group_add_event: '%s' is %d events; add one at a time",
				event, err);
	}
	err = add_member(g, NULL, peo_event_list_get(list, 0), member ? member : &m);
	peo_event_list_free(list);
	return err;
}

int peo_group_count(const struct peo_group *g, size_t member, struct peo_count *count)
{
	if (!g || !count)
		return peo_fail(EINVAL, "peo_group_count: argument '%s' is NULL",
				g ? "count" : "group");
	if (member >= g->n)
		return peo_fail(EINVAL, "peo_group_count: member %zu of a group of %zu", member, g->n);
	if (!g->have_snap)
		return peo_fail(EINVAL, "peo_group_count: nothing has been read since the group "
				"was opened or grew; call peo_group_read() first");
	memset(count, 0, sizeof(*count));
	for (size_t s = 0; s < g->nslots; s++)
		peo_count_add(count, &g->snap[s * g->n + member]);
	return 0;
}
