/*
 * method_transit_access.c - the access-node layout of a TRANSIT bake
 * (format 1.4, FORMAT.md 5j): each node's access nodes, the transit
 * nodes they name renumbered by region, and the sections that hold them:
 * access entries sorted by cost, packed into 4 bytes where they fit (a
 * place in the block's list and exact offsets from the reference cost)
 * and else of exact u16 counts, and the transit table as bit-packed rows
 * of residuals against the reference cost.
 *
 * Access nodes (FORMAT.md 5j). Let Q be the inside of the ring of block
 * B's inner box (the squares strictly between its border lines) and O
 * B's outer square. The targets of node n of B are the transit nodes r
 * of T(B) where some lexicographically shortest path (exact cost, then
 * the selection's tie-break) from n to an end of O (a node just outside
 * O that a move from O reaches), among those whose other nodes lie in
 * O, first leaves Q, at the exact distance d(n, r).
 * n keeps a set that hits every target r: some kept a with d(n, a) +
 * D(a, r) == d(n, r) (r hits itself).
 *
 * Why that suffices. Let P be a lexicographically shortest s-t path, s in
 * A and t in B far apart; its reverse is one from t. P's first node z
 * outside Q(A) is a ring node; the part of P from its last node in A
 * before z to its first node outside A's outer square is
 * lexicographically shortest inside that square, so the selection
 * (method_transit_select.c) marks every ring node on it: z is in T(A),
 * and a target of s. Some kept a of s lies on a shortest s-z path.
 * Likewise P's last node z' outside Q(B) is a target of t, hit by a kept
 * b. A and B are more than outer >= 2 inner blocks apart on an axis, so
 * a line of squares separates Q(A) from Q(B), which one move cannot
 * cross: z comes no later than z' on P, and d(s, a) + D(a, b) + d(b, t)
 * <= d(s, z) + d(z, z') + d(z', t) is P's length. One-sided, for b
 * outside the outer square of x's block, P from x to b leaves Q(x's
 * block) at a target z of x: d(x, a) + D(a, b) <= d(x, z) + d(z, b).
 * (The first node outside O would not do as z: outer squares of blocks
 * far apart may overlap.)
 *
 * The cost follows the block's transit nodes, not its cells: one
 * lexicographic search from each transit node a inside Q, stopped once
 * B's nodes are in, gives L(n, a) (kept when its cost is d(n, a), that
 * is, a path inside Q is shortest), and one expanding O gives L(a, z)
 * for the ends z; then for each n and z the least L(n, a) + L(a, z) over
 * a (doubles, near ties decided exactly) names the targets: P's part
 * from n to its first node outside O is lexicographically shortest among
 * the paths that expand only O, and it leaves Q at some a. The hitting
 * set is greedy: the transit node that hits most targets not yet hit,
 * ties to one another node of the block keeps already, then to the first
 * of the list; then those the others make redundant go.
 */
#include "transit.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "method_transit_select.h"
#include "search_transit.h"
#include "spool.h"
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

/* A kept access node: its place j in the block's list, its transit
 * index among the M, the distance to it. */
struct access_cand {
	uint32_t j;
	uint32_t transit;
	struct twz_tdist d;
};

static int cand_cmp(const void *pa, const void *pb)
{
	const struct access_cand *a = pa, *b = pb;

	if (twz_cost_less(cost_of(a->d), cost_of(b->d)))
		return -1;
	if (twz_cost_less(cost_of(b->d), cost_of(a->d)))
		return 1;
	return a->transit < b->transit ? -1 : a->transit > b->transit;
}

/* Bitset words for a list of l transit nodes. */
static inline uint32_t words_for(uint32_t l)
{
	return (l + 63) / 64;
}

static inline uint64_t tdist_key(struct twz_tdist d)
{
	return d.straight == UINT32_MAX ? UINT64_MAX
					: (uint64_t)d.straight << 32 | d.diagonal;
}

/* A lexicographic length: exact cost, then the tie-break sum. */
struct lex {
	uint32_t s, d;
	uint64_t t;
};

static inline int lex_less(struct lex a, struct lex b)
{
	struct twz_cost ca = { a.s, a.d }, cb = { b.s, b.d };

	if (twz_cost_less(ca, cb))
		return 1;
	if (twz_cost_less(cb, ca))
		return 0;
	return a.t < b.t;
}

/* A thread's state: its search, and room for one block's lexicographic
 * lengths, targets and covers (bitsets over the block's list, `words`
 * words each). */
struct twz_access_worker {
	struct twz_tsearch ws;
	uint8_t *flag;                /* [node_count]: the block's nodes, or
					 the ends of its outer square */
	uint32_t *range;              /* [2 * rows]: blocks, by row */
	uint32_t nodes;               /* most nodes in a block */
	double *qv;                   /* [nodes * list]: L(n, a) in the ring */
	struct lex *qx;
	uint32_t *end;                /* [ends]: the nodes just outside the
					 outer square a move reaches */
	double *ov;                   /* [list * ends]: L(a, z) */
	struct lex *ox;
	double *bv;                   /* [ends]: n's least, as doubles */
	struct lex *bx;               /* [ends]: exactly */
	uint64_t *bset;               /* [ends * words]: who reaches it */
	uint32_t ends_cap;
	uint64_t *target;             /* [words]: a node's */
	uint64_t *cover;              /* [list * words] */
	uint64_t *used;               /* [words]: kept by a node of the block */
	uint64_t *left;               /* [words]: targets not yet hit */
	uint64_t *key;                /* [list^2]: D between the list */
	uint64_t *dkey;               /* [list]: d(n, a) */
	uint32_t *pick;               /* [list] */
	uint32_t *tl;                 /* [list]: n's targets */
	uint32_t words;
	struct access_cand *c;    /* [list] */
};

static void access_worker_free(struct twz_access_worker *wk);

static struct twz_access_worker *access_worker_new(const struct twz_transit_db *db)
{
	const struct twz_graph *tg = &db->graph;
	struct twz_access_worker *wk = calloc(1, sizeof *wk);
	size_t n = tg->node_count ? tg->node_count : 1;
	size_t l = db->max_block_transits ? db->max_block_transits : 1;
	uint32_t blocks = tg->cols * tg->rows, nodes = 1;

	if (!wk)
		return NULL;
	for (uint32_t b = 0; b < blocks; b++)
		if (tg->block_first[b + 1] - tg->block_first[b] > nodes)
			nodes = tg->block_first[b + 1] - tg->block_first[b];
	wk->words = words_for((uint32_t)l);
	wk->nodes = nodes;
	wk->flag = calloc(n, 1);
	wk->qv = malloc((size_t)nodes * l * sizeof *wk->qv);
	wk->qx = malloc((size_t)nodes * l * sizeof *wk->qx);
	wk->range = malloc(2 * ((size_t)tg->rows + 1) * sizeof *wk->range);
	wk->target = malloc(wk->words * sizeof *wk->target);
	wk->cover = malloc(l * wk->words * sizeof *wk->cover);
	wk->used = malloc(wk->words * sizeof *wk->used);
	wk->left = malloc(wk->words * sizeof *wk->left);
	wk->key = malloc(l * l * sizeof *wk->key);
	wk->dkey = malloc(l * sizeof *wk->dkey);
	wk->pick = malloc(l * sizeof *wk->pick);
	wk->tl = malloc(l * sizeof *wk->tl);
	wk->c = malloc(l * sizeof *wk->c);
	if (!wk->flag || !wk->range || !wk->qv || !wk->qx || !wk->target || !wk->cover ||
	    !wk->used || !wk->left || !wk->key || !wk->dkey || !wk->pick ||
	    !wk->tl || !wk->c || twz_tsearch_init(&wk->ws, tg) != 0) {
		access_worker_free(wk);
		return NULL;
	}
	return wk;
}

static void access_worker_free(struct twz_access_worker *wk)
{
	if (!wk)
		return;
	if (wk->ws.tg)
		twz_tsearch_free(&wk->ws);
	free(wk->flag);
	free(wk->range);
	free(wk->qv);
	free(wk->qx);
	free(wk->end);
	free(wk->ov);
	free(wk->ox);
	free(wk->bv);
	free(wk->bx);
	free(wk->bset);
	free(wk->target);
	free(wk->cover);
	free(wk->used);
	free(wk->left);
	free(wk->key);
	free(wk->dkey);
	free(wk->pick);
	free(wk->tl);
	free(wk->c);
	free(wk);
}

/* Room for the ends of an outer square. 0, or -1 out of memory. */
static int ends_room(struct twz_access_worker *wk, uint32_t ends, uint32_t l)
{
	if (ends <= wk->ends_cap)
		return 0;
	free(wk->end);
	free(wk->ov);
	free(wk->ox);
	free(wk->bv);
	free(wk->bx);
	free(wk->bset);
	wk->end = malloc((size_t)ends * sizeof *wk->end);
	wk->ov = malloc((size_t)ends * l * sizeof *wk->ov);
	wk->ox = malloc((size_t)ends * l * sizeof *wk->ox);
	wk->bv = malloc((size_t)ends * sizeof *wk->bv);
	wk->bx = malloc((size_t)ends * sizeof *wk->bx);
	wk->bset = malloc((size_t)ends * wk->words * sizeof *wk->bset);
	if (!wk->end || !wk->ov || !wk->ox || !wk->bv || !wk->bx || !wk->bset) {
		wk->ends_cap = 0;
		return -1;
	}
	wk->ends_cap = ends;
	return 0;
}

/* L(n, a) for the nodes n of block b and its transit nodes a, when the
 * lexicographically shortest n-a path inside the ring (every node but a
 * inside it) is a shortest path; else HUGE_VAL. */
static int ring_lengths(struct twz_access_worker *wk,
			const struct twz_transit_db *db, uint32_t b,
			const struct twz_tdist *dist)
{
	const struct twz_graph *tg = &db->graph;
	struct twz_tsearch *ws = &wk->ws;
	uint32_t first = tg->block_first[b], last = tg->block_first[b + 1];
	uint32_t f = db->block_transit_first[b];
	uint32_t n = db->block_transit_first[b + 1] - f;
	struct twz_rect ring, outer, in;
	int rc = 0;

	twz_transit_block_rects(tg, b, &ring, &outer);
	in = (struct twz_rect){ ring.x0 + 1, ring.y0 + 1, ring.x1 - 1, ring.y1 - 1 };
	uint32_t ranges = twz_block_ranges(tg, b, tg->inner, wk->range);
	twz_tsearch_area_rect(ws, wk->range, ranges, &in);
	for (uint32_t s = first; s < last; s++)
		wk->flag[s] = 1;
	for (uint32_t j = 0; j < n && rc == 0; j++) {
		uint32_t a = db->transit_node[db->block_transit[f + j]];
		uint32_t want = 0;
		for (uint32_t i = 0; i < last - first; i++)
			want += dist[(uint64_t)i * n + j].straight != UINT32_MAX;
		if (twz_tsearch_area_lex(ws, a, wk->flag, want) != 0) {
			rc = -1;
			break;
		}
		for (uint32_t i = 0; i < last - first; i++) {
			struct twz_tdist d = dist[(uint64_t)i * n + j];
			uint32_t v = first + i;
			wk->qv[(size_t)i * n + j] = HUGE_VAL;
			if (d.straight == UINT32_MAX || !twz_tsearch_settled(ws, v))
				continue;
			struct twz_cost c = twz_tsearch_cost(ws, v);
			if (c.straight != d.straight || c.diagonal != d.diagonal)
				continue;
			wk->qv[(size_t)i * n + j] = twz_cost_value(c);
			wk->qx[(size_t)i * n + j] = (struct lex){
				c.straight, c.diagonal, twz_tsearch_tie(ws, v) };
		}
	}
	for (uint32_t s = first; s < last; s++)
		wk->flag[s] = 0;
	twz_tsearch_area(ws, wk->range, ranges, 0);
	return rc;
}

/* The ends of block b's outer square O (the nodes outside O that a move
 * from O reaches) and L(a, z) for the transit nodes a and ends z, by the
 * lexicographic search that expands O only; their count, or -1 out of
 * memory. */
static int64_t end_lengths(struct twz_access_worker *wk,
			   const struct twz_transit_db *db, uint32_t b)
{
	const struct twz_graph *tg = &db->graph;
	struct twz_tsearch *ws = &wk->ws;
	uint32_t f = db->block_transit_first[b];
	uint32_t n = db->block_transit_first[b + 1] - f, ne = 0;
	uint32_t l = db->max_block_transits;
	uint32_t ranges = twz_block_ranges(tg, b, tg->outer, wk->range);
	int rc = 0;

	for (int pass = 0; pass < 2; pass++) {
		ne = 0;
		for (uint32_t r = 0; r < ranges; r++) {
			for (uint32_t v = wk->range[2 * r]; v < wk->range[2 * r + 1]; v++) {
				const uint32_t *nb = tg->neighbour + (size_t)v * TWZ_MOVE_COUNT;
				for (unsigned mask = ws->legal[v]; mask; mask &= mask - 1) {
					uint32_t z = nb[__builtin_ctz(mask)];
					if (wk->flag[z] ||
					    twz_blocks_within(tg, b, tg->node_block[z], tg->outer))
						continue;
					wk->flag[z] = 1;
					if (pass)
						wk->end[ne] = z;
					ne++;
				}
			}
		}
		for (uint32_t r = 0; r < ranges; r++)
			for (uint32_t v = wk->range[2 * r]; v < wk->range[2 * r + 1]; v++) {
				const uint32_t *nb = tg->neighbour + (size_t)v * TWZ_MOVE_COUNT;
				for (unsigned mask = ws->legal[v]; mask; mask &= mask - 1)
					wk->flag[nb[__builtin_ctz(mask)]] = 0;
			}
		if (!pass && ends_room(wk, ne, l) != 0)
			return -1;
	}
	for (uint32_t j = 0; j < n; j++) {
		uint32_t a = db->transit_node[db->block_transit[f + j]];
		double *ov = wk->ov + (size_t)j * ne;
		struct lex *ox = wk->ox + (size_t)j * ne;
		if (twz_tsearch_lex_around(ws, a, b) != 0) {
			rc = -1;
			break;
		}
		for (uint32_t e = 0; e < ne; e++) {
			uint32_t v = wk->end[e];
			ov[e] = HUGE_VAL;
			if (!twz_tsearch_settled(ws, v))
				continue;
			struct twz_cost c = twz_tsearch_cost(ws, v);
			ov[e] = twz_cost_value(c);
			ox[e] = (struct lex){ c.straight, c.diagonal,
					      twz_tsearch_tie(ws, v) };
		}
	}
	return rc ? -1 : (int64_t)ne;
}

/*
 * Node i's targets (bit j: the j-th transit node of the list): for each
 * end z, every a with L(n, a) + L(a, z) least, that is, where the
 * lexicographically shortest n-z paths that expand only O first leave
 * the inside of the ring. Doubles find the least; near ties are decided
 * exactly.
 */
static void node_targets(struct twz_access_worker *wk, uint32_t n,
			 uint32_t ne, uint32_t i, uint64_t *t)
{
	const double *qv = wk->qv + (size_t)i * n;
	const struct lex *qx = wk->qx + (size_t)i * n;
	uint32_t w = wk->words;
	double *bv = wk->bv;

	for (uint32_t e = 0; e < ne; e++) {
		bv[e] = HUGE_VAL;
		wk->bx[e].s = UINT32_MAX;
	}
	memset(t, 0, w * sizeof *t);
	memset(wk->bset, 0, (size_t)ne * w * sizeof *wk->bset);
	for (uint32_t j = 0; j < n; j++) {
		if (qv[j] == HUGE_VAL)
			continue;
		const double q = qv[j], *ov = wk->ov + (size_t)j * ne;
		for (uint32_t e = 0; e < ne; e++) {
			double x = q + ov[e];
			bv[e] = x < bv[e] ? x : bv[e];
		}
	}
	for (uint32_t j = 0; j < n; j++) {
		if (qv[j] == HUGE_VAL)
			continue;
		const double q = qv[j], *ov = wk->ov + (size_t)j * ne;
		const struct lex *ox = wk->ox + (size_t)j * ne;
		for (uint32_t e = 0; e < ne; e++) {
			if (!(q + ov[e] <= bv[e] + 1e-6) || ov[e] == HUGE_VAL)
				continue;
			struct lex x = { qx[j].s + ox[e].s, qx[j].d + ox[e].d,
					 qx[j].t + ox[e].t };
			uint64_t *bs = wk->bset + (size_t)e * w;
			if (wk->bx[e].s == UINT32_MAX || lex_less(x, wk->bx[e])) {
				wk->bx[e] = x;
				memset(bs, 0, w * sizeof *bs);
			} else if (lex_less(wk->bx[e], x)) {
				continue;
			}
			bs[j / 64] |= 1ull << (j % 64);
		}
	}
	for (uint32_t e = 0; e < ne; e++)
		for (uint32_t x = 0; x < w; x++)
			t[x] |= wk->bset[(size_t)e * w + x];
}

/*
 * Node s's access nodes (places into wk->pick), given its targets t and
 * distances d: a small set that hits every target, where a hits r when
 * d(s, a) + D(a, r) == d(s, r) exactly. Greedy: the transit node that
 * hits most targets not yet hit, on ties one another node of the block
 * keeps already, then the first in the list; then, last picked first,
 * each one the others make redundant goes. Returns the count.
 */
static uint32_t hit_targets(struct twz_access_worker *wk, uint32_t n,
			    const struct twz_tdist *d, const uint64_t *t)
{
	uint32_t w = wk->words, nt = 0, kept = 0;
	uint64_t *left = wk->left;
	int any = 0;

	for (uint32_t j = 0; j < n; j++) {
		wk->dkey[j] = tdist_key(d[j]);
		if (t[j / 64] >> (j % 64) & 1)
			wk->tl[nt++] = j;
	}
	for (uint32_t x = 0; x < w; x++) {
		left[x] = t[x];
		any |= t[x] != 0;
	}
	if (!any)
		return 0;
	for (uint32_t a = 0; a < n; a++) {
		uint64_t *cv = wk->cover + (size_t)a * w;
		const uint64_t *row = wk->key + (size_t)a * n;
		uint64_t da = wk->dkey[a];
		memset(cv, 0, w * sizeof *cv);
		if (da == UINT64_MAX)
			continue;
		for (uint32_t y = 0; y < nt; y++) {
			uint32_t r = wk->tl[y];
			if (row[r] != UINT64_MAX && da + row[r] == wk->dkey[r])
				cv[r / 64] |= 1ull << (r % 64);
		}
	}
	for (;;) {
		uint32_t best = UINT32_MAX, bc = 0, bu = 0;
		for (uint32_t a = 0; a < n; a++) {
			const uint64_t *cv = wk->cover + (size_t)a * w;
			uint32_t cnt = 0;
			for (uint32_t x = 0; x < w; x++)
				cnt += (uint32_t)__builtin_popcountll(cv[x] & left[x]);
			uint32_t u = wk->used[a / 64] >> (a % 64) & 1;
			if (cnt > bc || (cnt && cnt == bc && u > bu)) {
				best = a;
				bc = cnt;
				bu = u;
			}
		}
		if (best == UINT32_MAX)
			break;  /* every target hit (each hits itself) */
		wk->pick[kept++] = best;
		for (uint32_t x = 0; x < w; x++)
			left[x] &= ~wk->cover[(size_t)best * w + x];
	}
	/* Drop the redundant, last picked first. */
	for (uint32_t p = kept; p-- > 0;) {
		int needed = 0;
		for (uint32_t x = 0; x < w && !needed; x++) {
			uint64_t others = 0;
			for (uint32_t q = 0; q < kept; q++)
				if (q != p && wk->pick[q] != UINT32_MAX)
					others |= wk->cover[(size_t)wk->pick[q] * w + x];
			needed = (wk->cover[(size_t)wk->pick[p] * w + x] & t[x] & ~others) != 0;
		}
		if (!needed)
			wk->pick[p] = UINT32_MAX;
	}
	uint32_t k = 0;
	for (uint32_t p = 0; p < kept; p++)
		if (wk->pick[p] != UINT32_MAX)
			wk->pick[k++] = wk->pick[p];
	return k;
}

/* The access nodes of block b's nodes: dist their distances to the
 * block's n transit nodes (a row of n a node, in node order), sub the
 * table between those (n x n by place, D(i, i) zero). out (room for a
 * row of n a node) gets each node's kept entries in turn, by cost, old
 * transit indices; len[s - first node] their counts. 0, or -1 out of
 * memory. */
static int access_block(struct twz_access_worker *wk,
			     const struct twz_transit_db *db, uint32_t b,
			     const struct twz_tdist *dist,
			     const struct twz_tdist *sub,
			     struct access_cand *out, uint32_t *len)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t first = tg->block_first[b], last = tg->block_first[b + 1];
	uint32_t f = db->block_transit_first[b];
	uint32_t n = db->block_transit_first[b + 1] - f, w = wk->words;
	struct access_cand *c = wk->c;
	uint64_t at = 0;

	if (n == 0 || first == last) {
		for (uint32_t s = first; s < last; s++)
			len[s - first] = 0;
		return 0;
	}
	if (ring_lengths(wk, db, b, dist) != 0)
		return -1;
	int64_t ne = end_lengths(wk, db, b);
	if (ne < 0)
		return -1;
	for (uint64_t i = 0; i < (uint64_t)n * n; i++)
		wk->key[i] = tdist_key(sub[i]);
	memset(wk->used, 0, w * sizeof *wk->used);
	for (uint32_t s = first; s < last; s++) {
		const struct twz_tdist *d = dist + (uint64_t)(s - first) * n;
		uint64_t *t = wk->target;
		node_targets(wk, n, (uint32_t)ne, s - first, t);
		uint32_t k = hit_targets(wk, n, d, t);
		for (uint32_t x = 0; x < k; x++) {
			uint32_t j = wk->pick[x];
			c[x] = (struct access_cand){ j, db->block_transit[f + j], d[j] };
			wk->used[j / 64] |= 1ull << (j % 64);
		}
		qsort(c, k, sizeof *c, cand_cmp);
		memcpy(out + at, c, k * sizeof *c);
		at += k;
		len[s - first] = k;
	}
	return 0;
}

struct access_ctx {
	struct twz_transit_db *db;
	const uint64_t *dist_first;   /* [blocks]: into db->node_dist */
	struct twz_gather kept;       /* the blocks' entries, old indices */
	uint32_t *len;                /* [node_count]: kept a node */
	atomic_int wide;              /* some distance needs more than 16 bits */
};

struct aworker {
	struct twz_access_worker *wk;
	struct twz_tdist *sub;        /* [max list]^2 */
};

/* The access nodes of the nodes of blocks [lo, hi): each block's table
 * entries between its transit nodes gathered for
 * twz_transit_access_block, its kept entries to the gather. */
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
		struct access_cand *out = malloc((cap ? cap : 1) * sizeof *out);
		struct twz_access *e = malloc((cap ? cap : 1) * sizeof *e);

		if (!out || !e) {
			free(out);
			free(e);
			return -1;
		}
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t j = 0; j < n; j++)
				aw->sub[(size_t)i * n + j] =
					table_get(db, db->block_transit[f + i],
						  db->block_transit[f + j]);
		if (access_block(aw->wk, db, b,
					     db->node_dist + ac->dist_first[b],
					     aw->sub, out, ac->len + first) != 0) {
			free(out);
			free(e);
			return -1;
		}
		uint64_t kept = 0;
		for (uint32_t s = first; s < last; s++)
			kept += ac->len[s];
		for (uint64_t y = 0; y < kept; y++) {
			const struct access_cand *c = &out[y];
			if (c->d.straight > UINT16_MAX || c->d.diagonal > UINT16_MAX)
				atomic_store(&ac->wide, 1);
			e[y] = (struct twz_access){ c->transit, (uint16_t)c->d.straight,
						    (uint16_t)c->d.diagonal };
		}
		free(out);
		if (twz_gather_put(&ac->kept, b, e, kept * sizeof *e) != 0)
			return -1;
	}
	return 0;
}

static int access_worker_init(void *ctx, void *w)
{
	struct access_ctx *ac = ctx;
	struct aworker *aw = w;
	size_t l = ac->db->max_block_transits ? ac->db->max_block_transits : 1;

	aw->sub = malloc(l * l * sizeof *aw->sub);
	aw->wk = access_worker_new(ac->db);
	if (!aw->sub || !aw->wk) {
		free(aw->sub);
		access_worker_free(aw->wk);
		return -1;
	}
	return 0;
}

static void access_worker_fini(void *w)
{
	struct aworker *aw = w;

	access_worker_free(aw->wk);
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

	atomic_init(&ac.wide, 0);
	ac.len = calloc(nn ? nn : 1, sizeof *ac.len);
	db->access_first = malloc(((size_t)nn + 1) * sizeof *db->access_first);
	if (!dist_first || !ac.len || !db->access_first ||
	    twz_gather_init(&ac.kept, blocks, db->spool) != 0)
		goto out;
	uint64_t total = 0;
	for (uint32_t b = 0; b < blocks; b++) {
		dist_first[b] = total;
		total += (uint64_t)(tg->block_first[b + 1] - tg->block_first[b]) *
			 (db->block_transit_first[b + 1] - db->block_transit_first[b]);
	}
	ac.dist_first = dist_first;
	struct twz_pool p = {
		.opt = opt, .spool = db->spool, .what = "access nodes",
		.items = blocks, .chunk = 1, .worker_size = sizeof(struct aworker),
		.init = access_worker_init, .fini = access_worker_fini,
		.run = access_chunk, .ctx = &ac,
	};
	int failed = twz_pool_run(&p, twz_bake_threads(opt));
	/* In node order: blocks hold consecutive nodes. */
	db->access = ac.kept.v;
	if (failed)
		goto out;
	uint64_t count = 0;
	db->access_fits = !atomic_load(&ac.wide);
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
	map = malloc((db->transit_count ? db->transit_count : 1) * sizeof *map);
	/* No entry at all is still an access layout. */
	if (!db->access)
		db->access = twz_big_alloc(db->spool, sizeof *db->access);
	if (!map || !db->access)
		goto out;
	/* Mark the transit nodes in use. */
	memset(map, 0xFF, (size_t)db->transit_count * sizeof *map);
	for (uint64_t k = 0; k < count; k++) {
		map[db->access[k].transit] = 0;
		if (k % (1 << 20) == (1 << 20) - 1)
			twz_spool_trim(db->spool);
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
		if (s % 4096 == 4095)
			twz_spool_trim(db->spool);
	}
	rc = 0;
	goto out;
fail:
	rc = -2;
out:
	if (rc == -1)
		twz_error_kind_set(err, db->spool ? TWZ_ERR_IO : TWZ_ERR_NOMEM,
				   "%s: %s for the access nodes", opt->name,
				   db->spool ? "the temporary file failed" : "out of memory");
	if (ac.kept.wait)
		twz_gather_end(&ac.kept);
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
		if (i % 64 == 63)
			twz_spool_trim(db->spool);
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
	bits = twz_big_alloc(db->spool, *table_size);
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
		if (i % 64 == 63)
			twz_spool_trim(db->spool);
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

/* Block b's part of twz_transit_access_pack: e the block's entries
 * (access_first of its first node on; new indices, db->access_node
 * set), list room for as many (gets the block's list, *listed long), pk
 * as many words. 1 when they pack, else 0. */
static int pack_block(const struct twz_transit_db *db, uint32_t b,
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
	uint32_t *bl = twz_big_alloc(db->spool, (db->access_count ? db->access_count : 1) *
				     sizeof *bl);
	uint32_t *pk = twz_big_alloc(db->spool, (db->access_count ? db->access_count : 1) *
				     sizeof *pk);
	uint64_t listed = 0;
	int fits = 1;

	*block_first = *block_list = *packed = NULL;
	if (!bf || !bl || !pk) {
		free(bf);
		twz_big_free(db->spool, bl);
		twz_big_free(db->spool, pk);
		return -1;
	}
	for (uint32_t b = 0; b < blocks && fits; b++) {
		uint32_t e0 = db->access_first[tg->block_first[b]], u;
		bf[b] = (uint32_t)listed;
		fits = pack_block(db, b, db->access + e0,
						     bl + listed, &u, pk + e0);
		listed += u;
		if (b % 64 == 63)
			twz_spool_trim(db->spool);
	}
	if (!fits) {
		free(bf);
		twz_big_free(db->spool, bl);
		twz_big_free(db->spool, pk);
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
