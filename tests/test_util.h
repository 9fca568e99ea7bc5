/*
 * test_util.h - what peo's cmocka tests share: skips with a printed reason
 * (counted, never passes), probing helpers, and small workloads.
 */
#ifndef PEO_TEST_UTIL_H
#define PEO_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <peo/peo.h>

/* Skip the current test, printing why; counted by peo_test_run(). */
#define PEO_SKIP(...)                            \
	do {                                     \
		peo_test_note_skip(__VA_ARGS__); \
		skip();                          \
		return;                          \
	} while (0)

void peo_test_note_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Run a cmocka group.  Returns cmocka's failure count, or 77 (CTest's
 * SKIP_RETURN_CODE) when every test in the group skipped.
 */
int peo_test_run(const char *name, const struct CMUnitTest *tests, size_t n,
		 CMFixtureFunction group_setup);
#define PEO_TEST_MAIN(name, tests) \
	peo_test_run(name, tests, sizeof(tests) / sizeof((tests)[0]), NULL)
#define PEO_TEST_MAIN_SETUP(name, tests, setup) \
	peo_test_run(name, tests, sizeof(tests) / sizeof((tests)[0]), setup)

/*
 * A check where cmocka's asserts cannot be used: in a forked child (its
 * failed assert would jump into a copy of the parent's cmocka), in a worker
 * thread, or in a helper such code shares.  When @cond is false it prints
 * file:line, the condition and peo_last_error() to stderr, and returns 1
 * from the calling function (which returns int: 0 when every check held).
 */
#define PEO_CHECK(cond) PEO_CHECK_TEXT(NULL, 0, cond, #cond)

/* PEO_CHECK() that keeps the sentence in @buf (@cap bytes) when @buf is not
 * NULL, for a thread to hand back to the test that started it.  @text is
 * #cond, passed by a test's own macro over this one (the argument it passes
 * on arrives here macro-expanded: NULL as ((void *)0)). */
#define PEO_CHECK_TEXT(buf, cap, cond, text)                                                  \
	do {                                                                                  \
		if (!(cond))                                                                  \
			return peo_test_check_failed(buf, cap, __FILE__, __LINE__, text);     \
	} while (0)

/* What PEO_CHECK_TEXT() says when @cond failed at @file:@line; returns 1. */
int peo_test_check_failed(char *buf, size_t cap, const char *file, int line, const char *cond);

/* Assert that the last error sentence contains @needle (prints it if not). */
void peo_assert_error_contains(const char *needle, const char *file, int line);
#define assert_error_contains(needle) peo_assert_error_contains(needle, __FILE__, __LINE__)

/* peo_target_new() that fails the test (printing the sentence) when it fails. */
struct peo_target *peo_test_target(const struct peo_target_opts *o);

/* An attr for a software event on the calling thread, user space only. */
void peo_test_sw_attr(struct peo_attr *attr, uint64_t config);

/* @a set up (peo_attr_init) as a write watchpoint on the 8 bytes at @addr,
 * hit by hit (sample_period 1). */
void peo_test_watch_attr(struct peo_attr *a, const volatile void *addr);

/*
 * On a kernel whose perf_event_attr ends before config3 (136 bytes, Linux
 * 6.3), real or played by a fault rule: an attr setting config3 fails with
 * E2BIG and the sentence that names the field and the sizes, and an
 * ordinary attr still opens.  Returns 0, or 1 having said what failed
 * (PEO_CHECK), so that a forked child may call it too.
 */
int peo_test_config3_refused(void);

/* Read one u64 count from a counting fd (no read_format); fails the test otherwise. */
uint64_t peo_test_read_count(int fd);

/* Work the tests measure: spin for @ns of CPU time; touch @pages new pages. */
void peo_test_spin_ns(uint64_t ns);
void peo_test_touch_pages(size_t pages);

/* Pin the calling thread to @cpu (so that its work lands in that CPU's
 * events), failing the test if it may not run there; peo_test_unpin() puts
 * back the CPUs it had before the first pin. */
void peo_test_pin_to_cpu(int cpu);
void peo_test_unpin(void);

/* Is the running kernel's release at least @since ("6.19")?  major.minor only. */
int peo_test_release_at_least(const char *since);

/*
 * Whether this runs under valgrind, whose translated code, simulated
 * registers and queued signals the kernel's view of the process (sample
 * ips and stacks, uprobes, overflow signals, SIGTRAP) does not match:
 * such tests skip there, saying so.
 */
int peo_test_under_valgrind(void);
#define PEO_SKIP_UNDER_VALGRIND(why)                                     \
	do {                                                             \
		if (peo_test_under_valgrind())                           \
			PEO_SKIP("under valgrind: %s", why);             \
	} while (0)

/*
 * Run @cmd, a shell line, its stderr joined to its stdout; what it prints
 * goes to @out (@cap bytes, NUL-terminated; the rest is dropped).  Returns
 * its exit status, or -1 when it could not run or died of a signal.  Asserts
 * nothing, so that a forked child may call it.
 */
int peo_test_run_capture(const char *cmd, char *out, size_t cap);

/* Number of open fds of this process (for leak checks). */
int peo_test_count_fds(void);

/* Remove @path and everything under it (a test's temporary tree).
 * Returns 0, or -1 with errno. */
int peo_test_remove_tree(const char *path);

/*
 * A number in the file at @path (a sysctl) into *@out, read by the test
 * itself (not by the library whose sentences the test checks).  Returns 0,
 * or -1.  Asserts nothing, so that a forked child may call it.
 */
int peo_test_read_long(const char *path, long *out);

/*
 * Whether this machine has a core CPU PMU, probed by the test itself in
 * /sys/bus/event_source/devices (the first there of cpu, cpu_core, cpum_cf
 * and cpu_atom, else one with a cpus file): 1 with its name in @name (when
 * not NULL), else 0.
 */
int peo_test_cpu_pmu(char *name, size_t cap);

/*
 * Keep this process on a CPU that @pmu counts on: the first of its cpus
 * file, where it has one (a hybrid machine's cpu_core, an arm PMU); counts
 * on a CPU it does not cover would be 0.  Returns that CPU plus 1, 0 when
 * @pmu covers every CPU, -1 when its list cannot be read or the pinning fails.
 */
int peo_test_pin_to_pmu(const char *pmu);

/* A test whose teardown fails if it left an fd open. */
int peo_test_fds_setup(void **state);
int peo_test_fds_teardown(void **state);
#define PEO_TEST(f) cmocka_unit_test_setup_teardown(f, peo_test_fds_setup, peo_test_fds_teardown)

/*
 * Bytes under construction in little- or big-endian order, for records
 * and files a machine of either order would write.  Zero-initialise; set big.
 */
struct vec {
	unsigned char b[8192];
	size_t n;
	int big;
};
void vec_put(struct vec *v, uint64_t x, size_t size);
void vec_put64(struct vec *v, uint64_t x);
void vec_put32(struct vec *v, uint32_t x);
void vec_put16(struct vec *v, uint16_t x);
void vec_bytes(struct vec *v, const void *p, size_t n);
void vec_pad8(struct vec *v);
/* Zero bytes until the vector holds @n. */
void vec_zeros_to(struct vec *v, size_t n);
/* A whole struct peo_attr as a writer of the vector's order lays it out
 * (the flags bitfield word from the top on a big-endian writer). */
void vec_attr(struct vec *v, const struct peo_attr *a);
/* Overwrite the @size-byte value at @at (the vector's length is kept). */
void vec_put_at(struct vec *v, size_t at, uint64_t x, size_t size);
/* Start a record of @type and @misc in @v, written in @big order (its
 * size set by vec_record_end() once the body is put). */
void vec_record_begin(struct vec *v, int big, uint32_t type, uint16_t misc);
void vec_record_end(struct vec *v);
/* @host as a file written in @big order holds it. */
void peo_test_foreign_attr(struct peo_attr *out, const struct peo_attr *host, int big);
/* A parser of @big-order records of @host_attr's event (none when NULL). */
struct peo_record_parser *peo_test_parser_for(int big, const struct peo_attr *host_attr);
/* A software event's attr with @sample_type and sample_id_all. */
void peo_test_base_attr(struct peo_attr *a, uint64_t sample_type);

/*
 * The id of tracepoint @sys:@name, mounting tracefs at /sys/kernel/tracing
 * when it is not mounted and we may.  Returns the id, or -1 with @why set
 * to the reason (for PEO_SKIP).
 */
long long peo_test_tracepoint_id(const char *sys, const char *name, char *why, size_t cap);

/* Skip the test, saying why, unless tracepoint @sys:@name can be used. */
#define PEO_SKIP_WITHOUT_TRACEPOINT(sys, name)                                        \
	do {                                                                          \
		char why_[256];                                                       \
		if (peo_test_tracepoint_id(sys, name, why_, sizeof(why_)) < 0)        \
			PEO_SKIP("%s", why_);                                         \
	} while (0)

/* The byte offset of sys_enter_lseek's "offset" field in its RAW data, or
 * -1 with @why set (after peo_test_tracepoint_id() has mounted tracefs). */
int peo_test_lseek_offset_field(char *why, size_t cap);

/* A ring tests' group setup: the sys_enter_lseek and sys_enter_getppid
 * tracepoints are there; *@lseek_offset gets lseek's offset field (as
 * peo_test_lseek_offset_field()).  0, or -1 with the skip noted. */
int peo_test_syscall_tracepoints(int *lseek_offset);

/* The ring of @fd mapped with @pages data pages (an overwrite ring when
 * @overwrite); the test fails, printing the sentence, when it cannot. */
struct peo_ring *peo_test_map_ring(int fd, size_t pages, int overwrite);

/* @a set up (peo_attr_init) to sample every hit of @sys:@name.  Returns 0,
 * or -1 with @why set, as peo_test_tracepoint_id(). */
int peo_test_tracepoint_attr(struct peo_attr *a, const char *sys, const char *name, char *why,
			     size_t cap);

#endif
