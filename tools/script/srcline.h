/*
 * script/srcline.h - the srcline field: where in the source a frame is,
 * as perf script 6.1 prints it under the frame ("  burn.c:30").
 */
#ifndef PEO_TOOLS_SCRIPT_SRCLINE_H
#define PEO_TOOLS_SCRIPT_SRCLINE_H

#include <stddef.h>
#include <stdint.h>

#include <peo/peo.h>

#include "script/worker.h"

/* The most places a frame has: its inlined functions and itself. */
#define SCRIPT_MAX_PLACES 17

/* The places of the frame looked up at @at in @r's process (innermost
 * first, peo_processes_srclines()): how many, 0 when none is known. */
int script_places(struct script_worker *w, const struct peo_record *r, uint64_t at,
		  struct peo_srcline *places);

/*
 * The text perf prints for frame @fr's place @pl (NULL: none known): the
 * file's base name and the line; for an address in the kernel or the
 * [vdso] (files perf's addr2line cannot read), or a PLT entry, the
 * binary and the address;
 * nothing for an address in no map.  A named frame of an unwound stack
 * (@unwound) says "??:0" where the line is unknown, as perf's inline list
 * does; other frames then say nothing.  Into @buf (@cap bytes); returns
 * the length, 0 for nothing.
 */
size_t script_srcline_text(const struct peo_frame *fr, const struct peo_srcline *pl, int unwound,
			   char *buf, size_t cap);

#endif
