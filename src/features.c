/*
 * features.c - what the running kernel accepts, found by opening harmless
 * software events one feature at a time (as perf detects missing features),
 * and cached for the life of the process.
 *
 * A probe event is task-clock on the calling thread, user space only,
 * disabled, so that it opens at any perf_event_paranoid level below 3.
 * The kernel rejects a bit or field it does not know with EINVAL (or E2BIG
 * past its attr size); any other answer proves it knows it.
 *
 * Only raw system calls: a failed probe keeps its errno, attr and flags,
 * and features_report.c (above the explainer) makes the sentence.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "internal.h"

/* What a probe needs besides the feature itself. */
typedef void (*probe_setup_fn)(struct peo_attr *attr);

struct feature_desc {
	enum peo_feature_kind kind;
	const char *name;
	const char *since;
	uint64_t value;
	probe_setup_fn setup; /* NULL: value is set in the field of the kind */
	const char *unprobeable; /* non-NULL: a software event cannot tell, why */
};

/* ------------------------------------------------------------- probe setups */
static void need_branch(struct peo_attr *a) { a->branch_sample_type = PEO_SAMPLE_BRANCH_ANY | PEO_SAMPLE_BRANCH_USER; }
static void need_regs_user(struct peo_attr *a) { a->sample_regs_user = 1; }
static void need_regs_intr(struct peo_attr *a) { a->sample_regs_intr = 1; }
static void need_stack_user(struct peo_attr *a) { a->sample_stack_user = 8; }
static void need_clockid(struct peo_attr *a) { a->clockid = 1; /* CLOCK_MONOTONIC */ }
static void need_mmap2(struct peo_attr *a) { a->mmap2 = 1; }
static void need_inherit(struct peo_attr *a) { a->inherit = 1; }
static void need_remove_on_exec(struct peo_attr *a) { a->remove_on_exec = 1; }
static void need_callchain(struct peo_attr *a) { a->sample_type |= PEO_SAMPLE_CALLCHAIN; }
static void set_max_stack(struct peo_attr *a) { a->sample_max_stack = 1; }
static void set_aux_start_paused(struct peo_attr *a) { a->aux_start_paused = 1; }

#define SAMPLE(n, since, setup, why) { PEO_FEATURE_SAMPLE_TYPE, #n, since, PEO_SAMPLE_##n, setup, why }
#define FORMAT(n, since) { PEO_FEATURE_READ_FORMAT, #n, since, PEO_FORMAT_##n, NULL, NULL }
#define FLAG(n, bit, since, setup, why) \
	{ PEO_FEATURE_ATTR_FLAG, #n, since, PEO_ATTR_FLAG(PEO_ATTR_BIT_##bit), setup, why }

static const struct feature_desc bit_descs[] = {
	SAMPLE(IP, "2.6.31", NULL, NULL),
	SAMPLE(TID, "2.6.31", NULL, NULL),
	SAMPLE(TIME, "2.6.31", NULL, NULL),
	SAMPLE(ADDR, "2.6.31", NULL, NULL),
	SAMPLE(READ, "2.6.31", NULL, NULL),
	SAMPLE(CALLCHAIN, "2.6.31", NULL, NULL),
	SAMPLE(ID, "2.6.31", NULL, NULL),
	SAMPLE(CPU, "2.6.31", NULL, NULL),
	SAMPLE(PERIOD, "2.6.31", NULL, NULL),
	SAMPLE(STREAM_ID, "2.6.31", NULL, NULL),
	SAMPLE(RAW, "2.6.31", NULL, NULL),
	SAMPLE(BRANCH_STACK, "3.4", need_branch, NULL),
	SAMPLE(REGS_USER, "3.7", need_regs_user, NULL),
	SAMPLE(STACK_USER, "3.7", need_stack_user, NULL),
	SAMPLE(WEIGHT, "3.10", NULL, NULL),
	SAMPLE(DATA_SRC, "3.10", NULL, NULL),
	SAMPLE(IDENTIFIER, "3.12", NULL, NULL),
	SAMPLE(TRANSACTION, "3.13", NULL, NULL),
	SAMPLE(REGS_INTR, "3.19", need_regs_intr, NULL),
	SAMPLE(PHYS_ADDR, "4.14", NULL, NULL),
	SAMPLE(AUX, "5.5", NULL, "needs an AUX-area event (such as intel_pt) as group leader"),
	SAMPLE(CGROUP, "5.7", NULL, NULL),
	SAMPLE(DATA_PAGE_SIZE, "5.11", NULL, NULL),
	SAMPLE(CODE_PAGE_SIZE, "5.11", NULL, NULL),
	SAMPLE(WEIGHT_STRUCT, "5.12", NULL, NULL),
	FORMAT(TOTAL_TIME_ENABLED, "2.6.31"),
	FORMAT(TOTAL_TIME_RUNNING, "2.6.31"),
	FORMAT(ID, "2.6.31"),
	FORMAT(GROUP, "2.6.31"),
	FORMAT(LOST, "6.0"),
	FLAG(disabled, DISABLED, "2.6.31", NULL, NULL),
	FLAG(inherit, INHERIT, "2.6.31", NULL, NULL),
	FLAG(pinned, PINNED, "2.6.31", NULL, NULL),
	FLAG(exclusive, EXCLUSIVE, "2.6.31", NULL, NULL),
	FLAG(exclude_user, EXCLUDE_USER, "2.6.31", NULL, NULL),
	FLAG(exclude_kernel, EXCLUDE_KERNEL, "2.6.31", NULL, NULL),
	FLAG(exclude_hv, EXCLUDE_HV, "2.6.31", NULL, NULL),
	FLAG(exclude_idle, EXCLUDE_IDLE, "2.6.31", NULL, NULL),
	FLAG(mmap, MMAP, "2.6.31", NULL, NULL),
	FLAG(comm, COMM, "2.6.31", NULL, NULL),
	FLAG(freq, FREQ, "2.6.31", NULL, NULL),
	FLAG(inherit_stat, INHERIT_STAT, "2.6.31", NULL, NULL),
	FLAG(enable_on_exec, ENABLE_ON_EXEC, "2.6.31", NULL, NULL),
	FLAG(task, TASK, "2.6.31", NULL, NULL),
	FLAG(watermark, WATERMARK, "2.6.31", NULL, NULL),
	FLAG(precise_ip, PRECISE_IP, "2.6.35", NULL, NULL),
	FLAG(mmap_data, MMAP_DATA, "2.6.36", NULL, NULL),
	FLAG(sample_id_all, SAMPLE_ID_ALL, "2.6.38", NULL, NULL),
	FLAG(exclude_host, EXCLUDE_HOST, "3.2", NULL, NULL),
	FLAG(exclude_guest, EXCLUDE_GUEST, "3.2", NULL, NULL),
	FLAG(exclude_callchain_kernel, EXCLUDE_CALLCHAIN_KERNEL, "3.7", NULL, NULL),
	FLAG(exclude_callchain_user, EXCLUDE_CALLCHAIN_USER, "3.7", NULL, NULL),
	FLAG(mmap2, MMAP2, "3.12", NULL, NULL),
	FLAG(comm_exec, COMM_EXEC, "3.16", NULL, NULL),
	FLAG(use_clockid, USE_CLOCKID, "4.1", need_clockid, NULL),
	FLAG(context_switch, CONTEXT_SWITCH, "4.3", NULL, NULL),
	FLAG(write_backward, WRITE_BACKWARD, "4.7", NULL, NULL),
	FLAG(namespaces, NAMESPACES, "4.12", NULL, NULL),
	FLAG(ksymbol, KSYMBOL, "5.1", NULL, NULL),
	FLAG(bpf_event, BPF_EVENT, "5.1", NULL, NULL),
	FLAG(aux_output, AUX_OUTPUT, "5.4", NULL, "needs an AUX-area event (such as intel_pt) as group leader"),
	FLAG(cgroup, CGROUP, "5.7", NULL, NULL),
	FLAG(text_poke, TEXT_POKE, "5.9", NULL, NULL),
	FLAG(build_id, BUILD_ID, "5.12", need_mmap2, NULL),
	FLAG(inherit_thread, INHERIT_THREAD, "5.13", need_inherit, NULL),
	FLAG(remove_on_exec, REMOVE_ON_EXEC, "5.13", NULL, NULL),
	FLAG(sigtrap, SIGTRAP, "5.13", need_remove_on_exec, NULL),
	FLAG(defer_callchain, DEFER_CALLCHAIN, "6.19", need_callchain, NULL),
	FLAG(defer_output, DEFER_OUTPUT, "6.19", NULL, NULL),
};

/* Fields that were reserved before they got a meaning: the size alone
 * does not prove the kernel knows them, so they are probed as well.
 * (clockid, the third such field, is probed by the use_clockid flag.) */
static const struct {
	const char *name;
	probe_setup_fn setup;
} renamed_fields[] = {
	{ "sample_max_stack", set_max_stack },
	{ "aux_action", set_aux_start_paused },
};

struct record_desc {
	enum peo_record_type type;
	const char *name;
	const char *since;
	const char *flag; /* the attr flag that asks for it, or NULL */
};

static const struct record_desc record_descs[] = {
	{ PEO_RECORD_MMAP, "MMAP", "2.6.31", "mmap" },
	{ PEO_RECORD_LOST, "LOST", "2.6.31", NULL },
	{ PEO_RECORD_COMM, "COMM", "2.6.31", "comm" },
	{ PEO_RECORD_EXIT, "EXIT", "2.6.31", "task" },
	{ PEO_RECORD_THROTTLE, "THROTTLE", "2.6.31", NULL },
	{ PEO_RECORD_UNTHROTTLE, "UNTHROTTLE", "2.6.31", NULL },
	{ PEO_RECORD_FORK, "FORK", "2.6.31", "task" },
	{ PEO_RECORD_READ, "READ", "2.6.31", "inherit_stat" },
	{ PEO_RECORD_SAMPLE, "SAMPLE", "2.6.31", NULL },
	{ PEO_RECORD_MMAP2, "MMAP2", "3.12", "mmap2" },
	{ PEO_RECORD_AUX, "AUX", "4.1", NULL },
	{ PEO_RECORD_ITRACE_START, "ITRACE_START", "4.1", NULL },
	{ PEO_RECORD_LOST_SAMPLES, "LOST_SAMPLES", "4.2", NULL },
	{ PEO_RECORD_SWITCH, "SWITCH", "4.3", "context_switch" },
	{ PEO_RECORD_SWITCH_CPU_WIDE, "SWITCH_CPU_WIDE", "4.3", "context_switch" },
	{ PEO_RECORD_NAMESPACES, "NAMESPACES", "4.12", "namespaces" },
	{ PEO_RECORD_KSYMBOL, "KSYMBOL", "5.1", "ksymbol" },
	{ PEO_RECORD_BPF_EVENT, "BPF_EVENT", "5.1", "bpf_event" },
	{ PEO_RECORD_CGROUP, "CGROUP", "5.7", "cgroup" },
	{ PEO_RECORD_TEXT_POKE, "TEXT_POKE", "5.9", "text_poke" },
	{ PEO_RECORD_AUX_OUTPUT_HW_ID, "AUX_OUTPUT_HW_ID", "5.16", NULL },
	{ PEO_RECORD_CALLCHAIN_DEFERRED, "CALLCHAIN_DEFERRED", "6.19", "defer_output" },
};

struct ioctl_desc {
	const char *name;
	const char *since;
	unsigned long request;
};

static const struct ioctl_desc ioctl_descs[] = {
	{ "ENABLE", "2.6.31", PEO_IOC_ENABLE },
	{ "DISABLE", "2.6.31", PEO_IOC_DISABLE },
	{ "REFRESH", "2.6.31", PEO_IOC_REFRESH },
	{ "RESET", "2.6.31", PEO_IOC_RESET },
	{ "PERIOD", "2.6.33", PEO_IOC_PERIOD },
	{ "SET_OUTPUT", "2.6.34", PEO_IOC_SET_OUTPUT },
	{ "SET_FILTER", "2.6.32", PEO_IOC_SET_FILTER },
	{ "ID", "3.12", PEO_IOC_ID },
	{ "SET_BPF", "4.1", PEO_IOC_SET_BPF },
	{ "PAUSE_OUTPUT", "4.7", PEO_IOC_PAUSE_OUTPUT },
	{ "QUERY_BPF", "4.16", PEO_IOC_QUERY_BPF },
	{ "MODIFY_ATTRIBUTES", "4.17", PEO_IOC_MODIFY_ATTRIBUTES },
};

#define MAX_FEATURES 160
static struct peo_feature table[MAX_FEATURES];
static size_t table_len;
static int probe_result;
static int kernel_size;
static unsigned long open_flags; /* PEO_FLAG_FD_CLOEXEC when the kernel has it */
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static char size_names[PEO_ATTR_SIZE_VERS][40]; /* "VERn (size bytes)" */
static char probe_error[256];
static struct peo_probe_failure failure = { probe_error, 0, { 0 }, 0 };

const char *peo_feature_kind_name(enum peo_feature_kind kind)
{
	static const char *const names[PEO_FEATURE_KIND_COUNT] = {
		"attr size", "attr field", "sample_type", "read_format",
		"attr flag", "record", "ioctl",
	};

	return (unsigned)kind < PEO_FEATURE_KIND_COUNT ? names[kind] : "?";
}

static void probe_attr(struct peo_attr *a)
{
	peo_attr_init(a);
	a->type = PEO_TYPE_SOFTWARE;
	a->config = PEO_COUNT_SW_TASK_CLOCK;
	a->disabled = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

/* Opens @a and closes it again; 0 or -errno. */
static int try_open(struct peo_attr *a)
{
	int fd = peo_raw_perf_event_open(a, 0, -1, -1, open_flags);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static struct peo_feature *add(enum peo_feature_kind kind, const char *name, const char *since,
			       uint64_t value)
{
	struct peo_feature *f = &table[table_len++];

	f->kind = kind;
	f->name = name;
	f->since = since;
	f->value = value;
	f->state = PEO_FEATURE_UNKNOWN;
	f->source = PEO_FEATURE_PROBED;
	f->probe_errno = 0;
	f->note = "";
	return f;
}

/* The rule: EINVAL/E2BIG = unknown to the kernel; success or another
 * refusal (EOPNOTSUPP: not for software events) = known to it. */
static void judge(struct peo_feature *f, int rc)
{
	f->probe_errno = rc < 0 ? -rc : 0;
	if (rc == 0) {
		f->state = PEO_FEATURE_SUPPORTED;
		f->note = "a probe event opened with it";
	} else if (rc == -EINVAL || rc == -E2BIG) {
		f->state = PEO_FEATURE_MISSING;
		f->note = "the kernel rejected a probe event with it";
	} else if (rc == -EOPNOTSUPP || rc == -ENOSYS || rc == -ENOENT) {
		f->state = PEO_FEATURE_SUPPORTED;
		f->note = "the kernel knows it; software events cannot use it";
	} else {
		f->state = PEO_FEATURE_UNKNOWN;
		f->note = "the probe failed for another reason (see probe_errno)";
	}
}

static int find_kernel_size(void)
{
	struct peo_attr a;
	int rc;

	probe_attr(&a);
	((unsigned char *)&a)[sizeof(a) - 1] = 1; /* a byte only a newer kernel reads */
	rc = try_open(&a);
	if (rc == -E2BIG)
		return (int)a.size;
	if (rc == 0 || rc == -EINVAL)
		return (int)sizeof(a); /* it read that byte: its struct is at least ours */
	return rc;
}

static void probe_sizes_and_fields(void)
{
	const struct peo_attr_field *fields;
	size_t n, i, j;
	uint32_t size;

	for (i = 0; peo_attr_size_ver(i, &size); i++) {
		struct peo_feature *f;

		snprintf(size_names[i], sizeof(size_names[i]), "VER%zu (%u bytes)", i, size);
		f = add(PEO_FEATURE_ATTR_SIZE, size_names[i], peo_attr_size_since(size), size);
		f->source = PEO_FEATURE_BY_SIZE;
		f->state = size <= (uint32_t)kernel_size ? PEO_FEATURE_SUPPORTED : PEO_FEATURE_MISSING;
		f->note = f->state == PEO_FEATURE_SUPPORTED ? "within the kernel's attr size"
							    : "past the kernel's attr size: fields here must stay zero";
	}
	fields = peo_attr_fields(&n);
	for (i = 0; i < n; i++) {
		struct peo_feature *f = add(PEO_FEATURE_ATTR_FIELD, fields[i].name, fields[i].since,
					    fields[i].offset);

		f->source = PEO_FEATURE_BY_SIZE;
		if ((int)(fields[i].offset + fields[i].size) > kernel_size) {
			f->state = PEO_FEATURE_MISSING;
			f->note = "past the kernel's attr size";
			continue;
		}
		f->state = PEO_FEATURE_SUPPORTED;
		f->note = "within the kernel's attr size";
		for (j = 0; j < PEO_ARRAY_SIZE(renamed_fields); j++) {
			struct peo_attr a;

			if (strcmp(renamed_fields[j].name, fields[i].name))
				continue;
			probe_attr(&a);
			renamed_fields[j].setup(&a);
			f->source = PEO_FEATURE_PROBED;
			judge(f, try_open(&a));
			if (f->state == PEO_FEATURE_MISSING)
				f->note = "within the kernel's attr size but still reserved there (older kernel)";
		}
	}
}

static void probe_bits(void)
{
	size_t i;

	for (i = 0; i < PEO_ARRAY_SIZE(bit_descs); i++) {
		const struct feature_desc *d = &bit_descs[i];
		struct peo_feature *f = add(d->kind, d->name, d->since, d->value);
		struct peo_attr a;

		if (d->unprobeable) {
			f->note = d->unprobeable;
			continue;
		}
		probe_attr(&a);
		if (d->kind == PEO_FEATURE_SAMPLE_TYPE) {
			a.sample_period = 100000;
			a.sample_type |= d->value;
		} else if (d->kind == PEO_FEATURE_READ_FORMAT) {
			a.read_format |= d->value;
		} else {
			a.flags |= d->value;
		}
		if (d->setup)
			d->setup(&a);
		judge(f, try_open(&a));
	}
}

static const struct peo_feature *find(enum peo_feature_kind kind, const char *name)
{
	size_t i;

	for (i = 0; i < table_len; i++)
		if (table[i].kind == kind && !strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

/* "6.18.44-foo" >= "4.2"?  Compares major.minor only. */
static int release_at_least(const char *release, const char *since)
{
	unsigned rmaj = 0, rmin = 0, smaj = 0, smin = 0;

	if (sscanf(release, "%u.%u", &rmaj, &rmin) < 1 || sscanf(since, "%u.%u", &smaj, &smin) < 1)
		return -1;
	return rmaj != smaj ? rmaj > smaj : rmin >= smin;
}

static void probe_records(void)
{
	struct utsname u;
	size_t i;

	if (uname(&u) < 0)
		u.release[0] = '\0';
	for (i = 0; i < PEO_ARRAY_SIZE(record_descs); i++) {
		const struct record_desc *d = &record_descs[i];
		struct peo_feature *f = add(PEO_FEATURE_RECORD, d->name, d->since, d->type);
		const struct peo_feature *flag = d->flag ? find(PEO_FEATURE_ATTR_FLAG, d->flag) : NULL;
		int newer;

		if (flag) {
			f->source = PEO_FEATURE_BY_FLAG;
			f->state = flag->state;
			f->note = flag->state == PEO_FEATURE_SUPPORTED ? "its attr flag is accepted"
								       : "its attr flag is not accepted";
			continue;
		}
		newer = release_at_least(u.release, d->since);
		if (!strcmp(d->since, "2.6.31")) {
			f->source = PEO_FEATURE_BY_SIZE;
			f->state = PEO_FEATURE_SUPPORTED;
			f->note = "part of the first perf ABI";
		} else if (newer >= 0) {
			f->source = PEO_FEATURE_BY_RELEASE;
			f->state = newer ? PEO_FEATURE_SUPPORTED : PEO_FEATURE_UNKNOWN;
			f->note = newer ? "the kernel release is at least the one that added it"
					: "no flag asks for it; the kernel release predates it (a backport may have it)";
		} else {
			f->source = PEO_FEATURE_BY_RELEASE;
			f->note = "no flag asks for it and the kernel release is unreadable";
		}
	}
}

static void probe_ioctls(void)
{
	struct peo_attr a;
	size_t i;
	int fd;

	probe_attr(&a);
	a.sample_period = 1000000; /* REFRESH needs a sampling event */
	fd = peo_raw_perf_event_open(&a, 0, -1, -1, open_flags);
	for (i = 0; i < PEO_ARRAY_SIZE(ioctl_descs); i++) {
		const struct ioctl_desc *d = &ioctl_descs[i];
		struct peo_feature *f = add(PEO_FEATURE_IOCTL, d->name, d->since, d->request);
		uint64_t u64 = 1000000;
		struct {
			struct peo_query_bpf q;
			uint32_t ids[4];
		} query = { { 4, 0 }, { 0 } };
		struct peo_attr mod = a;
		unsigned long arg = 0;
		int saved = errno;
		int rc;

		if (fd < 0) {
			f->probe_errno = -fd;
			f->note = "the probe event could not be opened";
			continue;
		}
		if (d->request == PEO_IOC_PERIOD || d->request == PEO_IOC_ID)
			arg = (unsigned long)&u64;
		else if (d->request == PEO_IOC_SET_OUTPUT || d->request == PEO_IOC_SET_BPF)
			arg = (unsigned long)-1L;
		else if (d->request == PEO_IOC_SET_FILTER)
			arg = (unsigned long)"";
		else if (d->request == PEO_IOC_QUERY_BPF)
			arg = (unsigned long)&query;
		else if (d->request == PEO_IOC_MODIFY_ATTRIBUTES)
			arg = (unsigned long)&mod;
		else if (d->request == PEO_IOC_REFRESH)
			arg = 1;
		rc = ioctl(fd, d->request, arg);
		f->probe_errno = rc < 0 ? errno : 0;
		errno = saved;
		if (d->request == PEO_IOC_REFRESH)
			ioctl(fd, PEO_IOC_DISABLE, 0);
		if (f->probe_errno == ENOTTY) {
			f->state = PEO_FEATURE_MISSING;
			f->note = "the kernel answered ENOTTY: it does not know this ioctl";
		} else {
			f->state = PEO_FEATURE_SUPPORTED;
			f->note = f->probe_errno ? "the kernel knows it; it refused a software event's use of it"
						 : "the ioctl succeeded on a software event";
		}
	}
	if (fd >= 0)
		close(fd);
}

static void probe_all(void)
{
	struct peo_attr a;
	int rc;

	/* FD_CLOEXEC arrived in 3.14; probe with it only if the kernel has it. */
	open_flags = PEO_FLAG_FD_CLOEXEC;
	probe_attr(&a);
	rc = try_open(&a);
	if (rc == -EINVAL) {
		open_flags = 0;
		rc = try_open(&a);
	}
	if (rc < 0) {
		snprintf(probe_error, sizeof(probe_error),
			 "feature probe: perf_event_open(software/task-clock:u, pid 0, cpu -1): %s",
			 strerror(-rc));
		failure.open_failed = 1;
		failure.attr = a;
		failure.flags = open_flags;
		probe_result = rc;
		return;
	}
	kernel_size = find_kernel_size();
	if (kernel_size < 0) {
		snprintf(probe_error, sizeof(probe_error),
			 "feature probe: finding the kernel's attr size failed: %s", strerror(-kernel_size));
		probe_result = kernel_size;
		return;
	}
	probe_sizes_and_fields();
	probe_bits();
	probe_records();
	probe_ioctls();
	probe_result = 0;
}

int peo_features_table(const struct peo_feature **out, size_t *count)
{
	pthread_once(&probe_once, probe_all);
	if (probe_result < 0)
		return probe_result;
	if (out)
		*out = table;
	if (count)
		*count = table_len;
	return 0;
}

const struct peo_probe_failure *peo_features_failure(void)
{
	return peo_features_table(NULL, NULL) < 0 ? &failure : NULL;
}

int peo_features_kernel_size(void)
{
	int rc = peo_features_table(NULL, NULL);

	return rc < 0 ? rc : kernel_size;
}
