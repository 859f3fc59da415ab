/*
 * check_junctions.c - junction graphs (`twigz build --junctions`, format
 * 1.4): every answer of the public API on small levels (width-1 mazes,
 * rooms, caves, pockets, rings without a junction, chains whose two ends
 * are one junction, parallel links, dead ends; 4- and 8-connected)
 * against a plain Dijkstra of the tests' own and the plain CPD, and a
 * corner of the Moving AI maze level; bytes that do not depend on the
 * thread count; the golden file; crafted and fuzzed sections refused or
 * answered without a crash; the tool's options and refusals. The whole
 * Moving AI maze and its scenarios: scripts/test.sh, step junctions.
 */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "junctions.h"
#include "twz_format.h"
#include "twz_validate.h"

/* ---- bakes ----------------------------------------------------------- */

/* twz_bake_options.junction_search of the bakes below: 0 lets the bake
 * pick its search, TWZ_JUNCTIONS_SEARCH_* force one. */
static unsigned search_mode = 0;

static uint8_t *bake_junctions(const struct twz_grid *g, unsigned connectivity,
			       unsigned codec, unsigned threads, size_t *len)
{
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	struct twz_junction_db db;
	uint8_t *buf = NULL;

	twz_bake_options_default(&opt);
	opt.connectivity = connectivity;
	opt.codec = codec;
	opt.level = 3;
	opt.threads = threads;
	opt.method = TWZ_BAKE_JUNCTIONS;
	opt.junction_search = search_mode;
	opt.name = "test";
	ck_assert_msg(twz_bake_junctions(g, &opt, &db, &err) == 0, "%s", err.msg);
	ck_assert_msg(twz_junctions_encode(&db, g, &opt, &buf, len, &err) == 0,
		      "%s", err.msg);
	twz_junction_db_free(&db);
	return buf;
}

static twz_db *open_or_fail(const uint8_t *buf, size_t len, const char *what)
{
	twz_db *db = NULL;
	twz_status st = twz_open_memory(buf, len, 0, &db);

	ck_assert_msg(st == TWZ_OK, "%s: open: %s", what, twz_strerror(st));
	return db;
}

/* The move between two neighbouring cells, or -1. */
static int move_of(int64_t dx, int64_t dy)
{
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		if (twz_test_move_dx(m) == dx && twz_test_move_dy(m) == dy)
			return (int)m;
	return -1;
}

/* The legal move from node a to node b, or -1. */
static int legal_move(const twz_db *db, const struct twz_grid *g,
		      unsigned connectivity, twz_node a, twz_node b)
{
	uint32_t ax, ay, bx, by;

	if (twz_node_xy(db, a, &ax, &ay) != TWZ_OK ||
	    twz_node_xy(db, b, &bx, &by) != TWZ_OK)
		return -1;
	int m = move_of((int64_t)bx - ax, (int64_t)by - ay);
	if (m < 0 || (unsigned)m >= connectivity ||
	    !twz_test_move_legal(g, connectivity, ax, ay, (unsigned)m))
		return -1;
	return m;
}

/*
 * Every answer toward every stride-th target against a plain Dijkstra
 * from that target (costs are symmetric): twz_next and the flow field
 * take a legal move that stays optimal, twz_path is a legal path of the
 * optimal cost, twz_cost_exact and twz_cost agree, and the plain CPD
 * (when given) gives the same cost.
 */
static void check_level(const char *what, const struct twz_grid *g,
			unsigned connectivity, const twz_db *db,
			const twz_db *plain, unsigned stride)
{
	size_t cells = (size_t)g->width * g->height;
	struct twz_cost *dist = malloc(cells * sizeof *dist);
	uint32_t n = twz_node_count(db);
	twz_node *field = malloc((n ? n : 1) * sizeof *field);
	twz_node *path = malloc(((size_t)n + 1) * sizeof *path);
	unsigned k = 0;

	ck_assert(dist && field && path);
	for (uint32_t ty = 0; ty < g->height; ty++)
		for (uint32_t tx = 0; tx < g->width; tx++) {
			if (!g->walkable[(size_t)ty * g->width + tx] || k++ % stride)
				continue;
			twz_node t = twz_node_at(db, tx, ty);
			expect(t != TWZ_NONE, "%s: (%u,%u) has no node", what, tx, ty);
			twz_test_dijkstra(g, connectivity, tx, ty, dist);
			expect(twz_flow_field(db, t, field, n) == TWZ_OK,
			       "%s: flow field toward (%u,%u)", what, tx, ty);
			for (uint32_t sy = 0; sy < g->height; sy++)
				for (uint32_t sx = 0; sx < g->width; sx++) {
					size_t sc = (size_t)sy * g->width + sx;
					if (!g->walkable[sc])
						continue;
					twz_node s = twz_node_at(db, sx, sy);
					struct twz_cost d = dist[sc];
					twz_node nx = twz_next(db, s, t);
					size_t len = 0;
					twz_status st = twz_path(db, s, t, path, (size_t)n + 1, &len);
					if (twz_test_cost_eq(d, twz_test_unreachable)) {
						expect(nx == TWZ_NONE && field[s] == TWZ_NONE &&
						       st == TWZ_E_UNREACHABLE && len == 0,
						       "%s: (%u,%u) -> (%u,%u) should be unreachable",
						       what, sx, sy, tx, ty);
						continue;
					}
					if (s == t) {
						expect(nx == t && field[s] == t && st == TWZ_OK &&
						       len == 1 && path[0] == t,
						       "%s: (%u,%u) to itself", what, sx, sy);
						continue;
					}
					/* next and the field: one legal, optimal step. */
					expect(field[s] == nx, "%s: field and next differ at (%u,%u) -> (%u,%u)",
					       what, sx, sy, tx, ty);
					int m = nx == TWZ_NONE ? -1
						 : legal_move(db, g, connectivity, s, nx);
					expect(m >= 0, "%s: next (%u,%u) -> (%u,%u) is no legal move",
					       what, sx, sy, tx, ty);
					uint32_t nxx, nxy;
					twz_node_xy(db, nx, &nxx, &nxy);
					struct twz_cost after = twz_test_cost_add_move(
						dist[(size_t)nxy * g->width + nxx], (unsigned)m);
					expect(twz_test_cost_eq(after, d),
					       "%s: next (%u,%u) -> (%u,%u) leaves the optimal paths",
					       what, sx, sy, tx, ty);
					/* path: legal moves, optimal cost. */
					expect(st == TWZ_OK && len >= 2 && path[0] == s &&
					       path[len - 1] == t,
					       "%s: path (%u,%u) -> (%u,%u): %s, %zu nodes", what,
					       sx, sy, tx, ty, twz_strerror(st), len);
					struct twz_cost sum = { 0, 0 };
					for (size_t i = 1; i < len; i++) {
						int pm = legal_move(db, g, connectivity, path[i - 1],
								    path[i]);
						expect(pm >= 0, "%s: path (%u,%u) -> (%u,%u) step %zu illegal",
						       what, sx, sy, tx, ty, i);
						sum = twz_test_cost_add_move(sum, (unsigned)pm);
					}
					expect(twz_test_cost_eq(sum, d),
					       "%s: path (%u,%u) -> (%u,%u) costs %u+%ur2, optimum %u+%ur2",
					       what, sx, sy, tx, ty, sum.straight, sum.diagonal,
					       d.straight, d.diagonal);
					uint32_t cs = 0, cd = 0;
					expect(twz_cost_exact(db, s, t, &cs, &cd) == TWZ_OK &&
					       cs == d.straight && cd == d.diagonal,
					       "%s: cost (%u,%u) -> (%u,%u)", what, sx, sy, tx, ty);
					if (plain) {
						twz_node ps = twz_node_at(plain, sx, sy);
						twz_node pt = twz_node_at(plain, tx, ty);
						uint32_t qs = 0, qd = 0;
						expect(twz_cost_exact(plain, ps, pt, &qs, &qd) == TWZ_OK &&
						       qs == cs && qd == cd,
						       "%s: plain CPD and junctions differ (%u,%u) -> (%u,%u)",
						       what, sx, sy, tx, ty);
					}
				}
		}
	free(dist);
	free(field);
	free(path);
}

/* Bake g both ways and check every answer of the junction file. */
static void check_grid(const char *what, const struct twz_grid *g,
		       unsigned connectivity, unsigned stride, int with_plain)
{
	size_t len, plen = 0;
	uint8_t *buf = bake_junctions(g, connectivity, TWZ_CODEC_RAW, 2, &len);
	uint8_t *pbuf = with_plain ? twz_test_bake(g, connectivity, TWZ_CODEC_RAW,
						   2, &plen)
				   : NULL;
	twz_db *db = open_or_fail(buf, len, what);
	twz_db *plain = pbuf ? open_or_fail(pbuf, plen, what) : NULL;
	twz_info in;

	ck_assert_int_eq(twz_get_info(db, &in), TWZ_OK);
	ck_assert_uint_eq(in.format_minor, 4);
	ck_assert_uint_eq(in.connectivity, connectivity);
	check_level(what, g, connectivity, db, plain, stride);
	twz_close(plain);
	twz_close(db);
	free(pbuf);
	free(buf);
}

/* ---- levels with every shape of chain ----------------------------------- */

static const char *const shapes[] = {
	/* A ring and nothing else: no junction at all. */
	"@@@@@@@\n"
	"@.....@\n"
	"@.@@@.@\n"
	"@.....@\n"
	"@@@@@@@",
	/* Three parallel links between two junctions, two of one length,
	 * with a dead end beyond each junction. */
	"@@@@@@@@@@@\n"
	"@@.......@@\n"
	"@@.@@@@@.@@\n"
	"@.........@\n"
	"@@.@@@@@.@@\n"
	"@@.......@@\n"
	"@@@@@@@@@@@",
	/* A loop whose two ends are one junction, and a dead-end stub. */
	"@@@@@@@@\n"
	"@......@\n"
	"@.@@@@.@\n"
	"@......@\n"
	"@@@.@@@@\n"
	"@@@.@@@@\n"
	"@@@@@@@@",
	/* A figure of eight: two loops on one junction. */
	"@@@@@@@@@@@\n"
	"@...@@@...@\n"
	"@.@.@@@.@.@\n"
	"@..@...@..@\n"
	"@@@@.@.@@@@\n"
	"@@@@...@@@@\n"
	"@@@@@@@@@@@",
	/* A line (two dead ends), a single cell, two cells, a ring and a
	 * room: several regions. */
	"@@@@@@@@@@@@@\n"
	"@.......@@.@@\n"
	"@@@@@@@@@@@@@\n"
	"@..@@@@@@...@\n"
	"@@@@.....@..@\n"
	"@@@@.@@@.@@@@\n"
	"@@@@.....@@@@\n"
	"@@@@@@@@@@@@@",
	/* Rooms joined by long corridors, one of them a dead end. */
	"@@@@@@@@@@@@@@@@@@\n"
	"@....@@@@@@@@....@\n"
	"@....@@@@@@@@....@\n"
	"@.............@..@\n"
	"@....@@@@@@@.@@..@\n"
	"@@.@@@@@@@@@.@@@.@\n"
	"@@.@@@@@@@@@.@@@.@\n"
	"@@.........@...@.@\n"
	"@@@@@@@@@@.@@@@@.@\n"
	"@@@@@@@@@@.......@\n"
	"@@@@@@@@@@@@@@@@@@",
};

START_TEST(test_junctions_shapes)
{
	for (unsigned i = 0; i < sizeof shapes / sizeof *shapes; i++)
		for (unsigned conn = 4; conn <= 8; conn += 4) {
			struct twz_grid g;
			char what[64];
			twz_test_grid_from_text(&g, shapes[i]);
			snprintf(what, sizeof what, "shape %u, %u-connected", i, conn);
			check_grid(what, &g, conn, 1, 1);
			twz_grid_free(&g);
		}
}
END_TEST

/* The suite's own small level (five regions, single cells). */
START_TEST(test_junctions_small_level)
{
	struct twz_grid g;

	twz_test_grid_from_text(&g, twz_test_small_level);
	check_grid("small level, 8", &g, 8, 1, 1);
	check_grid("small level, 4", &g, 4, 1, 1);
	twz_grid_free(&g);
}
END_TEST

/* Every generated kind, both connectivities, a few seeds: all pairs. */
START_TEST(test_junctions_generated)
{
	for (int kind = 0; kind < TWZ_TEST_KIND_COUNT; kind++)
		for (unsigned conn = 4; conn <= 8; conn += 4)
			for (uint64_t seed = 1; seed <= 2; seed++) {
				struct twz_grid g;
				char what[96];
				twz_test_generate(&g, (enum twz_test_level_kind)kind, 28,
						  22, seed);
				snprintf(what, sizeof what, "%s 28x22 seed %u, %u-connected",
					 twz_test_kind_name((enum twz_test_level_kind)kind),
					 (unsigned)seed, conn);
				check_grid(what, &g, conn, 1, 1);
				twz_grid_free(&g);
			}
}
END_TEST

/* Random sparse grids: every shape of chain, parallel link and loop that
 * chance makes, all pairs. */
START_TEST(test_junctions_random)
{
	uint64_t state = 0x6A0C;

	for (unsigned i = 0; i < 60; i++) {
		struct twz_grid g;
		char what[64];
		g.width = 6 + (uint32_t)(i % 9);
		g.height = 5 + (uint32_t)(i % 7);
		g.level_hash = i;
		g.walkable = malloc((size_t)g.width * g.height);
		ck_assert(g.walkable);
		unsigned percent = 45 + (i % 5) * 8;
		for (size_t c = 0; c < (size_t)g.width * g.height; c++) {
			state = state * 6364136223846793005ull + 1442695040888963407ull;
			g.walkable[c] = (state >> 33) % 100 < percent;
		}
		unsigned conn = i % 2 ? 4 : 8;
		snprintf(what, sizeof what, "random %u (%ux%u, %u%%), %u-connected",
			 i, g.width, g.height, percent, conn);
		check_grid(what, &g, conn, 1, 1);
		twz_grid_free(&g);
	}
}
END_TEST

/* The committed maze of the junction generator, both connectivities. */
START_TEST(test_junctions_data_maze)
{
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };

	ck_assert_msg(twz_grid_load(twz_test_source_file("data/junctions.map"),
				    &g, &err) == 0, "%s", err.msg);
	check_grid("data/junctions.map, 8", &g, 8, 3, 0);
	check_grid("data/junctions.map, 4", &g, 4, 5, 0);
	twz_grid_free(&g);
}
END_TEST

/* The bytes do not depend on the thread count. */
START_TEST(test_junctions_threads)
{
	struct twz_grid g;
	size_t len1, len;

	twz_test_generate(&g, TWZ_TEST_MAZE, 64, 48, 5);
	uint8_t *one = bake_junctions(&g, 8, TWZ_CODEC_ZSTD, 1, &len1);
	for (unsigned threads = 2; threads <= 7; threads += 5) {
		uint8_t *buf = bake_junctions(&g, 8, TWZ_CODEC_ZSTD, threads, &len);
		ck_assert_uint_eq(len, len1);
		ck_assert_msg(!memcmp(buf, one, len), "%u threads bake other bytes",
			      threads);
		free(buf);
	}
	free(one);
	twz_grid_free(&g);
}
END_TEST

/* Both searches (Dijkstra over the junction graph, the CPD search over
 * the cells) give the same bytes. */
START_TEST(test_junctions_searches_agree)
{
	for (int kind = 0; kind < TWZ_TEST_KIND_COUNT; kind++)
		for (unsigned conn = 4; conn <= 8; conn += 4) {
			struct twz_grid g;
			size_t la, lb;
			twz_test_generate(&g, (enum twz_test_level_kind)kind, 40, 30, 9);
			search_mode = TWZ_JUNCTIONS_SEARCH_GRAPH;
			uint8_t *a = bake_junctions(&g, conn, TWZ_CODEC_RAW, 2, &la);
			search_mode = TWZ_JUNCTIONS_SEARCH_GRID;
			uint8_t *b = bake_junctions(&g, conn, TWZ_CODEC_RAW, 2, &lb);
			search_mode = 0;
			ck_assert_msg(la == lb && !memcmp(a, b, la),
				      "%s, %u-connected: the searches differ",
				      twz_test_kind_name((enum twz_test_level_kind)kind),
				      conn);
			free(a);
			free(b);
			twz_grid_free(&g);
		}
}
END_TEST

/* tests/golden/v1_4_junctions.twz opens and answers as the oracle does;
 * a fresh bake of its level (raw, one thread, level 9, as the README
 * says) gives the same sections. */
START_TEST(test_junctions_golden)
{
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };
	size_t golden_len;
	twz_db *db;

	ck_assert_msg(twz_grid_load(twz_test_source_file(
					    "tests/golden/v1_4_junctions.map"),
				    &g, &err) == 0, "%s", err.msg);
	uint8_t *golden = twz_test_read_file(
		twz_test_source_file("tests/golden/v1_4_junctions.twz"), &golden_len);
	db = open_or_fail(golden, golden_len, "v1_4_junctions.twz");
	twz_info in;
	ck_assert_int_eq(twz_get_info(db, &in), TWZ_OK);
	ck_assert_uint_eq(in.format_major, 1);
	ck_assert_uint_eq(in.format_minor, 4);
	check_level("v1_4_junctions", &g, 8, db, NULL, 1);

	/* The same sections as a bake now (BUILD_INFO names the version). */
	struct twz_container gc, bc;
	size_t len;
	uint8_t *buf = bake_junctions(&g, 8, TWZ_CODEC_RAW, 1, &len);
	ck_assert_int_eq(twz_parse_container(golden, golden_len, &gc), TWZ_OK);
	ck_assert_int_eq(twz_parse_container(buf, len, &bc), TWZ_OK);
	for (uint32_t i = 0, j = 0; i < gc.section_count; i++) {
		if (gc.sections[i].kind == TWZ_SECTION_BUILD_INFO)
			continue;
		ck_assert_uint_lt(j, bc.section_count);
		ck_assert_uint_eq(gc.sections[i].kind, bc.sections[j].kind);
		ck_assert_uint_eq(gc.sections[i].raw_checksum,
				  bc.sections[j].raw_checksum);
		j++;
	}
	free(buf);
	twz_close(db);
	free(golden);
	twz_grid_free(&g);
}
END_TEST

/* ---- the Moving AI maze ------------------------------------------------ */

/* maze512-8-0 has corridors 8 cells wide: nearly every cell is a
 * junction, the case the junction graph does not shrink. A corner of it
 * against the oracle and the plain CPD here; scripts/test.sh (step
 * junctions) bakes the whole level and verifies every scenario. */
START_TEST(test_junctions_movingai_maze)
{
	struct twz_grid g, cut;
	struct twz_scen sc;
	char scen_path[4096];

	if (!twz_test_movingai_dir()) {
		printf("# movingai levels not found at %s: skipped\n",
		       twz_test_movingai_where());
		return;
	}
	ck_assert_int_eq(twz_test_movingai_load("maze/maze512-8-0", &g, &sc,
						scen_path, sizeof scen_path), 0);
	cut.width = cut.height = 48;
	cut.level_hash = g.level_hash;
	cut.walkable = malloc((size_t)cut.width * cut.height);
	ck_assert(cut.walkable);
	for (uint32_t y = 0; y < cut.height; y++)
		memcpy(cut.walkable + (size_t)y * cut.width,
		       g.walkable + (size_t)y * g.width, cut.width);
	check_grid("maze512-8-0 48x48 corner, 8", &cut, 8, 11, 1);
	check_grid("maze512-8-0 48x48 corner, 4", &cut, 4, 13, 1);
	twz_grid_free(&cut);
	twz_scen_free(&sc);
	twz_grid_free(&g);
}
END_TEST

/* ---- crafted and fuzzed files ----------------------------------------- */

/* A raw junction file of a small maze with loops, its table parsed. */
struct crafted {
	uint8_t *buf;
	size_t len;
	struct twz_container c;
};

static void crafted_make(struct crafted *f, enum twz_test_level_kind kind)
{
	struct twz_grid g;

	twz_test_generate(&g, kind, 20, 16, 3);
	f->buf = bake_junctions(&g, 8, TWZ_CODEC_RAW, 1, &f->len);
	twz_grid_free(&g);
	ck_assert_int_eq(twz_parse_container(f->buf, f->len, &f->c), TWZ_OK);
}

static uint8_t *section(struct crafted *f, uint32_t kind, size_t *size)
{
	for (uint32_t i = 0; i < f->c.section_count; i++)
		if (f->c.sections[i].kind == kind) {
			*size = (size_t)f->c.sections[i].raw_size;
			return f->buf + f->c.sections[i].offset;
		}
	ck_abort_msg("no section %u", kind);
	return NULL;
}

/* Checksums of every (raw) section, the table and the header again, so
 * that the validator, not a checksum, judges a change. */
static void reseal(struct crafted *f)
{
	for (uint32_t i = 0; i < f->c.section_count; i++) {
		const struct twz_section_ref *s = &f->c.sections[i];
		uint8_t *e = f->buf + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		twz_put64(e + TWZ_S_RAW_CHECKSUM,
			  twz_checksum(f->buf + s->offset, (size_t)s->raw_size));
	}
	twz_put64(f->buf + TWZ_H_TABLE_CHECKSUM,
		  twz_checksum(f->buf + TWZ_HEADER_SIZE,
			       (size_t)f->c.section_count * TWZ_SECTION_ENTRY_SIZE));
	twz_put64(f->buf + TWZ_H_HEADER_CHECKSUM,
		  twz_checksum(f->buf, TWZ_H_HEADER_CHECKSUM));
}

/* Every query toward every fourth target of an opened file returns, and a walk that
 * does not arrive says so. */
static void query_everything(const twz_db *db)
{
	uint32_t n = twz_node_count(db);
	twz_node *buf = malloc(((size_t)n + 1) * sizeof *buf);

	ck_assert(buf);
	for (twz_node t = 0; t < n; t += 4) {
		twz_status st = twz_flow_field(db, t, buf, n);
		expect(st == TWZ_OK || st == TWZ_E_DAMAGED, "flow field: %s",
		       twz_strerror(st));
		for (twz_node s = 0; s < n; s++) {
			size_t len;
			twz_node nx = twz_next(db, s, t);
			expect(nx == TWZ_NONE || nx < n, "next out of range");
			st = twz_path(db, s, t, buf, (size_t)n + 1, &len);
			expect(st == TWZ_OK || st == TWZ_E_UNREACHABLE ||
			       st == TWZ_E_DAMAGED, "path: %s", twz_strerror(st));
		}
	}
	free(buf);
}

static twz_status open_crafted(struct crafted *f)
{
	return twz_test_try_open(f->buf, f->len, 0);
}

START_TEST(test_junctions_crafted)
{
	struct crafted f;
	size_t size;
	uint8_t *p;

	/* Sound as baked. */
	crafted_make(&f, TWZ_TEST_MAZE);
	ck_assert_int_eq(open_crafted(&f), TWZ_OK);
	uint32_t J = twz_le32(section(&f, TWZ_SECTION_JUNCTION_PARAMS, &size) +
			      TWZ_JP_JUNCTIONS);

	/* J2: a reserved byte, and more junctions than nodes. */
	p = section(&f, TWZ_SECTION_JUNCTION_PARAMS, &size);
	p[TWZ_JP_RESERVED + 3] = 1;
	reseal(&f);
	ck_assert_int_eq(open_crafted(&f), TWZ_E_RESERVED);
	p[TWZ_JP_RESERVED + 3] = 0;
	twz_put32(p + TWZ_JP_JUNCTIONS, f.c.node_count + 1);
	reseal(&f);
	ck_assert_int_eq(open_crafted(&f), TWZ_E_DAMAGED);
	twz_put32(p + TWZ_JP_JUNCTIONS, J);
	reseal(&f);
	ck_assert_int_eq(open_crafted(&f), TWZ_OK);

	/* J3, J4: a link one cell longer, an end out of range, an end that
	 * is not beside the chain. */
	p = section(&f, TWZ_SECTION_JUNCTION_LINKS, &size);
	ck_assert_uint_gt(size, 2 * TWZ_JL_SIZE);
	uint32_t count = twz_le32(p + TWZ_JL_COUNT);
	twz_put32(p + TWZ_JL_COUNT, count + 1);
	reseal(&f);
	ck_assert_int_eq(open_crafted(&f), TWZ_E_DAMAGED);
	twz_put32(p + TWZ_JL_COUNT, count);
	uint32_t a = twz_le32(p + TWZ_JL_A);
	twz_put32(p + TWZ_JL_A, J);
	reseal(&f);
	ck_assert_int_eq(open_crafted(&f), TWZ_E_DAMAGED);
	twz_put32(p + TWZ_JL_A, (a + 7) % J);
	reseal(&f);
	ck_assert_int_eq(open_crafted(&f), TWZ_E_DAMAGED);
	twz_put32(p + TWZ_JL_A, a);

	/* J5: a row that does not start at its region's first junction. */
	p = section(&f, TWZ_SECTION_JUNCTION_RUNS, &size);
	uint32_t run = twz_le32(p);
	twz_put32(p, run + (1u << TWZ_RUN_SYMBOL_BITS));
	reseal(&f);
	ck_assert_int_eq(open_crafted(&f), TWZ_E_DAMAGED);
	twz_put32(p, run);
	/* J6: every symbol a junction has no move for is refused. */
	unsigned refused = 0;
	for (unsigned sym = 0; sym < 16; sym++) {
		twz_put32(p, (run & ~TWZ_RUN_SYMBOL_MASK) | sym);
		reseal(&f);
		twz_status st = open_crafted(&f);
		ck_assert(st == TWZ_OK || st == TWZ_E_DAMAGED);
		refused += st == TWZ_E_DAMAGED;
		if (sym == TWZ_SYMBOL_NONE || sym > TWZ_SYMBOL_NEAREST)
			ck_assert_int_eq(st, TWZ_E_DAMAGED);
	}
	ck_assert_uint_ge(refused, 4 + 5);
	twz_put32(p, run);

	/* J8: a difference past the node limit. */
	p = section(&f, TWZ_SECTION_LINK_RUNS, &size);
	uint32_t diff = twz_le32(p + TWZ_JR_STRAIGHT);
	twz_put32(p + TWZ_JR_STRAIGHT, 0x7FFFFFFFu);
	reseal(&f);
	ck_assert_int_eq(open_crafted(&f), TWZ_E_DAMAGED);
	twz_put32(p + TWZ_JR_STRAIGHT, diff);
	reseal(&f);
	ck_assert_int_eq(open_crafted(&f), TWZ_OK);

	/* J1: the bit with another layout's bits, or without its sections'
	 * reader (the plain CPD validator then finds no rows). */
	uint64_t req = twz_le64(f.buf + TWZ_H_REQUIRED);
	twz_put64(f.buf + TWZ_H_REQUIRED, req | TWZ_FEATURE_BUCKETED_ROWS);
	reseal(&f);
	ck_assert_int_ne(open_crafted(&f), TWZ_OK);
	twz_put64(f.buf + TWZ_H_REQUIRED, req & ~(uint64_t)TWZ_FEATURE_JUNCTIONS);
	reseal(&f);
	ck_assert_int_eq(open_crafted(&f), TWZ_E_DAMAGED);
	twz_put64(f.buf + TWZ_H_REQUIRED, req);
	f.buf[TWZ_H_METHOD] = TWZ_METHOD_TRANSIT;
	f.buf[TWZ_H_NODE_ORDER] = TWZ_ORDER_BLOCKS;
	reseal(&f);
	ck_assert_int_ne(open_crafted(&f), TWZ_OK);
	free(f.buf);
}
END_TEST

/* Bytes of the junction sections changed at random, checksums resealed:
 * each file is refused, or opens and answers every query without a
 * crash, a read out of bounds (under the sanitizers) or a hang. */
START_TEST(test_junctions_fuzz)
{
	struct crafted f;
	uint64_t state = 0xF022 + (uint64_t)_i;
	unsigned opened = 0, refused = 0;

	crafted_make(&f, _i % 2 ? TWZ_TEST_ROOMS : TWZ_TEST_MAZE);
	uint8_t *orig = twz_test_dup_bytes(f.buf, f.len);
	for (unsigned round = 0; round < 100; round++) {
		memcpy(f.buf, orig, f.len);
		uint32_t kind = TWZ_SECTION_JUNCTION_FIRST + round % 7;
		size_t size;
		uint8_t *p = section(&f, kind, &size);
		if (!size)
			continue;
		unsigned flips = 1 + round % 3;
		if (round % 4 == 3) {
			/* Answers that pass every check but are wrong: other
			 * differences in range, other moves from junctions. */
			int links = round % 8 == 3;
			p = section(&f, links ? TWZ_SECTION_LINK_RUNS
					      : TWZ_SECTION_JUNCTION_RUNS, &size);
			size_t step = links ? TWZ_JR_SIZE : 4;
			for (unsigned k = 0; k < 4 * flips; k++) {
				state = state * 6364136223846793005ull + 1442695040888963407ull;
				uint8_t *e = p + (size_t)(state >> 20) % (size / step) * step;
				if (links)
					twz_put32(e + 4 + 4 * (state >> 63),
						  (uint32_t)((int32_t)(state >> 40 & 63) - 32));
				else
					twz_put32(e, (twz_le32(e) & ~TWZ_RUN_SYMBOL_MASK) |
						  (unsigned)(state >> 40) % 11);
			}
			flips = 0;
		}
		for (unsigned k = 0; k < flips; k++) {
			state = state * 6364136223846793005ull + 1442695040888963407ull;
			size_t at = (size_t)(state >> 20) % size;
			p[at] = round % 5 == 0 ? (uint8_t)(state >> 12)
					       : (uint8_t)(p[at] ^ (1u << (state >> 60 & 7)));
		}
		reseal(&f);
		uint8_t *copy = twz_test_dup_bytes(f.buf, f.len);
		twz_db *db = NULL;
		twz_status st = twz_open_memory(copy, f.len, 0, &db);
		if (st == TWZ_OK) {
			opened++;
			query_everything(db);
			twz_close(db);
		} else {
			refused++;
			ck_assert_ptr_null(db);
		}
		free(copy);
	}
	printf("# fuzz %d: %u opened, %u refused\n", _i, opened, refused);
	ck_assert_uint_gt(refused, 0);
	free(orig);
	free(f.buf);
}
END_TEST

/* ---- the tool ---------------------------------------------------------- */

START_TEST(test_junctions_tool)
{
	char dir[4096], out[4200];
	struct twz_test_run r;
	const char *level = twz_test_source_file("data/junctions.map");
	const char *scen = twz_test_source_file("data/junctions.map.scen");

	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "twz_junctions_"));
	snprintf(out, sizeof out, "%s/j.twz", dir);
	const char *build[] = { "build", level, "-o", out, "--junctions", "--quiet",
				NULL };
	twz_test_run_tool(build, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "build: %s", r.err);
	twz_test_run_free(&r);

	const char *verify[] = { "verify", out, scen, NULL };
	twz_test_run_tool(verify, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "verify: %s%s", r.out, r.err);
	twz_test_run_free(&r);

	const char *info[] = { "info", out, NULL };
	twz_test_run_tool(info, NULL, 0, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "junctions    ") && strstr(r.out, "links over"),
		      "info: %s", r.out);
	twz_test_run_free(&r);
	const char *info_json[] = { "info", out, "--json", NULL };
	twz_test_run_tool(info_json, NULL, 0, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "\"junctions\":{\"junctions\":"), "info: %s", r.out);
	twz_test_run_free(&r);

	/* twigz check knows the option: up to date with it, stale without. */
	const char *check_same[] = { "check", level, out, "--junctions", NULL };
	twz_test_run_tool(check_same, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "check --junctions: %s%s", r.out, r.err);
	twz_test_run_free(&r);
	const char *check_plain[] = { "check", level, out, NULL };
	twz_test_run_tool(check_plain, NULL, 0, &r);
	ck_assert_msg(r.status == 1 && strstr(r.out, "stale"), "check: %s%s", r.out,
		      r.err);
	twz_test_run_free(&r);

	/* What --junctions does not combine with: usage, a message, no file. */
	static const char *const refused[][3] = {
		{ "--method", "transit", "--method cpd only" },
		{ "--agent-sizes", "1,2", "--agent-sizes" },
		{ "--shard", "1/2", "--shard" },
		{ "--format", "1.2", "format 1.4" },
		{ "--apsp", "floyd", "--apsp dijkstra only" },
	};
	snprintf(out, sizeof out, "%s/refused.twz", dir);
	for (unsigned i = 0; i < sizeof refused / sizeof *refused; i++) {
		const char *args[] = { "build", level, "-o", out, "--junctions",
				       refused[i][0], refused[i][1], NULL };
		twz_test_run_tool(args, NULL, 0, &r);
		ck_assert_msg(r.status == 2 && strstr(r.err, refused[i][2]),
			      "%s %s: status %d, %s", refused[i][0], refused[i][1],
			      r.status, r.err);
		twz_test_run_free(&r);
		ck_assert_ptr_null(twz_test_try_read_file(out, NULL));
	}
	/* Size 1 alone and --apsp dijkstra are the plain bake. */
	const char *size1[] = { "build", level, "-o", out, "--junctions",
				"--agent-sizes", "1", "--apsp", "dijkstra",
				"--quiet", NULL };
	twz_test_run_tool(size1, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);
	twz_test_remove_tree(dir);
}
END_TEST

static Suite *junctions_suite(void)
{
	Suite *s = suite_create("junctions");
	TCase *tc = tcase_create("answers");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_junctions_shapes);
	tcase_add_test(tc, test_junctions_small_level);
	tcase_add_test(tc, test_junctions_generated);
	tcase_add_test(tc, test_junctions_random);
	tcase_add_test(tc, test_junctions_data_maze);
	tcase_add_test(tc, test_junctions_threads);
	tcase_add_test(tc, test_junctions_searches_agree);
	tcase_add_test(tc, test_junctions_golden);
	suite_add_tcase(s, tc);

	tc = tcase_create("files");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_junctions_crafted);
	tcase_add_loop_test(tc, test_junctions_fuzz, 0, 4);
	tcase_add_test(tc, test_junctions_tool);
	suite_add_tcase(s, tc);

	tc = tcase_create("movingai");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_junctions_movingai_maze);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(junctions_suite());
}
