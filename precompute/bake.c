/*
 * bake.c - runs the first-move searches on every thread and gathers the
 * rows in source order, so the output is independent of the thread count.
 */
#include "bake.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>
#define ZSTD_STATIC_LINKING_ONLY  /* ZSTD_estimateCCtxSize */
#include <zstd.h>

#include "first_moves.h"
#include "rows.h"
#include "twz_writer.h"

#define CHUNK 64  /* sources per unit of work */

void twz_bake_options_default(struct twz_bake_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->connectivity = 8;
	opt->threads = 0;
	opt->codec = TWZ_CODEC_ZSTD;
	opt->level = 19;
	opt->layout = TWZ_LAYOUT_NARROW;
	opt->max_scan = 64;
	opt->name = "level";
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct bake_job {
	const struct twz_graph *graph;
	const struct twz_bake_options *opt;
	uint32_t chunk_count;
	struct twz_runs *chunk_runs;    /* [chunk_count] */
	uint32_t *row_len;              /* [node_count] */
	atomic_uint next_chunk;
	atomic_uint done_sources;
	atomic_int failed;
	double started;
};

static void print_progress(struct bake_job *job)
{
	uint32_t n = job->graph->node_count;
	unsigned done = atomic_load(&job->done_sources);
	double el = now_seconds() - job->started;
	double pairs = (double)done * n;
	double rate = el > 0 ? pairs / el : 0;
	double left = done ? el * (double)(n - done) / done : 0;
	fprintf(stderr, "\r%s: %5.1f%% (%u/%u sources), %.1fM pairs/s, %.0fs left   ",
		job->opt->name, 100.0 * done / (n ? n : 1), done, n, rate / 1e6, left);
}

struct bake_worker_arg {
	struct bake_job *job;
	int reporter;       /* prints the progress line */
};

static void *bake_worker(void *varg)
{
	const struct bake_worker_arg *arg = varg;
	struct bake_job *job = arg->job;
	const struct twz_graph *gr = job->graph;
	struct twz_search ws;
	int reporter = arg->reporter && job->opt->progress;
	double last = 0;

	if (twz_search_init(&ws, gr) != 0) {
		atomic_store(&job->failed, 1);
		return NULL;
	}
	for (;;) {
		uint32_t c = atomic_fetch_add(&job->next_chunk, 1);
		if (c >= job->chunk_count || atomic_load(&job->failed))
			break;
		uint32_t lo = c * CHUNK;
		uint32_t hi = lo + CHUNK < gr->node_count ? lo + CHUNK : gr->node_count;
		struct twz_runs *out = &job->chunk_runs[c];
		for (uint32_t s = lo; s < hi; s++) {
			uint32_t before = out->len;
			int direction = job->opt->layout != TWZ_LAYOUT_PLAIN;
			if (twz_search_run(&ws, s) != 0 ||
			    (direction ? twz_row_encode_direction(gr, s, ws.moves, out)
				       : twz_row_encode(gr, s, ws.moves, out)) != 0) {
				atomic_store(&job->failed, 1);
				break;
			}
			job->row_len[s] = out->len - before;
		}
		atomic_fetch_add(&job->done_sources, hi - lo);
		if (reporter) {
			double t = now_seconds();
			if (t - last > 0.25) {
				last = t;
				print_progress(job);
			}
		}
	}
	twz_search_free(&ws);
	return NULL;
}

unsigned twz_bake_threads(const struct twz_bake_options *opt)
{
	if (opt->threads)
		return opt->threads;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

uint8_t twz_bake_compress_threads(const struct twz_bake_options *opt)
{
	unsigned n = twz_bake_threads(opt);
	return (uint8_t)(n > 255 ? 255 : n);
}

/* ---- limits: refuse a bake the machine cannot finish ------------------ */

/*
 * Peak bytes of a CPD bake, estimated from the level alone. Everything
 * but the runs is exact up to small constants: the grid, the graph (cell
 * map, node arrays, 8 neighbours a node, the numbering stack), one search
 * workspace a thread (costs, first-move sets, flags, buckets) and the row
 * offsets. The run count is not known before the searches; rows measured
 * on the Moving AI levels hold from 5 to 60 runs on levels of 2,000 to
 * 120,000 nodes, so 32 + sqrt(nodes) / 2 a row is generous, and each run
 * is counted 16 bytes: rows being gathered (with their growth slack),
 * the joined copy, the little-endian copy, the compressed copy and the
 * file image can be alive at once.
 */
uint64_t twz_bake_estimate_bytes(uint64_t cells, uint64_t nodes,
				 unsigned threads, unsigned codec, int level)
{
	double runs = (double)nodes * (32.0 + sqrt((double)nodes) / 2.0);
	double bytes = 5.0 * cells                  /* grid, cell map */
		       + 80.0 * nodes               /* graph and its stack */
		       + 26.0 * nodes * threads     /* search workspaces */
		       + 8.0 * nodes                /* row lengths, offsets */
		       + 16.0 * runs;

	/* Sections compress on up to `threads` threads at once, each with
	 * its own context. */
	if (codec == TWZ_CODEC_ZSTD)
		bytes += (double)ZSTD_estimateCCtxSize(level) * (threads ? threads : 1);
	return bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)bytes;
}

/* A "Name:   N kB" line of /proc/meminfo, in bytes; 0 when absent. */
static uint64_t meminfo_bytes(const char *name)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	uint64_t v = 0;
	size_t len = strlen(name);

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		unsigned long long kb;
		if (!strncmp(line, name, len) && line[len] == ':' &&
		    sscanf(line + len + 1, "%llu", &kb) == 1) {
			v = (uint64_t)kb * 1024;
			break;
		}
	}
	fclose(f);
	return v;
}

uint64_t twz_memory_available(void)
{
	uint64_t avail = meminfo_bytes("MemAvailable");
	struct rlimit rl;

	if (!avail) {
		long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
		if (pages > 0 && size > 0)
			avail = (uint64_t)pages * (uint64_t)size;
	}
	/* A process limit is as hard as the machine's. */
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (!avail || rl.rlim_cur < avail))
		avail = rl.rlim_cur;
	return avail;
}

int twz_bake_check_limits(const struct twz_grid *g,
			  const struct twz_bake_options *opt,
			  struct twz_error *err)
{
	uint64_t cells = (uint64_t)g->width * g->height, nodes = 0;

	for (uint64_t c = 0; c < cells; c++)
		nodes += g->walkable[c] != 0;
	if (opt->max_nodes) {
		if (nodes <= opt->max_nodes)
			return 0;
		twz_error_set(err, "%s: %llu walkable cells exceed --max-nodes %u",
			      opt->name, (unsigned long long)nodes, opt->max_nodes);
		return -1;
	}
	uint64_t need = twz_bake_estimate_bytes(cells, nodes, twz_bake_threads(opt),
						opt->codec, opt->level);
	uint64_t have = opt->max_memory ? opt->max_memory : twz_memory_available();
	if (!have || need <= have)
		return 0;
	twz_error_set(err, "%s: baking %llu nodes needs about %.1f GiB, more than "
		      "the %.1f GiB available (--max-nodes N bakes anyway)",
		      opt->name, (unsigned long long)nodes, need / 1073741824.0,
		      have / 1073741824.0);
	return -1;
}

int twz_bake_cpd(const struct twz_grid *g, const struct twz_bake_options *opt,
		 struct twz_cpd *out, struct twz_error *err)
{
	struct bake_job job;
	unsigned threads = twz_bake_threads(opt);
	pthread_t *tids = NULL;
	unsigned started = 0;
	int rc = -1;

	memset(out, 0, sizeof *out);
	memset(&job, 0, sizeof job);
	if (twz_bake_check_limits(g, opt, err) != 0)
		return -1;
	if (twz_graph_build(g, opt->connectivity, &out->graph, err) != 0)
		return -1;
	const struct twz_graph *gr = &out->graph;

	job.graph = gr;
	job.opt = opt;
	job.chunk_count = (gr->node_count + CHUNK - 1) / CHUNK;
	job.chunk_runs = calloc(job.chunk_count ? job.chunk_count : 1,
				sizeof *job.chunk_runs);
	job.row_len = calloc(gr->node_count ? gr->node_count : 1, sizeof(uint32_t));
	out->row_offsets = malloc(((size_t)gr->node_count + 1) * sizeof(uint32_t));
	tids = calloc(threads, sizeof *tids);
	if (!job.chunk_runs || !job.row_len || !out->row_offsets || !tids) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		goto out_free;
	}
	atomic_init(&job.next_chunk, 0);
	atomic_init(&job.done_sources, 0);
	atomic_init(&job.failed, 0);
	job.started = now_seconds();

	/* The calling thread works too and reports progress. If a thread
	 * cannot start, the others take its share. */
	struct bake_worker_arg helper = { &job, 0 }, self = { &job, 1 };
	for (unsigned i = 1; i < threads; i++) {
		if (pthread_create(&tids[i], NULL, bake_worker, &helper) != 0)
			break;
		started++;
	}
	bake_worker(&self);
	for (unsigned i = 1; i <= started; i++)
		pthread_join(tids[i], NULL);
	if (opt->progress)
		fputc('\n', stderr);
	out->seconds = now_seconds() - job.started;
	if (atomic_load(&job.failed)) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory during the searches", opt->name);
		goto out_free;
	}

	uint64_t total = 0;
	for (uint32_t c = 0; c < job.chunk_count; c++)
		total += job.chunk_runs[c].len;
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
	for (uint32_t c = 0; c < job.chunk_count; c++) {
		memcpy(out->runs + pos, job.chunk_runs[c].v,
		       job.chunk_runs[c].len * sizeof(uint32_t));
		pos += job.chunk_runs[c].len;
		twz_runs_free(&job.chunk_runs[c]);
	}
	out->row_offsets[0] = 0;
	for (uint32_t s = 0; s < gr->node_count; s++)
		out->row_offsets[s + 1] = out->row_offsets[s] + job.row_len[s];
	out->run_count = total;
	out->layout = opt->layout;
	rc = 0;

out_free:
	if (job.chunk_runs)
		for (uint32_t c = 0; c < job.chunk_count; c++)
			twz_runs_free(&job.chunk_runs[c]);
	free(job.chunk_runs);
	free(job.row_len);
	free(tids);
	if (rc != 0)
		twz_cpd_free(out);
	return rc;
}

void twz_cpd_free(struct twz_cpd *cpd)
{
	twz_graph_free(&cpd->graph);
	free(cpd->row_offsets);
	free(cpd->runs);
	memset(cpd, 0, sizeof *cpd);
}

/* Little-endian copy of a u32 array (the host may be big-endian). */
static uint8_t *le_copy(const uint32_t *v, size_t n)
{
	uint8_t *b = malloc(n ? n * 4 : 1);
	if (!b)
		return NULL;
	for (size_t i = 0; i < n; i++)
		twz_put32(b + 4 * i, v[i]);
	return b;
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
	*regions = le_copy(gr->comp_first, (size_t)gr->component_count + 1);
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

int twz_cpd_encode(const struct twz_cpd *cpd, const struct twz_grid *g,
		   const struct twz_bake_options *opt, uint8_t **buf,
		   size_t *len, struct twz_error *err)
{
	const struct twz_graph *gr = &cpd->graph;
	size_t cells = (size_t)gr->width * gr->height;
	struct twz_out_section sec[5];
	uint8_t *le[5] = { 0 };
	unsigned count = 0;
	int rc = -1;
	struct twz_out_header h = {
		.minor = 0,
		.required_features = 0,
		.level_hash = g->level_hash,
		.width = gr->width,
		.height = gr->height,
		.node_count = gr->node_count,
		.component_count = gr->component_count,
		.method = TWZ_METHOD_CPD,
		.connectivity = (uint8_t)gr->connectivity,
		.node_order = TWZ_ORDER_DFS,
		.codec = (uint8_t)opt->codec,
		.level = (int8_t)opt->level,
		.threads = twz_bake_compress_threads(opt),
	};

	/* Rows first: the layout they fit decides the cell map's width.
	 * A row too long for u16 run indices keeps the direction symbols
	 * in the plain run layout, searched by bisection. */
	int bucketed = 0;
	size_t rows_bytes = 0;
	if (cpd->layout != TWZ_LAYOUT_PLAIN) {
		int b = encode_bucketed(cpd, opt->max_scan ? opt->max_scan : 64,
					&le[1], &le[2], &le[3], &rows_bytes);
		if (b < 0)
			goto nomem;
		bucketed = b == 0;
	}
	/* Narrow cells are a 1.2 feature of the bucketed layout. */
	int narrow = bucketed && cpd->layout == TWZ_LAYOUT_NARROW &&
		     gr->node_count < TWZ_NARROW_NONE;
	le[0] = narrow ? le_copy16(gr->cell_node, cells)
		       : le_copy(gr->cell_node, cells);
	if (!le[0])
		goto nomem;
	sec[count++] = (struct twz_out_section){ TWZ_SECTION_CELL_NODE, le[0],
						 cells * (narrow ? 2 : 4) };

	if (bucketed) {
		h.minor = narrow ? 2 : 1;
		h.required_features = TWZ_FEATURE_DIRECTION_SYMBOLS |
				      TWZ_FEATURE_BUCKETED_ROWS |
				      (narrow ? TWZ_FEATURE_NARROW_CELL_NODE : 0);
		sec[count++] = (struct twz_out_section){
			TWZ_SECTION_NODE_RECORDS, le[1],
			(size_t)gr->node_count * TWZ_RECORD_SIZE };
		sec[count++] = (struct twz_out_section){
			TWZ_SECTION_REGIONS, le[2],
			((size_t)gr->component_count + 1) * 4 };
		sec[count++] = (struct twz_out_section){
			TWZ_SECTION_ROWS, le[3], rows_bytes };
		goto write;
	}
	const uint32_t *arrays[4] = { gr->node_cell, gr->node_comp,
				      cpd->row_offsets, cpd->runs };
	size_t counts[4] = { gr->node_count, gr->node_count,
			     (size_t)gr->node_count + 1, (size_t)cpd->run_count };
	uint32_t kinds[4] = { TWZ_SECTION_NODE_CELL, TWZ_SECTION_NODE_COMPONENT,
			      TWZ_SECTION_ROW_OFFSETS, TWZ_SECTION_RUNS };
	for (int i = 0; i < 4; i++) {
		le[1 + i] = le_copy(arrays[i], counts[i]);
		if (!le[1 + i])
			goto nomem;
		sec[count++] = (struct twz_out_section){ kinds[i], le[1 + i], counts[i] * 4 };
	}
	if (cpd->layout != TWZ_LAYOUT_PLAIN) {
		h.minor = 1;
		h.required_features = TWZ_FEATURE_DIRECTION_SYMBOLS;
	}
write:
	rc = twz_encode(&h, sec, count, buf, len, err);
	goto out_free;
nomem:
	twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
out_free:
	for (int i = 0; i < 5; i++)
		free(le[i]);
	return rc;
}

int twz_cpd_write(const struct twz_cpd *cpd, const struct twz_grid *g,
		  const struct twz_bake_options *opt, const char *path,
		  struct twz_error *err)
{
	uint8_t *buf;
	size_t len;

	if (twz_cpd_encode(cpd, g, opt, &buf, &len, err) != 0)
		return -1;
	int rc = twz_write_atomic(path, buf, len, err);
	free(buf);
	return rc;
}
