/*
 * ring_set.c - waiting on many rings at once: one epoll fd over their
 * event fds, and an eventfd another thread writes to wake the waiter.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "internal.h"

#define WAKE_TAG SIZE_MAX /* epoll data of the eventfd */

struct peo_ring_set {
	int epfd;
	int wakefd;
	struct peo_ring **rings;
	unsigned char *gone; /* hung up and drained: no longer watched */
	size_t n, cap, live;
	struct peo_ring **ready;
	size_t nready;
	struct epoll_event *events;
};

int peo_ring_set_new(struct peo_ring_set **out)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = WAKE_TAG };
	struct peo_ring_set *s;

	if (!out)
		return peo_fail(EINVAL, "peo_ring_set_new: argument 'out' is NULL");
	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return peo_fail(ENOMEM, "out of memory for a ring set");
	s->wakefd = -1;
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s->epfd >= 0)
		s->wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (s->epfd < 0 || s->wakefd < 0 || epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->wakefd, &ev) < 0) {
		int err = errno;
		const char *call = s->epfd < 0 ? "epoll_create1" : s->wakefd < 0 ? "eventfd" : "epoll_ctl";
		char why[400];
		struct peo_buf b = { why, sizeof(why), 0 };

		why[0] = '\0';
		peo_ring_set_free(s);
		/* the fd limit is the usual cause: say it, not just the errno */
		peo_explain_fd_limit(&b, err);
		return peo_fail(err, "peo_ring_set_new: %s: %s%s%s", call, strerror(err),
				b.len ? ": " : "", why);
	}
	s->events = calloc(1, sizeof(*s->events)); /* the wake fd's: an empty set can be woken */
	if (!s->events) {
		peo_ring_set_free(s);
		return peo_fail(ENOMEM, "out of memory for a ring set");
	}
	*out = s;
	return 0;
}

void peo_ring_set_free(struct peo_ring_set *s)
{
	if (!s)
		return;
	if (s->epfd >= 0)
		close(s->epfd);
	if (s->wakefd >= 0)
		close(s->wakefd);
	free(s->rings);
	free(s->gone);
	free(s->ready);
	free(s->events);
	free(s);
}

static int grow(struct peo_ring_set *s)
{
	size_t cap = s->cap ? s->cap * 2 : 8;
	struct peo_ring **rings = realloc(s->rings, cap * sizeof(*rings));
	struct peo_ring **ready;
	struct epoll_event *events;
	unsigned char *gone;

	if (rings)
		s->rings = rings;
	ready = realloc(s->ready, cap * sizeof(*ready));
	if (ready)
		s->ready = ready;
	events = realloc(s->events, (cap + 1) * sizeof(*events));
	if (events)
		s->events = events;
	gone = realloc(s->gone, cap);
	if (gone)
		s->gone = gone;
	if (!rings || !ready || !events || !gone)
		return peo_fail(ENOMEM, "out of memory for a ring set of %zu rings", cap);
	s->cap = cap;
	return 0;
}

int peo_ring_set_add(struct peo_ring_set *s, struct peo_ring *ring)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int err;

	if (!s || !ring)
		return peo_fail(EINVAL, "peo_ring_set_add: argument '%s' is NULL", s ? "ring" : "set");
	if (s->n == s->cap && (err = grow(s)))
		return err;
	ev.data.u64 = s->n;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, peo_ring_fd(ring), &ev) < 0)
		return peo_fail(errno, "peo_ring_set_add: epoll_ctl(fd %d): %s%s", peo_ring_fd(ring),
				strerror(errno), errno == EEXIST ? "; the ring is in the set already" : "");
	s->rings[s->n] = ring;
	s->gone[s->n] = 0;
	s->live++;
	return (int)s->n++;
}

int peo_ring_set_wait(struct peo_ring_set *s, int timeout_ms)
{
	int n;

	if (!s)
		return peo_fail(EINVAL, "peo_ring_set_wait: the set is NULL");
	s->nready = 0;
	n = epoll_wait(s->epfd, s->events, (int)s->n + 1, timeout_ms);
	if (n < 0)
		return peo_fail(errno, "peo_ring_set_wait: epoll_wait: %s", strerror(errno));
	for (int i = 0; i < n; i++) {
		size_t k = (size_t)s->events[i].data.u64;
		uint64_t drained;

		if (k == WAKE_TAG) {
			if (read(s->wakefd, &drained, sizeof(drained)) < 0 && errno != EAGAIN)
				return peo_fail(errno, "peo_ring_set_wait: eventfd: %s", strerror(errno));
			continue;
		}
		if (!(s->events[i].events & EPOLLIN) && (s->events[i].events & EPOLLHUP) &&
		    peo_ring_wait(s->rings[k], 0) == -EPIPE) {
			/* Its task is gone and nothing is left: report it one last time. */
			epoll_ctl(s->epfd, EPOLL_CTL_DEL, peo_ring_fd(s->rings[k]), NULL);
			s->gone[k] = 1;
			s->live--;
		}
		s->ready[s->nready++] = s->rings[k];
	}
	return (int)s->nready;
}

struct peo_ring *peo_ring_set_ready(const struct peo_ring_set *s, size_t i)
{
	return s && i < s->nready ? s->ready[i] : NULL;
}

size_t peo_ring_set_live(const struct peo_ring_set *s)
{
	return s ? s->live : 0;
}

int peo_ring_set_wake(struct peo_ring_set *s)
{
	uint64_t one = 1;

	if (!s)
		return -EINVAL; /* no sentence: this may run in a signal handler */
	return write(s->wakefd, &one, sizeof(one)) < 0 && errno != EAGAIN ? -errno : 0;
}

int peo_ring_set_fd(const struct peo_ring_set *set)
{
	return set ? set->epfd : peo_fail(EINVAL, "peo_ring_set_fd: argument 'set' is NULL");
}
