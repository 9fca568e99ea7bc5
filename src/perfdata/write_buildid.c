/*
 * write_buildid.c - the BUILD_ID feature for the files samples
 * hit, as perf record writes it: the writer watches the records it is
 * given (MMAP and MMAP2 say which file each address range of a process
 * maps; each sample's ip names one), and at close reads the GNU build id of
 * every file hit and of the kernel (/sys/kernel/notes).  Only live
 * processes' maps are kept: FORK copies the parent's, an exec (COMM with
 * its exec bit) or EXIT drops them, so a recording of a system that forks
 * and execs for days holds what runs now, not all that ever ran.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/reader.h"
#include "perfdata/write.h"

#define NAME_ALIGN 64
#define MISC_BUILD_ID_SIZE (1u << 15)

struct hit_map {
	uint32_t pid;
	uint64_t start, end;
	size_t file;
};

struct pd_hits {
	struct peo_record_parser *parser;
	struct hit_map *maps;
	size_t nmaps, map_cap, last; /* last: the map the previous sample hit */
	char **files;
	unsigned char *hit;
	size_t nfiles;
	int kernel_hit;
};

int pd_hits_new(struct pd_hits **out, const struct peo_perfdata_writer *w)
{
	struct pd_hits *h = calloc(1, sizeof(*h));
	size_t n;
	const struct pd_event *ev = pd_writer_events(w, &n);
	int err;

	if (!h)
		return peo_fail(ENOMEM, "out of memory tracking build ids");
	err = peo_record_parser_new(&h->parser, NULL);

	for (size_t i = 0; !err && i < n; i++)
		err = peo_record_parser_add(h->parser, &ev[i].attr, ev[i].ids, ev[i].nids);
	if (err) {
		pd_hits_free(h);
		return err;
	}
	*out = h;
	return 0;
}

void pd_hits_free(struct pd_hits *h)
{
	if (!h)
		return;
	peo_record_parser_free(h->parser);
	for (size_t i = 0; i < h->nfiles; i++)
		free(h->files[i]);
	free(h->files);
	free(h->hit);
	free(h->maps);
	free(h);
}

/* The index of @name among the files, added when new; SIZE_MAX out of memory. */
static size_t file_index(struct pd_hits *h, const char *name)
{
	char **files;
	unsigned char *hit;

	for (size_t i = h->nfiles; i-- > 0;)
		if (!strcmp(h->files[i], name))
			return i;
	files = realloc(h->files, (h->nfiles + 1) * sizeof(*files));
	if (files)
		h->files = files;
	hit = realloc(h->hit, h->nfiles + 1);
	if (hit)
		h->hit = hit;
	if (!files || !hit || !(h->files[h->nfiles] = strdup(name)))
		return SIZE_MAX;
	h->hit[h->nfiles] = 0;
	return h->nfiles++;
}

/* Room for one more map; 0 when out of memory (a build id may then be
 * missing, the recording goes on). */
static int map_room(struct pd_hits *h)
{
	if (h->nmaps == h->map_cap) {
		size_t cap = h->map_cap ? 2 * h->map_cap : 64;
		struct hit_map *more = realloc(h->maps, cap * sizeof(*more));

		if (!more)
			return 0;
		h->maps = more;
		h->map_cap = cap;
	}
	return 1;
}

static void add_map(struct pd_hits *h, const struct peo_rec_mmap *m)
{
	size_t file;

	if (!m->filename || m->filename[0] != '/') /* [vdso], //anon, [kernel.kallsyms]_text */
		return;
	if (!map_room(h) || (file = file_index(h, m->filename)) == SIZE_MAX)
		return;
	h->maps[h->nmaps++] = (struct hit_map){ m->pid, m->addr, m->addr + m->len, file };
	h->last = SIZE_MAX; /* it may map over the last sample's map: the newest wins */
}

/* A new process starts with its parent's maps. */
static void fork_maps(struct pd_hits *h, uint32_t parent, uint32_t child)
{
	for (size_t i = 0, n = h->nmaps; i < n; i++)
		if (h->maps[i].pid == parent && map_room(h)) {
			h->maps[h->nmaps] = h->maps[i];
			h->maps[h->nmaps++].pid = child;
		}
}

/* A process that exec'd or exited: its maps go (the files stay, hit or not). */
static void drop_maps(struct pd_hits *h, uint32_t pid)
{
	size_t kept = 0;

	for (size_t i = 0; i < h->nmaps; i++)
		if (h->maps[i].pid != pid)
			h->maps[kept++] = h->maps[i];
	h->nmaps = kept;
	h->last = SIZE_MAX;
}

static int map_holds(const struct hit_map *m, uint32_t pid, uint64_t ip)
{
	return m->pid == pid && m->start <= ip && ip < m->end;
}

static void add_sample(struct pd_hits *h, uint16_t misc, uint32_t pid, uint64_t ip)
{
	const struct hit_map *m;

	if ((misc & PEO_RECORD_MISC_CPUMODE_MASK) == PEO_RECORD_MISC_KERNEL) {
		h->kernel_hit = 1;
		return;
	}
	if (h->last < h->nmaps && map_holds(&h->maps[h->last], pid, ip))
		return; /* the same map as the sample before: already marked */
	for (size_t i = h->nmaps; i-- > 0;) { /* the newest mapping of the address wins */
		m = &h->maps[i];
		if (map_holds(m, pid, ip)) {
			h->hit[m->file] = 1;
			h->last = i;
			return;
		}
	}
}

void pd_hits_records(struct pd_hits *h, const unsigned char *bytes, size_t len)
{
	for (size_t at = 0; len - at >= 8;) {
		struct peo_event_header hd;
		struct peo_record r;
		uint32_t pid;
		uint64_t ip;

		memcpy(&hd, bytes + at, sizeof(hd));
		if (hd.size < 8 || hd.size > len - at)
			return;
		if (hd.type == PEO_RECORD_SAMPLE) { /* the most of them: two fields read, no parse */
			if (peo_record_sample_pid_ip(h->parser, bytes + at, hd.size, &pid, &ip))
				add_sample(h, hd.misc, pid, ip);
		} else if ((hd.type == PEO_RECORD_MMAP || hd.type == PEO_RECORD_MMAP2 ||
			    hd.type == PEO_RECORD_FORK || hd.type == PEO_RECORD_EXIT ||
			    (hd.type == PEO_RECORD_COMM && (hd.misc & PEO_RECORD_MISC_COMM_EXEC))) &&
			   !peo_record_fill(h->parser, bytes + at, hd.size, &r)) {
			if (hd.type == PEO_RECORD_FORK && r.u.task.pid != r.u.task.ppid)
				fork_maps(h, r.u.task.ppid, r.u.task.pid);
			else if (hd.type == PEO_RECORD_EXIT && r.u.task.pid == r.u.task.tid)
				drop_maps(h, r.u.task.pid); /* the process, not one of its threads */
			else if (hd.type == PEO_RECORD_COMM)
				drop_maps(h, r.u.comm.pid); /* exec: a new image, whose MMAPs follow */
			else if (hd.type == PEO_RECORD_MMAP || hd.type == PEO_RECORD_MMAP2)
				add_map(h, &r.u.mmap);
		}
		at += hd.size;
	}
}

/* One BUILD_ID entry: header, pid, the id in 24 bytes (size at [20]), the name padded to 64. */
static void put_entry(struct pd_bytes *b, uint16_t misc, const uint8_t *id, size_t id_len,
		      const char *name)
{
	static const char zeros[NAME_ALIGN];
	size_t name_len = strlen(name) + 1, padded = (name_len + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
	struct peo_event_header h = { PEO_RECORD_HEADER_BUILD_ID,
				      (uint16_t)(misc | MISC_BUILD_ID_SIZE),
				      (uint16_t)(8 + 4 + 24 + padded) };
	uint8_t raw[24] = { 0 };
	int32_t pid = -1; /* the host machine, as perf writes it */

	memcpy(raw, id, id_len);
	raw[20] = (uint8_t)id_len;
	pd_bytes_put(b, &h, sizeof(h));
	pd_bytes_put(b, &pid, 4);
	pd_bytes_put(b, raw, sizeof(raw));
	pd_bytes_put(b, name, name_len);
	pd_bytes_put(b, zeros, padded - name_len);
}

int pd_hits_feature(struct peo_perfdata_writer *w, struct pd_hits *h)
{
	struct pd_bytes b = { 0 };
	uint8_t id[20];
	size_t id_len;
	int err;

	if (h->kernel_hit) {
		FILE *in = fopen("/sys/kernel/notes", "re");
		unsigned char notes[4096];
		size_t n = in ? fread(notes, 1, sizeof(notes), in) : 0;

		if (in)
			fclose(in);
		if (peo_notes_build_id(notes, n, 0, id, &id_len))
			put_entry(&b, PEO_RECORD_MISC_KERNEL, id, id_len, "[kernel.kallsyms]");
	}
	for (size_t i = 0; i < h->nfiles; i++)
		if (h->hit[i] && !peo_elf_build_id(h->files[i], id, &id_len))
			put_entry(&b, PEO_RECORD_MISC_USER, id, id_len, h->files[i]);
	if (!b.n)
		return 0;
	err = b.oom ? peo_fail(ENOMEM, "out of memory making BUILD_ID")
		    : peo_perfdata_writer_feature(w, PEO_FEAT_BUILD_ID, b.p, b.n);
	free(b.p);
	return err;
}
