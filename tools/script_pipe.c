/*
 * script_pipe.c - batches of entries handed from the reading thread to a
 * worker thread, in order, through a ring of a few buffers.
 */
#include <pthread.h>
#include <stdlib.h>

#include "commands.h"
#include "script_pipe.h"

#define BATCHES 4
#define BATCH_BYTES (1u << 20) /* a few thousand lines: a handover per millisecond or so */

struct script_pipe {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	script_pipe_fn fn;
	void *ctx;
	unsigned char *buf[BATCHES];
	size_t used[BATCHES];
	unsigned filled;  /* batches handed over so far: the worker takes them in turn */
	unsigned done;    /* batches the worker has finished */
	unsigned filling; /* the batch being filled: filled % BATCHES */
	int stop;
};

static void *worker_main(void *arg)
{
	struct script_pipe *p = arg;
	unsigned next = 0;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		unsigned i = next % BATCHES;

		while (next == p->filled && !p->stop)
			pthread_cond_wait(&p->changed, &p->lock);
		if (next == p->filled)
			break; /* stopped with nothing left */
		pthread_mutex_unlock(&p->lock);
		p->fn(p->ctx, p->buf[i], p->used[i]);
		pthread_mutex_lock(&p->lock);
		p->done = ++next;
		pthread_cond_broadcast(&p->changed);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static void free_pipe(struct script_pipe *p)
{
	for (unsigned i = 0; i < BATCHES; i++)
		free(p->buf[i]);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->changed);
	free(p);
}

int script_pipe_start(struct script_pipe **out, script_pipe_fn fn, void *ctx)
{
	struct script_pipe *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p)
		return -1;
	p->fn = fn;
	p->ctx = ctx;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
	for (unsigned i = 0; i < BATCHES; i++)
		if (!(p->buf[i] = malloc(BATCH_BYTES))) {
			free_pipe(p);
			return -1;
		}
	if (thread_start(&p->thread, worker_main, p)) {
		free_pipe(p);
		return -1;
	}
	*out = p;
	return 0;
}

/* Hand the batch being filled to the worker, and wait for the next one to be free. */
static void hand_over(struct script_pipe *p)
{
	pthread_mutex_lock(&p->lock);
	p->filled++;
	pthread_cond_broadcast(&p->changed);
	while (p->filled - p->done >= BATCHES) /* every batch is the worker's */
		pthread_cond_wait(&p->changed, &p->lock);
	pthread_mutex_unlock(&p->lock);
	p->filling = p->filled % BATCHES;
	p->used[p->filling] = 0;
}

unsigned char *script_pipe_next_batch(struct script_pipe *p, size_t n, size_t *cap)
{
	p->used[p->filling] += n;
	if (p->used[p->filling])
		hand_over(p);
	*cap = BATCH_BYTES;
	return p->buf[p->filling];
}

void script_pipe_finish(struct script_pipe *p)
{
	if (!p)
		return;
	if (p->used[p->filling])
		hand_over(p);
	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	free_pipe(p);
}
