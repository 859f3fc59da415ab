/*
 * digraph.h - the generic weighted directed graph every non-grid level
 * kind bakes over (graph levels, navmesh polygons): nodes numbered in
 * the file's order, out-arcs in CSR form sorted by head, one arc per
 * ordered pair (the cheapest of parallel arcs), no loops, integer
 * weights >= 1 whose path sums fit a u64. A reader fills a list of arcs
 * and twz_digraph_build makes the graph; bake_graph.h bakes it.
 */
#ifndef DIGRAPH_H
#define DIGRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "twz_error.h"
#include "twz_heap.h"

struct twz_digraph {
	uint32_t node_count;
	uint32_t arc_count;
	uint32_t *arc_first;     /* [node_count + 1] */
	uint32_t *arc_head;      /* [arc_count], ascending within a node */
	uint64_t *arc_weight;    /* [arc_count], >= 1 */
	uint64_t max_weight;     /* largest arc weight (0 without arcs) */
	uint32_t id_base;        /* the file's id of node 0: node n has id
				    id_base + n (DIMACS: 1, face indices: 0) */
	int64_t *coord;          /* NULL, or [2 * node_count]: x, y of each
				    node (the .co file), drawn by render */
	uint64_t level_hash;     /* twz_level_hash of the level's bytes */
};

/* An arc as a reader collects it (nodes 0-based). */
struct twz_arc {
	uint32_t tail;
	uint32_t head;
	uint64_t weight;
};

/*
 * Build g from n nodes and count arcs (sorted in place): loops are
 * dropped, of parallel arcs the cheapest is kept. Refuses (an input
 * error, "name: problem") a node out of range, a weight of 0, weights
 * that could overflow a u64 path cost over n - 1 arcs, and more than
 * 2^32 - 1 arcs. id_base, coord and level_hash are left 0/NULL for the
 * caller. 0 on success.
 */
int twz_digraph_build(struct twz_digraph *g, uint32_t n, struct twz_arc *arcs,
		      size_t count, const char *name, struct twz_error *err);

void twz_digraph_free(struct twz_digraph *g);

/* A plain Dijkstra from s: dist[v] for every node, UINT64_MAX when v is
 * unreachable. For checks (twigz verify), not the bake. 0, or -1 out of
 * memory. */
int twz_digraph_dijkstra(const struct twz_digraph *g, uint32_t s,
			 uint64_t *dist);

/* A node and its u64 distance, as the Dijkstras over a digraph (the
 * bake's and the checks') keep them in the heap of twz_heap.h: lazy,
 * stale items are skipped by the caller. */
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

#endif /* DIGRAPH_H */
