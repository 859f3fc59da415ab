/*
 * first_moves.c - the per-source first-move search (see first_moves.h).
 */
#include "first_moves.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RING 4  /* a move goes 2 or 3 half-units up: buckets i+2, i+3 */
#define UNSET UINT64_MAX

static inline uint64_t pack(struct twz_cost c)
{
	return (uint64_t)c.straight << 32 | c.diagonal;
}

static inline struct twz_cost unpack(uint64_t k)
{
	return (struct twz_cost){ (uint32_t)(k >> 32), (uint32_t)k };
}

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

int twz_search_init(struct twz_search *ws, const struct twz_graph *graph)
{
	size_t n = graph->node_count ? graph->node_count : 1;
	size_t cells = (size_t)graph->width * graph->height;

	memset(ws, 0, sizeof *ws);
	ws->graph = graph;
	ws->cost = malloc(n * sizeof *ws->cost);
	ws->moves = malloc(n);
	ws->key = malloc(cells * sizeof *ws->key);
	ws->cell_moves = malloc(cells);
	ws->settled = calloc(cells, 1);
	ws->legal = calloc(cells, 1);
	ws->half_sqrt8 = malloc((n + 1) * sizeof *ws->half_sqrt8);
	for (int i = 0; i < RING; i++) {
		ws->bucket_cap[i] = 1024;
		ws->bucket[i] = malloc(ws->bucket_cap[i] * sizeof(uint32_t));
		if (!ws->bucket[i])
			goto fail;
	}
	if (!ws->cost || !ws->moves || !ws->key || !ws->cell_moves ||
	    !ws->settled || !ws->legal || !ws->half_sqrt8)
		goto fail;
	/* A path has fewer than n moves, so diagonal counts stay <= n. */
	for (size_t d = 0; d <= n; d++)
		ws->half_sqrt8[d] = (uint32_t)isqrt(8 * (uint64_t)d * d);
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		ws->offset[m] = twz_move_dx[m] + twz_move_dy[m] * (int32_t)graph->width;
	for (uint32_t v = 0; v < graph->node_count; v++) {
		unsigned mask = 0;
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
			if (graph->neighbour[(size_t)v * TWZ_MOVE_COUNT + m] != TWZ_NODE_NONE)
				mask |= 1u << m;
		ws->legal[graph->node_cell[v]] = (uint8_t)mask;
	}
	return 0;
fail:
	twz_search_free(ws);
	return -1;
}

void twz_search_free(struct twz_search *ws)
{
	free(ws->cost);
	free(ws->moves);
	free(ws->key);
	free(ws->cell_moves);
	free(ws->settled);
	free(ws->legal);
	free(ws->half_sqrt8);
	for (int i = 0; i < RING; i++)
		free(ws->bucket[i]);
	memset(ws, 0, sizeof *ws);
}

/* 2 * straight + floor(2 * sqrt(2) * diagonal): floor(2 * cost), exactly. */
static inline uint64_t bucket_of(const struct twz_search *ws, uint64_t key)
{
	return 2 * (key >> 32) + ws->half_sqrt8[(uint32_t)key];
}

static int grow(struct twz_search *ws, unsigned r)
{
	uint32_t ncap = ws->bucket_cap[r] * 2;
	uint32_t *nb = realloc(ws->bucket[r], (size_t)ncap * sizeof *nb);
	if (!nb)
		return -1;
	ws->bucket[r] = nb;
	ws->bucket_cap[r] = ncap;
	return 0;
}

static inline int push(struct twz_search *ws, uint64_t bucket, uint32_t cell)
{
	unsigned r = (unsigned)(bucket % RING);
	if (ws->bucket_len[r] == ws->bucket_cap[r] && grow(ws, r) != 0)
		return -1;
	ws->bucket[r][ws->bucket_len[r]++] = cell;
	return 0;
}

int twz_search_run(struct twz_search *ws, uint32_t source)
{
	const struct twz_graph *gr = ws->graph;
	uint32_t comp = gr->node_comp[source];
	uint32_t lo = gr->comp_first[comp], hi = gr->comp_first[comp + 1];
	uint64_t *key = ws->key;
	uint8_t *cm = ws->cell_moves, *settled = ws->settled;
	const uint8_t *legal = ws->legal;
	uint32_t src = gr->node_cell[source];
	/* Key increments: a straight move adds to the high half. */
	uint64_t step[TWZ_MOVE_COUNT];
	unsigned pending;

	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		step[m] = twz_move_is_diagonal(m) ? 1 : (uint64_t)1 << 32;
	/* Only the source's region can be reached. */
	for (uint32_t v = lo; v < hi; v++) {
		uint32_t c = gr->node_cell[v];
		key[c] = UNSET;
		settled[c] = 0;
	}
	for (int i = 0; i < RING; i++)
		ws->bucket_len[i] = 0;
	/* The source's neighbours first: their first move is the move that
	 * reaches them, which keeps that test out of the main loop. */
	key[src] = 0;
	cm[src] = 0;
	settled[src] = 1;
	for (unsigned mask = legal[src]; mask; mask &= mask - 1) {
		unsigned m = (unsigned)__builtin_ctz(mask);
		uint32_t w = (uint32_t)((int64_t)src + ws->offset[m]);
		key[w] = step[m];
		cm[w] = (uint8_t)(1u << m);
		if (push(ws, bucket_of(ws, step[m]), w) != 0)
			return -1;
	}
	pending = legal[src] != 0;

	for (uint64_t b = 0; pending; b++) {
		unsigned r = (unsigned)(b % RING);
		/* New entries land two or three buckets up: this one's length
		 * is fixed while it is drained. */
		uint32_t len = ws->bucket_len[r];
		const uint32_t *items = ws->bucket[r];
		for (uint32_t i = 0; i < len; i++) {
			uint32_t v = items[i];
			uint64_t kv = key[v];
			if (settled[v] || bucket_of(ws, kv) != b)
				continue;  /* done already, or a stale entry */
			settled[v] = 1;
			uint8_t fm = cm[v];
			for (unsigned mask = legal[v]; mask; mask &= mask - 1) {
				unsigned m = (unsigned)__builtin_ctz(mask);
				uint32_t w = (uint32_t)((int64_t)v + ws->offset[m]);
				uint64_t kw = kv + step[m];
				uint64_t old = key[w];
				if (kw == old) {
					cm[w] |= fm;
					continue;
				}
				uint64_t bw = bucket_of(ws, kw);
				/* Settled cells sit in lower buckets than bw: never
				 * replaced, never equal. */
				if (old != UNSET) {
					uint64_t bo = bucket_of(ws, old);
					if (bw > bo || (bw == bo &&
					    !twz_cost_less(unpack(kw), unpack(old))))
						continue;
				}
				key[w] = kw;
				cm[w] = fm;
				if (push(ws, bw, w) != 0)
					return -1;
			}
		}
		ws->bucket_len[r] = 0;
		pending = 0;
		for (int i = 0; i < RING; i++)
			pending |= ws->bucket_len[i] != 0;
	}
	for (uint32_t t = lo; t < hi; t++) {
		uint32_t c = gr->node_cell[t];
		ws->moves[t] = cm[c];
		ws->cost[t] = unpack(key[c]);
	}
	return 0;
}
