/*
 * graph.c - node numbering (DFS preorder per region) and adjacency.
 */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

int twz_grid_move_legal(const struct twz_grid *g, uint32_t x, uint32_t y,
			unsigned m)
{
	int64_t nx = (int64_t)x + twz_move_dx[m];
	int64_t ny = (int64_t)y + twz_move_dy[m];

	if (!twz_grid_walkable(g, x, y) || !twz_grid_walkable(g, nx, ny))
		return 0;
	if (twz_move_is_diagonal(m))
		return twz_grid_walkable(g, nx, y) && twz_grid_walkable(g, x, ny);
	return 1;
}

void twz_graph_free(struct twz_graph *gr)
{
	free(gr->cell_node);
	free(gr->node_cell);
	free(gr->node_x);
	free(gr->node_y);
	free(gr->node_comp);
	free(gr->comp_first);
	free(gr->neighbour);
	memset(gr, 0, sizeof *gr);
}

int twz_graph_build(const struct twz_grid *g, unsigned connectivity,
		    struct twz_graph *out, struct twz_error *err)
{
	size_t cells = (size_t)g->width * g->height;
	uint32_t n = 0, comps = 0;
	uint32_t *stack = NULL;
	size_t walkable = 0;

	memset(out, 0, sizeof *out);
	if (connectivity != 4 && connectivity != 8) {
		twz_error_set(err, "connectivity must be 4 or 8, not %u", connectivity);
		return -1;
	}
	for (size_t c = 0; c < cells; c++)
		walkable += g->walkable[c];
	out->width = g->width;
	out->height = g->height;
	out->connectivity = connectivity;
	out->cell_node = malloc(cells * sizeof *out->cell_node);
	out->node_cell = malloc((walkable ? walkable : 1) * sizeof *out->node_cell);
	out->node_comp = malloc((walkable ? walkable : 1) * sizeof *out->node_comp);
	out->node_x = malloc((walkable ? walkable : 1) * sizeof *out->node_x);
	out->node_y = malloc((walkable ? walkable : 1) * sizeof *out->node_y);
	out->comp_first = malloc((walkable + 1) * sizeof *out->comp_first);
	out->neighbour = malloc((walkable ? walkable : 1) * TWZ_MOVE_COUNT *
				sizeof *out->neighbour);
	/* Each cell is pushed at most once per legal move into it. */
	stack = malloc((walkable * TWZ_MOVE_COUNT + 1) * sizeof *stack);
	if (!out->cell_node || !out->node_cell || !out->node_comp ||
	    !out->node_x || !out->node_y ||
	    !out->comp_first || !out->neighbour || !stack) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "out of memory for a graph of %zu nodes", walkable);
		free(stack);
		twz_graph_free(out);
		return -1;
	}
	memset(out->cell_node, 0xFF, cells * sizeof *out->cell_node);

	for (size_t root = 0; root < cells; root++) {
		if (!g->walkable[root] || out->cell_node[root] != TWZ_NODE_NONE)
			continue;
		out->comp_first[comps] = n;
		size_t top = 0;
		stack[top++] = (uint32_t)root;
		while (top) {
			uint32_t cell = stack[--top];
			if (out->cell_node[cell] != TWZ_NODE_NONE)
				continue;
			out->cell_node[cell] = n;
			out->node_cell[n] = cell;
			out->node_x[n] = (uint16_t)(cell % g->width);
			out->node_y[n] = (uint16_t)(cell / g->width);
			out->node_comp[n] = comps;
			n++;
			uint32_t x = cell % g->width, y = cell / g->width;
			/* Reverse order so move 0 is explored first. */
			for (unsigned m = connectivity; m-- > 0;) {
				if (!twz_grid_move_legal(g, x, y, m))
					continue;
				uint32_t nc = (uint32_t)((y + twz_move_dy[m]) * g->width +
							 (x + twz_move_dx[m]));
				if (out->cell_node[nc] == TWZ_NODE_NONE)
					stack[top++] = nc;
			}
		}
		comps++;
	}
	out->comp_first[comps] = n;
	out->node_count = n;
	out->component_count = comps;
	free(stack);

	for (uint32_t v = 0; v < n; v++) {
		uint32_t cell = out->node_cell[v];
		uint32_t x = cell % g->width, y = cell / g->width;
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			uint32_t w = TWZ_NODE_NONE;
			if (m < connectivity && twz_grid_move_legal(g, x, y, m))
				w = out->cell_node[(y + twz_move_dy[m]) * g->width +
						   (x + twz_move_dx[m])];
			out->neighbour[(size_t)v * TWZ_MOVE_COUNT + m] = w;
		}
	}
	return 0;
}
