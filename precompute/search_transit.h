/*
 * search_transit.h - the searches of the TRANSIT bake, all one Dijkstra
 * over the ring of half-unit buckets with exact costs of search.h. Each search
 * touches only what it reaches and resets only that, so a search that
 * stops early costs what it settled, not the level's size.
 */
#ifndef SEARCH_TRANSIT_H
#define SEARCH_TRANSIT_H

#include <stdint.h>

#include "search.h"
#include "transit.h"

/* A cost as a key: straight << 32 | diagonal. Keys add like costs. */
static inline uint64_t twz_cost_key(struct twz_cost c)
{
	return (uint64_t)c.straight << 32 | c.diagonal;
}

static inline struct twz_cost twz_key_cost(uint64_t k)
{
	return (struct twz_cost){ (uint32_t)(k >> 32), (uint32_t)k };
}

struct twz_tsearch {
	const struct twz_graph *tg;
	uint64_t *key;              /* [node_count]: cost as a key */
	uint64_t *tie;              /* [node_count]: tie-break sums */
	uint8_t *moves;             /* [node_count]: optimal first-move bits */
	uint8_t *state;             /* [node_count]: queued, settled, and
				       inside the local searches' area */
	uint8_t *mark;              /* [node_count]: selection marks */
	uint8_t *legal;             /* [node_count]: legal moves, a bit each */
	uint32_t *half_sqrt8;       /* [node_count+1]: floor(2 sqrt(2) d) */
	uint32_t *touched;          /* nodes whose state is not 0 */
	uint32_t touched_len;
	uint32_t *order;            /* settled nodes, in settling order */
	uint32_t order_len;
	struct twz_ring ring;       /* buckets of node ids */
	uint64_t queued;            /* entries in all buckets */
	int partial;                /* the last search stopped early */
};

/* A rectangle of squares, inclusive; it may reach past the grid. */
struct twz_rect {
	int64_t x0, y0, x1, y1;
};

/*
 * Shortcuts for the local search: from the node found through
 * pos[node] == i to the nodes to[k], at the exact costs (as keys) key[k],
 * for k in [first[i], first[i + 1]).
 */
struct twz_shortcuts {
	const uint32_t *pos;        /* [node_count]: index, or NONE */
	const uint32_t *first;      /* [indices + 1]: into to and key */
	const uint32_t *to;
	const uint64_t *key;
	uint64_t span;              /* the largest cost, in half units, + 1 */
};

int twz_tsearch_init(struct twz_tsearch *ws, const struct twz_graph *tg);
void twz_tsearch_free(struct twz_tsearch *ws);

/* Add (on != 0) the nodes [lo, hi) to the area of the local searches,
 * the nodes they may enter, or take them out of it. */
void twz_tsearch_area(struct twz_tsearch *ws, uint32_t lo, uint32_t hi, int on);

/*
 * First moves and costs from s over the nodes of the area (moves out of
 * it are not taken) and the shortcuts (may be NULL).
 * Afterwards every settled node has its cost in that graph and its set
 * of optimal first moves in it (0 for s). 0, or -1 out of memory.
 */
int twz_tsearch_local(struct twz_tsearch *ws, uint32_t s,
		      const struct twz_shortcuts *sc);

/* The state bit of the nodes the last search settled. */
#define TWZ_TSEARCH_SETTLED 2u

/* Whether node v was settled by the last search. */
static inline int twz_tsearch_settled(const struct twz_tsearch *ws, uint32_t v)
{
	return (ws->state[v] & TWZ_TSEARCH_SETTLED) != 0;
}

/* Costs from s until `want` nodes with flag[v] set are settled (or the
 * region is exhausted). 0, or -1 out of memory. */
int twz_tsearch_flags(struct twz_tsearch *ws, uint32_t s, const uint8_t *flag,
		      uint32_t want);

/*
 * Costs from s until `want` nodes v with index[v] != TWZ_NODE_NONE and
 * index[v] >= min are settled (or the region is exhausted). 0, or -1 out
 * of memory.
 */
int twz_tsearch_targets(struct twz_tsearch *ws, uint32_t s,
			const uint32_t *index, uint32_t min, uint32_t want);

/*
 * Transit selection from u: the lexicographic search (exact cost, then a
 * fixed pseudo-random tie-break per move) that expands only the nodes of
 * the outer square of u's block and settles the nodes just outside it
 * without expanding them. Then marks (ws->mark) every settled node on a
 * lexicographically shortest path from u to a settled node outside the
 * square. The settled nodes are ws->order[0 .. order_len). 0, or -1 out
 * of memory.
 */
int twz_tsearch_select(struct twz_tsearch *ws, uint32_t u);

#endif
