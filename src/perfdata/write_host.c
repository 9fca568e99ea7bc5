/*
 * write_host.c - the feature sections that describe the recording
 * machine, made as perf makes them (uname, /proc/cpuinfo, /proc/meminfo,
 * sysfs topology), and EVENT_DESC from the writer's events.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "counter_internal.h" /* peo_cpu_list_parse_tolerated */
#include "perfdata/reader.h"
#include "perfdata/write.h"

#define STRING_ALIGN 64 /* perf pads every header string to this */

void pd_bytes_put(struct pd_bytes *b, const void *p, size_t n)
{
	if (b->oom || !n)
		return;
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		unsigned char *more;

		while (cap < b->n + n)
			cap *= 2;
		if (!(more = realloc(b->p, cap))) {
			b->oom = 1;
			return;
		}
		b->p = more;
		b->cap = cap;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

void pd_bytes_u32(struct pd_bytes *b, uint32_t v)
{
	pd_bytes_put(b, &v, 4);
}

void pd_bytes_u64(struct pd_bytes *b, uint64_t v)
{
	pd_bytes_put(b, &v, 8);
}

/* perf_header_string: u32 length (NUL included, padded to 64), the bytes, zeros. */
void pd_bytes_string(struct pd_bytes *b, const char *s)
{
	static const char zeros[STRING_ALIGN];
	size_t len = strlen(s) + 1, padded = (len + STRING_ALIGN - 1) / STRING_ALIGN * STRING_ALIGN;

	pd_bytes_u32(b, (uint32_t)padded);
	pd_bytes_put(b, s, len - 1);
	pd_bytes_put(b, zeros, padded - (len - 1)); /* 1 to 64 zeros */
}

/* Set feature @bit from @b and release it. */
static int take(struct peo_perfdata_writer *w, unsigned bit, struct pd_bytes *b)
{
	int err = b->oom ? peo_fail(ENOMEM, "out of memory making feature %u", bit)
			 : peo_perfdata_writer_feature(w, bit, b->p, b->n);

	free(b->p);
	memset(b, 0, sizeof(*b));
	return err;
}

static int string_feature(struct peo_perfdata_writer *w, unsigned bit, const char *s)
{
	struct pd_bytes b = { 0 };

	pd_bytes_string(&b, s);
	return take(w, bit, &b);
}

/* The first line of @path into @buf; 0, or -1 when unreadable. */
static int read_line(const char *path, char *buf, size_t cap)
{
	char *text = peo_read_text_file(path);

	if (!text)
		return -1;
	snprintf(buf, cap, "%.*s", (int)strcspn(text, "\n"), text);
	free(text);
	return 0;
}

/* /proc/cpuinfo's first processor, read once: each read of it measures
 * every CPU's frequency, milliseconds apiece. */
static char *cpuinfo_text(void)
{
	FILE *in = fopen("/proc/cpuinfo", "re");
	char *text = calloc(1, 16384), *blank;
	size_t n = 0;

	if (!in || !text) {
		if (in)
			fclose(in);
		free(text);
		return NULL;
	}
	n = fread(text, 1, 16383, in);
	text[n] = '\0';
	fclose(in);
	if ((blank = strstr(text, "\n\n"))) /* the first processor's block */
		blank[1] = '\0';
	return text;
}

/* The value of "@key<blanks>: value" in @text (cpuinfo's first processor). */
static int cpuinfo(const char *text, const char *key, char *buf, size_t cap)
{
	size_t k = strlen(key);

	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *colon = strchr(line, ':'), *eol = strchr(line, '\n');

		if (!colon || (eol && colon > eol) || strncmp(line, key, k) ||
		    (line[k] != '\t' && line[k] != ' ' && line[k] != ':'))
			continue;
		for (colon++; *colon == ' '; colon++)
			;
		snprintf(buf, cap, "%.*s", (int)(eol ? eol - colon : (long)strlen(colon)), colon);
		return 0;
	}
	return -1;
}

/* A cpu list "0-3,6" to its highest cpu + 1, or 0. */
static int list_end(const char *list)
{
	struct peo_target t = { 0 };
	int end = 0;

	if (!peo_cpu_list_parse_tolerated(&t, list))
		for (size_t i = 0; i < t.ncpus; i++)
			end = t.cpus[i] + 1 > end ? t.cpus[i] + 1 : end;
	free(t.cpus);
	return end;
}

static int nr_cpus_avail(void)
{
	char list[256];
	int n = read_line("/sys/devices/system/cpu/present", list, sizeof(list)) ? 0 : list_end(list);

	return n > 0 ? n : (int)sysconf(_SC_NPROCESSORS_CONF);
}

/* A cpu's topology file, or @fallback's when the first is absent (older kernels). */
static int topology(int cpu, const char *name, const char *fallback, char *buf, size_t cap)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	if (!read_line(path, buf, cap))
		return 0;
	if (!fallback)
		return -1;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, fallback);
	return read_line(path, buf, cap);
}

/* A string list of the distinct values of a topology file over the cpus. */
static void sibling_lists(struct pd_bytes *b, int ncpus, const char *name, const char *fallback)
{
	char (*seen)[256] = calloc((size_t)ncpus + 1, sizeof(*seen));
	uint32_t n = 0;

	if (!seen) {
		b->oom = 1;
		return;
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {
		char list[256];
		uint32_t k = 0;

		if (topology(cpu, name, fallback, list, sizeof(list)))
			continue;
		while (k < n && strcmp(seen[k], list))
			k++;
		if (k == n)
			snprintf(seen[n++], sizeof(seen[0]), "%s", list);
	}
	pd_bytes_u32(b, n);
	for (uint32_t k = 0; k < n; k++)
		pd_bytes_string(b, seen[k]);
	free(seen);
}

/* A topology id file of @cpu, or -1 (an offline cpu has none). */
static uint32_t topology_id(int cpu, const char *name)
{
	char v[32];

	return topology(cpu, name, NULL, v, sizeof(v)) ? (uint32_t)-1 : (uint32_t)strtol(v, NULL, 10);
}

/* CPU_TOPOLOGY: package and core sibling lists, {core, socket} ids, then the die lists and ids. */
static int cpu_topology(struct peo_perfdata_writer *w)
{
	struct pd_bytes b = { 0 };
	int ncpus = nr_cpus_avail();
	char probe[256];

	if (topology(0, "core_id", NULL, probe, sizeof(probe)))
		return 0; /* no topology in sysfs: perf leaves the feature out too */
	sibling_lists(&b, ncpus, "package_cpus_list", "core_siblings_list");
	sibling_lists(&b, ncpus, "core_cpus_list", "thread_siblings_list");
	for (int cpu = 0; cpu < ncpus; cpu++) {
		pd_bytes_u32(&b, topology_id(cpu, "core_id"));
		pd_bytes_u32(&b, topology_id(cpu, "physical_package_id"));
	}
	if (!topology(0, "die_id", NULL, probe, sizeof(probe))) {
		sibling_lists(&b, ncpus, "die_cpus_list", NULL);
		for (int cpu = 0; cpu < ncpus; cpu++)
			pd_bytes_u32(&b, topology_id(cpu, "die_id"));
	}
	return take(w, PEO_FEAT_CPU_TOPOLOGY, &b);
}

/* The kB of "@key: N kB" in meminfo @text ("Node 0 MemTotal: ..." in a
 * node's), or 0 (also for a NULL @text: an unreadable file). */
static uint64_t meminfo_kb(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *k = text;

	while (k && (k = strstr(k, key)) && k[n] != ':')
		k += n;
	return k ? strtoull(k + n + 1, NULL, 10) : 0;
}

/* NUMA_TOPOLOGY: each online node's id, memory total and free (kB), cpu list. */
static int numa_topology(struct peo_perfdata_writer *w)
{
	struct pd_bytes b = { 0 };
	struct peo_target nodes = { 0 }; /* the online list's members, as cpus */
	char online[256];
	uint32_t n = 0;

	if (read_line("/sys/devices/system/node/online", online, sizeof(online)))
		return 0;
	if (peo_cpu_list_parse_tolerated(&nodes, online)) {
		free(nodes.cpus);
		return 0;
	}
	pd_bytes_u32(&b, 0); /* their number, patched below: perf's layout starts with it */
	for (size_t i = 0; i < nodes.ncpus; i++) {
		char path[96], cpus[256], *meminfo;
		int node = nodes.cpus[i];

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
		if (read_line(path, cpus, sizeof(cpus)))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", node);
		meminfo = peo_read_text_file(path);
		pd_bytes_u32(&b, (uint32_t)node);
		pd_bytes_u64(&b, meminfo_kb(meminfo, "MemTotal"));
		pd_bytes_u64(&b, meminfo_kb(meminfo, "MemFree"));
		pd_bytes_string(&b, cpus);
		free(meminfo);
		n++;
	}
	free(nodes.cpus);
	if (!b.oom)
		memcpy(b.p, &n, sizeof(n));
	return take(w, PEO_FEAT_NUMA_TOPOLOGY, &b);
}

/* perf's cpudesc: the model name with runs of blanks made one. */
static int cpudesc(struct peo_perfdata_writer *w, const char *info)
{
	char v[256], out[256];
	size_t n = 0;

	if (cpuinfo(info, "model name", v, sizeof(v)) && cpuinfo(info, "cpu model", v, sizeof(v)))
		return 0;
	for (const char *p = v; *p; p++)
		if (!isspace((unsigned char)*p) || (n && out[n - 1] != ' '))
			out[n++] = isspace((unsigned char)*p) ? ' ' : *p;
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	return string_feature(w, PEO_FEAT_CPUDESC, out);
}

/* x86: "vendor,family,model,stepping"; arm64: MIDR_EL1 in hex, as perf. */
static int cpuid(struct peo_perfdata_writer *w, const char *info)
{
	char vendor[64], family[16], model[16], stepping[16], id[128];

	if (!cpuinfo(info, "vendor_id", vendor, sizeof(vendor)) &&
	    !cpuinfo(info, "cpu family", family, sizeof(family)) &&
	    !cpuinfo(info, "model", model, sizeof(model)) &&
	    !cpuinfo(info, "stepping", stepping, sizeof(stepping))) {
		snprintf(id, sizeof(id), "%s,%s,%s,%s", vendor, family, model, stepping);
		return string_feature(w, PEO_FEAT_CPUID, id);
	}
	if (!read_line("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", id, sizeof(id)))
		return string_feature(w, PEO_FEAT_CPUID, id);
	return 0;
}

static int total_mem(struct peo_perfdata_writer *w)
{
	char *meminfo = peo_read_text_file("/proc/meminfo");
	uint64_t kb = meminfo_kb(meminfo, "MemTotal");

	free(meminfo);

	/* kB, as perf writes it (its documentation says bytes) */
	return kb ? peo_perfdata_writer_feature(w, PEO_FEAT_TOTAL_MEM, &kb, sizeof(kb)) : 0;
}

/* CMDLINE: the recording program's own path, then its arguments, as perf. */
static int cmdline(struct peo_perfdata_writer *w, int argc, const char *const *argv)
{
	struct pd_bytes b = { 0 };
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	pd_bytes_u32(&b, (uint32_t)argc + 1);
	pd_bytes_string(&b, n > 0 ? exe : (argc ? argv[0] : ""));
	for (int i = 0; i < argc; i++)
		pd_bytes_string(&b, argv[i]);
	return take(w, PEO_FEAT_CMDLINE, &b);
}

int peo_perfdata_writer_host_features(struct peo_perfdata_writer *w, int argc, const char *const *argv)
{
	struct utsname u;
	uint32_t nr[2];
	char *info;
	int err = 0;

	if (!w || (argc > 0 && !argv))
		return peo_fail(EINVAL, "peo_perfdata_writer_host_features: argument '%s' is NULL",
				w ? "argv" : "w");
	if (!uname(&u)) {
		err = string_feature(w, PEO_FEAT_HOSTNAME, u.nodename);
		err = err ? err : string_feature(w, PEO_FEAT_OSRELEASE, u.release);
		err = err ? err : string_feature(w, PEO_FEAT_ARCH, u.machine);
	}
	err = err ? err : string_feature(w, PEO_FEAT_VERSION, "peo " PEO_VERSION_STRING);
	nr[0] = (uint32_t)nr_cpus_avail();
	nr[1] = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	err = err ? err : peo_perfdata_writer_feature(w, PEO_FEAT_NRCPUS, nr, sizeof(nr));
	info = cpuinfo_text();
	err = err ? err : cpudesc(w, info ? info : "");
	err = err ? err : cpuid(w, info ? info : "");
	free(info);
	err = err ? err : total_mem(w);
	err = err ? err : cmdline(w, argc, argv);
	err = err ? err : cpu_topology(w);
	err = err ? err : numa_topology(w);
	return err;
}

static uint64_t ns_of(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

int peo_perfdata_writer_clock(struct peo_perfdata_writer *w, int clockid)
{
	struct timespec res, wall, clk;
	struct {
		uint32_t version, clockid;
		uint64_t wall_ns, clock_ns;
	} data;
	uint64_t freq; /* what perf calls it; the resolution */
	int err;

	if (!w)
		return peo_fail(EINVAL, "peo_perfdata_writer_clock: argument 'w' is NULL");
	if (clock_getres((clockid_t)clockid, &res) || clock_gettime(CLOCK_REALTIME, &wall) ||
	    clock_gettime((clockid_t)clockid, &clk))
		return peo_fail(EINVAL, "perf.data writer: clock %d: %s", clockid, strerror(errno));
	/* CLOCKID: the resolution in ns (perf prints it times 1000 as "MHz") */
	freq = ns_of(&res);
	err = peo_perfdata_writer_feature(w, PEO_FEAT_CLOCKID, &freq, sizeof(freq));
	/* CLOCK_DATA: version 1, the clock, then the wall clock and the clock read together */
	data.version = 1;
	data.clockid = (uint32_t)clockid;
	data.wall_ns = ns_of(&wall);
	data.clock_ns = ns_of(&clk);
	return err ? err : peo_perfdata_writer_feature(w, PEO_FEAT_CLOCK_DATA, &data, sizeof(data));
}
