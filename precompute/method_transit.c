/*
 * method_transit.c - the TRANSIT pipeline: block graph -> transit nodes per
 * block -> one bounded search per source (local rows, distances to the
 * block's transit nodes) -> one search per transit node (the transit
 * table) -> sections. Every stage runs on all threads asked for and writes
 * each result to a place fixed by its index, so the file does not depend
 * on the thread count.
 */
#include "transit.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bake_method.h"
#include "bake_forecast.h"
#include "rows.h"
#include "search_transit.h"
#include "spool.h"
#include "method_transit_select.h"
#include "twz_writer.h"


static const struct twz_tdist far_dist = { UINT32_MAX, UINT32_MAX };

static inline struct twz_tdist tdist(struct twz_cost c)
{
	return (struct twz_tdist){ c.straight, c.diagonal };
}



/* What each worker of the pool owns: a search, node_count-sized scratch
 * arrays kept all zero (seen) or all NONE (pos) between units, and the
 * node ranges of an outer square (2 * rows of blocks). */
struct worker {
	struct twz_tsearch ws;
	uint8_t *seen;
	uint32_t *pos;
	uint32_t *range;
	struct twz_runs runs;         /* a block's local rows */
};

/* The state every stage's units share. */
struct stages {
	struct twz_transit_db *db;
	/* stage 1 */
	uint32_t **list;              /* [blocks]: transit nodes of the block */
	uint32_t *len;                /* [blocks] */
	/* stage 2 */
	const uint64_t *dist_first;   /* [blocks]: into db->node_dist */
	struct twz_gather rows;       /* the blocks' local rows, joined */
	uint32_t *row_len;            /* [node_count] */
	atomic_ullong searched;       /* nodes settled by the local searches */
	atomic_ullong shortcut_searched; /* ... by their shortcut searches */
	/* stage 3 */
	const uint32_t *tindex;       /* [node_count]: transit index or NONE */
	const uint32_t *want;         /* [M]: transits j >= i in i's region */
	/* the blocks of stage 2 and the table rows of stage 3 baked: all,
	 * or a shard's (bake_method.h) */
	struct twz_transit_range range;
};

static int worker_init(void *ctx, void *w)
{
	const struct twz_graph *tg = &((struct stages *)ctx)->db->graph;
	struct worker *wk = w;
	size_t n = tg->node_count ? tg->node_count : 1;

	wk->seen = calloc(n, 1);
	wk->pos = malloc(n * sizeof *wk->pos);
	wk->range = malloc((2 * (size_t)tg->rows + 2) * sizeof *wk->range);
	wk->runs = (struct twz_runs){ NULL, 0, 0 };
	if (!wk->seen || !wk->pos || !wk->range ||
	    twz_tsearch_init(&wk->ws, tg) != 0) {
		free(wk->seen);
		free(wk->pos);
		free(wk->range);
		return -1;
	}
	memset(wk->pos, 0xFF, n * sizeof *wk->pos);
	return 0;
}

static void worker_fini(void *w)
{
	struct worker *wk = w;

	twz_tsearch_free(&wk->ws);
	free(wk->seen);
	free(wk->pos);
	free(wk->range);
	free(wk->runs.v);
}

/* Run a stage over [0, items) in chunks of `chunk` on every thread. */
static int run_stage(struct stages *st, const struct twz_bake_options *opt,
		     const char *what, uint32_t items, uint32_t chunk,
		     int (*run)(void *, void *, uint32_t, uint32_t))
{
	struct twz_pool p = {
		.opt = opt, .spool = st->db->spool, .what = what, .items = items,
		.chunk = chunk,
		.worker_size = sizeof(struct worker), .init = worker_init,
		.fini = worker_fini, .run = run, .ctx = st,
	};

	return twz_pool_run(&p, twz_bake_threads(opt));
}

/* ---- stage 1: transit nodes of every block --------------------------- */


static int select_chunk(void *ctx, void *w, uint32_t lo, uint32_t hi)
{
	struct stages *sc = ctx;
	struct worker *wk = w;

	for (uint32_t b = lo; b < hi; b++)
		if (twz_transit_select_block(&wk->ws, b, wk->seen, &sc->list[b],
					     &sc->len[b]) != 0)
			return -1;
	return 0;
}

/* Gather the block lists into transit indices: transit nodes ascending by
 * node id, each block's list ascending. */
static int index_transits(struct twz_transit_db *db, struct stages *sc,
			  uint32_t *tindex, struct twz_error *err,
			  const char *name)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t blocks = tg->cols * tg->rows;
	uint64_t listed = 0;

	for (uint32_t v = 0; v < tg->node_count; v++)
		tindex[v] = TWZ_NODE_NONE;
	for (uint32_t b = 0; b < blocks; b++) {
		listed += sc->len[b];
		if (sc->len[b] > db->max_block_transits)
			db->max_block_transits = sc->len[b];
		for (uint32_t i = 0; i < sc->len[b]; i++)
			tindex[sc->list[b][i]] = 0;
	}
	if (db->max_block_transits > TWZ_TRANSIT_MAX_LIST) {
		twz_error_set(err, "%s: a block has %u transit nodes, more than %u; "
			      "use a finer --transit-grid", name,
			      db->max_block_transits, TWZ_TRANSIT_MAX_LIST);
		return -1;
	}
	uint32_t m = 0;
	for (uint32_t v = 0; v < tg->node_count; v++)
		if (tindex[v] != TWZ_NODE_NONE)
			m++;
	db->transit_count = m;
	db->table_count = (uint64_t)m * (m ? m - 1 : 0) / 2;
	if (db->table_count > TWZ_TRANSIT_MAX_TABLE) {
		twz_error_set(err, "%s: %u transit nodes would need a table of %llu "
			      "entries (at most %llu); use a coarser --transit-grid",
			      name, m, (unsigned long long)db->table_count,
			      (unsigned long long)TWZ_TRANSIT_MAX_TABLE);
		return -1;
	}
	db->transit_node = malloc((m ? m : 1) * sizeof(uint32_t));
	db->block_transit_first = malloc(((size_t)blocks + 1) * sizeof(uint32_t));
	db->block_transit = malloc((listed ? listed : 1) * sizeof(uint32_t));
	if (!db->transit_node || !db->block_transit_first || !db->block_transit) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
		return -1;
	}
	m = 0;
	for (uint32_t v = 0; v < tg->node_count; v++)
		if (tindex[v] != TWZ_NODE_NONE) {
			tindex[v] = m;
			db->transit_node[m++] = v;
		}
	uint32_t at = 0;
	for (uint32_t b = 0; b < blocks; b++) {
		db->block_transit_first[b] = at;
		for (uint32_t i = 0; i < sc->len[b]; i++)
			db->block_transit[at++] = tindex[sc->list[b][i]];
	}
	db->block_transit_first[blocks] = at;
	return 0;
}

/* ---- stage 2: local rows and distances to the block's transit nodes -- */


/*
 * The local row of s: over the targets in node order, the local ones
 * (same region, within the outer square: settled by the local search)
 * carry their optimal first-move sets, all others are wildcards. The
 * local targets are the node ranges of the outer square's block rows,
 * so the row is made without touching anything else.
 */
static int encode_row(const struct twz_graph *tg,
		      const struct twz_tsearch *ws, uint32_t s,
		      const uint32_t *range, uint32_t ranges,
		      struct twz_runs *out)
{
	struct twz_row_source src = {
		s, tg->node_x, tg->node_y, tg->connectivity, ws->st.moves,
		ws->st.state, TWZ_TSEARCH_SETTLED,
	};

	return twz_row_encode_ranges(&src, range, ranges, out);
}

/* Whether v lies in the outer square of block b. */
static int in_outer(const struct twz_graph *tg, uint32_t b, uint32_t v)
{
	return twz_blocks_within(tg, b, tg->node_block[v], tg->outer);
}

/* The border of block b's outer square: its nodes with a legal move out
 * of it, in node order. *out is malloc'd. */
static int outer_border(const struct twz_graph *tg, uint32_t b,
			const uint32_t *range, uint32_t ranges,
			uint32_t **out, uint32_t *len)
{
	uint32_t *v = NULL, n = 0, cap = 0;

	*out = NULL;
	*len = 0;
	for (uint32_t i = 0; i < ranges; i++) {
		for (uint32_t u = range[2 * i]; u < range[2 * i + 1]; u++) {
			const uint32_t *nb = tg->neighbour + (size_t)u * TWZ_MOVE_COUNT;
			unsigned m;
			for (m = 0; m < tg->connectivity; m++)
				if (nb[m] != TWZ_NODE_NONE && !in_outer(tg, b, nb[m]))
					break;
			if (m == tg->connectivity)
				continue;
			if (n == cap) {
				uint32_t ncap = cap ? 2 * cap : 256;
				uint32_t *nv = realloc(v, ncap * sizeof *nv);
				if (!nv) {
					free(v);
					return -1;
				}
				v = nv;
				cap = ncap;
			}
			v[n++] = u;
		}
	}
	*out = v;
	*len = n;
	return 0;
}

/* A block's shortcuts, grouped by transit node (struct twz_shortcuts). */
struct shortcut_lists {
	uint32_t *first;              /* [transits + 1] */
	uint32_t *to;
	uint64_t *key;
	uint32_t len, cap;
	uint64_t span;
};

static void shortcut_lists_free(struct shortcut_lists *sl)
{
	free(sl->first);
	free(sl->to);
	free(sl->key);
	memset(sl, 0, sizeof *sl);
}

static int shortcut_add(struct shortcut_lists *sl, uint32_t e, uint64_t key)
{
	if (sl->len == sl->cap) {
		uint32_t ncap = sl->cap ? 2 * sl->cap : 256;
		uint32_t *nt = realloc(sl->to, ncap * sizeof *nt);
		if (!nt)
			return -1;
		sl->to = nt;
		uint64_t *nk = realloc(sl->key, ncap * sizeof *nk);
		if (!nk)
			return -1;
		sl->key = nk;
		sl->cap = ncap;
	}
	sl->to[sl->len] = e;
	sl->key[sl->len++] = key;
	uint64_t half = (uint64_t)(2.0 * twz_cost_value(twz_key_cost(key))) + 2;
	if (half > sl->span)
		sl->span = half;
	return 0;
}

/*
 * The shortcuts of block b's local searches: from each transit node a of
 * b to each border node e of b's outer square O (its nodes with a move out
 * of O) whose exact cost d(a, e) on the whole graph is less than the
 * cheapest a-e path inside O, at the cost d(a, e). The area of the local
 * searches must be b's outer square.
 *
 * Why the local search over O plus these shortcuts gives exact costs
 * d(s, t) for s in b and t in O: no edge of that graph is cheaper than a
 * true shortest path between its ends, and a lexicographically shortest
 * s-t path P that leaves O passes, before its first node outside O, a
 * transit node a of b (the claim of method_transit_select.c) with
 * P[s..a] in O; P's last stretch inside O starts at a border node e,
 * after a, and runs in O to t. So P[s..a], a shortcut a-e of cost d(a, e) and P[e..t] make
 * a path of P's cost; when the a-e shortcut was left out, a path inside O
 * of cost d(a, e) stands in for it. Every first move the search finds is
 * a real move (s is no transit node, so a path's first edge is a move) of
 * a path of optimal cost: the local rows hold optimal first moves of
 * globally shortest paths, from searches whose size does not depend on
 * how far a detour runs.
 * Leaving out a shortcut changes no result: its stand-in path runs in O,
 * each of its nodes at its optimal cost from s (a prefix of a shortest
 * path), so its edges are tight and carry a's first moves on to e, as the
 * shortcut did; costs and first-move sets are those of the whole
 * shortcut set, and so are the rows.
 */
static int block_shortcuts(struct worker *wk, const struct twz_transit_db *db,
			   uint32_t b, const uint32_t *border, uint32_t nborder,
			   struct shortcut_lists *sl, uint64_t *settled)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t f = db->block_transit_first[b];
	uint32_t n = db->block_transit_first[b + 1] - f;
	uint64_t *row = malloc((nborder ? nborder : 1) * sizeof *row);
	int rc = -1;

	memset(sl, 0, sizeof *sl);
	sl->first = malloc(((size_t)n + 1) * sizeof *sl->first);
	if (!row || !sl->first)
		goto out;
	for (uint32_t j = 0; j < nborder; j++)
		wk->seen[border[j]] = 1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t a = db->transit_node[db->block_transit[f + i]];
		uint32_t want = 0;
		for (uint32_t j = 0; j < nborder; j++)
			want += tg->node_comp[border[j]] == tg->node_comp[a];
		if (twz_tsearch_flags(&wk->ws, a, wk->seen, want) != 0)
			goto out;
		*settled += wk->ws.st.order_len;
		for (uint32_t j = 0; j < nborder; j++)
			row[j] = twz_tsearch_settled(&wk->ws, border[j])
				? twz_cost_key(twz_tsearch_cost(&wk->ws, border[j]))
				: UINT64_MAX;
		/* The same costs inside O only. */
		if (twz_tsearch_local(&wk->ws, a, NULL) != 0)
			goto out;
		*settled += wk->ws.st.order_len;
		sl->first[i] = sl->len;
		for (uint32_t j = 0; j < nborder; j++) {
			uint32_t e = border[j];
			if (row[j] == UINT64_MAX || e == a)
				continue;
			if (twz_tsearch_settled(&wk->ws, e) &&
			    !twz_cost_less(twz_key_cost(row[j]),
					   twz_tsearch_cost(&wk->ws, e)))
				continue;  /* a path inside O is as short */
			if (shortcut_add(sl, e, row[j]) != 0)
				goto out;
		}
	}
	sl->first[n] = sl->len;
	rc = 0;
out:
	for (uint32_t j = 0; j < nborder; j++)
		wk->seen[border[j]] = 0;
	free(row);
	if (rc != 0)
		shortcut_lists_free(sl);
	return rc;
}

/* The local rows and transit distances of the nodes of blocks [lo, hi). */
static int local_chunk(void *ctx, void *w, uint32_t lo, uint32_t hi)
{
	struct stages *lc = ctx;
	struct worker *wk = w;
	struct twz_transit_db *db = lc->db;
	const struct twz_graph *tg = &db->graph;
	struct twz_tsearch *ws = &wk->ws;
	uint64_t searched = 0, shortcut = 0;
	int rc = 0;

	lo += lc->range.block_lo;
	hi += lc->range.block_lo;
	for (uint32_t b = lo; b < hi && rc == 0; b++) {
		uint32_t first = tg->block_first[b], last = tg->block_first[b + 1];
		uint32_t f = db->block_transit_first[b];
		uint32_t n = db->block_transit_first[b + 1] - f;
		uint32_t *border = NULL, nborder = 0;
		struct shortcut_lists sl = { 0 };

		/* Every block's rows go to the gather, an empty one's too. */
		if (first == last) {
			rc = twz_gather_put(&lc->rows, b - lc->range.block_lo, NULL, 0);
			continue;
		}
		rc = -1;
		uint32_t ranges = twz_block_ranges(tg, b, tg->outer, wk->range);
		twz_tsearch_area(ws, wk->range, ranges, 1);
		if (outer_border(tg, b, wk->range, ranges, &border, &nborder) != 0 ||
		    block_shortcuts(wk, db, b, border, nborder, &sl,
				    &shortcut) != 0) {
			twz_tsearch_area(ws, wk->range, ranges, 0);
			goto next;
		}
		for (uint32_t i = 0; i < n; i++)
			wk->pos[db->transit_node[db->block_transit[f + i]]] = i;
		struct twz_shortcuts sc = { wk->pos, sl.first, sl.to, sl.key, sl.span };
		struct twz_runs *out = &wk->runs;
		struct twz_tdist *dist = db->node_dist + lc->dist_first[b];
		for (uint32_t s = first; s < last; s++) {
			uint32_t before = out->len;
			if (twz_tsearch_local(ws, s, &sc) != 0 ||
			    encode_row(tg, ws, s, wk->range, ranges, out) != 0) {
				twz_tsearch_area(ws, wk->range, ranges, 0);
				goto next;
			}
			lc->row_len[s] = out->len - before;
			searched += ws->st.order_len;
			struct twz_tdist *d = dist + (uint64_t)(s - first) * n;
			for (uint32_t j = 0; j < n; j++) {
				uint32_t a = db->transit_node[db->block_transit[f + j]];
				if (twz_tsearch_settled(ws, a))
					d[j] = tdist(twz_tsearch_cost(ws, a));
				else
					d[j] = far_dist;
			}
		}
		twz_tsearch_area(ws, wk->range, ranges, 0);
		rc = twz_gather_put_runs(&lc->rows, b - lc->range.block_lo, out);
next:
		for (uint32_t i = 0; i < n; i++)
			wk->pos[db->transit_node[db->block_transit[f + i]]] = TWZ_NODE_NONE;
		free(border);
		shortcut_lists_free(&sl);
	}
	atomic_fetch_add(&lc->searched, searched);
	atomic_fetch_add(&lc->shortcut_searched, shortcut);
	return rc;
}

/* ---- stage 3: the transit table ------------------------------------- */


static int table_chunk(void *ctx, void *w, uint32_t lo, uint32_t hi)
{
	struct stages *tc = ctx;
	struct worker *wk = w;
	struct twz_transit_db *db = tc->db;
	struct twz_tsearch *ws = &wk->ws;
	uint32_t m = db->transit_count;

	lo += tc->range.table_lo;
	hi += tc->range.table_lo;
	for (uint32_t i = lo; i < hi; i++) {
		if (twz_tsearch_targets(ws, db->transit_node[i], tc->tindex, i,
					tc->want[i]) != 0)
			return -1;
		struct twz_tdist *row = db->table + twz_transit_table_row(m, i);
		for (uint32_t j = i + 1; j < m; j++) {
			uint32_t b = db->transit_node[j];
			if (twz_tsearch_settled(ws, b))
				row[j - i - 1] = tdist(twz_tsearch_cost(ws, b));
			else
				row[j - i - 1] = far_dist;
		}
	}
	return 0;
}

/* ---- the pipeline --------------------------------------------------- */

void twz_transit_db_free(struct twz_transit_db *db)
{
	twz_graph_free(&db->graph);
	free(db->tindex);
	free(db->transit_node);
	free(db->block_transit_first);
	free(db->block_transit);
	twz_big_free(db->spool, db->node_dist);
	twz_big_free(db->spool, db->table);
	free(db->row_offsets);
	twz_big_free(db->spool, db->runs);
	free(db->access_first);
	twz_big_free(db->spool, db->access);
	free(db->access_node);
	free(db->access_old);
	memset(db, 0, sizeof *db);
}

static int stage_select(struct stages *st, const struct twz_bake_options *opt,
			uint32_t *tindex, struct twz_error *err)
{
	struct twz_transit_db *db = st->db;
	const struct twz_graph *tg = &db->graph;
	uint32_t blocks = tg->cols * tg->rows;
	int rc = -1;
	double t0 = twz_now_seconds();

	st->list = calloc(blocks, sizeof *st->list);
	st->len = calloc(blocks, sizeof *st->len);
	if (!st->list || !st->len ||
	    run_stage(st, opt, "transit nodes", blocks, 1, select_chunk) != 0) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory selecting transit nodes",
				   opt->name);
		goto out;
	}
	rc = index_transits(db, st, tindex, err, opt->name);
out:
	if (st->list)
		for (uint32_t b = 0; b < blocks; b++)
			free(st->list[b]);
	free(st->list);
	free(st->len);
	db->select_seconds = twz_now_seconds() - t0;
	return rc;
}

/* ---- the forecast, once the transit nodes are known ----------------- */

/* The node pairs of block b's local searches: its nodes with those of
 * its outer square (range: room for its ranges). */
static double block_pairs(const struct twz_graph *tg, uint32_t b,
			  uint32_t *range)
{
	uint32_t ranges = twz_block_ranges(tg, b, tg->outer, range);
	double near = 0;

	for (uint32_t k = 0; k < ranges; k++)
		near += range[2 * k + 1] - range[2 * k];
	return near * (tg->block_first[b + 1] - tg->block_first[b]);
}

/* The forecast's sample: block item's local rows and distances, made as
 * the bake makes them (ctx: a copy of the stages whose rows go to a
 * scratch gather; the distances are made again by the bake); the node
 * pairs of its searches. */
static int64_t local_sample(void *ctx, void *w, uint32_t item)
{
	struct stages *st = ctx;
	struct worker *wk = w;
	uint32_t b = st->range.block_lo + item;
	double pairs = block_pairs(&st->db->graph, b, wk->range);

	return local_chunk(st, w, item, item + 1) != 0 ? -1 : (int64_t)pairs;
}

/* The node pairs of the range's searches: each node of its blocks with
 * the nodes of its outer square, each transit node of its table rows
 * with its region (at most); size[r] holds region r's nodes. */
static double transit_pairs(const struct stages *st, uint32_t *range,
			    const uint32_t *size)
{
	const struct twz_transit_db *db = st->db;
	const struct twz_graph *tg = &db->graph;
	double pairs = 0;

	for (uint32_t b = st->range.block_lo; b < st->range.block_hi; b++)
		pairs += block_pairs(tg, b, range);
	for (uint32_t i = st->range.table_lo; i < st->range.table_hi; i++)
		pairs += size[tg->node_comp[db->transit_node[i]]];
	return pairs;
}

/* Say how long the local rows and the table will take, and refuse a
 * bake over --max-seconds, before either starts (st's distances made,
 * its rows not yet). */
static int transit_forecast(const struct stages *st,
			    const struct twz_bake_options *opt,
			    struct twz_error *err)
{
	const struct twz_graph *tg = &st->db->graph;
	uint32_t items = st->range.block_hi - st->range.block_lo;
	struct stages fs = *st;
	uint32_t *range = malloc((2 * (size_t)tg->rows + 2) * sizeof *range);
	uint32_t *size = calloc(tg->component_count ? tg->component_count : 1,
				sizeof *size);
	struct twz_pool p = {
		.opt = opt, .items = items, .chunk = 1,
		.worker_size = sizeof(struct worker),
		.init = worker_init, .fini = worker_fini, .ctx = &fs,
	};
	int rc = -1;

	/* The sample's rows and their lengths go to scratch. */
	fs.row_len = calloc(tg->node_count ? tg->node_count : 1, sizeof *fs.row_len);
	atomic_init(&fs.searched, 0);
	atomic_init(&fs.shortcut_searched, 0);
	if (!range || !size || !fs.row_len ||
	    twz_gather_init(&fs.rows, items, NULL) != 0) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		goto out;
	}
	for (uint32_t v = 0; v < tg->node_count; v++)
		size[tg->node_comp[v]]++;
	rc = twz_bake_forecast(&p, local_sample, transit_pairs(st, range, size),
			       st->db->select_seconds, NULL, err);
	twz_gather_end(&fs.rows);
	free(fs.rows.v);
out:
	free(range);
	free(size);
	free(fs.row_len);
	return rc;
}

static int stage_local(struct stages *st, const struct twz_bake_options *opt,
		       struct twz_error *err)
{
	struct twz_transit_db *db = st->db;
	const struct twz_graph *tg = &db->graph;
	uint32_t blocks = tg->cols * tg->rows;
	uint64_t *dist_first = malloc(((size_t)blocks + 1) * sizeof *dist_first);
	int rc = -1;
	double t0 = twz_now_seconds();

	atomic_init(&st->searched, 0);
	atomic_init(&st->shortcut_searched, 0);
	st->row_len = calloc(tg->node_count ? tg->node_count : 1, sizeof(uint32_t));
	if (!dist_first || !st->row_len ||
	    twz_gather_init(&st->rows, st->range.block_hi - st->range.block_lo,
			    db->spool) != 0)
		goto nomem;
	uint64_t total = 0;
	for (uint32_t b = 0; b < blocks; b++) {
		dist_first[b] = total;
		total += (uint64_t)(tg->block_first[b + 1] - tg->block_first[b]) *
			 (db->block_transit_first[b + 1] - db->block_transit_first[b]);
	}
	dist_first[blocks] = total;
	db->node_dist = twz_big_alloc(db->spool, (total ? total : 1) * sizeof *db->node_dist);
	if (!db->node_dist)
		goto nomem;
	st->dist_first = dist_first;
	if (transit_forecast(st, opt, err) != 0)
		goto out;
	int failed = run_stage(st, opt, "local rows",
			       st->range.block_hi - st->range.block_lo, 1, local_chunk);
	/* Blocks hold consecutive nodes: block order is node order. */
	db->runs = st->rows.v;
	db->run_count = st->rows.len / 4;
	if (failed)
		goto nomem;
	if (db->run_count > TWZ_MAX_RUNS) {
		twz_error_set(err, "%s: %llu runs exceed the format limit", opt->name,
			      (unsigned long long)db->run_count);
		goto out;
	}
	for (uint32_t s = 0; s < tg->node_count; s++)
		db->row_offsets[s + 1] = db->row_offsets[s] + st->row_len[s];
	db->searched_nodes = atomic_load(&st->searched);
	db->shortcut_nodes = atomic_load(&st->shortcut_searched);
	rc = 0;
	goto out;
nomem:
	twz_error_kind_set(err, db->spool ? TWZ_ERR_IO : TWZ_ERR_NOMEM,
			   "%s: %s for the local rows", opt->name,
			   db->spool ? "the temporary file failed" : "out of memory");
out:
	if (st->rows.wait)
		twz_gather_end(&st->rows);
	free(st->row_len);
	free(dist_first);
	db->local_seconds = twz_now_seconds() - t0;
	return rc;
}

static int stage_table(struct stages *st, const struct twz_bake_options *opt,
		       const uint32_t *tindex, struct twz_error *err)
{
	struct twz_transit_db *db = st->db;
	const struct twz_graph *tg = &db->graph;
	uint32_t m = db->transit_count;
	uint32_t *want = malloc((m ? m : 1) * sizeof *want);
	uint32_t *count = calloc(tg->component_count ? tg->component_count : 1,
				 sizeof *count);
	int rc = -1;
	double t0 = twz_now_seconds();

	db->table = twz_big_alloc(db->spool, (db->table_count ? db->table_count : 1) *
					     sizeof *db->table);
	if (!want || !count || !db->table)
		goto out;
	/* Transit nodes j >= i of i's region: the search from i stops when
	 * it has settled them all. */
	for (uint32_t i = m; i-- > 0;)
		want[i] = ++count[tg->node_comp[db->transit_node[i]]];
	st->tindex = tindex;
	st->want = want;
	if (run_stage(st, opt, "transit table", st->range.table_hi - st->range.table_lo,
		      4, table_chunk) != 0)
		goto out;
	rc = 0;
out:
	if (rc != 0)
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory for the transit table",
				   opt->name);
	free(want);
	free(count);
	db->table_seconds = twz_now_seconds() - t0;
	return rc;
}

int twz_transit_finish_layout(struct twz_transit_db *out,
			      const struct twz_bake_options *opt,
			      struct twz_error *err)
{
	/* Format 1.1's layout stores whole block lists; the newer one, each
	 * node's access nodes. */
	if (opt->transit_far != TWZ_TRANSIT_LISTS &&
	    twz_transit_access_build(out, opt, err) != 0)
		return -1;
	/* Auto (twigz build): the layout that takes less memory once open.
	 * Access entries take 4 bytes packed (else 8), a 1.1 distance
	 * decoded at open 4 (at least); where cells keep more than about half their block list
	 * (open ground), the block lists are the smaller. */
	uint64_t access_bytes = 0, list_bytes = 0;
	if (opt->transit_far == TWZ_TRANSIT_SMALLER && out->access) {
		uint8_t *nodes, *table;
		size_t tsize;
		if (twz_transit_access_sections(out, &nodes, &table, &tsize) != 0) {
			twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory",
					   opt->name);
			return -1;
		}
		free(nodes);
		twz_big_free(out->spool, table);
		uint32_t blocks = out->graph.cols * out->graph.rows;
		uint32_t *bf, *bl, *pk;
		int pack = twz_transit_access_pack(out, &bf, &bl, &pk);
		if (pack < 0) {
			twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory",
					   opt->name);
			return -1;
		}
		uint64_t lists = pack ? 4 * ((uint64_t)bf[blocks] + blocks + 1) : 0;
		free(bf);
		twz_big_free(out->spool, bl);
		twz_big_free(out->spool, pk);
		access_bytes = out->access_count * (pack ? 4 : TWZ_AE_SIZE) + lists +
			       (uint64_t)out->access_transits * TWZ_AN_SIZE + tsize +
			       4 * ((uint64_t)out->graph.node_count + 1);
		list_bytes = 4 * (out->node_dist_count + out->table_count +
				  out->block_transit_first[blocks] +
				  out->transit_count) +
			     (uint64_t)TWZ_TB_SIZE * (blocks + 1);
	}
	if (opt->transit_far == TWZ_TRANSIT_SMALLER && access_bytes > list_bytes) {
		free(out->access_first);
		twz_big_free(out->spool, out->access);
		free(out->access_node);
		free(out->access_old);
		out->access_first = NULL;
		out->access = NULL;
		out->access_node = out->access_old = NULL;
	}
	if (twz_transit_access_fits(out)) {
		/* the access entries replace it */
		twz_big_free(out->spool, out->node_dist);
		out->node_dist = NULL;
	}
	return 0;
}

/* What a TRANSIT estimate is asked of: its options, and whether the
 * bake goes through the spool. */
struct estimate_of {
	const struct twz_transit_options *topt;
	int spooled;
};

static uint64_t estimate(const struct twz_grid *g, uint64_t nodes,
			 const struct twz_bake_options *opt, const void *what)
{
	const struct estimate_of *e = what;

	return twz_transit_estimate_bytes(g, nodes, opt, e->topt, e->spooled);
}

/* ---- the bake, in the steps of bake_method.h ----------------------------- */

/* The limits, the block graph and the transit nodes of every block (the
 * same for every shard), and the sizes of the distances. */
static int prepare(const struct twz_grid *g, const struct twz_bake_options *opt,
		   const struct twz_transit_options *topt, struct twz_spool *spool,
		   struct twz_transit_db *db, struct twz_error *err)
{
	struct stages st = { .db = db };
	struct estimate_of e = { topt, spool != NULL };

	memset(db, 0, sizeof *db);
	db->spool = spool;
	if (twz_bake_check(g, opt, estimate, &e, err) != 0 ||
	    twz_transit_graph_build(g, opt->connectivity, topt, &db->graph, err) != 0)
		return -1;
	const struct twz_graph *tg = &db->graph;
	db->tindex = malloc((tg->node_count ? tg->node_count : 1) * sizeof *db->tindex);
	db->row_offsets = calloc((size_t)tg->node_count + 1, sizeof(uint32_t));
	if (!db->tindex || !db->row_offsets) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	if (stage_select(&st, opt, db->tindex, err) != 0)
		return -1;
	db->node_dist_count = twz_transit_dist_first(db, tg->cols * tg->rows);
	return 0;
}

/* The local rows and distances of shard index of count's blocks and its
 * table rows (1 of 1: all); those of other shards are left empty. */
static int bake_range(struct twz_transit_db *db, const struct twz_bake_options *opt,
		      unsigned index, unsigned count, struct twz_error *err)
{
	struct stages st = { .db = db };

	twz_transit_shard_range(db, index, count, &st.range);
	if (stage_local(&st, opt, err) != 0)
		return -1;
	return stage_table(&st, opt, db->tindex, err);
}

static int transit_prepare(const struct twz_grid *g,
			   const struct twz_bake_options *opt,
			   struct twz_spool *spool, void **db, struct twz_error *err)
{
	*db = malloc(sizeof(struct twz_transit_db));
	if (!*db) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	return prepare(g, opt, &opt->transit, spool, *db, err);
}

static int transit_bake(void *db, const struct twz_bake_options *opt,
			unsigned index, unsigned count, struct twz_error *err)
{
	return bake_range(db, opt, index, count, err);
}

/* Three streams: the local rows of the shard's blocks' nodes, their
 * distances to the blocks' transit nodes, the shard's table rows. */
static unsigned transit_results(const void *dbp, unsigned index, unsigned count,
				struct twz_stream *s)
{
	const struct twz_transit_db *db = dbp;
	const struct twz_graph *tg = &db->graph;
	struct twz_transit_range r;
	uint32_t m = db->transit_count;

	twz_transit_shard_range(db, index, count, &r);
	uint32_t first = tg->block_first[r.block_lo], end = tg->block_first[r.block_hi];
	uint64_t d_lo = twz_transit_dist_first(db, r.block_lo);
	uint64_t d_hi = twz_transit_dist_first(db, r.block_hi);
	uint64_t t_lo = twz_transit_table_row(m, r.table_lo);
	uint64_t t_hi = twz_transit_table_row(m, r.table_hi);
	s[0] = (struct twz_stream){
		first, end, db->row_offsets, 4,
		twz_stream_bytes(db->runs, 4 * (uint64_t)db->row_offsets[first]),
		4 * (uint64_t)(db->row_offsets[end] - db->row_offsets[first]),
	};
	s[1] = (struct twz_stream){ r.block_lo, r.block_hi, NULL, 8,
				    twz_stream_bytes(db->node_dist, 8 * d_lo),
				    8 * (d_hi - d_lo) };
	s[2] = (struct twz_stream){ r.table_lo, r.table_hi, NULL, 8,
				    twz_stream_bytes(db->table, 8 * t_lo),
				    8 * (t_hi - t_lo) };
	return 3;
}

static int transit_adopt(void *dbp, const struct twz_bake_options *opt,
			 struct twz_stream *s, struct twz_error *err)
{
	struct twz_transit_db *db = dbp;

	if (s[1].size != 8 * db->node_dist_count || s[2].size != 8 * db->table_count) {
		twz_error_set(err, "%s: damaged partial file (distance counts)", opt->name);
		return -1;
	}
	free(db->row_offsets);
	db->row_offsets = s[0].at;
	db->runs = s[0].bytes;
	db->run_count = s[0].size / 4;
	db->node_dist = s[1].bytes;
	db->table = s[2].bytes;
	for (int k = 0; k < 3; k++)
		s[k].at = s[k].bytes = NULL;
	return 0;
}

/* Why distance d between nodes a and b cannot be what a bake found, as
 * the validator judges a stored one (FORMAT.md check T10): unreachable
 * exactly between regions, else counts below 2^26 that a path between
 * the two cells can have; NULL when it can. */
static const char *distance_wrong(const struct twz_graph *tg, uint32_t a,
				  uint32_t b, struct twz_tdist d)
{
	uint32_t ca = tg->node_cell[a], cb = tg->node_cell[b];
	uint32_t ax = ca % tg->width, ay = ca / tg->width;
	uint32_t bx = cb % tg->width, by = cb / tg->width;
	int far = d.straight == UINT32_MAX && d.diagonal == UINT32_MAX;

	if (tg->node_comp[a] != tg->node_comp[b])
		return far ? NULL : "a distance between two regions";
	if (far)
		return "a distance unreachable inside one region";
	if (d.straight >= TWZ_MAX_NODES || d.diagonal >= TWZ_MAX_NODES ||
	    !twz_transit_counts_possible(tg->connectivity,
					 ax > bx ? ax - bx : bx - ax,
					 ay > by ? ay - by : by - ay,
					 d.straight, d.diagonal))
		return a == b ? "a distance not 0 from a node to itself"
			      : "a distance shorter than any path, or out of range";
	return NULL;
}

/* Whether run r of source s's local row can be what the bake made, as
 * check T11 asks of the merged file: starts from 0, rising, below
 * node_count, every later one at a target in a block near s's; a legal
 * move, a direction symbol, or the wildcards' no move. */
static int local_run_ok(const struct twz_graph *tg, uint32_t s, uint32_t r,
			uint32_t run, uint32_t prev)
{
	uint32_t start = run >> TWZ_RUN_SYMBOL_BITS;

	if (r == 0 ? start != 0
		   : start <= prev >> TWZ_RUN_SYMBOL_BITS || start >= tg->node_count ||
		     !twz_blocks_within(tg, tg->node_block[s], tg->node_block[start],
					tg->outer))
		return 0;
	return twz_run_symbol_ok(tg, s, run & TWZ_RUN_SYMBOL_MASK, 1, 1);
}

/* The local rows (stream 0, by node) as check T11 asks, every distance
 * (stream 1 by block, stream 2 by table row) as T10 does, and a transit
 * node's distances to its block's list equal to the table's between the
 * same two transit nodes. */
static unsigned transit_verify(const void *dbp, struct twz_blame bad[2],
			       const char **why)
{
	const struct twz_transit_db *db = dbp;
	const struct twz_graph *tg = &db->graph;
	uint32_t m = db->transit_count, blocks = tg->cols * tg->rows;

	for (uint32_t s = 0; s < tg->node_count; s++) {
		uint32_t at = db->row_offsets[s], n = db->row_offsets[s + 1] - at;
		for (uint32_t r = 0; r < n; r++)
			if (!local_run_ok(tg, s, r, db->runs[at + r],
					  r ? db->runs[at + r - 1] : 0)) {
				bad[0] = (struct twz_blame){ 0, s };
				*why = "a row's runs";
				return 1;
			}
	}
	uint64_t k = 0;
	for (uint32_t blk = 0; blk < blocks; blk++) {
		uint32_t l0 = db->block_transit_first[blk];
		uint32_t l1 = db->block_transit_first[blk + 1];
		for (uint32_t a = tg->block_first[blk]; a < tg->block_first[blk + 1]; a++)
			for (uint32_t l = l0; l < l1; l++, k++)
				if ((*why = distance_wrong(tg, a,
						db->transit_node[db->block_transit[l]],
						db->node_dist[k]))) {
					bad[0] = (struct twz_blame){ 1, blk };
					return 1;
				}
	}
	k = 0;
	for (uint32_t i = 0; i < m; i++)
		for (uint32_t j = i + 1; j < m; j++, k++)
			if ((*why = distance_wrong(tg, db->transit_node[i],
						   db->transit_node[j], db->table[k]))) {
				bad[0] = (struct twz_blame){ 2, i };
				return 1;
			}
	for (uint32_t i = 0; i < m; i++) {
		uint32_t a = db->transit_node[i], blk = tg->node_block[a];
		uint32_t l0 = db->block_transit_first[blk];
		uint32_t l1 = db->block_transit_first[blk + 1];
		k = twz_transit_dist_first(db, blk) +
		    (uint64_t)(a - tg->block_first[blk]) * (l1 - l0);
		for (uint32_t l = l0; l < l1; l++, k++) {
			uint32_t j = db->block_transit[l];
			struct twz_tdist d = db->node_dist[k], t = { 0, 0 };
			uint32_t lo = i < j ? i : j, hi = i < j ? j : i;
			if (j != i)
				t = db->table[twz_transit_table_row(m, lo) + (hi - lo - 1)];
			if (d.straight == t.straight && d.diagonal == t.diagonal)
				continue;
			bad[0] = (struct twz_blame){ 1, blk };
			bad[1] = (struct twz_blame){ 2, lo };
			*why = "the distance between two transit nodes differs between them";
			return 2;
		}
	}
	return 0;
}

static int transit_finish(void *db, const struct twz_bake_options *opt,
			  struct twz_error *err)
{
	return twz_transit_finish_layout(db, opt, err);
}

static void transit_summary(const void *dbp, unsigned index, unsigned count,
			    struct twz_text *t)
{
	const struct twz_transit_db *db = dbp;
	const struct twz_graph *tg = &db->graph;

	if (count) {
		struct twz_transit_range r;
		twz_transit_shard_range(db, index, count, &r);
		twz_text_printf(t, "blocks [%u, %u) of %u, table rows [%u, %u) of %u; "
				"selection %.2fs, local rows %.2fs, table %.2fs",
				r.block_lo, r.block_hi, tg->cols * tg->rows, r.table_lo,
				r.table_hi, db->transit_count, db->select_seconds,
				db->local_seconds, db->table_seconds);
		return;
	}
	twz_text_printf(t, "%u nodes, %u regions, %ux%u blocks of %u, %u transit "
			"nodes (at most %u a block), %" PRIu64 " local runs; "
			"selection %.2fs, local rows %.2fs, table %.2fs",
			tg->node_count, tg->component_count, tg->cols, tg->rows,
			tg->side, db->transit_count, db->max_block_transits,
			db->run_count, db->select_seconds, db->local_seconds,
			db->table_seconds);
	double per = tg->node_count ? (double)db->access_count / tg->node_count : 0.0;
	if (twz_transit_access_fits(db))
		twz_text_printf(t, "\ntwigz: access nodes: %.2f a node on average, "
				"at most %u; %u transit nodes in the table; %.2fs",
				per, db->max_access, db->access_transits,
				db->access_seconds);
	else if (db->access_count)
		twz_text_printf(t, "\ntwigz: access nodes: %.2f a node on average, "
				"at most %u: no smaller in memory than the block "
				"lists, written as format 1.1", per, db->max_access);
}

static void transit_counts(const void *dbp, uint64_t *runs, double *seconds)
{
	const struct twz_transit_db *db = dbp;

	*runs = db->run_count;
	*seconds = db->select_seconds + db->local_seconds + db->table_seconds;
}

static void transit_free(void *db)
{
	if (db) {
		twz_transit_db_free(db);
		free(db);
	}
}

static uint64_t transit_estimate(const struct twz_grid *g, uint64_t nodes,
				 const struct twz_bake_options *opt, int spooled)
{
	struct estimate_of e = { &opt->transit, spooled };

	return estimate(g, nodes, opt, &e);
}

static void transit_emit(const void *dbp, const struct twz_grid *g,
			 const struct twz_bake_options *opt,
			 struct twz_out_file *f);

const struct twz_bake_method twz_transit_method = {
	.name = "transit",
	.what = " (transit)",
	.estimate = transit_estimate,
	.prepare = transit_prepare,
	.bake = transit_bake,
	.results = transit_results,
	.adopt = transit_adopt,
	.verify = transit_verify,
	.finish = transit_finish,
	.emit = transit_emit,
	.summary = transit_summary,
	.counts = transit_counts,
	.free = transit_free,
};

/* The whole bake with its layout finished, its big arrays in spool when
 * not NULL. */
int twz_bake_transit_spooled(const struct twz_grid *g,
			     const struct twz_bake_options *opt,
			     const struct twz_transit_options *topt,
			     struct twz_spool *spool,
			     struct twz_transit_db *out, struct twz_error *err)
{
	if (prepare(g, opt, topt, spool, out, err) != 0 ||
	    bake_range(out, opt, 1, 1, err) != 0 ||
	    twz_transit_finish_layout(out, opt, err) != 0) {
		twz_transit_db_free(out);
		return -1;
	}
	return 0;
}

int twz_bake_transit(const struct twz_grid *g,
		     const struct twz_bake_options *opt,
		     const struct twz_transit_options *topt,
		     struct twz_transit_db *out, struct twz_error *err)
{
	return twz_bake_transit_spooled(g, opt, topt, NULL, out, err);
}

/* ---- encoding -------------------------------------------------------- */

/* ---- distances as residual planes (twz_format.h, FORMAT.md) ------- */

struct planes {
	const struct twz_graph *tg;
	unsigned width;       /* 4 or 8 */
	int fits16;           /* every residual fits an i16 (pass 1) */
	uint8_t *out;         /* pass 2: the two planes */
	uint64_t count;
	uint64_t at;
};

static void plane_values(const struct twz_graph *tg, unsigned width,
			       struct twz_tdist d, uint32_t a, uint32_t b,
			       int64_t *vs, int64_t *vd)
{
	uint32_t ca = tg->node_cell[a], cb = tg->node_cell[b];
	uint32_t ax = ca % tg->width, ay = ca / tg->width;
	uint32_t bx = cb % tg->width, by = cb / tg->width;
	uint32_t rs, rd;

	twz_transit_reference(tg->connectivity, ax > bx ? ax - bx : bx - ax,
			      ay > by ? ay - by : by - ay, &rs, &rd);
	if (d.straight == UINT32_MAX) {
		*vs = *vd = width == 4 ? TWZ_TRANSIT_FAR16 : TWZ_TRANSIT_FAR32;
	} else {
		*vs = (int64_t)d.straight - rs;
		*vd = (int64_t)d.diagonal - rd;
	}
}

static int plane_fits16(struct twz_tdist d, int64_t vs, int64_t vd)
{
	return d.straight == UINT32_MAX ||
	       !(vs <= TWZ_TRANSIT_FAR16 || vs > INT16_MAX ||
		 vd <= TWZ_TRANSIT_FAR16 || vd > INT16_MAX);
}

/* Entry i of a distance section: distance d between nodes a and b. */
static void plane_entry(struct planes *pl, struct twz_tdist d, uint32_t a,
			uint32_t b)
{
	int64_t vs, vd;

	plane_values(pl->tg, pl->width, d, a, b, &vs, &vd);
	if (!pl->out) {
		if (!plane_fits16(d, vs, vd))
			pl->fits16 = 0;
		return;
	}
	uint64_t k = pl->at++;
	if (pl->width == 4) {
		twz_put16(pl->out + 2 * k, (uint16_t)(int16_t)vs);
		twz_put16(pl->out + 2 * (pl->count + k), (uint16_t)(int16_t)vd);
	} else {
		twz_put32(pl->out + 4 * k, (uint32_t)(int32_t)vs);
		twz_put32(pl->out + 4 * (pl->count + k), (uint32_t)(int32_t)vd);
	}
}

/* Visit every entry of NODE_DIST, then of TABLE. */
static void visit_node_dist(const struct twz_transit_db *db, struct planes *pl)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t blocks = tg->cols * tg->rows;
	uint64_t k = 0;

	for (uint32_t b = 0; b < blocks; b++) {
		uint32_t f = db->block_transit_first[b];
		uint32_t n = db->block_transit_first[b + 1] - f;
		for (uint32_t s = tg->block_first[b]; s < tg->block_first[b + 1]; s++)
			for (uint32_t j = 0; j < n; j++)
				plane_entry(pl, db->node_dist[k++], s,
					    db->transit_node[db->block_transit[f + j]]);
		if (b % 64 == 63)
			twz_spool_trim(db->spool);
	}
}

static void visit_table(const struct twz_transit_db *db, struct planes *pl)
{
	uint64_t k = 0;

	for (uint32_t i = 0; i < db->transit_count; i++) {
		for (uint32_t j = i + 1; j < db->transit_count; j++)
			plane_entry(pl, db->table[k++], db->transit_node[i],
				    db->transit_node[j]);
		if (i % 64 == 63)
			twz_spool_trim(db->spool);
	}
}

static uint8_t *planes_of(const struct twz_transit_db *db, uint64_t count,
			  unsigned width,
			  void (*visit)(const struct twz_transit_db *, struct planes *))
{
	struct planes pl = { &db->graph, width, 1, NULL, count, 0 };

	pl.out = twz_big_alloc(db->spool, count ? count * width : 1);
	if (pl.out)
		visit(db, &pl);
	return pl.out;
}

/* The access-node layout (format 1.4, FORMAT.md 5e) after the three
 * node sections: PARAMS, the local rows, and kinds 112 to 115. */
static void access_file(const struct twz_transit_db *db,
			const struct twz_bake_options *opt, uint8_t *params,
			struct twz_out_file *f)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t *bfirst, *blist, *packed;
	int pack = opt->transit_far == TWZ_TRANSIT_ACCESS_WIDE ? 0 :
		   twz_transit_access_pack(db, &bfirst, &blist, &packed);
	uint8_t *acc = pack ? NULL :
		twz_big_alloc(db->spool, db->access_count ? db->access_count * TWZ_AE_SIZE : 1);
	uint8_t *nodes, *table;
	size_t table_size = 0;

	f->h.minor = 4;
	f->h.required_features |= TWZ_FEATURE_TRANSIT_ACCESS;
	twz_put32(params + TWZ_TP_TRANSITS, db->access_transits);
	twz_put32(params + TWZ_TP_MAX_LIST, db->max_access);
	twz_put32(params + TWZ_TP_DIST_BYTES, 0);
	if (acc && !pack)
		for (uint64_t k = 0; k < db->access_count; k++) {
			uint8_t *e = acc + k * TWZ_AE_SIZE;
			twz_put32(e + TWZ_AE_TRANSIT, db->access[k].transit);
			twz_put16(e + TWZ_AE_STRAIGHT, db->access[k].straight);
			twz_put16(e + TWZ_AE_DIAGONAL, db->access[k].diagonal);
		}
	if (twz_transit_access_sections(db, &nodes, &table, &table_size) != 0)
		nodes = table = NULL;
	twz_out_add_owned(f, TWZ_SECTION_TRANSIT_PARAMS, params, TWZ_TP_SIZE);
	twz_out_add_le32(f, TWZ_SECTION_TRANSIT_ROW_OFFSETS, db->row_offsets,
			 (size_t)tg->node_count + 1);
	twz_out_add_le32(f, TWZ_SECTION_TRANSIT_RUNS, db->runs, db->run_count);
	twz_out_add_le32(f, TWZ_SECTION_ACCESS_FIRST, db->access_first,
			 (size_t)tg->node_count + 1);
	if (!pack)  /* 8-byte entries: some do not pack */
		twz_out_add_owned(f, TWZ_SECTION_ACCESS, acc,
				  (size_t)db->access_count * TWZ_AE_SIZE);
	twz_out_add_owned(f, TWZ_SECTION_ACCESS_NODES, nodes,
			  (size_t)db->access_transits * TWZ_AN_SIZE);
	twz_out_add_owned(f, TWZ_SECTION_ACCESS_TABLE, table, table_size);
	if (pack < 0) {
		twz_out_add_owned(f, TWZ_SECTION_ACCESS_PACKED, NULL, 0);
	} else if (pack) {
		uint32_t blocks = tg->cols * tg->rows, listed = bfirst[blocks];
		twz_out_add_le32_owned(f, TWZ_SECTION_ACCESS_BLOCK_FIRST, bfirst,
				       (size_t)blocks + 1);
		twz_out_add_le32_owned(f, TWZ_SECTION_ACCESS_BLOCK_LIST, blist, listed);
		twz_out_add_le32_owned(f, TWZ_SECTION_ACCESS_PACKED, packed,
				       db->access_count);
	}
}

/* The sections of db, into f. */
static void transit_emit(const void *dbp, const struct twz_grid *g,
			 const struct twz_bake_options *opt,
			 struct twz_out_file *f)
{
	const struct twz_transit_db *db = dbp;
	const struct twz_graph *tg = &db->graph;
	uint32_t blocks = tg->cols * tg->rows;
	size_t cells = (size_t)tg->width * tg->height;
	int access = twz_transit_access_fits(db);
	struct planes probe = { &db->graph, 4, 1, NULL, 0, 0 };
	if (!access) {
		visit_node_dist(db, &probe);
		visit_table(db, &probe);
	}
	unsigned width = probe.fits16 ? 4 : 8;
	uint8_t *params = calloc(1, TWZ_TP_SIZE);

	if (!params) {
		f->failed = 1;
		return;
	}
	twz_put32(params + TWZ_TP_ORIGIN_X, tg->origin_x);
	twz_put32(params + TWZ_TP_ORIGIN_Y, tg->origin_y);
	twz_put32(params + TWZ_TP_SIDE, tg->side);
	twz_put32(params + TWZ_TP_COLS, tg->cols);
	twz_put32(params + TWZ_TP_ROWS, tg->rows);
	twz_put32(params + TWZ_TP_INNER, tg->inner);
	twz_put32(params + TWZ_TP_OUTER, tg->outer);
	twz_put32(params + TWZ_TP_TRANSITS, db->transit_count);
	twz_put32(params + TWZ_TP_MAX_LIST, db->max_block_transits);
	twz_put32(params + TWZ_TP_DIST_BYTES, width);

	uint8_t *blk = malloc(((size_t)blocks + 1) * TWZ_TB_SIZE);
	if (blk) {
		uint64_t dist = 0;
		for (uint32_t b = 0; b <= blocks; b++) {
			uint8_t *r = blk + (size_t)b * TWZ_TB_SIZE;
			twz_put32(r + TWZ_TB_FIRST_NODE, tg->block_first[b]);
			twz_put32(r + TWZ_TB_FIRST_LIST, db->block_transit_first[b]);
			twz_put64(r + TWZ_TB_FIRST_DIST, dist);
			if (b < blocks)
				dist += (uint64_t)(tg->block_first[b + 1] -
						   tg->block_first[b]) *
					(db->block_transit_first[b + 1] -
					 db->block_transit_first[b]);
		}
	}
	uint32_t listed = db->block_transit_first[blocks];
	twz_bake_header(&f->h, g, tg, opt, TWZ_METHOD_TRANSIT);
	f->name = opt->name;
	f->spool = db->spool;
	f->h.minor = 1;
	twz_out_add_le32(f, TWZ_SECTION_CELL_NODE, tg->cell_node, cells);
	twz_out_add_le32(f, TWZ_SECTION_NODE_CELL, tg->node_cell, tg->node_count);
	twz_out_add_le32(f, TWZ_SECTION_NODE_COMPONENT, tg->node_comp, tg->node_count);
	if (access) {
		free(blk);
		access_file(db, opt, params, f);
		return;
	}
	twz_out_add_owned(f, TWZ_SECTION_TRANSIT_PARAMS, params, TWZ_TP_SIZE);
	twz_out_add_owned(f, TWZ_SECTION_TRANSIT_BLOCKS, blk,
			  ((size_t)blocks + 1) * TWZ_TB_SIZE);
	twz_out_add_le32(f, TWZ_SECTION_TRANSIT_LISTS, db->block_transit, listed);
	twz_out_add_le32(f, TWZ_SECTION_TRANSIT_NODES, db->transit_node,
			 db->transit_count);
	twz_out_add_owned(f, TWZ_SECTION_TRANSIT_NODE_DIST,
			  planes_of(db, db->node_dist_count, width, visit_node_dist),
			  (size_t)db->node_dist_count * width);
	twz_out_add_owned(f, TWZ_SECTION_TRANSIT_TABLE,
			  planes_of(db, db->table_count, width, visit_table),
			  (size_t)db->table_count * width);
	twz_out_add_le32(f, TWZ_SECTION_TRANSIT_ROW_OFFSETS, db->row_offsets,
			 (size_t)tg->node_count + 1);
	twz_out_add_le32(f, TWZ_SECTION_TRANSIT_RUNS, db->runs, db->run_count);
}

int twz_transit_encode(const struct twz_transit_db *db,
		       const struct twz_grid *g,
		       const struct twz_bake_options *opt, uint8_t **buf,
		       size_t *len, struct twz_error *err)
{
	struct twz_out_file f = { 0 };

	transit_emit(db, g, opt, &f);
	return twz_out_encode(&f, buf, len, err);
}

int twz_transit_write(const struct twz_transit_db *db, const struct twz_grid *g,
		      const struct twz_bake_options *opt, const char *path,
		      struct twz_error *err)
{
	struct twz_out_file f = { 0 };

	transit_emit(db, g, opt, &f);
	return twz_out_write(&f, path, err);
}
