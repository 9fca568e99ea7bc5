/*
 * zstd.c - records inside COMPRESSED and COMPRESSED2 records
 * (perf record -z): each holds zstd data whose output is a run of records;
 * a record may be cut at the end of one and go on in the next, so the tail
 * is kept until then.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/stream.h"

#ifdef PEO_HAVE_ZSTD
#include <zstd.h>

/*
 * perf compresses one ring's worth at a time, and says how large a ring is
 * (COMPRESSED's mmap_len): a record expands to at most that.  Without the
 * feature, 64 MiB bounds what a forged record can make us allocate.
 */
#define MAX_EXPANDED (64u << 20)

static size_t expand_limit(struct pd_header *h)
{
	struct peo_compressed z = { .sz = sizeof(z) };

	if (pd_header_compressed(h, &z) == 0 && z.mmap_len)
		return (size_t)z.mmap_len * 2 > (1u << 20) ? (size_t)z.mmap_len * 2 : (1u << 20);
	return MAX_EXPANDED;
}

struct pd_inflate {
	ZSTD_DStream *ds;
	unsigned char *out;
	size_t cap, len, at; /* out[at, len) is not handed out yet */
};

/* Make room for @more bytes after out[len]; false past @limit. */
static int grow(struct pd_inflate *z, size_t more, size_t limit)
{
	size_t cap = z->cap ? z->cap : 1u << 20;
	unsigned char *p;

	while (cap - z->len < more) {
		if (cap >= limit)
			return 0;
		cap *= 2;
	}
	if (cap == z->cap)
		return 1;
	p = realloc(z->out, cap);
	if (!p)
		return 0;
	z->out = p;
	z->cap = cap;
	return 1;
}

int pd_inflate_start(struct pd_stream *s, const struct peo_record *r, uint64_t offset)
{
	const unsigned char *src = (const unsigned char *)r->bytes + 8;
	size_t n = r->header.size - 8;
	struct pd_inflate *z = s->inflate;
	ZSTD_inBuffer in;
	size_t limit;

	if (r->header.type == PEO_RECORD_COMPRESSED2) { /* u64 data_size, data, padding */
		uint64_t size;

		if (n < 8 || (size = peo_pd_u64(s->hdr, src)) > n - 8)
			return peo_fail(EPROTO, "perf.data: COMPRESSED2 at offset %llu: its data_size "
					"runs past the record's %u bytes", (unsigned long long)offset,
					r->header.size);
		src += 8;
		n = (size_t)size;
	}
	if (!z) {
		z = calloc(1, sizeof(*z));
		if (!z || !(z->ds = ZSTD_createDStream())) {
			free(z);
			return peo_fail(ENOMEM, "out of memory for a zstd stream");
		}
		s->inflate = z;
	}
	/* Keep the cut-off tail of the last run at the front. */
	if (z->at) {
		memmove(z->out, z->out + z->at, z->len - z->at);
		z->len -= z->at;
		z->at = 0;
	}
	in.src = src;
	in.size = n;
	in.pos = 0;
	limit = expand_limit(s->hdr);
	while (in.pos < in.size) {
		ZSTD_outBuffer o;
		size_t ret;

		if (!grow(z, ZSTD_DStreamOutSize(), limit))
			return peo_fail(EPROTO, "perf.data: the compressed record at offset %llu expands "
					"past %zu KiB, more than a ring (COMPRESSED's mmap_len)",
					(unsigned long long)offset, limit >> 10);
		o.dst = z->out;
		o.size = z->cap;
		o.pos = z->len;
		ret = ZSTD_decompressStream(z->ds, &o, &in);
		if (ZSTD_isError(ret))
			return peo_fail(EPROTO, "perf.data: the compressed record at offset %llu: zstd "
					"says %s (at byte %zu of its %zu)", (unsigned long long)offset,
					ZSTD_getErrorName(ret), in.pos, in.size);
		z->len = o.pos;
	}
	return 0;
}

int pd_inflate_next(struct pd_stream *s, const void **rec, size_t *len)
{
	struct pd_inflate *z = s->inflate;
	struct peo_event_header h;

	if (!z || z->len - z->at < sizeof(h))
		return 0;
	h = peo_load_header(z->out + z->at, s->hdr->swap);
	if (h.size < sizeof(h))
		return peo_fail(EPROTO, "perf.data: a record expanded from the compressed one before "
				"offset %llu has size %u", (unsigned long long)s->src.pos, h.size);
	if (h.size > z->len - z->at)
		return 0; /* it goes on in the next compressed record */
	*rec = z->out + z->at;
	*len = h.size;
	z->at += h.size;
	return 1;
}

void pd_inflate_free(struct pd_stream *s)
{
	if (!s->inflate)
		return;
	ZSTD_freeDStream(s->inflate->ds);
	free(s->inflate->out);
	free(s->inflate);
	s->inflate = NULL;
}

#else /* !PEO_HAVE_ZSTD */

int pd_inflate_start(struct pd_stream *s, const struct peo_record *r, uint64_t offset)
{
	(void)s;
	(void)r;
	return peo_fail(ENOTSUP, "perf.data: compressed records (perf record -z) at offset %llu: "
			"this peo was built without zstd; install libzstd-dev and rebuild",
			(unsigned long long)offset);
}

int pd_inflate_next(struct pd_stream *s, const void **rec, size_t *len)
{
	(void)s;
	(void)rec;
	(void)len;
	return 0;
}

void pd_inflate_free(struct pd_stream *s)
{
	(void)s;
}

#endif
