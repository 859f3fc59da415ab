/*
 * twz_scratch.c - twz_scratch_create and twz_scratch_free: the search
 * state of twz_scratch.h, allocated once for one database (of any level
 * kind) so that the searches on a changed level never allocate; and the
 * one heap they share.
 */
#include "twz_scratch.h"
#include "twz_heap.h"

#include <stdlib.h>

twz_status twz_scratch_create(const twz_db *db, twz_scratch **out)
{
	if (!out)
		return TWZ_E_ARGUMENT;
	*out = NULL;
	if (!db)
		return TWZ_E_ARGUMENT;

	uint32_t n = db->c.node_count;
	size_t slots = n ? n : 1;
	struct twz_scratch *sc = calloc(1, sizeof *sc);
	if (!sc)
		return TWZ_E_NOMEM;
	sc->db = db;
	sc->geo = twz__geometry(db);
	sc->node_count = n;
	sc->h_target = TWZ_NONE;
	sc->node = calloc(slots, sizeof *sc->node);
	sc->heap = malloc(slots * sizeof *sc->heap);
	sc->stack = malloc((slots + 1) * sizeof *sc->stack);
	if (!sc->node || !sc->heap || !sc->stack) {
		twz_scratch_free(sc);
		return TWZ_E_NOMEM;
	}
	twz_status st = sc->geo->scratch_init(db, sc);
	if (st == TWZ_OK && sc->ring_size) {
		sc->ring = malloc(sc->ring_size * sizeof *sc->ring);
		if (!sc->ring)
			st = TWZ_E_NOMEM;
	}
	if (st != TWZ_OK) {
		twz_scratch_free(sc);
		return st;
	}
	*out = sc;
	return TWZ_OK;
}

void twz_scratch_free(twz_scratch *sc)
{
	if (!sc)
		return;
	if (sc->geo)
		sc->geo->scratch_fini(sc);
	free(sc->node);
	free(sc->heap);
	free(sc->stack);
	free(sc->ring);
	free(sc);
}

uint64_t twz_scratch_expanded(const twz_scratch *sc)
{
	return sc ? sc->expanded : 0;
}

/* ---- the heap: format/twz_heap.h's, indexed by node --------------------- */

static int before(const void *ctx, const void *a, const void *b)
{
	return twz__heap_before(ctx, *(const uint32_t *)a, *(const uint32_t *)b);
}

static void placed(void *ctx, const void *item, size_t at)
{
	struct twz_scratch *sc = ctx;

	sc->node[*(const uint32_t *)item].pos = (uint32_t)at;
}

void twz__heap_push(struct twz_scratch *sc, uint32_t v)
{
	size_t len = sc->heap_len;

	twz_heap_push(sc->heap, &len, &v, sizeof v, before, placed, sc);
	sc->heap_len = (uint32_t)len;
}

void twz__heap_raise(struct twz_scratch *sc, uint32_t v)
{
	twz_heap_up(sc->heap, sc->node[v].pos, sizeof v, before, placed, sc);
}

uint32_t twz__heap_pop(struct twz_scratch *sc)
{
	size_t len = sc->heap_len;
	uint32_t top;

	twz_heap_pop(sc->heap, &len, &top, sizeof top, before, placed, sc);
	sc->heap_len = (uint32_t)len;
	return top;
}
