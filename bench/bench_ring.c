/*
 * bench_ring.c - the cost of each sample drained through peo's ring against
 * `perf record -c 1`, on the same workload in the same run.
 *
 * usage: bench_ring WORKLOAD [CALLS]
 *
 * The workload (tests/workload) makes CALLS getppid calls; every one fires
 * syscalls:sys_enter_getppid and is sampled (period 1) with the fields
 * perf record asks for on a tracepoint (IP, TID, TIME, CPU, PERIOD, RAW).
 * peo's side is what `peo record` does: spawn the command, map 128 pages
 * per CPU as perf does, wait for wakeups, and write every drained byte to
 * a file.  Each side's
 * CPU time (the tool's and the workload's, user and system) is taken with
 * CALLS and with 0 calls; the difference over CALLS is the cost per sample,
 * so start-up, exec and exit fall out of both (CPU time, not wall time:
 * perf record idles about a second after its command exits).  ROUNDS rounds
 * alternate the order; medians are printed with the ratio peo/perf (lower
 * is better; the goal is <= 1.00) and peo's lost count (the goal is 0).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <peo/peo.h>

#define ROUNDS 7
#define PAGES 128
#define MAX_CPUS 256

static const char *workload;
static char out_path[] = "/tmp/bench_ring.XXXXXX";

static void die(const char *what)
{
	fprintf(stderr, "bench_ring: %s: %s\n", what, peo_last_error());
	exit(1);
}

static double cpu_s(const struct rusage *ru)
{
	return (double)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) +
	       (double)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1e6;
}

static double self_cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return cpu_s(&ru);
}

/*
 * One peo run, laid out as perf record lays out its own: one event and one
 * ring of PAGES pages per CPU (pid = the command, inherited), all waited on
 * through one ring set.  Returns the CPU seconds of this process and the
 * workload together; adds what was received and lost (read_format LOST
 * also counts losses no LOST record has reported yet).
 */
static double run_peo(long calls, uint64_t *samples, uint64_t *lost)
{
	char n[32];
	const char *argv[] = { workload, "-n", n, NULL };
	PEO_OPTS(peo_ring_opts, ro, .data_pages = PAGES);
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN), fds[MAX_CPUS], out, status;
	struct peo_ring *rings[MAX_CPUS];
	struct peo_ring_set *set;
	struct peo_child *child;
	struct peo_event_list *list;
	struct rusage ru;
	struct peo_attr a;
	double cpu0 = self_cpu_s();

	ncpu = ncpu > MAX_CPUS ? MAX_CPUS : ncpu;
	snprintf(n, sizeof(n), "%ld", calls);
	if (peo_child_spawn(&child, argv))
		die("spawn");
	if (peo_event_parse(&list, "syscalls:sys_enter_getppid", NULL) != 1)
		die("syscalls:sys_enter_getppid");
	a = *peo_event_attr(peo_event_list_get(list, 0));
	peo_event_list_free(list);
	a.sample_period = 1;
	a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_CPU |
			PEO_SAMPLE_PERIOD | PEO_SAMPLE_RAW;
	a.read_format = PEO_FORMAT_LOST;
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.inherit = 1;
	a.watermark = 1;
	a.wakeup_watermark = PAGES * 4096 / 8; /* 1/4 lost a few hundred in 2M here */
	if (peo_ring_set_new(&set))
		die("ring set");
	for (int c = 0; c < ncpu; c++) {
		fds[c] = peo_sys_open(&a, peo_child_pid(child), c, -1, PEO_FLAG_FD_CLOEXEC);
		if (fds[c] < 0 || peo_ring_map(&rings[c], fds[c], &ro) ||
		    peo_ring_set_add(set, rings[c]) < 0)
			die("open and map");
	}
	out = open(out_path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (out < 0 || peo_child_start(child))
		die("start");
	while (peo_ring_set_live(set) > 0) {
		int ready = peo_ring_set_wait(set, 1000);

		for (int k = 0; k < ready; k++) {
			struct peo_ring *ring = peo_ring_set_ready(set, (size_t)k);
			const void *seg[2];
			size_t len[2];
			int got;

			/* As a perf.data writer does: every record at once, one write per span. */
			while ((got = peo_ring_next_span(ring, seg, len)) > 0) {
				for (int s = 0; s < 2 && seg[s]; s++)
					if (write(out, seg[s], len[s]) != (ssize_t)len[s])
						die("write");
				*samples += (uint64_t)got; /* samples, and a LOST record or two */
				peo_ring_consume(ring);
			}
		}
	}
	if (peo_child_wait(child, &status, &ru))
		die("wait");
	for (int c = 0; c < ncpu; c++) {
		uint64_t rf[2];

		if (read(fds[c], rf, sizeof(rf)) == (ssize_t)sizeof(rf))
			*lost += rf[1];
		peo_ring_unmap(rings[c]);
		close(fds[c]);
	}
	peo_ring_set_free(set);
	close(out);
	peo_child_free(child);
	return self_cpu_s() - cpu0 + cpu_s(&ru);
}

/* One perf record run: CPU seconds of perf and the workload it waited for. */
static double run_perf(long calls)
{
	char n[32];
	struct rusage ru;
	int status;
	pid_t pid;

	snprintf(n, sizeof(n), "%ld", calls);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execlp("perf", "perf", "record", "-q", "-c", "1", "-m", "128", "-e",
		       "syscalls:sys_enter_getppid", "-o", out_path, "--", workload, "-n", n,
		       (char *)NULL);
		_exit(127);
	}
	wait4(pid, &status, 0, &ru);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench_ring: perf record failed (status %d)\n", status);
		exit(1);
	}
	return cpu_s(&ru);
}

static int cmp(const void *a, const void *b)
{
	double d = *(const double *)a - *(const double *)b;

	return (d > 0) - (d < 0);
}

static double median(double *v)
{
	qsort(v, ROUNDS, sizeof(*v), cmp);
	return v[ROUNDS / 2];
}

int main(int argc, char **argv)
{
	long calls = argc > 2 ? atol(argv[2]) : 300000;
	double peo_cost[ROUNDS], perf_cost[ROUNDS];
	uint64_t samples = 0, lost = 0;
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_ring WORKLOAD [CALLS]\n");
		return 2;
	}
	workload = argv[1];
	if (system("perf --version >/dev/null 2>&1") != 0) {
		printf("bench_ring: skipped: perf is not installed (linux-perf)\n");
		return 0;
	}
	if ((fd = mkstemp(out_path)) < 0) {
		perror("bench_ring: mkstemp");
		return 1;
	}
	close(fd);
	run_peo(1000, &samples, &lost); /* warm-up */
	run_perf(1000);
	samples = lost = 0;
	for (int r = 0; r < ROUNDS; r++) {
		double p1, p0, f1, f0;
		uint64_t got = 0;

		if (r % 2) {
			f1 = run_perf(calls), f0 = run_perf(0);
			p1 = run_peo(calls, &got, &lost), p0 = run_peo(0, &got, &lost);
		} else {
			p1 = run_peo(calls, &got, &lost), p0 = run_peo(0, &got, &lost);
			f1 = run_perf(calls), f0 = run_perf(0);
		}
		samples += got;
		peo_cost[r] = (p1 - p0) / (double)calls * 1e9;
		perf_cost[r] = (f1 - f0) / (double)calls * 1e9;
	}
	unlink(out_path);
	{
		double pc = median(peo_cost), fc = median(perf_cost);

		printf("# bench_ring: %ld getppid calls sampled with period 1, %d pages; median of %d "
		       "alternating rounds\n", calls, PAGES, ROUNDS);
		printf("%-34s %10.1f ns\n", "perf record -c 1, per sample", fc);
		printf("%-34s %10.1f ns\n", "peo ring drain+write, per sample", pc);
		printf("%-34s %10.3f    (goal <= 1.00)\n", "ratio peo/perf", pc / fc);
		printf("RESULT|ring drain + write, per sample (-c 1)|%.1f ns|perf record -c 1|%.1f ns|%.2f\n",
		       pc, fc, fc / pc);
		printf("%-34s %10.0f samples per CPU second\n", "peo throughput", 1e9 / pc);
		printf("%-34s %10llu of %llu samples (goal 0)\n", "peo lost", (unsigned long long)lost,
		       (unsigned long long)(samples + lost));
	}
	return 0;
}
