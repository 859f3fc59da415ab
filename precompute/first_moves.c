/*
 * first_moves.c - the per-source first-move search (see first_moves.h).
 */
#include "first_moves.h"

#include <stdlib.h>
#include <string.h>

#define RING 4  /* a move spans at most 3 half-unit buckets (2*sqrt 2) */

int twz_search_init(struct twz_search *ws, const struct twz_graph *graph)
{
	size_t n = graph->node_count ? graph->node_count : 1;

	memset(ws, 0, sizeof *ws);
	ws->graph = graph;
	ws->cost = malloc(n * sizeof *ws->cost);
	ws->moves = malloc(n);
	ws->settled = malloc(n);
	for (int i = 0; i < RING; i++) {
		ws->bucket_cap[i] = 1024;
		ws->bucket[i] = malloc(ws->bucket_cap[i] * sizeof(uint32_t));
		if (!ws->bucket[i])
			goto fail;
	}
	if (!ws->cost || !ws->moves || !ws->settled)
		goto fail;
	return 0;
fail:
	twz_search_free(ws);
	return -1;
}

void twz_search_free(struct twz_search *ws)
{
	free(ws->cost);
	free(ws->moves);
	free(ws->settled);
	for (int i = 0; i < RING; i++)
		free(ws->bucket[i]);
	memset(ws, 0, sizeof *ws);
}

static inline uint64_t bucket_of(struct twz_cost c)
{
	return (uint64_t)(2.0 * twz_cost_value(c));
}

static int push(struct twz_search *ws, uint64_t bucket, uint32_t node)
{
	unsigned r = (unsigned)(bucket % RING);
	if (ws->bucket_len[r] == ws->bucket_cap[r]) {
		uint32_t ncap = ws->bucket_cap[r] * 2;
		uint32_t *nb = realloc(ws->bucket[r], (size_t)ncap * sizeof *nb);
		if (!nb)
			return -1;
		ws->bucket[r] = nb;
		ws->bucket_cap[r] = ncap;
	}
	ws->bucket[r][ws->bucket_len[r]++] = node;
	return 0;
}

int twz_search_run(struct twz_search *ws, uint32_t source)
{
	const struct twz_graph *gr = ws->graph;
	uint32_t comp = gr->node_comp[source];
	uint32_t lo = gr->comp_first[comp], hi = gr->comp_first[comp + 1];
	const struct twz_cost unset = { UINT32_MAX, UINT32_MAX };
	unsigned pending = 1;

	/* Only the source's region can be reached. */
	for (uint32_t v = lo; v < hi; v++)
		ws->cost[v] = unset;
	memset(ws->settled + lo, 0, hi - lo);
	for (int i = 0; i < RING; i++)
		ws->bucket_len[i] = 0;
	ws->cost[source] = (struct twz_cost){ 0, 0 };
	ws->moves[source] = 0;
	if (push(ws, 0, source) != 0)
		return -1;

	for (uint64_t b = 0; pending; b++) {
		unsigned r = (unsigned)(b % RING);
		/* New entries always land in later buckets: the length of
		 * this one is fixed while it is drained. */
		uint32_t len = ws->bucket_len[r];
		for (uint32_t i = 0; i < len; i++) {
			uint32_t v = ws->bucket[r][i];
			if (ws->settled[v] || bucket_of(ws->cost[v]) != b)
				continue;  /* stale entry */
			ws->settled[v] = 1;
			struct twz_cost cv = ws->cost[v];
			const uint32_t *nb = gr->neighbour + (size_t)v * TWZ_MOVE_COUNT;
			for (unsigned m = 0; m < gr->connectivity; m++) {
				uint32_t w = nb[m];
				if (w == TWZ_NODE_NONE || ws->settled[w])
					continue;
				struct twz_cost cw = cv;
				if (twz_move_is_diagonal(m))
					cw.diagonal++;
				else
					cw.straight++;
				uint8_t fm = v == source ? (uint8_t)(1u << m) : ws->moves[v];
				struct twz_cost old = ws->cost[w];
				if (old.straight == cw.straight && old.diagonal == cw.diagonal) {
					ws->moves[w] |= fm;
				} else if (old.straight == UINT32_MAX || twz_cost_less(cw, old)) {
					ws->cost[w] = cw;
					ws->moves[w] = fm;
					if (push(ws, bucket_of(cw), w) != 0)
						return -1;
				}
			}
		}
		ws->bucket_len[r] = 0;
		pending = 0;
		for (int i = 0; i < RING; i++)
			pending |= ws->bucket_len[i] != 0;
	}
	return 0;
}
