/*
 * first_moves.c - the per-source first-move search of CPD (see
 * first_moves.h): the step of search.h by cell, canonical, over the
 * whole region.
 */
#include "first_moves.h"

#include <stdlib.h>
#include <string.h>

int twz_search_init(struct twz_search *ws, const struct twz_graph *graph)
{
	size_t n = graph->node_count ? graph->node_count : 1;
	size_t cells = (size_t)graph->width * graph->height;

	memset(ws, 0, sizeof *ws);
	ws->graph = graph;
	ws->cost = malloc(n * sizeof *ws->cost);
	ws->moves = malloc(n);
	ws->cell = malloc((cells ? cells : 1) * sizeof *ws->cell);
	ws->legal = calloc(cells ? cells : 1, 1);
	ws->forced = calloc(cells ? cells : 1, sizeof *ws->forced);
	/* A path has fewer than n moves, so diagonal counts stay below n;
	 * one more entry for the step past the last. */
	ws->half_sqrt8 = twz_half_sqrt8_table(n + 2);
	if (!ws->cost || !ws->moves || !ws->cell || !ws->legal ||
	    !ws->forced || !ws->half_sqrt8 ||
	    twz_ring_reserve(&ws->ring, TWZ_STEP_RING) != 0)
		goto fail;
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		ws->offset[m] = twz_move_dx[m] + twz_move_dy[m] * (int32_t)graph->width;
	twz_spread_table(ws->spread);
	for (uint32_t v = 0; v < graph->node_count; v++) {
		uint32_t c = graph->node_cell[v];
		ws->legal[c] = (uint8_t)twz_graph_moves(graph, v);
		ws->forced[c] = twz_forced_moves(graph, v);
	}
	return 0;
fail:
	twz_search_free(ws);
	return -1;
}

void twz_search_free(struct twz_search *ws)
{
	free(ws->cost);
	free(ws->moves);
	free(ws->cell);
	free(ws->legal);
	free(ws->forced);
	free(ws->half_sqrt8);
	twz_ring_free(&ws->ring);
	memset(ws, 0, sizeof *ws);
}

#define STEP8 (TWZ_STEP_CELLS | TWZ_STEP_EIGHT)
#define STEP4 TWZ_STEP_CELLS

static int visit8(void *k, uint32_t v, uint32_t b)
{
	return twz_step_visit(k, v, b, STEP8, NULL);
}

static int visit4(void *k, uint32_t v, uint32_t b)
{
	return twz_step_visit(k, v, b, STEP4, NULL);
}

static inline __attribute__((always_inline)) int
search(struct twz_search *ws, uint32_t source, const int eight)
{
	const struct twz_graph *gr = ws->graph;
	uint32_t comp = gr->node_comp[source];
	uint32_t lo = gr->comp_first[comp], hi = gr->comp_first[comp + 1];
	struct twz_entry *cell = ws->cell;
	const uint32_t *h = ws->half_sqrt8;
	const uint32_t *node_cell = gr->node_cell;
	/* A copy the compiler may keep in registers: the ring's arrays stay
	 * where they are, only the buckets in them grow. */
	struct twz_ring ring = ws->ring;
	struct twz_step k = {
		.e = cell, .legal = ws->legal, .forced = ws->forced,
		.spread = ws->spread, .h = h, .offset = ws->offset,
		.ring = &ring,
	};

	/* Only the source's region can be reached. */
	for (uint32_t v = lo; v < hi; v++)
		cell[node_cell[v]].bucket = TWZ_UNREACHED;
	for (int i = 0; i < TWZ_STEP_RING; i++)
		ring.len[i] = 0;
	if (twz_step_seed(&k, node_cell[source], eight ? STEP8 : STEP4,
			  NULL) != 0 ||
	    twz_search_loop(&ring, 2, NULL, TWZ_STEP_RING, &k,
			    eight ? visit8 : visit4) != 0)
		return -1;
	for (uint32_t t = lo; t < hi; t++) {
		const struct twz_entry *ct = &cell[node_cell[t]];
		ws->moves[t] = twz_sets_fold(ct->sets);
		ws->cost[t] = (struct twz_cost){
			(ct->bucket - h[ct->diagonal]) / 2, ct->diagonal };
	}
	return 0;
}

int twz_search_run(struct twz_search *ws, uint32_t source)
{
	if (ws->graph->connectivity == 8)
		return search(ws, source, 1);
	return search(ws, source, 0);
}
