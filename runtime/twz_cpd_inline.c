/*
 * twz_cpd_inline.c - 1.4's inline-summarised CPD rows off the query
 * path: a row back to the plain runs it was made from, for the tool's
 * views (twz_inspect.c) and the run count open reports; and the lookup
 * of a bucket in the row, which the record's summary does not answer.
 */
#include "twz_cpd_inline.h"
#include "twz_chunks.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/* How many of a bucket's m runs (m <= 4096, check I6) start at or
 * before offset inside: their offsets rise, so a prefix. Eight runs a
 * compare where the vector read stays inside the rows; then a
 * branch-free bisection, with a virtual run -1 that always qualifies.
 * Neither branches on the data, which a predictor cannot learn. */
static uint32_t started(const uint8_t *runs, uint32_t m, uint32_t inside,
			const uint8_t *end)
{
	uint32_t done = 0;
#if defined(__SSE2__)
	/* Offsets are below 2^12, so the signed compares see them as
	 * they are. */
	const __m128i limit = _mm_set1_epi16((short)inside);

	while (done < m && runs + 16 <= end) {
		__m128i w = _mm_loadu_si128((const __m128i *)(const void *)runs);
		__m128i past = _mm_cmpgt_epi16(_mm_srli_epi16(w, TWZ_RUN_SYMBOL_BITS),
					       limit);
		uint32_t bad = (uint32_t)_mm_movemask_epi8(past);
		if (m - done < 8)
			bad |= 0xFFFFu << (2 * (m - done));
		if (bad)
			return done + (uint32_t)__builtin_ctz(bad) / 2;
		done += 8;
		runs += 16;
	}
	if (done >= m)
		return m;
#else
	(void)end;
#endif
	uint32_t base = 0, n = m - done + 1;

	while (n > 1) {
		uint32_t half = n >> 1;
		uint32_t off = twz_le16(runs + 2 * (size_t)(base + half - 1)) >>
			       TWZ_RUN_SYMBOL_BITS;
		base = off <= inside ? base + half : base;
		n -= half;
	}
	return done + base;
}

/* Node n's stored row: its first u16 (NULL when its chunk is damaged),
 * where it ends, and how far a vector read may go (the section's end,
 * or its chunk's when INLINE_ROWS is read on use; then pinned in pin). */
static const uint8_t *stored_row(const twz_db *db, uint32_t n,
				 const uint8_t **row_end, const uint8_t **limit,
				 struct twz_chunk_pin *pin)
{
	uint64_t off = 2 * (uint64_t)(twz_le32(twz__record(db, n) + TWZ_IR_ROW) &
				      TWZ_ROW_OFFSET_MASK);
	const uint8_t *row;

	pin->slot = NULL;
	if (!db->rows_lazy) {
		*row_end = twz__inline_row_end(db, n);
		*limit = db->rows_end;
		return db->rows + off;
	}
	row = twz__chunk_get(db, db->rows_lazy, off, limit, pin);
	if (!row)
		return NULL;
	/* Rows never straddle chunks (checked as each is inflated). */
	uint64_t next = n + 1 < db->c.node_count
		? 2 * (uint64_t)(twz_le32(twz__record(db, n + 1) + TWZ_IR_ROW) &
				 TWZ_ROW_OFFSET_MASK)
		: db->content.size[TWZ_SECTION_INLINE_ROWS];
	*row_end = row + (next - off);
	return row;
}

unsigned twz__inline_escaped(const twz_db *db, uint32_t n, uint32_t lo,
			     uint32_t len, uint32_t t)
{
	const uint8_t *rec = twz__record(db, n);
	uint32_t word = twz_le32(rec + TWZ_IR_ROW);
	unsigned shift = word >> TWZ_ROW_OFFSET_BITS, sb = db->inline_buckets;
	uint32_t rel = t - lo, b = rel >> shift;
	uint32_t buckets = ((len - 1) >> shift) + 1;
	uint64_t w[2];

	twz__inline_summary(db, rec, w);
	uint64_t esc0 = twz__inline_escapes(w[0]), esc1 = twz__inline_escapes(w[1]);
	uint32_t e = twz__inline_stored(w, buckets, sb);
	/* Bucket b's number among the row's: the escapes before it. */
	uint64_t below = (1ull << (4 * (b & 15))) - 1;
	uint32_t j = b >= sb ? e - (buckets - b)
		   : b < 16 ? twz__nibble_count(esc0 & below)
		   : twz__nibble_count(esc0) + twz__nibble_count(esc1 & below);
	struct twz_chunk_pin pin;
	const uint8_t *row_end, *limit;
	const uint8_t *row = stored_row(db, n, &row_end, &limit, &pin);
	if (!row)
		return TWZ_SYMBOL_NONE;
	const uint8_t *runs = row + 2 * (size_t)(e - 1);
	uint32_t first = j ? twz_le16(row + 2 * (size_t)(j - 1)) : 0;
	uint32_t last = j + 1 < e
		? twz_le16(row + 2 * (size_t)j)
		: (uint32_t)((row_end - runs) / 2);
	uint32_t k = started(runs + 2 * (size_t)first, last - first,
			     rel & ((1u << shift) - 1), limit);

/* Before the bucket's first stored run: its entry symbol, the
	 * summarised bucket before it, else the run stored before it
	 * (check I6 makes sure there is one). Chosen without branches;
	 * the read of a run that is not needed goes to the record. */
	unsigned prev = b >= 1 ? twz__inline_nibble(db, rec, b - 1)
			       : TWZ_INLINE_ESCAPE;
	int from_prev = k == 0 && prev != TWZ_INLINE_ESCAPE;
	/* first + k - 1 is -1 only when from_prev: no pointer before the
	 * row is formed then. */
	const uint8_t *at = runs + 2 * ((size_t)first + k - !from_prev);
	at = from_prev ? rec : at;
	unsigned sym = twz_le16(at) & TWZ_RUN_SYMBOL_MASK;
	twz__chunk_unpin(&pin);
	return from_prev ? prev : sym;
}

uint32_t twz__inline_unpack_row(const twz_db *db, uint32_t n, uint8_t *dst)
{
	const uint8_t *rec = twz__record(db, n);
	uint32_t word = twz_le32(rec + TWZ_IR_ROW);
	unsigned shift = word >> TWZ_ROW_OFFSET_BITS;
	uint32_t lo, len;
	uint64_t w[2];

	twz__region_range(db, n, &lo, &len);
	twz__inline_summary(db, rec, w);
	uint32_t buckets = ((len - 1) >> shift) + 1;
	uint32_t e = twz__inline_stored(w, buckets, db->inline_buckets);
	struct twz_chunk_pin pin;
	const uint8_t *row_end, *limit;
	const uint8_t *row = e ? stored_row(db, n, &row_end, &limit, &pin) : NULL;
	if (e && !row)
		return 0;
	const uint8_t *runs = e ? row + 2 * (size_t)(e - 1) : NULL;
	uint32_t total = e ? (uint32_t)((row_end - runs) / 2) : 0;
	uint32_t count = 0, j = 0, at = 0;
	unsigned last = 0;

	for (uint32_t b = 0; b < buckets; b++) {
		uint32_t base = lo + (b << shift);
		unsigned nib = twz__inline_nibble(db, rec, b);
		if (nib != TWZ_INLINE_ESCAPE) {
			put_run(dst, &count, &last, base, nib);
			continue;
		}
		uint32_t next = j + 1 < e ? twz_le16(row + 2 * (size_t)j) : total;
		unsigned prev = b >= 1 ? twz__inline_nibble(db, rec, b - 1)
				       : TWZ_INLINE_ESCAPE;
		/* The symbol before the bucket's first stored run. */
		if (at == next || twz_le16(runs + 2 * (size_t)at) >> TWZ_RUN_SYMBOL_BITS)
			put_run(dst, &count, &last, base,
				prev != TWZ_INLINE_ESCAPE ? prev
				: twz_le16(runs + 2 * ((size_t)at - 1)) & TWZ_RUN_SYMBOL_MASK);
		for (; at < next; at++) {
			uint32_t w16 = twz_le16(runs + 2 * (size_t)at);
			put_run(dst, &count, &last, base + (w16 >> TWZ_RUN_SYMBOL_BITS),
				w16 & TWZ_RUN_SYMBOL_MASK);
		}
		j++;
	}
	if (e)
		twz__chunk_unpin(&pin);
	return count;
}

uint64_t twz__inline_run_count(const twz_db *db)
{
	uint64_t runs = 0;

	/* Read on use: the runs stored and the buckets the records
	 * summarise, without inflating every chunk at open. */
	if (db->rows_lazy) {
		for (uint32_t n = 0; n < db->c.node_count; n++) {
			uint32_t lo, len;
			uint64_t w[2];
			const uint8_t *rec = twz__record(db, n);
			unsigned shift = twz_le32(rec + TWZ_IR_ROW) >> TWZ_ROW_OFFSET_BITS;
			twz__region_range(db, n, &lo, &len);
			twz__inline_summary(db, rec, w);
			uint32_t buckets = ((len - 1) >> shift) + 1;
			uint32_t e = twz__inline_stored(w, buckets, db->inline_buckets);
			runs += (buckets - e) - (e ? e - 1 : 0);
		}
		return runs + db->content.size[TWZ_SECTION_INLINE_ROWS] / 2;
	}
	for (uint32_t n = 0; n < db->c.node_count; n++)
		runs += twz__inline_unpack_row(db, n, NULL);
	return runs;
}
