/*
 * cmd_check.c - peo check FILE: validate a perf.data file, and say where
 * the first problem is (perf has no such command).
 *
 * Checked: the header and its sections (inside the file, not overlapping
 * the header), the attrs and their sizes, every record's size and fields
 * (each parsed in full), and the order within rounds: no record may be
 * older than what perf's FINISHED_ROUND rule has already let through.
 */
#include <errno.h>
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

/* Exit statuses: 0 the file is good, 1 it is bad, 2 usage, 3 not judged. */

/* The reader's sentence without the "PATH: " it starts with when it does
 * (the lines name the file first themselves). */
static const char *unnamed(const char *path, const char *sentence)
{
	size_t n = strlen(path);

	return !strncmp(sentence, path, n) && sentence[n] == ':' && sentence[n + 1] == ' '
		       ? sentence + n + 2 : sentence;
}
#define CHECK_NOT_JUDGED 3

/* An error of peo's or of the system, not of the file (out of memory, a
 * pipe where a file must be): said, and the file is not judged. */
static int not_judged(const char *path, int err)
{
	if (err == -ENOMEM)
		fprintf(stderr, "peo check: out of memory reading %s (%s); the file was not "
			"judged\n", strcmp(path, "-") ? path : "standard input",
			unnamed(strcmp(path, "-") ? path : "standard input", peo_last_error()));
	else
		fprintf(stderr, "peo check: %s; the file was not judged\n", peo_last_error());
	return CHECK_NOT_JUDGED;
}

/* Whether error @err says nothing of the file itself. */
static int judges_nothing(int err)
{
	return err == -ENOMEM || err == -ESPIPE;
}

/*
 * A file whose recording was not finished, or that was cut short (open
 * said -ENODATA, @why): read as peo script --force reads it, to say how
 * many whole records it has and where they stop.  Returns the exit status.
 */
static int check_damaged(const char *path, const char *why)
{
	PEO_OPTS(peo_perfdata_opts, o, .force = 1);
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	struct peo_perfdata *f;
	uint64_t records = 0, samples = 0, end = 0;
	const char *source = NULL; /* a directory's file of the last record */
	char said[1024];
	int got;

	snprintf(said, sizeof(said), "%s", unnamed(path, why));
	if ((got = peo_perfdata_open(&f, path, &o)))
		return judges_nothing(got) ? not_judged(path, got)
					   : (printf("%s: BAD: %s\n", path, said), 1);
	while ((got = peo_perfdata_next(f, &rec)) == 1) {
		records++;
		samples += rec.rec.header.type == PEO_RECORD_SAMPLE;
		end = rec.offset + rec.rec.header.size;
		source = peo_perfdata_source(f);
	}
	if (got < 0 && judges_nothing(got)) {
		peo_perfdata_close(f);
		return not_judged(path, got);
	}
	printf("%s: BAD: %s; `peo script --force` reads the %" PRIu64 " whole records (%" PRIu64
	       " samples), the last ending at offset %" PRIu64 "%s%s%s%s%s%s\n", path, said, records,
	       samples, end, source ? " of " : "", source ? path : "", source ? "/" : "",
	       source ? source : "",
	       got < 0 ? ", then fails: " : peo_perfdata_stopped(f) ? ", and stop where " : "",
	       got < 0 ? unnamed(path, peo_last_error())
	       : peo_perfdata_stopped(f) ? unnamed(path, peo_perfdata_stopped(f)) : "");
	peo_perfdata_close(f);
	return 1;
}

int cmd_check(int argc, char **argv)
{
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	struct peo_perfdata *f;
	uint64_t records = 0, rounds = 0, max_time = 0, next_flush = 0, limit = 0, t;
	uint64_t round_offset = 0;
	int got;

	if (argc != 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fprintf(argc == 2 ? stdout : stderr, "usage: peo check FILE\n"
			"  validates a perf.data file; exits 1 with the offset of the first problem,\n"
			"  3 when it could not judge the file (out of memory, a file-mode perf.data\n"
			"  through a pipe)\n");
		return argc == 2 ? 0 : 2;
	}
	if ((got = peo_perfdata_open(&f, argv[1], NULL))) {
		if (got == -ENODATA) /* not finished, or cut short: how much is there */
			return check_damaged(argv[1], peo_last_error());
		if (judges_nothing(got))
			return not_judged(argv[1], got);
		printf("%s: BAD: %s\n", argv[1], unnamed(argv[1], peo_last_error()));
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
		if (judges_nothing(got)) {
			peo_perfdata_close(f);
			return not_judged(argv[1], got);
		}
		printf("%s: BAD: %s (after %" PRIu64 " whole records)\n", argv[1],
		       unnamed(argv[1], peo_last_error()), records);
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
