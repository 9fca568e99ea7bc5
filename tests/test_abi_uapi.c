/*
 * test_abi_uapi.c - peo's own ABI (include/peo/abi.h) against the system's
 * <linux/perf_event.h> and <linux/hw_breakpoint.h>.
 *
 * Public headers never include the kernel's uapi headers; this test is the one
 * place that sees both, and checks every field and constant the two define:
 *   - offsetof and sizeof of each field both structs have (union members too),
 *   - every one-bit attr flag and mmap capability bit, set by name in the
 *     kernel's struct and read back through ours (and the other way round),
 *   - every constant, from a table of {name, ours, theirs} rows.
 *
 * The floor is the Linux 6.1 uapi header (Debian 12).  Newer additions are
 * checked only when the system header has them:
 *   - PERF_ATTR_SIZE_VER8 (6.3) brings config3,
 *   - PERF_ATTR_SIZE_VER9 (config4) also stands for the additions that come
 *     with no macro of their own and are older than it: PERF_SAMPLE_BRANCH_COUNTERS,
 *     aux_action and its bits, and the deferred-callchain ABI (defer_callchain,
 *     defer_output, PERF_RECORD_CALLCHAIN_DEFERRED, PERF_CONTEXT_USER_DEFERRED).
 *     A header between those and VER9 leaves them unchecked, never miscompiled.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#if defined(__x86_64__) || defined(__aarch64__)
#include <asm/perf_regs.h>
#endif

#include "test_util.h"

#ifdef PERF_ATTR_SIZE_VER9
#define UAPI_HAS_VER9_ERA 1
#else
#define UAPI_HAS_VER9_ERA 0
#endif

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------ field layout */

struct field_row {
	const char *name;
	size_t ours_off, theirs_off;
	size_t ours_size, theirs_size;
	int ours_signed, theirs_signed;
};

#define MEMBER(type, f) (((type *)0)->f)
/* Arrays decay to pointers here and count as unsigned. */
#define IS_SIGNED(expr)                                                              \
	_Generic((expr), signed char: 1, short: 1, int: 1, long: 1, long long: 1, \
		 default: 0)
#define FIELD(ptype, ktype, pf, kf)                                                 \
	{ #kf, offsetof(ptype, pf), offsetof(ktype, kf), sizeof(MEMBER(ptype, pf)), \
	  sizeof(MEMBER(ktype, kf)), IS_SIGNED(MEMBER(ptype, pf)), IS_SIGNED(MEMBER(ktype, kf)) }

static int check_fields(const char *what, const struct field_row *rows, size_t n)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		const struct field_row *r = &rows[i];

		if (r->ours_off != r->theirs_off || r->ours_size != r->theirs_size ||
		    r->ours_signed != r->theirs_signed) {
			print_error("%s.%s: peo at %zu size %zu %s, uapi at %zu size %zu %s\n", what,
				    r->name, r->ours_off, r->ours_size,
				    r->ours_signed ? "signed" : "unsigned", r->theirs_off,
				    r->theirs_size, r->theirs_signed ? "signed" : "unsigned");
			bad++;
		}
	}
	print_message("%s: %zu fields checked, %d mismatched\n", what, n, bad);
	return bad;
}

#define ATTR(f) FIELD(struct peo_attr, struct perf_event_attr, f, f)

static void test_attr_layout(void **state)
{
	static const struct field_row rows[] = {
		ATTR(type),
		ATTR(size),
		ATTR(config),
		ATTR(sample_period),
		ATTR(sample_freq),
		ATTR(sample_type),
		ATTR(read_format),
		ATTR(wakeup_events),
		ATTR(wakeup_watermark),
		ATTR(bp_type),
		ATTR(bp_addr),
		ATTR(kprobe_func),
		ATTR(uprobe_path),
		ATTR(config1),
		ATTR(bp_len),
		ATTR(kprobe_addr),
		ATTR(probe_offset),
		ATTR(config2),
		ATTR(branch_sample_type),
		ATTR(sample_regs_user),
		ATTR(sample_stack_user),
		ATTR(clockid),
		ATTR(sample_regs_intr),
		ATTR(aux_watermark),
		ATTR(sample_max_stack),
		ATTR(__reserved_2),
		ATTR(aux_sample_size),
#if UAPI_HAS_VER9_ERA
		ATTR(aux_action),
#elif !defined(PERF_ATTR_SIZE_VER8)
		/* Before 6.13 the word was a plain __reserved_3 (a bitfield since). */
		FIELD(struct peo_attr, struct perf_event_attr, aux_action, __reserved_3),
#endif
		ATTR(sig_data),
	};
	/* The kernel struct ends at its newest size; ours has that size too. */
	static const uint64_t peo_sizes[] = {
		PEO_ATTR_SIZE_VER0, PEO_ATTR_SIZE_VER1, PEO_ATTR_SIZE_VER2, PEO_ATTR_SIZE_VER3,
		PEO_ATTR_SIZE_VER4, PEO_ATTR_SIZE_VER5, PEO_ATTR_SIZE_VER6, PEO_ATTR_SIZE_VER7,
		PEO_ATTR_SIZE_VER8, PEO_ATTR_SIZE_VER9,
	};
	int known = 0;

	(void)state;
	assert_int_equal(check_fields("perf_event_attr", rows, ARRAY_LEN(rows)), 0);

	assert_true(sizeof(struct perf_event_attr) <= sizeof(struct peo_attr));
	for (size_t i = 0; i < ARRAY_LEN(peo_sizes); i++)
		known |= peo_sizes[i] == sizeof(struct perf_event_attr);
	if (!known)
		print_error("sizeof(struct perf_event_attr) = %zu is no PEO_ATTR_SIZE_VERn\n",
			    sizeof(struct perf_event_attr));
	assert_true(known);
#if defined(PERF_ATTR_SIZE_VER9)
	assert_int_equal(sizeof(struct perf_event_attr), PERF_ATTR_SIZE_VER9);
#elif defined(PERF_ATTR_SIZE_VER8)
	assert_int_equal(sizeof(struct perf_event_attr), PERF_ATTR_SIZE_VER8);
#else
	assert_int_equal(sizeof(struct perf_event_attr), PERF_ATTR_SIZE_VER7);
#endif
}

#define MMAP(f) FIELD(struct peo_mmap_page, struct perf_event_mmap_page, f, f)

static void test_mmap_page_layout(void **state)
{
	static const struct field_row rows[] = {
		MMAP(version),
		MMAP(compat_version),
		MMAP(lock),
		MMAP(index),
		MMAP(offset),
		MMAP(time_enabled),
		MMAP(time_running),
		MMAP(capabilities),
		MMAP(pmc_width),
		MMAP(time_shift),
		MMAP(time_mult),
		MMAP(time_offset),
		MMAP(time_zero),
		MMAP(size),
		MMAP(__reserved_1),
		MMAP(time_cycles),
		MMAP(time_mask),
		MMAP(__reserved),
		MMAP(data_head),
		MMAP(data_tail),
		MMAP(data_offset),
		MMAP(data_size),
		MMAP(aux_head),
		MMAP(aux_tail),
		MMAP(aux_offset),
		MMAP(aux_size),
	};

	(void)state;
	assert_int_equal(check_fields("perf_event_mmap_page", rows, ARRAY_LEN(rows)), 0);
	assert_int_equal(sizeof(struct peo_mmap_page), sizeof(struct perf_event_mmap_page));
}

static void test_header_and_query_bpf_layout(void **state)
{
	static const struct field_row rows[] = {
		FIELD(struct peo_event_header, struct perf_event_header, type, type),
		FIELD(struct peo_event_header, struct perf_event_header, misc, misc),
		FIELD(struct peo_event_header, struct perf_event_header, size, size),
	};
	static const struct field_row qrows[] = {
		FIELD(struct peo_query_bpf, struct perf_event_query_bpf, ids_len, ids_len),
		FIELD(struct peo_query_bpf, struct perf_event_query_bpf, prog_cnt, prog_cnt),
	};

	(void)state;
	assert_int_equal(check_fields("perf_event_header", rows, ARRAY_LEN(rows)), 0);
	assert_int_equal(sizeof(struct peo_event_header), sizeof(struct perf_event_header));
	assert_int_equal(check_fields("perf_event_query_bpf", qrows, ARRAY_LEN(qrows)), 0);
	assert_int_equal(sizeof(struct peo_query_bpf), sizeof(struct perf_event_query_bpf));
	/* ids[] follows our header struct, as the kernel's flexible array does. */
	assert_int_equal(offsetof(struct perf_event_query_bpf, ids), sizeof(struct peo_query_bpf));
	assert_int_equal(sizeof(MEMBER(struct perf_event_query_bpf, ids[0])), sizeof(uint32_t));
}

/* ------------------------------------------------------------- flag bits */

static int flag_result(const char *what, const char *name, int ok, uint64_t got_field,
		       uint64_t want_field, uint64_t got_word, uint64_t want_word)
{
	if (ok)
		return 0;
	print_error("%s.%s: reads %" PRIu64 " (expected %" PRIu64 "), word 0x%016" PRIx64
		    " (expected 0x%016" PRIx64 ")\n",
		    what, name, got_field, want_field, got_word, want_word);
	return 1;
}

/*
 * Set @kf = @val in a zeroed kernel struct and copy it into ours: our @pf must
 * read @val and our whole @word must equal @want.  Then the other way: our
 * @word = @want copied into a zeroed kernel struct must read @kf == @val.
 */
#define CHECK_BITFIELD(KT, PT, word, kf, pf, val, want)                                     \
	do {                                                                                 \
		KT k_;                                                                       \
		PT p_;                                                                       \
		uint64_t want_ = (want);                                                     \
		memset(&k_, 0, sizeof(k_));                                                  \
		memset(&p_, 0, sizeof(p_));                                                  \
		k_.kf = (val);                                                               \
		memcpy(&p_, &k_, sizeof(k_));                                                \
		bad += flag_result("peo view of uapi " #KT, #kf " -> " #pf,                  \
				   p_.pf == (val) && p_.word == want_, p_.pf, (val), p_.word, \
				   want_);                                                   \
		memset(&p_, 0, sizeof(p_));                                                  \
		p_.word = want_;                                                             \
		memcpy(&k_, &p_, sizeof(k_));                                                \
		bad += flag_result("uapi view of peo " #PT, #word " -> " #kf, k_.kf == (val), \
				   k_.kf, (val), p_.word, want_);                            \
		checked++;                                                                   \
	} while (0)

#define ATTR_BIT(f, BIT)                                                           \
	CHECK_BITFIELD(struct perf_event_attr, struct peo_attr, flags, f, f, 1, \
		       PEO_ATTR_FLAG(PEO_ATTR_BIT_##BIT))

static void test_attr_flag_bits(void **state)
{
	int bad = 0, checked = 0;

	(void)state;
	ATTR_BIT(disabled, DISABLED);
	ATTR_BIT(inherit, INHERIT);
	ATTR_BIT(pinned, PINNED);
	ATTR_BIT(exclusive, EXCLUSIVE);
	ATTR_BIT(exclude_user, EXCLUDE_USER);
	ATTR_BIT(exclude_kernel, EXCLUDE_KERNEL);
	ATTR_BIT(exclude_hv, EXCLUDE_HV);
	ATTR_BIT(exclude_idle, EXCLUDE_IDLE);
	ATTR_BIT(mmap, MMAP);
	ATTR_BIT(comm, COMM);
	ATTR_BIT(freq, FREQ);
	ATTR_BIT(inherit_stat, INHERIT_STAT);
	ATTR_BIT(enable_on_exec, ENABLE_ON_EXEC);
	ATTR_BIT(task, TASK);
	ATTR_BIT(watermark, WATERMARK);
	/* precise_ip is two bits: 3 sets both. */
	CHECK_BITFIELD(struct perf_event_attr, struct peo_attr, flags, precise_ip, precise_ip, 3,
		       PEO_ATTR_FLAG(PEO_ATTR_BIT_PRECISE_IP) |
			       PEO_ATTR_FLAG(PEO_ATTR_BIT_PRECISE_IP + 1));
	ATTR_BIT(mmap_data, MMAP_DATA);
	ATTR_BIT(sample_id_all, SAMPLE_ID_ALL);
	ATTR_BIT(exclude_host, EXCLUDE_HOST);
	ATTR_BIT(exclude_guest, EXCLUDE_GUEST);
	ATTR_BIT(exclude_callchain_kernel, EXCLUDE_CALLCHAIN_KERNEL);
	ATTR_BIT(exclude_callchain_user, EXCLUDE_CALLCHAIN_USER);
	ATTR_BIT(mmap2, MMAP2);
	ATTR_BIT(comm_exec, COMM_EXEC);
	ATTR_BIT(use_clockid, USE_CLOCKID);
	ATTR_BIT(context_switch, CONTEXT_SWITCH);
	ATTR_BIT(write_backward, WRITE_BACKWARD);
	ATTR_BIT(namespaces, NAMESPACES);
	ATTR_BIT(ksymbol, KSYMBOL);
	ATTR_BIT(bpf_event, BPF_EVENT);
	ATTR_BIT(aux_output, AUX_OUTPUT);
	ATTR_BIT(cgroup, CGROUP);
	ATTR_BIT(text_poke, TEXT_POKE);
	ATTR_BIT(build_id, BUILD_ID);
	ATTR_BIT(inherit_thread, INHERIT_THREAD);
	ATTR_BIT(remove_on_exec, REMOVE_ON_EXEC);
	ATTR_BIT(sigtrap, SIGTRAP);
	/*
	 * The kernel's __reserved_1 starts right after the last bit it names: at
	 * PEO_ATTR_BIT_RESERVED, or, on a header from before the defer_* bits, at
	 * PEO_ATTR_BIT_DEFER_CALLCHAIN (our newer bits sit where it reserves).
	 */
	{
		struct perf_event_attr k;
		struct peo_attr p;
		uint64_t at_reserved = PEO_ATTR_FLAG(PEO_ATTR_BIT_RESERVED);
		uint64_t at_defer = PEO_ATTR_FLAG(PEO_ATTR_BIT_DEFER_CALLCHAIN);
		int ok;

		memset(&k, 0, sizeof(k));
		memset(&p, 0, sizeof(p));
		k.__reserved_1 = 1;
		memcpy(&p, &k, sizeof(k));
		ok = p.flags == at_reserved || (!UAPI_HAS_VER9_ERA && p.flags == at_defer);
		bad += flag_result("peo view of uapi struct perf_event_attr",
				   "__reserved_1 (first reserved bit)", ok, 1, 1, p.flags,
				   UAPI_HAS_VER9_ERA ? at_reserved : at_defer);
		if (ok && p.flags == at_defer)
			bad += flag_result("peo view of uapi struct perf_event_attr",
					   "__reserved_1 -> defer_callchain", p.defer_callchain == 1,
					   p.defer_callchain, 1, p.flags, at_defer);
		checked++;
	}
	/* Our own reserved field starts at PEO_ATTR_BIT_RESERVED. */
	{
		struct peo_attr p;

		memset(&p, 0, sizeof(p));
		p.__reserved_1 = 1;
		bad += flag_result("struct peo_attr", "__reserved_1",
				   p.flags == PEO_ATTR_FLAG(PEO_ATTR_BIT_RESERVED), 1, 1, p.flags,
				   PEO_ATTR_FLAG(PEO_ATTR_BIT_RESERVED));
	}
	print_message("perf_event_attr: %d flag bitfields checked both ways, %d mismatched\n",
		      checked, bad);
	assert_int_equal(bad, 0);
}

static void test_aux_action_bits(void **state)
{
#if UAPI_HAS_VER9_ERA
	int bad = 0, checked = 0;

	(void)state;
	CHECK_BITFIELD(struct perf_event_attr, struct peo_attr, aux_action, aux_start_paused,
		       aux_start_paused, 1, 1U << PEO_AUX_ACTION_BIT_START_PAUSED);
	CHECK_BITFIELD(struct perf_event_attr, struct peo_attr, aux_action, aux_pause, aux_pause,
		       1, 1U << PEO_AUX_ACTION_BIT_PAUSE);
	CHECK_BITFIELD(struct perf_event_attr, struct peo_attr, aux_action, aux_resume, aux_resume,
		       1, 1U << PEO_AUX_ACTION_BIT_RESUME);
	print_message("aux_action: %d bitfields checked both ways, %d mismatched\n", checked, bad);
	assert_int_equal(bad, 0);
#else
	(void)state;
	PEO_SKIP("system <linux/perf_event.h> has no PERF_ATTR_SIZE_VER9: aux_action bits not "
		 "compared with it (test_newer_abi_documented checks them against Linux's header)");
#endif
}

#define CAP_BIT(f, mask)                                                                   \
	CHECK_BITFIELD(struct perf_event_mmap_page, struct peo_mmap_page, capabilities, f, f, \
		       1, mask)

static void test_mmap_capability_bits(void **state)
{
	int bad = 0, checked = 0;

	(void)state;
	CAP_BIT(cap_bit0, PEO_CAP_BIT0);
	CAP_BIT(cap_bit0_is_deprecated, PEO_CAP_BIT0_IS_DEPRECATED);
	CAP_BIT(cap_user_rdpmc, PEO_CAP_USER_RDPMC);
	CAP_BIT(cap_user_time, PEO_CAP_USER_TIME);
	CAP_BIT(cap_user_time_zero, PEO_CAP_USER_TIME_ZERO);
	CAP_BIT(cap_user_time_short, PEO_CAP_USER_TIME_SHORT);
	/* The reserved field starts right after the last named capability. */
	CAP_BIT(cap_____res, PEO_CAP_USER_TIME_SHORT << 1);
	print_message("perf_event_mmap_page: %d capability bitfields checked both ways, "
		      "%d mismatched\n",
		      checked, bad);
	assert_int_equal(bad, 0);
}

/* -------------------------------------------------------------- constants */

struct const_row {
	const char *name;
	uint64_t ours, theirs;
};

/* The one row macro; SAME() covers the common PEO_x / PERF_x naming. */
#define ROW(name, ours, theirs) { name, (uint64_t)(ours), (uint64_t)(theirs) }
#define SAME(x) ROW(#x, PEO_##x, PERF_##x)

static int check_consts(const char *what, const struct const_row *rows, size_t n)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (rows[i].ours != rows[i].theirs) {
			print_error("%s: peo 0x%" PRIx64 " != uapi 0x%" PRIx64 "\n", rows[i].name,
				    rows[i].ours, rows[i].theirs);
			bad++;
		}
	}
	print_message("%s: %zu constants checked, %d mismatched\n", what, n, bad);
	return bad;
}

static void test_event_id_constants(void **state)
{
	static const struct const_row rows[] = {
		SAME(TYPE_HARDWARE),
		SAME(TYPE_SOFTWARE),
		SAME(TYPE_TRACEPOINT),
		SAME(TYPE_HW_CACHE),
		SAME(TYPE_RAW),
		SAME(TYPE_BREAKPOINT),
#ifdef PERF_PMU_TYPE_SHIFT
		SAME(PMU_TYPE_SHIFT),
#endif
#ifdef PERF_HW_EVENT_MASK
		SAME(HW_EVENT_MASK),
#endif
		SAME(COUNT_HW_CPU_CYCLES),
		SAME(COUNT_HW_INSTRUCTIONS),
		SAME(COUNT_HW_CACHE_REFERENCES),
		SAME(COUNT_HW_CACHE_MISSES),
		SAME(COUNT_HW_BRANCH_INSTRUCTIONS),
		SAME(COUNT_HW_BRANCH_MISSES),
		SAME(COUNT_HW_BUS_CYCLES),
		SAME(COUNT_HW_STALLED_CYCLES_FRONTEND),
		SAME(COUNT_HW_STALLED_CYCLES_BACKEND),
		SAME(COUNT_HW_REF_CPU_CYCLES),
		SAME(COUNT_HW_CACHE_L1D),
		SAME(COUNT_HW_CACHE_L1I),
		SAME(COUNT_HW_CACHE_LL),
		SAME(COUNT_HW_CACHE_DTLB),
		SAME(COUNT_HW_CACHE_ITLB),
		SAME(COUNT_HW_CACHE_BPU),
		SAME(COUNT_HW_CACHE_NODE),
		SAME(COUNT_HW_CACHE_OP_READ),
		SAME(COUNT_HW_CACHE_OP_WRITE),
		SAME(COUNT_HW_CACHE_OP_PREFETCH),
		SAME(COUNT_HW_CACHE_RESULT_ACCESS),
		SAME(COUNT_HW_CACHE_RESULT_MISS),
		SAME(COUNT_SW_CPU_CLOCK),
		SAME(COUNT_SW_TASK_CLOCK),
		SAME(COUNT_SW_PAGE_FAULTS),
		SAME(COUNT_SW_CONTEXT_SWITCHES),
		SAME(COUNT_SW_CPU_MIGRATIONS),
		SAME(COUNT_SW_PAGE_FAULTS_MIN),
		SAME(COUNT_SW_PAGE_FAULTS_MAJ),
		SAME(COUNT_SW_ALIGNMENT_FAULTS),
		SAME(COUNT_SW_EMULATION_FAULTS),
		SAME(COUNT_SW_DUMMY),
		SAME(COUNT_SW_BPF_OUTPUT),
		SAME(COUNT_SW_CGROUP_SWITCHES),
		/* <linux/hw_breakpoint.h> */
		ROW("HW_BREAKPOINT_LEN_1", PEO_BP_LEN_1, HW_BREAKPOINT_LEN_1),
		ROW("HW_BREAKPOINT_LEN_2", PEO_BP_LEN_2, HW_BREAKPOINT_LEN_2),
		ROW("HW_BREAKPOINT_LEN_3", PEO_BP_LEN_3, HW_BREAKPOINT_LEN_3),
		ROW("HW_BREAKPOINT_LEN_4", PEO_BP_LEN_4, HW_BREAKPOINT_LEN_4),
		ROW("HW_BREAKPOINT_LEN_5", PEO_BP_LEN_5, HW_BREAKPOINT_LEN_5),
		ROW("HW_BREAKPOINT_LEN_6", PEO_BP_LEN_6, HW_BREAKPOINT_LEN_6),
		ROW("HW_BREAKPOINT_LEN_7", PEO_BP_LEN_7, HW_BREAKPOINT_LEN_7),
		ROW("HW_BREAKPOINT_LEN_8", PEO_BP_LEN_8, HW_BREAKPOINT_LEN_8),
		ROW("HW_BREAKPOINT_EMPTY", PEO_BP_EMPTY, HW_BREAKPOINT_EMPTY),
		ROW("HW_BREAKPOINT_R", PEO_BP_R, HW_BREAKPOINT_R),
		ROW("HW_BREAKPOINT_W", PEO_BP_W, HW_BREAKPOINT_W),
		ROW("HW_BREAKPOINT_RW", PEO_BP_RW, HW_BREAKPOINT_RW),
		ROW("HW_BREAKPOINT_X", PEO_BP_X, HW_BREAKPOINT_X),
		ROW("HW_BREAKPOINT_INVALID", PEO_BP_INVALID, HW_BREAKPOINT_INVALID),
	};

	(void)state;
	assert_int_equal(check_consts("event types and ids", rows, ARRAY_LEN(rows)), 0);
}

static void test_sample_constants(void **state)
{
	static const struct const_row rows[] = {
		SAME(SAMPLE_IP),
		SAME(SAMPLE_TID),
		SAME(SAMPLE_TIME),
		SAME(SAMPLE_ADDR),
		SAME(SAMPLE_READ),
		SAME(SAMPLE_CALLCHAIN),
		SAME(SAMPLE_ID),
		SAME(SAMPLE_CPU),
		SAME(SAMPLE_PERIOD),
		SAME(SAMPLE_STREAM_ID),
		SAME(SAMPLE_RAW),
		SAME(SAMPLE_BRANCH_STACK),
		SAME(SAMPLE_REGS_USER),
		SAME(SAMPLE_STACK_USER),
		SAME(SAMPLE_WEIGHT),
		SAME(SAMPLE_DATA_SRC),
		SAME(SAMPLE_IDENTIFIER),
		SAME(SAMPLE_TRANSACTION),
		SAME(SAMPLE_REGS_INTR),
		SAME(SAMPLE_PHYS_ADDR),
		SAME(SAMPLE_AUX),
		SAME(SAMPLE_CGROUP),
		SAME(SAMPLE_DATA_PAGE_SIZE),
		SAME(SAMPLE_CODE_PAGE_SIZE),
		SAME(SAMPLE_WEIGHT_STRUCT),
		SAME(SAMPLE_WEIGHT_TYPE),
		SAME(SAMPLE_BRANCH_USER_SHIFT),
		SAME(SAMPLE_BRANCH_KERNEL_SHIFT),
		SAME(SAMPLE_BRANCH_HV_SHIFT),
		SAME(SAMPLE_BRANCH_ANY_SHIFT),
		SAME(SAMPLE_BRANCH_ANY_CALL_SHIFT),
		SAME(SAMPLE_BRANCH_ANY_RETURN_SHIFT),
		SAME(SAMPLE_BRANCH_IND_CALL_SHIFT),
		SAME(SAMPLE_BRANCH_ABORT_TX_SHIFT),
		SAME(SAMPLE_BRANCH_IN_TX_SHIFT),
		SAME(SAMPLE_BRANCH_NO_TX_SHIFT),
		SAME(SAMPLE_BRANCH_COND_SHIFT),
		SAME(SAMPLE_BRANCH_CALL_STACK_SHIFT),
		SAME(SAMPLE_BRANCH_IND_JUMP_SHIFT),
		SAME(SAMPLE_BRANCH_CALL_SHIFT),
		SAME(SAMPLE_BRANCH_NO_FLAGS_SHIFT),
		SAME(SAMPLE_BRANCH_NO_CYCLES_SHIFT),
		SAME(SAMPLE_BRANCH_TYPE_SAVE_SHIFT),
		SAME(SAMPLE_BRANCH_HW_INDEX_SHIFT),
		SAME(SAMPLE_BRANCH_PRIV_SAVE_SHIFT),
		SAME(SAMPLE_BRANCH_USER),
		SAME(SAMPLE_BRANCH_KERNEL),
		SAME(SAMPLE_BRANCH_HV),
		SAME(SAMPLE_BRANCH_ANY),
		SAME(SAMPLE_BRANCH_ANY_CALL),
		SAME(SAMPLE_BRANCH_ANY_RETURN),
		SAME(SAMPLE_BRANCH_IND_CALL),
		SAME(SAMPLE_BRANCH_ABORT_TX),
		SAME(SAMPLE_BRANCH_IN_TX),
		SAME(SAMPLE_BRANCH_NO_TX),
		SAME(SAMPLE_BRANCH_COND),
		SAME(SAMPLE_BRANCH_CALL_STACK),
		SAME(SAMPLE_BRANCH_IND_JUMP),
		SAME(SAMPLE_BRANCH_CALL),
		SAME(SAMPLE_BRANCH_NO_FLAGS),
		SAME(SAMPLE_BRANCH_NO_CYCLES),
		SAME(SAMPLE_BRANCH_TYPE_SAVE),
		SAME(SAMPLE_BRANCH_HW_INDEX),
		SAME(SAMPLE_BRANCH_PRIV_SAVE),
		SAME(SAMPLE_BRANCH_PLM_ALL),
		SAME(BR_UNKNOWN),
		SAME(BR_COND),
		SAME(BR_UNCOND),
		SAME(BR_IND),
		SAME(BR_CALL),
		SAME(BR_IND_CALL),
		SAME(BR_RET),
		SAME(BR_SYSCALL),
		SAME(BR_SYSRET),
		SAME(BR_COND_CALL),
		SAME(BR_COND_RET),
		SAME(BR_ERET),
		SAME(BR_IRQ),
		SAME(BR_SERROR),
		SAME(BR_NO_TX),
		SAME(BR_EXTEND_ABI),
		SAME(BR_SPEC_NA),
		SAME(BR_SPEC_WRONG_PATH),
		SAME(BR_NON_SPEC_CORRECT_PATH),
		SAME(BR_SPEC_CORRECT_PATH),
		SAME(BR_NEW_FAULT_ALGN),
		SAME(BR_NEW_FAULT_DATA),
		SAME(BR_NEW_FAULT_INST),
		SAME(BR_NEW_ARCH_1),
		SAME(BR_NEW_ARCH_2),
		SAME(BR_NEW_ARCH_3),
		SAME(BR_NEW_ARCH_4),
		SAME(BR_NEW_ARCH_5),
		SAME(BR_PRIV_UNKNOWN),
		SAME(BR_PRIV_USER),
		SAME(BR_PRIV_KERNEL),
		SAME(BR_PRIV_HV),
		SAME(SAMPLE_REGS_ABI_NONE),
		SAME(SAMPLE_REGS_ABI_32),
		SAME(SAMPLE_REGS_ABI_64),
		SAME(TXN_ELISION),
		SAME(TXN_TRANSACTION),
		SAME(TXN_SYNC),
		SAME(TXN_ASYNC),
		SAME(TXN_RETRY),
		SAME(TXN_CONFLICT),
		SAME(TXN_CAPACITY_WRITE),
		SAME(TXN_CAPACITY_READ),
		SAME(TXN_ABORT_MASK),
		SAME(TXN_ABORT_SHIFT),
		SAME(FORMAT_TOTAL_TIME_ENABLED),
		SAME(FORMAT_TOTAL_TIME_RUNNING),
		SAME(FORMAT_ID),
		SAME(FORMAT_GROUP),
		SAME(FORMAT_LOST),
		SAME(ATTR_SIZE_VER0),
		SAME(ATTR_SIZE_VER1),
		SAME(ATTR_SIZE_VER2),
		SAME(ATTR_SIZE_VER3),
		SAME(ATTR_SIZE_VER4),
		SAME(ATTR_SIZE_VER5),
		SAME(ATTR_SIZE_VER6),
		SAME(ATTR_SIZE_VER7),
	};

	(void)state;
	assert_int_equal(check_consts("sample, branch and read formats", rows, ARRAY_LEN(rows)),
			 0);
}

static void test_record_constants(void **state)
{
	static const struct const_row rows[] = {
		SAME(RECORD_MMAP),
		SAME(RECORD_LOST),
		SAME(RECORD_COMM),
		SAME(RECORD_EXIT),
		SAME(RECORD_THROTTLE),
		SAME(RECORD_UNTHROTTLE),
		SAME(RECORD_FORK),
		SAME(RECORD_READ),
		SAME(RECORD_SAMPLE),
		SAME(RECORD_MMAP2),
		SAME(RECORD_AUX),
		SAME(RECORD_ITRACE_START),
		SAME(RECORD_LOST_SAMPLES),
		SAME(RECORD_SWITCH),
		SAME(RECORD_SWITCH_CPU_WIDE),
		SAME(RECORD_NAMESPACES),
		SAME(RECORD_KSYMBOL),
		SAME(RECORD_BPF_EVENT),
		SAME(RECORD_CGROUP),
		SAME(RECORD_TEXT_POKE),
		SAME(RECORD_AUX_OUTPUT_HW_ID),
		SAME(RECORD_MISC_CPUMODE_MASK),
		SAME(RECORD_MISC_CPUMODE_UNKNOWN),
		SAME(RECORD_MISC_KERNEL),
		SAME(RECORD_MISC_USER),
		SAME(RECORD_MISC_HYPERVISOR),
		SAME(RECORD_MISC_GUEST_KERNEL),
		SAME(RECORD_MISC_GUEST_USER),
		SAME(RECORD_MISC_PROC_MAP_PARSE_TIMEOUT),
		SAME(RECORD_MISC_MMAP_DATA),
		SAME(RECORD_MISC_COMM_EXEC),
		SAME(RECORD_MISC_FORK_EXEC),
		SAME(RECORD_MISC_SWITCH_OUT),
		SAME(RECORD_MISC_EXACT_IP),
		SAME(RECORD_MISC_SWITCH_OUT_PREEMPT),
		SAME(RECORD_MISC_MMAP_BUILD_ID),
		SAME(RECORD_MISC_EXT_RESERVED),
		SAME(CONTEXT_HV),
		SAME(CONTEXT_KERNEL),
		SAME(CONTEXT_USER),
		SAME(CONTEXT_GUEST),
		SAME(CONTEXT_GUEST_KERNEL),
		SAME(CONTEXT_GUEST_USER),
		SAME(CONTEXT_MAX),
		ROW("NET_NS_INDEX", PEO_NS_NET, NET_NS_INDEX),
		ROW("UTS_NS_INDEX", PEO_NS_UTS, UTS_NS_INDEX),
		ROW("IPC_NS_INDEX", PEO_NS_IPC, IPC_NS_INDEX),
		ROW("PID_NS_INDEX", PEO_NS_PID, PID_NS_INDEX),
		ROW("USER_NS_INDEX", PEO_NS_USER, USER_NS_INDEX),
		ROW("MNT_NS_INDEX", PEO_NS_MNT, MNT_NS_INDEX),
		ROW("CGROUP_NS_INDEX", PEO_NS_CGROUP, CGROUP_NS_INDEX),
		ROW("NR_NAMESPACES", PEO_NR_NAMESPACES, NR_NAMESPACES),
		SAME(RECORD_KSYMBOL_TYPE_UNKNOWN),
		SAME(RECORD_KSYMBOL_TYPE_BPF),
		SAME(RECORD_KSYMBOL_TYPE_OOL),
		SAME(RECORD_KSYMBOL_FLAGS_UNREGISTER),
		SAME(BPF_EVENT_UNKNOWN),
		SAME(BPF_EVENT_PROG_LOAD),
		SAME(BPF_EVENT_PROG_UNLOAD),
		SAME(AUX_FLAG_TRUNCATED),
		SAME(AUX_FLAG_OVERWRITE),
		SAME(AUX_FLAG_PARTIAL),
		SAME(AUX_FLAG_COLLISION),
		SAME(AUX_FLAG_PMU_FORMAT_TYPE_MASK),
		SAME(AUX_FLAG_CORESIGHT_FORMAT_CORESIGHT),
		SAME(AUX_FLAG_CORESIGHT_FORMAT_RAW),
	};

	(void)state;
	assert_int_equal(check_consts("records and callchains", rows, ARRAY_LEN(rows)), 0);
}

/*
 * The additions newer than the floor, one test each: compared with the system
 * header where it has them, else a skip that says so.  Either way
 * test_newer_abi_documented checks them against Linux's own header.
 */
#define NO_UAPI(what, macro, since)                                                       \
	PEO_SKIP("system <linux/perf_event.h> has no " macro " (" since "): " what          \
		 " not compared with it (test_newer_abi_documented checks it against Linux's " \
		 "header)")

static void test_uapi_config3(void **state)
{
	(void)state;
#ifdef PERF_ATTR_SIZE_VER8
	{
		static const struct field_row rows[] = { ATTR(config3) };
		static const struct const_row consts[] = { SAME(ATTR_SIZE_VER8) };

		assert_int_equal(check_fields("perf_event_attr", rows, ARRAY_LEN(rows)), 0);
		assert_int_equal(check_consts("config3 size", consts, ARRAY_LEN(consts)), 0);
	}
#else
	NO_UAPI("config3 and PERF_ATTR_SIZE_VER8", "PERF_ATTR_SIZE_VER8", "Linux 6.3");
#endif
}

static void test_uapi_config4(void **state)
{
	(void)state;
#ifdef PERF_ATTR_SIZE_VER9
	{
		static const struct field_row rows[] = { ATTR(config4) };
		static const struct const_row consts[] = { SAME(ATTR_SIZE_VER9) };

		assert_int_equal(check_fields("perf_event_attr", rows, ARRAY_LEN(rows)), 0);
		assert_int_equal(check_consts("config4 size", consts, ARRAY_LEN(consts)), 0);
	}
#else
	NO_UAPI("config4 and PERF_ATTR_SIZE_VER9", "PERF_ATTR_SIZE_VER9", "Linux 6.19");
#endif
}

static void test_uapi_defer_bits(void **state)
{
	(void)state;
#if UAPI_HAS_VER9_ERA
	{
		int bad = 0, checked = 0;

		ATTR_BIT(defer_callchain, DEFER_CALLCHAIN);
		ATTR_BIT(defer_output, DEFER_OUTPUT);
		print_message("defer_*: %d flag bitfields checked both ways, %d mismatched\n",
			      checked, bad);
		assert_int_equal(bad, 0);
	}
#else
	NO_UAPI("attr.defer_callchain and attr.defer_output", "PERF_ATTR_SIZE_VER9",
		"deferred callchains, Linux 6.19");
#endif
}

static void test_uapi_branch_counters(void **state)
{
	(void)state;
#if UAPI_HAS_VER9_ERA
	{
		static const struct const_row rows[] = {
			SAME(SAMPLE_BRANCH_COUNTERS_SHIFT),
			SAME(SAMPLE_BRANCH_COUNTERS),
		};

		assert_int_equal(check_consts("branch counters", rows, ARRAY_LEN(rows)), 0);
	}
#else
	NO_UAPI("PERF_SAMPLE_BRANCH_COUNTERS(_SHIFT)", "PERF_ATTR_SIZE_VER9, which stands for it",
		"Linux 6.8; the header has no macro of its own for it");
#endif
}

static void test_uapi_callchain_deferred(void **state)
{
	(void)state;
#if UAPI_HAS_VER9_ERA
	{
		static const struct const_row rows[] = {
			SAME(RECORD_CALLCHAIN_DEFERRED),
			SAME(CONTEXT_USER_DEFERRED),
		};

		assert_int_equal(check_consts("deferred callchains", rows, ARRAY_LEN(rows)), 0);
	}
#else
	NO_UAPI("PERF_RECORD_CALLCHAIN_DEFERRED and PERF_CONTEXT_USER_DEFERRED",
		"PERF_ATTR_SIZE_VER9, which stands for them", "Linux 6.19");
#endif
}

/*
 * Facts from Linux's include/uapi/linux/perf_event.h (6.19), written here so
 * that they are checked even where the system header is older:
 *   - the attr's u64 flags word is at offset 40 (after type, size, config,
 *     sample_period, sample_type, read_format); sigtrap is its bit 37 and
 *     "__reserved_1 : 26" followed it, then "defer_callchain : 1,
 *     defer_output : 1, __reserved_1 : 24": bits 38, 39, and 40 reserved;
 *   - after aux_sample_size (u32 at 112, PERF_ATTR_SIZE_VER6 = 120) the u32
 *     at 116 is "union { __u32 aux_action; struct { __u32 aux_start_paused : 1,
 *     aux_pause : 1, aux_resume : 1, __reserved_3 : 29; }; }";
 *   - sig_data (u64) ends PERF_ATTR_SIZE_VER7 = 128; "__u64 config3; extension
 *     of config2" at 128, PERF_ATTR_SIZE_VER8 = 136 ("add: config3");
 *     "__u64 config4; extension of config3" at 136, PERF_ATTR_SIZE_VER9 = 144
 *     ("add: config4"), the struct's size;
 *   - PERF_SAMPLE_BRANCH_COUNTERS_SHIFT = 19 ("save occurrences of events on a
 *     branch"), PERF_SAMPLE_BRANCH_COUNTERS = 1U << 19;
 *   - PERF_RECORD_CALLCHAIN_DEFERRED = 22 (after PERF_RECORD_AUX_OUTPUT_HW_ID
 *     = 21), PERF_CONTEXT_USER_DEFERRED = (__u64)-640.
 * A bitfield's position is counted the way the kernel declares it; on a
 * big-endian ABI bitfields fill from the most significant bit.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define DOC_BIT64(n) (1ULL << (63 - (n)))
#define DOC_BIT32(n) (1U << (31 - (n)))
#else
#define DOC_BIT64(n) (1ULL << (n))
#define DOC_BIT32(n) (1U << (n))
#endif

/* Our attr with one bitfield set: its flags word, or its aux_action word. */
#define FLAGS_WITH(f)                          \
	({                                     \
		struct peo_attr a_;            \
		memset(&a_, 0, sizeof(a_));    \
		a_.f = 1;                      \
		(uint64_t)a_.flags;            \
	})
#define AUX_ACTION_WITH(f)                     \
	({                                     \
		struct peo_attr a_;            \
		memset(&a_, 0, sizeof(a_));    \
		a_.f = 1;                      \
		(uint64_t)a_.aux_action;       \
	})

static void test_newer_abi_documented(void **state)
{
	const struct const_row rows[] = {
		ROW("offsetof(attr, flags word)", offsetof(struct peo_attr, flags), 40),
		ROW("attr.defer_callchain (flags bit 38)", FLAGS_WITH(defer_callchain),
		    DOC_BIT64(38)),
		ROW("attr.defer_output (flags bit 39)", FLAGS_WITH(defer_output), DOC_BIT64(39)),
		ROW("attr.__reserved_1 (from flags bit 40)", FLAGS_WITH(__reserved_1),
		    DOC_BIT64(40)),
		ROW("PEO_ATTR_BIT_DEFER_CALLCHAIN", PEO_ATTR_BIT_DEFER_CALLCHAIN, 38),
		ROW("PEO_ATTR_BIT_DEFER_OUTPUT", PEO_ATTR_BIT_DEFER_OUTPUT, 39),
		ROW("PEO_ATTR_BIT_RESERVED", PEO_ATTR_BIT_RESERVED, 40),
		ROW("offsetof(attr, aux_sample_size)", offsetof(struct peo_attr, aux_sample_size),
		    112),
		ROW("offsetof(attr, aux_action)", offsetof(struct peo_attr, aux_action), 116),
		ROW("sizeof(attr.aux_action)", sizeof(MEMBER(struct peo_attr, aux_action)), 4),
		ROW("attr.aux_start_paused (aux_action bit 0)", AUX_ACTION_WITH(aux_start_paused),
		    DOC_BIT32(0)),
		ROW("attr.aux_pause (aux_action bit 1)", AUX_ACTION_WITH(aux_pause), DOC_BIT32(1)),
		ROW("attr.aux_resume (aux_action bit 2)", AUX_ACTION_WITH(aux_resume),
		    DOC_BIT32(2)),
		ROW("offsetof(attr, sig_data)", offsetof(struct peo_attr, sig_data), 120),
		ROW("PERF_ATTR_SIZE_VER7", PEO_ATTR_SIZE_VER7, 128),
		ROW("offsetof(attr, config3)", offsetof(struct peo_attr, config3), 128),
		ROW("sizeof(attr.config3)", sizeof(MEMBER(struct peo_attr, config3)), 8),
		ROW("PERF_ATTR_SIZE_VER8", PEO_ATTR_SIZE_VER8, 136),
		ROW("offsetof(attr, config4)", offsetof(struct peo_attr, config4), 136),
		ROW("sizeof(attr.config4)", sizeof(MEMBER(struct peo_attr, config4)), 8),
		ROW("PERF_ATTR_SIZE_VER9", PEO_ATTR_SIZE_VER9, 144),
		ROW("sizeof(struct perf_event_attr)", sizeof(struct peo_attr), 144),
		ROW("PERF_SAMPLE_BRANCH_COUNTERS_SHIFT", PEO_SAMPLE_BRANCH_COUNTERS_SHIFT, 19),
		ROW("PERF_SAMPLE_BRANCH_COUNTERS", PEO_SAMPLE_BRANCH_COUNTERS, 1U << 19),
		ROW("PERF_RECORD_CALLCHAIN_DEFERRED", PEO_RECORD_CALLCHAIN_DEFERRED, 22),
		ROW("PERF_CONTEXT_USER_DEFERRED", PEO_CONTEXT_USER_DEFERRED, (uint64_t)-640),
		ROW("PERF_MEM_LVLNUM_L2_MHB", PEO_MEM_LVLNUM_L2_MHB, 0x05),
		ROW("PERF_MEM_LVLNUM_MSC", PEO_MEM_LVLNUM_MSC, 0x06),
		ROW("PERF_MEM_LVLNUM_L0", PEO_MEM_LVLNUM_L0, 0x07),
		ROW("PERF_MEM_LVLNUM_UNC", PEO_MEM_LVLNUM_UNC, 0x08),
		ROW("PERF_MEM_REGION_O_NON_SHARE", PEO_MEM_REGION_O_NON_SHARE, 0x06),
		ROW("PERF_MEM_REGION_MMIO", PEO_MEM_REGION_MMIO, 0x07),
		ROW("PERF_MEM_REGION_MEM0", PEO_MEM_REGION_MEM0, 0x08),
		ROW("PERF_MEM_REGION_MEM7", PEO_MEM_REGION_MEM7, 0x0f),
		ROW("PERF_MEM_REGION_SHIFT", PEO_MEM_REGION_SHIFT, 46),
		ROW("PERF_BRANCH_ENTRY_INFO_BITS_MAX", PEO_BRANCH_ENTRY_INFO_BITS_MAX, 33),
	};

	(void)state;
	assert_int_equal(check_consts("newer ABI against Linux's header", rows, ARRAY_LEN(rows)),
			 0);
}

#define IOC(x) ROW("PERF_EVENT_IOC_" #x, PEO_IOC_##x, PERF_EVENT_IOC_##x)

static void test_ioctl_and_open_flag_constants(void **state)
{
	static const struct const_row rows[] = {
		IOC(ENABLE),
		IOC(DISABLE),
		IOC(REFRESH),
		IOC(RESET),
		IOC(PERIOD),
		IOC(SET_OUTPUT),
		IOC(SET_FILTER),
		IOC(ID),
		IOC(SET_BPF),
		IOC(PAUSE_OUTPUT),
		IOC(QUERY_BPF),
		IOC(MODIFY_ATTRIBUTES),
		SAME(IOC_FLAG_GROUP),
		SAME(FLAG_FD_NO_GROUP),
		SAME(FLAG_FD_OUTPUT),
		SAME(FLAG_PID_CGROUP),
		SAME(FLAG_FD_CLOEXEC),
	};

	(void)state;
	assert_int_equal(check_consts("ioctls and open flags", rows, ARRAY_LEN(rows)), 0);
}

/* DATA_SRC's fields, the stack limits and the branch entry's and
 * weight's layouts (the newest constants where this header has them). */
static void test_mem_constants(void **state)
{
	static const struct const_row rows[] = {
		SAME(MEM_OP_NA),
		SAME(MEM_OP_LOAD),
		SAME(MEM_OP_STORE),
		SAME(MEM_OP_PFETCH),
		SAME(MEM_OP_EXEC),
		SAME(MEM_OP_SHIFT),
		SAME(MEM_LVL_NA),
		SAME(MEM_LVL_HIT),
		SAME(MEM_LVL_MISS),
		SAME(MEM_LVL_L1),
		SAME(MEM_LVL_LFB),
		SAME(MEM_LVL_L2),
		SAME(MEM_LVL_L3),
		SAME(MEM_LVL_LOC_RAM),
		SAME(MEM_LVL_REM_RAM1),
		SAME(MEM_LVL_REM_RAM2),
		SAME(MEM_LVL_REM_CCE1),
		SAME(MEM_LVL_REM_CCE2),
		SAME(MEM_LVL_IO),
		SAME(MEM_LVL_UNC),
		SAME(MEM_LVL_SHIFT),
		SAME(MEM_SNOOP_NA),
		SAME(MEM_SNOOP_NONE),
		SAME(MEM_SNOOP_HIT),
		SAME(MEM_SNOOP_MISS),
		SAME(MEM_SNOOP_HITM),
		SAME(MEM_SNOOP_SHIFT),
		SAME(MEM_LOCK_NA),
		SAME(MEM_LOCK_LOCKED),
		SAME(MEM_LOCK_SHIFT),
		SAME(MEM_TLB_NA),
		SAME(MEM_TLB_HIT),
		SAME(MEM_TLB_MISS),
		SAME(MEM_TLB_L1),
		SAME(MEM_TLB_L2),
		SAME(MEM_TLB_WK),
		SAME(MEM_TLB_OS),
		SAME(MEM_TLB_SHIFT),
		SAME(MEM_LVLNUM_L1),
		SAME(MEM_LVLNUM_L2),
		SAME(MEM_LVLNUM_L3),
		SAME(MEM_LVLNUM_L4),
		SAME(MEM_LVLNUM_CXL),
		SAME(MEM_LVLNUM_IO),
		SAME(MEM_LVLNUM_ANY_CACHE),
		SAME(MEM_LVLNUM_LFB),
		SAME(MEM_LVLNUM_RAM),
		SAME(MEM_LVLNUM_PMEM),
		SAME(MEM_LVLNUM_NA),
		SAME(MEM_LVLNUM_SHIFT),
		SAME(MEM_REMOTE_REMOTE),
		SAME(MEM_REMOTE_SHIFT),
		SAME(MEM_SNOOPX_FWD),
		SAME(MEM_SNOOPX_PEER),
		SAME(MEM_SNOOPX_SHIFT),
		SAME(MEM_BLK_NA),
		SAME(MEM_BLK_DATA),
		SAME(MEM_BLK_ADDR),
		SAME(MEM_BLK_SHIFT),
		SAME(MEM_HOPS_0),
		SAME(MEM_HOPS_1),
		SAME(MEM_HOPS_2),
		SAME(MEM_HOPS_3),
		SAME(MEM_HOPS_SHIFT),
#ifdef PERF_MEM_LVLNUM_L2_MHB
		SAME(MEM_LVLNUM_L2_MHB),
#endif
#ifdef PERF_MEM_LVLNUM_MSC
		SAME(MEM_LVLNUM_MSC),
#endif
#ifdef PERF_MEM_LVLNUM_L0
		SAME(MEM_LVLNUM_L0),
#endif
#ifdef PERF_MEM_LVLNUM_UNC
		SAME(MEM_LVLNUM_UNC),
#endif
#ifdef PERF_MEM_REGION_NA
		SAME(MEM_REGION_NA),
#endif
#ifdef PERF_MEM_REGION_RSVD
		SAME(MEM_REGION_RSVD),
#endif
#ifdef PERF_MEM_REGION_L_SHARE
		SAME(MEM_REGION_L_SHARE),
#endif
#ifdef PERF_MEM_REGION_L_NON_SHARE
		SAME(MEM_REGION_L_NON_SHARE),
#endif
#ifdef PERF_MEM_REGION_O_IO
		SAME(MEM_REGION_O_IO),
#endif
#ifdef PERF_MEM_REGION_O_SHARE
		SAME(MEM_REGION_O_SHARE),
#endif
#ifdef PERF_MEM_REGION_O_NON_SHARE
		SAME(MEM_REGION_O_NON_SHARE),
#endif
#ifdef PERF_MEM_REGION_MMIO
		SAME(MEM_REGION_MMIO),
#endif
#ifdef PERF_MEM_REGION_MEM0
		SAME(MEM_REGION_MEM0),
#endif
#ifdef PERF_MEM_REGION_MEM1
		SAME(MEM_REGION_MEM1),
#endif
#ifdef PERF_MEM_REGION_MEM2
		SAME(MEM_REGION_MEM2),
#endif
#ifdef PERF_MEM_REGION_MEM3
		SAME(MEM_REGION_MEM3),
#endif
#ifdef PERF_MEM_REGION_MEM4
		SAME(MEM_REGION_MEM4),
#endif
#ifdef PERF_MEM_REGION_MEM5
		SAME(MEM_REGION_MEM5),
#endif
#ifdef PERF_MEM_REGION_MEM6
		SAME(MEM_REGION_MEM6),
#endif
#ifdef PERF_MEM_REGION_MEM7
		SAME(MEM_REGION_MEM7),
#endif
#ifdef PERF_MEM_REGION_SHIFT
		SAME(MEM_REGION_SHIFT),
#endif
		SAME(MAX_STACK_DEPTH),
		SAME(MAX_CONTEXTS_PER_STACK),
	};
	union perf_sample_weight theirs = { .full = 0x1122334455667788ull };
	union peo_sample_weight ours = { .full = theirs.full };

	(void)state;
	assert_int_equal(check_consts("data_src fields and stack limits", rows, ARRAY_LEN(rows)), 0);
	assert_int_equal(sizeof(struct peo_branch_entry), sizeof(struct perf_branch_entry));
	assert_int_equal(offsetof(struct peo_branch_entry, to), offsetof(struct perf_branch_entry, to));
	assert_int_equal(ours.w.var1_dw, theirs.var1_dw);
	assert_int_equal(ours.w.var2_w, theirs.var2_w);
	assert_int_equal(ours.w.var3_w, theirs.var3_w);
	assert_int_equal(ours.w.var1_dw, 0x55667788u); /* by value, on either byte order */
	assert_int_equal(ours.w.var3_w, 0x1122u);
	/* every field decoded, the newest (region) too */
	struct peo_data_src ds = { .sz = sizeof(ds) };
	assert_int_equal(peo_data_src_decode(PEO_MEM_S(OP, STORE) | PEO_MEM_S(LVL, L2) |
					     PEO_MEM_S(SNOOP, HITM) | PEO_MEM_S(LOCK, LOCKED) |
					     PEO_MEM_S(TLB, WK) | PEO_MEM_S(LVLNUM, L0) |
					     PEO_MEM_S(REMOTE, REMOTE) | PEO_MEM_S(SNOOPX, PEER) |
					     PEO_MEM_S(BLK, ADDR) | PEO_MEM_S(HOPS, 3) |
					     PEO_MEM_S(REGION, MEM3), &ds), 0);
	assert_int_equal(ds.op, PEO_MEM_OP_STORE);
	assert_int_equal(ds.lvl, PEO_MEM_LVL_L2);
	assert_int_equal(ds.snoop, PEO_MEM_SNOOP_HITM);
	assert_int_equal(ds.lock, PEO_MEM_LOCK_LOCKED);
	assert_int_equal(ds.dtlb, PEO_MEM_TLB_WK);
	assert_int_equal(ds.lvl_num, PEO_MEM_LVLNUM_L0);
	assert_int_equal(ds.remote, PEO_MEM_REMOTE_REMOTE);
	assert_int_equal(ds.snoopx, PEO_MEM_SNOOPX_PEER);
	assert_int_equal(ds.blk, PEO_MEM_BLK_ADDR);
	assert_int_equal(ds.hops, PEO_MEM_HOPS_3);
	assert_int_equal(ds.region, PEO_MEM_REGION_MEM3);
}

/* The register numbers of the machine this test runs on, against its
 * <asm/perf_regs.h>. */
static void test_reg_numbers(void **state)
{
	static const struct const_row rows[] = {
#if defined(__x86_64__)
		SAME(REG_X86_AX),
		SAME(REG_X86_BX),
		SAME(REG_X86_CX),
		SAME(REG_X86_DX),
		SAME(REG_X86_SI),
		SAME(REG_X86_DI),
		SAME(REG_X86_BP),
		SAME(REG_X86_SP),
		SAME(REG_X86_IP),
		SAME(REG_X86_FLAGS),
		SAME(REG_X86_CS),
		SAME(REG_X86_SS),
		SAME(REG_X86_DS),
		SAME(REG_X86_ES),
		SAME(REG_X86_FS),
		SAME(REG_X86_GS),
		SAME(REG_X86_R8),
		SAME(REG_X86_R9),
		SAME(REG_X86_R10),
		SAME(REG_X86_R11),
		SAME(REG_X86_R12),
		SAME(REG_X86_R13),
		SAME(REG_X86_R14),
		SAME(REG_X86_R15),
		SAME(REG_X86_32_MAX),
		SAME(REG_X86_64_MAX),
		SAME(REG_X86_XMM0),
		SAME(REG_X86_XMM15),
		SAME(REG_X86_XMM_MAX),
		ROW("XMM(7)", PEO_REG_X86_XMM(7), PERF_REG_X86_XMM7),
#elif defined(__aarch64__)
		SAME(REG_ARM64_X0),
		SAME(REG_ARM64_X29),
		SAME(REG_ARM64_LR),
		SAME(REG_ARM64_SP),
		SAME(REG_ARM64_PC),
		SAME(REG_ARM64_MAX),
		SAME(REG_ARM64_VG),
		SAME(REG_ARM64_EXTENDED_MAX),
#endif
		ROW("none", 0, 0),
	};

	(void)state;
	assert_int_equal(check_consts("register numbers", rows, ARRAY_LEN(rows)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr_layout),
		cmocka_unit_test(test_mmap_page_layout),
		cmocka_unit_test(test_header_and_query_bpf_layout),
		cmocka_unit_test(test_attr_flag_bits),
		cmocka_unit_test(test_aux_action_bits),
		cmocka_unit_test(test_mmap_capability_bits),
		cmocka_unit_test(test_event_id_constants),
		cmocka_unit_test(test_sample_constants),
		cmocka_unit_test(test_record_constants),
		cmocka_unit_test(test_mem_constants),
		cmocka_unit_test(test_reg_numbers),
		cmocka_unit_test(test_ioctl_and_open_flag_constants),
		cmocka_unit_test(test_uapi_config3),
		cmocka_unit_test(test_uapi_config4),
		cmocka_unit_test(test_uapi_defer_bits),
		cmocka_unit_test(test_uapi_branch_counters),
		cmocka_unit_test(test_uapi_callchain_deferred),
		cmocka_unit_test(test_newer_abi_documented),
	};

	return PEO_TEST_MAIN("abi_uapi", tests);
}
