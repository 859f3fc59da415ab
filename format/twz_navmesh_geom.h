/*
 * twz_navmesh_geom.h - the geometry of navmesh levels, stated once for
 * the bake (precompute/level_navmesh.c) and the runtime
 * (runtime/twz_navmesh.c): the walk is in the x-z plane (y is up), all
 * arithmetic in double. Points are double[3] (x, y, z).
 *
 * Orientation: twz_nm_area2(a, b, c) > 0 when c lies to the left of the
 * line a -> b, seen with x as the first and z as the second axis. A
 * polygon is counter-clockwise when its signed area is positive.
 */
#ifndef TWZ_NAVMESH_GEOM_H
#define TWZ_NAVMESH_GEOM_H

#include <math.h>
#include <stdint.h>

/* Twice the signed area of triangle a, b, c in x-z. */
static inline double twz_nm_area2(const double *a, const double *b,
				  const double *c)
{
	return (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
}

/* Distance in x-z (coordinates are within +-1e12, so the squares
 * cannot overflow: no need for hypot's care, which costs on the locate
 * path). */
static inline double twz_nm_dist2d(const double *a, const double *b)
{
	double dx = b[0] - a[0], dz = b[2] - a[2];

	return sqrt(dx * dx + dz * dz);
}

/* Twice the signed area of a polygon (vertex ids idx[0..n) into vert,
 * 3 doubles a vertex), and its area centroid in x-z (cx, cz). Taken
 * around the first vertex so large coordinates lose no precision. */
static inline double twz_nm_poly_centroid(const double *vert,
					  const uint32_t *idx, uint32_t n,
					  double *cx, double *cz)
{
	const double *o = vert + 3 * (size_t)idx[0];
	double a2 = 0, sx = 0, sz = 0;

	for (uint32_t i = 1; i + 1 < n; i++) {
		const double *p = vert + 3 * (size_t)idx[i];
		const double *q = vert + 3 * (size_t)idx[i + 1];
		double t = twz_nm_area2(o, p, q);
		a2 += t;
		sx += t * (p[0] + q[0] - 2 * o[0]);
		sz += t * (p[2] + q[2] - 2 * o[2]);
	}
	*cx = o[0] + sx / (3 * a2);
	*cz = o[2] + sz / (3 * a2);
	return a2;
}

/* The point of segment a-b nearest (x, z) in x-z: its parameter in
 * [0, 1]. */
static inline double twz_nm_segment_param(const double *a, const double *b,
					  double x, double z)
{
	double dx = b[0] - a[0], dz = b[2] - a[2];
	double l2 = dx * dx + dz * dz;
	double t = l2 > 0 ? ((x - a[0]) * dx + (z - a[2]) * dz) / l2 : 0;

	return t < 0 ? 0 : t > 1 ? 1 : t;
}

/* A vertex within this much x (1 + the largest |x| or |z| of the points
 * compared) of a line counts as on it: builders compute vertices in
 * float and print them rounded (Recast's OBJ dump: "%f"), so a straight
 * run of vertices keeps about that much noise. */
#define TWZ_NM_STRAIGHT_SLACK 1e-6

/* Whether v lies on the line a-b (len its length) within the slack. */
static inline int twz_nm_on_line(const double *a, const double *b, double len,
				 const double *v)
{
	double big = 1;

	for (int k = 0; k < 3; k += 2) {
		if (fabs(a[k]) > big) big = fabs(a[k]);
		if (fabs(b[k]) > big) big = fabs(b[k]);
		if (fabs(v[k]) > big) big = fabs(v[k]);
	}
	return fabs(twz_nm_area2(a, b, v)) <= TWZ_NM_STRAIGHT_SLACK * big * len;
}

/* A polygon's longest edge idx[s] - idx[s + 1], the first longest in
 * its order (its span): s. */
static inline uint32_t twz_nm_longest_edge(const double *vert,
					   const uint32_t *idx, uint32_t n,
					   double *len)
{
	double best = -1;
	uint32_t s = 0;

	for (uint32_t i = 0; i < n; i++) {
		double l = twz_nm_dist2d(vert + 3 * (size_t)idx[i],
					 vert + 3 * (size_t)idx[i + 1 == n ? 0 : i + 1]);
		if (l > best) {
			best = l;
			s = i;
		}
	}
	*len = best;
	return s;
}

/* Whether a polygon is flat: every vertex on the line of its span, so
 * it has no area in x-z worth the name. Flat polygons are refused
 * unless they are slivers (twz_nm_sliver_span). */
static inline int twz_nm_is_flat(const double *vert, const uint32_t *idx,
				 uint32_t n)
{
	double len;
	uint32_t s = twz_nm_longest_edge(vert, idx, n, &len);
	const double *a = vert + 3 * (size_t)idx[s];
	const double *b = vert + 3 * (size_t)idx[s + 1 == n ? 0 : s + 1];

	for (uint32_t i = 0; i < n; i++)
		if (!twz_nm_on_line(a, b, len, vert + 3 * (size_t)idx[i]))
			return 0;
	return 1;
}

/* A sliver: a flat polygon whose vertices are met in order along its
 * span idx[s] - idx[s + 1]: walking from idx[s + 1] round to idx[s],
 * each vertex is strictly nearer idx[s] than the one before (so no two
 * coincide and none folds back). Such a face is what a triangle fan of
 * a convex polygon with a straight (180-degree) vertex holds. Returns s,
 * or -1 when the polygon is not a sliver. */
static inline int twz_nm_sliver_span(const double *vert, const uint32_t *idx,
				     uint32_t n)
{
	double len, prev = 1;
	uint32_t s = twz_nm_longest_edge(vert, idx, n, &len);
	const double *a = vert + 3 * (size_t)idx[s];
	const double *b = vert + 3 * (size_t)idx[s + 1 == n ? 0 : s + 1];

	if (!(len > 0) || !twz_nm_is_flat(vert, idx, n))
		return -1;
	for (uint32_t k = 2; k < n; k++) {
		const double *v = vert + 3 * (size_t)idx[(s + k) % n];
		double t = twz_nm_segment_param(a, b, v[0], v[2]);
		if (!(t > 0 && t < prev))
			return -1;
		prev = t;
	}
	return (int)s;
}

/* A polygon's centre for costs: its area centroid, or for a flat one
 * (which has none) the midpoint of its longest edge, the first longest
 * in the polygon's order. Returns twice the signed area. */
static inline double twz_nm_poly_center(const double *vert,
					const uint32_t *idx, uint32_t n,
					double *cx, double *cz)
{
	double a2 = twz_nm_poly_centroid(vert, idx, n, cx, cz), len;

	if (!twz_nm_is_flat(vert, idx, n))
		return a2;
	uint32_t s = twz_nm_longest_edge(vert, idx, n, &len);
	const double *p = vert + 3 * (size_t)idx[s];
	const double *q = vert + 3 * (size_t)idx[s + 1 == n ? 0 : s + 1];
	*cx = 0.5 * (p[0] + q[0]);
	*cz = 0.5 * (p[2] + q[2]);
	return a2;
}

/* The cost of crossing from a polygon with centroid (ax, az) to one with
 * (bx, bz) over the shared edge p-q: centroid -> edge midpoint ->
 * centroid, in x-z. */
static inline double twz_nm_arc_cost(double ax, double az, double bx,
				     double bz, const double *p,
				     const double *q)
{
	double mx = 0.5 * (p[0] + q[0]), mz = 0.5 * (p[2] + q[2]);

	return hypot(mx - ax, mz - az) + hypot(bx - mx, bz - mz);
}

/* Whether (x, z) lies in the convex polygon idx[0..n), boundary
 * included, whichever its winding (sign: its signed area's sign). eps is
 * the slack in area2 units relative to each edge's length. */
static inline int twz_nm_poly_contains(const double *vert,
				       const uint32_t *idx, uint32_t n,
				       double sign, double x, double z)
{
	double pt[3] = { x, 0, z };

	for (uint32_t i = 0; i < n; i++) {
		const double *a = vert + 3 * (size_t)idx[i];
		const double *b = vert + 3 * (size_t)idx[i + 1 == n ? 0 : i + 1];
		double len = twz_nm_dist2d(a, b);
		/* Slack of about 1e-9 of the edge's size against rounding:
		 * a point on a shared edge belongs to both polygons. */
		if (sign * twz_nm_area2(a, b, pt) < -1e-9 * len * (len + 1))
			return 0;
	}
	return 1;
}

/* The height of the polygon idx[0..n) at (x, z): the plane of the fan
 * triangle idx[0], idx[i], idx[i+1] that holds the point (the nearest
 * one when none does), the first vertex's height for a flat sliver. */
static inline double twz_nm_poly_height(const double *vert,
					const uint32_t *idx, uint32_t n,
					double x, double z)
{
	const double *o = vert + 3 * (size_t)idx[0];
	double pt[3] = { x, 0, z }, best = o[1], best_out = INFINITY;

	for (uint32_t i = 1; i + 1 < n; i++) {
		const double *p = vert + 3 * (size_t)idx[i];
		const double *q = vert + 3 * (size_t)idx[i + 1];
		double a = twz_nm_area2(o, p, q);
		if (a == 0)
			continue;
		/* Barycentric weights of p and q. */
		double u = twz_nm_area2(o, pt, q) / a;
		double v = twz_nm_area2(o, p, pt) / a;
		double w = 1 - u - v;
		double out = 0;
		if (u < 0) out -= u;
		if (v < 0) out -= v;
		if (w < 0) out -= w;
		if (out < best_out) {
			best_out = out;
			best = w * o[1] + u * p[1] + v * q[1];
		}
		if (out == 0)
			break;
	}
	return best;
}

#endif
