/*
 * sysfs.c - reading small values from /proc and /sys.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

int peo_read_long_file(const char *path, long *out)
{
	char text[64];
	char *end;
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	errno = 0;
	*out = strtol(text, &end, 0);
	if (end == text || errno)
		return -EINVAL;
	return 0;
}

int peo_path_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* PMU directories that carry the CPU's generic hardware events. */
int peo_host_has_cpu_pmu(char *name, size_t cap)
{
	static const char *const candidates[] = {
		"cpu", "cpu_core", "cpu_atom", "armv8_pmuv3", "armv8_pmuv3_0",
		"cpum_cf", "power", "riscv-pmu",
	};
	char path[128];
	size_t i;

	for (i = 0; i < PEO_ARRAY_SIZE(candidates); i++) {
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s", candidates[i]);
		if (peo_path_exists(path)) {
			if (name)
				snprintf(name, cap, "%s", candidates[i]);
			return 1;
		}
	}
	return 0;
}
