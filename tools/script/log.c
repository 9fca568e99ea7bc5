/*
 * script/log.c - the append-only log of script/log.h: chunks in a list,
 * each entry a u64 size then its bytes; a size of 0 sends a reader on to
 * the next chunk.
 */
#include <stdlib.h>

#include "script/log.h"

#define CHUNK_BYTES (256u << 10)
#define HEAD 8u /* an entry's size word */

_Static_assert(SCRIPT_LOG_ENTRY_MAX + 2 * HEAD <= CHUNK_BYTES, "an empty chunk takes any entry");

struct script_log_chunk {
	struct script_log_chunk *next;
	unsigned left; /* readers that have gone on to the next chunk (atomic) */
	size_t used;   /* the writer's */
	_Alignas(8) unsigned char bytes[CHUNK_BYTES];
};

static struct script_log_chunk *chunk_new(struct script_log *l)
{
	struct script_log_chunk *c = l->spare;

	if (c)
		l->spare = NULL;
	else if (!(c = malloc(sizeof(*c))))
		return NULL;
	else
		l->nchunks++;
	c->next = NULL;
	c->used = 0;
	__atomic_store_n(&c->left, 0, __ATOMIC_RELAXED);
	return c;
}

int script_log_init(struct script_log *l, unsigned readers)
{
	l->spare = NULL;
	l->count = 0;
	l->nchunks = 0;
	l->readers = readers;
	l->head = l->tail = chunk_new(l);
	return l->head ? 0 : -1;
}

void script_log_reader_start(struct script_log *l, struct script_log_cursor *c)
{
	c->chunk = l->head;
	c->at = 0;
	c->pos = 0;
}

/* Chunks at the head that every reader has left: one kept, the rest freed. */
static void reclaim(struct script_log *l)
{
	while (l->head != l->tail &&
	       __atomic_load_n(&l->head->left, __ATOMIC_ACQUIRE) == l->readers) {
		struct script_log_chunk *c = l->head;

		l->head = c->next;
		if (l->spare) {
			free(c);
			l->nchunks--;
		} else {
			l->spare = c;
		}
	}
}

void *script_log_room(struct script_log *l, size_t need)
{
	struct script_log_chunk *t = l->tail, *c;

	need = (need + 7u) & ~(size_t)7u;
	if (need > SCRIPT_LOG_ENTRY_MAX)
		return NULL;
	if (CHUNK_BYTES - t->used < HEAD + need + HEAD) { /* room for it and a chunk's end */
		reclaim(l);
		c = chunk_new(l);
		if (!c)
			return NULL;
		*(uint64_t *)(void *)(t->bytes + t->used) = 0; /* readers go on to c */
		t->next = c;
		l->tail = t = c;
	}
	return t->bytes + t->used + HEAD;
}

void script_log_commit(struct script_log *l, size_t n)
{
	struct script_log_chunk *t = l->tail;

	*(uint64_t *)(void *)(t->bytes + t->used) = n;
	t->used += HEAD + ((n + 7u) & ~(size_t)7u);
	l->count++;
}

const void *script_log_next(struct script_log_cursor *c, uint64_t upto, size_t *n)
{
	uint64_t size;
	const unsigned char *p;

	if (c->pos >= upto)
		return NULL;
	size = *(const uint64_t *)(const void *)(c->chunk->bytes + c->at);
	if (!size) { /* the chunk's end: the entry is the next chunk's first */
		struct script_log_chunk *done = c->chunk;

		c->chunk = done->next;
		c->at = 0;
		__atomic_fetch_add(&done->left, 1, __ATOMIC_RELEASE); /* not read again */
		size = *(const uint64_t *)(const void *)c->chunk->bytes;
	}
	p = c->chunk->bytes + c->at + HEAD;
	c->at += HEAD + ((size + 7u) & ~(uint64_t)7u);
	c->pos++;
	*n = (size_t)size;
	return p;
}

void script_log_free(struct script_log *l)
{
	while (l->head) {
		struct script_log_chunk *c = l->head;

		l->head = c->next;
		free(c);
	}
	free(l->spare);
	l->tail = l->spare = NULL;
}
