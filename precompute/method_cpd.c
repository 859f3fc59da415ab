/*
 * method_cpd.c - the CPD method: one first-move search per source on the
 * worker pool, each row run-length encoded, rows gathered in source
 * order; then its sections (format 1.0 plain runs, 1.1 bucketed rows,
 * 1.2 with narrow cells, 1.4 inline-summarised rows) for the writer.
 */
#include "bake.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ZSTD_STATIC_LINKING_ONLY  /* ZSTD_estimateCCtxSize_usingCParams */
#include <zstd.h>

#include "apsp_dense.h"
#include "cpd_lines.h"
#include "bake_forecast.h"
#include "bake_method.h"
#include "first_moves.h"
#include "level_costs.h"
#include "search_costed.h"
#include "rows.h"
#include "rows_inline.h"
#include "shard.h"
#include "spool.h"
#include "twz_writer.h"

#define CHUNK 64  /* sources per unit of work */

struct cpd_ctx {
	const struct twz_graph *graph;
	uint32_t first;                 /* source of item 0 (a shard's first) */
	int direction;                  /* direction symbols in the rows */
	struct twz_runs *chunk_runs;    /* [chunks]: each chunk's, until joined */
	uint32_t *row_len;              /* [node_count] */
	const struct twz_apsp *apsp;    /* dense distances, or NULL: search */
	struct twz_apsp dense;
	struct twz_gather rows;         /* the rows joined in source order */
	const uint32_t *cell_milli;     /* areas' costs, or NULL */
};

/* A worker's search: by the bucket ring, or, on a grid with areas, the
 * costed one. */
struct cpd_worker {
	int costed;
	union {
		struct twz_search plain;
		struct twz_costed_search costed;
	} s;
};

static int cpd_worker_init(void *ctx, void *wk)
{
	const struct cpd_ctx *c = ctx;
	struct cpd_worker *w = wk;

	w->costed = c->cell_milli != NULL;
	if (w->costed)
		return twz_costed_init(&w->s.costed, c->graph, c->cell_milli);
	return twz_search_init(&w->s.plain, c->graph);
}

static void cpd_worker_fini(void *wk)
{
	struct cpd_worker *w = wk;

	if (w->costed)
		twz_costed_free(&w->s.costed);
	else
		twz_search_free(&w->s.plain);
}

/* Source s's row, onto out. */
static int cpd_row(const struct cpd_ctx *c, struct cpd_worker *w, uint32_t s,
		   struct twz_runs *out)
{
	const struct twz_graph *gr = c->graph;
	uint8_t *moves = w->costed ? w->s.costed.moves : w->s.plain.moves;
	int searched = 0;

	if (c->apsp)
		twz_apsp_moves(c->apsp, s, moves);
	else if (w->costed)
		searched = twz_costed_run(&w->s.costed, s);
	else
		searched = twz_search_run(&w->s.plain, s);
	if (searched != 0 ||
	    (c->direction ? twz_row_encode_direction(gr, s, moves, out)
			  : twz_row_encode(gr, s, moves, out)) != 0)
		return -1;
	return 0;
}

/* The rows of sources [lo, hi), into their chunk's runs, then joined. */
static int cpd_chunk(void *ctx, void *wk, uint32_t lo, uint32_t hi)
{
	struct cpd_ctx *c = ctx;
	struct twz_runs *out = &c->chunk_runs[lo / CHUNK];

	for (uint32_t s = c->first + lo; s < c->first + hi; s++) {
		uint32_t before = out->len;
		if (cpd_row(c, wk, s, out) != 0)
			return -1;
		c->row_len[s] = out->len - before;
	}
	return twz_gather_put_runs(&c->rows, lo / CHUNK, out);
}

/* The forecast's sample: source `item`'s row, made and thrown away, and
 * the node pairs its search settled (its region). */
static int64_t cpd_sample(void *ctx, void *wk, uint32_t item)
{
	const struct cpd_ctx *c = ctx;
	const struct twz_graph *gr = c->graph;
	uint32_t s = c->first + item;
	struct twz_runs row = { NULL, 0, 0 };
	int rc = cpd_row(c, wk, s, &row);

	twz_runs_free(&row);
	if (rc != 0)
		return -1;
	if (!gr->comp_first)
		return gr->node_count;
	uint32_t r = gr->node_comp[s];
	return gr->comp_first[r + 1] - gr->comp_first[r];
}

/* The node pairs the searches from sources [first, end) settle: each
 * its source's region. */
static double cpd_pairs(const struct twz_graph *gr, uint32_t first,
			uint32_t end)
{
	double pairs = 0;

	if (!gr->comp_first)
		return (double)(end - first) * gr->node_count;
	for (uint32_t r = 0; r < gr->component_count; r++) {
		uint32_t lo = gr->comp_first[r], hi = gr->comp_first[r + 1];
		uint32_t a = lo > first ? lo : first, b = hi < end ? hi : end;
		if (a < b)
			pairs += (double)(b - a) * (hi - lo);
	}
	return pairs;
}

/* ---- the estimates ---------------------------------------------------- */

/* What the solver of opt->apsp holds beyond the searches' bake. */
static uint64_t solver_estimate(const struct twz_grid *g, uint64_t nodes,
				const struct twz_bake_options *opt)
{
	if (opt->apsp == TWZ_APSP_LINES)
		return twz_lines_estimate_bytes(g->width, g->height, nodes,
						twz_bake_threads(opt));
	return twz_apsp_estimate_bytes(nodes, opt->apsp);
}

uint64_t twz_bake_stream_estimate_bytes(const struct twz_grid *g,
					uint64_t nodes,
					const struct twz_bake_options *opt)
{
	double cells = (double)g->width * g->height;
	double n = (double)nodes;
	unsigned threads = twz_bake_threads(opt);
	/* Rows as twz_bake_estimate_bytes guesses them: what the chunks in
	 * flight hold, and the largest spooled section (ROWS, u16). */
	double row = 32.0 + sqrt(n) / 2.0;
	double rows_bytes = n * row * 2.0;
	double base = 5.0 * cells + 80.0 * n + 8.0 * n + 8.0 * n
		      + (double)solver_estimate(g, nodes, opt)
		      + (8 << 20);   /* the program itself */
	/* While searching: a workspace and a few chunks of rows (with
	 * growth slack) a thread, some waiting to be joined. */
	double search = 26.0 * n * threads + threads * 4.0 * CHUNK * row * 4.0;
	/* While encoding: the records (16 bytes a node in 1.4), and the
	 * pages of rows read and written between two trims. */
	double encode = 16.0 * n + 4096.0 * row * 6.0;
	/* While writing: the cell map's copy, and the largest of the
	 * in-memory sections (the records) compressed at once, or the
	 * spool's window. */
	double write = 4.0 * cells;
	double records = 16.0 * n;
	if (opt->codec == TWZ_CODEC_ZSTD) {
		double mem = records + ZSTD_compressBound((size_t)records) +
			     ZSTD_estimateCCtxSize_usingCParams(
				     ZSTD_getCParams(opt->level, (size_t)records + 1, 0));
		double spool = (double)twz_spool_write_bytes((uint64_t)rows_bytes,
							     opt->level);
		write += mem > spool ? mem : spool;
	} else {
		write += 2.0 * TWZ_SPOOL_PIECE;
	}
	double peak = search > encode ? search : encode;
	if (write > peak)
		peak = write;
	double bytes = base + peak;
	return bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)bytes;
}

static uint64_t cpd_estimate(const struct twz_grid *g, uint64_t nodes,
			     const struct twz_bake_options *opt,
			     const void *spooled)
{
	if (spooled)
		return twz_bake_stream_estimate_bytes(g, nodes, opt);
	return twz_bake_estimate_bytes((uint64_t)g->width * g->height, nodes,
				       twz_bake_threads(opt), opt->codec,
				       opt->level) +
	       solver_estimate(g, nodes, opt);
}

int twz_bake_check_limits(const struct twz_grid *g,
			  const struct twz_bake_options *opt,
			  struct twz_error *err)
{
	if (twz_apsp_check_level(g, opt, err) != 0)
		return -1;
	return twz_bake_check(g, opt, cpd_estimate, NULL, err);
}

/* ---- shards ----------------------------------------------------------- */

/* The first source whose running weight (the sum over the sources
 * before it) reaches target. */
static uint32_t weight_boundary(const struct twz_graph *gr, uint64_t target)
{
	uint64_t before = 0;

	if (target == 0)
		return 0;
	if (!gr->comp_first)  /* no regions to weigh: one a source */
		return target < gr->node_count ? (uint32_t)target : gr->node_count;
	for (uint32_t c = 0; c < gr->component_count; c++) {
		uint64_t lo = gr->comp_first[c];
		uint64_t size = gr->comp_first[c + 1] - lo;
		if (before + size * size >= target)
			return (uint32_t)(lo + (target - before + size - 1) / size);
		before += size * size;
	}
	return gr->node_count;
}

void twz_cpd_shard_range(const struct twz_graph *gr, unsigned index,
		     unsigned count, uint32_t *first, uint32_t *end)
{
	uint64_t total = 0;

	if (gr->comp_first)
		for (uint32_t c = 0; c < gr->component_count; c++) {
			uint64_t size = gr->comp_first[c + 1] - gr->comp_first[c];
			total += size * size;
		}
	else
		total = gr->node_count;
	/* floor(k * total / count) without overflow: total < 2^53, and
	 * count and k are at most 2^16. */
	uint64_t q = total / count, r = total % count;
	uint64_t lo_target = q * (index - 1) + r * (index - 1) / count;
	uint64_t hi_target = q * index + r * index / count;

	*first = index <= 1 ? 0 : weight_boundary(gr, lo_target);
	*end = index >= count ? gr->node_count : weight_boundary(gr, hi_target);
	if (*end < *first)
		*end = *first;
}

/* ---- the bake, in the steps of bake_method.h ----------------------------- */

static int cpd_prepare(const struct twz_grid *g, const struct twz_bake_options *opt,
		       struct twz_spool *spool, void **db, struct twz_error *err)
{
	struct twz_cpd *cpd = calloc(1, sizeof *cpd);

	*db = cpd;
	if (!cpd) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	cpd->spool = spool;
	cpd->layout = twz_bake_layout(opt);
	if (twz_apsp_check_level(g, opt, err) != 0 ||
	    twz_bake_check(g, opt, cpd_estimate, spool, err) != 0 ||
	    twz_graph_build(g, opt->connectivity, &cpd->graph, err) != 0)
		return -1;
	cpd->row_offsets = calloc((size_t)cpd->graph.node_count + 1, sizeof(uint32_t));
	if (!cpd->row_offsets) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	return 0;
}

/* The rows of shard index of count (1 of 1: every row); the rows of
 * other shards are left empty. */
static int cpd_bake(void *db, const struct twz_bake_options *opt,
		    unsigned index, unsigned count, struct twz_error *err)
{
	struct twz_cpd *cpd = db;
	const struct twz_graph *gr = &cpd->graph;
	struct cpd_ctx c = { 0 };
	uint32_t first, end;
	int rc = -1;

	if (opt->apsp == TWZ_APSP_LINES && count == 1) {
		/* Shards are refused (twz_bake_refusal): rows come a box at a
		 * time, not in node order. */
		int r = twz_lines_rows(gr, opt, NULL, cpd->layout != TWZ_LAYOUT_PLAIN,
				       cpd, err);
		if (r <= 0)
			return r;
		/* Distances too long for its keys: one search a source. */
	}
	twz_cpd_shard_range(gr, index, count, &first, &end);
	uint32_t chunks = (end - first + CHUNK - 1) / CHUNK;
	struct twz_pool pool = {
		.opt = opt, .spool = cpd->spool, .items = end - first, .chunk = CHUNK,
		.worker_size = sizeof(struct cpd_worker),
		.init = cpd_worker_init, .fini = cpd_worker_fini,
		.run = cpd_chunk, .ctx = &c,
	};

	c.graph = gr;
	c.cell_milli = opt->cell_milli;
	c.first = first;
	c.direction = cpd->layout != TWZ_LAYOUT_PLAIN;
	c.chunk_runs = calloc(chunks ? chunks : 1, sizeof *c.chunk_runs);
	c.row_len = calloc(gr->node_count ? gr->node_count : 1, sizeof(uint32_t));
	if (!c.chunk_runs || !c.row_len ||
	    twz_gather_init(&c.rows, chunks, cpd->spool) != 0) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		goto out_free;
	}
	if (twz_bake_forecast(&pool, cpd_sample, cpd_pairs(gr, first, end), 0,
			      NULL, err) != 0)
		goto out_free;
	double started = twz_now_seconds();
	/* Only the dense solvers build the matrix; lines that fell back
	 * search as dijkstra does. */
	if (opt->apsp == TWZ_APSP_FLOYD || opt->apsp == TWZ_APSP_SQUARING) {
		if (twz_graph_arcs(&cpd->graph) != 0) {
			twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
			goto out_free;
		}
		if (twz_apsp_solve(&c.dense, gr, opt->apsp, opt, err) != 0)
			goto out_free;
		c.apsp = &c.dense;
	}
	int failed = twz_pool_run(&pool, twz_bake_threads(opt));
	cpd->seconds = twz_now_seconds() - started;
	cpd->runs = c.rows.v;
	cpd->run_count = c.rows.len / 4;
	if (failed) {
		twz_error_kind_set(err, cpd->spool ? TWZ_ERR_IO : TWZ_ERR_NOMEM,
				   "%s: %s during the searches", opt->name,
				   cpd->spool ? "the temporary file failed" : "out of memory");
		goto out_free;
	}
	if (cpd->run_count > TWZ_MAX_RUNS) {
		twz_error_set(err, "%s: %llu runs exceed the format limit", opt->name,
			      (unsigned long long)cpd->run_count);
		goto out_free;
	}
	for (uint32_t s = 0; s < gr->node_count; s++)
		cpd->row_offsets[s + 1] = cpd->row_offsets[s] + c.row_len[s];
	rc = 0;
out_free:
	if (c.chunk_runs)
		for (uint32_t k = 0; k < chunks; k++)
			twz_runs_free(&c.chunk_runs[k]);
	free(c.chunk_runs);
	free(c.row_len);
	if (c.rows.wait)
		twz_gather_end(&c.rows);
	if (c.apsp)
		twz_apsp_free(&c.dense);
	return rc;
}

/* One stream: the rows of the shard's sources, in runs. */
static unsigned cpd_results(const void *db, unsigned index, unsigned count,
			    struct twz_stream *s)
{
	const struct twz_cpd *cpd = db;
	uint32_t first, end;

	twz_cpd_shard_range(&cpd->graph, index, count, &first, &end);
	s[0] = (struct twz_stream){
		first, end, cpd->row_offsets, 4,
		twz_stream_bytes(cpd->runs, 4 * (uint64_t)cpd->row_offsets[first]),
		4 * (uint64_t)(cpd->row_offsets[end] - cpd->row_offsets[first]),
	};
	return 1;
}

static int cpd_adopt(void *db, const struct twz_bake_options *opt,
		     struct twz_stream *s, struct twz_error *err)
{
	struct twz_cpd *cpd = db;

	(void)opt;
	(void)err;
	free(cpd->row_offsets);
	cpd->row_offsets = s[0].at;
	cpd->runs = s[0].bytes;
	cpd->run_count = s[0].size / 4;
	s[0].at = NULL;
	s[0].bytes = NULL;
	return 0;
}

/* Every source's row as check 38 (or 47) of the merged file asks:
 * runs from target 0, rising inside the source's region, of symbols
 * the source may hold. */
static unsigned cpd_verify(const void *db, struct twz_blame bad[2],
			   const char **why)
{
	const struct twz_cpd *cpd = db;
	const struct twz_graph *gr = &cpd->graph;
	int direction = cpd->layout != TWZ_LAYOUT_PLAIN;

	for (uint32_t s = 0; s < gr->node_count; s++) {
		uint32_t at = cpd->row_offsets[s], n = cpd->row_offsets[s + 1] - at;
		uint32_t region_end = gr->comp_first
			? gr->comp_first[gr->node_comp[s] + 1] : gr->node_count;
		int ok = n > 0;
		for (uint32_t r = 0; r < n && ok; r++) {
			uint32_t run = cpd->runs[at + r];
			uint32_t start = run >> TWZ_RUN_SYMBOL_BITS;
			uint32_t prev = r ? cpd->runs[at + r - 1] >> TWZ_RUN_SYMBOL_BITS : 0;
			ok = (r == 0 ? start == 0 : start > prev && start < region_end) &&
			     twz_run_symbol_ok(gr, s, run & TWZ_RUN_SYMBOL_MASK, direction, 0);
		}
		if (!ok) {
			bad[0] = (struct twz_blame){ 0, s };
			*why = "a row's runs";
			return 1;
		}
	}
	return 0;
}

static int cpd_finish(void *db, const struct twz_bake_options *opt,
		      struct twz_error *err)
{
	(void)db;
	(void)opt;
	(void)err;
	return 0;
}

static void cpd_summary(const void *db, unsigned index, unsigned count,
			struct twz_text *t)
{
	const struct twz_cpd *cpd = db;
	const struct twz_graph *gr = &cpd->graph;
	double pairs = (double)gr->node_count * gr->node_count;
	uint32_t first, end;

	if (count) {
		twz_cpd_shard_range(gr, index, count, &first, &end);
		twz_text_printf(t, "sources [%u, %u) of %u, %" PRIu64 " runs, "
				"searches %.2fs", first, end, gr->node_count,
				(uint64_t)cpd->row_offsets[end] - cpd->row_offsets[first],
				cpd->seconds);
		return;
	}
	twz_text_printf(t, "%u nodes, %u regions, %" PRIu64 " runs (%.2f bits per "
			"pair), searches %.2fs (%.1fM pairs/s)", gr->node_count,
			gr->component_count, cpd->run_count,
			pairs > 0 ? cpd->run_count * 32.0 / pairs : 0.0, cpd->seconds,
			cpd->seconds > 0 ? pairs / cpd->seconds / 1e6 : 0.0);
}

static void cpd_counts(const void *db, uint64_t *runs, double *seconds)
{
	const struct twz_cpd *cpd = db;

	*runs = cpd->run_count;
	*seconds = cpd->seconds;
}

static void cpd_free(void *db)
{
	if (db) {
		twz_cpd_free(db);
		free(db);
	}
}

static uint64_t cpd_estimate_of(const struct twz_grid *g, uint64_t nodes,
				const struct twz_bake_options *opt, int spooled)
{
	return cpd_estimate(g, nodes, opt, spooled ? opt : NULL);
}

static void cpd_emit(const void *db, const struct twz_grid *g,
		     const struct twz_bake_options *opt, struct twz_out_file *f);

const struct twz_bake_method twz_cpd_method = {
	.name = "cpd",
	.what = "",
	.estimate = cpd_estimate_of,
	.prepare = cpd_prepare,
	.bake = cpd_bake,
	.results = cpd_results,
	.adopt = cpd_adopt,
	.verify = cpd_verify,
	.finish = cpd_finish,
	.emit = cpd_emit,
	.summary = cpd_summary,
	.counts = cpd_counts,
	.free = cpd_free,
};

int twz_bake_cpd(const struct twz_grid *g, const struct twz_bake_options *opt,
		 struct twz_cpd *out, struct twz_error *err)
{
	void *db = NULL;

	if (cpd_prepare(g, opt, NULL, &db, err) == 0 &&
	    cpd_bake(db, opt, 1, 1, err) == 0) {
		*out = *(struct twz_cpd *)db;
		free(db);
		return 0;
	}
	memset(out, 0, sizeof *out);
	cpd_free(db);
	return -1;
}

void twz_cpd_free(struct twz_cpd *cpd)
{
	twz_graph_free(&cpd->graph);
	free(cpd->row_offsets);
	twz_big_free(cpd->spool, cpd->runs);
	memset(cpd, 0, sizeof *cpd);
}

/* u16 little-endian cells for format 1.2, TWZ_NODE_NONE as 0xFFFF
 * (every node is below it). */
static uint8_t *le_copy16(const uint32_t *v, size_t n)
{
	uint8_t *b = malloc(n ? n * 2 : 1);
	if (!b)
		return NULL;
	for (size_t i = 0; i < n; i++)
		twz_put16(b + 2 * i, v[i] == TWZ_NODE_NONE ? TWZ_NARROW_NONE
							  : (uint16_t)v[i]);
	return b;
}

/* A row section being made: little-endian u16 appended to a big array
 * of the bake's spool (or memory). */
struct row_out {
	struct twz_spool *spool;
	uint8_t *b;
	size_t len, cap;         /* bytes */
};

static int row_put(struct row_out *o, const uint16_t *v, uint32_t n)
{
	if (o->len + 2 * (size_t)n > o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 1 << 16;
		while (cap < o->len + 2 * (size_t)n)
			cap *= 2;
		uint8_t *nb = twz_big_grow(o->spool, o->b, o->cap, cap);
		if (!nb)
			return -1;
		o->b = nb;
		o->cap = cap;
	}
	for (uint32_t i = 0; i < n; i++)
		twz_put16(o->b + o->len + 2 * (size_t)i, v[i]);
	o->len += 2 * (size_t)n;
	return 0;
}

/*
 * The bucketed row sections of cpd (format 1.1 NODE_RECORDS, or 1.4
 * INLINE_RECORDS_WIDE with each row's first buckets summarised in its
 * record), REGIONS, and ROWS or INLINE_ROWS (a big array of the spool
 * when cpd's rows are there). Returns 1 when a row cannot be written so
 * (the caller falls back to an older layout), -1 when out of memory, 0
 * on success.
 */
static int encode_bucketed(const struct twz_cpd *cpd, unsigned max_scan,
			   int inline_rows, uint8_t **records, uint8_t **regions,
			   uint8_t **rows, size_t *rows_bytes)
{
	const struct twz_graph *gr = &cpd->graph;
	size_t rec_size = inline_rows ? TWZ_INLINE_WIDE_RECORD_SIZE : TWZ_RECORD_SIZE;
	struct row_out o = { cpd->spool, NULL, 0, 0 };
	uint16_t *tmp = NULL;
	size_t tmp_cap = 0;
	int rc = -1;

	*records = malloc((size_t)gr->node_count * rec_size + 1);
	*regions = twz_le32_copy(gr->comp_first, (size_t)gr->component_count + 1);
	if (!*records || !*regions)
		goto fail;
	for (uint32_t s = 0; s < gr->node_count; s++) {
		uint32_t comp = gr->node_comp[s];
		uint32_t lo = gr->comp_first[comp];
		uint32_t len = gr->comp_first[comp + 1] - lo;
		uint32_t first = cpd->row_offsets[s];
		uint32_t n = cpd->row_offsets[s + 1] - first;
		uint64_t need = inline_rows ? twz_row_inline_max(n, len)
					    : twz_row_bucketized_max(n, len);
		size_t used = o.len / 2;
		uint8_t *rec = *records + (size_t)s * rec_size;
		uint8_t shift;
		uint32_t got;
		if (!inline_rows && n > TWZ_MAX_ROW_RUNS) {
			rc = 1;
			goto fail;
		}
		if (need > tmp_cap) {
			uint16_t *nt = realloc(tmp, need * sizeof *nt);
			if (!nt)
				goto fail;
			tmp = nt;
			tmp_cap = need;
		}
		if (used > TWZ_ROW_OFFSET_MASK) {
			rc = 1;
			goto fail;
		}
		if (inline_rows) {
			uint64_t summary[2];
			if (twz_row_inline(cpd->runs + first, n, lo, len,
					   TWZ_INLINE_WIDE_BUCKETS, max_scan, tmp,
					   &got, &shift, summary) != 0) {
				rc = 1;
				goto fail;
			}
			twz_put64(rec + TWZ_IR_SUMMARY, summary[0]);
			twz_put64(rec + TWZ_IR_SUMMARY + 8, summary[1]);
		} else {
			uint16_t buckets;
			got = twz_row_bucketize(cpd->runs + first, n, lo, len,
						max_scan, tmp, &shift, &buckets);
			if (!got || used + got > UINT32_MAX) {
				rc = 1;
				goto fail;
			}
		}
		twz_put32(rec + TWZ_R_ROW, (uint32_t)used |
			  (uint32_t)shift << TWZ_ROW_OFFSET_BITS);
		twz_put16(rec + TWZ_R_X, gr->node_x[s]);
		twz_put16(rec + TWZ_R_Y, gr->node_y[s]);
		if (row_put(&o, tmp, got) != 0)
			goto fail;
		/* What the rows read and written here touched of the spool
		 * goes back to it. */
		if (s % 4096 == 4095)
			twz_spool_trim(cpd->spool);
	}
	if (inline_rows && o.len / 2 > TWZ_ROW_OFFSET_MASK) {
		rc = 1;
		goto fail;
	}
	if (!o.b && !(o.b = twz_big_alloc(cpd->spool, 1)))
		goto fail;
	*rows = o.b;
	*rows_bytes = o.len;
	free(tmp);
	return 0;
fail:
	twz_big_free(cpd->spool, o.b);
	free(tmp);
	free(*records);
	free(*regions);
	*records = *regions = NULL;
	return rc;
}

/* The rows' sections of a CPD bake, into f. */
static void cpd_emit_rows(const void *db, const struct twz_grid *g,
			  const struct twz_bake_options *opt,
			  struct twz_out_file *f)
{
	const struct twz_cpd *cpd = db;
	const struct twz_graph *gr = &cpd->graph;
	size_t cells = (size_t)gr->width * gr->height;
	unsigned max_scan = opt->max_scan ? opt->max_scan : 64;
	unsigned layout = cpd->layout;
	uint8_t *records = NULL, *regions = NULL, *rows = NULL;
	size_t rows_bytes = 0;
	int fit = 1;     /* 0: the rows fit the bucketed layout asked */

	twz_bake_header(&f->h, g, gr, opt, TWZ_METHOD_CPD);
	f->name = opt->name;
	f->spool = cpd->spool;
	/* Rows first: the layout they fit decides the cell map's width. Rows
	 * that outgrow 1.4's records keep 1.2's; a row too long for u16 run
	 * indices keeps the direction symbols in the plain run layout,
	 * searched by bisection. */
	if (layout == TWZ_LAYOUT_INLINE) {
		fit = encode_bucketed(cpd, max_scan, 1, &records, &regions, &rows,
				      &rows_bytes);
		layout = fit == 1 ? TWZ_LAYOUT_NARROW : layout;
	}
	if (fit == 1 && layout != TWZ_LAYOUT_PLAIN)
		fit = encode_bucketed(cpd, max_scan, 0, &records, &regions, &rows,
				      &rows_bytes);
	if (fit < 0) {
		f->failed = 1;
		return;
	}
	/* Narrow cells are a 1.2 feature of the bucketed layouts. */
	int narrow = fit == 0 && layout >= TWZ_LAYOUT_NARROW &&
		     gr->node_count < TWZ_NARROW_NONE;
	if (narrow)
		twz_out_add_owned(f, TWZ_SECTION_CELL_NODE,
				  le_copy16(gr->cell_node, cells), cells * 2);
	else
		twz_out_add_le32(f, TWZ_SECTION_CELL_NODE, gr->cell_node, cells);
	uint64_t narrow_bit = narrow ? TWZ_FEATURE_NARROW_CELL_NODE : 0;
	size_t regions_bytes = ((size_t)gr->component_count + 1) * 4;
	if (fit == 0 && layout == TWZ_LAYOUT_INLINE) {
		f->h.minor = 4;
		f->h.required_features = TWZ_FEATURE_DIRECTION_SYMBOLS |
					 TWZ_FEATURE_CPD_INLINE | narrow_bit;
		twz_out_add_owned(f, TWZ_SECTION_REGIONS, regions, regions_bytes);
		twz_out_add_owned(f, TWZ_SECTION_INLINE_RECORDS_WIDE, records,
				  (size_t)gr->node_count * TWZ_INLINE_WIDE_RECORD_SIZE);
		twz_out_add_owned(f, TWZ_SECTION_INLINE_ROWS, rows, rows_bytes);
		return;
	}
	if (fit == 0) {
		f->h.minor = narrow ? 2 : 1;
		f->h.required_features = TWZ_FEATURE_DIRECTION_SYMBOLS |
					 TWZ_FEATURE_BUCKETED_ROWS | narrow_bit;
		twz_out_add_owned(f, TWZ_SECTION_NODE_RECORDS, records,
				  (size_t)gr->node_count * TWZ_RECORD_SIZE);
		twz_out_add_owned(f, TWZ_SECTION_REGIONS, regions, regions_bytes);
		twz_out_add_owned(f, TWZ_SECTION_ROWS, rows, rows_bytes);
		return;
	}
	twz_out_add_le32(f, TWZ_SECTION_NODE_CELL, gr->node_cell, gr->node_count);
	twz_out_add_le32(f, TWZ_SECTION_NODE_COMPONENT, gr->node_comp, gr->node_count);
	twz_out_add_le32(f, TWZ_SECTION_ROW_OFFSETS, cpd->row_offsets,
			 (size_t)gr->node_count + 1);
	twz_out_add_le32(f, TWZ_SECTION_RUNS, cpd->runs, cpd->run_count);
	if (layout != TWZ_LAYOUT_PLAIN) {
		f->h.minor = 1;
		f->h.required_features = TWZ_FEATURE_DIRECTION_SYMBOLS;
	}
}

/* A file with areas holds them (FORMAT.md 5k): its costs are in units
 * a reader must know, so a required feature bit and minor 5. */
static void costs_sections(const struct twz_bake_options *opt,
			   struct twz_out_file *f)
{
	const struct twz_level_costs *lc = opt->costs;
	size_t size;

	if (!lc)
		return;
	uint8_t *areas = twz_areas_section(lc, &size);
	twz_out_add_owned(f, TWZ_SECTION_AREAS, areas, size);
	twz_out_add(f, TWZ_SECTION_PLACE_AREA, lc->place_area, lc->places);
	f->h.minor = 5;
	f->h.required_features |= TWZ_FEATURE_AREAS;
}

/* The sections of a CPD bake, into f: the rows, and the areas of a
 * level baked with their costs. */
static void cpd_emit(const void *db, const struct twz_grid *g,
		     const struct twz_bake_options *opt, struct twz_out_file *f)
{
	cpd_emit_rows(db, g, opt, f);
	costs_sections(opt, f);
}

int twz_cpd_encode(const struct twz_cpd *cpd, const struct twz_grid *g,
		   const struct twz_bake_options *opt, uint8_t **buf,
		   size_t *len, struct twz_error *err)
{
	struct twz_out_file f = { 0 };

	cpd_emit(cpd, g, opt, &f);
	return twz_out_encode(&f, buf, len, err);
}

int twz_cpd_write(const struct twz_cpd *cpd, const struct twz_grid *g,
		  const struct twz_bake_options *opt, const char *path,
		  struct twz_error *err)
{
	struct twz_out_file f = { 0 };

	cpd_emit(cpd, g, opt, &f);
	return twz_out_write(&f, path, err);
}
