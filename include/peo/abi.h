/*
 * peo/abi.h - peo's own definition of the perf_event_open(2) kernel ABI.
 *
 * Written from the kernel's documented user ABI (the perf_event_open(2) man
 * page and the uapi header's published layout); it does not include
 * <linux/perf_event.h>.  Every offset and size is pinned by static assertions
 * at the end of this file, and tests/test_abi_uapi.c checks each field that the
 * system's own header also defines against it.
 *
 * Compatibility strategy (the kernel's copy_struct_from_user rule):
 *   - struct peo_attr is the newest published perf_event_attr (PEO_ATTR_SIZE_VER9).
 *   - Callers zero the whole struct and set .size = sizeof(struct peo_attr)
 *     (peo_attr_init() in sys.h does both).
 *   - A kernel older than the struct accepts it as long as every byte past
 *     the kernel's own size is zero; if one is not, the kernel fails with E2BIG
 *     and writes its size back.  peo_sys_open() turns that into a sentence
 *     naming the fields the kernel lacks, and retries at the kernel's size
 *     when nothing past it is used.
 *   - A newer kernel zero-extends our struct, which keeps old behaviour.
 */
#ifndef PEO_ABI_H
#define PEO_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Anonymous unions/structs are C11 and a GNU extension in C99 and C++. */
#if defined(__GNUC__) || defined(__clang__)
#define PEO_EXTENSION __extension__
#else
#define PEO_EXTENSION
#endif

/* ---------------------------------------------------------------- attr.type */
enum peo_type_id {
	PEO_TYPE_HARDWARE = 0,
	PEO_TYPE_SOFTWARE = 1,
	PEO_TYPE_TRACEPOINT = 2,
	PEO_TYPE_HW_CACHE = 3,
	PEO_TYPE_RAW = 4,
	PEO_TYPE_BREAKPOINT = 5,
};

/* For HARDWARE and HW_CACHE, config bits 32..63 may name a PMU type (hybrid). */
#define PEO_PMU_TYPE_SHIFT 32
#define PEO_HW_EVENT_MASK 0xffffffffULL

/* attr.config for PEO_TYPE_HARDWARE */
enum peo_hw_id {
	PEO_COUNT_HW_CPU_CYCLES = 0,
	PEO_COUNT_HW_INSTRUCTIONS = 1,
	PEO_COUNT_HW_CACHE_REFERENCES = 2,
	PEO_COUNT_HW_CACHE_MISSES = 3,
	PEO_COUNT_HW_BRANCH_INSTRUCTIONS = 4,
	PEO_COUNT_HW_BRANCH_MISSES = 5,
	PEO_COUNT_HW_BUS_CYCLES = 6,
	PEO_COUNT_HW_STALLED_CYCLES_FRONTEND = 7,
	PEO_COUNT_HW_STALLED_CYCLES_BACKEND = 8,
	PEO_COUNT_HW_REF_CPU_CYCLES = 9,
	PEO_COUNT_HW_MAX /* not ABI: grows with the kernel */
};

/* attr.config for PEO_TYPE_HW_CACHE: id | (op << 8) | (result << 16) */
enum peo_hw_cache_id {
	PEO_COUNT_HW_CACHE_L1D = 0,
	PEO_COUNT_HW_CACHE_L1I = 1,
	PEO_COUNT_HW_CACHE_LL = 2,
	PEO_COUNT_HW_CACHE_DTLB = 3,
	PEO_COUNT_HW_CACHE_ITLB = 4,
	PEO_COUNT_HW_CACHE_BPU = 5,
	PEO_COUNT_HW_CACHE_NODE = 6,
	PEO_COUNT_HW_CACHE_MAX
};
enum peo_hw_cache_op_id {
	PEO_COUNT_HW_CACHE_OP_READ = 0,
	PEO_COUNT_HW_CACHE_OP_WRITE = 1,
	PEO_COUNT_HW_CACHE_OP_PREFETCH = 2,
	PEO_COUNT_HW_CACHE_OP_MAX
};
enum peo_hw_cache_op_result_id {
	PEO_COUNT_HW_CACHE_RESULT_ACCESS = 0,
	PEO_COUNT_HW_CACHE_RESULT_MISS = 1,
	PEO_COUNT_HW_CACHE_RESULT_MAX
};
#define PEO_HW_CACHE_CONFIG(id, op, result) \
	((uint64_t)(id) | ((uint64_t)(op) << 8) | ((uint64_t)(result) << 16))

/* attr.config for PEO_TYPE_SOFTWARE */
enum peo_sw_id {
	PEO_COUNT_SW_CPU_CLOCK = 0,
	PEO_COUNT_SW_TASK_CLOCK = 1,
	PEO_COUNT_SW_PAGE_FAULTS = 2,
	PEO_COUNT_SW_CONTEXT_SWITCHES = 3,
	PEO_COUNT_SW_CPU_MIGRATIONS = 4,
	PEO_COUNT_SW_PAGE_FAULTS_MIN = 5,
	PEO_COUNT_SW_PAGE_FAULTS_MAJ = 6,
	PEO_COUNT_SW_ALIGNMENT_FAULTS = 7,
	PEO_COUNT_SW_EMULATION_FAULTS = 8,
	PEO_COUNT_SW_DUMMY = 9,
	PEO_COUNT_SW_BPF_OUTPUT = 10,
	PEO_COUNT_SW_CGROUP_SWITCHES = 11,
	PEO_COUNT_SW_MAX
};

/* ---------------------------------------------------------- attr.sample_type */
enum peo_sample_format {
	PEO_SAMPLE_IP = 1ULL << 0,
	PEO_SAMPLE_TID = 1ULL << 1,
	PEO_SAMPLE_TIME = 1ULL << 2,
	PEO_SAMPLE_ADDR = 1ULL << 3,
	PEO_SAMPLE_READ = 1ULL << 4,
	PEO_SAMPLE_CALLCHAIN = 1ULL << 5,
	PEO_SAMPLE_ID = 1ULL << 6,
	PEO_SAMPLE_CPU = 1ULL << 7,
	PEO_SAMPLE_PERIOD = 1ULL << 8,
	PEO_SAMPLE_STREAM_ID = 1ULL << 9,
	PEO_SAMPLE_RAW = 1ULL << 10,
	PEO_SAMPLE_BRANCH_STACK = 1ULL << 11,
	PEO_SAMPLE_REGS_USER = 1ULL << 12,
	PEO_SAMPLE_STACK_USER = 1ULL << 13,
	PEO_SAMPLE_WEIGHT = 1ULL << 14,
	PEO_SAMPLE_DATA_SRC = 1ULL << 15,
	PEO_SAMPLE_IDENTIFIER = 1ULL << 16,
	PEO_SAMPLE_TRANSACTION = 1ULL << 17,
	PEO_SAMPLE_REGS_INTR = 1ULL << 18,
	PEO_SAMPLE_PHYS_ADDR = 1ULL << 19,
	PEO_SAMPLE_AUX = 1ULL << 20,
	PEO_SAMPLE_CGROUP = 1ULL << 21,
	PEO_SAMPLE_DATA_PAGE_SIZE = 1ULL << 22,
	PEO_SAMPLE_CODE_PAGE_SIZE = 1ULL << 23,
	PEO_SAMPLE_WEIGHT_STRUCT = 1ULL << 24,
	PEO_SAMPLE_MAX = 1ULL << 25 /* not ABI */
};
#define PEO_SAMPLE_WEIGHT_TYPE (PEO_SAMPLE_WEIGHT | PEO_SAMPLE_WEIGHT_STRUCT)

/* --------------------------------------------------- attr.branch_sample_type */
enum peo_branch_sample_type_shift {
	PEO_SAMPLE_BRANCH_USER_SHIFT = 0,
	PEO_SAMPLE_BRANCH_KERNEL_SHIFT = 1,
	PEO_SAMPLE_BRANCH_HV_SHIFT = 2,
	PEO_SAMPLE_BRANCH_ANY_SHIFT = 3,
	PEO_SAMPLE_BRANCH_ANY_CALL_SHIFT = 4,
	PEO_SAMPLE_BRANCH_ANY_RETURN_SHIFT = 5,
	PEO_SAMPLE_BRANCH_IND_CALL_SHIFT = 6,
	PEO_SAMPLE_BRANCH_ABORT_TX_SHIFT = 7,
	PEO_SAMPLE_BRANCH_IN_TX_SHIFT = 8,
	PEO_SAMPLE_BRANCH_NO_TX_SHIFT = 9,
	PEO_SAMPLE_BRANCH_COND_SHIFT = 10,
	PEO_SAMPLE_BRANCH_CALL_STACK_SHIFT = 11,
	PEO_SAMPLE_BRANCH_IND_JUMP_SHIFT = 12,
	PEO_SAMPLE_BRANCH_CALL_SHIFT = 13,
	PEO_SAMPLE_BRANCH_NO_FLAGS_SHIFT = 14,
	PEO_SAMPLE_BRANCH_NO_CYCLES_SHIFT = 15,
	PEO_SAMPLE_BRANCH_TYPE_SAVE_SHIFT = 16,
	PEO_SAMPLE_BRANCH_HW_INDEX_SHIFT = 17,
	PEO_SAMPLE_BRANCH_PRIV_SAVE_SHIFT = 18,
	PEO_SAMPLE_BRANCH_COUNTERS_SHIFT = 19,
	PEO_SAMPLE_BRANCH_MAX_SHIFT /* not ABI */
};
#define PEO_SAMPLE_BRANCH_USER (1ULL << PEO_SAMPLE_BRANCH_USER_SHIFT)
#define PEO_SAMPLE_BRANCH_KERNEL (1ULL << PEO_SAMPLE_BRANCH_KERNEL_SHIFT)
#define PEO_SAMPLE_BRANCH_HV (1ULL << PEO_SAMPLE_BRANCH_HV_SHIFT)
#define PEO_SAMPLE_BRANCH_ANY (1ULL << PEO_SAMPLE_BRANCH_ANY_SHIFT)
#define PEO_SAMPLE_BRANCH_ANY_CALL (1ULL << PEO_SAMPLE_BRANCH_ANY_CALL_SHIFT)
#define PEO_SAMPLE_BRANCH_ANY_RETURN (1ULL << PEO_SAMPLE_BRANCH_ANY_RETURN_SHIFT)
#define PEO_SAMPLE_BRANCH_IND_CALL (1ULL << PEO_SAMPLE_BRANCH_IND_CALL_SHIFT)
#define PEO_SAMPLE_BRANCH_ABORT_TX (1ULL << PEO_SAMPLE_BRANCH_ABORT_TX_SHIFT)
#define PEO_SAMPLE_BRANCH_IN_TX (1ULL << PEO_SAMPLE_BRANCH_IN_TX_SHIFT)
#define PEO_SAMPLE_BRANCH_NO_TX (1ULL << PEO_SAMPLE_BRANCH_NO_TX_SHIFT)
#define PEO_SAMPLE_BRANCH_COND (1ULL << PEO_SAMPLE_BRANCH_COND_SHIFT)
#define PEO_SAMPLE_BRANCH_CALL_STACK (1ULL << PEO_SAMPLE_BRANCH_CALL_STACK_SHIFT)
#define PEO_SAMPLE_BRANCH_IND_JUMP (1ULL << PEO_SAMPLE_BRANCH_IND_JUMP_SHIFT)
#define PEO_SAMPLE_BRANCH_CALL (1ULL << PEO_SAMPLE_BRANCH_CALL_SHIFT)
#define PEO_SAMPLE_BRANCH_NO_FLAGS (1ULL << PEO_SAMPLE_BRANCH_NO_FLAGS_SHIFT)
#define PEO_SAMPLE_BRANCH_NO_CYCLES (1ULL << PEO_SAMPLE_BRANCH_NO_CYCLES_SHIFT)
#define PEO_SAMPLE_BRANCH_TYPE_SAVE (1ULL << PEO_SAMPLE_BRANCH_TYPE_SAVE_SHIFT)
#define PEO_SAMPLE_BRANCH_HW_INDEX (1ULL << PEO_SAMPLE_BRANCH_HW_INDEX_SHIFT)
#define PEO_SAMPLE_BRANCH_PRIV_SAVE (1ULL << PEO_SAMPLE_BRANCH_PRIV_SAVE_SHIFT)
#define PEO_SAMPLE_BRANCH_COUNTERS (1ULL << PEO_SAMPLE_BRANCH_COUNTERS_SHIFT)
#define PEO_SAMPLE_BRANCH_PLM_ALL \
	(PEO_SAMPLE_BRANCH_USER | PEO_SAMPLE_BRANCH_KERNEL | PEO_SAMPLE_BRANCH_HV)

/* Branch entry type field (with PEO_SAMPLE_BRANCH_TYPE_SAVE). */
enum peo_branch_type {
	PEO_BR_UNKNOWN = 0,
	PEO_BR_COND = 1,
	PEO_BR_UNCOND = 2,
	PEO_BR_IND = 3,
	PEO_BR_CALL = 4,
	PEO_BR_IND_CALL = 5,
	PEO_BR_RET = 6,
	PEO_BR_SYSCALL = 7,
	PEO_BR_SYSRET = 8,
	PEO_BR_COND_CALL = 9,
	PEO_BR_COND_RET = 10,
	PEO_BR_ERET = 11,
	PEO_BR_IRQ = 12,
	PEO_BR_SERROR = 13,
	PEO_BR_NO_TX = 14,
	PEO_BR_EXTEND_ABI = 15 /* new_type holds the type */
};
enum peo_branch_spec {
	PEO_BR_SPEC_NA = 0,
	PEO_BR_SPEC_WRONG_PATH = 1,
	PEO_BR_NON_SPEC_CORRECT_PATH = 2,
	PEO_BR_SPEC_CORRECT_PATH = 3
};
enum peo_branch_new_type {
	PEO_BR_NEW_FAULT_ALGN = 0,
	PEO_BR_NEW_FAULT_DATA = 1,
	PEO_BR_NEW_FAULT_INST = 2,
	PEO_BR_NEW_ARCH_1 = 3,
	PEO_BR_NEW_ARCH_2 = 4,
	PEO_BR_NEW_ARCH_3 = 5,
	PEO_BR_NEW_ARCH_4 = 6,
	PEO_BR_NEW_ARCH_5 = 7
};
enum peo_branch_priv {
	PEO_BR_PRIV_UNKNOWN = 0,
	PEO_BR_PRIV_USER = 1,
	PEO_BR_PRIV_KERNEL = 2,
	PEO_BR_PRIV_HV = 3
};

/* Register dump ABI word in REGS_USER / REGS_INTR samples. */
enum peo_sample_regs_abi {
	PEO_SAMPLE_REGS_ABI_NONE = 0,
	PEO_SAMPLE_REGS_ABI_32 = 1,
	PEO_SAMPLE_REGS_ABI_64 = 2
};

/* TRANSACTION sample bits; bits 32..63 carry the abort code. */
enum peo_txn {
	PEO_TXN_ELISION = 1 << 0,
	PEO_TXN_TRANSACTION = 1 << 1,
	PEO_TXN_SYNC = 1 << 2,
	PEO_TXN_ASYNC = 1 << 3,
	PEO_TXN_RETRY = 1 << 4,
	PEO_TXN_CONFLICT = 1 << 5,
	PEO_TXN_CAPACITY_WRITE = 1 << 6,
	PEO_TXN_CAPACITY_READ = 1 << 7
};
#define PEO_TXN_ABORT_MASK (0xffffffffULL << 32)
#define PEO_TXN_ABORT_SHIFT 32

/* ---------------------------------------------------------- attr.read_format */
enum peo_read_format {
	PEO_FORMAT_TOTAL_TIME_ENABLED = 1U << 0,
	PEO_FORMAT_TOTAL_TIME_RUNNING = 1U << 1,
	PEO_FORMAT_ID = 1U << 2,
	PEO_FORMAT_GROUP = 1U << 3,
	PEO_FORMAT_LOST = 1U << 4,
	PEO_FORMAT_MAX = 1U << 5 /* not ABI */
};

/* ------------------------------------------------------- attr sizes by ABI */
#define PEO_ATTR_SIZE_VER0 64  /* first published struct (2.6.31) */
#define PEO_ATTR_SIZE_VER1 72  /* config2 (2.6.39) */
#define PEO_ATTR_SIZE_VER2 80  /* branch_sample_type (3.4) */
#define PEO_ATTR_SIZE_VER3 96  /* sample_regs_user, sample_stack_user (3.7) */
#define PEO_ATTR_SIZE_VER4 104 /* sample_regs_intr (3.19) */
#define PEO_ATTR_SIZE_VER5 112 /* aux_watermark (4.1) */
#define PEO_ATTR_SIZE_VER6 120 /* aux_sample_size (5.5) */
#define PEO_ATTR_SIZE_VER7 128 /* sig_data (5.13) */
#define PEO_ATTR_SIZE_VER8 136 /* config3 (6.3) */
#define PEO_ATTR_SIZE_VER9 144 /* config4 (6.19) */
#define PEO_ATTR_SIZE_LATEST PEO_ATTR_SIZE_VER9

/*
 * Bit position of each one-bit flag in peo_attr.flags, counted from the first
 * bitfield the way the kernel declares them.  PEO_ATTR_FLAG() turns a
 * position into a mask of the flags word on this host: bitfields fill from the
 * most significant bit on big-endian ABIs, so the mask differs there.
 */
enum peo_attr_flag_bit {
	PEO_ATTR_BIT_DISABLED = 0,
	PEO_ATTR_BIT_INHERIT = 1,
	PEO_ATTR_BIT_PINNED = 2,
	PEO_ATTR_BIT_EXCLUSIVE = 3,
	PEO_ATTR_BIT_EXCLUDE_USER = 4,
	PEO_ATTR_BIT_EXCLUDE_KERNEL = 5,
	PEO_ATTR_BIT_EXCLUDE_HV = 6,
	PEO_ATTR_BIT_EXCLUDE_IDLE = 7,
	PEO_ATTR_BIT_MMAP = 8,
	PEO_ATTR_BIT_COMM = 9,
	PEO_ATTR_BIT_FREQ = 10,
	PEO_ATTR_BIT_INHERIT_STAT = 11,
	PEO_ATTR_BIT_ENABLE_ON_EXEC = 12,
	PEO_ATTR_BIT_TASK = 13,
	PEO_ATTR_BIT_WATERMARK = 14,
	PEO_ATTR_BIT_PRECISE_IP = 15, /* two bits: 15 and 16 */
	PEO_ATTR_BIT_MMAP_DATA = 17,
	PEO_ATTR_BIT_SAMPLE_ID_ALL = 18,
	PEO_ATTR_BIT_EXCLUDE_HOST = 19,
	PEO_ATTR_BIT_EXCLUDE_GUEST = 20,
	PEO_ATTR_BIT_EXCLUDE_CALLCHAIN_KERNEL = 21,
	PEO_ATTR_BIT_EXCLUDE_CALLCHAIN_USER = 22,
	PEO_ATTR_BIT_MMAP2 = 23,
	PEO_ATTR_BIT_COMM_EXEC = 24,
	PEO_ATTR_BIT_USE_CLOCKID = 25,
	PEO_ATTR_BIT_CONTEXT_SWITCH = 26,
	PEO_ATTR_BIT_WRITE_BACKWARD = 27,
	PEO_ATTR_BIT_NAMESPACES = 28,
	PEO_ATTR_BIT_KSYMBOL = 29,
	PEO_ATTR_BIT_BPF_EVENT = 30,
	PEO_ATTR_BIT_AUX_OUTPUT = 31,
	PEO_ATTR_BIT_CGROUP = 32,
	PEO_ATTR_BIT_TEXT_POKE = 33,
	PEO_ATTR_BIT_BUILD_ID = 34,
	PEO_ATTR_BIT_INHERIT_THREAD = 35,
	PEO_ATTR_BIT_REMOVE_ON_EXEC = 36,
	PEO_ATTR_BIT_SIGTRAP = 37,
	PEO_ATTR_BIT_DEFER_CALLCHAIN = 38,
	PEO_ATTR_BIT_DEFER_OUTPUT = 39,
	PEO_ATTR_BIT_RESERVED = 40 /* first bit no kernel defines yet */
};
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PEO_BITFIELD64(bit) (1ULL << (63 - (bit)))
#else
#define PEO_BITFIELD64(bit) (1ULL << (bit))
#endif
#define PEO_ATTR_FLAG(bit) PEO_BITFIELD64(bit)

/* aux_action bits (Linux 6.13), positions within the 32-bit word. */
enum peo_aux_action_bit {
	PEO_AUX_ACTION_BIT_START_PAUSED = 0,
	PEO_AUX_ACTION_BIT_PAUSE = 1,
	PEO_AUX_ACTION_BIT_RESUME = 2
};

/*
 * struct peo_attr - byte-identical to the newest perf_event_attr.
 * Zero it, set size (peo_attr_init() does both), then fill what you need.
 */
struct peo_attr {
	uint32_t type;   /* enum peo_type_id or a dynamic PMU's type */
	uint32_t size;   /* sizeof(struct peo_attr) for forward/backward compat */
	uint64_t config; /* type-specific event selector */
	PEO_EXTENSION union {
		uint64_t sample_period;
		uint64_t sample_freq; /* when freq is set */
	};
	uint64_t sample_type; /* enum peo_sample_format */
	uint64_t read_format; /* enum peo_read_format */
	PEO_EXTENSION union {
		uint64_t flags; /* all one-bit flags below as one word */
		PEO_EXTENSION struct {
			uint64_t disabled : 1,     /* start disabled */
				inherit : 1,       /* children inherit it */
				pinned : 1,        /* must always be on the PMU */
				exclusive : 1,     /* only group on the PMU */
				exclude_user : 1,  /* do not count user mode */
				exclude_kernel : 1,/* do not count kernel mode */
				exclude_hv : 1,    /* do not count hypervisor */
				exclude_idle : 1,  /* do not count when idle */
				mmap : 1,          /* MMAP records */
				comm : 1,          /* COMM records */
				freq : 1,          /* sample_freq, not period */
				inherit_stat : 1,  /* per-task counts */
				enable_on_exec : 1,/* next exec enables */
				task : 1,          /* FORK/EXIT records */
				watermark : 1,     /* wakeup_watermark, not events */
				precise_ip : 2,    /* skid constraint 0..3 */
				mmap_data : 1,     /* non-exec MMAP records */
				sample_id_all : 1, /* sample_id on every record */
				exclude_host : 1,
				exclude_guest : 1,
				exclude_callchain_kernel : 1,
				exclude_callchain_user : 1,
				mmap2 : 1,         /* MMAP2 records */
				comm_exec : 1,     /* mark COMM records due to exec */
				use_clockid : 1,   /* time fields use clockid */
				context_switch : 1,/* SWITCH records */
				write_backward : 1,/* overwrite (backward) ring */
				namespaces : 1,    /* NAMESPACES records */
				ksymbol : 1,       /* KSYMBOL records */
				bpf_event : 1,     /* BPF_EVENT records */
				aux_output : 1,    /* output to the AUX leader's ring */
				cgroup : 1,        /* CGROUP records */
				text_poke : 1,     /* TEXT_POKE records */
				build_id : 1,      /* MMAP2 carries a build id */
				inherit_thread : 1,/* inherit only to threads */
				remove_on_exec : 1,/* close on exec */
				sigtrap : 1,       /* synchronous SIGTRAP on overflow */
				defer_callchain : 1,/* defer user callchains (6.19) */
				defer_output : 1,  /* CALLCHAIN_DEFERRED records (6.19) */
				__reserved_1 : 24;
		};
	};
	PEO_EXTENSION union {
		uint32_t wakeup_events;    /* wake up every n events */
		uint32_t wakeup_watermark; /* bytes before wakeup */
	};
	uint32_t bp_type; /* enum peo_bp_type */
	PEO_EXTENSION union {
		uint64_t bp_addr;
		uint64_t kprobe_func; /* kprobe PMU: pointer to a symbol name */
		uint64_t uprobe_path; /* uprobe PMU: pointer to a path */
		uint64_t config1;
	};
	PEO_EXTENSION union {
		uint64_t bp_len;
		uint64_t kprobe_addr;  /* when kprobe_func is 0 */
		uint64_t probe_offset; /* kprobe/uprobe offset */
		uint64_t config2;
	};
	uint64_t branch_sample_type; /* PEO_SAMPLE_BRANCH_* */
	uint64_t sample_regs_user;   /* arch register mask */
	uint32_t sample_stack_user;  /* bytes of user stack to dump */
	int32_t clockid;             /* with use_clockid */
	uint64_t sample_regs_intr;   /* arch register mask at interrupt */
	uint32_t aux_watermark;      /* AUX bytes before wakeup */
	uint16_t sample_max_stack;   /* callchain depth limit */
	uint16_t __reserved_2;
	uint32_t aux_sample_size; /* with PEO_SAMPLE_AUX */
	PEO_EXTENSION union {
		uint32_t aux_action; /* 6.13; was __reserved_3 */
		PEO_EXTENSION struct {
			uint32_t aux_start_paused : 1,
				aux_pause : 1,
				aux_resume : 1,
				__reserved_3 : 29;
		};
	};
	uint64_t sig_data; /* copied to siginfo si_perf_data with sigtrap */
	uint64_t config3;  /* extension of config2 (6.3) */
	uint64_t config4;  /* extension of config3 (6.19) */
};

/* Argument of PEO_IOC_QUERY_BPF; ids follow the struct. */
struct peo_query_bpf {
	uint32_t ids_len;  /* capacity of ids[] */
	uint32_t prog_cnt; /* set by the kernel */
	/* uint32_t ids[]; */
};

/* ------------------------------------------------------------------ ioctls */
/*
 * The kernel's ioctl number layout, defined here so the header needs no libc
 * macro (musl has no _IOC_SIZE): nr in bits 0-7, type in 8-15, the argument
 * size above that, the direction on top.  powerpc, mips, sparc and alpha
 * use 13 size bits and other direction values.
 */
#if defined(__powerpc__) || defined(__mips__) || defined(__sparc__) || defined(__alpha__)
#define PEO_IOC_DIR_NONE 1U
#define PEO_IOC_DIR_READ 2U
#define PEO_IOC_DIR_WRITE 4U
#define PEO_IOC_SIZE_BITS 13
#else
#define PEO_IOC_DIR_NONE 0U
#define PEO_IOC_DIR_READ 2U
#define PEO_IOC_DIR_WRITE 1U
#define PEO_IOC_SIZE_BITS 14
#endif
#define PEO_IOC_ENCODE(dir, nr, size) \
	((unsigned int)(((dir) << (16 + PEO_IOC_SIZE_BITS)) | ((unsigned int)(size) << 16) | (0x24U << 8) | (nr)))
#define PEO_IOC_NR(req) ((req) & 0xffU)
#define PEO_IOC_TYPE(req) (((req) >> 8) & 0xffU)
#define PEO_IOC_SIZE(req) (((req) >> 16) & ((1U << PEO_IOC_SIZE_BITS) - 1))

#define PEO_IOC_ENABLE PEO_IOC_ENCODE(PEO_IOC_DIR_NONE, 0U, 0U)
#define PEO_IOC_DISABLE PEO_IOC_ENCODE(PEO_IOC_DIR_NONE, 1U, 0U)
#define PEO_IOC_REFRESH PEO_IOC_ENCODE(PEO_IOC_DIR_NONE, 2U, 0U)
#define PEO_IOC_RESET PEO_IOC_ENCODE(PEO_IOC_DIR_NONE, 3U, 0U)
#define PEO_IOC_PERIOD PEO_IOC_ENCODE(PEO_IOC_DIR_WRITE, 4U, sizeof(uint64_t))
#define PEO_IOC_SET_OUTPUT PEO_IOC_ENCODE(PEO_IOC_DIR_NONE, 5U, 0U)
/* These four encode a pointer's size, as the kernel's definitions do. */
#define PEO_IOC_SET_FILTER PEO_IOC_ENCODE(PEO_IOC_DIR_WRITE, 6U, sizeof(char *))
#define PEO_IOC_ID PEO_IOC_ENCODE(PEO_IOC_DIR_READ, 7U, sizeof(uint64_t *))
#define PEO_IOC_SET_BPF PEO_IOC_ENCODE(PEO_IOC_DIR_WRITE, 8U, sizeof(uint32_t))
#define PEO_IOC_PAUSE_OUTPUT PEO_IOC_ENCODE(PEO_IOC_DIR_WRITE, 9U, sizeof(uint32_t))
#define PEO_IOC_QUERY_BPF PEO_IOC_ENCODE(PEO_IOC_DIR_READ | PEO_IOC_DIR_WRITE, 10U, sizeof(struct peo_query_bpf *))
#define PEO_IOC_MODIFY_ATTRIBUTES PEO_IOC_ENCODE(PEO_IOC_DIR_WRITE, 11U, sizeof(struct peo_attr *))

/* Argument of ENABLE, DISABLE, RESET and REFRESH: act on the whole group. */
#define PEO_IOC_FLAG_GROUP 1U

/* ------------------------------------------------ perf_event_open(2) flags */
#define PEO_FLAG_FD_NO_GROUP (1UL << 0)
#define PEO_FLAG_FD_OUTPUT (1UL << 1)
#define PEO_FLAG_PID_CGROUP (1UL << 2) /* pid is a cgroup directory fd */
#define PEO_FLAG_FD_CLOEXEC (1UL << 3)

/* ------------------------------------------------------------- breakpoints */
enum peo_bp_type {
	PEO_BP_EMPTY = 0,
	PEO_BP_R = 1,
	PEO_BP_W = 2,
	PEO_BP_RW = 3,
	PEO_BP_X = 4,
	PEO_BP_INVALID = 7
};
enum peo_bp_len {
	PEO_BP_LEN_1 = 1,
	PEO_BP_LEN_2 = 2,
	PEO_BP_LEN_3 = 3,
	PEO_BP_LEN_4 = 4,
	PEO_BP_LEN_5 = 5,
	PEO_BP_LEN_6 = 6,
	PEO_BP_LEN_7 = 7,
	PEO_BP_LEN_8 = 8
};

/* ------------------------------------------------------- mmap control page */
/* Masks of peo_mmap_page.capabilities, bitfield order on this host. */
#define PEO_CAP_BIT0 PEO_BITFIELD64(0)               /* always 0 */
#define PEO_CAP_BIT0_IS_DEPRECATED PEO_BITFIELD64(1) /* always 1 */
#define PEO_CAP_USER_RDPMC PEO_BITFIELD64(2)
#define PEO_CAP_USER_TIME PEO_BITFIELD64(3)
#define PEO_CAP_USER_TIME_ZERO PEO_BITFIELD64(4)
#define PEO_CAP_USER_TIME_SHORT PEO_BITFIELD64(5)

/*
 * struct peo_mmap_page - the first page of a perf mmap.  The self-monitoring
 * fields are read under the seqlock in lock; data_head is loaded with acquire
 * ordering and data_tail stored with release ordering.
 */
struct peo_mmap_page {
	uint32_t version;
	uint32_t compat_version;
	uint32_t lock;  /* seqlock for the fields below */
	uint32_t index; /* hardware counter + 1, or 0 */
	int64_t offset; /* add to the hardware counter */
	uint64_t time_enabled;
	uint64_t time_running;
	PEO_EXTENSION union {
		uint64_t capabilities;
		PEO_EXTENSION struct {
			uint64_t cap_bit0 : 1,
				cap_bit0_is_deprecated : 1,
				cap_user_rdpmc : 1,
				cap_user_time : 1,
				cap_user_time_zero : 1,
				cap_user_time_short : 1,
				cap_____res : 58;
		};
	};
	uint16_t pmc_width;
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_offset;
	uint64_t time_zero;
	uint32_t size; /* header size up to __reserved */
	uint32_t __reserved_1;
	uint64_t time_cycles;
	uint64_t time_mask;
	uint8_t __reserved[116 * 8]; /* pads the header to 1 KiB */
	uint64_t data_head;
	uint64_t data_tail;
	uint64_t data_offset;
	uint64_t data_size;
	uint64_t aux_head;
	uint64_t aux_tail;
	uint64_t aux_offset;
	uint64_t aux_size;
};

/* ------------------------------------------------------------------ records */
struct peo_event_header {
	uint32_t type; /* enum peo_record_type */
	uint16_t misc; /* PEO_RECORD_MISC_* */
	uint16_t size; /* whole record, header included */
};

enum peo_record_type {
	PEO_RECORD_MMAP = 1,
	PEO_RECORD_LOST = 2,
	PEO_RECORD_COMM = 3,
	PEO_RECORD_EXIT = 4,
	PEO_RECORD_THROTTLE = 5,
	PEO_RECORD_UNTHROTTLE = 6,
	PEO_RECORD_FORK = 7,
	PEO_RECORD_READ = 8,
	PEO_RECORD_SAMPLE = 9,
	PEO_RECORD_MMAP2 = 10,
	PEO_RECORD_AUX = 11,
	PEO_RECORD_ITRACE_START = 12,
	PEO_RECORD_LOST_SAMPLES = 13,
	PEO_RECORD_SWITCH = 14,
	PEO_RECORD_SWITCH_CPU_WIDE = 15,
	PEO_RECORD_NAMESPACES = 16,
	PEO_RECORD_KSYMBOL = 17,
	PEO_RECORD_BPF_EVENT = 18,
	PEO_RECORD_CGROUP = 19,
	PEO_RECORD_TEXT_POKE = 20,
	PEO_RECORD_AUX_OUTPUT_HW_ID = 21,
	PEO_RECORD_CALLCHAIN_DEFERRED = 22,
	PEO_RECORD_MAX /* not ABI */
};

#define PEO_RECORD_MISC_CPUMODE_MASK (7 << 0)
#define PEO_RECORD_MISC_CPUMODE_UNKNOWN (0 << 0)
#define PEO_RECORD_MISC_KERNEL (1 << 0)
#define PEO_RECORD_MISC_USER (2 << 0)
#define PEO_RECORD_MISC_HYPERVISOR (3 << 0)
#define PEO_RECORD_MISC_GUEST_KERNEL (4 << 0)
#define PEO_RECORD_MISC_GUEST_USER (5 << 0)
#define PEO_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT (1 << 12)
/* Bit 13 means different things on different record types. */
#define PEO_RECORD_MISC_MMAP_DATA (1 << 13)
#define PEO_RECORD_MISC_COMM_EXEC (1 << 13)
#define PEO_RECORD_MISC_FORK_EXEC (1 << 13)
#define PEO_RECORD_MISC_SWITCH_OUT (1 << 13)
/* So does bit 14. */
#define PEO_RECORD_MISC_EXACT_IP (1 << 14)
#define PEO_RECORD_MISC_SWITCH_OUT_PREEMPT (1 << 14)
#define PEO_RECORD_MISC_MMAP_BUILD_ID (1 << 14)
#define PEO_RECORD_MISC_EXT_RESERVED (1 << 15)

/* Namespace indices in NAMESPACES records. */
enum peo_ns_index {
	PEO_NS_NET = 0,
	PEO_NS_UTS = 1,
	PEO_NS_IPC = 2,
	PEO_NS_PID = 3,
	PEO_NS_USER = 4,
	PEO_NS_MNT = 5,
	PEO_NS_CGROUP = 6,
	PEO_NR_NAMESPACES = 7
};

enum peo_ksymbol_type {
	PEO_RECORD_KSYMBOL_TYPE_UNKNOWN = 0,
	PEO_RECORD_KSYMBOL_TYPE_BPF = 1,
	PEO_RECORD_KSYMBOL_TYPE_OOL = 2 /* out-of-line code: trampolines */
};
#define PEO_RECORD_KSYMBOL_FLAGS_UNREGISTER (1 << 0)

enum peo_bpf_event_type {
	PEO_BPF_EVENT_UNKNOWN = 0,
	PEO_BPF_EVENT_PROG_LOAD = 1,
	PEO_BPF_EVENT_PROG_UNLOAD = 2
};

/* AUX record flags. */
#define PEO_AUX_FLAG_TRUNCATED 0x01
#define PEO_AUX_FLAG_OVERWRITE 0x02
#define PEO_AUX_FLAG_PARTIAL 0x04
#define PEO_AUX_FLAG_COLLISION 0x08
#define PEO_AUX_FLAG_PMU_FORMAT_TYPE_MASK 0xff00
#define PEO_AUX_FLAG_CORESIGHT_FORMAT_CORESIGHT 0x0000
#define PEO_AUX_FLAG_CORESIGHT_FORMAT_RAW 0x0100

/* Callchain context markers, stored as u64 entries in the callchain. */
enum peo_callchain_context {
	PEO_CONTEXT_HV = -32,
	PEO_CONTEXT_KERNEL = -128,
	PEO_CONTEXT_USER = -512,
	PEO_CONTEXT_USER_DEFERRED = -640, /* 6.19: next entry is a cookie */
	PEO_CONTEXT_GUEST = -2048,
	PEO_CONTEXT_GUEST_KERNEL = -2176,
	PEO_CONTEXT_GUEST_USER = -2560,
	PEO_CONTEXT_MAX = -4095
};
/* Markers compare against the u64 entry: (uint64_t)(int64_t)PEO_CONTEXT_x. */
#define PEO_CONTEXT_ENTRY(c) ((uint64_t)(int64_t)(c))

/* The most frames a callchain holds by default (kernel.perf_event_max_stack
 * raises it) and the most context markers among them. */
#define PEO_MAX_STACK_DEPTH 127
#define PEO_MAX_CONTEXTS_PER_STACK 8

/*
 * A sample's DATA_SRC (PEO_SAMPLE_DATA_SRC), a u64 of fields at fixed bit
 * positions on either byte order: (value >> PEO_MEM_x_SHIFT) masked to
 * the field's width gives field x; PEO_MEM_S(x, NAME) builds one.
 * peo_data_src_decode() (record.h) splits a value into its fields.
 */
#define PEO_MEM_S(field, name) ((uint64_t)PEO_MEM_##field##_##name << PEO_MEM_##field##_SHIFT)
/* op, 5 bits: the kind of access */
#define PEO_MEM_OP_NA 0x01
#define PEO_MEM_OP_LOAD 0x02
#define PEO_MEM_OP_STORE 0x04
#define PEO_MEM_OP_PFETCH 0x08
#define PEO_MEM_OP_EXEC 0x10
#define PEO_MEM_OP_SHIFT 0
/* lvl, 14 bits: the memory level and hit or miss (older; lvl_num is newer) */
#define PEO_MEM_LVL_NA 0x01
#define PEO_MEM_LVL_HIT 0x02
#define PEO_MEM_LVL_MISS 0x04
#define PEO_MEM_LVL_L1 0x08
#define PEO_MEM_LVL_LFB 0x10
#define PEO_MEM_LVL_L2 0x20
#define PEO_MEM_LVL_L3 0x40
#define PEO_MEM_LVL_LOC_RAM 0x80
#define PEO_MEM_LVL_REM_RAM1 0x100
#define PEO_MEM_LVL_REM_RAM2 0x200
#define PEO_MEM_LVL_REM_CCE1 0x400
#define PEO_MEM_LVL_REM_CCE2 0x800
#define PEO_MEM_LVL_IO 0x1000
#define PEO_MEM_LVL_UNC 0x2000
#define PEO_MEM_LVL_SHIFT 5
/* snoop, 5 bits */
#define PEO_MEM_SNOOP_NA 0x01
#define PEO_MEM_SNOOP_NONE 0x02
#define PEO_MEM_SNOOP_HIT 0x04
#define PEO_MEM_SNOOP_MISS 0x08
#define PEO_MEM_SNOOP_HITM 0x10
#define PEO_MEM_SNOOP_SHIFT 19
/* lock, 2 bits: a locked instruction */
#define PEO_MEM_LOCK_NA 0x01
#define PEO_MEM_LOCK_LOCKED 0x02
#define PEO_MEM_LOCK_SHIFT 24
/* dtlb, 7 bits: the TLB access */
#define PEO_MEM_TLB_NA 0x01
#define PEO_MEM_TLB_HIT 0x02
#define PEO_MEM_TLB_MISS 0x04
#define PEO_MEM_TLB_L1 0x08
#define PEO_MEM_TLB_L2 0x10
#define PEO_MEM_TLB_WK 0x20 /* the hardware walker */
#define PEO_MEM_TLB_OS 0x40 /* the OS fault handler */
#define PEO_MEM_TLB_SHIFT 26
/* lvl_num, 4 bits: the level by number (a value, not bits) */
#define PEO_MEM_LVLNUM_L1 0x01
#define PEO_MEM_LVLNUM_L2 0x02
#define PEO_MEM_LVLNUM_L3 0x03
#define PEO_MEM_LVLNUM_L4 0x04
#define PEO_MEM_LVLNUM_L2_MHB 0x05 /* L2 miss handling buffer */
#define PEO_MEM_LVLNUM_MSC 0x06    /* memory-side cache */
#define PEO_MEM_LVLNUM_L0 0x07
#define PEO_MEM_LVLNUM_UNC 0x08    /* uncached */
#define PEO_MEM_LVLNUM_CXL 0x09
#define PEO_MEM_LVLNUM_IO 0x0a
#define PEO_MEM_LVLNUM_ANY_CACHE 0x0b
#define PEO_MEM_LVLNUM_LFB 0x0c
#define PEO_MEM_LVLNUM_RAM 0x0d
#define PEO_MEM_LVLNUM_PMEM 0x0e
#define PEO_MEM_LVLNUM_NA 0x0f
#define PEO_MEM_LVLNUM_SHIFT 33
/* remote, 1 bit */
#define PEO_MEM_REMOTE_REMOTE 0x01
#define PEO_MEM_REMOTE_SHIFT 37
/* snoopx, 2 bits: snoop, extended */
#define PEO_MEM_SNOOPX_FWD 0x01
#define PEO_MEM_SNOOPX_PEER 0x02
#define PEO_MEM_SNOOPX_SHIFT 38
/* blk, 3 bits: why the access was blocked */
#define PEO_MEM_BLK_NA 0x01
#define PEO_MEM_BLK_DATA 0x02
#define PEO_MEM_BLK_ADDR 0x04
#define PEO_MEM_BLK_SHIFT 40
/* hops, 3 bits: how far a remote access went (a value) */
#define PEO_MEM_HOPS_0 0x01 /* another core, the same node */
#define PEO_MEM_HOPS_1 0x02 /* another node, the same socket */
#define PEO_MEM_HOPS_2 0x03 /* another socket, the same board */
#define PEO_MEM_HOPS_3 0x04 /* another board */
#define PEO_MEM_HOPS_SHIFT 43
/* region, 5 bits: the cache or memory region (a value; the newest field) */
#define PEO_MEM_REGION_NA 0x00
#define PEO_MEM_REGION_RSVD 0x01
#define PEO_MEM_REGION_L_SHARE 0x02     /* local, shared cache */
#define PEO_MEM_REGION_L_NON_SHARE 0x03 /* local, non-shared cache */
#define PEO_MEM_REGION_O_IO 0x04        /* other, an IO agent */
#define PEO_MEM_REGION_O_SHARE 0x05     /* other, shared cache */
#define PEO_MEM_REGION_O_NON_SHARE 0x06 /* other, non-shared cache */
#define PEO_MEM_REGION_MMIO 0x07
#define PEO_MEM_REGION_MEM0 0x08        /* memory regions 0 to 7 */
#define PEO_MEM_REGION_MEM1 0x09
#define PEO_MEM_REGION_MEM2 0x0a
#define PEO_MEM_REGION_MEM3 0x0b
#define PEO_MEM_REGION_MEM4 0x0c
#define PEO_MEM_REGION_MEM5 0x0d
#define PEO_MEM_REGION_MEM6 0x0e
#define PEO_MEM_REGION_MEM7 0x0f
#define PEO_MEM_REGION_SHIFT 46

/*
 * Register numbers of sample_regs_user / sample_regs_intr: bit n of the
 * mask asks for register n, and a sample holds the registers asked for in
 * bit order (peo_sample_reg() in record.h finds one; peo_reg_number() names
 * them).  x86_64's XMM registers take two bits each (128 bits).
 */
enum peo_reg_x86 {
	PEO_REG_X86_AX = 0, PEO_REG_X86_BX, PEO_REG_X86_CX, PEO_REG_X86_DX,
	PEO_REG_X86_SI, PEO_REG_X86_DI, PEO_REG_X86_BP, PEO_REG_X86_SP,
	PEO_REG_X86_IP, PEO_REG_X86_FLAGS, PEO_REG_X86_CS, PEO_REG_X86_SS,
	PEO_REG_X86_DS, PEO_REG_X86_ES, PEO_REG_X86_FS, PEO_REG_X86_GS,
	PEO_REG_X86_R8, PEO_REG_X86_R9, PEO_REG_X86_R10, PEO_REG_X86_R11,
	PEO_REG_X86_R12, PEO_REG_X86_R13, PEO_REG_X86_R14, PEO_REG_X86_R15,
	PEO_REG_X86_32_MAX = PEO_REG_X86_GS + 1,
	PEO_REG_X86_64_MAX = PEO_REG_X86_R15 + 1,
	PEO_REG_X86_XMM0 = 32, /* XMMn = 32 + 2n, up to XMM15 = 62 */
	PEO_REG_X86_XMM15 = 62,
	PEO_REG_X86_XMM_MAX = PEO_REG_X86_XMM15 + 2
};
#define PEO_REG_X86_XMM(n) (PEO_REG_X86_XMM0 + 2 * (n))

enum peo_reg_arm64 {
	PEO_REG_ARM64_X0 = 0, /* Xn = n, up to X29 (the frame pointer) */
	PEO_REG_ARM64_X29 = 29,
	PEO_REG_ARM64_LR = 30,
	PEO_REG_ARM64_SP = 31,
	PEO_REG_ARM64_PC = 32,
	PEO_REG_ARM64_MAX = 33,
	PEO_REG_ARM64_VG = 46, /* the SVE vector granule (needs the extended mask) */
	PEO_REG_ARM64_EXTENDED_MAX = 47
};

/*
 * A BRANCH_STACK entry as the kernel writes it: from, to, and a word of
 * flags whose bits (mispred 1, predicted 1, in_tx 1, abort 1, cycles 16,
 * type 4, spec 2, new_type 4, priv 3) are laid out from the low end on a
 * little-endian machine and from the high end on a big-endian one:
 * peo_sample_branch() (record.h) decodes them either way.
 */
struct peo_branch_entry {
	uint64_t from;
	uint64_t to;
	uint64_t flags;
};
#define PEO_BRANCH_ENTRY_INFO_BITS_MAX 33

/*
 * A sample's WEIGHT_STRUCT: var1_dw in the low 32 bits (the access's
 * latency), var2_w in the next 16 (the instruction's latency on x86),
 * var3_w in the top 16 (where the PMU gives one), by value on either byte
 * order.  With plain WEIGHT the whole u64 is the weight.  A parsed
 * sample has them split already (struct peo_sample's weight_var1..3).
 */
union peo_sample_weight {
	uint64_t full;
	struct {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		uint16_t var3_w;
		uint16_t var2_w;
		uint32_t var1_dw;
#else
		uint32_t var1_dw;
		uint16_t var2_w;
		uint16_t var3_w;
#endif
	} w;
};

/* ------------------------------------------------ layout checks (C and C++) */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define PEO_STATIC_ASSERT(c, m) static_assert(c, m)
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define PEO_STATIC_ASSERT(c, m) _Static_assert(c, m)
#else
/* C99: a negative array size fails the build. */
#define PEO_STATIC_ASSERT_CAT2(a, b) a##b
#define PEO_STATIC_ASSERT_CAT(a, b) PEO_STATIC_ASSERT_CAT2(a, b)
#define PEO_STATIC_ASSERT(c, m) \
	typedef char PEO_STATIC_ASSERT_CAT(peo_static_assert_, __LINE__)[(c) ? 1 : -1]
#endif

#define PEO_ASSERT_AT(type, field, off) \
	PEO_STATIC_ASSERT(offsetof(type, field) == (off), #type "." #field " at " #off)

/* perf_event_attr: one line per field, sizes at every published version. */
PEO_ASSERT_AT(struct peo_attr, type, 0);
PEO_ASSERT_AT(struct peo_attr, size, 4);
PEO_ASSERT_AT(struct peo_attr, config, 8);
PEO_ASSERT_AT(struct peo_attr, sample_period, 16);
PEO_ASSERT_AT(struct peo_attr, sample_freq, 16);
PEO_ASSERT_AT(struct peo_attr, sample_type, 24);
PEO_ASSERT_AT(struct peo_attr, read_format, 32);
PEO_ASSERT_AT(struct peo_attr, flags, 40);
PEO_ASSERT_AT(struct peo_attr, wakeup_events, 48);
PEO_ASSERT_AT(struct peo_attr, wakeup_watermark, 48);
PEO_ASSERT_AT(struct peo_attr, bp_type, 52);
PEO_ASSERT_AT(struct peo_attr, bp_addr, 56);
PEO_ASSERT_AT(struct peo_attr, kprobe_func, 56);
PEO_ASSERT_AT(struct peo_attr, uprobe_path, 56);
PEO_ASSERT_AT(struct peo_attr, config1, 56);
PEO_STATIC_ASSERT(offsetof(struct peo_attr, config2) == PEO_ATTR_SIZE_VER0, "VER0 ends before config2");
PEO_ASSERT_AT(struct peo_attr, bp_len, 64);
PEO_ASSERT_AT(struct peo_attr, kprobe_addr, 64);
PEO_ASSERT_AT(struct peo_attr, probe_offset, 64);
PEO_ASSERT_AT(struct peo_attr, config2, 64);
PEO_STATIC_ASSERT(offsetof(struct peo_attr, branch_sample_type) == PEO_ATTR_SIZE_VER1, "VER1 ends before branch_sample_type");
PEO_ASSERT_AT(struct peo_attr, branch_sample_type, 72);
PEO_STATIC_ASSERT(offsetof(struct peo_attr, sample_regs_user) == PEO_ATTR_SIZE_VER2, "VER2 ends before sample_regs_user");
PEO_ASSERT_AT(struct peo_attr, sample_regs_user, 80);
PEO_ASSERT_AT(struct peo_attr, sample_stack_user, 88);
PEO_ASSERT_AT(struct peo_attr, clockid, 92);
PEO_STATIC_ASSERT(offsetof(struct peo_attr, sample_regs_intr) == PEO_ATTR_SIZE_VER3, "VER3 ends before sample_regs_intr");
PEO_ASSERT_AT(struct peo_attr, sample_regs_intr, 96);
PEO_STATIC_ASSERT(offsetof(struct peo_attr, aux_watermark) == PEO_ATTR_SIZE_VER4, "VER4 ends before aux_watermark");
PEO_ASSERT_AT(struct peo_attr, aux_watermark, 104);
PEO_ASSERT_AT(struct peo_attr, sample_max_stack, 108);
PEO_ASSERT_AT(struct peo_attr, __reserved_2, 110);
PEO_STATIC_ASSERT(offsetof(struct peo_attr, aux_sample_size) == PEO_ATTR_SIZE_VER5, "VER5 ends before aux_sample_size");
PEO_ASSERT_AT(struct peo_attr, aux_sample_size, 112);
PEO_ASSERT_AT(struct peo_attr, aux_action, 116);
PEO_STATIC_ASSERT(offsetof(struct peo_attr, sig_data) == PEO_ATTR_SIZE_VER6, "VER6 ends before sig_data");
PEO_ASSERT_AT(struct peo_attr, sig_data, 120);
PEO_STATIC_ASSERT(offsetof(struct peo_attr, config3) == PEO_ATTR_SIZE_VER7, "VER7 ends before config3");
PEO_ASSERT_AT(struct peo_attr, config3, 128);
PEO_STATIC_ASSERT(offsetof(struct peo_attr, config4) == PEO_ATTR_SIZE_VER8, "VER8 ends before config4");
PEO_ASSERT_AT(struct peo_attr, config4, 136);
PEO_STATIC_ASSERT(sizeof(struct peo_attr) == PEO_ATTR_SIZE_VER9, "peo_attr is VER9");
PEO_STATIC_ASSERT(sizeof(struct peo_attr) == PEO_ATTR_SIZE_LATEST, "LATEST is the struct size");

PEO_STATIC_ASSERT(sizeof(struct peo_query_bpf) == 8, "query_bpf header is 8 bytes");
PEO_STATIC_ASSERT(sizeof(struct peo_event_header) == 8, "record header is 8 bytes");
PEO_ASSERT_AT(struct peo_event_header, misc, 4);
PEO_ASSERT_AT(struct peo_event_header, size, 6);

/* perf_event_mmap_page */
PEO_ASSERT_AT(struct peo_mmap_page, version, 0);
PEO_ASSERT_AT(struct peo_mmap_page, compat_version, 4);
PEO_ASSERT_AT(struct peo_mmap_page, lock, 8);
PEO_ASSERT_AT(struct peo_mmap_page, index, 12);
PEO_ASSERT_AT(struct peo_mmap_page, offset, 16);
PEO_ASSERT_AT(struct peo_mmap_page, time_enabled, 24);
PEO_ASSERT_AT(struct peo_mmap_page, time_running, 32);
PEO_ASSERT_AT(struct peo_mmap_page, capabilities, 40);
PEO_ASSERT_AT(struct peo_mmap_page, pmc_width, 48);
PEO_ASSERT_AT(struct peo_mmap_page, time_shift, 50);
PEO_ASSERT_AT(struct peo_mmap_page, time_mult, 52);
PEO_ASSERT_AT(struct peo_mmap_page, time_offset, 56);
PEO_ASSERT_AT(struct peo_mmap_page, time_zero, 64);
PEO_ASSERT_AT(struct peo_mmap_page, size, 72);
PEO_ASSERT_AT(struct peo_mmap_page, __reserved_1, 76);
PEO_ASSERT_AT(struct peo_mmap_page, time_cycles, 80);
PEO_ASSERT_AT(struct peo_mmap_page, time_mask, 88);
PEO_ASSERT_AT(struct peo_mmap_page, __reserved, 96);
PEO_ASSERT_AT(struct peo_mmap_page, data_head, 1024);
PEO_ASSERT_AT(struct peo_mmap_page, data_tail, 1032);
PEO_ASSERT_AT(struct peo_mmap_page, data_offset, 1040);
PEO_ASSERT_AT(struct peo_mmap_page, data_size, 1048);
PEO_ASSERT_AT(struct peo_mmap_page, aux_head, 1056);
PEO_ASSERT_AT(struct peo_mmap_page, aux_tail, 1064);
PEO_ASSERT_AT(struct peo_mmap_page, aux_offset, 1072);
PEO_ASSERT_AT(struct peo_mmap_page, aux_size, 1080);
PEO_STATIC_ASSERT(sizeof(struct peo_mmap_page) == 1088, "mmap page header is 1088 bytes");

PEO_STATIC_ASSERT(sizeof(struct peo_branch_entry) == 24, "a branch entry is 24 bytes");
PEO_STATIC_ASSERT(sizeof(union peo_sample_weight) == 8, "a weight is a u64");
PEO_STATIC_ASSERT(PEO_MEM_S(REGION, MEM7) >> 46 == 0x0f && PEO_MEM_S(HOPS, 3) == 4ull << 43 &&
			  PEO_MEM_S(LVLNUM, NA) == 0xfull << 33 && PEO_MEM_S(OP, EXEC) == 0x10,
		  "data_src fields at their bits");
PEO_STATIC_ASSERT(PEO_MEM_REGION_SHIFT == PEO_MEM_HOPS_SHIFT + 3 &&
			  PEO_MEM_HOPS_SHIFT == PEO_MEM_BLK_SHIFT + 3 &&
			  PEO_MEM_BLK_SHIFT == PEO_MEM_SNOOPX_SHIFT + 2 &&
			  PEO_MEM_SNOOPX_SHIFT == PEO_MEM_REMOTE_SHIFT + 1 &&
			  PEO_MEM_REMOTE_SHIFT == PEO_MEM_LVLNUM_SHIFT + 4 &&
			  PEO_MEM_LVLNUM_SHIFT == PEO_MEM_TLB_SHIFT + 7 &&
			  PEO_MEM_TLB_SHIFT == PEO_MEM_LOCK_SHIFT + 2 &&
			  PEO_MEM_LOCK_SHIFT == PEO_MEM_SNOOP_SHIFT + 5 &&
			  PEO_MEM_SNOOP_SHIFT == PEO_MEM_LVL_SHIFT + 14 &&
			  PEO_MEM_LVL_SHIFT == PEO_MEM_OP_SHIFT + 5,
		  "data_src fields follow one another with their widths");

/* ioctl numbers: type '$' (0x24), sizes as the kernel encodes them. */
PEO_STATIC_ASSERT(PEO_IOC_TYPE(PEO_IOC_ENABLE) == '$' && PEO_IOC_NR(PEO_IOC_MODIFY_ATTRIBUTES) == 11, "ioctl type and numbers");
PEO_STATIC_ASSERT(PEO_IOC_SIZE(PEO_IOC_PERIOD) == 8 && PEO_IOC_SIZE(PEO_IOC_SET_BPF) == 4, "ioctl argument sizes");
PEO_STATIC_ASSERT(PEO_IOC_SIZE(PEO_IOC_ID) == sizeof(void *) && PEO_IOC_SIZE(PEO_IOC_MODIFY_ATTRIBUTES) == sizeof(void *), "pointer-sized ioctls");
#if defined(__x86_64__) || defined(__aarch64__) || (defined(__riscv) && __riscv_xlen == 64)
/* The numbers strace and the kernel print on 64-bit generic-layout machines. */
PEO_STATIC_ASSERT(PEO_IOC_ENABLE == 0x2400 && PEO_IOC_RESET == 0x2403 && PEO_IOC_PERIOD == 0x40082404U, "ioctl numbers");
PEO_STATIC_ASSERT(PEO_IOC_ID == 0x80082407U && PEO_IOC_QUERY_BPF == 0xc008240aU && PEO_IOC_MODIFY_ATTRIBUTES == 0x4008240bU, "ioctl numbers");
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PEO_ABI_H */
