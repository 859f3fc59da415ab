/*
 * graph.h - the graph core: dense node ids for walkable cells, numbered
 * in the node order the rows are compressed over (node id == position in
 * the order), and the legal moves of every node.
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
	uint32_t node_count;
	uint32_t component_count;
	uint32_t *cell_node;     /* [width*height]: node or TWZ_NODE_NONE */
	uint32_t *node_cell;     /* [node_count]: y*width + x */
	uint16_t *node_x;        /* [node_count] */
	uint16_t *node_y;        /* [node_count] */
	uint32_t *node_comp;     /* [node_count]: region, ascending */
	uint32_t *comp_first;    /* [component_count+1]: region's first node */
	uint32_t *neighbour;     /* [node_count*8]: node by move, or NONE */
};

/* Number the walkable cells of g in DFS preorder, one connected region
 * after another (regions in the order of their first cell, row-major),
 * so each region is one contiguous id range. 0 on success. */
int twz_graph_build(const struct twz_grid *g, unsigned connectivity,
		    struct twz_graph *out, struct twz_error *err);

void twz_graph_free(struct twz_graph *gr);

/* Whether move m is legal from cell (x, y) of g: in bounds, walkable, and
 * for a diagonal both cells it passes between walkable. */
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
