/*
 * user_fallback.c - perf's fallbacks, shared by peo record and peo stat:
 * when perf_event_paranoid refuses kernel mode the events become user space
 * only (:u); on a machine without the cycles event (no hardware PMU) a -e
 * cycles samples cpu-clock; a frequency above the kernel's maximum is
 * lowered to it.  stderr says each, as perf does.
 */
#include <stdio.h>
#include <stdlib.h>

#include <peo/event.h>

#include "commands.h"

int user_fallback(struct peo_event_list *list, int err, const char *tool, const char *doing)
{
	long level = 0;

	if (peo_event_user_fallback(list, err, &level) <= 0)
		return 0;
	fprintf(stderr, "peo %s: kernel.perf_event_paranoid is %ld: %s user space only "
		"(the :u modifier), as perf falls back\n", tool, level, doing);
	return 1;
}

int cycles_fallback(struct peo_event_list *list, int err, const char *tool, const char *doing)
{
	int n = peo_event_cycles_fallback(list, err);

	if (n <= 0)
		return 0;
	/* perf says this only with -v; a cycles asked for by name and not
	 * counted deserves a word */
	fprintf(stderr, "peo %s: the cycles event is not supported here (no hardware PMU): %s "
		"cpu-clock instead, as perf falls back\n", tool, doing);
	return 1;
}

uint64_t freq_limit(uint64_t freq, int is_default)
{
	char text[32];
	unsigned long long max;
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
	int ok = f && fgets(text, sizeof(text), f);

	if (f)
		fclose(f);
	if (!ok || !(max = strtoull(text, NULL, 10)) || freq <= max)
		return freq;
	/* perf 6.1's words (its numbers have no thousands separators here) */
	if (is_default)
		fprintf(stderr, "Lowering default frequency rate from %llu to %llu.\n"
			"Please consider tweaking /proc/sys/kernel/perf_event_max_sample_rate.\n",
			(unsigned long long)freq, max);
	else
		fprintf(stderr, "warning: Maximum frequency rate (%llu Hz) exceeded, throttling from "
			"%llu Hz to %llu Hz.\n"
			"         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
			"         The kernel will lower it when perf's interrupts take too long.\n",
			max, (unsigned long long)freq, max);
	return max;
}
