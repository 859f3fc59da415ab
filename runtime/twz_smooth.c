/*
 * twz_smooth.c - any-angle paths: twz_smooth pulls a grid path tight by
 * line of sight between cell centres, keeping its nodes at the corners
 * only. Walkability is the database's cell -> node map; the line walk is
 * exact integer arithmetic. No allocation, no locks, no I/O.
 */
#include "twz_db.h"

/* Whether cell (x, y), known to be on the grid, holds a node. */
static inline int open_cell(const struct twz_db *db, int64_t x, int64_t y)
{
	return twz__cell_node(db, (size_t)y * db->c.width + (size_t)x) != TWZ_NONE;
}

/*
 * Whether the segment between the centres of cells a and b (both walkable)
 * is clear: every cell whose inside it passes through is walkable, and
 * where it passes exactly through a cell corner the four cells around that
 * corner are (the rule of a diagonal grid move). A segment between cell
 * centres never runs along a cell edge, so these are all the cases.
 *
 * The walk steps cell by cell. Along the segment, parametrised by t in
 * [0, 1], the k-th column line (k = 1 .. nx) is crossed at t = (2k - 1) /
 * (2 nx) and the k-th row line at t = (2k - 1) / (2 ny); comparing the
 * cross-multiplied numerators says which comes first, and equality is a
 * corner. Every cell visited lies in the box of a and b, so on the grid.
 */
static int segment_clear(const struct twz_db *db, uint32_t ax, uint32_t ay,
			 uint32_t bx, uint32_t by)
{
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
				if (!open_cell(db, x + sx, y) ||
				    !open_cell(db, x, y + sy))
					return 0;
				x += sx, ix++;
				y += sy, iy++;
			}
		}
		if (!open_cell(db, x, y))
			return 0;
	}
	return 1;
}

/*
 * Greedy string pulling. The anchor is the last waypoint kept; path[i] is
 * the farthest node seen from it so far. While the anchor sees path[i+1],
 * path[i] is dropped; otherwise path[i] becomes a waypoint. Every grid
 * move is a clear segment, so on a path of grid moves each kept segment
 * is clear; a segment of the input that is not clear (a caller's own
 * waypoints) is kept as it is. Writes only at or behind the read
 * position, so it runs in place.
 */
twz_status twz_smooth(const twz_db *db, twz_node *path, size_t len,
		      size_t *out_len)
{
	uint32_t ax, ay, bx, by;
	size_t out = 1;

	if (out_len)
		*out_len = 0;
	if (!db || !out_len || (!path && len) || twz__is_graph(db))
		return TWZ_E_ARGUMENT;
	for (size_t i = 0; i < len; i++)
		if (path[i] >= db->c.node_count)
			return TWZ_E_ARGUMENT;
	if (len <= 2) {
		*out_len = len;
		return TWZ_OK;
	}
	twz__node_xy(db, path[0], &ax, &ay);
	for (size_t i = 1; i + 1 < len; i++) {
		twz__node_xy(db, path[i + 1], &bx, &by);
		if (segment_clear(db, ax, ay, bx, by))
			continue;
		path[out++] = path[i];
		twz__node_xy(db, path[i], &ax, &ay);
	}
	path[out++] = path[len - 1];
	*out_len = out;
	return TWZ_OK;
}
