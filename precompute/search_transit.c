/*
 * search_transit.c - the bounded searches of the TRANSIT bake (see
 * search_transit.h): the step of search.h by node, with a settle hook
 * per kind of search.
 */
#include "search_transit.h"

#include <stdlib.h>
#include <string.h>

/* The ring grows to the span of the longest shortcut; a span over this
 * many half units is refused (no shortest path is that long). */
#define RING_MAX (1u << 28)

#define AREA 2u   /* state bit: inside the area of the local searches */

int twz_tsearch_init(struct twz_tsearch *ws, const struct twz_graph *tg)
{
	size_t n = tg->node_count ? tg->node_count : 1;
	/* Every per-node array in one block, the widest entries first. */
	uint8_t *p = malloc(n * (sizeof(struct twz_entry) + 3 * sizeof(uint32_t) + 5));
	struct twz_step *k = &ws->st;

	memset(ws, 0, sizeof *ws);
	ws->tg = tg;
	if (!p)
		return -1;
	k->e = (struct twz_entry *)p;
	uint32_t *forced = (uint32_t *)(k->e + n);
	k->touched = forced + n;
	k->order = k->touched + n;
	k->moves = (uint8_t *)(k->order + n);
	k->state = k->moves + n;
	ws->mark = k->state + n;
	ws->legal = ws->mark + n;
	ws->area_legal = ws->legal + n;
	memset(k->state, 0, n);
	memset(ws->area_legal, 0, n);
	twz_spread_table(ws->spread);
	for (uint32_t v = 0; v < tg->node_count; v++) {
		k->e[v].key = TWZ_KEY_NONE;
		ws->legal[v] = (uint8_t)twz_graph_moves(tg, v);
		forced[v] = twz_forced_moves(tg, v);
	}
	k->forced = forced;
	k->spread = ws->spread;
	k->neighbour = tg->neighbour;
	k->node_cell = tg->node_cell;
	k->ring = &ws->ring;
	return 0;
}

void twz_tsearch_free(struct twz_tsearch *ws)
{
	free(ws->st.e);  /* the block of every per-node array */
	twz_ring_free(&ws->ring);
	memset(ws, 0, sizeof *ws);
}

/* The moves from v into the area. */
static uint8_t moves_into_area(const struct twz_tsearch *ws, uint32_t v)
{
	const uint32_t *nb = ws->tg->neighbour + (size_t)v * TWZ_MOVE_COUNT;
	unsigned mask = 0;

	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		if (nb[m] != TWZ_NODE_NONE && (ws->st.state[nb[m]] & AREA))
			mask |= 1u << m;
	return (uint8_t)mask;
}

/* The moves that stay inside, of each node of the ranges in the area: a
 * local search takes only those. */
static void area_moves(struct twz_tsearch *ws, const uint32_t *range,
		       uint32_t ranges)
{
	for (uint32_t i = 0; i < ranges; i++)
		for (uint32_t v = range[2 * i]; v < range[2 * i + 1]; v++)
			if (ws->st.state[v] & AREA)
				ws->area_legal[v] = moves_into_area(ws, v);
}

void twz_tsearch_area(struct twz_tsearch *ws, const uint32_t *range,
		      uint32_t ranges, int on)
{
	uint8_t *state = ws->st.state;

	for (uint32_t i = 0; i < ranges; i++)
		for (uint32_t v = range[2 * i]; v < range[2 * i + 1]; v++)
			state[v] = (uint8_t)(on ? state[v] | AREA : state[v] & ~AREA);
	if (on)
		area_moves(ws, range, ranges);
}

void twz_tsearch_area_rect(struct twz_tsearch *ws, const uint32_t *range,
			   uint32_t ranges, const struct twz_rect *r)
{
	const struct twz_graph *tg = ws->tg;

	for (uint32_t i = 0; i < ranges; i++)
		for (uint32_t v = range[2 * i]; v < range[2 * i + 1]; v++)
			if (tg->node_x[v] >= r->x0 && tg->node_x[v] <= r->x1 &&
			    tg->node_y[v] >= r->y0 && tg->node_y[v] <= r->y1)
				ws->st.state[v] |= AREA;
	area_moves(ws, range, ranges);
}

/* Empty buckets, at least enough for moves spanning `span` half units;
 * the previous search's nodes back to untouched. */
static int reset(struct twz_tsearch *ws, uint64_t span)
{
	struct twz_step *k = &ws->st;
	uint32_t ring = 4;  /* a move goes 2 or 3 half units up */

	while (ring < span + 4 && ring < RING_MAX)
		ring *= 2;
	if (ring < span + 4)
		return -1;
	if (twz_ring_reserve(&ws->ring, ring) != 0)
		return -1;
	for (uint32_t i = 0; i < k->touched_len; i++) {
		uint32_t v = k->touched[i];
		k->e[v].key = TWZ_KEY_NONE;
		k->state[v] &= AREA;
	}
	k->touched_len = 0;
	k->order_len = 0;
	/* A search that stopped early left entries behind. */
	if (ws->partial)
		for (uint32_t i = 0; i < ws->ring.alloc; i++)
			ws->ring.len[i] = 0;
	k->queued = 0;
	ws->partial = 1;
	return 0;
}

/* A search's step and the settle hook's parameters; the step first, so
 * the hook finds the rest. */
struct search {
	struct twz_step st;
	const struct twz_graph *tg;
	uint32_t bx, by;            /* the source's block */
	uint32_t want, got;         /* flags, targets */
	const uint8_t *flag;        /* flags */
	const uint32_t *index;      /* targets */
	uint32_t min;
	int around;                 /* bx, by set by the caller */
};

/* Whether v's block is within tg->outer blocks of block (bx, by). */
static inline int near(const struct twz_graph *tg, uint32_t v,
		       uint32_t bx, uint32_t by)
{
	uint32_t dx = tg->node_bx[v] > bx ? tg->node_bx[v] - bx : bx - tg->node_bx[v];
	uint32_t dy = tg->node_by[v] > by ? tg->node_by[v] - by : by - tg->node_by[v];

	return dx <= tg->outer && dy <= tg->outer;
}

/* Stop once `want` flagged nodes are settled. */
static inline int settle_flags(struct twz_step *st, uint32_t v)
{
	struct search *k = (struct search *)st;

	return k->flag[v] && ++k->got == k->want ? TWZ_SETTLE_STOP
						 : TWZ_SETTLE_EXPAND;
}

/* Stop once `want` targets are settled. */
static inline int settle_targets(struct twz_step *st, uint32_t v)
{
	struct search *k = (struct search *)st;

	return k->index[v] != TWZ_NODE_NONE && k->index[v] >= k->min &&
	       ++k->got == k->want ? TWZ_SETTLE_STOP : TWZ_SETTLE_EXPAND;
}

/* A node outside the outer square of the source's block: an end. */
static inline int settle_select(struct twz_step *st, uint32_t v)
{
	struct search *k = (struct search *)st;

	return near(k->tg, v, k->bx, k->by) ? TWZ_SETTLE_EXPAND : TWZ_SETTLE_END;
}

/* The kinds of search, each a constant set of step flags. */
#define LOCAL (TWZ_STEP_BOUNDED | TWZ_STEP_MOVES | TWZ_STEP_SHORTCUTS)
#define COSTS TWZ_STEP_BOUNDED
#define SELECT (TWZ_STEP_BOUNDED | TWZ_STEP_LEX)
#define E8 TWZ_STEP_EIGHT

/* Search from s with the step flags f, the moves legal, the shortcuts
 * sc and the hook settle on a copy of ws's step; what it touched and
 * settled goes back. */
static inline __attribute__((always_inline)) int
run(struct twz_tsearch *ws, struct search *k, uint32_t s,
    const uint8_t *legal, const struct twz_shortcuts *sc, const unsigned f,
    int (*settle)(struct twz_step *st, uint32_t v))
{
	const struct twz_graph *tg = ws->tg;

	if (reset(ws, sc ? sc->span : 0) != 0)
		return -1;
	k->st = ws->st;
	k->st.legal = legal;
	k->st.sc = sc;
	k->tg = tg;
	if (!k->around) {
		k->bx = tg->node_bx[s];
		k->by = tg->node_by[s];
	}
	k->got = 0;
	/* The ring is longer than any move or shortcut: new entries land
	 * in later buckets. */
	int e = twz_step_seed(&k->st, s, f, settle);
	if (e == 0)
		e = twz_search_loop(&k->st, 2, f, 0, settle);
	ws->st.touched_len = k->st.touched_len;
	ws->st.order_len = k->st.order_len;
	if (e < 0)
		return -1;
	if (e == 0)
		ws->partial = 0;  /* every bucket drained */
	return 0;
}

int twz_tsearch_local(struct twz_tsearch *ws, uint32_t s,
		      const struct twz_shortcuts *sc)
{
	struct search k = { .want = 0 };

	if (ws->tg->connectivity == 8)
		return run(ws, &k, s, ws->area_legal, sc, LOCAL | E8, NULL);
	return run(ws, &k, s, ws->area_legal, sc, LOCAL, NULL);
}

int twz_tsearch_flags(struct twz_tsearch *ws, uint32_t s, const uint8_t *flag,
		      uint32_t want)
{
	struct search k = { .want = want, .flag = flag };

	if (want == 0)
		return reset(ws, 0);  /* nothing settled */
	if (ws->tg->connectivity == 8)
		return run(ws, &k, s, ws->legal, NULL, COSTS | E8, settle_flags);
	return run(ws, &k, s, ws->legal, NULL, COSTS, settle_flags);
}

int twz_tsearch_targets(struct twz_tsearch *ws, uint32_t s,
			const uint32_t *index, uint32_t min, uint32_t want)
{
	struct search k = { .want = want, .index = index, .min = min };

	if (want == 0)
		return reset(ws, 0);  /* nothing settled */
	if (ws->tg->connectivity == 8)
		return run(ws, &k, s, ws->legal, NULL, COSTS | E8,
			   settle_targets);
	return run(ws, &k, s, ws->legal, NULL, COSTS, settle_targets);
}

/* Give a source outside the area its legal moves into it (area_legal
 * of a node outside is not used otherwise); the old mask. */
static uint8_t enter_area(struct twz_tsearch *ws, uint32_t s)
{
	uint8_t keep = ws->area_legal[s];

	/* A source outside: its legal moves that enter the area. */
	if (!(ws->st.state[s] & AREA))
		ws->area_legal[s] = moves_into_area(ws, s);
	return keep;
}

int twz_tsearch_area_lex(struct twz_tsearch *ws, uint32_t s,
			 const uint8_t *flag, uint32_t want)
{
	struct search k = { .want = want, .flag = flag };
	uint8_t keep;
	int rc;

	if (want == 0)
		return reset(ws, 0);  /* nothing settled */
	keep = enter_area(ws, s);
	rc = run(ws, &k, s, ws->area_legal, NULL, SELECT, settle_flags);
	ws->area_legal[s] = keep;
	return rc;
}

/* Whether the move m from v to w is tight on a lexicographically
 * shortest path: w's cost and tie-break are v's plus the move's. */
static int tight(const struct twz_tsearch *ws, uint32_t v, uint32_t w,
		 unsigned m)
{
	const struct twz_entry *ev = &ws->st.e[v], *ew = &ws->st.e[w];

	return ew->key == ev->key + twz_move_key(m) &&
	       ew->tie == ev->tie + twz_tie_of(ws->tg->node_cell[v],
					       ws->tg->node_cell[w]);
}

int twz_tsearch_tight(const struct twz_tsearch *ws, uint32_t v, uint32_t w,
		      unsigned m)
{
	return tight(ws, v, w, m);
}

int twz_tsearch_lex_around(struct twz_tsearch *ws, uint32_t u, uint32_t block)
{
	const struct twz_graph *tg = ws->tg;
	struct search k = { .around = 1 };

	k.bx = block % tg->cols;
	k.by = block / tg->cols;
	return run(ws, &k, u, ws->legal, NULL, SELECT, settle_select);
}

int twz_tsearch_select(struct twz_tsearch *ws, uint32_t u)
{
	const struct twz_graph *tg = ws->tg;
	uint32_t bx = tg->node_bx[u], by = tg->node_by[u];
	struct search k = { .want = 0 };

	if (run(ws, &k, u, ws->legal, NULL, SELECT, settle_select) != 0)
		return -1;
	/* Backwards over the settling order: a node is marked when it is an
	 * end itself or a tight move leads to a marked node. Successors on a
	 * shortest path are settled later, so they are decided first. */
	for (uint32_t i = ws->st.order_len; i-- > 0;) {
		uint32_t v = ws->st.order[i];
		ws->mark[v] = 0;
		if (!near(tg, v, bx, by)) {
			ws->mark[v] = 1;
			continue;
		}
		const uint32_t *nb = tg->neighbour + (size_t)v * TWZ_MOVE_COUNT;
		for (unsigned mask = ws->legal[v]; mask; mask &= mask - 1) {
			unsigned m = (unsigned)__builtin_ctz(mask);
			uint32_t w = nb[m];
			if (!twz_tsearch_settled(ws, w) || !ws->mark[w])
				continue;
			if (tight(ws, v, w, m)) {
				ws->mark[v] = 1;
				break;
			}
		}
	}
	return 0;
}
