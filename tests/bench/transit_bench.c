/*
 * transit_bench.c - the TRANSIT rows of the benchmark (transit_bench.h).
 */
#include "transit_bench.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_support.h"
#include "level_map.h"
#include "twz_rng.h"
#include "transit.h"
#include "twigz.h"

int twz_transit_bench_bake(const char *map, const char *out, unsigned threads)
{
	struct twz_bake_options opt;
	struct twz_transit_options topt = { 0, 0, 0 };
	struct twz_error err = { { 0 }, 0 };
	struct twz_grid grid;
	struct twz_transit_db db;

	twz_bake_options_default(&opt);
	opt.threads = threads;
	opt.name = map;
	opt.transit_far = TWZ_TRANSIT_ACCESS;     /* as twigz build */
	if (twz_grid_load(map, &grid, &err) != 0 ||
	    twz_bake_transit(&grid, &opt, &topt, &db, &err) != 0) {
		fprintf(stderr, "twz_bench: %s\n", err.msg);
		return 1;
	}
	int rc = twz_transit_write(&db, &grid, &opt, out, &err);
	if (rc != 0)
		fprintf(stderr, "twz_bench: %s\n", err.msg);
	twz_transit_db_free(&db);
	twz_grid_free(&grid);
	return rc ? 1 : 0;
}

/* ---- the generated level ----------------------------------------------- */

/* Recursive division of [x0, x1) x [y0, y1) (all open): a wall across the
 * longer side with one or two doors, until rooms are about 24 to 48
 * cells. */
static void divide(uint8_t *g, uint32_t side, uint32_t x0, uint32_t y0,
		   uint32_t x1, uint32_t y1, uint64_t *rng)
{
	uint32_t w = x1 - x0, h = y1 - y0;

	if ((w < 48 && h < 48) || (w < 24 || h < 24))
		return;
	int vertical = w > h || (w == h && rng_below(rng, 2));
	uint32_t len = vertical ? w : h, across = vertical ? h : w;
	uint32_t at = len / 3 + rng_below(rng, len / 3);   /* the wall line */
	unsigned doors = 1 + rng_below(rng, 2);
	uint32_t door[2], dw[2];

	for (unsigned d = 0; d < doors; d++) {
		dw[d] = 1 + rng_below(rng, 4);
		door[d] = rng_below(rng, across - dw[d]);
	}
	for (uint32_t k = 0; k < across; k++) {
		int open = 0;
		for (unsigned d = 0; d < doors; d++)
			open |= k >= door[d] && k < door[d] + dw[d];
		if (open)
			continue;
		uint32_t x = vertical ? x0 + at : x0 + k;
		uint32_t y = vertical ? y0 + k : y0 + at;
		g[(size_t)y * side + x] = 0;
	}
	if (vertical) {
		divide(g, side, x0, y0, x0 + at, y1, rng);
		divide(g, side, x0 + at + 1, y0, x1, y1, rng);
	} else {
		divide(g, side, x0, y0, x1, y0 + at, rng);
		divide(g, side, x0, y0 + at + 1, x1, y1, rng);
	}
}

int twz_transit_bench_generate(const char *path, uint32_t side, uint64_t seed)
{
	uint8_t *g = malloc((size_t)side * side);
	uint64_t rng = seed;
	FILE *f;

	if (!g) {
		fprintf(stderr, "twz_bench: out of memory for a %u x %u level\n", side, side);
		return -1;
	}
	memset(g, 1, (size_t)side * side);
	divide(g, side, 0, 0, side, side, &rng);
	/* Pillars: one cell in 40, breaking the rooms' symmetry. */
	for (size_t i = 0; i < (size_t)side * side / 40; i++)
		g[rng_below(&rng, side * side)] = 0;
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		free(g);
		return -1;
	}
	fprintf(f, "type octile\nheight %u\nwidth %u\nmap\n", side, side);
	char *row = malloc(side + 1);
	for (uint32_t y = 0; row && y < side; y++) {
		for (uint32_t x = 0; x < side; x++)
			row[x] = g[(size_t)y * side + x] ? '.' : '@';
		row[side] = '\n';
		fwrite(row, 1, side + 1, f);
	}
	int rc = row && !ferror(f) ? 0 : -1;
	if (fclose(f) != 0)
		rc = -1;
	if (rc)
		fprintf(stderr, "twz_bench: %s: cannot write\n", path);
	free(row);
	free(g);
	return rc;
}

int twz_transit_bench_measure(const char *dbpath, const char *map,
			      struct twz_bench_result *r)
{
	return bench_measure(dbpath, map, 0, r);
}

/* ---- the table ----------------------------------------------------------- */

static void print_ratio(double reference, double ours)
{
	if (reference > 0 && ours > 0)
		printf("%.2fx", reference / ours);
	else
		printf("-");
}

void twz_transit_bench_print(const struct twz_transit_bench_row *rows,
			     unsigned n, unsigned threads)
{
	printf("\n### TRANSIT\n\n");
	printf("`--method transit` with its default options (zstd, %u thread%s), "
	       "against the CPD of the same level (the tables above) and A*. "
	       "\"x\" columns: the CPD's figure over TRANSIT's (above 1, TRANSIT "
	       "is smaller or faster). First move: random pairs (far pairs "
	       "scan two transit lists); whole path: the scenario's paths, "
	       "walked in chunks by twz_path.\n\n",
	       threads, threads == 1 ? "" : "s");
	printf("| level (nodes) | bake | x | peak memory | zstd file | x "
	       "| in memory | x | first move | CPD | whole path | CPD | x "
	       "| A* | A* / TRANSIT |\n");
	printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
	       "| ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (unsigned i = 0; i < n; i++) {
		const struct twz_transit_bench_row *w = &rows[i];
		const struct twz_bench_result *c = w->cpd;
		printf("| %s (%u) | %.2f s | ", w->name, w->r->nodes, w->bake_s);
		print_ratio(w->cpd_bake_s, w->bake_s);
		printf(" | ");
		bench_print_bytes(w->peak_bytes);
		printf(" | ");
		bench_print_bytes((double)w->file_bytes);
		printf(" | ");
		print_ratio((double)w->cpd_file_bytes, (double)w->file_bytes);
		printf(" | ");
		bench_print_bytes((double)w->r->memory_bytes);
		printf(" | ");
		print_ratio(c ? (double)c->memory_bytes : 0, (double)w->r->memory_bytes);
		printf(" | %.1f ns | ", w->r->next_ns);
		if (c)
			printf("%.1f ns", c->next_ns);
		else
			printf("-");
		printf(" | %.2f us | ", w->r->path_us);
		if (c)
			printf("%.2f us", c->path_us);
		else
			printf("-");
		printf(" | ");
		print_ratio(c ? c->path_us : 0, w->r->path_us);
		printf(" | %.1f us | ", w->r->astar_path_us);
		print_ratio(w->r->astar_path_us, w->r->path_us);
		printf(" |\n");
	}
}
