/*
 * first_moves.h - one search per source that finds, for every target of
 * the source's region, the complete set of optimal first moves (a bit per
 * move) and the exact optimal cost.
 *
 * The search is Dijkstra over grid cells with a ring of half-unit buckets.
 * A cost straight + diagonal * sqrt(2) is kept exactly as its bucket
 * 2 * straight + floor(2 * sqrt(2) * diagonal) (integer arithmetic, a
 * table of the second term) and its diagonal count, which together give
 * the straight count back. Every move costs at least 1, two buckets, so a
 * node's optimal predecessors all sit in lower buckets: draining a bucket
 * in any order settles each node after all of them, and equal costs are
 * detected exactly, so the first-move sets are complete and hold only
 * optimal moves.
 *
 * Expansion is canonical (as in jump point search): a cell keeps one set
 * of first moves per move it was entered by, and passes each set on only
 * along the moves that can follow that move on a "diagonal-first" optimal
 * path. Every optimal path from a neighbour of the source can be
 * rearranged into such a path of the same cost and the same first move,
 * so the sets stay complete with far fewer relaxations. first_moves.c
 * gives the rules and the argument.
 */
#ifndef FIRST_MOVES_H
#define FIRST_MOVES_H

#include <stdint.h>

#include "graph.h"
#include "search.h"

/* A cell's search state: its bucket and diagonal count (the cost), and
 * its first-move sets, byte d for the cells entered by move d. */
struct twz_search_cell {
	uint32_t bucket;
	uint32_t diagonal;
	uint64_t sets;
};

struct twz_search {
	const struct twz_graph *graph;
	/* Results, by node id. */
	struct twz_cost *cost;     /* [node_count] */
	uint8_t *moves;            /* [node_count]: optimal first-move bits */
	/* Working state, by cell. */
	struct twz_search_cell *cell;  /* [cells] */
	uint8_t *legal;            /* [cells]: legal moves, a bit per move */
	uint32_t *forced;          /* [cells]: byte d, the extra moves that may
				    * follow straight move d into the cell */
	uint32_t *half_sqrt8;      /* [node_count + 2]: floor(2 sqrt(2) d) */
	int32_t offset[TWZ_MOVE_COUNT]; /* cell index delta per move */
	uint64_t spread[256];      /* bit m of the index -> byte m all ones */
	struct twz_ring ring;      /* 4 buckets of cells */
};

int twz_search_init(struct twz_search *ws, const struct twz_graph *graph);
void twz_search_free(struct twz_search *ws);

/* Search from source. Afterwards, for every node t of the source's region,
 * ws->moves[t] holds its optimal first moves (0 for t == source) and
 * ws->cost[t] its cost; other regions' entries are undefined. 0 on
 * success, -1 when out of memory. */
int twz_search_run(struct twz_search *ws, uint32_t source);

#endif
