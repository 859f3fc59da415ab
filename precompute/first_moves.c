/*
 * first_moves.c - the per-source first-move search of every level kind
 * (see first_moves.h): the step of search.h over the whole region, by
 * cell and canonical on a grid, by node over flat arcs otherwise.
 */
#include "first_moves.h"

#include <stdlib.h>
#include <string.h>

/* A grid's state by cell. */
static int init_cells(struct twz_search *ws, const struct twz_graph *graph)
{
	size_t n = graph->node_count ? graph->node_count : 1;
	size_t cells = (size_t)graph->width * graph->height;

	ws->moves = malloc(n);
	ws->entry = malloc((cells ? cells : 1) * sizeof *ws->entry);
	ws->legal = calloc(cells ? cells : 1, 1);
	ws->forced = calloc(cells ? cells : 1, sizeof *ws->forced);
	if (!ws->moves || !ws->entry || !ws->legal || !ws->forced ||
	    twz_ring_reserve(&ws->ring, TWZ_STEP_RING) != 0)
		return -1;
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		ws->offset[m] = twz_move_dx[m] + twz_move_dy[m] * (int32_t)graph->width;
	twz_spread_table(ws->spread);
	for (uint32_t v = 0; v < graph->node_count; v++) {
		uint32_t c = graph->node_cell[v];
		ws->legal[c] = (uint8_t)twz_graph_moves(graph, v);
		ws->forced[c] = twz_forced_moves(graph, v);
	}
	return 0;
}

int twz_search_init(struct twz_search *ws, const struct twz_graph *graph)
{
	size_t n = graph->node_count ? graph->node_count : 1;

	memset(ws, 0, sizeof *ws);
	ws->graph = graph;
	/* A grid's graph is searched by cell even when it has flat arcs
	 * too (for the dense solvers). */
	ws->by_arcs = !graph->neighbour;
	if (!ws->by_arcs) {
		if (init_cells(ws, graph) == 0)
			return 0;
	} else {
		/* Each arc pushes at most once, plus the source. */
		ws->entry = malloc(n * sizeof *ws->entry);
		ws->heap = malloc(((size_t)graph->arc_count + 1) * sizeof *ws->heap);
		if (ws->entry && ws->heap)
			return 0;
	}
	twz_search_free(ws);
	return -1;
}

void twz_search_free(struct twz_search *ws)
{
	free(ws->moves);
	free(ws->entry);
	free(ws->legal);
	free(ws->forced);
	free(ws->heap);
	twz_ring_free(&ws->ring);
	memset(ws, 0, sizeof *ws);
}

/* The kinds of search, each a constant set of step flags. */
#define CELLS8 (TWZ_STEP_CELLS | TWZ_STEP_EIGHT)
#define CELLS4 TWZ_STEP_CELLS
#define ARCS TWZ_STEP_ARCS
#define ARCS_MIN (TWZ_STEP_ARCS | TWZ_STEP_MIN)

/* From source over its region with the step flags f. */
static inline __attribute__((always_inline)) int
search(struct twz_search *ws, uint32_t source, const unsigned f)
{
	const struct twz_graph *gr = ws->graph;
	/* A graph without regions (a check's) is one. */
	uint32_t comp = gr->comp_first ? gr->node_comp[source] : 0;
	uint32_t lo = gr->comp_first ? gr->comp_first[comp] : 0;
	uint32_t hi = gr->comp_first ? gr->comp_first[comp + 1] : gr->node_count;
	struct twz_entry *e = ws->entry;
	const uint32_t *node_cell = gr->node_cell;
	/* A copy the compiler may keep in registers: the ring's arrays stay
	 * where they are, only the buckets in them grow. */
	struct twz_ring ring = ws->ring;
	struct twz_step k = {
		.e = e, .legal = ws->legal, .forced = ws->forced,
		.spread = ws->spread, .offset = ws->offset, .ring = &ring,
		.arc_first = gr->arc_first, .arc_head = gr->arc_head,
		.arc_cost = gr->arc_cost, .arc_move = gr->arc_move,
		.heap = ws->heap,
	};

	/* Only the source's region can be reached. */
	if (f & TWZ_STEP_ARCS) {
		for (uint32_t v = lo; v < hi; v++)
			e[v].key = TWZ_KEY_NONE;
	} else {
		for (uint32_t v = lo; v < hi; v++)
			e[node_cell[v]].key = TWZ_KEY_NONE;
		for (int i = 0; i < TWZ_STEP_RING; i++)
			ring.len[i] = 0;
	}
	if (twz_step_seed(&k, f & TWZ_STEP_ARCS ? source : node_cell[source],
			  f, NULL) != 0 ||
	    twz_search_loop(&k, 2, f, TWZ_STEP_RING, NULL) != 0)
		return -1;
	if (!(f & TWZ_STEP_ARCS))
		for (uint32_t t = lo; t < hi; t++)
			ws->moves[t] = twz_sets_fold(e[node_cell[t]].sets);
	return 0;
}

int twz_search_run(struct twz_search *ws, uint32_t source)
{
	if (ws->by_arcs) {
		if (twz_search_lowest_arc(ws->graph, source))
			return search(ws, source, ARCS_MIN);
		return search(ws, source, ARCS);
	}
	if (ws->graph->connectivity == 8)
		return search(ws, source, CELLS8);
	return search(ws, source, CELLS4);
}

int twz_search_distances(const struct twz_graph *g, uint32_t s, uint64_t *dist)
{
	struct twz_search ws;

	if (twz_search_init(&ws, g) != 0)
		return -1;
	int rc = search(&ws, s, ARCS_MIN);
	for (uint32_t v = 0; v < g->node_count && rc == 0; v++)
		dist[v] = ws.entry[v].key;  /* TWZ_KEY_NONE is UINT64_MAX */
	twz_search_free(&ws);
	return rc;
}
