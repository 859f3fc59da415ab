/*
 * search.c - the bucket ring and the cost table every search of the bake
 * uses (see search.h).
 */
#include "search.h"

#include <math.h>
#include <string.h>

/* floor(sqrt(v)) exactly, for v < 2^62. */
static uint64_t isqrt(uint64_t v)
{
	uint64_t r = (uint64_t)sqrt((double)v);

	while (r * r > v)
		r--;
	while ((r + 1) * (r + 1) <= v)
		r++;
	return r;
}

uint32_t *twz_half_sqrt8_table(size_t count)
{
	uint32_t *h = malloc((count ? count : 1) * sizeof *h);

	if (!h)
		return NULL;
	for (size_t d = 0; d < count; d++)
		h[d] = (uint32_t)isqrt(8 * (uint64_t)d * d);
	return h;
}

int twz_ring_reserve(struct twz_ring *r, uint32_t size)
{
	if (size > r->alloc) {
		uint32_t **b = realloc(r->bucket, size * sizeof *b);
		if (!b)
			return -1;
		r->bucket = b;
		uint32_t *l = realloc(r->len, size * sizeof *l);
		if (!l)
			return -1;
		r->len = l;
		uint32_t *c = realloc(r->cap, size * sizeof *c);
		if (!c)
			return -1;
		r->cap = c;
		for (uint32_t i = r->alloc; i < size; i++) {
			r->bucket[i] = NULL;
			r->len[i] = 0;
			r->cap[i] = 0;
		}
		r->alloc = size;
	}
	r->size = size;
	return 0;
}

void twz_ring_free(struct twz_ring *r)
{
	for (uint32_t i = 0; i < r->alloc; i++)
		free(r->bucket[i]);
	free(r->bucket);
	free(r->len);
	free(r->cap);
	memset(r, 0, sizeof *r);
}

int twz_ring_grow(struct twz_ring *r, uint32_t i)
{
	uint32_t ncap = r->cap[i] ? r->cap[i] * 2 : 256;
	uint32_t *nb = realloc(r->bucket[i], (size_t)ncap * sizeof *nb);

	if (!nb)
		return -1;
	r->bucket[i] = nb;
	r->cap[i] = ncap;
	return 0;
}
