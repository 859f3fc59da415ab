/*
 * search.h - what every search of the bake is built on: Dijkstra over a
 * ring of half-unit buckets with exact costs. A cost straight + diagonal
 * * sqrt(2) goes to bucket 2 * straight + floor(2 * sqrt(2) * diagonal),
 * floor(2 * cost) exactly in integers (a table of the second term). Every
 * move costs at least 1, two buckets, so a node's optimal predecessors
 * all sit in lower buckets: draining the buckets in order settles each
 * node after all of them, and equal costs are found exactly.
 * twz_search_loop below is the one loop: first_moves.c (CPD, canonical
 * expansion) and search_transit.c (the bounded TRANSIT searches) give it
 * what a node's visit does.
 */
#ifndef SEARCH_H
#define SEARCH_H

#include <stdint.h>
#include <stdlib.h>

#include "graph.h"

/* floor(2 * sqrt(2) * d) for d in [0, count): a malloc'd table, NULL
 * when out of memory. */
uint32_t *twz_half_sqrt8_table(size_t count);

/* How an offer of dw diagonal moves in bucket b compares with a node in
 * the same bucket with dn diagonal moves: the part of relaxing a move
 * both searches share (a lower bucket always wins, a higher one always
 * loses). In one bucket, straight = (b - h[diagonal]) / 2, so equal
 * diagonal counts are equal costs. h is the table of
 * twz_half_sqrt8_table. */
enum twz_offer {
	TWZ_OFFER_WORSE,   /* keep the node as it is */
	TWZ_OFFER_EQUAL,   /* the same cost: merge the first moves */
	TWZ_OFFER_BETTER,  /* a lower cost: replace them */
};

static inline __attribute__((always_inline)) enum twz_offer
twz_offer(const uint32_t *h, uint32_t b, uint32_t dw, uint32_t dn)
{
	if (dw == dn)
		return TWZ_OFFER_EQUAL;
	struct twz_cost a = { (b - h[dw]) / 2, dw };
	struct twz_cost c = { (b - h[dn]) / 2, dn };
	return twz_cost_less(a, c) ? TWZ_OFFER_BETTER : TWZ_OFFER_WORSE;
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

/*
 * The one search loop: drain the buckets in order from bucket b, handing
 * every entry v to visit(ctx, v, b). visit skips a stale entry (its node
 * since dropped to a lower bucket, or settled), or settles v and relaxes
 * its moves, pushing only into later buckets within the ring: so a
 * bucket's length is fixed while it is drained. visit returns 0 to go
 * on, 1 to stop here (entries are left behind), -1 on error; the loop
 * returns the same, 0 once every bucket is empty.
 *
 * With fixed != 0 the ring has that many buckets, bucket b holds the
 * first entries, and the loop ends when all are empty; otherwise *queued counts the entries (pushes add one,
 * the loop takes one per entry handed out) and the loop ends at 0.
 * Bucket numbers fit 32 bits: a shortest path has fewer moves than the
 * level has cells (TWZ_MAX_CELLS, 2^26), each at most 3 half units.
 * visit and fixed are constants at each call, so each caller compiles
 * to its own specialised copy with visit inlined.
 */
static inline __attribute__((always_inline)) int
twz_search_loop(struct twz_ring *ring, uint32_t b, uint64_t *queued,
		const uint32_t fixed, void *ctx,
		int (*visit)(void *ctx, uint32_t v, uint32_t b))
{
	for (;; b++) {
		if (!fixed && !*queued)
			return 0;
		uint32_t r = (uint32_t)(b & ((fixed ? fixed : ring->size) - 1));
		uint32_t len = ring->len[r];
		const uint32_t *items = ring->bucket[r];
		for (uint32_t i = 0; i < len; i++) {
			if (!fixed)
				(*queued)--;  /* counts what a stop leaves */
			int e = visit(ctx, items[i], b);
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
