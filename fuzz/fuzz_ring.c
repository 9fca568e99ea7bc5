/*
 * fuzz_ring.c - libFuzzer target for the ring reader (ring.c): records,
 * spans and overwrite snapshots over bytes no kernel would write.
 *
 * The input's first 16 bytes are data_tail and data_head (forward) or
 * data_head (overwrite, when bit 0 of byte 16 is set); the rest fills a
 * data area of 4096 bytes (zero-padded).  Every call must return a record
 * inside the ring, 0, or an error with a sentence; spans must be whole
 * records inside the ring; a snapshot's bytes must be whole records.
 *
 * Build and run: make fuzz.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h" /* peo_ring_over_memory, peo_ring_copy_newest */
#include "peo/peo.h"

#include "fuzz_check.h"

#define PAGE 4096
#define DATA 4096

static unsigned char mem[PAGE + DATA];
static unsigned char out[DATA];

static int inside(const void *p, size_t len)
{
	const unsigned char *c = p;

	return c >= mem + PAGE && c + len <= mem + PAGE + DATA;
}

static void forward(void)
{
	struct peo_ring *r;
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	unsigned char buf[512];
	int got, n = 0;

	CHECK(peo_ring_over_memory(&r, mem, DATA, 0) == 0);
	while (n++ < 2000 && (got = peo_ring_next(r, &rec, (n & 1) ? buf : NULL, sizeof(buf))) == 1) {
		CHECK(rec.header.size >= 8 && rec.header.size % 8 == 0);
		CHECK(inside(rec.seg[0], rec.seg_len[0]));
		CHECK(!rec.seg[1] || inside(rec.seg[1], rec.seg_len[1]));
		CHECK(rec.seg_len[0] + rec.seg_len[1] == rec.header.size);
		if (rec.seg[1] && rec.data)
			CHECK(rec.data == buf && !memcmp(buf, rec.seg[0], rec.seg_len[0]));
	}
	if (got < 0)
		CHECK(peo_last_error()[0]);
	peo_ring_unmap(r);

	CHECK(peo_ring_over_memory(&r, mem, DATA, 0) == 0);
	for (n = 0; n < 100; n++) {
		const void *seg[2];
		size_t len[2], whole;

		got = peo_ring_next_span(r, seg, len);
		if (got <= 0)
			break;
		CHECK(inside(seg[0], len[0]) && (!seg[1] || inside(seg[1], len[1])));
		CHECK(len[0] + len[1] >= (size_t)got * 8);
		whole = peo_ring_span_whole(r);
		CHECK(whole <= len[0]);
		if (whole < len[0]) { /* a record cut by the end: it starts there, ends in seg[1] */
			struct peo_event_header h;

			memcpy(&h, (const unsigned char *)seg[0] + whole, sizeof(h));
			CHECK(seg[1] && h.size > len[0] - whole && h.size - (len[0] - whole) <= len[1]);
		}
	}
	peo_ring_unmap(r);
}

static void overwrite(void)
{
	struct peo_ring *r;
	long got;

	CHECK(peo_ring_over_memory(&r, mem, DATA, 1) == 0);
	got = peo_ring_copy_newest(r, out, sizeof(out));
	if (got >= 0) {
		long at = 0;

		CHECK(got <= DATA);
		while (at < got) { /* whole records, back to back */
			struct peo_event_header h;

			memcpy(&h, out + at, sizeof(h));
			CHECK(h.size >= 8 && h.size % 8 == 0 && at + h.size <= got);
			at += h.size;
		}
	} else {
		CHECK(peo_last_error()[0]);
	}
	peo_ring_unmap(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct peo_mmap_page *ctl = (struct peo_mmap_page *)mem;
	uint64_t tail = 0, head = 0;
	int backward = size > 16 && (data[16] & 1);

	memset(mem, 0, sizeof(mem));
	if (size >= 16) {
		memcpy(&tail, data, 8);
		memcpy(&head, data + 8, 8);
		data += 16;
		size -= 16;
	}
	memcpy(mem + PAGE, data, size < DATA ? size : DATA);
	ctl->data_tail = tail & ~7ull; /* the reader starts where the kernel says */
	ctl->data_head = head;
	if (backward)
		overwrite();
	else
		forward();
	return 0;
}
