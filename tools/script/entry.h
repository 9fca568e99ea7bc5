/*
 * script/entry.h - the protocol between peo script's reading thread
 * (script/deliver.c) and its formatting workers (script/worker.c): what
 * the reading thread hands them, in a batch or in the log.
 *
 * A record entry holds a record's bytes as the file has them, for a
 * worker to parse and print, with what needs the file to resolve (the
 * event's column, its tracepoint format); the record follows this header
 * (then the event column, when it is not one kept for good).  New
 * parsers, and the records that build state (COMM, FORK, MMAP...) when
 * the output keeps it, go in the log, and a sync entry at their place in
 * the batch has its worker read the log up to them; every other record
 * goes in the batch.
 */
#ifndef PEO_TOOLS_SCRIPT_ENTRY_H
#define PEO_TOOLS_SCRIPT_ENTRY_H

#include <stdint.h>

#include <peo/peo.h>

#include "script/log.h"
#include "script/pool.h"

/* The most bytes of an event's column (a longer name is cut). */
#define LABEL_MAX 4096

/* A parser the formatting workers share (they only read it), freed by the last to let go. */
struct shared_parser {
	struct peo_record_parser *p;
	unsigned refs; /* atomic */
};

enum entry_kind { ENTRY_RECORD, ENTRY_SYNC, ENTRY_PARSER };

struct entry {
	uint32_t size;      /* bytes: this header, the record, a column; a multiple of 8 */
	uint32_t rec_len;   /* the record's header.size */
	uint32_t label_len; /* the event column's bytes */
	uint16_t kind;      /* enum entry_kind */
	uint16_t print;     /* a sync's: print the line of the log's record it reaches */
	const char *label;  /* the column: the reading thread's label, or after the record */
	uint64_t offset;    /* the record's place in the file, for an error's sentence, */
	const char *source; /* and the file: a directory's data file, or NULL */
	union {
		const struct peo_tp_format *format; /* the sample's event's, when asked, or NULL */
		struct shared_parser *parser;       /* a parser entry's */
		uint64_t upto;                      /* a sync's: read the log's entries below it */
	} u;
};

/* The most an entry holds: a record of the largest size, a column. */
#define ENTRY_MAX (sizeof(struct entry) + 65536 + LABEL_MAX)
_Static_assert(ENTRY_MAX + sizeof(struct entry) <= SCRIPT_POOL_ENTRY_MAX,
	       "a batch holds any entry and a sync");
_Static_assert(ENTRY_MAX <= SCRIPT_LOG_ENTRY_MAX, "the log holds any entry");
_Static_assert(sizeof(struct entry) % 8 == 0, "records after an entry stay 8-aligned");

#endif
