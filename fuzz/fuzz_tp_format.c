/*
 * fuzz_tp_format.c - libFuzzer target for tracepoint format files and their
 * print fmt (src/tracepoint/: format.c, expr_*.c, print.c), which a perf.data's
 * TRACING_DATA section hands peo from whoever wrote the file.  The input is
 * the format text, a NUL, then the RAW payload the print fmt is applied
 * to, in either byte order (the payload's first byte picks).  Whatever the
 * result, an error has its sentence and a printed text is NUL-terminated
 * within the buffer.  The format text is read as a printk formats list
 * too (mostly lines it passes over), the kernel strings %s of a pointer
 * names.  The print is held to its reference (every conversion by
 * snprintf: print.c's fast paths must print the same text, or fail with
 * the same sentence).
 *
 * Seeds: real format files from tracefs with payloads (make fuzz).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peo/peo.h"

#include "fuzz_check.h"
#include "tracepoint/format.h" /* the kernel strings list, print_as */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t text_len = nul ? (size_t)(nul - data) : size;
	char *text = malloc(text_len + 1), out[512], ref[512], error[1100];
	const uint8_t *raw = nul ? nul + 1 : data + size;
	size_t raw_size = nul ? size - text_len - 1 : 0;
	struct peo_record rec = { .sz = sizeof(rec), .swapped = raw_size && (raw[0] & 1) };
	struct peo_tp_format *f;
	int n;

	CHECK(text);
	memcpy(text, data, text_len);
	text[text_len] = '\0';
	if (peo_tp_format_parse(&f, text)) {
		CHECK(peo_last_error()[0]);
		free(text);
		return 0;
	}
	{
		struct tp_strings *strings;

		if (!peo_tp_strings_parse(&strings, text, text_len))
			peo_tp_format_set_strings(f, strings);
	}
	for (size_t i = 0; i < peo_tp_format_count(f); i++) {
		const struct peo_tp_field *fld = peo_tp_format_field(f, i);
		const void *bytes;
		size_t len;
		int64_t x;

		if (!peo_tp_field_bytes(fld, &rec, raw, raw_size, &bytes, &len))
			CHECK(len <= raw_size);
		(void)peo_tp_field_int(fld, &rec, raw, raw_size, 0, &x);
	}
	n = peo_tp_format_print(f, &rec, raw_size ? raw : (const void *)"", raw_size, out,
				sizeof(out));
	if (n < 0)
		CHECK(peo_last_error()[0]);
	else
		CHECK(strlen(out) < sizeof(out) && strlen(out) <= (size_t)n);
	snprintf(error, sizeof(error), "%s", n < 0 ? peo_last_error() : "");
	CHECK(peo_tp_format_print_as(f, &rec, raw_size ? raw : (const void *)"", raw_size, ref,
				     sizeof(ref), 1) == n);
	CHECK(!strcmp(out, ref) && (n >= 0 || !strcmp(error, peo_last_error())));
	peo_tp_format_free(f);
	free(text);
	return 0;
}
