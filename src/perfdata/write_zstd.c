/*
 * write_zstd.c - records written zstd-compressed, as perf record -z
 * writes them: one zstd stream through the whole recording, each span of
 * records compressed and flushed, its output cut into COMPRESSED records of
 * at most 64 KiB (a record inside may go on in the next one; readers keep
 * the stream's tail).  A COMPRESSED record's size is not padded to 8: its
 * bytes are all zstd's.  COMPRESSED2 says how many are zstd's (a u64 after
 * the header) and pads the record to 8, so the next header is aligned.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/reader.h"
#include "perfdata/write.h"

#define COMPRESSED_MAX 65535u /* a record's u16 size */
#define COMPRESSED2_MAX (COMPRESSED_MAX & ~7u)

#ifdef PEO_HAVE_ZSTD
#include <zstd.h>

struct pd_deflate {
	ZSTD_CStream *cs;
	int level;
	uint32_t type;   /* PEO_RECORD_COMPRESSED or COMPRESSED2 */
	size_t head;     /* bytes before the zstd data: header, and data_size in v2 */
	size_t room;     /* zstd bytes one record holds */
	size_t ring_bytes;
	uint64_t in, out; /* bytes given and made, for the ratio */
	unsigned char rec[COMPRESSED_MAX];
};

int pd_deflate_new(struct pd_deflate **out, int level, size_t ring_bytes, uint32_t record_type)
{
	struct pd_deflate *z;

	if (level < 1 || level > ZSTD_maxCLevel())
		return peo_fail(EINVAL, "perf.data writer: zstd level %d is not 1 to %d", level,
				ZSTD_maxCLevel());
	z = calloc(1, sizeof(*z));
	if (!z || !(z->cs = ZSTD_createCStream())) {
		free(z);
		return peo_fail(ENOMEM, "out of memory for a zstd stream");
	}
	if (ZSTD_isError(ZSTD_CCtx_setParameter(z->cs, ZSTD_c_compressionLevel, level))) {
		pd_deflate_free(z);
		return peo_fail(EINVAL, "perf.data writer: zstd refuses level %d", level);
	}
	z->level = level;
	z->type = record_type;
	z->head = record_type == PEO_RECORD_COMPRESSED2 ? 16 : 8;
	z->room = (record_type == PEO_RECORD_COMPRESSED2 ? COMPRESSED2_MAX : COMPRESSED_MAX) - z->head;
	z->ring_bytes = ring_bytes;
	*out = z;
	return 0;
}

int pd_deflate_records(struct peo_perfdata_writer *w, struct pd_deflate *z, const void *bytes,
		       size_t len)
{
	ZSTD_inBuffer in = { bytes, len, 0 };
	size_t left;

	do { /* flush: every byte given is in some COMPRESSED record when this returns */
		ZSTD_outBuffer o = { z->rec + z->head, z->room, 0 };
		struct peo_event_header h;
		size_t size;
		int err;

		left = ZSTD_compressStream2(z->cs, &o, &in, ZSTD_e_flush);
		if (ZSTD_isError(left))
			return peo_fail(EIO, "perf.data writer: zstd: %s", ZSTD_getErrorName(left));
		if (!o.pos)
			continue;
		size = z->head + o.pos;
		if (z->type == PEO_RECORD_COMPRESSED2) {
			uint64_t data_size = o.pos;

			memcpy(z->rec + 8, &data_size, sizeof(data_size));
			memset(z->rec + size, 0, -size & 7);
			size += -size & 7;
		}
		h.type = z->type;
		h.misc = 0;
		h.size = (uint16_t)size;
		memcpy(z->rec, &h, sizeof(h));
		if ((err = pd_writer_append(w, z->rec, size)))
			return err;
		pd_writer_counted(w, z->type, 0, 1);
		z->out += o.pos;
	} while (left || in.pos < in.size);
	z->in += len;
	return 0;
}

int pd_deflate_finish(struct peo_perfdata_writer *w, struct pd_deflate *z)
{
	/* u32 version, type (1: zstd), level, ratio, mmap_len, as perf */
	uint32_t v[5] = { 0, 1, (uint32_t)z->level,
			  (uint32_t)(z->out ? (z->in + z->out / 2) / z->out : 0),
			  (uint32_t)z->ring_bytes };

	return peo_perfdata_writer_feature(w, PEO_FEAT_COMPRESSED, v, sizeof(v));
}

void pd_deflate_free(struct pd_deflate *z)
{
	if (!z)
		return;
	ZSTD_freeCStream(z->cs);
	free(z);
}

#else /* !PEO_HAVE_ZSTD */

struct pd_deflate {
	int unused;
};

int pd_deflate_new(struct pd_deflate **out, int level, size_t ring_bytes, uint32_t record_type)
{
	(void)out;
	(void)level;
	(void)ring_bytes;
	(void)record_type;
	return peo_fail(ENOTSUP, "perf.data writer: peo was built without zstd; install "
			"libzstd-dev and rebuild to compress");
}

int pd_deflate_records(struct peo_perfdata_writer *w, struct pd_deflate *z, const void *bytes,
		       size_t len)
{
	(void)w;
	(void)z;
	(void)bytes;
	(void)len;
	return -ENOTSUP;
}

int pd_deflate_finish(struct peo_perfdata_writer *w, struct pd_deflate *z)
{
	(void)w;
	(void)z;
	return -ENOTSUP;
}

void pd_deflate_free(struct pd_deflate *z)
{
	(void)z;
}

#endif
