/*
 * fault_inject.c - the supervisor of fault_inject.h.  The child installs a
 * seccomp filter that sends the rules' syscalls to a listener fd
 * (SECCOMP_RET_USER_NOTIF, Linux 5.0; letting a call through needs 5.5),
 * passes that fd to the parent over a socket, and runs the body.  The
 * parent answers each notification: an errno, or CONTINUE (the kernel runs
 * the call as if nothing had looked).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fault_inject.h"
#include "test_util.h"

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "fault_inject.c: add this architecture's AUDIT_ARCH"
#endif

#define MAX_RULES 16
#define ATTR_READ_MAX 512 /* bytes of a perf_event_attr the supervisor looks at */

/* The filter: the rules' syscalls go to the supervisor, the rest run. */
static int install_filter(const struct fault_rule *rules, size_t n)
{
	struct sock_filter f[4 + MAX_RULES + 2];
	struct sock_fprog prog;
	size_t k = 0;
	long listener;

	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (size_t i = 0; i < n; i++) /* equal: skip to the last-but-one, USER_NOTIF */
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)rules[i].nr,
						      (uint8_t)(n - i), 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
	prog.len = (unsigned short)k;
	prog.filter = f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	listener = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
			   &prog);
	return listener < 0 ? -errno : (int)listener; /* the errno, for the skip-or-fail rule */
}

static int send_fd(int sock, int fd)
{
	char byte = 0, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			    .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c;

	memset(ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -errno;
}

/* The fd sent, or -1 with a negative errno from the child in its byte. */
static int recv_fd(int sock, int *child_err)
{
	char byte = 0, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			    .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c;
	int fd = -1;

	*child_err = 0;
	if (recvmsg(sock, &m, 0) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&m);
	if (c && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
	else
		*child_err = -(int)(unsigned char)byte;
	return fd;
}

static void child(int sock, const struct fault_rule *rules, size_t n, int (*body)(void *), void *arg)
{
	int listener = install_filter(rules, n);
	char ack;

	if (listener < 0) { /* tell the parent why, in the byte */
		char why = (char)(-listener & 0x7f);

		send(sock, &why, 1, 0);
		_exit(127);
	}
	if (send_fd(sock, listener) || recv(sock, &ack, 1, 0) != 1)
		_exit(127);
	close(listener);
	close(sock);
	_exit(body(arg));
}

/* Does the call's fd point at something starting with @prefix? */
static int fd_matches(pid_t pid, const struct seccomp_data *d, const char *prefix)
{
	char path[64], target[256];
	long fd = (long)(d->nr == SYS_mmap ? d->args[4] : d->args[0]);
	ssize_t len;

	if (!prefix)
		return 1;
	if (fd < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/fd/%ld", (int)pid, fd);
	len = readlink(path, target, sizeof(target) - 1);
	if (len < 0)
		return 0;
	target[len] = '\0';
	return !strncmp(target, prefix, strlen(prefix));
}

/* Does the perf_event_open call's attr.config equal the rule's (when it asks)? */
static int config_matches(pid_t pid, const struct seccomp_data *d, const struct fault_rule *r)
{
	char path[64];
	uint64_t config;
	int mem, ok;

	if (!r->config_set)
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	mem = open(path, O_RDONLY | O_CLOEXEC);
	if (mem < 0)
		return 0;
	ok = pread(mem, &config, 8, (off_t)d->args[0] + 8) == 8 && config == r->config;
	close(mem);
	return ok;
}

/* An older kernel's answer to perf_event_open, or 0 to let it through. */
static int older_kernel(pid_t pid, const struct seccomp_data *d, const struct fault_rule *r)
{
	unsigned char attr[ATTR_READ_MAX];
	uint32_t size;
	uint64_t sample_type, read_format;
	char path[64];
	ssize_t got;
	int mem, err = 0;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	mem = open(path, O_RDWR | O_CLOEXEC);
	if (mem < 0)
		return 0;
	got = pread(mem, attr, sizeof(attr), (off_t)d->args[0]);
	if (got < 64) {
		close(mem);
		return 0;
	}
	memcpy(&size, attr + 4, 4);
	size = size ? size : 64; /* 0 means the first published size */
	if (size > (uint32_t)got)
		size = (uint32_t)got;
	if (r->attr_size && size > r->attr_size) {
		for (uint32_t i = r->attr_size; i < size && !err; i++)
			if (attr[i])
				err = E2BIG;
		/* as the kernel: its own size into the caller's attr */
		if (err && pwrite(mem, &r->attr_size, 4, (off_t)d->args[0] + 4) != 4)
			err = EFAULT;
	}
	memcpy(&sample_type, attr + 24, 8);
	memcpy(&read_format, attr + 32, 8);
	if (!err && ((sample_type & r->reject_sample_type) || (read_format & r->reject_read_format)))
		err = EINVAL;
	close(mem);
	return err;
}

/* Answer one notification.  Returns 0, or -errno when the answer could not
 * be given (-EINVAL: CONTINUE is unknown to kernels before 5.5). */
static int answer(int listener, const struct fault_rule *rules, size_t n, unsigned *counts)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	int err = 0;

	memset(&req, 0, sizeof(req));
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req))
		return 0; /* the caller died, or a signal: nothing to answer */
	for (size_t i = 0; i < n; i++) {
		const struct fault_rule *r = &rules[i];

		if (r->nr != req.data.nr || !fd_matches(req.pid, &req.data, r->fd_prefix) ||
		    !config_matches(req.pid, &req.data, r))
			continue;
		counts[i]++;
		if (r->attr_size || r->reject_read_format || r->reject_sample_type)
			err = older_kernel(req.pid, &req.data, r);
		else if (counts[i] >= r->from && (!r->times || counts[i] < r->from + r->times))
			err = r->err;
		break;
	}
	memset(&resp, 0, sizeof(resp));
	resp.id = req.id;
	if (err)
		resp.error = -err;
	else
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp) && errno != ENOENT) /* ENOENT: it died */
		return -errno;
	return 0;
}

int fault_why;

int fault_run(const struct fault_rule *rules, size_t n, int (*body)(void *), void *arg,
	      unsigned *calls)
{
	unsigned counts[MAX_RULES] = { 0 };
	int sv[2], listener, child_err, status, answer_err = 0;
	pid_t pid;

	if (n > MAX_RULES)
		return -E2BIG;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	fflush(NULL); /* what stdio holds is not printed twice */
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return -errno;
	}
	if (pid == 0) {
		close(sv[0]);
		child(sv[1], rules, n, body, arg);
	}
	close(sv[1]);
	listener = recv_fd(sv[0], &child_err);
	if (listener < 0) {
		close(sv[0]);
		waitpid(pid, &status, 0);
		if (!child_err)
			return -EPIPE; /* the child died before saying: a failure, not a skip */
		fault_why = -child_err;
		/* no seccomp (ENOSYS), a policy forbidding it (EPERM), or no user
		 * notification (EINVAL, before 5.0; after, a bad filter of ours): skip;
		 * else fail.  EACCES cannot come: no_new_privs is set first. */
		return fault_why == ENOSYS || fault_why == EPERM ||
				       (fault_why == EINVAL && !peo_test_release_at_least("5.0"))
			       ? FAULT_CANNOT_RUN
			       : child_err;
	}
	if (send(sv[0], "", 1, 0) != 1) { /* go */
		close(listener);
		close(sv[0]);
		waitpid(pid, &status, 0);
		return -EPIPE;
	}
	close(sv[0]);
	for (;;) { /* until no task uses the filter: POLLHUP */
		struct pollfd p = { listener, POLLIN, 0 };

		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			break;
		if ((p.revents & POLLIN) && (answer_err = answer(listener, rules, n, counts))) {
			kill(pid, SIGKILL); /* it would wait for the answer forever */
			break;
		}
		if (!(p.revents & POLLIN) && (p.revents & (POLLHUP | POLLERR | POLLNVAL)))
			break;
	}
	close(listener);
	if (waitpid(pid, &status, 0) != pid)
		return -ECHILD;
	if (answer_err) {
		fault_why = -answer_err;
		/* no CONTINUE before 5.5: skip there; elsewhere a failure */
		return answer_err == -EINVAL && !peo_test_release_at_least("5.5") ? FAULT_CANNOT_RUN
										   : answer_err;
	}
	if (calls)
		memcpy(calls, counts, n * sizeof(*calls));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
