/*
 * bench_src.c - SRC's published figures: Strasser, Botea and Harabor,
 * "Compressing Optimal Paths with Run Length Encoding", JAIR 54, 2015,
 * the GPPC-2014 winning CPD (DFS order, binary search over run-length
 * rows), built from its public code and run on a 2-core machine of the
 * kind the figures of docs/benchmarks.md come from. A level is known by its node
 * count, which names each of these levels alone.
 */
#include "bench_src.h"

static const struct twz_src_figures known[] = {
	{ "arena", 2054, 0.19, 0.454, 15, 31, 0.8 },
	{ "ht_chantry_n", 7408, 1.96, 1.20, 17, 32, 2.8 },
	{ "ost003d", 13214, 6.0, 2.62, 25, 35, 4.9 },
	{ "den011d", 14506, 7.5, 2.32, 20, 31, 4.5 },
	{ "arena2", 24311, 47, 9.27, 50, 63, 10.3 },
	{ "Berlin_0_256", 48147, 96, 23.3, 65, 128, 19.7 },
	{ "AR0011SR", 120458, 834, 88.7, 136, 238, 71 },
};

const struct twz_src_figures *twz_src_figures_for(uint32_t nodes)
{
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (known[i].nodes == nodes)
			return &known[i];
	return NULL;
}

static double ratio(double theirs, double ours)
{
	return ours > 0 ? theirs / ours : 0;
}

void twz_src_print(FILE *f, const struct twz_src_figures *s,
		   double first_move_ns, double step_ns, double path_us,
		   uint64_t file_bytes, uint64_t memory_bytes)
{
	double bytes = s->file_mb * 1e6;

	fprintf(f, "SRC            published figures for %s (another machine; "
		"(Nx): SRC's over twigz's)\n", s->level);
	if (first_move_ns > 0)
		fprintf(f, "  first move   %.0f ns (%.2fx)\n", s->first_move_ns,
			ratio(s->first_move_ns, first_move_ns));
	if (step_ns > 0)
		fprintf(f, "  per step     %.0f ns (%.2fx)\n", s->step_ns,
			ratio(s->step_ns, step_ns));
	if (path_us > 0)
		fprintf(f, "  whole path   %.1f us (%.2fx)\n", s->path_us,
			ratio(s->path_us, path_us));
	fprintf(f, "  file         %.2f MB (%.1fx this file)\n", s->file_mb,
		ratio(bytes, (double)file_bytes));
	fprintf(f, "  in memory    %.2f MB (%.1fx)\n", s->file_mb,
		ratio(bytes, (double)memory_bytes));
	fprintf(f, "  bake         %.2f s, %.1f M node pairs/s\n", s->bake_s,
		(double)s->nodes * s->nodes / s->bake_s / 1e6);
}
