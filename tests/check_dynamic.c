/*
 * check_dynamic.c - levels that change at run time: twz_path_closed
 * (paths around closed cells) and twz_flow_field_live (flow fields
 * searched on the level as it is now), CPD and TRANSIT, 8- and
 * 4-connected. Every answer is compared with a plain Dijkstra on the
 * changed grid (the closed cells made walls), for random sets of closed
 * cells, cells closed on the static path, closed starts and goals and a
 * level cut in two; live flow fields on the static level are checked
 * against the database's exact costs. A Moving AI level is checked too
 * when the benchmark levels are here.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test_support.h"
#include "transit.h"
#include "twigz.h"

/* ---- a baked level and its closed cells ---------------------------------- */

struct level {
	struct twz_grid grid;
	unsigned connectivity;
	uint8_t *buf;
	size_t len;
	twz_db *db;
	twz_scratch *scratch;
	uint32_t nodes;
	struct twz_grid changed;  /* grid with the closed cells as walls */
	uint8_t *bits;            /* the closed nodes */
	uint8_t *cell_closed;     /* [cells] */
	struct twz_cost *dist;    /* [cells], Dijkstra on changed */
};

enum method { CPD, TRANSIT };

static void level_open(struct level *lv, enum method method,
		       unsigned connectivity)
{
	lv->connectivity = connectivity;
	if (method == CPD) {
		lv->buf = twz_test_bake(&lv->grid, connectivity, TWZ_CODEC_RAW, 1,
					&lv->len);
	} else {
		struct twz_bake_options opt;
		struct twz_transit_options topt = { 6, 1, 2 };
		struct twz_transit_db tdb;
		struct twz_error err;

		twz_bake_options_default(&opt);
		opt.connectivity = connectivity;
		opt.codec = TWZ_CODEC_RAW;
		opt.threads = 1;
		opt.name = "test level";
		memset(&err, 0, sizeof err);
		ck_assert_msg(twz_bake_transit(&lv->grid, &opt, &topt, &tdb,
					       &err) == 0, "bake: %s", err.msg);
		ck_assert_msg(twz_transit_encode(&tdb, &lv->grid, &opt, &lv->buf,
						 &lv->len, &err) == 0,
			      "encode: %s", err.msg);
		twz_transit_db_free(&tdb);
	}
	ck_assert_int_eq(twz_open_memory(lv->buf, lv->len, 0, &lv->db), TWZ_OK);
	ck_assert_int_eq(twz_scratch_create(lv->db, &lv->scratch), TWZ_OK);
	lv->nodes = twz_node_count(lv->db);
	size_t cells = (size_t)lv->grid.width * lv->grid.height;
	lv->changed = lv->grid;
	lv->changed.walkable = malloc(cells);
	lv->bits = calloc(TWZ_CLOSED_BYTES(lv->nodes) + 1, 1);
	lv->cell_closed = calloc(cells, 1);
	lv->dist = malloc(cells * sizeof *lv->dist);
	ck_assert(lv->changed.walkable && lv->bits && lv->cell_closed && lv->dist);
	memcpy(lv->changed.walkable, lv->grid.walkable, cells);
}

static void level_close(struct level *lv)
{
	twz_scratch_free(lv->scratch);
	twz_close(lv->db);
	free(lv->buf);
	free(lv->changed.walkable);
	free(lv->bits);
	free(lv->cell_closed);
	free(lv->dist);
	twz_grid_free(&lv->grid);
}

static void close_none(struct level *lv)
{
	size_t cells = (size_t)lv->grid.width * lv->grid.height;

	memset(lv->bits, 0, TWZ_CLOSED_BYTES(lv->nodes));
	memset(lv->cell_closed, 0, cells);
	memcpy(lv->changed.walkable, lv->grid.walkable, cells);
}

static void close_cell(struct level *lv, uint32_t x, uint32_t y)
{
	twz_node n = twz_node_at(lv->db, x, y);

	if (n == TWZ_NONE)
		return;
	lv->bits[n >> 3] |= (uint8_t)(1u << (n & 7));
	lv->cell_closed[(size_t)y * lv->grid.width + x] = 1;
	lv->changed.walkable[(size_t)y * lv->grid.width + x] = 0;
}

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Close about permille / 1000 of the walkable cells. */
static void close_random(struct level *lv, unsigned permille, uint64_t *rng)
{
	for (uint32_t y = 0; y < lv->grid.height; y++)
		for (uint32_t x = 0; x < lv->grid.width; x++)
			if (rng_next(rng) % 1000 < permille)
				close_cell(lv, x, y);
}

static twz_node random_node(struct level *lv, uint64_t *rng)
{
	return (twz_node)(rng_next(rng) % lv->nodes);
}

/* The callback form of the same closed cells. */
static int blocked_cb(void *ctx, twz_node n)
{
	const struct level *lv = ctx;
	uint32_t x, y;

	twz_node_xy(lv->db, n, &x, &y);
	return lv->cell_closed[(size_t)y * lv->grid.width + x];
}

/* The closed cells three ways: bits, a callback, or both halves. */
static twz_closed closed_form(struct level *lv, unsigned form)
{
	twz_closed c = { NULL, NULL, NULL };

	if (form == 0 || form == 2)
		c.bits = lv->bits;
	if (form == 1 || form == 2) {
		c.blocked = blocked_cb;
		c.ctx = lv;
	}
	return c;
}

/* ---- checking a path ---------------------------------------------------- */

static unsigned move_of(int dx, int dy)
{
	for (unsigned m = 0; m < 8; m++)
		if (twz_test_move_dx(m) == dx && twz_test_move_dy(m) == dy)
			return m;
	return 8;
}

/* twz_path_closed s -> t against Dijkstra from s on the changed grid
 * (lv->dist must hold it). Returns the moves, or -1 when unreachable. */
static long check_path(struct level *lv, const twz_closed *cl, twz_node s,
		       twz_node t, const char *what)
{
	uint32_t sx, sy, tx, ty, st = 77, dg = 77;
	size_t cap = (size_t)lv->nodes + 1, len = 99;
	twz_node *buf = malloc(cap * sizeof *buf);

	ck_assert_ptr_nonnull(buf);
	twz_node_xy(lv->db, s, &sx, &sy);
	twz_node_xy(lv->db, t, &tx, &ty);
	struct twz_cost want = lv->dist[(size_t)ty * lv->grid.width + tx];
	twz_status r = twz_path_closed(lv->db, lv->scratch, cl, s, t, buf, cap,
				       &len, &st, &dg);
	if (twz_test_cost_eq(want, twz_test_unreachable)) {
		/* A closed start or goal says so; else no path. */
		twz_status why = lv->cell_closed[(size_t)sy * lv->grid.width + sx]
					 ? TWZ_E_START_SHUT
				 : lv->cell_closed[(size_t)ty * lv->grid.width + tx]
					 ? TWZ_E_GOAL_SHUT
					 : TWZ_E_UNREACHABLE;
		expect(r == why && len == 0,
		       "%s: (%u,%u)->(%u,%u): %s (len %zu), expected %s",
		       what, sx, sy, tx, ty, twz_strerror(r), len,
		       twz_strerror(why));
		free(buf);
		return -1;
	}
	expect(r == TWZ_OK, "%s: (%u,%u)->(%u,%u): %s, expected cost %u+%u*sqrt2",
	       what, sx, sy, tx, ty, twz_strerror(r), want.straight,
	       want.diagonal);
	expect(st == want.straight && dg == want.diagonal,
	       "%s: (%u,%u)->(%u,%u): cost %u+%u*sqrt2, Dijkstra %u+%u*sqrt2",
	       what, sx, sy, tx, ty, st, dg, want.straight, want.diagonal);
	expect(len >= 1 && buf[0] == s && buf[len - 1] == t,
	       "%s: path does not run from s to t", what);
	uint32_t ns = 0, nd = 0, px = sx, py = sy;
	for (size_t i = 1; i < len; i++) {
		uint32_t x, y;
		ck_assert_int_eq(twz_node_xy(lv->db, buf[i], &x, &y), TWZ_OK);
		unsigned m = move_of((int)x - (int)px, (int)y - (int)py);
		expect(twz_test_move_legal(&lv->changed, lv->connectivity, px, py,
					   m),
		       "%s: (%u,%u)->(%u,%u): step %zu (%u,%u)->(%u,%u) is not "
		       "legal on the changed level", what, sx, sy, tx, ty, i,
		       px, py, x, y);
		if (m >= 4)
			nd++;
		else
			ns++;
		px = x;
		py = y;
	}
	expect(ns == st && nd == dg, "%s: the path's moves are not its cost",
	       what);
	free(buf);
	return (long)len - 1;
}

static void dijkstra_from(struct level *lv, twz_node s)
{
	uint32_t x, y;

	twz_node_xy(lv->db, s, &x, &y);
	twz_test_dijkstra(&lv->changed, lv->connectivity, x, y, lv->dist);
	/* A closed start reaches nothing. */
	if (!lv->changed.walkable[(size_t)y * lv->grid.width + x])
		for (size_t i = 0; i < (size_t)lv->grid.width * lv->grid.height; i++)
			lv->dist[i] = twz_test_unreachable;
}

/* ---- paths around closed cells ------------------------------------------ */

struct config {
	enum twz_test_level_kind kind;
	enum method method;
	unsigned connectivity;
};

static struct config config_of(int i)
{
	struct config c;

	c.kind = (enum twz_test_level_kind)(i % TWZ_TEST_KIND_COUNT);
	i /= TWZ_TEST_KIND_COUNT;
	c.connectivity = i % 2 ? 4 : 8;
	c.method = i / 2 ? TRANSIT : CPD;
	return c;
}

#define CONFIGS (TWZ_TEST_KIND_COUNT * 4)

static void open_config(struct level *lv, int i, char *name, size_t cap)
{
	struct config c = config_of(i);

	memset(lv, 0, sizeof *lv);
	twz_test_generate(&lv->grid, c.kind, 44, 33, 1000 + (uint64_t)i);
	level_open(lv, c.method, c.connectivity);
	snprintf(name, cap, "%s %s %u-connected", twz_test_kind_name(c.kind),
		 c.method == CPD ? "CPD" : "TRANSIT", c.connectivity);
}

START_TEST(test_closed_random_sets)
{
	static const unsigned density[] = { 0, 10, 40, 150, 350 };
	struct level lv;
	char name[96], what[160];
	uint64_t rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)_i;

	open_config(&lv, _i, name, sizeof name);
	for (unsigned d = 0; d < sizeof density / sizeof *density; d++) {
		close_none(&lv);
		close_random(&lv, density[d], &rng);
		for (unsigned k = 0; k < 12; k++) {
			twz_node s = random_node(&lv, &rng);
			dijkstra_from(&lv, s);
			/* Several goals per source; the same goal again
			 * after a change reuses the memo. */
			for (unsigned j = 0; j < 6; j++) {
				twz_node t = random_node(&lv, &rng);
				twz_closed cl = closed_form(&lv, (k + j) % 3);
				snprintf(what, sizeof what, "%s, %u per mille closed",
					 name, density[d]);
				check_path(&lv, &cl, s, t, what);
			}
		}
	}
	level_close(&lv);
}
END_TEST

/* Cells closed on the static path itself: the A* has to go round. */
START_TEST(test_closed_on_static_path)
{
	struct level lv;
	char name[96], what[160];
	uint64_t rng = 0xD1B54A32D192ED03ull ^ (uint64_t)_i;
	size_t cap;
	twz_node *path;

	open_config(&lv, _i, name, sizeof name);
	cap = (size_t)lv.nodes + 1;
	path = malloc(cap * sizeof *path);
	ck_assert_ptr_nonnull(path);
	for (unsigned k = 0; k < 60; k++) {
		twz_node s = random_node(&lv, &rng), t = random_node(&lv, &rng);
		size_t len;
		close_none(&lv);
		if (twz_path(lv.db, s, t, path, cap, &len) != TWZ_OK || len < 3)
			continue;
		/* One to three interior cells of the path. */
		unsigned count = 1 + (unsigned)(rng_next(&rng) % 3);
		for (unsigned c = 0; c < count; c++) {
			uint32_t x, y;
			twz_node n = path[1 + rng_next(&rng) % (len - 2)];
			twz_node_xy(lv.db, n, &x, &y);
			close_cell(&lv, x, y);
		}
		dijkstra_from(&lv, s);
		twz_closed cl = closed_form(&lv, k % 3);
		snprintf(what, sizeof what, "%s, closed on the path", name);
		long moves = check_path(&lv, &cl, s, t, what);
		(void)moves;
	}
	free(path);
	level_close(&lv);
}
END_TEST

/* The static path is clear: the database's path, without a search. */
START_TEST(test_closed_clear_path_is_static)
{
	struct level lv;
	char name[96];
	uint64_t rng = 0x2545F4914F6CDD1Dull ^ (uint64_t)_i;
	size_t cap;
	twz_node *a, *b;

	open_config(&lv, _i, name, sizeof name);
	cap = (size_t)lv.nodes + 1;
	a = malloc(cap * sizeof *a);
	b = malloc(cap * sizeof *b);
	ck_assert(a && b);
	for (unsigned k = 0; k < 200; k++) {
		twz_node s = random_node(&lv, &rng), t = random_node(&lv, &rng);
		size_t la = 0, lb = 0;
		twz_status ra = twz_path(lv.db, s, t, a, cap, &la);
		/* Close a cell off the path (not beside it either). */
		close_none(&lv);
		twz_node c = random_node(&lv, &rng);
		uint32_t cx, cy;
		twz_node_xy(lv.db, c, &cx, &cy);
		int near = 0;
		for (size_t i = 0; ra == TWZ_OK && i < la; i++) {
			uint32_t x, y;
			twz_node_xy(lv.db, a[i], &x, &y);
			if (x + 1 >= cx && x <= cx + 1 && y + 1 >= cy && y <= cy + 1)
				near = 1;
		}
		if (!near && ra == TWZ_OK)
			close_cell(&lv, cx, cy);
		twz_closed cl = closed_form(&lv, 0);
		twz_status rb = twz_path_closed(lv.db, lv.scratch, &cl, s, t, b, cap,
						&lb, NULL, NULL);
		expect(ra == rb, "%s: twz_path %s, twz_path_closed %s", name,
		       twz_strerror(ra), twz_strerror(rb));
		expect(la == lb && !memcmp(a, b, la * sizeof *a),
		       "%s: a clear path differs from the database's", name);
		expect(twz_scratch_expanded(lv.scratch) == 0,
		       "%s: a clear path searched", name);
	}
	free(a);
	free(b);
	level_close(&lv);
}
END_TEST

/* Closed starts and goals, and a wall of closed cells across the level. */
START_TEST(test_closed_ends_and_cut)
{
	struct level lv;
	char name[96], what[160];
	uint64_t rng = 0x94D049BB133111EBull ^ (uint64_t)_i;

	open_config(&lv, _i, name, sizeof name);
	for (unsigned k = 0; k < 30; k++) {
		twz_node s = random_node(&lv, &rng), t = random_node(&lv, &rng);
		uint32_t x, y;
		close_none(&lv);
		twz_node_xy(lv.db, k % 2 ? s : t, &x, &y);
		close_cell(&lv, x, y);
		dijkstra_from(&lv, s);
		twz_closed cl = closed_form(&lv, k % 3);
		size_t len = 5;
		twz_node one[1];
		expect(twz_path_closed(lv.db, lv.scratch, &cl, s, t, one, 1, &len,
				       NULL, NULL) ==
			       (k % 2 ? TWZ_E_START_SHUT : TWZ_E_GOAL_SHUT) &&
			       len == 0,
		       "%s: a closed %s is reachable", name,
		       k % 2 ? "start" : "goal");
		snprintf(what, sizeof what, "%s, closed end", name);
		check_path(&lv, &cl, s, t, what);
	}
	/* Close the middle column: nothing crosses it. */
	close_none(&lv);
	uint32_t mid = lv.grid.width / 2;
	for (uint32_t y = 0; y < lv.grid.height; y++)
		close_cell(&lv, mid, y);
	unsigned crossing = 0;
	for (unsigned k = 0; k < 40; k++) {
		twz_node s = random_node(&lv, &rng), t = random_node(&lv, &rng);
		uint32_t sx, sy, tx, ty;
		twz_node_xy(lv.db, s, &sx, &sy);
		twz_node_xy(lv.db, t, &tx, &ty);
		dijkstra_from(&lv, s);
		twz_closed cl = closed_form(&lv, k % 3);
		snprintf(what, sizeof what, "%s, cut in two", name);
		long moves = check_path(&lv, &cl, s, t, what);
		if ((sx < mid) != (tx < mid) && sx != mid && tx != mid) {
			expect(moves < 0, "%s: a path crosses a closed column",
			       name);
			crossing++;
		}
	}
	ck_assert_uint_gt(crossing, 0);
	level_close(&lv);
}
END_TEST

/* A path longer than the buffer: its first cap nodes and its length. */
START_TEST(test_closed_buffer_and_arguments)
{
	struct level lv, other;
	char name[96];
	uint64_t rng = 42;
	size_t cap;
	twz_node *full, small[3];

	open_config(&lv, 0, name, sizeof name);
	open_config(&other, 1, name, sizeof name);
	cap = (size_t)lv.nodes + 1;
	full = malloc(cap * sizeof *full);
	ck_assert_ptr_nonnull(full);
	close_random(&lv, 100, &rng);
	twz_closed cl = closed_form(&lv, 0);
	unsigned tried = 0;
	for (unsigned k = 0; k < 400 && tried < 20; k++) {
		twz_node s = random_node(&lv, &rng), t = random_node(&lv, &rng);
		size_t len = 0, len2 = 0;
		if (twz_path_closed(lv.db, lv.scratch, &cl, s, t, full, cap, &len,
				    NULL, NULL) != TWZ_OK || len <= 3)
			continue;
		tried++;
		ck_assert_int_eq(twz_path_closed(lv.db, lv.scratch, &cl, s, t, small,
						 3, &len2, NULL, NULL),
				 TWZ_E_BUFFER_TOO_SMALL);
		ck_assert_uint_eq(len2, len);
		ck_assert(!memcmp(small, full, sizeof small));
		ck_assert_int_eq(twz_path_closed(lv.db, lv.scratch, &cl, s, t, NULL,
						 0, &len2, NULL, NULL),
				 TWZ_E_BUFFER_TOO_SMALL);
		ck_assert_uint_eq(len2, len);
	}
	ck_assert_uint_gt(tried, 0);

	size_t len;
	twz_node buf[8];
	twz_scratch *sc = NULL;
	ck_assert_int_eq(twz_scratch_create(NULL, &sc), TWZ_E_ARGUMENT);
	ck_assert_ptr_null(sc);
	ck_assert_int_eq(twz_scratch_create(lv.db, NULL), TWZ_E_ARGUMENT);
	twz_scratch_free(NULL);
	ck_assert_uint_eq(twz_scratch_expanded(NULL), 0);
	ck_assert_int_eq(twz_path_closed(lv.db, NULL, &cl, 0, 0, buf, 8, &len,
					 NULL, NULL), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_path_closed(lv.db, other.scratch, &cl, 0, 0, buf, 8,
					 &len, NULL, NULL), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_path_closed(NULL, lv.scratch, &cl, 0, 0, buf, 8,
					 &len, NULL, NULL), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_path_closed(lv.db, lv.scratch, &cl, lv.nodes, 0,
					 buf, 8, &len, NULL, NULL), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_path_closed(lv.db, lv.scratch, &cl, 0, TWZ_NONE,
					 buf, 8, &len, NULL, NULL), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_path_closed(lv.db, lv.scratch, &cl, 0, 0, buf, 8,
					 NULL, NULL, NULL), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_path_closed(lv.db, lv.scratch, &cl, 0, 0, NULL, 8,
					 &len, NULL, NULL), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_flow_field_live(lv.db, other.scratch, NULL, 0, full,
					     cap), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_flow_field_live(lv.db, lv.scratch, NULL, lv.nodes,
					     full, cap), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_flow_field_live(lv.db, lv.scratch, NULL, 0, full,
					     lv.nodes - 1), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_flow_field_live(lv.db, lv.scratch, NULL, 0, NULL,
					     cap), TWZ_E_ARGUMENT);
	free(full);
	level_close(&other);
	level_close(&lv);
}
END_TEST

/* ---- live flow fields ----------------------------------------------------- */

/* On the static level every first move is optimal by the database's own
 * exact costs, and the unreachable nodes are twz_flow_field's. */
static void check_live_static(struct level *lv, const char *name,
			      uint64_t *rng)
{
	twz_node *live = malloc(lv->nodes * sizeof *live);
	twz_node *db = malloc(lv->nodes * sizeof *db);

	ck_assert(live && db);
	for (unsigned k = 0; k < 4; k++) {
		twz_node t = random_node(lv, rng);
		ck_assert_int_eq(twz_flow_field_live(lv->db, lv->scratch, NULL, t,
						     live, lv->nodes), TWZ_OK);
		ck_assert_int_eq(twz_flow_field(lv->db, t, db, lv->nodes), TWZ_OK);
		expect(live[t] == t, "%s: the target's entry", name);
		for (twz_node n = 0; n < lv->nodes; n++) {
			expect((live[n] == TWZ_NONE) == (db[n] == TWZ_NONE),
			       "%s: node %u: live and database disagree on "
			       "reaching %u", name, n, t);
			if (n == t || live[n] == TWZ_NONE)
				continue;
			uint32_t cs, cd, ns, nd, x0, y0, x1, y1;
			ck_assert_int_eq(twz_cost_exact(lv->db, n, t, &cs, &cd), TWZ_OK);
			ck_assert_int_eq(twz_cost_exact(lv->db, live[n], t, &ns, &nd),
					 TWZ_OK);
			twz_node_xy(lv->db, n, &x0, &y0);
			twz_node_xy(lv->db, live[n], &x1, &y1);
			unsigned m = move_of((int)x1 - (int)x0, (int)y1 - (int)y0);
			expect(twz_test_move_legal(&lv->grid, lv->connectivity, x0,
						   y0, m),
			       "%s: node %u: not a legal move", name, n);
			if (m >= 4)
				nd++;
			else
				ns++;
			expect(ns == cs && nd == cd,
			       "%s: (%u,%u): live first move to (%u,%u) is not "
			       "optimal", name, x0, y0, x1, y1);
		}
	}
	free(live);
	free(db);
}

/* With closed cells, against Dijkstra from t on the changed grid. */
static void check_live_closed(struct level *lv, const char *name,
			      unsigned permille, unsigned form, uint64_t *rng)
{
	twz_node *next = malloc(lv->nodes * sizeof *next);
	uint32_t w = lv->grid.width;

	ck_assert_ptr_nonnull(next);
	close_none(lv);
	close_random(lv, permille, rng);
	for (unsigned k = 0; k < 4; k++) {
		twz_node t = random_node(lv, rng);
		twz_closed cl = closed_form(lv, form);
		uint32_t tx, ty;
		twz_node_xy(lv->db, t, &tx, &ty);
		ck_assert_int_eq(twz_flow_field_live(lv->db, lv->scratch, &cl, t,
						     next, lv->nodes), TWZ_OK);
		/* Moves are symmetric: Dijkstra from t is the cost to t. */
		dijkstra_from(lv, t);
		for (twz_node n = 0; n < lv->nodes; n++) {
			uint32_t x0, y0, x1, y1;
			twz_node_xy(lv->db, n, &x0, &y0);
			struct twz_cost c = lv->dist[(size_t)y0 * w + x0];
			if (twz_test_cost_eq(c, twz_test_unreachable)) {
				expect(next[n] == TWZ_NONE,
				       "%s: (%u,%u) cannot reach (%u,%u), yet has "
				       "a move", name, x0, y0, tx, ty);
				continue;
			}
			if (n == t) {
				expect(next[n] == t, "%s: the target's entry", name);
				continue;
			}
			expect(next[n] != TWZ_NONE, "%s: (%u,%u) reaches (%u,%u), "
			       "yet has no move", name, x0, y0, tx, ty);
			twz_node_xy(lv->db, next[n], &x1, &y1);
			unsigned m = move_of((int)x1 - (int)x0, (int)y1 - (int)y0);
			expect(twz_test_move_legal(&lv->changed, lv->connectivity,
						   x0, y0, m),
			       "%s: (%u,%u)->(%u,%u) is not legal on the changed "
			       "level", name, x0, y0, x1, y1);
			struct twz_cost after = twz_test_cost_add_move(
				lv->dist[(size_t)y1 * w + x1], m);
			expect(twz_test_cost_eq(after, c),
			       "%s: (%u,%u): first move to (%u,%u) is not optimal "
			       "toward (%u,%u)", name, x0, y0, x1, y1, tx, ty);
		}
	}
	/* A closed target: nothing reaches it. */
	twz_node t = random_node(lv, rng);
	uint32_t tx, ty;
	twz_node_xy(lv->db, t, &tx, &ty);
	close_cell(lv, tx, ty);
	twz_closed cl = closed_form(lv, form);
	ck_assert_int_eq(twz_flow_field_live(lv->db, lv->scratch, &cl, t, next,
					     lv->nodes), TWZ_OK);
	for (twz_node n = 0; n < lv->nodes; n++)
		expect(next[n] == TWZ_NONE, "%s: a closed target is reachable",
		       name);
	free(next);
}

START_TEST(test_live_flow)
{
	struct level lv;
	char name[96];
	uint64_t rng = 0xBF58476D1CE4E5B9ull ^ (uint64_t)_i;

	open_config(&lv, _i, name, sizeof name);
	check_live_static(&lv, name, &rng);
	check_live_closed(&lv, name, 30, 0, &rng);
	check_live_closed(&lv, name, 200, 1, &rng);
	check_live_closed(&lv, name, 400, 2, &rng);
	level_close(&lv);
}
END_TEST

/* Paths and flow fields interleaved on one scratch stay right. */
START_TEST(test_scratch_interleaved)
{
	struct level lv;
	char name[96], what[160];
	uint64_t rng = 7;

	open_config(&lv, _i, name, sizeof name);
	twz_node *next = malloc(lv.nodes * sizeof *next);
	ck_assert_ptr_nonnull(next);
	close_random(&lv, 60, &rng);
	twz_closed cl = closed_form(&lv, 0);
	twz_node t = random_node(&lv, &rng);
	for (unsigned k = 0; k < 20; k++) {
		twz_node s = random_node(&lv, &rng);
		dijkstra_from(&lv, s);
		snprintf(what, sizeof what, "%s, interleaved", name);
		check_path(&lv, &cl, s, t, what);
		ck_assert_int_eq(twz_flow_field_live(lv.db, lv.scratch, &cl, t,
						     next, lv.nodes), TWZ_OK);
	}
	free(next);
	level_close(&lv);
}
END_TEST

/* ---- threads: one database, a scratch each ------------------------------- */

struct worker {
	struct level *lv;
	uint64_t seed;
	unsigned queries;
	uint64_t hash;            /* of every answer, in order */
	int failed;
};

static uint64_t answers_hash(struct level *lv, twz_scratch *sc, uint64_t seed,
			     unsigned queries, int *failed)
{
	size_t cap = (size_t)lv->nodes + 1, len;
	twz_node *buf = malloc(cap * sizeof *buf);
	twz_node *next = malloc(lv->nodes * sizeof *next);
	twz_closed cl = { lv->bits, NULL, NULL };
	uint64_t h = 1469598103934665603ull, rng = seed;

	if (!buf || !next) {
		*failed = 1;
		free(buf);
		free(next);
		return 0;
	}
	for (unsigned k = 0; k < queries; k++) {
		twz_node s = (twz_node)(rng_next(&rng) % lv->nodes);
		twz_node t = (twz_node)(rng_next(&rng) % lv->nodes);
		twz_status st = twz_path_closed(lv->db, sc, &cl, s, t, buf, cap,
						&len, NULL, NULL);
		h = (h ^ (uint64_t)st) * 1099511628211ull;
		if (st == TWZ_OK)
			h ^= twz_test_path_hash(buf, len);
		if (k % 8 == 0) {
			if (twz_flow_field_live(lv->db, sc, &cl, t, next,
						lv->nodes) != TWZ_OK)
				*failed = 1;
			h ^= twz_test_path_hash(next, lv->nodes) * 31;
		}
	}
	free(buf);
	free(next);
	return h;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	twz_scratch *sc;

	if (twz_scratch_create(w->lv->db, &sc) != TWZ_OK) {
		w->failed = 1;
		return NULL;
	}
	w->hash = answers_hash(w->lv, sc, w->seed, w->queries, &w->failed);
	twz_scratch_free(sc);
	return NULL;
}

/* Threads share the database, each with its own scratch, and answer as
 * one thread does. */
START_TEST(test_threads_share_database)
{
	struct level lv;
	char name[96];
	uint64_t rng = 5;
	struct worker w[4];
	pthread_t tid[4];

	open_config(&lv, _i, name, sizeof name);
	close_random(&lv, 50, &rng);
	for (int i = 0; i < 4; i++) {
		w[i] = (struct worker){ &lv, 1000 + (uint64_t)(i % 2), 300, 0, 0 };
		ck_assert_int_eq(pthread_create(&tid[i], NULL, worker_main, &w[i]),
				 0);
	}
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_join(tid[i], NULL), 0);
	for (int i = 0; i < 4; i++) {
		int failed = 0;
		uint64_t want = answers_hash(&lv, lv.scratch, w[i].seed,
					     w[i].queries, &failed);
		ck_assert(!w[i].failed && !failed);
		ck_assert_msg(w[i].hash == want, "%s: thread %d answered "
			      "differently", name, i);
	}
	level_close(&lv);
}
END_TEST

/* ---- a Moving AI level ---------------------------------------------------- */

START_TEST(test_movingai_closed)
{
	struct level lv;
	struct twz_scen scen;
	char scen_path[4096], what[160];
	uint64_t rng = 0x5851F42D4C957F2Dull;

	if (!twz_test_movingai_dir()) {
		printf("# movingai levels not found at %s: skipped\n",
		       twz_test_movingai_where());
		return;
	}
	memset(&lv, 0, sizeof lv);
	ck_assert_int_eq(twz_test_movingai_load("dao/arena", &lv.grid, &scen,
						scen_path, sizeof scen_path), 0);
	level_open(&lv, CPD, 8);
	static const unsigned density[] = { 5, 30, 120 };
	for (unsigned d = 0; d < 3; d++) {
		close_none(&lv);
		close_random(&lv, density[d], &rng);
		twz_closed cl = closed_form(&lv, 0);
		for (size_t i = d; i < scen.count; i += 7) {
			const struct twz_scen_entry *e = &scen.entries[i];
			twz_node s = twz_node_at(lv.db, e->sx, e->sy);
			twz_node t = twz_node_at(lv.db, e->gx, e->gy);
			ck_assert(s != TWZ_NONE && t != TWZ_NONE);
			dijkstra_from(&lv, s);
			snprintf(what, sizeof what, "arena, %u per mille closed, "
				 "scenario line %lu", density[d], e->line);
			check_path(&lv, &cl, s, t, what);
		}
		/* Closed on the path of long problems. */
		for (size_t i = scen.count - 1 - d; i > scen.count / 2; i -= 11) {
			const struct twz_scen_entry *e = &scen.entries[i];
			twz_node s = twz_node_at(lv.db, e->sx, e->sy);
			twz_node t = twz_node_at(lv.db, e->gx, e->gy);
			twz_node path[4096];
			size_t len;
			if (twz_path(lv.db, s, t, path, 4096, &len) != TWZ_OK ||
			    len < 3)
				continue;
			uint32_t x, y;
			twz_node_xy(lv.db, path[len / 2], &x, &y);
			close_cell(&lv, x, y);
			dijkstra_from(&lv, s);
			snprintf(what, sizeof what, "arena, closed on the path, "
				 "scenario line %lu", e->line);
			check_path(&lv, &cl, s, t, what);
		}
		check_live_closed(&lv, "arena", density[d], d % 3, &rng);
	}
	check_live_static(&lv, "arena", &rng);
	twz_scen_free(&scen);
	level_close(&lv);
}
END_TEST

/* ---- the tool: twigz query --closed, twigz render --closed ------------- */

/* A level, its database and a closed-cells file in a fresh directory. */
struct tool_level {
	struct level lv;
	char dir[4096];
	char db[4200];
	char closed[4200];
};

static void tool_level_open(struct tool_level *tl)
{
	memset(tl, 0, sizeof *tl);
	twz_test_generate(&tl->lv.grid, TWZ_TEST_ROOMS, 40, 30, 77);
	level_open(&tl->lv, CPD, 8);
	ck_assert_ptr_nonnull(twz_test_make_dir(tl->dir, sizeof tl->dir,
						"twz-dynamic-"));
	snprintf(tl->db, sizeof tl->db, "%s/level.twz", tl->dir);
	snprintf(tl->closed, sizeof tl->closed, "%s/closed.txt", tl->dir);
	twz_test_write_file(tl->db, tl->lv.buf, tl->lv.len);
}

static void tool_level_close(struct tool_level *tl)
{
	twz_test_remove_tree(tl->dir);
	level_close(&tl->lv);
}

static void write_text(const char *path, const char *text)
{
	twz_test_write_file(path, text, strlen(text));
}

/* The cells of a --json answer's path; their count, or -1 for "[]". */
static long json_path(const char *out, uint32_t *xy, size_t cap)
{
	const char *p = strstr(out, "\"path\":[");
	long n = 0;

	ck_assert_ptr_nonnull(p);
	p += 8;
	if (*p == ']')
		return -1;
	while (*p == '[' || *p == ',') {
		unsigned x, y;
		int used = 0;
		if (*p == ',')
			p++;
		ck_assert_int_eq(sscanf(p, "[%u,%u]%n", &x, &y, &used), 2);
		ck_assert((size_t)n < cap);
		xy[2 * n] = x;
		xy[2 * n + 1] = y;
		n++;
		p += used;
	}
	return n;
}

START_TEST(test_tool_query_closed)
{
	struct tool_level tl;
	struct level *lv = &tl.lv;
	uint64_t rng = 99;
	size_t cap;
	twz_node *path;
	unsigned done = 0;

	tool_level_open(&tl);
	cap = (size_t)lv->nodes + 1;
	path = malloc(cap * sizeof *path);
	uint32_t *xy = malloc(2 * cap * sizeof *xy);
	ck_assert(path && xy);
	for (unsigned k = 0; k < 200 && done < 6; k++) {
		twz_node s = random_node(lv, &rng), t = random_node(lv, &rng);
		size_t len;
		if (twz_path(lv->db, s, t, path, cap, &len) != TWZ_OK || len < 4)
			continue;
		uint32_t sx, sy, tx, ty, cx, cy, dx, dy;
		twz_node_xy(lv->db, s, &sx, &sy);
		twz_node_xy(lv->db, t, &tx, &ty);
		twz_node_xy(lv->db, path[len / 2], &cx, &cy);
		twz_node_xy(lv->db, path[1], &dx, &dy);
		char text[256];
		snprintf(text, sizeof text, "# doors shut now\n%u %u\n\n\t%u\t%u \r\n",
			 cx, cy, dx, dy);
		write_text(tl.closed, text);
		close_none(lv);
		close_cell(lv, cx, cy);
		close_cell(lv, dx, dy);
		dijkstra_from(lv, s);

		char a[4][16];
		snprintf(a[0], 16, "%u", sx);
		snprintf(a[1], 16, "%u", sy);
		snprintf(a[2], 16, "%u", tx);
		snprintf(a[3], 16, "%u", ty);
		const char *args[] = { "query", tl.db, a[0], a[1], a[2], a[3],
				       "--closed", tl.closed, "--json", NULL };
		struct twz_test_run r;
		twz_test_run_tool(args, NULL, 0, &r);
		ck_assert_msg(r.status == 0, "query --closed: %s", r.err);
		struct twz_cost want = lv->dist[(size_t)ty * lv->grid.width + tx];
		long n = json_path(r.out, xy, cap);
		if (twz_test_cost_eq(want, twz_test_unreachable)) {
			ck_assert_int_eq(n, -1);
			ck_assert_ptr_nonnull(strstr(r.out, "\"cost\":null"));
		} else {
			ck_assert_int_gt(n, 0);
			ck_assert(xy[0] == sx && xy[1] == sy);
			ck_assert(xy[2 * (n - 1)] == tx && xy[2 * (n - 1) + 1] == ty);
			uint32_t ns = 0, nd = 0;
			for (long i = 1; i < n; i++) {
				unsigned m = move_of((int)xy[2 * i] - (int)xy[2 * i - 2],
						     (int)xy[2 * i + 1] - (int)xy[2 * i - 1]);
				ck_assert_msg(twz_test_move_legal(&lv->changed, 8,
								  xy[2 * i - 2],
								  xy[2 * i - 1], m),
					      "query --closed: step %ld enters or cuts a "
					      "closed cell", i);
				if (m >= 4)
					nd++;
				else
					ns++;
			}
			ck_assert_uint_eq(ns, want.straight);
			ck_assert_uint_eq(nd, want.diagonal);
		}
		twz_test_run_free(&r);

		/* The start closed: an answer that says so, not an error. */
		snprintf(text, sizeof text, "%u %u\n", sx, sy);
		write_text(tl.closed, text);
		const char *args2[] = { "query", tl.db, a[0], a[1], a[2], a[3],
					"--closed", tl.closed, NULL };
		twz_test_run_tool(args2, NULL, 0, &r);
		ck_assert_int_eq(r.status, 0);
		ck_assert_ptr_nonnull(strstr(r.out, "start is shut"));
		twz_test_run_free(&r);
		const char *args3[] = { "query", tl.db, a[0], a[1], a[2], a[3],
					"--closed", tl.closed, "--json", NULL };
		twz_test_run_tool(args3, NULL, 0, &r);
		ck_assert_int_eq(r.status, 0);
		ck_assert_ptr_nonnull(strstr(r.out, "\"status\":\"start_shut\""));
		twz_test_run_free(&r);
		done++;
	}
	ck_assert_uint_gt(done, 0);
	free(path);
	free(xy);
	tool_level_close(&tl);
}
END_TEST

/* A refused closed-cells file: one line naming the file and the line. */
static void expect_refused(struct tool_level *tl, const char *text,
			   int status, const char *where, const char *what)
{
	const char *args[] = { "query", tl->db, "1", "1", "2", "2", "--closed",
			       tl->closed, NULL };
	struct twz_test_run r;
	char want[4300];

	if (text)
		write_text(tl->closed, text);
	twz_test_run_tool(args, NULL, 0, &r);
	ck_assert_msg(r.status == status, "'%s': status %d, expected %d (%s)",
		      text ? text : "(none)", r.status, status, r.err);
	snprintf(want, sizeof want, "twigz: %s%s", tl->closed, where);
	ck_assert_msg(!strncmp(r.err, want, strlen(want)), "'%s': %s",
		      text ? text : "(none)", r.err);
	ck_assert_msg(strstr(r.err, what), "'%s': %s", text ? text : "(none)",
		      r.err);
	ck_assert_msg(strchr(r.err, '\n') == r.err + r.err_len - 1,
		      "more than one line: %s", r.err);
	ck_assert_uint_eq(r.out_len, 0);
	twz_test_run_free(&r);
}

START_TEST(test_tool_closed_refused)
{
	struct tool_level tl;

	tool_level_open(&tl);
	/* (1,1) and (2,2) must be walkable for the query to get this far. */
	ck_assert(twz_node_at(tl.lv.db, 1, 1) != TWZ_NONE);
	ck_assert(twz_node_at(tl.lv.db, 2, 2) != TWZ_NONE);
	expect_refused(&tl, "3 4\n5\n", 3, ":2:", "expected a cell");
	expect_refused(&tl, "3 4 5\n", 3, ":1:", "expected a cell");
	expect_refused(&tl, "3,4\n", 3, ":1:", "expected a cell");
	expect_refused(&tl, "-3 4\n", 3, ":1:", "expected a cell");
	expect_refused(&tl, "3 4x\n", 3, ":1:", "expected a cell");
	expect_refused(&tl, "1 1\n\n40 2\n", 3, ":3:", "off the 40x30 map");
	expect_refused(&tl, "1 30\n", 3, ":1:", "off the");
	expect_refused(&tl, "99999999999 1\n", 3, ":1:", "expected a cell");
	expect_refused(&tl, "1 1\r\n2 2\r\n\r\n3", 3, ":4:", "expected a cell");
	expect_refused(&tl, "00000000000000000000000000000000000000001 1 junk\n",
		       3, ":1:", "expected a cell");
	/* A NUL byte inside a line. */
	twz_test_write_file(tl.closed, "1 1\n2\0 2\n", 9);
	expect_refused(&tl, NULL, 3, ":2:", "expected a cell");
	twz_test_remove_tree(tl.closed);
	expect_refused(&tl, NULL, 4, ": ", "cannot open");
	ck_assert_int_eq(mkdir(tl.closed, 0700), 0);
	expect_refused(&tl, NULL, 4, ": ", "not a regular file");
	twz_test_remove_tree(tl.closed);

	/* Empty, comments only, walls listed: accepted. */
	write_text(tl.closed, "");
	const char *args[] = { "query", tl.db, "1", "1", "2", "2", "--closed",
			       tl.closed, NULL };
	struct twz_test_run r;
	twz_test_run_tool(args, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);
	uint32_t wx = 0, wy = 0;
	while (twz_node_at(tl.lv.db, wx, wy) != TWZ_NONE)
		if (++wx == tl.lv.grid.width) {
			wx = 0;
			ck_assert(++wy < tl.lv.grid.height);
		}
	char text[64];
	snprintf(text, sizeof text, "# a wall\n%u %u\n", wx, wy);
	write_text(tl.closed, text);
	twz_test_run_tool(args, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);

	/* --closed without its file is a usage error. */
	const char *bare[] = { "query", tl.db, "1", "1", "2", "2", "--closed",
			       NULL };
	twz_test_run_tool(bare, NULL, 0, &r);
	ck_assert_int_eq(r.status, 2);
	twz_test_run_free(&r);
	tool_level_close(&tl);
}
END_TEST

START_TEST(test_tool_render_closed)
{
	struct tool_level tl;
	char svg[4300], text[128];
	struct twz_test_run r;

	tool_level_open(&tl);
	snprintf(svg, sizeof svg, "%s/out.svg", tl.dir);
	/* Close the first two walkable cells of row 1. */
	uint32_t cx[2], n = 0;
	for (uint32_t x = 0; x < tl.lv.grid.width && n < 2; x++)
		if (twz_node_at(tl.lv.db, x, 1) != TWZ_NONE)
			cx[n++] = x;
	ck_assert_uint_eq(n, 2);
	/* A repeat counts once. */
	snprintf(text, sizeof text, "%u 1\n%u 1\n%u 1\n", cx[0], cx[1], cx[0]);
	write_text(tl.closed, text);
	char patharg[64];
	snprintf(patharg, sizeof patharg, "%u,1,%u,1", cx[0], cx[1]);
	const char *args[] = { "render", tl.db, "-o", svg, "--closed",
			       tl.closed, "--path", patharg, "--flow",
			       patharg + strlen(patharg) - 3, NULL };
	/* the flow's target: the last cell, "X,1" */
	char target[32];
	snprintf(target, sizeof target, "%u,1", cx[1]);
	args[9] = target;
	twz_test_run_tool(args, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "render --closed: %s", r.err);
	twz_test_run_free(&r);
	size_t len;
	char *doc = (char *)twz_test_read_file(svg, &len);
	ck_assert_ptr_nonnull(strstr(doc, "#8c510a"));
	ck_assert_ptr_nonnull(strstr(doc, "closed: 2 cells"));
	/* Both ends closed: no path. */
	ck_assert_ptr_nonnull(strstr(doc, "no path"));
	free(doc);

	/* --overlay closed=FILE is the same. */
	char overlay[4300];
	snprintf(overlay, sizeof overlay, "closed=%s", tl.closed);
	const char *args2[] = { "render", tl.db, "-o", svg, "--overlay", overlay,
				NULL };
	twz_test_run_tool(args2, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "render --overlay closed=: %s", r.err);
	twz_test_run_free(&r);
	doc = (char *)twz_test_read_file(svg, &len);
	ck_assert_ptr_nonnull(strstr(doc, "closed: 2 cells"));
	free(doc);

	write_text(tl.closed, "1 1\nnot a cell\n");
	twz_test_run_tool(args, NULL, 0, &r);
	ck_assert_int_eq(r.status, 3);
	ck_assert_msg(strstr(r.err, ":2: expected a cell"), "%s", r.err);
	twz_test_run_free(&r);
	tool_level_close(&tl);
}
END_TEST

static Suite *dynamic_suite(void)
{
	Suite *s = suite_create("dynamic");
	TCase *tc;

	tc = tcase_create("Paths");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_closed_random_sets, 0, CONFIGS);
	tcase_add_loop_test(tc, test_closed_on_static_path, 0, CONFIGS);
	tcase_add_loop_test(tc, test_closed_clear_path_is_static, 0, CONFIGS);
	tcase_add_loop_test(tc, test_closed_ends_and_cut, 0, CONFIGS);
	tcase_add_test(tc, test_closed_buffer_and_arguments);
	suite_add_tcase(s, tc);

	tc = tcase_create("Flow");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_live_flow, 0, CONFIGS);
	tcase_add_loop_test(tc, test_scratch_interleaved, 0, CONFIGS);
	suite_add_tcase(s, tc);

	tc = tcase_create("Threads");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_threads_share_database, 0, CONFIGS);
	suite_add_tcase(s, tc);

	tc = tcase_create("Tool");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_tool_query_closed);
	tcase_add_test(tc, test_tool_closed_refused);
	tcase_add_test(tc, test_tool_render_closed);
	suite_add_tcase(s, tc);

	tc = tcase_create("MovingAI");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_movingai_closed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(dynamic_suite());
}
