/*
 * level_costs.h - areas and their costs (`twigz build LEVEL --costs
 * FILE`, FORMAT.md section 5k): the cost table a designer writes, and
 * what it makes of a level's places. A grid's areas are its cell letters,
 * a navmesh's the material (usemtl) or group (g) names of its faces.
 */
#ifndef LEVEL_COSTS_H
#define LEVEL_COSTS_H

#include <stdint.h>

#include "level_map.h"
#include "twz_costs_format.h"
#include "twz_error.h"

/* A costs file: one `NAME COST` a line, COST a decimal multiplier of at
 * most three decimals from 0.001 to 1000, or `blocked`; blank lines and
 * lines starting with '#' skipped. */
struct twz_cost_table {
	unsigned count;
	char name[TWZ_AREA_LIMIT][TWZ_AREA_NAME_BYTES];
	uint32_t milli[TWZ_AREA_LIMIT];    /* thousandths; 0: blocked */
};

/* 0, or -1 with err set to "FILE:LINE: problem". */
int twz_cost_table_load(const char *path, struct twz_cost_table *t,
			struct twz_error *err);

/* What a level's places are: its areas, their costs, each place's area. */
struct twz_level_costs {
	unsigned area_count;
	char area_name[TWZ_AREA_LIMIT][TWZ_AREA_NAME_BYTES];
	uint32_t area_milli[TWZ_AREA_LIMIT];
	uint32_t places;         /* a grid's cells, a navmesh's faces */
	uint8_t *place_area;     /* [places]: its area, TWZ_AREA_NONE for a
				    wall (a blocked area) */
	uint32_t *place_milli;   /* [places]: its area's cost (0: a wall) */
};

/*
 * A grid's areas from its letters ([height][width], as the file has
 * them) and the cost table t: a letter the table lists is walkable at its
 * cost, or a wall when `blocked`; one it does not list keeps its kind
 * (. G S walkable at cost 1, @ O T W walls). g's walkable cells follow.
 * The areas are the walkable letters the grid holds, in the order
 * . G S @ O T W. name names the table in messages. 0, or -1 with err set.
 */
int twz_grid_costs(struct twz_grid *g, const uint8_t *letters,
		   const struct twz_cost_table *t, const char *name,
		   struct twz_level_costs *out, struct twz_error *err);

/* A navmesh's areas: face f is in group[f] of the names (group_count of
 * them, in the file's order of first use; NULL: every face in one area
 * called "default"); the table sets their costs as for grids (a blocked
 * area's faces keep their place but no arc reaches them). */
int twz_navmesh_costs(uint32_t faces, const uint32_t *group,
		      char (*group_name)[TWZ_AREA_NAME_BYTES],
		      unsigned group_count, const struct twz_cost_table *t,
		      const char *name, struct twz_level_costs *out,
		      struct twz_error *err);

void twz_level_costs_free(struct twz_level_costs *lc);

/* The AREAS and PLACE_AREA sections' bytes (malloc'd; NULL out of
 * memory). */
uint8_t *twz_areas_section(const struct twz_level_costs *lc, size_t *size);

#endif /* LEVEL_COSTS_H */
