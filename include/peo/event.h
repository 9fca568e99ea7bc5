/*
 * peo/event.h - the event layer: perf's event strings ("cycles:u",
 * "{task-clock,page-faults}:u", "msr/tsc/", "sched:sched_switch",
 * "mem:0x1000/8:w", "r1a2", "L1-dcache-load-misses", ...) parsed into attrs
 * encoded exactly as perf encodes them, with sysfs PMU formats and aliases,
 * tracepoints, breakpoints and uprobes/kprobes.
 *
 * Functions that can fail return 0 or a count on success and a negative errno
 * on failure, leaving a sentence in peo_last_error() that names the offending
 * token, its column (1-based) and, for unknown names, the nearest known one:
 * "unknown event 'cyles' at column 1: did you mean 'cycles'?".
 */
#ifndef PEO_EVENT_H
#define PEO_EVENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "abi.h"
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where an event's encoding came from. */
enum peo_event_kind {
	PEO_EVENT_KIND_HARDWARE = 0, /* cycles, instructions, ...            */
	PEO_EVENT_KIND_SOFTWARE,     /* task-clock, page-faults, ...         */
	PEO_EVENT_KIND_CACHE,        /* L1-dcache-load-misses, ...           */
	PEO_EVENT_KIND_RAW,          /* rNNNN                                */
	PEO_EVENT_KIND_PMU,          /* pmu/terms/ or a sysfs alias          */
	PEO_EVENT_KIND_TRACEPOINT,   /* subsystem:event                      */
	PEO_EVENT_KIND_BREAKPOINT,   /* mem:ADDR[/LEN][:rwx]                 */
	PEO_EVENT_KIND_UPROBE,       /* uprobe:PATH:SYMBOL[+OFF], uretprobe: */
	PEO_EVENT_KIND_KPROBE,       /* kprobe:SYMBOL[+OFF], kretprobe:      */
};

/* Modifiers that are not attr bits; the opener acts on them. */
enum peo_event_flags {
	PEO_EVENT_PRECISE_MAX = 1u << 0, /* :P - lower precise_ip from 3 until it opens */
	PEO_EVENT_SAMPLE_READ = 1u << 1, /* :S - leader sampling (PERF_SAMPLE_READ)     */
	PEO_EVENT_WEAK_GROUP = 1u << 2,  /* :W - open members alone if the group fails  */
	PEO_EVENT_IN_GROUP = 1u << 3,    /* written inside { }                          */
};

struct peo_event;      /* one event of a parsed string; owned by its list */
struct peo_event_list; /* the events of one string, in order */

/* Where the parser looks for PMUs and tracepoints; NULL fields mean the defaults. */
struct peo_event_parse_opts {
	size_t sz;
	/* PMU directories; default /sys/bus/event_source/devices. */
	const char *pmu_dir;
	/* tracefs; default /sys/kernel/tracing, then /sys/kernel/debug/tracing. */
	const char *tracefs_dir;
};

/**
 * peo_event_parse() - parse a perf event string into events.
 * @out:  receives the list; free it with peo_event_list_free().
 * @str:  one or more events separated by commas, as perf's -e takes them:
 *        generic hardware/software/cache names and aliases, rNNNN,
 *        pmu/term=value,.../, PMU aliases (pmu/alias/ or a bare alias),
 *        subsystem:event tracepoints with * and ? globs, mem:ADDR[/LEN][:rwx],
 *        uprobe:PATH:SYMBOL[+OFF] | uprobe:PATH:0xOFF (uretprobe: for the
 *        return), kprobe:SYMBOL[+OFF] | kprobe:0xADDR (kretprobe:); groups
 *        {a,b}; modifiers :ukhGHIDSWepP (p up to three times) on events and
 *        groups; terms config, config1, config2, config3, period, freq, name
 *        and the PMU's own format terms.
 * @opts: NULL, or directories to read instead of the system's (tests use
 *        fixture trees).
 *
 * Every event's attr has size sizeof(struct peo_attr) and the event fields
 * perf would set (type, config*, bp_*, exclude_*, precise_ip, pinned,
 * exclusive, sample_period/freq from terms, and sample_period 1 for
 * tracepoints and breakpoints, as perf does); everything a tool adds when it
 * opens (read_format, disabled, inherit, ...) is left zero.
 *
 * Return: the number of events (> 0), or a negative errno: -EINVAL for a
 * syntax error, an unknown name or term, a value out of range; -ENOENT when
 * a PMU, alias, tracepoint, file or symbol does not exist; -E2BIG when @opts
 * has fields this library does not know set; -ENOMEM.  peo_last_error() says
 * which token at which column, and what to do.
 */
PEO_API int peo_event_parse(struct peo_event_list **out, const char *str,
			    const struct peo_event_parse_opts *opts);

/**
 * peo_event_list_free() - free a list and its events; NULL is ignored.
 * @list: from peo_event_parse().
 */
PEO_API void peo_event_list_free(struct peo_event_list *list);

/**
 * peo_event_list_count() - how many events a list holds.
 * @list: from peo_event_parse().
 * Return: the count (0 for NULL).
 */
PEO_API size_t peo_event_list_count(const struct peo_event_list *list);

/**
 * peo_event_list_get() - one event of a list.
 * @list:  from peo_event_parse().
 * @index: 0 .. count-1.
 * Return: the event, valid until the list is freed; NULL if @index is out of range.
 */
PEO_API const struct peo_event *peo_event_list_get(const struct peo_event_list *list,
						   size_t index);

/**
 * peo_event_attr() - the attr an event encodes to.
 * @ev: an event of a list.
 *
 * For uprobes and kprobes the attr holds a pointer to a path or symbol owned
 * by the list: open it before freeing the list.
 *
 * Return: the attr, valid until the list is freed.
 */
PEO_API const struct peo_attr *peo_event_attr(const struct peo_event *ev);

/**
 * peo_event_name() - the event's display name: the name= term if given,
 * else the event as written (with its modifiers), e.g. "cycles:u",
 * "msr/tsc/", "sched:sched_switch" (one name per glob match).
 * @ev: an event of a list.
 * Return: the name, valid until the list is freed.
 */
PEO_API const char *peo_event_name(const struct peo_event *ev);

/**
 * peo_event_pmu() - the name of the PMU the event belongs to ("software",
 * "msr", "tracepoint", "breakpoint", "uprobe"; "cpu" for hardware and cache
 * events).
 * @ev: an event of a list.
 * Return: the name, valid until the list is freed.
 */
PEO_API const char *peo_event_pmu(const struct peo_event *ev);

/**
 * peo_event_kind() - which kind of name the event was written as.
 * @ev: an event of a list.
 * Return: a PEO_EVENT_KIND_* value.
 */
PEO_API enum peo_event_kind peo_event_kind(const struct peo_event *ev);

/**
 * peo_event_kind_name() - "hardware", "software", "cache", "raw", "pmu",
 * "tracepoint", "breakpoint", "uprobe", "kprobe".
 * @kind: a PEO_EVENT_KIND_* value.
 * Return: a static string; "unknown" for other values.
 */
PEO_API const char *peo_event_kind_name(enum peo_event_kind kind);

/**
 * peo_event_leader() - the index in the list of the event's group leader.
 * @ev: an event of a list.
 * Return: the leader's index; an event outside braces and the first event of
 * a group lead themselves.
 */
PEO_API size_t peo_event_leader(const struct peo_event *ev);

/**
 * peo_event_flags() - modifiers that are not attr bits.
 * @ev: an event of a list.
 * Return: PEO_EVENT_* flags ORed together.
 */
PEO_API unsigned int peo_event_flags(const struct peo_event *ev);

/**
 * peo_event_scale() - the factor a count is multiplied by before display,
 * from a sysfs alias's .scale file.
 * @ev: an event of a list.
 * Return: the scale; 1.0 when the event has none.
 */
PEO_API double peo_event_scale(const struct peo_event *ev);

/**
 * peo_event_unit() - the unit of the scaled count, from a sysfs alias's .unit
 * file ("Joules", "MiB"), or "" when the event has none.
 * @ev: an event of a list.
 * Return: the unit, valid until the list is freed.
 */
PEO_API const char *peo_event_unit(const struct peo_event *ev);

/**
 * peo_event_open() - open an event as perf would, with perf's fallbacks.
 * @ev:       an event of a list.
 * @attr:     NULL to open the event's own attr; or the caller's copy of it
 *            with fields added (read_format, sample_type, disabled, ...),
 *            which is updated to the attr the kernel accepted.
 * @pid, @cpu, @group_fd, @flags: as for peo_sys_perf_event_open().
 *
 * The attr is opened through peo_sys_open() (size negotiation).  When the
 * kernel refuses it, perf's fallbacks are tried in turn: for :P, precise_ip
 * from 3 down to 0; for PMUs that reject guest/host filtering (the msr PMU),
 * exclude_guest and exclude_host cleared.
 *
 * Return: the fd, or the negative errno of the first attempt, whose sentence
 * peo_last_error() keeps (with the fallbacks tried appended).
 */
PEO_API int peo_event_open(const struct peo_event *ev, struct peo_attr *attr, pid_t pid,
			   int cpu, int group_fd, unsigned long flags);

/**
 * peo_event_list_user_only() - make every event of @list that asked for
 * neither user nor kernel only count user space only, as the :u modifier
 * does: exclude_kernel and exclude_hv set, ":u" added to its name, or "u"
 * after a name with ':' or '/'.  An event with exclude_user or
 * exclude_kernel is left alone.
 * @list: the parsed events.
 * Return: how many events changed, -EINVAL for a NULL @list, or -ENOMEM
 * (events renamed before it keep their change).
 */
PEO_API int peo_event_list_user_only(struct peo_event_list *list);

/**
 * peo_event_user_fallback() - perf's answer to a refusal by
 * perf_event_paranoid: when @err (an open's negative errno) is -EACCES or
 * -EPERM and the level is above 1, peo_event_list_user_only(@list), so the
 * caller can open the list again.  An event with exclude_user is left
 * alone: it would count nothing.
 * @list: the parsed events.
 * @err:  the failed open's negative errno.
 * @level: receives the paranoid level read (may be NULL).
 * Return: how many events changed (0: this refusal is not one the fallback
 * helps, or every event already excludes the kernel), -EINVAL for a NULL
 * @list, or -ENOMEM.
 */
PEO_API int peo_event_user_fallback(struct peo_event_list *list, int err, long *level);

/**
 * peo_event_cycles_fallback() - perf's answer to a machine without the
 * cycles event: when @err (an open's negative errno) is -ENOENT, -ENXIO or
 * -ENODEV, every hardware cycles event of @list (cycles, cpu-cycles, with
 * any modifiers) becomes the software cpu-clock, keeping its modifiers, and
 * is renamed as perf names it: "cpu-clock" and the modifiers its attr
 * holds (cycles:u becomes cpu-clock:uH, cycles:k cpu-clock:k).
 * @list: the parsed events.
 * @err:  the failed open's negative errno.
 * Return: how many events changed (0: none to change, or @err is not one
 * the fallback helps), -EINVAL for a NULL @list, or -ENOMEM (events
 * changed before it keep their change).
 */
PEO_API int peo_event_cycles_fallback(struct peo_event_list *list, int err);

/* ------------------------------------------------ typed event constructors */

/* peo_attr_uprobe() and peo_attr_kprobe() flags. */
enum peo_probe_flags {
	PEO_PROBE_RETURN = 1u << 0, /* the function's return (uretprobe, kretprobe) */
};

/**
 * peo_attr_uprobe() - @attr for a uprobe, as the string
 * "uprobe:PATH:SYMBOL" encodes it (the uprobe PMU's type, each hit a
 * sample, the host only): open it with peo_counter_open(),
 * peo_group_open() or peo_sampler_open_attrs().
 * @attr:   receives the attr.
 * @path:   the binary; the attr points at this string, which must stay
 *          valid until the event is opened.
 * @symbol: a function of @path's symbol table, or NULL for @offset alone.
 * @offset: bytes past @symbol, or the file offset when @symbol is NULL.
 * @flags:  PEO_PROBE_RETURN for the function's return.
 * Returns 0, or -EINVAL (a NULL argument, unknown flags), -ENOENT (no
 * uprobe PMU, no retprobe format, no such file or symbol: the sentence
 * says which), -ENOMEM.
 */
PEO_API int peo_attr_uprobe(struct peo_attr *attr, const char *path, const char *symbol,
			    uint64_t offset, unsigned flags);

/**
 * peo_attr_kprobe() - @attr for a kprobe, as "kprobe:SYMBOL+OFF" (or
 * "kprobe:0xADDR" with a NULL @symbol) encodes it.
 * @symbol: a kernel function; the attr points at this string, which must
 *          stay valid until the event is opened.  NULL: @offset is an
 *          address.
 * @offset: bytes past @symbol, or the address.
 * @flags:  PEO_PROBE_RETURN for the function's return.
 * Returns 0, or -EINVAL (NULL @attr, unknown flags), -ENOENT (no kprobe
 * PMU: a kernel without CONFIG_KPROBE_EVENTS, or no retprobe format).
 */
PEO_API int peo_attr_kprobe(struct peo_attr *attr, const char *symbol, uint64_t offset,
			    unsigned flags);

/**
 * peo_attr_breakpoint() - @attr for a hardware breakpoint, as
 * "mem:ADDR/LEN:rwx" encodes it.
 * @addr:   the address watched.
 * @len:    bytes watched, 1 to 8; 0 for perf's default (an instruction's
 *          pointer size for PEO_BP_X, else 4).
 * @access: PEO_BP_R, PEO_BP_W, PEO_BP_RW or PEO_BP_X.
 * Returns 0, or -EINVAL naming what is wrong.
 */
PEO_API int peo_attr_breakpoint(struct peo_attr *attr, uint64_t addr, uint32_t len,
				uint32_t access);

/**
 * peo_task_events_enable(), peo_task_events_disable() - start or stop
 * every event the calling thread opened, wherever they count
 * (prctl(PR_TASK_PERF_EVENTS_ENABLE / _DISABLE)), as perf-event's
 * enable/disable of all counters does.
 * Returns 0 or prctl's negative errno.
 */
PEO_API int peo_task_events_enable(void);
PEO_API int peo_task_events_disable(void);

/* One name a machine offers, as peo_event_foreach() reports it: libpeo's,
 * handed over by pointer, so it may grow at its end. */
struct peo_event_info {
	const char *name;         /* a string peo_event_parse() accepts */
	const char *aliases;      /* other spellings, space separated, or "" */
	enum peo_event_kind kind;
	const char *pmu;          /* as peo_event_pmu() */
	const char *alias_of;     /* for aliases: the terms they expand to; else NULL */
	const char *description;  /* one line, or "" */
};

/* Return non-zero to stop the walk; peo_event_foreach() returns that value. */
typedef int (*peo_event_visit_fn)(const struct peo_event_info *info, void *ctx);

/**
 * peo_event_foreach() - every event name this machine offers: the generic
 * software, hardware and cache events, each PMU's sysfs aliases, and every
 * tracepoint, in that order.  It does not check which ones open.
 * @visit: called once per name; @info is valid only during the call.
 * @ctx:   passed to @visit.
 * @opts:  as for peo_event_parse().
 *
 * Return: 0 when every name was visited, the first non-zero value @visit
 * returned, or a negative errno (-E2BIG for unknown @opts fields, -ENOMEM).
 * Missing sysfs or tracefs directories are not errors: they offer no names.
 */
PEO_API int peo_event_foreach(peo_event_visit_fn visit, void *ctx,
			      const struct peo_event_parse_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* PEO_EVENT_H */
