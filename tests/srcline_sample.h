/*
 * srcline_sample.h - functions whose source lines are known, for
 * test_sym_srcline.c and sym_srcline_compare.sh (srcline_sample.c): one
 * defined in this header (binutils 2.40's addr2line, which perf 6.1 runs,
 * names the including .c file for such code in DWARF 5), and one inlined
 * into its caller.  The enums mark lines: do not move them.
 */
#ifndef PEO_TESTS_SRCLINE_SAMPLE_H
#define PEO_TESTS_SRCLINE_SAMPLE_H

/* Where the code runs, for the callers: filled by srcline_note(). */
extern void *srcline_noted;
void srcline_note(void);

enum { HDR_SPIN_FIRST = __LINE__ };
static __attribute__((noinline, used)) long hdr_spin(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += i * i + (s >> 3);
	return s;
}
enum { HDR_SPIN_LAST = __LINE__ };

enum { HDR_NOTE_LINE = __LINE__ + 4 };
static inline __attribute__((always_inline)) long hdr_inlined(long x)
{
	/* the call on the next line is at HDR_NOTE_LINE */
	srcline_note();
	return x * 3;
}

#endif
