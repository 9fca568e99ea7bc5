/*
 * tie_dir.c - the directory of tie_dir.h: records written as the kernel
 * lays them out for the header file's event (no sample_id_all).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peo/peo.h"
#include "tie_dir.h"

struct sample { /* IP|TID|TIME|PERIOD */
	struct peo_event_header h;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time, period;
};

static int put_sample(FILE *fp, uint64_t ip, uint64_t time)
{
	struct sample s = { { PEO_RECORD_SAMPLE, PEO_RECORD_MISC_USER, sizeof(s) }, ip, 500, 700,
			    time, 1000 };

	return fwrite(&s, sizeof(s), 1, fp) == 1 ? 0 : -1;
}

static int header_file(const char *dir, char *why, size_t cap)
{
	struct peo_attr a = { .size = sizeof(a), .type = PEO_TYPE_SOFTWARE };
	struct peo_perfdata_writer *w;
	uint64_t id = 901, version = 1;
	char path[4096];

	a.config = PEO_COUNT_SW_CPU_CLOCK;
	a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_PERIOD;
	a.sample_period = 1000;
	snprintf(path, sizeof(path), "%s/data", dir);
	if (peo_perfdata_writer_open(&w, path))
		goto failed;
	if (peo_perfdata_writer_add_event(w, &a, &id, 1, "cpu-clock") ||
	    peo_perfdata_writer_feature(w, PEO_FEAT_DIR_FORMAT, &version, sizeof(version))) {
		peo_perfdata_writer_abandon(w);
		goto failed;
	}
	if (!peo_perfdata_writer_close(w))
		return 0;
failed:
	snprintf(why, cap, "%s: %s", path, peo_last_error());
	return -1;
}

int tie_dir_write(const char *dir, int fill, const char *const *names, size_t n, char *why,
		  size_t cap)
{
	char path[4096];

	if (header_file(dir, why, cap))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *dot = strrchr(names[i], '.');
		uint64_t ip = TIE_DIR_IP + strtoull(dot ? dot + 1 : "0", NULL, 10);
		int bad = 0;
		FILE *fp;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!(fp = fopen(path, "w"))) {
			snprintf(why, cap, "%s: %s", path, strerror(errno));
			return -1;
		}
		if (i == 0 && fill)
			for (uint64_t k = 0; k <= (2u << 20) / sizeof(struct sample) && !bad; k++)
				bad = put_sample(fp, ip, k + 1);
		bad |= put_sample(fp, ip, TIE_DIR_NS);
		if (fclose(fp) || bad) {
			snprintf(why, cap, "%s: %s", path, strerror(errno));
			return -1;
		}
	}
	return 0;
}
