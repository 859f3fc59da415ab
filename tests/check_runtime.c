/*
 * check_runtime.c - the contract of include/twigz.h: arguments, opening,
 * node lookups, first moves, paths, costs and flow fields, compared with
 * a plain Dijkstra on small and generated levels.
 */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"
#include "twigz.h"
#include "twz_format.h"

/* ---- helpers ---------------------------------------------------------- */

struct level {
	struct twz_grid grid;
	unsigned connectivity;
	uint8_t *buf;
	size_t len;
	twz_db *db;
};

static void level_open(struct level *lv, unsigned connectivity, unsigned codec)
{
	lv->connectivity = connectivity;
	lv->buf = twz_test_bake(&lv->grid, connectivity, codec, 1, &lv->len);
	ck_assert_int_eq(twz_open_memory(lv->buf, lv->len, 0, &lv->db), TWZ_OK);
}

static void level_text(struct level *lv, const char *text, unsigned connectivity,
		       unsigned codec)
{
	twz_test_grid_from_text(&lv->grid, text);
	level_open(lv, connectivity, codec);
}

static void level_close(struct level *lv)
{
	twz_close(lv->db);
	free(lv->buf);
	twz_grid_free(&lv->grid);
}

/* A temporary directory for files, removed by the caller. */
static char *make_tmpdir(void)
{
	char *dir = malloc(4096);

	ck_assert_ptr_nonnull(dir);
	ck_assert_msg(twz_test_make_dir(dir, 4096, "twz-runtime-") != NULL,
		      "mkdtemp: %s", strerror(errno));
	return dir;
}

/* ---- Arguments ----------------------------------------------------------- */

START_TEST(test_runtime_null_handle)
{
	twz_node buf[4] = { 7, 7, 7, 7 };
	size_t len = 99;
	uint32_t x = 5, y = 5, st = 5, dg = 5;
	twz_info in;

	twz_close(NULL);
	ck_assert_uint_eq(twz_node_count(NULL), 0);
	ck_assert_uint_eq(twz_node_at(NULL, 0, 0), TWZ_NONE);
	ck_assert_int_eq(twz_node_xy(NULL, 0, &x, &y), TWZ_E_ARGUMENT);
	ck_assert_uint_eq(twz_next(NULL, 0, 0), TWZ_NONE);
	ck_assert_int_eq(twz_path(NULL, 0, 0, buf, 4, &len), TWZ_E_ARGUMENT);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(twz_cost_exact(NULL, 0, 0, &st, &dg), TWZ_E_ARGUMENT);
	ck_assert(twz_cost(NULL, 0, 0) < 0);
	ck_assert_int_eq(twz_flow_field(NULL, 0, buf, 4), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_get_info(NULL, &in), TWZ_E_ARGUMENT);
	ck_assert_uint_eq(buf[0], 7);
}
END_TEST

START_TEST(test_runtime_open_arguments)
{
	struct level lv;
	twz_db *db = (twz_db *)&lv;
	twz_info in;

	ck_assert_int_eq(twz_open(NULL, 0, &db), TWZ_E_ARGUMENT);
	ck_assert_ptr_null(db);
	ck_assert_int_eq(twz_open("x.twz", 0, NULL), TWZ_E_ARGUMENT);
	db = (twz_db *)&lv;
	ck_assert_int_eq(twz_open_memory(NULL, 128, 0, &db), TWZ_E_ARGUMENT);
	ck_assert_ptr_null(db);
	ck_assert_int_eq(twz_open_memory("x", 1, 0, NULL), TWZ_E_ARGUMENT);

	level_text(&lv, twz_test_small_level, 8, TWZ_CODEC_ZSTD);
	ck_assert_int_eq(twz_get_info(lv.db, NULL), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_get_info(lv.db, &in), TWZ_OK);
	level_close(&lv);
}
END_TEST

START_TEST(test_runtime_nodes_out_of_range)
{
	struct level lv;
	uint32_t x = 5, y = 5, st, dg;
	size_t len;

	level_text(&lv, twz_test_small_level, 8, TWZ_CODEC_RAW);
	uint32_t n = twz_node_count(lv.db);
	twz_node *buf = malloc((size_t)n * sizeof *buf);
	ck_assert_ptr_nonnull(buf);
	const twz_node bad[] = { n, n + 1, 0x7FFFFFFF, TWZ_NONE };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		twz_node b = bad[i];
		ck_assert_int_eq(twz_node_xy(lv.db, b, &x, &y), TWZ_E_ARGUMENT);
		ck_assert_uint_eq(x, 5);
		ck_assert_uint_eq(twz_next(lv.db, b, 0), TWZ_NONE);
		ck_assert_uint_eq(twz_next(lv.db, 0, b), TWZ_NONE);
		ck_assert_uint_eq(twz_next(lv.db, b, b), TWZ_NONE);
		len = 99;
		ck_assert_int_eq(twz_path(lv.db, b, 0, buf, n, &len), TWZ_E_ARGUMENT);
		ck_assert_uint_eq(len, 0);
		len = 99;
		ck_assert_int_eq(twz_path(lv.db, 0, b, buf, n, &len), TWZ_E_ARGUMENT);
		ck_assert_uint_eq(len, 0);
		ck_assert_int_eq(twz_cost_exact(lv.db, b, 0, &st, &dg), TWZ_E_ARGUMENT);
		ck_assert_int_eq(twz_cost_exact(lv.db, 0, b, &st, &dg), TWZ_E_ARGUMENT);
		ck_assert(twz_cost(lv.db, b, 0) == -1.0);
		ck_assert(twz_cost(lv.db, 0, b) == -1.0);
		ck_assert_int_eq(twz_flow_field(lv.db, b, buf, n), TWZ_E_ARGUMENT);
	}
	/* Path and flow-field buffers. */
	ck_assert_int_eq(twz_path(lv.db, 0, 1, buf, n, NULL), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_path(lv.db, 0, 1, NULL, 4, &len), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_flow_field(lv.db, 0, NULL, n), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_flow_field(lv.db, 0, buf, n - 1), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_flow_field(lv.db, 0, buf, 0), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_flow_field(lv.db, 0, buf, n), TWZ_OK);

	/* Cells off the grid. */
	const int64_t off[][2] = {
		{ -1, 0 }, { 0, -1 }, { 10, 0 }, { 0, 7 }, { 10, 7 },
		{ INT64_MIN, 0 }, { 0, INT64_MAX }, { (int64_t)1 << 32, 0 },
		{ 0, ((int64_t)1 << 32) + 1 },
	};
	for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
		ck_assert_uint_eq(twz_node_at(lv.db, off[i][0], off[i][1]), TWZ_NONE);
	free(buf);
	level_close(&lv);
}
END_TEST

/* ---- Open ---------------------------------------------------------------- */

START_TEST(test_runtime_open_files)
{
	struct level lv;
	char *dir = make_tmpdir();
	char path[4200];
	twz_db *db = (twz_db *)&lv;
	twz_info a, b;

	level_text(&lv, twz_test_small_level, 8, TWZ_CODEC_ZSTD);

	snprintf(path, sizeof path, "%s/missing.twz", dir);
	errno = 0;
	ck_assert_int_eq(twz_open(path, 0, &db), TWZ_E_IO);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_ptr_null(db);

	db = (twz_db *)&lv;
	errno = 0;
	ck_assert_int_eq(twz_open(dir, 0, &db), TWZ_E_IO);   /* a directory */
	ck_assert_int_eq(errno, EISDIR);
	ck_assert_ptr_null(db);

	snprintf(path, sizeof path, "%s/empty.twz", dir);
	twz_test_write_file(path, "", 0);
	ck_assert_int_eq(twz_open(path, 0, &db), TWZ_E_NOT_TWIGZ);
	ck_assert_ptr_null(db);
	ck_assert_int_eq(unlink(path), 0);

	snprintf(path, sizeof path, "%s/text.twz", dir);
	const char *text = "type octile\nheight 1\nwidth 1\nmap\n.\n";
	twz_test_write_file(path, text, strlen(text));
	ck_assert_int_eq(twz_open(path, 0, &db), TWZ_E_NOT_TWIGZ);
	twz_test_write_file(path, TWZ_MAGIC, 7);
	ck_assert_int_eq(twz_open(path, 0, &db), TWZ_E_NOT_TWIGZ);
	twz_test_write_file(path, TWZ_MAGIC, 8);
	ck_assert_int_eq(twz_open(path, 0, &db), TWZ_E_DAMAGED);
	twz_test_write_file(path, lv.buf, lv.len - 1);
	ck_assert_int_eq(twz_open(path, 0, &db), TWZ_E_DAMAGED);
	ck_assert_ptr_null(db);
	ck_assert_int_eq(unlink(path), 0);

	/* A good file opens to the same database as its bytes in memory,
	 * twice over, each handle on its own. */
	snprintf(path, sizeof path, "%s/good.twz", dir);
	twz_test_write_file(path, lv.buf, lv.len);
	twz_db *db2;
	ck_assert_int_eq(twz_open(path, 0, &db), TWZ_OK);
	ck_assert_int_eq(twz_open(path, TWZ_OPEN_SKIP_CHECKSUMS, &db2), TWZ_OK);
	ck_assert_int_eq(unlink(path), 0);   /* the mapping keeps the data */
	ck_assert_int_eq(twz_get_info(db, &a), TWZ_OK);
	ck_assert_int_eq(twz_get_info(lv.db, &b), TWZ_OK);
	ck_assert_mem_eq(&a, &b, sizeof a);
	twz_close(db);
	uint32_t n = twz_node_count(db2);
	ck_assert_uint_eq(n, b.node_count);
	for (twz_node s = 0; s < n; s++)
		for (twz_node t = 0; t < n; t++)
			expect(twz_next(db2, s, t) == twz_next(lv.db, s, t), "%u->%u", s, t);
	twz_close(db2);

	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
	level_close(&lv);
}
END_TEST

/* The memory a database is opened from need not be aligned. */
START_TEST(test_runtime_open_memory_unaligned)
{
	struct level lv;

	level_text(&lv, twz_test_small_level, 8, _i ? TWZ_CODEC_ZSTD : TWZ_CODEC_RAW);
	for (size_t shift = 1; shift < 8; shift++) {
		uint8_t *mem = malloc(lv.len + shift);
		twz_db *db;
		ck_assert_ptr_nonnull(mem);
		memcpy(mem + shift, lv.buf, lv.len);
		ck_assert_int_eq(twz_open_memory(mem + shift, lv.len, 0, &db), TWZ_OK);
		uint32_t n = twz_node_count(db);
		for (twz_node s = 0; s < n; s++) {
			uint32_t x, y;
			ck_assert_int_eq(twz_node_xy(db, s, &x, &y), TWZ_OK);
			ck_assert_uint_eq(twz_node_at(db, x, y), s);
			for (twz_node t = 0; t < n; t++)
				expect(twz_next(db, s, t) == twz_next(lv.db, s, t),
				       "shift %zu: %u->%u", shift, s, t);
		}
		twz_close(db);
		free(mem);
	}
	level_close(&lv);
}
END_TEST

/* ---- Queries ------------------------------------------------------------- */

START_TEST(test_runtime_node_lookup_round_trip)
{
	struct level lv;

	twz_test_generate(&lv.grid, TWZ_TEST_CAVES, 31, 17, 5);
	level_open(&lv, 8, TWZ_CODEC_ZSTD);
	uint32_t n = twz_node_count(lv.db), seen = 0;
	uint8_t *hit = calloc(n ? n : 1, 1);
	ck_assert_ptr_nonnull(hit);
	for (uint32_t y = 0; y < lv.grid.height; y++)
		for (uint32_t x = 0; x < lv.grid.width; x++) {
			twz_node v = twz_node_at(lv.db, x, y);
			if (!twz_grid_walkable(&lv.grid, x, y)) {
				ck_assert_uint_eq(v, TWZ_NONE);
				continue;
			}
			ck_assert_uint_lt(v, n);
			ck_assert_msg(!hit[v], "node %u on two cells", v);
			hit[v] = 1;
			seen++;
			uint32_t vx, vy;
			ck_assert_int_eq(twz_node_xy(lv.db, v, &vx, &vy), TWZ_OK);
			ck_assert_uint_eq(vx, x);
			ck_assert_uint_eq(vy, y);
		}
	ck_assert_uint_eq(seen, n);
	free(hit);
	level_close(&lv);
}
END_TEST

/* Levels the query tests run on: text and generated, both codecs, both
 * movement rules. */
static void open_case(struct level *lv, int i)
{
	static const enum twz_test_level_kind kinds[] = {
		TWZ_TEST_ROOMS, TWZ_TEST_MAZE, TWZ_TEST_CAVES, TWZ_TEST_OPEN_HOLLOW,
		TWZ_TEST_POCKETS,
	};
	unsigned conn = i % 2 ? 4 : 8;
	unsigned codec = i % 3 ? TWZ_CODEC_ZSTD : TWZ_CODEC_RAW;

	if (i < 2) {
		level_text(lv, twz_test_small_level, conn, codec);
		return;
	}
	twz_test_generate(&lv->grid, kinds[(i - 2) / 2], 23, 15, 100 + (uint64_t)i);
	level_open(lv, conn, codec);
}

#define QUERY_CASES 12

/* The step cost of the move between two adjacent cells. */
static struct twz_cost add_step(struct twz_cost c, uint32_t x0, uint32_t y0,
				uint32_t x1, uint32_t y1)
{
	if (x0 != x1 && y0 != y1)
		c.diagonal++;
	else
		c.straight++;
	return c;
}

/* Whether one legal move leads from (x0, y0) to (x1, y1). */
static int legal_step(const struct level *lv, uint32_t x0, uint32_t y0,
		      uint32_t x1, uint32_t y1)
{
	for (unsigned m = 0; m < lv->connectivity; m++)
		if ((int64_t)x0 + twz_test_move_dx(m) == x1 &&
		    (int64_t)y0 + twz_test_move_dy(m) == y1)
			return twz_test_move_legal(&lv->grid, lv->connectivity, x0, y0, m);
	return 0;
}

/* Every pair: next, path, cost and flow field against Dijkstra from the
 * target (moves are symmetric, so it gives every source's distance). */
START_TEST(test_runtime_every_pair_is_optimal)
{
	struct level lv;

	open_case(&lv, _i);
	uint32_t n = twz_node_count(lv.db);
	size_t cells = (size_t)lv.grid.width * lv.grid.height;
	struct twz_cost *dist = malloc(cells * sizeof *dist);
	twz_node *path = malloc(((size_t)n + 1) * sizeof *path);
	twz_node *flow = malloc(((size_t)n + 1) * sizeof *flow);
	ck_assert_ptr_nonnull(dist);
	ck_assert_ptr_nonnull(path);
	ck_assert_ptr_nonnull(flow);
	ck_assert_uint_gt(n, 1);

	for (twz_node t = 0; t < n; t++) {
		uint32_t tx, ty;
		ck_assert_int_eq(twz_node_xy(lv.db, t, &tx, &ty), TWZ_OK);
		twz_test_dijkstra(&lv.grid, lv.connectivity, tx, ty, dist);
		flow[n] = 0xABCDEF;  /* past the end: must stay */
		ck_assert_int_eq(twz_flow_field(lv.db, t, flow, n), TWZ_OK);
		ck_assert_uint_eq(flow[n], 0xABCDEF);
		ck_assert_uint_eq(flow[t], t);
		for (twz_node s = 0; s < n; s++) {
			uint32_t sx, sy, st = 77, dg = 77;
			size_t len = 77;
			expect(twz_node_xy(lv.db, s, &sx, &sy) == TWZ_OK, "node %u", s);
			struct twz_cost want = dist[(size_t)sy * lv.grid.width + sx];
			twz_node next = twz_next(lv.db, s, t);
			twz_status r = twz_path(lv.db, s, t, path, (size_t)n + 1, &len);
			twz_status rc = twz_cost_exact(lv.db, s, t, &st, &dg);
			double c = twz_cost(lv.db, s, t);

			expect(flow[s] == next, "(%u,%u)->(%u,%u): flow field %u, next %u",
			       sx, sy, tx, ty, flow[s], next);
			if (twz_test_cost_eq(want, twz_test_unreachable)) {
				expect(next == TWZ_NONE && r == TWZ_E_UNREACHABLE && len == 0 &&
				       rc == TWZ_E_UNREACHABLE && isinf(c) && c > 0,
				       "(%u,%u)->(%u,%u) is unreachable: next %u, path %s "
				       "(%zu), cost %s %g", sx, sy, tx, ty, next,
				       twz_strerror(r), len, twz_strerror(rc), c);
				continue;
			}
			expect(r == TWZ_OK && rc == TWZ_OK, "(%u,%u)->(%u,%u): path %s, cost %s",
			       sx, sy, tx, ty, twz_strerror(r), twz_strerror(rc));
			expect(st == want.straight && dg == want.diagonal,
			       "(%u,%u)->(%u,%u): %u+%u*sqrt2, optimum %u+%u*sqrt2",
			       sx, sy, tx, ty, st, dg, want.straight, want.diagonal);
			expect(fabs(c - (want.straight + want.diagonal * sqrt(2.0))) < 1e-9,
			       "(%u,%u)->(%u,%u): cost %.12g", sx, sy, tx, ty, c);
			expect(len == (size_t)st + dg + 1 && path[0] == s && path[len - 1] == t,
			       "(%u,%u)->(%u,%u): path of %zu nodes from %u to %u",
			       sx, sy, tx, ty, len, path[0], path[len - 1]);
			if (s == t) {
				expect(next == t && c == 0.0, "(%u,%u) to itself", sx, sy);
				continue;
			}
			expect(path[1] == next, "(%u,%u)->(%u,%u): path starts %u, next %u",
			       sx, sy, tx, ty, path[1], next);
			/* Each step is one legal move, and the walked cost is
			 * the optimum. */
			struct twz_cost walked = { 0, 0 };
			for (size_t k = 1; k < len; k++) {
				uint32_t x0, y0, x1, y1;
				twz_node_xy(lv.db, path[k - 1], &x0, &y0);
				expect(twz_node_xy(lv.db, path[k], &x1, &y1) == TWZ_OK,
				       "path node %u", path[k]);
				expect(legal_step(&lv, x0, y0, x1, y1),
				       "(%u,%u)->(%u,%u): illegal step (%u,%u)->(%u,%u)",
				       sx, sy, tx, ty, x0, y0, x1, y1);
				walked = add_step(walked, x0, y0, x1, y1);
			}
			expect(twz_test_cost_eq(walked, want), "(%u,%u)->(%u,%u): walked %u+%u*sqrt2",
			       sx, sy, tx, ty, walked.straight, walked.diagonal);
		}
	}
	free(dist);
	free(path);
	free(flow);
	level_close(&lv);
}
END_TEST

START_TEST(test_runtime_same_node)
{
	struct level lv;
	twz_node buf[2] = { 9, 9 };
	size_t len;
	uint32_t st = 5, dg = 5;

	level_text(&lv, twz_test_small_level, 8, TWZ_CODEC_ZSTD);
	for (twz_node s = 0; s < twz_node_count(lv.db); s++) {
		ck_assert_uint_eq(twz_next(lv.db, s, s), s);
		ck_assert_int_eq(twz_path(lv.db, s, s, buf, 2, &len), TWZ_OK);
		ck_assert_uint_eq(len, 1);
		ck_assert_uint_eq(buf[0], s);
		ck_assert_uint_eq(buf[1], 9);
		ck_assert_int_eq(twz_cost_exact(lv.db, s, s, &st, &dg), TWZ_OK);
		ck_assert_uint_eq(st, 0);
		ck_assert_uint_eq(dg, 0);
		ck_assert(twz_cost(lv.db, s, s) == 0.0);
		/* No room at all: the one node does not fit. */
		ck_assert_int_eq(twz_path(lv.db, s, s, NULL, 0, &len),
				 TWZ_E_BUFFER_TOO_SMALL);
		ck_assert_uint_eq(len, 1);
	}
	level_close(&lv);
}
END_TEST

START_TEST(test_runtime_unreachable_regions)
{
	struct level lv;
	twz_node buf[80];
	size_t len;
	uint32_t st, dg;

	level_text(&lv, twz_test_small_level, 8, TWZ_CODEC_RAW);
	twz_info in;
	ck_assert_int_eq(twz_get_info(lv.db, &in), TWZ_OK);
	ck_assert_uint_eq(in.component_count, 5);
	/* (0,0) top left, (9,0) top right, (3,5) and (7,6) sealed single
	 * cells, (0,6) the four-cell pocket at the bottom left. */
	const twz_node a = twz_node_at(lv.db, 0, 0), b = twz_node_at(lv.db, 9, 0);
	const twz_node one = twz_node_at(lv.db, 3, 5), two = twz_node_at(lv.db, 7, 6);
	const twz_node pocket = twz_node_at(lv.db, 0, 6);
	const twz_node v[] = { a, b, one, two, pocket };
	for (size_t i = 0; i < 5; i++) {
		ck_assert_uint_ne(v[i], TWZ_NONE);
		for (size_t j = 0; j < 5; j++) {
			if (i == j)
				continue;
			ck_assert_uint_eq(twz_next(lv.db, v[i], v[j]), TWZ_NONE);
			len = 42;
			buf[0] = 12345;
			ck_assert_int_eq(twz_path(lv.db, v[i], v[j], buf, 80, &len),
					 TWZ_E_UNREACHABLE);
			ck_assert_uint_eq(len, 0);
			ck_assert_int_eq(twz_cost_exact(lv.db, v[i], v[j], &st, &dg),
					 TWZ_E_UNREACHABLE);
			ck_assert(isinf(twz_cost(lv.db, v[i], v[j])));
		}
	}
	/* A single cell's flow field: only itself. */
	twz_node flow[80];
	ck_assert_int_eq(twz_flow_field(lv.db, one, flow, 80), TWZ_OK);
	for (twz_node n = 0; n < twz_node_count(lv.db); n++)
		ck_assert_uint_eq(flow[n], n == one ? one : TWZ_NONE);
	level_close(&lv);
}
END_TEST

/* A path that does not fit: the distinct status, the full length, the
 * prefix filled, nothing written past the capacity. */
START_TEST(test_runtime_path_buffer_too_small)
{
	struct level lv;
	twz_node full[80], buf[81];
	size_t full_len, len;

	level_text(&lv, twz_test_small_level, 8, _i ? TWZ_CODEC_ZSTD : TWZ_CODEC_RAW);
	/* (0,0) to (9,6): around the middle wall. */
	twz_node s = twz_node_at(lv.db, 0, 0), t = twz_node_at(lv.db, 9, 6);
	ck_assert_uint_eq(twz_next(lv.db, s, t), TWZ_NONE);  /* other region */
	s = twz_node_at(lv.db, 5, 0);
	ck_assert_int_eq(twz_path(lv.db, s, t, full, 80, &full_len), TWZ_OK);
	ck_assert_uint_ge(full_len, 7);
	for (size_t cap = 0; cap <= full_len + 2; cap++) {
		for (size_t k = 0; k < 81; k++)
			buf[k] = 0xDEADBEEF;
		len = 0;
		twz_status r = twz_path(lv.db, s, t, cap ? buf : NULL, cap, &len);
		ck_assert_int_eq(r, cap < full_len ? TWZ_E_BUFFER_TOO_SMALL : TWZ_OK);
		ck_assert_uint_eq(len, full_len);
		for (size_t k = 0; k < 81; k++) {
			if (k < cap && k < full_len)
				ck_assert_uint_eq(buf[k], full[k]);
			else
				ck_assert_uint_eq(buf[k], 0xDEADBEEF);
		}
	}
	level_close(&lv);
}
END_TEST

/* Levels with no place or one place to stand. */
START_TEST(test_runtime_tiny_levels)
{
	struct level lv;
	twz_node buf[2];
	size_t len;

	level_text(&lv, ".", 8, TWZ_CODEC_ZSTD);
	ck_assert_uint_eq(twz_node_count(lv.db), 1);
	ck_assert_uint_eq(twz_node_at(lv.db, 0, 0), 0);
	ck_assert_uint_eq(twz_next(lv.db, 0, 0), 0);
	ck_assert_int_eq(twz_path(lv.db, 0, 0, buf, 2, &len), TWZ_OK);
	ck_assert_uint_eq(len, 1);
	ck_assert_int_eq(twz_flow_field(lv.db, 0, buf, 1), TWZ_OK);
	ck_assert_uint_eq(buf[0], 0);
	level_close(&lv);

	level_text(&lv, "@@@\n@@@\n", 8, _i ? TWZ_CODEC_ZSTD : TWZ_CODEC_RAW);
	twz_info in;
	ck_assert_int_eq(twz_get_info(lv.db, &in), TWZ_OK);
	ck_assert_uint_eq(in.node_count, 0);
	ck_assert_uint_eq(in.component_count, 0);
	ck_assert_uint_eq(twz_node_count(lv.db), 0);
	ck_assert_uint_eq(twz_node_at(lv.db, 1, 1), TWZ_NONE);
	ck_assert_uint_eq(twz_next(lv.db, 0, 0), TWZ_NONE);
	ck_assert_int_eq(twz_path(lv.db, 0, 0, buf, 2, &len), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_flow_field(lv.db, 0, buf, 2), TWZ_E_ARGUMENT);
	level_close(&lv);
}
END_TEST

/* One handle, queried from two threads at once, answers as from one. */
struct thread_job {
	const twz_db *db;
	twz_node *answers;   /* [n*n] */
};

static void *thread_queries(void *arg)
{
	struct thread_job *job = arg;
	uint32_t n = twz_node_count(job->db);

	for (int round = 0; round < 4; round++)
		for (twz_node s = 0; s < n; s++)
			for (twz_node t = 0; t < n; t++)
				job->answers[(size_t)s * n + t] = twz_next(job->db, s, t);
	return NULL;
}

START_TEST(test_runtime_threads_share_a_handle)
{
	struct level lv;
	pthread_t tid;

	twz_test_generate(&lv.grid, TWZ_TEST_ROOMS, 24, 16, 3);
	level_open(&lv, 8, TWZ_CODEC_ZSTD);
	uint32_t n = twz_node_count(lv.db);
	struct thread_job a = { lv.db, malloc((size_t)n * n * sizeof(twz_node)) };
	struct thread_job b = { lv.db, malloc((size_t)n * n * sizeof(twz_node)) };
	ck_assert_ptr_nonnull(a.answers);
	ck_assert_ptr_nonnull(b.answers);
	ck_assert_int_eq(pthread_create(&tid, NULL, thread_queries, &a), 0);
	thread_queries(&b);
	ck_assert_int_eq(pthread_join(tid, NULL), 0);
	ck_assert_mem_eq(a.answers, b.answers, (size_t)n * n * sizeof(twz_node));
	free(a.answers);
	free(b.answers);
	level_close(&lv);
}
END_TEST

/* ---- Version ------------------------------------------------------------- */

/* tests/fuzz/corpus/fuzz_twz/regress-direction-corner-cut.twz: a damaged
 * 1.1 file, opened without section checksums, whose direction symbol
 * stands for a diagonal that cuts a corner. The walk must refuse it
 * (TWZ_E_DAMAGED), never return a path with an illegal step. */
START_TEST(test_runtime_direction_move_never_cuts_corners)
{
	const char *root = getenv("TWZ_SOURCE_ROOT");
	char path[4096];
	twz_db *db = NULL;

	ck_assert_ptr_nonnull(root);
	snprintf(path, sizeof path, "%s/tests/fuzz/corpus/fuzz_twz/"
		 "regress-direction-corner-cut.twz", root);
	ck_assert_int_eq(twz_open(path, 0, &db), TWZ_E_CHECKSUM);
	ck_assert_int_eq(twz_open(path, TWZ_OPEN_SKIP_CHECKSUMS, &db), TWZ_OK);
	uint32_t n = twz_node_count(db);
	unsigned damaged = 0;
	twz_node *buf = malloc(((size_t)n + 1) * sizeof *buf);
	ck_assert_ptr_nonnull(buf);
	for (twz_node s = 0; s < n; s++) {
		for (twz_node t = 0; t < n; t++) {
			size_t len = 0;
			twz_status st = twz_path(db, s, t, buf, (size_t)n + 1, &len);
			damaged += st == TWZ_E_DAMAGED;
			if (st != TWZ_OK)
				continue;
			for (size_t i = 1; i < len; i++) {
				uint32_t ax, ay, bx, by;
				twz_node_xy(db, buf[i - 1], &ax, &ay);
				twz_node_xy(db, buf[i], &bx, &by);
				if (ax != bx && ay != by)
					ck_assert(twz_node_at(db, bx, ay) != TWZ_NONE &&
						  twz_node_at(db, ax, by) != TWZ_NONE);
			}
		}
	}
	ck_assert_uint_gt(damaged, 0);  /* the bad symbol is reached */
	free(buf);
	twz_close(db);
}
END_TEST

START_TEST(test_runtime_strerror_never_null)
{
	const char *unknown = twz_strerror((twz_status)-1);
	const int odd[] = { -1, -100, 13, 14, 100, 255, 4096, INT_MAX, INT_MIN };

	ck_assert_ptr_nonnull(unknown);
	for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
		const char *m = twz_strerror((twz_status)odd[i]);
		ck_assert_ptr_nonnull(m);
		ck_assert_uint_gt(strlen(m), 0);
	}
	/* Every status has its own message. */
	for (int a = TWZ_OK; a <= TWZ_E_LIMIT; a++) {
		const char *ma = twz_strerror((twz_status)a);
		ck_assert_ptr_nonnull(ma);
		ck_assert_uint_gt(strlen(ma), 0);
		ck_assert_str_ne(ma, unknown);
		for (int b = a + 1; b <= TWZ_E_LIMIT; b++)
			ck_assert_str_ne(ma, twz_strerror((twz_status)b));
	}
}
END_TEST

START_TEST(test_runtime_version)
{
	char want[32];

	snprintf(want, sizeof want, "%d.%d.%d", TWZ_VERSION_MAJOR, TWZ_VERSION_MINOR,
		 TWZ_VERSION_PATCH);
	ck_assert_ptr_nonnull(twz_version());
	ck_assert_str_eq(twz_version(), want);
	ck_assert_uint_eq(twz_version_number(), TWZ_VERSION_NUMBER);
	ck_assert_uint_eq(TWZ_VERSION_NUMBER, TWZ_VERSION_MAJOR * 10000 +
			  TWZ_VERSION_MINOR * 100 + TWZ_VERSION_PATCH);
}
END_TEST

/* The version is the build's project version (the test environment
 * carries it), not a number kept by hand in a header. */
START_TEST(test_runtime_version_is_the_project_version)
{
	const char *project = getenv("TWZ_PROJECT_VERSION");

	ck_assert_msg(project && *project, "TWZ_PROJECT_VERSION is not set");
	ck_assert_str_eq(twz_version(), project);
}
END_TEST

/* The status values are ABI: pinned here so a renumbering fails. */
START_TEST(test_runtime_status_values_pinned)
{
	ck_assert_int_eq(TWZ_OK, 0);
	ck_assert_int_eq(TWZ_E_ARGUMENT, 1);
	ck_assert_int_eq(TWZ_E_IO, 2);
	ck_assert_int_eq(TWZ_E_NOMEM, 3);
	ck_assert_int_eq(TWZ_E_NOT_TWIGZ, 4);
	ck_assert_int_eq(TWZ_E_VERSION, 5);
	ck_assert_int_eq(TWZ_E_FEATURE, 6);
	ck_assert_int_eq(TWZ_E_DAMAGED, 7);
	ck_assert_int_eq(TWZ_E_CHECKSUM, 8);
	ck_assert_int_eq(TWZ_E_RESERVED, 9);
	ck_assert_int_eq(TWZ_E_UNREACHABLE, 10);
	ck_assert_int_eq(TWZ_E_BUFFER_TOO_SMALL, 11);
	ck_assert_int_eq(TWZ_E_LIMIT, 12);
	ck_assert_uint_eq(TWZ_NONE, 0xFFFFFFFFu);
}
END_TEST

/* ---- suite --------------------------------------------------------------- */

static Suite *twz_runtime_suite(void)
{
	Suite *s = suite_create("runtime");
	TCase *tc;

	tc = tcase_create("Arguments");
	tcase_add_test(tc, test_runtime_null_handle);
	tcase_add_test(tc, test_runtime_open_arguments);
	tcase_add_test(tc, test_runtime_nodes_out_of_range);
	suite_add_tcase(s, tc);

	tc = tcase_create("Open");
	tcase_add_test(tc, test_runtime_open_files);
	tcase_add_loop_test(tc, test_runtime_open_memory_unaligned, 0, 2);
	suite_add_tcase(s, tc);

	tc = tcase_create("Queries");
	tcase_add_test(tc, test_runtime_node_lookup_round_trip);
	tcase_add_loop_test(tc, test_runtime_every_pair_is_optimal, 0, QUERY_CASES);
	tcase_add_test(tc, test_runtime_same_node);
	tcase_add_test(tc, test_runtime_unreachable_regions);
	tcase_add_loop_test(tc, test_runtime_path_buffer_too_small, 0, 2);
	tcase_add_loop_test(tc, test_runtime_tiny_levels, 0, 2);
	tcase_add_test(tc, test_runtime_threads_share_a_handle);
	tcase_add_test(tc, test_runtime_direction_move_never_cuts_corners);
	suite_add_tcase(s, tc);

	tc = tcase_create("Version");
	tcase_add_test(tc, test_runtime_strerror_never_null);
	tcase_add_test(tc, test_runtime_version);
	tcase_add_test(tc, test_runtime_version_is_the_project_version);
	tcase_add_test(tc, test_runtime_status_values_pinned);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_runtime_suite());
}
