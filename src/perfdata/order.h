/*
 * order.h - the time-ordering stage: records from any source of records
 * (a function that yields the next one with its time) handed on in time
 * order by perf's FINISHED_ROUND rule.  It knows no file: the reader
 * (perfdata/order_reader.c) feeds it the stream's records, a test made-up
 * ones (tests/test_perfdata_order.c).
 *
 * The rule, as perf's ordered events go:
 *   - records with a time are held, sorted by time, equal times in
 *     arrival order;
 *   - a record that ends a round lets out the held records up to the
 *     newest time held when the round before it ended;
 *   - that newest time is of the records held: the first record held
 *     after all went out sets it, older or not than those gone;
 *   - a record without a time passes at once (a round's end too, before
 *     the records it lets out);
 *   - at the end of the source (or its error) every held record goes out,
 *     then the end (or the error).
 */
#ifndef PEO_PERFDATA_ORDER_H
#define PEO_PERFDATA_ORDER_H

#include <stdint.h>

#include "internal.h"

/* One record, from the source into the stage and from the stage out. */
struct pd_order_rec {
	const unsigned char *bytes; /* the record's bytes */
	uint32_t len;               /* how many */
	uint32_t tag;               /* the source's, kept with a held record */
	uint64_t offset;            /* where the source has it (its oldest held: pd_order_oldest) */
	uint64_t time;              /* its time, when has_time */
	int has_time;               /* 0: it passes at once */
	int round_end;              /* it ends a round (FINISHED_ROUND) */
	int stays;                  /* in: @bytes stay put while it is held (else copied) */
	int held;                   /* out: 1 when it comes from the held records, 0
				     * when it is the one just pulled, passing at once */
};

/* A source of records: @pull fills *rec with the next one and returns 1,
 * or 0 at the end, or a negative errno (its sentence set by peo_fail()). */
struct pd_order_src {
	int (*pull)(void *ctx, struct pd_order_rec *rec);
	void *ctx;
};

struct pd_order;

/* A new, empty stage: 0 and *out, or -ENOMEM. */
PEO_HIDDEN int pd_order_new(struct pd_order **out);
/* Frees @o (NULL is fine) and what it holds. */
PEO_HIDDEN void pd_order_free(struct pd_order *o);
/*
 * The next record in time order into *out, pulling from @src as the rule
 * needs: 1; 0 when @src ended and nothing is held; or a negative errno: an
 * out-of-memory, or @src's error (after the records held before it).  A
 * held record's bytes stay valid until the next call.
 */
PEO_HIDDEN int pd_order_next(struct pd_order *o, const struct pd_order_src *src,
			     struct pd_order_rec *out);
/* The oldest offset among the held records, or @pos when none is older:
 * where the source must keep the bytes of those that stay. */
PEO_HIDDEN uint64_t pd_order_oldest(const struct pd_order *o, uint64_t pos);

#endif
