/*
 * profile/profile.c - samples aggregated by stack (peo/profile.h): each
 * distinct frame kept once (in blocks that never move), each distinct
 * stack once (its frames as pointers in one array), both found by hash.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "peo/profile.h"

#define FRAME_BLOCK 1024u

struct stack {
	uint32_t event, pid, tid, cpu;
	const char *comm;
	size_t first, n; /* its frames: ptrs[first .. first + n) */
	uint64_t count, period, hash;
};

struct totals {
	uint64_t samples, period;
};

struct peo_profile {
	struct peo_frame **blocks; /* frames, FRAME_BLOCK a block */
	size_t nframes, nblocks;
	uint32_t *frame_slots;     /* hash of frames: index + 1, 0 empty */
	size_t frame_cap;
	const struct peo_frame **ptrs; /* the stacks' frames */
	size_t nptrs, ptrs_cap;
	struct stack *stacks;
	size_t nstacks, stacks_cap;
	uint32_t *stack_slots;     /* hash of stacks: index + 1, 0 empty */
	size_t stack_cap;
	char **comms;              /* copies, each once */
	size_t ncomms, comms_cap;
	uint32_t *comm_slots;      /* hash of comms: index + 1, 0 empty */
	size_t comm_cap;
	struct totals *events;
	size_t nevents;
	size_t last;               /* the stack the last sample was counted in */
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t frame_hash(const struct peo_frame *f)
{
	uint64_t h = mix(mix(mix(0, f->addr), (uintptr_t)f->sym), (uintptr_t)f->dso);

	return mix(mix(mix(h, f->symoff), f->dso_offset), f->flags);
}

static int same_frame(const struct peo_frame *a, const struct peo_frame *b)
{
	return a->addr == b->addr && a->sym == b->sym && a->dso == b->dso &&
	       a->symoff == b->symoff && a->dso_offset == b->dso_offset && a->flags == b->flags;
}

static struct peo_frame *frame_at(const struct peo_profile *p, size_t i)
{
	return &p->blocks[i / FRAME_BLOCK][i % FRAME_BLOCK];
}

/* Grow a table of @cap slots (indexes + 1) to twice, placing the @n items by @hash_of. */
static int rehash(uint32_t **slots, size_t *cap, size_t n, const struct peo_profile *p,
		  uint64_t (*hash_of)(const struct peo_profile *p, size_t i))
{
	size_t want = *cap ? *cap * 2 : 1024;
	uint32_t *t = calloc(want, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t at = hash_of(p, i) & (want - 1);

		while (t[at])
			at = (at + 1) & (want - 1);
		t[at] = (uint32_t)(i + 1);
	}
	free(*slots);
	*slots = t;
	*cap = want;
	return 0;
}

static uint64_t frame_hash_of(const struct peo_profile *p, size_t i)
{
	return frame_hash(frame_at(p, i));
}

static uint64_t stack_hash_of(const struct peo_profile *p, size_t i)
{
	return p->stacks[i].hash;
}

/* @f kept once: the profile's copy, or NULL out of memory. */
static const struct peo_frame *intern_frame(struct peo_profile *p, const struct peo_frame *f)
{
	uint64_t h = frame_hash(f);
	size_t at;
	struct peo_frame *copy;

	if ((p->nframes + 1) * 2 > p->frame_cap &&
	    rehash(&p->frame_slots, &p->frame_cap, p->nframes, p, frame_hash_of))
		return NULL;
	for (at = h & (p->frame_cap - 1); p->frame_slots[at]; at = (at + 1) & (p->frame_cap - 1))
		if (same_frame(frame_at(p, p->frame_slots[at] - 1), f))
			return frame_at(p, p->frame_slots[at] - 1);
	if (p->nframes == p->nblocks * FRAME_BLOCK) {
		struct peo_frame **more = realloc(p->blocks, (p->nblocks + 1) * sizeof(*more));

		if (!more)
			return NULL;
		p->blocks = more;
		if (!(p->blocks[p->nblocks] = malloc(FRAME_BLOCK * sizeof(struct peo_frame))))
			return NULL;
		p->nblocks++;
	}
	copy = frame_at(p, p->nframes);
	*copy = *f;
	copy->sz = sizeof(*copy);
	p->frame_slots[at] = (uint32_t)++p->nframes;
	return copy;
}

static uint64_t comm_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static uint64_t comm_hash_of(const struct peo_profile *p, size_t i)
{
	return comm_hash(p->comms[i]);
}

/* @comm copied once (NULL stays NULL), found by hash: a recording of
 * thousands of threads names thousands.  *@ok 0 out of memory. */
static const char *intern_comm(struct peo_profile *p, const char *comm, int *ok)
{
	size_t at;

	*ok = 1;
	if (!comm)
		return NULL;
	if ((p->ncomms + 1) * 2 > p->comm_cap &&
	    rehash(&p->comm_slots, &p->comm_cap, p->ncomms, p, comm_hash_of))
		goto nomem;
	for (at = comm_hash(comm) & (p->comm_cap - 1); p->comm_slots[at];
	     at = (at + 1) & (p->comm_cap - 1))
		if (!strcmp(p->comms[p->comm_slots[at] - 1], comm))
			return p->comms[p->comm_slots[at] - 1];
	if (p->ncomms == p->comms_cap) {
		size_t cap = p->comms_cap ? p->comms_cap * 2 : 64;
		char **more = realloc(p->comms, cap * sizeof(*more));

		if (!more)
			goto nomem;
		p->comms = more;
		p->comms_cap = cap;
	}
	if (!(p->comms[p->ncomms] = strdup(comm)))
		goto nomem;
	p->comm_slots[at] = (uint32_t)++p->ncomms;
	return p->comms[p->ncomms - 1];
nomem:
	*ok = 0;
	return NULL;
}

int peo_profile_new(struct peo_profile **out, const struct peo_profile_opts *opts)
{
	int err;

	if (!out)
		return peo_fail(EINVAL, "peo_profile_new: argument 'out' is NULL");
	*out = NULL;
	if ((err = peo_opts_check(opts, sizeof(struct peo_profile_opts), "peo_profile_opts")))
		return err;
	if (!(*out = calloc(1, sizeof(**out))))
		return peo_fail(ENOMEM, "out of memory for a profile");
	return 0;
}

void peo_profile_free(struct peo_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nblocks; i++)
		free(p->blocks[i]);
	free(p->blocks);
	free(p->frame_slots);
	free(p->ptrs);
	free(p->stacks);
	free(p->stack_slots);
	for (size_t i = 0; i < p->ncomms; i++)
		free(p->comms[i]);
	free(p->comms);
	free(p->comm_slots);
	free(p->events);
	free(p);
}

/* The event's totals, made when new; NULL out of memory. */
static struct totals *totals_of(struct peo_profile *p, uint32_t event)
{
	if (event >= p->nevents) {
		struct totals *more = realloc(p->events, ((size_t)event + 1) * sizeof(*more));

		if (!more)
			return NULL;
		memset(more + p->nevents, 0, ((size_t)event + 1 - p->nevents) * sizeof(*more));
		p->events = more;
		p->nevents = (size_t)event + 1;
	}
	return &p->events[event];
}

static int same_stack(const struct peo_profile *p, const struct stack *a, const struct stack *b,
		      const struct peo_frame *const *frames)
{
	return a->hash == b->hash && a->event == b->event && a->pid == b->pid && a->tid == b->tid &&
	       a->cpu == b->cpu && a->comm == b->comm && a->n == b->n &&
	       !memcmp(p->ptrs + a->first, frames, b->n * sizeof(*frames));
}

static int nomem(void)
{
	return peo_fail(ENOMEM, "out of memory for the profile's stacks");
}

int peo_profile_add(struct peo_profile *p, const struct peo_profile_sample *s)
{
	struct stack key = { 0 };
	struct totals *t;
	size_t at;
	int ok, err;

	if (!p || !s || !s->frames)
		return peo_fail(EINVAL, "peo_profile_add: a NULL argument");
	if (s->sz < sizeof(*s))
		return peo_fail(EINVAL, "peo_profile_add: a peo_profile_sample of %zu bytes, under "
				"its %zu (set sz to sizeof(struct peo_profile_sample))",
				s->sz, sizeof(*s));
	if ((err = peo_opts_check(s, sizeof(*s), "peo_profile_sample")))
		return err; /* a newer caller's fields set */
	if (!s->nframes)
		return peo_fail(EINVAL, "peo_profile_add: a sample without frames (it has its ip)");
	if (!(t = totals_of(p, s->event)))
		return nomem();
	if (p->nptrs + s->nframes > p->ptrs_cap) {
		size_t cap = p->ptrs_cap ? p->ptrs_cap : 4096;
		const struct peo_frame **more;

		while (cap < p->nptrs + s->nframes)
			cap *= 2;
		if (!(more = realloc(p->ptrs, cap * sizeof(*more))))
			return nomem();
		p->ptrs = more;
		p->ptrs_cap = cap;
	}
	/* the frames, interned, after the last stack's: kept if the stack is new */
	key = (struct stack){ .event = s->event, .pid = s->pid, .tid = s->tid, .cpu = s->cpu,
			      .first = p->nptrs, .n = s->nframes };
	key.comm = intern_comm(p, s->comm, &ok);
	if (!ok)
		return nomem();
	key.hash = mix(mix(mix(mix(mix(0, key.event), key.pid), key.tid), key.cpu),
		       (uintptr_t)key.comm);
	for (size_t i = 0; i < s->nframes; i++) {
		if (!(p->ptrs[p->nptrs + i] = intern_frame(p, &s->frames[i])))
			return nomem();
		key.hash = mix(key.hash, (uintptr_t)p->ptrs[p->nptrs + i]);
	}
	if ((p->nstacks + 1) * 2 > p->stack_cap &&
	    rehash(&p->stack_slots, &p->stack_cap, p->nstacks, p, stack_hash_of))
		return nomem();
	t->samples++;
	t->period += s->period;
	for (at = key.hash & (p->stack_cap - 1); p->stack_slots[at]; at = (at + 1) & (p->stack_cap - 1)) {
		struct stack *st = &p->stacks[p->stack_slots[at] - 1];

		if (same_stack(p, st, &key, p->ptrs + p->nptrs)) {
			st->count++;
			st->period += s->period;
			p->last = (size_t)(st - p->stacks);
			return 0;
		}
	}
	if (p->nstacks == p->stacks_cap) {
		size_t cap = p->stacks_cap ? p->stacks_cap * 2 : 1024;
		struct stack *more = realloc(p->stacks, cap * sizeof(*more));

		if (!more) {
			t->samples--;
			t->period -= s->period;
			return nomem();
		}
		p->stacks = more;
		p->stacks_cap = cap;
	}
	key.count = 1;
	key.period = s->period;
	p->stacks[p->nstacks] = key;
	p->last = p->nstacks;
	p->stack_slots[at] = (uint32_t)++p->nstacks;
	p->nptrs += s->nframes;
	return 0;
}

size_t peo_profile_last(const struct peo_profile *p)
{
	return p && p->nstacks ? p->last : SIZE_MAX;
}

int peo_profile_add_again(struct peo_profile *p, size_t i, uint64_t period)
{
	if (!p)
		return peo_fail(EINVAL, "peo_profile_add_again: a NULL argument");
	if (i >= p->nstacks)
		return peo_fail(ERANGE, "peo_profile_add_again: no stack %zu (the profile has %zu)", i,
				p->nstacks);
	p->stacks[i].count++;
	p->stacks[i].period += period;
	p->events[p->stacks[i].event].samples++; /* its event's totals exist: it was added */
	p->events[p->stacks[i].event].period += period;
	p->last = i;
	return 0;
}

size_t peo_profile_stacks(const struct peo_profile *p)
{
	return p ? p->nstacks : 0;
}

int peo_profile_stack(const struct peo_profile *p, size_t i, struct peo_profile_stack *out)
{
	const struct stack *st;

	if (!p || !out)
		return peo_fail(EINVAL, "peo_profile_stack: a NULL argument");
	if (i >= p->nstacks)
		return peo_fail(ERANGE, "peo_profile_stack: no stack %zu (the profile has %zu)", i,
				p->nstacks);
	st = &p->stacks[i];
	*out = (struct peo_profile_stack){ .event = st->event, .pid = st->pid, .tid = st->tid,
					   .cpu = st->cpu, .comm = st->comm,
					   .frames = p->ptrs + st->first, .nframes = st->n,
					   .count = st->count, .period = st->period };
	return 0;
}

uint64_t peo_profile_samples(const struct peo_profile *p, uint32_t event, uint64_t *period)
{
	const struct totals *t = p && event < p->nevents ? &p->events[event] : NULL;

	if (period)
		*period = t ? t->period : 0;
	return t ? t->samples : 0;
}
