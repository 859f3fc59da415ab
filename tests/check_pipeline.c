/*
 * check_pipeline.c - what a build pipeline relies on: the level hash does
 * not depend on line ends, `twigz check` tells a stale database without
 * baking (exit 0 up to date, 1 stale with its reason, 2 error), and a
 * bake records the tool version and its options in a BUILD_INFO section
 * (kind 9) that `twigz info` shows, that the validator checks, and that
 * leaves every other section and the thread independence as they were.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bake.h"
#include "level_map.h"
#include "test_support.h"
#include "transit.h"
#include "twigz.h"
#include "twz_build_info.h"
#include "twz_format.h"
#include "twz_validate.h"

/* twigz check's exit statuses. */
enum {
	FRESH = 0,
	STALE = 1,
	ERROR = 2,
};

/* ---- a scratch directory a test ------------------------------------------ */

/* ---- running the tool ---------------------------------------------------- */

#define TOOL(r, ...)                                                  \
	do {                                                          \
		const char *const args_[] = { __VA_ARGS__, NULL };    \
		twz_test_run_tool(args_, NULL, 0, (r));               \
		ck_assert_msg((r)->signal == 0, "twigz died of signal %d: %s", \
			      (r)->signal, (r)->err);                 \
	} while (0)

static void assert_status(const struct twz_test_run *r, int want)
{
	ck_assert_msg(r->status == want, "exit status %d, expected %d; stdout: %s; stderr: %s",
		      r->status, want, r->out, r->err);
}

/* One line on fd (out or err) that says each of the things given. */
static void assert_one_line(const char *text, size_t len, const char *a,
			    const char *b)
{
	ck_assert_msg(len > 0 && text[len - 1] == '\n' &&
			      memchr(text, '\n', len) == text + len - 1,
		      "not one line: '%s'", text);
	ck_assert_msg(strstr(text, a), "'%s' should say '%s'", text, a);
	if (b)
		ck_assert_msg(strstr(text, b), "'%s' should say '%s'", text, b);
}

/* `twigz build LEVEL -o OUT --quiet` with up to four more words. */
static void bake(const char *level, const char *out, const char *a1,
		 const char *a2, const char *a3, const char *a4)
{
	const char *args[] = { "build", level, "-o", out, "--quiet", a1, a2,
			       a3, a4, NULL };
	struct twz_test_run r;

	twz_test_run_tool(args, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "build %s: %s", level, r.err);
	twz_test_run_free(&r);
}

/* `twigz check` with its words (NULL-terminated): the exit status; the
 * run is kept in r. */
static int check_run(struct twz_test_run *r, const char *const args[])
{
	const char *all[16] = { "check" };
	size_t n = 1;

	while (args[n - 1] && n < 15) {
		all[n] = args[n - 1];
		n++;
	}
	all[n] = NULL;
	twz_test_run_tool(all, NULL, 0, r);
	ck_assert_msg(r->signal == 0, "check died of signal %d", r->signal);
	return r->status;
}

#define CHECK(r, ...)                                                 \
	do {                                                          \
		const char *const cargs_[] = { __VA_ARGS__, NULL };   \
		check_run((r), cargs_);                               \
	} while (0)

/* A check that says up to date on one line of stdout, nothing on stderr. */
static void assert_fresh(const struct twz_test_run *r)
{
	assert_status(r, FRESH);
	assert_one_line(r->out, r->out_len, "up to date", NULL);
	ck_assert_uint_eq(r->err_len, 0);
}

/* A check that says stale, and why, on one line of stdout. */
static void assert_stale(const struct twz_test_run *r, const char *why)
{
	assert_status(r, STALE);
	assert_one_line(r->out, r->out_len, "stale", why);
	ck_assert_uint_eq(r->err_len, 0);
}

/* A check that failed with one line on stderr naming the file. */
static void assert_error(const struct twz_test_run *r, const char *file)
{
	assert_status(r, ERROR);
	assert_one_line(r->err, r->err_len, file, NULL);
	ck_assert_uint_eq(r->out_len, 0);
}

/* ---- files ----------------------------------------------------------- */

/* The project's rooms level with CR LF line ends. */
static void write_crlf_copy(const char *from, const char *to)
{
	size_t len;
	uint8_t *lf = twz_test_read_file(from, &len);
	uint8_t *crlf = malloc(2 * len + 1);
	size_t n = 0;

	ck_assert_ptr_nonnull(crlf);
	ck_assert_ptr_null(memchr(lf, '\r', len));
	for (size_t i = 0; i < len; i++) {
		if (lf[i] == '\n')
			crlf[n++] = '\r';
		crlf[n++] = lf[i];
	}
	twz_test_write_file(to, crlf, n);
	free(lf);
	free(crlf);
}

/* Section kind's table entry in a file, or NULL. */
static uint8_t *entry_of(uint8_t *buf, uint32_t kind)
{
	uint32_t n = twz_le32(buf + TWZ_H_SECTION_COUNT);

	for (uint32_t i = 0; i < n; i++) {
		uint8_t *e = buf + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		if (twz_le32(e + TWZ_S_KIND) == kind)
			return e;
	}
	return NULL;
}

/* After a section's bytes changed: its checksum, the table's, the
 * header's. */
static void fix_checksums(uint8_t *buf, uint8_t *entry)
{
	uint32_t n = twz_le32(buf + TWZ_H_SECTION_COUNT);
	uint64_t off = twz_le64(entry + TWZ_S_OFFSET);
	uint64_t size = twz_le64(entry + TWZ_S_RAW_SIZE);

	twz_put64(entry + TWZ_S_RAW_CHECKSUM, twz_checksum(buf + off, (size_t)size));
	twz_put64(buf + TWZ_H_TABLE_CHECKSUM,
		  twz_checksum(buf + TWZ_HEADER_SIZE, (size_t)n * TWZ_SECTION_ENTRY_SIZE));
	twz_put64(buf + TWZ_H_HEADER_CHECKSUM, twz_checksum(buf, TWZ_H_HEADER_CHECKSUM));
}

/* ---- the level hash ------------------------------------------------------ */

/* CR LF and LF copies of a level: the same hash, the same database, and
 * each is up to date for the other's database. */
START_TEST(test_pipeline_crlf_same_hash)
{
	const char *lf = twz_test_level_file("rooms.map");
	const char *crlf = twz_test_in_work("rooms_crlf.map");
	struct twz_grid a, b;
	struct twz_error err = { { 0 }, 0 };
	struct twz_test_run r;

	write_crlf_copy(lf, crlf);
	ck_assert_msg(twz_grid_load(lf, &a, &err) == 0, "%s", err.msg);
	ck_assert_msg(twz_grid_load(crlf, &b, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(a.level_hash, b.level_hash);
	/* An LF file's hash is still that of its bytes: old bakes keep it. */
	size_t len;
	uint8_t *bytes = twz_test_read_file(lf, &len);
	ck_assert_uint_eq(a.level_hash, twz_checksum(bytes, len));
	free(bytes);
	twz_grid_free(&a);
	twz_grid_free(&b);

	bake(lf, twz_test_in_work("lf.twz"), NULL, NULL, NULL, NULL);
	bake(crlf, twz_test_in_work("crlf.twz"), NULL, NULL, NULL, NULL);
	size_t la, lb;
	uint8_t *da = twz_test_read_file(twz_test_in_work("lf.twz"), &la);
	uint8_t *db = twz_test_read_file(twz_test_in_work("crlf.twz"), &lb);
	ck_assert_msg(la == lb && memcmp(da, db, la) == 0,
		      "the CR LF copy bakes to other bytes");
	free(da);
	free(db);

	CHECK(&r, crlf, twz_test_in_work("lf.twz"));
	assert_fresh(&r);
	twz_test_run_free(&r);
	CHECK(&r, lf, twz_test_in_work("crlf.twz"));
	assert_fresh(&r);
	twz_test_run_free(&r);
	/* The project's own CR LF test level, too. */
	const char *tl = twz_test_level_file("crlf.map");
	bake(tl, twz_test_in_work("t.twz"), NULL, NULL, NULL, NULL);
	CHECK(&r, tl, twz_test_in_work("t.twz"));
	assert_fresh(&r);
	twz_test_run_free(&r);
}
END_TEST

/* ---- twigz check ---------------------------------------------------------- */

/* A changed cell, a changed size, a missing final newline: the level
 * changed. */
START_TEST(test_pipeline_check_level_changed)
{
	const char *level = twz_test_in_work("level.map");
	const char *db = twz_test_in_work("level.twz");
	static const char *const before =
		"type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n";
	static const char *const changed[] = {
		"type octile\nheight 3\nwidth 4\nmap\n....\n.@..\n....\n",
		"type octile\nheight 3\nwidth 5\nmap\n.....\n.@@..\n.....\n",
		"type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....",
	};
	struct twz_test_run r;

	twz_test_write_file(level, before, strlen(before));
	bake(level, db, NULL, NULL, NULL, NULL);
	CHECK(&r, level, db);
	assert_fresh(&r);
	ck_assert_ptr_nonnull(strstr(r.out, db));
	twz_test_run_free(&r);
	for (size_t i = 0; i < sizeof changed / sizeof *changed; i++) {
		twz_test_write_file(level, changed[i], strlen(changed[i]));
		CHECK(&r, level, db);
		assert_stale(&r, "level changed");
		twz_test_run_free(&r);
		/* --quiet: the status alone. */
		CHECK(&r, level, db, "--quiet");
		assert_status(&r, STALE);
		ck_assert_uint_eq(r.out_len + r.err_len, 0);
		twz_test_run_free(&r);
	}
	/* Rebaked: up to date again; the same words as build's (-o DB). */
	bake(level, db, NULL, NULL, NULL, NULL);
	CHECK(&r, level, "-o", db);
	assert_fresh(&r);
	twz_test_run_free(&r);
}
END_TEST

/* Options: each baked one way and checked against the same and against
 * other options. */
START_TEST(test_pipeline_check_options)
{
	static const struct {
		const char *bake[4];    /* build options */
		const char *same[6];    /* check options that match */
		const char *other[6];   /* check options that do not */
		const char *why;        /* what the stale line names */
	} cases[] = {
		{ { NULL }, { NULL }, { "--connectivity", "4", NULL }, "connectivity" },
		{ { "--connectivity", "4", NULL }, { "--connectivity", "4", NULL },
		  { NULL }, "connectivity" },
		{ { "--format", "1.1", NULL }, { "--format", "1.1", NULL },
		  { "--format", "1.2", NULL }, "format" },
		{ { "--format", "1.0", NULL }, { "--format", "1.0", NULL },
		  { NULL }, "format" },
		{ { "--level", "5", NULL }, { "--level", "5", "--threads", "3", NULL },
		  { "--level", "6", NULL }, "level" },
		{ { "--codec", "raw", NULL }, { "--codec", "raw", NULL },
		  { NULL }, "codec" },
		{ { "--method", "transit", NULL }, { "--method", "transit", NULL },
		  { NULL }, "method" },
		{ { "--method", "transit", NULL }, { "--method", "transit", NULL },
		  { "--method", "transit", "--transit-grid", "7", NULL }, "blocks" },
		{ { "--method", "transit", NULL }, { "--method", "transit", NULL },
		  { "--method", "transit", "--transit-inner", "2", NULL }, "radii" },
		{ { NULL }, { "--threads", "2", "--max-nodes", "1000", NULL },
		  { "--method", "transit", NULL }, "method" },
		{ { "--agent-sizes", "1,2", NULL }, { "--agent-sizes", "1,2", NULL },
		  { NULL }, "agent sizes 1,2, asked 1" },
		{ { "--agent-sizes", "1,2", NULL }, { "--agent-sizes", "1,2", NULL },
		  { "--agent-sizes", "1,3", NULL }, "agent sizes" },
		{ { NULL }, { "--agent-sizes", "1", NULL },
		  { "--agent-sizes", "1,2", NULL }, "agent sizes" },
		{ { "--agent-sizes", "1,2", NULL }, { "--agent-sizes", "1,2", NULL },
		  { "--agent-sizes", "1,2", "--connectivity", "4", NULL }, "connectivity" },
	};
	const char *level = twz_test_level_file("rooms.map");
	const char *db = twz_test_in_work("rooms.twz");

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct twz_test_run r;
		const char *args[10] = { level, db };
		size_t n;

		bake(level, db, cases[i].bake[0], cases[i].bake[1],
		     cases[i].bake[2], cases[i].bake[3]);
		for (n = 0; cases[i].same[n]; n++)
			args[2 + n] = cases[i].same[n];
		args[2 + n] = NULL;
		check_run(&r, args);
		assert_fresh(&r);
		twz_test_run_free(&r);
		for (n = 0; cases[i].other[n]; n++)
			args[2 + n] = cases[i].other[n];
		args[2 + n] = NULL;
		check_run(&r, args);
		assert_stale(&r, "other options");
		ck_assert_msg(strstr(r.out, cases[i].why), "case %zu: '%s' should name %s",
			      i, r.out, cases[i].why);
		twz_test_run_free(&r);
	}
}
END_TEST

/* A database baked before files recorded BUILD_INFO: the golden files,
 * judged by their headers. */
START_TEST(test_pipeline_check_without_build_info)
{
	const char *level = twz_test_source_file("tests/golden/v1_0.map");
	char db[4200];
	struct twz_test_run r;

	snprintf(db, sizeof db, "%s", twz_test_source_file("tests/golden/v1_2.twz"));
	CHECK(&r, level, db, "--codec", "raw", "--level", "9");
	assert_fresh(&r);
	twz_test_run_free(&r);
	CHECK(&r, level, db, "--codec", "raw", "--level", "9", "--format", "1.1");
	assert_stale(&r, "format");
	twz_test_run_free(&r);
	CHECK(&r, level, db);
	assert_stale(&r, "codec");
	twz_test_run_free(&r);
	snprintf(db, sizeof db, "%s", twz_test_source_file("tests/golden/v1_1_transit.twz"));
	/* As tests/golden/README says it was made. */
	CHECK(&r, level, db, "--codec", "raw", "--level", "9", "--method", "transit",
	      "--transit-grid", "8");
	assert_fresh(&r);
	twz_test_run_free(&r);
	CHECK(&r, level, db, "--codec", "raw", "--level", "9", "--method", "transit");
	assert_stale(&r, "blocks");
	twz_test_run_free(&r);
	CHECK(&r, twz_test_level_file("rooms.map"), db);
	assert_stale(&r, "level changed");
	twz_test_run_free(&r);
}
END_TEST

/* Errors: exit 2 and one line naming the file, nothing on stdout. */
START_TEST(test_pipeline_check_errors)
{
	const char *level = twz_test_level_file("rooms.map");
	const char *db = twz_test_in_work("rooms.twz");
	struct twz_test_run r;
	size_t len;

	bake(level, db, NULL, NULL, NULL, NULL);
	CHECK(&r, level, twz_test_in_work("missing.twz"));
	assert_error(&r, "missing.twz");
	twz_test_run_free(&r);
	CHECK(&r, twz_test_in_work("missing.map"), db);
	assert_error(&r, "missing.map");
	twz_test_run_free(&r);
	CHECK(&r, twz_test_level_file("bad_row.map"), db);
	assert_error(&r, "bad_row.map");
	twz_test_run_free(&r);
	/* Not a database, and a damaged one. */
	CHECK(&r, level, level);
	assert_error(&r, "rooms.map");
	twz_test_run_free(&r);
	uint8_t *buf = twz_test_read_file(db, &len);
	buf[len - 1] ^= 0x40;
	twz_test_write_file(twz_test_in_work("damaged.twz"), buf, len);
	free(buf);
	CHECK(&r, level, twz_test_in_work("damaged.twz"));
	assert_error(&r, "damaged.twz");
	twz_test_run_free(&r);
	/* Usage: exit 2 too. */
	static const char *const bad[][4] = {
		{ NULL }, { "rooms.map", NULL }, { "a", "b", "c", NULL },
		{ "a", "b", "--bogus", NULL }, { "a", "b", "--connectivity", "6" },
		{ "a", "b", "--transit-grid", "4" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *args[6] = { NULL };
		for (size_t k = 0; k < 4 && bad[i][k]; k++)
			args[k] = bad[i][k];
		check_run(&r, args);
		assert_status(&r, ERROR);
		ck_assert_uint_eq(r.out_len, 0);
		twz_test_run_free(&r);
	}
	/* --help: check's usage, exit 0. */
	CHECK(&r, "--help");
	assert_status(&r, 0);
	ck_assert_msg(strstr(r.out, "  twigz check LEVEL") && strstr(r.out, "stale"),
		      "check --help printed '%s'", r.out);
	twz_test_run_free(&r);
	const char *const top[] = { "--help", NULL };
	twz_test_run_tool(top, NULL, 0, &r);
	ck_assert_ptr_nonnull(strstr(r.out, "twigz check"));
	twz_test_run_free(&r);
}
END_TEST

/* ---- BUILD_INFO ------------------------------------------------------------ */

/* The section's bytes in a file the tool made (raw, so in place). */
static const uint8_t *build_info_of(uint8_t *buf, size_t *size)
{
	uint8_t *e = entry_of(buf, TWZ_SECTION_BUILD_INFO);

	ck_assert_msg(e != NULL, "no BUILD_INFO section");
	ck_assert_uint_eq(twz_le16(e + TWZ_S_CODEC), TWZ_CODEC_RAW);
	*size = (size_t)twz_le64(e + TWZ_S_SIZE);
	return buf + twz_le64(e + TWZ_S_OFFSET);
}

/* `twigz info` shows the tool version and the options; --json as an
 * object; a file without the section says so. */
START_TEST(test_pipeline_info_shows_build)
{
	const char *level = twz_test_level_file("rooms.map");
	const char *version = getenv("TWZ_PROJECT_VERSION");
	char tool[64], want[128];
	struct twz_test_run r;

	ck_assert_ptr_nonnull(version);
	snprintf(tool, sizeof tool, "twigz %s", version);
	bake(level, twz_test_in_work("a.twz"), "--connectivity", "4", "--level", "7");
	TOOL(&r, "info", twz_test_in_work("a.twz"));
	assert_status(&r, 0);
	snprintf(want, sizeof want, "built by     %s\n", tool);
	ck_assert_msg(strstr(r.out, want), "info: '%s'", r.out);
	ck_assert_msg(strstr(r.out, "connectivity=4") && strstr(r.out, "level=7") &&
			      strstr(r.out, "method=cpd") && strstr(r.out, "format=1.2"),
		      "info: '%s'", r.out);
	twz_test_run_free(&r);
	TOOL(&r, "info", twz_test_in_work("a.twz"), "--json");
	assert_status(&r, 0);
	snprintf(want, sizeof want, "\"tool\":\"%s\"", tool);
	ck_assert_msg(strstr(r.out, ",\"build\":{") && strstr(r.out, want) &&
			      strstr(r.out, "\"connectivity\":\"4\"") &&
			      strstr(r.out, "\"method\":\"cpd\",") &&
			      strcmp(r.out + r.out_len - 3, "}}\n") == 0,
		      "info --json: '%s'", r.out);
	twz_test_run_free(&r);

	bake(level, twz_test_in_work("t.twz"), "--method", "transit", "--transit-grid", "3");
	TOOL(&r, "info", twz_test_in_work("t.twz"));
	ck_assert_msg(strstr(r.out, "method=transit") && strstr(r.out, "transit_side=") &&
			      strstr(r.out, "transit_inner=1") && !strstr(r.out, "format="),
		      "info: '%s'", r.out);
	twz_test_run_free(&r);

	TOOL(&r, "info", twz_test_source_file("tests/golden/v1_2.twz"));
	ck_assert_ptr_nonnull(strstr(r.out, "built by     (not recorded)\n"));
	twz_test_run_free(&r);
	TOOL(&r, "info", twz_test_source_file("tests/golden/v1_2.twz"), "--json");
	ck_assert_ptr_nonnull(strstr(r.out, ",\"build\":null}\n"));
	twz_test_run_free(&r);
}
END_TEST

/* The section is the one thing recording adds: the tool's file and a
 * bake without it hold the same other sections, and the section's text
 * is what twz_build_info_text makes. With one thread and with two, the
 * same bytes. */
START_TEST(test_pipeline_build_info_only_addition)
{
	const char *level = twz_test_level_file("rooms.map");
	const int transit = _i;
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };

	ck_assert_msg(twz_grid_load(level, &g, &err) == 0, "%s", err.msg);
	bake(level, twz_test_in_work("t1.twz"), "--threads", "1", transit ? "--method" : NULL,
	     "transit");
	bake(level, twz_test_in_work("t2.twz"), "--threads", "2", transit ? "--method" : NULL,
	     "transit");
	size_t l1, l2;
	uint8_t *f1 = twz_test_read_file(twz_test_in_work("t1.twz"), &l1);
	uint8_t *f2 = twz_test_read_file(twz_test_in_work("t2.twz"), &l2);
	ck_assert_msg(l1 == l2 && !memcmp(f1, f2, l1), "1 and 2 threads differ");
	free(f2);

	/* The same bake without the section, through the library. */
	struct twz_bake_options opt;
	twz_bake_options_default(&opt);
	opt.threads = 1;
	uint8_t *plain;
	size_t plain_len;
	if (transit) {
		struct twz_transit_db tdb;
		ck_assert_msg(twz_bake_transit(&g, &opt, NULL, &tdb, &err) == 0,
			      "%s", err.msg);
		ck_assert_msg(twz_transit_encode(&tdb, &g, &opt, &plain, &plain_len,
						 &err) == 0, "%s", err.msg);
		twz_transit_db_free(&tdb);
	} else {
		struct twz_cpd cpd;
		ck_assert_msg(twz_bake_cpd(&g, &opt, &cpd, &err) == 0, "%s", err.msg);
		ck_assert_msg(twz_cpd_encode(&cpd, &g, &opt, &plain, &plain_len, &err) == 0,
			      "%s", err.msg);
		twz_cpd_free(&cpd);
	}
	struct twz_container a, b;
	ck_assert_int_eq(twz_parse_container(f1, l1, &a), TWZ_OK);
	ck_assert_int_eq(twz_parse_container(plain, plain_len, &b), TWZ_OK);
	ck_assert_uint_eq(a.section_count, b.section_count + 1);
	ck_assert_uint_eq(a.level_hash, b.level_hash);
	ck_assert_uint_eq(a.minor, b.minor);
	ck_assert_mem_eq(f1 + TWZ_H_REQUIRED, plain + TWZ_H_REQUIRED, 8);
	ck_assert_mem_eq(f1 + TWZ_H_LEVEL_HASH, plain + TWZ_H_LEVEL_HASH,
			 TWZ_H_HEADER_CHECKSUM - TWZ_H_LEVEL_HASH);
	uint32_t j = 0, prev = 0;
	for (uint32_t i = 0; i < a.section_count; i++) {
		const struct twz_section_ref *s = &a.sections[i];
		ck_assert_uint_gt(s->kind, prev);    /* ascending kinds */
		prev = s->kind;
		if (s->kind == TWZ_SECTION_BUILD_INFO)
			continue;
		const struct twz_section_ref *t = &b.sections[j++];
		ck_assert_uint_eq(s->kind, t->kind);
		ck_assert_uint_eq(s->codec, t->codec);
		ck_assert_uint_eq(s->raw_size, t->raw_size);
		ck_assert_uint_eq(s->raw_checksum, t->raw_checksum);
		ck_assert_uint_eq(s->size, t->size);
		ck_assert_msg(!memcmp(f1 + s->offset, plain + t->offset, (size_t)s->size),
			      "section kind %u differs", s->kind);
	}
	ck_assert_uint_eq(j, b.section_count);

	/* The text: what the bake's options give, valid, without anything
	 * of the machine. */
	size_t size;
	const uint8_t *text = build_info_of(f1, &size);
	ck_assert_int_eq(twz_validate_build_info(text, size), TWZ_OK);
	char want[TWZ_BUILD_INFO_MAX];
	struct twz_graph layout;
	struct twz_transit_options topt = { 0 };
	memset(&layout, 0, sizeof layout);
	if (transit)
		ck_assert_int_eq(twz_transit_layout(&g, &topt, &layout, &err), 0);
	size_t want_len = twz_build_info_text(&opt, transit ? TWZ_METHOD_TRANSIT
							    : TWZ_METHOD_CPD,
					      &layout, want, sizeof want);
	ck_assert_uint_gt(want_len, 0);
	ck_assert_uint_eq(size, want_len);
	ck_assert_mem_eq(text, want, size);
	struct twz_build_entry e;
	ck_assert(twz_build_info_find(text, size, "tool", &e));
	ck_assert(!twz_build_info_find(text, size, "threads", &e));
	free(f1);
	free(plain);
	twz_grid_free(&g);
}
END_TEST

/* The validator's rule for the text, one way of breaking it at a time. */
START_TEST(test_pipeline_build_info_validator)
{
	static const struct {
		const char *text;
		int ok;
	} cases[] = {
		{ "", 1 },
		{ "a=\n", 1 },
		{ "a=1\nb=x=y\nc2_d=twigz 0.2.0\n", 1 },
		{ "name=caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n", 1 },
		{ "a=1", 0 },                       /* no final LF */
		{ "b=1\na=2\n", 0 },                /* not ascending */
		{ "a=1\na=2\n", 0 },                /* twice */
		{ "ab=1\na=2\n", 0 },               /* a prefix after its key */
		{ "=1\n", 0 },                      /* empty key */
		{ "1a=1\n", 0 },                    /* key starts with a digit */
		{ "A=1\n", 0 },                     /* upper case */
		{ "a-b=1\n", 0 },
		{ "a\n", 0 },                       /* no '=' */
		{ "a=1\n\n", 0 },                   /* empty line */
		{ "a=x\ty\n", 0 },                  /* control character */
		{ "a=x\ry\n", 0 },
		{ "a=x\x7fy\n", 0 },
		{ "a=\xc2\x85\n", 0 },              /* C1 control */
		{ "a=\xc0\xaf\n", 0 },              /* overlong */
		{ "a=\xe0\x80\xaf\n", 0 },          /* overlong */
		{ "a=\xed\xa0\x80\n", 0 },          /* surrogate */
		{ "a=\xf4\x90\x80\x80\n", 0 },      /* above U+10FFFF */
		{ "a=\xf5\x80\x80\x80\n", 0 },
		{ "a=\xc3\n", 0 },                  /* cut short */
		{ "a=\xe2\x82\n", 0 },
		{ "a=\x80\n", 0 },                  /* a lone continuation */
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *t = cases[i].text;
		twz_status st = twz_validate_build_info((const uint8_t *)t, strlen(t));
		ck_assert_msg((st == TWZ_OK) == cases[i].ok, "case %zu: %s", i,
			      twz_strerror(st));
	}
	ck_assert_int_eq(twz_validate_build_info(NULL, 0), TWZ_OK);
	/* A key of 32 bytes, and of 33; a section of 4096 bytes, and more. */
	char buf[TWZ_BUILD_INFO_MAX + 2];
	memset(buf, 'k', 32);
	memcpy(buf + 32, "=v\n", 3);
	ck_assert_int_eq(twz_validate_build_info((uint8_t *)buf, 35), TWZ_OK);
	memset(buf, 'k', 33);
	memcpy(buf + 33, "=v\n", 3);
	ck_assert_int_eq(twz_validate_build_info((uint8_t *)buf, 36), TWZ_E_DAMAGED);
	memcpy(buf, "a=", 2);
	memset(buf + 2, 'v', TWZ_BUILD_INFO_MAX - 3);
	buf[TWZ_BUILD_INFO_MAX - 1] = '\n';
	ck_assert_int_eq(twz_validate_build_info((uint8_t *)buf, TWZ_BUILD_INFO_MAX),
			 TWZ_OK);
	buf[TWZ_BUILD_INFO_MAX - 1] = 'v';
	buf[TWZ_BUILD_INFO_MAX] = '\n';
	ck_assert_int_eq(twz_validate_build_info((uint8_t *)buf, TWZ_BUILD_INFO_MAX + 1),
			 TWZ_E_DAMAGED);
}
END_TEST

/* A file whose BUILD_INFO breaks the rule is refused at open, and a
 * changed byte of it is caught by its checksum; the tool says so. */
START_TEST(test_pipeline_build_info_checked_at_open)
{
	const char *level = twz_test_level_file("rooms.map");
	size_t len, size;
	struct twz_test_run r;

	bake(level, twz_test_in_work("a.twz"), NULL, NULL, NULL, NULL);
	uint8_t *buf = twz_test_read_file(twz_test_in_work("a.twz"), &len);
	ck_assert_int_eq(twz_test_try_open(buf, len, 0), TWZ_OK);
	uint8_t *text = (uint8_t *)build_info_of(buf, &size);
	uint8_t *e = entry_of(buf, TWZ_SECTION_BUILD_INFO);

	text[0] ^= 0x20;            /* a key's first letter in capitals */
	ck_assert_int_eq(twz_test_try_open(buf, len, 0), TWZ_E_CHECKSUM);
	fix_checksums(buf, e);      /* now a capital letter in a key */
	ck_assert_int_eq(twz_test_try_open(buf, len, 0), TWZ_E_DAMAGED);
	text[0] ^= 0x20;
	text[size - 1] = ' ';       /* no final LF */
	fix_checksums(buf, e);
	ck_assert_int_eq(twz_test_try_open(buf, len, 0), TWZ_E_DAMAGED);
	twz_test_write_file(twz_test_in_work("bad.twz"), buf, len);
	TOOL(&r, "info", twz_test_in_work("bad.twz"));
	assert_status(&r, 3);
	assert_one_line(r.err, r.err_len, "bad.twz", NULL);
	twz_test_run_free(&r);
	CHECK(&r, level, twz_test_in_work("bad.twz"));
	assert_error(&r, "bad.twz");
	twz_test_run_free(&r);
	/* Valid again with other text of the same length. */
	text[size - 1] = '\n';
	memset(text + size - 2, 'x', 1);
	fix_checksums(buf, e);
	ck_assert_int_eq(twz_test_try_open(buf, len, 0), TWZ_OK);
	free(buf);
}
END_TEST

static Suite *twz_pipeline_suite(void)
{
	Suite *s = suite_create("pipeline");

	twz_test_work_prefix("twz-pipeline-");
	TCase *tc = tcase_create("Pipeline");

	tcase_add_checked_fixture(tc, twz_test_work_setup, twz_test_work_teardown);
	tcase_add_test(tc, test_pipeline_crlf_same_hash);
	tcase_add_test(tc, test_pipeline_check_level_changed);
	tcase_add_test(tc, test_pipeline_check_options);
	tcase_add_test(tc, test_pipeline_check_without_build_info);
	tcase_add_test(tc, test_pipeline_check_errors);
	tcase_add_test(tc, test_pipeline_info_shows_build);
	tcase_add_loop_test(tc, test_pipeline_build_info_only_addition, 0, 2);
	tcase_add_test(tc, test_pipeline_build_info_validator);
	tcase_add_test(tc, test_pipeline_build_info_checked_at_open);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_pipeline_suite());
}
