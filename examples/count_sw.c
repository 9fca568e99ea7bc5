/*
 * count_sw.c - count software events around a piece of work, as one group.
 *
 * The C twin of the perf-event crate's cycles/instructions example, with
 * events every Linux machine has: task-clock, page-faults and
 * context-switches, enabled and disabled together and read in one read()
 * whose values are matched to their counters by id.
 *
 * Build: cc count_sw.c $(pkg-config --cflags --libs libpeo)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <peo/peo.h>

struct counter {
	const char *name;
	uint64_t config;
	int fd;
	uint64_t id;
	uint64_t value;
};

/* Opens every counter in one group; user-only (:u) when @user_only. */
static int open_group(struct counter *c, size_t n, int user_only)
{
	for (size_t i = 0; i < n; i++) {
		struct peo_attr attr;

		peo_attr_init(&attr);
		attr.type = PEO_TYPE_SOFTWARE;
		attr.config = c[i].config;
		attr.disabled = i == 0; /* the leader starts the whole group */
		attr.exclude_kernel = user_only;
		attr.exclude_hv = user_only;
		attr.read_format = PEO_FORMAT_GROUP | PEO_FORMAT_ID |
				   PEO_FORMAT_TOTAL_TIME_ENABLED | PEO_FORMAT_TOTAL_TIME_RUNNING;
		c[i].fd = peo_sys_open(&attr, 0, -1, i ? c[0].fd : -1, PEO_FLAG_FD_CLOEXEC);
		if (c[i].fd < 0) {
			int err = c[i].fd;

			while (i--)
				close(c[i].fd);
			return err;
		}
		if (peo_sys_ioc_id(c[i].fd, &c[i].id) < 0)
			return -errno;
	}
	return 0;
}

#define WORK_BYTES (4u << 20)

static void work(void)
{
	char *buf = mmap(NULL, WORK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	for (int i = 0; i <= 51; i++) /* the crate example prints 0..=51 */
		printf("%d%s", i, i < 51 ? ", " : "\n");
	if (buf != MAP_FAILED) {
		madvise(buf, WORK_BYTES, MADV_NOHUGEPAGE); /* one fault per 4 KiB page */
		memset(buf, 1, WORK_BYTES);
		munmap(buf, WORK_BYTES);
	}
	for (int i = 0; i < 5; i++)
		usleep(1000); /* context switches */
}

int main(void)
{
	struct counter c[] = {
		{ "task-clock", PEO_COUNT_SW_TASK_CLOCK, -1, 0, 0 },
		{ "page-faults", PEO_COUNT_SW_PAGE_FAULTS, -1, 0, 0 },
		{ "context-switches", PEO_COUNT_SW_CONTEXT_SWITCHES, -1, 0, 0 },
	};
	const size_t n = sizeof(c) / sizeof(c[0]);
	uint64_t buf[3 + 2 * 3];
	int user_only = 0;
	int rc = open_group(c, n, 0);

	if (rc == -EACCES || rc == -EPERM) {
		/* What perf does at perf_event_paranoid 2: count user space only. */
		fprintf(stderr, "note: %s\nnote: counting user space only (:u)\n", peo_last_error());
		user_only = 1;
		rc = open_group(c, n, 1);
	}
	if (rc < 0) {
		fprintf(stderr, "count_sw: %s\n", peo_last_error());
		return 1;
	}

	peo_sys_ioc_reset(c[0].fd, PEO_IOC_FLAG_GROUP);
	peo_sys_ioc_enable(c[0].fd, PEO_IOC_FLAG_GROUP);
	work();
	peo_sys_ioc_disable(c[0].fd, PEO_IOC_FLAG_GROUP);

	/* { nr, time_enabled, time_running, { value, id } [nr] } */
	if (read(c[0].fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf) || buf[0] != n) {
		fprintf(stderr, "count_sw: short group read\n");
		return 1;
	}
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < n; i++)
			if (buf[3 + 2 * k + 1] == c[i].id)
				c[i].value = buf[3 + 2 * k];

	printf("\n%16.3f msec task-clock%s\n", c[0].value / 1e6, user_only ? ":u" : "");
	for (size_t i = 1; i < n; i++)
		printf("%16llu      %s%s\n", (unsigned long long)c[i].value, c[i].name, user_only ? ":u" : "");
	printf("%16.3f msec enabled, %.3f msec running\n", buf[1] / 1e6, buf[2] / 1e6);
	for (size_t i = 0; i < n; i++)
		close(c[i].fd);
	/* The work touched every page of WORK_BYTES: fewer faults means counting broke. */
	return c[1].value >= WORK_BYTES / (unsigned)sysconf(_SC_PAGESIZE) ? 0 : 1;
}
