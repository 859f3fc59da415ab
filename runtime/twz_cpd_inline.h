/*
 * twz_cpd_inline.h - lookups in 1.4's inline-summarised CPD rows
 * (TWZ_FEATURE_CPD_INLINE, FORMAT.md 5i), private to the runtime. A
 * node's record holds its cell, its row's place and a nibble for each of
 * the row's first 16 buckets (32 in a wide record, the layout the bake
 * writes): most first moves are that
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

/* Bits set in a mask whose bits are all at nibble bottoms (4i): adds
 * nibble pairs into bytes, then bytes, since a build for the baseline
 * instruction set makes __builtin_popcountll a library call. */
static inline uint32_t twz__nibble_count(uint64_t m)
{
	m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0Full;
	return (uint32_t)((m * 0x0101010101010101ull) >> 56);
}

/* A record's summary, word 1 zero in a 16-bucket record. */
static inline void twz__inline_summary(const twz_db *db, const uint8_t *rec,
				       uint64_t w[2])
{
	w[0] = twz_le64(rec + TWZ_IR_SUMMARY);
	w[1] = db->inline_buckets > TWZ_INLINE_BUCKETS
		? twz_le64(rec + TWZ_IR_SUMMARY + 8) : 0;
}

/* Summary nibble b of a record, or an escape from the summary's last
 * bucket on. Without branches: in a 16-bucket record the read stays in
 * word 0. */
static inline unsigned twz__inline_nibble(const twz_db *db,
					  const uint8_t *rec, uint32_t b)
{
	size_t word = (b >> 4) & (db->inline_buckets >> 5);
	uint64_t w = twz_le64(rec + TWZ_IR_SUMMARY + 8 * word);
	unsigned nib = (unsigned)(w >> (4 * (b & 15)) & 0xF);

	return b < db->inline_buckets ? nib : TWZ_INLINE_ESCAPE;
}

/* Buckets of a record's row that are in INLINE_ROWS: the summary's
 * escapes, and every bucket past the summary's sb. */
static inline uint32_t twz__inline_stored(const uint64_t w[2],
					  uint32_t buckets, unsigned sb)
{
	return twz__nibble_count(twz__inline_escapes(w[0])) +
	       twz__nibble_count(twz__inline_escapes(w[1])) +
	       (buckets > sb ? buckets - sb : 0);
}

/* Where node n's row ends in INLINE_ROWS: the next record's start. */
static inline const uint8_t *twz__inline_row_end(const twz_db *db, uint32_t n)
{
	if (n + 1 >= db->c.node_count)
		return db->rows_end;
	uint32_t next = twz_le32(twz__record(db, n + 1) + TWZ_IR_ROW);
	return db->rows + 2 * (size_t)(next & TWZ_ROW_OFFSET_MASK);
}

/* The symbol of a bucket in node n's row (twz_cpd_inline.c) for
 * target t of its region [lo, lo + len): off the record's cache line,
 * and kept out of line so the summary's path stays short. */
unsigned twz__inline_escaped(const twz_db *db, uint32_t n, uint32_t lo,
			     uint32_t len, uint32_t t);

/* The symbol of node n's row for target t of its region [lo, lo + len),
 * t != n. One record read when t's bucket is summarised. */
static inline unsigned twz__inline_symbol(const twz_db *db, uint32_t n,
					  uint32_t lo, uint32_t len,
					  uint32_t t)
{
	const uint8_t *rec = twz__record(db, n);
	uint32_t word = twz_le32(rec + TWZ_IR_ROW);
	uint32_t b = (t - lo) >> (word >> TWZ_ROW_OFFSET_BITS);
	unsigned nib = twz__inline_nibble(db, rec, b);

	if (__builtin_expect(nib != TWZ_INLINE_ESCAPE, 1))
		return nib;
	return twz__inline_escaped(db, n, lo, len, t);
}

/* The move symbol sym stands for at node n in cell (x, y) toward the
 * cell (tx, ty), or TWZ_SYMBOL_NONE when the file is damaged (every
 * bucketed CPD layout's steps decode symbols here).
 * Plain moves were checked legal at open; a direction is decoded from
 * the signs of the offsets (NEAREST snapping to the major axis under
 * tan 22.5 deg, as twz_direction_move) and checked against the node's
 * legal moves. Which kind a run holds is a coin toss along a path, so
 * both are worked out without branches. */
static inline unsigned twz__inline_move(const twz_db *db, unsigned sym,
					uint32_t n, uint32_t x, uint32_t y,
					uint32_t tx, uint32_t ty)
{
	/* twz_direction_move's [sign dx + 1][sign dy + 1], flattened. */
	static const uint8_t by_sign[16] = { 7, 3, 6, 0, TWZ_SYMBOL_NONE, 2,
					     4, 1, 5 };

	if (!db->direction)
		return sym < TWZ_MOVE_COUNT ? sym : TWZ_SYMBOL_NONE;
	int32_t dx = (int32_t)tx - (int32_t)x, dy = (int32_t)ty - (int32_t)y;
	uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx);
	uint32_t ay = (uint32_t)(dy < 0 ? -dy : dy);
	/* Masks, not conditions: a compiler turns conditions on the
	 * symbol's kind into branches the predictor cannot learn. Cells
	 * are below 2^14 apart, so the products fit 32 bits. */
	uint32_t near = 0u - (uint32_t)(sym == TWZ_SYMBOL_NEAREST);
	uint32_t keep_y = ~(near & (0u - (uint32_t)(ay * 1000 < ax * 414)));
	uint32_t keep_x = ~(near & (0u - (uint32_t)(ax * 1000 < ay * 414)));
	uint32_t sx = (uint32_t)((dx > 0) - (dx < 0)) & keep_x;
	uint32_t sy = (uint32_t)((dy > 0) - (dy < 0)) & keep_y;
	uint32_t plain = 0u - (uint32_t)(sym < TWZ_MOVE_COUNT);
	uint32_t m = (sym & plain) | (by_sign[(3 * sx + sy + 4) & 0xF] & ~plain);
	/* Symbols past NEAREST were refused at open, and "no move" (8)
	 * sits only in one-node regions, where no step is taken. */
	uint32_t ok = (uint32_t)(db->node_moves[n] >> (m & 7)) & 1 &
		      (uint32_t)(m < TWZ_MOVE_COUNT);
	return ok ? m : TWZ_SYMBOL_NONE;
}

/* The next node from s toward t (s != t), or TWZ_NONE when t is in
 * another region or the file is damaged: the first move of a 1.4 file
 * in one pass, from s's record (its cell, its row's place and summary),
 * s's region and t's cell, all independent reads, then the cell map.
 * Arguments were checked by the caller. */
static inline twz_node twz__inline_next(const twz_db *db, uint32_t s,
					uint32_t t)
{
	const uint8_t *rec = twz__record(db, s), *rt = twz__record(db, t);
	uint32_t lo = 0, len = db->c.node_count;

	if (db->c.component_count != 1) {
		twz__region_range(db, s, &lo, &len);
		if (t - lo >= len)
			return TWZ_NONE;
	}
	uint32_t word = twz_le32(rec + TWZ_IR_ROW);
	uint32_t b = (t - lo) >> (word >> TWZ_ROW_OFFSET_BITS);
	unsigned sym = twz__inline_nibble(db, rec, b);
	if (__builtin_expect(sym == TWZ_INLINE_ESCAPE, 0))
		sym = twz__inline_escaped(db, s, lo, len, t);
	uint32_t x = twz_le16(rec + TWZ_IR_X), y = twz_le16(rec + TWZ_IR_Y);
	unsigned m = twz__inline_move(db, sym, s, x, y,
				      twz_le16(rt + TWZ_IR_X),
				      twz_le16(rt + TWZ_IR_Y));
	if (m >= TWZ_MOVE_COUNT)
		return TWZ_NONE;
	return twz__cell_node(db, (size_t)y * db->c.width + x +
				  (size_t)(int64_t)db->move_offset[m]);
}

/* Off the query path (twz_cpd_inline.c): node n's row as plain runs
 * (absolute starts, start << 4 | symbol, neighbours of one symbol
 * joined), into dst when not NULL; returns how many. */
uint32_t twz__inline_unpack_row(const twz_db *db, uint32_t n, uint8_t *dst);

/* Runs in the whole file, as the plain layout would hold them. */
uint64_t twz__inline_run_count(const twz_db *db);

#endif /* TWZ_CPD_INLINE_H */
