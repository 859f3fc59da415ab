/*
 * twz_cpd_inline.c - 1.4's inline-summarised CPD rows off the query
 * path: a row back to the plain runs it was made from, for the tool's
 * views (twz_inspect.c) and the run count open reports.
 */
#include "twz_cpd_inline.h"

/* Append symbol sym from absolute start, joining it to the run before
 * when that holds the same symbol. */
static void put_run(uint8_t *dst, uint32_t *count, unsigned *last,
		    uint32_t start, unsigned sym)
{
	if (*count && *last == sym)
		return;
	if (dst)
		twz_put32(dst + 4 * (size_t)*count,
			  start << TWZ_RUN_SYMBOL_BITS | sym);
	*last = sym;
	(*count)++;
}

uint32_t twz__inline_unpack_row(const twz_db *db, uint32_t n, uint8_t *dst)
{
	const uint8_t *rec = twz__record(db, n);
	uint32_t word = twz_le32(rec + TWZ_IR_ROW);
	uint64_t sum = twz_le64(rec + TWZ_IR_SUMMARY);
	unsigned shift = word >> TWZ_ROW_OFFSET_BITS;
	uint32_t lo, len;

	twz__region_range(db, n, &lo, &len);
	uint32_t buckets = ((len - 1) >> shift) + 1;
	uint32_t e = twz__inline_stored(sum, buckets);
	const uint8_t *row = db->rows + 2 * (size_t)(word & TWZ_ROW_OFFSET_MASK);
	const uint8_t *runs = row + 2 * (size_t)(e ? e - 1 : 0);
	uint32_t total = e ? (uint32_t)((twz__inline_row_end(db, n) - runs) / 2) : 0;
	uint32_t count = 0, j = 0, at = 0;
	unsigned last = 0;

	for (uint32_t b = 0; b < buckets; b++) {
		uint32_t base = lo + (b << shift);
		unsigned nib = b < TWZ_INLINE_BUCKETS ? (unsigned)(sum >> (4 * b) & 0xF)
						      : TWZ_INLINE_ESCAPE;
		if (nib != TWZ_INLINE_ESCAPE) {
			put_run(dst, &count, &last, base, nib);
			continue;
		}
		uint32_t next = j + 1 < e ? twz_le16(row + 2 * (size_t)j) : total;
		/* The symbol before the bucket's first stored run. */
		if (at == next || twz_le16(runs + 2 * (size_t)at) >> TWZ_RUN_SYMBOL_BITS)
			put_run(dst, &count, &last, base,
				b >= 1 && b - 1 < TWZ_INLINE_BUCKETS &&
				(sum >> (4 * (b - 1)) & 0xF) != TWZ_INLINE_ESCAPE
				? (unsigned)(sum >> (4 * (b - 1)) & 0xF)
				: twz_le16(runs + 2 * ((size_t)at - 1)) & TWZ_RUN_SYMBOL_MASK);
		for (; at < next; at++) {
			uint32_t w = twz_le16(runs + 2 * (size_t)at);
			put_run(dst, &count, &last, base + (w >> TWZ_RUN_SYMBOL_BITS),
				w & TWZ_RUN_SYMBOL_MASK);
		}
		j++;
	}
	return count;
}

uint64_t twz__inline_run_count(const twz_db *db)
{
	uint64_t runs = 0;

	for (uint32_t n = 0; n < db->c.node_count; n++)
		runs += twz__inline_unpack_row(db, n, NULL);
	return runs;
}
