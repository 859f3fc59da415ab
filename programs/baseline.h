/*
 * baseline.h - the online searches the database is measured against
 * (`twigz bench --baselines`) and drawn beside it (`twigz render
 * --baseline`): Dijkstra, A* (octile), greedy best-first, breadth-first,
 * depth-first, jump point search and the obstacle-tracing Evasion walker,
 * all on the database's own grid, node ids and movement rule (a diagonal
 * move needs both orthogonal neighbours walkable).
 *
 * These are references, not runtime code: twz_baseline_init allocates
 * everything a search needs (adjacency, per-node state stamped with a
 * search generation, a binary heap), so a search allocates only when the
 * Evasion walker's path outgrows its buffer. Costs are ordered as doubles
 * and reported exactly, as straight and diagonal move counts of the path
 * returned, so every answer can be compared with the database's.
 *
 * What a search touches, per search:
 *   expanded   nodes whose moves the search examined: taken off the open
 *              list (Dijkstra, A*, greedy, JPS: jump points), dequeued
 *              (BFS), pushed on the stack (DFS), stepped on by the walker
 *              or either wall tracer (Evasion);
 *   generated  distinct nodes given a tentative cost or put on the open
 *              list, queue or stack (JPS: jump points found);
 *   scanned    cells read outside any open list: stepped over by JPS's
 *              jumps, tested by Evasion's line-of-sight checks.
 */
#ifndef BASELINE_H
#define BASELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "twigz.h"
#include "twz_heap.h"

enum twz_baseline_kind {
	TWZ_BASELINE_DIJKSTRA,
	TWZ_BASELINE_ASTAR,
	TWZ_BASELINE_GREEDY,
	TWZ_BASELINE_BFS,
	TWZ_BASELINE_DFS,
	TWZ_BASELINE_JPS,
	TWZ_BASELINE_EVASION,
	TWZ_BASELINE_COUNT
};

/* Short name ("astar"), as the command line spells it. */
const char *twz_baseline_name(enum twz_baseline_kind k);
/* Name for a table or a legend ("A* (octile)"). */
const char *twz_baseline_title(enum twz_baseline_kind k);
/* The kind called name, or -1. */
int twz_baseline_find(const char *name);
/* Whether k runs on a grid of this connectivity (JPS: 8 only). */
int twz_baseline_supported(enum twz_baseline_kind k, unsigned connectivity);
/* Whether k always finds an optimal path (BFS: on 4-connected grids). */
int twz_baseline_optimal(enum twz_baseline_kind k, unsigned connectivity);

/* Per-node search state. */
struct twz_baseline_node {
	double g;            /* best known cost from the source */
	uint32_t stamp;      /* 2*generation: open, 2*generation+1: closed */
	uint32_t parent;     /* node reached from (DFS: next move to try) */
};

struct twz_baseline_entry {
	double f;
	float h;             /* ties on f go to the smaller h */
	uint32_t node;
};

/* What twz_baseline_search marks in trace[] when it is set. */
enum {
	TWZ_TRACE_NONE = 0,
	TWZ_TRACE_SCANNED = 1,
	TWZ_TRACE_GENERATED = 2,
	TWZ_TRACE_EXPANDED = 3,
};

struct twz_baseline {
	uint32_t node_count;
	uint32_t width;               /* grid size in cells */
	uint32_t height;
	unsigned connectivity;        /* 8 or 4 */
	uint32_t pw;                  /* padded width: width + 2 */
	uint32_t *neighbour;          /* [node_count*8]: node by move or NONE */
	uint32_t *xy;                 /* [node_count]: y << 16 | x */
	uint32_t *cell;               /* [node_count]: padded cell index */
	uint32_t *cell_node;          /* [(w+2)*(h+2)]: node, NONE on the border */
	uint8_t *open;                /* [(w+2)*(h+2)]: walkable, 0 border */
	struct twz_baseline_node *state;   /* [node_count] */
	struct twz_baseline_entry *heap;
	uint64_t heap_cap;
	uint32_t *queue;              /* [node_count+1]: BFS queue, DFS stack */
	uint32_t generation;
	/* Evasion's buffers, made on its first search: the walk (raw, then
	 * without loops) and each wall tracer's cells, walk_cap each. */
	uint32_t *walk;
	uint32_t *side[2];
	size_t walk_cap;
	/* Evasion's waypoints after the last search (nodes), at most
	 * node_count + 1. */
	uint32_t *waypoint;
	size_t waypoint_count;
	/* Counters of the last search. */
	uint64_t expanded;
	uint64_t generated;
	uint64_t scanned;
	/* When set ([node_count], cleared by the caller), each search marks
	 * what it touched with TWZ_TRACE_*, the highest mark kept. */
	uint8_t *trace;
};

struct twz_baseline_result {
	uint32_t straight;   /* moves of the path returned */
	uint32_t diagonal;
	twz_node first;      /* the node after the source (s if s == t) */
	size_t length;       /* nodes of the path, s and t included */
};

/* Build the grid and adjacency of db. 0, or -1 out of memory or a grid
 * wider or taller than 65535 cells. */
int twz_baseline_init(struct twz_baseline *b, const twz_db *db);
void twz_baseline_free(struct twz_baseline *b);

/*
 * Search s -> t (valid node ids) with k. With path set, the path goes to
 * path (at most cap nodes; r->length is the full count); with path NULL
 * only the first move is wanted, and a search stops work as soon as it
 * knows it (Evasion then leaves r->straight, r->diagonal and r->length
 * 0).
 * Returns 0 when a path is found, 1 when there is none (or Evasion gives
 * up), -1 when k does not run on this grid.
 */
int twz_baseline_search(struct twz_baseline *b, enum twz_baseline_kind k,
			twz_node s, twz_node t, twz_node *path, size_t cap,
			struct twz_baseline_result *r);

/* ---- shared by the search files ---- */

/* A fresh generation; the stamps of older searches mean "unseen". */
uint32_t twz_baseline_next_generation(struct twz_baseline *b);

static inline void twz_baseline_mark(struct twz_baseline *b, uint32_t v,
				     uint8_t what)
{
	if (b->trace && b->trace[v] < what)
		b->trace[v] = what;
}

#define TWZ_BASELINE_SQRT2 1.41421356237309504880

/* Octile (or, 4-connected, Manhattan) distance between two packed
 * cells (x | y << 16). */
static inline double twz_baseline_octile(const struct twz_baseline *b,
					 uint32_t p, uint32_t q)
{
	int dx = abs((int)(p & 0xFFFF) - (int)(q & 0xFFFF));
	int dy = abs((int)(p >> 16) - (int)(q >> 16));

	if (b->connectivity == 4)
		return dx + dy;
	int lo = dx < dy ? dx : dy;
	return (dx + dy) + (TWZ_BASELINE_SQRT2 - 2.0) * lo;
}

/* The same between two nodes. */
static inline double twz_baseline_h(const struct twz_baseline *b, uint32_t u,
				    uint32_t v)
{
	return twz_baseline_octile(b, b->xy[u], b->xy[v]);
}

int twz_baseline_jps(struct twz_baseline *b, twz_node s, twz_node t,
		     twz_node *path, size_t cap, struct twz_baseline_result *r);
int twz_baseline_evasion(struct twz_baseline *b, twz_node s, twz_node t,
			 twz_node *path, size_t cap,
			 struct twz_baseline_result *r);

/* The best-first searches' order in the heap of twz_heap.h (lazy
 * deletion): lower f first, on equal f the smaller h. Bitwise, not
 * short-circuit: these outcomes are unpredictable. Inline, as the
 * searches spend most of their time here. */
static inline int twz_baseline_before(const void *ctx, const void *a,
				      const void *b)
{
	const struct twz_baseline_entry *x = a, *y = b;

	(void)ctx;
	return (x->f < y->f) | ((x->f == y->f) & (x->h < y->h));
}

static inline void twz_baseline_push(struct twz_baseline_entry *h,
				     size_t *len, struct twz_baseline_entry e)
{
	twz_heap_push(h, len, &e, sizeof e, twz_baseline_before, NULL, NULL);
}

static inline struct twz_baseline_entry
twz_baseline_pop(struct twz_baseline_entry *h, size_t *len)
{
	struct twz_baseline_entry top;

	twz_heap_pop(h, len, &top, sizeof top, twz_baseline_before, NULL, NULL);
	return top;
}

#endif
