/*
 * symbols/demangle.c - C++ and Rust names as perf 6.1 prints them.
 *
 * perf 6.1 here calls libiberty's cplus_demangle() with no options: no
 * parameter lists, no "[clone .isra.0]", Rust's legacy hash dropped and v0
 * decoded, which __cxa_demangle cannot do.
 */
#include <stddef.h>

#include "symbols/binary.h"

#ifdef PEO_HAVE_DEMANGLE
/* libiberty.h (under demangle.h) declares its own basename() unless told
 * the C library has one, and tests the macro with #if (-Wundef) */
#define HAVE_DECL_BASENAME 1
#include <demangle.h>

char *sym_demangle(const char *name)
{
	/* its automatic style knows only names that start with '_' (C++'s
	 * _Z and _GLOBAL_, Rust's _R and _ZN): C names skip its tries */
	return name[0] == '_' ? cplus_demangle(name, DMGL_NO_OPTS) : NULL;
}
#else
char *sym_demangle(const char *name)
{
	(void)name;
	return NULL;
}
#endif
