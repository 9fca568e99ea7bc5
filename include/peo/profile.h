/*
 * peo/profile.h - samples aggregated by stack: what `peo report`, flame
 * graphs and pprof are made from, and what a C profiler gets without the
 * command.  A sample is added with its event, thread, CPU, comm and its
 * frames as peo_processes_lookup() named them (innermost first); samples
 * of the same everything are one stack, with their count and the sum of
 * their periods.  Memory follows the distinct stacks, not the samples.
 *
 * The frames' strings (sym, dso) are kept as pointers: they stay valid as
 * long as the peo_symbols that gave them.  comm strings are copied.
 * One thread at a time.
 */
#ifndef PEO_PROFILE_H
#define PEO_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

struct peo_profile;

/* Options of peo_profile_new(); zero them all. */
struct peo_profile_opts {
	size_t sz;
	int reserved; /* 0 */
};

/* One sample, as peo_profile_add() takes it. */
struct peo_profile_sample {
	size_t sz;                      /* sizeof(struct peo_profile_sample) */
	uint32_t event;                 /* its event's index in the recording */
	uint32_t pid, tid, cpu;
	const char *comm;               /* its thread's name, or NULL */
	const struct peo_frame *frames; /* innermost first: the ip, then its callers */
	size_t nframes;                 /* at least 1 */
	uint64_t period;                /* its weight (the sample's period) */
};

/* One stack, as peo_profile_stack() gives it. */
struct peo_profile_stack {
	uint32_t event, pid, tid, cpu;
	const char *comm;               /* NULL when the samples gave none */
	const struct peo_frame *const *frames; /* innermost first */
	size_t nframes;
	uint64_t count;                 /* samples */
	uint64_t period;                /* their periods' sum */
};

/**
 * peo_profile_new() - an empty profile.
 * @out:  receives it; free it with peo_profile_free().
 * @opts: NULL for the defaults.
 * Returns 0, -EINVAL (NULL @out, opts of an unknown size), -ENOMEM.
 */
PEO_API int peo_profile_new(struct peo_profile **out, const struct peo_profile_opts *opts);

/* peo_profile_free() - free @p (NULL is ignored). */
PEO_API void peo_profile_free(struct peo_profile *p);

/**
 * peo_profile_add() - add @s: to the stack of the same event, thread, CPU,
 * comm and frames (the same addresses, binaries and symbols), else to a
 * new one.
 * @p: the profile.
 * @s: the sample (its frames are copied; their strings are not).
 * Returns 0, -EINVAL (a NULL argument, an unknown size, no frames),
 * -ENOMEM.
 */
PEO_API int peo_profile_add(struct peo_profile *p, const struct peo_profile_sample *s);

/* peo_profile_last() - the stack the last sample added (peo_profile_add()
 * or _add_again()) was counted in; SIZE_MAX while @p holds none. */
PEO_API size_t peo_profile_last(const struct peo_profile *p);

/**
 * peo_profile_add_again() - one more sample of stack @i, of weight
 * @period: what peo_profile_add() of a sample with that stack's event,
 * thread, CPU, comm and frames does, without looking them up (a caller
 * that knows a sample repeats one, as peo report does when the raw
 * callchain repeats).
 * Returns 0, -EINVAL (a NULL @p), -ERANGE (no stack @i).
 */
PEO_API int peo_profile_add_again(struct peo_profile *p, size_t i, uint64_t period);

/* peo_profile_stacks() - how many stacks @p holds; they are numbered from 0
 * in the order they first came. */
PEO_API size_t peo_profile_stacks(const struct peo_profile *p);

/**
 * peo_profile_stack() - stack @i of @p.
 * @out: receives it (valid until @p changes or is freed).
 * Returns 0, -EINVAL (a NULL argument), -ERANGE (no stack @i).
 */
PEO_API int peo_profile_stack(const struct peo_profile *p, size_t i,
			      struct peo_profile_stack *out);

/* peo_profile_samples() - the samples added, and (@period, when not NULL)
 * their periods' sum, of event @event. */
PEO_API uint64_t peo_profile_samples(const struct peo_profile *p, uint32_t event,
				     uint64_t *period);

#ifdef __cplusplus
}
#endif

#endif /* PEO_PROFILE_H */
