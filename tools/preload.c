/*
 * preload.c - the symbols a command's output needs, read ahead on two
 * threads while its records start (peo_symbols_preload()): the kernel's
 * 120k symbols on one, the recorded binaries' (and their DWARF) on the
 * other, so the first lines wait for the longer alone.  peo script and
 * peo report share it.
 */
#include <pthread.h>

#include <peo/peo.h>

#include "commands.h"

static void *preload(void *arg)
{
	struct preloader *p = arg;

	peo_symbols_preload(p->syms, p->what); /* what it cannot read, a lookup says in a note */
	return NULL;
}

void preload_start(struct preloader p[2], struct peo_symbols *syms, unsigned what)
{
	p[0] = (struct preloader){ .syms = syms, .what = what & PEO_PRELOAD_KERNEL };
	p[1] = (struct preloader){ .syms = syms, .what = what & ~(unsigned)PEO_PRELOAD_KERNEL };
	if (!(p[1].what & PEO_PRELOAD_BINARIES))
		p[1].what = 0; /* PEO_PRELOAD_DWARF alone is no request */
	for (int i = 0; i < 2; i++)
		if (p[i].what && thread_start(&p[i].thread, preload, &p[i]))
			p[i].what = 0; /* not started: lookups read it */
}

void preload_join(struct preloader p[2])
{
	for (int i = 0; i < 2; i++)
		if (p[i].what)
			pthread_join(p[i].thread, NULL);
	p[0].what = p[1].what = 0;
}
