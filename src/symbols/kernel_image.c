/*
 * symbols/kernel_image.c - which vmlinux the kernel's symbols come from,
 * as perf 6.1 chooses (strace of perf script here): with --kallsyms none;
 * with -k FILE that file only; else perf's build-id cache copy
 * (~/.debug/.build-id/xx/rest/elf), then ./vmlinux, /boot/vmlinux, and
 * for the kernel's release /boot/vmlinux-R, /usr/lib/debug/boot/vmlinux-R,
 * /lib/modules/R/build/vmlinux, /usr/lib/debug/lib/modules/R/vmlinux,
 * /usr/lib/debug/boot/vmlinux-R.debug, the first whose build id is the
 * recorded kernel's (any, when the recording gives none); else kallsyms.
 * Two differences: perf takes R from the recording's header, peo from
 * uname(2) (a candidate of another release is refused by its build id
 * all the same); and a FILE named that cannot be used (another build id,
 * not ELF, no symbols) leaves a note and the kallsyms symbols, where perf
 * names no kernel function at all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "symbols/dso.h"

/* Where the kernel ran: the recording's reference (its kernel map's
 * symbol and pgoff), else the running kernel's _text from kallsyms. */
static void kernel_ref(struct peo_symbols *s, const char **name, uint64_t *addr)
{
	*name = s->kref_name ? s->kref_name : s->kernel.text_name;
	*addr = s->kref_name ? s->kref_addr : s->kernel.text_addr;
}

/* The kernel's symbols from vmlinux @path: 0, or the error (its sentence
 * left) when the file cannot be read or is not the recorded kernel's. */
static int try_vmlinux(struct peo_symbols *s, const char *path)
{
	size_t id_len;
	const uint8_t *id = sym_symbols_kernel_build_id(s, &id_len);
	struct sym_load how = { .path = path, .build_id = id, .build_id_len = id_len,
				.kernel = 1 };
	struct sym_binary b;
	uint64_t ref_addr;
	char *file = NULL;
	int err;

	kernel_ref(s, &how.ref_name, &ref_addr);
	/* perf reads a relative path under the symfs */
	if (path[0] != '/' && s->symfs) {
		if (asprintf(&file, "%s/%s", s->symfs, path) < 0)
			return peo_fail(ENOMEM, "out of memory for a path");
		how.path = file;
	}
	err = sym_binary_load(&how, &b);
	if (!err) {
		/* no reference symbol in the file (or none recorded): not moved */
		uint64_t reloc = b.has_ref && ref_addr ? ref_addr - b.ref_value : 0;

		err = sym_kernel_use_vmlinux(&s->kernel, &b, reloc, how.path);
		sym_binary_fini(&b);
	}
	free(file);
	return err;
}

/* perf's build-id cache copy of the recorded kernel's image, or NULL. */
static char *cached_image(struct peo_symbols *s)
{
	const char *home = getenv("HOME");
	size_t len;
	const uint8_t *id = sym_symbols_kernel_build_id(s, &len);
	char hex[41], *path;

	if (!id || !home || !*home)
		return NULL;
	for (size_t i = 0; i < len && i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	if (asprintf(&path, "%s/.debug/.build-id/%.2s/%s/elf", home, hex, hex + 2) < 0)
		return NULL;
	return path;
}

/* perf 6.1's candidates, in its order; the ones of a release only
 * without a symfs. */
static const char *const unversioned[] = { "vmlinux", "/boot/vmlinux" };
static const struct {
	const char *before, *after; /* the release between */
} versioned[] = {
	{ "/boot/vmlinux-", "" }, { "/usr/lib/debug/boot/vmlinux-", "" },
	{ "/lib/modules/", "/build/vmlinux" }, { "/usr/lib/debug/lib/modules/", "/vmlinux" },
	{ "/usr/lib/debug/boot/vmlinux-", ".debug" },
};

static int try_candidates(struct peo_symbols *s)
{
	char *cached = cached_image(s), path[512];
	struct utsname u;
	int used = cached && !try_vmlinux(s, cached);

	free(cached);
	for (size_t i = 0; !used && i < sizeof(unversioned) / sizeof(unversioned[0]); i++)
		used = !try_vmlinux(s, unversioned[i]);
	if (used || s->symfs || uname(&u))
		return used;
	for (size_t i = 0; !used && i < sizeof(versioned) / sizeof(versioned[0]); i++) {
		snprintf(path, sizeof(path), "%s%s%s", versioned[i].before, u.release,
			 versioned[i].after);
		used = !try_vmlinux(s, path);
	}
	return used;
}

int sym_symbols_vmlinux(struct peo_symbols *s)
{
	char *note;

	if (s->kallsyms)
		return 0; /* perf: a kallsyms file named is the only source */
	if (!s->vmlinux)
		return try_candidates(s);
	if (!try_vmlinux(s, s->vmlinux))
		return 1;
	if (asprintf(&note, "%s: the kernel's symbols come from %s instead", peo_last_error(),
		     s->kernel.nparts ? "kallsyms" : "nowhere (kallsyms has none)") < 0)
		note = NULL;
	sym_note_locked(s, note);
	free(note);
	return 0;
}
