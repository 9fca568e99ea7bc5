/*
 * sample_syscalls.c - sample every getppid this program makes into a ring
 * buffer and read the samples back in place.
 *
 * The C twin of perf-event-open's Sampler example, with a tracepoint every
 * Linux machine with tracefs has: one sample per hit (sample_period 1),
 * each carrying the thread id and a timestamp, read without copying unless
 * a record wraps the end of the ring.
 *
 * Build: cc sample_syscalls.c $(pkg-config --cflags --libs libpeo)
 * Exits 77 (skipped) where tracefs or the tracepoint is missing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <peo/peo.h>

#define CALLS 1000

int main(void)
{
	PEO_OPTS(peo_ring_opts, ring_opts, .data_pages = 16);
	struct peo_ring_stats stats = { .sz = sizeof(stats) };
	struct peo_event_list *list;
	struct peo_ring_record rec = { .sz = sizeof(rec) };
	struct peo_ring *ring;
	struct peo_attr attr;
	unsigned char wrapped[256];
	uint64_t samples = 0, first_time = 0, last_time = 0;
	int fd, err;

	if (peo_event_parse(&list, "syscalls:sys_enter_getppid", NULL) != 1) {
		fprintf(stderr, "sample_syscalls: skipped: %s\n", peo_last_error());
		return 77;
	}
	attr = *peo_event_attr(peo_event_list_get(list, 0));
	peo_event_list_free(list);
	attr.sample_period = 1;
	attr.sample_type = PEO_SAMPLE_TID | PEO_SAMPLE_TIME;
	attr.disabled = 1;
	fd = peo_sys_open(&attr, 0, -1, -1, PEO_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "sample_syscalls: %s\n", peo_last_error());
		return fd == -EACCES || fd == -ENOENT ? 77 : 1;
	}
	if ((err = peo_ring_map(&ring, fd, &ring_opts))) {
		fprintf(stderr, "sample_syscalls: %s\n", peo_last_error());
		close(fd);
		return 1;
	}

	peo_sys_ioc_enable(fd, 0);
	for (int i = 0; i < CALLS; i++)
		getppid();
	peo_sys_ioc_disable(fd, 0);

	/* Each sample: header, pid and tid (u32 each), time (u64). */
	while ((err = peo_ring_next(ring, &rec, wrapped, sizeof(wrapped))) == 1) {
		uint64_t time;

		if (rec.header.type != PEO_RECORD_SAMPLE)
			continue;
		memcpy(&time, (const unsigned char *)rec.data + 16, sizeof(time));
		if (!samples++)
			first_time = time;
		last_time = time;
	}
	peo_ring_consume(ring);
	peo_ring_stats(ring, &stats);
	printf("%llu samples of %d getppid calls over %.3f ms, %llu lost\n",
	       (unsigned long long)samples, CALLS, (double)(last_time - first_time) / 1e6,
	       (unsigned long long)stats.lost);
	peo_ring_unmap(ring);
	close(fd);
	return err == 0 && samples == CALLS && stats.lost == 0 ? 0 : 1;
}
