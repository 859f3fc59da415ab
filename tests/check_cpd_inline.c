/*
 * check_cpd_inline.c - format 1.4's inline-summarised CPD rows
 * (TWZ_FEATURE_CPD_INLINE, FORMAT.md 5i): every pair of generated levels
 * against a plain Dijkstra and against the 1.2 layout of the same bake
 * (the same moves, read another way); narrow buckets that push rows past
 * the summary's 32; byte identity whatever the threads, and of merged
 * shards; the plain runs the tool unpacks; Moving AI scenarios optimal;
 * the golden files tests/golden/v1_4_cpd.twz (16-bucket records) and
 * v1_4_cpd32.twz (wide ones); and crafted files (checksums recomputed)
 * refused at open, never read out of bounds.
 */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bake.h"
#include "level_map.h"
#include "level_scen.h"
#include "twz_format.h"
#include "twz_inspect.h"
#include "twz_validate.h"

/* ---- baking ------------------------------------------------------------ */

/* g baked by the library with the given layout and bucket scan (0: the
 * default), raw, on `threads` threads. */
static uint8_t *bake(const struct twz_grid *g, unsigned connectivity,
		     unsigned layout, unsigned max_scan, unsigned threads,
		     size_t *len)
{
	struct twz_bake_options opt;
	struct twz_cpd cpd;
	struct twz_error err;
	uint8_t *buf = NULL;

	twz_bake_options_default(&opt);
	opt.layout = layout;
	if (max_scan)
		opt.max_scan = max_scan;
	opt.connectivity = connectivity;
	opt.codec = TWZ_CODEC_RAW;
	opt.threads = threads;
	opt.name = "test level";
	memset(&err, 0, sizeof err);
	ck_assert_msg(twz_bake_cpd(g, &opt, &cpd, &err) == 0, "bake: %s", err.msg);
	int rc = twz_cpd_encode(&cpd, g, &opt, &buf, len, &err);
	twz_cpd_free(&cpd);
	ck_assert_msg(rc == 0, "encode: %s", err.msg);
	return buf;
}

/* The file is 1.4 with inline rows (and narrow cells below 0xFFFF nodes). */
static void expect_inline(const twz_db *db)
{
	const struct twz_container *c = twz_inspect_container(db);

	ck_assert_uint_eq(c->minor, 4);
	ck_assert(c->required_features & TWZ_FEATURE_CPD_INLINE);
	ck_assert(!(c->required_features & TWZ_FEATURE_BUCKETED_ROWS));
	ck_assert_uint_eq(!!(c->required_features & TWZ_FEATURE_NARROW_CELL_NODE),
			  c->node_count < TWZ_NARROW_NONE);
}

/* ---- every pair against Dijkstra and the 1.2 layout -------------------- */

/*
 * For every source: Dijkstra from its cell; for every target, the path's
 * moves are legal and its cost the optimum, twz_cost_exact agrees,
 * unreachable targets have no move, and twz_next is the 1.2 file's.
 */
static void check_all_pairs(const struct twz_grid *g, unsigned conn,
			    twz_db *db, twz_db *ref)
{
	twz_info in;
	size_t cells = (size_t)g->width * g->height;
	struct twz_cost *dist = malloc(cells * sizeof *dist);
	twz_node *path = malloc(cells * sizeof *path);

	ck_assert_ptr_nonnull(dist);
	ck_assert_ptr_nonnull(path);
	twz_get_info(db, &in);
	for (twz_node s = 0; s < in.node_count; s++) {
		uint32_t sx, sy;
		ck_assert_int_eq(twz_node_xy(db, s, &sx, &sy), TWZ_OK);
		twz_test_dijkstra(g, conn, sx, sy, dist);
		for (twz_node t = 0; t < in.node_count; t++) {
			uint32_t tx, ty;
			twz_node_xy(db, t, &tx, &ty);
			struct twz_cost want = dist[(size_t)ty * g->width + tx];
			twz_node nx = twz_next(db, s, t);
			expect(nx == twz_next(ref, s, t),
			       "(%u,%u) -> (%u,%u): next %u, 1.2 file %u",
			       sx, sy, tx, ty, nx, twz_next(ref, s, t));
			if (twz_test_cost_eq(want, twz_test_unreachable)) {
				expect(nx == TWZ_NONE, "(%u,%u) -> (%u,%u): a move, %u, to "
				       "no place reached", sx, sy, tx, ty, nx);
				continue;
			}
			size_t len = 0;
			expect(twz_path(db, s, t, path, cells, &len) == TWZ_OK,
			       "(%u,%u) -> (%u,%u): no path", sx, sy, tx, ty);
			struct twz_cost c = { 0, 0 };
			uint32_t x = sx, y = sy;
			for (size_t i = 1; i < len; i++) {
				uint32_t ax, ay;
				twz_node_xy(db, path[i], &ax, &ay);
				int m = -1;
				for (unsigned k = 0; k < conn; k++)
					if (twz_test_move_dx(k) == (int64_t)ax - x &&
					    twz_test_move_dy(k) == (int64_t)ay - y)
						m = (int)k;
				expect(m >= 0 && twz_test_move_legal(g, conn, x, y,
								     (unsigned)m),
				       "(%u,%u) -> (%u,%u): step (%u,%u) -> (%u,%u) illegal",
				       sx, sy, tx, ty, x, y, ax, ay);
				c = twz_test_cost_add_move(c, (unsigned)m);
				x = ax;
				y = ay;
			}
			expect(twz_test_cost_eq(c, want),
			       "(%u,%u) -> (%u,%u): path {%u,%u}, Dijkstra {%u,%u}",
			       sx, sy, tx, ty, c.straight, c.diagonal,
			       want.straight, want.diagonal);
			uint32_t cs, cd;
			expect(twz_cost_exact(db, s, t, &cs, &cd) == TWZ_OK &&
			       cs == c.straight && cd == c.diagonal,
			       "(%u,%u) -> (%u,%u): twz_cost_exact {%u,%u}, path {%u,%u}",
			       sx, sy, tx, ty, cs, cd, c.straight, c.diagonal);
		}
	}
	free(dist);
	free(path);
}

/* Loop index: kind (i / 4), connectivity (i / 2 % 2), bucket scan (i % 2:
 * the default, or 1, which narrows buckets until rows outgrow the
 * summary's 32 and the later buckets are always in the row). */
START_TEST(test_inline_all_pairs)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i / 4);
	unsigned conn = _i / 2 % 2 ? 4 : 8;
	unsigned scan = _i % 2 ? 1 : 0;
	struct twz_grid g;
	size_t len, rlen;

	twz_test_generate(&g, kind, 24, 16, 11 + (uint64_t)_i);
	uint8_t *buf = bake(&g, conn, TWZ_LAYOUT_INLINE, scan, 2, &len);
	uint8_t *ref = bake(&g, conn, TWZ_LAYOUT_NARROW, scan, 2, &rlen);
	twz_db *db = twz_test_open_buf(buf, len), *rdb = twz_test_open_buf(ref, rlen);
	expect_inline(db);
	check_all_pairs(&g, conn, db, rdb);
	twz_close(db);
	twz_close(rdb);
	free(buf);
	free(ref);
	twz_grid_free(&g);
}
END_TEST

/* ---- the rows unpacked, the threads, the shards ------------------------ */

/* The plain runs the tool unpacks (twigz unpack, the benchmark's binary
 * search) are the 1.2 file's run for run: both hold the encoder's rows. */
START_TEST(test_inline_unpacks_to_the_same_runs)
{
	struct twz_grid g;
	size_t len, rlen;

	twz_test_generate(&g, (enum twz_test_level_kind)_i, 45, 31, 5);
	uint8_t *buf = bake(&g, 8, TWZ_LAYOUT_INLINE, 0, 1, &len);
	uint8_t *ref = bake(&g, 8, TWZ_LAYOUT_NARROW, 0, 1, &rlen);
	twz_db *db = twz_test_open_buf(buf, len), *rdb = twz_test_open_buf(ref, rlen);
	struct twz_plain_rows a, b;
	ck_assert_int_eq(twz_inspect_plain_rows(db, &a), 0);
	ck_assert_int_eq(twz_inspect_plain_rows(rdb, &b), 0);
	ck_assert_uint_eq(a.run_count, b.run_count);
	twz_info in;
	twz_get_info(db, &in);
	ck_assert(memcmp(a.row_offsets, b.row_offsets,
			 4 * ((size_t)in.node_count + 1)) == 0);
	ck_assert(memcmp(a.runs, b.runs, 4 * (size_t)a.run_count) == 0);
	for (twz_node s = 0; s < in.node_count; s++)
		ck_assert_uint_eq(twz_inspect_row_runs(db, s),
				  twz_inspect_row_runs(rdb, s));
	free(a.owned);
	free(b.owned);
	twz_close(db);
	twz_close(rdb);
	free(buf);
	free(ref);
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_inline_threads_identical)
{
	struct twz_grid g;
	size_t l1, l3;

	twz_test_generate(&g, TWZ_TEST_CAVES, 70, 50, 3);
	uint8_t *a = bake(&g, 8, TWZ_LAYOUT_INLINE, 0, 1, &l1);
	uint8_t *b = bake(&g, 8, TWZ_LAYOUT_INLINE, 0, 3, &l3);
	ck_assert_uint_eq(l1, l3);
	ck_assert_msg(memcmp(a, b, l1) == 0, "1 and 3 threads bake other bytes");
	free(a);
	free(b);
	twz_grid_free(&g);
}
END_TEST

/* `twigz build --format 1.4 --shard I/3` merged is the single bake. */
START_TEST(test_inline_shards_merge)
{
	char dir[4096], map[4200], one[4200], part[3][4200], merged[4200],
	     shard[3][8];
	struct twz_grid g;
	struct twz_test_run r;

	twz_test_make_dir(dir, sizeof dir, "inline-shard");
	snprintf(map, sizeof map, "%s/l.map", dir);
	snprintf(one, sizeof one, "%s/one.twz", dir);
	snprintf(merged, sizeof merged, "%s/merged.twz", dir);
	twz_test_generate(&g, TWZ_TEST_ROOMS, 48, 36, 9);
	twz_test_write_map(map, &g);
	const char *single[] = { "build", map, "-o", one, "--format", "1.4",
				 "--quiet", NULL };
	twz_test_run_tool(single, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "build: %s", r.err);
	twz_test_run_free(&r);
	for (unsigned i = 0; i < 3; i++) {
		snprintf(part[i], sizeof part[i], "%s/p%u.twzp", dir, i);
		snprintf(shard[i], sizeof shard[i], "%u/3", i + 1);
		const char *args[] = { "build", map, "-o", part[i], "--format",
				       "1.4", "--shard", shard[i], "--quiet", NULL };
		twz_test_run_tool(args, NULL, 0, &r);
		ck_assert_msg(r.status == 0, "shard %s: %s", shard[i], r.err);
		twz_test_run_free(&r);
	}
	const char *args[] = { "merge", "-o", merged, "--quiet", part[2],
			       part[0], part[1], NULL };
	twz_test_run_tool(args, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "merge: %s", r.err);
	twz_test_run_free(&r);
	size_t la, lb;
	uint8_t *a = twz_test_read_file(one, &la), *b = twz_test_read_file(merged, &lb);
	ck_assert_msg(la == lb && memcmp(a, b, la) == 0,
		      "merged shards differ from the single bake");
	twz_db *db = twz_test_open_buf(a, la);
	expect_inline(db);
	twz_close(db);
	free(a);
	free(b);
	twz_grid_free(&g);
	twz_test_remove_tree(dir);
}
END_TEST

/* ---- Moving AI scenarios ---------------------------------------------- */

static const char *const scenario_levels[] = { "dao/arena", "da2/ht_chantry_n" };

START_TEST(test_inline_movingai_optimal)
{
	char scen[4096];
	struct twz_grid g;
	struct twz_scen sc;
	size_t len;

	if (twz_test_movingai_load(scenario_levels[_i], &g, &sc, scen,
				   sizeof scen) != 0) {
		printf("# movingai levels not found at %s: skipped\n",
		       twz_test_movingai_where());
		return;
	}
	uint8_t *buf = bake(&g, 8, TWZ_LAYOUT_INLINE, 0, 0, &len);
	twz_db *db = twz_test_open_buf(buf, len);
	expect_inline(db);
	twz_test_check_scenarios(db, &g, &sc, scen);
	twz_close(db);
	free(buf);
	twz_scen_free(&sc);
	twz_grid_free(&g);
}
END_TEST

/* ---- the golden file --------------------------------------------------- */

/* Both golden files of v1_0.map open as 1.4 and answer every pair
 * optimally: v1_4_cpd.twz, 16-bucket records (kind 96), and
 * v1_4_cpd32.twz, wide ones (kind 98); today's bake of that level holds
 * the sections of the second. */
START_TEST(test_inline_golden)
{
	static const char *const files[] = {
		"tests/golden/v1_4_cpd.twz", "tests/golden/v1_4_cpd32.twz"
	};
	static const unsigned rec_kinds[] = {
		TWZ_SECTION_INLINE_RECORDS, TWZ_SECTION_INLINE_RECORDS_WIDE
	};
	struct twz_grid g;
	size_t len, glen;
	struct twz_error err;

	memset(&err, 0, sizeof err);
	ck_assert_msg(twz_grid_load(twz_test_source_file("tests/golden/v1_0.map"),
				    &g, &err) == 0, "%s", err.msg);
	uint8_t *ref = bake(&g, 8, TWZ_LAYOUT_NARROW, 0, 1, &len);
	twz_db *rdb = twz_test_open_buf(ref, len);
	for (unsigned f = 0; f < 2; f++) {
		uint8_t *gold = twz_test_read_file(twz_test_source_file(files[f]),
						   &glen);
		twz_db *db = twz_test_open_buf(gold, glen);
		expect_inline(db);
		const uint8_t *a;
		size_t sa;
		twz_inspect_section(db, rec_kinds[f], &a, &sa);
		ck_assert_msg(a && sa, "%s: no record kind %u", files[f],
			      rec_kinds[f]);
		check_all_pairs(&g, 8, db, rdb);
		twz_close(db);
		free(gold);
	}
	twz_close(rdb);
	free(ref);

	/* Section by section (the golden file also holds BUILD_INFO). */
	uint8_t *gold = twz_test_read_file(twz_test_source_file(files[1]), &glen);
	twz_db *db = twz_test_open_buf(gold, glen);
	uint8_t *now = bake(&g, 8, TWZ_LAYOUT_INLINE, 0, 1, &len);
	twz_db *ndb = twz_test_open_buf(now, len);
	static const unsigned kinds[] = {
		TWZ_SECTION_CELL_NODE, TWZ_SECTION_REGIONS,
		TWZ_SECTION_INLINE_RECORDS_WIDE, TWZ_SECTION_INLINE_ROWS
	};
	for (unsigned i = 0; i < sizeof kinds / sizeof *kinds; i++) {
		const uint8_t *a, *b;
		size_t sa, sb;
		twz_inspect_section(db, kinds[i], &a, &sa);
		twz_inspect_section(ndb, kinds[i], &b, &sb);
		ck_assert_msg(a && b && sa == sb && memcmp(a, b, sa) == 0,
			      "section %u differs from the golden file's", kinds[i]);
	}
	twz_close(ndb);
	free(now);
	twz_close(db);
	free(gold);
	twz_grid_free(&g);
}
END_TEST

/* ---- crafted files ------------------------------------------------------ */

static uint8_t *section(uint8_t *buf, uint32_t kind, uint64_t *size)
{
	uint8_t *e = twz_test_section_entry(buf, kind);

	ck_assert_ptr_nonnull(e);
	*size = twz_le64(e + TWZ_S_SIZE);
	return buf + twz_le64(e + TWZ_S_OFFSET);
}

/* A raw 1.4 bake of a level of rooms, to damage. */
struct crafted {
	struct twz_grid g;
	uint8_t *orig, *buf;
	size_t len;
	uint8_t *rec, *rows;
	uint64_t rec_size, row_size;
	uint32_t nodes;
};

static void crafted_make(struct crafted *f)
{
	twz_test_generate(&f->g, TWZ_TEST_ROOMS, 30, 22, 21);
	f->orig = bake(&f->g, 8, TWZ_LAYOUT_INLINE, 0, 1, &f->len);
	f->buf = malloc(f->len);
	ck_assert_ptr_nonnull(f->buf);
	f->nodes = twz_le32(f->orig + TWZ_H_NODE_COUNT);
}

/* A fresh copy to damage. */
static void crafted_reset(struct crafted *f)
{
	memcpy(f->buf, f->orig, f->len);
	f->rec = section(f->buf, TWZ_SECTION_INLINE_RECORDS_WIDE, &f->rec_size);
	f->rows = section(f->buf, TWZ_SECTION_INLINE_ROWS, &f->row_size);
}

static twz_status crafted_status(struct crafted *f)
{
	twz_test_reseal(f->buf);
	return twz_test_try_open(f->buf, f->len, 0);
}

static void crafted_free(struct crafted *f)
{
	free(f->orig);
	free(f->buf);
	twz_grid_free(&f->g);
}

/* Node n's record. */
static uint8_t *rec_of(struct crafted *f, uint32_t n)
{
	return f->rec + (size_t)n * TWZ_INLINE_WIDE_RECORD_SIZE;
}

/* The first node whose summary escapes some bucket and whose row holds
 * runs; and the first with every bucket summarised. */
static uint32_t node_with_row(struct crafted *f)
{
	for (uint32_t n = 0; n + 1 < f->nodes; n++)
		if ((twz_le32(rec_of(f, n + 1)) & TWZ_ROW_OFFSET_MASK) >
		    (twz_le32(rec_of(f, n)) & TWZ_ROW_OFFSET_MASK) + 2)
			return n;
	ck_abort_msg("no row with runs");
	return 0;
}

START_TEST(test_inline_crafted_refused)
{
	struct crafted f;

	crafted_make(&f);
	crafted_reset(&f);
	ck_assert_int_eq(crafted_status(&f), TWZ_OK);

	/* Bucket shift past 12. */
	crafted_reset(&f);
	uint32_t n = node_with_row(&f);
	twz_put32(rec_of(&f, n), twz_le32(rec_of(&f, n)) | 0xFu << TWZ_ROW_OFFSET_BITS);
	ck_assert_int_eq(crafted_status(&f), TWZ_E_DAMAGED);

	/* A summary nibble past the region's buckets. */
	crafted_reset(&f);
	twz_put64(rec_of(&f, n) + TWZ_IR_SUMMARY, twz_le64(rec_of(&f, n) + TWZ_IR_SUMMARY) |
		  (uint64_t)1 << 63);
	twz_status st = crafted_status(&f);
	ck_assert_msg(st == TWZ_E_DAMAGED || st == TWZ_OK, "status %d", st);

	/* Every nibble an undefined symbol (11). */
	crafted_reset(&f);
	twz_put64(rec_of(&f, n) + TWZ_IR_SUMMARY, 0xBBBBBBBBBBBBBBBBull);
	ck_assert_int_eq(crafted_status(&f), TWZ_E_DAMAGED);

	/* A summarised move that leaves the grid or hits a wall: move 0
	 * (north) from every node of row 0 is illegal. */
	crafted_reset(&f);
	for (uint32_t k = 0; k < f.nodes; k++)
		if (twz_le16(rec_of(&f, k) + TWZ_IR_Y) == 0) {
			twz_put64(rec_of(&f, k) + TWZ_IR_SUMMARY, 0);
			break;
		}
	ck_assert_int_eq(crafted_status(&f), TWZ_E_DAMAGED);

	/* Row offsets: node 0's not 0; one past the end; one going back. */
	crafted_reset(&f);
	twz_put32(rec_of(&f, 0), twz_le32(rec_of(&f, 0)) + 1);
	ck_assert_int_eq(crafted_status(&f), TWZ_E_DAMAGED);
	crafted_reset(&f);
	twz_put32(rec_of(&f, n + 1), (twz_le32(rec_of(&f, n + 1)) &
				      ~TWZ_ROW_OFFSET_MASK) |
				     (uint32_t)(f.row_size / 2 + 1));
	ck_assert_int_eq(crafted_status(&f), TWZ_E_DAMAGED);
	crafted_reset(&f);
	twz_put32(rec_of(&f, n + 1), twz_le32(rec_of(&f, n)));
	st = crafted_status(&f);
	ck_assert_int_ne(st, TWZ_OK);

	/* The row's runs: offsets out of their bucket, falling, undefined
	 * symbols; index entries past the row. Any word of the row. */
	uint32_t begin = twz_le32(rec_of(&f, n)) & TWZ_ROW_OFFSET_MASK;
	uint32_t end = twz_le32(rec_of(&f, n + 1)) & TWZ_ROW_OFFSET_MASK;
	for (uint32_t w = begin; w < end; w++) {
		static const uint16_t bad[] = { 0xFFFF, 0xFFF0, 0x000B, 0x7FFF };
		for (unsigned b = 0; b < sizeof bad / sizeof *bad; b++) {
			crafted_reset(&f);
			twz_put16(f.rows + 2 * (size_t)w, bad[b]);
			st = crafted_status(&f);
			if (st == TWZ_OK) {
				/* Still valid: then every query stays in
				 * bounds and ends (ASan sees the reads). */
				twz_db *db = twz_test_open_buf(f.buf, f.len);
				for (twz_node t = 0; t < f.nodes; t++)
					(void)twz_next(db, n, t);
				twz_close(db);
			}
		}
	}

	/* x and y no longer CELL_NODE's inverse. */
	crafted_reset(&f);
	twz_put16(rec_of(&f, n) + TWZ_IR_X, twz_le16(rec_of(&f, n) + TWZ_IR_X) ^ 1);
	ck_assert_int_eq(crafted_status(&f), TWZ_E_DAMAGED);

	/* INLINE_ROWS of an odd size. */
	crafted_reset(&f);
	uint8_t *e = twz_test_section_entry(f.buf, TWZ_SECTION_INLINE_ROWS);
	if (f.row_size) {
		twz_put64(e + TWZ_S_SIZE, f.row_size - 1);
		twz_put64(e + TWZ_S_RAW_SIZE, f.row_size - 1);
		ck_assert_int_ne(crafted_status(&f), TWZ_OK);
	}

	/* A section missing: the records renamed to an unknown kind. */
	crafted_reset(&f);
	e = twz_test_section_entry(f.buf, TWZ_SECTION_INLINE_RECORDS_WIDE);
	twz_put32(e + TWZ_S_KIND, 111);
	ck_assert_int_eq(crafted_status(&f), TWZ_E_DAMAGED);

	/* Wide records renamed to 16-byte ones: their size is wrong. */
	crafted_reset(&f);
	e = twz_test_section_entry(f.buf, TWZ_SECTION_INLINE_RECORDS_WIDE);
	twz_put32(e + TWZ_S_KIND, TWZ_SECTION_INLINE_RECORDS);
	ck_assert_int_eq(crafted_status(&f), TWZ_E_DAMAGED);

	/* A nibble of the summary's second word (buckets 16 to 31) an
	 * undefined symbol, past the buckets or not. */
	crafted_reset(&f);
	twz_put64(rec_of(&f, n) + TWZ_IR_SUMMARY + 8, 0xBBBBBBBBBBBBBBBBull);
	ck_assert_int_eq(crafted_status(&f), TWZ_E_DAMAGED);

	/* The feature bit with 1.1's bucketed bit, or in a TRANSIT header. */
	crafted_reset(&f);
	twz_put64(f.buf + TWZ_H_REQUIRED, twz_le64(f.buf + TWZ_H_REQUIRED) |
		  TWZ_FEATURE_BUCKETED_ROWS);
	ck_assert_int_eq(crafted_status(&f), TWZ_E_DAMAGED);
	crafted_reset(&f);
	f.buf[TWZ_H_METHOD] = TWZ_METHOD_TRANSIT;
	ck_assert_int_eq(crafted_status(&f), TWZ_E_DAMAGED);

	/* Without the bit, the file has no rows this reader reads. */
	crafted_reset(&f);
	twz_put64(f.buf + TWZ_H_REQUIRED, twz_le64(f.buf + TWZ_H_REQUIRED) &
		  ~(uint64_t)TWZ_FEATURE_CPD_INLINE);
	ck_assert_int_ne(crafted_status(&f), TWZ_OK);

	/* A reader that knows bits 0 to 2 only refuses the file. */
	crafted_reset(&f);
	twz_put64(f.buf + TWZ_H_REQUIRED, twz_le64(f.buf + TWZ_H_REQUIRED) |
		  (uint64_t)1 << 40);
	ck_assert_int_eq(crafted_status(&f), TWZ_E_FEATURE);
	crafted_free(&f);
}
END_TEST

/* Every single byte of the records and rows flipped: refused, or opened
 * with every query of the damaged source in bounds and ending. */
START_TEST(test_inline_crafted_bytes)
{
	struct crafted f;

	crafted_make(&f);
	crafted_reset(&f);
	size_t rec_off = (size_t)(f.rec - f.buf), rows_off = (size_t)(f.rows - f.buf);
	size_t span = (size_t)f.rec_size + (size_t)f.row_size;
	for (size_t i = (size_t)_i; i < span; i += 29) {
		crafted_reset(&f);
		size_t at = i < f.rec_size ? rec_off + i : rows_off + (i - f.rec_size);
		f.buf[at] ^= (uint8_t)(0x5A + i);
		if (crafted_status(&f) != TWZ_OK)
			continue;
		twz_db *db = twz_test_open_buf(f.buf, f.len);
		twz_node path[2048];
		size_t len;
		twz_node s = (twz_node)(i % f.nodes);
		for (twz_node t = 0; t < f.nodes; t++) {
			(void)twz_next(db, s, t);
			if (t % 64 == 0)
				(void)twz_path(db, s, t, path, 2048, &len);
		}
		twz_close(db);
	}
	crafted_free(&f);
}
END_TEST

static Suite *twz_cpd_inline_suite(void)
{
	Suite *s = suite_create("cpd_inline");
	TCase *tc = tcase_create("Pairs");
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_inline_all_pairs, 0, 4 * TWZ_TEST_KIND_COUNT);
	tcase_add_loop_test(tc, test_inline_unpacks_to_the_same_runs, 0,
			    TWZ_TEST_KIND_COUNT);
	tcase_add_test(tc, test_inline_threads_identical);
	tcase_add_test(tc, test_inline_shards_merge);
	tcase_add_loop_test(tc, test_inline_movingai_optimal, 0,
			    (int)(sizeof scenario_levels / sizeof *scenario_levels));
	tcase_add_test(tc, test_inline_golden);
	suite_add_tcase(s, tc);

	tc = tcase_create("Crafted");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_inline_crafted_refused);
	tcase_add_loop_test(tc, test_inline_crafted_bytes, 0, 7);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_cpd_inline_suite());
}
