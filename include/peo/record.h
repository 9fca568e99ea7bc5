/*
 * peo/record.h - the record layer: every record the kernel writes into a
 * ring (and perf.data keeps), parsed with bounds checks, in either byte
 * order, without copying.
 *
 * A parser is configured from the attrs of the events whose records it
 * will see.  peo_record_parse() fills a struct peo_record whose pointers
 * point into the caller's bytes; arrays whose elements may be in a foreign
 * byte order are read through the accessors below.
 *
 * Thread safety: a configured parser may be used from many threads at once.
 */
#ifndef PEO_RECORD_H
#define PEO_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "abi.h"
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct peo_record_parser;

/* The byte order of the records a parser reads. */
enum peo_byte_order {
	PEO_BYTE_ORDER_NATIVE = 0,
	PEO_BYTE_ORDER_LITTLE = 1,
	PEO_BYTE_ORDER_BIG = 2
};

/* Initialise with PEO_OPTS(peo_record_parser_opts, o, ...). */
struct peo_record_parser_opts {
	size_t sz;
	enum peo_byte_order byte_order; /* of the records and of the attrs given */
};

/**
 * peo_record_parser_new() - an empty parser.
 * @out:  receives it; free with peo_record_parser_free().
 * @opts: NULL for native byte order.
 * Returns 0, or -EINVAL (bad opts, E2BIG for unknown non-zero bytes) or -ENOMEM.
 */
PEO_API int peo_record_parser_new(struct peo_record_parser **out,
				  const struct peo_record_parser_opts *opts);

/** peo_record_parser_free() - free the parser; NULL is ignored. */
PEO_API void peo_record_parser_free(struct peo_record_parser *p);

/**
 * peo_record_parser_add() - records of the event opened with @attr will be
 * parsed: its sample_type, read_format, sample_id_all, branch_sample_type
 * and sample_regs_user/intr decide the layout.
 * @attr: in the parser's byte order (as read from a file), at least
 *        PEO_ATTR_SIZE_VER0 bytes as attr->size says; copied.
 * @ids:  the event ids (PERF_EVENT_IOC_ID, or a perf.data attr's ids) whose
 *        records use this attr; may be NULL when it is the only attr.
 * @nids: how many.
 *
 * With several attrs, every record must say whose it is: all attrs need
 * PEO_SAMPLE_IDENTIFIER, or PEO_SAMPLE_ID at the same place in each (as perf
 * requires); otherwise -EINVAL says which attr breaks the rule.
 * Returns 0, -EINVAL or -ENOMEM.
 */
PEO_API int peo_record_parser_add(struct peo_record_parser *p, const struct peo_attr *attr,
				  const uint64_t *ids, size_t nids);

/**
 * peo_record_parser_clone() - a parser of its own with @p's attrs and ids:
 * records can then be parsed on another thread while @p's owner goes on
 * (and adds attrs) undisturbed.  A record parsed with the copy points at
 * the copy's attrs (rec.attr).
 * @out: receives the copy; free with peo_record_parser_free().
 * @p:   the parser to copy; not changed.
 * Returns 0, -EINVAL for a NULL argument, or -ENOMEM.
 */
PEO_API int peo_record_parser_clone(struct peo_record_parser **out,
				    const struct peo_record_parser *p);

/*
 * The structs inside struct peo_record (peo_sample_id, peo_read, peo_sample
 * and the peo_rec_* of other records) are part of its layout: their fields
 * never change, so that the fields after the union stay where a program
 * built against 0.1 has them.  What the kernel adds to a record goes at the
 * end of struct peo_record.
 */

/* The sample_id trailer (sample_id_all), or the same fields of a sample. */
struct peo_sample_id {
	uint64_t fields; /* the PEO_SAMPLE_* bits present: TID TIME ID STREAM_ID CPU IDENTIFIER */
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
	uint64_t identifier;
};

/* A read_format block (READ records and READ samples). */
struct peo_read {
	uint64_t format;  /* the attr's read_format */
	uint64_t nr;      /* values: 1, or the group's members */
	uint64_t time_enabled, time_running;
	const void *values; /* nr entries of value[, id][, lost]: peo_read_value() */
	const void *single_tail; /* without PEO_FORMAT_GROUP: its [id][, lost] words */
};

/* One value of a read block (peo_read_value()); sized as common.h says. */
struct peo_read_value {
	size_t sz; /* set by the caller: sizeof(struct peo_read_value) */
	uint64_t value, id, lost;
};

/* A branch stack entry, its flags word decoded; sized as common.h says. */
struct peo_branch {
	size_t sz; /* set by the caller: sizeof(struct peo_branch) */
	uint64_t from, to;
	unsigned mispred : 1, predicted : 1, in_tx : 1, abort : 1;
	unsigned cycles : 16;
	unsigned type : 4;     /* enum peo_branch_type */
	unsigned spec : 2;     /* enum peo_branch_spec */
	unsigned new_type : 4; /* enum peo_branch_new_type */
	unsigned priv : 3;     /* enum peo_branch_priv */
};

struct peo_sample {
	uint64_t identifier, ip;
	uint32_t pid, tid;
	uint64_t time, addr, id, stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;
	struct peo_read read;
	uint64_t callchain_nr;
	const void *callchain;       /* callchain_nr u64: peo_record_u64() */
	uint32_t raw_size;
	const void *raw;             /* the tracepoint or PMU payload, raw_size bytes */
	uint64_t branch_nr, branch_hw_idx; /* hw_idx only with PEO_SAMPLE_BRANCH_HW_INDEX */
	const void *branches;        /* branch_nr entries: peo_sample_branch() */
	const void *branch_counters; /* branch_nr u64 with PEO_SAMPLE_BRANCH_COUNTERS, else NULL */
	uint64_t regs_user_abi;      /* enum peo_sample_regs_abi; no regs when NONE */
	uint32_t regs_user_nr;
	const void *regs_user;       /* regs_user_nr u64, in mask bit order */
	uint64_t stack_user_size, stack_user_dyn_size;
	const void *stack_user;      /* stack_user_size bytes; dyn_size of them valid */
	uint64_t weight;             /* WEIGHT, or WEIGHT_STRUCT as one u64 */
	uint32_t weight_var1;        /* WEIGHT_STRUCT: var1_dw, var2_w, var3_w */
	uint16_t weight_var2, weight_var3;
	uint64_t data_src;           /* peo_data_src_decode() */
	uint64_t transaction;        /* PEO_TXN_* bits, abort code above bit 32 */
	uint64_t regs_intr_abi;
	uint32_t regs_intr_nr;
	const void *regs_intr;
	uint64_t phys_addr, cgroup, data_page_size, code_page_size;
	uint64_t aux_size;
	const void *aux;
};

/* Non-sample records: the fields of each type, in the kernel's order. */
struct peo_rec_mmap {  /* MMAP and MMAP2 */
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min;   /* MMAP2 without PEO_RECORD_MISC_MMAP_BUILD_ID */
	uint64_t ino, ino_generation;
	uint8_t build_id_size; /* MMAP2 with PEO_RECORD_MISC_MMAP_BUILD_ID */
	const uint8_t *build_id;
	uint32_t prot, flags;
	const char *filename; /* NUL-terminated inside the record */
};
struct peo_rec_lost { uint64_t id, lost; };
struct peo_rec_comm { uint32_t pid, tid; const char *comm; int exec; };
struct peo_rec_task { uint32_t pid, ppid, tid, ptid; uint64_t time; }; /* FORK and EXIT */
struct peo_rec_throttle { uint64_t time, id, stream_id; };
struct peo_rec_read { uint32_t pid, tid; struct peo_read read; };
struct peo_rec_aux { uint64_t aux_offset, aux_size, flags; }; /* PEO_AUX_FLAG_* */
struct peo_rec_itrace_start { uint32_t pid, tid; };
struct peo_rec_lost_samples { uint64_t lost; };
struct peo_rec_switch { int out, preempt; uint32_t next_prev_pid, next_prev_tid; };
struct peo_rec_namespaces { uint32_t pid, tid; uint64_t nr; const void *entries; }; /* {dev, inode} */
struct peo_rec_ksymbol { uint64_t addr; uint32_t len; uint16_t ksym_type, flags; const char *name; };
struct peo_rec_bpf_event { uint16_t type, flags; uint32_t id; const uint8_t *tag; /* 8 bytes */ };
struct peo_rec_cgroup { uint64_t id; const char *path; };
struct peo_rec_text_poke { uint64_t addr; uint16_t old_len, new_len; const uint8_t *old_bytes, *new_bytes; };
struct peo_rec_aux_output_hw_id { uint64_t hw_id; };
struct peo_rec_callchain_deferred { uint64_t cookie, nr; const void *ips; };

/*
 * A parsed record.  The caller allocates it and sets sz (see common.h):
 *     struct peo_record r = { .sz = sizeof(r) };
 * peo_record_parse() writes only the first sz bytes.  The fields below are
 * 0.1's, in 0.1's order, union included; new fields go at the end only.  A
 * record made by hand for the functions that read one (peo_tp_field_int()...)
 * sets sz too: a newer libpeo reads the fields sz covers.
 */
struct peo_record {
	size_t sz;                      /* set by the caller: sizeof(struct peo_record) */
	struct peo_event_header header; /* in host order */
	const void *bytes;              /* the whole record, in the caller's buffer */
	/* Whose record (host order copy, in the parser), or NULL; valid
	 * until that parser adds an attr (peo_record_parser_add() may move
	 * them) or is freed. */
	const struct peo_attr *attr;
	/* Written in the other byte order: arrays are swapped by the accessors,
	 * and bitfield words (branch flags) were laid out from the other end. */
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
	struct peo_sample_id sample_id; /* the trailer; fields == 0 when absent */
	int unknown;                    /* a type peo does not know: only bytes and header */
	/* New fields here, at the end only. */
};

/**
 * peo_record_parse() - parse the record at @bytes.
 * @p:     a parser that knows the attr of every event in the stream.
 * @bytes: the record, header first, @len bytes (at least header.size).
 * @out:   receives it; its pointers point into @bytes, but out->attr,
 *         which points into @p (see struct peo_record).  out->sz is the
 *         caller's (sizeof(struct peo_record)); only that many bytes are
 *         written, and those past the fields this libpeo knows are zeroed.
 *
 * An unknown record type is not an error: out->unknown is set and only
 * the header and bytes are filled.  Returns 0, -EINVAL for a NULL argument
 * or an out->sz under 0.1's size (nothing is written then), or -EPROTO for
 * a record whose fields run past its size or whose counts are impossible (the
 * sentence names the record type, the field and its byte offset), or
 * -ENOENT when no attr matches the record's id (the id is named).  After
 * an error @out holds no parsed record (its header at most).
 */
PEO_API int peo_record_parse(const struct peo_record_parser *p, const void *bytes, size_t len,
			     struct peo_record *out);

/**
 * peo_record_parse_segments() - parse a record given as two pieces (a ring
 * record that wraps the end): copied into @scratch only when seg1 is not
 * NULL, then parsed there.
 * @scratch: at least len0 + len1 bytes when the record is split, else unused.
 * Returns as peo_record_parse(), or -ENOSPC when @cap is too small.
 */
PEO_API int peo_record_parse_segments(const struct peo_record_parser *p, const void *seg0,
				      size_t len0, const void *seg1, size_t len1, void *scratch,
				      size_t cap, struct peo_record *out);

/**
 * peo_reg_number() - the number of register @name of machine @e_machine
 * (an ELF e_machine: EM_X86_64 62, EM_AARCH64 183; 0 for the machine peo
 * was built for), as sample_regs_user's bits and peo_sample_reg() number
 * them: "ax" (or "rax"), "ip", "sp", "r8".."r15", "xmm0".."xmm15" on
 * x86_64; "x0".."x30", "fp" (x29), "lr", "sp", "pc", "vg" on arm64; case
 * does not matter.
 * Returns the number (PEO_REG_*), -ENOENT for a name the machine has not
 * (the sentence lists its names), -EINVAL (NULL @name, or a machine peo
 * does not know).
 */
PEO_API int peo_reg_number(uint16_t e_machine, const char *name);

/**
 * peo_sample_reg() - register @reg (peo_reg_number()'s) of sample @r: its
 * user registers (REGS_USER), or with @intr its interrupt ones
 * (REGS_INTR), found by the attr's mask.
 * Returns 0 with *@value (host order; an XMM register's low 64 bits),
 * -ENOENT when the attr did not ask for @reg or the sample holds no
 * registers (a kernel thread's user registers: abi NONE), -EINVAL (NULL
 * arguments, a record that is not a sample or has no attr).
 */
PEO_API int peo_sample_reg(const struct peo_record *r, int intr, int reg, uint64_t *value);

/*
 * A visitor: a callback per record type, for code that would rather not
 * switch on header.type.  Each gets the parsed record and the caller's
 * @ctx, and returns 0 to go on or anything else to stop (its value is
 * peo_record_visit()'s).  A NULL callback leaves its records to @other
 * (which may be NULL too).  Initialise with
 * PEO_OPTS(peo_record_visitor, v, .sample = on_sample, ...).
 */
typedef int (*peo_record_visit_fn)(const struct peo_record *r, void *ctx);

struct peo_record_visitor {
	size_t sz;
	peo_record_visit_fn sample;
	peo_record_visit_fn mmap;         /* MMAP and MMAP2 */
	peo_record_visit_fn comm;
	peo_record_visit_fn fork;
	peo_record_visit_fn exit;
	peo_record_visit_fn lost;
	peo_record_visit_fn lost_samples;
	peo_record_visit_fn throttle;     /* THROTTLE and UNTHROTTLE */
	peo_record_visit_fn read;
	peo_record_visit_fn aux;
	peo_record_visit_fn itrace_start;
	peo_record_visit_fn sw;           /* SWITCH and SWITCH_CPU_WIDE */
	peo_record_visit_fn namespaces;
	peo_record_visit_fn ksymbol;
	peo_record_visit_fn bpf_event;
	peo_record_visit_fn cgroup;
	peo_record_visit_fn text_poke;
	peo_record_visit_fn aux_output_hw_id;
	peo_record_visit_fn callchain_deferred;
	peo_record_visit_fn other;        /* any record without its own callback,
					   * and types peo does not know */
};

/**
 * peo_record_visit() - call @v's callback for @r's type (or @v->other).
 * @r:   a parsed record (peo_record_parse(), peo_sampler_next(),
 *       peo_perfdata_next()'s rec).
 * @v:   the callbacks; v->sz set.
 * @ctx: handed to the callback.
 * Returns the callback's value, 0 when none is set for @r, or -EINVAL
 * (NULL @r or @v, a v->sz this libpeo does not know).
 */
PEO_API int peo_record_visit(const struct peo_record *r, const struct peo_record_visitor *v,
			     void *ctx);

/**
 * peo_record_copy() - a copy of parsed record @r that owns its bytes and
 * its attr: it stays valid after the ring, file or parser @r came from is
 * gone (perf-event-data's into_owned()).  Every pointer of @r into its
 * bytes points at the same place of the copy's; the accessors
 * (peo_record_u64(), peo_sample_reg(), peo_tp_field_int()...) take it as
 * they take @r.
 * @r:   a record of a parser, a ring, a file or a sampler.
 * @out: receives the copy; free it with peo_record_free().
 * Returns 0, -EINVAL (NULL arguments, or @r not parsed: its sz or bytes
 * missing), -ENOMEM.
 */
PEO_API int peo_record_copy(const struct peo_record *r, struct peo_record **out);

/** peo_record_free() - free a copy made by peo_record_copy(); NULL is ignored. */
PEO_API void peo_record_free(struct peo_record *copy);

/** peo_record_u64() - element @i of a u64 array of @r (callchain, regs...), in host order. */
PEO_API uint64_t peo_record_u64(const struct peo_record *r, const void *array, size_t i);

/**
 * peo_read_value() - entry @i of a read block of @r.
 * @out: out->sz set by the caller (sizeof(struct peo_read_value)); only that
 *       many bytes are written.
 * Returns 0, -ERANGE, or -EINVAL for an out->sz under 0.1's size.
 */
PEO_API int peo_read_value(const struct peo_record *r, const struct peo_read *read, size_t i,
			   struct peo_read_value *out);

/**
 * peo_sample_branch() - branch entry @i of a sample.
 * @out: out->sz set by the caller (sizeof(struct peo_branch)); only that
 *       many bytes are written.
 * Returns 0, -ERANGE, or -EINVAL for an out->sz under 0.1's size.
 */
PEO_API int peo_sample_branch(const struct peo_record *r, size_t i, struct peo_branch *out);

/* DATA_SRC, decoded (the PERF_MEM_* values of each field); sized as common.h says. */
struct peo_data_src {
	size_t sz; /* set by the caller: sizeof(struct peo_data_src) */
	/* each field's PEO_MEM_<FIELD>_* values (abi.h): op PEO_MEM_OP_*,
	 * lvl LVL_*, snoop SNOOP_*, lock LOCK_*, dtlb TLB_*, lvl_num LVLNUM_*,
	 * remote REMOTE_*, snoopx SNOOPX_*, blk BLK_*, hops HOPS_* */
	unsigned op, lvl, snoop, lock, dtlb, lvl_num, remote, snoopx, blk, hops;
	unsigned region; /* PEO_MEM_REGION_* (0.2) */
};

/**
 * peo_data_src_decode() - split a DATA_SRC value (host order) into its fields.
 * @out: out->sz set by the caller (sizeof(struct peo_data_src)); only that
 *       many bytes are written.
 * Returns 0, or -EINVAL for a NULL @out or an out->sz under 0.1's size.
 */
PEO_API int peo_data_src_decode(uint64_t data_src, struct peo_data_src *out);

/*
 * Walking a callchain: each ip with the context it belongs to (the
 * PERF_CONTEXT_* marker before it); markers are not handed out as ips.
 * A PEO_CONTEXT_USER_DEFERRED marker is followed by a cookie, handed out
 * with context PEO_CONTEXT_USER_DEFERRED.  The iterator is the caller's,
 * sized as common.h says; its fields past sz are libpeo's state.
 */
struct peo_callchain_iter {
	size_t sz; /* set by the caller: sizeof(struct peo_callchain_iter) */
	const struct peo_record *r;
	const void *ips;
	uint64_t nr, i;
	int64_t context; /* the current PEO_CONTEXT_*, 0 before any marker */
};

/**
 * peo_callchain_begin() - start walking a sample's callchain.
 * @it: the caller's, it->sz set (sizeof(struct peo_callchain_iter)), as
 *      common.h says of sized structs.
 * @r:  the sample (or CALLCHAIN_DEFERRED record); it must outlive the walk.
 * Returns 0, or -EINVAL for a NULL argument or an it->sz under 0.1's size
 * (nothing is written then: do not walk @it).
 */
PEO_API int peo_callchain_begin(struct peo_callchain_iter *it, const struct peo_record *r);

/**
 * peo_callchain_next() - the next ip and its context.
 * Returns 1 with *ip and *context set, or 0 at the end.
 */
PEO_API int peo_callchain_next(struct peo_callchain_iter *it, uint64_t *ip, int64_t *context);

/** peo_record_type_name() - "MMAP", "SAMPLE"... or "UNKNOWN". */
PEO_API const char *peo_record_type_name(uint32_t type);

/* ------------------------------------------------ tracepoint payloads */

/*
 * A tracepoint's format (tracefs events/SYS/NAME/format, or the same text
 * from a perf.data file), for decoding a sample's RAW payload by field name.
 */
struct peo_tp_format;

/* A field of a format: libpeo's, handed out one by pointer (it may grow at
 * its end). */
struct peo_tp_field {
	const char *name;   /* "offset", "comm", "common_pid" */
	const char *type;   /* "off_t", "char", "__data_loc char[]" */
	uint32_t offset, size;
	int is_signed;
	uint32_t array_len; /* elements of a fixed array (char comm[16]: 16), else 0 */
	int data_loc;       /* 1: __data_loc (u32: offset | length << 16), 2: __rel_loc */
	int common;         /* a common_* field */
	int is_text;        /* a char array or __data_loc char[]: a string up to its NUL */
	int is_hex;         /* a pointer or an unsigned long: perf prints it in hex */
};

/**
 * peo_tp_format_parse() - parse a format file's text.
 * @out:  receives the format; free with peo_tp_format_free().
 * @text: the whole file, NUL-terminated.
 * Returns 0, or -EPROTO naming the line that is not a field (its number),
 * -EINVAL for NULL arguments, -ENOMEM.
 */
PEO_API int peo_tp_format_parse(struct peo_tp_format **out, const char *text);

/**
 * peo_tp_format_load() - read and parse SYS:NAME's format from tracefs.
 * @tracefs: the tracefs directory, or NULL for /sys/kernel/tracing (or the
 *           debugfs one).
 * Returns 0, -ENOENT (no such tracepoint, or tracefs not mounted: the
 * sentence says which), -EACCES, or what peo_tp_format_parse() returns.
 */
PEO_API int peo_tp_format_load(struct peo_tp_format **out, const char *tracefs, const char *sys,
			       const char *name);

/** peo_tp_format_free() - free it; NULL is ignored. */
PEO_API void peo_tp_format_free(struct peo_tp_format *f);

/** peo_tp_format_name() - the tracepoint's name line ("sched_switch"). */
PEO_API const char *peo_tp_format_name(const struct peo_tp_format *f);

/** peo_tp_format_id() - its ID line (the attr.config of the event), or -1. */
PEO_API long long peo_tp_format_id(const struct peo_tp_format *f);

/** peo_tp_format_count() - how many fields, common ones included. */
PEO_API size_t peo_tp_format_count(const struct peo_tp_format *f);

/** peo_tp_format_field() - field @i, or NULL past the end. */
PEO_API const struct peo_tp_field *peo_tp_format_field(const struct peo_tp_format *f, size_t i);

/** peo_tp_format_find() - the field called @name, or NULL. */
PEO_API const struct peo_tp_field *peo_tp_format_find(const struct peo_tp_format *f,
						       const char *name);

/**
 * peo_tp_field_int() - an integer field of a RAW payload, sign-extended
 * when the format says signed; element @index of an array field.
 * @rec: the record the payload came from (for its byte order), or NULL
 *       for host order.
 * Returns 0, or -EPROTO when the field lies past @raw_size (sentence with
 * the field and its offset), -EINVAL for a size other than 1, 2, 4, 8.
 */
PEO_API int peo_tp_field_int(const struct peo_tp_field *field, const struct peo_record *rec,
			     const void *raw, size_t raw_size, size_t index, int64_t *out);

/**
 * peo_tp_field_bytes() - where a field's bytes are in a RAW payload: the
 * field itself, or for __data_loc/__rel_loc the data it points to.
 * A char array or string gives its bytes up to the first NUL in *@len.
 * Returns 0, or -EPROTO when the field or its data lies past @raw_size.
 */
PEO_API int peo_tp_field_bytes(const struct peo_tp_field *field, const struct peo_record *rec,
			       const void *raw, size_t raw_size, const void **bytes, size_t *len);

/**
 * peo_tp_field_raw_bytes() - as peo_tp_field_bytes(), but all of the
 * field's bytes: a char array's past its first NUL too (an address in one,
 * an unsigned char buffer).
 * @field: a field of the sample's format (peo_tp_format_field()/_find()).
 * @rec:   the sample, for its byte order (a __data_loc's word), or NULL
 *         for host order.
 * @raw, @raw_size: the sample's RAW payload.
 * @bytes: receives where the bytes are (inside @raw).
 * @len:   receives how many.
 * Returns 0, -EINVAL for a NULL argument, or -EPROTO when the field or its
 * data lies past @raw_size; peo_last_error() says which.
 */
PEO_API int peo_tp_field_raw_bytes(const struct peo_tp_field *field, const struct peo_record *rec,
				   const void *raw, size_t raw_size, const void **bytes,
				   size_t *len);

/** peo_tp_format_print_fmt() - the format's "print fmt:" line, after the label ("" if none). */
PEO_API const char *peo_tp_format_print_fmt(const struct peo_tp_format *f);

/**
 * peo_tp_format_print() - a RAW payload as the kernel's print fmt says to
 * print it (what perf script -F trace prints): the format string with each
 * conversion filled from its argument.  Arguments are C expressions:
 * REC->field and REC->array[i], __get_str(field), numbers and strings,
 * casts, arithmetic, comparisons, logic (short-circuit, as C: an operand
 * not evaluated is not checked), ?:, __builtin_expect(), __print_flags()
 * and __print_symbolic(), __get_dynamic_array() and its _len,
 * __print_hex() and __print_hex_str(), __print_array(), __get_bitmask()
 * and __get_cpumask() (as the kernel's %*pb).  A name the format does not
 * define (a kernel variable, an enum constant) is 0 inside an expression,
 * as perf takes it; alone as a table entry's value it matches nothing.
 * %pS/%ps/%pF/%pB print the symbol from this machine's /proc/kallsyms
 * (hex when none), %pI4/%pI6c/%pISpc and their kin the network address in
 * the field (INVALIDIPv4/6 for a field of another size), %p of 0 "(nil)",
 * %s of a pointer the kernel string at that address (from the printk
 * formats list) else the address in hex.  Helpers peo does not evaluate
 * (jiffies_to_msecs()...) are -ENOTSUP, naming them: then
 * peo_tp_format_print_fields() prints the fields raw.
 * @f:    the format (peo_tp_format_parse() or _load()).
 * @rec:  the sample, for its byte order.
 * @raw, @raw_size: the sample's RAW payload.
 * @buf:  receives the text, NUL-terminated, cut at @cap.
 * @cap:  bytes at @buf.
 * Returns the length of the text, or a negative errno: -EPROTO for a field
 * past the payload, -EDOM for a division by zero, -ENOSPC for strings past
 * the evaluator's scratch space, -ENOTSUP; peo_last_error() says which.
 */
PEO_API int peo_tp_format_print(const struct peo_tp_format *f, const struct peo_record *rec,
				const void *raw, size_t raw_size, char *buf, size_t cap);

/**
 * peo_tp_format_print_fields() - each field of a RAW payload but the
 * common_* ones, as "name=value" joined by spaces, as perf prints them
 * after "[FAILED TO PARSE]": integers in decimal (pointers and unsigned
 * longs in hex with 0x, signed shorts two wide), char arrays, __data_loc
 * strings and byte arrays that read as text as their text, other arrays
 * as ARRAY[...] of their bytes in hex.  What to print when the print fmt
 * cannot be.
 * @f:    the format (peo_tp_format_parse() or _load()).
 * @rec:  the sample, for its byte order.
 * @raw, @raw_size: the sample's RAW payload.
 * @buf:  receives the text, NUL-terminated, cut at @cap.
 * @cap:  bytes at @buf (at least 1).
 * Returns the length of the text (what would fit without the cut), or a
 * negative errno with peo_last_error() saying which field: -EPROTO for a
 * field past the payload, -EINVAL for a NULL argument or @cap 0.
 */
PEO_API int peo_tp_format_print_fields(const struct peo_tp_format *f,
				       const struct peo_record *rec, const void *raw,
				       size_t raw_size, char *buf, size_t cap);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PEO_RECORD_H */
