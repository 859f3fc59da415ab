/*
 * twz_navmesh_format.h - the sections of a navmesh database (format 1.4,
 * level kind TWZ_LEVEL_NAVMESH, feature bit 4): the polygons, their
 * portals and the spatial index. FORMAT.md, "Navmesh sections", is the
 * spec; format/twz_validate_navmesh.c checks them at open.
 */
#ifndef TWZ_NAVMESH_FORMAT_H
#define TWZ_NAVMESH_FORMAT_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "twigz.h"
#include "twz_format.h"

#define TWZ_FEATURE_NAVMESH (1u << 4)

enum twz_navmesh_section_kind {
	TWZ_SECTION_NAVMESH_PARAMS = 64,     /* TWZ_NP_SIZE bytes, below */
	TWZ_SECTION_NAVMESH_VERTICES = 65,   /* f64[3] a vertex: x, y, z */
	TWZ_SECTION_NAVMESH_POLYS = 66,      /* u32[polys + 1]: first index */
	TWZ_SECTION_NAVMESH_POLY_VERTS = 67, /* u32[indices]: vertex ids */
	TWZ_SECTION_NAVMESH_ARC_FIRST = 68,  /* u32[polys + 1]: first arc */
	TWZ_SECTION_NAVMESH_PORTALS = 69,    /* TWZ_NA_SIZE bytes an arc */
	TWZ_SECTION_NAVMESH_CELLS = 70,      /* u32[cols * rows + 1] */
	TWZ_SECTION_NAVMESH_CELL_POLYS = 71, /* u32[entries]: polygon ids */
};
#define TWZ_SECTION_NAVMESH_FIRST 64
#define TWZ_SECTION_NAVMESH_MAX 71

/* NAVMESH_PARAMS fields (byte offsets). */
#define TWZ_NP_VERTICES 0      /* u32  vertices */
#define TWZ_NP_POLYS 4         /* u32  polygons (= the header's nodes) */
#define TWZ_NP_INDICES 8       /* u32  entries of POLY_VERTS */
#define TWZ_NP_ARCS 12         /* u32  arcs */
#define TWZ_NP_COLS 16         /* u32  spatial grid columns (along x) */
#define TWZ_NP_ROWS 20         /* u32  spatial grid rows (along z) */
#define TWZ_NP_ENTRIES 24      /* u32  entries of CELL_POLYS */
#define TWZ_NP_MAX_VERTS 28    /* u32  most vertices of one polygon */
#define TWZ_NP_ORIGIN_X 32     /* f64  the grid's corner */
#define TWZ_NP_ORIGIN_Z 40     /* f64 */
#define TWZ_NP_CELL 48         /* f64  cell side, > 0 */
#define TWZ_NP_SCALE 56        /* f64  arc keys per unit of cost */
#define TWZ_NP_SIZE 64

/* A portal (NAVMESH_PORTALS): the arc's head polygon and its shared
 * edge's two vertices, left and right seen walking tail -> head. */
#define TWZ_NA_HEAD 0
#define TWZ_NA_LEFT 4
#define TWZ_NA_RIGHT 8
#define TWZ_NA_SIZE 12

/* Limits a file is held to. */
#define TWZ_NAVMESH_FILE_MAX_VERTICES (1u << 26)
#define TWZ_NAVMESH_FILE_MAX_POLY_VERTS 255u
#define TWZ_NAVMESH_COORD_LIMIT 1e12

static inline double twz_lef64(const uint8_t *p)
{
	uint64_t u = twz_le64(p);
	double d;

	memcpy(&d, &u, sizeof d);
	return d;
}

static inline void twz_putf64(uint8_t *p, double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof u);
	twz_put64(p, u);
}

/* A column (or row) floor(v) clamped to the grid's n. */
static inline uint32_t twz_nm_clamp(double v, uint32_t n)
{
	return !(v >= 0) ? 0 : v >= n ? n - 1 : (uint32_t)v;
}

/* The spatial grid cells a box [x0, x1] x [z0, z1] meets: columns
 * c0..c1 and rows r0..r1, each range clamped to the grid (FORMAT.md 5f),
 * so a box off the grid gets the cells of the grid's edge; returns
 * whether the box meets the grid at all. Writer and validator both ask
 * this, so they agree on every cell. */
static inline int twz_nm_cell_range(double ox, double oz, double cell,
				    uint32_t cols, uint32_t rows, double x0,
				    double x1, double z0, double z1,
				    uint32_t *c0, uint32_t *c1, uint32_t *r0,
				    uint32_t *r1)
{
	double a = floor((x0 - ox) / cell), b = floor((x1 - ox) / cell);
	double c = floor((z0 - oz) / cell), d = floor((z1 - oz) / cell);

	*c0 = twz_nm_clamp(a, cols);
	*c1 = twz_nm_clamp(b, cols);
	*r0 = twz_nm_clamp(c, rows);
	*r1 = twz_nm_clamp(d, rows);
	return b >= 0 && d >= 0 && a < cols && c < rows;
}

/* Whether the point (x, z) lies in the grid's cells, unclamped: the
 * cell a locate reads. */
static inline int twz_nm_on_grid(double ox, double oz, double cell,
				 uint32_t cols, uint32_t rows, double x,
				 double z)
{
	double cx = floor((x - ox) / cell), cz = floor((z - oz) / cell);

	return cx >= 0 && cz >= 0 && cx < cols && cz < rows;
}

/* The box a polygon is indexed by: its vertices' x-z bounds (box: x0,
 * x1, z0, z1), widened by a millionth of a cell so a point on its
 * boundary finds it. */
static inline void twz_nm_box_pad(double box[4], double cell)
{
	double pad = cell * 1e-6;

	box[0] -= pad;
	box[1] += pad;
	box[2] -= pad;
	box[3] += pad;
}

/* The spatial grid's size bounds for n polygons: cells, and entries of
 * all lists. */
#define TWZ_NAVMESH_MAX_GRID_CELLS(n) (4 * (uint64_t)(n) + 64)
#define TWZ_NAVMESH_MAX_GRID_ENTRIES(n) (16 * (uint64_t)(n) + 4096)

#endif
