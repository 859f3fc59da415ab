/*
 * clearance.h - the clearance map of a grid level: for each cell, the
 * side of the largest all-walkable square that has the cell as its corner
 * of lowest x and lowest y (0 on a blocked cell). An agent of size k
 * stands on the cells of clearance k or more (clearance.c).
 */
#ifndef CLEARANCE_H
#define CLEARANCE_H

#include <stdint.h>

#include "level_map.h"
#include "twz_error.h"

/* Clearances are capped here: more than any agent size needs. */
#define TWZ_CLEARANCE_MAX 255u

/* g's clearance map, [height][width] (malloc'd, NULL out of memory),
 * each value capped at TWZ_CLEARANCE_MAX. */
uint8_t *twz_clearance_map(const struct twz_grid *g);

/* The level as an agent of size k sees it: walkable where the clearance
 * is at least k, with g's size and level hash. 0, or -1 out of memory
 * (err set, name prefixing the message). */
int twz_grid_for_agent(const struct twz_grid *g, const uint8_t *clearance,
		       unsigned k, struct twz_grid *out, const char *name,
		       struct twz_error *err);

#endif
