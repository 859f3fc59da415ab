/*
 * twz_scratch.c - twz_scratch_create and twz_scratch_free: the search
 * state of twz_scratch.h, allocated once for one database (of any level
 * kind) so that the searches on a changed level never allocate; and the
 * one heap they share.
 */
#include "twz_scratch.h"

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

/* ---- the heap ---------------------------------------------------------- */

static void sift_up(struct twz_scratch *sc, uint32_t i)
{
	uint32_t *heap = sc->heap, v = heap[i];

	while (i) {
		uint32_t p = (i - 1) / 2;
		if (!twz__heap_before(sc, v, heap[p]))
			break;
		heap[i] = heap[p];
		sc->node[heap[i]].pos = i;
		i = p;
	}
	heap[i] = v;
	sc->node[v].pos = i;
}

void twz__heap_push(struct twz_scratch *sc, uint32_t v)
{
	sc->heap[sc->heap_len] = v;
	sc->heap_len++;
	sift_up(sc, sc->heap_len - 1);
}

void twz__heap_raise(struct twz_scratch *sc, uint32_t v)
{
	sift_up(sc, sc->node[v].pos);
}

uint32_t twz__heap_pop(struct twz_scratch *sc)
{
	uint32_t *heap = sc->heap, top = heap[0];
	uint32_t n = --sc->heap_len, i = 0;

	if (!n)
		return top;
	uint32_t v = heap[n];
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && twz__heap_before(sc, heap[c + 1], heap[c]))
			c++;
		if (!twz__heap_before(sc, heap[c], v))
			break;
		heap[i] = heap[c];
		sc->node[heap[i]].pos = i;
		i = c;
	}
	heap[i] = v;
	sc->node[v].pos = i;
	return top;
}
