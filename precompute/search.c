/*
 * search.c - the tables every search of the bake uses (the canonical
 * expansion's forced moves and byte masks) and the bucket ring (see
 * search.h).
 */
#include "search.h"

#include <string.h>

void twz_spread_table(uint64_t spread[256])
{
	for (unsigned i = 0; i < 256; i++) {
		uint64_t s = 0;
		for (unsigned m = 0; m < 8; m++)
			if (i >> m & 1)
				s |= (uint64_t)0xFF << (8 * m);
		spread[i] = s;
	}
}

static int walkable(const struct twz_graph *gr, int64_t x, int64_t y)
{
	return x >= 0 && y >= 0 && x < gr->width && y < gr->height &&
	       gr->cell_node[(size_t)y * gr->width + (size_t)x] != TWZ_NODE_NONE;
}

/* The move (dx, dy), or TWZ_MOVE_COUNT when there is none. */
static unsigned move_of(int dx, int dy)
{
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		if (twz_move_dx[m] == dx && twz_move_dy[m] == dy)
			return m;
	return TWZ_MOVE_COUNT;
}

uint32_t twz_forced_moves(const struct twz_graph *gr, uint32_t v)
{
	int64_t x = gr->node_cell[v] % gr->width, y = gr->node_cell[v] / gr->width;
	uint32_t f = 0;

	for (unsigned d = 0; d < 4; d++) {
		int dx = twz_move_dx[d], dy = twz_move_dy[d];
		if (gr->connectivity == 4 && dy == 0)
			continue;  /* horizontal: N and S follow anyway */
		unsigned sides[2] = { (d + 1) % 4, (d + 3) % 4 };
		for (int i = 0; i < 2; i++) {
			unsigned q = sides[i];
			int qx = twz_move_dx[q], qy = twz_move_dy[q];
			if (walkable(gr, x - dx + qx, y - dy + qy))
				continue;
			unsigned extra = 1u << q;
			if (gr->connectivity == 8)
				extra |= 1u << move_of(dx + qx, dy + qy);
			f |= extra << (8 * d);
		}
	}
	return f & twz_graph_moves(gr, v) * 0x01010101u;
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
