/*
 * peo/sys.h - the raw layer: the perf_event_open(2) system call, one wrapper
 * per ioctl, attr size negotiation and kernel feature probing.
 *
 * Every function returns 0 (or an fd, or a count) on success and a negative
 * errno on failure, leaves errno as the caller had it, and on failure leaves a
 * sentence in peo_last_error().
 */
#ifndef PEO_SYS_H
#define PEO_SYS_H

#include <stdint.h>
#include <sys/types.h>

#include "abi.h"
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * peo_attr_init() - zero an attr and set its size to sizeof(struct peo_attr).
 * @attr: the attr to initialise; must not be NULL.
 */
PEO_API void peo_attr_init(struct peo_attr *attr);

/**
 * peo_sys_perf_event_open() - the system call itself, nothing added.
 * @attr:     passed as is; the kernel may write its own size into attr->size
 *            on E2BIG.  NULL is passed through (the kernel answers EFAULT).
 * @pid:      0 for the calling thread, a tid/pid, -1 for every task on @cpu,
 *            or a cgroup directory fd with PEO_FLAG_PID_CGROUP.
 * @cpu:      a CPU number, or -1 for any CPU.
 * @group_fd: the group leader's fd, or -1 to start a new group.
 * @flags:    PEO_FLAG_FD_CLOEXEC, PEO_FLAG_PID_CGROUP, PEO_FLAG_FD_NO_GROUP,
 *            PEO_FLAG_FD_OUTPUT.
 *
 * Return: the new fd, or the kernel's negative errno.  peo_last_error() then
 * names the call and the errno, nothing more: "perf_event_open(software/
 * task-clock, pid 0, cpu -1, group_fd 7, flags 0x8): Bad file descriptor".
 * Finding the likely cause reads /proc, /sys and the feature probe, which
 * this call never does: peo_sys_open() and the opens built on it
 * (peo_event_open(), groups and counters) give the explained sentence.
 */
PEO_API int peo_sys_perf_event_open(struct peo_attr *attr, pid_t pid, int cpu,
				    int group_fd, unsigned long flags);

/**
 * peo_sys_open() - perf_event_open with attr size negotiation.
 * @attr:     the request; not modified.  Its size field is ignored: the full
 *            sizeof(struct peo_attr) is always passed.
 * @pid, @cpu, @group_fd, @flags: as for peo_sys_perf_event_open().
 *
 * On E2BIG the kernel's size is read back.  If nothing past that size is
 * non-zero the call is retried at the kernel's size; otherwise it fails and
 * peo_last_error() names each field the kernel lacks, e.g. "attr.config3
 * needs perf_event_attr size >= 136 (Linux 6.3); this kernel accepts 128".
 *
 * Return: the new fd, or a negative errno, and peo_last_error() explains it
 * after the call and the errno: EACCES/EPERM with the perf_event_paranoid
 * level, ENOENT without a PMU, E2BIG with the kernel's size, EINVAL's likely
 * causes for @attr (bits the feature probe found missing first), EMFILE with
 * the fd limit, ESRCH, EBADF, EBUSY, EOVERFLOW, EFAULT, ...
 */
PEO_API int peo_sys_open(const struct peo_attr *attr, pid_t pid, int cpu,
			 int group_fd, unsigned long flags);

/**
 * peo_sys_ioc_enable() - PERF_EVENT_IOC_ENABLE.
 * @fd:        a perf event fd.
 * @ioc_flags: 0 for this event, PEO_IOC_FLAG_GROUP for its whole group.
 * Return: 0, or a negative errno (EBADF, ENOTTY for a non-perf fd, EINVAL).
 */
PEO_API int peo_sys_ioc_enable(int fd, unsigned int ioc_flags);

/**
 * peo_sys_ioc_disable() - PERF_EVENT_IOC_DISABLE.
 * @fd:        a perf event fd.
 * @ioc_flags: 0 or PEO_IOC_FLAG_GROUP.
 * Return: 0, or a negative errno.
 */
PEO_API int peo_sys_ioc_disable(int fd, unsigned int ioc_flags);

/**
 * peo_sys_ioc_reset() - PERF_EVENT_IOC_RESET: set the count to zero.
 * @fd:        a perf event fd.
 * @ioc_flags: 0 or PEO_IOC_FLAG_GROUP.
 * Return: 0, or a negative errno.
 */
PEO_API int peo_sys_ioc_reset(int fd, unsigned int ioc_flags);

/**
 * peo_sys_ioc_refresh() - PERF_EVENT_IOC_REFRESH: enable for @count overflows.
 * @fd:    a sampling event (sample_period > 0) without inherit.
 * @count: overflows before the event disables itself; must be > 0.
 * Return: 0, or a negative errno (EINVAL for a counting or inherited event).
 */
PEO_API int peo_sys_ioc_refresh(int fd, int count);

/**
 * peo_sys_ioc_period() - PERF_EVENT_IOC_PERIOD: change the sample period
 * (or frequency, for a freq event).
 * @fd:     a perf event fd.
 * @period: the new period; must be non-zero with bit 63 clear.
 * Return: 0, or a negative errno (EINVAL for an out-of-range value).
 */
PEO_API int peo_sys_ioc_period(int fd, uint64_t period);

/**
 * peo_sys_ioc_set_output() - PERF_EVENT_IOC_SET_OUTPUT: send @fd's records
 * to @target_fd's ring buffer.
 * @fd:        an event without its own mapped ring.
 * @target_fd: an event on the same CPU (or task) with a ring, or -1 to stop.
 * Return: 0, or a negative errno (EINVAL on CPU/clock mismatch, EBUSY when
 * @fd has its own mapping).
 */
PEO_API int peo_sys_ioc_set_output(int fd, int target_fd);

/**
 * peo_sys_ioc_set_filter() - PERF_EVENT_IOC_SET_FILTER.
 * @fd:     a tracepoint event (or an AUX event with address filters).
 * @filter: the filter text, e.g. "common_pid == 1".
 * The kernel takes one filter per event: to change it, open a new event.
 * Return: 0, or a negative errno (EINVAL for a bad filter or event type,
 * EEXIST when the event already has a filter).
 */
PEO_API int peo_sys_ioc_set_filter(int fd, const char *filter);

/**
 * peo_sys_ioc_id() - PERF_EVENT_IOC_ID: the event's unique id.
 * @fd: a perf event fd.
 * @id: receives the id (the value PEO_FORMAT_ID and PEO_SAMPLE_ID report).
 * Return: 0, or a negative errno.
 */
PEO_API int peo_sys_ioc_id(int fd, uint64_t *id);

/**
 * peo_sys_ioc_set_bpf() - PERF_EVENT_IOC_SET_BPF: attach a BPF program.
 * @fd:      a tracepoint, kprobe or uprobe event.
 * @prog_fd: a loaded BPF program fd.
 * Return: 0, or a negative errno (EBADF for a bad @prog_fd, EINVAL for a
 * program type the event cannot run, EEXIST if one is attached).
 */
PEO_API int peo_sys_ioc_set_bpf(int fd, int prog_fd);

/**
 * peo_sys_ioc_pause_output() - PERF_EVENT_IOC_PAUSE_OUTPUT.
 * @fd:    an event with a mapped ring.
 * @pause: non-zero to stop writing records, 0 to resume.
 * Return: 0, or a negative errno (EINVAL when no ring is mapped).
 */
PEO_API int peo_sys_ioc_pause_output(int fd, int pause);

/**
 * peo_sys_ioc_query_bpf() - PERF_EVENT_IOC_QUERY_BPF: list the BPF programs
 * attached to a tracepoint event.
 * @fd:    a tracepoint event.
 * @query: ids_len set to the capacity of the uint32_t ids[] that follows it;
 *         the kernel sets prog_cnt and fills ids[].  ids_len 0 only asks
 *         how many: it succeeds and sets prog_cnt.
 * The programs listed are all those on the tracepoint, from any event.
 * Return: 0, or a negative errno (EINVAL for a non-tracepoint event, ENOSPC
 * when 0 < ids_len < the count; prog_cnt still says how many there are).
 */
PEO_API int peo_sys_ioc_query_bpf(int fd, struct peo_query_bpf *query);

/**
 * peo_sys_ioc_modify_attributes() - PERF_EVENT_IOC_MODIFY_ATTRIBUTES.
 * @fd:   a perf event fd; the kernel supports this for breakpoints only.
 * @attr: the new attributes, size set.
 * Return: 0, or a negative errno (EINVAL for other event types).
 */
PEO_API int peo_sys_ioc_modify_attributes(int fd, struct peo_attr *attr);

/* ------------------------------------------------------- feature probing */

enum peo_feature_kind {
	PEO_FEATURE_ATTR_SIZE,   /* an attr size (one per PEO_ATTR_SIZE_VERn) */
	PEO_FEATURE_ATTR_FIELD,  /* a field past VER0: config2 ... config4 */
	PEO_FEATURE_SAMPLE_TYPE, /* a PEO_SAMPLE_* bit */
	PEO_FEATURE_READ_FORMAT, /* a PEO_FORMAT_* bit */
	PEO_FEATURE_ATTR_FLAG,   /* a one-bit attr flag */
	PEO_FEATURE_RECORD,      /* a PEO_RECORD_* type */
	PEO_FEATURE_IOCTL,       /* a PEO_IOC_* request */
	PEO_FEATURE_KIND_COUNT
};

enum peo_feature_state {
	PEO_FEATURE_UNKNOWN = 0, /* a software event cannot tell */
	PEO_FEATURE_SUPPORTED,
	PEO_FEATURE_MISSING
};

/* How a feature's state was found. */
enum peo_feature_source {
	PEO_FEATURE_PROBED,   /* a probe event was opened (or ioctl made) */
	PEO_FEATURE_BY_SIZE,  /* follows from the kernel's attr size */
	PEO_FEATURE_BY_FLAG,  /* follows from the flag that requests it */
	PEO_FEATURE_BY_RELEASE /* nothing to probe: the kernel release decides */
};

/* An entry of the table peo_features_probe() hands out; the caller indexes
 * it, so the struct keeps its size (a new field would come with a new
 * function). */
struct peo_feature {
	enum peo_feature_kind kind;
	const char *name;    /* "config3", "WEIGHT_STRUCT", "sigtrap", "SWITCH" */
	const char *since;   /* first Linux release with it, e.g. "6.3" */
	uint64_t value;      /* bit mask, size, record type or ioctl number */
	enum peo_feature_state state;
	enum peo_feature_source source;
	int probe_errno;     /* errno of the probe, 0 when it succeeded */
	const char *note;    /* why the state is what it is; never NULL */
};

/**
 * peo_features_probe() - what the running kernel accepts, probed once.
 * @out:   receives the table (static, shared, valid for the process).
 * @count: receives its number of entries.
 *
 * The first call opens harmless software events (task-clock on the calling
 * thread, user space only, disabled) with one feature at a time and reads the
 * errno, the way perf detects missing features; later calls return the
 * cached table.  Safe to call from several threads.
 *
 * Return: 0, or a negative errno when not even a plain software event can be
 * opened (peo_last_error() says why; the table is then not available).
 */
PEO_API int peo_features_probe(const struct peo_feature **out, size_t *count);

/**
 * peo_kernel_attr_size() - the kernel's own sizeof(perf_event_attr).
 *
 * Found by passing a non-zero last byte and reading the size the kernel
 * writes back with E2BIG.  Cached.
 *
 * Return: the size in bytes (>= PEO_ATTR_SIZE_VER0), sizeof(struct peo_attr)
 * when the kernel accepts all of ours (it may know more), or a negative errno.
 */
PEO_API int peo_kernel_attr_size(void);

/**
 * peo_feature_kind_name() - "attr size", "sample_type", ... for a kind.
 * @kind: a peo_feature_kind.
 * Return: a static string, "?" for an unknown kind.
 */
PEO_API const char *peo_feature_kind_name(enum peo_feature_kind kind);

#ifdef __cplusplus
}
#endif

#endif /* PEO_SYS_H */
