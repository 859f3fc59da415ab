/*
 * bake_graph.c - the CPD bake of a weighted directed graph (see
 * bake_graph.h): node order, one search per source on the worker pool,
 * rows with wildcards, the sections of FORMAT.md section 5e.
 */
#include "bake_graph.h"
#include "twz_costs_format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apsp_dense.h"
#include "bake_forecast.h"
#include "first_moves.h"
#include "rows.h"
#include "twigz.h"
#include "twz_graph_format.h"
#include "twz_links_format.h"

#define CHUNK 64                /* sources a unit of work */
_Static_assert(TWZ_SEARCH_ARC_BITS == TWZ_GRAPH_MASK_ARCS,
	       "a row's arc sets are the file's first-arc masks");

/* g renumbered in the bake's order. */
struct ordered {
	struct twz_graph g;          /* arcs by new ids, heads ascending;
				        regions */
	uint32_t *order;             /* [n]: new -> g's node */
};

static void ordered_free(struct ordered *o)
{
	twz_graph_free(&o->g);
	free(o->order);
	memset(o, 0, sizeof *o);
}

/* g in the bake's order (twz_graph_order_dfs). */
static int order_graph(const struct twz_graph *g, struct ordered *o)
{
	memset(o, 0, sizeof *o);
	return twz_graph_order_dfs(g, &o->g, &o->order);
}

/* ---- one source's optimal first arcs, its row ----------------------------- */

/* A thread's search: each target's cost key and first arcs. */
struct worker {
	struct twz_search ws;
};

struct bake_ctx {
	const struct ordered *o;
	const struct twz_apsp *apsp;   /* dense distances, or NULL: search */
	struct twz_runs *chunk;        /* [chunks]: runs of (start, arc) */
	uint32_t *row_len;             /* [n] */
};

static int worker_init(void *ctx, void *wk)
{
	const struct bake_ctx *c = ctx;
	struct worker *w = wk;

	return twz_search_init(&w->ws, &c->o->g);
}

static void worker_fini(void *wk)
{
	struct worker *w = wk;

	twz_search_free(&w->ws);
}

/* Source s's row, onto out. */
static int graph_row(const struct bake_ctx *c, struct worker *w, uint32_t s,
		     struct twz_runs *out)
{
	if (c->apsp)
		twz_apsp_first_arcs(c->apsp, s, twz_search_lowest_arc(&c->o->g, s),
				    w->ws.entry);
	else if (twz_search_run(&w->ws, s) != 0)
		return -1;
	return twz_row_encode_arcs(&c->o->g, s, w->ws.entry, out);
}

static int bake_chunk(void *ctx, void *wk, uint32_t lo, uint32_t hi)
{
	struct bake_ctx *c = ctx;
	struct twz_runs *out = &c->chunk[lo / CHUNK];

	for (uint32_t s = lo; s < hi; s++) {
		uint32_t before = out->len;
		if (graph_row(c, wk, s, out) != 0)
			return -1;
		c->row_len[s] = (out->len - before) / 2;
	}
	return 0;
}

/* The forecast's sample: source s's row, made and thrown away, and the
 * node pairs its search settled (its region). */
static int64_t graph_sample(void *ctx, void *wk, uint32_t s)
{
	const struct bake_ctx *c = ctx;
	uint32_t r = c->o->g.node_comp[s];
	struct twz_runs row = { NULL, 0, 0 };
	int rc = graph_row(c, wk, s, &row);

	twz_runs_free(&row);
	return rc ? -1 : (int64_t)(c->o->g.comp_first[r + 1] - c->o->g.comp_first[r]);
}

/* The node pairs the searches settle: each source its region. */
static double graph_pairs(const struct ordered *o)
{
	double pairs = 0;

	for (uint32_t r = 0; r < o->g.component_count; r++) {
		double n = o->g.comp_first[r + 1] - o->g.comp_first[r];
		pairs += n * n;
	}
	return pairs;
}

/* ---- limits --------------------------------------------------------------- */

uint64_t twz_bake_graph_estimate(const struct twz_graph *g,
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

static int check_limits(const struct twz_graph *g,
			const struct twz_bake_options *opt,
			struct twz_error *err)
{
	uint32_t n = g->node_count;

	if (n > TWZ_MAX_NODES) {
		twz_error_set(err, "%s: %u nodes exceed the format's %u", opt->name, n,
			      TWZ_MAX_NODES);
		return -1;
	}
	if (!twz_graph_weight_ok(g->max_cost, n)) {
		twz_error_set(err, "%s: a weight of %llu could overflow a 64-bit path "
			      "cost over %u nodes", opt->name,
			      (unsigned long long)g->max_cost, n);
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
	uint32_t *runs;          /* [2 runs]: start, arc */
	uint64_t run_count;
	double seconds;
};

static void rows_free(struct graph_rows *r)
{
	free(r->row_offsets);
	free(r->runs);
	memset(r, 0, sizeof *r);
}

static int bake_rows(const struct ordered *o, const struct twz_bake_options *opt,
		     struct graph_rows *out, struct twz_error *err)
{
	uint32_t n = o->g.node_count;
	uint32_t chunks = (n + CHUNK - 1) / CHUNK;
	struct bake_ctx c = { .o = o };
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
		if (twz_apsp_solve(&dense, &o->g, opt->apsp, opt, err) != 0)
			goto out;
		c.apsp = &dense;
	}
	if (twz_pool_run(&pool, twz_bake_threads(opt)) != 0) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory during the "
				   "searches", opt->name);
		goto out;
	}
	out->seconds = twz_now_seconds() - started;
	int joined = twz_rows_join(c.chunk, chunks, 2, c.row_len, n, &out->runs,
				   out->row_offsets, &out->run_count);
	if (joined < 0)
		goto nomem;
	if (joined > 0) {
		twz_error_set(err, "%s: %llu runs exceed the format limit", opt->name,
			      (unsigned long long)out->run_count);
		goto out;
	}
	rc = 0;
	goto out;
nomem:
	twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
out:
	if (c.chunk)
		for (uint32_t k = 0; k < chunks; k++)
			twz_runs_free(&c.chunk[k]);
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
/* The ordered arcs as the file holds them: the graph's (GRAPH_ARC_*)
 * and the link arcs (LINK_FIRST, LINK_ARCS, FORMAT.md 5l), each node's
 * in the order its row counts them. */
struct split_arcs {
	uint32_t arc_count, link_count;
	uint32_t *arc_first, *arc_head;      /* [n + 1], [arcs] */
	uint64_t *arc_cost;
	uint32_t *link_first, *link_head;    /* [n + 1], [links] */
	uint32_t *link_number;
	uint64_t *link_cost;
};

static void split_free(struct split_arcs *sp)
{
	free(sp->arc_first);
	free(sp->arc_head);
	free(sp->arc_cost);
	free(sp->link_first);
	free(sp->link_head);
	free(sp->link_number);
	free(sp->link_cost);
	memset(sp, 0, sizeof *sp);
}

static int split_arcs(const struct ordered *o, struct split_arcs *sp)
{
	const struct twz_graph *h = &o->g;
	uint32_t n = h->node_count;
	size_t all = (size_t)h->arc_count + 1;

	memset(sp, 0, sizeof *sp);
	sp->arc_first = malloc(((size_t)n + 1) * sizeof *sp->arc_first);
	sp->link_first = malloc(((size_t)n + 1) * sizeof *sp->link_first);
	sp->arc_head = malloc(all * sizeof *sp->arc_head);
	sp->arc_cost = malloc(all * sizeof *sp->arc_cost);
	sp->link_head = malloc(all * sizeof *sp->link_head);
	sp->link_number = malloc(all * sizeof *sp->link_number);
	sp->link_cost = malloc(all * sizeof *sp->link_cost);
	if (!sp->arc_first || !sp->link_first || !sp->arc_head ||
	    !sp->arc_cost || !sp->link_head || !sp->link_number ||
	    !sp->link_cost) {
		split_free(sp);
		return -1;
	}
	for (uint32_t v = 0; v < n; v++) {
		sp->arc_first[v] = sp->arc_count;
		sp->link_first[v] = sp->link_count;
		for (uint32_t a = h->arc_first[v]; a < h->arc_first[v + 1]; a++) {
			if (!h->arc_link || h->arc_link[a] == TWZ_LINK_NONE) {
				sp->arc_head[sp->arc_count] = h->arc_head[a];
				sp->arc_cost[sp->arc_count++] = h->arc_cost[a];
			} else {
				sp->link_head[sp->link_count] = h->arc_head[a];
				sp->link_number[sp->link_count] = h->arc_link[a];
				sp->link_cost[sp->link_count++] = h->arc_cost[a];
			}
		}
	}
	sp->arc_first[n] = sp->arc_count;
	sp->link_first[n] = sp->link_count;
	return 0;
}

static void graph_file(const struct twz_graph *g, const struct ordered *o,
		       const struct split_arcs *split,
		       const struct graph_rows *rows,
		       const struct twz_graph_kind *kind,
		       const struct twz_bake_options *opt,
		       struct twz_out_file *f)
{
	const struct twz_graph *h = &o->g;
	uint32_t n = h->node_count, max_degree = 0;

	for (uint32_t v = 0; v < n; v++)
		if (h->arc_first[v + 1] - h->arc_first[v] > max_degree)
			max_degree = h->arc_first[v + 1] - h->arc_first[v];
	unsigned arc_bytes = twz_graph_arc_bytes(max_degree);

	f->h = (struct twz_out_header){
		/* 1.5 when the level has areas (FORMAT.md 5k) or off-mesh
		 * links (5l). */
		.minor = kind->features & TWZ_FEATURE_AREAS || split->link_count ? 5 : 4,
		.required_features = TWZ_FEATURE_GRAPH_LEVEL | kind->features |
				     (split->link_count ? TWZ_FEATURE_LINKS : 0),
		.level_kind = (uint8_t)kind->level_kind,
		.level_hash = g->level_hash,
		.node_count = n,
		.component_count = o->g.component_count,
		.method = TWZ_METHOD_CPD,
		.node_order = TWZ_ORDER_DFS,
		.codec = (uint8_t)opt->codec,
		.level = (int8_t)opt->level,
		.threads = twz_bake_compress_threads(opt),
		.chunk = opt->chunk,
	};
	f->name = opt->name;
	if (opt->record_build)
		twz_build_info_graph_text(opt, kind->level_kind, f->h.build_info,
					  sizeof f->h.build_info);

	uint8_t *params = calloc(1, TWZ_GP_SIZE);
	if (params) {
		twz_put32(params + TWZ_GP_ARC_COUNT, split->arc_count);
		twz_put32(params + TWZ_GP_MAX_DEGREE, max_degree);
		twz_put32(params + TWZ_GP_ARC_BYTES, arc_bytes);
		twz_put32(params + TWZ_GP_FLAGS, g->coord ? TWZ_GF_COORDS : 0);
		twz_put64(params + TWZ_GP_RUN_COUNT, rows->run_count);
		twz_put64(params + TWZ_GP_MAX_WEIGHT, h->max_cost);
		twz_put32(params + TWZ_GP_ID_BASE, g->id_base);
	}
	twz_out_add_owned(f, TWZ_SECTION_GRAPH_PARAMS, params, TWZ_GP_SIZE);
	twz_out_add_le32(f, TWZ_SECTION_GRAPH_REGIONS, o->g.comp_first,
			 (size_t)o->g.component_count + 1);
	twz_out_add_le32(f, TWZ_SECTION_GRAPH_ARC_FIRST, split->arc_first,
			 (size_t)n + 1);
	twz_out_add_le32(f, TWZ_SECTION_GRAPH_ARC_HEAD, split->arc_head,
			 split->arc_count);
	twz_out_add_owned(f, TWZ_SECTION_GRAPH_ARC_WEIGHT,
			  le64_copy(split->arc_cost, split->arc_count),
			  (size_t)split->arc_count * 8);

	uint32_t *ids = malloc(((size_t)n + 1) * sizeof *ids);
	uint32_t *inv = malloc(((size_t)n + 1) * sizeof *inv);
	if (ids && inv)
		for (uint32_t v = 0; v < n; v++) {
			ids[v] = g->id_base + o->order[v];
			inv[o->order[v]] = v;
		}
	else
		f->failed = 1;
	twz_out_add_le32_owned(f, TWZ_SECTION_GRAPH_NODE_ID, ids, n);
	twz_out_add_le32_owned(f, TWZ_SECTION_GRAPH_ID_NODE, inv, n);
	twz_out_add_le32(f, TWZ_SECTION_GRAPH_ROW_OFFSETS, rows->row_offsets,
			 (size_t)n + 1);
	uint8_t *starts = malloc(rows->run_count * 4 + 1);
	uint8_t *arcs = malloc(rows->run_count ? rows->run_count * arc_bytes : 1);
	if (starts && arcs) {
		uint32_t none = twz_graph_unreachable(arc_bytes);
		for (uint64_t i = 0; i < rows->run_count; i++) {
			uint32_t a = rows->runs[2 * i + 1];
			a = a == TWZ_ROW_NO_ARC ? none : a;
			twz_put32(starts + 4 * i, rows->runs[2 * i]);
			if (arc_bytes == 1)
				arcs[i] = (uint8_t)a;
			else if (arc_bytes == 2)
				twz_put16(arcs + 2 * i, (uint16_t)a);
			else
				twz_put32(arcs + 4 * i, a);
		}
	}
	twz_out_add_owned(f, TWZ_SECTION_GRAPH_RUN_START, starts,
			  (size_t)rows->run_count * 4);
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
	if (split->link_count) {
		twz_out_add_le32(f, TWZ_SECTION_LINK_FIRST, split->link_first,
				 (size_t)n + 1);
		uint8_t *la = malloc((size_t)split->link_count * TWZ_LA_SIZE);
		if (la)
			for (uint32_t i = 0; i < split->link_count; i++) {
				uint8_t *r = la + (size_t)i * TWZ_LA_SIZE;
				twz_put32(r + TWZ_LA_HEAD, split->link_head[i]);
				twz_put32(r + TWZ_LA_LINK, split->link_number[i]);
				twz_put64(r + TWZ_LA_WEIGHT, split->link_cost[i]);
			}
		twz_out_add_owned(f, TWZ_SECTION_LINK_ARCS, la,
				  (size_t)split->link_count * TWZ_LA_SIZE);
	}
	for (unsigned i = 0; i < kind->extra_count; i++)
		twz_out_add(f, kind->extra[i].kind, kind->extra[i].raw,
			    kind->extra[i].raw_size);
}

static int bake(const struct twz_graph *g, const struct twz_graph_kind *kind,
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
	/* Off-mesh links are arcs of the bake's graph (FORMAT.md 5l). */
	struct twz_graph gl;
	const struct twz_graph *gb = g;
	if (g->link_count) {
		if (kind->level_kind != TWZ_LEVEL_GRAPH) {
			twz_error_set(err, "%s: off-mesh links go with a graph level",
				      opt->name);
			return -1;
		}
		if (twz_graph_with_links(g, &gl, opt->name, err) != 0)
			return -1;
		gb = &gl;
	}
	rc = order_graph(gb, &o);
	if (gb != g)
		twz_graph_free(&gl);
	if (rc != 0) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	if (bake_rows(&o, opt, &rows, err) != 0) {
		ordered_free(&o);
		return -1;
	}
	struct split_arcs sp;
	if (split_arcs(&o, &sp) != 0) {
		rows_free(&rows);
		ordered_free(&o);
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	memset(&f, 0, sizeof f);
	graph_file(g, &o, &sp, &rows, kind, opt, &f);
	rc = path ? twz_out_write(&f, path, err)
		  : twz_out_encode(&f, buf, len, err);
	split_free(&sp);
	rows_free(&rows);
	ordered_free(&o);
	return rc;
}

int twz_bake_graph(const struct twz_graph *g, const struct twz_graph_kind *kind,
		   const struct twz_bake_options *opt, const char *path,
		   struct twz_error *err)
{
	return bake(g, kind, opt, path, NULL, NULL, err);
}

int twz_bake_graph_encode(const struct twz_graph *g,
			  const struct twz_graph_kind *kind,
			  const struct twz_bake_options *opt, uint8_t **buf,
			  size_t *len, struct twz_error *err)
{
	return bake(g, kind, opt, NULL, buf, len, err);
}
