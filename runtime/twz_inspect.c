/*
 * twz_inspect.c - the tool's view of an open database (twz_inspect.h):
 * reads the private struct so that nothing outside runtime/ has to.
 */
#include "twz_inspect.h"

#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "twz_db.h"
#include "twz_chunks.h"
#include "twz_cpd_inline.h"
#include "twz_layers.h"
#include "twz_validate_layers.h"

const struct twz_container *twz_inspect_container(const twz_db *db)
{
	return &db->c;
}

const void *twz_inspect_section(const twz_db *db, unsigned kind,
				const uint8_t **data, size_t *size)
{
	*data = NULL;
	*size = 0;
	if (kind >= TWZ_SECTION_KIND_LIMIT)
		return NULL;
	*data = db->content.data[kind];
	*size = (size_t)db->content.size[kind];
	return db->inflated[kind];
}

int twz_inspect_section_bytes(const twz_db *db, uint32_t i,
			      const uint8_t **data, size_t *size, void **owned)
{
	*data = NULL;
	*size = 0;
	*owned = NULL;
	if (i >= db->c.section_count)
		return 1;
	const struct twz_section_ref *s = &db->c.sections[i];
	/* An agent-size layer's section: as its layer reads it. */
	if (s->kind >= TWZ_LAYER_KIND_STRIDE) {
		uint32_t j;
		const twz_db *layer = twz__layer_section(db, s->kind, &j);
		return layer ? twz_inspect_section_bytes(layer, j, data, size, owned)
			     : 1;
	}
	if (s->kind == 0 || s->kind >= TWZ_SECTION_KIND_LIMIT)
		return 1;
	if (db->content.data[s->kind]) {
		*data = db->content.data[s->kind];
		*size = (size_t)db->content.size[s->kind];
		return 0;
	}
	/* Open skips kinds of a newer minor version (as load() does), and
	 * frees what it inflated once its back end has derived its own
	 * tables from it: only the latter is inflated again. */
	int transit = db->c.method == TWZ_METHOD_TRANSIT &&
		      twz_transit_kind(&db->c, s->kind);
	if ((s->kind > TWZ_SECTION_KIND_MAX && !transit) ||
	    s->codec != TWZ_CODEC_ZSTD)
		return 1;
	void *buf = malloc(s->raw_size ? (size_t)s->raw_size : 1);
	if (!buf)
		return -1;
	size_t got = s->raw_size;
	if (s->flags & TWZ_SF_CHUNKED) {
		if (twz__chunks_inflate(db->file + s->offset, s, buf, 0) != TWZ_OK)
			got = 0;
	} else {
		got = ZSTD_decompress(buf, (size_t)s->raw_size,
				      db->file + s->offset, (size_t)s->size);
	}
	if (ZSTD_isError(got) || got != s->raw_size ||
	    twz_checksum(buf, (size_t)s->raw_size) != s->raw_checksum) {
		free(buf);
		return -1;
	}
	*data = buf;
	*size = (size_t)s->raw_size;
	*owned = buf;
	return 0;
}

void twz_inspect_file(const twz_db *db, const uint8_t **bytes, size_t *len)
{
	*bytes = db->file;
	*len = db->file_len;
}

/* Node s's bucketed row, through the chunk cache when ROWS is read on
 * use (then pinned); 0 when its chunk is damaged. */
static int row_view(const twz_db *db, uint32_t s, struct twz_row_view *v,
		    struct twz_chunk_pin *pin)
{
	uint32_t lo, len;

	twz__region_range(db, s, &lo, &len);
	return twz__row_view_pinned(db, s, lo, len, v, pin);
}

uint32_t twz_inspect_row_runs(const twz_db *db, twz_node s)
{
	if (!db || s >= db->c.node_count)
		return 0;
	if (db->inline_rows)
		return twz__inline_unpack_row(db, s, NULL);
	if (db->bucketed) {
		struct twz_row_view v;
		struct twz_chunk_pin pin;
		if (!row_view(db, s, &v, &pin))
			return 0;
		uint32_t runs = twz__row_run_count(&v);
		twz__chunk_unpin(&pin);
		return runs;
	}
	if (!db->row_offsets)
		return 0;
	return twz_le32(db->row_offsets + 4 * ((size_t)s + 1)) -
	       twz_le32(db->row_offsets + 4 * (size_t)s);
}

static inline uint32_t u16_at(const uint8_t *base, size_t i)
{
	return twz_le16(base + 2 * i);
}

/*
 * Bucketed rows back to absolute run starts. A run stores its start less
 * the base of the bucket it starts in, and index[b] is the last run
 * starting at or before base b. So run j > 0 starts in the last bucket b
 * with index[b] < j, unless the next bucket's index is j itself and the
 * stored offset is 0: then it starts exactly on that next base (a run in
 * bucket b starts after base b, so its offset is never 0).
 */
static int unpack_buckets(const twz_db *db, struct twz_plain_rows *out)
{
	uint32_t n = db->c.node_count;
	struct twz_row_view v;
	uint64_t runs = 0;

	struct twz_chunk_pin pin;

	for (uint32_t s = 0; s < n; s++) {
		if (!row_view(db, s, &v, &pin))
			return -1;
		runs += twz__row_run_count(&v);
		twz__chunk_unpin(&pin);
	}
	out->owned = malloc(((size_t)n + 1 + (size_t)runs) * 4);
	if (!out->owned)
		return -1;
	uint8_t *offsets = out->owned, *dst = out->owned + ((size_t)n + 1) * 4;
	uint64_t pos = 0;
	for (uint32_t s = 0; s < n; s++) {
		if (!row_view(db, s, &v, &pin)) {
			free(out->owned);
			out->owned = NULL;
			return -1;
		}
		uint32_t count = twz__row_run_count(&v);
		uint32_t b = 0;

		twz_put32(offsets + 4 * (size_t)s, (uint32_t)pos);
		for (uint32_t j = 0; j < count; j++, pos++) {
			uint32_t word = u16_at(v.runs, j);
			uint32_t rel = word >> TWZ_RUN_SYMBOL_BITS;
			uint32_t start = v.lo;
			if (j > 0) {
				while (b + 1 < v.buckets && u16_at(v.index, b + 1) < j)
					b++;
				uint32_t in = b;
				if (b + 1 < v.buckets && u16_at(v.index, b + 1) == j &&
				    rel == 0)
					in = b + 1;
				start = v.lo + (in << v.shift) + rel;
			}
			twz_put32(dst + 4 * pos, start << TWZ_RUN_SYMBOL_BITS |
				  (word & TWZ_RUN_SYMBOL_MASK));
		}
		twz__chunk_unpin(&pin);
	}
	twz_put32(offsets + 4 * (size_t)n, (uint32_t)pos);
	out->row_offsets = offsets;
	out->runs = dst;
	out->run_count = pos;
	return 0;
}

/* 1.4 inline-summarised rows back to plain runs. */
static int unpack_inline(const twz_db *db, struct twz_plain_rows *out)
{
	uint32_t n = db->c.node_count;

	out->owned = malloc(((size_t)n + 1 + (size_t)db->run_count) * 4);
	if (!out->owned)
		return -1;
	uint8_t *offsets = out->owned, *dst = out->owned + ((size_t)n + 1) * 4;
	uint64_t pos = 0;
	for (uint32_t s = 0; s < n; s++) {
		twz_put32(offsets + 4 * (size_t)s, (uint32_t)pos);
		pos += twz__inline_unpack_row(db, s, dst + 4 * pos);
	}
	twz_put32(offsets + 4 * (size_t)n, (uint32_t)pos);
	out->row_offsets = offsets;
	out->runs = dst;
	out->run_count = pos;
	return 0;
}

int twz_inspect_plain_rows(const twz_db *db, struct twz_plain_rows *out)
{
	memset(out, 0, sizeof *out);
	if (db->inline_rows)
		return unpack_inline(db, out);
	if (db->bucketed)
		return unpack_buckets(db, out);
	if (!db->row_offsets || !db->runs)
		return 1;
	out->row_offsets = db->row_offsets;
	out->runs = db->runs;
	out->run_count = db->run_count;
	return 0;
}

int twz_inspect_transit(const twz_db *db, struct twz_transit_params *out)
{
	const struct twz_transit_view *tv = &db->transit;

	memset(out, 0, sizeof *out);
	if (db->c.method != TWZ_METHOD_TRANSIT)
		return -1;
	out->origin_x = tv->origin_x;
	out->origin_y = tv->origin_y;
	out->side = tv->side;
	out->cols = tv->cols;
	out->rows = tv->rows;
	out->transit_count = tv->transit_count;
	out->nodes = tv->access ? tv->access_nodes + TWZ_AN_NODE : tv->nodes;
	out->node_stride = tv->access ? TWZ_AN_SIZE : 4;
	return 0;
}

int twz_inspect_chunks(const twz_db *db, uint32_t i,
		       struct twz_chunk_summary *out)
{
	struct twz_chunk_dir d;

	memset(out, 0, sizeof *out);
	if (i >= db->c.section_count)
		return -1;
	const struct twz_section_ref *s = &db->c.sections[i];
	if (!(s->flags & TWZ_SF_CHUNKED))
		return 1;
	/* Open checked the directory of every section it read. */
	if (twz_chunk_dir_read(db->file + s->offset, s->size, s->raw_size,
			       &d) != TWZ_OK)
		return -1;
	out->count = d.count;
	out->max_raw = d.max_raw;
	out->raw_size = s->raw_size;
	out->stored_size = s->size;
	if (db->cache)
		for (unsigned k = 0; k < db->cache->lazy_count; k++)
			out->lazy |= db->cache->lazy[k].kind == s->kind;
	return 0;
}

int twz_inspect_cache(const twz_db *db, struct twz_cache_summary *out)
{
	const struct twz_chunk_cache *cc = db->cache;

	memset(out, 0, sizeof *out);
	if (!cc)
		return 1;
	out->budget = cc->budget;
	out->slots = cc->slots;
	out->slot_size = cc->slot_size;
	out->misses = atomic_load(&((struct twz_chunk_cache *)cc)->misses);
	out->failures = atomic_load(&((struct twz_chunk_cache *)cc)->failures);
	for (uint32_t i = 0; i < cc->slots; i++)
		out->resident += cc->slot[i].chunk != 0;
	for (unsigned k = 0; k < cc->lazy_count; k++) {
		out->chunks += cc->lazy[k].dir.count;
		out->lazy_raw += cc->lazy[k].start[cc->lazy[k].dir.count];
	}
	return 0;
}
