/*
 * peo/ring.h - the sampling layer: an event's mmap ring buffer.
 *
 * A ring is one control page followed by 2^n data pages that the kernel
 * fills with records.  peo hands records out in place (no copy unless one
 * wraps the end and the caller asks for a copy), moves data_tail only when
 * the caller consumes, and counts every way data can be lost.
 *
 * Thread safety: one thread reads a ring at a time.  peo_ring_set_wake()
 * may be called from any thread.
 */
#ifndef PEO_RING_H
#define PEO_RING_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "abi.h"
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct peo_ring;

/* How a ring is mapped.  Initialise with PEO_OPTS(peo_ring_opts, o, ...). */
struct peo_ring_opts {
	size_t sz;
	/* Data area in pages (rounded up to a power of two), or 0 to size it
	 * by data_bytes; both 0 means 16 pages. */
	size_t data_pages;
	/* Data area in bytes, rounded up to a power-of-two number of pages. */
	size_t data_bytes;
	/* Overwrite mode (a flight recorder): the mapping is read-only, the
	 * kernel never waits for the reader and overwrites the oldest records.
	 * Open the event with attr.write_backward = 1 and read the ring with
	 * peo_ring_snapshot(), not peo_ring_next(). */
	int overwrite;
	/* AUX area in pages (a power of two), 0 for none; mapped read-write
	 * unless aux_overwrite.  Needs a forward ring (the aux fields of the
	 * control page are written) and a PMU that produces AUX data: others
	 * refuse with EOPNOTSUPP. */
	size_t aux_pages;
	int aux_overwrite;
};

/**
 * peo_ring_map() - map the ring buffer of the event open on @fd.
 * @out:  receives the ring; release it with peo_ring_unmap().
 * @fd:   a perf event fd (a sampling event, or any event whose records
 *        are wanted: mmap, comm, switch...).  The ring does not own it.
 * @opts: sizes and mode, or NULL for 16 forward pages.
 *
 * Returns 0, or a negative errno: -EINVAL for a size that is not a power
 * of two pages or an fd that is not a perf event; -EPERM or -ENOMEM when the
 * size passes the locked-memory limit (kernel.perf_event_mlock_kb, plus
 * RLIMIT_MEMLOCK, for users without CAP_IPC_LOCK); -EBUSY when the fd's
 * output already goes to another ring (PERF_EVENT_IOC_SET_OUTPUT).  The
 * sentence says which limit and how large the ring may be.
 */
PEO_API int peo_ring_map(struct peo_ring **out, int fd, const struct peo_ring_opts *opts);

/** peo_ring_unmap() - unmap the ring and free it; NULL is ignored. */
PEO_API void peo_ring_unmap(struct peo_ring *ring);

/** peo_ring_fd() - the fd the ring was mapped from (for poll and ioctls). */
PEO_API int peo_ring_fd(const struct peo_ring *ring);

/** peo_ring_data_size() - the data area's size in bytes (a power of two). */
PEO_API size_t peo_ring_data_size(const struct peo_ring *ring);

/** peo_ring_page() - the control page (data_head, time fields, aux fields). */
PEO_API const volatile struct peo_mmap_page *peo_ring_page(const struct peo_ring *ring);

/**
 * peo_ring_add() - send the records of another event into this ring
 * (PERF_EVENT_IOC_SET_OUTPUT): the kernel requires the same CPU (or both
 * per task on the same task) and the same clock.
 * @ring: a forward or overwrite ring.
 * @fd:   the other event.
 *
 * Returns 0 or a negative errno (-EINVAL when the kernel refuses the pair;
 * the sentence says why it may have).
 */
PEO_API int peo_ring_add(struct peo_ring *ring, int fd);

/*
 * One record as peo_ring_next() hands it out.  Records are 8-byte aligned,
 * so the 8-byte header never straddles the end of the ring; the rest may.
 * The caller allocates it and sets sz (see common.h):
 *     struct peo_ring_record rec = { .sz = sizeof(rec) };
 * New fields go at the end only.
 */
struct peo_ring_record {
	size_t sz;                      /* set by the caller: sizeof(struct peo_ring_record) */
	struct peo_event_header header; /* a copy; header.size is the record's size */
	/* The whole record, header included, contiguous: in the ring, or in
	 * the caller's buffer when it wrapped; NULL when it wrapped and no
	 * buffer was given (then read seg[]). */
	const void *data;
	/* The record as it lies in the ring: seg[1] is NULL unless it wraps. */
	const void *seg[2];
	size_t seg_len[2];
	uint64_t pos;   /* its offset in the stream of bytes the kernel wrote */
	int copied;     /* 1 when data points to the caller's buffer */
};

/**
 * peo_ring_next() - the next record, without consuming it.
 * @ring: a forward ring.
 * @rec:  receives the record; valid until peo_ring_consume().  rec->sz is
 *        the caller's (sizeof(struct peo_ring_record)): only that many
 *        bytes are written, those past the fields this libpeo knows zeroed.
 * @buf:  where a record that wraps the end is copied, or NULL to get the
 *        two segments only.
 * @cap:  @buf's size in bytes.
 *
 * Returns 1 with a record, 0 when the ring holds no more (for now), or a
 * negative errno: -ENOSPC when a wrapped record is larger than @cap (the
 * record stays next; rec->header.size says how large it is); -EPROTO for
 * an impossible header (size under 8 or not a multiple of 8, or a record
 * that runs past data_head): the sentence gives its stream offset; -ESPIPE
 * on an overwrite ring (use peo_ring_snapshot()); -EINVAL for a rec->sz
 * under 0.1's size (nothing is written or handed out then).
 */
PEO_API int peo_ring_next(struct peo_ring *ring, struct peo_ring_record *rec, void *buf,
			  size_t cap);

/**
 * peo_ring_next_span() - every record now in the ring at once, as one span
 * of whole records, or two when they wrap the end (the second starts at
 * the ring's start): for consumers that copy bytes in bulk, such as a
 * perf.data writer.  Each header is checked and lost data counted, as
 * peo_ring_next() does.  Give the space back with peo_ring_consume().
 * @seg, @len: receive the spans; seg[1] is NULL when there is one.
 *
 * Returns the number of records (0 when none), or a negative errno as
 * peo_ring_next() (a bad header after good records ends the span there; the
 * error comes with the next call).
 */
PEO_API int peo_ring_next_span(struct peo_ring *ring, const void *seg[2], size_t len[2]);

/**
 * peo_ring_span_whole() - how many bytes at the start of the last span's
 * seg[0] are whole records: len[0] unless the ring's end cuts a record, which
 * then starts there and ends in seg[1].  A copier puts that record together
 * from its two parts without walking the headers again.
 * @ring: a ring after peo_ring_next_span() returned records.
 *
 * Returns the byte count (0 for a NULL @ring, before any span, and after
 * a peo_ring_next_span() that failed).
 */
PEO_API size_t peo_ring_span_whole(const struct peo_ring *ring);

/**
 * peo_ring_consume() - give every record handed out so far back to the
 * kernel (data_tail is stored with release order, so the kernel sees the
 * reads done before it reuses the space).
 */
PEO_API void peo_ring_consume(struct peo_ring *ring);

/* What was received and lost; sized as common.h says (new fields at the end only). */
struct peo_ring_stats {
	size_t sz;             /* set by the caller: sizeof(struct peo_ring_stats) */
	uint64_t records;      /* records handed out by peo_ring_next() */
	uint64_t bytes;        /* their bytes */
	uint64_t lost_records; /* PERF_RECORD_LOST records seen */
	uint64_t lost;         /* the events they say were dropped (ring full) */
	uint64_t lost_samples; /* PERF_RECORD_LOST_SAMPLES: samples the PMU dropped */
	uint64_t overruns;     /* times the writer lapped the reader (overwrite rings) */
};

/**
 * peo_ring_stats() - what the ring has received and lost so far.
 * @stats: set stats->sz = sizeof(*stats) first; only that many bytes are
 *         written, those past the fields this libpeo knows zeroed.
 * Returns 0, or -EINVAL for a NULL argument or a sz under 0.1's size.
 */
PEO_API int peo_ring_stats(const struct peo_ring *ring, struct peo_ring_stats *stats);

/**
 * peo_ring_wait() - block until the ring has data to read (the event's
 * wakeup_events or wakeup_watermark was reached), the task it watches
 * exits, or @timeout_ms passes.
 * @timeout_ms: -1 waits for ever, 0 only checks.
 *
 * Returns 1 when there is data, 0 on timeout, -EPIPE when the event is
 * gone (POLLHUP: the monitored task exited; what is in the ring can still
 * be read), or a negative errno (-EINTR when a signal came).
 */
PEO_API int peo_ring_wait(struct peo_ring *ring, int timeout_ms);

/**
 * peo_ring_snapshot() - the newest records of an overwrite ring: output is
 * paused (PERF_EVENT_IOC_PAUSE_OUTPUT), the records are walked from
 * data_head towards older ones and copied, and output resumes.  Pausing
 * does not stop a write another CPU had already begun, which would land on
 * the oldest bytes being copied, so the snapshot first waits for such
 * writes to end (membarrier(MEMBARRIER_CMD_GLOBAL): an RCU grace period,
 * about 1 to 5 ms here).  Where membarrier refuses (a nohz_full kernel),
 * it copies until data_head holds still across a copy instead, which a
 * write stalled for the whole copy can still tear.  Samples that arrive
 * while output is paused are counted in a LOST record written before the
 * next sample.
 * @ring: an overwrite ring (opts.overwrite and attr.write_backward).
 * @buf:  receives whole records, newest first (the order they lie in a
 *        backward ring), each as the kernel wrote it.
 * @cap:  @buf's size; the data size is always enough.
 *
 * Returns the number of bytes written to @buf (0 when nothing was written
 * yet), or a negative errno: -EINVAL for a forward ring; -EPROTO for an
 * impossible header (with its offset).  The oldest records that do not fit
 * in @cap are left out, and so is the oldest record when newer ones have
 * overwritten its end.  stats.overruns counts snapshots that found more
 * than a ring's worth written since the previous one (records never seen).
 */
PEO_API long peo_ring_snapshot(struct peo_ring *ring, void *buf, size_t cap);

/**
 * peo_ring_aux() - the AUX area mapped with opts.aux_pages.
 * @data: receives its address; @size: its size in bytes.
 * Returns 0, or -ENOENT when the ring has no AUX area.
 */
PEO_API int peo_ring_aux(const struct peo_ring *ring, const void **data, size_t *size);

/**
 * peo_ring_aux_head() - aux_head, loaded with acquire order: the AUX bytes
 * below it are written.  0 for a ring without an AUX area.
 */
PEO_API uint64_t peo_ring_aux_head(const struct peo_ring *ring);

/* A piece of the AUX area's data, as peo_ring_aux_next() hands it out.
 * The caller sets sz: struct peo_aux_chunk c = { .sz = sizeof(c) }. */
struct peo_aux_chunk {
	size_t sz;
	const void *data; /* in the AUX area: valid until peo_ring_aux_consume()
			   * passes pos + len */
	size_t len;
	uint64_t pos;     /* its offset in the stream of AUX bytes the PMU wrote */
};

/**
 * peo_ring_aux_next() - the next piece of AUX data not yet read, without
 * copying: from where the last call stopped up to aux_head, cut at the
 * area's end (the rest comes next) and at @max bytes (0: no limit).
 * Release what was read with peo_ring_aux_consume(ring, pos + len).
 * Returns 1 with a chunk, 0 when no new data waits, -ENOENT for a ring
 * without an AUX area, -ESPIPE for an aux_overwrite area (a snapshot,
 * whose head each PMU keeps its own way: read it with peo_ring_aux()),
 * -EINVAL (NULL, or a chunk->sz under 0.2's).
 */
PEO_API int peo_ring_aux_next(struct peo_ring *ring, struct peo_aux_chunk *chunk, size_t max);

/**
 * peo_ring_aux_consume() - store aux_tail = @tail with release order: the
 * kernel may reuse the AUX bytes below it.  Ignored for a read-only
 * (aux_overwrite) area.
 */
PEO_API void peo_ring_aux_consume(struct peo_ring *ring, uint64_t tail);

/**
 * peo_ring_record_id() - the id of the event that wrote @rec, for events
 * opened with PERF_SAMPLE_IDENTIFIER in sample_type (and sample_id_all for
 * records other than samples): the first u64 of a sample, the last of any
 * other record.  Works on wrapped records too.
 * @id: receives the id (compare with peo_sys_ioc_id()).
 *
 * Returns 0, or -ENODATA for a record too short to carry one.
 */
PEO_API int peo_ring_record_id(const struct peo_ring_record *rec, uint64_t *id);

/**
 * peo_ring_set_overflow_signal() - have the kernel send @signo to thread
 * @tid at every wakeup of the event on @fd (O_ASYNC with F_SETSIG), and
 * at its last overflow when armed with peo_sys_ioc_refresh().  A real-time
 * signal queues one per wakeup; si_fd says which event.
 * @tid: the thread to signal (0: the caller).
 *
 * Returns 0 or a negative errno from fcntl.
 */
PEO_API int peo_ring_set_overflow_signal(int fd, int signo, pid_t tid);

/*
 * A set of rings waited on together (one per CPU, or several events'),
 * over one epoll fd, with a way to wake the waiter from another thread.
 */
struct peo_ring_set;

/** peo_ring_set_new() - an empty set.  Returns 0 or -errno (-EMFILE...). */
PEO_API int peo_ring_set_new(struct peo_ring_set **out);

/** peo_ring_set_free() - free the set; its rings stay mapped.  NULL is ignored. */
PEO_API void peo_ring_set_free(struct peo_ring_set *set);

/**
 * peo_ring_set_add() - watch @ring too.  The ring must outlive its place
 * in the set.  Returns its index in the set (0, 1, ...) or a negative errno.
 */
PEO_API int peo_ring_set_add(struct peo_ring_set *set, struct peo_ring *ring);

/**
 * peo_ring_set_wait() - block until some rings have data or hang up, another
 * thread calls peo_ring_set_wake(), or @timeout_ms passes (-1: no limit).
 *
 * Returns the number of ready rings (read them with peo_ring_set_ready()),
 * 0 on timeout or when woken, or a negative errno (-EINTR on a signal).
 * A ring whose task exited and whose records are all read is reported
 * once more as ready (peo_ring_next() then gives 0) and then dropped from
 * the set: peo_ring_set_live() counts those still watched.
 */
PEO_API int peo_ring_set_wait(struct peo_ring_set *set, int timeout_ms);

/** peo_ring_set_ready() - the @i-th ready ring of the last wait, or NULL. */
PEO_API struct peo_ring *peo_ring_set_ready(const struct peo_ring_set *set, size_t i);

/**
 * peo_ring_set_fd() - the set's epoll fd, which polls readable when a
 * ring has data, for the caller's own poll or epoll loop (then read the
 * rings; peo_ring_set_wait() says which).  Owned by the set.  Returns it,
 * or -EINVAL for NULL.
 */
PEO_API int peo_ring_set_fd(const struct peo_ring_set *set);

/** peo_ring_set_live() - rings still watched (not hung up and drained). */
PEO_API size_t peo_ring_set_live(const struct peo_ring_set *set);

/**
 * peo_ring_set_wake() - make a peo_ring_set_wait() in another thread return
 * (now, or at once when it is next called).  Safe from any thread and from
 * a signal handler.  Returns 0 or a negative errno.
 */
PEO_API int peo_ring_set_wake(struct peo_ring_set *set);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PEO_RING_H */
