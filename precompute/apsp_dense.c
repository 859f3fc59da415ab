/*
 * apsp_dense.c - dense all-pairs distances (see apsp_dense.h): blocked
 * Floyd-Warshall and min-plus squaring over each region's distance
 * matrix, tiles of TILE x TILE on the worker pool, and the first moves
 * read off the distances.
 *
 * Both solvers only ever write a tile from one item of work, in an order
 * fixed by the tile, so the distances do not depend on the threads (and
 * the true distances are the only fixpoint anyway).
 */
#include "apsp_dense.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "target_clones.h"

#define TILE 32        /* nodes a tile side: 3 tiles of doubles fit L1 */
#define EXACT 9007199254740992.0  /* 2^53: doubles hold integers below */

/* The loops over tiles, compiled for the widest vectors the machine has. */
#define WIDE TWZ_TARGET_CLONES("avx512f", "avx2", "default")

/* c[j] = min(c[j], a + b[j]): the one inner loop, vectorised. */
static inline __attribute__((always_inline)) void
relax_row(double *restrict c, const double *restrict b, double a, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++) {
		double x = a + b[j];
		c[j] = x < c[j] ? x : c[j];
	}
}

/* A tile with no finite entry adds nothing to a product. */
static inline __attribute__((always_inline)) int
tile_empty(const double *a, uint32_t p, uint32_t b)
{
	for (uint32_t i = 0; i < b; i++)
		for (uint32_t k = 0; k < b; k++)
			if (a[(size_t)i * p + k] != INFINITY)
				return 0;
	return 1;
}

#define MR 4   /* rows of c sharing each load of bm */

/*
 * c = min(c, a (x) bm) for b x b tiles of stride p (c apart from a and
 * bm), MR rows of c at a time so each row of bm is loaded once for
 * them; a tile of a with no finite entry is skipped whole, and so are
 * MR rows whose entries in column k are all infinite.
 */
static inline __attribute__((always_inline)) void
tile_product(double *restrict c, const double *restrict a,
	     const double *restrict bm, uint32_t p, uint32_t b)
{
	if (tile_empty(a, p, b))
		return;
	if (b % MR) {
		for (uint32_t i = 0; i < b; i++)
			for (uint32_t k = 0; k < b; k++) {
				double x = a[(size_t)i * p + k];
				if (x != INFINITY)
					relax_row(c + (size_t)i * p,
						  bm + (size_t)k * p, x, b);
			}
		return;
	}
	for (uint32_t i = 0; i < b; i += MR) {
		double *restrict c0 = c + (size_t)i * p;
		double *restrict c1 = c0 + p;
		double *restrict c2 = c1 + p;
		double *restrict c3 = c2 + p;
		const double *ai = a + (size_t)i * p;
		for (uint32_t k = 0; k < b; k++) {
			double x0 = ai[k], x1 = ai[p + k];
			double x2 = ai[2 * (size_t)p + k], x3 = ai[3 * (size_t)p + k];
			if (x0 == INFINITY && x1 == INFINITY && x2 == INFINITY &&
			    x3 == INFINITY)
				continue;
			const double *restrict bk = bm + (size_t)k * p;
			for (uint32_t j = 0; j < b; j++) {
				double y = bk[j], z;
				z = x0 + y;
				c0[j] = z < c0[j] ? z : c0[j];
				z = x1 + y;
				c1[j] = z < c1[j] ? z : c1[j];
				z = x2 + y;
				c2[j] = z < c2[j] ? z : c2[j];
				z = x3 + y;
				c3[j] = z < c3[j] ? z : c3[j];
			}
		}
	}
}

/* ---- blocked Floyd-Warshall ------------------------------------------ */

/*
 * Round kb (tiles are B x B, the matrix P x P with P = T * B):
 *   1. the diagonal tile (kb, kb): plain Floyd-Warshall inside it;
 *   2. the tiles of row kb and of column kb, each against the diagonal
 *      tile, k in order (the tile reads itself);
 *   3. every other tile (ib, jb) += column tile (ib, kb) x row tile
 *      (kb, jb), a min-plus product of tiles that are final this round.
 * Stages 2 and 3 run on the pool; a stage-3 item is a row of tiles.
 */
struct floyd {
	double *d;
	uint32_t p;      /* stride */
	uint32_t b;      /* tile side */
	uint32_t t;      /* tiles a side */
	uint32_t kb;     /* the round */
};

static inline double *tile(const struct floyd *f, uint32_t ib, uint32_t jb)
{
	return f->d + (size_t)ib * f->b * f->p + (size_t)jb * f->b;
}

WIDE static void floyd_diagonal(const struct floyd *f)
{
	double *t = tile(f, f->kb, f->kb);
	uint32_t b = f->b, p = f->p;

	for (uint32_t k = 0; k < b; k++)
		for (uint32_t i = 0; i < b; i++) {
			double a = t[(size_t)i * p + k];
			if (i != k && a != INFINITY)
				relax_row(t + (size_t)i * p, t + (size_t)k * p, a, b);
		}
}

/* Items 0 .. t-1: row tiles (kb, item); t .. 2t-1: column tiles. */
WIDE static int floyd_cross(void *ctx, void *wk, uint32_t lo, uint32_t hi)
{
	const struct floyd *f = ctx;
	uint32_t b = f->b, p = f->p, kb = f->kb;
	const double *dg = tile(f, kb, kb);

	(void)wk;
	for (uint32_t it = lo; it < hi; it++) {
		uint32_t other = it % f->t;
		if (other == kb)
			continue;
		if (it < f->t) {
			double *t = tile(f, kb, other);
			for (uint32_t k = 0; k < b; k++)
				for (uint32_t i = 0; i < b; i++) {
					double a = dg[(size_t)i * p + k];
					if (i != k && a != INFINITY)
						relax_row(t + (size_t)i * p,
							  t + (size_t)k * p, a, b);
				}
		} else {
			double *t = tile(f, other, kb);
			for (uint32_t k = 0; k < b; k++)
				for (uint32_t i = 0; i < b; i++) {
					double a = t[(size_t)i * p + k];
					if (a != INFINITY)
						relax_row(t + (size_t)i * p,
							  dg + (size_t)k * p, a, b);
				}
		}
	}
	return 0;
}

/* Items: rows of tiles ib != kb. */
WIDE static int floyd_rest(void *ctx, void *wk, uint32_t lo, uint32_t hi)
{
	const struct floyd *f = ctx;
	uint32_t b = f->b, p = f->p, kb = f->kb;

	(void)wk;
	for (uint32_t ib = lo; ib < hi; ib++) {
		if (ib == kb)
			continue;
		const double *col = tile(f, ib, kb);
		for (uint32_t jb = 0; jb < f->t; jb++) {
			if (jb == kb)
				continue;
			tile_product(tile(f, ib, jb), col, tile(f, kb, jb), p, b);
		}
	}
	return 0;
}

/* A stage of tiles on the pool; under SMALL rows of tiles a stage is
 * too short to pay for starting threads, and runs on this one. */
#define SMALL 8

static int run_pool(const struct twz_bake_options *opt, uint32_t items,
		    int (*run)(void *, void *, uint32_t, uint32_t), void *ctx,
		    uint32_t tiles)
{
	struct twz_pool pool = {
		.opt = opt, .items = items, .chunk = 1, .run = run, .ctx = ctx,
	};

	return twz_pool_run(&pool, tiles < SMALL ? 1 : twz_bake_threads(opt));
}

static int floyd_solve(struct twz_apsp_region *r, uint32_t b,
		       const struct twz_bake_options *opt)
{
	struct floyd f = { r->dist, r->stride, b, r->stride / b, 0 };

	for (f.kb = 0; f.kb < f.t; f.kb++) {
		floyd_diagonal(&f);
		if (f.t == 1)
			break;
		if (run_pool(opt, 2 * f.t, floyd_cross, &f, f.t) != 0 ||
		    run_pool(opt, f.t, floyd_rest, &f, f.t) != 0)
			return -1;
	}
	return 0;
}

/* ---- min-plus squaring ----------------------------------------------- */

/*
 * c = a (x) a over (min, +): with zeros on the diagonal, c <= a, and after
 * k products every pair joined by a shortest path of at most 2^k arcs has
 * its distance. Stops at the first product that changes nothing. An item
 * is a row of tiles of c: c's tile (ib, jb) stays in cache while the row
 * of a's tiles (ib, kb) and column (kb, jb) stream past, each a's entry
 * held in a register for a row of b.
 */
struct squaring {
	const double *a;
	double *c;
	uint8_t *changed;   /* [t]: row of tiles ib changed */
	uint32_t p, b, t;
};

WIDE static int square_rows(void *ctx, void *wk, uint32_t lo, uint32_t hi)
{
	const struct squaring *s = ctx;
	uint32_t b = s->b, p = s->p;

	(void)wk;
	for (uint32_t ib = lo; ib < hi; ib++) {
		size_t base = (size_t)ib * b * p;
		memcpy(s->c + base, s->a + base, (size_t)b * p * sizeof *s->c);
		for (uint32_t jb = 0; jb < s->t; jb++) {
			double *ct = s->c + base + (size_t)jb * b;
			for (uint32_t kb = 0; kb < s->t; kb++) {
				const double *at = s->a + base + (size_t)kb * b;
				const double *bt = s->a + (size_t)kb * b * p + (size_t)jb * b;
				tile_product(ct, at, bt, p, b);
			}
		}
		s->changed[ib] = memcmp(s->c + base, s->a + base,
					(size_t)b * p * sizeof *s->c) != 0;
	}
	return 0;
}

static int squaring_solve(struct twz_apsp_region *r, uint32_t b,
			  const struct twz_bake_options *opt, uint32_t *products)
{
	size_t cells = (size_t)r->stride * r->stride;
	struct squaring s = { r->dist, NULL, NULL, r->stride, b, r->stride / b };
	double *other = malloc(cells * sizeof *other);
	int rc = -1;

	s.changed = calloc(s.t, 1);
	if (!other || !s.changed)
		goto out;
	s.c = other;
	for (uint32_t k = 1;; k++) {
		if (run_pool(opt, s.t, square_rows, &s, s.t) != 0)
			goto out;
		(*products)++;
		/* The new matrix is the region's either way. */
		double *done = s.c;
		s.c = (double *)s.a;
		s.a = done;
		unsigned any = 0;
		for (uint32_t i = 0; i < s.t; i++)
			any |= s.changed[i];
		/* Done when nothing changed, or when 2^products arcs cover
		 * the longest path (len - 1 arcs). */
		if (!any || k >= 32 || (uint64_t)1 << k >= r->len - 1)
			break;
	}
	rc = 0;
out:
	/* s.a holds the latest matrix; keep it, free the other. */
	if (s.a != r->dist) {
		free(r->dist);
		r->dist = (double *)s.a;
	} else {
		free(other);
	}
	free(s.changed);
	return rc;
}

/* ---- regions ---------------------------------------------------------- */

void twz_apsp_free(struct twz_apsp *ap)
{
	if (ap->region)
		for (uint32_t i = 0; i < ap->graph->component_count; i++)
			free(ap->region[i].dist);
	free(ap->region);
	free(ap->node_region);
	memset(ap, 0, sizeof *ap);
}

/* The region's matrix with its arcs: 0 on the diagonal, the cheapest arc
 * between two nodes, INFINITY elsewhere (and in the padding). */
static int region_init(struct twz_apsp_region *r, const struct twz_graph *g,
		       const char *name, struct twz_error *err)
{
	size_t p = r->stride;
	uint64_t top = 0;

	for (size_t i = 0; i < p * p; i++)
		r->dist[i] = INFINITY;
	for (uint32_t i = 0; i < r->len; i++) {
		uint32_t v = r->first + i;
		double *row = r->dist + i * p;
		row[i] = 0;
		for (uint32_t a = g->arc_first[v]; a < g->arc_first[v + 1]; a++) {
			uint32_t w = g->arc_head[a];
			uint64_t c = g->arc_cost[a];
			if (w < r->first || w - r->first >= r->len) {
				twz_error_set(err, "%s: arc %u -> %u leaves its region",
					      name, v, w);
				return -1;
			}
			if (c == 0 || (g->arc_move && g->arc_move[a] >= 8)) {
				twz_error_set(err, "%s: arc %u -> %u has cost 0 or move %u",
					      name, v, w, g->arc_move ? g->arc_move[a] : 0);
				return -1;
			}
			top = c > top ? c : top;
			if (w != v && (double)c < row[w - r->first])
				row[w - r->first] = (double)c;
		}
	}
	/* A compared sum has fewer than 2 * len arcs. */
	if ((double)top * 2.0 * r->len >= EXACT) {
		twz_error_set(err, "%s: arc costs up to %llu are too large for exact "
			      "distances over %u nodes", name,
			      (unsigned long long)top, r->len);
		return -1;
	}
	return 0;
}

int twz_apsp_solve(struct twz_apsp *ap, const struct twz_graph *g,
		   unsigned solver, const struct twz_bake_options *opt,
		   struct twz_error *err)
{
	/* The pool's progress line is for the searches; not per tile. */
	struct twz_bake_options quiet = *opt;
	const char *name = opt->name ? opt->name : "graph";

	quiet.progress = 0;
	memset(ap, 0, sizeof *ap);
	ap->graph = g;
	if (solver != TWZ_APSP_FLOYD && solver != TWZ_APSP_SQUARING) {
		twz_error_set(err, "%s: no dense solver %u", name, solver);
		return -1;
	}
	if (g->node_count > TWZ_APSP_MAX_NODES) {
		twz_error_set(err, "%s: --apsp %s takes at most %u nodes, this has %u "
			      "(--apsp dijkstra bakes it)", name,
			      twz_apsp_solver_name(solver), TWZ_APSP_MAX_NODES,
			      g->node_count);
		return -1;
	}
	ap->node_region = malloc((g->node_count ? g->node_count : 1) * sizeof(uint32_t));
	ap->region = calloc(g->component_count ? g->component_count : 1,
			    sizeof *ap->region);
	if (!ap->node_region || !ap->region)
		goto nomem;
	if (!g->arc_first || !g->comp_first) {
		twz_error_set(err, "%s: the dense solvers need flat arcs and regions "
			      "as id ranges", name);
		goto fail;
	}
	for (uint32_t i = 0; i < g->component_count; i++) {
		struct twz_apsp_region *r = &ap->region[i];
		uint32_t lo = g->comp_first[i], hi = g->comp_first[i + 1];
		if (hi < lo || hi > g->node_count) {
			twz_error_set(err, "%s: region %u has bad bounds", name, i);
			goto fail;
		}
		r->first = lo;
		r->len = hi - lo;
		/* Small regions are one tile of their own size. */
		uint32_t b = r->len <= TILE ? r->len : TILE;
		r->stride = b ? (r->len + b - 1) / b * b : 0;
		r->dist = malloc((size_t)r->stride * r->stride * sizeof(double) + 1);
		if (!r->dist)
			goto nomem;
		for (uint32_t v = lo; v < hi; v++)
			ap->node_region[v] = i;
		if (region_init(r, g, name, err) != 0)
			goto fail;
		if (!r->len)
			continue;
		int rc = solver == TWZ_APSP_FLOYD
			 ? floyd_solve(r, b, &quiet)
			 : squaring_solve(r, b, &quiet, &ap->squarings);
		if (rc != 0)
			goto nomem;
	}
	return 0;
nomem:
	twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory for the all-pairs "
			   "distances", name);
fail:
	twz_apsp_free(ap);
	return -1;
}

uint64_t twz_apsp_dist(const struct twz_apsp *ap, uint32_t s, uint32_t t)
{
	const struct twz_apsp_region *r = &ap->region[ap->node_region[s]];

	if (t < r->first || t - r->first >= r->len)
		return UINT64_MAX;
	double d = r->dist[(size_t)(s - r->first) * r->stride + (t - r->first)];
	return d == INFINITY ? UINT64_MAX : (uint64_t)d;
}

WIDE void twz_apsp_moves(const struct twz_apsp *ap, uint32_t s, uint8_t *moves)
{
	const struct twz_graph *g = ap->graph;
	const struct twz_apsp_region *r = &ap->region[ap->node_region[s]];
	const double *ds = r->dist + (size_t)(s - r->first) * r->stride;
	uint8_t *out = moves + r->first;

	memset(out, 0, r->len);
	for (uint32_t a = g->arc_first[s]; a < g->arc_first[s + 1]; a++) {
		const double *dv = r->dist +
				   (size_t)(g->arc_head[a] - r->first) * r->stride;
		double w = (double)g->arc_cost[a];
		uint8_t bit = (uint8_t)(1u << g->arc_move[a]);
		/* Exact: integers below 2^53. An unreachable t (INFINITY
		 * both sides) has no first move. */
		for (uint32_t t = 0; t < r->len; t++)
			out[t] |= w + dv[t] == ds[t] && ds[t] != INFINITY ? bit : 0;
	}
}

void twz_apsp_first_arcs(const struct twz_apsp *ap, uint32_t s, int lowest,
			 struct twz_entry *e)
{
	const struct twz_graph *g = ap->graph;
	const struct twz_apsp_region *r = &ap->region[ap->node_region[s]];
	const double *ds = r->dist + (size_t)(s - r->first) * r->stride;
	struct twz_entry *out = e + r->first;
	uint32_t a0 = g->arc_first[s];

	for (uint32_t t = 0; t < r->len; t++)
		out[t] = (struct twz_entry){
			ds[t] == INFINITY ? TWZ_KEY_NONE : (uint64_t)ds[t],
			{ lowest ? UINT32_MAX : 0 } };
	/* Arcs in index order: the first optimal one found is the lowest. */
	for (uint32_t a = a0; a < g->arc_first[s + 1]; a++) {
		const double *dv = r->dist +
				   (size_t)(g->arc_head[a] - r->first) * r->stride;
		double w = (double)g->arc_cost[a];
		uint32_t k = a - a0;
		for (uint32_t t = 0; t < r->len; t++) {
			if (ds[t] == INFINITY || w + dv[t] != ds[t])
				continue;
			if (!lowest)
				out[t].sets |= (uint64_t)1 << k;
			else if (out[t].sets == UINT32_MAX)
				out[t].sets = k;
		}
	}
}

/* ---- options and limits ---------------------------------------------- */

static const char *const solver_names[] = { "dijkstra", "floyd", "squaring",
					     "lines" };

int twz_apsp_solver_parse(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, solver_names[i]))
			return i;
	return -1;
}

const char *twz_apsp_solver_name(unsigned solver)
{
	return solver < 4 ? solver_names[solver] : "unknown";
}

uint64_t twz_apsp_estimate_bytes(uint64_t nodes, unsigned solver)
{
	if (solver == TWZ_APSP_DIJKSTRA || solver == TWZ_APSP_LINES)
		return 0;
	uint64_t p = nodes <= TILE ? nodes : (nodes + TILE - 1) / TILE * TILE;
	uint64_t m = p * p * sizeof(double);
	/* The generic graph: 8 arcs of 13 bytes a node, and the region map. */
	return (solver == TWZ_APSP_SQUARING ? 2 * m : m) + 112 * nodes;
}

int twz_apsp_check_level(const struct twz_grid *g,
			 const struct twz_bake_options *opt,
			 struct twz_error *err)
{
	uint64_t cells = (uint64_t)g->width * g->height, nodes = 0;

	if (opt->apsp == TWZ_APSP_DIJKSTRA || opt->apsp == TWZ_APSP_LINES)
		return 0;
	for (uint64_t c = 0; c < cells; c++)
		nodes += g->walkable[c] != 0;
	if (nodes <= TWZ_APSP_MAX_NODES)
		return 0;
	twz_error_set(err, "%s: --apsp %s takes at most %u nodes, this level has %llu "
		      "(--apsp dijkstra bakes it)", opt->name,
		      twz_apsp_solver_name(opt->apsp), TWZ_APSP_MAX_NODES,
		      (unsigned long long)nodes);
	return -1;
}
