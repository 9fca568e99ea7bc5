/*
 * dir_synth.c - a perf record --threads directory of made-up samples, for
 * script_compare.sh: `dir_synth DIR FILL NAME...` writes DIR/data (the
 * header file: a cpu-clock event sampling IP|TID|TIME|PERIOD, DIR_FORMAT 1)
 * and one DIR/NAME per name holding a sample at 5 ms whose ip is 0x100 plus
 * the name's number; with FILL 1 the first NAME first holds 2 MiB of
 * earlier samples.  All samples at 5 ms tie: perf and peo must print them
 * in the same order (perf's reading order).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peo/peo.h"

#define TIE_NS 5000000u

static int die(const char *what)
{
	fprintf(stderr, "dir_synth: %s: %s\n", what, peo_last_error());
	return 1;
}

struct sample {
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

int main(int argc, char **argv)
{
	struct peo_perfdata_writer *w;
	uint64_t id = 901, version = 1;
	struct peo_attr a = { .size = sizeof(a), .type = PEO_TYPE_SOFTWARE };
	char path[4096];

	if (argc < 4) {
		fprintf(stderr, "usage: dir_synth DIR FILL NAME...\n");
		return 2;
	}
	a.config = PEO_COUNT_SW_CPU_CLOCK;
	a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_PERIOD;
	a.sample_period = 1000;
	snprintf(path, sizeof(path), "%s/data", argv[1]);
	if (peo_perfdata_writer_open(&w, path))
		return die(path);
	if (peo_perfdata_writer_add_event(w, &a, &id, 1, "cpu-clock") ||
	    peo_perfdata_writer_feature(w, PEO_FEAT_DIR_FORMAT, &version, sizeof(version))) {
		peo_perfdata_writer_abandon(w);
		return die("the header file");
	}
	if (peo_perfdata_writer_close(w))
		return die("the header file");
	for (int i = 3; i < argc; i++) {
		const char *dot = strrchr(argv[i], '.');
		uint64_t ip = 0x100 + strtoull(dot ? dot + 1 : "0", NULL, 10);
		int bad = 0;
		FILE *fp;

		snprintf(path, sizeof(path), "%s/%s", argv[1], argv[i]);
		if (!(fp = fopen(path, "w"))) {
			perror(path);
			return 1;
		}
		if (i == 3 && !strcmp(argv[2], "1"))
			for (uint64_t k = 0; k <= (2u << 20) / sizeof(struct sample) && !bad; k++)
				bad = put_sample(fp, ip, k + 1);
		bad |= put_sample(fp, ip, TIE_NS);
		if (fclose(fp) || bad) {
			perror(path);
			return 1;
		}
	}
	return 0;
}
