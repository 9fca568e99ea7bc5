/*
 * child.c - fork a command that waits for its counters before exec, as
 * perf does: counters opened on the waiting child with enable_on_exec
 * start at its first instruction, not at fork.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "counter_internal.h"

struct peo_child {
	pid_t pid;
	int go_fd;    /* write end: one byte lets the child exec */
	int err_fd;   /* read end: the exec's errno, or EOF when the exec succeeded */
	int started;
	int reaped;
	char name[128];
};

/* In the child: wait for the go byte, exec, or report why not. */
static void run_child(int go_fd, int err_fd, char *const argv[])
{
	sigset_t none;
	char go;
	int err;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL); /* exec keeps the mask: start clean */
	if (read(go_fd, &go, 1) != 1)
		_exit(127); /* the parent gave up before starting us */
	close(go_fd);
	execvp(argv[0], argv);
	err = errno;
	if (write(err_fd, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

/* The pipes' failure: the fd limit, when that is the cause, said with it. */
static int pipe_failed(int err)
{
	char why[400];
	struct peo_buf b = { why, sizeof(why), 0 };

	why[0] = '\0';
	peo_explain_fd_limit(&b, err);
	return peo_fail(err, "peo_child_spawn: pipe: %s%s%s", strerror(err), b.len ? ": " : "", why);
}

int peo_child_spawn(struct peo_child **out, const char *const argv[])
{
	int go[2], errp[2];
	struct peo_child *c;
	char **args;
	size_t argc = 0;

	if (!out)
		return peo_fail(EINVAL, "peo_child_spawn: argument 'out' is NULL");
	*out = NULL;
	if (!argv || !argv[0] || !argv[0][0])
		return peo_fail(EINVAL, "peo_child_spawn: the command is empty; give argv[0]");
	while (argv[argc])
		argc++;
	c = calloc(1, sizeof(*c));
	args = calloc(argc + 1, sizeof(*args));
	if (!c || !args) {
		free(c);
		free(args);
		return peo_fail(ENOMEM, "out of memory for a child");
	}
	/* execvp() wants char *const[]; the strings are not written. */
	memcpy(args, argv, argc * sizeof(*args));
	snprintf(c->name, sizeof(c->name), "%s", argv[0]);
	if (pipe2(go, O_CLOEXEC) < 0) {
		int err = errno;

		free(c);
		free(args);
		return pipe_failed(err);
	}
	if (pipe2(errp, O_CLOEXEC) < 0) {
		int err = errno;

		close(go[0]);
		close(go[1]);
		free(c);
		free(args);
		return pipe_failed(err);
	}
	c->pid = fork();
	if (c->pid == 0) {
		close(go[1]);
		close(errp[0]);
		run_child(go[0], errp[1], args);
	}
	free(args);
	close(go[0]);
	close(errp[1]);
	if (c->pid < 0) {
		int err = errno;

		close(go[1]);
		close(errp[0]);
		free(c);
		return peo_fail(err, "peo_child_spawn: fork: %s", strerror(err));
	}
	c->go_fd = go[1];
	c->err_fd = errp[0];
	*out = c;
	return 0;
}

pid_t peo_child_pid(const struct peo_child *c)
{
	return c ? c->pid : -1;
}

int peo_child_start(struct peo_child *c)
{
	ssize_t r;
	int err = 0;

	if (!c || c->started)
		return peo_fail(EINVAL, "peo_child_start: %s", c ? "the child was already started"
								  : "argument 'child' is NULL");
	c->started = 1;
	if (write(c->go_fd, "g", 1) != 1)
		err = errno;
	close(c->go_fd);
	c->go_fd = -1;
	do
		r = read(c->err_fd, &err, sizeof(err));
	while (r < 0 && errno == EINTR);
	close(c->err_fd);
	c->err_fd = -1;
	if (r <= 0 && !err)
		return 0; /* EOF: the exec closed the pipe */
	waitpid(c->pid, NULL, 0);
	c->reaped = 1;
	return peo_fail(err ? err : EIO, "cannot run '%s': %s%s", c->name, strerror(err ? err : EIO),
			err == ENOENT ? "; is it installed and in PATH?" : "");
}

int peo_child_wait(struct peo_child *c, int *status, struct rusage *usage)
{
	int st;

	if (!c)
		return peo_fail(EINVAL, "peo_child_wait: argument 'child' is NULL");
	if (c->reaped)
		return peo_fail(ECHILD, "peo_child_wait: child %d was already reaped", (int)c->pid);
	if (wait4(c->pid, &st, 0, usage) < 0)
		return peo_fail(errno, "wait4(%d): %s%s", (int)c->pid, strerror(errno),
				errno == EINTR ? "; a signal came first, wait again" : "");
	c->reaped = 1;
	if (status)
		*status = st;
	return 0;
}

void peo_child_free(struct peo_child *c)
{
	if (!c)
		return;
	if (!c->started && !c->reaped) {
		close(c->go_fd); /* EOF makes the child _exit(127); kill in case it is stuck */
		c->go_fd = -1;
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
	}
	if (c->go_fd >= 0)
		close(c->go_fd);
	if (c->err_fd >= 0)
		close(c->err_fd);
	free(c);
}

int peo_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}
