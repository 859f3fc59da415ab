/*
 * cmd_bench.c - `twigz bench DB [FILE.scen] [--json] [--baselines]` and
 * the measurements behind it (see cmd_bench.h for the method).
 */
#include "cmd_bench.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "astar.h"
#include "bench_ref.h"
#include "bench_src.h"
#include "cli_common.h"
#include "query_session.h"
#include "twz_format.h"
#include "twz_rng.h"

void twz_bench_options_default(struct twz_bench_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->pairs = 1000000;
	opt->path_pairs = 1000;
	opt->seed = 0x7477697a62656e63ull;
	opt->repeats = 5;
	opt->min_trial = 0.05;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}


/* ---- queries ------------------------------------------------------- */

struct path_query {
	uint32_t s, t;           /* nodes */
	uint32_t sx, sy, gx, gy; /* their cells */
	uint32_t straight;       /* the database's exact cost */
	uint32_t diagonal;
};

struct bench_ctx {
	const twz_db *db;
	uint32_t *ps;            /* first-move pairs [npairs] */
	uint32_t *pt;
	uint64_t npairs;
	struct path_query *q;    /* path pairs [nq], all reachable */
	uint64_t nq;
	twz_node *buf;           /* a path of any length */
	size_t cap;
	struct twz_astar astar;
	struct twz_astar_result *ares;  /* [nq] */
	struct twz_ref ref;
	int has_ref;             /* the database has all-pairs rows */
};

/*
 * Random pairs: a uniform node among those whose region has another node,
 * then a uniform other node of its region. On a level of one region that
 * is a uniform independent pair.
 */
struct regions {
	uint32_t *member;        /* [node_count] grouped by region */
	uint32_t *first;         /* [region_count+1] into member */
	uint32_t *of;            /* [node_count] region of the node */
	uint32_t *pool;          /* [pool_len] nodes with a partner */
	uint32_t pool_len;
};

static void regions_free(struct regions *rg)
{
	free(rg->member);
	free(rg->first);
	free(rg->of);
	free(rg->pool);
}

/* Regions by flood fill over A*'s adjacency: the public API is enough,
 * whatever layout the database has. */
static int regions_build(const struct twz_astar *a, struct regions *rg)
{
	uint32_t n = a->node_count, k = 0, tail = 0;
	size_t alloc_n = n ? n : 1;

	memset(rg, 0, sizeof *rg);
	rg->member = malloc(alloc_n * sizeof *rg->member);
	rg->first = malloc((alloc_n + 1) * sizeof *rg->first);
	rg->of = malloc(alloc_n * sizeof *rg->of);
	rg->pool = malloc(alloc_n * sizeof *rg->pool);
	if (!rg->member || !rg->first || !rg->of || !rg->pool) {
		regions_free(rg);
		return -1;
	}
	/* member[] doubles as the flood's queue: one region after another. */
	memset(rg->of, 0xFF, alloc_n * sizeof *rg->of);
	for (uint32_t root = 0; root < n; root++) {
		if (rg->of[root] != UINT32_MAX)
			continue;
		uint32_t head = tail;
		rg->first[k] = tail;
		rg->of[root] = k;
		rg->member[tail++] = root;
		while (head < tail) {
			uint32_t u = rg->member[head++];
			const uint32_t *nb = &a->neighbour[(size_t)u * TWZ_MOVE_COUNT];
			for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
				if (nb[m] != TWZ_NONE && rg->of[nb[m]] == UINT32_MAX) {
					rg->of[nb[m]] = k;
					rg->member[tail++] = nb[m];
				}
			}
		}
		k++;
	}
	rg->first[k] = tail;
	for (uint32_t v = 0; v < n; v++) {
		uint32_t c = rg->of[v];
		if (rg->first[c + 1] - rg->first[c] > 1)
			rg->pool[rg->pool_len++] = v;
	}
	return 0;
}

static void random_pair(const struct regions *rg, uint64_t *state,
			uint32_t *s, uint32_t *t)
{
	uint32_t a = rg->pool[rng_scaled(state, rg->pool_len)];
	uint32_t c = rg->of[a];
	uint32_t lo = rg->first[c], size = rg->first[c + 1] - lo;
	uint32_t b;

	do
		b = rg->member[lo + rng_scaled(state, size)];
	while (b == a);
	*s = a;
	*t = b;
}

/* ---- the timed loops ----------------------------------------------- *
 * Each runs a whole batch of queries and returns a checksum of the
 * answers; the harness times whole batches only. */

typedef uint64_t (*bench_loop)(struct bench_ctx *c);

static volatile uint64_t bench_sink;

/* The first move from s toward t, by the database or by the binary
 * search. The loops below take one of these as a constant: each loop is
 * written once and compiled twice, with the call made direct. */
typedef twz_node (*next_fn)(const struct bench_ctx *c, twz_node s,
			    twz_node t);

static inline twz_node db_next(const struct bench_ctx *c, twz_node s,
			       twz_node t)
{
	return twz_next(c->db, s, t);
}

static inline twz_node ref_next(const struct bench_ctx *c, twz_node s,
				twz_node t)
{
	return twz_ref_next(&c->ref, s, t);
}

/* The binary search has no answer for s == t, which a lag query may ask. */
static inline twz_node ref_next_or_stay(const struct bench_ctx *c,
					twz_node s, twz_node t)
{
	return s == t ? t : twz_ref_next(&c->ref, s, t);
}

static inline uint64_t sum_next(const struct bench_ctx *c, next_fn next)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < c->npairs; i++)
		sum += next(c, c->ps[i], c->pt[i]);
	return sum;
}

/* Walks: the next lookup needs the node the last one returned. */
static inline uint64_t walk_steps(const struct bench_ctx *c, next_fn next)
{
	uint64_t steps = 0;
	for (uint64_t i = 0; i < c->nq; i++) {
		twz_node at = c->q[i].s, t = c->q[i].t;
		while (at != t && at != TWZ_NONE) {
			at = next(c, at, t);
			steps++;
		}
	}
	return steps;
}

/* Time to the first move as a game sees it: cells in, next node out. */
static inline uint64_t sum_lag(const struct bench_ctx *c, next_fn next)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < c->nq; i++) {
		const struct path_query *q = &c->q[i];
		twz_node s = twz_node_at(c->db, q->sx, q->sy);
		twz_node t = twz_node_at(c->db, q->gx, q->gy);
		sum += next(c, s, t);
	}
	return sum;
}

/* The timed loops that take a next_fn, for the database and for the
 * binary search. */
#define NEXT_LOOP(name, loop, next)			\
	static uint64_t name(struct bench_ctx *c)	\
	{						\
		return loop(c, next);			\
	}

NEXT_LOOP(loop_next, sum_next, db_next)
NEXT_LOOP(loop_ref_next, sum_next, ref_next)
NEXT_LOOP(loop_step, walk_steps, db_next)
NEXT_LOOP(loop_ref_step, walk_steps, ref_next)
NEXT_LOOP(loop_lag, sum_lag, db_next)
NEXT_LOOP(loop_ref_lag, sum_lag, ref_next_or_stay)

static uint64_t loop_path(struct bench_ctx *c)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < c->nq; i++) {
		size_t len = 0;
		twz_path(c->db, c->q[i].s, c->q[i].t, c->buf, c->cap, &len);
		sum += len + c->buf[len / 2];
	}
	return sum;
}

static uint64_t loop_ref_path(struct bench_ctx *c)
{
	uint64_t sum = 0;
	for (uint64_t i = 0; i < c->nq; i++) {
		uint32_t st, dg;
		size_t len = twz_ref_path(&c->ref, c->q[i].s, c->q[i].t, c->buf,
					  c->cap, &st, &dg);
		sum += len + c->buf[len / 2];
	}
	return sum;
}

/* A* must find the whole path before it knows the first move, so one
 * search is both its path time and its lag. Results are kept for the
 * check after the timing. */
static uint64_t loop_astar(struct bench_ctx *c)
{
	struct twz_astar *a = &c->astar;
	uint64_t sum = 0;
	for (uint64_t i = 0; i < c->nq; i++) {
		const struct path_query *q = &c->q[i];
		struct twz_astar_result *r = &c->ares[i];
		twz_node s = twz_node_at(c->db, q->sx, q->sy);
		twz_node t = twz_node_at(c->db, q->gx, q->gy);
		if (twz_astar_search(a, s, t, r) != 0)
			r->length = 0;
		sum += r->first + r->length;
	}
	return sum;
}

/* Seconds per batch: the best of opt->repeats repetitions, each running
 * enough batches to last opt->min_trial. The first batch warms up. */
static double best_batch(bench_loop loop, struct bench_ctx *c,
			 const struct twz_bench_options *opt)
{
	double t0 = now_seconds();
	bench_sink += loop(c);
	double once = now_seconds() - t0;
	uint64_t batches = 1;
	if (once < opt->min_trial)
		batches = once > 0 ? (uint64_t)ceil(opt->min_trial / once) : 1000;
	double best = INFINITY;
	for (unsigned r = 0; r < (opt->repeats ? opt->repeats : 1); r++) {
		t0 = now_seconds();
		for (uint64_t b = 0; b < batches; b++)
			bench_sink += loop(c);
		double per = (now_seconds() - t0) / batches;
		if (per < best)
			best = per;
	}
	return best;
}

double twz_bench_open_us(const char *dbpath, unsigned flags)
{
	double best = INFINITY, spent = 0;

	for (unsigned i = 0; i < 200 && (i < 3 || spent < 0.2); i++) {
		twz_db *db;
		double t0 = now_seconds();
		if (twz_open(dbpath, flags, &db) != TWZ_OK)
			return -1;
		twz_close(db);
		double d = now_seconds() - t0;
		spent += d;
		if (d < best)
			best = d;
	}
	return best * 1e6;
}

/* ---- setting up and checking --------------------------------------- */

int twz_bench_load_scen(const twz_db *db, const char *path,
			struct twz_scen *sc, struct twz_error *err)
{
	return twz_db_load_scen(db, path, 0, sc, err);
}

static void ctx_free(struct bench_ctx *c)
{
	free(c->ps);
	free(c->pt);
	free(c->q);
	free(c->buf);
	free(c->ares);
	twz_astar_free(&c->astar);
	twz_ref_free(&c->ref);
}

/* Fill q from the scenario's reachable pairs (a scenario never holds
 * others, but a level may), or from random pairs. */
static void make_paths(struct bench_ctx *c, const struct twz_scen *sc,
		       const struct regions *rg, uint64_t count,
		       uint64_t *state)
{
	c->nq = 0;
	for (uint64_t i = 0; i < count; i++) {
		struct path_query *q = &c->q[c->nq];
		if (sc) {
			/* Evenly spread over the scenario, whose problems
			 * run from short to long. */
			const struct twz_scen_entry *e =
				&sc->entries[i * sc->count / count];
			q->sx = e->sx, q->sy = e->sy, q->gx = e->gx, q->gy = e->gy;
			q->s = twz_node_at(c->db, q->sx, q->sy);
			q->t = twz_node_at(c->db, q->gx, q->gy);
			if (rg->of[q->s] != rg->of[q->t])
				continue;
		} else {
			random_pair(rg, state, &q->s, &q->t);
			twz_node_xy(c->db, q->s, &q->sx, &q->sy);
			twz_node_xy(c->db, q->t, &q->gx, &q->gy);
		}
		c->nq++;
	}
}

/* Every path: the database's exact cost, the reference walk reaching the
 * goal at the same cost. */
static int check_paths(struct bench_ctx *c, const char *dbpath,
		       struct twz_error *err)
{
	for (uint64_t i = 0; i < c->nq; i++) {
		struct path_query *q = &c->q[i];
		uint32_t st, dg;
		twz_status cs = twz_cost_exact(c->db, q->s, q->t, &q->straight,
					       &q->diagonal);
		if (cs != TWZ_OK) {
			twz_error_set(err, "%s: (%u,%u) -> (%u,%u): no path: %s",
				      dbpath, q->sx, q->sy, q->gx, q->gy,
				      twz_strerror(cs));
			return -1;
		}
		/* The timed walks follow twz_next without counting: it must
		 * arrive within node_count steps (a crafted file can make it
		 * loop, FORMAT.md section 10a). */
		twz_node at = q->s;
		for (uint32_t k = 0; at != q->t && at != TWZ_NONE &&
				     k < twz_node_count(c->db); k++)
			at = twz_next(c->db, at, q->t);
		if (at != q->t) {
			twz_error_set(err, "%s: (%u,%u) -> (%u,%u): twz_next does not lead to the goal: %s",
				      dbpath, q->sx, q->sy, q->gx, q->gy,
				      twz_strerror(TWZ_E_DAMAGED));
			return -1;
		}
		if (c->has_ref &&
		    (!twz_ref_path(&c->ref, q->s, q->t, c->buf, c->cap, &st, &dg) ||
		     st != q->straight || dg != q->diagonal)) {
			twz_error_set(err, "%s: (%u,%u) -> (%u,%u): the binary search over the runs walks another cost",
				      dbpath, q->sx, q->sy, q->gx, q->gy);
			return -1;
		}
	}
	return 0;
}

static int check_astar(const struct bench_ctx *c, const char *dbpath,
		       struct twz_error *err)
{
	for (uint64_t i = 0; i < c->nq; i++) {
		const struct path_query *q = &c->q[i];
		const struct twz_astar_result *r = &c->ares[i];
		if (!r->length || r->straight != q->straight ||
		    r->diagonal != q->diagonal) {
			twz_error_set(err, "%s: (%u,%u) -> (%u,%u): A* finds cost %u + %u*sqrt(2), the database %u + %u*sqrt(2)",
				      dbpath, q->sx, q->sy, q->gx, q->gy, r->straight,
				      r->diagonal, q->straight, q->diagonal);
			return -1;
		}
	}
	return 0;
}

/* The online searches on the same path queries. 0, or -1 with err set. */
static int run_baselines(const struct bench_ctx *c, const char *dbpath,
			 const struct twz_bench_options *opt,
			 struct twz_bench_result *r, struct twz_error *err)
{
	struct twz_baseline_query *bq = malloc(c->nq * sizeof *bq);

	if (!bq) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", dbpath);
		return -1;
	}
	for (uint64_t i = 0; i < c->nq; i++) {
		const struct path_query *q = &c->q[i];
		bq[i] = (struct twz_baseline_query){ q->s, q->t, q->sx, q->sy,
			q->gx, q->gy, q->straight, q->diagonal };
	}
	int rc = twz_baseline_bench(c->db, dbpath, bq, c->nq, opt->repeats,
				    opt->min_trial, r->baseline, err);
	free(bq);
	r->has_baselines = rc == 0;
	return rc;
}

int twz_bench_run(const twz_db *db, const char *dbpath,
		  const struct twz_scen *sc,
		  const struct twz_bench_options *opt,
		  struct twz_bench_result *r, struct twz_error *err)
{
	struct bench_ctx c;
	struct regions rg = { 0 };
	twz_info info;
	uint64_t state = opt->seed;
	int rc = -1;

	memset(r, 0, sizeof *r);
	memset(&c, 0, sizeof c);
	twz_get_info(db, &info);
	r->nodes = info.node_count;
	r->regions = info.component_count;
	r->runs = info.run_count;
	r->file_bytes = info.file_size;
	r->memory_bytes = info.memory_size;
	r->codec = info.build_codec;
	double pairs = (double)info.node_count * info.node_count;
	r->bits_per_pair = pairs > 0 ? info.memory_size * 8.0 / pairs : 0;
	r->open_us = twz_bench_open_us(dbpath, 0);
	r->open_trusted_us = twz_bench_open_us(dbpath, TWZ_OPEN_SKIP_CHECKSUMS);

	c.db = db;
	int ref = twz_ref_init(&c.ref, db);
	c.has_ref = ref == 0;
	r->has_ref = c.has_ref;
	if (ref < 0 || twz_astar_init(&c.astar, db) != 0 ||
	    regions_build(&c.astar, &rg) != 0) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", dbpath);
		goto out;
	}
	uint64_t want = sc ? sc->count : (rg.pool_len ? opt->path_pairs : 0);
	if (opt->max_paths && want > opt->max_paths)
		want = opt->max_paths;
	c.npairs = rg.pool_len ? opt->pairs : 0;
	c.cap = (size_t)info.node_count + 1;
	c.ps = malloc((c.npairs ? c.npairs : 1) * sizeof *c.ps);
	c.pt = malloc((c.npairs ? c.npairs : 1) * sizeof *c.pt);
	c.q = malloc((want ? want : 1) * sizeof *c.q);
	c.ares = calloc(want ? want : 1, sizeof *c.ares);
	c.buf = malloc(c.cap * sizeof *c.buf);
	if (!c.ps || !c.pt || !c.q || !c.ares || !c.buf) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", dbpath);
		goto out;
	}
	for (uint64_t i = 0; i < c.npairs; i++)
		random_pair(&rg, &state, &c.ps[i], &c.pt[i]);
	make_paths(&c, sc, &rg, want, &state);
	if (check_paths(&c, dbpath, err) != 0)
		goto out_wrong;
	for (uint64_t i = 0; i < c.nq; i++)
		r->steps += (uint64_t)c.q[i].straight + c.q[i].diagonal;
	r->pairs = c.npairs;
	r->paths = c.nq;
	r->from_scenario = sc != NULL;

	if (c.npairs) {
		double per = 1e9 / c.npairs;
		r->next_ns = best_batch(loop_next, &c, opt) * per;
		if (c.has_ref)
			r->ref_next_ns = best_batch(loop_ref_next, &c, opt) * per;
	}
	if (c.nq) {
		double per_path = 1e6 / c.nq;
		double per_step = r->steps ? 1e9 / r->steps : 0;
		double astar = best_batch(loop_astar, &c, opt);
		if (check_astar(&c, dbpath, err) != 0)
			goto out_wrong;
		r->astar_checked = c.nq;
		c.astar.expanded = 0;
		bench_sink += loop_astar(&c);
		r->astar_expanded = (double)c.astar.expanded / c.nq;
		r->step_ns = best_batch(loop_step, &c, opt) * per_step;
		r->astar_step_ns = astar * per_step;
		r->path_us = best_batch(loop_path, &c, opt) * per_path;
		r->astar_path_us = astar * per_path;
		r->lag_ns = best_batch(loop_lag, &c, opt) * per_path * 1e3;
		if (c.has_ref) {
			r->ref_step_ns = best_batch(loop_ref_step, &c, opt) * per_step;
			r->ref_path_us = best_batch(loop_ref_path, &c, opt) * per_path;
			r->ref_lag_ns = best_batch(loop_ref_lag, &c, opt) * per_path * 1e3;
		}
		r->astar_lag_us = r->astar_path_us;
	}
	if (opt->baselines && c.nq && run_baselines(&c, dbpath, opt, r, err))
		goto out;
	rc = 0;
	goto out;

out_wrong:
	err->kind = TWZ_ERR_INPUT;
out:
	ctx_free(&c);
	regions_free(&rg);
	return rc;
}

/* ---- output -------------------------------------------------------- */

static double ratio(double reference, double ours)
{
	return ours > 0 ? reference / ours : 0;
}

void twz_bench_json_fields(FILE *f, const struct twz_bench_result *r)
{
	fprintf(f, "\"has_ref\":%s,", r->has_ref ? "true" : "false");
	fprintf(f, "\"nodes\":%u,\"regions\":%u,\"runs\":%" PRIu64
		",\"codec\":\"%s\",\"file_bytes\":%" PRIu64
		",\"memory_bytes\":%" PRIu64 ",\"bits_per_pair\":%.4f"
		",\"open_us\":%.2f,\"open_trusted_us\":%.2f"
		",\"pairs\":%" PRIu64 ",\"first_move_ns\":%.2f"
		",\"ref_first_move_ns\":%.2f"
		",\"paths_from\":\"%s\",\"paths\":%" PRIu64
		",\"steps\":%" PRIu64 ",\"step_ns\":%.2f"
		",\"ref_step_ns\":%.2f,\"astar_step_ns\":%.2f"
		",\"path_us\":%.3f,\"ref_path_us\":%.3f"
		",\"astar_path_us\":%.3f,\"lag_ns\":%.2f"
		",\"ref_lag_ns\":%.2f,\"astar_lag_us\":%.3f"
		",\"astar_expanded\":%.1f,\"astar_checked\":%" PRIu64
		",\"first_move_vs_ref\":%.3f,\"step_vs_ref\":%.3f"
		",\"path_vs_ref\":%.3f,\"path_vs_astar\":%.3f"
		",\"lag_vs_astar\":%.1f",
		r->nodes, r->regions, r->runs,
		r->codec == TWZ_CODEC_ZSTD ? "zstd" : "raw", r->file_bytes,
		r->memory_bytes, r->bits_per_pair, r->open_us,
		r->open_trusted_us, r->pairs, r->next_ns, r->ref_next_ns,
		r->from_scenario ? "scenario" : "random", r->paths, r->steps,
		r->step_ns, r->ref_step_ns, r->astar_step_ns, r->path_us,
		r->ref_path_us, r->astar_path_us, r->lag_ns, r->ref_lag_ns,
		r->astar_lag_us, r->astar_expanded, r->astar_checked,
		ratio(r->ref_next_ns, r->next_ns),
		ratio(r->ref_step_ns, r->step_ns),
		ratio(r->ref_path_us, r->path_us),
		ratio(r->astar_path_us, r->path_us),
		ratio(r->astar_lag_us * 1e3, r->lag_ns));
	if (r->has_baselines) {
		fputs(",\"baselines\":", f);
		twz_baseline_json(f, r->baseline, r->path_us, r->lag_ns);
	}
}

void twz_bench_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* The binary search's figure and its ratio, or a dash when the database
 * has no rows to search. */
static void ref_cell(char *buf, size_t cap, const struct twz_bench_result *r,
		     double reference, double ours, const char *fmt)
{
	if (!r->has_ref) {
		snprintf(buf, cap, "-");
		return;
	}
	int n = snprintf(buf, cap, fmt, reference);
	if (n > 0 && (size_t)n < cap)
		snprintf(buf + n, cap - (size_t)n, " (%.2fx)", ratio(reference, ours));
}

/* The timing table: its columns are as wide as their widest cell, so a
 * large figure moves the columns instead of breaking them. */
enum { COL_LABEL, COL_OURS, COL_REF, COL_ASTAR, COL_NOTE, COLS };

typedef char bench_cell[64];

struct bench_table {
	bench_cell cell[5][COLS];
	unsigned rows;
};

/* A new row of empty cells but its label. */
static bench_cell *table_row(struct bench_table *t, const char *label)
{
	bench_cell *row = t->cell[t->rows++];
	for (unsigned c = 0; c < COLS; c++)
		row[c][0] = 0;
	snprintf(row[COL_LABEL], sizeof row[COL_LABEL], "%s", label);
	return row;
}

static void table_print(FILE *f, const struct bench_table *t)
{
	int w[COLS] = { 0 };

	for (unsigned i = 0; i < t->rows; i++)
		for (unsigned c = 0; c < COLS; c++) {
			int len = (int)strlen(t->cell[i][c]);
			if (len > w[c])
				w[c] = len;
		}
	for (unsigned i = 0; i < t->rows; i++) {
		const bench_cell *row = t->cell[i];
		char line[5 * 64 + 16];
		/* Our figures right aligned under "twigz", the rest left
		 * aligned; no blanks at the end of a line. */
		int n = snprintf(line, sizeof line, "%-*s  %*s  %-*s  %-*s  %s",
				 w[COL_LABEL], row[COL_LABEL], w[COL_OURS],
				 row[COL_OURS], w[COL_REF], row[COL_REF],
				 w[COL_ASTAR], row[COL_ASTAR], row[COL_NOTE]);
		if (n < 0)
			continue;
		size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
		while (len && line[len - 1] == ' ')
			len--;
		fprintf(f, "%.*s\n", (int)len, line);
	}
}

void twz_bench_print(FILE *f, const char *dbpath,
		     const struct twz_bench_result *r, int json)
{
	const char *codec = r->codec == TWZ_CODEC_ZSTD ? "zstd" : "raw";
	const char *from = r->from_scenario ? "scenario" : "random";

	if (json) {
		fputs("{\"database\":", f);
		twz_bench_json_string(f, dbpath);
		fputc(',', f);
		twz_bench_json_fields(f, r);
		fputs("}\n", f);
		return;
	}
	fprintf(f, "database       %s: %u nodes, %u region%s, %" PRIu64 " runs\n",
		dbpath, r->nodes, r->regions, r->regions == 1 ? "" : "s", r->runs);
	fprintf(f, "size           %" PRIu64 " bytes on disk (%s), %" PRIu64
		" bytes in memory, %.3f bits per node pair\n",
		r->file_bytes, codec, r->memory_bytes, r->bits_per_pair);
	fprintf(f, "open           %.1f us, %.1f us without checksums\n",
		r->open_us, r->open_trusted_us);

	struct bench_table t = { .rows = 0 };
	bench_cell *row = table_row(&t, "");
	snprintf(row[COL_OURS], sizeof *row, "twigz");
	snprintf(row[COL_REF], sizeof *row, "binary search");
	snprintf(row[COL_ASTAR], sizeof *row, "A*");
	if (r->pairs) {
		row = table_row(&t, "first move");
		snprintf(row[COL_OURS], sizeof *row, "%.1f ns", r->next_ns);
		ref_cell(row[COL_REF], sizeof *row, r, r->ref_next_ns, r->next_ns, "%.1f ns");
		snprintf(row[COL_NOTE], sizeof *row, "[%" PRIu64 " random pairs]", r->pairs);
	}
	if (r->paths) {
		row = table_row(&t, "per step");
		snprintf(row[COL_OURS], sizeof *row, "%.1f ns", r->step_ns);
		ref_cell(row[COL_REF], sizeof *row, r, r->ref_step_ns, r->step_ns, "%.1f ns");
		snprintf(row[COL_ASTAR], sizeof *row, "%.1f ns (%.0fx)", r->astar_step_ns,
			 ratio(r->astar_step_ns, r->step_ns));
		snprintf(row[COL_NOTE], sizeof *row, "[%" PRIu64 " steps]", r->steps);
		row = table_row(&t, "whole path");
		snprintf(row[COL_OURS], sizeof *row, "%.2f us", r->path_us);
		ref_cell(row[COL_REF], sizeof *row, r, r->ref_path_us, r->path_us, "%.2f us");
		snprintf(row[COL_ASTAR], sizeof *row, "%.2f us (%.0fx)", r->astar_path_us,
			 ratio(r->astar_path_us, r->path_us));
		snprintf(row[COL_NOTE], sizeof *row, "[%" PRIu64 " %s paths]", r->paths, from);
		row = table_row(&t, "first-move lag");
		snprintf(row[COL_OURS], sizeof *row, "%.1f ns", r->lag_ns);
		ref_cell(row[COL_REF], sizeof *row, r, r->ref_lag_ns, r->lag_ns, "%.1f ns");
		snprintf(row[COL_ASTAR], sizeof *row, "%.2f us (%.0fx)", r->astar_lag_us,
			 ratio(r->astar_lag_us * 1e3, r->lag_ns));
	}
	table_print(f, &t);
	/* SRC's own figures where the level is one it was measured on. */
	const struct twz_src_figures *src = twz_src_figures_for(r->nodes);
	if (src)
		twz_src_print(f, src, r->pairs ? r->next_ns : 0,
			      r->paths ? r->step_ns : 0, r->paths ? r->path_us : 0,
			      r->file_bytes, r->memory_bytes);
	if (r->paths)
		fprintf(f, "A*             %" PRIu64 " paths, every cost equal to the "
			"database's; %.0f nodes closed per path\n",
			r->astar_checked, r->astar_expanded);
	if (r->has_baselines) {
		fprintf(f, "\nbaselines      the same %" PRIu64 " %s paths, online; "
			"(Nx): the database is N times faster\n", r->paths, from);
		twz_baseline_print(f, r->baseline, r->path_us, r->lag_ns);
	}
}

/* ---- the command --------------------------------------------------- */

int twz_cmd_bench(int argc, char **argv)
{
	struct twz_cli_args ar = TWZ_CLI_ARGS(argc, argv);
	struct twz_bench_options opt;
	const char *files[2] = { NULL, NULL };   /* the database, the .scen */
	const char *a;
	int json = 0;
	uint64_t cache = 0;

	twz_bench_options_default(&opt);
	while ((a = twz_cli_next(&ar))) {
		if (!strcmp(a, "--json"))
			json = 1;
		else if (!strcmp(a, "--pairs"))
			opt.pairs = (uint32_t)twz_cli_number(&ar, a, 1, 100000000,
				"a number from 1 to 100000000");
		else if (!strcmp(a, "--baselines"))
			opt.baselines = 1;
		else if (!strcmp(a, "--paths"))
			opt.max_paths = (uint32_t)twz_cli_number(&ar, a, 1, 100000000,
				"a number from 1 to 100000000");
		else if (!strcmp(a, "--scen")) {
			const char *v = twz_cli_value(&ar, a, "a scenario file");
			if (v)
				twz_cli_place(&ar, v, files + 1, 1);
		} else if (!strcmp(a, "--seed"))
			opt.seed = (uint64_t)twz_cli_number(&ar, a, 0, 0x7FFFFFFF,
				"a whole number");
		else if (!strcmp(a, "--cache"))
			cache = twz_cli_bytes(&ar, a, 1, UINT64_MAX >> 10,
				"a cache size in bytes, such as 64M");
		else
			twz_cli_operand(&ar, a, files, 2);
	}
	if (ar.status)
		return ar.status;
	const char *dbpath = files[0], *scen = files[1];
	if (!dbpath)
		return twz_cli_usage("%s", "bench needs a database");

	struct twz_error err = { { 0 }, 0 };
	struct twz_scen sc = { 0 };
	struct twz_bench_result r;
	twz_db *db;
	int rc = twz_cli_open_db_cache(dbpath, cache, &db);
	if (rc)
		return rc;
	twz_info in;
	twz_get_info(db, &in);
	if (in.level_kind != TWZ_KIND_GRID) {
		fprintf(stderr, "twigz: %s: bench measures grid databases (a graph's "
			"queries are measured by graph_bench, ninja bench-graphs)\n",
			dbpath);
		twz_close(db);
		return EXIT_USAGE;
	}
	if (scen && twz_bench_load_scen(db, scen, &sc, &err) != 0) {
		rc = twz_cli_error(&err);
		goto out;
	}
	if (twz_bench_run(db, dbpath, scen ? &sc : NULL, &opt, &r, &err) != 0) {
		rc = twz_cli_error(&err);
		if (err.kind == TWZ_ERR_INPUT)
			rc = EXIT_VERIFY;
		goto out;
	}
	twz_bench_print(stdout, dbpath, &r, json);
	if (fflush(stdout) != 0) {
		fprintf(stderr, "twigz: cannot write the output\n");
		rc = EXIT_IO;
	}
out:
	twz_scen_free(&sc);
	twz_close(db);
	return rc;
}
