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

/*
 * Moves and their steps as nibbles and bit pairs of constants, so that a
 * query works them out in registers: a cold query would otherwise wait
 * for the table's cache line (and page) before its next read.
 * TWZ__BY_SIGN: twz_direction_move's [sign dx + 1][sign dy + 1], nibble
 * 3 (sign dx + 1) + sign dy + 1 (TWZ_SYMBOL_NONE at (0, 0)).
 * TWZ__STEP_X, TWZ__STEP_Y: twz_move_dx[m] + 1 and twz_move_dy[m] + 1,
 * two bits a move.
 */
#define TWZ__BY_SIGN 0x514280637ull
#define TWZ__STEP_X 0x0A19u
#define TWZ__STEP_Y 0x2864u

static inline int32_t twz__step_x(unsigned m)
{
	return (int32_t)(TWZ__STEP_X >> (2 * m) & 3) - 1;
}

static inline int32_t twz__step_y(unsigned m)
{
	return (int32_t)(TWZ__STEP_Y >> (2 * m) & 3) - 1;
}

/* The move symbol sym stands for toward a target at offset (dx, dy)
 * (FORMAT.md 5a), or a move of 8 or more when it stands for none; the
 * node's legal moves are not consulted. TOWARD is the move of the
 * signs; NEAREST the same, or the straight move along x (along y) when
 * 1000 |dy| < 414 |dx| (1000 |dx| < 414 |dy|). Which kind a run holds is
 * a coin toss along a path, so both are worked out and one selected, not
 * branched on. Cells are below 2^14 apart, so the products fit 32 bits. */
static inline unsigned twz__symbol_move(unsigned sym, int32_t dx, int32_t dy)
{
	uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx);
	uint32_t ay = (uint32_t)(dy < 0 ? -dy : dy);
	unsigned sx = (unsigned)((dx > 0) - (dx < 0) + 1);
	unsigned sy = (unsigned)((dy > 0) - (dy < 0) + 1);
	unsigned toward_at = 3 * sx + sy;
	/* Masks, not conditions, which a compiler may make branches; the
	 * two cannot hold together. */
	unsigned along_x = 0u - (unsigned)(ay * 1000 < ax * 414);
	unsigned along_y = 0u - (unsigned)(ax * 1000 < ay * 414);
	unsigned nearest_at = (toward_at & ~(along_x | along_y)) |
			      ((3 * sx + 1) & along_x) | ((3 + sy) & along_y);
	unsigned toward = (unsigned)(TWZ__BY_SIGN >> (4 * toward_at) & 0xF);
	unsigned nearest = (unsigned)(TWZ__BY_SIGN >> (4 * nearest_at) & 0xF);
	unsigned dir = sym == TWZ_SYMBOL_NEAREST ? nearest : toward;

	return sym < TWZ_MOVE_COUNT ? sym : dir;
}

/* The symbol of a wide record's summary for target t of its region,
 * t - lo == rel, or TWZ_INLINE_ESCAPE when the row holds t's bucket:
 * both summary words are read, so the nibble's read does not wait for
 * the bucket's number. */
static inline unsigned twz__wide_nibble(const uint8_t *rec, uint32_t rel)
{
	uint32_t b = rel >> (twz_le32(rec + TWZ_IR_ROW) >> TWZ_ROW_OFFSET_BITS);
	uint64_t w0 = twz_le64(rec + TWZ_IR_SUMMARY);
	uint64_t w1 = twz_le64(rec + TWZ_IR_SUMMARY + 8);
	uint64_t w = b & 16 ? w1 : w0;
	unsigned nib = (unsigned)(w >> (4 * (b & 15)) & 0xF);

	return b < TWZ_INLINE_WIDE_BUCKETS ? nib : TWZ_INLINE_ESCAPE;
}

/* Node n's wide record. */
static inline const uint8_t *twz__wide_record(const struct twz_cpd_hot *h,
					      uint32_t n)
{
	return h->records + (size_t)n * TWZ_INLINE_WIDE_RECORD_SIZE;
}

/*
 * The node moved onto from cell (x, y) of a width x height grid by move
 * m, or TWZ_NONE when m is no move, leaves the grid, lands on no node
 * or cuts a corner: the move's cell and the two cells beside the
 * diagonal (for a straight move they are the two ends) must all hold
 * nodes. Plain moves were checked legal at open, but a direction
 * symbol's move depends on the target, so every step checks it here,
 * on the cell map's lines that the step reads anyway, without branches.
 */
static inline twz_node twz__grid_step(const uint8_t *cell_node, int narrow,
				      uint32_t width, uint32_t height,
				      uint32_t x, uint32_t y, unsigned m)
{
	if (m >= TWZ_MOVE_COUNT)
		return TWZ_NONE;
	uint32_t nx = x + (uint32_t)twz__step_x(m);
	uint32_t ny = y + (uint32_t)twz__step_y(m);
	if (nx >= width || ny >= height)
		return TWZ_NONE;
	size_t row = (size_t)y * width, next_row = (size_t)ny * width;
	twz_node to = twz_cell_node_at(cell_node, narrow, next_row + nx);
	twz_node side_x = twz_cell_node_at(cell_node, narrow, row + nx);
	twz_node side_y = twz_cell_node_at(cell_node, narrow, next_row + x);
	return (side_x == TWZ_NONE) | (side_y == TWZ_NONE) ? TWZ_NONE : to;
}

/* The next node from s toward t (s != t) in a grid with wide records
 * (db->hot.wide_grid), or TWZ_NONE when t is in another region or the
 * file is damaged: s's record (its cell, its row's place and summary)
 * and t's cell are independent reads, then the cell map.
 * Only the handle's first cache line is read, and nothing of it but the
 * region when the level has more than one. Arguments were checked by the
 * caller. */
static inline twz_node twz__hot_next(const twz_db *db, uint32_t s, uint32_t t)
{
	const struct twz_cpd_hot *h = &db->hot;
	const uint8_t *rec = twz__wide_record(h, s), *rt = twz__wide_record(h, t);
	uint32_t lo = 0, len = h->node_count;

	if (h->component_count != 1) {
		twz__region_range(db, s, &lo, &len);
		if (t - lo >= len)
			return TWZ_NONE;
	}
	unsigned sym = twz__wide_nibble(rec, t - lo);
	if (__builtin_expect(sym == TWZ_INLINE_ESCAPE, 0))
		sym = twz__inline_escaped(db, s, lo, len, t);
	uint32_t x = twz_le16(rec + TWZ_IR_X), y = twz_le16(rec + TWZ_IR_Y);
	int32_t dx = (int32_t)twz_le16(rt + TWZ_IR_X) - (int32_t)x;
	int32_t dy = (int32_t)twz_le16(rt + TWZ_IR_Y) - (int32_t)y;
	return twz__grid_step(h->cell_node, h->narrow, h->width, h->height, x,
			      y, twz__symbol_move(sym, dx, dy));
}

/* Off the query path (twz_cpd_inline.c): node n's row as plain runs
 * (absolute starts, start << 4 | symbol, neighbours of one symbol
 * joined), into dst when not NULL; returns how many. */
uint32_t twz__inline_unpack_row(const twz_db *db, uint32_t n, uint8_t *dst);

/* Runs in the whole file, as the plain layout would hold them. */
uint64_t twz__inline_run_count(const twz_db *db);

#endif /* TWZ_CPD_INLINE_H */
