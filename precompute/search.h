/*
 * search.h - what every search of the bake is built on: Dijkstra over a
 * ring of half-unit buckets with exact costs. A cost straight + diagonal
 * * sqrt(2) goes to bucket 2 * straight + floor(2 * sqrt(2) * diagonal),
 * floor(2 * cost) exactly in integers (a table of the second term). Every
 * move costs at least 1, two buckets, so a node's optimal predecessors
 * all sit in lower buckets: draining the buckets in order settles each
 * node after all of them, and equal costs are found exactly.
 * first_moves.c (CPD, canonical expansion) and search_transit.c (the
 * bounded TRANSIT searches) run their loops over these.
 */
#ifndef SEARCH_H
#define SEARCH_H

#include <stdint.h>
#include <stdlib.h>

/* floor(2 * sqrt(2) * d) for d in [0, count): a malloc'd table, NULL
 * when out of memory. */
uint32_t *twz_half_sqrt8_table(size_t count);

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

#endif
