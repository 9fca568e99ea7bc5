/*
 * ip.h - the printk extensions for network addresses (ip.c), for print.c.
 */
#ifndef PEO_TRACEPOINT_IP_H
#define PEO_TRACEPOINT_IP_H

#include <stddef.h>

/*
 * The address extension @ext (the letters after "%p": I4, i4,
 * I6, i6, I6c, IS and iS with p and c; at most @ext_max of them) over the
 * @n bytes at @b, into @out (@cap bytes, 64 or more); @little: the payload
 * is little-endian (%pI4h's host order).  The letters it
 * takes in *@used.  Returns the text's length (INVALIDIPv4 or INVALIDIPv6,
 * as perf prints them, when @n is not the address's size), or -ENOTSUP for
 * another extension.
 */
PEO_HIDDEN int peo_tp_ip_print(const char *ext, size_t ext_max, size_t *used,
			       const unsigned char *b, size_t n, int little, char *out, size_t cap);

#endif
