/*
 * search_costed.h - the first-move search of a grid whose areas cost
 * more (FORMAT.md 5k): one Dijkstra per source over the grid's moves,
 * each move costing (M_u + M_v) units of 1/2000 cell times its length
 * (M: the two cells' multipliers, thousandths), exact as a + b sqrt(2)
 * (twz_cost.h). Like first_moves.h it finds, for every target of the
 * source's region, the complete set of optimal first moves, so the same
 * row encoder and layouts serve; a plain binary heap stands in for the
 * bucket ring, whose buckets assume moves of length 1 and sqrt(2).
 */
#ifndef SEARCH_COSTED_H
#define SEARCH_COSTED_H

#include <stdint.h>

#include "graph.h"
#include "twz_cost.h"

struct twz_costed_item;

struct twz_costed_search {
	const struct twz_graph *graph;
	const uint32_t *cell_milli;    /* [cells]: multipliers, thousandths */
	/* Results, by node id. */
	struct twz__cost *cost;        /* [node_count] */
	uint8_t *moves;                /* [node_count]: optimal first moves */
	/* Working state. */
	uint32_t *stamp;               /* [node_count]: 2 gen reached, + 1
					  settled */
	uint32_t generation;
	struct twz_costed_item *heap;  /* [node_count * 8 + 1] */
};

int twz_costed_init(struct twz_costed_search *cs, const struct twz_graph *gr,
		    const uint32_t *cell_milli);
void twz_costed_free(struct twz_costed_search *cs);

/* Search from source: afterwards moves[t] and cost[t] hold every target
 * t's optimal first moves (0 for t == source) and exact cost; other
 * regions' entries are undefined. 0, or -1 out of memory. */
int twz_costed_run(struct twz_costed_search *cs, uint32_t source);

#endif
