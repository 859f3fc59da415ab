/*
 * twigz_main.c - the `twigz` command: build, query, verify, info.
 *
 * Exit status: 0 success, 1 verification failed, 2 usage, 3 bad input
 * (level, scenario or database), 4 I/O error, 5 out of memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bake.h"
#include "level_map.h"
#include "level_scen.h"
#include "cli_common.h"
#include "transit_cli.h"
#include "twigz.h"
#include "twz_format.h"

/* ---- build ----------------------------------------------------------- */

static int cmd_build(int argc, char **argv)
{
	struct twz_bake_options opt;
	const char *level = NULL, *out = NULL;
	struct twz_transit_options topt = { 0, 0, 0 };
	int quiet = 0, transit = 0, transit_opts = 0, used;
	long v;

	twz_bake_options_default(&opt);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (!val)
				return twz_cli_usage("%s needs a file name", a);
			out = val;
			i++;
		} else if (!strcmp(a, "--method")) {
			if (!val)
				return twz_cli_usage("%s needs cpd or transit", a);
			if (strcmp(val, "cpd") != 0 && strcmp(val, "transit") != 0)
				return twz_cli_usage("unknown --method '%s' (this version builds: cpd, transit)", val);
			transit = !strcmp(val, "transit");
			i++;
		} else if (!strncmp(a, "--transit-", 10)) {
			int st = twz_transit_parse_option(a, val, &topt, &used);
			if (st)
				return st;
			if (!used)
				return twz_cli_usage("unknown option '%s'", a);
			transit_opts = 1;
			i++;
		} else if (!strcmp(a, "--threads")) {
			if (!val || twz_cli_parse_int(val, 1, 1024, &v))
				return twz_cli_usage("--threads needs a number from 1 to 1024, not '%s'",
					     val ? val : "");
			opt.threads = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--format")) {
			if (!val || (strcmp(val, "1.0") && strcmp(val, "1.1") &&
				     strcmp(val, "1.2")))
				return twz_cli_usage("--format needs 1.0, 1.1 or 1.2, not '%s'",
						     val ? val : "");
			opt.layout = !strcmp(val, "1.0") ? TWZ_LAYOUT_PLAIN
				   : !strcmp(val, "1.1") ? TWZ_LAYOUT_BUCKETED
				   : TWZ_LAYOUT_NARROW;
			i++;
		} else if (!strcmp(a, "--codec")) {
			if (!val || (strcmp(val, "zstd") && strcmp(val, "raw")))
				return twz_cli_usage("--codec needs zstd or raw, not '%s'", val ? val : "");
			opt.codec = strcmp(val, "raw") ? TWZ_CODEC_ZSTD : TWZ_CODEC_RAW;
			i++;
		} else if (!strcmp(a, "--level")) {
			if (!val || twz_cli_parse_int(val, 1, 22, &v))
				return twz_cli_usage("--level needs a zstd level from 1 to 22, not '%s'",
					     val ? val : "");
			opt.level = (int)v;
			i++;
		} else if (!strcmp(a, "--connectivity")) {
			if (!val || twz_cli_parse_int(val, 4, 8, &v) || (v != 4 && v != 8))
				return twz_cli_usage("--connectivity needs 8 or 4, not '%s'", val ? val : "");
			opt.connectivity = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--max-nodes")) {
			if (!val || twz_cli_parse_int(val, 1, TWZ_MAX_NODES, &v))
				return twz_cli_usage("--max-nodes needs a number from 1 to 67108864, not '%s'",
					     val ? val : "");
			opt.max_nodes = (uint32_t)v;
			i++;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			quiet = 1;
		} else if (a[0] == '-' && a[1]) {
			return twz_cli_usage("unknown option '%s'", a);
		} else if (!level) {
			level = a;
		} else {
			return twz_cli_usage("unexpected argument '%s'", a);
		}
	}
	if (!level)
		return twz_cli_usage("%s", "build needs a level file");
	if (!out)
		return twz_cli_usage("%s", "build needs -o OUT.twz");
	if (transit_opts && !transit)
		return twz_cli_usage("%s", "--transit-* options need --method transit");

	struct twz_error err = { { 0 }, 0 };
	struct twz_grid grid;
	struct twz_cpd cpd;
	if (twz_grid_load(level, &grid, &err) != 0)
		return twz_cli_error(&err);
	opt.name = level;
	opt.progress = !quiet && isatty(STDERR_FILENO);
	int rc = 0;
	if (transit) {
		rc = twz_transit_build_cmd(&grid, &opt, &topt, out, quiet);
		goto out_grid;
	}
	if (twz_bake_cpd(&grid, &opt, &cpd, &err) != 0) {
		rc = twz_cli_error(&err);
		goto out_grid;
	}
	if (twz_cpd_write(&cpd, &grid, &opt, out, &err) != 0) {
		rc = twz_cli_error(&err);
		goto out_cpd;
	}
	if (!quiet) {
		double pairs = (double)cpd.graph.node_count * cpd.graph.node_count;
		fprintf(stderr, "twigz: baked %s -> %s: %u nodes, %u regions, %" PRIu64
			" runs (%.2f bits per pair), searches %.2fs (%.1fM pairs/s)\n",
			level, out, cpd.graph.node_count, cpd.graph.component_count,
			cpd.run_count, pairs > 0 ? cpd.run_count * 32.0 / pairs : 0.0,
			cpd.seconds, cpd.seconds > 0 ? pairs / cpd.seconds / 1e6 : 0.0);
	}
out_cpd:
	twz_cpd_free(&cpd);
out_grid:
	twz_grid_free(&grid);
	return rc;
}

/* ---- query and verify ------------------------------------------------ */

struct path_result {
	twz_status status;
	size_t len;
	double cost;     /* from the moves of the path itself */
	int legal;       /* every step one legal move */
};

static int db_walkable(const void *ctx, uint32_t x, uint32_t y)
{
	return twz_node_at(ctx, x, y) != TWZ_NONE;
}

/* Find the path and check it step by step against the grid. */
static void solve(const twz_db *db, twz_node *buf, size_t cap, uint32_t sx,
		  uint32_t sy, uint32_t gx, uint32_t gy, unsigned connectivity,
		  struct path_result *r)
{
	twz_node s = twz_node_at(db, sx, sy), t = twz_node_at(db, gx, gy);
	uint32_t straight = 0, diagonal = 0;

	r->status = twz_path(db, s, t, buf, cap, &r->len);
	r->cost = 0;
	r->legal = r->status == TWZ_OK;
	if (r->status != TWZ_OK)
		return;
	for (size_t i = 1; i < r->len; i++) {
		uint32_t x0, y0, x1, y1;
		twz_node_xy(db, buf[i - 1], &x0, &y0);
		twz_node_xy(db, buf[i], &x1, &y1);
		int64_t dx = (int64_t)x1 - x0, dy = (int64_t)y1 - y0;
		if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (!dx && !dy)) {
			r->legal = 0;
		} else if (dx && dy) {
			if (connectivity == 4 || twz_node_at(db, x1, y0) == TWZ_NONE ||
			    twz_node_at(db, x0, y1) == TWZ_NONE)
				r->legal = 0;
			diagonal++;
		} else {
			straight++;
		}
	}
	if (buf[0] != s || buf[r->len - 1] != t)
		r->legal = 0;
	r->cost = straight + diagonal * 1.41421356237309504880;
}

static void print_json(const twz_db *db, const twz_node *buf, uint32_t sx,
		       uint32_t sy, uint32_t gx, uint32_t gy,
		       const struct path_result *r)
{
	printf("{\"start\":[%u,%u],\"goal\":[%u,%u],", sx, sy, gx, gy);
	if (r->status != TWZ_OK) {
		printf("\"cost\":null,\"path\":[]}\n");
		return;
	}
	printf("\"cost\":%.10g,\"path\":[", r->cost);
	for (size_t i = 0; i < r->len; i++) {
		uint32_t x, y;
		twz_node_xy(db, buf[i], &x, &y);
		printf(i ? ",[%u,%u]" : "[%u,%u]", x, y);
	}
	printf("]}\n");
}

static void print_plain(const twz_db *db, const twz_node *buf, uint32_t sx,
			uint32_t sy, uint32_t gx, uint32_t gy,
			const struct path_result *r)
{
	if (r->status != TWZ_OK) {
		printf("(%u,%u) -> (%u,%u): unreachable\n", sx, sy, gx, gy);
		return;
	}
	printf("(%u,%u) -> (%u,%u): cost %.6f, %zu moves:", sx, sy, gx, gy,
	       r->cost, r->len - 1);
	for (size_t i = 0; i < r->len; i++) {
		uint32_t x, y;
		twz_node_xy(db, buf[i], &x, &y);
		printf(" (%u,%u)", x, y);
	}
	printf("\n");
}

/* What query and verify share: an open database, its info, a path
 * buffer for the longest path, and the scenario file when there is one,
 * checked against the database's grid. */
struct query_session {
	twz_db *db;
	twz_info info;
	twz_node *buf;            /* node_count + 1 nodes */
	size_t cap;
	struct twz_scen sc;
};

static void session_close(struct query_session *qs)
{
	twz_scen_free(&qs->sc);
	free(qs->buf);
	twz_close(qs->db);
}

/* 0, or an exit status after a one-line error (nothing left open). */
static int session_open(struct query_session *qs, const char *dbpath,
			const char *scen)
{
	struct twz_error err = { { 0 }, 0 };
	int rc;

	memset(qs, 0, sizeof *qs);
	rc = twz_cli_open_db(dbpath, &qs->db);
	if (rc)
		return rc;
	twz_get_info(qs->db, &qs->info);
	qs->cap = (size_t)qs->info.node_count + 1;
	qs->buf = malloc(qs->cap * sizeof *qs->buf);
	if (!qs->buf) {
		fprintf(stderr, "twigz: out of memory\n");
		session_close(qs);
		return EXIT_NOMEM;
	}
	if (scen && (twz_scen_load(scen, &qs->sc, &err) != 0 ||
		     twz_scen_check_grid(&qs->sc, scen, qs->info.width,
					 qs->info.height, db_walkable, qs->db,
					 &err) != 0)) {
		session_close(qs);
		return twz_cli_error(&err);
	}
	return 0;
}

static int cmd_query(int argc, char **argv)
{
	const char *dbpath = NULL, *scen = NULL;
	const char *pos[4];
	int npos = 0, json = 0;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strcmp(argv[i], "--scen")) {
			if (i + 1 >= argc)
				return twz_cli_usage("%s needs a scenario file", argv[i]);
			scen = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1] &&
			   !(argv[i][1] >= '0' && argv[i][1] <= '9'))
			return twz_cli_usage("unknown option '%s'", argv[i]);
		else if (!dbpath)
			dbpath = argv[i];
		else if (npos < 4)
			pos[npos++] = argv[i];
		else
			return twz_cli_usage("unexpected argument '%s'", argv[i]);
	}
	if (!dbpath)
		return twz_cli_usage("%s", "query needs a database");
	if (!scen && npos != 4)
		return twz_cli_usage("%s", "query needs SX SY GX GY or --scen FILE");
	if (scen && npos)
		return twz_cli_usage("%s", "query takes either SX SY GX GY or --scen FILE");

	uint32_t c[4];
	for (int k = 0; k < npos; k++) {
		long v;
		if (twz_cli_parse_int(pos[k], 0, UINT32_MAX, &v))
			return twz_cli_usage("coordinate '%s' is not a non-negative integer", pos[k]);
		c[k] = (uint32_t)v;
	}

	struct query_session qs;
	int rc = session_open(&qs, dbpath, scen);
	if (rc)
		return rc;
	if (!scen) {
		const char *what = NULL;
		if (c[0] >= qs.info.width || c[1] >= qs.info.height)
			what = "start is off the map";
		else if (c[2] >= qs.info.width || c[3] >= qs.info.height)
			what = "goal is off the map";
		else if (twz_node_at(qs.db, c[0], c[1]) == TWZ_NONE)
			what = "start is a blocked cell";
		else if (twz_node_at(qs.db, c[2], c[3]) == TWZ_NONE)
			what = "goal is a blocked cell";
		if (what) {
			fprintf(stderr, "twigz: %s: %s\n", dbpath, what);
			rc = EXIT_INPUT;
			goto out;
		}
		struct twz_scen_entry *e = calloc(1, sizeof *e);
		if (!e) {
			rc = EXIT_NOMEM;
			goto out;
		}
		e->sx = c[0], e->sy = c[1], e->gx = c[2], e->gy = c[3];
		qs.sc.entries = e;
		qs.sc.count = 1;
	}
	for (size_t i = 0; i < qs.sc.count; i++) {
		const struct twz_scen_entry *e = &qs.sc.entries[i];
		struct path_result r;
		solve(qs.db, qs.buf, qs.cap, e->sx, e->sy, e->gx, e->gy,
		      qs.info.connectivity, &r);
		if (r.status != TWZ_OK && r.status != TWZ_E_UNREACHABLE) {
			fprintf(stderr, "twigz: %s: %s\n", dbpath, twz_strerror(r.status));
			rc = EXIT_INPUT;
			goto out;
		}
		(json ? print_json : print_plain)(qs.db, qs.buf, e->sx, e->sy,
						  e->gx, e->gy, &r);
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "twigz: cannot write the output: %s\n", strerror(errno));
		rc = EXIT_IO;
	}
out:
	session_close(&qs);
	return rc;
}

static int cmd_verify(int argc, char **argv)
{
	if (argc != 2)
		return twz_cli_usage("%s", "verify needs DB FILE.scen");
	const char *dbpath = argv[0], *scen = argv[1];
	struct query_session qs;
	size_t passed = 0, failed = 0;
	int rc = session_open(&qs, dbpath, scen);
	if (rc)
		return rc;
	for (size_t i = 0; i < qs.sc.count; i++) {
		const struct twz_scen_entry *e = &qs.sc.entries[i];
		struct path_result r;
		solve(qs.db, qs.buf, qs.cap, e->sx, e->sy, e->gx, e->gy,
		      qs.info.connectivity, &r);
		const char *why = NULL;
		if (r.status != TWZ_OK)
			why = twz_strerror(r.status);
		else if (!r.legal)
			why = "path has an illegal step";
		else if (!twz_scen_cost_matches(e, r.cost))
			why = "cost differs from the optimum";
		if (!why) {
			passed++;
			continue;
		}
		failed++;
		if (failed <= 10)
			fprintf(stderr, "twigz: %s:%lu: (%u,%u) -> (%u,%u): %s (cost %.6f, optimum %.6f)\n",
				scen, e->line, e->sx, e->sy, e->gx, e->gy, why,
				r.cost, e->optimal);
	}
	printf("%zu passed, %zu failed\n", passed, failed);
	session_close(&qs);
	return failed ? EXIT_VERIFY : 0;
}

/* ---- info ------------------------------------------------------------ */

static int cmd_info(int argc, char **argv)
{
	const char *dbpath = NULL;
	int json = 0;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (argv[i][0] == '-' && argv[i][1])
			return twz_cli_usage("unknown option '%s'", argv[i]);
		else if (!dbpath)
			dbpath = argv[i];
		else
			return twz_cli_usage("unexpected argument '%s'", argv[i]);
	}
	if (!dbpath)
		return twz_cli_usage("%s", "info needs a database");
	twz_db *db;
	int rc = twz_cli_open_db(dbpath, &db);
	if (rc)
		return rc;
	twz_info in;
	twz_get_info(db, &in);
	double pairs = (double)in.node_count * in.node_count;
	double bits = pairs > 0 ? in.memory_size * 8.0 / pairs : 0;
	if (json) {
		printf("{\"format\":\"%u.%u\",\"method\":\"%s\",\"connectivity\":%u,"
		       "\"width\":%u,\"height\":%u,\"nodes\":%u,\"regions\":%u,"
		       "\"runs\":%" PRIu64 ",\"file_bytes\":%" PRIu64
		       ",\"memory_bytes\":%" PRIu64 ",\"bits_per_pair\":%.4f,"
		       "\"codec\":\"%s\",\"level\":%d,\"level_hash\":\"%016" PRIx64 "\"}\n",
		       in.format_major, in.format_minor,
		       in.method == TWZ_METHOD_TRANSIT ? "transit" : "cpd",
		       in.connectivity, in.width,
		       in.height, in.node_count, in.component_count, in.run_count,
		       in.file_size, in.memory_size, bits,
		       in.build_codec ? "zstd" : "raw", in.build_level, in.level_hash);
	} else {
		printf("format       %u.%u\n", in.format_major, in.format_minor);
		printf("method       %s\n", in.method == TWZ_METHOD_TRANSIT
		       ? "transit (transit nodes, distance tables, local rows)"
		       : "cpd (all-pairs first moves, run-length rows)");
		printf("grid         %u x %u, %u-connected\n", in.width, in.height,
		       in.connectivity);
		printf("nodes        %u in %u region%s\n", in.node_count,
		       in.component_count, in.component_count == 1 ? "" : "s");
		printf("runs         %" PRIu64 "\n", in.run_count);
		printf("file         %" PRIu64 " bytes (%s", in.file_size,
		       in.build_codec ? "zstd" : "raw");
		if (in.build_codec)
			printf(" level %d", in.build_level);
		printf(")\n");
		printf("in memory    %" PRIu64 " bytes, %.3f bits per node pair\n",
		       in.memory_size, bits);
		printf("level hash   %016" PRIx64 "\n", in.level_hash);
	}
	twz_close(db);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return twz_cli_usage("%s", "no command");
	const char *cmd = argv[1];
	if (!strcmp(cmd, "build"))
		return cmd_build(argc - 2, argv + 2);
	if (!strcmp(cmd, "query"))
		return cmd_query(argc - 2, argv + 2);
	if (!strcmp(cmd, "verify"))
		return cmd_verify(argc - 2, argv + 2);
	if (!strcmp(cmd, "info"))
		return cmd_info(argc - 2, argv + 2);
	if (!strcmp(cmd, "bench"))
		return twz_cmd_bench(argc - 2, argv + 2);
	if (!strcmp(cmd, "unpack"))
		return twz_cmd_unpack(argc - 2, argv + 2);
	if (!strcmp(cmd, "render"))
		return twz_cmd_render(argc - 2, argv + 2);
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("twigz %s (format %d.%d; reads 1.0 to %d.%d)\n", twz_version(),
		       TWZ_FORMAT_MAJOR, TWZ_FORMAT_MINOR, TWZ_FORMAT_MAJOR,
		       TWZ_FORMAT_MINOR);
		return 0;
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "help") || !strcmp(cmd, "-h")) {
		fputs(twz_usage_text, stdout);
		return 0;
	}
	return twz_cli_usage("unknown command '%s'", cmd);
}
