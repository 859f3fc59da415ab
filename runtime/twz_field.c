/*
 * twz_field.c - fields toward one target on the level as it is now, for
 * every level kind: a Dijkstra from t over the arcs into each node
 * (twz_geometry.h) that a filter lets an agent take, so the node a node
 * was reached from is its next step toward t. One field serves every
 * agent sent to t: it runs in slices (twz_field_step) with a budget of
 * nodes expanded, and stops once the nodes the caller waits for (the
 * agents' places) are settled; asked for more, it goes on from there.
 * twz_flow_field_live and twz_flow_field_filtered run one to the end.
 * It reads only the level (cells and moves, or arcs), not the rows. No
 * allocation, no locks, no I/O.
 */
#include "twz_scratch.h"

/* Mark the wanted nodes (valid ones; the settled already count). */
static void field_want(struct twz_scratch *sc, const twz_node *nodes,
		       size_t count)
{
	const uint32_t done = twz__done_stamp(sc);

	for (size_t i = 0; i < count; i++) {
		twz_node n = nodes[i];
		if (n >= sc->node_count || sc->node[n].want == sc->generation ||
		    sc->node[n].stamp == done)
			continue;
		sc->node[n].want = sc->generation;
		sc->wanted_left++;
	}
}

static void field_start(struct twz_scratch *sc, const struct twz__filter *f,
			twz_node t, const twz_node *wanted, size_t count)
{
	static const struct twz__cost zero = { 0, 0 };

	twz__scratch_begin(sc);
	twz__scratch_filter(sc, f);
	sc->mode = TWZ__FIELD;
	sc->state = TWZ_IN_PROGRESS;
	sc->s = TWZ_NONE;
	sc->t = t;
	sc->limit = UINT64_MAX;
	sc->wanted_left = 0;
	sc->complete = 0;
	if (twz__blocked(&sc->filter, t)) {
		sc->complete = 1;  /* nothing reaches a shut target */
		sc->state = TWZ_OK;
		return;
	}
	sc->node[t].g = sc->node[t].key = zero;
	sc->node[t].parent = t;
	sc->node[t].stamp = twz__open_stamp(sc);
	twz__heap_push(sc, t);
	if (wanted)
		field_want(sc, wanted, count);
	else
		sc->wanted_left = SIZE_MAX;  /* the whole field */
}

/* Up to budget expansions (UINT64_MAX: no limit). */
static twz_status field_run(struct twz_scratch *sc, uint64_t budget)
{
	struct twz_scratch_node *nd = sc->node;
	const uint32_t open = twz__open_stamp(sc), done = twz__done_stamp(sc);
	struct twz__arc arcs[TWZ__ARC_BATCH];
	uint64_t spent = 0;

	while (sc->wanted_left && sc->heap_len) {
		if (spent >= budget)
			return sc->state = TWZ_IN_PROGRESS;
		twz_node u = twz__heap_pop(sc);
		nd[u].stamp = done;
		if (nd[u].want == sc->generation && sc->wanted_left != SIZE_MAX)
			sc->wanted_left--;
		sc->expanded++;
		spent++;
		uint32_t cursor = 0;
		unsigned count;
		while ((count = sc->geo->arcs(sc->db, sc, &sc->filter, u, 1,
					      &cursor, arcs)) != 0) {
			for (unsigned i = 0; i < count; i++) {
				twz_node v = arcs[i].head;
				if (nd[v].stamp == done)
					continue;
				struct twz__cost g = twz__cost_add(nd[u].g, arcs[i].cost);
				if (nd[v].stamp != open) {
					nd[v].g = nd[v].key = g;
					nd[v].parent = u;
					nd[v].stamp = open;
					twz__heap_push(sc, v);
				} else if (twz__cost_less(g, nd[v].g)) {
					nd[v].g = nd[v].key = g;
					nd[v].parent = u;
					twz__heap_raise(sc, v);
				}
			}
		}
	}
	if (!sc->heap_len)
		sc->complete = 1;
	return sc->state = TWZ_OK;
}

twz_status twz_field_begin(twz_scratch *sc, const twz_filter *filter,
			   twz_node t, const twz_node *wanted, size_t count)
{
	struct twz__filter f;

	if (!sc)
		return TWZ_E_ARGUMENT;
	sc->mode = TWZ__IDLE;
	if (t >= sc->node_count || (!wanted && count))
		return TWZ_E_ARGUMENT;
	twz_status st = twz__filter_make(sc->db, filter, &f);
	if (st != TWZ_OK)
		return st;
	field_start(sc, &f, t, wanted, count);
	return TWZ_OK;
}

twz_status twz_field_want(twz_scratch *sc, const twz_node *nodes, size_t count)
{
	if (!sc || sc->mode != TWZ__FIELD || (!nodes && count))
		return TWZ_E_ARGUMENT;
	if (sc->wanted_left != SIZE_MAX)
		field_want(sc, nodes, count);
	if (sc->wanted_left && !sc->complete)
		sc->state = TWZ_IN_PROGRESS;
	return TWZ_OK;
}

twz_status twz_field_step(twz_scratch *sc, uint64_t budget)
{
	if (!sc || sc->mode != TWZ__FIELD)
		return TWZ_E_ARGUMENT;
	if (sc->complete)
		return TWZ_OK;
	return field_run(sc, budget ? budget : UINT64_MAX);
}

twz_status twz_field_next(const twz_scratch *sc, twz_node n, twz_node *next)
{
	if (next)
		*next = TWZ_NONE;
	if (!sc || sc->mode != TWZ__FIELD || !next || n >= sc->node_count)
		return TWZ_E_ARGUMENT;
	if (sc->node[n].stamp == twz__done_stamp(sc)) {
		*next = sc->node[n].parent;
		return TWZ_OK;
	}
	if (twz__blocked(&sc->filter, n))
		return TWZ_E_START_SHUT;
	return sc->complete ? TWZ_E_UNREACHABLE : TWZ_IN_PROGRESS;
}

twz_status twz_field_path(const twz_scratch *sc, twz_node s, twz_node *buf,
			  size_t cap, size_t *len, double *cost)
{
	twz_node next;

	if (len)
		*len = 0;
	if (!len || (!buf && cap))
		return TWZ_E_ARGUMENT;
	twz_status st = twz_field_next(sc, s, &next);
	if (st != TWZ_OK)
		return st;
	/* Every node on the way was settled before the one after it. */
	size_t n = 0;
	for (twz_node x = s;; x = sc->node[x].parent) {
		if (n < cap)
			buf[n] = x;
		n++;
		if (x == sc->t)
			break;
	}
	*len = n;
	if (cost)
		*cost = twz__cost_value(sc->node[s].g);
	return n > cap ? TWZ_E_BUFFER_TOO_SMALL : TWZ_OK;
}

/* The whole field into next, as twz_flow_field encodes it. */
static twz_status field_fill(const twz_db *db, twz_scratch *sc,
			     const struct twz__filter *f, twz_node t,
			     twz_node *next, size_t cap)
{
	if (!twz__scratch_fits(sc, db) || !next || t >= db->c.node_count ||
	    cap < db->c.node_count)
		return TWZ_E_ARGUMENT;
	field_start(sc, f, t, NULL, 0);
	field_run(sc, UINT64_MAX);
	const uint32_t done = twz__done_stamp(sc);
	for (uint32_t n = 0; n < db->c.node_count; n++)
		next[n] = sc->node[n].stamp == done ? sc->node[n].parent : TWZ_NONE;
	return TWZ_OK;
}

twz_status twz_flow_field_live(const twz_db *db, twz_scratch *sc,
			       const twz_closed *closed, twz_node t,
			       twz_node *next, size_t cap)
{
	struct twz__filter f;

	twz__filter_closed(closed, &f);
	return field_fill(db, sc, &f, t, next, cap);
}

twz_status twz_flow_field_filtered(const twz_db *db, twz_scratch *sc,
				   const twz_filter *filter, twz_node t,
				   twz_node *next, size_t cap)
{
	struct twz__filter f;

	if (!db)
		return TWZ_E_ARGUMENT;
	twz_status st = twz__filter_make(db, filter, &f);
	if (st != TWZ_OK)
		return st;
	return field_fill(db, sc, &f, t, next, cap);
}
