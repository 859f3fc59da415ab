/*
 * cmd_verify.c - `twigz verify DB FILE.scen [--json]`: every problem of
 * the scenario answered by the database, each path checked move by move
 * and its cost against the printed optimum (or, for an optimum of -1,
 * checked to be unreachable), twz_cost and twz_cost_exact checked to
 * agree with the path, and a walk of twz_next checked to arrive at the
 * same cost. Exit status 1 when any fails. --json
 * prints one object a problem, in scenario order, then a summary.
 * --agent-size K checks the database of an agent of size K against a
 * scenario whose optima are that agent's.
 */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "graph_cli.h"
#include "navmesh_cli.h"
#include "query_session.h"

/* Failures printed one a line; the rest are only counted. */
#define MAX_SHOWN 10

/* Why e's path r is wrong, or NULL when it is right. */
static const char *judge_path(const struct twz_scen_entry *e,
			      const struct twz_path_result *r)
{
	if (e->unreachable) {
		/* Printed as -1: right when there is no path. */
		if (r->status == TWZ_OK)
			return "found a path where the scenario has none";
		/* An agent's size may leave an end off its level. */
		if (r->status != TWZ_E_UNREACHABLE &&
		    r->status != TWZ_E_START_OFF && r->status != TWZ_E_GOAL_OFF)
			return twz_strerror(r->status);
		return NULL;
	}
	if (r->status != TWZ_OK)
		return twz_strerror(r->status);
	if (!r->legal)
		return "path has an illegal step";
	if (!twz_scen_cost_matches(e, r->cost))
		return "cost differs from the optimum";
	return NULL;
}

/* The path, then the costs the runtime gives without one. */
static const char *judge(const struct twz_query_session *qs,
			 const struct twz_scen_entry *e,
			 const struct twz_path_result *r)
{
	const char *why = judge_path(e, r);

	if (!why)
		why = twz_session_cost_disagrees(qs, e->sx, e->sy, e->gx, e->gy, r);
	if (!why)
		why = twz_session_next_disagrees(qs, e->sx, e->sy, e->gx, e->gy, r);
	return why;
}

static void print_json(const struct twz_scen_entry *e,
		       const struct twz_path_result *r, const char *why)
{
	printf("{\"line\":%lu,\"start\":[%u,%u],\"goal\":[%u,%u],", e->line,
	       e->sx, e->sy, e->gx, e->gy);
	if (e->unreachable)
		printf("\"expected\":null,");
	else
		printf("\"expected\":%.10g,", e->optimal);
	if (r->status == TWZ_OK)
		printf("\"cost\":%.10g,", r->cost);
	else
		printf("\"cost\":null,");
	printf("\"passed\":%s", why ? "false" : "true");
	if (why)
		printf(",\"why\":\"%s\"", why);
	printf("}\n");
}

int twz_cmd_verify(int argc, char **argv)
{
	struct twz_cli_args ar = TWZ_CLI_ARGS(argc, argv);
	const char *files[2] = { NULL, NULL };   /* the database, the .scen */
	const char *a;
	int json = 0;
	unsigned agent = 0;
	static const char *const valued[] = { "--agent-size", "--cache", NULL };
	uint64_t cache = 0;

	/* A graph's database checks .p2p queries (graph_query.c). */
	unsigned kind = twz_cli_db_kind(twz_cli_db_word(argc, argv, valued));
	if (kind == TWZ_KIND_GRAPH)
		return twz_graph_verify_cmd(argc, argv);
	/* A navmesh's database checks .points queries (navmesh_query.c). */
	if (kind == TWZ_KIND_NAVMESH)
		return twz_navmesh_verify_cmd(argc, argv);
	while ((a = twz_cli_next(&ar))) {
		if (!strcmp(a, "--json"))
			json = 1;
		else if (!strcmp(a, "--agent-size"))
			agent = (unsigned)twz_cli_number(&ar, a, 1, 16,
				"an agent size from 1 to 16");
		else if (!strcmp(a, "--cache"))
			cache = twz_cli_bytes(&ar, a, 1, UINT64_MAX >> 10,
				"a cache size in bytes, such as 64M");
		else
			twz_cli_operand(&ar, a, files, 2);
	}
	if (ar.status)
		return ar.status;
	if (!files[1])
		return twz_cli_usage("%s", "verify needs DB FILE.scen");
	const char *dbpath = files[0], *scen = files[1];
	struct twz_query_session qs;
	size_t passed = 0, failed = 0;
	int rc = twz_session_open_cache(&qs, dbpath, scen, 0, agent, cache);
	if (rc)
		return rc;
	for (size_t i = 0; i < qs.sc.count; i++) {
		const struct twz_scen_entry *e = &qs.sc.entries[i];
		struct twz_path_result r;
		twz_session_solve(&qs, e->sx, e->sy, e->gx, e->gy, &r);
		const char *why = judge(&qs, e, &r);
		if (json)
			print_json(e, &r, why);
		if (!why) {
			passed++;
			continue;
		}
		failed++;
		if (failed <= MAX_SHOWN)
			fprintf(stderr, "twigz: %s:%lu: (%u,%u) -> (%u,%u): %s (cost %.6f, optimum %.6f)\n",
				scen, e->line, e->sx, e->sy, e->gx, e->gy, why,
				r.cost, e->optimal);
	}
	if (json)
		printf("{\"passed\":%zu,\"failed\":%zu}\n", passed, failed);
	else
		printf("%zu passed, %zu failed\n", passed, failed);
	fflush(stdout);
	twz_session_close(&qs);
	return twz_cli_verify_status(scen, passed, failed, 0, NULL);
}
