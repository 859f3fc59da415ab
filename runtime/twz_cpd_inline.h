/*
 * twz_cpd_inline.h - lookups in 1.4's inline-summarised CPD rows
 * (TWZ_FEATURE_CPD_INLINE, FORMAT.md 5i), private to the runtime. A
 * node's 16-byte record holds its cell, its row's place and a nibble
 * for each of the row's first 16 buckets: most first moves are that
 * nibble, read from the record's cache line, and the others one bucket's
 * runs away. Inline, so the CPD back end's step compiles it in; every
 * offset was validated at open (twz_validate_cpd_inline.c).
 */
#ifndef TWZ_CPD_INLINE_H
#define TWZ_CPD_INLINE_H

#include "twz_db.h"

/* Nibble i of an escape mask: 1 when nibble i of sum is an escape. */
static inline uint64_t twz__inline_escapes(uint64_t sum)
{
	return sum & sum >> 1 & sum >> 2 & sum >> 3 & 0x1111111111111111ull;
}

/* Buckets of a record's row that are in INLINE_ROWS. */
static inline uint32_t twz__inline_stored(uint64_t sum, uint32_t buckets)
{
	return (uint32_t)__builtin_popcountll(twz__inline_escapes(sum)) +
	       (buckets > TWZ_INLINE_BUCKETS ? buckets - TWZ_INLINE_BUCKETS : 0);
}

/* Where node n's row ends in INLINE_ROWS: the next record's start. */
static inline const uint8_t *twz__inline_row_end(const twz_db *db, uint32_t n)
{
	if (n + 1 >= db->c.node_count)
		return db->rows_end;
	uint32_t next = twz_le32(twz__record(db, n + 1) + TWZ_IR_ROW);
	return db->rows + 2 * (size_t)(next & TWZ_ROW_OFFSET_MASK);
}

/* Runs of m (a bucket's runs) whose offset is at most inside: they
 * rise, so a prefix. Branch-free bisection with a virtual run -1 that
 * always qualifies; m <= 4096 (check I6). */
static inline uint32_t twz__inline_started(const uint8_t *runs, uint32_t m,
					   uint32_t inside)
{
	uint32_t base = 0, n = m + 1;

	while (n > 1) {
		uint32_t half = n >> 1;
		uint32_t off = twz_le16(runs + 2 * (size_t)(base + half - 1)) >>
			       TWZ_RUN_SYMBOL_BITS;
		base = off <= inside ? base + half : base;
		n -= half;
	}
	return base;
}

/* The symbol for target rel (t - lo) of a bucket b in the row. */
static inline unsigned twz__inline_stored_symbol(const twz_db *db,
						 uint32_t n, uint32_t word,
						 uint64_t sum, uint32_t len,
						 uint32_t rel, uint32_t b)
{
	unsigned shift = word >> TWZ_ROW_OFFSET_BITS;
	uint32_t buckets = ((len - 1) >> shift) + 1;
	uint64_t esc = twz__inline_escapes(sum);
	uint32_t e = twz__inline_stored(sum, buckets);
	uint32_t j = b < TWZ_INLINE_BUCKETS
		? (uint32_t)__builtin_popcountll(esc & ((1ull << (4 * b)) - 1))
		: (uint32_t)__builtin_popcountll(esc) + b - TWZ_INLINE_BUCKETS;
	const uint8_t *row = db->rows + 2 * (size_t)(word & TWZ_ROW_OFFSET_MASK);
	const uint8_t *runs = row + 2 * (size_t)(e - 1);
	uint32_t count = (uint32_t)((twz__inline_row_end(db, n) - runs) / 2);
	uint32_t first = j ? twz_le16(row + 2 * (size_t)(j - 1)) : 0;
	uint32_t last = j + 1 < e ? twz_le16(row + 2 * (size_t)j) : count;
	uint32_t inside = rel & ((1u << shift) - 1);
	uint32_t k = twz__inline_started(runs + 2 * (size_t)first, last - first,
					 inside);

	/* Before the bucket's first stored run: the summarised bucket
	 * before it, else the run stored before it (check I6). */
	if (k == 0 && b >= 1 && b - 1 < TWZ_INLINE_BUCKETS) {
		unsigned prev = (unsigned)(sum >> (4 * (b - 1)) & 0xF);
		if (prev != TWZ_INLINE_ESCAPE)
			return prev;
	}
	return twz_le16(runs + 2 * ((size_t)first + k - 1)) & TWZ_RUN_SYMBOL_MASK;
}

/* The symbol of node n's row for target t of its region [lo, lo + len),
 * t != n. One record read when t's bucket is summarised. */
static inline unsigned twz__inline_symbol(const twz_db *db, uint32_t n,
					  uint32_t lo, uint32_t len,
					  uint32_t t)
{
	const uint8_t *rec = twz__record(db, n);
	uint32_t word = twz_le32(rec + TWZ_IR_ROW);
	uint64_t sum = twz_le64(rec + TWZ_IR_SUMMARY);
	uint32_t rel = t - lo;
	uint32_t b = rel >> (word >> TWZ_ROW_OFFSET_BITS);
	unsigned nib = b < TWZ_INLINE_BUCKETS ? (unsigned)(sum >> (4 * b) & 0xF)
					      : TWZ_INLINE_ESCAPE;

	if (__builtin_expect(nib != TWZ_INLINE_ESCAPE, 1))
		return nib;
	return twz__inline_stored_symbol(db, n, word, sum, len, rel, b);
}

/* Off the query path (twz_cpd_inline.c): node n's row as plain runs
 * (absolute starts, start << 4 | symbol, neighbours of one symbol
 * joined), into dst when not NULL; returns how many. */
uint32_t twz__inline_unpack_row(const twz_db *db, uint32_t n, uint8_t *dst);

/* Runs in the whole file, as the plain layout would hold them. */
uint64_t twz__inline_run_count(const twz_db *db);

#endif /* TWZ_CPD_INLINE_H */
