/*
 * mmap_read.c - reading a counter from its mmap control page without a
 * system call: the seqlock protocol, rdpmc, and the time extrapolation.
 */
#include "counter_internal.h"

#define barrier() __asm__ __volatile__("" ::: "memory")

#if defined(__x86_64__) || defined(__i386__)
static uint64_t read_pmc(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return (uint64_t)hi << 32 | lo;
}

static uint64_t read_cycles(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
#define HAVE_USER_PMC 1
#elif defined(__aarch64__)
/* arm64 maps the event counters by number; we only read time here. */
static uint64_t read_cycles(void)
{
	uint64_t v;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}
#define read_pmc NULL
#define HAVE_USER_PMC 0
#else
#define read_pmc NULL
#define read_cycles NULL
#define HAVE_USER_PMC 0
#endif

/* Nanoseconds the kernel's clock advanced since the page was written. */
static uint64_t time_delta(uint64_t cyc, uint64_t time_cycles, uint64_t time_mask, int cap_short,
			   uint16_t shift, uint32_t mult, uint64_t offset)
{
	uint64_t quot, rem;

	if (cap_short) /* the TSC is narrower than 64 bits: only its low bits count */
		cyc = time_cycles + ((cyc - time_cycles) & time_mask);
	/* (cyc * mult) >> shift, split so the product cannot overflow. */
	quot = cyc >> shift;
	rem = cyc & (((uint64_t)1 << shift) - 1);
	return offset + quot * mult + ((rem * mult) >> shift);
}

int peo_mmap_page_read_with(const volatile struct peo_mmap_page *pc, struct peo_count *count,
			    peo_pmc_reader pmc, peo_cycle_reader cycles)
{
	uint64_t enabled, running, cyc = 0, time_cycles = 0, time_mask = 0, offset = 0;
	uint64_t caps, value = 0;
	uint32_t seq, index, mult = 0;
	uint16_t shift = 0, width;
	int user_time;

	do {
		seq = pc->lock;
		barrier();
		enabled = pc->time_enabled;
		running = pc->time_running;
		caps = pc->capabilities;
		user_time = (caps & PEO_CAP_USER_TIME) && cycles;
		if (user_time) {
			cyc = cycles();
			time_cycles = pc->time_cycles;
			time_mask = pc->time_mask;
			mult = pc->time_mult;
			shift = pc->time_shift;
			offset = pc->time_offset;
		}
		index = pc->index;
		if (!(caps & PEO_CAP_USER_RDPMC) || !index || !pmc)
			return 0; /* read() the fd */
		value = (uint64_t)pc->offset;
		width = pc->pmc_width;
		if (width >= 1 && width <= 64) {
			/* Sign-extend the counter from its width, then add. */
			int64_t raw = (int64_t)(pmc(index - 1) << (64 - width));

			value += (uint64_t)(raw >> (64 - width));
		}
		barrier();
	} while (pc->lock != seq);

	if (user_time) { /* the page's times are as of its last update */
		uint64_t delta = time_delta(cyc, time_cycles, time_mask,
					    !!(caps & PEO_CAP_USER_TIME_SHORT), shift, mult, offset);

		enabled += delta;
		running += delta; /* index != 0: the event is on the PMU now */
	}
	count->value = value;
	count->time_enabled = enabled;
	count->time_running = running;
	count->scaled = peo_count_scale(value, enabled, running);
	return 1;
}

int peo_mmap_page_read(const volatile struct peo_mmap_page *page, struct peo_count *count)
{
	if (!page || !count)
		return 0;
	return peo_mmap_page_read_with(page, count, HAVE_USER_PMC ? read_pmc : NULL, read_cycles);
}
