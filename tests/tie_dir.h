/*
 * tie_dir.h - a perf record --threads directory of made-up samples whose
 * times tie, for the checks of the order equal times go in (perf's reading
 * order): test_perfdata's unit test and dir_synth (script_compare's check
 * against perf).
 */
#ifndef PEO_TESTS_TIE_DIR_H
#define PEO_TESTS_TIE_DIR_H

#include <stddef.h>
#include <stdint.h>

#define TIE_DIR_NS 5000000u /* every stream's tying sample, at 5 ms */
#define TIE_DIR_IP 0x100u   /* its ip: this plus the number in its file's name */
#define TIE_DIR_LATE_IP 0x77u /* TIE_FILL_TURN's sample older than the ties, in the second turn */

/* What the first name's file holds before its tie. */
enum tie_fill {
	TIE_FILL_NONE,     /* nothing: the tie is its only record */
	TIE_FILL_TURN,     /* 2 MiB of the file's bytes, then one sample at ip
			    * TIE_DIR_LATE_IP: perf reads it and the tie in its second turn */
	TIE_FILL_INFLATED, /* compressed only: 3 MiB of samples once inflated, far under
			    * 2 MiB in the file: perf's turn counts the file's bytes */
	TIE_FILL_UNSORTED, /* out of time order, as perf sorts it: two series of samples
			    * in spans one after the other (far more disorder than a
			    * ring has), and after the tie a sample at TIE_DIR_LATE_IP a
			    * nanosecond older (as a ring holds a COMM stamped before a
			    * sample written ahead of it) */
};

struct tie_dir_opts {
	enum tie_fill fill; /* what the first name's file holds before its tie */
	int compress;       /* data files of COMPRESSED records, as perf record -z --threads */
	int sample_id_all;  /* the event's: perf sorts by time only with it */
};

/*
 * Write DIR/data, the header file (a cpu-clock event sampling
 * IP|TID|TIME|PERIOD, DIR_FORMAT 1; when compressing, the COMPRESSED
 * feature too), and DIR/NAME for each of the @n @names (data.N): its
 * sample at TIE_DIR_NS, after what @o->fill says for the first name.  A
 * file there already is rewritten in place (it keeps its place in the
 * directory's listing).  Returns 0, or -1 with why in @why (when asked to
 * compress and peo's tests were built without zstd, the why starts with
 * "no zstd").
 */
int tie_dir_write(const char *dir, const struct tie_dir_opts *o, const char *const *names,
		  size_t n, char *why, size_t cap);

/* tie_dir_write_times()'s sample @j of name @i: its ip. */
#define TIE_DIR_TIMES_IP(i, j) (((uint64_t)(i) + 1) << 32 | (uint64_t)(j))

/*
 * As tie_dir_write(), but DIR/NAME's samples are at the times given:
 * @counts[i] of them in @names[i], at @times[i][0...], with ips
 * TIE_DIR_TIMES_IP(i, j) (no fill, no tie).
 */
int tie_dir_write_times(const char *dir, const struct tie_dir_opts *o, const char *const *names,
			size_t n, const uint64_t *const *times, const size_t *counts, char *why,
			size_t cap);

#endif
