/*
 * record_synth.c - the records peo record writes before the rings' data,
 * as perf record does: ID_INDEX (which fd each id is), the kernel's text
 * as an MMAP, THREAD_MAP and CPU_MAP, a COMM and the executable MMAP2s of
 * every process already running that is recorded (from /proc), and
 * FINISHED_INIT.  Without them, samples of an attached process or of the
 * kernel resolve to no binary in perf report.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "record_synth.h"

#define MISC_MMAP_DATA (1u << 13)

/* A record being built: header, fields, then the sample_id trailer. */
struct synth {
	unsigned char b[4096 + 256];
	size_t n;
};

static void put(struct synth *s, const void *p, size_t n)
{
	if (s->n + n <= sizeof(s->b)) {
		memcpy(s->b + s->n, p, n);
		s->n += n;
	}
}

static void put32(struct synth *s, uint32_t v) { put(s, &v, 4); }
static void put64(struct synth *s, uint64_t v) { put(s, &v, 8); }

static void begin(struct synth *s, uint32_t type, uint16_t misc)
{
	s->n = 0;
	put32(s, type);
	put32(s, misc); /* misc, and size set by finish() */
}

/* A NUL-terminated string padded to 8 bytes. */
static void put_string(struct synth *s, const char *str)
{
	static const char zeros[8];
	size_t len = strlen(str) + 1;

	put(s, str, len);
	put(s, zeros, (8 - len % 8) % 8);
}

/* The sample_id trailer of @attr's fields: @id in ID and IDENTIFIER, the rest
 * zero, as perf writes it for synthesized records (with id 0). */
static void put_trailer(struct synth *s, const struct peo_attr *attr, uint64_t id)
{
	static const uint64_t fields[] = { PEO_SAMPLE_TID, PEO_SAMPLE_TIME, PEO_SAMPLE_ID,
					   PEO_SAMPLE_STREAM_ID, PEO_SAMPLE_CPU,
					   PEO_SAMPLE_IDENTIFIER };

	if (!attr->sample_id_all)
		return;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (attr->sample_type & fields[i])
			put64(s, fields[i] == PEO_SAMPLE_ID || fields[i] == PEO_SAMPLE_IDENTIFIER ? id : 0);
}

static int finish(struct synth *s, struct peo_perfdata_writer *w)
{
	uint16_t size = (uint16_t)s->n;

	if (s->n > 65535 || s->n % 8)
		return 0; /* cannot be: the buffers are bounded; skip rather than write garbage */
	memcpy(s->b + 6, &size, 2);
	return peo_perfdata_writer_record(w, s->b, s->n);
}

/* A record of @size bytes with an 8-byte header and a u64 count, zeroed; NULL when
 * it cannot be one record (more than 64 KiB: readers then go without it). */
static unsigned char *counted_record(uint32_t type, size_t size, uint64_t n)
{
	unsigned char *b = size <= 65535 ? calloc(1, size) : NULL;

	if (!b)
		return NULL;
	memcpy(b, &type, 4);
	memcpy(b + 6, &(uint16_t){ (uint16_t)size }, 2);
	memcpy(b + 8, &n, 8);
	return b;
}

int synth_id_index(struct peo_perfdata_writer *w, const struct synth_id *ids, size_t n)
{
	size_t size = 16 + 32 * n;
	unsigned char *b = counted_record(PEO_RECORD_ID_INDEX, size, n);
	int err;

	if (!b)
		return 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t e[4] = { ids[i].id, ids[i].event, (uint64_t)(int64_t)ids[i].cpu,
				  (uint64_t)(int64_t)ids[i].tid };

		memcpy(b + 16 + 32 * i, e, 32);
	}
	err = peo_perfdata_writer_record(w, b, size);
	free(b);
	return err;
}

/*
 * _text and _etext from /proc/kallsyms; 0 when it hides addresses.  Read
 * with read() in large pieces and closed without stdio: stdio's small
 * reads and the seek back on fclose() each make the kernel walk the
 * symbols again (tens of milliseconds apiece).  Lines are matched by their
 * name alone, and only a match is parsed: sscanf on all 120,000 lines was
 * 20 ms of peo record's start-up.
 */
static int kernel_text(uint64_t *start, uint64_t *end)
{
	size_t cap = 1 << 20, have = 0;
	char *buf = malloc(cap + 1);
	int fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);

	*start = *end = 0;
	while (buf && fd >= 0 && (!*start || !*end)) {
		ssize_t got = read(fd, buf + have, cap - have);
		char *line = buf, *nl;

		if (got <= 0)
			break;
		have += (size_t)got;
		buf[have] = '\0';
		while ((nl = memchr(line, '\n', (size_t)(buf + have - line)))) {
			/* "ADDR T NAME": the name is what follows the second space */
			const char *sp = memchr(line, ' ', (size_t)(nl - line));
			const char *name = sp && nl - sp > 3 ? sp + 3 : NULL;
			size_t len = name ? (size_t)(nl - name) : 0;

			if (len == 5 && !memcmp(name, "_text", 5))
				*start = strtoull(line, NULL, 16);
			else if (len == 6 && !memcmp(name, "_etext", 6))
				*end = strtoull(line, NULL, 16);
			line = nl + 1;
		}
		have -= (size_t)(line - buf); /* keep a partial last line */
		memmove(buf, line, have);
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return *start && *end > *start;
}

/* kernel_text() on a thread of its own, started early (synth_kernel_text_start). */
static struct {
	pthread_t thread;
	int started;
	uint64_t start, end;
} early;

static void *kernel_text_thread(void *arg)
{
	(void)arg;
	kernel_text(&early.start, &early.end);
	return NULL;
}

void synth_kernel_text_start(void)
{
	early.started = !thread_start(&early.thread, kernel_text_thread, NULL);
}

int synth_kernel_mmap(struct peo_perfdata_writer *w, const struct peo_attr *attr)
{
	struct synth s;
	uint64_t start, end;

	if (early.started) {
		pthread_join(early.thread, NULL);
		early.started = 0;
		start = early.start;
		end = early.end;
	} else {
		kernel_text(&start, &end);
	}
	if (!start || end <= start)
		return 0;
	begin(&s, PEO_RECORD_MMAP, PEO_RECORD_MISC_KERNEL);
	put32(&s, (uint32_t)-1); /* pid: the kernel */
	put32(&s, 0);
	put64(&s, start);
	put64(&s, end - start);
	put64(&s, start);
	put_string(&s, "[kernel.kallsyms]_text");
	put_trailer(&s, attr, 0);
	return finish(&s, w);
}

int synth_thread_map(struct peo_perfdata_writer *w, const pid_t *tids, size_t n)
{
	size_t size = 16 + 24 * n;
	unsigned char *b = counted_record(PEO_RECORD_THREAD_MAP, size, n);
	int err;

	if (!b)
		return 0;
	for (size_t i = 0; i < n; i++) /* perf leaves the comm empty */
		memcpy(b + 16 + 24 * i, &(uint64_t){ (uint64_t)(int64_t)tids[i] }, 8);
	err = peo_perfdata_writer_record(w, b, size);
	free(b);
	return err;
}

int synth_cpu_map(struct peo_perfdata_writer *w, const int *cpus, size_t n)
{
	struct synth s;
	static const char zeros[8];

	if (n > 1000)
		return 0;
	begin(&s, PEO_RECORD_CPU_MAP, 0);
	put(&s, &(uint16_t){ 0 }, 2); /* a list of cpus */
	put(&s, &(uint16_t){ (uint16_t)n }, 2);
	for (size_t i = 0; i < n; i++)
		put(&s, &(uint16_t){ (uint16_t)(cpus[i] < 0 ? 0xffff : cpus[i]) }, 2);
	put(&s, zeros, (8 - s.n % 8) % 8);
	return finish(&s, w);
}

int synth_comm(struct peo_perfdata_writer *w, const struct peo_attr *attr, pid_t pid, pid_t tid,
	       const char *comm)
{
	struct synth s;
	char name[16];

	snprintf(name, sizeof(name), "%s", comm);
	begin(&s, PEO_RECORD_COMM, 0);
	put32(&s, (uint32_t)pid);
	put32(&s, (uint32_t)tid);
	put_string(&s, name);
	put_trailer(&s, attr, 0);
	return finish(&s, w);
}

/* One /proc/PID/maps line as an MMAP2; only executable ones unless @data. */
static int synth_map_line(struct peo_perfdata_writer *w, const struct peo_attr *attr, pid_t pid,
			  const char *line, int data)
{
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perms[8], path[4096] = "";
	struct synth s;
	uint32_t prot, flags;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %4095[^\n]", &start, &end, perms, &pgoff,
		   &maj, &min, &ino, path) < 7)
		return 0;
	if (perms[2] != 'x' && !data)
		return 0;
	for (char *p = path; *p == ' '; ) /* the path after the blanks maps align it with */
		memmove(p, p + 1, strlen(p));
	if (!path[0])
		snprintf(path, sizeof(path), "//anon");
	prot = (perms[0] == 'r' ? 1u : 0) | (perms[1] == 'w' ? 2u : 0) | (perms[2] == 'x' ? 4u : 0);
	flags = perms[3] == 's' ? 1u : 2u; /* MAP_SHARED, MAP_PRIVATE */
	begin(&s, PEO_RECORD_MMAP2, PEO_RECORD_MISC_USER | (perms[2] == 'x' ? 0 : MISC_MMAP_DATA));
	put32(&s, (uint32_t)pid);
	put32(&s, (uint32_t)pid);
	put64(&s, start);
	put64(&s, end - start);
	put64(&s, pgoff);
	put32(&s, maj);
	put32(&s, min);
	put64(&s, ino);
	put64(&s, 0); /* ino_generation */
	put32(&s, prot);
	put32(&s, flags);
	put_string(&s, path);
	put_trailer(&s, attr, 0);
	return finish(&s, w);
}

int synth_process(struct peo_perfdata_writer *w, const struct peo_attr *attr, pid_t pid, int data)
{
	char path[64], line[4096 + 256], comm[64] = "";
	FILE *in;
	DIR *tasks;
	struct dirent *d;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (!(in = fopen(path, "re")))
		return 0; /* gone already */
	if (fgets(comm, sizeof(comm), in))
		comm[strcspn(comm, "\n")] = '\0';
	fclose(in);
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	tasks = opendir(path);
	while (!err && tasks && (d = readdir(tasks)))
		if (isdigit((unsigned char)d->d_name[0])) {
			err = synth_comm(w, attr, pid, (pid_t)atoi(d->d_name), comm);
			if (!err && attr->namespaces)
				err = synth_namespaces(w, attr, pid, (pid_t)atoi(d->d_name));
		}
	if (tasks)
		closedir(tasks);
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	in = fopen(path, "re");
	while (!err && in && fgets(line, sizeof(line), in))
		err = synth_map_line(w, attr, pid, line, data);
	if (in)
		fclose(in);
	return err;
}

int synth_all_processes(struct peo_perfdata_writer *w, const struct peo_attr *attr, int data)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;
	int err = 0;

	while (!err && proc && (d = readdir(proc)))
		if (isdigit((unsigned char)d->d_name[0]))
			err = synth_process(w, attr, (pid_t)atoi(d->d_name), data);
	if (proc)
		closedir(proc);
	return err;
}

int synth_namespaces(struct peo_perfdata_writer *w, const struct peo_attr *attr, pid_t pid,
		     pid_t tid)
{
	/* the kernel's order of namespaces in the record */
	static const char *const names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	struct synth s;

	begin(&s, PEO_RECORD_NAMESPACES, 0);
	put32(&s, (uint32_t)pid);
	put32(&s, (uint32_t)tid);
	put64(&s, sizeof(names) / sizeof(names[0]));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[64];
		struct stat st;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/%s", (int)pid, (int)tid, names[i]);
		if (stat(path, &st))
			memset(&st, 0, sizeof(st));
		put64(&s, (uint64_t)st.st_dev);
		put64(&s, (uint64_t)st.st_ino);
	}
	put_trailer(&s, attr, 0);
	return finish(&s, w);
}

int synth_lost_samples(struct peo_perfdata_writer *w, const struct peo_attr *attr, uint64_t id,
		       uint64_t lost)
{
	struct synth s;

	begin(&s, PEO_RECORD_LOST_SAMPLES, 0);
	put64(&s, lost);
	put_trailer(&s, attr, id);
	return finish(&s, w);
}

int synth_finished_init(struct peo_perfdata_writer *w)
{
	struct synth s;

	begin(&s, PEO_RECORD_FINISHED_INIT, 0);
	return finish(&s, w);
}
