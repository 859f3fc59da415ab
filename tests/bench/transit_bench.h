/*
 * transit_bench.h - the TRANSIT rows of the benchmark (twz_bench.c): bakes
 * with --method transit, a generated level too large for an all-pairs
 * bake, and the table that sets TRANSIT against the CPD and A*.
 */
#ifndef TRANSIT_BENCH_H
#define TRANSIT_BENCH_H

#include <stdint.h>

#include "cmd_bench.h"

/* What `twigz build MAP -o OUT --method transit --threads N` does; the
 * exit status of a forked child. */
int twz_transit_bench_bake(const char *map, const char *out, unsigned threads);

/* Write a generated rooms level of side x side cells (Moving AI .map):
 * rooms cut by recursive division with doors, and scattered pillars.
 * Deterministic in seed. 0, or -1 with a message on stderr. */
int twz_transit_bench_generate(const char *path, uint32_t side, uint64_t seed);

/* Measure a database as twz_bench does, on the level's scenario when
 * MAP.scen exists, else on random pairs. 0, or -1 with a message. */
int twz_transit_bench_measure(const char *db, const char *map,
			      struct twz_bench_result *r);

/* One level's TRANSIT figures next to its CPD's (cpd == NULL: no CPD). */
struct twz_transit_bench_row {
	const char *name;
	double bake_s;
	double peak_bytes;
	uint64_t file_bytes;
	const struct twz_bench_result *r;
	double cpd_bake_s;
	uint64_t cpd_file_bytes;
	const struct twz_bench_result *cpd;
};

void twz_transit_bench_print(const struct twz_transit_bench_row *rows,
			     unsigned n, unsigned threads);

#endif
