/*
 * dir_sort.h - one data file of a --threads directory in time
 * order.  perf reads such a directory whole before it sorts (it holds no
 * FINISHED_ROUND), so a record goes before the records its file holds
 * ahead of it with later times.  perf record writes one ring a file, and
 * a ring has a few: the kernel stamps a COMM, FORK or MMAP2, then a
 * timer's sample is written before it.  Any other writer's file may have
 * many, and is sorted as perf sorts it too.
 *
 * A first pass over the file finds its late records (those older than one
 * before them); the reading then holds back, copied, only the records that
 * a late one still to come goes before.  A file in time order costs the
 * pass and nothing else.
 */
#ifndef PEO_PERFDATA_DIR_SORT_H
#define PEO_PERFDATA_DIR_SORT_H

#include <stddef.h>
#include <stdint.h>

#include "perfdata/heap.h"
#include "perfdata/stream.h"

/* A record held back: its copy, and its time and perf's reading turn
 * (perfdata/dir.c's tie-break between files). */
struct pd_held {
	uint64_t time, turn;
	struct peo_perfdata_record rec; /* rec.bytes point at bytes */
	struct pd_held *next_spare;     /* on a spare list, once out */
	unsigned room;                  /* bytes has 64 << room */
	unsigned char bytes[];
};

/* A record's size class: 64 bytes to 64 KiB, the largest record. */
#define PD_HELD_ROOMS 11

struct pd_late {
	uint64_t idx; /* a late record's place */
	uint64_t min; /* the oldest time of it and the late records after it */
};

struct pd_dir_sort {
	struct pd_late *late;
	size_t nlate, late_cap;
	size_t next_late;      /* the first late record not yet read */
	/* the held records by (time, place in the file); a slot's stream is
	 * its struct pd_held's address */
	struct pd_heap held;
	size_t held_cap;
	/* held records that went out, by room: reused, as a small libc's
	 * malloc maps and unmaps each block of a few KiB */
	struct pd_held *spare[PD_HELD_ROOMS];
};

/*
 * Read @r, a stream of its own over the file, to the end and note the late
 * records; an error there ends the pass (the reading meets it in its turn).
 * Past peo_pd_late_most of them, pairs merge into one that bounds both
 * (memory stays flat; a few more records are held).  Returns 0, or -ENOMEM.
 */
PEO_HIDDEN extern size_t peo_pd_late_most; /* a variable: tests make it small */
PEO_HIDDEN int peo_pd_sort_scan(struct pd_dir_sort *s, struct pd_stream *r);
/* The oldest time of the late records after place @idx; UINT64_MAX when none. */
PEO_HIDDEN uint64_t peo_pd_sort_bound(struct pd_dir_sort *s, uint64_t idx);
/* Hold a copy of @rec.  Returns 0, or -ENOMEM. */
PEO_HIDDEN int peo_pd_sort_hold(struct pd_dir_sort *s, const struct peo_perfdata_record *rec,
				uint64_t time, uint64_t idx, uint64_t turn);
/* The held record that goes first, or NULL. */
static inline struct pd_held *peo_pd_sort_top(const struct pd_dir_sort *s)
{
	return s->held.n ? (struct pd_held *)(uintptr_t)s->held.v[0].stream : NULL;
}
/* Take the top out of the heap; the caller gives it back with
 * peo_pd_sort_release() once done with its record. */
PEO_HIDDEN struct pd_held *peo_pd_sort_pop(struct pd_dir_sort *s);
PEO_HIDDEN void peo_pd_sort_release(struct pd_dir_sort *s, struct pd_held *h);
PEO_HIDDEN void peo_pd_sort_free(struct pd_dir_sort *s);

#endif
