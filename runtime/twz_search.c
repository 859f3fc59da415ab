/*
 * twz_search.c - paths on the level as it is now, for every level kind:
 * an A* from s to t over the geometry's arcs (twz_geometry.h) that a
 * filter lets the agent take, its heuristic the database's exact static
 * cost to t. A filter only takes arcs away, so that cost never
 * overestimates and is consistent; on open stretches it is exact, so
 * the search runs straight along the static path and spreads only
 * around what was taken away. The heuristic is memoised per target in
 * the scratch (CPD and graph rows: a chain of first moves is followed
 * until a node whose cost is known; TRANSIT: its cost tables), so
 * agents sent to one target share it.
 *
 * Where the database's path is a chain of its first moves (CPD, graph
 * rows), the search stops at the first node it would expand whose
 * static path to t is still open: that node's key is the least, and the
 * path through it costs exactly that key. A TRANSIT cost is a scan over
 * pairs of transit nodes, dear enough to put off: a node enters the
 * open list keyed with the open-ground lower bound, its exact cost is
 * looked up only when it comes to the top, and it goes back in when its
 * key rose (so a node is expanded only with its exact key).
 *
 * The search runs in slices (twz_search_step) with a budget of nodes
 * expanded, and keeps the settled node nearest the goal for a partial
 * answer. No allocation, no locks, no I/O.
 */
#include "twz_scratch.h"

#include <math.h>

static const struct twz__filter no_filter;
static const struct twz__cost cost_zero = { 0, 0 };
static const struct twz__cost cost_far = { UINT64_MAX, UINT64_MAX };

/* ---- the heuristic ------------------------------------------------------ */

/* Make the memo the one of target t. */
static void heuristic_target(struct twz_scratch *sc, twz_node t)
{
	if (sc->h_target == t)
		return;
	if (sc->h_generation == UINT32_MAX) {
		for (uint32_t i = 0; i < sc->node_count; i++)
			sc->node[i].u.path.h_stamp = 0;
		sc->h_generation = 0;
	}
	sc->h_generation++;
	sc->h_target = t;
}

/* The static cost from v to t into sc->node[v].h (cost_far when v
 * cannot reach t: a one-way arc of a graph). */
static twz_status heuristic(struct twz_scratch *sc, twz_node v)
{
	const struct twz_db *db = sc->db;
	struct twz_scratch_node *nd = sc->node;
	const uint32_t hg = sc->h_generation;
	const twz_node t = sc->t;

	if (nd[v].u.path.h_stamp == hg)
		return TWZ_OK;
	if (db->c.method == TWZ_METHOD_TRANSIT) {
		uint32_t s = 0, d = 0;
		twz_status st = db->backend->walk(db, v, t, &sc->region, NULL, 0,
						  NULL, &s, &d);
		if (st != TWZ_OK && st != TWZ_E_BUFFER_TOO_SMALL)
			return TWZ_E_DAMAGED;
		nd[v].u.path.h.a = s;
		nd[v].u.path.h.b = d;
		nd[v].u.path.h_stamp = hg;
		return TWZ_OK;
	}
	/* First moves up to a node already known, then back (the stack
	 * no longer holds the database's path). */
	uint32_t k = 0;
	sc->static_len = 0;
	twz_node x = v;
	struct twz__cost h;
	while (x != t && nd[x].u.path.h_stamp != hg) {
		if (k == sc->node_count)
			return TWZ_E_DAMAGED;  /* a cycle: a crafted file */
		sc->stack[k++] = x;
		x = db->backend->next(db, x, t, &sc->region);
		if (x == TWZ_NONE)
			break;
	}
	if (x == TWZ_NONE) {
		if (!twz__is_graph(db))
			return TWZ_E_DAMAGED;
		h = cost_far;  /* graphs: t is out of reach from here on */
	} else {
		h = x == t ? cost_zero : nd[x].u.path.h;
	}
	while (k) {
		twz_node y = sc->stack[--k];
		if (!twz__cost_eq(h, cost_far)) {
			struct twz__cost c;
			sc->geo->step(db, &no_filter, y, x, &c);
			h = twz__cost_add(h, c);
		}
		nd[y].u.path.h = h;
		nd[y].u.path.h_stamp = hg;
		x = y;
	}
	if (v == t) {
		nd[t].u.path.h = cost_zero;
		nd[t].u.path.h_stamp = hg;
	}
	return TWZ_OK;
}

/* ---- stopping early: a node whose static path is still open ----------- */

/*
 * Whether u's static path to t takes no step the filter forbids,
 * following first moves until a node whose answer this search knows.
 * Every node followed learns the answer, so the search's checks cost a
 * move or two each.
 */
static int static_open(struct twz_scratch *sc, twz_node u)
{
	const struct twz_db *db = sc->db;
	struct twz_scratch_node *nd = sc->node;
	const uint32_t yes = 2 * sc->generation, no = yes + 1;
	const twz_node t = sc->t;
	uint32_t k = 0;
	int res;

	sc->static_len = 0;
	for (twz_node x = u;; ) {
		if (x == t || nd[x].u.path.clear == yes) {
			res = 1;
			break;
		}
		if (nd[x].u.path.clear == no) {
			res = 0;
			break;
		}
		if (k == sc->node_count)
			return 0;  /* a cycle: a crafted file */
		twz_node y = db->backend->next(db, x, t, &sc->region);
		if (y == TWZ_NONE)
			return 0;
		struct twz__cost c;
		sc->stack[k++] = x;
		if (!sc->geo->step(db, &sc->filter, x, y, &c)) {
			res = 0;
			break;
		}
		x = y;
	}
	while (k)
		nd[sc->stack[--k]].u.path.clear = res ? yes : no;
	return res;
}

/* ---- the search --------------------------------------------------------- */

/* The settled node u is the nearest the goal so far: the least static
 * cost to it, or, with the goal out of the region's reach, the least
 * distance to its position. */
static void offer_best(struct twz_scratch *sc, twz_node u)
{
	if (sc->goal_h) {
		if (sc->best == TWZ_NONE || twz__cost_less(sc->node[u].u.path.h, sc->best_h)) {
			sc->best = u;
			sc->best_h = sc->node[u].u.path.h;
		}
		return;
	}
	double pos[3], d2 = INFINITY;
	if (sc->has_goal_pos && sc->geo->position(sc->db, u, pos) == 0)
		d2 = (pos[0] - sc->goal_pos[0]) * (pos[0] - sc->goal_pos[0]) +
		     (pos[1] - sc->goal_pos[1]) * (pos[1] - sc->goal_pos[1]) +
		     (pos[2] - sc->goal_pos[2]) * (pos[2] - sc->goal_pos[2]);
	if (sc->best == TWZ_NONE || d2 < sc->best_d2) {
		sc->best = u;
		sc->best_d2 = d2;
	}
}

/* What v's heap key adds to its g: its h, or with landmarks the best of
 * the bounds (all shifted by C). 0 when a landmark shows v cannot reach
 * t (it cannot reach L, which t reaches). */
static int set_key(struct twz_scratch *sc, twz_node v)
{
	struct twz_scratch_node *x = &sc->node[v];

	if (!sc->lm_count) {
		x->u.path.hk = x->u.path.h;
		return 1;
	}
	struct twz__cost best = twz__cost_add(x->u.path.h, sc->lm_c);
	for (unsigned i = 0; i < sc->lm_count; i++) {
		const struct twz_scratch *lm = sc->lm[i];
		if (lm->node[v].stamp != twz__done_stamp(lm))
			return 0;
		struct twz__cost d = twz__cost_add(lm->node[v].g, sc->lm_off[i]);
		if (twz__cost_less(best, d))
			best = d;
	}
	x->u.path.hk = best;
	return 1;
}

/* Open v, reached from u at cost g: keyed by g and its heuristic (or its
 * lower bound, lazily). 0, or a status: v cannot reach t is no error. */
static twz_status open_node(struct twz_scratch *sc, twz_node v, twz_node u,
			    struct twz__cost g)
{
	struct twz_scratch_node *nd = sc->node;

	if (!sc->goal_h) {
		nd[v].u.path.h = cost_zero;  /* a flood: no memo to keep */
	} else if (sc->lazy && nd[v].u.path.h_stamp != sc->h_generation) {
		nd[v].u.path.h = sc->geo->lower_bound(sc->db, v, sc->t);
	} else {
		twz_status st = heuristic(sc, v);
		if (st != TWZ_OK)
			return st;
		if (twz__cost_eq(nd[v].u.path.h, cost_far)) {
			nd[v].stamp = twz__done_stamp(sc);  /* out of reach */
			return TWZ_OK;
		}
	}
	if (!set_key(sc, v)) {
		nd[v].stamp = twz__done_stamp(sc);  /* out of reach */
		return TWZ_OK;
	}
	nd[v].g = g;
	nd[v].parent = u;
	nd[v].stamp = twz__open_stamp(sc);
	twz__key_set(sc, &nd[v]);
	twz__heap_push(sc, v);
	return TWZ_OK;
}

/*
 * The database's path from s to t, walked once into sc->stack (and kept
 * there: when it is open it is the answer), gives every node on it its
 * static cost (the memo's spine, which the first moves of the nodes a
 * detour touches soon join) and says which of its nodes still have an
 * open way to t. sc->static_len is its length, 0 when t is out of s's
 * reach (a graph's one-way arcs).
 */
static twz_status seed(struct twz_scratch *sc)
{
	static const struct twz__filter none;
	const struct twz_db *db = sc->db;
	struct twz_scratch_node *nd = sc->node;
	const uint32_t yes = 2 * sc->generation, no = yes + 1;
	size_t n = 0;

	twz_status st = db->backend->walk(db, sc->s, sc->t, &sc->region,
					  sc->stack, (size_t)sc->node_count + 1,
					  &n, NULL, NULL);
	if (st == TWZ_E_UNREACHABLE && twz__is_graph(db))
		return TWZ_OK;
	if (st != TWZ_OK)
		return st == TWZ_E_BUFFER_TOO_SMALL ? TWZ_E_DAMAGED : st;
	struct twz__cost h = cost_zero;
	int open = 1;
	for (size_t i = n; i-- > 0; ) {
		twz_node x = sc->stack[i];
		if (i + 1 < n) {
			struct twz__cost c;
			sc->geo->step(db, &none, x, sc->stack[i + 1], &c);
			h = twz__cost_add(h, c);
			if (open && !sc->geo->step(db, &sc->filter, x, sc->stack[i + 1], &c))
				open = 0;
		}
		if (twz__blocked(&sc->filter, x))
			open = 0;
		nd[x].u.path.h = h;
		nd[x].u.path.h_stamp = sc->h_generation;
		nd[x].u.path.clear = open ? yes : no;
	}
	sc->static_len = n;
	return TWZ_OK;
}

/* The lent landmarks this search can use: complete fields of this
 * database under a filter that leaves the level as the search's does,
 * which s and t both reach; and C, the largest of their costs from t,
 * part by part. Where every arc goes both ways (grids, navmeshes) a node
 * s reaches then reaches every landmark, so none is ever pruned that
 * could end a partial path; on a graph of one-way arcs a search that may
 * hand back a partial path takes no landmarks. */
static void choose_landmarks(struct twz_scratch *sc, int partial)
{
	struct twz__cost c = { 0, 0 };

	sc->lm_count = 0;
	if (partial && twz__is_graph(sc->db) && !sc->db->navmesh)
		return;
	for (unsigned i = 0; i < sc->landmark_count; i++) {
		const struct twz_scratch *lm = sc->landmark[i];
		if (lm->db != sc->db || lm->mode != TWZ__FIELD || !lm->complete ||
		    !twz__filter_same(&lm->filter, &sc->filter) ||
		    lm->node[sc->t].stamp != twz__done_stamp(lm) ||
		    lm->node[sc->s].stamp != twz__done_stamp(lm))
			continue;
		struct twz__cost dt = lm->node[sc->t].g;
		c.a = dt.a > c.a ? dt.a : c.a;
		c.b = dt.b > c.b ? dt.b : c.b;
		sc->lm[sc->lm_count++] = lm;
	}
	for (unsigned i = 0; i < sc->lm_count; i++) {
		struct twz__cost dt = sc->lm[i]->node[sc->t].g;
		sc->lm_off[i].a = c.a - dt.a;
		sc->lm_off[i].b = c.b - dt.b;
	}
	sc->lm_c = c;
}

/*
 * Start a search from s to t (valid, s open) under filter f. partial:
 * the caller wants the nearest reachable node when t cannot be reached,
 * so a goal outside s's region floods the region instead of failing at
 * once. limit: expansions allowed in all (UINT64_MAX: none).
 */
static twz_status search_start(struct twz_scratch *sc, const struct twz__filter *f,
			       twz_node s, twz_node t, uint64_t limit,
			       int partial)
{
	const struct twz_db *db = sc->db;
	twz_status st;

	twz__scratch_begin(sc);
	twz__scratch_filter(sc, f);
	sc->mode = TWZ__PATH;
	sc->state = TWZ_IN_PROGRESS;
	sc->s = s;
	sc->t = t;
	sc->limit = limit;
	sc->via = sc->best = TWZ_NONE;
	sc->best_d2 = INFINITY;
	sc->lazy = db->c.method == TWZ_METHOD_TRANSIT;
	sc->early = !sc->lazy;
	twz__region_of(db, s, &sc->region);
	sc->goal_h = twz__in_region(db, &sc->region, t);
	sc->has_goal_pos = sc->geo->position(db, t, sc->goal_pos) == 0;
	sc->node[s].g = cost_zero;
	sc->node[s].parent = TWZ_NONE;
	sc->static_len = 0;
	if (sc->goal_h) {
		heuristic_target(sc, t);
		if ((st = seed(sc)) != TWZ_OK)
			return sc->state = st;
		if (!sc->static_len)
			sc->goal_h = 0;  /* a graph's one-way arcs */
	}
	if (!sc->goal_h && !partial)
		return sc->state = TWZ_E_UNREACHABLE;
	offer_best(sc, s);
	sc->lm_count = 0;
	if (!sc->goal_h) {
		sc->lazy = sc->early = 0;
		sc->h_target = TWZ_NONE;  /* a flood keys nodes by g alone */
	} else if (sc->node[s].u.path.clear == 2 * sc->generation) {
		sc->via = s;  /* the database's path is open: the answer */
		sc->best = t;
		return sc->state = TWZ_OK;
	} else {
		choose_landmarks(sc, partial);
	}
	if ((st = open_node(sc, s, TWZ_NONE, cost_zero)) != TWZ_OK)
		return sc->state = st;
	return sc->state;
}

/* v was reached more cheaply, from u. */
static void lower_node(struct twz_scratch *sc, twz_node v, twz_node u,
		       struct twz__cost g)
{
	sc->node[v].g = g;
	sc->node[v].parent = u;
	twz__key_set(sc, &sc->node[v]);
	twz__heap_raise(sc, v);
}

/* Up to budget expansions (UINT64_MAX: no limit). */
static twz_status search_run(struct twz_scratch *sc, uint64_t budget)
{
	struct twz_scratch_node *nd = sc->node;
	const uint32_t done = twz__done_stamp(sc);
	uint64_t spent = 0;
	twz_status st;

	if (sc->state != TWZ_IN_PROGRESS)
		return sc->state;
	while (sc->heap_len) {
		if (sc->expanded >= sc->limit)
			return sc->state = TWZ_E_BUDGET;
		if (spent >= budget)
			return TWZ_IN_PROGRESS;
		twz_node u = twz__heap_pop(sc);
		if (sc->lazy && nd[u].u.path.h_stamp != sc->h_generation) {
			/* Keyed with its lower bound: now its exact cost. */
			struct twz__cost was = nd[u].u.path.hk;
			if ((st = heuristic(sc, u)) != TWZ_OK)
				return sc->state = st;
			set_key(sc, u);
			if (!twz__cost_eq(nd[u].u.path.hk, was)) {
				twz__key_set(sc, &nd[u]);
				twz__heap_push(sc, u);
				continue;
			}
		}
		nd[u].stamp = done;
		offer_best(sc, u);
		if (u == sc->t) {
			sc->via = u;
			return sc->state = TWZ_OK;
		}
		if (sc->early && static_open(sc, u)) {
			sc->via = u;
			return sc->state = TWZ_OK;
		}
		sc->expanded++;
		spent++;
		if ((st = twz__relax(sc, u, 0, open_node, lower_node)) != TWZ_OK)
			return sc->state = st;
	}
	return sc->state = TWZ_E_UNREACHABLE;
}

/*
 * The answer into buf: the search's path from s to its end (the node
 * via whose static path finishes it, or the nearest node reached), then,
 * for a whole answer, the database's path from via on. *len is the full
 * count, *cost (may be NULL) its exact cost, *reached (may be NULL)
 * where it ends. TWZ_OK for a path to t, TWZ_PARTIAL for one that stops
 * short, TWZ_E_BUFFER_TOO_SMALL when it did not fit.
 */
static twz_status hand_back(struct twz_scratch *sc, twz_node *buf, size_t cap,
			    size_t *len, struct twz__cost *cost,
			    twz_node *reached)
{
	const struct twz_db *db = sc->db;
	const struct twz_scratch_node *nd = sc->node;
	int whole = sc->state == TWZ_OK;
	twz_node end = whole ? sc->via : sc->best;
	size_t head = 1, tail = 1;

	for (twz_node x = end; x != sc->s; x = nd[x].parent)
		head++;
	size_t i = head;
	for (twz_node x = end;; x = nd[x].parent) {
		i--;
		if (i < cap)
			buf[i] = x;
		if (x == sc->s)
			break;
	}
	struct twz__cost c = nd[end].g;
	if (whole && end != sc->t) {
		size_t at = head - 1 < cap ? head - 1 : cap;
		if (end == sc->s && sc->static_len) {
			/* The database's path, walked at the start. */
			tail = sc->static_len;
			for (size_t i = 0; i < tail && at + i < cap; i++)
				buf[at + i] = sc->stack[i];
		} else {
			twz_status st = db->backend->walk(db, end, sc->t,
							  &sc->region, buf + at,
							  cap - at, &tail, NULL,
							  NULL);
			if (st != TWZ_OK && st != TWZ_E_BUFFER_TOO_SMALL)
				return st;
		}
		c = twz__cost_add(c, nd[end].u.path.h);
	}
	*len = head + tail - 1;
	if (cost)
		*cost = c;
	if (reached)
		*reached = whole ? sc->t : end;
	if (*len > cap)
		return TWZ_E_BUFFER_TOO_SMALL;
	return whole ? TWZ_OK : TWZ_PARTIAL;
}

/* Checks every search call shares: db's scratch, valid nodes, the
 * filter resolved. */
static twz_status search_args(const twz_db *db, const twz_scratch *sc,
			      const twz_filter *filter, twz_node s, twz_node t,
			      struct twz__filter *f)
{
	if (!twz__scratch_fits(sc, db) || s >= db->c.node_count ||
	    t >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	return twz__filter_make(db, filter, f);
}

/* A whole search in one call; its answer into buf as hand_back. */
static twz_status search_once(const twz_db *db, twz_scratch *sc,
			      const struct twz__filter *f, twz_node s,
			      twz_node t, uint64_t budget, int partial,
			      twz_node *buf, size_t cap, size_t *len,
			      struct twz__cost *cost, twz_node *reached)
{
	*len = 0;
	if (reached)
		*reached = TWZ_NONE;
	if (twz__blocked(f, s))
		return TWZ_E_START_SHUT;
	if (!partial && twz__blocked(f, t))
		return TWZ_E_GOAL_SHUT;
	(void)db;
	twz_status st = search_start(sc, f, s, t, budget ? budget : UINT64_MAX,
				     partial);
	if (st == TWZ_IN_PROGRESS)
		st = search_run(sc, UINT64_MAX);
	sc->mode = TWZ__IDLE;
	if (st == TWZ_E_UNREACHABLE && !partial)
		return st;
	if (st != TWZ_OK && st != TWZ_E_UNREACHABLE && st != TWZ_E_BUDGET)
		return st;
	twz_status hb = hand_back(sc, buf, cap, len, cost, reached);
	if (hb == TWZ_PARTIAL && st == TWZ_E_BUDGET)
		return TWZ_E_BUDGET;
	return hb;
}

/* A cost in world units: a grid with areas counts 2000 units a cell. */
static void cost_out(const struct twz_db *db, struct twz__cost c, double *cost)
{
	if (cost)
		*cost = twz__cost_value(c) / (db->cost_units ? db->cost_units : 1);
}

twz_status twz_find_path(const twz_db *db, twz_scratch *sc,
			 const twz_filter *filter, twz_node s, twz_node t,
			 uint64_t budget, twz_node *buf, size_t cap,
			 size_t *len, double *cost)
{
	struct twz__filter f;
	struct twz__cost c;

	if (len)
		*len = 0;
	if (!len || (!buf && cap))
		return TWZ_E_ARGUMENT;
	twz_status st = search_args(db, sc, filter, s, t, &f);
	if (st != TWZ_OK)
		return st;
	st = search_once(db, sc, &f, s, t, budget, 0, buf, cap, len, &c, NULL);
	if (st == TWZ_OK || st == TWZ_E_BUFFER_TOO_SMALL || st == TWZ_E_BUDGET)
		cost_out(db, c, cost);
	return st;
}

twz_status twz_find_path_partial(const twz_db *db, twz_scratch *sc,
				 const twz_filter *filter, twz_node s,
				 twz_node t, uint64_t budget, twz_node *buf,
				 size_t cap, size_t *len, double *cost,
				 twz_node *reached)
{
	struct twz__filter f;
	struct twz__cost c;

	if (len)
		*len = 0;
	if (reached)
		*reached = TWZ_NONE;
	if (!len || (!buf && cap))
		return TWZ_E_ARGUMENT;
	twz_status st = search_args(db, sc, filter, s, t, &f);
	if (st != TWZ_OK)
		return st;
	st = search_once(db, sc, &f, s, t, budget, 1, buf, cap, len, &c,
			 reached);
	if (st == TWZ_OK || st == TWZ_PARTIAL || st == TWZ_E_BUFFER_TOO_SMALL ||
	    st == TWZ_E_BUDGET)
		cost_out(db, c, cost);
	return st;
}

twz_status twz_first_move(const twz_db *db, twz_scratch *sc,
			  const twz_filter *filter, twz_node s, twz_node t,
			  twz_node *next)
{
	struct twz__filter f;

	if (next)
		*next = TWZ_NONE;
	if (!next)
		return TWZ_E_ARGUMENT;
	twz_status st = search_args(db, sc, filter, s, t, &f);
	if (st != TWZ_OK)
		return st;
	if (twz__blocked(&f, s))
		return TWZ_E_START_SHUT;
	if (twz__blocked(&f, t))
		return TWZ_E_GOAL_SHUT;
	if (s == t) {
		*next = t;
		return TWZ_OK;
	}
	st = search_start(sc, &f, s, t, UINT64_MAX, 0);
	if (st == TWZ_IN_PROGRESS)
		st = search_run(sc, UINT64_MAX);
	sc->mode = TWZ__IDLE;
	if (st != TWZ_OK)
		return st;
	if (sc->via == s) {
		*next = db->backend->next(db, s, t, &sc->region);
		return *next == TWZ_NONE ? TWZ_E_DAMAGED : TWZ_OK;
	}
	twz_node x = sc->via;
	while (sc->node[x].parent != s)
		x = sc->node[x].parent;
	*next = x;
	return TWZ_OK;
}

twz_status twz_search_begin(twz_scratch *sc, const twz_filter *filter,
			    twz_node s, twz_node t, uint64_t budget)
{
	struct twz__filter f;

	if (!sc)
		return TWZ_E_ARGUMENT;
	sc->mode = TWZ__IDLE;
	twz_status st = search_args(sc->db, sc, filter, s, t, &f);
	if (st != TWZ_OK)
		return st;
	if (twz__blocked(&f, s))
		return TWZ_E_START_SHUT;
	st = search_start(sc, &f, s, t, budget ? budget : UINT64_MAX, 1);
	if (st != TWZ_OK && st != TWZ_IN_PROGRESS && st != TWZ_E_UNREACHABLE)
		return st;
	sc->mode = TWZ__PATH;
	return TWZ_OK;
}

twz_status twz_search_step(twz_scratch *sc, uint64_t budget)
{
	if (!sc || sc->mode != TWZ__PATH)
		return TWZ_E_ARGUMENT;
	return search_run(sc, budget ? budget : UINT64_MAX);
}

twz_status twz_search_path(twz_scratch *sc, twz_node *buf, size_t cap,
			   size_t *len, double *cost, twz_node *reached)
{
	struct twz__cost c;

	if (len)
		*len = 0;
	if (reached)
		*reached = TWZ_NONE;
	if (!sc || sc->mode != TWZ__PATH || !len || (!buf && cap))
		return TWZ_E_ARGUMENT;
	if (sc->state != TWZ_OK && sc->state != TWZ_IN_PROGRESS &&
	    sc->state != TWZ_E_UNREACHABLE && sc->state != TWZ_E_BUDGET)
		return sc->state;
	twz_status st = hand_back(sc, buf, cap, len, &c, reached);
	if (st == TWZ_OK || st == TWZ_PARTIAL || st == TWZ_E_BUFFER_TOO_SMALL)
		cost_out(sc->db, c, cost);
	return st;
}

twz_status twz_path_closed(const twz_db *db, twz_scratch *sc,
			   const twz_closed *closed, twz_node s, twz_node t,
			   twz_node *buf, size_t cap, size_t *len,
			   uint32_t *straight, uint32_t *diagonal)
{
	struct twz__filter f;
	struct twz__cost c = { 0, 0 };

	if (len)
		*len = 0;
	if (!len || (!buf && cap) || !twz__scratch_fits(sc, db) ||
	    s >= db->c.node_count || t >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	twz__filter_closed(closed, &f);
	twz_status st = search_once(db, sc, &f, s, t, 0, 0, buf, cap, len, &c,
				    NULL);
	if (st == TWZ_OK || st == TWZ_E_BUFFER_TOO_SMALL) {
		if (c.a > UINT32_MAX || c.b > UINT32_MAX)
			return TWZ_E_LIMIT;
		if (straight)
			*straight = (uint32_t)c.a;
		if (diagonal)
			*diagonal = (uint32_t)c.b;
	}
	return st;
}

/* Whether a -> b is a legal move of the grid as baked (the geometry's
 * step takes that for granted: its callers walk the database's paths). */
static int grid_move(const twz_db *db, twz_node a, twz_node b)
{
	uint32_t ax, ay, bx, by;

	twz__node_xy(db, a, &ax, &ay);
	twz__node_xy(db, b, &bx, &by);
	int64_t dx = (int64_t)bx - ax, dy = (int64_t)by - ay;
	if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (!dx && !dy))
		return 0;
	unsigned m = twz_direction_move(TWZ_SYMBOL_TOWARD, (int32_t)dx, (int32_t)dy);
	return m < db->c.connectivity &&
	       twz_move_legal(twz__walkable, db, ax, ay, m);
}

twz_status twz_path_open(const twz_db *db, const twz_filter *filter,
			 const twz_node *path, size_t len)
{
	struct twz__filter f;
	twz_status st = twz__path_args(db, filter, path, len, &f);

	if (st != TWZ_OK)
		return st;
	if (len && twz__blocked(&f, path[0]))
		return TWZ_E_START_SHUT;
	const struct twz_geometry *geo = twz__geometry(db);
	for (size_t i = 1; i < len; i++) {
		struct twz__cost c;
		if (!twz__is_graph(db) && !grid_move(db, path[i - 1], path[i]))
			return TWZ_E_UNREACHABLE;
		if (!geo->step(db, &f, path[i - 1], path[i], &c))
			return TWZ_E_UNREACHABLE;
	}
	return TWZ_OK;
}

twz_status twz_search_landmarks(twz_scratch *sc,
				const twz_scratch *const *fields, size_t count)
{
	if (!sc || count > TWZ__MAX_LANDMARKS || (!fields && count))
		return TWZ_E_ARGUMENT;
	for (size_t i = 0; i < count; i++)
		if (!fields[i] || fields[i]->db != sc->db || fields[i] == sc)
			return TWZ_E_ARGUMENT;
	for (size_t i = 0; i < count; i++)
		sc->landmark[i] = fields[i];
	sc->landmark_count = (unsigned)count;
	return TWZ_OK;
}
