/*
 * query_session.c - see query_session.h.
 */
#include "query_session.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "closed_cells.h"
#include "twz_format.h"

/* A cell with a node, for the scenario check. */
static int db_walkable(const void *ctx, uint32_t x, uint32_t y)
{
	return twz_node_at(ctx, x, y) != TWZ_NONE;
}

/* The same for the corner rule, which asks off the grid too; a shut
 * place is a wall. */
static int cell_walkable(const void *ctx, int64_t x, int64_t y)
{
	const struct twz_query_session *qs = ctx;
	twz_node n = twz_node_at(qs->db, x, y);

	if (n == TWZ_NONE)
		return 0;
	return !qs->world || !twz_world_is_shut(qs->world, qs->db, n);
}

const char *twz_status_word(twz_status st)
{
	switch (st) {
	case TWZ_OK: return "ok";
	case TWZ_E_UNREACHABLE: return "unreachable";
	case TWZ_E_START_OFF: return "start_off";
	case TWZ_E_GOAL_OFF: return "goal_off";
	case TWZ_E_START_SHUT: return "start_shut";
	case TWZ_E_GOAL_SHUT: return "goal_shut";
	case TWZ_E_OUT_OF_RANGE: return "out_of_range";
	case TWZ_E_BUDGET: return "budget";
	case TWZ_PARTIAL: return "partial";
	default: return "error";
	}
}

int twz_session_answered(twz_status st)
{
	switch (st) {
	case TWZ_OK: case TWZ_E_UNREACHABLE: case TWZ_E_START_OFF:
	case TWZ_E_GOAL_OFF: case TWZ_E_START_SHUT: case TWZ_E_GOAL_SHUT:
	case TWZ_PARTIAL:
		return 1;
	default:
		return 0;
	}
}

int twz_db_load_scen(const twz_db *db, const char *path, unsigned flags,
		     struct twz_scen *sc, struct twz_error *err)
{
	twz_info info;

	twz_get_info(db, &info);
	if (twz_scen_load_flags(path, flags, sc, err) != 0)
		return -1;
	if (twz_scen_check_grid(sc, path, info.width, info.height, db_walkable,
				db, err) != 0) {
		twz_scen_free(sc);
		return -1;
	}
	return 0;
}

void twz_session_close(struct twz_query_session *qs)
{
	twz_scratch_free(qs->scratch);
	twz_world_free(qs->world);
	twz_scen_free(&qs->sc);
	free(qs->buf);
	twz_close(qs->root);
}

/* qs->db becomes the view of agent size k; 0 or an exit status. */
static int pick_agent(struct twz_query_session *qs, const char *dbpath,
		      unsigned k)
{
	const twz_db *view;
	unsigned sizes[16];
	size_t n = 0;
	char list[80] = "";

	if (twz_view_agent(qs->root, k, &view) == TWZ_OK) {
		/* The session never closes it: twz_close(qs->root) does. */
		qs->db = (twz_db *)view;
		return 0;
	}
	twz_agent_sizes(qs->root, sizes, 16, &n);
	for (size_t i = 0, len = 0; i < n && i < 16 && len < sizeof list; i++)
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%u",
					i ? "," : "", sizes[i]);
	fprintf(stderr, "twigz: %s: no database for agent size %u (it holds size%s %s)\n",
		dbpath, k, n == 1 ? "" : "s", list);
	return EXIT_INPUT;
}

int twz_session_open_agent(struct twz_query_session *qs, const char *dbpath,
			   const char *scen, unsigned scen_flags,
			   unsigned agent_size)
{
	return twz_session_open_cache(qs, dbpath, scen, scen_flags,
				      agent_size, 0);
}

int twz_session_open_cache(struct twz_query_session *qs, const char *dbpath,
			   const char *scen, unsigned scen_flags,
			   unsigned agent_size, uint64_t cache)
{
	struct twz_error err = { { 0 }, 0 };
	int rc;

	memset(qs, 0, sizeof *qs);
	rc = twz_cli_open_db_cache(dbpath, cache, &qs->root);
	if (rc)
		return rc;
	qs->db = qs->root;
	if (agent_size && (rc = pick_agent(qs, dbpath, agent_size)) != 0) {
		twz_session_close(qs);
		return rc;
	}
	twz_get_info(qs->db, &qs->info);
	qs->cap = (size_t)qs->info.node_count + 1;
	qs->buf = malloc(qs->cap * sizeof *qs->buf);
	if (!qs->buf) {
		fprintf(stderr, "twigz: out of memory\n");
		twz_session_close(qs);
		return EXIT_NOMEM;
	}
	if (scen && twz_db_load_scen(qs->root, scen, scen_flags, &qs->sc, &err) != 0) {
		twz_session_close(qs);
		return twz_cli_error(&err);
	}
	return 0;
}

/* The scratch the filtered solves search with, once. */
static int session_scratch(struct twz_query_session *qs, const char *what)
{
	twz_status st = TWZ_OK;

	qs->filtered = 1;
	if (!qs->scratch)
		st = twz_scratch_create(qs->db, &qs->scratch);
	if (st != TWZ_OK) {
		fprintf(stderr, "twigz: %s: %s\n", what, twz_strerror(st));
		return st == TWZ_E_NOMEM ? EXIT_NOMEM : EXIT_INPUT;
	}
	return 0;
}

int twz_session_close_cells(struct twz_query_session *qs, const char *path)
{
	struct twz_error err = { { 0 }, 0 };

	if (!qs->world && twz_world_create(qs->root, &qs->world) != TWZ_OK) {
		fprintf(stderr, "twigz: %s: out of memory\n", path);
		return EXIT_NOMEM;
	}
	if (twz_closed_places_shut(path, qs->root, qs->world, &err) != 0)
		return twz_cli_error(&err);
	qs->filter.world = qs->world;
	return session_scratch(qs, path);
}

int twz_exclude_areas(const twz_db *db, const char *list, twz_filter *f)
{
	const char *p = list;

	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char name[TWZ_AREA_NAME_MAX + 1];
		unsigned area;
		if (!len || len > TWZ_AREA_NAME_MAX) {
			fprintf(stderr, "twigz: --exclude: '%s' is not a list of area "
				"names\n", list);
			return EXIT_USAGE;
		}
		memcpy(name, p, len);
		name[len] = 0;
		if (twz_area_find(db, name, &area) != TWZ_OK) {
			fprintf(stderr, "twigz: --exclude: the database has no area '%s'\n",
				name);
			return EXIT_INPUT;
		}
		f->exclude_areas |= UINT64_C(1) << area;
		p += len + (comma != NULL);
	}
	return 0;
}

int twz_session_exclude(struct twz_query_session *qs, const char *list)
{
	int rc = twz_exclude_areas(qs->db, list, &qs->filter);

	return rc ? rc : session_scratch(qs, "--exclude");
}

void twz_session_solve(struct twz_query_session *qs, uint32_t sx,
		       uint32_t sy, uint32_t gx, uint32_t gy,
		       struct twz_path_result *r)
{
	const twz_db *db = qs->db;
	twz_node *buf = qs->buf;
	twz_node s = twz_node_at(db, sx, sy), t = twz_node_at(db, gx, gy);
	uint32_t straight = 0, diagonal = 0;

	/* Only an agent's view lacks cells the scenario's checks admit: a
	 * place the agent cannot stand on is none of its level. */
	if (s == TWZ_NONE || t == TWZ_NONE) {
		r->status = s == TWZ_NONE ? TWZ_E_START_OFF : TWZ_E_GOAL_OFF;
		r->len = 0;
		r->cost = 0;
		r->legal = 0;
		return;
	}
	double found = 0;
	if (qs->filtered)
		r->status = twz_find_path(db, qs->scratch, &qs->filter, s, t, 0,
					  buf, qs->cap, &r->len, &found);
	else
		r->status = twz_path(db, s, t, buf, qs->cap, &r->len);
	r->cost = 0;
	r->straight = r->diagonal = 0;
	r->legal = r->status == TWZ_OK;
	if (r->status != TWZ_OK)
		return;
	for (size_t i = 1; i < r->len; i++) {
		uint32_t x0, y0, x1, y1;
		twz_node_xy(db, buf[i - 1], &x0, &y0);
		twz_node_xy(db, buf[i], &x1, &y1);
		int64_t dx = (int64_t)x1 - x0, dy = (int64_t)y1 - y0;
		if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (!dx && !dy)) {
			r->legal = 0;
			continue;
		}
		unsigned m = twz_direction_move(TWZ_SYMBOL_TOWARD, (int32_t)dx,
						(int32_t)dy);
		if (m >= qs->info.connectivity ||
		    !twz_move_legal(cell_walkable, qs, x0, y0, m))
			r->legal = 0;
		if (twz_move_is_diagonal(m))
			diagonal++;
		else
			straight++;
	}
	if (buf[0] != s || buf[r->len - 1] != t)
		r->legal = 0;
	r->straight = straight;
	r->diagonal = diagonal;
	r->cost = straight + diagonal * 1.41421356237309504880;
	/* With areas a move costs by the cells it crosses: the runtime's. */
	if (twz_area_count(db))
		r->cost = qs->filtered ? found : twz_cost(db, s, t);
}

const char *twz_session_cost_disagrees(const struct twz_query_session *qs,
				       uint32_t sx, uint32_t sy, uint32_t gx,
				       uint32_t gy,
				       const struct twz_path_result *r)
{
	const twz_db *db = qs->db;
	twz_node s = twz_node_at(db, sx, sy), t = twz_node_at(db, gx, gy);
	uint32_t straight = 0, diagonal = 0;
	twz_status st = twz_cost_exact(db, s, t, &straight, &diagonal);
	double cost = twz_cost(db, s, t);

	if (r->status == TWZ_E_START_OFF || r->status == TWZ_E_GOAL_OFF)
		return NULL;  /* no node to ask about */
	if (r->status == TWZ_E_UNREACHABLE) {
		if (st != TWZ_E_UNREACHABLE || cost != INFINITY)
			return "twz_cost finds a path where twz_path finds none";
		return NULL;
	}
	if (r->status != TWZ_OK)
		return NULL;  /* the path's own failure says it */
	if (st != TWZ_OK)
		return twz_strerror(st);
	/* With areas the exact cost is in units, not moves. */
	if (twz_area_count(db))
		return NULL;
	if (straight != r->straight || diagonal != r->diagonal)
		return "twz_cost_exact differs from the cost of the path";
	/* The runtime's own double of the exact figures. */
	if (cost != straight + diagonal * 1.41421356237309504880)
		return "twz_cost differs from the cost of the path";
	return NULL;
}

const char *twz_session_next_disagrees(const struct twz_query_session *qs,
				       uint32_t sx, uint32_t sy, uint32_t gx,
				       uint32_t gy,
				       const struct twz_path_result *r)
{
	const twz_db *db = qs->db;
	twz_node at = twz_node_at(db, sx, sy), t = twz_node_at(db, gx, gy);
	uint32_t straight = 0, diagonal = 0;

	if (r->status != TWZ_OK)
		return NULL;
	/* An optimal path has fewer moves than there are nodes. */
	for (uint32_t k = 0; at != t; k++) {
		twz_node next = twz_next(db, at, t);
		uint32_t x0, y0, x1, y1;
		if (next == TWZ_NONE || k >= qs->info.node_count)
			return "twz_next does not lead to the goal";
		twz_node_xy(db, at, &x0, &y0);
		twz_node_xy(db, next, &x1, &y1);
		if (x0 != x1 && y0 != y1)
			diagonal++;
		else
			straight++;
		at = next;
	}
	if (straight != r->straight || diagonal != r->diagonal)
		return "twz_next walks another cost than the path";
	return NULL;
}
