/*
 * first_moves.c - the per-source first-move search (see first_moves.h).
 *
 * Canonical expansion. Moves are numbered N E S W, then NE SE SW NW (see
 * twz_format.h). A cell x entered from p by move d keeps the first moves
 * that arrived that way in byte d of its sets, and passes that byte on
 * only along these moves (each also legal from x):
 *   - after a diagonal, the same diagonal and its two straight parts
 *     (after NE: NE, N, E);
 *   - after a straight move, the same move, and also, for each side whose
 *     cell beside p (p + side) is blocked, the move to that side and the
 *     diagonal forward to it (after E with p + N blocked: N and NE).
 * On a 4-connected grid horizontal moves play the diagonals' part: after
 * E or W the same move, N and S; after N or S the same move, and E (W)
 * when p + E (p + W) is blocked.
 *
 * Why the sets stay complete: take a target t and an optimal first move
 * f, and among the optimal paths from the source that start with f
 * (they all have the same numbers of straight and diagonal moves) the
 * one whose moves after the first are diagonal (8-connected; horizontal,
 * 4-connected) earliest, compared as strings. In it, no move from the
 * second cell on breaks the rules above: a move the rules drop is either
 * never on an optimal path (going back, turning by more than 45 degrees,
 * a straight move then a perpendicular one where the diagonal past the
 * free cell beside p is shorter), or is a diagonal after a straight move
 * (vertical after horizontal, 4-connected) with the cell beside p free,
 * and then the two moves swapped give a legal path of the same cost that
 * is diagonal earlier. The source's neighbours pass their move on along
 * every legal move (their sets are the one move, copied into every
 * byte), so a path's second move is free. Sets are passed on only along
 * moves that keep the cost optimal, so they hold only optimal moves.
 */
#include "first_moves.h"

#include <stdlib.h>
#include <string.h>

#define RING 4  /* a move goes 2 or 3 half-units up: buckets i+2, i+3 */
#define UNSET UINT32_MAX
#define BYTES_01 0x0101010101010101ull

/* Bit k set when byte k of v is non-zero. */
static inline unsigned nonzero_bytes(uint64_t v)
{
	v |= v >> 4;
	v |= v >> 2;
	v |= v >> 1;
	v &= BYTES_01;
	/* Byte k's bit lands on bit 56 + k; no two products overlap. */
	return (unsigned)((v * 0x0102040810204080ull) >> 56);
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

/* Byte d (d a straight move): the moves beyond the usual ones that may
 * follow d into cell (x, y), for the sides whose cell beside the
 * predecessor is blocked. */
static uint32_t forced_moves(const struct twz_graph *gr, uint32_t x, uint32_t y)
{
	uint32_t f = 0;

	for (unsigned d = 0; d < 4; d++) {
		int dx = twz_move_dx[d], dy = twz_move_dy[d];
		if (gr->connectivity == 4 && dy == 0)
			continue;  /* horizontal: N and S follow anyway */
		unsigned sides[2] = { (d + 1) % 4, (d + 3) % 4 };
		for (int i = 0; i < 2; i++) {
			unsigned q = sides[i];
			int qx = twz_move_dx[q], qy = twz_move_dy[q];
			if (walkable(gr, (int64_t)x - dx + qx, (int64_t)y - dy + qy))
				continue;
			unsigned extra = 1u << q;
			if (gr->connectivity == 8)
				extra |= 1u << move_of(dx + qx, dy + qy);
			f |= extra << (8 * d);
		}
	}
	return f;
}

int twz_search_init(struct twz_search *ws, const struct twz_graph *graph)
{
	size_t n = graph->node_count ? graph->node_count : 1;
	size_t cells = (size_t)graph->width * graph->height;

	memset(ws, 0, sizeof *ws);
	ws->graph = graph;
	ws->cost = malloc(n * sizeof *ws->cost);
	ws->moves = malloc(n);
	ws->cell = malloc((cells ? cells : 1) * sizeof *ws->cell);
	ws->legal = calloc(cells ? cells : 1, 1);
	ws->forced = calloc(cells ? cells : 1, sizeof *ws->forced);
	/* A path has fewer than n moves, so diagonal counts stay below n;
	 * one more entry for the step past the last. */
	ws->half_sqrt8 = twz_half_sqrt8_table(n + 2);
	if (!ws->cost || !ws->moves || !ws->cell || !ws->legal ||
	    !ws->forced || !ws->half_sqrt8 || twz_ring_reserve(&ws->ring, RING) != 0)
		goto fail;
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		ws->offset[m] = twz_move_dx[m] + twz_move_dy[m] * (int32_t)graph->width;
	for (unsigned i = 0; i < 256; i++) {
		uint64_t s = 0;
		for (unsigned m = 0; m < 8; m++)
			if (i >> m & 1)
				s |= (uint64_t)0xFF << (8 * m);
		ws->spread[i] = s;
	}
	for (uint32_t v = 0; v < graph->node_count; v++) {
		unsigned mask = twz_graph_moves(graph, v);
		uint32_t c = graph->node_cell[v];
		ws->legal[c] = (uint8_t)mask;
		uint32_t f = forced_moves(graph, c % graph->width, c / graph->width);
		ws->forced[c] = f & mask * 0x01010101u;
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
	free(ws->cell);
	free(ws->legal);
	free(ws->forced);
	free(ws->half_sqrt8);
	twz_ring_free(&ws->ring);
	memset(ws, 0, sizeof *ws);
}

/* The cost of bucket b and diagonal count d. */
static inline struct twz_cost cost_of(const uint32_t *h, uint32_t b, uint32_t d)
{
	return (struct twz_cost){ (b - h[d]) / 2, d };
}

/* What a cell's visit needs, kept together for the loop. */
struct visit {
	struct twz_search_cell *cell;
	const uint8_t *legal;
	const uint32_t *forced;
	const uint32_t *h;
	const uint64_t *spread;
	const int32_t *offset;
	struct twz_ring *ring;
};

/* Settle cell v of bucket b and pass its sets on (see the top). */
static inline __attribute__((always_inline)) int
visit(const struct visit *k, uint32_t v, uint32_t b, const int eight)
{
	struct twz_search_cell *cell = k->cell;
	const uint32_t *h = k->h;
	const uint64_t *spread = k->spread;
	const struct twz_search_cell *cv = &cell[v];

	/* A cell is queued again only when its bucket drops, so the entry
	 * that matches its bucket is its only live one. */
	if (cv->bucket != b)
		return 0;  /* a stale entry */
	uint64_t c = cv->sets, out;
	uint32_t d = cv->diagonal;
	uint32_t sl = (uint32_t)c;
	if (eight) {
		uint32_t sh = (uint32_t)(c >> 32);
		out = (uint64_t)sh << 32 |
		      (sl | sh | (sh << 8 | sh >> 24));
	} else {
		uint32_t ew = (sl >> 8 | sl >> 24) & 0xFF;
		out = sl | ew * 0x00010001u;
	}
	uint32_t f = k->forced[v];
	if (f) {
		for (unsigned i = 0; i < 4; i++)
			out |= spread[f >> (8 * i) & 0xFF] &
			       ((c >> (8 * i) & 0xFF) * BYTES_01);
	}
	out &= spread[k->legal[v]];
	uint32_t bs = b + 2, bd = b + h[d + 1] - h[d];
	for (unsigned nz = nonzero_bytes(out); nz; nz &= nz - 1) {
		unsigned m = (unsigned)__builtin_ctz(nz);
		uint32_t w = (uint32_t)((int32_t)v + k->offset[m]);
		uint64_t sw = out & (uint64_t)0xFF << (8 * m);
		int diag = m >= 4;
		uint32_t bw = diag ? bd : bs, dw = d + (uint32_t)diag;
		struct twz_search_cell *cw = &cell[w];
		uint32_t bo = cw->bucket;
		if (bw < bo) {
			cw->bucket = bw;
			cw->diagonal = dw;
			cw->sets = sw;
			if (twz_ring_push(k->ring, bw % RING, w) != 0)
				return -1;
		} else if (bw == bo) {
			/* Settled cells sit in lower buckets: never
			 * replaced, never equal. */
			enum twz_offer o = twz_offer(h, bw, dw, cw->diagonal);
			if (o == TWZ_OFFER_EQUAL) {
				cw->sets |= sw;
			} else if (o == TWZ_OFFER_BETTER) {
				/* Queued in this bucket already. */
				cw->diagonal = dw;
				cw->sets = sw;
			}
		}
	}
	return 0;
}

static int visit8(void *k, uint32_t v, uint32_t b)
{
	return visit(k, v, b, 1);
}

static int visit4(void *k, uint32_t v, uint32_t b)
{
	return visit(k, v, b, 0);
}

static inline __attribute__((always_inline)) int
search(struct twz_search *ws, uint32_t source, const int eight)
{
	const struct twz_graph *gr = ws->graph;
	uint32_t comp = gr->node_comp[source];
	uint32_t lo = gr->comp_first[comp], hi = gr->comp_first[comp + 1];
	struct twz_search_cell *cell = ws->cell;
	const uint8_t *legal = ws->legal;
	const uint32_t *h = ws->half_sqrt8;
	const uint32_t *node_cell = gr->node_cell;
	uint32_t src = node_cell[source];
	/* A copy the compiler may keep in registers: the ring's arrays stay
	 * where they are, only the buckets in them grow. */
	struct twz_ring ring = ws->ring;
	struct visit k = { cell, legal, ws->forced, h, ws->spread,
			   ws->offset, &ring };

	/* Only the source's region can be reached. */
	for (uint32_t v = lo; v < hi; v++)
		cell[node_cell[v]].bucket = UNSET;
	for (int i = 0; i < RING; i++)
		ring.len[i] = 0;
	/* The source's neighbours first: their set is the move that reaches
	 * them, in every byte, so they pass it on along every legal move.
	 * Both a straight move and a diagonal one land in bucket 2. */
	cell[src] = (struct twz_search_cell){ 0, 0, 0 };
	for (unsigned mask = legal[src]; mask; mask &= mask - 1) {
		unsigned m = (unsigned)__builtin_ctz(mask);
		uint32_t w = (uint32_t)((int64_t)src + ws->offset[m]);
		cell[w] = (struct twz_search_cell){
			2, twz_move_is_diagonal(m), (uint64_t)(1u << m) * BYTES_01 };
		if (twz_ring_push(&ring, 2 % RING, w) != 0)
			return -1;
	}
	if (twz_search_loop(&ring, 2, NULL, RING, &k,
			    eight ? visit8 : visit4) != 0)
		return -1;
	for (uint32_t t = lo; t < hi; t++) {
		const struct twz_search_cell *ct = &cell[node_cell[t]];
		uint64_t s = ct->sets;
		s |= s >> 32;
		s |= s >> 16;
		s |= s >> 8;
		ws->moves[t] = (uint8_t)s;
		ws->cost[t] = cost_of(h, ct->bucket, ct->diagonal);
	}
	return 0;
}

int twz_search_run(struct twz_search *ws, uint32_t source)
{
	if (ws->graph->connectivity == 8)
		return search(ws, source, 1);
	return search(ws, source, 0);
}
