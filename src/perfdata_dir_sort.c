/*
 * perfdata_dir_sort.c - a --threads data file's late records, found by a
 * first pass, and the records held back for them (perfdata_dir_sort.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata_dir_sort.h"

int peo_pd_sort_scan(struct pd_dir_sort *s, struct peo_perfdata *r)
{
	struct peo_perfdata_record rec;
	uint64_t idx = 0, newest = 0;

	s->nlate = s->next_late = 0; /* a pass again, after one that failed */
	while (peo_pd_next_raw(r, &rec) > 0) {
		uint64_t t = r->peek_time;

		if (r->peek_has_time && t < newest) {
			if (s->nlate == s->late_cap) {
				size_t cap = s->late_cap ? s->late_cap * 2 : 16;
				struct pd_late *more = realloc(s->late, cap * sizeof(*more));

				if (!more)
					return peo_fail(ENOMEM, "out of memory for the late records "
						       "of a data file");
				s->late = more;
				s->late_cap = cap;
			}
			s->late[s->nlate++] = (struct pd_late){ idx, t };
		} else if (r->peek_has_time) {
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

	if (s->held.n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct pd_heap_slot *more = realloc(s->held.v, cap * sizeof(*more));

		if (!more)
			goto oom;
		s->held.v = more;
		s->cap = cap;
	}
	h = malloc(sizeof(*h) + len);
	if (!h)
		goto oom;
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

void peo_pd_sort_free(struct pd_dir_sort *s)
{
	for (size_t i = 0; i < s->held.n; i++)
		free((struct pd_held *)(uintptr_t)s->held.v[i].stream);
	free(s->held.v);
	free(s->late);
	memset(s, 0, sizeof(*s));
}
