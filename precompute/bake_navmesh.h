/*
 * bake_navmesh.h - a navmesh level as a database: the polygon graph of
 * level_navmesh.h baked by the graph CPD (bake_graph.h), with the
 * navmesh's own sections (twz_navmesh_format.h): vertices, polygons,
 * portals and the spatial grid.
 */
#ifndef BAKE_NAVMESH_H
#define BAKE_NAVMESH_H

#include <stddef.h>
#include <stdint.h>

#include "bake.h"
#include "level_navmesh.h"
#include "twz_error.h"

/* The spatial grid of a mesh: cols x rows square cells of side cell from
 * (ox, oz), each listing (ascending) the polygons whose index box
 * (twz_nm_poly_box) meets it. */
struct twz_navmesh_index {
	double ox, oz, cell;
	uint32_t cols, rows;
	uint32_t *cell_first;   /* [cols * rows + 1] */
	uint32_t *cell_poly;    /* [entries] */
	uint32_t entries;
};

/* Build m's grid: about one polygon a cell, coarser when polygons span
 * many cells. 0, or -1 out of memory. */
int twz_navmesh_index_build(const struct twz_navmesh *m,
			    struct twz_navmesh_index *ix);
void twz_navmesh_index_free(struct twz_navmesh_index *ix);

/* Bake m with opt and write it to path (or into *buf, *len when path is
 * NULL). 0 on success. */
int twz_bake_navmesh(const struct twz_navmesh *m,
		     const struct twz_bake_options *opt, const char *path,
		     uint8_t **buf, size_t *len, struct twz_error *err);

#endif
