/*
 * check_agent_sizes.c - agent sizes (format section 5c): files baked for
 * several agent sizes, against a clearance map and a plain Dijkstra
 * written here from the rule (an agent of size k stands on a cell when
 * the k x k square with the cell as its corner of lowest x and y is
 * walkable, and moves over those cells as a size-1 agent does); the
 * views of the runtime; layout sharing; byte identity; crafted files
 * with bad AGENT_SIZES tables; and the tool's options.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_sizes.h"
#include "bake_level.h"
#include "cli_common.h"
#include "test_support.h"
#include "twz_format.h"
#include "twz_validate_layers.h"

/* ---- the oracle: clearance by brute force, the agent's level ---------- */

/* The largest k for which the k x k square at (x, y) is walkable. */
static unsigned brute_clearance(const struct twz_grid *g, uint32_t x,
				uint32_t y)
{
	unsigned k = 0;

	for (;;) {
		unsigned n = k + 1;
		if (x + n > g->width || y + n > g->height)
			return k;
		for (uint32_t dy = 0; dy < n; dy++)
			for (uint32_t dx = 0; dx < n; dx++)
				if (!g->walkable[(size_t)(y + dy) * g->width + x + dx])
					return k;
		k = n;
	}
}

/* The level an agent of size k sees, from brute_clearance. */
static void agent_grid(const struct twz_grid *g, const unsigned *clr,
		       unsigned k, struct twz_grid *out)
{
	size_t cells = (size_t)g->width * g->height;

	*out = *g;
	out->walkable = malloc(cells ? cells : 1);
	ck_assert_ptr_nonnull(out->walkable);
	for (size_t i = 0; i < cells; i++)
		out->walkable[i] = clr[i] >= k;
}

static unsigned *clearance_of(const struct twz_grid *g)
{
	size_t cells = (size_t)g->width * g->height;
	unsigned *clr = malloc((cells ? cells : 1) * sizeof *clr);

	ck_assert_ptr_nonnull(clr);
	for (uint32_t y = 0; y < g->height; y++)
		for (uint32_t x = 0; x < g->width; x++)
			clr[(size_t)y * g->width + x] = brute_clearance(g, x, y);
	return clr;
}

/* ---- baking ------------------------------------------------------------ */

/* The sizes of req as twz_bake_options.agent_sizes bits. */
static uint32_t size_bits(const struct twz_agent_request *req)
{
	uint32_t bits = 0;

	for (unsigned i = 0; i < req->count; i++)
		bits |= 1u << req->sizes[i];
	return bits;
}

static uint8_t *bake_sizes(const struct twz_grid *g, const char *sizes,
			   unsigned connectivity, unsigned codec,
			   unsigned threads, int transit, size_t *len,
			   struct twz_agent_result *res)
{
	static const struct twz_transit_options topt = { 0, 0, 0 };
	struct twz_bake_options opt;
	struct twz_agent_request req;
	struct twz_agent_result mine;
	struct twz_bake_report rep;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;

	twz_bake_options_default(&opt);
	opt.connectivity = connectivity;
	opt.codec = codec;
	opt.threads = threads;
	opt.level = 9;
	ck_assert_msg(twz_agent_sizes_parse(sizes, &req, &err) == 0, "%s", err.msg);
	opt.agent_sizes = size_bits(&req);
	if (transit) {
		opt.method = TWZ_BAKE_TRANSIT;
		opt.transit = topt;
	}
	ck_assert_msg(twz_bake_grid_encode(g, &opt, &buf, len, &rep, &err) == 0,
		      "%s", err.msg);
	*(res ? res : &mine) = rep.agents;
	return buf;
}

/* The move from a to b, or -1 when they are not neighbours. */
static int move_between(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1)
{
	for (unsigned m = 0; m < 8; m++)
		if ((int64_t)x0 + twz_test_move_dx(m) == x1 &&
		    (int64_t)y0 + twz_test_move_dy(m) == y1)
			return (int)m;
	return -1;
}

/*
 * Every answer of view (size k) against the oracle: its nodes are
 * exactly the cells of clearance k or more; from `sources` sources
 * spread over them, every target's cost is Dijkstra's on the agent's
 * level (unreachable exactly when Dijkstra finds no path), and every
 * path stays on the agent's cells, takes only moves legal for it (no
 * corner cut past a cell it cannot stand on) and costs the optimum.
 */
static void check_view(const char *what, const twz_db *view,
		       const struct twz_grid *g, const unsigned *clr,
		       unsigned k, unsigned connectivity, unsigned sources,
		       uint64_t seed)
{
	struct twz_grid a;
	size_t cells = (size_t)g->width * g->height;
	uint32_t open = 0;

	agent_grid(g, clr, k, &a);
	for (uint32_t y = 0; y < g->height; y++)
		for (uint32_t x = 0; x < g->width; x++) {
			int in = a.walkable[(size_t)y * g->width + x];
			twz_node n = twz_node_at(view, x, y);
			expect((n != TWZ_NONE) == in,
			       "%s size %u: cell (%u,%u) of clearance %u is %s a node",
			       what, k, x, y, clr[(size_t)y * g->width + x],
			       in ? "not" : "");
			open += in;
		}
	ck_assert_uint_eq(twz_node_count(view), open);
	if (!open) {
		free(a.walkable);
		return;
	}

	struct twz_cost *dist = malloc(cells * sizeof *dist);
	twz_node *path = malloc(((size_t)open + 1) * sizeof *path);
	ck_assert_ptr_nonnull(dist);
	ck_assert_ptr_nonnull(path);
	uint64_t r = seed * 2654435761u + k;
	for (unsigned i = 0; i < sources; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		twz_node s = (twz_node)((r >> 33) % open);
		uint32_t sx, sy;
		ck_assert_int_eq(twz_node_xy(view, s, &sx, &sy), TWZ_OK);
		twz_test_dijkstra(&a, connectivity, sx, sy, dist);
		for (twz_node t = 0; t < open; t++) {
			uint32_t tx, ty, st, dg;
			twz_node_xy(view, t, &tx, &ty);
			struct twz_cost want = dist[(size_t)ty * g->width + tx];
			twz_status rc = twz_cost_exact(view, s, t, &st, &dg);
			if (twz_test_cost_eq(want, twz_test_unreachable)) {
				expect(rc == TWZ_E_UNREACHABLE,
				       "%s size %u: (%u,%u)->(%u,%u) has no path but "
				       "the database says %s", what, k, sx, sy, tx, ty,
				       twz_strerror(rc));
				continue;
			}
			expect(rc == TWZ_OK && st == want.straight &&
			       dg == want.diagonal,
			       "%s size %u: (%u,%u)->(%u,%u) costs %u+%u diagonal, "
			       "Dijkstra %u+%u (%s)", what, k, sx, sy, tx, ty, st,
			       dg, want.straight, want.diagonal, twz_strerror(rc));
			/* Whole paths for a share of the targets. */
			if ((t + i) % 7)
				continue;
			size_t len;
			expect(twz_path(view, s, t, path, (size_t)open + 1, &len) ==
				       TWZ_OK, "%s size %u: no path", what, k);
			struct twz_cost c = { 0, 0 };
			for (size_t j = 1; j < len; j++) {
				uint32_t x0, y0, x1, y1;
				twz_node_xy(view, path[j - 1], &x0, &y0);
				twz_node_xy(view, path[j], &x1, &y1);
				expect(clr[(size_t)y1 * g->width + x1] >= k,
				       "%s size %u: path enters (%u,%u) of clearance %u",
				       what, k, x1, y1, clr[(size_t)y1 * g->width + x1]);
				int m = move_between(x0, y0, x1, y1);
				expect(m >= 0 && twz_test_move_legal(&a, connectivity, x0,
								     y0, (unsigned)m),
				       "%s size %u: step (%u,%u)->(%u,%u) is not a legal "
				       "move for the agent", what, k, x0, y0, x1, y1);
				c = twz_test_cost_add_move(c, (unsigned)m);
			}
			expect(path[0] == s && path[len - 1] == t &&
			       twz_test_cost_eq(c, want),
			       "%s size %u: path (%u,%u)->(%u,%u) is not optimal",
			       what, k, sx, sy, tx, ty);
		}
	}
	free(path);
	free(dist);
	free(a.walkable);
}

/* Bake g for sizes, open it and check every size's view; the sizes
 * missing from the list are refused. */
static void check_level(const char *what, const struct twz_grid *g,
			const char *sizes, unsigned connectivity, int transit,
			unsigned sources)
{
	struct twz_agent_request req;
	struct twz_error err = { { 0 }, 0 };
	size_t len;
	twz_db *db;

	ck_assert_int_eq(twz_agent_sizes_parse(sizes, &req, &err), 0);
	uint8_t *buf = bake_sizes(g, sizes, connectivity, TWZ_CODEC_ZSTD, 2,
				  transit, &len, NULL);
	ck_assert_msg(twz_open_memory(buf, len, 0, &db) == TWZ_OK,
		      "%s: the layered file does not open", what);
	unsigned *clr = clearance_of(g);
	unsigned listed[TWZ_MAX_AGENT_SIZE];
	size_t n;
	ck_assert_int_eq(twz_agent_sizes(db, listed, TWZ_MAX_AGENT_SIZE, &n), TWZ_OK);
	ck_assert_uint_eq(n, req.count);
	for (unsigned i = 0; i < req.count; i++) {
		const twz_db *view;
		ck_assert_uint_eq(listed[i], req.sizes[i]);
		ck_assert_int_eq(twz_view_agent(db, req.sizes[i], &view), TWZ_OK);
		ck_assert_ptr_nonnull(view);
		if (i == 0)
			ck_assert_ptr_eq(view, db);
		check_view(what, view, g, clr, req.sizes[i], connectivity,
			   sources, i + 1);
	}
	for (unsigned k = 0; k <= TWZ_MAX_AGENT_SIZE + 1; k++) {
		int baked = 0;
		const twz_db *view = db;
		for (unsigned i = 0; i < req.count; i++)
			baked |= req.sizes[i] == k;
		if (!baked)
			ck_assert_int_eq(twz_view_agent(db, k, &view),
					 TWZ_E_ARGUMENT);
		if (!baked)
			ck_assert_ptr_null(view);
	}
	free(clr);
	twz_close(db);
	free(buf);
}

/* ---- levels -------------------------------------------------------------- */

static const struct {
	enum twz_test_level_kind kind;
	uint32_t w, h;
} generated[] = {
	{ TWZ_TEST_ROOMS, 36, 28 },
	{ TWZ_TEST_CAVES, 40, 30 },
	{ TWZ_TEST_OPEN_HOLLOW, 34, 26 },
	{ TWZ_TEST_POCKETS, 30, 24 },
	{ TWZ_TEST_MAZE, 31, 21 },
};

START_TEST(test_agents_generated_cpd)
{
	struct twz_grid g;
	char what[64];

	twz_test_generate(&g, generated[_i].kind, generated[_i].w,
			  generated[_i].h, 7 + _i);
	snprintf(what, sizeof what, "%s", twz_test_kind_name(generated[_i].kind));
	check_level(what, &g, "1,2,3,4,6", 8, 0, 12);
	check_level(what, &g, "2,3", 4, 0, 6);
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_agents_generated_transit)
{
	struct twz_grid g;
	char what[64];

	twz_test_generate(&g, generated[_i].kind, generated[_i].w,
			  generated[_i].h, 11 + _i);
	snprintf(what, sizeof what, "%s (transit)",
		 twz_test_kind_name(generated[_i].kind));
	check_level(what, &g, "1,2,3", 8, 1, 8);
	twz_grid_free(&g);
}
END_TEST

/* The project's own levels, and tests/levels/rooms.map. */
START_TEST(test_agents_project_levels)
{
	static const char *const levels[] = { "data/demo.map", "data/caves.map",
					      "tests/levels/rooms.map" };
	struct twz_error err = { { 0 }, 0 };

	for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
		struct twz_grid g;
		ck_assert_msg(twz_grid_load(twz_test_source_file(levels[i]), &g,
					    &err) == 0, "%s", err.msg);
		check_level(levels[i], &g, "1,2,3,5", 8, 0, 6);
		check_level(levels[i], &g, "1,3", 8, 1, 4);
		twz_grid_free(&g);
	}
}
END_TEST

/* A Moving AI level, when the benchmark is here. */
START_TEST(test_agents_movingai)
{
	struct twz_grid g;
	struct twz_scen sc;
	char scen[4096];

	if (twz_test_movingai_load("dao/arena", &g, &sc, scen, sizeof scen) != 0) {
		printf("# movingai levels not found at %s: skipped\n",
		       twz_test_movingai_where());
		return;
	}
	twz_scen_free(&sc);
	check_level("dao/arena", &g, "1,2,3,4", 8, 0, 4);
	twz_grid_free(&g);
}
END_TEST

/* ---- sharing and the file's own database ---------------------------- */

/*
 * Open sets shrink strictly while they are not empty (a cell's clearance
 * is at most one more than its neighbour's toward higher x, so every
 * clearance from the largest down to 1 occurs): sizes above the largest
 * clearance see no cell and share one empty layer, while an open room
 * gives every size its own.
 */
START_TEST(test_agents_sharing)
{
	struct twz_grid g;
	struct twz_agent_result res;
	size_t len;
	twz_db *db;
	const twz_db *v2, *v3, *v16;

	/* One-cell corridors: sizes 2 to 16 see nothing. */
	twz_test_grid_from_text(&g, "......\n.@@@@.\n.@..@.\n.@@.@.\n......");
	uint8_t *buf = bake_sizes(&g, "1,2,3,16", 8, TWZ_CODEC_ZSTD, 1, 0, &len, &res);
	ck_assert_uint_eq(res.layer_count, 2);
	ck_assert_uint_eq(res.layer[1].first_size, 2);
	ck_assert_uint_eq(res.layer[1].last_size, 16);
	ck_assert_uint_eq(res.layer[1].node_count, 0);
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &db), TWZ_OK);
	ck_assert_int_eq(twz_view_agent(db, 2, &v2), TWZ_OK);
	ck_assert_int_eq(twz_view_agent(db, 3, &v3), TWZ_OK);
	ck_assert_int_eq(twz_view_agent(db, 16, &v16), TWZ_OK);
	ck_assert_ptr_eq(v2, v3);
	ck_assert_ptr_eq(v2, v16);
	ck_assert_ptr_ne(v2, db);
	ck_assert_uint_eq(twz_node_count(v2), 0);
	ck_assert_uint_eq(twz_node_at(v2, 0, 0), TWZ_NONE);
	ck_assert(twz_cost(v2, 0, 0) < 0);
	twz_close(db);
	free(buf);
	twz_grid_free(&g);

	/* An open room: every size differs. */
	twz_test_grid_from_text(&g, "......\n......\n......\n......\n......");
	buf = bake_sizes(&g, "1,2,3,4,5,6", 8, TWZ_CODEC_ZSTD, 1, 0, &len, &res);
	ck_assert_uint_eq(res.layer_count, 6);
	ck_assert_uint_eq(res.layer[5].node_count, 0);
	ck_assert_uint_eq(res.layer[4].node_count, 2);
	free(buf);
	twz_grid_free(&g);
}
END_TEST

/* Layer 0 is the plain file's database, section for section: a reader
 * that knows nothing of agent sizes opens it as size 1. */
START_TEST(test_agents_base_is_plain)
{
	struct twz_grid g;
	struct twz_container plain_c, layered_c;
	size_t plain_len, len;

	twz_test_generate(&g, TWZ_TEST_ROOMS, 30, 22, 3);
	uint8_t *plain = twz_test_bake(&g, 8, TWZ_CODEC_RAW, 1, &plain_len);
	uint8_t *layered = bake_sizes(&g, "1,2,3", 8, TWZ_CODEC_RAW, 1, 0, &len, NULL);
	ck_assert_int_eq(twz_parse_container(plain, plain_len, &plain_c), TWZ_OK);
	ck_assert_int_eq(twz_parse_container(layered, len, &layered_c), TWZ_OK);
	ck_assert_uint_eq(layered_c.minor, TWZ_LAYER_FORMAT_MINOR);
	ck_assert_uint_eq(layered_c.node_count, plain_c.node_count);
	ck_assert_uint_eq(layered_c.required_features, plain_c.required_features);
	for (uint32_t i = 0; i < plain_c.section_count; i++) {
		const struct twz_section_ref *p = &plain_c.sections[i];
		int found = 0;
		for (uint32_t j = 0; j < layered_c.section_count; j++) {
			const struct twz_section_ref *q = &layered_c.sections[j];
			if (q->kind != p->kind)
				continue;
			found = 1;
			ck_assert_uint_eq(q->raw_size, p->raw_size);
			ck_assert(!memcmp(plain + p->offset, layered + q->offset,
					  (size_t)p->size));
		}
		ck_assert_msg(found, "kind %u is missing", p->kind);
	}
	/* Without the AGENT_SIZES table (as a kind a reader does not know),
	 * the file is the size-1 database alone. */
	for (uint32_t i = 0; i < layered_c.section_count; i++)
		if (layered_c.sections[i].kind == TWZ_SECTION_AGENT_SIZES) {
			uint8_t *e = layered + TWZ_HEADER_SIZE +
				     (size_t)i * TWZ_SECTION_ENTRY_SIZE;
			twz_put32(e + TWZ_S_KIND, 11);
		}
	twz_put64(layered + TWZ_H_TABLE_CHECKSUM,
		  twz_checksum(layered + TWZ_HEADER_SIZE,
			       (size_t)layered_c.section_count * TWZ_SECTION_ENTRY_SIZE));
	twz_put64(layered + TWZ_H_HEADER_CHECKSUM,
		  twz_checksum(layered, TWZ_H_HEADER_CHECKSUM));
	twz_db *db;
	const twz_db *v;
	unsigned sizes[4];
	size_t n;
	ck_assert_int_eq(twz_open_memory(layered, len, 0, &db), TWZ_OK);
	ck_assert_int_eq(twz_agent_sizes(db, sizes, 4, &n), TWZ_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(sizes[0], 1);
	ck_assert_int_eq(twz_view_agent(db, 2, &v), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_view_agent(db, 1, &v), TWZ_OK);
	ck_assert_ptr_eq(v, db);
	twz_close(db);
	free(plain);
	free(layered);
	twz_grid_free(&g);
}
END_TEST

/* ---- the views ------------------------------------------------------------ */

START_TEST(test_agents_views)
{
	struct twz_grid g;
	size_t len, n;
	twz_db *db;
	const twz_db *v2, *v3, *again;
	unsigned sizes[3];
	twz_info in;

	twz_test_generate(&g, TWZ_TEST_OPEN_HOLLOW, 30, 24, 5);
	uint8_t *buf = bake_sizes(&g, "3,1,2", 8, TWZ_CODEC_ZSTD, 1, 0, &len, NULL);
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &db), TWZ_OK);
	ck_assert_int_eq(twz_agent_sizes(db, sizes, 2, &n), TWZ_E_BUFFER_TOO_SMALL);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(twz_agent_sizes(db, sizes, 3, &n), TWZ_OK);
	ck_assert_uint_eq(sizes[0], 1);
	ck_assert_uint_eq(sizes[1], 2);
	ck_assert_uint_eq(sizes[2], 3);
	ck_assert_int_eq(twz_agent_sizes(db, NULL, 0, &n), TWZ_E_BUFFER_TOO_SMALL);
	ck_assert_int_eq(twz_agent_sizes(db, NULL, 1, &n), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_agent_sizes(NULL, sizes, 3, &n), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_view_agent(NULL, 1, &again), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_view_agent(db, 1, NULL), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_view_agent(db, 2, &v2), TWZ_OK);
	ck_assert_int_eq(twz_view_agent(db, 3, &v3), TWZ_OK);
	/* A view's views are its file's. */
	ck_assert_int_eq(twz_view_agent(v2, 3, &again), TWZ_OK);
	ck_assert_ptr_eq(again, v3);
	ck_assert_int_eq(twz_view_agent(v3, 1, &again), TWZ_OK);
	ck_assert_ptr_eq(again, db);
	ck_assert_int_eq(twz_agent_sizes(v3, sizes, 3, &n), TWZ_OK);
	ck_assert_uint_eq(n, 3);
	/* Info of a view: its own nodes, the file's grid and size. */
	ck_assert_int_eq(twz_get_info(v2, &in), TWZ_OK);
	ck_assert_uint_eq(in.node_count, twz_node_count(v2));
	ck_assert_uint_lt(in.node_count, twz_node_count(db));
	ck_assert_uint_eq(in.width, 30);
	ck_assert_uint_eq(in.file_size, len);
	ck_assert_uint_eq(in.format_minor, TWZ_LAYER_FORMAT_MINOR);
	/* twz_close on a view does nothing: the view still answers. */
	twz_close((twz_db *)v2);
	twz_node s = twz_node_at(v2, 1, 1);
	if (s != TWZ_NONE)
		ck_assert_uint_eq(twz_next(v2, s, s), s);
	ck_assert_uint_eq(twz_node_count(v2), in.node_count);
	/* Flow fields on a view are as big as the view. */
	twz_node *next = malloc(((size_t)in.node_count + 1) * sizeof *next);
	ck_assert_ptr_nonnull(next);
	if (in.node_count) {
		ck_assert_int_eq(twz_flow_field(v2, 0, next, in.node_count), TWZ_OK);
		ck_assert_uint_eq(next[0], 0);
	}
	free(next);
	twz_close(db);
	free(buf);
	twz_grid_free(&g);
}
END_TEST

/* ---- bytes ------------------------------------------------------------------ */

START_TEST(test_agents_threads_identical)
{
	struct twz_grid g;
	size_t l1, l2;

	twz_test_generate(&g, TWZ_TEST_CAVES, 48, 36, 9);
	uint8_t *a = bake_sizes(&g, "1,2,3,4", 8, TWZ_CODEC_ZSTD, 1, _i, &l1, NULL);
	uint8_t *b = bake_sizes(&g, "1,2,3,4", 8, TWZ_CODEC_ZSTD, 2, _i, &l2, NULL);
	ck_assert_uint_eq(l1, l2);
	ck_assert_msg(!memcmp(a, b, l1), "--threads 1 and 2 differ");
	free(a);
	free(b);
	twz_grid_free(&g);
}
END_TEST

/* tests/golden/v1_3_agents.twz, made as tests/golden/README says, comes
 * out of a fresh bake byte for byte, and answers as the oracle does. */
START_TEST(test_agents_golden)
{
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };
	size_t len, golden_len;
	twz_db *db;

	ck_assert_msg(twz_grid_load(twz_test_source_file("tests/golden/v1_0.map"),
				    &g, &err) == 0, "%s", err.msg);
	uint8_t *buf = bake_sizes(&g, "1,2,3", 8, TWZ_CODEC_RAW, 1, 0, &len, NULL);
	uint8_t *golden = twz_test_read_file(
		twz_test_source_file("tests/golden/v1_3_agents.twz"), &golden_len);
	ck_assert_uint_eq(len, golden_len);
	ck_assert_msg(!memcmp(buf, golden, len), "the bake differs from v1_3_agents.twz");
	ck_assert_int_eq(twz_open_memory(golden, golden_len, 0, &db), TWZ_OK);
	unsigned *clr = clearance_of(&g);
	for (unsigned k = 1; k <= 3; k++) {
		const twz_db *v;
		ck_assert_int_eq(twz_view_agent(db, k, &v), TWZ_OK);
		check_view("v1_3_agents", v, &g, clr, k, 8, 64, k);
	}
	free(clr);
	twz_close(db);
	free(golden);
	free(buf);
	twz_grid_free(&g);
}
END_TEST

/* ---- crafted files --------------------------------------------------------- */

struct crafted {
	uint8_t *buf;
	size_t len;
	struct twz_container c;
	uint8_t *table;       /* AGENT_SIZES' bytes in buf (raw codec) */
	size_t table_size;
};

static void crafted_make(struct crafted *f)
{
	struct twz_grid g;

	twz_test_generate(&g, TWZ_TEST_OPEN_HOLLOW, 24, 20, 2);
	f->buf = bake_sizes(&g, "1,2,3", 8, TWZ_CODEC_RAW, 1, 0, &f->len, NULL);
	twz_grid_free(&g);
	ck_assert_int_eq(twz_parse_container(f->buf, f->len, &f->c), TWZ_OK);
	f->table = NULL;
	for (uint32_t i = 0; i < f->c.section_count; i++)
		if (f->c.sections[i].kind == TWZ_SECTION_AGENT_SIZES) {
			f->table = f->buf + f->c.sections[i].offset;
			f->table_size = (size_t)f->c.sections[i].raw_size;
		}
	ck_assert_ptr_nonnull(f->table);
	ck_assert_uint_eq(twz_le32(f->table + TWZ_AS_LAYER_COUNT), 3);
}

/* Make every checksum match the bytes again. */
static void crafted_seal(struct crafted *f)
{
	for (uint32_t i = 0; i < f->c.section_count; i++) {
		uint8_t *e = f->buf + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		const struct twz_section_ref *s = &f->c.sections[i];
		twz_put64(e + TWZ_S_RAW_CHECKSUM,
			  twz_checksum(f->buf + s->offset, (size_t)s->raw_size));
	}
	twz_put64(f->buf + TWZ_H_TABLE_CHECKSUM,
		  twz_checksum(f->buf + TWZ_HEADER_SIZE,
			       (size_t)f->c.section_count * TWZ_SECTION_ENTRY_SIZE));
	twz_put64(f->buf + TWZ_H_HEADER_CHECKSUM,
		  twz_checksum(f->buf, TWZ_H_HEADER_CHECKSUM));
}

#define AL(l) (TWZ_AS_HEAD_SIZE + (l) * TWZ_AL_SIZE)
#define AZ(i) (TWZ_AS_HEAD_SIZE + 3 * TWZ_AL_SIZE + (i) * TWZ_AZ_RECORD)

/* One damage to the table, sealed, and the status it must give. */
static const struct {
	const char *what;
	size_t at;           /* offset in the table */
	int width;           /* 4 or 8 */
	uint64_t value;      /* written there; ~0 adds one to what is there */
	twz_status want;
} damages[] = {
	{ "no sizes", TWZ_AS_SIZE_COUNT, 4, 0, TWZ_E_DAMAGED },
	{ "17 sizes", TWZ_AS_SIZE_COUNT, 4, 17, TWZ_E_DAMAGED },
	{ "a size count the size disagrees with", TWZ_AS_SIZE_COUNT, 4, 2, TWZ_E_DAMAGED },
	{ "no layers", TWZ_AS_LAYER_COUNT, 4, 0, TWZ_E_DAMAGED },
	{ "more layers than sizes", TWZ_AS_LAYER_COUNT, 4, 4, TWZ_E_DAMAGED },
	{ "layer 0 with other nodes", AL(0) + TWZ_AL_NODE_COUNT, 4, ~0ull, TWZ_E_DAMAGED },
	{ "layer 0 with other regions", AL(0) + TWZ_AL_COMPONENT_COUNT, 4, ~0ull, TWZ_E_DAMAGED },
	{ "layer 0 with other features", AL(0) + TWZ_AL_REQUIRED, 8, 3, TWZ_E_DAMAGED },
	{ "layer 1 with one node more", AL(1) + TWZ_AL_NODE_COUNT, 4, ~0ull, TWZ_E_DAMAGED },
	{ "layer 1 with one region more", AL(1) + TWZ_AL_COMPONENT_COUNT, 4, ~0ull, TWZ_E_DAMAGED },
	{ "layer 1 with more nodes than cells", AL(1) + TWZ_AL_NODE_COUNT, 4, 24 * 20 + 1, TWZ_E_DAMAGED },
	{ "layer 2 with more regions than nodes", AL(2) + TWZ_AL_COMPONENT_COUNT, 4, 0xFFFFFFFFu, TWZ_E_DAMAGED },
	{ "layer 1 with an unknown feature", AL(1) + TWZ_AL_REQUIRED, 8, (uint64_t)1 << 40, TWZ_E_FEATURE },
	{ "layer 1 with narrow cells alone", AL(1) + TWZ_AL_REQUIRED, 8, TWZ_FEATURE_NARROW_CELL_NODE, TWZ_E_DAMAGED },
	{ "layer 1 with wide cells", AL(1) + TWZ_AL_REQUIRED, 8, 3, TWZ_E_DAMAGED },
	{ "size 0", AZ(0) + TWZ_AZ_SIZE, 4, 0, TWZ_E_DAMAGED },
	{ "size 17", AZ(2) + TWZ_AZ_SIZE, 4, 17, TWZ_E_DAMAGED },
	{ "sizes out of order", AZ(1) + TWZ_AZ_SIZE, 4, 5, TWZ_E_DAMAGED },
	{ "a size repeated", AZ(1) + TWZ_AZ_SIZE, 4, 1, TWZ_E_DAMAGED },
	{ "the first size on layer 1", AZ(0) + TWZ_AZ_LAYER, 4, 1, TWZ_E_DAMAGED },
	{ "a layer skipped", AZ(1) + TWZ_AZ_LAYER, 4, 2, TWZ_E_DAMAGED },
	{ "a layer named by no size", AZ(2) + TWZ_AZ_LAYER, 4, 1, TWZ_E_DAMAGED },
	{ "a layer beyond the count", AZ(2) + TWZ_AZ_LAYER, 4, 3, TWZ_E_DAMAGED },
	{ "layer 16", AZ(2) + TWZ_AZ_LAYER, 4, 16, TWZ_E_DAMAGED },
};

START_TEST(test_agents_hostile_table)
{
	struct crafted f;

	crafted_make(&f);
	uint8_t *p = f.table + damages[_i].at;
	if (damages[_i].width == 4)
		twz_put32(p, damages[_i].value == ~0ull ? twz_le32(p) + 1
							 : (uint32_t)damages[_i].value);
	else
		twz_put64(p, damages[_i].value == ~0ull ? twz_le64(p) + 1
							 : damages[_i].value);
	crafted_seal(&f);
	twz_status st = twz_test_try_open(f.buf, f.len, 0);
	ck_assert_msg(st == damages[_i].want, "%s: %s, not %s", damages[_i].what,
		      twz_strerror(st), twz_strerror(damages[_i].want));
	free(f.buf);
}
END_TEST

/* Damage to a layer's sections: refused like a whole file's. */
START_TEST(test_agents_hostile_layers)
{
	struct crafted f;

	/* A layer without its cell map. */
	crafted_make(&f);
	for (uint32_t i = 0; i < f.c.section_count; i++) {
		uint8_t *e = f.buf + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		if (twz_le32(e + TWZ_S_KIND) == twz_layer_kind(2, TWZ_SECTION_CELL_NODE))
			twz_put32(e + TWZ_S_KIND, twz_layer_kind(2, 100));
	}
	crafted_seal(&f);
	ck_assert_int_eq(twz_test_try_open(f.buf, f.len, 0), TWZ_E_DAMAGED);
	free(f.buf);

	/* A layer's bytes changed: its checksum, then its structure. */
	crafted_make(&f);
	for (uint32_t i = 0; i < f.c.section_count; i++) {
		const struct twz_section_ref *s = &f.c.sections[i];
		if (s->kind == twz_layer_kind(1, TWZ_SECTION_CELL_NODE) && s->size >= 2) {
			/* Cell 0's node named twice. */
			uint8_t *cells = f.buf + s->offset;
			uint32_t w = (s->raw_size == (uint64_t)f.c.width * f.c.height * 2) ? 2 : 4;
			for (size_t c = 1; c < f.c.width * (size_t)f.c.height; c++)
				if ((w == 2 ? twz_le16(cells + 2 * c) != 0xFFFF
					    : twz_le32(cells + 4 * c) != 0xFFFFFFFFu)) {
					if (w == 2)
						twz_put16(cells + 2 * c, twz_le16(cells + 2 * c) ^ 1);
					else
						twz_put32(cells + 4 * c, twz_le32(cells + 4 * c) ^ 1);
					break;
				}
		}
	}
	ck_assert_int_eq(twz_test_try_open(f.buf, f.len, 0), TWZ_E_CHECKSUM);
	crafted_seal(&f);
	ck_assert_int_eq(twz_test_try_open(f.buf, f.len, 0), TWZ_E_DAMAGED);
	ck_assert_int_eq(twz_test_try_open(f.buf, f.len, TWZ_OPEN_SKIP_CHECKSUMS),
			 TWZ_E_DAMAGED);
	free(f.buf);
}
END_TEST

/* Every bit of the table flipped, the checksums then made to match: the
 * file is refused or opens whole, and then each view answers within its
 * nodes. */
START_TEST(test_agents_hostile_bits)
{
	struct crafted f;
	unsigned opened = 0;

	crafted_make(&f);
	uint8_t *clean = twz_test_dup_bytes(f.buf, f.len);
	for (size_t bit = 0; bit < f.table_size * 8; bit++) {
		memcpy(f.buf, clean, f.len);
		f.table[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		crafted_seal(&f);
		uint8_t *copy = twz_test_dup_bytes(f.buf, f.len);
		twz_db *db;
		if (twz_open_memory(copy, f.len, 0, &db) == TWZ_OK) {
			unsigned sizes[16];
			size_t n;
			opened++;
			ck_assert_int_eq(twz_agent_sizes(db, sizes, 16, &n), TWZ_OK);
			for (size_t i = 0; i < n; i++) {
				const twz_db *v;
				ck_assert_int_eq(twz_view_agent(db, sizes[i], &v), TWZ_OK);
				uint32_t nodes = twz_node_count(v);
				if (nodes)
					(void)twz_cost(v, 0, nodes - 1);
			}
			twz_close(db);
		} else {
			ck_assert_ptr_null(db);
		}
		free(copy);
	}
	/* What may still open is a table that says something else that is
	 * well formed (a size 3 read as 7): most flips are refused. */
	ck_assert_uint_lt(opened, f.table_size);
	free(clean);
	free(f.buf);
}
END_TEST

/* ---- the tool ------------------------------------------------------------ */

#define TOOL(r, ...)                                                 \
	do {                                                         \
		const char *const args_[] = { __VA_ARGS__, NULL };   \
		twz_test_run_tool(args_, NULL, 0, (r));             \
		ck_assert_int_eq((r)->signal, 0);                    \
	} while (0)

START_TEST(test_agents_tool)
{
	struct twz_test_run r;
	char dir[4096], out[4200], plain[4200], one[4200], svg[4200];
	const char *demo = twz_test_source_file("data/demo.map");

	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "twz_agents_"));
	snprintf(out, sizeof out, "%s/demo.twz", dir);
	snprintf(plain, sizeof plain, "%s/plain.twz", dir);
	snprintf(one, sizeof one, "%s/one.twz", dir);
	snprintf(svg, sizeof svg, "%s/clearance.svg", dir);

	TOOL(&r, "build", demo, "-o", out, "--agent-sizes", "1,2,3", "--threads", "2");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.err, "3 agent sizes in 3 layers"), "%s", r.err);
	twz_test_run_free(&r);

	/* Size 1 alone is the plain file. */
	TOOL(&r, "build", demo, "-o", plain, "--quiet");
	ck_assert_int_eq(r.status, 0);
	twz_test_run_free(&r);
	TOOL(&r, "build", demo, "-o", one, "--agent-sizes", "1", "--quiet");
	ck_assert_int_eq(r.status, 0);
	twz_test_run_free(&r);
	size_t la, lb;
	uint8_t *a = twz_test_read_file(plain, &la), *b = twz_test_read_file(one, &lb);
	ck_assert(la == lb && !memcmp(a, b, la));
	free(a);
	free(b);

	TOOL(&r, "info", out);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "agent sizes   1: 1659 nodes") &&
		      strstr(r.out, "\n              3: "), "%s", r.out);
	twz_test_run_free(&r);
	TOOL(&r, "info", "--json", out);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, ",\"agent_sizes\":[{\"size\":1,\"nodes\":1659,"),
		      "%s", r.out);
	twz_test_run_free(&r);

	/* (2,2) is in a room's corner: sizes 1 to 3 stand there. */
	TOOL(&r, "query", out, "2", "2", "18", "4", "--agent-size", "3");
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "(2,2) -> (18,4): cost 17.414214, 17 moves"), "%s", r.out);
	twz_test_run_free(&r);
	/* A cell a size-3 agent cannot stand on: no place of its level. */
	TOOL(&r, "query", out, "2", "2", "20", "3", "--agent-size", "3");
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "(2,2) -> (20,3): goal is not on the level"),
		      "%s", r.out);
	twz_test_run_free(&r);
	TOOL(&r, "query", out, "2", "2", "20", "3", "--agent-size", "3", "--json");
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "\"status\":\"goal_off\""), "%s", r.out);
	twz_test_run_free(&r);
	TOOL(&r, "query", out, "2", "2", "20", "3", "--agent-size", "1", "--json");
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "\"cost\":18.41421356,"), "%s", r.out);
	twz_test_run_free(&r);

	/* Sizes the file lacks, and bad lists. */
	TOOL(&r, "query", out, "2", "2", "18", "4", "--agent-size", "4");
	ck_assert_int_eq(r.status, EXIT_INPUT);
	ck_assert_msg(strstr(r.err, "no database for agent size 4 (it holds sizes 1,2,3)"),
		      "%s", r.err);
	twz_test_run_free(&r);
	TOOL(&r, "query", plain, "2", "2", "18", "4", "--agent-size", "2");
	ck_assert_int_eq(r.status, EXIT_INPUT);
	twz_test_run_free(&r);
	static const char *const bad[] = { "0", "17", "1,,2", "1,1", "", "2,x", "1,2," };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		TOOL(&r, "build", demo, "-o", out, "--agent-sizes", bad[i]);
		ck_assert_msg(r.status == EXIT_USAGE && strstr(r.err, "--agent-sizes"),
			      "'%s': %d %s", bad[i], r.status, r.err);
		twz_test_run_free(&r);
	}
	TOOL(&r, "query", out, "2", "2", "18", "4", "--agent-size", "0");
	ck_assert_int_eq(r.status, EXIT_USAGE);
	twz_test_run_free(&r);

	/* The verify of size 1 is the plain one. */
	TOOL(&r, "verify", out, twz_test_source_file("data/demo.map.scen"),
	     "--agent-size", "1");
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);

	/* unpack keeps every layer: the same bytes as a raw bake. */
	char raw[4200], unpacked[4200];
	snprintf(raw, sizeof raw, "%s/raw.twz", dir);
	snprintf(unpacked, sizeof unpacked, "%s/unpacked.twz", dir);
	TOOL(&r, "build", demo, "-o", raw, "--agent-sizes", "1,2,3", "--codec", "raw",
	     "--quiet");
	ck_assert_int_eq(r.status, 0);
	twz_test_run_free(&r);
	TOOL(&r, "unpack", out, "-o", unpacked);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);
	a = twz_test_read_file(raw, &la);
	b = twz_test_read_file(unpacked, &lb);
	ck_assert_msg(la == lb && !memcmp(a, b, la), "unpack differs from a raw bake");
	free(a);
	free(b);

	TOOL(&r, "render", demo, "--clearance", "-o", svg);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);
	size_t sl;
	char *text = (char *)twz_test_read_file(svg, &sl);
	ck_assert_msg(strstr(text, "clearance"), "the legend names the overlay");
	free(text);
	twz_test_remove_tree(dir);
}
END_TEST

/* A level too big for the sections of a file: refused with a message
 * before baking. */
START_TEST(test_agents_too_many_layers)
{
	struct twz_grid g;
	struct twz_bake_options opt;
	struct twz_agent_request req;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;
	size_t len;

	twz_test_generate(&g, TWZ_TEST_OPEN_HOLLOW, 40, 40, 1);
	memset(g.walkable, 1, (size_t)g.width * g.height);
	twz_bake_options_default(&opt);
	opt.threads = 1;
	ck_assert_int_eq(twz_agent_sizes_parse("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16",
					       &req, &err), 0);
	opt.agent_sizes = size_bits(&req);
	ck_assert_int_eq(twz_bake_grid_encode(&g, &opt, &buf, &len, NULL, &err), -1);
	ck_assert_msg(strstr(err.msg, "sections, more than the 64 a file holds"),
		      "%s", err.msg);
	ck_assert_ptr_null(buf);
	/* TRANSIT's eleven sections a layer: five layers fit. */
	opt.method = TWZ_BAKE_TRANSIT;
	req.count = 6;
	opt.agent_sizes = size_bits(&req);
	ck_assert_int_eq(twz_bake_grid_encode(&g, &opt, &buf, &len, NULL, &err), -1);
	req.count = 5;
	opt.agent_sizes = size_bits(&req);
	ck_assert_msg(twz_bake_grid_encode(&g, &opt, &buf, &len, NULL, &err) == 0,
		      "%s", err.msg);
	twz_db *db;
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &db), TWZ_OK);
	twz_close(db);
	free(buf);
	twz_grid_free(&g);
}
END_TEST

static Suite *agent_suite(void)
{
	Suite *s = suite_create("agents");
	TCase *tc;

	tc = tcase_create("Oracle");
	tcase_add_loop_test(tc, test_agents_generated_cpd, 0,
			    (int)(sizeof generated / sizeof *generated));
	tcase_add_loop_test(tc, test_agents_generated_transit, 0,
			    (int)(sizeof generated / sizeof *generated));
	tcase_add_test(tc, test_agents_project_levels);
	tcase_add_test(tc, test_agents_movingai);
	tcase_add_test(tc, test_agents_sharing);
	suite_add_tcase(s, tc);

	tc = tcase_create("File");
	tcase_add_test(tc, test_agents_base_is_plain);
	tcase_add_test(tc, test_agents_views);
	tcase_add_loop_test(tc, test_agents_threads_identical, 0, 2);
	tcase_add_test(tc, test_agents_golden);
	tcase_add_test(tc, test_agents_too_many_layers);
	suite_add_tcase(s, tc);

	tc = tcase_create("Hostile");
	tcase_add_loop_test(tc, test_agents_hostile_table, 0,
			    (int)(sizeof damages / sizeof *damages));
	tcase_add_test(tc, test_agents_hostile_layers);
	tcase_add_test(tc, test_agents_hostile_bits);
	suite_add_tcase(s, tc);

	tc = tcase_create("Tool");
	tcase_add_test(tc, test_agents_tool);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(agent_suite());
}
