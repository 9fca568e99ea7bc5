/*
 * record_visit.c - peo_record_visit(): a parsed record handed to the
 * visitor's callback for its type.
 */
#include <errno.h>
#include <stddef.h>

#include "internal.h"
#include "peo/record.h"

/* The visitor's callback for @type, or NULL. */
static peo_record_visit_fn callback(const struct peo_record_visitor *v, uint32_t type)
{
	switch (type) {
	case PEO_RECORD_SAMPLE: return v->sample;
	case PEO_RECORD_MMAP:
	case PEO_RECORD_MMAP2: return v->mmap;
	case PEO_RECORD_COMM: return v->comm;
	case PEO_RECORD_FORK: return v->fork;
	case PEO_RECORD_EXIT: return v->exit;
	case PEO_RECORD_LOST: return v->lost;
	case PEO_RECORD_LOST_SAMPLES: return v->lost_samples;
	case PEO_RECORD_THROTTLE:
	case PEO_RECORD_UNTHROTTLE: return v->throttle;
	case PEO_RECORD_READ: return v->read;
	case PEO_RECORD_AUX: return v->aux;
	case PEO_RECORD_ITRACE_START: return v->itrace_start;
	case PEO_RECORD_SWITCH:
	case PEO_RECORD_SWITCH_CPU_WIDE: return v->sw;
	case PEO_RECORD_NAMESPACES: return v->namespaces;
	case PEO_RECORD_KSYMBOL: return v->ksymbol;
	case PEO_RECORD_BPF_EVENT: return v->bpf_event;
	case PEO_RECORD_CGROUP: return v->cgroup;
	case PEO_RECORD_TEXT_POKE: return v->text_poke;
	case PEO_RECORD_AUX_OUTPUT_HW_ID: return v->aux_output_hw_id;
	case PEO_RECORD_CALLCHAIN_DEFERRED: return v->callchain_deferred;
	default: return NULL;
	}
}

int peo_record_visit(const struct peo_record *r, const struct peo_record_visitor *v, void *ctx)
{
	peo_record_visit_fn fn;

	if (!r || !v)
		return peo_fail(EINVAL, "peo_record_visit: argument '%s' is NULL", r ? "v" : "r");
	/* 0.2's callbacks at least; a newer caller's further ones are for
	 * record types this libpeo hands to other anyway */
	if (v->sz < sizeof(*v))
		return peo_fail(EINVAL, "peo_record_visit: visitor sz %zu, under the %zu of its first "
				"release (set sz = sizeof(struct peo_record_visitor), or PEO_OPTS)",
				v->sz, sizeof(*v));
	fn = r->unknown ? NULL : callback(v, r->header.type);
	if (!fn)
		fn = v->other;
	return fn ? fn(r, ctx) : 0;
}
