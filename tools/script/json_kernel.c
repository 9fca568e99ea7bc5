/*
 * script/json_kernel.c - peo script --json: the fields of the kernel's
 * records, each under the kernel's name for it (perf_event.h), so that no
 * field a record carries is left out.  A sample's common fields are put
 * by print_sample_json() in cmd_script.c, on the hot path; the rest here.
 */
#include "script/json.h"

void json_key(struct out *o, const char *key)
{
	out_str(o, ",\"");
	out_str(o, key);
	out_str(o, "\":");
}

void json_key_str(struct out *o, const char *key, const char *s)
{
	json_key(o, key);
	json_str(o, s);
}

void json_hex_bytes(struct out *o, const char *key, const void *bytes, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *b = bytes;

	json_key(o, key);
	out_char(o, '"');
	for (size_t i = 0; i < n; i++) {
		char *p = out_room(o, 2);

		p[0] = hex[b[i] >> 4];
		p[1] = hex[b[i] & 15];
		out_advance(o, p + 2);
	}
	out_char(o, '"');
}

void json_u64_array(struct out *o, const char *key, json_u64_at_fn *at, const void *owner,
		    const void *array, uint64_t n, int hex)
{
	json_key(o, key);
	out_char(o, '[');
	for (uint64_t i = 0; i < n; i++) {
		char *p = out_room(o, 24);
		uint64_t v = at(owner, array, i);

		if (i)
			*p++ = ',';
		out_advance(o, hex ? put_json_hex(p, v) : put_dec(p, v, 0, 0));
	}
	out_char(o, ']');
}

static uint64_t record_u64(const void *r, const void *array, size_t i)
{
	return peo_record_u64(r, array, i);
}

/* ,"read":{...}: a read_format block, its values in the group's order. */
static void json_read(struct out *o, const struct peo_record *r, const struct peo_read *rd)
{
	struct peo_read_value v = { .sz = sizeof(v) };

	out_str(o, ",\"read\":{\"nr\":");
	out_u64(o, rd->nr, 0);
	if (rd->format & PEO_FORMAT_TOTAL_TIME_ENABLED)
		JSON_U64(o, "time_enabled", rd->time_enabled);
	if (rd->format & PEO_FORMAT_TOTAL_TIME_RUNNING)
		JSON_U64(o, "time_running", rd->time_running);
	out_str(o, ",\"values\":[");
	for (uint64_t i = 0; i < rd->nr && !peo_read_value(r, rd, i, &v); i++) {
		out_str(o, i ? ",{\"value\":" : "{\"value\":");
		out_u64(o, v.value, 0);
		if (rd->format & PEO_FORMAT_ID)
			JSON_U64(o, "id", v.id);
		if (rd->format & PEO_FORMAT_LOST)
			JSON_U64(o, "lost", v.lost);
		out_char(o, '}');
	}
	out_str(o, "]}");
}

/* ,"@key":{"abi":N,"regs":[...]}: a register dump, in its mask's bit order. */
static void json_regs(struct out *o, const char *key, const struct peo_record *r, uint64_t abi,
		      const void *regs, uint32_t nr)
{
	json_key(o, key);
	out_str(o, "{\"abi\":");
	out_u64(o, abi, 0);
	json_u64_array(o, "regs", record_u64, r, regs, regs ? nr : 0, 1);
	out_char(o, '}');
}

/* ,"branch_stack":[{...},...]: each entry with its flags word's fields. */
static void json_branches(struct out *o, const struct peo_record *r)
{
	const struct peo_sample *s = &r->u.sample;
	struct peo_branch b = { .sz = sizeof(b) };

	if (r->attr->branch_sample_type & PEO_SAMPLE_BRANCH_HW_INDEX)
		JSON_U64(o, "branch_hw_idx", s->branch_hw_idx);
	out_str(o, ",\"branch_stack\":[");
	for (uint64_t i = 0; i < s->branch_nr && !peo_sample_branch(r, i, &b); i++) {
		static const char from[] = "{\"from\":\"0x";
		char *p = out_room(o, 12 * JSON_FIELD_ROOM); /* the 11 fields below */

		if (i)
			*p++ = ',';
		p = put_quote(put_hex(put_bytes(p, from, sizeof(from) - 1), b.from, 0));
		p = PUT_HEX(p, "to", b.to);
		p = PUT_U64(p, "mispred", b.mispred);
		p = PUT_U64(p, "predicted", b.predicted);
		p = PUT_U64(p, "in_tx", b.in_tx);
		p = PUT_U64(p, "abort", b.abort);
		p = PUT_U64(p, "cycles", b.cycles);
		p = PUT_U64(p, "type", b.type);
		p = PUT_U64(p, "spec", b.spec);
		p = PUT_U64(p, "new_type", b.new_type);
		p = PUT_U64(p, "priv", b.priv);
		*p++ = '}';
		out_advance(o, p);
	}
	out_char(o, ']');
	if (s->branch_counters)
		json_u64_array(o, "branch_counters", record_u64, r, s->branch_counters, s->branch_nr, 0);
}

void json_sample_more(struct out *o, const struct peo_record *r)
{
	const struct peo_sample *s = &r->u.sample;
	uint64_t st = r->attr->sample_type;

	if (st & PEO_SAMPLE_STREAM_ID)
		JSON_U64(o, "stream_id", s->stream_id);
	if (st & PEO_SAMPLE_READ)
		json_read(o, r, &s->read);
	if (st & PEO_SAMPLE_BRANCH_STACK)
		json_branches(o, r);
	if (st & PEO_SAMPLE_REGS_USER)
		json_regs(o, "regs_user", r, s->regs_user_abi, s->regs_user, s->regs_user_nr);
	if (st & PEO_SAMPLE_STACK_USER) {
		out_str(o, ",\"stack_user\":{\"size\":");
		out_u64(o, s->stack_user_size, 0);
		if (s->stack_user_size) /* the kernel writes no dyn_size after an empty stack */
			JSON_U64(o, "dyn_size", s->stack_user_dyn_size);
		/* the bytes the kernel copied (dyn_size of them are the stack's) */
		json_hex_bytes(o, "data", s->stack_user, s->stack_user ? s->stack_user_size : 0);
		out_char(o, '}');
	}
	if (st & PEO_SAMPLE_WEIGHT_STRUCT) {
		out_str(o, ",\"weight\":{\"var1_dw\":");
		out_u64(o, s->weight_var1, 0);
		JSON_U64(o, "var2_w", s->weight_var2);
		JSON_U64(o, "var3_w", s->weight_var3);
		out_char(o, '}');
	} else if (st & PEO_SAMPLE_WEIGHT) {
		JSON_U64(o, "weight", s->weight);
	}
	if (st & PEO_SAMPLE_DATA_SRC)
		JSON_HEX(o, "data_src", s->data_src);
	if (st & PEO_SAMPLE_TRANSACTION)
		JSON_HEX(o, "transaction", s->transaction);
	if (st & PEO_SAMPLE_REGS_INTR)
		json_regs(o, "regs_intr", r, s->regs_intr_abi, s->regs_intr, s->regs_intr_nr);
	if (st & PEO_SAMPLE_PHYS_ADDR)
		JSON_HEX(o, "phys_addr", s->phys_addr);
	if (st & PEO_SAMPLE_CGROUP)
		JSON_U64(o, "cgroup", s->cgroup);
	if (st & PEO_SAMPLE_DATA_PAGE_SIZE)
		JSON_U64(o, "data_page_size", s->data_page_size);
	if (st & PEO_SAMPLE_CODE_PAGE_SIZE)
		JSON_U64(o, "code_page_size", s->code_page_size);
	if (st & PEO_SAMPLE_AUX) {
		out_str(o, ",\"aux\":{\"size\":");
		out_u64(o, s->aux_size, 0);
		json_hex_bytes(o, "data", s->aux, s->aux ? s->aux_size : 0);
		out_char(o, '}');
	}
}

/* The sample_id trailer's fields, each as sample_NAME. */
static void json_sample_id(struct out *o, const struct peo_sample_id *id)
{
	if (id->fields & PEO_SAMPLE_TID) {
		JSON_PID(o, "sample_pid", id->pid);
		JSON_PID(o, "sample_tid", id->tid);
	}
	if (id->fields & PEO_SAMPLE_TIME)
		JSON_U64(o, "sample_time", id->time);
	if (id->fields & (PEO_SAMPLE_ID | PEO_SAMPLE_IDENTIFIER))
		JSON_U64(o, "sample_id", id->fields & PEO_SAMPLE_ID ? id->id : id->identifier);
	if (id->fields & PEO_SAMPLE_STREAM_ID)
		JSON_U64(o, "sample_stream_id", id->stream_id);
	if (id->fields & PEO_SAMPLE_CPU)
		JSON_U64(o, "sample_cpu", id->cpu);
}

void json_kernel_record(struct out *o, const struct peo_record *r)
{
	const struct peo_rec_mmap *m = &r->u.mmap;

	if (r->unknown) { /* a type newer than peo: its number and its bytes, as they are */
		JSON_U64(o, "type_number", r->header.type);
		json_hex_bytes(o, "data", (const unsigned char *)r->bytes + 8, r->header.size - 8u);
		return;
	}
	switch (r->header.type) {
	case PEO_RECORD_COMM:
		JSON_PID(o, "pid", r->u.comm.pid);
		JSON_PID(o, "tid", r->u.comm.tid);
		json_key_str(o, "comm", r->u.comm.comm);
		out_str(o, r->u.comm.exec ? ",\"exec\":true" : ",\"exec\":false");
		break;
	case PEO_RECORD_FORK:
	case PEO_RECORD_EXIT:
		JSON_PID(o, "pid", r->u.task.pid);
		JSON_PID(o, "ppid", r->u.task.ppid);
		JSON_PID(o, "tid", r->u.task.tid);
		JSON_PID(o, "ptid", r->u.task.ptid);
		JSON_U64(o, "time", r->u.task.time);
		break;
	case PEO_RECORD_MMAP:
	case PEO_RECORD_MMAP2:
		JSON_PID(o, "pid", m->pid);
		JSON_PID(o, "tid", m->tid);
		JSON_HEX(o, "addr", m->addr);
		JSON_HEX(o, "len", m->len);
		JSON_HEX(o, "pgoff", m->pgoff);
		if (r->header.type == PEO_RECORD_MMAP2 && m->build_id) {
			json_hex_bytes(o, "build_id", m->build_id, m->build_id_size);
		} else if (r->header.type == PEO_RECORD_MMAP2) {
			JSON_U64(o, "maj", m->maj);
			JSON_U64(o, "min", m->min);
			JSON_U64(o, "ino", m->ino);
			JSON_U64(o, "ino_generation", m->ino_generation);
		}
		if (r->header.type == PEO_RECORD_MMAP2) {
			JSON_HEX(o, "prot", m->prot);
			JSON_HEX(o, "flags", m->flags);
		}
		json_key_str(o, "filename", m->filename);
		break;
	case PEO_RECORD_LOST:
		JSON_U64(o, "id", r->u.lost.id);
		JSON_U64(o, "lost", r->u.lost.lost);
		break;
	case PEO_RECORD_THROTTLE:
	case PEO_RECORD_UNTHROTTLE:
		JSON_U64(o, "time", r->u.throttle.time);
		JSON_U64(o, "id", r->u.throttle.id);
		JSON_U64(o, "stream_id", r->u.throttle.stream_id);
		break;
	case PEO_RECORD_READ:
		JSON_PID(o, "pid", r->u.read.pid);
		JSON_PID(o, "tid", r->u.read.tid);
		json_read(o, r, &r->u.read.read);
		break;
	case PEO_RECORD_AUX:
		JSON_HEX(o, "aux_offset", r->u.aux.aux_offset);
		JSON_U64(o, "aux_size", r->u.aux.aux_size);
		JSON_HEX(o, "flags", r->u.aux.flags);
		break;
	case PEO_RECORD_ITRACE_START:
		JSON_PID(o, "pid", r->u.itrace_start.pid);
		JSON_PID(o, "tid", r->u.itrace_start.tid);
		break;
	case PEO_RECORD_LOST_SAMPLES:
		JSON_U64(o, "lost", r->u.lost_samples.lost);
		break;
	case PEO_RECORD_SWITCH:
	case PEO_RECORD_SWITCH_CPU_WIDE:
		if (r->header.type == PEO_RECORD_SWITCH_CPU_WIDE) {
			JSON_PID(o, "next_prev_pid", r->u.sw.next_prev_pid);
			JSON_PID(o, "next_prev_tid", r->u.sw.next_prev_tid);
		}
		out_str(o, r->u.sw.out ? ",\"out\":true" : ",\"out\":false");
		out_str(o, r->u.sw.preempt ? ",\"preempt\":true" : ",\"preempt\":false");
		break;
	case PEO_RECORD_NAMESPACES:
		JSON_PID(o, "pid", r->u.namespaces.pid);
		JSON_PID(o, "tid", r->u.namespaces.tid);
		out_str(o, ",\"namespaces\":[");
		for (uint64_t i = 0; i < r->u.namespaces.nr; i++) {
			out_str(o, i ? ",{\"dev\":" : "{\"dev\":");
			out_u64(o, peo_record_u64(r, r->u.namespaces.entries, 2 * i), 0);
			JSON_U64(o, "inode", peo_record_u64(r, r->u.namespaces.entries, 2 * i + 1));
			out_char(o, '}');
		}
		out_char(o, ']');
		break;
	case PEO_RECORD_KSYMBOL:
		JSON_HEX(o, "addr", r->u.ksymbol.addr);
		JSON_U64(o, "len", r->u.ksymbol.len);
		JSON_U64(o, "ksym_type", r->u.ksymbol.ksym_type);
		JSON_HEX(o, "flags", r->u.ksymbol.flags);
		json_key_str(o, "name", r->u.ksymbol.name);
		break;
	case PEO_RECORD_BPF_EVENT: /* its "type" under another key: the record's is "type" */
		JSON_U64(o, "bpf_event_type", r->u.bpf_event.type);
		JSON_HEX(o, "flags", r->u.bpf_event.flags);
		JSON_U64(o, "id", r->u.bpf_event.id);
		json_hex_bytes(o, "tag", r->u.bpf_event.tag, 8);
		break;
	case PEO_RECORD_CGROUP:
		JSON_U64(o, "id", r->u.cgroup.id);
		json_key_str(o, "path", r->u.cgroup.path);
		break;
	case PEO_RECORD_TEXT_POKE:
		JSON_HEX(o, "addr", r->u.text_poke.addr);
		JSON_U64(o, "old_len", r->u.text_poke.old_len);
		JSON_U64(o, "new_len", r->u.text_poke.new_len);
		json_hex_bytes(o, "old_bytes", r->u.text_poke.old_bytes, r->u.text_poke.old_len);
		json_hex_bytes(o, "new_bytes", r->u.text_poke.new_bytes, r->u.text_poke.new_len);
		break;
	case PEO_RECORD_AUX_OUTPUT_HW_ID:
		JSON_U64(o, "hw_id", r->u.aux_output_hw_id.hw_id);
		break;
	case PEO_RECORD_CALLCHAIN_DEFERRED: /* the ips as a sample's: context markers included */
		JSON_HEX(o, "cookie", r->u.callchain_deferred.cookie);
		json_u64_array(o, "ips", record_u64, r, r->u.callchain_deferred.ips,
			       r->u.callchain_deferred.nr, 1);
		break;
	}
	json_sample_id(o, &r->sample_id);
}
