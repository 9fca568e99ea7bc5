/*
 * attr_host.c - an attr written in either byte order, as a host-order
 * struct peo_attr (records and perf.data carry the writer's order).
 */
#include <string.h>

#include "internal.h"

PEO_ASSERT_AT(struct peo_attr, sample_stack_user, 88);
PEO_ASSERT_AT(struct peo_attr, aux_watermark, 104);
PEO_ASSERT_AT(struct peo_attr, sample_max_stack, 108);
PEO_ASSERT_AT(struct peo_attr, aux_sample_size, 112);

/* Fields that are not u64, by offset: everything else is a u64. */
static const struct {
	unsigned short off, size;
} narrow[] = {
	{ 0, 4 }, { 4, 4 },     /* type, size */
	{ 48, 4 }, { 52, 4 },   /* wakeup_events, bp_type */
	{ 88, 4 }, { 92, 4 },   /* sample_stack_user, clockid */
	{ 104, 4 }, { 108, 2 }, { 110, 2 }, /* aux_watermark, sample_max_stack, reserved */
	{ 112, 4 }, { 116, 4 }, /* aux_sample_size, reserved (aux_action) */
};

static size_t field_size(size_t off)
{
	for (size_t i = 0; i < PEO_ARRAY_SIZE(narrow); i++)
		if (narrow[i].off == off)
			return narrow[i].size;
	return 8;
}

/* Bit i of @v moved to bit 63 - i: a bitfield word from the other end. */
static uint64_t reverse_bits(uint64_t v)
{
	uint64_t r = 0;

	for (int i = 0; i < 64; i++)
		if (v >> i & 1)
			r |= 1ULL << (63 - i);
	return r;
}

uint64_t peo_bitfield_word(uint64_t host_value, int swapped)
{
	return swapped ? reverse_bits(host_value) : host_value;
}

void peo_attr_to_host(const void *bytes, size_t avail, int swap, struct peo_attr *out)
{
	uint32_t size;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (avail < 8)
		return;
	size = peo_load_u32((const char *)bytes + 4, swap);
	n = size < avail ? size : avail;
	n = n < sizeof(*out) ? n : sizeof(*out);
	memcpy(out, bytes, n);
	if (!swap)
		return;
	for (size_t off = 0; off < n;) {
		size_t w = field_size(off);
		unsigned char *f = (unsigned char *)out + off;

		if (off + w > n)
			break;
		if (w == 8) {
			uint64_t v;

			memcpy(&v, f, 8);
			v = __builtin_bswap64(v);
			memcpy(f, &v, 8);
		} else if (w == 4) {
			uint32_t v;

			memcpy(&v, f, 4);
			v = __builtin_bswap32(v);
			memcpy(f, &v, 4);
		} else {
			uint16_t v;

			memcpy(&v, f, 2);
			v = __builtin_bswap16(v);
			memcpy(f, &v, 2);
		}
		off += w;
	}
	out->flags = reverse_bits(out->flags);
	/* aux_action's bitfields too: their 32-bit word from the other end */
	out->aux_action = (uint32_t)(reverse_bits(out->aux_action) >> 32);
}
