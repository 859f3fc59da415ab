/*
 * cmd_bench.h - `twigz bench`: measures an open database against the two
 * references the product is judged by, in the same process and on the
 * same queries: SRC's binary search over the same runs (bench_ref.h) and
 * an online A* (astar.h). The benchmark program in tests/bench reuses it.
 *
 * Method: every timed loop runs many queries between two clock_gettime
 * calls, over queries generated beforehand from a fixed seed, and sums the
 * answers into a checksum so no work can be dropped; each loop is repeated
 * and the best repetition kept, since the machine may be shared. Every A*
 * answer is checked against the database's exact cost. With --baselines,
 * the online searches of baseline_bench.h run on the same path queries.
 */
#ifndef CMD_BENCH_H
#define CMD_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "baseline_bench.h"
#include "level_scen.h"
#include "twigz.h"
#include "twz_error.h"

struct twz_bench_options {
	uint32_t pairs;          /* random pairs for the first-move loops */
	uint32_t path_pairs;     /* random pairs walked when there is no .scen */
	uint64_t seed;
	unsigned repeats;        /* each timed loop: best of this many */
	double min_trial;        /* seconds a repetition runs at least */
	uint32_t max_paths;      /* path queries at most (0: all); a longer
				  * scenario is sampled evenly */
	int baselines;           /* also measure the searches of baseline.h */
};

void twz_bench_options_default(struct twz_bench_options *opt);

struct twz_bench_result {
	/* The database. */
	uint32_t nodes;
	uint32_t regions;
	uint64_t runs;
	uint64_t file_bytes;
	uint64_t memory_bytes;     /* section bytes in use after open */
	double bits_per_pair;      /* memory_bytes * 8 / nodes^2 */
	unsigned codec;            /* TWZ_CODEC_* the file was built with */
	double open_us;            /* twz_open + twz_close, checksums checked */
	double open_trusted_us;    /* the same with TWZ_OPEN_SKIP_CHECKSUMS */
	int has_ref;               /* rows to binary-search; else ref_* are 0 */

	/* First move over random independent pairs of one region. */
	uint64_t pairs;
	double next_ns;            /* twz_next */
	double ref_next_ns;        /* binary search over the runs */

	/* Whole paths: the scenario's pairs, else random pairs. */
	int from_scenario;
	uint64_t paths;            /* reachable pairs walked */
	uint64_t steps;            /* moves over all of them */
	double step_ns;            /* twz_next, each waiting for the last */
	double ref_step_ns;
	double astar_step_ns;      /* A* time per move of the paths */
	double path_us;            /* twz_path, per path */
	double ref_path_us;
	double astar_path_us;      /* one A* search, per path */
	double lag_ns;             /* cells -> nodes -> first move */
	double ref_lag_ns;
	double astar_lag_us;       /* A* finds the whole path first */
	double astar_expanded;     /* nodes A* closes per path */
	uint64_t astar_checked;    /* A* answers equal to the database's */

	/* The online searches on the same path queries (--baselines). */
	int has_baselines;
	struct twz_baseline_figures baseline[TWZ_BASELINE_COUNT];
};

/* Load a scenario for db and check it fits the database's grid. 0 on
 * success. */
int twz_bench_load_scen(const twz_db *db, const char *path,
			struct twz_scen *sc, struct twz_error *err);

/* Measure db, opened from dbpath (opened again to time the open); sc (may
 * be NULL) gives the path pairs and must fit the grid. 0 on success; -1
 * with err set: of kind TWZ_ERR_INPUT when an answer is wrong (A* and the
 * database differ, the reference walk fails, with opt->baselines an
 * optimal search differs or any search beats the database),
 * TWZ_ERR_NOMEM else. */
int twz_bench_run(const twz_db *db, const char *dbpath,
		  const struct twz_scen *sc,
		  const struct twz_bench_options *opt,
		  struct twz_bench_result *r, struct twz_error *err);

/* Open time in microseconds (best of several), flags as twz_open; a
 * negative value when the database does not open. */
double twz_bench_open_us(const char *dbpath, unsigned flags);

/* Print r as aligned text, or as one JSON object on one line. */
void twz_bench_print(FILE *f, const char *dbpath,
		     const struct twz_bench_result *r, int json);

/* r's JSON members, without the braces, for a caller's own object. */
void twz_bench_json_fields(FILE *f, const struct twz_bench_result *r);

/* s as a JSON string, quotes included. */
void twz_bench_json_string(FILE *f, const char *s);

#endif
