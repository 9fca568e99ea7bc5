/*
 * cmd_record.c - peo record: sample a command, processes, threads or CPUs
 * into a perf.data that perf and peo script read.  As perf record: events
 * are opened on every CPU of the target (for a process, each of its
 * threads on each CPU, inherited by children), each CPU's records go into
 * one ring, and a loop copies whole spans of the rings into the file,
 * ending each pass with FINISHED_ROUND.
 */
#include <errno.h>
#include <getopt.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <peo/peo.h>

#include "commands.h"
#include "record_synth.h"

/* The user registers perf samples for --call-graph dwarf: x86-64's all but
 * the segments; arm64's x0..x30, sp and pc. */
#if defined(__aarch64__)
#define DWARF_REGS 0x1ffffffffULL
#else
#define DWARF_REGS 0xff0fffULL
#endif
#define DWARF_STACK_DEFAULT 8192u

struct record_args {
	char *events; /* -e, repeats joined with ',' */
	const char *output, *cpus, *pids, *tids;
	uint64_t freq, period;
	int freq_given; /* -F on the command line (else the default 4000) */
	int all_cpus, callgraph, timestamp, sample_cpu, data_addr, switch_events, namespaces,
	    all_cgroups, compress, compressed2, clockid; /* clockid -1: the kernel's default */
	uint32_t stack_size;
	size_t pages;
	char **cmd;
};

/* One opened event: its attr as the kernel took it, its fds' ids. */
struct record_event {
	struct peo_attr attr;
	const char *name;
	uint64_t *ids;
	size_t nids;
};

struct record {
	struct record_args a;
	struct peo_event_list *list;
	struct record_event *events;
	size_t nevents;
	struct peo_target *target;
	int *fds;
	struct synth_id *ids; /* each fd's id, event, CPU and thread, for ID_INDEX */
	size_t nfds;
	struct peo_ring **rings; /* one per CPU of the target (or per thread with no CPU) */
	size_t nrings;
	struct peo_ring_set *set;
	struct peo_perfdata_writer *w;
	struct peo_child *child;
	uint64_t wakeups;
	int no_format_lost;    /* the kernel refused PERF_FORMAT_LOST (before 6.0) */
	int user_only;         /* perf_event_paranoid refused kernel mode: the events became :u */
	int cpu_clock;         /* no PMU: cycles became cpu-clock */
	int out_fd;            /* -o -: the stream (standard output, moved aside), else -1 */
	int reader_gone;       /* -o -: the stream's reader closed the pipe (said once) */
	int started;           /* the command was let run */
	int write_err;         /* the first failure to write the file (said once), or 0 */
	char *kept_as;         /* the file's own name, when it could not take -o's */
	unsigned char joined[65536]; /* a record cut by a ring's end, put together */
};

static volatile sig_atomic_t stop_requested, child_ended;

static void on_signal(int signo)
{
	if (signo == SIGCHLD)
		child_ended = 1; /* interrupts the wait, so the end is seen at once */
	else
		stop_requested = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: peo record [-e EVENTS] [-F FREQ | -c PERIOD] [-g | --call-graph fp|dwarf[,SIZE]]\n"
		"                  [-a] [-C CPUS] [-p PID] [-t TID] [-o FILE] [-m PAGES] [-T]\n"
		"                  [--sample-cpu] [-d] [--switch-events] [--namespaces]\n"
		"                  [--all-cgroups] [-z] [--compression-level N] [--compressed2]\n"
		"                  [-k CLOCK]\n"
		"                  [-- COMMAND ...]\n"
		"  -e EVENTS          events to sample (default cycles, else cpu-clock)\n"
		"  -F FREQ            samples per second (default 4000)\n"
		"  -c PERIOD          a sample every PERIOD events\n"
		"  -g                 callchains (frame pointers)\n"
		"  --call-graph MODE  fp, or dwarf[,SIZE] (user stack copies, default 8192 bytes)\n"
		"  -a, -C CPUS        every CPU, or these\n"
		"  -p PID, -t TID     existing processes or threads (comma-separated)\n"
		"  -o FILE            output (default perf.data; - for a pipe-mode stream); an\n"
		"                     existing FILE is kept as FILE.old once the command runs,\n"
		"                     left as it is when it cannot start; a FILE another peo\n"
		"                     record writes is refused.  A full disk ends the recording:\n"
		"                     the command gets SIGTERM (as on Ctrl-C), FILE keeps every\n"
		"                     whole record written, and peo record exits 1\n"
		"  -m PAGES           ring size per CPU in pages (default 128: 512 KiB)\n"
		"  -T                 sample timestamps (always on; accepted for perf's sake)\n"
		"  --sample-cpu, -d   the CPU, the data address of each sample\n"
		"  --switch-events, --namespaces, --all-cgroups  those records too\n"
		"  -z, --compression-level N  zstd-compress the records (level 1 by default)\n"
		"  --compressed2      with -z, COMPRESSED2 records as newer perf writes them\n"
		"                     (perf 6.1 reads only the COMPRESSED records -z writes)\n"
		"  -k, --clockid CLOCK  sample times from this clock (monotonic_raw, boottime...)\n");
}

enum { O_CALLGRAPH = 256, O_SAMPLE_CPU, O_SWITCH, O_NAMESPACES, O_ALL_CGROUPS, O_LEVEL,
       O_COMPRESSED2 };

/* perf's -k names, or a number. */
static int parse_clockid(const char *s, int *out)
{
	static const struct { const char *name; int id; } clocks[] = {
		{ "realtime", 0 }, { "monotonic", 1 }, { "monotonic_raw", 4 },
		{ "boottime", 7 }, { "tai", 11 },
		{ "CLOCK_REALTIME", 0 }, { "CLOCK_MONOTONIC", 1 }, { "CLOCK_MONOTONIC_RAW", 4 },
		{ "CLOCK_BOOTTIME", 7 }, { "CLOCK_TAI", 11 },
	};
	char *end;
	long v;

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcasecmp(s, clocks[i].name)) {
			*out = clocks[i].id;
			return 0;
		}
	v = strtol(s, &end, 10);
	if (end == s || *end || v < 0 || v > 63) {
		fprintf(stderr, "peo record: -k %s: use realtime, monotonic, monotonic_raw, "
			"boottime, tai or a clock number\n", s);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int parse_u64(const char *opt, const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || end == s || *end || !*out) {
		fprintf(stderr, "peo record: %s '%s' is not a positive number\n", opt, s);
		return -1;
	}
	return 0;
}

static int parse_callgraph(struct record_args *a, const char *mode)
{
	if (!strcmp(mode, "fp")) {
		a->callgraph = 1;
		return 0;
	}
	if (!strncmp(mode, "dwarf", 5) && (!mode[5] || mode[5] == ',')) {
		uint64_t size = DWARF_STACK_DEFAULT;

		if (mode[5] && parse_u64("--call-graph dwarf", mode + 6, &size))
			return -1;
		if (size % 8 || size > 65528) {
			fprintf(stderr, "peo record: --call-graph dwarf,%s: the stack size must be a "
				"multiple of 8 up to 65528\n", mode + 6);
			return -1;
		}
		a->callgraph = 2;
		a->stack_size = (uint32_t)size;
		return 0;
	}
	fprintf(stderr, "peo record: --call-graph '%s': use fp or dwarf[,SIZE]\n", mode);
	return -1;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct record_args *a)
{
	static const struct option longs[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "freq", required_argument, NULL, 'F' },
		{ "count", required_argument, NULL, 'c' },
		{ "call-graph", required_argument, NULL, O_CALLGRAPH },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "timestamp", no_argument, NULL, 'T' },
		{ "data", no_argument, NULL, 'd' },
		{ "sample-cpu", no_argument, NULL, O_SAMPLE_CPU },
		{ "switch-events", no_argument, NULL, O_SWITCH },
		{ "namespaces", no_argument, NULL, O_NAMESPACES },
		{ "all-cgroups", no_argument, NULL, O_ALL_CGROUPS },
		{ "compression-level", required_argument, NULL, O_LEVEL },
		{ "compressed2", no_argument, NULL, O_COMPRESSED2 },
		{ "clockid", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t pages, level;
	int c;

	memset(a, 0, sizeof(*a));
	a->output = "perf.data";
	a->clockid = -1;
	a->freq = 4000;
	a->pages = 128;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+e:F:c:gaC:p:t:o:m:Tdzk:h", longs, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (list_arg_append(&a->events, optarg)) {
				fprintf(stderr, "peo record: out of memory for -e\n");
				return 1;
			}
			break;
		case 'F':
			if (parse_u64("-F", optarg, &a->freq))
				return 2;
			a->period = 0;
			a->freq_given = 1;
			break;
		case 'c': if (parse_u64("-c", optarg, &a->period)) return 2; break;
		case 'g': a->callgraph = 1; break;
		case O_CALLGRAPH: if (parse_callgraph(a, optarg)) return 2; break;
		case 'a': a->all_cpus = 1; break;
		case 'C': a->cpus = optarg; break;
		case 'p': a->pids = optarg; break;
		case 't': a->tids = optarg; break;
		case 'o': a->output = optarg; break;
		case 'm':
			if (parse_u64("-m", optarg, &pages))
				return 2;
			if (pages & (pages - 1)) {
				fprintf(stderr, "peo record: -m %s: the ring's pages must be a power of two\n",
					optarg);
				return 2;
			}
			a->pages = (size_t)pages;
			break;
		case 'T': a->timestamp = 1; break;
		case 'd': a->data_addr = 1; break;
		case O_SAMPLE_CPU: a->sample_cpu = 1; break;
		case O_SWITCH: a->switch_events = 1; break;
		case O_NAMESPACES: a->namespaces = 1; break;
		case O_ALL_CGROUPS: a->all_cgroups = 1; break;
		case 'k': if (parse_clockid(optarg, &a->clockid)) return 2; break;
		case 'z': a->compress = a->compress ? a->compress : 1; break; /* perf's default level */
		case O_LEVEL:
			if (parse_u64("--compression-level", optarg, &level) || !level || level > 22) {
				fprintf(stderr, "peo record: --compression-level %s: use 1 to 22\n", optarg);
				return 2;
			}
			a->compress = (int)level;
			break;
		case O_COMPRESSED2: a->compressed2 = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc)
		a->cmd = argv + optind;
	if (!a->cmd && !a->all_cpus && !a->cpus && !a->pids && !a->tids) {
		fprintf(stderr, "peo record: nothing to record: give a command after --, or -a, -C, "
			"-p or -t\n");
		return 2;
	}
	if (a->compressed2 && !a->compress) {
		fprintf(stderr, "peo record: --compressed2 says which records -z writes; add -z\n");
		return 2;
	}
	if ((a->pids || a->tids) && a->cmd) {
		fprintf(stderr, "peo record: -p/-t and a command cannot go together\n");
		return 2;
	}
	return -1;
}

/* ------------------------------------------------------------ opening */

/* The sampling fields perf record sets; @first takes the side records. */
static void setup_attr(const struct record *r, struct peo_attr *attr, int first)
{
	const struct record_args *a = &r->a;

	attr->sample_type |= PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_TIME;
	if (r->nevents > 1) /* first in samples, last in trailers, whatever else each event samples */
		attr->sample_type |= PEO_SAMPLE_IDENTIFIER;
	if (a->sample_cpu || a->all_cpus || a->cpus)
		attr->sample_type |= PEO_SAMPLE_CPU;
	if (a->data_addr)
		attr->sample_type |= PEO_SAMPLE_ADDR;
	if (attr->type == PEO_TYPE_TRACEPOINT) /* the payload, and its CPU, as perf */
		attr->sample_type |= PEO_SAMPLE_RAW | PEO_SAMPLE_CPU;
	if (a->callgraph)
		attr->sample_type |= PEO_SAMPLE_CALLCHAIN;
	if (a->callgraph == 2) {
		attr->sample_type |= PEO_SAMPLE_REGS_USER | PEO_SAMPLE_STACK_USER;
		attr->sample_regs_user = DWARF_REGS;
		attr->sample_stack_user = a->stack_size;
		attr->exclude_callchain_user = 1;
	}
	/* LOST: each fd's lost samples, read at the end into LOST_SAMPLES, as perf */
	attr->read_format = PEO_FORMAT_ID | (r->no_format_lost ? 0 : PEO_FORMAT_LOST);
	if (!a->period && !attr->sample_period) {
		attr->freq = 1;
		attr->sample_freq = a->freq;
		attr->sample_type |= PEO_SAMPLE_PERIOD; /* a fixed period is the attr's: not sampled */
	} else if (a->period) {
		attr->freq = 0;
		attr->sample_period = a->period;
	}
	attr->disabled = 1;
	attr->enable_on_exec = a->cmd && !a->all_cpus && !a->cpus; /* CPU-wide: enabled at once */
	attr->inherit = !a->tids; /* -t means those threads: perf follows no new ones either */
	attr->sample_id_all = 1;
	if (a->clockid >= 0) {
		attr->use_clockid = 1;
		attr->clockid = a->clockid;
	}
	if (first) {
		attr->mmap = attr->mmap2 = attr->comm = attr->comm_exec = attr->task = 1;
		attr->context_switch = a->switch_events;
		attr->namespaces = a->namespaces;
		attr->cgroup = a->all_cgroups;
	}
	if (a->all_cgroups)
		attr->sample_type |= PEO_SAMPLE_CGROUP;
}

static int make_target(struct record *r)
{
	PEO_OPTS(peo_target_opts, o, .cpus = r->a.cpus, .per_cpu = 1); /* a ring per CPU, as perf */

	if (r->a.all_cpus || r->a.cpus) { /* a command only says how long */
		o.kind = PEO_TARGET_CPUS;
	} else if (r->a.cmd) {
		o.kind = PEO_TARGET_PID;
		o.pid = peo_child_pid(r->child);
	} else if (r->a.pids || r->a.tids) {
		o.kind = r->a.pids ? PEO_TARGET_PID : PEO_TARGET_TID;
		o.pids = r->a.pids ? r->a.pids : r->a.tids;
	} else {
		o.kind = PEO_TARGET_CPUS;
	}
	if (peo_target_new(&r->target, &o)) {
		fprintf(stderr, "peo record: %s\n", peo_last_error());
		return -1;
	}
	return 0;
}

/* The event list: -e, else cycles, else (no PMU) cpu-clock as perf falls back. */
static int parse_events(struct record *r)
{
	const char *spec = r->a.events ? r->a.events : "cycles";

	if (peo_event_parse(&r->list, spec, NULL) < 0) {
		fprintf(stderr, "peo record: -e %s: %s\n", spec, peo_last_error());
		return -1;
	}
	r->nevents = peo_event_list_count(r->list);
	r->events = calloc(r->nevents, sizeof(*r->events));
	if (!r->events) {
		fprintf(stderr, "peo record: out of memory\n");
		return -1;
	}
	return 0;
}

/* Open event @i in slot (cpu, tid); the kernel's attr is kept from the first slot. */
static int open_one(struct record *r, size_t i, int cpu, pid_t tid)
{
	const struct peo_event *ev = peo_event_list_get(r->list, i);
	struct peo_attr attr = *peo_event_attr(ev);
	struct record_event *e = &r->events[i];
	uint64_t id;
	int fd, err;

	setup_attr(r, &attr, i == 0);
	fd = peo_event_open(ev, &attr, tid, cpu, -1, PEO_FLAG_FD_CLOEXEC);
	/* A kernel before 6.0: no lost count.  Asked on the first open only
	 * (every fd must agree on read_format), and kept only if it helped. */
	if (fd == -EINVAL && !r->no_format_lost && !r->nfds) {
		r->no_format_lost = 1;
		attr = *peo_event_attr(ev);
		setup_attr(r, &attr, i == 0);
		fd = peo_event_open(ev, &attr, tid, cpu, -1, PEO_FLAG_FD_CLOEXEC);
		r->no_format_lost = fd >= 0;
	}
	if (fd < 0)
		return fd;
	if ((err = peo_sys_ioc_id(fd, &id))) {
		close(fd);
		return err;
	}
	e->ids[e->nids++] = id; /* room for a slot each: open_events() */
	r->ids[r->nfds] = (struct synth_id){ id, i, cpu, tid };
	if (e->nids == 1) {
		e->attr = attr;
		e->name = peo_event_name(ev);
	}
	r->fds[r->nfds++] = fd;
	return fd;
}

/*
 * perf's fallbacks for event @i's failed open, in its order; 1 when the
 * events changed and the open should be tried again: perf_event_paranoid
 * refusing the first open's kernel mode makes the events user space only
 * (:u, said on stderr), and no PMU makes the default cycles cpu-clock
 * (keeping :u), and a -e cycles cpu-clock with its modifiers (said).
 */
static int fallback(struct record *r, size_t i, int err)
{
	if (!r->nfds && !r->user_only && user_fallback(r->list, err, "record", "sampling")) {
		r->user_only = 1;
		return 1;
	}
	/* -e cycles (cycles:u, cpu-cycles...) on its first open: cpu-clock, as perf */
	if (r->a.events && !r->events[i].nids && cycles_fallback(r->list, err, "record", "sampling"))
		return 1;
	if (err == -ENOENT && !r->a.events && !r->cpu_clock && !r->nfds) {
		r->cpu_clock = 1;
		peo_event_list_free(r->list);
		if (peo_event_parse(&r->list, "cpu-clock", NULL) < 0)
			return 0;
		if (r->user_only && peo_event_list_user_only(r->list) < 0)
			return 0;
		return 1;
	}
	return 0;
}

/* Every event on every slot; each CPU's (or thread's) records into one ring. */
static int open_events(struct record *r)
{
	size_t ncpus = peo_target_cpu_count(r->target), nthreads = peo_target_thread_count(r->target);
	PEO_OPTS(peo_ring_opts, ro, .data_pages = r->a.pages);
	int no_room = 0;

	/* above kernel.perf_event_max_sample_rate: lowered, with perf's warning */
	if (!r->a.period && r->a.freq)
		r->a.freq = freq_limit(r->a.freq, !r->a.freq_given);
	r->fds = calloc(ncpus * nthreads * r->nevents, sizeof(*r->fds));
	r->ids = calloc(ncpus * nthreads * r->nevents, sizeof(*r->ids));
	r->rings = calloc(ncpus, sizeof(*r->rings));
	for (size_t i = 0; i < r->nevents; i++) /* an id per slot: open_one() adds without a check */
		no_room |= !(r->events[i].ids = calloc(ncpus * nthreads, sizeof(*r->events[i].ids)));
	if (no_room || !r->fds || !r->ids || !r->rings) {
		fprintf(stderr, "peo record: out of memory\n");
		return -1;
	}
	if (peo_ring_set_new(&r->set)) { /* an epoll fd and an eventfd: the fd limit */
		fprintf(stderr, "peo record: %s\n", peo_last_error());
		return -1;
	}
	for (size_t c = 0; c < ncpus; c++)
		for (size_t t = 0; t < nthreads; t++)
			for (size_t i = 0; i < r->nevents; i++) {
				int cpu = peo_target_cpu(r->target, c), fd;
				pid_t tid = peo_target_thread(r->target, t);

				fd = open_one(r, i, cpu, tid);
				while (fd < 0 && (!r->nfds || !r->events[i].nids) && fallback(r, i, fd))
					fd = open_one(r, i, cpu, tid);
				if (fd < 0) {
					fprintf(stderr, "peo record: %s\n", peo_last_error());
					return -1;
				}
				if (!r->rings[c]) {
					if (peo_ring_map(&r->rings[c], fd, &ro) ||
					    peo_ring_set_add(r->set, r->rings[c]) < 0) {
						fprintf(stderr, "peo record: %s\n", peo_last_error());
						return -1;
					}
					r->nrings++;
				} else if (peo_ring_add(r->rings[c], fd)) {
					fprintf(stderr, "peo record: %s\n", peo_last_error());
					return -1;
				}
			}
	return 0;
}

/* ------------------------------------------------------------ recording */

/*
 * A write to the output failed with @err: say why, once.  -o -'s reader
 * closing the pipe (EPIPE; SIGPIPE is blocked) ends the recording where
 * SIGPIPE ends perf's: the command, if any, is left running, as perf
 * leaves it.
 */
static void write_failed(struct record *r, int err)
{
	if (err != -EPIPE || r->out_fd < 0) {
		if (!r->write_err) /* later calls return the same kept error */
			fprintf(stderr, "peo record: %s\n", peo_last_error());
		r->write_err = err;
		return;
	}
	if (!r->reader_gone)
		fprintf(stderr, "peo record: -o -: the stream's reader closed the pipe; recording "
			"stopped%s\n", !r->child ? "" : r->started ? " (the command goes on, as under "
			"perf record)" : " before the command started");
	r->reader_gone = 1;
}

/* -o -: 1 when the pipe's reader went away (said), though nothing was written. */
static int reader_left(struct record *r)
{
	struct pollfd out = { r->out_fd, 0, 0 }; /* a pipe with no reader polls POLLERR */

	if (r->out_fd < 0 || poll(&out, 1, 0) != 1 || !(out.revents & POLLERR))
		return 0;
	write_failed(r, -EPIPE);
	return 1;
}

/* The process (Tgid) of thread @tid, or @tid when /proc does not say. */
static pid_t process_of(pid_t tid)
{
	char path[64], line[128];
	pid_t pid = tid;
	FILE *in;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	in = fopen(path, "re");
	while (in && fgets(line, sizeof(line), in))
		if (!strncmp(line, "Tgid:", 5)) {
			pid = (pid_t)atoi(line + 5);
			break;
		}
	if (in)
		fclose(in);
	return pid;
}

/* What perf writes before the rings' data: which fd each id is, the kernel's
 * text, the threads and CPUs, the processes already running, FINISHED_INIT. */
static int synthesize(struct record *r)
{
	size_t nthreads = peo_target_thread_count(r->target), ncpus = peo_target_cpu_count(r->target);
	pid_t *tids = calloc(nthreads + 1, sizeof(*tids));
	int *cpus = calloc(ncpus + 1, sizeof(*cpus));
	const struct peo_attr *attr = &r->events[0].attr;
	int err;

	if (!tids || !cpus) {
		free(tids);
		free(cpus);
		fprintf(stderr, "peo record: out of memory listing %zu threads and %zu CPUs\n",
			nthreads, ncpus);
		return -ENOMEM;
	}
	for (size_t t = 0; t < nthreads; t++)
		tids[t] = peo_target_thread(r->target, t);
	for (size_t c = 0; c < ncpus; c++)
		cpus[c] = peo_target_cpu(r->target, c);
	err = synth_id_index(r->w, r->ids, r->nfds);
	err = err ? err : synth_kernel_mmap(r->w, attr);
	err = err ? err : synth_thread_map(r->w, tids, nthreads);
	err = err ? err : synth_cpu_map(r->w, cpus, ncpus);
	if (!err && (r->a.all_cpus || r->a.cpus)) { /* system-wide: every process running */
		err = synth_all_processes(r->w, attr, r->a.data_addr);
	} else if (!err && r->child) { /* the command before its exec, as perf's perf-exec */
		err = synth_comm(r->w, attr, peo_child_pid(r->child), peo_child_pid(r->child),
				 "peo-exec");
		if (!err && r->a.namespaces)
			err = synth_namespaces(r->w, attr, peo_child_pid(r->child),
					       peo_child_pid(r->child));
	} else if (!err) { /* -p/-t: each process of the threads once */
		for (size_t t = 0; t < nthreads; t++)
			tids[t] = process_of(tids[t]);
		for (size_t t = 0; !err && t < nthreads; t++) {
			size_t seen = 0;

			while (seen < t && tids[seen] != tids[t])
				seen++;
			if (seen == t)
				err = synth_process(r->w, attr, tids[t], r->a.data_addr);
		}
	}
	err = err ? err : synth_finished_init(r->w);
	if (err)
		write_failed(r, err);
	free(tids);
	free(cpus);
	return err;
}


/*
 * One ring's records into the file as whole records: when they wrap the
 * ring's end, the record cut there (the ring says where it starts) is put
 * together in r->joined.
 */
static int write_span(struct record *r, const struct peo_ring *ring, const void *seg[2],
		      const size_t len[2])
{
	const unsigned char *first = seg[0], *second = seg[1];
	size_t whole = peo_ring_span_whole(ring), cut = 0, rest = seg[1] ? len[1] : 0;
	int err = 0;

	if (whole < len[0]) { /* its header is whole: records and the ring are 8-byte aligned */
		struct peo_event_header h;
		size_t head_part = len[0] - whole;

		memcpy(&h, first + whole, sizeof(h));
		cut = h.size;
		memcpy(r->joined, first + whole, head_part);
		memcpy(r->joined + head_part, second, cut - head_part);
		second += cut - head_part;
		rest -= cut - head_part;
	}
	if (whole)
		err = peo_perfdata_writer_record(r->w, first, whole);
	if (!err && cut)
		err = peo_perfdata_writer_record(r->w, r->joined, cut);
	if (!err && rest)
		err = peo_perfdata_writer_record(r->w, second, rest);
	if (err)
		write_failed(r, err);
	return err ? -1 : 0;
}

/* Copy what each ring holds into the file. */
static int drain(struct record *r, int *wrote)
{
	for (size_t c = 0; c < r->nrings; c++) {
		const void *seg[2];
		size_t len[2];
		int n = peo_ring_next_span(r->rings[c], seg, len);

		if (n < 0) {
			fprintf(stderr, "peo record: %s\n", peo_last_error());
			return -1;
		}
		if (n > 0 && write_span(r, r->rings[c], seg, len))
			return -1;
		*wrote |= n > 0;
		peo_ring_consume(r->rings[c]);
	}
	return 0;
}

static int enable_all(struct record *r)
{
	for (size_t i = 0; i < r->nfds; i++)
		if (peo_sys_ioc_enable(r->fds[i], 0)) {
			fprintf(stderr, "peo record: %s\n", peo_last_error());
			return -1;
		}
	return 0;
}

/* Wait for data, the command's end or a signal, writing as rings fill. */
static int record_loop(struct record *r)
{
	int done = 0;

	while (!done) {
		int wrote = 0, got;

		got = child_ended ? 0 : peo_ring_set_wait(r->set, 100);
		if (got < 0 && got != -EINTR) {
			fprintf(stderr, "peo record: %s\n", peo_last_error());
			return -1;
		}
		r->wakeups += !child_ended; /* each wait, as perf counts its polls */
		if (stop_requested)
			done = 1;
		if (r->child) { /* ended? (not reaped: peo_child_wait takes its status) */
			siginfo_t info;

			memset(&info, 0, sizeof(info));
			if (!waitid(P_PID, (id_t)peo_child_pid(r->child), &info,
				    WEXITED | WNOHANG | WNOWAIT) && info.si_pid)
				done = 1;
		}
		if (!r->child && peo_ring_set_live(r->set) == 0)
			done = 1; /* every recorded task exited */
		if (drain(r, &wrote))
			return -1;
		if (wrote && (got = peo_perfdata_writer_finished_round(r->w))) {
			write_failed(r, got);
			return -1;
		}
		if (!wrote && reader_left(r)) /* no write to tell: ask the pipe */
			return -1;
	}
	return 0;
}

/* Each fd's lost samples (PERF_FORMAT_LOST) as LOST_SAMPLES records, as
 * perf writes them at the end; returns the total lost, or -1. */
static int64_t write_lost_samples(struct record *r)
{
	uint64_t total = 0;
	int err;

	for (size_t i = 0; !r->no_format_lost && i < r->nfds; i++) {
		uint64_t v[3]; /* value, id, lost */
		ssize_t got;

		do
			got = read(r->fds[i], v, sizeof(v));
		while (got < 0 && errno == EINTR);
		if (got != (ssize_t)sizeof(v) || !v[2])
			continue;
		total += v[2];
		if ((err = synth_lost_samples(r->w, &r->events[r->ids[i].event].attr, v[1], v[2]))) {
			write_failed(r, err);
			return -1;
		}
	}
	return (int64_t)total;
}

/* What perf record prints of losses (on stderr, before its summary). */
static void print_lost(uint64_t records, uint64_t chunks, uint64_t samples, uint64_t lost_samples)
{
	if (chunks)
		fprintf(stderr, "Warning:\nProcessed %" PRIu64 " events and lost %" PRIu64
			" chunks!\n\nCheck IO/CPU overload!\n\n", records, chunks);
	/* perf warns about lost samples only past 5% */
	if (lost_samples && (double)lost_samples / (double)(samples + lost_samples) > 0.05)
		fprintf(stderr, "Warning:\nProcessed %" PRIu64 " samples and lost %3.2f%% samples!\n\n",
			samples, 100.0 * (double)lost_samples / (double)(samples + lost_samples));
}

static void cleanup(struct record *r)
{
	for (size_t c = 0; r->rings && c < peo_target_cpu_count(r->target); c++)
		peo_ring_unmap(r->rings[c]);
	free(r->rings);
	peo_ring_set_free(r->set);
	for (size_t i = 0; i < r->nfds; i++)
		close(r->fds[i]);
	free(r->fds);
	free(r->ids);
	for (size_t i = 0; r->events && i < r->nevents; i++)
		free(r->events[i].ids);
	free(r->events);
	peo_target_free(r->target);
	peo_event_list_free(r->list);
	peo_child_free(r->child);
	free(r->a.events);
}

/*
 * -o -: the stream goes to standard output in pipe mode whatever that is (a
 * pipe, a file, /dev/null), as perf writes it.  The stream keeps fd 1 under
 * another number (close-on-exec) and fd 1 becomes standard error, so the
 * command prints there, as under perf, never into the stream.  Before
 * anything else opens a file: with fd 1 closed, that file would get it.
 */
static int take_stdout(struct record *r)
{
	int fl = fcntl(STDOUT_FILENO, F_GETFL), nul;

	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
		fprintf(stderr, "peo record: -o -: standard output is %s, so the stream has nowhere "
			"to go; send it to a pipe or a file (peo record -o - ... | peo script -i -), "
			"or give -o FILE\n", fl < 0 ? "closed" : "open for reading only");
		return -1;
	}
	r->out_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (r->out_fd < 0) {
		fprintf(stderr, "peo record: -o -: cannot keep standard output for the stream: %s\n",
			strerror(errno));
		return -1;
	}
	if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) { /* no stderr: the command's output is lost */
		nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (nul < 0 || dup2(nul, STDOUT_FILENO) < 0) {
			fprintf(stderr, "peo record: -o -: cannot take the command's output off the "
				"stream: %s\n", strerror(errno));
			return -1;
		}
		close(nul);
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct record r;
	struct sigaction sa;
	int ret = -1, status = 0, err;
	uint64_t bytes, given, records, samples, chunks;
	int64_t lost;
	sigset_t pipe_sig, old_mask;

	memset(&r, 0, sizeof(r));
	r.out_fd = -1;
	ret = parse_args(argc, argv, &r.a);
	if (ret >= 0) {
		free(r.a.events);
		return ret;
	}
	if (!strcmp(r.a.output, "-") && take_stdout(&r)) {
		free(r.a.events);
		return 1;
	}
	/* A reader gone makes writes fail with EPIPE, not kill peo: it says so
	 * (the command's own mask is emptied before its exec). */
	sigemptyset(&pipe_sig);
	sigaddset(&pipe_sig, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_sig, &old_mask);
	synth_kernel_text_start();
	ret = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	if (r.a.cmd && peo_child_spawn(&r.child, (const char *const *)r.a.cmd)) {
		fprintf(stderr, "peo record: %s\n", peo_last_error());
		goto out;
	}
	if (parse_events(&r) || make_target(&r) || open_events(&r))
		goto out;
	if (r.out_fd >= 0 ? peo_perfdata_writer_open_pipe(&r.w, r.out_fd)
			  : peo_perfdata_writer_open_aside(&r.w, r.a.output)) {
		fprintf(stderr, "peo record: %s\n", peo_last_error());
		goto out;
	}
	for (size_t i = 0; i < r.nevents; i++)
		if (peo_perfdata_writer_add_event(r.w, &r.events[i].attr, r.events[i].ids,
						  r.events[i].nids, r.events[i].name)) {
			fprintf(stderr, "peo record: %s\n", peo_last_error());
			goto out;
		}
	if (peo_perfdata_writer_host_features(r.w, argc, (const char *const *)argv) ||
	    peo_perfdata_writer_tracing_data(r.w, NULL) || peo_perfdata_writer_build_ids(r.w) ||
	    (r.a.clockid >= 0 && peo_perfdata_writer_clock(r.w, r.a.clockid))) {
		fprintf(stderr, "peo record: %s\n", peo_last_error());
		goto out;
	}
	if (synthesize(&r)) /* it says why */
		goto out;
	if (r.out_fd >= 0 && (err = peo_perfdata_writer_flush(r.w))) { /* the reader starts now */
		write_failed(&r, err);
		goto out;
	}
	if (r.a.compress && peo_perfdata_writer_compress(r.w, r.a.compress,
							 r.a.pages * (size_t)sysconf(_SC_PAGESIZE),
							 r.a.compressed2 ? PEO_RECORD_COMPRESSED2
									 : PEO_RECORD_COMPRESSED)) {
		fprintf(stderr, "peo record: %s\n", peo_last_error());
		goto out;
	}
	if ((!r.events[0].attr.enable_on_exec && enable_all(&r)) ||
	    (r.a.cmd && peo_child_start(r.child))) {
		fprintf(stderr, "peo record: %s\n", peo_last_error());
		goto out;
	}
	r.started = 1;
	/* Running: an old -o FILE becomes FILE.old and this one FILE.  Another
	 * recorder that took FILE meanwhile keeps it; this one keeps its own name. */
	if (r.out_fd < 0 && peo_perfdata_writer_publish(r.w)) {
		r.kept_as = strdup(peo_perfdata_writer_path(r.w));
		fprintf(stderr, "peo record: %s; this recording goes to %s\n", peo_last_error(),
			r.kept_as ? r.kept_as : "a file beside it");
	}
	ret = record_loop(&r) ? 1 : 0;
	if (r.reader_gone) /* nothing more can go out; the command goes on, as under perf */
		goto out;
	if (r.child) {
		if (ret && r.write_err) /* a full disk: nothing more can be recorded */
			fprintf(stderr, "peo record: the recording stops here; the command gets SIGTERM\n");
		if (stop_requested || ret) /* interrupted, or failed: the command goes too, as with perf */
			kill(peo_child_pid(r.child), SIGTERM);
		if (peo_child_wait(r.child, &status, NULL) == 0 && !ret && !stop_requested)
			ret = peo_exit_code(status);
	}
	if ((lost = write_lost_samples(&r)) < 0)
		ret = 1;
	/* finished first: the counts below are then what the file holds */
	if (r.out_fd < 0 && (err = peo_perfdata_writer_finish(r.w))) {
		write_failed(&r, err);
		ret = 1;
	}
	bytes = peo_perfdata_writer_data_size(r.w);
	given = peo_perfdata_writer_given_size(r.w);
	records = peo_perfdata_writer_count(r.w, PEO_PERFDATA_ALL_TYPES);
	samples = peo_perfdata_writer_count(r.w, PEO_RECORD_SAMPLE);
	chunks = peo_perfdata_writer_count(r.w, PEO_RECORD_LOST);
	if ((err = peo_perfdata_writer_close(r.w))) {
		write_failed(&r, err);
		ret = 1;
	}
	if (r.kept_as)
		r.a.output = r.kept_as;
	r.w = NULL;
	if (r.reader_gone)
		goto out;
	fprintf(stderr, "[ peo record: Woken up %" PRIu64 " times to write data ]\n", r.wakeups);
	print_lost(records, chunks, samples, lost > 0 ? (uint64_t)lost : 0);
	if (r.a.compress && bytes) /* perf's form: sizes and ratio, no sample count */
		fprintf(stderr, "[ peo record: Captured and wrote %.3f MB %s, compressed (original "
			"%.3f MB, ratio is %.3f) ]\n", (double)bytes / (1024.0 * 1024.0), r.a.output,
			(double)given / (1024.0 * 1024.0), (double)given / (double)bytes);
	else
		fprintf(stderr, "[ peo record: Captured and wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
			(double)bytes / (1024.0 * 1024.0), r.a.output, samples);
out:
	if (r.w)
		peo_perfdata_writer_abandon(r.w);
	cleanup(&r);
	free(r.kept_as);
	if (r.out_fd >= 0)
		close(r.out_fd);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	return r.reader_gone ? 128 + SIGPIPE : ret; /* the status perf's SIGPIPE death gives */
}
