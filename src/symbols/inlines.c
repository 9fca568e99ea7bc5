/*
 * symbols/inlines.c - peo_processes_inlines(): the functions inlined at
 * an address, from the DWARF scopes of the binary mapped there.  Each
 * binary is read in a Dwfl of its own, at its own addresses, and the
 * answers kept by (binary, address): every process that maps it shares
 * them, and its debug file is decompressed once (libc's took ~60 ms, per
 * process when each process's Dwfl read it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/processes.h"
#include "symbols/unwind.h"

#ifndef PEO_HAVE_LIBDW
void sym_inlines_free(struct sym_inlines *in)
{
	(void)in;
}

int peo_processes_inlines(struct peo_processes *p, uint32_t pid, uint64_t addr, const char **names,
			  size_t max)
{
	(void)p, (void)pid, (void)addr, (void)names, (void)max;
	return peo_fail(ENOTSUP, "peo was built without elfutils (libdw), so it reads no "
			"inlined functions");
}
#else
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

/* A binary's Dwfl (NULL: it could not be read). */
struct bin {
	const struct sym_dso *dso;
	Dwfl *dwfl;
};

/* The functions inlined at vaddr of dso: names[first, first + n). */
struct inl {
	const struct sym_dso *dso;
	uint64_t vaddr;
	uint32_t first, n;
	int used;
};

struct sym_inlines {
	struct bin *bins;
	size_t nbins, bins_cap;
	struct inl *tab; /* open addressing by (dso, vaddr) */
	size_t n, cap;
	const char **names;
	size_t nnames, names_cap;
	char **strs; /* each name once (open addressing), owned */
	size_t nstrs, strs_cap;
};

void sym_inlines_free(struct sym_inlines *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->nbins; i++)
		if (in->bins[i].dwfl)
			dwfl_end(in->bins[i].dwfl);
	free(in->bins);
	free(in->tab);
	free(in->names);
	for (size_t i = 0; i < in->strs_cap; i++)
		free(in->strs[i]);
	free(in->strs);
	free(in);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* @name (malloc'd: taken) kept once; NULL out of memory. */
static const char *intern(struct sym_inlines *in, char *name)
{
	size_t i;

	if (!name)
		return NULL;
	if ((in->nstrs + 1) * 2 > in->strs_cap) {
		size_t cap = in->strs_cap ? in->strs_cap * 2 : 256;
		char **t = calloc(cap, sizeof(*t));

		if (!t) {
			free(name);
			return NULL;
		}
		for (size_t k = 0; k < in->strs_cap; k++)
			if (in->strs[k]) {
				for (i = hash_str(in->strs[k]) & (cap - 1); t[i]; i = (i + 1) & (cap - 1))
					;
				t[i] = in->strs[k];
			}
		free(in->strs);
		in->strs = t;
		in->strs_cap = cap;
	}
	for (i = hash_str(name) & (in->strs_cap - 1); in->strs[i]; i = (i + 1) & (in->strs_cap - 1))
		if (!strcmp(in->strs[i], name)) {
			free(name);
			return in->strs[i];
		}
	in->nstrs++;
	return in->strs[i] = name;
}

/* An inlined function's name as perf shows it (its linkage name, demangled). */
static char *die_name(struct peo_processes *p, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *name = NULL;
	char *dem;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
		name = dwarf_formstring(&a);
	if (!name && dwarf_attr_integrate(die, DW_AT_name, &a))
		name = dwarf_formstring(&a);
	if (!name)
		return NULL;
	if (!p->syms->opts.no_demangle && (dem = sym_demangle(name)))
		return dem;
	return strdup(name);
}

/* @d's Dwfl, made when first asked (NULL when it cannot be read). */
static Dwfl *dwfl_of(struct peo_processes *p, struct sym_inlines *in, const struct sym_dso *d,
		     const struct sym_binary *b)
{
	const void *cb = sym_unwind_callbacks(p);
	Dwfl *dwfl;

	for (size_t i = 0; i < in->nbins; i++)
		if (in->bins[i].dso == d)
			return in->bins[i].dwfl;
	if (in->nbins == in->bins_cap) {
		size_t cap = in->bins_cap ? in->bins_cap * 2 : 16;
		struct bin *more = realloc(in->bins, cap * sizeof(*more));

		if (!more)
			return NULL;
		in->bins = more;
		in->bins_cap = cap;
	}
	if (cb && (dwfl = dwfl_begin(cb))) {
		dwfl_report_begin(dwfl);
		if (!dwfl_report_elf(dwfl, d->name, b->file, -1, 0, false)) {
			dwfl_end(dwfl);
			dwfl = NULL;
		} else {
			dwfl_report_end(dwfl, NULL, NULL);
		}
	} else {
		dwfl = NULL;
	}
	in->bins[in->nbins++] = (struct bin){ d, dwfl };
	return dwfl;
}

/* The inlined functions at @vaddr of @dwfl's binary, innermost first, into
 * @in's names; how many in *@n. */
static void find_inlines(struct peo_processes *p, struct sym_inlines *in, Dwfl *dwfl,
			 uint64_t vaddr, uint32_t *n)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, vaddr);
	Dwarf_Die *cu, *scopes = NULL, *nest = NULL;
	Dwarf_Addr bias;
	int ns, nn;

	*n = 0;
	if (!mod || !(cu = dwfl_module_addrdie(mod, vaddr, &bias)))
		return;
	ns = dwarf_getscopes(cu, vaddr - bias, &scopes);
	/* the dies as nested in the code: an inline's caller, not its origin */
	nn = ns > 0 ? dwarf_getscopes_die(&scopes[0], &nest) : 0;
	for (int i = 0; i < nn && dwarf_tag(&nest[i]) != DW_TAG_subprogram; i++) {
		const char *name;

		if (dwarf_tag(&nest[i]) != DW_TAG_inlined_subroutine)
			continue; /* a lexical block */
		if (!(name = intern(in, die_name(p, &nest[i]))))
			continue;
		if (in->nnames == in->names_cap) {
			size_t cap = in->names_cap ? in->names_cap * 2 : 64;
			const char **more = realloc(in->names, cap * sizeof(*more));

			if (!more)
				break;
			in->names = more;
			in->names_cap = cap;
		}
		in->names[in->nnames++] = name;
		(*n)++;
	}
	free(scopes);
	free(nest);
}

static size_t slot(const struct sym_dso *d, uint64_t vaddr, size_t cap)
{
	return (size_t)(((vaddr ^ (uintptr_t)d) * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

/* The entry of (@d, @vaddr), made and filled when new; NULL out of memory. */
static struct inl *entry_of(struct peo_processes *p, struct sym_inlines *in,
			    const struct sym_dso *d, const struct sym_binary *b, uint64_t vaddr)
{
	size_t i;
	Dwfl *dwfl;

	if ((in->n + 1) * 2 > in->cap) {
		size_t cap = in->cap ? in->cap * 2 : 1024;
		struct inl *t = calloc(cap, sizeof(*t));

		if (!t)
			return NULL;
		for (size_t k = 0; k < in->cap; k++)
			if (in->tab[k].used) {
				for (i = slot(in->tab[k].dso, in->tab[k].vaddr, cap); t[i].used;
				     i = (i + 1) & (cap - 1))
					;
				t[i] = in->tab[k];
			}
		free(in->tab);
		in->tab = t;
		in->cap = cap;
	}
	for (i = slot(d, vaddr, in->cap); in->tab[i].used; i = (i + 1) & (in->cap - 1))
		if (in->tab[i].dso == d && in->tab[i].vaddr == vaddr)
			return &in->tab[i];
	in->tab[i] = (struct inl){ d, vaddr, (uint32_t)in->nnames, 0, 1 };
	in->n++;
	if ((dwfl = dwfl_of(p, in, d, b)))
		find_inlines(p, in, dwfl, vaddr, &in->tab[i].n);
	return &in->tab[i];
}

int peo_processes_inlines(struct peo_processes *p, uint32_t pid, uint64_t addr, const char **names,
			  size_t max)
{
	const struct sym_map *m;
	const struct sym_binary *b;
	struct sym_inlines *in;
	struct inl *e;
	uint64_t vaddr;
	size_t n;

	if (!p || (!names && max))
		return peo_fail(EINVAL, "peo_processes_inlines: argument '%s' is NULL",
				p ? "names" : "p");
	m = sym_maps_find(&p->maps, pid, addr);
	if (!m || !m->dso || (m->dso->kind != SYM_DSO_FILE && m->dso->kind != SYM_DSO_VDSO) ||
	    !(b = sym_dso_binary(p->syms, m->dso)) || !b->file ||
	    !sym_binary_vaddr(b, addr - m->start + m->pgoff, &vaddr))
		return 0;
	if (!(in = p->unwind.inlines) && !(in = p->unwind.inlines = calloc(1, sizeof(*in))))
		return peo_fail(ENOMEM, "out of memory for inlined functions");
	if (!(e = entry_of(p, in, m->dso, b, vaddr)))
		return peo_fail(ENOMEM, "out of memory for inlined functions");
	n = e->n < max ? e->n : max;
	for (size_t i = 0; i < n; i++)
		names[i] = in->names[e->first + i];
	return (int)n;
}
#endif
