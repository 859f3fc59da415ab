/*
 * twz_validate_grid.h - the grid checks the CPD and TRANSIT validators
 * share (twz_validate_grid.c), internal to format/: CELL_NODE in either
 * width as the corner rule sees it, the node map, regions, node records
 * and plain run rows (the graph validator takes its region table too).
 * It calls no validator. The helpers below are inline because the validators call them
 * once a run or a move.
 */
#ifndef TWZ_VALIDATE_GRID_H
#define TWZ_VALIDATE_GRID_H

#include "twz_validate.h"

/* A CELL_NODE section with the header fields that give it its shape. */
struct twz_cells {
	const uint8_t *cell_node;
	uint32_t width;
	uint32_t height;
	unsigned connectivity;
	int narrow;
};

static inline struct twz_cells twz_cells_of(const struct twz_container *c,
					    const uint8_t *cell_node)
{
	return (struct twz_cells){ cell_node, c->width, c->height,
				   c->connectivity, twz_narrow(c) };
}

/* The twz_walkable_fn of a CELL_NODE section: a cell with a node. */
static inline int twz_cells_walkable(const void *ctx, int64_t x, int64_t y)
{
	const struct twz_cells *g = ctx;

	/* Negative coordinates wrap above any width or height. */
	if ((uint64_t)x >= g->width || (uint64_t)y >= g->height)
		return 0;
	return twz_cell_node_at(g->cell_node, g->narrow,
				(uint64_t)y * g->width + (uint64_t)x) !=
	       TWZ_NODE_NONE;
}

/* The node move m leads to from the walkable cell (x, y), or
 * TWZ_NODE_NONE when the move is not legal there. Callers split a cell
 * index into x and y once, not once a move. */
static inline uint32_t twz_cells_neighbour(const struct twz_cells *g,
					   uint32_t x, uint32_t y, unsigned m)
{
	int64_t nx = (int64_t)x + twz_move_dx[m], ny = (int64_t)y + twz_move_dy[m];

	/* Off the grid is tested here first, once: the target's own test
	 * inside the corner rule then folds away. */
	if ((uint64_t)nx >= g->width || (uint64_t)ny >= g->height ||
	    !twz_move_legal(twz_cells_walkable, g, x, y, m))
		return TWZ_NODE_NONE;
	return twz_cell_node_at(g->cell_node, g->narrow,
				(uint64_t)ny * g->width + (uint64_t)nx);
}

/* Whether any move is legal from (x, y): false only in a region of one. */
static inline int twz_cells_has_move(const struct twz_cells *g, uint32_t x,
				     uint32_t y)
{
	for (unsigned m = 0; m < g->connectivity; m++)
		if (twz_cells_neighbour(g, x, y, m) != TWZ_NODE_NONE)
			return 1;
	return 0;
}

/* What a row symbol may be besides a legal move from its source. */
#define TWZ_ROW_DIRECTION 1u  /* 9 and 10: checked where they are decoded,
				 since their move depends on the target */
#define TWZ_ROW_ANY_NONE 2u   /* 8 from any source (TRANSIT's wildcards);
				 else only from one without a move, where it
				 cannot call a reachable goal unreachable */

/* The row symbols a CPD file may hold besides legal moves. */
static inline unsigned twz_cpd_row_symbols(const struct twz_container *c)
{
	return c->required_features & TWZ_FEATURE_DIRECTION_SYMBOLS
		       ? TWZ_ROW_DIRECTION : 0;
}

/* Whether sym may stand in a row of the source (x, y). */
static inline int twz_row_symbol_ok(const struct twz_cells *g, uint32_t x,
				    uint32_t y, unsigned sym, unsigned allow)
{
	if (sym == TWZ_SYMBOL_NONE)
		return (allow & TWZ_ROW_ANY_NONE) || !twz_cells_has_move(g, x, y);
	if ((allow & TWZ_ROW_DIRECTION) &&
	    (sym == TWZ_SYMBOL_TOWARD || sym == TWZ_SYMBOL_NEAREST))
		return 1;
	return sym < g->connectivity &&
	       twz_cells_neighbour(g, x, y, sym) != TWZ_NODE_NONE;
}

/* Whether node n's entry in a section that maps nodes back to cells
 * (NODE_CELL, NODE_RECORDS) names the cell of index i. */
typedef int (*twz_node_cell_fn)(const void *ctx, uint32_t n, uint64_t i);

/* CELL_NODE and the section at reads are each other's inverse over
 * node_count nodes. Inline, so that at is too. */
static inline twz_status twz_check_node_map(const struct twz_container *c,
					    const struct twz_cells *g,
					    twz_node_cell_fn at,
					    const void *ctx)
{
	uint64_t cells = (uint64_t)g->width * g->height;
	uint64_t seen = 0;

	for (uint64_t i = 0; i < cells; i++) {
		uint32_t n = twz_cell_node_at(g->cell_node, g->narrow, i);
		if (n == TWZ_NODE_NONE)
			continue;
		if (n >= c->node_count || !at(ctx, n, i))
			return TWZ_E_DAMAGED;
		seen++;
	}
	return seen == c->node_count ? TWZ_OK : TWZ_E_DAMAGED;
}

/* CELL_NODE, NODE_CELL and NODE_COMPONENT, the node sections of the
 * plain layout and of TRANSIT: the two maps are each other's inverse over
 * node_count nodes; region ids are numbered by first node, all used, and
 * no legal move joins two regions; every region is connected (in DFS
 * order proved from the order, in any other with v->scratch). */
twz_status twz_check_nodes(const struct twz_container *c,
			   const struct twz_cells *g,
			   const struct twz_content *v);

/* Whether a RUNS section (of either method) of bytes bytes holds whole
 * runs, and no more than u32 row offsets reach. */
static inline int twz_runs_size_ok(uint64_t bytes)
{
	return bytes % 4 == 0 && bytes / 4 <= TWZ_MAX_RUNS;
}

/* ROW_OFFSETS and RUNS of run_count runs: rows that tile RUNS, runs that
 * start at 0 and ascend below node_count, symbols as allow says. */
twz_status twz_check_runs(const struct twz_container *c,
			  const struct twz_cells *g, const uint8_t *node_cell,
			  const uint8_t *offsets, const uint8_t *runs,
			  uint64_t run_count, unsigned allow);

/* A table of component_count + 1 region starts: 0 first, node_count
 * last, strictly rising (check 41 of REGIONS, G3 of GRAPH_REGIONS). */
twz_status twz_check_regions(const struct twz_container *c,
			     const uint8_t *regions);

/* Check 42 of the bucketed CPD layouts (1.1 and 1.4's inline rows):
 * node records of `size` bytes that start as NODE_RECORDS' (the inverse
 * of CELL_NODE, no legal move out of a region, and in DFS order each
 * node joined to an earlier one). */
twz_status twz_cpd_check_records(const struct twz_container *c,
				 const struct twz_cells *g, const uint8_t *rec,
				 size_t size, const uint8_t *regions);

#endif /* TWZ_VALIDATE_GRID_H */
