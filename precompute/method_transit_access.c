/*
 * method_transit_access.c - the access-node layout of a TRANSIT bake
 * (format 1.4, FORMAT.md 5j): each node's access nodes, the transit
 * nodes they name renumbered by region, and the sections that hold them:
 * access entries sorted by cost, packed into 4 bytes where they fit (a
 * place in the block's list and exact offsets from the reference cost)
 * and else of exact u16 counts, and the transit table as bit-packed rows
 * of residuals against the reference cost.
 *
 * Access nodes (FORMAT.md 5j). Node n of block B keeps the transit
 * nodes of T(B) that some lexicographically shortest path (exact cost,
 * then the selection search's fixed tie-break) from n to a node just
 * outside B's outer square passes first: the selection search from n
 * marks every such path, and a forward pass over its settling order
 * follows them up to their first transit node of B.
 *
 * Why that suffices. Let P be a lexicographically shortest s-t path, s in
 * A and t in B far apart. Every part of P is again one, and its reverse is
 * one from t (the tie-break of a move does not depend on its direction).
 * By the claim of method_transit_select.c, the part of P from s to its
 * first node outside A's outer square holds a node of T(A); so P's first
 * node of T(A), a, lies in that part and s keeps it. Likewise P's last
 * node of T(B), b, is kept by t. The proof of runtime/twz_transit.c finds
 * some a0 of T(A) no later than some b0 of T(B) on P, so a <= a0 <= b0 <=
 * b, and d(s, a) + D(a, b) + d(b, t) is P's length. One-sided, for b
 * outside the outer square of x's block, P from x to b gives d(x, b) =
 * min over x's access nodes a of d(x, a) + D(a, b).
 *
 * Of those, n then drops a transit node a when another kept one, a', lies
 * on a shortest n-a path: d(n, a') + D(a', a) == d(n, a) exactly. That
 * keeps both equations, since for every b, d(n, a') + D(a', b) <= d(n, a')
 * + D(a', a) + D(a, b) = d(n, a) + D(a, b). Nodes are taken in order of
 * exact cost: a node can only be dropped for a cheaper one, so ties keep
 * both and the result does not depend on how ties are ordered.
 */
#include "transit.h"

#include <stdlib.h>
#include <string.h>

#include "search_transit.h"
#include "twz_writer.h"

static inline uint64_t table_row(uint64_t m, uint64_t i)
{
	return i * (2 * m - i - 1) / 2;
}

/* D(i, j) of the whole table, any order of i and j. */
static inline struct twz_tdist table_get(const struct twz_transit_db *db,
					 uint32_t i, uint32_t j)
{
	if (i == j)
		return (struct twz_tdist){ 0, 0 };
	if (i > j) {
		uint32_t k = i;
		i = j;
		j = k;
	}
	return db->table[table_row(db->transit_count, i) + (j - i - 1)];
}

static inline struct twz_cost cost_of(struct twz_tdist d)
{
	return (struct twz_cost){ d.straight, d.diagonal };
}

static int cand_cmp(const void *pa, const void *pb)
{
	const struct twz_access_cand *a = pa, *b = pb;

	if (twz_cost_less(cost_of(a->d), cost_of(b->d)))
		return -1;
	if (twz_cost_less(cost_of(b->d), cost_of(a->d)))
		return 1;
	return a->transit < b->transit ? -1 : a->transit > b->transit;
}

/* A thread's state: its search and, for the block at hand, each of the
 * block's transit nodes' place in the block list (NONE elsewhere). */
struct twz_access_worker {
	struct twz_tsearch ws;
	uint32_t *place;              /* [node_count] */
	uint32_t *stamp;              /* [max list]: last node that hit j */
	uint32_t *hit;                /* [max list] */
	struct twz_access_cand *c;    /* [max list] */
};

struct twz_access_worker *twz_transit_access_worker_new(const struct twz_transit_db *db)
{
	const struct twz_graph *tg = &db->graph;
	struct twz_access_worker *wk = calloc(1, sizeof *wk);
	size_t n = tg->node_count ? tg->node_count : 1;
	size_t l = db->max_block_transits ? db->max_block_transits : 1;

	if (!wk)
		return NULL;
	wk->place = malloc(n * sizeof *wk->place);
	wk->stamp = malloc(l * sizeof *wk->stamp);
	wk->hit = malloc(l * sizeof *wk->hit);
	wk->c = malloc(l * sizeof *wk->c);
	if (!wk->place || !wk->stamp || !wk->hit || !wk->c ||
	    twz_tsearch_init(&wk->ws, tg) != 0) {
		free(wk->place);
		free(wk->stamp);
		free(wk->hit);
		free(wk->c);
		free(wk);
		return NULL;
	}
	memset(wk->place, 0xFF, n * sizeof *wk->place);
	return wk;
}

void twz_transit_access_worker_free(struct twz_access_worker *wk)
{
	if (!wk)
		return;
	twz_tsearch_free(&wk->ws);
	free(wk->place);
	free(wk->stamp);
	free(wk->hit);
	free(wk->c);
	free(wk);
}

/*
 * The places j of the transit nodes of s's block that some
 * lexicographically shortest path from s to a node outside the outer
 * square passes first, into hit; their count. Forward over the settling
 * order of the selection search from s: bit 2 of a marked node says a
 * marked path from s reaches it without passing a transit node of the
 * block, and stops at the first one.
 */
static uint32_t first_hits(struct twz_access_worker *wk, uint32_t s,
			   uint32_t *hit)
{
	struct twz_tsearch *ws = &wk->ws;
	const struct twz_graph *tg = ws->tg;
	uint32_t bx = tg->node_bx[s], by = tg->node_by[s];
	uint32_t k = 0;

	ws->mark[s] |= 2;
	for (uint32_t i = 0; i < ws->st.order_len; i++) {
		uint32_t v = ws->st.order[i];
		if (ws->mark[v] != 3)
			continue;
		uint32_t j = wk->place[v];
		if (j != TWZ_NODE_NONE) {
			if (wk->stamp[j] != s) {
				wk->stamp[j] = s;
				hit[k++] = j;
			}
			continue;
		}
		uint32_t dx = tg->node_bx[v] > bx ? tg->node_bx[v] - bx : bx - tg->node_bx[v];
		uint32_t dy = tg->node_by[v] > by ? tg->node_by[v] - by : by - tg->node_by[v];
		if (dx > tg->outer || dy > tg->outer)
			continue;  /* an end: the search did not expand it */
		const uint32_t *nb = tg->neighbour + (size_t)v * TWZ_MOVE_COUNT;
		for (unsigned mask = ws->legal[v]; mask; mask &= mask - 1) {
			unsigned m = (unsigned)__builtin_ctz(mask);
			uint32_t w = nb[m];
			if (twz_tsearch_settled(ws, w) && (ws->mark[w] & 1) &&
			    twz_tsearch_tight(ws, v, w, m))
				ws->mark[w] |= 2;
		}
	}
	return k;
}

int twz_transit_access_block(struct twz_access_worker *wk,
			     const struct twz_transit_db *db, uint32_t b,
			     const struct twz_tdist *dist,
			     const struct twz_tdist *sub,
			     struct twz_access_cand *out, uint32_t *len)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t first = tg->block_first[b], last = tg->block_first[b + 1];
	uint32_t f = db->block_transit_first[b];
	uint32_t n = db->block_transit_first[b + 1] - f;
	struct twz_access_cand *c = wk->c;
	uint64_t at = 0;
	int rc = 0;

	for (uint32_t j = 0; j < n; j++) {
		wk->place[db->transit_node[db->block_transit[f + j]]] = j;
		wk->stamp[j] = TWZ_NODE_NONE;
	}
	for (uint32_t s = first; s < last; s++) {
		const struct twz_tdist *d = dist + (uint64_t)(s - first) * n;
		uint32_t k = 0, hits;
		if (twz_tsearch_select(&wk->ws, s) != 0) {
			rc = -1;
			break;
		}
		hits = first_hits(wk, s, wk->hit);
		for (uint32_t x = 0; x < hits; x++) {
			uint32_t j = wk->hit[x];
			if (d[j].straight != UINT32_MAX)
				c[k++] = (struct twz_access_cand){
					j, db->block_transit[f + j], d[j] };
		}
		qsort(c, k, sizeof *c, cand_cmp);
		uint64_t mine = at;
		for (uint32_t x = 0; x < k; x++) {
			int drop = 0;
			for (uint64_t y = mine; y < at && !drop; y++) {
				struct twz_tdist via = sub[(size_t)out[y].j * n + c[x].j];
				drop = via.straight != UINT32_MAX &&
				       out[y].d.straight + via.straight == c[x].d.straight &&
				       out[y].d.diagonal + via.diagonal == c[x].d.diagonal;
			}
			if (!drop)
				out[at++] = c[x];
		}
		len[s - first] = (uint32_t)(at - mine);
	}
	for (uint32_t j = 0; j < n; j++)
		wk->place[db->transit_node[db->block_transit[f + j]]] = TWZ_NODE_NONE;
	return rc;
}

struct access_ctx {
	struct twz_transit_db *db;
	const uint64_t *dist_first;   /* [blocks]: into db->node_dist */
	struct twz_access_cand **kept;/* [blocks]: the block's kept entries */
	uint32_t *len;                /* [node_count]: kept a node */
	int failed;
};

struct aworker {
	struct twz_access_worker *wk;
	struct twz_tdist *sub;        /* [max list]^2 */
};

/* The access nodes of the nodes of blocks [lo, hi): each block's table
 * entries between its transit nodes gathered for
 * twz_transit_access_block. */
static int access_chunk(void *ctx, void *w, uint32_t lo, uint32_t hi)
{
	struct access_ctx *ac = ctx;
	struct aworker *aw = w;
	struct twz_transit_db *db = ac->db;
	const struct twz_graph *tg = &db->graph;

	for (uint32_t b = lo; b < hi; b++) {
		uint32_t first = tg->block_first[b], last = tg->block_first[b + 1];
		uint32_t f = db->block_transit_first[b];
		uint32_t n = db->block_transit_first[b + 1] - f;
		uint64_t cap = (uint64_t)(last - first) * n;
		struct twz_access_cand *out = malloc((cap ? cap : 1) * sizeof *out);

		if (!out)
			return -1;
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t j = 0; j < n; j++)
				aw->sub[(size_t)i * n + j] =
					table_get(db, db->block_transit[f + i],
						  db->block_transit[f + j]);
		if (twz_transit_access_block(aw->wk, db, b,
					     db->node_dist + ac->dist_first[b],
					     aw->sub, out, ac->len + first) != 0) {
			free(out);
			return -1;
		}
		ac->kept[b] = out;
	}
	return 0;
}

static int access_worker_init(void *ctx, void *w)
{
	struct access_ctx *ac = ctx;
	struct aworker *aw = w;
	size_t l = ac->db->max_block_transits ? ac->db->max_block_transits : 1;

	aw->sub = malloc(l * l * sizeof *aw->sub);
	aw->wk = twz_transit_access_worker_new(ac->db);
	if (!aw->sub || !aw->wk) {
		free(aw->sub);
		twz_transit_access_worker_free(aw->wk);
		return -1;
	}
	return 0;
}

static void access_worker_fini(void *w)
{
	struct aworker *aw = w;

	twz_transit_access_worker_free(aw->wk);
	free(aw->sub);
}

/* Transit nodes in access order: region, then node. */
static const uint32_t *sort_comp;

static int by_region(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	if (sort_comp[a] != sort_comp[b])
		return sort_comp[a] < sort_comp[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

int twz_transit_access_build(struct twz_transit_db *db,
			     const struct twz_bake_options *opt,
			     struct twz_error *err)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t blocks = tg->cols * tg->rows;
	uint32_t nn = tg->node_count;
	struct access_ctx ac = { .db = db };
	uint64_t *dist_first = malloc(((size_t)blocks + 1) * sizeof *dist_first);
	uint32_t *map = NULL;
	int rc = -1;
	double t0 = twz_now_seconds();

	ac.kept = calloc(blocks ? blocks : 1, sizeof *ac.kept);
	ac.len = calloc(nn ? nn : 1, sizeof *ac.len);
	db->access_first = malloc(((size_t)nn + 1) * sizeof *db->access_first);
	if (!dist_first || !ac.kept || !ac.len || !db->access_first)
		goto out;
	uint64_t total = 0;
	for (uint32_t b = 0; b < blocks; b++) {
		dist_first[b] = total;
		total += (uint64_t)(tg->block_first[b + 1] - tg->block_first[b]) *
			 (db->block_transit_first[b + 1] - db->block_transit_first[b]);
	}
	ac.dist_first = dist_first;
	struct twz_pool p = {
		.opt = opt, .what = "access nodes", .items = blocks, .chunk = 1,
		.worker_size = sizeof(struct aworker), .init = access_worker_init,
		.fini = access_worker_fini, .run = access_chunk, .ctx = &ac,
	};
	if (twz_pool_run(&p, twz_bake_threads(opt)) != 0)
		goto out;

	/* Gather, in node order; mark the transit nodes in use. */
	uint64_t count = 0;
	db->access_fits = 1;
	db->max_access = 0;
	for (uint32_t s = 0; s < nn; s++) {
		db->access_first[s] = (uint32_t)count;
		count += ac.len[s];
		if (ac.len[s] > db->max_access)
			db->max_access = ac.len[s];
	}
	if (count > UINT32_MAX) {
		twz_error_set(err, "%s: %llu access nodes exceed the format limit",
			      opt->name, (unsigned long long)count);
		goto fail;
	}
	db->access_first[nn] = (uint32_t)count;
	db->access_count = count;
	db->access = malloc((count ? count : 1) * sizeof *db->access);
	map = malloc((db->transit_count ? db->transit_count : 1) * sizeof *map);
	if (!db->access || !map)
		goto out;
	memset(map, 0xFF, (size_t)db->transit_count * sizeof *map);
	uint64_t k = 0;
	for (uint32_t b = 0; b < blocks; b++) {
		uint64_t in_block = 0;
		for (uint32_t s = tg->block_first[b]; s < tg->block_first[b + 1]; s++)
			in_block += ac.len[s];
		for (uint64_t y = 0; y < in_block; y++, k++) {
			const struct twz_access_cand *c = &ac.kept[b][y];
			if (c->d.straight > UINT16_MAX || c->d.diagonal > UINT16_MAX)
				db->access_fits = 0;
			db->access[k] = (struct twz_access){
				c->transit, (uint16_t)c->d.straight,
				(uint16_t)c->d.diagonal,
			};
			map[c->transit] = 0;
		}
	}
	uint32_t used = 0;
	for (uint32_t i = 0; i < db->transit_count; i++)
		used += map[i] == 0;
	db->access_transits = used;
	db->access_node = malloc((used ? used : 1) * sizeof *db->access_node);
	db->access_old = malloc((used ? used : 1) * sizeof *db->access_old);
	if (!db->access_node || !db->access_old)
		goto out;
	used = 0;
	for (uint32_t i = 0; i < db->transit_count; i++)
		if (map[i] == 0)
			db->access_node[used++] = db->transit_node[i];
	sort_comp = tg->node_comp;
	qsort(db->access_node, used, sizeof *db->access_node, by_region);
	/* transit_node ascends: find each old index by bisection. */
	for (uint32_t i = 0; i < used; i++) {
		uint32_t lo = 0, hi = db->transit_count;
		while (hi - lo > 1) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (db->transit_node[mid] <= db->access_node[i])
				lo = mid;
			else
				hi = mid;
		}
		db->access_old[i] = lo;
		map[lo] = i;
	}
	/* New indices; each node's entries again by cost, then index. */
	for (uint32_t s = 0; s < nn; s++) {
		struct twz_access *e = db->access + db->access_first[s];
		uint32_t n = db->access_first[s + 1] - db->access_first[s];
		for (uint32_t x = 0; x < n; x++)
			e[x].transit = map[e[x].transit];
		/* Sorted by cost already; ties by the new index (insertion
		 * sort: a tie run is short). */
		for (uint32_t x = 1; x < n; x++) {
			struct twz_access v = e[x];
			uint32_t y = x;
			while (y > 0 && e[y - 1].straight == v.straight &&
			       e[y - 1].diagonal == v.diagonal &&
			       e[y - 1].transit > v.transit) {
				e[y] = e[y - 1];
				y--;
			}
			e[y] = v;
		}
	}
	rc = 0;
	goto out;
fail:
	rc = -2;
out:
	if (rc == -1)
		twz_error_kind_set(err, TWZ_ERR_NOMEM,
				   "%s: out of memory for the access nodes", opt->name);
	if (ac.kept)
		for (uint32_t b = 0; b < blocks; b++)
			free(ac.kept[b]);
	free(ac.kept);
	free(ac.len);
	free(dist_first);
	free(map);
	db->access_seconds = twz_now_seconds() - t0;
	return rc == 0 ? 0 : -1;
}

/* ---- sections ------------------------------------------------------ */

static unsigned bits_for(uint64_t range)
{
	unsigned w = 0;

	while (w < 64 && (range >> w))
		w++;
	return w;
}

/* The residual of D(i, j) against the reference cost of their cells. */
static void residual(const struct twz_transit_db *db, uint32_t i, uint32_t j,
		     int64_t *vs, int64_t *vd)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t a = db->access_node[i], b = db->access_node[j];
	uint32_t dx = tg->node_x[a] > tg->node_x[b] ? tg->node_x[a] - tg->node_x[b]
						    : tg->node_x[b] - tg->node_x[a];
	uint32_t dy = tg->node_y[a] > tg->node_y[b] ? tg->node_y[a] - tg->node_y[b]
						    : tg->node_y[b] - tg->node_y[a];
	uint32_t rs, rd;
	struct twz_tdist d = table_get(db, db->access_old[i], db->access_old[j]);

	twz_transit_reference(tg->connectivity, dx, dy, &rs, &rd);
	*vs = (int64_t)d.straight - rs;
	*vd = (int64_t)d.diagonal - rd;
}

static inline void put_bits(uint8_t *buf, uint64_t bit, uint64_t v)
{
	uint8_t *p = buf + (bit >> 3);

	twz_put64(p, twz_le64(p) | v << (bit & 7));
}

/* ACCESS_NODES and ACCESS_TABLE; 0, or -1 out of memory. */
int twz_transit_access_sections(const struct twz_transit_db *db,
				uint8_t **nodes_out, uint8_t **table_out,
				size_t *table_size)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t m = db->access_transits;
	uint8_t *rec = calloc(m ? m : 1, TWZ_AN_SIZE);
	uint8_t *bits = NULL;
	uint64_t bit = 0;

	*nodes_out = *table_out = NULL;
	if (!rec)
		return -1;
	/* Pass 1: each row's end, bases and widths. */
	uint32_t end = m;
	for (uint32_t i = m; i-- > 0;) {
		uint8_t *r = rec + (size_t)i * TWZ_AN_SIZE;
		uint32_t v = db->access_node[i];
		if (i + 1 < m && tg->node_comp[db->access_node[i + 1]] != tg->node_comp[v])
			end = i + 1;
		int64_t lo_s = INT64_MAX, hi_s = INT64_MIN;
		int64_t lo_d = INT64_MAX, hi_d = INT64_MIN;
		for (uint32_t j = i + 1; j < end; j++) {
			int64_t vs, vd;
			residual(db, i, j, &vs, &vd);
			lo_s = vs < lo_s ? vs : lo_s;
			hi_s = vs > hi_s ? vs : hi_s;
			lo_d = vd < lo_d ? vd : lo_d;
			hi_d = vd > hi_d ? vd : hi_d;
		}
		if (end == i + 1)
			lo_s = hi_s = lo_d = hi_d = 0;
		twz_put32(r + TWZ_AN_NODE, v);
		twz_put16(r + TWZ_AN_X, tg->node_x[v]);
		twz_put16(r + TWZ_AN_Y, tg->node_y[v]);
		twz_put32(r + TWZ_AN_ROW_END, end);
		r[TWZ_AN_WIDTH_S] = (uint8_t)bits_for((uint64_t)(hi_s - lo_s));
		r[TWZ_AN_WIDTH_D] = (uint8_t)bits_for((uint64_t)(hi_d - lo_d));
		twz_put32(r + TWZ_AN_BASE_S, (uint32_t)(int32_t)lo_s);
		twz_put32(r + TWZ_AN_BASE_D, (uint32_t)(int32_t)lo_d);
	}
	for (uint32_t i = 0; i < m; i++) {
		uint8_t *r = rec + (size_t)i * TWZ_AN_SIZE;
		twz_put64(r + TWZ_AN_ROW_BIT, bit);
		bit += (uint64_t)(twz_le32(r + TWZ_AN_ROW_END) - i - 1) *
		       (r[TWZ_AN_WIDTH_S] + r[TWZ_AN_WIDTH_D]);
	}
	*table_size = (size_t)((bit + 7) / 8) + TWZ_AT_PAD;
	bits = calloc(*table_size, 1);
	if (!bits) {
		free(rec);
		return -1;
	}
	/* Pass 2: the fields, straight in the low bits of each entry. */
	for (uint32_t i = 0; i < m; i++) {
		const uint8_t *r = rec + (size_t)i * TWZ_AN_SIZE;
		unsigned ws = r[TWZ_AN_WIDTH_S], wd = r[TWZ_AN_WIDTH_D];
		int64_t bs = (int32_t)twz_le32(r + TWZ_AN_BASE_S);
		int64_t bd = (int32_t)twz_le32(r + TWZ_AN_BASE_D);
		uint64_t at = twz_le64(r + TWZ_AN_ROW_BIT);
		for (uint32_t j = i + 1; j < twz_le32(r + TWZ_AN_ROW_END); j++) {
			int64_t vs, vd;
			residual(db, i, j, &vs, &vd);
			uint64_t f = (uint64_t)(vs - bs) | (uint64_t)(vd - bd) << ws;
			if (ws + wd)
				put_bits(bits, at, f);
			at += ws + wd;
		}
	}
	*nodes_out = rec;
	*table_out = bits;
	return 0;
}

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return a < b ? -1 : a > b;
}

int twz_transit_access_pack_block(const struct twz_transit_db *db, uint32_t b,
				  const struct twz_access *e, uint32_t *list,
				  uint32_t *listed, uint32_t *pk)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t n0 = tg->block_first[b], n1 = tg->block_first[b + 1];
	uint32_t base = db->access_first[n0];
	uint32_t count = db->access_first[n1] - base, u = 0;

	/* The block's list: the transit indices its entries name. */
	for (uint32_t k = 0; k < count; k++)
		list[k] = e[k].transit;
	if (count)
		qsort(list, count, sizeof *list, cmp_u32);
	for (uint32_t k = 0; k < count; k++)
		if (u == 0 || list[u - 1] != list[k])
			list[u++] = list[k];
	*listed = u;
	if (u > TWZ_AP_MAX_LIST)
		return 0;
	for (uint32_t s = n0; s < n1; s++) {
		for (uint32_t k = db->access_first[s]; k < db->access_first[s + 1]; k++) {
			const struct twz_access *a = &e[k - base];
			uint32_t v = db->access_node[a->transit];
			uint32_t lo = 0, hi = u;
			while (hi - lo > 1) {  /* it is in the list */
				uint32_t mid = lo + (hi - lo) / 2;
				if (list[mid] <= a->transit)
					lo = mid;
				else
					hi = mid;
			}
			uint32_t dx = tg->node_x[v] > tg->node_x[s] ?
				tg->node_x[v] - tg->node_x[s] : tg->node_x[s] - tg->node_x[v];
			uint32_t dy = tg->node_y[v] > tg->node_y[s] ?
				tg->node_y[v] - tg->node_y[s] : tg->node_y[s] - tg->node_y[v];
			uint32_t rs, rd;
			twz_transit_reference(tg->connectivity, dx, dy, &rs, &rd);
			int64_t fs = (int64_t)a->straight - rs + TWZ_AP_BIAS;
			int64_t fd = (int64_t)a->diagonal - rd + TWZ_AP_BIAS;
			if (fs < 0 || fs >= 1 << TWZ_AP_FIELD_BITS ||
			    fd < 0 || fd >= 1 << TWZ_AP_FIELD_BITS)
				return 0;
			pk[k - base] = lo | (uint32_t)fs << TWZ_AP_PLACE_BITS |
				       (uint32_t)fd << (TWZ_AP_PLACE_BITS + TWZ_AP_FIELD_BITS);
		}
	}
	return 1;
}

int twz_transit_access_pack(const struct twz_transit_db *db,
			    uint32_t **block_first, uint32_t **block_list,
			    uint32_t **packed)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t blocks = tg->cols * tg->rows;
	uint32_t *bf = malloc(((size_t)blocks + 1) * sizeof *bf);
	uint32_t *bl = malloc((db->access_count ? db->access_count : 1) * sizeof *bl);
	uint32_t *pk = malloc((db->access_count ? db->access_count : 1) * sizeof *pk);
	uint64_t listed = 0;
	int fits = 1;

	*block_first = *block_list = *packed = NULL;
	if (!bf || !bl || !pk) {
		free(bf);
		free(bl);
		free(pk);
		return -1;
	}
	for (uint32_t b = 0; b < blocks && fits; b++) {
		uint32_t e0 = db->access_first[tg->block_first[b]], u;
		bf[b] = (uint32_t)listed;
		fits = twz_transit_access_pack_block(db, b, db->access + e0,
						     bl + listed, &u, pk + e0);
		listed += u;
	}
	if (!fits) {
		free(bf);
		free(bl);
		free(pk);
		return 0;
	}
	bf[blocks] = (uint32_t)listed;
	*block_first = bf;
	*block_list = bl;
	*packed = pk;
	return 1;
}

/* Whether the access-node layout can hold db: every count in its field. */
int twz_transit_access_fits(const struct twz_transit_db *db)
{
	/* Table residuals need no check: distances and references are
	 * below 2^26, so a row's range fits TWZ_AN_MAX_WIDTH bits. */
	return db->access && db->access_fits;
}
