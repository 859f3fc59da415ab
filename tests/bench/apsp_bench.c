/*
 * apsp_bench.c - what the dense all-pairs solvers cost against the
 * per-source search (`ninja -C BUILD bench-apsp`):
 *
 *   apsp_bench [--threads N] [--sizes N,N,...] [--max-squaring N]
 *              LEVEL.map ...
 *
 * For each level and each size (default 256, 1024, 2048, 4096 nodes),
 * the largest square cut-out around the level's centre with at most that
 * many walkable cells (the whole level when it is smaller), baked in
 * memory as CPD with --apsp dijkstra, floyd and squaring, one after the
 * other in this process. Every dense bake must give the dijkstra bake's
 * bytes, else the run fails. Squaring is skipped above --max-squaring
 * nodes (default 2048: it makes about log2 N products of N^3).
 *
 * Prints a Markdown table: seconds of each bake (graph, distances and
 * rows; not the writing; the best of up to three runs when they are
 * short) and its ratio to dijkstra, and which is fastest.
 * Never asserts a timing: the figures depend on the machine and its load.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apsp_dense.h"
#include "bake.h"
#include "level_map.h"
#include "twz_format.h"

static uint64_t walkable_in(const struct twz_grid *g, uint32_t x0, uint32_t y0,
			    uint32_t side)
{
	uint64_t n = 0;

	for (uint32_t y = y0; y < y0 + side && y < g->height; y++)
		for (uint32_t x = x0; x < x0 + side && x < g->width; x++)
			n += g->walkable[(size_t)y * g->width + x] != 0;
	return n;
}

/* The largest square around the centre with at most target walkable
 * cells, into out; its node count returned. */
static uint64_t cut_out(const struct twz_grid *g, uint64_t target,
			struct twz_grid *out)
{
	uint32_t big = g->width > g->height ? g->width : g->height;
	uint32_t best = 1;

	for (uint32_t side = 1; side <= big; side++) {
		uint32_t x0 = g->width > side ? (g->width - side) / 2 : 0;
		uint32_t y0 = g->height > side ? (g->height - side) / 2 : 0;
		if (walkable_in(g, x0, y0, side) > target)
			break;
		best = side;
	}
	uint32_t x0 = g->width > best ? (g->width - best) / 2 : 0;
	uint32_t y0 = g->height > best ? (g->height - best) / 2 : 0;
	uint32_t w = best < g->width ? best : g->width;
	uint32_t h = best < g->height ? best : g->height;
	memset(out, 0, sizeof *out);
	out->width = w;
	out->height = h;
	out->walkable = malloc((size_t)w * h);
	if (!out->walkable) {
		fprintf(stderr, "apsp_bench: out of memory\n");
		exit(1);
	}
	for (uint32_t y = 0; y < h; y++)
		memcpy(out->walkable + (size_t)y * w,
		       g->walkable + (size_t)(y0 + y) * g->width + x0, w);
	out->level_hash = g->level_hash;
	return walkable_in(g, x0, y0, best);
}

/* One bake: its seconds, and its file (raw sections) into *buf. */
static double bake(const struct twz_grid *g, unsigned solver, unsigned threads,
		   const char *name, uint8_t **buf, size_t *len)
{
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	struct twz_cpd cpd;

	twz_bake_options_default(&opt);
	opt.threads = threads;
	opt.codec = TWZ_CODEC_RAW;
	opt.apsp = solver;
	opt.name = name;
	/* The best of up to three runs (while they take under a second in
	 * all): the least disturbed by other work on the machine. */
	double t = 0, spent = 0;
	for (int rep = 0; rep < 3 && spent < 1.0; rep++) {
		if (rep)
			twz_cpd_free(&cpd);
		double t0 = twz_now_seconds();
		if (twz_bake_cpd(g, &opt, &cpd, &err) != 0) {
			fprintf(stderr, "apsp_bench: %s\n", err.msg);
			exit(1);
		}
		double dt = twz_now_seconds() - t0;
		t = rep == 0 || dt < t ? dt : t;
		spent += dt;
	}
	if (twz_cpd_encode(&cpd, g, &opt, buf, len, &err) != 0) {
		fprintf(stderr, "apsp_bench: %s\n", err.msg);
		exit(1);
	}
	twz_cpd_free(&cpd);
	return t;
}

int main(int argc, char **argv)
{
	uint64_t sizes[16] = { 256, 1024, 2048, 4096 };
	unsigned nsizes = 4, threads = 0;
	uint64_t max_squaring = 2048;
	int first = 1;

	for (; first < argc && argv[first][0] == '-'; first++) {
		if (first + 1 >= argc)
			break;
		if (!strcmp(argv[first], "--threads")) {
			threads = (unsigned)strtoul(argv[++first], NULL, 10);
		} else if (!strcmp(argv[first], "--max-squaring")) {
			max_squaring = strtoull(argv[++first], NULL, 10);
		} else if (!strcmp(argv[first], "--sizes")) {
			char *p = argv[++first];
			nsizes = 0;
			while (*p && nsizes < 16) {
				sizes[nsizes++] = strtoull(p, &p, 10);
				if (*p == ',')
					p++;
			}
		} else {
			break;
		}
	}
	if (first >= argc) {
		fprintf(stderr, "usage: apsp_bench [--threads N] [--sizes N,N,...] "
			"[--max-squaring N] LEVEL.map ...\n");
		return 2;
	}
	printf("| level | nodes | regions | dijkstra s | floyd s (x) | squaring s (x) | fastest |\n");
	printf("|---|---:|---:|---:|---:|---:|---|\n");
	int failed = 0;
	for (int a = first; a < argc; a++) {
		struct twz_error err = { { 0 }, 0 };
		struct twz_grid g;
		uint64_t last = 0;
		const char *base = strrchr(argv[a], '/');

		base = base ? base + 1 : argv[a];
		if (twz_grid_load(argv[a], &g, &err) != 0) {
			fprintf(stderr, "apsp_bench: %s\n", err.msg);
			return 1;
		}
		for (unsigned k = 0; k < nsizes; k++) {
			struct twz_grid w;
			uint64_t nodes = cut_out(&g, sizes[k], &w);
			if (nodes == last || nodes > TWZ_APSP_MAX_NODES) {
				twz_grid_free(&w);
				continue;  /* the same cut-out again */
			}
			last = nodes;
			struct twz_graph gr;
			uint32_t regions = 0;
			if (twz_graph_build(&w, 8, &gr, &err) == 0) {
				regions = gr.component_count;
				twz_graph_free(&gr);
			}
			uint8_t *ref, *buf;
			size_t ref_len, len;
			double s[3] = { 0 };
			s[0] = bake(&w, TWZ_APSP_DIJKSTRA, threads, base, &ref, &ref_len);
			int fastest = 0;
			for (unsigned solver = TWZ_APSP_FLOYD; solver <= TWZ_APSP_SQUARING;
			     solver++) {
				if (solver == TWZ_APSP_SQUARING && nodes > max_squaring)
					continue;
				s[solver] = bake(&w, solver, threads, base, &buf, &len);
				if (len != ref_len || memcmp(buf, ref, len) != 0) {
					fprintf(stderr, "apsp_bench: %s (%llu nodes): --apsp %s "
						"differs from dijkstra\n", base,
						(unsigned long long)nodes,
						twz_apsp_solver_name(solver));
					failed = 1;
				}
				free(buf);
				if (s[solver] < s[fastest])
					fastest = (int)solver;
			}
			free(ref);
			printf("| %s | %llu | %u | %.3f | %.3f (%.1fx) |", base,
			       (unsigned long long)nodes, regions, s[0], s[1], s[1] / s[0]);
			if (s[2] > 0)
				printf(" %.3f (%.1fx) |", s[2], s[2] / s[0]);
			else
				printf(" skipped |");
			printf(" %s |\n", twz_apsp_solver_name((unsigned)fastest));
			fflush(stdout);
			twz_grid_free(&w);
		}
		twz_grid_free(&g);
	}
	return failed;
}
