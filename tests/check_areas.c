/*
 * check_areas.c - areas and their costs (twigz build --costs, FORMAT.md
 * 5k) on grids of agent sizes 1 to 3, CPD in every row layout, with
 * doors shut and areas excluded per query. Every answer (twz_path and
 * twz_cost on the level as baked, twz_find_path and flow fields as a
 * filter leaves it) against a Dijkstra of this file's own: a move from
 * cell u to v costs its length times the mean of their multipliers, a
 * size-k agent's multiplier is the dearest cell of its square and it is
 * in every area its square touches; an excluded area is a wall.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_sizes.h"
#include "bake_level.h"
#include "level_costs.h"
#include "test_support.h"
#include "twigz.h"
#include "twz_rng.h"


/* A level's letters: a generated grid's walls, and patches of swamp S,
 * water W (a wall by default) and G. */
struct level {
	struct twz_grid g;
	uint8_t *letter;
	struct twz_cost_table table;
	struct twz_level_costs lc;
	uint8_t *buf;
	size_t len;
	twz_db *db;
	unsigned connectivity;
};

static void make_level(struct level *lv, unsigned kind, uint64_t seed,
		       unsigned connectivity, const char *sizes, unsigned layout)
{
	uint64_t rng = seed;
	struct twz_error err = { { 0 }, 0 };

	memset(lv, 0, sizeof *lv);
	lv->connectivity = connectivity;
	twz_test_generate(&lv->g, (enum twz_test_level_kind)kind, 36, 28, seed);
	size_t cells = (size_t)lv->g.width * lv->g.height;
	lv->letter = malloc(cells);
	ck_assert_ptr_nonnull(lv->letter);
	for (size_t c = 0; c < cells; c++)
		lv->letter[c] = lv->g.walkable[c] ? '.' : '@';
	/* Patches: squares of one letter over walkable ground. */
	for (int p = 0; p < 14; p++) {
		uint32_t x0 = (uint32_t)(rng_next(&rng) % lv->g.width);
		uint32_t y0 = (uint32_t)(rng_next(&rng) % lv->g.height);
		uint32_t side = 2 + (uint32_t)(rng_next(&rng) % 4);
		char what = "SSWG"[p % 4];
		for (uint32_t y = y0; y < y0 + side && y < lv->g.height; y++)
			for (uint32_t x = x0; x < x0 + side && x < lv->g.width; x++)
				if (lv->g.walkable[(size_t)y * lv->g.width + x])
					lv->letter[(size_t)y * lv->g.width + x] = (uint8_t)what;
	}
	/* Swamp costs 2.5, water 3.25 (walkable now), G 0.5. */
	const char *names[] = { "S", "W", "G" };
	const uint32_t milli[] = { 2500, 3250, 500 };
	lv->table.count = 3;
	for (int i = 0; i < 3; i++) {
		strcpy(lv->table.name[i], names[i]);
		lv->table.milli[i] = milli[i];
	}
	ck_assert_msg(twz_grid_costs(&lv->g, lv->letter, &lv->table, "costs", &lv->lc,
				     &err) == 0, "%s", err.msg);
	struct twz_bake_options opt;
	twz_bake_options_default(&opt);
	opt.connectivity = connectivity;
	opt.codec = TWZ_CODEC_RAW;
	opt.threads = 2;
	opt.layout = layout;
	opt.name = "areas";
	opt.cell_milli = lv->lc.place_milli;
	opt.costs = &lv->lc;
	if (sizes) {
		struct twz_agent_request req;
		ck_assert_msg(twz_agent_sizes_parse(sizes, &req, &err) == 0, "%s", err.msg);
		for (unsigned i = 0; i < req.count; i++)
			opt.agent_sizes |= 1u << req.sizes[i];
		ck_assert_msg(twz_bake_grid_encode(&lv->g, &opt, &lv->buf, &lv->len,
						   NULL, &err) == 0, "%s", err.msg);
	} else {
		struct twz_cpd cpd;
		ck_assert_msg(twz_bake_cpd(&lv->g, &opt, &cpd, &err) == 0, "%s", err.msg);
		ck_assert_msg(twz_cpd_encode(&cpd, &lv->g, &opt, &lv->buf, &lv->len,
					     &err) == 0, "%s", err.msg);
		twz_cpd_free(&cpd);
	}
	ck_assert_int_eq(twz_open_memory(lv->buf, lv->len, 0, &lv->db), TWZ_OK);
}

static void free_level(struct level *lv)
{
	twz_close(lv->db);
	free(lv->buf);
	free(lv->letter);
	twz_level_costs_free(&lv->lc);
	twz_grid_free(&lv->g);
}

/* ---- the oracle -------------------------------------------------------- */

/* An exact cost a + b sqrt(2), and a < b for costs whose parts stay
 * below 2^40 (squares in 128 bits). */
struct cost {
	int64_t a, b;
};

static const struct cost far_cost = { INT64_MAX, 0 };

static int less(struct cost x, struct cost y)
{
	if (y.a == INT64_MAX)
		return x.a != INT64_MAX;
	if (x.a == INT64_MAX)
		return 0;
	__int128 p = (__int128)x.a - y.a, q = (__int128)y.b - x.b;  /* p < q sqrt2 */
	if (p < 0 && q >= 0)
		return 1;
	if (p >= 0 && q <= 0)
		return 0;
	if (p >= 0)
		return p * p < 2 * q * q;
	return p * p > 2 * q * q;
}

static int same(struct cost x, struct cost y)
{
	return x.a == y.a && x.b == y.b;
}

/* A size-k agent's level: which cells it stands on (none touching an
 * excluded area or a shut cell), and its multiplier there. */
struct agent_level {
	uint32_t w, h;
	uint8_t *open;
	uint32_t *milli;
	uint64_t *areas;
};

static void agent_level(const struct level *lv, unsigned k, uint64_t exclude,
			const uint8_t *shut, struct agent_level *al)
{
	al->w = lv->g.width;
	al->h = lv->g.height;
	size_t cells = (size_t)al->w * al->h;
	al->open = calloc(cells, 1);
	al->milli = calloc(cells, sizeof *al->milli);
	al->areas = calloc(cells, sizeof *al->areas);
	ck_assert(al->open && al->milli && al->areas);
	for (uint32_t y = 0; y + k <= al->h; y++)
		for (uint32_t x = 0; x + k <= al->w; x++) {
			int ok = 1;
			uint32_t most = 0;
			uint64_t mask = 0;
			for (uint32_t dy = 0; dy < k; dy++)
				for (uint32_t dx = 0; dx < k; dx++) {
					size_t c = (size_t)(y + dy) * al->w + x + dx;
					uint8_t a = lv->lc.place_area[c];
					if (a == TWZ_AREA_NONE || (shut && shut[c])) {
						ok = 0;
						continue;
					}
					mask |= UINT64_C(1) << a;
					most = lv->lc.area_milli[a] > most ? lv->lc.area_milli[a] : most;
				}
			size_t at = (size_t)y * al->w + x;
			al->open[at] = ok && !(mask & exclude);
			al->milli[at] = most;
			al->areas[at] = mask;
		}
}

static void agent_level_free(struct agent_level *al)
{
	free(al->open);
	free(al->milli);
	free(al->areas);
}

static int open_at(const struct agent_level *al, int64_t x, int64_t y)
{
	return x >= 0 && y >= 0 && x < al->w && y < al->h &&
	       al->open[(size_t)y * al->w + x];
}

/* O(cells^2) Dijkstra from (sx, sy): costs in units of 1/2000 cell. */
static void oracle(const struct agent_level *al, unsigned conn, uint32_t sx,
		   uint32_t sy, struct cost *d)
{
	size_t cells = (size_t)al->w * al->h;
	uint8_t *done = calloc(cells, 1);

	ck_assert_ptr_nonnull(done);
	for (size_t c = 0; c < cells; c++)
		d[c] = far_cost;
	if (!open_at(al, sx, sy)) {
		free(done);
		return;
	}
	d[(size_t)sy * al->w + sx] = (struct cost){ 0, 0 };
	for (;;) {
		size_t u = SIZE_MAX;
		for (size_t c = 0; c < cells; c++)
			if (!done[c] && d[c].a != INT64_MAX && (u == SIZE_MAX || less(d[c], d[u])))
				u = c;
		if (u == SIZE_MAX)
			break;
		done[u] = 1;
		int64_t x = (int64_t)(u % al->w), y = (int64_t)(u / al->w);
		for (unsigned m = 0; m < conn; m++) {
			int64_t dx = twz_test_move_dx(m), dy = twz_test_move_dy(m);
			if (!open_at(al, x + dx, y + dy))
				continue;
			if (dx && dy && (!open_at(al, x + dx, y) || !open_at(al, x, y + dy)))
				continue;
			size_t v = (size_t)(y + dy) * al->w + (size_t)(x + dx);
			int64_t units = (int64_t)al->milli[u] + al->milli[v];
			struct cost c = d[u];
			if (dx && dy)
				c.b += units;
			else
				c.a += units;
			if (less(c, d[v]))
				d[v] = c;
		}
	}
	free(done);
}

static double value(struct cost c)
{
	return (c.a + c.b * 1.41421356237309504880) / 2000.0;
}

/* The cost of a path of view nodes by the oracle's rule, or far when a
 * step is no legal move on al. */
static struct cost path_cost(const twz_db *view, const struct agent_level *al,
			     unsigned conn, const twz_node *p, size_t n)
{
	struct cost c = { 0, 0 };

	for (size_t i = 0; i < n; i++) {
		uint32_t x, y;
		twz_node_xy(view, p[i], &x, &y);
		if (!open_at(al, x, y))
			return far_cost;
		if (!i)
			continue;
		uint32_t px, py;
		twz_node_xy(view, p[i - 1], &px, &py);
		int64_t dx = (int64_t)x - px, dy = (int64_t)y - py;
		if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (!dx && !dy) ||
		    (dx && dy && (conn == 4 || !open_at(al, px + dx, py) ||
				  !open_at(al, px, py + dy))))
			return far_cost;
		int64_t units = (int64_t)al->milli[(size_t)py * al->w + px] +
				al->milli[(size_t)y * al->w + x];
		if (dx && dy)
			c.b += units;
		else
			c.a += units;
	}
	return c;
}

/* ---- the checks ---------------------------------------------------------- */

struct config {
	unsigned kind, connectivity, layout;
	const char *sizes;
};

static const struct config configs[] = {
	{ TWZ_TEST_ROOMS, 8, TWZ_LAYOUT_NARROW, "1,2,3" },
	{ TWZ_TEST_CAVES, 8, TWZ_LAYOUT_PLAIN, NULL },
	{ TWZ_TEST_OPEN_HOLLOW, 4, TWZ_LAYOUT_NARROW, "1,2" },
	{ TWZ_TEST_ROOMS, 8, TWZ_LAYOUT_INLINE, NULL },
	{ TWZ_TEST_MAZE, 8, TWZ_LAYOUT_BUCKETED, NULL },
};

START_TEST(test_areas_against_dijkstra)
{
	const struct config *cf = &configs[_i];
	struct level lv;
	uint64_t rng = 0xA5A5 + (uint64_t)_i;

	make_level(&lv, cf->kind, 1000 + (uint64_t)_i, cf->connectivity,
		   cf->sizes, cf->layout);
	unsigned sizes[16];
	size_t count;
	ck_assert_int_eq(twz_agent_sizes(lv.db, sizes, 16, &count), TWZ_OK);
	unsigned s_area, w_area;
	ck_assert_int_eq(twz_area_find(lv.db, "S", &s_area), TWZ_OK);
	ck_assert_int_eq(twz_area_find(lv.db, "W", &w_area), TWZ_OK);
	double cost;
	ck_assert_int_eq(twz_area_info(lv.db, w_area, NULL, &cost), TWZ_OK);
	ck_assert(cost == 3.25);
	ck_assert_int_eq(twz_area_find(lv.db, "Q", &w_area), TWZ_E_ARGUMENT);
	twz_world *world;
	ck_assert_int_eq(twz_world_create(lv.db, &world), TWZ_OK);
	size_t cells = (size_t)lv.g.width * lv.g.height;
	uint8_t *shut = calloc(cells, 1);
	struct cost *d = malloc(cells * sizeof *d);
	ck_assert(shut && d);
	unsigned detours = 0;
	for (size_t k = 0; k < count; k++) {
		const twz_db *view;
		ck_assert_int_eq(twz_view_agent(lv.db, sizes[k], &view), TWZ_OK);
		uint32_t n = twz_node_count(view);
		if (!n)
			continue;
		twz_node *buf = malloc(((size_t)n + 1) * sizeof *buf);
		twz_node *next = malloc(((size_t)n + 1) * sizeof *next);
		twz_scratch *sc;
		ck_assert(buf && next);
		ck_assert_int_eq(twz_scratch_create(view, &sc), TWZ_OK);
		for (unsigned round = 0; round < 4; round++) {
			/* Round 0: the level as baked; then areas excluded and
			 * doors shut. */
			uint64_t exclude = round == 0 ? 0 : round == 1 ? UINT64_C(1) << s_area
					 : round == 2 ? UINT64_C(1) << w_area
					 : (UINT64_C(1) << s_area) | (UINT64_C(1) << w_area);
			if (round == 3)
				for (int j = 0; j < 6; j++) {
					uint32_t x = (uint32_t)(rng_next(&rng) % lv.g.width);
					uint32_t y = (uint32_t)(rng_next(&rng) % lv.g.height);
					shut[(size_t)y * lv.g.width + x] = 1;
					twz_world_shut_cell(world, x, y, 1);
				}
			struct agent_level al;
			agent_level(&lv, sizes[k], exclude, shut, &al);
			twz_filter f;
			memset(&f, 0, sizeof f);
			f.world = world;
			f.exclude_areas = exclude;
			for (unsigned q = 0; q < 30; q++) {
				twz_node s = (twz_node)(rng_next(&rng) % n);
				twz_node t = (twz_node)(rng_next(&rng) % n);
				uint32_t sx, sy, tx, ty;
				twz_node_xy(view, s, &sx, &sy);
				twz_node_xy(view, t, &tx, &ty);
				oracle(&al, lv.connectivity, sx, sy, d);
				struct cost want = d[(size_t)ty * al.w + tx];
				size_t len;
				double got;
				if (round == 0) {
					/* The rows were baked with the costs. */
					twz_status st = twz_path(view, s, t, buf, n + 1, &len);
					if (want.a == INT64_MAX) {
						expect(st == TWZ_E_UNREACHABLE,
						       "size %u: static %s", sizes[k], twz_strerror(st));
						continue;
					}
					expect(st == TWZ_OK && same(path_cost(view, &al, lv.connectivity,
									       buf, len), want),
					       "size %u: (%u,%u)->(%u,%u): twz_path is not optimal "
					       "with costs", sizes[k], sx, sy, tx, ty);
					expect(fabs(twz_cost(view, s, t) - value(want)) < 1e-9,
					       "size %u: twz_cost %.6f, Dijkstra %.6f", sizes[k],
					       twz_cost(view, s, t), value(want));
					continue;
				}
				twz_status st = twz_find_path(view, sc, &f, s, t, 0, buf, n + 1,
							      &len, &got);
				int s_open = open_at(&al, sx, sy), t_open = open_at(&al, tx, ty);
				twz_status expected = !s_open ? TWZ_E_START_SHUT
						    : !t_open ? TWZ_E_GOAL_SHUT
						    : want.a == INT64_MAX ? TWZ_E_UNREACHABLE : TWZ_OK;
				expect(st == expected, "size %u round %u: (%u,%u)->(%u,%u): %s, "
				       "expected %s", sizes[k], round, sx, sy, tx, ty,
				       twz_strerror(st), twz_strerror(expected));
				if (st != TWZ_OK || expected != TWZ_OK)
					continue;
				expect(same(path_cost(view, &al, lv.connectivity, buf, len), want) &&
				       fabs(got - value(want)) < 1e-9,
				       "size %u round %u: (%u,%u)->(%u,%u): cost %.6f, Dijkstra "
				       "%.6f", sizes[k], round, sx, sy, tx, ty, got, value(want));
				detours += got > twz_cost(view, s, t) + 1e-9;
			}
			/* A field toward one target, every node. */
			twz_node t = (twz_node)(rng_next(&rng) % n);
			uint32_t tx, ty;
			twz_node_xy(view, t, &tx, &ty);
			oracle(&al, lv.connectivity, tx, ty, d);
			ck_assert_int_eq(twz_flow_field_filtered(view, sc, &f, t, next, n), TWZ_OK);
			for (twz_node v = 0; v < n; v++) {
				uint32_t x, y;
				twz_node_xy(view, v, &x, &y);
				struct cost dv = d[(size_t)y * al.w + x];
				if (dv.a == INT64_MAX) {
					expect(next[v] == TWZ_NONE, "a field move off the level");
					continue;
				}
				if (v == t)
					continue;
				twz_node two[2] = { v, next[v] };
				uint32_t nx, ny;
				expect(next[v] != TWZ_NONE, "no field move from a node reaching t");
				twz_node_xy(view, next[v], &nx, &ny);
				struct cost step = path_cost(view, &al, lv.connectivity, two, 2);
				struct cost via = { step.a + d[(size_t)ny * al.w + nx].a,
						    step.b + d[(size_t)ny * al.w + nx].b };
				expect(step.a != INT64_MAX && same(via, dv),
				       "size %u round %u: field move (%u,%u)->(%u,%u) is not "
				       "optimal", sizes[k], round, x, y, nx, ny);
			}
			agent_level_free(&al);
		}
		twz_world_open_all(world);
		memset(shut, 0, cells);
		twz_scratch_free(sc);
		free(buf);
		free(next);
	}
	ck_assert_msg(detours > 0 || cf->kind == TWZ_TEST_MAZE,
		      "no path went round an excluded area");
	twz_world_free(world);
	free(shut);
	free(d);
	free_level(&lv);
}
END_TEST

/* The cost table and the tool: a file's lines, refusals with the line,
 * and the areas a bake records. */
START_TEST(test_costs_file_and_tool)
{
	char dir[256], path[512], map[512], out[512];
	struct twz_cost_table t;
	struct twz_error err = { { 0 }, 0 };

	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "twz_areas_"));
	snprintf(path, sizeof path, "%s/costs.txt", dir);
	const char *good = "# areas\nS 2.5\n\nW  blocked\nG 0.001\n";
	twz_test_write_file(path, good, strlen(good));
	ck_assert_int_eq(twz_cost_table_load(path, &t, &err), 0);
	ck_assert_uint_eq(t.count, 3);
	ck_assert_uint_eq(t.milli[0], 2500);
	ck_assert_uint_eq(t.milli[1], 0);
	ck_assert_uint_eq(t.milli[2], 1);
	static const char *const bad[] = { "S 0\n", "S 1.2345\n", "S 1001\n", "S\n",
					   "S 2 x\n", "S 2\nS 3\n", "S -1\n" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		twz_test_write_file(path, bad[i], strlen(bad[i]));
		ck_assert_msg(twz_cost_table_load(path, &t, &err) == -1, "%s", bad[i]);
		ck_assert_msg(strstr(err.msg, path) != NULL, "%s", err.msg);
	}
	/* The tool: build with costs, query by area. */
	snprintf(map, sizeof map, "%s/l.map", dir);
	snprintf(out, sizeof out, "%s/l.twz", dir);
	const char *text = "type octile\nheight 5\nwidth 8\nmap\n"
			   "........\n..SSSS..\n..SWWS..\n..SSSS..\n........\n";
	twz_test_write_file(map, text, strlen(text));
	twz_test_write_file(path, "S 2.5\nW 3\n", 10);
	const char *build[] = { "build", map, "-o", out, "--costs", path, "--quiet", NULL };
	struct twz_test_run r;
	twz_test_run_tool(build, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);
	const char *q1[] = { "query", out, "3", "2", "4", "2", "--json", NULL };
	twz_test_run_tool(q1, NULL, 0, &r);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\"cost\":3,"), "%s %s", r.out, r.err);
	twz_test_run_free(&r);
	const char *q2[] = { "query", out, "3", "2", "4", "2", "--exclude", "W", "--json", NULL };
	twz_test_run_tool(q2, NULL, 0, &r);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\"status\":\"start_shut\""), "%s", r.out);
	twz_test_run_free(&r);
	const char *q3[] = { "query", out, "3", "2", "4", "2", "--exclude", "Q", NULL };
	twz_test_run_tool(q3, NULL, 0, &r);
	ck_assert_msg(r.status == 3 && strstr(r.err, "no area 'Q'"), "%s", r.err);
	twz_test_run_free(&r);
	/* Refused with what cannot hold costs. */
	const char *tr[] = { "build", map, "-o", out, "--costs", path, "--method",
			     "transit", NULL };
	twz_test_run_tool(tr, NULL, 0, &r);
	ck_assert_msg(r.status == 2 && strstr(r.err, "--costs"), "%s", r.err);
	twz_test_run_free(&r);
	twz_test_write_file(path, "X 2\n", 4);
	twz_test_run_tool(build, NULL, 0, &r);
	ck_assert_msg(r.status == 3 && strstr(r.err, "no letter of a map"), "%s", r.err);
	twz_test_run_free(&r);
	twz_test_remove_tree(dir);
}
END_TEST


/* ---- navmeshes: materials as areas --------------------------------------- */

/* A jittered grid of quads, each face's material mud or rock by chance. */
static char *mesh_text(uint64_t *rng, unsigned w, unsigned h)
{
	size_t cap = 80 * (size_t)(w + 1) * (h + 1) + 80 * (size_t)w * h, n = 0;
	char *t = malloc(cap);

	ck_assert_ptr_nonnull(t);
	for (unsigned z = 0; z <= h; z++)
		for (unsigned x = 0; x <= w; x++)
			n += (size_t)snprintf(t + n, cap - n, "v %.3f 0 %.3f\n",
					      x + (rng_next(rng) % 200) / 1000.0,
					      z + (rng_next(rng) % 200) / 1000.0);
	for (unsigned z = 0; z < h; z++)
		for (unsigned x = 0; x < w; x++) {
			unsigned a = z * (w + 1) + x + 1;
			n += (size_t)snprintf(t + n, cap - n, "usemtl %s\nf %u %u %u %u\n",
					      rng_next(rng) % 3 ? "rock" : "mud",
					      a, a + 1, a + w + 2, a + w + 1);
		}
	return t;
}

START_TEST(test_navmesh_materials)
{
	char dir[256], obj[512], costs[512], out[512], plain[512];
	uint64_t rng = 99;
	struct twz_test_run r;

	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "twz_areas_"));
	snprintf(obj, sizeof obj, "%s/m.obj", dir);
	snprintf(costs, sizeof costs, "%s/c.txt", dir);
	snprintf(out, sizeof out, "%s/m.twz", dir);
	snprintf(plain, sizeof plain, "%s/p.twz", dir);
	char *text = mesh_text(&rng, 9, 7);
	twz_test_write_file(obj, text, strlen(text));
	free(text);
	twz_test_write_file(costs, "mud 4\n", 6);
	const char *b1[] = { "build", obj, "-o", out, "--costs", costs, "--quiet", NULL };
	const char *b2[] = { "build", obj, "-o", plain, "--quiet", NULL };
	twz_test_run_tool(b1, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);
	twz_test_run_tool(b2, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);
	twz_db *db, *pdb;
	ck_assert_int_eq(twz_open(out, 0, &db), TWZ_OK);
	ck_assert_int_eq(twz_open(plain, 0, &pdb), TWZ_OK);
	unsigned mud;
	ck_assert_int_eq(twz_area_find(db, "mud", &mud), TWZ_OK);
	ck_assert_int_eq(twz_area_count(pdb), 0);
	uint32_t n = twz_node_count(db);
	/* Arcs: an arc between two mud faces weighs four times the plain
	 * one (keys round; the scales may differ). */
	double scale = twz_navmesh_scale(db), pscale = twz_navmesh_scale(pdb);
	unsigned checked = 0;
	twz_node heads[64], pheads[64];
	uint64_t w[64], pw[64];
	for (twz_node v = 0; v < n; v++) {
		size_t c, pc;
		uint64_t av, ah;
		int64_t face;
		twz_node_id(db, v, &face);
		twz_node pv = twz_node_of_id(pdb, face);
		ck_assert_int_eq(twz_node_arcs(db, v, heads, w, 64, &c), TWZ_OK);
		ck_assert_int_eq(twz_node_arcs(pdb, pv, pheads, pw, 64, &pc), TWZ_OK);
		twz_node_areas(db, v, &av);
		for (size_t i = 0; i < c; i++) {
			twz_node_areas(db, heads[i], &ah);
			if (!(av & ah & (UINT64_C(1) << mud)))
				continue;
			int64_t hf;
			twz_node_id(db, heads[i], &hf);
			for (size_t j = 0; j < pc; j++) {
				int64_t pf;
				twz_node_id(pdb, pheads[j], &pf);
				if (pf != hf)
					continue;
				expect(fabs(w[i] / scale - 4 * pw[j] / pscale) < 1e-6 * (w[i] / scale) + 2 / scale,
				       "a mud arc weighs %.6f, plain %.6f", w[i] / scale,
				       pw[j] / pscale);
				checked++;
			}
		}
	}
	ck_assert_uint_gt(checked, 0);
	/* Excluding mud: paths against a Dijkstra over the arcs left. */
	twz_scratch *sc;
	ck_assert_int_eq(twz_scratch_create(db, &sc), TWZ_OK);
	twz_filter f;
	memset(&f, 0, sizeof f);
	f.exclude_areas = UINT64_C(1) << mud;
	twz_node *buf = malloc(((size_t)n + 1) * sizeof *buf);
	uint64_t *d = malloc(n * sizeof *d);
	uint8_t *done = malloc(n);
	ck_assert(buf && d && done);
	for (int q = 0; q < 40; q++) {
		twz_node s = (twz_node)(rng_next(&rng) % n), t = (twz_node)(rng_next(&rng) % n);
		uint64_t as, at;
		twz_node_areas(db, s, &as);
		twz_node_areas(db, t, &at);
		for (uint32_t v = 0; v < n; v++)
			d[v] = UINT64_MAX, done[v] = 0;
		d[s] = 0;
		for (;;) {
			uint32_t u = UINT32_MAX;
			for (uint32_t v = 0; v < n; v++)
				if (!done[v] && d[v] != UINT64_MAX && (u == UINT32_MAX || d[v] < d[u]))
					u = v;
			if (u == UINT32_MAX)
				break;
			done[u] = 1;
			size_t c;
			twz_node_arcs(db, u, heads, w, 64, &c);
			for (size_t i = 0; i < c; i++) {
				uint64_t ah;
				twz_node_areas(db, heads[i], &ah);
				if (!(ah & f.exclude_areas) && d[u] + w[i] < d[heads[i]])
					d[heads[i]] = d[u] + w[i];
			}
		}
		size_t len;
		double cost;
		twz_status st = twz_find_path(db, sc, &f, s, t, 0, buf, (size_t)n + 1,
					      &len, &cost);
		twz_status want = as & f.exclude_areas ? TWZ_E_START_SHUT
				: at & f.exclude_areas ? TWZ_E_GOAL_SHUT
				: d[t] == UINT64_MAX ? TWZ_E_UNREACHABLE : TWZ_OK;
		expect(st == want, "navmesh %u->%u: %s, expected %s", s, t,
		       twz_strerror(st), twz_strerror(want));
		if (st == TWZ_OK)
			expect(cost == (double)d[t], "navmesh cost %.1f, Dijkstra %llu",
			       cost, (unsigned long long)d[t]);
	}
	free(buf);
	free(d);
	free(done);
	twz_scratch_free(sc);
	twz_close(db);
	twz_close(pdb);
	twz_test_remove_tree(dir);
}
END_TEST


/* The golden file of format 1.5 keeps opening, answers by its areas'
 * costs, and is what a bake of its level and costs still writes. */
START_TEST(test_golden_v1_5_areas)
{
	struct level lv;
	struct twz_error err = { { 0 }, 0 };
	char dir[256], buf[600];
	size_t len, glen;

	memset(&lv, 0, sizeof lv);
	lv.connectivity = 8;
	uint8_t *golden = twz_test_read_file(twz_test_source_file("tests/golden/v1_5_areas.twz"),
					     &glen);
	ck_assert_int_eq(twz_open_memory(golden, glen, 0, &lv.db), TWZ_OK);
	ck_assert_int_eq(twz_cost_table_load(twz_test_source_file("tests/golden/v1_5_areas.costs"),
					     &lv.table, &err), 0);
	ck_assert_int_eq(twz_grid_load_letters(twz_test_source_file("tests/golden/v1_5_areas.map"),
					       &lv.g, &lv.letter, &err), 0);
	ck_assert_int_eq(twz_grid_costs(&lv.g, lv.letter, &lv.table, "costs", &lv.lc,
					&err), 0);
	twz_info in;
	twz_get_info(lv.db, &in);
	ck_assert_uint_eq(in.format_minor, 5);
	ck_assert_uint_eq(twz_area_count(lv.db), lv.lc.area_count);
	struct agent_level al;
	agent_level(&lv, 1, 0, NULL, &al);
	size_t cells = (size_t)lv.g.width * lv.g.height;
	struct cost *d = malloc(cells * sizeof *d);
	twz_node path[256];
	ck_assert_ptr_nonnull(d);
	uint32_t n = twz_node_count(lv.db);
	for (twz_node s = 0; s < n; s += 5) {
		uint32_t sx, sy;
		twz_node_xy(lv.db, s, &sx, &sy);
		oracle(&al, 8, sx, sy, d);
		for (twz_node t = 0; t < n; t += 3) {
			uint32_t tx, ty;
			twz_node_xy(lv.db, t, &tx, &ty);
			struct cost want = d[(size_t)ty * al.w + tx];
			twz_status st = twz_path(lv.db, s, t, path, 256, &len);
			if (want.a == INT64_MAX) {
				expect(st == TWZ_E_UNREACHABLE, "golden: a path across regions");
				continue;
			}
			expect(st == TWZ_OK && same(path_cost(lv.db, &al, 8, path, len), want),
			       "golden: (%u,%u)->(%u,%u) is not optimal", sx, sy, tx, ty);
		}
	}
	agent_level_free(&al);
	free(d);
	/* The same bytes from a bake today, in a directory of its own with
	 * the same names. */
	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "twz_golden_"));
	const char *files[] = { "v1_5_areas.map", "v1_5_areas.costs" };
	for (int i = 0; i < 2; i++) {
		snprintf(buf, sizeof buf, "tests/golden/%s", files[i]);
		uint8_t *b = twz_test_read_file(twz_test_source_file(buf), &len);
		snprintf(buf, sizeof buf, "%s/%s", dir, files[i]);
		twz_test_write_file(buf, b, len);
		free(b);
	}
	const char *build[] = { "build", "v1_5_areas.map", "-o", "v1_5_areas.twz",
				"--costs", "v1_5_areas.costs", "--codec", "raw",
				"--threads", "1", "--level", "9", "--quiet", NULL };
	struct twz_test_run r;
	twz_test_run_tool(build, dir, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);
	snprintf(buf, sizeof buf, "%s/v1_5_areas.twz", dir);
	uint8_t *again = twz_test_read_file(buf, &len);
	ck_assert_msg(len == glen && !memcmp(again, golden, len),
		      "a bake today differs from the golden file");
	free(again);
	twz_test_remove_tree(dir);
	twz_close(lv.db);
	lv.db = NULL;
	free(golden);
	free(lv.letter);
	twz_level_costs_free(&lv.lc);
	twz_grid_free(&lv.g);
}
END_TEST

static Suite *areas_suite(void)
{
	Suite *s = suite_create("areas");
	TCase *tc = tcase_create("Grids");

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_areas_against_dijkstra, 0,
			    (int)(sizeof configs / sizeof configs[0]));
	tcase_add_test(tc, test_costs_file_and_tool);
	tcase_add_test(tc, test_navmesh_materials);
	tcase_add_test(tc, test_golden_v1_5_areas);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(areas_suite());
}
