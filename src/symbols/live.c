/*
 * symbols/live.c - a running process into the model, from /proc: its maps
 * (/proc/PID/maps) and its threads' names (/proc/PID/task/TID/comm).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/processes.h"

/* One line of /proc/PID/maps: "start-end perms offset dev inode [path]". */
static int add_maps_line(struct peo_processes *p, uint32_t pid, const char *line)
{
	uint64_t start, end, off;
	char perms[8];
	int path_at = 0;
	const char *path;

	if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*u %n", &start, &end, perms,
		   &off, &path_at) < 4 || !path_at || end <= start)
		return 0; /* not a map line: nothing to add */
	if (perms[2] != 'x')
		return 0; /* code only: samples and frames are in executable maps */
	path = line + path_at;
	return sym_processes_map(p, pid, start, end - start, off, *path ? path : NULL, 0, 1, NULL, 0);
}

static int add_threads(struct peo_processes *p, pid_t pid)
{
	char dir[64], file[64 + 256 + 8], comm[64];
	struct dirent *e;
	DIR *d;
	int err = 0;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	if (!(d = opendir(dir)))
		return 0; /* gone meanwhile: its maps are what there is */
	while (!err && (e = readdir(d))) {
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(file, sizeof(file), "%s/%s/comm", dir, e->d_name);
		if (!(f = fopen(file, "re")))
			continue; /* the thread exited */
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = '\0';
			if (sym_threads_set(&p->threads, (uint32_t)strtoul(e->d_name, NULL, 10), comm))
				err = peo_fail(ENOMEM, "out of memory for thread %s", e->d_name);
		}
		fclose(f);
	}
	closedir(d);
	return err;
}

int peo_processes_add_live(struct peo_processes *p, pid_t pid)
{
	char path[64], line[4096 + 256];
	FILE *f;
	int err = 0;

	if (!p || pid <= 0)
		return peo_fail(EINVAL, "peo_processes_add_live: %s", p ? "pid must be positive"
									 : "argument 'p' is NULL");
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(f = fopen(path, "re"))) {
		int e = errno;

		return peo_fail(e == ENOENT ? ESRCH : e, "%s: %s%s", path, strerror(e),
				e == ENOENT ? " (no such process: it exited)" :
				e == EACCES ? " (another user's process: ptrace rules hide its "
					      "maps; run as that user or as root)" : "");
	}
	sym_maps_forget(&p->maps, (uint32_t)pid);
	while (!err && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		err = add_maps_line(p, (uint32_t)pid, line);
	}
	fclose(f);
	return err ? err : add_threads(p, pid);
}
