/*
 * baseline_bench.c - the baselines' part of `twigz bench` (see
 * baseline_bench.h): one checked run per search that also counts what it
 * touches, then the timed runs, then the table.
 */
#include "baseline_bench.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SQRT2 1.41421356237309504880

/* A batch slower than SLOW_BATCH is timed three times, one slower than
 * VERY_SLOW once: their own length drowns most noise. */
#define SLOW_BATCH 0.3
#define VERY_SLOW_BATCH 2.0

struct run {
	struct twz_baseline *b;
	const twz_db *db;
	const struct twz_baseline_query *q;
	uint64_t nq;
	enum twz_baseline_kind k;
	twz_node *buf;
	size_t cap;
};

static volatile uint64_t sink;

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Every query's whole path, nodes in. */
static uint64_t batch_path(const struct run *u)
{
	struct twz_baseline_result r;
	uint64_t sum = 0;

	for (uint64_t i = 0; i < u->nq; i++) {
		twz_baseline_search(u->b, u->k, u->q[i].s, u->q[i].t, u->buf,
				    u->cap, &r);
		sum += r.length + r.first;
	}
	return sum;
}

/* Every query's first move, cells in, as a game asks. */
static uint64_t batch_lag(const struct run *u)
{
	struct twz_baseline_result r;
	uint64_t sum = 0;

	for (uint64_t i = 0; i < u->nq; i++) {
		const struct twz_baseline_query *q = &u->q[i];
		twz_node s = twz_node_at(u->db, q->sx, q->sy);
		twz_node t = twz_node_at(u->db, q->gx, q->gy);
		twz_baseline_search(u->b, u->k, s, t, NULL, 0, &r);
		sum += r.first;
	}
	return sum;
}

/* Seconds per batch, the best of: prior (a batch timed before, or
 * INFINITY); one run, when very slow; three when slow; else repeats,
 * each running enough batches to last min_trial. */
static double best_of(uint64_t (*batch)(const struct run *),
		      const struct run *u, unsigned repeats, double min_trial,
		      double prior)
{
	double t0 = now_seconds();
	sink += batch(u);
	double once = now_seconds() - t0;
	double best = once < prior ? once : prior;
	if (once >= VERY_SLOW_BATCH)
		return best;
	if (once >= SLOW_BATCH)
		repeats = 2, min_trial = 0;
	uint64_t batches = once > 0 ? (uint64_t)ceil(min_trial / once) : 1000;
	if (!batches)
		batches = 1;
	for (unsigned r = 0; r < (repeats ? repeats : 1); r++) {
		t0 = now_seconds();
		for (uint64_t i = 0; i < batches; i++)
			sink += batch(u);
		double per = (now_seconds() - t0) / batches;
		if (per < best)
			best = per;
	}
	return best;
}

/* Whether the path in u->buf runs from s to t by moves of the grid. */
static int path_legal(const struct run *u, twz_node s, twz_node t,
		      const struct twz_baseline_result *r)
{
	const twz_node *p = u->buf;

	if (r->length < 1 || r->length > u->cap || p[0] != s ||
	    p[r->length - 1] != t)
		return 0;
	for (size_t i = 1; i < r->length; i++) {
		const uint32_t *nb = &u->b->neighbour[(size_t)p[i - 1] * 8];
		unsigned m = 0;
		while (m < 8 && nb[m] != p[i])
			m++;
		if (m == 8)
			return 0;
	}
	return 1;
}

/* The checked run: every answer against the database, the counters, the
 * cost ratios. 0, or -1 with err set. */
static int check_run(const struct run *u, const char *dbpath,
		     struct twz_baseline_figures *f, double *seconds,
		     struct twz_error *err)
{
	double t0 = now_seconds();
	const char *title = twz_baseline_title(u->k);
	double ratios = 0;
	uint64_t rated = 0;

	for (uint64_t i = 0; i < u->nq; i++) {
		const struct twz_baseline_query *q = &u->q[i];
		struct twz_baseline_result r;
		int rc = twz_baseline_search(u->b, u->k, q->s, q->t, u->buf,
					     u->cap, &r);
		f->expanded += u->b->expanded;
		f->generated += u->b->generated;
		f->scanned += u->b->scanned;
		if (rc != 0) {
			if (u->k == TWZ_BASELINE_EVASION)
				continue;   /* it may give up */
			twz_error_set(err, "%s: (%u,%u) -> (%u,%u): %s finds no "
				      "path, the database one of cost %u + %u*sqrt(2)",
				      dbpath, q->sx, q->sy, q->gx, q->gy, title,
				      q->straight, q->diagonal);
			return -1;
		}
		f->found++;
		if (!path_legal(u, q->s, q->t, &r)) {
			twz_error_set(err, "%s: (%u,%u) -> (%u,%u): %s returns a "
				      "path that is not a walk of legal moves",
				      dbpath, q->sx, q->sy, q->gx, q->gy, title);
			return -1;
		}
		double cost = r.straight + r.diagonal * SQRT2;
		double opt = q->straight + q->diagonal * SQRT2;
		int equal = r.straight == q->straight && r.diagonal == q->diagonal;
		if ((f->optimal && !equal) || (!equal && cost < opt)) {
			twz_error_set(err, "%s: (%u,%u) -> (%u,%u): %s finds cost "
				      "%u + %u*sqrt(2), the database %u + %u*sqrt(2)",
				      dbpath, q->sx, q->sy, q->gx, q->gy, title,
				      r.straight, r.diagonal, q->straight,
				      q->diagonal);
			return -1;
		}
		if (opt > 0) {
			double ratio = equal ? 1.0 : cost / opt;
			ratios += ratio;
			rated++;
			if (ratio > f->ratio_max)
				f->ratio_max = ratio;
		}
	}
	/* With the checks, an upper bound of a batch's time. */
	*seconds = now_seconds() - t0;
	f->ratio_mean = rated ? ratios / rated : 1.0;
	if (!rated)
		f->ratio_max = 1.0;
	f->expanded /= (double)u->nq;
	f->generated /= (double)u->nq;
	f->scanned /= (double)u->nq;
	return 0;
}

int twz_baseline_bench(const twz_db *db, const char *dbpath,
		       const struct twz_baseline_query *q, uint64_t nq,
		       unsigned repeats, double min_trial,
		       struct twz_baseline_figures fig[TWZ_BASELINE_COUNT],
		       struct twz_error *err)
{
	struct twz_baseline b;
	struct run u = { &b, db, q, nq, 0, NULL, 0 };
	int rc = -1;

	memset(fig, 0, TWZ_BASELINE_COUNT * sizeof *fig);
	if (twz_baseline_init(&b, db) != 0) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", dbpath);
		return -1;
	}
	u.cap = (size_t)b.node_count + 1;
	u.buf = malloc(u.cap * sizeof *u.buf);
	if (!u.buf) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", dbpath);
		goto out;
	}
	for (int k = 0; k < TWZ_BASELINE_COUNT; k++) {
		struct twz_baseline_figures *f = &fig[k];
		u.k = k;
		f->supported = twz_baseline_supported(k, b.connectivity);
		f->optimal = twz_baseline_optimal(k, b.connectivity);
		f->paths = nq;
		if (!f->supported || !nq)
			continue;
		double checked;
		if (check_run(&u, dbpath, f, &checked, err) != 0) {
			err->kind = TWZ_ERR_INPUT;
			goto out;
		}
		f->path_us = best_of(batch_path, &u, repeats, min_trial,
				     checked) * 1e6 / nq;
		f->lag_us = best_of(batch_lag, &u, repeats, min_trial,
				    INFINITY) * 1e6 / nq;
	}
	rc = 0;
out:
	free(u.buf);
	twz_baseline_free(&b);
	return rc;
}

/* ---- output ---------------------------------------------------------- */

/* A time in a unit that keeps three or so digits. */
static void fmt_us(char *buf, size_t cap, double us)
{
	if (us >= 1000)
		snprintf(buf, cap, "%.2f ms", us / 1000);
	else if (us >= 1)
		snprintf(buf, cap, "%.2f us", us);
	else
		snprintf(buf, cap, "%.1f ns", us * 1000);
}

static void fmt_count(char *buf, size_t cap, double v)
{
	if (v <= 0)
		snprintf(buf, cap, "-");
	else
		snprintf(buf, cap, "%.0f", v);
}

static double speedup(double theirs, double ours)
{
	return ours > 0 ? theirs / ours : 0;
}

/* "t (Nx)": a time and the database's speed-up over it. */
static void fmt_time_speedup(char *buf, size_t cap, double us, double db_us)
{
	char t[32];
	double x = speedup(us, db_us);

	fmt_us(t, sizeof t, us);
	snprintf(buf, cap, x >= 10 ? "%s (%.0fx)" : "%s (%.2fx)", t, x);
}

enum { C_NAME, C_PATH, C_LAG, C_EXP, C_GEN, C_SCAN, C_COST, C_FOUND, NCOL };
#define ROWS (TWZ_BASELINE_COUNT + 2)

void twz_baseline_print(FILE *f, const struct twz_baseline_figures *fig,
			double db_path_us, double db_lag_ns)
{
	static const char *const head[NCOL] = {
		"", "whole path (db faster)", "first move (db faster)",
		"expanded", "generated", "scanned", "cost / optimum", "found",
	};
	char cell[ROWS][NCOL][64];
	int w[NCOL] = { 0 };
	unsigned rows = 0;
	char t[32];

	for (unsigned c = 0; c < NCOL; c++)
		snprintf(cell[rows][c], sizeof cell[0][0], "%s", head[c]);
	rows++;
	memset(cell[rows], 0, sizeof cell[rows]);
	snprintf(cell[rows][C_NAME], 64, "database");
	fmt_us(t, sizeof t, db_path_us);
	snprintf(cell[rows][C_PATH], 64, "%s", t);
	fmt_us(t, sizeof t, db_lag_ns / 1e3);
	snprintf(cell[rows][C_LAG], 64, "%s", t);
	snprintf(cell[rows][C_EXP], 64, "-");
	snprintf(cell[rows][C_GEN], 64, "-");
	snprintf(cell[rows][C_SCAN], 64, "-");
	snprintf(cell[rows][C_COST], 64, "1 (optimal)");
	snprintf(cell[rows][C_FOUND], 64, "%" PRIu64, fig[0].paths);
	rows++;
	for (int k = 0; k < TWZ_BASELINE_COUNT; k++) {
		const struct twz_baseline_figures *g = &fig[k];
		char (*row)[64] = cell[rows++];
		memset(row, 0, NCOL * 64);
		snprintf(row[C_NAME], 64, "%s", twz_baseline_title(k));
		if (!g->supported) {
			snprintf(row[C_PATH], 64, "(8-connected grids only)");
			continue;
		}
		fmt_time_speedup(row[C_PATH], 64, g->path_us, db_path_us);
		fmt_time_speedup(row[C_LAG], 64, g->lag_us, db_lag_ns / 1e3);
		fmt_count(row[C_EXP], 64, g->expanded);
		fmt_count(row[C_GEN], 64, g->generated);
		fmt_count(row[C_SCAN], 64, g->scanned);
		if (g->optimal)
			snprintf(row[C_COST], 64, "1 (equal, checked)");
		else
			snprintf(row[C_COST], 64, "mean %.3f, max %.2f",
				 g->ratio_mean, g->ratio_max);
		snprintf(row[C_FOUND], 64, "%" PRIu64, g->found);
	}
	for (unsigned r = 0; r < rows; r++)
		for (unsigned c = 0; c < NCOL; c++) {
			int len = (int)strlen(cell[r][c]);
			if (len > w[c])
				w[c] = len;
		}
	for (unsigned r = 0; r < rows; r++) {
		char line[NCOL * 66 + 8];
		size_t n = 0;
		for (unsigned c = 0; c < NCOL; c++) {
			/* Figures right-aligned, the name and the cost left. */
			int left = c == C_NAME || c == C_COST;
			int k = snprintf(line + n, sizeof line - n, left ? "%-*s  " : "%*s  ",
					 w[c], cell[r][c]);
			if (k > 0)
				n += (size_t)k < sizeof line - n ? (size_t)k : sizeof line - n - 1;
		}
		while (n && line[n - 1] == ' ')
			n--;
		fprintf(f, "%.*s\n", (int)n, line);
	}
	fprintf(f, "expanded: nodes whose moves were examined; generated: nodes "
		"given a cost or queued;\nscanned: cells read by jumps (JPS) or "
		"line-of-sight checks (Evasion); per path.\n");
}

void twz_baseline_json(FILE *f, const struct twz_baseline_figures *fig,
		       double db_path_us, double db_lag_ns)
{
	fputc('[', f);
	for (int k = 0; k < TWZ_BASELINE_COUNT; k++) {
		const struct twz_baseline_figures *g = &fig[k];
		fprintf(f, "%s{\"name\":\"%s\",\"supported\":%s", k ? "," : "",
			twz_baseline_name(k), g->supported ? "true" : "false");
		if (g->supported)
			fprintf(f, ",\"optimal\":%s,\"paths\":%" PRIu64
				",\"found\":%" PRIu64 ",\"path_us\":%.3f"
				",\"lag_us\":%.3f,\"path_speedup\":%.1f"
				",\"lag_speedup\":%.1f,\"expanded\":%.1f"
				",\"generated\":%.1f,\"scanned\":%.1f"
				",\"cost_ratio_mean\":%.4f,\"cost_ratio_max\":%.4f",
				g->optimal ? "true" : "false", g->paths, g->found,
				g->path_us, g->lag_us,
				speedup(g->path_us, db_path_us),
				speedup(g->lag_us * 1e3, db_lag_ns), g->expanded,
				g->generated, g->scanned, g->ratio_mean,
				g->ratio_max);
		fputc('}', f);
	}
	fputc(']', f);
}
