/*
 * closed_cells.h - the places a `--closed FILE` shuts right now (doors,
 * rubble), read for `twigz query` and `twigz render`: a grid's cells (one
 * "x y" a line, turned into the node bitmap twz_path_closed and
 * twz_flow_field_live read, or shut in a twz_world), a graph's vertices,
 * a navmesh's faces or boxes.
 */
#ifndef CLOSED_CELLS_H
#define CLOSED_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include "twigz.h"
#include "twz_error.h"

struct twz_closed_cells {
	uint32_t *xy;             /* x0, y0, x1, y1, ... */
	size_t count;             /* cells, in file order (repeats kept) */
};

/*
 * Read a closed-cells file for a width x height map: one cell a line as
 * two whole numbers "x y" (x the column, y the row, from 0) separated by
 * spaces or tabs; blank lines and lines starting with '#' are skipped.
 * A malformed line or a cell off the map is refused. 0, or -1 with err
 * set to "FILE:LINE: problem" (or "FILE: problem").
 */
int twz_closed_cells_load(const char *path, uint32_t width,
			  uint32_t height, struct twz_closed_cells *out,
			  struct twz_error *err);
void twz_closed_cells_free(struct twz_closed_cells *c);

/* A malloc'd node bitmap of db (TWZ_CLOSED_BYTES of its node count) with
 * the nodes of these cells set; a listed wall has no node and is skipped.
 * NULL when out of memory. */
uint8_t *twz_closed_cells_bits(const struct twz_closed_cells *c,
			       const twz_db *db);

/*
 * Shut the places a `--closed FILE` lists in w, a world of db's file, in
 * the level's own terms: a grid's cells ("x y", as above), a graph's
 * vertex ids (one a line, as the .gr file numbers them) and off-mesh
 * links ("link K", K the link's place among the links file's links,
 * from 0), a navmesh's
 * faces (one index a line, from 0, as the OBJ file orders them) or boxes
 * ("box X0 Y0 Z0 X1 Y1 Z1": the polygons they overlap). Blank lines and
 * lines starting with '#' are skipped; anything else, and a place the
 * level does not have, is refused. 0, or -1 with err set to "FILE:LINE:
 * problem".
 */
int twz_closed_places_shut(const char *path, const twz_db *db, twz_world *w,
			   struct twz_error *err);

#endif
