/*
 * number_arg.c - a whole-number option, checked and its range said when
 * it is not one.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"

int number_arg(const char *tool, const char *opt, const char *text, long min, long max,
	       const char *hint, long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(text, &end, 10);
	if (!errno && end != text && !*end && n >= min && n <= max) {
		*out = n;
		return 0;
	}
	if (max == LONG_MAX)
		fprintf(stderr, "peo %s: %s '%s': give a whole number from %ld up%s\n", tool, opt,
			text, min, hint);
	else
		fprintf(stderr, "peo %s: %s '%s': give a whole number from %ld to %ld%s\n", tool,
			opt, text, min, max, hint);
	return -1;
}
