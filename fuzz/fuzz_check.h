/*
 * fuzz_check.h - what the libFuzzer targets share: the entry point's
 * declaration and CHECK(), an assertion that aborts (so libFuzzer keeps the
 * input) naming the target's file and the condition; CHECK_SAYS() adds a
 * printf-style sentence with the values that broke it.
 */
#ifndef PEO_FUZZ_CHECK_H
#define PEO_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK_SAYS(cond, ...)                                                         \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s: check failed: %s: ", __FILE__, #cond);   \
			fprintf(stderr, __VA_ARGS__);                                 \
			fputc('\n', stderr);                                          \
			abort();                                                      \
		}                                                                     \
	} while (0)

#define CHECK(cond) CHECK_SAYS(cond, "%s", "")

#endif
