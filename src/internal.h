/*
 * internal.h - what libpeo's source files share and nobody else sees.
 */
#ifndef PEO_INTERNAL_H
#define PEO_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "peo/peo.h"

#define PEO_HIDDEN __attribute__((visibility("hidden")))

/* An unaligned u16/u32/u64 at @p, byte-swapped when @swap (data written by
 * a host of the other byte order): perf.data, records, ELF. */
static inline uint16_t peo_load_u16(const void *p, int swap)
{
	uint16_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t peo_load_u32(const void *p, int swap)
{
	uint32_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t peo_load_u64(const void *p, int swap)
{
	uint64_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}
/* A record header at @p, in host order (swapped when @swap). */
static inline struct peo_event_header peo_load_header(const void *p, int swap)
{
	struct peo_event_header h = { peo_load_u32(p, swap),
				      peo_load_u16((const char *)p + 4, swap),
				      peo_load_u16((const char *)p + 6, swap) };

	return h;
}
#define PEO_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define PEO_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * ring.c: a ring over @mem (a control page, then @data_bytes of data, a
 * power of two) instead of a mapping: tests and fuzzers feed it bytes the
 * kernel would never write.  Its fd is -1; peo_ring_unmap() frees only it.
 */
PEO_HIDDEN int peo_ring_over_memory(struct peo_ring **out, void *mem, size_t data_bytes,
				    int overwrite);
/* An AUX area over @mem (@bytes, a power of two) for a ring over memory,
 * its aux_head and aux_tail in the control page: tests write AUX data no
 * PMU here makes.  Not freed with the ring. */
PEO_HIDDEN int peo_ring_over_memory_aux(struct peo_ring *ring, void *mem, size_t bytes,
					int overwrite);
/* peo_ring_snapshot() without the pause and resume (the fd may be -1). */
PEO_HIDDEN long peo_ring_copy_newest(struct peo_ring *ring, void *buf, size_t cap);

/*
 * attr_host.c: the attr at @bytes (@avail bytes, its own size field says how
 * many it has), written in the other byte order when @swap, as a host-order
 * struct: fields swapped, the flags bitfield word reversed end for end
 * (bitfields are laid out from the other end on a big-endian writer).
 */
PEO_HIDDEN void peo_attr_to_host(const void *bytes, size_t avail, int swap,
				 struct peo_attr *out);
/* A bitfield word read as a host value, in host bit layout. */
PEO_HIDDEN uint64_t peo_bitfield_word(uint64_t host_value, int swapped);

/* error.c: set this thread's sentence (an argument may be peo_last_error():
 * the cause put inside a new sentence); returns -err so callers can `return`. */
PEO_HIDDEN int peo_fail(int err, const char *fmt, ...) PEO_PRINTF(2, 3);
/* Append to the current sentence (for causes found after the first part). */
PEO_HIDDEN void peo_fail_append(const char *fmt, ...) PEO_PRINTF(1, 2);
/* Quiet (@on 1) or not (0), nested: while quiet, peo_fail() and
 * peo_fail_append() leave this thread's sentence alone, for a failure the
 * caller works around (the sentence of a user's last failure stays). */
PEO_HIDDEN void peo_error_quiet(int on);

/* A byte-bounded string builder over a caller's buffer; never overflows. */
struct peo_buf {
	char *s;
	size_t cap;
	size_t len;
};
PEO_HIDDEN void peo_buf_printf(struct peo_buf *b, const char *fmt, ...) PEO_PRINTF(2, 3);

/*
 * sys.c: the system call without any error text (returns fd or -errno), for
 * probes that must not disturb peo_last_error().  peo_open_hook, when set,
 * replaces the system call: tests use it to act as an older kernel.
 * peo_open_explained() (explain.c) is the same call with the explained
 * sentence on failure.
 */
typedef int (*peo_open_fn)(struct peo_attr *attr, pid_t pid, int cpu, int group_fd,
			   unsigned long flags);
extern PEO_HIDDEN peo_open_fn peo_open_hook;
PEO_HIDDEN int peo_raw_perf_event_open(struct peo_attr *attr, pid_t pid, int cpu,
				       int group_fd, unsigned long flags);
/* "perf_event_open(software/task-clock, pid 0, cpu -1, group_fd -1, flags 0x8)" */
PEO_HIDDEN void peo_open_call_text(char *out, size_t cap, const struct peo_attr *attr,
				   pid_t pid, int cpu, int group_fd, unsigned long flags);

/* describe.c: "software/task-clock", "hardware/cycles", "type 9 config 0x1". */
PEO_HIDDEN void peo_describe_attr(const struct peo_attr *attr, char *out, size_t cap);

/*
 * explain.c: perf_event_open(2) as peo_sys_perf_event_open() makes it (attr
 * passed as is, errno kept), but on failure the sentence also gives the
 * likely cause and fix for @attr: the open that peo_sys_open() and the
 * layers above it use.  Returns the fd or -errno.
 */
PEO_HIDDEN int peo_open_explained(struct peo_attr *attr, pid_t pid, int cpu, int group_fd,
				  unsigned long flags);
/*
 * features.c: the feature probe, made once, without a sentence: 0 and the
 * table (either pointer may be NULL), or the -errno of the probe that
 * failed.  peo_features_probe() (features_report.c) adds the sentence.
 */
PEO_HIDDEN int peo_features_table(const struct peo_feature **out, size_t *count);
/* The kernel's attr size as peo_kernel_attr_size() gives it, without a sentence. */
PEO_HIDDEN int peo_features_kernel_size(void);
/* How the probe failed, for its sentence; NULL when it did not. */
struct peo_probe_failure {
	const char *what;      /* "feature probe: ...: <strerror>" */
	int open_failed;       /* 1: the first open failed: peo_explain_open() */
	struct peo_attr attr;  /* can name its cause from its attr and flags */
	unsigned long flags;
};
PEO_HIDDEN const struct peo_probe_failure *peo_features_failure(void);

/* explain.c: the cause-and-fix part of a perf_event_open failure sentence. */
PEO_HIDDEN void peo_explain_open(struct peo_buf *b, int err, const struct peo_attr *attr,
				 uint32_t sent_size, pid_t pid, int cpu, int group_fd, unsigned long flags);
/* explain.c: why a call that makes an fd failed with @err when that is the
 * fd limit (EMFILE: the RLIMIT_NOFILE values and how to raise them; ENFILE:
 * the system's table); nothing for other errors. */
PEO_HIDDEN void peo_explain_fd_limit(struct peo_buf *b, int err);

/* attr_fields.c: the attr fields added after VER0, in offset order. */
struct peo_attr_field {
	const char *name;
	uint16_t offset;
	uint16_t size;
	uint16_t needs_size; /* smallest attr size that contains the field */
	const char *since;   /* Linux release that added it */
};
PEO_HIDDEN const struct peo_attr_field *peo_attr_fields(size_t *count);
/* The smallest published attr size (VER0, VER1...) holding @used bytes;
 * sizeof(struct peo_attr) past the last one. */
PEO_HIDDEN uint32_t peo_attr_size_holding(size_t used);
/* The Linux release that introduced attr size @size, or NULL if not a VERn. */
PEO_HIDDEN const char *peo_attr_size_since(uint32_t size);
/* Published attr size VER@n in *@size, or 0 when there is no VER@n:
 * the one list of them, that features.c walks. */
PEO_HIDDEN int peo_attr_size_ver(size_t n, uint32_t *size);
/* How many VERn sizes there are (a compile-time constant). */
#define PEO_ATTR_SIZE_VERS 10

/* sysfs.c: small helpers for /proc and /sys values. */
PEO_HIDDEN int peo_read_long_file(const char *path, long *out);
PEO_HIDDEN int peo_path_exists(const char *path);
/*
 * The core PMU under @dir (a sysfs event_source/devices tree): "cpu" and
 * the other known names first, else the first (sorted) PMU with a `cpus`
 * file.  Copies its name into @name (@cap bytes); returns 1, or 0 if none.
 */
PEO_HIDDEN int peo_find_cpu_pmu(const char *dir, char *name, size_t cap);
/* The same for this machine, looked up once per process; @name may be NULL. */
PEO_HIDDEN int peo_host_has_cpu_pmu(char *name, size_t cap);

/* opts.c: check a caller's options struct against the fields we know. */
PEO_HIDDEN int peo_opts_check(const void *opts, size_t known_size, const char *type);

/* event_names.c: perf's generic event names. */
struct peo_symbolic_event {
	const char *name;
	const char *alias; /* or NULL */
	uint32_t type;     /* PEO_TYPE_HARDWARE or PEO_TYPE_SOFTWARE */
	uint64_t config;
};
PEO_HIDDEN const struct peo_symbolic_event *peo_symbolic_events(size_t *count);
PEO_HIDDEN const struct peo_symbolic_event *peo_symbolic_lookup(const char *word, size_t len);
/* The name perf prints for a generic event, or NULL. */
PEO_HIDDEN const char *peo_symbolic_name(uint32_t type, uint64_t config);
/* 1 and *config for a cache event name, 0 if not one, -1 with @why if perf refuses it. */
PEO_HIDDEN int peo_cache_lookup(const char *word, size_t len, uint64_t *config, char *why,
				size_t cap);
/* The @index-th cache event perf lists; 0 past the last. */
PEO_HIDDEN int peo_cache_name(unsigned index, char *out, size_t cap, uint64_t *config);

/* suggest.c: the candidate nearest to @word, or NULL when none is close. */
struct peo_suggest {
	const char *word;
	size_t len;
	unsigned best_distance;
	char best[128];
};
PEO_HIDDEN void peo_suggest_init(struct peo_suggest *s, const char *word, size_t len);
PEO_HIDDEN void peo_suggest_offer(struct peo_suggest *s, const char *candidate);
/* ": did you mean 'x'?" or "" */
PEO_HIDDEN const char *peo_suggest_text(struct peo_suggest *s, char *out, size_t cap);

/* pmu.c: sysfs PMUs. */
PEO_HIDDEN const char *peo_default_pmu_dir(void);
/* Read a small text file whole, trailing newline removed; malloc'd or NULL with errno. */
PEO_HIDDEN char *peo_read_text_file(const char *path);
/* Populate the whole pages of @len bytes at @p (malloc'd, about to be
 * written) in one call instead of a page fault each (prefault.c), when
 * @len is PEO_PREFAULT_MIN or more. */
#define PEO_PREFAULT_MIN (256u << 10)
PEO_HIDDEN void peo_prefault(void *p, size_t len);
/* Sorted names of the entries of @dir (not "." or ".."); returns count or -errno. */
PEO_HIDDEN int peo_list_dir(const char *dir, char ***names);
/* The same in the directory's own order when @sorted is 0 (perf's glob order). */
PEO_HIDDEN int peo_list_dir_order(const char *dir, char ***names, int sorted);
PEO_HIDDEN void peo_free_names(char **names, int n);

/*
 * elf_symbols.c: the file offset uprobes need for @symbol in the ELF file
 * @path: the symbol's value mapped through the PT_LOAD segment containing it
 * (value - p_vaddr + p_offset), searched in .symtab then .dynsym, functions
 * (STT_FUNC, STT_GNU_IFUNC) first; @symbol may carry "+OFF" (decimal or 0x
 * hex) added to the result.  ELF32 and ELF64, either byte order.  Returns 0
 * and sets *offset, or a negative errno with peo_fail(): -ENOENT for a
 * missing file or symbol (the sentence says which, and whether the file is
 * stripped), -EINVAL for a file that is not ELF or is malformed (the sentence
 * gives the byte offset of the bad field), -EIO on read errors.
 */
PEO_HIDDEN int peo_elf_symbol_offset(const char *path, const char *symbol, uint64_t *offset);
/* The GNU build id of ELF file @path (from its PT_NOTE segments): 0, -ENOENT
 * when it has none, or the open/read error. */
PEO_HIDDEN int peo_elf_build_id(const char *path, uint8_t id[20], size_t *id_len);
/* The GNU build id among ELF notes (@swap: the other byte order): 1 when found. */
PEO_HIDDEN int peo_notes_build_id(const unsigned char *notes, size_t len, int swap, uint8_t id[20],
				  size_t *id_len);

/* kallsyms.c: one line of a kallsyms file, "ADDRESS TYPE NAME", and for a
 * module's symbol a tab and "[MODULE]". */
struct peo_kallsyms_line {
	uint64_t addr;        /* 0 where the reader may not see addresses */
	char type;            /* nm's letter: t/T text, w/W weak, d/D data... */
	const char *name;
	size_t name_len;
	const char *module;   /* its module's name without the brackets, or NULL */
	unsigned long lineno; /* from 1 */
};
typedef int (*peo_kallsyms_fn)(const struct peo_kallsyms_line *line, void *arg);
/* Call @fn for each line of kallsyms file @path in order (the strings are
 * valid during the call), until it returns nonzero.  Returns 0, @fn's
 * value, -errno of opening or reading, -EINVAL for a line of another shape
 * (the sentence gives the file, the line number and the line). */
PEO_HIDDEN int peo_kallsyms_read(const char *path, peo_kallsyms_fn fn, void *arg);
/* The running kernel's symbol at or below @addr (loaded on first use).
 * 1 with its name and @addr's offset into it, 0 when none. */
PEO_HIDDEN int peo_kallsyms_find(uint64_t addr, const char **name, uint64_t *offset);

/* The structs callers allocate and libpeo fills: their released sizes. */
#include "sized.h"

#endif /* PEO_INTERNAL_H */
