/*
 * peo/sampler.h - sampling in one object: events named as perf's -e names
 * them (or given as attrs) opened on a target with the sampling options
 * perf record sets, their rings mapped (one per CPU, or per thread, the
 * other events' records sent into it with SET_OUTPUT), and the records
 * handed out parsed, bound to the events that made them.
 *
 *     PEO_OPTS(peo_sampler_opts, o, .freq = 1000);
 *     struct peo_sampler *s;
 *     const struct peo_record *r;
 *
 *     if (peo_sampler_open(&s, "cpu-clock", NULL, &o))
 *             return fprintf(stderr, "%s\n", peo_last_error()), 1;
 *     peo_sampler_enable(s);
 *     work();
 *     peo_sampler_disable(s);
 *     while (peo_sampler_next(s, &r) == 1)
 *             if (r->header.type == PEO_RECORD_SAMPLE)
 *                     printf("%s %#llx\n", peo_cpumode_name(peo_record_cpumode(r)),
 *                            (unsigned long long)r->u.sample.ip);
 *     peo_sampler_close(s);
 *
 * Thread safety: one thread at a time per sampler; separate samplers on
 * separate threads.
 */
#ifndef PEO_SAMPLER_H
#define PEO_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "abi.h"
#include "common.h"
#include "counter.h"
#include "record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The records a sampler asks for besides the samples (the first event's). */
enum peo_sampler_records {
	PEO_SAMPLER_COMM = 1u << 0,       /* COMM, exec's too (comm_exec) */
	PEO_SAMPLER_MMAP = 1u << 1,       /* MMAP2 of executable maps */
	PEO_SAMPLER_MMAP_DATA = 1u << 2,  /* and of data maps */
	PEO_SAMPLER_TASK = 1u << 3,       /* FORK and EXIT */
	PEO_SAMPLER_SWITCH = 1u << 4,     /* SWITCH (context_switch) */
	PEO_SAMPLER_NAMESPACES = 1u << 5, /* NAMESPACES */
	PEO_SAMPLER_CGROUP = 1u << 6,     /* CGROUP */
	PEO_SAMPLER_KSYMBOL = 1u << 7,    /* KSYMBOL */
	PEO_SAMPLER_TEXT_POKE = 1u << 8,  /* TEXT_POKE */
	PEO_SAMPLER_BPF = 1u << 9,        /* BPF_EVENT */
};

/* Initialise with PEO_OPTS(peo_sampler_opts, o, ...); zero means the default. */
struct peo_sampler_opts {
	size_t sz;
	/* Samples a second (per CPU or thread), the kernel adjusting the
	 * period, for every event, as perf record's -F.  When neither this
	 * nor @period is given, an event keeps its own (a freq= or period=
	 * term; tracepoints and breakpoints sample every hit), and the others
	 * sample 4000 times a second, as perf record's (or at
	 * kernel.perf_event_max_sample_rate where that is lower; a rate given
	 * above it is refused by the kernel, the sentence says so). */
	uint64_t freq;
	/* A sample every @period events instead, for every event (wins over
	 * @freq), as perf record's -c. */
	uint64_t period;
	/* PEO_SAMPLE_* bits besides those every sample has (IP, TID, TIME;
	 * PERIOD with a frequency; IDENTIFIER with several events; RAW and
	 * CPU for tracepoints; CPU on a CPU target), such as CALLCHAIN,
	 * ADDR, REGS_USER | STACK_USER. */
	uint64_t sample_type;
	unsigned records;        /* PEO_SAMPLER_* */
	uint32_t wakeup_events;  /* wake a waiter every N samples; 0: see wakeup_bytes */
	uint32_t wakeup_bytes;   /* wake when N bytes wait; 0 with wakeup_events 0:
				  * the kernel's default, half the ring */
	int use_clockid;         /* the timestamps of @clockid (CLOCK_MONOTONIC...) */
	int clockid;             /*   instead of the kernel's perf clock */
	int inherit;             /* the threads and processes the target creates too */
	int sigtrap;             /* a SIGTRAP to the sampled thread at each sample, with
				  * @sig_data in si_perf_data (the event is removed on exec,
				  * as the kernel requires) */
	uint64_t sig_data;
	int pinned;              /* the first event pinned to the PMU, */
	int exclusive;           /*   or alone on it */
	size_t ring_pages;       /* data pages per ring, a power of two; default 64 */
	int enabled;             /* sample from the open on; else from peo_sampler_enable() */
	uint32_t stack_user;     /* with PEO_SAMPLE_STACK_USER: bytes of user stack
				  * each sample copies; default 8192 */
	uint64_t regs_user;      /* with PEO_SAMPLE_REGS_USER: the registers (a mask
				  * of the machine's numbering); default the ones a
				  * DWARF unwinder needs (perf's --call-graph dwarf) */
	uint16_t max_stack;      /* with PEO_SAMPLE_CALLCHAIN: the frames kept; 0: the
				  * kernel's limit */
};

struct peo_sampler;

/**
 * peo_sampler_open() - open the events of @events on every slot of
 * @target for sampling, and map their rings.
 * @out:    receives the sampler; close it with peo_sampler_close().
 * @events: one or more events as peo_event_parse() takes them
 *          ("cpu-clock", "syscalls:sys_enter_openat,page-faults:u").
 * @target: where to sample; NULL means the calling thread (a thread
 *          target samples on any CPU into one ring; a CPU target has a
 *          ring per CPU).
 * @opts:   NULL for the defaults.
 *
 * The events open with peo_event_open()'s fallbacks, each fd with
 * PERF_FLAG_FD_CLOEXEC; a tracepoint's format is read here, for
 * peo_sampler_field().  On failure nothing stays open.
 *
 * Returns 0, or -EINVAL (a NULL @out or @events, bad @opts: the sentence
 * names the field), -E2BIG (unknown @opts bytes), what peo_event_parse()
 * returns for @events, the negative errno of the open that failed (its
 * sentence names the event, slot and cause: -EACCES under
 * perf_event_paranoid, -ENOENT without the PMU), what peo_ring_map()
 * returns (-EPERM past the locked-memory limit), -ENOMEM.
 */
PEO_API int peo_sampler_open(struct peo_sampler **out, const char *events,
			     const struct peo_target *target, const struct peo_sampler_opts *opts);

/**
 * peo_sampler_open_attrs() - as peo_sampler_open() for @n attrs of the
 * caller's (each copied, the sampling options set on the copies).
 * Events opened this way have no name (peo_sampler_event_name() gives
 * "") and no tracepoint fields.
 */
PEO_API int peo_sampler_open_attrs(struct peo_sampler **out, const struct peo_attr *attrs,
				   size_t n, const struct peo_target *target,
				   const struct peo_sampler_opts *opts);

/** peo_sampler_close() - unmap, close and free; NULL is ignored. */
PEO_API void peo_sampler_close(struct peo_sampler *s);

/**
 * peo_sampler_enable() / peo_sampler_disable() - start or stop every
 * event on every slot.  Returns 0 or the first ioctl's negative errno.
 */
PEO_API int peo_sampler_enable(struct peo_sampler *s);
PEO_API int peo_sampler_disable(struct peo_sampler *s);

/**
 * peo_sampler_next() - the next record of the rings, parsed.
 * @s:   the sampler.
 * @rec: receives a pointer to the record, valid until the next call on @s
 *       (its bytes are in a ring, or in the sampler's copy of one that
 *       wrapped the ring's end).
 *
 * Each ring's records come in its order, the rings one after another
 * (not merged by time: sort by sample time where that matters).
 * Returns 1 with a record, 0 when the rings hold no more for now (then
 * peo_sampler_wait(), or poll peo_sampler_fd()), or a negative errno:
 * -EPROTO for a record that cannot be parsed (its ring and stream offset
 * named; it is skipped, so the next call goes on), -EINVAL for NULL.
 */
PEO_API int peo_sampler_next(struct peo_sampler *s, const struct peo_record **rec);

/**
 * peo_sampler_wait() - block until a ring has records to read, or
 * @timeout_ms passes (-1: no limit).  Returns the number of rings ready,
 * 0 on timeout (or when every sampled task has exited and its records
 * were read), or a negative errno (-EINTR on a signal).
 */
PEO_API int peo_sampler_wait(struct peo_sampler *s, int timeout_ms);

/**
 * peo_sampler_fd() - an fd that polls readable when a ring has records
 * (for the caller's own poll or epoll loop; owned by @s).
 */
PEO_API int peo_sampler_fd(const struct peo_sampler *s);

/** peo_sampler_event_count() - the events opened. */
PEO_API size_t peo_sampler_event_count(const struct peo_sampler *s);

/**
 * peo_sampler_event_of() - which event @rec (from peo_sampler_next())
 * came from: its index, 0 .. peo_sampler_event_count() - 1, or -ENOENT
 * for a record no event's id names (a side record of several events
 * without the id: LOST, THROTTLE...; those of one event are its own).
 */
PEO_API int peo_sampler_event_of(const struct peo_sampler *s, const struct peo_record *rec);

/** peo_sampler_event_name() - event @i's name as perf prints it, or NULL past the end. */
PEO_API const char *peo_sampler_event_name(const struct peo_sampler *s, size_t i);

/** peo_sampler_attr() - event @i's attr as it was opened, or NULL past the end. */
PEO_API const struct peo_attr *peo_sampler_attr(const struct peo_sampler *s, size_t i);

/**
 * peo_sampler_field() - the tracepoint field called @name of sample @rec
 * (from peo_sampler_next()), as an integer (sign-extended when the format
 * says signed; a pointer's value for a string).
 * Returns 0 with *@value, -ENOENT when @rec's event is no tracepoint or
 * has no such field (the sentence names the event and lists its fields),
 * -EPROTO when the payload is too short for it, -EINVAL for NULL or a
 * record that is not a sample.
 */
PEO_API int peo_sampler_field(const struct peo_sampler *s, const struct peo_record *rec,
			      const char *name, int64_t *value);

/**
 * peo_sampler_lost() - records the kernel dropped because a ring was
 * full, as its LOST records have said so far (read them all first).
 */
PEO_API uint64_t peo_sampler_lost(const struct peo_sampler *s);

/* Where a record was made: header.misc's cpumode. */
enum peo_cpumode {
	PEO_CPUMODE_UNKNOWN = 0,
	PEO_CPUMODE_KERNEL = 1,
	PEO_CPUMODE_USER = 2,
	PEO_CPUMODE_HYPERVISOR = 3,
	PEO_CPUMODE_GUEST_KERNEL = 4,
	PEO_CPUMODE_GUEST_USER = 5,
};

/** peo_record_cpumode() - @rec's cpumode (header.misc's low bits). */
PEO_API enum peo_cpumode peo_record_cpumode(const struct peo_record *rec);

/** peo_cpumode_name() - "kernel", "user", "hypervisor", "guest-kernel", "guest-user" or "unknown". */
PEO_API const char *peo_cpumode_name(enum peo_cpumode mode);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PEO_SAMPLER_H */
