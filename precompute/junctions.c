/*
 * junctions.c - the junction graph bake (`twigz build --junctions`): the
 * level's graph reduced to its junction graph (graph_junctions.h), the
 * one search from every junction (exact costs, every optimal first move
 * kept for the row encoder's wildcards) and from the far end of every
 * link it starts (the link's row of differences); then the sections of
 * format 1.4.
 */
#include "junctions.h"

#include <stdlib.h>
#include <string.h>

#include "first_moves.h"
#include "graph_junctions.h"
#include "rows.h"
#include "twz_writer.h"

/* Junctions per unit of work: a worker keeps the distances of its
 * chunk's junctions, so a link whose two ends share a chunk (most of
 * them: the order numbers a chain's far junction right after it) needs
 * no search of its own. At most 64, and about 32 MiB of distances. */
#define CHUNK_MAX 64u
#define CHUNK_BYTES ((size_t)32 << 20)

/* ---- searches ----------------------------------------------------------- */

struct worker {
	uint64_t *cache;             /* [chunk][J]: costs from each of the
					chunk's junctions */
	uint64_t *dist;              /* [J]: from a link's B outside it */
	uint8_t *moves;              /* [J]: optimal first moves */
	struct twz_search search;    /* over the junctions, or the grid */
};

struct jctx {
	const struct twz_graph *gr;
	const struct twz_graph *base;  /* the level in DFS order, all moves */
	int grid_search;               /* search the grid, not the junctions */
	uint32_t chunk;                /* junctions per unit of work */
	const struct twz_junction_graph *jg;
	const uint32_t *links;
	struct twz_runs *chunk_runs;   /* [chunks]: junction rows */
	uint32_t *row_len;             /* [J] */
	struct twz_runs *chunk_lruns;  /* [chunks]: link rows, 3 words a run */
	uint32_t *link_len;            /* [L]: runs */
	uint32_t *link_chunk_at;       /* [L]: word offset in its chunk */
};

static int worker_init(void *ctx, void *wk)
{
	const struct jctx *c = ctx;
	struct worker *w = wk;
	size_t J = c->jg->junctions.node_count ? c->jg->junctions.node_count : 1;

	w->cache = malloc(c->chunk * J * sizeof *w->cache);
	w->dist = malloc(J * sizeof *w->dist);
	w->moves = malloc(J);
	if (twz_search_init(&w->search, c->grid_search ? c->base : &c->jg->junctions) != 0)
		return -1;
	return w->cache && w->dist && w->moves ? 0 : -1;
}

static void worker_fini(void *wk)
{
	struct worker *w = wk;

	free(w->cache);
	free(w->dist);
	free(w->moves);
	twz_search_free(&w->search);
}

/*
 * The costs from junction src to every junction of its region into dist
 * and their optimal first moves into moves: by the search over the
 * junction graph, or by the grid's (by cell, canonical expansion: faster
 * when most cells are junctions, as on levels of open ground or wide
 * corridors).
 */
static int find(const struct jctx *c, struct worker *w, uint32_t src,
		uint64_t *dist, uint8_t *moves)
{
	const struct twz_junction_graph *jg = c->jg;
	const struct twz_graph *g = &jg->junctions;
	uint32_t r = g->node_comp[src];
	uint32_t lo = g->comp_first[r], hi = g->comp_first[r + 1];

	if (twz_search_run(&w->search, c->grid_search ? jg->junction_base[src] : src) != 0)
		return -1;
	for (uint32_t t = lo; t < hi; t++) {
		uint32_t v = c->grid_search ? jg->junction_base[t] : t;
		dist[t] = twz_search_key(&w->search, v);
		moves[t] = c->grid_search ? w->search.moves[v]
					  : (uint8_t)twz_search_first(&w->search, v);
	}
	return 0;
}

/* The rows of junctions [lo, hi) and of the links they start. */
static int junction_chunk(void *ctx, void *wk, uint32_t lo, uint32_t hi)
{
	struct jctx *c = ctx;
	const struct twz_junction_graph *jg = c->jg;
	struct worker *w = wk;
	struct twz_runs *out = &c->chunk_runs[lo / c->chunk];
	struct twz_runs *lout = &c->chunk_lruns[lo / c->chunk];
	const struct twz_graph *g = &jg->junctions;
	size_t J = g->node_count;

	for (uint32_t j = lo; j < hi; j++) {
		uint32_t r = g->node_comp[j];
		uint32_t range[2] = { g->comp_first[r], g->comp_first[r + 1] };
		struct twz_row_source src = { j, g->node_x, g->node_y,
					      c->gr->connectivity, w->moves,
					      NULL, 0 };
		uint32_t before = out->len;

		if (find(c, w, j, w->cache + (j - lo) * J, w->moves) != 0)
			return -1;
		if (twz_row_encode_ranges(&src, range, 1, out) != 0)
			return -1;
		/* The encoder starts a row at 0 over wildcards; the file
		 * starts it at the region's first junction. */
		out->v[before] = range[0] << TWZ_RUN_SYMBOL_BITS |
				 (out->v[before] & TWZ_RUN_SYMBOL_MASK);
		c->row_len[j] = out->len - before;
	}
	for (uint32_t j = lo; j < hi; j++) {
		const uint64_t *da = w->cache + (j - lo) * J;
		uint32_t r = g->node_comp[j];
		uint32_t rlo = g->comp_first[r], rhi = g->comp_first[r + 1];
		for (uint32_t k = jg->link_first[j]; k < jg->link_first[j + 1]; k++) {
			uint32_t l = jg->link_ids[k];
			uint32_t b = c->links[4 * (size_t)l + 1];
			const uint64_t *db = w->dist;
			if (b >= lo && b < hi)
				db = w->cache + (b - lo) * J;
			else if (find(c, w, b, w->dist, w->moves) != 0)
				return -1;
			uint32_t at = lout->len;
			uint64_t last = 0;
			/* Equal key differences are equal cost differences
			 * (graph.h): a run's pair is made at its start. */
			for (uint32_t t = rlo; t < rhi; t++) {
				uint64_t d = da[t] - db[t];
				if (t > rlo && d == last)
					continue;
				struct twz_cost ca = twz_key_cost(da[t]);
				struct twz_cost cb = twz_key_cost(db[t]);
				uint32_t run[3] = {
					t, (uint32_t)(ca.straight - cb.straight),
					(uint32_t)(ca.diagonal - cb.diagonal) };
				if (twz_runs_append(lout, run, 3) != 0)
					return -1;
				last = d;
			}
			c->link_chunk_at[l] = at;
			c->link_len[l] = (lout->len - at) / 3;
		}
	}
	return 0;
}

/* ---- the bake ----------------------------------------------------------- */

int twz_bake_junctions(const struct twz_grid *g,
		       const struct twz_bake_options *opt,
		       struct twz_junction_db *out, struct twz_error *err)
{
	struct twz_graph base;
	struct twz_junction_graph jg = { 0 };
	struct jctx c = { 0 };
	uint32_t chunks = 0;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (twz_bake_check_limits(g, opt, err) != 0)
		return -1;
	if (twz_graph_build(g, opt->connectivity, &base, err) != 0)
		return -1;
	uint32_t n = base.node_count;
	if (twz_junction_graph_build(&base, &jg) != 0)
		goto nomem;
	uint32_t J = jg.junctions.node_count, L = jg.link_count;
	c.chunk = (uint32_t)(CHUNK_BYTES / (((size_t)J + 1) *
					     sizeof(uint64_t)));
	c.chunk = c.chunk < 1 ? 1 : c.chunk > CHUNK_MAX ? CHUNK_MAX : c.chunk;
	chunks = (J + c.chunk - 1) / c.chunk;
	c.gr = &jg.level;
	c.base = &base;
	/* A junction-graph search costs about J log J, a grid search about
	 * N with a faster step (buckets, canonical expansion): the grid wins
	 * once a third of the cells are junctions. TWZ_JUNCTIONS_SEARCH_*
	 * force one (the tests compare their bytes). */
	c.grid_search = opt->junction_search == TWZ_JUNCTIONS_SEARCH_GRID ||
			(opt->junction_search != TWZ_JUNCTIONS_SEARCH_GRAPH &&
			 (uint64_t)J * 3 > n);
	c.jg = &jg;
	c.links = jg.links;
	c.chunk_runs = calloc(chunks ? chunks : 1, sizeof *c.chunk_runs);
	c.chunk_lruns = calloc(chunks ? chunks : 1, sizeof *c.chunk_lruns);
	c.row_len = calloc((size_t)J + 1, sizeof *c.row_len);
	c.link_len = calloc((size_t)L + 1, sizeof *c.link_len);
	c.link_chunk_at = calloc((size_t)L + 1, sizeof *c.link_chunk_at);
	if (!c.chunk_runs || !c.chunk_lruns || !c.row_len || !c.link_len ||
	    !c.link_chunk_at)
		goto nomem;
	struct twz_pool pool = {
		.opt = opt, .what = "junction rows", .items = J, .chunk = c.chunk,
		.worker_size = sizeof(struct worker),
		.init = worker_init, .fini = worker_fini,
		.run = junction_chunk, .ctx = &c,
	};
	double started = twz_now_seconds();
	int failed = twz_pool_run(&pool, twz_bake_threads(opt));
	out->seconds = twz_now_seconds() - started;
	if (failed) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory during the searches",
				   opt->name);
		goto out_free;
	}

	/* Gather the rows in junction order and the link rows in link
	 * order; the chunks fixed where each went. */
	uint64_t ltotal = 0;
	for (uint32_t k = 0; k < chunks; k++)
		ltotal += c.chunk_lruns[k].len / 3;
	out->row_offsets = malloc(((size_t)J + 1) * sizeof *out->row_offsets);
	out->link_runs = malloc((ltotal ? 3 * ltotal : 1) * sizeof *out->link_runs);
	out->link_offsets = malloc(((size_t)L + 1) * sizeof *out->link_offsets);
	if (!out->row_offsets || !out->link_runs || !out->link_offsets)
		goto nomem;
	int joined = twz_rows_join(c.chunk_runs, chunks, 1, c.row_len, J,
				   &out->runs, out->row_offsets, &out->run_count);
	if (joined < 0)
		goto nomem;
	if (joined > 0 || ltotal > TWZ_MAX_RUNS) {
		twz_error_set(err, "%s: %llu runs exceed the format limit", opt->name,
			      (unsigned long long)(joined ? out->run_count : ltotal));
		goto out_free;
	}
	out->link_offsets[0] = 0;
	for (uint32_t l = 0; l < L; l++) {
		uint32_t A = jg.links[4 * (size_t)l];
		const struct twz_runs *src = &c.chunk_lruns[A / c.chunk];
		memcpy(out->link_runs + 3 * (size_t)out->link_offsets[l],
		       src->v + c.link_chunk_at[l],
		       3 * (size_t)c.link_len[l] * sizeof *out->link_runs);
		out->link_offsets[l + 1] = out->link_offsets[l] + c.link_len[l];
	}
	/* What the file keeps of the reduction. */
	out->graph = jg.level;
	out->junction_node = jg.junction_node;
	out->links = jg.links;
	memset(&jg.level, 0, sizeof jg.level);
	jg.junction_node = NULL;
	jg.links = NULL;
	out->junction_count = J;
	out->link_count = L;
	out->link_run_count = ltotal;
	rc = 0;
	goto out_free;
nomem:
	twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
out_free:
	if (c.chunk_runs)
		for (uint32_t k = 0; k < chunks; k++)
			twz_runs_free(&c.chunk_runs[k]);
	if (c.chunk_lruns)
		for (uint32_t k = 0; k < chunks; k++)
			twz_runs_free(&c.chunk_lruns[k]);
	free(c.chunk_runs);
	free(c.chunk_lruns);
	free(c.row_len);
	free(c.link_len);
	free(c.link_chunk_at);
	twz_junction_graph_free(&jg);
	twz_graph_free(&base);
	if (rc != 0)
		twz_junction_db_free(out);
	return rc;
}

void twz_junction_db_free(struct twz_junction_db *db)
{
	twz_graph_free(&db->graph);
	free(db->junction_node);
	free(db->links);
	free(db->row_offsets);
	free(db->runs);
	free(db->link_offsets);
	free(db->link_runs);
	memset(db, 0, sizeof *db);
}

/* ---- the file ----------------------------------------------------------- */

void twz_junctions_out_file(const struct twz_junction_db *db,
			    const struct twz_grid *g,
			    const struct twz_bake_options *opt,
			    struct twz_out_file *f)
{
	const struct twz_graph *gr = &db->graph;
	size_t cells = (size_t)gr->width * gr->height;
	uint8_t *params = calloc(1, TWZ_JP_SIZE);
	uint8_t *links = malloc(TWZ_JL_SIZE * (size_t)db->link_count + 1);
	uint8_t *lruns = malloc(TWZ_JR_SIZE * (size_t)db->link_run_count + 1);

	twz_bake_header(&f->h, g, gr, opt, TWZ_METHOD_CPD);
	f->name = opt->name;
	f->h.minor = 4;
	f->h.required_features = TWZ_FEATURE_JUNCTIONS;
	if (params) {
		twz_put32(params + TWZ_JP_JUNCTIONS, db->junction_count);
		twz_put32(params + TWZ_JP_LINKS, db->link_count);
	}
	if (links)
		for (size_t i = 0; i < 4 * (size_t)db->link_count; i++)
			twz_put32(links + 4 * i, db->links[i]);
	if (lruns)
		for (size_t i = 0; i < 3 * (size_t)db->link_run_count; i++)
			twz_put32(lruns + 4 * i, db->link_runs[i]);
	twz_out_add_le32(f, TWZ_SECTION_CELL_NODE, gr->cell_node, cells);
	twz_out_add_le32(f, TWZ_SECTION_NODE_CELL, gr->node_cell, gr->node_count);
	twz_out_add_le32(f, TWZ_SECTION_NODE_COMPONENT, gr->node_comp,
			 gr->node_count);
	twz_out_add_owned(f, TWZ_SECTION_JUNCTION_PARAMS, params, TWZ_JP_SIZE);
	twz_out_add_le32(f, TWZ_SECTION_JUNCTION_NODES, db->junction_node,
			 db->junction_count);
	twz_out_add_le32(f, TWZ_SECTION_JUNCTION_ROW_OFFSETS, db->row_offsets,
			 (size_t)db->junction_count + 1);
	twz_out_add_le32(f, TWZ_SECTION_JUNCTION_RUNS, db->runs, db->run_count);
	twz_out_add_owned(f, TWZ_SECTION_JUNCTION_LINKS, links,
			  TWZ_JL_SIZE * (size_t)db->link_count);
	twz_out_add_le32(f, TWZ_SECTION_LINK_ROW_OFFSETS, db->link_offsets,
			 (size_t)db->link_count + 1);
	twz_out_add_owned(f, TWZ_SECTION_LINK_RUNS, lruns,
			  TWZ_JR_SIZE * (size_t)db->link_run_count);
}

int twz_junctions_write(const struct twz_junction_db *db,
			const struct twz_grid *g,
			const struct twz_bake_options *opt, const char *path,
			struct twz_error *err)
{
	struct twz_out_file f = { 0 };

	twz_junctions_out_file(db, g, opt, &f);
	return twz_out_write(&f, path, err);
}

int twz_junctions_encode(const struct twz_junction_db *db,
			 const struct twz_grid *g,
			 const struct twz_bake_options *opt, uint8_t **buf,
			 size_t *len, struct twz_error *err)
{
	struct twz_out_file f = { 0 };

	twz_junctions_out_file(db, g, opt, &f);
	return twz_out_encode(&f, buf, len, err);
}
