/*
 * script_out.c - writing peo script's block buffer out (the formatting is
 * inline in script_out.h).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "script_out.h"

int out_flush(struct out *o)
{
	size_t done = 0;

	while (!o->failed && done < o->n) {
		ssize_t w = write(o->fd, o->buf + done, o->n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			o->failed = 1;
		else
			done += (size_t)w;
	}
	o->n = 0;
	return o->failed ? -1 : 0;
}
