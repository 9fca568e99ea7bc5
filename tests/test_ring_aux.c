/*
 * test_ring_aux.c - peo_ring_aux_next(): the AUX area's new data handed
 * out in place, cut at the area's end and at a maximum, released with
 * peo_ring_aux_consume(); an overwrite area refused.
 * No PMU here writes AUX data: the ring and its AUX area are memory this
 * test writes as a PMU would (aux_head in the control page).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <peo/peo.h>

#include "internal.h"
#include "test_util.h"

#define AUX 4096

struct fake {
	void *mem; /* control page and 4 KiB of data */
	unsigned char aux[AUX];
	struct peo_ring *ring;
};

static struct fake *fake_new(int overwrite)
{
	struct fake *f = calloc(1, sizeof(*f));
	long page = sysconf(_SC_PAGESIZE);

	assert_non_null(f);
	assert_int_equal(posix_memalign(&f->mem, (size_t)page, (size_t)page + 4096), 0);
	memset(f->mem, 0, (size_t)page + 4096);
	assert_int_equal(peo_ring_over_memory(&f->ring, f->mem, 4096, 0), 0);
	assert_int_equal(peo_ring_over_memory_aux(f->ring, f->aux, AUX, overwrite), 0);
	return f;
}

static void fake_free(struct fake *f)
{
	peo_ring_unmap(f->ring);
	free(f->mem);
	free(f);
}

/* The PMU wrote @n more bytes (each its stream offset's low byte). */
static void pmu_writes(struct fake *f, uint64_t n)
{
	volatile struct peo_mmap_page *pg = f->mem;
	uint64_t head = pg->aux_head;

	for (uint64_t i = 0; i < n; i++)
		f->aux[(head + i) % AUX] = (unsigned char)(head + i);
	__atomic_store_n(&pg->aux_head, head + n, __ATOMIC_RELEASE);
}

/* @c holds the stream bytes from c->pos on. */
static void holds_stream(const struct peo_aux_chunk *c)
{
	for (size_t i = 0; i < c->len; i++)
		assert_int_equal(((const unsigned char *)c->data)[i], (unsigned char)(c->pos + i));
}

static void chunks_in_place(void **state)
{
	struct fake *f = fake_new(0);
	volatile struct peo_mmap_page *pg = f->mem;
	struct peo_aux_chunk c = { .sz = sizeof(c) };

	(void)state;
	assert_int_equal(peo_ring_aux_next(f->ring, &c, 0), 0); /* nothing yet */
	pmu_writes(f, 1000);
	assert_int_equal(peo_ring_aux_next(f->ring, &c, 0), 1);
	assert_int_equal(c.pos, 0);
	assert_int_equal(c.len, 1000);
	assert_ptr_equal(c.data, f->aux); /* in place */
	holds_stream(&c);
	assert_int_equal(peo_ring_aux_next(f->ring, &c, 0), 0); /* read, not yet consumed */
	assert_int_equal(pg->aux_tail, 0);
	peo_ring_aux_consume(f->ring, c.pos + c.len);
	assert_int_equal(pg->aux_tail, 1000);
	/* across the area's end: two pieces; a maximum cuts them further */
	pmu_writes(f, 3500); /* to 4500 */
	assert_int_equal(peo_ring_aux_next(f->ring, &c, 2000), 1);
	assert_int_equal(c.pos, 1000);
	assert_int_equal(c.len, 2000);
	holds_stream(&c);
	assert_int_equal(peo_ring_aux_next(f->ring, &c, 2000), 1);
	assert_int_equal(c.pos, 3000);
	assert_int_equal(c.len, AUX - 3000); /* the end of the area */
	holds_stream(&c);
	assert_int_equal(peo_ring_aux_next(f->ring, &c, 2000), 1);
	assert_int_equal(c.pos, AUX);
	assert_int_equal(c.len, 4500 - AUX);
	assert_ptr_equal(c.data, f->aux); /* from the start again */
	holds_stream(&c);
	assert_int_equal(peo_ring_aux_next(f->ring, &c, 0), 0);
	peo_ring_aux_consume(f->ring, 4500);
	assert_int_equal(pg->aux_tail, 4500);
	fake_free(f);
}

/* An overwrite area is a snapshot whose head each PMU keeps its own way
 * (an offset in the area for intel_pt and arm_spe): refused, saying so. */
static void overwrite_area_refused(void **state)
{
	struct fake *f = fake_new(1);
	struct peo_aux_chunk c = { .sz = sizeof(c) };

	(void)state;
	pmu_writes(f, 100);
	assert_int_equal(peo_ring_aux_next(f->ring, &c, 0), -ESPIPE);
	assert_non_null(strstr(peo_last_error(), "peo_ring_aux()"));
	fake_free(f);
}

static void refused(void **state)
{
	struct fake *f = fake_new(0);
	struct peo_aux_chunk c = { .sz = sizeof(c) }, small = { .sz = 8 };
	void *mem = NULL;
	struct peo_ring *plain;
	long page = sysconf(_SC_PAGESIZE);

	(void)state;
	assert_int_equal(peo_ring_aux_next(NULL, &c, 0), -EINVAL);
	assert_int_equal(peo_ring_aux_next(f->ring, NULL, 0), -EINVAL);
	assert_int_equal(peo_ring_aux_next(f->ring, &small, 0), -EINVAL);
	assert_int_equal(posix_memalign(&mem, (size_t)page, (size_t)page + 4096), 0);
	memset(mem, 0, (size_t)page + 4096);
	assert_int_equal(peo_ring_over_memory(&plain, mem, 4096, 0), 0);
	assert_int_equal(peo_ring_aux_next(plain, &c, 0), -ENOENT);
	assert_non_null(strstr(peo_last_error(), "aux_pages"));
	peo_ring_unmap(plain);
	free(mem);
	fake_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chunks_in_place),
		cmocka_unit_test(overwrite_area_refused),
		cmocka_unit_test(refused),
	};

	return PEO_TEST_MAIN("ring_aux", tests);
}
