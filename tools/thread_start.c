/*
 * thread_start.c - peo's helper threads start with the process's
 * asynchronous signals blocked: SIGINT, SIGTERM and SIGCHLD are for the
 * main thread, whose waits they interrupt.  SIGPIPE stays open: a write
 * to a closed pipe ends peo as it ends perf.  Their stacks are 4 MiB, not
 * musl's 128 KiB: a formatting worker prints tracepoint payloads, and a
 * print fmt argument nested 190 parentheses deep (the interpreter takes
 * up to 200) recursed past 128 KiB and crashed peo script.
 */
#include <pthread.h>
#include <signal.h>

#include "commands.h"

#define STACK_BYTES (4u << 20)

int thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t async, old;
	pthread_attr_t attr;
	int err;

	if (pthread_attr_init(&attr))
		return -1;
	pthread_attr_setstacksize(&attr, STACK_BYTES); /* else the default: still a thread */
	sigfillset(&async);
	sigdelset(&async, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &async, &old);
	err = pthread_create(thread, &attr, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return err ? -1 : 0;
}
