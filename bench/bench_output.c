/*
 * bench_output.c - how fast text reaches one regular file when several
 * threads produce it: the baseline, one thread calling write(), against
 * THREADS threads writing their batches at their places with pwrite()
 * (what peo script does into a file), and THREADS threads copying their
 * batches into the file mapped in windows (space reserved with fallocate
 * first, so a full disk is an error, not a SIGBUS).
 *
 * usage: bench_output [DIR [MB [THREADS]]]
 *
 * MB (default 574, the JSON of bench/script_vs_perf.sh's file) of text in
 * batches of 512 KiB, as peo script's workers hand them over, into a new
 * file in DIR (default /tmp).  Each way runs ROUNDS times, alternating;
 * the median and fastest wall times and the medians' write/way ratios are
 * printed (above 1: faster than one writer).  On a VM's disk single runs
 * of any way can take several times the median (writeback of earlier
 * rounds' pages): the fastest is what the machine can do.  Buffered writes to one file take its inode's lock,
 * so pwrite() from many threads copies one at a time; page faults on a
 * shared mapping do not.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 9
#define BATCH (512u << 10)
#define WINDOW (64ul << 20)
#define MAX_THREADS 64

enum way { WRITE_ONE, PWRITE_MANY, MMAP_MANY, MMAP_POPULATE, WAYS };
static const char *const way_name[WAYS] = { "write(), one thread", "pwrite(), each thread its batches",
					    "mapped windows, each thread its batches",
					    "mapped, populated by madvise first" };

static size_t total;
static unsigned nthreads;
static unsigned char *text; /* one batch of made-up text, copied for each */
static int fd;
static unsigned char *windows[4096];
static pthread_mutex_t window_lock = PTHREAD_MUTEX_INITIALIZER;

static void die(const char *what)
{
	fprintf(stderr, "bench_output: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The window holding file offset @at, reserved and mapped at first use. */
static unsigned char *window_of(size_t at)
{
	size_t w = at / WINDOW;
	unsigned char *m;

	pthread_mutex_lock(&window_lock);
	m = windows[w];
	if (!m) {
		int err = posix_fallocate(fd, (off_t)(w * WINDOW), (off_t)WINDOW);

		if (err) {
			errno = err;
			die("fallocate");
		}
		m = mmap(NULL, WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)(w * WINDOW));
		if (m == MAP_FAILED)
			die("mmap");
		windows[w] = m;
	}
	pthread_mutex_unlock(&window_lock);
	return m;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static void copy_mapped(size_t at, size_t n, int populate)
{
	while (n) {
		size_t in = at % WINDOW, k = WINDOW - in < n ? WINDOW - in : n;
		unsigned char *m = window_of(at);

		if (populate) {
			size_t lo = in & ~(size_t)4095;

			if (madvise(m + lo, in + k - lo, MADV_POPULATE_WRITE))
				die("madvise");
		}
		memcpy(m + in, text, k);
		at += k;
		n -= k;
	}
}

struct job {
	enum way way;
	unsigned index;
};

static void *thread_main(void *arg)
{
	const struct job *j = arg;

	for (size_t at = (size_t)j->index * BATCH; at < total; at += (size_t)nthreads * BATCH) {
		size_t n = total - at < BATCH ? total - at : BATCH;

		if (j->way == PWRITE_MANY) {
			if (pwrite(fd, text, n, (off_t)at) != (ssize_t)n)
				die("pwrite");
		} else {
			copy_mapped(at, n, j->way == MMAP_POPULATE);
		}
	}
	return NULL;
}

static double run(enum way way, const char *path)
{
	pthread_t th[MAX_THREADS];
	struct job jobs[MAX_THREADS];
	double start;

	unlink(path);
	start = now_s();
	fd = open(path, (way >= MMAP_MANY ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(path);
	if (way == WRITE_ONE) {
		for (size_t at = 0; at < total; at += BATCH) {
			size_t n = total - at < BATCH ? total - at : BATCH;

			if (write(fd, text, n) != (ssize_t)n)
				die("write");
		}
	} else {
		for (unsigned i = 0; i < nthreads; i++) {
			jobs[i] = (struct job){ way, i };
			if (pthread_create(&th[i], NULL, thread_main, &jobs[i]))
				die("pthread_create");
		}
		for (unsigned i = 0; i < nthreads; i++)
			pthread_join(th[i], NULL);
		for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); w++)
			if (windows[w]) {
				munmap(windows[w], WINDOW);
				windows[w] = NULL;
			}
		if (way >= MMAP_MANY && ftruncate(fd, (off_t)total))
			die("ftruncate");
	}
	close(fd);
	return now_s() - start;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	char path[4096];
	double t[WAYS][ROUNDS], med[WAYS], best[WAYS];

	unsigned long mb = argc > 2 ? strtoul(argv[2], NULL, 10) : 574;
	unsigned long threads = argc > 3 ? strtoul(argv[3], NULL, 10) : 6;

	if (argc > 4 || !mb || mb >= (sizeof(windows) / sizeof(windows[0])) * (WINDOW >> 20) ||
	    !threads || threads > MAX_THREADS) {
		fprintf(stderr, "usage: bench_output [DIR [MB [THREADS]]]: MB 1 to %zu, THREADS 1 "
			"to %d\n", (sizeof(windows) / sizeof(windows[0])) * (WINDOW >> 20) - 1,
			MAX_THREADS);
		return 2;
	}
	total = (size_t)mb << 20;
	nthreads = (unsigned)threads;
	snprintf(path, sizeof(path), "%s/bench_output.%d", dir, (int)getpid());
	text = malloc(BATCH);
	if (!text)
		die("malloc");
	for (size_t i = 0; i < BATCH; i++)
		text[i] = i % 97 == 96 ? '\n' : (unsigned char)('a' + i % 26);
	for (int r = 0; r < ROUNDS; r++)
		for (int w = 0; w < WAYS; w++)
			t[(w + r) % WAYS][r] = run((enum way)((w + r) % WAYS), path);
	unlink(path);
	printf("# bench_output: %zu MB in %u KiB batches into %s, %u threads, median of %d\n", total >> 20,
	       BATCH >> 10, dir, nthreads, ROUNDS);
	for (int w = 0; w < WAYS; w++) {
		qsort(t[w], ROUNDS, sizeof(double), by_value);
		med[w] = t[w][ROUNDS / 2];
		best[w] = t[w][0];
		printf("  %-42s %7.3f s (fastest %.3f s) %6.0f MB/s  write/this %.2fx\n", way_name[w],
		       med[w], best[w], (double)total / med[w] / 1e6, med[WRITE_ONE] / med[w]);
	}
	for (int w = 1; w < WAYS; w++)
		printf("RESULT|%zu MB into one file: %s|%.3f s|write(), one thread|%.3f s|%.2f\n", total >> 20,
		       way_name[w], med[w], med[WRITE_ONE], med[WRITE_ONE] / med[w]);
	return 0;
}
