/*
 * search_transit.h - the searches of the TRANSIT bake, all the step of
 * search.h by node, bounded: each search touches only what it reaches and
 * resets only that, so a search that stops early costs what it settled,
 * not the level's size. All but the lexicographic searches expand
 * canonically.
 */
#ifndef SEARCH_TRANSIT_H
#define SEARCH_TRANSIT_H

#include <stdint.h>

#include "search.h"
#include "transit.h"

struct twz_tsearch {
	const struct twz_graph *tg;
	struct twz_step st;         /* entries by node, the touched and
				       settled lists (st.order, st.order_len:
				       settled nodes in settling order) */
	uint8_t *mark;              /* [node_count]: selection marks */
	uint8_t *legal;             /* [node_count]: legal moves, a bit each */
	uint8_t *area_legal;        /* [node_count]: those inside the area */
	uint64_t spread[256];       /* twz_spread_table */
	struct twz_ring ring;       /* buckets of node ids */
	int partial;                /* the last search stopped early */
};

/* A rectangle of squares, inclusive; it may reach past the grid. */
struct twz_rect {
	int64_t x0, y0, x1, y1;
};

int twz_tsearch_init(struct twz_tsearch *ws, const struct twz_graph *tg);
void twz_tsearch_free(struct twz_tsearch *ws);

/* Make the nodes of the ranges [range[2i], range[2i + 1]) the area of
 * the local searches, the nodes they may enter (on != 0), or take them
 * out of it again. The area must be a rectangle of the grid (see the
 * canonical expansion in search.h). */
void twz_tsearch_area(struct twz_tsearch *ws, const uint32_t *range,
		      uint32_t ranges, int on);

/* Make the nodes of the ranges that lie in the rectangle r the area of
 * the local searches; twz_tsearch_area(..., 0) on the same ranges takes
 * them out again. */
void twz_tsearch_area_rect(struct twz_tsearch *ws, const uint32_t *range,
			   uint32_t ranges, const struct twz_rect *r);

/*
 * The lexicographic search of twz_tsearch_select (exact cost, then the
 * tie-break, twz_tsearch_tie) from s over the nodes of the area, until
 * `want` nodes with flag[v] set are settled (or the area is exhausted).
 * s may lie outside the area: it takes its legal moves into it, every
 * other node only its moves inside. 0, or -1 out of memory.
 */
int twz_tsearch_area_lex(struct twz_tsearch *ws, uint32_t s,
			 const uint8_t *flag, uint32_t want);

/* The tie-break sum of node v, settled by the last lexicographic
 * search. */
static inline uint64_t twz_tsearch_tie(const struct twz_tsearch *ws, uint32_t v)
{
	return ws->st.e[v].tie;
}

/*
 * First moves and costs from s over the nodes of the area (moves out of
 * it are not taken) and the shortcuts (may be NULL).
 * Afterwards every settled node has its cost in that graph and its set
 * of optimal first moves in it (ws->st.moves, 0 for s). 0, or -1 out of
 * memory.
 */
int twz_tsearch_local(struct twz_tsearch *ws, uint32_t s,
		      const struct twz_shortcuts *sc);

/* The state bit of the nodes the last search settled. */
#define TWZ_TSEARCH_SETTLED TWZ_STEP_SETTLED

/* Whether node v was settled by the last search. */
static inline int twz_tsearch_settled(const struct twz_tsearch *ws, uint32_t v)
{
	return (ws->st.state[v] & TWZ_TSEARCH_SETTLED) != 0;
}

/* The cost of node v, settled by the last search. */
static inline struct twz_cost twz_tsearch_cost(const struct twz_tsearch *ws,
					       uint32_t v)
{
	return twz_key_cost(ws->st.e[v].key);
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
 * square. The settled nodes are ws->st.order[0 .. st.order_len). 0, or
 * -1 out of memory.
 */
int twz_tsearch_select(struct twz_tsearch *ws, uint32_t u);

/* The lexicographic search of twz_tsearch_select from u, in the outer
 * square of `block` (u need not lie in that block), without the marks.
 * 0, or -1 out of memory. */
int twz_tsearch_lex_around(struct twz_tsearch *ws, uint32_t u, uint32_t block);

/* After twz_tsearch_select: whether the move m from the settled node v to
 * the settled node w lies on a lexicographically shortest path. */
int twz_tsearch_tight(const struct twz_tsearch *ws, uint32_t v, uint32_t w,
		      unsigned m);

#endif
