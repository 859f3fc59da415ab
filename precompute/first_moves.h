/*
 * first_moves.h - one search per source that finds, for every target of
 * the source's region, the complete set of optimal first moves (a bit per
 * move) and the exact optimal cost.
 *
 * The search is Dijkstra with a ring of half-unit buckets. Every move costs
 * at least 1, so a node's optimal predecessors all sit at least two buckets
 * below it: popping a bucket in any order still settles each node after all
 * of its optimal predecessors, and costs are compared exactly (graph.h), so
 * the first-move sets are complete and hold only optimal moves.
 */
#ifndef FIRST_MOVES_H
#define FIRST_MOVES_H

#include <stdint.h>

#include "graph.h"

struct twz_search {
	const struct twz_graph *graph;
	struct twz_cost *cost;     /* [node_count] */
	uint8_t *moves;            /* [node_count]: optimal first-move bits */
	uint8_t *settled;          /* [node_count] */
	uint32_t *bucket[4];       /* ring of buckets of node ids */
	uint32_t bucket_len[4];
	uint32_t bucket_cap[4];
};

int twz_search_init(struct twz_search *ws, const struct twz_graph *graph);
void twz_search_free(struct twz_search *ws);

/* Search from source. Afterwards, for every node t of the source's region,
 * ws->moves[t] holds its optimal first moves (0 for t == source) and
 * ws->cost[t] its cost; other regions' entries are undefined. 0 on
 * success, -1 when out of memory. */
int twz_search_run(struct twz_search *ws, uint32_t source);

#endif
