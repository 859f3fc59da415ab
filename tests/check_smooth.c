/*
 * check_smooth.c - any-angle paths and world positions: twz_smooth
 * against two line-of-sight checkers written here from the rule in
 * twigz.h (one per grid line crossed, one over every cell and corner of
 * the segment's box, both exact rationals), and twz_nearest and
 * twz_path_partial against brute force, on hand-made, generated, project
 * and Moving AI levels, baked as CPD (both row layouts) and TRANSIT.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "level_scen.h"
#include "render.h"
#include "test_support.h"
#include "transit.h"
#include "twigz.h"
#include "twz_format.h"
#include "twz_rng.h"

/* ---- levels ----------------------------------------------------------- */

enum bake_kind { BAKE_CPD, BAKE_CPD_PLAIN, BAKE_TRANSIT, BAKE_KINDS };

struct level {
	struct twz_grid g;
	unsigned connectivity;
	uint8_t *buf;
	size_t len;
	twz_db *db;
};

static void level_bake(struct level *lv, unsigned connectivity,
		       enum bake_kind kind)
{
	lv->connectivity = connectivity;
	if (kind == BAKE_TRANSIT) {
		struct twz_bake_options opt;
		struct twz_transit_options topt = { 6, 1, 2 };
		struct twz_transit_db tdb;
		struct twz_error err;

		twz_bake_options_default(&opt);
		opt.connectivity = connectivity;
		opt.codec = TWZ_CODEC_ZSTD;
		opt.threads = 1;
		opt.name = "test level";
		memset(&err, 0, sizeof err);
		ck_assert_msg(twz_bake_transit(&lv->g, &opt, &topt, &tdb, &err) == 0,
			      "bake: %s", err.msg);
		ck_assert_msg(twz_transit_encode(&tdb, &lv->g, &opt, &lv->buf,
						 &lv->len, &err) == 0,
			      "encode: %s", err.msg);
		twz_transit_db_free(&tdb);
	} else {
		lv->buf = twz_test_bake_layout(&lv->g, connectivity,
					       TWZ_CODEC_ZSTD, 1,
					       kind == BAKE_CPD_PLAIN ?
					       TWZ_LAYOUT_PLAIN : 0, &lv->len);
	}
	ck_assert_int_eq(twz_open_memory(lv->buf, lv->len, 0, &lv->db), TWZ_OK);
	if (kind == BAKE_TRANSIT) {
		twz_info info;
		twz_get_info(lv->db, &info);
		ck_assert_uint_eq(info.method, TWZ_METHOD_TRANSIT);
	}
}

static void level_text(struct level *lv, const char *text, unsigned conn)
{
	twz_test_grid_from_text(&lv->g, text);
	level_bake(lv, conn, BAKE_CPD);
}

static void level_close(struct level *lv)
{
	twz_close(lv->db);
	free(lv->buf);
	twz_grid_free(&lv->g);
	memset(lv, 0, sizeof *lv);
}

static void cell_of(const struct level *lv, twz_node n, uint32_t *x, uint32_t *y)
{
	expect(twz_node_xy(lv->db, n, x, y) == TWZ_OK, "node %u has no cell", n);
}

/* ---- line of sight, written from the rule ------------------------------ */

static int open4(const struct twz_grid *g, int64_t i, int64_t j)
{
	/* The four cells around corner (i, j). */
	return twz_grid_walkable(g, i - 1, j - 1) && twz_grid_walkable(g, i, j - 1) &&
	       twz_grid_walkable(g, i - 1, j) && twz_grid_walkable(g, i, j);
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/*
 * Checker one: every grid line the segment crosses, where exactly. The
 * centres are (a + 1/2); column line x = k is crossed at y = ay + 1/2 +
 * (k - ax - 1/2) (by - ay) / (bx - ax), kept as a fraction over
 * 2 (bx - ax). A crossing inside an edge needs the two cells beside it, one
 * at a corner the four around it. A segment enters every cell it passes
 * through across an edge or a corner, so this sees them all.
 */
static int clear_crossings(const struct twz_grid *g, int64_t ax, int64_t ay,
			   int64_t bx, int64_t by)
{
	for (int pass = 0; pass < 2; pass++) {
		/* pass 0: column lines; pass 1: row lines, axes swapped. */
		int64_t u0 = pass ? ay : ax, u1 = pass ? by : bx;
		int64_t v0 = pass ? ax : ay, v1 = pass ? bx : by;
		int64_t lo = u0 < u1 ? u0 : u1, hi = u0 < u1 ? u1 : u0;
		for (int64_t k = lo + 1; k <= hi; k++) {
			int64_t den = 2 * (u1 - u0);
			int64_t num = (2 * v0 + 1) * (u1 - u0) + (2 * k - 2 * u0 - 1) * (v1 - v0);
			if (den < 0)
				den = -den, num = -num;
			int ok;
			if (num % den == 0) {
				int64_t j = num / den;
				ok = pass ? open4(g, j, k) : open4(g, k, j);
			} else {
				int64_t j = floor_div(num, den);
				ok = pass ? twz_grid_walkable(g, j, k - 1) &&
					    twz_grid_walkable(g, j, k)
					  : twz_grid_walkable(g, k - 1, j) &&
					    twz_grid_walkable(g, k, j);
			}
			if (!ok)
				return 0;
		}
	}
	return 1;
}

struct frac {
	int64_t n, d;   /* d > 0 */
};

static int frac_lt(struct frac a, struct frac b)
{
	return a.n * b.d < b.n * a.d;
}

static struct frac frac_make(int64_t n, int64_t d)
{
	return d < 0 ? (struct frac){ -n, -d } : (struct frac){ n, d };
}

/*
 * Checker two: every cell of the segment's box whose open square meets
 * the open segment (its t-interval on each axis, in doubled coordinates,
 * overlapping), and every corner of the box the segment goes through (its
 * cross product zero).
 */
static int clear_box(const struct twz_grid *g, int64_t ax, int64_t ay,
		     int64_t bx, int64_t by)
{
	int64_t X0 = 2 * ax + 1, Y0 = 2 * ay + 1;
	int64_t DX = 2 * (bx - ax), DY = 2 * (by - ay);
	int64_t x0 = ax < bx ? ax : bx, x1 = ax < bx ? bx : ax;
	int64_t y0 = ay < by ? ay : by, y1 = ay < by ? by : ay;

	for (int64_t cy = y0; cy <= y1; cy++)
		for (int64_t cx = x0; cx <= x1; cx++) {
			struct frac lo = { 0, 1 }, hi = { 1, 1 };
			int meets = 1;
			for (int axis = 0; axis < 2 && meets; axis++) {
				int64_t p0 = axis ? Y0 : X0, dp = axis ? DY : DX;
				int64_t c = axis ? cy : cx;
				if (dp == 0) {
					meets = 2 * c < p0 && p0 < 2 * c + 2;
					continue;
				}
				struct frac e0 = frac_make(2 * c - p0, dp);
				struct frac e1 = frac_make(2 * c + 2 - p0, dp);
				if (frac_lt(e1, e0)) {
					struct frac t = e0;
					e0 = e1;
					e1 = t;
				}
				if (frac_lt(lo, e0))
					lo = e0;
				if (frac_lt(e1, hi))
					hi = e1;
			}
			if (meets && frac_lt(lo, hi) && !twz_grid_walkable(g, cx, cy))
				return 0;
		}
	for (int64_t j = y0 + 1; j <= y1; j++)
		for (int64_t i = x0 + 1; i <= x1; i++)
			if (DX * (2 * j - Y0) == DY * (2 * i - X0) && !open4(g, i, j))
				return 0;
	return 1;
}

static double seg_len(int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
	return hypot((double)(bx - ax), (double)(by - ay));
}

/* ---- twz_smooth -------------------------------------------------------- */

/* twz_smooth on {a, a, b} keeps the middle node exactly when a does not
 * see b: the runtime's own test of one segment. */
static int runtime_clear(const struct level *lv, twz_node a, twz_node b)
{
	twz_node p[3] = { a, a, b };
	size_t n = 99;

	expect(twz_smooth(lv->db, p, 3, &n) == TWZ_OK, "smooth failed");
	expect(n == 2 || n == 3, "smooth of 3 gave %zu", n);
	expect(p[0] == a && p[n - 1] == b, "endpoints moved");
	return n == 2;
}

START_TEST(test_smooth_hand_made)
{
	struct level lv;

	/* Around an L: the corner cell is the only waypoint. */
	level_text(&lv, ".....\n@@@@.\n@@@@.", 8);
	twz_node p[16];
	size_t len, n;
	ck_assert_int_eq(twz_path(lv.db, twz_node_at(lv.db, 0, 0),
				  twz_node_at(lv.db, 4, 2), p, 16, &len), TWZ_OK);
	ck_assert_uint_eq(len, 7);
	ck_assert_int_eq(twz_smooth(lv.db, p, len, &n), TWZ_OK);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(p[0], twz_node_at(lv.db, 0, 0));
	ck_assert_uint_eq(p[1], twz_node_at(lv.db, 4, 0));
	ck_assert_uint_eq(p[2], twz_node_at(lv.db, 4, 2));
	level_close(&lv);

	/* Through a corner: (0,0) -> (2,1) passes exactly through corner
	 * (1,1), so all four cells around it must be open. */
	level_text(&lv, ".@.\n...\n...", 8);
	ck_assert(!runtime_clear(&lv, twz_node_at(lv.db, 0, 0),
				 twz_node_at(lv.db, 2, 1)));
	ck_assert(!runtime_clear(&lv, twz_node_at(lv.db, 0, 0),
				 twz_node_at(lv.db, 2, 2)));
	ck_assert(runtime_clear(&lv, twz_node_at(lv.db, 0, 1),
				twz_node_at(lv.db, 2, 2)));
	/* (0,2) -> (2,0) goes through corners (1,2) and (2,1); the blocked
	 * (1,0) is one of the four cells around (2,1). */
	ck_assert(!runtime_clear(&lv, twz_node_at(lv.db, 0, 2),
				 twz_node_at(lv.db, 2, 0)));
	level_close(&lv);

	/* A knight's move beside a wall misses the wall's corner. */
	level_text(&lv, "..@\n...", 8);
	ck_assert(runtime_clear(&lv, twz_node_at(lv.db, 0, 0),
				twz_node_at(lv.db, 2, 1)) ==
		  clear_box(&lv.g, 0, 0, 2, 1));
	level_close(&lv);

	/* Open ground: one straight segment, on 4-connected levels too. */
	for (unsigned conn = 4; conn <= 8; conn += 4) {
		level_text(&lv, "......\n......\n......\n......", conn);
		twz_node s = twz_node_at(lv.db, 0, 0), t = twz_node_at(lv.db, 5, 3);
		ck_assert_int_eq(twz_path(lv.db, s, t, p, 16, &len), TWZ_OK);
		ck_assert_int_eq(twz_smooth(lv.db, p, len, &n), TWZ_OK);
		ck_assert_uint_eq(n, 2);
		ck_assert_uint_eq(p[0], s);
		ck_assert_uint_eq(p[1], t);
		level_close(&lv);
	}
}
END_TEST

START_TEST(test_smooth_arguments)
{
	struct level lv;
	twz_node p[4];
	size_t n = 7;

	level_text(&lv, "...\n...", 8);
	ck_assert_int_eq(twz_smooth(NULL, p, 0, &n), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_smooth(lv.db, p, 1, NULL), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_smooth(lv.db, NULL, 1, &n), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_smooth(lv.db, NULL, 0, &n), TWZ_OK);
	ck_assert_uint_eq(n, 0);
	p[0] = 0, p[1] = 6, p[2] = 1;
	ck_assert_int_eq(twz_smooth(lv.db, p, 3, &n), TWZ_E_ARGUMENT);
	p[1] = TWZ_NONE;
	ck_assert_int_eq(twz_smooth(lv.db, p, 3, &n), TWZ_E_ARGUMENT);
	p[0] = 3;
	ck_assert_int_eq(twz_smooth(lv.db, p, 1, &n), TWZ_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(p[0], 3);
	/* Two nodes, even one node twice, stay as they are. */
	p[0] = 2, p[1] = 2;
	ck_assert_int_eq(twz_smooth(lv.db, p, 2, &n), TWZ_OK);
	ck_assert_uint_eq(n, 2);
	level_close(&lv);
}
END_TEST

#define GEN_CASES (TWZ_TEST_KIND_COUNT * 2)

/* Every pair of cells of small generated levels: the runtime's segment
 * test agrees with both checkers, which agree with each other. */
START_TEST(test_smooth_every_segment)
{
	struct level lv;
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i / 2);
	unsigned conn = _i % 2 ? 4 : 8;
	uint64_t agree = 0, clear = 0;

	twz_test_generate(&lv.g, kind, 14, 11, 100 + (uint64_t)_i);
	level_bake(&lv, conn, BAKE_CPD);
	uint32_t nodes = twz_node_count(lv.db);
	for (twz_node a = 0; a < nodes; a++)
		for (twz_node b = 0; b < nodes; b++) {
			uint32_t ax, ay, bx, by;
			cell_of(&lv, a, &ax, &ay);
			cell_of(&lv, b, &bx, &by);
			int c1 = clear_crossings(&lv.g, ax, ay, bx, by);
			int c2 = clear_box(&lv.g, ax, ay, bx, by);
			int rt = runtime_clear(&lv, a, b);
			expect(c1 == c2, "%s: checkers disagree on (%u,%u)-(%u,%u)",
			       twz_test_kind_name(kind), ax, ay, bx, by);
			expect(rt == c1, "%s/%u: (%u,%u)-(%u,%u): runtime says %s",
			       twz_test_kind_name(kind), conn, ax, ay, bx, by,
			       rt ? "clear" : "blocked");
			agree++;
			clear += (uint64_t)rt;
		}
	ck_assert_uint_gt(agree, 0);
	ck_assert_uint_gt(clear, nodes);
	level_close(&lv);
}
END_TEST

struct smooth_tally {
	double grid, smooth;   /* summed lengths */
	uint64_t paths, waypoints;
};

/*
 * Smooth the path s -> t and check it: endpoints kept; a subsequence of
 * the grid path; every segment clear; each waypoint needed (its two
 * neighbours do not see each other); never longer than the cost.
 */
static void check_smoothed(const struct level *lv, twz_node s, twz_node t,
			   twz_node *buf, twz_node *orig, size_t cap,
			   struct smooth_tally *tl)
{
	size_t len, n;
	twz_status st = twz_path(lv->db, s, t, buf, cap, &len);

	if (st == TWZ_E_UNREACHABLE)
		return;
	ck_assert_int_eq(st, TWZ_OK);
	memcpy(orig, buf, len * sizeof *buf);
	double cost = twz_cost(lv->db, s, t);
	ck_assert_int_eq(twz_smooth(lv->db, buf, len, &n), TWZ_OK);
	expect(n >= 1 && n <= len, "smoothed %zu of %zu", n, len);
	expect(buf[0] == s && buf[n - 1] == t, "endpoints not kept");
	expect(len < 2 || n >= 2, "a path of %zu became %zu", len, n);

	double sum = 0;
	size_t j = 0;   /* index in orig of buf[k] */
	for (size_t k = 1; k < n; k++) {
		j++;
		while (j < len && orig[j] != buf[k])
			j++;
		expect(j < len, "waypoint %zu is not on the grid path", k);
		uint32_t ax, ay, bx, by;
		cell_of(lv, buf[k - 1], &ax, &ay);
		cell_of(lv, buf[k], &bx, &by);
		expect(clear_crossings(&lv->g, ax, ay, bx, by),
		       "segment (%u,%u)-(%u,%u) is not clear", ax, ay, bx, by);
		sum += seg_len(ax, ay, bx, by);
		/* Corners only: the waypoints either side of this one do
		 * not see each other (so none lies straight between them). */
		if (k + 1 < n) {
			uint32_t cx, cy;
			cell_of(lv, buf[k + 1], &cx, &cy);
			expect(!clear_crossings(&lv->g, ax, ay, cx, cy),
			       "waypoint (%u,%u) is not needed", bx, by);
		}
	}
	expect(sum <= cost + 1e-9, "smoothed %.6f > grid %.6f", sum, cost);
	tl->grid += cost;
	tl->smooth += sum;
	tl->paths++;
	tl->waypoints += n;
}

static void random_smooth(const struct level *lv, unsigned pairs, uint64_t seed,
			  struct smooth_tally *tl)
{
	uint32_t nodes = twz_node_count(lv->db);
	size_t cap = (size_t)nodes + 1;
	twz_node *buf = malloc(cap * sizeof *buf), *orig = malloc(cap * sizeof *orig);
	uint64_t rng = seed;

	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(orig);
	for (unsigned i = 0; i < pairs; i++)
		check_smoothed(lv, rng_below(&rng, nodes), rng_below(&rng, nodes),
			       buf, orig, cap, tl);
	free(buf);
	free(orig);
}

/* Generated levels of every kind, 8- and 4-connected, each bake. */
START_TEST(test_smooth_generated_paths)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i / 2);
	unsigned conn = _i % 2 ? 4 : 8;

	for (int b = 0; b < BAKE_KINDS; b++) {
		struct level lv;
		struct smooth_tally tl = { 0, 0, 0, 0 };
		twz_test_generate(&lv.g, kind, 40, 30, 7 + (uint64_t)_i);
		level_bake(&lv, conn, (enum bake_kind)b);
		random_smooth(&lv, 400, 11 + (uint64_t)_i, &tl);
		ck_assert_uint_gt(tl.paths, 0);
		ck_assert(tl.smooth <= tl.grid + 1e-6);
		level_close(&lv);
	}
}
END_TEST

static const char *const project_levels[] = {
	"data/caves.map", "data/demo.map", "data/maze.map", "data/open.map",
	"tests/levels/rooms.map",
};
#define PROJECT_LEVELS (int)(sizeof project_levels / sizeof project_levels[0])

START_TEST(test_smooth_project_levels)
{
	struct level lv;
	struct twz_error err = { { 0 }, 0 };
	struct smooth_tally tl = { 0, 0, 0, 0 };

	ck_assert_msg(twz_grid_load(twz_test_source_file(project_levels[_i]),
				    &lv.g, &err) == 0, "%s", err.msg);
	level_bake(&lv, 8, _i % 2 ? BAKE_TRANSIT : BAKE_CPD);
	random_smooth(&lv, 1500, 3 + (uint64_t)_i, &tl);
	ck_assert_uint_gt(tl.paths, 0);
	printf("# %s: %llu paths, smoothed %.2f%% of the grid length, "
	       "%.1f waypoints a path\n", project_levels[_i],
	       (unsigned long long)tl.paths, 100 * tl.smooth / tl.grid,
	       (double)tl.waypoints / (double)tl.paths);
	level_close(&lv);
}
END_TEST

static const char *const movingai_levels[] = {
	"dao/arena", "dao/den011d", "da2/ht_chantry_n",
};
#define MOVINGAI_LEVELS (int)(sizeof movingai_levels / sizeof movingai_levels[0])

/* Every scenario line of a Moving AI level: checked, and the smoothed
 * length against the published octile optimum reported. */
START_TEST(test_smooth_movingai)
{
	struct level lv;
	struct twz_scen sc;
	char scen_path[4096];
	struct smooth_tally tl = { 0, 0, 0, 0 };
	double optimum = 0;

	if (!twz_test_movingai_dir()) {
		printf("# movingai levels not found at %s: skipped\n",
		       twz_test_movingai_where());
		return;
	}
	memset(&lv, 0, sizeof lv);
	ck_assert_int_eq(twz_test_movingai_load(movingai_levels[_i], &lv.g, &sc,
						scen_path, sizeof scen_path), 0);
	level_bake(&lv, 8, BAKE_CPD);
	size_t cap = (size_t)twz_node_count(lv.db) + 1;
	twz_node *buf = malloc(cap * sizeof *buf), *orig = malloc(cap * sizeof *orig);
	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(orig);
	for (size_t i = 0; i < sc.count; i++) {
		const struct twz_scen_entry *e = &sc.entries[i];
		if (e->unreachable)
			continue;
		uint64_t before = tl.paths;
		check_smoothed(&lv, twz_node_at(lv.db, e->sx, e->sy),
			       twz_node_at(lv.db, e->gx, e->gy), buf, orig, cap, &tl);
		expect(tl.paths == before + 1, "line %lu: no path", e->line);
		optimum += e->optimal;
	}
	printf("# %s: %llu scenario paths, smoothed length %.2f%% of the "
	       "octile optimum, %.1f waypoints a path\n", movingai_levels[_i],
	       (unsigned long long)tl.paths, 100 * tl.smooth / optimum,
	       (double)tl.waypoints / (double)tl.paths);
	free(buf);
	free(orig);
	twz_scen_free(&sc);
	level_close(&lv);
}
END_TEST

/* ---- twz_nearest and twz_path_partial ---------------------------------- */

struct region_map {
	uint32_t *id;   /* [cells]: a region number, UINT32_MAX blocked */
};

/* Regions by flood fill over the level's own moves (independent of the
 * database's region tables). */
static void regions_of(const struct level *lv, struct region_map *rm)
{
	const struct twz_grid *g = &lv->g;
	size_t cells = (size_t)g->width * g->height;
	uint32_t *stack = malloc(cells * sizeof *stack), next = 0;

	rm->id = malloc(cells * sizeof *rm->id);
	ck_assert_ptr_nonnull(stack);
	ck_assert_ptr_nonnull(rm->id);
	for (size_t c = 0; c < cells; c++)
		rm->id[c] = UINT32_MAX;
	for (size_t c = 0; c < cells; c++) {
		if (!g->walkable[c] || rm->id[c] != UINT32_MAX)
			continue;
		size_t top = 0;
		stack[top++] = (uint32_t)c;
		rm->id[c] = next;
		while (top) {
			uint32_t at = stack[--top];
			uint32_t x = at % g->width, y = at / g->width;
			for (unsigned m = 0; m < lv->connectivity; m++) {
				if (!twz_test_move_legal(g, lv->connectivity, x, y, m))
					continue;
				size_t to = (size_t)(y + twz_test_move_dy(m)) * g->width +
					    (size_t)(x + twz_test_move_dx(m));
				if (rm->id[to] == UINT32_MAX) {
					rm->id[to] = next;
					stack[top++] = (uint32_t)to;
				}
			}
		}
		next++;
	}
	free(stack);
}

/* Brute force: every cell, the nearest by squared distance, ties to the
 * smaller y then x; region UINT32_MAX: any. Returns the cell index or
 * SIZE_MAX. */
static size_t brute_nearest(const struct level *lv, const struct region_map *rm,
			    int64_t px, int64_t py, uint32_t radius,
			    uint32_t region)
{
	const struct twz_grid *g = &lv->g;
	size_t best = SIZE_MAX;
	uint64_t bd = 0;

	for (uint32_t y = 0; y < g->height; y++)
		for (uint32_t x = 0; x < g->width; x++) {
			size_t c = (size_t)y * g->width + x;
			if (!g->walkable[c] || (region != UINT32_MAX && rm->id[c] != region))
				continue;
			uint64_t dx = (uint64_t)(px > x ? px - x : x - px);
			uint64_t dy = (uint64_t)(py > y ? py - y : y - py);
			uint64_t d2 = dx * dx + dy * dy;
			if (radius != TWZ_RADIUS_ANY && d2 > (uint64_t)radius * radius)
				continue;
			/* Row-major order: the first of equals is the tie's winner. */
			if (best == SIZE_MAX || d2 < bd) {
				best = c;
				bd = d2;
			}
		}
	return best;
}

static void check_nearest(const struct level *lv, const struct region_map *rm,
			  int64_t px, int64_t py, uint32_t radius, twz_node from)
{
	uint32_t region = UINT32_MAX;
	twz_node got = 12345;

	if (from != TWZ_NONE) {
		uint32_t fx, fy;
		cell_of(lv, from, &fx, &fy);
		region = rm->id[(size_t)fy * lv->g.width + fx];
	}
	size_t want = brute_nearest(lv, rm, px, py, radius, region);
	twz_status st = twz_nearest(lv->db, px, py, radius, from, &got);
	if (want == SIZE_MAX) {
		expect(st == TWZ_E_OUT_OF_RANGE && got == TWZ_NONE,
		       "(%lld,%lld) r %u: found %u, expected none", (long long)px,
		       (long long)py, radius, got);
		return;
	}
	twz_node wn = twz_node_at(lv->db, want % lv->g.width, want / lv->g.width);
	expect(st == TWZ_OK && got == wn,
	       "(%lld,%lld) r %u from %u: got %u (%s), expected (%zu,%zu)",
	       (long long)px, (long long)py, radius, from, got,
	       twz_strerror(st), want % lv->g.width, want / lv->g.width);
}

static const uint32_t radii[] = { 0, 1, 2, 3, 5, 8, 20, TWZ_RADIUS_ANY };
#define RADII (sizeof radii / sizeof radii[0])

START_TEST(test_nearest_against_brute_force)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i / 2);
	unsigned conn = _i % 2 ? 4 : 8;

	for (int b = 0; b < BAKE_KINDS; b++) {
		struct level lv;
		struct region_map rm;
		uint64_t rng = 31 + (uint64_t)_i * 7 + (uint64_t)b;

		twz_test_generate(&lv.g, kind, 23 + (unsigned)b, 17, 40 + (uint64_t)_i);
		level_bake(&lv, conn, (enum bake_kind)b);
		regions_of(&lv, &rm);
		uint32_t nodes = twz_node_count(lv.db);
		int64_t w = lv.g.width, h = lv.g.height;
		for (int q = 0; q < 1500; q++) {
			int64_t px = (int64_t)rng_below(&rng, (uint32_t)w + 16) - 8;
			int64_t py = (int64_t)rng_below(&rng, (uint32_t)h + 16) - 8;
			uint32_t radius = radii[rng_below(&rng, RADII)];
			twz_node from = rng_below(&rng, 3) ? rng_below(&rng, nodes)
							   : TWZ_NONE;
			check_nearest(&lv, &rm, px, py, radius, from);
		}
		/* Far off the map, every side and corner. */
		static const int64_t far[] = { -2147483647LL, -100000, -1, 0, 5,
					       100000, 2147483647LL };
		for (size_t i = 0; i < 7; i++)
			for (size_t j = 0; j < 7; j++) {
				check_nearest(&lv, &rm, far[i], far[j], TWZ_RADIUS_ANY,
					      TWZ_NONE);
				check_nearest(&lv, &rm, far[i], far[j], TWZ_RADIUS_ANY,
					      rng_below(&rng, nodes));
				check_nearest(&lv, &rm, far[i], far[j], 10, TWZ_NONE);
			}
		free(rm.id);
		level_close(&lv);
	}
}
END_TEST

START_TEST(test_nearest_ties_and_arguments)
{
	struct level lv;
	twz_node n;

	/* (1,1) is blocked; its four straight neighbours are all at 1: the
	 * smaller y wins, (1,0). */
	level_text(&lv, "...\n.@.\n...", 8);
	ck_assert_int_eq(twz_nearest(lv.db, 1, 1, TWZ_RADIUS_ANY, TWZ_NONE, &n),
			 TWZ_OK);
	ck_assert_uint_eq(n, twz_node_at(lv.db, 1, 0));
	ck_assert_int_eq(twz_nearest(lv.db, 1, 1, 0, TWZ_NONE, &n),
			 TWZ_E_OUT_OF_RANGE);
	ck_assert_uint_eq(n, TWZ_NONE);
	ck_assert_int_eq(twz_nearest(lv.db, 1, 1, 1, TWZ_NONE, &n), TWZ_OK);
	/* A walkable cell is its own nearest, radius 0 included. */
	ck_assert_int_eq(twz_nearest(lv.db, 2, 2, 0, TWZ_NONE, &n), TWZ_OK);
	ck_assert_uint_eq(n, twz_node_at(lv.db, 2, 2));
	/* Off the map to the left of the middle row: (0,1) at 1. */
	ck_assert_int_eq(twz_nearest(lv.db, -1, 1, TWZ_RADIUS_ANY, TWZ_NONE, &n),
			 TWZ_OK);
	ck_assert_uint_eq(n, twz_node_at(lv.db, 0, 1));
	/* Diagonally off the grid's corner: (2,2), alone at sqrt 2. */
	ck_assert_int_eq(twz_nearest(lv.db, 3, 3, TWZ_RADIUS_ANY, TWZ_NONE, &n),
			 TWZ_OK);
	ck_assert_uint_eq(n, twz_node_at(lv.db, 2, 2));
	ck_assert_int_eq(twz_nearest(lv.db, 3, 3, 1, TWZ_NONE, &n),
			 TWZ_E_OUT_OF_RANGE);
	/* Arguments. */
	ck_assert_int_eq(twz_nearest(NULL, 0, 0, 1, TWZ_NONE, &n), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_nearest(lv.db, 0, 0, 1, TWZ_NONE, NULL),
			 TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_nearest(lv.db, 0, 0, 1, 8, &n), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_nearest(lv.db, INT64_MIN, 0, 1, TWZ_NONE, &n),
			 TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_nearest(lv.db, 0, 2147483648LL, 1, TWZ_NONE, &n),
			 TWZ_E_ARGUMENT);
	ck_assert_uint_eq(n, TWZ_NONE);
	level_close(&lv);

	/* Regions: from the left room, the nearest cell to the right room's
	 * centre is the left room's edge. */
	level_text(&lv, "..@..\n..@..\n..@..", 8);
	twz_node left = twz_node_at(lv.db, 0, 0);
	ck_assert_int_eq(twz_nearest(lv.db, 4, 1, TWZ_RADIUS_ANY, left, &n), TWZ_OK);
	ck_assert_uint_eq(n, twz_node_at(lv.db, 1, 1));
	ck_assert_int_eq(twz_nearest(lv.db, 4, 1, 2, left, &n), TWZ_E_OUT_OF_RANGE);
	ck_assert_int_eq(twz_nearest(lv.db, 4, 1, 3, left, &n), TWZ_OK);
	ck_assert_uint_eq(n, twz_node_at(lv.db, 1, 1));
	level_close(&lv);
}
END_TEST

/* The path toward any goal cell: to the brute-force nearest cell of s's
 * region, of the optimal cost Dijkstra gives, step by legal step. */
START_TEST(test_path_partial_against_brute_force)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i / 2);
	unsigned conn = _i % 2 ? 4 : 8;

	for (int b = 0; b < BAKE_KINDS; b++) {
		struct level lv;
		struct region_map rm;
		uint64_t rng = 77 + (uint64_t)_i * 5 + (uint64_t)b;

		twz_test_generate(&lv.g, kind, 24, 18, 90 + (uint64_t)_i);
		level_bake(&lv, conn, (enum bake_kind)b);
		regions_of(&lv, &rm);
		uint32_t nodes = twz_node_count(lv.db), w = lv.g.width;
		size_t cells = (size_t)w * lv.g.height, cap = (size_t)nodes + 1;
		struct twz_cost *dist = malloc(cells * sizeof *dist);
		twz_node *buf = malloc(cap * sizeof *buf), *full = malloc(cap * sizeof *full);
		ck_assert_ptr_nonnull(dist);
		ck_assert_ptr_nonnull(buf);
		ck_assert_ptr_nonnull(full);
		for (int q = 0; q < 60; q++) {
			twz_node s = rng_below(&rng, nodes);
			uint32_t sx, sy;
			cell_of(&lv, s, &sx, &sy);
			twz_test_dijkstra(&lv.g, conn, sx, sy, dist);
			for (int k = 0; k < 20; k++) {
				int64_t gx = (int64_t)rng_below(&rng, w + 6) - 3;
				int64_t gy = (int64_t)rng_below(&rng, lv.g.height + 6) - 3;
				size_t want = brute_nearest(&lv, &rm, gx, gy, TWZ_RADIUS_ANY,
							    rm.id[(size_t)sy * w + sx]);
				ck_assert(want != SIZE_MAX);
				twz_node reached = 0;
				size_t len = 0;
				twz_status st = twz_path_partial(lv.db, s, gx, gy, buf, cap,
								 &len, &reached);
				expect(st == TWZ_OK, "partial: %s", twz_strerror(st));
				twz_node wn = twz_node_at(lv.db, want % w, want / w);
				expect(reached == wn && buf[len - 1] == wn && buf[0] == s,
				       "partial toward (%lld,%lld) ended at node %u, "
				       "expected (%zu,%zu)", (long long)gx,
				       (long long)gy, reached, want % w, want / w);
				struct twz_cost c = { 0, 0 };
				for (size_t i = 1; i < len; i++) {
					uint32_t ax, ay, bx, by;
					cell_of(&lv, buf[i - 1], &ax, &ay);
					cell_of(&lv, buf[i], &bx, &by);
					int m = -1;
					for (unsigned mm = 0; mm < conn; mm++)
						if (twz_test_move_dx(mm) == (int)bx - (int)ax &&
						    twz_test_move_dy(mm) == (int)by - (int)ay)
							m = (int)mm;
					expect(m >= 0 && twz_test_move_legal(&lv.g, conn, ax, ay,
									     (unsigned)m),
					       "illegal step (%u,%u)-(%u,%u)", ax, ay, bx, by);
					c = twz_test_cost_add_move(c, (unsigned)m);
				}
				expect(twz_test_cost_eq(c, dist[want]), "partial path not optimal");
				/* A reachable goal: exactly twz_path. */
				twz_node g = (gx >= 0 && gy >= 0) ? twz_node_at(lv.db, gx, gy)
								  : TWZ_NONE;
				if (g != TWZ_NONE && rm.id[(size_t)gy * w + (size_t)gx] ==
						     rm.id[(size_t)sy * w + sx]) {
					size_t flen;
					ck_assert_int_eq(twz_path(lv.db, s, g, full, cap, &flen),
							 TWZ_OK);
					expect(flen == len && !memcmp(full, buf, len * sizeof *buf),
					       "partial differs from twz_path");
				}
			}
		}
		/* Too small a buffer, and arguments. */
		size_t len;
		twz_node r;
		twz_node s0 = 0;
		ck_assert_int_eq(twz_path_partial(lv.db, s0, -5, -5, NULL, 0, &len, &r),
				 TWZ_E_BUFFER_TOO_SMALL);
		ck_assert_uint_ge(len, 1);
		ck_assert_uint_ne(r, TWZ_NONE);
		ck_assert_int_eq(twz_path_partial(lv.db, nodes, 0, 0, buf, cap, &len, &r),
				 TWZ_E_ARGUMENT);
		ck_assert_int_eq(twz_path_partial(lv.db, s0, 0, 0, buf, cap, NULL, &r),
				 TWZ_E_ARGUMENT);
		ck_assert_int_eq(twz_path_partial(NULL, s0, 0, 0, buf, cap, &len, &r),
				 TWZ_E_ARGUMENT);
		free(dist);
		free(buf);
		free(full);
		free(rm.id);
		level_close(&lv);
	}
}
END_TEST

/* ---- the tool: query --smooth, render --smooth ------------------------- */

/* The cells of a JSON line's "path" array into xy (pairs); their count. */
static size_t json_path(const char *line, uint32_t *xy, size_t cap)
{
	const char *p = strstr(line, "\"path\":[");
	size_t n = 0;
	unsigned x, y;
	int used;

	ck_assert_ptr_nonnull(p);
	p += 8;
	while (sscanf(p, "[%u,%u]%n", &x, &y, &used) == 2) {
		ck_assert_uint_lt(n, cap);
		xy[2 * n] = x;
		xy[2 * n + 1] = y;
		n++;
		p += used;
		if (*p == ',')
			p++;
	}
	ck_assert_msg(*p == ']', "bad path in: %s", line);
	return n;
}

START_TEST(test_smooth_query_command)
{
	char dir[4096], db[4200], scen[4200];
	struct level lv;
	struct twz_error err = { { 0 }, 0 };
	struct twz_scen sc;
	struct twz_test_run r;

	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "twz-smooth-"));
	snprintf(db, sizeof db, "%s/demo.twz", dir);
	snprintf(scen, sizeof scen, "%s", twz_test_source_file("data/demo.map.scen"));
	const char *build[] = { "build", twz_test_source_file("data/demo.map"), "-o",
				db, "--quiet", NULL };
	twz_test_run_tool(build, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "build: %s", r.err);
	twz_test_run_free(&r);

	/* The database the tool wrote, read here through the library. */
	memset(&lv, 0, sizeof lv);
	lv.buf = twz_test_read_file(db, &lv.len);
	ck_assert_int_eq(twz_open_memory(lv.buf, lv.len, 0, &lv.db), TWZ_OK);
	ck_assert_msg(twz_grid_load(twz_test_source_file("data/demo.map"), &lv.g,
				    &err) == 0, "%s", err.msg);
	ck_assert_msg(twz_scen_load(scen, &sc, &err) == 0, "%s", err.msg);

	const char *query[] = { "query", db, "--scen", scen, "--json", "--smooth",
				NULL };
	twz_test_run_tool(query, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "query: %s", r.err);
	size_t cap = (size_t)twz_node_count(lv.db) + 1;
	twz_node *buf = malloc(cap * sizeof *buf);
	uint32_t *xy = malloc(2 * cap * sizeof *xy);
	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(xy);
	char *line = r.out;
	size_t lines = 0;
	for (size_t i = 0; i < sc.count; i++) {
		const struct twz_scen_entry *e = &sc.entries[i];
		char *nl = strchr(line, '\n');
		ck_assert_ptr_nonnull(nl);
		*nl = 0;
		size_t len, n, got = json_path(line, xy, cap);
		twz_status st = twz_path(lv.db, twz_node_at(lv.db, e->sx, e->sy),
					 twz_node_at(lv.db, e->gx, e->gy), buf, cap, &len);
		if (st == TWZ_E_UNREACHABLE) {
			expect(got == 0, "line %zu: a path where there is none", i + 1);
		} else {
			ck_assert_int_eq(st, TWZ_OK);
			ck_assert_int_eq(twz_smooth(lv.db, buf, len, &n), TWZ_OK);
			expect(got == n, "line %zu: %zu waypoints, expected %zu",
			       i + 1, got, n);
			double sum = 0;
			for (size_t k = 0; k < n; k++) {
				uint32_t x, y;
				cell_of(&lv, buf[k], &x, &y);
				expect(xy[2 * k] == x && xy[2 * k + 1] == y,
				       "line %zu: waypoint %zu differs", i + 1, k);
				if (k)
					sum += seg_len(xy[2 * k - 2], xy[2 * k - 1], x, y);
			}
			const char *lp = strstr(line, "\"length\":");
			ck_assert_ptr_nonnull(lp);
			expect(fabs(strtod(lp + 9, NULL) - sum) < 1e-6,
			       "line %zu: length", i + 1);
		}
		line = nl + 1;
		lines++;
	}
	ck_assert_str_eq(line, "");
	ck_assert_uint_gt(lines, 0);
	twz_test_run_free(&r);

	/* Plain text: the waypoint count and the length. */
	const char *one[] = { "query", db, "2", "30", "60", "6", "--smooth", NULL };
	twz_test_run_tool(one, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "query: %s", r.err);
	ck_assert_msg(strstr(r.out, "waypoints: (2,30) ") && strstr(r.out, "length "),
		      "%s", r.out);
	twz_test_run_free(&r);

	/* The query smooths around cells shut at run time (the segments'
	 * own checks are in check_world.c); render, which draws the
	 * database's smoothing, refuses the pair, writing nothing. */
	char doors[4200], pic[4200];
	snprintf(doors, sizeof doors, "%s/doors.txt", dir);
	snprintf(pic, sizeof pic, "%s/pic.svg", dir);
	FILE *f = fopen(doors, "w");
	ck_assert_ptr_nonnull(f);
	fputs("4 3\n", f);
	fclose(f);
	const char *both[] = { "query", db, "2", "30", "60", "6", "--smooth",
			       "--closed", doors, NULL };
	twz_test_run_tool(both, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "query --smooth --closed: %s", r.err);
	ck_assert_msg(strstr(r.out, "waypoints: (2,30) "), "%s", r.out);
	twz_test_run_free(&r);
	const char *draw[] = { "render", db, "-o", pic, "--path", "2,30,60,6",
			       "--smooth", "--closed", doors, NULL };
	twz_test_run_tool(draw, NULL, 0, &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "--closed"), "%s", r.err);
	ck_assert_int_ne(access(pic, F_OK), 0);
	twz_test_run_free(&r);

	free(buf);
	free(xy);
	twz_scen_free(&sc);
	level_close(&lv);
	twz_test_remove_tree(dir);
}
END_TEST

/* render --smooth: the straight segment the waypoints make is drawn in
 * the path's own colour where the grid path does not go. */
START_TEST(test_smooth_render)
{
	struct twz_scene scene;
	struct twz_overlay_item item;
	struct twz_render_options opt;
	struct twz_canvas canvas;
	struct twz_layout layout;
	struct twz_error err = { { 0 }, 0 };
	struct twz_grid g;
	size_t len;

	/* Open ground: the grid path runs diagonally then straight, the
	 * smoothed one straight from start to goal. */
	twz_test_grid_from_text(&g, "..........\n"
				    "..........\n"
				    "..........\n"
				    "..........\n"
				    "..........\n"
				    "..........");
	uint8_t *buf = twz_test_bake(&g, 8, TWZ_CODEC_RAW, 1, &len);
	ck_assert_int_eq(twz_scene_open_memory(buf, len, "open.twz", &scene, &err), 0);
	ck_assert_int_eq(twz_overlay_parse(&item, twz_overlay_find("smooth-path"),
					   "1,1,8,5", &err), 0);
	twz_render_options_default(&opt);
	opt.scale = 16;
	ck_assert_msg(twz_render_prepare(&scene, &item, 1, &err) == 0, "%s", err.msg);
	ck_assert_msg(twz_render_draw(&scene, &item, 1, &opt, &canvas, &layout,
				      &err) == 0, "%s", err.msg);
	/* A point on the segment, well off the grid path. */
	double ax, ay, bx, by;
	twz_cell_centre(&layout, 1, 1, &ax, &ay);
	twz_cell_centre(&layout, 8, 5, &bx, &by);
	struct twz_rgb c = twz_canvas_pixel(&canvas, (uint32_t)(ax + (bx - ax) * 0.3),
					    (uint32_t)(ay + (by - ay) * 0.3));
	struct twz_rgb want = twz_palette_category(0);
	ck_assert_msg(c.r == want.r && c.g == want.g && c.b == want.b,
		      "#%02x%02x%02x on the smoothed segment", c.r, c.g, c.b);
	twz_canvas_free(&canvas);
	twz_render_release(&item, 1);
	twz_scene_close(&scene);
	free(buf);
	twz_grid_free(&g);

	/* The command: --smooth turns --path into smooth-path, and alone is
	 * refused. */
	char dir[4096], out[4200];
	struct twz_test_run r;
	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "twz-smooth-"));
	snprintf(out, sizeof out, "%s/demo.svg", dir);
	const char *map = twz_test_source_file("data/demo.map");
	const char *ok[] = { "render", map, "-o", out, "--path", "2,30,60,6",
			     "--smooth", NULL };
	twz_test_run_tool(ok, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "render: %s", r.err);
	twz_test_run_free(&r);
	size_t svg_len;
	char *svg = (char *)twz_test_read_file(out, &svg_len);
	ck_assert_msg(strstr(svg, "any-angle") != NULL, "no smoothed legend");
	free(svg);
	const char *alone[] = { "render", map, "-o", out, "--smooth", NULL };
	twz_test_run_tool(alone, NULL, 0, &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "--smooth") && !strchr(r.err, '\n')[1],
		      "%s", r.err);
	twz_test_run_free(&r);
	twz_test_remove_tree(dir);
}
END_TEST

/* ---- suite --------------------------------------------------------------- */

static Suite *twz_smooth_suite(void)
{
	Suite *s = suite_create("smooth");
	TCase *tc;

	tc = tcase_create("Smooth");
	tcase_add_test(tc, test_smooth_hand_made);
	tcase_add_test(tc, test_smooth_arguments);
	tcase_add_loop_test(tc, test_smooth_every_segment, 0, GEN_CASES);
	tcase_add_loop_test(tc, test_smooth_generated_paths, 0, GEN_CASES);
	tcase_add_loop_test(tc, test_smooth_project_levels, 0, PROJECT_LEVELS);
	tcase_add_loop_test(tc, test_smooth_movingai, 0, MOVINGAI_LEVELS);
	suite_add_tcase(s, tc);

	tc = tcase_create("Nearest");
	tcase_add_test(tc, test_nearest_ties_and_arguments);
	tcase_add_loop_test(tc, test_nearest_against_brute_force, 0, GEN_CASES);
	tcase_add_loop_test(tc, test_path_partial_against_brute_force, 0, GEN_CASES);
	suite_add_tcase(s, tc);

	tc = tcase_create("Tool");
	tcase_add_test(tc, test_smooth_query_command);
	tcase_add_test(tc, test_smooth_render);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_smooth_suite());
}
