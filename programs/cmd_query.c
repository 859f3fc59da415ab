/*
 * cmd_query.c - `twigz query DB SX SY GX GY [--json]` and
 * `twigz query DB --scen FILE.scen [--json]`: prints each path, as text
 * or as one JSON object a line; with `--closed FILE`, around the places
 * that file shuts, and with `--exclude AREA,...` outside those areas.
 * --agent-size K asks the database of an agent of size K (a file baked
 * with --agent-sizes; shut cells are widened to its square); with
 * --smooth, its any-angle waypoints instead of its cells.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "graph_cli.h"
#include "navmesh_cli.h"
#include "query_session.h"

/* The Euclidean length of a smoothed path: its waypoints' segments. */
static double waypoint_length(const twz_db *db, const twz_node *buf,
			      size_t len)
{
	double sum = 0;

	for (size_t i = 1; i < len; i++) {
		uint32_t x0, y0, x1, y1;
		twz_node_xy(db, buf[i - 1], &x0, &y0);
		twz_node_xy(db, buf[i], &x1, &y1);
		sum += hypot((double)x1 - x0, (double)y1 - y0);
	}
	return sum;
}

static void print_json(const twz_db *db, const twz_node *buf, uint32_t sx,
		       uint32_t sy, uint32_t gx, uint32_t gy,
		       const struct twz_path_result *r, int smooth)
{
	printf("{\"start\":[%u,%u],\"goal\":[%u,%u],", sx, sy, gx, gy);
	if (r->status != TWZ_OK) {
		printf(smooth ? "\"cost\":null,\"length\":null,\"path\":[],"
			      : "\"cost\":null,\"path\":[],");
		printf("\"status\":\"%s\"}\n", twz_status_word(r->status));
		return;
	}
	printf("\"cost\":%.10g,", r->cost);
	if (smooth)
		printf("\"length\":%.10g,", waypoint_length(db, buf, r->len));
	printf("\"path\":[");
	for (size_t i = 0; i < r->len; i++) {
		uint32_t x, y;
		twz_node_xy(db, buf[i], &x, &y);
		printf(i ? ",[%u,%u]" : "[%u,%u]", x, y);
	}
	printf("]}\n");
}

static void print_plain(const twz_db *db, const twz_node *buf, uint32_t sx,
			uint32_t sy, uint32_t gx, uint32_t gy,
			const struct twz_path_result *r, int smooth)
{
	if (r->status != TWZ_OK) {
		printf("(%u,%u) -> (%u,%u): %s\n", sx, sy, gx, gy,
		       r->status == TWZ_E_UNREACHABLE ? "unreachable"
						      : twz_strerror(r->status));
		return;
	}
	if (smooth)
		printf("(%u,%u) -> (%u,%u): cost %.6f, length %.6f, %zu waypoints:",
		       sx, sy, gx, gy, r->cost, waypoint_length(db, buf, r->len),
		       r->len);
	else
		printf("(%u,%u) -> (%u,%u): cost %.6f, %zu moves:", sx, sy, gx, gy,
		       r->cost, r->len - 1);
	for (size_t i = 0; i < r->len; i++) {
		uint32_t x, y;
		twz_node_xy(db, buf[i], &x, &y);
		printf(" (%u,%u)", x, y);
	}
	printf("\n");
}

/* The one problem given as SX SY GX GY, as the session's scenario; 0 or
 * an exit status. */
static int single_problem(struct twz_query_session *qs, const char *dbpath,
			  const uint32_t c[4])
{
	const char *what = NULL;

	if (c[0] >= qs->info.width || c[1] >= qs->info.height)
		what = "start is off the map";
	else if (c[2] >= qs->info.width || c[3] >= qs->info.height)
		what = "goal is off the map";
	else if (twz_node_at(qs->root, c[0], c[1]) == TWZ_NONE)
		what = "start is a blocked cell";
	else if (twz_node_at(qs->root, c[2], c[3]) == TWZ_NONE)
		what = "goal is a blocked cell";
	if (what) {
		fprintf(stderr, "twigz: %s: %s\n", dbpath, what);
		return EXIT_INPUT;
	}
	struct twz_scen_entry *e = calloc(1, sizeof *e);
	if (!e)
		return EXIT_NOMEM;
	e->sx = c[0], e->sy = c[1], e->gx = c[2], e->gy = c[3];
	qs->sc.entries = e;
	qs->sc.count = 1;
	return 0;
}

int twz_cmd_query(int argc, char **argv)
{
	struct twz_cli_args ar = TWZ_CLI_ARGS(argc, argv);
	/* The database, then SX SY GX GY. */
	const char *words[5] = { NULL, NULL, NULL, NULL, NULL };
	const char *scen = NULL, *closed = NULL, *exclude = NULL, *a;
	int json = 0, smooth = 0;
	unsigned agent = 0;
	static const char *const valued[] = { "--agent-size", "--scen", "--closed",
					      "--exclude", "--p2p", "--points",
					      "--waypoints", "--cache", NULL };
	uint64_t cache = 0;

	/* A graph's database answers by vertex ids (graph_query.c). */
	unsigned kind = twz_cli_db_kind(twz_cli_db_word(argc, argv, valued));
	if (kind == TWZ_KIND_GRAPH)
		return twz_graph_query_cmd(argc, argv);
	/* A navmesh's answers points in space (navmesh_query.c). */
	if (kind == TWZ_KIND_NAVMESH)
		return twz_navmesh_query_cmd(argc, argv);
	while ((a = twz_cli_next(&ar))) {
		if (!strcmp(a, "--json"))
			json = 1;
		else if (!strcmp(a, "--agent-size"))
			agent = (unsigned)twz_cli_number(&ar, a, 1, 16,
				"an agent size from 1 to 16");
		else if (!strcmp(a, "--smooth"))
			smooth = 1;
		else if (!strcmp(a, "--scen"))
			scen = twz_cli_value(&ar, a, "a scenario file");
		else if (!strcmp(a, "--closed"))
			closed = twz_cli_value(&ar, a, "a file of closed cells");
		else if (!strcmp(a, "--exclude"))
			exclude = twz_cli_value(&ar, a, "area names, such as W,S");
		else if (!strcmp(a, "--cache"))
			cache = twz_cli_bytes(&ar, a, 1, UINT64_MAX >> 10,
				"a cache size in bytes, such as 64M");
		else if (a[0] == '-' && a[1] >= '0' && a[1] <= '9')
			twz_cli_place(&ar, a, words, 5);
		else
			twz_cli_operand(&ar, a, words, 5);
	}
	if (ar.status)
		return ar.status;
	const char *dbpath = words[0];
	int npos = 0;
	while (npos < 4 && words[1 + npos])
		npos++;
	if (!dbpath)
		return twz_cli_usage("%s", "query needs a database");
	if (!scen && npos != 4)
		return twz_cli_usage("%s", "query needs SX SY GX GY or --scen FILE");
	if (scen && npos)
		return twz_cli_usage("%s", "query takes either SX SY GX GY or --scen FILE");

	uint32_t c[4];
	for (int k = 0; k < npos; k++) {
		long v;
		if (twz_cli_parse_int(words[1 + k], 0, UINT32_MAX, &v))
			return twz_cli_usage("coordinate '%s' is not a non-negative integer",
					     words[1 + k]);
		c[k] = (uint32_t)v;
	}

	struct twz_query_session qs;
	/* Only the problems are read: the optimum is verify's business. */
	int rc = twz_session_open_cache(&qs, dbpath, scen, TWZ_SCEN_NO_OPTIMUM,
					agent, cache);
	if (rc)
		return rc;
	if (!scen && (rc = single_problem(&qs, dbpath, c)) != 0)
		goto out;
	if (closed && (rc = twz_session_close_cells(&qs, closed)) != 0)
		goto out;
	if (exclude && (rc = twz_session_exclude(&qs, exclude)) != 0)
		goto out;
	for (size_t i = 0; i < qs.sc.count; i++) {
		const struct twz_scen_entry *e = &qs.sc.entries[i];
		struct twz_path_result r;
		twz_session_solve(&qs, e->sx, e->sy, e->gx, e->gy, &r);
		if (!twz_session_answered(r.status)) {
			fprintf(stderr, "twigz: %s: %s\n", dbpath, twz_strerror(r.status));
			rc = EXIT_INPUT;
			goto out;
		}
		/* The grid path's cost stays the optimum; the path becomes
		 * its corners, as the filter leaves the level. */
		if (smooth && r.status == TWZ_OK &&
		    twz_smooth_filtered(qs.db, qs.filtered ? &qs.filter : NULL,
					qs.buf, r.len, &r.len) != TWZ_OK) {
			fprintf(stderr, "twigz: %s: %s\n", dbpath,
				twz_strerror(TWZ_E_DAMAGED));
			rc = EXIT_INPUT;
			goto out;
		}
		(json ? print_json : print_plain)(qs.db, qs.buf, e->sx, e->sy,
						  e->gx, e->gy, &r, smooth);
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "twigz: cannot write the output: %s\n", strerror(errno));
		rc = EXIT_IO;
	}
out:
	twz_session_close(&qs);
	return rc;
}
