/*
 * graph.h - the one node graph every level becomes and every method
 * bakes over: nodes 0 .. n-1, arcs with exact costs (the integer keys
 * below), the regions and the coordinates where the level has them.
 *
 * A grid's graph (twz_graph_build, twz_graph_build_blocks) numbers the
 * walkable cells in the method's node order and keeps its arcs by move:
 * node v's arc by move m goes to neighbour[v * 8 + m] (TWZ_NODE_NONE
 * where the move is not legal) and costs twz_move_key(m); the cell map
 * and, in block order, the block index come with it. Every other graph
 * (a graph level, a navmesh's polygons, a junction graph; a grid's too
 * once twz_graph_arcs adds them) keeps its arcs as flat arrays: node
 * v's arcs are arc_first[v] .. arc_first[v + 1] - 1.
 */
#ifndef GRAPH_H
#define GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "level_map.h"
#include "twz_error.h"
#include "twz_format.h"
#include "twz_heap.h"
#include "twz_links_format.h"

/* One way of an off-mesh link of a graph level (a jump, a ladder, a
 * teleport; FORMAT.md 5l): an arc of its own beside the graph's, which
 * a game may shut by the link's number. */
struct twz_link_arc {
	uint32_t tail;
	uint32_t head;
	uint64_t cost;           /* a key, >= 1 */
	uint32_t number;         /* the link's line in the links file, from 0 */
};

struct twz_graph {
	uint32_t node_count;
	uint32_t component_count;
	uint32_t *node_comp;     /* [node_count]: region, numbered by first
				    node */
	uint32_t *comp_first;    /* [component_count+1], each region's first
				    node, when every region is an id range
				    (DFS order); NULL otherwise */
	/* Arcs as flat arrays (NULL for a grid until twz_graph_arcs). */
	uint32_t arc_count;
	uint32_t *arc_first;     /* [node_count + 1] */
	uint32_t *arc_head;      /* [arc_count]: a level's ascending within
				    a node, a grid's in move order */
	uint64_t *arc_cost;      /* [arc_count]: cost keys, >= 1 */
	uint8_t *arc_move;       /* [arc_count]: the grid move an arc starts
				    with; NULL where first moves are arc
				    indexes (graph levels, navmeshes) */
	uint64_t max_cost;       /* the largest arc cost (0 without arcs) */
	uint64_t level_hash;     /* twz_level_hash of the level's bytes */
	/* A graph level's. */
	uint32_t id_base;        /* the file's id of node 0: node n has id
				    id_base + n (DIMACS: 1, face indices: 0) */
	int64_t *coord;          /* NULL, or [2 * node_count]: x, y of each
				    node (the .co file), drawn by render */
	uint32_t link_count;     /* off-mesh link arcs (a two-way link gives
				    two), in the links file's order */
	struct twz_link_arc *link; /* [link_count], or NULL */
	uint32_t link_numbers;   /* links the file gave (numbers below it) */
	uint32_t *arc_link;      /* [arc_count]: once the link arcs are
				    among the arcs (twz_graph_with_links),
				    an arc's link number or TWZ_LINK_NONE;
				    NULL otherwise */
	/* A grid's. */
	uint32_t width;
	uint32_t height;
	unsigned connectivity;   /* 8 (octile) or 4 */
	unsigned order;          /* TWZ_ORDER_DFS or TWZ_ORDER_BLOCKS */
	uint32_t *cell_node;     /* [width*height]: node or TWZ_NODE_NONE */
	uint32_t *node_cell;     /* [node_count]: y*width + x */
	uint16_t *node_x;        /* [node_count] */
	uint16_t *node_y;        /* [node_count] */
	uint32_t *neighbour;     /* [node_count*8]: node by move, or NONE */
	/* The block index (block order; zero and NULL otherwise). The
	 * walkable bounding box is cut into cols x rows square blocks of
	 * side cells from (origin_x, origin_y); transit.h says what inner
	 * and outer mean. */
	uint32_t origin_x;
	uint32_t origin_y;
	uint32_t side;
	uint32_t cols;
	uint32_t rows;
	uint32_t inner;
	uint32_t outer;
	uint32_t *block_first;   /* [cols*rows+1]: first node of each block */
	uint32_t *node_block;    /* [node_count]: by * cols + bx */
	uint16_t *node_bx;       /* [node_count]: block column */
	uint16_t *node_by;       /* [node_count]: block row */
};

/* Number the walkable cells of g in DFS preorder, one connected region
 * after another (regions in the order of their first cell, row-major),
 * so each region is one contiguous id range. 0 on success. */
int twz_graph_build(const struct twz_grid *g, unsigned connectivity,
		    struct twz_graph *out, struct twz_error *err);

/* Number them block by block: blocks in row-major order, inside a block
 * in DFS preorder over the block's cells (moves leaving the block not
 * followed), so every block and every row of blocks is one contiguous id
 * range. out's block grid (origin_x .. outer) is set by the caller, the
 * rest is built. 0 on success. */
int twz_graph_build_blocks(const struct twz_grid *g, unsigned connectivity,
			   struct twz_graph *out, struct twz_error *err);

void twz_graph_free(struct twz_graph *gr);

/* An arc as a reader collects it (nodes 0-based, cost a key). */
struct twz_arc {
	uint32_t tail;
	uint32_t head;
	uint64_t cost;
};

/*
 * The graph of n nodes and count arcs (sorted in place), in the reader's
 * numbering, without regions: loops are dropped, of parallel arcs the
 * cheapest is kept. Refuses (an input error, "name: problem") a node out
 * of range, a cost of 0, costs that could overflow a u64 path cost over
 * n - 1 arcs, and more than 2^32 - 1 arcs. 0 on success.
 */
int twz_graph_from_arcs(struct twz_graph *g, uint32_t n, struct twz_arc *arcs,
			size_t count, const char *name, struct twz_error *err);

/* Give a grid's graph its arcs as flat arrays (by move, each labelled
 * with its move). 0, or -1 out of memory. */
int twz_graph_arcs(struct twz_graph *gr);

/*
 * g (flat arcs, the reader's numbering) renumbered for a CPD bake, into
 * out: DFS preorder over the arcs taken both ways, one weakly connected
 * component after another (each from its node of lowest id), so a region
 * is one id range that no arc leaves (out's regions), and nodes near each
 * other on the graph get near ids: rows then hold long runs. out's arcs
 * are g's by new ids, each node's sorted by new head; *order (malloc'd)
 * maps a new id to g's node. 0, or -1 out of memory.
 */
int twz_graph_order_dfs(const struct twz_graph *g, struct twz_graph *out,
			uint32_t **order);

/* g (flat arcs) with its off-mesh link arcs among its arcs, into out, so
 * the node order, the regions and the searches take them like any arc:
 * each node's own arcs, then its link arcs in the links file's order,
 * out->arc_link telling them apart (twz_graph_order_dfs keeps that order
 * and carries arc_link). Refuses more than 2^32 - 1 arcs and links. 0,
 * or -1 with err set. */
int twz_graph_with_links(const struct twz_graph *g, struct twz_graph *out,
			 const char *name, struct twz_error *err);

/* A node and its u64 distance, as the searches over flat arcs keep them
 * in the heap of twz_heap.h: lazy, stale items are skipped by the
 * caller. */
struct twz_dist_item {
	uint64_t d;
	uint32_t v;
};

static inline int twz_dist_before(const void *ctx, const void *a, const void *b)
{
	(void)ctx;
	return ((const struct twz_dist_item *)a)->d <
	       ((const struct twz_dist_item *)b)->d;
}

/* The legal moves of node v, a bit per move. */
static inline unsigned twz_graph_moves(const struct twz_graph *gr, uint32_t v)
{
	const uint32_t *nb = gr->neighbour + (size_t)v * TWZ_MOVE_COUNT;
	unsigned mask = 0;

	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		if (nb[m] != TWZ_NODE_NONE)
			mask |= 1u << m;
	return mask;
}

/* Whether move m is legal from cell (x, y) of g: (x, y) walkable, and
 * the move legal by twz_move_legal. */
int twz_grid_move_legal(const struct twz_grid *g, uint32_t x, uint32_t y,
			unsigned m);

/* Straight moves cost 1, diagonal ones sqrt(2); a cost is kept exactly as
 * the pair (straight, diagonal). */
struct twz_cost {
	uint32_t straight;
	uint32_t diagonal;
};

/* a < b exactly: a.s + a.d*sqrt(2) < b.s + b.d*sqrt(2). */
static inline int twz_cost_less(struct twz_cost a, struct twz_cost b)
{
	int64_t ds = (int64_t)a.straight - b.straight;  /* ds < dd*sqrt(2) */
	int64_t dd = (int64_t)b.diagonal - a.diagonal;

	if (ds < 0 && dd >= 0)
		return 1;
	if (ds >= 0 && dd <= 0)
		return 0;
	if (ds >= 0)                      /* dd > 0 */
		return ds * ds < 2 * dd * dd;
	return ds * ds > 2 * dd * dd;     /* both negative */
}

static inline double twz_cost_value(struct twz_cost c)
{
	return c.straight + c.diagonal * 1.41421356237309504880;
}

/*
 * Costs as integer keys, what every search adds and compares. A graph
 * level's arc weight is its key. A grid cost a + b sqrt(2) (a straight
 * and b diagonal moves) is
 *
 *     key(a, b) = a S + b D,    S = 543339720, D = 768398401,
 *
 * D / S a convergent of sqrt(2): D^2 - 2 S^2 = 1. Keys add as costs do,
 * and over costs with a, b <= L = 2^26 they are in the costs' order,
 * equal exactly when the costs are. That covers every cost a search
 * compares: a path found, or one and a move more, has fewer moves than
 * the level has nodes (TWZ_MAX_NODES, 2^26).
 *
 * Why. Take two such costs, p = a1 - a2 and q = b1 - b2 (|p|, |q| <= L),
 * not both 0. Then
 *     key1 - key2 = S (p + q sqrt(2)) + q (D - S sqrt(2)).
 * p^2 - 2 q^2 is a non-zero integer (sqrt(2) is irrational), so
 *     |p + q sqrt(2)| = |p^2 - 2 q^2| / |p - q sqrt(2)| >= 1 / (L (1 + sqrt(2))),
 * and 0 < D - S sqrt(2) = 1 / (D + S sqrt(2)). The first term outweighs
 * the second, because S (D + S sqrt(2)) = 8.35e17 > L^2 (1 + sqrt(2)) =
 * 1.09e16: the keys differ, with the sign of the costs' difference.
 *
 * Differences too: two differences of such costs are equal exactly when
 * the differences of their keys are, as S p + D q = 0 with |q| <= 2 L < S
 * needs S | q (S and D are coprime: D^2 - 2 S^2 = 1), so q = 0 and p = 0.
 * A path's key (a + b <= L) is at most L D < 2^56, and b < S, so
 * twz_key_cost recovers (a, b).
 *
 * Other sums a S + b D keep all this while a, b <= L: arcs that stand
 * for paths (junction links, shortcuts), or moves whose cost is a whole
 * multiple k of the usual (k S, k D) as long as the multiples summed
 * along a path stay within L.
 */
#define TWZ_KEY_STRAIGHT 543339720ull
#define TWZ_KEY_DIAGONAL 768398401ull
#define TWZ_KEY_DIAGONAL_INVERSE 225058681ull  /* D * this = 1 (mod S) */
#define TWZ_KEY_NONE UINT64_MAX                /* not reached */

static inline uint64_t twz_cost_key(struct twz_cost c)
{
	return c.straight * TWZ_KEY_STRAIGHT + c.diagonal * TWZ_KEY_DIAGONAL;
}

/* The cost of a grid key (see above: b = key / D mod S). */
static inline struct twz_cost twz_key_cost(uint64_t key)
{
	uint64_t b = key % TWZ_KEY_STRAIGHT * TWZ_KEY_DIAGONAL_INVERSE %
		     TWZ_KEY_STRAIGHT;

	return (struct twz_cost){
		(uint32_t)((key - b * TWZ_KEY_DIAGONAL) / TWZ_KEY_STRAIGHT),
		(uint32_t)b };
}

/* The key of grid move m. */
static inline uint64_t twz_move_key(unsigned m)
{
	return twz_move_is_diagonal(m) ? TWZ_KEY_DIAGONAL : TWZ_KEY_STRAIGHT;
}

#endif
