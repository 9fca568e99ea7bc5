/*
 * fuzz_script_state.c - the symbolizer's thread names (src/symbols/threads.c)
 * and process maps (src/symbols/maps.c) driven by sequences of COMM,
 * FORK, EXIT and MMAP2 operations, with tids and pids reused and the
 * tables made to grow (a burst forks hundreds at once), each lookup held
 * to a reference model: an array indexed by tid (its name, or none) and a
 * list of maps per pid, kept as perf keeps them.
 *
 * The input is a list of operations, each an opcode byte then its
 * arguments (bytes past the end read as 0):
 *   COMM tid name-len name     thread tid is called name (15 bytes kept)
 *   FORK ptid tid pid ppid     a thread or process made; a new process
 *                              (pid != ppid) starts with ppid's maps only
 *   EXIT tid                   nothing changes (perf keeps the names)
 *   MMAP2 pid start len pgoff  pid maps [start, start + len) (of a map
 *                              it overlaps in part, the rest stays)
 *   COPY from to               thread to takes thread from's name, as a
 *                              pointer into the table (what crashed)
 *   BURST ptid base n          n threads forked by ptid, tids base..
 *   LOOK tid                   name and maps of tid/pid against the model
 * Ids are 12 bits (reuse is frequent; 0 is the idle task), a burst's up
 * to 1,023 threads past them (the tables grow).
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "symbols/maps.h"
#include "symbols/threads.h"

#define IDS 4096
#define MAX_IDS (IDS + 1024) /* a burst's tids go past IDS */
#define MAX_MAPS 64          /* a model process's maps (more are not added) */

struct model_map {
	uint64_t start, end, pgoff;
};

struct model {
	int named[MAX_IDS];
	char comm[MAX_IDS][16];
	int has_proc[MAX_IDS]; /* sym_maps knows the pid (maps or a fork made it) */
	size_t nmaps[MAX_IDS];
	struct model_map maps[MAX_IDS][MAX_MAPS];
};

static struct model model;

struct input {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct input *in, size_t bytes)
{
	uint64_t v = 0;

	for (size_t i = 0; i < bytes && in->n; i++, in->p++, in->n--)
		v |= (uint64_t)*in->p << (8 * i);
	return v;
}

static uint32_t take_id(struct input *in)
{
	return (uint32_t)(take(in, 2) % IDS);
}

/* The model's answer for tid's name (NULL: none). */
static const char *model_comm(uint32_t tid)
{
	return !tid ? "swapper" : model.named[tid] ? model.comm[tid] : NULL;
}

/* Thread tid is called @name in the model (15 bytes kept). */
static void model_name(uint32_t tid, const char *name)
{
	char copy[16] = "";

	strncat(copy, name, 15); /* @name may be the model's own */
	model.named[tid] = 1;
	memcpy(model.comm[tid], copy, sizeof(copy));
}

static void model_add(uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff)
{
	uint64_t end = start + len;
	struct model_map *v = model.maps[pid];
	size_t w = 0;

	if (!len || end < start)
		return;
	model.has_proc[pid] = 1;
	struct model_map kept[MAX_MAPS];

	/* what it overlaps goes, but the parts of a map before and after it */
	for (size_t i = 0; i < model.nmaps[pid]; i++) {
		if (v[i].end <= start || v[i].start >= end) {
			kept[w++] = v[i];
			continue;
		}
		if (v[i].start < start)
			kept[w++] = (struct model_map){ v[i].start, start, v[i].pgoff };
		if (v[i].end > end)
			kept[w++] = (struct model_map){ end, v[i].end, v[i].pgoff + (end - v[i].start) };
	}
	kept[w++] = (struct model_map){ start, end, pgoff };
	memcpy(v, kept, w * sizeof(*v));
	model.nmaps[pid] = w;
}

/* The model's answer for addr in pid's maps: 1 with *off, or 0. */
static int model_offset(uint32_t pid, uint64_t addr, uint64_t *off)
{
	for (size_t i = 0; i < model.nmaps[pid]; i++)
		if (addr >= model.maps[pid][i].start && addr < model.maps[pid][i].end) {
			*off = addr - model.maps[pid][i].start + model.maps[pid][i].pgoff;
			return 1;
		}
	return 0;
}

static void check_tid(struct sym_threads *t, uint32_t tid)
{
	const char *got = sym_threads_comm(t, tid), *want = model_comm(tid);

	CHECK_SAYS(!got == !want && (!got || !strcmp(got, want)), "tid %u: '%s', the model '%s'",
		   tid, got ? got : "(none)", want ? want : "(none)");
	/* again: the cache of the last answer */
	CHECK(sym_threads_comm(t, tid) == got);
}

/* Every address at and around pid's maps' edges, and a few others. */
static void check_pid(struct sym_maps *m, uint32_t pid, uint64_t probe)
{
	uint64_t addrs[3 * MAX_MAPS + 2], got, want;
	size_t n = 0;

	for (size_t i = 0; i < model.nmaps[pid]; i++) {
		addrs[n++] = model.maps[pid][i].start;
		addrs[n++] = model.maps[pid][i].end - 1;
		addrs[n++] = model.maps[pid][i].end;
	}
	addrs[n++] = probe;
	addrs[n++] = probe * 4096;
	for (size_t i = 0; i < n; i++) {
		const struct sym_map *hit = sym_maps_find(m, pid, addrs[i]);
		int g = hit != NULL, w = model_offset(pid, addrs[i], &want);

		got = hit ? addrs[i] - hit->start + hit->pgoff : 0;
		CHECK_SAYS(g == w && (!g || got == want),
			   "pid %u addr 0x%llx: %d 0x%llx, the model %d 0x%llx", pid,
			   (unsigned long long)addrs[i], g, (unsigned long long)(g ? got : 0), w,
			   (unsigned long long)(w ? want : 0));
	}
}

/* A FORK, in both and in the model: the name as perf gives it, the maps
 * of a new process as its parent's. */
static void fork_one(struct sym_threads *t, struct sym_maps *m, uint32_t ptid, uint32_t tid,
		     uint32_t pid, uint32_t ppid)
{
	CHECK(sym_threads_fork(t, ptid, tid) == 0);
	if (tid && model_comm(ptid))
		model_name(tid, model_comm(ptid));
	else if (tid)
		model.named[tid] = 0;
	if (pid == ppid)
		return;
	CHECK(sym_maps_fork(m, ppid, pid) == 0);
	model.nmaps[pid] = 0; /* whatever this pid had before */
	if (model.has_proc[ppid]) {
		model.has_proc[pid] = 1;
		memcpy(model.maps[pid], model.maps[ppid], model.nmaps[ppid] * sizeof(struct model_map));
		model.nmaps[pid] = model.nmaps[ppid];
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sym_threads t = { 0 };
	struct sym_maps m = { 0 };
	struct input in = { data, size };
	char name[32];

	/* the maps' entries past nmaps are never read */
	memset(model.named, 0, sizeof(model.named));
	memset(model.comm, 0, sizeof(model.comm));
	memset(model.has_proc, 0, sizeof(model.has_proc));
	memset(model.nmaps, 0, sizeof(model.nmaps));
	while (in.n) {
		uint8_t op = (uint8_t)take(&in, 1) % 7;
		uint32_t a = take_id(&in), b, c, d;
		size_t len;

		switch (op) {
		case 0: /* COMM */
			len = (size_t)take(&in, 1) % 24;
			memset(name, 0, sizeof(name));
			for (size_t i = 0; i < len; i++)
				name[i] = (char)(take(&in, 1) % 95 + 32); /* printable, no NUL */
			CHECK(sym_threads_set(&t, a, name) == 0);
			if (a)
				model_name(a, name);
			break;
		case 1: /* FORK */
			b = take_id(&in);
			c = take(&in, 1) & 1 ? b : take_id(&in); /* a thread of its own process, or */
			d = take(&in, 1) & 1 ? c : take_id(&in); /* a new process */
			fork_one(&t, &m, a, b, c, d);
			break;
		case 2: /* EXIT: perf keeps the dead thread's name and maps */
			break;
		case 3: { /* MMAP2 */
			uint64_t start = take(&in, 2) << 12, mlen = take(&in, 2) << (take(&in, 1) % 16);
			uint64_t pgoff = take(&in, 2) << 12;

			if (take(&in, 1) == 0xff) /* one that wraps */
				start = UINT64_MAX - mlen / 2;
			if (model.nmaps[a] + 2 > MAX_MAPS) /* one more, and a map split in two */
				break;
			CHECK(sym_maps_add(&m, a, start, mlen, pgoff, NULL, 1) == 0);
			model_add(a, start, mlen, pgoff);
			break;
		}
		case 4: /* COPY: a name given as a pointer into the table */
			b = take_id(&in);
			if (sym_threads_comm(&t, a)) {
				CHECK(sym_threads_set(&t, b, sym_threads_comm(&t, a)) == 0);
				if (b)
					model_name(b, model_comm(a));
			}
			break;
		case 5: { /* BURST: the tables grow under a fork */
			uint32_t n = (uint32_t)take(&in, 2) % 1024, base = take_id(&in);

			for (uint32_t i = 0; i < n; i++) /* below MAX_IDS */
				fork_one(&t, &m, a, base + i, base + i, i & 1 ? base + i : a);
			break;
		}
		default: /* LOOK */
			check_tid(&t, a);
			check_pid(&m, a, take(&in, 2));
		}
	}
	for (uint32_t id = 0; id < MAX_IDS; id++)
		check_tid(&t, id);
	for (uint32_t id = 0; id < MAX_IDS; id++)
		if (model.nmaps[id])
			check_pid(&m, id, id);
	sym_threads_free(&t);
	sym_maps_free(&m);
	return 0;
}
