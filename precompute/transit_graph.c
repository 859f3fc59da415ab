/*
 * transit_graph.c - the TRANSIT block grid and the block-by-block node
 * numbering (see transit.h).
 */
#include "transit.h"

#include <stdlib.h>
#include <string.h>
#define ZSTD_STATIC_LINKING_ONLY  /* ZSTD_estimateCCtxSize */
#include <zstd.h>

/*
 * Default block side, from measurements of transit counts, local rows and
 * bake times on the Moving AI levels (README, "TRANSIT"): small blocks
 * multiply transit nodes, large ones make the local searches slow. The
 * side grows with the level so the transit table stays small.
 */
static uint32_t default_side(uint32_t longer)
{
	if (longer <= 64)
		return 8;
	if (longer <= 192)
		return 16;
	if (longer <= 384)
		return 24;
	return 32;
}

unsigned twz_transit_default_grid(uint32_t box_width, uint32_t box_height)
{
	uint32_t longer = box_width > box_height ? box_width : box_height;
	uint32_t side = default_side(longer);

	return (longer + side - 1) / side;
}

void twz_transit_graph_free(struct twz_transit_graph *tg)
{
	free(tg->cell_node);
	free(tg->node_cell);
	free(tg->node_comp);
	free(tg->node_block);
	free(tg->node_bx);
	free(tg->node_by);
	free(tg->neighbour);
	free(tg->block_first);
	memset(tg, 0, sizeof *tg);
}

/* The walkable bounding box; an empty level gets a 1 x 1 box at 0. */
static void bounding_box(const struct twz_grid *g, uint32_t *x0, uint32_t *y0,
			 uint32_t *w, uint32_t *h)
{
	uint32_t lx = UINT32_MAX, ly = UINT32_MAX, hx = 0, hy = 0;

	for (uint32_t y = 0; y < g->height; y++)
		for (uint32_t x = 0; x < g->width; x++) {
			if (!g->walkable[(size_t)y * g->width + x])
				continue;
			lx = x < lx ? x : lx;
			ly = y < ly ? y : ly;
			hx = x > hx ? x : hx;
			hy = y > hy ? y : hy;
		}
	if (lx == UINT32_MAX) {
		*x0 = *y0 = 0;
		*w = *h = 1;
		return;
	}
	*x0 = lx;
	*y0 = ly;
	*w = hx - lx + 1;
	*h = hy - ly + 1;
}

int twz_transit_layout(const struct twz_grid *g,
		       const struct twz_transit_options *topt,
		       struct twz_transit_graph *tg, struct twz_error *err)
{
	uint32_t bw, bh;

	bounding_box(g, &tg->origin_x, &tg->origin_y, &bw, &bh);
	uint32_t longer = bw > bh ? bw : bh;
	uint32_t grid = topt && topt->grid ? topt->grid
					   : twz_transit_default_grid(bw, bh);
	tg->inner = topt && topt->inner ? topt->inner : TWZ_TRANSIT_DEFAULT_INNER;
	tg->outer = topt && topt->outer ? topt->outer
					: (topt && topt->inner ? 2 * topt->inner
							       : TWZ_TRANSIT_DEFAULT_OUTER);
	if (tg->outer < 2 * tg->inner) {
		twz_error_set(err, "the outer square radius (%u) must be at least twice the inner one (%u)",
			      tg->outer, tg->inner);
		return -1;
	}
	if (grid > longer)
		grid = longer;  /* blocks of one square at most */
	tg->side = (longer + grid - 1) / grid;
	tg->cols = (bw + tg->side - 1) / tg->side;
	tg->rows = (bh + tg->side - 1) / tg->side;
	return 0;
}

/* Number the walkable squares block by block. */
static void number_nodes(const struct twz_grid *g, struct twz_transit_graph *tg,
			 uint32_t *stack)
{
	uint32_t n = 0;
	uint32_t blocks = tg->cols * tg->rows;

	for (uint32_t b = 0; b < blocks; b++) {
		uint32_t x0 = tg->origin_x + twz_block_x(tg, b) * tg->side;
		uint32_t y0 = tg->origin_y + twz_block_y(tg, b) * tg->side;
		uint32_t x1 = x0 + tg->side < g->width ? x0 + tg->side : g->width;
		uint32_t y1 = y0 + tg->side < g->height ? y0 + tg->side : g->height;

		tg->block_first[b] = n;
		for (uint32_t ry = y0; ry < y1; ry++)
			for (uint32_t rx = x0; rx < x1; rx++) {
				size_t root = (size_t)ry * g->width + rx;
				if (!g->walkable[root] ||
				    tg->cell_node[root] != TWZ_NODE_NONE)
					continue;
				size_t top = 0;
				stack[top++] = (uint32_t)root;
				while (top) {
					uint32_t cell = stack[--top];
					if (tg->cell_node[cell] != TWZ_NODE_NONE)
						continue;
					tg->cell_node[cell] = n;
					tg->node_cell[n] = cell;
					tg->node_block[n] = b;
					tg->node_bx[n] = (uint16_t)twz_block_x(tg, b);
					tg->node_by[n] = (uint16_t)twz_block_y(tg, b);
					n++;
					uint32_t x = cell % g->width, y = cell / g->width;
					for (unsigned m = tg->connectivity; m-- > 0;) {
						if (!twz_grid_move_legal(g, x, y, m))
							continue;
						uint32_t nx = x + twz_move_dx[m];
						uint32_t ny = y + twz_move_dy[m];
						if (nx < x0 || nx >= x1 || ny < y0 || ny >= y1)
							continue;
						uint32_t nc = ny * g->width + nx;
						if (tg->cell_node[nc] == TWZ_NODE_NONE)
							stack[top++] = nc;
					}
				}
			}
	}
	tg->block_first[blocks] = n;
}

/* Regions by breadth-first search, numbered in order of their first node. */
static void label_components(struct twz_transit_graph *tg, uint32_t *queue)
{
	uint32_t comps = 0;

	for (uint32_t v = 0; v < tg->node_count; v++)
		tg->node_comp[v] = TWZ_NODE_NONE;
	for (uint32_t root = 0; root < tg->node_count; root++) {
		if (tg->node_comp[root] != TWZ_NODE_NONE)
			continue;
		size_t head = 0, tail = 0;
		queue[tail++] = root;
		tg->node_comp[root] = comps;
		while (head < tail) {
			uint32_t v = queue[head++];
			const uint32_t *nb = tg->neighbour + (size_t)v * TWZ_MOVE_COUNT;
			for (unsigned m = 0; m < tg->connectivity; m++) {
				uint32_t w = nb[m];
				if (w != TWZ_NODE_NONE &&
				    tg->node_comp[w] == TWZ_NODE_NONE) {
					tg->node_comp[w] = comps;
					queue[tail++] = w;
				}
			}
		}
		comps++;
	}
	tg->component_count = comps;
}

int twz_transit_graph_build(const struct twz_grid *g, unsigned connectivity,
			    const struct twz_transit_options *topt,
			    struct twz_transit_graph *tg, struct twz_error *err)
{
	size_t cells = (size_t)g->width * g->height;
	size_t walkable = 0;
	uint32_t *stack = NULL;

	memset(tg, 0, sizeof *tg);
	if (connectivity != 4 && connectivity != 8) {
		twz_error_set(err, "connectivity must be 4 or 8, not %u", connectivity);
		return -1;
	}
	tg->width = g->width;
	tg->height = g->height;
	tg->connectivity = connectivity;
	if (twz_transit_layout(g, topt, tg, err) != 0)
		return -1;
	for (size_t c = 0; c < cells; c++)
		walkable += g->walkable[c];
	size_t blocks = (size_t)tg->cols * tg->rows;
	size_t nodes = walkable ? walkable : 1;

	tg->cell_node = malloc(cells * sizeof *tg->cell_node);
	tg->node_cell = malloc(nodes * sizeof *tg->node_cell);
	tg->node_comp = malloc(nodes * sizeof *tg->node_comp);
	tg->node_block = malloc(nodes * sizeof *tg->node_block);
	tg->node_bx = malloc(nodes * sizeof *tg->node_bx);
	tg->node_by = malloc(nodes * sizeof *tg->node_by);
	tg->neighbour = malloc(nodes * TWZ_MOVE_COUNT * sizeof *tg->neighbour);
	tg->block_first = malloc((blocks + 1) * sizeof *tg->block_first);
	/* Each square is pushed at most once per legal move into it. */
	stack = malloc((walkable * TWZ_MOVE_COUNT + 1) * sizeof *stack);
	if (!tg->cell_node || !tg->node_cell || !tg->node_comp ||
	    !tg->node_block || !tg->node_bx || !tg->node_by || !tg->neighbour || !tg->block_first || !stack) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM,
				   "out of memory for a graph of %zu nodes", walkable);
		free(stack);
		twz_transit_graph_free(tg);
		return -1;
	}
	memset(tg->cell_node, 0xFF, cells * sizeof *tg->cell_node);
	number_nodes(g, tg, stack);
	tg->node_count = (uint32_t)walkable;

	for (uint32_t v = 0; v < tg->node_count; v++) {
		uint32_t cell = tg->node_cell[v];
		uint32_t x = cell % g->width, y = cell / g->width;
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			uint32_t w = TWZ_NODE_NONE;
			if (m < connectivity && twz_grid_move_legal(g, x, y, m))
				w = tg->cell_node[(y + twz_move_dy[m]) * g->width +
						  (x + twz_move_dx[m])];
			tg->neighbour[(size_t)v * TWZ_MOVE_COUNT + m] = w;
		}
	}
	label_components(tg, stack);
	free(stack);
	return 0;
}

/*
 * Peak bytes of a TRANSIT bake, estimated from the level and its block
 * grid before anything is built. Counted: the grid and the cell map (5 a
 * cell); the graph with its build stack and the transit index (96 a
 * node); one worker a thread (search costs, tie-breaks, flags, lists and
 * scratch: 48 a node); the local rows, 32 runs a node at most (measured
 * on the Moving AI levels: 4 to 12), 16 bytes a run as for CPD (rows
 * being gathered, joined, copied little-endian, compressed, the file
 * image); the distances to each block's transit nodes and the transit
 * table, each entry alive three times (array, residual planes, its
 * compressed copy), reckoning `side` transit nodes a block (measured
 * on the default grids: 0.07 to 0.9 of that); and the zstd contexts,
 * at their worst. The peak resident size of one-thread bakes of arena,
 * den011d and Berlin_0_256 was 10% to 65% of this, the table and the
 * zstd contexts being what it overestimates most.
 */
uint64_t twz_transit_estimate_bytes(const struct twz_grid *g, uint64_t nodes,
				    const struct twz_bake_options *opt,
				    const void *method_opt)
{
	struct twz_transit_graph tg;
	struct twz_error err;

	memset(&tg, 0, sizeof tg);
	if (twz_transit_layout(g, method_opt, &tg, &err) != 0)
		return 0;  /* the graph build reports it */
	double blocks = (double)tg.cols * tg.rows;
	double transits = blocks * tg.side;
	double table = transits * (transits - 1) / 2;
	unsigned threads = twz_bake_threads(opt);

	if (table > (double)TWZ_TRANSIT_MAX_TABLE)
		table = (double)TWZ_TRANSIT_MAX_TABLE;
	if (threads > blocks)
		threads = (unsigned)blocks;
	double bytes = 5.0 * g->width * g->height
		       + 96.0 * nodes
		       + 48.0 * nodes * threads
		       + 16.0 * 32.0 * nodes
		       + 24.0 * (double)nodes * tg.side
		       + 24.0 * table;

	if (opt->codec == TWZ_CODEC_ZSTD)
		bytes += (double)ZSTD_estimateCCtxSize(opt->level) * threads;
	return bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)bytes;
}
