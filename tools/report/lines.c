/*
 * report/lines.c - where in the source each user frame of a report is
 * (--pprof's Location lines, the srcline keys), looked up once per binary
 * and offset.  The reading thread names each new place and goes on; a
 * worker looks its lines up meanwhile (libdw's line tables and scopes
 * cost as much as the reading itself), and the writer reads them after
 * report_lines_finish().
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report/report.h"

#define LINES_MAX 16 /* a frame's line and the calls of the functions inlined there */
#define CHUNK 256    /* places a chunk holds: chunks never move */

struct place {
	const char *dso;
	uint64_t offset;
	int n; /* the worker's answer, read after it is joined */
	struct peo_srcline lines[LINES_MAX];
};

struct chunk {
	struct chunk *next;
	struct place v[CHUNK];
};

struct report_lines {
	struct place **tab; /* open addressing by (dso, offset) */
	size_t n, cap;      /* cap: a power of two */
	struct chunk *first, *last;
	size_t nlast;       /* places in last */
	struct peo_processes *procs;
	pthread_t worker;
	int running;        /* the worker was started and not yet joined */
	pthread_mutex_t lock;
	pthread_cond_t more;
	size_t queued;      /* under lock: places for the worker */
	int closing;        /* under lock: no more will come */
	int failed;         /* the worker's: out of memory */
};

static size_t slot(const char *dso, uint64_t offset, size_t cap)
{
	return (size_t)(((uintptr_t)dso >> 4 ^ offset) * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
}

static struct place **find(struct place **tab, size_t cap, const char *dso, uint64_t offset)
{
	size_t i = slot(dso, offset, cap);

	while (tab[i] && (tab[i]->dso != dso || tab[i]->offset != offset))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static int grow(struct report_lines *t)
{
	size_t cap = t->cap ? t->cap * 2 : 1024;
	struct place **tab = calloc(cap, sizeof(*tab));

	if (!tab)
		return -1;
	for (size_t i = 0; i < t->cap; i++)
		if (t->tab[i])
			*find(tab, cap, t->tab[i]->dso, t->tab[i]->offset) = t->tab[i];
	free(t->tab);
	t->tab = tab;
	t->cap = cap;
	return 0;
}

static void look_up_place(struct report_lines *t, struct place *pl)
{
	int n = peo_processes_binary_srclines(t->procs, pl->dso, pl->offset, pl->lines, LINES_MAX);

	if (n == -ENOMEM)
		t->failed = 1;
	pl->n = n > 0 ? n : 0;
}

/* The worker: each place queued, in order, until the reader closes. */
static void *work(void *arg)
{
	struct report_lines *t = arg;
	struct chunk *c = t->first;
	size_t done = 0, queued;

	for (;;) {
		pthread_mutex_lock(&t->lock);
		while (done == t->queued && !t->closing)
			pthread_cond_wait(&t->more, &t->lock);
		queued = t->queued;
		pthread_mutex_unlock(&t->lock);
		if (done == queued)
			return NULL; /* closing, and all done */
		for (; done < queued; done++) {
			if (done && done % CHUNK == 0)
				c = c->next;
			look_up_place(t, &c->v[done % CHUNK]);
		}
	}
}

static struct report_lines *lines_new(struct report_data *d)
{
	struct report_lines *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->procs = d->procs;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->more, NULL);
	if (!(t->first = t->last = calloc(1, sizeof(*t->first)))) {
		report_lines_free(t);
		return NULL;
	}
	/* no thread: each place is looked up as it comes */
	t->running = !thread_start(&t->worker, work, t);
	return d->lines = t;
}

int report_lines_add(struct report_data *d, const struct peo_frame *fr)
{
	struct report_lines *t = d->lines;
	struct place **e, *pl;

	if (!fr->dso || !fr->sym || (fr->flags & PEO_FRAME_KERNEL))
		return 0;
	if (!t && !(t = lines_new(d)))
		return -1;
	if ((t->n + 1) * 2 > t->cap && grow(t))
		return -1;
	if (*(e = find(t->tab, t->cap, fr->dso, fr->dso_offset)))
		return 0;
	if (t->nlast == CHUNK) {
		struct chunk *c = calloc(1, sizeof(*c));

		if (!c)
			return -1;
		t->last->next = c; /* published to the worker with the next place */
		t->last = c;
		t->nlast = 0;
	}
	pl = *e = &t->last->v[t->nlast++];
	pl->dso = fr->dso;
	pl->offset = fr->dso_offset;
	t->n++;
	if (!t->running) {
		look_up_place(t, pl);
		return 0;
	}
	pthread_mutex_lock(&t->lock);
	t->queued++;
	pthread_cond_signal(&t->more);
	pthread_mutex_unlock(&t->lock);
	return 0;
}

/* No more places: the worker, when there is one, finishes and is joined. */
static int finish(struct report_lines *t)
{
	if (t->running) {
		pthread_mutex_lock(&t->lock);
		t->closing = 1;
		pthread_cond_signal(&t->more);
		pthread_mutex_unlock(&t->lock);
		pthread_join(t->worker, NULL);
		t->running = 0;
	}
	return t->failed ? -1 : 0;
}

int report_lines_finish(struct report_data *d)
{
	return d->lines ? finish(d->lines) : 0;
}

const struct peo_srcline *report_lines_find(const struct report_data *d, const char *dso,
					    uint64_t offset, size_t *n)
{
	struct place *pl;

	*n = 0;
	if (!d->lines || !dso || !d->lines->cap ||
	    !(pl = *find(d->lines->tab, d->lines->cap, dso, offset)))
		return NULL;
	*n = (size_t)pl->n;
	return pl->lines;
}

void report_lines_free(struct report_lines *t)
{
	if (!t)
		return;
	finish(t); /* when not yet (an error on the way) */
	for (struct chunk *c = t->first, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->more);
	free(t->tab);
	free(t);
}
