/*
 * event_open.c - opening a parsed event with perf's fallbacks, so an event
 * string opens wherever perf would open it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_internal.h"

/* Keep the first failure's sentence; later attempts would overwrite it. */
static int attempt(struct peo_attr *a, pid_t pid, int cpu, int group_fd, unsigned long flags,
		   int *first_err, char *first_text, size_t cap)
{
	int fd = peo_sys_open(a, pid, cpu, group_fd, flags);

	if (fd < 0 && !*first_err) {
		*first_err = fd;
		strncpy(first_text, peo_last_error(), cap - 1);
		first_text[cap - 1] = '\0';
	}
	return fd;
}

/*
 * The sentence of a failed open, naming the event as the user wrote it
 * ("sched:sched_switch", "cycles:u") where the system call's text names
 * the attr ("tracepoint id 372", "hardware/cycles").
 */
static int fail_named(const struct peo_event *ev, const struct peo_attr *attr, int err,
		      const char *text, const char *tried)
{
	static const char call[] = "perf_event_open(";
	char what[160];
	size_t len;

	peo_describe_attr(attr, what, sizeof(what));
	len = strlen(what);
	if (ev->name && ev->name[0] && strcmp(ev->name, what) &&
	    !strncmp(text, call, sizeof(call) - 1) &&
	    !strncmp(text + sizeof(call) - 1, what, len) && text[sizeof(call) - 1 + len] == ',')
		return peo_fail(err, "%s%s%s%s", call, ev->name, text + sizeof(call) - 1 + len, tried);
	return peo_fail(err, "%s%s", text, tried);
}

int peo_event_open(const struct peo_event *ev, struct peo_attr *attr, pid_t pid, int cpu,
		   int group_fd, unsigned long flags)
{
	struct peo_attr own;
	char first_text[1024], tried[160] = "";
	int first_err = 0, fd, precise;

	if (!ev)
		return peo_fail(EINVAL, "peo_event_open: argument 'ev' is NULL");
	if (!attr) {
		own = ev->attr;
		attr = &own;
	}
	if (ev->flags & PEO_EVENT_PRECISE_MAX)
		attr->precise_ip = 3;
	for (;;) {
		fd = attempt(attr, pid, cpu, group_fd, flags, &first_err, first_text,
			     sizeof(first_text));
		if (fd >= 0)
			return fd;
		precise = attr->precise_ip;
		if ((ev->flags & PEO_EVENT_PRECISE_MAX) && precise > 0 &&
		    (fd == -EOPNOTSUPP || fd == -EINVAL)) {
			attr->precise_ip = precise - 1;
			strcpy(tried, "; also tried lower precise_ip");
			continue;
		}
		if ((attr->exclude_guest || attr->exclude_host) && (fd == -EINVAL || fd == -EOPNOTSUPP)) {
			attr->exclude_guest = 0;
			attr->exclude_host = 0;
			strncat(tried, "; also tried without exclude_guest/exclude_host",
				sizeof(tried) - strlen(tried) - 1);
			continue;
		}
		break;
	}
	return fail_named(ev, attr, first_err, first_text, tried);
}

int peo_event_list_user_only(struct peo_event_list *list)
{
	int changed = 0;

	if (!list)
		return peo_fail(EINVAL, "peo_event_list_user_only: argument 'list' is NULL");
	for (size_t i = 0; i < list->count; i++) {
		struct peo_event *ev = list->events[i];
		const char *name = ev->name ? ev->name : "";
		char *renamed;

		if (ev->attr.exclude_kernel || ev->attr.exclude_user)
			continue;
		/* perf's naming: a bare name gets ":u", one with a modifier or PMU "u" */
		if (asprintf(&renamed, "%s%su", name, strpbrk(name, ":/") ? "" : ":") < 0)
			return peo_fail(ENOMEM, "out of memory renaming event '%s'", name);
		free(ev->name);
		ev->name = renamed;
		ev->attr.exclude_kernel = 1;
		ev->attr.exclude_hv = 1;
		changed++;
	}
	return changed;
}

int peo_event_user_fallback(struct peo_event_list *list, int err, long *level)
{
	long paranoid = 0;

	if (!list)
		return peo_fail(EINVAL, "peo_event_user_fallback: argument 'list' is NULL");
	if ((err != -EACCES && err != -EPERM) ||
	    peo_read_long_file("/proc/sys/kernel/perf_event_paranoid", &paranoid) < 0 ||
	    paranoid < 2) /* below 2, kernel mode was not the reason */
		return 0;
	if (level)
		*level = paranoid;
	return peo_event_list_user_only(list);
}

/* perf's modifier letters for @a (precise_ip @precise): the contexts
 * counted when some are excluded, p per precise level, and H or G when
 * guest/host filtering is not what the others imply. */
static void modifier_text(const struct peo_attr *a, unsigned precise, char *out, size_t cap)
{
	char m[16];
	size_t n = 0;
	unsigned guest_default = 0;

	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			m[n++] = 'k';
		if (!a->exclude_user)
			m[n++] = 'u';
		if (!a->exclude_hv)
			m[n++] = 'h';
		guest_default = 1;
	}
	for (unsigned i = 0; i < precise && i < 3; i++)
		m[n++] = 'p';
	if (precise)
		guest_default = 1;
	if (a->exclude_host || a->exclude_guest == guest_default) {
		if (!a->exclude_host)
			m[n++] = 'H';
		if (!a->exclude_guest)
			m[n++] = 'G';
	}
	m[n] = '\0';
	snprintf(out, cap, "%s%s", n ? ":" : "", m);
}

int peo_event_cycles_fallback(struct peo_event_list *list, int err)
{
	int changed = 0;

	if (!list)
		return peo_fail(EINVAL, "peo_event_cycles_fallback: argument 'list' is NULL");
	if (err != -ENOENT && err != -ENXIO && err != -ENODEV)
		return 0;
	for (size_t i = 0; i < list->count; i++) {
		struct peo_event *ev = list->events[i];
		unsigned precise = ev->flags & PEO_EVENT_PRECISE_MAX ? 3 : ev->attr.precise_ip;
		char mods[16], *renamed;

		if (ev->attr.type != PEO_TYPE_HARDWARE || ev->attr.config != PEO_COUNT_HW_CPU_CYCLES)
			continue;
		modifier_text(&ev->attr, precise, mods, sizeof(mods));
		if (asprintf(&renamed, "cpu-clock%s", mods) < 0)
			return peo_fail(ENOMEM, "out of memory renaming event '%s'", peo_event_name(ev));
		if (peo_event_set_string(&ev->pmu, "software", strlen("software"))) {
			free(renamed);
			return peo_fail(ENOMEM, "out of memory renaming event '%s'", peo_event_name(ev));
		}
		free(ev->name);
		ev->name = renamed;
		ev->attr.type = PEO_TYPE_SOFTWARE;
		ev->attr.config = PEO_COUNT_SW_CPU_CLOCK;
		ev->kind = PEO_EVENT_KIND_SOFTWARE;
		changed++;
	}
	return changed;
}
