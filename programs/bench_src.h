/*
 * bench_src.h - SRC's published figures (the GPPC-2014 CPD), for the
 * levels they were measured on, so `twigz bench` can set its own
 * figures beside them (docs/benchmarks.md).
 */
#ifndef BENCH_SRC_H
#define BENCH_SRC_H

#include <stdint.h>
#include <stdio.h>

struct twz_src_figures {
	const char *level;
	uint32_t nodes;
	double bake_s;          /* SRC's bake, wall seconds */
	double file_mb;         /* its file (what it holds in memory), MB */
	double first_move_ns;
	double step_ns;
	double path_us;
};

/* The figures of the level with this many nodes, or NULL. */
const struct twz_src_figures *twz_src_figures_for(uint32_t nodes);

/* One line a figure: SRC's and its ratio to ours (above 1: twigz is
 * faster or smaller). A figure ours is 0 for is left out. */
void twz_src_print(FILE *f, const struct twz_src_figures *s,
		   double first_move_ns, double step_ns, double path_us,
		   uint64_t file_bytes, uint64_t memory_bytes);

#endif
