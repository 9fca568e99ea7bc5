/*
 * symbols/inlines.c - peo_processes_inlines() and peo_processes_srclines():
 * the functions inlined at an address and the source lines there, from
 * the DWARF line table and scopes of the binary mapped there.  Each
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

/* the layout the header promises a caller's array of places */
_Static_assert(sizeof(struct peo_srcline) == 16 || sizeof(void *) != 8, "peo_srcline is 16 bytes");

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

int peo_processes_srclines(struct peo_processes *p, uint32_t pid, uint64_t addr,
			   struct peo_srcline *lines, size_t max)
{
	(void)p, (void)pid, (void)addr, (void)lines, (void)max;
	return peo_fail(ENOTSUP, "peo was built without elfutils (libdw), so it reads no "
			"source lines");
}

int peo_processes_binary_srclines(struct peo_processes *p, const char *dso, uint64_t offset,
				  struct peo_srcline *lines, size_t max)
{
	(void)p, (void)dso, (void)offset, (void)lines, (void)max;
	return peo_fail(ENOTSUP, "peo was built without elfutils (libdw), so it reads no "
			"source lines");
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

/* The functions inlined at vaddr of dso: names[first, first + n), and
 * the source lines there: lines[first + i] in the i-th (innermost first),
 * lines[first + n] in the function they were inlined into.  The line
 * table's row (lines[first]) is read only when a line is asked for: the
 * names alone need no line table. */
struct inl {
	const struct sym_dso *dso;
	uint64_t vaddr;
	uint32_t first, n;
	uint16_t slots;  /* names and lines kept: n + 1, or 0 when nothing is known */
	uint16_t nlines; /* once row_done: slots, or 0 when no line is known */
	uint8_t used, row_done;
};

struct sym_inlines {
	struct bin *bins;
	size_t nbins, bins_cap;
	struct inl *tab; /* open addressing by (dso, vaddr) */
	size_t n, cap;
	const char **names;          /* and lines: one array's halves grown as one */
	struct peo_srcline *lines;
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
	free(in->lines);
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
		Dwfl_Module *mod = dwfl_report_elf(dwfl, d->name, b->file, -1, 0, false);
		void **userdata;

		if (!mod) {
			dwfl_end(dwfl);
			dwfl = NULL;
		} else {
			/* the binary, for its debug file's inflated copy (sym_dso_debug_fd()) */
			if (dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL))
				*userdata = (void *)(uintptr_t)d; /* its cache, under its lock */
			dwfl_report_end(dwfl, NULL, NULL);
		}
	} else {
		dwfl = NULL;
	}
	in->bins[in->nbins++] = (struct bin){ d, dwfl };
	return dwfl;
}

/* Room for one more name and line in @in; 0 or -ENOMEM. */
static int grow(struct sym_inlines *in)
{
	size_t cap = in->names_cap ? in->names_cap * 2 : 64;
	const char **names;
	struct peo_srcline *lines;

	if (in->nnames < in->names_cap)
		return 0;
	if (!(names = realloc(in->names, cap * sizeof(*names))))
		return -ENOMEM;
	in->names = names;
	if (!(lines = realloc(in->lines, cap * sizeof(*lines))))
		return -ENOMEM;
	in->lines = lines;
	in->names_cap = cap;
	return 0;
}

/* @name and the place @file:@line, the next of @in's (@name NULL for the
 * place in the function the others were inlined into). */
static int add(struct sym_inlines *in, const char *name, const char *file, uint32_t line)
{
	if (grow(in))
		return -ENOMEM;
	in->names[in->nnames] = name;
	in->lines[in->nnames++] = (struct peo_srcline){ file, line, 0 };
	return 0;
}

/* Where inlined subroutine @die was called: its caller's file and line. */
static void call_site(struct sym_inlines *in, Dwarf_Die *die, const char **file, uint32_t *line)
{
	Dwarf_Attribute a;
	Dwarf_Word idx = 0, ln = 0;
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t nfiles;
	const char *f;

	*file = NULL;
	*line = 0;
	if (dwarf_attr(die, DW_AT_call_line, &a) && !dwarf_formudata(&a, &ln))
		*line = (uint32_t)ln;
	if (dwarf_attr(die, DW_AT_call_file, &a) && !dwarf_formudata(&a, &idx) &&
	    dwarf_diecu(die, &cu, NULL, NULL) && !dwarf_getsrcfiles(&cu, &files, &nfiles) &&
	    idx < nfiles && (f = dwarf_filesrc(files, idx, NULL, NULL)))
		*file = intern(in, strdup(f));
}

/* The unit holding @vaddr of @mod, and its bias.  libdw finds it by
 * .debug_aranges, which clang does not write: then by each unit's ranges,
 * as addr2line does. */
static Dwarf_Die *unit_of(Dwfl_Module *mod, uint64_t vaddr, Dwarf_Addr *bias)
{
	Dwarf_Die *cu = dwfl_module_addrdie(mod, vaddr, bias);

	if (cu)
		return cu;
	while ((cu = dwfl_module_nextcu(mod, cu, bias)))
		if (dwarf_haspc(cu, vaddr - *bias) > 0)
			return cu;
	return NULL;
}

/* The place @vaddr's row of the line table gives (file NULL: none): its
 * unit's (@cu, @bias) when libdw finds no unit itself. */
static void line_at(struct sym_inlines *in, Dwfl_Module *mod, Dwarf_Die *cu, Dwarf_Addr bias,
		    uint64_t vaddr, const char **file, uint32_t *line)
{
	Dwfl_Line *l = dwfl_module_getsrc(mod, vaddr);
	Dwarf_Line *dl = !l && cu ? dwarf_getsrc_die(cu, vaddr - bias) : NULL;
	const char *f = NULL;
	int ln = 0;

	*file = NULL;
	*line = 0;
	if (l)
		f = dwfl_lineinfo(l, NULL, &ln, NULL, NULL, NULL);
	else if (dl && (f = dwarf_linesrc(dl, NULL, NULL)))
		dwarf_lineno(dl, &ln);
	if (f) {
		*file = intern(in, strdup(f));
		*line = ln > 0 ? (uint32_t)ln : 0;
	}
}

/* The inlined functions at @vaddr of @dwfl's binary, innermost first, into
 * @in's names, each with the place in it (the innermost's, the line
 * table's row, left for fill_row()), then the place in the function they
 * were inlined into; how many inlined in *@n. */
static void find_inlines(struct peo_processes *p, struct sym_inlines *in, Dwfl *dwfl,
			 uint64_t vaddr, uint32_t *n)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, vaddr);
	Dwarf_Die *cu, *scopes = NULL, *nest = NULL;
	Dwarf_Addr bias;
	const char *file = NULL;
	uint32_t line = 0;
	int ns, nn;

	*n = 0;
	if (!mod)
		return;
	if (!(cu = unit_of(mod, vaddr, &bias))) {
		add(in, NULL, NULL, 0); /* the row's place only */
		return;
	}
	ns = dwarf_getscopes(cu, vaddr - bias, &scopes);
	/* the dies as nested in the code: an inline's caller, not its origin */
	nn = ns > 0 ? dwarf_getscopes_die(&scopes[0], &nest) : 0;
	for (int i = 0; i < nn && dwarf_tag(&nest[i]) != DW_TAG_subprogram; i++) {
		const char *name;

		if (dwarf_tag(&nest[i]) != DW_TAG_inlined_subroutine)
			continue; /* a lexical block */
		if (!(name = intern(in, die_name(p, &nest[i]))) || add(in, name, file, line))
			continue;
		(*n)++;
		call_site(in, &nest[i], &file, &line);
	}
	add(in, NULL, file, line);
	free(scopes);
	free(nest);
}

/* @e's innermost place, the line table's row for its address, read from
 * @dwfl; then how many of its places are known. */
static void fill_row(struct sym_inlines *in, struct inl *e, Dwfl *dwfl)
{
	Dwfl_Module *mod = e->slots && dwfl ? dwfl_addrmodule(dwfl, e->vaddr) : NULL;
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu;
	const char *file;
	uint32_t line;

	e->row_done = 1;
	if (!mod)
		return;
	cu = unit_of(mod, e->vaddr, &bias);
	line_at(in, mod, cu, bias, e->vaddr, &file, &line);
	/* a unit that covers it but has no row for it: an unnamed file, as
	 * addr2line says (libdw may answer a unit that does not cover it) */
	if (!file && cu && dwarf_haspc(cu, e->vaddr - bias) > 0)
		file = intern(in, strdup(""));
	in->lines[e->first] = (struct peo_srcline){ file, line, 0 };
	e->nlines = e->n ? e->slots : file ? 1 : 0;
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
	in->tab[i] = (struct inl){ .dso = d, .vaddr = vaddr, .first = (uint32_t)in->nnames,
				   .used = 1 };
	in->n++;
	if ((dwfl = dwfl_of(p, in, d, b)))
		find_inlines(p, in, dwfl, vaddr, &in->tab[i].n);
	in->tab[i].slots = (uint16_t)(in->nnames - in->tab[i].first);
	return &in->tab[i];
}

/* The binary mapped at @addr of process @pid (one with DWARF to read),
 * its binary and @addr's address in it: 1, else 0 (nothing known there). */
static int binary_at(struct peo_processes *p, uint32_t pid, uint64_t addr, struct sym_dso **d,
		     const struct sym_binary **b, uint64_t *vaddr)
{
	const struct sym_map *m = sym_maps_find(&p->maps, pid, addr);

	*d = m ? m->dso : NULL;
	return *d && ((*d)->kind == SYM_DSO_FILE || (*d)->kind == SYM_DSO_VDSO) &&
	       (*b = sym_dso_binary(p->syms, *d)) && (*b)->file &&
	       sym_binary_vaddr(*b, addr - m->start + m->pgoff, vaddr);
}

/* The owner's table (made when first asked), or NULL out of memory. */
static struct sym_inlines *inlines_of(struct peo_processes *p)
{
	if (!p->unwind.inlines && !(p->unwind.inlines = calloc(1, sizeof(*p->unwind.inlines))))
		peo_fail(ENOMEM, "out of memory for inlined functions");
	return p->unwind.inlines;
}

int peo_processes_inlines(struct peo_processes *p, uint32_t pid, uint64_t addr, const char **names,
			  size_t max)
{
	const struct sym_binary *b;
	struct sym_inlines *in;
	struct sym_dso *d;
	const struct inl *e;
	uint64_t vaddr;
	size_t n;

	if (!p || (!names && max))
		return peo_fail(EINVAL, "peo_processes_inlines: argument '%s' is NULL",
				p ? "names" : "p");
	if (!binary_at(p, pid, addr, &d, &b, &vaddr))
		return 0;
	if (!(in = inlines_of(p)) || !(e = entry_of(p, in, d, b, vaddr)))
		return peo_fail(ENOMEM, "out of memory for inlined functions");
	n = e->n < max ? e->n : max;
	for (size_t i = 0; i < n; i++)
		names[i] = in->names[e->first + i];
	return (int)n;
}

/* The places kept in @in for @vaddr of @d: the entry made and its row
 * read when new; how many copied into @lines, or -ENOMEM. */
static int places(struct peo_processes *p, struct sym_inlines *in, struct sym_dso *d,
		  const struct sym_binary *b, uint64_t vaddr, struct peo_srcline *lines, size_t max)
{
	struct inl *e = entry_of(p, in, d, b, vaddr);
	size_t n;

	if (!e)
		return peo_fail(ENOMEM, "out of memory for source lines");
	if (!e->row_done)
		fill_row(in, e, dwfl_of(p, in, d, b));
	n = e->nlines < max ? e->nlines : max;
	if (n)
		memcpy(lines, in->lines + e->first, n * sizeof(*lines));
	return (int)n;
}

int peo_processes_srclines(struct peo_processes *p, uint32_t pid, uint64_t addr,
			   struct peo_srcline *lines, size_t max)
{
	const struct sym_binary *b;
	struct sym_inlines *in;
	struct sym_dso *d;
	uint64_t vaddr;

	if (!p || (!lines && max))
		return peo_fail(EINVAL, "peo_processes_srclines: argument '%s' is NULL",
				p ? "lines" : "p");
	if (!binary_at(p, pid, addr, &d, &b, &vaddr))
		return 0;
	if (!(in = inlines_of(p)))
		return -ENOMEM;
	return places(p, in, d, b, vaddr, lines, max);
}

int peo_processes_binary_srclines(struct peo_processes *p, const char *dso, uint64_t offset,
				  struct peo_srcline *lines, size_t max)
{
	struct sym_unwind *u = p ? &p->unwind : NULL;
	const struct sym_binary *b;
	struct sym_dso *d;
	uint64_t vaddr;
	int n = 0;

	if (!p || !dso || (!lines && max))
		return peo_fail(EINVAL, "peo_processes_binary_srclines: argument '%s' is NULL",
				!p ? "p" : !dso ? "dso" : "lines");
	/* the owner's binaries' table is shared (under its own lock), the
	 * answers are not */
	pthread_mutex_lock(&u->apart_lock);
	if (!(d = sym_dso_get(p->syms, dso, NULL, 0)))
		n = -ENOMEM;
	else if ((d->kind == SYM_DSO_FILE || d->kind == SYM_DSO_VDSO) &&
		 (b = sym_dso_binary(p->syms, d)) && b->file && sym_binary_vaddr(b, offset, &vaddr))
		n = !u->apart && !(u->apart = calloc(1, sizeof(*u->apart)))
			    ? peo_fail(ENOMEM, "out of memory for source lines")
			    : places(p, u->apart, d, b, vaddr, lines, max);
	pthread_mutex_unlock(&u->apart_lock);
	return n;
}
#endif
