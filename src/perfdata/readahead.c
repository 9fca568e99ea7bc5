/*
 * readahead.c - a helper thread that fills the page tables of the
 * mapped data section a few MiB ahead of the reader (opts.readahead_thread)
 * and drops them behind the oldest byte in use, so the reading thread finds
 * its pages mapped instead of faulting or populating them itself: on a
 * 222 MB file that is ~15 ms of kernel work moved to the other core.
 * Correctness never depends on it: a page the helper has not reached yet is
 * faulted in by the reader as usual.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfdata/source.h"

#define AHEAD_MAX (2 * POPULATE_STEP) /* how far the helper runs ahead of the reader */
#define RELEASE_BEHIND_MAX (3 * RELEASE_STEP) /* past this the reader releases */

struct pd_ahead {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	unsigned char *base; /* the mapping, its length, and the page size */
	size_t len, page;
	size_t reader;   /* where the reader is (offset into the mapping), under lock */
	size_t keep;     /* pages wholly below this may be dropped, under lock */
	uint64_t released; /* dropped below this, under lock */
	size_t done;     /* populated below this, owned by the helper */
	int stop;
};

static void *populate_ahead(void *arg)
{
	struct pd_ahead *a = arg;

	pthread_mutex_lock(&a->lock);
	while (!a->stop && a->done < a->len) {
		uint64_t from, drop = pd_release_span(&a->released, a->keep, a->page, RELEASE_STEP, &from);
		size_t at, n;

		if (drop) {
			pthread_mutex_unlock(&a->lock);
			madvise(a->base + from, (size_t)drop, MADV_DONTNEED);
			pthread_mutex_lock(&a->lock);
			continue;
		}
		if (a->done < a->reader) /* it fell behind: the reader faulted those */
			a->done = a->reader - a->reader % POPULATE_STEP;
		if (a->done >= a->reader + AHEAD_MAX) {
			pthread_cond_wait(&a->wake, &a->lock);
			continue;
		}
		at = a->done;
		n = a->len - at < POPULATE_STEP ? a->len - at : POPULATE_STEP;
		pthread_mutex_unlock(&a->lock);
		madvise(a->base + at, n, MADV_POPULATE_READ);
		pthread_mutex_lock(&a->lock);
		a->done = at + n;
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

void pd_ahead_start(struct pd_source *s)
{
	struct pd_ahead *a = calloc(1, sizeof(*a));
	sigset_t all, old;
	int failed;

	if (!a) /* no helper: the reader populates as it goes */
		return;
	a->base = s->map;
	a->len = s->map_len;
	a->page = (size_t)sysconf(_SC_PAGESIZE);
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->wake, NULL);
	/* the caller's signals are not for peo's thread: it starts with all blocked */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	failed = pthread_create(&a->thread, NULL, populate_ahead, a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (failed) {
		pthread_mutex_destroy(&a->lock);
		pthread_cond_destroy(&a->wake);
		free(a);
		return;
	}
	s->ahead = a;
}

void pd_ahead_tell(struct pd_ahead *a, size_t reader, size_t keep)
{
	uint64_t from, drop;

	pthread_mutex_lock(&a->lock);
	a->reader = reader;
	a->keep = keep;
	/* A helper that is not getting the CPU must not let memory grow with
	 * the file: far enough behind, the reader drops the pages itself. */
	drop = pd_release_span(&a->released, keep, a->page, RELEASE_BEHIND_MAX, &from);
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->lock);
	if (drop)
		madvise(a->base + from, (size_t)drop, MADV_DONTNEED);
}

void pd_ahead_stop(struct pd_source *s)
{
	struct pd_ahead *a = s->ahead;

	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = 1;
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->wake);
	free(a);
	s->ahead = NULL;
}
