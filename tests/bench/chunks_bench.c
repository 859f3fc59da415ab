/*
 * chunks_bench.c - `ninja -C BUILD bench-chunks`, or
 * `chunks_bench DB.twz [PAIRS PATHS]` or `chunks_bench LEVEL.map OUT.twz
 * [CHUNK [PAIRS PATHS [METHOD]]]` (bakes LEVEL with chunks of CHUNK bytes,
 * 64 KiB unless given, first, by METHOD: cpd unless given, transit,
 * transit-1.1 or transit-1.4): a database
 * baked with `twigz build --chunk` opened with cache budgets of 10, 50 and 100
 * percent of what a budget reads on use (twz_open_ex: CPD rows; TRANSIT's
 * local rows, and access entries and table), against the same file
 * inflated at open, in one process. For each: the open time, first moves
 * and whole paths cold (the first pass after open, which inflates what
 * it touches) and warm (the best of two more passes), and the ratio of
 * each to the inflated database's warm figure (the best of three). Every answer is compared with the
 * inflated database's. Random pairs of one region, a fixed seed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bake.h"
#include "transit.h"
#include "twigz.h"
#include "twz_inspect.h"

static double now(void)
{
	struct timespec ts;

	/* CPU time of this thread: on a shared machine the time it waits
	 * for a processor is not the database's. */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct work {
	twz_node *s, *t;           /* pairs, each in one region */
	size_t pairs, paths;
	twz_node *want;            /* the inflated database's first moves */
	size_t *want_len;          /* and path lengths */
	twz_node *buf;
	size_t cap;
};

static volatile uint64_t sink;

/* Seconds a first move, over every pair; mismatches counted. */
static double first_moves(const twz_db *db, const struct work *w,
			  unsigned *bad)
{
	uint64_t acc = 0;
	double t0 = now();

	for (size_t i = 0; i < w->pairs; i++) {
		twz_node n = twz_next(db, w->s[i], w->t[i]);
		acc += n;
		*bad += w->want && n != w->want[i];
	}
	double d = now() - t0;
	sink += acc;
	return d / (double)w->pairs;
}

static double paths(const twz_db *db, const struct work *w, unsigned *bad)
{
	double t0 = now();

	for (size_t i = 0; i < w->paths; i++) {
		size_t len = 0;
		twz_status st = twz_path(db, w->s[i], w->t[i], w->buf, w->cap, &len);
		*bad += st != TWZ_OK || (w->want_len && len != w->want_len[i]);
	}
	return (now() - t0) / (double)w->paths;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: chunks_bench DB.twz [PAIRS PATHS]\n");
		return 2;
	}
	const char *path = argv[1];
	size_t len = strlen(path);
	int arg = 2;
	if (len > 4 && !strcmp(path + len - 4, ".map")) {
		struct twz_grid g;
		struct twz_bake_options opt;
		struct twz_error err = { { 0 }, 0 };
		/* METHOD: cpd, transit (the layout the tool picks), or
		 * transit-1.1 / transit-1.4 (that layout). */
		const char *method = argc > 6 ? argv[6] : "cpd";
		int rc;
		if (argc < 3) {
			fprintf(stderr, "chunks_bench: LEVEL.map needs OUT.twz\n");
			return 2;
		}
		twz_bake_options_default(&opt);
		opt.chunk = argc > 3 ? strtoull(argv[3], NULL, 10) : 65536;
		opt.name = path;
		if (twz_grid_load(path, &g, &err) != 0) {
			fprintf(stderr, "chunks_bench: %s\n", err.msg);
			return 1;
		}
		if (!strncmp(method, "transit", 7)) {
			struct twz_transit_options topt = { 0, 0, 0 };
			struct twz_transit_db tdb;
			opt.transit_far = !strcmp(method, "transit-1.4") ? 1 :
					     !strcmp(method, "transit-1.1") ? 0 : 2;
			rc = twz_bake_transit(&g, &opt, &topt, &tdb, &err);
			if (rc == 0) {
				rc = twz_transit_write(&tdb, &g, &opt, argv[2], &err);
				twz_transit_db_free(&tdb);
			}
		} else {
			struct twz_cpd cpd;
			rc = twz_bake_cpd(&g, &opt, &cpd, &err);
			if (rc == 0) {
				rc = twz_cpd_write(&cpd, &g, &opt, argv[2], &err);
				twz_cpd_free(&cpd);
			}
		}
		twz_grid_free(&g);
		if (rc != 0) {
			fprintf(stderr, "chunks_bench: %s\n", err.msg);
			return 1;
		}
		path = argv[2];
		arg = 4;
	}
	size_t pairs = argc > arg ? strtoul(argv[arg], NULL, 10) : 50000;
	size_t npaths = argc > arg + 1 ? strtoul(argv[arg + 1], NULL, 10) : 1000;
	twz_db *plain;
	double t0 = now();

	if (twz_open(path, 0, &plain) != TWZ_OK) {
		fprintf(stderr, "chunks_bench: %s: cannot open\n", path);
		return 1;
	}
	double open_plain = now() - t0;
	/* What a budget leaves in chunks (CPD rows; TRANSIT's local rows,
	 * and access entries and table): as a cache of one slot sees it. */
	uint64_t rows = 0;
	{
		twz_open_options o;
		struct twz_cache_summary cs;
		twz_db *one;
		memset(&o, 0, sizeof o);
		o.cache_bytes = 1;
		if (twz_open_ex(path, &o, &one) == TWZ_OK) {
			if (twz_inspect_cache(one, &cs) == 0)
				rows = cs.lazy_raw;
			twz_close(one);
		}
	}
	if (!rows) {
		fprintf(stderr, "chunks_bench: %s: nothing read on use (bake it with twigz build --chunk)\n",
			path);
		return 1;
	}
	uint32_t n = twz_node_count(plain);
	struct work w = { 0 };
	w.pairs = pairs;
	w.paths = npaths < pairs ? npaths : pairs;
	w.s = malloc(pairs * sizeof *w.s);
	w.t = malloc(pairs * sizeof *w.t);
	w.want = malloc(pairs * sizeof *w.want);
	w.want_len = malloc(pairs * sizeof *w.want_len);
	w.cap = (size_t)n + 1;
	w.buf = malloc(w.cap * sizeof *w.buf);
	if (!w.s || !w.t || !w.want || !w.want_len || !w.buf)
		return 1;
	for (size_t i = 0; i < pairs;) {
		twz_node s = (twz_node)(next_rand() % n), t = (twz_node)(next_rand() % n);
		if (s == t || twz_next(plain, s, t) == TWZ_NONE)
			continue;
		w.s[i] = s;
		w.t[i] = t;
		w.want[i] = twz_next(plain, s, t);
		size_t len = 0;
		if (i < w.paths)
			twz_path(plain, s, t, w.buf, w.cap, &len);
		w.want_len[i] = len;
		i++;
	}
	unsigned bad = 0;
	twz_info info;
	twz_get_info(plain, &info);
	/* The inflated database warm: the best of three passes. */
	double fm_plain = 1e9, path_plain = 1e9;
	for (int k = 0; k < 3; k++) {
		double a = first_moves(plain, &w, &bad), b = paths(plain, &w, &bad);
		fm_plain = a < fm_plain ? a : fm_plain;
		path_plain = b < path_plain ? b : path_plain;
	}

	printf("%s: %u nodes, %s, sections read on use %.2f MB inflated; %zu pairs, %zu paths; CPU time of one thread\n",
	       path, n, info.method == 2 ? "TRANSIT" : "CPD",
	       rows / 1e6, w.pairs, w.paths);
	printf("| cache | open | first move cold | warm | misses warm | path cold | warm | memory |\n");
	printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
	printf("| inflated at open | %.1f ms | %.0f ns | %.0f ns | | %.1f us | %.1f us | %.1f MB |\n",
	       open_plain * 1e3, fm_plain * 1e9, fm_plain * 1e9, path_plain * 1e6,
	       path_plain * 1e6, info.memory_size / 1e6);
	static const unsigned percent[] = { 10, 50, 100 };
	for (unsigned k = 0; k < 3; k++) {
		twz_open_options o;
		memset(&o, 0, sizeof o);
		o.cache_bytes = rows * percent[k] / 100;
		double cold_fm, warm_fm, cold_path, warm_path, open_s;
		twz_db *db;

		/* First moves, then paths, each from a fresh open. */
		t0 = now();
		if (twz_open_ex(path, &o, &db) != TWZ_OK)
			return 1;
		open_s = now() - t0;
		struct twz_cache_summary cs;
		cold_fm = first_moves(db, &w, &bad);
		twz_inspect_cache(db, &cs);
		uint64_t cold_misses = cs.misses;
		warm_fm = first_moves(db, &w, &bad);
		twz_inspect_cache(db, &cs);
		double warm_miss = (double)(cs.misses - cold_misses) / (double)w.pairs;
		double again = first_moves(db, &w, &bad);
		warm_fm = again < warm_fm ? again : warm_fm;
		twz_get_info(db, &info);
		twz_close(db);
		if (twz_open_ex(path, &o, &db) != TWZ_OK)
			return 1;
		cold_path = paths(db, &w, &bad);
		warm_path = paths(db, &w, &bad);
		again = paths(db, &w, &bad);
		warm_path = again < warm_path ? again : warm_path;
		twz_close(db);
		printf("| %u%% (%.2f MB) | %.1f ms (%.2fx) | %.0f ns (%.2fx) | %.0f ns (%.2fx) | %.1f%% | %.1f us (%.2fx) | %.1f us (%.2fx) | %.2f MB |\n",
		       percent[k], o.cache_bytes / 1e6, open_s * 1e3, open_s / open_plain,
		       cold_fm * 1e9, cold_fm / fm_plain, warm_fm * 1e9,
		       warm_fm / fm_plain, 100 * warm_miss, cold_path * 1e6,
		       cold_path / path_plain,
		       warm_path * 1e6, warm_path / path_plain,
		       info.memory_size / 1e6);
	}
	printf("%s\n", bad ? "ANSWERS DIFFER" : "every answer as the inflated database's");
	twz_close(plain);
	free(w.s);
	free(w.t);
	free(w.want);
	free(w.want_len);
	free(w.buf);
	return bad ? 1 : 0;
}
