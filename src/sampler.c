/*
 * sampler.c - peo_sampler: events opened for sampling on a target's
 * slots, a ring per CPU (or per thread on any CPU) with the slot's other
 * events sent into it, and a parser that knows every event's attr and
 * ids, so that records come out parsed and bound to their event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counter_internal.h"
#include "peo/event.h"
#include "peo/ring.h"
#include "peo/sampler.h"
#include "peo/sys.h"

_Static_assert(PEO_CPUMODE_KERNEL == PEO_RECORD_MISC_KERNEL &&
		       PEO_CPUMODE_USER == PEO_RECORD_MISC_USER &&
		       PEO_CPUMODE_HYPERVISOR == PEO_RECORD_MISC_HYPERVISOR &&
		       PEO_CPUMODE_GUEST_KERNEL == PEO_RECORD_MISC_GUEST_KERNEL &&
		       PEO_CPUMODE_GUEST_USER == PEO_RECORD_MISC_GUEST_USER,
	       "peo_cpumode is header.misc's cpumode");

#if defined(__x86_64__)
#define UNWIND_REGS 0xff0fffULL /* ax..r15 without the segment registers, ip, sp */
#elif defined(__aarch64__)
#define UNWIND_REGS 0x1ffffffffULL /* x0..x30, sp, pc */
#else
#define UNWIND_REGS 0ULL
#endif
#define DEFAULT_FREQ 4000
#define DEFAULT_PAGES 64
#define DEFAULT_STACK 8192u
#define RECORD_MAX 65536 /* header.size is 16 bits */

struct sampler_event {
	struct peo_attr attr;        /* as the kernel took it (the first slot's) */
	const char *name;            /* the list's, or "" */
	struct peo_tp_format *format; /* a tracepoint's, else NULL */
	uint64_t *ids;               /* a slot each */
	size_t nids;
};

struct peo_sampler {
	struct peo_event_list *list; /* NULL when opened from attrs */
	struct sampler_event *events;
	size_t nevents;
	int *fds;
	size_t nfds;
	struct peo_ring **rings;
	size_t nrings;
	struct peo_ring_set *set;
	struct peo_record_parser *parser;
	size_t cur;                  /* the ring being read */
	int reading;                 /* a record of rings[cur] was handed out */
	struct peo_record rec;
	uint64_t lost;
	unsigned char *wrapped;      /* RECORD_MAX bytes */
};

void peo_sampler_close(struct peo_sampler *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nrings; i++)
		peo_ring_unmap(s->rings[i]);
	peo_ring_set_free(s->set);
	for (size_t i = 0; i < s->nfds; i++)
		close(s->fds[i]);
	for (size_t i = 0; i < s->nevents; i++) {
		peo_tp_format_free(s->events[i].format);
		free(s->events[i].ids);
	}
	peo_record_parser_free(s->parser);
	peo_event_list_free(s->list);
	free(s->events);
	free(s->fds);
	free(s->rings);
	free(s->wrapped);
	free(s);
}

/* perf record's default rate, lowered to kernel.perf_event_max_sample_rate
 * where that is lower (as perf does; the kernel refuses a rate above it). */
static uint64_t default_freq(void)
{
	long max;

	return peo_read_long_file("/proc/sys/kernel/perf_event_max_sample_rate", &max) == 0 &&
			       max > 0 && max < DEFAULT_FREQ
		       ? (uint64_t)max
		       : DEFAULT_FREQ;
}

/* The sampling fields of event @i's attr (@first: it asks for the side records). */
static void sampling_attr(struct peo_attr *a, const struct peo_sampler_opts *o, size_t nevents,
			  int first, int cpu_target)
{
	int every_hit = a->type == PEO_TYPE_TRACEPOINT || a->type == PEO_TYPE_BREAKPOINT;

	a->sample_type |= PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME | o->sample_type;
	if (nevents > 1)
		a->sample_type |= PEO_SAMPLE_IDENTIFIER;
	if (a->type == PEO_TYPE_TRACEPOINT)
		a->sample_type |= PEO_SAMPLE_RAW | PEO_SAMPLE_CPU;
	if (cpu_target)
		a->sample_type |= PEO_SAMPLE_CPU;
	if (o->period) {
		a->freq = 0;
		a->sample_period = o->period;
	} else if (o->freq || !(every_hit || a->sample_period)) {
		a->freq = 1;
		a->sample_freq = o->freq ? o->freq : default_freq();
	}
	if (a->freq)
		a->sample_type |= PEO_SAMPLE_PERIOD; /* a fixed period is the attr's */
	if (a->sample_type & PEO_SAMPLE_STACK_USER)
		a->sample_stack_user = o->stack_user ? o->stack_user : DEFAULT_STACK;
	if (a->sample_type & PEO_SAMPLE_REGS_USER)
		a->sample_regs_user = o->regs_user ? o->regs_user : UNWIND_REGS;
	if (a->sample_type & PEO_SAMPLE_CALLCHAIN)
		a->sample_max_stack = o->max_stack;
	if (o->wakeup_bytes) {
		a->watermark = 1;
		a->wakeup_watermark = o->wakeup_bytes;
	} else {
		a->wakeup_events = o->wakeup_events;
	}
	a->use_clockid = !!o->use_clockid;
	a->clockid = o->use_clockid ? o->clockid : 0;
	a->inherit = !!o->inherit;
	a->sigtrap = a->remove_on_exec = !!o->sigtrap;
	a->sig_data = o->sig_data;
	a->disabled = !o->enabled;
	a->sample_id_all = 1;
	a->pinned = first && o->pinned;
	a->exclusive = first && o->exclusive;
	if (first) {
		unsigned r = o->records;

		a->comm = a->comm_exec = !!(r & PEO_SAMPLER_COMM);
		a->mmap2 = a->mmap = !!(r & (PEO_SAMPLER_MMAP | PEO_SAMPLER_MMAP_DATA));
		a->mmap_data = !!(r & PEO_SAMPLER_MMAP_DATA);
		a->task = !!(r & PEO_SAMPLER_TASK);
		a->context_switch = !!(r & PEO_SAMPLER_SWITCH);
		a->namespaces = !!(r & PEO_SAMPLER_NAMESPACES);
		a->cgroup = !!(r & PEO_SAMPLER_CGROUP);
		a->ksymbol = !!(r & PEO_SAMPLER_KSYMBOL);
		a->text_poke = !!(r & PEO_SAMPLER_TEXT_POKE);
		a->bpf_event = !!(r & PEO_SAMPLER_BPF);
	}
}

/* @opts (the caller's, of its size; NULL: the defaults) into @o, whole,
 * checked: 0, or -EINVAL / -E2BIG naming the field. */
static int take_opts(const struct peo_sampler_opts *opts, struct peo_sampler_opts *o)
{
	const unsigned known = (PEO_SAMPLER_BPF << 1) - 1;
	int err;

	*o = (struct peo_sampler_opts){ .sz = sizeof(*o) };
	if ((err = peo_opts_check(opts, sizeof(*o), "peo_sampler_opts")))
		return err;
	if (opts)
		memcpy(o, opts, opts->sz < sizeof(*o) ? opts->sz : sizeof(*o));
	if (o->ring_pages & (o->ring_pages - 1))
		return peo_fail(EINVAL, "peo_sampler_opts.ring_pages: %zu is not a power of two "
				"(try %zu)", o->ring_pages, (size_t)1 << (64 - __builtin_clzll(o->ring_pages)));
	if (o->records & ~known)
		return peo_fail(EINVAL, "peo_sampler_opts.records: unknown bits %#x (PEO_SAMPLER_* "
				"are %#x)", o->records & ~known, known);
	if (o->stack_user % 8 || o->stack_user >= 65535)
		return peo_fail(EINVAL, "peo_sampler_opts.stack_user: %u; the kernel takes a multiple "
				"of 8 below 65535", o->stack_user);
	return 0;
}

/* What the kernel refuses of @o on target @t, said before opening. */
static int check_target(const struct peo_sampler_opts *o, const struct peo_target *t)
{
	int cpus = t->kind == PEO_TARGET_CPUS || t->kind == PEO_TARGET_CGROUP;

	if (o->inherit && !cpus && peo_target_cpu(t, 0) < 0)
		return peo_fail(EINVAL, "peo_sampler_opts.inherit: the kernel maps no ring of an "
				"inherited event on any CPU: make the target with .per_cpu = 1 (a ring "
				"per CPU, as perf record's)");
	if (o->sigtrap && cpus)
		return peo_fail(EINVAL, "peo_sampler_opts.sigtrap: a signal goes to a task; the "
				"kernel refuses it on a CPU or cgroup target");
	return 0;
}

/* A tracepoint event's format, for peo_sampler_field(): NULL for others. */
static int load_format(struct sampler_event *e)
{
	char sys[256], event[256], *colon;
	const char *name;
	size_t len;
	int err;

	if (e->attr.type != PEO_TYPE_TRACEPOINT || !(colon = strchr(e->name, ':')))
		return 0;
	len = (size_t)(colon - e->name);
	if (len >= sizeof(sys))
		return 0;
	memcpy(sys, e->name, len);
	sys[len] = '\0';
	name = colon + 1;
	len = strcspn(name, ":/");
	if (len >= sizeof(event))
		return 0;
	memcpy(event, name, len);
	event[len] = '\0';
	err = peo_tp_format_load(&e->format, NULL, sys, event);
	return err == -ENOMEM ? err : 0; /* no format: no fields by name, said then */
}

/* Open event @i on (@cpu, @tid) of @t; its fd, or a negative errno. */
static int open_slot(struct peo_sampler *s, size_t i, const struct peo_attr *base,
		     const struct peo_sampler_opts *o, int cpu, pid_t tid,
		     const struct peo_target *t)
{
	struct sampler_event *e = &s->events[i];
	struct peo_attr attr = *base;
	int cgroup = t->cgroup_fd >= 0, fd, err;
	unsigned long flags = PEO_FLAG_FD_CLOEXEC | (cgroup ? PEO_FLAG_PID_CGROUP : 0);
	pid_t pid = cgroup ? t->cgroup_fd : tid;
	uint64_t id;

	sampling_attr(&attr, o, s->nevents, i == 0,
		      t->kind == PEO_TARGET_CPUS || t->kind == PEO_TARGET_CGROUP);
	fd = s->list ? peo_event_open(peo_event_list_get(s->list, i), &attr, pid, cpu, -1, flags)
		     : peo_sys_open(&attr, pid, cpu, -1, flags);
	if (fd < 0)
		return fd;
	if ((err = peo_sys_ioc_id(fd, &id))) {
		close(fd);
		return err;
	}
	if (!e->nids)
		e->attr = attr;
	e->ids[e->nids++] = id;
	s->fds[s->nfds++] = fd;
	return fd;
}

/* Every event on every slot of @t, each slot's fds into its ring. */
static int open_all(struct peo_sampler *s, const struct peo_attr *attrs,
		    const struct peo_target *t, const struct peo_sampler_opts *o)
{
	size_t ncpus = peo_target_cpu_count(t), nthreads = peo_target_thread_count(t);
	PEO_OPTS(peo_ring_opts, ro, .data_pages = o->ring_pages ? o->ring_pages : DEFAULT_PAGES);
	size_t nslots = ncpus * nthreads;
	int err;

	if (!(s->fds = calloc(nslots * s->nevents, sizeof(*s->fds))) ||
	    !(s->rings = calloc(ncpus > nthreads ? ncpus : nthreads, sizeof(*s->rings))))
		return peo_fail(ENOMEM, "out of memory for %zu events on %zu slots", s->nevents,
				nslots);
	for (size_t i = 0; i < s->nevents; i++)
		if (!(s->events[i].ids = calloc(nslots, sizeof(uint64_t))))
			return peo_fail(ENOMEM, "out of memory for %zu events' ids", s->nevents);
	if ((err = peo_ring_set_new(&s->set)))
		return err;
	for (size_t c = 0; c < ncpus; c++)
		for (size_t th = 0; th < nthreads; th++) {
			int cpu = peo_target_cpu(t, c);
			/* SET_OUTPUT needs the same CPU, or on any CPU the same task */
			size_t r = cpu >= 0 ? c : th;

			for (size_t i = 0; i < s->nevents; i++) {
				const struct peo_attr *base =
					attrs ? &attrs[i] : peo_event_attr(peo_event_list_get(s->list, i));
				int fd = open_slot(s, i, base, o, cpu, peo_target_thread(t, th), t);

				if (fd == -ESRCH && (t->kind == PEO_TARGET_ALL_THREADS ||
						     t->kind == PEO_TARGET_PID))
					continue; /* a thread gone since the target was read */
				if (fd < 0)
					return fd;
				if (s->rings[r]) {
					if ((err = peo_ring_add(s->rings[r], fd)))
						return err;
					continue;
				}
				if ((err = peo_ring_map(&s->rings[r], fd, &ro)))
					return err;
				s->nrings = r + 1 > s->nrings ? r + 1 : s->nrings;
				if ((err = peo_ring_set_add(s->set, s->rings[r])) < 0)
					return err;
			}
		}
	return 0;
}

/* The parser, every event's attr with its ids. */
static int make_parser(struct peo_sampler *s)
{
	int err;

	if ((err = peo_record_parser_new(&s->parser, NULL)))
		return err;
	for (size_t i = 0; i < s->nevents; i++)
		if ((err = peo_record_parser_add(s->parser, &s->events[i].attr, s->events[i].ids,
						 s->events[i].nids)))
			return err;
	return 0;
}

static int sampler_open(struct peo_sampler **out, struct peo_event_list *list,
			const struct peo_attr *attrs, size_t n, const struct peo_target *target,
			const struct peo_sampler_opts *opts)
{
	PEO_OPTS(peo_target_opts, self, .per_cpu = opts->inherit); /* inherit: rings per CPU */
	struct peo_target *own = NULL;
	struct peo_sampler *s;
	int err;

	if (!(s = calloc(1, sizeof(*s)))) {
		peo_event_list_free(list);
		return peo_fail(ENOMEM, "out of memory for a sampler");
	}
	s->list = list;
	s->nevents = n;
	s->rec.sz = sizeof(s->rec);
	if (!(s->events = calloc(n, sizeof(*s->events))) || !(s->wrapped = malloc(RECORD_MAX))) {
		err = peo_fail(ENOMEM, "out of memory for a sampler of %zu events", n);
		goto fail;
	}
	for (size_t i = 0; i < n; i++)
		s->events[i].name = list ? peo_event_name(peo_event_list_get(list, i)) : "";
	if (!target && (err = peo_target_new(&own, &self)))
		goto fail;
	err = check_target(opts, target ? target : own);
	if (!err)
		err = open_all(s, attrs, target ? target : own, opts);
	/* perf's answer to perf_event_paranoid: the events in user space only */
	if (err < 0 && list && !s->nfds && peo_event_user_fallback(list, err, NULL) > 0) {
		peo_target_free(own);
		s->list = NULL; /* kept for the second try */
		peo_sampler_close(s);
		return sampler_open(out, list, attrs, n, target, opts);
	}
	peo_target_free(own);
	if (err < 0)
		goto fail;
	for (size_t i = 0; i < n; i++)
		if ((err = load_format(&s->events[i])))
			goto fail;
	if ((err = make_parser(s)))
		goto fail;
	*out = s;
	return 0;
fail:
	peo_sampler_close(s);
	return err;
}

int peo_sampler_open(struct peo_sampler **out, const char *events,
		     const struct peo_target *target, const struct peo_sampler_opts *opts)
{
	struct peo_sampler_opts o;
	struct peo_event_list *list;
	int err;

	if (!out || !events)
		return peo_fail(EINVAL, "peo_sampler_open: argument '%s' is NULL",
				!out ? "out" : "events");
	*out = NULL;
	if ((err = take_opts(opts, &o)))
		return err;
	if ((err = peo_event_parse(&list, events, NULL)) < 0)
		return err;
	return sampler_open(out, list, NULL, peo_event_list_count(list), target, &o);
}

int peo_sampler_open_attrs(struct peo_sampler **out, const struct peo_attr *attrs, size_t n,
			   const struct peo_target *target, const struct peo_sampler_opts *opts)
{
	struct peo_sampler_opts o;
	int err;

	if (!out || !attrs || !n)
		return peo_fail(EINVAL, "peo_sampler_open_attrs: %s",
				!out ? "argument 'out' is NULL" : !attrs ? "argument 'attrs' is NULL"
								       : "no attrs (n is 0)");
	*out = NULL;
	if ((err = take_opts(opts, &o)))
		return err;
	return sampler_open(out, NULL, attrs, n, target, &o);
}

static int each_fd(struct peo_sampler *s, int (*ioc)(int, unsigned int))
{
	if (!s)
		return peo_fail(EINVAL, "peo_sampler: argument 's' is NULL");
	for (size_t i = 0; i < s->nfds; i++) {
		int err = ioc(s->fds[i], 0);

		if (err)
			return err;
	}
	return 0;
}

int peo_sampler_enable(struct peo_sampler *s)
{
	return each_fd(s, peo_sys_ioc_enable);
}

int peo_sampler_disable(struct peo_sampler *s)
{
	return each_fd(s, peo_sys_ioc_disable);
}

int peo_sampler_next(struct peo_sampler *s, const struct peo_record **rec)
{
	struct peo_ring_record rr = { .sz = sizeof(rr) };

	if (!s || !rec)
		return peo_fail(EINVAL, "peo_sampler_next: argument '%s' is NULL", !s ? "s" : "rec");
	for (; s->cur < s->nrings; s->cur++) {
		struct peo_ring *ring = s->rings[s->cur];
		int got, err;

		if (!ring)
			continue;
		if (s->reading) /* the caller is done with the last one: its room is the kernel's */
			peo_ring_consume(ring);
		s->reading = 0;
		if ((got = peo_ring_next(ring, &rr, s->wrapped, RECORD_MAX)) < 0)
			return got;
		if (!got)
			continue;
		s->reading = 1;
		s->rec = (struct peo_record){ .sz = sizeof(s->rec) };
		if ((err = peo_record_parse(s->parser, rr.data, rr.header.size, &s->rec)))
			return peo_fail(err, "ring %zu, byte %llu of its stream: %s", s->cur,
					(unsigned long long)rr.pos, peo_last_error());
		if (s->rec.header.type == PEO_RECORD_LOST)
			s->lost += s->rec.u.lost.lost;
		*rec = &s->rec;
		return 1;
	}
	s->cur = 0;
	return 0;
}

int peo_sampler_wait(struct peo_sampler *s, int timeout_ms)
{
	if (!s)
		return peo_fail(EINVAL, "peo_sampler_wait: argument 's' is NULL");
	if (!peo_ring_set_live(s->set))
		return 0; /* every sampled task has exited and its records were read */
	return peo_ring_set_wait(s->set, timeout_ms);
}

int peo_sampler_fd(const struct peo_sampler *s)
{
	return s ? peo_ring_set_fd(s->set) : peo_fail(EINVAL, "peo_sampler_fd: argument 's' is NULL");
}

size_t peo_sampler_event_count(const struct peo_sampler *s)
{
	return s ? s->nevents : 0;
}

int peo_sampler_event_of(const struct peo_sampler *s, const struct peo_record *rec)
{
	uint64_t id;

	if (!s || !rec)
		return peo_fail(EINVAL, "peo_sampler_event_of: argument '%s' is NULL",
				!s ? "s" : "rec");
	if (s->nevents == 1)
		return 0;
	if (rec->attr && (rec->attr->sample_type & PEO_SAMPLE_IDENTIFIER))
		id = rec->header.type == PEO_RECORD_SAMPLE ? rec->u.sample.identifier
							   : rec->sample_id.identifier;
	else
		id = rec->header.type == PEO_RECORD_SAMPLE ? rec->u.sample.id : rec->sample_id.id;
	for (size_t i = 0; i < s->nevents; i++)
		for (size_t k = 0; k < s->events[i].nids; k++)
			if (s->events[i].ids[k] == id)
				return (int)i;
	return peo_fail(ENOENT, "a %s record with id %llu: no event of this sampler has it",
			peo_record_type_name(rec->header.type), (unsigned long long)id);
}

const char *peo_sampler_event_name(const struct peo_sampler *s, size_t i)
{
	return s && i < s->nevents ? s->events[i].name : NULL;
}

const struct peo_attr *peo_sampler_attr(const struct peo_sampler *s, size_t i)
{
	return s && i < s->nevents ? &s->events[i].attr : NULL;
}

int peo_sampler_field(const struct peo_sampler *s, const struct peo_record *rec, const char *name,
		      int64_t *value)
{
	const struct peo_tp_field *f;
	const struct sampler_event *e;
	int i;

	if (!s || !rec || !name || !value)
		return peo_fail(EINVAL, "peo_sampler_field: argument '%s' is NULL",
				!s ? "s" : !rec ? "rec" : !name ? "name" : "value");
	if (rec->header.type != PEO_RECORD_SAMPLE)
		return peo_fail(EINVAL, "peo_sampler_field: a %s record has no fields (only "
				"samples do)", peo_record_type_name(rec->header.type));
	if ((i = peo_sampler_event_of(s, rec)) < 0)
		return i;
	e = &s->events[i];
	if (!e->format)
		return peo_fail(ENOENT, "event %s is not a tracepoint whose format peo read: it "
				"has no fields by name", e->name[0] ? e->name : "(from an attr)");
	if (!(f = peo_tp_format_find(e->format, name))) {
		char list[512] = "";
		size_t len = 0;

		for (size_t k = 0; k < peo_tp_format_count(e->format) && len < sizeof(list); k++)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", k ? ", " : "",
						peo_tp_format_field(e->format, k)->name);
		return peo_fail(ENOENT, "event %s has no field '%s' (its fields: %s)", e->name,
				name, list);
	}
	return peo_tp_field_int(f, rec, rec->u.sample.raw, rec->u.sample.raw_size, 0, value);
}

uint64_t peo_sampler_lost(const struct peo_sampler *s)
{
	return s ? s->lost : 0;
}

enum peo_cpumode peo_record_cpumode(const struct peo_record *rec)
{
	return rec ? (enum peo_cpumode)(rec->header.misc & PEO_RECORD_MISC_CPUMODE_MASK)
		   : PEO_CPUMODE_UNKNOWN;
}

const char *peo_cpumode_name(enum peo_cpumode mode)
{
	static const char *const names[] = { "unknown", "kernel", "user", "hypervisor",
					     "guest-kernel", "guest-user" };

	return (unsigned)mode < sizeof(names) / sizeof(names[0]) ? names[mode] : "unknown";
}
