/*
 * fuzz_perfdata.c - libFuzzer target for the perf.data reader (perfdata*.c
 * over the record parser): the input is a whole file, given as a memfd so
 * the reader's pread path runs; byte 0's low bit picks time order.  Every
 * record is read to the end or to an error, whose sentence must exist;
 * the string features and event names are read too.
 *
 * Seeds: small files perf record wrote (file and pipe mode, zstd).
 * Build and run: make fuzz.
 */
#define _GNU_SOURCE 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "peo/peo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                  \
	do {                                                                         \
		if (!(cond)) {                                                       \
			fprintf(stderr, "fuzz_perfdata: check failed: %s\n", #cond); \
			abort();                                                     \
		}                                                                    \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	PEO_OPTS(peo_perfdata_opts, o, .ordered = size && (data[size - 1] & 1), .window = 1);
	struct peo_perfdata_record rec;
	struct peo_perfdata *f;
	int fd = memfd_create("fuzz", MFD_CLOEXEC), got, n = 0;

	CHECK(fd >= 0);
	CHECK(write(fd, data, size) == (ssize_t)size);
	if (peo_perfdata_open_fd(&f, fd, &o)) {
		CHECK(peo_last_error()[0]);
		close(fd);
		return 0;
	}
	for (unsigned bit = 3; bit <= 9; bit++) {
		const char *s;

		if (bit != 7 && peo_perfdata_feature_string(f, bit, &s) == 0)
			CHECK(s != NULL);
	}
	for (size_t i = 0; i < peo_perfdata_attr_count(f); i++)
		(void)peo_perfdata_event_name(f, i);
	while (n++ < 100000 && (got = peo_perfdata_next(f, &rec)) == 1)
		CHECK(rec.rec.header.size >= 8);
	if (got < 0)
		CHECK(peo_last_error()[0]);
	peo_perfdata_close(f);
	close(fd);
	return 0;
}
