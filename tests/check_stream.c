/*
 * check_stream.c - bakes larger than their memory budget: a CPD bake
 * under --memory-limit streams its rows through a temporary file and
 * writes the very bytes of the bake in memory (every format, codec,
 * connectivity, zstd level and thread count); its peak memory, measured
 * on the tool's own process, stays under the limit; a limit too small
 * even for the streamed bake, for any method, is refused up front with
 * one line, and nothing is left behind.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bake.h"
#include "bake_level.h"
#include "spool.h"
#include "test_support.h"
#include "transit.h"
#include "twz_format.h"
#include "twz_validate.h"

/* A sanitizer's shadow memory counts in the tool's resident size: the
 * peak is held to the limit in builds without one. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* Nothing in work but what the test wrote. */
static void expect_no_temporary(void)
{
	DIR *d = opendir(twz_test_work_dir());
	struct dirent *e;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		ck_assert_msg(!strstr(e->d_name, ".tmp.") && !strstr(e->d_name, ".spool."),
			      "temporary file %s left behind", e->d_name);
	closedir(d);
}

/* ---- streamed bytes are the bytes in memory ----------------------------- */

/* Option sets by index. */
static void options_of(unsigned o, struct twz_bake_options *opt)
{
	static const unsigned layouts[] = {
		TWZ_LAYOUT_NARROW, TWZ_LAYOUT_BUCKETED, TWZ_LAYOUT_PLAIN
	};

	opt->layout = layouts[o % 3];
	opt->connectivity = o & 4 ? 4 : 8;
	opt->codec = o & 8 ? TWZ_CODEC_RAW : TWZ_CODEC_ZSTD;
	opt->level = o & 16 ? 3 : 19;
	opt->threads = 1 + o % 2;
	opt->record_build = 1;
}

/* The library's streamed bake (forced: no limit needed to reach it)
 * against its bake in memory, over level kinds and option sets. */
START_TEST(test_streamed_equals_in_memory)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i % TWZ_TEST_KIND_COUNT);
	struct twz_bake_options opt;
	struct twz_bake_report rep;
	struct twz_error err;
	struct twz_grid g;

	twz_test_generate(&g, kind, 40 + _i % 4 * 11, 38, 500 + (uint64_t)_i);
	twz_test_write_map(twz_test_in_work("level.map"), &g);
	twz_bake_options_default(&opt);
	options_of((unsigned)_i, &opt);
	opt.name = "level";
	ck_assert_int_eq(twz_bake_file(twz_test_in_work("level.map"), &opt,
				       twz_test_in_work("memory.twz"), &rep, &err), 0);
	opt.spool = TWZ_SPOOL_ALWAYS;
	int rc = twz_bake_file(twz_test_in_work("level.map"), &opt,
			       twz_test_in_work("streamed.twz"), &rep, &err);
	ck_assert_msg(rc == 0 && rep.streamed, "streamed bake failed: %s", err.msg);
	twz_test_expect_same_file(twz_test_in_work("memory.twz"), twz_test_in_work("streamed.twz"), NULL);
	expect_no_temporary();
	twz_grid_free(&g);
}
END_TEST

/* The streamed TRANSIT bake (forced) against the bake in memory: both
 * layouts (block lists, access nodes, the smaller of the two), both
 * connectivities and codecs, one and two threads, several block grids. */
START_TEST(test_transit_streamed_equals_in_memory)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i % TWZ_TEST_KIND_COUNT);
	struct twz_bake_options opt;
	struct twz_transit_options topt = { 0 };
	struct twz_error err;
	struct twz_grid g;
	struct twz_transit_db db;
	struct twz_spool spool;
	unsigned o = (unsigned)_i;

	twz_test_generate(&g, kind, 36 + o % 3 * 9, 34, 900 + (uint64_t)o);
	twz_bake_options_default(&opt);
	opt.connectivity = o & 4 ? 4 : 8;
	opt.codec = o & 8 ? TWZ_CODEC_RAW : TWZ_CODEC_ZSTD;
	opt.level = 3;
	opt.threads = 1 + o % 2;
	/* 0 block lists, 1 access nodes packed where they fit, 2 the
	 * smaller, 3 (TWZ_TRANSIT_ACCESS_WIDE) access nodes of 8 bytes. */
	opt.transit_far = (int)(o / 2 % 4);
	opt.record_build = 1;
	opt.name = "level";
	topt.grid = 3 + o % 4;
	ck_assert_int_eq(twz_bake_transit(&g, &opt, &topt, &db, &err), 0);
	ck_assert_int_eq(twz_transit_write(&db, &g, &opt, twz_test_in_work("memory.twz"), &err), 0);
	int access = twz_transit_access_fits(&db);
	twz_transit_db_free(&db);
	ck_assert_int_eq(twz_spool_open(&spool, twz_test_in_work("streamed.twz"), &err), 0);
	int rc = twz_bake_transit_spooled(&g, &opt, &topt, &spool, &db, &err);
	ck_assert_msg(rc == 0, "streamed bake failed: %s", err.msg);
	ck_assert_int_eq(twz_transit_access_fits(&db), access);
	ck_assert_int_eq(twz_transit_write(&db, &g, &opt, twz_test_in_work("streamed.twz"),
					   &err), 0);
	twz_transit_db_free(&db);
	twz_spool_close(&spool);
	twz_test_expect_same_file(twz_test_in_work("memory.twz"), twz_test_in_work("streamed.twz"), NULL);
	if (access && opt.transit_far != TWZ_TRANSIT_SMALLER) {
		/* The entries' form asked for: these small levels all pack. */
		size_t len;
		uint8_t *buf = twz_test_read_file(twz_test_in_work("streamed.twz"), &len);
		struct twz_container c;
		int packed = 0, wide = 0;
		ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
		for (uint32_t i = 0; i < c.section_count; i++) {
			packed += c.sections[i].kind == TWZ_SECTION_ACCESS_PACKED;
			wide += c.sections[i].kind == TWZ_SECTION_ACCESS;
		}
		ck_assert_int_eq(packed, opt.transit_far != TWZ_TRANSIT_ACCESS_WIDE);
		ck_assert_int_eq(wide, opt.transit_far == TWZ_TRANSIT_ACCESS_WIDE);
		free(buf);
	}
	expect_no_temporary();
	twz_grid_free(&g);
}
END_TEST

/* ---- the tool under --memory-limit --------------------------------------- */

/* Runs the tool with args, its output thrown away; its exit status, and
 * its own peak resident size in bytes (wait4: this child alone). */
static int run_measured(const char *const *args, uint64_t *peak)
{
	const char *tool = getenv("TWZ_TOOL");
	const char *argv[32] = { tool };
	struct rusage ru;
	int status, k = 1;

	ck_assert_ptr_nonnull(tool);
	for (; args[k - 1]; k++)
		argv[k] = args[k - 1];
	argv[k] = NULL;
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(tool, (char *const *)argv);
		_exit(127);
	}
	ck_assert_int_eq(wait4(pid, &status, 0, &ru), pid);
	*peak = (uint64_t)ru.ru_maxrss * 1024;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A level whose bake in memory is estimated above the limit and whose
 * streamed bake below it: the tool streams, its peak memory stays under
 * the limit, and the file is the one baked without a limit. */
START_TEST(test_peak_under_limit)
{
	struct twz_bake_options opt;
	struct twz_grid g;
	char lim[32], err[4096];
	uint64_t peak, peak_memory;

	twz_test_generate(&g, TWZ_TEST_CAVES, 150, 150, 77);
	twz_test_write_map(twz_test_in_work("level.map"), &g);
	twz_bake_options_default(&opt);
	opt.codec = TWZ_CODEC_RAW;
	opt.threads = 2;
	uint64_t cells = 150 * 150, nodes = 0;
	for (uint64_t c = 0; c < cells; c++)
		nodes += g.walkable[c];
	uint64_t streamed = twz_bake_stream_estimate_bytes(&g, nodes, &opt);
	uint64_t limit = (streamed + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1);
	ck_assert_uint_gt(twz_bake_estimate_bytes(cells, nodes, 2, opt.codec, opt.level),
			  limit);
	snprintf(lim, sizeof lim, "%lluM", (unsigned long long)(limit >> 20));
	twz_grid_free(&g);

	const char *plain[] = { "build", twz_test_in_work("level.map"), "-o", twz_test_in_work("memory.twz"),
				"--codec", "raw", "--threads", "2", "--quiet", NULL };
	ck_assert_int_eq(run_measured(plain, &peak_memory), 0);
	const char *limited[] = { "build", twz_test_in_work("level.map"), "-o",
				  twz_test_in_work("streamed.twz"), "--codec", "raw", "--threads",
				  "2", "--memory-limit", lim, NULL };
	ck_assert_int_eq(run_measured(limited, &peak), 0);
	ck_assert_msg(SANITIZED || peak <= limit,
		      "peak %llu bytes over --memory-limit %s (in memory: %llu)",
		      (unsigned long long)peak, lim, (unsigned long long)peak_memory);
	twz_test_expect_same_file(twz_test_in_work("memory.twz"), twz_test_in_work("streamed.twz"), NULL);
	/* It did stream: the summary says so. */
	unlink(twz_test_in_work("streamed.twz"));
	ck_assert_int_eq(twz_test_tool_status(limited, err, sizeof err), 0);
	ck_assert_msg(strstr(err, "under --memory-limit") != NULL, "'%s'", err);
	twz_test_expect_same_file(twz_test_in_work("memory.twz"), twz_test_in_work("streamed.twz"), NULL);
	expect_no_temporary();
}
END_TEST

/* The same for TRANSIT: the streamed estimate is an upper bound of the
 * bake's peak, for both layouts the tool picks (--format 1.1 keeps the
 * block lists). */
START_TEST(test_transit_peak_under_limit)
{
	static const char *const layout[] = { "1.2", "1.1" };
	struct twz_bake_options opt;
	struct twz_grid g;
	char lim[32], err[4096];
	uint64_t peak, peak_memory;

	twz_test_generate(&g, _i ? TWZ_TEST_ROOMS : TWZ_TEST_CAVES, 120, 110, 31 + _i);
	twz_test_write_map(twz_test_in_work("level.map"), &g);
	twz_bake_options_default(&opt);
	opt.codec = TWZ_CODEC_RAW;
	opt.threads = 2;
	uint64_t cells = 120 * 110, nodes = 0;
	for (uint64_t c = 0; c < cells; c++)
		nodes += g.walkable[c];
	uint64_t streamed = twz_transit_estimate_bytes(&g, nodes, &opt, NULL, 1);
	uint64_t limit = (streamed + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1);
	ck_assert_uint_gt(twz_transit_estimate_bytes(&g, nodes, &opt, NULL, 0), limit);
	snprintf(lim, sizeof lim, "%lluM", (unsigned long long)(limit >> 20));
	twz_grid_free(&g);

	const char *plain[] = { "build", twz_test_in_work("level.map"), "-o", twz_test_in_work("memory.twz"),
				"--method", "transit", "--format", layout[_i],
				"--codec", "raw", "--threads", "2", "--quiet", NULL };
	ck_assert_int_eq(run_measured(plain, &peak_memory), 0);
	const char *limited[] = { "build", twz_test_in_work("level.map"), "-o",
				  twz_test_in_work("streamed.twz"), "--method", "transit",
				  "--format", layout[_i], "--codec", "raw", "--threads",
				  "2", "--memory-limit", lim, NULL };
	ck_assert_int_eq(run_measured(limited, &peak), 0);
	ck_assert_msg(SANITIZED || peak <= limit,
		      "peak %llu bytes over --memory-limit %s (in memory: %llu)",
		      (unsigned long long)peak, lim, (unsigned long long)peak_memory);
	twz_test_expect_same_file(twz_test_in_work("memory.twz"), twz_test_in_work("streamed.twz"), NULL);
	unlink(twz_test_in_work("streamed.twz"));
	ck_assert_int_eq(twz_test_tool_status(limited, err, sizeof err), 0);
	ck_assert_msg(strstr(err, "(transit) under --memory-limit") != NULL, "'%s'", err);
	twz_test_expect_same_file(twz_test_in_work("memory.twz"), twz_test_in_work("streamed.twz"), NULL);
	expect_no_temporary();
}
END_TEST

/* A limit below even the streamed estimate: refused before the bake, one
 * line naming the level and the limit, exit 3, no file; for CPD, TRANSIT,
 * agent sizes and the dense solvers alike. */
START_TEST(test_limit_too_small)
{
	static const char *const extra[][4] = {
		{ NULL },
		{ "--method", "transit", NULL },
		{ "--agent-sizes", "1,2", NULL },
		{ "--apsp", "floyd", NULL },
	};
	struct twz_grid g;
	char err[4096];

	twz_test_generate(&g, TWZ_TEST_ROOMS, 120, 120, 9);
	twz_test_write_map(twz_test_in_work("level.map"), &g);
	twz_grid_free(&g);
	/* The dense solvers take small levels only. */
	ck_assert_int_eq(mkdir(twz_test_in_work("small"), 0755), 0);
	twz_test_generate(&g, TWZ_TEST_ROOMS, 50, 50, 9);
	twz_test_write_map(twz_test_in_work("small/level.map"), &g);
	twz_grid_free(&g);
	for (size_t k = 0; k < sizeof extra / sizeof extra[0]; k++) {
		int dense = extra[k][0] && !strcmp(extra[k][0], "--apsp");
		const char *args[12] = { "build", twz_test_in_work(dense ? "small/level.map" : "level.map"), "-o",
					 twz_test_in_work("out.twz"), "--memory-limit", "1M" };
		unsigned n = 6;
		for (unsigned j = 0; extra[k][j]; j++)
			args[n++] = extra[k][j];
		args[n] = NULL;
		int st = twz_test_tool_status(args, err, sizeof err);
		ck_assert_msg(st == 3, "case %zu: status %d (%s)", k, st, err);
		const char *nl = strchr(err, '\n');
		ck_assert_msg(nl && nl[1] == 0, "not one line: '%s'", err);
		ck_assert_msg(strstr(err, "level.map") && strstr(err, "--memory-limit 1M"),
			      "case %zu: '%s'", k, err);
		ck_assert(access(twz_test_in_work("out.twz"), F_OK) != 0);
	}
	expect_no_temporary();
}
END_TEST

START_TEST(test_memory_limit_words)
{
	static const char *const bad[] = { "", "0", "12X", "1K", "M", "-5M",
		"99999999999999999999G", "1.5G", "16777216T", "2G " };
	static const char *const good[] = { "512M", "2G", "268435456", "64m", "1GiB" };
	struct twz_grid g;
	char err[4096];

	twz_test_generate(&g, TWZ_TEST_MAZE, 20, 20, 2);
	twz_test_write_map(twz_test_in_work("level.map"), &g);
	twz_grid_free(&g);
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		const char *args[] = { "build", twz_test_in_work("level.map"), "-o", twz_test_in_work("o.twz"),
				       "--memory-limit", bad[k], NULL };
		ck_assert_msg(twz_test_tool_status(args, err, sizeof err) == 2, "'%s' accepted", bad[k]);
		ck_assert_msg(strstr(err, "--memory-limit") != NULL, "'%s'", err);
	}
	for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
		const char *args[] = { "build", twz_test_in_work("level.map"), "-o", twz_test_in_work("o.twz"),
				       "--memory-limit", good[k], "--quiet", NULL };
		ck_assert_msg(twz_test_tool_status(args, err, sizeof err) == 0, "'%s' refused: %s", good[k], err);
	}
}
END_TEST

/* The output cannot be written (its folder is gone): one line, and no
 * temporary file anywhere. */
START_TEST(test_streamed_write_fails_cleanly)
{
	struct twz_bake_options opt;
	struct twz_error err;
	struct twz_grid g;

	twz_test_generate(&g, TWZ_TEST_ROOMS, 40, 40, 4);
	twz_test_write_map(twz_test_in_work("level.map"), &g);
	twz_bake_options_default(&opt);
	opt.name = "level";
	opt.spool = TWZ_SPOOL_ALWAYS;
	ck_assert_int_ne(twz_bake_file(twz_test_in_work("level.map"), &opt,
				       twz_test_in_work("no/such/dir/o.twz"), NULL, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "no/such/dir/o.twz"));
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	expect_no_temporary();
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_transit_streamed_write_fails_cleanly)
{
	struct twz_bake_options opt;
	struct twz_error err;
	struct twz_grid g;

	twz_test_generate(&g, TWZ_TEST_ROOMS, 40, 40, 4);
	twz_test_write_map(twz_test_in_work("level.map"), &g);
	twz_bake_options_default(&opt);
	opt.name = "level";
	opt.method = TWZ_BAKE_TRANSIT;
	opt.spool = TWZ_SPOOL_ALWAYS;
	ck_assert_int_ne(twz_bake_file(twz_test_in_work("level.map"), &opt,
				       twz_test_in_work("no/such/dir/o.twz"), NULL, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "no/such/dir/o.twz"));
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	expect_no_temporary();
	twz_grid_free(&g);
}
END_TEST

static Suite *twz_stream_suite(void)
{
	Suite *s = suite_create("stream");

	twz_test_work_prefix("check_stream.");
	TCase *tc = tcase_create("Stream");

	tcase_add_checked_fixture(tc, twz_test_work_setup, twz_test_work_teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_streamed_equals_in_memory, 0, 32);
	tcase_add_test(tc, test_peak_under_limit);
	tcase_add_loop_test(tc, test_transit_streamed_equals_in_memory, 0, 16);
	tcase_add_loop_test(tc, test_transit_peak_under_limit, 0, 2);
	tcase_add_test(tc, test_transit_streamed_write_fails_cleanly);
	tcase_add_test(tc, test_limit_too_small);
	tcase_add_test(tc, test_memory_limit_words);
	tcase_add_test(tc, test_streamed_write_fails_cleanly);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_stream_suite());
}
