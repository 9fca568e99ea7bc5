/*
 * order_file.h - a made-up perf.data of samples whose times go back now
 * and then, with FINISHED_ROUND records, for the checks that time order is
 * perf's (test_time_order's model of perf's queue, and order_synth for
 * script_compare's comparison with perf script).
 */
#ifndef PEO_TESTS_ORDER_FILE_H
#define PEO_TESTS_ORDER_FILE_H

#include <stddef.h>
#include <stdint.h>

/* How the samples' times go. */
enum order_kind {
	ORDER_RINGS_CLOSE,  /* rings a little apart, as perf record writes them (a
			     * record a nanosecond or two under a round's flush happens) */
	ORDER_FAR_BACK,     /* and now and then one far older than its round's flush */
	ORDER_RINGS_DRIFT,  /* rings that drift apart: records often older */
};

/* What the writer tells of each record it writes, in file order. */
struct order_file_calls {
	void (*sample)(void *arg, uint64_t time, uint64_t ip);
	void (*round)(void *arg); /* a FINISHED_ROUND */
	void *arg;
};

/*
 * Write @path: a cpu-clock event (IP|TID|TIME|PERIOD, sample_id_all), then
 * 200 to @most samples of @kind (ips from 0x1000 up, in file order) drawn
 * from @seed, FINISHED_ROUND one record in 40.  @calls may be NULL.
 * Returns the number of samples, or -1 with why in @why.
 */
long order_file_write(const char *path, enum order_kind kind, uint64_t seed, size_t most,
		      const struct order_file_calls *calls, char *why, size_t cap);

#endif
