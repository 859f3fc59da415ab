/*
 * check_transit.c - TRANSIT databases (`--method transit`): every pair of
 * small hand-made and generated levels against a plain Dijkstra
 * (test_support.c) through the public API, with block grids small enough
 * that the local/global boundary, the transit table and the chunked walk
 * are all exercised; the Moving AI scenarios of a dev level; the
 * validator on damaged and crafted files. Each in both layouts: the block
 * lists of format 1.1 and the access nodes of 1.4.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_sizes.h"
#include "bake_level.h"
#include "level_scen.h"
#include "test_support.h"
#include "transit.h"
#include "twigz.h"
#include "twz_format.h"
#include "twz_validate.h"

/* ---- baking ---------------------------------------------------------- */

struct bake {
	uint8_t *buf;
	size_t len;
	struct twz_transit_db db;   /* kept for the block grid */
};

/* Bakes write the access-node layout (format 1.4) in the test cases
 * whose fixture sets this, the block lists of 1.1 in the others. */
static int use_access;

static void access_on(void)
{
	use_access = 1;
}

static void access_off(void)
{
	use_access = 0;
}

static void bake_transit(struct bake *bk, const struct twz_grid *g,
			 unsigned connectivity, unsigned grid, unsigned inner,
			 unsigned outer, unsigned codec, unsigned threads)
{
	struct twz_bake_options opt;
	struct twz_transit_options topt = { grid, inner, outer };
	struct twz_error err;

	twz_bake_options_default(&opt);
	opt.connectivity = connectivity;
	opt.codec = codec;
	opt.level = 9;      /* as the golden file was made */
	opt.threads = threads;
	opt.name = "test level";
	opt.transit_far = use_access;
	memset(&err, 0, sizeof err);
	ck_assert_msg(twz_bake_transit(g, &opt, &topt, &bk->db, &err) == 0,
		      "bake: %s", err.msg);
	ck_assert_msg(twz_transit_encode(&bk->db, g, &opt, &bk->buf, &bk->len,
					 &err) == 0, "encode: %s", err.msg);
}

static void bake_free(struct bake *bk)
{
	free(bk->buf);
	twz_transit_db_free(&bk->db);
}

/* ---- every pair against Dijkstra --------------------------------------- */

struct tally {
	uint64_t local, global, unreachable;
};

/* Whether the pair is global by the file's own rule (transit.h). */
static int pair_global(const struct twz_graph *tg, uint32_t a,
		       uint32_t b)
{
	return !twz_blocks_within(tg, tg->node_block[a], tg->node_block[b],
				  tg->outer);
}

/* The move from cell a to cell b, or -1 when they are not one legal move
 * apart. */
static int move_between(const struct twz_grid *g, unsigned conn, size_t a,
			size_t b)
{
	for (unsigned m = 0; m < conn; m++) {
		int64_t x = (int64_t)(a % g->width) + twz_test_move_dx(m);
		int64_t y = (int64_t)(a / g->width) + twz_test_move_dy(m);
		if (x == (int64_t)(b % g->width) && y == (int64_t)(b / g->width))
			return twz_test_move_legal(g, conn, (uint32_t)(a % g->width),
						   (uint32_t)(a / g->width), m) ? (int)m : -1;
	}
	return -1;
}

/*
 * Cost, next move, whole path (every path_every-th pair) and flow field
 * (every flow_every-th target) of every pair of the level, against
 * Dijkstra from every cell.
 */

static void check_level(const char *name, const struct twz_grid *g,
			unsigned conn, const struct twz_cost *dist,
			const struct bake *bk, unsigned path_every,
			unsigned flow_every, struct tally *tl)
{
	size_t cells = (size_t)g->width * g->height;
	twz_node *buf = malloc((cells + 1) * sizeof *buf);
	twz_node *flow = malloc((cells + 1) * sizeof *flow);
	twz_db *db;

	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(flow);
	twz_status st = twz_open_memory(bk->buf, bk->len, 0, &db);
	ck_assert_msg(st == TWZ_OK, "%s: open: %s", name, twz_strerror(st));
	twz_info info;
	ck_assert_int_eq(twz_get_info(db, &info), TWZ_OK);
	ck_assert_uint_eq(info.method, TWZ_METHOD_TRANSIT);

	uint64_t pair = 0;
	for (size_t sc = 0; sc < cells; sc++) {
		twz_node s = twz_node_at(db, sc % g->width, sc / g->width);
		expect((s != TWZ_NONE) == (g->walkable[sc] != 0),
		       "%s: cell %zu node %u", name, sc, s);
		if (s == TWZ_NONE)
			continue;
		for (size_t tc = 0; tc < cells; tc++) {
			if (!g->walkable[tc])
				continue;
			twz_node t = twz_node_at(db, tc % g->width, tc / g->width);
			struct twz_cost want = dist[sc * cells + tc];
			uint32_t cs = 0, cd = 0;
			twz_status r = twz_cost_exact(db, s, t, &cs, &cd);
			twz_node nx = twz_next(db, s, t);
			pair++;
			if (twz_test_cost_eq(want, twz_test_unreachable)) {
				tl->unreachable++;
				expect(r == TWZ_E_UNREACHABLE && nx == TWZ_NONE &&
				       isinf(twz_cost(db, s, t)),
				       "%s: %zu -> %zu should be unreachable (%s, next %u)",
				       name, sc, tc, twz_strerror(r), nx);
				continue;
			}
			if (pair_global(&bk->db.graph, s, t))
				tl->global++;
			else
				tl->local++;
			expect(r == TWZ_OK && cs == want.straight && cd == want.diagonal,
			       "%s: (%zu,%zu) -> (%zu,%zu): cost %u+%u*sqrt2 (%s), "
			       "Dijkstra %u+%u*sqrt2", name, sc % g->width, sc / g->width,
			       tc % g->width, tc / g->width, cs, cd, twz_strerror(r),
			       want.straight, want.diagonal);
			if (s == t) {
				expect(nx == t, "%s: next of a node to itself", name);
				continue;
			}
			uint32_t x, y;
			expect(twz_node_xy(db, nx, &x, &y) == TWZ_OK, "%s: %zu -> %zu: "
			       "next %u is no node", name, sc, tc, nx);
			size_t ncell = (size_t)y * g->width + x;
			int m = move_between(g, conn, sc, ncell);
			expect(m >= 0 &&
			       twz_test_cost_eq(twz_test_cost_add_move(
					dist[tc * cells + ncell], (unsigned)m), want),
			       "%s: (%zu,%zu) -> (%zu,%zu): next (%u,%u) is not an "
			       "optimal move", name, sc % g->width, sc / g->width,
			       tc % g->width, tc / g->width, x, y);
			if (pair % path_every)
				continue;
			size_t len = 0;
			r = twz_path(db, s, t, buf, cells + 1, &len);
			expect(r == TWZ_OK && len >= 2 && buf[0] == s && buf[len - 1] == t,
			       "%s: path %zu -> %zu: %s, %zu nodes", name, sc, tc,
			       twz_strerror(r), len);
			struct twz_cost walked = { 0, 0 };
			for (size_t i = 1; i < len; i++) {
				uint32_t x0, y0, x1, y1;
				twz_node_xy(db, buf[i - 1], &x0, &y0);
				twz_node_xy(db, buf[i], &x1, &y1);
				int mv = move_between(g, conn, (size_t)y0 * g->width + x0,
						      (size_t)y1 * g->width + x1);
				expect(mv >= 0, "%s: path %zu -> %zu: step %zu is not a "
				       "legal move", name, sc, tc, i);
				walked = twz_test_cost_add_move(walked, (unsigned)mv);
			}
			expect(twz_test_cost_eq(walked, want), "%s: path %zu -> %zu costs "
			       "%u+%u*sqrt2, not %u+%u*sqrt2", name, sc, tc,
			       walked.straight, walked.diagonal, want.straight,
			       want.diagonal);
			/* A buffer one short: the status says so, *len has all. */
			size_t short_len = 0;
			r = twz_path(db, s, t, buf, len - 1, &short_len);
			expect(r == TWZ_E_BUFFER_TOO_SMALL && short_len == len,
			       "%s: short buffer: %s, %zu", name, twz_strerror(r),
			       short_len);
		}
	}
	/* Flow fields agree with twz_next. */
	uint32_t n = twz_node_count(db);
	for (twz_node t = 0; t < n; t += flow_every) {
		ck_assert_int_eq(twz_flow_field(db, t, flow, cells + 1), TWZ_OK);
		for (twz_node v = 0; v < n; v++)
			expect(flow[v] == twz_next(db, v, t), "%s: flow field", name);
	}
	twz_close(db);
	free(buf);
	free(flow);
}

/* Bake and check one level with one set of parameters. */
static struct tally check_params(const char *name, const struct twz_grid *g,
				 unsigned conn, const struct twz_cost *dist,
				 unsigned grid, unsigned inner, unsigned outer,
				 unsigned path_every)
{
	struct bake bk;
	struct tally tl = { 0, 0, 0 };
	char full[256];

	snprintf(full, sizeof full, "%s, %u-connected, grid %u, squares %u/%u",
		 name, conn, grid, inner, outer);
	bake_transit(&bk, g, conn, grid, inner, outer, TWZ_CODEC_ZSTD, 2);
	check_level(full, g, conn, dist, &bk, path_every, 7, &tl);
	bake_free(&bk);
	return tl;
}

/* ---- Hand-made levels: where the boundary matters ---------------------- */

/* A one-square corridor that winds back and forth: targets near by
 * coordinates are far by path, so local rows must come from searches that
 * run far outside the outer square, and walks turn global mid-way. */
static const char serpentine[] =
	"..........................................\n"
	"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@.\n"
	"..........................................\n"
	".@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
	"..........................................\n"
	"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@.\n"
	"..........................................\n"
	".@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
	"..........................................\n";

/* Pockets: closed rooms, single squares, a room reachable only through a
 * long loop; some regions lie wholly inside one outer square. */
static const char pockets[] =
	"..............@.......@...........\n"
	".@@@@@@@@@@@@.@.@@@@@.@.@@@@@@@@@.\n"
	".@..........@.@.@...@.@.@.......@.\n"
	".@..........@.@.@.@.@.@.@.......@.\n"
	".@..........@...@.@...@.@.......@.\n"
	".@@@@@@@@@@@@@@@@.@@@@@.@@@@.@@@@.\n"
	"..................@...........@...\n"
	"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@.\n"
	".@.@.@...@@@.......@@@@@@@@@@@@@@.\n"
	"...@...@.@.@.@@@@@.@.............@\n"
	"@@@@@@@@@@@@.@...@.@.@@@@@@@@@@@@@\n"
	"...........@.@.@.@.@.............@\n"
	".@@@@@@@@@.@...@...@@@@@@@@@@@@@.@\n"
	"...........@@@@@@@@@..............\n";

/* Narrower than the outer square: with blocks of 4, the 5 x 5 outer
 * square is 20 squares across, the level 6. */
static const char narrow[] =
	"......\n"
	".@@@@.\n"
	"......\n"
	"@@.@@@\n"
	"......\n"
	".@@@@.\n"
	"......\n"
	"@@@@..\n"
	"......\n"
	".@@@@@\n"
	"......\n"
	"@@@@@.\n"
	"......\n"
	".@.@.@\n"
	"......\n"
	"@@@@@.\n"
	"......\n"
	".@@@@@\n"
	"......\n"
	"@@@@@.\n"
	"......\n"
	".@@@@@\n"
	"......\n"
	"@@@@@.\n"
	"......\n"
	".@@@@@\n"
	"......\n"
	"@@@@@.\n"
	"......\n"
	".@@@@@\n"
	"......\n"
	"@@@@@.\n"
	"......\n"
	".@@@@@\n"
	"......\n"
	"@@.@@.\n"
	"......\n";

/* A wall with one gap at the far end: neighbours across it are local by
 * blocks, the path between them global by length. */
static const char wall[] =
	"........................................\n"
	"........................................\n"
	"........................................\n"
	"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@.@\n"
	"........................................\n"
	"........................................\n"
	"........................................\n"
	"........@@@@@@@@@@@@@@@@@@@@............\n"
	"........@..................@............\n"
	"........@..................@............\n"
	"........@@@@@@@@@@@@@@.@@@@@............\n"
	"........................................\n";

/* Open ground: ties everywhere, the tie-break decides the transit nodes. */
static const char open_field[] =
	"........................\n"
	"........................\n"
	"........................\n"
	"........................\n"
	"........................\n"
	"........................\n"
	"........................\n"
	"........................\n"
	"........................\n"
	"........................\n"
	"........................\n"
	"........................\n";

static const struct {
	const char *name;
	const char *text;
} hand_levels[] = {
	{ "serpentine", serpentine },
	{ "pockets", pockets },
	{ "narrow", narrow },
	{ "wall", wall },
	{ "open field", open_field },
};

/* Grids (blocks across the longer side) and square radii the hand-made
 * levels are baked with. */
static const unsigned hand_params[][3] = {
	{ 14, 1, 2 }, { 10, 1, 2 }, { 7, 1, 3 }, { 21, 2, 4 }, { 42, 1, 2 },
};

START_TEST(test_transit_hand_levels)
{
	struct twz_grid g;
	struct tally all = { 0, 0, 0 };

	twz_test_grid_from_text(&g, hand_levels[_i].text);
	for (unsigned conn = 4; conn <= 8; conn += 4) {
		struct twz_cost *dist = twz_test_dijkstra_all(&g, conn);
		for (size_t p = 0; p < sizeof hand_params / sizeof hand_params[0]; p++) {
			/* Cost and first move of every pair, the whole
			 * path of every third. */
			struct tally tl = check_params(hand_levels[_i].name, &g, conn,
						       dist, hand_params[p][0],
						       hand_params[p][1],
						       hand_params[p][2], 3);
			all.local += tl.local;
			all.global += tl.global;
			all.unreachable += tl.unreachable;
		}
		free(dist);
	}
	/* The grids make both kinds of pair (a level narrower than the
	 * outer square still has global pairs along its length). */
	ck_assert_msg(all.local > 0 && all.global > 0,
		      "%s: %llu local, %llu global pairs", hand_levels[_i].name,
		      (unsigned long long)all.local, (unsigned long long)all.global);
	if (!strcmp(hand_levels[_i].name, "pockets"))
		ck_assert_uint_gt(all.unreachable, 0);
	twz_grid_free(&g);
}
END_TEST

/* The default grid on a small level: everything local. */
START_TEST(test_transit_default_grid_small_level)
{
	struct twz_grid g;
	struct tally tl;

	twz_test_grid_from_text(&g, wall);
	struct twz_cost *dist = twz_test_dijkstra_all(&g, 8);
	tl = check_params("wall, default grid", &g, 8, dist, 0, 0, 0, 1);
	free(dist);
	ck_assert_uint_gt(tl.local, 0);
	twz_grid_free(&g);
}
END_TEST

/* ---- Generated levels ------------------------------------------------ */

START_TEST(test_transit_generated_levels)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i / 2);
	unsigned conn = _i % 2 ? 4 : 8;
	/* Size, grid, outer radius, seed: blocks of 4, of 6 with a wider
	 * outer square, and of 2 (many blocks, long walks in chunks). */
	static const unsigned configs[][5] = {
		{ 28, 20, 7, 2, 11 }, { 28, 20, 5, 3, 12 }, { 22, 16, 11, 2, 13 },
	};
	struct tally all = { 0, 0, 0 };

	for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++) {
		struct twz_grid g;
		char name[96];
		twz_test_generate(&g, kind, configs[k][0], configs[k][1], configs[k][4]);
		snprintf(name, sizeof name, "%s %ux%u", twz_test_kind_name(kind),
			 configs[k][0], configs[k][1]);
		struct twz_cost *dist = twz_test_dijkstra_all(&g, conn);
		struct tally tl = check_params(name, &g, conn, dist, configs[k][2], 1,
					       configs[k][3], 3);
		free(dist);
		all.local += tl.local;
		all.global += tl.global;
		all.unreachable += tl.unreachable;
		twz_grid_free(&g);
	}
	ck_assert_uint_gt(all.local, 0);
	/* Pockets are too small for global pairs; their point is the
	 * unreachable ones. */
	if (kind == TWZ_TEST_POCKETS)
		ck_assert_uint_gt(all.unreachable, 0);
	else
		ck_assert_uint_gt(all.global, 0);
}
END_TEST

/* ---- Files ------------------------------------------------------------- */

/* The same level and options give the same bytes on any thread count. */
START_TEST(test_transit_deterministic)
{
	struct twz_grid g;
	struct bake a, b, c;

	twz_test_generate(&g, TWZ_TEST_CAVES, 60, 40, 5);
	bake_transit(&a, &g, 8, 10, 1, 2, TWZ_CODEC_ZSTD, 1);
	bake_transit(&b, &g, 8, 10, 1, 2, TWZ_CODEC_ZSTD, 3);
	bake_transit(&c, &g, 8, 10, 1, 2, TWZ_CODEC_RAW, 2);
	ck_assert_uint_eq(a.len, b.len);
	ck_assert(memcmp(a.buf, b.buf, a.len) == 0);
	/* Raw and zstd sections hold the same answers. */
	twz_db *da, *dc;
	ck_assert_int_eq(twz_open_memory(a.buf, a.len, 0, &da), TWZ_OK);
	ck_assert_int_eq(twz_open_memory(c.buf, c.len, 0, &dc), TWZ_OK);
	for (twz_node s = 0; s < twz_node_count(da); s += 3)
		for (twz_node t = 0; t < twz_node_count(da); t += 5)
			ck_assert_uint_eq(twz_next(da, s, t), twz_next(dc, s, t));
	twz_close(da);
	twz_close(dc);
	bake_free(&a);
	bake_free(&b);
	bake_free(&c);
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_transit_options_refused)
{
	struct twz_grid g;
	struct twz_bake_options opt;
	struct twz_transit_options topt = { 4, 2, 3 };
	struct twz_transit_db db;
	struct twz_error err;

	twz_test_grid_from_text(&g, open_field);
	twz_bake_options_default(&opt);
	memset(&err, 0, sizeof err);
	ck_assert_int_ne(twz_bake_transit(&g, &opt, &topt, &db, &err), 0);
	ck_assert_msg(strstr(err.msg, "outer") != NULL, "message: %s", err.msg);
	twz_grid_free(&g);
}
END_TEST

/* The section of kind k in a raw file. */
static uint8_t *section(uint8_t *buf, size_t len, uint32_t kind, size_t *size)
{
	struct twz_container c;

	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	for (uint32_t i = 0; i < c.section_count; i++)
		if (c.sections[i].kind == kind) {
			ck_assert_uint_eq(c.sections[i].codec, TWZ_CODEC_RAW);
			*size = (size_t)c.sections[i].size;
			return buf + c.sections[i].offset;
		}
	ck_abort_msg("no section of kind %u", kind);
	return NULL;
}

/* Whether the raw file buf holds a section of kind. */
static int has_section(const uint8_t *buf, size_t len, uint32_t kind)
{
	struct twz_container c;

	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	for (uint32_t i = 0; i < c.section_count; i++)
		if (c.sections[i].kind == kind)
			return 1;
	return 0;
}

/* Damaged structure is refused at open (checksums skipped so that the
 * content checks are reached). */
START_TEST(test_transit_damage_refused)
{
	struct twz_grid g;
	struct bake bk;
	twz_db *db;
	size_t size;

	twz_test_grid_from_text(&g, wall);
	bake_transit(&bk, &g, 8, 10, 1, 2, TWZ_CODEC_RAW, 1);
	ck_assert_int_eq(twz_open_memory(bk.buf, bk.len, 0, &db), TWZ_OK);
	twz_close(db);

	struct {
		uint32_t kind;
		size_t at;      /* byte offset in the section */
		uint8_t value;
		twz_status want;
	} cases[] = {
		{ TWZ_SECTION_TRANSIT_PARAMS, TWZ_TP_SIDE, 0, TWZ_E_DAMAGED },
		{ TWZ_SECTION_TRANSIT_PARAMS, TWZ_TP_OUTER, 1, TWZ_E_DAMAGED },
		{ TWZ_SECTION_TRANSIT_PARAMS, TWZ_TP_INNER, 0, TWZ_E_DAMAGED },
		{ TWZ_SECTION_TRANSIT_PARAMS, TWZ_TP_DIST_BYTES, 5, TWZ_E_DAMAGED },
		{ TWZ_SECTION_TRANSIT_PARAMS, TWZ_TP_MAX_LIST + 1, 0x40, TWZ_E_LIMIT },
		{ TWZ_SECTION_TRANSIT_PARAMS, TWZ_TP_RESERVED + 3, 1, TWZ_E_RESERVED },
		{ TWZ_SECTION_TRANSIT_BLOCKS, TWZ_TB_SIZE + TWZ_TB_FIRST_NODE, 0xEE,
		  TWZ_E_DAMAGED },
		{ TWZ_SECTION_TRANSIT_BLOCKS, TWZ_TB_SIZE + TWZ_TB_FIRST_DIST + 2, 0x01,
		  TWZ_E_DAMAGED },
		{ TWZ_SECTION_TRANSIT_LISTS, 3, 0x7F, TWZ_E_DAMAGED },
		{ TWZ_SECTION_TRANSIT_NODES, 3, 0x7F, TWZ_E_DAMAGED },
		/* Half of an entry unreachable, the other half not. */
		{ TWZ_SECTION_TRANSIT_NODE_DIST, 0, 0xFF, TWZ_E_DAMAGED },
		{ TWZ_SECTION_TRANSIT_TABLE, 0, 0xFF, TWZ_E_DAMAGED },
		{ TWZ_SECTION_TRANSIT_ROW_OFFSETS, 0, 1, TWZ_E_DAMAGED },
		{ TWZ_SECTION_TRANSIT_RUNS, 3, 0x10, TWZ_E_DAMAGED },
		{ TWZ_SECTION_NODE_COMPONENT, 0, 1, TWZ_E_DAMAGED },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t *copy = malloc(bk.len);
		ck_assert_ptr_nonnull(copy);
		memcpy(copy, bk.buf, bk.len);
		uint8_t *sec = section(copy, bk.len, cases[i].kind, &size);
		ck_assert_uint_gt(size, cases[i].at);
		if (cases[i].kind == TWZ_SECTION_TRANSIT_NODE_DIST ||
		    cases[i].kind == TWZ_SECTION_TRANSIT_TABLE) {
			/* i16 planes here: entry 0's straight half becomes
			 * the unreachable mark, or stops being it, while its
			 * diagonal half stays. */
			int far = sec[0] == 0x00 && sec[1] == 0x80;
			sec[0] = 0x00;
			sec[1] = far ? 0x00 : 0x80;
		} else if (sec[cases[i].at] == cases[i].value) {
			sec[cases[i].at] ^= 0x5A;
		} else {
			sec[cases[i].at] = cases[i].value;
		}
		twz_status st = twz_open_memory(copy, bk.len, TWZ_OPEN_SKIP_CHECKSUMS, &db);
		ck_assert_msg(st == cases[i].want, "case %zu (kind %u byte %zu): %s, "
			      "not %s", i, cases[i].kind, cases[i].at, twz_strerror(st),
			      twz_strerror(cases[i].want));
		/* With checksums the same damage is a checksum mismatch. */
		st = twz_open_memory(copy, bk.len, 0, &db);
		ck_assert_int_eq(st, TWZ_E_CHECKSUM);
		free(copy);
	}
	bake_free(&bk);
	twz_grid_free(&g);
}
END_TEST

/* A crafted file whose local rows send two squares to each other: the
 * walk stops at its bound with TWZ_E_DAMAGED, never hangs. */
START_TEST(test_transit_crafted_loop_bounded)
{
	struct twz_grid g;
	struct bake bk;
	twz_db *db;
	size_t size;

	twz_test_grid_from_text(&g, "........\n");
	bake_transit(&bk, &g, 8, 2, 1, 2, TWZ_CODEC_RAW, 1);
	uint8_t *runs = section(bk.buf, bk.len, TWZ_SECTION_TRANSIT_RUNS, &size);
	uint8_t *off = section(bk.buf, bk.len, TWZ_SECTION_TRANSIT_ROW_OFFSETS, &size);
	ck_assert_int_eq(twz_open_memory(bk.buf, bk.len, 0, &db), TWZ_OK);
	twz_node a = twz_node_at(db, 1, 0), b = twz_node_at(db, 2, 0);
	twz_node t = twz_node_at(db, 7, 0);
	twz_close(db);
	/* Every run of b's row: move west (3), back to a. */
	for (uint32_t r = twz_le32(off + 4 * b); r < twz_le32(off + 4 * (b + 1)); r++) {
		uint32_t v = twz_le32(runs + 4 * r);
		twz_put32(runs + 4 * r, (v & ~TWZ_RUN_SYMBOL_MASK) | 3u);
	}
	ck_assert_int_eq(twz_open_memory(bk.buf, bk.len, TWZ_OPEN_SKIP_CHECKSUMS, &db),
			 TWZ_OK);
	twz_node path[64];
	size_t len;
	ck_assert_int_eq(twz_path(db, a, t, path, 64, &len), TWZ_E_DAMAGED);
	uint32_t cs, cd;
	ck_assert_int_eq(twz_cost_exact(db, a, t, &cs, &cd), TWZ_E_DAMAGED);
	ck_assert_uint_eq(twz_next(db, b, t), a);
	twz_close(db);
	bake_free(&bk);
	twz_grid_free(&g);
}
END_TEST

/* Random damage with checksums skipped: whatever opens answers every
 * query without crashing or hanging. */
START_TEST(test_transit_random_damage_safe)
{
	struct twz_grid g;
	struct bake bk;
	uint64_t rng = 77;
	unsigned opened = 0;

	twz_test_generate(&g, TWZ_TEST_ROOMS, 30, 24, 3);
	bake_transit(&bk, &g, 8, 8, 1, 2, TWZ_CODEC_RAW, 1);
	uint8_t *copy = malloc(bk.len);
	twz_node *buf = malloc(1024 * sizeof *buf);
	ck_assert_ptr_nonnull(copy);
	ck_assert_ptr_nonnull(buf);
	for (int round = 0; round < 300; round++) {
		memcpy(copy, bk.buf, bk.len);
		for (int k = 0; k < 1 + round % 4; k++) {
			rng = rng * 6364136223846793005ull + 1442695040888963407ull;
			size_t at = TWZ_HEADER_SIZE + (size_t)(rng >> 17) %
							  (bk.len - TWZ_HEADER_SIZE);
			copy[at] ^= (uint8_t)(1u << (rng >> 60 & 7));
		}
		twz_db *db;
		if (twz_open_memory(copy, bk.len, TWZ_OPEN_SKIP_CHECKSUMS, &db) != TWZ_OK)
			continue;
		opened++;
		uint32_t n = twz_node_count(db);
		for (twz_node s = 0; s < n; s += 5)
			for (twz_node t = 0; t < n; t += 3) {
				size_t len;
				uint32_t cs, cd;
				twz_next(db, s, t);
				twz_path(db, s, t, buf, 1024, &len);
				twz_cost_exact(db, s, t, &cs, &cd);
			}
		twz_close(db);
	}
	/* Damage to distances and tables is not structural: such files
	 * open, and were queried above. */
	ck_assert_uint_gt(opened, 0);
	free(copy);
	free(buf);
	bake_free(&bk);
	twz_grid_free(&g);
}
END_TEST

/* ---- The golden file -------------------------------------------------- */

/* tests/golden/v1_1_transit.twz keeps opening and answering every pair of
 * its level, and a fresh bake as tests/golden/README says gives its
 * bytes. */
START_TEST(test_transit_golden)
{
	const char *golden = twz_test_source_file("tests/golden/v1_1_transit.twz");
	struct twz_grid g;
	struct twz_error err;
	struct bake bk;
	struct tally tl = { 0, 0, 0 };
	size_t want_len;

	memset(&err, 0, sizeof err);
	ck_assert_msg(twz_grid_load(twz_test_source_file("tests/golden/v1_0.map"),
				    &g, &err) == 0, "%s", err.msg);
	uint8_t *want = twz_test_try_read_file(golden, &want_len);
	ck_assert_msg(want != NULL, "%s is missing", golden);

	bake_transit(&bk, &g, 8, 8, 0, 0, TWZ_CODEC_RAW, 1);
	ck_assert_msg(bk.len == want_len && memcmp(bk.buf, want, want_len) == 0,
		      "a fresh bake differs from %s", golden);
	free(bk.buf);
	bk.buf = want;
	bk.len = want_len;
	struct twz_cost *dist = twz_test_dijkstra_all(&g, 8);
	check_level("golden", &g, 8, dist, &bk, 1, 1, &tl);
	ck_assert_uint_gt(tl.global, 0);
	free(dist);
	bake_free(&bk);
	twz_grid_free(&g);
}
END_TEST

/* tests/golden/v1_4_transit.twz (access nodes in 8-byte entries, format
 * 1.4, from before the packed entries) opens and answers every pair of
 * its level. */
START_TEST(test_transit_access_golden)
{
	const char *golden = twz_test_source_file("tests/golden/v1_4_transit.twz");
	struct twz_grid g;
	struct twz_error err;
	struct bake bk;
	struct tally tl = { 0, 0, 0 };
	size_t want_len;

	memset(&err, 0, sizeof err);
	ck_assert_msg(twz_grid_load(twz_test_source_file("tests/golden/v1_0.map"),
				    &g, &err) == 0, "%s", err.msg);
	uint8_t *want = twz_test_try_read_file(golden, &want_len);
	ck_assert_msg(want != NULL, "%s is missing", golden);
	ck_assert_uint_eq(twz_le16(want + TWZ_H_MINOR), 4);
	ck_assert_uint_eq(twz_le64(want + TWZ_H_REQUIRED),
			  TWZ_FEATURE_TRANSIT_ACCESS);
	size_t size;
	ck_assert_ptr_nonnull(section(want, want_len, TWZ_SECTION_ACCESS, &size));
	/* A bake with the file's block options gives the blocks that tell
	 * local pairs from global ones; the answers are the file's. */
	use_access = TWZ_TRANSIT_ACCESS_WIDE;
	bake_transit(&bk, &g, 8, 8, 0, 0, TWZ_CODEC_RAW, 1);
	use_access = 1;
	free(bk.buf);
	bk.buf = want;
	bk.len = want_len;
	struct twz_cost *dist = twz_test_dijkstra_all(&g, 8);
	check_level("golden 1.4", &g, 8, dist, &bk, 1, 1, &tl);
	ck_assert_uint_gt(tl.global, 0);
	free(dist);
	bake_free(&bk);
	twz_grid_free(&g);
}
END_TEST

/* tests/golden/v1_4_transit_packed.twz (access nodes in packed 4-byte
 * entries) opens and answers every pair of its level; a fresh bake with
 * the options its BUILD_INFO records gives the bytes of every section
 * but TRANSIT_PARAMS and the access ones (the rule that picks access
 * nodes changed since; any rule of FORMAT.md 5j is exact), is packed
 * too, and answers every pair as well. */
START_TEST(test_transit_packed_golden)
{
	const char *golden = twz_test_source_file("tests/golden/v1_4_transit_packed.twz");
	struct twz_grid g;
	struct twz_error err;
	struct twz_bake_options opt;
	struct twz_transit_options topt = { 8, 0, 0 };
	struct bake bk;
	struct tally tl = { 0, 0, 0 };
	size_t want_len;

	memset(&err, 0, sizeof err);
	ck_assert_msg(twz_grid_load(twz_test_source_file("tests/golden/v1_0.map"),
				    &g, &err) == 0, "%s", err.msg);
	uint8_t *want = twz_test_try_read_file(golden, &want_len);
	ck_assert_msg(want != NULL, "%s is missing", golden);
	ck_assert_uint_eq(twz_le16(want + TWZ_H_MINOR), 4);
	ck_assert_uint_eq(twz_le64(want + TWZ_H_REQUIRED),
			  TWZ_FEATURE_TRANSIT_ACCESS);

	twz_bake_options_default(&opt);
	opt.codec = TWZ_CODEC_RAW;
	opt.level = 9;
	opt.threads = 1;
	opt.record_build = 1;
	opt.transit_far = TWZ_TRANSIT_ACCESS;
	opt.name = "v1_0.map";
	ck_assert_msg(twz_bake_transit(&g, &opt, &topt, &bk.db, &err) == 0,
		      "bake: %s", err.msg);
	ck_assert_msg(twz_transit_encode(&bk.db, &g, &opt, &bk.buf, &bk.len,
					 &err) == 0, "encode: %s", err.msg);
	struct twz_container cw, cf;
	ck_assert_int_eq(twz_parse_container(want, want_len, &cw), TWZ_OK);
	ck_assert_int_eq(twz_parse_container(bk.buf, bk.len, &cf), TWZ_OK);
	ck_assert_uint_eq(cw.section_count, cf.section_count);
	for (uint32_t i = 0; i < cw.section_count; i++) {
		uint32_t kind = cw.sections[i].kind;
		ck_assert_uint_eq(kind, cf.sections[i].kind);
		if (kind == TWZ_SECTION_TRANSIT_PARAMS ||
		    (kind >= TWZ_SECTION_ACCESS_FIRST && kind <= TWZ_SECTION_ACCESS_FIRST + 15))
			continue;
		ck_assert_msg(cw.sections[i].size == cf.sections[i].size &&
			      memcmp(want + cw.sections[i].offset,
				     bk.buf + cf.sections[i].offset,
				     (size_t)cw.sections[i].size) == 0,
			      "a fresh bake differs from %s in kind %u", golden, kind);
	}
	size_t size;
	ck_assert_ptr_nonnull(section(want, want_len, TWZ_SECTION_ACCESS_PACKED, &size));
	ck_assert(!has_section(want, want_len, TWZ_SECTION_ACCESS));
	ck_assert_ptr_nonnull(section(bk.buf, bk.len, TWZ_SECTION_ACCESS_PACKED, &size));
	struct twz_cost *dist = twz_test_dijkstra_all(&g, 8);
	check_level("fresh 1.4 packed", &g, 8, dist, &bk, 1, 1, &tl);
	ck_assert_uint_gt(tl.global, 0);
	free(bk.buf);
	bk.buf = want;
	bk.len = want_len;
	check_level("golden 1.4 packed", &g, 8, dist, &bk, 1, 1, &tl);
	ck_assert_uint_gt(tl.global, 0);
	free(dist);
	bake_free(&bk);
	twz_grid_free(&g);
}
END_TEST

/* Access nodes are a subset of each block's list, and on these levels
 * fewer: what a far query scans. */
START_TEST(test_transit_access_fewer)
{
	struct twz_grid g;
	struct bake bk;

	twz_test_generate(&g, TWZ_TEST_ROOMS, 60, 44, 9);
	bake_transit(&bk, &g, 8, 10, 1, 2, TWZ_CODEC_RAW, 2);
	const struct twz_transit_db *db = &bk.db;
	const struct twz_graph *tg = &db->graph;
	uint64_t listed = 0;
	for (uint32_t s = 0; s < tg->node_count; s++) {
		uint32_t b = tg->node_block[s];
		uint32_t f = db->block_transit_first[b];
		uint32_t n = db->block_transit_first[b + 1] - f;
		listed += n;
		for (uint32_t k = db->access_first[s]; k < db->access_first[s + 1]; k++) {
			uint32_t old = db->access_old[db->access[k].transit];
			uint32_t j = 0;
			while (j < n && db->block_transit[f + j] != old)
				j++;
			ck_assert_msg(j < n, "node %u: access node %u not in its block's list",
				      s, old);
		}
	}
	ck_assert_uint_le(db->max_access, db->max_block_transits);
	ck_assert_uint_lt(db->access_count, listed);
	ck_assert_uint_le(db->access_transits, db->transit_count);
	bake_free(&bk);
	twz_grid_free(&g);
}
END_TEST

/* Damaged access sections are refused at open (checksums skipped so that
 * the content checks are reached). */
START_TEST(test_transit_access_damage_refused)
{
	/* _i 0: packed entries (what bakes write), 1: 8-byte entries. */
	int wide = _i == 1;
	struct twz_grid g;
	struct bake bk;
	twz_db *db;
	size_t size;

	twz_test_grid_from_text(&g, wall);
	use_access = wide ? TWZ_TRANSIT_ACCESS_WIDE : TWZ_TRANSIT_ACCESS;
	bake_transit(&bk, &g, 8, 10, 1, 2, TWZ_CODEC_RAW, 1);
	use_access = 1;
	ck_assert_int_eq(twz_open_memory(bk.buf, bk.len, 0, &db), TWZ_OK);
	twz_close(db);
	ck_assert_int_eq(has_section(bk.buf, bk.len, TWZ_SECTION_ACCESS), wide);
	ck_assert_int_eq(has_section(bk.buf, bk.len, TWZ_SECTION_ACCESS_PACKED), !wide);

	struct dcase {
		uint32_t kind;
		size_t at;      /* byte offset in the section */
		uint8_t value;
		twz_status want;
	};
	static const struct dcase common[] = {
		{ TWZ_SECTION_TRANSIT_PARAMS, TWZ_TP_DIST_BYTES, 4, TWZ_E_DAMAGED },
		{ TWZ_SECTION_TRANSIT_PARAMS, TWZ_TP_MAX_LIST + 1, 0x40, TWZ_E_LIMIT },
		{ TWZ_SECTION_ACCESS_FIRST, 0, 1, TWZ_E_DAMAGED },
		{ TWZ_SECTION_ACCESS_FIRST, 4 * 5 + 3, 0x7F, TWZ_E_DAMAGED },
		{ TWZ_SECTION_ACCESS_NODES, TWZ_AN_NODE + 3, 0x7F, TWZ_E_DAMAGED },
		{ TWZ_SECTION_ACCESS_NODES, TWZ_AN_X, 0x3F, TWZ_E_DAMAGED },
		{ TWZ_SECTION_ACCESS_NODES, TWZ_AN_ROW_END, 0x00, TWZ_E_DAMAGED },
		{ TWZ_SECTION_ACCESS_NODES, TWZ_AN_WIDTH_S, 40, TWZ_E_DAMAGED },
		{ TWZ_SECTION_ACCESS_NODES, TWZ_AN_RESERVED, 1, TWZ_E_RESERVED },
		{ TWZ_SECTION_ACCESS_NODES, TWZ_AN_ROW_BIT + TWZ_AN_SIZE, 0x00,
		  TWZ_E_DAMAGED },
		{ TWZ_SECTION_ACCESS_NODES, TWZ_AN_BASE_S + 3, 0x80, TWZ_E_DAMAGED },
		{ TWZ_SECTION_ACCESS_NODES, TWZ_AN_BASE_D + 3, 0x40, TWZ_E_DAMAGED },
	};
	static const struct dcase wide_cases[] = {
		{ TWZ_SECTION_ACCESS, TWZ_AE_TRANSIT + 3, 0x7F, TWZ_E_DAMAGED },
	};
	static const struct dcase packed_cases[] = {
		/* a place past the block's list */
		{ TWZ_SECTION_ACCESS_PACKED, 0, 0xFF, TWZ_E_DAMAGED },
		/* a diagonal count below zero: field 0 on an 8-connected
		 * level's first entry (whose reference is below 2048) */
		{ TWZ_SECTION_ACCESS_PACKED, 3, 0x00, TWZ_E_DAMAGED },
		{ TWZ_SECTION_ACCESS_BLOCK_FIRST, 0, 1, TWZ_E_DAMAGED },
		{ TWZ_SECTION_ACCESS_BLOCK_FIRST, 4 + 3, 0x7F, TWZ_E_DAMAGED },
		{ TWZ_SECTION_ACCESS_BLOCK_LIST, 3, 0x7F, TWZ_E_DAMAGED },
	};
	const struct dcase *sets[2] = { common, wide ? wide_cases : packed_cases };
	size_t counts[2] = { sizeof common / sizeof common[0],
			     wide ? sizeof wide_cases / sizeof wide_cases[0]
				  : sizeof packed_cases / sizeof packed_cases[0] };
	for (int set = 0; set < 2; set++)
	for (size_t i = 0; i < counts[set]; i++) {
		const struct dcase *cs = &sets[set][i];
		uint8_t *copy = malloc(bk.len);
		ck_assert_ptr_nonnull(copy);
		memcpy(copy, bk.buf, bk.len);
		uint8_t *sec = section(copy, bk.len, cs->kind, &size);
		ck_assert_uint_gt(size, cs->at);
		if (sec[cs->at] == cs->value)
			sec[cs->at] ^= 0x5A;
		else
			sec[cs->at] = cs->value;
		twz_status st = twz_open_memory(copy, bk.len, TWZ_OPEN_SKIP_CHECKSUMS, &db);
		ck_assert_msg(st == cs->want, "set %d case %zu (kind %u byte %zu): %s, "
			      "not %s", set, i, cs->kind, cs->at, twz_strerror(st),
			      twz_strerror(cs->want));
		st = twz_open_memory(copy, bk.len, 0, &db);
		ck_assert_int_eq(st, TWZ_E_CHECKSUM);
		free(copy);
	}
	/* The padding after the table's last row. */
	uint8_t *copy = malloc(bk.len);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, bk.buf, bk.len);
	uint8_t *tab = section(copy, bk.len, TWZ_SECTION_ACCESS_TABLE, &size);
	tab[size - 1] = 1;
	ck_assert_int_eq(twz_open_memory(copy, bk.len, TWZ_OPEN_SKIP_CHECKSUMS, &db),
			 TWZ_E_RESERVED);
	/* The access bit cleared: the sections are no 1.1 layout. */
	memcpy(copy, bk.buf, bk.len);
	twz_put64(copy + TWZ_H_REQUIRED, 0);
	twz_put64(copy + TWZ_H_HEADER_CHECKSUM, twz_checksum(copy, TWZ_H_HEADER_CHECKSUM));
	ck_assert_int_eq(twz_open_memory(copy, bk.len, TWZ_OPEN_SKIP_CHECKSUMS, &db),
			 TWZ_E_DAMAGED);
	free(copy);
	bake_free(&bk);
	twz_grid_free(&g);
}
END_TEST

/* --agent-sizes with access nodes: each layer in the 1.4 layout, the
 * file 1.4, and every layer's answers those of a Dijkstra on the cells
 * that size stands on. */
START_TEST(test_transit_access_agent_sizes)
{
	struct twz_grid g;
	struct twz_bake_options opt;
	struct twz_transit_options topt = { 8, 1, 2 };
	struct twz_agent_request req;
	struct twz_error err = { { 0 }, 0 };
	size_t len;
	uint8_t *buf = NULL;
	twz_db *db;

	twz_test_generate(&g, TWZ_TEST_ROOMS, 40, 30, 21);
	twz_bake_options_default(&opt);
	opt.threads = 2;
	opt.transit_far = TWZ_TRANSIT_ACCESS;
	ck_assert_int_eq(twz_agent_sizes_parse("1,2", &req, &err), 0);
	opt.method = TWZ_BAKE_TRANSIT;
	opt.transit = topt;
	opt.agent_sizes = 2u | 4u;
	ck_assert_msg(twz_bake_grid_encode(&g, &opt, &buf, &len, NULL, &err) == 0,
		      "%s", err.msg);
	ck_assert_uint_eq(twz_le16(buf + TWZ_H_MINOR), 4);
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &db), TWZ_OK);
	for (unsigned size = 1; size <= 2; size++) {
		/* The level that size stands on: k x k squares all open. */
		struct twz_grid gs = g;
		size_t cells = (size_t)g.width * g.height;
		gs.walkable = malloc(cells);
		ck_assert_ptr_nonnull(gs.walkable);
		for (uint32_t y = 0; y < g.height; y++)
			for (uint32_t x = 0; x < g.width; x++) {
				int open = x + size <= g.width && y + size <= g.height;
				for (uint32_t dy = 0; open && dy < size; dy++)
					for (uint32_t dx = 0; open && dx < size; dx++)
						open = g.walkable[(size_t)(y + dy) * g.width + x + dx] != 0;
				gs.walkable[(size_t)y * g.width + x] = (uint8_t)open;
			}
		const twz_db *v;
		ck_assert_int_eq(twz_view_agent(db, size, &v), TWZ_OK);
		struct twz_cost *dist = twz_test_dijkstra_all(&gs, 8);
		for (size_t sc = 0; sc < cells; sc += 3) {
			twz_node s = twz_node_at(v, sc % g.width, sc / g.width);
			ck_assert_uint_eq(s != TWZ_NONE, gs.walkable[sc] != 0);
			if (s == TWZ_NONE)
				continue;
			for (size_t tc = 0; tc < cells; tc++) {
				twz_node t = twz_node_at(v, tc % g.width, tc / g.width);
				if (t == TWZ_NONE)
					continue;
				struct twz_cost want = dist[sc * cells + tc];
				uint32_t cs = 0, cd = 0;
				twz_status r = twz_cost_exact(v, s, t, &cs, &cd);
				if (twz_test_cost_eq(want, twz_test_unreachable))
					expect(r == TWZ_E_UNREACHABLE, "size %u: %zu -> %zu "
					       "reachable", size, sc, tc);
				else
					expect(r == TWZ_OK && cs == want.straight &&
					       cd == want.diagonal, "size %u: %zu -> %zu: "
					       "%u+%u, Dijkstra %u+%u", size, sc, tc, cs, cd,
					       want.straight, want.diagonal);
			}
		}
		free(dist);
		free(gs.walkable);
	}
	twz_close(db);
	free(buf);
	twz_grid_free(&g);
}
END_TEST

/* ---- Moving AI scenarios ------------------------------------------------- */

/* Larger levels are the benchmark's (ninja bench: every scenario of
 * each dev level, baked with TRANSIT, against an A*). */
static const char *const movingai_levels[] = { "dao/arena" };

START_TEST(test_transit_movingai_scenarios)
{
	char scen[4200];
	struct twz_grid g;
	struct twz_scen sc;
	struct bake bk;
	twz_db *db;

	if (twz_test_movingai_load(movingai_levels[_i], &g, &sc, scen,
				   sizeof scen) != 0) {
		fprintf(stderr, "# check_transit: Moving AI levels not found at %s; "
			"skipping %s\n", twz_test_movingai_where(), movingai_levels[_i]);
		return;
	}
	bake_transit(&bk, &g, 8, 0, 0, 0, TWZ_CODEC_ZSTD, 2);
	ck_assert_int_eq(twz_open_memory(bk.buf, bk.len, 0, &db), TWZ_OK);
	twz_test_check_scenarios(db, &g, &sc, scen);
	twz_close(db);
	bake_free(&bk);
	twz_scen_free(&sc);
	twz_grid_free(&g);
}
END_TEST

static Suite *twz_transit_suite(void)
{
	Suite *s = suite_create("transit");
	TCase *tc;

	tc = tcase_create("Levels");
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_transit_hand_levels, 0,
			    sizeof hand_levels / sizeof hand_levels[0]);
	tcase_add_test(tc, test_transit_default_grid_small_level);
	tcase_add_loop_test(tc, test_transit_generated_levels, 0,
			    2 * TWZ_TEST_KIND_COUNT);
	suite_add_tcase(s, tc);

	tc = tcase_create("Files");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_transit_deterministic);
	tcase_add_test(tc, test_transit_options_refused);
	tcase_add_test(tc, test_transit_damage_refused);
	tcase_add_test(tc, test_transit_crafted_loop_bounded);
	tcase_add_test(tc, test_transit_random_damage_safe);
	tcase_add_test(tc, test_transit_golden);
	suite_add_tcase(s, tc);

	tc = tcase_create("MovingAI");
	tcase_set_timeout(tc, 1200);
	tcase_add_loop_test(tc, test_transit_movingai_scenarios, 0,
			    sizeof movingai_levels / sizeof movingai_levels[0]);
	suite_add_tcase(s, tc);

	/* The same levels and files in the access-node layout (1.4). */
	tc = tcase_create("Access levels");
	tcase_set_timeout(tc, 600);
	tcase_add_checked_fixture(tc, access_on, access_off);
	tcase_add_loop_test(tc, test_transit_hand_levels, 0,
			    sizeof hand_levels / sizeof hand_levels[0]);
	tcase_add_test(tc, test_transit_default_grid_small_level);
	tcase_add_loop_test(tc, test_transit_generated_levels, 0,
			    2 * TWZ_TEST_KIND_COUNT);
	suite_add_tcase(s, tc);

	tc = tcase_create("Access files");
	tcase_set_timeout(tc, 600);
	tcase_add_checked_fixture(tc, access_on, access_off);
	tcase_add_test(tc, test_transit_deterministic);
	tcase_add_test(tc, test_transit_access_fewer);
	tcase_add_loop_test(tc, test_transit_access_damage_refused, 0, 2);
	tcase_add_test(tc, test_transit_crafted_loop_bounded);
	tcase_add_test(tc, test_transit_random_damage_safe);
	tcase_add_test(tc, test_transit_access_golden);
	tcase_add_test(tc, test_transit_packed_golden);
	tcase_add_test(tc, test_transit_access_agent_sizes);
	suite_add_tcase(s, tc);

	tc = tcase_create("Access MovingAI");
	tcase_set_timeout(tc, 1200);
	tcase_add_checked_fixture(tc, access_on, access_off);
	tcase_add_loop_test(tc, test_transit_movingai_scenarios, 0,
			    sizeof movingai_levels / sizeof movingai_levels[0]);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_transit_suite());
}
