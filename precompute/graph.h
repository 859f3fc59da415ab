/*
 * graph.h - the graph every method bakes over: dense node ids for the
 * walkable cells, numbered in the method's node order (node id ==
 * position in the order), the legal moves of every node, and for the
 * block order the block index (which block each node lies in, where each
 * block's id range starts).
 */
#ifndef GRAPH_H
#define GRAPH_H

#include <stdint.h>

#include "level_map.h"
#include "twz_error.h"
#include "twz_format.h"

struct twz_graph {
	uint32_t width;
	uint32_t height;
	unsigned connectivity;   /* 8 (octile) or 4 */
	unsigned order;          /* TWZ_ORDER_DFS or TWZ_ORDER_BLOCKS */
	uint32_t node_count;
	uint32_t component_count;
	uint32_t *cell_node;     /* [width*height]: node or TWZ_NODE_NONE */
	uint32_t *node_cell;     /* [node_count]: y*width + x */
	uint16_t *node_x;        /* [node_count] */
	uint16_t *node_y;        /* [node_count] */
	uint32_t *node_comp;     /* [node_count]: region, numbered by first
				    node */
	uint32_t *comp_first;    /* DFS order: [component_count+1], each
				    region's first node; NULL otherwise */
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

#endif
