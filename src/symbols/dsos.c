/*
 * symbols/dsos.c - the binaries of a peo_symbols by name, each read once
 * (under the lock: the first thread to need one reads it, the others
 * wait), the kernel's symbols likewise, and the notes of what hid symbols.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/dso.h"
#include "symbols/inflated.h"
#include "symbols/maps.h"

static uint64_t hash_name(const char *name)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 1099511628211ull;
	return h;
}

static int grow(struct peo_symbols *s)
{
	size_t n = s->nbuckets ? s->nbuckets * 2 : 64;
	struct sym_dso **b = calloc(n, sizeof(*b));

	if (!b)
		return peo_fail(ENOMEM, "out of memory for %zu binaries", s->n);
	for (size_t i = 0; i < s->nbuckets; i++)
		for (struct sym_dso *d = s->buckets[i], *next; d; d = next) {
			next = d->next;
			d->next = b[hash_name(d->name) & (n - 1)];
			b[hash_name(d->name) & (n - 1)] = d;
		}
	free(s->buckets);
	s->buckets = b;
	s->nbuckets = n;
	return 0;
}

static struct sym_dso *find_or_add(struct peo_symbols *s, const char *name, const uint8_t *id,
				   size_t id_len)
{
	struct sym_dso *d;

	if (s->nbuckets)
		for (d = s->buckets[hash_name(name) & (s->nbuckets - 1)]; d; d = d->next)
			if (!strcmp(d->name, name))
				goto found;
	if ((s->n + 1) * 2 > s->nbuckets && grow(s))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->name = strdup(name))) {
		free(d);
		peo_fail(ENOMEM, "out of memory for binary %s", name);
		return NULL;
	}
	pthread_mutex_init(&d->load, NULL);
	d->inflated = -2;
	d->debug_cache = s->debug_cache;
	d->kind = sym_maps_identity(name, 0) ? SYM_DSO_ANON
		  : !strcmp(name, "[vdso]") ? SYM_DSO_VDSO
		  : !strncmp(name, "/tmp/perf-", 10) && strstr(name, ".map") ? SYM_DSO_JIT
		  : name[0] == '[' ? SYM_DSO_SPECIAL : SYM_DSO_FILE;
	d->next = s->buckets[hash_name(name) & (s->nbuckets - 1)];
	s->buckets[hash_name(name) & (s->nbuckets - 1)] = d;
	s->n++;
found:
	if (id_len && !d->build_id_len && id_len <= sizeof(d->build_id)) {
		memcpy(d->build_id, id, id_len);
		d->build_id_len = id_len;
	}
	return d;
}

struct sym_dso *sym_dso_get(struct peo_symbols *s, const char *name, const uint8_t *build_id,
			    size_t build_id_len)
{
	struct sym_dso *d;

	pthread_mutex_lock(&s->lock);
	d = find_or_add(s, name, build_id, build_id_len);
	pthread_mutex_unlock(&s->lock);
	return d;
}

void sym_note_locked(struct peo_symbols *s, const char *sentence)
{
	char **more, *copy;

	if (!sentence)
		sentence = peo_last_error();
	for (size_t i = 0; i < s->nnotes; i++)
		if (!strcmp(s->notes[i], sentence))
			return;
	/* out of memory, the note is lost: the frames still say [unknown] */
	if (!(copy = strdup(sentence)))
		return;
	if (!(more = realloc(s->notes, (s->nnotes + 1) * sizeof(*more)))) {
		free(copy);
		return;
	}
	s->notes = more;
	s->notes[s->nnotes++] = copy;
}

const struct sym_binary *sym_dso_binary(struct peo_symbols *s, struct sym_dso *d)
{
	int state = atomic_load_explicit(&d->state, memory_order_acquire);
	uint8_t id[sizeof(d->build_id)];
	struct sym_load how = { .path = d->name, .symfs = s->symfs, .build_id = id,
				.demangle = !s->opts.no_demangle };
	int err;

	if (state)
		return state > 0 ? &d->bin : NULL;
	if (d->kind == SYM_DSO_ANON || d->kind == SYM_DSO_SPECIAL)
		return NULL;
	pthread_mutex_lock(&d->load); /* the lookups of other binaries go on meanwhile */
	if (d->state) {
		pthread_mutex_unlock(&d->load);
		return d->state > 0 ? &d->bin : NULL;
	}
	pthread_mutex_lock(&s->lock); /* a build id may be added meanwhile */
	how.build_id_len = d->build_id_len;
	memcpy(id, d->build_id, sizeof(id));
	pthread_mutex_unlock(&s->lock);
	if (!how.build_id_len)
		how.build_id = NULL;
	err = d->kind == SYM_DSO_JIT ? sym_jitmap_load(d->name, &d->bin) : sym_binary_load(&how, &d->bin);
	if (err && d->kind == SYM_DSO_VDSO) /* no cache copy: ours, if it is the same */
		err = sym_vdso_load(&how, &d->bin);
	pthread_mutex_lock(&s->lock);
	if (err)
		sym_note_locked(s, NULL);
	else if (d->bin.note)
		sym_note_locked(s, d->bin.note);
	pthread_mutex_unlock(&s->lock);
	atomic_store_explicit(&d->state, err ? -1 : 1, memory_order_release);
	pthread_mutex_unlock(&d->load);
	return err ? NULL : &d->bin;
}

/* Whether @d's symbols came from a separate debug file: the one its DWARF is read from. */
static int has_debug_file(struct sym_dso *d)
{
	const struct sym_binary *b = &d->bin;

	return atomic_load_explicit(&d->state, memory_order_acquire) > 0 && b->symbols_from &&
	       (!b->file || strcmp(b->symbols_from, b->file));
}

/* d->inflated made, once (under d->load). */
static void prepare_debug_file(struct sym_dso *d)
{
	int fd;

	if (d->inflated != -2)
		return;
	fd = open(d->bin.symbols_from, O_RDONLY | O_CLOEXEC);
	d->inflated = fd < 0 ? -1 : sym_inflated_copy(fd, d->debug_cache);
	if (d->inflated < 0)
		d->inflated = fd; /* nothing to inflate (or no libdeflate): the file itself */
	else
		close(fd);
}

int sym_dso_debug_fd(struct sym_dso *d, char **name)
{
	int copy = -1;

	if (!has_debug_file(d))
		return -1; /* libdwfl's own search, for the binary's own DWARF */
	pthread_mutex_lock(&d->load);
	prepare_debug_file(d);
	if (d->inflated >= 0)
		copy = fcntl(d->inflated, F_DUPFD_CLOEXEC, 0);
	pthread_mutex_unlock(&d->load);
	if (copy >= 0 && !(*name = strdup(d->bin.symbols_from))) {
		close(copy);
		copy = -1;
	}
	return copy;
}

/* The part a kernel map's @filename names: "[kernel.kallsyms]" for the
 * kernel's text, "[name]" for a module's path (.../name.ko[.xz], its
 * dashes read as underscores, as the kernel names modules); NULL else. */
static char *part_of(const char *filename)
{
	const char *base = strrchr(filename, '/'), *ko;
	char *part;

	if (!strncmp(filename, "[kernel.kallsyms]", 17))
		return strdup("[kernel.kallsyms]");
	base = base ? base + 1 : filename;
	if (filename[0] != '/' || !(ko = strstr(base, ".ko")) || ko == base)
		return NULL;
	if (!(part = malloc((size_t)(ko - base) + 3)))
		return NULL;
	part[0] = '[';
	for (size_t i = 0; i < (size_t)(ko - base); i++)
		part[i + 1] = base[i] == '-' ? '_' : base[i];
	part[ko - base + 1] = ']';
	part[ko - base + 2] = '\0';
	return part;
}

static int is_kernel_part(const char *filename)
{
	char *part = part_of(filename);
	int is = part != NULL;

	free(part);
	return is;
}

/* Apply the recording's ranges to the kernel read (under s->lock). */
static void apply_kranges(struct peo_symbols *s)
{
	for (size_t i = 0; i < s->nkranges; i++)
		if (sym_kernel_set_range(&s->kernel, s->kranges[i].part, s->kranges[i].start,
					 s->kranges[i].end))
			sym_note_locked(s, NULL);
}

/* The kernel map's reference symbol ("_text" of "[kernel.kallsyms]_text")
 * at @pgoff, kept for a vmlinux's relocation; perf ignores a zero (the
 * address was hidden from perf record).  Under s->lock. */
static int note_kref(struct peo_symbols *s, const char *filename, uint64_t pgoff)
{
	char *name;

	if (!pgoff || strncmp(filename, "[kernel.kallsyms]", 17) || !filename[17])
		return 0;
	if (!(name = strdup(filename + 17)))
		return peo_fail(ENOMEM, "out of memory for the kernel's maps");
	free(s->kref_name);
	s->kref_name = name;
	s->kref_addr = pgoff;
	return 0;
}

int sym_symbols_kernel_map(struct peo_symbols *s, const char *filename, uint64_t start,
			   uint64_t len, uint64_t pgoff)
{
	struct sym_krange *more;
	char *part = filename ? part_of(filename) : NULL;
	int err = 0;

	if (!part)
		return 0; /* not the kernel's text or a module: no part takes it */
	pthread_mutex_lock(&s->lock);
	if (!s->kernel_state && (err = note_kref(s, filename, pgoff)))
		goto out;
	for (size_t i = 0; i < s->nkranges; i++)
		if (!strcmp(s->kranges[i].part, part) && s->kranges[i].start == start &&
		    s->kranges[i].end == start + len)
			goto out; /* known (each worker replays the same records) */
	if (s->kernel_state) { /* read already: lookups use it without the lock */
		sym_note_locked(s, "the recording maps the kernel again after its first "
				   "kernel sample; the first map is kept");
		goto out;
	}
	if (!(more = realloc(s->kranges, (s->nkranges + 1) * sizeof(*more)))) {
		err = peo_fail(ENOMEM, "out of memory for the kernel's maps");
		goto out;
	}
	s->kranges = more;
	s->kranges[s->nkranges++] = (struct sym_krange){ part, start, start + len };
	part = NULL;
out:
	pthread_mutex_unlock(&s->lock);
	free(part);
	return err;
}

/* perf's build-id cache copy of the recorded kernel's kallsyms (saved by
 * perf record: ~/.debug/[kernel.kallsyms]/ID/kallsyms), when the
 * recording gives the kernel's build id and the copy is there: what perf
 * script reads, a file and not the running kernel's (which may be
 * another boot's).  NULL else; the caller frees it.  Under s->lock. */
const uint8_t *sym_symbols_kernel_build_id(struct peo_symbols *s, size_t *len)
{
	const struct sym_dso *d = NULL;

	if (s->nbuckets)
		for (d = s->buckets[hash_name("[kernel.kallsyms]") & (s->nbuckets - 1)]; d;
		     d = d->next)
			if (!strcmp(d->name, "[kernel.kallsyms]"))
				break;
	*len = d ? d->build_id_len : 0;
	return *len ? d->build_id : NULL;
}

static char *cached_kallsyms(struct peo_symbols *s)
{
	const char *home = getenv("HOME");
	const uint8_t *id;
	size_t len;
	char hex[41], *path;

	pthread_mutex_lock(&s->lock);
	id = s->kallsyms || !home ? NULL : sym_symbols_kernel_build_id(s, &len);
	for (size_t i = 0; id && i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	pthread_mutex_unlock(&s->lock);
	if (!id || asprintf(&path, "%s/.debug/[kernel.kallsyms]/%s/kallsyms", home, hex) < 0)
		return NULL;
	if (access(path, R_OK)) {
		free(path);
		return NULL;
	}
	return path;
}

/* kallsyms read into s->kernel, once (under s->kernel_load): all that
 * needs no record, so peo_symbols_preload() can do it ahead. */
static void read_kallsyms(struct peo_symbols *s)
{
	char *cached;
	int err;

	if (s->kernel_read)
		return;
	cached = cached_kallsyms(s);
	err = sym_kernel_load(cached ? cached : s->kallsyms, &s->kernel);
	free(cached);
	s->kernel_why = err ? strdup(peo_last_error()) : NULL;
	s->kernel_read = err ? -1 : 1;
}

const struct sym_kernel *sym_symbols_kernel(struct peo_symbols *s)
{
	if (atomic_load_explicit(&s->kernel_state, memory_order_acquire))
		return &s->kernel;
	pthread_mutex_lock(&s->kernel_load);
	read_kallsyms(s);
	pthread_mutex_lock(&s->lock);
	if (!s->kernel_state) { /* the recording's maps, known by the first lookup */
		int vmlinux = sym_symbols_vmlinux(s), err = s->kernel_read < 0;

		if (err && !vmlinux)
			sym_note_locked(s, s->kernel_why);
		else if (s->kernel.hidden && !vmlinux)
			sym_note_locked(s, s->kernel.hidden);
		else
			apply_kranges(s);
		atomic_store_explicit(&s->kernel_state, err && !vmlinux ? -1 : 1,
				      memory_order_release);
	}
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&s->kernel_load);
	return &s->kernel;
}

int peo_symbols_preload(struct peo_symbols *s, unsigned what)
{
	const unsigned known = PEO_PRELOAD_KERNEL | PEO_PRELOAD_BINARIES | PEO_PRELOAD_DWARF;
	struct sym_dso **todo = NULL;
	size_t n = 0;

	if (!s)
		return peo_fail(EINVAL, "peo_symbols_preload: argument 's' is NULL");
	if (!(what & known) || (what & ~known) ||
	    (what & (PEO_PRELOAD_BINARIES | PEO_PRELOAD_DWARF)) == PEO_PRELOAD_DWARF)
		return peo_fail(EINVAL, "peo_symbols_preload: 'what' is 0x%x: give "
				"PEO_PRELOAD_KERNEL, PEO_PRELOAD_BINARIES (with PEO_PRELOAD_DWARF) "
				"or both", what);
	if (what & PEO_PRELOAD_KERNEL) {
		pthread_mutex_lock(&s->kernel_load);
		read_kallsyms(s);
		pthread_mutex_unlock(&s->kernel_load);
	}
	if (!(what & PEO_PRELOAD_BINARIES))
		return 0;
	pthread_mutex_lock(&s->lock);
	if (s->n && (todo = malloc(s->n * sizeof(*todo))))
		for (size_t i = 0; i < s->nbuckets; i++)
			for (struct sym_dso *d = s->buckets[i]; d; d = d->next)
				if (d->build_id_len && !is_kernel_part(d->name))
					todo[n++] = d; /* the kernel's and modules' are kallsyms' */
	pthread_mutex_unlock(&s->lock);
	if (s->n && !todo)
		return peo_fail(ENOMEM, "out of memory for the list of binaries to read");
	for (size_t i = 0; i < n; i++) {
		/* one that cannot be read leaves its note */
		if (sym_dso_binary(s, todo[i]) && (what & PEO_PRELOAD_DWARF) && has_debug_file(todo[i])) {
			pthread_mutex_lock(&todo[i]->load);
			prepare_debug_file(todo[i]);
			pthread_mutex_unlock(&todo[i]->load);
		}
	}
	free(todo);
	return 0;
}
