/*
 * twz_navmesh.c - navmesh geometry at run time: the mesh decoded at open,
 * point location through the spatial grid, nearest polygon, portals,
 * corridor costs, and waypoints by portal midpoints or by the funnel
 * algorithm (string pulling) in the x-z plane, heights carried along.
 */
#include "twz_navmesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "twz_navmesh_format.h"
#include "twz_navmesh_geom.h"

static uint32_t *decode_u32(const uint8_t *p, size_t n)
{
	uint32_t *a = malloc((n ? n : 1) * sizeof *a);

	if (a)
		for (size_t i = 0; i < n; i++)
			a[i] = twz_le32(p + 4 * i);
	return a;
}

void twz__nm_fini(struct twz_nm *nm)
{
	free(nm->vert);
	free(nm->poly_first);
	free(nm->poly_vert);
	free(nm->centroid);
	free(nm->sign);
	free(nm->arc_first);
	free(nm->arc_head);
	free(nm->arc_left);
	free(nm->arc_right);
	free(nm->cell_first);
	free(nm->cell_poly);
	free(nm->node_poly);
	free(nm->poly_node);
	memset(nm, 0, sizeof *nm);
}

twz_status twz__nm_init(struct twz_nm *nm, const uint8_t *const *data,
			const uint8_t *node_id)
{
	const uint8_t *pr = data[TWZ_SECTION_NAVMESH_PARAMS];
	uint32_t indices, entries, cells;

	memset(nm, 0, sizeof *nm);
	nm->vertex_count = twz_le32(pr + TWZ_NP_VERTICES);
	nm->poly_count = twz_le32(pr + TWZ_NP_POLYS);
	nm->arc_count = twz_le32(pr + TWZ_NP_ARCS);
	nm->max_poly_verts = twz_le32(pr + TWZ_NP_MAX_VERTS);
	indices = twz_le32(pr + TWZ_NP_INDICES);
	entries = twz_le32(pr + TWZ_NP_ENTRIES);
	nm->cols = twz_le32(pr + TWZ_NP_COLS);
	nm->rows = twz_le32(pr + TWZ_NP_ROWS);
	nm->origin_x = twz_lef64(pr + TWZ_NP_ORIGIN_X);
	nm->origin_z = twz_lef64(pr + TWZ_NP_ORIGIN_Z);
	nm->cell = twz_lef64(pr + TWZ_NP_CELL);
	nm->scale = twz_lef64(pr + TWZ_NP_SCALE);
	cells = nm->cols * nm->rows;

	nm->vert = malloc(((size_t)nm->vertex_count * 3 + 1) * sizeof *nm->vert);
	nm->poly_first = decode_u32(data[TWZ_SECTION_NAVMESH_POLYS], (size_t)nm->poly_count + 1);
	nm->poly_vert = decode_u32(data[TWZ_SECTION_NAVMESH_POLY_VERTS], indices);
	nm->arc_first = decode_u32(data[TWZ_SECTION_NAVMESH_ARC_FIRST], (size_t)nm->poly_count + 1);
	nm->cell_first = decode_u32(data[TWZ_SECTION_NAVMESH_CELLS], (size_t)cells + 1);
	nm->cell_poly = decode_u32(data[TWZ_SECTION_NAVMESH_CELL_POLYS], entries);
	nm->arc_head = malloc(((size_t)nm->arc_count + 1) * sizeof *nm->arc_head);
	nm->arc_left = malloc(((size_t)nm->arc_count + 1) * sizeof *nm->arc_left);
	nm->arc_right = malloc(((size_t)nm->arc_count + 1) * sizeof *nm->arc_right);
	nm->centroid = malloc(((size_t)nm->poly_count * 2 + 1) * sizeof *nm->centroid);
	nm->sign = malloc(((size_t)nm->poly_count + 1) * sizeof *nm->sign);
	nm->node_poly = decode_u32(node_id, nm->poly_count);
	nm->poly_node = malloc(((size_t)nm->poly_count + 1) * sizeof *nm->poly_node);
	if (!nm->node_poly || !nm->poly_node ||
	    !nm->vert || !nm->poly_first || !nm->poly_vert || !nm->arc_first ||
	    !nm->cell_first || !nm->cell_poly || !nm->arc_head ||
	    !nm->arc_left || !nm->arc_right || !nm->centroid || !nm->sign) {
		twz__nm_fini(nm);
		return TWZ_E_NOMEM;
	}
	/* The graph's validator made NODE_ID a permutation. */
	for (uint32_t v = 0; v < nm->poly_count; v++)
		nm->poly_node[nm->node_poly[v]] = v;
	for (size_t i = 0; i < (size_t)nm->vertex_count * 3; i++)
		nm->vert[i] = twz_lef64(data[TWZ_SECTION_NAVMESH_VERTICES] + 8 * i);
	for (size_t a = 0; a < nm->arc_count; a++) {
		const uint8_t *r = data[TWZ_SECTION_NAVMESH_PORTALS] + TWZ_NA_SIZE * a;
		nm->arc_head[a] = twz_le32(r + TWZ_NA_HEAD);
		nm->arc_left[a] = twz_le32(r + TWZ_NA_LEFT);
		nm->arc_right[a] = twz_le32(r + TWZ_NA_RIGHT);
	}
	for (uint32_t p = 0; p < nm->poly_count; p++) {
		const uint32_t *idx = nm->poly_vert + nm->poly_first[p];
		uint32_t n = nm->poly_first[p + 1] - nm->poly_first[p];
		double a2 = twz_nm_poly_center(nm->vert, idx, n,
					       &nm->centroid[2 * p],
					       &nm->centroid[2 * p + 1]);
		int flat = twz_nm_is_flat(nm->vert, idx, n);
		/* The validator checked that flat polygons are slivers, but
		 * stay safe. */
		if ((flat && twz_nm_sliver_span(nm->vert, idx, n) < 0) ||
		    !isfinite(nm->centroid[2 * p]) ||
		    !isfinite(nm->centroid[2 * p + 1])) {
			twz__nm_fini(nm);
			return TWZ_E_DAMAGED;
		}
		/* 0 marks a sliver: no area, no winding. */
		nm->sign[p] = flat ? 0 : a2 > 0 ? 1 : -1;
	}
	return TWZ_OK;
}

static const uint32_t *poly_idx(const struct twz_nm *nm, uint32_t p,
				uint32_t *n)
{
	*n = nm->poly_first[p + 1] - nm->poly_first[p];
	return nm->poly_vert + nm->poly_first[p];
}

/* The grid cell of (x, z), or -1 off the grid. */
static int64_t cell_of(const struct twz_nm *nm, double x, double z)
{
	double cx = floor((x - nm->origin_x) / nm->cell);
	double cz = floor((z - nm->origin_z) / nm->cell);

	if (!(cx >= 0 && cz >= 0 && cx < nm->cols && cz < nm->rows))
		return -1;
	return (int64_t)cz * nm->cols + (int64_t)cx;
}

/* Whether (x, z) lies on sliver p's span, within the slack of
 * twz_nm_poly_contains; its height there into *h. */
static int on_sliver(const struct twz_nm *nm, uint32_t p, double x, double z,
		     double *h)
{
	uint32_t n;
	const uint32_t *idx = poly_idx(nm, p, &n);
	int s = twz_nm_sliver_span(nm->vert, idx, n);
	const double *a = nm->vert + 3 * (size_t)idx[s < 0 ? 0 : s];
	const double *b = nm->vert + 3 * (size_t)idx[s < 0 ? 1 : (s + 1) % n];
	double len = twz_nm_dist2d(a, b);
	double t = twz_nm_segment_param(a, b, x, z);

	*h = a[1] + t * (b[1] - a[1]);
	return hypot(a[0] + t * (b[0] - a[0]) - x, a[2] + t * (b[2] - a[2]) - z) <=
	       1e-9 * (len + 1);
}

uint32_t twz__nm_locate(const struct twz_nm *nm, double x, double y, double z)
{
	int64_t c = cell_of(nm, x, z);
	uint32_t best = TWZ_NONE;
	double best_dy = INFINITY;

	if (c < 0 || !isfinite(y))
		return TWZ_NONE;
	/* Slivers (sign 0) hold no area: the second pass takes one only
	 * when no polygon with area holds the point. */
	for (int pass = 0; pass < 2 && best == TWZ_NONE; pass++)
	for (uint32_t k = nm->cell_first[c]; k < nm->cell_first[c + 1]; k++) {
		uint32_t p = nm->cell_poly[k], n;
		const uint32_t *idx = poly_idx(nm, p, &n);
		double h;
		if ((nm->sign[p] == 0) != (pass == 1))
			continue;
		if (pass == 1) {
			if (!on_sliver(nm, p, x, z, &h))
				continue;
		} else {
			if (!twz_nm_poly_contains(nm->vert, idx, n, nm->sign[p], x, z))
				continue;
			h = twz_nm_poly_height(nm->vert, idx, n, x, z);
		}
		double dy = fabs(h - y);
		/* Lists are ascending, so a tie keeps the lower index. */
		if (dy < best_dy) {
			best_dy = dy;
			best = p;
		}
	}
	return best;
}

/* The point of polygon p nearest (x, z) in x-z, at the polygon's height
 * there: into pt; its x-z distance returned. */
static double closest_on_poly(const struct twz_nm *nm, uint32_t p, double x,
			      double z, double *pt)
{
	uint32_t n;
	const uint32_t *idx = poly_idx(nm, p, &n);
	double best = INFINITY;

	/* A sliver is its edges: the loop below. */
	if (nm->sign[p] != 0 &&
	    twz_nm_poly_contains(nm->vert, idx, n, nm->sign[p], x, z)) {
		pt[0] = x;
		pt[1] = twz_nm_poly_height(nm->vert, idx, n, x, z);
		pt[2] = z;
		return 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		const double *a = nm->vert + 3 * (size_t)idx[i];
		const double *b = nm->vert + 3 * (size_t)idx[i + 1 == n ? 0 : i + 1];
		double t = twz_nm_segment_param(a, b, x, z);
		double qx = a[0] + t * (b[0] - a[0]), qz = a[2] + t * (b[2] - a[2]);
		double d = hypot(qx - x, qz - z);
		if (d < best) {
			best = d;
			pt[0] = qx;
			pt[1] = a[1] + t * (b[1] - a[1]);
			pt[2] = qz;
		}
	}
	return best;
}

uint32_t twz__nm_nearest(const struct twz_nm *nm, double x, double y,
			 double z, double max_dist, double *pt,
			 int (*counts)(const void *ctx, uint32_t poly),
			 const void *ctx)
{
	uint32_t best = TWZ_NONE, c0, c1, r0, r1;
	double best_d = INFINITY;
	double d = max_dist;

	if (!isfinite(x) || !isfinite(y) || !isfinite(z) || !(d >= 0))
		return TWZ_NONE;
	/* An unbounded search covers the whole grid. */
	if (d > 1e15)
		d = 1e15;
	if (!twz_nm_cell_range(nm->origin_x, nm->origin_z, nm->cell, nm->cols,
			       nm->rows, x - d, x + d, z - d, z + d, &c0, &c1,
			       &r0, &r1))
		return TWZ_NONE;
	for (uint32_t r = r0; r <= r1; r++)
		for (uint32_t c = c0; c <= c1; c++) {
			size_t cell = (size_t)r * nm->cols + c;
			for (uint32_t k = nm->cell_first[cell]; k < nm->cell_first[cell + 1]; k++) {
				uint32_t p = nm->cell_poly[k];
				double q[3];
				if (p == best || (counts && !counts(ctx, p)))
					continue;
				double d2 = closest_on_poly(nm, p, x, z, q);
				if (d2 > best_d)
					continue;
				double d3 = hypot(d2, q[1] - y);
				/* At equal distance a polygon with area beats
				 * a sliver, then the lower index wins. */
				int sl = nm->sign[p] == 0;
				int bsl = best != TWZ_NONE && nm->sign[best] == 0;
				if (d3 <= max_dist &&
				    (d3 < best_d ||
				     (d3 == best_d && (sl < bsl || (sl == bsl && p < best))))) {
					best_d = d3;
					best = p;
					memcpy(pt, q, sizeof q);
				}
			}
		}
	return best;
}

int twz__nm_portal(const struct twz_nm *nm, uint32_t a, uint32_t b,
		   uint32_t *left, uint32_t *right)
{
	for (uint32_t k = nm->arc_first[a]; k < nm->arc_first[a + 1]; k++)
		if (nm->arc_head[k] == b) {
			*left = nm->arc_left[k];
			*right = nm->arc_right[k];
			return 0;
		}
	return -1;
}

double twz__nm_corridor_cost(const struct twz_nm *nm, const twz_node *poly,
			     size_t n)
{
	double cost = 0;

	for (size_t i = 0; i + 1 < n; i++) {
		uint32_t l, r, a = nm->node_poly[poly[i]], b = nm->node_poly[poly[i + 1]];
		if (twz__nm_portal(nm, a, b, &l, &r) < 0)
			return -1;
		cost += twz_nm_arc_cost(nm->centroid[2 * a], nm->centroid[2 * a + 1],
					nm->centroid[2 * b], nm->centroid[2 * b + 1],
					nm->vert + 3 * (size_t)l,
					nm->vert + 3 * (size_t)r);
	}
	return cost;
}

/* The output buffer: points kept while they fit, all counted. */
struct pts {
	float (*out)[3];
	size_t cap, n;
	double last[3];
};

static void emit(struct pts *o, const double *p)
{
	if (o->n < o->cap) {
		o->out[o->n][0] = (float)p[0];
		o->out[o->n][1] = (float)p[1];
		o->out[o->n][2] = (float)p[2];
	}
	memcpy(o->last, p, sizeof o->last);
	o->n++;
}

/* Portal i of the funnel: 0 is the start, n the goal, i in between the
 * edge from poly[i - 1] to poly[i]. */
static void portal_pts(const struct twz_nm *nm, const double *start,
		       const double *goal, const twz_node *poly, size_t n,
		       size_t i, const double **l, const double **r)
{
	uint32_t lv = 0, rv = 0;

	if (i == 0) {
		*l = *r = start;
	} else if (i == n) {
		*l = *r = goal;
	} else {
		twz__nm_portal(nm, nm->node_poly[poly[i - 1]],
			       nm->node_poly[poly[i]], &lv, &rv);
		*l = nm->vert + 3 * (size_t)lv;
		*r = nm->vert + 3 * (size_t)rv;
	}
}

static int same_xz(const double *a, const double *b)
{
	return a[0] == b[0] && a[2] == b[2];
}

/* Whether p lies on the portal segment l-r (up to rounding): a start
 * point or a corner on a portal, as every point of a sliver is. */
static int on_portal(const double *p, const double *l, const double *r)
{
	double dx = r[0] - l[0], dz = r[2] - l[2];
	double l2 = dx * dx + dz * dz;

	return fabs(twz_nm_area2(l, r, p)) <= 1e-12 * l2 &&
	       (p[0] - l[0]) * (p[0] - r[0]) + (p[2] - l[2]) * (p[2] - r[2]) <= 0;
}

/* The simple stupid funnel algorithm: keep the apex and the funnel's two
 * sides; a portal side that tightens the funnel moves it, one that
 * crosses the other side makes that side's point a corner, the new apex,
 * and the scan restarts after it. Each restart moves the apex to a later
 * portal, so at most n - 1 corners. */
static void funnel(const struct twz_nm *nm, const double *start,
		   const double *goal, const twz_node *poly, size_t n,
		   struct pts *o)
{
	const double *apex = start, *left = start, *right = start;
	size_t apex_i = 0, left_i = 0, right_i = 0;

	emit(o, start);
	for (size_t i = 1; i <= n; i++) {
		const double *l, *r;
		portal_pts(nm, start, goal, poly, n, i, &l, &r);

		/* An apex on the portal is past it: the funnel opens anew
		 * there (its sides would point apart and make a false
		 * corner). */
		if (i < n && on_portal(apex, l, r)) {
			left = right = apex;
			apex_i = left_i = right_i = i;
			continue;
		}
		/* The right side moves in when r is left of apex -> right. */
		if (twz_nm_area2(apex, right, r) >= 0) {
			if (same_xz(apex, right) || twz_nm_area2(apex, left, r) < 0) {
				right = r;
				right_i = i;
			} else {
				apex = left;
				apex_i = left_i;
				if (!same_xz(apex, o->last))
					emit(o, apex);
				left = right = apex;
				left_i = right_i = apex_i;
				i = apex_i;
				continue;
			}
		}
		if (twz_nm_area2(apex, left, l) <= 0) {
			if (same_xz(apex, left) || twz_nm_area2(apex, right, l) > 0) {
				left = l;
				left_i = i;
			} else {
				apex = right;
				apex_i = right_i;
				if (!same_xz(apex, o->last))
					emit(o, apex);
				left = right = apex;
				left_i = right_i = apex_i;
				i = apex_i;
				continue;
			}
		}
	}
	if (o->n < 2 || !(same_xz(goal, o->last) && goal[1] == o->last[1]))
		emit(o, goal);
}

twz_status twz__nm_waypoints(const struct twz_nm *nm, const double *start,
			     const double *goal, const twz_node *poly,
			     size_t n, int tight, float (*out)[3],
			     size_t cap, size_t *count)
{
	struct pts o = { out, cap, 0, { 0, 0, 0 } };

	for (size_t i = 0; i + 1 < n; i++) {
		uint32_t l, r;
		if (twz__nm_portal(nm, nm->node_poly[poly[i]],
				   nm->node_poly[poly[i + 1]], &l, &r) < 0)
			return TWZ_E_ARGUMENT;
	}
	if (tight) {
		funnel(nm, start, goal, poly, n, &o);
	} else {
		emit(&o, start);
		for (size_t i = 1; i < n; i++) {
			const double *l, *r;
			portal_pts(nm, start, goal, poly, n, i, &l, &r);
			double m[3] = { 0.5 * (l[0] + r[0]), 0.5 * (l[1] + r[1]),
					0.5 * (l[2] + r[2]) };
			emit(&o, m);
		}
		emit(&o, goal);
	}
	*count = o.n;
	return o.n > cap ? TWZ_E_BUFFER_TOO_SMALL : TWZ_OK;
}

void twz__nm_centre(const struct twz_nm *nm, uint32_t p, double pos[3])
{
	uint32_t n;
	const uint32_t *idx = poly_idx(nm, p, &n);

	pos[0] = nm->centroid[2 * (size_t)p];
	pos[2] = nm->centroid[2 * (size_t)p + 1];
	pos[1] = twz_nm_poly_height(nm->vert, idx, n, pos[0], pos[2]);
}

int twz__nm_contains(const struct twz_nm *nm, uint32_t p, double x, double z)
{
	uint32_t n;
	const uint32_t *idx = poly_idx(nm, p, &n);
	double h;

	if (nm->sign[p] == 0)
		return on_sliver(nm, p, x, z, &h);
	return twz_nm_poly_contains(nm->vert, idx, n, nm->sign[p], x, z);
}

/* The arc of polygon p across its edge from vertex u to vertex v (either
 * way round), or -1. */
static int64_t arc_across(const struct twz_nm *nm, uint32_t p, uint32_t u,
			  uint32_t v)
{
	for (uint32_t k = nm->arc_first[p]; k < nm->arc_first[p + 1]; k++)
		if ((nm->arc_left[k] == u && nm->arc_right[k] == v) ||
		    (nm->arc_left[k] == v && nm->arc_right[k] == u))
			return k;
	return -1;
}

int twz__nm_ray(const struct twz_nm *nm, uint32_t p, const double *a,
		const double *b, uint32_t goal,
		int (*open)(const void *ctx, uint32_t poly), const void *ctx)
{
	uint32_t came_from = TWZ_NONE;
	double t_cur = 0;

	for (uint32_t steps = 0; steps <= nm->poly_count; steps++) {
		if (!open(ctx, p))
			return 0;
		if (goal != TWZ_NONE ? p == goal : twz__nm_contains(nm, p, b[0], b[2]))
			return 1;
		uint32_t n;
		const uint32_t *idx = poly_idx(nm, p, &n);
		double sign = nm->sign[p] != 0 ? nm->sign[p] : 1, best_t = INFINITY;
		int64_t best_arc = -1;
		/* The edge the segment leaves p by (Cyrus-Beck), not the one
		 * it came in by; a corner tries both of its edges. */
		for (uint32_t i = 0; i < n; i++) {
			uint32_t u = idx[i], v = idx[i + 1 == n ? 0 : i + 1];
			const double *va = nm->vert + 3 * (size_t)u;
			const double *vb = nm->vert + 3 * (size_t)v;
			double da = sign * twz_nm_area2(va, vb, a);
			double db = sign * twz_nm_area2(va, vb, b);
			if (!(db < 0 && db < da))
				continue;
			double t = da / (da - db);
			int64_t k = arc_across(nm, p, u, v);
			if (k >= 0 && nm->arc_head[k] == came_from)
				continue;
			if (t < t_cur - 1e-9 || t > best_t + 1e-12)
				continue;
			/* Of two edges at one corner, one with a neighbour. */
			if (t >= best_t - 1e-12 && (k < 0 || best_arc >= 0))
				continue;
			best_t = t;
			best_arc = k;
		}
		if (best_arc < 0)
			return 0;  /* the segment leaves the mesh */
		came_from = p;
		p = nm->arc_head[best_arc];
		t_cur = best_t;
	}
	return 0;
}
