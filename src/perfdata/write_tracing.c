/*
 * write_tracing.c - the TRACING_DATA feature for a recording's
 * tracepoints: tracefs's header_page and header_event and the format file
 * of each tracepoint event, in the layout perf writes (version 0.6), so
 * that perf script and peo script decode the payloads without the
 * recording machine's tracefs.  Like perf, it also copies tracefs' printk
 * formats (the kernel strings behind `const char *` fields) and saved
 * cmdlines, and writes no ftrace formats and an empty kallsyms.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event_internal.h" /* peo_tracefs_dir, peo_tracepoint_file */
#include "perfdata/reader.h"
#include "perfdata/write.h"

/*
 * The whole of file @path into @b as its size (@size_bytes: 8, or 4 where
 * the layout has a u32) and its bytes; 0, or -1 when unreadable.  tracefs
 * files stat as empty: read to the end.
 */
static int put_file(struct pd_bytes *b, const char *path, size_t size_bytes)
{
	FILE *in = fopen(path, "re");
	char chunk[4096];
	size_t at = b->n, n;
	uint64_t size = 0;

	if (!in)
		return -1;
	pd_bytes_put(b, "\0\0\0\0\0\0\0", size_bytes); /* the size, patched below */
	while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0) {
		pd_bytes_put(b, chunk, n);
		size += n;
	}
	fclose(in);
	if (size_bytes == 4 && size > UINT32_MAX)
		b->oom = 1; /* a 4 GiB printk list: no real tracefs; fail as other overflows */
	if (b->oom)
		return 0;
	if (size_bytes == 4) /* the host's byte order, as the whole file */
		memcpy(b->p + at, &(uint32_t){ (uint32_t)size }, 4);
	else
		memcpy(b->p + at, &size, 8);
	return 0;
}

/* tracefs file @name into @b as its @size_bytes size and bytes; empty when missing. */
static void put_tracefs_file(struct pd_bytes *b, const char *dir, const char *name,
			     size_t size_bytes)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (put_file(b, path, size_bytes))
		pd_bytes_put(b, "\0\0\0\0\0\0\0", size_bytes);
}

/*
 * The tracepoint of @ev as "sys" and "name" (its display name, modifiers
 * such as ":u" left off), confirmed by the tracepoint's id in tracefs being
 * the attr's config: 1, or 0 when it is not one we can find (a renamed
 * event: the reader then takes this machine's formats).
 */
static int tracepoint_of(const struct pd_event *ev, const char *dir, char *sys, size_t cap,
			 char *name, size_t name_cap)
{
	const struct peo_attr *a = &ev->attr;
	const char *full = ev->name, *colon = full ? strchr(full, ':') : NULL;
	size_t len = colon ? strcspn(colon + 1, ":") : 0;
	char path[4096];
	long id;

	if (a->type != PEO_TYPE_TRACEPOINT || !colon || (size_t)(colon - full) >= cap || !len ||
	    len >= name_cap || memchr(colon + 1, '/', len))
		return 0;
	snprintf(sys, cap, "%.*s", (int)(colon - full), full);
	snprintf(name, name_cap, "%.*s", (int)len, colon + 1);
	peo_tracepoint_file(path, sizeof(path), dir, sys, name, "id");
	return !peo_read_long_file(path, &id) && (uint64_t)id == a->config;
}

/* Each tracepoint event's system, as "sys\0" u32 1 + its format, into
 * @b; how many, or -ENOENT when a format cannot be read. */
static int put_systems(struct pd_bytes *b, const struct pd_event *ev, size_t n, const char *dir)
{
	char path[4096], sys[128], name[256];
	int nsys = 0;

	for (size_t i = 0; i < n; i++) {
		if (!tracepoint_of(&ev[i], dir, sys, sizeof(sys), name, sizeof(name)))
			continue;
		pd_bytes_put(b, sys, strlen(sys) + 1);
		pd_bytes_u32(b, 1);
		peo_tracepoint_file(path, sizeof(path), dir, sys, name, "format");
		if (put_file(b, path, 8))
			return peo_fail(ENOENT, "perf.data writer: cannot read the format of %s:%s "
					"(%s)", sys, name, path);
		nsys++;
	}
	return nsys;
}

static int any_tracepoint(const struct pd_event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ev[i].attr.type == PEO_TYPE_TRACEPOINT)
			return 1;
	return 0;
}

int peo_perfdata_writer_tracing_data(struct peo_perfdata_writer *w, const char *tracefs)
{
	size_t n = 0;
	const struct pd_event *ev = w ? pd_writer_events(w, &n) : NULL;
	const char *dir;
	struct pd_bytes b = { 0 };
	size_t count_at;
	int nsys, err;

	if (!w)
		return peo_fail(EINVAL, "peo_perfdata_writer_tracing_data: argument 'w' is NULL");
	if (!any_tracepoint(ev, n))
		return 0; /* nothing to describe: tracefs is not read */
	dir = peo_tracefs_dir(tracefs);
	if (!dir)
		return 0; /* no tracefs mounted: no formats to write (a reader takes its own) */
	pd_bytes_put(&b, "\x17\x08" "Dtracing" "0.6", 14); /* the magic, the version, its NUL */
	/* the numbers' byte order: this host's, as the sizes below are written */
	pd_bytes_put(&b, (const char[]){ __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ }, 1);
	pd_bytes_put(&b, (const char[]){ (char)sizeof(long) }, 1);
	pd_bytes_u32(&b, (uint32_t)sysconf(_SC_PAGESIZE));
	pd_bytes_put(&b, "header_page", 12);
	put_tracefs_file(&b, dir, "events/header_page", 8);
	pd_bytes_put(&b, "header_event", 13);
	put_tracefs_file(&b, dir, "events/header_event", 8);
	pd_bytes_u32(&b, 0); /* ftrace formats */
	/* one system per tracepoint event, as each may have its own (perf groups
	 * them; both read); their count, patched below, comes first */
	count_at = b.n;
	pd_bytes_u32(&b, 0);
	nsys = put_systems(&b, ev, n, dir);
	if (nsys <= 0) { /* none: perf writes no such section either */
		free(b.p);
		return nsys;
	}
	if (!b.oom)
		memcpy(b.p + count_at, &(uint32_t){ (uint32_t)nsys }, 4);
	pd_bytes_u32(&b, 0); /* kallsyms: empty, as perf writes it */
	put_tracefs_file(&b, dir, "printk_formats", 4);
	put_tracefs_file(&b, dir, "saved_cmdlines", 8);
	err = b.oom ? peo_fail(ENOMEM, "out of memory making TRACING_DATA")
		    : peo_perfdata_writer_feature(w, PEO_FEAT_TRACING_DATA, b.p, b.n);
	free(b.p);
	return err;
}
