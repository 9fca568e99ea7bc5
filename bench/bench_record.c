/*
 * bench_record.c - records parsed per second over a large buffer of
 * realistic records, against a loop that only walks their headers (the
 * memory-bound ceiling), in the same run.
 *
 * The buffer (64 MiB) holds what `perf record -e sched:sched_switch -g`
 * style sessions write: samples with IP, TID, TIME, CPU, PERIOD, a 32-deep
 * callchain and a 68-byte RAW payload, and one COMM or MMAP2 with its
 * sample_id trailer every 50 samples.  Both loops read every record; the
 * parser also fills every field and walks the callchain.  ROUNDS rounds
 * alternate; medians are printed, with peo's share of the ceiling.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <peo/peo.h>

#define ROUNDS 9
#define BUF_BYTES (64u << 20)
#define SAMPLE_TYPE (PEO_SAMPLE_IDENTIFIER | PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | \
		     PEO_SAMPLE_CPU | PEO_SAMPLE_PERIOD | PEO_SAMPLE_CALLCHAIN | PEO_SAMPLE_RAW)

static unsigned char *buf;
static size_t used, nrecords;
static volatile uint64_t sink;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void put64(unsigned char **p, uint64_t v) { memcpy(*p, &v, 8); *p += 8; }
static void put32(unsigned char **p, uint32_t v) { memcpy(*p, &v, 4); *p += 4; }

static void header(unsigned char *rec, uint32_t type, uint16_t misc, size_t size)
{
	struct peo_event_header h = { type, misc, (uint16_t)size };

	memcpy(rec, &h, sizeof(h));
}

static void trailer(unsigned char **p, uint64_t t)
{
	put32(p, 1234); put32(p, 1235); /* pid, tid */
	put64(p, t);                    /* time */
	put32(p, 1); put32(p, 0);       /* cpu */
	put64(p, 42);                   /* identifier */
}

static void fill(void)
{
	uint64_t t = 1000000;

	for (size_t i = 0; used + 1024 < BUF_BYTES; i++, t += 997) {
		unsigned char *rec = buf + used, *p = rec + 8;

		if (i % 50 == 49) { /* a task record */
			put32(&p, 1234); put32(&p, 1235);
			memcpy(p, "worker-thread\0\0\0", 16); p += 16;
			trailer(&p, t);
			header(rec, PEO_RECORD_COMM, 0, (size_t)(p - rec));
		} else {
			put64(&p, 42);                          /* identifier */
			put64(&p, 0x401000 + i % 4096);         /* ip */
			put32(&p, 1234); put32(&p, 1235);       /* pid, tid */
			put64(&p, t);                           /* time */
			put32(&p, (uint32_t)(i & 1)); put32(&p, 0);
			put64(&p, 1);                           /* period */
			put64(&p, 33);                          /* callchain: marker + 32 */
			put64(&p, PEO_CONTEXT_ENTRY(PEO_CONTEXT_USER));
			for (int k = 0; k < 32; k++)
				put64(&p, 0x400000 + (uint64_t)k * 64);
			put32(&p, 68);                          /* raw */
			memset(p, 0x5a, 68); p += 68;
			header(rec, PEO_RECORD_SAMPLE, PEO_RECORD_MISC_USER, (size_t)(p - rec));
		}
		used += (size_t)(p - rec);
		nrecords++;
	}
}

static double walk_headers(void)
{
	double t0 = now_s();
	uint64_t s = 0;

	for (size_t at = 0; at < used;) {
		struct peo_event_header h;

		memcpy(&h, buf + at, sizeof(h));
		s += h.type;
		at += h.size;
	}
	sink = s;
	return now_s() - t0;
}

static double parse_all(const struct peo_record_parser *p)
{
	double t0 = now_s();
	uint64_t s = 0;
	struct peo_record r = { .sz = sizeof(r) };
	struct peo_callchain_iter it = { .sz = sizeof(it) };

	for (size_t at = 0; at < used;) {
		uint64_t ip;
		int64_t ctx;

		if (peo_record_parse(p, buf + at, used - at, &r)) {
			fprintf(stderr, "bench_record: %s\n", peo_last_error());
			exit(1);
		}
		if (r.header.type == PEO_RECORD_SAMPLE) {
			s += r.u.sample.time + r.u.sample.raw_size;
			peo_callchain_begin(&it, &r);
			while (peo_callchain_next(&it, &ip, &ctx))
				s += ip;
		} else {
			s += r.sample_id.time;
		}
		at += r.header.size;
	}
	sink = s;
	return now_s() - t0;
}

static int cmp(const void *a, const void *b)
{
	double d = *(const double *)a - *(const double *)b;

	return (d > 0) - (d < 0);
}

int main(void)
{
	struct peo_record_parser *p;
	struct peo_attr a;
	double walk[ROUNDS], parse[ROUNDS];

	buf = malloc(BUF_BYTES);
	if (!buf || peo_record_parser_new(&p, NULL))
		return 1;
	peo_attr_init(&a);
	a.sample_type = SAMPLE_TYPE;
	a.sample_id_all = 1;
	if (peo_record_parser_add(p, &a, NULL, 0))
		return 1;
	fill();
	walk_headers(); /* warm-up: page the buffer in */
	for (int r = 0; r < ROUNDS; r++) {
		if (r % 2)
			walk[r] = walk_headers(), parse[r] = parse_all(p);
		else
			parse[r] = parse_all(p), walk[r] = walk_headers();
	}
	qsort(walk, ROUNDS, sizeof(double), cmp);
	qsort(parse, ROUNDS, sizeof(double), cmp);
	{
		double w = walk[ROUNDS / 2], pp = parse[ROUNDS / 2];

		printf("# bench_record: %zu records, %.1f MiB, median of %d alternating rounds\n",
		       nrecords, used / 1048576.0, ROUNDS);
		printf("%-32s %12.0f records/s %8.0f MiB/s\n", "header walk (ceiling)", nrecords / w,
		       used / w / 1048576.0);
		printf("%-32s %12.0f records/s %8.0f MiB/s\n", "peo_record_parse, all fields",
		       nrecords / pp, used / pp / 1048576.0);
		printf("%-32s %12.3f    (%.1f ns per record)\n", "ratio parse/walk time", pp / w,
		       (pp - w) / (double)nrecords * 1e9);
		printf("RESULT|record parse, all fields, per record|%.1f ns|header walk only (ceiling)|"
		       "%.1f ns|%.2f\n", pp / (double)nrecords * 1e9, w / (double)nrecords * 1e9, w / pp);
	}
	peo_record_parser_free(p);
	free(buf);
	return 0;
}
