/*
 * twz_validate_cpd_inline.c - content validation of a CPD file with
 * 1.4's inline-summarised rows (TWZ_FEATURE_CPD_INLINE): checks I2 to I6
 * of FORMAT.md section 5i (I1, the feature bits, is the header's). What
 * it proves bounds every lookup: a summary nibble is a symbol or an
 * escape, an escaped bucket's runs lie inside its row and rise through
 * the bucket, so no more than 2^k are read, and the symbol before its
 * first run is always there to read.
 */
#include "twz_validate_grid.h"
#include "twz_validate_method.h"

/* The runs of one escaped bucket of `size` targets: rising offsets
 * inside the bucket, symbols the source may hold. *zero: the first is
 * at offset 0 (else the bucket's first targets take the implied
 * symbol). */
static int bucket_ok(const struct twz_cells *g, uint32_t x, uint32_t y,
		     const uint8_t *run, uint32_t count, uint32_t size,
		     unsigned allow, int *zero)
{
	uint32_t prev = 0;

	*zero = 0;
	if (count > size)
		return 0;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t w = twz_le16(run + 2 * (size_t)i);
		uint32_t off = w >> TWZ_RUN_SYMBOL_BITS;
		if (i == 0)
			*zero = off == 0;
		if (off >= size || (i > 0 && off <= prev))
			return 0;
		if (!twz_row_symbol_ok(g, x, y, w & TWZ_RUN_SYMBOL_MASK, allow))
			return 0;
		prev = off;
	}
	return 1;
}

/* Nibble b of record r's summary (sb buckets). */
static unsigned nibble(const uint8_t *r, uint32_t b)
{
	return twz_le64(r + TWZ_IR_SUMMARY + 8 * (size_t)(b / 16)) >>
	       (4 * (b % 16)) & 0xF;
}

/* The layout of a file's records: kind, size and summary buckets. */
struct records {
	unsigned kind;
	size_t size;
	unsigned sb;
};

static struct records records_of(const struct twz_content *v)
{
	int wide = v->data[TWZ_SECTION_INLINE_RECORDS_WIDE] != NULL;

	return (struct records){
		wide ? TWZ_SECTION_INLINE_RECORDS_WIDE : TWZ_SECTION_INLINE_RECORDS,
		wide ? TWZ_INLINE_WIDE_RECORD_SIZE : TWZ_INLINE_RECORD_SIZE,
		wide ? TWZ_INLINE_WIDE_BUCKETS : TWZ_INLINE_BUCKETS,
	};
}

/* Check I5 and I6 of node n's record r and its row of `words` u16 at
 * row (I6 left out when row is NULL: the rows are checked chunk by
 * chunk, twz_validate_cpd_inline_rows); its region holds len targets. */
static twz_status check_row(const struct twz_cells *g, const uint8_t *r,
			    unsigned sb, uint32_t len, const uint8_t *row,
			    uint64_t words, unsigned allow)
{
	unsigned shift = twz_le32(r + TWZ_IR_ROW) >> TWZ_ROW_OFFSET_BITS;
	uint32_t x = twz_le16(r + TWZ_IR_X), y = twz_le16(r + TWZ_IR_Y);

	if (shift > TWZ_MAX_BUCKET_SHIFT)
		return TWZ_E_DAMAGED;
	uint32_t buckets = ((len - 1) >> shift) + 1;
	uint32_t summed = buckets < sb ? buckets : sb;
	uint64_t e = buckets - summed;
	for (uint32_t b = 0; b < sb; b++) {
		unsigned nib = nibble(r, b);
		if (b >= summed) {
			if (nib)
				return TWZ_E_DAMAGED;
		} else if (nib == TWZ_INLINE_ESCAPE) {
			e++;
		} else if (!twz_row_symbol_ok(g, x, y, nib, allow)) {
			return TWZ_E_DAMAGED;
		}
	}
	if (e == 0)
		return words == 0 ? TWZ_OK : TWZ_E_DAMAGED;
	/* An index entry for each escaped bucket but the first. */
	if (words < e - 1)
		return TWZ_E_DAMAGED;
	if (!row)
		return TWZ_OK;
	const uint8_t *run = row + 2 * (e - 1);
	uint64_t runs = words - (e - 1);
	uint64_t j = 0, at = 0;
	for (uint32_t b = 0; b < buckets; b++) {
		if (b < sb && nibble(r, b) != TWZ_INLINE_ESCAPE)
			continue;
		uint64_t next = j + 1 < e ? twz_le16(row + 2 * j) : runs;
		if (next < at || next > runs)
			return TWZ_E_DAMAGED;
		uint32_t base = b << shift;
		uint32_t size = len - base < (1u << shift) ? len - base
							   : 1u << shift;
		int zero;
		if (!bucket_ok(g, x, y, run + 2 * at, (uint32_t)(next - at),
			       size, allow, &zero))
			return TWZ_E_DAMAGED;
		/* Without a run at offset 0 the bucket's first targets take
		 * the summarised bucket before it, or the run before it. */
		int summed_before = b >= 1 && b - 1 < sb &&
				    nibble(r, b - 1) != TWZ_INLINE_ESCAPE;
		if (!zero && !summed_before && at == 0)
			return TWZ_E_DAMAGED;
		at = next;
		j++;
	}
	return TWZ_OK;
}

/* Where node n's row lies in INLINE_ROWS' u16: [*begin, *end). */
static void row_bounds(const struct twz_container *c, const uint8_t *rec,
		       size_t rec_size, uint32_t n, uint64_t total,
		       uint64_t *begin, uint64_t *end)
{
	const uint8_t *r = rec + (size_t)n * rec_size;

	*begin = twz_le32(r + TWZ_IR_ROW) & TWZ_ROW_OFFSET_MASK;
	*end = n + 1 < c->node_count
		? twz_le32(r + rec_size + TWZ_IR_ROW) & TWZ_ROW_OFFSET_MASK
		: total;
}

twz_status twz_validate_cpd_inline(const struct twz_container *c,
				   const struct twz_content *v)
{
	/* Check I2: the layout's kinds, sized as the header says; one of
	 * the two record kinds. */
	struct records rs = records_of(v);
	const uint32_t required[] = {
		TWZ_SECTION_CELL_NODE, TWZ_SECTION_REGIONS, rs.kind,
		TWZ_SECTION_INLINE_ROWS
	};
	int deferred = (v->deferred & TWZ_DEFER_ROWS) != 0;
	if (rs.kind == TWZ_SECTION_INLINE_RECORDS_WIDE &&
	    v->data[TWZ_SECTION_INLINE_RECORDS])
		return TWZ_E_DAMAGED;
	for (unsigned i = 0; i < sizeof required / sizeof *required; i++) {
		uint32_t k = required[i];
		if (k == TWZ_SECTION_INLINE_ROWS ? !deferred && !v->data[k] : !v->data[k])
			return TWZ_E_DAMAGED;
		if (k != TWZ_SECTION_INLINE_ROWS &&
		    v->size[k] != twz_expected_raw_size(c, k))
			return TWZ_E_DAMAGED;
	}
	uint64_t row_bytes = v->size[TWZ_SECTION_INLINE_ROWS];
	if (row_bytes % 2 || row_bytes / 2 > UINT32_MAX)
		return TWZ_E_DAMAGED;
	if (c->node_count == 0)
		return c->component_count == 0 ? TWZ_OK : TWZ_E_DAMAGED;

	struct twz_cells g = twz_cells_of(c, v->data[TWZ_SECTION_CELL_NODE]);
	const uint8_t *rec = v->data[rs.kind];
	const uint8_t *regions = v->data[TWZ_SECTION_REGIONS];
	const uint8_t *rows = deferred ? NULL : v->data[TWZ_SECTION_INLINE_ROWS];
	/* Checks I3 and I4: as 41 and 42 of the 1.1 layout. */
	twz_status st = twz_check_regions(c, regions);
	if (st == TWZ_OK)
		st = twz_cpd_check_records(c, &g, rec, rs.size, regions);
	if (st != TWZ_OK)
		return st;

	uint64_t total = row_bytes / 2;
	if (total > TWZ_ROW_OFFSET_MASK)
		return TWZ_E_LIMIT;
	unsigned allow = twz_cpd_row_symbols(c);
	uint32_t k = 0;
	for (uint32_t n = 0; n < c->node_count; n++) {
		uint64_t begin, end;
		row_bounds(c, rec, rs.size, n, total, &begin, &end);
		while (n >= twz_le32(regions + 4 * ((size_t)k + 1)))
			k++;
		uint32_t len = twz_le32(regions + 4 * ((size_t)k + 1)) -
			       twz_le32(regions + 4 * (size_t)k);
		/* Check I5: rows follow each other. */
		if ((n == 0 && begin != 0) || end < begin || end > total)
			return TWZ_E_DAMAGED;
		st = check_row(&g, rec + (size_t)n * rs.size, rs.sb, len,
			       rows ? rows + 2 * begin : NULL, end - begin, allow);
		if (st != TWZ_OK)
			return st;
	}
	return TWZ_OK;
}

twz_status twz_validate_cpd_inline_rows(const struct twz_container *c,
					const struct twz_content *v,
					const uint8_t *bytes, uint64_t base,
					uint64_t avail, uint32_t first,
					uint32_t last)
{
	struct records rs = records_of(v);
	struct twz_cells g = twz_cells_of(c, v->data[TWZ_SECTION_CELL_NODE]);
	const uint8_t *rec = v->data[rs.kind];
	const uint8_t *regions = v->data[TWZ_SECTION_REGIONS];
	uint64_t total = v->size[TWZ_SECTION_INLINE_ROWS] / 2;

	for (uint32_t n = first; n < last && n < c->node_count; n++) {
		uint64_t begin, end;
		uint32_t len = twz_region_size_of(regions, c->component_count, n);
		row_bounds(c, rec, rs.size, n, total, &begin, &end);
		/* The whole row in the bytes given: a reader finds it in
		 * one piece. Offsets were checked at open. */
		if (begin < base || end > base + avail ||
		    check_row(&g, rec + (size_t)n * rs.size, rs.sb, len,
			      bytes + 2 * (begin - base), end - begin,
			      twz_cpd_row_symbols(c)) != TWZ_OK)
			return TWZ_E_DAMAGED;
	}
	return TWZ_OK;
}
