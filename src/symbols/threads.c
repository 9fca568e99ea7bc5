/*
 * symbols/threads.c - the comm of every thread as the records tell it
 * (COMM, FORK, and EXIT), for peo script's comm column.
 */
#include <stdlib.h>
#include <string.h>

#include "symbols/threads.h"

#define INITIAL_SLOTS 1024

struct slot {
	uint32_t tid; /* 0: empty */
	char comm[16];
	int named; /* 0: a FORK's child of a parent no record named */
};

static size_t hash(uint32_t tid, size_t cap)
{
	return (tid * 2654435761u) & (cap - 1);
}

static struct slot *find(struct sym_threads *t, uint32_t tid)
{
	size_t i = hash(tid, t->cap);

	while (t->slots[i].tid && t->slots[i].tid != tid)
		i = (i + 1) & (t->cap - 1);
	return &t->slots[i];
}

static int grow(struct sym_threads *t)
{
	struct sym_threads bigger = { .cap = t->cap ? t->cap * 2 : INITIAL_SLOTS };

	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].tid)
			*find(&bigger, t->slots[i].tid) = t->slots[i];
	bigger.n = t->n;
	free(t->slots);
	*t = bigger;
	return 0;
}

/* Thread @tid is now called @name (16 bytes), or unnamed (NULL). */
static int put(struct sym_threads *t, uint32_t tid, const char *name)
{
	struct slot *s;

	t->last_comm = NULL; /* the table may move, and tid's answer changes */
	if ((t->n + 1) * 2 > t->cap && grow(t))
		return -1;
	s = find(t, tid);
	if (!s->tid) {
		s->tid = tid;
		t->n++;
	}
	s->named = name != NULL;
	if (name)
		memcpy(s->comm, name, sizeof(s->comm));
	return 0;
}

int sym_threads_set(struct sym_threads *t, uint32_t tid, const char *comm)
{
	char name[sizeof(((struct slot *)0)->comm)];

	if (!tid)
		return 0; /* the idle task: perf calls it swapper, see sym_threads_comm */
	/* @comm may point into this table, which growing frees: copied first */
	snprintf(name, sizeof(name), "%s", comm);
	return put(t, tid, name);
}

int sym_threads_fork(struct sym_threads *t, uint32_t ptid, uint32_t tid)
{
	char name[sizeof(((struct slot *)0)->comm)] = "swapper";
	int named = !ptid; /* the idle task's children are swapper's */
	const struct slot *p;

	if (!tid)
		return 0;
	if (ptid && t->cap && (p = find(t, ptid))->tid && p->named) {
		memcpy(name, p->comm, sizeof(name)); /* copied: put() may move the table */
		named = 1;
	}
	return put(t, tid, named ? name : NULL);
}

const char *sym_threads_comm(struct sym_threads *t, uint32_t tid)
{
	struct slot *s;

	if (!tid)
		return "swapper";
	if (!t->cap)
		return NULL;
	if (t->last_comm && t->last_tid == tid)
		return t->last_comm;
	s = find(t, tid);
	if (!s->tid || !s->named)
		return NULL; /* never named, or its FORK's parent was not */
	t->last_tid = tid;
	t->last_comm = s->comm;
	return s->comm;
}

void sym_threads_free(struct sym_threads *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
