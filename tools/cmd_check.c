/*
 * cmd_check.c - peo check FILE: validate a perf.data file, and say where
 * the first problem is (perf has no such command).
 *
 * Checked: the header and its sections (inside the file, not overlapping
 * the header), the attrs and their sizes, every record's size and fields
 * (each parsed in full), and the order within rounds: no record may be
 * older than what perf's FINISHED_ROUND rule has already let through.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <peo/peo.h>

#include "commands.h"

/* The time a record is ordered by, when it has one. */
static int record_time(const struct peo_record *r, uint64_t *t)
{
	if (!r->attr || r->header.type >= PEO_RECORD_MAX)
		return 0;
	if (r->header.type == PEO_RECORD_SAMPLE) {
		*t = r->u.sample.time;
		return !!(r->attr->sample_type & PEO_SAMPLE_TIME);
	}
	*t = r->sample_id.time;
	return !!(r->sample_id.fields & PEO_SAMPLE_TIME);
}

int cmd_check(int argc, char **argv)
{
	struct peo_perfdata_record rec;
	struct peo_perfdata *f;
	uint64_t records = 0, rounds = 0, max_time = 0, next_flush = 0, limit = 0, t;
	uint64_t round_offset = 0;
	int got;

	if (argc != 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fprintf(argc == 2 ? stdout : stderr, "usage: peo check FILE\n"
			"  validates a perf.data file; exits 1 with the offset of the first problem\n");
		return argc == 2 ? 0 : 2;
	}
	if (peo_perfdata_open(&f, argv[1], NULL)) {
		printf("%s: BAD: %s\n", argv[1], peo_last_error());
		return 1;
	}
	while ((got = peo_perfdata_next(f, &rec)) == 1) {
		records++;
		if (rec.rec.header.type == PEO_RECORD_FINISHED_ROUND) {
			rounds++;
			limit = next_flush; /* what perf may already have let through */
			next_flush = max_time;
			round_offset = rec.offset;
			continue;
		}
		if (!record_time(&rec.rec, &t))
			continue;
		if (t < limit) {
			printf("%s: BAD: %s record at offset %" PRIu64 " has time %" PRIu64 ", older "
			       "than %" PRIu64 ", which the round ending at offset %" PRIu64 " already "
			       "let through (perf warns 'Timestamp below last timeslice flush')\n",
			       argv[1], peo_user_record_type_name(rec.rec.header.type), rec.offset, t,
			       limit, round_offset);
			peo_perfdata_close(f);
			return 1;
		}
		if (t > max_time)
			max_time = t;
	}
	if (got < 0) {
		printf("%s: BAD: %s\n", argv[1], peo_last_error());
		peo_perfdata_close(f);
		return 1;
	}
	printf("%s: OK: %" PRIu64 " records, %" PRIu64 " rounds, %zu events, %s mode, %s-endian\n",
	       argv[1], records, rounds, peo_perfdata_attr_count(f),
	       peo_perfdata_is_pipe(f) ? "pipe" : "file",
	       peo_perfdata_byte_order(f) == PEO_BYTE_ORDER_BIG ? "big" : "little");
	peo_perfdata_close(f);
	return 0;
}
