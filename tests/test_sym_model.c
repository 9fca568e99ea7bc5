/*
 * test_sym_model.c - the symbolizer's model of processes (peo_processes,
 * src/symbols/maps.c and threads.c): maps from MMAP2 records split what
 * they overlap, a child inherits its parent's maps and name at FORK, an
 * address is found in its process's map (the file offset perf prints) or
 * in none; a running process read from /proc finds this test's own code;
 * thousands of processes and threads; bad arguments refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/maps.h"
#include "test_util.h"

/* A record as the parser leaves one: only the fields the model reads. */
static struct peo_record mmap2(uint32_t pid, uint64_t addr, uint64_t len, uint64_t pgoff,
			       const char *file)
{
	struct peo_record r = { .sz = sizeof(r) };

	r.header.type = PEO_RECORD_MMAP2;
	r.header.misc = PEO_RECORD_MISC_USER;
	r.u.mmap = (struct peo_rec_mmap){ .pid = pid, .tid = pid, .addr = addr, .len = len,
					  .pgoff = pgoff, .prot = 5, .filename = file };
	return r;
}

static struct peo_record task(uint32_t type, uint32_t pid, uint32_t ppid, uint32_t tid,
			      uint32_t ptid)
{
	struct peo_record r = { .sz = sizeof(r) };

	r.header.type = type;
	r.u.task = (struct peo_rec_task){ .pid = pid, .ppid = ppid, .tid = tid, .ptid = ptid };
	return r;
}

static struct peo_record comm(uint32_t pid, uint32_t tid, const char *name)
{
	struct peo_record r = { .sz = sizeof(r) };

	r.header.type = PEO_RECORD_COMM;
	r.u.comm = (struct peo_rec_comm){ .pid = pid, .tid = tid, .comm = name };
	return r;
}

static void feed(struct peo_processes *p, struct peo_record r)
{
	assert_int_equal(peo_processes_add_record(p, &r), 0);
}

/* The frame of @addr of @pid, a user address. */
static struct peo_frame at(struct peo_processes *p, uint32_t pid, uint64_t addr)
{
	struct peo_frame f = { .sz = sizeof(f) };

	assert_true(peo_processes_lookup(p, pid, PEO_RECORD_MISC_USER, addr, 0, &f) >= 0);
	assert_int_equal(f.addr, addr);
	return f;
}

/* A child inherits its parent's maps at FORK, also when making the child
 * grows the table under the parent (a real file had crashed peo script
 * there: the parent's entry was read from the freed table). */
static void maps_follow_fork_while_the_table_grows(void **state)
{
	struct sym_maps m = { 0 };
	const struct sym_map *hit;

	(void)state;
	for (uint32_t pid = 1; pid <= 128; pid++) /* a 256-slot table, half full: the next grows it */
		assert_int_equal(sym_maps_add(&m, pid, 0x400000 + pid * 0x1000, 0x1000, pid, NULL, 1), 0);
	assert_int_equal(sym_maps_add(&m, 1, 0x7f0000, 0x2000, 0x5000, NULL, 1), 0);
	assert_int_equal(m.cap, 256); /* what the test is about: the fork's child grows it */
	assert_int_equal(sym_maps_fork(&m, 1, 1000), 0);
	assert_int_equal(m.cap, 512);
	assert_non_null(hit = sym_maps_find(&m, 1000, 0x7f0010));
	assert_int_equal(0x7f0010 - hit->start + hit->pgoff, 0x5010);
	assert_non_null(hit = sym_maps_find(&m, 1000, 0x401008));
	assert_int_equal(0x401008 - hit->start + hit->pgoff, 0x9); /* pid 1's first map, pgoff 1 */
	assert_null(sym_maps_find(&m, 1000, 0x402000)); /* pid 2's only */
	assert_non_null(hit = sym_maps_find(&m, 1, 0x7f1fff));
	assert_int_equal(0x7f1fff - hit->start + hit->pgoff, 0x6fff);
	/* a parent with no maps: nothing to copy, nothing made */
	assert_int_equal(sym_maps_fork(&m, 5000, 5001), 0);
	assert_null(sym_maps_find(&m, 5001, 0x401008));
	sym_maps_free(&m);
}

/* Records make the maps: a map over the middle of another leaves its two
 * ends (their offsets kept), anonymous memory is read as it is, and an
 * address outside every map is in no binary. */
static void records_make_the_maps(void **state)
{
	struct peo_processes *p;
	struct peo_frame f;

	(void)state;
	assert_int_equal(peo_processes_new(&p, NULL, NULL), 0);
	feed(p, mmap2(10, 0x10000, 0x10000, 0x3000, "/bin/a"));
	feed(p, mmap2(10, 0x14000, 0x2000, 0, "/bin/b")); /* inside /bin/a's */
	feed(p, mmap2(10, 0x7000000, 0x1000, 0, "//anon"));
	f = at(p, 10, 0x11000);
	assert_string_equal(f.dso, "/bin/a");
	assert_int_equal(f.dso_offset, 0x4000);
	f = at(p, 10, 0x15008);
	assert_string_equal(f.dso, "/bin/b");
	assert_int_equal(f.dso_offset, 0x1008);
	f = at(p, 10, 0x17010); /* the end of /bin/a's past /bin/b's */
	assert_string_equal(f.dso, "/bin/a");
	assert_int_equal(f.dso_offset, 0x17010 - 0x10000 + 0x3000);
	f = at(p, 10, 0x7000010); /* executable: a JIT's, named by its map file */
	assert_string_equal(f.dso, "/tmp/perf-10.map");
	assert_int_equal(f.dso_offset, 0x7000010);
	assert_null(f.sym);
	f = at(p, 10, 0x20000); /* just past /bin/a's */
	assert_null(f.dso);
	assert_null(f.sym);
	f = at(p, 11, 0x11000); /* another process */
	assert_null(f.dso);
	peo_processes_free(p);
}

/* A FORK of a new process copies its parent's maps and name; a thread
 * (pid == ppid) shares them; a COMM renames one thread only. */
static void fork_and_comm(void **state)
{
	struct peo_processes *p;

	(void)state;
	assert_int_equal(peo_processes_new(&p, NULL, NULL), 0);
	feed(p, comm(20, 20, "parent"));
	feed(p, mmap2(20, 0x400000, 0x1000, 0, "/bin/parent"));
	feed(p, task(PEO_RECORD_FORK, 21, 20, 21, 20));
	feed(p, task(PEO_RECORD_FORK, 20, 20, 22, 20)); /* a thread of the parent */
	feed(p, comm(21, 21, "child"));
	assert_string_equal(peo_processes_comm(p, 20), "parent");
	assert_string_equal(peo_processes_comm(p, 22), "parent");
	assert_string_equal(peo_processes_comm(p, 21), "child");
	assert_null(peo_processes_comm(p, 99));
	assert_string_equal(peo_processes_comm(p, 0), "swapper");
	assert_string_equal(at(p, 21, 0x400100).dso, "/bin/parent");
	feed(p, mmap2(21, 0x400000, 0x1000, 0, "/bin/child")); /* exec's new image */
	assert_string_equal(at(p, 21, 0x400100).dso, "/bin/child");
	assert_string_equal(at(p, 20, 0x400100).dso, "/bin/parent");
	peo_processes_free(p);
}

/* Executable anonymous memory is a JIT's: its frames are named from the
 * JIT's /tmp/perf-PID.map, a damaged one says where; data is not. */
static void a_jit_map(void **state)
{
	uint32_t pid = 0x7ffff000u + (uint32_t)getpid() % 0x800; /* no process of ours */
	struct peo_processes *p;
	struct peo_record r;
	struct peo_frame f;
	const char *note;
	char path[64];
	FILE *m;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/perf-%u.map", pid);
	assert_non_null(m = fopen(path, "w"));
	fprintf(m, "7f0000001000 40 jitted_one\n7f0000001040 20 JS:another one\n");
	fclose(m);
	assert_int_equal(peo_processes_new(&p, NULL, NULL), 0);
	r = mmap2(pid, 0x7f0000000000, 0x10000, 0, "//anon");
	feed(p, r);
	f = at(p, pid, 0x7f0000001044);
	assert_string_equal(f.dso, path);
	assert_string_equal(f.sym, "JS:another one");
	assert_int_equal(f.symoff, 4);
	assert_int_equal(f.dso_offset, 0x7f0000001044); /* as it is */
	r.u.mmap.prot = 3; /* data: not a JIT's */
	r.u.mmap.addr = 0x7f1000000000;
	feed(p, r);
	assert_string_equal(at(p, pid, 0x7f1000000010).dso, "//anon");
	peo_processes_free(p);

	assert_non_null(m = fopen(path, "w"));
	fprintf(m, "7f0000001000 40 jitted_one\nnot a line\n");
	fclose(m);
	assert_int_equal(peo_processes_new(&p, NULL, NULL), 0);
	feed(p, mmap2(pid, 0x7f0000000000, 0x10000, 0, "//anon"));
	assert_null(at(p, pid, 0x7f0000001004).sym);
	assert_int_equal(peo_symbols_notes(peo_processes_symbols(p), &note, 1), 1);
	assert_non_null(strstr(note, ":2: 'not a line' is not START SIZE NAME"));
	peo_processes_free(p);
	unlink(path);
}

/* 4,000 processes of 16 maps and 8 threads each, made by FORK from one. */
static void thousands_of_processes(void **state)
{
	struct peo_processes *p;
	char name[32];

	(void)state;
	assert_int_equal(peo_processes_new(&p, NULL, NULL), 0);
	for (uint32_t i = 0; i < 16; i++)
		feed(p, mmap2(1, 0x1000000 + i * 0x10000, 0x10000, i * 0x1000, "/bin/init"));
	for (uint32_t pid = 2; pid < 4002; pid++) {
		feed(p, task(PEO_RECORD_FORK, pid, 1, pid, 1));
		snprintf(name, sizeof(name), "p%u", pid);
		feed(p, comm(pid, pid, name));
		feed(p, mmap2(pid, 0x1000000 + (pid % 16) * 0x10000, 0x10000, 0, name));
		for (uint32_t t = 1; t < 8; t++)
			feed(p, task(PEO_RECORD_FORK, pid, pid, pid * 10 + t + 100000, pid));
	}
	for (uint32_t pid = 2; pid < 4002; pid++) {
		uint64_t mine = 0x1000000 + (pid % 16) * 0x10000 + 8;
		uint64_t other = 0x1000000 + ((pid + 1) % 16) * 0x10000 + 8;

		snprintf(name, sizeof(name), "p%u", pid);
		assert_string_equal(at(p, pid, mine).dso, name);
		assert_string_equal(at(p, pid, other).dso, "/bin/init");
		assert_int_equal(at(p, pid, other).dso_offset, ((pid + 1) % 16) * 0x1000 + 8);
		assert_string_equal(peo_processes_comm(p, pid * 10 + 7 + 100000), name);
	}
	peo_processes_free(p);
}

/* A function of this test, to be found in its own maps. */
static __attribute__((noinline, used)) int sym_model_marker(int x)
{
	return x * 3 + 1;
}

/* This running process, read from /proc: its code is in its executable,
 * and its main thread has its name. */
static void a_live_process(void **state)
{
	struct peo_processes *p;
	struct peo_frame f;
	char exe[4096], own[64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *c = fopen("/proc/self/comm", "re");
	uint64_t addr = (uint64_t)(uintptr_t)&sym_model_marker + 4;

	(void)state;
	assert_true(n > 0 && c);
	exe[n] = '\0';
	assert_non_null(fgets(own, sizeof(own), c));
	fclose(c);
	own[strcspn(own, "\n")] = '\0';
	assert_int_equal(peo_processes_new(&p, NULL, NULL), 0);
	assert_int_equal(peo_processes_add_live(p, getpid()), 0);
	assert_string_equal(peo_processes_comm(p, (uint32_t)getpid()), own);
	f = at(p, (uint32_t)getpid(), addr);
	assert_non_null(f.dso);
	assert_string_equal(f.dso, exe);
	if (!peo_symbols_available()) {
		peo_processes_free(p);
		PEO_SKIP("peo was built without elfutils: no symbol names to check");
	}
	assert_non_null(f.sym);
	assert_string_equal(f.sym, "sym_model_marker");
	assert_int_equal(f.symoff, 4);
	peo_processes_free(p);
}

/* What the model refuses, saying why. */
static void bad_arguments(void **state)
{
	struct peo_processes *p;
	struct peo_frame f = { .sz = 8 };

	(void)state;
	assert_int_equal(peo_processes_new(NULL, NULL, NULL), -EINVAL);
	assert_int_equal(peo_processes_new(&p, NULL, NULL), 0);
	assert_int_equal(peo_processes_lookup(p, 1, PEO_RECORD_MISC_USER, 0x1000, 0, &f), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "peo_frame"));
	f.sz = sizeof(f);
	assert_int_equal(peo_processes_lookup(p, 1, PEO_RECORD_MISC_USER, 0x1000, 0x80, &f), -EINVAL);
	assert_non_null(strstr(peo_last_error(), "flags"));
	assert_int_equal(peo_processes_add_live(p, 0), -EINVAL);
	assert_int_equal(peo_processes_add_live(p, 0x7ffffff0), -ESRCH);
	assert_non_null(strstr(peo_last_error(), "no such process"));
	assert_int_equal(peo_symbols_add_build_id(peo_processes_symbols(p), "/bin/x",
						  (const uint8_t *)"", 0), -EINVAL);
	peo_processes_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(maps_follow_fork_while_the_table_grows),
		cmocka_unit_test(records_make_the_maps),
		cmocka_unit_test(fork_and_comm),
		cmocka_unit_test(a_jit_map),
		cmocka_unit_test(thousands_of_processes),
		cmocka_unit_test(a_live_process),
		cmocka_unit_test(bad_arguments),
	};

	return PEO_TEST_MAIN("sym_model", tests);
}
