/*
 * fuzz_graph.c - libFuzzer target: the DIMACS readers (.gr, .co, .p2p)
 * and, for small graphs, the graph bake.
 *
 * Each input is read as all three kinds. A refusal is one printable line
 * naming the file; an accepted graph holds the digraph's invariants
 * (heads ascending, no loop or parallel arc, weights positive and
 * bounded so path sums fit a u64); a graph of at most 40 nodes is baked
 * on one and two threads (the same bytes) and every pair answered as a
 * plain Dijkstra of its own does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bake_graph.h"
#include "fuzz_check.h"
#include "level_graph.h"
#include "twigz.h"
#include "twz_graph_format.h"

#define NAME_GR "fuzz.gr"
#define NAME_CO "fuzz.co"
#define NAME_P2P "fuzz.p2p"
#define SMALL 40

static void check_invariants(const struct twz_graph *g)
{
	require(g->node_count >= 1 && g->node_count <= TWZ_MAX_NODES);
	require(g->arc_first[0] == 0 && g->arc_first[g->node_count] == g->arc_count);
	for (uint32_t u = 0; u < g->node_count; u++)
		for (uint32_t a = g->arc_first[u]; a < g->arc_first[u + 1]; a++) {
			require(g->arc_head[a] < g->node_count && g->arc_head[a] != u);
			require(a == g->arc_first[u] || g->arc_head[a] > g->arc_head[a - 1]);
			require(g->arc_cost[a] >= 1 && g->arc_cost[a] <= g->max_cost);
		}
	require(twz_graph_weight_ok(g->max_cost, g->node_count));
}

static uint8_t *bake(const struct twz_graph *g, unsigned threads, size_t *len)
{
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;

	twz_bake_options_default(&opt);
	opt.threads = threads;
	opt.codec = TWZ_CODEC_RAW;
	opt.name = NAME_GR;
	require(twz_bake_graph_encode(g, NULL, &opt, &buf, len, &err) == 0);
	return buf;
}

/* Every pair against a Dijkstra over the digraph's arcs (O(n^2), on
 * the reader's numbering, which the database maps through ids). */
static void check_pairs(const struct twz_graph *g, const twz_db *db)
{
	uint32_t n = g->node_count;
	uint64_t d[SMALL];
	uint8_t done[SMALL];
	twz_node path[SMALL + 1];
	size_t len;
	uint64_t cost;

	for (uint32_t s = 0; s < n; s++) {
		for (uint32_t v = 0; v < n; v++) {
			d[v] = UINT64_MAX;
			done[v] = 0;
		}
		d[s] = 0;
		for (;;) {
			uint32_t u = n;
			for (uint32_t v = 0; v < n; v++)
				if (!done[v] && d[v] != UINT64_MAX && (u == n || d[v] < d[u]))
					u = v;
			if (u == n)
				break;
			done[u] = 1;
			for (uint32_t a = g->arc_first[u]; a < g->arc_first[u + 1]; a++)
				if (d[u] + g->arc_cost[a] < d[g->arc_head[a]])
					d[g->arc_head[a]] = d[u] + g->arc_cost[a];
		}
		twz_node sn = twz_node_of_id(db, (int64_t)s + 1);
		require(sn < n);
		for (uint32_t t = 0; t < n; t++) {
			twz_node tn = twz_node_of_id(db, (int64_t)t + 1);
			twz_status st = twz_path(db, sn, tn, path, SMALL + 1, &len);
			if (d[t] == UINT64_MAX) {
				require(st == TWZ_E_UNREACHABLE);
				require(twz_next(db, sn, tn) == TWZ_NONE);
				continue;
			}
			require(st == TWZ_OK);
			require(twz_cost_u64(db, sn, tn, &cost) == TWZ_OK && cost == d[t]);
			uint64_t sum = 0;
			for (size_t k = 0; k + 1 < len; k++) {
				int64_t a, b;
				require(twz_node_id(db, path[k], &a) == TWZ_OK);
				require(twz_node_id(db, path[k + 1], &b) == TWZ_OK);
				uint64_t w = 0;
				for (uint32_t i = g->arc_first[a - 1]; i < g->arc_first[a]; i++)
					if (g->arc_head[i] == (uint32_t)(b - 1))
						w = g->arc_cost[i];
				require(w != 0);
				sum += w;
			}
			require(sum == d[t]);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct twz_graph g;
	struct twz_p2p q;
	struct twz_error err = { { 0 }, 0 };

	if (twz_graph_parse(data, size, NAME_GR, &g, &err) != 0) {
		require(g.arc_first == NULL);
		check_message(err.msg, NAME_GR);
	} else {
		check_invariants(&g);
		if (g.node_count <= SMALL) {
			size_t l1, l2;
			uint8_t *b1 = bake(&g, 1, &l1), *b2 = bake(&g, 2, &l2);
			require(l1 == l2 && !memcmp(b1, b2, l1));
			twz_db *db = NULL;
			require(twz_open_memory(b1, l1, 0, &db) == TWZ_OK);
			check_pairs(&g, db);
			twz_close(db);
			free(b1);
			free(b2);
		}
		twz_graph_free(&g);
	}

	/* Coordinates for a fixed graph of four vertices. */
	static const char four[] = "p sp 4 0\n";
	require(twz_graph_parse((const uint8_t *)four, sizeof four - 1, "four.gr",
				&g, &err) == 0);
	if (twz_coords_parse(data, size, NAME_CO, &g, &err) != 0) {
		require(g.coord == NULL);
		check_message(err.msg, NAME_CO);
	} else {
		require(g.coord != NULL);
	}
	twz_graph_free(&g);

	if (twz_p2p_parse(data, size, NAME_P2P, 10, &q, &err) != 0) {
		require(q.pair == NULL && q.count == 0);
		check_message(err.msg, NAME_P2P);
	} else {
		for (uint32_t i = 0; i < 2 * q.count; i++)
			require(q.pair[i] >= 1 && q.pair[i] <= 10);
		twz_p2p_free(&q);
	}
	return 0;
}
