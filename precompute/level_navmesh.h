/*
 * level_navmesh.h - navmesh levels from Wavefront OBJ: `v x y z` vertices
 * (y up, the walk in the x-z plane, heights kept) and `f` faces, convex
 * polygons of 3 or more vertices in either winding. Faces sharing an edge
 * (the same two vertex indices) are adjacent. The reader checks the mesh
 * and builds its graph: one node per face, in file order, and an arc
 * across each shared edge both ways, costing centroid -> edge midpoint ->
 * centroid in x-z (twz_navmesh_geom.h). A face of zero area is kept only
 * as a sliver along a neighbour's edge (a Recast fan's triangle at a
 * straight vertex; FORMAT.md 5f), its centre its longest edge's
 * midpoint.
 */
#ifndef LEVEL_NAVMESH_H
#define LEVEL_NAVMESH_H

#include <stddef.h>
#include <stdint.h>

#include "twz_error.h"

/* Limits, refused with a message beyond them. */
#define TWZ_NAVMESH_MAX_VERTICES (1u << 26)
#define TWZ_NAVMESH_MAX_POLYS (1u << 24)
#define TWZ_NAVMESH_MAX_POLY_VERTS 255u
/* Arc keys are scaled so the sum of every arc's key stays below this:
 * any path's cost, and any sum of two, is an exact integer in a u64 and
 * in a double (the dense solvers keep distances as doubles). */
#define TWZ_NAVMESH_KEY_BUDGET ((double)(1ull << 52))

struct twz_navmesh {
	uint32_t vertex_count;
	double *vert;          /* [vertex_count * 3]: x, y, z */
	uint32_t poly_count;
	uint32_t *poly_first;  /* [poly_count + 1]: into poly_vert */
	uint32_t *poly_vert;   /* the faces' vertex ids, as the file lists them */
	uint32_t *poly_line;   /* [poly_count]: the line of each face */
	double *centroid;      /* [poly_count * 2]: x, z of the area centroid
				  (a sliver: its span's midpoint) */
	double *area2;         /* [poly_count]: twice the signed x-z area */
	/* Arcs by tail polygon (CSR), in the order of the tail's edges. Two
	 * faces sharing more than one edge get one arc each way, over the
	 * cheapest edge. */
	uint32_t arc_count;
	uint32_t *arc_first;   /* [poly_count + 1] */
	uint32_t *arc_head;    /* [arc_count] */
	uint32_t *arc_left;    /* [arc_count]: portal vertex on the left walking
				  tail -> head (twz_nm_area2 sense) */
	uint32_t *arc_right;   /* [arc_count] */
	double *arc_cost;      /* [arc_count]: the cost in x-z */
	uint64_t *arc_key;     /* [arc_count]: round(cost * scale), >= 1 */
	double scale;          /* a power of two (TWZ_NAVMESH_KEY_BUDGET) */
	double min[3], max[3]; /* bounding box of the faces' vertices */
	uint64_t level_hash;   /* twz_level_hash of the file bytes */
	/* Areas: each face's material (usemtl) or group (g), whichever
	 * statement came last before it ("default" before any), names cut
	 * to 31 bytes, in the order of first use. */
	uint32_t *poly_group;  /* [poly_count] */
	char (*group_name)[32];
	uint32_t group_count;
};

struct twz_level_costs;

/* Weigh m's arcs by its faces' areas (level_costs.h): an arc costs the
 * half of it in its tail times the tail's multiplier plus the half in
 * its head times the head's; arcs into or out of a blocked face go. The
 * keys and scale follow, by the rule of an unweighed mesh. 0, or -1 out
 * of memory (err set). */
int twz_navmesh_weigh(struct twz_navmesh *m, const struct twz_level_costs *lc,
		      const char *name, struct twz_error *err);

/* Parse a mesh from memory (buf NUL-terminated at len); name is used in
 * messages "NAME:LINE: problem". 0 on success. */
int twz_navmesh_parse(const uint8_t *buf, size_t len, const char *name,
		      struct twz_navmesh *m, struct twz_error *err);

/* Read and parse an OBJ file. 0 on success. */
int twz_navmesh_load(const char *path, struct twz_navmesh *m,
		     struct twz_error *err);

void twz_navmesh_free(struct twz_navmesh *m);

/* Whether a level path names an OBJ mesh (ends in .obj, any case). */
int twz_navmesh_is_obj_path(const char *path);

#endif
