/*
 * script_tp_json.h - a tracepoint sample's own fields in peo script --json.
 */
#ifndef PEO_TOOLS_SCRIPT_TP_JSON_H
#define PEO_TOOLS_SCRIPT_TP_JSON_H

#include "peo/peo.h"
#include "script_out.h"

/*
 * ,"fields":{"name":value,...}: each field of @raw (@raw_size bytes, the
 * RAW payload of sample @r) by its format @f but the common_* ones (pid
 * and event say them).  Strings (char arrays, __data_loc char[]) as JSON
 * strings; integers as numbers, pointers and unsigned longs as "0x..." as
 * perf prints them; a fixed array of integers as an array of them; other
 * bytes (__data_loc u8[], odd sizes) as an array of byte values; null for
 * a field past the payload.
 */
void json_tp_fields(struct out *o, const struct peo_tp_format *f, const struct peo_record *r,
		    const void *raw, size_t raw_size);

#endif
