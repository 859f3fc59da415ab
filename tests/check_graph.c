/*
 * check_graph.c - the graph core and the per-source search, checked
 * against a plain Dijkstra (test_support.c) on every pair of small
 * generated levels, then the baked database on the same pairs.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "first_moves.h"
#include "graph.h"
#include "test_support.h"
#include "twigz.h"
#include "twz_format.h"

static int cost_finite(struct twz_cost c)
{
	return !twz_test_cost_eq(c, twz_test_unreachable);
}

/* ---- a level with every pair's distance ---------------------------- */

struct level {
	struct twz_grid g;
	unsigned connectivity;
	size_t cells;
	struct twz_cost *dist;  /* [cells][cells]: from row cell to column */
	uint8_t *legal;         /* [cells]: bit m when move m is legal */
	char name[96];
};

static void level_oracle(struct level *lv)
{
	lv->cells = (size_t)lv->g.width * lv->g.height;
	lv->dist = malloc(lv->cells * lv->cells * sizeof *lv->dist);
	lv->legal = calloc(lv->cells, 1);
	ck_assert_ptr_nonnull(lv->dist);
	ck_assert_ptr_nonnull(lv->legal);
	for (size_t c = 0; c < lv->cells; c++)
		for (unsigned m = 0; m < lv->connectivity; m++)
			if (twz_test_move_legal(&lv->g, lv->connectivity,
						(uint32_t)(c % lv->g.width),
						(uint32_t)(c / lv->g.width), m))
				lv->legal[c] |= (uint8_t)(1u << m);
	for (size_t c = 0; c < lv->cells; c++)
		twz_test_dijkstra(&lv->g, lv->connectivity, (uint32_t)(c % lv->g.width),
				  (uint32_t)(c / lv->g.width), lv->dist + c * lv->cells);
}

static void level_generate(struct level *lv, enum twz_test_level_kind kind,
			   uint32_t w, uint32_t h, uint64_t seed,
			   unsigned connectivity)
{
	memset(lv, 0, sizeof *lv);
	twz_test_generate(&lv->g, kind, w, h, seed);
	lv->connectivity = connectivity;
	snprintf(lv->name, sizeof lv->name, "%s %ux%u seed %llu, %u-connected",
		 twz_test_kind_name(kind), w, h, (unsigned long long)seed,
		 connectivity);
	level_oracle(lv);
}

static void level_free(struct level *lv)
{
	twz_grid_free(&lv->g);
	free(lv->dist);
	free(lv->legal);
	lv->dist = NULL;
	lv->legal = NULL;
}

static struct twz_cost dist(const struct level *lv, size_t from, size_t to)
{
	return lv->dist[from * lv->cells + to];
}

/* The moves m legal from cell s with w(m) + d(n_m, t) == d(s, t), as bits;
 * d(n_m, t) is read from the search from t (the graph is undirected). */
static unsigned optimal_moves(const struct level *lv, size_t s, size_t t)
{
	struct twz_cost best = dist(lv, s, t);
	uint32_t x = (uint32_t)(s % lv->g.width), y = (uint32_t)(s / lv->g.width);
	unsigned mask = 0;

	if (s == t || !cost_finite(best))
		return 0;
	for (unsigned m = 0; m < lv->connectivity; m++) {
		if (!(lv->legal[s] >> m & 1))
			continue;
		size_t n = (size_t)(y + twz_test_move_dy(m)) * lv->g.width +
			   (x + twz_test_move_dx(m));
		struct twz_cost rest = dist(lv, t, n);
		if (cost_finite(rest) &&
		    twz_test_cost_eq(twz_test_cost_add_move(rest, m), best))
			mask |= 1u << m;
	}
	return mask;
}

/* The move that takes cell a to cell b, or -1 when none is legal. */
static int move_between(const struct level *lv, size_t a, size_t b)
{
	/* Moves by (dy+1)*3 + (dx+1); -1 for no move. */
	static const int8_t by_delta[9] = { 7, 0, 4, 3, -1, 1, 6, 2, 5 };
	int64_t dx = (int64_t)(b % lv->g.width) - (int64_t)(a % lv->g.width);
	int64_t dy = (int64_t)(b / lv->g.width) - (int64_t)(a / lv->g.width);

	if (dx < -1 || dx > 1 || dy < -1 || dy > 1)
		return -1;
	int m = by_delta[(dy + 1) * 3 + (dx + 1)];
	return m >= 0 && (lv->legal[a] >> m & 1) ? m : -1;
}

/* The sizes and seeds every kind is checked on. */
static const uint32_t level_sizes[][2] = { { 12, 9 }, { 23, 17 }, { 40, 30 } };
static const uint64_t level_seeds[] = { 1, 2, 3 };
#define SIZE_COUNT (sizeof level_sizes / sizeof level_sizes[0])
#define SEED_COUNT (sizeof level_seeds / sizeof level_seeds[0])

/* Loop tests run once per (kind, connectivity). */
static enum twz_test_level_kind loop_kind(int i)
{
	return (enum twz_test_level_kind)(i / 2);
}

static unsigned loop_connectivity(int i)
{
	return i % 2 ? 4 : 8;
}

/* ---- Moves ------------------------------------------------------------ */

START_TEST(test_graph_move_table)
{
	/* N E S W, NE SE SW NW with y growing downward. */
	static const int dx[8] = { 0, 1, 0, -1, 1, 1, -1, -1 };
	static const int dy[8] = { -1, 0, 1, 0, -1, 1, 1, -1 };

	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
		ck_assert_int_eq(twz_move_dx[m], dx[m]);
		ck_assert_int_eq(twz_move_dy[m], dy[m]);
		ck_assert_int_eq(twz_move_is_diagonal(m), m >= 4);
	}
	for (unsigned m = 4; m < TWZ_MOVE_COUNT; m++) {
		unsigned sx = twz_diagonal_side_x(m), sy = twz_diagonal_side_y(m);
		ck_assert_int_eq(twz_move_dx[sx], dx[m]);
		ck_assert_int_eq(twz_move_dy[sx], 0);
		ck_assert_int_eq(twz_move_dx[sy], 0);
		ck_assert_int_eq(twz_move_dy[sy], dy[m]);
	}
}
END_TEST

START_TEST(test_graph_corner_cutting_refused)
{
	struct twz_grid g;
	struct twz_graph gr;
	struct twz_error err;

	/* (0,0) and (1,1) touch by a corner beside the wall at (1,0). */
	twz_test_grid_from_text(&g, ".@\n..\n");
	ck_assert(!twz_grid_move_legal(&g, 0, 0, 5));   /* SE from (0,0) */
	ck_assert(!twz_grid_move_legal(&g, 1, 1, 7));   /* NW back */
	ck_assert(twz_grid_move_legal(&g, 0, 0, 2));    /* S */
	ck_assert(twz_grid_move_legal(&g, 0, 1, 1));    /* E */
	ck_assert(!twz_grid_move_legal(&g, 0, 1, 4));   /* NE into the wall */
	ck_assert(!twz_test_move_legal(&g, 8, 0, 0, 5));
	ck_assert(!twz_test_move_legal(&g, 8, 1, 1, 7));

	ck_assert_int_eq(twz_graph_build(&g, 8, &gr, &err), 0);
	ck_assert_uint_eq(gr.node_count, 3);
	ck_assert_uint_eq(gr.component_count, 1);
	uint32_t a = gr.cell_node[0], b = gr.cell_node[3];
	ck_assert_uint_eq(gr.neighbour[(size_t)a * 8 + 5], TWZ_NODE_NONE);
	ck_assert_uint_eq(gr.neighbour[(size_t)b * 8 + 7], TWZ_NODE_NONE);
	twz_graph_free(&gr);
	twz_grid_free(&g);

	/* Both sides blocked: two cells touching only by a corner are two
	 * regions, both ways round. */
	twz_test_grid_from_text(&g, ".@\n@.\n");
	ck_assert(!twz_grid_move_legal(&g, 0, 0, 5));
	ck_assert(!twz_grid_move_legal(&g, 1, 1, 7));
	ck_assert_int_eq(twz_graph_build(&g, 8, &gr, &err), 0);
	ck_assert_uint_eq(gr.node_count, 2);
	ck_assert_uint_eq(gr.component_count, 2);
	twz_graph_free(&gr);
	twz_grid_free(&g);

	twz_test_grid_from_text(&g, "@.\n.@\n");
	ck_assert(!twz_grid_move_legal(&g, 1, 0, 6));   /* SW */
	ck_assert(!twz_grid_move_legal(&g, 0, 1, 4));   /* NE */
	ck_assert_int_eq(twz_graph_build(&g, 8, &gr, &err), 0);
	ck_assert_uint_eq(gr.component_count, 2);
	twz_graph_free(&gr);
	twz_grid_free(&g);

	/* All four cells open: every diagonal of the square is legal. */
	twz_test_grid_from_text(&g, "..\n..\n");
	ck_assert(twz_grid_move_legal(&g, 0, 0, 5));
	ck_assert(twz_grid_move_legal(&g, 1, 1, 7));
	ck_assert(twz_grid_move_legal(&g, 1, 0, 6));
	ck_assert(twz_grid_move_legal(&g, 0, 1, 4));
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_graph_four_connected_has_no_diagonals)
{
	struct twz_grid g;
	struct twz_graph gr;
	struct twz_error err;

	twz_test_grid_from_text(&g, "...\n...\n...\n");
	ck_assert_int_eq(twz_graph_build(&g, 4, &gr, &err), 0);
	ck_assert_uint_eq(gr.node_count, 9);
	ck_assert_uint_eq(gr.connectivity, 4);
	for (uint32_t v = 0; v < gr.node_count; v++)
		for (unsigned m = 4; m < TWZ_MOVE_COUNT; m++)
			ck_assert_uint_eq(gr.neighbour[(size_t)v * 8 + m], TWZ_NODE_NONE);
	/* The centre still has its four straight neighbours. */
	uint32_t c = gr.cell_node[4];
	for (unsigned m = 0; m < 4; m++)
		ck_assert_uint_ne(gr.neighbour[(size_t)c * 8 + m], TWZ_NODE_NONE);
	twz_graph_free(&gr);

	/* A checkerboard is connected 8-ways... not at all: the corner rule
	 * leaves every cell alone, 4- or 8-connected. */
	twz_grid_free(&g);
	twz_test_grid_from_text(&g, ".@.\n@.@\n.@.\n");
	ck_assert_int_eq(twz_graph_build(&g, 4, &gr, &err), 0);
	ck_assert_uint_eq(gr.component_count, 5);
	twz_graph_free(&gr);
	ck_assert_int_eq(twz_graph_build(&g, 8, &gr, &err), 0);
	ck_assert_uint_eq(gr.component_count, 5);
	twz_graph_free(&gr);
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_graph_borders_refused)
{
	struct twz_grid g;

	twz_test_grid_from_text(&g, "....\n....\n....\n");
	for (uint32_t y = 0; y < g.height; y++)
		for (uint32_t x = 0; x < g.width; x++)
			for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
				int64_t nx = (int64_t)x + twz_move_dx[m];
				int64_t ny = (int64_t)y + twz_move_dy[m];
				int inside = nx >= 0 && ny >= 0 && nx < g.width &&
					     ny < g.height;
				ck_assert_int_eq(twz_grid_move_legal(&g, x, y, m), inside);
			}
	/* Far off the grid: refused, no wrap-around. */
	ck_assert(!twz_grid_move_legal(&g, UINT32_MAX, 0, 1));
	ck_assert(!twz_grid_move_legal(&g, 0, UINT32_MAX, 2));
	ck_assert(!twz_grid_move_legal(&g, g.width, 0, 3));
	ck_assert(!twz_grid_move_legal(&g, 0, g.height, 0));
	twz_grid_free(&g);

	/* One cell: no move at all. */
	twz_test_grid_from_text(&g, ".");
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		ck_assert(!twz_grid_move_legal(&g, 0, 0, m));
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_graph_moves_match_rule)
{
	enum twz_test_level_kind kind = loop_kind(_i);
	unsigned conn = loop_connectivity(_i);

	for (size_t si = 0; si < SEED_COUNT; si++) {
		struct twz_grid g;
		struct twz_graph gr;
		struct twz_error err;

		twz_test_generate(&g, kind, 40, 30, level_seeds[si]);
		ck_assert_int_eq(twz_graph_build(&g, conn, &gr, &err), 0);
		for (uint32_t y = 0; y < g.height; y++)
			for (uint32_t x = 0; x < g.width; x++) {
				uint32_t v = gr.cell_node[y * g.width + x];
				expect((v != TWZ_NODE_NONE) == g.walkable[y * g.width + x],
				       "%s: cell (%u,%u) node %u", twz_test_kind_name(kind),
				       x, y, v);
				for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
					int want = twz_test_move_legal(&g, 8, x, y, m);
					expect(twz_grid_move_legal(&g, x, y, m) == want,
					       "%s: (%u,%u) move %u legal should be %d",
					       twz_test_kind_name(kind), x, y, m, want);
					if (v == TWZ_NODE_NONE)
						continue;
					uint32_t w = gr.neighbour[(size_t)v * 8 + m];
					uint32_t want_w = TWZ_NODE_NONE;
					if (twz_test_move_legal(&g, conn, x, y, m))
						want_w = gr.cell_node[(y + twz_move_dy[m]) * g.width +
								      x + twz_move_dx[m]];
					expect(w == want_w, "%s: (%u,%u) move %u: neighbour %u, not %u",
					       twz_test_kind_name(kind), x, y, m, w, want_w);
				}
			}
		twz_graph_free(&gr);
		twz_grid_free(&g);
	}
}
END_TEST

/* ---- Numbering ----------------------------------------------------- */

START_TEST(test_graph_numbering_regions)
{
	enum twz_test_level_kind kind = loop_kind(_i);
	struct level lv;

	for (size_t zi = 0; zi < SIZE_COUNT; zi++) {
		level_generate(&lv, kind, level_sizes[zi][0], level_sizes[zi][1],
			       level_seeds[zi % SEED_COUNT], loop_connectivity(_i));
		struct twz_graph gr;
		struct twz_error err;
		ck_assert_int_eq(twz_graph_build(&lv.g, lv.connectivity, &gr, &err), 0);

		size_t walkable = 0;
		for (size_t c = 0; c < lv.cells; c++)
			walkable += lv.g.walkable[c];
		ck_assert_uint_eq(gr.node_count, walkable);
		ck_assert_uint_eq(gr.comp_first[0], 0);
		ck_assert_uint_eq(gr.comp_first[gr.component_count], gr.node_count);
		for (uint32_t v = 0; v < gr.node_count; v++) {
			uint32_t c = gr.node_cell[v], comp = gr.node_comp[v];
			expect(c < lv.cells && gr.cell_node[c] == v,
			       "%s: node %u and cell %u disagree", lv.name, v, c);
			expect(comp < gr.component_count && gr.comp_first[comp] <= v &&
			       v < gr.comp_first[comp + 1],
			       "%s: node %u outside its region %u", lv.name, v, comp);
			/* Preorder of a search: every node but a region's first
			 * is a neighbour of an earlier node of its region. */
			if (v != gr.comp_first[comp]) {
				int found = 0;
				for (unsigned m = 0; m < lv.connectivity; m++) {
					uint32_t w = gr.neighbour[(size_t)v * 8 + m];
					found |= w != TWZ_NODE_NONE && w < v;
				}
				expect(found, "%s: node %u has no earlier neighbour",
				       lv.name, v);
			}
		}
		/* Same region exactly when Dijkstra finds a path. */
		for (uint32_t s = 0; s < gr.node_count; s++)
			for (uint32_t t = 0; t < gr.node_count; t++) {
				int same = gr.node_comp[s] == gr.node_comp[t];
				int reach = cost_finite(dist(&lv, gr.node_cell[s],
							     gr.node_cell[t]));
				expect(same == reach, "%s: nodes %u and %u: same region %d, "
				       "reachable %d", lv.name, s, t, same, reach);
			}
		twz_graph_free(&gr);
		level_free(&lv);
	}
}
END_TEST

START_TEST(test_graph_bad_connectivity_refused)
{
	struct twz_grid g;
	struct twz_graph gr;
	struct twz_error err;

	twz_test_grid_from_text(&g, "..\n..\n");
	memset(&err, 0, sizeof err);
	ck_assert_int_ne(twz_graph_build(&g, 6, &gr, &err), 0);
	ck_assert_msg(strstr(err.msg, "connectivity") != NULL, "message: %s", err.msg);
	ck_assert_int_ne(twz_graph_build(&g, 0, &gr, &err), 0);
	twz_grid_free(&g);
}
END_TEST

/* ---- Costs ---------------------------------------------------------- */

/* An independent exact comparison: sign of (a.s - b.s) + (a.d - b.d)*sqrt2
 * with 128-bit squares. */
static int oracle_less(struct twz_cost a, struct twz_cost b)
{
	__int128 s = (__int128)a.straight - b.straight;
	__int128 d = (__int128)a.diagonal - b.diagonal;

	/* value = s + d*sqrt2; sign by cases. */
	if (s <= 0 && d <= 0)
		return s < 0 || d < 0;
	if (s >= 0 && d >= 0)
		return 0;
	if (s < 0)               /* d > 0: s + d*sqrt2 < 0 iff s^2 > 2 d^2 */
		return s * s > 2 * d * d;
	return s * s < 2 * d * d;  /* s > 0, d < 0 */
}

static struct twz_cost C(uint32_t s, uint32_t d)
{
	return (struct twz_cost){ s, d };
}

START_TEST(test_graph_cost_less_exact)
{
	/* Basics and equality. */
	ck_assert(twz_cost_less(C(1, 0), C(0, 1)));
	ck_assert(!twz_cost_less(C(0, 1), C(1, 0)));
	ck_assert(twz_cost_less(C(0, 1), C(2, 0)));
	ck_assert(!twz_cost_less(C(3, 4), C(3, 4)));
	ck_assert(twz_cost_less(C(3, 4), C(3, 5)));
	ck_assert(twz_cost_less(C(3, 4), C(4, 4)));
	ck_assert(!twz_cost_less(C(0, 0), C(0, 0)));

	/* Near-ties: 70*sqrt2 = 98.9949 < 99, 169*sqrt2 = 239.0021 > 239. */
	ck_assert(twz_cost_less(C(0, 70), C(99, 0)));
	ck_assert(!twz_cost_less(C(99, 0), C(0, 70)));
	ck_assert(twz_cost_less(C(239, 0), C(0, 169)));
	ck_assert(!twz_cost_less(C(0, 169), C(239, 0)));
	/* The same, shifted by common parts that cancel. */
	ck_assert(twz_cost_less(C(1000, 70 + 5), C(1099, 5)));
	ck_assert(!twz_cost_less(C(1099, 5), C(1000, 75)));

	/* Pell pairs p^2 - 2q^2 = +-1: the closest ties there are, up to
	 * sizes beyond any level (p near 2^30). */
	uint64_t p = 1, q = 1;
	while (p < (1u << 30)) {
		int p_above = (int64_t)(p * p) - (int64_t)(2 * q * q) > 0;
		ck_assert_int_eq(twz_cost_less(C(0, (uint32_t)q), C((uint32_t)p, 0)),
				 p_above);
		ck_assert_int_eq(twz_cost_less(C((uint32_t)p, 0), C(0, (uint32_t)q)),
				 !p_above);
		ck_assert_int_eq(twz_cost_less(C((uint32_t)p + 7, 3),
					       C(7, (uint32_t)q + 3)), !p_above);
		uint64_t np = p + 2 * q, nq = p + q;
		p = np;
		q = nq;
	}

	/* Random pairs, small and large, against the 128-bit oracle. Costs
	 * of real paths stay below TWZ_MAX_NODES diagonal + straight moves;
	 * check up to 2^31. */
	uint64_t state = 12345;
	for (int i = 0; i < 200000; i++) {
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t r1 = (uint32_t)(state >> 33);
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t r2 = (uint32_t)(state >> 33);
		uint32_t lim = i % 2 ? (1u << 31) - 1 : 300;
		struct twz_cost a = C(r1 % lim, (r1 >> 7) % lim);
		struct twz_cost b = C(r2 % lim, (r2 >> 7) % lim);
		expect(twz_cost_less(a, b) == oracle_less(a, b),
		       "{%u,%u} < {%u,%u}: %d", a.straight, a.diagonal, b.straight,
		       b.diagonal, twz_cost_less(a, b));
	}
}
END_TEST

/* Cost keys order costs as the oracle does, on the closest pairs there
 * are (Pell pairs, shifted) and on random ones, all with counts up to
 * 2^26; and twz_key_cost gives the cost back. */
static void expect_key_order(struct twz_cost a, struct twz_cost b)
{
	uint64_t ka = twz_cost_key(a), kb = twz_cost_key(b);
	struct twz_cost back = twz_key_cost(ka);

	expect((ka < kb) == oracle_less(a, b) && (ka == kb) ==
	       (a.straight == b.straight && a.diagonal == b.diagonal),
	       "keys of {%u,%u} and {%u,%u}: %llu, %llu", a.straight, a.diagonal,
	       b.straight, b.diagonal, (unsigned long long)ka,
	       (unsigned long long)kb);
	expect(back.straight == a.straight && back.diagonal == a.diagonal,
	       "key of {%u,%u} gives back {%u,%u}", a.straight, a.diagonal,
	       back.straight, back.diagonal);
}

START_TEST(test_graph_cost_keys_exact)
{
	const uint32_t L = TWZ_MAX_NODES;
	uint64_t p = 1, q = 1;

	/* Pell pairs p^2 - 2q^2 = +-1, apart and with the largest common
	 * parts that keep every count within L. */
	while (p <= L) {
		uint32_t pp = (uint32_t)p, qq = (uint32_t)q;
		expect_key_order(C(0, qq), C(pp, 0));
		expect_key_order(C(pp, 0), C(0, qq));
		expect_key_order(C(L - pp, L), C(L, L - qq));
		expect_key_order(C(L, L - qq), C(L - pp, L));
		uint64_t np = p + 2 * q, nq = p + q;
		p = np;
		q = nq;
	}
	ck_assert(twz_cost_key(C(0, L)) < (1ull << 56));  /* a path: a + b <= L */
	uint64_t state = 777;
	for (int i = 0; i < 200000; i++) {
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t r1 = (uint32_t)(state >> 33);
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t r2 = (uint32_t)(state >> 33);
		uint32_t lim = i % 2 ? L + 1 : 300;
		struct twz_cost a = C(r1 % lim, (r1 >> 5) % lim);
		struct twz_cost b = C(r2 % lim, (r2 >> 5) % lim);
		expect_key_order(a, b);
		/* Differences: a - b against b - a, and against a's and b's
		 * parts swapped, equal as keys only when equal as pairs. */
		uint64_t d1 = twz_cost_key(a) - twz_cost_key(b);
		uint64_t d2 = twz_cost_key(C(a.straight, b.diagonal)) -
			      twz_cost_key(C(b.straight, a.diagonal));
		int same = a.diagonal == b.diagonal;
		expect((d1 == d2) == same, "differences of {%u,%u} and {%u,%u}",
		       a.straight, a.diagonal, b.straight, b.diagonal);
	}
}
END_TEST

/* ---- Search --------------------------------------------------------- */

/* The search from every source of a level against Dijkstra. */
static void check_search_level(const struct level *lv)
{
	struct twz_graph gr;
	struct twz_search ws;
	struct twz_error err;

	ck_assert_msg(twz_graph_build(&lv->g, lv->connectivity, &gr, &err) == 0,
		      "%s: %s", lv->name, err.msg);
	ck_assert_int_eq(twz_search_init(&ws, &gr), 0);
	for (uint32_t s = 0; s < gr.node_count; s++) {
		ck_assert_int_eq(twz_search_run(&ws, s), 0);
		uint32_t sc = gr.node_cell[s];
		uint32_t comp = gr.node_comp[s];
		for (uint32_t t = gr.comp_first[comp]; t < gr.comp_first[comp + 1]; t++) {
			uint32_t tc = gr.node_cell[t];
			struct twz_cost want = dist(lv, sc, tc);
			unsigned mask = optimal_moves(lv, sc, tc);
			struct twz_cost got = twz_key_cost(twz_search_key(&ws, t));
			expect(twz_test_cost_eq(got, want),
			       "%s: (%u,%u) -> (%u,%u): cost {%u,%u}, Dijkstra {%u,%u}",
			       lv->name, sc % lv->g.width, sc / lv->g.width,
			       tc % lv->g.width, tc / lv->g.width, got.straight,
			       got.diagonal, want.straight, want.diagonal);
			expect(ws.moves[t] == mask,
			       "%s: (%u,%u) -> (%u,%u): first moves 0x%02x, optimal 0x%02x",
			       lv->name, sc % lv->g.width, sc / lv->g.width,
			       tc % lv->g.width, tc / lv->g.width, ws.moves[t], mask);
			expect(t == s || mask != 0, "%s: no optimal move", lv->name);
		}
	}
	twz_search_free(&ws);
	twz_graph_free(&gr);
}

START_TEST(test_graph_search_matches_dijkstra)
{
	enum twz_test_level_kind kind = loop_kind(_i);
	struct level lv;

	for (size_t zi = 0; zi < SIZE_COUNT; zi++)
		for (size_t si = 0; si < SEED_COUNT; si++) {
			level_generate(&lv, kind, level_sizes[zi][0], level_sizes[zi][1],
				       level_seeds[si], loop_connectivity(_i));
			check_search_level(&lv);
			level_free(&lv);
		}
}
END_TEST

/* A hand-made level whose tied first moves are known: on open ground from
 * (0,0) to (2,1), E then SE and SE then E cost the same; around a block,
 * both sides tie. */
START_TEST(test_graph_search_keeps_all_ties)
{
	struct level lv;

	memset(&lv, 0, sizeof lv);
	twz_test_grid_from_text(&lv.g,
				".....\n"
				".....\n"
				"..@..\n"
				".....\n"
				".....\n");
	lv.connectivity = 8;
	snprintf(lv.name, sizeof lv.name, "open 5x5 with a block");
	level_oracle(&lv);
	/* (0,0) -> (2,1): E or SE. */
	ck_assert_uint_eq(optimal_moves(&lv, 0, 7), 1u << 1 | 1u << 5);
	/* (2,1) -> (2,3) around the block at (2,2): the corner rule refuses
	 * SW and SE, so E or W, then S and a diagonal back: 2 + sqrt2. */
	ck_assert_uint_eq(optimal_moves(&lv, 7, 17), 1u << 1 | 1u << 3);
	/* (0,2) -> (4,2) past the block: NE or SE (E costs 3 to reach
	 * (2,1), not 1 + sqrt2). */
	ck_assert_uint_eq(optimal_moves(&lv, 10, 14), 1u << 4 | 1u << 5);
	check_search_level(&lv);
	level_free(&lv);
}
END_TEST

/* ---- Database --------------------------------------------------------- */

/* Every pair of a level through the runtime API of a baked database. */
static void check_database(const struct level *lv, const twz_db *db)
{
	twz_info info;
	uint32_t n = twz_node_count(db);
	size_t walkable = 0;

	ck_assert_int_eq(twz_get_info(db, &info), TWZ_OK);
	ck_assert_uint_eq(info.width, lv->g.width);
	ck_assert_uint_eq(info.height, lv->g.height);
	ck_assert_uint_eq(info.connectivity, lv->connectivity);
	for (size_t c = 0; c < lv->cells; c++)
		walkable += lv->g.walkable[c];
	ck_assert_uint_eq(n, walkable);

	uint32_t *cell = malloc((n ? n : 1) * sizeof *cell);
	twz_node *path = malloc((n ? n : 1) * sizeof *path);
	twz_node *flow = malloc((n ? n : 1) * sizeof *flow);
	ck_assert_ptr_nonnull(cell);
	ck_assert_ptr_nonnull(path);
	ck_assert_ptr_nonnull(flow);
	memset(cell, 0xFF, (n ? n : 1) * sizeof *cell);

	/* Cells and nodes map one to one (n == walkable cells). */
	for (uint32_t y = 0; y < lv->g.height; y++)
		for (uint32_t x = 0; x < lv->g.width; x++) {
			twz_node v = twz_node_at(db, x, y);
			int open = lv->g.walkable[(size_t)y * lv->g.width + x];
			expect((v != TWZ_NONE) == open, "%s: (%u,%u) node %u",
			       lv->name, x, y, v);
			if (v == TWZ_NONE)
				continue;
			uint32_t vx, vy;
			expect(v < n && cell[v] == UINT32_MAX &&
			       twz_node_xy(db, v, &vx, &vy) == TWZ_OK &&
			       vx == x && vy == y, "%s: node %u is not (%u,%u)",
			       lv->name, v, x, y);
			cell[v] = y * lv->g.width + x;
		}

	for (twz_node t = 0; t < n; t++) {
		/* The costs walk the same way as the path, whose cost is
		 * checked for every pair: a quarter of the targets is enough
		 * for them and for the flow field. */
		int sample = t % 4 == 0;
		if (sample)
			ck_assert_int_eq(twz_flow_field(db, t, flow, n), TWZ_OK);
		for (twz_node s = 0; s < n; s++) {
			size_t sc = cell[s], tc = cell[t];
			struct twz_cost want = dist(lv, sc, tc);
			twz_node next = twz_next(db, s, t);
			size_t len = 12345;
			twz_status st = twz_path(db, s, t, path, n, &len);
			uint32_t cs = 0, cd = 0;
			twz_status cst = TWZ_OK;
			double cv = 0;
			if (sample) {
				cst = twz_cost_exact(db, s, t, &cs, &cd);
				cv = twz_cost(db, s, t);
			}

			expect(!sample || flow[s] == next, "%s: flow field %u != next %u",
			       lv->name, flow[s], next);
			if (!cost_finite(want)) {
				expect(next == TWZ_NONE && st == TWZ_E_UNREACHABLE &&
				       len == 0 && (!sample || (cst == TWZ_E_UNREACHABLE &&
								isinf(cv))),
				       "%s: unreachable node %u -> %u answered next %u, "
				       "path %d (len %zu), cost %d", lv->name, s, t, next,
				       st, len, cst);
				continue;
			}
			if (s == t) {
				expect(next == t && st == TWZ_OK && len == 1 &&
				       path[0] == s && cst == TWZ_OK && cs == 0 && cd == 0 &&
				       cv == 0.0, "%s: node %u to itself", lv->name, s);
				continue;
			}
			/* next is one of the optimal first moves */
			unsigned mask = optimal_moves(lv, sc, tc);
			int m = next < n ? move_between(lv, sc, cell[next]) : -1;
			expect(m >= 0 && (mask >> m & 1),
			       "%s: (%zu,%zu) -> (%zu,%zu): next %u (move %d) not in "
			       "optimal set 0x%02x", lv->name, sc % lv->g.width,
			       sc / lv->g.width, tc % lv->g.width, tc / lv->g.width,
			       next, m, mask);
			/* the path: legal moves from s to t, exact optimal cost */
			expect(st == TWZ_OK && len >= 2 && len <= n && path[0] == s &&
			       path[len - 1] == t, "%s: path %u -> %u: status %d, "
			       "len %zu", lv->name, s, t, st, len);
			struct twz_cost walked = { 0, 0 };
			for (size_t i = 1; i < len; i++) {
				expect(path[i] < n, "%s: bad node in path", lv->name);
				int pm = move_between(lv, cell[path[i - 1]], cell[path[i]]);
				expect(pm >= 0, "%s: path %u -> %u: step %zu is no legal "
				       "move", lv->name, s, t, i);
				walked = twz_test_cost_add_move(walked, (unsigned)pm);
			}
			expect(twz_test_cost_eq(walked, want),
			       "%s: path %u -> %u costs {%u,%u}, optimal {%u,%u}",
			       lv->name, s, t, walked.straight, walked.diagonal,
			       want.straight, want.diagonal);
			expect(!sample || (cst == TWZ_OK && cs == want.straight &&
					   cd == want.diagonal),
			       "%s: cost_exact %u -> %u: {%u,%u}, optimal {%u,%u}",
			       lv->name, s, t, cs, cd, want.straight, want.diagonal);
			expect(!sample || fabs(cv - twz_cost_value(want)) < 1e-9,
			       "%s: cost %u -> %u: %f", lv->name, s, t, cv);
		}
	}
	free(cell);
	free(path);
	free(flow);
}

static void check_database_level(const struct level *lv, unsigned codec,
				 unsigned threads, unsigned layout)
{
	size_t len;
	uint8_t *buf = twz_test_bake_layout(&lv->g, lv->connectivity, codec,
					    threads, layout, &len);
	twz_db *db = NULL;

	ck_assert_int_eq(twz_open_memory(buf, len, 0, &db), TWZ_OK);
	check_database(lv, db);
	twz_close(db);
	free(buf);
}

START_TEST(test_graph_database_answers_every_pair)
{
	enum twz_test_level_kind kind = loop_kind(_i);
	struct level lv;

	/* Two seeds of the smaller sizes, one of the largest: every pair
	 * walks a whole path, so the largest size dominates the time. The
	 * second seed is baked as format 1.1 (u32 cells), the rest as the
	 * default. */
	for (size_t zi = 0; zi < SIZE_COUNT; zi++)
		for (size_t si = 0; si < (zi + 1 < SIZE_COUNT ? 2 : 1); si++) {
			level_generate(&lv, kind, level_sizes[zi][0], level_sizes[zi][1],
				       level_seeds[si], loop_connectivity(_i));
			check_database_level(&lv, TWZ_CODEC_ZSTD, 1,
					     si ? TWZ_LAYOUT_BUCKETED : 0);
			level_free(&lv);
		}
}
END_TEST

START_TEST(test_graph_database_threads_identical)
{
	enum twz_test_level_kind kind = loop_kind(_i);
	struct twz_grid g;

	for (size_t si = 0; si < SEED_COUNT; si++) {
		twz_test_generate(&g, kind, 40, 30, level_seeds[si]);
		size_t len1, len2, len3;
		uint8_t *b1 = twz_test_bake(&g, loop_connectivity(_i), TWZ_CODEC_ZSTD, 1, &len1);
		uint8_t *b2 = twz_test_bake(&g, loop_connectivity(_i), TWZ_CODEC_ZSTD, 2, &len2);
		uint8_t *b3 = twz_test_bake(&g, loop_connectivity(_i), TWZ_CODEC_ZSTD, 3, &len3);
		ck_assert_uint_eq(len1, len2);
		ck_assert_uint_eq(len1, len3);
		ck_assert_msg(memcmp(b1, b2, len1) == 0, "%s seed %llu: threads 1 and 2 "
			      "differ", twz_test_kind_name(kind),
			      (unsigned long long)level_seeds[si]);
		ck_assert_msg(memcmp(b1, b3, len1) == 0, "threads 1 and 3 differ");
		free(b1);
		free(b2);
		free(b3);
		twz_grid_free(&g);
	}
}
END_TEST

START_TEST(test_graph_database_codecs_agree)
{
	enum twz_test_level_kind kind = loop_kind(_i);
	struct level lv;

	level_generate(&lv, kind, 40, 30, 7, loop_connectivity(_i));
	size_t zlen, rlen;
	uint8_t *zbuf = twz_test_bake(&lv.g, lv.connectivity, TWZ_CODEC_ZSTD, 2, &zlen);
	uint8_t *rbuf = twz_test_bake(&lv.g, lv.connectivity, TWZ_CODEC_RAW, 2, &rlen);
	twz_db *zdb = NULL, *rdb = NULL;
	twz_info zi, ri;

	ck_assert_int_eq(twz_open_memory(zbuf, zlen, 0, &zdb), TWZ_OK);
	ck_assert_int_eq(twz_open_memory(rbuf, rlen, 0, &rdb), TWZ_OK);
	ck_assert_int_eq(twz_get_info(zdb, &zi), TWZ_OK);
	ck_assert_int_eq(twz_get_info(rdb, &ri), TWZ_OK);
	ck_assert_uint_eq(zi.build_codec, TWZ_CODEC_ZSTD);
	ck_assert_uint_eq(ri.build_codec, TWZ_CODEC_RAW);
	ck_assert_uint_eq(zi.node_count, ri.node_count);
	ck_assert_uint_eq(zi.run_count, ri.run_count);
	for (twz_node s = 0; s < zi.node_count; s++)
		for (twz_node t = 0; t < zi.node_count; t++)
			expect(twz_next(zdb, s, t) == twz_next(rdb, s, t),
			       "%s: next %u -> %u differs between codecs", lv.name, s, t);
	twz_close(zdb);
	twz_close(rdb);
	free(zbuf);
	free(rbuf);
	level_free(&lv);

	/* A raw file answers every pair right on its own too. */
	level_generate(&lv, kind, 23, 17, 7, loop_connectivity(_i));
	check_database_level(&lv, TWZ_CODEC_RAW, 2, 0);
	level_free(&lv);
}
END_TEST

static Suite *twz_graph_suite(void)
{
	Suite *s = suite_create("graph");
	TCase *tc;
	int loops = 2 * TWZ_TEST_KIND_COUNT;

	tc = tcase_create("Moves");
	tcase_add_test(tc, test_graph_move_table);
	tcase_add_test(tc, test_graph_corner_cutting_refused);
	tcase_add_test(tc, test_graph_four_connected_has_no_diagonals);
	tcase_add_test(tc, test_graph_borders_refused);
	tcase_add_loop_test(tc, test_graph_moves_match_rule, 0, loops);
	suite_add_tcase(s, tc);

	tc = tcase_create("Numbering");
	tcase_add_loop_test(tc, test_graph_numbering_regions, 0, loops);
	tcase_add_test(tc, test_graph_bad_connectivity_refused);
	suite_add_tcase(s, tc);

	tc = tcase_create("Costs");
	tcase_add_test(tc, test_graph_cost_less_exact);
	tcase_add_test(tc, test_graph_cost_keys_exact);
	suite_add_tcase(s, tc);

	tc = tcase_create("Search");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_graph_search_keeps_all_ties);
	tcase_add_loop_test(tc, test_graph_search_matches_dijkstra, 0, loops);
	suite_add_tcase(s, tc);

	tc = tcase_create("Database");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_graph_database_answers_every_pair, 0, loops);
	tcase_add_loop_test(tc, test_graph_database_threads_identical, 0, loops);
	tcase_add_loop_test(tc, test_graph_database_codecs_agree, 0, loops);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_graph_suite());
}
