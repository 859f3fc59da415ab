/*
 * check_transit_access.c - TRANSIT access nodes (FORMAT.md 5j): on many
 * small levels, 4- and 8-connected, open ground full of ties included,
 * the pair equation d(s, t) = min over a in Acc(s), b in Acc(t) of
 * d(s, a) + D(a, b) + d(b, t) for every far pair and the one-sided one
 * toward far transit nodes, both against a plain Dijkstra; the packed
 * 4-byte entries answering every pair as the Dijkstra does; and crafted
 * packed files (every byte of the packed sections altered and resealed)
 * refused at open or answered within bounds.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "transit.h"
#include "twigz.h"
#include "twz_format.h"
#include "twz_validate.h"

/* ---- the equation, from the bake's own arrays ------------------------- */

static struct twz_cost cost_add(struct twz_cost a, struct twz_cost b)
{
	return (struct twz_cost){ a.straight + b.straight, a.diagonal + b.diagonal };
}

/* a < b exactly (counts far below 2^26). */
static int cost_lt(struct twz_cost a, struct twz_cost b)
{
	int64_t ds = (int64_t)a.straight - b.straight;
	int64_t dd = (int64_t)b.diagonal - a.diagonal;

	if (ds < 0 && dd >= 0)
		return 1;
	if (ds >= 0 && dd <= 0)
		return 0;
	if (ds >= 0)
		return ds * ds < 2 * dd * dd;
	return ds * ds > 2 * dd * dd;
}

/* D between the access transit nodes i and j, from the bake's table. */
static struct twz_cost tdist(const struct twz_transit_db *db, uint32_t i,
			     uint32_t j)
{
	uint32_t a = db->access_old[i], b = db->access_old[j];

	if (a == b)
		return (struct twz_cost){ 0, 0 };
	if (a > b) {
		uint32_t k = a;
		a = b;
		b = k;
	}
	uint64_t m = db->transit_count;
	struct twz_tdist d = db->table[a * (2 * m - a - 1) / 2 + (b - a - 1)];
	return (struct twz_cost){ d.straight, d.diagonal };
}

static struct twz_cost acc_cost(const struct twz_access *e)
{
	return (struct twz_cost){ e->straight, e->diagonal };
}

struct counts {
	uint64_t far_pairs, toward;
};

/* Every far pair of the bake db of g, against Dijkstra from every cell
 * (dist: [cells][cells]). */
static void check_equation(const char *name, const struct twz_grid *g,
			   const struct twz_transit_db *db,
			   const struct twz_cost *dist, struct counts *ct)
{
	const struct twz_graph *tg = &db->graph;
	size_t cells = (size_t)g->width * g->height;

	ck_assert_ptr_nonnull(db->access);
	for (uint32_t s = 0; s < tg->node_count; s++) {
		const struct twz_cost *ds = dist + (size_t)tg->node_cell[s] * cells;
		/* One-sided: every access transit node b outside s's outer
		 * square, in s's region. */
		for (uint32_t b = 0; b < db->access_transits; b++) {
			uint32_t bn = db->access_node[b];
			if (tg->node_comp[bn] != tg->node_comp[s] ||
			    twz_blocks_within(tg, tg->node_block[s],
					      tg->node_block[bn], tg->outer))
				continue;
			struct twz_cost best = twz_test_unreachable;
			for (uint32_t k = db->access_first[s]; k < db->access_first[s + 1]; k++) {
				struct twz_cost c = cost_add(acc_cost(&db->access[k]),
							     tdist(db, db->access[k].transit, b));
				if (cost_lt(c, best))
					best = c;
			}
			struct twz_cost want = ds[tg->node_cell[bn]];
			expect(twz_test_cost_eq(best, want),
			       "%s: node %u toward transit %u: %u+%u, Dijkstra %u+%u",
			       name, s, bn, best.straight, best.diagonal,
			       want.straight, want.diagonal);
			ct->toward++;
		}
		for (uint32_t t = 0; t < tg->node_count; t++) {
			if (tg->node_comp[t] != tg->node_comp[s] ||
			    twz_blocks_within(tg, tg->node_block[s],
					      tg->node_block[t], tg->outer))
				continue;
			struct twz_cost best = twz_test_unreachable;
			for (uint32_t k = db->access_first[s]; k < db->access_first[s + 1]; k++)
				for (uint32_t l = db->access_first[t]; l < db->access_first[t + 1]; l++) {
					struct twz_cost c = cost_add(
						cost_add(acc_cost(&db->access[k]),
							 acc_cost(&db->access[l])),
						tdist(db, db->access[k].transit,
						      db->access[l].transit));
					if (cost_lt(c, best))
						best = c;
				}
			struct twz_cost want = ds[tg->node_cell[t]];
			expect(twz_test_cost_eq(best, want),
			       "%s: pair %u -> %u: %u+%u, Dijkstra %u+%u", name, s,
			       t, best.straight, best.diagonal, want.straight,
			       want.diagonal);
			ct->far_pairs++;
		}
	}
	/* Each access entry is the exact distance (Dijkstra agrees). */
	for (uint32_t s = 0; s < tg->node_count; s++)
		for (uint32_t k = db->access_first[s]; k < db->access_first[s + 1]; k++) {
			uint32_t a = db->access_node[db->access[k].transit];
			struct twz_cost want = dist[(size_t)tg->node_cell[s] * cells +
						    tg->node_cell[a]];
			expect(twz_test_cost_eq(acc_cost(&db->access[k]), want),
			       "%s: node %u: access entry %u is no exact distance",
			       name, s, k);
		}
}

/* Cost, next move and path of every pair from the opened file, against
 * Dijkstra: costs equal, every move legal and on a shortest path. */
static void check_answers(const char *name, const struct twz_grid *g,
			  unsigned conn, const uint8_t *buf, size_t len,
			  const struct twz_cost *dist)
{
	size_t cells = (size_t)g->width * g->height;
	twz_node *path = malloc((cells + 1) * sizeof *path);
	twz_db *db;

	ck_assert_ptr_nonnull(path);
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &db), TWZ_OK);
	uint32_t n = twz_node_count(db);
	for (twz_node s = 0; s < n; s++) {
		uint32_t sx, sy;
		ck_assert_int_eq(twz_node_xy(db, s, &sx, &sy), TWZ_OK);
		const struct twz_cost *ds = dist + ((size_t)sy * g->width + sx) * cells;
		for (twz_node t = 0; t < n; t++) {
			uint32_t tx, ty;
			expect(twz_node_xy(db, t, &tx, &ty) == TWZ_OK, "%s: node %u", name, t);
			struct twz_cost want = ds[(size_t)ty * g->width + tx];
			double c = twz_cost(db, s, t);
			if (want.straight == UINT32_MAX) {
				expect(isinf(c), "%s: %u -> %u reachable", name, s, t);
				continue;
			}
			double wv = want.straight + want.diagonal * 1.4142135623730951;
			expect(c > wv - 1e-6 && c < wv + 1e-6,
			       "%s: cost %u -> %u: %f, Dijkstra %f", name, s, t, c, wv);
			if (s == t)
				continue;
			/* The first move lies on a shortest path. */
			twz_node x = twz_next(db, s, t);
			expect(x != TWZ_NONE, "%s: no move %u -> %u", name, s, t);
			uint32_t xx, xy;
			expect(twz_node_xy(db, x, &xx, &xy) == TWZ_OK, "%s: node %u", name, x);
			int m = -1;
			for (unsigned k = 0; k < conn; k++)
				if ((int64_t)sx + twz_test_move_dx(k) == xx &&
				    (int64_t)sy + twz_test_move_dy(k) == xy)
					m = (int)k;
			expect(m >= 0 && twz_test_move_legal(g, conn, sx, sy, (unsigned)m),
			       "%s: %u -> %u: illegal first move", name, s, t);
			struct twz_cost rest = dist[((size_t)xy * g->width + xx) * cells +
						    (size_t)ty * g->width + tx];
			expect(twz_test_cost_eq(twz_test_cost_add_move(rest, (unsigned)m),
						want),
			       "%s: %u -> %u: first move off every shortest path",
			       name, s, t);
			/* The whole path, every seventh pair. */
			if ((s + t) % 7)
				continue;
			size_t plen = 0;
			expect(twz_path(db, s, t, path, cells + 1, &plen) == TWZ_OK && plen >= 2,
			       "%s: no path %u -> %u", name, s, t);
			expect(path[1] == x, "%s: %u -> %u: path and first move differ",
			       name, s, t);
			struct twz_cost walked = { 0, 0 };
			for (size_t i = 1; i < plen; i++) {
				uint32_t ax, ay, bx, by;
				twz_node_xy(db, path[i - 1], &ax, &ay);
				twz_node_xy(db, path[i], &bx, &by);
				int mv = -1;
				for (unsigned k = 0; k < conn; k++)
					if ((int64_t)ax + twz_test_move_dx(k) == bx &&
					    (int64_t)ay + twz_test_move_dy(k) == by)
						mv = (int)k;
				expect(mv >= 0 && twz_test_move_legal(g, conn, ax, ay, (unsigned)mv),
				       "%s: path %u -> %u: illegal step", name, s, t);
				walked = twz_test_cost_add_move(walked, (unsigned)mv);
			}
			expect(twz_test_cost_eq(walked, want),
			       "%s: path %u -> %u not shortest", name, s, t);
		}
	}
	twz_close(db);
	free(path);
}


/* Bake g with access nodes (packed where they fit, or wide), check the
 * equation and every answer; the file's entry form back in *packed. */
static void check_one(const char *name, const struct twz_grid *g,
		      unsigned conn, unsigned grid, unsigned inner,
		      unsigned outer, int wide, struct counts *ct, int *packed)
{
	struct twz_bake_options opt;
	struct twz_transit_options topt = { grid, inner, outer };
	struct twz_transit_db db;
	struct twz_error err;
	uint8_t *buf;
	size_t len;
	char full[160];

	snprintf(full, sizeof full, "%s, %u-connected, grid %u, %u/%u%s", name,
		 conn, grid, inner, outer, wide ? ", wide" : "");
	twz_bake_options_default(&opt);
	opt.connectivity = conn;
	opt.codec = TWZ_CODEC_RAW;
	opt.threads = 2;
	opt.name = full;
	opt.transit_far = wide ? TWZ_TRANSIT_ACCESS_WIDE : TWZ_TRANSIT_ACCESS;
	memset(&err, 0, sizeof err);
	ck_assert_msg(twz_bake_transit(g, &opt, &topt, &db, &err) == 0, "%s", err.msg);
	ck_assert_msg(twz_transit_encode(&db, g, &opt, &buf, &len, &err) == 0,
		      "%s", err.msg);
	*packed = (twz_le64(buf + TWZ_H_REQUIRED) & TWZ_FEATURE_TRANSIT_ACCESS) &&
		  twz_transit_access_fits(&db) && !wide;
	struct twz_cost *dist = twz_test_dijkstra_all(g, conn);
	check_equation(full, g, &db, dist, ct);
	check_answers(full, g, conn, buf, len, dist);
	free(dist);
	free(buf);
	twz_transit_db_free(&db);
}

/* Open ground: ties everywhere, the tie-break decides every path. */
static void open_ground(struct twz_grid *g, uint32_t w, uint32_t h, int pillars)
{
	char *text = malloc((size_t)(w + 1) * h + 1);

	ck_assert_ptr_nonnull(text);
	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++)
			text[(size_t)y * (w + 1) + x] =
				pillars && x % 6 == 3 && y % 5 == 2 ? '@' : '.';
		text[(size_t)y * (w + 1) + w] = '\n';
	}
	text[(size_t)(w + 1) * h] = 0;
	twz_test_grid_from_text(g, text);
	free(text);
}

/* Generated levels of every kind, two seeds, both connectivities, three
 * block layouts; _i picks kind and connectivity. */
START_TEST(test_access_equation_generated)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i / 2);
	unsigned conn = _i % 2 ? 4 : 8;
	static const unsigned configs[][6] = {
		/* w, h, grid, inner, outer, seed */
		{ 24, 16, 6, 1, 2, 31 }, { 28, 14, 7, 1, 3, 32 },
		{ 20, 20, 10, 1, 2, 33 }, { 32, 12, 8, 2, 4, 34 },
	};
	struct counts ct = { 0, 0 };
	int packed = 0, any_packed = 0;

	for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++) {
		struct twz_grid g;
		char name[64];
		twz_test_generate(&g, kind, configs[k][0], configs[k][1], configs[k][5]);
		snprintf(name, sizeof name, "%s %ux%u seed %u",
			 twz_test_kind_name(kind), configs[k][0], configs[k][1],
			 configs[k][5]);
		check_one(name, &g, conn, configs[k][2], configs[k][3], configs[k][4],
			  k == 1, &ct, &packed);
		any_packed |= packed;
		twz_grid_free(&g);
	}
	if (kind != TWZ_TEST_POCKETS) {
		ck_assert_uint_gt(ct.far_pairs, 0);
		ck_assert_uint_gt(ct.toward, 0);
		ck_assert(any_packed);
	}
}
END_TEST

/* Open ground and pillars: shortest paths fan out in ties through many
 * transit nodes; both connectivities. */
START_TEST(test_access_equation_ties)
{
	struct counts ct = { 0, 0 };
	int packed;

	for (int pillars = 0; pillars < 2; pillars++)
		for (unsigned conn = 4; conn <= 8; conn += 4) {
			struct twz_grid g;
			open_ground(&g, 24, 16, pillars);
			check_one(pillars ? "pillars" : "open", &g, conn, 8, 1, 2, 0,
				  &ct, &packed);
			ck_assert(packed);
			check_one(pillars ? "pillars" : "open", &g, conn, 12, 1, 2, 0,
				  &ct, &packed);
			twz_grid_free(&g);
		}
	ck_assert_uint_gt(ct.far_pairs, 0);
}
END_TEST

/* ---- crafted packed files ---------------------------------------------- */

/* Every query of an opened crafted file returns, and paths stay within
 * the caller's buffer. */
static void query_all(twz_db *db, twz_node *path, size_t cap)
{
	uint32_t n = twz_node_count(db);

	for (twz_node s = 0; s < n; s += 7)
		for (twz_node t = 0; t < n; t += 5) {
			size_t len = 0;
			twz_node x = twz_next(db, s, t);
			expect(x == TWZ_NONE || x < n, "next %u -> %u: %u", s, t, x);
			(void)twz_cost(db, s, t);
			twz_status st = twz_path(db, s, t, path, cap, &len);
			if (st == TWZ_OK)
				expect(len <= cap, "path %u -> %u: %zu nodes", s, t, len);
		}
}

/* Each byte of ACCESS_FIRST, ACCESS_BLOCK_FIRST, ACCESS_BLOCK_LIST and
 * ACCESS_PACKED, altered (three values) and resealed: refused at open,
 * or opened and answering every query without reading out of bounds
 * (the sanitizers' part) or walking without end. */
START_TEST(test_access_packed_crafted)
{
	static const uint32_t kinds[] = {
		TWZ_SECTION_ACCESS_FIRST, TWZ_SECTION_ACCESS_BLOCK_FIRST,
		TWZ_SECTION_ACCESS_BLOCK_LIST, TWZ_SECTION_ACCESS_PACKED,
	};
	static const uint8_t values[] = { 0x00, 0xFF, 0x01 };
	struct twz_grid g;
	struct twz_bake_options opt;
	struct twz_transit_options topt = { 8, 1, 2 };
	struct twz_transit_db tdb;
	struct twz_error err;
	uint8_t *orig;
	size_t len;
	uint64_t refused = 0, opened = 0;

	twz_test_generate(&g, TWZ_TEST_ROOMS, 30, 22, 41);
	twz_bake_options_default(&opt);
	opt.codec = TWZ_CODEC_RAW;
	opt.threads = 1;
	opt.transit_far = TWZ_TRANSIT_ACCESS;
	memset(&err, 0, sizeof err);
	ck_assert_msg(twz_bake_transit(&g, &opt, &topt, &tdb, &err) == 0, "%s", err.msg);
	ck_assert_msg(twz_transit_encode(&tdb, &g, &opt, &orig, &len, &err) == 0,
		      "%s", err.msg);
	uint8_t *buf = malloc(len);
	size_t cap = (size_t)g.width * g.height + 1;
	twz_node *path = malloc(cap * sizeof *path);
	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(path);
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		uint8_t *e = twz_test_section_entry(orig, kinds[k]);
		ck_assert_msg(e != NULL, "no section of kind %u", kinds[k]);
		ck_assert_uint_eq(twz_le32(e + TWZ_S_CODEC), TWZ_CODEC_RAW);
		uint64_t off = twz_le64(e + TWZ_S_OFFSET), size = twz_le64(e + TWZ_S_SIZE);
		for (uint64_t b = 0; b < size; b++)
			for (size_t v = 0; v < sizeof values; v++) {
				if (orig[off + b] == values[v])
					continue;
				memcpy(buf, orig, len);
				buf[off + b] = values[v];
				twz_test_reseal(buf);
				twz_db *db;
				if (twz_open_memory(buf, len, 0, &db) != TWZ_OK) {
					refused++;
					continue;
				}
				opened++;
				/* Queries at a few byte positions of each
				 * section keep the test short. */
				if (b % 211 == 0)
					query_all(db, path, cap);
				twz_close(db);
			}
	}
	ck_assert_uint_gt(refused, 0);
	free(path);
	free(buf);
	free(orig);
	twz_transit_db_free(&tdb);
	twz_grid_free(&g);
}
END_TEST

static Suite *transit_access_suite(void)
{
	Suite *s = suite_create("transit_access");
	TCase *tc = tcase_create("Equation");

	tcase_set_timeout(tc, 1200);
	tcase_add_loop_test(tc, test_access_equation_generated, 0,
			    2 * TWZ_TEST_KIND_COUNT);
	tcase_add_test(tc, test_access_equation_ties);
	suite_add_tcase(s, tc);

	tc = tcase_create("Crafted");
	tcase_set_timeout(tc, 1200);
	tcase_add_test(tc, test_access_packed_crafted);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(transit_access_suite());
}
