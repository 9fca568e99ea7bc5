/*
 * counter_internal.h - what the counting layer's files share.
 */
#ifndef PEO_COUNTER_INTERNAL_H
#define PEO_COUNTER_INTERNAL_H

#include "internal.h"

struct peo_target {
	enum peo_target_kind kind;
	int *cpus;      /* -1 alone for "any CPU" */
	size_t ncpus;
	pid_t *threads; /* 0 self, -1 every task (CPU and cgroup targets), else a tid */
	size_t nthreads;
	int cgroup_fd;  /* PEO_TARGET_CGROUP, else -1 */
};

/* The cgroup mount that relative cgroup names start from. */
PEO_HIDDEN void peo_cgroup_root(char *root, size_t cap);

/* Parse "0-3,6" into @t's CPUs; @what starts the error sentence. */
PEO_HIDDEN int peo_cpu_list_parse(struct peo_target *t, const char *list, const char *what);
/* The same for a list read from sysfs, that the caller does without when
 * it is malformed: peo_last_error() keeps the user's last failure. */
PEO_HIDDEN int peo_cpu_list_parse_tolerated(struct peo_target *t, const char *list);

/*
 * A group, and a counter (a group of one read without PERF_FORMAT_GROUP).
 * Slot s counts CPU s / nthreads and thread s % nthreads of the target;
 * arrays indexed [slot * n + member].
 */
struct peo_group {
	size_t n, nslots, nthreads;
	int *fds;
	uint64_t *ids;
	int *slot_cpu;
	pid_t *slot_thread;
	struct peo_count *snap; /* the last read, per slot and member */
	int have_snap;
	uint64_t read_format;
	uint64_t *buf;          /* read buffer: in the group's allocation until it grows */
	size_t buf_bytes;
	int buf_grown;
	void *page; /* the mapped control page of a counter with user_read */
	int last_user_read;
	int cgroup; /* opened on a cgroup: switched on and off from each CPU */
	size_t gone; /* slots left closed: their thread exited before its open */
	/* for members added later (peo_group_add()) */
	struct peo_counter_opts opts; /* as opened */
	int cgroup_fd;                /* the target's, when cgroup */
	void *grown;                  /* fds, ids and snap moved out of the allocation */
};

struct peo_counter {
	struct peo_group g;
};

/* group.c: open @n events (from @attrs or, when @list is set, list[first..]). */
PEO_HIDDEN int peo_group_open_common(struct peo_group **out, const struct peo_attr *attrs,
				     const struct peo_event_list *list, size_t first, size_t n,
				     const struct peo_target *target,
				     const struct peo_counter_opts *opts, int as_group);
PEO_HIDDEN void peo_group_free(struct peo_group *g);
/* Read slot @slot into g->snap (one read()). */
PEO_HIDDEN int peo_group_read_slot(struct peo_group *g, size_t slot);
/* Sum the snapshot's slots selected by @by/@index into @counts. */
PEO_HIDDEN int peo_group_sum(const struct peo_group *g, enum peo_count_by by, size_t index,
			     struct peo_count *counts, size_t n);
/* One peo_sys_ioc_*() per slot leader (reset with PERF_IOC_FLAG_GROUP). */
typedef int (*peo_ioc_fn)(int fd, unsigned int flags);
PEO_HIDDEN int peo_group_ioctl_all(struct peo_group *g, peo_ioc_fn ioc, const char *what);

/* count.c: add @c into @sum (times, values and estimates; the first id kept). */
PEO_HIDDEN void peo_count_add(struct peo_count *sum, const struct peo_count *c);

/* mmap_read.c: peo_mmap_page_read() with the counter and clock readers given, for tests. */
typedef uint64_t (*peo_pmc_reader)(uint32_t index);
typedef uint64_t (*peo_cycle_reader)(void);
PEO_HIDDEN int peo_mmap_page_read_with(const volatile struct peo_mmap_page *page,
				       struct peo_count *count, peo_pmc_reader pmc,
				       peo_cycle_reader cycles);

#endif
