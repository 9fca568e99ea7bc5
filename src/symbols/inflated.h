/*
 * symbols/inflated.h - a debug file's compressed DWARF sections inflated
 * ahead with libdeflate, into a copy in memory that libdwfl reads instead
 * (symbols/inflated.c).
 */
#ifndef PEO_SYMBOLS_INFLATED_H
#define PEO_SYMBOLS_INFLATED_H

#include "internal.h"

/*
 * A copy of ELF file @fd (left open, its offset unused) in a memory file,
 * its zlib-compressed sections (SHF_COMPRESSED) inflated, the rest as it
 * is.  Returns the copy's fd (the caller closes it), or -1 when @fd has no
 * such section, peo was built without libdeflate, or the copy could not be
 * made: libdw then inflates them itself, more slowly.
 */
PEO_HIDDEN int sym_inflated_copy(int fd);

/* Whether peo was built to make such copies (with libdeflate and libdw). */
PEO_HIDDEN int sym_inflated_available(void);

#endif
