/*
 * test_sized_structs.c - the structs a caller allocates and libpeo fills
 * (common.h): a program built against 0.1's header, whose structs end
 * where 0.1's did, gets the same fields and nothing written past its sz;
 * one built against a newer, bigger header gets the bytes this libpeo does
 * not know zeroed; a sz under 0.1's is refused, nothing written.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "test_util.h"

/* ------------------------------------------ the structs as 0.1 released them */

struct peo_record_0_1 {
	size_t sz;
	struct peo_event_header header;
	const void *bytes;
	const struct peo_attr *attr;
	int swapped;
	union {
		struct peo_sample sample;
		struct peo_rec_mmap mmap;
		struct peo_rec_lost lost;
		struct peo_rec_comm comm;
		struct peo_rec_task task;
		struct peo_rec_throttle throttle;
		struct peo_rec_read read;
		struct peo_rec_aux aux;
		struct peo_rec_itrace_start itrace_start;
		struct peo_rec_lost_samples lost_samples;
		struct peo_rec_switch sw;
		struct peo_rec_namespaces namespaces;
		struct peo_rec_ksymbol ksymbol;
		struct peo_rec_bpf_event bpf_event;
		struct peo_rec_cgroup cgroup;
		struct peo_rec_text_poke text_poke;
		struct peo_rec_aux_output_hw_id aux_output_hw_id;
		struct peo_rec_callchain_deferred callchain_deferred;
	} u;
	struct peo_sample_id sample_id;
	int unknown;
};

struct peo_perfdata_record_0_1 {
	size_t sz;
	uint64_t offset;
	const void *payload;
	uint64_t payload_size;
	struct peo_record_0_1 rec;
};

struct peo_ring_record_0_1 {
	size_t sz;
	struct peo_event_header header;
	const void *data;
	const void *seg[2];
	size_t seg_len[2];
	uint64_t pos;
	int copied;
};

struct peo_ring_stats_0_1 {
	size_t sz;
	uint64_t records, bytes, lost_records, lost, lost_samples, overruns;
};

struct peo_read_value_0_1 { size_t sz; uint64_t value, id, lost; };

struct peo_branch_0_1 {
	size_t sz;
	uint64_t from, to;
	unsigned mispred : 1, predicted : 1, in_tx : 1, abort : 1;
	unsigned cycles : 16;
	unsigned type : 4;
	unsigned spec : 2;
	unsigned new_type : 4;
	unsigned priv : 3;
};

struct peo_data_src_0_1 {
	size_t sz;
	unsigned op, lvl, snoop, lock, dtlb, lvl_num, remote, snoopx, blk, hops;
};

struct peo_callchain_iter_0_1 {
	size_t sz;
	const struct peo_record *r;
	const void *ips;
	uint64_t nr, i;
	int64_t context;
};

struct peo_perfdata_counts_0_1 {
	size_t sz;
	uint64_t total;
	uint64_t by_type[128];
	uint64_t *samples_by_event;
	size_t nevents;
	uint64_t samples_unknown_event;
	uint64_t lost_samples;
	uint64_t *lost_samples_by_event;
};

struct peo_compressed_0_1 { size_t sz; uint32_t version, type, level, ratio, mmap_len; };
struct peo_clock_data_0_1 {
	size_t sz;
	uint32_t version, clockid;
	uint64_t wall_clock_ns, clockid_time_ns;
};
struct peo_mem_topology_0_1 { size_t sz; uint64_t version, block_size, count; };

/* The header of today keeps each 0.1 field where 0.1 had it. */
#define SAME(type, field)                                                                   \
	_Static_assert(offsetof(struct type, field) == offsetof(struct type##_0_1, field) &&  \
		       sizeof(((struct type *)0)->field) ==                                   \
			       sizeof(((struct type##_0_1 *)0)->field),                       \
		       #type "." #field " moved since 0.1")
SAME(peo_record, sz); SAME(peo_record, header); SAME(peo_record, bytes);
SAME(peo_record, attr); SAME(peo_record, swapped); SAME(peo_record, u);
SAME(peo_record, sample_id); SAME(peo_record, unknown);
SAME(peo_perfdata_record, sz); SAME(peo_perfdata_record, offset);
SAME(peo_perfdata_record, payload); SAME(peo_perfdata_record, payload_size);
SAME(peo_perfdata_record, rec);
SAME(peo_ring_record, sz); SAME(peo_ring_record, header); SAME(peo_ring_record, data);
SAME(peo_ring_record, seg); SAME(peo_ring_record, seg_len); SAME(peo_ring_record, pos);
SAME(peo_ring_record, copied);
SAME(peo_ring_stats, records); SAME(peo_ring_stats, overruns);
SAME(peo_read_value, value); SAME(peo_read_value, id); SAME(peo_read_value, lost);
SAME(peo_branch, from); SAME(peo_branch, to);
SAME(peo_data_src, op); SAME(peo_data_src, hops);
SAME(peo_callchain_iter, r); SAME(peo_callchain_iter, context);
SAME(peo_perfdata_counts, total); SAME(peo_perfdata_counts, by_type);
SAME(peo_perfdata_counts, lost_samples_by_event);
SAME(peo_compressed, version); SAME(peo_compressed, mmap_len);
SAME(peo_clock_data, version); SAME(peo_clock_data, clockid_time_ns);
SAME(peo_mem_topology, version); SAME(peo_mem_topology, count);

/* ------------------------------------------------------------- the harness */

#define CANARY 0xa5
#define NEWER 40   /* bytes a newer header has past the fields we know */
#define GUARD 64   /* canary bytes checked after a caller's struct */
#define BUF 2048   /* room for the largest struct, NEWER and GUARD */

typedef int (*fill_fn)(void *out, void *ctx);

static void set_sz(unsigned char *b, size_t sz)
{
	memset(b, CANARY, BUF);
	memcpy(b, &sz, sizeof(sz));
}

static void assert_bytes(const unsigned char *b, size_t from, size_t to, int v)
{
	for (size_t i = from; i < to; i++)
		if (b[i] != v)
			fail_msg("byte %zu is 0x%02x, not 0x%02x", i, b[i], v);
}

/*
 * @fill into a caller's struct of @type three ways: built against 0.1
 * (sz @released), against a newer header (sz @known + NEWER) and with a sz
 * under 0.1's, each followed by a canary.  The fields must equal those
 * filled into a struct of today's size; @fill must give the same bytes
 * each time (pointers included).
 */
static void check_sized(fill_fn fill, void *ctx, size_t released, size_t known, const char *type)
{
	_Alignas(16) unsigned char ref[BUF], b[BUF];
	const size_t h = sizeof(size_t);
	int want;

	assert_true(known + NEWER + GUARD <= sizeof(ref) && released <= known);
	set_sz(ref, known);
	want = fill(ref, ctx);
	assert_true(want >= 0);
	/* built against 0.1 */
	set_sz(b, released);
	assert_int_equal(fill(b, ctx), want);
	assert_memory_equal(b + h, ref + h, released - h);
	assert_bytes(b, released, released + GUARD, CANARY);
	/* built against a newer header */
	set_sz(b, known + NEWER);
	assert_int_equal(fill(b, ctx), want);
	assert_memory_equal(b + h, ref + h, known - h);
	assert_bytes(b, known, known + NEWER, 0);
	assert_bytes(b, known + NEWER, known + NEWER + GUARD, CANARY);
	/* too small: refused, nothing written */
	for (size_t sz = 0; sz < released; sz += released - 1) {
		set_sz(b, sz);
		assert_int_equal(fill(b, ctx), -EINVAL);
		assert_error_contains(type);
		assert_error_contains("set it to sizeof");
		assert_bytes(b, h, released + GUARD, CANARY);
	}
}

/* ------------------------------------------------------------ a sample */

#define SAMPLE_TYPE (PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_READ | \
		     PEO_SAMPLE_CALLCHAIN | PEO_SAMPLE_BRANCH_STACK | PEO_SAMPLE_DATA_SRC)

struct sample_ctx {
	struct peo_record_parser *p;
	struct vec sample, comm;
	struct peo_record r; /* the sample, parsed */
};

static struct sample_ctx *sample_ctx(void)
{
	struct sample_ctx *c = calloc(1, sizeof(*c));
	struct peo_attr attr;

	assert_non_null(c);
	peo_test_base_attr(&attr, SAMPLE_TYPE);
	attr.read_format = PEO_FORMAT_ID | PEO_FORMAT_LOST;
	attr.branch_sample_type = PEO_SAMPLE_BRANCH_ANY;
	c->p = peo_test_parser_for(0, &attr);
	vec_record_begin(&c->sample, 0, PEO_RECORD_SAMPLE, PEO_RECORD_MISC_USER);
	vec_put64(&c->sample, 0x401000);                      /* ip */
	vec_put32(&c->sample, 41); vec_put32(&c->sample, 42); /* pid, tid */
	vec_put64(&c->sample, 123456789);                     /* time */
	vec_put64(&c->sample, 77); vec_put64(&c->sample, 5); vec_put64(&c->sample, 1); /* read */
	vec_put64(&c->sample, 3);                             /* callchain */
	vec_put64(&c->sample, PEO_CONTEXT_USER);
	vec_put64(&c->sample, 0x401000); vec_put64(&c->sample, 0x402000);
	vec_put64(&c->sample, 1);                             /* branch: from, to, flags */
	vec_put64(&c->sample, 0x1000); vec_put64(&c->sample, 0x2000);
	vec_put64(&c->sample, 1ULL << 0 | 300ULL << 4 | 1ULL << 20);
	vec_put64(&c->sample, 0x68100142);                    /* data_src */
	vec_record_end(&c->sample);
	vec_record_begin(&c->comm, 0, PEO_RECORD_COMM, 0);
	vec_put32(&c->comm, 41); vec_put32(&c->comm, 42);
	vec_bytes(&c->comm, "worker\0\0", 8);
	vec_put32(&c->comm, 41); vec_put32(&c->comm, 42);    /* sample_id: tid, time */
	vec_put64(&c->comm, 987654321);
	vec_record_end(&c->comm);
	c->r.sz = sizeof(c->r);
	assert_int_equal(peo_record_parse(c->p, c->sample.b, c->sample.n, &c->r), 0);
	return c;
}

static void sample_ctx_free(struct sample_ctx *c)
{
	peo_record_parser_free(c->p);
	free(c);
}

static int parse_sample(void *out, void *ctx)
{
	struct sample_ctx *c = ctx;

	return peo_record_parse(c->p, c->sample.b, c->sample.n, out);
}

static int parse_comm(void *out, void *ctx)
{
	struct sample_ctx *c = ctx;

	return peo_record_parse(c->p, c->comm.b, c->comm.n, out);
}

static int read_value(void *out, void *ctx)
{
	struct sample_ctx *c = ctx;

	return peo_read_value(&c->r, &c->r.u.sample.read, 0, out);
}

static int branch(void *out, void *ctx)
{
	struct sample_ctx *c = ctx;

	return peo_sample_branch(&c->r, 0, out);
}

static int data_src(void *out, void *ctx)
{
	struct sample_ctx *c = ctx;

	return peo_data_src_decode(c->r.u.sample.data_src, out);
}

static int callchain(void *out, void *ctx)
{
	struct sample_ctx *c = ctx;

	return peo_callchain_begin(out, &c->r);
}

static void a_record_parse_writes_only_the_callers_sz(void **state)
{
	struct sample_ctx *c = sample_ctx();
	_Alignas(16) unsigned char b[BUF];
	struct peo_record_0_1 *old = (struct peo_record_0_1 *)b;

	(void)state;
	check_sized(parse_sample, c, sizeof(struct peo_record_0_1), sizeof(struct peo_record),
		    "peo_record");
	check_sized(parse_comm, c, sizeof(struct peo_record_0_1), sizeof(struct peo_record),
		    "peo_record");
	/* and the fields of a 0.1 caller are the sample's */
	set_sz(b, sizeof(*old));
	assert_int_equal(parse_sample(b, c), 0);
	assert_int_equal(old->sz, sizeof(*old));
	assert_int_equal(old->header.type, PEO_RECORD_SAMPLE);
	assert_int_equal(old->u.sample.ip, 0x401000);
	assert_int_equal(old->u.sample.tid, 42);
	assert_int_equal(old->u.sample.read.nr, 1);
	assert_int_equal(old->u.sample.callchain_nr, 3);
	assert_int_equal(old->u.sample.branch_nr, 1);
	assert_int_equal(old->u.sample.data_src, 0x68100142);
	assert_int_equal(old->sample_id.time, 123456789);
	assert_int_equal(old->unknown, 0);
	assert_int_equal(parse_comm(b, c), 0);
	assert_string_equal(old->u.comm.comm, "worker");
	assert_int_equal(old->sample_id.time, 987654321);
	assert_bytes(b, sizeof(*old), sizeof(*old) + GUARD, CANARY);
	sample_ctx_free(c);
}

static void the_accessors_write_only_the_callers_sz(void **state)
{
	struct sample_ctx *c = sample_ctx();
	struct peo_callchain_iter_0_1 it = { .sz = sizeof(it) };
	struct peo_branch_0_1 br = { .sz = sizeof(br) };
	struct peo_read_value_0_1 rv = { .sz = sizeof(rv) };
	uint64_t ip;
	int64_t ctx;

	(void)state;
	check_sized(read_value, c, sizeof(struct peo_read_value_0_1),
		    sizeof(struct peo_read_value), "peo_read_value");
	check_sized(branch, c, sizeof(struct peo_branch_0_1), sizeof(struct peo_branch),
		    "peo_branch");
	check_sized(data_src, c, sizeof(struct peo_data_src_0_1), sizeof(struct peo_data_src),
		    "peo_data_src");
	check_sized(callchain, c, sizeof(struct peo_callchain_iter_0_1),
		    sizeof(struct peo_callchain_iter), "peo_callchain_iter");
	/* a 0.1 caller's values, and a walk with its iterator */
	assert_int_equal(peo_read_value(&c->r, &c->r.u.sample.read, 0, (void *)&rv), 0);
	assert_int_equal(rv.value, 77);
	assert_int_equal(rv.id, 5);
	assert_int_equal(rv.lost, 1);
	assert_int_equal(peo_sample_branch(&c->r, 0, (void *)&br), 0);
	assert_int_equal(br.from, 0x1000);
	assert_int_equal(br.cycles, 300);
	assert_int_equal(br.mispred, 1);
	assert_int_equal(peo_callchain_begin((void *)&it, &c->r), 0);
	assert_int_equal(peo_callchain_next((void *)&it, &ip, &ctx), 1);
	assert_int_equal(ip, 0x401000);
	assert_int_equal(ctx, PEO_CONTEXT_USER);
	assert_int_equal(peo_callchain_next((void *)&it, &ip, &ctx), 1);
	assert_int_equal(ip, 0x402000);
	assert_int_equal(peo_callchain_next((void *)&it, &ip, &ctx), 0);
	sample_ctx_free(c);
}

/* ------------------------------------------------------------------ a ring */

struct ring_ctx {
	unsigned char *mem;
	size_t size;
};

/* A ring over @ctx's memory (a control page and a page of data). */
static struct peo_ring *ring_of(struct ring_ctx *rc)
{
	struct peo_ring *r;

	assert_int_equal(peo_ring_over_memory(&r, rc->mem, rc->size, 0), 0);
	return r;
}

static int ring_next(void *out, void *ctx)
{
	struct peo_ring *r = ring_of(ctx);
	int got = peo_ring_next(r, out, NULL, 0);

	peo_ring_unmap(r);
	return got;
}

static int ring_stats(void *out, void *ctx)
{
	struct peo_ring *r = ring_of(ctx);
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	int got = peo_ring_next(r, &rec, NULL, 0);

	assert_int_equal(got, 1);
	got = peo_ring_stats(r, out);
	peo_ring_unmap(r);
	return got;
}

static void a_ring_writes_only_the_callers_sz(void **state)
{
	struct sample_ctx *c = sample_ctx();
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct ring_ctx rc = { calloc(1, 2 * page), page };
	struct peo_mmap_page *ctl = (struct peo_mmap_page *)rc.mem;
	struct peo_ring_record_0_1 old = { .sz = sizeof(old) };
	struct peo_ring *r;

	(void)state;
	assert_non_null(rc.mem);
	memcpy(rc.mem + page, c->sample.b, c->sample.n);
	ctl->data_head = c->sample.n;
	check_sized(ring_next, &rc, sizeof(struct peo_ring_record_0_1),
		    sizeof(struct peo_ring_record), "peo_ring_record");
	check_sized(ring_stats, &rc, sizeof(struct peo_ring_stats_0_1),
		    sizeof(struct peo_ring_stats), "peo_ring_stats");
	r = ring_of(&rc);
	assert_int_equal(peo_ring_next(r, (void *)&old, NULL, 0), 1);
	assert_int_equal(old.header.size, c->sample.n);
	assert_ptr_equal(old.data, rc.mem + page);
	peo_ring_unmap(r);
	free(rc.mem);
	sample_ctx_free(c);
}

/* ------------------------------------------------------------- perf.data */

/* A perf.data of a few synthetic samples with CLOCK_DATA, COMPRESSED and
 * MEM_TOPOLOGY sections. */
static void write_file(const char *path)
{
	struct peo_perfdata_writer *w;
	struct peo_attr a;
	uint64_t id = 1;
	uint32_t z[5] = { 0, 1, 3, 4, 65536 };
	uint64_t mem[3] = { 1, 128 << 20, 0 };

	peo_test_sw_attr(&a, PEO_COUNT_SW_CPU_CLOCK);
	a.sample_period = 1000;
	a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_PERIOD;
	assert_int_equal(peo_perfdata_writer_open(&w, path), 0);
	assert_int_equal(peo_perfdata_writer_add_event(w, &a, &id, 1, "cpu-clock"), 0);
	assert_int_equal(peo_perfdata_writer_clock(w, CLOCK_MONOTONIC), 0);
	assert_int_equal(peo_perfdata_writer_feature(w, PEO_FEAT_COMPRESSED, z, sizeof(z)), 0);
	assert_int_equal(peo_perfdata_writer_feature(w, PEO_FEAT_MEM_TOPOLOGY, mem, sizeof(mem)), 0);
	for (int i = 0; i < 3; i++) {
		struct {
			struct peo_event_header h;
			uint64_t ip;
			uint32_t pid, tid;
			uint64_t time, period;
		} s = { { PEO_RECORD_SAMPLE, PEO_RECORD_MISC_USER, sizeof(s) },
			0x400000 + (uint64_t)i, 7, 7, 1000 + (uint64_t)i, 1000 };

		assert_int_equal(peo_perfdata_writer_record(w, &s, sizeof(s)), 0);
	}
	assert_int_equal(peo_perfdata_writer_close(w), 0);
}

struct file_ctx {
	char path[64];
	struct peo_perfdata *f;
	struct peo_record thread_map;
	uint64_t thread_map_bytes[5];
};

static int read_compressed(void *out, void *ctx)
{
	return peo_perfdata_compressed(((struct file_ctx *)ctx)->f, out);
}

static int read_clock(void *out, void *ctx)
{
	return peo_perfdata_clock_data(((struct file_ctx *)ctx)->f, out);
}

static int read_mem(void *out, void *ctx)
{
	return peo_perfdata_mem_topology(((struct file_ctx *)ctx)->f, out);
}

static int decode_user(void *out, void *ctx)
{
	struct file_ctx *fc = ctx;

	return peo_perfdata_decode_user(fc->f, &fc->thread_map, out);
}

/* Counts of the whole file, their arrays freed (their addresses differ). */
static int count(void *out, void *ctx)
{
	struct peo_perfdata *f;
	int err;

	assert_int_equal(peo_perfdata_open(&f, ((struct file_ctx *)ctx)->path, NULL), 0);
	err = peo_perfdata_count(f, out);
	if (!err)
		peo_perfdata_counts_free(out);
	peo_perfdata_close(f);
	return err;
}

static void perfdata_writes_only_the_callers_sz(void **state)
{
	struct file_ctx fc = { .thread_map = { .sz = sizeof(fc.thread_map) } };
	struct peo_perfdata_counts_0_1 counts = { .sz = sizeof(counts) };
	int fd;

	(void)state;
	snprintf(fc.path, sizeof(fc.path), "/tmp/peo-sized-XXXXXX");
	assert_true((fd = mkstemp(fc.path)) >= 0);
	close(fd);
	write_file(fc.path);
	assert_int_equal(peo_perfdata_open(&fc.f, fc.path, NULL), 0);
	check_sized(read_compressed, &fc, sizeof(struct peo_compressed_0_1),
		    sizeof(struct peo_compressed), "peo_compressed");
	check_sized(read_clock, &fc, sizeof(struct peo_clock_data_0_1),
		    sizeof(struct peo_clock_data), "peo_clock_data");
	check_sized(read_mem, &fc, sizeof(struct peo_mem_topology_0_1),
		    sizeof(struct peo_mem_topology), "peo_mem_topology");
	/* THREAD_MAP: one thread, pid 7, comm "w" */
	fc.thread_map_bytes[0] = (uint64_t)PEO_RECORD_THREAD_MAP | (uint64_t)40 << 48;
	fc.thread_map_bytes[1] = 1;
	fc.thread_map_bytes[2] = 7;
	fc.thread_map_bytes[3] = 'w';
	fc.thread_map.header = (struct peo_event_header){ PEO_RECORD_THREAD_MAP, 0, 40 };
	fc.thread_map.bytes = fc.thread_map_bytes;
	check_sized(decode_user, &fc, sizeof(struct peo_user_record), sizeof(struct peo_user_record),
		    "peo_user_record");
	check_sized(count, &fc, sizeof(struct peo_perfdata_counts_0_1),
		    sizeof(struct peo_perfdata_counts), "peo_perfdata_counts");
	assert_int_equal(count(&counts, &fc), 0);
	assert_int_equal(counts.by_type[PEO_RECORD_SAMPLE], 3);
	peo_perfdata_close(fc.f);
	unlink(fc.path);
}

/*
 * Three readers of one file in step: a caller of today's size, one built
 * against 0.1 and one against a newer header.  Each record is the same for
 * all three; nothing past the old caller's sz is written, the newer one's
 * tail is zero, and rec.sz says what each caller's sz leaves for it.
 */
static void perfdata_records_fill_only_the_callers_sz(void **state)
{
	const size_t rel = sizeof(struct peo_perfdata_record_0_1);
	const size_t known = sizeof(struct peo_perfdata_record);
	const size_t at_rec = offsetof(struct peo_perfdata_record, rec);
	struct peo_perfdata *f[3];
	_Alignas(16) unsigned char b[3][BUF];
	struct peo_perfdata_record *rec[3];
	size_t sz[3] = { known, rel, known + NEWER };
	char path[64];
	int fd, got, n = 0;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/peo-sized-XXXXXX");
	assert_true((fd = mkstemp(path)) >= 0);
	close(fd);
	write_file(path);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(peo_perfdata_open(&f[i], path, NULL), 0);
		set_sz(b[i], sz[i]);
		rec[i] = (struct peo_perfdata_record *)b[i];
	}
	while ((got = peo_perfdata_next(f[0], rec[0])) == 1) {
		for (int i = 1; i < 3; i++) {
			assert_int_equal(peo_perfdata_next(f[i], rec[i]), 1);
			assert_int_equal(rec[i]->sz, sz[i]);
			assert_int_equal(rec[i]->rec.sz, sz[i] - at_rec);
			assert_int_equal(rec[i]->offset, rec[0]->offset);
			assert_int_equal(rec[i]->payload_size, rec[0]->payload_size);
			assert_memory_equal(&rec[i]->rec.header, &rec[0]->rec.header,
					    sizeof(rec[0]->rec.header));
			assert_memory_equal(rec[i]->rec.bytes, rec[0]->rec.bytes,
					    rec[0]->rec.header.size);
			if (rec[0]->rec.header.type == PEO_RECORD_SAMPLE) {
				assert_int_equal(rec[i]->rec.u.sample.ip, rec[0]->rec.u.sample.ip);
				assert_int_equal(rec[i]->rec.u.sample.time, rec[0]->rec.u.sample.time);
				n++;
			}
		}
		assert_bytes(b[1], rel, rel + GUARD, CANARY);
		assert_bytes(b[2], known, known + NEWER, 0);
		assert_bytes(b[2], known + NEWER, known + NEWER + GUARD, CANARY);
	}
	assert_int_equal(got, 0);
	assert_int_equal(n, 2 * 3);
	for (int i = 1; i < 3; i++)
		assert_int_equal(peo_perfdata_next(f[i], rec[i]), 0);
	/* a sz under 0.1's: refused, no record taken */
	set_sz(b[1], rel - 1);
	assert_int_equal(peo_perfdata_next(f[1], rec[1]), -EINVAL);
	assert_error_contains("struct peo_perfdata_record: sz is");
	assert_bytes(b[1], sizeof(size_t), rel + GUARD, CANARY);
	for (int i = 0; i < 3; i++)
		peo_perfdata_close(f[i]);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_record_parse_writes_only_the_callers_sz),
		cmocka_unit_test(the_accessors_write_only_the_callers_sz),
		cmocka_unit_test(a_ring_writes_only_the_callers_sz),
		cmocka_unit_test(perfdata_writes_only_the_callers_sz),
		cmocka_unit_test(perfdata_records_fill_only_the_callers_sz),
	};

	return PEO_TEST_MAIN("sized_structs", tests);
}
