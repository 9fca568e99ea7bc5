/*
 * top_functions.c - a minimal profiler: sample a command 1000 times a second
 * (cpu-clock, frame-pointer callchains), name each frame as the samples come,
 * print the functions it ran in most (self) and the share they are on (total).
 * Build: cc top_functions.c $(pkg-config --cflags --libs libpeo)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <peo/peo.h>

static struct fn { const char *name; unsigned self, total, last; } fns[4096];
static unsigned nfns, samples;

/* Count @name on this sample: once for total, and for self when @self. */
static void count(const char *name, int self)
{
	unsigned i = 0;

	while (i < nfns && strcmp(fns[i].name, name))
		i++;
	if (i == nfns && nfns < 4096)
		fns[nfns++].name = name; /* valid while the symbols live */
	if (i < nfns) {
		fns[i].self += self;
		fns[i].total += fns[i].last != samples; /* recursion: once a sample */
		fns[i].last = samples;
	}
}

static int most_first(const void *pa, const void *pb) /* most self first, ties by total */
{
	const struct fn *a = pa, *b = pb;

	return a->self != b->self ? (a->self < b->self) - (a->self > b->self)
				  : (a->total < b->total) - (a->total > b->total);
}

int main(int argc, char **argv)
{
	struct peo_ring_record rr = { .sz = sizeof(rr) };
	struct peo_record rec = { .sz = sizeof(rec) };
	struct peo_frame fr = { .sz = sizeof(fr) };
	struct peo_callchain_iter it = { .sz = sizeof(it) };
	struct peo_record_parser *parser;
	struct peo_processes *procs;
	struct peo_child *child;
	struct peo_ring *ring;
	struct peo_attr attr;
	static unsigned char buf[65536];
	int fd, status, running = 1;
	uint64_t ip;
	int64_t context;

	if (argc < 2)
		return fprintf(stderr, "usage: top_functions COMMAND [ARGS...]\n"), 2;
	peo_attr_init(&attr);
	attr.type = PEO_TYPE_SOFTWARE;
	attr.config = PEO_COUNT_SW_CPU_CLOCK;
	attr.sample_period = 1000000; /* ns of CPU time: 1000 samples a second */
	attr.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID | PEO_SAMPLE_CALLCHAIN;
	attr.mmap = attr.comm = attr.task = 1; /* what the symbolizer follows */
	attr.exclude_kernel = attr.exclude_hv = attr.exclude_callchain_kernel = 1;
	attr.disabled = attr.enable_on_exec = 1;
	if (peo_child_spawn(&child, (const char *const *)argv + 1) ||
	    (fd = peo_sys_open(&attr, peo_child_pid(child), -1, -1, PEO_FLAG_FD_CLOEXEC)) < 0 ||
	    peo_ring_map(&ring, fd, NULL) || peo_record_parser_new(&parser, NULL) ||
	    peo_record_parser_add(parser, &attr, NULL, 0) || peo_processes_new(&procs, NULL, NULL) ||
	    peo_child_start(child))
		return fprintf(stderr, "top_functions: %s\n", peo_last_error()), 1;
	while (running) {
		running = waitpid(peo_child_pid(child), &status, WNOHANG) == 0;
		while (peo_ring_next(ring, &rr, buf, sizeof(buf)) == 1) {
			if (peo_record_parse(parser, rr.data, rr.header.size, &rec) == 0 &&
			    rec.header.type != PEO_RECORD_SAMPLE)
				peo_processes_add_record(procs, &rec); /* a map, a name */
			else if (rec.header.type == PEO_RECORD_SAMPLE && ++samples)
				/* the ip, then return addresses: looked up at the call */
				for (int n = !peo_callchain_begin(&it, &rec) ? 0 : -1;
				     n >= 0 && peo_callchain_next(&it, &ip, &context); n++)
					if (peo_processes_lookup(procs, rec.u.sample.pid, PEO_RECORD_MISC_USER,
								 n ? ip - 1 : ip, 0, &fr) >= 0)
						count(fr.sym ? fr.sym : "[unknown]", n == 0);
			peo_ring_consume(ring);
		}
		peo_ring_wait(ring, running ? 10 : 0);
	}
	if (!peo_symbols_available())
		fprintf(stderr, "top_functions: this libpeo reads no symbols (built without elfutils)\n");
	qsort(fns, nfns, sizeof(fns[0]), most_first);
	printf("  self   total  function\n");
	for (unsigned i = 0; i < nfns && i < 10; i++)
		printf("%5.1f%%  %5.1f%%  %s\n", 100.0 * fns[i].self / samples,
		       100.0 * fns[i].total / samples, fns[i].name);
	peo_processes_free(procs);
	peo_record_parser_free(parser);
	peo_ring_unmap(ring);
	peo_child_free(child);
	return samples ? 0 : 1;
}
