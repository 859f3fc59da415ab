/*
 * check_shard.c - a bake cut into shards: `twigz build --shard I/N` on
 * every shard then `twigz merge` writes the very bytes of the bake on one
 * machine, for shard counts 1, 2, 3 and 7, every connectivity, codec and
 * format, with CPD and with TRANSIT; the shards cover the sources (and
 * TRANSIT's blocks and table rows) once and are balanced by work;
 * and every mismatch (a missing, doubled or damaged part, parts of other
 * levels, options or counts, a bad --shard) is refused with one line
 * naming the part, a non-zero status and no output file.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bake.h"
#include "graph.h"
#include "shard.h"
#include "test_support.h"
#include "transit.h"
#include "twz_format.h"

/* ---- files and the tool ---------------------------------------------- */

static int file_exists(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0;
}

/* One line, naming name. */
static void expect_one_line(const char *err, const char *name)
{
	const char *nl = strchr(err, '\n');
	ck_assert_msg(nl && nl[1] == 0, "not one line: '%s'", err);
	ck_assert_msg(strstr(err, name) != NULL, "'%s' does not name %s", err, name);
}

/* Nothing in work but what the test wrote: no temporary file left over. */
static void expect_no_temporary(void)
{
	DIR *d = opendir(twz_test_work_dir());
	struct dirent *e;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		ck_assert_msg(strstr(e->d_name, ".tmp.") == NULL,
			      "temporary file %s left behind", e->d_name);
	closedir(d);
}

/* `twigz build map [opts] -o out`, or with --shard i/n; fails the test
 * unless it succeeds. opts: up to 6 words, NULL-terminated. */
static void build(const char *map, const char *const *opts, unsigned i,
		  unsigned n, const char *out)
{
	const char *args[16] = { "build", map, "-o", out, "--quiet" };
	char shard[32], err[4096];
	unsigned k = 5;

	for (unsigned j = 0; opts && opts[j]; j++)
		args[k++] = opts[j];
	if (n) {
		snprintf(shard, sizeof shard, "%u/%u", i, n);
		args[k++] = "--shard";
		args[k++] = shard;
	}
	args[k] = NULL;
	int st = twz_test_tool_status(args, err, sizeof err);
	ck_assert_msg(st == 0, "build %s %s failed (%d): %s", map,
		      n ? shard : "", st, err);
}

/* Runs `twigz merge parts... -o out`; returns the status, stderr in err. */
static int merge(char *err, size_t cap, const char *const *parts,
		 unsigned n, const char *out)
{
	const char *args[64] = { "merge", "-o", out, "--quiet" };
	unsigned k = 4;

	ck_assert(n < 60);
	for (unsigned j = 0; j < n; j++)
		args[k++] = parts[j];
	args[k] = NULL;
	return twz_test_tool_status(args, err, cap);
}

/* ---- merged shards are the single bake --------------------------------- */

static const unsigned shard_counts[] = { 1, 2, 3, 7 };

/* Options by index: bit 0 connectivity, bit 1 codec, _ / 4 the format. */
static void options_of(unsigned o, const char **opts)
{
	static const char *const formats[] = { "1.2", "1.1", "1.0" };

	opts[0] = "--connectivity";
	opts[1] = o & 1 ? "4" : "8";
	opts[2] = "--codec";
	opts[3] = o & 2 ? "raw" : "zstd";
	opts[4] = "--format";
	opts[5] = formats[o / 4 % 3];
	opts[6] = NULL;
}

/* Level kind _i % 5 under option set _i % 12: each kind meets several
 * option sets, each option set two kinds. Shards are merged in reverse
 * order: the order of the parts does not matter. */
START_TEST(test_merged_equals_single_bake)
{
	struct twz_grid g;
	const char *opts[8];
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i % TWZ_TEST_KIND_COUNT);

	twz_test_generate(&g, kind, 40 + _i % 3 * 7, 36, 100 + (uint64_t)_i);
	twz_test_write_map(twz_test_in_work("level.map"), &g);
	twz_grid_free(&g);
	options_of((unsigned)_i % 12, opts);
	build(twz_test_in_work("level.map"), opts, 0, 0, twz_test_in_work("single.twz"));

	for (size_t c = 0; c < sizeof shard_counts / sizeof shard_counts[0]; c++) {
		unsigned n = shard_counts[c];
		const char *parts[8];
		char err[4096];

		for (unsigned i = 1; i <= n; i++) {
			char name[32];
			snprintf(name, sizeof name, "part%u.of%u", i, n);
			parts[n - i] = strdup(twz_test_in_work(name));
			build(twz_test_in_work("level.map"), opts, i, n, parts[n - i]);
		}
		int st = merge(err, sizeof err, parts, n, twz_test_in_work("merged.twz"));
		ck_assert_msg(st == 0, "merge of %u shards (%s, options %d) failed: %s",
			      n, twz_test_kind_name(kind), _i % 12, err);
		twz_test_expect_same_file(twz_test_in_work("single.twz"), twz_test_in_work("merged.twz"), NULL);
		for (unsigned i = 0; i < n; i++)
			free((void *)parts[i]);
		unlink(twz_test_in_work("merged.twz"));
	}
	expect_no_temporary();
}
END_TEST

/* A project level, on more threads than shards. */
START_TEST(test_merged_project_level)
{
	const char *map = twz_test_source_file("data/caves.map");
	const char *opts[] = { "--threads", "2", NULL };
	const char *parts[3];
	char err[4096];

	build(map, opts, 0, 0, twz_test_in_work("single.twz"));
	for (unsigned i = 1; i <= 3; i++) {
		char name[32];
		snprintf(name, sizeof name, "caves.%u", i);
		parts[i - 1] = strdup(twz_test_in_work(name));
		build(map, opts, i, 3, parts[i - 1]);
	}
	ck_assert_int_eq(merge(err, sizeof err, parts, 3, twz_test_in_work("m.twz")), 0);
	twz_test_expect_same_file(twz_test_in_work("single.twz"), twz_test_in_work("m.twz"), NULL);
	for (unsigned i = 0; i < 3; i++)
		free((void *)parts[i]);
}
END_TEST

/* TRANSIT: kind _i % 5, connectivity and codec by _i, blocks of a few
 * squares so that each shard holds several; shards merged in reverse
 * order. */
START_TEST(test_transit_merged_equals_single_bake)
{
	struct twz_grid g;
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i % TWZ_TEST_KIND_COUNT);
	const char *opts[] = { "--method", "transit", "--connectivity",
			       _i & 1 ? "4" : "8", "--codec",
			       _i & 2 ? "raw" : "zstd", "--transit-grid",
			       _i & 4 ? "5" : "8", NULL };

	twz_test_generate(&g, kind, 44 + _i % 3 * 9, 40, 300 + (uint64_t)_i);
	twz_test_write_map(twz_test_in_work("level.map"), &g);
	twz_grid_free(&g);
	build(twz_test_in_work("level.map"), opts, 0, 0, twz_test_in_work("single.twz"));
	for (size_t c = 0; c < sizeof shard_counts / sizeof shard_counts[0]; c++) {
		unsigned n = shard_counts[c];
		const char *parts[8];
		char err[4096];

		for (unsigned i = 1; i <= n; i++) {
			char name[32];
			snprintf(name, sizeof name, "tpart%u.of%u", i, n);
			parts[n - i] = strdup(twz_test_in_work(name));
			build(twz_test_in_work("level.map"), opts, i, n, parts[n - i]);
		}
		int st = merge(err, sizeof err, parts, n, twz_test_in_work("merged.twz"));
		ck_assert_msg(st == 0, "merge of %u TRANSIT shards (%s, options %d) failed: %s",
			      n, twz_test_kind_name(kind), _i, err);
		twz_test_expect_same_file(twz_test_in_work("single.twz"), twz_test_in_work("merged.twz"), NULL);
		for (unsigned i = 0; i < n; i++)
			free((void *)parts[i]);
		unlink(twz_test_in_work("merged.twz"));
	}
	expect_no_temporary();
}
END_TEST

/* A project level with TRANSIT's default blocks, on two threads. */
START_TEST(test_transit_merged_project_level)
{
	const char *map = twz_test_source_file("data/maze.map");
	const char *opts[] = { "--method", "transit", "--threads", "2", NULL };
	const char *parts[2];
	char err[4096];

	build(map, opts, 0, 0, twz_test_in_work("single.twz"));
	for (unsigned i = 1; i <= 2; i++) {
		char name[32];
		snprintf(name, sizeof name, "maze.%u", i);
		parts[i - 1] = strdup(twz_test_in_work(name));
		build(map, opts, i, 2, parts[i - 1]);
	}
	ck_assert_int_eq(merge(err, sizeof err, parts, 2, twz_test_in_work("m.twz")), 0);
	twz_test_expect_same_file(twz_test_in_work("single.twz"), twz_test_in_work("m.twz"), NULL);
	for (unsigned i = 0; i < 2; i++)
		free((void *)parts[i]);
}
END_TEST

/* ---- the split -------------------------------------------------------- */

/* Shards 1..N cover [0, nodes) in order, and each one's work (a source
 * weighs its region's size) stays within the fair share plus one
 * source. */
START_TEST(test_ranges_cover_and_balance)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i % TWZ_TEST_KIND_COUNT);
	struct twz_grid g;
	struct twz_graph gr;
	struct twz_error err;

	twz_test_generate(&g, kind, 50, 40, 7 + (uint64_t)_i);
	ck_assert_int_eq(twz_graph_build(&g, 8, &gr, &err), 0);
	uint64_t total = 0, heaviest = 0;
	for (uint32_t c = 0; c < gr.component_count; c++) {
		uint64_t size = gr.comp_first[c + 1] - gr.comp_first[c];
		total += size * size;
		if (size > heaviest)
			heaviest = size;
	}
	for (unsigned n = 1; n <= 40; n++) {
		uint32_t prev = 0;
		for (unsigned i = 1; i <= n; i++) {
			uint32_t first, end;
			twz_cpd_shard_range(&gr, i, n, &first, &end);
			ck_assert_uint_eq(first, prev);
			ck_assert_uint_le(first, end);
			uint64_t w = 0;
			for (uint32_t s = first; s < end; s++) {
				uint32_t c = gr.node_comp[s];
				w += gr.comp_first[c + 1] - gr.comp_first[c];
			}
			ck_assert_msg(w <= total / n + heaviest + 1,
				      "shard %u of %u weighs %llu of %llu", i, n,
				      (unsigned long long)w, (unsigned long long)total);
			prev = end;
		}
		ck_assert_uint_eq(prev, gr.node_count);
	}
	twz_graph_free(&gr);
	twz_grid_free(&g);
}
END_TEST

/* TRANSIT: shards 1..N cover the blocks and the table rows in order;
 * a block's work is its nodes times the nodes of its outer square, and
 * no shard takes more than the fair share plus one block. */
START_TEST(test_transit_ranges_cover_and_balance)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i % TWZ_TEST_KIND_COUNT);
	const struct twz_transit_options topt = { 6, 0, 0 };
	struct twz_bake_options opt;
	struct twz_transit_db db;
	struct twz_grid g;
	struct twz_error err;

	twz_bake_options_default(&opt);
	opt.threads = 1;
	twz_test_generate(&g, kind, 50, 44, 17 + (uint64_t)_i);
	ck_assert_int_eq(twz_bake_transit(&g, &opt, &topt, &db, &err), 0);
	const struct twz_graph *tg = &db.graph;
	uint32_t blocks = tg->cols * tg->rows;
	uint64_t *w = calloc(blocks, sizeof *w), total = 0, heaviest = 0;
	for (uint32_t b = 0; b < blocks; b++) {
		int64_t bx = b % tg->cols, by = b / tg->cols;
		for (int64_t y = by - tg->outer; y <= by + (int64_t)tg->outer; y++)
			for (int64_t x = bx - tg->outer; x <= bx + (int64_t)tg->outer; x++)
				if (x >= 0 && y >= 0 && x < tg->cols && y < tg->rows) {
					uint32_t o = (uint32_t)(y * tg->cols + x);
					w[b] += tg->block_first[o + 1] - tg->block_first[o];
				}
		w[b] *= tg->block_first[b + 1] - tg->block_first[b];
		total += w[b];
		if (w[b] > heaviest)
			heaviest = w[b];
	}
	for (unsigned n = 1; n <= 24; n++) {
		uint32_t prev_b = 0, prev_t = 0;
		for (unsigned i = 1; i <= n; i++) {
			struct twz_transit_range r;
			twz_transit_shard_range(&db, i, n, &r);
			ck_assert_uint_eq(r.block_lo, prev_b);
			ck_assert_uint_le(r.block_lo, r.block_hi);
			ck_assert_uint_eq(r.table_lo, prev_t);
			ck_assert_uint_le(r.table_lo, r.table_hi);
			ck_assert_uint_le(r.table_hi - r.table_lo,
					  db.transit_count / n + 1);
			uint64_t mine = 0;
			for (uint32_t b = r.block_lo; b < r.block_hi; b++)
				mine += w[b];
			ck_assert_msg(mine <= total / n + heaviest + 1,
				      "shard %u of %u weighs %llu of %llu", i, n,
				      (unsigned long long)mine, (unsigned long long)total);
			prev_b = r.block_hi;
			prev_t = r.table_hi;
		}
		ck_assert_uint_eq(prev_b, blocks);
		ck_assert_uint_eq(prev_t, db.transit_count);
	}
	free(w);
	twz_transit_db_free(&db);
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_shard_parse)
{
	static const char *const good[] = { "1/1", "1/2", "7/7", "3/65536", "65536/65536" };
	static const unsigned gi[] = { 1, 1, 7, 3, 65536 }, gn[] = { 1, 2, 7, 65536, 65536 };
	static const char *const bad[] = { "", "1", "/2", "1/", "0/2", "1/0", "a/b",
		"1/2/3", "01/2", "1/02", "-1/2", "1 /2", "1/2 ", "+1/2", "1/65537",
		"99999999999999999999/2" };
	unsigned i, n;

	for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
		ck_assert_msg(twz_shard_parse(good[k], &i, &n) == 0, "%s refused", good[k]);
		ck_assert_uint_eq(i, gi[k]);
		ck_assert_uint_eq(n, gn[k]);
	}
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
		ck_assert_msg(twz_shard_parse(bad[k], &i, &n) != 0, "'%s' accepted", bad[k]);
}
END_TEST

/* ---- refusals --------------------------------------------------------- */

/* work/a.map (rooms) and work/b.map (caves), and shards of a.map: a1..a3
 * of 3 with 8-connectivity, c2 of 3 with 4-connectivity, z2 of 3 raw,
 * h1 and h2 of 2, b2 of 3 of b.map. */
static void write_parts(void)
{
	struct twz_grid g;
	const char *c4[] = { "--connectivity", "4", NULL };
	const char *raw[] = { "--codec", "raw", NULL };

	twz_test_generate(&g, TWZ_TEST_ROOMS, 40, 30, 3);
	twz_test_write_map(twz_test_in_work("a.map"), &g);
	twz_grid_free(&g);
	twz_test_generate(&g, TWZ_TEST_CAVES, 40, 30, 4);
	twz_test_write_map(twz_test_in_work("b.map"), &g);
	twz_grid_free(&g);
	build(twz_test_in_work("a.map"), NULL, 1, 3, twz_test_in_work("a1"));
	build(twz_test_in_work("a.map"), NULL, 2, 3, twz_test_in_work("a2"));
	build(twz_test_in_work("a.map"), NULL, 3, 3, twz_test_in_work("a3"));
	build(twz_test_in_work("a.map"), c4, 2, 3, twz_test_in_work("c2"));
	build(twz_test_in_work("a.map"), raw, 2, 3, twz_test_in_work("z2"));
	build(twz_test_in_work("a.map"), NULL, 1, 2, twz_test_in_work("h1"));
	build(twz_test_in_work("a.map"), NULL, 2, 2, twz_test_in_work("h2"));
	build(twz_test_in_work("b.map"), NULL, 2, 3, twz_test_in_work("b2"));
}

/* The merge of the named parts of work fails with one line naming
 * `names` and saying `says`, and leaves an existing output alone. */
static void expect_refused(const char *const *parts, unsigned n,
			   const char *names, const char *says)
{
	const char *full[16];
	char err[4096];

	for (unsigned i = 0; i < n; i++)
		full[i] = strdup(twz_test_in_work(parts[i]));
	twz_test_write_file(twz_test_in_work("out.twz"), "old", 3);
	int st = merge(err, sizeof err, full, n, twz_test_in_work("out.twz"));
	ck_assert_msg(st == 3, "status %d, not 3: %s", st, err);
	expect_one_line(err, names);
	ck_assert_msg(strstr(err, says) != NULL, "'%s' does not say '%s'", err, says);
	size_t len;
	uint8_t *kept = twz_test_read_file(twz_test_in_work("out.twz"), &len);
	ck_assert_msg(len == 3 && !memcmp(kept, "old", 3), "the output was replaced");
	free(kept);
	expect_no_temporary();
	for (unsigned i = 0; i < n; i++)
		free((void *)full[i]);
}

START_TEST(test_merge_refusals)
{
	write_parts();
	{
		const char *p[] = { "a1", "a3" };
		expect_refused(p, 2, "out.twz", "shard 2 of 3 is missing");
	}
	{
		const char *p[] = { "a1", "a2", "a2", "a3" };
		expect_refused(p, 4, "a2", "shard 2 of 3 again");
	}
	{
		const char *p[] = { "a1", "b2", "a3" };
		expect_refused(p, 3, "b2", "another level");
	}
	{
		const char *p[] = { "a1", "c2", "a3" };
		expect_refused(p, 3, "c2", "--connectivity 4, not 8");
	}
	{
		const char *p[] = { "a1", "z2", "a3" };
		expect_refused(p, 3, "z2", "--codec raw, not zstd");
	}
	{
		const char *p[] = { "a1", "h2", "a3" };
		expect_refused(p, 3, "h2", "shard 2 of 2, but");
	}
	{
		const char *p[] = { "h1", "a2" };
		expect_refused(p, 2, "a2", "of 3, but");
	}
	{
		const char *p[] = { "a.map" };
		expect_refused(p, 1, "a.map", "not a partial file");
	}
	/* A whole database in place of a part. */
	build(twz_test_in_work("a.map"), NULL, 0, 0, twz_test_in_work("whole.twz"));
	{
		const char *p[] = { "a1", "whole.twz", "a3" };
		expect_refused(p, 3, "whole.twz", "a whole database");
	}
}
END_TEST

/* TRANSIT parts: mixed with CPD parts, or with other TRANSIT options,
 * they are refused naming the part; a damaged one too. */
START_TEST(test_transit_merge_refusals)
{
	const char *tr[] = { "--method", "transit", "--transit-grid", "6", NULL };
	const char *tr5[] = { "--method", "transit", "--transit-grid", "5", NULL };
	size_t len;

	write_parts();
	build(twz_test_in_work("a.map"), tr, 1, 3, twz_test_in_work("t1"));
	build(twz_test_in_work("a.map"), tr, 2, 3, twz_test_in_work("t2"));
	build(twz_test_in_work("a.map"), tr, 3, 3, twz_test_in_work("t3"));
	build(twz_test_in_work("a.map"), tr5, 2, 3, twz_test_in_work("g2"));
	{
		const char *p[] = { "t1", "a2", "t3" };
		expect_refused(p, 3, "a2", "a CPD shard, but");
	}
	{
		const char *p[] = { "t1", "g2", "t3" };
		expect_refused(p, 3, "g2", "--transit-grid 5, not 6");
	}
	{
		const char *p[] = { "t1", "t3" };
		expect_refused(p, 2, "out.twz", "shard 2 of 3 is missing");
	}
	uint8_t *good = twz_test_read_file(twz_test_in_work("t2"), &len);
	for (unsigned k = 0; k < 16; k++) {
		uint8_t *bad = twz_test_dup_bytes(good, len);
		size_t at = (size_t)k * (len - 1) / 15;
		bad[at] ^= (uint8_t)(0x33 + k);
		twz_test_write_file(twz_test_in_work("d2"), bad, len);
		free(bad);
		const char *p[] = { "t1", "d2", "t3" };
		expect_refused(p, 3, "d2", "");
	}
	free(good);
}
END_TEST

/* A part damaged at byte offsets spread over the file (header, table,
 * sections), or truncated, is refused naming it. */
START_TEST(test_merge_damaged_part)
{
	size_t len;

	write_parts();
	uint8_t *good = twz_test_read_file(twz_test_in_work("a2"), &len);
	for (unsigned k = 0; k < 24; k++) {
		uint8_t *bad = twz_test_dup_bytes(good, len);
		size_t at = k < 23 ? (size_t)k * (len - 1) / 22 : 0;
		if (k == 23)
			at = len / 2;
		bad[at] ^= (uint8_t)(0x5a + k);
		twz_test_write_file(twz_test_in_work("d2"), bad, k == 23 ? len / 2 : len);
		free(bad);
		const char *p[] = { "a1", "d2", "a3" };
		const char *full[3];
		char err[4096];
		for (unsigned i = 0; i < 3; i++)
			full[i] = strdup(twz_test_in_work(p[i]));
		twz_test_write_file(twz_test_in_work("out.twz"), "old", 3);
		int st = merge(err, sizeof err, full, 3, twz_test_in_work("out.twz"));
		ck_assert_msg(st == 3, "damage at %zu: status %d (%s)", at, st, err);
		expect_one_line(err, "d2");
		ck_assert_msg(strstr(err, "damaged") || strstr(err, "not a partial"),
			      "damage at %zu: '%s'", at, err);
		size_t ol;
		uint8_t *kept = twz_test_read_file(twz_test_in_work("out.twz"), &ol);
		ck_assert(ol == 3 && !memcmp(kept, "old", 3));
		free(kept);
		for (unsigned i = 0; i < 3; i++)
			free((void *)full[i]);
	}
	free(good);
	expect_no_temporary();
}
END_TEST

/* Bad --shard words, and --shard with --agent-sizes: usage, nothing
 * written. */
START_TEST(test_build_shard_usage)
{
	static const char *const bad[] = { "3/2", "0/2", "2", "a/b", "1/0",
					   "1/2/3", "01/2", "", "70000/70000" };
	struct twz_grid g;
	char err[4096];

	twz_test_generate(&g, TWZ_TEST_ROOMS, 30, 30, 5);
	twz_test_write_map(twz_test_in_work("a.map"), &g);
	twz_grid_free(&g);
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		const char *args[] = { "build", twz_test_in_work("a.map"), "-o",
				       twz_test_in_work("p"), "--shard", bad[k], NULL };
		int st = twz_test_tool_status(args, err, sizeof err);
		ck_assert_msg(st == 2, "--shard '%s': status %d", bad[k], st);
		ck_assert_msg(strstr(err, "--shard") != NULL, "'%s'", err);
		ck_assert(!file_exists(twz_test_in_work("p")));
	}
	const char *args[] = { "build", twz_test_in_work("a.map"), "-o", twz_test_in_work("p"),
			       "--junctions", "--shard", "1/2", NULL };
	ck_assert_int_eq(twz_test_tool_status(args, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "not with --shard or --mpi") != NULL, "'%s'", err);
	ck_assert(!file_exists(twz_test_in_work("p")));

	const char *noarg[] = { "merge", "-o", twz_test_in_work("m.twz"), NULL };
	ck_assert_int_eq(twz_test_tool_status(noarg, err, sizeof err), 2);
	const char *noout[] = { "merge", twz_test_in_work("a.map"), NULL };
	ck_assert_int_eq(twz_test_tool_status(noout, err, sizeof err), 2);
}
END_TEST

/* A partial file is not a database: the runtime refuses it, and the
 * tool says to merge it. */
START_TEST(test_partial_is_not_a_database)
{
	struct twz_grid g;
	char err[4096];
	size_t len;

	twz_test_generate(&g, TWZ_TEST_MAZE, 30, 30, 6);
	twz_test_write_map(twz_test_in_work("a.map"), &g);
	twz_grid_free(&g);
	build(twz_test_in_work("a.map"), NULL, 1, 1, twz_test_in_work("only"));
	uint8_t *buf = twz_test_read_file(twz_test_in_work("only"), &len);
	ck_assert_int_eq(twz_test_try_open(buf, len, 0), TWZ_E_NOT_TWIGZ);
	free(buf);
	twz_db *db = NULL;
	ck_assert_int_eq(twz_open(twz_test_in_work("only"), 0, &db), TWZ_E_NOT_TWIGZ);
	ck_assert_ptr_null(db);
	const char *args[] = { "info", twz_test_in_work("only"), NULL };
	ck_assert_int_eq(twz_test_tool_status(args, err, sizeof err), 3);
	expect_one_line(err, "only");
	ck_assert_msg(strstr(err, "merge it first") != NULL, "'%s'", err);
}
END_TEST

static Suite *twz_shard_suite(void)
{
	Suite *s = suite_create("shard");

	twz_test_work_prefix("check_shard.");
	TCase *tc;

	tc = tcase_create("Merge");
	tcase_add_checked_fixture(tc, twz_test_work_setup, twz_test_work_teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_merged_equals_single_bake, 0, 24);
	tcase_add_test(tc, test_merged_project_level);
	tcase_add_loop_test(tc, test_transit_merged_equals_single_bake, 0, 10);
	tcase_add_test(tc, test_transit_merged_project_level);
	suite_add_tcase(s, tc);

	tc = tcase_create("Split");
	tcase_add_loop_test(tc, test_ranges_cover_and_balance, 0, TWZ_TEST_KIND_COUNT);
	tcase_add_loop_test(tc, test_transit_ranges_cover_and_balance, 0,
			    TWZ_TEST_KIND_COUNT);
	tcase_add_test(tc, test_shard_parse);
	suite_add_tcase(s, tc);

	tc = tcase_create("Refusals");
	tcase_add_checked_fixture(tc, twz_test_work_setup, twz_test_work_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_merge_refusals);
	tcase_add_test(tc, test_merge_damaged_part);
	tcase_add_test(tc, test_transit_merge_refusals);
	tcase_add_test(tc, test_build_shard_usage);
	tcase_add_test(tc, test_partial_is_not_a_database);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_shard_suite());
}
