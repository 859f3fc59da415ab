/*
 * method_cpd_stream.c - a CPD bake held under a memory budget
 * (--memory-limit) smaller than its rows: each chunk of rows goes to the
 * spool (twz_writer_stream.h) as its searches finish, the rows are then
 * bucketed from the spool in source order into the spool again, and the
 * writer compresses the big sections from there. What stays in memory is
 * the graph, the searches' workspaces, a few bytes a node (row lengths,
 * node records) and the compressor's window: the same file as the bake
 * in memory, byte for byte (method_cpd.c's cpd_file lays out the same
 * sections).
 */
#include "bake.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#define ZSTD_STATIC_LINKING_ONLY  /* ZSTD_estimateCCtxSize_usingCParams */
#include <zstd.h>

#include "apsp_dense.h"
#include "rows.h"
#include "twz_writer.h"
#include "twz_writer_stream.h"

#define CHUNK 64             /* sources a chunk, as method_cpd.c's */
#define WRITE_PIECE TWZ_SPOOL_OUT_PIECE

/* ---- the estimate ------------------------------------------------------ */

uint64_t twz_bake_stream_estimate_bytes(const struct twz_grid *g,
					uint64_t nodes,
					const struct twz_bake_options *opt)
{
	double cells = (double)g->width * g->height;
	double n = (double)nodes;
	unsigned threads = twz_bake_threads(opt);
	/* Rows as twz_bake_estimate_bytes guesses them: what a chunk in
	 * flight holds, and the largest spooled section (ROWS, u16). */
	double row = 32.0 + sqrt(n) / 2.0;
	double rows_bytes = n * row * 2.0;
	double base = 5.0 * cells + 80.0 * n + 8.0 * n + 8.0 * n
		      + (double)twz_apsp_estimate_bytes(nodes, opt->apsp)
		      + (8 << 20);   /* the program itself */
	/* While searching: a workspace and a chunk of rows (with growth
	 * slack) a thread. */
	double search = 26.0 * n * threads + threads * 2.0 * CHUNK * row * 4.0;
	/* While bucketing: a chunk read back, a bucketed row, the write
	 * buffer. */
	double bucket = 2.0 * CHUNK * row * 4.0 + 2.0 * WRITE_PIECE + 8.0 * row;
	/* While writing: the cell map's copy, and the largest of the
	 * in-memory sections (the node records) compressed at once, or the
	 * spool's window. */
	double write = 4.0 * cells;
	double records = 8.0 * n;
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
	double peak = search;
	if (bucket > peak)
		peak = bucket;
	if (write > peak)
		peak = write;
	double bytes = base + peak;
	return bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)bytes;
}

static uint64_t stream_estimate(const struct twz_grid *g, uint64_t nodes,
				const struct twz_bake_options *opt,
				const void *method_opt)
{
	(void)method_opt;
	return twz_bake_stream_estimate_bytes(g, nodes, opt);
}

int twz_cpd_stream_needed(const struct twz_grid *g,
			  const struct twz_bake_options *opt)
{
	uint64_t cells = (uint64_t)g->width * g->height, nodes = 0;

	/* The spool feeds the 1.0 to 1.2 row layouts in one frame a
	 * section; inline rows and chunked sections bake in memory, held
	 * to the same limit by the bake's own check. */
	if ((!opt->max_memory && opt->spool != TWZ_SPOOL_ALWAYS) ||
	    opt->max_nodes || opt->layout == TWZ_LAYOUT_INLINE || opt->chunk)
		return 0;
	if (opt->spool == TWZ_SPOOL_ALWAYS)
		return 1;
	for (uint64_t c = 0; c < cells; c++)
		nodes += g->walkable[c] != 0;
	return twz_bake_estimate_bytes(cells, nodes, twz_bake_threads(opt),
				       opt->codec, opt->level) +
	       twz_apsp_estimate_bytes(nodes, opt->apsp) > opt->max_memory;
}

/* ---- the searches: chunks to the spool ------------------------------- */

struct spill_state {
	struct twz_spool *spool;
	atomic_ullong end;           /* bytes of runs spooled */
	uint64_t *chunk_at;          /* [chunks]: where each one went */
	atomic_int failed;
};

static int spill_chunk(void *ctx, uint32_t k, struct twz_runs *runs)
{
	struct spill_state *sp = ctx;
	size_t bytes = (size_t)runs->len * 4;
	uint64_t at = atomic_fetch_add(&sp->end, bytes);

	/* Little-endian in place: the runs are not used again. */
	for (uint32_t i = 0; i < runs->len; i++)
		twz_put32((uint8_t *)&runs->v[i], runs->v[i]);
	sp->chunk_at[k] = at;
	int rc = bytes ? twz_spool_pwrite(sp->spool, at, runs->v, bytes) : 0;
	twz_runs_free(runs);
	if (rc != 0)
		atomic_store(&sp->failed, errno ? errno : EIO);
	return rc;
}

/* ---- bucketing from the spool ----------------------------------------- */

/* Reads chunk after chunk of spooled runs back, in source order. */
struct chunk_reader {
	const struct twz_spool *spool;
	const uint64_t *chunk_at;
	const struct twz_cpd *cpd;
	uint32_t chunk;              /* loaded, or UINT32_MAX */
	uint32_t *v;
	size_t cap;
};

/* The runs of source s (its chunk loaded when needed); NULL on error. */
static const uint32_t *row_runs(struct chunk_reader *r, uint32_t s)
{
	const uint32_t *off = r->cpd->row_offsets;
	uint32_t k = s / CHUNK;
	uint32_t lo = k * CHUNK;
	uint32_t hi = lo + CHUNK < r->cpd->graph.node_count ? lo + CHUNK
							    : r->cpd->graph.node_count;

	if (r->chunk != k) {
		size_t n = off[hi] - off[lo];
		if (n > r->cap) {
			uint32_t *nv = realloc(r->v, n * sizeof *nv);
			if (!nv)
				return NULL;
			r->v = nv;
			r->cap = n;
		}
		if (n && twz_spool_pread(r->spool, r->chunk_at[k], r->v, n * 4) != 0)
			return NULL;
		for (size_t i = 0; i < n; i++)
			r->v[i] = twz_le32((const uint8_t *)&r->v[i]);
		r->chunk = k;
	}
	return r->v + (off[s] - off[lo]);
}

/*
 * NODE_RECORDS (into records) and ROWS (into the spool from o->at) as
 * encode_bucketed of method_cpd.c makes them. Returns 1 when a row does
 * not fit the bucketed layout, -1 on an error, 0 on success.
 */
static int bucket_rows(struct chunk_reader *r, unsigned max_scan,
		       uint8_t *records, struct twz_spool_out *o, uint64_t *rows_bytes)
{
	const struct twz_cpd *cpd = r->cpd;
	const struct twz_graph *gr = &cpd->graph;
	uint16_t *tmp = NULL;
	uint8_t *le = NULL;
	uint64_t tmp_cap = 0, used = 0;
	int rc = -1;

	for (uint32_t s = 0; s < gr->node_count; s++) {
		uint32_t comp = gr->node_comp[s];
		uint32_t lo = gr->comp_first[comp];
		uint32_t len = gr->comp_first[comp + 1] - lo;
		uint32_t n = cpd->row_offsets[s + 1] - cpd->row_offsets[s];
		uint64_t need = twz_row_bucketized_max(n, len);
		if (n > TWZ_MAX_ROW_RUNS) {
			rc = 1;
			goto out;
		}
		if (need > tmp_cap) {
			uint16_t *nt = realloc(tmp, need * sizeof *nt);
			uint8_t *nl = nt ? realloc(le, need * 2) : NULL;
			if (nt)
				tmp = nt;
			if (!nl)
				goto out;
			le = nl;
			tmp_cap = need;
		}
		const uint32_t *runs = row_runs(r, s);
		if (!runs)
			goto out;
		uint8_t shift;
		uint16_t buckets;
		uint32_t got = twz_row_bucketize(runs, n, lo, len, max_scan, tmp,
						 &shift, &buckets);
		(void)buckets;
		if (!got || used + got > UINT32_MAX || used > TWZ_ROW_OFFSET_MASK) {
			rc = 1;
			goto out;
		}
		uint8_t *rec = records + (size_t)s * TWZ_RECORD_SIZE;
		twz_put32(rec + TWZ_R_ROW, (uint32_t)used |
			  (uint32_t)shift << TWZ_ROW_OFFSET_BITS);
		twz_put16(rec + TWZ_R_X, gr->node_x[s]);
		twz_put16(rec + TWZ_R_Y, gr->node_y[s]);
		for (uint32_t i = 0; i < got; i++)
			twz_put16(le + 2 * i, tmp[i]);
		if (twz_spool_out_put(o, le, (size_t)got * 2) != 0)
			goto out;
		used += got;
	}
	if (twz_spool_out_flush(o) != 0)
		goto out;
	*rows_bytes = used * 2;
	rc = 0;
out:
	free(tmp);
	free(le);
	return rc;
}

/* The runs in source order, into the spool from o->at (the plain run
 * layout's RUNS section). */
static int ordered_runs(struct chunk_reader *r, struct twz_spool_out *o)
{
	const struct twz_cpd *cpd = r->cpd;
	uint32_t nodes = cpd->graph.node_count;

	for (uint32_t lo = 0; lo < nodes; lo += CHUNK) {
		uint32_t hi = lo + CHUNK < nodes ? lo + CHUNK : nodes;
		const uint32_t *runs = row_runs(r, lo);
		uint32_t n = cpd->row_offsets[hi] - cpd->row_offsets[lo];
		if (!runs)
			return -1;
		for (uint32_t i = 0; i < n; i++) {
			uint8_t b[4];
			twz_put32(b, runs[i]);
			if (twz_spool_out_put(o, b, 4) != 0)
				return -1;
		}
	}
	return twz_spool_out_flush(o);
}

/* u16 little-endian cells, TWZ_NODE_NONE as 0xFFFF (method_cpd.c). */
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

int twz_cpd_bake_streamed(const struct twz_grid *g,
			  const struct twz_bake_options *opt, const char *path,
			  struct twz_cpd_stream_result *res,
			  struct twz_error *err)
{
	struct twz_spool spool = { -1, 0 };
	struct spill_state st = { .spool = &spool };
	struct twz_cpd_spill spill = { spill_chunk, &st };
	struct twz_cpd cpd;
	struct chunk_reader rd = { 0 };
	struct twz_spool_out o = { 0 };
	struct twz_out_file f = { 0 };
	uint64_t spool_at[TWZ_MAX_SECTIONS];
	uint8_t *records = NULL;
	int rc = -1;

	memset(&cpd, 0, sizeof cpd);
	if (twz_apsp_check_level(g, opt, err) != 0 ||
	    twz_bake_check(g, opt, stream_estimate, NULL, err) != 0)
		return -1;
	if (twz_spool_open(&spool, path, err) != 0)
		return -1;
	uint64_t cells = (uint64_t)g->width * g->height, nodes = 0;
	for (uint64_t c = 0; c < cells; c++)
		nodes += g->walkable[c] != 0;
	uint32_t chunks = (uint32_t)((nodes + CHUNK - 1) / CHUNK);
	st.chunk_at = calloc(chunks ? chunks : 1, sizeof *st.chunk_at);
	atomic_init(&st.end, 0);
	atomic_init(&st.failed, 0);
	if (!st.chunk_at) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		goto done;
	}
	if (twz_bake_cpd_spilled(g, opt, &spill, &cpd, err) != 0) {
		if (atomic_load(&st.failed))
			twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot write a temporary file: %s",
					   path, strerror(atomic_load(&st.failed)));
		goto done;
	}
	const struct twz_graph *gr = &cpd.graph;
	uint64_t total = 0;
	for (uint32_t s = 0; s < gr->node_count; s++)
		total += cpd.row_offsets[s + 1] - cpd.row_offsets[s];
	if (total > TWZ_MAX_RUNS) {
		twz_error_set(err, "%s: %llu runs exceed the format limit", opt->name,
			      (unsigned long long)total);
		goto done;
	}
	cpd.run_count = total;
	cpd.layout = twz_bake_layout(opt);
	rd = (struct chunk_reader){ &spool, st.chunk_at, &cpd, UINT32_MAX, NULL, 0 };
	uint64_t runs_end = atomic_load(&st.end);
	o = (struct twz_spool_out){ &spool, runs_end, malloc(WRITE_PIECE), 0 };
	if (!o.buf)
		goto nomem;

	size_t ncells = (size_t)gr->width * gr->height;
	twz_bake_header(&f.h, g, gr, opt, TWZ_METHOD_CPD);
	int bucketed = 0;
	uint64_t rows_bytes = 0;
	if (cpd.layout != TWZ_LAYOUT_PLAIN) {
		records = malloc((size_t)gr->node_count * TWZ_RECORD_SIZE + 1);
		if (!records)
			goto nomem;
		int b = bucket_rows(&rd, opt->max_scan ? opt->max_scan : 64, records,
				    &o, &rows_bytes);
		if (b < 0)
			goto io;
		bucketed = b == 0;
	}
	for (unsigned i = 0; i < TWZ_MAX_SECTIONS; i++)
		spool_at[i] = UINT64_MAX;
	int narrow = bucketed && cpd.layout == TWZ_LAYOUT_NARROW &&
		     gr->node_count < TWZ_NARROW_NONE;
	if (narrow)
		twz_out_add_owned(&f, TWZ_SECTION_CELL_NODE,
				  le_copy16(gr->cell_node, ncells), ncells * 2);
	else
		twz_out_add_le32(&f, TWZ_SECTION_CELL_NODE, gr->cell_node, ncells);
	if (bucketed) {
		f.h.minor = narrow ? 2 : 1;
		f.h.required_features = TWZ_FEATURE_DIRECTION_SYMBOLS |
					TWZ_FEATURE_BUCKETED_ROWS |
					(narrow ? TWZ_FEATURE_NARROW_CELL_NODE : 0);
		twz_out_add_owned(&f, TWZ_SECTION_NODE_RECORDS, records,
				  (size_t)gr->node_count * TWZ_RECORD_SIZE);
		records = NULL;
		twz_out_add_le32(&f, TWZ_SECTION_REGIONS, gr->comp_first,
				 (size_t)gr->component_count + 1);
		spool_at[f.count] = runs_end;
		twz_out_add(&f, TWZ_SECTION_ROWS, NULL, (size_t)rows_bytes);
	} else {
		/* The plain run layout: the runs again, in source order. */
		free(records);
		records = NULL;
		o.at = runs_end;
		o.len = 0;
		if (ordered_runs(&rd, &o) != 0)
			goto io;
		twz_out_add_le32(&f, TWZ_SECTION_NODE_CELL, gr->node_cell, gr->node_count);
		twz_out_add_le32(&f, TWZ_SECTION_NODE_COMPONENT, gr->node_comp,
				 gr->node_count);
		twz_out_add_le32(&f, TWZ_SECTION_ROW_OFFSETS, cpd.row_offsets,
				 (size_t)gr->node_count + 1);
		spool_at[f.count] = runs_end;
		twz_out_add(&f, TWZ_SECTION_RUNS, NULL, (size_t)total * 4);
		if (cpd.layout != TWZ_LAYOUT_PLAIN) {
			f.h.minor = 1;
			f.h.required_features = TWZ_FEATURE_DIRECTION_SYMBOLS;
		}
	}
	free(o.buf);
	o.buf = NULL;
	free(rd.v);
	rd.v = NULL;
	if (twz_out_write_spooled(&f, &spool, spool_at, opt->name, path, err) != 0)
		goto done;
	if (res) {
		res->node_count = gr->node_count;
		res->component_count = gr->component_count;
		res->run_count = total;
		res->seconds = cpd.seconds;
		res->spool_bytes = o.at > runs_end ? o.at : runs_end;
	}
	rc = 0;
	goto done;
io:
	if (err && !err->msg[0])
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot use a temporary file: %s",
				   path, strerror(errno));
	goto done;
nomem:
	twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
done:
	for (unsigned i = 0; i < f.count; i++)
		free(f.owned[i]);
	free(records);
	free(o.buf);
	free(rd.v);
	free(st.chunk_at);
	twz_cpd_free(&cpd);
	twz_spool_close(&spool);
	return rc;
}
