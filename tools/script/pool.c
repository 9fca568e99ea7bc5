/*
 * script/pool.c - the workers and the ordered writer of script/pool.h.
 * One lock guards the counters; batches are large (thousands of lines),
 * so it is taken a few times per millisecond at most.
 *
 * Positioned (asked for, a regular file, two workers or more), the writer
 * thread copies nothing: each batch's place in the file follows from the
 * sizes of those before it, so a worker takes its batch's place in batch
 * order and writes it there itself (pwrite).  The kernel still copies one
 * write to a file at a time (the inode's lock: bench/bench_output.c), so
 * what this saves is the writer thread's copy on few cores, while the
 * workers wait on each other's writes.
 *
 * Direct (one worker), there is no writer thread either: the worker's
 * batches come in order, so it writes its text as it makes it, 256 KiB at
 * a time, from a buffer still in the cache.  A batch's text grown whole
 * (~5 MB for deep callchains) and copied by another thread had cost the
 * deep-callchain bench 40% more time than formatting and writing on one
 * thread (bench/symbols_vs_perf.sh, 2 cores).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "script/pool.h"

#define SLOTS_PER_WORKER 4 /* filled, formatted, written, and one to spare for hiccups */
#define BATCH_BYTES (512u << 10)
/* Direct: the batch filled, the one formatted and one to spare, each just
 * over the largest entry: every page of a batch is touched, and a new
 * page costs a fault (~2,000 of them had been a fifth of the
 * deep-callchain bench's kernel time, 512 of them the four batches'). */
#define DIRECT_SLOTS 3
#define DIRECT_BATCH_BYTES (SCRIPT_POOL_ENTRY_MAX + (64u << 10))
#define OUT_BYTES (512u << 10) /* a batch's text to start with; it grows */

_Static_assert(SCRIPT_POOL_ENTRY_MAX <= BATCH_BYTES && SCRIPT_POOL_ENTRY_MAX <= DIRECT_BATCH_BYTES,
	       "an empty batch takes any entry");

struct slot {
	unsigned char *in;
	size_t used;
	struct out out;
	int formatted; /* its worker is done: the writer's to write */
	int stop;      /* its work asked the output to stop after it */
};

struct worker {
	struct script_pool *p;
	unsigned index;
	pthread_t thread;
	int started;
};

struct script_pool {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	script_pool_fn fn;
	void *ctx;
	int fd;
	unsigned nworkers, nslots;
	size_t batch_bytes;
	struct slot *slots;
	struct worker *workers;
	pthread_t writer;
	int writer_started;
	unsigned long long filled;  /* batches handed over: batch g is in slot g % nslots */
	unsigned long long written; /* batches the writer is done with */
	int closing;                /* no batch comes after those filled */
	int halted;                 /* output stopped (atomic: the reading thread polls it) */
	int write_errno;            /* why: a write failed with it, */
	int text_lost;              /* or a batch's text could not grow, */
	unsigned stopper;           /* else a batch's work stopped it: that batch's worker */
	int positioned;             /* workers write their batches at their places (pwrite) */
	struct out *direct;         /* one worker: its text, written as it is made, or NULL */
	unsigned long long placed;  /* positioned: batches whose place is taken */
	off_t end;                  /* positioned: where the next batch's text goes */
	unsigned long long failed;  /* positioned: the first batch whose write failed, */
	off_t failed_at;            /* and its place: the output ends there */
};

/* Halt the output (the lock held): a write failed with @err, or a batch's
 * text was lost, or (neither) worker @stopper's batch asked it. */
static void halt(struct script_pool *p, int err, int lost, unsigned stopper)
{
	p->write_errno = err;
	p->text_lost = lost;
	p->stopper = stopper;
	__atomic_store_n(&p->halted, 1, __ATOMIC_RELAXED);
}

/* Positioned: batch @g (slot @s, formatted by @worker) takes its place
 * once every batch before it has, then is written there, unless the
 * output stopped before it. */
static void place_and_write(struct script_pool *p, struct slot *s, unsigned long long g,
			    unsigned worker, int stop)
{
	int write = 0;
	off_t at = 0;

	pthread_mutex_lock(&p->lock);
	while (p->placed != g)
		pthread_cond_wait(&p->changed, &p->lock);
	if (!p->halted && s->out.failed) {
		halt(p, 0, 1, 0);
	} else if (!p->halted) {
		write = s->out.n != 0;
		at = p->end;
		p->end += (off_t)s->out.n;
		if (stop) /* nothing after this batch */
			halt(p, 0, 0, worker);
	}
	p->placed = g + 1;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
	if (write && out_write_all(p->fd, s->out.buf, s->out.n, at)) {
		int err = errno;

		pthread_mutex_lock(&p->lock); /* later batches may have been written: the first counts */
		if (!p->write_errno || g < p->failed) {
			p->failed = g;
			p->failed_at = at;
			halt(p, err, 0, 0);
		}
		pthread_mutex_unlock(&p->lock);
	}
}

/* Direct: a write of the text failed (the lock held): the output stops. */
static void direct_failed(struct script_pool *p)
{
	if (!p->halted)
		halt(p, p->direct->failed, 0, 0);
}

/* Direct: batch @g (in slot @s) formatted and its text written as it is
 * made (the rest of it flushed when its work stops the output); its slot
 * is free again at once. */
static void direct_batch(struct script_pool *p, struct slot *s, unsigned long long g)
{
	int stop = 0;

	if (!__atomic_load_n(&p->halted, __ATOMIC_RELAXED)) {
		stop = p->fn(p->ctx, 0, s->in, s->used, p->direct);
		if (stop)
			out_flush(p->direct); /* its lines up to the stop */
	}
	pthread_mutex_lock(&p->lock);
	if (p->direct->failed)
		direct_failed(p);
	else if (stop && !p->halted)
		halt(p, 0, 0, 0);
	p->written = g + 1;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

/* Direct: no batch comes after those done: the text's last piece written. */
static void direct_end(struct script_pool *p)
{
	if (!__atomic_load_n(&p->halted, __ATOMIC_RELAXED) && out_flush(p->direct)) {
		pthread_mutex_lock(&p->lock);
		direct_failed(p);
		pthread_mutex_unlock(&p->lock);
	}
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct script_pool *p = wk->p;

	for (unsigned long long g = wk->index;; g += p->nworkers) {
		struct slot *s = &p->slots[g % p->nslots];
		int stop = 0;

		pthread_mutex_lock(&p->lock);
		while (g >= p->filled && !p->closing)
			pthread_cond_wait(&p->changed, &p->lock);
		if (g >= p->filled) {
			pthread_mutex_unlock(&p->lock);
			if (p->direct)
				direct_end(p);
			return NULL;
		}
		pthread_mutex_unlock(&p->lock);
		if (p->direct) {
			direct_batch(p, s, g);
			continue;
		}
		if (!__atomic_load_n(&p->halted, __ATOMIC_RELAXED)) /* not to be written: not made */
			stop = p->fn(p->ctx, wk->index, s->in, s->used, &s->out);
		if (p->positioned)
			place_and_write(p, s, g, wk->index, stop);
		pthread_mutex_lock(&p->lock);
		s->formatted = 1;
		s->stop = stop;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
}

/* Write slot @s's text (unless the output stopped before it); note a stop.
 * Positioned, its worker wrote it: nothing to do. */
static void write_slot(struct script_pool *p, struct slot *s, unsigned worker)
{
	int err = 0, lost = 0;

	if (p->positioned || __atomic_load_n(&p->halted, __ATOMIC_RELAXED))
		return;
	if (s->out.failed) /* its text could not grow: what it says is lost */
		lost = 1;
	else if (s->out.n && out_write_all(p->fd, s->out.buf, s->out.n, -1))
		err = errno;
	else if (!s->stop)
		return;
	pthread_mutex_lock(&p->lock);
	halt(p, err, lost, err || lost ? 0 : worker);
	pthread_mutex_unlock(&p->lock);
}

/* Whether @fd is a regular file written at its offset (not O_APPEND, where
 * pwrite appends), and where that is. */
static int positioned_file(int fd, off_t *at)
{
	struct stat st;
	int flags = fcntl(fd, F_GETFL);

	if (flags < 0 || (flags & O_APPEND) || fstat(fd, &st) || !S_ISREG(st.st_mode))
		return 0;
	*at = lseek(fd, 0, SEEK_CUR);
	return *at >= 0;
}

static void *writer_main(void *arg)
{
	struct script_pool *p = arg;

	for (unsigned long long g = 0;; g++) {
		struct slot *s = &p->slots[g % p->nslots];

		pthread_mutex_lock(&p->lock);
		while (!(g < p->filled && s->formatted) && !(p->closing && g >= p->filled))
			pthread_cond_wait(&p->changed, &p->lock);
		if (g >= p->filled) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		pthread_mutex_unlock(&p->lock);
		write_slot(p, s, (unsigned)(g % p->nworkers));
		s->out.n = 0;
		s->out.failed = 0;
		pthread_mutex_lock(&p->lock);
		s->formatted = 0;
		p->written = g + 1;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
}

/* No more batches: the threads finish those filled, then end and are joined. */
static void end_threads(struct script_pool *p)
{
	pthread_mutex_lock(&p->lock);
	p->closing = 1;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->nworkers; i++)
		if (p->workers[i].started)
			pthread_join(p->workers[i].thread, NULL);
	if (p->writer_started)
		pthread_join(p->writer, NULL);
}

/* The pool's memory, its threads ended. */
static void release(struct script_pool *p)
{
	for (unsigned i = 0; i < p->nslots; i++) {
		free(p->slots[i].in);
		out_free_growing(&p->slots[i].out);
	}
	free(p->slots);
	free(p->workers);
	free(p->direct);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->changed);
	free(p);
}

/* A pool that could not start whole: what started ends, all is freed. */
static void free_pool(struct script_pool *p)
{
	end_threads(p);
	release(p);
}

int script_pool_start(struct script_pool **out, unsigned workers, int fd, int positioned,
		      script_pool_fn fn, void *ctx)
{
	struct script_pool *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p)
		return -1;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
	p->fn = fn;
	p->ctx = ctx;
	p->fd = fd;
	p->nworkers = workers;
	/* with one worker, the writer thread's copying overlaps its formatting */
	p->positioned = positioned && workers >= 2 && positioned_file(fd, &p->end);
	if (workers == 1 && (p->direct = malloc(sizeof(*p->direct))))
		out_init(p->direct, fd);
	p->nslots = p->direct ? DIRECT_SLOTS : p->nworkers * SLOTS_PER_WORKER;
	p->batch_bytes = p->direct ? DIRECT_BATCH_BYTES : BATCH_BYTES;
	p->slots = calloc(p->nslots, sizeof(*p->slots));
	p->workers = calloc(p->nworkers, sizeof(*p->workers));
	if (!p->slots || !p->workers) {
		p->nslots = 0;
		p->nworkers = 0;
		free_pool(p);
		return -1;
	}
	for (unsigned i = 0; i < p->nslots; i++) { /* zeroed: free_pool() frees what was made */
		if (!(p->slots[i].in = malloc(p->batch_bytes)) ||
		    (!p->direct && out_init_growing(&p->slots[i].out, OUT_BYTES))) {
			free_pool(p);
			return -1;
		}
	}
	for (unsigned i = 0; i < p->nworkers; i++) {
		p->workers[i].p = p;
		p->workers[i].index = i;
		if (thread_start(&p->workers[i].thread, worker_main, &p->workers[i])) {
			free_pool(p);
			return -1;
		}
		p->workers[i].started = 1;
	}
	if (p->direct) { /* the worker writes */
		*out = p;
		return 0;
	}
	if (thread_start(&p->writer, writer_main, p)) {
		free_pool(p);
		return -1;
	}
	p->writer_started = 1;
	*out = p;
	return 0;
}

/* Hand the batch being filled (@used bytes) to its worker. */
static void hand_over(struct script_pool *p, size_t used)
{
	p->slots[p->filled % p->nslots].used = used;
	pthread_mutex_lock(&p->lock);
	p->filled++;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

unsigned char *script_pool_next_batch(struct script_pool *p, size_t used, size_t *cap)
{
	if (used)
		hand_over(p, used);
	pthread_mutex_lock(&p->lock); /* the next slot is free once its last batch is written */
	while (p->filled - p->written >= p->nslots)
		pthread_cond_wait(&p->changed, &p->lock);
	pthread_mutex_unlock(&p->lock);
	*cap = p->batch_bytes;
	return p->slots[p->filled % p->nslots].in;
}

int script_pool_halted(struct script_pool *p)
{
	return __atomic_load_n(&p->halted, __ATOMIC_RELAXED);
}

enum script_pool_end script_pool_finish(struct script_pool *p, size_t used, unsigned *stopper)
{
	enum script_pool_end ret = SCRIPT_POOL_DONE;
	int err;

	if (used)
		hand_over(p, used);
	end_threads(p);
	/* positioned: the file's offset after the text, as sequential writes leave
	 * it; after a failed write, the text ends where the first failed batch's
	 * began (what later batches wrote past it cut off) */
	if (p->positioned && p->write_errno) {
		if (ftruncate(p->fd, p->failed_at) == 0)
			lseek(p->fd, p->failed_at, SEEK_SET);
	} else if (p->positioned && lseek(p->fd, p->end, SEEK_SET) < 0) {
		p->write_errno = errno;
	}
	err = p->write_errno;
	if (err)
		ret = SCRIPT_POOL_WRITE_FAILED;
	else if (p->text_lost)
		ret = SCRIPT_POOL_NO_MEMORY;
	else if (p->halted) /* by a batch's work */
		ret = SCRIPT_POOL_STOPPED;
	if (ret == SCRIPT_POOL_STOPPED)
		*stopper = p->stopper;
	release(p);
	if (err)
		errno = err;
	return ret;
}
