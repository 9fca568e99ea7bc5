/*
 * attr_print.c - print a struct peo_attr the way `perf stat -vv` and
 * `perf record -vv` (perf 6.1) print their perf_event_attr blocks:
 *
 *   ------------------------------------------------------------
 *   perf_event_attr:
 *     type                             1
 *     config                           0x1
 *     ...
 *   ------------------------------------------------------------
 *
 * One line per non-zero field, in perf's order, with perf's field names
 * (the union names in braces) and value styles: decimal for counts and
 * small numbers, 0x-hex for configs, addresses and register masks, and
 * A|B bit names for sample_type, read_format and branch_sample_type.
 *
 * perf 6.1 prints neither the fields newer than it (config3, config4,
 * defer_callchain, defer_output, the aux_action bits) nor bits it has no
 * name for; this printer adds them, with the kernel's names, after the
 * fields perf has, so that nothing non-zero in the attr goes unseen.
 * Bits of a bit set that have no name are printed as one 0x value after
 * the names.
 */
#include <inttypes.h>
#include <stdio.h>

#include <peo/peo.h>

#include "commands.h"

#define ATTR_DASHES "------------------------------------------------------------"

/* In perf's print order, which is not bit order; TRANSACTION, which perf
 * 6.1 omits, comes last. */
static const struct bit_name sample_type_names[] = {
	{ PEO_SAMPLE_IP, "IP" },
	{ PEO_SAMPLE_TID, "TID" },
	{ PEO_SAMPLE_TIME, "TIME" },
	{ PEO_SAMPLE_ADDR, "ADDR" },
	{ PEO_SAMPLE_READ, "READ" },
	{ PEO_SAMPLE_CALLCHAIN, "CALLCHAIN" },
	{ PEO_SAMPLE_ID, "ID" },
	{ PEO_SAMPLE_CPU, "CPU" },
	{ PEO_SAMPLE_PERIOD, "PERIOD" },
	{ PEO_SAMPLE_STREAM_ID, "STREAM_ID" },
	{ PEO_SAMPLE_RAW, "RAW" },
	{ PEO_SAMPLE_BRANCH_STACK, "BRANCH_STACK" },
	{ PEO_SAMPLE_REGS_USER, "REGS_USER" },
	{ PEO_SAMPLE_STACK_USER, "STACK_USER" },
	{ PEO_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PEO_SAMPLE_REGS_INTR, "REGS_INTR" },
	{ PEO_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ PEO_SAMPLE_WEIGHT, "WEIGHT" },
	{ PEO_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ PEO_SAMPLE_AUX, "AUX" },
	{ PEO_SAMPLE_CGROUP, "CGROUP" },
	{ PEO_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PEO_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ PEO_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ PEO_SAMPLE_TRANSACTION, "TRANSACTION" },
	{ 0, NULL },
};

static const struct bit_name read_format_names[] = {
	{ PEO_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PEO_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PEO_FORMAT_ID, "ID" },
	{ PEO_FORMAT_GROUP, "GROUP" },
	{ PEO_FORMAT_LOST, "LOST" },
	{ 0, NULL },
};

static const struct bit_name branch_sample_type_names[] = {
	{ PEO_SAMPLE_BRANCH_USER, "USER" },
	{ PEO_SAMPLE_BRANCH_KERNEL, "KERNEL" },
	{ PEO_SAMPLE_BRANCH_HV, "HV" },
	{ PEO_SAMPLE_BRANCH_ANY, "ANY" },
	{ PEO_SAMPLE_BRANCH_ANY_CALL, "ANY_CALL" },
	{ PEO_SAMPLE_BRANCH_ANY_RETURN, "ANY_RETURN" },
	{ PEO_SAMPLE_BRANCH_IND_CALL, "IND_CALL" },
	{ PEO_SAMPLE_BRANCH_ABORT_TX, "ABORT_TX" },
	{ PEO_SAMPLE_BRANCH_IN_TX, "IN_TX" },
	{ PEO_SAMPLE_BRANCH_NO_TX, "NO_TX" },
	{ PEO_SAMPLE_BRANCH_COND, "COND" },
	{ PEO_SAMPLE_BRANCH_CALL_STACK, "CALL_STACK" },
	{ PEO_SAMPLE_BRANCH_IND_JUMP, "IND_JUMP" },
	{ PEO_SAMPLE_BRANCH_CALL, "CALL" },
	{ PEO_SAMPLE_BRANCH_NO_FLAGS, "NO_FLAGS" },
	{ PEO_SAMPLE_BRANCH_NO_CYCLES, "NO_CYCLES" },
	{ PEO_SAMPLE_BRANCH_TYPE_SAVE, "TYPE_SAVE" },
	{ PEO_SAMPLE_BRANCH_HW_INDEX, "HW_INDEX" },
	{ PEO_SAMPLE_BRANCH_PRIV_SAVE, "PRIV_SAVE" },
	{ PEO_SAMPLE_BRANCH_COUNTERS, "COUNTERS" },
	{ 0, NULL },
};

/* Each field of @a in perf's order: its perf -vv label, the kernel's name
 * for it (a union's member by what the attr says it holds), its value and
 * how perf shows it. */
void attr_walk(const struct peo_attr *a, attr_visit_fn *visit, void *ctx)
{
#define ITEM(label, key, v, style, names) \
	visit(ctx, &(struct attr_item){ label, key, (uint64_t)(v), style, names })
#define FLAG(name) ITEM(#name, #name, a->name, 'u', NULL)
	int bp = a->type == PEO_TYPE_BREAKPOINT;

	ITEM("type", "type", a->type, 'u', NULL);
	ITEM("size", "size", a->size, 'u', NULL);
	ITEM("config", "config", a->config, 'x', NULL);
	ITEM("{ sample_period, sample_freq }", a->freq ? "sample_freq" : "sample_period",
	     a->sample_period, 'u', NULL);
	ITEM("sample_type", "sample_type", a->sample_type, 'b', sample_type_names);
	ITEM("read_format", "read_format", a->read_format, 'b', read_format_names);
	/* the one-bit flags (and the two-bit precise_ip) in declaration order */
	FLAG(disabled); FLAG(inherit); FLAG(pinned); FLAG(exclusive);
	FLAG(exclude_user); FLAG(exclude_kernel); FLAG(exclude_hv); FLAG(exclude_idle);
	FLAG(mmap); FLAG(comm); FLAG(freq); FLAG(inherit_stat); FLAG(enable_on_exec);
	FLAG(task); FLAG(watermark); FLAG(precise_ip); FLAG(mmap_data); FLAG(sample_id_all);
	FLAG(exclude_host); FLAG(exclude_guest); FLAG(exclude_callchain_kernel);
	FLAG(exclude_callchain_user); FLAG(mmap2); FLAG(comm_exec); FLAG(use_clockid);
	FLAG(context_switch); FLAG(write_backward); FLAG(namespaces); FLAG(ksymbol);
	FLAG(bpf_event); FLAG(aux_output); FLAG(cgroup); FLAG(text_poke); FLAG(build_id);
	FLAG(inherit_thread); FLAG(remove_on_exec); FLAG(sigtrap); FLAG(defer_callchain);
	FLAG(defer_output);
	ITEM("__reserved_1", "__reserved_1", a->__reserved_1, 'x', NULL);
	ITEM("{ wakeup_events, wakeup_watermark }", a->watermark ? "wakeup_watermark" : "wakeup_events",
	     a->wakeup_events, 'u', NULL);
	ITEM("bp_type", "bp_type", a->bp_type, 'u', NULL);
	ITEM("{ bp_addr, config1 }", bp ? "bp_addr" : "config1", a->bp_addr, 'x', NULL);
	ITEM("{ bp_len, config2 }", bp ? "bp_len" : "config2", a->bp_len, 'x', NULL);
	ITEM("branch_sample_type", "branch_sample_type", a->branch_sample_type, 'b',
	     branch_sample_type_names);
	ITEM("sample_regs_user", "sample_regs_user", a->sample_regs_user, 'x', NULL);
	ITEM("sample_stack_user", "sample_stack_user", a->sample_stack_user, 'u', NULL);
	ITEM("clockid", "clockid", (int64_t)a->clockid, 'd', NULL);
	ITEM("sample_regs_intr", "sample_regs_intr", a->sample_regs_intr, 'x', NULL);
	ITEM("aux_watermark", "aux_watermark", a->aux_watermark, 'u', NULL);
	ITEM("sample_max_stack", "sample_max_stack", a->sample_max_stack, 'u', NULL);
	ITEM("__reserved_2", "__reserved_2", a->__reserved_2, 'x', NULL);
	ITEM("aux_sample_size", "aux_sample_size", a->aux_sample_size, 'u', NULL);
	ITEM("sig_data", "sig_data", a->sig_data, 'u', NULL);
	FLAG(aux_start_paused); FLAG(aux_pause); FLAG(aux_resume);
	ITEM("__reserved_3", "__reserved_3", a->__reserved_3, 'x', NULL);
	ITEM("config3", "config3", a->config3, 'x', NULL);
	ITEM("config4", "config4", a->config4, 'x', NULL);
#undef FLAG
#undef ITEM
}

void attr_item_value(FILE *out, const struct attr_item *it)
{
	const char *sep = "";
	uint64_t known = 0;

	switch (it->style) {
	case 'x':
		fprintf(out, "0x%" PRIx64, it->v);
		break;
	case 'd':
		fprintf(out, "%" PRId64, (int64_t)it->v);
		break;
	case 'b':
		for (size_t i = 0; it->names[i].name; i++) {
			known |= it->names[i].bit;
			if (it->v & it->names[i].bit) {
				fprintf(out, "%s%s", sep, it->names[i].name);
				sep = "|";
			}
		}
		if (it->v & ~known)
			fprintf(out, "%s0x%" PRIx64, sep, it->v & ~known);
		break;
	default:
		fprintf(out, "%" PRIu64, it->v);
	}
}

/* perf -vv's line of a non-zero field. */
static void print_item(void *ctx, const struct attr_item *it)
{
	FILE *out = ctx;

	if (!it->v)
		return;
	fprintf(out, "  %-32s ", it->label);
	attr_item_value(out, it);
	fputc('\n', out);
}

void attr_print_perf(FILE *out, const struct peo_attr *a)
{
	fprintf(out, "%s\nperf_event_attr:\n", ATTR_DASHES);
	attr_walk(a, print_item, out);
	fprintf(out, "%s\n", ATTR_DASHES);
}
