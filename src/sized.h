/*
 * sized.h - the structs a caller allocates and libpeo fills (common.h):
 * the size each had when first released, the least sz a caller may give.
 */
#ifndef PEO_SIZED_H
#define PEO_SIZED_H

#include <stddef.h>
#include <string.h>

#include "internal.h"

/* sizeof(@type) back when @last was its last field: the end of @last,
 * rounded up to the struct's alignment (which added fields do not raise:
 * every such struct already holds a size_t and a u64 or pointer). */
#define PEO_SIZE_AS_OF(type, last) \
	((offsetof(type, last) + sizeof(((type *)0)->last) + _Alignof(type) - 1) / \
	 _Alignof(type) * _Alignof(type))

/* As libpeo 0.1 released them. */
#define PEO_RECORD_SZ_0_1 PEO_SIZE_AS_OF(struct peo_record, unknown)
#define PEO_PERFDATA_RECORD_SZ_0_1 PEO_SIZE_AS_OF(struct peo_perfdata_record, rec)
#define PEO_RING_RECORD_SZ_0_1 PEO_SIZE_AS_OF(struct peo_ring_record, copied)
#define PEO_RING_STATS_SZ_0_1 PEO_SIZE_AS_OF(struct peo_ring_stats, overruns)
#define PEO_READ_VALUE_SZ_0_1 PEO_SIZE_AS_OF(struct peo_read_value, lost)
/* peo_branch ends in two words of bits after `to`. */
#define PEO_BRANCH_SZ_0_1 (offsetof(struct peo_branch, to) + 8 + 2 * sizeof(unsigned))
#define PEO_DATA_SRC_SZ_0_1 PEO_SIZE_AS_OF(struct peo_data_src, hops)
#define PEO_CALLCHAIN_ITER_SZ_0_1 PEO_SIZE_AS_OF(struct peo_callchain_iter, context)
#define PEO_USER_RECORD_SZ_0_1 PEO_SIZE_AS_OF(struct peo_user_record, u)
#define PEO_PERFDATA_COUNTS_SZ_0_1 PEO_SIZE_AS_OF(struct peo_perfdata_counts, lost_samples_by_event)
#define PEO_COMPRESSED_SZ_0_1 PEO_SIZE_AS_OF(struct peo_compressed, mmap_len)
#define PEO_CLOCK_DATA_SZ_0_1 PEO_SIZE_AS_OF(struct peo_clock_data, clockid_time_ns)
#define PEO_MEM_TOPOLOGY_SZ_0_1 PEO_SIZE_AS_OF(struct peo_mem_topology, count)
/* As libpeo 0.2 released them. */
#define PEO_FRAME_SZ_0_2 PEO_SIZE_AS_OF(struct peo_frame, flags)
#define PEO_PERFDATA_LAYOUT_SZ_0_2 PEO_SIZE_AS_OF(struct peo_perfdata_layout, feat_offset)
#define PEO_DATA_SRC_SZ_0_2 PEO_SIZE_AS_OF(struct peo_data_src, region)
#define PEO_AUX_CHUNK_SZ_0_2 PEO_SIZE_AS_OF(struct peo_aux_chunk, pos)

/*
 * Every struct is still as released.  One that grows keeps its _0_1 size
 * above; libpeo then writes its new fields only where the caller's sz
 * covers them (and struct copies of it no longer fit an old caller's), and
 * its line here names the new last field.
 */
#define PEO_AS_RELEASED(type, sz_0_1) \
	_Static_assert(sizeof(type) == (sz_0_1), #type " grew: see sized.h")
PEO_AS_RELEASED(struct peo_record, PEO_RECORD_SZ_0_1);
PEO_AS_RELEASED(struct peo_perfdata_record, PEO_PERFDATA_RECORD_SZ_0_1);
PEO_AS_RELEASED(struct peo_ring_record, PEO_RING_RECORD_SZ_0_1);
PEO_AS_RELEASED(struct peo_ring_stats, PEO_RING_STATS_SZ_0_1);
PEO_AS_RELEASED(struct peo_read_value, PEO_READ_VALUE_SZ_0_1);
PEO_AS_RELEASED(struct peo_branch, PEO_BRANCH_SZ_0_1);
PEO_AS_RELEASED(struct peo_data_src, PEO_DATA_SRC_SZ_0_2);
PEO_AS_RELEASED(struct peo_callchain_iter, PEO_CALLCHAIN_ITER_SZ_0_1);
PEO_AS_RELEASED(struct peo_user_record, PEO_USER_RECORD_SZ_0_1);
PEO_AS_RELEASED(struct peo_perfdata_counts, PEO_PERFDATA_COUNTS_SZ_0_1);
PEO_AS_RELEASED(struct peo_compressed, PEO_COMPRESSED_SZ_0_1);
PEO_AS_RELEASED(struct peo_clock_data, PEO_CLOCK_DATA_SZ_0_1);
PEO_AS_RELEASED(struct peo_mem_topology, PEO_MEM_TOPOLOGY_SZ_0_1);
PEO_AS_RELEASED(struct peo_frame, PEO_FRAME_SZ_0_2);
PEO_AS_RELEASED(struct peo_perfdata_layout, PEO_PERFDATA_LAYOUT_SZ_0_2);
PEO_AS_RELEASED(struct peo_aux_chunk, PEO_AUX_CHUNK_SZ_0_2);

/* opts.c: peo_sized() past its common case. */
PEO_HIDDEN int peo_sized_check(void *out, size_t sz, size_t first, size_t known,
				     const char *type);

/*
 * Before writing a caller's sized struct @out: 0 when its sz is at least
 * @first (the size first released), having zeroed its bytes past @known
 * (the size this libpeo knows: sizeof); else -EINVAL with the sentence.
 * Inline for the common sz == @known: record parses call it each time.
 */
static inline int peo_sized(void *out, size_t first, size_t known, const char *type)
{
	size_t sz;

	memcpy(&sz, out, sizeof(sz));
	if (__builtin_expect(sz == known, 1))
		return 0;
	return peo_sized_check(out, sz, first, known, type);
}

/* peo_sized() for @out, a struct @name whose first size is @first. */
#define PEO_SIZED(out, name, first) peo_sized(out, first, sizeof(struct name), #name)

#endif
