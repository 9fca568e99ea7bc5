/*
 * symbols/vmlinux.c - the kernel's own symbols from a vmlinux, placed as
 * perf 6.1 places them (checked against perf script -k here,
 * tests/sym_vmlinux_compare.sh): when it reads a vmlinux it maps the
 * kernel anew, to the .text's addresses (moved by KASLR's offset), and
 * gives every other section with symbols a map of its own, named after
 * the kernel's with the section's name appended; an address between them
 * is in no map ("[unknown] ([unknown])").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/kernel.h"

int sym_kernel_use_vmlinux(struct sym_kernel *k, struct sym_binary *b, uint64_t reloc,
			   const char *path)
{
	size_t n = k->nparts ? k->nparts : 1, more = b->nsections - 1;
	struct sym_kpart *parts = realloc(k->parts, (n + more) * sizeof(*parts));
	char *copy = strdup(path);

	if (parts)
		k->parts = parts;
	if (!parts || !copy) {
		free(copy);
		return peo_fail(ENOMEM, "out of memory for the kernel's symbols from %s", path);
	}
	if (!k->nparts) { /* kallsyms gave nothing (hidden): the kernel's part is new */
		memset(&parts[0], 0, sizeof(parts[0]));
		if (!(parts[0].name = strdup("[kernel.kallsyms]"))) {
			free(copy);
			return peo_fail(ENOMEM, "out of memory for the kernel's symbols");
		}
		k->nparts = 1;
	}
	for (size_t i = 0; i < b->nsections; i++) {
		struct sym_section *sec = &b->sections[i];
		struct sym_kpart *p = i ? &parts[k->nparts] : &parts[0];
		char *name = NULL;

		if (i && asprintf(&name, "%s%s", parts[0].name, sec->name) < 0) {
			free(copy);
			return peo_fail(ENOMEM, "out of memory for the kernel's symbols");
		}
		if (i) {
			memset(p, 0, sizeof(*p));
			p->name = name;
			k->nparts++;
		}
		sym_table_fini(&p->syms);
		p->syms = sec->syms;
		memset(&sec->syms, 0, sizeof(sec->syms));
		sym_table_relocate(&p->syms, reloc);
		p->start = sec->addr + reloc;
		p->end = sec->size > UINT64_MAX - p->start ? UINT64_MAX : p->start + sec->size;
	}
	free(k->vmlinux);
	k->vmlinux = copy;
	sym_kernel_sort_parts(k);
	return 0;
}
