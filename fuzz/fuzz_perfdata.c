/*
 * fuzz_perfdata.c - libFuzzer target for the perf.data reader (src/perfdata/
 * over the record parser): the input is a whole file, given as a memfd so
 * the reader's mapping and pread paths run; the last byte's bits pick time
 * order (1), counting with peo_perfdata_count() instead of reading (2),
 * and the file mapped whole (4) instead of read in 128 KiB windows.  Every record is read to the
 * end or to an error, whose sentence must exist; the string features and
 * event names are read too.
 *
 * Seeds: small files perf record wrote (file and pipe mode, zstd).
 * Build and run: make fuzz.
 */
#define _GNU_SOURCE 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "peo/peo.h"

#include "fuzz_check.h"

/* Every typed feature decoder, twice (the second hands out what the first kept). */
static void decode_features(struct peo_perfdata *f)
{
	for (int round = 0; round < 2; round++) {
		const struct peo_build_id *ids;
		const struct peo_cpu_topology *t;
		const struct peo_numa_node *nodes;
		const struct peo_pmu_mapping *pmus;
		const struct peo_group_desc *groups;
		const struct peo_cache_level *caches;
		const char *const *list;
		struct peo_mem_topology mem = { .sz = sizeof(mem) };
		struct peo_compressed z = { .sz = sizeof(z) };
		struct peo_clock_data clk = { .sz = sizeof(clk) };
		uint32_t a, b;
		uint64_t x, y;
		size_t n;

		if (!peo_perfdata_build_ids(f, &ids, &n))
			for (size_t i = 0; i < n; i++)
				CHECK(ids[i].size <= 20 && ids[i].filename);
		if (!peo_perfdata_cpu_topology(f, &t))
			for (size_t i = 0; i < t->ncore_siblings; i++)
				CHECK(t->core_siblings[i]);
		peo_perfdata_numa_topology(f, &nodes, &n);
		peo_perfdata_pmu_mappings(f, &pmus, &n);
		peo_perfdata_group_desc(f, &groups, &n);
		peo_perfdata_cache(f, &caches, &n);
		peo_perfdata_feature_strings(f, PEO_FEAT_CMDLINE, &list, &n);
		peo_perfdata_mem_topology(f, &mem);
		peo_perfdata_compressed(f, &z);
		peo_perfdata_clock_data(f, &clk);
		peo_perfdata_nrcpus(f, &a, &b);
		{
			struct peo_tp_format *fmt;

			if (!peo_perfdata_tp_format(f, "syscalls", "sys_enter_getppid", &fmt))
				peo_tp_format_free(fmt);
		}
		{
			const struct peo_auxtrace_entry *aux;
			const struct peo_bpf_prog_info *progs;
			const struct peo_bpf_btf *btf;
			const struct peo_pmu_cap *caps;
			const struct peo_hybrid_node *hybrid;
			const struct peo_pmu_caps *pmu;

			peo_perfdata_auxtrace_index(f, &aux, &n);
			peo_perfdata_bpf_prog_info(f, &progs, &n);
			peo_perfdata_bpf_btf(f, &btf, &n);
			peo_perfdata_cpu_pmu_caps(f, &caps, &n);
			peo_perfdata_hybrid_topology(f, &hybrid, &n);
			if (!peo_perfdata_pmu_caps(f, &pmu, &n))
				for (size_t i = 0; i < n; i++)
					CHECK(pmu[i].pmu && (pmu[i].ncaps == 0 || pmu[i].caps));
		}
		peo_perfdata_sample_time(f, &x, &y);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the last byte's bit 0: time order (bit 3: as perf would choose) */
	PEO_OPTS(peo_perfdata_opts, o,
		 .ordered = !size || !(data[size - 1] & 1) ? PEO_PERFDATA_FILE_ORDER
			    : data[size - 1] & 8 ? PEO_PERFDATA_ORDER_AS_PERF
			    : PEO_PERFDATA_TIME_ORDER,
		 .window = size && (data[size - 1] & 4) ? 0 : 1);
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	struct peo_perfdata *f;
	int fd = memfd_create("fuzz", MFD_CLOEXEC), got, n = 0;

	CHECK(fd >= 0);
	CHECK(write(fd, data, size) == (ssize_t)size);
	if (peo_perfdata_open_fd(&f, fd, &o)) {
		CHECK(peo_last_error()[0]);
		close(fd);
		return 0;
	}
	for (unsigned bit = 3; bit <= 9; bit++) {
		const char *s;

		if (bit != 7 && peo_perfdata_feature_string(f, bit, &s) == 0)
			CHECK(s != NULL);
	}
	for (size_t i = 0; i < peo_perfdata_attr_count(f); i++)
		(void)peo_perfdata_event_name(f, i);
	decode_features(f);
	if (size && (data[size - 1] & 2)) {
		struct peo_perfdata_counts c = { .sz = sizeof(c) };

		got = peo_perfdata_count(f, &c);
		if (!got) {
			CHECK(c.by_type[PEO_RECORD_SAMPLE] >= c.samples_unknown_event);
			peo_perfdata_counts_free(&c);
		}
	} else {
		while (n++ < 100000 && (got = peo_perfdata_next(f, &rec)) == 1)
			CHECK(rec.rec.header.size >= 8);
	}
	if (got < 0)
		CHECK(peo_last_error()[0]);
	peo_perfdata_close(f);
	close(fd);
	return 0;
}
