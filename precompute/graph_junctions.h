/*
 * graph_junctions.h - the junction reduction of a grid's graph, a
 * transformation of the graph before the bake (`twigz build
 * --junctions`, junctions.h bakes it). Chains of cells with exactly two
 * legal moves collapse into links between junctions: every other cell,
 * and one cell of each region that is a closed loop with none. What is
 * left is a graph of graph.h like any other, searched by the one search
 * core; and the level's nodes are renumbered so that junctions come in
 * DFS order with each chain's cells in a row after the junction it was
 * reached from.
 */
#ifndef GRAPH_JUNCTIONS_H
#define GRAPH_JUNCTIONS_H

#include <stdint.h>

#include "graph.h"

struct twz_junction_graph {
	/* The level in the junction order: cells, coordinates and regions
	 * (no neighbour table: the file needs none). */
	struct twz_graph level;
	/* The junction graph: node j is junction j (node_x, node_y its
	 * cell, for the direction symbols), its regions the level's, and
	 * junction j's arcs each one grid move from its cell (arc_move)
	 * followed to the next junction, over a chain when the move enters
	 * one, at the chain's cost. */
	struct twz_graph junctions;
	uint32_t *junction_node;  /* [J]: node of each junction in level,
				     ascending */
	uint32_t *junction_base;  /* [J]: node of each junction in the base
				     graph */
	uint32_t link_count;      /* L: links with at least one chain cell */
	uint32_t *links;          /* [4 L]: A, B (junctions), first node in
				     level, chain cells */
	uint32_t *link_first;     /* [J + 1]: links whose A is j, in link_ids */
	uint32_t *link_ids;       /* [L] */
};

/* The reduction of base, a grid's graph in DFS order (twz_graph_build).
 * 0, or -1 out of memory. */
int twz_junction_graph_build(const struct twz_graph *base,
			     struct twz_junction_graph *out);

void twz_junction_graph_free(struct twz_junction_graph *jg);

#endif
