/*
 * junctions.c - the junction graph bake (`twigz build --junctions`): find
 * the junctions and the chains of two-move cells between them, number the
 * nodes so that junctions come in DFS order with each chain's cells in a
 * row after the junction it was reached from, search the junction graph
 * from every junction (exact costs, every optimal first move kept for the
 * row encoder's wildcards), and from the far end of every link it starts
 * (the link's row of differences); then the sections of format 1.4.
 */
#include "junctions.h"

#include <stdlib.h>
#include <string.h>

#include "first_moves.h"
#include "rows.h"
#include "twz_writer.h"

/* Junctions per unit of work: a worker keeps the distances of its
 * chunk's junctions, so a link whose two ends share a chunk (most of
 * them: the order numbers a chain's far junction right after it) needs
 * no search of its own. At most 64, and about 32 MiB of distances. */
#define CHUNK_MAX 64u
#define CHUNK_BYTES ((size_t)32 << 20)

/* ---- the junction graph ------------------------------------------------ */

/* What the searches walk: the junction graph, a graph of graph.h whose
 * node j is junction j (node_x, node_y its cell, for the direction
 * symbols), its regions the level's, and junction j's arcs each one grid
 * move from j's cell (arc_move) followed to the next junction, over a
 * chain when the move enters one, at the chain's cost. */
struct jgraph {
	struct twz_graph g;
	uint32_t *link_first;    /* [J + 1]: links whose A is j, by id */
	uint32_t *link_ids;
	uint32_t *jbase;         /* [J]: node of each junction in the base
				    graph (the grid search's numbering) */
};

static void jgraph_free(struct jgraph *jg)
{
	twz_graph_free(&jg->g);
	free(jg->link_first);
	free(jg->link_ids);
	free(jg->jbase);
	memset(jg, 0, sizeof *jg);
}

/* The move from cell a to the adjacent cell b. */
static unsigned move_between(const struct twz_graph *gr, uint32_t a, uint32_t b)
{
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		if (gr->neighbour[(size_t)a * TWZ_MOVE_COUNT + m] == b)
			return m;
	return 0;  /* not reached: b is a neighbour */
}

/* The chain cell after c coming from prev: its other neighbour. */
static uint32_t chain_next(const struct twz_graph *gr, uint32_t c, uint32_t prev)
{
	const uint32_t *nb = gr->neighbour + (size_t)c * TWZ_MOVE_COUNT;

	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		if (nb[m] != TWZ_NODE_NONE && nb[m] != prev)
			return nb[m];
	return TWZ_NODE_NONE;  /* not reached: chain cells have two moves */
}

/* ---- numbering ---------------------------------------------------------- */

struct order {
	uint32_t *new_id;        /* [N] base node -> new node */
	uint32_t *old_of;        /* [N] new node -> base node */
	uint32_t *jidx;          /* [N] base node -> junction, or NONE */
	uint32_t n, jcount;
	uint32_t *jnode;         /* [N] junction -> new node */
	uint32_t *links;         /* [4 N] */
	uint32_t lcount;
};

static void emit(struct order *o, const uint8_t *is_junction, uint32_t v)
{
	o->new_id[v] = o->n;
	o->old_of[o->n] = v;
	if (is_junction[v]) {
		o->jidx[v] = o->jcount;
		o->jnode[o->jcount++] = o->n;
	}
	o->n++;
}

/*
 * Junctions in DFS preorder over the junction graph, region by region
 * from each region's first junction in base order. A junction's moves are
 * taken in move order: onto an unnumbered junction, which is numbered and
 * entered; into a chain not numbered yet, whose cells are numbered in a
 * row from this end, then its far junction if new. Each node then has an
 * earlier neighbour (DFS order as the validator proves it).
 */
static int number(const struct twz_graph *gr, const uint8_t *is_junction,
		  struct order *o)
{
	uint32_t n = gr->node_count;
	uint32_t *stack = malloc((n ? n : 1) * sizeof *stack);
	uint8_t *cursor = calloc(n ? n : 1, 1);

	if (!stack || !cursor) {
		free(stack);
		free(cursor);
		return -1;
	}
	memset(o->new_id, 0xFF, (size_t)n * sizeof *o->new_id);
	memset(o->jidx, 0xFF, (size_t)n * sizeof *o->jidx);
	for (uint32_t k = 0; k < gr->component_count; k++) {
		uint32_t root = gr->comp_first[k];
		while (!is_junction[root])
			root++;  /* every region has one */
		size_t top = 0;
		emit(o, is_junction, root);
		stack[top++] = root;
		while (top) {
			uint32_t u = stack[top - 1];
			const uint32_t *nb = gr->neighbour + (size_t)u * TWZ_MOVE_COUNT;
			uint32_t pushed = TWZ_NODE_NONE;
			while (cursor[u] < TWZ_MOVE_COUNT && pushed == TWZ_NODE_NONE) {
				uint32_t w = nb[cursor[u]++];
				if (w == TWZ_NODE_NONE || o->new_id[w] != TWZ_NODE_NONE)
					continue;
				if (is_junction[w]) {
					emit(o, is_junction, w);
					pushed = w;
					break;
				}
				uint32_t first = o->n, prev = u, c = w;
				while (!is_junction[c]) {
					emit(o, is_junction, c);
					uint32_t nx = chain_next(gr, c, prev);
					prev = c;
					c = nx;
				}
				uint32_t count = o->n - first;
				if (o->new_id[c] == TWZ_NODE_NONE) {
					emit(o, is_junction, c);
					pushed = c;
				}
				uint32_t *l = o->links + 4 * (size_t)o->lcount++;
				l[0] = o->jidx[u];
				l[1] = o->jidx[c];
				l[2] = first;
				l[3] = count;
			}
			if (pushed != TWZ_NODE_NONE)
				stack[top++] = pushed;
			else
				top--;
		}
	}
	free(stack);
	free(cursor);
	return 0;
}

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
	const struct jgraph *jg;
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
	size_t J = c->jg->g.node_count ? c->jg->g.node_count : 1;

	w->cache = malloc(c->chunk * J * sizeof *w->cache);
	w->dist = malloc(J * sizeof *w->dist);
	w->moves = malloc(J);
	if (twz_search_init(&w->search, c->grid_search ? c->base : &c->jg->g) != 0)
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
	const struct jgraph *jg = c->jg;
	const struct twz_graph *g = &jg->g;
	uint32_t r = g->node_comp[src];
	uint32_t lo = g->comp_first[r], hi = g->comp_first[r + 1];

	if (twz_search_run(&w->search, c->grid_search ? jg->jbase[src] : src) != 0)
		return -1;
	for (uint32_t t = lo; t < hi; t++) {
		uint32_t v = c->grid_search ? jg->jbase[t] : t;
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
	const struct jgraph *jg = c->jg;
	struct worker *w = wk;
	struct twz_runs *out = &c->chunk_runs[lo / c->chunk];
	struct twz_runs *lout = &c->chunk_lruns[lo / c->chunk];
	const struct twz_graph *g = &jg->g;
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

/* The junction graph of the new numbering: arcs, links by A, regions. */
static int build_jgraph(const struct twz_graph *base, const struct order *o,
			const uint8_t *is_junction, struct jgraph *jg)
{
	struct twz_graph *g = &jg->g;
	uint32_t J = o->jcount, L = o->lcount, R = base->component_count;
	size_t arcs = 0;

	g->node_count = J;
	g->component_count = R;
	g->arc_first = calloc((size_t)J + 1, sizeof *g->arc_first);
	g->node_comp = malloc(((size_t)J + 1) * sizeof *g->node_comp);
	g->comp_first = malloc(((size_t)R + 1) * sizeof *g->comp_first);
	g->node_x = malloc(((size_t)J + 1) * sizeof *g->node_x);
	g->node_y = malloc(((size_t)J + 1) * sizeof *g->node_y);
	jg->link_first = calloc((size_t)J + 1, sizeof *jg->link_first);
	jg->link_ids = malloc(((size_t)L + 1) * sizeof *jg->link_ids);
	jg->jbase = malloc(((size_t)J + 1) * sizeof *jg->jbase);
	if (!g->arc_first || !g->node_comp || !g->comp_first || !g->node_x ||
	    !g->node_y || !jg->link_first || !jg->link_ids || !jg->jbase)
		return -1;
	for (uint32_t j = 0; j < J; j++) {
		uint32_t v = o->old_of[o->jnode[j]];
		jg->jbase[j] = v;
		g->node_x[j] = base->node_x[v];
		g->node_y[j] = base->node_y[v];
		arcs += __builtin_popcount(twz_graph_moves(base, v));
	}
	g->arc_head = malloc((arcs ? arcs : 1) * sizeof *g->arc_head);
	g->arc_move = malloc(arcs ? arcs : 1);
	g->arc_cost = malloc((arcs ? arcs : 1) * sizeof *g->arc_cost);
	if (!g->arc_head || !g->arc_move || !g->arc_cost)
		return -1;
	uint32_t a = 0;
	for (uint32_t j = 0; j < J; j++) {
		uint32_t v = o->old_of[o->jnode[j]];
		const uint32_t *nb = base->neighbour + (size_t)v * TWZ_MOVE_COUNT;
		g->arc_first[j] = a;
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			if (nb[m] == TWZ_NODE_NONE)
				continue;
			uint64_t cost = twz_move_key(m);
			uint32_t prev = v, c = nb[m];
			while (!is_junction[c]) {
				uint32_t nx = chain_next(base, c, prev);
				cost += twz_move_key(move_between(base, c, nx));
				prev = c;
				c = nx;
			}
			if (c == v)
				continue;  /* a loop back: never on a shortest path */
			g->arc_head[a] = o->jidx[c];
			g->arc_move[a] = (uint8_t)m;
			g->arc_cost[a] = cost;
			if (cost > g->max_cost)
				g->max_cost = cost;
			a++;
		}
	}
	g->arc_first[J] = a;
	g->arc_count = a;
	for (uint32_t l = 0; l < L; l++)
		jg->link_first[o->links[4 * (size_t)l] + 1]++;
	for (uint32_t j = 0; j < J; j++)
		jg->link_first[j + 1] += jg->link_first[j];
	uint32_t *fill = calloc((size_t)J + 1, sizeof *fill);
	if (!fill)
		return -1;
	for (uint32_t l = 0; l < L; l++) {
		uint32_t A = o->links[4 * (size_t)l];
		jg->link_ids[jg->link_first[A] + fill[A]++] = l;
	}
	free(fill);
	/* The level's regions, each with a junction, in order. */
	for (uint32_t j = 0, r = 0; j < J; j++) {
		uint32_t k = base->node_comp[jg->jbase[j]];
		if (j == 0 || k != base->node_comp[jg->jbase[j - 1]])
			g->comp_first[r++] = j;
		g->node_comp[j] = r - 1;
	}
	g->comp_first[R] = J;
	return 0;
}

/* The graph of the new numbering (no neighbour table: the file does not
 * need it). */
static int renumber(const struct twz_graph *base, const struct order *o,
		    struct twz_graph *gr)
{
	uint32_t n = base->node_count;
	size_t cells = (size_t)base->width * base->height;

	*gr = *base;
	gr->cell_node = malloc(cells * sizeof *gr->cell_node);
	gr->node_cell = malloc((n ? n : 1) * sizeof *gr->node_cell);
	gr->node_x = malloc((n ? n : 1) * sizeof *gr->node_x);
	gr->node_y = malloc((n ? n : 1) * sizeof *gr->node_y);
	gr->node_comp = malloc((n ? n : 1) * sizeof *gr->node_comp);
	gr->comp_first = malloc(((size_t)base->component_count + 1) *
				sizeof *gr->comp_first);
	gr->neighbour = NULL;
	if (!gr->cell_node || !gr->node_cell || !gr->node_x || !gr->node_y ||
	    !gr->node_comp || !gr->comp_first)
		return -1;
	memcpy(gr->comp_first, base->comp_first,
	       ((size_t)base->component_count + 1) * sizeof *gr->comp_first);
	for (size_t c = 0; c < cells; c++)
		gr->cell_node[c] = base->cell_node[c] == TWZ_NODE_NONE
				   ? TWZ_NODE_NONE : o->new_id[base->cell_node[c]];
	for (uint32_t v = 0; v < n; v++) {
		uint32_t old = o->old_of[v];
		gr->node_cell[v] = base->node_cell[old];
		gr->node_x[v] = base->node_x[old];
		gr->node_y[v] = base->node_y[old];
		gr->node_comp[v] = base->node_comp[old];
	}
	return 0;
}

static void order_free(struct order *o)
{
	free(o->new_id);
	free(o->old_of);
	free(o->jidx);
	free(o->jnode);
	free(o->links);
	memset(o, 0, sizeof *o);
}

int twz_bake_junctions(const struct twz_grid *g,
		       const struct twz_bake_options *opt,
		       struct twz_junction_db *out, struct twz_error *err)
{
	struct twz_graph base;
	struct order o = { 0 };
	struct jgraph jg = { 0 };
	struct jctx c = { 0 };
	uint8_t *is_junction = NULL;
	uint32_t chunks = 0;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (twz_bake_check_limits(g, opt, err) != 0)
		return -1;
	if (twz_graph_build(g, opt->connectivity, &base, err) != 0)
		return -1;
	uint32_t n = base.node_count;
	size_t nn = n ? n : 1;
	is_junction = malloc(nn);
	o.new_id = malloc(nn * sizeof *o.new_id);
	o.old_of = malloc(nn * sizeof *o.old_of);
	o.jidx = malloc(nn * sizeof *o.jidx);
	o.jnode = malloc(nn * sizeof *o.jnode);
	o.links = malloc(4 * nn * sizeof *o.links);
	if (!is_junction || !o.new_id || !o.old_of || !o.jidx || !o.jnode ||
	    !o.links)
		goto nomem;

	/* Junctions: every cell without exactly two moves, and in a region
	 * that is one closed loop, its first cell. */
	for (uint32_t v = 0; v < n; v++)
		is_junction[v] = __builtin_popcount(twz_graph_moves(&base, v)) != 2;
	for (uint32_t k = 0; k < base.component_count; k++) {
		uint32_t v = base.comp_first[k], e = base.comp_first[k + 1];
		while (v < e && !is_junction[v])
			v++;
		if (v == e)
			is_junction[base.comp_first[k]] = 1;
	}
	if (number(&base, is_junction, &o) != 0)
		goto nomem;
	if (build_jgraph(&base, &o, is_junction, &jg) != 0 ||
	    renumber(&base, &o, &out->graph) != 0)
		goto nomem;

	uint32_t J = o.jcount, L = o.lcount;
	c.chunk = (uint32_t)(CHUNK_BYTES / (((size_t)J + 1) *
					     sizeof(uint64_t)));
	c.chunk = c.chunk < 1 ? 1 : c.chunk > CHUNK_MAX ? CHUNK_MAX : c.chunk;
	chunks = (J + c.chunk - 1) / c.chunk;
	c.gr = &out->graph;
	c.base = &base;
	/* A junction-graph search costs about J log J, a grid search about
	 * N with a faster step (buckets, canonical expansion): the grid wins
	 * once a third of the cells are junctions. TWZ_JUNCTIONS_SEARCH_*
	 * force one (the tests compare their bytes). */
	c.grid_search = opt->junctions == TWZ_JUNCTIONS_SEARCH_GRID ||
			(opt->junctions != TWZ_JUNCTIONS_SEARCH_GRAPH &&
			 (uint64_t)J * 3 > n);
	c.jg = &jg;
	c.links = o.links;
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
	out->junction_node = malloc(((size_t)J + 1) * sizeof *out->junction_node);
	out->links = malloc((4 * (size_t)L + 1) * sizeof *out->links);
	if (!out->row_offsets || !out->link_runs || !out->link_offsets ||
	    !out->junction_node || !out->links)
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
		uint32_t A = o.links[4 * (size_t)l];
		const struct twz_runs *src = &c.chunk_lruns[A / c.chunk];
		memcpy(out->link_runs + 3 * (size_t)out->link_offsets[l],
		       src->v + c.link_chunk_at[l],
		       3 * (size_t)c.link_len[l] * sizeof *out->link_runs);
		out->link_offsets[l + 1] = out->link_offsets[l] + c.link_len[l];
	}
	memcpy(out->junction_node, o.jnode, (size_t)J * sizeof *o.jnode);
	memcpy(out->links, o.links, 4 * (size_t)L * sizeof *o.links);
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
	jgraph_free(&jg);
	order_free(&o);
	free(is_junction);
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
	return twz_out_write(&f, opt->name, path, err);
}

int twz_junctions_encode(const struct twz_junction_db *db,
			 const struct twz_grid *g,
			 const struct twz_bake_options *opt, uint8_t **buf,
			 size_t *len, struct twz_error *err)
{
	struct twz_out_file f = { 0 };

	twz_junctions_out_file(db, g, opt, &f);
	return twz_out_encode(&f, opt->name, buf, len, err);
}
