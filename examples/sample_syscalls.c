/*
 * sample_syscalls.c - sample every getppid this program makes and read
 * the samples back parsed, a tracepoint field by name.
 *
 * The C twin of perf-event-open's Sampler example, with a tracepoint every
 * Linux machine with tracefs has (sampled at each hit).
 *
 * Build: cc sample_syscalls.c $(pkg-config --cflags --libs libpeo)
 * Exits 77 (skipped) where tracefs or the tracepoint is missing.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <peo/peo.h>

#define CALLS 1000

int main(void)
{
	struct peo_sampler *s;
	const struct peo_record *r;
	uint64_t samples = 0, first = 0, last = 0;
	int64_t nr;
	int err = peo_sampler_open(&s, "syscalls:sys_enter_getppid", NULL, NULL);

	if (err) {
		fprintf(stderr, "sample_syscalls: %s\n", peo_last_error());
		return err == -ENOENT || err == -EACCES ? 77 : 1;
	}
	peo_sampler_enable(s);
	for (int i = 0; i < CALLS; i++)
		getppid();
	peo_sampler_disable(s);
	while (peo_sampler_next(s, &r) == 1) {
		if (r->header.type != PEO_RECORD_SAMPLE ||
		    peo_sampler_field(s, r, "__syscall_nr", &nr) || nr != SYS_getppid)
			continue;
		first = samples++ ? first : r->u.sample.time;
		last = r->u.sample.time;
	}
	printf("%llu samples of %d getppid calls over %.3f ms, %llu lost\n",
	       (unsigned long long)samples, CALLS, (double)(last - first) / 1e6,
	       (unsigned long long)peo_sampler_lost(s));
	peo_sampler_close(s);
	return samples == CALLS ? 0 : 1;
}
