/*
 * check_lines.c - the CPD's rows from line separators (--apsp lines,
 * precompute/cpd_lines.c): the same runs and offsets as one search per
 * source, so the same file, on every thread count, for line spacings and
 * margins that cut small levels into many boxes (boxes cut by the
 * level's edge, boxes with no inside, regions inside one box, regions
 * across many); every first move against a plain Dijkstra; the keys
 * compare costs exactly; what it does not take is refused in one line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apsp_dense.h"
#include "cpd_lines.h"
#include "test_support.h"

/* The plain bake's runs, the reference. */
static void plain_rows(const struct twz_grid *g, unsigned conn, unsigned layout,
		       struct twz_cpd *cpd)
{
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };

	twz_bake_options_default(&opt);
	opt.connectivity = conn;
	opt.threads = 2;
	opt.layout = layout;
	opt.name = "plain";
	ck_assert_msg(twz_bake_cpd(g, &opt, cpd, &err) == 0, "bake: %s", err.msg);
}

/* twz_lines_rows of g with spacing and margin on threads threads, against
 * the plain bake's runs and offsets, with and without direction symbols. */
static void check_rows(const struct twz_grid *g, unsigned conn,
		       uint32_t spacing, uint32_t margin, const char *what)
{
	for (int direction = 0; direction <= 1; direction++) {
		struct twz_cpd ref;
		plain_rows(g, conn, direction ? TWZ_LAYOUT_NARROW : TWZ_LAYOUT_PLAIN,
			   &ref);
		for (unsigned threads = 1; threads <= 3; threads++) {
			struct twz_bake_options opt;
			struct twz_error err = { { 0 }, 0 };
			struct twz_lines_options lopt = { spacing, margin };
			struct twz_cpd got = { 0 };
			twz_bake_options_default(&opt);
			opt.connectivity = conn;
			opt.threads = threads;
			opt.name = what;
			got.graph = ref.graph;
			got.row_offsets = calloc((size_t)ref.graph.node_count + 1,
						 sizeof *got.row_offsets);
			ck_assert(got.row_offsets);
			ck_assert_msg(twz_lines_rows(&ref.graph, &opt, &lopt, direction,
						     &got, &err) == 0,
				      "%s: %s", what, err.msg);
			uint32_t n = ref.graph.node_count;
			ck_assert_msg(got.run_count == ref.run_count,
				      "%s, %u-connected, spacing %u margin %u, %s, %u "
				      "threads: %llu runs, the search %llu", what, conn,
				      spacing, margin, direction ? "direction" : "plain",
				      threads, (unsigned long long)got.run_count,
				      (unsigned long long)ref.run_count);
			for (uint32_t s = 0; s <= n; s++)
				expect(got.row_offsets[s] == ref.row_offsets[s],
				       "%s: row %u starts at %u, the search's at %u",
				       what, s, got.row_offsets[s], ref.row_offsets[s]);
			for (uint64_t r = 0; r < ref.run_count; r++)
				expect(got.runs[r] == ref.runs[r],
				       "%s, spacing %u margin %u: run %llu is %#x, the "
				       "search's %#x", what, spacing, margin,
				       (unsigned long long)r, got.runs[r], ref.runs[r]);
			free(got.runs);
			free(got.row_offsets);
		}
		twz_cpd_free(&ref);
	}
}

/* Every pair of the --apsp lines file of g: the first move is legal and
 * optimal by a plain Dijkstra, none between regions. */
static void check_oracle(const struct twz_grid *g, unsigned conn,
			 const char *what)
{
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	struct twz_cpd cpd;
	uint8_t *buf;
	size_t len;
	twz_db *db;
	twz_info in;
	size_t cells = (size_t)g->width * g->height;

	twz_bake_options_default(&opt);
	opt.connectivity = conn;
	opt.threads = 2;
	opt.codec = TWZ_CODEC_RAW;
	opt.apsp = TWZ_APSP_LINES;
	opt.name = what;
	ck_assert_msg(twz_bake_cpd(g, &opt, &cpd, &err) == 0, "%s: %s", what, err.msg);
	ck_assert_msg(twz_cpd_encode(&cpd, g, &opt, &buf, &len, &err) == 0, "%s",
		      err.msg);
	twz_cpd_free(&cpd);
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &db), TWZ_OK);
	twz_get_info(db, &in);
	struct twz_cost *all = twz_test_dijkstra_all(g, conn);
	for (twz_node s = 0; s < in.node_count; s++) {
		uint32_t sx, sy;
		twz_node_xy(db, s, &sx, &sy);
		const struct twz_cost *ds = all + ((size_t)sy * g->width + sx) * cells;
		for (twz_node t = 0; t < in.node_count; t++) {
			uint32_t tx, ty;
			twz_node_xy(db, t, &tx, &ty);
			size_t tc = (size_t)ty * g->width + tx;
			twz_node nx = twz_next(db, s, t);
			if (s == t || twz_test_cost_eq(ds[tc], twz_test_unreachable)) {
				expect(s == t || nx == TWZ_NONE, "%s: a move between regions",
				       what);
				continue;
			}
			uint32_t ax, ay;
			expect(twz_node_xy(db, nx, &ax, &ay) == TWZ_OK,
			       "%s: (%u,%u) -> (%u,%u) has no move", what, sx, sy, tx, ty);
			int m = -1;
			for (unsigned k = 0; k < conn; k++)
				if (twz_test_move_dx(k) == (int64_t)ax - sx &&
				    twz_test_move_dy(k) == (int64_t)ay - sy)
					m = (int)k;
			expect(m >= 0 && twz_test_move_legal(g, conn, sx, sy, (unsigned)m),
			       "%s: (%u,%u) -> (%u,%u) moves to (%u,%u)", what, sx, sy,
			       tx, ty, ax, ay);
			const struct twz_cost *dn = all + ((size_t)ay * g->width + ax) * cells;
			expect(twz_test_cost_eq(twz_test_cost_add_move(dn[tc], (unsigned)m),
						ds[tc]),
			       "%s: (%u,%u) -> (%u,%u) by (%u,%u) is not optimal", what,
			       sx, sy, tx, ty, ax, ay);
		}
	}
	free(all);
	twz_close(db);
	free(buf);
}

/* Spacings and margins that cut a level of about 20 to 40 cells into
 * many boxes, the smallest there is among them. */
static const uint32_t cuts[][2] = { { 2, 1 }, { 4, 2 }, { 5, 3 }, { 8, 4 }, { 7, 9 } };

static void check_level(const struct twz_grid *g, const char *what)
{
	for (unsigned conn = 4; conn <= 8; conn += 4) {
		for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
			check_rows(g, conn, cuts[i][0], cuts[i][1], what);
		check_oracle(g, conn, what);
	}
}

static const char *const project_levels[] = {
	"data/demo.map", "data/caves.map", "data/maze.map", "data/open.map",
	"data/junctions.map",
};

START_TEST(test_lines_project_levels)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_grid g, w;
	char what[128];

	ck_assert_msg(twz_grid_load(twz_test_source_file(project_levels[_i]), &g,
				    &err) == 0, "%s", err.msg);
	twz_test_grid_window(&w, &g, g.width / 4, g.height / 4, 29, 23);
	snprintf(what, sizeof what, "%s cut out", project_levels[_i]);
	check_level(&w, what);
	twz_grid_free(&w);
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_lines_generated)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i % TWZ_TEST_KIND_COUNT);
	struct twz_grid g;
	char what[96];

	twz_test_generate(&g, kind, 23 + (uint32_t)_i, 19, 4099 * (uint64_t)_i + 7);
	snprintf(what, sizeof what, "%s %ux%u", twz_test_kind_name(kind), g.width,
		 g.height);
	check_level(&g, what);
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_lines_rooms_level)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_grid g;

	ck_assert_msg(twz_grid_load(twz_test_level_file("rooms.map"), &g, &err) == 0,
		      "%s", err.msg);
	check_level(&g, "rooms.map");
	twz_grid_free(&g);
}
END_TEST

/* Open ground full of ties, a one-cell-wide level, several regions, a
 * region inside one box, a single node, a level of one column. */
START_TEST(test_lines_shapes)
{
	struct twz_grid g;

	twz_test_grid_from_text(&g,
		"....................\n"
		"....................\n"
		"....................\n"
		"....................\n"
		"....................\n"
		"....................\n"
		"....................\n"
		"....................\n"
		"....................\n"
		"....................\n"
		"....................\n"
		"....................");
	check_level(&g, "open ground");
	twz_grid_free(&g);
	twz_test_grid_from_text(&g, twz_test_small_level);
	check_level(&g, "the five-region level");
	twz_grid_free(&g);
	twz_test_grid_from_text(&g,
		"@@@@@@@@@@@@@@\n"
		"@.....@@.....@\n"
		"@.@@@.@@.@@@.@\n"
		"@.@.@.@@.@.@.@\n"
		"@.@@@.@@.@@@.@\n"
		"@.....@@.....@\n"
		"@@@@@@@@@@@@@@\n"
		"@............@\n"
		"@@@@@@@@@@@@@@");
	check_level(&g, "rings and a corridor");
	twz_grid_free(&g);
	twz_test_grid_from_text(&g, "@@@\n@.@\n@@@");
	check_level(&g, "one node");
	twz_grid_free(&g);
	twz_test_grid_from_text(&g, ".\n.\n.\n.\n.\n.\n.\n.\n.");
	check_level(&g, "one column");
	twz_grid_free(&g);
}
END_TEST

/* The tool and the library: --apsp lines writes the plain bake's bytes
 * (zstd, on 1 and 2 threads, formats 1.0 to 1.4). */
START_TEST(test_lines_bytes)
{
	static const unsigned layouts[] = { TWZ_LAYOUT_PLAIN, TWZ_LAYOUT_BUCKETED,
					    TWZ_LAYOUT_NARROW, TWZ_LAYOUT_INLINE };
	struct twz_error err = { { 0 }, 0 };
	struct twz_grid g;

	ck_assert_msg(twz_grid_load(twz_test_level_file("rooms.map"), &g, &err) == 0,
		      "%s", err.msg);
	for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
		uint8_t *file[2];
		size_t len[2];
		for (int lines = 0; lines <= 1; lines++) {
			struct twz_bake_options opt;
			struct twz_cpd cpd;
			twz_bake_options_default(&opt);
			opt.layout = layouts[l];
			opt.threads = lines ? 1 + (unsigned)l % 2 : 2;
			opt.apsp = lines ? TWZ_APSP_LINES : TWZ_APSP_DIJKSTRA;
			opt.level = 3;
			ck_assert_msg(twz_bake_cpd(&g, &opt, &cpd, &err) == 0, "%s", err.msg);
			ck_assert(twz_cpd_encode(&cpd, &g, &opt, &file[lines], &len[lines],
						 &err) == 0);
			twz_cpd_free(&cpd);
		}
		ck_assert_msg(len[0] == len[1] && !memcmp(file[0], file[1], len[0]),
			      "layout %u: --apsp lines differs", layouts[l]);
		free(file[0]);
		free(file[1]);
	}
	twz_grid_free(&g);

	char dir[512], path[2][600];
	const char *const solvers[] = { "dijkstra", "lines" };
	const char *level = twz_test_source_file("data/caves.map");
	struct twz_test_run r;
	uint8_t *buf[2];
	size_t len[2];
	ck_assert(twz_test_make_dir(dir, sizeof dir, "lines"));
	for (int i = 0; i < 2; i++) {
		snprintf(path[i], sizeof path[i], "%s/%s.twz", dir, solvers[i]);
		const char *const args[] = { "build", level, "-o", path[i], "--apsp",
					     solvers[i], "--level", "3", "-q", NULL };
		twz_test_run_tool(args, NULL, 0, &r);
		ck_assert_msg(r.status == 0, "--apsp %s: %s", solvers[i], r.err);
		twz_test_run_free(&r);
		buf[i] = twz_test_read_file(path[i], &len[i]);
	}
	ck_assert_msg(len[0] == len[1] && !memcmp(buf[0], buf[1], len[0]),
		      "twigz build --apsp lines differs from dijkstra");
	free(buf[0]);
	free(buf[1]);
	twz_test_remove_tree(dir);
}
END_TEST

/* The library's bake of g with --apsp lines and with the searches, in
 * format 1.4: the same bytes. */
static void check_same_file(const struct twz_grid *g, const char *what)
{
	uint8_t *file[2];
	size_t len[2];
	struct twz_error err = { { 0 }, 0 };

	for (int lines = 0; lines <= 1; lines++) {
		struct twz_bake_options opt;
		struct twz_cpd cpd;
		twz_bake_options_default(&opt);
		opt.threads = 2;
		opt.apsp = lines ? TWZ_APSP_LINES : TWZ_APSP_DIJKSTRA;
		opt.level = 3;
		opt.name = what;
		ck_assert_msg(twz_bake_cpd(g, &opt, &cpd, &err) == 0, "%s: %s", what,
			      err.msg);
		ck_assert_msg(twz_cpd_encode(&cpd, g, &opt, &file[lines], &len[lines],
					     &err) == 0, "%s: %s", what, err.msg);
		twz_cpd_free(&cpd);
	}
	ck_assert_msg(len[0] == len[1] && !memcmp(file[0], file[1], len[0]),
		      "%s: --apsp lines differs from the searches", what);
	free(file[0]);
	free(file[1]);
}

/* A corner of a Moving AI level, cut at the default spacing (24) into
 * several boxes a side: the searches' file. */
START_TEST(test_lines_movingai_corner)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_grid g, w;
	char path[1024];

	if (twz_test_movingai_path(path, sizeof path, "dao/den011d.map") != 0) {
		printf("# movingai levels not found at %s (set TWZ_MOVINGAI_DIR): "
		       "skipped\n", twz_test_movingai_where());
		return;
	}
	ck_assert_msg(twz_grid_load(path, &g, &err) == 0, "%s", err.msg);
	twz_test_grid_window(&w, &g, 0, 0, 100, 100);
	check_same_file(&w, "den011d's corner");
	twz_grid_free(&w);
	twz_grid_free(&g);
}
END_TEST

/* A corridor folded 115 times, 23,000 moves end to end: no 32-bit
 * key covers its distances. */
static void folded_corridor(struct twz_grid *g)
{
	*g = (struct twz_grid){ 200, 230, NULL, 0 };
	g->walkable = calloc(200 * 230, 1);
	ck_assert(g->walkable);
	for (uint32_t y = 0; y < 230; y += 2) {
		memset(g->walkable + (size_t)y * 200, 1, 200);
		if (y + 1 < 230)
			g->walkable[(size_t)(y + 1) * 200 + (y / 2 % 2 ? 0 : 199)] = 1;
	}
}

/* What --apsp lines does not do is a usage error, no file left: it
 * bakes a grid level in memory. */
START_TEST(test_lines_refused)
{
	char dir[512], out[600];
	const char *level = twz_test_source_file("data/caves.map");
	const char *graph = twz_test_source_file("data/city.gr");
	static const char *const extra[][2] = {
		{ "--shard", "1/2" }, { "--memory-limit", "100M" },
		{ "--max-seconds", "60" }, { "--method", "transit" }, { "--junctions", "-q" }, { NULL, NULL },
	};

	ck_assert(twz_test_make_dir(dir, sizeof dir, "lines"));
	snprintf(out, sizeof out, "%s/x.twz", dir);
	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
		const char *const args[] = { "build", extra[i][0] ? level : graph, "-o",
					     out, "--apsp", "lines", extra[i][0],
					     extra[i][1], NULL };
		struct twz_test_run r;
		twz_test_run_tool(args, NULL, 0, &r);
		ck_assert_msg(r.status == 2 && strstr(r.err, "--apsp") &&
			      strstr(r.err, "usage:"),
			      "%s: status %d, stderr %s", extra[i][0] ? extra[i][0]
			      : "a graph", r.status, r.err);
		ck_assert_msg(twz_test_try_read_file(out, NULL) == NULL,
			      "an output was written");
		twz_test_run_free(&r);
	}
	twz_test_remove_tree(dir);
}
END_TEST

/* The keys order every pair of costs of up to max_cost as the costs
 * are ordered, equal only when they are equal (by exact comparison),
 * for several bounds; and a bound no 32-bit key covers is refused. */
START_TEST(test_lines_keys)
{
	static const double bounds[] = { 3, 20, 45, 300 };

	for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
		struct twz_lines_keys k;
		ck_assert_int_eq(twz_lines_key_scale(bounds[b], &k), 0);
		/* Every cost straight + diagonal sqrt(2) of at most the
		 * bound. */
		struct twz_cost *c = malloc(100000 * sizeof *c);
		size_t n = 0;
		ck_assert(c);
		for (uint32_t d = 0; d * 1.41421356 <= bounds[b]; d++)
			for (uint32_t s = 0; s + d * 1.41421356 <= bounds[b] && n < 100000;
			     s++)
				c[n++] = (struct twz_cost){ s, d };
		for (size_t i = 0; i < n; i++) {
			uint64_t ki = (uint64_t)k.straight * c[i].straight +
				      (uint64_t)k.diagonal * c[i].diagonal;
			expect(ki < TWZ_LINES_KEY_LIMIT, "key above the limit");
			for (size_t j = 0; j < n; j += 1 + (n > 20000) * 7) {
				uint64_t kj = (uint64_t)k.straight * c[j].straight +
					      (uint64_t)k.diagonal * c[j].diagonal;
				expect((ki < kj) == twz_cost_less(c[i], c[j]) &&
				       (ki == kj) == twz_test_cost_eq(c[i], c[j]),
				       "bound %g: {%u,%u} against {%u,%u}", bounds[b],
				       c[i].straight, c[i].diagonal, c[j].straight,
				       c[j].diagonal);
			}
		}
		free(c);
	}
	struct twz_lines_keys k;
	ck_assert_int_eq(twz_lines_key_scale(1e6, &k), -1);

	/* The folded corridor's rows are left to the search (1); the bake
	 * then searches from every source, as --apsp dijkstra does (some
	 * 14 CPU seconds a bake of it: not baked here). */
	struct twz_grid g;
	folded_corridor(&g);
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	struct twz_cpd cpd = { 0 };
	twz_bake_options_default(&opt);
	ck_assert(twz_graph_build(&g, 8, &cpd.graph, &err) == 0);
	ck_assert_int_eq(twz_lines_rows(&cpd.graph, &opt, NULL, 1, &cpd, &err), 1);
	twz_cpd_free(&cpd);
	free(g.walkable);
}
END_TEST

static Suite *lines_suite(void)
{
	Suite *s = suite_create("lines");
	TCase *tc = tcase_create("Rows");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_lines_project_levels, 0,
			    (int)(sizeof project_levels / sizeof project_levels[0]));
	tcase_add_loop_test(tc, test_lines_generated, 0, 2 * TWZ_TEST_KIND_COUNT);
	tcase_add_test(tc, test_lines_rooms_level);
	tcase_add_test(tc, test_lines_shapes);
	suite_add_tcase(s, tc);
	tc = tcase_create("Tool");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_lines_bytes);
	tcase_add_test(tc, test_lines_refused);
	tcase_add_test(tc, test_lines_movingai_corner);
	tcase_add_test(tc, test_lines_keys);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(lines_suite());
}
