/*
 * order_reader.c - the reader's records in time order (opts.ordered): the
 * stream's records (pd_stream_next, peeked at for their time) fed to the
 * ordering stage (perfdata/order.c), and parsed on their way out of it.
 */
#include <stdint.h>

#include "perfdata/order.h"
#include "perfdata/reader.h"

#define NO_ATTR UINT32_MAX

/* What a pull reads with: the reader, and the record it reads into. */
struct pull_ctx {
	struct peo_perfdata *f;
	struct peo_perfdata_record *out;
};

/* The stage's source: the stream's next record, with its time when it has one. */
static int pull(void *ctx, struct pd_order_rec *rec)
{
	struct pull_ctx *c = ctx;
	struct peo_perfdata *f = c->f;
	const struct peo_record *r = &c->out->rec;
	int got = pd_stream_next(&f->st, c->out);

	if (got <= 0)
		return got;
	rec->bytes = r->bytes;
	rec->len = r->header.size;
	rec->offset = c->out->offset;
	rec->round_end = r->header.type == PEO_RECORD_FINISHED_ROUND;
	rec->has_time = r->header.type < PEO_RECORD_MAX && f->st.has_time;
	if (!rec->has_time)
		return 1;
	rec->time = f->st.time;
	rec->stays = f->st.stable; /* the file stays mapped under it (released behind the oldest) */
	/* headers_only: the attr the peek found, by index (a pipe's HEADER_ATTR
	 * may move the parser's attrs meanwhile); parsed on the way out else */
	rec->tag = f->headers_only && r->attr ? (uint32_t)peo_pd_attr_index(f->hdr, r->attr) : NO_ATTR;
	return 1;
}

/* The mapping stays under the held records. */
static uint64_t oldest_held(void *order, uint64_t pos)
{
	return pd_order_oldest(order, pos);
}

int peo_pd_order_new(struct peo_perfdata *f)
{
	int err = pd_order_new(&f->order);

	if (err)
		return err;
	f->st.oldest_in_use = oldest_held;
	f->st.oldest_ctx = f->order;
	f->st.parse_fields = 0; /* records are peeked at for their time; parsed on the way out */
	f->st.want_time = 1;
	return 0;
}

void peo_pd_order_free(struct peo_perfdata *f)
{
	pd_order_free(f->order);
	f->order = NULL;
}

/* A record held by the stage, into *out as the reader gives it. */
static int deliver(struct peo_perfdata *f, const struct pd_order_rec *h,
		   struct peo_perfdata_record *out)
{
	int got;

	/* The parse (or peek) sets out->rec; the rest is set here. */
	out->offset = h->offset;
	out->payload = NULL;
	out->payload_size = 0;
	if (f->headers_only) { /* what the peek that held it found */
		out->rec.header = peo_load_header(h->bytes, f->hdr->parser->swap);
		out->rec.bytes = h->bytes;
		out->rec.swapped = f->hdr->parser->swap;
		out->rec.attr = h->tag == NO_ATTR ? NULL : peo_pd_parser_attr(f->hdr, h->tag);
		out->rec.unknown = 0;
		out->rec.sample_id.fields = 0;
		return 1;
	}
	got = pd_record_parse(f->hdr, h->bytes, h->len, h->offset, &out->rec);
	return got ? got : 1;
}

int peo_pd_order_next(struct peo_perfdata *f, struct peo_perfdata_record *out)
{
	struct pull_ctx c = { f, out };
	const struct pd_order_src src = { pull, &c };
	struct pd_order_rec rec;
	int got = pd_order_next(f->order, &src, &rec);

	if (got <= 0)
		return got;
	if (rec.held)
		return deliver(f, &rec, out);
	/* The record just read, in *out: kernel records get their fields. */
	if (!f->headers_only && out->rec.header.type < PEO_RECORD_MAX &&
	    (got = pd_record_parse(f->hdr, out->rec.bytes, out->rec.header.size, out->offset,
				       &out->rec)))
		return got;
	return 1;
}
