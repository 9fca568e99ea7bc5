/*
 * test_sym_unwind.c - peo_processes_unwind() and peo_processes_inlines():
 * a sample made from this test's own registers and a copy of its stack
 * (as the kernel copies them for perf record --call-graph dwarf) unwinds
 * through the test's functions in order, and the same in twenty forked
 * copies of it (more than keep an unwinder at once); damaged samples give
 * no frames;
 * the register maps put perf's registers at the DWARF numbers of x86_64
 * and aarch64 (synthetic values); a made-up arm64 stack of
 * tests/unwind_arm64.s, its return addresses signed (pointer
 * authentication), unwinds to its callers on any host.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/unwind.h"
#include "test_util.h"

#define STACK_BYTES 8192
#define X86_MASK 0xff0fffull /* perf's: AX..SS, R8..R15 (20 words) */

/* What the kernel would put in a sample: registers in mask order, the stack from sp. */
struct snap {
	uint64_t regs[20];
	uint8_t stack[STACK_BYTES];
	size_t stack_size;
};

#if defined(__x86_64__)
/* Copies bytes above this function's own frame: outside any object, so
 * not instrumented. */
__attribute__((no_sanitize("address"), noinline)) static void copy_stack(uint8_t *to,
									  const uint8_t *from,
									  size_t n)
{
	for (size_t i = 0; i < n; i++)
		to[i] = ((const volatile uint8_t *)from)[i];
}

/* The bytes from @sp to the end of its map, at most STACK_BYTES: as the
 * kernel copies them (the stack may end sooner). */
static size_t stack_room(uint64_t sp)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uint64_t start, end;
	size_t room = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) == 2 && sp >= start && sp < end)
			room = end - sp < STACK_BYTES ? (size_t)(end - sp) : STACK_BYTES;
	if (f)
		fclose(f);
	return room;
}

/* ip, sp and bp where the asm is, as perf's x86 registers (IP 8, SP 7, BP 6). */
__attribute__((noinline)) static void capture(struct snap *s)
{
	uint64_t ip, sp, bp;

	__asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"
			 : "=r"(ip), "=r"(sp), "=r"(bp));
	memset(s->regs, 0, sizeof(s->regs));
	s->regs[8] = ip;
	s->regs[7] = sp;
	s->regs[6] = bp;
	s->stack_size = stack_room(sp);
	copy_stack(s->stack, (const uint8_t *)sp, s->stack_size);
}
#define HAVE_CAPTURE 1
#endif

#ifdef HAVE_CAPTURE
__attribute__((noinline)) void unwind_inner(struct snap *s);
__attribute__((noinline)) void unwind_middle(struct snap *s);
__attribute__((noinline)) void unwind_outer(struct snap *s);

__attribute__((noinline)) void unwind_inner(struct snap *s)
{
	capture(s);
	__asm__ volatile("" ::: "memory"); /* not a tail call */
}

__attribute__((noinline)) void unwind_middle(struct snap *s)
{
	unwind_inner(s);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void unwind_outer(struct snap *s)
{
	unwind_middle(s);
	__asm__ volatile("" ::: "memory");
}
#endif

/* A sample record of process @pid holding @nr registers in the order of
 * @mask and @size bytes of stack (the fields the unwinder reads). */
static struct peo_record sample_with(struct peo_attr *attr, uint32_t pid, uint64_t mask,
				     const uint64_t *regs, size_t nr, const uint8_t *stack,
				     size_t size)
{
	struct peo_record r = { .sz = sizeof(r) };

	memset(attr, 0, sizeof(*attr));
	attr->sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_REGS_USER |
			    PEO_SAMPLE_STACK_USER;
	attr->sample_regs_user = mask;
	attr->sample_stack_user = STACK_BYTES;
	r.header.type = PEO_RECORD_SAMPLE;
	r.header.misc = PEO_RECORD_MISC_USER;
	r.attr = attr;
	r.sample_id.pid = r.sample_id.tid = pid;
	r.u.sample.regs_user_abi = PEO_SAMPLE_REGS_ABI_64;
	r.u.sample.regs_user_nr = nr;
	r.u.sample.regs_user = regs;
	r.u.sample.stack_user = stack;
	r.u.sample.stack_user_size = r.u.sample.stack_user_dyn_size = size;
	return r;
}

/* A sample record of this process holding @s. */
static struct peo_record sample_of(const struct snap *s, struct peo_attr *attr)
{
	return sample_with(attr, (uint32_t)getpid(), X86_MASK, s->regs, 20, s->stack,
			   s->stack_size);
}

static void own_stack_unwinds(void **state)
{
#ifdef HAVE_CAPTURE
	static struct snap s;
	static const char *const want[] = { "capture", "unwind_inner", "unwind_middle",
					    "unwind_outer", "own_stack_unwinds" };
	struct peo_processes *p;
	struct peo_attr attr;
	struct peo_record r;
	uint64_t ips[64];
	int n;

	(void)state;
	if (!peo_symbols_available())
		PEO_SKIP("peo was built without elfutils: nothing to unwind with");
	unwind_outer(&s);
	r = sample_of(&s, &attr);
	assert_int_equal(peo_processes_new(&p, NULL, NULL), 0);
	assert_int_equal(peo_processes_add_live(p, getpid()), 0);
	n = peo_processes_unwind(p, &r, ips, 64);
	assert_true(n >= 5);
	assert_int_equal(ips[0], s.regs[8]);
	for (int i = 0; i < 5; i++) {
		struct peo_frame f = { .sz = sizeof(f) };

		/* callers named at their return address minus one, as perf does */
		assert_int_equal(peo_processes_lookup(p, r.sample_id.pid, PEO_RECORD_MISC_USER,
						      i ? ips[i] - 1 : ips[i], 0, &f), 1);
		/* gcc may split the test function (.part.0) */
		assert_int_equal(strncmp(f.sym, want[i], strlen(want[i])), 0);
	}
	/* twenty processes forked from this one (more than keep a Dwfl at
	 * once), then this one again: the same frames each time */
	for (uint32_t child = 1; child <= 21; child++) {
		struct peo_record fork = { .sz = sizeof(fork) };
		uint64_t theirs[64];

		fork.header.type = PEO_RECORD_FORK;
		fork.u.task = (struct peo_rec_task){ .pid = 0x400000 + child, .ppid = (uint32_t)getpid(),
						     .tid = 0x400000 + child, .ptid = (uint32_t)getpid() };
		if (child <= 20)
			assert_int_equal(peo_processes_add_record(p, &fork), 0);
		r.sample_id.pid = child <= 20 ? 0x400000 + child : (uint32_t)getpid();
		assert_int_equal(peo_processes_unwind(p, &r, theirs, 64), n);
		assert_memory_equal(theirs, ips, (size_t)n * sizeof(*ips));
	}
	/* the same Dwfl again: the same frames */
	{
		uint64_t again[64];

		assert_int_equal(peo_processes_unwind(p, &r, again, 64), n);
		assert_memory_equal(again, ips, (size_t)n * sizeof(*ips));
		assert_int_equal(peo_processes_unwind(p, &r, again, 2), 2);
	}
	peo_processes_free(p);
#else
	(void)state;
	PEO_SKIP("capturing this test's own registers is written for x86_64 only");
#endif
}

static void damaged_samples_give_no_frames(void **state)
{
	static struct snap s;
	struct peo_processes *p;
	struct peo_attr attr;
	struct peo_record r;
	uint64_t ips[16];

	(void)state;
	if (!peo_symbols_available())
		PEO_SKIP("peo was built without elfutils: nothing to unwind with");
#ifdef HAVE_CAPTURE
	unwind_outer(&s);
#endif
	assert_int_equal(peo_processes_new(&p, NULL, NULL), 0);
	assert_int_equal(peo_processes_add_live(p, getpid()), 0);
	r = sample_of(&s, &attr);
	r.u.sample.stack_user_dyn_size = 0; /* no stack */
	assert_int_equal(peo_processes_unwind(p, &r, ips, 16), 0);
	r = sample_of(&s, &attr);
	r.u.sample.regs_user_abi = PEO_SAMPLE_REGS_ABI_NONE; /* no registers */
	assert_int_equal(peo_processes_unwind(p, &r, ips, 16), 0);
	r = sample_of(&s, &attr);
	attr.sample_regs_user = 0xff; /* no ip among them */
	r.u.sample.regs_user_nr = 8;
	assert_int_equal(peo_processes_unwind(p, &r, ips, 16), 0);
	r = sample_of(&s, &attr);
	r.u.sample.regs_user_nr = 3; /* fewer words than the mask says */
	assert_int_equal(peo_processes_unwind(p, &r, ips, 16), 0);
	r = sample_of(&s, &attr);
	memset(s.stack, 0xa5, sizeof(s.stack)); /* garbage stack: some frames, no crash */
	assert_true(peo_processes_unwind(p, &r, ips, 16) >= 0);
	r = sample_of(&s, &attr);
	s.regs[8] = 16; /* an ip in nothing mapped: itself first (libdwfl may
			 * follow the frame pointer from there) */
	assert_true(peo_processes_unwind(p, &r, ips, 16) >= 1);
	assert_int_equal(ips[0], 16);
	assert_int_equal(peo_processes_unwind(p, &r, ips, 0), 0);
	assert_int_equal(peo_processes_unwind(p, &r, NULL, 4), -EINVAL);
	assert_int_equal(peo_processes_unwind(NULL, &r, ips, 4), -EINVAL);
	r.header.type = PEO_RECORD_MMAP2;
	assert_int_equal(peo_processes_unwind(p, &r, ips, 4), -EINVAL);
	assert_int_equal(peo_processes_inlines(p, 1, 0x1000, NULL, 4), -EINVAL);
	/* a process with no maps: no inlined functions */
	{
		const char *names[4];

		assert_int_equal(peo_processes_inlines(p, 0x7ffffff0, 0x1000, names, 4), 0);
	}
	peo_processes_free(p);
}

/* tests/unwind_arm64.s linked at 0x401000 (see there): where its calls
 * return, where outer calls, where inner's code signs and saves its
 * return address. */
#define ARM64_START_RET 0x401004ull
#define ARM64_OUTER_CALLS 0x401014ull
#define ARM64_OUTER_RET 0x401018ull
#define ARM64_MIDDLE_RET 0x401034ull
#define ARM64_INNER_SAVES 0x401044ull
#define ARM64_INNER_LOOP 0x40104cull
#define ARM64_PID 4242u
/* a pointer authentication code in bits 63..56 and 54..48 (55: user) */
#define PAC(addr) ((addr) | 0x3c5aull << 48)

/* arm64 stacks of unwind_arm64.s, made up here (any host unwinds them),
 * their return addresses signed: each unwinds to its callers, down to
 * start, whose undefined return address ends it.  Through middle (its CFA
 * a DWARF expression) libdwfl unwinds; the cached rules unwind the rest. */
static void arm64_signed_stack_unwinds(void **state)
{
	const char *file = getenv("PEO_UNWIND_ARM64");
	static const uint64_t ret[4] = { 0, ARM64_MIDDLE_RET, ARM64_OUTER_RET, ARM64_START_RET };
	static const char *const names[4] = { "inner", "middle", "outer", "start" };
	const uint64_t top = 0xffffc0001000ull; /* sp at start's call */
	/* the stack from inner's frame record up: {x29, x30} of inner, middle,
	 * outer (each record at its frame's sp), then what lies above */
	const uint64_t stack[10] = { top - 32, PAC(ARM64_MIDDLE_RET), top - 16, PAC(ARM64_OUTER_RET),
				     0,        PAC(ARM64_START_RET) };
	static const struct {
		const char *what;
		uint64_t pc, sp_below; /* sp: top - sp_below */
		int first;             /* the function of pc, in names */
	} at[] = {
		{ "inner's loop, all saved (libdwfl)", ARM64_INNER_LOOP, 48, 0 },
		{ "inner before it saves, x30 signed (libdwfl)", ARM64_INNER_SAVES, 32, 0 },
		{ "outer's call (the cached rules)", ARM64_OUTER_CALLS, 16, 2 },
	};
	struct peo_record map = { .sz = sizeof(map) };
	struct peo_processes *p;
	struct peo_attr attr;
	uint64_t regs[33] = { 0 }, ips[16];

	(void)state;
	if (!peo_symbols_available())
		PEO_SKIP("peo was built without elfutils: nothing to unwind with");
	if (!file || access(file, R_OK))
		PEO_SKIP("no arm64 program to unwind: tests/unwind_arm64.s is built where "
			 "binutils-aarch64-linux-gnu is installed");
	assert_int_equal(peo_processes_new(&p, NULL, NULL), 0);
	map.header.type = PEO_RECORD_MMAP2;
	map.header.misc = PEO_RECORD_MISC_USER;
	map.u.mmap = (struct peo_rec_mmap){ .pid = ARM64_PID, .tid = ARM64_PID, .addr = 0x400000,
					    .len = 0x10000, .prot = 5, .filename = file };
	assert_int_equal(peo_processes_add_record(p, &map), 0);
	for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		size_t skip = 48 - at[k].sp_below; /* bytes of stack below sp */
		int want = 4 - at[k].first, n;
		struct peo_record r;

		/* perf's arm64 registers: x0..x30, sp (31), pc (32) */
		regs[29] = regs[31] = top - at[k].sp_below;
		regs[30] = PAC(ret[at[k].first + 1]);
		regs[32] = at[k].pc;
		r = sample_with(&attr, ARM64_PID, (1ull << 33) - 1, regs, 33,
				(const uint8_t *)stack + skip, sizeof(stack) - skip);
		n = peo_processes_unwind(p, &r, ips, 16);
		print_message("arm64, %s: %d frames:", at[k].what, n);
		for (int i = 0; i < n; i++)
			print_message(" %" PRIx64, ips[i]);
		print_message("\n");
		assert_int_equal(n, want);
		assert_int_equal(ips[0], at[k].pc);
		for (int i = 0; i < want; i++) {
			struct peo_frame f = { .sz = sizeof(f) };

			if (i)
				assert_int_equal(ips[i], ret[at[k].first + i]);
			assert_int_equal(peo_processes_lookup(p, ARM64_PID, PEO_RECORD_MISC_USER,
							      i ? ips[i] - 1 : ips[i], 0, &f), 1);
			assert_string_equal(f.sym, names[at[k].first + i]);
		}
	}
	peo_processes_free(p);
}

/* perf's register k holds 1000 + k: where each lands among DWARF's. */
static void register_maps(void **state)
{
	uint64_t regs[64];
	struct sym_dwarf_regs d;
	static const unsigned x86_perf_of_dwarf[17] = { 0, 3, 2, 1, 4, 5, 6, 7, 16,
							 17, 18, 19, 20, 21, 22, 23, 8 };

	(void)state;
	for (unsigned k = 0; k < 24; k++)
		regs[k] = 1000 + k;
	/* x86_64, perf's full mask: words in bit order */
	{
		uint64_t words[20];
		unsigned w = 0;

		for (unsigned k = 0; k < 24; k++)
			if (X86_MASK >> k & 1)
				words[w++] = regs[k];
		assert_int_equal(sym_dwarf_regs(EM_X86_64, X86_MASK, words, 20, &d), 0);
		assert_int_equal(d.n, 17);
		for (unsigned i = 0; i < 17; i++)
			assert_int_equal(d.val[i], 1000 + x86_perf_of_dwarf[i]);
		assert_int_equal(d.have, (1ull << 17) - 1);
		assert_int_equal(d.pc, 1008);
		assert_int_equal(d.sp, 1007);
		assert_int_equal(d.ra_mask, ~0ull);
		/* only IP and SP sampled: the rest unknown */
		words[0] = 1007;
		words[1] = 1008;
		assert_int_equal(sym_dwarf_regs(EM_X86_64, 3ull << 7, words, 2, &d), 0);
		assert_int_equal(d.have, 1ull << 7 | 1ull << 16);
		assert_int_equal(d.val[7], 1007);
		assert_int_equal(d.val[16], 1008);
		assert_int_equal(sym_dwarf_regs(EM_X86_64, 1ull << 7, words, 1, &d), -1); /* no ip */
	}
	/* aarch64: X0..X30 and SP are DWARF 0..31; PC (32) has no number */
	{
		uint64_t words[33];

		for (unsigned k = 0; k < 33; k++)
			words[k] = 2000 + k;
		assert_int_equal(sym_dwarf_regs(EM_AARCH64, (1ull << 33) - 1, words, 33, &d), 0);
		assert_int_equal(d.n, 32);
		for (unsigned i = 0; i < 32; i++)
			assert_int_equal(d.val[i], 2000 + i);
		assert_int_equal(d.have, (1ull << 32) - 1);
		assert_int_equal(d.pc, 2032);
		assert_int_equal(d.sp, 2031);
		assert_int_equal(d.ra_mask, (1ull << 48) - 1); /* no authentication code */
		/* a mask of LR, SP, PC only (bits 30..32) */
		assert_int_equal(sym_dwarf_regs(EM_AARCH64, 7ull << 30, words, 3, &d), 0);
		assert_int_equal(d.have, 3ull << 30);
		assert_int_equal(d.val[30], 2000);
		assert_int_equal(d.sp, 2001);
		assert_int_equal(d.pc, 2002);
	}
	assert_int_equal(sym_dwarf_regs(EM_386, X86_MASK, regs, 20, &d), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(own_stack_unwinds),
		cmocka_unit_test(damaged_samples_give_no_frames),
		cmocka_unit_test(register_maps),
		cmocka_unit_test(arm64_signed_stack_unwinds),
	};

	return PEO_TEST_MAIN("sym_unwind", tests);
}
