/*
 * first_count.c - the shortest whole program: count the CPU time this
 * thread spends in a loop (task-clock), as `perf stat -e task-clock:u`.
 *
 * Build: cc first_count.c $(pkg-config --cflags --libs libpeo)
 */
#include <stdio.h>

#include <peo/peo.h>

static volatile double sink; /* the loop's result: the compiler keeps the loop */

int main(void)
{
	struct peo_attr attr;
	struct peo_counter *counter;
	struct peo_count n;

	peo_attr_init(&attr);
	attr.type = PEO_TYPE_SOFTWARE;
	attr.config = PEO_COUNT_SW_TASK_CLOCK;
	attr.exclude_kernel = 1; /* user space: allowed at perf_event_paranoid 2 */
	if (peo_counter_open(&counter, &attr, NULL, NULL) < 0) { /* NULL: this thread */
		fprintf(stderr, "first_count: %s\n", peo_last_error());
		return 1;
	}
	peo_counter_enable(counter); /* counters open disabled */
	for (int i = 0; i < 10000000; i++)
		sink += i;
	peo_counter_disable(counter);
	if (peo_counter_read(counter, &n) < 0) {
		fprintf(stderr, "first_count: %s\n", peo_last_error());
		peo_counter_close(counter);
		return 1;
	}
	printf("%.3f msec task-clock:u\n", n.value / 1e6);
	peo_counter_close(counter);
	return n.value > 0 ? 0 : 1; /* the loop took some CPU time */
}
