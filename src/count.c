/*
 * count.c - multiplex scaling and summing counts.
 */
#include "counter_internal.h"

uint64_t peo_count_scale(uint64_t value, uint64_t enabled, uint64_t running)
{
	if (!running)
		return 0;
	if (enabled == running)
		return value;
#ifdef __SIZEOF_INT128__
	{
		/* 128 bits hold any u64 * u64; only the quotient can overflow. */
		unsigned __int128 q = (unsigned __int128)value * enabled / running;

		return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
	}
#else
	{
		/* value * enabled / running = q * enabled + r * enabled / running,
		 * with value = q * running + r; r * enabled may still overflow, so
		 * fall back to floating point for that last term. */
		uint64_t q = value / running, r = value % running;
		long double tail = (long double)r * enabled / running;

		if (q && enabled > UINT64_MAX / q)
			return UINT64_MAX;
		q *= enabled;
		return tail > (long double)(UINT64_MAX - q) ? UINT64_MAX : q + (uint64_t)tail;
	}
#endif
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void peo_count_add(struct peo_count *sum, const struct peo_count *c)
{
	if (!sum->id)
		sum->id = c->id;
	sum->value += c->value; /* raw counts wrap as the kernel's do */
	sum->time_enabled = add_sat(sum->time_enabled, c->time_enabled);
	sum->time_running = add_sat(sum->time_running, c->time_running);
	sum->scaled = add_sat(sum->scaled, c->scaled);
	sum->lost = add_sat(sum->lost, c->lost);
}
