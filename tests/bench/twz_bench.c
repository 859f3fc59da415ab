/*
 * twz_bench.c - the benchmark anyone can rerun (`ninja -C BUILD bench`):
 * bakes the Moving AI dev levels with both codecs, each bake in a forked
 * child so its wall time and peak memory are its own, then measures every
 * database in this process with `twigz bench`'s code: sizes, open times,
 * first moves, path steps, whole paths and first-move lag, against SRC's
 * binary search over the same runs and an online A* on the same queries.
 *
 *   twz_bench --data DIR [--out DIR] [--levels a,b,...] [--big]
 *             [--threads N] [--json FILE] [--no-transit] [--transit-big]
 *
 * Each level is also baked with --method transit (transit_bench.c);
 * --transit-big adds a generated 1024 x 1024 rooms level, TRANSIT only.
 * --baselines also runs the online searches of baseline_bench.h (Dijkstra,
 * A*, JPS, ...) on each level's scenario and prints their tables.
 *
 * Prints Markdown tables to stdout; --json writes one object per level.
 * Never asserts a timing: the figures depend on the machine and its load.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bake.h"
#include "bench_support.h"
#include "cmd_bench.h"
#include "level_map.h"
#include "transit_bench.h"
#include "twigz.h"

/*
 * The dev levels, with the reference figures of docs/benchmarks.md for them (SRC
 * and Hsymbol measured on this kind of machine): SRC's bake seconds, file
 * bytes and path step, Hsymbol's file bytes (0: not measured).
 */
struct level {
	const char *name;
	const char *map;          /* under the data directory */
	int big;                  /* only with --big */
	double src_bake_s;
	double src_bytes;
	double src_step_ns;
	double src_first_ns;
	double hsymbol_bytes;
};

static const struct level levels[] = {
	{ "arena", "dao/arena.map", 0, 0.19, 454e3, 31, 15, 74e3 },
	{ "ht_chantry_n", "da2/ht_chantry_n.map", 0, 1.96, 1.20e6, 32, 17, 0.44e6 },
	{ "ost003d", "dao/ost003d.map", 0, 6.0, 2.62e6, 35, 25, 0.78e6 },
	{ "den011d", "dao/den011d.map", 0, 7.5, 2.32e6, 31, 20, 0.80e6 },
	{ "arena2", "dao/arena2.map", 0, 47, 9.27e6, 63, 50, 4.15e6 },
	{ "Berlin_0_256", "street/Berlin_0_256.map", 0, 96, 23.3e6, 128, 65, 0 },
	{ "AR0011SR", "bg512/AR0011SR.map", 1, 834, 88.7e6, 238, 136, 0 },
};
#define LEVEL_COUNT (sizeof levels / sizeof *levels)

static const unsigned codecs[2] = { TWZ_CODEC_ZSTD, TWZ_CODEC_RAW };
static const char *const codec_names[2] = { "zstd", "raw" };

struct bake_figures {
	double wall_s;            /* fork to reaped, the whole `twigz build` */
	double peak_bytes;        /* the child's ru_maxrss */
	uint64_t file_bytes;
};

struct level_figures {
	const struct level *lv;
	char db[2][4096];         /* by codec */
	struct bake_figures bake[2];
	double raw_open_us;
	double raw_open_trusted_us;
	struct twz_bench_result r;
	char tdb[4096];           /* the TRANSIT bake (zstd) */
	struct bake_figures tbake;
	struct twz_bench_result tr;
};

/* Bake children run `--method transit` instead while this is set. */
static int bake_transit;

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* In the child: what `twigz build LEVEL -o OUT --codec C` does. */
static int bake_child(const char *map, const char *out, unsigned codec,
		      unsigned threads)
{
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	struct twz_grid grid;
	struct twz_cpd cpd;

	if (bake_transit)
		return twz_transit_bench_bake(map, out, threads);
	twz_bake_options_default(&opt);
	opt.codec = codec;
	opt.threads = threads;
	opt.name = map;
	if (twz_grid_load(map, &grid, &err) != 0 ||
	    twz_bake_cpd(&grid, &opt, &cpd, &err) != 0) {
		fprintf(stderr, "twz_bench: %s\n", err.msg);
		return 1;
	}
	int rc = twz_cpd_write(&cpd, &grid, &opt, out, &err);
	if (rc != 0)
		fprintf(stderr, "twz_bench: %s\n", err.msg);
	twz_cpd_free(&cpd);
	twz_grid_free(&grid);
	return rc ? 1 : 0;
}

static int bake(const char *map, const char *out, unsigned codec,
		unsigned threads, struct bake_figures *f)
{
	struct rusage ru;
	struct stat sb;
	int status;

	fflush(NULL);
	double t0 = now_seconds();
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "twz_bench: fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0)
		_exit(bake_child(map, out, codec, threads));
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "twz_bench: wait4: %s\n", strerror(errno));
			return -1;
		}
	}
	f->wall_s = now_seconds() - t0;
	f->peak_bytes = ru.ru_maxrss * 1024.0;   /* Linux: kilobytes */
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "twz_bench: %s: the bake failed\n", map);
		return -1;
	}
	if (stat(out, &sb) != 0) {
		fprintf(stderr, "twz_bench: %s: %s\n", out, strerror(errno));
		return -1;
	}
	f->file_bytes = (uint64_t)sb.st_size;
	return 0;
}

static int measure(struct level_figures *lf, const char *map)
{
	if (bench_measure(lf->db[0], map, 1, &lf->r) != 0)
		return -1;
	lf->raw_open_us = twz_bench_open_us(lf->db[1], 0);
	lf->raw_open_trusted_us = twz_bench_open_us(lf->db[1],
						    TWZ_OPEN_SKIP_CHECKSUMS);
	if (lf->raw_open_us < 0) {
		fprintf(stderr, "twz_bench: %s: does not open\n", lf->db[1]);
		return -1;
	}
	return 0;
}

/* ---- output ------------------------------------------------------------- */

static void print_us(double us)
{
	if (us >= 1000)
		printf("%.1f ms", us / 1000);
	else
		printf("%.0f us", us);
}

static double ratio(double reference, double ours)
{
	return ours > 0 ? reference / ours : 0;
}

static void print_tables(const struct level_figures *lf, unsigned n,
			 unsigned threads)
{
	printf("### Size and bake\n\n");
	printf("Bake: wall time and peak memory of the whole `twigz build` "
	       "(zstd, %u thread%s), node pairs baked per second. "
	       "SRC and Hsymbol sizes are the reference figures of docs/benchmarks.md.\n\n",
	       threads, threads == 1 ? "" : "s");
	printf("| level (nodes) | bake | M pairs/s | peak memory | zstd file "
	       "| raw file | in memory | bits/pair | SRC / zstd file "
	       "| Hsymbol / zstd file | SRC / in memory | open zstd | open raw "
	       "| open raw, no checksums |\n");
	printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
	       "| ---: | ---: | ---: | ---: | ---: |\n");
	for (unsigned i = 0; i < n; i++) {
		const struct level_figures *f = &lf[i];
		const struct bake_figures *z = &f->bake[0];
		double pairs = (double)f->r.nodes * f->r.nodes;
		printf("| %s (%u) | %.2f s | %.1f | ", f->lv->name, f->r.nodes,
		       z->wall_s, pairs / z->wall_s / 1e6);
		bench_print_bytes(z->peak_bytes);
		printf(" (%.0fx raw file) | ",
		       z->peak_bytes / (double)f->bake[1].file_bytes);
		bench_print_bytes((double)z->file_bytes);
		printf(" | ");
		bench_print_bytes((double)f->bake[1].file_bytes);
		printf(" | ");
		bench_print_bytes((double)f->r.memory_bytes);
		printf(" | %.3f | %.1fx | ", f->r.bits_per_pair,
		       ratio(f->lv->src_bytes, (double)z->file_bytes));
		if (f->lv->hsymbol_bytes > 0)
			printf("%.2fx", ratio(f->lv->hsymbol_bytes, (double)z->file_bytes));
		else
			printf("-");
		printf(" | %.1fx | ", ratio(f->lv->src_bytes,
					    (double)f->r.memory_bytes));
		print_us(f->r.open_us);
		printf(" | ");
		print_us(f->raw_open_us);
		printf(" | %.0f us |\n", f->raw_open_trusted_us);
	}

	printf("\n### Queries\n\n");
	printf("Same process, same queries. First move: %" PRIu64 " random "
	       "pairs of one region. Per step and whole path: the scenario's "
	       "paths walked move by move, each lookup waiting for the last. "
	       "Lag: cells in, first move out. Binary search: SRC's lookup over "
	       "the same runs; A*: octile heuristic, binary heap, every cost "
	       "checked against the database's.\n\n",
	       n ? lf[0].r.pairs : 0);
	printf("| level | first move | binary search | x | SRC first move "
	       "| x | per step | binary search | x | SRC step "
	       "| x | whole path | A* | x | lag | A* lag |\n");
	printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
	       "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (unsigned i = 0; i < n; i++) {
		const struct twz_bench_result *r = &lf[i].r;
		printf("| %s | %.1f ns | %.1f ns | %.2fx | %.0f ns | %.2fx | %.1f ns "
		       "| %.1f ns | %.2fx | %.0f ns | %.2fx | %.2f us | %.1f us "
		       "| %.0fx | %.1f ns | %.1f us |\n",
		       lf[i].lv->name, r->next_ns, r->ref_next_ns,
		       ratio(r->ref_next_ns, r->next_ns), lf[i].lv->src_first_ns,
		       ratio(lf[i].lv->src_first_ns, r->next_ns), r->step_ns,
		       r->ref_step_ns, ratio(r->ref_step_ns, r->step_ns),
		       lf[i].lv->src_step_ns,
		       ratio(lf[i].lv->src_step_ns, r->step_ns), r->path_us,
		       r->astar_path_us, ratio(r->astar_path_us, r->path_us),
		       r->lag_ns, r->astar_lag_us);
	}
}

static int write_json(const char *path, const struct level_figures *lf,
		      unsigned n)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "twz_bench: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "{\"level\":");
		twz_bench_json_string(f, lf[i].lv->name);
		for (unsigned c = 0; c < 2; c++) {
			const struct bake_figures *b = &lf[i].bake[c];
			fprintf(f, ",\"bake_%s_s\":%.3f,\"bake_%s_peak_bytes\":%.0f"
				",\"%s_file_bytes\":%" PRIu64,
				codec_names[c], b->wall_s, codec_names[c],
				b->peak_bytes, codec_names[c], b->file_bytes);
		}
		fprintf(f, ",\"raw_open_us\":%.2f,\"raw_open_trusted_us\":%.2f,",
			lf[i].raw_open_us, lf[i].raw_open_trusted_us);
		twz_bench_json_fields(f, &lf[i].r);
		fprintf(f, "}\n");
	}
	if (fclose(f) != 0) {
		fprintf(stderr, "twz_bench: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- main ---------------------------------------------------------------- */

static int usage(const char *why)
{
	fprintf(stderr, "twz_bench: %s\n"
		"usage: twz_bench --data DIR [--out DIR] [--levels a,b,...] [--big]\n"
		"                 [--threads N] [--json FILE] [--no-transit] [--transit-big]\n"
		"                 [--baselines]\n",
		why);
	return 2;
}

/* Whether name is one of the comma-separated list. */
static int listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = list; *p; ) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n == len && !strncmp(p, name, n))
			return 1;
		p += n + (end ? 1 : 0);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *data = getenv("TWZ_MOVINGAI_DIR"), *out = "bench-out";
	const char *only = NULL, *json = NULL;
	unsigned threads = 0;
	int big = 0, transit = 1, transit_big = 0, baselines = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--big")) {
			big = 1;
		} else if (!strcmp(a, "--no-transit")) {
			transit = 0;
		} else if (!strcmp(a, "--transit-big")) {
			transit_big = 1;
		} else if (!strcmp(a, "--baselines")) {
			baselines = 1;
		} else if (!strcmp(a, "--data") && val) {
			data = val;
			i++;
		} else if (!strcmp(a, "--out") && val) {
			out = val;
			i++;
		} else if (!strcmp(a, "--levels") && val) {
			only = val;
			i++;
		} else if (!strcmp(a, "--json") && val) {
			json = val;
			i++;
		} else if (!strcmp(a, "--threads") && val) {
			char *end;
			long v = strtol(val, &end, 10);
			if (*end || v < 1 || v > 1024)
				return usage("--threads needs a number from 1 to 1024");
			threads = (unsigned)v;
			i++;
		} else {
			return usage("bad argument");
		}
	}
	if (!data)
		return usage("--data DIR (the Moving AI levels) is needed");
	if (mkdir(out, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "twz_bench: %s: %s\n", out, strerror(errno));
		return 1;
	}
	if (!threads) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		threads = n > 0 ? (unsigned)n : 1;
	}

	struct level_figures lf[LEVEL_COUNT];
	char maps[LEVEL_COUNT][4096];
	unsigned n = 0;
	memset(lf, 0, sizeof lf);
	for (unsigned i = 0; i < LEVEL_COUNT; i++) {
		if (only ? !listed(only, levels[i].name) : levels[i].big && !big)
			continue;
		lf[n].lv = &levels[i];
		snprintf(maps[n], sizeof maps[n], "%s/%s", data, levels[i].map);
		if (access(maps[n], R_OK) != 0) {
			fprintf(stderr, "twz_bench: %s: %s (is --data the Moving AI directory?)\n",
				maps[n], strerror(errno));
			return 1;
		}
		for (unsigned c = 0; c < 2; c++)
			snprintf(lf[n].db[c], sizeof lf[n].db[c], "%s/%s.%s.twz", out,
				 levels[i].name, codec_names[c]);
		snprintf(lf[n].tdb, sizeof lf[n].tdb, "%s/%s.transit.twz", out,
			 levels[i].name);
		n++;
	}
	if (!n)
		return usage("no level selected");

	/* All bakes first, while this process is small: a forked child's peak
	 * memory counts the parent's pages it starts with. */
	for (unsigned i = 0; i < n; i++) {
		for (unsigned c = 0; c < 2; c++) {
			fprintf(stderr, "twz_bench: baking %s (%s)...\n",
				lf[i].lv->name, codec_names[c]);
			if (bake(maps[i], lf[i].db[c], codecs[c], threads,
				 &lf[i].bake[c]) != 0)
				return 1;
		}
	}
	/* TRANSIT: the same levels, then the generated one. */
	char big_map[4200], big_db[4200];
	struct bake_figures big_bake;
	struct twz_bench_result big_r;
	bake_transit = 1;
	for (unsigned i = 0; transit && i < n; i++) {
		fprintf(stderr, "twz_bench: baking %s (transit)...\n", lf[i].lv->name);
		if (bake(maps[i], lf[i].tdb, TWZ_CODEC_ZSTD, threads, &lf[i].tbake) != 0)
			return 1;
	}
	if (transit_big) {
		snprintf(big_map, sizeof big_map, "%.4000s/rooms1024.map", out);
		snprintf(big_db, sizeof big_db, "%.4000s/rooms1024.transit.twz", out);
		fprintf(stderr, "twz_bench: baking rooms1024 (transit)...\n");
		if (twz_transit_bench_generate(big_map, 1024, 1) != 0 ||
		    bake(big_map, big_db, TWZ_CODEC_ZSTD, threads, &big_bake) != 0)
			return 1;
	}
	bake_transit = 0;
	for (unsigned i = 0; i < n; i++) {
		fprintf(stderr, "twz_bench: measuring %s...\n", lf[i].lv->name);
		bench_baselines = baselines;
		int failed = measure(&lf[i], maps[i]) != 0;
		bench_baselines = 0;
		if (failed ||
		    (transit && twz_transit_bench_measure(lf[i].tdb, maps[i],
							  &lf[i].tr) != 0))
			return 1;
	}
	if (transit_big && twz_transit_bench_measure(big_db, big_map, &big_r) != 0)
		return 1;

	printf("Command: `");
	for (int i = 0; i < argc; i++)
		printf(i ? " %s" : "%s", i ? argv[i] : "twz_bench");
	printf("`\n\n");
	print_tables(lf, n, threads);
	if (transit || transit_big) {
		struct twz_transit_bench_row rows[LEVEL_COUNT + 1];
		unsigned k = 0;
		for (unsigned i = 0; transit && i < n; i++)
			rows[k++] = (struct twz_transit_bench_row){
				lf[i].lv->name, lf[i].tbake.wall_s, lf[i].tbake.peak_bytes,
				lf[i].tbake.file_bytes, &lf[i].tr, lf[i].bake[0].wall_s,
				lf[i].bake[0].file_bytes, &lf[i].r };
		if (transit_big)
			rows[k++] = (struct twz_transit_bench_row){
				"rooms1024 (generated)", big_bake.wall_s,
				big_bake.peak_bytes, big_bake.file_bytes, &big_r, 0, 0,
				NULL };
		twz_transit_bench_print(rows, k, threads);
	}
	for (unsigned i = 0; i < n; i++) {
		if (!lf[i].r.has_baselines)
			continue;
		printf("\nOnline searches on %s (%" PRIu64 " scenario paths):\n\n```\n",
		       lf[i].lv->name, lf[i].r.paths);
		twz_baseline_print(stdout, lf[i].r.baseline, lf[i].r.path_us,
				   lf[i].r.lag_ns);
		printf("```\n");
	}
	if (json && write_json(json, lf, n) != 0)
		return 1;
	return 0;
}
