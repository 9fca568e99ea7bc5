/*
 * error.c - the thread-local sentence behind peo_last_error().
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static __thread char last_error[1024];
static __thread unsigned quiet; /* peo_error_quiet()'s depth */

const char *peo_version(void)
{
	return PEO_VERSION_STRING;
}

const char *peo_last_error(void)
{
	return last_error;
}

int peo_fail(int err, const char *fmt, ...)
{
	char sentence[sizeof(last_error)]; /* an argument may be peo_last_error() itself */
	va_list ap;

	if (quiet)
		return err > 0 ? -err : err;
	va_start(ap, fmt);
	vsnprintf(sentence, sizeof(sentence), fmt, ap);
	va_end(ap);
	memcpy(last_error, sentence, sizeof(last_error));
	return err > 0 ? -err : err;
}

void peo_fail_append(const char *fmt, ...)
{
	struct peo_buf b = { last_error, sizeof(last_error), 0 };
	va_list ap;

	if (quiet)
		return;
	while (b.len < b.cap && last_error[b.len])
		b.len++;
	if (b.len + 1 >= b.cap)
		return;
	va_start(ap, fmt);
	vsnprintf(last_error + b.len, b.cap - b.len, fmt, ap);
	va_end(ap);
}

void peo_error_quiet(int on)
{
	if (on)
		quiet++;
	else if (quiet)
		quiet--;
}

void peo_buf_printf(struct peo_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len + 1 >= b->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	b->len += (size_t)n;
	if (b->len >= b->cap)
		b->len = b->cap - 1;
}
