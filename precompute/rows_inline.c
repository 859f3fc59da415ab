/*
 * rows_inline.c - format 1.4 rows: which of a row's buckets the node
 * record's summary answers alone, and the runs of the others. The row's
 * runs come from rows.c's encoder, so the moves are the ones every other
 * layout stores.
 */
#include "rows_inline.h"

#include "rows.h"
#include "twz_format.h"

/* Whether a run starts strictly inside bucket [base, base + size), from
 * run j + 1 on (run j covers base). */
static int escaped(const uint32_t *runs, uint32_t n, uint32_t lo,
		   uint32_t j, uint32_t base, uint32_t size)
{
	return j + 1 < n && twz_row_rel_start(runs[j + 1], lo) - base < size;
}

/* Nibble b of a summary (b below its bucket count). */
static unsigned nib(const uint64_t *sum, uint32_t b)
{
	return (unsigned)(sum[b / 16] >> (4 * (b % 16)) & 0xF);
}

int twz_row_inline(const uint32_t *runs, uint32_t n, uint32_t lo,
		   uint32_t len, unsigned sb, unsigned max_scan,
		   uint16_t *out, uint32_t *out_len, uint8_t *shift_out,
		   uint64_t summary[2])
{
	unsigned shift = 0;

	if (n == 0 || len == 0)
		return 1;
	/* The fewest targets a bucket that lets the summary's buckets
	 * cover the region, or the widest a run's 12-bit offset allows. */
	while (shift < TWZ_MAX_BUCKET_SHIFT &&
	       (((uint64_t)len - 1) >> shift) + 1 > sb)
		shift++;
	/* Narrower while a bucket's scan would be long; the bucket count
	 * must fit u16 whatever the scans. */
	while (shift > 0 && (((uint64_t)len - 1) >> (shift - 1)) < 65535u &&
	       twz_row_max_inside(runs, n, lo, shift) > max_scan)
		shift--;
	uint32_t buckets = ((len - 1) >> shift) + 1;
	if (buckets > 65535u)
		return 1;

	/* Pass 1: which buckets go into the row. */
	uint64_t sum[2] = { 0, 0 };
	uint32_t e = 0, j = 0, stored = 0;
	for (uint32_t b = 0; b < buckets; b++) {
		uint32_t base = b << shift;
		uint32_t size = len - base < (1u << shift) ? len - base : 1u << shift;
		while (j + 1 < n && twz_row_rel_start(runs[j + 1], lo) <= base)
			j++;
		if (b < sb && !escaped(runs, n, lo, j, base, size)) {
			sum[b / 16] |= (uint64_t)(runs[j] & TWZ_RUN_SYMBOL_MASK) <<
				       (4 * (b % 16));
			continue;
		}
		if (b < sb)
			sum[b / 16] |= (uint64_t)TWZ_INLINE_ESCAPE << (4 * (b % 16));
		e++;
	}
	/* Pass 2: each bucket in the row, the runs starting inside it,
	 * after its covering run at offset 0 unless the reader finds that
	 * symbol where the format says (FORMAT.md 5i): the summarised
	 * bucket before it, else the run stored before it. */
	uint16_t *first = out, *run = out + (e ? e - 1 : 0);
	uint32_t k = 0;
	j = 0;
	for (uint32_t b = 0; b < buckets; b++) {
		uint32_t base = b << shift;
		uint32_t size = len - base < (1u << shift) ? len - base : 1u << shift;
		while (j + 1 < n && twz_row_rel_start(runs[j + 1], lo) <= base)
			j++;
		if (b < sb && nib(sum, b) != TWZ_INLINE_ESCAPE)
			continue;
		if (k > 0) {
			if (stored > 65535u)
				return 1;
			first[k - 1] = (uint16_t)stored;
		}
		k++;
		unsigned cover = runs[j] & TWZ_RUN_SYMBOL_MASK;
		int implied = b >= 1 && b - 1 < sb &&
			      nib(sum, b - 1) != TWZ_INLINE_ESCAPE
			? nib(sum, b - 1) == cover
			: stored > 0 && (run[stored - 1] & TWZ_RUN_SYMBOL_MASK) == cover;
		if (!implied)
			run[stored++] = (uint16_t)cover;
		for (uint32_t i = j + 1;
		     i < n && twz_row_rel_start(runs[i], lo) - base < size; i++)
			run[stored++] = (uint16_t)((twz_row_rel_start(runs[i], lo) - base)
						   << TWZ_RUN_SYMBOL_BITS |
						   (runs[i] & TWZ_RUN_SYMBOL_MASK));
	}
	*out_len = (e ? e - 1 : 0) + stored;
	*shift_out = (uint8_t)shift;
	summary[0] = sum[0];
	summary[1] = sum[1];
	return 0;
}
