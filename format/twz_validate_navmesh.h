/*
 * twz_validate_navmesh.h - the validator of a navmesh database's own
 * sections (FORMAT.md, "Navmesh sections"), as twz_validate.c and the
 * reader call it: raw-size bounds before a section is inflated, and the
 * content checks, run after the graph's.
 */
#ifndef TWZ_VALIDATE_NAVMESH_H
#define TWZ_VALIDATE_NAVMESH_H

#include "twz_validate.h"

/* NAVMESH_PARAMS, decoded. */
struct twz_navmesh_params {
	uint32_t vertices, polys, indices, arcs;
	uint32_t cols, rows, entries, max_verts;
	double ox, oz, cell, scale;
};

/* The largest raw size a navmesh section may claim, from the header
 * alone (*exact: the only size it may have); UINT64_MAX for other
 * kinds. */
uint64_t twz_navmesh_section_limit(const struct twz_container *c,
				   uint32_t kind, int *exact);

/* Step 2 for a navmesh file, after the graph's checks: N1 to N7. */
twz_status twz_validate_navmesh(const struct twz_container *c,
				const struct twz_content *v);

#endif
