/*
 * fuzz_check.h - what the libFuzzer targets share: the entry point's
 * declaration and CHECK(), an assertion that aborts (so libFuzzer keeps the
 * input) naming the target's file and the condition.
 */
#ifndef PEO_FUZZ_CHECK_H
#define PEO_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                 \
	do {                                                                        \
		if (!(cond)) {                                                      \
			fprintf(stderr, "%s: check failed: %s\n", __FILE__, #cond); \
			abort();                                                    \
		}                                                                   \
	} while (0)

#endif
