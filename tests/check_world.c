/*
 * check_world.c - a changing world: places shut in a twz_world, seen by
 * every agent size and every call (twz_find_path, twz_first_move,
 * twz_find_path_partial, searches and fields in slices, flow fields,
 * nearest places, smoothing and line of sight), on grids (8- and
 * 4-connected, CPD and TRANSIT, agent sizes 1 to 3, rows read on use
 * under a cache budget), graphs and navmeshes. Every answer is checked
 * against a plain Dijkstra of this file's own on the changed level: the
 * agent's own cells (the corners of the k x k squares that hold no wall
 * and no shut cell) with the moves of the README, or the database's
 * arcs without the shut nodes.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_sizes.h"
#include "bake_level.h"
#include "bake_graph.h"
#include "bake_navmesh.h"
#include "level_graph.h"
#include "level_navmesh.h"
#include "test_support.h"
#include "transit.h"
#include "twigz.h"
#include "twz_rng.h"

#define SQRT2 1.41421356237309504880


/* ---- grids: the levels and the oracle ----------------------------------- */

enum storage { PLAIN, CHUNKED, TRANSIT_METHOD };

struct grid_config {
	enum twz_test_level_kind kind;
	unsigned connectivity;
	enum storage storage;
	const char *sizes;        /* --agent-sizes, or NULL */
};

static const struct grid_config grid_configs[] = {
	{ TWZ_TEST_ROOMS, 8, PLAIN, "1,2,3" },
	{ TWZ_TEST_ROOMS, 4, PLAIN, "1,2,3" },
	{ TWZ_TEST_CAVES, 8, PLAIN, "1,2,3" },
	{ TWZ_TEST_OPEN_HOLLOW, 8, TRANSIT_METHOD, "1,2,3" },
	{ TWZ_TEST_MAZE, 4, TRANSIT_METHOD, "1,2" },
	{ TWZ_TEST_CAVES, 4, CHUNKED, NULL },
	{ TWZ_TEST_POCKETS, 8, PLAIN, "1,2" },
	{ TWZ_TEST_ROOMS, 8, CHUNKED, NULL },
};
#define GRID_CONFIGS (sizeof grid_configs / sizeof grid_configs[0])

struct grid_level {
	struct twz_grid g;
	unsigned connectivity;
	uint8_t *buf;
	size_t len;
	twz_db *db;
	twz_world *world;
	uint8_t *shut;            /* [cells]: shut in the world */
	char name[96];
};

static uint8_t *bake_plain(const struct twz_grid *g, unsigned connectivity,
			   uint64_t chunk, size_t *len)
{
	struct twz_bake_options opt;
	struct twz_cpd cpd;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;

	twz_bake_options_default(&opt);
	opt.connectivity = connectivity;
	opt.threads = 2;
	opt.level = 3;
	opt.chunk = chunk;
	opt.name = "world level";
	ck_assert_msg(twz_bake_cpd(g, &opt, &cpd, &err) == 0, "bake: %s", err.msg);
	int rc = twz_cpd_encode(&cpd, g, &opt, &buf, len, &err);
	twz_cpd_free(&cpd);
	ck_assert_msg(rc == 0, "encode: %s", err.msg);
	return buf;
}

static uint8_t *bake_sizes(const struct twz_grid *g, const char *sizes,
			   unsigned connectivity, int transit, size_t *len)
{
	static const struct twz_transit_options topt = { 6, 1, 2 };
	struct twz_bake_options opt;
	struct twz_agent_request req;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;

	twz_bake_options_default(&opt);
	opt.connectivity = connectivity;
	opt.codec = TWZ_CODEC_RAW;
	opt.threads = 2;
	ck_assert_msg(twz_agent_sizes_parse(sizes, &req, &err) == 0, "%s", err.msg);
	for (unsigned i = 0; i < req.count; i++)
		opt.agent_sizes |= 1u << req.sizes[i];
	if (transit) {
		opt.method = TWZ_BAKE_TRANSIT;
		opt.transit = topt;
	}
	ck_assert_msg(twz_bake_grid_encode(g, &opt, &buf, len, NULL, &err) == 0,
		      "%s", err.msg);
	return buf;
}

static void grid_open(struct grid_level *lv, unsigned i)
{
	const struct grid_config *c = &grid_configs[i];
	static const char *const storage_name[] = { "CPD", "chunked CPD under a cache budget",
						    "TRANSIT" };

	memset(lv, 0, sizeof *lv);
	twz_test_generate(&lv->g, c->kind, 40, 32, 0xC0FFEE + i);
	lv->connectivity = c->connectivity;
	snprintf(lv->name, sizeof lv->name, "%s %u-connected %s sizes %s",
		 twz_test_kind_name(c->kind), c->connectivity,
		 storage_name[c->storage], c->sizes ? c->sizes : "1");
	if (c->sizes)
		lv->buf = bake_sizes(&lv->g, c->sizes, c->connectivity,
				     c->storage == TRANSIT_METHOD, &lv->len);
	else
		lv->buf = bake_plain(&lv->g, c->connectivity,
				     c->storage == CHUNKED ? 256 : 0, &lv->len);
	if (c->storage == CHUNKED) {
		twz_open_options o;
		memset(&o, 0, sizeof o);
		o.cache_bytes = 1024;   /* a few chunks: rows read on use */
		ck_assert_int_eq(twz_open_memory_ex(lv->buf, lv->len, &o, &lv->db),
				 TWZ_OK);
	} else {
		ck_assert_int_eq(twz_open_memory(lv->buf, lv->len, 0, &lv->db), TWZ_OK);
	}
	ck_assert_int_eq(twz_world_create(lv->db, &lv->world), TWZ_OK);
	lv->shut = calloc((size_t)lv->g.width * lv->g.height, 1);
	ck_assert_ptr_nonnull(lv->shut);
}

static void grid_close(struct grid_level *lv)
{
	twz_world_free(lv->world);
	twz_close(lv->db);
	free(lv->buf);
	free(lv->shut);
	twz_grid_free(&lv->g);
}

static void shut_cell(struct grid_level *lv, uint32_t x, uint32_t y, int on)
{
	ck_assert_int_eq(twz_world_shut_cell(lv->world, x, y, on), TWZ_OK);
	lv->shut[(size_t)y * lv->g.width + x] = (uint8_t)on;
}

/* Shut doors: the walkable cells of `count` random short runs (1 to 4
 * cells, across or along), and a few single cells. */
static void shut_doors(struct grid_level *lv, uint64_t *rng, unsigned count)
{
	ck_assert_int_eq(twz_world_shut_cell(lv->world, -1, 0, 1), TWZ_E_ARGUMENT);
	twz_world_open_all(lv->world);
	memset(lv->shut, 0, (size_t)lv->g.width * lv->g.height);
	for (unsigned d = 0; d < count; d++) {
		uint32_t x = rng_below(rng, lv->g.width), y = rng_below(rng, lv->g.height);
		unsigned len = 1 + rng_below(rng, 4), across = rng_below(rng, 2);
		for (unsigned i = 0; i < len; i++) {
			uint32_t cx = x + (across ? i : 0), cy = y + (across ? 0 : i);
			if (cx < lv->g.width && cy < lv->g.height)
				shut_cell(lv, cx, cy, 1);
		}
	}
}

/* A view of agent size k and its level as it is now: the cells whose
 * k x k square holds no wall and no shut cell. */
struct view {
	const twz_db *db;
	unsigned k;
	uint32_t nodes;
	struct twz_grid now;      /* those cells as walkable */
	twz_scratch *sc;
	struct twz_cost *dist;    /* [cells]: Dijkstra from one cell */
	struct twz_cost *dist2;
	twz_node *buf, *next;
	size_t cap;
};

static void view_open(struct view *v, const struct grid_level *lv, unsigned k)
{
	size_t cells = (size_t)lv->g.width * lv->g.height;

	memset(v, 0, sizeof *v);
	v->k = k;
	ck_assert_int_eq(twz_view_agent(lv->db, k, &v->db), TWZ_OK);
	v->nodes = twz_node_count(v->db);
	v->now.width = lv->g.width;
	v->now.height = lv->g.height;
	v->now.walkable = calloc(cells, 1);
	for (uint32_t y = 0; y < lv->g.height; y++)
		for (uint32_t x = 0; x < lv->g.width; x++) {
			int ok = x + k <= lv->g.width && y + k <= lv->g.height;
			for (uint32_t dy = 0; ok && dy < k; dy++)
				for (uint32_t dx = 0; ok && dx < k; dx++) {
					size_t c = (size_t)(y + dy) * lv->g.width + x + dx;
					ok = lv->g.walkable[c] && !lv->shut[c];
				}
			v->now.walkable[(size_t)y * lv->g.width + x] = (uint8_t)ok;
		}
	v->dist = malloc(cells * sizeof *v->dist);
	v->dist2 = malloc(cells * sizeof *v->dist2);
	v->cap = (size_t)v->nodes + 1;
	v->buf = malloc(v->cap * sizeof *v->buf);
	v->next = malloc(v->cap * sizeof *v->next);
	ck_assert(v->now.walkable && v->dist && v->dist2 && v->buf && v->next);
	ck_assert_int_eq(twz_scratch_create(v->db, &v->sc), TWZ_OK);
}

static void view_close(struct view *v)
{
	twz_scratch_free(v->sc);
	free(v->now.walkable);
	free(v->dist);
	free(v->dist2);
	free(v->buf);
	free(v->next);
}

static void xy(const struct view *v, twz_node n, uint32_t *x, uint32_t *y)
{
	ck_assert_int_eq(twz_node_xy(v->db, n, x, y), TWZ_OK);
}

static int open_now(const struct view *v, twz_node n)
{
	uint32_t x, y;

	xy(v, n, &x, &y);
	return v->now.walkable[(size_t)y * v->now.width + x];
}

static struct twz_cost dist_at(const struct view *v, const struct twz_cost *d,
			       twz_node n)
{
	uint32_t x, y;

	xy(v, n, &x, &y);
	return d[(size_t)y * v->now.width + x];
}

static double value(struct twz_cost c)
{
	return c.straight + c.diagonal * SQRT2;
}

static int unreachable(struct twz_cost c)
{
	return twz_test_cost_eq(c, twz_test_unreachable);
}

/* The move from a to b (0..7), or -1 when they are no neighbours. */
static int move_of(uint32_t ax, uint32_t ay, uint32_t bx, uint32_t by)
{
	for (unsigned m = 0; m < 8; m++)
		if ((int64_t)ax + twz_test_move_dx(m) == bx &&
		    (int64_t)ay + twz_test_move_dy(m) == by)
			return (int)m;
	return -1;
}

/* Whether path[0 .. len) runs from s to t by legal moves on the level as
 * it is now; its exact cost into *c. */
static int path_legal(const struct view *v, unsigned conn, const twz_node *p,
		      size_t len, twz_node s, twz_node t, struct twz_cost *c)
{
	c->straight = c->diagonal = 0;
	if (len < 1 || p[0] != s || p[len - 1] != t || !open_now(v, s))
		return 0;
	for (size_t i = 1; i < len; i++) {
		uint32_t ax, ay, bx, by;
		xy(v, p[i - 1], &ax, &ay);
		xy(v, p[i], &bx, &by);
		int m = move_of(ax, ay, bx, by);
		if (m < 0 || !twz_test_move_legal(&v->now, conn, ax, ay, (unsigned)m))
			return 0;
		*c = twz_test_cost_add_move(*c, (unsigned)m);
	}
	return 1;
}

/* A fraction n / d, d > 0. */
struct frac {
	int64_t n, d;
};

static int frac_less(struct frac a, struct frac b)
{
	return a.n * b.d < b.n * a.d;
}

/* The open interval of t where a + t d lies strictly between lo and hi
 * (d != 0), as two fractions. */
static void span(int64_t a, int64_t d, int64_t lo, int64_t hi, struct frac *t0,
		 struct frac *t1)
{
	struct frac x = { lo - a, d }, y = { hi - a, d };

	if (d < 0) {
		x.n = -x.n, x.d = -x.d;
		y.n = -y.n, y.d = -y.d;
	}
	*t0 = frac_less(x, y) ? x : y;
	*t1 = frac_less(x, y) ? y : x;
}

/*
 * The segment between two cells' centres, by the README's rule, written
 * here from the rule itself: every cell whose inside the segment meets is
 * open, and at a cell corner it passes exactly, all four cells are.
 * Coordinates doubled, so centres and corners are whole numbers.
 */
static int segment_clear(const struct twz_grid *g, uint32_t ax, uint32_t ay,
			 uint32_t bx, uint32_t by)
{
	int64_t x0 = 2 * (int64_t)ax + 1, y0 = 2 * (int64_t)ay + 1;
	int64_t dx = 2 * ((int64_t)bx - ax), dy = 2 * ((int64_t)by - ay);
	uint32_t lx = ax < bx ? ax : bx, hx = ax < bx ? bx : ax;
	uint32_t ly = ay < by ? ay : by, hy = ay < by ? by : ay;

	for (uint32_t cy = ly; cy <= hy; cy++)
		for (uint32_t cx = lx; cx <= hx; cx++) {
			struct frac lo = { 0, 1 }, hi = { 1, 1 }, a, b;
			if (dx) {
				span(x0, dx, 2 * (int64_t)cx, 2 * (int64_t)cx + 2, &a, &b);
				if (frac_less(lo, a)) lo = a;
				if (frac_less(b, hi)) hi = b;
			} else if (x0 <= 2 * (int64_t)cx || x0 >= 2 * (int64_t)cx + 2) {
				continue;
			}
			if (dy) {
				span(y0, dy, 2 * (int64_t)cy, 2 * (int64_t)cy + 2, &a, &b);
				if (frac_less(lo, a)) lo = a;
				if (frac_less(b, hi)) hi = b;
			} else if (y0 <= 2 * (int64_t)cy || y0 >= 2 * (int64_t)cy + 2) {
				continue;
			}
			if (frac_less(lo, hi) && !twz_grid_walkable(g, cx, cy))
				return 0;
		}
	/* Corners passed exactly, strictly between the ends. */
	for (uint32_t py = ly + 1; dx && dy && py <= hy; py++)
		for (uint32_t px = lx + 1; px <= hx; px++) {
			int64_t ex = 2 * (int64_t)px - x0, ey = 2 * (int64_t)py - y0;
			if (ey * dx != ex * dy)
				continue;
			if (!twz_grid_walkable(g, px - 1, py - 1) ||
			    !twz_grid_walkable(g, px, py - 1) ||
			    !twz_grid_walkable(g, px - 1, py) ||
			    !twz_grid_walkable(g, px, py))
				return 0;
		}
	return 1;
}

/* Dijkstra on the level as it is now, from n's cell, into d. */
static void dijkstra(const struct view *v, unsigned conn, twz_node n,
		     struct twz_cost *d)
{
	uint32_t x, y;

	xy(v, n, &x, &y);
	twz_test_dijkstra(&v->now, conn, x, y, d);
}

static twz_node random_node(const struct view *v, uint64_t *rng)
{
	return rng_below(rng, v->nodes);
}

/* The status a search from s to t must give, with v->dist from t. */
static twz_status expected(const struct view *v, twz_node s, twz_node t)
{
	if (!open_now(v, s))
		return TWZ_E_START_SHUT;
	if (!open_now(v, t))
		return TWZ_E_GOAL_SHUT;
	return unreachable(dist_at(v, v->dist, s)) ? TWZ_E_UNREACHABLE : TWZ_OK;
}

/* Pairs whose path the shut places lengthened: the checks must meet some. */
static unsigned detours;

/* twz_find_path, twz_first_move and the sliced search, s -> t, with
 * v->dist from t. */
static void check_pair(const struct view *v, const struct grid_level *lv,
		       const twz_filter *f, twz_node s, twz_node t)
{
	unsigned conn = lv->connectivity;
	twz_status want = expected(v, s, t);
	struct twz_cost opt = dist_at(v, v->dist, s), c;
	size_t len = 7;
	double cost = -1;
	uint32_t sx, sy, tx, ty;

	xy(v, s, &sx, &sy);
	xy(v, t, &tx, &ty);
	twz_status st = twz_find_path(v->db, v->sc, f, s, t, 0, v->buf, v->cap,
				      &len, &cost);
	expect(st == want, "%s size %u: (%u,%u)->(%u,%u): %s, expected %s",
	       lv->name, v->k, sx, sy, tx, ty, twz_strerror(st),
	       twz_strerror(want));
	if (want == TWZ_OK) {
		expect(path_legal(v, conn, v->buf, len, s, t, &c),
		       "%s size %u: (%u,%u)->(%u,%u): the path is not legal now",
		       lv->name, v->k, sx, sy, tx, ty);
		expect(twz_test_cost_eq(c, opt) && fabs(cost - value(opt)) < 1e-9,
		       "%s size %u: (%u,%u)->(%u,%u): cost %u+%u*sqrt2 (%.6f), "
		       "Dijkstra %u+%u*sqrt2", lv->name, v->k, sx, sy, tx, ty,
		       c.straight, c.diagonal, cost, opt.straight, opt.diagonal);
		detours += cost > twz_cost(v->db, s, t) + 1e-9;
	} else {
		expect(len == 0, "%s: a path for %s", lv->name, twz_strerror(want));
	}

	/* The first move: one step of an optimal path. */
	twz_node next;
	st = twz_first_move(v->db, v->sc, f, s, t, &next);
	expect(st == want, "%s size %u: first move (%u,%u)->(%u,%u): %s, expected %s",
	       lv->name, v->k, sx, sy, tx, ty, twz_strerror(st), twz_strerror(want));
	if (want == TWZ_OK && s != t) {
		uint32_t nx, ny;
		xy(v, next, &nx, &ny);
		int m = move_of(sx, sy, nx, ny);
		expect(m >= 0 && twz_test_move_legal(&v->now, conn, sx, sy, (unsigned)m) &&
		       twz_test_cost_eq(twz_test_cost_add_move(dist_at(v, v->dist, next),
							       (unsigned)m), opt),
		       "%s size %u: first move (%u,%u)->(%u,%u) is not optimal",
		       lv->name, v->k, sx, sy, nx, ny);
	} else if (want == TWZ_OK) {
		expect(next == t, "%s: s == t moves", lv->name);
	}

	/* The same search in slices of a few nodes. */
	if (want == TWZ_E_START_SHUT) {
		expect(twz_search_begin(v->sc, f, s, t, 0) == TWZ_E_START_SHUT,
		       "%s: a sliced search from a shut start began", lv->name);
		return;
	}
	ck_assert_int_eq(twz_search_begin(v->sc, f, s, t, 0), TWZ_OK);
	unsigned slices = 0;
	while ((st = twz_search_step(v->sc, 3)) == TWZ_IN_PROGRESS)
		ck_assert_uint_lt(slices++, 2 * v->nodes + 2);
	twz_node reached;
	size_t plen;
	double pcost;
	twz_status pst = twz_search_path(v->sc, v->buf, v->cap, &plen, &pcost,
					 &reached);
	if (want == TWZ_OK) {
		expect(st == TWZ_OK && pst == TWZ_OK && reached == t &&
		       fabs(pcost - value(opt)) < 1e-9 &&
		       path_legal(v, conn, v->buf, plen, s, t, &c),
		       "%s size %u: sliced (%u,%u)->(%u,%u): %s, %s, cost %.6f",
		       lv->name, v->k, sx, sy, tx, ty, twz_strerror(st),
		       twz_strerror(pst), pcost);
	} else {
		expect(st == TWZ_E_UNREACHABLE && pst == TWZ_PARTIAL,
		       "%s size %u: sliced (%u,%u)->(%u,%u): %s, %s", lv->name,
		       v->k, sx, sy, tx, ty, twz_strerror(st), twz_strerror(pst));
	}
}

/* The partial answer when t is cut off (or shut): an optimal path to a
 * node s reaches whose static cost to t is the least of all s reaches
 * (with t out of s's static region: the nearest by position). v->dist2
 * is Dijkstra from s. */
static void check_partial(const struct view *v, const struct grid_level *lv,
			  const twz_filter *f, twz_node s, twz_node t)
{
	size_t len;
	double cost;
	twz_node reached;
	struct twz_cost c;

	if (!open_now(v, s) || !unreachable(dist_at(v, v->dist2, t)))
		return;
	twz_status st = twz_find_path_partial(v->db, v->sc, f, s, t, 0, v->buf,
					      v->cap, &len, &cost, &reached);
	expect(st == TWZ_PARTIAL, "%s: partial: %s", lv->name, twz_strerror(st));
	expect(path_legal(v, lv->connectivity, v->buf, len, s, reached, &c) &&
	       twz_test_cost_eq(c, dist_at(v, v->dist2, reached)),
	       "%s size %u: the partial path is not an optimal legal path",
	       lv->name, v->k);
	double best = INFINITY, got = INFINITY;
	int in_region = isfinite(twz_cost(v->db, s, t));
	double tp[3];
	twz_node_position(v->db, t, tp);
	for (twz_node n = 0; n < v->nodes; n++) {
		if (unreachable(dist_at(v, v->dist2, n)))
			continue;
		double key;
		if (in_region) {
			key = twz_cost(v->db, n, t);
		} else {
			double p[3];
			twz_node_position(v->db, n, p);
			key = (p[0] - tp[0]) * (p[0] - tp[0]) + (p[1] - tp[1]) * (p[1] - tp[1]);
		}
		if (key < best)
			best = key;
		if (n == reached)
			got = key;
	}
	expect(got <= best + 1e-9, "%s size %u: partial ends at %.6f, %.6f reachable",
	       lv->name, v->k, got, best);
}

/* The flow field toward t (v->dist from t), whole and in slices. */
static void check_field(const struct view *v, const struct grid_level *lv,
			const twz_filter *f, twz_node t, uint64_t *rng)
{
	unsigned conn = lv->connectivity;

	ck_assert_int_eq(twz_flow_field_filtered(v->db, v->sc, f, t, v->next, v->cap),
			 TWZ_OK);
	for (twz_node n = 0; n < v->nodes; n++) {
		struct twz_cost d = dist_at(v, v->dist, n);
		if (!open_now(v, t) || unreachable(d)) {
			expect(v->next[n] == TWZ_NONE, "%s size %u: a field move from a "
			       "node that cannot reach t", lv->name, v->k);
			continue;
		}
		if (n == t) {
			expect(v->next[n] == t, "%s: t's field entry", lv->name);
			continue;
		}
		uint32_t ax, ay, bx, by;
		expect(v->next[n] < v->nodes, "%s size %u: no field move", lv->name, v->k);
		xy(v, n, &ax, &ay);
		xy(v, v->next[n], &bx, &by);
		int m = move_of(ax, ay, bx, by);
		expect(m >= 0 && twz_test_move_legal(&v->now, conn, ax, ay, (unsigned)m) &&
		       twz_test_cost_eq(twz_test_cost_add_move(dist_at(v, v->dist, v->next[n]),
							       (unsigned)m), d),
		       "%s size %u: field move (%u,%u)->(%u,%u) is not optimal",
		       lv->name, v->k, ax, ay, bx, by);
	}
	/* In slices, waiting for a few agents only. */
	twz_node agents[4];
	for (int i = 0; i < 4; i++)
		agents[i] = random_node(v, rng);
	ck_assert_int_eq(twz_field_begin(v->sc, f, t, agents, 4), TWZ_OK);
	twz_status st;
	unsigned slices = 0;
	while ((st = twz_field_step(v->sc, 5)) == TWZ_IN_PROGRESS)
		ck_assert_uint_lt(slices++, v->nodes + 2);
	ck_assert_int_eq(st, TWZ_OK);
	for (int i = 0; i < 4; i++) {
		twz_node a = agents[i], nx;
		struct twz_cost d = dist_at(v, v->dist, a);
		st = twz_field_next(v->sc, a, &nx);
		if (!open_now(v, a)) {
			expect(st == TWZ_E_START_SHUT, "%s: field at a shut agent: %s",
			       lv->name, twz_strerror(st));
		} else if (!open_now(v, t) || unreachable(d)) {
			expect(st == TWZ_E_UNREACHABLE, "%s: field at a cut-off agent: %s",
			       lv->name, twz_strerror(st));
		} else {
			size_t len;
			double cost;
			struct twz_cost c;
			expect(st == TWZ_OK, "%s: field at an agent: %s", lv->name,
			       twz_strerror(st));
			ck_assert_int_eq(twz_field_path(v->sc, a, v->buf, v->cap, &len,
							&cost), TWZ_OK);
			expect(path_legal(v, conn, v->buf, len, a, t, &c) &&
			       twz_test_cost_eq(c, d) && fabs(cost - value(d)) < 1e-9,
			       "%s size %u: field path is not optimal", lv->name, v->k);
		}
	}
}

/* Smoothing and line of sight on the level as it is now. */
static void check_smooth(const struct view *v, const struct grid_level *lv,
			 const twz_filter *f, twz_node s, twz_node t)
{
	size_t len, n;
	double cost;

	if (twz_find_path(v->db, v->sc, f, s, t, 0, v->buf, v->cap, &len,
			  &cost) != TWZ_OK)
		return;
	ck_assert_int_eq(twz_smooth_filtered(v->db, f, v->buf, len, &n), TWZ_OK);
	expect(n >= 1 && v->buf[0] == s && v->buf[n - 1] == t,
	       "%s: smoothing lost an end", lv->name);
	for (size_t i = 1; i < n; i++) {
		uint32_t ax, ay, bx, by;
		xy(v, v->buf[i - 1], &ax, &ay);
		xy(v, v->buf[i], &bx, &by);
		expect(segment_clear(&v->now, ax, ay, bx, by),
		       "%s size %u: smoothed segment (%u,%u)-(%u,%u) is not clear now",
		       lv->name, v->k, ax, ay, bx, by);
		if (i + 1 < n) {
			uint32_t cx, cy;
			xy(v, v->buf[i + 1], &cx, &cy);
			expect(!segment_clear(&v->now, ax, ay, cx, cy),
			       "%s size %u: waypoint (%u,%u) is not a corner",
			       lv->name, v->k, bx, by);
		}
	}
	/* Line of sight between random pairs against the rule. */
	uint64_t rng = s * 31 + t;
	for (int k = 0; k < 20; k++) {
		twz_node a = random_node(v, &rng), b = random_node(v, &rng);
		uint32_t ax, ay, bx, by;
		xy(v, a, &ax, &ay);
		xy(v, b, &bx, &by);
		int want = open_now(v, a) && open_now(v, b) &&
			   segment_clear(&v->now, ax, ay, bx, by);
		twz_status st = twz_line_of_sight(v->db, f, a, b);
		expect(st == (want ? TWZ_OK : TWZ_E_UNREACHABLE),
		       "%s size %u: sight (%u,%u)-(%u,%u): %s", lv->name, v->k,
		       ax, ay, bx, by, twz_strerror(st));
	}
}

/* The nearest open node to a position, against every node. */
static void check_nearest(const struct view *v, const struct grid_level *lv,
			  const twz_filter *f, uint64_t *rng)
{
	double pos[3] = { rng_below(rng, 4 * lv->g.width + 8) / 4.0 - 1.0,
			  rng_below(rng, 4 * lv->g.height + 8) / 4.0 - 1.0, 0 };
	double radius = rng_below(rng, 3) ? (double)rng_below(rng, 12) : INFINITY;
	twz_node from = rng_below(rng, 2) ? random_node(v, rng) : TWZ_NONE, got;

	if (from != TWZ_NONE)
		dijkstra(v, lv->connectivity, from, v->dist2);
	twz_status st = twz_nearest_filtered(v->db, v->sc, f, pos, radius, from,
					     &got);
	if (from != TWZ_NONE && !open_now(v, from)) {
		expect(st == TWZ_E_START_SHUT, "%s: nearest from a shut node: %s",
		       lv->name, twz_strerror(st));
		return;
	}
	twz_node best = TWZ_NONE;
	double bd = INFINITY;
	uint32_t bx = 0, by = 0;
	for (twz_node n = 0; n < v->nodes; n++) {
		uint32_t x, y;
		if (!open_now(v, n) ||
		    (from != TWZ_NONE && unreachable(dist_at(v, v->dist2, n))))
			continue;
		xy(v, n, &x, &y);
		double px = x + v->k / 2.0, py = y + v->k / 2.0;
		double d2 = (px - pos[0]) * (px - pos[0]) + (py - pos[1]) * (py - pos[1]);
		if (d2 > radius * radius)
			continue;
		if (d2 < bd || (d2 == bd && (y < by || (y == by && x < bx)))) {
			bd = d2;
			best = n;
			bx = x;
			by = y;
		}
	}
	expect(got == best && st == (best == TWZ_NONE ? TWZ_E_OUT_OF_RANGE : TWZ_OK),
	       "%s size %u: nearest (%.2f,%.2f) r %.1f: %u (%s), expected %u",
	       lv->name, v->k, pos[0], pos[1], radius, got, twz_strerror(st), best);
}

START_TEST(test_grid_doors_every_size)
{
	struct grid_level lv;
	uint64_t rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)_i;
	unsigned sizes[16];
	size_t count;

	grid_open(&lv, (unsigned)_i);
	detours = 0;
	ck_assert_int_eq(twz_agent_sizes(lv.db, sizes, 16, &count), TWZ_OK);
	for (unsigned round = 0; round < 3; round++) {
		shut_doors(&lv, &rng, 6 + 4 * round);
		/* And doors across a few static paths, so some paths must go
		 * round one. */
		for (int d = 0; d < 4; d++) {
			twz_node path[4096];
			size_t len;
			uint32_t n = twz_node_count(lv.db);
			if (twz_path(lv.db, rng_below(&rng, n), rng_below(&rng, n), path,
				     4096, &len) == TWZ_OK && len > 4) {
				uint32_t x, y;
				twz_node_xy(lv.db, path[len / 2], &x, &y);
				shut_cell(&lv, x, y, 1);
			}
		}
		twz_filter f;
		memset(&f, 0, sizeof f);
		f.world = lv.world;
		for (size_t k = 0; k < count; k++) {
			struct view v;
			view_open(&v, &lv, sizes[k]);
			if (!v.nodes) {
				view_close(&v);
				continue;
			}
			/* Landmarks on the level as it is now, for half the
			 * pairs. */
			twz_scratch *lm[3];
			for (int i = 0; i < 3; i++) {
				ck_assert_int_eq(twz_scratch_create(v.db, &lm[i]), TWZ_OK);
				ck_assert_int_eq(twz_field_begin(lm[i], &f,
								 random_node(&v, &rng),
								 NULL, 0), TWZ_OK);
				ck_assert_int_eq(twz_field_step(lm[i], 0), TWZ_OK);
			}
			for (unsigned q = 0; q < 25; q++) {
				twz_node s = random_node(&v, &rng), t = random_node(&v, &rng);
				ck_assert_int_eq(twz_search_landmarks(v.sc,
					(const twz_scratch *const *)lm, q % 2 ? 3 : 0), TWZ_OK);
				/* Now and then an agent standing in a door. */
				if (q % 7 == 3) {
					uint32_t x, y;
					xy(&v, s, &x, &y);
					shut_cell(&lv, x, y, 1);
					view_close(&v);
					view_open(&v, &lv, sizes[k]);
				}
				dijkstra(&v, lv.connectivity, t, v.dist);
				check_pair(&v, &lv, &f, s, t);
				dijkstra(&v, lv.connectivity, s, v.dist2);
				check_partial(&v, &lv, &f, s, t);
				check_smooth(&v, &lv, &f, s, t);
				check_nearest(&v, &lv, &f, &rng);
				if (q % 5 == 0) {
					dijkstra(&v, lv.connectivity, t, v.dist);
					check_field(&v, &lv, &f, t, &rng);
				}
			}
			for (int i = 0; i < 3; i++)
				twz_scratch_free(lm[i]);
			/* The world's view of its nodes. */
			for (twz_node n = 0; n < v.nodes; n++)
				expect(twz_world_is_shut(lv.world, v.db, n) == !open_now(&v, n),
				       "%s size %u: node %u shut %d, open now %d", lv.name,
				       v.k, n, twz_world_is_shut(lv.world, v.db, n),
				       open_now(&v, n));
			view_close(&v);
		}
	}
	/* (Pockets are small regions: few pairs share one.) */
	ck_assert_msg(detours >= 3 || grid_configs[_i].kind == TWZ_TEST_POCKETS,
		      "%s: only %u paths went round a door", lv.name, detours);
	grid_close(&lv);
}
END_TEST

/* A budget cuts a search short, with a legal path toward the goal; the
 * filter is checked; a world serves only its own file. */
START_TEST(test_budgets_and_arguments)
{
	struct grid_level lv, other;
	uint64_t rng = 77;
	struct view v;

	grid_open(&lv, 0);
	grid_open(&other, 2);
	/* A wall of shut cells across the middle, but for one gap. */
	for (uint32_t y = 1; y < lv.g.height; y++)
		shut_cell(&lv, lv.g.width / 2, y, 1);
	view_open(&v, &lv, 1);
	twz_filter f;
	memset(&f, 0, sizeof f);
	f.world = lv.world;
	unsigned spent = 0;
	for (unsigned q = 0; q < 60; q++) {
		twz_node s = random_node(&v, &rng), t = random_node(&v, &rng);
		size_t len;
		double cost;
		struct twz_cost c;
		twz_node reached;
		dijkstra(&v, lv.connectivity, s, v.dist2);
		twz_status st = twz_find_path(v.db, v.sc, &f, s, t, 4, v.buf, v.cap,
					      &len, &cost);
		if (st != TWZ_E_BUDGET)
			continue;
		spent++;
		ck_assert_uint_le(twz_scratch_expanded(v.sc), 4);
		/* The partial path ends somewhere s reaches, optimally. */
		st = twz_find_path_partial(v.db, v.sc, &f, s, t, 4, v.buf, v.cap,
					   &len, &cost, &reached);
		ck_assert_int_eq(st, TWZ_E_BUDGET);
		expect(path_legal(&v, lv.connectivity, v.buf, len, s, reached, &c) &&
		       twz_test_cost_eq(c, dist_at(&v, v.dist2, reached)),
		       "a budget's partial path is not optimal");
		/* In slices with a budget for the whole search. */
		ck_assert_int_eq(twz_search_begin(v.sc, &f, s, t, 4), TWZ_OK);
		while ((st = twz_search_step(v.sc, 1)) == TWZ_IN_PROGRESS)
			;
		ck_assert_int_eq(st, TWZ_E_BUDGET);
		ck_assert_int_eq(twz_search_path(v.sc, v.buf, v.cap, &len, &cost,
						 &reached), TWZ_PARTIAL);
	}
	ck_assert_uint_gt(spent, 0);

	twz_node s = 0, out;
	size_t len;
	/* A world of another file, a reserved field, a scratch of another
	 * database. */
	f.world = other.world;
	ck_assert_int_eq(twz_find_path(v.db, v.sc, &f, s, s, 0, v.buf, v.cap,
				       &len, NULL), TWZ_E_ARGUMENT);
	f.world = lv.world;
	f.reserved[1] = 1;
	ck_assert_int_eq(twz_first_move(v.db, v.sc, &f, s, s, &out), TWZ_E_ARGUMENT);
	f.reserved[1] = 0;
	ck_assert_int_eq(twz_first_move(other.db, v.sc, &f, s, s, &out),
			 TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_search_step(v.sc, 1) == TWZ_E_ARGUMENT ||
			 twz_search_step(v.sc, 1) != TWZ_IN_PROGRESS, 1);
	ck_assert_int_eq(twz_field_step(v.sc, 1), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_next_status(v.db, s, v.nodes, &out), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_next_status(v.db, s, s, &out), TWZ_OK);
	ck_assert_uint_eq(out, s);
	ck_assert_int_eq(twz_world_shut_node(lv.world, v.nodes + 5, 1), TWZ_E_ARGUMENT);
	double lo[3] = { 1, 1, 0 }, hi[3] = { 0, 2, 0 };
	ck_assert_int_eq(twz_world_shut_box(lv.world, lo, hi, 1), TWZ_E_ARGUMENT);
	/* A box of cells shuts exactly those cells. */
	twz_world_open_all(lv.world);
	lo[0] = 2.5, hi[0] = 4.0, lo[1] = 3.0, hi[1] = 3.0;
	ck_assert_int_eq(twz_world_shut_box(lv.world, lo, hi, 1), TWZ_OK);
	for (uint32_t y = 0; y < lv.g.height; y++)
		for (uint32_t x = 0; x < lv.g.width; x++) {
			twz_node n = twz_node_at(v.db, x, y);
			if (n == TWZ_NONE)
				continue;
			int want = (x == 2 || x == 3) && y == 3;
			expect(twz_world_is_shut(lv.world, v.db, n) == want,
			       "box: cell (%u,%u) shut %d", x, y, !want);
		}
	view_close(&v);
	grid_close(&other);
	grid_close(&lv);
}
END_TEST

/* The static calls' statuses: why twz_next_status gives no move. */
START_TEST(test_next_status)
{
	struct grid_level lv;
	struct view v;

	grid_open(&lv, 6);  /* pockets: several regions */
	view_open(&v, &lv, 1);
	for (twz_node s = 0; s < v.nodes; s += 7)
		for (twz_node t = 0; t < v.nodes; t += 5) {
			twz_node next, plain = twz_next(v.db, s, t);
			twz_status st = twz_next_status(v.db, s, t, &next);
			if (plain == TWZ_NONE)
				expect(st == TWZ_E_UNREACHABLE && next == TWZ_NONE,
				       "no move, %s", twz_strerror(st));
			else
				expect(st == TWZ_OK && next == plain, "a move, %s",
				       twz_strerror(st));
		}
	view_close(&v);
	grid_close(&lv);
}
END_TEST

/* ---- graphs and navmeshes ------------------------------------------------ */

struct graph_level {
	uint8_t *buf;
	size_t len;
	twz_db *db;
	twz_world *world;
	twz_scratch *sc;
	uint32_t n;
	uint32_t *first, *head;   /* the database's arcs */
	uint64_t *weight;
	uint8_t *shut;
	uint64_t *dist, *rdist;
	twz_node *buf2, *next;
	const char *name;
};

/* A random digraph's text: n nodes, about 3n arcs, some one-way. */
static char *random_gr(uint64_t *rng, uint32_t n, int coords, char **co)
{
	size_t cap = 64 * (size_t)n * 8 + 64, at = 0;
	char *t = malloc(cap);
	uint32_t m = 0;
	uint32_t (*arc)[3] = malloc(sizeof *arc * 8 * (size_t)n);

	ck_assert(t && arc);
	for (uint32_t v = 0; v < n; v++) {
		uint32_t deg = 1 + rng_below(rng, 4);
		for (uint32_t k = 0; k < deg; k++) {
			uint32_t u = rng_below(rng, n), w = 1 + rng_below(rng, 20);
			if (u == v)
				continue;
			arc[m][0] = v, arc[m][1] = u, arc[m][2] = w, m++;
			if (rng_below(rng, 3))
				arc[m][0] = u, arc[m][1] = v, arc[m][2] = w, m++;
		}
	}
	at += (size_t)snprintf(t + at, cap - at, "p sp %u %u\n", n, m);
	for (uint32_t i = 0; i < m; i++)
		at += (size_t)snprintf(t + at, cap - at, "a %u %u %u\n", arc[i][0] + 1,
				       arc[i][1] + 1, arc[i][2]);
	free(arc);
	*co = NULL;
	if (coords) {
		size_t ccap = 48 * (size_t)n + 64, cat = 0;
		*co = malloc(ccap);
		ck_assert_ptr_nonnull(*co);
		cat += (size_t)snprintf(*co + cat, ccap - cat, "p aux sp co %u\n", n);
		for (uint32_t v = 0; v < n; v++)
			cat += (size_t)snprintf(*co + cat, ccap - cat, "v %u %u %u\n",
						v + 1, rng_below(rng, 100), rng_below(rng, 100));
	}
	return t;
}

static void graph_arcs_load(struct graph_level *lv)
{
	twz_info in;

	twz_get_info(lv->db, &in);
	lv->n = in.node_count;
	lv->first = malloc(((size_t)lv->n + 1) * sizeof *lv->first);
	lv->head = malloc((in.arc_count + 1) * sizeof *lv->head);
	lv->weight = malloc((in.arc_count + 1) * sizeof *lv->weight);
	lv->shut = calloc(lv->n + 1, 1);
	lv->dist = malloc(((size_t)lv->n + 1) * sizeof *lv->dist);
	lv->rdist = malloc(((size_t)lv->n + 1) * sizeof *lv->rdist);
	lv->buf2 = malloc(((size_t)lv->n + 1) * sizeof *lv->buf2);
	lv->next = malloc(((size_t)lv->n + 1) * sizeof *lv->next);
	ck_assert(lv->first && lv->head && lv->weight && lv->shut && lv->dist &&
		  lv->rdist && lv->buf2 && lv->next);
	uint32_t at = 0;
	for (twz_node v = 0; v < lv->n; v++) {
		size_t count;
		lv->first[v] = at;
		ck_assert_int_eq(twz_node_arcs(lv->db, v, lv->head + at, lv->weight + at,
					       in.arc_count - at, &count), TWZ_OK);
		at += (uint32_t)count;
	}
	lv->first[lv->n] = at;
	ck_assert_int_eq(twz_world_create(lv->db, &lv->world), TWZ_OK);
	ck_assert_int_eq(twz_scratch_create(lv->db, &lv->sc), TWZ_OK);
}

static void graph_level_close(struct graph_level *lv)
{
	twz_scratch_free(lv->sc);
	twz_world_free(lv->world);
	twz_close(lv->db);
	free(lv->buf);
	free(lv->first);
	free(lv->head);
	free(lv->weight);
	free(lv->shut);
	free(lv->dist);
	free(lv->rdist);
	free(lv->buf2);
	free(lv->next);
}

/* Plain O(n^2) Dijkstra over the arcs, shut nodes left out; reverse:
 * the cost from each node to s. */
static void graph_dijkstra(const struct graph_level *lv, twz_node s, int reverse,
			   uint64_t *d)
{
	uint8_t *done = calloc(lv->n + 1, 1);

	ck_assert_ptr_nonnull(done);
	for (uint32_t v = 0; v < lv->n; v++)
		d[v] = UINT64_MAX;
	if (!lv->shut[s])
		d[s] = 0;
	for (;;) {
		uint32_t u = UINT32_MAX;
		for (uint32_t v = 0; v < lv->n; v++)
			if (!done[v] && d[v] != UINT64_MAX && (u == UINT32_MAX || d[v] < d[u]))
				u = v;
		if (u == UINT32_MAX)
			break;
		done[u] = 1;
		for (uint32_t x = 0; x < lv->n; x++) {
			uint32_t a = reverse ? x : u, b = reverse ? u : x;
			if (lv->shut[x])
				continue;
			for (uint32_t k = lv->first[a]; k < lv->first[a + 1]; k++)
				if (lv->head[k] == b && d[u] + lv->weight[k] < d[x])
					d[x] = d[u] + lv->weight[k];
		}
	}
	free(done);
}

static uint64_t arc_weight(const struct graph_level *lv, twz_node a, twz_node b)
{
	for (uint32_t k = lv->first[a]; k < lv->first[a + 1]; k++)
		if (lv->head[k] == b)
			return lv->weight[k];
	return UINT64_MAX;
}

/* Every call against the oracle, for random pairs, with lv->shut as the
 * world's shut nodes. */
static void check_graph_queries(struct graph_level *lv, uint64_t *rng)
{
	twz_filter f;
	size_t cap = (size_t)lv->n + 1;

	memset(&f, 0, sizeof f);
	f.world = lv->world;
	twz_scratch *lm[2];
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(twz_scratch_create(lv->db, &lm[i]), TWZ_OK);
		ck_assert_int_eq(twz_field_begin(lm[i], &f, rng_below(rng, lv->n), NULL, 0),
				 TWZ_OK);
		ck_assert_int_eq(twz_field_step(lm[i], 0), TWZ_OK);
	}
	for (unsigned q = 0; q < 40; q++) {
		twz_node s = rng_below(rng, lv->n), t = rng_below(rng, lv->n);
		size_t len;
		double cost;
		ck_assert_int_eq(twz_search_landmarks(lv->sc,
			(const twz_scratch *const *)lm, q % 2 ? 2 : 0), TWZ_OK);
		graph_dijkstra(lv, t, 1, lv->rdist);
		twz_status want = lv->shut[s] ? TWZ_E_START_SHUT
				  : lv->shut[t] ? TWZ_E_GOAL_SHUT
				  : lv->rdist[s] == UINT64_MAX ? TWZ_E_UNREACHABLE : TWZ_OK;
		twz_status st = twz_find_path(lv->db, lv->sc, &f, s, t, 0, lv->buf2,
					      cap, &len, &cost);
		expect(st == want, "%s: %u->%u: %s, expected %s", lv->name, s, t,
		       twz_strerror(st), twz_strerror(want));
		if (want == TWZ_OK) {
			uint64_t sum = 0;
			expect(len >= 1 && lv->buf2[0] == s && lv->buf2[len - 1] == t,
			       "%s: path ends", lv->name);
			for (size_t i = 1; i < len; i++) {
				uint64_t w = arc_weight(lv, lv->buf2[i - 1], lv->buf2[i]);
				expect(w != UINT64_MAX && !lv->shut[lv->buf2[i]],
				       "%s: %u->%u: no arc or a shut node", lv->name, s, t);
				sum += w;
			}
			expect(sum == lv->rdist[s] && cost == (double)sum,
			       "%s: %u->%u: cost %llu (%.1f), Dijkstra %llu", lv->name,
			       s, t, (unsigned long long)sum, cost,
			       (unsigned long long)lv->rdist[s]);
			twz_node next;
			ck_assert_int_eq(twz_first_move(lv->db, lv->sc, &f, s, t, &next),
					 TWZ_OK);
			expect(s == t ? next == t
				      : arc_weight(lv, s, next) != UINT64_MAX &&
					arc_weight(lv, s, next) + lv->rdist[next] == lv->rdist[s],
			       "%s: %u->%u: first move %u is not optimal", lv->name, s, t,
			       next);
		}
		/* Partial: the least static cost to t among what s reaches. */
		if (want == TWZ_E_UNREACHABLE || want == TWZ_E_GOAL_SHUT) {
			twz_node reached;
			graph_dijkstra(lv, s, 0, lv->dist);
			st = twz_find_path_partial(lv->db, lv->sc, &f, s, t, 0, lv->buf2,
						   cap, &len, &cost, &reached);
			expect(st == TWZ_PARTIAL && reached < lv->n &&
			       lv->dist[reached] != UINT64_MAX &&
			       cost == (double)lv->dist[reached],
			       "%s: %u->%u partial: %s", lv->name, s, t, twz_strerror(st));
			uint64_t best = UINT64_MAX, got = UINT64_MAX, c;
			int region = twz_cost_u64(lv->db, s, t, &c) == TWZ_OK;
			for (twz_node n = 0; region && n < lv->n; n++) {
				if (lv->dist[n] == UINT64_MAX ||
				    twz_cost_u64(lv->db, n, t, &c) != TWZ_OK)
					continue;
				if (c < best)
					best = c;
				if (n == reached)
					got = c;
			}
			expect(!region || got == best, "%s: %u->%u: partial at %llu, "
			       "%llu reachable", lv->name, s, t, (unsigned long long)got,
			       (unsigned long long)best);
		}
		/* The field toward t, every node. */
		if (q % 8 == 0) {
			ck_assert_int_eq(twz_flow_field_filtered(lv->db, lv->sc, &f, t,
								 lv->next, cap), TWZ_OK);
			for (twz_node n = 0; n < lv->n; n++) {
				if (lv->shut[t] || lv->rdist[n] == UINT64_MAX) {
					expect(lv->next[n] == TWZ_NONE, "%s: field of a "
					       "cut-off node", lv->name);
					continue;
				}
				if (n == t) {
					expect(lv->next[n] == t, "%s: field at t", lv->name);
					continue;
				}
				twz_node x = lv->next[n];
				expect(x < lv->n && arc_weight(lv, n, x) != UINT64_MAX &&
				       arc_weight(lv, n, x) + lv->rdist[x] == lv->rdist[n],
				       "%s: field move %u->%u is not optimal", lv->name, n, x);
			}
		}
	}
	twz_search_landmarks(lv->sc, NULL, 0);
	for (int i = 0; i < 2; i++)
		twz_scratch_free(lm[i]);
}

static void graph_shut_random(struct graph_level *lv, uint64_t *rng,
			      unsigned count)
{
	twz_world_open_all(lv->world);
	memset(lv->shut, 0, lv->n);
	for (unsigned i = 0; i < count; i++) {
		twz_node n = rng_below(rng, lv->n);
		ck_assert_int_eq(twz_world_shut_node(lv->world, n, 1), TWZ_OK);
		lv->shut[n] = 1;
	}
}

START_TEST(test_graph_shut_nodes)
{
	uint64_t rng = 0xABCDEF12345ull + (uint64_t)_i;
	struct graph_level lv;
	struct twz_graph g;
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	char *co;

	memset(&lv, 0, sizeof lv);
	lv.name = "random graph";
	char *gr = random_gr(&rng, 60 + 20 * (uint32_t)_i, 1, &co);
	ck_assert_msg(twz_graph_parse((const uint8_t *)gr, strlen(gr), "w.gr", &g,
				      &err) == 0, "%s", err.msg);
	ck_assert_msg(twz_coords_parse((const uint8_t *)co, strlen(co), "w.co", &g,
				       &err) == 0, "%s", err.msg);
	twz_bake_options_default(&opt);
	opt.threads = 2;
	opt.name = "w.gr";
	ck_assert_msg(twz_bake_graph_encode(&g, NULL, &opt, &lv.buf, &lv.len, &err) == 0,
		      "%s", err.msg);
	twz_graph_free(&g);
	free(gr);
	free(co);
	ck_assert_int_eq(twz_open_memory(lv.buf, lv.len, 0, &lv.db), TWZ_OK);
	graph_arcs_load(&lv);
	for (unsigned round = 0; round < 4; round++) {
		graph_shut_random(&lv, &rng, round * 4);
		check_graph_queries(&lv, &rng);
	}
	/* Nearest by coordinates, among what a node reaches now. */
	twz_filter f;
	memset(&f, 0, sizeof f);
	f.world = lv.world;
	for (unsigned q = 0; q < 30; q++) {
		double pos[3] = { rng_below(&rng, 100), rng_below(&rng, 100), 0 };
		twz_node from = rng_below(&rng, lv.n), got, best = TWZ_NONE;
		double bd = INFINITY;
		graph_dijkstra(&lv, from, 0, lv.dist);
		twz_status st = twz_nearest_filtered(lv.db, lv.sc, &f, pos, INFINITY,
						     from, &got);
		if (lv.shut[from]) {
			ck_assert_int_eq(st, TWZ_E_START_SHUT);
			continue;
		}
		for (twz_node n = 0; n < lv.n; n++) {
			double p[3];
			if (lv.shut[n] || lv.dist[n] == UINT64_MAX)
				continue;
			ck_assert_int_eq(twz_node_position(lv.db, n, p), TWZ_OK);
			double d2 = (p[0] - pos[0]) * (p[0] - pos[0]) +
				    (p[1] - pos[1]) * (p[1] - pos[1]);
			if (d2 < bd) {
				bd = d2;
				best = n;
			}
		}
		expect(st == TWZ_OK && got == best, "graph nearest: %u, expected %u",
		       got, best);
	}
	graph_level_close(&lv);
}
END_TEST

START_TEST(test_navmesh_shut_polygons)
{
	uint64_t rng = 0x5151ull + (uint64_t)_i;
	struct graph_level lv;
	struct twz_navmesh m;
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };

	memset(&lv, 0, sizeof lv);
	lv.name = "random navmesh";
	char *obj = twz_test_random_obj(rng_next(&rng), 9, 7);
	ck_assert_msg(twz_navmesh_parse((const uint8_t *)obj, strlen(obj), "w.obj",
					&m, &err) == 0, "%s", err.msg);
	free(obj);
	twz_bake_options_default(&opt);
	opt.threads = 2;
	opt.name = "w.obj";
	ck_assert_msg(twz_bake_navmesh(&m, &opt, NULL, &lv.buf, &lv.len, &err) == 0,
		      "%s", err.msg);
	twz_navmesh_free(&m);
	ck_assert_int_eq(twz_open_memory(lv.buf, lv.len, 0, &lv.db), TWZ_OK);
	graph_arcs_load(&lv);
	for (unsigned round = 0; round < 3; round++) {
		graph_shut_random(&lv, &rng, round * 3);
		check_graph_queries(&lv, &rng);
	}
	/* A box in world space shuts the polygons it overlaps: here, every
	 * polygon with a vertex in a column of the mesh. */
	twz_world_open_all(lv.world);
	double lo[3] = { 3.4, -1, -1 }, hi[3] = { 3.6, 2, 100 };
	ck_assert_int_eq(twz_world_shut_box(lv.world, lo, hi, 1), TWZ_OK);
	for (twz_node n = 0; n < lv.n; n++) {
		float v[TWZ_NAVMESH_MAX_POLY_VERTS][3];
		size_t count;
		ck_assert_int_eq(twz_navmesh_polygon(lv.db, n, v, TWZ_NAVMESH_MAX_POLY_VERTS,
						     &count), TWZ_OK);
		double x0 = INFINITY, x1 = -INFINITY;
		for (size_t i = 0; i < count; i++) {
			x0 = fmin(x0, v[i][0]);
			x1 = fmax(x1, v[i][0]);
		}
		/* Polygons are cells of a unit grid, jittered by an eighth:
		 * those reaching over x = 3.5 hold the column. */
		int want = x0 < 3.4 && x1 > 3.6;
		lv.shut[n] = (uint8_t)twz_world_is_shut(lv.world, lv.db, n);
		expect(lv.shut[n] == want || (x0 < 3.6 && x1 > 3.4),
		       "box: polygon %u over [%.2f, %.2f] shut %d", n, x0, x1,
		       lv.shut[n]);
	}
	check_graph_queries(&lv, &rng);
	/* The navmesh path between two points: statuses of the calls that
	 * take positions. */
	float far[3] = { -50, 0, -50 }, in[3];
	double centre[3];
	ck_assert_int_eq(twz_node_position(lv.db, 0, centre), TWZ_OK);
	for (int a = 0; a < 3; a++)
		in[a] = (float)centre[a];
	twz_node cor[256];
	float pts[256][3];
	size_t cl, pl;
	ck_assert_int_eq(twz_navmesh_path(lv.db, far, in, TWZ_WAYPOINTS_FUNNEL, cor,
					  256, &cl, pts, 256, &pl), TWZ_E_START_OFF);
	ck_assert_int_eq(twz_navmesh_path(lv.db, in, far, TWZ_WAYPOINTS_FUNNEL, cor,
					  256, &cl, pts, 256, &pl), TWZ_E_GOAL_OFF);
	twz_node p;
	ck_assert_int_eq(twz_navmesh_nearest(lv.db, far, 1.0f, &p, NULL),
			 TWZ_E_OUT_OF_RANGE);
	graph_level_close(&lv);
}
END_TEST


/* ---- the tool: --closed for every level kind and agent size --------------- */

/* The fields of one JSON answer line: its path's cells (or, on graphs,
 * ids), and its status word ("ok" when it has a path). */
struct answer {
	char status[32];
	long n;                   /* cells or ids of the path */
	uint32_t v[2 * 2048];
	double cost;
};

/* Parse the line at *p into a (pairs: 1 a path of cells, 0 of ids, -1
 * none read: a navmesh's points); advances past it. */
static void parse_answer(const char **p, struct answer *a, int pairs)
{
	const char *line = *p, *end = strchr(line, '\n');
	ck_assert_ptr_nonnull(end);
	const char *st = strstr(line, "\"status\":\"");
	strcpy(a->status, "ok");
	if (st && st < end) {
		st += 10;
		size_t k = 0;
		while (st[k] != '"' && k + 1 < sizeof a->status) {
			a->status[k] = st[k];
			k++;
		}
		a->status[k] = 0;
	}
	const char *c = strstr(line, "\"cost\":");
	ck_assert(c && c < end);
	a->cost = strtod(c + 7, NULL);
	const char *q = strstr(line, "\"path\":[");
	ck_assert(q && q < end);
	q += 8;
	a->n = 0;
	while (pairs >= 0 && *q != ']' && q < end && a->n < 2 * 2048) {
		char *stop;
		if (*q == '[' || *q == ',') {
			q++;
			continue;
		}
		a->v[a->n++] = (uint32_t)strtoul(q, &stop, 10);
		q = stop;
		if (pairs && *q == ']')
			q++;
	}
	if (pairs)
		a->n /= 2;
	*p = end + 1;
}

static char tool_dir[256];

static const char *tool_file(const char *name)
{
	static char buf[4][512];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", tool_dir, name);
	return buf[k];
}

static void run_ok(const char *const args[], struct twz_test_run *r)
{
	twz_test_run_tool(args, NULL, 0, r);
	ck_assert_msg(r->status == 0, "twigz %s: exit %d: %s", args[0], r->status,
		      r->err);
}

/* A grid baked with --agent-sizes 1,2,3, doors in a --closed file, every
 * answer of `twigz query --scen --closed --agent-size K --json` checked
 * against the oracle of that size. */
START_TEST(test_tool_grid_closed_every_size)
{
	struct grid_level lv;
	uint64_t rng = 4242;
	struct twz_test_run r;

	ck_assert_ptr_nonnull(twz_test_make_dir(tool_dir, sizeof tool_dir, "twz_world_"));
	grid_open(&lv, 0);
	twz_test_write_map(tool_file("l.map"), &lv.g);
	const char *build[] = { "build", tool_file("l.map"), "-o", tool_file("l.twz"),
				"--agent-sizes", "1,2,3", "--quiet", NULL };
	run_ok(build, &r);
	twz_test_run_free(&r);
	shut_doors(&lv, &rng, 10);
	/* The closed file, and the world the oracle reads, alike. */
	char *text = malloc(16 * (size_t)lv.g.width * lv.g.height + 64);
	size_t at = (size_t)sprintf(text, "# doors\n");
	for (uint32_t y = 0; y < lv.g.height; y++)
		for (uint32_t x = 0; x < lv.g.width; x++)
			if (lv.shut[(size_t)y * lv.g.width + x])
				at += (size_t)sprintf(text + at, "%u %u\n", x, y);
	twz_test_write_file(tool_file("doors.txt"), text, at);
	free(text);
	for (unsigned k = 1; k <= 3; k++) {
		struct view v;
		view_open(&v, &lv, k);
		char scen[64 * 40 + 32];
		size_t sat = (size_t)sprintf(scen, "version 1\n");
		twz_node s[40], t[40];
		for (int i = 0; i < 40; i++) {
			s[i] = random_node(&v, &rng);
			t[i] = random_node(&v, &rng);
			uint32_t sx, sy, tx, ty;
			xy(&v, s[i], &sx, &sy);
			xy(&v, t[i], &tx, &ty);
			sat += (size_t)sprintf(scen + sat, "0\tl.map\t%u\t%u\t%u\t%u\t%u\t%u\t0\n",
					       lv.g.width, lv.g.height, sx, sy, tx, ty);
		}
		twz_test_write_file(tool_file("q.scen"), scen, sat);
		char size[4];
		snprintf(size, sizeof size, "%u", k);
		const char *query[] = { "query", tool_file("l.twz"), "--scen",
					tool_file("q.scen"), "--closed",
					tool_file("doors.txt"), "--agent-size", size,
					"--json", NULL };
		run_ok(query, &r);
		const char *p = r.out;
		struct answer *a = malloc(sizeof *a);
		ck_assert_ptr_nonnull(a);
		for (int i = 0; i < 40; i++) {
			parse_answer(&p, a, 1);
			dijkstra(&v, lv.connectivity, t[i], v.dist);
			twz_status want = expected(&v, s[i], t[i]);
			const char *word = want == TWZ_OK ? "ok"
					 : want == TWZ_E_START_SHUT ? "start_shut"
					 : want == TWZ_E_GOAL_SHUT ? "goal_shut" : "unreachable";
			expect(!strcmp(a->status, word), "size %u, query %d: %s, expected %s",
			       k, i, a->status, word);
			if (want != TWZ_OK)
				continue;
			struct twz_cost c = { 0, 0 };
			for (long j = 0; j < a->n; j++) {
				twz_node n = twz_node_at(v.db, a->v[2 * j], a->v[2 * j + 1]);
				expect(n != TWZ_NONE && open_now(&v, n),
				       "size %u: the path stands on a shut place", k);
				v.buf[j] = n;
			}
			expect(path_legal(&v, lv.connectivity, v.buf, (size_t)a->n, s[i], t[i], &c) &&
			       twz_test_cost_eq(c, dist_at(&v, v.dist, s[i])),
			       "size %u, query %d: the tool's path is not optimal now", k, i);
		}
		free(a);
		twz_test_run_free(&r);
		view_close(&v);
	}
	grid_close(&lv);
	twz_test_remove_tree(tool_dir);
}
END_TEST

/* Graphs (shut vertex ids) and navmeshes (shut faces and boxes) through
 * the tool, against the oracle over the database's arcs. */
START_TEST(test_tool_graph_and_navmesh_closed)
{
	uint64_t rng = 777;
	struct twz_test_run r;
	char *co;

	ck_assert_ptr_nonnull(twz_test_make_dir(tool_dir, sizeof tool_dir, "twz_world_"));
	for (int kind = 0; kind < 2; kind++) {
		struct graph_level lv;
		memset(&lv, 0, sizeof lv);
		lv.name = kind ? "navmesh" : "graph";
		char *text = kind ? twz_test_random_obj(rng_next(&rng), 8, 6) : random_gr(&rng, 50, 0, &co);
		const char *level = tool_file(kind ? "m.obj" : "g.gr");
		twz_test_write_file(level, text, strlen(text));
		free(text);
		const char *build[] = { "build", level, "-o", tool_file("x.twz"), "--quiet",
					NULL };
		run_ok(build, &r);
		twz_test_run_free(&r);
		lv.buf = twz_test_read_file(tool_file("x.twz"), &lv.len);
		ck_assert_int_eq(twz_open_memory(lv.buf, lv.len, 0, &lv.db), TWZ_OK);
		graph_arcs_load(&lv);
		/* Shut some places, by id (and on the mesh one box). */
		char closed[4096];
		size_t at = (size_t)sprintf(closed, "# shut\n");
		for (int i = 0; i < 6; i++) {
			twz_node n = rng_below(&rng, lv.n);
			int64_t id;
			twz_node_id(lv.db, n, &id);
			at += (size_t)sprintf(closed + at, "%lld\n", (long long)id);
			twz_world_shut_node(lv.world, n, 1);
		}
		if (kind) {
			at += (size_t)sprintf(closed + at, "box 2.4 -1 2.4 2.6 5 2.6\n");
			double lo[3] = { 2.4, -1, 2.4 }, hi[3] = { 2.6, 5, 2.6 };
			twz_world_shut_box(lv.world, lo, hi, 1);
		}
		for (twz_node n = 0; n < lv.n; n++)
			lv.shut[n] = (uint8_t)twz_world_is_shut(lv.world, lv.db, n);
		twz_test_write_file(tool_file("shut.txt"), closed, at);
		for (int q = 0; q < 12; q++) {
			twz_node s = rng_below(&rng, lv.n), t = rng_below(&rng, lv.n);
			char a0[64], a1[64], a2[64], a3[64], a4[64], a5[64];
			struct answer *an = malloc(sizeof *an);
			ck_assert_ptr_nonnull(an);
			graph_dijkstra(&lv, t, 1, lv.rdist);
			const char *want = lv.shut[s] ? "start_shut" : lv.shut[t] ? "goal_shut"
					 : lv.rdist[s] == UINT64_MAX ? "unreachable" : "ok";
			if (!kind) {
				int64_t sid, tid;
				twz_node_id(lv.db, s, &sid);
				twz_node_id(lv.db, t, &tid);
				snprintf(a0, sizeof a0, "%lld", (long long)sid);
				snprintf(a1, sizeof a1, "%lld", (long long)tid);
				const char *query[] = { "query", tool_file("x.twz"), a0, a1,
							"--closed", tool_file("shut.txt"),
							"--json", NULL };
				run_ok(query, &r);
			} else {
				double ps[3], pt[3];
				twz_node_position(lv.db, s, ps);
				twz_node_position(lv.db, t, pt);
				snprintf(a0, sizeof a0, "%.9g", ps[0]);
				snprintf(a1, sizeof a1, "%.9g", ps[1]);
				snprintf(a2, sizeof a2, "%.9g", ps[2]);
				snprintf(a3, sizeof a3, "%.9g", pt[0]);
				snprintf(a4, sizeof a4, "%.9g", pt[1]);
				snprintf(a5, sizeof a5, "%.9g", pt[2]);
				const char *query[] = { "query", tool_file("x.twz"), a0, a1, a2,
							a3, a4, a5, "--closed",
							tool_file("shut.txt"), "--json", NULL };
				run_ok(query, &r);
				/* A centre may sit on a shared edge: the polygon it
				 * locates to is the start. */
				float fs[3] = { (float)ps[0], (float)ps[1], (float)ps[2] };
				float ft[3] = { (float)pt[0], (float)pt[1], (float)pt[2] };
				s = twz_navmesh_locate(lv.db, fs);
				t = twz_navmesh_locate(lv.db, ft);
				graph_dijkstra(&lv, t, 1, lv.rdist);
				want = lv.shut[s] ? "start_shut" : lv.shut[t] ? "goal_shut"
				     : lv.rdist[s] == UINT64_MAX ? "unreachable" : "ok";
			}
			const char *p = r.out;
			if (kind) {
				/* The polygons, not the waypoints, are the corridor. */
				const char *poly = strstr(p, "\"polygons\":[");
				ck_assert_ptr_nonnull(poly);
			}
			parse_answer(&p, an, kind ? -1 : 0);
			expect(!strcmp(an->status, want), "%s: %s, expected %s", lv.name,
			       an->status, want);
			if (!kind && !strcmp(want, "ok"))
				expect(an->cost == (double)lv.rdist[s],
				       "graph: cost %.1f, Dijkstra %llu", an->cost,
				       (unsigned long long)lv.rdist[s]);
			free(an);
			twz_test_run_free(&r);
		}
		graph_level_close(&lv);
		if (!kind)
			free(co);
	}
	twz_test_remove_tree(tool_dir);
}
END_TEST

static Suite *world_suite(void)
{
	Suite *s = suite_create("world");
	TCase *grids = tcase_create("Grids");
	TCase *graphs = tcase_create("Graphs");

	tcase_set_timeout(grids, 600);
	tcase_add_loop_test(grids, test_grid_doors_every_size, 0, (int)GRID_CONFIGS);
	tcase_add_test(grids, test_budgets_and_arguments);
	tcase_add_test(grids, test_next_status);
	suite_add_tcase(s, grids);
	tcase_set_timeout(graphs, 600);
	tcase_add_loop_test(graphs, test_graph_shut_nodes, 0, 3);
	tcase_add_loop_test(graphs, test_navmesh_shut_polygons, 0, 3);
	suite_add_tcase(s, graphs);
	TCase *tool = tcase_create("Tool");
	tcase_set_timeout(tool, 600);
	tcase_add_test(tool, test_tool_grid_closed_every_size);
	tcase_add_test(tool, test_tool_graph_and_navmesh_closed);
	suite_add_tcase(s, tool);
	return s;
}

int main(void)
{
	return twz_test_run_suite(world_suite());
}
