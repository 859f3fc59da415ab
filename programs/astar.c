/*
 * astar.c - see astar.h.
 */
#include "astar.h"

#include <stdlib.h>
#include <string.h>

#include "twz_format.h"
#include "twz_heap.h"

#define SQRT2 1.41421356237309504880

/* Nodes closed per search push at most one entry per legal move each,
 * plus the source: the heap never needs more. */
#define MAX_PUSHES_PER_NODE TWZ_MOVE_COUNT

void twz_astar_free(struct twz_astar *a)
{
	free(a->neighbour);
	free(a->xy);
	free(a->state);
	free(a->heap);
	memset(a, 0, sizeof *a);
}

/* A cell with a node; twz_node_at answers TWZ_NONE off the grid. */
static int db_walkable(const void *db, int64_t x, int64_t y)
{
	return twz_node_at(db, x, y) != TWZ_NONE;
}

void twz_astar_node_moves(const twz_db *db, unsigned connectivity,
			  uint32_t *xy, uint32_t *neighbour)
{
	uint32_t n = twz_node_count(db);

	for (uint32_t v = 0; v < n; v++) {
		uint32_t x, y;
		twz_node_xy(db, v, &x, &y);
		xy[v] = y << 16 | x;
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			twz_node to = TWZ_NONE;
			if (m < connectivity &&
			    twz_move_legal(db_walkable, db, x, y, m))
				to = twz_node_at(db, (int64_t)x + twz_move_dx[m],
						 (int64_t)y + twz_move_dy[m]);
			neighbour[(size_t)v * TWZ_MOVE_COUNT + m] = to;
		}
	}
}

int twz_astar_init(struct twz_astar *a, const twz_db *db)
{
	twz_info info;

	memset(a, 0, sizeof *a);
	if (twz_get_info(db, &info) != TWZ_OK)
		return -1;
	if (info.width > 0xFFFFu || info.height > 0xFFFFu)
		return -1;
	uint32_t n = info.node_count;
	size_t alloc_n = n ? n : 1;
	a->node_count = n;
	a->connectivity = info.connectivity == 4 ? 4 : 8;
	a->heap_cap = (uint64_t)n * MAX_PUSHES_PER_NODE + 2;
	a->neighbour = malloc(alloc_n * TWZ_MOVE_COUNT * sizeof *a->neighbour);
	a->xy = malloc(alloc_n * sizeof *a->xy);
	a->state = calloc(alloc_n, sizeof *a->state);
	a->heap = malloc((size_t)a->heap_cap * sizeof *a->heap);
	if (!a->neighbour || !a->xy || !a->state || !a->heap) {
		twz_astar_free(a);
		return -1;
	}

	twz_astar_node_moves(db, a->connectivity, a->xy, a->neighbour);
	return 0;
}

static inline double heuristic(const struct twz_astar *a, uint32_t v,
			       uint32_t goal_xy)
{
	uint32_t p = a->xy[v];
	int dx = abs((int)(p & 0xFFFF) - (int)(goal_xy & 0xFFFF));
	int dy = abs((int)(p >> 16) - (int)(goal_xy >> 16));

	if (a->connectivity == 4)
		return dx + dy;
	int lo = dx < dy ? dx : dy;
	return (dx + dy) + (SQRT2 - 2.0) * lo;
}

/* Lower f first; on equal f the smaller h, which is nearer the goal.
 * Bitwise, not short-circuit: these outcomes are unpredictable, and a
 * mispredicted branch costs more than both comparisons. */
static inline int entry_before(const struct twz_astar_entry *x,
			       const struct twz_astar_entry *y)
{
	return (x->f < y->f) | ((x->f == y->f) & (x->h < y->h));
}

static int entry_first(const void *ctx, const void *x, const void *y)
{
	(void)ctx;
	return entry_before(x, y);
}

static inline void heap_push(struct twz_astar_entry *h, size_t *len,
			     struct twz_astar_entry e)
{
	twz_heap_push(h, len, &e, sizeof e, entry_first, NULL, NULL);
}

static inline struct twz_astar_entry heap_pop(struct twz_astar_entry *h,
					      size_t *len)
{
	struct twz_astar_entry top;

	twz_heap_pop(h, len, &top, sizeof top, entry_first, NULL, NULL);
	return top;
}

static void trace(const struct twz_astar *a, uint32_t s, uint32_t t,
		  struct twz_astar_result *r)
{
	uint32_t st = 0, dg = 0, len = 1, first = t;

	for (uint32_t v = t; v != s; ) {
		uint32_t p = a->state[v].parent;
		if ((a->xy[v] & 0xFFFF) != (a->xy[p] & 0xFFFF) &&
		    (a->xy[v] >> 16) != (a->xy[p] >> 16))
			dg++;
		else
			st++;
		len++;
		first = v;
		v = p;
	}
	r->straight = st;
	r->diagonal = dg;
	r->first = first;
	r->length = len;
}

int twz_astar_search(struct twz_astar *a, uint32_t s, uint32_t t,
		     struct twz_astar_result *r)
{
	static const double move_cost[TWZ_MOVE_COUNT] = {
		1, 1, 1, 1, SQRT2, SQRT2, SQRT2, SQRT2
	};
	struct twz_astar_entry *heap = a->heap;
	size_t len = 0;

	/* Stamps of older searches mean "unseen"; start again from zero
	 * before the generation would wrap. */
	if (a->generation >= 0x7FFFFFFEu) {
		for (uint32_t v = 0; v < a->node_count; v++)
			a->state[v].stamp = 0;
		a->generation = 0;
	}
	a->generation++;
	const uint32_t open = 2 * a->generation, closed = open + 1;
	const uint32_t goal_xy = a->xy[t];

	double hs = heuristic(a, s, goal_xy);
	a->state[s] = (struct twz_astar_node){ 0.0, open, TWZ_NONE };
	heap_push(heap, &len, (struct twz_astar_entry){ hs, (float)hs, s });
	while (len) {
		struct twz_astar_entry e = heap_pop(heap, &len);
		uint32_t u = e.node;
		struct twz_astar_node *su = &a->state[u];
		/* A stale duplicate: closed since, or reached more cheaply
		 * (its f was computed from a larger g, the same way). */
		if (su->stamp == closed ||
		    e.f > su->g + heuristic(a, u, goal_xy))
			continue;
		double gu = su->g;
		su->stamp = closed;
		a->expanded++;
		if (u == t) {
			trace(a, s, t, r);
			return 0;
		}
		const uint32_t *nb = &a->neighbour[(size_t)u * TWZ_MOVE_COUNT];
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			uint32_t v = nb[m];
			if (v == TWZ_NONE)
				continue;
			struct twz_astar_node *sv = &a->state[v];
			double g = gu + move_cost[m];
			/* The heuristic is consistent: a closed node is final. */
			if (sv->stamp == closed)
				continue;
			if (sv->stamp == open && !(g < sv->g))
				continue;
			double h = heuristic(a, v, goal_xy);
			sv->g = g;
			sv->stamp = open;
			sv->parent = u;
			heap_push(heap, &len, (struct twz_astar_entry){
				g + h, (float)h, v });
		}
	}
	return 1;
}
