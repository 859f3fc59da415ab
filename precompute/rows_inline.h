/*
 * rows_inline.h - format 1.4 inline-summarised rows (FORMAT.md 5i): a
 * row's buckets that one symbol covers go into the node's record as a
 * nibble each, and only the others' runs into INLINE_ROWS.
 */
#ifndef ROWS_INLINE_H
#define ROWS_INLINE_H

#include <stdint.h>

/* Upper bound of twz_row_inline's output for a row, in u16: each bucket
 * in the row adds a covering run and an index entry at most. */
static inline uint64_t twz_row_inline_max(uint32_t run_count, uint32_t len)
{
	uint64_t b = len > 65535u ? 65535u : len;
	return run_count + 2 * b + 1;
}

/*
 * The inline-summarised row of one source from its runs (starts
 * absolute; the region's first node is lo, its size len), for a
 * summary of sb buckets (16, or 32 in wide records). Chooses the
 * smallest bucket shift whose sb buckets cover the region, smaller
 * while some bucket has more than max_scan runs starting inside it.
 * Writes the row to out (twz_row_inline_max u16 at most), its length to
 * *out_len, the shift and the record's summary (nibble b in word b / 16;
 * word 1 is 0 when sb is 16). Returns 0, or 1 when the row cannot be
 * written so (its runs or buckets outgrow u16 indices).
 */
int twz_row_inline(const uint32_t *runs, uint32_t run_count, uint32_t lo,
		   uint32_t len, unsigned sb, unsigned max_scan,
		   uint16_t *out, uint32_t *out_len, uint8_t *shift,
		   uint64_t summary[2]);

#endif
