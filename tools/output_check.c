/*
 * output_check.c - the end of a command's output: flushed and closed, and
 * a write that failed on the way (a full disk, /dev/full, a closed pipe
 * reader) said in one sentence instead of an exit 0 without a word.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"

int output_finish(const char *tool, FILE *f, const char *name)
{
	int err, failed;

	if (!f)
		return 0;
	errno = 0;
	/* ferror: a write failed earlier (stdio keeps the flag); the flush
	 * and the close: what was still buffered, and the file system's say */
	failed = fflush(f) != 0;
	err = errno;
	failed |= ferror(f) != 0;
	if (fclose(f) != 0 && !failed) {
		failed = 1;
		err = errno;
	}
	if (!failed)
		return 0;
	fprintf(stderr, "peo %s: writing %s: %s\n", tool, name, strerror(err ? err : EIO));
	return 1;
}
