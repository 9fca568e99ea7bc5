/*
 * report/collect.c - a recording's samples into a peo_profile: the
 * records read in time order, the processes' names and maps kept, each
 * sample's frames named as perf report names them (its callchain, the
 * user part unwound when it was recorded with --call-graph dwarf; else
 * its ip alone).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report/report.h"

#define MAX_FRAMES 512 /* perf's largest callchain (kernel.perf_event_max_stack) is 127; room */
#define MAX_UNWOUND 127

static void look_up_now(struct report_data *d, const struct peo_record *r, uint16_t mode,
			uint64_t ip, uint64_t at, struct peo_frame *fr);

/* A frame looked up, kept until the processes' names and maps change: a
 * deep stack's frames repeat from sample to sample (45 lookups a sample
 * on the deep-callchain file, a few thousand distinct). */
#define CACHE_SLOTS (1u << 16)

struct report_cached {
	uint64_t ip, at, gen;
	uint32_t pid;
	uint16_t mode;
	int valid;
	struct peo_frame fr;
};

/* Frame @ip of @r's process in @mode, looked up at @at (a caller's return
 * address minus one, for an unwound one). */
static void look_up(struct report_data *d, const struct peo_record *r, uint16_t mode, uint64_t ip,
		    uint64_t at, struct peo_frame *fr)
{
	uint32_t pid = mode == PEO_RECORD_MISC_KERNEL ? 0 : r->sample_id.pid;
	struct report_cached *c = d->cache ? &d->cache[((ip ^ at << 7) * 0x9e3779b97f4a7c15ull +
							pid) >> 48 & (CACHE_SLOTS - 1)] : NULL;

	if (c && c->valid && c->ip == ip && c->at == at && c->pid == pid && c->mode == mode &&
	    c->gen == d->state_gen) {
		*fr = c->fr;
		return;
	}
	look_up_now(d, r, mode, ip, at, fr);
	if (c)
		*c = (struct report_cached){ .ip = ip, .at = at, .gen = d->state_gen, .pid = pid,
					     .mode = mode, .valid = 1, .fr = *fr };
}

/* look_up() without the cache. */
static void look_up_now(struct report_data *d, const struct peo_record *r, uint16_t mode,
			uint64_t ip, uint64_t at, struct peo_frame *fr)
{
	*fr = (struct peo_frame){ .sz = sizeof(*fr) };
	if (peo_processes_lookup(d->procs, r->sample_id.pid, mode, at, 0, fr) < 0)
		*fr = (struct peo_frame){ .sz = sizeof(*fr), .dso_offset = ip };
	fr->addr = ip;
	if (mode == PEO_RECORD_MISC_KERNEL || mode == PEO_RECORD_MISC_GUEST_KERNEL)
		fr->flags |= PEO_FRAME_KERNEL;
	else if ((d->args->pprof || d->args->want_lines) &&
		 report_lines_add(d, fr))
		d->lines_failed = 1;
}

/* Unwound frame @ip (looked up at @at) after the @n of @fr: the functions
 * inlined there first (as perf's callchains list them), then its own
 * (but when @is_ip: the sample's ip, there already).  The new count. */
static size_t add_unwound(struct report_data *d, const struct peo_record *r, uint64_t ip,
			  uint64_t at, struct peo_frame *fr, size_t n, int is_ip)
{
	const char *names[16];
	struct peo_frame outer;
	int k = 0;

	look_up(d, r, PEO_RECORD_MISC_USER, ip, at, &outer);
	if (outer.sym)
		k = peo_processes_inlines(d->procs, r->sample_id.pid, at, names, 16);
	for (int j = 0; j < k && n < MAX_FRAMES; j++) {
		fr[n] = outer;
		/* one named as the function it is in is that function's frame
		 * to perf (it reuses the symbol): the same row, the same node */
		if (strcmp(names[j], outer.sym)) {
			fr[n].sym = names[j];
			fr[n].flags |= PEO_FRAME_INLINED;
		}
		n++;
	}
	if (!is_ip && n < MAX_FRAMES)
		fr[n++] = outer;
	return n;
}

/* @r's frames into @fr (innermost first); how many. */
static size_t frames_of(struct report_data *d, const struct peo_record *r, struct peo_frame *fr)
{
	const struct peo_attr *a = r->attr;
	struct peo_callchain_iter it = { .sz = sizeof(it) };
	uint64_t ip, ips[MAX_UNWOUND];
	int64_t ctx;
	size_t n = 0;
	int nu = 0;

	if (!a || !(a->sample_type & PEO_SAMPLE_CALLCHAIN)) {
		look_up(d, r, r->header.misc & PEO_RECORD_MISC_CPUMODE_MASK, r->u.sample.ip,
			r->u.sample.ip, &fr[0]);
		return 1;
	}
	if ((a->sample_type & PEO_SAMPLE_STACK_USER) && (a->sample_type & PEO_SAMPLE_REGS_USER))
		nu = peo_processes_unwind(d->procs, r, ips, MAX_UNWOUND);
	/* the ip as its own row has it (the sample's cpumode), then its callers;
	 * the callchain's first entry is the ip again */
	look_up(d, r, r->header.misc & PEO_RECORD_MISC_CPUMODE_MASK, r->u.sample.ip,
		r->u.sample.ip, &fr[n++]);
	peo_callchain_begin(&it, r);
	for (int first = 1; n < MAX_FRAMES && peo_callchain_next(&it, &ip, &ctx); first = 0) {
		uint16_t mode = callchain_cpumode(ctx);

		if (nu > 0 && mode == PEO_RECORD_MISC_USER)
			break; /* the unwound frames stand for it */
		if (first && ip == r->u.sample.ip)
			continue;
		look_up(d, r, mode, ip, ip, &fr[n++]);
	}
	for (int i = 0; i < nu && n < MAX_FRAMES; i++)
		n = add_unwound(d, r, ips[i], i ? ips[i] - 1 : ips[i], fr, n, !i && n == 1 &&
				ips[0] == r->u.sample.ip);
	if ((a->sample_type & PEO_SAMPLE_STACK_USER) && nu <= 0 && n == 1)
		fr[0].flags |= REPORT_FRAME_NO_CALLERS;
	return n;
}

static int symbols_start(const struct report_args *a, struct report_data *d)
{
	PEO_OPTS(peo_symbols_opts, so, .symfs = a->symfs, .kallsyms = a->kallsyms,
		 .vmlinux = a->vmlinux);

	if (recording_symbols(d->f, &so, &d->syms) || peo_processes_new(&d->procs, d->syms, NULL) ||
	    peo_profile_new(&d->profile, NULL))
		return -1;
	for (size_t i = 0; i < peo_perfdata_attr_count(d->f); i++)
		if (peo_perfdata_attr(d->f, i)->sample_type & PEO_SAMPLE_CALLCHAIN)
			d->has_callchains = 1;
	return 0;
}

/* A sample's raw stack, as last seen: the same event, thread, CPU,
 * cpumode, ip and callchain under the same processes' state make the
 * same frames, so its stack is counted again without naming them (most
 * of the samples of a deep profile repeat one). */
#define RAW_SLOTS (1u << 14)

struct report_raw {
	uint64_t hash, gen;
	uint64_t *ips;        /* the callchain, host order; NULL: empty slot */
	size_t nips, cap;
	size_t stack;         /* the profile's stack it was counted in */
};

static uint64_t raw_hash(const struct peo_record *r, int ev)
{
	const struct peo_sample *s = &r->u.sample;
	uint64_t h = ((uint64_t)(uint32_t)ev << 48 ^ (uint64_t)s->tid << 16 ^ s->cpu) *
		     0x9e3779b97f4a7c15ull ^ s->ip ^ (uint64_t)(r->header.misc & 7) << 61;

	for (uint64_t i = 0; i < s->callchain_nr; i++)
		h = (h ^ peo_record_u64(r, s->callchain, i)) * 0xff51afd7ed558ccdull;
	return h ^ h >> 31;
}

/* Whether @c holds @r's raw stack (of event @ev, hashed @h) of the
 * current state. */
static int raw_same(const struct report_data *d, const struct report_raw *c, uint64_t h,
		    const struct peo_record *r, int ev)
{
	const struct peo_sample *s = &r->u.sample;

	if (!c->ips || c->hash != h || c->gen != d->state_gen || c->nips != s->callchain_nr + 4)
		return 0;
	if (c->ips[0] != s->ip || c->ips[1] != (s->tid | (uint64_t)(uint32_t)ev << 32) ||
	    c->ips[2] != s->cpu || c->ips[3] != (uint64_t)(r->header.misc & 7))
		return 0;
	for (uint64_t i = 0; i < s->callchain_nr; i++)
		if (c->ips[4 + i] != peo_record_u64(r, s->callchain, i))
			return 0;
	return 1;
}

/* Keep @r's raw stack (of event @ev, hashed @h), counted in the
 * profile's last stack. */
static void raw_keep(struct report_data *d, struct report_raw *c, uint64_t h,
		     const struct peo_record *r, int ev)
{
	const struct peo_sample *s = &r->u.sample;
	size_t n = s->callchain_nr + 4;

	if (n > c->cap) {
		uint64_t *more = realloc(c->ips, n * sizeof(*more));

		if (!more) { /* not kept: looked up the next time too */
			free(c->ips);
			c->ips = NULL;
			c->cap = 0;
			return;
		}
		c->ips = more;
		c->cap = n;
	}
	c->ips[0] = s->ip;
	c->ips[1] = s->tid | (uint64_t)(uint32_t)ev << 32;
	c->ips[2] = s->cpu;
	c->ips[3] = r->header.misc & 7;
	for (uint64_t i = 0; i < s->callchain_nr; i++)
		c->ips[4 + i] = peo_record_u64(r, s->callchain, i);
	c->nips = n;
	c->hash = h;
	c->gen = d->state_gen;
	c->stack = peo_profile_last(d->profile);
}

static int add_sample(struct report_data *d, const struct peo_record *r, struct peo_frame *fr)
{
	const struct peo_sample *s = &r->u.sample;
	uint64_t st = r->attr ? r->attr->sample_type : 0;
	int ev = peo_perfdata_event_of(d->f, r->attr);
	struct peo_profile_sample ps = {
		.sz = sizeof(ps), .event = ev < 0 ? 0 : (uint32_t)ev,
		.pid = (st & PEO_SAMPLE_TID) ? s->pid : (uint32_t)-1,
		.tid = (st & PEO_SAMPLE_TID) ? s->tid : (uint32_t)-1,
		.cpu = (st & PEO_SAMPLE_CPU) ? s->cpu : (uint32_t)-1,
		.comm = (st & PEO_SAMPLE_TID) ? peo_processes_comm(d->procs, s->tid) : NULL,
		.frames = fr, .period = (st & PEO_SAMPLE_PERIOD) ? s->period : 1,
	};

	/* the raw stacks of frame-pointer callchains (a dwarf stack's frames
	 * are its stack bytes' too: not kept) */
	int raw = d->raw && (st & PEO_SAMPLE_CALLCHAIN) && (st & PEO_SAMPLE_TID) &&
		  !(st & PEO_SAMPLE_STACK_USER);
	uint64_t h = raw ? raw_hash(r, ev) : 0;
	struct report_raw *c = raw ? &d->raw[h & (RAW_SLOTS - 1)] : NULL;
	int err;

	if (!(st & PEO_SAMPLE_PERIOD) && r->attr && !r->attr->freq)
		ps.period = r->attr->sample_period; /* a fixed period, not recorded per sample */
	if (c && raw_same(d, c, h, r, ev))
		return peo_profile_add_again(d->profile, c->stack, ps.period);
	ps.nframes = frames_of(d, r, fr);
	if (!(err = peo_profile_add(d->profile, &ps)) && c)
		raw_keep(d, c, h, r, ev);
	return err;
}

int report_collect(const struct report_args *a, struct report_data *d)
{
	PEO_OPTS(peo_perfdata_opts, po, .ordered = PEO_PERFDATA_ORDER_AS_PERF);
	struct peo_perfdata_record rec = { .sz = sizeof(rec) };
	struct peo_frame *fr = malloc(MAX_FRAMES * sizeof(*fr));
	struct preloader preloaders[2];
	int got, err = 0;

	memset(d, 0, sizeof(*d));
	d->args = a;
	d->cache = calloc(CACHE_SLOTS, sizeof(*d->cache)); /* none: every frame looked up */
	d->raw = calloc(RAW_SLOTS, sizeof(*d->raw));      /* none: every stack looked up */
	if (!fr || peo_perfdata_open(&d->f, a->input, &po) || symbols_start(a, d)) {
		fprintf(stderr, "peo report: %s\n", fr ? peo_last_error() : "out of memory");
		free(fr);
		return -1;
	}
	/* the kernel's and the binaries' symbols (and their DWARF, for dwarf
	 * stacks' inlined functions and --pprof's lines) read while the
	 * records start */
	preload_start(preloaders, d->syms, PEO_PRELOAD_KERNEL | PEO_PRELOAD_BINARIES |
					       (recording_has_stacks(d->f) || a->pprof || a->want_lines
						? PEO_PRELOAD_DWARF : 0));
	while (!err && (got = peo_perfdata_next(d->f, &rec)) > 0) {
		const struct peo_record *r = &rec.rec;

		switch (r->header.type) {
		case PEO_RECORD_SAMPLE:
			if (a->time && (r->u.sample.time < a->time_start ||
					r->u.sample.time > a->time_end) &&
			    r->attr && (r->attr->sample_type & PEO_SAMPLE_TIME))
				break; /* outside --time: not counted, as perf */
			err = add_sample(d, r, fr);
			break;
		case PEO_RECORD_LOST_SAMPLES:
			d->lost_samples += r->u.lost_samples.lost;
			break;
		case PEO_RECORD_COMM:
		case PEO_RECORD_FORK:
		case PEO_RECORD_EXIT:
		case PEO_RECORD_MMAP:
		case PEO_RECORD_MMAP2:
			d->state_gen++; /* names and maps change: the cached frames are stale */
			err = peo_processes_add_record(d->procs, r);
			break;
		default:
			err = peo_processes_add_record(d->procs, r);
		}
	}
	preload_join(preloaders);
	if (report_lines_finish(d))
		d->lines_failed = 1;
	free(fr);
	if (err || got < 0) {
		fprintf(stderr, "peo report: %s: %s\n", a->input, peo_last_error());
		return -1;
	}
	return 0;
}

void report_data_free(struct report_data *d, int exiting)
{
	for (size_t i = 0; d->raw && i < RAW_SLOTS; i++)
		free(d->raw[i].ips);
	free(d->raw);
	free(d->cache);
	report_lines_free(d->lines);
	peo_profile_free(d->profile);
	if (!exiting || !exit_keep(d->procs))
		peo_processes_free(d->procs);
	if (!exiting || !exit_keep(d->syms))
		peo_symbols_free(d->syms);
	if (d->f)
		peo_perfdata_close(d->f);
	memset(d, 0, sizeof(*d));
}
