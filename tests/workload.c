/*
 * workload.c - a program whose work is known exactly, for comparing peo's
 * counts with perf's and with the truth:
 *     workload [-n GETPPID_CALLS] [-m FRESH_PAGES] [-s SPIN_MS] [-b BURN_MS] [-r DEPTH] [-T THREADS] [-w] [-e STATUS] [-k SIGNAL]
 * -b burns the CPU in user space in burn_loop() (a known hot function for
 * profilers, unlike -s, whose time is mostly clock_gettime in the kernel),
 * called -r DEPTH frames deep through burn_deep() (deep callchains);
 * -T splits the getppid calls over that many threads (the main one waits);
 * -w waits for one byte on stdin (or EOF) before working, so a counter can be
 * attached to the running process first; -e exits with STATUS; -k ends by
 * raising SIGNAL.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long calls_per_thread;

static void *call_getppid(void *arg)
{
	for (long i = 0; i < calls_per_thread; i++)
		syscall(SYS_getppid); /* no libc caching */
	return arg;
}

static void touch_pages(long pages)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("workload: mmap");
		exit(1);
	}
	madvise(p, (size_t)(pages * page), MADV_NOHUGEPAGE); /* one fault per page */
	for (long i = 0; i < pages; i++)
		p[i * page] = 1;
	munmap(p, (size_t)(pages * page));
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Arithmetic until @ms of CPU time pass, the clock read once per million steps. */
__attribute__((noinline)) static unsigned long burn_loop(long ms)
{
	volatile unsigned long x = 1;

	for (double end = now_ms() + ms; now_ms() < end;)
		for (long i = 0; i < 1000000; i++)
			x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

/* burn_loop() @depth calls down: each level keeps its frame (no tail call). */
__attribute__((noinline)) static unsigned long burn_deep(long depth, long ms)
{
	unsigned long r;

	if (depth <= 0)
		return burn_loop(ms);
	r = burn_deep(depth - 1, ms);
	__asm__ volatile("" : "+r"(r));
	return r + 1;
}

int main(int argc, char **argv)
{
	long calls = 0, pages = 0, spin_ms = 0, burn_ms = 0, depth = 0, threads = 1, status = 0;
	long sig = 0;
	int opt, wait_stdin = 0;

	while ((opt = getopt(argc, argv, "n:m:s:b:r:T:we:k:")) != -1) {
		switch (opt) {
		case 'n': calls = atol(optarg); break;
		case 'm': pages = atol(optarg); break;
		case 's': spin_ms = atol(optarg); break;
		case 'b': burn_ms = atol(optarg); break;
		case 'r': depth = atol(optarg); break;
		case 'T': threads = atol(optarg); break;
		case 'w': wait_stdin = 1; break;
		case 'e': status = atol(optarg); break;
		case 'k': sig = atol(optarg); break;
		default:
			fprintf(stderr, "usage: workload [-n CALLS] [-m PAGES] [-s SPIN_MS] [-b BURN_MS] [-r DEPTH] [-T THREADS] "
				"[-w] [-e STATUS] [-k SIGNAL]\n");
			return 2;
		}
	}
	if (threads < 1 || calls % threads) {
		fprintf(stderr, "workload: -n %ld does not split evenly over -T %ld threads\n", calls,
			threads);
		return 2;
	}
	calls_per_thread = calls / threads;
	if (wait_stdin) {
		char byte;

		if (read(0, &byte, 1) < 0)
			perror("workload: read");
	}
	if (threads == 1) {
		call_getppid(NULL);
	} else {
		pthread_t tids[64];

		if (threads > 64)
			threads = 64;
		for (long i = 0; i < threads; i++)
			pthread_create(&tids[i], NULL, call_getppid, NULL);
		for (long i = 0; i < threads; i++)
			pthread_join(tids[i], NULL);
	}
	if (pages > 0)
		touch_pages(pages);
	for (double end = now_ms() + spin_ms; now_ms() < end;)
		;
	if (burn_ms > 0)
		burn_deep(depth, burn_ms);
	if (sig)
		raise((int)sig);
	return (int)status;
}
