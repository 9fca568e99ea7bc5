/*
 * user_fallback.c - perf's fallback when perf_event_paranoid refuses kernel
 * mode, shared by peo record and peo stat: the events become user space
 * only (:u), and stderr says so as perf does.
 */
#include <stdio.h>

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
