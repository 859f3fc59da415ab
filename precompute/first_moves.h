/*
 * first_moves.h - one search per source that finds, for every target of
 * the source's region, its exact optimal cost and the complete set of
 * optimal first moves, over any graph of graph.h.
 *
 * The search is the one of search.h. On a grid's graph it runs by cell
 * over the ring of buckets with canonical expansion: every optimal first
 * move is found with far fewer relaxations than a plain Dijkstra makes.
 * On a graph with flat arcs it runs by node over the heap, every arc
 * relaxed; a first move is then the move an arc starts with (arc_move:
 * a junction graph), or else the arc's index among the source's, a bit
 * each, except that a source of more than TWZ_SEARCH_ARC_BITS arcs keeps
 * only its lowest optimal arc for each target.
 */
#ifndef FIRST_MOVES_H
#define FIRST_MOVES_H

#include <stdint.h>

#include "graph.h"
#include "search.h"

/* Arc indexes a source's first-move sets hold, a bit each. */
#define TWZ_SEARCH_ARC_BITS 63u

struct twz_search {
	const struct twz_graph *graph;
	int by_arcs;               /* the graph's flat arcs, not its cells */
	uint8_t *moves;            /* grid: [node_count]: optimal first-move
				      bits, by node */
	struct twz_entry *entry;   /* by cell (grid) or by node: each cost
				      key and first moves */
	/* A grid's. */
	uint8_t *legal;            /* [cells]: legal moves, a bit per move */
	uint32_t *forced;          /* [cells]: twz_forced_moves */
	int32_t offset[TWZ_MOVE_COUNT]; /* cell index delta per move */
	uint64_t spread[256];      /* twz_spread_table */
	struct twz_ring ring;      /* TWZ_STEP_RING buckets of cells */
	/* A graph with flat arcs. */
	struct twz_dist_item *heap;  /* [arc_count + 1] */
};

int twz_search_init(struct twz_search *ws, const struct twz_graph *graph);
void twz_search_free(struct twz_search *ws);

/* Search from source over its region (graph->comp_first). Then every
 * node t of the region has its cost key (twz_search_key, TWZ_KEY_NONE
 * when t is not reachable) and first moves (ws->moves[t] on a grid,
 * twz_search_first on flat arcs; none for t == source); other regions'
 * entries are undefined. 0 on success, -1 when out of memory. */
int twz_search_run(struct twz_search *ws, uint32_t source);

/* The costs alone from s over g's flat arcs, over the whole graph
 * (regions or not): dist[v], UINT64_MAX when v is unreachable. For
 * checks (twigz verify). 0, or -1 out of memory. */
int twz_search_distances(const struct twz_graph *g, uint32_t s,
			 uint64_t *dist);

/* Whether source keeps the lowest index of an optimal first arc for each
 * target, rather than the set of them (a source of many arcs). */
static inline int twz_search_lowest_arc(const struct twz_graph *g,
					uint32_t source)
{
	return !g->arc_move &&
	       g->arc_first[source + 1] - g->arc_first[source] > TWZ_SEARCH_ARC_BITS;
}

/* The cost key of node t, after twz_search_run. */
static inline uint64_t twz_search_key(const struct twz_search *ws, uint32_t t)
{
	return ws->by_arcs ? ws->entry[t].key
			   : ws->entry[ws->graph->node_cell[t]].key;
}

/* Flat arcs: t's first moves (move bits, or arc index bits), or the
 * lowest index of its optimal first arcs (twz_search_lowest_arc). */
static inline uint64_t twz_search_first(const struct twz_search *ws, uint32_t t)
{
	return ws->entry[t].sets;
}

#endif
