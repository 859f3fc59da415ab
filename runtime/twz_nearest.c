/*
 * twz_nearest.c - world positions: the open node nearest a position, for
 * every level kind (twz_nearest_filtered, and twz_nearest on grid cells),
 * and twz_path_partial, which walks toward a goal cell that may not be
 * reachable, to the reachable cell nearest it. A grid is scanned row by
 * row outward from the position over the disc of the best distance so
 * far; a navmesh through its spatial grid; a graph node by node. With a
 * node to start from, only what an agent there reaches counts: its
 * region on the level as baked, or, under a filter, the nodes a flood
 * from it settles in the scratch. No allocation, no locks, no I/O.
 */
#include "twz_scratch.h"
#include "twz_navmesh.h"

#include <math.h>

/* Cell coordinates beyond this are refused (twz_nearest). */
#define TWZ_POSITION_LIMIT 2147483647LL

/* What counts: open under the filter, and reached from `from`. */
struct counts {
	const struct twz_db *db;
	const struct twz__filter *f;
	const struct twz_span *region;       /* NULL: any */
	const struct twz_scratch *flooded;   /* NULL: any */
};

static int node_counts(const struct counts *c, twz_node n)
{
	if (n == TWZ_NONE || twz__blocked(c->f, n))
		return 0;
	if (c->region && !twz__in_span(c->db, c->region, n))
		return 0;
	return !c->flooded ||
	       c->flooded->node[n].stamp == twz__done_stamp(c->flooded);
}

/* Mark every node an agent at `from` reaches under f (a flood over the
 * geometry's arcs, settled nodes stamped done). */
static void flood(struct twz_scratch *sc, const struct twz__filter *f,
		  twz_node from)
{
	struct twz__arc arcs[TWZ__ARC_BATCH];
	uint32_t top = 0;

	twz__scratch_begin(sc);
	twz__scratch_filter(sc, f);
	sc->mode = TWZ__IDLE;
	const uint32_t done = twz__done_stamp(sc);
	sc->node[from].stamp = done;
	sc->stack[top++] = from;
	while (top) {
		twz_node u = sc->stack[--top];
		uint32_t cursor = 0;
		unsigned count;
		sc->expanded++;
		while ((count = twz__arcs(sc, &sc->filter, u, 0, &cursor,
					  arcs)) != 0)
			for (unsigned i = 0; i < count; i++) {
				twz_node v = arcs[i].head;
				if (sc->node[v].stamp == done)
					continue;
				sc->node[v].stamp = done;
				sc->stack[top++] = v;
			}
	}
}

/* ---- grids ------------------------------------------------------------- */

/* A squared distance: exact in whole cells when the position is a cell
 * centre (twz_nearest's cells, as far off the grid as they may be),
 * else a double. */
struct dist {
	uint64_t whole;
	double real;
};

/* The best cell so far (none while node is TWZ_NONE), the scan's
 * position in the cells' own frame: cell (x, y)'s centre is (x + 0.5,
 * y + 0.5). */
struct grid_scan {
	const struct counts *c;
	double px, py;
	int exact;              /* the position is a cell centre, (ix, iy) */
	int64_t ix, iy;
	struct dist bound;      /* the radius squared: farther is refused */
	int bounded;
	struct dist d2;
	uint32_t x, y;
	twz_node node;
};

static inline uint64_t usq(int64_t v)
{
	uint64_t a = (uint64_t)(v < 0 ? -v : v);

	return a * a;
}

static inline double sq(double v)
{
	return v * v;
}

static inline int dist_less(const struct grid_scan *s, struct dist a,
			    struct dist b)
{
	return s->exact ? a.whole < b.whole : a.real < b.real;
}

static inline int dist_eq(const struct grid_scan *s, struct dist a,
			  struct dist b)
{
	return s->exact ? a.whole == b.whole : a.real == b.real;
}

/* The squared distance of row y alone, and of cell (x, y). */
static inline struct dist row_dist(const struct grid_scan *s, int64_t y)
{
	struct dist d = { 0, 0 };

	if (s->exact)
		d.whole = usq(y - s->iy);
	else
		d.real = sq((double)y + 0.5 - s->py);
	return d;
}

static inline struct dist cell_dist(const struct grid_scan *s, struct dist dy,
				    int64_t x)
{
	if (s->exact)
		dy.whole += usq(x - s->ix);
	else
		dy.real += sq((double)x + 0.5 - s->px);
	return dy;
}

/* Whether d is past the limit: the best so far, or the radius. */
static inline int past(const struct grid_scan *s, struct dist d)
{
	if (s->node != TWZ_NONE && dist_less(s, s->d2, d))
		return 1;
	return s->bounded && dist_less(s, s->bound, d);
}

/* Offer cell (x, y) at squared distance d2: 1 when it holds a node that
 * counts (whether or not it beat the best). */
static int offer(struct grid_scan *s, uint32_t x, uint32_t y, struct dist d2)
{
	const struct twz_db *db = s->c->db;
	twz_node n = twz__cell_node(db, (size_t)y * db->c.width + x);

	if (!node_counts(s->c, n))
		return 0;
	/* Ties: the smaller row, then the smaller column. */
	if (s->node == TWZ_NONE || dist_less(s, d2, s->d2) ||
	    (dist_eq(s, d2, s->d2) && (y < s->y || (y == s->y && x < s->x)))) {
		s->d2 = d2;
		s->x = x;
		s->y = y;
		s->node = n;
	}
	return 1;
}

/*
 * Row y: from the column nearest the position outward both ways, each
 * way stopping where the distance passes the limit, which the first
 * counting cell lowers to its own (the cells beyond are farther, or as
 * far: a position on a cell line has two nearest columns).
 */
static void scan_row(struct grid_scan *s, uint32_t y, uint32_t cx)
{
	struct dist dy = row_dist(s, y);

	for (int64_t x = cx; x >= 0; x--) {
		struct dist d2 = cell_dist(s, dy, x);
		if (past(s, d2))
			break;
		offer(s, (uint32_t)x, y, d2);
	}
	for (int64_t x = (int64_t)cx + 1; x < s->c->db->c.width; x++) {
		struct dist d2 = cell_dist(s, dy, x);
		if (past(s, d2))
			break;
		offer(s, (uint32_t)x, y, d2);
	}
}

/* Rows outward from the one nearest the position, both ways, each way
 * stopping when its vertical distance alone passes the limit: the scan
 * covers the disc of the best distance so far (or of the radius) and
 * nothing beyond. */
static twz_node grid_nearest(const struct counts *c, double px, double py,
			     double radius)
{
	const struct twz_db *db = c->db;
	struct grid_scan s;
	double w = db->c.width, h = db->c.height;
	int64_t cx = (int64_t)floor(fmin(fmax(px, 0), w - 1));
	int64_t cy = (int64_t)floor(fmin(fmax(py, 0), h - 1));
	int up = 1, down = 1;

	s.c = c;
	s.px = px;
	s.py = py;
	s.ix = (int64_t)floor(px);
	s.iy = (int64_t)floor(py);
	s.exact = px - 0.5 == (double)s.ix && py - 0.5 == (double)s.iy &&
		  fabs(px) <= TWZ_POSITION_LIMIT + 1.0 &&
		  fabs(py) <= TWZ_POSITION_LIMIT + 1.0;
	s.bounded = isfinite(radius);
	s.bound.real = radius * radius;
	s.bound.whole = s.bounded && s.exact && radius < 4294967296.0
				? (uint64_t)radius * (uint64_t)radius : UINT64_MAX;
	s.node = TWZ_NONE;
	s.x = s.y = UINT32_MAX;
	for (int64_t k = 0; up || down; k++) {
		int64_t y;
		if (up) {
			y = cy - k;
			if (y < 0 || past(&s, row_dist(&s, y)))
				up = 0;
			else
				scan_row(&s, (uint32_t)y, (uint32_t)cx);
		}
		if (down && k > 0) {
			y = cy + k;
			if (y >= h || past(&s, row_dist(&s, y)))
				down = 0;
			else
				scan_row(&s, (uint32_t)y, (uint32_t)cx);
		}
	}
	return s.node;
}

/* ---- graphs and navmeshes ------------------------------------------------ */

static twz_node graph_nearest(const struct counts *c, const double *pos,
			      double radius)
{
	const struct twz_db *db = c->db;
	double best = INFINITY;
	twz_node node = TWZ_NONE;

	for (twz_node n = 0; n < db->c.node_count; n++) {
		double p[3];
		if (!node_counts(c, n) || twz__geometry(db)->position(db, n, p) != 0)
			continue;
		double d2 = (p[0] - pos[0]) * (p[0] - pos[0]) +
			    (p[1] - pos[1]) * (p[1] - pos[1]);
		if (d2 <= radius * radius && d2 < best) {
			best = d2;
			node = n;
		}
	}
	return node;
}

static int polygon_counts(const void *ctx, uint32_t poly)
{
	const struct counts *c = ctx;

	return node_counts(c, c->db->navmesh->poly_node[poly]);
}

/* ---- the public calls ---------------------------------------------------- */

twz_status twz_nearest_filtered(const twz_db *db, twz_scratch *sc,
				const twz_filter *filter, const double pos[3],
				double radius, twz_node from, twz_node *out)
{
	struct twz__filter f;
	struct twz_span r;
	struct counts c;

	if (out)
		*out = TWZ_NONE;
	if (!db || !out || !pos || !isfinite(pos[0]) || !isfinite(pos[1]) ||
	    !isfinite(pos[2]) || !(radius >= 0) ||
	    (from != TWZ_NONE && from >= db->c.node_count))
		return TWZ_E_ARGUMENT;
	if (twz__is_graph(db) && !db->navmesh && !db->graph.coords)
		return TWZ_E_ARGUMENT;
	twz_status st = twz__filter_make(db, filter, &f);
	if (st != TWZ_OK)
		return st;
	c.db = db;
	c.f = &f;
	c.region = NULL;
	c.flooded = NULL;
	if (from != TWZ_NONE) {
		if (twz__blocked(&f, from))
			return TWZ_E_START_SHUT;
		if (f.any || twz__is_graph(db)) {
			/* Filtered, or one-way arcs: what a flood reaches. */
			if (!twz__scratch_fits(sc, db))
				return TWZ_E_ARGUMENT;
			flood(sc, &f, from);
			c.flooded = sc;
		} else {
			twz__span_of(db, from, &r);
			c.region = &r;
		}
	}
	twz_node n;
	if (db->navmesh) {
		double pt[3];
		uint32_t p = twz__nm_nearest(db->navmesh, pos[0], pos[1], pos[2],
					     radius, pt, polygon_counts, &c);
		n = p == TWZ_NONE ? TWZ_NONE : db->navmesh->poly_node[p];
	} else if (twz__is_graph(db)) {
		n = graph_nearest(&c, pos, radius);
	} else {
		/* Node (x, y) stands at (x + k/2, y + k/2): search the
		 * anchors' cells with the position moved to match. */
		double shift = 0.5 * twz__agent_size(db) - 0.5;
		n = db->c.node_count ? grid_nearest(&c, pos[0] - shift,
						    pos[1] - shift, radius)
				     : TWZ_NONE;
	}
	*out = n;
	return n == TWZ_NONE ? TWZ_E_OUT_OF_RANGE : TWZ_OK;
}

twz_status twz_nearest(const twz_db *db, int64_t x, int64_t y,
		       uint32_t radius, twz_node from, twz_node *out)
{
	if (out)
		*out = TWZ_NONE;
	if (!db || !out || twz__is_graph(db) ||
	    x < -TWZ_POSITION_LIMIT || x > TWZ_POSITION_LIMIT ||
	    y < -TWZ_POSITION_LIMIT || y > TWZ_POSITION_LIMIT)
		return TWZ_E_ARGUMENT;
	double half = 0.5 * twz__agent_size(db);
	double pos[3] = { (double)x + half, (double)y + half, 0 };
	return twz_nearest_filtered(db, NULL, NULL, pos,
				    radius == TWZ_RADIUS_ANY ? INFINITY : radius,
				    from, out);
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
		return st == TWZ_E_OUT_OF_RANGE ? TWZ_E_DAMAGED : st;
	if (reached)
		*reached = t;
	return twz_path(db, s, t, buf, cap, len);
}
