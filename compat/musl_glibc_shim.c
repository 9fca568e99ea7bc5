/*
 * compat/musl_glibc_shim.c - the glibc-only functions that Debian's static
 * libdw.a, libelf.a and libiberty.a call, for the peo command linked
 * statically against musl (cmake/musl_tool.cmake); never in libpeo.
 *
 * Those archives were compiled for glibc with _FORTIFY_SOURCE, so they call
 * the checked entry points (__sprintf_chk...) and glibc's error(3).  Each
 * one here does the check its name promises (abort on an overflow of the
 * destination's known size, as glibc does) and then the plain function.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

int __sprintf_chk(char *s, int flag, size_t size, const char *fmt, ...) PRINTF_LIKE(4, 5);
int __snprintf_chk(char *s, size_t n, int flag, size_t size, const char *fmt, ...) PRINTF_LIKE(5, 6);
int __vsnprintf_chk(char *s, size_t n, int flag, size_t size, const char *fmt, va_list ap)
	PRINTF_LIKE(5, 0);
int __fprintf_chk(FILE *fp, int flag, const char *fmt, ...) PRINTF_LIKE(3, 4);
int __asprintf_chk(char **out, int flag, const char *fmt, ...) PRINTF_LIKE(3, 4);
char *__stpcpy_chk(char *dst, const char *src, size_t size);
char *__strcpy_chk(char *dst, const char *src, size_t size);
char *__strcat_chk(char *dst, const char *src, size_t size);
void error(int status, int errnum, const char *fmt, ...) PRINTF_LIKE(3, 4);

/* A write past the destination: what glibc's __chk_fail does. */
static void overflow(void)
{
	static const char msg[] = "*** buffer overflow detected ***: terminated\n";

	fputs(msg, stderr);
	abort();
}

int __vsnprintf_chk(char *s, size_t n, int flag, size_t size, const char *fmt, va_list ap)
{
	if (n > size)
		overflow();
	return vsnprintf(s, n, fmt, ap);
}

int __snprintf_chk(char *s, size_t n, int flag, size_t size, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = __vsnprintf_chk(s, n, flag, size, fmt, ap);
	va_end(ap);
	return r;
}

int __sprintf_chk(char *s, int flag, size_t size, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(s, size, fmt, ap); /* size is (size_t)-1 when unknown */
	va_end(ap);
	if (r >= 0 && (size_t)r >= size)
		overflow();
	return r;
}

int __fprintf_chk(FILE *fp, int flag, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vfprintf(fp, fmt, ap);
	va_end(ap);
	return r;
}

int __asprintf_chk(char **out, int flag, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(out, fmt, ap);
	va_end(ap);
	return r;
}

/* Copy @src to @dst (room for @size bytes); the end of the copy.  Not
 * written with the _chk names: the compiler knows them as builtins and
 * would turn one into another. */
static char *copy_checked(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (len >= size)
		overflow();
	return (char *)memcpy(dst, src, len + 1) + len;
}

char *__stpcpy_chk(char *dst, const char *src, size_t size)
{
	return copy_checked(dst, src, size);
}

char *__strcpy_chk(char *dst, const char *src, size_t size)
{
	copy_checked(dst, src, size);
	return dst;
}

char *__strcat_chk(char *dst, const char *src, size_t size)
{
	size_t len = strlen(dst);

	if (len >= size)
		overflow();
	copy_checked(dst + len, src, size - len);
	return dst;
}

/* glibc's error(3): "peo: MESSAGE[: strerror]", exit when @status is not 0. */
void error(int status, int errnum, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("peo: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
	if (status)
		exit(status);
}
