/*
 * kernel_strings.h - the kernel's constant strings that tracepoints record
 * by address (kernel_strings.c), from a printk formats list.
 */
#ifndef PEO_TRACEPOINT_KERNEL_STRINGS_H
#define PEO_TRACEPOINT_KERNEL_STRINGS_H

#include "internal.h"

struct tp_strings;
/* Parse a printk formats list (@len bytes of `0xADDR : "text"` lines).
 * Returns 0 with *@out (free with peo_tp_strings_free()), or -ENOMEM. */
PEO_HIDDEN int peo_tp_strings_parse(struct tp_strings **out, const char *text, size_t len);
/* The string at @addr, or NULL when the list (which may be NULL) has none. */
PEO_HIDDEN const char *peo_tp_strings_find(const struct tp_strings *s, uint64_t addr);
PEO_HIDDEN void peo_tp_strings_free(struct tp_strings *s);

#endif
