/*
 * srcline_sample.c - a program whose hot code is in a header
 * (srcline_sample.h) and in a function inlined into its caller, for
 * sym_srcline_compare.sh.  "srcline_sample SECONDS" burns CPU there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "srcline_sample.h"

void *srcline_noted;
volatile long sink;

__attribute__((noinline)) void srcline_note(void)
{
	srcline_noted = __builtin_return_address(0);
	sink += hdr_spin(2000);
}

__attribute__((noinline)) long outer(long x)
{
	return hdr_inlined(x) + hdr_spin(x & 1023);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? strtod(argv[1], NULL) : 0;
	time_t end = time(NULL) + (time_t)seconds;
	long n = 0;

	do {
		for (int i = 0; i < 200; i++)
			sink += outer(i);
		n++;
	} while (seconds > 0 && time(NULL) < end);
	printf("%ld\n", n);
	return 0;
}
