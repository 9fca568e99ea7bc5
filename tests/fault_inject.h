/*
 * fault_inject.h - make chosen syscalls fail, through the real kernel
 * boundary: a test body runs in a child process under a seccomp filter
 * that hands the chosen syscalls to a supervisor (the parent), which
 * counts them and answers each with an errno or lets the kernel run it.
 * The same supervisor can play an older kernel for perf_event_open: one
 * whose perf_event_attr is smaller (E2BIG, with its size written back into
 * the caller's attr, as the kernel does), or that refuses some bits (EINVAL).
 */
#ifndef PEO_FAULT_INJECT_H
#define PEO_FAULT_INJECT_H

#include <stddef.h>
#include <stdint.h>

/* One rule; the first rule that matches a call decides it. */
struct fault_rule {
	long nr;         /* the syscall (SYS_read, SYS_perf_event_open...) */
	int err;         /* the errno its failing calls return */
	unsigned from;   /* the first failing call, counted from 1 among the calls it matches */
	unsigned times;  /* how many fail from there; 0: every one */
	/* Which calls the rule counts (NULL: all): the fd argument's target, as
	 * /proc/PID/fd/N shows it, starts with this ("anon_inode:[perf_event]",
	 * "/tmp/peo-fault").  The fd is args[0], or args[4] for mmap. */
	const char *fd_prefix;
	/* perf_event_open only: count just the calls whose attr.config is this
	 * (when config_set), so a library's own probes do not shift the count. */
	int config_set;
	uint64_t config;
	/* perf_event_open only, instead of err/from/times: a kernel whose attr
	 * is this size (non-zero: E2BIG and the size written back when a byte
	 * past it is set), and that answers EINVAL to these bits. */
	uint32_t attr_size;
	uint64_t reject_read_format, reject_sample_type;
};

/* fault_run()'s answer when this kernel cannot supervise the child (no
 * seccomp user notification, not allowed, or no CONTINUE before 5.5): the
 * test skips; fault_why says why (errno). */
#define FAULT_CANNOT_RUN (-4096)
extern int fault_why;

/*
 * Run body(arg) in a child under @rules; the child exits with what body
 * returns.  @calls, when not NULL, receives per rule how many calls it
 * matched (failed or not).  Returns the child's exit status (0 when body
 * returned 0), 128 + signal when it died of one, FAULT_CANNOT_RUN when
 * this kernel cannot supervise it, or another -errno when the machinery
 * itself failed (too many rules, no socket, a child that died before
 * reporting): a test failure.
 */
int fault_run(const struct fault_rule *rules, size_t n, int (*body)(void *), void *arg,
	      unsigned *calls);

#endif
