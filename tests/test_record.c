/*
 * test_record.c - the record parser on records the kernel wrote here
 * (checked against facts the test knows) and on byte vectors built from
 * the ABI in both byte orders (checked against the values written).
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/magic.h>

#include "counter_internal.h" /* peo_cgroup_root */
#include "record_internal.h"  /* peo_record_peek */
#include "test_util.h"

#include "json_out.h"
#include "script/json.h" /* peo script --json of the records built here */
#include "tracepoint/format.h" /* the kernel strings list */

/* ------------------------------------------------------- byte vectors */

/* perf's register numbers for the ip and the stack pointer (the sample
 * holds them in mask order: SP first, then IP, on both). */
#if defined(__x86_64__)
#define REG_SP 7
#define REG_IP 8
#elif defined(__aarch64__)
#define REG_SP 31
#define REG_IP 32 /* PC */
#else
#error "test_record.c: add this architecture's perf register numbers"
#endif

/* Parse the record in @v into @r, its error printed when it does not parse. */
static void parse_ok(struct peo_record_parser *p, struct vec *v, struct peo_record *r)
{
	int err = peo_record_parse(p, v->b, v->n, r);

	if (err)
		print_error("%s\n", peo_last_error());
	assert_int_equal(err, 0);
}

/* What peo script --json puts for @r after its "type" and a sample's
 * common fields: a kernel record's fields and trailer, or the rest of a
 * sample's (tools/script/json_kernel.c). */
static void assert_json(const struct peo_record *r, const char *want)
{
	struct out *o = json_out_new();

	if (r->header.type == PEO_RECORD_SAMPLE)
		json_sample_more(o, r);
	else
		json_kernel_record(o, r);
	json_out_expect(o, want);
}

/* Branch stack with hw_idx and counters, WEIGHT_STRUCT, DATA_SRC, TRANSACTION, group READ. */
static void sample_fields_machines_here_cannot_make(void **state)
{
	(void)state;
	for (int big = 0; big < 2; big++) {
		struct peo_attr attr;
		struct peo_record_parser *p;
		struct peo_record r = { .sz = sizeof(r) };
		struct peo_branch br = { .sz = sizeof(br) };
		struct peo_read_value rv = { .sz = sizeof(rv) };
		struct peo_data_src ds = { .sz = sizeof(ds) };
		struct vec v;
		/* mispred, cycles 300, type COND(1), spec 3, new_type 2, priv USER(1) */
		uint64_t flags = 1ULL << 0 | 300ULL << 4 | 1ULL << 20 | 3ULL << 24 | 2ULL << 26 |
				 1ULL << 30;

		peo_test_base_attr(&attr, PEO_SAMPLE_IP | PEO_SAMPLE_READ | PEO_SAMPLE_BRANCH_STACK |
				 PEO_SAMPLE_WEIGHT_STRUCT | PEO_SAMPLE_DATA_SRC | PEO_SAMPLE_TRANSACTION);
		attr.read_format = PEO_FORMAT_GROUP | PEO_FORMAT_ID | PEO_FORMAT_LOST |
				   PEO_FORMAT_TOTAL_TIME_ENABLED;
		attr.branch_sample_type = PEO_SAMPLE_BRANCH_ANY | PEO_SAMPLE_BRANCH_HW_INDEX |
					  PEO_SAMPLE_BRANCH_COUNTERS;
		p = peo_test_parser_for(big, &attr);
		vec_record_begin(&v, big, PEO_RECORD_SAMPLE, PEO_RECORD_MISC_USER);
		vec_put64(&v, 0x401000);                         /* ip */
		vec_put64(&v, 2);                                /* read: nr */
		vec_put64(&v, 5000);                             /* time_enabled */
		vec_put64(&v, 11); vec_put64(&v, 101); vec_put64(&v, 0); /* value, id, lost */
		vec_put64(&v, 22); vec_put64(&v, 102); vec_put64(&v, 3);
		vec_put64(&v, 2);                                /* branch nr */
		vec_put64(&v, 7);                                /* hw_idx */
		vec_put64(&v, 0x1000); vec_put64(&v, 0x2000);
		if (big) { /* a big-endian writer's bitfield word starts at the top */
			uint64_t rev = 0;

			for (int i = 0; i < 64; i++)
				if (flags >> i & 1)
					rev |= 1ULL << (63 - i);
			vec_put64(&v, rev);
		} else {
			vec_put64(&v, flags);
		}
		vec_put64(&v, 0x3000); vec_put64(&v, 0x4000); vec_put64(&v, 0);
		vec_put64(&v, 9); vec_put64(&v, 10);                 /* branch counters */
		/* weight_struct: var1_dw 1000, var2_w 20, var3_w 3 at their bits */
		vec_put64(&v, 1000 | 20ULL << 32 | 3ULL << 48);
		/* data_src: op LOAD(2), lvl L1|HIT (0x2|0x8 = 0xa), snoop NONE(2), dtlb HIT (1),
		 * lvl_num L2 (2), remote 1, blk DATA (2), hops 1 */
		vec_put64(&v, 2 | 0xaULL << 5 | 2ULL << 19 | 1ULL << 26 | 2ULL << 33 | 1ULL << 37 |
			  2ULL << 40 | 1ULL << 43);
		vec_put64(&v, PEO_TXN_TRANSACTION | PEO_TXN_CONFLICT | 0x42ULL << PEO_TXN_ABORT_SHIFT);
		vec_record_end(&v);
		parse_ok(p, &v, &r);
		assert_int_equal(r.u.sample.ip, 0x401000);
		assert_int_equal(r.u.sample.read.nr, 2);
		assert_int_equal(r.u.sample.read.time_enabled, 5000);
		assert_int_equal(peo_read_value(&r, &r.u.sample.read, 1, &rv), 0);
		assert_int_equal(rv.value, 22);
		assert_int_equal(rv.id, 102);
		assert_int_equal(rv.lost, 3);
		assert_int_equal(peo_read_value(&r, &r.u.sample.read, 2, &rv), -ERANGE);
		assert_int_equal(r.u.sample.branch_nr, 2);
		assert_int_equal(r.u.sample.branch_hw_idx, 7);
		assert_int_equal(peo_sample_branch(&r, 0, &br), 0);
		assert_int_equal(br.from, 0x1000);
		assert_int_equal(br.to, 0x2000);
		assert_int_equal(br.mispred, 1);
		assert_int_equal(br.predicted, 0);
		assert_int_equal(br.cycles, 300);
		assert_int_equal(br.type, PEO_BR_COND);
		assert_int_equal(br.spec, PEO_BR_SPEC_CORRECT_PATH);
		assert_int_equal(br.new_type, PEO_BR_NEW_FAULT_INST);
		assert_int_equal(br.priv, PEO_BR_PRIV_USER);
		assert_int_equal(peo_record_u64(&r, r.u.sample.branch_counters, 1), 10);
		assert_int_equal(r.u.sample.weight_var1, 1000);
		assert_int_equal(r.u.sample.weight_var2, 20);
		assert_int_equal(r.u.sample.weight_var3, 3);
		peo_data_src_decode(r.u.sample.data_src, &ds);
		assert_int_equal(ds.op, 2);
		assert_int_equal(ds.lvl, 0xa);
		assert_int_equal(ds.snoop, 2);
		assert_int_equal(ds.dtlb, 1);
		assert_int_equal(ds.lvl_num, 2);
		assert_int_equal(ds.remote, 1);
		assert_int_equal(ds.blk, 2);
		assert_int_equal(ds.hops, 1);
		assert_int_equal(r.u.sample.transaction & 0xff, PEO_TXN_TRANSACTION | PEO_TXN_CONFLICT);
		assert_int_equal(r.u.sample.transaction >> PEO_TXN_ABORT_SHIFT, 0x42);
		assert_json(&r, ",\"read\":{\"nr\":2,\"time_enabled\":5000,\"values\":["
			    "{\"value\":11,\"id\":101,\"lost\":0},{\"value\":22,\"id\":102,\"lost\":3}]}"
			    ",\"branch_hw_idx\":7,\"branch_stack\":[{\"from\":\"0x1000\",\"to\":\"0x2000\","
			    "\"mispred\":1,\"predicted\":0,\"in_tx\":0,\"abort\":0,\"cycles\":300,"
			    "\"type\":1,\"spec\":3,\"new_type\":2,\"priv\":1},{\"from\":\"0x3000\","
			    "\"to\":\"0x4000\",\"mispred\":0,\"predicted\":0,\"in_tx\":0,\"abort\":0,"
			    "\"cycles\":0,\"type\":0,\"spec\":0,\"new_type\":0,\"priv\":0}],"
			    "\"branch_counters\":[9,10],\"weight\":{\"var1_dw\":1000,\"var2_w\":20,"
			    "\"var3_w\":3},\"data_src\":\"0xa2404100142\",\"transaction\":\"0x4200000022\"");
		/* One byte short: the last field is named with its offset. */
		v.n -= 8;
		vec_record_end(&v);
		assert_int_equal(peo_record_parse(p, v.b, v.n, &r), -EPROTO);
		assert_error_contains("field 'transaction' at byte");
		peo_record_parser_free(p);
	}
}

/* Records a software PMU here never writes, each with a sample_id trailer. */
static void other_records_from_the_abi(void **state)
{
	(void)state;
	for (int big = 0; big < 2; big++) {
		struct peo_attr attr;
		struct peo_record_parser *p;
		struct peo_record r = { .sz = sizeof(r) };
		struct vec v;
		uint64_t ip;
		int64_t ctx;
		struct peo_callchain_iter it = { .sz = sizeof(it) };

		peo_test_base_attr(&attr, PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_IDENTIFIER);
		p = peo_test_parser_for(big, &attr);
#define TRAILER()                                         \
	do {                                              \
		vec_put32(&v, 10); vec_put32(&v, 11);             \
		vec_put64(&v, 123456789);                     \
		vec_put64(&v, 77);                            \
		vec_record_end(&v);                               \
	} while (0)
/* the trailer as --json puts it */
#define JSON_TRAILER ",\"sample_pid\":10,\"sample_tid\":11,\"sample_time\":123456789,\"sample_id\":77"
#define CHECK_TRAILER()                                       \
	do {                                                  \
		assert_int_equal(r.sample_id.pid, 10);        \
		assert_int_equal(r.sample_id.tid, 11);        \
		assert_int_equal(r.sample_id.time, 123456789);\
		assert_int_equal(r.sample_id.identifier, 77); \
	} while (0)

		vec_record_begin(&v, big, PEO_RECORD_AUX, 0);
		vec_put64(&v, 4096); vec_put64(&v, 8192); vec_put64(&v, PEO_AUX_FLAG_TRUNCATED | PEO_AUX_FLAG_PARTIAL);
		TRAILER();
		parse_ok(p, &v, &r);
		assert_int_equal(r.u.aux.aux_offset, 4096);
		assert_int_equal(r.u.aux.aux_size, 8192);
		assert_int_equal(r.u.aux.flags, PEO_AUX_FLAG_TRUNCATED | PEO_AUX_FLAG_PARTIAL);
		CHECK_TRAILER();
		assert_json(&r, ",\"aux_offset\":\"0x1000\",\"aux_size\":8192,\"flags\":\"0x5\"" JSON_TRAILER);

		vec_record_begin(&v, big, PEO_RECORD_ITRACE_START, 0);
		vec_put32(&v, 500); vec_put32(&v, 501);
		TRAILER();
		parse_ok(p, &v, &r);
		assert_int_equal(r.u.itrace_start.tid, 501);
		assert_json(&r, ",\"pid\":500,\"tid\":501" JSON_TRAILER);
		CHECK_TRAILER();

		vec_record_begin(&v, big, PEO_RECORD_KSYMBOL, 0);
		vec_put64(&v, 0xffffffffa0000000ull); vec_put32(&v, 256);
		vec_put16(&v, PEO_RECORD_KSYMBOL_TYPE_BPF); vec_put16(&v, PEO_RECORD_KSYMBOL_FLAGS_UNREGISTER);
		vec_bytes(&v, "bpf_prog_1234", 14); vec_pad8(&v);
		TRAILER();
		parse_ok(p, &v, &r);
		assert_int_equal(r.u.ksymbol.addr, 0xffffffffa0000000ull);
		assert_int_equal(r.u.ksymbol.len, 256);
		assert_int_equal(r.u.ksymbol.ksym_type, PEO_RECORD_KSYMBOL_TYPE_BPF);
		assert_string_equal(r.u.ksymbol.name, "bpf_prog_1234");
		assert_json(&r, ",\"addr\":\"0xffffffffa0000000\",\"len\":256,\"ksym_type\":1,"
			    "\"flags\":\"0x1\",\"name\":\"bpf_prog_1234\"" JSON_TRAILER);
		CHECK_TRAILER();

		vec_record_begin(&v, big, PEO_RECORD_BPF_EVENT, 0);
		vec_put16(&v, PEO_BPF_EVENT_PROG_LOAD); vec_put16(&v, 0); vec_put32(&v, 42);
		vec_bytes(&v, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
		TRAILER();
		parse_ok(p, &v, &r);
		assert_int_equal(r.u.bpf_event.type, PEO_BPF_EVENT_PROG_LOAD);
		assert_int_equal(r.u.bpf_event.id, 42);
		assert_memory_equal(r.u.bpf_event.tag, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
		assert_json(&r, ",\"bpf_event_type\":1,\"flags\":\"0x0\",\"id\":42,"
			    "\"tag\":\"0102030405060708\"" JSON_TRAILER);
		CHECK_TRAILER();

		vec_record_begin(&v, big, PEO_RECORD_TEXT_POKE, 0);
		vec_put64(&v, 0xffffffff81000000ull); vec_put16(&v, 2); vec_put16(&v, 5);
		vec_bytes(&v, "\x66\x90", 2); vec_bytes(&v, "\xe8\x01\x02\x03\x04", 5); vec_pad8(&v);
		TRAILER();
		parse_ok(p, &v, &r);
		assert_int_equal(r.u.text_poke.old_len, 2);
		assert_int_equal(r.u.text_poke.new_len, 5);
		assert_memory_equal(r.u.text_poke.old_bytes, "\x66\x90", 2);
		assert_memory_equal(r.u.text_poke.new_bytes, "\xe8\x01\x02\x03\x04", 5);
		assert_json(&r, ",\"addr\":\"0xffffffff81000000\",\"old_len\":2,\"new_len\":5,"
			    "\"old_bytes\":\"6690\",\"new_bytes\":\"e801020304\"" JSON_TRAILER);
		CHECK_TRAILER();

		vec_record_begin(&v, big, PEO_RECORD_AUX_OUTPUT_HW_ID, 0);
		vec_put64(&v, 3);
		TRAILER();
		parse_ok(p, &v, &r);
		assert_int_equal(r.u.aux_output_hw_id.hw_id, 3);
		assert_json(&r, ",\"hw_id\":3" JSON_TRAILER);

		vec_record_begin(&v, big, PEO_RECORD_CALLCHAIN_DEFERRED, 0);
		vec_put64(&v, 0xc00c1e); vec_put64(&v, 3);
		vec_put64(&v, PEO_CONTEXT_ENTRY(PEO_CONTEXT_USER)); vec_put64(&v, 0x401111); vec_put64(&v, 0x402222);
		TRAILER();
		parse_ok(p, &v, &r);
		assert_int_equal(r.u.callchain_deferred.cookie, 0xc00c1e);
		assert_json(&r, ",\"cookie\":\"0xc00c1e\",\"ips\":[\"0xfffffffffffffe00\",\"0x401111\",\"0x402222\"]" JSON_TRAILER);
		peo_callchain_begin(&it, &r);
		assert_int_equal(peo_callchain_next(&it, &ip, &ctx), 1);
		assert_int_equal(ip, 0x401111);
		assert_int_equal(ctx, PEO_CONTEXT_USER);
		assert_int_equal(peo_callchain_next(&it, &ip, &ctx), 1);
		assert_int_equal(ip, 0x402222);
		assert_int_equal(peo_callchain_next(&it, &ip, &ctx), 0);
		CHECK_TRAILER();

		vec_record_begin(&v, big, PEO_RECORD_LOST_SAMPLES, 0);
		vec_put64(&v, 99);
		TRAILER();
		parse_ok(p, &v, &r);
		assert_int_equal(r.u.lost_samples.lost, 99);
		assert_json(&r, ",\"lost\":99" JSON_TRAILER);

		vec_record_begin(&v, big, PEO_RECORD_SWITCH_CPU_WIDE, PEO_RECORD_MISC_SWITCH_OUT |
							      PEO_RECORD_MISC_SWITCH_OUT_PREEMPT);
		vec_put32(&v, 300); vec_put32(&v, 301);
		TRAILER();
		parse_ok(p, &v, &r);
		assert_true(r.u.sw.out && r.u.sw.preempt);
		assert_int_equal(r.u.sw.next_prev_tid, 301);
		assert_json(&r, ",\"next_prev_pid\":300,\"next_prev_tid\":301,\"out\":true,"
			    "\"preempt\":true" JSON_TRAILER);
		CHECK_TRAILER();

		vec_record_begin(&v, big, PEO_RECORD_MMAP2, PEO_RECORD_MISC_MMAP_BUILD_ID | PEO_RECORD_MISC_USER);
		vec_put32(&v, 7); vec_put32(&v, 8); vec_put64(&v, 0x400000); vec_put64(&v, 0x1000); vec_put64(&v, 0);
		{
			unsigned char bid[24] = { 20, 0, 0, 0 };

			for (int i = 0; i < 20; i++)
				bid[4 + i] = (unsigned char)(0xa0 + i);
			vec_bytes(&v, bid, 24);
		}
		vec_put32(&v, 5); vec_put32(&v, 2); vec_bytes(&v, "/usr/bin/x", 11); vec_pad8(&v);
		TRAILER();
		parse_ok(p, &v, &r);
		assert_int_equal(r.u.mmap.build_id_size, 20);
		assert_int_equal(r.u.mmap.build_id[19], 0xa0 + 19);
		assert_int_equal(r.u.mmap.prot, 5);
		assert_string_equal(r.u.mmap.filename, "/usr/bin/x");
		assert_json(&r, ",\"pid\":7,\"tid\":8,\"addr\":\"0x400000\",\"len\":\"0x1000\","
			    "\"pgoff\":\"0x0\",\"build_id\":\"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3\","
			    "\"prot\":\"0x5\",\"flags\":\"0x2\",\"filename\":\"/usr/bin/x\"" JSON_TRAILER);
		CHECK_TRAILER();

		/* MMAP carries the trailer too (perf-event-data assumed not). */
		vec_record_begin(&v, big, PEO_RECORD_MMAP, PEO_RECORD_MISC_USER);
		vec_put32(&v, 7); vec_put32(&v, 8); vec_put64(&v, 0x400000); vec_put64(&v, 0x2000); vec_put64(&v, 0x1000);
		vec_bytes(&v, "/lib/libc.so.6", 15); vec_pad8(&v);
		TRAILER();
		parse_ok(p, &v, &r);
		assert_int_equal(r.u.mmap.len, 0x2000);
		assert_int_equal(r.u.mmap.pgoff, 0x1000);
		assert_string_equal(r.u.mmap.filename, "/lib/libc.so.6");
		CHECK_TRAILER();

		/* SWITCH: nothing but its misc bits and the trailer. */
		vec_record_begin(&v, big, PEO_RECORD_SWITCH, PEO_RECORD_MISC_SWITCH_OUT);
		TRAILER();
		parse_ok(p, &v, &r);
		assert_true(r.u.sw.out && !r.u.sw.preempt);
		assert_json(&r, ",\"out\":true,\"preempt\":false" JSON_TRAILER);
		CHECK_TRAILER();

		/* A type from the future: its bytes, no error. */
		vec_record_begin(&v, big, 99, 0);
		vec_put64(&v, 1);
		vec_record_end(&v);
		parse_ok(p, &v, &r);
		assert_true(r.unknown);
		assert_int_equal(r.header.type, 99);
		assert_int_equal(r.header.size, 16);
		assert_json(&r, big ? ",\"type_number\":99,\"data\":\"0000000000000001\""
				    : ",\"type_number\":99,\"data\":\"0100000000000000\"");

		/* A filename without its NUL, and a nr that lies. */
		vec_record_begin(&v, big, PEO_RECORD_COMM, 0);
		vec_put32(&v, 1); vec_put32(&v, 2); vec_bytes(&v, "abcdefgh", 8);
		TRAILER();
		assert_int_equal(peo_record_parse(p, v.b, v.n, &r), -EPROTO);
		assert_error_contains("COMM record: field 'comm' at byte 16 has no NUL");
		vec_record_begin(&v, big, PEO_RECORD_NAMESPACES, 0);
		vec_put32(&v, 1); vec_put32(&v, 2); vec_put64(&v, 1ULL << 60);
		TRAILER();
		assert_int_equal(peo_record_parse(p, v.b, v.n, &r), -EPROTO);
		assert_error_contains("NAMESPACES record: field 'link_info' at byte 24");
#undef TRAILER
#undef JSON_TRAILER
#undef CHECK_TRAILER
		peo_record_parser_free(p);
	}
}

/* A WEIGHT (u64) sample with an AUX snapshot, and READ records, single and group. */
static void weight_aux_and_read_records(void **state)
{
	(void)state;
	for (int big = 0; big < 2; big++) {
		struct peo_attr attr;
		struct peo_record_parser *p;
		struct peo_record r = { .sz = sizeof(r) };
		struct peo_read_value rv = { .sz = sizeof(rv) };
		struct vec v;

		peo_test_base_attr(&attr, PEO_SAMPLE_TID | PEO_SAMPLE_WEIGHT | PEO_SAMPLE_AUX);
		attr.sample_id_all = 0;
		attr.read_format = PEO_FORMAT_TOTAL_TIME_ENABLED | PEO_FORMAT_TOTAL_TIME_RUNNING |
				   PEO_FORMAT_ID | PEO_FORMAT_LOST;
		p = peo_test_parser_for(big, &attr);
		vec_record_begin(&v, big, PEO_RECORD_SAMPLE, 0);
		vec_put32(&v, 5); vec_put32(&v, 6);
		vec_put64(&v, 123456);                 /* weight */
		vec_put64(&v, 16);                     /* aux size, then its bytes */
		vec_bytes(&v, "0123456789abcdef", 16);
		vec_record_end(&v);
		parse_ok(p, &v, &r);
		assert_int_equal(r.u.sample.weight, 123456);
		assert_int_equal(r.u.sample.aux_size, 16);
		assert_memory_equal(r.u.sample.aux, "0123456789abcdef", 16);
		assert_json(&r, ",\"weight\":123456,\"aux\":{\"size\":16,"
			    "\"data\":\"30313233343536373839616263646566\"}");
		/* an aux size past the record */
		vec_put_at(&v, 24, 17, 8);
		assert_int_equal(peo_record_parse(p, v.b, v.n, &r), -EPROTO);
		assert_error_contains("field 'aux.data' at byte 32");

		/* READ, one value: pid, tid, value, enabled, running, id, lost */
		vec_record_begin(&v, big, PEO_RECORD_READ, 0);
		vec_put32(&v, 5); vec_put32(&v, 6);
		vec_put64(&v, 1000); vec_put64(&v, 2000); vec_put64(&v, 1500);
		vec_put64(&v, 77); vec_put64(&v, 4);
		vec_record_end(&v);
		parse_ok(p, &v, &r);
		assert_int_equal(r.u.read.tid, 6);
		assert_int_equal(r.u.read.read.time_enabled, 2000);
		assert_int_equal(r.u.read.read.time_running, 1500);
		assert_int_equal(peo_read_value(&r, &r.u.read.read, 0, &rv), 0);
		assert_int_equal(rv.value, 1000);
		assert_int_equal(rv.id, 77);
		assert_int_equal(rv.lost, 4);
		assert_json(&r, ",\"pid\":5,\"tid\":6,\"read\":{\"nr\":1,\"time_enabled\":2000,"
			    "\"time_running\":1500,\"values\":[{\"value\":1000,\"id\":77,\"lost\":4}]}");
		peo_record_parser_free(p);

		/* READ of a group: nr, enabled, then value and id per member */
		attr.read_format = PEO_FORMAT_GROUP | PEO_FORMAT_TOTAL_TIME_ENABLED | PEO_FORMAT_ID;
		p = peo_test_parser_for(big, &attr);
		vec_record_begin(&v, big, PEO_RECORD_READ, 0);
		vec_put32(&v, 5); vec_put32(&v, 6);
		vec_put64(&v, 3); vec_put64(&v, 9000);
		vec_put64(&v, 10); vec_put64(&v, 100);
		vec_put64(&v, 20); vec_put64(&v, 101);
		vec_put64(&v, 30); vec_put64(&v, 102);
		vec_record_end(&v);
		parse_ok(p, &v, &r);
		assert_int_equal(r.u.read.read.nr, 3);
		assert_int_equal(r.u.read.read.time_enabled, 9000);
		assert_int_equal(peo_read_value(&r, &r.u.read.read, 2, &rv), 0);
		assert_int_equal(rv.value, 30);
		assert_int_equal(rv.id, 102);
		assert_json(&r, ",\"pid\":5,\"tid\":6,\"read\":{\"nr\":3,\"time_enabled\":9000,"
			    "\"values\":[{\"value\":10,\"id\":100},{\"value\":20,\"id\":101},"
			    "{\"value\":30,\"id\":102}]}");
		/* a member count the record cannot hold */
		vec_put_at(&v, 16, 1000, 8);
		assert_int_equal(peo_record_parse(p, v.b, v.n, &r), -EPROTO);
		assert_error_contains("field 'read.values'");
		peo_record_parser_free(p);
	}
}

/* ------------------------------------------------- the kernel's records */

/* Is @addr in an executable mapping of this process? */
static int in_text(uint64_t addr)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char perms[8];

		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && perms[2] == 'x')
			found = addr >= lo && addr < hi;
	}
	if (f)
		fclose(f);
	return found;
}

#define CANARY 0x5ca1ab1e0ddba11ull

static void kernel_samples_match_what_the_test_did(void **state)
{
	char why[256];
	long long tp = peo_test_tracepoint_id("syscalls", "sys_enter_lseek", why, sizeof(why));
	int off = tp < 0 ? -1 : peo_test_lseek_offset_field(why, sizeof(why)), fd, cpu;
	struct peo_record_parser *p;
	struct peo_attr a;
	struct peo_ring *ring;
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	uint64_t last_time = 0, id;
	size_t n = 0;
	volatile uint64_t canary[4] = { CANARY, CANARY, CANARY, CANARY };
	PEO_OPTS(peo_ring_opts, ro, .data_pages = 64);
	static unsigned char scratch[70000];
	struct peo_tp_format *fmt;
	const struct peo_tp_field *f_offset, *f_fd, *f_pid;

	(void)state;
	PEO_SKIP_UNDER_VALGRIND("the sampled registers and stack are valgrind's, not the test's");
	if (tp < 0 || off < 0)
		PEO_SKIP("%s", why);
	cpu = sched_getcpu();
	peo_test_pin_to_cpu(cpu);
	peo_attr_init(&a);
	a.type = PEO_TYPE_TRACEPOINT;
	a.config = (uint64_t)tp;
	a.sample_period = 1;
	a.sample_type = PEO_SAMPLE_IDENTIFIER | PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME |
			PEO_SAMPLE_ID | PEO_SAMPLE_STREAM_ID | PEO_SAMPLE_CPU | PEO_SAMPLE_PERIOD |
			PEO_SAMPLE_READ | PEO_SAMPLE_CALLCHAIN | PEO_SAMPLE_RAW |
			PEO_SAMPLE_REGS_USER | PEO_SAMPLE_STACK_USER | PEO_SAMPLE_CGROUP |
			PEO_SAMPLE_DATA_PAGE_SIZE | PEO_SAMPLE_CODE_PAGE_SIZE;
	a.read_format = PEO_FORMAT_ID | PEO_FORMAT_TOTAL_TIME_ENABLED | PEO_FORMAT_LOST;
	a.sample_regs_user = 1ULL << REG_IP | 1ULL << REG_SP;
	a.sample_stack_user = 4096;
	a.sample_id_all = 1;
	a.disabled = 1;
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd < 0)
		print_error("%s\n", peo_last_error());
	assert_true(fd >= 0);
	assert_int_equal(peo_sys_ioc_id(fd, &id), 0);
	assert_int_equal(peo_ring_map(&ring, fd, &ro), 0);
	assert_int_equal(peo_record_parser_new(&p, NULL), 0);
	assert_int_equal(peo_record_parser_add(p, &a, &id, 1), 0);
	assert_int_equal(peo_tp_format_load(&fmt, NULL, "syscalls", "sys_enter_lseek"), 0);
	assert_string_equal(peo_tp_format_name(fmt), "sys_enter_lseek");
	assert_int_equal(peo_tp_format_id(fmt), tp);
	assert_non_null(f_offset = peo_tp_format_find(fmt, "offset"));
	assert_int_equal(f_offset->offset, off);
	assert_int_equal(f_offset->size, 8);
	assert_non_null(f_fd = peo_tp_format_find(fmt, "fd"));
	assert_non_null(f_pid = peo_tp_format_find(fmt, "common_pid"));
	assert_true(f_pid->common && f_pid->is_signed);
	assert_null(peo_tp_format_find(fmt, "no_such_field"));
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	for (int i = 0; i < 20; i++)
		syscall(SYS_lseek, -1, (long)(1000 + i), SEEK_SET);
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	while (peo_ring_next(ring, &rec, NULL, 0) == 1) {
		struct peo_record r = { .sz = sizeof(r) };
		const struct peo_sample *s = &r.u.sample;
		struct peo_read_value rv = { .sz = sizeof(rv) };
		struct peo_callchain_iter it = { .sz = sizeof(it) };
		uint64_t ip, arg;
		int64_t ctx;

		assert_int_equal(peo_record_parse_segments(p, rec.seg[0], rec.seg_len[0], rec.seg[1],
							   rec.seg_len[1], scratch, sizeof(scratch),
							   &r), 0);
		if (r.header.type != PEO_RECORD_SAMPLE)
			continue;
		assert_int_equal(r.attr->config, a.config);
		assert_int_equal(s->identifier, id);
		assert_int_equal(s->id, id);
		assert_int_equal(s->pid, getpid());
		assert_int_equal(s->tid, syscall(SYS_gettid));
		assert_int_equal(s->cpu, cpu);
		assert_true(s->time > last_time);
		last_time = s->time;
		assert_int_equal(s->period, 1);
		assert_true(in_text(s->ip));
		assert_int_equal(peo_read_value(&r, &s->read, 0, &rv), 0);
		assert_int_equal(rv.id, id);
		assert_int_equal(rv.value, n + 1); /* the count at this sample */
		/* A syscall tracepoint hands perf the user's registers at entry, so
		 * the chain starts with the USER marker and the sample's own ip. */
		assert_int_equal(peo_record_u64(&r, s->callchain, 0),
				 PEO_CONTEXT_ENTRY(PEO_CONTEXT_USER));
		peo_callchain_begin(&it, &r);
		assert_int_equal(peo_callchain_next(&it, &ip, &ctx), 1);
		assert_int_equal(ctx, PEO_CONTEXT_USER);
		assert_int_equal(ip, s->ip);
		while (peo_callchain_next(&it, &ip, &ctx) == 1)
			assert_int_equal(ctx, PEO_CONTEXT_USER);
		/* The syscall's arguments, decoded from the raw payload by name. */
		{
			int64_t v;

			assert_true(s->raw_size >= (uint32_t)off + 8);
			memcpy(&arg, (const char *)s->raw + off, 8);
			assert_int_equal(arg, 1000 + n);
			assert_int_equal(peo_tp_field_int(f_offset, &r, s->raw, s->raw_size, 0, &v), 0);
			assert_int_equal(v, 1000 + (int64_t)n);
			assert_int_equal(peo_tp_field_int(f_fd, &r, s->raw, s->raw_size, 0, &v), 0);
			assert_int_equal((uint32_t)v, (uint32_t)-1); /* the -1 we passed */
			assert_int_equal(peo_tp_field_int(f_pid, &r, s->raw, s->raw_size, 0, &v), 0);
			assert_int_equal(v, getpid());
			assert_int_equal(peo_tp_field_int(f_offset, &r, s->raw, 20, 0, &v), -EPROTO);
			assert_error_contains("field 'offset' element 0 at offset");
		}
		/* User registers: the ip the sample reports, and the stack pointer. */
		assert_int_equal(s->regs_user_abi, PEO_SAMPLE_REGS_ABI_64);
		assert_int_equal(s->regs_user_nr, 2);
		assert_int_equal(peo_record_u64(&r, s->regs_user, 1), s->ip); /* mask order: SP, IP */
		/* The user stack dump holds our canary. */
		assert_int_equal(s->stack_user_size, 4096);
		assert_true(s->stack_user_dyn_size > 0 && s->stack_user_dyn_size <= 4096);
		{
			/* The dump is the memory from the user stack pointer up. */
			uint64_t sp = peo_record_u64(&r, s->regs_user, 0);
			int found = 0;

			for (int j = 0; j < 4; j++) {
				uint64_t at = (uint64_t)(uintptr_t)&canary[j], v;

				if (at < sp || at + 8 > sp + s->stack_user_dyn_size)
					continue;
				memcpy(&v, (const unsigned char *)s->stack_user + (at - sp), 8);
				assert_int_equal(v, CANARY);
				found++;
			}
			assert_true(found > 0);
		}
		assert_true(s->cgroup > 0);
		assert_int_equal(s->code_page_size, (uint64_t)sysconf(_SC_PAGESIZE));
		n++;
	}
	assert_int_equal(n, 20);
	peo_tp_format_free(fmt);
	peo_record_parser_free(p);
	peo_ring_unmap(ring);
	close(fd);
	peo_test_unpin();
}

/* A child that forks, makes and removes a cgroup, and execs /bin/true. */
static void task_records_of_a_child(void **state)
{
	/* What the child's mkdir did, for the CGROUP record's check. */
	struct made {
		int err;    /* 0: made, else mkdir's errno */
		uint64_t ino;
	} *made;
	char root[1024], dir[1200];
	PEO_OPTS(peo_ring_opts, ro, .data_pages = 64);
	struct peo_record_parser *p;
	struct peo_ring *ring;
	struct peo_attr a;
	int go[2], fd, seen_fork = 0, seen_exec = 0, seen_mmap = 0, seen_exit = 0, seen_switch = 0,
		       seen_ns = 0, seen_cgroup = 0;
	pid_t child, grandchild = 0;
	uint64_t last_time = 0;
	struct peo_ring *exec_ring = NULL;
	struct peo_record_parser *exec_parser = NULL;
	int exec_fd = -1;

	(void)state;
	peo_cgroup_root(root, sizeof(root));
	snprintf(dir, sizeof(dir), "%s/peo-record-test-%d", root, (int)getpid());
	made = mmap(NULL, sizeof(*made), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(made != MAP_FAILED);
	made->err = -1;
	assert_int_equal(pipe2(go, O_CLOEXEC), 0);
	child = fork();
	if (child == 0) {
		char c;
		pid_t g;

		close(go[1]); /* so that a parent that gives up is EOF here */
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		g = fork();
		if (g == 0)
			_exit(0);
		waitpid(g, NULL, 0);
		if (mkdir(dir, 0755) == 0) {
			struct stat st;

			made->ino = stat(dir, &st) == 0 ? (uint64_t)st.st_ino : 0;
			made->err = 0;
			rmdir(dir);
		} else {
			made->err = errno;
		}
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	peo_attr_init(&a);
	a.type = PEO_TYPE_SOFTWARE;
	a.config = PEO_COUNT_SW_DUMMY;
	a.sample_type = PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_IDENTIFIER;
	a.sample_id_all = 1;
	a.comm = a.comm_exec = a.task = a.mmap = a.mmap2 = 1;
	a.context_switch = a.namespaces = a.cgroup = 1;
	fd = peo_sys_open(&a, child, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		/* The child, waiting for "g", ends (EOF) rather than hang on. */
		print_error("%s\n", peo_last_error());
		close(go[1]);
		waitpid(child, NULL, 0);
		munmap(made, sizeof(*made));
	}
	assert_true(fd >= 0);
	assert_int_equal(peo_ring_map(&ring, fd, &ro), 0);
	assert_int_equal(peo_record_parser_new(&p, NULL), 0);
	assert_int_equal(peo_record_parser_add(p, &a, NULL, 0), 0);
	/* The exec tracepoint too: its filename is a __data_loc string. */
	{
		char why[256];
		long long tp = peo_test_tracepoint_id("sched", "sched_process_exec", why, sizeof(why));

		if (tp >= 0) {
			struct peo_attr e;

			peo_attr_init(&e);
			e.type = PEO_TYPE_TRACEPOINT;
			e.config = (uint64_t)tp;
			e.sample_period = 1;
			e.sample_type = PEO_SAMPLE_RAW;
			exec_fd = peo_sys_open(&e, child, -1, -1, PEO_FLAG_FD_CLOEXEC);
			assert_true(exec_fd >= 0);
			assert_int_equal(peo_ring_map(&exec_ring, exec_fd, &ro), 0);
			assert_int_equal(peo_record_parser_new(&exec_parser, NULL), 0);
			assert_int_equal(peo_record_parser_add(exec_parser, &e, NULL, 0), 0);
		}
	}
	assert_int_equal(write(go[1], "g", 1), 1);
	close(go[1]);
	assert_int_equal(waitpid(child, NULL, 0), child);
	{
		struct peo_ring_record rec = { .sz = sizeof(rec) };
		static unsigned char scratch[65536];

		while (peo_ring_next(ring, &rec, scratch, sizeof(scratch)) == 1) {
			struct peo_record r = { .sz = sizeof(r) };
			const void *bytes = rec.data;

			assert_int_equal(peo_record_parse(p, bytes, rec.header.size, &r), 0);
			/* Every record carries its trailer: our child, in time order. */
			assert_int_equal(r.sample_id.fields, PEO_SAMPLE_TID | PEO_SAMPLE_TIME |
								 PEO_SAMPLE_IDENTIFIER);
			assert_true(r.sample_id.time >= last_time);
			last_time = r.sample_id.time;
			switch (r.header.type) {
			case PEO_RECORD_FORK:
				if (r.u.task.ppid == (uint32_t)child && r.u.task.pid != (uint32_t)child) {
					grandchild = (pid_t)r.u.task.pid;
					seen_fork++;
				}
				break;
			case PEO_RECORD_COMM:
				assert_int_equal(r.u.comm.pid, child);
				assert_true(r.u.comm.exec);
				assert_string_equal(r.u.comm.comm, "true");
				seen_exec++;
				break;
			case PEO_RECORD_MMAP2:
				assert_int_equal(r.u.mmap.pid, child);
				seen_mmap += strstr(r.u.mmap.filename, "true") != NULL;
				break;
			case PEO_RECORD_EXIT:
				seen_exit += r.u.task.pid == (uint32_t)child;
				break;
			case PEO_RECORD_SWITCH:
				assert_int_equal(r.sample_id.pid, child);
				seen_switch++;
				break;
			case PEO_RECORD_NAMESPACES:
				assert_int_equal(r.u.namespaces.nr, 7); /* net uts ipc pid user mnt cgroup */
				assert_int_not_equal(peo_record_u64(&r, r.u.namespaces.entries, 1), 0);
				seen_ns++;
				break;
			case PEO_RECORD_CGROUP: {
				const char *base = strrchr(dir, '/');
				size_t pl = strlen(r.u.cgroup.path), bl = strlen(base);

				/* The path is the new cgroup's, from the hierarchy's root. */
				assert_true(pl >= bl);
				assert_string_equal(r.u.cgroup.path + pl - bl, base);
				assert_int_equal(r.u.cgroup.id, made->ino);
				seen_cgroup++;
				break;
			}
			}
		}
	}
	assert_int_equal(seen_fork, 1);
	assert_true(grandchild > 0);
	assert_int_equal(seen_exec, 1);
	assert_true(seen_mmap >= 1);
	assert_int_equal(seen_exit, 1);
	assert_true(seen_switch >= 2);
	assert_true(seen_ns >= 1);
	/* A cgroup the child made is one CGROUP record; none when it could
	 * not (cgroup_record_of_a_mkdir skips, saying why, in that case). */
	if (made->err)
		print_message("note: mkdir %s: %s: no CGROUP record expected\n", dir,
			      strerror(made->err));
	assert_int_equal(seen_cgroup, made->err == 0);
	munmap(made, sizeof(*made));
	if (exec_ring) {
		struct peo_ring_record rec = { .sz = sizeof(rec) };
		struct peo_tp_format *fmt;
		struct peo_record r = { .sz = sizeof(r) };
		const void *name;
		size_t len;
		int64_t pid;

		assert_int_equal(peo_tp_format_load(&fmt, NULL, "sched", "sched_process_exec"), 0);
		assert_int_equal(peo_ring_next(exec_ring, &rec, NULL, 0), 1);
		assert_int_equal(peo_record_parse(exec_parser, rec.data, rec.header.size, &r), 0);
		assert_int_equal(peo_tp_field_bytes(peo_tp_format_find(fmt, "filename"), &r,
						    r.u.sample.raw, r.u.sample.raw_size, &name, &len), 0);
		assert_int_equal(len, strlen("/bin/true"));
		assert_memory_equal(name, "/bin/true", len);
		assert_int_equal(peo_tp_field_int(peo_tp_format_find(fmt, "pid"), &r, r.u.sample.raw,
						  r.u.sample.raw_size, 0, &pid), 0);
		assert_int_equal(pid, child);
		peo_tp_format_free(fmt);
		peo_record_parser_free(exec_parser);
		peo_ring_unmap(exec_ring);
		close(exec_fd);
	}
	peo_record_parser_free(p);
	peo_ring_unmap(ring);
	close(fd);
}

/* The root of the cgroup mounted at @mnt, as /proc/self/mountinfo gives it
 * (relative to this process's cgroup namespace): "/" for a whole hierarchy. */
static int cgroup_mount_root(const char *mnt, char *out, size_t cap)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], root[2048], point[2048];
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %*s %2047s %2047s", root, point) == 2 &&
		    !strcmp(point, mnt)) {
			snprintf(out, cap, "%s", root);
			found = 0; /* the last mount there is the one seen */
		}
	}
	fclose(f);
	return found;
}

/*
 * A cgroup made while an event with attr.cgroup is on brings one CGROUP
 * record, from the thread that made it: its id is the new directory's inode
 * (kernfs's node id, what name_to_handle_at() hands out too) and its path the
 * new cgroup's, from the root of the hierarchy.
 */
static void cgroup_record_of_a_mkdir(void **state)
{
	char root[1024], mroot[2048], dir[1200], want[4096];
	PEO_OPTS(peo_ring_opts, ro, .data_pages = 16);
	struct peo_record_parser *p;
	struct peo_ring *ring;
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	struct peo_attr a;
	struct statfs sf;
	struct stat st;
	struct {
		struct file_handle fh;
		unsigned char bytes[64];
	} h;
	uint64_t handle_id = 0;
	int fd, err, mount_id, seen = 0;
	const char *name;

	(void)state;
	peo_cgroup_root(root, sizeof(root));
	if (statfs(root, &sf) != 0)
		PEO_SKIP("no cgroup file system at %s: %s", root, strerror(errno));
	if (sf.f_type != CGROUP2_SUPER_MAGIC && sf.f_type != CGROUP_SUPER_MAGIC)
		PEO_SKIP("%s is no cgroup mount (no cgroup v2, no v1 perf_event hierarchy)", root);
	if (cgroup_mount_root(root, mroot, sizeof(mroot)) != 0)
		PEO_SKIP("%s is not in /proc/self/mountinfo", root);
	peo_test_base_attr(&a, PEO_SAMPLE_TID | PEO_SAMPLE_TIME);
	a.config = PEO_COUNT_SW_DUMMY;
	a.cgroup = 1;
	/* Side-band records ignore the exclude bits; these let a user open it. */
	a.exclude_kernel = a.exclude_hv = 1;
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd == -EACCES || fd == -EPERM)
		PEO_SKIP("may not open a software event here: %s", peo_last_error());
	if (fd == -EINVAL || fd == -E2BIG) {
		struct peo_attr plain = a;
		int pfd;

		plain.cgroup = 0;
		pfd = peo_sys_open(&plain, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
		if (pfd >= 0) {
			close(pfd);
			PEO_SKIP("the kernel refuses attr.cgroup (%s; Linux 5.7 brought it)",
				 strerror(-fd));
		}
	}
	if (fd < 0)
		print_error("%s\n", peo_last_error());
	assert_true(fd >= 0);
	assert_int_equal(peo_ring_map(&ring, fd, &ro), 0);

	snprintf(dir, sizeof(dir), "%s/peo-cgroup-record-%d", root, (int)getpid());
	name = strrchr(dir, '/') + 1;
	snprintf(want, sizeof(want), "%s/%s", strcmp(mroot, "/") ? mroot : "", name);
	if (mkdir(dir, 0755) != 0) {
		err = errno;
		peo_ring_unmap(ring);
		close(fd);
		if (err == EACCES || err == EPERM || err == EROFS)
			PEO_SKIP("may not make a cgroup in %s (%s): run as root", root,
				 strerror(err));
		fail_msg("mkdir %s: %s", dir, strerror(err));
	}
	err = stat(dir, &st);
	h.fh.handle_bytes = sizeof(h.bytes);
	if (syscall(SYS_name_to_handle_at, AT_FDCWD, dir, &h.fh, &mount_id, 0) == 0 &&
	    h.fh.handle_bytes == sizeof(handle_id))
		memcpy(&handle_id, h.fh.f_handle, sizeof(handle_id));
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(err, 0);

	assert_int_equal(peo_record_parser_new(&p, NULL), 0);
	assert_int_equal(peo_record_parser_add(p, &a, NULL, 0), 0);
	while (peo_ring_next(ring, &rec, NULL, 0) == 1) {
		struct peo_record r = { .sz = sizeof(r) };

		assert_int_equal(peo_record_parse(p, rec.data, rec.header.size, &r), 0);
		if (r.header.type != PEO_RECORD_CGROUP)
			continue;
		if (strcmp(r.u.cgroup.path, want) != 0)
			print_error("CGROUP record path '%s', expected '%s'\n", r.u.cgroup.path,
				    want);
		assert_string_equal(r.u.cgroup.path, want);
		assert_int_equal(r.u.cgroup.id, (uint64_t)st.st_ino);
		if (handle_id)
			assert_int_equal(r.u.cgroup.id, handle_id);
		/* The trailer names this thread, the one that made it. */
		assert_int_equal(r.sample_id.pid, getpid());
		assert_int_equal(r.sample_id.tid, (uint32_t)syscall(SYS_gettid));
		seen++;
	}
	if (!seen)
		print_error("no CGROUP record for mkdir %s\n", dir);
	assert_int_equal(seen, 1);
	print_message("CGROUP record: id %" PRIu64 " (inode%s), path %s\n", (uint64_t)st.st_ino,
		      handle_id ? " and file handle" : "", want);
	peo_record_parser_free(p);
	peo_ring_unmap(ring);
	close(fd);
}

/* A format file's text as another machine's perf.data would carry it. */
static const char synthetic_format[] =
	"name: demo_event\n"
	"ID: 4242\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:short deltas[3];\toffset:8;\tsize:6;\tsigned:1;\n"
	"\tfield:char comm[8];\toffset:14;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] path;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc char[] note;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"path=%s comm=%s first=%d pid=0x%08lx %%\", __get_str(path), REC->comm, "
	"((short)(REC->deltas)), ((unsigned long)(REC->common_pid))\n";

/* peo_tp_format_print() of @payload (@n bytes) gives @want, and says its length. */
static void assert_printed(const struct peo_tp_format *f, const struct peo_record *rec,
			   const void *payload, size_t n, const char *want)
{
	char text[256];

	assert_int_equal(peo_tp_format_print(f, rec, payload, n, text, sizeof(text)),
			 (int)strlen(want));
	assert_string_equal(text, want);
}

/* A format of one signed field @decl (@size bytes at offset 0) and @print_fmt. */
static struct peo_tp_format *one_field_format(const char *decl, int size, const char *print_fmt)
{
	struct peo_tp_format *f;
	char text[512];

	snprintf(text, sizeof(text), "name: z\nformat:\n\tfield:%s;\toffset:0;\tsize:%d;\t"
		 "signed:1;\nprint fmt: %s\n", decl, size, print_fmt);
	assert_int_equal(peo_tp_format_parse(&f, text), 0);
	return f;
}

static void tracepoint_fields_by_name_either_order(void **state)
{
	struct peo_tp_format *f;
	const struct peo_tp_field *deltas, *comm, *path, *note;

	(void)state;
	assert_int_equal(peo_tp_format_parse(&f, synthetic_format), 0);
	assert_string_equal(peo_tp_format_name(f), "demo_event");
	assert_int_equal(peo_tp_format_id(f), 4242);
	assert_int_equal(peo_tp_format_count(f), 6);
	deltas = peo_tp_format_find(f, "deltas");
	comm = peo_tp_format_find(f, "comm");
	path = peo_tp_format_find(f, "path");
	note = peo_tp_format_find(f, "note");
	assert_non_null(deltas);
	assert_int_equal(deltas->array_len, 3);
	assert_string_equal(deltas->type, "short");
	assert_int_equal(comm->array_len, 8);
	assert_int_equal(path->data_loc, 1);
	assert_string_equal(path->type, "__data_loc char[]");
	assert_int_equal(note->data_loc, 2);
	/* strings: char arrays and __data_loc char[]; hex: pointers and unsigned longs */
	assert_true(comm->is_text && path->is_text && note->is_text && !deltas->is_text);
	assert_false(deltas->is_hex || comm->is_hex);
	assert_false(peo_tp_format_find(f, "common_pid")->is_hex);
	{
		struct peo_tp_format *h;

		assert_int_equal(peo_tp_format_parse(&h, "name: h\nformat:\n"
			"\tfield:unsigned long a;\toffset:0;\tsize:8;\tsigned:0;\n"
			"\tfield:const void * p;\toffset:8;\tsize:8;\tsigned:0;\n"
			"\tfield:long l;\toffset:16;\tsize:8;\tsigned:1;\n"
			"\tfield:size_t n;\toffset:24;\tsize:8;\tsigned:0;\n"), 0);
		assert_true(peo_tp_format_find(h, "a")->is_hex && peo_tp_format_find(h, "p")->is_hex);
		assert_false(peo_tp_format_find(h, "l")->is_hex || peo_tp_format_find(h, "n")->is_hex);
		peo_tp_format_free(h);
	}
	for (int big = 0; big < 2; big++) {
		struct vec v = { .big = big };
		struct peo_record rec = { .sz = sizeof(rec), .swapped = big }; /* this host is little-endian */
		const void *bytes;
		size_t len;
		int64_t x;

		vec_put16(&v, 7); vec_put16(&v, 0); vec_put32(&v, (uint32_t)-5);
		vec_put16(&v, (uint16_t)-2); vec_put16(&v, 300); vec_put16(&v, (uint16_t)-32768);
		vec_bytes(&v, "abc\0\0\0\0\0", 8);
		vec_put16(&v, 0); /* pad to 24 */
		vec_put32(&v, 32 | 6u << 16);            /* path: at 32, 6 bytes */
		vec_put32(&v, 6 | 3u << 16);             /* note: 6 past its own end (32) = 38 */
		vec_bytes(&v, "/a/b\0\0", 6);
		vec_bytes(&v, "hi\0", 3);
		assert_int_equal(peo_tp_field_int(peo_tp_format_find(f, "common_pid"), &rec, v.b, v.n, 0, &x), 0);
		assert_int_equal(x, -5);
		assert_int_equal(peo_tp_field_int(deltas, &rec, v.b, v.n, 0, &x), 0);
		assert_int_equal(x, -2);
		assert_int_equal(peo_tp_field_int(deltas, &rec, v.b, v.n, 1, &x), 0);
		assert_int_equal(x, 300);
		assert_int_equal(peo_tp_field_int(deltas, &rec, v.b, v.n, 2, &x), 0);
		assert_int_equal(x, -32768);
		assert_int_equal(peo_tp_field_int(deltas, &rec, v.b, v.n, 3, &x), -EPROTO);
		assert_int_equal(peo_tp_field_bytes(comm, &rec, v.b, v.n, &bytes, &len), 0);
		assert_int_equal(len, 3);
		assert_memory_equal(bytes, "abc", 3);
		assert_int_equal(peo_tp_field_bytes(path, &rec, v.b, v.n, &bytes, &len), 0);
		assert_int_equal(len, 4);
		assert_memory_equal(bytes, "/a/b", 4);
		assert_int_equal(peo_tp_field_bytes(note, &rec, v.b, v.n, &bytes, &len), 0);
		assert_int_equal(len, 2);
		assert_memory_equal(bytes, "hi", 2);
		/* The print fmt, as perf script -F trace prints it. */
		{
			char text[128];

			assert_printed(f, &rec, v.b, v.n, "path=/a/b comm=abc first=-2 pid=0xfffffffffffffffb %");
			/* cut at the buffer, length still the whole */
			assert_int_equal(peo_tp_format_print(f, &rec, v.b, v.n, text, 10),
					 (int)strlen("path=/a/b comm=abc first=-2 pid=0xfffffffffffffffb %"));
			assert_string_equal(text, "path=/a/b");
		}
		/* The fields raw (when the print fmt cannot be evaluated): the
		 * common ones left out, arrays as their bytes as written */
		{
			char text[128];
			const char *want = big ? "deltas=ARRAY[ff, fe, 01, 2c, 80, 00] comm=abc "
						 "path=/a/b note=hi"
					       : "deltas=ARRAY[fe, ff, 2c, 01, 00, 80] comm=abc "
						 "path=/a/b note=hi";

			assert_int_equal(peo_tp_format_print_fields(f, &rec, v.b, v.n, text,
								    sizeof(text)), (int)strlen(want));
			assert_string_equal(text, want);
			assert_int_equal(peo_tp_format_print_fields(f, &rec, v.b, 35, text,
								    sizeof(text)), -EPROTO);
		}
		/* A data_loc that points past the payload. */
		assert_int_equal(peo_tp_field_bytes(path, &rec, v.b, 35, &bytes, &len), -EPROTO);
		assert_error_contains("field 'path': its data at offset 32 (6 bytes) lies past");
	}
	peo_tp_format_free(f);
	/* A helper peo does not evaluate is refused, naming the argument. */
	f = one_field_format("int a", 4, "\"%u\", jiffies_to_msecs(REC->a)");
	{
		char text[64];
		int32_t one = 1;
		struct peo_record rec = { .sz = sizeof(rec), .swapped = 0 };

		assert_int_equal(peo_tp_format_print(f, &rec, &one, 4, text, sizeof(text)), -ENOTSUP);
		assert_error_contains("jiffies_to_msecs(REC->a");
		assert_int_equal(peo_tp_format_print_fields(f, &rec, &one, 4, text, sizeof(text)), 3);
		assert_string_equal(text, "a=1");
	}
	peo_tp_format_free(f);
	/* A u8 array prints as text where it reads as text up to its NUL, else as its bytes. */
	f = one_field_format("u8 tag[4]", 4, "\"%u\", jiffies_to_msecs(REC->tag[0])");
	{
		struct peo_record rec = { .sz = sizeof(rec), .swapped = 0 };
		char text[64];

		assert_int_equal(peo_tp_format_print_fields(f, &rec, "ok\0\x01", 4, text, sizeof(text)),
				 6);
		assert_string_equal(text, "tag=ok");
		assert_int_equal(peo_tp_format_print_fields(f, &rec, "o\x01k", 4, text, sizeof(text)),
				 25);
		assert_string_equal(text, "tag=ARRAY[6f, 01, 6b, 00]");
	}
	peo_tp_format_free(f);
	assert_int_equal(peo_tp_format_parse(&f, "name: x\nformat:\n\tfield:int a;\toffset:zz;\n"), -EPROTO);
	assert_error_contains("line 3");
	assert_int_equal(peo_tp_format_load(&f, NULL, "syscalls", "no_such_event_here"), -ENOENT);
	assert_error_contains("no_such_event_here");
}

/* The C in print fmts: sched_switch's prev_state expression, a symbolic
 * table with an entry no value is known for, flags with bits left over and
 * a NULL-named end, casts that truncate and sign-extend, logic. */
static const char expression_format[] =
	"name: exprs\nID: 7\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned long state;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int vec;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:long sval;\toffset:24;\tsize:8;\tsigned:1;\n"
	"\nprint fmt: \"prev_state=%s%s vec=%u [action=%s] flags=%s u8=%d shift=%u cmp=%d\", "
	"(REC->state & ((((0x00000000 | 0x00000001 | 0x00000002) + 1) << 1) - 1)) ? "
	"__print_flags(REC->state & ((((0x00000000 | 0x00000001 | 0x00000002) + 1) << 1) - 1), \"|\", "
	"{ 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }) : \"R\", "
	"REC->state & (((0x00000000 | 0x00000001 | 0x00000002) + 1) << 1) ? \"+\" : \"\", "
	"REC->vec, __print_symbolic(REC->vec, { 0, \"HI\" }, { 1, \"TIMER\" }, { SOME_ENUM, \"X\" }), "
	"__print_flags(REC->state, \"|\", { 0x1UL, \"A\" }, {( unsigned long)(( gfp_t)((((1UL))) << (4))), "
	"\"B\"}, { 0, ((void *)0) }), (int)(unsigned char)REC->sval, "
	"(unsigned int)((REC->sval) >> 20), REC->vec >= 2 && !(REC->vec == 3)\n";

static void tracepoint_print_fmt_expressions(void **state)
{
	static const struct {
		uint64_t state;
		uint32_t vec;
		const char *want;
	} cases[] = {
		{ 0x3, 1, "prev_state=S|D vec=1 [action=TIMER] flags=A|0x2 u8=255 shift=4294967295 cmp=0" },
		{ 0x8, 7, "prev_state=R+ vec=7 [action=0x7] flags=0x8 u8=255 shift=4294967295 cmp=1" },
		{ 0x11, 3, "prev_state=S vec=3 [action=0x3] flags=A|B u8=255 shift=4294967295 cmp=0" },
	};
	struct peo_tp_format *f;

	(void)state;
	assert_int_equal(peo_tp_format_parse(&f, expression_format), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (int big = 0; big < 2; big++) {
			struct vec v = { .big = big };
			struct peo_record rec = { .sz = sizeof(rec), .swapped = big };

			vec_put64(&v, 7);
			vec_put64(&v, cases[i].state);
			vec_put32(&v, cases[i].vec);
			vec_put32(&v, 0);
			vec_put64(&v, (uint64_t)-1); /* sval */
			assert_printed(f, &rec, v.b, v.n, cases[i].want);
		}
	peo_tp_format_free(f);
}

/* As in C, the branch of ?: not taken and the right of && or || once the
 * left decides are not evaluated: a guarded division by zero is no error;
 * an unguarded one is -EDOM. */
static void tracepoint_print_fmt_short_circuits(void **state)
{
	static const struct {
		int32_t a;
		const char *want;
	} cases[] = { { 0, "0 0 1" }, { 4, "25 1 1" } };
	struct peo_tp_format *f;
	struct peo_record rec = { .sz = sizeof(rec), .swapped = 0 };
	char text[64];

	(void)state;
	f = one_field_format("int a", 4, "\"%d %d %d\", REC->a ? 100 / REC->a : 0, "
			     "REC->a && 10 / REC->a, !REC->a || 8 / REC->a");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_printed(f, &rec, &cases[i].a, 4, cases[i].want);
	peo_tp_format_free(f);
	f = one_field_format("int a", 4, "\"%d\", 100 / REC->a");
	assert_int_equal(peo_tp_format_print(f, &rec, &cases[0].a, 4, text, sizeof(text)), -EDOM);
	assert_error_contains("division by zero");
	peo_tp_format_free(f);
}

/*
 * What newer kernels' formats write, evaluated as perf does: an array's
 * element (raw_syscalls' REC->args[i]), kernel variables the format does
 * not define taken as 0 (kmem's vmemmap_base, writeback's jiffies), casts
 * to struct pointers and typedefs (loff_t, and ones not known: the value
 * as it is), __builtin_expect(); table entries named by undefined
 * constants never match.  (The fields of
 * one_field_format() are signed: jiffies - 7 is -7 here.)
 */
static void tracepoint_print_fmt_kernel_idioms(void **state)
{
	uint64_t args[6] = { 7, 0x2400, 0, 0x7fe3e482b5e0, 1, (uint64_t)-4095 };
	struct peo_record rec = { .sz = sizeof(rec), .swapped = 0 };
	struct peo_tp_format *f;
	char text[64];

	(void)state;
	f = one_field_format("unsigned long args[6]", 48,
			     "\"(%lx, %lx, %lx) %d\", REC->args[1], REC->args[3], REC->args[5], "
			     "REC->args[1 + 3] == 1");
	assert_printed(f, &rec, args, sizeof(args), "(2400, 7fe3e482b5e0, fffffffffffff001) 1");
	peo_tp_format_free(f);
	f = one_field_format("unsigned long args[6]", 48, "\"%lx\", REC->args[6]");
	assert_int_equal(peo_tp_format_print(f, &rec, args, sizeof(args), text, sizeof(text)),
			 -ENOTSUP);
	assert_error_contains("subscript 6 past the 6 elements of 'args'");
	peo_tp_format_free(f);
	f = one_field_format("unsigned long pfn", 8,
			     "\"page=%p ofs=%lld age=%lu id=%d err=%ld\", REC->pfn != -1UL ? "
			     "(((struct page *)vmemmap_base) + (REC->pfn)) : ((void *)0), "
			     "((loff_t)REC->pfn) << 12, (jiffies - REC->pfn) / 1000, (ino_like_t)REC->pfn, "
			     "__builtin_expect(!!((unsigned long)(void *)(REC->pfn) >= (unsigned long)-4095), 0) "
			     "? REC->pfn : 0");
	assert_printed(f, &rec, &args[0], 8, "page=0x7 ofs=28672 age=0 id=7 err=0");
	assert_printed(f, &rec, &args[5], 8,
		       "page=0xfffffffffffff001 ofs=-16773120 age=4 id=-4095 err=-4095");
	assert_printed(f, &rec, &(uint64_t){ (uint64_t)-1 }, 8, /* NULL: %p as perf prints it */
		       "page=(nil) ofs=-4096 age=0 id=-1 err=-1");
	peo_tp_format_free(f);
	f = one_field_format("unsigned int mode", 4,
			     "\"%s %s\", __print_symbolic(REC->mode, { MODE_ABS, \"ABS\" }, { 1, \"REL\" }), "
			     "__print_flags(REC->mode, \"|\", { I_DIRTY_SYNC, \"I_DIRTY_SYNC\" }, "
			     "{ I_DIRTY_PAGES, \"I_DIRTY_PAGES\" })");
	assert_printed(f, &rec, &(uint32_t){ 0 }, 4, "0x0 "); /* flags of 0: nothing, as the kernel */
	assert_printed(f, &rec, &(uint32_t){ 1 }, 4, "REL 0x1");
	assert_printed(f, &rec, &(uint32_t){ 0x10 }, 4, "0x10 0x10");
	peo_tp_format_free(f);
}

/* Network addresses as the kernel and perf print them: %pI4 and %pi4,
 * %pI6, %pi6 and %pI6c (RFC 5952: the first longest run of two or more
 * zero groups as "::", a v4-mapped address in dotted quad), %pIS with
 * its port and compressed flags over a sockaddr_in or sockaddr_in6. */
static const char address_format[] =
	"name: addrs\nID: 8\nformat:\n"
	"\tfield:__u8 a4[4];\toffset:0;\tsize:4;\tsigned:0;\n"
	"\tfield:__u8 a6[16];\toffset:4;\tsize:16;\tsigned:0;\n"
	"\tfield:__u8 sa[28];\toffset:20;\tsize:28;\tsigned:0;\n"
	"\nprint fmt: \"%pI4 %pi4/%u %pI6c|%pI6 %pi6 %pISpc %pISc %pIS.\", REC->a4, REC->a4, 7, "
	"REC->a6, REC->a6, REC->a6, REC->sa, REC->sa, REC->sa\n";

static void tracepoint_print_fmt_addresses(void **state)
{
	static const struct {
		unsigned char a6[16];
		const char *compressed;
	} v6[] = {
		{ { [15] = 1 }, "::1" },
		{ { 0xfe, 0x80, [15] = 1 }, "fe80::1" },
		{ { 0 }, "::" },
		{ { [10] = 0xff, 0xff, 1, 2, 3, 4 }, "::ffff:1.2.3.4" },
		{ { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1 }, "2001:db8::1:0:0:1" },
		{ { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1 }, "2001:db8:0:1:1:1:1:1" },
		{ { 0x20, 0x01, 0x0d, 0xb8, [15] = 0 }, "2001:db8::" },
	};
	struct peo_tp_format *f;
	struct peo_record rec = { .sz = sizeof(rec), .swapped = 0 };
	char text[512], want[512];

	(void)state;
	assert_int_equal(peo_tp_format_parse(&f, address_format), 0);
	for (size_t i = 0; i < sizeof(v6) / sizeof(v6[0]); i++) {
		unsigned char p[48] = { 10, 0, 127, 0, 0, 1 }; /* a4 10.0.127.0, then a6 */
		const unsigned char *a = v6[i].a6;

		memcpy(p + 4, a, 16);
		/* sa: AF_INET6 (host order), port 443, flowinfo, the address, scope */
		p[20] = 10;
		p[22] = 0x01;
		p[23] = 0xbb;
		memcpy(p + 28, a, 16);
		char full[64] = "", digits[64] = "";

		for (int g = 0; g < 8; g++) { /* %pI6's eight groups, %pi6's 32 digits */
			snprintf(full + strlen(full), sizeof(full) - strlen(full), "%s%02x%02x",
				 g ? ":" : "", a[2 * g], a[2 * g + 1]);
			snprintf(digits + 4 * g, sizeof(digits) - 4 * (size_t)g, "%02x%02x", a[2 * g],
				 a[2 * g + 1]);
		}
		snprintf(want, sizeof(want), "10.0.127.0 010.000.127.000/7 %s|%s %s [%s]:443 %s %s.",
			 v6[i].compressed, full, digits, v6[i].compressed, v6[i].compressed, full);
		assert_printed(f, &rec, p, sizeof(p), want);
		/* AF_INET: port and address, no brackets */
		memset(p + 20, 0, 28);
		p[20] = 2;
		p[22] = 0x1f;
		p[23] = 0x90;
		memcpy(p + 24, "\xc0\xa8\x01\x02", 4);
		assert_true(peo_tp_format_print(f, &rec, p, sizeof(p), text, sizeof(text)) > 0);
		assert_non_null(strstr(text, " 192.168.1.2:8080 192.168.1.2 192.168.1.2."));
	}
	/* a family that is neither, and an address of no field */
	{
		unsigned char p[48] = { 0 };

		p[20] = 1; /* AF_UNIX: nothing, as perf prints */
		assert_true(peo_tp_format_print(f, &rec, p, sizeof(p), text, sizeof(text)) > 0);
		assert_non_null(strstr(text, " 00000000000000000000000000000000   ."));
	}
	peo_tp_format_free(f);
	f = one_field_format("int a", 4, "\"%pI4\", REC->a + 1");
	assert_int_equal(peo_tp_format_print(f, &rec, &(int32_t){ 1 }, 4, text, sizeof(text)),
			 -ENOTSUP);
	assert_error_contains("an address of 'REC->a + 1', not of a field");
	peo_tp_format_free(f);
	/* a field of another size than the address's: perf's words for it */
	f = one_field_format("__u8 a[8]", 8, "\"%pI4 %pI6c %pISpc\", REC->a, REC->a, REC->a");
	assert_printed(f, &rec, (const unsigned char[8]){ 2 }, 8, "INVALIDIPv4 INVALIDIPv6 INVALIDIPv4");
	assert_printed(f, &rec, (const unsigned char[8]){ 10 }, 8, "INVALIDIPv4 INVALIDIPv6 INVALIDIPv6");
	peo_tp_format_free(f);
}

/* A "const char *" printed with %s: the kernel string at that address in
 * the printk formats list (lines not of its form passed over; a trailing
 * "\n" escape dropped), else the address in hex, as perf prints it. */
static void tracepoint_print_fmt_kernel_strings(void **state)
{
	static const char list[] = "0xffffffff8281a2a4 : \"Start context switch\\n\"\n"
				   "garbage line\n"
				   "0xffffffff8283d1a6 : \"scale up\"\n"
				   "0xffffffff825218f8 : \"mas_split\"";
	struct tp_strings *strings;
	struct peo_tp_format *f;
	struct peo_record rec = { .sz = sizeof(rec), .swapped = 0 };

	(void)state;
	assert_int_equal(peo_tp_strings_parse(&strings, list, sizeof(list) - 1), 0);
	assert_string_equal(peo_tp_strings_find(strings, 0xffffffff825218f8ull), "mas_split");
	assert_null(peo_tp_strings_find(strings, 0xffffffff825218f9ull));
	f = one_field_format("const char * s", 8, "\"[%s]\", REC->s");
	assert_printed(f, &rec, &(uint64_t){ 0xffffffff8283d1a6ull }, 8, "[ffffffff8283d1a6]");
	peo_tp_format_set_strings(f, strings);
	assert_printed(f, &rec, &(uint64_t){ 0xffffffff8281a2a4ull }, 8, "[Start context switch]");
	assert_printed(f, &rec, &(uint64_t){ 0xffffffff8283d1a6ull }, 8, "[scale up]");
	assert_printed(f, &rec, &(uint64_t){ 0x1234 }, 8, "[1234]");
	peo_tp_format_free(f); /* and the strings it owns */
}

/* __get_cpumask()/__get_bitmask() as the kernel's trace prints "%*pb": 32 bits
 * to a hex group, highest first, comma-joined, each padded to its width;
 * the bitmap is unsigned longs in the payload's byte order. */
static void tracepoint_print_fmt_bitmasks(void **state)
{
	struct peo_tp_format *f;
	struct peo_record rec = { .sz = sizeof(rec), .swapped = 0 };
	unsigned char p[32] = { 0 };

	(void)state;
	f = one_field_format("__data_loc cpumask_t mask", 4,
			     "\"cpus=%s bits=%s\", __get_cpumask(mask), __get_bitmask(mask)");
	p[0] = 8; /* the mask at offset 8, 8 bytes long: 64 bits */
	p[2] = 8;
	p[8] = 0x03;
	assert_printed(f, &rec, p, 16, "cpus=00000000,00000003 bits=00000000,00000003");
	p[2] = 16; /* 128 bits: bits 0-1, 38 and 70 (the second long's bit 6) */
	p[12] = 0x40;
	p[16 + 0] = 0x40;
	assert_printed(f, &rec, p, 24, "cpus=00000000,00000040,00000040,00000003 "
				       "bits=00000000,00000040,00000040,00000003");
	p[2] = 4; /* a 32-bit long */
	assert_printed(f, &rec, p, 12, "cpus=00000003 bits=00000003");
	memset(p, 0, sizeof(p)); /* the other byte order: the data_loc and the long swapped */
	rec.swapped = 1;
	p[3] = 8;
	p[1] = 8;
	p[15] = 0x05;
	p[11] = 0x01; /* bit 32 */
	assert_printed(f, &rec, p, 16, "cpus=00000001,00000005 bits=00000001,00000005");
	peo_tp_format_free(f);
}

/* INT64_MIN / -1 overflows in C; the kernel's print fmt evaluator must not
 * trap on it (UBSan would say so here): it wraps, as the machine does, and
 * the remainder is 0.  A string argument keeps its comma. */
static void tracepoint_print_fmt_division_wraps(void **state)
{
	int64_t a = INT64_MIN;
	struct peo_tp_format *f = one_field_format("s64 a", 8, "\"%lld %lld %s\", REC->a / -1, "
						   "REC->a % -1, \"x,y\"");
	struct peo_record rec = { .sz = sizeof(rec), .swapped = 0 };

	(void)state;
	assert_printed(f, &rec, &a, 8, "-9223372036854775808 0 x,y");
	peo_tp_format_free(f);
}

/* Page faults sampled with the address fields: the pages the test touched. */
static void page_fault_samples_carry_their_addresses(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), npages = 16, n = 0;
	PEO_OPTS(peo_ring_opts, ro, .data_pages = 16);
	struct peo_record_parser *p;
	struct peo_ring *ring;
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	struct peo_attr a;
	unsigned char *mem;
	int fd;

	(void)state;
	peo_attr_init(&a);
	a.type = PEO_TYPE_SOFTWARE;
	a.config = PEO_COUNT_SW_PAGE_FAULTS_MIN;
	a.sample_period = 1;
	a.sample_type = PEO_SAMPLE_TID | PEO_SAMPLE_ADDR | PEO_SAMPLE_WEIGHT | PEO_SAMPLE_DATA_SRC |
			PEO_SAMPLE_TRANSACTION | PEO_SAMPLE_REGS_INTR | PEO_SAMPLE_PHYS_ADDR |
			PEO_SAMPLE_DATA_PAGE_SIZE;
	a.sample_regs_intr = 1ULL << REG_IP;
	a.exclude_kernel = 0;
	a.disabled = 1;
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd < 0)
		print_error("%s\n", peo_last_error());
	assert_true(fd >= 0);
	assert_int_equal(peo_ring_map(&ring, fd, &ro), 0);
	assert_int_equal(peo_record_parser_new(&p, NULL), 0);
	assert_int_equal(peo_record_parser_add(p, &a, NULL, 0), 0);
	mem = mmap(NULL, npages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(mem != MAP_FAILED);
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	for (size_t i = 0; i < npages; i++)
		mem[i * page + 123] = 1;
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	while (peo_ring_next(ring, &rec, NULL, 0) == 1) {
		struct peo_record r = { .sz = sizeof(r) };
		const struct peo_sample *s = &r.u.sample;
		uint64_t at;

		assert_int_equal(peo_record_parse(p, rec.data, rec.header.size, &r), 0);
		if (r.header.type != PEO_RECORD_SAMPLE || s->addr < (uintptr_t)mem ||
		    s->addr >= (uintptr_t)mem + npages * page)
			continue; /* a fault of the test's own code or stack */
		at = s->addr - (uintptr_t)mem;
		assert_int_equal(at % page, 123);
		assert_int_equal(at / page, n); /* in the order touched */
		assert_int_equal(s->tid, syscall(SYS_gettid));
		assert_int_equal(s->data_page_size, page);
		assert_int_equal(s->regs_intr_abi, PEO_SAMPLE_REGS_ABI_64);
		assert_int_equal(s->regs_intr_nr, 1);
		assert_true(in_text(peo_record_u64(&r, s->regs_intr, 0)));
		if (s->phys_addr) /* root sees physical addresses: same offset in the page */
			assert_int_equal(s->phys_addr % page, 123);
		n++;
	}
	assert_int_equal(n, npages);
	munmap(mem, npages * page);
	peo_record_parser_free(p);
	peo_ring_unmap(ring);
	close(fd);
}

/* A context switch is sampled inside the kernel: its chain starts there. */
static void kernel_callchains_start_with_the_kernel_marker(void **state)
{
	PEO_OPTS(peo_ring_opts, ro, .data_pages = 16);
	struct peo_record_parser *p;
	struct peo_ring *ring;
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	struct peo_attr a;
	size_t n = 0;
	int fd;

	(void)state;
	peo_attr_init(&a);
	a.type = PEO_TYPE_SOFTWARE;
	a.config = PEO_COUNT_SW_CONTEXT_SWITCHES;
	a.sample_period = 1;
	a.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_CALLCHAIN;
	a.disabled = 1;
	fd = peo_sys_open(&a, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(peo_ring_map(&ring, fd, &ro), 0);
	assert_int_equal(peo_record_parser_new(&p, NULL), 0);
	assert_int_equal(peo_record_parser_add(p, &a, NULL, 0), 0);
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	for (int i = 0; i < 5; i++)
		usleep(1000);
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	while (peo_ring_next(ring, &rec, NULL, 0) == 1) {
		struct peo_record r = { .sz = sizeof(r) };
		struct peo_callchain_iter it = { .sz = sizeof(it) };
		uint64_t ip;
		int64_t ctx, last = 0;
		int kernel = 0, user = 0;

		assert_int_equal(peo_record_parse(p, rec.data, rec.header.size, &r), 0);
		if (r.header.type != PEO_RECORD_SAMPLE)
			continue;
		assert_int_equal(peo_record_u64(&r, r.u.sample.callchain, 0),
				 PEO_CONTEXT_ENTRY(PEO_CONTEXT_KERNEL));
		peo_callchain_begin(&it, &r);
		while (peo_callchain_next(&it, &ip, &ctx) == 1) {
			kernel += ctx == PEO_CONTEXT_KERNEL && ip >= 0xffff800000000000ull;
			user += ctx == PEO_CONTEXT_USER && in_text(ip);
			assert_true(ctx == PEO_CONTEXT_KERNEL || ctx == PEO_CONTEXT_USER);
			assert_true(!(last == PEO_CONTEXT_USER && ctx == PEO_CONTEXT_KERNEL));
			last = ctx;
		}
		assert_true(kernel > 0);
		assert_true(user > 0); /* usleep's caller: this test */
		n++;
	}
	assert_true(n >= 5);
	peo_record_parser_free(p);
	peo_ring_unmap(ring);
	close(fd);
}

/* The fixed leading fields as the kernel writes them (perf_output_sample
 * and __perf_event_header__init_id), written out here on their own. */
static const struct {
	uint64_t bit;
	int pair;          /* two u32 */
	int in_trailer;
	const char *last;  /* the name a record cut 4 bytes into it gets */
} kernel_fixed[] = {
	{ PEO_SAMPLE_IDENTIFIER, 0, 1, "identifier" }, { PEO_SAMPLE_IP, 0, 0, "ip" },
	{ PEO_SAMPLE_TID, 1, 1, "tid" },              { PEO_SAMPLE_TIME, 0, 1, "time" },
	{ PEO_SAMPLE_ADDR, 0, 0, "addr" },            { PEO_SAMPLE_ID, 0, 1, "id" },
	{ PEO_SAMPLE_STREAM_ID, 0, 1, "stream_id" },  { PEO_SAMPLE_CPU, 1, 1, "cpu.res" },
	{ PEO_SAMPLE_PERIOD, 0, 0, "period" },
};

/* Field @i's value: every byte and both halves of a pair distinct, so a
 * swap or a misplaced field shows. */
static uint64_t fixed_value(size_t i)
{
	return 0x0102030405060700ULL + i;
}

static void put_fixed(struct vec *v, size_t i)
{
	if (kernel_fixed[i].pair) {
		vec_put32(v, (uint32_t)(fixed_value(i) >> 32));
		vec_put32(v, (uint32_t)fixed_value(i));
	} else {
		vec_put64(v, fixed_value(i));
	}
}

/* What the parse of a record with @mask of the fixed fields must hold. */
static void check_sample_id(const struct peo_sample_id *id, uint64_t mask)
{
	uint64_t want[PEO_ARRAY_SIZE(kernel_fixed)];

	for (size_t i = 0; i < PEO_ARRAY_SIZE(kernel_fixed); i++)
		want[i] = (mask & kernel_fixed[i].bit) ? fixed_value(i) : 0;
	assert_int_equal(id->fields, mask & (PEO_SAMPLE_TID | PEO_SAMPLE_TIME | PEO_SAMPLE_ID |
					     PEO_SAMPLE_STREAM_ID | PEO_SAMPLE_CPU |
					     PEO_SAMPLE_IDENTIFIER));
	assert_int_equal(id->identifier, want[0]);
	assert_int_equal(id->pid, (uint32_t)(want[2] >> 32));
	assert_int_equal(id->tid, (uint32_t)want[2]);
	assert_int_equal(id->time, want[3]);
	assert_int_equal(id->id, want[5]);
	assert_int_equal(id->stream_id, want[6]);
	assert_int_equal(id->cpu, (uint32_t)(want[7] >> 32));
	assert_int_equal(id->cpu_res, (uint32_t)want[7]);
}

/* Every subset of the nine fixed fields, in both byte orders: a SAMPLE's
 * fields, its pid and ip read without a parse, a LOST record's trailer,
 * the time peek finds in each, and the field a record cut short names. */
static void every_set_of_fixed_fields(void **state)
{
	(void)state;
	for (int big = 0; big < 2; big++)
		for (unsigned set = 0; set < 1u << PEO_ARRAY_SIZE(kernel_fixed); set++) {
			uint64_t mask = 0, t = 0, ip;
			struct peo_record_parser *p;
			const struct peo_sample *s;
			uint32_t pid;
			int both;
			struct peo_attr attr;
			struct peo_record r = { .sz = sizeof(r) };
			size_t last = 0;
			char want[96];
			struct vec v;

			for (size_t i = 0; i < PEO_ARRAY_SIZE(kernel_fixed); i++)
				if (set >> i & 1) {
					mask |= kernel_fixed[i].bit;
					last = i;
				}
			peo_test_base_attr(&attr, mask);
			p = peo_test_parser_for(big, &attr);

			vec_record_begin(&v, big, PEO_RECORD_SAMPLE, 0);
			for (size_t i = 0; i < PEO_ARRAY_SIZE(kernel_fixed); i++)
				if (set >> i & 1)
					put_fixed(&v, i);
			vec_record_end(&v);
			parse_ok(p, &v, &r);
			s = &r.u.sample;
			assert_int_equal(s->ip, (mask & PEO_SAMPLE_IP) ? fixed_value(1) : 0);
			assert_int_equal(s->addr, (mask & PEO_SAMPLE_ADDR) ? fixed_value(4) : 0);
			assert_int_equal(s->period, (mask & PEO_SAMPLE_PERIOD) ? fixed_value(8) : 0);
			assert_int_equal(s->pid, r.sample_id.pid);
			assert_int_equal(s->cpu_res, r.sample_id.cpu_res);
			check_sample_id(&r.sample_id, mask);
			/* the build-id tracker's two fields, without the parse */
			both = (mask & PEO_SAMPLE_TID) && (mask & PEO_SAMPLE_IP);
			pid = 0;
			ip = 0;
			assert_int_equal(peo_record_sample_pid_ip(p, v.b, v.n, &pid, &ip), both);
			assert_int_equal(pid, both ? s->pid : 0);
			assert_int_equal(ip, both ? fixed_value(1) : 0);
			assert_int_equal(peo_record_peek(p, v.b, v.n, &r, &t), !!(mask & PEO_SAMPLE_TIME));
			assert_int_equal(t, (mask & PEO_SAMPLE_TIME) ? fixed_value(3) : 0);

			if (set) { /* 4 bytes short: the last field, or a pair's second half */
				v.n -= 4;
				vec_record_end(&v);
				assert_int_equal(peo_record_sample_pid_ip(p, v.b, v.n, &pid, &ip), 0);
				assert_int_equal(peo_record_parse(p, v.b, v.n, &r), -EPROTO);
				if (kernel_fixed[last].pair)
					snprintf(want, sizeof(want), "field '%s' at byte %zu needs 4 "
						 "bytes, but the record has 0", kernel_fixed[last].last,
						 v.n);
				else
					snprintf(want, sizeof(want), "field '%s' at byte %zu needs 8 "
						 "bytes, but the record has 4", kernel_fixed[last].last,
						 v.n - 4);
				assert_error_contains(want);
			}

			vec_record_begin(&v, big, PEO_RECORD_LOST, 0);
			vec_put64(&v, 5);
			vec_put64(&v, 6);
			for (size_t i = 1; i < PEO_ARRAY_SIZE(kernel_fixed); i++) /* IDENTIFIER last */
				if ((set >> i & 1) && kernel_fixed[i].in_trailer)
					put_fixed(&v, i);
			if (set & 1)
				put_fixed(&v, 0);
			vec_record_end(&v);
			parse_ok(p, &v, &r);
			assert_int_equal(r.u.lost.id, 5);
			assert_int_equal(r.u.lost.lost, 6);
			check_sample_id(&r.sample_id, mask);
			assert_int_equal(peo_record_sample_pid_ip(p, v.b, v.n, &pid, &ip), 0); /* not a sample */
			t = 0;
			assert_int_equal(peo_record_peek(p, v.b, v.n, &r, &t), !!(mask & PEO_SAMPLE_TIME));
			assert_int_equal(t, (mask & PEO_SAMPLE_TIME) ? fixed_value(3) : 0);
			peo_record_parser_free(p);
		}
}

/* Samples of @a2 (id 200) and @a1 (id 101), a LOST trailer, an unknown id. */
static void parses_by_id(struct peo_record_parser *p, int big, const struct peo_attr *a1,
			 const struct peo_attr *a2)
{
	struct peo_record r = { .sz = sizeof(r) };
	struct vec v;

	vec_record_begin(&v, big, PEO_RECORD_SAMPLE, 0);
	vec_put64(&v, 200); vec_put32(&v, 7); vec_put32(&v, 8); vec_put64(&v, 5000);
	vec_record_end(&v);
	parse_ok(p, &v, &r);
	assert_int_equal(r.attr->sample_type, a2->sample_type);
	assert_int_equal(r.u.sample.tid, 8);
	assert_int_equal(r.u.sample.period, 5000);

	vec_record_begin(&v, big, PEO_RECORD_SAMPLE, 0);
	vec_put64(&v, 101); vec_put64(&v, 0xdead);
	vec_record_end(&v);
	parse_ok(p, &v, &r);
	assert_int_equal(r.attr->sample_type, a1->sample_type);
	assert_int_equal(r.u.sample.ip, 0xdead);

	/* A LOST record's trailer names its attr from the end. */
	vec_record_begin(&v, big, PEO_RECORD_LOST, 0);
	vec_put64(&v, 200); vec_put64(&v, 3);
	vec_put32(&v, 7); vec_put32(&v, 8); vec_put64(&v, 200); /* trailer: tid, identifier */
	vec_record_end(&v);
	parse_ok(p, &v, &r);
	assert_int_equal(r.u.lost.lost, 3);
	assert_int_equal(r.sample_id.tid, 8);
	assert_int_equal(r.sample_id.identifier, 200);

	vec_record_begin(&v, big, PEO_RECORD_SAMPLE, 0);
	vec_put64(&v, 999); vec_put64(&v, 1);
	vec_record_end(&v);
	assert_int_equal(peo_record_parse(p, v.b, v.n, &r), -ENOENT);
	assert_error_contains("id 999 belongs to no attr");
}

/* Several attrs in one stream: each record finds its own by IDENTIFIER. */
static void records_find_their_attr_by_id(void **state)
{
	(void)state;
	for (int big = 0; big < 2; big++) {
		PEO_OPTS(peo_record_parser_opts, o, .byte_order = big ? PEO_BYTE_ORDER_BIG
								       : PEO_BYTE_ORDER_LITTLE);
		struct peo_record_parser *p, *clone;
		struct peo_attr a1, a2, f1, f2, only_id;
		uint64_t id1[] = { 100, 101 }, id2[] = { 200 };

		peo_test_base_attr(&a1, PEO_SAMPLE_IDENTIFIER | PEO_SAMPLE_IP);
		peo_test_base_attr(&a2, PEO_SAMPLE_IDENTIFIER | PEO_SAMPLE_TID | PEO_SAMPLE_PERIOD);
		peo_test_foreign_attr(&f1, &a1, big);
		peo_test_foreign_attr(&f2, &a2, big);
		assert_int_equal(peo_record_parser_new(&p, &o), 0);
		assert_int_equal(peo_record_parser_add(p, &f1, id1, 2), 0);
		assert_int_equal(peo_record_parser_add(p, &f2, id2, 1), 0);
		/* An attr whose id would be elsewhere cannot join. */
		peo_test_base_attr(&only_id, PEO_SAMPLE_IP | PEO_SAMPLE_ID);
		peo_test_foreign_attr(&only_id, &only_id, big);
		assert_int_equal(peo_record_parser_add(p, &only_id, id2, 1), -EINVAL);
		assert_error_contains("PEO_SAMPLE_IDENTIFIER");
		parses_by_id(p, big, &a1, &a2);

		/* A clone parses the same with the original gone (its own
		 * attrs, ids and byte order: ASan sees any memory shared). */
		assert_int_equal(peo_record_parser_clone(&clone, p), 0);
		peo_record_parser_free(p);
		parses_by_id(clone, big, &a1, &a2);
		peo_record_parser_free(clone);
	}
	assert_int_equal(peo_record_parser_clone(&(struct peo_record_parser *){ NULL }, NULL), -EINVAL);
	assert_error_contains("argument 'p' is NULL");
}

/* CPU-wide switch records name the task on the other side of each switch. */
static void cpu_wide_switch_records(void **state)
{
	PEO_OPTS(peo_ring_opts, ro, .data_pages = 64);
	struct peo_record_parser *p;
	struct peo_ring *ring;
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	struct peo_attr a;
	int cpu, fd, outs = 0, ins = 0;
	pid_t me = (pid_t)syscall(SYS_gettid);

	(void)state;
	cpu = sched_getcpu();
	peo_test_pin_to_cpu(cpu);
	peo_attr_init(&a);
	a.type = PEO_TYPE_SOFTWARE;
	a.config = PEO_COUNT_SW_DUMMY;
	a.context_switch = 1;
	a.sample_id_all = 1;
	a.sample_type = PEO_SAMPLE_TID | PEO_SAMPLE_CPU;
	a.disabled = 1;
	fd = peo_sys_open(&a, -1, cpu, -1, PEO_FLAG_FD_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(peo_ring_map(&ring, fd, &ro), 0);
	assert_int_equal(peo_record_parser_new(&p, NULL), 0);
	assert_int_equal(peo_record_parser_add(p, &a, NULL, 0), 0);
	assert_int_equal(peo_sys_ioc_enable(fd, 0), 0);
	for (int i = 0; i < 5; i++)
		usleep(1000);
	assert_int_equal(peo_sys_ioc_disable(fd, 0), 0);
	while (peo_ring_next(ring, &rec, NULL, 0) == 1) {
		struct peo_record r = { .sz = sizeof(r) };

		assert_int_equal(peo_record_parse(p, rec.data, rec.header.size, &r), 0);
		if (r.header.type != PEO_RECORD_SWITCH_CPU_WIDE)
			continue;
		assert_int_equal(r.sample_id.cpu, cpu);
		/* Out: the trailer is us, next_prev the next task; in: the reverse. */
		if (r.u.sw.out && (pid_t)r.sample_id.tid == me) {
			assert_true((pid_t)r.u.sw.next_prev_tid != me);
			outs++;
		}
		if (!r.u.sw.out && (pid_t)r.sample_id.tid == me) {
			assert_true((pid_t)r.u.sw.next_prev_tid != me);
			ins++;
		}
	}
	assert_true(outs >= 5 && ins >= 5);
	peo_test_unpin();
	peo_record_parser_free(p);
	peo_ring_unmap(ring);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(sample_fields_machines_here_cannot_make),
		PEO_TEST(other_records_from_the_abi),
		PEO_TEST(weight_aux_and_read_records),
		PEO_TEST(kernel_samples_match_what_the_test_did),
		PEO_TEST(task_records_of_a_child),
		PEO_TEST(cgroup_record_of_a_mkdir),
		PEO_TEST(tracepoint_fields_by_name_either_order),
		PEO_TEST(tracepoint_print_fmt_expressions),
		PEO_TEST(tracepoint_print_fmt_short_circuits),
		PEO_TEST(tracepoint_print_fmt_kernel_idioms),
		PEO_TEST(tracepoint_print_fmt_addresses),
		PEO_TEST(tracepoint_print_fmt_kernel_strings),
		PEO_TEST(tracepoint_print_fmt_bitmasks),
		PEO_TEST(tracepoint_print_fmt_division_wraps),
		PEO_TEST(page_fault_samples_carry_their_addresses),
		PEO_TEST(kernel_callchains_start_with_the_kernel_marker),
		PEO_TEST(every_set_of_fixed_fields),
		PEO_TEST(records_find_their_attr_by_id),
		PEO_TEST(cpu_wide_switch_records),
	};

	return PEO_TEST_MAIN("record", tests);
}
