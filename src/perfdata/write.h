/*
 * write.h - what the perf.data writer's files share: a growing
 * byte buffer for feature sections, in host order.
 */
#ifndef PEO_PERFDATA_WRITE_H
#define PEO_PERFDATA_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

struct pd_bytes {
	unsigned char *p;
	size_t n, cap;
	int oom; /* an append failed: the bytes are incomplete */
};

PEO_HIDDEN void pd_bytes_put(struct pd_bytes *b, const void *p, size_t n);
PEO_HIDDEN void pd_bytes_u32(struct pd_bytes *b, uint32_t v);
PEO_HIDDEN void pd_bytes_u64(struct pd_bytes *b, uint64_t v);
/* A perf_header_string: u32 length (NUL included, padded to 64), bytes, zeros. */
PEO_HIDDEN void pd_bytes_string(struct pd_bytes *b, const char *s);

struct peo_perfdata_writer;
struct pd_deflate; /* perfdata/write_zstd.c */

/* Bytes straight into the writer's buffer (no compression, no checks). */
PEO_HIDDEN int pd_writer_append(struct peo_perfdata_writer *w, const void *bytes, size_t len);

/* One more record of @type in the file, for peo_perfdata_writer_count(),
 * @size bytes given (0 for what compression made); @sign -1 takes one back
 * (a write that failed). */
PEO_HIDDEN void pd_writer_counted(struct peo_perfdata_writer *w, uint32_t type, size_t size,
				  int sign);

/* perfdata/write_file.c: the file's names and locks.  What pd_file_take() found. */
enum { PD_FILE_ABSENT, PD_FILE_REGULAR, PD_FILE_OTHER };
struct stat;
/* flock(@fd) exclusive, not waiting: 0 (also where there are no locks), or
 * -EBUSY naming @path and, from /proc/locks, the holder's pid. */
PEO_HIDDEN int pd_file_lock(int fd, const char *path);
/* What is at @path: PD_FILE_ABSENT; PD_FILE_OTHER (no regular file, or a
 * dangling link: written through); PD_FILE_REGULAR, *@st filled and *@fd
 * open on it and locked (-1 when it cannot be read), checked to be the
 * file @path names once locked.  -EBUSY when another writer holds it. */
PEO_HIDDEN int pd_file_take(const char *path, int *fd, struct stat *st);
/* A new file (0600), locked, in @path's directory: unnamed (O_TMPFILE,
 * *@temp NULL) where the filesystem can, else named @path.peo-XXXXXX
 * (*@temp its name, malloc'd).  Returns the fd, or a negative errno. */
PEO_HIDDEN int pd_file_temp(const char *path, char **temp);
/* The new file (named @temp, or unnamed @temp_fd when @temp is NULL)
 * becomes @path; a non-empty file at @path is kept as @path.old.
 * Returns 0, -EBUSY when @path or @path.old is another writer's (nothing
 * is renamed then), or the rename's negative errno. */
PEO_HIDDEN int pd_file_publish(const char *temp, int temp_fd, const char *path);
/* Unnamed file @fd named beside @path (@path.peo-PID-N), in *@name
 * (malloc'd): where a recording that could not be published stays.
 * Returns 0 or a negative errno. */
PEO_HIDDEN int pd_file_name(int fd, const char *path, char **name);

/* perfdata/write_zstd.c: records compressed into COMPRESSED records. */
PEO_HIDDEN int pd_deflate_new(struct pd_deflate **out, int level, size_t ring_bytes,
			      uint32_t record_type);
PEO_HIDDEN int pd_deflate_records(struct peo_perfdata_writer *w, struct pd_deflate *z,
				  const void *bytes, size_t len);
/* Set the COMPRESSED feature (version, zstd, level, ratio, ring size). */
PEO_HIDDEN int pd_deflate_finish(struct peo_perfdata_writer *w, struct pd_deflate *z);
PEO_HIDDEN void pd_deflate_free(struct pd_deflate *z);
struct pd_event; /* perfdata/reader.h */

/* The writer's events so far, *@n of them. */
PEO_HIDDEN const struct pd_event *pd_writer_events(const struct peo_perfdata_writer *w, size_t *n);

/* perfdata/write_buildid.c: the files samples hit, for BUILD_ID. */
struct pd_hits;
PEO_HIDDEN int pd_hits_new(struct pd_hits **out, const struct peo_perfdata_writer *w);
PEO_HIDDEN void pd_hits_records(struct pd_hits *h, const unsigned char *bytes, size_t len);
PEO_HIDDEN int pd_hits_feature(struct peo_perfdata_writer *w, struct pd_hits *h);
PEO_HIDDEN void pd_hits_free(struct pd_hits *h);

#endif
