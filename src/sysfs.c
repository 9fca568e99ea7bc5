/*
 * sysfs.c - reading small values from /proc and /sys.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

int peo_read_long_file(const char *path, long *out)
{
	char *text = peo_read_text_file(path), *end;
	int err = 0;

	if (!text)
		return -errno;
	errno = 0;
	*out = strtol(text, &end, 0);
	if (end == text || errno)
		err = -EINVAL;
	free(text);
	return err;
}

int peo_path_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* A core PMU of a hybrid or Arm machine lists its CPUs in a `cpus` file;
 * uncore PMUs have `cpumask` instead. */
static int has_cpus_file(const char *dir, const char *pmu)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s/cpus", dir, pmu);
	return peo_path_exists(path);
}

/*
 * Not "power": on x86 that is RAPL's energy PMU, which has no cycles
 * (IBM POWER's core PMU registers as "cpu").
 */
int peo_find_cpu_pmu(const char *dir, char *name, size_t cap)
{
	static const char *const names[] = { "cpu", "cpu_core", "cpu_atom", "cpum_cf" };
	char path[512], **entries;
	int n, i, found = 0;

	for (i = 0; i < (int)PEO_ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (peo_path_exists(path)) {
			snprintf(name, cap, "%s", names[i]);
			return 1;
		}
	}
	n = peo_list_dir(dir, &entries);
	for (i = 0; i < n && !found; i++) {
		found = strlen(entries[i]) < cap && has_cpus_file(dir, entries[i]);
		if (found)
			snprintf(name, cap, "%s", entries[i]);
	}
	if (n > 0)
		peo_free_names(entries, n);
	return found;
}

static char cpu_pmu_name[32];

static void find_cpu_pmu(void)
{
	peo_find_cpu_pmu(peo_default_pmu_dir(), cpu_pmu_name, sizeof(cpu_pmu_name));
}

/*
 * Looked up once per process: every refused hardware event asks, and eight
 * sysfs lookups per event were a tenth of `peo stat -- true`.  CPU PMU
 * drivers register at boot, so the answer does not go stale.
 */
int peo_host_has_cpu_pmu(char *name, size_t cap)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, find_cpu_pmu);
	if (!cpu_pmu_name[0])
		return 0;
	if (name)
		snprintf(name, cap, "%s", cpu_pmu_name);
	return 1;
}

char *peo_read_text_file(const char *path)
{
	size_t cap = 256, len = 0, n;
	char *text = malloc(cap), *grown;
	FILE *f;

	if (!text)
		return NULL;
	f = fopen(path, "re");
	if (!f) {
		int err = errno;

		free(text);
		errno = err;
		return NULL;
	}
	while ((n = fread(text + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 < cap)
			continue;
		grown = realloc(text, cap * 2);
		if (!grown) {
			free(text);
			fclose(f);
			errno = ENOMEM;
			return NULL;
		}
		text = grown;
		cap *= 2;
	}
	fclose(f);
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	text[len] = '\0';
	return text;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int peo_list_dir(const char *path, char ***names)
{
	return peo_list_dir_order(path, names, 1);
}

int peo_list_dir_order(const char *path, char ***names, int sorted)
{
	DIR *dir = opendir(path);
	struct dirent *de;
	char **list = NULL, **grown;
	int n = 0, cap = 0;

	*names = NULL;
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			grown = realloc(list, (size_t)cap * sizeof(*list));
			if (!grown)
				goto nomem;
			list = grown;
		}
		list[n] = strdup(de->d_name);
		if (!list[n])
			goto nomem;
		n++;
	}
	closedir(dir);
	if (n && sorted)
		qsort(list, (size_t)n, sizeof(*list), compare_names);
	*names = list;
	return n;
nomem:
	closedir(dir);
	peo_free_names(list, n);
	return -ENOMEM;
}

void peo_free_names(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

const char *peo_default_pmu_dir(void)
{
	return "/sys/bus/event_source/devices";
}
