/*
 * bench_spawn.c - run one command and print "WALL_NS MAXRSS_KB STATUS":
 * its wall time from fork to reaping, and the peak resident set of it and
 * the children it waited for (wait4's rusage), for bench/stat_vs_perf.sh.
 *
 * Why a C helper rather than /usr/bin/time or python: %e of time(1) is
 * 10 ms coarse (`peo stat -- true` takes about 1 ms), and the exec'd
 * command's ru_maxrss starts from its parent's size (the kernel carries the
 * pre-exec RSS into maxrss), so the parent must be small: with this one
 * `true` alone measures under 1 MiB, and the script prints that floor.
 *
 * The command's stdout and stderr go to /dev/null, for both tools alike.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status, null;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_spawn COMMAND [ARG...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("bench_spawn: fork");
		return 2;
	}
	if (pid == 0) {
		null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("bench_spawn: wait4");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%lld %ld %d\n",
	       (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec),
	       ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
