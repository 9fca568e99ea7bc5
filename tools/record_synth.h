/*
 * record_synth.h - records peo record writes itself before the rings'
 * data (record_synth.c).  Each returns 0 or the writer's negative errno.
 */
#ifndef PEO_TOOLS_RECORD_SYNTH_H
#define PEO_TOOLS_RECORD_SYNTH_H

#include <sys/types.h>

#include <peo/peo.h>

/* Which fd an id is: the event's index, its CPU and thread (-1: any). */
struct synth_id {
	uint64_t id;
	size_t event;
	int cpu;
	pid_t tid;
};

int synth_id_index(struct peo_perfdata_writer *w, const struct synth_id *ids, size_t n);
/* The kernel's text as perf names it, [kernel.kallsyms]_text (nothing when kallsyms hides it). */
int synth_kernel_mmap(struct peo_perfdata_writer *w, const struct peo_attr *attr);
/* Read the kernel's text range on a thread now, so that the ~35 ms the
 * kernel spends listing /proc/kallsyms overlaps opening the events;
 * synth_kernel_mmap() waits for it. */
void synth_kernel_text_start(void);
int synth_thread_map(struct peo_perfdata_writer *w, const pid_t *tids, size_t n);
int synth_cpu_map(struct peo_perfdata_writer *w, const int *cpus, size_t n);
int synth_comm(struct peo_perfdata_writer *w, const struct peo_attr *attr, pid_t pid, pid_t tid,
	       const char *comm);
/* A running process's COMM per thread and MMAP2 per executable mapping (all with @data). */
int synth_process(struct peo_perfdata_writer *w, const struct peo_attr *attr, pid_t pid, int data);
int synth_all_processes(struct peo_perfdata_writer *w, const struct peo_attr *attr, int data);
/* NAMESPACES of a task from /proc/PID/task/TID/ns (for --namespaces). */
int synth_namespaces(struct peo_perfdata_writer *w, const struct peo_attr *attr, pid_t pid,
		     pid_t tid);
/* A LOST_SAMPLES record: @lost samples of the event whose fd has @id (its
 * PERF_FORMAT_LOST count), as perf record writes one per fd at the end. */
int synth_lost_samples(struct peo_perfdata_writer *w, const struct peo_attr *attr, uint64_t id,
		       uint64_t lost);
int synth_finished_init(struct peo_perfdata_writer *w);

#endif
