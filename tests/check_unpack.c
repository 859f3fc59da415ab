/*
 * check_unpack.c - `twigz unpack`: a zstd database rewritten raw keeps its
 * header and answers every query identically, is then read straight from
 * the mapping, and bad input gets one line naming the file, a non-zero
 * status and no output file.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bake.h"
#include "test_support.h"
#include "twigz.h"
#include "twz_format.h"
#include "twz_inspect.h"
#include "twz_validate.h"

/* ---- files and the tool ---------------------------------------------- */

static void work_path(char *buf, size_t cap, const char *name)
{
	snprintf(buf, cap, "%s/%s", twz_test_work_dir(), name);
}

static int file_exists(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0;
}

/* Runs "twigz unpack a0 a1 a2 a3" (a NULL ends the arguments early);
 * returns its exit status and leaves its stderr in err. */
static int run_tool(char *err, size_t cap, const char *a0, const char *a1,
		    const char *a2, const char *a3)
{
	const char *const args[] = { "unpack", a0, a1, a2, a3, NULL };
	struct twz_test_run r;

	twz_test_run_tool(args, NULL, 0, &r);
	ck_assert_msg(r.signal == 0, "the tool died (signal %d)", r.signal);
	snprintf(err, cap, "%s", r.err);
	twz_test_run_free(&r);
	return r.status;
}

/* One line, naming the file. */
static void expect_one_line(const char *err, const char *name)
{
	const char *nl = strchr(err, '\n');
	ck_assert_msg(nl && nl[1] == 0, "not one line: '%s'", err);
	ck_assert_msg(strstr(err, name) != NULL, "'%s' does not name %s", err, name);
}

/* ---- levels ------------------------------------------------------------ */

static const unsigned layouts[] = { TWZ_LAYOUT_NARROW, TWZ_LAYOUT_BUCKETED,
				     TWZ_LAYOUT_PLAIN };

/* Every field of the header but the codec and the sizes. */
static void expect_same_header(const struct twz_container *a,
			       const struct twz_container *b)
{
	ck_assert_uint_eq(a->major, b->major);
	ck_assert_uint_eq(a->minor, b->minor);
	ck_assert_uint_eq(a->required_features, b->required_features);
	ck_assert_uint_eq(a->optional_features, b->optional_features);
	ck_assert_uint_eq(a->level_hash, b->level_hash);
	ck_assert_uint_eq(a->width, b->width);
	ck_assert_uint_eq(a->height, b->height);
	ck_assert_uint_eq(a->node_count, b->node_count);
	ck_assert_uint_eq(a->component_count, b->component_count);
	ck_assert_uint_eq(a->method, b->method);
	ck_assert_uint_eq(a->connectivity, b->connectivity);
	ck_assert_uint_eq(a->node_order, b->node_order);
	ck_assert_int_eq(a->build_level, b->build_level);
	ck_assert_uint_eq(a->section_count, b->section_count);
}

/* ---- round trip --------------------------------------------------------- */

/* A generated level baked on one thread and written as work/in.twz; in
 * and out (4200 bytes each) get the paths of in.twz and out.twz. Returns
 * the baked bytes (malloc'd). */
static uint8_t *write_input(enum twz_test_level_kind kind, uint32_t width,
			    uint32_t height, uint64_t seed, unsigned connectivity,
			    unsigned codec, unsigned layout, size_t *len,
			    char *in, char *out)
{
	struct twz_grid g;

	twz_test_generate(&g, kind, width, height, seed);
	uint8_t *buf = twz_test_bake_layout(&g, connectivity, codec, 1, layout, len);
	twz_grid_free(&g);
	work_path(in, 4200, "in.twz");
	work_path(out, 4200, "out.twz");
	twz_test_write_file(in, buf, *len);
	return buf;
}

/* Level kind by loop index: _i / 6 the kind, _i / 2 % 3 the layout, bit 0
 * the connectivity. */
START_TEST(test_unpack_round_trip)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i / 6);
	unsigned layout = layouts[_i / 2 % 3];
	unsigned connectivity = _i & 1 ? 4 : 8;
	char in[4200], out[4200], err[1024];
	size_t in_len, out_len;
	uint8_t *zbuf = write_input(kind, 23, 17, 1000 + (uint64_t)_i, connectivity,
				    TWZ_CODEC_ZSTD, layout, &in_len, in, out);

	int rc = run_tool(err, sizeof err, in, "-o", out, NULL);
	ck_assert_msg(rc == 0, "unpack %s: exit %d: %s", twz_test_kind_name(kind),
		      rc, err);
	ck_assert_str_eq(err, "");
	uint8_t *rbuf = twz_test_read_file(out, &out_len);

	/* Every section raw, holding the same bytes. */
	struct twz_container ci, co;
	ck_assert_int_eq(twz_parse_container(zbuf, in_len, &ci), TWZ_OK);
	ck_assert_int_eq(twz_parse_container(rbuf, out_len, &co), TWZ_OK);
	expect_same_header(&ci, &co);
	ck_assert_uint_eq(co.build_codec, TWZ_CODEC_RAW);
	int compressed = 0;
	for (uint32_t i = 0; i < co.section_count; i++) {
		ck_assert_uint_eq(co.sections[i].codec, TWZ_CODEC_RAW);
		ck_assert_uint_eq(co.sections[i].kind, ci.sections[i].kind);
		ck_assert_uint_eq(co.sections[i].raw_size, ci.sections[i].raw_size);
		ck_assert_uint_eq(co.sections[i].raw_checksum,
				  ci.sections[i].raw_checksum);
		compressed |= ci.sections[i].codec == TWZ_CODEC_ZSTD;
	}
	ck_assert_msg(compressed, "the zstd bake stored nothing compressed");

	/* The same answers for every pair. */
	twz_db *a, *b;
	ck_assert_int_eq(twz_open(in, 0, &a), TWZ_OK);
	ck_assert_int_eq(twz_open(out, 0, &b), TWZ_OK);
	uint32_t n = twz_node_count(a);
	ck_assert_uint_eq(twz_node_count(b), n);
	ck_assert_uint_gt(n, 1);
	/* expect, not ck_assert, in the loop: a passing ck_assert costs a
	 * system call. */
	for (twz_node s = 0; s < n; s++) {
		for (twz_node t = 0; t < n; t++) {
			uint32_t sa = 0, da = 0, sb = 0, db = 0;
			twz_status ra = twz_cost_exact(a, s, t, &sa, &da);
			twz_status rb = twz_cost_exact(b, s, t, &sb, &db);
			expect(twz_next(a, s, t) == twz_next(b, s, t) && ra == rb &&
			       sa == sb && da == db,
			       "%u -> %u: the unpacked file answers otherwise", s, t);
		}
	}
	twz_close(a);
	twz_close(b);
	free(rbuf);
	free(zbuf);
}
END_TEST

/* A raw database is used in place: no section is copied at open. */
START_TEST(test_unpack_output_is_zero_copy)
{
	char in[4200], out[4200], err[1024];
	size_t len;
	uint8_t *zbuf = write_input(TWZ_TEST_ROOMS, 40, 30, 7, 8, TWZ_CODEC_ZSTD,
				    layouts[_i], &len, in, out);

	ck_assert_int_eq(run_tool(err, sizeof err, in, "-o", out, NULL), 0);

	twz_db *db;
	ck_assert_int_eq(twz_open(out, 0, &db), TWZ_OK);
	const uint8_t *file;
	size_t file_len;
	twz_inspect_file(db, &file, &file_len);
	for (unsigned k = 0; k < TWZ_SECTION_KIND_LIMIT; k++) {
		const uint8_t *p;
		size_t size;
		ck_assert_ptr_null(twz_inspect_section(db, k, &p, &size));
		if (p)
			ck_assert_msg(p >= file && p + size <= file + file_len,
				      "section %u is not read from the mapping", k);
	}
	twz_info info;
	ck_assert_int_eq(twz_get_info(db, &info), TWZ_OK);
	ck_assert_uint_eq(info.build_codec, TWZ_CODEC_RAW);
	twz_close(db);
	free(zbuf);
}
END_TEST

/* Unpacking a raw bake changes nothing, byte for byte. */
START_TEST(test_unpack_raw_input_unchanged)
{
	char in[4200], out[4200], err[1024];
	size_t len, out_len;
	uint8_t *raw = write_input(TWZ_TEST_CAVES, 32, 32, 11, 8, TWZ_CODEC_RAW,
				   layouts[_i], &len, in, out);

	ck_assert_int_eq(run_tool(err, sizeof err, in, "-o", out, NULL), 0);
	uint8_t *again = twz_test_read_file(out, &out_len);
	ck_assert_uint_eq(out_len, len);
	ck_assert_msg(memcmp(raw, again, len) == 0, "the bytes differ");
	free(again);
	free(raw);
}
END_TEST

/* A zstd TRANSIT bake unpacks to exactly the raw bake of the same level
 * and options, although open frees its inflated distance planes once it
 * has converted them. _i picks the connectivity. */
START_TEST(test_unpack_transit_matches_raw_bake)
{
	const char *conn = _i ? "4" : "8";
	char level[4200], z[4200], r[4200], u[4200], err[1024];
	struct twz_test_run run;
	struct twz_grid g;

	twz_test_generate(&g, TWZ_TEST_OPEN_HOLLOW, 48, 40, 5);
	work_path(level, sizeof level, "open.map");
	twz_test_write_map(level, &g);
	twz_grid_free(&g);

	work_path(z, sizeof z, "transit_zstd.twz");
	work_path(r, sizeof r, "transit_raw.twz");
	work_path(u, sizeof u, "transit_unpacked.twz");
	const char *const zargs[] = { "build", level, "-o", z, "--method", "transit",
				      "--connectivity", conn, "--quiet", NULL };
	const char *const rargs[] = { "build", level, "-o", r, "--method", "transit",
				      "--connectivity", conn, "--codec", "raw",
				      "--quiet", NULL };
	twz_test_run_tool(zargs, NULL, 0, &run);
	ck_assert_msg(run.status == 0, "zstd bake: %s", run.err);
	twz_test_run_free(&run);
	twz_test_run_tool(rargs, NULL, 0, &run);
	ck_assert_msg(run.status == 0, "raw bake: %s", run.err);
	twz_test_run_free(&run);

	size_t zlen, rlen, ulen;
	uint8_t *zbuf = twz_test_read_file(z, &zlen);
	struct twz_container c;
	ck_assert_int_eq(twz_parse_container(zbuf, zlen, &c), TWZ_OK);
	ck_assert_uint_eq(c.method, TWZ_METHOD_TRANSIT);
	int planes = 0;
	for (uint32_t i = 0; i < c.section_count; i++)
		planes |= (c.sections[i].kind == TWZ_SECTION_TRANSIT_NODE_DIST ||
			   c.sections[i].kind == TWZ_SECTION_ACCESS ||
			   c.sections[i].kind == TWZ_SECTION_ACCESS_PACKED) &&
			  c.sections[i].codec == TWZ_CODEC_ZSTD;
	ck_assert_msg(planes, "the zstd bake stored its distances raw");

	int rc = run_tool(err, sizeof err, z, "-o", u, NULL);
	ck_assert_msg(rc == 0, "unpack: exit %d: %s", rc, err);
	ck_assert_str_eq(err, "");
	uint8_t *rbuf = twz_test_read_file(r, &rlen);
	uint8_t *ubuf = twz_test_read_file(u, &ulen);
	ck_assert_uint_eq(ulen, rlen);
	ck_assert_msg(memcmp(ubuf, rbuf, rlen) == 0,
		      "the unpacked file is not the raw bake");
	free(ubuf);
	free(rbuf);
	free(zbuf);
}
END_TEST

/* ---- bad input -------------------------------------------------------- */

static uint8_t *small_zstd_db(size_t *len)
{
	struct twz_grid g;
	twz_test_generate(&g, TWZ_TEST_MAZE, 21, 21, 3);
	uint8_t *buf = twz_test_bake_layout(&g, 8, TWZ_CODEC_ZSTD, 1,
					    TWZ_LAYOUT_BUCKETED, len);
	twz_grid_free(&g);
	return buf;
}

/* "twigz unpack work/in_name -o work/out_name", with bytes as the input
 * (no input file when bytes is NULL): it exits with status, says one line
 * naming named, and writes nothing. */
static void expect_refused(const char *in_name, const void *bytes, size_t len,
			   const char *out_name, int status, const char *named)
{
	char in[4200], out[4200], err[1024];

	work_path(in, sizeof in, in_name);
	work_path(out, sizeof out, out_name);
	if (bytes)
		twz_test_write_file(in, bytes, len);
	ck_assert_int_eq(run_tool(err, sizeof err, in, "-o", out, NULL), status);
	expect_one_line(err, named);
	ck_assert(!file_exists(out));
}

START_TEST(test_unpack_missing_input)
{
	expect_refused("absent.twz", NULL, 0, "out.twz", 4, "absent.twz");
}
END_TEST

START_TEST(test_unpack_not_a_database)
{
	static const char text[] = "type octile\nheight 1\nwidth 1\nmap\n.\n";

	expect_refused("level.map", text, sizeof text - 1, "out.twz", 3, "level.map");
}
END_TEST

/* Damage at several places: the header, the table, inside a section, the
 * end. Each must be refused, and nothing written. */
START_TEST(test_unpack_damaged_refused)
{
	size_t len;
	uint8_t *buf = small_zstd_db(&len);
	struct twz_container c;

	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	size_t where[4] = { TWZ_H_WIDTH, TWZ_HEADER_SIZE + 9,
			    (size_t)c.sections[c.section_count - 1].offset + 3,
			    len - 1 };
	buf[where[_i]] ^= 0x5a;
	expect_refused("damaged.twz", buf, len, "out.twz", 3, "damaged.twz");
	free(buf);
}
END_TEST

START_TEST(test_unpack_truncated_refused)
{
	size_t len;
	uint8_t *buf = small_zstd_db(&len);
	size_t keep[3] = { 4, TWZ_HEADER_SIZE + 5, len - 7 };

	expect_refused("short.twz", buf, keep[_i], "out.twz", 3, "short.twz");
	free(buf);
}
END_TEST

START_TEST(test_unpack_unwritable_output)
{
	size_t len;
	uint8_t *buf = small_zstd_db(&len);

	expect_refused("in.twz", buf, len, "no-such-dir/out.twz", 4, "out.twz");
	free(buf);
}
END_TEST

START_TEST(test_unpack_usage)
{
	char in[4200], err[4096];
	size_t len;
	uint8_t *buf = small_zstd_db(&len);

	work_path(in, sizeof in, "in.twz");
	twz_test_write_file(in, buf, len);
	ck_assert_int_eq(run_tool(err, sizeof err, in, NULL, NULL, NULL), 2);
	ck_assert_ptr_nonnull(strstr(err, "-o"));
	ck_assert_int_eq(run_tool(err, sizeof err, in, "-o", NULL, NULL), 2);
	ck_assert_int_eq(run_tool(err, sizeof err, in, "--frobnicate", NULL, NULL), 2);
	ck_assert_int_eq(run_tool(err, sizeof err, NULL, NULL, NULL, NULL), 2);
	free(buf);
}
END_TEST

static Suite *twz_unpack_suite(void)
{
	Suite *s = suite_create("unpack");

	twz_test_work_prefix("check_unpack.");
	TCase *tc;

	tc = tcase_create("RoundTrip");
	tcase_add_checked_fixture(tc, twz_test_work_setup, twz_test_work_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_unpack_round_trip, 0, 6 * TWZ_TEST_KIND_COUNT);
	tcase_add_loop_test(tc, test_unpack_output_is_zero_copy, 0, 3);
	tcase_add_loop_test(tc, test_unpack_raw_input_unchanged, 0, 3);
	tcase_add_loop_test(tc, test_unpack_transit_matches_raw_bake, 0, 2);
	suite_add_tcase(s, tc);

	tc = tcase_create("BadInput");
	tcase_add_checked_fixture(tc, twz_test_work_setup, twz_test_work_teardown);
	tcase_add_test(tc, test_unpack_missing_input);
	tcase_add_test(tc, test_unpack_not_a_database);
	tcase_add_loop_test(tc, test_unpack_damaged_refused, 0, 4);
	tcase_add_loop_test(tc, test_unpack_truncated_refused, 0, 3);
	tcase_add_test(tc, test_unpack_unwritable_output);
	tcase_add_test(tc, test_unpack_usage);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_unpack_suite());
}
