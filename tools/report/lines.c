/*
 * report/lines.c - where in the source each user frame of a report is
 * (--pprof's Location lines), looked up once per binary and offset while
 * the records are read (the processes' maps as they were then), kept for
 * the writer after.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

#define LINES_MAX 16 /* a frame's line and the calls of the functions inlined there */

struct line_entry {
	const char *dso;
	uint64_t offset;
	int used, n;
	struct peo_srcline lines[LINES_MAX];
};

struct report_lines {
	struct line_entry *v;
	size_t n, cap; /* cap: a power of two */
};

static size_t slot(const char *dso, uint64_t offset, size_t cap)
{
	return (size_t)(((uintptr_t)dso >> 4 ^ offset) * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
}

static struct line_entry *find(struct report_lines *t, const char *dso, uint64_t offset)
{
	size_t i = slot(dso, offset, t->cap);

	while (t->v[i].used && (t->v[i].dso != dso || t->v[i].offset != offset))
		i = (i + 1) & (t->cap - 1);
	return &t->v[i];
}

static int grow(struct report_lines *t)
{
	struct report_lines bigger = { .cap = t->cap ? t->cap * 2 : 1024 };

	if (!(bigger.v = calloc(bigger.cap, sizeof(*bigger.v))))
		return -1;
	for (size_t i = 0; i < t->cap; i++)
		if (t->v[i].used)
			*find(&bigger, t->v[i].dso, t->v[i].offset) = t->v[i];
	bigger.n = t->n;
	free(t->v);
	*t = bigger;
	return 0;
}

int report_lines_add(struct report_data *d, uint32_t pid, uint64_t at, const struct peo_frame *fr)
{
	struct report_lines *t = d->lines;
	struct peo_srcline lines[LINES_MAX];
	struct line_entry *e;
	int n;

	if (!fr->dso || !fr->sym || (fr->flags & PEO_FRAME_KERNEL))
		return 0;
	if (!t && !(t = d->lines = calloc(1, sizeof(*t))))
		return -1;
	if ((t->n + 1) * 2 > t->cap && grow(t))
		return -1;
	e = find(t, fr->dso, fr->dso_offset);
	if (e->used)
		return 0;
	n = peo_processes_srclines(d->procs, pid, at, lines, LINES_MAX);
	if (n == -ENOMEM)
		return -1;
	*e = (struct line_entry){ .dso = fr->dso, .offset = fr->dso_offset, .used = 1,
				  .n = n > 0 ? n : 0 };
	memcpy(e->lines, lines, (size_t)e->n * sizeof(*lines));
	t->n++;
	return 0;
}

const struct peo_srcline *report_lines_find(const struct report_data *d, const char *dso,
					    uint64_t offset, size_t *n)
{
	struct line_entry *e;

	*n = 0;
	if (!d->lines || !dso)
		return NULL;
	e = find(d->lines, dso, offset);
	if (!e->used)
		return NULL;
	*n = (size_t)e->n;
	return e->lines;
}

void report_lines_free(struct report_lines *t)
{
	if (t)
		free(t->v);
	free(t);
}
