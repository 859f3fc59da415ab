/*
 * baseline_bench.h - `twigz bench --baselines`: every online search of
 * baseline.h on the benchmark's own path queries, in the same process as
 * the database's figures: time per path, first-move lag, nodes touched,
 * path cost against the database's optimum, and the database's speed-up
 * over each. Every answer is checked first: a path that is not a walk of
 * legal moves from s to t, an optimal search whose cost differs from the
 * database's, or any search beating the optimum fails the benchmark.
 */
#ifndef BASELINE_BENCH_H
#define BASELINE_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "baseline.h"
#include "twigz.h"
#include "twz_error.h"

/* One path query: nodes, their cells, the database's exact cost. */
struct twz_baseline_query {
	twz_node s, t;
	uint32_t sx, sy, gx, gy;
	uint32_t straight, diagonal;
};

struct twz_baseline_figures {
	int supported;          /* runs on this grid (JPS: 8-connected) */
	int optimal;            /* always optimal here: costs checked equal */
	uint64_t paths;         /* queries asked */
	uint64_t found;         /* paths returned (Evasion may give up) */
	double path_us;         /* search and whole path, per query */
	double lag_us;          /* cells in, first move out, per query */
	double expanded;        /* per query, as baseline.h defines them */
	double generated;
	double scanned;
	double ratio_mean;      /* cost / optimum over found paths, s != t */
	double ratio_max;
};

/* Measure every baseline on q[0..nq) (reachable queries of db); repeats
 * and min_trial as the benchmark's timed loops. 0, or -1 with err set (of
 * kind TWZ_ERR_INPUT when an answer is wrong). */
int twz_baseline_bench(const twz_db *db, const char *dbpath,
		       const struct twz_baseline_query *q, uint64_t nq,
		       unsigned repeats, double min_trial,
		       struct twz_baseline_figures fig[TWZ_BASELINE_COUNT],
		       struct twz_error *err);

/* The table, against the database's path time (us) and first-move lag
 * (ns) on the same queries. */
void twz_baseline_print(FILE *f, const struct twz_baseline_figures *fig,
			double db_path_us, double db_lag_ns);

/* The figures as a JSON array (the brackets included). */
void twz_baseline_json(FILE *f, const struct twz_baseline_figures *fig,
		       double db_path_us, double db_lag_ns);

#endif
