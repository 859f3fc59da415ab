/*
 * check_baselines.c - the online searches the benchmark measures the
 * database against (programs/baseline.h): Dijkstra, A* and jump point
 * search (and breadth-first on 4-connected grids) find the database's
 * exact cost on random queries of every generated level kind and on a
 * Moving AI level, where they also meet the published optimum (and the
 * database agrees with the plain Dijkstra of test_support); greedy
 * best-first, depth-first and Evasion return legal paths (every move
 * checked against the movement rule written from the README, Evasion's
 * waypoints joined by straight lines) never shorter than the optimum;
 * unreachable targets are reported as such; the first-move-only searches
 * agree with the whole ones; the trace marks what the counters count.
 * Then `twigz bench --baselines` and `twigz render --baseline` run.
 */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "baseline_bench.h"
#include "render_trace.h"
#include "test_support.h"
#include "twz_rng.h"

#define SQRT2 1.41421356237309504880

struct level {
	struct twz_grid grid;
	unsigned connectivity;
	uint8_t *buf;
	size_t len;
	twz_db *db;
	struct twz_baseline b;
	twz_node *path;
	size_t cap;
};

static void level_open(struct level *lv, unsigned connectivity)
{
	lv->connectivity = connectivity;
	lv->buf = twz_test_bake(&lv->grid, connectivity, TWZ_CODEC_ZSTD, 1,
				&lv->len);
	ck_assert_int_eq(twz_open_memory(lv->buf, lv->len, 0, &lv->db), TWZ_OK);
	ck_assert_int_eq(twz_baseline_init(&lv->b, lv->db), 0);
	lv->cap = (size_t)twz_node_count(lv->db) + 1;
	lv->path = malloc(lv->cap * sizeof *lv->path);
	ck_assert_ptr_nonnull(lv->path);
}

static void level_close(struct level *lv)
{
	twz_baseline_free(&lv->b);
	twz_close(lv->db);
	free(lv->buf);
	free(lv->path);
	free(lv->grid.walkable);
}

static void cell_of(const struct level *lv, twz_node v, int *x, int *y)
{
	uint32_t ux, uy;
	/* Once a step of every path: expect, not ck_assert, which costs a
	 * system call when it passes. */
	expect(twz_node_xy(lv->db, v, &ux, &uy) == TWZ_OK, "node %u", v);
	*x = (int)ux;
	*y = (int)uy;
}

/* The move from a to b by the test's own rule, or -1 when there is no
 * legal one. */
static int legal_move(const struct level *lv, twz_node a, twz_node b)
{
	int ax, ay, bx, by;

	cell_of(lv, a, &ax, &ay);
	cell_of(lv, b, &bx, &by);
	for (unsigned m = 0; m < 8; m++)
		if (twz_test_move_dx(m) == bx - ax &&
		    twz_test_move_dy(m) == by - ay)
			return twz_test_move_legal(&lv->grid, lv->connectivity,
						   (uint32_t)ax, (uint32_t)ay, m) ?
			       (int)m : -1;
	return -1;
}

/* The path found: from s to t, every move legal, its moves those the
 * result counts. */
static void check_path(const struct level *lv, enum twz_baseline_kind k,
		       twz_node s, twz_node t,
		       const struct twz_baseline_result *r)
{
	const char *name = twz_baseline_name(k);
	uint32_t st = 0, dg = 0;

	expect(r->length >= 1 && r->length <= lv->cap,
	       "%s: %u -> %u: path of %zu nodes", name, s, t, r->length);
	expect(lv->path[0] == s && lv->path[r->length - 1] == t,
	       "%s: %u -> %u: the path runs %u -> %u", name, s, t,
	       lv->path[0], lv->path[r->length - 1]);
	for (size_t i = 1; i < r->length; i++) {
		int m = legal_move(lv, lv->path[i - 1], lv->path[i]);
		expect(m >= 0, "%s: %u -> %u: step %zu (%u -> %u) is not a legal "
		       "move", name, s, t, i, lv->path[i - 1], lv->path[i]);
		if (m >= 4)
			dg++;
		else
			st++;
	}
	expect(st == r->straight && dg == r->diagonal,
	       "%s: %u -> %u: the path has %u + %u moves, the result says "
	       "%u + %u", name, s, t, st, dg, r->straight, r->diagonal);
	expect(r->first == (r->length > 1 ? lv->path[1] : s),
	       "%s: %u -> %u: first move %u, the path's %u", name, s, t,
	       r->first, lv->path[1]);
}

/* Evasion's waypoints: the path passes them in order, each pair joined
 * by one straight line (as many moves as the larger of |dx| and |dy|, or
 * |dx| + |dy| on a 4-connected grid). */
static void check_waypoints(const struct level *lv, twz_node s, twz_node t,
			    const struct twz_baseline_result *r)
{
	const struct twz_baseline *b = &lv->b;
	size_t at = 0;

	expect(b->waypoint_count >= 1 && b->waypoint[0] == s &&
	       b->waypoint[b->waypoint_count - 1] == t,
	       "evasion: %u -> %u: waypoints do not run from s to t", s, t);
	for (size_t w = 1; w < b->waypoint_count; w++) {
		int ax, ay, cx, cy;
		cell_of(lv, b->waypoint[w - 1], &ax, &ay);
		cell_of(lv, b->waypoint[w], &cx, &cy);
		int dx = abs(cx - ax), dy = abs(cy - ay);
		size_t moves = lv->connectivity == 8 ? (size_t)(dx > dy ? dx : dy) :
			       (size_t)(dx + dy);
		expect(at + moves < r->length && lv->path[at + moves] == b->waypoint[w],
		       "evasion: %u -> %u: waypoint %zu is not %zu moves on from "
		       "the one before", s, t, w, moves);
		/* Along the line: never farther from either end than the
		 * segment is long. */
		for (size_t i = at; i <= at + moves; i++) {
			int x, y;
			cell_of(lv, lv->path[i], &x, &y);
			expect(abs(x - ax) <= dx && abs(y - ay) <= dy,
			       "evasion: %u -> %u: the segment to waypoint %zu "
			       "leaves its box", s, t, w);
		}
		at += moves;
	}
	expect(at + 1 == r->length, "evasion: %u -> %u: the path goes on past "
	       "the last waypoint", s, t);
}

struct tally {
	unsigned queries;
	unsigned reachable;
	unsigned found[TWZ_BASELINE_COUNT];
};

/* One query with every baseline, checked against the database, and the
 * database against the plain Dijkstra of test_support (dist: its costs
 * from s's cell). */
static void check_query(struct level *lv, twz_node s, twz_node t,
			const struct twz_cost *dist, struct tally *ty)
{
	uint32_t ost = 0, odg = 0;
	int reachable = twz_cost_exact(lv->db, s, t, &ost, &odg) == TWZ_OK;
	double optimum = ost + odg * SQRT2;
	int tx, ty_;

	cell_of(lv, t, &tx, &ty_);
	struct twz_cost plain = dist[(size_t)ty_ * lv->grid.width + (size_t)tx];
	struct twz_cost db = reachable ? (struct twz_cost){ ost, odg } :
				twz_test_unreachable;
	expect(twz_test_cost_eq(plain, db), "%u -> %u: the database's cost "
	       "%u + %u*sqrt2, the plain Dijkstra's %u + %u*sqrt2", s, t, ost,
	       odg, plain.straight, plain.diagonal);

	ty->queries++;
	ty->reachable += reachable;
	for (int k = 0; k < TWZ_BASELINE_COUNT; k++) {
		struct twz_baseline_result r, lag;
		const char *name = twz_baseline_name(k);
		int rc = twz_baseline_search(&lv->b, k, s, t, lv->path, lv->cap, &r);
		if (!twz_baseline_supported(k, lv->connectivity)) {
			expect(rc == -1, "%s runs on a %u-connected grid", name,
			       lv->connectivity);
			continue;
		}
		if (!reachable) {
			expect(rc == 1, "%s: %u -> %u: a path where the database "
			       "has none", name, s, t);
			continue;
		}
		if (k == TWZ_BASELINE_EVASION && rc == 1)
			continue;   /* gave up: allowed, counted */
		expect(rc == 0, "%s: %u -> %u: no path found (rc %d)", name, s,
		       t, rc);
		ty->found[k]++;
		check_path(lv, k, s, t, &r);
		if (twz_baseline_optimal(k, lv->connectivity))
			expect(r.straight == ost && r.diagonal == odg,
			       "%s: %u -> %u: cost %u + %u*sqrt2, the database's "
			       "%u + %u*sqrt2", name, s, t, r.straight, r.diagonal,
			       ost, odg);
		else
			expect(r.straight + r.diagonal * SQRT2 >= optimum - 1e-9,
			       "%s: %u -> %u: cost %u + %u*sqrt2 below the "
			       "optimum %u + %u*sqrt2", name, s, t, r.straight,
			       r.diagonal, ost, odg);
		if (k == TWZ_BASELINE_EVASION)
			check_waypoints(lv, s, t, &r);
		/* The first-move-only search agrees. */
		expect(twz_baseline_search(&lv->b, k, s, t, NULL, 0, &lag) == 0 &&
		       lag.first == r.first, "%s: %u -> %u: first move alone %u, "
		       "with the path %u", name, s, t, lag.first, r.first);
	}
}

static void check_random(struct level *lv, unsigned queries, uint64_t seed)
{
	uint32_t n = twz_node_count(lv->db);
	uint64_t state = seed;
	struct tally ty = { 0 };
	struct twz_cost *dist = malloc((size_t)lv->grid.width *
				       lv->grid.height * sizeof *dist);

	ck_assert_ptr_nonnull(dist);
	for (unsigned q = 0; q < queries; q++) {
		twz_node s = (twz_node)rng_scaled(&state, n);
		twz_node t = q % 17 == 0 ? s : (twz_node)rng_scaled(&state, n);
		int sx, sy;
		cell_of(lv, s, &sx, &sy);
		twz_test_dijkstra(&lv->grid, lv->connectivity, (uint32_t)sx,
				  (uint32_t)sy, dist);
		check_query(lv, s, t, dist, &ty);
	}
	free(dist);
	/* Evasion may give up on a maze; it must not give up on most. */
	if (ty.reachable)
		ck_assert_msg(ty.found[TWZ_BASELINE_EVASION] * 4 >= ty.reachable,
			      "evasion found %u of %u paths",
			      ty.found[TWZ_BASELINE_EVASION], ty.reachable);
}

/* ---- generated levels ----------------------------------------------------- */

START_TEST(test_generated_levels)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i / 2);
	unsigned connectivity = _i % 2 ? 4 : 8;
	struct level lv;

	memset(&lv, 0, sizeof lv);
	twz_test_generate(&lv.grid, kind, 41, 33, 0x6261736500u + (unsigned)_i);
	level_open(&lv, connectivity);
	check_random(&lv, 400, 0x51u + (unsigned)_i);
	level_close(&lv);
}
END_TEST

/* A single open room, a wall with one door, a U the straight line runs
 * into, and cells no path reaches. */
static const char *const crafted[] = {
	"........\n"
	"........\n"
	"........\n",
	"....@....\n"
	"....@....\n"
	"....@....\n"
	".........\n"
	"....@....\n",
	"...........\n"
	"..@@@@@@@..\n"
	"........@..\n"
	"..@@@@@.@..\n"
	"..@...@.@..\n"
	"..@@@.@@@..\n"
	"...........\n",
	"..@..\n"
	"..@..\n"
	"@@@..\n"
	"...@.\n",
	/* Diagonal gaps the corner rule closes. */
	".@.@.\n"
	"@.@.@\n"
	".@.@.\n"
	"@...@\n",
};

START_TEST(test_crafted_levels)
{
	for (size_t i = 0; i < sizeof crafted / sizeof crafted[0]; i++) {
		for (unsigned connectivity = 4; connectivity <= 8; connectivity += 4) {
			struct level lv;
			memset(&lv, 0, sizeof lv);
			twz_test_grid_from_text(&lv.grid, crafted[i]);
			level_open(&lv, connectivity);
			uint32_t n = twz_node_count(lv.db);
			struct tally ty = { 0 };
			struct twz_cost *dist = malloc((size_t)lv.grid.width *
						       lv.grid.height * sizeof *dist);
			ck_assert_ptr_nonnull(dist);
			for (twz_node s = 0; s < n; s++) {
				int sx, sy;
				cell_of(&lv, s, &sx, &sy);
				twz_test_dijkstra(&lv.grid, connectivity,
						  (uint32_t)sx, (uint32_t)sy, dist);
				for (twz_node t = 0; t < n; t++)
					check_query(&lv, s, t, dist, &ty);
			}
			free(dist);
			level_close(&lv);
		}
	}
}
END_TEST

/* ---- a Moving AI level ---------------------------------------------------- */

START_TEST(test_movingai_arena)
{
	struct level lv;
	struct twz_scen sc;
	char scen[4096];

	memset(&lv, 0, sizeof lv);
	if (twz_test_movingai_load("dao/arena", &lv.grid, &sc, scen,
				   sizeof scen) != 0) {
		fprintf(stderr, "# Moving AI levels not found under %s: skipped\n",
			twz_test_movingai_where());
		return;
	}
	level_open(&lv, 8);
	struct tally ty = { 0 };
	struct twz_cost *dist = malloc((size_t)lv.grid.width * lv.grid.height *
				       sizeof *dist);
	ck_assert_ptr_nonnull(dist);
	for (size_t i = 0; i < sc.count; i++) {
		const struct twz_scen_entry *e = &sc.entries[i];
		twz_node s = twz_node_at(lv.db, e->sx, e->sy);
		twz_node t = twz_node_at(lv.db, e->gx, e->gy);
		twz_test_dijkstra(&lv.grid, 8, e->sx, e->sy, dist);
		check_query(&lv, s, t, dist, &ty);
		/* The optimal ones meet the published length too. */
		struct twz_baseline_result r;
		for (int k = 0; k < TWZ_BASELINE_COUNT; k++) {
			if (!twz_baseline_optimal(k, 8))
				continue;
			ck_assert_int_eq(twz_baseline_search(&lv.b, k, s, t, NULL,
							     0, &r), 0);
			ck_assert_int_eq(twz_baseline_search(&lv.b, k, s, t,
							     lv.path, lv.cap, &r), 0);
			expect(twz_scen_cost_matches(e, r.straight + r.diagonal * SQRT2),
			       "%s: %s line %zu: cost %.4f, published %.4f",
			       twz_baseline_name(k), scen, i + 1,
			       r.straight + r.diagonal * SQRT2, e->optimal);
		}
	}
	ck_assert_uint_eq(ty.reachable, sc.count);
	ck_assert_uint_ge(ty.found[TWZ_BASELINE_EVASION] * 10, sc.count * 9);
	free(dist);
	twz_scen_free(&sc);
	level_close(&lv);
}
END_TEST

/* ---- the trace and the counters ------------------------------------------- */

START_TEST(test_trace_counts)
{
	struct level lv;

	memset(&lv, 0, sizeof lv);
	twz_test_generate(&lv.grid, TWZ_TEST_CAVES, 40, 30, 7);
	level_open(&lv, 8);
	uint32_t n = twz_node_count(lv.db);
	uint8_t *trace = calloc(n, 1);
	ck_assert_ptr_nonnull(trace);
	uint64_t state = 99;
	for (int k = 0; k < TWZ_BASELINE_COUNT; k++) {
		for (int q = 0; q < 20; q++) {
			twz_node s = (twz_node)rng_scaled(&state, n);
			twz_node t = (twz_node)rng_scaled(&state, n);
			struct twz_baseline_result r;
			memset(trace, 0, n);
			lv.b.trace = trace;
			int rc = twz_baseline_search(&lv.b, k, s, t, lv.path,
						     lv.cap, &r);
			lv.b.trace = NULL;
			uint64_t marks[4] = { 0 };
			for (uint32_t v = 0; v < n; v++)
				marks[trace[v]]++;
			const char *name = twz_baseline_name(k);
			ck_assert_msg(lv.b.expanded >= 1, "%s expands nothing", name);
			if (k == TWZ_BASELINE_EVASION) {
				/* Stepped-on cells, each marked once. */
				ck_assert_uint_le(marks[TWZ_TRACE_EXPANDED],
						  lv.b.expanded);
				continue;
			}
			/* Nodes expanded are distinct; generated ones are
			 * every node given a cost, expanded or not. */
			ck_assert_msg(marks[TWZ_TRACE_EXPANDED] == lv.b.expanded,
				      "%s: %" PRIu64 " expanded marks, %" PRIu64
				      " counted", name, marks[TWZ_TRACE_EXPANDED],
				      lv.b.expanded);
			ck_assert_msg(marks[TWZ_TRACE_EXPANDED] +
				      marks[TWZ_TRACE_GENERATED] == lv.b.generated,
				      "%s: %" PRIu64 " generated marks, %" PRIu64
				      " counted", name,
				      marks[TWZ_TRACE_EXPANDED] + marks[TWZ_TRACE_GENERATED],
				      lv.b.generated);
			if (rc == 0 && k != TWZ_BASELINE_BFS)
				ck_assert_uint_eq(trace[t], TWZ_TRACE_EXPANDED);
			if (k != TWZ_BASELINE_JPS)
				ck_assert_uint_eq(marks[TWZ_TRACE_SCANNED], 0);
		}
	}
	free(trace);
	level_close(&lv);
}
END_TEST

START_TEST(test_names)
{
	for (int k = 0; k < TWZ_BASELINE_COUNT; k++) {
		ck_assert_int_eq(twz_baseline_find(twz_baseline_name(k)), k);
		ck_assert_ptr_nonnull(twz_baseline_title(k));
	}
	ck_assert_int_eq(twz_baseline_find("a*"), -1);
	ck_assert_int_eq(twz_baseline_find(""), -1);
	ck_assert(!twz_baseline_supported(TWZ_BASELINE_JPS, 4));
	ck_assert(twz_baseline_supported(TWZ_BASELINE_JPS, 8));
	ck_assert(twz_baseline_optimal(TWZ_BASELINE_BFS, 4));
	ck_assert(!twz_baseline_optimal(TWZ_BASELINE_BFS, 8));
	ck_assert(!twz_baseline_optimal(TWZ_BASELINE_EVASION, 8));
}
END_TEST

/* ---- the render overlay ----------------------------------------------------- */

/* The overlay colours exactly the cells the search marks, and only those;
 * its refusals name the overlay. */
START_TEST(test_overlay_cells)
{
	struct level lv;
	struct twz_scene sc;
	struct twz_error err = { { 0 }, 0 };

	memset(&lv, 0, sizeof lv);
	twz_test_generate(&lv.grid, TWZ_TEST_OPEN_HOLLOW, 36, 28, 21);
	level_open(&lv, 8);
	ck_assert_int_eq(twz_scene_open_memory(lv.buf, lv.len, "t.twz", &sc,
					       &err), 0);
	uint32_t n = twz_node_count(lv.db);
	uint8_t *trace = calloc(n, 1);
	ck_assert_ptr_nonnull(trace);
	/* The first node and the farthest node of its region. */
	twz_node s = 0, t = 0;
	double far = 0;
	for (twz_node v = 1; v < n; v++) {
		double c = twz_cost(lv.db, s, v);
		if (c > far && c < INFINITY) {
			far = c;
			t = v;
		}
	}
	int sx, sy, gx, gy;
	cell_of(&lv, s, &sx, &sy);
	cell_of(&lv, t, &gx, &gy);
	for (int k = 0; k < TWZ_BASELINE_COUNT; k++) {
		struct twz_overlay_item it;
		struct twz_baseline_result r;
		char text[64];
		snprintf(text, sizeof text, "%s,%d,%d,%d,%d", twz_baseline_name(k),
			 sx, sy, gx, gy);
		ck_assert_int_eq(twz_trace_overlay_parse(&it, &twz_trace_overlay,
							 text, &err), 0);
		ck_assert_str_eq(it.text, text);
		ck_assert_int_eq(twz_render_prepare(&sc, &it, 1, &err), 0);
		memset(trace, 0, n);
		lv.b.trace = trace;
		ck_assert_int_eq(twz_baseline_search(&lv.b, k, s, t, lv.path,
						     lv.cap, &r), 0);
		lv.b.trace = NULL;
		unsigned coloured = 0;
		for (twz_node v = 0; v < n; v++) {
			struct twz_rgb c;
			int x, y;
			cell_of(&lv, v, &x, &y);
			int got = twz_trace_overlay.cell_colour(&sc, &it, (uint32_t)x,
								(uint32_t)y, &c);
			expect(got == (trace[v] != 0), "%s: cell (%d,%d) coloured %d, "
			       "marked %u", text, x, y, got, trace[v]);
			coloured += (unsigned)got;
		}
		ck_assert_uint_ge(coloured, 2);
		twz_render_release(&it, 1);
	}
	/* Refused: an unknown search, a name alone, too many numbers. */
	struct twz_overlay_item it;
	const char *bad[] = { "fast,1,1,2,2", "astar", "astar,1,2,3,4,5", "",
			      ",1,2,3,4",
			      "averyveryverylongnamethatisnotasearch,1,2,3,4" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_ne(twz_trace_overlay_parse(&it, &twz_trace_overlay,
							 bad[i], &err), 0);
		ck_assert_ptr_nonnull(strstr(err.msg, "--baseline needs"));
	}
	ck_assert_int_ne(twz_trace_overlay_parse(&it, &twz_trace_overlay, NULL,
						 &err), 0);
	free(trace);
	twz_scene_close(&sc);
	level_close(&lv);
}
END_TEST

/* ---- the benchmark's check ------------------------------------------------ */

/* A database cost the searches cannot meet makes the benchmark fail, and
 * the message names the search and the problem. */
START_TEST(test_bench_refuses_mismatch)
{
	struct level lv;
	struct twz_baseline_figures fig[TWZ_BASELINE_COUNT];
	struct twz_error err = { { 0 }, 0 };
	struct twz_baseline_query q[3];
	uint64_t state = 5;

	memset(&lv, 0, sizeof lv);
	twz_test_generate(&lv.grid, TWZ_TEST_ROOMS, 30, 24, 3);
	level_open(&lv, 8);
	uint32_t n = twz_node_count(lv.db);
	for (unsigned i = 0; i < 3; ) {
		twz_node s = (twz_node)rng_scaled(&state, n);
		twz_node t = (twz_node)rng_scaled(&state, n);
		uint32_t st, dg, x, y;
		if (s == t || twz_cost_exact(lv.db, s, t, &st, &dg) != TWZ_OK)
			continue;
		q[i] = (struct twz_baseline_query){ .s = s, .t = t,
			.straight = st, .diagonal = dg };
		twz_node_xy(lv.db, s, &x, &y);
		q[i].sx = x;
		q[i].sy = y;
		twz_node_xy(lv.db, t, &x, &y);
		q[i].gx = x;
		q[i].gy = y;
		i++;
	}
	ck_assert_int_eq(twz_baseline_bench(lv.db, "x.twz", q, 3, 1, 0.001, fig,
					    &err), 0);
	for (int k = 0; k < TWZ_BASELINE_COUNT; k++) {
		ck_assert_uint_eq(fig[k].paths, 3);
		ck_assert(fig[k].supported);
		if (k != TWZ_BASELINE_EVASION)
			ck_assert_uint_eq(fig[k].found, 3);
		ck_assert(fig[k].path_us > 0 && fig[k].lag_us > 0);
		ck_assert(fig[k].ratio_mean >= 1.0 && fig[k].ratio_max >= fig[k].ratio_mean);
		ck_assert(fig[k].expanded >= 1);
	}
	/* The database claims a cost one move cheaper than the truth. */
	if (q[1].straight)
		q[1].straight--;
	else
		q[1].diagonal--;
	ck_assert_int_ne(twz_baseline_bench(lv.db, "x.twz", q, 3, 1, 0.001, fig,
					    &err), 0);
	ck_assert_int_eq(err.kind, TWZ_ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(err.msg, "x.twz"));
	ck_assert_ptr_nonnull(strstr(err.msg, "Dijkstra finds cost"));
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	level_close(&lv);
}
END_TEST

/* ---- the tool ------------------------------------------------------------- */

static char work_dir[4096];

static const char *in_work(const char *name)
{
	static char buf[4][4200];
	static unsigned next;
	char *p = buf[next++ % 4];
	snprintf(p, sizeof buf[0], "%s/%s", work_dir, name);
	return p;
}

static void work_setup(void)
{
	ck_assert_ptr_nonnull(twz_test_make_dir(work_dir, sizeof work_dir,
						"twz-baselines-"));
}

static void work_teardown(void)
{
	twz_test_remove_tree(work_dir);
}

/* A generated level written and built with the tool; two walkable
 * cells far apart into sx..gy. */
static void tool_level(const char *name, unsigned connectivity,
		       unsigned cells[4])
{
	struct twz_grid g;
	struct twz_test_run r;
	char map[64], conn[4];

	twz_test_generate(&g, TWZ_TEST_CAVES, 48, 36, 11);
	snprintf(map, sizeof map, "%s.map", name);
	snprintf(conn, sizeof conn, "%u", connectivity);
	twz_test_write_map(in_work(map), &g);
	const char *args[] = { "build", in_work(map), "-o", in_work(name),
			       "--connectivity", conn, "--quiet", NULL };
	twz_test_run_tool(args, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "build: %s", r.err);
	twz_test_run_free(&r);
	/* The first and the last walkable cell. */
	size_t first = SIZE_MAX, last = 0;
	for (size_t i = 0; i < (size_t)g.width * g.height; i++)
		if (g.walkable[i]) {
			if (first == SIZE_MAX)
				first = i;
			last = i;
		}
	cells[0] = (unsigned)(first % g.width);
	cells[1] = (unsigned)(first / g.width);
	cells[2] = (unsigned)(last % g.width);
	cells[3] = (unsigned)(last / g.width);
	free(g.walkable);
}

START_TEST(test_tool_bench_baselines)
{
	struct twz_test_run r;
	unsigned cells[4];

	tool_level("c8.twz", 8, cells);
	const char *args[] = { "bench", in_work("c8.twz"), "--baselines",
			       "--pairs", "1000", "--paths", "40", NULL };
	twz_test_run_tool(args, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "bench: %s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "the same 40 random paths"));
	for (int k = 0; k < TWZ_BASELINE_COUNT; k++)
		ck_assert_ptr_nonnull(strstr(r.out, twz_baseline_title(k)));
	ck_assert_ptr_nonnull(strstr(r.out, "1 (equal, checked)"));
	ck_assert_ptr_nonnull(strstr(r.out, "mean "));
	twz_test_run_free(&r);

	const char *json[] = { "bench", in_work("c8.twz"), "--baselines",
			       "--json", "--pairs", "1000", "--paths", "20",
			       NULL };
	twz_test_run_tool(json, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "bench --json: %s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "\"baselines\":[{\"name\":\"dijkstra\""));
	ck_assert_ptr_nonnull(strstr(r.out, "{\"name\":\"jps\",\"supported\":true,"
				     "\"optimal\":true,\"paths\":20,\"found\":20,"));
	ck_assert_ptr_nonnull(strstr(r.out, "\"path_speedup\":"));
	ck_assert_ptr_nonnull(strstr(r.out, "\"lag_speedup\":"));
	ck_assert_ptr_nonnull(strstr(r.out, "\"cost_ratio_max\":"));
	twz_test_run_free(&r);

	/* 4-connected: BFS is optimal, JPS does not run. */
	tool_level("c4.twz", 4, cells);
	const char *four[] = { "bench", in_work("c4.twz"), "--baselines",
			       "--json", "--pairs", "1000", "--paths", "20",
			       NULL };
	twz_test_run_tool(four, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "bench 4: %s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "{\"name\":\"jps\",\"supported\":false}"));
	ck_assert_ptr_nonnull(strstr(r.out, "{\"name\":\"bfs\",\"supported\":true,"
				     "\"optimal\":true,"));
	twz_test_run_free(&r);
}
END_TEST

START_TEST(test_tool_render_baseline)
{
	struct twz_test_run r;
	unsigned c[4];
	char arg[96];

	tool_level("c8.twz", 8, c);
	for (int k = 0; k < TWZ_BASELINE_COUNT; k++) {
		snprintf(arg, sizeof arg, "%s,%u,%u,%u,%u", twz_baseline_name(k),
			 c[0], c[1], c[2], c[3]);
		const char *args[] = { "render", in_work("c8.twz"), "-o",
				       in_work("t.svg"), "--baseline", arg, NULL };
		twz_test_run_tool(args, NULL, 0, &r);
		ck_assert_msg(r.status == 0, "render %s: %s", arg, r.err);
		twz_test_run_free(&r);
		size_t len;
		char *svg = (char *)twz_test_read_file(in_work("t.svg"), &len);
		ck_assert_ptr_nonnull(strstr(svg, "database path: "));
		ck_assert_ptr_nonnull(strstr(svg, "expanded"));
		free(svg);
	}
	/* Refused, one line each: an unknown search, missing cells, a
	 * blocked cell, JPS on a 4-connected grid. */
	const char *bad[][2] = {
		{ "c8.twz", "fastest,1,1,2,2" },
		{ "c8.twz", "astar,1,1" },
		{ "c8.twz", "astar" },
		{ "c8.twz", "astar,0,0,1,1" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *args[] = { "render", in_work(bad[i][0]), "-o",
				       in_work("bad.svg"), "--baseline", bad[i][1],
				       NULL };
		twz_test_run_tool(args, NULL, 0, &r);
		ck_assert_msg(r.status == 2 || r.status == 3, "%s: status %d",
			      bad[i][1], r.status);
		ck_assert_msg(r.err_len > 0 && strchr(r.err, '\n') == r.err + r.err_len - 1,
			      "%s: not one line: %s", bad[i][1], r.err);
		twz_test_run_free(&r);
	}
	tool_level("c4.twz", 4, c);
	snprintf(arg, sizeof arg, "jps,%u,%u,%u,%u", c[0], c[1], c[2], c[3]);
	const char *four[] = { "render", in_work("c4.twz"), "-o",
			       in_work("bad.svg"), "--baseline", arg, NULL };
	twz_test_run_tool(four, NULL, 0, &r);
	ck_assert_int_ne(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.err, "8-connected grids only"));
	twz_test_run_free(&r);
}
END_TEST

static Suite *twz_baselines_suite(void)
{
	Suite *s = suite_create("baselines");
	TCase *tc = tcase_create("searches");

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_generated_levels, 0, 2 * TWZ_TEST_KIND_COUNT);
	tcase_add_test(tc, test_crafted_levels);
	tcase_add_test(tc, test_movingai_arena);
	tcase_add_test(tc, test_trace_counts);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_bench_refuses_mismatch);
	tcase_add_test(tc, test_overlay_cells);
	suite_add_tcase(s, tc);

	tc = tcase_create("tool");
	tcase_set_timeout(tc, 600);
	tcase_add_checked_fixture(tc, work_setup, work_teardown);
	tcase_add_test(tc, test_tool_bench_baselines);
	tcase_add_test(tc, test_tool_render_baseline);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_baselines_suite());
}
