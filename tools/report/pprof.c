/*
 * report/pprof.c - peo report --pprof FILE.pb.gz: the profile in pprof's
 * format (profile.proto, encoded by protobuf-c, gzipped by libdeflate),
 * what go tool pprof and the continuous-profiling backends (Pyroscope,
 * Parca, Google Cloud Profiler) read.  Each event has two values: its
 * samples ("samples", count) and their periods ("cpu", nanoseconds for a
 * clock event; the event's name and "count" else).  A stack is a
 * Sample, labelled with its comm, pid, tid and cpu; a frame a Location
 * at its address, whose Lines name the function and its source line
 * (functions inlined there first, as pprof lists them); each binary a
 * Mapping with its recorded build id, placed so that address - start is
 * the file offset, for a backend that symbolizes on another machine.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

#ifndef PEO_HAVE_PPROF
int report_pprof(struct report_data *d, const char *path, const char *input)
{
	(void)d, (void)path, (void)input;
	fprintf(stderr, "peo report: --pprof: this peo was built without protobuf-c; install "
		"protobuf-c-compiler and libprotobuf-c-dev, then build again\n");
	return -1;
}
#else
#include "report/profile.pb-c.h"
#ifdef PEO_HAVE_DEFLATE
#include <libdeflate.h>
#endif

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

/* A hash from a key of two words to an index + 1. */
struct index {
	struct slot {
		uint64_t a, b;
		size_t v; /* 0: empty */
	} *s;
	size_t n, cap;
};

static struct slot *probe(struct slot *s, size_t cap, uint64_t a, uint64_t b)
{
	size_t i = (size_t)((a * 0x9e3779b97f4a7c15ull ^ b) * 0xbf58476d1ce4e5b9ull >> 17) & (cap - 1);

	while (s[i].v && (s[i].a != a || s[i].b != b))
		i = (i + 1) & (cap - 1);
	return &s[i];
}

/* The value slot of key (@a, @b): 0 when new (the caller sets it), NULL
 * out of memory. */
static size_t *index_at(struct index *x, uint64_t a, uint64_t b)
{
	struct slot *s;

	if ((x->n + 1) * 2 > x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 1024;
		struct slot *bigger = calloc(cap, sizeof(*bigger));

		if (!bigger)
			return NULL;
		for (size_t k = 0; k < x->cap; k++)
			if (x->s[k].v)
				*probe(bigger, cap, x->s[k].a, x->s[k].b) = x->s[k];
		free(x->s);
		x->s = bigger;
		x->cap = cap;
	}
	s = probe(x->s, x->cap, a, b);
	if (!s->v) {
		s->a = a;
		s->b = b;
		x->n++; /* counted now: the caller sets v */
	}
	return &s->v;
}

/* Room for one more of @size-byte items in *@v (*@cap of them, @n used):
 * 0, or -1 out of memory. */
static int room(void **v, size_t *cap, size_t n, size_t size)
{
	size_t want = *cap ? *cap * 2 : 256;
	void *more;

	if (n < *cap)
		return 0;
	if (!(more = realloc(*v, want * size)))
		return -1;
	*v = more;
	*cap = want;
	return 0;
}

struct builder {
	struct report_data *d;
	char **strings;
	size_t nstrings, cstrings;
	char **owned; /* the strings made here */
	size_t nowned, cowned;
	struct index by_string, by_function, by_mapping, by_location;
	Function *functions;
	size_t nfunctions, cfunctions;
	Mapping *mappings;
	size_t nmappings, cmappings;
	Location *locations;
	size_t nlocations, clocations;
	int failed; /* out of memory: the profile is not written */
};

/* FNV-1a of @s, the string index's key (with a probe count for strings
 * of the same hash). */
static uint64_t hash_str(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The string table's index of @s (NULL: ""), added when new. */
static int64_t str(struct builder *b, const char *s)
{
	uint64_t h;
	size_t *v = NULL;

	s = s ? s : "";
	h = hash_str(s);
	for (uint64_t k = 0; !b->failed; k++) {
		if (!(v = index_at(&b->by_string, h, k)))
			b->failed = 1;
		else if (!*v || !strcmp(b->strings[*v - 1], s))
			break;
	}
	if (b->failed)
		return 0;
	if (!*v) {
		if (room((void **)&b->strings, &b->cstrings, b->nstrings, sizeof(char *))) {
			b->failed = 1;
			return 0;
		}
		b->strings[b->nstrings++] = (char *)(uintptr_t)s; /* protobuf-c's type; never written */
		*v = b->nstrings;
	}
	return (int64_t)(*v - 1);
}

/* The index of a string made here (@prefix then @arg), kept till the end. */
static int64_t str_made(struct builder *b, const char *prefix, const char *arg)
{
	char *s;

	if (room((void **)&b->owned, &b->cowned, b->nowned, sizeof(char *)) ||
	    asprintf(&s, "%s%s", prefix, arg) < 0) {
		b->failed = 1;
		return 0;
	}
	b->owned[b->nowned++] = s;
	return str(b, s);
}

/* The id of the function named @name (its file @file: the first seen). */
static uint64_t function(struct builder *b, const char *name, const char *file)
{
	int64_t n = str(b, name);
	size_t *v = b->failed ? NULL : index_at(&b->by_function, (uint64_t)n, 0);
	Function *f;

	if (!v || (!*v && room((void **)&b->functions, &b->cfunctions, b->nfunctions,
			       sizeof(*b->functions)))) {
		b->failed = 1;
		return 0;
	}
	if (*v)
		return *v;
	f = &b->functions[b->nfunctions++];
	perftools__profiles__function__init(f);
	f->id = b->nfunctions;
	f->name = f->system_name = n;
	f->filename = file ? str(b, file) : 0;
	*v = f->id;
	return f->id;
}

/* The recorded build id of binary @dso in hex, its string index; 0 when none. */
static int64_t build_id_of(struct builder *b, const char *dso)
{
	const struct peo_build_id *ids;
	size_t n;
	char hex[41];

	if (peo_perfdata_build_ids(b->d->f, &ids, &n))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (ids[i].filename && ids[i].size && ids[i].size <= 20 &&
		    !strcmp(ids[i].filename, dso)) {
			for (size_t k = 0; k < ids[i].size; k++)
				snprintf(hex + 2 * k, 3, "%02x", ids[i].id[k]);
			return str_made(b, "", hex);
		}
	return 0;
}

/* The id of frame @f's mapping: a file's placed where address - start is
 * the file offset (one per binary and load address); the kernel's and a
 * module's over their addresses.  0 for a frame in no map. */
static uint64_t mapping(struct builder *b, const struct peo_frame *f)
{
	int kernel = (f->flags & PEO_FRAME_KERNEL) != 0;
	uint64_t start = kernel ? 0 : f->addr - f->dso_offset;
	size_t *v;
	Mapping *m;

	if (!f->dso || (!kernel && f->dso_offset > f->addr))
		return 0;
	if (!(v = index_at(&b->by_mapping, (uint64_t)(uintptr_t)f->dso, start)) ||
	    (!*v && room((void **)&b->mappings, &b->cmappings, b->nmappings, sizeof(*b->mappings)))) {
		b->failed = 1;
		return 0;
	}
	if (!*v) {
		m = &b->mappings[b->nmappings++];
		perftools__profiles__mapping__init(m);
		m->id = b->nmappings;
		m->memory_start = kernel ? f->addr : start;
		m->memory_limit = f->addr + 1;
		m->filename = str(b, f->dso);
		m->build_id = build_id_of(b, f->dso);
		*v = m->id;
	}
	m = &b->mappings[*v - 1];
	if (f->addr < m->memory_start)
		m->memory_start = f->addr;
	if (f->addr >= m->memory_limit)
		m->memory_limit = f->addr + 1;
	return m->id;
}

/* The id of the location of frames @g[0..@n): one address, the functions
 * inlined there and, at @own, the one they are in.  Its lines list them
 * innermost first with their source lines (report/lines.c). */
static uint64_t location(struct builder *b, const struct peo_frame *const *g, size_t n, size_t own)
{
	const struct peo_frame *f = g[own];
	size_t nsrc, *v;
	const struct peo_srcline *src = report_lines_find(b->d, f->dso, f->dso_offset, &nsrc);
	uint64_t map = mapping(b, f);
	uint64_t fn = f->sym ? function(b, f->sym, nsrc >= n ? src[n - 1].file : NULL) : 0;
	Location *l;
	Line *lines;

	if (b->failed ||
	    !(v = index_at(&b->by_location, f->addr, (fn << 24 ^ map << 8 ^ n) + (f->sym == NULL))) ||
	    (!*v && room((void **)&b->locations, &b->clocations, b->nlocations,
			 sizeof(*b->locations)))) {
		b->failed = 1;
		return 0;
	}
	if (*v)
		return *v;
	l = &b->locations[b->nlocations++];
	perftools__profiles__location__init(l);
	l->id = b->nlocations;
	l->mapping_id = map;
	l->address = f->addr;
	*v = l->id;
	if (!f->sym)
		return l->id; /* unnamed: a backend symbolizes it by its mapping */
	if (!(l->line = calloc(n, sizeof(*l->line))) || !(lines = calloc(n, sizeof(*lines)))) {
		b->failed = 1;
		return 0;
	}
	l->n_line = n;
	for (size_t i = 0; i < n; i++) { /* the inlined ones (innermost first), then own */
		const struct peo_frame *x = i == n - 1 ? f : g[i < own ? i : i + 1];

		perftools__profiles__line__init(&lines[i]);
		lines[i].function_id = function(b, x->sym, i < nsrc ? src[i].file : NULL);
		lines[i].line = i < nsrc ? src[i].line : 0;
		l->line[i] = &lines[i];
		if (map && lines[i].line)
			b->mappings[map - 1].has_line_numbers = b->mappings[map - 1].has_filenames = 1;
	}
	if (map) {
		b->mappings[map - 1].has_functions = 1;
		b->mappings[map - 1].has_inline_frames |= n > 1;
	}
	return l->id;
}

/* Stack @st's frames as location ids into @ids (room: its frames), the
 * leaf first; how many. */
static size_t locations_of(struct builder *b, const struct peo_profile_stack *st, uint64_t *ids)
{
	size_t n = 0;

	for (size_t i = 0; i < st->nframes && !b->failed;) {
		size_t j = i + 1, own = (st->frames[i]->flags & PEO_FRAME_INLINED) ? SIZE_MAX : i;

		/* the frames of one address: inlined ones and the one they are in */
		while (j < st->nframes && st->frames[j]->addr == st->frames[i]->addr &&
		       ((st->frames[j]->flags & PEO_FRAME_INLINED) || own == SIZE_MAX)) {
			if (!(st->frames[j]->flags & PEO_FRAME_INLINED))
				own = j;
			j++;
		}
		if (own == SIZE_MAX) /* inlined frames without their function: each its own */
			j = i + 1, own = i;
		ids[n++] = location(b, st->frames + i, j - i, own - i);
		i = j;
	}
	return n;
}

/* Whether event @attr counts time in nanoseconds (its period is). */
static int is_clock(const struct peo_attr *attr)
{
	return attr && attr->type == PEO_TYPE_SOFTWARE &&
	       (attr->config == PEO_COUNT_SW_CPU_CLOCK || attr->config == PEO_COUNT_SW_TASK_CLOCK);
}

/* The sample types: two a sampled event (its samples, its periods). */
static int sample_types(struct builder *b, Profile *p, int *column, size_t nevents)
{
	size_t sampled = 0;

	for (size_t e = 0; e < nevents; e++)
		sampled += column[e] >= 0;
	if (!(p->sample_type = calloc(2 * sampled + 1, sizeof(*p->sample_type))))
		return -1;
	for (size_t e = 0, k = 0; e < nevents; e++) {
		const struct peo_attr *attr = peo_perfdata_attr(b->d->f, e);
		const char *name = peo_perfdata_event_name(b->d->f, e);
		ValueType *t;

		if (column[e] < 0)
			continue;
		column[e] = (int)k;
		name = name ? name : "event";
		if (!(t = calloc(2, sizeof(*t))))
			return -1;
		perftools__profiles__value_type__init(&t[0]);
		perftools__profiles__value_type__init(&t[1]);
		t[0].type = sampled == 1 ? str(b, "samples") : str_made(b, "samples:", name);
		t[0].unit = str(b, "count");
		t[1].type = is_clock(attr) && sampled == 1 ? str(b, "cpu") : str(b, name);
		t[1].unit = str(b, is_clock(attr) ? "nanoseconds" : "count");
		p->sample_type[k++] = &t[0];
		p->sample_type[k++] = &t[1];
		p->n_sample_type = k;
		if (k == 2) { /* the first event's periods: what a viewer shows first */
			p->default_sample_type = t[1].type;
			if (attr && !attr->freq && attr->sample_period) {
				p->period_type = &t[1];
				p->period = (int64_t)attr->sample_period;
			}
		}
	}
	return 0;
}

/* The mapping of the binary where most samples' user code ran (their
 * innermost user frame's) made first: pprof takes the first mapping for
 * the profile's main binary. */
static void main_binary_first(struct builder *b)
{
	struct index seen = { 0 };
	const struct peo_frame *best = NULL;
	uint64_t most = 0;

	for (size_t i = 0; i < peo_profile_stacks(b->d->profile); i++) {
		struct peo_profile_stack st;
		const struct peo_frame *f = NULL;
		size_t *v;

		if (peo_profile_stack(b->d->profile, i, &st))
			continue;
		for (size_t k = 0; k < st.nframes && !f; k++)
			if (!(st.frames[k]->flags & PEO_FRAME_KERNEL) && st.frames[k]->dso)
				f = st.frames[k];
		if (!f || !(v = index_at(&seen, (uint64_t)(uintptr_t)f->dso, 0)))
			continue;
		*v += st.count; /* a sum, not an index: this table is ours */
		if (*v > most) {
			most = *v;
			best = f;
		}
	}
	free(seen.s);
	if (best)
		mapping(b, best);
}

/* Stack @st as sample @s: its locations, its event's two values, its labels. */
static int add_sample(struct builder *b, const Profile *p, const int *column,
		      const struct peo_profile_stack *st, Sample *s, const int64_t *keys)
{
	const uint32_t nums[] = { st->pid, st->tid, st->cpu };
	Label *labels;

	perftools__profiles__sample__init(s);
	if (!(s->location_id = calloc(st->nframes ? st->nframes : 1, sizeof(*s->location_id))) ||
	    !(s->value = calloc(p->n_sample_type, sizeof(*s->value))) ||
	    !(s->label = calloc(4, sizeof(*s->label))) || !(labels = calloc(4, sizeof(*labels))))
		return -1;
	s->n_location_id = locations_of(b, st, s->location_id);
	s->n_value = p->n_sample_type;
	s->value[column[st->event]] = (int64_t)st->count;
	s->value[column[st->event] + 1] = (int64_t)st->period;
	/* filled from labels[0] on: the block is freed through the first pointer */
	if (st->comm) {
		Label *l = &labels[s->n_label];

		perftools__profiles__label__init(l);
		l->key = keys[0];
		l->str = str(b, st->comm);
		s->label[s->n_label++] = l;
	}
	for (size_t k = 0; k < 3; k++)
		if (nums[k] != (uint32_t)-1) {
			Label *l = &labels[s->n_label];

			perftools__profiles__label__init(l);
			l->key = keys[1 + k];
			l->num = nums[k];
			s->label[s->n_label++] = l;
		}
	if (!s->n_label)
		free(labels);
	return b->failed ? -1 : 0;
}

/* @bytes gzipped (when peo has libdeflate) into @path.  0, or -1 (said). */
static int write_file(const char *path, const uint8_t *bytes, size_t n)
{
	const uint8_t *out = bytes;
	uint8_t *gz = NULL;
	FILE *f;
	int err = 0;
#ifdef PEO_HAVE_DEFLATE
	struct libdeflate_compressor *c = libdeflate_alloc_compressor(6);
	size_t cap = c ? libdeflate_gzip_compress_bound(c, n) : 0;

	if (c && (gz = malloc(cap)) && (n = libdeflate_gzip_compress(c, bytes, n, gz, cap), n))
		out = gz;
	if (c)
		libdeflate_free_compressor(c);
	if (out != gz) {
		fprintf(stderr, "peo report: out of memory to gzip the profile\n");
		free(gz);
		return -1;
	}
#else
	fprintf(stderr, "peo report: note: this peo was built without libdeflate: %s is not "
		"gzipped (pprof reads it as it is)\n", path);
#endif
	if (!(f = fopen(path, "wb"))) {
		fprintf(stderr, "peo report: --pprof %s: %s; give a file that can be written\n", path,
			strerror(errno));
		free(gz);
		return -1;
	}
	if (fwrite(out, 1, n, f) != n || fflush(f) || ferror(f))
		err = -1;
	if (fclose(f) || err) {
		fprintf(stderr, "peo report: writing %s: %s\n", path, strerror(errno ? errno : EIO));
		err = -1;
	}
	free(gz);
	return err;
}

static void builder_free(struct builder *b, Profile *p, Sample *samples, size_t nsamples)
{
	for (size_t i = 0; i < nsamples; i++) {
		free(samples[i].location_id);
		free(samples[i].value);
		if (samples[i].n_label)
			free(samples[i].label[0]);
		free(samples[i].label);
	}
	free(samples);
	for (size_t i = 0; i < b->nlocations; i++) {
		if (b->locations[i].n_line)
			free(b->locations[i].line[0]);
		free(b->locations[i].line);
	}
	for (size_t i = 0; i < p->n_sample_type; i += 2)
		free(p->sample_type[i]);
	free(p->sample_type);
	free(p->sample);
	free(p->mapping);
	free(p->location);
	free(p->function);
	free(b->locations);
	free(b->mappings);
	free(b->functions);
	for (size_t i = 0; i < b->nowned; i++)
		free(b->owned[i]);
	free(b->owned);
	free(b->strings);
	free(b->by_string.s);
	free(b->by_function.s);
	free(b->by_mapping.s);
	free(b->by_location.s);
}

/* The builder's tables as the profile's arrays of pointers. */
static int point_to(void ***to, size_t *n, void *items, size_t count, size_t size)
{
	*n = count;
	if (!(*to = calloc(count ? count : 1, sizeof(void *))))
		return -1;
	for (size_t i = 0; i < count; i++)
		(*to)[i] = (char *)items + i * size;
	return 0;
}

int report_pprof(struct report_data *d, const char *path, const char *input)
{
	Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
	struct builder b = { .d = d };
	size_t nevents = peo_perfdata_attr_count(d->f), nstacks = peo_profile_stacks(d->profile);
	int *column = calloc(nevents ? nevents : 1, sizeof(*column));
	Sample *samples = calloc(nstacks ? nstacks : 1, sizeof(*samples));
	int64_t keys[4], comment = 0;
	uint8_t *bytes = NULL;
	size_t size, made = 0;
	int err = -1;

	if (d->lines_failed || !column || !samples || !(p.sample = calloc(nstacks ? nstacks : 1,
									    sizeof(*p.sample))))
		goto out;
	str(&b, ""); /* index 0, as the format asks */
	for (size_t e = 0; e < nevents; e++)
		column[e] = -1;
	for (size_t i = 0; i < nstacks; i++) {
		struct peo_profile_stack st;

		if (!peo_profile_stack(d->profile, i, &st) && st.event < nevents)
			column[st.event] = 0;
	}
	if (sample_types(&b, &p, column, nevents))
		goto out;
	main_binary_first(&b);
	keys[0] = str(&b, "comm");
	keys[1] = str(&b, "pid");
	keys[2] = str(&b, "tid");
	keys[3] = str(&b, "cpu");
	for (size_t i = 0; i < nstacks; i++) {
		struct peo_profile_stack st;

		if (peo_profile_stack(d->profile, i, &st) || st.event >= nevents)
			goto out;
		if (!report_stack_passes(d->args, &st))
			continue;
		if (add_sample(&b, &p, column, &st, &samples[made++], keys))
			goto out;
		p.sample[p.n_sample++] = &samples[made - 1];
	}
	comment = str_made(&b, "peo report --pprof of ", input);
	p.comment = &comment;
	p.n_comment = 1;
	if (b.failed || point_to((void ***)&p.function, &p.n_function, b.functions, b.nfunctions,
				 sizeof(*b.functions)) ||
	    point_to((void ***)&p.mapping, &p.n_mapping, b.mappings, b.nmappings, sizeof(*b.mappings)) ||
	    point_to((void ***)&p.location, &p.n_location, b.locations, b.nlocations,
		     sizeof(*b.locations)))
		goto out;
	p.string_table = b.strings;
	p.n_string_table = b.nstrings;
	size = perftools__profiles__profile__get_packed_size(&p);
	if (!(bytes = malloc(size ? size : 1)))
		goto out;
	perftools__profiles__profile__pack(&p, bytes);
	err = write_file(path, bytes, size);
	if (!err)
		fprintf(stderr, "peo report: the profile is in %s: go tool pprof -top %s, or send it "
			"to a profiling backend\n", path, path);
	err = err ? -2 : 0;
out:
	if (err == -1)
		fprintf(stderr, "peo report: out of memory for the pprof profile\n");
	builder_free(&b, &p, samples, made);
	free(column);
	free(bytes);
	return err ? -1 : 0;
}
#endif
