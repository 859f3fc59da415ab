/*
 * twz_areas.c - areas (FORMAT.md 5k): at open, every view's nodes' areas
 * and cost multipliers from the file's AREAS and PLACE_AREA; the walk of
 * a grid whose moves cost by area; and the public calls about areas
 * (twigz.h, "areas").
 */
#include "twz_backend.h"
#include "twz_costs_format.h"

#include <stdlib.h>
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

/* ---- at open: each view's areas and costs (FORMAT.md 5k) ----------------- */

twz_status twz__areas_open(twz_db *db)
{
	const twz_db *root = db->parent ? db->parent : db;
	const uint8_t *ar = root->content.data[TWZ_SECTION_AREAS];
	const uint8_t *pa = root->content.data[TWZ_SECTION_PLACE_AREA];
	uint32_t n = db->c.node_count;

	if (!(root->c.required_features & TWZ_FEATURE_AREAS) || !ar || !pa)
		return TWZ_OK;
	db->area_count = (unsigned)(root->content.size[TWZ_SECTION_AREAS] / TWZ_AR_SIZE);
	for (unsigned a = 0; a < db->area_count; a++) {
		memcpy(db->area_name[a], ar + a * TWZ_AR_SIZE + TWZ_AR_NAME,
		       TWZ_AREA_NAME_BYTES);
		db->area_milli[a] = twz_le32(ar + a * TWZ_AR_SIZE + TWZ_AR_MILLI);
	}
	db->node_areas = malloc((n ? n : 1) * sizeof *db->node_areas);
	db->node_milli = malloc((n ? n : 1) * sizeof *db->node_milli);
	if (!db->node_areas || !db->node_milli)
		return TWZ_E_NOMEM;
	db->areas_present = 0;
	db->milli_lo = UINT32_MAX;
	db->milli_hi = 0;
	for (twz_node v = 0; v < n; v++) {
		uint64_t mask = 0;
		uint32_t milli = 0;
		if (twz__is_graph(db)) {
			uint32_t face = twz_le32(db->graph.node_id + 4 * (size_t)v);
			if (pa[face] != TWZ_AREA_NONE) {
				mask = UINT64_C(1) << pa[face];
				milli = db->area_milli[pa[face]];
			}
		} else {
			/* A size-k node stands on a k x k square: every area
			 * it touches, the dearest its cost. */
			uint32_t x, y, k = db->agent_size ? db->agent_size : 1;
			twz__node_xy(db, v, &x, &y);
			for (uint32_t dy = 0; dy < k; dy++)
				for (uint32_t dx = 0; dx < k; dx++) {
					uint8_t a = pa[(size_t)(y + dy) * root->c.width + x + dx];
					if (a == TWZ_AREA_NONE)
						continue;
					mask |= UINT64_C(1) << a;
					if (db->area_milli[a] > milli)
						milli = db->area_milli[a];
				}
		}
		db->node_areas[v] = mask;
		db->node_milli[v] = milli;
		db->areas_present |= mask;
		if (milli < db->milli_lo)
			db->milli_lo = milli;
		if (milli > db->milli_hi)
			db->milli_hi = milli;
	}
	/* A grid's costs are in units of 1/2000 cell; a navmesh's arcs
	 * already hold them. */
	if (!twz__is_graph(db))
		db->cost_units = TWZ_GRID_COST_UNITS;
	else
		free(db->node_milli), db->node_milli = NULL;
	db->memory_size += (uint64_t)n * 12;
	return TWZ_OK;
}

void twz__areas_close(twz_db *db)
{
	free(db->node_areas);
	free(db->node_milli);
	db->node_areas = NULL;
	db->node_milli = NULL;
}

twz_status twz__areas_walk(const twz_db *db, twz_node s, twz_node t,
			   const struct twz_span *r, twz_node *buf, size_t cap,
			   size_t *len, uint64_t *a, uint64_t *b)
{
	struct twz_trail tr = { buf, cap, 0, 0, 0 };
	uint64_t sa = 0, sb = 0;

	for (twz_node at = s;; ) {
		twz__trail_visit(&tr, at);
		if (at == t)
			break;
		if (tr.n > db->c.node_count)
			return TWZ_E_DAMAGED;
		twz_node nx = db->backend->next(db, at, t, r);
		if (nx == TWZ_NONE)
			return TWZ_E_DAMAGED;
		uint32_t ax, ay, bx, by;
		twz__node_xy(db, at, &ax, &ay);
		twz__node_xy(db, nx, &bx, &by);
		uint64_t units = (uint64_t)db->node_milli[at] + db->node_milli[nx];
		if (ax != bx && ay != by)
			sb += units;
		else
			sa += units;
		at = nx;
	}
	if (len)
		*len = tr.n;
	*a = sa;
	*b = sb;
	return tr.n > tr.cap ? TWZ_E_BUFFER_TOO_SMALL : TWZ_OK;
}
