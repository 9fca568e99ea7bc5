/*
 * tp_synth.c - a perf.data of made-up tracepoint samples, for
 * tp_format_compare.sh: `tp_synth OUT TRACEFS SYS:NAME=HEX...` writes one
 * event per SYS:NAME (its id from TRACEFS/events/SYS/NAME/id), the
 * TRACING_DATA of TRACEFS (a directory of format files the script made),
 * and one sample per argument whose RAW payload is the HEX bytes.  perf
 * script and peo script then print the same payloads by the same formats:
 * print fmts this machine's kernel does not have, and payloads it would
 * not make.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peo/peo.h"

#define MAX_EVENTS 64

struct event {
	char name[128];
	uint64_t config;
};

static int die(const char *what)
{
	fprintf(stderr, "tp_synth: %s: %s\n", what, peo_last_error());
	return 1;
}

/* The event named by "SYS:NAME=HEX" (@arg), added to @ev when new; -1 when unknown. */
static int event_of(struct event *ev, int *n, const char *tracefs, const char *arg)
{
	int len = (int)strcspn(arg, "="), k;
	const char *colon = memchr(arg, ':', (size_t)len);
	char path[1024];
	FILE *in;

	for (k = 0; k < *n; k++)
		if ((int)strlen(ev[k].name) == len && !memcmp(ev[k].name, arg, (size_t)len))
			return k;
	if (!colon || !arg[len] || *n == MAX_EVENTS || len >= (int)sizeof(ev[k].name)) {
		fprintf(stderr, "tp_synth: '%s' is not SYS:NAME=HEX (at most %d events)\n", arg,
			MAX_EVENTS);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events/%.*s/%.*s/id", tracefs, (int)(colon - arg), arg,
		 (int)(arg + len - colon - 1), colon + 1);
	in = fopen(path, "r");
	if (!in || fscanf(in, "%" SCNu64, &ev[k].config) != 1) {
		fprintf(stderr, "tp_synth: no id in %s\n", path);
		if (in)
			fclose(in);
		return -1;
	}
	fclose(in);
	snprintf(ev[k].name, sizeof(ev[k].name), "%.*s", len, arg);
	return (*n)++;
}

/* A SAMPLE of IDENTIFIER, TID, TIME, CPU, PERIOD and RAW (the bytes of @hex). */
static int put_sample(struct peo_perfdata_writer *w, uint64_t id, uint64_t time, const char *hex)
{
	unsigned char rec[8192];
	uint32_t pid = 42, raw_size = 0, at = 52;
	struct peo_event_header h = { PEO_RECORD_SAMPLE, PEO_RECORD_MISC_USER, 0 };
	uint64_t period = 1, cpu = 0;

	for (; hex[0] && hex[1] && at < sizeof(rec) - 8; hex += 2, raw_size++) {
		unsigned v;

		if (sscanf(hex, "%2x", &v) != 1)
			return fprintf(stderr, "tp_synth: '%.2s' is not hex\n", hex), 1;
		rec[at++] = (unsigned char)v;
	}
	while (at % 8)
		rec[at++] = 0;
	h.size = (uint16_t)at;
	memcpy(rec, &h, 8);
	memcpy(rec + 8, &id, 8);
	memcpy(rec + 16, &pid, 4);
	memcpy(rec + 20, &pid, 4);
	memcpy(rec + 24, &time, 8);
	memcpy(rec + 32, &cpu, 8);
	memcpy(rec + 40, &period, 8);
	memcpy(rec + 48, &raw_size, 4);
	return peo_perfdata_writer_record(w, rec, at) ? die("a sample") : 0;
}

int main(int argc, char **argv)
{
	struct event ev[MAX_EVENTS];
	struct peo_perfdata_writer *w;
	int n = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: tp_synth OUT TRACEFS SYS:NAME=HEX...\n");
		return 2;
	}
	for (int i = 3; i < argc; i++)
		if (event_of(ev, &n, argv[2], argv[i]) < 0)
			return 1;
	if (peo_perfdata_writer_open(&w, argv[1]))
		return die(argv[1]);
	for (int k = 0; k < n; k++) {
		struct peo_attr a;
		uint64_t id = 1000 + (uint64_t)k;

		peo_attr_init(&a);
		a.type = PEO_TYPE_TRACEPOINT;
		a.config = ev[k].config;
		a.sample_period = 1;
		a.sample_type = PEO_SAMPLE_IDENTIFIER | PEO_SAMPLE_TID | PEO_SAMPLE_TIME |
				PEO_SAMPLE_CPU | PEO_SAMPLE_PERIOD | PEO_SAMPLE_RAW;
		a.sample_id_all = 1;
		if (peo_perfdata_writer_add_event(w, &a, &id, 1, ev[k].name))
			return die(ev[k].name);
	}
	if (peo_perfdata_writer_tracing_data(w, argv[2]))
		return die("TRACING_DATA");
	for (int i = 3; i < argc; i++)
		if (put_sample(w, 1000 + (uint64_t)event_of(ev, &n, argv[2], argv[i]),
			       100000000000ull + 1000ull * (uint64_t)i, strchr(argv[i], '=') + 1))
			return 1;
	return peo_perfdata_writer_close(w) ? die("closing") : 0;
}
