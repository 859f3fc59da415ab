/*
 * twz_costs_format.h - areas and their costs (format 1.5, FORMAT.md
 * section 5k): what a level baked with `twigz build --costs FILE` adds.
 * Written by precompute/ (level_costs.c, search_costed.c,
 * bake_navmesh.c), checked by format/twz_validate_costs.c, read by
 * runtime/twz_areas.c.
 */
#ifndef TWZ_COSTS_FORMAT_H
#define TWZ_COSTS_FORMAT_H

#include <stdint.h>

#include "twz_format.h"

/* Required feature bit: a reader that does not know it would take a
 * grid's costs for move counts. */
#define TWZ_FEATURE_AREAS (1u << 9)   /* AREAS and PLACE_AREA; grid costs in
					 units of 1/2000 cell */
enum twz_costs_section_kind {
	TWZ_SECTION_AREAS = 11,       /* TWZ_AR_SIZE bytes an area */
	TWZ_SECTION_PLACE_AREA = 12,  /* u8 a place: a grid's cells (width x
				       * height), a navmesh's faces */
};
#define TWZ_SECTION_COSTS_FIRST 11
#define TWZ_SECTION_COSTS_MAX 12

/* Most areas, and an area's name (NUL-padded, at least one NUL). */
#define TWZ_AREA_LIMIT 64u
#define TWZ_AREA_NAME_BYTES 32u
/* A cost multiplier in thousandths: 1 (0.001) to 1,000,000 (1000). */
#define TWZ_AREA_MILLI_MAX 1000000u
/* The place of no area in PLACE_AREA: a wall. */
#define TWZ_AREA_NONE 0xFFu

/* An AREAS record. */
#define TWZ_AR_NAME 0       /* u8[32] name, NUL-padded */
#define TWZ_AR_MILLI 32     /* u32    cost multiplier, thousandths */
#define TWZ_AR_RESERVED 36  /* u32    zero */
#define TWZ_AR_SIZE 40

/* Grid costs in units of 1/2000 cell: a move from cell u to cell v
 * costs (M_u + M_v) whole units when straight and as many units of
 * sqrt(2) when diagonal (M: the cells' multipliers in thousandths, so
 * half the move's length lies in each cell). */
#define TWZ_GRID_COST_UNITS 2000u

#endif /* TWZ_COSTS_FORMAT_H */
