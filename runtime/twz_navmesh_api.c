/*
 * twz_navmesh_api.c - the public calls of navmesh databases (twigz.h,
 * "Navmesh levels"): argument checks, float <-> double at the door, and
 * the geometry of twz_navmesh.c; the mesh is decoded at open
 * (twz__navmesh_open) and freed at close.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "twz_db.h"
#include "twz_navmesh.h"
#include "twz_graph_format.h"
#include "twz_navmesh_format.h"

twz_status twz__navmesh_open(struct twz_db *db)
{
	if (db->c.level_kind != TWZ_LEVEL_NAVMESH)
		return TWZ_OK;
	struct twz_nm *nm = calloc(1, sizeof *nm);
	if (!nm)
		return TWZ_E_NOMEM;
	twz_status st = twz__nm_init(nm, db->content.data,
				     db->content.data[TWZ_SECTION_GRAPH_NODE_ID]);
	if (st != TWZ_OK) {
		free(nm);
		return st;
	}
	db->navmesh = nm;
	return TWZ_OK;
}

void twz__navmesh_close(struct twz_db *db)
{
	if (db->navmesh) {
		twz__nm_fini(db->navmesh);
		free(db->navmesh);
		db->navmesh = NULL;
	}
}

static int finite3(const float *p)
{
	return p && isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]);
}

twz_node twz_navmesh_locate(const twz_db *db, const float pos[3])
{
	if (!db || !db->navmesh || !finite3(pos))
		return TWZ_NONE;
	uint32_t p = twz__nm_locate(db->navmesh, pos[0], pos[1], pos[2]);
	return p == TWZ_NONE ? TWZ_NONE : db->navmesh->poly_node[p];
}

twz_status twz_navmesh_nearest(const twz_db *db, const float pos[3],
			       float max_dist, twz_node *poly,
			       float nearest[3])
{
	double pt[3];

	if (poly)
		*poly = TWZ_NONE;
	if (!db || !db->navmesh || !finite3(pos) || !poly || !(max_dist >= 0))
		return TWZ_E_ARGUMENT;
	uint32_t p = twz__nm_nearest(db->navmesh, pos[0], pos[1], pos[2],
				     max_dist, pt, NULL, NULL);
	if (p == TWZ_NONE)
		return TWZ_E_OUT_OF_RANGE;
	*poly = db->navmesh->poly_node[p];
	if (nearest)
		for (int a = 0; a < 3; a++)
			nearest[a] = (float)pt[a];
	return TWZ_OK;
}

/* Whether every node of a corridor is valid. */
static int corridor_ok(const twz_db *db, const twz_node *c, size_t n)
{
	if (!c || n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (c[i] >= db->navmesh->poly_count)
			return 0;
	return 1;
}

twz_status twz_navmesh_waypoints(const twz_db *db, const float start[3],
				 const float goal[3], const twz_node *corridor,
				 size_t len, unsigned mode, float (*points)[3],
				 size_t cap, size_t *count)
{
	if (count)
		*count = 0;
	if (!db || !db->navmesh || !finite3(start) || !finite3(goal) ||
	    !count || (cap && !points) || mode > TWZ_WAYPOINTS_MIDPOINTS ||
	    !corridor_ok(db, corridor, len))
		return TWZ_E_ARGUMENT;
	double s[3] = { start[0], start[1], start[2] };
	double g[3] = { goal[0], goal[1], goal[2] };
	return twz__nm_waypoints(db->navmesh, s, g, corridor, len,
				 mode == TWZ_WAYPOINTS_FUNNEL, points, cap, count);
}

twz_status twz_navmesh_cost(const twz_db *db, const twz_node *corridor,
			    size_t len, double *cost)
{
	if (!db || !db->navmesh || !cost || !corridor_ok(db, corridor, len))
		return TWZ_E_ARGUMENT;
	double c = twz__nm_corridor_cost(db->navmesh, corridor, len);
	if (c < 0)
		return TWZ_E_ARGUMENT;
	*cost = c;
	return TWZ_OK;
}

twz_status twz_navmesh_polygon(const twz_db *db, twz_node poly,
			       float (*verts)[3], size_t cap, size_t *count)
{
	if (count)
		*count = 0;
	if (!db || !db->navmesh || !count || poly >= db->navmesh->poly_count ||
	    (cap && !verts))
		return TWZ_E_ARGUMENT;
	const struct twz_nm *nm = db->navmesh;
	uint32_t p = nm->node_poly[poly];
	uint32_t lo = nm->poly_first[p], n = nm->poly_first[p + 1] - lo;
	for (uint32_t i = 0; i < n && i < cap; i++)
		for (int a = 0; a < 3; a++)
			verts[i][a] = (float)nm->vert[3 * (size_t)nm->poly_vert[lo + i] + a];
	*count = n;
	return n > cap ? TWZ_E_BUFFER_TOO_SMALL : TWZ_OK;
}

twz_status twz_navmesh_portal(const twz_db *db, twz_node a, twz_node b,
			      float left[3], float right[3])
{
	uint32_t l, r;

	if (!db || !db->navmesh || a >= db->navmesh->poly_count ||
	    b >= db->navmesh->poly_count || !left || !right)
		return TWZ_E_ARGUMENT;
	const struct twz_nm *nm = db->navmesh;
	if (twz__nm_portal(nm, nm->node_poly[a], nm->node_poly[b], &l, &r) < 0)
		return TWZ_E_ARGUMENT;
	for (int k = 0; k < 3; k++) {
		left[k] = (float)nm->vert[3 * (size_t)l + k];
		right[k] = (float)nm->vert[3 * (size_t)r + k];
	}
	return TWZ_OK;
}

twz_status twz_navmesh_path(const twz_db *db, const float start[3],
			    const float goal[3], unsigned mode,
			    twz_node *corridor, size_t corridor_cap,
			    size_t *corridor_len, float (*points)[3],
			    size_t points_cap, size_t *points_len)
{
	size_t clen = 0;

	if (corridor_len)
		*corridor_len = 0;
	if (points_len)
		*points_len = 0;
	if (!db || !db->navmesh || !corridor_len || !points_len ||
	    mode > TWZ_WAYPOINTS_MIDPOINTS || (corridor_cap && !corridor))
		return TWZ_E_ARGUMENT;
	twz_node s = twz_navmesh_locate(db, start);
	twz_node t = twz_navmesh_locate(db, goal);
	if (!finite3(start) || !finite3(goal))
		return TWZ_E_ARGUMENT;
	if (s == TWZ_NONE)
		return TWZ_E_START_OFF;
	if (t == TWZ_NONE)
		return TWZ_E_GOAL_OFF;
	twz_status st = twz_path(db, s, t, corridor, corridor_cap, &clen);
	*corridor_len = clen;
	if (st != TWZ_OK)
		return st;
	return twz_navmesh_waypoints(db, start, goal, corridor, clen, mode,
				     points, points_cap, points_len);
}

double twz_navmesh_scale(const twz_db *db)
{
	return db && db->navmesh ? db->navmesh->scale : 0;
}

twz_status twz_navmesh_find_path(const twz_db *db, twz_scratch *sc,
				 const twz_filter *f, const float start[3],
				 const float goal[3], unsigned mode,
				 uint64_t budget, twz_node *corridor,
				 size_t corridor_cap, size_t *corridor_len,
				 float (*points)[3], size_t points_cap,
				 size_t *points_len)
{
	size_t clen = 0;

	if (corridor_len)
		*corridor_len = 0;
	if (points_len)
		*points_len = 0;
	if (!db || !db->navmesh || !corridor_len || !points_len ||
	    mode > TWZ_WAYPOINTS_MIDPOINTS || (corridor_cap && !corridor) ||
	    !finite3(start) || !finite3(goal))
		return TWZ_E_ARGUMENT;
	twz_node s = twz_navmesh_locate(db, start);
	twz_node t = twz_navmesh_locate(db, goal);
	if (s == TWZ_NONE)
		return TWZ_E_START_OFF;
	if (t == TWZ_NONE)
		return TWZ_E_GOAL_OFF;
	twz_status st = twz_find_path(db, sc, f, s, t, budget, corridor,
				      corridor_cap, &clen, NULL);
	*corridor_len = clen;
	if (st != TWZ_OK)
		return st;
	return twz_navmesh_waypoints(db, start, goal, corridor, clen, mode,
				     points, points_cap, points_len);
}
