/*
 * perf_header.c - a recording's header in the order and words of perf
 * report --header-only: the file's layout, then each feature (in brief,
 * "info available, use -I to display", or whole with -I), the events as
 * perf describes their attrs, the features missing.  peo report
 * --header and --header-only print it; peo script --header its
 * features, whole.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "commands.h"

/* What is printed of feature @bit when not in full: perf's line. */
static int brief(FILE *out, int full, const char *name)
{
	if (!full)
		fprintf(out, "# %s info available, use -I to display\n", name);
	return !full;
}

static void print_string_feature(FILE *out, struct peo_perfdata *f, unsigned bit,
				 const char *label)
{
	const char *v;

	if (!peo_perfdata_feature_string(f, bit, &v))
		fprintf(out, "# %s : %s\n", label, v);
}

/* CPU_TOPOLOGY and NUMA_TOPOLOGY as perf report --header-only prints them. */
static void print_topology(FILE *out, struct peo_perfdata *f, int full)
{
	const struct peo_cpu_topology *t;
	const struct peo_numa_node *nodes;
	size_t n;

	if (!peo_perfdata_cpu_topology(f, &t) && !brief(out, full, "CPU_TOPOLOGY")) {
		for (size_t i = 0; i < t->ncore_siblings; i++)
			fprintf(out, "# sibling sockets : %s\n", t->core_siblings[i]);
		for (size_t i = 0; t->has_dies && i < t->ndie_siblings; i++)
			fprintf(out, "# sibling dies    : %s\n", t->die_siblings[i]);
		for (size_t i = 0; i < t->nthread_siblings; i++)
			fprintf(out, "# sibling threads : %s\n", t->thread_siblings[i]);
		for (size_t i = 0; i < t->ncpus; i++)
			if (t->has_dies)
				fprintf(out, "# CPU %zu: Core ID %u, Die ID %u, Socket ID %u\n", i,
				       t->cpus[i].core_id, t->cpus[i].die_id, t->cpus[i].socket_id);
			else
				fprintf(out, "# CPU %zu: Core ID %u, Socket ID %u\n", i, t->cpus[i].core_id,
				       t->cpus[i].socket_id);
	}
	if (!peo_perfdata_numa_topology(f, &nodes, &n) && !brief(out, full, "NUMA_TOPOLOGY"))
		for (size_t i = 0; i < n; i++)
			fprintf(out, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n"
			       "# node%u cpu list : %s\n", nodes[i].node, nodes[i].mem_total,
			       nodes[i].mem_free, nodes[i].node, nodes[i].cpus);
}

/* PMU_MAPPINGS, GROUP_DESC and CACHE, in perf's words. */
static void print_groups_and_caches(FILE *out, struct peo_perfdata *f, int full)
{
	const struct peo_pmu_mapping *pmus;
	const struct peo_group_desc *groups;
	const struct peo_cache_level *caches;
	size_t n;

	if (!peo_perfdata_pmu_mappings(f, &pmus, &n)) {
		fprintf(out, "# pmu mappings:");
		for (size_t i = 0; i < n; i++)
			fprintf(out, "%s %s = %u", i ? "," : "", pmus[i].name, pmus[i].type);
		fprintf(out, "\n");
	}
	if (!peo_perfdata_group_desc(f, &groups, &n))
		for (size_t i = 0; i < n; i++) {
			fprintf(out, "# group: %s{", strcmp(groups[i].name, "{anon_group}") ? groups[i].name : "");
			for (uint32_t m = 0; m < groups[i].nr_members; m++) {
				const char *name = peo_perfdata_event_name(f, groups[i].leader_idx + m);

				fprintf(out, "%s%s", m ? "," : "", name ? name : "?");
			}
			fprintf(out, "}\n");
		}
	if (!peo_perfdata_cache(f, &caches, &n) && !brief(out, full, "CACHE")) {
		fprintf(out, "# CPU cache info:\n");
		for (size_t i = 0; i < n; i++)
			fprintf(out, "#  L%u %-15s %8s [%s]\n", caches[i].level, caches[i].type, caches[i].size,
			       caches[i].map);
	}
}

/* SAMPLE_TIME, MEM_TOPOLOGY's summary and COMPRESSED, in perf's words. */
static void print_times_and_memory(FILE *out, struct peo_perfdata *f, int full)
{
	struct peo_mem_topology mem = { .sz = sizeof(mem) };
	struct peo_compressed z = { .sz = sizeof(z) };
	uint64_t first, last;

	if (!peo_perfdata_sample_time(f, &first, &last))
		fprintf(out, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n"
		       "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n"
		       "# sample duration : %10.3f ms\n", first / 1000000000u,
		       first % 1000000000u / 1000, last / 1000000000u, last % 1000000000u / 1000,
		       (double)(last - first) / 1e6);
	if (!peo_perfdata_mem_topology(f, &mem) && !brief(out, full, "MEM_TOPOLOGY"))
		fprintf(out, "# memory nodes (nr %" PRIu64 ", block size 0x%" PRIx64 "):\n", mem.count,
		       mem.block_size);
	if (!peo_perfdata_compressed(f, &z))
		fprintf(out, "# compressed : %s, level = %u, ratio = %u\n", z.type == 1 ? "Zstd" : "Unknown",
		       z.level, z.ratio);
}

/* BUILD_ID entries, one per line: "# build id : HEX FILE" (perf buildid-list's pairs). */
static void print_build_ids(FILE *out, struct peo_perfdata *f)
{
	const struct peo_build_id *ids;
	size_t n;

	if (peo_perfdata_build_ids(f, &ids, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "# build id : ");
		for (uint8_t k = 0; k < ids[i].size; k++)
			fprintf(out, "%02x", ids[i].id[k]);
		fprintf(out, " %s\n", ids[i].filename);
	}
}

/* An attr's field after the others on perf's event line: ", name = value". */
static void event_item(void *ctx, const struct attr_item *it)
{
	FILE *out = ctx;

	if (!it->v)
		return;
	fprintf(out, ", %s = ", it->label);
	attr_item_value(out, it);
}

/* Each event as perf's header describes it: its name, ids, attr. */
static void print_events(FILE *out, struct peo_perfdata *f)
{
	for (size_t i = 0; i < peo_perfdata_attr_count(f); i++) {
		const char *name = peo_perfdata_event_name(f, i);
		size_t nids;
		const uint64_t *ids = peo_perfdata_attr_ids(f, i, &nids);

		fprintf(out, "# event : name = %s, ", name ? name : "?");
		if (nids) {
			fprintf(out, ", id = {");
			for (size_t k = 0; k < nids; k++)
				fprintf(out, "%s %" PRIu64, k ? "," : "", ids[k]);
			fprintf(out, " }");
		}
		attr_walk(peo_perfdata_attr(f, i), event_item, out);
		fputc('\n', out);
	}
}

void perf_header_features(FILE *out, struct peo_perfdata *f, int full, int build_ids)
{
	uint32_t avail, online;
	uint64_t kb;
	const char *const *argv;
	size_t argc;

	print_string_feature(out, f, PEO_FEAT_HOSTNAME, "hostname");
	print_string_feature(out, f, PEO_FEAT_OSRELEASE, "os release");
	print_string_feature(out, f, PEO_FEAT_VERSION, "perf version");
	print_string_feature(out, f, PEO_FEAT_ARCH, "arch");
	if (!peo_perfdata_nrcpus(f, &avail, &online))
		fprintf(out, "# nrcpus online : %u\n# nrcpus avail : %u\n", online, avail);
	print_string_feature(out, f, PEO_FEAT_CPUDESC, "cpudesc");
	print_string_feature(out, f, PEO_FEAT_CPUID, "cpuid");
	if (!peo_perfdata_feature_u64(f, PEO_FEAT_TOTAL_MEM, &kb))
		fprintf(out, "# total memory : %" PRIu64 " kB\n", kb);
	if (!peo_perfdata_feature_strings(f, PEO_FEAT_CMDLINE, &argv, &argc)) {
		fprintf(out, "# cmdline : "); /* perf leaves a blank after each word */
		for (size_t i = 0; i < argc; i++)
			fprintf(out, "%s ", argv[i]);
		fprintf(out, "\n");
	}
	print_events(out, f);
	print_topology(out, f, full);
	print_groups_and_caches(out, f, full);
	print_times_and_memory(out, f, full);
	if (build_ids)
		print_build_ids(out, f);
}

/* perf 6.1's names of the features, by bit, for "missing features". */
static const char *const feature_names[] = {
	[PEO_FEAT_TRACING_DATA] = "TRACING_DATA", [PEO_FEAT_BUILD_ID] = "BUILD_ID",
	[PEO_FEAT_HOSTNAME] = "HOSTNAME", [PEO_FEAT_OSRELEASE] = "OSRELEASE",
	[PEO_FEAT_VERSION] = "VERSION", [PEO_FEAT_ARCH] = "ARCH", [PEO_FEAT_NRCPUS] = "NRCPUS",
	[PEO_FEAT_CPUDESC] = "CPUDESC", [PEO_FEAT_CPUID] = "CPUID",
	[PEO_FEAT_TOTAL_MEM] = "TOTAL_MEM", [PEO_FEAT_CMDLINE] = "CMDLINE",
	[PEO_FEAT_EVENT_DESC] = "EVENT_DESC", [PEO_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[PEO_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY", [PEO_FEAT_BRANCH_STACK] = "BRANCH_STACK",
	[PEO_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS", [PEO_FEAT_GROUP_DESC] = "GROUP_DESC",
	[PEO_FEAT_AUXTRACE] = "AUXTRACE", [PEO_FEAT_STAT] = "STAT", [PEO_FEAT_CACHE] = "CACHE",
	[PEO_FEAT_SAMPLE_TIME] = "SAMPLE_TIME", [PEO_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[PEO_FEAT_CLOCKID] = "CLOCKID", [PEO_FEAT_DIR_FORMAT] = "DIR_FORMAT",
	[PEO_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO", [PEO_FEAT_BPF_BTF] = "BPF_BTF",
	[PEO_FEAT_COMPRESSED] = "COMPRESSED", [PEO_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[PEO_FEAT_CLOCK_DATA] = "CLOCK_DATA", [PEO_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[PEO_FEAT_PMU_CAPS] = "PMU_CAPS",
};

void perf_header_print(FILE *out, struct peo_perfdata *f, const char *path, int full)
{
	struct peo_perfdata_layout l = { .sz = sizeof(l) };
	struct stat st;
	char when[64];

	fprintf(out, "# ========\n");
	if (path && !stat(path, &st) && strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y",
						localtime(&st.st_mtime)))
		fprintf(out, "# captured on    : %s\n", when);
	if (!peo_perfdata_layout(f, &l))
		fprintf(out, "# header version : 1\n# data offset    : %" PRIu64 "\n"
			"# data size      : %" PRIu64 "\n# feat offset    : %" PRIu64 "\n",
			l.data_offset, l.data_size, l.feat_offset);
	perf_header_features(out, f, full, 0);
	fprintf(out, "# missing features: ");
	for (unsigned bit = 1; bit < sizeof(feature_names) / sizeof(feature_names[0]); bit++)
		if (!peo_perfdata_has_feature(f, bit))
			fprintf(out, "%s ", feature_names[bit]);
	fprintf(out, "\n# ========\n#\n");
}
