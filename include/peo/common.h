/*
 * peo/common.h - version, error reporting and option-struct conventions
 * shared by every layer of libpeo.
 */
#ifndef PEO_COMMON_H
#define PEO_COMMON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PEO_VERSION_MAJOR 0
#define PEO_VERSION_MINOR 1
#define PEO_VERSION_PATCH 0
#define PEO_VERSION_STRING "0.1.0"

#if defined(__GNUC__) || defined(__clang__)
#define PEO_API __attribute__((visibility("default")))
#else
#define PEO_API
#endif

/*
 * Options structs start with `size_t sz`; PEO_OPTS declares one with sz set,
 * so a program built against an older, smaller struct keeps working:
 *     PEO_OPTS(peo_xxx_opts, o, .field = 1);
 */
#define PEO_OPTS(type, name, ...) \
	struct type name = { .sz = sizeof(struct type), __VA_ARGS__ }

/*
 * Structs the caller allocates and libpeo fills (struct peo_record,
 * peo_perfdata_record, peo_ring_record...) start with `size_t sz` too: the
 * caller sets it to the size it was built with,
 *     struct peo_record r = { .sz = sizeof(r) };
 * and libpeo writes only the first sz bytes, so a program built against an
 * older, smaller struct keeps working.  A sz under the struct's size in
 * its first release (0.1) is refused with -EINVAL; the bytes past the
 * fields this libpeo knows (a program built against a newer header) are
 * set to 0, which every field added later reads as "absent".  Fields are
 * only ever added at the end of such a struct.
 *
 * Structs libpeo owns and hands out by pointer (one at a time) may grow at
 * their end as well.  Arrays the caller indexes (peo_count, the typed
 * feature sections' lists, peo_feature) keep their size: the caller's
 * sizeof is the stride; a new field there comes with a new function.
 */

/**
 * peo_version() - the library's version string, e.g. "0.1.0".
 *
 * Return: a static string; compare with PEO_VERSION_STRING to detect a
 * program running against another build of libpeo.
 */
PEO_API const char *peo_version(void);

/**
 * peo_last_error() - the sentence describing this thread's last failure.
 *
 * Every libpeo function that fails leaves one: what was attempted, what the
 * kernel said, and the likely cause and fix.  It is thread-local and stays
 * until the next failure in the same thread.
 *
 * Return: a NUL-terminated string owned by libpeo, "" if nothing failed yet.
 */
PEO_API const char *peo_last_error(void);

/**
 * peo_suggest() - "did you mean": the one of @candidates nearest to @word
 * when it is near enough to be a typo of it (an edit, or two neighbours
 * swapped, per three letters; at least one and at most three), as
 * libpeo's own sentences suggest event and tracepoint names.
 * @word:       what was written ("scirpt").
 * @candidates: @n names.
 * @n:          how many.
 *
 * Return: the nearest candidate (one of @candidates), or NULL when none is
 * near enough.
 */
PEO_API const char *peo_suggest(const char *word, const char *const *candidates, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* PEO_COMMON_H */
