/*
 * sym_sample.c - a program with known functions for test_sym_elf.c and
 * sym_elf_compare.sh: plain ones, aliases for perf's choice among symbols
 * at one address, and calls through the PLT (labs, built -fno-builtin-labs,
 * so that samples land in its PLT entry).  Run as "sym_sample SECONDS" it
 * burns CPU in them (for perf record).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline, used))

volatile long sink;

NOINLINE long leaf(long x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 3 + (x >> 7);
	return x;
}

NOINLINE long mid(long x)
{
	return leaf(x) + leaf(x + 1);
}

/* a local with a global alias: the global is kept */
static NOINLINE long __local_twice(long x)
{
	return mid(x) * 2;
}
extern long twice(long x) __attribute__((alias("__local_twice")));

/* a weak and a global alias: the global is kept */
NOINLINE long strong_name(long x)
{
	return labs(x - 3) + leaf(x);
}
extern long weak_name(long x) __attribute__((weak, alias("strong_name")));

/* two globals: the one with fewer leading underscores */
NOINLINE long __two_under(long x)
{
	return labs(x) + 1;
}
extern long _one_under(long x) __attribute__((alias("__two_under")));

/* two globals, as many underscores: the longer name */
NOINLINE long short_nm(long x)
{
	return labs(x) + 2;
}
extern long short_nm_longer(long x) __attribute__((alias("short_nm")));

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? strtod(argv[1], NULL) : 0;
	time_t end = time(NULL) + (time_t)seconds;
	long n = 0;

	do {
		for (int i = 0; i < 2000; i++)
			sink += twice(i) + weak_name(i) + _one_under(i) + short_nm_longer(i);
		n++;
	} while (seconds > 0 && time(NULL) < end);
	printf("%ld\n", n);
	return 0;
}
