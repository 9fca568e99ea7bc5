/*
 * peo/counter.h - counting: counters and groups on any target (the calling
 * thread, a process, a thread, CPUs, a cgroup), enabled, disabled and reset
 * as one, read in one read() per group and slot with values matched by id,
 * scaled for multiplexing and summed or broken down per CPU and per thread;
 * a fast self-read through the mmap control page; and fork-exec of a
 * command whose counters start exactly at its exec.
 *
 * A target resolves to CPUs x threads "slots"; a counter or group holds one
 * fd per event per slot.
 */
#ifndef PEO_COUNTER_H
#define PEO_COUNTER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "abi.h"
#include "common.h"
#include "event.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rusage;

/* ------------------------------------------------------------------ targets */

enum peo_target_kind {
	PEO_TARGET_SELF = 0, /* the calling thread */
	PEO_TARGET_PID,      /* every thread of process .pid, listed from /proc/PID/task */
	PEO_TARGET_TID,      /* the one thread .pid */
	PEO_TARGET_CPUS,     /* every task on each CPU of .cpus (all online when NULL) */
	PEO_TARGET_CGROUP,   /* tasks of cgroup .cgroup on each CPU of .cpus */
	PEO_TARGET_ALL_THREADS /* every thread of every process, listed from /proc
	                        * (perf stat --per-thread -a); zombies are left out,
	                        * as the kernel refuses to count an exited task, and
	                        * a thread that exits before its open is skipped (its
	                        * slot reads as zero; peo_group_fd() gives -ESRCH) */
};

struct peo_target_opts {
	size_t sz;
	enum peo_target_kind kind;
	pid_t pid;          /* PEO_TARGET_PID and PEO_TARGET_TID */
	const char *cpus;   /* a CPU list such as "0-3,6"; NULL: any CPU for the
	                     * task targets, every online CPU for CPUS and CGROUP */
	const char *cgroup; /* PEO_TARGET_CGROUP: a cgroup directory, absolute or
	                     * relative to the perf_event cgroup mount (the v1
	                     * perf_event hierarchy, else the cgroup2 mount) */
	/*
	 * PEO_TARGET_PID and PEO_TARGET_TID: a list of ids used instead of .pid
	 * when not NULL, written as perf's -p and -t take them: "1234,5678",
	 * blanks before an id allowed, one trailing comma ignored.  PID counts
	 * every thread of each process, TID each thread.  The threads are
	 * sorted by id, each once (perf 6.1 counts an id given twice twice).
	 */
	const char *pids;
	/* PEO_TARGET_SELF, PID and TID without .cpus: a slot per online CPU
	 * instead of one for any CPU (perf record's per-CPU rings want it). */
	int per_cpu;
};

struct peo_target;

/**
 * peo_target_new() - resolve what to count into CPUs and threads.
 * @out:  receives the target; free it with peo_target_free().
 * @opts: what to count; NULL means the calling thread.
 *
 * The threads of a process (or of the system) are read from /proc once,
 * here: threads created later are counted only through the counter option
 * inherit.  A cgroup is opened here (O_CLOEXEC) and kept open until
 * peo_target_free().
 *
 * Return: 0, or -EINVAL (bad kind, CPU list, pid or id list; the sentence
 * names the argument, the list item and what is wrong with it), -ESRCH (no
 * such process or thread; for a list, the sentence names the item), -ENOENT
 * (no such cgroup directory or CPU), -E2BIG (unknown @opts bytes), -ENOMEM.
 */
PEO_API int peo_target_new(struct peo_target **out, const struct peo_target_opts *opts);

/** peo_target_free() - free a target; NULL is ignored. */
PEO_API void peo_target_free(struct peo_target *target);

/** peo_target_cpu_count() - how many CPUs the target names (1 for "any CPU"). */
PEO_API size_t peo_target_cpu_count(const struct peo_target *target);

/** peo_target_cpu() - the @i-th CPU, or -1 for "any CPU" (task targets). */
PEO_API int peo_target_cpu(const struct peo_target *target, size_t i);

/** peo_target_thread_count() - how many threads the target names (1 for CPU targets). */
PEO_API size_t peo_target_thread_count(const struct peo_target *target);

/**
 * peo_target_thread() - the @i-th thread id: 0 for the calling thread, -1
 * for "every task" (CPU targets); for cgroup targets, -1 too (the cgroup fd
 * is passed to the kernel instead).
 */
PEO_API pid_t peo_target_thread(const struct peo_target *target, size_t i);

/** peo_target_kind() - the kind the target was made with. */
PEO_API enum peo_target_kind peo_target_kind(const struct peo_target *target);

/* ------------------------------------------------------------------ options */

struct peo_counter_opts {
	size_t sz;
	int enabled;        /* count from open; default: open disabled, start with _enable() */
	int enable_on_exec; /* start counting when the target task calls exec */
	int inherit;        /* also count tasks the target creates after open */
	int inherit_thread; /* with inherit: only threads (CLONE_THREAD), since 5.13 */
	int pinned;         /* the group always on the PMU, or in error state */
	int exclusive;      /* the group alone on the PMU */
	int exclude_user;   /* these four are ORed into every attr */
	int exclude_kernel;
	int exclude_hv;
	int exclude_idle;
	int user_read;      /* counters: map the control page for peo_counter_read()'s
	                     * self-read (rdpmc); only for the calling thread, and
	                     * only hardware-backed PMUs get a page (software,
	                     * tracepoint and breakpoint events are read() always) */
};

/* ------------------------------------------------------------------- counts */

/* One event's count, for one slot or summed over several.  The caller's
 * arrays of these (peo_group_read() fills n) have its sizeof as stride, so
 * the struct keeps its size: a value the kernel adds would come with a new
 * function, not a field here. */
struct peo_count {
	uint64_t value;        /* the raw count */
	uint64_t time_enabled; /* ns the event was enabled */
	uint64_t time_running; /* ns it was on the PMU; < time_enabled when multiplexed */
	uint64_t scaled;       /* estimate of the full count: value * enabled / running,
	                        * per slot, then summed; 0 when it never ran */
	uint64_t lost;         /* samples lost (PERF_FORMAT_LOST; 0 before 6.0) */
	uint64_t id;           /* the kernel's id of the event (first slot's when summed) */
};

/**
 * peo_count_scale() - @value * @enabled / @running without overflow.
 *
 * Return: the estimate (saturating at UINT64_MAX), @value when @enabled
 * equals @running, and 0 when @running is 0 (the event never ran).
 */
PEO_API uint64_t peo_count_scale(uint64_t value, uint64_t enabled, uint64_t running);

/* Which slots a breakdown sums. */
enum peo_count_by {
	PEO_COUNT_ALL = 0, /* every slot */
	PEO_COUNT_CPU,     /* the slots of the target's @index-th CPU */
	PEO_COUNT_THREAD,  /* the slots of the target's @index-th thread */
	PEO_COUNT_SLOT     /* the @index-th slot alone */
};

/* ------------------------------------------------------------------- groups */

struct peo_group;

/**
 * peo_group_open() - open @n events as one group on every slot of @target.
 * @out:    receives the group; close it with peo_group_close().
 * @attrs:  @n attrs; attrs[0] is the leader.  Copies are opened with
 *          read_format set to GROUP|ID|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING
 *          (and LOST where the kernel has it), the leader disabled unless
 *          opts->enabled, and the @opts flags applied.
 * @n:      1 or more.
 * @target: where to count; NULL means the calling thread.
 * @opts:   NULL for the defaults.
 *
 * Every fd is opened with PERF_FLAG_FD_CLOEXEC.  On failure nothing stays
 * open.
 *
 * Return: 0, or the negative errno of the open that failed (its sentence
 * names the event, the slot and the cause), -EINVAL for bad arguments,
 * -E2BIG for unknown @opts bytes, -ENOMEM.
 */
PEO_API int peo_group_open(struct peo_group **out, const struct peo_attr *attrs, size_t n,
			   const struct peo_target *target, const struct peo_counter_opts *opts);

/**
 * peo_group_open_events() - as peo_group_open() for events of a parsed
 * list, opened with peo_event_open()'s fallbacks.
 * @list:  a list from peo_event_parse().
 * @first: index of the leader in @list.
 * @n:     how many events from @first make the group.
 *
 * Return: as peo_group_open(); -EINVAL when @first + @n passes the list.
 */
PEO_API int peo_group_open_events(struct peo_group **out, const struct peo_event_list *list,
				  size_t first, size_t n, const struct peo_target *target,
				  const struct peo_counter_opts *opts);

/**
 * peo_group_new() - a group to add members to one at a time
 * (peo_group_add()), as perf-event's Group::new(): its leader (member 0)
 * is a software dummy event that counts nothing, open on every slot of
 * @target, disabled unless opts->enabled.
 * @out, @target, @opts: as peo_group_open().
 * Return: as peo_group_open().
 */
PEO_API int peo_group_new(struct peo_group **out, const struct peo_target *target,
			  const struct peo_counter_opts *opts);

/**
 * peo_group_add() - open @attr as a new member of @group on each of its
 * slots, with the options the group was opened with; its handle (the
 * member's index, which stays its index) in *@member.  Add members while
 * the group is disabled: a software member that joins a running group
 * counts from the group's next enable (Linux 6.18).
 * @group:  a group (peo_group_new(), peo_group_open()); not a counter.
 * @attr:   the event; copied.
 * @member: receives the handle for peo_group_count() (may be NULL).
 * Return: 0, or the open's negative errno (its sentence names the event
 * and cause; the group is then as it was), -EINVAL (NULL, or a counter),
 * -ENOMEM.
 */
PEO_API int peo_group_add(struct peo_group *group, const struct peo_attr *attr, size_t *member);

/**
 * peo_group_add_event() - peo_group_add() of one event string
 * ("instructions:u"), opened with peo_event_open()'s fallbacks.
 * Return: as peo_group_add(), what peo_event_parse() returns for @event,
 * or -EINVAL when @event is not exactly one event.
 */
PEO_API int peo_group_add_event(struct peo_group *group, const char *event, size_t *member);

/**
 * peo_group_count() - member @member's count (a handle from
 * peo_group_add(), or an index) in the last peo_group_read(), summed
 * over every slot: what perf-event's counts[&counter] gives.
 * Return: 0, or -EINVAL (NULL, no such member, or nothing read since the
 * group was opened or grew).
 */
PEO_API int peo_group_count(const struct peo_group *group, size_t member, struct peo_count *count);

/** peo_group_close() - close every fd and free the group; NULL is ignored. */
PEO_API void peo_group_close(struct peo_group *group);

/** peo_group_size() - the number of events (leader included). */
PEO_API size_t peo_group_size(const struct peo_group *group);

/** peo_group_slot_count() - the number of slots (target CPUs x threads). */
PEO_API size_t peo_group_slot_count(const struct peo_group *group);

/**
 * peo_group_fd() - the fd of event @member in slot @slot, for the caller's
 * own ioctls or mmap; owned by the group.
 * Return: the fd, -EINVAL when @slot or @member is out of range, or
 * -ESRCH for a slot of PEO_TARGET_ALL_THREADS or PEO_TARGET_PID whose
 * thread exited before it was opened (it counts nothing).
 */
PEO_API int peo_group_fd(const struct peo_group *group, size_t slot, size_t member);

/**
 * peo_group_enable(), peo_group_disable(), peo_group_reset() - one ioctl
 * with PERF_IOC_FLAG_GROUP on each slot's leader, so the members start,
 * stop or zero together.
 * Return: 0, or the negative errno of the first ioctl that failed.
 */
PEO_API int peo_group_enable(struct peo_group *group);
PEO_API int peo_group_disable(struct peo_group *group);
PEO_API int peo_group_reset(struct peo_group *group);

/**
 * peo_group_read() - read every slot (one read() each) and report the sums.
 * @counts: receives one count per member, in open order, each summed over
 *          every slot; may be NULL to only take the snapshot.
 * @n:      room in @counts; at least peo_group_size() unless @counts is NULL.
 *
 * Values are matched to members by id, not by position; members added to
 * the leader's fd by someone else are skipped.  The read buffer grows when
 * the kernel answers ENOSPC.  The snapshot stays for
 * peo_group_counts().
 *
 * Return: the number of members, or -EINVAL (@n too small), -ENODATA when
 * a slot's read returned 0 bytes (a pinned group that could not be
 * scheduled is in error state; reopen it), -EIO when the kernel's answer
 * does not match the group, or the read()'s negative errno.
 */
PEO_API int peo_group_read(struct peo_group *group, struct peo_count *counts, size_t n);

/**
 * peo_group_counts() - a breakdown of the last peo_group_read().
 * @by:    which slots to sum (enum peo_count_by).
 * @index: the CPU, thread or slot index in the target (ignored for ALL).
 * @counts, @n: as peo_group_read().
 * Return: the number of members, or -EINVAL (bad @by/@index, @n too small,
 * or nothing read yet).
 */
PEO_API int peo_group_counts(const struct peo_group *group, enum peo_count_by by, size_t index,
			     struct peo_count *counts, size_t n);

/** peo_group_slot_cpu(), peo_group_slot_thread() - what slot @slot counts. */
PEO_API int peo_group_slot_cpu(const struct peo_group *group, size_t slot);
PEO_API pid_t peo_group_slot_thread(const struct peo_group *group, size_t slot);

/* ----------------------------------------------------------------- counters */

struct peo_counter;

/**
 * peo_counter_open() - one event on every slot of @target.
 * @out:    receives the counter; close it with peo_counter_close().
 * @attr:   the event; a copy is opened with read_format
 *          ID|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING (and LOST).
 * @target, @opts: as peo_group_open().  With opts->user_read the control
 *          page is mapped so peo_counter_read() can use rdpmc; that needs
 *          a target of the calling thread.
 * Return: as peo_group_open(); -EINVAL for user_read on another target.
 */
PEO_API int peo_counter_open(struct peo_counter **out, const struct peo_attr *attr,
			     const struct peo_target *target, const struct peo_counter_opts *opts);

/** peo_counter_close() - close and free; NULL is ignored. */
PEO_API void peo_counter_close(struct peo_counter *counter);

/** peo_counter_enable(), _disable(), _reset() - as the group calls, one ioctl per slot. */
PEO_API int peo_counter_enable(struct peo_counter *counter);
PEO_API int peo_counter_disable(struct peo_counter *counter);
PEO_API int peo_counter_reset(struct peo_counter *counter);

/**
 * peo_counter_read() - the count summed over every slot.
 *
 * With opts->user_read, the control page is read under its seqlock; when
 * it allows user reads (cap_user_rdpmc and a live index) the value comes
 * from rdpmc and the times are extrapolated from the TSC, with no system
 * call.  Otherwise (as on machines without a CPU PMU, and for every
 * software event) it falls back to one read().
 *
 * Return: 0, -ENODATA on a 0-byte read (error state), or read()'s errno.
 */
PEO_API int peo_counter_read(struct peo_counter *counter, struct peo_count *count);

/** peo_counter_counts() - a breakdown of the last read; as peo_group_counts(). */
PEO_API int peo_counter_counts(const struct peo_counter *counter, enum peo_count_by by,
			       size_t index, struct peo_count *count);

/** peo_counter_fd() - the fd of slot @slot, owned by the counter; -EINVAL if out of range. */
PEO_API int peo_counter_fd(const struct peo_counter *counter, size_t slot);

/**
 * peo_counter_user_read_ok() - whether the last peo_counter_read() was done
 * in user space (1) or by read() (0); -EINVAL for a NULL counter.
 */
PEO_API int peo_counter_user_read_ok(const struct peo_counter *counter);

/**
 * peo_mmap_page_read() - one consistent read of a control page: the
 * seqlock protocol, the hardware counter when the page allows it, and
 * enabled/running extrapolated to now when cap_user_time is set.
 * @page:   a mapped control page (or a test's copy).
 * @count:  receives value (offset + counter), time_enabled, time_running.
 *
 * Return: 1 when @count is complete; 0 when the page says user reads are
 * impossible now (no rdpmc, or the event is not on a counter): read() the
 * fd instead.
 */
PEO_API int peo_mmap_page_read(const volatile struct peo_mmap_page *page, struct peo_count *count);

/* ------------------------------------------------------------ fork and exec */

struct peo_child;

/**
 * peo_child_spawn() - fork a child that waits, before exec'ing @argv, for
 * peo_child_start(): counters opened on its pid in between with
 * enable_on_exec count from its first instruction.
 * @out:  receives the child; free it with peo_child_free().
 * @argv: the command, NULL-terminated; argv[0] is looked up in PATH.
 *
 * Return: 0, or -EINVAL (empty @argv), or fork()/pipe()'s negative errno.
 */
PEO_API int peo_child_spawn(struct peo_child **out, const char *const argv[]);

/** peo_child_pid() - the child's pid. */
PEO_API pid_t peo_child_pid(const struct peo_child *child);

/**
 * peo_child_start() - let the child exec its command.
 * Return: 0 once the exec succeeded, or the exec's negative errno (-ENOENT
 * for a command not found; the sentence names it) after reaping the child.
 */
PEO_API int peo_child_start(struct peo_child *child);

/**
 * peo_child_wait() - wait for the child to end.
 * @status: receives the wait status (WIFEXITED/WIFSIGNALED apply).
 * @usage:  receives its resource usage, or NULL.
 * Return: 0, -EINTR when a signal arrived first (call again), or -ECHILD.
 */
PEO_API int peo_child_wait(struct peo_child *child, int *status, struct rusage *usage);

/**
 * peo_child_free() - free; a child never started is killed and reaped
 * first, one still running is left running.  NULL is ignored.
 */
PEO_API void peo_child_free(struct peo_child *child);

/**
 * peo_exit_code() - the exit status a shell would give for wait status
 * @status: the exit code, or 128 + the signal number.
 */
PEO_API int peo_exit_code(int status);

#ifdef __cplusplus
}
#endif

#endif /* PEO_COUNTER_H */
