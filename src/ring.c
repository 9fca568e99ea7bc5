/*
 * ring.c - mapping an event's ring buffer and reading its records in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "sized.h"

#define DEFAULT_DATA_PAGES 16

struct peo_ring {
	int fd;
	int overwrite;
	void *map;          /* control page + data area */
	size_t map_bytes;
	void *aux;          /* the AUX area, or NULL */
	size_t aux_bytes;
	int aux_overwrite;
	uint64_t aux_read;  /* the AUX stream offset peo_ring_aux_next() reads next */
	int borrowed;       /* map is the caller's memory (peo_ring_over_memory) */
	int aux_borrowed;   /* so is aux (peo_ring_over_memory_aux) */
	unsigned char *data;
	uint64_t size;      /* data area bytes, a power of two */
	uint64_t head;      /* data_head as last loaded */
	uint64_t pos;       /* the next record's stream offset */
	uint64_t snap_head; /* overwrite: bytes written at the last snapshot */
	size_t span_whole;  /* the last span's seg[0] bytes before a record cut by the end */
	struct peo_ring_stats stats;
};

static volatile struct peo_mmap_page *control(const struct peo_ring *r)
{
	return (volatile struct peo_mmap_page *)r->map;
}

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

static int is_pow2(size_t n)
{
	return n && !(n & (n - 1));
}

static size_t round_pow2(size_t n)
{
	size_t p = 1;

	while (p < n && p <= SIZE_MAX / 2)
		p <<= 1;
	return p;
}

/* Pages of data the options ask for: a power of two, or 0 when impossible. */
static size_t data_pages_wanted(const struct peo_ring_opts *o)
{
	if (o->data_pages)
		return is_pow2(o->data_pages) ? o->data_pages : 0;
	if (o->data_bytes)
		return round_pow2((o->data_bytes + page_size() - 1) / page_size());
	return DEFAULT_DATA_PAGES;
}

/* MemAvailable from /proc/meminfo in KiB, or -1. */
static long mem_available_kb(void)
{
	char *text = peo_read_text_file("/proc/meminfo"), *at;
	long kb = -1;

	at = text ? strstr(text, "MemAvailable:") : NULL;
	if (at)
		kb = strtol(at + strlen("MemAvailable:"), NULL, 10);
	free(text);
	return kb;
}

/*
 * ENOMEM from a ring's mmap: the kernel could not allocate it.  The locked
 * memory limits answer EPERM, not this, and root is not bound by them.
 */
static void no_memory(size_t pages, size_t bytes)
{
	/* The kernel lists a ring's pages in one kmalloc'd array: at most an
	 * order-10 allocation (MAX_ORDER 11), 4 MiB with 4 KiB pages. */
	size_t list_cap = page_size() << 10, most = 1;
	struct rlimit rl;
	long avail;

	while (most * 2 * sizeof(void *) + 256 <= list_cap)
		most *= 2;
	peo_fail_append("; the kernel could not allocate the ring (the locked-memory limits "
			"answer EPERM, not this; ");
	if (pages > most) {
		peo_fail_append("%zu pages is too many: the kernel keeps a ring's page list in "
				"one allocation of at most %zu KiB, so a ring has at most %zu pages "
				"(%zu MiB)); map fewer pages (peo record -m %zu or less)", pages,
				list_cap / 1024, most, most * page_size() >> 20, most);
		return;
	}
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		peo_fail_append("the address-space limit RLIMIT_AS is %llu KiB and the ring takes %zu "
				"KiB of it); raise it (ulimit -v unlimited) or map fewer pages",
				(unsigned long long)rl.rlim_cur / 1024, bytes / 1024);
		return;
	}
	avail = mem_available_kb();
	if (avail >= 0)
		peo_fail_append("the machine has %ld KiB available and the ring needs %zu KiB of "
				"unswappable memory, or vm.max_map_count is reached); map fewer "
				"pages", avail, bytes / 1024);
	else
		peo_fail_append("out of kernel memory, or vm.max_map_count is reached); map fewer "
				"pages");
}

/* Why mmap refused @bytes of ring: the limits that apply, in a sentence. */
static int map_failed(int err, int fd, size_t pages, size_t bytes)
{
	long mlock_kb = -1;

	peo_fail(err, "mmap of a %zu-page ring (%zu KiB with its control page) on fd %d: %s",
		 pages, bytes / 1024, fd, strerror(err));
	if (err == EPERM && geteuid() != 0) {
		peo_read_long_file("/proc/sys/kernel/perf_event_mlock_kb", &mlock_kb);
		peo_fail_append("; unprivileged users may lock kernel.perf_event_mlock_kb "
				"(%ld KiB) per user plus RLIMIT_MEMLOCK: map fewer pages, or raise "
				"the sysctl, or run with CAP_IPC_LOCK", mlock_kb);
	} else if (err == EPERM) {
		peo_fail_append("; root is not bound by kernel.perf_event_mlock_kb, so a security "
				"policy (an LSM, lockdown) refused the mapping");
	} else if (err == ENOMEM) {
		no_memory(pages, bytes);
	} else if (err == EBUSY) {
		peo_fail_append("; the event's output already goes to another ring "
				"(PERF_EVENT_IOC_SET_OUTPUT), read that one");
	} else if (err == EINVAL) {
		peo_fail_append("; the data area must be a power of two pages, and the fd a "
				"perf event (an overwrite ring needs attr.write_backward)");
	}
	return -err;
}

/* The AUX area goes after the data area: its place is told through the control page. */
static int map_aux(struct peo_ring *r, size_t pages, int overwrite)
{
	size_t bytes = pages * page_size();
	int err;

	control(r)->aux_offset = r->map_bytes;
	control(r)->aux_size = bytes;
	r->aux = mmap(NULL, bytes, PROT_READ | (overwrite ? 0 : PROT_WRITE), MAP_SHARED, r->fd,
		      (off_t)r->map_bytes);
	if (r->aux == MAP_FAILED) {
		err = errno;
		r->aux = NULL;
		peo_fail(err, "mmap of a %zu-page AUX area on fd %d: %s", pages, r->fd, strerror(err));
		if (err == EOPNOTSUPP || err == EINVAL)
			peo_fail_append("; only PMUs that trace into an AUX buffer (intel_pt, "
					"cs_etm, arm_spe...) have one, and its size must be a "
					"power of two pages");
		return -err;
	}
	r->aux_bytes = bytes;
	r->aux_overwrite = !!overwrite;
	return 0;
}

int peo_ring_map(struct peo_ring **out, int fd, const struct peo_ring_opts *opts)
{
	struct peo_ring_opts o = { .sz = sizeof(o) };
	struct peo_ring *r;
	size_t pages;
	int err;

	if (!out)
		return peo_fail(EINVAL, "peo_ring_map: argument 'out' is NULL");
	*out = NULL;
	err = peo_opts_check(opts, sizeof(o), "peo_ring_opts");
	if (err)
		return err;
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	pages = data_pages_wanted(&o);
	if (!pages)
		return peo_fail(EINVAL, "peo_ring_map: data_pages %zu is not a power of two; "
				"use %zu or %zu", o.data_pages, round_pow2(o.data_pages) / 2,
				round_pow2(o.data_pages));
	if (pages > (SIZE_MAX / page_size()) - 1)
		return peo_fail(EINVAL, "peo_ring_map: %zu pages is more than memory can address",
				pages);
	if (o.aux_pages && (!is_pow2(o.aux_pages) || o.overwrite))
		return peo_fail(EINVAL, "peo_ring_map: aux_pages %zu: %s", o.aux_pages,
				o.overwrite ? "an AUX area needs a forward ring (its offset is "
				"written to the control page); use aux_overwrite for an overwrite "
				"AUX area" : "not a power of two");
	r = calloc(1, sizeof(*r));
	if (!r)
		return peo_fail(ENOMEM, "out of memory for a ring");
	r->fd = fd;
	r->overwrite = !!o.overwrite;
	r->size = (uint64_t)pages * page_size();
	r->map_bytes = (pages + 1) * page_size();
	r->map = mmap(NULL, r->map_bytes, PROT_READ | (r->overwrite ? 0 : PROT_WRITE), MAP_SHARED,
		      fd, 0);
	if (r->map == MAP_FAILED) {
		err = errno;
		free(r);
		return map_failed(err, fd, pages, (pages + 1) * page_size());
	}
	r->data = (unsigned char *)r->map + page_size();
	r->stats.sz = sizeof(r->stats);
	if (!r->overwrite)
		r->pos = r->head = control(r)->data_tail;
	if (o.aux_pages && (err = map_aux(r, o.aux_pages, o.aux_overwrite))) {
		peo_ring_unmap(r);
		return err;
	}
	*out = r;
	return 0;
}

int peo_ring_over_memory(struct peo_ring **out, void *mem, size_t data_bytes, int overwrite)
{
	struct peo_ring *r = calloc(1, sizeof(*r));

	*out = r;
	if (!r)
		return peo_fail(ENOMEM, "out of memory for a ring");
	r->fd = -1;
	r->borrowed = 1;
	r->overwrite = !!overwrite;
	r->map = mem;
	r->map_bytes = page_size() + data_bytes;
	r->data = (unsigned char *)mem + page_size();
	r->size = data_bytes;
	r->stats.sz = sizeof(r->stats);
	if (!overwrite)
		r->pos = r->head = control(r)->data_tail;
	return 0;
}

void peo_ring_unmap(struct peo_ring *r)
{
	if (!r)
		return;
	if (r->aux && !r->aux_borrowed)
		munmap(r->aux, r->aux_bytes);
	if (!r->borrowed)
		munmap(r->map, r->map_bytes);
	free(r);
}

int peo_ring_fd(const struct peo_ring *r)
{
	return r ? r->fd : -1;
}

size_t peo_ring_data_size(const struct peo_ring *r)
{
	return r ? (size_t)r->size : 0;
}

const volatile struct peo_mmap_page *peo_ring_page(const struct peo_ring *r)
{
	return r ? control(r) : NULL;
}

int peo_ring_add(struct peo_ring *r, int fd)
{
	int err;

	if (!r)
		return peo_fail(EINVAL, "peo_ring_add: the ring is NULL");
	err = peo_sys_ioc_set_output(fd, r->fd);
	if (err == -EINVAL)
		peo_fail_append("; both events must be on the same CPU (or the same task with "
				"cpu -1), use the same clock, and fd %d must not have a ring "
				"of its own", fd);
	return err;
}

/* Copy @len bytes at stream offset @pos out of the ring, across its end. */
static void copy_out(const struct peo_ring *r, uint64_t pos, void *dst, size_t len)
{
	size_t at = (size_t)(pos & (r->size - 1)), first = (size_t)r->size - at;

	if (first >= len) {
		memcpy(dst, r->data + at, len);
		return;
	}
	memcpy(dst, r->data + at, first);
	memcpy((unsigned char *)dst + first, r->data, len - first);
}

/* The u64 at byte @off of the record at @pos (inside the record). */
static uint64_t word_at(const struct peo_ring *r, uint64_t pos, size_t off)
{
	uint64_t v;

	copy_out(r, pos + off, &v, sizeof(v));
	return v;
}

/* Count what a record says was lost, whoever later parses it. */
static void account(struct peo_ring *r, const struct peo_event_header *h, uint64_t pos)
{
	r->stats.records++;
	r->stats.bytes += h->size;
	if (h->type == PEO_RECORD_LOST && h->size >= 24) {
		r->stats.lost_records++;
		r->stats.lost += word_at(r, pos, 16); /* after the header: id, lost */
	} else if (h->type == PEO_RECORD_LOST_SAMPLES && h->size >= 16) {
		r->stats.lost_samples += word_at(r, pos, 8);
	}
}

/* An 8-byte aligned header of a sane size that ends by @head, or -EPROTO. */
static int check_header(const struct peo_ring *r, const struct peo_event_header *h, uint64_t pos,
			uint64_t head)
{
	if (h->size < sizeof(*h) || h->size % 8)
		return peo_fail(EPROTO, "ring of fd %d: record at stream offset %llu (ring byte %llu) "
				"has size %u, which no kernel writes (under 8 or not a multiple of "
				"8): the ring is corrupt", r->fd, (unsigned long long)pos,
				(unsigned long long)(pos & (r->size - 1)), h->size);
	if (h->size > r->size)
		return peo_fail(EPROTO, "ring of fd %d: record at stream offset %llu has size %u, "
				"larger than the ring's %llu bytes: the ring is corrupt", r->fd,
				(unsigned long long)pos, h->size, (unsigned long long)r->size);
	if (h->size > head - pos)
		return peo_fail(EPROTO, "ring of fd %d: record at stream offset %llu has size %u but "
				"only %llu bytes were written up to data_head %llu: the ring is "
				"corrupt", r->fd, (unsigned long long)pos, h->size,
				(unsigned long long)(head - pos), (unsigned long long)head);
	return 0;
}

/*
 * The header of the record at the reader's position, checked, when one is
 * there: 1, 0 when the ring is empty (data_head reloaded first), -errno.
 */
static int peek_header(struct peo_ring *r, const char *who, const struct peo_event_header **out)
{
	const struct peo_event_header *h;
	int err;

	if (r->overwrite)
		return peo_fail(ESPIPE, "%s: fd %d's ring is an overwrite ring; read it with "
				"peo_ring_snapshot()", who, r->fd);
	if (r->pos == r->head) {
		/* Acquire: the record bytes are read only after the head that covers them. */
		r->head = __atomic_load_n(&control(r)->data_head, __ATOMIC_ACQUIRE);
		if (r->pos == r->head)
			return 0;
	}
	if (r->head - r->pos > r->size)
		return peo_fail(EPROTO, "ring of fd %d: data_head %llu is more than the ring's %llu "
				"bytes past the reader at %llu: the kernel never overwrites a "
				"forward ring, so it is corrupt", r->fd, (unsigned long long)r->head,
				(unsigned long long)r->size, (unsigned long long)r->pos);
	h = (const struct peo_event_header *)(r->data + (r->pos & (r->size - 1)));
	*out = h;
	err = check_header(r, h, r->pos, r->head);
	return err ? err : 1;
}

int peo_ring_next(struct peo_ring *r, struct peo_ring_record *rec, void *buf, size_t cap)
{
	const struct peo_event_header *h = NULL;
	size_t first;
	int got;

	if (!r || !rec)
		return peo_fail(EINVAL, "peo_ring_next: argument '%s' is NULL", r ? "rec" : "ring");
	if ((got = PEO_SIZED(rec, peo_ring_record, PEO_RING_RECORD_SZ_0_1)))
		return got;
	got = peek_header(r, "peo_ring_next", &h);
	if (got <= 0)
		return got;
	*rec = (struct peo_ring_record){ .sz = rec->sz };
	rec->header = *h;
	rec->pos = r->pos;
	first = (size_t)(r->size - (r->pos & (r->size - 1)));
	rec->seg[0] = h;
	rec->seg_len[0] = h->size < first ? h->size : first;
	if (h->size <= first) {
		rec->data = h;
	} else {
		rec->seg[1] = r->data;
		rec->seg_len[1] = h->size - first;
		if (buf) {
			if (cap < h->size)
				return peo_fail(ENOSPC, "peo_ring_next: the record at stream offset "
						"%llu wraps the ring's end and is %u bytes; the "
						"buffer holds %zu", (unsigned long long)r->pos,
						h->size, cap);
			copy_out(r, r->pos, buf, h->size);
			rec->data = buf;
			rec->copied = 1;
		}
	}
	account(r, h, r->pos);
	r->pos += h->size;
	return 1;
}

int peo_ring_next_span(struct peo_ring *r, const void *seg[2], size_t len[2])
{
	const struct peo_event_header *h = NULL;
	uint64_t start;
	size_t at, bytes;
	int n = 0, got;

	if (!r || !seg || !len)
		return peo_fail(EINVAL, "peo_ring_next_span: argument '%s' is NULL",
				!r ? "ring" : !seg ? "seg" : "len");
	start = r->pos;
	at = (size_t)(start & (r->size - 1));
	r->span_whole = SIZE_MAX;
	/* Every whole record below the head loaded once: checked and counted,
	 * and the one the ring's end cuts noted. */
	while (r->pos != r->head || n == 0) {
		got = peek_header(r, "peo_ring_next_span", &h);
		if (got < 0) {
			if (n)
				break; /* hand out the good ones; the error comes next call */
			r->span_whole = 0;
			return got;
		}
		if (got == 0)
			break;
		if (r->pos - start < r->size - at && r->pos - start + h->size > r->size - at)
			r->span_whole = (size_t)(r->pos - start);
		account(r, h, r->pos);
		r->pos += h->size;
		n++;
	}
	bytes = (size_t)(r->pos - start);
	seg[0] = r->data + at;
	len[0] = bytes < r->size - at ? bytes : (size_t)r->size - at;
	seg[1] = bytes > len[0] ? r->data : NULL;
	len[1] = bytes - len[0];
	if (r->span_whole == SIZE_MAX)
		r->span_whole = len[0];
	return n;
}

size_t peo_ring_span_whole(const struct peo_ring *r)
{
	return r ? r->span_whole : 0;
}

void peo_ring_consume(struct peo_ring *r)
{
	if (!r || r->overwrite)
		return;
	/* Release: our reads of the records finish before the kernel may reuse them. */
	__atomic_store_n(&control(r)->data_tail, r->pos, __ATOMIC_RELEASE);
}

int peo_ring_stats(const struct peo_ring *r, struct peo_ring_stats *stats)
{
	int err;

	if (!r || !stats)
		return peo_fail(EINVAL, "peo_ring_stats: %s",
				!r ? "the ring is NULL" : "argument 'stats' is NULL");
	if ((err = PEO_SIZED(stats, peo_ring_stats, PEO_RING_STATS_SZ_0_1)))
		return err;
	memcpy((char *)stats + sizeof(size_t), (const char *)&r->stats + sizeof(size_t),
	       sizeof(*stats) - sizeof(size_t));
	return 0;
}

int peo_ring_wait(struct peo_ring *r, int timeout_ms)
{
	struct pollfd p;
	int n;

	if (!r)
		return peo_fail(EINVAL, "peo_ring_wait: the ring is NULL");
	p.fd = r->fd;
	p.events = POLLIN;
	p.revents = 0;
	n = poll(&p, 1, timeout_ms);
	if (n < 0)
		return peo_fail(errno, "poll(fd %d): %s", r->fd, strerror(errno));
	if (n == 0)
		return 0;
	if (p.revents & POLLIN)
		return 1;
	if (p.revents & POLLHUP) {
		uint64_t head = __atomic_load_n(&control(r)->data_head, __ATOMIC_ACQUIRE);

		if (!r->overwrite && head != r->pos)
			return 1; /* read what is left first */
		return peo_fail(EPIPE, "fd %d hung up: the task it follows has exited; its ring "
				"holds nothing more", r->fd);
	}
	return peo_fail(EBADF, "poll(fd %d) returned events 0x%x: not a perf event fd?", r->fd,
			(unsigned)p.revents);
}

/*
 * Walk an overwrite ring from @head (the newest record) towards older ones;
 * returns the stream offset where whole, unoverwritten records end.
 */
static int walk_backward_ring(const struct peo_ring *r, uint64_t head, uint64_t *end)
{
	uint64_t at = head;

	while (at - head < r->size) {
		const struct peo_event_header *h =
			(const struct peo_event_header *)(r->data + (at & (r->size - 1)));

		if (h->size == 0)
			break; /* never written: the ring has not wrapped yet */
		if (h->size < sizeof(*h) || h->size % 8)
			return peo_fail(EPROTO, "overwrite ring of fd %d: record at stream offset "
					"%llu has size %u, which no kernel writes", r->fd,
					(unsigned long long)at, h->size);
		if (at + h->size - head > r->size)
			break; /* its tail was overwritten by the newest records */
		at += h->size;
	}
	*end = at;
	return 0;
}

long peo_ring_copy_newest(struct peo_ring *r, void *buf, size_t cap)
{
	uint64_t head = __atomic_load_n(&control(r)->data_head, __ATOMIC_ACQUIRE), end = 0, take = 0;
	uint64_t written;
	int err;

	if (head % 8)
		return peo_fail(EPROTO, "overwrite ring of fd %d: data_head %llu is not 8-byte "
				"aligned, which no kernel writes", r->fd, (unsigned long long)head);
	err = walk_backward_ring(r, head, &end);
	if (err)
		return err;
	/* Keep the newest whole records that fit; distances from head, as a
	 * backward ring's offsets wrap past 2^64. */
	while (take < end - head) {
		uint16_t size = ((const struct peo_event_header *)(r->data +
					((head + take) & (r->size - 1))))->size;

		if (take + size > cap)
			break;
		take += size;
	}
	copy_out(r, head, buf, (size_t)take);
	written = -head; /* a backward ring's head counts down from 0 */
	if (written - r->snap_head > r->size)
		r->stats.overruns++;
	r->snap_head = written;
	return (long)take;
}

/*
 * PAUSE_OUTPUT stops writes that have not begun, but one another CPU had
 * already begun goes on, onto the oldest bytes of an overwrite ring.  The
 * kernel writes each record inside an RCU read-side section, so waiting
 * for a grace period (membarrier's GLOBAL command is synchronize_rcu())
 * waits for those writes to end and publish data_head.  Returns 0, or a
 * negative errno where there is none to wait for (nohz_full: -EINVAL).
 */
enum { MEMBARRIER_GLOBAL = 1 }; /* MEMBARRIER_CMD_GLOBAL, Linux 4.3 (as CMD_SHARED) */

static int wait_for_begun_writes(void)
{
	static int unavailable; /* the errno, once membarrier has refused */
	int err = __atomic_load_n(&unavailable, __ATOMIC_RELAXED);

	if (err)
		return -err;
	if (syscall(SYS_membarrier, MEMBARRIER_GLOBAL, 0, 0) == 0)
		return 0;
	err = errno;
	if (err != EINTR) /* a signal is no refusal: ask again next time */
		__atomic_store_n(&unavailable, err, __ATOMIC_RELAXED);
	return -err;
}

long peo_ring_snapshot(struct peo_ring *r, void *buf, size_t cap)
{
	long got;
	int perr;

	if (!r || (!buf && cap))
		return peo_fail(EINVAL, "peo_ring_snapshot: argument '%s' is NULL", r ? "buf" : "ring");
	if (!r->overwrite)
		return peo_fail(EINVAL, "peo_ring_snapshot: fd %d's ring is a forward ring; read it "
				"with peo_ring_next()", r->fd);
	perr = peo_sys_ioc_pause_output(r->fd, 1);
	if (perr < 0)
		return perr;
	if (wait_for_begun_writes() == 0) {
		got = peo_ring_copy_newest(r, buf, cap);
	} else {
		/* No grace period to wait for: copy until data_head holds still
		 * across a copy, which catches every write that ended meanwhile. */
		uint64_t before;
		int tries = 0;

		do {
			before = __atomic_load_n(&control(r)->data_head, __ATOMIC_ACQUIRE);
			got = peo_ring_copy_newest(r, buf, cap);
		} while (got >= 0 && ++tries < 64 &&
			 before != __atomic_load_n(&control(r)->data_head, __ATOMIC_ACQUIRE));
	}
	perr = peo_sys_ioc_pause_output(r->fd, 0);
	return got < 0 || perr >= 0 ? got : perr;
}

int peo_ring_aux(const struct peo_ring *r, const void **data, size_t *size)
{
	if (!r || !data || !size)
		return peo_fail(EINVAL, "peo_ring_aux: argument '%s' is NULL",
				!r ? "ring" : !data ? "data" : "size");
	if (!r->aux)
		return peo_fail(ENOENT, "peo_ring_aux: fd %d's ring has no AUX area; map it with "
				"opts.aux_pages", r->fd);
	*data = r->aux;
	*size = r->aux_bytes;
	return 0;
}

uint64_t peo_ring_aux_head(const struct peo_ring *r)
{
	return r && r->aux ? __atomic_load_n(&control(r)->aux_head, __ATOMIC_ACQUIRE) : 0;
}

int peo_ring_over_memory_aux(struct peo_ring *r, void *mem, size_t bytes, int overwrite)
{
	r->aux = mem;
	r->aux_bytes = bytes;
	r->aux_overwrite = !!overwrite;
	r->aux_borrowed = 1;
	r->aux_read = control(r)->aux_tail;
	return 0;
}

int peo_ring_aux_next(struct peo_ring *r, struct peo_aux_chunk *chunk, size_t max)
{
	uint64_t head, tail, off, len;
	int err;

	if (!r || !chunk)
		return peo_fail(EINVAL, "peo_ring_aux_next: argument '%s' is NULL", r ? "chunk" : "ring");
	if ((err = PEO_SIZED(chunk, peo_aux_chunk, PEO_AUX_CHUNK_SZ_0_2)))
		return err;
	if (!r->aux)
		return peo_fail(ENOENT, "peo_ring_aux_next: fd %d's ring has no AUX area; map it "
				"with opts.aux_pages", r->fd);
	if (r->aux_overwrite) /* its aux_head is the PMU's own, its data a snapshot */
		return peo_fail(ESPIPE, "peo_ring_aux_next: fd %d's AUX area is an overwrite "
				"(snapshot) area, whose head each PMU keeps its own way: read it "
				"with peo_ring_aux() and the PMU's snapshot rules", r->fd);
	head = __atomic_load_n(&control(r)->aux_head, __ATOMIC_ACQUIRE);
	tail = __atomic_load_n(&control(r)->aux_tail, __ATOMIC_RELAXED);
	if (r->aux_read < tail) /* the caller consumed past what it read */
		r->aux_read = tail;
	if (r->aux_read >= head)
		return 0;
	off = r->aux_read % r->aux_bytes;
	len = head - r->aux_read;
	if (len > r->aux_bytes - off) /* the area's end cuts it: the rest comes next */
		len = r->aux_bytes - off;
	if (max && len > max)
		len = max;
	*chunk = (struct peo_aux_chunk){ .sz = chunk->sz, .data = (unsigned char *)r->aux + off,
					 .len = (size_t)len, .pos = r->aux_read };
	r->aux_read += len;
	return 1;
}

void peo_ring_aux_consume(struct peo_ring *r, uint64_t tail)
{
	if (r && r->aux && !r->aux_overwrite)
		__atomic_store_n(&control(r)->aux_tail, tail, __ATOMIC_RELEASE);
}

int peo_ring_record_id(const struct peo_ring_record *rec, uint64_t *id)
{
	size_t size, off, k;
	unsigned char *out = (unsigned char *)id;

	if (!rec || !id)
		return peo_fail(EINVAL, "peo_ring_record_id: argument '%s' is NULL", rec ? "id" : "rec");
	size = rec->header.size;
	if (size < sizeof(struct peo_event_header) + 8)
		return peo_fail(ENODATA, "peo_ring_record_id: a %zu-byte record of type %u carries "
				"no id", size, rec->header.type);
	off = rec->header.type == PEO_RECORD_SAMPLE ? sizeof(struct peo_event_header) : size - 8;
	/* Byte by byte across the segments: the id itself may straddle the wrap. */
	for (k = 0; k < 8; k++) {
		size_t at = off + k;

		out[k] = at < rec->seg_len[0] ? ((const unsigned char *)rec->seg[0])[at]
					      : ((const unsigned char *)rec->seg[1])[at - rec->seg_len[0]];
	}
	return 0;
}

int peo_ring_set_overflow_signal(int fd, int signo, pid_t tid)
{
	struct f_owner_ex owner = { .type = F_OWNER_TID, .pid = tid ? tid : (pid_t)syscall(SYS_gettid) };
	int flags = fcntl(fd, F_GETFL);

	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_ASYNC) < 0 || fcntl(fd, F_SETSIG, signo) < 0 ||
	    fcntl(fd, F_SETOWN_EX, &owner) < 0)
		return peo_fail(errno, "peo_ring_set_overflow_signal(fd %d, signal %d, tid %d): "
				"fcntl: %s", fd, signo, (int)owner.pid, strerror(errno));
	return 0;
}
