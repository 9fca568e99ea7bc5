/*
 * counter.c - one event on a target: a group of one, read without
 * PERF_FORMAT_GROUP, and optionally through its mmap control page.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "counter_internal.h"

static int map_control_page(struct peo_group *g)
{
	void *page;

	page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, g->fds[0], 0);
	if (page == MAP_FAILED)
		return peo_fail(errno, "peo_counter_open: mmap of the control page of fd %d: %s",
				g->fds[0], strerror(errno));
	g->page = page;
	/* A user read has no id of its own to report: ask once. */
	return peo_sys_ioc_id(g->fds[0], &g->ids[0]);
}

int peo_counter_open(struct peo_counter **out, const struct peo_attr *attr,
		     const struct peo_target *target, const struct peo_counter_opts *opts)
{
	struct peo_group *g;
	int err, user_read;

	if (!attr)
		return peo_fail(EINVAL, "peo_counter_open: argument 'attr' is NULL");
	err = peo_group_open_common(&g, attr, NULL, 0, 1, target, opts, 0);
	if (err) {
		if (out)
			*out = NULL;
		return err;
	}
	user_read = opts && opts->sz > offsetof(struct peo_counter_opts, user_read) && opts->user_read;
	if (user_read && (g->nslots != 1 || g->slot_thread[0] != 0))
		err = peo_fail(EINVAL, "peo_counter_open: user_read needs a counter on the calling "
			       "thread (PEO_TARGET_SELF, any CPU): rdpmc reads this CPU's counter");
	/* Software, tracepoint and breakpoint events are never on a hardware
	 * counter, so their page could only ever say "read()": skip it. */
	else if (user_read && attr->type != PEO_TYPE_SOFTWARE && attr->type != PEO_TYPE_TRACEPOINT &&
		 attr->type != PEO_TYPE_BREAKPOINT)
		err = map_control_page(g);
	if (err) {
		peo_group_free(g);
		*out = NULL;
		return err;
	}
	*out = (struct peo_counter *)g;
	return 0;
}

void peo_counter_close(struct peo_counter *c)
{
	peo_group_free(c ? &c->g : NULL);
}

int peo_counter_enable(struct peo_counter *c)
{
	return peo_group_ioctl_all(c ? &c->g : NULL, peo_sys_ioc_enable, "peo_counter_enable");
}

int peo_counter_disable(struct peo_counter *c)
{
	return peo_group_ioctl_all(c ? &c->g : NULL, peo_sys_ioc_disable, "peo_counter_disable");
}

int peo_counter_reset(struct peo_counter *c)
{
	return peo_group_ioctl_all(c ? &c->g : NULL, peo_sys_ioc_reset, "peo_counter_reset");
}

int peo_counter_read(struct peo_counter *c, struct peo_count *count)
{
	struct peo_group *g;
	int err;

	if (!c || !count)
		return peo_fail(EINVAL, "peo_counter_read: argument '%s' is NULL", c ? "count" : "counter");
	g = &c->g;
	if (g->page && peo_mmap_page_read((const volatile struct peo_mmap_page *)g->page, &g->snap[0])) {
		g->snap[0].id = g->ids[0];
		g->snap[0].lost = 0;
		g->last_user_read = 1;
		g->have_snap = 1;
		*count = g->snap[0];
		return 0;
	}
	g->last_user_read = 0;
	if (g->nslots == 1) { /* the self-monitoring case: one read(), nothing to sum */
		err = peo_group_read_slot(g, 0);
		if (err)
			return err;
		g->have_snap = 1;
		*count = g->snap[0];
		return 0;
	}
	err = peo_group_read(g, count, 1);
	return err < 0 ? err : 0;
}

int peo_counter_counts(const struct peo_counter *c, enum peo_count_by by, size_t index,
		       struct peo_count *count)
{
	int n = peo_group_sum(c ? &c->g : NULL, by, index, count, 1);

	return n < 0 ? n : 0;
}

int peo_counter_fd(const struct peo_counter *c, size_t slot)
{
	return peo_group_fd(c ? &c->g : NULL, slot, 0);
}

int peo_counter_user_read_ok(const struct peo_counter *c)
{
	if (!c)
		return peo_fail(EINVAL, "peo_counter_user_read_ok: argument 'counter' is NULL");
	return c->g.last_user_read;
}
