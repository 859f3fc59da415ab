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

#endif
