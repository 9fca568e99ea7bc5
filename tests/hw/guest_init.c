/*
 * guest_init.c - /init of the arm64 guest that make check-hw boots: mounts
 * what the tests need, runs every /tests/test_* and the peo commands on the
 * workload, prints each result on the serial console in lines the host
 * reads (PEO-HW ...), sends back the perf.data files that peo record wrote
 * (base64 between markers), and powers off.  No timing is taken here: the
 * guest's clock runs on QEMU's instruction counter.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run @argv, its output on the console; returns its exit status (128+signal). */
static int run(char *const argv[])
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execv(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 126;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* @path's bytes in base64 lines between PEO-HW-FILE markers. */
static void send_file(const char *path, const char *name)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned char in[57];
	char out[80];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		printf("PEO-HW-FILE-MISSING %s\n", name);
		return;
	}
	printf("PEO-HW-FILE-BEGIN %s\n", name);
	while ((n = fread(in, 1, sizeof(in), f)) > 0) {
		size_t o = 0;

		for (size_t i = 0; i < n; i += 3) {
			unsigned v = (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0) |
				     (i + 2 < n ? in[i + 2] : 0);

			out[o++] = abc[v >> 18 & 63];
			out[o++] = abc[v >> 12 & 63];
			out[o++] = i + 1 < n ? abc[v >> 6 & 63] : '=';
			out[o++] = i + 2 < n ? abc[v & 63] : '=';
		}
		out[o] = '\0';
		printf("%s\n", out);
	}
	printf("PEO-HW-FILE-END %s\n", name);
	fclose(f);
}

/* The recordings of the workload's callchains the host reads back
 * (NAME.data).  2048 bytes of stack hold its frames down to _start (about
 * 1300 bytes); perf's 8192 made the console's transfer most of the guest's
 * time. */
static const struct {
	char *name, *mode, *workload; /* not const: argv's */
} chains[] = {
	{ "dwarf", "dwarf,2048", "/workload" },
	{ "fp", "fp", "/workload" },
	{ "pac-dwarf", "dwarf,2048", "/workload-pac" },
	{ "pac-fp", "fp", "/workload-pac" },
};

int main(void)
{
	struct dirent **tests;
	int n;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	/* /tmp is the initramfs's own (writable): a tmpfs there would hide the
	 * fixtures copied under the source path when that is below /tmp */
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL); /* /dev/null for the tests */
	/* no cgroup2 mount: this 6.1 kernel opens perf cgroup events for the
	 * cgroup2 root only (a child cgroup gets ENOENT), so the cgroup test,
	 * which makes a child, skips here */
	{ /* Debian's kernel starts at level 3 (no unprivileged perf); our machines run 2 */
		FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "w");

		if (f) {
			fputs("2\n", f);
			fclose(f);
		}
	}
	setenv("PEO_TOOL", "/peo", 1);
	setenv("PEO_WORKLOAD", "/workload", 1);
	setenv("PATH", "/bin:/", 1);
	printf("PEO-HW-BEGIN\n");
	n = scandir("/tests", &tests, NULL, by_name);
	for (int i = 0; i < n; i++) {
		char path[300];

		if (!strncmp(tests[i]->d_name, "test_", 5)) {
			snprintf(path, sizeof(path), "/tests/%s", tests[i]->d_name);
			printf("PEO-HW-RUN %s\n", tests[i]->d_name);
			printf("PEO-HW-RESULT %s %d\n", tests[i]->d_name, run((char *[]){ path, NULL }));
		}
		free(tests[i]);
	}
	free(tests);
	/* the commands, on the workload: what this older kernel lacks; peo stat's
	 * default events; peo record -e cycles */
	printf("PEO-HW-FEATURES\n");
	printf("PEO-HW-RESULT peo-features %d\n", run((char *[]){ "/peo", "features", NULL }));
	printf("PEO-HW-RESULT peo-stat %d\n",
	       run((char *[]){ "/peo", "stat", "--", "/workload", "-b", "30", NULL }));
	printf("PEO-HW-RESULT peo-record %d\n",
	       run((char *[]){ "/peo", "record", "-e", "cycles", "-c", "100000", "-o", "/tmp/hw.data",
			       "--", "/workload", "-b", "30", NULL }));
	send_file("/tmp/hw.data", "hw.data");
	/* callchains of the workload's recursion (-r 12: burn_loop under 12
	 * burn_deep frames), by the user stack copies (--call-graph dwarf,
	 * unwound on the host) and by the frame pointers (-g); the same
	 * built with return addresses signed (pointer authentication) */
	for (size_t i = 0; i < sizeof(chains) / sizeof(chains[0]); i++) {
		char out[64];

		snprintf(out, sizeof(out), "/tmp/%s.data", chains[i].name);
		printf("PEO-HW-RESULT peo-record-%s %d\n", chains[i].name,
		       run((char *[]){ "/peo", "record", "-e", "cycles", "-c", "1000000",
				       "--call-graph", chains[i].mode, "-o", out, "--",
				       chains[i].workload, "-r", "12", "-b", "100", NULL }));
		send_file(out, out + 5);
	}
	printf("PEO-HW-END\n");
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
