/*
 * commands.h - the peo subcommands and helpers they share.
 */
#ifndef PEO_TOOLS_COMMANDS_H
#define PEO_TOOLS_COMMANDS_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include <peo/peo.h>

struct peo_attr;
struct peo_event_list;
struct peo_perfdata;
struct peo_symbols;
struct peo_symbols_opts;

/* Each subcommand gets argv from its own name on; returns the exit status. */
int cmd_features(int argc, char **argv);
int cmd_attr(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_check(int argc, char **argv);

/* list_arg.c: add @more to the comma-separated *@list (NULL at first; the
 * caller frees it): a repeated -e.  0, or -1 out of memory. */
int list_arg_append(char **list, const char *more);

/* number_arg.c: option @opt ("-I", "--workers") of command @tool ("stat")
 * as a whole number from @min to @max (LONG_MAX: no bound) in *@out; 0, or
 * -1 after saying on stderr what to give (@hint, "" or " (...)", after). */
int number_arg(const char *tool, const char *opt, const char *text, long min, long max,
	       const char *hint, long *out);

/* user_fallback.c: when @err (a failed open's negative errno) is
 * perf_event_paranoid refusing kernel mode, make @list's events :u and say
 * so on stderr ("peo @tool: ... @doing user space only ...").  1 when the
 * events changed and the open should be tried again, else 0. */
int user_fallback(struct peo_event_list *list, int err, const char *tool, const char *doing);

/* user_fallback.c: when @err is a missing PMU's (-ENOENT, -ENXIO, -ENODEV),
 * make @list's hardware cycles events cpu-clock (perf's names: cycles:u
 * becomes cpu-clock:uH) and say so on stderr.  1 when events changed and
 * the open should be tried again, else 0. */
int cycles_fallback(struct peo_event_list *list, int err, const char *tool, const char *doing);

/* user_fallback.c: @freq (Hz), or kernel.perf_event_max_sample_rate when
 * @freq is above it, saying so on stderr in perf's words (@is_default: the
 * command's default rather than the user's -F). */
uint64_t freq_limit(uint64_t freq, int is_default);

/* output_check.c: flush and close @f, the command's output (stdout, or an
 * -o file; @name as a sentence says it: "standard output", "'FILE'"); 0,
 * or 1 after saying on stderr "peo @tool: writing @name: ERROR" when a
 * write, the flush or the close failed (a full disk, /dev/full). */
int output_finish(const char *tool, FILE *f, const char *name);

/* exit_keep.c: keep @p (a command's memory it is done with, freed only
 * by the exit that follows) reachable till the exit instead of freeing it
 * now: 1 when kept (or NULL), 0 when the caller must free it (the room
 * for them is full). */
int exit_keep(void *p);

/* preload.c: the symbols @what names (PEO_PRELOAD_*) read ahead on two
 * threads, the kernel's on one, the binaries' on the other; joined (and
 * forgotten) by preload_join().  A thread that cannot start leaves its
 * tables to the lookups. */
struct preloader {
	pthread_t thread;
	struct peo_symbols *syms;
	unsigned what; /* 0: no thread */
};
void preload_start(struct preloader p[2], struct peo_symbols *syms, unsigned what);
void preload_join(struct preloader p[2]);

/* recording_symbols.c: *@out, the symbols of recording @f: options @so
 * (its debug_cache set here from the environment: $PEO_DEBUG_CACHE, "off"
 * for none, else $XDG_CACHE_HOME/peo/debug, else ~/.cache/peo/debug) and
 * every build id @f lists.  0, or -1 (peo_last_error(); *@out, if made,
 * is the caller's to free). */
int recording_symbols(struct peo_perfdata *f, struct peo_symbols_opts *so,
		      struct peo_symbols **out);

/* The cpumode of a callchain's frames after context marker @ctx (what a
 * lookup of them takes): peo script's and peo report's. */
static inline uint16_t callchain_cpumode(int64_t ctx)
{
	switch (ctx) {
	case PEO_CONTEXT_KERNEL: return PEO_RECORD_MISC_KERNEL;
	case PEO_CONTEXT_GUEST_KERNEL: return PEO_RECORD_MISC_GUEST_KERNEL;
	case PEO_CONTEXT_GUEST_USER: return PEO_RECORD_MISC_GUEST_USER;
	default: return PEO_RECORD_MISC_USER;
	}
}

/* recording_symbols.c: whether an event of recording @f samples user
 * stacks to unwind (--call-graph dwarf): their inlined functions need the
 * binaries' DWARF. */
int recording_has_stacks(struct peo_perfdata *f);

/* thread_start.c: pthread_create(@thread, NULL, @fn, @arg) with the
 * asynchronous signals blocked in the new thread, so they reach the main
 * one.  0, or -1 when no thread could be started. */
int thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

/* json.c: print @s as a JSON string literal, quotes included. */
void json_print_string(FILE *out, const char *s);

/* attr_print.c: print @attr as perf -vv prints a perf_event_attr block:
 * dashes, "perf_event_attr:", one "  %-32s %s" line per non-zero field
 * with perf's names and value styles, dashes. */
void attr_print_perf(FILE *out, const struct peo_attr *attr);

/* A bit of a bit set and its name. */
struct bit_name {
	uint64_t bit;
	const char *name;
};

/* One field of an attr, as attr_walk() hands it over. */
struct attr_item {
	const char *label; /* perf -vv's: "{ sample_period, sample_freq }" */
	const char *key;   /* the kernel's: "sample_freq" when freq is set */
	uint64_t v;        /* a signed field's sign-extended */
	char style;        /* 'u' decimal, 'x' hex, 'd' signed, 'b' bit names */
	const struct bit_name *names; /* 'b': the bits' names, NULL-terminated */
};
typedef void attr_visit_fn(void *ctx, const struct attr_item *item);

/* attr_print.c: every field of @attr, zero or not, in perf's order, to @visit. */
void attr_walk(const struct peo_attr *attr, attr_visit_fn *visit, void *ctx);
/* attr_print.c: @it's value as perf prints it: decimal, 0x-hex, signed, or
 * A|B bit names (a 0x value for the bits that have none). */
void attr_item_value(FILE *out, const struct attr_item *it);

/* perf_header.c: @f's header features on @out in perf report
 * --header-only's order and words, @full as its -I prints them (else the
 * topologies, caches and memory in one line each), with @build_ids their
 * pairs too. */
void perf_header_features(FILE *out, struct peo_perfdata *f, int full, int build_ids);
/* The whole header as perf report --header-only prints it: between
 * "# ========" lines, when the file at @path was captured (its mtime), its
 * layout, the features (@full: -I's), the features missing. */
void perf_header_print(FILE *out, struct peo_perfdata *f, const char *path, int full);

#endif
