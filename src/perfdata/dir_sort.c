/*
 * dir_sort.c - a --threads data file's late records, found by a
 * first pass, and the records held back for them (perfdata/dir_sort.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/dir_sort.h"

size_t peo_pd_late_most = 65536; /* 1 MiB of late records a file */

/*
 * Late records are noted in groups: an entry stands for up to @group of
 * them in a row, at the last one's place with the oldest one's time.  A
 * bound read from it is never newer than the true one (before the group's
 * first place it is the same; inside the group it may be older), so the
 * reading holds a few records more, never too few.  When the entries fill
 * peo_pd_late_most, pairs merge and groups double: each entry then stands
 * for as many late records, wherever in the file they are.
 */
struct late_notes {
	uint64_t group; /* late records an entry stands for, at most */
	uint64_t in_last; /* those the last entry stands for */
};

static void halve_late(struct pd_dir_sort *s, struct late_notes *g)
{
	size_t k = 0;

	for (size_t i = 0; i + 1 < s->nlate; i += 2) {
		uint64_t a = s->late[i].min, b = s->late[i + 1].min;

		s->late[k++] = (struct pd_late){ s->late[i + 1].idx, a < b ? a : b };
	}
	if (s->nlate % 2)
		s->late[k++] = s->late[s->nlate - 1];
	else
		g->in_last += g->group; /* the last pair: a full entry and the last */
	s->nlate = k;
	g->group *= 2;
}

/* Late record @idx at time @t: into the last entry, or a new one. */
static int note_late(struct pd_dir_sort *s, struct late_notes *g, uint64_t idx, uint64_t t)
{
	struct pd_late *last = s->nlate ? &s->late[s->nlate - 1] : NULL;

	if (last && g->in_last < g->group) {
		last->idx = idx;
		last->min = t < last->min ? t : last->min;
		g->in_last++;
		return 0;
	}
	if (s->nlate >= peo_pd_late_most && s->nlate >= 2) {
		halve_late(s, g);
		return note_late(s, g, idx, t);
	}
	if (s->nlate == s->late_cap) {
		size_t cap = s->late_cap ? s->late_cap * 2 : 16;
		struct pd_late *more = realloc(s->late, cap * sizeof(*more));

		if (!more)
			return peo_fail(ENOMEM, "out of memory for the late records of a data file");
		s->late = more;
		s->late_cap = cap;
	}
	s->late[s->nlate++] = (struct pd_late){ idx, t };
	g->in_last = 1;
	return 0;
}

int peo_pd_sort_scan(struct pd_dir_sort *s, struct pd_stream *r)
{
	struct peo_perfdata_record rec;
	struct late_notes g = { 1, 0 };
	uint64_t idx = 0, newest = 0;
	int err;

	s->nlate = s->next_late = 0; /* a pass again, after one that failed */
	while (pd_stream_next(r, &rec) > 0) {
		uint64_t t = r->time;

		if (r->has_time && t < newest) {
			if ((err = note_late(s, &g, idx, t)))
				return err;
		} else if (r->has_time) {
			newest = t;
		}
		idx++;
	}
	for (size_t i = s->nlate; i-- > 1;)
		if (s->late[i].min < s->late[i - 1].min)
			s->late[i - 1].min = s->late[i].min;
	return 0;
}

uint64_t peo_pd_sort_bound(struct pd_dir_sort *s, uint64_t idx)
{
	while (s->next_late < s->nlate && s->late[s->next_late].idx <= idx)
		s->next_late++;
	return s->next_late < s->nlate ? s->late[s->next_late].min : UINT64_MAX;
}

int peo_pd_sort_hold(struct pd_dir_sort *s, const struct peo_perfdata_record *rec, uint64_t time,
		     uint64_t idx, uint64_t turn)
{
	uint32_t len = rec->rec.header.size;
	struct pd_held *h;
	unsigned room;

	if (s->held.n == s->held_cap) {
		size_t cap = s->held_cap ? s->held_cap * 2 : 16;
		struct pd_heap_slot *more = realloc(s->held.v, cap * sizeof(*more));

		if (!more)
			goto oom;
		s->held.v = more;
		s->held_cap = cap;
	}
	for (room = 0; (64u << room) < len; room++)
		;
	if ((h = s->spare[room])) {
		s->spare[room] = h->next_spare;
	} else {
		if (!(h = malloc(sizeof(*h) + (64u << room))))
			goto oom;
		h->room = room;
	}
	h->time = time;
	h->turn = turn;
	h->rec = *rec;
	memcpy(h->bytes, rec->rec.bytes, len);
	h->rec.rec.bytes = h->bytes;
	/* a record's place in its file is unique: the tie-break */
	pd_heap_add(&s->held, (struct pd_heap_slot){ time, idx, (size_t)(uintptr_t)h });
	return 0;
oom:
	return peo_fail(ENOMEM, "out of memory holding %zu records of a data file for time order",
			s->held.n);
}

struct pd_held *peo_pd_sort_pop(struct pd_dir_sort *s)
{
	struct pd_held *top = peo_pd_sort_top(s);

	pd_heap_pop(&s->held);
	return top;
}

void peo_pd_sort_release(struct pd_dir_sort *s, struct pd_held *h)
{
	h->next_spare = s->spare[h->room];
	s->spare[h->room] = h;
}

void peo_pd_sort_free(struct pd_dir_sort *s)
{
	for (size_t i = 0; i < s->held.n; i++)
		free((struct pd_held *)(uintptr_t)s->held.v[i].stream);
	for (unsigned room = 0; room < PD_HELD_ROOMS; room++)
		while (s->spare[room]) {
			struct pd_held *h = s->spare[room];

			s->spare[room] = h->next_spare;
			free(h);
		}
	free(s->held.v);
	free(s->late);
	memset(s, 0, sizeof(*s));
}
