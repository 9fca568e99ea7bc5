/*
 * peo/perfdata.h - the perf.data layer: reading the files perf record
 * writes (file mode and pipe mode, either byte order), record by record,
 * with memory bounded whatever the file's size.
 *
 * Thread safety: one thread uses a reader at a time.
 */
#ifndef PEO_PERFDATA_H
#define PEO_PERFDATA_H

#include <stddef.h>
#include <stdint.h>

#include "abi.h"
#include "common.h"
#include "record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* perf's own record types (64 and up), as they appear in perf.data. */
enum peo_user_record_type {
	PEO_RECORD_HEADER_ATTR = 64,
	PEO_RECORD_HEADER_EVENT_TYPE = 65,
	PEO_RECORD_HEADER_TRACING_DATA = 66,
	PEO_RECORD_HEADER_BUILD_ID = 67,
	PEO_RECORD_FINISHED_ROUND = 68,
	PEO_RECORD_ID_INDEX = 69,
	PEO_RECORD_AUXTRACE_INFO = 70,
	PEO_RECORD_AUXTRACE = 71,
	PEO_RECORD_AUXTRACE_ERROR = 72,
	PEO_RECORD_THREAD_MAP = 73,
	PEO_RECORD_CPU_MAP = 74,
	PEO_RECORD_STAT_CONFIG = 75,
	PEO_RECORD_STAT = 76,
	PEO_RECORD_STAT_ROUND = 77,
	PEO_RECORD_EVENT_UPDATE = 78,
	PEO_RECORD_TIME_CONV = 79,
	PEO_RECORD_HEADER_FEATURE = 80,
	PEO_RECORD_COMPRESSED = 81,
	PEO_RECORD_FINISHED_INIT = 82,
	PEO_RECORD_COMPRESSED2 = 83,
	PEO_RECORD_BPF_METADATA = 84,
	PEO_RECORD_SCHEDSTAT_CPU = 85,
	PEO_RECORD_SCHEDSTAT_DOMAIN = 86,
	PEO_RECORD_USER_MAX /* not ABI */
};

/* Feature section bits of the file header. */
enum peo_feature_bit {
	PEO_FEAT_TRACING_DATA = 1,
	PEO_FEAT_BUILD_ID = 2,
	PEO_FEAT_HOSTNAME = 3,
	PEO_FEAT_OSRELEASE = 4,
	PEO_FEAT_VERSION = 5,
	PEO_FEAT_ARCH = 6,
	PEO_FEAT_NRCPUS = 7,
	PEO_FEAT_CPUDESC = 8,
	PEO_FEAT_CPUID = 9,
	PEO_FEAT_TOTAL_MEM = 10,
	PEO_FEAT_CMDLINE = 11,
	PEO_FEAT_EVENT_DESC = 12,
	PEO_FEAT_CPU_TOPOLOGY = 13,
	PEO_FEAT_NUMA_TOPOLOGY = 14,
	PEO_FEAT_BRANCH_STACK = 15,
	PEO_FEAT_PMU_MAPPINGS = 16,
	PEO_FEAT_GROUP_DESC = 17,
	PEO_FEAT_AUXTRACE = 18,
	PEO_FEAT_STAT = 19,
	PEO_FEAT_CACHE = 20,
	PEO_FEAT_SAMPLE_TIME = 21,
	PEO_FEAT_MEM_TOPOLOGY = 22,
	PEO_FEAT_CLOCKID = 23,
	PEO_FEAT_DIR_FORMAT = 24,
	PEO_FEAT_BPF_PROG_INFO = 25,
	PEO_FEAT_BPF_BTF = 26,
	PEO_FEAT_COMPRESSED = 27,
	PEO_FEAT_CPU_PMU_CAPS = 28,
	PEO_FEAT_CLOCK_DATA = 29,
	PEO_FEAT_HYBRID_TOPOLOGY = 30,
	PEO_FEAT_PMU_CAPS = 31,
	PEO_FEAT_MAX = 256 /* bits in the header's bitmap */
};

struct peo_perfdata;

/* The order peo_perfdata_next() delivers records in (opts.ordered). */
enum peo_perfdata_order {
	/* As they are in the file.  A directory (perf record --threads) in
	 * perf's reading order: the header file's records, then 2 MiB of
	 * each data.N file in turn, in the order the directory lists them. */
	PEO_PERFDATA_FILE_ORDER = 0,
	/* Sorted by time as perf does: records are held until a
	 * FINISHED_ROUND says every record up to the previous round's newest
	 * time has arrived (memory: about two rounds); one older than that,
	 * in a file that breaks the promise, waits for the next round, as in
	 * perf (which warns of "out of order events"); records without a time
	 * and perf's own types (64 and up) pass at once.  A directory's
	 * streams are sorted whole, as perf sorts them (each is read twice:
	 * first for the records older than one before them; only those held
	 * back for them take memory); equal times go in perf's reading order. */
	PEO_PERFDATA_TIME_ORDER = 1,
	/* As perf script and perf report choose: time order, unless the file
	 * (not a pipe) has events whose first lacks sample_id_all; then only
	 * samples carry a time, and perf goes in file order. */
	PEO_PERFDATA_ORDER_AS_PERF = 2,
};

/* Initialise with PEO_OPTS(peo_perfdata_opts, o, ...). */
struct peo_perfdata_opts {
	size_t sz;
	/* 0: a regular file on a 64-bit system is mapped whole, its pages
	 * filled a few MiB ahead of the reader and dropped behind the oldest
	 * record in use, so records are never copied; a pipe (or a file that
	 * cannot be mapped) is read 4 MiB at a time.  Otherwise: read this many
	 * bytes at a time (at least 128 KiB, the largest record and its
	 * neighbour), mapped or with pread.  Either way memory stays at a few
	 * dozen MiB whatever the file's size. */
	size_t window;
	/* enum peo_perfdata_order: PEO_PERFDATA_FILE_ORDER (0),
	 * PEO_PERFDATA_TIME_ORDER (1) or PEO_PERFDATA_ORDER_AS_PERF (2); any
	 * other value is refused (it was a flag: every nonzero value had
	 * meant time order). */
	int ordered;
	/* Records come with their header, bytes and attr only (rec.u and
	 * rec.sample_id are not filled): what counting needs, without the
	 * field parse. */
	int headers_only;
	/* Start a helper thread that fills the mapped file's page tables ahead
	 * of the reader, so that kernel work runs on another core (a file
	 * mapped whole only; joined by peo_perfdata_close()).  0: the reading
	 * thread does it. */
	int readahead_thread;
	/* Read a damaged file as far as it goes (perf's --force): a file
	 * whose recording was not finished (perf record or peo record killed:
	 * the header's data size is 0 with records after it) or that was cut
	 * short has its data run to the file's end, and its feature sections
	 * that lie past the end are left out (peo_perfdata_damaged() says
	 * what was wrong); a record cut by the end of the data (or of a pipe)
	 * ends the records instead of failing them (peo_perfdata_next()
	 * returns 0; peo_perfdata_stopped() says where).  0: such files are
	 * refused with -ENODATA, and a cut record is an -EPROTO error. */
	int force;
};

/**
 * peo_perfdata_open() - open a perf.data file, or "-" for standard input
 * (pipe mode, as `perf record -o -` writes it).
 * @out:  receives the reader; close it with peo_perfdata_close().
 * @path: the file, or "-".
 * @opts: NULL for the defaults.
 *
 * Reads the header and, in file mode, the attrs with their ids and the
 * feature index.  Returns 0, or a negative errno: -ENOENT/-EACCES for the
 * path; -EPROTO for a file that is not perf.data or is malformed (the
 * sentence gives the byte offset and what was wrong); -ENODATA for a file
 * whose recording was not finished, or that was cut short, without
 * opts.force (the sentence says which, and how many bytes of records
 * there are: opts.force reads them); -ESPIPE for a file-mode perf.data
 * that comes through a pipe (its parts are found by seeking: read the
 * file itself); -ENOMEM; -EINVAL for an opts.ordered that is not an enum
 * peo_perfdata_order.  A directory's errors name the file of it they are
 * about (DIR/data, DIR/data.N).
 */
PEO_API int peo_perfdata_open(struct peo_perfdata **out, const char *path,
			      const struct peo_perfdata_opts *opts);

/**
 * peo_perfdata_open_fd() - as peo_perfdata_open() on an open fd (a file,
 * or a pipe); the reader does not close it.
 */
PEO_API int peo_perfdata_open_fd(struct peo_perfdata **out, int fd,
				 const struct peo_perfdata_opts *opts);

/** peo_perfdata_close() - free the reader (and close the file it opened). */
PEO_API void peo_perfdata_close(struct peo_perfdata *f);

/**
 * peo_perfdata_damaged() - what was wrong with a file that opts.force
 * opened anyway: a sentence saying the recording was not finished (the
 * header's data size is 0) or the file is cut short, and how many bytes of
 * records there are.
 * @f: the reader.
 * Returns the sentence, valid while @f is open, or NULL for a file that
 * is whole (and for a NULL @f).
 */
PEO_API const char *peo_perfdata_damaged(const struct peo_perfdata *f);

/**
 * peo_perfdata_stopped() - where the records stopped early under
 * opts.force: once peo_perfdata_next() returned 0 at a record cut by the
 * end of the data, a sentence with that record's offset (in a directory,
 * its file's name), its size and the bytes there are of it.
 * @f: the reader.
 * Returns the sentence, valid while @f is open, or NULL while the records
 * have not stopped at a cut one (and for a NULL @f).
 */
PEO_API const char *peo_perfdata_stopped(const struct peo_perfdata *f);

/** peo_perfdata_is_pipe() - 1 for pipe mode, 0 for a file. */
PEO_API int peo_perfdata_is_pipe(const struct peo_perfdata *f);

/* Where a perf.data file's parts lie, as its header says. */
struct peo_perfdata_layout {
	size_t sz;             /* sizeof(struct peo_perfdata_layout) */
	uint64_t data_offset;  /* the records' first byte */
	uint64_t data_size;    /* their bytes */
	uint64_t feat_offset;  /* the feature sections' index (after the records) */
};

/**
 * peo_perfdata_layout() - where the records and the features of file @f
 * lie (what perf report --header calls data offset, data size and feat
 * offset).
 * @f:   the reader.
 * @out: receives them; set its sz first.
 * Returns 0, -EINVAL (a NULL argument, an unknown size), -ENOTSUP for pipe
 * mode (no header with offsets).
 */
PEO_API int peo_perfdata_layout(const struct peo_perfdata *f, struct peo_perfdata_layout *out);

/**
 * peo_perfdata_has_feature() - 1 when the file's header lists feature
 * section @bit (PEO_FEAT_*), else 0 (pipe mode: when its record came).
 */
PEO_API int peo_perfdata_has_feature(const struct peo_perfdata *f, unsigned bit);

/** peo_perfdata_byte_order() - PEO_BYTE_ORDER_LITTLE or _BIG, the writer's. */
PEO_API enum peo_byte_order peo_perfdata_byte_order(const struct peo_perfdata *f);

/**
 * peo_perfdata_attr_count() - events in the file so far (pipe mode learns
 * them from HEADER_ATTR records as they arrive).
 */
PEO_API size_t peo_perfdata_attr_count(const struct peo_perfdata *f);

/**
 * peo_perfdata_attr() - event @i's attr in host order, or NULL.  Valid
 * until the reader closes, or, reading a pipe, until the next
 * peo_perfdata_next() (a HEADER_ATTR adds an event and may move them).
 */
PEO_API const struct peo_attr *peo_perfdata_attr(const struct peo_perfdata *f, size_t i);

/** peo_perfdata_attr_ids() - event @i's ids (*n of them), in host order. */
PEO_API const uint64_t *peo_perfdata_attr_ids(const struct peo_perfdata *f, size_t i, size_t *n);

/**
 * peo_perfdata_event_name() - event @i's name as perf recorded it
 * (EVENT_DESC); without one, the generic name of its attr's type and
 * config ("cpu-clock", "cycles"), as perf shows it; else NULL.
 */
PEO_API const char *peo_perfdata_event_name(const struct peo_perfdata *f, size_t i);

/**
 * peo_perfdata_event_of() - the index of the event a record belongs to.
 * @f: the reader.
 * @attr: the record's rec.attr, as this reader (or its own parser,
 *        peo_perfdata_parser()) gave it; one from a peo_record_parser_clone()
 *        is another copy and gives -1.
 * Returns the event's index (as for peo_perfdata_attr()), or -1 for a NULL
 * argument or an attr that is not one of the reader's.
 */
PEO_API int peo_perfdata_event_of(const struct peo_perfdata *f, const struct peo_attr *attr);

/**
 * peo_perfdata_parser() - the parser the reader parses records with: its
 * attrs are the file's events, in index order.  With opts.headers_only the
 * records come unparsed; peo_record_parse() with this parser (or a
 * peo_record_parser_clone() of it, to parse on another thread) parses
 * them.  Valid until the reader closes; a pipe's HEADER_ATTR adds attrs to
 * it (peo_perfdata_attr_count() grows), so a clone made before lacks them.
 * @f: the reader.
 * Returns the parser, or NULL for a NULL @f.
 */
PEO_API const struct peo_record_parser *peo_perfdata_parser(const struct peo_perfdata *f);

/**
 * peo_perfdata_feature() - the raw bytes of feature section @bit (in the
 * writer's byte order), read into memory the reader owns until it closes.
 * Returns 0, -ENOENT when the file has no such section, -EPROTO when the
 * section lies outside the file.
 */
PEO_API int peo_perfdata_feature(struct peo_perfdata *f, unsigned bit, const void **bytes,
				 size_t *size);

/**
 * peo_perfdata_feature_string() - a string feature (HOSTNAME, OSRELEASE,
 * VERSION, ARCH, CPUDESC, CPUID) as a NUL-terminated string the reader owns.
 * Returns 0, -ENOENT, or -EPROTO for a string that overruns its section.
 */
PEO_API int peo_perfdata_feature_string(struct peo_perfdata *f, unsigned bit, const char **s);

/**
 * peo_perfdata_feature_u64() - a one-number feature: TOTAL_MEM (in kB, as
 * perf writes MemTotal, whatever its documentation says) or CLOCKID.
 * Returns 0, -ENOENT, or -EPROTO for a section shorter than 8 bytes.
 */
PEO_API int peo_perfdata_feature_u64(struct peo_perfdata *f, unsigned bit, uint64_t *out);

/**
 * peo_perfdata_nrcpus() - NRCPUS: the CPUs available, then online (the
 * order perf writes them in, which its documentation swaps).
 * Returns 0, -ENOENT or -EPROTO.
 */
PEO_API int peo_perfdata_nrcpus(struct peo_perfdata *f, uint32_t *available, uint32_t *online);

/**
 * peo_perfdata_sample_time() - SAMPLE_TIME: the first and last sample's time.
 * Returns 0, -ENOENT or -EPROTO.
 */
PEO_API int peo_perfdata_sample_time(struct peo_perfdata *f, uint64_t *first, uint64_t *last);

/**
 * peo_perfdata_feature_strings() - a string-list feature (CMDLINE): *n
 * strings, the array and strings owned by the reader until it closes.
 * Returns 0, -ENOENT, -EPROTO (a count or string that overruns the section,
 * with the offset) or -ENOMEM.
 */
PEO_API int peo_perfdata_feature_strings(struct peo_perfdata *f, unsigned bit,
					 const char *const **list, size_t *n);

/*
 * Typed feature sections.  Each function decodes its section on first use
 * into memory the reader owns until it closes; strings point into the
 * section.  Each returns 0, -ENOENT when the file has no such section, or
 * -EPROTO naming the part that runs past the section (a count larger than
 * its bytes, a string without its NUL), or -ENOMEM.  @list and @n (or @t,
 * @out) receive the decoded entries.
 *
 * The lists are arrays the caller indexes, so their structs keep 0.1's
 * size (a field more would come with a new function); a struct filled
 * into the caller's @out (peo_compressed, peo_clock_data, peo_mem_topology)
 * is sized as common.h says: out->sz set by the caller, only that many
 * bytes written, and -EINVAL for an out->sz under 0.1's size.
 */
/* PMU_MAPPINGS: each PMU's type number and name. */
struct peo_pmu_mapping { uint32_t type; const char *name; };
PEO_API int peo_perfdata_pmu_mappings(struct peo_perfdata *f, const struct peo_pmu_mapping **list,
				      size_t *n);

/* GROUP_DESC: a group's name ("{anon_group}" when it had none), leader, size. */
struct peo_group_desc { const char *name; uint32_t leader_idx, nr_members; };
PEO_API int peo_perfdata_group_desc(struct peo_perfdata *f, const struct peo_group_desc **list,
				    size_t *n);

/* CPU_TOPOLOGY: sibling lists, and per CPU its core, socket and die. */
struct peo_topology_cpu { uint32_t core_id, socket_id, die_id; };
struct peo_cpu_topology {
	size_t ncore_siblings, nthread_siblings, ndie_siblings, ncpus;
	const char *const *core_siblings;   /* CPU lists sharing a socket ("sibling sockets") */
	const char *const *thread_siblings; /* CPU lists sharing a core */
	const char *const *die_siblings;    /* CPU lists sharing a die (newer files) */
	const struct peo_topology_cpu *cpus; /* per available CPU; die_id when has_dies */
	int has_dies;
};
PEO_API int peo_perfdata_cpu_topology(struct peo_perfdata *f, const struct peo_cpu_topology **t);

/* NUMA_TOPOLOGY: each node's memory and CPUs. */
struct peo_numa_node { uint32_t node; uint64_t mem_total, mem_free; /* kB */ const char *cpus; };
PEO_API int peo_perfdata_numa_topology(struct peo_perfdata *f, const struct peo_numa_node **list,
				       size_t *n);

/* CACHE: each cache level of the writing machine. */
struct peo_cache_level {
	uint32_t level, line_size, sets, ways;
	const char *type, *size, *map; /* "Data", "32K", "0-1" */
};
PEO_API int peo_perfdata_cache(struct peo_perfdata *f, const struct peo_cache_level **list,
			       size_t *n);

/* COMPRESSED: how the records were compressed (perf record -z). */
struct peo_compressed { size_t sz; uint32_t version, type /* 1 zstd */, level, ratio, mmap_len; };
PEO_API int peo_perfdata_compressed(struct peo_perfdata *f, struct peo_compressed *out);

/* CLOCK_DATA: the wall clock and the events' clock read together (perf record -k). */
struct peo_clock_data { size_t sz; uint32_t version, clockid; uint64_t wall_clock_ns, clockid_time_ns; };
PEO_API int peo_perfdata_clock_data(struct peo_perfdata *f, struct peo_clock_data *out);

/* MEM_TOPOLOGY's header (its nodes' bitmaps stay in the raw section). */
struct peo_mem_topology { size_t sz; uint64_t version, block_size, count; };
PEO_API int peo_perfdata_mem_topology(struct peo_perfdata *f, struct peo_mem_topology *out);

/* BUILD_ID: one entry per binary samples hit; size is valid when misc has bit 15. */
struct peo_build_id { int32_t pid; uint16_t misc; uint8_t size; const uint8_t *id; const char *filename; };
PEO_API int peo_perfdata_build_ids(struct peo_perfdata *f, const struct peo_build_id **list,
				   size_t *n);

/* AUXTRACE: where the AUX data of each AUXTRACE record lies in the file. */
struct peo_auxtrace_entry { uint64_t file_offset, size; };
PEO_API int peo_perfdata_auxtrace_index(struct peo_perfdata *f,
					const struct peo_auxtrace_entry **list, size_t *n);

/* CPU_PMU_CAPS and each PMU of PMU_CAPS: "name=value" capabilities. */
struct peo_pmu_cap { const char *name, *value; };
PEO_API int peo_perfdata_cpu_pmu_caps(struct peo_perfdata *f, const struct peo_pmu_cap **list,
				      size_t *n);

/* PMU_CAPS (was HYBRID_CPU_PMU_CAPS): capabilities per PMU. */
struct peo_pmu_caps { const char *pmu; size_t ncaps; const struct peo_pmu_cap *caps; };
PEO_API int peo_perfdata_pmu_caps(struct peo_perfdata *f, const struct peo_pmu_caps **list,
				  size_t *n);

/* HYBRID_TOPOLOGY: each core type's PMU and its CPUs. */
struct peo_hybrid_node { const char *pmu, *cpus; };
PEO_API int peo_perfdata_hybrid_topology(struct peo_perfdata *f,
					 const struct peo_hybrid_node **list, size_t *n);

/* BPF_BTF: one BTF blob per id.  BPF_PROG_INFO: each program's info and data, raw. */
struct peo_bpf_btf { uint32_t id, size; const void *data; };
PEO_API int peo_perfdata_bpf_btf(struct peo_perfdata *f, const struct peo_bpf_btf **list,
				 size_t *n);
struct peo_bpf_prog_info { uint32_t info_len, data_len; const void *info, *data; };
PEO_API int peo_perfdata_bpf_prog_info(struct peo_perfdata *f,
				       const struct peo_bpf_prog_info **list, size_t *n);

/**
 * peo_perfdata_tp_format() - tracepoint @sys:@name's format as the writing
 * machine had it, from the file's TRACING_DATA (perf saves it with every
 * tracepoint recording).
 * @out: receives a new format; free it with peo_tp_format_free().
 * Returns 0, -ENOENT (no TRACING_DATA, or no such tracepoint in it: the
 * sentence says which), -EPROTO naming the part that runs past the section.
 */
PEO_API int peo_perfdata_tp_format(struct peo_perfdata *f, const char *sys, const char *name,
				   struct peo_tp_format **out);

/*
 * perf's own records, decoded (peo_perfdata_decode_user()).  The caller
 * allocates it and sets sz (see common.h).  The union's structs keep 0.1's
 * fields, so that what follows the union stays in place; new fields, of
 * any record type, go at the end only.
 */
struct peo_user_record {
	size_t sz;     /* set by the caller: sizeof(struct peo_user_record) */
	uint32_t type; /* enum peo_user_record_type */
	union {
		struct {
			uint64_t nr;
			const void *entries;   /* nr {id, idx, cpu, tid} */
			const void *entries_2; /* nr {machine_pid, vcpu} after them (perf 6.1
						* and later, for guests), or NULL */
		} id_index;
		struct { uint64_t nr; const void *entries; } thread_map; /* {pid, comm[16]} */
		struct {
			uint16_t kind;     /* 0 a list, 1 a mask, 2 a range */
			uint32_t nr;       /* CPUs in it (a mask: its set bits) */
			int any;           /* the "any CPU" entry (-1) alone */
			const void *data;  /* the list, mask words, or range, as written */
			uint16_t long_size, start, end;
		} cpu_map;
		struct { uint64_t nr; const void *pairs; } stat_config; /* {tag, val} */
		struct { uint64_t id; uint32_t cpu, thread; uint64_t value, enabled, running; } stat;
		struct { uint64_t kind, time; } stat_round; /* kind 0 interval, 1 final */
		struct {
			uint64_t kind, id;  /* kind 0 unit, 1 scale, 2 name, 3 cpus */
			const char *text;   /* unit or name */
			double scale;
		} event_update;
		struct {
			uint64_t time_shift, time_mult, time_zero, time_cycles, time_mask;
			int has_cycles; /* the long form (5.10 and later) */
			uint8_t cap_user_time_zero, cap_user_time_short;
		} time_conv;
		struct { uint64_t feature; const void *bytes; size_t size; } header_feature;
		struct { uint64_t size, offset, reference; uint32_t idx, tid, cpu; } auxtrace;
		struct { uint64_t id; const char *name; } event_type; /* the old name record */
		struct {
			int32_t pid;
			uint16_t misc;
			uint8_t size;         /* of id: valid when misc has bit 15, else 20 */
			const uint8_t *id;
			const char *filename;
		} build_id;
		struct { uint32_t type; uint64_t npriv; const void *priv; } auxtrace_info;
		struct {
			uint32_t type, code, cpu, pid, tid, fmt;
			uint64_t ip, time;    /* time from fmt 1 */
			const char *msg;
			uint32_t machine_pid, vcpu; /* from fmt 2 */
		} auxtrace_error;
		struct { const char *prog_name; uint64_t nr; const void *entries; } bpf_metadata;
		struct { uint64_t timestamp; uint32_t cpu; uint16_t version; const void *rest; size_t rest_size; } schedstat;
		struct {
			struct peo_attr attr; /* in host order */
			uint64_t nids;
			const void *ids;      /* nids u64: peo_perfdata_user_u64() */
		} header_attr;
		struct { uint32_t size; } tracing_data; /* its data follows the record */
	} u;
	/* New fields here, at the end only. */
};

/**
 * peo_perfdata_decode_user() - the fields of one of perf's own records
 * (ID_INDEX, THREAD_MAP, CPU_MAP in its three encodings, STAT_CONFIG, STAT,
 * STAT_ROUND, EVENT_UPDATE, TIME_CONV in its short and long form,
 * HEADER_FEATURE, AUXTRACE, EVENT_TYPE, BUILD_ID, AUXTRACE_INFO,
 * AUXTRACE_ERROR in its three formats, BPF_METADATA ({key[64], value[256]}
 * entries), the common head of SCHEDSTAT_CPU/DOMAIN, HEADER_ATTR (pipe
 * mode's attr and ids) and HEADER_TRACING_DATA's size), in host order.
 * @out: out->sz set by the caller (sizeof(struct peo_user_record)); only
 *       that many bytes are written, those past the fields this libpeo
 *       knows zeroed.
 * Returns 0, -ENOENT for another type (FINISHED_ROUND... carry nothing),
 * -EPROTO naming the field that runs past the record, with its offset, or
 * -EINVAL for a NULL argument or an out->sz under 0.1's size.
 */
PEO_API int peo_perfdata_decode_user(const struct peo_perfdata *f, const struct peo_record *r,
				     struct peo_user_record *out);

/** peo_perfdata_user_u64() - u64 @i of an array in a decoded user record, in host order. */
PEO_API uint64_t peo_perfdata_user_u64(const struct peo_perfdata *f, const void *array, size_t i);

/**
 * peo_perfdata_cpu_map_cpu() - CPU @i of a decoded CPU_MAP (list, mask or
 * range), or -1 for "any CPU" or @i out of range.
 */
PEO_API int peo_perfdata_cpu_map_cpu(const struct peo_perfdata *f, const struct peo_user_record *m,
				     uint32_t i);

/*
 * One record from the data section.  The caller allocates it and sets sz
 * (see common.h):
 *     struct peo_perfdata_record rec = { .sz = sizeof(rec) };
 * rec comes last, so that struct peo_record can grow at its end: libpeo
 * sets rec.sz itself, to what sz leaves for it.  The fields before rec are
 * 0.1's and stay as they are.
 */
struct peo_perfdata_record {
	size_t sz;               /* set by the caller: sizeof(struct peo_perfdata_record) */
	uint64_t offset;         /* where it starts in the file (or stream) */
	const void *payload;     /* AUXTRACE/TRACING_DATA: their data after the record, or NULL */
	uint64_t payload_size;   /* its size (the payload is skipped when too large to hold) */
	struct peo_record rec;   /* parsed: kernel types fully, user types header and bytes; last */
};

/**
 * peo_perfdata_next() - the next record of the data section, in the
 * order opts.ordered asks (enum peo_perfdata_order).  A COMPRESSED record
 * comes out itself, then the records it holds.
 * @rec: valid until the next call.  rec->sz is the caller's
 *       (sizeof(struct peo_perfdata_record)): only that many bytes are
 *       written, those past the fields this libpeo knows zeroed.
 *
 * Returns 1 with a record, 0 at the end, or a negative errno: -EPROTO with
 * the byte offset of a malformed record (or of one cut by the end of a
 * stream, without opts.force), -EIO for a read error, -ENOTSUP for
 * compressed data when peo was built without zstd, -ENOMEM.  In time
 * order the records held before an error go out first (every whole record
 * before a cut is delivered), then the error comes.  -EINVAL for a NULL
 * argument or a rec->sz under 0.1's size (no record is taken then).
 */
PEO_API int peo_perfdata_next(struct peo_perfdata *f, struct peo_perfdata_record *rec);

/**
 * peo_perfdata_source() - the file of a directory (perf record --threads)
 * that the record peo_perfdata_next() gave last came from: its offset is
 * in that file.
 * @f: the reader.
 * Returns the file's name in the directory ("data" for the header file's
 * own records, "data.N"), valid while @f is open; NULL for a single file
 * or stream, before the first record and after the last.
 * peo_perfdata_next()'s errors name the file themselves.
 */
PEO_API const char *peo_perfdata_source(const struct peo_perfdata *f);

/* What peo_perfdata_count() found.  by_type has a fixed size, not
 * PEO_RECORD_USER_MAX, so the struct keeps its layout as types are added.
 * The caller allocates it and sets sz (see common.h); new fields go at the
 * end only. */
#define PEO_PERFDATA_COUNT_TYPES 128
struct peo_perfdata_counts {
	size_t sz;      /* set by the caller: sizeof(struct peo_perfdata_counts) */
	uint64_t total; /* every record, whatever its type */
	/* by header.type below 128 (COMPRESSED and what it holds both count) */
	uint64_t by_type[PEO_PERFDATA_COUNT_TYPES];
	uint64_t *samples_by_event;            /* SAMPLE records by event index */
	size_t nevents;                        /* entries in samples_by_event */
	uint64_t samples_unknown_event;        /* samples whose id matches no event */
	uint64_t lost_samples;                 /* the lost counts of LOST_SAMPLES records */
	uint64_t *lost_samples_by_event;       /* those by event index (nevents entries) */
};

/**
 * peo_perfdata_count() - count the rest of the data section's records by
 * type, and its samples and lost samples (LOST_SAMPLES records' counts) by
 * event: what perf report --stats prints.  Most
 * records are counted from their header in place, without a parse, so this
 * runs at about the speed the file's bytes can be read.
 * @f: the reader; counting starts where it is and reads to the end.
 * @c: filled (cleared first, but c->sz, which the caller sets to
 *     sizeof(struct peo_perfdata_counts): only that many bytes are
 *     written); release with peo_perfdata_counts_free().
 *
 * Returns 0, or a negative errno as peo_perfdata_next() (nothing to free
 * then): -EINVAL for a c->sz under 0.1's size.
 */
PEO_API int peo_perfdata_count(struct peo_perfdata *f, struct peo_perfdata_counts *c);

/** peo_perfdata_counts_free() - release @c's arrays (NULL is fine). */
PEO_API void peo_perfdata_counts_free(struct peo_perfdata_counts *c);

/** peo_user_record_type_name() - "FINISHED_ROUND"... for types 64 and up, else the kernel's. */
PEO_API const char *peo_user_record_type_name(uint32_t type);

/* ------------------------------------------------------------ writing */

struct peo_perfdata_writer;

/**
 * peo_perfdata_writer_open() - create (or truncate) a file-mode perf.data at
 * @path, mode 0600, for perf and peo to read.  Add every event first
 * (peo_perfdata_writer_add_event), then records, features at any time, and
 * finish with peo_perfdata_writer_close().  A regular file is locked
 * (flock, exclusive) while written, and emptied only once locked, so a
 * file another writer is writing is refused, not spoiled.
 * @out:  receives the writer; peo_perfdata_writer_close() (or _abandon())
 *   frees it.
 * @path: the file.
 * Returns 0, or a negative errno with the path: -EBUSY when another writer
 * (of this process too) has the file locked (the sentence gives its pid),
 * -EACCES, -ENOENT, -ENOMEM.
 */
PEO_API int peo_perfdata_writer_open(struct peo_perfdata_writer **out, const char *path);

/**
 * peo_perfdata_writer_open_aside() - a file-mode writer for @path that
 * leaves @path as it is until peo_perfdata_writer_publish(): the file is
 * written without a name in @path's directory (O_TMPFILE, mode 0600: a
 * recorder killed before publishing leaves nothing behind), or where the
 * filesystem cannot do that under a new name beside it (@path.peo-XXXXXX),
 * locked as peo_perfdata_writer_open() locks it.  When @path exists but is no
 * regular file (/dev/null, a FIFO, a dangling link) it is written in
 * place, as peo_perfdata_writer_open() writes it, and publishing does
 * nothing.
 * @out:  receives the writer.  peo_perfdata_writer_close() publishes the
 *   file first when it was not (tried) yet; peo_perfdata_writer_abandon()
 *   before publishing removes it.
 * @path: the name the file is for.
 * Returns 0; -EBUSY when @path (or @path.old, which publishing replaces)
 * is being written by another writer, the sentence naming it and its pid;
 * the negative errno of creating the new file in @path's directory
 * (-EACCES, -ENOENT, -EROFS...); -ENOMEM.
 */
PEO_API int peo_perfdata_writer_open_aside(struct peo_perfdata_writer **out, const char *path);

/**
 * peo_perfdata_writer_publish() - give a file from
 * peo_perfdata_writer_open_aside() its name: a non-empty file at the name
 * is kept as NAME.old (replacing an older one), as perf record keeps it,
 * and the new file becomes NAME (an empty one is replaced).  Writing goes
 * on in the same file.  Tried once: after a failure the file keeps its
 * own name, or one it is given beside NAME (NAME.peo-PID-N) when it had
 * none (peo_perfdata_writer_path() gives it), to the end.
 * @w: the writer; nothing is done for one not from _open_aside() or
 *   already published.
 * Returns 0; -EBUSY when NAME or NAME.old is being written by another
 * writer meanwhile (the sentence names it and its pid; nothing was
 * renamed); -EINVAL for a NULL @w; or rename's negative errno.
 */
PEO_API int peo_perfdata_writer_publish(struct peo_perfdata_writer *w);

/**
 * peo_perfdata_writer_path() - the name the file has now: the new name
 * beside the one asked for until peo_perfdata_writer_publish() gives it
 * that one.
 * @w: the writer.
 * Returns the name, valid until the next call on @w; NULL for a NULL @w,
 * for a writer of an fd from peo_perfdata_writer_open_fd(), and for a file
 * of peo_perfdata_writer_open_aside() that has no name yet.
 */
PEO_API const char *peo_perfdata_writer_path(const struct peo_perfdata_writer *w);

/**
 * peo_perfdata_writer_open_fd() - the same on an open @fd (the caller keeps
 * it).  A seekable fd is written in file mode from offset 0; a pipe gets
 * pipe mode, as perf record -o - writes it: a 16-byte header, each event
 * as HEADER_ATTR (its attr 128 bytes or more, as perf writes it: perf 6.1
 * reads 128 whatever attr.size says) and its name as EVENT_UPDATE, the
 * features set before the first record as HEADER_FEATURE (and
 * TRACING_DATA) records, then the records, and features set later at the
 * end.
 * @out: receives the writer, as for peo_perfdata_writer_open().
 * @fd:  the open file or pipe to write.
 * Returns 0, -EINVAL for a NULL @out, -EBADF for a negative @fd, -ENOMEM.
 */
PEO_API int peo_perfdata_writer_open_fd(struct peo_perfdata_writer **out, int fd);

/**
 * peo_perfdata_writer_open_pipe() - a pipe-mode stream on @fd whatever @fd
 * is (a pipe, a regular file, /dev/null), as perf record -o - writes one:
 * the header and attrs go out with the first record, then the records
 * round by round (each FINISHED_ROUND writes what came before it), so a
 * reader sees them as they come and a recorder killed leaves a stream
 * that reads up to its last round.  The caller keeps @fd.  A reader that
 * went away makes writes fail with -EPIPE (SIGPIPE is the caller's to
 * block or ignore).
 * @out: receives the writer, as for peo_perfdata_writer_open().
 * @fd:  open for writing.
 * Returns 0, -EINVAL for a NULL @out, -EBADF for an @fd that is not open or
 * is open for reading only, -ENOMEM.
 */
PEO_API int peo_perfdata_writer_open_pipe(struct peo_perfdata_writer **out, int fd);

/**
 * peo_perfdata_writer_add_event() - an event of the recording: its attr as
 * opened, the ids of its fds (PERF_EVENT_IOC_ID), and its name for
 * EVENT_DESC (or NULL).  The attr is written at the smallest published size
 * that holds its nonzero bytes, so older readers accept it.
 * Returns 0, -EBUSY after the first record, -EINVAL, -ENOMEM.
 */
PEO_API int peo_perfdata_writer_add_event(struct peo_perfdata_writer *w,
					  const struct peo_attr *attr, const uint64_t *ids,
					  size_t nids, const char *name);

/**
 * peo_perfdata_writer_record() - append records (headers included, in
 * host order) to the data section.  Buffered.
 * @bytes, @len: one or more whole records back to back; a record cut by
 *   the end of a ring must be put together first.
 * Returns 0, -EINVAL when @len is not a multiple of 8 or a record runs past
 * @len (nothing is written then), or the write's negative errno
 * (-ENOSPC...), which every later call returns too.
 */
PEO_API int peo_perfdata_writer_record(struct peo_perfdata_writer *w, const void *bytes,
				       size_t len);

/**
 * peo_perfdata_writer_finished_round() - a FINISHED_ROUND record: every
 * record written before it is older than any written after the next one, so
 * readers can sort by time holding two rounds.  Write one after each pass
 * over the rings.  In file mode the buffered records then go to the file.
 * Returns 0, -EINVAL for a NULL @w, or the negative errno of this write or
 * an earlier one (kept, as peo_perfdata_writer_record() says).
 */
PEO_API int peo_perfdata_writer_finished_round(struct peo_perfdata_writer *w);

/**
 * peo_perfdata_writer_flush() - write out the records buffered so far.  A
 * file is also flushed at each FINISHED_ROUND, so a writer killed leaves
 * on disk the header, the attrs and every round before.
 * @w: the writer.
 * Returns 0, -EINVAL for a NULL @w, or the write's negative errno (kept,
 * as peo_perfdata_writer_record() says).  On a full disk the records
 * written whole stay in the file, the one torn is cut off at close, and
 * peo_perfdata_writer_count() and _data_size() from then on count only
 * what is in the file.
 */
PEO_API int peo_perfdata_writer_flush(struct peo_perfdata_writer *w);

/**
 * peo_perfdata_writer_feature() - feature section @bit (PEO_FEAT_*) with
 * @size bytes in host order, copied; replaces one set before.  EVENT_DESC
 * is made from the events at close when not set.
 * Returns 0, -EINVAL for a bit outside 1..255, -ENOMEM.
 */
PEO_API int peo_perfdata_writer_feature(struct peo_perfdata_writer *w, unsigned bit,
					const void *bytes, size_t size);

/**
 * peo_perfdata_writer_host_features() - this machine's description, as perf
 * writes it: HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID,
 * TOTAL_MEM, CPU_TOPOLOGY, NUMA_TOPOLOGY, and CMDLINE from @argc/@argv.
 * A part this machine does not say (no /sys topology...) is left out.
 * @w:    the writer.
 * @argc, @argv: the recording command line (@argv may be NULL when @argc is 0).
 * Returns 0, -EINVAL for a NULL @w or a NULL @argv with @argc > 0, or -ENOMEM.
 */
PEO_API int peo_perfdata_writer_host_features(struct peo_perfdata_writer *w, int argc,
					      const char *const *argv);

/**
 * peo_perfdata_writer_tracing_data() - TRACING_DATA for the tracepoint
 * events added so far (named "sys:name", modifiers such as ":u" after it
 * allowed; one whose tracefs id is not its attr's config, such as a renamed
 * event, is left to the reader's tracefs): tracefs's header_page and
 * header_event, each event's format file, the printk formats (the kernel
 * strings behind `const char *` fields) and the saved cmdlines, as perf
 * writes the section, so the payloads decode without this machine's
 * tracefs (a missing printk_formats or saved_cmdlines is written empty,
 * as perf writes it).  Nothing when there are no tracepoints, or no
 * tracefs is mounted.
 * @w:       the writer.
 * @tracefs: the tracefs directory, or NULL for the system's.
 * Returns 0, -EINVAL for a NULL @w, -ENOENT naming the format file of a
 * tracepoint found (its id read) whose format cannot be read, -ENOMEM.
 */
PEO_API int peo_perfdata_writer_tracing_data(struct peo_perfdata_writer *w, const char *tracefs);

/**
 * peo_perfdata_writer_compress() - from now on, records go into the file
 * zstd-compressed, as perf record -z writes them: one zstd stream, each
 * ring's span compressed and flushed at once into records of at most
 * 64 KiB, and the COMPRESSED feature (level, ratio, @ring_bytes) at close;
 * a pipe-mode stream gets the feature at once, with ratio 0, as perf sends
 * it (its reader needs it before the first COMPRESSED record).
 * FINISHED_ROUND stays plain.
 * @level: zstd's level, 1 to 22 (perf's default is 1).
 * @ring_bytes: the size of the largest ring, for the feature.
 * @record_type: PEO_RECORD_COMPRESSED (unpadded; every perf since 5.1
 *   reads it) or PEO_RECORD_COMPRESSED2 (a u64 data_size, padded to 8
 *   bytes; only perf from 2025 on reads it, not perf 6.1); 0 means
 *   COMPRESSED.
 * Returns 0, -ENOTSUP when peo was built without zstd, -EINVAL for the
 * level or the record type, -ENOMEM, or a pipe's write error.
 */
PEO_API int peo_perfdata_writer_compress(struct peo_perfdata_writer *w, int level,
					 size_t ring_bytes, uint32_t record_type);

/**
 * peo_perfdata_writer_build_ids() - write the BUILD_ID feature at close for
 * the files samples hit, as perf record does: the writer follows the MMAP
 * and MMAP2 records it is given and each sample's ip (a sample in the
 * kernel hits [kernel.kallsyms], whose id comes from /sys/kernel/notes),
 * then reads each hit file's GNU build id.  Call before the first record.
 * Returns 0, -EBUSY after the first record.
 */
PEO_API int peo_perfdata_writer_build_ids(struct peo_perfdata_writer *w);

/**
 * peo_perfdata_writer_clock() - CLOCKID and CLOCK_DATA for a recording whose
 * events use @clockid (attr.use_clockid), as perf record -k writes them:
 * the clock's resolution, and the wall clock and @clockid read together so
 * readers can turn sample times into dates.
 * Returns 0, -EINVAL for a clock this system does not have, -ENOMEM.
 */
PEO_API int peo_perfdata_writer_clock(struct peo_perfdata_writer *w, int clockid);

/** peo_perfdata_writer_data_size() - bytes of records written so far (after
 * a failed write, those in the file). */
PEO_API uint64_t peo_perfdata_writer_data_size(const struct peo_perfdata_writer *w);

/**
 * peo_perfdata_writer_given_size() - bytes of records given so far, before
 * compression (the data size when not compressing; with the data size, the
 * ratio perf record prints).  0 for a NULL @w.
 */
PEO_API uint64_t peo_perfdata_writer_given_size(const struct peo_perfdata_writer *w);

/* For peo_perfdata_writer_count(): every type together. */
#define PEO_PERFDATA_ALL_TYPES UINT32_MAX

/**
 * peo_perfdata_writer_count() - how many records of @type were written so
 * far: those given to peo_perfdata_writer_record(), FINISHED_ROUNDs, and
 * the COMPRESSED records compression made (perf report --stats counts
 * those as well as what they hold).
 * @type: a record type below PEO_PERFDATA_COUNT_TYPES, or
 *   PEO_PERFDATA_ALL_TYPES for all of them.
 * Returns the count; 0 for a NULL @w or a type past the table.
 */
PEO_API uint64_t peo_perfdata_writer_count(const struct peo_perfdata_writer *w, uint32_t type);

/**
 * peo_perfdata_writer_close() - write what is buffered, the features after
 * the data, then the header with the final sizes (peo_perfdata_writer_finish()
 * unless called before); publish a file from _open_aside() not yet
 * published; free @w.  After a failed write (a full disk) the header is
 * still rewritten to name the records written whole, and the error says
 * how much the file keeps.
 * Returns 0, or the first negative errno.
 */
PEO_API int peo_perfdata_writer_close(struct peo_perfdata_writer *w);

/**
 * peo_perfdata_writer_finish() - what peo_perfdata_writer_close() does but
 * closing: the buffered records, the features after them and the header
 * with the final sizes, so that peo_perfdata_writer_count() and _data_size()
 * then say what the file holds.  After a failed write (a full disk) the
 * torn record is cut off and, where the features do not fit, the newest
 * rounds are given up to make room for them (taken back from the counts),
 * else the features are left out; the header names the records kept.
 * Records given after it are refused (-EBUSY).
 * @w: the writer; peo_perfdata_writer_close() still frees it.
 * Returns 0, or the first negative errno (the same again when called twice).
 */
PEO_API int peo_perfdata_writer_finish(struct peo_perfdata_writer *w);

/** peo_perfdata_writer_abandon() - free @w without finishing the file. */
PEO_API void peo_perfdata_writer_abandon(struct peo_perfdata_writer *w);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PEO_PERFDATA_H */
