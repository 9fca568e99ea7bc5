/*
 * tie_dir.c - the directory of tie_dir.h: samples written as the kernel
 * lays them out for the header file's event, plain or in COMPRESSED
 * records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peo/peo.h"
#include "synth_sample.h"
#include "tie_dir.h"

#ifdef PEO_HAVE_ZSTD
#include <zstd.h>
#endif

#define TURN_BYTES (2u << 20)       /* what perf reads of one stream before the next */
#define INFLATED_BYTES (3u << 20)   /* TIE_FILL_INFLATED's samples, inflated */
#define BATCH (64u << 10)           /* samples compressed together, as one ring's span */
#define COMPRESSED_MAX 65535u       /* a record's u16 size */
#define RING_BYTES (1u << 20)       /* the COMPRESSED feature's mmap_len: room to inflate a span */


/* Where a data file's records go: straight to the file, or batched and compressed. */
struct sink {
	FILE *fp;
	uint64_t bytes;  /* in the file */
	const char *bad; /* why writing failed, NULL while it has not */
#ifdef PEO_HAVE_ZSTD
	ZSTD_CCtx *z; /* NULL: plain */
	unsigned char out[COMPRESSED_MAX];
#endif
	size_t used;
	unsigned char batch[BATCH];
};

static void put_bytes(struct sink *s, const void *p, size_t len)
{
	if (!s->bad && fwrite(p, 1, len, s->fp) != len)
		s->bad = strerror(errno);
	s->bytes += len;
}

/* The batch into the file: as it is, or as COMPRESSED records (one zstd stream, flushed). */
static void flush(struct sink *s)
{
#ifdef PEO_HAVE_ZSTD
	ZSTD_inBuffer in = { s->batch, s->used, 0 };
	size_t left;

	if (s->z) {
		do {
			ZSTD_outBuffer o = { s->out + 8, sizeof(s->out) - 8, 0 };
			struct peo_event_header h = { PEO_RECORD_COMPRESSED, 0, 0 };

			left = ZSTD_compressStream2(s->z, &o, &in, ZSTD_e_flush);
			if (ZSTD_isError(left)) {
				s->bad = ZSTD_getErrorName(left);
				break;
			}
			if (!o.pos)
				continue;
			h.size = (uint16_t)(8 + o.pos); /* not padded: every byte is zstd's */
			memcpy(s->out, &h, sizeof(h));
			put_bytes(s, s->out, 8 + o.pos);
		} while (left || in.pos < in.size);
		s->used = 0;
		return;
	}
#endif
	put_bytes(s, s->batch, s->used);
	s->used = 0;
}

static void put_sample(struct sink *s, uint64_t ip, uint64_t time)
{
	struct synth_sample r = synth_sample(ip, 500, 700, time);

	memcpy(s->batch + s->used, &r, sizeof(r));
	s->used += sizeof(r);
	if (s->used + sizeof(r) > sizeof(s->batch))
		flush(s); /* at once: the file's bytes say when 2 MiB are in */
}

static int compressing(const struct sink *s)
{
#ifdef PEO_HAVE_ZSTD
	return s->z != NULL;
#else
	(void)s;
	return 0;
#endif
}

/* The file's bytes for the records given so far (a compressed batch's once flushed). */
static uint64_t in_file(const struct sink *s)
{
	return s->bytes + (compressing(s) ? 0 : s->used);
}

/* The first name's records before its tie, as @fill says. */
static void put_fill(struct sink *s, enum tie_fill fill, uint64_t ip)
{
	uint64_t time = 1, x = 0x9e3779b97f4a7c15u;

	if (fill == TIE_FILL_TURN) {
		while (in_file(s) < TURN_BYTES) {
			/* ips that differ (xorshift) keep compression from
			 * shrinking 2 MiB of file into a hundred MiB of samples */
			put_sample(s, ip ^ (synth_next(&x) & ~0xfffu), time++);
		}
		flush(s);
		put_sample(s, TIE_DIR_LATE_IP, time); /* the second turn's */
	} else if (fill == TIE_FILL_INFLATED) {
		for (uint64_t given = 0; given < INFLATED_BYTES; given += sizeof(struct synth_sample))
			put_sample(s, ip, time++);
	} else if (fill == TIE_FILL_UNSORTED) {
		/* span k of series r: 100 samples 2 us apart from 200k us + r ns */
		for (uint64_t span = 0; span < 8; span++)
			for (uint64_t i = 0; i < 100; i++)
				put_sample(s, ip, 2000 * (span / 2 * 100 + i) + span % 2 + 1);
	}
	flush(s); /* the tie starts a record of its own */
}

static int header_file(const char *dir, const struct tie_dir_opts *o, char *why, size_t cap)
{
	/* COMPRESSED: u32 version, type (1: zstd), level, ratio, mmap_len */
	static const uint32_t zstd_feature[5] = { 0, 1, 1, 1, RING_BYTES };
	struct peo_attr a;
	struct peo_perfdata_writer *w;
	struct peo_event_header init = { PEO_RECORD_FINISHED_INIT, 0, sizeof(init) };
	uint64_t id = 901, version = 1;
	char path[4096];

	synth_sample_attr(&a, o->sample_id_all);
	snprintf(path, sizeof(path), "%s/data", dir);
	if (peo_perfdata_writer_open(&w, path))
		goto failed;
	/* a record, as perf's header file always has: perf takes a data size
	 * of 0 for a recording cut short and reads the features as records */
	if (peo_perfdata_writer_add_event(w, &a, &id, 1, "cpu-clock") ||
	    peo_perfdata_writer_record(w, &init, sizeof(init)) ||
	    peo_perfdata_writer_feature(w, PEO_FEAT_DIR_FORMAT, &version, sizeof(version)) ||
	    (o->compress && peo_perfdata_writer_feature(w, PEO_FEAT_COMPRESSED, zstd_feature,
						     sizeof(zstd_feature)))) {
		peo_perfdata_writer_abandon(w);
		goto failed;
	}
	if (!peo_perfdata_writer_close(w))
		return 0;
failed:
	snprintf(why, cap, "%s: %s", path, peo_last_error());
	return -1;
}

/* A data file's sink at @path, compressed or not; NULL with why in @why. */
static struct sink *sink_open(const char *path, int compress, char *why, size_t cap)
{
	struct sink *s = calloc(1, sizeof(*s));

	if (!s || !(s->fp = fopen(path, "w"))) {
		snprintf(why, cap, "%s: %s", path, strerror(s ? errno : ENOMEM));
		free(s);
		return NULL;
	}
#ifdef PEO_HAVE_ZSTD
	if (compress && !(s->z = ZSTD_createCCtx()))
		s->bad = "out of memory for a zstd stream";
#else
	(void)compress;
#endif
	return s;
}

/* Flush and close @s (freed); its file's bytes in *@bytes.  0, or -1 with why. */
static int sink_close(struct sink *s, const char *path, uint64_t *bytes, char *why, size_t cap)
{
	int err = 0;

	flush(s);
	if (fclose(s->fp) && !s->bad)
		s->bad = strerror(errno);
	if (s->bad) {
		snprintf(why, cap, "%s: %s", path, s->bad);
		err = -1;
	}
	*bytes = s->bytes;
#ifdef PEO_HAVE_ZSTD
	ZSTD_freeCCtx(s->z);
#endif
	free(s);
	return err;
}

/* A data file: @fill's records, then the tie at TIE_DIR_NS. */
static int data_file(const char *path, enum tie_fill fill, int compress, uint64_t ip,
		     char *why, size_t cap)
{
	struct sink *s = sink_open(path, compress, why, cap);
	uint64_t bytes;

	if (!s)
		return -1;
	put_fill(s, fill, ip);
	put_sample(s, ip, TIE_DIR_NS);
	if (fill == TIE_FILL_UNSORTED)
		put_sample(s, TIE_DIR_LATE_IP, TIE_DIR_NS - 1);
	if (sink_close(s, path, &bytes, why, cap))
		return -1;
	if (fill == TIE_FILL_INFLATED && bytes >= TURN_BYTES) {
		snprintf(why, cap, "%s: %llu bytes of samples that should have compressed under 2 MiB",
			 path, (unsigned long long)bytes);
		return -1;
	}
	return 0;
}

/* Compression asked of a build without zstd: refused, said so. */
static int no_zstd(const struct tie_dir_opts *o, char *why, size_t cap)
{
#ifndef PEO_HAVE_ZSTD
	if (o->compress) {
		snprintf(why, cap, "no zstd: peo's tests were built without libzstd-dev");
		return -1;
	}
#else
	(void)o, (void)why, (void)cap;
#endif
	return 0;
}

int tie_dir_write_times(const char *dir, const struct tie_dir_opts *o, const char *const *names,
			size_t n, const uint64_t *const *times, const size_t *counts, char *why,
			size_t cap)
{
	char path[4096];

	if (no_zstd(o, why, cap) || header_file(dir, o, why, cap))
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct sink *s;
		uint64_t bytes;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!(s = sink_open(path, o->compress, why, cap)))
			return -1;
		for (size_t j = 0; j < counts[i]; j++)
			put_sample(s, TIE_DIR_TIMES_IP(i, j), times[i][j]);
		if (sink_close(s, path, &bytes, why, cap))
			return -1;
	}
	return 0;
}

int tie_dir_write(const char *dir, const struct tie_dir_opts *o, const char *const *names,
		  size_t n, char *why, size_t cap)
{
	char path[4096];

	if (no_zstd(o, why, cap))
		return -1;
	if (o->fill == TIE_FILL_INFLATED && !o->compress) {
		snprintf(why, cap, "TIE_FILL_INFLATED is for compressed files");
		return -1;
	}
	if (header_file(dir, o, why, cap))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *dot = strrchr(names[i], '.');

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (data_file(path, i ? TIE_FILL_NONE : o->fill, o->compress,
			      TIE_DIR_IP + strtoull(dot ? dot + 1 : "0", NULL, 10), why, cap))
			return -1;
	}
	return 0;
}
