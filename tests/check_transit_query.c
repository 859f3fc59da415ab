/*
 * check_transit_query.c - far queries of TRANSIT's access-node layout
 * (format 1.4, FORMAT.md 5j) through the public API. Small levels of
 * every generated kind and open ground full of ties, 4- and 8-connected,
 * are baked once and written four ways: packed 4-byte entries and 8-byte
 * ones, each whole and chunked (opened under a cache budget of one
 * slot). On every far pair (blocks more than `outer` apart, one region)
 * twz_cost_exact, twz_next and twz_path agree with a plain Dijkstra, and
 * the four files answer node for node alike: the pair search depends on
 * the distances only, not on how they are stored or read.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "transit.h"
#include "twigz.h"
#include "twz_format.h"

/* The four files of one bake. */
enum form { PACKED, WIDE, PACKED_CHUNKED, WIDE_CHUNKED, FORMS };

static const char *const form_names[FORMS] = {
	"packed", "8-byte", "packed, chunked", "8-byte, chunked",
};

/* What one file answered for the far pairs, in the order visited. */
struct answers {
	twz_node *next;
	uint64_t *path_hash;
	size_t count;
};

/* g baked by TRANSIT with access nodes (packed, or 8-byte entries when
 * wide), chunked at about `chunk` bytes (0: not); NULL when the bake
 * keeps no access node layout (a level without far pairs). */
static uint8_t *bake(const struct twz_grid *g, unsigned conn, int wide,
		     uint64_t chunk, struct twz_transit_db *keep, size_t *len)
{
	struct twz_bake_options opt;
	struct twz_transit_options topt = { 8, 1, 2 };
	struct twz_transit_db db;
	struct twz_error err;
	uint8_t *buf = NULL;

	twz_bake_options_default(&opt);
	opt.connectivity = conn;
	opt.codec = TWZ_CODEC_RAW;
	opt.threads = 2;
	opt.chunk = chunk;
	opt.name = "transit query level";
	opt.transit_far = wide ? TWZ_TRANSIT_ACCESS_WIDE : TWZ_TRANSIT_ACCESS;
	memset(&err, 0, sizeof err);
	ck_assert_msg(twz_bake_transit(g, &opt, &topt, &db, &err) == 0,
		      "bake: %s", err.msg);
	ck_assert_msg(twz_transit_encode(&db, g, &opt, &buf, len, &err) == 0,
		      "encode: %s", err.msg);
	if (!(twz_le64(buf + TWZ_H_REQUIRED) & TWZ_FEATURE_TRANSIT_ACCESS)) {
		free(buf);
		buf = NULL;
	}
	if (keep && buf)
		*keep = db;
	else
		twz_transit_db_free(&db);
	return buf;
}

static twz_db *open_form(const uint8_t *buf, size_t len, enum form f)
{
	twz_open_options o;
	twz_db *db = NULL;

	memset(&o, 0, sizeof o);
	/* Chunked files: one slot, so nearly every read comes in anew. */
	o.cache_bytes = f >= PACKED_CHUNKED ? 1 : 0;
	ck_assert_int_eq(twz_open_memory_ex(buf, len, &o, &db), TWZ_OK);
	return db;
}


/* The move from (ax, ay) to (bx, by), or -1 when none is legal. */
static int move_of(const struct twz_grid *g, unsigned conn, uint32_t ax,
		   uint32_t ay, uint32_t bx, uint32_t by)
{
	for (unsigned k = 0; k < conn; k++)
		if ((int64_t)ax + twz_test_move_dx(k) == bx &&
		    (int64_t)ay + twz_test_move_dy(k) == by)
			return twz_test_move_legal(g, conn, ax, ay, k) ? (int)k : -1;
	return -1;
}

/*
 * Every far pair of tdb (the bake) asked of db: the exact cost, a first
 * move that is legal and on a shortest path, and a legal path of that
 * cost starting with that move; the answers into out. Returns the far
 * pairs asked.
 */
static size_t check_far(const char *name, const struct twz_grid *g,
			unsigned conn, const struct twz_transit_db *tdb,
			twz_db *db, const struct twz_cost *dist,
			struct answers *out)
{
	const struct twz_graph *tg = &tdb->graph;
	size_t cells = (size_t)g->width * g->height;
	twz_node *path = malloc((cells + 1) * sizeof *path);
	size_t asked = 0;

	ck_assert_ptr_nonnull(path);
	ck_assert_uint_eq(twz_node_count(db), tg->node_count);
	for (uint32_t a = 0; a < tg->node_count; a++) {
		uint32_t sx = tg->node_cell[a] % g->width;
		uint32_t sy = tg->node_cell[a] / g->width;
		twz_node s = twz_node_at(db, sx, sy);
		ck_assert(s != TWZ_NONE);
		for (uint32_t b = 0; b < tg->node_count; b++) {
			if (tg->node_comp[a] != tg->node_comp[b] ||
			    twz_blocks_within(tg, tg->node_block[a],
					      tg->node_block[b], tg->outer))
				continue;
			uint32_t tx = tg->node_cell[b] % g->width;
			uint32_t ty = tg->node_cell[b] / g->width;
			twz_node t = twz_node_at(db, tx, ty);
			struct twz_cost want = dist[tg->node_cell[a] * cells +
						    tg->node_cell[b]];
			uint32_t st = 0, dg = 0;
			expect(twz_cost_exact(db, s, t, &st, &dg) == TWZ_OK,
			       "%s: no cost %u -> %u", name, s, t);
			expect(st == want.straight && dg == want.diagonal,
			       "%s: cost %u -> %u: %u+%u, Dijkstra %u+%u", name,
			       s, t, st, dg, want.straight, want.diagonal);
			twz_node x = twz_next(db, s, t);
			expect(x != TWZ_NONE, "%s: no move %u -> %u", name, s, t);
			uint32_t xx, xy;
			expect(twz_node_xy(db, x, &xx, &xy) == TWZ_OK, "%s: node", name);
			int m = move_of(g, conn, sx, sy, xx, xy);
			expect(m >= 0, "%s: %u -> %u: illegal first move", name, s, t);
			struct twz_cost rest = dist[((size_t)xy * g->width + xx) * cells +
						    tg->node_cell[b]];
			expect(twz_test_cost_eq(twz_test_cost_add_move(rest, (unsigned)m),
						want),
			       "%s: %u -> %u: first move off every shortest path",
			       name, s, t);
			size_t len = 0;
			expect(twz_path(db, s, t, path, cells + 1, &len) == TWZ_OK,
			       "%s: no path %u -> %u", name, s, t);
			expect(len >= 2 && path[0] == s && path[len - 1] == t &&
				       path[1] == x,
			       "%s: path %u -> %u: ends, or first move", name, s, t);
			struct twz_cost walked = { 0, 0 };
			for (size_t i = 1; i < len; i++) {
				uint32_t ax, ay, bx, by;
				twz_node_xy(db, path[i - 1], &ax, &ay);
				twz_node_xy(db, path[i], &bx, &by);
				int mv = move_of(g, conn, ax, ay, bx, by);
				expect(mv >= 0, "%s: path %u -> %u: illegal step",
				       name, s, t);
				walked = twz_test_cost_add_move(walked, (unsigned)mv);
			}
			expect(twz_test_cost_eq(walked, want),
			       "%s: path %u -> %u not shortest", name, s, t);
			expect(asked < out->count, "%s: more far pairs than pairs", name);
			out->next[asked] = x;
			out->path_hash[asked] = twz_test_path_hash(path, len);
			asked++;
		}
	}
	free(path);
	return asked;
}

/* Bake g once per entry form, whole and chunked; check the far pairs of
 * all four files and that they answer alike. Returns the far pairs. */
static size_t check_level(const char *name, const struct twz_grid *g,
			  unsigned conn)
{
	struct twz_transit_db tdb;
	struct answers ans[FORMS];
	uint8_t *buf[FORMS];
	size_t len[FORMS];
	size_t far[FORMS];
	char full[160];

	buf[PACKED] = bake(g, conn, 0, 0, &tdb, &len[PACKED]);
	if (!buf[PACKED])
		return 0;
	buf[WIDE] = bake(g, conn, 1, 0, NULL, &len[WIDE]);
	/* Small chunks: the access sections of a small level are small. */
	buf[PACKED_CHUNKED] = bake(g, conn, 0, 96, NULL, &len[PACKED_CHUNKED]);
	buf[WIDE_CHUNKED] = bake(g, conn, 1, 96, NULL, &len[WIDE_CHUNKED]);
	struct twz_cost *dist = twz_test_dijkstra_all(g, conn);
	size_t n = (size_t)tdb.graph.node_count * tdb.graph.node_count;
	for (int f = 0; f < FORMS; f++) {
		ck_assert_ptr_nonnull(buf[f]);
		ans[f].count = n;
		ans[f].next = malloc(n * sizeof *ans[f].next);
		ans[f].path_hash = malloc(n * sizeof *ans[f].path_hash);
		ck_assert(ans[f].next && ans[f].path_hash);
		snprintf(full, sizeof full, "%s, %u-connected, %s", name, conn,
			 form_names[f]);
		twz_db *db = open_form(buf[f], len[f], (enum form)f);
		far[f] = check_far(full, g, conn, &tdb, db, dist, &ans[f]);
		twz_close(db);
	}
	for (int f = 1; f < FORMS; f++) {
		ck_assert_uint_eq(far[f], far[0]);
		for (size_t i = 0; i < far[0]; i++) {
			expect(ans[f].next[i] == ans[0].next[i],
			       "%s, %u-connected: far pair %zu: %s and %s move apart",
			       name, conn, i, form_names[0], form_names[f]);
			expect(ans[f].path_hash[i] == ans[0].path_hash[i],
			       "%s, %u-connected: far pair %zu: %s and %s walk apart",
			       name, conn, i, form_names[0], form_names[f]);
		}
	}
	for (int f = 0; f < FORMS; f++) {
		free(ans[f].next);
		free(ans[f].path_hash);
		free(buf[f]);
	}
	free(dist);
	twz_transit_db_free(&tdb);
	return far[0];
}

/* Generated levels of every kind, two seeds; _i picks kind and
 * connectivity. */
START_TEST(test_query_generated)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i / 2);
	unsigned conn = _i % 2 ? 4 : 8;
	size_t far = 0;

	for (uint64_t seed = 41; seed < 43; seed++) {
		struct twz_grid g;
		char name[64];
		twz_test_generate(&g, kind, 24, 16, seed);
		snprintf(name, sizeof name, "%s 24x16 seed %u",
			 twz_test_kind_name(kind), (unsigned)seed);
		far += check_level(name, &g, conn);
		twz_grid_free(&g);
	}
	if (kind != TWZ_TEST_POCKETS)
		ck_assert_uint_gt(far, 0);
}
END_TEST

/* Open ground, bare and with pillars: ties everywhere, so the order in
 * which equal pairs are met decides every answer. */
START_TEST(test_query_ties)
{
	size_t far = 0;

	for (int pillars = 0; pillars < 2; pillars++)
		for (unsigned conn = 4; conn <= 8; conn += 4) {
			struct twz_grid g;
			char text[23 * 16 + 1];
			size_t k = 0;
			for (uint32_t y = 0; y < 16; y++) {
				for (uint32_t x = 0; x < 22; x++)
					text[k++] = pillars && x % 6 == 3 &&
							    y % 5 == 2 ? '@' : '.';
				text[k++] = '\n';
			}
			text[k] = 0;
			twz_test_grid_from_text(&g, text);
			far += check_level(pillars ? "pillars" : "open ground", &g,
					   conn);
			twz_grid_free(&g);
		}
	ck_assert_uint_gt(far, 0);
}
END_TEST

static Suite *transit_query_suite(void)
{
	Suite *s = suite_create("transit_query");
	TCase *tc = tcase_create("Far pairs");

	tcase_set_timeout(tc, 1200);
	tcase_add_loop_test(tc, test_query_generated, 0, 2 * TWZ_TEST_KIND_COUNT);
	tcase_add_test(tc, test_query_ties);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(transit_query_suite());
}
