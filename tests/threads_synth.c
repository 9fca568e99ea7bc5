/*
 * threads_synth.c - threads_synth FILE SEED TASKS: a perf.data of TASKS
 * (at least) threads and processes coming and going, as perf record -a
 * writes it on a 2-CPU machine, for tests/threads_compare.sh.
 *
 * A few hundred tasks live at a time; the rest came and went before.
 * Made from SEED (the same file for the same arguments):
 *   - new processes: FORK of a thread of a live process (pid != ppid),
 *     most then exec: COMM with misc's EXEC bit, then MMAP2 of its binary
 *     and a library; the rest stay their parent's (a subshell), with an
 *     anonymous MMAP2 of their own;
 *   - threads: FORK inside a process (pid == ppid), some then named by a
 *     COMM without the EXEC bit (prctl(PR_SET_NAME));
 *   - EXIT of threads, and of processes (their threads first);
 *   - pids reused: most new tids are a dead task's (a thread's tid comes
 *     back as a process, a process's pid as a thread...);
 *   - some FORKs from a parent no record named (a process running before
 *     the recording), whose child perf calls ":TID" even where its tid
 *     was a named task's before;
 *   - cpu-clock samples of every live thread (IP|TID|TIME|PERIOD and a
 *     user callchain), and sample_id_all on every other record (perf
 *     sorts by time).  Callchain frames fall in the process's maps (its
 *     own, or those a subshell inherited), in none, and in the maps of
 *     the process its pid had before, which perf no longer knows: perf
 *     prints a frame in a map as its offset in the file, others as they
 *     are.
 * Each record goes to one of two rings; a round is each ring's records in
 * turn (so the file is out of time order within a round, as perf record
 * writes it), then FINISHED_ROUND.  Times only grow: every round's records
 * are newer than the round before's.
 *
 * Prints the tasks made, the pids reused and the records written.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth_sample.h"

#define RINGS 2
#define LIVE_MAX 400 /* tasks alive at a time, about */
#define PID_MAX 32768
#define ROUND_STEPS 300

struct task {
	uint32_t pid, tid;
	int live;
};

/* A process's maps, as far as its samples' frames go (0: none). */
struct proc {
	uint64_t lib, anon; /* its library's and its anonymous map's starts */
	uint64_t ghost;     /* a map of the process this pid was before */
};

/* The generator's state. */
struct gen {
	struct peo_perfdata_writer *w;
	uint64_t x, time, step; /* now, and the step to the next record */
	unsigned char *ring[RINGS];
	size_t used[RINGS], cap[RINGS];
	struct task *live; /* the live tasks (unordered) */
	size_t nlive;
	uint32_t *dead; /* tids free to come back */
	size_t ndead;
	unsigned char *ever; /* tids used before (for the reuse count) */
	struct proc *procs;  /* by pid */
	uint32_t next_pid;
	uint64_t made, reused, records;
};

static uint64_t rnd(struct gen *g, uint64_t n)
{
	return synth_next(&g->x) % n;
}

/* The time of the next record: a few microseconds on (the step drawn
 * ahead, so a FORK's or EXIT's own time can be its trailer's). */
static uint64_t tick(struct gen *g)
{
	g->time += g->step;
	g->step = 1 + rnd(g, 20000);
	return g->time;
}

/* Room for @n more bytes of ring @r's round. */
static void *ring_room(struct gen *g, int r, size_t n)
{
	if (g->used[r] + n > g->cap[r]) {
		size_t cap = g->cap[r] ? g->cap[r] * 2 : 1 << 16;
		unsigned char *more;

		while (cap < g->used[r] + n)
			cap *= 2;
		if (!(more = realloc(g->ring[r], cap))) {
			fprintf(stderr, "threads_synth: out of memory\n");
			exit(1);
		}
		g->ring[r] = more;
		g->cap[r] = cap;
	}
	g->used[r] += n;
	return g->ring[r] + g->used[r] - n;
}

/* The sample_id_all trailer of IP|TID|TIME|PERIOD: pid, tid, time. */
struct trailer {
	uint32_t pid, tid;
	uint64_t time;
};

/* A record of @type and @misc whose body (@len bytes, padded to 8 with
 * zeros) is @body, with the trailer of @pid/@tid at the time now. */
static void put_record(struct gen *g, uint32_t type, uint16_t misc, const void *body, size_t len,
		       uint32_t pid, uint32_t tid)
{
	size_t padded = (len + 7) & ~(size_t)7;
	struct trailer t = { pid, tid, tick(g) };
	struct peo_event_header h = { type, misc, (uint16_t)(sizeof(h) + padded + sizeof(t)) };
	unsigned char *p = ring_room(g, (int)rnd(g, RINGS), h.size);

	memcpy(p, &h, sizeof(h));
	memset(p + sizeof(h), 0, padded);
	memcpy(p + sizeof(h), body, len);
	memcpy(p + sizeof(h) + padded, &t, sizeof(t));
	g->records++;
}

static void comm(struct gen *g, uint32_t pid, uint32_t tid, const char *name, int exec)
{
	struct {
		uint32_t pid, tid;
		char comm[16];
	} b = { pid, tid, { 0 } };

	memcpy(b.comm, name, strnlen(name, sizeof(b.comm) - 1)); /* the kernel's 15 at most */
	put_record(g, PEO_RECORD_COMM, exec ? PEO_RECORD_MISC_COMM_EXEC : 0, &b,
		   8 + strlen(b.comm) + 1, pid, tid);
}

/* FORK (@type PEO_RECORD_FORK) or EXIT: the trailer is the parent's for a
 * FORK (the kernel writes it from the forking thread), the task's for EXIT. */
static void task_record(struct gen *g, uint32_t type, uint32_t pid, uint32_t ppid, uint32_t tid,
			uint32_t ptid)
{
	struct {
		uint32_t pid, ppid, tid, ptid;
		uint64_t time;
	} b = { pid, ppid, tid, ptid, 0 };

	b.time = g->time + g->step; /* the trailer's */

	if (type == PEO_RECORD_FORK)
		put_record(g, type, 0, &b, sizeof(b), ppid, ptid);
	else
		put_record(g, type, 0, &b, sizeof(b), pid, tid);
}

static void mmap2(struct gen *g, uint32_t pid, uint64_t addr, uint64_t len, uint64_t pgoff,
		  uint32_t prot, const char *file)
{
	struct mmap2_body {
		uint32_t pid, tid;
		uint64_t addr, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_generation;
		uint32_t prot, flags;
		char filename[64];
	} b = { pid, pid, addr, len, pgoff, 8, 1, 1000 + rnd(g, 100000), 0, prot, 2, { 0 } };

	snprintf(b.filename, sizeof(b.filename), "%s", file);
	put_record(g, PEO_RECORD_MMAP2, PEO_RECORD_MISC_USER, &b,
		   offsetof(struct mmap2_body, filename) + strlen(b.filename) + 1, pid, pid);
}

/* A sample of @t: its ip in the binary, then a user callchain of 1 to 4
 * more frames. */
static void sample(struct gen *g, const struct task *t)
{
	const struct proc *p = &g->procs[t->pid];
	struct {
		struct synth_sample s;
		uint64_t nr, ips[6];
	} b;
	size_t nr = 0, frames = 1 + rnd(g, 4);

	b.s = synth_sample(0x400000 + rnd(g, 0x80000), t->pid, t->tid, tick(g));
	b.ips[nr++] = (uint64_t)PEO_CONTEXT_USER;
	b.ips[nr++] = b.s.ip;
	while (frames--) {
		switch (rnd(g, 5)) {
		case 0:
			b.ips[nr++] = p->lib ? p->lib + rnd(g, 0x200000) : 0x400000 + rnd(g, 0x80000);
			break;
		case 1:
			b.ips[nr++] = p->anon ? p->anon + rnd(g, 0x21000) : 0x10000 + rnd(g, 0x1000);
			break;
		case 2: /* the pid's process before: perf knows none of its maps */
			b.ips[nr++] = p->ghost ? p->ghost + rnd(g, 0x1000) : 0x20000 + rnd(g, 0x1000);
			break;
		case 3: /* no map */
			b.ips[nr++] = 0x10000 + rnd(g, 0x1000);
			break;
		default:
			b.ips[nr++] = 0x400000 + rnd(g, 0x80000);
		}
	}
	b.nr = nr;
	b.s.h.size = (uint16_t)(sizeof(b.s) + 8 + 8 * nr);
	memcpy(ring_room(g, (int)rnd(g, RINGS), b.s.h.size), &b, b.s.h.size);
	g->records++;
}

/* A tid for a new task: a dead one's most of the time, else a new one. */
static uint32_t new_tid(struct gen *g)
{
	uint32_t tid;

	if (g->ndead && (rnd(g, 4) || g->next_pid >= PID_MAX)) {
		size_t i = rnd(g, g->ndead);

		tid = g->dead[i];
		g->dead[i] = g->dead[--g->ndead];
	} else {
		tid = g->next_pid++;
	}
	g->reused += g->ever[tid];
	g->ever[tid] = 1;
	g->made++;
	return tid;
}

static struct task *add_live(struct gen *g, uint32_t pid, uint32_t tid)
{
	g->live[g->nlive] = (struct task){ pid, tid, 1 };
	return &g->live[g->nlive++];
}

/* The live task @i is gone (its tid free to come back). */
static void drop_live(struct gen *g, size_t i)
{
	g->dead[g->ndead++] = g->live[i].tid;
	g->live[i] = g->live[--g->nlive];
}

static const char *const names[] = {
	"sh", "bash", "make", "cc1", "ld", "python3", "a-very-long-name", "kworker/u4:2",
	"sed", "grep", "git", "perl", "ninja", "x", "systemd-journal", "cat",
};

/* A new process forked by live task @parent (NULL: one no record named). */
static void new_process(struct gen *g, const struct task *parent)
{
	uint32_t ppid, ptid, pid;
	char name[32];

	if (parent) {
		ppid = parent->pid;
		ptid = parent->tid;
	} else { /* running before the recording: never named */
		ppid = ptid = PID_MAX + (uint32_t)rnd(g, 1000);
	}
	struct proc *p;

	pid = new_tid(g);
	p = &g->procs[pid];
	/* what perf no longer knows: a map of the pid's process before */
	p->ghost = p->lib ? p->lib : p->anon;
	p->lib = parent ? g->procs[parent->pid].lib : 0; /* a child has its parent's maps */
	p->anon = parent ? g->procs[parent->pid].anon : 0;
	task_record(g, PEO_RECORD_FORK, pid, ppid, pid, ptid);
	add_live(g, pid, pid);
	if (rnd(g, 4)) { /* exec */
		snprintf(name, sizeof(name), "%s%s", names[rnd(g, 16)],
			 rnd(g, 2) ? "" : "-x");
		comm(g, pid, pid, name, 1);
		mmap2(g, pid, 0x400000, 0x100000, 0, 5, "/usr/bin/made-up");
		p->lib = 0x7f0000000000 + (rnd(g, 1024) << 20);
		mmap2(g, pid, p->lib, 0x200000, 0x1000, 5, "/usr/lib/libmade-up.so.1");
	} else { /* a subshell: its parent's comm, maps of its own too */
		p->anon = 0x7f1000000000 + (rnd(g, 1024) << 20);
		mmap2(g, pid, p->anon, 0x21000, 0, 3, "//anon");
	}
}

/* A thread in live task @t's process, made by @t. */
static void new_thread(struct gen *g, const struct task *t)
{
	uint32_t pid = t->pid, ptid = t->tid, tid = new_tid(g);
	char name[16];

	task_record(g, PEO_RECORD_FORK, pid, pid, tid, ptid);
	add_live(g, pid, tid);
	if (!rnd(g, 3)) { /* prctl(PR_SET_NAME) */
		snprintf(name, sizeof(name), "worker-%u", (unsigned)rnd(g, 100));
		comm(g, pid, tid, name, 0);
	}
}

/* Live task @i exits; a process's leader takes its threads with it. */
static void task_exit(struct gen *g, size_t i)
{
	struct task t = g->live[i];

	if (t.pid == t.tid)
		for (size_t k = g->nlive; k-- > 0;)
			if (g->live[k].pid == t.pid && g->live[k].tid != t.tid) {
				task_record(g, PEO_RECORD_EXIT, t.pid, t.pid, g->live[k].tid, t.tid);
				drop_live(g, k);
			}
	for (size_t k = 0; k < g->nlive; k++)
		if (g->live[k].tid == t.tid) {
			task_record(g, PEO_RECORD_EXIT, t.pid, t.pid, t.tid, t.tid);
			drop_live(g, k);
			break;
		}
}

/* Write the round: each ring's records in turn, then FINISHED_ROUND. */
static int end_round(struct gen *g)
{
	for (int r = 0; r < RINGS; r++) {
		if (g->used[r] && peo_perfdata_writer_record(g->w, g->ring[r], g->used[r]))
			return -1;
		g->used[r] = 0;
	}
	return peo_perfdata_writer_finished_round(g->w);
}

static void gen_free(struct gen *g)
{
	for (int r = 0; r < RINGS; r++)
		free(g->ring[r]);
	free(g->live);
	free(g->dead);
	free(g->ever);
	free(g->procs);
}

int main(int argc, char **argv)
{
	struct gen g = { .time = 100000000000ull, .step = 1, .next_pid = 2 };
	struct peo_attr a;
	uint64_t ids[1] = { 11 }, steps = 0;
	long tasks;

	if (argc != 4 || !(g.x = strtoull(argv[2], NULL, 0)) || (tasks = atol(argv[3])) <= 0 ||
	    tasks > 10000000) {
		fprintf(stderr, "usage: threads_synth FILE SEED TASKS (SEED not 0, TASKS 1 to "
				"10000000)\n");
		return 2;
	}
	g.live = calloc(LIVE_MAX * 2 + 64, sizeof(*g.live));
	g.dead = calloc(PID_MAX, sizeof(*g.dead));
	g.ever = calloc(PID_MAX, 1);
	g.procs = calloc(PID_MAX, sizeof(*g.procs));
	if (!g.live || !g.dead || !g.ever || !g.procs) {
		fprintf(stderr, "threads_synth: out of memory\n");
		gen_free(&g);
		return 1;
	}
	synth_sample_attr(&a, 1);
	a.sample_type |= PEO_SAMPLE_CALLCHAIN;
	if (peo_perfdata_writer_open(&g.w, argv[1]) ||
	    peo_perfdata_writer_add_event(g.w, &a, ids, 1, "cpu-clock"))
		goto fail;
	/* init, named as perf names running tasks at the start */
	g.ever[1] = 1;
	comm(&g, 1, 1, "init", 0);
	mmap2(&g, 1, 0x400000, 0x80000, 0, 5, "/sbin/init");
	add_live(&g, 1, 1);
	while (g.made < (uint64_t)tasks || g.nlive > 1) {
		uint64_t op = rnd(&g, 100);
		struct task *t = &g.live[rnd(&g, g.nlive)];
		size_t i = (size_t)(t - g.live);

		if (g.made < (uint64_t)tasks && g.nlive < LIVE_MAX && op < 25) {
			new_process(&g, rnd(&g, 40) ? t : NULL);
		} else if (g.made < (uint64_t)tasks && g.nlive < LIVE_MAX && op < 40) {
			new_thread(&g, t);
		} else if (op < 60 && t->tid != 1) {
			task_exit(&g, i);
		} else if (g.made >= (uint64_t)tasks && t->tid != 1) {
			task_exit(&g, i); /* the end: everyone but init goes */
		} else {
			for (uint64_t n = 1 + rnd(&g, 3); n > 0; n--)
				sample(&g, t);
		}
		if (++steps % ROUND_STEPS == 0 && end_round(&g))
			goto fail;
	}
	if (end_round(&g))
		goto fail;
	gen_free(&g);
	if (peo_perfdata_writer_close(g.w)) {
		g.w = NULL; /* close freed it, failing too */
		goto fail;
	}
	printf("%llu tasks made, %llu of them on a pid reused, %llu records\n",
	       (unsigned long long)g.made, (unsigned long long)g.reused,
	       (unsigned long long)g.records);
	return 0;
fail:
	fprintf(stderr, "threads_synth: %s\n", peo_last_error());
	peo_perfdata_writer_abandon(g.w);
	gen_free(&g);
	return 1;
}
