/*
 * script_out.c - writing peo script's buffers out (the formatting is inline
 * in script_out.h): by this thread, or by a writer thread that takes each
 * full buffer while this one fills the other.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "script_out.h"

#define WRITER_BUFFER (1u << 20)

struct out_writer {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	int fd;
	char *bufs[2];
	char *pending; /* a full buffer for the thread, or NULL */
	size_t pending_n;
	int busy[2];   /* bufs[i] is pending or being written */
	int failed;    /* a write failed */
	int stop;
};

/* Write @n bytes at @p to @fd; 0, or -1 when a write failed (EPIPE...). */
static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void *writer_main(void *arg)
{
	struct out_writer *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		char *p;
		size_t n;
		int err;

		while (!w->pending && !w->stop)
			pthread_cond_wait(&w->changed, &w->lock);
		if (!w->pending)
			break;
		p = w->pending;
		n = w->pending_n;
		w->pending = NULL;
		pthread_mutex_unlock(&w->lock);
		err = w->failed ? -1 : write_all(w->fd, p, n);
		pthread_mutex_lock(&w->lock);
		w->busy[p == w->bufs[1]] = 0;
		w->failed |= err < 0;
		pthread_cond_broadcast(&w->changed);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

void out_init(struct out *o, int fd)
{
	o->fd = fd;
	o->failed = 0;
	o->buf = o->own;
	o->n = 0;
	o->cap = sizeof(o->own);
	o->w = NULL;
}

int out_start_writer(struct out *o)
{
	struct out_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return -1;
	w->fd = o->fd;
	w->bufs[0] = malloc(WRITER_BUFFER);
	w->bufs[1] = malloc(WRITER_BUFFER);
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->changed, NULL);
	if (!w->bufs[0] || !w->bufs[1] || thread_start(&w->thread, writer_main, w)) {
		free(w->bufs[0]);
		free(w->bufs[1]);
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->changed);
		free(w);
		return -1;
	}
	out_flush(o); /* what this thread buffered goes first */
	o->w = w;
	o->buf = w->bufs[0];
	o->cap = WRITER_BUFFER;
	return 0;
}

int out_flush(struct out *o)
{
	struct out_writer *w = o->w;

	if (!w) {
		if (!o->failed && o->n && write_all(o->fd, o->buf, o->n))
			o->failed = 1;
		o->n = 0;
		return o->failed ? -1 : 0;
	}
	pthread_mutex_lock(&w->lock);
	if (o->n) {
		int i = o->buf == w->bufs[1];

		while (w->pending) /* the other buffer is still to be taken */
			pthread_cond_wait(&w->changed, &w->lock);
		w->pending = o->buf;
		w->pending_n = o->n;
		w->busy[i] = 1;
		pthread_cond_broadcast(&w->changed);
		while (w->busy[!i]) /* fill the other one once its write is done */
			pthread_cond_wait(&w->changed, &w->lock);
		o->buf = w->bufs[!i];
	}
	o->failed = w->failed;
	pthread_mutex_unlock(&w->lock);
	o->n = 0;
	return o->failed ? -1 : 0;
}

int out_finish(struct out *o)
{
	struct out_writer *w = o->w;
	int failed;

	out_flush(o);
	if (!w)
		return o->failed ? -1 : 0;
	pthread_mutex_lock(&w->lock);
	while (w->busy[0] || w->busy[1])
		pthread_cond_wait(&w->changed, &w->lock);
	w->stop = 1;
	pthread_cond_broadcast(&w->changed);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	failed = w->failed;
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->changed);
	free(w->bufs[0]);
	free(w->bufs[1]);
	free(w);
	out_init(o, o->fd); /* this thread's own buffer from here */
	o->failed = failed;
	return failed ? -1 : 0;
}
