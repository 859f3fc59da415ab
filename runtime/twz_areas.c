/*
 * twz_areas.c - the public calls about areas (twigz.h, "areas"): their
 * names and costs, and the areas under a node, from what open decoded.
 */
#include "twz_db.h"

#include <string.h>

unsigned twz_area_count(const twz_db *db)
{
	return db ? db->area_count : 0;
}

twz_status twz_area_find(const twz_db *db, const char *name, unsigned *area)
{
	if (!db || !name || !area)
		return TWZ_E_ARGUMENT;
	for (unsigned a = 0; a < db->area_count; a++)
		if (!strcmp(db->area_name[a], name)) {
			*area = a;
			return TWZ_OK;
		}
	return TWZ_E_ARGUMENT;
}

twz_status twz_area_info(const twz_db *db, unsigned area, const char **name,
			 double *cost)
{
	if (!db || area >= db->area_count)
		return TWZ_E_ARGUMENT;
	if (name)
		*name = db->area_name[area];
	if (cost)
		*cost = db->area_milli[area] / 1000.0;
	return TWZ_OK;
}

twz_status twz_node_areas(const twz_db *db, twz_node n, uint64_t *areas)
{
	if (!db || !areas || n >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	*areas = db->node_areas ? db->node_areas[n] : 0;
	return TWZ_OK;
}
