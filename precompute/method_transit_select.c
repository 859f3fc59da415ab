/*
 * method_transit_select.c - the transit nodes of one block.
 *
 * Why these nodes suffice (the claim the queries rest on). Let C be a
 * block, I its inner box, O its outer square (transit.h), x a node of C
 * and y a node outside O, and P a lexicographically shortest x-y path
 * (exact cost first, then the fixed tie-break of search_transit.c; every
 * such path is a shortest path, and every part of one is again one).
 * Let u be the last node of P in C: its successor lies outside C, so u has
 * a neighbour outside C. Let w be the first node after u outside O: the
 * part P[u..w] runs inside O up to w, so it is also lexicographically
 * shortest among the paths that stay in O until their last node, which is
 * the graph the selection search from u explores. I lies inside O, so
 * P[u..w] leaves I first, and a king's move cannot jump the border lines
 * of I: P[u..w] holds a node a on I's ring, which the backward marking
 * finds. So every such P passes through a transit node of C, and the
 * search from each such u, keeping the ring nodes it marks, finds them all.
 */
#include "method_transit_select.h"

#include <stdlib.h>
#include <string.h>

static int has_outside_neighbour(const struct twz_graph *tg, uint32_t v)
{
	const uint32_t *nb = tg->neighbour + (size_t)v * TWZ_MOVE_COUNT;
	uint32_t b = tg->node_block[v];

	for (unsigned m = 0; m < tg->connectivity; m++)
		if (nb[m] != TWZ_NODE_NONE && tg->node_block[nb[m]] != b)
			return 1;
	return 0;
}

void twz_transit_block_rects(const struct twz_graph *tg, uint32_t block,
			     struct twz_rect *ring, struct twz_rect *outer)
{
	int64_t bx = twz_block_x(tg, block), by = twz_block_y(tg, block);
	int64_t side = tg->side;

	ring->x0 = tg->origin_x + (bx - tg->inner) * side;
	ring->y0 = tg->origin_y + (by - tg->inner) * side;
	ring->x1 = tg->origin_x + (bx + 1 + tg->inner) * side;
	ring->y1 = tg->origin_y + (by + 1 + tg->inner) * side;
	outer->x0 = tg->origin_x + (bx - tg->outer) * side;
	outer->y0 = tg->origin_y + (by - tg->outer) * side;
	outer->x1 = tg->origin_x + (bx + 1 + tg->outer) * side - 1;
	outer->y1 = tg->origin_y + (by + 1 + tg->outer) * side - 1;
}

static int on_ring(const struct twz_graph *tg, uint32_t v,
		   const struct twz_rect *r)
{
	int64_t x = tg->node_cell[v] % tg->width, y = tg->node_cell[v] / tg->width;

	if (x < r->x0 || x > r->x1 || y < r->y0 || y > r->y1)
		return 0;
	return x == r->x0 || x == r->x1 || y == r->y0 || y == r->y1;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

int twz_transit_select_block(struct twz_tsearch *ws, uint32_t block,
			     uint8_t *seen, uint32_t **list, uint32_t *len)
{
	const struct twz_graph *tg = ws->tg;
	struct twz_rect ring, outer;
	uint32_t *out = NULL, n = 0, cap = 0;

	*list = NULL;
	*len = 0;
	twz_transit_block_rects(tg, block, &ring, &outer);
	for (uint32_t u = tg->block_first[block]; u < tg->block_first[block + 1];
	     u++) {
		if (!has_outside_neighbour(tg, u))
			continue;
		if (twz_tsearch_select(ws, u) != 0)
			goto fail;
		for (uint32_t i = 0; i < ws->st.order_len; i++) {
			uint32_t v = ws->st.order[i];
			if (!ws->mark[v] || seen[v] || !on_ring(tg, v, &ring))
				continue;
			if (n == cap) {
				uint32_t ncap = cap ? 2 * cap : 64;
				uint32_t *nv = realloc(out, ncap * sizeof *nv);
				if (!nv)
					goto fail;
				out = nv;
				cap = ncap;
			}
			seen[v] = 1;
			out[n++] = v;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		seen[out[i]] = 0;
	if (n)  /* qsort wants a buffer even for none */
		qsort(out, n, sizeof *out, cmp_u32);
	*list = out;
	*len = n;
	return 0;
fail:
	for (uint32_t i = 0; i < n; i++)
		seen[out[i]] = 0;
	free(out);
	return -1;
}
