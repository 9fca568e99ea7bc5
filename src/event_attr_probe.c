/*
 * event_attr_probe.c - typed constructors for the events whose strings
 * carry an address or a path: uprobes, kprobes and breakpoints, as attrs
 * the parser would make of uprobe:PATH:SYMBOL, kprobe:SYMBOL+OFF and
 * mem:ADDR/LEN:rwx (perf's defaults: the host only, each hit a sample).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "event_internal.h"

/* @attr as peo_event_new() starts every event of a string. */
static void event_attr_init(struct peo_attr *attr, uint32_t type)
{
	peo_attr_init(attr);
	attr->exclude_guest = 1;
	attr->type = type;
	attr->sample_period = 1;
}

/* @attr of the @pmu probe PMU (its type, and its retprobe bit when @flags
 * ask for the return); 0 or a negative errno with the sentence. */
static int probe_attr(struct peo_attr *attr, const char *pmu, unsigned flags, const char *needs)
{
	const char *dir = peo_default_pmu_dir();
	char path[4096], why[200], *spec;
	long type = peo_pmu_type(dir, pmu);
	int err;

	if (flags & ~(unsigned)PEO_PROBE_RETURN)
		return peo_fail(EINVAL, "peo_attr_%s: unknown flags %#x (PEO_PROBE_RETURN is %#x)",
				pmu, flags & ~(unsigned)PEO_PROBE_RETURN, PEO_PROBE_RETURN);
	if (type < 0)
		return peo_fail(ENOENT, "this kernel has no %s PMU (%s/%s): %s", pmu, dir, pmu, needs);
	event_attr_init(attr, (uint32_t)type);
	if (!(flags & PEO_PROBE_RETURN))
		return 0;
	snprintf(path, sizeof(path), "%s/%s/format/retprobe", dir, pmu);
	if (!(spec = peo_read_text_file(path)))
		return peo_fail(ENOENT, "the %s PMU has no retprobe format (%s): this kernel cannot "
				"probe returns this way", pmu, path);
	err = peo_format_apply(attr, spec, 1, why, sizeof(why));
	free(spec);
	return err ? peo_fail(EINVAL, "%s: %s", path, why) : 0;
}

int peo_attr_uprobe(struct peo_attr *attr, const char *path, const char *symbol, uint64_t offset,
		    unsigned flags)
{
	uint64_t at = 0;
	int err;

	if (!attr || !path)
		return peo_fail(EINVAL, "peo_attr_uprobe: argument '%s' is NULL", !attr ? "attr" : "path");
	if ((err = probe_attr(attr, "uprobe", flags, "it needs CONFIG_UPROBE_EVENTS")))
		return err;
	if (symbol && (err = peo_elf_symbol_offset(path, symbol, &at)))
		return err;
	attr->uprobe_path = (uint64_t)(uintptr_t)path;
	attr->probe_offset = at + offset;
	return 0;
}

int peo_attr_kprobe(struct peo_attr *attr, const char *symbol, uint64_t offset, unsigned flags)
{
	int err;

	if (!attr)
		return peo_fail(EINVAL, "peo_attr_kprobe: argument 'attr' is NULL");
	if ((err = probe_attr(attr, "kprobe", flags,
			      "kprobes need CONFIG_KPROBE_EVENTS, which this kernel lacks")))
		return err;
	if (symbol) {
		attr->kprobe_func = (uint64_t)(uintptr_t)symbol;
		attr->probe_offset = offset;
	} else {
		attr->kprobe_addr = offset;
	}
	return 0;
}

int peo_attr_breakpoint(struct peo_attr *attr, uint64_t addr, uint32_t len, uint32_t access)
{
	if (!attr)
		return peo_fail(EINVAL, "peo_attr_breakpoint: argument 'attr' is NULL");
	if (!access || (access & ~(uint32_t)(PEO_BP_RW | PEO_BP_X)) ||
	    ((access & PEO_BP_X) && (access & PEO_BP_RW)))
		return peo_fail(EINVAL, "peo_attr_breakpoint: access %#x: give PEO_BP_R, PEO_BP_W, "
				"PEO_BP_RW or PEO_BP_X (the kernel takes no execute and data "
				"breakpoint in one)", access);
	if (len > 8)
		return peo_fail(EINVAL, "peo_attr_breakpoint: length %u: give 1 to 8 bytes (x86 "
				"takes 1, 2, 4 or 8), or 0 for perf's default", len);
	event_attr_init(attr, PEO_TYPE_BREAKPOINT);
	attr->bp_type = access;
	attr->bp_addr = addr;
	/* perf's default length: an instruction pointer for x, else 4 bytes */
	attr->bp_len = len ? len : access == PEO_BP_X ? sizeof(long) : PEO_BP_LEN_4;
	return 0;
}

static int task_events(int option, const char *name)
{
	if (prctl(option, 0, 0, 0, 0))
		return peo_fail(errno, "prctl(%s): %s", name, strerror(errno));
	return 0;
}

int peo_task_events_enable(void)
{
	return task_events(PR_TASK_PERF_EVENTS_ENABLE, "PR_TASK_PERF_EVENTS_ENABLE");
}

int peo_task_events_disable(void)
{
	return task_events(PR_TASK_PERF_EVENTS_DISABLE, "PR_TASK_PERF_EVENTS_DISABLE");
}
