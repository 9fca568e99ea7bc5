/*
 * negotiate.c - perf_event_open with attr size negotiation.
 *
 * We always pass our full struct.  A kernel with a smaller struct accepts it
 * when every byte past its size is zero; otherwise it answers E2BIG and writes
 * its size back.  We then name the fields that caused it, or, if none did
 * (a kernel stricter than the documented rule), retry at its size.  A
 * failure's sentence names its likely cause (explain.c): this is the open
 * the layers above use, where peo_sys_perf_event_open() is the bare call.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static int bytes_nonzero(const unsigned char *p, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		if (p[i])
			return 1;
	return 0;
}

/* Lists the fields with a non-zero byte at or past @ksize; returns how many. */
static int name_fields_past(struct peo_buf *b, const struct peo_attr *attr, uint32_t ksize)
{
	const unsigned char *p = (const unsigned char *)attr;
	const struct peo_attr_field *f;
	size_t n, i;
	int found = 0;

	f = peo_attr_fields(&n);
	for (i = 0; i < n; i++) {
		size_t end = (size_t)f[i].offset + f[i].size;
		size_t from = f[i].offset > ksize ? f[i].offset : ksize;

		if (end <= ksize || !bytes_nonzero(p, from, end))
			continue;
		peo_buf_printf(b, "%sattr.%s needs perf_event_attr size >= %u (Linux %s)",
			       found ? ", " : "", f[i].name, f[i].needs_size, f[i].since);
		found++;
	}
	if (found)
		peo_buf_printf(b, "; this kernel accepts %u", ksize);
	return found;
}

int peo_sys_open(const struct peo_attr *attr, pid_t pid, int cpu, int group_fd,
		 unsigned long flags)
{
	struct peo_attr a;
	uint32_t ksize;
	char call[160];
	char why[512];
	struct peo_buf b = { why, sizeof(why), 0 };
	int fd;

	if (!attr)
		return peo_fail(EINVAL, "peo_sys_open: attr is NULL: pass a struct peo_attr set up with peo_attr_init()");
	a = *attr;
	a.size = sizeof(a);
	fd = peo_open_explained(&a, pid, cpu, group_fd, flags);
	if (fd != -E2BIG)
		return fd;
	ksize = a.size;
	if (ksize < PEO_ATTR_SIZE_VER0 || ksize >= sizeof(a))
		return fd; /* the explained sentence already says what the kernel did */
	if (name_fields_past(&b, attr, ksize)) {
		peo_open_call_text(call, sizeof(call), attr, pid, cpu, group_fd, flags);
		return peo_fail(E2BIG, "%s: %s: %s", call, strerror(E2BIG), why);
	}
	/* Nothing we ask for lies past the kernel's size: speak its size. */
	a = *attr;
	a.size = ksize;
	return peo_open_explained(&a, pid, cpu, group_fd, flags);
}
