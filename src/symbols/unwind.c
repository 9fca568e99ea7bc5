/*
 * symbols/unwind.c - peo_processes_unwind() and peo_processes_inlines():
 * one libdwfl session (Dwfl) per process, its modules the files its maps
 * name, each placed where the process mapped it; kept across samples
 * (making one per sample was 20 times slower: 588 against 28 us a
 * sample), files mapped later added to it, made again when a file it has
 * moves or goes.  Stacks are unwound by cached CFI rules (cfi_cache.c)
 * where they can be, else by libdwfl.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/cfi_cache.h"
#include "symbols/processes.h"
#include "symbols/unwind.h"

void sym_unwind_init(struct sym_unwind *u)
{
	pthread_mutex_init(&u->callbacks_lock, NULL);
	pthread_mutex_init(&u->apart_lock, NULL);
}

#ifndef PEO_HAVE_LIBDW
void sym_unwind_free(struct sym_unwind *u)
{
	pthread_mutex_destroy(&u->callbacks_lock);
	pthread_mutex_destroy(&u->apart_lock);
	memset(u, 0, sizeof(*u));
}

int peo_processes_unwind(struct peo_processes *p, const struct peo_record *sample, uint64_t *ips,
			 size_t max)
{
	(void)p, (void)sample, (void)ips, (void)max;
	return peo_fail(ENOTSUP, "peo was built without elfutils (libdw), so it unwinds no "
			"stacks: only frame-pointer callchains (perf record -g) show callers");
}

#else
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

/* A file reported to a process's Dwfl, where it was placed. */
struct placed {
	const struct sym_dso *dso;
	const char *file; /* its binary's (valid as long as the peo_symbols) */
	uint64_t bias;
};

struct sym_uproc {
	uint32_t pid;
	uint64_t gen;        /* of the maps the Dwfl was made from */
	int made;            /* the Dwfl was made (it may have failed: NULL) */
	Dwfl *dwfl;
	struct sym_cfi_cache *cfi; /* its addresses' CFI rules */
	uint64_t used;             /* the model's clock when last asked for */
	struct placed *placed;     /* the files reported to it */
	size_t nplaced;
	uint16_t machine;    /* the modules' ELF machine; 0: none */
	/* The sample being unwound (the callbacks' state). */
	struct peo_processes *p;
	const struct sym_dwarf_regs *regs;
	const uint8_t *stack;
	uint64_t stack_size;
	uint64_t *ips;
	size_t max, got;
};

/* What was looked up through @up's modules, forgotten (they changed). */
static void forget_lookups(struct sym_uproc *up)
{
	sym_cfi_cache_free(up->cfi);
	up->cfi = NULL;
}

static void uproc_clear(struct sym_uproc *up)
{
	if (up->dwfl)
		dwfl_end(up->dwfl);
	up->dwfl = NULL;
	forget_lookups(up);
	free(up->placed);
	up->placed = NULL;
	up->nplaced = 0;
	up->made = 0;
	up->machine = 0;
}

void sym_unwind_free(struct sym_unwind *u)
{
	for (size_t i = 0; i < u->n; i++) {
		uproc_clear(u->procs[i]);
		free(u->procs[i]);
	}
	free(u->procs);
	sym_inlines_free(u->inlines);
	sym_inlines_free(u->apart);
	free(u->debuginfo_path);
	free(u->callbacks);
	pthread_mutex_destroy(&u->callbacks_lock);
	pthread_mutex_destroy(&u->apart_lock);
	memset(u, 0, sizeof(*u));
}

/* ---------------------------------------------------------- the callbacks */

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct sym_uproc *up = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0; /* one thread: the sample's */
	*thread_argp = up;
	return (pid_t)up->pid;
}

/* 8 bytes of the process at @addr: from the sample's stack copy, else
 * from the file mapped there (what a frame's CFI reads elsewhere).  Less
 * the bits above an address (regs->ra_mask): libdwfl reads saved registers
 * here, return addresses that arm64 code signed among them, and cannot
 * strip them itself; the other registers' values serve only to unwind,
 * which takes addresses from them. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct sym_uproc *up = arg;
	uint64_t sp = up->regs->sp;
	const struct sym_map *m;
	const struct sym_binary *b;
	bool ok;
	int fd;

	(void)dwfl;
	if (addr >= sp && addr - sp <= up->stack_size && up->stack_size - (addr - sp) >= 8) {
		memcpy(result, up->stack + (addr - sp), 8);
		*result &= up->regs->ra_mask;
		return true;
	}
	m = sym_maps_find(&up->p->maps, up->pid, addr);
	if (!m || !m->dso || !(b = sym_dso_binary(up->p->syms, m->dso)) || !b->file ||
	    (fd = open(b->file, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	ok = pread(fd, result, 8, (off_t)(addr - m->start + m->pgoff)) == 8;
	close(fd);
	*result &= up->regs->ra_mask;
	return ok;
}

static bool set_initial_registers(Dwfl_Thread *t, void *thread_arg)
{
	struct sym_uproc *up = thread_arg;
	const struct sym_dwarf_regs *r = up->regs;

	for (unsigned i = 0; i < r->n; i++)
		if ((r->have >> i & 1) && !dwfl_thread_state_registers(t, (int)i, 1, &r->val[i]))
			return false;
	if (up->machine != EM_X86_64) /* x86_64's is DWARF register 16, set above */
		dwfl_thread_state_register_pc(t, r->pc);
	return true;
}

/* A process's Dwfl reads no debug files: its modules' .eh_frame unwinds
 * (libdwfl would otherwise read a whole debug file, decompressing it, to
 * look for .debug_frame where .eh_frame has no entry: 80% of the time on a
 * recording of many processes). */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc;
	*debuginfo_file_name = NULL;
	return -1;
}

static char *no_path;
static const Dwfl_Callbacks process_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &no_path,
};

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static int frame_cb(Dwfl_Frame *f, void *arg)
{
	struct sym_uproc *up = arg;
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(f, &pc, NULL))
		return DWARF_CB_ABORT;
	/* A return address signed on arm64 that memory_read did not see
	 * (one a DWARF expression made): its caller's, but libdwfl goes on
	 * from the signed value (finding no CFI there, it follows the frame
	 * pointer and repeats a frame): the stack ends at it. */
	if (pc & ~up->regs->ra_mask) {
		up->ips[up->got++] = pc & up->regs->ra_mask;
		return DWARF_CB_ABORT;
	}
	up->ips[up->got++] = pc;
	/* From code in no file libdwfl would guess on by the frame pointer;
	 * perf stops there, and so do we. */
	if (!dwfl_addrmodule(up->dwfl, up->got > 1 ? pc - 1 : pc))
		return DWARF_CB_ABORT;
	return up->got < up->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

/* ------------------------------------------------ a process's modules */

/* Where @b's addresses are in the process whose map @m holds the file
 * from @m->pgoff: 1 and *@bias, or 0 when no segment holds that offset. */
static int bias_of(const struct sym_binary *b, const struct sym_map *m, uint64_t *bias)
{
	for (size_t i = 0; i < b->nseg; i++) {
		const struct sym_segment *s = &b->seg[i];

		/* a segment's first page may start before it */
		if (m->pgoff >= (s->offset & ~0xfffull) && m->pgoff < s->offset + s->size) {
			*bias = m->start - m->pgoff + s->offset - s->vaddr;
			return 1;
		}
	}
	return 0;
}

/* Each file the process maps, once, at its place: into *@out (malloc'd),
 * how many; -1 out of memory. */
static ssize_t placed_files(struct peo_processes *p, const struct sym_map *maps, size_t n,
			    struct placed **out)
{
	struct placed *w = malloc((n ? n : 1) * sizeof(*w));
	size_t k = 0;

	if (!(*out = w))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct sym_map *m = &maps[i];
		const struct sym_binary *b;
		uint64_t bias;
		size_t j;

		if (!m->dso || !m->exec ||
		    (m->dso->kind != SYM_DSO_FILE && m->dso->kind != SYM_DSO_VDSO))
			continue;
		if (!(b = sym_dso_binary(p->syms, m->dso)) || !b->file || !bias_of(b, m, &bias))
			continue;
		/* once per place: after an exec the old ld.so stays beside the new */
		for (j = 0; j < k && (w[j].dso != m->dso || w[j].bias != bias); j++)
			;
		if (j < k)
			continue;
		w[k++] = (struct placed){ m->dso, b->file, bias };
	}
	return (ssize_t)k;
}

static int is_placed(const struct placed *list, size_t n, const struct placed *one)
{
	for (size_t i = 0; i < n; i++)
		if (list[i].dso == one->dso && list[i].bias == one->bias)
			return 1;
	return 0;
}

/* Report the files of @w (@n) not among @up's placed ones yet. */
static void report_files(struct sym_uproc *up, const struct placed *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		Dwfl_Module *mod;

		if (is_placed(up->placed, up->nplaced, &w[i]))
			continue;
		mod = dwfl_report_elf(up->dwfl, w[i].dso->name, w[i].file, -1, w[i].bias, false);
		if (mod && !up->machine) {
			GElf_Addr elf_bias;
			Elf *elf = dwfl_module_getelf(mod, &elf_bias);
			GElf_Ehdr eh;

			if (elf && gelf_getehdr(elf, &eh))
				up->machine = eh.e_machine;
		}
	}
}

/* At most SYM_UNWIND_LIVE processes keep a Dwfl (each holds its files'
 * tables, ~4 MB for a C program): the one used least recently goes
 * before @up makes one; made again if its process comes back. */
#define SYM_UNWIND_LIVE 8
static void make_room(struct sym_unwind *u, struct sym_uproc *up)
{
	struct sym_uproc *oldest = NULL;
	size_t live = 0;

	for (size_t i = 0; i < u->n; i++) {
		struct sym_uproc *o = u->procs[i];

		if (o == up || !o->dwfl)
			continue;
		live++;
		if (!oldest || o->used < oldest->used)
			oldest = o;
	}
	if (live >= SYM_UNWIND_LIVE)
		uproc_clear(oldest);
}

/* @up's Dwfl for the process's maps as they are now: the one it has,
 * with the files mapped since added, when none it has moved or went (a
 * process's maps grow as it starts: its libraries' debug files stay read);
 * else a new one. */
static void refresh(struct peo_processes *p, struct sym_unwind *u, struct sym_uproc *up)
{
	size_t n;
	uint64_t gen;
	const struct sym_map *maps = sym_maps_of(&p->maps, up->pid, &n, &gen);
	struct placed *w;
	ssize_t k;
	size_t kept = 0;

	if (up->made && up->gen == gen)
		return;
	if ((k = placed_files(p, maps, n, &w)) < 0) {
		uproc_clear(up);
		return; /* out of memory: no unwinding, tried again at the next change */
	}
	for (size_t i = 0; i < up->nplaced; i++)
		kept += is_placed(w, (size_t)k, &up->placed[i]);
	up->gen = gen;
	if (up->dwfl && up->machine && kept == up->nplaced) {
		forget_lookups(up);
		dwfl_report_begin_add(up->dwfl);
		report_files(up, w, (size_t)k);
		dwfl_report_end(up->dwfl, NULL, NULL);
	} else {
		uproc_clear(up);
		up->gen = gen;
		make_room(u, up);
		if (!k || !(up->dwfl = dwfl_begin(&process_callbacks))) {
			free(w);
			up->made = 1;
			return;
		}
		dwfl_report_begin(up->dwfl);
		report_files(up, w, (size_t)k);
		dwfl_report_end(up->dwfl, NULL, NULL);
		if (!up->machine ||
		    !dwfl_attach_state(up->dwfl, NULL, (pid_t)up->pid, &thread_callbacks, up))
			up->machine = 0; /* nothing to unwind with */
	}
	up->made = 1;
	free(up->placed);
	up->placed = w;
	up->nplaced = (size_t)k;
}

/* The debug file a binary's symbols came from, inflated when its DWARF is
 * compressed, when the module's userdata is its binary (inlines.c sets
 * it); else libdwfl's search. */
static int find_inflated_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
				   Dwarf_Addr base, const char *file_name, const char *debuglink_file,
				   GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	int fd = *userdata ? sym_dso_debug_fd(*userdata, debuginfo_file_name) : -1;

	return fd >= 0 ? fd
		       : dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
						      debuglink_file, debuglink_crc, debuginfo_file_name);
}

const void *sym_unwind_callbacks(struct peo_processes *p)
{
	struct sym_unwind *u = &p->unwind;
	Dwfl_Callbacks *cb;
	void *made;

	/* made once, whichever thread asks first (the owner's, or
	 * peo_processes_binary_srclines()'s) */
	pthread_mutex_lock(&u->callbacks_lock);
	if (u->callbacks || !(cb = calloc(1, sizeof(*cb))))
		goto out;
	cb->find_elf = dwfl_build_id_find_elf;
	cb->find_debuginfo = find_inflated_debuginfo;
	cb->section_address = dwfl_offline_section_address;
	cb->debuginfo_path = &u->debuginfo_path;
	/* with a symfs, debug files are looked for under it only, as perf does */
	if (p->syms->symfs &&
	    asprintf(&u->debuginfo_path, ":.debug:%s/usr/lib/debug", p->syms->symfs) < 0) {
		u->debuginfo_path = NULL;
		free(cb);
		goto out;
	}
	u->callbacks = cb;
out:
	made = u->callbacks;
	pthread_mutex_unlock(&u->callbacks_lock);
	if (!made)
		peo_fail(ENOMEM, "out of memory for libdwfl's callbacks");
	return made;
}

/* Process @pid's unwinder (made when new), or NULL out of memory. */
static struct sym_uproc *uproc_of(struct peo_processes *p, uint32_t pid)
{
	struct sym_unwind *u = &p->unwind;
	struct sym_uproc *up;

	u->clock++;
	if (u->last < u->n && u->procs[u->last]->pid == pid)
		return up = u->procs[u->last], up->used = u->clock, up;
	for (size_t i = 0; i < u->n; i++)
		if (u->procs[i]->pid == pid)
			return up = u->procs[u->last = i], up->used = u->clock, up;
	if (u->n == u->cap) {
		size_t cap = u->cap ? u->cap * 2 : 16;
		struct sym_uproc **more = realloc(u->procs, cap * sizeof(*more));

		if (!more)
			goto nomem;
		u->procs = more;
		u->cap = cap;
	}
	if (!(up = calloc(1, sizeof(*up))))
		goto nomem;
	up->pid = pid;
	up->p = p;
	up->used = u->clock;
	u->procs[u->n] = up;
	u->last = u->n++;
	return up;
nomem:
	peo_fail(ENOMEM, "out of memory for process %u's unwinder", pid);
	return NULL;
}

int peo_processes_unwind(struct peo_processes *p, const struct peo_record *sample, uint64_t *ips,
			 size_t max)
{
	const struct peo_sample *s;
	const struct peo_attr *attr;
	struct sym_dwarf_regs regs;
	struct sym_uproc *up;
	uint64_t words[64];
	size_t nr;
	int fast;

	if (!p || !sample || (!ips && max))
		return peo_fail(EINVAL, "peo_processes_unwind: argument '%s' is NULL",
				!p ? "p" : !sample ? "sample" : "ips");
	if (sample->header.type != PEO_RECORD_SAMPLE)
		return peo_fail(EINVAL, "peo_processes_unwind: record type %u is not a sample",
				sample->header.type);
	s = &sample->u.sample;
	attr = sample->attr;
	if (!max || !attr || !(attr->sample_type & PEO_SAMPLE_REGS_USER) ||
	    !(attr->sample_type & PEO_SAMPLE_STACK_USER) ||
	    s->regs_user_abi == PEO_SAMPLE_REGS_ABI_NONE || !s->stack_user ||
	    !s->stack_user_dyn_size)
		return 0;
	if (sample->swapped)
		return peo_fail(ENOTSUP, "peo_processes_unwind: the recording is in the other "
				"byte order; its stacks are not unwound");
	if (!(up = uproc_of(p, sample->sample_id.pid)))
		return -ENOMEM;
	refresh(p, &p->unwind, up);
	nr = s->regs_user_nr < 64 ? s->regs_user_nr : 64;
	for (size_t i = 0; i < nr; i++)
		words[i] = peo_record_u64(sample, s->regs_user, i);
	if (!up->machine || sym_dwarf_regs(up->machine, attr->sample_regs_user, words, nr, &regs))
		return 0;
	up->regs = &regs;
	up->stack = s->stack_user;
	up->stack_size = s->stack_user_dyn_size < s->stack_user_size ? s->stack_user_dyn_size
								      : s->stack_user_size;
	/* the cached rules first; libdwfl where they cannot tell */
	if ((fast = sym_cfi_unwind(&up->cfi, up->dwfl, &regs, up->stack, up->stack_size, ips,
				   max)) >= 0) {
		up->regs = NULL;
		up->stack = NULL;
		return fast;
	}
	up->ips = ips;
	up->max = max;
	up->got = 0;
	/* an error ends the stack where it struck: the frames before stand */
	dwfl_getthread_frames(up->dwfl, (pid_t)up->pid, frame_cb, up);
	up->regs = NULL;
	up->stack = NULL;
	up->ips = NULL;
	return (int)up->got;
}

#endif
