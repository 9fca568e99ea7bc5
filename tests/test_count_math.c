/*
 * test_count_math.c - multiplex scaling, summing, and the control-page read
 * protocol on synthetic inputs (no kernel): values past 64-bit products,
 * saturation, rdpmc sign extension, time extrapolation (full and short
 * counters), and the seqlock retry.
 */
#include <string.h>

#include "counter_internal.h"
#include "test_util.h"

#define TWO_POW(n) ((uint64_t)1 << (n))

static void scale_plain_cases(void **state)
{
	(void)state;
	assert_int_equal(peo_count_scale(123, 0, 0), 0);        /* never ran */
	assert_int_equal(peo_count_scale(123, 500, 0), 0);
	assert_int_equal(peo_count_scale(123, 500, 500), 123);  /* never multiplexed */
	assert_int_equal(peo_count_scale(1000, 3, 2), 1500);
	assert_int_equal(peo_count_scale(7, 10, 3), 23);        /* 70 / 3 rounds down */
	assert_int_equal(peo_count_scale(0, 10, 3), 0);
}

static void scale_huge_values(void **state)
{
	(void)state;
	/* 10^18 * 3*10^12 overflows 64 bits ~160000 times; the answer fits. */
	assert_int_equal(peo_count_scale(1000000000000000000ULL, 3000000000000ULL, 1000000000000ULL),
			 3000000000000000000ULL);
	assert_int_equal(peo_count_scale(TWO_POW(63), TWO_POW(40), TWO_POW(41)), TWO_POW(62));
	/* (2^64-1) * (2^64-2) / (2^64-1) = 2^64-2 exactly. */
	assert_int_equal(peo_count_scale(UINT64_MAX, UINT64_MAX - 1, UINT64_MAX), UINT64_MAX - 1);
	/* An estimate past 64 bits saturates instead of wrapping. */
	assert_int_equal(peo_count_scale(TWO_POW(63), 4, 1), UINT64_MAX);
	assert_int_equal(peo_count_scale(UINT64_MAX, UINT64_MAX, 1), UINT64_MAX);
}

static void add_sums_and_saturates(void **state)
{
	struct peo_count sum = { 0 };
	struct peo_count a = { .value = 10, .time_enabled = 100, .time_running = 50, .scaled = 20,
			       .lost = 1, .id = 7 };
	struct peo_count b = { .value = 5, .time_enabled = UINT64_MAX, .time_running = 10, .scaled = 5,
			       .lost = 0, .id = 9 };

	(void)state;
	peo_count_add(&sum, &a);
	peo_count_add(&sum, &b);
	assert_int_equal(sum.value, 15);
	assert_int_equal(sum.scaled, 25); /* per-slot estimates added, not re-scaled sums */
	assert_int_equal(sum.time_running, 60);
	assert_int_equal(sum.time_enabled, UINT64_MAX);
	assert_int_equal(sum.lost, 1);
	assert_int_equal(sum.id, 7); /* the first slot's id */
}

/* ------------------------------------------------------ control-page reads */

static struct peo_mmap_page page;
static uint64_t fake_pmc_value, fake_cycles_value;
static uint32_t pmc_index_seen;
static int pmc_calls, bump_lock_on_first_call;

static uint64_t fake_pmc(uint32_t index)
{
	pmc_index_seen = index;
	if (pmc_calls++ == 0 && bump_lock_on_first_call) {
		page.lock += 2;     /* the kernel updated the page meanwhile */
		page.offset = 1000; /* ... and the value the second pass must see */
	}
	return fake_pmc_value;
}

static uint64_t fake_cycles(void)
{
	return fake_cycles_value;
}

static void reset_page(void)
{
	memset(&page, 0, sizeof(page));
	pmc_calls = 0;
	bump_lock_on_first_call = 0;
	page.pmc_width = 48;
}

static void page_without_rdpmc_says_read(void **state)
{
	struct peo_count c = { 0 };

	(void)state;
	reset_page();
	page.index = 1; /* an index, but no capability */
	assert_int_equal(peo_mmap_page_read_with(&page, &c, fake_pmc, fake_cycles), 0);
	page.capabilities = PEO_CAP_USER_RDPMC;
	page.index = 0; /* capability, but the event is not on a counter */
	assert_int_equal(peo_mmap_page_read_with(&page, &c, fake_pmc, fake_cycles), 0);
	page.index = 1;
	assert_int_equal(peo_mmap_page_read_with(&page, &c, NULL, fake_cycles), 0); /* no rdpmc here */
	assert_int_equal(pmc_calls, 0);
	/* The real page of this machine's software events: read() it is. */
	reset_page();
	assert_int_equal(peo_mmap_page_read(&page, &c), 0);
}

static void rdpmc_value_is_sign_extended(void **state)
{
	struct peo_count c;

	(void)state;
	reset_page();
	page.capabilities = PEO_CAP_USER_RDPMC;
	page.index = 3;
	page.offset = 500;
	page.time_enabled = page.time_running = 40;
	fake_pmc_value = 0xFFFFFFFFFF9CULL; /* 48 bits: -100 */
	fake_pmc_value |= 0xABCD000000000000ULL; /* junk above the width is ignored */
	assert_int_equal(peo_mmap_page_read_with(&page, &c, fake_pmc, fake_cycles), 1);
	assert_int_equal(pmc_index_seen, 2); /* rdpmc takes index - 1 */
	assert_int_equal(c.value, 400);
	assert_int_equal(c.time_enabled, 40); /* no cap_user_time: the page's times */
	assert_int_equal(c.scaled, 400);
}

static void time_is_extrapolated(void **state)
{
	struct peo_count c;

	(void)state;
	reset_page();
	page.capabilities = PEO_CAP_USER_RDPMC | PEO_CAP_USER_TIME;
	page.index = 1;
	page.time_enabled = 2000;
	page.time_running = 1000; /* multiplexed: half the time */
	page.time_mult = 3 << 9;  /* 1.5 ns per cycle with shift 10 */
	page.time_shift = 10;
	page.time_offset = (uint64_t)-1500000;
	fake_cycles_value = 1000001; /* 1.5 ns * 1000001 = 1500001.5 -> 1500001 ns */
	fake_pmc_value = 600;
	assert_int_equal(peo_mmap_page_read_with(&page, &c, fake_pmc, fake_cycles), 1);
	assert_int_equal(c.time_enabled, 2000 + 1);
	assert_int_equal(c.time_running, 1000 + 1);
	assert_int_equal(c.scaled, 600 * 2001 / 1001);

	/* A short counter: only the bits under time_mask advance from time_cycles. */
	page.capabilities |= PEO_CAP_USER_TIME_SHORT;
	page.time_cycles = 0x1000000;
	page.time_mask = 0xFFFF;
	page.time_offset = (uint64_t)-(3 * 0x1000000 / 2);
	fake_cycles_value = 0xFF000010; /* low 16 bits 0x10 past time_cycles */
	assert_int_equal(peo_mmap_page_read_with(&page, &c, fake_pmc, fake_cycles), 1);
	assert_int_equal(c.time_enabled, 2000 + 24); /* 0x10 cycles * 1.5 */
}

static void seqlock_change_forces_a_second_pass(void **state)
{
	struct peo_count c;

	(void)state;
	reset_page();
	page.capabilities = PEO_CAP_USER_RDPMC;
	page.index = 1;
	page.offset = 1;
	fake_pmc_value = 5;
	bump_lock_on_first_call = 1;
	assert_int_equal(peo_mmap_page_read_with(&page, &c, fake_pmc, fake_cycles), 1);
	assert_int_equal(pmc_calls, 2);
	assert_int_equal(c.value, 1005); /* the second pass's offset */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scale_plain_cases),
		cmocka_unit_test(scale_huge_values),
		cmocka_unit_test(add_sums_and_saturates),
		cmocka_unit_test(page_without_rdpmc_says_read),
		cmocka_unit_test(rdpmc_value_is_sign_extended),
		cmocka_unit_test(time_is_extrapolated),
		cmocka_unit_test(seqlock_change_forces_a_second_pass),
	};

	return PEO_TEST_MAIN("count_math", tests);
}
