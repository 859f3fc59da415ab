/*
 * twz_validate_cpd.c - content validation of a CPD database (method 1),
 * step 4 of FORMAT.md for that method: the plain layout (checks 33 to 38)
 * and bucketed rows (1.1, checks 39 to 47); 1.4's inline-summarised rows
 * are a peer, twz_validate_cpd_inline.c. The checks they share with each
 * other and with TRANSIT (node maps, regions, records, runs) are in
 * twz_validate_grid.c.
 */
#include "twz_validate_grid.h"
#include "twz_validate_method.h"

/* ---- plain layout (1.0) ---------------------------------------------- */

static twz_status validate_plain(const struct twz_container *c,
				 const struct twz_content *v)
{
	/* Every kind of 1.0 is required; all sizes but RUNS follow from the
	 * header. */
	for (uint32_t k = 1; k <= TWZ_SECTION_RUNS; k++) {
		if (!v->data[k])
			return TWZ_E_DAMAGED;
		if (k != TWZ_SECTION_RUNS &&
		    v->size[k] != twz_expected_raw_size(c, k))
			return TWZ_E_DAMAGED;
	}
	uint64_t run_bytes = v->size[TWZ_SECTION_RUNS];
	if (!twz_runs_size_ok(run_bytes))
		return TWZ_E_DAMAGED;

	struct twz_cells g = twz_cells_of(c, v->data[TWZ_SECTION_CELL_NODE]);
	twz_status st = twz_check_nodes(c, &g, v);
	if (st != TWZ_OK)
		return st;
	return twz_check_runs(c, &g, v->data[TWZ_SECTION_NODE_CELL],
			      v->data[TWZ_SECTION_ROW_OFFSETS],
			      v->data[TWZ_SECTION_RUNS], run_bytes / 4,
			      twz_cpd_row_symbols(c));
}

/* ---- bucketed rows (1.1) --------------------------------------------- */

/* Row n's index and symbols, rows[begin, end) in u16 units at bytes
 * (begin, end and the region's len checked against each other). */
static twz_status check_row_content(const struct twz_container *c,
				    const struct twz_cells *g,
				    const uint8_t *r, uint32_t len,
				    const uint8_t *bytes, uint64_t begin,
				    uint64_t end)
{
	unsigned allow = twz_cpd_row_symbols(c);
	unsigned shift = twz_le32(r + TWZ_R_ROW) >> TWZ_ROW_OFFSET_BITS;
	uint32_t buckets = ((len - 1) >> shift) + 1;
	uint64_t runs = end - begin - buckets - 1;
	const uint8_t *index = bytes;
	const uint8_t *run = index + 2 * ((size_t)buckets + 1);
	uint32_t prev = 0;

	for (uint32_t b = 0; b <= buckets; b++) {
		uint32_t j = twz_le16(index + 2 * (size_t)b);
		/* The runs from one bucket's entry to the next start at
		 * distinct targets of the bucket, or the next one's first:
		 * no more than 2^k of them, which bounds what a lookup
		 * scans. */
		if (j >= runs || j < prev || j - prev > (1u << shift) ||
		    (b == 0 && j != 0) || (b == buckets && j != runs - 1))
			return TWZ_E_DAMAGED;
		prev = j;
	}
	uint32_t x = twz_le16(r + TWZ_R_X), y = twz_le16(r + TWZ_R_Y);
	for (uint64_t j = 0; j < runs; j++)
		if (!twz_row_symbol_ok(g, x, y,
				       twz_le16(run + 2 * j) & TWZ_RUN_SYMBOL_MASK,
				       allow))
			return TWZ_E_DAMAGED;
	return TWZ_OK;
}

/* Where row n lies in ROWS (total u16 units), from the records. */
static void row_bounds(const struct twz_container *c, const uint8_t *rec,
		       uint32_t n, uint64_t total, uint64_t *begin,
		       uint64_t *end)
{
	const uint8_t *r = rec + (size_t)n * TWZ_RECORD_SIZE;

	*begin = twz_le32(r + TWZ_R_ROW) & TWZ_ROW_OFFSET_MASK;
	*end = n + 1 < c->node_count
		? twz_le32(r + TWZ_RECORD_SIZE + TWZ_R_ROW) & TWZ_ROW_OFFSET_MASK
		: total;
}

/* Offsets of every row; contents too unless rows is NULL (ROWS deferred
 * to twz_validate_cpd_rows, chunk by chunk). */
static twz_status check_bucketed_rows(const struct twz_container *c,
				      const struct twz_cells *g,
				      const uint8_t *rec, const uint8_t *regions,
				      const uint8_t *rows, uint64_t total)
{
	uint32_t k = 0;

	if (total > TWZ_ROW_OFFSET_MASK)
		return TWZ_E_LIMIT;
	for (uint32_t n = 0; n < c->node_count; n++) {
		const uint8_t *r = rec + (size_t)n * TWZ_RECORD_SIZE;
		uint64_t begin, end;
		row_bounds(c, rec, n, total, &begin, &end);
		unsigned shift = twz_le32(r + TWZ_R_ROW) >> TWZ_ROW_OFFSET_BITS;
		while (n >= twz_le32(regions + 4 * ((size_t)k + 1)))
			k++;
		uint32_t len = twz_le32(regions + 4 * ((size_t)k + 1)) -
			       twz_le32(regions + 4 * (size_t)k);

		if ((n == 0 && begin != 0) || end < begin || end > total ||
		    shift > TWZ_MAX_BUCKET_SHIFT)
			return TWZ_E_DAMAGED;
		uint32_t buckets = ((len - 1) >> shift) + 1;
		if (end - begin <= (uint64_t)buckets + 1)
			return TWZ_E_DAMAGED;
		uint64_t runs = end - begin - buckets - 1;
		/* Runs start at distinct targets of the region. */
		if (runs > TWZ_MAX_ROW_RUNS || runs > len)
			return TWZ_E_DAMAGED;
		if (rows && check_row_content(c, g, r, len, rows + 2 * begin,
					      begin, end) != TWZ_OK)
			return TWZ_E_DAMAGED;
	}
	return TWZ_OK;
}

twz_status twz_validate_cpd_rows(const struct twz_container *c,
				 const struct twz_content *v,
				 const uint8_t *bytes, uint64_t base,
				 uint64_t avail, uint32_t first, uint32_t last)
{
	struct twz_cells g = twz_cells_of(c, v->data[TWZ_SECTION_CELL_NODE]);
	const uint8_t *rec = v->data[TWZ_SECTION_NODE_RECORDS];
	const uint8_t *regions = v->data[TWZ_SECTION_REGIONS];
	uint64_t total = v->size[TWZ_SECTION_ROWS] / 2;

	for (uint32_t n = first; n < last && n < c->node_count; n++) {
		uint64_t begin, end;
		uint32_t len = twz_region_size_of(regions, c->component_count, n);
		row_bounds(c, rec, n, total, &begin, &end);
		/* The whole row in the bytes given: a reader finds it in
		 * one piece. Offsets were checked at open. */
		if (begin < base || end > base + avail)
			return TWZ_E_DAMAGED;
		if (check_row_content(c, &g, rec + (size_t)n * TWZ_RECORD_SIZE,
				      len, bytes + 2 * (begin - base), begin,
				      end) != TWZ_OK)
			return TWZ_E_DAMAGED;
	}
	return TWZ_OK;
}

static twz_status validate_bucketed(const struct twz_container *c,
				    const struct twz_content *v)
{
	static const uint32_t required[] = {
		TWZ_SECTION_CELL_NODE, TWZ_SECTION_NODE_RECORDS,
		TWZ_SECTION_REGIONS, TWZ_SECTION_ROWS
	};
	for (unsigned i = 0; i < sizeof required / sizeof *required; i++) {
		uint32_t k = required[i];
		int deferred = k == TWZ_SECTION_ROWS &&
			       (v->deferred & TWZ_DEFER_ROWS);
		if (!v->data[k] && !deferred)
			return TWZ_E_DAMAGED;
		if (k != TWZ_SECTION_ROWS && v->size[k] != twz_expected_raw_size(c, k))
			return TWZ_E_DAMAGED;
	}
	uint64_t row_bytes = v->size[TWZ_SECTION_ROWS];
	if (row_bytes % 2 || row_bytes / 2 > UINT32_MAX)
		return TWZ_E_DAMAGED;
	if (c->node_count == 0)
		return c->component_count == 0 ? TWZ_OK : TWZ_E_DAMAGED;

	struct twz_cells g = twz_cells_of(c, v->data[TWZ_SECTION_CELL_NODE]);
	const uint8_t *rec = v->data[TWZ_SECTION_NODE_RECORDS];
	const uint8_t *regions = v->data[TWZ_SECTION_REGIONS];
	twz_status st = twz_check_regions(c, regions);
	if (st == TWZ_OK)
		st = twz_cpd_check_records(c, &g, rec, TWZ_RECORD_SIZE, regions);
	if (st == TWZ_OK)
		st = check_bucketed_rows(c, &g, rec, regions,
					 v->data[TWZ_SECTION_ROWS], row_bytes / 2);
	return st;
}

twz_status twz_validate_cpd(const struct twz_container *c,
			    const struct twz_content *v)
{
	if (c->required_features & TWZ_FEATURE_BUCKETED_ROWS)
		return validate_bucketed(c, v);
	return validate_plain(c, v);
}
