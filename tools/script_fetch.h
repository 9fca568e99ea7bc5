/*
 * script_fetch.h - peo_perfdata_next() on a thread of its own, a few
 * blocks of records ahead of the thread that hands them to the formatting
 * workers.  On many cores that thread bounds peo script: reading and time
 * ordering take about two thirds of its work, building the workers'
 * entries the rest, and the two now overlap.
 *
 * Only for a reader whose state the other thread may read meanwhile
 * without a race: a single file (not a pipe, whose attrs, names and
 * tracing data arrive among the records, nor a directory), with the
 * reader's parser and attr count taken before the start.  Records whose
 * bytes last (peo_perfdata_record_lasts()) are passed as they are, the
 * others copied.
 */
#ifndef PEO_TOOLS_SCRIPT_FETCH_H
#define PEO_TOOLS_SCRIPT_FETCH_H

#include <peo/perfdata.h>

struct script_fetch;

/* Start a thread reading @f.  Returns 0, or -1 (no thread or memory:
 * *@out NULL, the caller reads @f itself). */
int script_fetch_start(struct script_fetch **out, struct peo_perfdata *f);

/*
 * The next record, as peo_perfdata_next() gives it: 1 with @rec (valid
 * until the next call), 0 at the end, or its negative errno, with its
 * sentence in script_fetch_error().
 */
int script_fetch_next(struct script_fetch *q, struct peo_perfdata_record *rec);

/* The reading thread's error sentence after script_fetch_next() failed. */
const char *script_fetch_error(const struct script_fetch *q);

/* Stop the thread (wherever it is), join it and free everything. */
void script_fetch_end(struct script_fetch *q);

#endif
