/*
 * twz_scratch.c - twz_scratch_create and twz_scratch_free: the search
 * state of twz_scratch.h, allocated once for one database so that the
 * searches on a changed level (twz_closed.c, twz_live_flow.c) never
 * allocate. Also works out every node's static moves once, so a search
 * steps with one byte read and a cell lookup a move.
 */
#include "twz_scratch.h"

#include <math.h>
#include <stdlib.h>

/* floor(sqrt(v)) exactly (v < 2^53). */
static uint64_t isqrt(uint64_t v)
{
	uint64_t q = (uint64_t)sqrt((double)v);

	while (q * q > v)
		q--;
	while ((q + 1) * (q + 1) <= v)
		q++;
	return q;
}

twz_status twz_scratch_create(const twz_db *db, twz_scratch **out)
{
	if (!out)
		return TWZ_E_ARGUMENT;
	*out = NULL;
	if (!db || twz__is_graph(db))  /* closed cells are grid cells */
		return TWZ_E_ARGUMENT;

	uint32_t n = db->c.node_count;
	size_t slots = n ? n : 1;
	struct twz_scratch *sc = calloc(1, sizeof *sc);
	if (!sc)
		return TWZ_E_NOMEM;
	sc->db = db;
	sc->node_count = n;
	sc->h_target = TWZ_NONE;
	sc->node = calloc(slots, sizeof *sc->node);
	sc->heap = malloc(slots * sizeof *sc->heap);
	sc->stack = malloc((slots + 1) * sizeof *sc->stack);
	sc->moves = malloc(slots);
	if (db->c.connectivity == 8)
		sc->diag_floor = malloc((slots + 1) * sizeof *sc->diag_floor);
	if (!sc->node || !sc->heap || !sc->stack || !sc->moves ||
	    (db->c.connectivity == 8 && !sc->diag_floor)) {
		twz_scratch_free(sc);
		return TWZ_E_NOMEM;
	}
	for (uint32_t v = 0; v < n; v++) {
		uint32_t x, y;
		unsigned bits = 0;

		twz__node_xy(db, v, &x, &y);
		for (unsigned m = 0; m < db->c.connectivity; m++)
			if (twz_move_legal(twz__walkable, db, x, y, m))
				bits |= 1u << m;
		sc->moves[v] = (uint8_t)bits;
	}
	/* A path has fewer moves than there are nodes. */
	for (size_t d = 0; sc->diag_floor && d <= slots; d++)
		sc->diag_floor[d] = (uint32_t)isqrt(2 * (uint64_t)d * d);
	*out = sc;
	return TWZ_OK;
}

void twz_scratch_free(twz_scratch *sc)
{
	if (!sc)
		return;
	free(sc->node);
	free(sc->heap);
	free(sc->stack);
	free(sc->moves);
	free(sc->diag_floor);
	free(sc);
}

uint64_t twz_scratch_expanded(const twz_scratch *sc)
{
	return sc ? sc->expanded : 0;
}
