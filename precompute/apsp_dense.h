/*
 * apsp_dense.h - dense all-pairs shortest paths for small graphs: every
 * distance of every region held in memory and found by blocked
 * Floyd-Warshall or by repeated min-plus squaring, then each source's
 * complete set of optimal first moves read off the distances (an arc
 * s -> v of cost w is optimal toward t when w + d(v, t) == d(s, t)).
 *
 * The solvers work on the one graph of graph.h, its arcs as flat arrays
 * (a grid's from twz_graph_arcs), its nodes cut into regions of
 * consecutive ids that no arc leaves. A first move is the move an arc is
 * labelled with (arc_move), or else the arc's index among its tail's.
 *
 * Exactness: distances are doubles that only ever hold integers below
 * 2^53, so every sum and comparison is exact. Grid costs are the keys of
 * graph.h (twz_cost_key): additive, equal exactly when the costs are and
 * in the costs' order, and far below 2^53 for regions of up to
 * TWZ_APSP_MAX_NODES nodes.
 */
#ifndef APSP_DENSE_H
#define APSP_DENSE_H

#include <stdint.h>

#include "bake.h"
#include "graph.h"
#include "search.h"
#include "twz_error.h"

/* How the CPD bake fills its first-move rows (twz_bake_options.apsp). */
enum twz_apsp_solver {
	TWZ_APSP_DIJKSTRA = 0,  /* one search per source (first_moves.c) */
	TWZ_APSP_FLOYD = 1,     /* blocked Floyd-Warshall */
	TWZ_APSP_SQUARING = 2,  /* min-plus squaring, about log2 N products */
	TWZ_APSP_LINES = 3,     /* grids: line separators (cpd_lines.h) */
};

/* The most nodes a level may have for the dense solvers: its distances
 * take 8 * sum(region^2) bytes (regions padded to whole 32-node tiles),
 * at most 128 MiB, and squaring holds two such matrices, 256 MiB. */
#define TWZ_APSP_MAX_NODES 4096u

/* The distances of every region (row-major, padded to stride entries). */
struct twz_apsp_region {
	uint32_t first;    /* first node */
	uint32_t len;      /* nodes */
	uint32_t stride;   /* row length, len padded to whole tiles */
	double *dist;      /* [stride * stride]: INFINITY when unreachable */
};

struct twz_apsp {
	const struct twz_graph *graph;
	uint32_t *node_region;          /* [node_count] */
	struct twz_apsp_region *region; /* [region_count] */
	uint32_t squarings;             /* min-plus products made (squaring) */
};

/* Solve every region of g with solver (FLOYD or SQUARING) on the
 * threads opt says (its name goes into messages). Refuses (an input
 * error) a graph of more than TWZ_APSP_MAX_NODES nodes or with an arc
 * that leaves its region, costs whose sums could lose exactness, and
 * fails (TWZ_ERR_NOMEM) when out of memory. The result does not depend
 * on the number of threads. 0 on success; ap is freed on failure. */
int twz_apsp_solve(struct twz_apsp *ap, const struct twz_graph *g,
		   unsigned solver, const struct twz_bake_options *opt,
		   struct twz_error *err);

void twz_apsp_free(struct twz_apsp *ap);

/* The distance from s to t: an exact integer, or UINT64_MAX when t is
 * not reachable from s. */
uint64_t twz_apsp_dist(const struct twz_apsp *ap, uint32_t s, uint32_t t);

/* For every node t of s's region, moves[t] = the moves (a bit each) of
 * s's arcs that start an optimal path to t; moves[s] = 0. Other entries
 * are left as they are. The graph's arcs are labelled with moves. */
void twz_apsp_moves(const struct twz_apsp *ap, uint32_t s, uint8_t *moves);

/* What the search of first_moves.h leaves, for every node t of s's
 * region: e[t].key its distance (TWZ_KEY_NONE when unreachable), and
 * e[t].sets the arcs among s's (by index, a bit each) that start an
 * optimal path to t, or with `lowest` the lowest index of one. */
void twz_apsp_first_arcs(const struct twz_apsp *ap, uint32_t s, int lowest,
			 struct twz_entry *e);

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
