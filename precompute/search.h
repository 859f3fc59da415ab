/*
 * search.h - the one search of the bake: Dijkstra with exact costs, and
 * the one step that settles an entry and relaxes its arcs, for every
 * graph of graph.h. The first-move searches of every level kind
 * (first_moves.c) and TRANSIT's bounded searches (search_transit.c) all
 * run it; constant flags say what each search needs, and each caller
 * compiles to its own specialised copy.
 *
 * Costs are the exact integer keys of graph.h, and a node's payload is
 * what its optimal paths carry: the set of their first moves (merged by
 * union on equal costs), or one value (merged by minimum). A node
 * settles after all its optimal predecessors (arcs cost more than 0), so
 * its payload is whole when it passes it on, and first-move sets are
 * complete and hold only optimal moves.
 *
 * Two queues. A graph with flat arcs (TWZ_STEP_ARCS) keeps its entries
 * in the heap of twz_heap.h by key. A grid keeps them in a ring of
 * buckets: a key goes to bucket key / TWZ_KEY_HALF, half a straight move
 * wide; every move costs at least a straight one, two buckets, so a
 * node's optimal predecessors all sit in lower buckets and draining the
 * buckets in order settles each node after all of them, at a few
 * instructions an entry.
 *
 * Canonical expansion (as in jump point search). Moves are numbered N E
 * S W, then NE SE SW NW (see twz_format.h). An entry x entered from p by
 * move d keeps the first moves that arrived that way in byte d of its
 * sets, and passes that byte on only along these moves (each also legal
 * from x):
 *   - after a diagonal, the same diagonal and its two straight parts
 *     (after NE: NE, N, E);
 *   - after a straight move, the same move, and also, for each side whose
 *     cell beside p (p + side) is blocked, the move to that side and the
 *     diagonal forward to it (after E with p + N blocked: N and NE).
 * On a 4-connected grid horizontal moves play the diagonals' part: after
 * E or W the same move, N and S; after N or S the same move, and E (W)
 * when p + E (p + W) is blocked. The source's neighbours, and an entry
 * reached by a shortcut, pass their sets on along every legal move (the
 * sets are copied into every byte).
 *
 * Why the sets stay complete: take a target t and an optimal first move
 * f, and among the optimal paths from the source that start with f
 * (they all have the same numbers of straight and diagonal moves) the
 * one whose moves after the first are diagonal (8-connected; horizontal,
 * 4-connected) earliest, compared as strings (a shortcut is a symbol of
 * its own). In it, no move that follows a move breaks the rules above:
 * a move the rules drop is either never on an optimal path (going back,
 * turning by more than 45 degrees, a straight move then a perpendicular
 * one where the diagonal past the free cell beside p is shorter), or is
 * a diagonal after a straight move (vertical after horizontal,
 * 4-connected) with the cell beside p free, and then the two moves
 * swapped give a legal path of the same cost that is diagonal earlier.
 * Every cell those alternatives use lies in the bounding box of the
 * moves they replace, so the argument holds as well in a rectangle of
 * the grid (TRANSIT's area: moves out of it are not taken, and a forced
 * move towards a side cell outside it leaves it). Sets are passed on only
 * along moves that keep the cost optimal, so they hold only optimal
 * moves.
 */
#ifndef SEARCH_H
#define SEARCH_H

#include <stdint.h>
#include <stdlib.h>

#include "graph.h"

#define TWZ_BYTES_01 0x0101010101010101ull
#define TWZ_KEY_HALF (TWZ_KEY_STRAIGHT / 2)  /* a bucket's width in keys */

/* spread[i]: byte m all ones for every bit m of i. */
void twz_spread_table(uint64_t spread[256]);

/* The forced moves of the cell of graph node v (see the top): byte d
 * (d a straight move), the moves beyond the usual ones that may follow d
 * into it, limited to its legal moves. */
uint32_t twz_forced_moves(const struct twz_graph *gr, uint32_t v);

/* The bucket of a key. */
static inline uint32_t twz_key_bucket(uint64_t key)
{
	return (uint32_t)(key / TWZ_KEY_HALF);
}

/* A ring of buckets of node or cell ids; bucket b lives in b & (size - 1). */
struct twz_ring {
	uint32_t size;        /* buckets in use, a power of two */
	uint32_t alloc;       /* buckets allocated */
	uint32_t **bucket;
	uint32_t *len;
	uint32_t *cap;
};

/* Use size buckets (a power of two), allocating what is missing; new
 * buckets are empty, the others keep their entries. 0, or -1 out of
 * memory. */
int twz_ring_reserve(struct twz_ring *r, uint32_t size);
void twz_ring_free(struct twz_ring *r);
int twz_ring_grow(struct twz_ring *r, uint32_t i);

/* Append v to the bucket in slot i (bucket & (size - 1): a caller with
 * a constant size says so for speed). 0, or -1 out of memory. */
static inline int twz_ring_push(struct twz_ring *r, uint32_t i, uint32_t v)
{
	if (r->len[i] == r->cap[i] && twz_ring_grow(r, i) != 0)
		return -1;
	r->bucket[i][r->len[i]++] = v;
	return 0;
}

/* ---- the step -------------------------------------------------------- */

/* What a search knows of an entry (a grid's cell or a node): its cost
 * and what its paths carry. */
struct twz_entry {
	uint64_t key;               /* TWZ_KEY_NONE until reached */
	union {
		uint64_t sets;      /* byte d: first moves of the paths
				     * entering by move d */
		uint64_t tie;       /* TWZ_STEP_LEX: the tie-break sum */
	};
};

/*
 * Shortcuts: from the node found through pos[node] == i to the nodes
 * to[k], at the cost keys key[k], for k in [first[i], first[i + 1]).
 */
struct twz_shortcuts {
	const uint32_t *pos;        /* [node_count]: index, or NONE */
	const uint32_t *first;      /* [indices + 1]: into to and key */
	const uint32_t *to;
	const uint64_t *key;
	uint64_t span;              /* the largest cost, in buckets, + 1 */
};

/* What a search needs; the flags say which fields it uses. They are
 * constants at every call, so a flag off costs nothing. */
enum twz_step_flag {
	TWZ_STEP_EIGHT = 1u,     /* 8-connected: the octile rules */
	TWZ_STEP_CELLS = 2u,     /* entries by cell, moves by index offset;
				  * else by node, moves from neighbour[] */
	TWZ_STEP_LEX = 4u,       /* every legal move, the payload a tie-break
				  * (lowest wins); else canonical, first-move
				  * sets */
	TWZ_STEP_BOUNDED = 8u,   /* reset only what it touched: lists touched
				  * and settled entries, state bits, a ring
				  * sized to the shortcuts, early stops */
	TWZ_STEP_MOVES = 16u,    /* fold a settled entry's sets into moves[] */
	TWZ_STEP_SHORTCUTS = 32u, /* relax sc's shortcuts (sc may be NULL) */
	TWZ_STEP_ARCS = 64u,     /* a graph's flat arcs, every one, entries by
				  * node in the heap; the payload the first
				  * arc of the paths: its move (arc_move) or
				  * its index, a bit each */
	TWZ_STEP_MIN = 128u,     /* ARCS: the payload the lowest index of a
				  * first arc (sources of many arcs) */
};

#define TWZ_STEP_RING 4      /* an unbounded search's ring: a move goes 2 or
			      * 3 half-units up, buckets i+2, i+3 */
#define TWZ_STEP_SETTLED 1u  /* state bit: settled by the last search */

/* What a settle hook answers. */
enum twz_settle {
	TWZ_SETTLE_EXPAND,  /* relax its moves */
	TWZ_SETTLE_STOP,    /* stop the search here */
	TWZ_SETTLE_END,     /* settled, not expanded */
};

struct twz_step {
	struct twz_entry *e;
	const uint8_t *legal;       /* moves the search may take, a bit each */
	const uint32_t *forced;     /* canonical: twz_forced_moves */
	const uint64_t *spread;     /* canonical: twz_spread_table */
	const int32_t *offset;      /* CELLS: index delta per move */
	const uint32_t *neighbour;  /* else: [node * 8 + move] */
	const uint32_t *node_cell;  /* LEX: tie-breaks are by cell */
	struct twz_ring *ring;      /* else ARCS */
	/* ARCS: graph.h's flat arcs, and the heap */
	const uint32_t *arc_first;
	const uint32_t *arc_head;
	const uint64_t *arc_cost;
	const uint8_t *arc_move;    /* NULL: first arcs by index */
	struct twz_dist_item *heap; /* [arcs + 1] */
	size_t heap_len;
	/* BOUNDED */
	uint64_t queued;            /* entries in all buckets */
	uint8_t *state;             /* TWZ_STEP_SETTLED; other bits the
				       caller's */
	uint32_t *touched;          /* entries not TWZ_KEY_NONE */
	uint32_t touched_len;
	uint32_t *order;            /* settled entries, in settling order */
	uint32_t order_len;
	uint8_t *moves;             /* MOVES */
	const struct twz_shortcuts *sc;  /* SHORTCUTS */
};

/* Bit k set when byte k of v is non-zero. */
static inline unsigned twz_nonzero_bytes(uint64_t v)
{
	v |= v >> 4;
	v |= v >> 2;
	v |= v >> 1;
	v &= TWZ_BYTES_01;
	/* Byte k's bit lands on bit 56 + k; no two products overlap. */
	return (unsigned)((v * 0x0102040810204080ull) >> 56);
}

/* The union of the bytes of a set. */
static inline uint8_t twz_sets_fold(uint64_t s)
{
	s |= s >> 32;
	s |= s >> 16;
	s |= s >> 8;
	return (uint8_t)s;
}

/* The tie-break of the move between cells a and b: the same both ways
 * and for every run, so lexicographically shortest paths are one fixed
 * choice among the equally short ones. */
static inline uint64_t twz_tie_of(uint32_t a, uint32_t b)
{
	uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
	uint64_t h = (lo << 32 | hi) * 0x9E3779B97F4A7C15ull;

	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 32;
	return h & 0xFFFFF;  /* 20 bits: sums over any path fit 64 bits */
}

/* Offer w the cost kw and the payload pw. Settled entries sit in lower
 * buckets than any offer: never replaced, never equal. */
static inline __attribute__((always_inline)) int
twz_step_relax(struct twz_step *k, uint32_t w, uint64_t kw, uint64_t pw,
	       const unsigned f)
{
	struct twz_entry *ew = &k->e[w];
	uint64_t ko = ew->key;

	if (kw < ko) {
		ew->key = kw;
		ew->sets = pw;
		if (f & TWZ_STEP_ARCS) {
			struct twz_dist_item it = { kw, w };
			twz_heap_push(k->heap, &k->heap_len, &it, sizeof it,
				      twz_dist_before, NULL, NULL);
			return 0;
		}
		uint32_t bw = twz_key_bucket(kw);
		if (ko != TWZ_KEY_NONE && twz_key_bucket(ko) == bw)
			return 0;  /* queued in this bucket already */
		if (f & TWZ_STEP_BOUNDED) {
			if (ko == TWZ_KEY_NONE)
				k->touched[k->touched_len++] = w;
			k->queued++;
			return twz_ring_push(k->ring, bw & (k->ring->size - 1), w);
		}
		return twz_ring_push(k->ring, bw % TWZ_STEP_RING, w);
	}
	if (kw == ko) {
		if (!(f & (TWZ_STEP_LEX | TWZ_STEP_MIN)))
			ew->sets |= pw;
		else if (pw < ew->tie)
			ew->tie = pw;
	}
	return 0;
}

/* Relax the shortcuts out of v (cost kv), carrying the first moves fv
 * on along every move. */
static inline __attribute__((always_inline)) int
twz_step_shortcuts(struct twz_step *k, uint32_t v, uint64_t kv, uint8_t fv,
		   const unsigned f)
{
	const struct twz_shortcuts *sc = k->sc;

	if (!(f & TWZ_STEP_SHORTCUTS) || !sc || sc->pos[v] == TWZ_NODE_NONE)
		return 0;
	uint32_t i = sc->pos[v];
	uint64_t pw = fv * TWZ_BYTES_01;
	for (uint32_t j = sc->first[i]; j < sc->first[i + 1]; j++) {
		uint32_t w = sc->to[j];
		if (w == v)
			continue;
		if (twz_step_relax(k, w, kv + sc->key[j], pw, f) != 0)
			return -1;
	}
	return 0;
}

/* Settle entry v (its bookkeeping, then the hook's word). */
static inline __attribute__((always_inline)) int
twz_step_settle(struct twz_step *k, uint32_t v, uint64_t sets,
		const unsigned f, int (*settle)(struct twz_step *k, uint32_t v))
{
	if (f & TWZ_STEP_BOUNDED) {
		k->state[v] |= TWZ_STEP_SETTLED;
		k->order[k->order_len++] = v;
	}
	if (f & TWZ_STEP_MOVES)
		k->moves[v] = twz_sets_fold(sets);
	return settle ? settle(k, v) : TWZ_SETTLE_EXPAND;
}

static inline __attribute__((always_inline)) uint32_t
twz_step_next(const struct twz_step *k, uint32_t v, unsigned m,
	      const unsigned f)
{
	if (f & TWZ_STEP_CELLS)
		return (uint32_t)((int32_t)v + k->offset[m]);
	return k->neighbour[(size_t)v * TWZ_MOVE_COUNT + m];
}

/*
 * Start a search from s: settle it and relax its moves, each neighbour's
 * sets its move in every byte (so it passes it on along every move).
 * 0, 1 when the hook stopped the search, -1 out of memory.
 */
static inline __attribute__((always_inline)) int
twz_step_seed(struct twz_step *k, uint32_t s, const unsigned f,
	      int (*settle)(struct twz_step *k, uint32_t v))
{
	k->e[s] = (struct twz_entry){ 0, { 0 } };
	if (f & TWZ_STEP_BOUNDED)
		k->touched[k->touched_len++] = s;
	int r = twz_step_settle(k, s, 0, f, settle);
	if (r != TWZ_SETTLE_EXPAND)
		return r == TWZ_SETTLE_STOP;
	if (f & TWZ_STEP_ARCS) {
		uint32_t a0 = k->arc_first[s];
		for (uint32_t a = a0; a < k->arc_first[s + 1]; a++) {
			uint32_t i = a - a0;
			uint64_t pw = f & TWZ_STEP_MIN ? i
				      : k->arc_move ? 1u << k->arc_move[a]
				      : i < 63 ? (uint64_t)1 << i : 0;
			if (twz_step_relax(k, k->arc_head[a], k->arc_cost[a], pw,
					   f) != 0)
				return -1;
		}
		return 0;
	}
	for (unsigned mask = k->legal[s]; mask; mask &= mask - 1) {
		unsigned m = (unsigned)__builtin_ctz(mask);
		uint32_t w = twz_step_next(k, s, m, f);
		uint64_t pw = f & TWZ_STEP_LEX
			? twz_tie_of(k->node_cell[s], k->node_cell[w])
			: (uint64_t)(1u << m) * TWZ_BYTES_01;
		if (twz_step_relax(k, w, twz_move_key(m), pw, f) != 0)
			return -1;
	}
	return twz_step_shortcuts(k, s, 0, 0, f);
}

/*
 * A visit of twz_search_loop: skip a stale entry, or settle v (taken
 * from bucket `at` of the ring, or from the heap at key `at`), ask the
 * hook (may be NULL), and relax its arcs: a grid's moves as the top
 * says, and shortcuts; any other graph's arcs, every one. 0, 1 to stop,
 * -1 out of memory.
 */
static inline __attribute__((always_inline)) int
twz_step_visit(struct twz_step *k, uint32_t v, uint64_t at, const unsigned f,
	       int (*settle)(struct twz_step *k, uint32_t v))
{
	const struct twz_entry *ev = &k->e[v];

	/* An entry is queued again only when its key drops (its bucket, in
	 * the ring), so only the latest is live: a stale one in the heap
	 * has another key, a stale one in the ring a key below its
	 * bucket. */
	if ((f & TWZ_STEP_ARCS) ? ev->key != at : ev->key < at * TWZ_KEY_HALF)
		return 0;
	uint64_t c = ev->sets, out = 0, kv = ev->key;
	int r = twz_step_settle(k, v, c, f, settle);
	if (r != TWZ_SETTLE_EXPAND)
		return r == TWZ_SETTLE_STOP;
	if (f & TWZ_STEP_ARCS) {
		for (uint32_t a = k->arc_first[v]; a < k->arc_first[v + 1]; a++) {
			uint64_t kw = kv + k->arc_cost[a];
			/* A sum past 2^64 is longer than any path. */
			if (kw > kv && twz_step_relax(k, k->arc_head[a], kw, c,
						      f) != 0)
				return -1;
		}
		return 0;
	}
	unsigned nz;
	if (f & TWZ_STEP_LEX) {
		nz = k->legal[v];
	} else {
		const uint64_t *spread = k->spread;
		uint32_t sl = (uint32_t)c;
		if (f & TWZ_STEP_EIGHT) {
			uint32_t sh = (uint32_t)(c >> 32);
			out = (uint64_t)sh << 32 |
			      (sl | sh | (sh << 8 | sh >> 24));
		} else {
			uint32_t ew = (sl >> 8 | sl >> 24) & 0xFF;
			out = sl | ew * 0x00010001u;
		}
		uint32_t fo = k->forced[v];
		if (fo) {
			for (unsigned i = 0; i < 4; i++)
				out |= spread[fo >> (8 * i) & 0xFF] &
				       ((c >> (8 * i) & 0xFF) * TWZ_BYTES_01);
		}
		out &= spread[k->legal[v]];
		nz = twz_nonzero_bytes(out);
		/* No first moves: reached only through shortcuts out of
		 * the source, which carry none; passed on everywhere. */
		if ((f & TWZ_STEP_SHORTCUTS) && !c)
			nz = k->legal[v];
	}
	uint64_t ks = kv + TWZ_KEY_STRAIGHT, kd = kv + TWZ_KEY_DIAGONAL;
	for (; nz; nz &= nz - 1) {
		unsigned m = (unsigned)__builtin_ctz(nz);
		uint32_t w = twz_step_next(k, v, m, f);
		uint64_t kw = m >= 4 ? kd : ks;
		/* Costs no less than kw: spare the tie-break's hash. */
		if ((f & TWZ_STEP_LEX) && k->e[w].key < kw)
			continue;
		uint64_t pw = f & TWZ_STEP_LEX
			? c + twz_tie_of(k->node_cell[v], k->node_cell[w])
			: out & (uint64_t)0xFF << (8 * m);
		if (twz_step_relax(k, w, kw, pw, f) != 0)
			return -1;
	}
	if (f & TWZ_STEP_SHORTCUTS)
		return twz_step_shortcuts(k, v, kv, twz_sets_fold(c), f);
	return 0;
}

/*
 * The one search loop: visit every queued entry v in order
 * (twz_step_visit with the flags f and the hook settle): from the heap
 * (ARCS), or draining the ring's buckets in order from bucket b. A
 * visit skips a stale entry, or settles v and relaxes its arcs, which
 * in the ring push only into later buckets within it: so a bucket's
 * length is fixed while it is drained. A visit says 0 to go on, 1 to
 * stop here (entries are left behind), -1 on error; the loop returns the
 * same, 0 once every entry is visited.
 *
 * With fixed != 0 the ring has that many buckets, bucket b holds the
 * first entries, and the loop ends when all are empty; otherwise
 * k->queued counts the entries (pushes add one, the loop takes one per
 * entry handed out) and the loop ends at 0. Bucket numbers fit 32 bits:
 * a shortest path has fewer moves than the level has nodes
 * (TWZ_MAX_NODES, 2^26), each at most 3 buckets. f, settle and fixed
 * are constants at each call, so each caller compiles to its own
 * specialised copy with the step and the hook inlined.
 */
static inline __attribute__((always_inline)) int
twz_search_loop(struct twz_step *k, uint32_t b, const unsigned f,
		const uint32_t fixed,
		int (*settle)(struct twz_step *k, uint32_t v))
{
	if (f & TWZ_STEP_ARCS) {
		while (k->heap_len) {
			struct twz_dist_item it;
			twz_heap_pop(k->heap, &k->heap_len, &it, sizeof it,
				     twz_dist_before, NULL, NULL);
			int e = twz_step_visit(k, it.v, it.d, f, settle);
			if (e)
				return e;
		}
		return 0;
	}
	struct twz_ring *ring = k->ring;
	for (;; b++) {
		if (!fixed && !k->queued)
			return 0;
		uint32_t r = (uint32_t)(b & ((fixed ? fixed : ring->size) - 1));
		uint32_t len = ring->len[r];
		const uint32_t *items = ring->bucket[r];
		for (uint32_t i = 0; i < len; i++) {
			if (!fixed)
				k->queued--;  /* counts what a stop leaves */
			int e = twz_step_visit(k, items[i], b, f, settle);
			if (e)
				return e;
		}
		ring->len[r] = 0;
		if (fixed) {
			unsigned pending = 0;
			for (uint32_t i = 0; i < fixed; i++)
				pending |= ring->len[i] != 0;
			if (!pending)
				return 0;
		}
	}
}

#endif

