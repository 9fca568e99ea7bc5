/*
 * synth_sample.h - the samples of the tests' made-up perf.data files
 * (tie_dir, order_file, rings_synth): a cpu-clock event sampling
 * IP|TID|TIME|PERIOD, its samples as the kernel lays them out, and the
 * pseudo-random sequence their times and ips are drawn from.
 */
#ifndef PEO_TESTS_SYNTH_SAMPLE_H
#define PEO_TESTS_SYNTH_SAMPLE_H

#include <stdint.h>

#include "peo/peo.h"

struct synth_sample {
	struct peo_event_header h;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time, period;
};

/* The next of a xorshift sequence from *@x (not 0): the made-up times and ips. */
static inline uint64_t synth_next(uint64_t *x)
{
	*x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
	return *x;
}

/* The event: cpu-clock every 1000 ns, with or without @sample_id_all. */
static inline void synth_sample_attr(struct peo_attr *a, int sample_id_all)
{
	peo_attr_init(a);
	a->type = PEO_TYPE_SOFTWARE;
	a->config = PEO_COUNT_SW_CPU_CLOCK;
	a->sample_period = 1000;
	a->sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_PERIOD;
	a->sample_id_all = !!sample_id_all;
}

/* A user-mode sample of period 1000. */
static inline struct synth_sample synth_sample(uint64_t ip, uint32_t pid, uint32_t tid,
					       uint64_t time)
{
	struct synth_sample s = { { PEO_RECORD_SAMPLE, PEO_RECORD_MISC_USER, sizeof(s) },
				  ip, pid, tid, time, 1000 };

	return s;
}

#endif
