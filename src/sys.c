/*
 * sys.c - the perf_event_open system call and one wrapper per ioctl.
 *
 * Each wrapper returns 0/fd or -errno, restores the caller's errno, and on
 * failure leaves a sentence naming the call, its arguments and the errno
 * (an ioctl's with its usual cause).  This is the bottom layer: it calls
 * nothing of peo's but the error sentence and the attr's name.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

void peo_attr_init(struct peo_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
}

peo_open_fn peo_open_hook;

int peo_raw_perf_event_open(struct peo_attr *attr, pid_t pid, int cpu,
			    int group_fd, unsigned long flags)
{
	int saved = errno;
	long fd;
	int err;

	if (peo_open_hook)
		return peo_open_hook(attr, pid, cpu, group_fd, flags);
	fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
	err = errno;
	errno = saved;
	return fd >= 0 ? (int)fd : -err;
}

void peo_open_call_text(char *out, size_t cap, const struct peo_attr *attr, pid_t pid,
			int cpu, int group_fd, unsigned long flags)
{
	char what[96];

	if (attr)
		peo_describe_attr(attr, what, sizeof(what));
	else
		snprintf(what, sizeof(what), "attr NULL");
	snprintf(out, cap, "perf_event_open(%s, pid %d, cpu %d, group_fd %d, flags %#lx)",
		 what, (int)pid, cpu, group_fd, flags);
}

int peo_sys_perf_event_open(struct peo_attr *attr, pid_t pid, int cpu,
			    int group_fd, unsigned long flags)
{
	int fd = peo_raw_perf_event_open(attr, pid, cpu, group_fd, flags);
	char call[160];

	if (fd >= 0)
		return fd;
	/* The call and the kernel's word only: finding the cause reads /proc,
	 * /sys and the feature probe, which is the open layer's work
	 * (peo_open_explained), above this one. */
	peo_open_call_text(call, sizeof(call), attr, pid, cpu, group_fd, flags);
	return peo_fail(-fd, "%s: %s", call, strerror(-fd));
}

/* What each ioctl's EINVAL (and ENOTTY) usually means for a perf fd. */
static const char *ioctl_cause(unsigned long request, int err)
{
	if (err == EBADF)
		return "the fd is not open";
	if (err == ENOTTY)
		return "the fd is not a perf event, or this kernel does not know this ioctl (see `peo features`)";
	if (err == EFAULT)
		return "the argument pointer is not valid memory";
	if (request == PEO_IOC_REFRESH && err == EINVAL)
		return "REFRESH needs a sampling event (sample_period > 0) without inherit, and a count > 0";
	if (request == PEO_IOC_PERIOD && err == EINVAL)
		return "the period must be non-zero with bit 63 clear, and a frequency no higher than perf_event_max_sample_rate";
	if (request == PEO_IOC_SET_OUTPUT && err == EINVAL)
		return "both events must be on the same CPU (or the same task), use the same clock, and the target must have a ring";
	if (request == PEO_IOC_SET_OUTPUT && err == EBUSY)
		return "this event already has its own ring mapped";
	if (request == PEO_IOC_SET_FILTER && err == EINVAL)
		return "filters apply to tracepoints (with a valid expression over their fields) and to AUX events with address filters";
	if (request == PEO_IOC_SET_FILTER && err == EEXIST)
		return "the kernel allows one filter per event and this one has it: open a new event for another filter";
	if (request == PEO_IOC_SET_BPF && err == EINVAL)
		return "BPF programs attach to tracepoint, kprobe and uprobe events only";
	if (request == PEO_IOC_PAUSE_OUTPUT && err == EINVAL)
		return "the event has no ring buffer mapped";
	if (request == PEO_IOC_QUERY_BPF && err == EINVAL)
		return "QUERY_BPF works on tracepoint events only";
	if (request == PEO_IOC_QUERY_BPF && err == ENOSPC)
		return "ids_len is smaller than the number of attached programs (prog_cnt says how many)";
	if (request == PEO_IOC_MODIFY_ATTRIBUTES && (err == EINVAL || err == EOPNOTSUPP))
		return "the kernel can modify breakpoint events only, and only their address, length and type";
	if (err == EACCES || err == EPERM)
		return "the operation needs more privilege (CAP_PERFMON or CAP_SYS_ADMIN)";
	return "see perf_event_open(2) for this ioctl";
}

static int do_ioctl(int fd, unsigned long request, const char *name,
		    unsigned long arg, const char *arg_text)
{
	int saved = errno;
	int rc = ioctl(fd, request, arg);
	int err = errno;

	errno = saved;
	if (rc >= 0)
		return rc;
	return peo_fail(err, "ioctl(fd %d, PERF_EVENT_IOC_%s, %s): %s: %s", fd, name,
			arg_text, strerror(err), ioctl_cause(request, err));
}

static int ioc_with_flags(int fd, unsigned long request, const char *name, unsigned int flags)
{
	return do_ioctl(fd, request, name, flags,
			(flags & PEO_IOC_FLAG_GROUP) ? "PERF_IOC_FLAG_GROUP" : "0");
}

int peo_sys_ioc_enable(int fd, unsigned int ioc_flags)
{
	return ioc_with_flags(fd, PEO_IOC_ENABLE, "ENABLE", ioc_flags);
}

int peo_sys_ioc_disable(int fd, unsigned int ioc_flags)
{
	return ioc_with_flags(fd, PEO_IOC_DISABLE, "DISABLE", ioc_flags);
}

int peo_sys_ioc_reset(int fd, unsigned int ioc_flags)
{
	return ioc_with_flags(fd, PEO_IOC_RESET, "RESET", ioc_flags);
}

int peo_sys_ioc_refresh(int fd, int count)
{
	char text[24];

	snprintf(text, sizeof(text), "%d", count);
	return do_ioctl(fd, PEO_IOC_REFRESH, "REFRESH", (unsigned long)(long)count, text);
}

int peo_sys_ioc_period(int fd, uint64_t period)
{
	char text[32];

	snprintf(text, sizeof(text), "&%llu", (unsigned long long)period);
	return do_ioctl(fd, PEO_IOC_PERIOD, "PERIOD", (unsigned long)&period, text);
}

int peo_sys_ioc_set_output(int fd, int target_fd)
{
	char text[24];

	snprintf(text, sizeof(text), "%d", target_fd);
	return do_ioctl(fd, PEO_IOC_SET_OUTPUT, "SET_OUTPUT", (unsigned long)(long)target_fd, text);
}

int peo_sys_ioc_set_filter(int fd, const char *filter)
{
	char text[96];

	snprintf(text, sizeof(text), "\"%.80s\"", filter ? filter : "(null)");
	return do_ioctl(fd, PEO_IOC_SET_FILTER, "SET_FILTER", (unsigned long)filter, text);
}

int peo_sys_ioc_id(int fd, uint64_t *id)
{
	return do_ioctl(fd, PEO_IOC_ID, "ID", (unsigned long)id, "&id");
}

int peo_sys_ioc_set_bpf(int fd, int prog_fd)
{
	char text[24];

	snprintf(text, sizeof(text), "%d", prog_fd);
	return do_ioctl(fd, PEO_IOC_SET_BPF, "SET_BPF", (unsigned long)(long)prog_fd, text);
}

int peo_sys_ioc_pause_output(int fd, int pause)
{
	return do_ioctl(fd, PEO_IOC_PAUSE_OUTPUT, "PAUSE_OUTPUT", pause ? 1 : 0, pause ? "1" : "0");
}

int peo_sys_ioc_query_bpf(int fd, struct peo_query_bpf *query)
{
	return do_ioctl(fd, PEO_IOC_QUERY_BPF, "QUERY_BPF", (unsigned long)query, "&query");
}

int peo_sys_ioc_modify_attributes(int fd, struct peo_attr *attr)
{
	return do_ioctl(fd, PEO_IOC_MODIFY_ATTRIBUTES, "MODIFY_ATTRIBUTES", (unsigned long)attr, "&attr");
}
