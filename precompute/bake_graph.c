/*
 * bake_graph.c - the CPD bake of a weighted directed graph (see
 * bake_graph.h): node order, one search per source on the worker pool,
 * rows with wildcards, the sections of FORMAT.md section 5e.
 */
#include "bake_graph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apsp_dense.h"
#include "bake_forecast.h"
#include "twigz.h"
#include "twz_graph_format.h"

#define CHUNK 64                /* sources a unit of work */
#define NONE_ARC 0xFFFFFFFFu   /* a run's arc: unreachable, until written */
#define UNREACH_BIT ((uint64_t)1 << TWZ_GRAPH_MASK_ARCS)

/* g renumbered in the bake's order. */
struct ordered {
	struct twz_digraph g;        /* arcs by new ids, heads ascending */
	uint32_t *order;             /* [n]: new -> g's node */
	uint32_t region_count;
	uint32_t *region_first;      /* [region_count + 1] */
	uint32_t *node_region;       /* [n] */
};

static void ordered_free(struct ordered *o)
{
	free(o->g.arc_first);
	free(o->g.arc_head);
	free(o->g.arc_weight);
	free(o->order);
	free(o->region_first);
	free(o->node_region);
	memset(o, 0, sizeof *o);
}

/*
 * DFS preorder over the arcs taken both ways, one weakly connected
 * component after another (each from its node of lowest id), so a
 * region is one id range that no arc leaves, and nodes near each other
 * on the graph get near ids: rows then hold long runs. A node's
 * neighbours are followed out-arcs first, in head order, then in-arcs.
 */
static int order_graph(const struct twz_digraph *g, struct ordered *o)
{
	uint32_t n = g->node_count;
	uint32_t *in_first = calloc((size_t)n + 2, sizeof *in_first);
	uint32_t *in_tail = malloc(((size_t)g->arc_count + 1) * sizeof *in_tail);
	uint32_t *rank = malloc(((size_t)n + 1) * sizeof *rank);
	uint32_t *stack = malloc(((size_t)n + 1) * sizeof *stack);
	uint32_t *cursor = calloc((size_t)n + 1, sizeof *cursor);
	int rc = -1;

	memset(o, 0, sizeof *o);
	o->order = malloc(((size_t)n + 1) * sizeof *o->order);
	o->node_region = malloc(((size_t)n + 1) * sizeof *o->node_region);
	o->region_first = malloc(((size_t)n + 1) * sizeof *o->region_first);
	if (!in_first || !in_tail || !rank || !stack || !cursor || !o->order ||
	    !o->node_region || !o->region_first)
		goto out;
	/* In-arcs, by head (tails ascending). */
	for (uint32_t a = 0; a < g->arc_count; a++)
		in_first[g->arc_head[a] + 2]++;
	for (uint32_t v = 0; v < n; v++)
		in_first[v + 2] += in_first[v + 1];
	for (uint32_t u = 0; u < n; u++)
		for (uint32_t a = g->arc_first[u]; a < g->arc_first[u + 1]; a++)
			in_tail[in_first[g->arc_head[a] + 1]++] = u;
	for (uint32_t v = 0; v < n; v++)
		rank[v] = UINT32_MAX;
	uint32_t next = 0, regions = 0;
	for (uint32_t root = 0; root < n; root++) {
		if (rank[root] != UINT32_MAX)
			continue;
		uint32_t depth = 0;
		o->region_first[regions++] = next;
		rank[root] = next;
		o->order[next++] = root;
		stack[depth++] = root;
		while (depth) {
			uint32_t u = stack[depth - 1];
			uint32_t out = g->arc_first[u + 1] - g->arc_first[u];
			uint32_t all = out + in_first[u + 1] - in_first[u];
			uint32_t w = UINT32_MAX;
			while (cursor[u] < all && w == UINT32_MAX) {
				uint32_t k = cursor[u]++;
				uint32_t x = k < out ? g->arc_head[g->arc_first[u] + k]
						     : in_tail[in_first[u] + k - out];
				if (rank[x] == UINT32_MAX)
					w = x;
			}
			if (w == UINT32_MAX) {
				depth--;
				continue;
			}
			rank[w] = next;
			o->order[next++] = w;
			stack[depth++] = w;
		}
	}
	o->region_count = regions;
	o->region_first[regions] = n;
	for (uint32_t r = 0; r < regions; r++)
		for (uint32_t v = o->region_first[r]; v < o->region_first[r + 1]; v++)
			o->node_region[v] = r;

	/* The arcs by new ids, each node's sorted by new head. */
	struct twz_digraph *h = &o->g;
	h->node_count = n;
	h->arc_count = g->arc_count;
	h->max_weight = g->max_weight;
	h->id_base = g->id_base;
	h->arc_first = malloc(((size_t)n + 1) * sizeof *h->arc_first);
	h->arc_head = malloc(((size_t)g->arc_count + 1) * sizeof *h->arc_head);
	h->arc_weight = malloc(((size_t)g->arc_count + 1) * sizeof *h->arc_weight);
	if (!h->arc_first || !h->arc_head || !h->arc_weight)
		goto out;
	uint32_t at = 0;
	for (uint32_t v = 0; v < n; v++) {
		uint32_t u = o->order[v];
		h->arc_first[v] = at;
		for (uint32_t a = g->arc_first[u]; a < g->arc_first[u + 1]; a++) {
			/* Insertion by head: degrees are small. */
			uint32_t x = rank[g->arc_head[a]], i = at++;
			uint64_t wt = g->arc_weight[a];
			while (i > h->arc_first[v] && h->arc_head[i - 1] > x) {
				h->arc_head[i] = h->arc_head[i - 1];
				h->arc_weight[i] = h->arc_weight[i - 1];
				i--;
			}
			h->arc_head[i] = x;
			h->arc_weight[i] = wt;
		}
	}
	h->arc_first[n] = at;
	rc = 0;
out:
	free(in_first);
	free(in_tail);
	free(rank);
	free(stack);
	free(cursor);
	if (rc)
		ordered_free(o);
	return rc;
}

/* ---- one source's optimal first arcs ------------------------------------ */


struct worker {
	uint64_t *dist;      /* [n] */
	uint64_t *mask;      /* [n]: optimal first arcs among the first 63 */
	uint32_t *minarc;    /* [n]: lowest optimal first arc */
	struct twz_dist_item *heap;
};

/* A row being gathered: runs of (first target, arc). */
struct row_runs {
	uint32_t *start;
	uint32_t *arc;
	uint32_t len, cap;
};

struct bake_ctx {
	const struct ordered *o;
	const struct twz_apsp *apsp;   /* dense distances, or NULL: search */
	struct row_runs *chunk;        /* [chunks] */
	uint32_t *row_len;             /* [n] */
};

/*
 * Dijkstra from s over its region, carrying for every node the set of
 * s's arcs that start an optimal path to it: a node settles after all
 * its optimal predecessors (weights are positive), so its set is whole
 * when it passes it on, and ties (equal u64 sums) join the sets.
 */
static void search(const struct ordered *o, struct worker *w, uint32_t s)
{
	const struct twz_digraph *g = &o->g;
	uint32_t r = o->node_region[s];
	uint32_t lo = o->region_first[r], hi = o->region_first[r + 1];
	size_t n = 0;

	for (uint32_t v = lo; v < hi; v++) {
		w->dist[v] = UINT64_MAX;
		w->mask[v] = 0;
		w->minarc[v] = NONE_ARC;
	}
	w->dist[s] = 0;
	struct twz_dist_item it = { 0, s };
	twz_heap_push(w->heap, &n, &it, sizeof it, twz_dist_before, NULL, NULL);
	while (n) {
		twz_heap_pop(w->heap, &n, &it, sizeof it, twz_dist_before, NULL,
			     NULL);
		uint32_t u = it.v;
		if (it.d != w->dist[u])
			continue;
		uint32_t a0 = g->arc_first[u];
		for (uint32_t a = a0; a < g->arc_first[u + 1]; a++) {
			uint32_t x = g->arc_head[a];
			uint64_t nd = it.d + g->arc_weight[a];
			uint64_t m;
			uint32_t k;
			if (u == s) {
				k = a - a0;
				m = k < TWZ_GRAPH_MASK_ARCS ? (uint64_t)1 << k : 0;
			} else {
				k = w->minarc[u];
				m = w->mask[u];
			}
			if (nd < w->dist[x]) {
				w->dist[x] = nd;
				w->mask[x] = m;
				w->minarc[x] = k;
				struct twz_dist_item next = { nd, x };
				twz_heap_push(w->heap, &n, &next, sizeof next,
					      twz_dist_before, NULL, NULL);
			} else if (nd == w->dist[x]) {
				w->mask[x] |= m;
				if (k < w->minarc[x])
					w->minarc[x] = k;
			}
		}
	}
}

static int runs_put(struct row_runs *r, uint32_t start, uint32_t arc)
{
	if (r->len == r->cap) {
		uint32_t cap = r->cap ? r->cap * 2 : 256;
		uint32_t *ns = realloc(r->start, (size_t)cap * sizeof *ns);
		if (!ns)
			return -1;
		r->start = ns;
		uint32_t *na = realloc(r->arc, (size_t)cap * sizeof *na);
		if (!na)
			return -1;
		r->arc = na;
		r->cap = cap;
	}
	r->start[r->len] = start;
	r->arc[r->len] = arc;
	r->len++;
	return 0;
}

static uint32_t mask_symbol(uint64_t m)
{
	if (m == ~(uint64_t)0 || (m & UNREACH_BIT))
		return NONE_ARC;
	return (uint32_t)__builtin_ctzll(m);
}

/*
 * s's row over its region: greedy runs, each as long as one arc stays
 * optimal for all its targets (the set intersection is not empty); s
 * itself is a wildcard. Sources of more than TWZ_GRAPH_MASK_ARCS arcs
 * store their lowest optimal arc for each target. Unreachable targets
 * are runs of their own.
 */
static int encode_row(const struct ordered *o, const struct worker *w,
		      uint32_t s, struct row_runs *out)
{
	const struct twz_digraph *g = &o->g;
	uint32_t r = o->node_region[s];
	uint32_t lo = o->region_first[r], hi = o->region_first[r + 1];
	uint32_t deg = g->arc_first[s + 1] - g->arc_first[s];
	uint32_t start = lo;

	if (deg <= TWZ_GRAPH_MASK_ARCS) {
		uint64_t cur = ~(uint64_t)0;
		for (uint32_t t = lo; t < hi; t++) {
			if (t == s)
				continue;
			uint64_t set = w->dist[t] == UINT64_MAX ? UNREACH_BIT : w->mask[t];
			if (cur & set) {
				cur &= set;
				continue;
			}
			if (runs_put(out, start, mask_symbol(cur)))
				return -1;
			start = t;
			cur = set;
		}
		return runs_put(out, start, mask_symbol(cur));
	}
	uint32_t cur = NONE_ARC;
	int any = 0;
	for (uint32_t t = lo; t < hi; t++) {
		if (t == s)
			continue;
		uint32_t k = w->dist[t] == UINT64_MAX ? NONE_ARC : w->minarc[t];
		if (!any || k == cur) {
			cur = k;
			any = 1;
			continue;
		}
		if (runs_put(out, start, cur))
			return -1;
		start = t;
		cur = k;
	}
	return runs_put(out, start, cur);
}

/* The sets of s from the dense distances: an arc s -> x of weight c is
 * optimal toward t when c + d(x, t) == d(s, t). */
static void dense_sets(const struct ordered *o, const struct twz_apsp *ap,
		       struct worker *w, uint32_t s)
{
	const struct twz_digraph *g = &o->g;
	uint32_t r = o->node_region[s];
	uint32_t lo = o->region_first[r], hi = o->region_first[r + 1];

	for (uint32_t t = lo; t < hi; t++)
		w->dist[t] = twz_apsp_dist(ap, s, t);
	twz_apsp_first_arcs(ap, s, w->mask + lo, w->minarc + lo);
	for (uint32_t t = lo; t < hi; t++)
		if (w->minarc[t] == UINT32_MAX)
			w->minarc[t] = NONE_ARC;
	(void)g;
}

static int worker_init(void *ctx, void *wk)
{
	const struct bake_ctx *c = ctx;
	struct worker *w = wk;
	size_t n = (size_t)c->o->g.node_count + 1;

	w->dist = malloc(n * sizeof *w->dist);
	w->mask = malloc(n * sizeof *w->mask);
	w->minarc = malloc(n * sizeof *w->minarc);
	w->heap = malloc(((size_t)c->o->g.arc_count + 1) * sizeof *w->heap);
	return w->dist && w->mask && w->minarc && w->heap ? 0 : -1;
}

static void worker_fini(void *wk)
{
	struct worker *w = wk;

	free(w->dist);
	free(w->mask);
	free(w->minarc);
	free(w->heap);
}

/* Source s's row, onto out. */
static int graph_row(const struct bake_ctx *c, struct worker *w, uint32_t s,
		     struct row_runs *out)
{
	if (c->apsp)
		dense_sets(c->o, c->apsp, w, s);
	else
		search(c->o, w, s);
	return encode_row(c->o, w, s, out);
}

static int bake_chunk(void *ctx, void *wk, uint32_t lo, uint32_t hi)
{
	struct bake_ctx *c = ctx;
	struct row_runs *out = &c->chunk[lo / CHUNK];

	for (uint32_t s = lo; s < hi; s++) {
		uint32_t before = out->len;
		if (graph_row(c, wk, s, out))
			return -1;
		c->row_len[s] = out->len - before;
	}
	return 0;
}

/* The forecast's sample: source s's row, made and thrown away, and the
 * node pairs its search settled (its region). */
static int64_t graph_sample(void *ctx, void *wk, uint32_t s)
{
	const struct bake_ctx *c = ctx;
	uint32_t r = c->o->node_region[s];
	struct row_runs row = { NULL, NULL, 0, 0 };
	int rc = graph_row(c, wk, s, &row);

	free(row.start);
	free(row.arc);
	return rc ? -1 : (int64_t)(c->o->region_first[r + 1] - c->o->region_first[r]);
}

/* The node pairs the searches settle: each source its region. */
static double graph_pairs(const struct ordered *o)
{
	double pairs = 0;

	for (uint32_t r = 0; r < o->region_count; r++) {
		double n = o->region_first[r + 1] - o->region_first[r];
		pairs += n * n;
	}
	return pairs;
}

/* ---- limits --------------------------------------------------------------- */

uint64_t twz_bake_graph_estimate(const struct twz_digraph *g,
				 const struct twz_bake_options *opt)
{
	double n = g->node_count, m = g->arc_count;
	unsigned threads = twz_bake_threads(opt);
	/* Rows of road-like graphs hold tens to a few hundred runs; this is
	 * the grid bake's generous figure. Each run: 8 bytes gathered, the
	 * joined copies and the file image. */
	double runs = n * (32.0 + sqrt(n) / 2.0);
	double bytes = 2.0 * (16.0 * n + 12.0 * m)    /* the graph, reordered */
		       + 40.0 * n                      /* order, ranks, in-arcs */
		       + threads * (20.0 * n + 12.0 * m) /* search workspaces */
		       + 8.0 * n + 24.0 * runs;

	if (opt->codec == TWZ_CODEC_ZSTD)
		bytes += (double)twz_bake_estimate_bytes(0, 0, threads, opt->codec,
							 opt->level);
	bytes += (double)twz_apsp_estimate_bytes(g->node_count, opt->apsp);
	return bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)bytes;
}

static int check_limits(const struct twz_digraph *g,
			const struct twz_bake_options *opt,
			struct twz_error *err)
{
	uint32_t n = g->node_count;

	if (n > TWZ_MAX_NODES) {
		twz_error_set(err, "%s: %u nodes exceed the format's %u", opt->name, n,
			      TWZ_MAX_NODES);
		return -1;
	}
	if (!twz_graph_weight_ok(g->max_weight, n)) {
		twz_error_set(err, "%s: a weight of %llu could overflow a 64-bit path "
			      "cost over %u nodes", opt->name,
			      (unsigned long long)g->max_weight, n);
		return -1;
	}
	if (opt->apsp != TWZ_APSP_DIJKSTRA && n > TWZ_APSP_MAX_NODES) {
		twz_error_set(err, "%s: --apsp %s takes at most %u nodes, this graph has "
			      "%u (--apsp dijkstra bakes it)", opt->name,
			      twz_apsp_solver_name(opt->apsp), TWZ_APSP_MAX_NODES, n);
		return -1;
	}
	if (opt->max_nodes) {
		if (n <= opt->max_nodes)
			return 0;
		twz_error_set(err, "%s: %u nodes exceed --max-nodes %u", opt->name, n,
			      opt->max_nodes);
		return -1;
	}
	uint64_t need = twz_bake_graph_estimate(g, opt);
	uint64_t have = opt->max_memory ? opt->max_memory : twz_memory_available();
	if (!have || need <= have)
		return 0;
	twz_error_set(err, "%s: baking %u nodes needs about %.0f MiB, more than %s "
		      "%.0f MiB (--max-nodes N bakes anyway)", opt->name, n,
		      need / 1048576.0, opt->max_memory ? "--memory-limit" : "the available",
		      have / 1048576.0);
	return -1;
}

/* ---- the file ----------------------------------------------------------- */

struct graph_rows {
	uint32_t *row_offsets;   /* [n + 1] */
	uint32_t *start;         /* [runs] */
	uint32_t *arc;           /* [runs] */
	uint64_t run_count;
	double seconds;
};

static void rows_free(struct graph_rows *r)
{
	free(r->row_offsets);
	free(r->start);
	free(r->arc);
	memset(r, 0, sizeof *r);
}

static int bake_rows(const struct ordered *o, const struct twz_bake_options *opt,
		     struct graph_rows *out, struct twz_error *err)
{
	uint32_t n = o->g.node_count;
	uint32_t chunks = (n + CHUNK - 1) / CHUNK;
	struct bake_ctx c = { .o = o };
	struct twz_apsp_graph dg = { 0 };
	struct twz_apsp dense = { 0 };
	int rc = -1;

	memset(out, 0, sizeof *out);
	c.chunk = calloc(chunks ? chunks : 1, sizeof *c.chunk);
	c.row_len = calloc(n ? n : 1, sizeof *c.row_len);
	out->row_offsets = malloc(((size_t)n + 1) * sizeof *out->row_offsets);
	if (!c.chunk || !c.row_len || !out->row_offsets)
		goto nomem;
	struct twz_pool pool = {
		.opt = opt, .items = n, .chunk = CHUNK,
		.worker_size = sizeof(struct worker),
		.init = worker_init, .fini = worker_fini,
		.run = bake_chunk, .ctx = &c,
	};
	if (twz_bake_forecast(&pool, graph_sample, graph_pairs(o), 0, NULL, err) != 0)
		goto out;
	double started = twz_now_seconds();
	if (opt->apsp != TWZ_APSP_DIJKSTRA) {
		dg = (struct twz_apsp_graph){
			.node_count = n,
			.region_count = o->region_count,
			.region_first = o->region_first,
			.arc_first = o->g.arc_first,
			.arc_head = o->g.arc_head,
			.arc_cost = o->g.arc_weight,
			.arc_label = NULL,  /* first arcs by index */
		};
		if (twz_apsp_solve(&dense, &dg, opt->apsp, opt, err) != 0)
			goto out;
		c.apsp = &dense;
	}
	if (twz_pool_run(&pool, twz_bake_threads(opt)) != 0) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory during the "
				   "searches", opt->name);
		goto out;
	}
	out->seconds = twz_now_seconds() - started;
	uint64_t total = 0;
	for (uint32_t k = 0; k < chunks; k++)
		total += c.chunk[k].len;
	if (total > TWZ_MAX_RUNS) {
		twz_error_set(err, "%s: %llu runs exceed the format limit", opt->name,
			      (unsigned long long)total);
		goto out;
	}
	out->start = malloc((total ? total : 1) * sizeof *out->start);
	out->arc = malloc((total ? total : 1) * sizeof *out->arc);
	if (!out->start || !out->arc)
		goto nomem;
	uint64_t pos = 0;
	for (uint32_t k = 0; k < chunks; k++) {
		memcpy(out->start + pos, c.chunk[k].start,
		       (size_t)c.chunk[k].len * sizeof *out->start);
		memcpy(out->arc + pos, c.chunk[k].arc,
		       (size_t)c.chunk[k].len * sizeof *out->arc);
		pos += c.chunk[k].len;
	}
	out->row_offsets[0] = 0;
	for (uint32_t s = 0; s < n; s++)
		out->row_offsets[s + 1] = out->row_offsets[s] + c.row_len[s];
	out->run_count = total;
	rc = 0;
	goto out;
nomem:
	twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
out:
	if (c.chunk)
		for (uint32_t k = 0; k < chunks; k++) {
			free(c.chunk[k].start);
			free(c.chunk[k].arc);
		}
	free(c.chunk);
	free(c.row_len);
	if (c.apsp)
		twz_apsp_free(&dense);
	if (rc)
		rows_free(out);
	return rc;
}

static uint8_t *le64_copy(const uint64_t *v, size_t n)
{
	uint8_t *b = malloc(n ? n * 8 : 1);

	if (b)
		for (size_t i = 0; i < n; i++)
			twz_put64(b + 8 * i, v[i]);
	return b;
}

/* The sections of FORMAT.md 5e and the kind's own, into f. */
static void graph_file(const struct twz_digraph *g, const struct ordered *o,
		       const struct graph_rows *rows,
		       const struct twz_graph_kind *kind,
		       const struct twz_bake_options *opt,
		       struct twz_out_file *f)
{
	const struct twz_digraph *h = &o->g;
	uint32_t n = h->node_count, max_degree = 0;
	int n_info;

	for (uint32_t v = 0; v < n; v++)
		if (h->arc_first[v + 1] - h->arc_first[v] > max_degree)
			max_degree = h->arc_first[v + 1] - h->arc_first[v];
	unsigned arc_bytes = twz_graph_arc_bytes(max_degree);

	f->h = (struct twz_out_header){
		.minor = 4,
		.required_features = TWZ_FEATURE_GRAPH_LEVEL | kind->features,
		.level_kind = (uint8_t)kind->level_kind,
		.level_hash = g->level_hash,
		.node_count = n,
		.component_count = o->region_count,
		.method = TWZ_METHOD_CPD,
		.node_order = TWZ_ORDER_DFS,
		.codec = (uint8_t)opt->codec,
		.level = (int8_t)opt->level,
		.threads = twz_bake_compress_threads(opt),
	};
	/* Keys ascending; nothing about the machine, threads or solver
	 * (every solver bakes the same bytes). */
	if (opt->record_build) {
		n_info = snprintf(f->h.build_info, sizeof f->h.build_info,
				  "level=%d\nlevel_kind=%s\nmethod=cpd\ntool=twigz %s\n",
				  opt->level,
				  kind->level_kind == TWZ_LEVEL_NAVMESH ? "navmesh"
									: "graph",
				  twz_version());
		if (n_info < 0 || (size_t)n_info >= sizeof f->h.build_info)
			f->h.build_info[0] = 0;
	}

	uint8_t *params = calloc(1, TWZ_GP_SIZE);
	if (params) {
		twz_put32(params + TWZ_GP_ARC_COUNT, h->arc_count);
		twz_put32(params + TWZ_GP_MAX_DEGREE, max_degree);
		twz_put32(params + TWZ_GP_ARC_BYTES, arc_bytes);
		twz_put32(params + TWZ_GP_FLAGS, g->coord ? TWZ_GF_COORDS : 0);
		twz_put64(params + TWZ_GP_RUN_COUNT, rows->run_count);
		twz_put64(params + TWZ_GP_MAX_WEIGHT, h->max_weight);
		twz_put32(params + TWZ_GP_ID_BASE, g->id_base);
	}
	twz_out_add_owned(f, TWZ_SECTION_GRAPH_PARAMS, params, TWZ_GP_SIZE);
	twz_out_add_le32(f, TWZ_SECTION_GRAPH_REGIONS, o->region_first,
			 (size_t)o->region_count + 1);
	twz_out_add_le32(f, TWZ_SECTION_GRAPH_ARC_FIRST, h->arc_first, (size_t)n + 1);
	twz_out_add_le32(f, TWZ_SECTION_GRAPH_ARC_HEAD, h->arc_head, h->arc_count);
	twz_out_add_owned(f, TWZ_SECTION_GRAPH_ARC_WEIGHT,
			  le64_copy(h->arc_weight, h->arc_count),
			  (size_t)h->arc_count * 8);

	uint32_t *ids = malloc(((size_t)n + 1) * sizeof *ids);
	uint32_t *inv = malloc(((size_t)n + 1) * sizeof *inv);
	if (ids && inv)
		for (uint32_t v = 0; v < n; v++) {
			ids[v] = g->id_base + o->order[v];
			inv[o->order[v]] = v;
		}
	else
		f->failed = 1;
	if (ids && inv) {
		twz_out_add_le32(f, TWZ_SECTION_GRAPH_NODE_ID, ids, n);
		twz_out_add_le32(f, TWZ_SECTION_GRAPH_ID_NODE, inv, n);
	}
	free(ids);
	free(inv);
	twz_out_add_le32(f, TWZ_SECTION_GRAPH_ROW_OFFSETS, rows->row_offsets,
			 (size_t)n + 1);
	twz_out_add_le32(f, TWZ_SECTION_GRAPH_RUN_START, rows->start,
			 (size_t)rows->run_count);
	uint8_t *arcs = malloc(rows->run_count ? rows->run_count * arc_bytes : 1);
	if (arcs) {
		uint32_t none = twz_graph_unreachable(arc_bytes);
		for (uint64_t i = 0; i < rows->run_count; i++) {
			uint32_t a = rows->arc[i] == NONE_ARC ? none : rows->arc[i];
			if (arc_bytes == 1)
				arcs[i] = (uint8_t)a;
			else if (arc_bytes == 2)
				twz_put16(arcs + 2 * i, (uint16_t)a);
			else
				twz_put32(arcs + 4 * i, a);
		}
	}
	twz_out_add_owned(f, TWZ_SECTION_GRAPH_RUN_ARC, arcs,
			  (size_t)rows->run_count * arc_bytes);
	if (g->coord) {
		uint8_t *co = malloc((size_t)n * 16 + 1);
		if (co)
			for (uint32_t v = 0; v < n; v++) {
				twz_put64(co + 16 * (size_t)v,
					  (uint64_t)g->coord[2 * (size_t)o->order[v]]);
				twz_put64(co + 16 * (size_t)v + 8,
					  (uint64_t)g->coord[2 * (size_t)o->order[v] + 1]);
			}
		twz_out_add_owned(f, TWZ_SECTION_GRAPH_COORDS, co, (size_t)n * 16);
	}
	for (unsigned i = 0; i < kind->extra_count; i++)
		twz_out_add(f, kind->extra[i].kind, kind->extra[i].raw,
			    kind->extra[i].raw_size);
}

static int bake(const struct twz_digraph *g, const struct twz_graph_kind *kind,
		const struct twz_bake_options *opt, const char *path,
		uint8_t **buf, size_t *len, struct twz_error *err)
{
	static const struct twz_graph_kind plain = { .level_kind = TWZ_LEVEL_GRAPH };
	struct ordered o;
	struct graph_rows rows;
	struct twz_out_file f;
	int rc;

	if (!kind)
		kind = &plain;
	if (check_limits(g, opt, err) != 0)
		return -1;
	if (order_graph(g, &o) != 0) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	if (bake_rows(&o, opt, &rows, err) != 0) {
		ordered_free(&o);
		return -1;
	}
	memset(&f, 0, sizeof f);
	graph_file(g, &o, &rows, kind, opt, &f);
	rc = path ? twz_out_write(&f, opt->name, path, err)
		  : twz_out_encode(&f, opt->name, buf, len, err);
	rows_free(&rows);
	ordered_free(&o);
	return rc;
}

int twz_bake_graph(const struct twz_digraph *g, const struct twz_graph_kind *kind,
		   const struct twz_bake_options *opt, const char *path,
		   struct twz_error *err)
{
	return bake(g, kind, opt, path, NULL, NULL, err);
}

int twz_bake_graph_encode(const struct twz_digraph *g,
			  const struct twz_graph_kind *kind,
			  const struct twz_bake_options *opt, uint8_t **buf,
			  size_t *len, struct twz_error *err)
{
	return bake(g, kind, opt, NULL, buf, len, err);
}
