/*
 * test_tp_expr.c - print fmt arguments parsed once into a tree and
 * evaluated for each payload (src/tracepoint/expr_*.c), held to facts:
 * real format files as this machine's kernel (6.18) writes them under
 * /sys/kernel/tracing/events, printed over payloads made field by field,
 * against the lines the kernel's helpers define (__print_hex() bytes in
 * hex joined by spaces, __print_hex_str() run together, a cpumask in
 * 32-bit groups as "%*pb" prints it...) and perf prints (the same
 * lines, where perf 6.1 knows the helper); and every format this
 * machine's tracefs has: each argument parsed but those that call what
 * no reader of a recording can run.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "event_internal.h"
#include "internal.h"
#include "tracepoint/format.h"

/* ------------------------------------------------ real formats, as written */

/* The fields every format starts with. */
#define COMMON_FIELDS                                                          \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"       \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"       \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"

static const char KVM_EMULATE_INSN[] =
	"name: kvm_emulate_insn\n"
	"ID: 85\n"
	"format:\n"
	COMMON_FIELDS
	"\n"
	"\tfield:__u64 rip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:__u32 csbase;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:__u8 len;\toffset:20;\tsize:1;\tsigned:0;\n"
	"\tfield:__u8 insn[15];\toffset:21;\tsize:15;\tsigned:0;\n"
	"\tfield:__u8 flags;\toffset:36;\tsize:1;\tsigned:0;\n"
	"\tfield:__u8 failed;\toffset:37;\tsize:1;\tsigned:0;\n"
	"\n"
	"print fmt: \"%x:%llx:%s (%s)%s\", REC->csbase, REC->rip, __print_hex(REC->insn, REC->l"
	"en), __print_symbolic(REC->flags, { 0, \"real\" }, { (1 << 0) | (1 << 1), \"vm16\" }, "
	"{ (1 << 0), \"prot16\" }, { (1 << 0) | (1 << 2), \"prot32\" }, { (1 << 0) | (1 << 3), "
	"\"prot64\" }), REC->failed ? \" failed\" : \"\"\n";

static const char NEIGH_UPDATE[] =
	"name: neigh_update\n"
	"ID: 2248\n"
	"format:\n"
	COMMON_FIELDS
	"\n"
	"\tfield:u32 family;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] dev;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:u8 lladdr[32];\toffset:16;\tsize:32;\tsigned:0;\n"
	"\tfield:u8 lladdr_len;\toffset:48;\tsize:1;\tsigned:0;\n"
	"\tfield:u8 flags;\toffset:49;\tsize:1;\tsigned:0;\n"
	"\tfield:u8 nud_state;\toffset:50;\tsize:1;\tsigned:0;\n"
	"\tfield:u8 type;\toffset:51;\tsize:1;\tsigned:0;\n"
	"\tfield:u8 dead;\toffset:52;\tsize:1;\tsigned:0;\n"
	"\tfield:int refcnt;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:__u8 primary_key4[4];\toffset:60;\tsize:4;\tsigned:0;\n"
	"\tfield:__u8 primary_key6[16];\toffset:64;\tsize:16;\tsigned:0;\n"
	"\tfield:unsigned long confirmed;\toffset:80;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long updated;\toffset:88;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long used;\toffset:96;\tsize:8;\tsigned:0;\n"
	"\tfield:u8 new_lladdr[32];\toffset:104;\tsize:32;\tsigned:0;\n"
	"\tfield:u8 new_state;\toffset:136;\tsize:1;\tsigned:0;\n"
	"\tfield:u32 update_flags;\toffset:140;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 pid;\toffset:144;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"family %d dev %s lladdr %s flags %02x nud_state %s type %02x dead %d refc"
	"nt %d primary_key4 %pI4 primary_key6 %pI6c confirmed %lu updated %lu used %lu new_llad"
	"dr %s new_state %s update_flags %02x pid %d\", REC->family, __get_str(dev), __print_he"
	"x_str(REC->lladdr, REC->lladdr_len), REC->flags, __print_symbolic(REC->nud_state, { 0x"
	"01, \"incomplete\" }, { 0x02, \"reachable\" }, { 0x04, \"stale\" }, { 0x08, \"delay\" "
	"}, { 0x10, \"probe\" }, { 0x20, \"failed\" }, { 0x40, \"noarp\" }, { 0x80, \"permanent"
	"\"}), REC->type, REC->dead, REC->refcnt, REC->primary_key4, REC->primary_key6, REC->co"
	"nfirmed, REC->updated, REC->used, __print_hex_str(REC->new_lladdr, REC->lladdr_len), _"
	"_print_symbolic(REC->new_state, { 0x01, \"incomplete\" }, { 0x02, \"reachable\" }, { 0"
	"x04, \"stale\" }, { 0x08, \"delay\" }, { 0x10, \"probe\" }, { 0x20, \"failed\" }, { 0x"
	"40, \"noarp\" }, { 0x80, \"permanent\"}), REC->update_flags, REC->pid\n";

static const char IPI_SEND_CPUMASK[] =
	"name: ipi_send_cpumask\n"
	"ID: 353\n"
	"format:\n"
	COMMON_FIELDS
	"\n"
	"\tfield:__data_loc cpumask_t cpumask;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:void * callsite;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:void * callback;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"cpumask=%s callsite=%pS callback=%pS\", __get_cpumask(cpumask), REC->call"
	"site, REC->callback\n";

static const char SCHED_SWITCH[] =
	"name: sched_switch\n"
	"ID: 372\n"
	"format:\n"
	COMMON_FIELDS
	"\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s ne"
	"xt_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_st"
	"ate & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 "
	"| 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & ((((0x00"
	"000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 |"
	" 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0"
	"x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" "
	"}, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x00000"
	"000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x"
	"00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio\n";

static const char SOFTIRQ_ENTRY[] =
	"name: softirq_entry\n"
	"ID: 223\n"
	"format:\n"
	COMMON_FIELDS
	"\n"
	"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"vec=%u [action=%s]\", REC->vec, __print_symbolic(REC->vec, { 0, \"HI\" },"
	" { 1, \"TIMER\" }, { 2, \"NET_TX\" }, { 3, \"NET_RX\" }, { 4, \"BLOCK\" }, { 5, \"IRQ_"
	"POLL\" }, { 6, \"TASKLET\" }, { 7, \"SCHED\" }, { 8, \"HRTIMER\" }, { 9, \"RCU\" })\n";

static const char SCHED_PROCESS_EXEC[] =
	"name: sched_process_exec\n"
	"ID: 365\n"
	"format:\n"
	COMMON_FIELDS
	"\n"
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, REC->old_"
	"pid\n";

static const char ARM_EVENT[] =
	"name: arm_event\n"
	"ID: 2205\n"
	"format:\n"
	COMMON_FIELDS
	"\n"
	"\tfield:u64 mpidr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 midr;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 running_state;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 psci_state;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:u8 affinity;\toffset:32;\tsize:1;\tsigned:0;\n"
	"\tfield:u32 pei_len;\toffset:36;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc u8[] pei_buf;\toffset:40;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 ctx_len;\toffset:44;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc u8[] ctx_buf;\toffset:48;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 oem_len;\toffset:52;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc u8[] oem_buf;\toffset:56;\tsize:4;\tsigned:0;\n"
	"\tfield:u8 sev;\toffset:60;\tsize:1;\tsigned:0;\n"
	"\tfield:int cpu;\toffset:64;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"cpu: %d; error: %d; affinity level: %d; MPIDR: %016llx; MIDR: %016llx; ru"
	"nning state: %d; PSCI state: %d; %s: %d; %s: %s; %s: %d; %s: %s; %s: %d; %s: %s\", REC"
	"->cpu, REC->sev, REC->affinity, REC->mpidr, REC->midr, REC->running_state, REC->psci_s"
	"tate, \"ARM Processor Err Info data len\", REC->pei_len, \"ARM Processor Err Info raw "
	"data\", __print_hex(__get_dynamic_array(pei_buf), REC->pei_len), \"ARM Processor Err C"
	"ontext Info data len\", REC->ctx_len, \"ARM Processor Err Context Info raw data\", __p"
	"rint_hex(__get_dynamic_array(ctx_buf), REC->ctx_len), \"Vendor Specific Err Info data "
	"len\", REC->oem_len, \"Vendor Specific Err Info raw data\", __print_hex(__get_dynamic_"
	"array(oem_buf), REC->oem_len)\n";

/* A payload being made for a format, field by field, little-endian;
 * __data_loc fields' data after the fixed fields. */
struct payload {
	const struct peo_tp_format *f;
	unsigned char raw[512];
	size_t size, tail;
};

static const struct peo_tp_field *field_of(struct payload *p, const char *name)
{
	const struct peo_tp_field *fld = peo_tp_format_find(p->f, name);

	assert_non_null(fld);
	return fld;
}

static void payload_start(struct payload *p, const struct peo_tp_format *f)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	for (size_t i = 0; i < peo_tp_format_count(f); i++) {
		const struct peo_tp_field *fld = peo_tp_format_field(f, i);

		if (fld->offset + (size_t)fld->size > p->tail)
			p->tail = fld->offset + (size_t)fld->size;
	}
	p->size = p->tail;
}

static void set_int(struct payload *p, const char *name, uint64_t v)
{
	const struct peo_tp_field *fld = field_of(p, name);

	for (uint32_t k = 0; k < fld->size && k < 8; k++)
		p->raw[fld->offset + k] = (unsigned char)(v >> (8 * k));
}

static void set_bytes(struct payload *p, const char *name, const void *b, size_t n)
{
	const struct peo_tp_field *fld = field_of(p, name);

	assert_true(n <= fld->size);
	memcpy(p->raw + fld->offset, b, n);
}

/* A __data_loc field's @n bytes, at the payload's tail. */
static void set_data(struct payload *p, const char *name, const void *b, size_t n)
{
	const struct peo_tp_field *fld = field_of(p, name);

	assert_true(p->tail + n <= sizeof(p->raw));
	memcpy(p->raw + p->tail, b, n);
	set_int(p, name, p->tail | (uint64_t)n << 16);
	assert_int_equal(fld->size, 4);
	p->tail += n;
	p->size = p->tail;
}

/* @p printed by its format: @want. */
static void prints(struct payload *p, const char *want)
{
	char out[2048];
	struct peo_record rec = { .sz = sizeof(rec) };
	int n = peo_tp_format_print(p->f, &rec, p->raw, p->size, out, sizeof(out));

	if (n < 0)
		fprintf(stderr, "%s: %s\n", peo_tp_format_name(p->f), peo_last_error());
	assert_true(n >= 0);
	assert_string_equal(out, want);
}

static struct peo_tp_format *parsed(const char *text)
{
	struct peo_tp_format *f;
	const struct tp_arg *args;

	assert_int_equal(peo_tp_format_parse(&f, text), 0);
	for (size_t i = 0, n = peo_tp_format_args(f, &args, NULL); i < n; i++)
		assert_null(peo_tp_expr_error(args[i].expr)); /* every argument parsed */
	return f;
}

/* __print_hex() of a fixed array, its length a field (bounded by the
 * array), and __print_symbolic() of values that are ORs of bits. */
static void kvm_emulate_insn_prints_its_bytes(void **state)
{
	struct peo_tp_format *f = parsed(KVM_EMULATE_INSN);
	static const unsigned char insn[15] = { 0x0f, 0x01, 0xd9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	struct payload p;

	(void)state;
	payload_start(&p, f);
	set_int(&p, "csbase", 0x10);
	set_int(&p, "rip", 0xffffffff81000000ull);
	set_bytes(&p, "insn", insn, sizeof(insn));
	set_int(&p, "len", 3);
	set_int(&p, "flags", (1 << 0) | (1 << 3));
	set_int(&p, "failed", 1);
	prints(&p, "10:ffffffff81000000:0f 01 d9 (prot64) failed");
	set_int(&p, "len", 0);
	set_int(&p, "flags", 0);
	set_int(&p, "failed", 0);
	prints(&p, "10:ffffffff81000000: (real)");
	set_int(&p, "len", 200); /* past the array: its 15 bytes */
	set_int(&p, "flags", (1 << 0) | (1 << 1));
	prints(&p, "10:ffffffff81000000:0f 01 d9 01 02 03 04 05 06 07 08 09 0a 0b 0c (vm16)");
	set_int(&p, "flags", 3 << 4); /* no entry: the value in hex */
	prints(&p, "10:ffffffff81000000:0f 01 d9 01 02 03 04 05 06 07 08 09 0a 0b 0c (0x30)");
	peo_tp_format_free(f);
}

/* __print_hex_str() (bytes run together), __get_str(), %pI4 and %pI6c of
 * array fields, __print_symbolic() of states. */
static void neigh_update_prints_its_addresses(void **state)
{
	struct peo_tp_format *f = parsed(NEIGH_UPDATE);
	static const unsigned char mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 },
				   ip4[4] = { 10, 0, 2, 2 },
				   ip6[16] = { 0xfe, 0x80, [15] = 1 };
	struct payload p;

	(void)state;
	payload_start(&p, f);
	set_int(&p, "family", 2);
	set_data(&p, "dev", "eth0", 5);
	set_bytes(&p, "lladdr", mac, sizeof(mac));
	set_int(&p, "lladdr_len", 6);
	set_int(&p, "flags", 0x80);
	set_int(&p, "nud_state", 0x02);
	set_int(&p, "type", 1);
	set_int(&p, "refcnt", 3);
	set_bytes(&p, "primary_key4", ip4, sizeof(ip4));
	set_bytes(&p, "primary_key6", ip6, sizeof(ip6));
	set_int(&p, "confirmed", 100);
	set_int(&p, "updated", 200);
	set_int(&p, "used", 300);
	set_bytes(&p, "new_lladdr", mac, 4);
	set_int(&p, "new_state", 0x04);
	set_int(&p, "update_flags", 1);
	set_int(&p, "pid", 42);
	prints(&p, "family 2 dev eth0 lladdr 525400123456 flags 80 nud_state reachable type 01 "
		   "dead 0 refcnt 3 primary_key4 10.0.2.2 primary_key6 fe80::1 confirmed 100 "
		   "updated 200 used 300 new_lladdr 525400120000 new_state stale update_flags 01 "
		   "pid 42");
	set_int(&p, "lladdr_len", 2);
	set_int(&p, "nud_state", 0x03); /* two states: no entry, the value in hex */
	prints(&p, "family 2 dev eth0 lladdr 5254 flags 80 nud_state 0x3 type 01 "
		   "dead 0 refcnt 3 primary_key4 10.0.2.2 primary_key6 fe80::1 confirmed 100 "
		   "updated 200 used 300 new_lladdr 5254 new_state stale update_flags 01 "
		   "pid 42");
	peo_tp_format_free(f);
}

/* __get_cpumask(): the bitmap in 32-bit groups, highest first, each
 * zero-padded, joined by commas, as the kernel's "%*pb" prints the
 * buffer's bits (perf 6.1 knows no such helper and prints the fields). */
static void ipi_send_cpumask_prints_its_mask(void **state)
{
	struct peo_tp_format *f = parsed(IPI_SEND_CPUMASK);
	static const uint64_t two_cpus[1] = { 0x3 }, many[2] = { 0x1, 0x8000000000000000ull };
	const char *want[] = { "cpumask=00000000,00000003 ",
			       "cpumask=80000000,00000000,00000000,00000001 " };
	char out[512];
	struct peo_record rec = { .sz = sizeof(rec) };
	struct payload p;

	(void)state;
	for (int i = 0; i < 2; i++) {
		payload_start(&p, f);
		if (i == 0)
			set_data(&p, "cpumask", two_cpus, sizeof(two_cpus));
		else
			set_data(&p, "cpumask", many, sizeof(many));
		assert_true(peo_tp_format_print(f, &rec, p.raw, p.size, out, sizeof(out)) > 0);
		/* what follows is %pS of this machine's symbols */
		assert_memory_equal(out, want[i], strlen(want[i]));
	}
	peo_tp_format_free(f);
}

/* __print_flags() under a mask of constants, "R" when none is set, "+"
 * for the preempted bit; char arrays as text. */
static void sched_switch_prints_its_states(void **state)
{
	static const struct {
		uint64_t state;
		const char *text;
	} states[] = { { 0, "R" }, { 0x1, "S" }, { 0x2, "D" }, { 0x81, "S|I" },
		       { 0x100, "R+" }, { 0x102, "D+" }, { 0x80, "I" }, { 0x402, "D" } };
	struct peo_tp_format *f = parsed(SCHED_SWITCH);
	const struct tp_arg *args;
	char want[256];
	struct payload p;

	(void)state;
	assert_int_equal(peo_tp_format_args(f, &args, NULL), 8);
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		payload_start(&p, f);
		set_bytes(&p, "prev_comm", "bash", 5);
		set_int(&p, "prev_pid", 100);
		set_int(&p, "prev_prio", 120);
		set_int(&p, "prev_state", states[i].state);
		set_bytes(&p, "next_comm", "swapper/0", 10);
		set_int(&p, "next_prio", (uint64_t)-1);
		snprintf(want, sizeof(want), "prev_comm=bash prev_pid=100 prev_prio=120 "
			 "prev_state=%s ==> next_comm=swapper/0 next_pid=0 next_prio=-1",
			 states[i].text);
		prints(&p, want);
	}
	peo_tp_format_free(f);
}

/* __print_symbolic() of a softirq's number; __get_str() of a __data_loc. */
static void softirq_and_exec_print_names(void **state)
{
	struct peo_tp_format *irq = parsed(SOFTIRQ_ENTRY), *exec = parsed(SCHED_PROCESS_EXEC);
	struct payload p;

	(void)state;
	payload_start(&p, irq);
	set_int(&p, "vec", 9);
	prints(&p, "vec=9 [action=RCU]");
	set_int(&p, "vec", 0);
	prints(&p, "vec=0 [action=HI]");
	set_int(&p, "vec", 12);
	prints(&p, "vec=12 [action=0xc]");
	payload_start(&p, exec);
	set_data(&p, "filename", "/usr/bin/true", 14);
	set_int(&p, "pid", 7);
	set_int(&p, "old_pid", 7);
	prints(&p, "filename=/usr/bin/true pid=7 old_pid=7");
	peo_tp_format_free(irq);
	peo_tp_format_free(exec);
}

/* __print_hex() of __get_dynamic_array()s, their lengths other fields;
 * string literals as arguments. */
static void arm_event_prints_its_buffers(void **state)
{
	struct peo_tp_format *f = parsed(ARM_EVENT);
	struct payload p;

	(void)state;
	payload_start(&p, f);
	set_int(&p, "cpu", 1);
	set_int(&p, "sev", 2);
	set_int(&p, "affinity", 3);
	set_int(&p, "mpidr", 4);
	set_int(&p, "midr", 0x410fd083);
	set_int(&p, "running_state", 6);
	set_int(&p, "psci_state", 7);
	set_int(&p, "pei_len", 3);
	set_data(&p, "pei_buf", "\x01\x02\x03", 3);
	set_int(&p, "ctx_len", 0);
	set_data(&p, "ctx_buf", "", 0);
	set_int(&p, "oem_len", 4); /* more than its 2 bytes: those */
	set_data(&p, "oem_buf", "\xab\xcd", 2);
	prints(&p, "cpu: 1; error: 2; affinity level: 3; MPIDR: 0000000000000004; MIDR: "
		   "00000000410fd083; running state: 6; PSCI state: 7; ARM Processor Err Info "
		   "data len: 3; ARM Processor Err Info raw data: 01 02 03; ARM Processor Err "
		   "Context Info data len: 0; ARM Processor Err Context Info raw data: ; Vendor "
		   "Specific Err Info data len: 4; Vendor Specific Err Info raw data: ab cd");
	peo_tp_format_free(f);
}

/* ------------------------------------------------ helpers no format here uses */

static struct peo_tp_format *made_up(const char *print)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "name: made_up\nID: 1\nformat:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:__data_loc u32[] vals;\toffset:8;\tsize:4;\tsigned:0;\n"
		 "\tfield:__data_loc s16[] sv;\toffset:12;\tsize:4;\tsigned:1;\n"
		 "\tfield:__data_loc u64[] big;\toffset:16;\tsize:4;\tsigned:0;\n"
		 "\tfield:unsigned long mask[2];\toffset:24;\tsize:16;\tsigned:0;\n"
		 "\tfield:int a;\toffset:40;\tsize:4;\tsigned:1;\n"
		 "\nprint fmt: %s\n", print);
	return parsed(text);
}

/* __print_array() (elements in unsigned decimal, in the payload's byte
 * order, as perf prints them), counts computed, __get_bitmask() of a
 * fixed array, __print_flags() with a delimiter, tables nested, and the
 * conditional and logical operators, which evaluate one side. */
static void made_up_helpers_print_as_written_down(void **state)
{
	static const uint32_t vals[3] = { 1, 0xffffffff, 256 };
	static const int16_t sv[2] = { -2, 5 };
	static const uint64_t big[1] = { 1ull << 40 };
	static const uint64_t mask[2] = { 0x10, 0x2 };
	struct peo_tp_format *f = made_up(
		"\"[%s] [%s] [%s] [%s] [%s] [%s] %d %d\", "
		"__print_array(__get_dynamic_array(vals), __get_dynamic_array_len(vals) / 4, 4), "
		"__print_array(__get_dynamic_array(sv), 2, 2), "
		"__print_array(__get_dynamic_array(big), 1, 8), "
		"__get_bitmask(mask), "
		"__print_flags(REC->a, \", \", { 1, \"ONE\" }, { 2, \"TWO\" }, { 8, \"EIGHT\" }), "
		"__print_symbolic(REC->a & 3, { 1, __print_flags(REC->a, \"|\", { 4, \"F\" }) }, "
		"{ 3, \"three\" }), "
		"REC->a != 3 ? REC->a / (REC->a - 3) : 0, REC->a == 3 || 1 / (REC->a - 3)");
	struct payload p;

	(void)state;
	payload_start(&p, f);
	set_data(&p, "vals", vals, sizeof(vals));
	set_data(&p, "sv", sv, sizeof(sv));
	set_data(&p, "big", big, sizeof(big));
	set_bytes(&p, "mask", mask, sizeof(mask));
	set_int(&p, "a", 3);
	prints(&p, "[1 4294967295 256] [65534 5] [1099511627776] "
		   "[00000000,00000002,00000000,00000010] [ONE, TWO] [three] 0 1"); /* 1 / 0 not evaluated */
	set_int(&p, "a", 0x15);
	prints(&p, "[1 4294967295 256] [65534 5] [1099511627776] "
		   "[00000000,00000002,00000000,00000010] [ONE, 0x14] [F|0x11] 1 0");
	set_int(&p, "a", 0);
	prints(&p, "[1 4294967295 256] [65534 5] [1099511627776] "
		   "[00000000,00000002,00000000,00000010] [] [0x0] 0 0");
	peo_tp_format_free(f);
}

/* What cannot be evaluated fails with a sentence saying what, at the
 * payload; a division by zero at the payload that makes it. */
static void failures_say_why(void **state)
{
	struct peo_tp_format *f;
	const struct tp_arg *args;
	unsigned char raw[64] = { 0 };
	struct peo_record rec = { .sz = sizeof(rec) };
	char out[256];

	(void)state;
	assert_int_equal(peo_tp_format_parse(&f, "name: x\nformat:\n"
					     "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n\n"
					     "print fmt: \"%d %d\", 10 / REC->a, "
					     "jiffies_to_msecs(REC->a)\n"), 0);
	assert_int_equal(peo_tp_format_args(f, &args, NULL), 2);
	assert_null(peo_tp_expr_error(args[0].expr));
	assert_non_null(strstr(peo_tp_expr_error(args[1].expr), "a helper peo does not evaluate"));
	assert_int_equal(peo_tp_format_print(f, &rec, raw, sizeof(raw), out, sizeof(out)), -EDOM);
	assert_non_null(strstr(peo_last_error(), "a division by zero"));
	raw[8] = 5;
	assert_int_equal(peo_tp_format_print(f, &rec, raw, sizeof(raw), out, sizeof(out)), -ENOTSUP);
	assert_non_null(strstr(peo_last_error(), "jiffies_to_msecs"));
	assert_int_equal(peo_tp_format_print(f, &rec, raw, 9, out, sizeof(out)), -EPROTO);
	peo_tp_format_free(f);
}

/* ------------------------------------------------ every format here */

static uint64_t next_random(uint64_t *x)
{
	*x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
	return *x;
}

/* Whether the argument [@s, @e) calls what no reader of a recording can
 * run, or is C that only a compiler reads: a kernel function
 * (jiffies_to_msecs() needs the kernel's HZ), a statement expression,
 * sizeof, string literals side by side, a subscript of a helper's
 * string, (REC)->field, a table of an empty entry.  perf 6.1 cannot print these either. */
static int beyond_a_reader(const char *s, const char *e)
{
	static const char *const marks[] = { "({", "sizeof(", "jiffies_to_msecs(",
					     "mc_event_error_type(", "\" \"", ")[", "(REC)->", "{ })" };
	char text[4096];

	snprintf(text, sizeof(text), "%.*s", (int)(e - s), s);
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (strstr(text, marks[i]))
			return 1;
	return 0;
}

/* Every argument of every format here parses, but those beyond a reader;
 * each format prints (or fails with its sentence) over payloads of random
 * bytes, some shorter than its fields. */
static void every_format_here_parses(void **state)
{
	const char *dir = peo_tracefs_dir(NULL);
	size_t formats = 0, nargs_all = 0, beyond = 0;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char path[4096];
	DIR *events, *sys;
	struct dirent *s, *e;

	(void)state;
	if (!dir)
		PEO_SKIP("tracefs is not mounted: no formats to parse");
	snprintf(path, sizeof(path), "%s/events", dir);
	if (!(events = opendir(path)))
		PEO_SKIP("%s cannot be read: %m", path);
	while ((s = readdir(events))) {
		snprintf(path, sizeof(path), "%s/events/%s", dir, s->d_name);
		if (s->d_name[0] == '.' || !(sys = opendir(path)))
			continue;
		while ((e = readdir(sys))) {
			struct peo_tp_format *f;
			const struct tp_arg *args;
			size_t nargs;

			if (e->d_name[0] == '.' || peo_tp_format_load(&f, NULL, s->d_name, e->d_name))
				continue;
			formats++;
			nargs = peo_tp_format_args(f, &args, NULL);
			nargs_all += nargs;
			for (size_t i = 0; i < nargs; i++) {
				const char *why = peo_tp_expr_error(args[i].expr);

				if (why && !beyond_a_reader(args[i].s, args[i].e)) {
					fprintf(stderr, "%s:%s argument %zu: %s\n", s->d_name,
						e->d_name, i, why);
					fail();
				}
				beyond += why != NULL;
			}
			for (int i = 0; i < 8; i++) {
				unsigned char raw[512];
				char out[4096];
				struct peo_record rec = { .sz = sizeof(rec),
							  .swapped = i % 4 == 3 };
				size_t size = i % 2 ? next_random(&x) % 64 : sizeof(raw);
				int n;

				for (size_t k = 0; k < sizeof(raw); k++)
					raw[k] = (unsigned char)(next_random(&x) % 5 ? next_random(&x) : 0);
				n = peo_tp_format_print(f, &rec, raw, size, out, sizeof(out));
				assert_true(n >= 0 ? strlen(out) < sizeof(out) : peo_last_error()[0] != 0);
			}
			peo_tp_format_free(f);
		}
		closedir(sys);
	}
	closedir(events);
	fprintf(stderr, "  %zu formats, %zu arguments, %zu beyond a reader\n", formats, nargs_all,
		beyond);
	assert_true(formats > 100);
	assert_true(beyond * 100 < nargs_all); /* under 1% */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		PEO_TEST(kvm_emulate_insn_prints_its_bytes),
		PEO_TEST(neigh_update_prints_its_addresses),
		PEO_TEST(ipi_send_cpumask_prints_its_mask),
		PEO_TEST(sched_switch_prints_its_states),
		PEO_TEST(softirq_and_exec_print_names),
		PEO_TEST(arm_event_prints_its_buffers),
		PEO_TEST(made_up_helpers_print_as_written_down),
		PEO_TEST(failures_say_why),
		PEO_TEST(every_format_here_parses),
	};

	return PEO_TEST_MAIN("tp_expr", tests);
}
