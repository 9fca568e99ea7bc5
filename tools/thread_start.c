/*
 * thread_start.c - peo's helper threads start with the process's
 * asynchronous signals blocked: SIGINT, SIGTERM and SIGCHLD are for the
 * main thread, whose waits they interrupt.  SIGPIPE stays open: a write
 * to a closed pipe ends peo as it ends perf.
 */
#include <pthread.h>
#include <signal.h>

#include "commands.h"

int thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t async, old;
	int err;

	sigfillset(&async);
	sigdelset(&async, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &async, &old);
	err = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err ? -1 : 0;
}
