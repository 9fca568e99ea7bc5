/*
 * symbols/inflated.h - a debug file's compressed DWARF sections inflated
 * ahead with libdeflate, into a copy in memory that libdwfl reads instead
 * (symbols/inflated.c).
 */
#ifndef PEO_SYMBOLS_INFLATED_H
#define PEO_SYMBOLS_INFLATED_H

#include "internal.h"

/*
 * A copy of ELF file @fd (left open, its offset unused), its
 * zlib-compressed sections (SHF_COMPRESSED) inflated, the rest as it is.
 * With @cache_dir (not NULL or ""), the copy is the file
 * CACHE_DIR/xx/rest.debug named by @fd's build id: read as it is when
 * there whole, else written there (directories made as needed) for the
 * next run; a file without a build id, or a cache that cannot be written,
 * gets a copy in memory (a memfd) instead.
 * Returns the copy's fd (the caller closes it), or -1 when @fd has no
 * such section, peo was built without libdeflate, or the copy could not be
 * made: libdw then inflates them itself, more slowly.
 */
PEO_HIDDEN int sym_inflated_copy(int fd, const char *cache_dir);

/* Whether peo was built to make such copies (with libdeflate and libdw). */
PEO_HIDDEN int sym_inflated_available(void);

#endif
