/*
 * explain.c - the likely cause and fix of a perf_event_open failure, for the
 * attr at hand.  Reads /proc and /sys for the limits that decide it, and the
 * feature probe for the bits this kernel lacks: so it sits above both the
 * system call and the probe, and neither calls it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "internal.h"

static void explain_paranoid(struct peo_buf *b, const struct peo_attr *attr, pid_t pid, int cpu)
{
	long level = 0;

	if (geteuid() == 0) {
		/* root passes the paranoid checks: the refusal is the event's own */
		peo_buf_printf(b, "the caller is root, so perf_event_paranoid is not the cause: this "
			       "%s refuses perf (some tracepoints do), or a security policy "
			       "(lockdown, an LSM, a seccomp filter) forbids it",
			       attr && attr->type == PEO_TYPE_TRACEPOINT ? "tracepoint" : "event");
		return;
	}
	if (peo_read_long_file("/proc/sys/kernel/perf_event_paranoid", &level) < 0) {
		peo_buf_printf(b, "the caller lacks the privilege for this event (CAP_PERFMON or CAP_SYS_ADMIN)");
		return;
	}
	peo_buf_printf(b, "kernel.perf_event_paranoid is %ld, so users without CAP_PERFMON ", level);
	if (level >= 3)
		peo_buf_printf(b, "may not use perf_event_open at all (a Debian/Android extension)");
	else if (level >= 2)
		peo_buf_printf(b, "may only measure their own processes in user space");
	else if (level >= 1)
		peo_buf_printf(b, "may not measure whole CPUs (pid -1)");
	else if (level >= 0)
		peo_buf_printf(b, "may not read raw tracepoint data");
	else
		peo_buf_printf(b, "are limited only by ptrace access to the target");
	if (level >= 2 && attr && !attr->exclude_kernel)
		peo_buf_printf(b, "; this event counts kernel mode: set exclude_kernel=1 and exclude_hv=1 (the :u modifier)");
	if (level >= 1 && pid == -1 && cpu >= 0)
		peo_buf_printf(b, "; this is a CPU-wide event (pid -1)");
	if (pid > 0 && pid != getpid())
		peo_buf_printf(b, "; measuring pid %d also needs ptrace access to it (same user, or CAP_SYS_PTRACE)", (int)pid);
	peo_buf_printf(b, ". Fix: run as root or with CAP_PERFMON, or lower the level: sysctl kernel.perf_event_paranoid=%ld",
		       level >= 2 ? 1L : level - 1);
}

static void explain_noent(struct peo_buf *b, const struct peo_attr *attr)
{
	char pmu[32];

	switch (attr ? attr->type : 0xffffffffu) {
	case PEO_TYPE_HARDWARE:
	case PEO_TYPE_HW_CACHE:
	case PEO_TYPE_RAW:
		if (!peo_host_has_cpu_pmu(pmu, sizeof(pmu)))
			peo_buf_printf(b, "this machine exposes no hardware PMU (no core PMU, such as cpu, in /sys/bus/event_source/devices); "
					  "software events such as task-clock still work");
		else
			peo_buf_printf(b, "the %s PMU does not implement this event (see `perf list` or /sys/bus/event_source/devices/%s/events)",
				       pmu, pmu);
		return;
	case PEO_TYPE_SOFTWARE:
		peo_buf_printf(b, "this kernel has no software event %llu", (unsigned long long)attr->config);
		return;
	default:
		peo_buf_printf(b, "no PMU has type %u, or it does not know this config (types are in /sys/bus/event_source/devices/*/type)",
			       attr ? attr->type : 0);
	}
}

/* Bits this kernel does not accept, from the cached feature probe. */
static int explain_missing_features(struct peo_buf *b, const struct peo_attr *attr)
{
	const struct peo_feature *f;
	size_t n, i;
	int found = 0;

	if (peo_features_table(&f, &n) < 0)
		return 0;
	for (i = 0; i < n; i++) {
		uint64_t used = 0;

		if (f[i].state != PEO_FEATURE_MISSING)
			continue;
		if (f[i].kind == PEO_FEATURE_SAMPLE_TYPE)
			used = attr->sample_type & f[i].value;
		else if (f[i].kind == PEO_FEATURE_READ_FORMAT)
			used = attr->read_format & f[i].value;
		else if (f[i].kind == PEO_FEATURE_ATTR_FLAG)
			used = attr->flags & f[i].value;
		if (!used)
			continue;
		peo_buf_printf(b, "%s%s %s needs Linux %s; this kernel rejects it", found ? "; " : "",
			       peo_feature_kind_name(f[i].kind), f[i].name, f[i].since);
		found = 1;
	}
	return found;
}

static void explain_inval(struct peo_buf *b, const struct peo_attr *attr, int cpu, unsigned long flags)
{
	long max_rate = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	size_t start = b->len;

	if (!attr) {
		peo_buf_printf(b, "invalid arguments");
		return;
	}
	if (explain_missing_features(b, attr))
		return;
	if (flags & ~(PEO_FLAG_FD_NO_GROUP | PEO_FLAG_FD_OUTPUT | PEO_FLAG_PID_CGROUP | PEO_FLAG_FD_CLOEXEC))
		peo_buf_printf(b, "unknown bits in flags %#lx; ", flags);
	if (attr->__reserved_1)
		peo_buf_printf(b, "attr flag bits no kernel defines are set; ");
	if (attr->__reserved_2 || attr->__reserved_3)
		peo_buf_printf(b, "reserved attr fields are non-zero; ");
	if (attr->sample_type & ~(PEO_SAMPLE_MAX - 1))
		peo_buf_printf(b, "sample_type has bits no kernel defines (%#llx); ",
			       (unsigned long long)(attr->sample_type & ~(PEO_SAMPLE_MAX - 1)));
	if (attr->read_format & ~(uint64_t)(PEO_FORMAT_MAX - 1))
		peo_buf_printf(b, "read_format has bits no kernel defines; ");
	if (cpu < -1 || (ncpu > 0 && cpu >= ncpu))
		peo_buf_printf(b, "cpu %d does not exist (this machine has CPUs 0-%ld); ", cpu, ncpu - 1);
	if (attr->sigtrap && !attr->remove_on_exec)
		peo_buf_printf(b, "sigtrap needs remove_on_exec; ");
	if (attr->inherit_thread && !attr->inherit)
		peo_buf_printf(b, "inherit_thread needs inherit; ");
	if (attr->build_id && !attr->mmap2)
		peo_buf_printf(b, "build_id needs mmap2; ");
	if ((attr->sample_type & PEO_SAMPLE_WEIGHT_TYPE) == PEO_SAMPLE_WEIGHT_TYPE)
		peo_buf_printf(b, "WEIGHT and WEIGHT_STRUCT exclude each other; ");
	if (attr->inherit && (attr->sample_type & PEO_SAMPLE_READ) && !(attr->sample_type & PEO_SAMPLE_TID))
		peo_buf_printf(b, "inherit with SAMPLE_READ needs SAMPLE_TID; ");
	if (attr->freq && peo_read_long_file("/proc/sys/kernel/perf_event_max_sample_rate", &max_rate) == 0 &&
	    attr->sample_freq > (uint64_t)max_rate)
		peo_buf_printf(b, "sample_freq %llu exceeds kernel.perf_event_max_sample_rate %ld; ",
			       (unsigned long long)attr->sample_freq, max_rate);
	if (!attr->freq && (attr->sample_period >> 63))
		peo_buf_printf(b, "sample_period has bit 63 set; ");
	if (attr->use_clockid && attr->clockid != 0 && attr->clockid != 1 && attr->clockid != 4 &&
	    attr->clockid != 7 && attr->clockid != 11)
		peo_buf_printf(b, "clockid %d is not one perf accepts (MONOTONIC, MONOTONIC_RAW, REALTIME, BOOTTIME, TAI); ",
			       attr->clockid);
	if (attr->type == PEO_TYPE_BREAKPOINT && (attr->bp_type == PEO_BP_EMPTY || attr->bp_type > PEO_BP_X))
		peo_buf_printf(b, "bp_type %u is not R, W, RW or X; ", attr->bp_type);
	/* An unknown tracepoint id is EINVAL (perf_trace_init), not ENOENT. */
	if (b->len == start && attr->type == PEO_TYPE_TRACEPOINT)
		peo_buf_printf(b, "no tracepoint may have id %llu: the kernel answers EINVAL, not ENOENT, for an unknown id "
				  "(ids are in /sys/kernel/tracing/events/*/*/id)",
			       (unsigned long long)attr->config);
	else if (b->len == start)
		peo_buf_printf(b, "the kernel rejected this attr; common causes: a group member on another CPU or task "
				  "than its leader, pinned/exclusive on a group member, an option this PMU lacks. "
				  "`peo features` lists what this kernel accepts");
	else
		b->len -= 2, b->s[b->len] = '\0';
}

void peo_explain_fd_limit(struct peo_buf *b, int err)
{
	struct rlimit rl;

	if (err == ENFILE) {
		peo_buf_printf(b, "the system-wide file table is full (fs.file-max); close files or "
			       "raise it: sysctl fs.file-max=N");
		return;
	}
	if (err != EMFILE)
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		peo_buf_printf(b, "the process has reached its open file limit (RLIMIT_NOFILE %llu, "
			       "hard %llu); raise it with `ulimit -n N` (up to the hard limit; as root "
			       "beyond it) or setrlimit(), or close fds (perf needs one per event per "
			       "CPU or thread)", (unsigned long long)rl.rlim_cur,
			       (unsigned long long)rl.rlim_max);
	else
		peo_buf_printf(b, "the process has reached its open file limit (RLIMIT_NOFILE); raise "
			       "it with `ulimit -n N` or setrlimit()");
}

void peo_explain_open(struct peo_buf *b, int err, const struct peo_attr *attr, uint32_t sent_size,
		      pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	int saved = errno; /* the /proc and /sys reads below may set it */
	long max_stack = 0;
	long page = sysconf(_SC_PAGESIZE);

	switch (err) {
	case EACCES:
	case EPERM:
		explain_paranoid(b, attr, pid, cpu);
		break;
	case ENOENT:
		if (!(flags & PEO_FLAG_PID_CGROUP) || !attr || attr->type != PEO_TYPE_SOFTWARE)
			explain_noent(b, attr); /* a software event always exists: then it is the cgroup */
		if (flags & PEO_FLAG_PID_CGROUP)
			peo_buf_printf(b, "%sthe cgroup (fd %d) has no perf_event state: on cgroup2, "
				       "Linux 6.1 gives it to the root cgroup only (seen on arm64); "
				       "count the root, or mount the v1 perf_event hierarchy",
				       attr && attr->type == PEO_TYPE_SOFTWARE ? "" :
				       "; with PERF_FLAG_PID_CGROUP it can also be that ", (int)pid);
		break;
	case EINVAL:
		if (pid == -1 && cpu == -1)
			peo_buf_printf(b, "pid -1 with cpu -1 is not allowed: name a task, a CPU, or both");
		else
			explain_inval(b, attr, cpu, flags);
		break;
	case E2BIG:
		/* Past a page the kernel refuses the size itself, zeros or not. */
		if (attr && sent_size > attr->size && attr->size >= PEO_ATTR_SIZE_VER0 &&
		    sent_size <= (unsigned long)page) {
			peo_buf_printf(b, "attr.size %u is larger than this kernel's %u and a byte past %u is non-zero: "
					  "the attr asks for something this kernel lacks (peo_sys_open() names the field)",
				       sent_size, attr->size, attr->size);
			break;
		}
		peo_buf_printf(b, "attr.size %u is not one the kernel accepts: use 0, or %d up to a page",
			       sent_size, PEO_ATTR_SIZE_VER0);
		if (attr && attr->size != sent_size && attr->size >= PEO_ATTR_SIZE_VER0)
			peo_buf_printf(b, " (this kernel's own size is %u)", attr->size);
		break;
	case EMFILE:
	case ENFILE:
		peo_explain_fd_limit(b, err);
		break;
	case ESRCH:
		peo_buf_printf(b, "no process or thread %d exists (it may have exited)", (int)pid);
		break;
	case EBADF:
		if (flags & PEO_FLAG_PID_CGROUP)
			peo_buf_printf(b, "pid %d must be an open fd of a cgroup directory with PERF_FLAG_PID_CGROUP", (int)pid);
		else
			peo_buf_printf(b, "group_fd %d is not an open perf event fd (use -1 to start a new group)", group_fd);
		break;
	case EFAULT:
		peo_buf_printf(b, "the attr pointer (or a pointer inside it, such as uprobe_path) is not readable memory");
		break;
	case EBUSY:
		peo_buf_printf(b, "the PMU is in exclusive use (another exclusive event, or a tool that owns the PMU)");
		break;
	case EOVERFLOW:
		if (peo_read_long_file("/proc/sys/kernel/perf_event_max_stack", &max_stack) == 0 && attr)
			peo_buf_printf(b, "attr.sample_max_stack %u exceeds kernel.perf_event_max_stack %ld; lower it or raise the sysctl",
				       attr->sample_max_stack, max_stack);
		else
			peo_buf_printf(b, "attr.sample_max_stack exceeds kernel.perf_event_max_stack");
		break;
	case EOPNOTSUPP:
		peo_buf_printf(b, "this PMU cannot do what the attr asks (sampling, precise_ip, branch stacks, exclude_* or AUX output); "
				  "software events do not support precise_ip or branch stacks");
		break;
	case ENODEV:
		peo_buf_printf(b, "the PMU does not support this on CPU %d (offline, or not one of its CPUs)", cpu);
		break;
	case ENOSPC:
		peo_buf_printf(b, "no hardware slot is free (too many breakpoints or counters)");
		break;
	case ENOSYS:
		peo_buf_printf(b, "this kernel lacks perf_event_open or the requested sample (e.g. STACK_USER on this arch)");
		break;
	default:
		peo_buf_printf(b, "see perf_event_open(2)");
	}
	errno = saved;
}

int peo_open_explained(struct peo_attr *attr, pid_t pid, int cpu, int group_fd,
		       unsigned long flags)
{
	uint32_t sent_size = attr ? attr->size : 0; /* the kernel may write its own on E2BIG */
	int fd = peo_sys_perf_event_open(attr, pid, cpu, group_fd, flags);
	char why[768];
	struct peo_buf b = { why, sizeof(why), 0 };

	if (fd >= 0)
		return fd;
	peo_explain_open(&b, -fd, attr, sent_size, pid, cpu, group_fd, flags);
	peo_fail_append(": %s", why); /* after the bare call's "call: errno" */
	return fd;
}
