/*
 * twz_nearest.c - world positions: twz_nearest snaps any cell (off the
 * map, blocked, or in another region) to the nearest walkable cell, and
 * twz_path_partial walks toward a goal that may not be reachable, to the
 * reachable cell nearest it. Walkability is the database's cell -> node
 * map, regions are its node regions. No allocation, no locks, no I/O.
 */
#include "twz_db.h"

/* Coordinates beyond this are refused, so squared distances fit 64 bits. */
#define TWZ_POSITION_LIMIT 2147483647LL

/* The best cell so far; d2 is UINT64_MAX while there is none. */
struct nearest {
	const struct twz_db *db;
	int64_t px, py;
	uint64_t bound;         /* the radius squared: farther is refused */
	const struct twz_span *region;  /* NULL: any */
	uint64_t d2;
	uint32_t x, y;
	twz_node node;
};

/* Offer cell (x, y) at squared distance d2: 1 when it holds a node that
 * counts (whether or not it beat the best), so a scan can stop. */
static int offer(struct nearest *s, uint32_t x, uint32_t y, uint64_t d2)
{
	twz_node n = twz__cell_node(s->db, (size_t)y * s->db->c.width + x);

	if (n == TWZ_NONE || (s->region && !twz__in_span(s->db, s->region, n)))
		return 0;
	/* Ties: the smaller row, then the smaller column. */
	if (d2 < s->d2 || (d2 == s->d2 && (y < s->y || (y == s->y && x < s->x)))) {
		s->d2 = d2;
		s->x = x;
		s->y = y;
		s->node = n;
	}
	return 1;
}

static inline uint64_t sq(int64_t v)
{
	return (uint64_t)(v < 0 ? -v : v) * (uint64_t)(v < 0 ? -v : v);
}

/* The nearer of the bound and the best found. */
static inline uint64_t limit(const struct nearest *s)
{
	return s->d2 < s->bound ? s->d2 : s->bound;
}

/*
 * Row y: from the column nearest px outward both ways, each way stopping
 * at its first counting cell (the cells beyond are farther) or where the
 * distance passes the limit.
 */
static void scan_row(struct nearest *s, uint32_t y, uint32_t cx)
{
	uint64_t dy2 = sq((int64_t)y - s->py);

	for (int64_t x = cx; x >= 0; x--) {
		uint64_t d2 = dy2 + sq(x - s->px);
		if (d2 > limit(s) || offer(s, (uint32_t)x, y, d2))
			break;
	}
	for (int64_t x = (int64_t)cx + 1; x < s->db->c.width; x++) {
		uint64_t d2 = dy2 + sq(x - s->px);
		if (d2 > limit(s) || offer(s, (uint32_t)x, y, d2))
			break;
	}
}

/*
 * Rows outward from the one nearest py, in both directions, each stopping
 * when its vertical distance alone passes the limit: the search covers the
 * disc of the best distance so far (or of the radius) and nothing beyond.
 */
static void search(struct nearest *s)
{
	const struct twz_db *db = s->db;
	int64_t w = db->c.width, h = db->c.height;
	int64_t cx = s->px < 0 ? 0 : s->px >= w ? w - 1 : s->px;
	int64_t cy = s->py < 0 ? 0 : s->py >= h ? h - 1 : s->py;
	int up = 1, down = 1;

	for (int64_t k = 0; up || down; k++) {
		int64_t y;
		if (up) {
			y = cy - k;
			if (y < 0 || sq(y - s->py) > limit(s))
				up = 0;
			else
				scan_row(s, (uint32_t)y, (uint32_t)cx);
		}
		if (down && k > 0) {
			y = cy + k;
			if (y >= h || sq(y - s->py) > limit(s))
				down = 0;
			else
				scan_row(s, (uint32_t)y, (uint32_t)cx);
		}
	}
}

twz_status twz_nearest(const twz_db *db, int64_t x, int64_t y,
		       uint32_t radius, twz_node from, twz_node *out)
{
	struct twz_span r;
	struct nearest s;

	if (out)
		*out = TWZ_NONE;
	if (!db || !out || (from != TWZ_NONE && from >= db->c.node_count) ||
	    twz__is_graph(db) ||
	    x < -TWZ_POSITION_LIMIT || x > TWZ_POSITION_LIMIT ||
	    y < -TWZ_POSITION_LIMIT || y > TWZ_POSITION_LIMIT)
		return TWZ_E_ARGUMENT;
	if (!db->c.node_count)
		return TWZ_E_UNREACHABLE;
	s.db = db;
	s.px = x;
	s.py = y;
	s.bound = radius == TWZ_RADIUS_ANY ? UINT64_MAX
					   : (uint64_t)radius * radius;
	s.region = NULL;
	if (from != TWZ_NONE) {
		twz__span_of(db, from, &r);
		s.region = &r;
	}
	s.d2 = UINT64_MAX;
	s.x = s.y = UINT32_MAX;
	s.node = TWZ_NONE;
	search(&s);
	*out = s.node;
	return s.node == TWZ_NONE ? TWZ_E_UNREACHABLE : TWZ_OK;
}

twz_status twz_path_partial(const twz_db *db, twz_node s, int64_t gx,
			    int64_t gy, twz_node *buf, size_t cap, size_t *len,
			    twz_node *reached)
{
	twz_node t;
	twz_status st;

	if (len)
		*len = 0;
	if (reached)
		*reached = TWZ_NONE;
	if (!db || !len || (!buf && cap) || s >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	st = twz_nearest(db, gx, gy, TWZ_RADIUS_ANY, s, &t);
	if (st != TWZ_OK)
		return st == TWZ_E_UNREACHABLE ? TWZ_E_DAMAGED : st;
	if (reached)
		*reached = t;
	return twz_path(db, s, t, buf, cap, len);
}
