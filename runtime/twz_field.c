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

#include <math.h>

/* ---- the open list: the scratch's heap, or a ring of buckets ------------ */

/* floor(a + b sqrt(2)) / ring_width, exactly. Below 2^26 (a count of
 * moves on a grid: fewer than its nodes) b sqrt(2) lies more than
 * 1 / (2.5 b) from any whole number, far above the double product's
 * error, so the product's floor is exact; beyond, the integer square
 * root of 2 b^2 (b below 2^31). */
static inline uint64_t bucket_of(const struct twz_scratch *sc,
				 struct twz__cost c)
{
	uint64_t r;

	if (c.b < (1u << 26)) {
		r = (uint64_t)((double)c.b * TWZ__SQRT2);
	} else {
		uint64_t v = 2 * c.b * c.b;
		r = (uint64_t)sqrt((double)v);
		while (r * r > v)
			r--;
		while ((r + 1) * (r + 1) <= v)
			r++;
	}
	return sc->ring_width == 1 ? c.a + r : (c.a + r) / sc->ring_width;
}

static void ring_insert(struct twz_scratch *sc, uint32_t v)
{
	uint32_t *head = &sc->ring[bucket_of(sc, sc->node[v].g) & (sc->ring_size - 1)];

	sc->node[v].u.field.link = TWZ_NONE;
	sc->node[v].pos = *head;
	if (*head != TWZ_NONE)
		sc->node[*head].u.field.link = v;
	*head = v;
	sc->ring_queued++;
}

/* Take v out of the bucket of cost c. */
static void ring_unlink(struct twz_scratch *sc, uint32_t v, struct twz__cost c)
{
	struct twz_scratch_node *nd = sc->node;
	uint32_t p = nd[v].u.field.link, q = nd[v].pos;

	if (p != TWZ_NONE)
		nd[p].pos = q;
	else
		sc->ring[bucket_of(sc, c) & (sc->ring_size - 1)] = q;
	if (q != TWZ_NONE)
		nd[q].u.field.link = p;
	sc->ring_queued--;
}

static int open_any(const struct twz_scratch *sc)
{
	return sc->ring_size ? sc->ring_queued != 0 : sc->heap_len != 0;
}

static void open_push(struct twz_scratch *sc, uint32_t v)
{
	if (sc->ring_size)
		ring_insert(sc, v);
	else
		twz__heap_push(sc, v);
}

/* v's cost fell from was to its g. */
static void open_lower(struct twz_scratch *sc, uint32_t v, struct twz__cost was)
{
	if (!sc->ring_size) {
		twz__heap_raise(sc, v);
	} else if (bucket_of(sc, was) != bucket_of(sc, sc->node[v].g)) {
		ring_unlink(sc, v, was);
		ring_insert(sc, v);
	}
}

/* The next node to settle (open_any() said there is one). */
static uint32_t open_pop(struct twz_scratch *sc)
{
	if (!sc->ring_size)
		return twz__heap_pop(sc);
	uint32_t *head;
	while (*(head = &sc->ring[sc->ring_at & (sc->ring_size - 1)]) == TWZ_NONE)
		sc->ring_at++;
	uint32_t v = *head;
	ring_unlink(sc, v, sc->node[v].g);
	return v;
}

/* ---- the field ------------------------------------------------------------ */

/* Mark the wanted nodes (valid ones; the settled already count). */
static void field_want(struct twz_scratch *sc, const twz_node *nodes,
		       size_t count)
{
	const uint32_t done = twz__done_stamp(sc);

	for (size_t i = 0; i < count; i++) {
		twz_node n = nodes[i];
		if (n >= sc->node_count || sc->node[n].u.field.want == sc->generation ||
		    sc->node[n].stamp == done)
			continue;
		sc->node[n].u.field.want = sc->generation;
		sc->wanted_left++;
	}
}

static void field_start(struct twz_scratch *sc, const struct twz__filter *f,
			twz_node t, const twz_node *wanted, size_t count)
{
	static const struct twz__cost zero = { 0, 0 };

	sc->mode = TWZ__FIELD;
	sc->h_target = TWZ_NONE;  /* the field's records overlay the memo */
	twz__scratch_begin(sc);
	twz__scratch_filter(sc, f);
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
	sc->node[t].g = zero;
	sc->node[t].key = 0;
	sc->node[t].parent = t;
	sc->node[t].stamp = twz__open_stamp(sc);
	sc->ring_at = 0;
	sc->ring_queued = 0;
	for (uint32_t b = 0; b < sc->ring_size; b++)
		sc->ring[b] = TWZ_NONE;
	open_push(sc, t);
	if (wanted)
		field_want(sc, wanted, count);
	else
		sc->wanted_left = SIZE_MAX;  /* the whole field */
}

/* v reached from u for the first time, at cost g to t. */
static twz_status field_open(struct twz_scratch *sc, twz_node v, twz_node u,
			     struct twz__cost g)
{
	struct twz_scratch_node *x = &sc->node[v];

	x->g = g;
	x->key = twz__cost_value(g);
	x->parent = u;
	x->stamp = twz__open_stamp(sc);
	open_push(sc, v);
	return TWZ_OK;
}

/* v reached more cheaply, from u. */
static void field_lower(struct twz_scratch *sc, twz_node v, twz_node u,
			struct twz__cost g)
{
	struct twz_scratch_node *x = &sc->node[v];
	struct twz__cost was = x->g;

	x->g = g;
	x->key = twz__cost_value(g);
	x->parent = u;
	open_lower(sc, v, was);
}

/* Up to budget expansions (UINT64_MAX: no limit). */
static twz_status field_run(struct twz_scratch *sc, uint64_t budget)
{
	struct twz_scratch_node *nd = sc->node;
	const uint32_t done = twz__done_stamp(sc);
	uint64_t spent = 0;

	while (sc->wanted_left && open_any(sc)) {
		if (spent >= budget)
			return sc->state = TWZ_IN_PROGRESS;
		twz_node u = open_pop(sc);
		nd[u].stamp = done;
		if (nd[u].u.field.want == sc->generation && sc->wanted_left != SIZE_MAX)
			sc->wanted_left--;
		sc->expanded++;
		spent++;
		twz__relax(sc, u, 1, field_open, field_lower);
	}
	if (!open_any(sc))
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
		*cost = twz__cost_value(sc->node[s].g) /
			(sc->db->cost_units ? sc->db->cost_units : 1);
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

twz_status twz_field_cost(const twz_scratch *sc, twz_node n, double *cost)
{
	twz_node next;

	if (cost)
		*cost = INFINITY;
	if (!cost)
		return TWZ_E_ARGUMENT;
	twz_status st = twz_field_next(sc, n, &next);
	if (st == TWZ_OK)
		*cost = twz__cost_value(sc->node[n].g) /
			(sc->db->cost_units ? sc->db->cost_units : 1);
	return st;
}
