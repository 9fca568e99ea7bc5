/*
 * typed.c - feature sections decoded into typed structs, each
 * read once into memory the reader keeps until it closes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/reader.h"

/* A read position in one feature section; the first failure sticks. */
struct fcur {
	struct pd_header *h;
	const unsigned char *p;
	size_t n, at;
	unsigned bit;
	int err;
};

static const char *const feature_names[] = {
	[PEO_FEAT_BUILD_ID] = "BUILD_ID", [PEO_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[PEO_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY", [PEO_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[PEO_FEAT_GROUP_DESC] = "GROUP_DESC", [PEO_FEAT_CACHE] = "CACHE",
	[PEO_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY", [PEO_FEAT_COMPRESSED] = "COMPRESSED",
	[PEO_FEAT_CLOCK_DATA] = "CLOCK_DATA", [PEO_FEAT_AUXTRACE] = "AUXTRACE",
	[PEO_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS", [PEO_FEAT_PMU_CAPS] = "PMU_CAPS",
	[PEO_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY", [PEO_FEAT_BPF_BTF] = "BPF_BTF",
	[PEO_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
};

static int fail_at(struct fcur *c, const char *what)
{
	if (!c->err)
		c->err = peo_fail(EPROTO, "perf.data: feature %s, %s at section byte %zu runs past "
				  "its %zu bytes", feature_names[c->bit] ? feature_names[c->bit] : "?",
				  what, c->at, c->n);
	return c->err;
}

/* A reader's header; NULL for none, which pd_header_feature() refuses. */
static struct pd_header *hdr_of(struct peo_perfdata *f)
{
	return f ? f->hdr : NULL;
}

static int open_cur(struct pd_header *h, unsigned bit, struct fcur *c)
{
	const void *b;
	size_t n;
	int err = pd_header_feature(h, bit, &b, &n);

	memset(c, 0, sizeof(*c));
	c->h = h;
	c->p = b;
	c->n = n;
	c->bit = bit;
	return err;
}

static uint32_t fu32(struct fcur *c, const char *what)
{
	if (c->err || c->n - c->at < 4 || c->at > c->n)
		return fail_at(c, what), 0;
	c->at += 4;
	return peo_pd_u32(c->h, c->p + c->at - 4);
}

static uint64_t fu64(struct fcur *c, const char *what)
{
	if (c->err || c->n - c->at < 8 || c->at > c->n)
		return fail_at(c, what), 0;
	c->at += 8;
	return peo_pd_u64(c->h, c->p + c->at - 8);
}

static const char *fstr(struct fcur *c, const char *what)
{
	const char *s = NULL;
	size_t used = c->err || c->at > c->n ? 0 : peo_pd_header_string(c->h, c->p + c->at,
									c->n - c->at, &s);

	if (!used)
		return fail_at(c, what), "";
	c->at += used;
	return s;
}

/* A count that @each-byte entries must fit in the rest of the section. */
static uint32_t fcount(struct fcur *c, size_t each, const char *what)
{
	uint32_t nr = fu32(c, what);

	if (!c->err && nr > (c->n - c->at) / each)
		return fail_at(c, what), 0;
	return nr;
}

/* Keep @mem as feature @bit's decoding, or give it back on failure. */
static int keep(struct fcur *c, void *mem, size_t n)
{
	if (c->err) {
		free(mem);
		return c->err;
	}
	c->h->decoded[c->bit] = mem;
	c->h->decoded_n[c->bit] = n;
	return 0;
}

/* Already decoded: hand it out again.  Returns 1 then. */
static int cached(struct peo_perfdata *f, unsigned bit, size_t *n)
{
	if (!f->hdr->decoded[bit])
		return 0;
	if (n)
		*n = f->hdr->decoded_n[bit];
	return 1;
}

/* Never from a count already found too large: c->err stops it. */
static void *alloc_n(struct fcur *c, size_t n, size_t each)
{
	void *m = c->err ? NULL : calloc(n ? n : 1, each);

	if (!m && !c->err)
		c->err = peo_fail(ENOMEM, "out of memory decoding a feature section");
	return m;
}

/*
 * A section that is a u32 count (after a u32 version, when @versioned) and
 * that many entries of at least @min_each bytes, each read by @one into an
 * array of @size-byte elements.
 */
static int decode_list(struct peo_perfdata *f, unsigned bit, int versioned, size_t min_each,
		       size_t size, void (*one)(struct fcur *c, void *elem), const void **list,
		       size_t *n)
{
	unsigned char *v;
	struct fcur c;
	uint32_t nr;

	if (cached(f, bit, n))
		return *list = f->hdr->decoded[bit], 0;
	if ((c.err = open_cur(hdr_of(f), bit, &c)))
		return c.err;
	if (versioned) {
		uint32_t version = fu32(&c, "the version");

		if (!c.err && version != 1)
			c.err = peo_fail(EPROTO, "perf.data: feature %s has version %u; peo reads 1",
					 feature_names[bit], version);
	}
	nr = fcount(&c, min_each, "the count");
	v = alloc_n(&c, nr, size);
	for (uint32_t i = 0; v && i < nr && !c.err; i++)
		one(&c, v + i * size);
	if (keep(&c, v, nr))
		return c.err;
	*list = v;
	*n = nr;
	return 0;
}

static void one_pmu(struct fcur *c, void *elem)
{
	struct peo_pmu_mapping *m = elem;

	m->type = fu32(c, "a type");
	m->name = fstr(c, "a name");
}

int peo_perfdata_pmu_mappings(struct peo_perfdata *f, const struct peo_pmu_mapping **list, size_t *n)
{
	return decode_list(f, PEO_FEAT_PMU_MAPPINGS, 0, 9, sizeof(**list), one_pmu,
			   (const void **)list, n);
}

static void one_group(struct fcur *c, void *elem)
{
	struct peo_group_desc *g = elem;

	g->name = fstr(c, "a group name");
	g->leader_idx = fu32(c, "a leader index");
	g->nr_members = fu32(c, "a member count");
}

int peo_perfdata_group_desc(struct peo_perfdata *f, const struct peo_group_desc **list, size_t *n)
{
	return decode_list(f, PEO_FEAT_GROUP_DESC, 0, 13, sizeof(**list), one_group,
			   (const void **)list, n);
}

static void one_node(struct fcur *c, void *elem)
{
	struct peo_numa_node *node = elem;

	node->node = fu32(c, "a node number");
	node->mem_total = fu64(c, "mem_total");
	node->mem_free = fu64(c, "mem_free");
	node->cpus = fstr(c, "a CPU list");
}

int peo_perfdata_numa_topology(struct peo_perfdata *f, const struct peo_numa_node **list, size_t *n)
{
	return decode_list(f, PEO_FEAT_NUMA_TOPOLOGY, 0, 25, sizeof(**list), one_node,
			   (const void **)list, n);
}

static void one_cache(struct fcur *c, void *elem)
{
	struct peo_cache_level *l = elem;

	l->level = fu32(c, "a level");
	l->line_size = fu32(c, "a line size");
	l->sets = fu32(c, "a set count");
	l->ways = fu32(c, "a way count");
	l->type = fstr(c, "a type");
	l->size = fstr(c, "a size");
	l->map = fstr(c, "a CPU map");
}

int peo_perfdata_cache(struct peo_perfdata *f, const struct peo_cache_level **list, size_t *n)
{
	return decode_list(f, PEO_FEAT_CACHE, 1, 31, sizeof(**list), one_cache,
			   (const void **)list, n);
}

/* u32 nr, then nr strings, into @out (allocated). */
static const char **string_list(struct fcur *c, size_t *n, const char *what)
{
	uint32_t nr = fcount(c, 5, what);
	const char **v = alloc_n(c, nr, sizeof(*v));

	for (uint32_t i = 0; v && i < nr && !c->err; i++)
		v[i] = fstr(c, what);
	*n = nr;
	return v;
}

int peo_perfdata_cpu_topology(struct peo_perfdata *f, const struct peo_cpu_topology **t)
{
	struct {
		struct peo_cpu_topology t;
		const char **lists[3];
		struct peo_topology_cpu *cpus;
	} *m;
	uint32_t avail = 0, online = 0;
	struct fcur c;

	if (cached(f, PEO_FEAT_CPU_TOPOLOGY, NULL))
		return *t = f->hdr->decoded[PEO_FEAT_CPU_TOPOLOGY], 0;
	if ((c.err = open_cur(hdr_of(f), PEO_FEAT_CPU_TOPOLOGY, &c)))
		return c.err;
	/* per-CPU ids come for every available CPU, which NRCPUS says */
	peo_perfdata_nrcpus(f, &avail, &online);
	m = alloc_n(&c, 1, sizeof(*m));
	if (!m)
		return c.err;
	m->lists[0] = string_list(&c, &m->t.ncore_siblings, "a core siblings list");
	m->lists[1] = string_list(&c, &m->t.nthread_siblings, "a thread siblings list");
	m->t.core_siblings = m->lists[0];
	m->t.thread_siblings = m->lists[1];
	if (!c.err && avail > (c.n - c.at) / 8)
		fail_at(&c, "the per-CPU core and socket ids");
	m->cpus = alloc_n(&c, avail, sizeof(*m->cpus));
	for (uint32_t i = 0; m->cpus && i < avail && !c.err; i++) {
		m->cpus[i].core_id = fu32(&c, "a core id");
		m->cpus[i].socket_id = fu32(&c, "a socket id");
	}
	m->t.cpus = m->cpus;
	m->t.ncpus = avail;
	if (!c.err && c.at < c.n) { /* the die part, added later */
		m->lists[2] = string_list(&c, &m->t.ndie_siblings, "a die siblings list");
		m->t.die_siblings = m->lists[2];
		for (uint32_t i = 0; m->cpus && i < avail && !c.err; i++)
			m->cpus[i].die_id = fu32(&c, "a die id");
		m->t.has_dies = !c.err;
	}
	if (c.err) {
		free(m->lists[0]);
		free(m->lists[1]);
		free(m->lists[2]);
		free(m->cpus);
	}
	if (keep(&c, m, 1))
		return c.err;
	*t = &m->t;
	return 0;
}

int peo_perfdata_compressed(struct peo_perfdata *f, struct peo_compressed *out)
{
	return pd_header_compressed(hdr_of(f), out);
}

int pd_header_compressed(struct pd_header *h, struct peo_compressed *out)
{
	struct fcur c;

	if ((c.err = PEO_SIZED(out, peo_compressed, PEO_COMPRESSED_SZ_0_1)) ||
	    (c.err = open_cur(h, PEO_FEAT_COMPRESSED, &c)))
		return c.err;
	out->version = fu32(&c, "the version");
	out->type = fu32(&c, "the type");
	out->level = fu32(&c, "the level");
	out->ratio = fu32(&c, "the ratio");
	out->mmap_len = fu32(&c, "mmap_len");
	return c.err;
}

int peo_perfdata_clock_data(struct peo_perfdata *f, struct peo_clock_data *out)
{
	struct fcur c;

	if ((c.err = PEO_SIZED(out, peo_clock_data, PEO_CLOCK_DATA_SZ_0_1)) ||
	    (c.err = open_cur(hdr_of(f), PEO_FEAT_CLOCK_DATA, &c)))
		return c.err;
	out->version = fu32(&c, "the version");
	out->clockid = fu32(&c, "the clockid");
	out->wall_clock_ns = fu64(&c, "wall_clock_ns");
	out->clockid_time_ns = fu64(&c, "clockid_time_ns");
	return c.err;
}

int peo_perfdata_mem_topology(struct peo_perfdata *f, struct peo_mem_topology *out)
{
	struct fcur c;

	if ((c.err = PEO_SIZED(out, peo_mem_topology, PEO_MEM_TOPOLOGY_SZ_0_1)) ||
	    (c.err = open_cur(hdr_of(f), PEO_FEAT_MEM_TOPOLOGY, &c)))
		return c.err;
	out->version = fu64(&c, "the version");
	out->block_size = fu64(&c, "the block size");
	out->count = fu64(&c, "the node count");
	return c.err;
}

/* BUILD_ID: records {header; pid; build_id[24] (20 bytes, size, 3 pad); filename}. */
int peo_perfdata_build_ids(struct peo_perfdata *f, const struct peo_build_id **list, size_t *n)
{
	struct peo_build_id *v = NULL, *more;
	size_t count = 0;
	struct fcur c;

	if (cached(f, PEO_FEAT_BUILD_ID, n))
		return *list = f->hdr->decoded[PEO_FEAT_BUILD_ID], 0;
	if ((c.err = open_cur(hdr_of(f), PEO_FEAT_BUILD_ID, &c)))
		return c.err;
	while (!c.err && c.at < c.n) {
		size_t start = c.at, size;
		const unsigned char *id;

		if (c.n - c.at < 8 + 4 + 24)
			break; /* padding at the end */
		size = peo_load_u16(c.p + c.at + 6, f->hdr->swap); /* the record header's size */
		if (size < 8 + 4 + 24 || size > c.n - c.at) {
			fail_at(&c, "a build id record's size");
			break;
		}
		more = realloc(v, (count + 1) * sizeof(*v));
		if (!more) {
			c.err = peo_fail(ENOMEM, "out of memory for build ids");
			break;
		}
		v = more;
		v[count].misc = peo_load_u16(c.p + c.at + 4, f->hdr->swap);
		v[count].pid = (int32_t)peo_pd_u32(f->hdr, c.p + c.at + 8);
		id = c.p + c.at + 12;
		v[count].id = id;
		v[count].size = (v[count].misc & (1u << 15)) && id[20] <= 20 ? id[20] : 20;
		v[count].filename = (const char *)c.p + c.at + 36;
		if (!memchr(v[count].filename, '\0', size - 36)) {
			c.at += 36;
			fail_at(&c, "a file name without its NUL");
			break;
		}
		count++;
		c.at = start + size;
	}
	if (keep(&c, v, count))
		return c.err;
	*list = v;
	*n = count;
	return 0;
}

int peo_perfdata_auxtrace_index(struct peo_perfdata *f, const struct peo_auxtrace_entry **list,
				size_t *n)
{
	struct peo_auxtrace_entry *v;
	struct fcur c;
	uint64_t nr;

	if (cached(f, PEO_FEAT_AUXTRACE, n))
		return *list = f->hdr->decoded[PEO_FEAT_AUXTRACE], 0;
	if ((c.err = open_cur(hdr_of(f), PEO_FEAT_AUXTRACE, &c)))
		return c.err;
	nr = fu64(&c, "the count"); /* a u64 count here, unlike the others */
	if (!c.err && nr > (c.n - c.at) / 16)
		fail_at(&c, "the entries");
	v = alloc_n(&c, (size_t)nr, sizeof(*v));
	for (uint64_t i = 0; v && i < nr && !c.err; i++) {
		v[i].file_offset = fu64(&c, "a file offset");
		v[i].size = fu64(&c, "a size");
	}
	if (keep(&c, v, (size_t)nr))
		return c.err;
	*list = v;
	*n = (size_t)nr;
	return 0;
}

static void one_cap(struct fcur *c, void *elem)
{
	struct peo_pmu_cap *cap = elem;

	cap->name = fstr(c, "a capability name");
	cap->value = fstr(c, "a capability value");
}

int peo_perfdata_cpu_pmu_caps(struct peo_perfdata *f, const struct peo_pmu_cap **list, size_t *n)
{
	return decode_list(f, PEO_FEAT_CPU_PMU_CAPS, 0, 10, sizeof(**list), one_cap,
			   (const void **)list, n);
}

static void one_hybrid(struct fcur *c, void *elem)
{
	struct peo_hybrid_node *h = elem;

	h->pmu = fstr(c, "a PMU name");
	h->cpus = fstr(c, "a CPU list");
}

int peo_perfdata_hybrid_topology(struct peo_perfdata *f, const struct peo_hybrid_node **list,
				 size_t *n)
{
	return decode_list(f, PEO_FEAT_HYBRID_TOPOLOGY, 0, 10, sizeof(**list), one_hybrid,
			   (const void **)list, n);
}

static void one_btf(struct fcur *c, void *elem)
{
	struct peo_bpf_btf *b = elem;

	b->id = fu32(c, "a BTF id");
	b->size = fu32(c, "a BTF size");
	if (!c->err && b->size > c->n - c->at)
		fail_at(c, "a BTF blob");
	b->data = c->p + c->at;
	if (!c->err)
		c->at += b->size;
}

int peo_perfdata_bpf_btf(struct peo_perfdata *f, const struct peo_bpf_btf **list, size_t *n)
{
	return decode_list(f, PEO_FEAT_BPF_BTF, 0, 8, sizeof(**list), one_btf, (const void **)list,
			   n);
}

/* perf_bpil: u32 info_len, u32 data_len, u64 arrays, then info and data. */
static void one_prog(struct fcur *c, void *elem)
{
	struct peo_bpf_prog_info *b = elem;

	b->info_len = fu32(c, "an info length");
	b->data_len = fu32(c, "a data length");
	fu64(c, "the arrays mask");
	if (!c->err && (uint64_t)b->info_len + b->data_len > c->n - c->at)
		fail_at(c, "a program's info and data");
	b->info = c->p + c->at;
	b->data = c->p + c->at + b->info_len;
	if (!c->err)
		c->at += (size_t)b->info_len + b->data_len;
}

int peo_perfdata_bpf_prog_info(struct peo_perfdata *f, const struct peo_bpf_prog_info **list,
			       size_t *n)
{
	return decode_list(f, PEO_FEAT_BPF_PROG_INFO, 0, 16, sizeof(**list), one_prog,
			   (const void **)list, n);
}

/* PMU_CAPS's decoding: the PMUs, and one array of all their capabilities. */
struct pmu_caps_mem {
	struct peo_pmu_caps *pmus;
	struct peo_pmu_cap *caps;
};

/* PMU_CAPS: u32 nr_pmu; per PMU: u32 nr_caps, the caps, then its name. */
int peo_perfdata_pmu_caps(struct peo_perfdata *f, const struct peo_pmu_caps **list, size_t *n)
{
	struct pmu_caps_mem *m;
	struct fcur c;
	uint32_t nr;
	size_t ncaps = 0, used = 0;

	if (cached(f, PEO_FEAT_PMU_CAPS, n))
		return *list = ((struct pmu_caps_mem *)f->hdr->decoded[PEO_FEAT_PMU_CAPS])->pmus, 0;
	if ((c.err = open_cur(hdr_of(f), PEO_FEAT_PMU_CAPS, &c)))
		return c.err;
	nr = fcount(&c, 9, "the PMU count");
	/* every capability takes at least 10 bytes: bound the array by the section */
	ncaps = c.err ? 0 : (c.n - c.at) / 10;
	m = alloc_n(&c, 1, sizeof(*m));
	if (m) {
		m->pmus = alloc_n(&c, nr, sizeof(*m->pmus));
		m->caps = alloc_n(&c, ncaps, sizeof(*m->caps));
	}
	for (uint32_t i = 0; m && m->pmus && m->caps && i < nr && !c.err; i++) {
		uint32_t k = fcount(&c, 10, "a capability count");

		m->pmus[i].caps = m->caps + used;
		m->pmus[i].ncaps = k;
		for (uint32_t j = 0; j < k && !c.err && used < ncaps; j++)
			one_cap(&c, &m->caps[used++]);
		m->pmus[i].pmu = fstr(&c, "a PMU name");
	}
	if (c.err && m) {
		free(m->pmus);
		free(m->caps);
	}
	if (keep(&c, m, nr))
		return c.err;
	*list = m->pmus;
	*n = nr;
	return 0;
}

void peo_pd_typed_forget(struct pd_header *h, unsigned bit)
{
	const struct peo_cpu_topology *t = h->decoded[bit];

	if (t && bit == PEO_FEAT_CPU_TOPOLOGY) { /* the lists and cpus hang off it */
		free((void *)(uintptr_t)t->core_siblings);
		free((void *)(uintptr_t)t->thread_siblings);
		free((void *)(uintptr_t)t->die_siblings);
		free((void *)(uintptr_t)t->cpus);
	}
	if (h->decoded[bit] && bit == PEO_FEAT_PMU_CAPS) { /* so do its two arrays */
		struct pmu_caps_mem *m = h->decoded[bit];

		free(m->pmus);
		free(m->caps);
	}
	free(h->decoded[bit]);
	h->decoded[bit] = NULL;
}

void peo_pd_typed_free(struct pd_header *h)
{
	for (unsigned i = 0; i < PEO_FEAT_MAX; i++)
		peo_pd_typed_forget(h, i);
}
