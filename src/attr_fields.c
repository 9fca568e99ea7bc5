/*
 * attr_fields.c - which attr fields came with which size, and when.
 * Facts from the kernel's PERF_ATTR_SIZE_VERn history.
 */
#include <string.h>

#include "internal.h"

#define FIELD(f, ver, rel) \
	{ #f, offsetof(struct peo_attr, f), sizeof(((struct peo_attr *)0)->f), ver, rel }

static const struct peo_attr_field fields[] = {
	FIELD(config2, PEO_ATTR_SIZE_VER1, "2.6.39"),
	FIELD(branch_sample_type, PEO_ATTR_SIZE_VER2, "3.4"),
	FIELD(sample_regs_user, PEO_ATTR_SIZE_VER3, "3.7"),
	FIELD(sample_stack_user, PEO_ATTR_SIZE_VER3, "3.7"),
	FIELD(clockid, PEO_ATTR_SIZE_VER3, "4.1"),
	FIELD(sample_regs_intr, PEO_ATTR_SIZE_VER4, "3.19"),
	FIELD(aux_watermark, PEO_ATTR_SIZE_VER5, "4.1"),
	FIELD(sample_max_stack, PEO_ATTR_SIZE_VER5, "4.8"),
	FIELD(aux_sample_size, PEO_ATTR_SIZE_VER6, "5.5"),
	FIELD(aux_action, PEO_ATTR_SIZE_VER6, "6.13"),
	FIELD(sig_data, PEO_ATTR_SIZE_VER7, "5.13"),
	FIELD(config3, PEO_ATTR_SIZE_VER8, "6.3"),
	FIELD(config4, PEO_ATTR_SIZE_VER9, "6.19"),
};

/* The field list ends exactly at our struct's size. */
PEO_STATIC_ASSERT(offsetof(struct peo_attr, config4) + sizeof(uint64_t) == sizeof(struct peo_attr),
		  "attr_fields.c lists the last field");

static const struct {
	uint32_t size;
	const char *since;
} sizes[] = {
	{ PEO_ATTR_SIZE_VER0, "2.6.31" }, { PEO_ATTR_SIZE_VER1, "2.6.39" },
	{ PEO_ATTR_SIZE_VER2, "3.4" },    { PEO_ATTR_SIZE_VER3, "3.7" },
	{ PEO_ATTR_SIZE_VER4, "3.19" },   { PEO_ATTR_SIZE_VER5, "4.1" },
	{ PEO_ATTR_SIZE_VER6, "5.5" },    { PEO_ATTR_SIZE_VER7, "5.13" },
	{ PEO_ATTR_SIZE_VER8, "6.3" },    { PEO_ATTR_SIZE_VER9, "6.19" },
};

PEO_STATIC_ASSERT(PEO_ARRAY_SIZE(sizes) == PEO_ATTR_SIZE_VERS, "internal.h counts every VERn");

int peo_attr_size_ver(size_t n, uint32_t *size)
{
	if (n >= PEO_ARRAY_SIZE(sizes))
		return 0;
	*size = sizes[n].size;
	return 1;
}

const struct peo_attr_field *peo_attr_fields(size_t *count)
{
	*count = PEO_ARRAY_SIZE(fields);
	return fields;
}

uint32_t peo_attr_size_holding(size_t used)
{
	for (size_t i = 0; i < PEO_ARRAY_SIZE(sizes); i++)
		if (sizes[i].size >= used)
			return sizes[i].size;
	return sizeof(struct peo_attr);
}

const char *peo_attr_size_since(uint32_t size)
{
	size_t i;

	for (i = 0; i < PEO_ARRAY_SIZE(sizes); i++)
		if (sizes[i].size == size)
			return sizes[i].since;
	return NULL;
}
