/*
 * search_costed.c - see search_costed.h.
 */
#include "search_costed.h"

#include <stdlib.h>
#include <string.h>

#include "twz_heap.h"

/* A heap entry (lazy: stale ones are skipped as they come out). */
struct twz_costed_item {
	double value;            /* a + b sqrt(2), to order all but ties */
	struct twz__cost cost;
	uint32_t node;
};

static int before(const void *ctx, const void *x, const void *y)
{
	const struct twz_costed_item *a = x, *b = y;
	double margin = 1e-9 * (a->value + b->value);

	(void)ctx;
	if (a->value < b->value - margin)
		return 1;
	if (a->value > b->value + margin)
		return 0;
	return twz__cost_less(a->cost, b->cost);
}

int twz_costed_init(struct twz_costed_search *cs, const struct twz_graph *gr,
		    const uint32_t *cell_milli)
{
	size_t n = gr->node_count ? gr->node_count : 1;

	memset(cs, 0, sizeof *cs);
	cs->graph = gr;
	cs->cell_milli = cell_milli;
	cs->cost = malloc(n * sizeof *cs->cost);
	cs->moves = malloc(n);
	cs->stamp = calloc(n, sizeof *cs->stamp);
	cs->heap = malloc((n * TWZ_MOVE_COUNT + 1) * sizeof *cs->heap);
	if (cs->cost && cs->moves && cs->stamp && cs->heap)
		return 0;
	twz_costed_free(cs);
	return -1;
}

void twz_costed_free(struct twz_costed_search *cs)
{
	free(cs->cost);
	free(cs->moves);
	free(cs->stamp);
	free(cs->heap);
	memset(cs, 0, sizeof *cs);
}

int twz_costed_run(struct twz_costed_search *cs, uint32_t source)
{
	const struct twz_graph *gr = cs->graph;
	size_t len = 0;

	if (cs->generation >= 0x7FFFFFFEu) {
		memset(cs->stamp, 0, (size_t)gr->node_count * sizeof *cs->stamp);
		cs->generation = 0;
	}
	cs->generation++;
	const uint32_t reached = 2 * cs->generation, done = reached + 1;
	struct twz_costed_item it = { 0, { 0, 0 }, source };
	cs->cost[source] = it.cost;
	cs->moves[source] = 0;
	cs->stamp[source] = reached;
	twz_heap_push(cs->heap, &len, &it, sizeof it, before, NULL, NULL);
	while (len) {
		twz_heap_pop(cs->heap, &len, &it, sizeof it, before, NULL, NULL);
		uint32_t u = it.node;
		if (cs->stamp[u] == done || !twz__cost_eq(it.cost, cs->cost[u]))
			continue;  /* stale */
		cs->stamp[u] = done;
		uint32_t mu = cs->cell_milli[gr->node_cell[u]];
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			uint32_t v = gr->neighbour[(size_t)u * TWZ_MOVE_COUNT + m];
			if (v == TWZ_NODE_NONE || cs->stamp[v] == done)
				continue;
			uint64_t units = (uint64_t)mu + cs->cell_milli[gr->node_cell[v]];
			struct twz__cost c = cs->cost[u];
			if (twz_move_is_diagonal(m))
				c.b += units;
			else
				c.a += units;
			uint8_t first = u == source ? (uint8_t)(1u << m) : cs->moves[u];
			if (cs->stamp[v] != reached || twz__cost_less(c, cs->cost[v])) {
				cs->cost[v] = c;
				cs->moves[v] = first;
				cs->stamp[v] = reached;
				struct twz_costed_item nx = { twz__cost_value(c), c, v };
				twz_heap_push(cs->heap, &len, &nx, sizeof nx, before,
					      NULL, NULL);
			} else if (twz__cost_eq(c, cs->cost[v])) {
				cs->moves[v] |= first;
			}
		}
	}
	return 0;
}
