/*
 * test_profile.c - samples aggregated by stack (peo/profile.h,
 * src/profile/profile.c): samples of the same event, thread, CPU, comm and
 * frames are one stack (count and period summed), any difference makes
 * another; frames are copied, comms copied once; 100,000 distinct stacks
 * (the tables grown many times) each found again; per-event totals; bad
 * arguments refused with a sentence.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static struct peo_frame frame(uint64_t addr, const char *sym, const char *dso)
{
	return (struct peo_frame){ .sz = sizeof(struct peo_frame), .addr = addr, .sym = sym,
				   .dso = dso, .dso_offset = addr };
}

static void same_stacks_merge(void **state)
{
	static const char *const main_sym = "main", *const leaf = "leaf", *const bin = "/bin/x";
	struct peo_frame f[3] = { frame(0x1010, leaf, bin), frame(0x2020, main_sym, bin),
				  frame(0x3030, NULL, NULL) };
	char comm[16] = "worker";
	struct peo_profile_sample s = { .sz = sizeof(s), .event = 1, .pid = 10, .tid = 11, .cpu = 2,
					.comm = comm, .frames = f, .nframes = 3, .period = 100 };
	struct peo_profile *p;
	struct peo_profile_stack st;
	uint64_t period;

	(void)state;
	assert_int_equal(peo_profile_new(&p, NULL), 0);
	assert_int_equal(peo_profile_last(p), SIZE_MAX); /* none yet */
	assert_int_equal(peo_profile_add(p, &s), 0);
	f[0].addr = 0x9999; /* the profile keeps its own copy */
	strcpy(comm, "changed");
	f[0].addr = 0x1010;
	strcpy(comm, "worker");
	s.period = 50;
	assert_int_equal(peo_profile_add(p, &s), 0);
	assert_int_equal(peo_profile_stacks(p), 1);
	assert_int_equal(peo_profile_stack(p, 0, &st), 0);
	assert_int_equal(st.count, 2);
	assert_int_equal(st.period, 150);
	assert_int_equal(st.nframes, 3);
	assert_string_equal(st.comm, "worker");
	assert_ptr_not_equal(st.comm, comm);
	assert_int_equal(st.frames[0]->addr, 0x1010);
	assert_ptr_equal(st.frames[1]->sym, main_sym);
	assert_null(st.frames[2]->sym);
	/* each difference another stack */
	s.cpu = 3;
	assert_int_equal(peo_profile_add(p, &s), 0);
	s.cpu = 2;
	s.comm = "other";
	assert_int_equal(peo_profile_add(p, &s), 0);
	s.comm = "worker";
	s.nframes = 2;
	assert_int_equal(peo_profile_add(p, &s), 0);
	s.nframes = 3;
	f[1].symoff = 4;
	assert_int_equal(peo_profile_add(p, &s), 0);
	f[1].symoff = 0;
	s.event = 0;
	assert_int_equal(peo_profile_add(p, &s), 0);
	assert_int_equal(peo_profile_stacks(p), 6);
	assert_int_equal(peo_profile_samples(p, 1, &period), 6);
	assert_int_equal(period, 350);
	assert_int_equal(peo_profile_samples(p, 0, &period), 1);
	assert_int_equal(period, 50);
	assert_int_equal(peo_profile_samples(p, 7, &period), 0);
	assert_int_equal(period, 0);
	/* the stacks in the order they came: the first one still counted twice */
	assert_int_equal(peo_profile_stack(p, 0, &st), 0);
	assert_int_equal(st.count, 2);
	assert_int_equal(peo_profile_stack(p, 5, &st), 0);
	assert_int_equal(st.event, 0);
	/* the last sample's stack, and one more of a stack without its frames:
	 * counted as peo_profile_add() of the same sample would */
	assert_int_equal(peo_profile_last(p), 5);
	s.event = 1;
	assert_int_equal(peo_profile_add(p, &s), 0); /* the first stack again */
	assert_int_equal(peo_profile_last(p), 0);
	assert_int_equal(peo_profile_add_again(p, 3, 25), 0);
	assert_int_equal(peo_profile_last(p), 3);
	assert_int_equal(peo_profile_stack(p, 3, &st), 0);
	assert_int_equal(st.count, 2);
	assert_int_equal(st.period, 75);
	assert_int_equal(peo_profile_samples(p, 1, &period), 8);
	assert_int_equal(period, 425);
	assert_int_equal(peo_profile_add_again(p, 6, 1), -ERANGE);
	assert_int_equal(peo_profile_add_again(NULL, 0, 1), -EINVAL);
	assert_int_equal(peo_profile_stacks(p), 6);
	peo_profile_free(p);
}

/* 100,000 distinct stacks of 1 to 8 frames, each added twice: 100,000
 * stacks, each counted twice. */
static void many_stacks(void **state)
{
	struct peo_frame f[8];
	struct peo_profile_sample s = { .sz = sizeof(s), .comm = "w", .frames = f, .period = 1 };
	struct peo_profile *p;
	struct peo_profile_stack st;

	(void)state;
	assert_int_equal(peo_profile_new(&p, NULL), 0);
	for (int round = 0; round < 2; round++)
		for (uint32_t i = 0; i < 100000; i++) {
			s.nframes = 1 + i % 8;
			s.tid = i / 8;
			for (size_t k = 0; k < s.nframes; k++)
				f[k] = frame(0x400000 + k * 16 + (i % 1000) * 4096, NULL, "/bin/x");
			assert_int_equal(peo_profile_add(p, &s), 0);
		}
	assert_int_equal(peo_profile_stacks(p), 100000);
	for (size_t i = 0; i < 100000; i += 997) {
		assert_int_equal(peo_profile_stack(p, i, &st), 0);
		assert_int_equal(st.count, 2);
		assert_int_equal(st.nframes, 1 + i % 8);
		assert_int_equal(st.tid, i / 8);
		assert_int_equal(st.frames[st.nframes - 1]->addr,
				 0x400000 + (st.nframes - 1) * 16 + (i % 1000) * 4096);
	}
	assert_int_equal(peo_profile_samples(p, 0, NULL), 200000);
	peo_profile_free(p);
}

static void bad_arguments(void **state)
{
	struct peo_frame f = frame(1, NULL, NULL);
	struct peo_profile_sample s = { .sz = sizeof(s), .frames = &f, .nframes = 1 };
	struct peo_profile *p;
	struct peo_profile_stack st;
	struct { size_t sz; int reserved; char more[8]; } big = { .sz = sizeof(big) };

	(void)state;
	assert_int_equal(peo_profile_new(NULL, NULL), -EINVAL);
	assert_error_contains("'out' is NULL");
	big.more[7] = 1; /* a newer caller's field: this libpeo cannot honour it */
	assert_int_equal(peo_profile_new(&p, (const struct peo_profile_opts *)&big), -E2BIG);
	assert_null(p);
	assert_int_equal(peo_profile_new(&p, NULL), 0);
	assert_int_equal(peo_profile_add(p, NULL), -EINVAL);
	s.sz = 8;
	assert_int_equal(peo_profile_add(p, &s), -EINVAL);
	assert_error_contains("set sz to sizeof(struct peo_profile_sample)");
	s.sz = sizeof(s);
	s.nframes = 0;
	assert_int_equal(peo_profile_add(p, &s), -EINVAL);
	assert_error_contains("without frames");
	assert_int_equal(peo_profile_stack(p, 0, &st), -ERANGE);
	assert_error_contains("no stack 0 (the profile has 0)");
	assert_int_equal(peo_profile_stack(p, 0, NULL), -EINVAL);
	assert_int_equal(peo_profile_stacks(NULL), 0);
	peo_profile_free(p);
	peo_profile_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_stacks_merge),
		cmocka_unit_test(many_stacks),
		cmocka_unit_test(bad_arguments),
	};

	return PEO_TEST_MAIN("profile", tests);
}
