/*
 * tie_dir.h - a perf record --threads directory of made-up samples whose
 * times tie, for the checks of the order equal times go in (perf's reading
 * order): test_perfdata's unit test and dir_synth (script_compare's check
 * against perf).
 */
#ifndef PEO_TESTS_TIE_DIR_H
#define PEO_TESTS_TIE_DIR_H

#include <stddef.h>

#define TIE_DIR_NS 5000000u /* every stream's tying sample, at 5 ms */
#define TIE_DIR_IP 0x100u   /* its ip: this plus the number in its file's name */

/*
 * Write DIR/data, the header file (a cpu-clock event sampling
 * IP|TID|TIME|PERIOD, DIR_FORMAT 1), and DIR/NAME for each of the @n
 * @names (data.N): its sample at TIE_DIR_NS; with @fill, the first name's
 * file first holds 2 MiB of earlier samples, so perf reads its tie in a
 * later turn.  A file there already is rewritten in place (it keeps its
 * place in the directory's listing).  Returns 0, or -1 with why in @why.
 */
int tie_dir_write(const char *dir, int fill, const char *const *names, size_t n, char *why,
		  size_t cap);

#endif
