/*
 * symbols/processes.c - struct peo_processes made, fed records, freed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/processes.h"

int peo_processes_new(struct peo_processes **out, struct peo_symbols *syms,
		      const struct peo_processes_opts *opts)
{
	struct peo_processes *p;
	int err;

	if (!out)
		return peo_fail(EINVAL, "peo_processes_new: argument 'out' is NULL");
	*out = NULL;
	if ((err = peo_opts_check(opts, sizeof(struct peo_processes_opts), "peo_processes_opts")))
		return err;
	if (!(p = calloc(1, sizeof(*p))))
		return peo_fail(ENOMEM, "out of memory for a peo_processes");
	p->syms = syms;
	sym_unwind_init(&p->unwind);
	if (!syms) {
		if ((err = peo_symbols_new(&p->syms, NULL))) {
			sym_unwind_free(&p->unwind);
			free(p);
			return err;
		}
		p->own_syms = 1;
	}
	*out = p;
	return 0;
}

void peo_processes_free(struct peo_processes *p)
{
	if (!p)
		return;
	sym_threads_free(&p->threads);
	sym_maps_free(&p->maps);
	sym_unwind_free(&p->unwind);
	if (p->own_syms)
		peo_symbols_free(p->syms);
	free(p);
}

struct peo_symbols *peo_processes_symbols(const struct peo_processes *p)
{
	return p ? p->syms : NULL;
}

int sym_processes_map(struct peo_processes *p, uint32_t pid, uint64_t start, uint64_t len,
		      uint64_t pgoff, const char *filename, uint32_t flags, int exec,
		      const uint8_t *build_id, size_t build_id_len)
{
	int identity = sym_maps_identity(filename, flags);
	char jit[32];
	struct sym_dso *d;

	if (identity && exec) { /* a JIT's code: its symbols in perf's map file */
		snprintf(jit, sizeof(jit), "/tmp/perf-%u.map", pid);
		filename = jit;
	}
	if (!(d = sym_dso_get(p->syms, filename ? filename : "//anon", build_id, build_id_len)))
		return -ENOMEM;
	if (identity)
		pgoff = start; /* addresses as they are */
	return sym_maps_add(&p->maps, pid, start, len, pgoff, d, exec);
}

int peo_processes_add_record(struct peo_processes *p, const struct peo_record *r)
{
	const struct peo_rec_mmap *m;
	int err = 0;

	if (!p || !r)
		return peo_fail(EINVAL, "peo_processes_add_record: argument '%s' is NULL",
				p ? "r" : "p");
	switch (r->header.type) {
	case PEO_RECORD_MMAP:
	case PEO_RECORD_MMAP2:
		m = &r->u.mmap;
		if ((r->header.misc & PEO_RECORD_MISC_CPUMODE_MASK) == PEO_RECORD_MISC_KERNEL) {
			err = sym_symbols_kernel_map(p->syms, m->filename, m->addr, m->len, m->pgoff);
			break;
		}
		err = sym_processes_map(p, m->pid, m->addr, m->len, m->pgoff, m->filename, m->flags,
					r->header.type == PEO_RECORD_MMAP2
						? (m->prot & 4) != 0 /* PROT_EXEC */
						: !(r->header.misc & PEO_RECORD_MISC_MMAP_DATA),
					m->build_id, m->build_id ? m->build_id_size : 0);
		break;
	case PEO_RECORD_FORK:
		if (r->u.task.pid != r->u.task.ppid)
			err = sym_maps_fork(&p->maps, r->u.task.ppid, r->u.task.pid);
		/* the parent's comm, or none */
		if (!err && sym_threads_fork(&p->threads, r->u.task.ptid, r->u.task.tid))
			err = peo_fail(ENOMEM, "out of memory for thread %u", r->u.task.tid);
		break;
	case PEO_RECORD_COMM:
		if (sym_threads_set(&p->threads, r->u.comm.tid, r->u.comm.comm))
			err = peo_fail(ENOMEM, "out of memory for thread %u", r->u.comm.tid);
		break;
	}
	return err;
}

const char *peo_processes_comm(struct peo_processes *p, uint32_t tid)
{
	return p ? sym_threads_comm(&p->threads, tid) : NULL;
}
