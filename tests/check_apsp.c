/*
 * check_apsp.c - the dense all-pairs solvers (precompute/apsp_dense.c):
 * Floyd-Warshall and min-plus squaring bake the same bytes as the
 * per-source search, on every thread count; their distances equal an
 * independent plain Dijkstra's for every pair, and their first-move sets
 * equal both the search's and the ones the plain Dijkstra's distances
 * give. On project levels (cut-outs), generated levels, 4- and
 * 8-connectivity, several regions, regions across tile borders, a level
 * of one node; levels above the node limit are refused in one line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apsp_dense.h"
#include "first_moves.h"
#include "test_support.h"

static uint8_t *bake(const struct twz_grid *g, unsigned conn, unsigned solver,
		     unsigned threads, unsigned codec, size_t *len)
{
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	struct twz_cpd cpd;
	uint8_t *buf = NULL;

	twz_bake_options_default(&opt);
	opt.connectivity = conn;
	opt.threads = threads;
	opt.codec = codec;
	opt.level = 3;
	opt.apsp = solver;
	opt.name = "apsp";
	ck_assert_msg(twz_bake_cpd(g, &opt, &cpd, &err) == 0, "bake (%s): %s",
		      twz_apsp_solver_name(solver), err.msg);
	ck_assert_msg(twz_cpd_encode(&cpd, g, &opt, &buf, len, &err) == 0,
		      "encode: %s", err.msg);
	twz_cpd_free(&cpd);
	return buf;
}

/* The three solvers' files, byte for byte, on 1 and 2 threads. */
static void check_bytes(const struct twz_grid *g, unsigned conn, unsigned codec,
			const char *what)
{
	size_t ref_len, len;
	uint8_t *ref = bake(g, conn, TWZ_APSP_DIJKSTRA, 2, codec, &ref_len);
	static const unsigned runs[][2] = {
		{ TWZ_APSP_FLOYD, 1 }, { TWZ_APSP_FLOYD, 2 },
		{ TWZ_APSP_SQUARING, 1 }, { TWZ_APSP_SQUARING, 2 },
	};

	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		uint8_t *buf = bake(g, conn, runs[i][0], runs[i][1], codec, &len);
		ck_assert_msg(len == ref_len && memcmp(buf, ref, len) == 0,
			      "%s, %u-connected: --apsp %s on %u threads differs "
			      "from dijkstra (%zu vs %zu bytes)", what, conn,
			      twz_apsp_solver_name(runs[i][0]), runs[i][1], len,
			      ref_len);
		free(buf);
	}
	free(ref);
}

/* Every distance and first-move set of both dense solvers against the
 * plain Dijkstra of the test support (and the moves against the bake's
 * own search). */
static void check_distances(const struct twz_grid *g, unsigned conn,
			    const char *what)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_graph gr;
	struct twz_search ws;
	struct twz_bake_options opt;
	size_t cells = (size_t)g->width * g->height;

	ck_assert_msg(twz_graph_build(g, conn, &gr, &err) == 0, "%s", err.msg);
	ck_assert(twz_graph_arcs(&gr) == 0);
	ck_assert(twz_search_init(&ws, &gr) == 0);
	twz_bake_options_default(&opt);
	opt.threads = 2;
	opt.name = what;

	uint32_t n = gr.node_count;
	/* Exact costs from every node to every cell: the oracle. */
	struct twz_cost *all = malloc((size_t)n * cells * sizeof *all + 1);
	uint8_t *moves = malloc(n + 1);
	ck_assert(all && moves);
	for (uint32_t s = 0; s < n; s++)
		twz_test_dijkstra(g, conn, gr.node_x[s], gr.node_y[s],
				  all + (size_t)s * cells);

	for (unsigned solver = TWZ_APSP_FLOYD; solver <= TWZ_APSP_SQUARING; solver++) {
		struct twz_apsp ap;
		ck_assert_msg(twz_apsp_solve(&ap, &gr, solver, &opt, &err) == 0,
			      "%s: %s", what, err.msg);
		for (uint32_t s = 0; s < n; s++) {
			const struct twz_cost *ds = all + (size_t)s * cells;
			ck_assert(twz_search_run(&ws, s) == 0);
			memset(moves, 0xEE, n);
			twz_apsp_moves(&ap, s, moves);
			for (uint32_t t = 0; t < n; t++) {
				struct twz_cost c = ds[gr.node_cell[t]];
				uint64_t d = twz_apsp_dist(&ap, s, t);
				int reach = !twz_test_cost_eq(c, twz_test_unreachable);
				expect(reach == (gr.node_comp[s] == gr.node_comp[t]),
				       "%s: regions disagree", what);
				expect(d == (reach ? twz_cost_key(c) : UINT64_MAX),
				       "%s, %s, %u-connected: distance %u -> %u is %llu, "
				       "Dijkstra says %u + %u sqrt2", what,
				       twz_apsp_solver_name(solver), conn, s, t,
				       (unsigned long long)d, c.straight, c.diagonal);
				if (!reach) {
					expect(moves[t] == 0xEE, "%s: row %u wrote "
					       "outside its region", what, s);
					continue;
				}
				/* The oracle's first moves: legal moves m with
				 * cost(m) + d(s + m, t) == d(s, t). */
				unsigned want = 0;
				for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
					if (!twz_test_move_legal(g, conn, gr.node_x[s],
								 gr.node_y[s], m))
						continue;
					uint32_t x = gr.node_x[s] + twz_test_move_dx(m);
					uint32_t y = gr.node_y[s] + twz_test_move_dy(m);
					uint32_t v = gr.cell_node[(size_t)y * g->width + x];
					struct twz_cost via = all[(size_t)v * cells +
								  gr.node_cell[t]];
					via = twz_test_cost_add_move(via, m);
					if (t != s && twz_test_cost_eq(via, c))
						want |= 1u << m;
				}
				expect(moves[t] == want && moves[t] == ws.moves[t],
				       "%s, %s, %u-connected: first moves %u -> %u are "
				       "%#x, Dijkstra %#x, the search %#x", what,
				       twz_apsp_solver_name(solver), conn, s, t,
				       moves[t], want, ws.moves[t]);
			}
		}
		twz_apsp_free(&ap);
	}
	free(all);
	free(moves);
	twz_search_free(&ws);
	twz_graph_free(&gr);
}

static void check_level(const struct twz_grid *g, const char *what)
{
	for (unsigned conn = 4; conn <= 8; conn += 4) {
		check_bytes(g, conn, TWZ_CODEC_RAW, what);
		check_distances(g, conn, what);
	}
}

static void open_grid(struct twz_grid *g, uint32_t w, uint32_t h)
{
	memset(g, 0, sizeof *g);
	g->width = w;
	g->height = h;
	g->walkable = malloc((size_t)w * h);
	ck_assert(g->walkable);
	memset(g->walkable, 1, (size_t)w * h);
}

static const char *const project_levels[] = {
	"data/demo.map", "data/caves.map", "data/maze.map", "data/open.map",
};

/* Cut-outs of the project's levels (the whole levels take seconds a
 * solver; the benchmark bakes them). */
START_TEST(test_apsp_project_levels)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_grid g, w;
	char what[128];

	ck_assert_msg(twz_grid_load(twz_test_source_file(project_levels[_i]), &g,
				    &err) == 0, "%s", err.msg);
	uint32_t side = 18;
	uint32_t x0 = g.width / 3, y0 = g.height / 3;
	twz_test_grid_window(&w, &g, x0, y0, side, side);
	snprintf(what, sizeof what, "%s at %u,%u", project_levels[_i], x0, y0);
	check_level(&w, what);
	twz_grid_free(&w);
	/* A larger window, bytes only, compressed as the tool writes. */
	twz_test_grid_window(&w, &g, 0, 0, 30, 30);
	snprintf(what, sizeof what, "%s 30x30", project_levels[_i]);
	check_bytes(&w, 8, TWZ_CODEC_ZSTD, what);
	twz_grid_free(&w);
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_apsp_rooms_level)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_grid g;

	ck_assert_msg(twz_grid_load(twz_test_level_file("rooms.map"), &g, &err) == 0,
		      "%s", err.msg);
	check_level(&g, "rooms.map");
	twz_grid_free(&g);
}
END_TEST

/* Generated levels of every kind (pockets: several regions, some of one
 * cell). */
START_TEST(test_apsp_generated)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i % TWZ_TEST_KIND_COUNT);
	struct twz_grid g;
	char what[96];

	for (uint64_t seed = 1; seed <= 2; seed++) {
		twz_test_generate(&g, kind, 21 + (uint32_t)_i, 14 + (uint32_t)seed,
				  seed * 7919 + (uint64_t)_i);
		snprintf(what, sizeof what, "%s seed %llu", twz_test_kind_name(kind),
			 (unsigned long long)seed);
		check_level(&g, what);
		twz_grid_free(&g);
	}
}
END_TEST

START_TEST(test_apsp_small_regions)
{
	struct twz_grid g;

	twz_test_grid_from_text(&g, twz_test_small_level);
	check_level(&g, "the five-region level");
	twz_grid_free(&g);
	twz_test_grid_from_text(&g, "@@@\n@.@\n@@@");
	check_level(&g, "one node");
	twz_grid_free(&g);
}
END_TEST

/* Regions of 65, 128 and 400 nodes: padded tiles, several tiles a side
 * (every stage of the blocked Floyd-Warshall), and two such regions. */
START_TEST(test_apsp_tile_borders)
{
	static const uint32_t sizes[][2] = { { 13, 5 }, { 16, 8 }, { 20, 20 } };
	struct twz_grid g;
	char what[64];

	for (size_t i = 0; i < 3; i++) {
		open_grid(&g, sizes[i][0], sizes[i][1]);
		/* A wall with a gap: corners and ties in the open. */
		for (uint32_t y = 0; y + 1 < g.height; y++)
			g.walkable[(size_t)y * g.width + g.width / 2] = 0;
		snprintf(what, sizeof what, "open %ux%u", g.width, g.height);
		check_level(&g, what);
		twz_grid_free(&g);
	}
	/* Two regions of 70 nodes either side of a full wall. */
	open_grid(&g, 29, 5);
	for (uint32_t y = 0; y < 5; y++)
		g.walkable[(size_t)y * 29 + 14] = 0;
	check_level(&g, "two regions of 70");
	twz_grid_free(&g);
}
END_TEST

/* A generic graph: directed arcs, integer costs, a node that reaches
 * nothing; distances against a triple loop. */
START_TEST(test_apsp_generic_graph)
{
	/* 0 -> 1 (2), 0 -> 2 (5), 1 -> 2 (3), 2 -> 0 (1), 1 -> 3 (9), 2 -> 3 (7);
	 * node 3 has no arcs out. Ties: 0 -> 2 costs 5 both ways. */
	static uint32_t first[] = { 0, 2, 4, 6, 6 };
	static uint32_t head[] = { 1, 2, 2, 3, 0, 3 };
	static uint64_t cost[] = { 2, 5, 3, 9, 1, 7 };
	static uint8_t label[] = { 0, 1, 0, 1, 0, 1 };
	static uint32_t regions[] = { 0, 4 };
	struct twz_graph g = {
		.node_count = 4, .component_count = 1, .comp_first = regions,
		.arc_count = 6, .arc_first = first, .arc_head = head,
		.arc_cost = cost, .arc_move = label,
	};
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	uint64_t want[4][4];

	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			want[i][j] = i == j ? 0 : UINT64_MAX;
	for (int v = 0; v < 4; v++)
		for (uint32_t a = first[v]; a < first[v + 1]; a++)
			if (cost[a] < want[v][head[a]])
				want[v][head[a]] = cost[a];
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 4; j++)
				if (want[i][k] != UINT64_MAX && want[k][j] != UINT64_MAX &&
				    want[i][k] + want[k][j] < want[i][j])
					want[i][j] = want[i][k] + want[k][j];
	twz_bake_options_default(&opt);
	for (unsigned solver = TWZ_APSP_FLOYD; solver <= TWZ_APSP_SQUARING; solver++) {
		struct twz_apsp ap;
		uint8_t moves[4];
		ck_assert_msg(twz_apsp_solve(&ap, &g, solver, &opt, &err) == 0, "%s", err.msg);
		for (uint32_t s = 0; s < 4; s++)
			for (uint32_t t = 0; t < 4; t++)
				ck_assert_uint_eq(twz_apsp_dist(&ap, s, t), want[s][t]);
		twz_apsp_moves(&ap, 0, moves);
		ck_assert_uint_eq(moves[2], 3);   /* both arcs tie */
		ck_assert_uint_eq(moves[3], 1);   /* 2+9 beats 5+7 */
		twz_apsp_moves(&ap, 3, moves);
		ck_assert_uint_eq(moves[0] | moves[1] | moves[2], 0);
		twz_apsp_free(&ap);
	}
	/* An arc leaving its region is refused. */
	static uint32_t two[] = { 0, 2, 4 };
	struct twz_graph bad = g;
	bad.component_count = 2;
	bad.comp_first = two;
	struct twz_apsp ap;
	ck_assert(twz_apsp_solve(&ap, &bad, TWZ_APSP_FLOYD, &opt, &err) != 0);
	ck_assert_msg(strstr(err.msg, "leaves its region"), "%s", err.msg);
}
END_TEST

/* Above TWZ_APSP_MAX_NODES: refused before anything is baked, in one
 * line, by the library and by the tool; at the limit the check passes. */
START_TEST(test_apsp_refused_above_limit)
{
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	struct twz_grid g;
	struct twz_cpd cpd;
	char dir[512], map[600], out[600];

	open_grid(&g, 64, 64);   /* exactly 4096 */
	twz_bake_options_default(&opt);
	opt.apsp = TWZ_APSP_SQUARING;
	ck_assert_int_eq(twz_apsp_check_level(&g, &opt, &err), 0);
	twz_grid_free(&g);

	open_grid(&g, 65, 64);   /* 4160 */
	for (unsigned solver = TWZ_APSP_FLOYD; solver <= TWZ_APSP_SQUARING; solver++) {
		opt.apsp = solver;
		ck_assert(twz_bake_cpd(&g, &opt, &cpd, &err) != 0);
		ck_assert_msg(strstr(err.msg, "4096") && strstr(err.msg, "4160") &&
			      !strchr(err.msg, '\n'), "message: %s", err.msg);
	}

	ck_assert(twz_test_make_dir(dir, sizeof dir, "apsp"));
	snprintf(map, sizeof map, "%s/big.map", dir);
	snprintf(out, sizeof out, "%s/big.twz", dir);
	twz_test_write_map(map, &g);
	twz_grid_free(&g);
	const char *const args[] = { "build", map, "-o", out, "--apsp", "floyd", NULL };
	struct twz_test_run r;
	twz_test_run_tool(args, NULL, 0, &r);
	ck_assert_msg(r.status == 3, "status %d, stderr %s", r.status, r.err);
	char *nl = strchr(r.err, '\n');
	ck_assert_msg(nl && nl[1] == '\0' && strstr(r.err, "--apsp floyd takes at most 4096"),
		      "stderr: %s", r.err);
	ck_assert_msg(twz_test_try_read_file(out, NULL) == NULL, "an output was written");
	twz_test_run_free(&r);
	twz_test_remove_tree(dir);
}
END_TEST

/* The tool: --apsp floyd and squaring write the default bake's bytes;
 * unknown solvers and --method transit are usage errors. */
START_TEST(test_apsp_tool)
{
	char dir[512], path[3][600];
	const char *const solvers[] = { "dijkstra", "floyd", "squaring" };
	const char *level = twz_test_level_file("rooms.map");
	struct twz_test_run r;
	size_t len[3];
	uint8_t *buf[3];

	ck_assert(twz_test_make_dir(dir, sizeof dir, "apsp"));
	for (int i = 0; i < 3; i++) {
		snprintf(path[i], sizeof path[i], "%s/%s.twz", dir, solvers[i]);
		const char *const args[] = { "build", level, "-o", path[i], "--apsp",
					     solvers[i], "-q", NULL };
		twz_test_run_tool(args, NULL, 0, &r);
		ck_assert_msg(r.status == 0, "--apsp %s: %s", solvers[i], r.err);
		twz_test_run_free(&r);
		buf[i] = twz_test_read_file(path[i], &len[i]);
	}
	for (int i = 1; i < 3; i++)
		ck_assert_msg(len[i] == len[0] && !memcmp(buf[i], buf[0], len[0]),
			      "--apsp %s differs from dijkstra", solvers[i]);
	for (int i = 0; i < 3; i++)
		free(buf[i]);

	const char *const bad[] = { "build", level, "-o", path[0], "--apsp", "bellman", NULL };
	twz_test_run_tool(bad, NULL, 0, &r);
	ck_assert_msg(r.status == 2 && strstr(r.err, "dijkstra, floyd, squaring or lines"),
		      "status %d: %s", r.status, r.err);
	twz_test_run_free(&r);
	const char *const tr[] = { "build", level, "-o", path[0], "--apsp", "floyd",
				   "--method", "transit", NULL };
	twz_test_run_tool(tr, NULL, 0, &r);
	ck_assert_msg(r.status == 2 && strstr(r.err, "--apsp is for --method cpd"),
		      "status %d: %s", r.status, r.err);
	twz_test_run_free(&r);
	twz_test_remove_tree(dir);
}
END_TEST

static Suite *apsp_suite(void)
{
	Suite *s = suite_create("apsp");
	TCase *tc = tcase_create("Solvers");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_apsp_project_levels, 0, 4);
	tcase_add_test(tc, test_apsp_rooms_level);
	tcase_add_loop_test(tc, test_apsp_generated, 0, TWZ_TEST_KIND_COUNT);
	tcase_add_test(tc, test_apsp_small_regions);
	tcase_add_test(tc, test_apsp_tile_borders);
	tcase_add_test(tc, test_apsp_generic_graph);
	suite_add_tcase(s, tc);

	tc = tcase_create("Tool");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_apsp_refused_above_limit);
	tcase_add_test(tc, test_apsp_tool);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(apsp_suite());
}
