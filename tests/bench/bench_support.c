/*
 * bench_support.c - measuring a baked file and printing sizes, for both
 * parts of the benchmark (bench_support.h).
 */
#include "bench_support.h"

#include <stdio.h>
#include <unistd.h>

#include "level_scen.h"
#include "twigz.h"

int bench_baselines;

int bench_measure(const char *dbpath, const char *map, int scen_required,
		  struct twz_bench_result *r)
{
	struct twz_bench_options opt;
	struct twz_error err = { { 0 }, 0 };
	struct twz_scen sc = { 0 };
	char scen[4200];
	twz_db *db;
	int rc = -1;

	twz_status st = twz_open(dbpath, 0, &db);
	if (st != TWZ_OK) {
		fprintf(stderr, "twz_bench: %s: %s\n", dbpath, twz_strerror(st));
		return -1;
	}
	snprintf(scen, sizeof scen, "%.4096s.scen", map);
	int have_scen = scen_required || access(scen, R_OK) == 0;
	if (have_scen && twz_bench_load_scen(db, scen, &sc, &err) != 0) {
		fprintf(stderr, "twz_bench: %s\n", err.msg);
		goto out;
	}
	twz_bench_options_default(&opt);
	opt.baselines = bench_baselines;
	if (twz_bench_run(db, dbpath, have_scen ? &sc : NULL, &opt, r, &err) != 0) {
		fprintf(stderr, "twz_bench: %s\n", err.msg);
		goto out;
	}
	rc = 0;
out:
	twz_scen_free(&sc);
	twz_close(db);
	return rc;
}

void bench_print_bytes(double b)
{
	if (b >= 1e6)
		printf("%.2f MB", b / 1e6);
	else
		printf("%.1f KB", b / 1e3);
}
