/*
 * peo/symbols.h - addresses of processes turned into functions: which
 * binary an address falls in (its "dso", as perf says), the symbol there
 * and the offset into it, as perf script prints them (`leaf+0x19
 * (/path/burn)`, `_copy_to_user+0x28 ([kernel.kallsyms])`).
 *
 * Two objects:
 *   - struct peo_symbols: the binaries and the kernel, each binary's symbol
 *     table read once, when first needed, and kept until it is freed.  Any
 *     number of process models (and threads) share one.
 *   - struct peo_processes: processes over time, their threads' names and
 *     their memory maps, built from a recording's records (COMM, FORK,
 *     EXIT, MMAP, MMAP2, fed in time order) or from /proc for a running
 *     process; it looks addresses up through a peo_symbols.
 *
 * Binaries are read with elfutils' libelf when peo was built with it
 * (peo_symbols_available()); without it, frames name their binary but no
 * symbol, and the first lookup's sentence says why.
 *
 * Thread safety: a peo_symbols may be used by many threads at once; a
 * peo_processes by one thread at a time.  Strings handed out (names,
 * paths) stay valid until the peo_symbols that gave them is freed.
 */
#ifndef PEO_SYMBOLS_H
#define PEO_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common.h"
#include "record.h"

#ifdef __cplusplus
extern "C" {
#endif

struct peo_symbols;
struct peo_processes;

/* Options of peo_symbols_new(); zero them all for perf's defaults. */
struct peo_symbols_opts {
	size_t sz;
	/* A directory binaries are looked up under, as perf's --symfs: a
	 * recording's /usr/bin/x is read as SYMFS/usr/bin/x.  NULL: none. */
	const char *symfs;
	/* A kallsyms file to read the kernel's symbols from, as perf's
	 * --kallsyms; NULL: /proc/kallsyms. */
	const char *kallsyms;
	/* Names as the binaries spell them (perf's --no-demangle); 0: C++
	 * and Rust names demangled as perf shows them. */
	int no_demangle;
	/* A vmlinux (an ELF image of the kernel with its .symtab) to read the
	 * kernel's own symbols from, as perf's -k/--vmlinux: a relative path
	 * is read under symfs.  Its .text is the kernel's map,
	 * [kernel.kallsyms], each other section with symbols a map named
	 * "[kernel.kallsyms]SECTION" (perf's names); addresses are moved by
	 * where the recording says the kernel ran (its kernel map's _text,
	 * else /proc/kallsyms'), as perf relocates a kernel that KASLR moved.
	 * Modules keep kallsyms' symbols.  A file that cannot be used (its
	 * build id is not the recorded kernel's, peo_symbols_add_build_id()
	 * of "[kernel.kallsyms]"; not ELF; no symbols) leaves one note
	 * naming it (and both build ids) and the kallsyms symbols.  Ignored
	 * when kallsyms is set (as perf).  NULL: perf's search, done when the
	 * kernel is first needed: perf's build-id cache copy of the recorded
	 * kernel (~/.debug/.build-id/xx/rest/elf), ./vmlinux, /boot/vmlinux,
	 * then /boot/vmlinux-R, /usr/lib/debug/boot/vmlinux-R,
	 * /lib/modules/R/build/vmlinux, /usr/lib/debug/lib/modules/R/vmlinux,
	 * /usr/lib/debug/boot/vmlinux-R.debug (R: uname's release; not with a
	 * symfs), the first with the recorded build id (any when none was
	 * given), quietly; else kallsyms. */
	const char *vmlinux;
	/* A directory where debug files whose DWARF is compressed (Debian's
	 * -dbg packages: libc's 3.8 MB inflate to 10 MB, about 50 ms) are kept
	 * inflated, named by build id (DIR/xx/rest.debug, made as needed), so
	 * that later runs read them as they are.  A copy is linked there only
	 * once whole; one of the wrong size is replaced.  NULL or "": none,
	 * each peo_symbols inflates them in memory.  (peo's commands use
	 * $PEO_DEBUG_CACHE, else $XDG_CACHE_HOME/peo/debug, else
	 * ~/.cache/peo/debug; PEO_DEBUG_CACHE=off for none.) */
	const char *debug_cache;
};

/**
 * peo_symbols_new() - an empty set of binaries and the kernel; each is read
 * when an address first falls in it.
 * @out:  receives it; free it with peo_symbols_free().
 * @opts: NULL for the defaults.
 * Returns 0, -EINVAL (NULL @out, or opts of an unknown size), -ENOMEM.
 */
PEO_API int peo_symbols_new(struct peo_symbols **out, const struct peo_symbols_opts *opts);

/** peo_symbols_free() - free @s and every table and string it gave (NULL is ignored). */
PEO_API void peo_symbols_free(struct peo_symbols *s);

/**
 * peo_symbols_available() - whether this peo reads ELF symbol tables (it
 * was built with libelf).  Without it, frames name their binary only.
 */
PEO_API int peo_symbols_available(void);

/**
 * peo_symbols_notes() - what hid symbols so far, a sentence per cause:
 * the kernel's addresses hidden (kptr_restrict, perf_event_paranoid: what
 * is hidden and how to see it), a vmlinux named (opts.vmlinux) but not
 * used (its build id and the recorded one, or why it cannot be read),
 * a binary that changed since the recording
 * (its build id is not the recorded one), a binary missing or damaged, peo
 * built without elfutils.  Each cause is said once.
 * @s:   the symbols.
 * @out: receives up to @max sentences, oldest first (valid until @s is
 *       freed); NULL with @max 0 to count them.
 * Returns how many there are (which may be more than @max).
 */
PEO_API size_t peo_symbols_notes(struct peo_symbols *s, const char **out, size_t max);

/**
 * peo_symbols_add_build_id() - the build id a recording gives for a
 * binary (perf.data's BUILD_ID feature, peo_perfdata_build_ids()): a
 * binary whose build id differs now is not read, and its frames say
 * [unknown] with a note, never a wrong name.  A build id an MMAP2 record
 * carries is taken the same way.
 * @s:    the symbols.
 * @path: the binary's path as the maps name it.
 * @id, @len: the build id (1 to 20 bytes).
 * Returns 0, -EINVAL, -ENOMEM.
 */
PEO_API int peo_symbols_add_build_id(struct peo_symbols *s, const char *path, const uint8_t *id,
				     size_t len);

/* What peo_symbols_preload() reads. */
enum peo_preload {
	PEO_PRELOAD_KERNEL = 1 << 0,   /* the kernel's symbols (kallsyms) */
	PEO_PRELOAD_BINARIES = 1 << 1, /* those of each binary given a build id */
	/* With PEO_PRELOAD_BINARIES: each one's debug file made ready for its
	 * DWARF (inlined functions, source lines), its compressed sections
	 * inflated. */
	PEO_PRELOAD_DWARF = 1 << 2,
};

/**
 * peo_symbols_preload() - read now the tables that lookups would read
 * first: the kernel's symbols (kallsyms; the recording's kernel maps and a
 * vmlinux are still applied at the first kernel lookup) and those of each
 * binary given a build id (peo_symbols_add_build_id(): a recording's
 * table lists the binaries its samples hit).  Meant for a thread of its
 * own (or two: one for the kernel, one for the binaries), started once
 * the build ids are added: lookups on other threads go on meanwhile, and
 * one that needs a table being read waits for that table alone.  A table
 * that cannot be read leaves its note, as a lookup would.
 * @s:    the symbols.
 * @what: PEO_PRELOAD_KERNEL, PEO_PRELOAD_BINARIES (with PEO_PRELOAD_DWARF),
 *        or both.
 * Returns 0, -EINVAL (NULL @s, no known bit in @what, or PEO_PRELOAD_DWARF
 * without PEO_PRELOAD_BINARIES), -ENOMEM.
 */
PEO_API int peo_symbols_preload(struct peo_symbols *s, unsigned what);

/* Options of peo_processes_new(). */
struct peo_processes_opts {
	size_t sz;
	int reserved; /* 0 */
};

/**
 * peo_processes_new() - an empty model of processes.
 * @out:  receives it; free it with peo_processes_free().
 * @syms: the binaries to look addresses up in (shared, not owned: it must
 *        outlive the model), or NULL for one of its own.
 * @opts: NULL for the defaults.
 * Returns 0, -EINVAL, -ENOMEM.
 */
PEO_API int peo_processes_new(struct peo_processes **out, struct peo_symbols *syms,
			      const struct peo_processes_opts *opts);

/** peo_processes_free() - free @p (not its shared peo_symbols; NULL is ignored). */
PEO_API void peo_processes_free(struct peo_processes *p);

/**
 * peo_processes_symbols() - the peo_symbols @p looks addresses up in.
 */
PEO_API struct peo_symbols *peo_processes_symbols(const struct peo_processes *p);

/**
 * peo_processes_add_record() - what a record says of processes: COMM (a
 * thread's name), FORK (a new thread, or a new process with a copy of its
 * parent's maps and its name), MMAP and MMAP2 (a map, with the binary's
 * build id when MMAP2 carries one; a map replaces what it overlaps).  As
 * perf, an exec keeps the old maps that the new ones do not overlap, and
 * an exited thread keeps its name.
 * Other records are ignored.  Feed them in time order, samples between:
 * each lookup sees the processes as the records so far leave them.
 * @p: the model.
 * @r: a parsed record (peo_record_parse(), peo_perfdata_next()).
 * Returns 0, -EINVAL (a NULL argument), -ENOMEM.
 */
PEO_API int peo_processes_add_record(struct peo_processes *p, const struct peo_record *r);

/**
 * peo_processes_add_live() - process @pid as it runs now: its maps from
 * /proc/PID/maps and its threads' names from /proc/PID/task, for a
 * profiler symbolizing its own rings without a perf.data file.  Call it
 * again after the process mapped more (a dlopen()); its maps are replaced.
 * @p:   the model.
 * @pid: the process.
 * Returns 0, -ESRCH (no such process: it exited), -EACCES (its maps are
 * not readable: another user's, under ptrace rules), -ENOMEM.
 */
PEO_API int peo_processes_add_live(struct peo_processes *p, pid_t pid);

/**
 * peo_processes_comm() - thread @tid's name as the records so far say,
 * "swapper" for tid 0, or NULL when none named it.  Valid until the next
 * record fed.
 */
PEO_API const char *peo_processes_comm(struct peo_processes *p, uint32_t tid);

/* What an address of a process is. */
struct peo_frame {
	size_t sz;              /* set by the caller: sizeof(struct peo_frame) */
	uint64_t addr;          /* the address looked up */
	/* The symbol, or NULL where perf says [unknown]; demangled. */
	const char *sym;
	uint64_t symoff;        /* addr's offset into sym (valid when sym) */
	/* The binary as perf names it: its path, [kernel.kallsyms], a module's
	 * [name], [vdso], //anon; NULL where perf says [unknown] (nothing is
	 * mapped there). */
	const char *dso;
	/* Where addr is in the binary: for a user address in a file, its
	 * offset in the file (addr - the map's start + its pgoff: what perf
	 * script prints for a user frame); else addr. */
	uint64_t dso_offset;
	uint32_t flags;         /* PEO_FRAME_* */
};

enum peo_frame_flags {
	PEO_FRAME_KERNEL = 1u << 0, /* a kernel address */
	PEO_FRAME_PLT = 1u << 1,    /* a PLT entry: sym is "name@plt" */
	/* A function inlined at the address (sym is its name, from
	 * peo_processes_inlines()): never set by a lookup, but by a caller
	 * that lists inlined functions as frames of their own (peo report,
	 * in a peo_profile). */
	PEO_FRAME_INLINED = 1u << 2,
};

/* peo_processes_lookup()'s flags. */
enum peo_lookup_flags {
	/* @addr is a data address (a sample's addr: a page fault's, a
	 * load's): data objects (a binary's STT_OBJECT symbols) name it as
	 * well as functions, and an address the cpumode's space does not map
	 * is looked up in the other (a kernel sample's user address), as perf
	 * script names a sample's addr. */
	PEO_LOOKUP_DATA = 1u << 0,
};

/**
 * peo_processes_lookup() - what @addr of process @pid is.  A caller's frame
 * in a callchain holds a return address, the instruction after the call:
 * look up the address minus one to name the calling function (a call that
 * is the last instruction of a function otherwise names the next one), as
 * perf does for stacks it unwinds (it does not for frame-pointer chains).
 * @p:       the model.
 * @pid:     the process (a sample's pid); for a kernel address any.
 * @cpumode: a sample's header.misc & PEO_RECORD_MISC_CPUMODE_MASK
 *           (PEO_RECORD_MISC_KERNEL, _USER, ...), or for a callchain's
 *           frame the mode its context marker gives.
 * @addr:    the address.
 * @flags:   0, or PEO_LOOKUP_DATA for a data address.
 * @out:     filled; its sz set by the caller.
 * Returns 1 when a symbol was found, 0 when not (out->sym NULL; out->dso
 * may still name the binary, and peo_symbols_notes() may say why),
 * -EINVAL (a NULL argument, a frame of an unknown size, an unknown flag).
 */
PEO_API int peo_processes_lookup(struct peo_processes *p, uint32_t pid, uint16_t cpumode,
				 uint64_t addr, uint32_t flags, struct peo_frame *out);

/**
 * peo_processes_unwind() - the user-space frames of @sample's thread,
 * unwound from the registers and the copy of the stack the sample holds
 * (PEO_SAMPLE_REGS_USER and PEO_SAMPLE_STACK_USER, as perf record
 * --call-graph dwarf asks; attr.sample_regs_user says which registers,
 * and they come in its bits' order) with the call frame information
 * (.eh_frame, .debug_frame) of the binaries the process maps, through
 * elfutils' libdwfl.  x86_64 and aarch64 processes.  The process's maps
 * are those the records so far give; its unwinder is kept between calls
 * and made again when they change.
 * @p:      the model.
 * @sample: a parsed sample record.
 * @ips:    receives up to @max addresses, innermost first: the sample's
 *          ip, then each caller's return address as it is (look a caller
 *          up at the address minus one to name the calling function, as
 *          perf does: peo_processes_lookup()).
 * @max:    room in @ips (perf's default depth is 127).
 * Returns how many frames were found: 0 when the sample has no
 * registers or stack (or an empty one), when its registers miss the ip
 * or stack pointer, or when none of the binaries the process maps could
 * be read; else the ip and the callers up to the first frame that cannot
 * be unwound (an ip in nothing mapped: itself first).  -EINVAL (a NULL argument,
 * a record that is not a sample), -ENOTSUP (peo built without elfutils,
 * or a recording in the other byte order: the sentence says which),
 * -ENOMEM.
 */
PEO_API int peo_processes_unwind(struct peo_processes *p, const struct peo_record *sample,
				 uint64_t *ips, size_t max);

/**
 * peo_processes_inlines() - the functions inlined at @addr of process
 * @pid, as the binary's DWARF debug information (or its separate debug
 * file's) gives them: innermost first, up to but not including the
 * function they were inlined into (which peo_processes_lookup() names).
 * perf script prints each as a frame of its own before that one,
 * "ADDR name+0xOFF (inlined)" with the outer symbol's offset.
 * @p:     the model.
 * @pid:   the process.
 * @addr:  an address of the process (a caller's return address minus one).
 * @names: receives up to @max names, demangled unless the peo_symbols
 *         says not; valid until @p is freed.
 * @max:   room in @names.
 * Returns how many names were stored (0: none inlined there, or no
 * debug information), -EINVAL (a NULL argument), -ENOTSUP (peo built
 * without elfutils), -ENOMEM.
 */
PEO_API int peo_processes_inlines(struct peo_processes *p, uint32_t pid, uint64_t addr,
				  const char **names, size_t max);

/* A place in the source code. */
struct peo_srcline {
	const char *file;  /* the file as the debug information names it (often
			    * a full path); NULL when not known */
	uint32_t line;     /* 1-based; 0 when not known */
	uint32_t reserved; /* 0 */
};

/**
 * peo_processes_srclines() - where in the source @addr of process @pid
 * is, from the DWARF line table and inlined-subroutine scopes of its
 * binary (or its separate debug file): @lines[0] is the line table's row
 * for @addr (the innermost code: what addr2line(1) and perf script's
 * srcline name); when functions are inlined there, @lines[i] (i >= 1) is
 * where the (i-1)-th of peo_processes_inlines() was called, in the i-th
 * (the last in the function they were inlined into).  perf script's
 * --call-graph dwarf frames print @lines[i] under the i-th frame.
 * Answers are kept per binary and address: a second call costs a lookup.
 * @p:     the model.
 * @pid:   the process.
 * @addr:  an address of the process (a caller's return address minus one,
 *         to name the line of the call).
 * @lines: receives up to @max places, innermost first; the strings stay
 *         valid until @p is freed.
 * @max:   room in @lines (the inlined functions + 1 is enough).
 * Returns how many places were stored: 0 when nothing is known (no debug
 * information, or an address in no file), else the number of inlined
 * functions + 1 when @max allows (a place's file may still be NULL where
 * the debug information names none); -EINVAL (a NULL argument), -ENOTSUP (peo
 * built without elfutils), -ENOMEM.
 */
PEO_API int peo_processes_srclines(struct peo_processes *p, uint32_t pid, uint64_t addr,
				   struct peo_srcline *lines, size_t max);

/**
 * peo_processes_binary_srclines() - peo_processes_srclines() for a place
 * named by its binary and offset (a peo_frame's dso and dso_offset, as a
 * profile keeps it) instead of a process's address, so that it can be
 * answered later or elsewhere: the one call on @p that another thread
 * may make while @p's owner adds records and looks up (its answers are
 * kept apart from the owner's, under a lock of their own, and the
 * binaries' symbols are shared).  Calls from several threads take turns.
 * @p:      the model whose peo_symbols knows the binary.
 * @dso:    the binary as peo_frame.dso names it (a path, or [vdso]).
 * @offset: the place's offset in that file (peo_frame.dso_offset of a
 *          lookup of a caller's return address minus one, to name the
 *          line of the call).
 * @lines:  receives up to @max places, innermost first; the strings stay
 *          valid until @p is freed.
 * @max:    room in @lines.
 * Returns how many places were stored, as peo_processes_srclines() (0
 * when nothing is known: no debug information, a binary that cannot be
 * read, an offset it does not load); -EINVAL (a NULL argument), -ENOTSUP
 * (peo built without elfutils), -ENOMEM.
 */
PEO_API int peo_processes_binary_srclines(struct peo_processes *p, const char *dso,
					  uint64_t offset, struct peo_srcline *lines, size_t max);

#ifdef __cplusplus
}
#endif

#endif
