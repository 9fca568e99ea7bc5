/*
 * top_functions.c - a minimal profiler: run a command, sample it 1000
 * times a second (cpu-clock), name each sample's function as it comes and
 * print the functions it spent the most time in, with their share.
 *
 * Build: cc top_functions.c $(pkg-config --cflags --libs libpeo)
 * Usage: top_functions COMMAND [ARGS...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <peo/peo.h>

struct fn { const char *name; unsigned samples; };

static int most_first(const void *a, const void *b)
{
	return (int)((const struct fn *)b)->samples - (int)((const struct fn *)a)->samples;
}

int main(int argc, char **argv)
{
	PEO_OPTS(peo_ring_opts, ring_opts, .data_pages = 64);
	struct peo_ring_record rr = { .sz = sizeof(rr) };
	struct peo_record rec = { .sz = sizeof(rec) };
	struct peo_frame fr = { .sz = sizeof(fr) };
	struct peo_record_parser *parser;
	struct peo_processes *procs;
	struct peo_child *child;
	struct peo_ring *ring;
	struct peo_attr attr;
	static struct fn fns[4096];
	static unsigned char buf[65536];
	unsigned nfns = 0, total = 0;
	int fd, status, running = 1;

	if (argc < 2) {
		fprintf(stderr, "usage: top_functions COMMAND [ARGS...]\n");
		return 2;
	}
	peo_attr_init(&attr);
	attr.type = PEO_TYPE_SOFTWARE;
	attr.config = PEO_COUNT_SW_CPU_CLOCK;
	attr.sample_period = 1000000; /* ns of CPU time: 1000 samples a second */
	attr.sample_type = PEO_SAMPLE_IP | PEO_SAMPLE_TID;
	attr.mmap = attr.comm = attr.task = 1; /* what the symbolizer follows */
	attr.exclude_kernel = attr.exclude_hv = 1;
	attr.disabled = attr.enable_on_exec = 1;
	if (peo_child_spawn(&child, (const char *const *)argv + 1) ||
	    (fd = peo_sys_open(&attr, peo_child_pid(child), -1, -1, PEO_FLAG_FD_CLOEXEC)) < 0 ||
	    peo_ring_map(&ring, fd, &ring_opts) || peo_record_parser_new(&parser, NULL) ||
	    peo_record_parser_add(parser, &attr, NULL, 0) || peo_processes_new(&procs, NULL, NULL) ||
	    peo_child_start(child)) {
		fprintf(stderr, "top_functions: %s\n", peo_last_error());
		return 1;
	}
	while (running) {
		running = waitpid(peo_child_pid(child), &status, WNOHANG) == 0;
		while (peo_ring_next(ring, &rr, buf, sizeof(buf)) == 1) {
			unsigned i = 0;

			if (peo_record_parse(parser, rr.data, rr.header.size, &rec) == 0 &&
			    rec.header.type != PEO_RECORD_SAMPLE)
				peo_processes_add_record(procs, &rec); /* a map, a name */
			else if (rec.header.type == PEO_RECORD_SAMPLE && ++total &&
				 peo_processes_lookup(procs, rec.u.sample.pid, PEO_RECORD_MISC_USER,
						      rec.u.sample.ip, 0, &fr) >= 0) {
				const char *name = fr.sym ? fr.sym : "[unknown]";

				while (i < nfns && strcmp(fns[i].name, name))
					i++;
				if (i == nfns && nfns < 4096)
					fns[nfns++].name = name; /* valid while procs lives */
				if (i < nfns)
					fns[i].samples++;
			}
			peo_ring_consume(ring);
		}
		if (running)
			peo_ring_wait(ring, 10);
	}
	if (!peo_symbols_available())
		fprintf(stderr, "top_functions: this libpeo reads no symbols (built without elfutils)\n");
	qsort(fns, nfns, sizeof(fns[0]), most_first);
	for (unsigned i = 0; i < nfns && i < 10; i++)
		printf("%5.1f%%  %s\n", 100.0 * fns[i].samples / total, fns[i].name);
	peo_processes_free(procs);
	peo_record_parser_free(parser);
	peo_ring_unmap(ring);
	peo_child_free(child);
	return total ? 0 : 1;
}
