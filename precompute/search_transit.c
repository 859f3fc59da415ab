/*
 * search_transit.c - the bounded searches of the TRANSIT bake (see
 * search_transit.h).
 */
#include "search_transit.h"

#include <stdlib.h>
#include <string.h>

/* The ring grows to the span of the longest shortcut; a span over this
 * many half units is refused (no shortest path is that long). */
#define RING_MAX (1u << 28)


/* state bits */
#define QUEUED 1u
#define SETTLED TWZ_TSEARCH_SETTLED
#define AREA 4u   /* inside the area of the current local searches */

int twz_tsearch_init(struct twz_tsearch *ws, const struct twz_graph *tg)
{
	size_t n = tg->node_count ? tg->node_count : 1;
	/* Every per-node array in one block, the widest entries first. */
	uint8_t *p = malloc(n * (2 * sizeof(uint64_t) + 2 * sizeof(uint32_t) + 4));

	memset(ws, 0, sizeof *ws);
	ws->tg = tg;
	/* A shortest path has fewer than n moves, so diagonal counts of
	 * every cost met stay <= n. */
	ws->half_sqrt8 = twz_half_sqrt8_table(n + 1);
	if (!p || !ws->half_sqrt8) {
		free(p);
		twz_tsearch_free(ws);
		return -1;
	}
	ws->key = (uint64_t *)p;
	ws->tie = ws->key + n;
	ws->touched = (uint32_t *)(ws->tie + n);
	ws->order = ws->touched + n;
	ws->moves = (uint8_t *)(ws->order + n);
	ws->state = ws->moves + n;
	ws->mark = ws->state + n;
	ws->legal = ws->mark + n;
	memset(ws->state, 0, n);
	for (uint32_t v = 0; v < tg->node_count; v++)
		ws->legal[v] = (uint8_t)twz_graph_moves(tg, v);
	return 0;
}

void twz_tsearch_free(struct twz_tsearch *ws)
{
	free(ws->key);  /* the block of every per-node array */
	free(ws->half_sqrt8);
	twz_ring_free(&ws->ring);
	memset(ws, 0, sizeof *ws);
}

void twz_tsearch_area(struct twz_tsearch *ws, uint32_t lo, uint32_t hi, int on)
{
	for (uint32_t v = lo; v < hi; v++) {
		if (on)
			ws->state[v] |= AREA;
		else
			ws->state[v] &= (uint8_t)~AREA;
	}
}

/* Empty buckets, at least enough for moves spanning `span` half units;
 * the previous search's nodes back to untouched. */
static int reset(struct twz_tsearch *ws, uint64_t span)
{
	uint32_t ring = 4;  /* a move goes 2 or 3 half units up */

	while (ring < span + 4 && ring < RING_MAX)
		ring *= 2;
	if (ring < span + 4)
		return -1;
	if (twz_ring_reserve(&ws->ring, ring) != 0)
		return -1;
	for (uint32_t i = 0; i < ws->touched_len; i++)
		ws->state[ws->touched[i]] &= AREA;
	ws->touched_len = 0;
	ws->order_len = 0;
	/* A search that stopped early left entries behind. */
	if (ws->partial)
		for (uint32_t i = 0; i < ws->ring.alloc; i++)
			ws->ring.len[i] = 0;
	ws->queued = 0;
	ws->partial = 1;
	return 0;
}

/* 2 * straight + floor(2 * sqrt(2) * diagonal): floor(2 * cost), exactly.
 * A move adds 2 or 3, so optimal predecessors sit in lower buckets. */
static inline uint64_t bucket_of(const struct twz_tsearch *ws, uint64_t key)
{
	return 2 * (key >> 32) + ws->half_sqrt8[(uint32_t)key];
}

static inline int push(struct twz_tsearch *ws, uint64_t bucket, uint32_t node)
{
	if (twz_ring_push(&ws->ring, (uint32_t)(bucket & (ws->ring.size - 1)),
			  node) != 0)
		return -1;
	ws->queued++;
	return 0;
}

/* The tie-break of the move between squares a and b: the same both ways
 * and for every run, so lexicographically shortest paths are one fixed
 * choice among the equally short ones. */
static inline uint64_t tie_of(uint32_t a, uint32_t b)
{
	uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
	uint64_t h = (lo << 32 | hi) * 0x9E3779B97F4A7C15ull;

	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 32;
	return h & 0xFFFFF;  /* 20 bits: sums over any path fit 64 bits */
}

static inline uint64_t move_key(unsigned m)
{
	return twz_move_is_diagonal(m) ? 1 : (uint64_t)1 << 32;
}

static int start(struct twz_tsearch *ws, uint32_t s, uint64_t span)
{
	if (reset(ws, span) != 0)
		return -1;
	ws->key[s] = 0;
	ws->tie[s] = 0;
	ws->moves[s] = 0;
	ws->state[s] |= QUEUED;
	ws->touched[ws->touched_len++] = s;
	return push(ws, 0, s);
}

enum mode {
	MODE_LOCAL,     /* first moves, inside the area + shortcuts */
	MODE_FLAGS,     /* costs, stop at `want` flagged nodes */
	MODE_TARGETS,   /* costs, stop at `want` targets by index */
	MODE_SELECT,    /* lexicographic, expand inside the outer square */
};

/* Whether v's block is within tg->outer blocks of block (bx, by). */
static inline int near(const struct twz_graph *tg, uint32_t v,
		       uint32_t bx, uint32_t by)
{
	uint32_t dx = tg->node_bx[v] > bx ? tg->node_bx[v] - bx : bx - tg->node_bx[v];
	uint32_t dy = tg->node_by[v] > by ? tg->node_by[v] - by : by - tg->node_by[v];

	return dx <= tg->outer && dy <= tg->outer;
}

/* Offer w the cost kw (tie tw, first moves fm). Settled nodes sit in
 * lower buckets than any offer, so they are never replaced. */
static inline int relax(struct twz_tsearch *ws, enum mode mode, uint32_t w,
			uint64_t kw, uint64_t tw, uint8_t fm)
{
	uint64_t bw = bucket_of(ws, kw);

	if (ws->state[w] & QUEUED) {
		uint64_t old = ws->key[w];
		if (kw == old) {
			if (mode == MODE_LOCAL)
				ws->moves[w] |= fm;
			if (mode == MODE_SELECT && tw < ws->tie[w])
				ws->tie[w] = tw;
			return 0;
		}
		uint64_t bo = bucket_of(ws, old);
		/* Buckets fit 32 bits (see search.h). */
		if (bw > bo || (bw == bo &&
				twz_offer(ws->half_sqrt8, (uint32_t)bw, (uint32_t)kw,
					  (uint32_t)old) != TWZ_OFFER_BETTER))
			return 0;
	} else {
		ws->state[w] |= QUEUED;
		ws->touched[ws->touched_len++] = w;
	}
	ws->key[w] = kw;
	ws->tie[w] = tw;
	ws->moves[w] = fm;
	return push(ws, bw, w);
}

/* What a node's visit needs: the search and its mode's parameters. */
struct visit {
	struct twz_tsearch *ws;
	uint32_t s, bx, by;         /* the source and its block */
	uint32_t want, got;         /* MODE_FLAGS, MODE_TARGETS */
	const uint8_t *flag;        /* MODE_FLAGS */
	const uint32_t *index;      /* MODE_TARGETS */
	uint32_t min;
	const struct twz_shortcuts *sc;  /* MODE_LOCAL, may be NULL */
};

/* Settle v of bucket b, stop when the mode says so, relax its moves (and
 * shortcuts). `mode` is a constant at each use, so each mode compiles to
 * its own specialised copy of the loop. */
static inline __attribute__((always_inline)) int
visit(struct visit *k, uint32_t v, uint32_t b, enum mode mode)
{
	struct twz_tsearch *ws = k->ws;
	const struct twz_graph *tg = ws->tg;
	const struct twz_shortcuts *sc = k->sc;
	uint64_t kv = ws->key[v];

	if ((ws->state[v] & SETTLED) || bucket_of(ws, kv) != b)
		return 0;  /* stale entry */
	ws->state[v] |= SETTLED;
	ws->order[ws->order_len++] = v;
	if (mode == MODE_FLAGS && k->flag[v] && ++k->got == k->want)
		return 1;
	if (mode == MODE_TARGETS && k->index[v] != TWZ_NODE_NONE &&
	    k->index[v] >= k->min && ++k->got == k->want)
		return 1;
	if (mode == MODE_SELECT && !near(tg, v, k->bx, k->by))
		return 0;  /* a node just outside: an end */
	const uint32_t *nb = tg->neighbour + (size_t)v * TWZ_MOVE_COUNT;
	uint8_t fv = ws->moves[v];
	for (unsigned mask = ws->legal[v]; mask; mask &= mask - 1) {
		unsigned m = (unsigned)__builtin_ctz(mask);
		uint32_t w = nb[m];
		uint8_t sw = ws->state[w];
		if (sw & SETTLED)
			continue;
		if (mode == MODE_LOCAL && !(sw & AREA))
			continue;
		uint64_t tw = 0;
		if (mode == MODE_SELECT)
			tw = ws->tie[v] + tie_of(tg->node_cell[v],
						 tg->node_cell[w]);
		uint8_t fm = v == k->s ? (uint8_t)(1u << m) : fv;
		if (relax(ws, mode, w, kv + move_key(m), tw, fm) != 0)
			return -1;
	}
	if (mode != MODE_LOCAL || !sc || sc->pos[v] == TWZ_NODE_NONE)
		return 0;
	uint32_t i = sc->pos[v];
	for (uint32_t j = sc->first[i]; j < sc->first[i + 1]; j++) {
		uint32_t w = sc->to[j];
		if (w == v || (ws->state[w] & SETTLED))
			continue;
		if (relax(ws, mode, w, kv + sc->key[j], 0, fv) != 0)
			return -1;
	}
	return 0;
}

static int visit_local(void *k, uint32_t v, uint32_t b)
{
	return visit(k, v, b, MODE_LOCAL);
}

static int visit_flags(void *k, uint32_t v, uint32_t b)
{
	return visit(k, v, b, MODE_FLAGS);
}

static int visit_targets(void *k, uint32_t v, uint32_t b)
{
	return visit(k, v, b, MODE_TARGETS);
}

static int visit_select(void *k, uint32_t v, uint32_t b)
{
	return visit(k, v, b, MODE_SELECT);
}

/* Search from k->s in `mode`, over the loop of search.h. */
static inline __attribute__((always_inline)) int
run(struct visit *k, enum mode mode,
    int (*fn)(void *k, uint32_t v, uint32_t b))
{
	struct twz_tsearch *ws = k->ws;
	const struct twz_graph *tg = ws->tg;

	k->bx = tg->node_bx[k->s];
	k->by = tg->node_by[k->s];
	k->got = 0;
	if (start(ws, k->s, k->sc ? k->sc->span : 0) != 0)
		return -1;
	if ((mode == MODE_FLAGS || mode == MODE_TARGETS) && k->want == 0)
		return 0;
	/* The ring is longer than any move or shortcut: new entries land
	 * in later buckets. */
	int e = twz_search_loop(&ws->ring, 0, &ws->queued, 0, k, fn);
	if (e < 0)
		return -1;
	if (e == 0)
		ws->partial = 0;  /* every bucket drained */
	return 0;
}

int twz_tsearch_local(struct twz_tsearch *ws, uint32_t s,
		      const struct twz_shortcuts *sc)
{
	struct visit k = { .ws = ws, .s = s, .sc = sc };

	return run(&k, MODE_LOCAL, visit_local);
}

int twz_tsearch_flags(struct twz_tsearch *ws, uint32_t s, const uint8_t *flag,
		      uint32_t want)
{
	struct visit k = { .ws = ws, .s = s, .want = want, .flag = flag };

	return run(&k, MODE_FLAGS, visit_flags);
}

int twz_tsearch_targets(struct twz_tsearch *ws, uint32_t s,
			const uint32_t *index, uint32_t min, uint32_t want)
{
	struct visit k = { .ws = ws, .s = s, .want = want, .index = index,
			   .min = min };

	return run(&k, MODE_TARGETS, visit_targets);
}

int twz_tsearch_select(struct twz_tsearch *ws, uint32_t u)
{
	const struct twz_graph *tg = ws->tg;
	uint32_t bx = tg->node_bx[u], by = tg->node_by[u];
	struct visit k = { .ws = ws, .s = u };

	if (run(&k, MODE_SELECT, visit_select) != 0)
		return -1;
	/* Backwards over the settling order: a node is marked when it is an
	 * end itself or a tight move leads to a marked node. Successors on a
	 * shortest path are settled later, so they are decided first. */
	for (uint32_t i = ws->order_len; i-- > 0;) {
		uint32_t v = ws->order[i];
		ws->mark[v] = 0;
		if (!near(tg, v, bx, by)) {
			ws->mark[v] = 1;
			continue;
		}
		const uint32_t *nb = tg->neighbour + (size_t)v * TWZ_MOVE_COUNT;
		for (unsigned mask = ws->legal[v]; mask; mask &= mask - 1) {
			unsigned m = (unsigned)__builtin_ctz(mask);
			uint32_t w = nb[m];
			if (!(ws->state[w] & SETTLED) || !ws->mark[w])
				continue;
			if (ws->key[v] + move_key(m) == ws->key[w] &&
			    ws->tie[v] + tie_of(tg->node_cell[v], tg->node_cell[w]) ==
				    ws->tie[w]) {
				ws->mark[v] = 1;
				break;
			}
		}
	}
	return 0;
}
