/*
 * closed_bench.c - what closing cells at run time costs
 * (`ninja -C BUILD bench-closed`): twz_path_closed against a plain A*
 * with the octile (or Manhattan) heuristic on the same changed grid, and
 * twz_flow_field_live against twz_flow_field.
 *
 *   closed_bench [--pairs N] [--fields N] [--seed N] [--connectivity 8|4]
 *                LEVEL.map|DB.twz ...
 *
 * A .map is baked in memory (CPD); a .twz is opened as it is. For each
 * level, on the same random pairs of one region:
 *   - sparse, dense: 1% and 5% of the walkable cells closed at random;
 *   - on path: one cell closed in the middle of each pair's static path
 *     (the search always has to go round).
 * Both searches are timed one query at a time (the closed set changes
 * between queries in the last case); every pair's cost from twz_path_closed
 * must equal the reference A*'s exactly, else the run fails. Then the
 * flow fields: microseconds per field toward random targets, from the
 * database, live on the static level, and live with 5% closed.
 *
 * Prints a Markdown table. Never asserts a timing: the figures depend on
 * the machine and its load; the ratios compare runs in one process.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "astar.h"
#include "bake.h"
#include "level_map.h"
#include "twigz.h"
#include "twz_format.h"

struct level {
	const char *name;
	twz_db *db;
	uint8_t *buf;             /* in-memory bake, or NULL */
	twz_info info;
	twz_scratch *sc;
	struct twz_astar astar;
	uint32_t *orig;           /* the A*'s unpatched neighbours */
	uint8_t *bits;            /* closed nodes */
	twz_node *path;           /* node_count + 1 */
};

struct tally {
	double ours_s, ref_s;
	uint64_t ours_expanded, ref_expanded;
	uint64_t queries, searched, unreachable;
};

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int is_closed(const struct level *lv, twz_node n)
{
	return n != TWZ_NONE && (lv->bits[n >> 3] >> (n & 7) & 1);
}

/* Redo the reference A*'s moves of the nodes around cell (cx, cy) from
 * the static ones, dropping those the closed cells forbid (restore: the
 * static ones back). */
static void patch_around(struct level *lv, uint32_t cx, uint32_t cy,
			 int restore)
{
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) {
			int64_t x = (int64_t)cx + dx, y = (int64_t)cy + dy;
			twz_node u = twz_node_at(lv->db, x, y);
			if (u == TWZ_NONE)
				continue;
			for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
				size_t k = (size_t)u * TWZ_MOVE_COUNT + m;
				twz_node v = lv->orig[k];
				if (!restore && v != TWZ_NONE &&
				    (is_closed(lv, u) || is_closed(lv, v) ||
				     (twz_move_is_diagonal(m) &&
				      (is_closed(lv, twz_node_at(lv->db,
						x + twz_move_dx[m], y)) ||
				       is_closed(lv, twz_node_at(lv->db, x,
						y + twz_move_dy[m]))))))
					v = TWZ_NONE;
				lv->astar.neighbour[k] = v;
			}
		}
}

static void set_closed(struct level *lv, twz_node n, int on)
{
	uint32_t x, y;

	if (on)
		lv->bits[n >> 3] |= (uint8_t)(1u << (n & 7));
	else
		lv->bits[n >> 3] &= (uint8_t)~(1u << (n & 7));
	twz_node_xy(lv->db, n, &x, &y);
	patch_around(lv, x, y, 0);
}

static void clear_all(struct level *lv)
{
	memset(lv->bits, 0, TWZ_CLOSED_BYTES(lv->info.node_count));
	memcpy(lv->astar.neighbour, lv->orig, (size_t)lv->info.node_count *
	       TWZ_MOVE_COUNT * sizeof *lv->orig);
}

/* A query: a pair, and a cell closed for it alone (TWZ_NONE: none). */
struct query {
	twz_node s, t, c;
};

/* One query both ways, timed; -1 when the costs differ (checked on the
 * first pass). */
static int one_query(struct level *lv, const struct query *q, int first,
		     double *ours_s, double *ref_s, struct tally *ty)
{
	twz_closed cl = { lv->bits, NULL, NULL };
	uint32_t st = 0, dg = 0;
	size_t len;
	struct twz_astar_result ar;

	if (q->c != TWZ_NONE)
		set_closed(lv, q->c, 1);
	double t0 = now_seconds();
	twz_status r = twz_path_closed(lv->db, lv->sc, &cl, q->s, q->t,
				       lv->path, (size_t)lv->info.node_count + 1,
				       &len, &st, &dg);
	double t1 = now_seconds();
	uint64_t before = lv->astar.expanded;
	int ar_rc = twz_astar_search(&lv->astar, q->s, q->t, &ar);
	double t2 = now_seconds();
	if (q->c != TWZ_NONE)
		set_closed(lv, q->c, 0);

	*ours_s += t1 - t0;
	*ref_s += t2 - t1;
	if (!first)
		return 0;
	ty->ours_expanded += twz_scratch_expanded(lv->sc);
	ty->ref_expanded += lv->astar.expanded - before;
	ty->queries++;
	ty->searched += twz_scratch_expanded(lv->sc) != 0;
	if (r == TWZ_E_UNREACHABLE && ar_rc == 1) {
		ty->unreachable++;
		return 0;
	}
	if (r != TWZ_OK || ar_rc != 0 || ar.straight != st ||
	    ar.diagonal != dg) {
		fprintf(stderr, "closed_bench: %s: costs differ: %s %u+%u*sqrt2, "
			"A* %s %u+%u*sqrt2\n", lv->name, twz_strerror(r), st, dg,
			ar_rc ? "unreachable" : "found", ar.straight, ar.diagonal);
		return -1;
	}
	return 0;
}

/* The queries five times over, each query's best time of each search
 * kept (the machine may be shared). Consecutive queries have different
 * targets, so no pass reuses the last one's heuristic memo. */
static int run_queries(struct level *lv, const struct query *q, size_t count,
		       struct tally *ty)
{
	double *best = malloc(2 * (count + 1) * sizeof *best);

	memset(ty, 0, sizeof *ty);
	if (!best)
		return -1;
	for (int pass = 0; pass < 5; pass++)
		for (size_t i = 0; i < count; i++) {
			double ours = 0, ref = 0;
			if (one_query(lv, &q[i], pass == 0, &ours, &ref, ty)) {
				free(best);
				return -1;
			}
			if (pass == 0 || ours < best[2 * i])
				best[2 * i] = ours;
			if (pass == 0 || ref < best[2 * i + 1])
				best[2 * i + 1] = ref;
		}
	for (size_t i = 0; i < count; i++) {
		ty->ours_s += best[2 * i];
		ty->ref_s += best[2 * i + 1];
	}
	free(best);
	return 0;
}

/* Random pairs within one region (so most are reachable). */
static void pick_pair(struct level *lv, uint64_t *rng, twz_node *s,
		      twz_node *t)
{
	uint32_t n = lv->info.node_count;

	for (int tries = 0;; tries++) {
		*s = (twz_node)(rng_next(rng) % n);
		*t = (twz_node)(rng_next(rng) % n);
		if (tries > 100 || twz_next(lv->db, *s, *t) != TWZ_NONE)
			return;
	}
}

static int run_random(struct level *lv, unsigned permille, unsigned pairs,
		      uint64_t seed, struct tally *ty)
{
	uint64_t rng = seed;
	struct query *q = malloc((pairs + 1) * sizeof *q);
	size_t count = 0;

	if (!q)
		return -1;
	clear_all(lv);
	for (twz_node n = 0; n < lv->info.node_count; n++)
		if (rng_next(&rng) % 1000 < permille)
			set_closed(lv, n, 1);
	for (unsigned i = 0; i < pairs; i++) {
		twz_node s, t;
		pick_pair(lv, &rng, &s, &t);
		if (!is_closed(lv, s) && !is_closed(lv, t))
			q[count++] = (struct query){ s, t, TWZ_NONE };
	}
	int rc = run_queries(lv, q, count, ty);
	clear_all(lv);
	free(q);
	return rc;
}

static int run_on_path(struct level *lv, unsigned pairs, uint64_t seed,
		       struct tally *ty)
{
	uint64_t rng = seed;
	struct query *q = malloc((pairs + 1) * sizeof *q);
	size_t count = 0, len;

	if (!q)
		return -1;
	clear_all(lv);
	for (unsigned i = 0; i < pairs; i++) {
		twz_node s, t;
		pick_pair(lv, &rng, &s, &t);
		if (twz_path(lv->db, s, t, lv->path,
			     (size_t)lv->info.node_count + 1, &len) != TWZ_OK ||
		    len < 3)
			continue;
		q[count++] = (struct query){ s, t, lv->path[len / 2] };
	}
	int rc = run_queries(lv, q, count, ty);
	free(q);
	return rc;
}

static void print_row(const struct level *lv, const char *what,
		      const struct tally *ty)
{
	double q = ty->queries ? (double)ty->queries : 1;
	double ours = ty->ours_s / q * 1e6, ref = ty->ref_s / q * 1e6;

	printf("| %s | %s | %" PRIu64 " | %.0f%% | %.1f | %.1f | %.2f | %.2f | "
	       "%.1fx |\n", lv->name, what, ty->queries,
	       100.0 * ty->searched / q, ty->ours_expanded / q,
	       ty->ref_expanded / q, ours, ref, ours > 0 ? ref / ours : 0);
}

/* Microseconds per field: each target's best of five, averaged. */
static double time_fields(struct level *lv, const twz_node *targets,
			  unsigned count, twz_node *next, int live,
			  const twz_closed *cl)
{
	double sum = 0;

	for (unsigned i = 0; i < count; i++) {
		double best = 0;
		for (int rep = 0; rep < 5; rep++) {
			double t0 = now_seconds();
			if (live)
				twz_flow_field_live(lv->db, lv->sc, cl, targets[i],
						    next, lv->info.node_count);
			else
				twz_flow_field(lv->db, targets[i], next,
					       lv->info.node_count);
			double t = now_seconds() - t0;
			if (rep == 0 || t < best)
				best = t;
		}
		sum += best;
	}
	return sum / count * 1e6;
}

static int level_open(struct level *lv, const char *path,
		      unsigned connectivity)
{
	size_t n = strlen(path), len;
	twz_status st;

	memset(lv, 0, sizeof *lv);
	lv->name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if (n > 4 && !strcmp(path + n - 4, ".twz")) {
		st = twz_open(path, 0, &lv->db);
	} else {
		struct twz_bake_options opt;
		struct twz_error err = { { 0 }, 0 };
		struct twz_grid grid;
		struct twz_cpd cpd;

		twz_bake_options_default(&opt);
		opt.codec = TWZ_CODEC_RAW;
		opt.connectivity = connectivity;
		opt.name = path;
		if (twz_grid_load(path, &grid, &err) != 0 ||
		    twz_bake_cpd(&grid, &opt, &cpd, &err) != 0) {
			fprintf(stderr, "closed_bench: %s\n", err.msg);
			return -1;
		}
		int rc = twz_cpd_encode(&cpd, &grid, &opt, &lv->buf, &len, &err);
		twz_cpd_free(&cpd);
		twz_grid_free(&grid);
		if (rc) {
			fprintf(stderr, "closed_bench: %s\n", err.msg);
			return -1;
		}
		st = twz_open_memory(lv->buf, len, 0, &lv->db);
	}
	if (st != TWZ_OK) {
		fprintf(stderr, "closed_bench: %s: %s\n", path, twz_strerror(st));
		return -1;
	}
	twz_get_info(lv->db, &lv->info);
	size_t nodes = lv->info.node_count;
	if (twz_scratch_create(lv->db, &lv->sc) != TWZ_OK ||
	    twz_astar_init(&lv->astar, lv->db) != 0 ||
	    !(lv->orig = malloc(nodes * TWZ_MOVE_COUNT * sizeof *lv->orig)) ||
	    !(lv->bits = calloc(TWZ_CLOSED_BYTES(nodes) + 1, 1)) ||
	    !(lv->path = malloc((nodes + 1) * sizeof *lv->path))) {
		fprintf(stderr, "closed_bench: %s: out of memory\n", path);
		return -1;
	}
	memcpy(lv->orig, lv->astar.neighbour,
	       nodes * TWZ_MOVE_COUNT * sizeof *lv->orig);
	return 0;
}

static void level_close(struct level *lv)
{
	twz_astar_free(&lv->astar);
	twz_scratch_free(lv->sc);
	twz_close(lv->db);
	free(lv->buf);
	free(lv->orig);
	free(lv->bits);
	free(lv->path);
}

static int bench_level(const char *path, unsigned connectivity,
		       unsigned pairs, unsigned fields, uint64_t seed,
		       char *flow_rows, size_t flow_cap)
{
	struct level lv;
	struct tally ty;
	int rc = -1;

	if (level_open(&lv, path, connectivity))
		goto out;
	if (run_random(&lv, 10, pairs, seed, &ty))
		goto out;
	print_row(&lv, "1% closed", &ty);
	if (run_random(&lv, 50, pairs, seed + 1, &ty))
		goto out;
	print_row(&lv, "5% closed", &ty);
	if (run_on_path(&lv, pairs, seed + 2, &ty))
		goto out;
	print_row(&lv, "1 on path", &ty);
	fflush(stdout);

	uint32_t n = lv.info.node_count;
	twz_node *next = malloc((size_t)n * sizeof *next);
	twz_node *targets = malloc(fields * sizeof *targets);
	if (!next || !targets) {
		free(next);
		free(targets);
		goto out;
	}
	uint64_t rng = seed + 3;
	for (unsigned i = 0; i < fields; i++)
		targets[i] = (twz_node)(rng_next(&rng) % n);
	double db_us = time_fields(&lv, targets, fields, next, 0, NULL);
	double live_us = time_fields(&lv, targets, fields, next, 1, NULL);
	memset(lv.bits, 0, TWZ_CLOSED_BYTES(n));
	for (twz_node v = 0; v < n; v++)
		if (rng_next(&rng) % 1000 < 50)
			lv.bits[v >> 3] |= (uint8_t)(1u << (v & 7));
	twz_closed cl = { lv.bits, NULL, NULL };
	double closed_us = time_fields(&lv, targets, fields, next, 1, &cl);
	size_t used = strlen(flow_rows);
	snprintf(flow_rows + used, flow_cap - used,
		 "| %s | %u | %.1f | %.1f (%.2fx) | %.1f |\n", lv.name, n,
		 db_us, live_us, db_us > 0 ? live_us / db_us : 0, closed_us);
	free(next);
	free(targets);
	rc = 0;
out:
	level_close(&lv);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned pairs = 1000, fields = 20, connectivity = 8;
	uint64_t seed = 0x5EED;
	static char flow_rows[1 << 16];
	const char *levels[256];
	size_t count = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--pairs") && val)
			pairs = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(a, "--fields") && val)
			fields = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(a, "--seed") && val)
			seed = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(a, "--connectivity") && val)
			connectivity = (unsigned)strtoul(argv[++i], NULL, 10) == 4 ? 4 : 8;
		else if (a[0] == '-') {
			fprintf(stderr, "usage: closed_bench [--pairs N] [--fields N] "
				"[--seed N] [--connectivity 8|4] LEVEL.map|DB.twz ...\n");
			return 2;
		} else if (count < sizeof levels / sizeof *levels)
			levels[count++] = a;
	}
	if (!count || !fields) {
		fprintf(stderr, "closed_bench: name at least one level\n");
		return 2;
	}
	printf("Paths around closed cells: twz_path_closed against A* (%s "
	       "heuristic) on the changed grid, %u random pairs a row, "
	       "microseconds a query.\n\n", connectivity == 4 ? "Manhattan" :
	       "octile", pairs);
	printf("| level | closed | queries | searched | expanded | A* expanded "
	       "| us | A* us | speed-up |\n");
	printf("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	flow_rows[0] = 0;
	for (size_t i = 0; i < count; i++)
		if (bench_level(levels[i], connectivity, pairs, fields, seed,
				flow_rows, sizeof flow_rows))
			return 1;
	printf("\nFlow fields, microseconds a field (%u random targets, each "
	       "the best of 5):\n\n", fields);
	printf("| level | nodes | twz_flow_field | live | live, 5%% closed |\n");
	printf("| --- | ---: | ---: | ---: | ---: |\n");
	printf("%s", flow_rows);
	return 0;
}
