/*
 * script/json.h - peo script --json: keys and values put by hand into the
 * output buffer, and the fields of each kind of record.  Keys are the
 * kernel's field names (perf's for perf's own records); addresses and bit
 * masks are "0x..." strings, byte strings plain hex.
 */
#ifndef PEO_TOOLS_SCRIPT_JSON_H
#define PEO_TOOLS_SCRIPT_JSON_H

#include "peo/peo.h"
#include "script/out.h"

/*
 * ,"key":value put in room the caller made: the key a literal, its bytes
 * counted at compile time and copied by words (a checked copy and a room
 * check a piece had been a third of a JSON run).
 */
#define JSON_PREFIX(key, after) ",\"" key "\":" after
#define PUT_KEY(p, key, after) \
	put_bytes(p, JSON_PREFIX(key, after), sizeof(JSON_PREFIX(key, after)) - 1)
#define PUT_U64(p, key, v) put_dec(PUT_KEY(p, key, ""), v, 0, 0)
/* pid and tid: the kernel's u32, -1 for "none", as perf prints them */
#define PUT_PID(p, key, v) put_i64(PUT_KEY(p, key, ""), (int32_t)(v), 0)
#define PUT_HEX(p, key, v) put_quote(put_hex(PUT_KEY(p, key, "\"0x"), v, 0))

/* The room one PUT_*() takes at most: a key under 24 bytes, a quoted 0x and
 * 16 hex digits or a sign and 20 decimal ones. */
#define JSON_FIELD_ROOM 48
#define JSON_KEY_FITS(key) (void)sizeof(char[sizeof(key) <= 24 ? 1 : -1])

/* The checked forms: each makes its own room. */
#define JSON_CHECKED(PUT, o, key, v) \
	(JSON_KEY_FITS(key), out_advance(o, PUT(out_room(o, JSON_FIELD_ROOM), key, v)))
#define JSON_U64(o, key, v) JSON_CHECKED(PUT_U64, o, key, v)
#define JSON_PID(o, key, v) JSON_CHECKED(PUT_PID, o, key, v)
#define JSON_HEX(o, key, v) JSON_CHECKED(PUT_HEX, o, key, v)

/* @v as a JSON string "0x...", lower-case hex.  Room: 20. */
static inline char *put_json_hex(char *p, uint64_t v)
{
	memcpy(p, "\"0x", 3);
	return put_quote(put_hex(p + 3, v, 0));
}

/* @s, NUL-terminated, as a JSON string. */
static inline void json_str(struct out *o, const char *s)
{
	out_json_string(o, s, out_strlen(s));
}

/* ,"@key": for a key not known at compile time (JSON_*() take literals). */
void json_key(struct out *o, const char *key);

/* ,"@key":"..." the string @s (NUL-terminated), escaped. */
void json_key_str(struct out *o, const char *key, const char *s);

/* ,"@key":"..." the @n bytes at @bytes in hex, two digits each. */
void json_hex_bytes(struct out *o, const char *key, const void *bytes, size_t n);

/* u64 @i of @array in host order, as its @owner's byte order has it
 * (peo_record_u64() of a record, peo_perfdata_user_u64() of a file). */
typedef uint64_t json_u64_at_fn(const void *owner, const void *array, size_t i);

/* ,"@key":[...]: the @n u64 of @array (read by @at), as "0x..." strings
 * when @hex, else numbers. */
void json_u64_array(struct out *o, const char *key, json_u64_at_fn *at, const void *owner,
		    const void *array, uint64_t n, int hex);

/* The sample fields json_sample_more() puts; print_sample_json() puts the others. */
#define JSON_SAMPLE_MORE                                                                       \
	(PEO_SAMPLE_STREAM_ID | PEO_SAMPLE_READ |                                              \
	 PEO_SAMPLE_BRANCH_STACK | PEO_SAMPLE_REGS_USER | PEO_SAMPLE_STACK_USER |              \
	 PEO_SAMPLE_WEIGHT_TYPE | PEO_SAMPLE_DATA_SRC | PEO_SAMPLE_TRANSACTION |               \
	 PEO_SAMPLE_REGS_INTR | PEO_SAMPLE_PHYS_ADDR | PEO_SAMPLE_AUX | PEO_SAMPLE_CGROUP |    \
	 PEO_SAMPLE_DATA_PAGE_SIZE | PEO_SAMPLE_CODE_PAGE_SIZE)

/* A sample's fields of the JSON_SAMPLE_MORE kinds that its attr has. */
void json_sample_more(struct out *o, const struct peo_record *r);

/* The fields of a kernel record other than SAMPLE, then its sample_id
 * trailer's as sample_pid, sample_time...; of a type peo does not know
 * (any record @r->unknown), its type_number and its bytes as "data". */
void json_kernel_record(struct out *o, const struct peo_record *r);

/* The fields of one of perf's own records (@f for their byte order), as
 * far as peo_perfdata_decode_user() knows them.  Returns 0, or -1 when the
 * record is malformed (nothing put; peo_last_error() says what and where). */
int json_user_record(struct out *o, const struct peo_perfdata *f, const struct peo_record *r);

/*
 * ,"fields":{"name":value,...}: each field of @raw (@raw_size bytes, the
 * RAW payload of sample @r) by its format @f but the common_* ones (pid
 * and event say them).  Strings (char arrays, __data_loc char[]; not
 * unsigned char ones) as JSON strings; integers as numbers, pointers and
 * unsigned longs as "0x..." as perf prints them; a fixed array of
 * integers as an array of them; other bytes (__data_loc u8[] or unsigned
 * char[], odd sizes) as an array of byte values; null for a field past
 * the payload.
 */
void json_tp_fields(struct out *o, const struct peo_tp_format *f, const struct peo_record *r,
		    const void *raw, size_t raw_size);

#endif
