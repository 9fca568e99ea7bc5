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

struct bit_name {
	uint64_t bit;
	const char *name;
};

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

static void line_begin(FILE *out, const char *name)
{
	fprintf(out, "  %-32s ", name);
}

static void print_u(FILE *out, const char *name, uint64_t v)
{
	if (!v)
		return;
	line_begin(out, name);
	fprintf(out, "%" PRIu64 "\n", v);
}

static void print_x(FILE *out, const char *name, uint64_t v)
{
	if (!v)
		return;
	line_begin(out, name);
	fprintf(out, "0x%" PRIx64 "\n", v);
}

static void print_d(FILE *out, const char *name, int64_t v)
{
	if (!v)
		return;
	line_begin(out, name);
	fprintf(out, "%" PRId64 "\n", v);
}

static void print_bits(FILE *out, const char *name, uint64_t v, const struct bit_name *names)
{
	const char *sep = "";
	uint64_t known = 0;
	size_t i;

	if (!v)
		return;
	line_begin(out, name);
	for (i = 0; names[i].name; i++) {
		known |= names[i].bit;
		if (v & names[i].bit) {
			fprintf(out, "%s%s", sep, names[i].name);
			sep = "|";
		}
	}
	if (v & ~known)
		fprintf(out, "%s0x%" PRIx64, sep, v & ~known);
	fputc('\n', out);
}

/* The one-bit flags (and the two-bit precise_ip) in declaration order. */
static void print_flags(FILE *out, const struct peo_attr *a)
{
	print_u(out, "disabled", a->disabled);
	print_u(out, "inherit", a->inherit);
	print_u(out, "pinned", a->pinned);
	print_u(out, "exclusive", a->exclusive);
	print_u(out, "exclude_user", a->exclude_user);
	print_u(out, "exclude_kernel", a->exclude_kernel);
	print_u(out, "exclude_hv", a->exclude_hv);
	print_u(out, "exclude_idle", a->exclude_idle);
	print_u(out, "mmap", a->mmap);
	print_u(out, "comm", a->comm);
	print_u(out, "freq", a->freq);
	print_u(out, "inherit_stat", a->inherit_stat);
	print_u(out, "enable_on_exec", a->enable_on_exec);
	print_u(out, "task", a->task);
	print_u(out, "watermark", a->watermark);
	print_u(out, "precise_ip", a->precise_ip);
	print_u(out, "mmap_data", a->mmap_data);
	print_u(out, "sample_id_all", a->sample_id_all);
	print_u(out, "exclude_host", a->exclude_host);
	print_u(out, "exclude_guest", a->exclude_guest);
	print_u(out, "exclude_callchain_kernel", a->exclude_callchain_kernel);
	print_u(out, "exclude_callchain_user", a->exclude_callchain_user);
	print_u(out, "mmap2", a->mmap2);
	print_u(out, "comm_exec", a->comm_exec);
	print_u(out, "use_clockid", a->use_clockid);
	print_u(out, "context_switch", a->context_switch);
	print_u(out, "write_backward", a->write_backward);
	print_u(out, "namespaces", a->namespaces);
	print_u(out, "ksymbol", a->ksymbol);
	print_u(out, "bpf_event", a->bpf_event);
	print_u(out, "aux_output", a->aux_output);
	print_u(out, "cgroup", a->cgroup);
	print_u(out, "text_poke", a->text_poke);
	print_u(out, "build_id", a->build_id);
	print_u(out, "inherit_thread", a->inherit_thread);
	print_u(out, "remove_on_exec", a->remove_on_exec);
	print_u(out, "sigtrap", a->sigtrap);
	print_u(out, "defer_callchain", a->defer_callchain);
	print_u(out, "defer_output", a->defer_output);
	print_x(out, "__reserved_1", a->__reserved_1);
}

void attr_print_perf(FILE *out, const struct peo_attr *a)
{
	fprintf(out, "%s\nperf_event_attr:\n", ATTR_DASHES);
	print_u(out, "type", a->type);
	print_u(out, "size", a->size);
	print_x(out, "config", a->config);
	print_u(out, "{ sample_period, sample_freq }", a->sample_period);
	print_bits(out, "sample_type", a->sample_type, sample_type_names);
	print_bits(out, "read_format", a->read_format, read_format_names);
	print_flags(out, a);
	print_u(out, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	print_u(out, "bp_type", a->bp_type);
	print_x(out, "{ bp_addr, config1 }", a->bp_addr);
	print_x(out, "{ bp_len, config2 }", a->bp_len);
	print_bits(out, "branch_sample_type", a->branch_sample_type, branch_sample_type_names);
	print_x(out, "sample_regs_user", a->sample_regs_user);
	print_u(out, "sample_stack_user", a->sample_stack_user);
	print_d(out, "clockid", a->clockid);
	print_x(out, "sample_regs_intr", a->sample_regs_intr);
	print_u(out, "aux_watermark", a->aux_watermark);
	print_u(out, "sample_max_stack", a->sample_max_stack);
	print_x(out, "__reserved_2", a->__reserved_2);
	print_u(out, "aux_sample_size", a->aux_sample_size);
	print_u(out, "sig_data", a->sig_data);
	print_u(out, "aux_start_paused", a->aux_start_paused);
	print_u(out, "aux_pause", a->aux_pause);
	print_u(out, "aux_resume", a->aux_resume);
	print_x(out, "__reserved_3", a->__reserved_3);
	print_x(out, "config3", a->config3);
	print_x(out, "config4", a->config4);
	fprintf(out, "%s\n", ATTR_DASHES);
}
