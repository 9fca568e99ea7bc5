/*
 * rings_synth.c - rings_synth FILE ROUNDS RINGS PER: a perf.data as perf
 * record -a writes it on a machine of RINGS CPUs: ROUNDS rounds, each the
 * RINGS rings' records one ring after the other (PER cpu-clock samples
 * each, in time order within the ring, interleaved in time across them),
 * then FINISHED_ROUND.  For bench/script_vs_perf.sh's many-CPU row, where
 * time order merges RINGS runs a record.
 */
#include <stdio.h>
#include <stdlib.h>

#include "synth_sample.h"

int main(int argc, char **argv)
{
	struct peo_perfdata_writer *w;
	struct peo_attr a;
	uint64_t ids[1] = { 7 }, x = 0x9e3779b97f4a7c15ULL, n = 0;
	long rounds, rings, per;

	if (argc != 5 || (rounds = atol(argv[2])) <= 0 || (rings = atol(argv[3])) <= 0 ||
	    (per = atol(argv[4])) <= 0) {
		fprintf(stderr, "usage: rings_synth FILE ROUNDS RINGS PER (each a number above 0)\n");
		return 2;
	}
	synth_sample_attr(&a, 1); /* sample_id_all: perf script sorts by time */
	if (peo_perfdata_writer_open(&w, argv[1]) ||
	    peo_perfdata_writer_add_event(w, &a, ids, 1, "cpu-clock"))
		goto fail;
	for (long r = 0; r < rounds; r++) {
		for (long ring = 0; ring < rings; ring++) {
			uint64_t t = 1000000000ull * (uint64_t)r; /* a second a round */

			for (long i = 0; i < per; i++) {
				struct synth_sample smp;

				t += synth_next(&x) % (1000000000ull / (uint64_t)per); /* within the round */
				smp = synth_sample(0x400000 + n++, 500, (uint32_t)ring, t);
				if (peo_perfdata_writer_record(w, &smp, sizeof(smp)))
					goto fail;
			}
		}
		if (peo_perfdata_writer_finished_round(w))
			goto fail;
	}
	if (!peo_perfdata_writer_close(w))
		return 0;
	w = NULL; /* close freed it, failing too */
fail:
	fprintf(stderr, "rings_synth: %s\n", peo_last_error());
	peo_perfdata_writer_abandon(w);
	return 1;
}
