/*
 * script/header.c - peo script --header: the file's header features, in
 * the order and words of perf report --header-only, before the records.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "script/output.h"
#include "script/run.h"

static void print_string_feature(const struct script_run *run, unsigned bit, const char *label)
{
	const char *v;

	if (!peo_perfdata_feature_string(run->f, bit, &v))
		printf("# %s : %s\n", label, v);
}

/* CPU_TOPOLOGY and NUMA_TOPOLOGY as perf report --header-only -I prints them. */
static void print_topology(const struct script_run *run)
{
	const struct peo_cpu_topology *t;
	const struct peo_numa_node *nodes;
	size_t n;

	if (!peo_perfdata_cpu_topology(run->f, &t)) {
		for (size_t i = 0; i < t->ncore_siblings; i++)
			printf("# sibling sockets : %s\n", t->core_siblings[i]);
		for (size_t i = 0; t->has_dies && i < t->ndie_siblings; i++)
			printf("# sibling dies    : %s\n", t->die_siblings[i]);
		for (size_t i = 0; i < t->nthread_siblings; i++)
			printf("# sibling threads : %s\n", t->thread_siblings[i]);
		for (size_t i = 0; i < t->ncpus; i++)
			if (t->has_dies)
				printf("# CPU %zu: Core ID %u, Die ID %u, Socket ID %u\n", i,
				       t->cpus[i].core_id, t->cpus[i].die_id, t->cpus[i].socket_id);
			else
				printf("# CPU %zu: Core ID %u, Socket ID %u\n", i, t->cpus[i].core_id,
				       t->cpus[i].socket_id);
	}
	if (!peo_perfdata_numa_topology(run->f, &nodes, &n))
		for (size_t i = 0; i < n; i++)
			printf("# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n"
			       "# node%u cpu list : %s\n", nodes[i].node, nodes[i].mem_total,
			       nodes[i].mem_free, nodes[i].node, nodes[i].cpus);
}

/* PMU_MAPPINGS, GROUP_DESC and CACHE, in perf's words. */
static void print_groups_and_caches(const struct script_run *run)
{
	const struct peo_pmu_mapping *pmus;
	const struct peo_group_desc *groups;
	const struct peo_cache_level *caches;
	size_t n;

	if (!peo_perfdata_pmu_mappings(run->f, &pmus, &n)) {
		printf("# pmu mappings:");
		for (size_t i = 0; i < n; i++)
			printf("%s %s = %u", i ? "," : "", pmus[i].name, pmus[i].type);
		printf("\n");
	}
	if (!peo_perfdata_group_desc(run->f, &groups, &n))
		for (size_t i = 0; i < n; i++) {
			printf("# group: %s{", strcmp(groups[i].name, "{anon_group}") ? groups[i].name : "");
			for (uint32_t m = 0; m < groups[i].nr_members; m++) {
				const char *name = peo_perfdata_event_name(run->f, groups[i].leader_idx + m);

				printf("%s%s", m ? "," : "", name ? name : "?");
			}
			printf("}\n");
		}
	if (!peo_perfdata_cache(run->f, &caches, &n)) {
		printf("# CPU cache info:\n");
		for (size_t i = 0; i < n; i++)
			printf("#  L%u %-15s %8s [%s]\n", caches[i].level, caches[i].type, caches[i].size,
			       caches[i].map);
	}
}

/* SAMPLE_TIME, MEM_TOPOLOGY's summary and COMPRESSED, in perf's words. */
static void print_times_and_memory(const struct script_run *run)
{
	struct peo_mem_topology mem = { .sz = sizeof(mem) };
	struct peo_compressed z = { .sz = sizeof(z) };
	uint64_t first, last;

	if (!peo_perfdata_sample_time(run->f, &first, &last))
		printf("# time of first sample : %" PRIu64 ".%06" PRIu64 "\n"
		       "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n"
		       "# sample duration : %10.3f ms\n", first / 1000000000u,
		       first % 1000000000u / 1000, last / 1000000000u, last % 1000000000u / 1000,
		       (double)(last - first) / 1e6);
	if (!peo_perfdata_mem_topology(run->f, &mem))
		printf("# memory nodes (nr %" PRIu64 ", block size 0x%" PRIx64 "):\n", mem.count,
		       mem.block_size);
	if (!peo_perfdata_compressed(run->f, &z))
		printf("# compressed : %s, level = %u, ratio = %u\n", z.type == 1 ? "Zstd" : "Unknown",
		       z.level, z.ratio);
}

/* BUILD_ID entries, one per line: "# build id : HEX FILE" (perf buildid-list's pairs). */
static void print_build_ids(const struct script_run *run)
{
	const struct peo_build_id *ids;
	size_t n;

	if (peo_perfdata_build_ids(run->f, &ids, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		printf("# build id : ");
		for (uint8_t k = 0; k < ids[i].size; k++)
			printf("%02x", ids[i].id[k]);
		printf(" %s\n", ids[i].filename);
	}
}

/* The features, in the order and words of perf report --header-only. */
static void header_start(struct script_run *run)
{
	uint32_t avail, online;
	uint64_t kb;
	const char *const *argv;
	size_t argc;

	print_string_feature(run, PEO_FEAT_HOSTNAME, "hostname");
	print_string_feature(run, PEO_FEAT_OSRELEASE, "os release");
	print_string_feature(run, PEO_FEAT_VERSION, "perf version");
	print_string_feature(run, PEO_FEAT_ARCH, "arch");
	if (!peo_perfdata_nrcpus(run->f, &avail, &online))
		printf("# nrcpus online : %u\n# nrcpus avail : %u\n", online, avail);
	print_string_feature(run, PEO_FEAT_CPUDESC, "cpudesc");
	print_string_feature(run, PEO_FEAT_CPUID, "cpuid");
	if (!peo_perfdata_feature_u64(run->f, PEO_FEAT_TOTAL_MEM, &kb))
		printf("# total memory : %" PRIu64 " kB\n", kb);
	if (!peo_perfdata_feature_strings(run->f, PEO_FEAT_CMDLINE, &argv, &argc)) {
		printf("# cmdline : "); /* perf leaves a blank after each word */
		for (size_t i = 0; i < argc; i++)
			printf("%s ", argv[i]);
		printf("\n");
	}
	for (size_t i = 0; i < peo_perfdata_attr_count(run->f); i++) {
		const char *name = peo_perfdata_event_name(run->f, i);
		size_t nids;

		peo_perfdata_attr_ids(run->f, i, &nids);
		printf("# event : name = %s, type = %u, config = 0x%" PRIx64 ", ids = %zu\n",
		       name ? name : "?", peo_perfdata_attr(run->f, i)->type,
		       peo_perfdata_attr(run->f, i)->config, nids);
	}
	print_topology(run);
	print_groups_and_caches(run);
	print_times_and_memory(run);
	print_build_ids(run);
}

const struct script_output script_header_output = {
	.start = header_start,
};
