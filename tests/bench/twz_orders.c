/*
 * twz_orders.c - which node order makes the fewest runs? For sampled
 * sources of each level it runs the bake's own search and counts the
 * greedy runs (direction symbols on, as format 1.1 writes them) that
 * each candidate order of the targets would give:
 *   dfs        the bake's DFS preorder, one region after another
 *   rowmajor   cells in row-major order
 *   hilbert    cells along a Hilbert curve
 *   bisection  recursive graph bisection (METIS, parts of ~8 nodes,
 *              each region's DFS order inside a part), when built with METIS
 *   nested     METIS nested dissection, when built with METIS
 *
 *   twz_orders [--stride K] LEVEL.map...
 *
 * Prints runs per row for each order; the bake keeps the winner.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "first_moves.h"
#include "graph.h"
#include "level_map.h"

#ifdef TWZ_HAVE_METIS
#include <metis.h>
#endif

enum { ORDER_DFS, ORDER_ROWMAJOR, ORDER_HILBERT, ORDER_BISECTION,
       ORDER_NESTED, ORDER_COUNT };
static const char *order_names[ORDER_COUNT] = {
	"dfs", "rowmajor", "hilbert", "bisection", "nested"
};

/* Symbol sets of format 1.1: moves, then TOWARD and NEAREST. */
static unsigned symbol_set(const struct twz_graph *gr, uint32_t s,
			   uint32_t t, unsigned moves)
{
	int32_t dx = gr->node_x[t] - gr->node_x[s];
	int32_t dy = gr->node_y[t] - gr->node_y[s];

	if (moves >> twz_direction_move(TWZ_SYMBOL_TOWARD, dx, dy) & 1)
		moves |= 1u << TWZ_SYMBOL_TOWARD;
	if (moves >> twz_direction_move(TWZ_SYMBOL_NEAREST, dx, dy) & 1)
		moves |= 1u << TWZ_SYMBOL_NEAREST;
	return moves;
}

/* Greedy runs of s's row with targets in the order seq (all nodes). */
static uint64_t row_runs(const struct twz_graph *gr,
			 const struct twz_search *ws, uint32_t s,
			 const uint32_t *seq)
{
	const unsigned all = 0xFFu | 1u << TWZ_SYMBOL_TOWARD |
			     1u << TWZ_SYMBOL_NEAREST;
	unsigned cur = all;
	uint64_t runs = 1;

	for (uint32_t i = 0; i < gr->node_count; i++) {
		uint32_t t = seq[i];
		if (gr->node_comp[t] != gr->node_comp[s] || t == s)
			continue;  /* wildcards */
		unsigned m = symbol_set(gr, s, t, ws->moves[t]);
		if (cur & m) {
			cur &= m;
		} else {
			runs++;
			cur = m;
		}
	}
	return runs;
}

static uint32_t hilbert_index(uint32_t x, uint32_t y)
{
	uint32_t d = 0;

	for (uint32_t s = 1u << 15; s > 0; s >>= 1) {
		uint32_t rx = (x & s) > 0, ry = (y & s) > 0;
		d += s * s * ((3 * rx) ^ ry);
		if (ry == 0) {
			if (rx == 1) {
				x = s - 1 - x;
				y = s - 1 - y;
			}
			uint32_t t = x;
			x = y;
			y = t;
		}
	}
	return d;
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Nodes sorted by a 32-bit key (ties by node id). */
static void sort_by(uint32_t n, const uint32_t *key, uint32_t *seq,
		    uint64_t *tmp)
{
	for (uint32_t i = 0; i < n; i++)
		tmp[i] = (uint64_t)key[i] << 32 | i;
	qsort(tmp, n, sizeof *tmp, by_key);
	for (uint32_t i = 0; i < n; i++)
		seq[i] = (uint32_t)tmp[i];
}

#ifdef TWZ_HAVE_METIS
/* METIS orders; 0 on success. */
static int metis_orders(const struct twz_graph *gr, uint32_t *bisection,
			uint32_t *nested, uint64_t *tmp)
{
	idx_t n = (idx_t)gr->node_count, k = 0, ncon = 1, cut;
	idx_t *xadj = malloc(((size_t)n + 1) * sizeof *xadj);
	idx_t *adj = malloc((size_t)n * TWZ_MOVE_COUNT * sizeof *adj);
	idx_t *perm = malloc((size_t)n * sizeof *perm);
	idx_t *iperm = malloc((size_t)n * sizeof *iperm);
	idx_t *part = malloc((size_t)n * sizeof *part);
	idx_t options[METIS_NOPTIONS];
	uint32_t *key = malloc((size_t)n * sizeof *key);
	int rc = -1;

	if (!xadj || !adj || !perm || !iperm || !part || !key || n < 2)
		goto out;
	for (idx_t v = 0; v < n; v++) {
		xadj[v] = k;
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			uint32_t w = gr->neighbour[(size_t)v * TWZ_MOVE_COUNT + m];
			if (w != TWZ_NODE_NONE)
				adj[k++] = (idx_t)w;
		}
	}
	xadj[n] = k;
	METIS_SetDefaultOptions(options);
	options[METIS_OPTION_SEED] = 1;
	if (METIS_NodeND(&n, xadj, adj, NULL, options, perm, iperm) != METIS_OK)
		goto out;
	for (idx_t i = 0; i < n; i++)
		nested[i] = (uint32_t)perm[i];
	idx_t parts = n / 8 > 2 ? n / 8 : 2;
	if (METIS_PartGraphRecursive(&n, &ncon, xadj, adj, NULL, NULL, NULL,
				     &parts, NULL, NULL, options, &cut,
				     part) != METIS_OK)
		goto out;
	for (idx_t i = 0; i < n; i++)
		key[i] = (uint32_t)part[i];
	sort_by((uint32_t)n, key, bisection, tmp);
	rc = 0;
out:
	free(xadj);
	free(adj);
	free(perm);
	free(iperm);
	free(part);
	free(key);
	return rc;
}
#endif

static int measure(const char *path, uint32_t stride)
{
	struct twz_grid g;
	struct twz_graph gr;
	struct twz_search ws;
	struct twz_error err;
	uint32_t *seq[ORDER_COUNT] = { 0 };
	uint64_t runs[ORDER_COUNT] = { 0 }, rows = 0, *tmp = NULL;
	uint32_t *key = NULL;
	int have[ORDER_COUNT] = { 1, 1, 1, 0, 0 };
	int rc = 1;

	if (twz_grid_load(path, &g, &err) != 0) {
		fprintf(stderr, "twz_orders: %s\n", err.msg);
		return 1;
	}
	if (twz_graph_build(&g, 8, &gr, &err) != 0) {
		fprintf(stderr, "twz_orders: %s\n", err.msg);
		twz_grid_free(&g);
		return 1;
	}
	uint32_t n = gr.node_count;
	for (int o = 0; o < ORDER_COUNT; o++)
		seq[o] = malloc(((size_t)n + 1) * sizeof(uint32_t));
	tmp = malloc(((size_t)n + 1) * sizeof *tmp);
	key = malloc(((size_t)n + 1) * sizeof *key);
	if (!tmp || !key || twz_search_init(&ws, &gr) != 0)
		goto out;
	for (int o = 0; o < ORDER_COUNT; o++)
		if (!seq[o])
			goto out_search;
	for (uint32_t i = 0; i < n; i++) {
		seq[ORDER_DFS][i] = i;
		key[i] = gr.node_cell[i];
	}
	sort_by(n, key, seq[ORDER_ROWMAJOR], tmp);
	for (uint32_t i = 0; i < n; i++)
		key[i] = hilbert_index(gr.node_x[i], gr.node_y[i]);
	sort_by(n, key, seq[ORDER_HILBERT], tmp);
#ifdef TWZ_HAVE_METIS
	if (metis_orders(&gr, seq[ORDER_BISECTION], seq[ORDER_NESTED], tmp) == 0)
		have[ORDER_BISECTION] = have[ORDER_NESTED] = 1;
#endif
	for (uint32_t s = 0; s < n; s += stride) {
		if (twz_search_run(&ws, s) != 0)
			goto out_search;
		rows++;
		for (int o = 0; o < ORDER_COUNT; o++)
			if (have[o])
				runs[o] += row_runs(&gr, &ws, s, seq[o]);
	}
	printf("%s (%u nodes, %llu rows sampled): runs per row", path, n,
	       (unsigned long long)rows);
	for (int o = 0; o < ORDER_COUNT; o++)
		if (have[o])
			printf("  %s %.2f", order_names[o],
			       rows ? (double)runs[o] / rows : 0.0);
	printf("\n");
	rc = 0;
out_search:
	twz_search_free(&ws);
out:
	for (int o = 0; o < ORDER_COUNT; o++)
		free(seq[o]);
	free(tmp);
	free(key);
	twz_graph_free(&gr);
	twz_grid_free(&g);
	return rc;
}

int main(int argc, char **argv)
{
	uint32_t stride = 7;
	int rc = 0, levels = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--stride") && i + 1 < argc) {
			long v = strtol(argv[++i], NULL, 10);
			if (v < 1) {
				fprintf(stderr, "twz_orders: --stride needs a positive number\n");
				return 2;
			}
			stride = (uint32_t)v;
			continue;
		}
		rc |= measure(argv[i], stride);
		levels++;
	}
	if (!levels) {
		fprintf(stderr, "usage: twz_orders [--stride K] LEVEL.map...\n");
		return 2;
	}
	return rc;
}
