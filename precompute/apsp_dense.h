/*
 * apsp_dense.h - dense all-pairs shortest paths for small graphs: every
 * distance of every region held in memory and found by blocked
 * Floyd-Warshall or by repeated min-plus squaring, then each source's
 * complete set of optimal first moves read off the distances (an arc
 * s -> v of cost w is optimal toward t when w + d(v, t) == d(s, t)).
 *
 * The solvers work on a generic graph: nodes cut into regions of
 * consecutive ids that no arc leaves, out-arcs with exact integer costs
 * and a label each (the first-move bit the arc stands for). The grid CPD
 * bake turns its twz_graph into one with twz_apsp_grid_graph; other level
 * kinds give theirs the same way.
 *
 * Exactness: distances are doubles that only ever hold integers below
 * 2^53, so every sum and comparison is exact. Grid costs straight +
 * diagonal * sqrt(2) become the integer key straight * 2^30 + diagonal *
 * round(sqrt(2) * 2^30): additive, equal exactly when the costs are, and
 * in the costs' order for all counts up to 2^13 (the error of the key,
 * at most diagonal / 2, stays below the smallest gap 2^30 / (2.42 * 2^13)
 * between two different costs of such counts), which covers every sum
 * the solvers compare for regions up to TWZ_APSP_MAX_NODES nodes.
 */
#ifndef APSP_DENSE_H
#define APSP_DENSE_H

#include <stdint.h>

#include "bake.h"
#include "graph.h"
#include "twz_error.h"

/* How the CPD bake fills its first-move rows (twz_bake_options.apsp). */
enum twz_apsp_solver {
	TWZ_APSP_DIJKSTRA = 0,  /* one search per source (first_moves.c) */
	TWZ_APSP_FLOYD = 1,     /* blocked Floyd-Warshall */
	TWZ_APSP_SQUARING = 2,  /* min-plus squaring, about log2 N products */
};

/* The most nodes a level may have for the dense solvers: its distances
 * take 8 * sum(region^2) bytes (regions padded to whole 32-node tiles),
 * at most 128 MiB, and squaring holds two such matrices, 256 MiB. */
#define TWZ_APSP_MAX_NODES 4096u

/* Grid move costs as exact keys (see the top). */
#define TWZ_APSP_STRAIGHT_KEY 1073741824ull  /* 2^30 */
#define TWZ_APSP_DIAGONAL_KEY 1518500250ull  /* round(sqrt(2) * 2^30) */

static inline uint64_t twz_apsp_grid_key(struct twz_cost c)
{
	return c.straight * TWZ_APSP_STRAIGHT_KEY + c.diagonal * TWZ_APSP_DIAGONAL_KEY;
}

/* What the solvers read. Arc a of node v is arc_first[v] <= a <
 * arc_first[v + 1]; costs are positive, labels below 8. */
struct twz_apsp_graph {
	uint32_t node_count;
	uint32_t region_count;
	const uint32_t *region_first;  /* [region_count + 1] */
	const uint32_t *arc_first;     /* [node_count + 1] */
	const uint32_t *arc_head;      /* [arcs] */
	const uint64_t *arc_cost;      /* [arcs] */
	const uint8_t *arc_label;      /* [arcs] */
};

/* The distances of every region (row-major, padded to stride entries). */
struct twz_apsp_region {
	uint32_t first;    /* first node */
	uint32_t len;      /* nodes */
	uint32_t stride;   /* row length, len padded to whole tiles */
	double *dist;      /* [stride * stride]: INFINITY when unreachable */
};

struct twz_apsp {
	const struct twz_apsp_graph *graph;
	uint32_t *node_region;          /* [node_count] */
	struct twz_apsp_region *region; /* [region_count] */
	uint32_t squarings;             /* min-plus products made (squaring) */
};

/* Out-arc labels may be absent (arc_label NULL): then a first move is
 * named by its arc's index among its tail's arcs (twz_apsp_first_arcs),
 * as graph levels store it, for any number of arcs. */

/* Solve every region of g with solver (FLOYD or SQUARING) on the
 * threads opt says (its name goes into messages). Refuses (an input
 * error) a graph of more than TWZ_APSP_MAX_NODES nodes or with an arc
 * that leaves its region, costs whose sums could lose exactness, and
 * fails (TWZ_ERR_NOMEM) when out of memory. The result does not depend
 * on the number of threads. 0 on success; ap is freed on failure. */
int twz_apsp_solve(struct twz_apsp *ap, const struct twz_apsp_graph *g,
		   unsigned solver, const struct twz_bake_options *opt,
		   struct twz_error *err);

void twz_apsp_free(struct twz_apsp *ap);

/* The distance from s to t: an exact integer, or UINT64_MAX when t is
 * not reachable from s. */
uint64_t twz_apsp_dist(const struct twz_apsp *ap, uint32_t s, uint32_t t);

/* For every node t of s's region, moves[t] = the labels (a bit each) of
 * s's arcs that start an optimal path to t; moves[s] = 0. Other entries
 * are left as they are. */
void twz_apsp_moves(const struct twz_apsp *ap, uint32_t s, uint8_t *moves);

/* For every node t of s's region (t - first of the region indexes the
 * arrays): mask[t] = the arcs of index below 63 among s's that start an
 * optimal path to t, a bit each; minarc[t] = the lowest such index of
 * any arc, UINT32_MAX when t is s or unreachable. */
void twz_apsp_first_arcs(const struct twz_apsp *ap, uint32_t s, uint64_t *mask,
			 uint32_t *minarc);

/* The generic graph of a grid graph (its regions must be consecutive id
 * ranges, as twz_graph_build numbers them): arcs are the legal moves,
 * labelled by move, costs the grid keys. The arrays are malloc'd into
 * out and freed by twz_apsp_grid_graph_free. 0, or -1 out of memory. */
int twz_apsp_grid_graph(const struct twz_graph *gr, struct twz_apsp_graph *out);
void twz_apsp_grid_graph_free(struct twz_apsp_graph *g);

/* The solver named by s ("dijkstra", "floyd", "squaring"), -1 if none;
 * and the name of a solver. */
int twz_apsp_solver_parse(const char *s);
const char *twz_apsp_solver_name(unsigned solver);

/* Bytes the dense solver needs for a level of nodes nodes (upper bound:
 * one region); 0 for dijkstra. */
uint64_t twz_apsp_estimate_bytes(uint64_t nodes, unsigned solver);

/* The CPD bake's check before anything is allocated: refuse a level of g
 * with more walkable cells than the dense solver takes (one line in err,
 * an input error). 0 when the bake may go on (always for dijkstra). */
int twz_apsp_check_level(const struct twz_grid *g,
			 const struct twz_bake_options *opt,
			 struct twz_error *err);

#endif
