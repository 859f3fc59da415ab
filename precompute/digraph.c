/*
 * digraph.c - the generic weighted digraph of non-grid levels: built
 * from a reader's arc list (sorted, loops dropped, cheapest parallel
 * arc kept, weights bounded so path sums fit a u64), and a plain
 * Dijkstra for checks.
 */
#include "digraph.h"

#include <stdlib.h>
#include <string.h>

#include "twz_graph_format.h"

static int arc_cmp(const void *a, const void *b)
{
	const struct twz_arc *x = a, *y = b;

	if (x->tail != y->tail)
		return x->tail < y->tail ? -1 : 1;
	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	return (x->weight > y->weight) - (x->weight < y->weight);
}

int twz_digraph_build(struct twz_digraph *g, uint32_t n, struct twz_arc *arcs,
		      size_t count, const char *name, struct twz_error *err)
{
	size_t kept = 0;

	memset(g, 0, sizeof *g);
	for (size_t i = 0; i < count; i++) {
		if (arcs[i].tail >= n || arcs[i].head >= n) {
			twz_error_set(err, "%s: arc %u -> %u names a node beyond %u",
				      name, arcs[i].tail, arcs[i].head, n);
			return -1;
		}
		if (!arcs[i].weight) {
			twz_error_set(err, "%s: arc %u -> %u has weight 0", name,
				      arcs[i].tail, arcs[i].head);
			return -1;
		}
	}
	if (count)
		qsort(arcs, count, sizeof *arcs, arc_cmp);
	/* Loops never help a path; the cheapest parallel arc sorts first. */
	for (size_t i = 0; i < count; i++) {
		if (arcs[i].tail == arcs[i].head)
			continue;
		if (kept && arcs[kept - 1].tail == arcs[i].tail &&
		    arcs[kept - 1].head == arcs[i].head)
			continue;
		arcs[kept++] = arcs[i];
	}
	if (kept > UINT32_MAX - 1) {
		twz_error_set(err, "%s: %zu arcs exceed the format's 2^32 - 1", name,
			      kept);
		return -1;
	}
	g->node_count = n;
	g->arc_count = (uint32_t)kept;
	g->arc_first = calloc((size_t)n + 1, sizeof *g->arc_first);
	g->arc_head = malloc((kept ? kept : 1) * sizeof *g->arc_head);
	g->arc_weight = malloc((kept ? kept : 1) * sizeof *g->arc_weight);
	if (!g->arc_first || !g->arc_head || !g->arc_weight) {
		twz_digraph_free(g);
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory for %zu arcs",
				   name, kept);
		return -1;
	}
	for (size_t i = 0; i < kept; i++) {
		g->arc_first[arcs[i].tail + 1]++;
		g->arc_head[i] = arcs[i].head;
		g->arc_weight[i] = arcs[i].weight;
		if (arcs[i].weight > g->max_weight)
			g->max_weight = arcs[i].weight;
	}
	for (uint32_t v = 0; v < n; v++)
		g->arc_first[v + 1] += g->arc_first[v];
	if (!twz_graph_weight_ok(g->max_weight, n)) {
		twz_error_set(err, "%s: a weight of %llu could overflow a 64-bit path "
			      "cost over %u nodes", name,
			      (unsigned long long)g->max_weight, n);
		twz_digraph_free(g);
		return -1;
	}
	return 0;
}

void twz_digraph_free(struct twz_digraph *g)
{
	free(g->arc_first);
	free(g->arc_head);
	free(g->arc_weight);
	free(g->coord);
	memset(g, 0, sizeof *g);
}


int twz_digraph_dijkstra(const struct twz_digraph *g, uint32_t s,
			 uint64_t *dist)
{
	/* Each arc pushes at most once, plus the source. */
	struct twz_dist_item *h = malloc(((size_t)g->arc_count + 1) * sizeof *h);
	size_t n = 0;

	if (!h)
		return -1;
	for (uint32_t v = 0; v < g->node_count; v++)
		dist[v] = UINT64_MAX;
	dist[s] = 0;
	struct twz_dist_item it = { 0, s };
	twz_heap_push(h, &n, &it, sizeof it, twz_dist_before, NULL, NULL);
	while (n) {
		twz_heap_pop(h, &n, &it, sizeof it, twz_dist_before, NULL, NULL);
		if (it.d != dist[it.v])
			continue;
		for (uint32_t a = g->arc_first[it.v]; a < g->arc_first[it.v + 1]; a++) {
			uint64_t nd = it.d + g->arc_weight[a];
			uint32_t w = g->arc_head[a];
			if (nd < dist[w]) {
				struct twz_dist_item next = { nd, w };
				dist[w] = nd;
				twz_heap_push(h, &n, &next, sizeof next,
					      twz_dist_before, NULL, NULL);
			}
		}
	}
	free(h);
	return 0;
}
