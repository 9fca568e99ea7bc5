/*
 * describe.c - a short human name for an attr, used in error sentences.
 */
#include <stdio.h>

#include "internal.h"

void peo_describe_attr(const struct peo_attr *attr, char *out, size_t cap)
{
	const char *name = peo_symbolic_name(attr->type, attr->config);

	switch (attr->type) {
	case PEO_TYPE_HARDWARE:
	case PEO_TYPE_SOFTWARE:
		if (name) {
			snprintf(out, cap, "%s/%s",
				 attr->type == PEO_TYPE_HARDWARE ? "hardware" : "software", name);
			return;
		}
		break;
	case PEO_TYPE_TRACEPOINT:
		snprintf(out, cap, "tracepoint id %llu", (unsigned long long)attr->config);
		return;
	case PEO_TYPE_HW_CACHE:
		snprintf(out, cap, "hw-cache config %#llx", (unsigned long long)attr->config);
		return;
	case PEO_TYPE_RAW:
		snprintf(out, cap, "raw r%llx", (unsigned long long)attr->config);
		return;
	case PEO_TYPE_BREAKPOINT:
		snprintf(out, cap, "breakpoint mem:%#llx/%llu type %u",
			 (unsigned long long)attr->bp_addr, (unsigned long long)attr->bp_len,
			 attr->bp_type);
		return;
	default:
		break;
	}
	snprintf(out, cap, "type %u config %#llx", attr->type, (unsigned long long)attr->config);
}
