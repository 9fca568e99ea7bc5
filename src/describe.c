/*
 * describe.c - a short human name for an attr, used in error sentences.
 */
#include <stdio.h>

#include "internal.h"

static const char *const hw_names[PEO_COUNT_HW_MAX] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

static const char *const sw_names[PEO_COUNT_SW_MAX] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

void peo_describe_attr(const struct peo_attr *attr, char *out, size_t cap)
{
	uint64_t low = attr->config & PEO_HW_EVENT_MASK;

	switch (attr->type) {
	case PEO_TYPE_HARDWARE:
		if (low < PEO_COUNT_HW_MAX && (attr->config >> PEO_PMU_TYPE_SHIFT) == 0) {
			snprintf(out, cap, "hardware/%s", hw_names[low]);
			return;
		}
		break;
	case PEO_TYPE_SOFTWARE:
		if (attr->config < PEO_COUNT_SW_MAX) {
			snprintf(out, cap, "software/%s", sw_names[attr->config]);
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
