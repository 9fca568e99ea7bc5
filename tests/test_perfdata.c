/*
 * test_perfdata.c - the perf.data reader on files built here from the
 * format, in both byte orders, with feature sections; every value checked
 * is the one written, and every malformed variant fails with its offset.
 * (Files perf itself writes are compared with perf in script_compare.sh.)
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "test_util.h"

#include "json_out.h"
#include "perfdata/dir_sort.h" /* peo_pd_late_most */
#include "script/json.h" /* peo script --json of the user records built here */
#include "synth_sample.h"
#include "tie_dir.h"

#define SAMPLE_TYPE (PEO_SAMPLE_IDENTIFIER | PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME)

/* Offsets of the parts of a built file, for the malformed variants. */
struct layout {
	size_t attrs, ids, data, data_size, index, cmdline, hostname;
};

/* The times of build_file()'s records in time order: the COMM, the samples. */
static const uint64_t built_times[] = { 100, 200, 300, 400 };

/* @k records were read, at @want's @n times in that order. */
static void assert_times(const uint64_t *got, int k, const uint64_t *want, int n)
{
	assert_int_equal(k, n);
	for (int i = 0; i < n; i++)
		assert_int_equal(got[i], want[i]);
}

static void header_string(struct vec *v, const char *s)
{
	size_t len = strlen(s) + 1, padded = (len + 63) / 64 * 64; /* perf pads to 64 */

	vec_put32(v, (uint32_t)padded);
	vec_bytes(v, s, len);
	vec_zeros_to(v, v->n + padded - len);
}

/* The record of a sample at @time from @tid, at @ip. */
static void sample(struct vec *v, uint64_t time, uint32_t tid, uint64_t ip)
{
	vec_put32(v, PEO_RECORD_SAMPLE);
	vec_put16(v, PEO_RECORD_MISC_USER);
	vec_put16(v, 40);
	vec_put64(v, 77);          /* identifier */
	vec_put64(v, ip);
	vec_put32(v, 1000);        /* pid */
	vec_put32(v, tid);
	vec_put64(v, time);
}

/* A whole file-mode perf.data: one event (ids 77, 78), three records, features. */
static void build_file(struct vec *v, int big, struct layout *l)
{
	static const unsigned feats[] = {
		PEO_FEAT_BUILD_ID, PEO_FEAT_HOSTNAME, PEO_FEAT_NRCPUS, PEO_FEAT_TOTAL_MEM,
		PEO_FEAT_CMDLINE, PEO_FEAT_EVENT_DESC, PEO_FEAT_CPU_TOPOLOGY,
		PEO_FEAT_NUMA_TOPOLOGY, PEO_FEAT_PMU_MAPPINGS, PEO_FEAT_GROUP_DESC,
		PEO_FEAT_AUXTRACE, PEO_FEAT_CACHE, PEO_FEAT_SAMPLE_TIME, PEO_FEAT_MEM_TOPOLOGY,
		PEO_FEAT_CLOCKID, PEO_FEAT_BPF_PROG_INFO, PEO_FEAT_BPF_BTF, PEO_FEAT_COMPRESSED,
		PEO_FEAT_CPU_PMU_CAPS, PEO_FEAT_CLOCK_DATA, PEO_FEAT_HYBRID_TOPOLOGY,
		PEO_FEAT_PMU_CAPS,
	};
	enum { NFEATS = sizeof(feats) / sizeof(feats[0]) };
	struct peo_attr a;
	size_t sec[NFEATS][2];
	uint64_t bits[4] = { 0 };

	memset(v, 0, sizeof(*v));
	v->big = big;
	peo_attr_init(&a);
	a.type = PEO_TYPE_SOFTWARE;
	a.config = PEO_COUNT_SW_CPU_CLOCK;
	a.size = 128; /* as perf 6.1 writes it */
	a.sample_period = 4000;
	a.sample_type = SAMPLE_TYPE;
	a.sample_id_all = 1;
	a.freq = 1;
	/* header: patched once the offsets are known */
	vec_bytes(v, big ? "2ELIFREP" : "PERFILE2", 8);
	vec_put64(v, 104);
	vec_put64(v, 128 + 16);
	vec_zeros_to(v, 104);
	/* attrs: the attr (128 bytes), then its ids section */
	l->attrs = v->n;
	vec_attr(v, &a);
	v->n = l->attrs + 128;
	vec_put64(v, 0); /* ids section: patched */
	vec_put64(v, 16);
	l->ids = v->n;
	vec_put64(v, 77);
	vec_put64(v, 78);
	vec_put_at(v, l->attrs + 128, l->ids, 8);
	/* data: a COMM (with its trailer), two samples out of order, a round's end, a third */
	l->data = v->n;
	vec_put32(v, PEO_RECORD_COMM);
	vec_put16(v, PEO_RECORD_MISC_COMM_EXEC);
	vec_put16(v, 48);
	vec_put32(v, 1000);
	vec_put32(v, 1001);
	vec_bytes(v, "worker\0\0", 8);
	vec_put32(v, 1000);        /* trailer: tid */
	vec_put32(v, 1001);
	vec_put64(v, 100);         /* time */
	vec_put64(v, 78);          /* identifier */
	sample(v, 300, 1001, 0x401000);
	sample(v, 200, 1002, 0x402000);
	vec_put32(v, PEO_RECORD_FINISHED_ROUND);
	vec_put16(v, 0);
	vec_put16(v, 8);
	sample(v, 400, 1001, 0x403000);
	l->data_size = v->n - l->data;
	/* feature index, then the sections */
	l->index = v->n;
	v->n += 16 * NFEATS;
	for (int i = 0; i < NFEATS; i++) {
		sec[i][0] = v->n;
		bits[feats[i] / 64] |= 1ULL << (feats[i] % 64);
		switch (feats[i]) {
		case PEO_FEAT_HOSTNAME:
			l->hostname = v->n;
			header_string(v, "buildhost");
			break;
		case PEO_FEAT_NRCPUS:
			vec_put32(v, 8); /* available */
			vec_put32(v, 6); /* online */
			break;
		case PEO_FEAT_TOTAL_MEM:
			vec_put64(v, 16384000); /* kB */
			break;
		case PEO_FEAT_CMDLINE:
			l->cmdline = v->n;
			vec_put32(v, 3);
			header_string(v, "perf");
			header_string(v, "record");
			header_string(v, "-a");
			break;
		case PEO_FEAT_EVENT_DESC:
			vec_put32(v, 1);
			vec_put32(v, 128);
			vec_attr(v, &a);
			v->n -= 16; /* 128 of the 144 bytes vec_attr wrote */
			vec_put32(v, 2);
			header_string(v, "cpu-clock:u");
			vec_put64(v, 77);
			vec_put64(v, 78);
			break;
		case PEO_FEAT_SAMPLE_TIME:
			vec_put64(v, 200);
			vec_put64(v, 400);
			break;
		case PEO_FEAT_CLOCKID:
			vec_put64(v, 1);
			break;
		case PEO_FEAT_BUILD_ID: { /* header, pid, 20 id bytes + size + 3 pad, name */
			unsigned char id[24] = { 0 };

			for (int k = 0; k < 20; k++)
				id[k] = (unsigned char)(0xa0 + k);
			id[20] = 20;
			vec_put32(v, 0);
			vec_put16(v, 1u << 15 | PEO_RECORD_MISC_USER);
			vec_put16(v, 36 + 16);
			vec_put32(v, 1000);
			vec_bytes(v, id, 24);
			vec_bytes(v, "/usr/bin/demo\0\0\0", 16);
			break;
		}
		case PEO_FEAT_CPU_TOPOLOGY: /* sockets, threads, ids per CPU (8), dies, die ids */
			vec_put32(v, 1); header_string(v, "0-7");
			vec_put32(v, 2); header_string(v, "0-3"); header_string(v, "4-7");
			for (uint32_t k = 0; k < 8; k++) {
				vec_put32(v, k / 2); /* core */
				vec_put32(v, 0);     /* socket */
			}
			vec_put32(v, 1); header_string(v, "0-7");
			for (uint32_t k = 0; k < 8; k++)
				vec_put32(v, k / 4);
			break;
		case PEO_FEAT_NUMA_TOPOLOGY:
			vec_put32(v, 1);
			vec_put32(v, 0); vec_put64(v, 8000000); vec_put64(v, 6000000);
			header_string(v, "0-7");
			break;
		case PEO_FEAT_PMU_MAPPINGS:
			vec_put32(v, 2);
			vec_put32(v, 1); header_string(v, "software");
			vec_put32(v, 9); header_string(v, "msr");
			break;
		case PEO_FEAT_GROUP_DESC:
			vec_put32(v, 1);
			header_string(v, "{anon_group}");
			vec_put32(v, 0); vec_put32(v, 1);
			break;
		case PEO_FEAT_CACHE:
			vec_put32(v, 1); vec_put32(v, 1);
			vec_put32(v, 1); vec_put32(v, 64); vec_put32(v, 64); vec_put32(v, 8);
			header_string(v, "Data"); header_string(v, "32K"); header_string(v, "0");
			break;
		case PEO_FEAT_MEM_TOPOLOGY:
			vec_put64(v, 1); vec_put64(v, 0x8000000); vec_put64(v, 0);
			break;
		case PEO_FEAT_COMPRESSED:
			vec_put32(v, 0); vec_put32(v, 1); vec_put32(v, 3); vec_put32(v, 5);
			vec_put32(v, 528384);
			break;
		case PEO_FEAT_AUXTRACE: /* u64 nr, {file_offset, size} */
			vec_put64(v, 2);
			vec_put64(v, 4096); vec_put64(v, 65536);
			vec_put64(v, 81920); vec_put64(v, 512);
			break;
		case PEO_FEAT_BPF_PROG_INFO: /* u32 count, {info_len, data_len, arrays, info, data} */
			vec_put32(v, 1);
			vec_put32(v, 8); vec_put32(v, 4); vec_put64(v, 0);
			vec_bytes(v, "INFOINFO", 8); vec_bytes(v, "DATA", 4);
			break;
		case PEO_FEAT_BPF_BTF: /* u32 count, {id, size, blob} */
			vec_put32(v, 1);
			vec_put32(v, 42); vec_put32(v, 3); vec_bytes(v, "btf", 3);
			break;
		case PEO_FEAT_CPU_PMU_CAPS:
			vec_put32(v, 2);
			header_string(v, "branches"); header_string(v, "32");
			header_string(v, "max_precise"); header_string(v, "3");
			break;
		case PEO_FEAT_HYBRID_TOPOLOGY:
			vec_put32(v, 2);
			header_string(v, "cpu_core"); header_string(v, "0-3");
			header_string(v, "cpu_atom"); header_string(v, "4-7");
			break;
		case PEO_FEAT_PMU_CAPS: /* nr_pmu; per PMU: nr_caps, caps, its name */
			vec_put32(v, 2);
			vec_put32(v, 1); header_string(v, "branches"); header_string(v, "32");
			header_string(v, "cpu_core");
			vec_put32(v, 2); header_string(v, "branches"); header_string(v, "16");
			header_string(v, "widths"); header_string(v, "8");
			header_string(v, "cpu_atom");
			break;
		case PEO_FEAT_CLOCK_DATA:
			vec_put32(v, 1); vec_put32(v, 1);
			vec_put64(v, 1700000000123456789ull); vec_put64(v, 987654321);
			break;
		}
		sec[i][1] = v->n - sec[i][0];
	}
	for (int i = 0; i < NFEATS; i++) {
		vec_put_at(v, l->index + 16 * (size_t)i, sec[i][0], 8);
		vec_put_at(v, l->index + 16 * (size_t)i + 8, sec[i][1], 8);
	}
	vec_put_at(v, 24, l->attrs, 8);
	vec_put_at(v, 32, 144, 8);
	vec_put_at(v, 40, l->data, 8);
	vec_put_at(v, 48, l->data_size, 8);
	for (int i = 0; i < 4; i++)
		vec_put_at(v, 72 + 8 * (size_t)i, bits[i], 8);
}

/* Open @v's bytes as a file (a memfd, so pread and mmap work). */
static int open_bytes_opts(const struct vec *v, struct peo_perfdata **f,
			   const struct peo_perfdata_opts *o, int *fd)
{
	*fd = memfd_create("perfdata", MFD_CLOEXEC);
	assert_true(*fd >= 0);
	assert_int_equal(write(*fd, v->b, v->n), (ssize_t)v->n);
	return peo_perfdata_open_fd(f, *fd, o);
}

/* opts.window for open_bytes(): 0 maps the file whole, 1 reads it in windows. */
static size_t test_window;

static int open_bytes(const struct vec *v, struct peo_perfdata **f, int ordered, int *fd)
{
	PEO_OPTS(peo_perfdata_opts, o, .ordered = ordered, .window = test_window);

	return open_bytes_opts(v, f, &o, fd);
}

/* AUXTRACE, BPF_PROG_INFO, BPF_BTF, CPU_PMU_CAPS, HYBRID_TOPOLOGY, PMU_CAPS. */
static void check_more_features(struct peo_perfdata *f)
{
	const struct peo_auxtrace_entry *aux;
	const struct peo_bpf_prog_info *progs;
	const struct peo_bpf_btf *btf;
	const struct peo_pmu_cap *caps;
	const struct peo_hybrid_node *hybrid;
	const struct peo_pmu_caps *pmus;
	size_t n;

	assert_int_equal(peo_perfdata_auxtrace_index(f, &aux, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(aux[1].file_offset, 81920);
	assert_int_equal(aux[1].size, 512);
	assert_int_equal(peo_perfdata_bpf_prog_info(f, &progs, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(progs[0].info_len, 8);
	assert_memory_equal(progs[0].data, "DATA", 4);
	assert_int_equal(peo_perfdata_bpf_btf(f, &btf, &n), 0);
	assert_int_equal(btf[0].id, 42);
	assert_memory_equal(btf[0].data, "btf", 3);
	assert_int_equal(peo_perfdata_cpu_pmu_caps(f, &caps, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(caps[1].name, "max_precise");
	assert_string_equal(caps[1].value, "3");
	assert_int_equal(peo_perfdata_hybrid_topology(f, &hybrid, &n), 0);
	assert_string_equal(hybrid[1].pmu, "cpu_atom");
	assert_string_equal(hybrid[1].cpus, "4-7");
	assert_int_equal(peo_perfdata_pmu_caps(f, &pmus, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(pmus[0].pmu, "cpu_core");
	assert_int_equal(pmus[1].ncaps, 2);
	assert_string_equal(pmus[1].caps[1].name, "widths");
	assert_string_equal(pmus[1].pmu, "cpu_atom");
	/* asked again: what the first decoding kept */
	assert_int_equal(peo_perfdata_pmu_caps(f, &pmus, &n), 0);
	assert_string_equal(pmus[1].caps[0].value, "16");
}

/* The typed features build_file() wrote, field by field. */
static void check_typed_features(struct peo_perfdata *f)
{
	const struct peo_build_id *ids;
	const struct peo_cpu_topology *t;
	const struct peo_numa_node *nodes;
	const struct peo_pmu_mapping *pmus;
	const struct peo_group_desc *groups;
	const struct peo_cache_level *caches;
	struct peo_mem_topology mem = { .sz = sizeof(mem) };
	struct peo_compressed z = { .sz = sizeof(z) };
	struct peo_clock_data clk = { .sz = sizeof(clk) };
	size_t n;

	assert_int_equal(peo_perfdata_build_ids(f, &ids, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0].pid, 1000);
	assert_int_equal(ids[0].size, 20);
	assert_int_equal(ids[0].id[19], 0xa0 + 19);
	assert_string_equal(ids[0].filename, "/usr/bin/demo");
	assert_int_equal(peo_perfdata_cpu_topology(f, &t), 0);
	assert_int_equal(t->ncore_siblings, 1);
	assert_string_equal(t->thread_siblings[1], "4-7");
	assert_int_equal(t->ncpus, 8); /* NRCPUS says 8 available */
	assert_int_equal(t->cpus[5].core_id, 2);
	assert_true(t->has_dies);
	assert_int_equal(t->cpus[5].die_id, 1);
	assert_int_equal(peo_perfdata_numa_topology(f, &nodes, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(nodes[0].mem_free, 6000000);
	assert_string_equal(nodes[0].cpus, "0-7");
	assert_int_equal(peo_perfdata_pmu_mappings(f, &pmus, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(pmus[1].type, 9);
	assert_string_equal(pmus[1].name, "msr");
	assert_int_equal(peo_perfdata_group_desc(f, &groups, &n), 0);
	assert_int_equal(groups[0].nr_members, 1);
	assert_string_equal(groups[0].name, "{anon_group}");
	assert_int_equal(peo_perfdata_cache(f, &caches, &n), 0);
	assert_int_equal(caches[0].ways, 8);
	assert_string_equal(caches[0].size, "32K");
	assert_int_equal(peo_perfdata_mem_topology(f, &mem), 0);
	assert_int_equal(mem.block_size, 0x8000000);
	assert_int_equal(peo_perfdata_compressed(f, &z), 0);
	assert_int_equal(z.type, 1);
	assert_int_equal(z.ratio, 5);
	assert_int_equal(z.mmap_len, 528384);
	assert_int_equal(peo_perfdata_clock_data(f, &clk), 0);
	assert_int_equal(clk.wall_clock_ns, 1700000000123456789ull);
	assert_int_equal(clk.clockid_time_ns, 987654321);
	check_more_features(f);
}

/* @check in either byte order, the file mapped whole and then read in
 * windows (back to whole by the teardown, whether a check fails or not). */
static void in_each_layout(void (*check)(int big))
{
	for (int run = 0; run < 4; run++) {
		test_window = (size_t)(run >> 1);
		check(run & 1);
	}
}

static int whole_again_teardown(void **state)
{
	test_window = 0;
	return peo_test_fds_teardown(state);
}

/* Each test here starts with files mapped whole, whatever the last one did. */
#define PERFDATA_TEST(f) cmocka_unit_test_setup_teardown(f, peo_test_fds_setup, whole_again_teardown)

static void a_file_of_either_order_in(int big)
{
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	struct peo_perfdata *f;
	struct layout l;
	struct vec v;
	const char *s;
	const char *const *list;
	size_t n;
	uint32_t avail, online;
	uint64_t x, y, times[8];
	int fd, k = 0;

	build_file(&v, big, &l);
	assert_int_equal(open_bytes(&v, &f, 1, &fd), 0);
	assert_int_equal(peo_perfdata_byte_order(f), big ? PEO_BYTE_ORDER_BIG : PEO_BYTE_ORDER_LITTLE);
	assert_int_equal(peo_perfdata_is_pipe(f), 0);
	assert_int_equal(peo_perfdata_attr_count(f), 1);
	assert_int_equal(peo_perfdata_attr(f, 0)->sample_type, SAMPLE_TYPE);
	assert_int_equal(peo_perfdata_attr(f, 0)->config, PEO_COUNT_SW_CPU_CLOCK);
	assert_true(peo_perfdata_attr(f, 0)->sample_id_all); /* the reversed bitfield word */
	assert_true(peo_perfdata_attr(f, 0)->freq);
	assert_false(peo_perfdata_attr(f, 0)->disabled);
	assert_int_equal(peo_perfdata_attr_ids(f, 0, &n)[1], 78);
	assert_int_equal(n, 2);
	assert_string_equal(peo_perfdata_event_name(f, 0), "cpu-clock:u");
	assert_int_equal(peo_perfdata_feature_string(f, PEO_FEAT_HOSTNAME, &s), 0);
	assert_string_equal(s, "buildhost");
	assert_int_equal(peo_perfdata_nrcpus(f, &avail, &online), 0);
	assert_int_equal(avail, 8);
	assert_int_equal(online, 6);
	assert_int_equal(peo_perfdata_feature_u64(f, PEO_FEAT_TOTAL_MEM, &x), 0);
	assert_int_equal(x, 16384000);
	assert_int_equal(peo_perfdata_feature_u64(f, PEO_FEAT_CLOCKID, &x), 0);
	assert_int_equal(x, 1);
	assert_int_equal(peo_perfdata_sample_time(f, &x, &y), 0);
	assert_int_equal(x, 200);
	assert_int_equal(y, 400);
	assert_int_equal(peo_perfdata_feature_strings(f, PEO_FEAT_CMDLINE, &list, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(list[0], "perf");
	assert_string_equal(list[2], "-a");
	assert_int_equal(peo_perfdata_feature_string(f, PEO_FEAT_ARCH, &s), -ENOENT);
	/* the layout the header says (perf report --header's offsets) */
	struct peo_perfdata_layout lay = { .sz = sizeof(lay) };

	assert_int_equal(peo_perfdata_layout(f, &lay), 0);
	assert_int_equal(lay.data_offset, l.data);
	assert_int_equal(lay.data_size, l.data_size);
	assert_int_equal(lay.feat_offset, l.data + l.data_size);
	lay.sz = 8;
	assert_int_equal(peo_perfdata_layout(f, &lay), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "peo_perfdata_layout"));
	assert_true(peo_perfdata_has_feature(f, PEO_FEAT_HOSTNAME));
	assert_false(peo_perfdata_has_feature(f, PEO_FEAT_ARCH));
	assert_false(peo_perfdata_has_feature(f, 100000));
	check_typed_features(f);
	/* Records in time order: the COMM, the round's end, then 200 300 400. */
	while (peo_perfdata_next(f, &rec) == 1) {
		const struct peo_record *r = &rec.rec;

		if (r->header.type == PEO_RECORD_COMM) {
			assert_string_equal(r->u.comm.comm, "worker");
			assert_true(r->u.comm.exec);
			assert_int_equal(r->sample_id.time, 100);
			assert_int_equal(rec.offset, l.data);
			times[k++] = r->sample_id.time;
		} else if (r->header.type == PEO_RECORD_SAMPLE) {
			assert_int_equal(r->u.sample.identifier, 77);
			assert_int_equal(r->u.sample.pid, 1000);
			times[k++] = r->u.sample.time;
		}
	}
	assert_times(times, k, built_times, 4);
	peo_perfdata_close(f);
	close(fd);
}

static void a_file_of_either_order(void **state)
{
	(void)state;
	in_each_layout(a_file_of_either_order_in);
}

/* peo_perfdata_count() against the records built: by type and by event,
 * in both byte orders, with and without the read-ahead thread. */
static void counts_by_type_and_event(void **state)
{
	(void)state;
	for (int big = 0; big < 2; big++)
		for (int ahead = 0; ahead < 2; ahead++) {
			PEO_OPTS(peo_perfdata_opts, o, .readahead_thread = ahead);
			struct peo_perfdata_counts c = { .sz = sizeof(c) };
			struct peo_perfdata *f;
			struct layout l;
			struct vec v;
			int fd;

			build_file(&v, big, &l);
			assert_int_equal(open_bytes_opts(&v, &f, &o, &fd), 0);
			assert_int_equal(peo_perfdata_count(f, &c), 0);
			assert_int_equal(c.total, 5);
			assert_int_equal(c.by_type[PEO_RECORD_COMM], 1);
			assert_int_equal(c.by_type[PEO_RECORD_SAMPLE], 3);
			assert_int_equal(c.by_type[PEO_RECORD_FINISHED_ROUND], 1);
			assert_int_equal(c.nevents, 1);
			assert_int_equal(c.samples_by_event[0], 3);
			assert_int_equal(c.samples_unknown_event, 0);
			peo_perfdata_counts_free(&c);
			/* at the end: nothing more, and nothing to free */
			assert_int_equal(peo_perfdata_count(f, &c), 0);
			assert_int_equal(c.total, 0);
			assert_null(c.samples_by_event);
			peo_perfdata_close(f);
			close(fd);
		}
}

/* Records read with headers_only, in time order, parsed with the file's
 * parser and with a clone of it (as peo script does on another thread):
 * the fields of a full read. */
static void headers_only_records_parse_with_the_files_parser(void **state)
{
	(void)state;
	assert_null(peo_perfdata_parser(NULL));
	for (int big = 0; big < 2; big++) {
		PEO_OPTS(peo_perfdata_opts, o, .ordered = 1, .headers_only = 1);
		struct peo_perfdata_record rec = { .sz = sizeof(rec) };
		struct peo_record_parser *clone;
		struct peo_record r = { .sz = sizeof(r) }, c = { .sz = sizeof(c) };
		struct peo_perfdata *f;
		struct layout l;
		struct vec v;
		uint64_t times[8];
		int fd, k = 0;

		build_file(&v, big, &l);
		assert_int_equal(open_bytes_opts(&v, &f, &o, &fd), 0);
		assert_int_equal(peo_record_parser_clone(&clone, peo_perfdata_parser(f)), 0);
		while (peo_perfdata_next(f, &rec) == 1) {
			if (rec.rec.header.type >= PEO_RECORD_MAX)
				continue;
			assert_int_equal(peo_perfdata_event_of(f, rec.rec.attr), 0);
			assert_int_equal(peo_record_parse(peo_perfdata_parser(f), rec.rec.bytes,
							  rec.rec.header.size, &r), 0);
			assert_int_equal(peo_record_parse(clone, rec.rec.bytes, rec.rec.header.size,
							  &c), 0);
			assert_ptr_equal(r.attr, rec.rec.attr);
			assert_int_equal(c.attr->sample_type, SAMPLE_TYPE);
			assert_int_equal(c.header.type, r.header.type);
			if (r.header.type == PEO_RECORD_COMM) {
				assert_string_equal(c.u.comm.comm, "worker");
				assert_int_equal(c.sample_id.time, 100);
			} else {
				assert_int_equal(r.header.type, PEO_RECORD_SAMPLE);
				assert_int_equal(c.u.sample.identifier, 77);
				assert_int_equal(c.u.sample.pid, 1000);
			}
			times[k++] = c.sample_id.time;
		}
		assert_times(times, k, built_times, 4);
		/* an event's index is known from the reader's parser's attrs only */
		assert_int_equal(peo_perfdata_event_of(f, c.attr), -1); /* the clone's */
		assert_int_equal(peo_perfdata_event_of(f, (const struct peo_attr *)
							  ((const char *)r.attr + 8)), -1);
		assert_int_equal(peo_perfdata_event_of(f, peo_perfdata_attr(f, 0)), -1);
		assert_int_equal(peo_perfdata_event_of(f, NULL), -1);
		peo_record_parser_free(clone);
		peo_perfdata_close(f);
		close(fd);
	}
}

/* A new temporary file's name in @path (a mkstemp template). */
static void temp_file(char *path)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
}

/* A writer of a new file at @path with event @a (@nids ids at @ids), named @name. */
static struct peo_perfdata_writer *writer_with(const char *path, const struct peo_attr *a,
					       const uint64_t *ids, size_t nids, const char *name)
{
	struct peo_perfdata_writer *w;

	assert_int_equal(peo_perfdata_writer_open(&w, path), 0);
	assert_int_equal(peo_perfdata_writer_add_event(w, a, ids, nids, name), 0);
	return w;
}

/* A sample as the writer test writes it: IP|TID|TIME|PERIOD. */
static void written_sample(struct vec *v, uint64_t ip, uint32_t tid, uint64_t time)
{
	v->n = 0;
	vec_put32(v, PEO_RECORD_SAMPLE);
	vec_put16(v, PEO_RECORD_MISC_USER);
	vec_put16(v, 40);
	vec_put64(v, ip);
	vec_put32(v, 500);
	vec_put32(v, tid);
	vec_put64(v, time);
	vec_put64(v, 1000);
}

/* The writer's file read back: attrs and ids, names, host features, records in order. */
static void written_file_reads_back(void **state)
{
	char path[] = "/tmp/peo-writer-XXXXXX";
	const char *argv[] = { "peo", "record", "--", "true" };
	struct peo_perfdata_writer *w;
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	struct peo_perfdata_counts c = { .sz = sizeof(c) };
	struct peo_perfdata *f;
	struct peo_attr a;
	struct utsname u;
	static const uint64_t sorted[] = { 100, 200, 300 };
	uint64_t ids[2] = { 901, 902 }, times[] = { 300, 100, 200 }, x;
	const uint64_t *got_ids;
	const char *const *list;
	const char *s;
	struct vec v = { .big = 0 };
	size_t n;
	int k = 0;

	(void)state;
	temp_file(path);
	peo_test_sw_attr(&a, PEO_COUNT_SW_CPU_CLOCK);
	a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_PERIOD;
	a.sample_period = 1000;
	w = writer_with(path, &a, ids, 2, "cpu-clock");
	assert_int_equal(peo_perfdata_writer_host_features(w, 4, argv), 0);
	for (int i = 0; i < 3; i++) {
		written_sample(&v, 0x1000 + (uint64_t)i, 600 + (uint32_t)i, times[i]);
		assert_int_equal(peo_perfdata_writer_record(w, v.b, v.n), 0);
		if (i == 0)
			assert_int_equal(peo_perfdata_writer_finished_round(w), 0);
	}
	/* 42 samples lost, as perf record writes it at the end (no sample_id here) */
	v.n = 0;
	vec_put32(&v, PEO_RECORD_LOST_SAMPLES);
	vec_put16(&v, 0);
	vec_put16(&v, 16);
	vec_put64(&v, 42);
	assert_int_equal(peo_perfdata_writer_record(w, v.b, v.n), 0);
	written_sample(&v, 0x1002, 602, 200); /* the last sample again, for the checks below */
	assert_int_equal(peo_perfdata_writer_add_event(w, &a, ids, 1, "late"), -EBUSY);
	assert_int_equal(peo_perfdata_writer_record(w, v.b, 12), -EINVAL); /* not a multiple of 8 */
	assert_int_equal(peo_perfdata_writer_record(w, v.b, 32), -EINVAL); /* a record cut short */
	assert_int_equal(peo_perfdata_writer_data_size(w), 3 * 40 + 8 + 16);
	assert_int_equal(peo_perfdata_writer_count(w, PEO_RECORD_SAMPLE), 3);
	assert_int_equal(peo_perfdata_writer_count(w, PEO_RECORD_FINISHED_ROUND), 1);
	assert_int_equal(peo_perfdata_writer_count(w, PEO_PERFDATA_ALL_TYPES), 5);
	assert_int_equal(peo_perfdata_writer_close(w), 0);

	PEO_OPTS(peo_perfdata_opts, o, .ordered = 1);
	assert_int_equal(peo_perfdata_open(&f, path, &o), 0);
	assert_int_equal(peo_perfdata_attr_count(f), 1);
	assert_int_equal(peo_perfdata_attr(f, 0)->sample_type, a.sample_type);
	assert_int_equal(peo_perfdata_attr(f, 0)->size, PEO_ATTR_SIZE_VER0); /* nothing past 64 set */
	got_ids = peo_perfdata_attr_ids(f, 0, &n);
	assert_int_equal(n, 2);
	assert_int_equal(got_ids[1], 902);
	assert_string_equal(peo_perfdata_event_name(f, 0), "cpu-clock");
	assert_int_equal(uname(&u), 0);
	assert_int_equal(peo_perfdata_feature_string(f, PEO_FEAT_HOSTNAME, &s), 0);
	assert_string_equal(s, u.nodename);
	assert_int_equal(peo_perfdata_feature_string(f, PEO_FEAT_ARCH, &s), 0);
	assert_string_equal(s, u.machine);
	assert_int_equal(peo_perfdata_feature_strings(f, PEO_FEAT_CMDLINE, &list, &n), 0);
	assert_int_equal(n, 5); /* this program's path, then the four arguments */
	assert_string_equal(list[4], "true");
	assert_int_equal(peo_perfdata_feature_u64(f, PEO_FEAT_TOTAL_MEM, &x), 0);
	assert_true(x > 1024); /* kB */
	while (peo_perfdata_next(f, &rec) == 1)
		if (rec.rec.header.type == PEO_RECORD_SAMPLE) {
			assert_int_equal(rec.rec.u.sample.pid, 500);
			times[k++] = rec.rec.u.sample.time;
		}
	/* perf's rule holds a round's records until the next round ends: all sorted */
	assert_times(times, k, sorted, 3);
	peo_perfdata_close(f);
	/* as perf script: without sample_id_all, file order */
	o.ordered = PEO_PERFDATA_ORDER_AS_PERF;
	assert_int_equal(peo_perfdata_open(&f, path, &o), 0);
	for (k = 0; peo_perfdata_next(f, &rec) == 1;)
		if (rec.rec.header.type == PEO_RECORD_SAMPLE && k++ < 3) {
			times[k - 1] = rec.rec.u.sample.time;
			assert_null(peo_perfdata_source(f)); /* a single file */
		}
	assert_times(times, k, (const uint64_t[]){ 300, 100, 200 }, 3);
	peo_perfdata_close(f);
	o.ordered = PEO_PERFDATA_ORDER_AS_PERF + 1;
	assert_int_equal(peo_perfdata_open(&f, path, &o), -EINVAL);
	assert_null(f);
	assert_non_null(strstr(peo_last_error(), "opts.ordered 3 is not 0 (file order)"));
	assert_int_equal(peo_perfdata_open(&f, path, NULL), 0);
	assert_int_equal(peo_perfdata_count(f, &c), 0);
	assert_int_equal(c.by_type[PEO_RECORD_SAMPLE], 3);
	assert_int_equal(c.by_type[PEO_RECORD_FINISHED_ROUND], 1);
	assert_int_equal(c.by_type[PEO_RECORD_LOST_SAMPLES], 1);
	assert_int_equal(c.lost_samples, 42); /* the record's count, as perf report --stats sums it */
	assert_int_equal(c.nevents, 1);
	assert_int_equal(c.lost_samples_by_event[0], 42);
	peo_perfdata_counts_free(&c);
	peo_perfdata_close(f);
	unlink(path);
}

/* A written sample's time and the ip that numbers its arrival. */
struct arrival {
	uint64_t time, ip;
};

static int by_time_then_arrival(const void *a, const void *b)
{
	const struct arrival *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/*
 * Many rings in a round, as perf record -a writes them on a many-CPU
 * machine: each ring's records in time order, the rings one after the
 * other, times drawn from a few values so that rings tie.  Read in time
 * order (mapped whole, and in windows: records held uncopied or copied),
 * they come as a stable sort by time: ties in their order of arrival.
 */
static void many_rings_merge_in_time_order(void **state)
{
	enum { ROUNDS = 6, RINGS = 48, MOST = 40 };
	static struct arrival want[ROUNDS * RINGS * MOST];
	char path[] = "/tmp/peo-rings-XXXXXX";
	struct peo_perfdata_writer *w;
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	struct peo_perfdata *f;
	struct peo_attr a;
	struct vec v = { .big = 0 };
	uint64_t ids[1] = { 7 }, x = 0x9e3779b97f4a7c15ULL;
	size_t n = 0, k;

	(void)state;
	temp_file(path);
	peo_test_sw_attr(&a, PEO_COUNT_SW_CPU_CLOCK);
	a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_PERIOD;
	w = writer_with(path, &a, ids, 1, "cpu-clock");
	for (int round = 0; round < ROUNDS; round++) {
		for (int ring = 0; ring < RINGS; ring++) {
			uint64_t t = 1000u * (uint64_t)round;
			int count;

			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			count = (int)(x % MOST); /* some rings empty this round */
			for (int i = 0; i < count; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				t += x % 3 == 0 ? 0 : x % 25; /* never back in time; often a tie */
				want[n] = (struct arrival){ t, n };
				written_sample(&v, n, (uint32_t)ring, t);
				assert_int_equal(peo_perfdata_writer_record(w, v.b, v.n), 0);
				n++;
			}
		}
		assert_int_equal(peo_perfdata_writer_finished_round(w), 0);
	}
	assert_int_equal(peo_perfdata_writer_close(w), 0);
	qsort(want, n, sizeof(want[0]), by_time_then_arrival);
	for (size_t window = 0; window < 2; window++) {
		PEO_OPTS(peo_perfdata_opts, o, .ordered = PEO_PERFDATA_TIME_ORDER, .window = window);

		assert_int_equal(peo_perfdata_open(&f, path, &o), 0);
		for (k = 0; peo_perfdata_next(f, &rec) == 1;) {
			if (rec.rec.header.type != PEO_RECORD_SAMPLE)
				continue;
			assert_true(k < n);
			if (rec.rec.u.sample.ip != want[k].ip)
				fail_msg("sample %zu: ip %" PRIu64 " at time %" PRIu64 ", want ip %" PRIu64
					 " at time %" PRIu64 " (window %zu)",
					 k, rec.rec.u.sample.ip, rec.rec.u.sample.time, want[k].ip,
					 want[k].time, window);
			k++;
		}
		assert_int_equal(k, n);
		peo_perfdata_close(f);
	}
	unlink(path);
}

/*
 * Samples written through zstd as @type (COMPRESSED or COMPRESSED2): the
 * file holds that type only, aligned as its kind says, and the samples
 * come back in order.  Returns how many compressed records there were.
 */
static int compressed_round_trip(uint32_t type, const char *path)
{
	enum { N = 3000 };
	struct peo_perfdata_writer *w;
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	struct peo_perfdata *f;
	struct peo_attr a;
	uint64_t ids[1] = { 7 };
	struct vec v = { .big = 0 };
	int got = 0, zrecs = 0;
	uint64_t made;

	peo_test_sw_attr(&a, PEO_COUNT_SW_CPU_CLOCK);
	a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_PERIOD;
	w = writer_with(path, &a, ids, 1, "cpu-clock");
	assert_int_equal(peo_perfdata_writer_compress(w, 3, 1 << 20, type), 0);
	for (int i = 0; i < N; i++) {
		/* pseudo-random ips: zstd's output must span records */
		written_sample(&v, (uint64_t)i * 2654435761u, 600 + (uint32_t)(i % 7), 1000 + (uint64_t)i);
		assert_int_equal(peo_perfdata_writer_record(w, v.b, v.n), 0);
		if (i % 1000 == 999)
			assert_int_equal(peo_perfdata_writer_finished_round(w), 0);
	}
	made = peo_perfdata_writer_count(w, type);
	assert_int_equal(peo_perfdata_writer_count(w, PEO_RECORD_SAMPLE), N);
	assert_int_equal(peo_perfdata_writer_close(w), 0);

	assert_int_equal(peo_perfdata_open(&f, path, NULL), 0);
	while (peo_perfdata_next(f, &rec) == 1) {
		uint32_t t = rec.rec.header.type;

		if (t == PEO_RECORD_COMPRESSED || t == PEO_RECORD_COMPRESSED2) {
			assert_int_equal(t, type);
			/* COMPRESSED2 pads to 8 bytes; COMPRESSED is zstd's bytes only */
			if (t == PEO_RECORD_COMPRESSED2)
				assert_int_equal(rec.rec.header.size % 8, 0);
			zrecs++;
		} else if (t == PEO_RECORD_SAMPLE) {
			assert_int_equal(rec.rec.u.sample.ip, (uint64_t)got * 2654435761u);
			assert_int_equal(rec.rec.u.sample.time, 1000 + (uint64_t)got);
			got++;
		}
	}
	assert_int_equal(got, N);
	assert_int_equal(zrecs, made);
	peo_perfdata_close(f);
	return zrecs;
}

/* Each attr is written at the smallest published size holding its nonzero
 * bytes: VER0 for a plain one, VER7 for sig_data, VER8 for config3 (a
 * larger size than a reader knows is refused by it). */
static void written_attr_size_is_the_smallest_published(void **state)
{
	static const struct {
		size_t field; /* offset of the u64 set, 0: none */
		uint32_t want;
	} cases[] = {
		{ 0, PEO_ATTR_SIZE_VER0 },
		{ offsetof(struct peo_attr, sig_data), PEO_ATTR_SIZE_VER7 },
		{ offsetof(struct peo_attr, config3), PEO_ATTR_SIZE_VER8 },
	};
	char path[] = "/tmp/peo-attrsize-XXXXXX";

	(void)state;
	temp_file(path);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct peo_perfdata_writer *w;
		struct peo_perfdata *f;
		struct peo_attr a;
		uint64_t id = 7, one = 1;

		peo_test_sw_attr(&a, PEO_COUNT_SW_CPU_CLOCK);
		if (cases[i].field)
			memcpy((char *)&a + cases[i].field, &one, sizeof(one));
		w = writer_with(path, &a, &id, 1, "cpu-clock");
		assert_int_equal(peo_perfdata_writer_close(w), 0);
		assert_int_equal(peo_perfdata_open(&f, path, NULL), 0);
		assert_int_equal(peo_perfdata_attr(f, 0)->size, cases[i].want);
		peo_perfdata_close(f);
	}
	unlink(path);
}

/*
 * Two events whose attrs need different sizes: the file has one attr size,
 * the larger (VER8 for config3), and each attr reads back whole, with its
 * own ids, the smaller one's bytes past VER0 zero.  A sample of each
 * event's id finds its own attr.
 */
static void written_attrs_of_two_sizes_read_back(void **state)
{
	char path[] = "/tmp/peo-attrsizes-XXXXXX";
	struct peo_perfdata_writer *w;
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	struct peo_perfdata *f;
	struct peo_attr small, large;
	static const unsigned char zeros[sizeof(struct peo_attr)];
	uint64_t small_id = 11, large_ids[2] = { 21, 22 };
	const uint64_t *ids;
	struct vec v = { .big = 0 };
	size_t n;
	int seen = 0;

	(void)state;
	temp_file(path);
	peo_test_sw_attr(&small, PEO_COUNT_SW_CPU_CLOCK);
	small.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_ID;
	large = small;
	large.config = PEO_COUNT_SW_TASK_CLOCK;
	large.config3 = 0x3c; /* past VER7: the file's attrs grow to VER8 */
	w = writer_with(path, &small, &small_id, 1, "cpu-clock");
	assert_int_equal(peo_perfdata_writer_add_event(w, &large, large_ids, 2, "task-clock"), 0);
	for (int i = 0; i < 3; i++) { /* a sample of id 11, 22, 11: IP then ID */
		v.n = 0;
		vec_put32(&v, PEO_RECORD_SAMPLE);
		vec_put16(&v, PEO_RECORD_MISC_USER);
		vec_put16(&v, 24);
		vec_put64(&v, 0x4000 + (uint64_t)i);
		vec_put64(&v, i == 1 ? large_ids[1] : small_id);
		assert_int_equal(peo_perfdata_writer_record(w, v.b, v.n), 0);
	}
	assert_int_equal(peo_perfdata_writer_close(w), 0);

	assert_int_equal(peo_perfdata_open(&f, path, NULL), 0);
	assert_int_equal(peo_perfdata_attr_count(f), 2);
	for (size_t i = 0; i < 2; i++)
		assert_int_equal(peo_perfdata_attr(f, i)->size, PEO_ATTR_SIZE_VER8);
	assert_int_equal(peo_perfdata_attr(f, 0)->config, PEO_COUNT_SW_CPU_CLOCK);
	assert_memory_equal((const char *)peo_perfdata_attr(f, 0) + PEO_ATTR_SIZE_VER0,
			    zeros, PEO_ATTR_SIZE_VER8 - PEO_ATTR_SIZE_VER0);
	assert_int_equal(peo_perfdata_attr(f, 1)->config, PEO_COUNT_SW_TASK_CLOCK);
	assert_int_equal(peo_perfdata_attr(f, 1)->config3, 0x3c);
	assert_int_equal(peo_perfdata_attr(f, 1)->sample_type, large.sample_type);
	ids = peo_perfdata_attr_ids(f, 0, &n);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], small_id);
	ids = peo_perfdata_attr_ids(f, 1, &n);
	assert_int_equal(n, 2);
	assert_int_equal(ids[1], large_ids[1]);
	assert_string_equal(peo_perfdata_event_name(f, 1), "task-clock");
	while (peo_perfdata_next(f, &rec) == 1) {
		if (rec.rec.header.type != PEO_RECORD_SAMPLE)
			continue;
		assert_int_equal(rec.rec.u.sample.ip, 0x4000 + (uint64_t)seen);
		assert_int_equal(peo_perfdata_event_of(f, rec.rec.attr), seen == 1 ? 1 : 0);
		seen++;
	}
	assert_int_equal(seen, 3);
	peo_perfdata_close(f);
	unlink(path);
}

/*
 * TRACING_DATA @fmt's section bytes: the header pages empty, system
 * "peotest" with @fmt, then a system whose event count runs past the
 * section when @broken, else none; then kallsyms and the printk list
 * @printk (NULL: the file ends before them, as older perf's did).
 */
static void tracing_section(struct vec *v, const char *fmt, int broken, const char *printk)
{
	vec_bytes(v, "\x17\x08" "Dtracing" "0.6", 14);
	vec_bytes(v, "\0\x08", 2); /* little-endian, 8-byte longs */
	vec_put32(v, 4096);
	vec_bytes(v, "header_page", 12);
	vec_put64(v, 0);
	vec_bytes(v, "header_event", 13);
	vec_put64(v, 0);
	vec_put32(v, 0); /* ftrace formats */
	vec_put32(v, broken ? 2 : 1);
	vec_bytes(v, "peotest", 8);
	vec_put32(v, 1);
	vec_put64(v, strlen(fmt));
	vec_bytes(v, fmt, strlen(fmt));
	if (broken) {
		vec_bytes(v, "other", 6);
		vec_put32(v, 5); /* five formats promised, none there */
		return;
	}
	if (!printk)
		return;
	vec_put32(v, 0); /* kallsyms */
	vec_put32(v, (uint32_t)strlen(printk));
	vec_bytes(v, printk, strlen(printk));
}

/* A file's tracepoint format from its TRACING_DATA, with the kernel
 * strings its printk list names; found even when a system after it is
 * malformed (it then has no strings), and without peo_last_error() changed. */
static void tracing_data_formats_and_strings(void **state)
{
	static const char fmt[] = "name: msg\nID: 9100\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:const char * s;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\nprint fmt: \"[%s]\", REC->s\n";
	static const char printk[] = "0xffffffff8283d1a6 : \"scale up\"\n";
	unsigned char raw[16] = { 0x8c, 0x23 };
	const uint64_t addr = 0xffffffff8283d1a6ull;
	struct peo_record rec = { .sz = sizeof(rec), .swapped = 0 };

	(void)state;
	memcpy(raw + 8, &addr, 8);
	for (int kind = 0; kind < 3; kind++) { /* with strings, without, broken after */
		char path[] = "/tmp/peo-tracing-XXXXXX", text[64];
		struct vec v = { .big = 0 };
		struct peo_perfdata_writer *w;
		struct peo_tp_format *tf;
		struct peo_perfdata *f;
		struct peo_attr a;
		uint64_t id = 5;

		temp_file(path);
		tracing_section(&v, fmt, kind == 2, kind == 0 ? printk : NULL);
		peo_test_sw_attr(&a, PEO_COUNT_SW_CPU_CLOCK);
		w = writer_with(path, &a, &id, 1, "cpu-clock");
		assert_int_equal(peo_perfdata_writer_feature(w, PEO_FEAT_TRACING_DATA, v.b, v.n), 0);
		assert_int_equal(peo_perfdata_writer_close(w), 0);
		assert_int_equal(peo_perfdata_open(&f, path, NULL), 0);
		{ /* the user's last failure, whose sentence must stay */
			struct peo_perfdata *none;

			assert_true(peo_perfdata_open(&none, "/nonexistent/peo.data", NULL) < 0);
			snprintf(text, sizeof(text), "%.63s", peo_last_error());
		}
		assert_int_equal(peo_perfdata_tp_format(f, "peotest", "msg", &tf), 0);
		assert_memory_equal(peo_last_error(), text, strlen(text));
		assert_true(peo_tp_format_print(tf, &rec, raw, sizeof(raw), text, sizeof(text)) > 0);
		assert_string_equal(text, kind == 0 ? "[scale up]" : "[ffffffff8283d1a6]");
		peo_tp_format_free(tf);
		/* one not there: not found, or the malformed system named */
		assert_int_equal(peo_perfdata_tp_format(f, "peotest", "none", &tf),
				 kind == 2 ? -EPROTO : -ENOENT);
		peo_perfdata_close(f);
		unlink(path);
	}
}

/* Both kinds of compressed record, written and read back. */
static void written_compressed_reads_back(void **state)
{
	char path[] = "/tmp/peo-writer-z-XXXXXX";
	struct peo_perfdata_writer *w;
	int err;

	(void)state;
	temp_file(path);
	assert_int_equal(peo_perfdata_writer_open(&w, path), 0);
	err = peo_perfdata_writer_compress(w, 1, 4096, 0);
	assert_int_equal(peo_perfdata_writer_compress(w, 1, 4096, 82), -EINVAL); /* no such record */
	peo_perfdata_writer_abandon(w);
	if (err == -ENOTSUP) {
		unlink(path);
		PEO_SKIP("peo was built without zstd: %s", peo_last_error());
	}
	assert_int_equal(err, 0);
	assert_true(compressed_round_trip(PEO_RECORD_COMPRESSED, path) > 1);
	assert_true(compressed_round_trip(PEO_RECORD_COMPRESSED2, path) > 1);
	unlink(path);
}

/* A task record (FORK or EXIT: pid, ppid, tid, ptid, time) into @w. */
static void write_task(struct peo_perfdata_writer *w, uint32_t type, uint32_t pid, uint32_t ppid)
{
	struct vec v = { .big = 0 };

	vec_put32(&v, type);
	vec_put16(&v, 0);
	vec_put16(&v, 32);
	vec_put32(&v, pid);
	vec_put32(&v, ppid);
	vec_put32(&v, pid);
	vec_put32(&v, ppid);
	vec_put64(&v, 50);
	assert_int_equal(peo_perfdata_writer_record(w, v.b, v.n), 0);
}

/*
 * Whether @file gets a BUILD_ID when pid 500 maps it, forks pid 501 (when
 * @fork), exits, and then a sample of @sampled hits the mapping.
 */
static int build_id_after(const char *file, int fork, uint32_t sampled)
{
	char path[] = "/tmp/peo-hits-XXXXXX";
	struct peo_perfdata_writer *w;
	const struct peo_build_id *ids;
	struct peo_perfdata *f;
	struct peo_attr a;
	uint64_t id = 1;
	struct vec v = { .big = 0 };
	size_t n, len = strlen(file) + 1;
	int found = 0, err;

	temp_file(path);
	peo_test_sw_attr(&a, PEO_COUNT_SW_CPU_CLOCK);
	a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_PERIOD;
	w = writer_with(path, &a, &id, 1, "cpu-clock");
	assert_int_equal(peo_perfdata_writer_build_ids(w), 0);
	vec_put32(&v, PEO_RECORD_MMAP2); /* [0x400000, +64 KiB) of @file */
	vec_put16(&v, PEO_RECORD_MISC_USER);
	vec_put16(&v, 0); /* the size, below */
	vec_put32(&v, 500);
	vec_put32(&v, 500);
	vec_put64(&v, 0x400000);
	vec_put64(&v, 0x10000);
	vec_put64(&v, 0);
	vec_put64(&v, 0); /* maj, min */
	vec_put64(&v, 1); /* ino */
	vec_put64(&v, 0);
	vec_put64(&v, 5); /* prot r-x, flags */
	vec_bytes(&v, file, len);
	vec_pad8(&v);
	vec_put_at(&v, 6, v.n, 2);
	assert_int_equal(peo_perfdata_writer_record(w, v.b, v.n), 0);
	if (fork)
		write_task(w, PEO_RECORD_FORK, 501, 500);
	write_task(w, PEO_RECORD_EXIT, 500, 500);
	written_sample(&v, 0x401000, sampled, 60);
	vec_put_at(&v, 16, sampled, 4); /* its pid (after the header and ip) */
	assert_int_equal(peo_perfdata_writer_record(w, v.b, v.n), 0);
	assert_int_equal(peo_perfdata_writer_close(w), 0);
	assert_int_equal(peo_perfdata_open(&f, path, NULL), 0);
	err = peo_perfdata_build_ids(f, &ids, &n);
	if (err != -ENOENT) /* no BUILD_ID section: none found; any other error fails */
		assert_int_equal(err, 0);
	for (size_t i = 0; !err && i < n; i++)
		found |= !strcmp(ids[i].filename, file);
	peo_perfdata_close(f);
	unlink(path);
	return found;
}

/* The writer's BUILD_ID follows live processes: FORK copies maps, EXIT drops them. */
static void build_ids_follow_fork_and_exit(void **state)
{
	char self[512];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

	(void)state;
	assert_true(len > 0);
	self[len] = '\0';
	assert_true(build_id_after(self, 1, 501));  /* the child has its parent's maps */
	assert_false(build_id_after(self, 1, 500)); /* the parent's went with its EXIT */
	assert_false(build_id_after(self, 0, 501)); /* no FORK: 501 maps nothing */
}

/* Each malformed variant fails at open or at its record, naming the offset. */
static void malformed_files_name_the_offset_in(int big)
{
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	struct peo_perfdata *f;
	struct layout l;
	struct vec v;
	char want[96];
	const char *const *list, *s;
	size_t n;
	int fd, got;

	/* the data section runs past the end of the file: as a file cut short
	 * reads (damaged_files_read_with_force has the rest) */
	build_file(&v, big, &l);
	vec_put_at(&v, 48, 1u << 20, 8);
	assert_int_equal(open_bytes(&v, &f, 0, &fd), -ENODATA);
	assert_error_contains("the file is cut short: the header says 1048576 bytes of records");
	close(fd);
	/* the attrs section laid over the data */
	build_file(&v, big, &l);
	vec_put_at(&v, 24, l.data, 8);
	vec_put_at(&v, 32, 144, 8);
	assert_int_equal(open_bytes(&v, &f, 0, &fd), -EPROTO);
	assert_error_contains("overlap");
	close(fd);
	/* attr_size 0 */
	build_file(&v, big, &l);
	vec_put_at(&v, 16, 0, 8);
	assert_int_equal(open_bytes(&v, &f, 0, &fd), -EPROTO);
	assert_error_contains("attr_size 0 at offset 16");
	close(fd);
	/* not a perf.data at all */
	build_file(&v, big, &l);
	memcpy(v.b, "PERFFILE", 8);
	assert_int_equal(open_bytes(&v, &f, 0, &fd), -EPROTO);
	assert_error_contains("not PERFILE2");
	close(fd);
	/* a record whose size is under its header */
	build_file(&v, big, &l);
	vec_put_at(&v, l.data + 48 + 6, 4, 2);
	assert_int_equal(open_bytes(&v, &f, 0, &fd), 0);
	assert_int_equal(peo_perfdata_next(f, &rec), 1);
	got = peo_perfdata_next(f, &rec);
	assert_int_equal(got, -EPROTO);
	snprintf(want, sizeof(want), "record at offset %zu has size 4", l.data + 48);
	assert_error_contains(want);
	peo_perfdata_close(f);
	close(fd);
	/* a string list whose count is larger than its section */
	build_file(&v, big, &l);
	vec_put_at(&v, l.cmdline, 1000000, 4);
	assert_int_equal(open_bytes(&v, &f, 0, &fd), 0);
	assert_int_equal(peo_perfdata_feature_strings(f, PEO_FEAT_CMDLINE, &list, &n), -EPROTO);
	assert_error_contains("says 1000000 strings");
	peo_perfdata_close(f);
	close(fd);
	/* a HOSTNAME string of length 0 and of 3 GB */
	for (int huge = 0; huge < 2; huge++) {
		build_file(&v, big, &l);
		vec_put_at(&v, l.hostname, huge ? 3000000000u : 0, 4);
		assert_int_equal(open_bytes(&v, &f, 0, &fd), 0);
		got = peo_perfdata_feature_string(f, PEO_FEAT_HOSTNAME, &s);
		if (huge) { /* refused before any allocation, naming where */
			assert_int_equal(got, -EPROTO);
			assert_error_contains("3000000000");
		} else { /* an empty string, as perf would read it */
			assert_true(got == -EPROTO || (got == 0 && !*s));
		}
		peo_perfdata_close(f);
		close(fd);
	}
	/* a feature section past the end of the file, and one looping back over
	 * the header (HOSTNAME's, the index's second entry) */
	for (int back = 0; back < 2; back++) {
		build_file(&v, big, &l);
		vec_put_at(&v, l.index + 16, back ? 0 : v.n + 4096, 8);
		got = open_bytes(&v, &f, 0, &fd);
		if (!got) {
			assert_int_equal(peo_perfdata_feature_string(f, PEO_FEAT_HOSTNAME, &s), -EPROTO);
			peo_perfdata_close(f);
		} else {
			assert_int_equal(got, -EPROTO);
		}
		assert_error_contains(back ? "overlap" : "past the file's");
		close(fd);
	}
	/* a record of size 0 would never advance: refused with its offset */
	build_file(&v, big, &l);
	vec_put_at(&v, l.data + 48 + 6, 0, 2);
	assert_int_equal(open_bytes(&v, &f, 0, &fd), 0);
	assert_int_equal(peo_perfdata_next(f, &rec), 1);
	assert_int_equal(peo_perfdata_next(f, &rec), -EPROTO);
	snprintf(want, sizeof(want), "record at offset %zu has size 0", l.data + 48);
	assert_error_contains(want);
	peo_perfdata_close(f);
	close(fd);
	/* a record running past the data section: the last sample says 48 bytes */
	build_file(&v, big, &l);
	vec_put_at(&v, l.data + l.data_size - 40 + 6, 48, 2);
	assert_int_equal(open_bytes(&v, &f, 0, &fd), 0);
	while ((got = peo_perfdata_next(f, &rec)) == 1)
		;
	assert_int_equal(got, -EPROTO);
	snprintf(want, sizeof(want), "offset %zu needs 48 bytes, but the data section ends 40",
		 l.data + l.data_size - 40);
	assert_error_contains(want);
	peo_perfdata_close(f);
	close(fd);
}

static void malformed_files_name_the_offset(void **state)
{
	(void)state;
	in_each_layout(malformed_files_name_the_offset_in);
}

/* Every record of @f in its order: how many, the samples' times in *@times
 * (room for 8), and what ended them (0, or the negative errno). */
static int read_all(struct peo_perfdata *f, int *n, uint64_t *times, int *ntimes)
{
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	int got;

	*n = *ntimes = 0;
	while ((got = peo_perfdata_next(f, &rec)) == 1) {
		(*n)++;
		if (rec.rec.header.type == PEO_RECORD_SAMPLE && *ntimes < 8)
			times[(*ntimes)++] = rec.rec.u.sample.time;
	}
	return got;
}

/* Open @v (force or not, file or time order), expecting @want. */
static int open_damaged(const struct vec *v, struct peo_perfdata **f, int force, int ordered,
			int *fd)
{
	PEO_OPTS(peo_perfdata_opts, o, .force = force, .ordered = ordered, .window = test_window);

	return open_bytes_opts(v, f, &o, fd);
}

/*
 * A recording that was not finished (the header's data size 0, records
 * after it, no features: perf record killed), a file cut short inside its
 * records or inside its features: refused with -ENODATA and a sentence of
 * how many bytes there are; with opts.force read to the last whole record,
 * peo_perfdata_stopped() naming where a cut one ended them, in file and
 * time order.
 */
static void damaged_files_read_with_force_in(int big)
{
	static const uint64_t file_times[] = { 300, 200, 400 }, sorted[] = { 200, 300, 400 };
	struct peo_perfdata *f;
	struct layout l;
	struct vec v;
	char want[200];
	uint64_t times[8];
	const char *s;
	int fd, n, nt;

	/* not finished: data size 0, the records whole, no features after them */
	build_file(&v, big, &l);
	vec_put_at(&v, 48, 0, 8);
	v.n = l.data + l.data_size;
	assert_int_equal(open_damaged(&v, &f, 0, 0, &fd), -ENODATA);
	snprintf(want, sizeof(want), "the recording was not finished: the data size in the header "
		 "is 0; %zu bytes of records follow at offset %zu", l.data_size, l.data);
	assert_error_contains(want);
	close(fd);
	for (int ordered = 0; ordered < 2; ordered++) {
		assert_int_equal(open_damaged(&v, &f, 1, ordered, &fd), 0);
		assert_non_null(peo_perfdata_damaged(f));
		assert_non_null(strstr(peo_perfdata_damaged(f), want));
		assert_int_equal(peo_perfdata_feature_string(f, PEO_FEAT_HOSTNAME, &s), -ENOENT);
		assert_int_equal(read_all(f, &n, times, &nt), 0);
		assert_int_equal(n, 5); /* COMM, three samples, FINISHED_ROUND */
		assert_times(times, nt, ordered ? sorted : file_times, 3);
		assert_null(peo_perfdata_stopped(f));
		peo_perfdata_close(f);
		close(fd);
	}
	/* not finished, the last sample cut 5 bytes short, then inside its header */
	for (int into = 35; into > 0; into -= 32) {
		build_file(&v, big, &l);
		vec_put_at(&v, 48, 0, 8);
		v.n = l.data + l.data_size - 40 + (size_t)into;
		for (int ordered = 0; ordered < 2; ordered++) {
			assert_int_equal(open_damaged(&v, &f, 1, ordered, &fd), 0);
			assert_int_equal(read_all(f, &n, times, &nt), 0);
			assert_int_equal(n, 4);
			assert_times(times, nt, ordered ? sorted : file_times, 2);
			snprintf(want, sizeof(want), "the data ends inside %s at offset %zu: %d of its "
				 "%d bytes are there", into > 8 ? "a record" : "a record header",
				 l.data + l.data_size - 40, into, into > 8 ? 40 : 8);
			assert_non_null(peo_perfdata_stopped(f));
			assert_string_equal(peo_perfdata_stopped(f), want);
			peo_perfdata_close(f);
			close(fd);
		}
	}
	/* cut short inside the records: the header's data size is whole */
	build_file(&v, big, &l);
	v.n = l.data + l.data_size - 5;
	assert_int_equal(open_damaged(&v, &f, 0, 0, &fd), -ENODATA);
	snprintf(want, sizeof(want), "the file is cut short: the header says %zu bytes of records "
		 "at offset %zu, but the file ends %zu bytes into them", l.data_size, l.data,
		 l.data_size - 5);
	assert_error_contains(want);
	close(fd);
	assert_int_equal(open_damaged(&v, &f, 1, 1, &fd), 0);
	assert_non_null(strstr(peo_perfdata_damaged(f), want));
	assert_int_equal(read_all(f, &n, times, &nt), 0);
	assert_int_equal(n, 4);
	assert_times(times, nt, sorted, 2);
	assert_non_null(peo_perfdata_stopped(f));
	peo_perfdata_close(f);
	close(fd);
	/* cut short inside the features: the records whole, the sections before the cut kept */
	build_file(&v, big, &l);
	v.n -= 10;
	assert_int_equal(open_damaged(&v, &f, 0, 0, &fd), -ENODATA);
	assert_error_contains("inside its feature sections");
	close(fd);
	assert_int_equal(open_damaged(&v, &f, 1, 0, &fd), 0);
	assert_non_null(strstr(peo_perfdata_damaged(f), "21 of the 22 sections are whole"));
	assert_int_equal(peo_perfdata_feature_string(f, PEO_FEAT_HOSTNAME, &s), 0);
	assert_string_equal(s, "buildhost");
	assert_int_equal(peo_perfdata_feature_string(f, PEO_FEAT_PMU_CAPS, &s), -ENOENT);
	assert_int_equal(read_all(f, &n, times, &nt), 0);
	assert_int_equal(n, 5);
	assert_null(peo_perfdata_stopped(f));
	peo_perfdata_close(f);
	close(fd);
	/* a finished file with no records (its feature index right at the data
	 * offset) is not taken for an unfinished one */
	build_file(&v, big, &l);
	vec_put_at(&v, 40, l.index, 8);
	vec_put_at(&v, 48, 0, 8);
	assert_int_equal(open_damaged(&v, &f, 0, 0, &fd), 0);
	assert_null(peo_perfdata_damaged(f));
	assert_int_equal(read_all(f, &n, times, &nt), 0);
	assert_int_equal(n, 0);
	peo_perfdata_close(f);
	close(fd);
	/* whole, but its last record runs past the data section: in time order
	 * the records before it go out first, then the error */
	build_file(&v, big, &l);
	vec_put_at(&v, l.data + l.data_size - 40 + 6, 48, 2);
	assert_int_equal(open_damaged(&v, &f, 0, 1, &fd), 0);
	assert_int_equal(read_all(f, &n, times, &nt), -EPROTO);
	assert_int_equal(n, 4);
	assert_times(times, nt, sorted, 2);
	snprintf(want, sizeof(want), "offset %zu needs 48 bytes, but the data section ends 40",
		 l.data + l.data_size - 40);
	assert_error_contains(want);
	peo_perfdata_close(f);
	close(fd);
}

static void damaged_files_read_with_force(void **state)
{
	(void)state;
	in_each_layout(damaged_files_read_with_force_in);
}

/* A pipe-mode stream (as perf record -o - writes it) of @n samples, rounds
 * after every fourth, whose times go back a little within a round. */
static void pipe_stream(struct vec *v, int n)
{
	struct peo_perfdata_writer *w;
	struct synth_sample smp;
	struct peo_attr a;
	uint64_t id = 7;
	int p[2];
	ssize_t r;

	synth_sample_attr(&a, 1);
	assert_int_equal(pipe(p), 0);
	assert_int_equal(peo_perfdata_writer_open_fd(&w, p[1]), 0);
	assert_int_equal(peo_perfdata_writer_add_event(w, &a, &id, 1, "cpu-clock"), 0);
	for (int i = 0; i < n; i++) {
		smp = synth_sample(0x400000 + (uint64_t)i, 10, 10, 1000 + 10 * (uint64_t)i -
				   (i % 2 ? 15 : 0));
		assert_int_equal(peo_perfdata_writer_record(w, &smp, sizeof(smp)), 0);
		if (i % 4 == 3)
			assert_int_equal(peo_perfdata_writer_finished_round(w), 0);
	}
	assert_int_equal(peo_perfdata_writer_close(w), 0);
	close(p[1]);
	memset(v, 0, sizeof(*v));
	while ((r = read(p[0], v->b + v->n, sizeof(v->b) - v->n)) > 0)
		v->n += (size_t)r;
	close(p[0]);
	assert_true(v->n < sizeof(v->b));
}

/* @len bytes of @v through a pipe: the reading end. */
static int pipe_of(const struct vec *v, size_t len)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], v->b, len), (ssize_t)len);
	close(p[1]);
	return p[0];
}

/*
 * A pipe stream cut inside a record: every whole record before the cut
 * comes out (in time order too: the held ones go out, sorted, before the
 * error), then -EPROTO naming the cut record's offset; opts.force ends
 * the records there instead.  A file-mode perf.data through a pipe is
 * refused as such (-ESPIPE), not as a bad header.
 */
static void pipe_cut_mid_record(void **state)
{
	struct vec v, file;
	struct layout l;
	struct peo_perfdata *f;
	uint64_t cut_at = 0, at = 16;
	int whole = 0, fd, n, nt;
	char want[160];

	(void)state;
	pipe_stream(&v, 24);
	/* the 20th sample (of 40 bytes) is cut 9 bytes in: whole records before it */
	for (int samples = 0; at < v.n; at += (uint16_t)(v.b[at + 6] | v.b[at + 7] << 8)) {
		if (v.b[at] == PEO_RECORD_SAMPLE && ++samples == 20) {
			cut_at = at;
			break;
		}
		whole++;
	}
	assert_true(cut_at > 0);
	for (int ordered = 0; ordered < 2; ordered++)
		for (int force = 0; force < 2; force++) {
			PEO_OPTS(peo_perfdata_opts, o, .ordered = ordered, .force = force);
			uint64_t last = 0;
			int sorted = 1;

			fd = pipe_of(&v, (size_t)cut_at + 9);
			assert_int_equal(peo_perfdata_open_fd(&f, fd, &o), 0);
			snprintf(want, sizeof(want), "the stream ends inside a record at offset %" PRIu64
				 ": 9 of its 40 bytes are there", cut_at);
			{
				struct peo_perfdata_record rec = { .sz = sizeof(rec) };
				int got;

				n = nt = 0;
				while ((got = peo_perfdata_next(f, &rec)) == 1) {
					n++;
					if (rec.rec.header.type != PEO_RECORD_SAMPLE)
						continue;
					nt++;
					sorted &= rec.rec.u.sample.time >= last;
					last = rec.rec.u.sample.time;
				}
				assert_int_equal(got, force ? 0 : -EPROTO);
			}
			if (force)
				assert_string_equal(peo_perfdata_stopped(f), want);
			else
				assert_error_contains(want);
			assert_int_equal(n, whole); /* the attr, its name, 19 samples, the rounds */
			assert_int_equal(nt, 19);
			if (ordered)
				assert_true(sorted);
			peo_perfdata_close(f);
			close(fd);
		}
	/* a file-mode perf.data through a pipe */
	build_file(&file, 0, &l);
	fd = pipe_of(&file, file.n < 4096 ? file.n : 4096);
	assert_int_equal(peo_perfdata_open_fd(&f, fd, NULL), -ESPIPE);
	assert_error_contains("a file-mode perf.data");
	assert_error_contains("comes through a pipe");
	close(fd);
}

/* A user record's fields start after its header, which user_record() fills. */
static void user_begin(struct vec *v, int big)
{
	memset(v, 0, sizeof(*v));
	v->big = big;
	v->n = 8;
}

/* A user record in @v's order, its header patched; @r describes it in host order. */
static void user_record(struct vec *v, uint32_t type, uint16_t misc, struct peo_record *r)
{
	vec_put_at(v, 0, type, 4);
	vec_put_at(v, 4, misc, 2);
	vec_put_at(v, 6, v->n, 2);
	memset(r, 0, sizeof(*r));
	r->bytes = v->b;
	r->header.type = type;
	r->header.misc = misc;
	r->header.size = (uint16_t)v->n;
}

/* What peo script --json puts for user record @r of @f after its "type"
 * (tools/script/json_user.c); nothing, and -1, for a malformed one. */
static void assert_json(const struct peo_perfdata *f, const struct peo_record *r, const char *want)
{
	struct out *o = json_out_new();

	assert_int_equal(json_user_record(o, f, r), *want ? 0 : -1);
	json_out_expect(o, want);
}

static void perfs_own_records_in_either_order_in(int big)
{
	struct peo_user_record u = { .sz = sizeof(u) };
	struct peo_perfdata *f;
	struct peo_record r = { .sz = sizeof(r) };
	struct layout l;
	struct vec file, v;
	int fd;

	build_file(&file, big, &l); /* for the reader's byte order */
	assert_int_equal(open_bytes(&file, &f, 0, &fd), 0);

	user_begin(&v, big);
	vec_put32(&v, 4242); /* pid */
	for (int k = 0; k < 20; k++)
		vec_put(&v, (uint64_t)(0x10 + k), 1);
	vec_put(&v, 20, 1); vec_put(&v, 0, 1); vec_put16(&v, 0);
	vec_bytes(&v, "/lib/libx.so\0\0\0\0", 16);
	user_record(&v, PEO_RECORD_HEADER_BUILD_ID, 1u << 15, &r);
	assert_int_equal(peo_perfdata_decode_user(f, &r, &u), 0);
	assert_int_equal(u.u.build_id.pid, 4242);
	assert_int_equal(u.u.build_id.size, 20);
	assert_int_equal(u.u.build_id.id[19], 0x10 + 19);
	assert_string_equal(u.u.build_id.filename, "/lib/libx.so");
	assert_json(f, &r, ",\"pid\":4242,\"build_id\":\"101112131415161718191a1b1c1d1e1f20212223\","
		    "\"filename\":\"/lib/libx.so\"");

	user_begin(&v, big);
	vec_put64(&v, 77);
	vec_bytes(&v, "cycles", 7);
	vec_zeros_to(&v, 8 + 8 + 64);
	user_record(&v, PEO_RECORD_HEADER_EVENT_TYPE, 0, &r);
	assert_int_equal(peo_perfdata_decode_user(f, &r, &u), 0);
	assert_int_equal(u.u.event_type.id, 77);
	assert_string_equal(u.u.event_type.name, "cycles");
	assert_json(f, &r, ",\"id\":77,\"name\":\"cycles\"");

	user_begin(&v, big); /* AUXTRACE_ERROR, format 1: with a time */
	vec_put32(&v, 1); vec_put32(&v, 2); vec_put32(&v, 3); vec_put32(&v, 4);
	vec_put32(&v, 5); vec_put32(&v, 1);
	vec_put64(&v, 0xffffffff81000000ull); vec_put64(&v, 123456789);
	vec_bytes(&v, "decoder lost sync", 18);
	vec_zeros_to(&v, 8 + 40 + 64);
	user_record(&v, PEO_RECORD_AUXTRACE_ERROR, 0, &r);
	assert_int_equal(peo_perfdata_decode_user(f, &r, &u), 0);
	assert_int_equal(u.u.auxtrace_error.code, 2);
	assert_int_equal(u.u.auxtrace_error.tid, 5);
	assert_int_equal(u.u.auxtrace_error.time, 123456789);
	assert_string_equal(u.u.auxtrace_error.msg, "decoder lost sync");
	assert_json(f, &r, ",\"auxtrace_error_type\":1,\"code\":2,\"cpu\":3,\"pid\":4,\"tid\":5,"
		    "\"fmt\":1,\"ip\":\"0xffffffff81000000\",\"time\":123456789,"
		    "\"msg\":\"decoder lost sync\"");

	for (int whole = 0; whole < 2; whole++) { /* format 2: machine_pid and vcpu, when there */
		user_begin(&v, big);
		vec_put32(&v, 1); vec_put32(&v, 2); vec_put32(&v, 3); vec_put32(&v, 4);
		vec_put32(&v, 5); vec_put32(&v, 2);
		vec_put64(&v, 0x1000); vec_put64(&v, 77);
		vec_bytes(&v, "m", 2);
		vec_zeros_to(&v, 8 + 40 + 64);
		if (whole) {
			vec_put32(&v, 6); vec_put32(&v, 7);
		}
		user_record(&v, PEO_RECORD_AUXTRACE_ERROR, 0, &r);
		assert_json(f, &r, whole ? ",\"auxtrace_error_type\":1,\"code\":2,\"cpu\":3,\"pid\":4,"
					  "\"tid\":5,\"fmt\":2,\"ip\":\"0x1000\",\"time\":77,\"msg\":\"m\","
					  "\"machine_pid\":6,\"vcpu\":7"
					: ",\"auxtrace_error_type\":1,\"code\":2,\"cpu\":3,\"pid\":4,"
					  "\"tid\":5,\"fmt\":2,\"ip\":\"0x1000\",\"time\":77,\"msg\":\"m\"");
	}

	for (int guest = 0; guest < 2; guest++) { /* ID_INDEX, with {machine_pid, vcpu} when there */
		static const char host_entries[] =
			",\"nr\":2,\"entries\":[{\"id\":11,\"idx\":0,\"cpu\":1,\"tid\":-1},"
			"{\"id\":12,\"idx\":1,\"cpu\":-1,\"tid\":5}]";
		static const char guest_entries[] =
			",\"nr\":2,\"entries\":[{\"id\":11,\"idx\":0,\"cpu\":1,\"tid\":-1,"
			"\"machine_pid\":700,\"vcpu\":0},{\"id\":12,\"idx\":1,\"cpu\":-1,\"tid\":5,"
			"\"machine_pid\":700,\"vcpu\":3}]";

		user_begin(&v, big);
		vec_put64(&v, 2);
		vec_put64(&v, 11); vec_put64(&v, 0); vec_put64(&v, 1); vec_put64(&v, UINT64_MAX);
		vec_put64(&v, 12); vec_put64(&v, 1); vec_put64(&v, UINT64_MAX); vec_put64(&v, 5);
		if (guest) {
			vec_put64(&v, 700); vec_put64(&v, 0);
			vec_put64(&v, 700); vec_put64(&v, 3);
		} else {
			vec_put64(&v, 700); /* part of a second entry: not room for them all */
		}
		user_record(&v, PEO_RECORD_ID_INDEX, 0, &r);
		assert_int_equal(peo_perfdata_decode_user(f, &r, &u), 0);
		assert_int_equal(u.u.id_index.nr, 2);
		assert_int_equal(peo_perfdata_user_u64(f, u.u.id_index.entries, 4), 12);
		if (guest)
			assert_int_equal(peo_perfdata_user_u64(f, u.u.id_index.entries_2, 3), 3);
		else
			assert_null(u.u.id_index.entries_2);
		assert_json(f, &r, guest ? guest_entries : host_entries);
	}

	user_begin(&v, big); /* CPU_MAP as a range with "any" */
	vec_put16(&v, 2); vec_put(&v, 1, 1); vec_put(&v, 0, 1); vec_put16(&v, 4); vec_put16(&v, 6);
	user_record(&v, PEO_RECORD_CPU_MAP, 0, &r);
	assert_int_equal(peo_perfdata_decode_user(f, &r, &u), 0);
	assert_int_equal(u.u.cpu_map.nr, 4);
	assert_int_equal(peo_perfdata_cpu_map_cpu(f, &u, 0), -1);
	assert_int_equal(peo_perfdata_cpu_map_cpu(f, &u, 3), 6);
	assert_json(f, &r, ",\"cpus\":[-1,4,5,6]");

	user_begin(&v, big); /* CPU_MAP as a mask of 64-bit words: CPUs 1, 65 */
	vec_put16(&v, 1); vec_put16(&v, 2); vec_put16(&v, 8); vec_put16(&v, 0);
	vec_put64(&v, 2); vec_put64(&v, 2);
	user_record(&v, PEO_RECORD_CPU_MAP, 0, &r);
	assert_int_equal(peo_perfdata_decode_user(f, &r, &u), 0);
	assert_int_equal(u.u.cpu_map.nr, 2);
	assert_int_equal(peo_perfdata_cpu_map_cpu(f, &u, 1), 65);
	assert_json(f, &r, ",\"cpus\":[1,65]");

	user_begin(&v, big); /* TIME_CONV, the old short form */
	vec_put64(&v, 10); vec_put64(&v, 1000); vec_put64(&v, 555);
	user_record(&v, PEO_RECORD_TIME_CONV, 0, &r);
	assert_int_equal(peo_perfdata_decode_user(f, &r, &u), 0);
	assert_int_equal(u.u.time_conv.time_zero, 555);
	assert_false(u.u.time_conv.has_cycles);
	assert_json(f, &r, ",\"time_shift\":10,\"time_mult\":1000,\"time_zero\":555");

	{ /* HEADER_ATTR: the attr in the file's order, its size its own, then ids */
		struct peo_attr a;
		char *got;
		struct out *o;
		static const char head[] = ",\"attr\":{\"type\":1,\"size\":144,\"config\":\"0x2a\","
					   "\"sample_freq\":4000,\"sample_type\":\"0x107\","
					   "\"read_format\":\"0x0\",\"disabled\":1,\"inherit\":0,";
		static const char tail[] = "\"config3\":\"0x0\",\"config4\":\"0x0\"},\"ids\":[7,8]";

		peo_attr_init(&a);
		a.type = PEO_TYPE_SOFTWARE;
		a.size = (uint32_t)sizeof(a); /* vec_attr() writes it whole */
		a.config = 42;
		a.freq = 1;
		a.sample_freq = 4000;
		a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_PERIOD;
		a.disabled = 1;
		a.sample_max_stack = 127;
		a.aux_pause = 1; /* a bitfield of its own word, laid out from the writer's end */
		user_begin(&v, big);
		vec_attr(&v, &a);
		vec_put64(&v, 7); vec_put64(&v, 8);
		user_record(&v, PEO_RECORD_HEADER_ATTR, 0, &r);
		assert_int_equal(peo_perfdata_decode_user(f, &r, &u), 0);
		assert_int_equal(u.u.header_attr.attr.config, 42);
		assert_int_equal(u.u.header_attr.attr.sample_freq, 4000);
		assert_true(u.u.header_attr.attr.freq && u.u.header_attr.attr.disabled);
		assert_true(u.u.header_attr.attr.aux_pause && !u.u.header_attr.attr.aux_start_paused);
		assert_int_equal(u.u.header_attr.attr.sample_max_stack, 127);
		assert_int_equal(u.u.header_attr.nids, 2);
		assert_int_equal(peo_perfdata_user_u64(f, u.u.header_attr.ids, 1), 8);
		o = json_out_new();
		assert_int_equal(json_user_record(o, f, &r), 0);
		got = json_out_text(o);
		assert_memory_equal(got, head, sizeof(head) - 1);
		/* the fields past offset 104, bitfields of the writer's order among them */
		assert_non_null(strstr(got, ",\"sample_max_stack\":127,"));
		assert_non_null(strstr(got, ",\"aux_start_paused\":0,\"aux_pause\":1,\"aux_resume\":0,"));
		assert_string_equal(got + strlen(got) - (sizeof(tail) - 1), tail);
		free(got);
		/* an attr.size past the record */
		vec_put_at(&v, 8 + 4, 4096, 4);
		assert_int_equal(peo_perfdata_decode_user(f, &r, &u), -EPROTO);
		assert_error_contains("HEADER_ATTR record: attr.size 4096 at byte 12");
	}

	user_begin(&v, big); /* EVENT_UPDATE of kind 3 (cpus): its map's bytes, as they are */
	vec_put64(&v, 3); vec_put64(&v, 9); vec_put16(&v, 0); vec_put16(&v, 1); vec_put16(&v, 2);
	vec_put16(&v, 0);
	user_record(&v, PEO_RECORD_EVENT_UPDATE, 0, &r);
	assert_json(f, &r, big ? ",\"kind\":3,\"id\":9,\"data\":\"0000000100020000\""
			       : ",\"kind\":3,\"id\":9,\"data\":\"0000010002000000\"");

	user_begin(&v, big); /* HEADER_FEATURE: its bit and its section's bytes */
	vec_put64(&v, PEO_FEAT_HOSTNAME); vec_bytes(&v, "\x03\0\0\0ab\0\0", 8);
	user_record(&v, PEO_RECORD_HEADER_FEATURE, 0, &r);
	assert_json(f, &r, ",\"feature\":3,\"data\":\"0300000061620000\"");

	user_begin(&v, big); /* STAT_CONFIG: a repeated tag's last value, as perf applies them */
	vec_put64(&v, 4);
	vec_put64(&v, 1); vec_put64(&v, 1000); /* interval */
	vec_put64(&v, 0); vec_put64(&v, 2);    /* aggr_mode */
	vec_put64(&v, 9); vec_put64(&v, 5);    /* a tag newer than peo */
	vec_put64(&v, 1); vec_put64(&v, 250);  /* interval again */
	user_record(&v, PEO_RECORD_STAT_CONFIG, 0, &r);
	assert_int_equal(peo_perfdata_decode_user(f, &r, &u), 0);
	assert_int_equal(u.u.stat_config.nr, 4);
	assert_json(f, &r, ",\"aggr_mode\":2,\"tag_9\":5,\"interval\":250");

	user_begin(&v, big); /* HEADER_TRACING_DATA: the size of what follows */
	vec_put32(&v, 12345); vec_put32(&v, 0);
	user_record(&v, PEO_RECORD_HEADER_TRACING_DATA, 0, &r);
	assert_json(f, &r, ",\"size\":12345");

	user_begin(&v, big); /* THREAD_MAP whose nr lies */
	vec_put64(&v, 1000);
	vec_put64(&v, 1); vec_bytes(&v, "init\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	user_record(&v, PEO_RECORD_THREAD_MAP, 0, &r);
	assert_int_equal(peo_perfdata_decode_user(f, &r, &u), -EPROTO);
	assert_error_contains("THREAD_MAP record: nr 1000 at byte 8");
	assert_json(f, &r, ""); /* a malformed record: its type alone */

	user_record(&v, PEO_RECORD_FINISHED_ROUND, 0, &r);
	assert_int_equal(peo_perfdata_decode_user(f, &r, &u), -ENOENT);
	peo_perfdata_close(f);
	close(fd);
}

static void perfs_own_records_in_either_order(void **state)
{
	(void)state;
	in_each_layout(perfs_own_records_in_either_order_in);
}

/* The order the directory lists its data.N files in. */
static int listed(const char *dir, char names[][16], int max)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "data.", 5) && strlen(de->d_name) < sizeof(names[0]) && n < max)
			memcpy(names[n++], de->d_name, strlen(de->d_name) + 1);
	closedir(d);
	return n;
}

/* The tying sample's ip in data.N file @name. */
static uint64_t tie_ip(const char *name)
{
	return TIE_DIR_IP + strtoull(name + 5, NULL, 10);
}

/*
 * Read @dir in @order and check its ties: their ips are @want, and @late
 * samples older than the ties come after the first of them.  Time order
 * has none: its samples' times never go back.
 */
/* The data files of the tie tests: enough that the merge's heap sifts. */
#define TIES 12

static void ties_come_as(const char *dir, int order, const uint64_t want[TIES], int late)
{
	PEO_OPTS(peo_perfdata_opts, o, .ordered = order);
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	struct peo_perfdata *f;
	uint64_t last = 0;
	int k = 0, after = 0;

	assert_int_equal(peo_perfdata_open(&f, dir, &o), 0);
	while (peo_perfdata_next(f, &rec) == 1) {
		if (rec.rec.header.type != PEO_RECORD_SAMPLE)
			continue;
		if (order == PEO_PERFDATA_TIME_ORDER)
			assert_true(rec.rec.u.sample.time >= last);
		last = rec.rec.u.sample.time;
		if (rec.rec.u.sample.time != TIE_DIR_NS) {
			after += k > 0;
			continue;
		}
		assert_true(k < TIES);
		assert_int_equal(rec.rec.u.sample.ip, want[k]);
		assert_non_null(peo_perfdata_source(f));
		assert_int_equal(tie_ip(peo_perfdata_source(f)), want[k]); /* its file */
		k++;
	}
	assert_int_equal(k, TIES);
	assert_int_equal(after, late);
	assert_null(peo_perfdata_source(f)); /* after the last */
	peo_perfdata_close(f);
}

/*
 * A directory of TIES data files whose samples tie; then the first listed
 * is rewritten with @o->fill before its tie.  The ties come in the
 * listing's order, then (with @turned) with the first listed last, in time
 * order and in file order (perf's reading order); in file order, @late
 * older samples come after the first tie.  PEO_PERFDATA_ORDER_AS_PERF is
 * time order only with sample_id_all.  Returns 0, or -1 when zstd is missing.
 */
static int ties_in_reading_order(const struct tie_dir_opts *o, int turned, int late)
{
	struct tie_dir_opts first = *o;
	char dir[] = "/tmp/peo-dir-XXXXXX", names[TIES][16], why[4400], created[TIES][16];
	const char *made[TIES];
	uint64_t want[TIES];

	for (int i = 0; i < TIES; i++) { /* not by number */
		snprintf(created[i], sizeof(created[i]), "data.%d", (i * 5 + 2) % TIES);
		made[i] = created[i];
	}
	assert_non_null(mkdtemp(dir));
	first.fill = TIE_FILL_NONE;
	if (tie_dir_write(dir, &first, made, TIES, why, sizeof(why))) {
		assert_int_equal(peo_test_remove_tree(dir), 0);
		if (!strncmp(why, "no zstd", 7))
			return -1;
		fail_msg("%s", why);
	}
	assert_int_equal(listed(dir, names, TIES), TIES);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < TIES; i++)
			want[i] = tie_ip(names[round && turned ? (i + 1) % TIES : i]);
		if (round == 1 &&
		    tie_dir_write(dir, o, (const char *const[]){ names[0] }, 1, why, sizeof(why)))
			fail_msg("%s", why);
		ties_come_as(dir, PEO_PERFDATA_TIME_ORDER, want, 0);
		ties_come_as(dir, PEO_PERFDATA_FILE_ORDER, want, round ? late : 0);
		ties_come_as(dir, PEO_PERFDATA_ORDER_AS_PERF, want,
			     round && !o->sample_id_all ? late : 0);
	}
	assert_int_equal(peo_test_remove_tree(dir), 0);
	return 0;
}

/*
 * perf record --threads' directory: perf reads the data files as the
 * directory lists them (not by number), 2 MiB of each in turn; equal times
 * keep that order.  Once the first listed file starts with 2 MiB of
 * earlier samples, its tie (and one sample older than the ties) is read in
 * perf's second turn, after the other two.
 */
static void directory_ties_go_in_perfs_reading_order(void **state)
{
	(void)state;
	for (int sid = 0; sid < 2; sid++) {
		struct tie_dir_opts o = { .fill = TIE_FILL_TURN, .sample_id_all = sid };

		assert_int_equal(ties_in_reading_order(&o, 1, 1), 0);
	}
}

/*
 * A record that does not parse in a data file: the error names the file
 * and the offset in it, from the library (which names no file for a
 * single one) and from peo script, whose workers parse.
 */
static void directory_errors_name_the_data_file(void **state)
{
	/* a name longer than any buffer of a few dozen bytes: said whole */
	static const char *const names[] = { "data.0", "data.0000000000000000000000000000000001" };
	static const struct tie_dir_opts o = { .fill = TIE_FILL_NONE };
	const char *tool = getenv("PEO_TOOL");
	char dir[] = "/tmp/peo-dir-XXXXXX", path[128], cmd[256], out[512];
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	struct peo_perfdata *f;
	FILE *fp;
	int got;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(tie_dir_write(dir, &o, names, 2, out, sizeof(out)), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, names[1]);
	assert_non_null(fp = fopen(path, "a")); /* a sample of 16 bytes: no room for its ip */
	assert_int_equal(fwrite("\x09\0\0\0\x02\0\x10\0\0\0\0\0\0\0\0\0", 16, 1, fp), 1);
	assert_int_equal(fclose(fp), 0);
	for (int order = 0; order < 2; order++) {
		PEO_OPTS(peo_perfdata_opts, po, .ordered = order);

		assert_int_equal(peo_perfdata_open(&f, dir, &po), 0);
		while ((got = peo_perfdata_next(f, &rec)) == 1)
			;
		assert_int_equal(got, -EPROTO);
		assert_error_contains("data.0000000000000000000000000000000001: perf.data: record at "
				      "offset 40: SAMPLE record");
		peo_perfdata_close(f);
	}
	if (tool) { /* by its path, DIR/data.N, not the directory's header file */
		char want[160];

		snprintf(cmd, sizeof(cmd), "%s script -i %s -F ip,time", tool, dir);
		assert_int_equal(peo_test_run_capture(cmd, out, sizeof(out)), 1);
		snprintf(want, sizeof(want), "peo script: %s/data.0000000000000000000000000000000001: "
			 "perf.data: record at offset 40: SAMPLE record", dir);
		assert_non_null(strstr(out, want));
	}
	/* Its first record's header broken (a size under 8): in time order too,
	 * the header file's records without time come out before the broken
	 * file is read, as perf sends them. */
	assert_non_null(fp = fopen(path, "w"));
	assert_int_equal(fwrite("\x09\0\0\0\x02\0\x04\0", 8, 1, fp), 1);
	assert_int_equal(fclose(fp), 0);
	{
		PEO_OPTS(peo_perfdata_opts, po, .ordered = PEO_PERFDATA_TIME_ORDER);
		int before = 0;

		assert_int_equal(peo_perfdata_open(&f, dir, &po), 0);
		while ((got = peo_perfdata_next(f, &rec)) == 1) {
			assert_string_equal(peo_perfdata_source(f), "data");
			before++;
		}
		assert_int_equal(got, -EPROTO);
		assert_true(before > 0);
		assert_error_contains("data.0000000000000000000000000000000001: perf.data: record at offset 0");
		peo_perfdata_close(f);
	}
	assert_int_equal(peo_test_remove_tree(dir), 0);
	if (!tool)
		PEO_SKIP("PEO_TOOL is not set (run through ctest): peo script's message not checked");
}

/*
 * perf record -z --threads: a turn is 2 MiB of the file's bytes, and the
 * records a COMPRESSED one holds are read in its turn.  So 2 MiB of
 * COMPRESSED records put the tie in the second turn, and 3 MiB of samples
 * that compress to far less do not.
 */
static void compressed_directory_turns_count_the_files_bytes(void **state)
{
	struct tie_dir_opts turn = { .fill = TIE_FILL_TURN, .compress = 1 };
	struct tie_dir_opts inflated = { .fill = TIE_FILL_INFLATED, .compress = 1 };

	(void)state;
	if (ties_in_reading_order(&turn, 1, 1))
		PEO_SKIP("peo's tests were built without zstd: no compressed directory to read");
	assert_int_equal(ties_in_reading_order(&inflated, 0, 0), 0);
}

/*
 * A data file out of time order (spans of two series in turn, a record
 * stamped before one written ahead of it): perf reads the directory whole,
 * then sorts, so its older records go first, plain or compressed.
 */
static void directory_files_out_of_time_order_are_sorted(void **state)
{
	(void)state;
	for (int z = 0; z < 2; z++)
		for (int sid = 0; sid < 2; sid++) {
			struct tie_dir_opts o = { .fill = TIE_FILL_UNSORTED, .compress = z,
						  .sample_id_all = sid };

			if (ties_in_reading_order(&o, 0, 1))
				PEO_SKIP("peo's tests were built without zstd: no compressed "
					 "directory to read");
		}
}

/* A sample as the directory test below expects it: its time, ip and reading place. */
struct expected_sample {
	uint64_t time, ip, place;
};

static int by_time_then_place(const void *a, const void *b)
{
	const struct expected_sample *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->place < y->place ? -1 : x->place > y->place;
}

/* 40-byte samples: perf's reading turn (2 MiB of a file) ends every 52,429. */
#define SAMPLES_A_TURN 52429u

/*
 * Made-up directories of up to four data files whose samples go back in
 * time now and then and tie across files: time order is perf's, a stable
 * sort of its reading order (each turn of 2 MiB from the files in the
 * directory's listing order) by time.  One directory in four has files
 * of more than one turn.  Every other one is read with room for 4 late
 * records a file, so that they merge into bounds of many.
 */
static void directory_time_order_is_perfs_stable_sort(void **state)
{
	uint64_t x = 0x2545f4914f6cdd1du;

	(void)state;
	for (int round = 0; round < 40; round++) {
		char dir[] = "/tmp/peo-dir-XXXXXX", names[4][16], made[4][16], why[4400];
		const char *name_of[4];
		uint64_t *times[4];
		size_t counts[4], n, total = 0, k = 0;
		struct expected_sample *want;
		/* compressed, a turn counts the file's bytes: the model below holds
		 * for plain files, so those of more than one turn are plain */
		struct tie_dir_opts o = { .sample_id_all = 1, .compress = round % 4 == 1 };
		PEO_OPTS(peo_perfdata_opts, po, .ordered = PEO_PERFDATA_TIME_ORDER);
		struct peo_perfdata_record rec = { .sz = sizeof(rec) };
		struct peo_perfdata *f;
		size_t late_most = peo_pd_late_most;

		n = 1 + synth_next(&x) % 4;
		for (size_t i = 0; i < n; i++) {
			counts[i] = round % 4 == 3 ? SAMPLES_A_TURN + synth_next(&x) % 20000
						   : synth_next(&x) % 300;
			assert_non_null(times[i] = calloc(counts[i] + 1, sizeof(**times)));
			for (size_t j = 0; j < counts[i]; j++) { /* now and then back, by up to 40 */
				uint64_t t = 100 + 3 * j;
				uint64_t back = synth_next(&x) % 5 ? 0 : synth_next(&x) % 41;

				times[i][j] = t - back;
			}
			snprintf(made[i], sizeof(made[i]), "data.%zu", i);
			name_of[i] = made[i];
			total += counts[i];
		}
		assert_non_null(mkdtemp(dir));
		if (tie_dir_write_times(dir, &o, name_of, n, (const uint64_t *const *)times, counts,
					why, sizeof(why))) {
			assert_true(!strncmp(why, "no zstd", 7));
			o.compress = 0;
			assert_int_equal(tie_dir_write_times(dir, &o, name_of, n,
							     (const uint64_t *const *)times,
							     counts, why, sizeof(why)), 0);
		}
		/* perf's reading order: turn by turn, each file in the listing's order */
		assert_int_equal(listed(dir, names, 4), (int)n);
		assert_non_null(want = calloc(total + 1, sizeof(*want)));
		for (uint64_t turn = 0; k < total; turn++)
			for (size_t l = 0; l < n; l++) {
				size_t i = strtoull(names[l] + 5, NULL, 10);

				for (size_t j = turn * SAMPLES_A_TURN;
				     j < counts[i] && j < (turn + 1) * SAMPLES_A_TURN; j++, k++)
					want[k] = (struct expected_sample){ times[i][j],
						TIE_DIR_TIMES_IP(i, j), k };
			}
		qsort(want, total, sizeof(*want), by_time_then_place);
		if (round % 2)
			peo_pd_late_most = 4;
		assert_int_equal(peo_perfdata_open(&f, dir, &po), 0);
		k = 0;
		while (peo_perfdata_next(f, &rec) == 1) {
			if (rec.rec.header.type != PEO_RECORD_SAMPLE)
				continue;
			assert_true(k < total);
			if (rec.rec.u.sample.ip != want[k].ip)
				fail_msg("directory %d (%zu files, %s): sample %zu is ip %#llx at %llu, "
					 "perf's is ip %#llx at %llu", round, n,
					 o.compress ? "compressed" : "plain", k,
					 (unsigned long long)rec.rec.u.sample.ip,
					 (unsigned long long)rec.rec.u.sample.time,
					 (unsigned long long)want[k].ip, (unsigned long long)want[k].time);
			k++;
		}
		assert_int_equal(k, total);
		peo_perfdata_close(f);
		peo_pd_late_most = late_most;
		free(want);
		for (size_t i = 0; i < n; i++)
			free(times[i]);
		assert_int_equal(peo_test_remove_tree(dir), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PERFDATA_TEST(a_file_of_either_order),
		PERFDATA_TEST(counts_by_type_and_event),
		PERFDATA_TEST(headers_only_records_parse_with_the_files_parser),
		PERFDATA_TEST(written_file_reads_back),
		PERFDATA_TEST(many_rings_merge_in_time_order),
		PERFDATA_TEST(written_attr_size_is_the_smallest_published),
		PERFDATA_TEST(written_attrs_of_two_sizes_read_back),
		PERFDATA_TEST(tracing_data_formats_and_strings),
		PERFDATA_TEST(written_compressed_reads_back),
		PERFDATA_TEST(build_ids_follow_fork_and_exit),
		PERFDATA_TEST(malformed_files_name_the_offset),
		PERFDATA_TEST(damaged_files_read_with_force),
		PERFDATA_TEST(pipe_cut_mid_record),
		PERFDATA_TEST(perfs_own_records_in_either_order),
		PERFDATA_TEST(directory_ties_go_in_perfs_reading_order),
		PERFDATA_TEST(directory_errors_name_the_data_file),
		PERFDATA_TEST(compressed_directory_turns_count_the_files_bytes),
		PERFDATA_TEST(directory_files_out_of_time_order_are_sorted),
		PERFDATA_TEST(directory_time_order_is_perfs_stable_sort),
	};

	return PEO_TEST_MAIN("perfdata", tests);
}
