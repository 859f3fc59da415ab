/*
 * cmd_verify.c - `twigz verify DB FILE.scen`: every problem of the
 * scenario answered by the database, each path checked move by move and
 * its cost against the printed optimum. Exit status 1 when any fails.
 */
#include <stdio.h>

#include "cli_common.h"
#include "query_session.h"

/* Failures printed one a line; the rest are only counted. */
#define MAX_SHOWN 10

int twz_cmd_verify(int argc, char **argv)
{
	if (argc != 2)
		return twz_cli_usage("%s", "verify needs DB FILE.scen");
	const char *dbpath = argv[0], *scen = argv[1];
	struct twz_query_session qs;
	size_t passed = 0, failed = 0;
	int rc = twz_session_open(&qs, dbpath, scen, 0);
	if (rc)
		return rc;
	for (size_t i = 0; i < qs.sc.count; i++) {
		const struct twz_scen_entry *e = &qs.sc.entries[i];
		struct twz_path_result r;
		twz_session_solve(&qs, e->sx, e->sy, e->gx, e->gy, &r);
		const char *why = NULL;
		if (e->unreachable) {
			/* Printed as -1: right when there is no path. */
			if (r.status == TWZ_OK)
				why = "found a path where the scenario has none";
			else if (r.status != TWZ_E_UNREACHABLE)
				why = twz_strerror(r.status);
		} else if (r.status != TWZ_OK)
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
		if (failed <= MAX_SHOWN)
			fprintf(stderr, "twigz: %s:%lu: (%u,%u) -> (%u,%u): %s (cost %.6f, optimum %.6f)\n",
				scen, e->line, e->sx, e->sy, e->gx, e->gy, why,
				r.cost, e->optimal);
	}
	printf("%zu passed, %zu failed\n", passed, failed);
	twz_session_close(&qs);
	return failed ? EXIT_VERIFY : 0;
}
