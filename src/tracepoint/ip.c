/*
 * ip.c - the printk extensions for network addresses that tracepoint
 * print fmts use (fib, tcp, sock, neigh): %pI4 and %pi4, %pI6, %pi6 and
 * %pI6c (RFC 5952's compressed form, an IPv4-mapped or ISATAP address
 * ending in dotted quad), and %pIS/%piS over a struct sockaddr_in or
 * sockaddr_in6 with the p (port) and c (compressed) flags, printed as
 * perf prints them (nothing for a sockaddr of another family; INVALIDIPv4
 * or INVALIDIPv6 for a field of another size than the address's).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "tracepoint/ip.h"

#define FAMILY_INET 2   /* AF_INET, as the kernel's sockaddr carries it */
#define FAMILY_INET6 10 /* AF_INET6 */
#define SOCKADDR_IN_BYTES 16  /* struct sockaddr_in */
#define SOCKADDR_IN6_BYTES 28 /* struct sockaddr_in6 */

/* A field of the wrong size for its address: perf's word for it in @out. */
static int invalid(char *out, size_t cap, const char *word)
{
	return snprintf(out, cap, "%s", word);
}

/* Append to @out (room: @cap, always enough for an address) at *@len. */
static void put(char *out, size_t cap, size_t *len, const char *fmt, unsigned v)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	int n = snprintf(out + *len, cap - *len, fmt, v);
#pragma GCC diagnostic pop

	if (n > 0)
		*len += (size_t)n < cap - *len ? (size_t)n : cap - *len - 1;
}

static void ip4(const unsigned char *a, int padded, char *out, size_t cap, size_t *len)
{
	for (int i = 0; i < 4; i++)
		put(out, cap, len, i ? (padded ? ".%03u" : ".%u") : (padded ? "%03u" : "%u"), a[i]);
}

/* The 16-bit group @i of IPv6 address @a (network order in memory). */
static unsigned group(const unsigned char *a, int i)
{
	return (unsigned)a[2 * i] << 8 | a[2 * i + 1];
}

/* IPv6 @a: all eight groups (%pI6), 32 digits (%pi6), or compressed (%pI6c). */
static void ip6(const unsigned char *a, char form, char *out, size_t cap, size_t *len)
{
	static const unsigned char v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	int groups = 8, run_at = -1, run_len = 0, colon = 0;

	if (form != 'c') {
		for (int i = 0; i < 8; i++)
			put(out, cap, len, form == 'i' ? "%04x" : i ? ":%04x" : "%04x", group(a, i));
		return;
	}
	/* an IPv4-mapped or ISATAP (::5efe or ::200:5efe) address ends in dotted quad */
	if (!memcmp(a, v4mapped, 12) || ((group(a, 4) | 0x0200) == 0x0200 && group(a, 5) == 0x5efe))
		groups = 6;
	for (int i = 0; i < groups; i++) { /* the first longest run of zero groups */
		int n = 0;

		while (i + n < groups && !group(a, i + n))
			n++;
		if (n > run_len) {
			run_len = n;
			run_at = i;
		}
	}
	if (run_len < 2) /* a single zero group stays */
		run_at = -1;
	for (int i = 0; i < groups; i++) {
		if (i == run_at) { /* "::" in its place; a ':' before a group after it */
			put(out, cap, len, colon || !i ? "::" : ":", 0);
			colon = 0;
			i += run_len - 1;
			continue;
		}
		put(out, cap, len, colon ? ":%x" : "%x", group(a, i));
		colon = 1;
	}
	if (groups == 6) {
		if (colon)
			put(out, cap, len, ":", 0);
		ip4(a + 12, 0, out, cap, len);
	}
}

int peo_tp_ip_print(const char *ext, size_t ext_max, size_t *used, const unsigned char *b,
		    size_t n, int little, char *out, size_t cap)
{
	int padded = ext[0] == 'i', port = 0, compressed = 0;
	size_t k = 2, len = 0;
	unsigned family;

	out[0] = '\0';
	if (ext_max < 2 || (ext[0] != 'I' && ext[0] != 'i') || !strchr("46S", ext[1]))
		return peo_fail(ENOTSUP, "print fmt: %%p%.2s is not an address peo prints", ext);
	if (ext[1] == '4') {
		unsigned char swapped[4];
		int reverse = 0; /* the address a u32 in little-endian order: last byte first */

		if (k < ext_max && strchr("hnbl", ext[k])) {
			reverse = ext[k] == 'l' || (ext[k] == 'h' && little);
			k++;
		}
		*used = k;
		if (n != 4)
			return invalid(out, cap, "INVALIDIPv4");
		for (int i = 0; i < 4; i++)
			swapped[i] = b[reverse ? 3 - i : i];
		ip4(swapped, padded, out, cap, &len);
		return (int)len;
	}
	if (ext[1] == '6') {
		compressed = k < ext_max && ext[k] == 'c' && !padded;
		*used = k + (size_t)compressed;
		if (n != 16)
			return invalid(out, cap, "INVALIDIPv6");
		ip6(b, padded ? 'i' : compressed ? 'c' : 'I', out, cap, &len);
		return (int)len;
	}
	for (; k < ext_max && strchr("pcfs", ext[k]); k++) { /* %pIS's flags */
		port |= ext[k] == 'p';
		compressed |= ext[k] == 'c';
	}
	*used = k;
	family = n < 2 ? 0 : (unsigned)b[0] | (unsigned)b[1] << 8; /* the host's order: recorded here */
	if (family == FAMILY_INET && n < SOCKADDR_IN_BYTES)
		return invalid(out, cap, "INVALIDIPv4");
	if (family == FAMILY_INET6 && n < SOCKADDR_IN6_BYTES)
		return invalid(out, cap, "INVALIDIPv6");
	if (family == FAMILY_INET) {
		ip4(b + 4, padded, out, cap, &len);
	} else if (family == FAMILY_INET6) {
		if (port)
			put(out, cap, &len, "[", 0);
		ip6(b + 8, padded ? 'i' : compressed ? 'c' : 'I', out, cap, &len);
		if (port)
			put(out, cap, &len, "]", 0);
	} else { /* another family: nothing, as perf prints */
		return 0;
	}
	if (port)
		put(out, cap, &len, ":%u", (unsigned)b[2] << 8 | b[3]);
	return (int)len;
}
