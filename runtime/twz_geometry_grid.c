/*
 * twz_geometry_grid.c - the geometry hooks of grid levels (twz_geometry.h):
 * a node is a cell (of this database's agent size: the corner of lowest
 * x and y of the agent's square), its arcs are the legal moves of
 * section 6 of FORMAT.md (straight cost 1, diagonal sqrt(2), a diagonal
 * only past two open cells), and sight is the exact segment test between
 * cell centres. A filter makes its nodes walls: no arc enters them and
 * no diagonal cuts their corner. Moves are symmetric (the corner rule
 * asks the same two cells both ways), so the arcs into a node are those
 * out of it.
 */
#include "twz_scratch.h"

#include <stdlib.h>

static const struct twz__cost straight_cost = { 1, 0 };
static const struct twz__cost diagonal_cost = { 0, 1 };

static inline size_t cell_of(const struct twz_db *db, uint32_t x, uint32_t y)
{
	return (size_t)y * db->c.width + x;
}

/* The node move m leads to from cell (legal there). */
static inline twz_node move_node(const struct twz_db *db, size_t cell,
				 unsigned m)
{
	return twz__cell_node(db, (size_t)((int64_t)cell + db->move_offset[m]));
}

/* Whether diagonal m from cell passes beside a blocked node. */
static inline int corner_blocked(const struct twz_db *db,
				 const struct twz__filter *f, size_t cell,
				 unsigned m)
{
	return twz__blocked(f, move_node(db, cell, twz_diagonal_side_x(m))) ||
	       twz__blocked(f, move_node(db, cell, twz_diagonal_side_y(m)));
}

static unsigned grid_arcs(const struct twz_db *db, const struct twz_scratch *sc,
			  const struct twz__filter *f, twz_node n, int reverse,
			  uint32_t *cursor, struct twz__arc *out)
{
	return twz__grid_arcs(db, sc, f, n, reverse, cursor, out);
}

static int grid_step(const struct twz_db *db, const struct twz__filter *f,
		     twz_node x, twz_node y, struct twz__cost *cost)
{
	uint32_t ax, ay, bx, by;

	twz__node_xy(db, x, &ax, &ay);
	twz__node_xy(db, y, &bx, &by);
	int diag = ax != bx && ay != by;
	*cost = diag ? diagonal_cost : straight_cost;
	if (db->node_milli) {
		uint64_t units = (uint64_t)db->node_milli[x] + db->node_milli[y];
		cost->a = diag ? 0 : units;
		cost->b = diag ? units : 0;
	}
	if (twz__blocked(f, y))
		return 0;
	if (!diag || !f->any)
		return 1;
	unsigned m = twz_direction_move(TWZ_SYMBOL_TOWARD,
					(int32_t)bx - (int32_t)ax,
					(int32_t)by - (int32_t)ay);
	return !corner_blocked(db, f, cell_of(db, ax, ay), m);
}

/* The cost on open ground. */
static struct twz__cost grid_lower_bound(const struct twz_db *db, twz_node x,
					 twz_node t)
{
	uint32_t ax, ay, bx, by, s, d;

	twz__node_xy(db, x, &ax, &ay);
	twz__node_xy(db, t, &bx, &by);
	twz_transit_reference(db->c.connectivity, ax > bx ? ax - bx : bx - ax,
			      ay > by ? ay - by : by - ay, &s, &d);
	struct twz__cost c = { s, d };
	return c;
}

/* The centre of the agent's square, in cells: cell (x, y) spans [x, x + 1)
 * x [y, y + 1). */
static int grid_position(const struct twz_db *db, twz_node n, double pos[3])
{
	uint32_t x, y;
	double half = 0.5 * twz__agent_size(db);

	twz__node_xy(db, n, &x, &y);
	pos[0] = x + half;
	pos[1] = y + half;
	pos[2] = 0;
	return 0;
}

/* Whether cell (x, y), known to be on the grid, holds an open node. */
static inline int open_cell(const struct twz_db *db, const struct twz__filter *f,
			    int64_t x, int64_t y)
{
	twz_node n = twz__cell_node(db, (size_t)y * db->c.width + (size_t)x);

	return n != TWZ_NONE && !twz__blocked(f, n);
}

/*
 * Whether the segment between the centres of cells a and b (both open) is
 * clear: every cell whose inside it passes through is open, and where it
 * passes exactly through a cell corner the four cells around that corner
 * are (the rule of a diagonal grid move). A segment between cell centres
 * never runs along a cell edge, so these are all the cases.
 *
 * The walk steps cell by cell. Along the segment, parametrised by t in
 * [0, 1], the k-th column line (k = 1 .. nx) is crossed at t = (2k - 1) /
 * (2 nx) and the k-th row line at t = (2k - 1) / (2 ny); comparing the
 * cross-multiplied numerators says which comes first, and equality is a
 * corner. Every cell visited lies in the box of a and b, so on the grid.
 */
static int grid_sight(const struct twz_db *db, const struct twz__filter *f,
		      twz_node a, twz_node b)
{
	uint32_t ax, ay, bx, by;

	twz__node_xy(db, a, &ax, &ay);
	twz__node_xy(db, b, &bx, &by);
	if (twz__blocked(f, a) || twz__blocked(f, b))
		return 0;
	int64_t x = ax, y = ay;
	int sx = bx > ax ? 1 : -1, sy = by > ay ? 1 : -1;
	uint64_t nx = bx > ax ? bx - ax : ax - bx;
	uint64_t ny = by > ay ? by - ay : ay - by;
	uint64_t ix = 0, iy = 0;  /* column and row lines crossed so far */

	while (ix < nx || iy < ny) {
		if (iy == ny) {
			x += sx, ix++;
		} else if (ix == nx) {
			y += sy, iy++;
		} else {
			uint64_t tx = (2 * ix + 1) * ny, ty = (2 * iy + 1) * nx;
			if (tx < ty) {
				x += sx, ix++;
			} else if (ty < tx) {
				y += sy, iy++;
			} else {
				if (!open_cell(db, f, x + sx, y) ||
				    !open_cell(db, f, x, y + sy))
					return 0;
				x += sx, ix++;
				y += sy, iy++;
			}
		}
		if (!open_cell(db, f, x, y))
			return 0;
	}
	return 1;
}

/* Every node's static moves, a bit each, so a search steps with one byte
 * read and a cell lookup a move. */
static twz_status grid_scratch_init(const struct twz_db *db,
				    struct twz_scratch *sc)
{
	uint32_t n = db->c.node_count;

	sc->moves = malloc(n ? n : 1);
	if (!sc->moves)
		return TWZ_E_NOMEM;
	for (uint32_t v = 0; v < n; v++) {
		uint32_t x, y;

		twz__node_xy(db, v, &x, &y);
		sc->moves[v] = (uint8_t)twz__legal_moves(db, x, y);
	}
	/* Moves cost 1 and sqrt(2): buckets of width 1, three of them; by
	 * area, from 2 M_lo to 2 M_hi sqrt(2) units: buckets of the least,
	 * while the dearest spans a few thousand of them. */
	sc->ring_width = 1;
	sc->ring_size = 4;
	if (db->node_milli) {
		uint64_t lo = 2 * (uint64_t)db->milli_lo;
		uint64_t hi = (uint64_t)(2.0 * db->milli_hi * 1.41421356237309505) + 1;
		twz__ring_fit(sc, lo, hi);
	}
	return TWZ_OK;
}

static void grid_scratch_fini(struct twz_scratch *sc)
{
	free(sc->moves);
	sc->moves = NULL;
}

const struct twz_geometry twz_geometry_grid = {
	.arcs = grid_arcs,
	.step = grid_step,
	.lower_bound = grid_lower_bound,
	.position = grid_position,
	.sight = grid_sight,
	.scratch_init = grid_scratch_init,
	.scratch_fini = grid_scratch_fini,
};
