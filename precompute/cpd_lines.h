/*
 * cpd_lines.h - the CPD's rows without a search from every source
 * (`twigz build --apsp lines`): the same first-move sets, so the same
 * rows and the same file as one search per source, for a fraction of
 * the work on large levels.
 *
 * The level is cut by lines of cells, every `spacing` columns and rows,
 * into boxes. A path from a cell strictly inside a box to any cell
 * outside it steps on the box's ring (the line cells around it): a move
 * changes each coordinate by at most one, so no move jumps a line.
 *
 * - A line cell's row comes from its own search, as in the plain bake;
 *   the search also gives its distance to every node, D(x, .).
 * - A cell v inside a box: the ring's searches give D(x, t) for every
 *   ring cell x, and a search inside the box gives d_I(v, x), the
 *   distance by paths whose other cells are all inside. A shortest path
 *   from v to a cell t outside the box meets the ring first at some x,
 *   by such a path, so d(v, t) = min over the ring of d_I(v, x) + D(x,
 *   t); for t inside, that or the distance by paths inside.
 * - That costs the whole ring a target; for the targets outside S (the
 *   box grown by `margin` cells on each side) a few ring cells do. The
 *   witnesses are the cells of S's outermost layer, and v's access cells
 *   A(v) are ring cells that hit every witness r: d(v, a) + D(a, r) =
 *   d(v, r) (a lies on a shortest v-r path). A shortest path from v to
 *   any t outside S passes some witness r, so
 *       d(v, t) = min over a in A(v) of d(v, a) + D(a, t).
 * - Every first move of every row from those distances: move m of v to
 *   n is optimal toward t exactly when c(m) + d(n, t) = d(v, t), with n
 *   inside the box or on its ring. So the sets are complete and hold
 *   only optimal moves, as the search's are, and the rows are the same.
 *
 * Costs straight + diagonal * sqrt(2) are compared as the integer keys
 * q * straight + p * diagonal, p / q a convergent of sqrt(2) (p^2 - 2 q^2
 * = +-1): additive, and for counts whose diagonal parts differ by less
 * than q / 2, equal exactly when the costs are and ordered as they are
 * (twz_lines_key_scale says why). The bake picks the least convergent
 * that covers the level's distances, from one search a region; a level
 * whose distances no 32-bit key covers (a path of some 20,000 diagonal
 * moves) is baked one search a source.
 */
#ifndef CPD_LINES_H
#define CPD_LINES_H

#include <stdint.h>

#include "bake.h"
#include "graph.h"
#include "twz_error.h"

/* Line spacing and witness margin, cells (0 picks by the level). */
struct twz_lines_options {
	uint32_t spacing;
	uint32_t margin;
};

/* Keys: q straight, p diagonal (see the top). */
struct twz_lines_keys {
	uint32_t straight;
	uint32_t diagonal;
};

/* Every finite key the bake compares, sums included, stays below this;
 * TWZ_LINES_FAR marks no path, and a sum of two keys never wraps. */
#define TWZ_LINES_KEY_LIMIT (1u << 30)
#define TWZ_LINES_FAR (1u << 30)

/*
 * The keys for costs of at most max_cost whose diagonal counts differ by
 * at most max_cost / sqrt(2): the least convergent p / q of sqrt(2) with
 * q > sqrt(2) max_cost + 1 and p (max_cost + 2) below
 * TWZ_LINES_KEY_LIMIT. 0, or -1 when none fits.
 *
 * Why such keys compare exactly: for different costs, write a = s1 - s2,
 * b = d1 - d2, so the costs differ by a + b sqrt(2) and the keys by
 * q (a + b sqrt(2)) + b (p - q sqrt(2)). With b = 0 they differ by q a.
 * Else |a + b sqrt(2)| |a - b sqrt(2)| = |a^2 - 2 b^2| >= 1, so |a + b
 * sqrt(2)| >= 1 / (|a + b sqrt(2)| + 2 sqrt(2) |b|), while |p - q
 * sqrt(2)| = 1 / (p + q sqrt(2)) < 1 / (2 sqrt(2) q - 1). With |b| < q /
 * 2 the first term outweighs the second in every case, so the keys
 * differ, with the costs' sign.
 */
int twz_lines_key_scale(double max_cost, struct twz_lines_keys *keys);

/* Peak bytes of a lines bake of a level of width x height cells, nodes
 * of them walkable, beyond the plain CPD bake's. */
uint64_t twz_lines_estimate_bytes(uint32_t width, uint32_t height,
				  uint64_t nodes, unsigned threads);

/* The CPD rows of gr (every region, every source) into out->runs (a
 * big array of out->spool, spool.h) and out->row_offsets (allocated,
 * [node_count + 1]; out->graph is gr, already built), on the threads opt
 * says; with direction symbols when direction. The same runs as one
 * search per source. 0; 1, nothing made, when the level's distances are
 * too long for 32-bit keys; -1 with err set. */
int twz_lines_rows(const struct twz_graph *gr,
		   const struct twz_bake_options *opt,
		   const struct twz_lines_options *lopt, int direction,
		   struct twz_cpd *out, struct twz_error *err);

#endif
