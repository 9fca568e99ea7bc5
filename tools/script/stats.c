/*
 * script/stats.c - peo script --stats: the file's records counted by
 * type and by event, as perf report --stats prints them.  It takes no
 * record one by one: the library counts the file whole, from the records'
 * headers, in the file's order.
 */
#include <inttypes.h>
#include <stdio.h>

#include "script/output.h"
#include "script/run.h"

/* perf report --stats's layout: by type number, then per event. */
static void print_stats(const struct script_run *run, const struct peo_perfdata_counts *c)
{
	printf("\nAggregated stats:\n");
	printf("%16s events: %10" PRIu64 "\n", "TOTAL", c->total);
	for (uint32_t t = 0; t < PEO_RECORD_USER_MAX; t++)
		if (c->by_type[t])
			printf("%16s events: %10" PRIu64 "  (%4.1f%%)\n", peo_user_record_type_name(t),
			       c->by_type[t], 100.0 * (double)c->by_type[t] / (double)c->total);
	for (size_t i = 0; i < c->nevents; i++) {
		const char *name = peo_perfdata_event_name(run->f, i);

		printf("%s stats:\n", name ? name : "event");
		printf("%16s events: %10" PRIu64 "\n", "SAMPLE", c->samples_by_event[i]);
		if (c->lost_samples_by_event[i]) /* the samples LOST_SAMPLES records say were lost */
			printf("%16s events: %10" PRIu64 "\n", "LOST_SAMPLES",
			       c->lost_samples_by_event[i]);
	}
}

static int stats_finish(struct script_run *run)
{
	struct peo_perfdata_counts counts = { .sz = sizeof(counts) };
	int got = peo_perfdata_count(run->f, &counts);

	if (!got)
		print_stats(run, &counts);
	else
		script_read_failed(run, got);
	if (!got)
		script_say_stopped(run);
	peo_perfdata_counts_free(&counts);
	return got < 0 ? -1 : 0;
}

const struct script_output script_stats_output = {
	.finish = stats_finish,
	.file_order = 1, /* counting needs neither order nor a parse */
};
