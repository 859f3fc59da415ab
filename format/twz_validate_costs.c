/*
 * twz_validate_costs.c - checks C1 to C4 of FORMAT.md section 5k: the
 * areas a file baked with --costs holds, and each place's area.
 */
#include "twz_validate.h"
#include "twz_costs_format.h"
#include "twz_graph_format.h"

#include <string.h>

/* The places a file's PLACE_AREA covers: a grid's cells, else its nodes
 * (a navmesh's faces, which its nodes are). */
static uint64_t places(const struct twz_container *c)
{
	return c->level_kind == TWZ_LEVEL_GRID
		? (uint64_t)c->width * c->height : c->node_count;
}

uint64_t twz_costs_raw_limit(const struct twz_container *c, uint32_t kind,
			     int *exact)
{
	*exact = kind == TWZ_SECTION_PLACE_AREA;
	if (kind == TWZ_SECTION_PLACE_AREA)
		return places(c);
	return (uint64_t)TWZ_AREA_LIMIT * TWZ_AR_SIZE;
}

twz_status twz_validate_costs(const struct twz_container *c,
			      const struct twz_content *v)
{
	const uint8_t *ar = v->data[TWZ_SECTION_AREAS];
	const uint8_t *pa = v->data[TWZ_SECTION_PLACE_AREA];
	int want = (c->required_features & TWZ_FEATURE_AREAS) != 0;

	/* C1: the sections come with the feature bit, and only then. */
	if (!want)
		return ar || pa ? TWZ_E_DAMAGED : TWZ_OK;
	if (!ar || !pa || c->minor < 5 ||
	    v->size[TWZ_SECTION_AREAS] % TWZ_AR_SIZE ||
	    v->size[TWZ_SECTION_PLACE_AREA] != places(c))
		return TWZ_E_DAMAGED;
	/* C2: 1 to 64 areas, names NUL-padded, unique, costs in range,
	 * reserved zero. */
	uint64_t count = v->size[TWZ_SECTION_AREAS] / TWZ_AR_SIZE;
	if (count < 1 || count > TWZ_AREA_LIMIT)
		return TWZ_E_DAMAGED;
	for (uint64_t a = 0; a < count; a++) {
		const uint8_t *r = ar + a * TWZ_AR_SIZE;
		size_t n = strnlen((const char *)r + TWZ_AR_NAME, TWZ_AREA_NAME_BYTES);
		uint32_t milli = twz_le32(r + TWZ_AR_MILLI);
		if (n == 0 || n == TWZ_AREA_NAME_BYTES || milli < 1 ||
		    milli > TWZ_AREA_MILLI_MAX)
			return TWZ_E_DAMAGED;
		for (size_t k = n; k < TWZ_AREA_NAME_BYTES; k++)
			if (r[TWZ_AR_NAME + k])
				return TWZ_E_DAMAGED;
		if (twz_le32(r + TWZ_AR_RESERVED))
			return TWZ_E_RESERVED;
		for (uint64_t b = 0; b < a; b++)
			if (!memcmp(ar + b * TWZ_AR_SIZE, r, TWZ_AREA_NAME_BYTES))
				return TWZ_E_DAMAGED;
	}
	/* C3: every place's area is one of them, or none. */
	for (uint64_t p = 0; p < places(c); p++)
		if (pa[p] != TWZ_AREA_NONE && pa[p] >= count)
			return TWZ_E_DAMAGED;
	/* C4: a grid node stands on a cell of an area. */
	const uint8_t *cn = v->data[TWZ_SECTION_CELL_NODE];
	if (c->level_kind == TWZ_LEVEL_GRID && cn) {
		int narrow = twz_narrow(c);
		for (uint64_t p = 0; p < places(c); p++)
			if (twz_cell_node_at(cn, narrow, (size_t)p) != TWZ_NODE_NONE &&
			    pa[p] == TWZ_AREA_NONE)
				return TWZ_E_DAMAGED;
	}
	return TWZ_OK;
}
