/*
 * order_file.c - order_file.h's perf.data of samples that go back in time.
 */
#include <stdio.h>
#include <string.h>

#include "order_file.h"
#include "synth_sample.h"

/* The next sample's time in a file of @kind. */
static uint64_t time_of(enum order_kind kind, uint64_t *x, uint64_t *clock, uint64_t rings[4])
{
	uint64_t t;

	*clock += synth_next(x) % 3;
	t = 100 + *clock - synth_next(x) % 3;
	if (kind == ORDER_FAR_BACK && synth_next(x) % 50 == 0)
		t -= synth_next(x) % 60;
	if (kind == ORDER_RINGS_DRIFT) {
		uint64_t *ring = &rings[synth_next(x) % 4];

		*ring += 1 + synth_next(x) % 3 + (ring == &rings[0]); /* ring 0 runs ahead */
		t = *ring;
	}
	return t;
}

long order_file_write(const char *path, enum order_kind kind, uint64_t seed, size_t most,
		      const struct order_file_calls *calls, char *why, size_t cap)
{
	struct peo_attr a;
	struct peo_perfdata_writer *w;
	uint64_t id = 7, x = seed * 0x9e3779b97f4a7c15u | 1, clock = 0, rings[4] = { 0 };
	size_t n;

	synth_sample_attr(&a, 1);
	if (most < 200 || peo_perfdata_writer_open(&w, path))
		goto failed;
	if (peo_perfdata_writer_add_event(w, &a, &id, 1, "cpu-clock"))
		goto abandon;
	n = 200 + synth_next(&x) % (most - 199);
	for (size_t i = 0; i < n; i++) {
		/* times in microseconds: perf script's shows them apart */
		struct synth_sample s = synth_sample(0x1000 + i, 1, 1,
						     1000 * time_of(kind, &x, &clock, rings));

		if (peo_perfdata_writer_record(w, &s, sizeof(s)))
			goto abandon;
		if (calls && calls->sample)
			calls->sample(calls->arg, s.time, s.ip);
		if (synth_next(&x) % 40)
			continue;
		if (peo_perfdata_writer_finished_round(w))
			goto abandon;
		if (calls && calls->round)
			calls->round(calls->arg);
	}
	if (peo_perfdata_writer_close(w))
		goto failed;
	return (long)n;
abandon:
	peo_perfdata_writer_abandon(w);
failed:
	snprintf(why, cap, "%s: %s", path, most < 200 ? "asked for under 200 samples"
						       : peo_last_error());
	return -1;
}
