/*
 * twz_navmesh.h - the runtime's navmesh geometry (private): the mesh of a
 * navmesh database decoded at open into native arrays, and what queries
 * do with it: find the polygon holding a point or the nearest one, the
 * portal between two adjacent polygons, a corridor's cost, and the
 * waypoints of a corridor (portal midpoints, or pulled tight by the
 * funnel algorithm). Nothing here allocates after twz__nm_init.
 */
#ifndef TWZ_NAVMESH_H
#define TWZ_NAVMESH_H

#include <stddef.h>
#include <stdint.h>

#include "twigz.h"

struct twz_nm {
	uint32_t vertex_count;
	uint32_t poly_count;
	uint32_t arc_count;
	uint32_t max_poly_verts;
	double *vert;          /* [vertex_count * 3] */
	uint32_t *poly_first;  /* [poly_count + 1] */
	uint32_t *poly_vert;
	double *centroid;      /* [poly_count * 2], derived */
	double *sign;          /* [poly_count]: +1 counter-clockwise, -1
				  clockwise, 0 a sliver (no area) */
	uint32_t *arc_first;   /* [poly_count + 1] */
	uint32_t *arc_head;
	uint32_t *arc_left;
	uint32_t *arc_right;
	/* The spatial index: a cols x rows grid of square cells of side
	 * cell from (origin_x, origin_z), each listing the polygons whose
	 * x-z bounding box meets it, ascending. */
	double origin_x, origin_z, cell;
	uint32_t cols, rows;
	uint32_t *cell_first;  /* [cols * rows + 1] */
	uint32_t *cell_poly;
	double scale;          /* arc keys per unit of cost */
	/* The graph's nodes are the polygons in another order. */
	uint32_t *node_poly;   /* [poly_count]: face index of a node */
	uint32_t *poly_node;   /* [poly_count]: node of a face */
};

/* Decode the navmesh sections (validated, data by section kind) and the
 * graph's NODE_ID into nm. TWZ_E_NOMEM, or TWZ_E_DAMAGED for a polygon
 * of zero area. */
twz_status twz__nm_init(struct twz_nm *nm, const uint8_t *const *data,
			const uint8_t *node_id);
void twz__nm_fini(struct twz_nm *nm);

/* Polygons below are face indices; corridors are the graph's nodes. */

/* The polygon whose x-z projection holds (x, z), the nearest in height
 * to y when several do (ties: the lower index); TWZ_NONE when none. */
uint32_t twz__nm_locate(const struct twz_nm *nm, double x, double y, double z);

/* The polygon nearest (x, y, z) in 3D, measured to its closest point
 * (nearest in x-z, at the polygon's height there), within max_dist,
 * among those counts(ctx, poly) accepts (counts NULL: all); pt gets
 * that point. TWZ_NONE when none is that near. */
uint32_t twz__nm_nearest(const struct twz_nm *nm, double x, double y,
			 double z, double max_dist, double *pt,
			 int (*counts)(const void *ctx, uint32_t poly),
			 const void *ctx);

/* The arc a -> b: its portal's left and right vertex ids. -1 when the
 * two are not adjacent. */
int twz__nm_portal(const struct twz_nm *nm, uint32_t a, uint32_t b,
		   uint32_t *left, uint32_t *right);

/* Cost of a corridor (valid nodes), from the geometry: -1 when two
 * consecutive polygons are not adjacent. */
double twz__nm_corridor_cost(const struct twz_nm *nm, const twz_node *poly,
			     size_t n);

/* Waypoints from start to goal through the corridor poly[0..n) (n >= 1,
 * valid nodes),
 * funnel (tight) or midpoints; at most n + 1 of them. TWZ_E_ARGUMENT
 * when two consecutive polygons are not adjacent. */
twz_status twz__nm_waypoints(const struct twz_nm *nm, const double *start,
			     const double *goal, const twz_node *poly,
			     size_t n, int funnel, float (*out)[3],
			     size_t cap, size_t *count);

/* Polygon p's centre: its centroid in x-z, at its height there. */
void twz__nm_centre(const struct twz_nm *nm, uint32_t p, double pos[3]);

/* Whether polygon p holds (x, z) (boundary included). */
int twz__nm_contains(const struct twz_nm *nm, uint32_t p, double x, double z);

/* Whether the segment a -> b in x-z, a in polygon p, stays on the mesh
 * through polygons open(ctx, poly) accepts, until it enters goal (or,
 * goal TWZ_NONE, a polygon holding b): the polygons it crosses, entered
 * by their shared edges. */
int twz__nm_ray(const struct twz_nm *nm, uint32_t p, const double *a,
		const double *b, uint32_t goal,
		int (*open)(const void *ctx, uint32_t poly), const void *ctx);

#endif
