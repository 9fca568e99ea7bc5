/*
 * script/frames.h - what the addresses of a sample are (its ip and its
 * callchain's frames), looked up in the worker's model of processes.
 */
#ifndef PEO_TOOLS_SCRIPT_FRAMES_H
#define PEO_TOOLS_SCRIPT_FRAMES_H

#include <stdint.h>

#include <peo/peo.h>

#include "commands.h"
#include "script/worker.h"

/* What @ip of @r's process is, in @cpumode (nothing known without a model:
 * an output that keeps no state). */
static inline void script_look_up(struct script_worker *w, const struct peo_record *r,
				  uint16_t cpumode, uint64_t ip, struct peo_frame *fr)
{
	if (!w->procs || peo_processes_lookup(w->procs, r->sample_id.pid, cpumode, ip, 0, fr) < 0)
		*fr = (struct peo_frame){ .sz = sizeof(*fr), .addr = ip, .dso_offset = ip };
}

/* Whether perf names @r's addr (a page fault's: the address that
 * faulted), as it does a frame; then what it is, into @fr. */
static inline int script_addr_named(struct script_worker *w, const struct peo_record *r,
				    struct peo_frame *fr)
{
	const struct peo_attr *a = r->attr;

	if (!a || !(a->sample_type & PEO_SAMPLE_ADDR) || a->type != PEO_TYPE_SOFTWARE ||
	    (a->config != PEO_COUNT_SW_PAGE_FAULTS && a->config != PEO_COUNT_SW_PAGE_FAULTS_MIN &&
	     a->config != PEO_COUNT_SW_PAGE_FAULTS_MAJ))
		return 0;
	if (!w->procs || peo_processes_lookup(w->procs, r->sample_id.pid,
					      r->header.misc & PEO_RECORD_MISC_CPUMODE_MASK,
					      r->u.sample.addr, PEO_LOOKUP_DATA, fr) < 0)
		*fr = (struct peo_frame){ .sz = sizeof(*fr), .addr = r->u.sample.addr };
	return 1;
}

/* The most user frames unwound for a sample: perf's default depth. */
#define SCRIPT_MAX_STACK 127

/* Whether @r's event records user registers and stacks to unwind
 * (perf record --call-graph dwarf). */
static inline int script_has_stack(const struct peo_record *r)
{
	uint64_t both = PEO_SAMPLE_REGS_USER | PEO_SAMPLE_STACK_USER;

	return r->attr && (r->attr->sample_type & both) == both;
}

/* @r's user frames unwound into @ips (SCRIPT_MAX_STACK of them): how
 * many, 0 without a model or a stack to unwind. */
static inline int script_unwind(struct script_worker *w, const struct peo_record *r,
				uint64_t *ips)
{
	int n;

	if (!w->procs || !script_has_stack(r))
		return 0;
	n = peo_processes_unwind(w->procs, r, ips, SCRIPT_MAX_STACK);
	return n > 0 ? n : 0;
}

/* The address perf looks unwound frame @i (@ip) up at: a caller's return
 * address minus one, in the call. */
static inline uint64_t script_unwound_at(int i, uint64_t ip)
{
	return i ? ip - 1 : ip;
}

#endif
