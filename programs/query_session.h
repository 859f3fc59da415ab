/*
 * query_session.h - what `twigz query` and `twigz verify` share: an open
 * database with a buffer for its longest path and the scenario checked
 * against its grid, and each path found and checked move by move.
 */
#ifndef QUERY_SESSION_H
#define QUERY_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "level_scen.h"
#include "twigz.h"
#include "twz_error.h"

/* Load a scenario for db (flags: TWZ_SCEN_*) and check it fits the
 * database's grid: same size, start and goal walkable. 0 on success
 * (nothing left to free on failure). */
int twz_db_load_scen(const twz_db *db, const char *path, unsigned flags,
		     struct twz_scen *sc, struct twz_error *err);

struct twz_query_session {
	twz_db *db;               /* what queries ask: root, or its view of
				   * one agent size */
	twz_db *root;             /* the handle twz_open made */
	twz_info info;
	twz_node *buf;            /* node_count + 1 nodes */
	size_t cap;
	struct twz_scen sc;       /* empty without a scenario */
	/* Places shut right now (--closed FILE) and areas the agent stays
	 * out of (--exclude): paths go round them. */
	twz_world *world;         /* NULL without --closed */
	twz_filter filter;
	int filtered;             /* whether the filter takes anything away */
	twz_scratch *scratch;     /* made with the filter */
};

/* The database at dbpath and the scenario scen opened for an agent of
 * size agent_size (0: the file's own database): queries go to its view,
 * the scenario is checked against the file's own cells, and a start or
 * goal the agent cannot stand on is unreachable. 0, or an exit status
 * after a one-line error (nothing left open). */
int twz_session_open_agent(struct twz_query_session *qs, const char *dbpath,
			   const char *scen, unsigned scen_flags,
			   unsigned agent_size);
/* The same with a chunk cache of cache bytes (twz_open_ex; 0: none). */
int twz_session_open_cache(struct twz_query_session *qs, const char *dbpath,
			   const char *scen, unsigned scen_flags,
			   unsigned agent_size, uint64_t cache);
void twz_session_close(struct twz_query_session *qs);

/* Shut the places listed in path (closed_cells.h) for every later
 * solve, for the session's agent size. 0, or an exit status after a
 * one-line error. */
int twz_session_close_cells(struct twz_query_session *qs, const char *path);

/* Stay out of the areas named in list ("water,lava") in every later
 * solve. 0, or an exit status after a one-line error. */
int twz_session_exclude(struct twz_query_session *qs, const char *list);

/* The same for any filter of db: the areas' bits into f. */
int twz_exclude_areas(const twz_db *db, const char *list, twz_filter *f);

/* The word a JSON answer's "status" gives a status: "unreachable",
 * "start_off", "goal_off", "start_shut", "goal_shut", "out_of_range",
 * "budget", "partial", or "error" for anything else. */
const char *twz_status_word(twz_status st);

/* Whether a query's status is an answer to print (a path, or why there
 * is none), not a failure of the database or the tool. */
int twz_session_answered(twz_status st);

struct twz_path_result {
	twz_status status;
	size_t len;               /* nodes in qs->buf */
	double cost;              /* from the moves of the path itself */
	uint32_t straight;        /* the path's moves */
	uint32_t diagonal;
	int legal;                /* every step one legal move */
};

/* Find the path from (sx,sy) to (gx,gy) into qs->buf (around the closed
 * cells, when there are any) and check it step by step against the grid
 * and the closed cells. */
void twz_session_solve(struct twz_query_session *qs, uint32_t sx,
		       uint32_t sy, uint32_t gx, uint32_t gy,
		       struct twz_path_result *r);

/* Why twz_cost_exact and twz_cost disagree with the path r that
 * twz_session_solve found from (sx,sy) to (gx,gy) (or, with no path,
 * with its status), or NULL when they agree. */
const char *twz_session_cost_disagrees(const struct twz_query_session *qs,
				       uint32_t sx, uint32_t sy, uint32_t gx,
				       uint32_t gy,
				       const struct twz_path_result *r);

/* Why a walk of twz_next from (sx,sy) to (gx,gy), the way a game steps
 * along a path, does not match the path r (a crafted TRANSIT file can
 * make it loop while twz_path arrives), or NULL when it does. */
const char *twz_session_next_disagrees(const struct twz_query_session *qs,
				       uint32_t sx, uint32_t sy, uint32_t gx,
				       uint32_t gy,
				       const struct twz_path_result *r);

#endif
