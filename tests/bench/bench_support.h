/*
 * bench_support.h - what the benchmark's CPD tables (twz_bench.c) and
 * TRANSIT rows (transit_bench.c) share: measuring a baked file with
 * `twigz bench`'s code, and how sizes are printed.
 */
#ifndef BENCH_SUPPORT_H
#define BENCH_SUPPORT_H

#include "cmd_bench.h"

/* Open dbpath and measure it on the scenarios of MAP.scen (map is the
 * level's path), or, when scen_required is 0 and there is no such file,
 * on random pairs. 0, or -1 with a message on stderr. */
int bench_measure(const char *dbpath, const char *map, int scen_required,
		  struct twz_bench_result *r);

/* When set, bench_measure also measures the online searches of
 * baseline_bench.h (twz_bench --baselines). */
extern int bench_baselines;

/* A byte count as "12.3 KB" or "4.56 MB" on stdout. */
void bench_print_bytes(double bytes);

#endif
