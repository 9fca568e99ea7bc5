/*
 * features.c - feature sections: their bytes, strings, and the
 * event names of EVENT_DESC.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/reader.h"

int peo_perfdata_feature(struct peo_perfdata *f, unsigned bit, const void **bytes, size_t *size)
{
	return pd_header_feature(f ? f->hdr : NULL, bit, bytes, size);
}

int pd_header_feature(struct pd_header *h, unsigned bit, const void **bytes, size_t *size)
{
	const struct pd_section *s;
	int err;

	if (!h || !bytes || !size)
		return peo_fail(EINVAL, "peo_perfdata_feature: a NULL argument");
	if (bit >= PEO_FEAT_MAX || !h->has_feature[bit])
		return peo_fail(ENOENT, "perf.data: no feature section %u", bit);
	s = &h->features[bit];
	if (h->pipe && !h->feature_bytes[bit]) /* pipe mode keeps what arrived */
		return peo_fail(ENOENT, "perf.data: no feature section %u", bit);
	if (!h->feature_bytes[bit]) {
		void *b = malloc(s->size ? (size_t)s->size : 1);

		if (!b)
			return peo_fail(ENOMEM, "out of memory for feature %u (%llu bytes)", bit,
					(unsigned long long)s->size);
		err = pd_source_read_at(h->src, s->offset, b, (size_t)s->size, "a feature section");
		if (err) {
			free(b);
			return err;
		}
		h->feature_bytes[bit] = b;
	}
	*bytes = h->feature_bytes[bit];
	*size = (size_t)s->size;
	return 0;
}

/*
 * A perf_header_string at @p (@avail bytes): u32 len, then len bytes
 * holding a NUL-terminated string (padded).  Returns its bytes used, or 0.
 */
size_t peo_pd_header_string(const struct pd_header *h, const unsigned char *p, size_t avail,
			    const char **s)
{
	uint32_t len;

	if (avail < 4)
		return 0;
	len = peo_pd_u32(h, p);
	if (len == 0 || len > avail - 4 || !memchr(p + 4, '\0', len))
		return 0;
	*s = (const char *)p + 4;
	return 4 + (size_t)len;
}

int peo_perfdata_feature_string(struct peo_perfdata *f, unsigned bit, const char **s)
{
	const void *b;
	size_t n = 0;
	int err = peo_perfdata_feature(f, bit, &b, &n);

	if (err)
		return err;
	if (!peo_pd_header_string(f->hdr, b, n, s))
		return peo_fail(EPROTO, "perf.data: feature %u at offset %llu: its string (length "
				"%llu) runs past the section's %zu bytes or has no NUL", bit,
				(unsigned long long)f->hdr->features[bit].offset,
				n >= 4 ? (unsigned long long)peo_pd_u32(f->hdr, b) : 0ULL, n);
	return 0;
}

/* EVENT_DESC: u32 nr, attr_size; then per event: attr, u32 nr_ids, string, ids. */
static void read_event_names(struct peo_perfdata *f)
{
	const unsigned char *p = NULL;
	const void *b;
	size_t n, at = 8;
	uint32_t nr, attr_size;

	f->hdr->names_read = 1;
	if (!f->hdr->has_feature[PEO_FEAT_EVENT_DESC] ||
	    peo_perfdata_feature(f, PEO_FEAT_EVENT_DESC, &b, &n) || n < 8)
		return;
	p = b;
	nr = peo_pd_u32(f->hdr, p);
	attr_size = peo_pd_u32(f->hdr, p + 4);
	for (uint32_t i = 0; i < nr && i < f->hdr->nevents; i++) {
		const char *name;
		size_t used;
		uint32_t nids;

		if (attr_size > n - at || n - at - attr_size < 4)
			return;
		at += attr_size;
		nids = peo_pd_u32(f->hdr, p + at);
		at += 4;
		used = peo_pd_header_string(f->hdr, p + at, n - at, &name);
		if (!used)
			return;
		at += used;
		if (nids > (n - at) / 8)
			return;
		at += 8 * (size_t)nids;
		if (!f->hdr->events[i].name)
			f->hdr->events[i].name = strdup(name);
	}
}

const char *peo_perfdata_event_name(const struct peo_perfdata *f, size_t i)
{
	struct peo_perfdata *m = (struct peo_perfdata *)(uintptr_t)f; /* names are read lazily */

	if (!f || i >= f->hdr->nevents)
		return NULL;
	if (!m->hdr->names_read)
		read_event_names(m);
	/* No EVENT_DESC (a recording cut short): the generic name of the attr, as perf */
	return f->hdr->events[i].name ? f->hdr->events[i].name
				 : peo_symbolic_name(f->hdr->events[i].attr.type, f->hdr->events[i].attr.config);
}

/* Feature @bit's bytes, at least @need of them. */
static int feature_at_least(struct peo_perfdata *f, unsigned bit, size_t need,
			    const unsigned char **p, size_t *n)
{
	const void *b;
	int err = peo_perfdata_feature(f, bit, &b, n);

	if (err)
		return err;
	if (*n < need)
		return peo_fail(EPROTO, "perf.data: feature %u is %zu bytes, under the %zu it needs",
				bit, *n, need);
	*p = b;
	return 0;
}

int peo_perfdata_feature_u64(struct peo_perfdata *f, unsigned bit, uint64_t *out)
{
	const unsigned char *p = NULL;
	size_t n = 0;
	int err = feature_at_least(f, bit, 8, &p, &n);

	if (!err)
		*out = peo_pd_u64(f->hdr, p);
	return err;
}

int peo_perfdata_nrcpus(struct peo_perfdata *f, uint32_t *available, uint32_t *online)
{
	const unsigned char *p = NULL;
	size_t n = 0;
	int err = feature_at_least(f, PEO_FEAT_NRCPUS, 8, &p, &n);

	if (!err) {
		*available = peo_pd_u32(f->hdr, p);
		*online = peo_pd_u32(f->hdr, p + 4);
	}
	return err;
}

int peo_perfdata_sample_time(struct peo_perfdata *f, uint64_t *first, uint64_t *last)
{
	const unsigned char *p = NULL;
	size_t n = 0;
	int err = feature_at_least(f, PEO_FEAT_SAMPLE_TIME, 16, &p, &n);

	if (!err) {
		*first = peo_pd_u64(f->hdr, p);
		*last = peo_pd_u64(f->hdr, p + 8);
	}
	return err;
}

int peo_perfdata_feature_strings(struct peo_perfdata *f, unsigned bit, const char *const **list,
				 size_t *count)
{
	const unsigned char *p = NULL;
	const char **v;
	size_t n, at = 4;
	uint32_t nr;
	int err = feature_at_least(f, bit, 4, &p, &n);

	if (err)
		return err;
	if (f->hdr->feature_lists[bit]) {
		*list = (const char *const *)f->hdr->feature_lists[bit];
		*count = f->hdr->feature_list_len[bit];
		return 0;
	}
	nr = peo_pd_u32(f->hdr, p);
	if (nr > (n - 4) / 5) /* every string takes at least 5 bytes */
		return peo_fail(EPROTO, "perf.data: feature %u says %u strings, more than its %zu "
				"bytes can hold", bit, nr, n);
	v = calloc(nr ? nr : 1, sizeof(*v));
	if (!v)
		return peo_fail(ENOMEM, "out of memory for %u strings", nr);
	for (uint32_t i = 0; i < nr; i++) {
		size_t used = peo_pd_header_string(f->hdr, p + at, n - at, &v[i]);

		if (!used) {
			free(v);
			return peo_fail(EPROTO, "perf.data: feature %u, string %u at section byte %zu "
					"runs past the section or has no NUL", bit, i, at);
		}
		at += used;
	}
	f->hdr->feature_lists[bit] = v;
	f->hdr->feature_list_len[bit] = nr;
	*list = (const char *const *)v;
	*count = nr;
	return 0;
}
