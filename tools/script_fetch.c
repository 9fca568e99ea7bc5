/*
 * script_fetch.c - the reading thread of script_fetch.h.  Records go
 * over in blocks of thousands, so the lock is taken once a block.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <peo/peo.h>

#include "commands.h"
#include "script_fetch.h"

#define BLOCKS 4
#define BLOCK_RECORDS 4096
#define BLOCK_BYTES (1u << 20) /* copies of records that do not last: more than the largest */

_Static_assert(BLOCK_BYTES > UINT16_MAX + 8, "an empty block takes any record");

/* What a headers-only reader gives of a record (the rest is unparsed). */
struct fetched {
	struct peo_event_header header;
	const void *bytes;
	const struct peo_attr *attr;
	uint64_t offset, payload_size;
	int swapped, unknown;
};

struct block {
	struct fetched *v;
	size_t n;
	unsigned char *copies;
	size_t copied;
	int last; /* the end, or an error, after its records */
};

struct script_fetch {
	struct peo_perfdata *f;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct block blocks[BLOCKS];
	unsigned long long filled; /* blocks filled: block k is blocks[k % BLOCKS] */
	unsigned long long taken;  /* blocks the caller is done with */
	int stop;                  /* the caller wants no more */
	int status;                /* after the last block: 0 (the end) or a negative errno */
	char error[1024];          /* and its sentence */
	/* the caller's */
	int holding; /* block taken % BLOCKS is filled and being read */
	size_t at;   /* its next record */
};

/* Record @rec into block @b; 0 when its copy does not fit (a new block takes it). */
static int put(struct block *b, struct peo_perfdata *f, const struct peo_perfdata_record *rec)
{
	struct fetched *d = &b->v[b->n];
	uint32_t size = rec->rec.header.size;

	d->bytes = rec->rec.bytes;
	if (!peo_perfdata_record_lasts(f, rec)) {
		if (BLOCK_BYTES - b->copied < size)
			return 0;
		d->bytes = memcpy(b->copies + b->copied, rec->rec.bytes, size);
		b->copied += (size + 7u) & ~7u;
	}
	d->header = rec->rec.header;
	d->attr = rec->rec.attr;
	d->offset = rec->offset;
	d->payload_size = rec->payload_size;
	d->swapped = rec->rec.swapped;
	d->unknown = rec->rec.unknown;
	b->n++;
	return 1;
}

static void *fetch_main(void *arg)
{
	struct script_fetch *q = arg;
	struct peo_perfdata_record rec;
	int carried = 0; /* rec did not fit the last block */

	for (unsigned long long k = 0;; k++) {
		struct block *b = &q->blocks[k % BLOCKS];
		int got = 1, stop;

		pthread_mutex_lock(&q->lock);
		while (k - q->taken >= BLOCKS && !q->stop)
			pthread_cond_wait(&q->changed, &q->lock);
		stop = q->stop;
		pthread_mutex_unlock(&q->lock);
		if (stop)
			return NULL;
		b->n = b->copied = 0;
		if (carried)
			put(b, q->f, &rec); /* an empty block takes it */
		carried = 0;
		while (b->n < BLOCK_RECORDS && (got = peo_perfdata_next(q->f, &rec)) == 1)
			if (!put(b, q->f, &rec)) {
				carried = 1;
				break;
			}
		b->last = got != 1;
		if (got < 0) /* the sentence is this thread's: kept for the caller's */
			snprintf(q->error, sizeof(q->error), "%s", peo_last_error());
		pthread_mutex_lock(&q->lock);
		q->status = got < 0 ? got : 0;
		q->filled = k + 1;
		pthread_cond_broadcast(&q->changed);
		pthread_mutex_unlock(&q->lock);
		if (b->last)
			return NULL;
	}
}

static void free_blocks(struct script_fetch *q)
{
	for (int i = 0; i < BLOCKS; i++) {
		free(q->blocks[i].v);
		free(q->blocks[i].copies);
	}
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->changed);
	free(q);
}

int script_fetch_start(struct script_fetch **out, struct peo_perfdata *f)
{
	struct script_fetch *q = calloc(1, sizeof(*q));

	*out = NULL;
	if (!q)
		return -1;
	q->f = f;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->changed, NULL);
	for (int i = 0; i < BLOCKS; i++)
		if (!(q->blocks[i].v = malloc(BLOCK_RECORDS * sizeof(struct fetched))) ||
		    !(q->blocks[i].copies = malloc(BLOCK_BYTES))) {
			free_blocks(q);
			return -1;
		}
	if (thread_start(&q->thread, fetch_main, q)) {
		free_blocks(q);
		return -1;
	}
	*out = q;
	return 0;
}

int script_fetch_next(struct script_fetch *q, struct peo_perfdata_record *rec)
{
	for (;;) {
		struct block *b = &q->blocks[q->taken % BLOCKS];
		const struct fetched *d;

		if (!q->holding) {
			pthread_mutex_lock(&q->lock);
			while (q->filled == q->taken)
				pthread_cond_wait(&q->changed, &q->lock);
			pthread_mutex_unlock(&q->lock);
			q->holding = 1;
			q->at = 0;
		}
		if (q->at == b->n && b->last)
			return q->status; /* the block stays: the thread has ended */
		if (q->at == b->n) { /* its records are done with: the thread's again */
			pthread_mutex_lock(&q->lock);
			q->taken++;
			pthread_cond_broadcast(&q->changed);
			pthread_mutex_unlock(&q->lock);
			q->holding = 0;
			continue;
		}
		d = &b->v[q->at++];
		rec->rec.header = d->header;
		rec->rec.bytes = d->bytes;
		rec->rec.attr = d->attr;
		rec->rec.swapped = d->swapped;
		rec->rec.unknown = d->unknown;
		rec->rec.sample_id.fields = 0;
		rec->offset = d->offset;
		rec->payload = NULL;
		rec->payload_size = d->payload_size;
		return 1;
	}
}

const char *script_fetch_error(const struct script_fetch *q)
{
	return q->error;
}

void script_fetch_end(struct script_fetch *q)
{
	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	q->stop = 1;
	pthread_cond_broadcast(&q->changed);
	pthread_mutex_unlock(&q->lock);
	pthread_join(q->thread, NULL);
	free_blocks(q);
}
