/*
 * first_moves.h - one search per source that finds, for every target of
 * the source's region, the complete set of optimal first moves (a bit per
 * move) and the exact optimal cost.
 *
 * The search is the one of search.h, by cell over the whole region, with
 * canonical expansion: every optimal first move is found with far fewer
 * relaxations than a plain Dijkstra makes.
 */
#ifndef FIRST_MOVES_H
#define FIRST_MOVES_H

#include <stdint.h>

#include "graph.h"
#include "search.h"

struct twz_search {
	const struct twz_graph *graph;
	/* Results, by node id. */
	struct twz_cost *cost;     /* [node_count] */
	uint8_t *moves;            /* [node_count]: optimal first-move bits */
	/* Working state, by cell. */
	struct twz_entry *cell;    /* [cells] */
	uint8_t *legal;            /* [cells]: legal moves, a bit per move */
	uint32_t *forced;          /* [cells]: twz_forced_moves */
	uint32_t *half_sqrt8;      /* [node_count + 2]: floor(2 sqrt(2) d) */
	int32_t offset[TWZ_MOVE_COUNT]; /* cell index delta per move */
	uint64_t spread[256];      /* twz_spread_table */
	struct twz_ring ring;      /* TWZ_STEP_RING buckets of cells */
};

int twz_search_init(struct twz_search *ws, const struct twz_graph *graph);
void twz_search_free(struct twz_search *ws);

/* Search from source. Afterwards, for every node t of the source's region,
 * ws->moves[t] holds its optimal first moves (0 for t == source) and
 * ws->cost[t] its cost; other regions' entries are undefined. 0 on
 * success, -1 when out of memory. */
int twz_search_run(struct twz_search *ws, uint32_t source);

#endif
