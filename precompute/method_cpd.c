/*
 * method_cpd.c - the CPD method: one first-move search per source on the
 * worker pool, each row run-length encoded, rows gathered in source
 * order; then its sections (format 1.0 plain runs, 1.1 bucketed rows,
 * 1.2 with narrow cells, 1.4 inline-summarised rows) for the writer.
 */
#include "bake.h"

#include <stdlib.h>
#include <string.h>

#include "apsp_dense.h"
#include "bake_forecast.h"
#include "first_moves.h"
#include "level_costs.h"
#include "search_costed.h"
#include "rows.h"
#include "rows_inline.h"
#include "shard.h"
#include "twz_writer.h"

#define CHUNK 64  /* sources per unit of work */

struct cpd_ctx {
	const struct twz_graph *graph;
	uint32_t first;                 /* source of item 0 (a shard's first) */
	int direction;                  /* direction symbols in the rows */
	struct twz_runs *chunk_runs;    /* [chunks] */
	uint32_t *row_len;              /* [node_count] */
	const struct twz_apsp *apsp;    /* dense distances, or NULL: search */
	struct twz_apsp dense;
	const struct twz_cpd_spill *spill; /* chunks leave memory here */
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

/* The rows of sources [lo, hi), into their chunk's runs. */
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
	if (c->spill)
		return c->spill->chunk(c->spill->ctx, lo / CHUNK, out);
	return 0;
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

/* The rows of shard index of count (1 of 1: every row); the rows of
 * other shards are left empty. */
static int bake_cpd(const struct twz_grid *g, const struct twz_bake_options *opt,
		    unsigned index, unsigned count,
		    const struct twz_cpd_spill *spill, struct twz_cpd *out,
		    struct twz_error *err)
{
	struct cpd_ctx c = { 0 };
	uint32_t first, end;
	uint32_t chunks = 0;
	int rc = -1;

	memset(out, 0, sizeof *out);
	/* A spilled bake checks its own, smaller, estimate. */
	if (!spill && twz_bake_check_limits(g, opt, err) != 0)
		return -1;
	if (twz_graph_build(g, opt->connectivity, &out->graph, err) != 0)
		return -1;
	const struct twz_graph *gr = &out->graph;
	twz_shard_range(gr, index, count, &first, &end);
	struct twz_pool pool = {
		.opt = opt, .items = end - first, .chunk = CHUNK,
		.worker_size = sizeof(struct cpd_worker),
		.init = cpd_worker_init, .fini = cpd_worker_fini,
		.run = cpd_chunk, .ctx = &c,
	};

	c.graph = gr;
	c.spill = spill;
	c.cell_milli = opt->cell_milli;
	c.first = first;
	c.direction = opt->layout != TWZ_LAYOUT_PLAIN;
	chunks = (end - first + CHUNK - 1) / CHUNK;
	c.chunk_runs = calloc(chunks ? chunks : 1, sizeof *c.chunk_runs);
	c.row_len = calloc(gr->node_count ? gr->node_count : 1, sizeof(uint32_t));
	out->row_offsets = malloc(((size_t)gr->node_count + 1) * sizeof(uint32_t));
	if (!c.chunk_runs || !c.row_len || !out->row_offsets) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		goto out_free;
	}
	if (twz_bake_forecast(&pool, cpd_sample, cpd_pairs(gr, first, end), 0,
			      NULL, err) != 0)
		goto out_free;
	double started = twz_now_seconds();
	if (opt->apsp != TWZ_APSP_DIJKSTRA) {
		if (twz_graph_arcs(&out->graph) != 0) {
			twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
			goto out_free;
		}
		if (twz_apsp_solve(&c.dense, gr, opt->apsp, opt, err) != 0)
			goto out_free;
		c.apsp = &c.dense;
	}
	int failed = twz_pool_run(&pool, twz_bake_threads(opt));
	out->seconds = twz_now_seconds() - started;
	if (failed) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory during the searches", opt->name);
		goto out_free;
	}

	uint64_t total = 0;
	for (uint32_t k = 0; k < chunks; k++)
		total += c.chunk_runs[k].len;
	if (total > TWZ_MAX_RUNS) {
		twz_error_set(err, "%s: %llu runs exceed the format limit", opt->name,
			      (unsigned long long)total);
		goto out_free;
	}
	out->runs = malloc((total ? total : 1) * sizeof(uint32_t));
	if (!out->runs) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory for %llu runs", opt->name,
			      (unsigned long long)total);
		goto out_free;
	}
	uint64_t pos = 0;
	for (uint32_t k = 0; k < chunks; k++) {
		if (c.chunk_runs[k].len)
			memcpy(out->runs + pos, c.chunk_runs[k].v,
			       c.chunk_runs[k].len * sizeof(uint32_t));
		pos += c.chunk_runs[k].len;
		twz_runs_free(&c.chunk_runs[k]);
	}
	out->row_offsets[0] = 0;
	for (uint32_t s = 0; s < gr->node_count; s++)
		out->row_offsets[s + 1] = out->row_offsets[s] + c.row_len[s];
	out->run_count = total;
	out->layout = opt->layout;
	rc = 0;

out_free:
	if (c.chunk_runs)
		for (uint32_t k = 0; k < chunks; k++)
			twz_runs_free(&c.chunk_runs[k]);
	free(c.chunk_runs);
	free(c.row_len);
	if (c.apsp)
		twz_apsp_free(&c.dense);
	if (rc != 0)
		twz_cpd_free(out);
	return rc;
}

int twz_bake_cpd(const struct twz_grid *g, const struct twz_bake_options *opt,
		 struct twz_cpd *out, struct twz_error *err)
{
	return bake_cpd(g, opt, 1, 1, NULL, out, err);
}

int twz_bake_cpd_spilled(const struct twz_grid *g,
			 const struct twz_bake_options *opt,
			 const struct twz_cpd_spill *spill, struct twz_cpd *out,
			 struct twz_error *err)
{
	return bake_cpd(g, opt, 1, 1, spill, out, err);
}

int twz_bake_cpd_shard(const struct twz_grid *g,
		       const struct twz_bake_options *opt, unsigned index,
		       unsigned count, struct twz_cpd *out, struct twz_error *err)
{
	return bake_cpd(g, opt, index, count, NULL, out, err);
}

void twz_cpd_free(struct twz_cpd *cpd)
{
	twz_graph_free(&cpd->graph);
	free(cpd->row_offsets);
	free(cpd->runs);
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

/* Format 1.1 bucketed sections: NODE_RECORDS, REGIONS, ROWS (LE bytes).
 * Returns 1 when a row has too many runs to be bucketed, -1 when out of
 * memory, 0 on success. */
static int encode_bucketed(const struct twz_cpd *cpd, unsigned max_scan,
			   uint8_t **records, uint8_t **regions, uint8_t **rows,
			   size_t *rows_bytes)
{
	const struct twz_graph *gr = &cpd->graph;
	size_t cap = 1024, used = 0;
	uint16_t *row = NULL, *tmp = NULL;
	size_t tmp_cap = 0;
	int rc = -1;

	*records = malloc((size_t)gr->node_count * TWZ_RECORD_SIZE + 1);
	*regions = twz_le32_copy(gr->comp_first, (size_t)gr->component_count + 1);
	row = malloc(cap * sizeof *row);
	if (!*records || !*regions || !row)
		goto fail;
	for (uint32_t s = 0; s < gr->node_count; s++) {
		uint32_t comp = gr->node_comp[s];
		uint32_t lo = gr->comp_first[comp];
		uint32_t len = gr->comp_first[comp + 1] - lo;
		uint32_t first = cpd->row_offsets[s];
		uint32_t n = cpd->row_offsets[s + 1] - first;
		uint64_t need = twz_row_bucketized_max(n, len);
		if (n > TWZ_MAX_ROW_RUNS) {
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
		uint8_t shift;
		uint16_t buckets;
		uint32_t got = twz_row_bucketize(cpd->runs + first, n, lo, len,
						 max_scan, tmp, &shift, &buckets);
		(void)buckets;  /* follows from the region and the shift */
		if (!got) {
			rc = 1;
			goto fail;
		}
		if (used + got > UINT32_MAX) {
			rc = 1;
			goto fail;
		}
		while (used + got > cap) {
			uint16_t *nr = realloc(row, cap * 2 * sizeof *nr);
			if (!nr)
				goto fail;
			row = nr;
			cap *= 2;
		}
		if (used > TWZ_ROW_OFFSET_MASK) {
			rc = 1;
			goto fail;
		}
		uint8_t *rec = *records + (size_t)s * TWZ_RECORD_SIZE;
		twz_put32(rec + TWZ_R_ROW, (uint32_t)used |
			  (uint32_t)shift << TWZ_ROW_OFFSET_BITS);
		twz_put16(rec + TWZ_R_X, gr->node_x[s]);
		twz_put16(rec + TWZ_R_Y, gr->node_y[s]);
		memcpy(row + used, tmp, got * sizeof *tmp);
		used += got;
	}
	*rows = malloc(used * 2 + 1);
	if (!*rows)
		goto fail;
	for (size_t i = 0; i < used; i++)
		twz_put16(*rows + 2 * i, row[i]);
	*rows_bytes = used * 2;
	free(row);
	free(tmp);
	return 0;
fail:
	free(row);
	free(tmp);
	free(*records);
	free(*regions);
	*records = *regions = NULL;
	return rc;
}

/* Format 1.4 inline-summarised sections: INLINE_RECORDS_WIDE, REGIONS,
 * INLINE_ROWS (LE bytes). Returns 1 when a row cannot be written so
 * (the caller falls back to the 1.2 layout), -1 when out of memory. */
static int encode_inline(const struct twz_cpd *cpd, unsigned max_scan,
			 uint8_t **records, uint8_t **regions, uint8_t **rows,
			 size_t *rows_bytes)
{
	const struct twz_graph *gr = &cpd->graph;
	size_t cap = 1024, used = 0;
	uint16_t *row = NULL, *tmp = NULL;
	size_t tmp_cap = 0;
	int rc = -1;

	*records = malloc((size_t)gr->node_count * TWZ_INLINE_WIDE_RECORD_SIZE + 1);
	*regions = twz_le32_copy(gr->comp_first, (size_t)gr->component_count + 1);
	row = malloc(cap * sizeof *row);
	if (!*records || !*regions || !row)
		goto fail;
	for (uint32_t s = 0; s < gr->node_count; s++) {
		uint32_t comp = gr->node_comp[s];
		uint32_t lo = gr->comp_first[comp];
		uint32_t len = gr->comp_first[comp + 1] - lo;
		uint32_t first = cpd->row_offsets[s];
		uint32_t n = cpd->row_offsets[s + 1] - first;
		uint64_t need = twz_row_inline_max(n, len);
		if (need > tmp_cap) {
			uint16_t *nt = realloc(tmp, need * sizeof *nt);
			if (!nt)
				goto fail;
			tmp = nt;
			tmp_cap = need;
		}
		uint8_t shift;
		uint32_t got;
		uint64_t summary[2];
		if (used > TWZ_ROW_OFFSET_MASK ||
		    twz_row_inline(cpd->runs + first, n, lo, len,
				   TWZ_INLINE_WIDE_BUCKETS, max_scan, tmp,
				   &got, &shift, summary) != 0) {
			rc = 1;
			goto fail;
		}
		while (used + got > cap) {
			uint16_t *nr = realloc(row, cap * 2 * sizeof *nr);
			if (!nr)
				goto fail;
			row = nr;
			cap *= 2;
		}
		uint8_t *rec = *records + (size_t)s * TWZ_INLINE_WIDE_RECORD_SIZE;
		twz_put32(rec + TWZ_IR_ROW, (uint32_t)used |
			  (uint32_t)shift << TWZ_ROW_OFFSET_BITS);
		twz_put16(rec + TWZ_IR_X, gr->node_x[s]);
		twz_put16(rec + TWZ_IR_Y, gr->node_y[s]);
		twz_put64(rec + TWZ_IR_SUMMARY, summary[0]);
		twz_put64(rec + TWZ_IR_SUMMARY + 8, summary[1]);
		memcpy(row + used, tmp, got * sizeof *tmp);
		used += got;
	}
	if (used > TWZ_ROW_OFFSET_MASK) {
		rc = 1;
		goto fail;
	}
	*rows = malloc(used * 2 + 1);
	if (!*rows)
		goto fail;
	for (size_t i = 0; i < used; i++)
		twz_put16(*rows + 2 * i, row[i]);
	*rows_bytes = used * 2;
	free(row);
	free(tmp);
	return 0;
fail:
	free(row);
	free(tmp);
	free(*records);
	free(*regions);
	*records = *regions = NULL;
	return rc;
}

/* The sections of cpd, into f. */
static void cpd_file(const struct twz_cpd *cpd, const struct twz_grid *g,
		     const struct twz_bake_options *opt, struct twz_out_file *f)
{
	const struct twz_graph *gr = &cpd->graph;
	size_t cells = (size_t)gr->width * gr->height;
	uint8_t *records = NULL, *regions = NULL, *rows = NULL;

	twz_bake_header(&f->h, g, gr, opt, TWZ_METHOD_CPD);

	/* Rows first: the layout they fit decides the cell map's width.
	 * A row too long for u16 run indices keeps the direction symbols
	 * in the plain run layout, searched by bisection. */
	int bucketed = 0;
	size_t rows_bytes = 0;
	if (cpd->layout == TWZ_LAYOUT_INLINE) {
		int b = encode_inline(cpd, opt->max_scan ? opt->max_scan : 64,
				      &records, &regions, &rows, &rows_bytes);
		if (b < 0) {
			f->failed = 1;
			return;
		}
		if (b == 0) {
			int narrow = gr->node_count < TWZ_NARROW_NONE;
			if (narrow)
				twz_out_add_owned(f, TWZ_SECTION_CELL_NODE,
						  le_copy16(gr->cell_node, cells),
						  cells * 2);
			else
				twz_out_add_le32(f, TWZ_SECTION_CELL_NODE,
						 gr->cell_node, cells);
			f->h.minor = 4;
			f->h.required_features = TWZ_FEATURE_DIRECTION_SYMBOLS |
						 TWZ_FEATURE_CPD_INLINE |
						 (narrow ? TWZ_FEATURE_NARROW_CELL_NODE : 0);
			twz_out_add_owned(f, TWZ_SECTION_REGIONS, regions,
					  ((size_t)gr->component_count + 1) * 4);
			twz_out_add_owned(f, TWZ_SECTION_INLINE_RECORDS_WIDE, records,
					  (size_t)gr->node_count *
					  TWZ_INLINE_WIDE_RECORD_SIZE);
			twz_out_add_owned(f, TWZ_SECTION_INLINE_ROWS, rows, rows_bytes);
			return;
		}
	}
	if (cpd->layout != TWZ_LAYOUT_PLAIN) {
		int b = encode_bucketed(cpd, opt->max_scan ? opt->max_scan : 64,
					&records, &regions, &rows, &rows_bytes);
		if (b < 0) {
			f->failed = 1;
			return;
		}
		bucketed = b == 0;
	}
	/* Narrow cells are a 1.2 feature of the bucketed layout. */
	int narrow = bucketed && cpd->layout >= TWZ_LAYOUT_NARROW &&
		     gr->node_count < TWZ_NARROW_NONE;
	if (narrow)
		twz_out_add_owned(f, TWZ_SECTION_CELL_NODE,
				  le_copy16(gr->cell_node, cells), cells * 2);
	else
		twz_out_add_le32(f, TWZ_SECTION_CELL_NODE, gr->cell_node, cells);

	if (bucketed) {
		f->h.minor = narrow ? 2 : 1;
		f->h.required_features = TWZ_FEATURE_DIRECTION_SYMBOLS |
					 TWZ_FEATURE_BUCKETED_ROWS |
					 (narrow ? TWZ_FEATURE_NARROW_CELL_NODE : 0);
		twz_out_add_owned(f, TWZ_SECTION_NODE_RECORDS, records,
				  (size_t)gr->node_count * TWZ_RECORD_SIZE);
		twz_out_add_owned(f, TWZ_SECTION_REGIONS, regions,
				  ((size_t)gr->component_count + 1) * 4);
		twz_out_add_owned(f, TWZ_SECTION_ROWS, rows, rows_bytes);
		return;
	}
	twz_out_add_le32(f, TWZ_SECTION_NODE_CELL, gr->node_cell, gr->node_count);
	twz_out_add_le32(f, TWZ_SECTION_NODE_COMPONENT, gr->node_comp, gr->node_count);
	twz_out_add_le32(f, TWZ_SECTION_ROW_OFFSETS, cpd->row_offsets,
			 (size_t)gr->node_count + 1);
	twz_out_add_le32(f, TWZ_SECTION_RUNS, cpd->runs, cpd->run_count);
	if (cpd->layout != TWZ_LAYOUT_PLAIN) {
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

static void cpd_file_costed(const struct twz_cpd *cpd, const struct twz_grid *g,
			    const struct twz_bake_options *opt,
			    struct twz_out_file *f)
{
	cpd_file(cpd, g, opt, f);
	costs_sections(opt, f);
}

void twz_cpd_out_file(const struct twz_cpd *cpd, const struct twz_grid *g,
		      const struct twz_bake_options *opt,
		      struct twz_out_file *f)
{
	cpd_file_costed(cpd, g, opt, f);
}

int twz_cpd_encode(const struct twz_cpd *cpd, const struct twz_grid *g,
		   const struct twz_bake_options *opt, uint8_t **buf,
		   size_t *len, struct twz_error *err)
{
	struct twz_out_file f = { 0 };

	cpd_file_costed(cpd, g, opt, &f);
	return twz_out_encode(&f, opt->name, buf, len, err);
}

int twz_cpd_write(const struct twz_cpd *cpd, const struct twz_grid *g,
		  const struct twz_bake_options *opt, const char *path,
		  struct twz_error *err)
{
	struct twz_out_file f = { 0 };

	cpd_file_costed(cpd, g, opt, &f);
	return twz_out_write(&f, opt->name, path, err);
}
