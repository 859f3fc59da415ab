/*
 * astar.h - the online search the benchmark compares the database with:
 * A* on the database's own grid and node ids, octile (or Manhattan)
 * heuristic, binary heap with lazy deletion, and per-node state stamped
 * with a search generation so nothing is cleared between queries.
 *
 * Everything is allocated by twz_astar_init; a search allocates nothing.
 * Costs are summed as doubles for ordering and reported exactly (straight
 * and diagonal move counts of the path found), so the benchmark can check
 * every answer against the database's exact cost.
 */
#ifndef ASTAR_H
#define ASTAR_H

#include <stdint.h>

#include "twigz.h"

/* Per-node search state, one cache-friendly record. */
struct twz_astar_node {
	double g;           /* best known cost from the source */
	uint32_t stamp;     /* 2*generation: open, 2*generation+1: closed */
	uint32_t parent;    /* node reached from, TWZ_NONE at the source */
};

/* 16 bytes: four to a cache line, which is what sifting is bound by. */
struct twz_astar_entry {
	double f;           /* g + h */
	float h;            /* ties on f go to the smaller h (deeper) */
	uint32_t node;
};

struct twz_astar {
	uint32_t node_count;
	unsigned connectivity;          /* 8 or 4 */
	uint32_t *neighbour;            /* [node_count*8]: node by move or NONE */
	uint32_t *xy;                   /* [node_count]: y << 16 | x */
	struct twz_astar_node *state;   /* [node_count] */
	struct twz_astar_entry *heap;   /* [heap_cap] */
	uint64_t heap_cap;
	uint32_t generation;
	uint64_t expanded;              /* nodes closed, over all searches */
};

struct twz_astar_result {
	uint32_t straight;  /* moves of the path found */
	uint32_t diagonal;
	uint32_t first;     /* the node after the source (s itself if s == t) */
	uint32_t length;    /* nodes on the path, s and t included */
};

/* Build the adjacency of db's grid. 0 on success, -1 out of memory or a
 * grid too wide for the 16-bit coordinates (more than 65535 cells). */
int twz_astar_init(struct twz_astar *a, const twz_db *db);

/* Every node's packed cell (xy[v] = y << 16 | x) and its neighbour by
 * move (neighbour[v * TWZ_MOVE_COUNT + m], TWZ_NONE where the move is
 * not legal or past `connectivity`), as the online searches read them. */
void twz_astar_node_moves(const twz_db *db, unsigned connectivity,
			  uint32_t *xy, uint32_t *neighbour);

void twz_astar_free(struct twz_astar *a);

/* Search s -> t (valid node ids). 0 and *r filled when t is reachable,
 * 1 when it is not. */
int twz_astar_search(struct twz_astar *a, uint32_t s, uint32_t t,
		     struct twz_astar_result *r);

#endif
