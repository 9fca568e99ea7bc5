/*
 * script/srcline.c - the srcline field's text (script/srcline.h).
 */
#include <stdio.h>
#include <string.h>

#include "script/srcline.h"

int script_places(struct script_worker *w, const struct peo_record *r, uint64_t at,
		  struct peo_srcline *places)
{
	int n;

	if (!w->procs)
		return 0;
	n = peo_processes_srclines(w->procs, r->sample_id.pid, at, places, SCRIPT_MAX_PLACES);
	return n > 0 ? n : 0;
}

static size_t fits(int len, size_t cap)
{
	return len > 0 && (size_t)len < cap ? (size_t)len : 0;
}

/* "NAME[ADDRESS]": where perf's addr2line could not read a line. */
static size_t at_address(char *buf, size_t cap, const char *name, uint64_t addr)
{
	return fits(snprintf(buf, cap, "%s[%llx]", name, (unsigned long long)addr), cap);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

size_t script_srcline_text(const struct peo_frame *fr, const struct peo_srcline *pl, int unwound,
			   char *buf, size_t cap)
{
	if (!fr->dso)
		return 0;
	if (fr->flags & PEO_FRAME_KERNEL)
		return at_address(buf, cap, fr->dso, fr->addr);
	if (!strcmp(fr->dso, "[vdso]"))
		return at_address(buf, cap, fr->dso, fr->dso_offset);
	if (fr->flags & PEO_FRAME_PLT) /* no line: perf's addr2line fails there */
		return at_address(buf, cap, base_name(fr->dso), fr->dso_offset);
	if (pl && pl->file)
		return fits(snprintf(buf, cap, "%s:%u", base_name(pl->file), (unsigned)pl->line),
			    cap);
	return unwound ? fits(snprintf(buf, cap, "??:0"), cap) : 0;
}
