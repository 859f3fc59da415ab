/*
 * twz_closed.c - twz_path_closed: optimal paths around cells closed at
 * run time, without a rebake.
 *
 * The database's own path is walked first; when nothing on it (nor a
 * corner one of its diagonals cuts) is closed it is the answer, at the
 * cost of twz_path. Otherwise an A* runs on the changed level with the
 * database's exact static cost to t as its heuristic: closing cells only
 * removes moves, so that cost never overestimates and is consistent, and
 * on open stretches it is exact, so the search runs straight along the
 * static path and spreads only around what was closed. The heuristic is
 * memoised per target in the scratch (CPD: a chain of first moves is
 * walked until a node whose cost is known; TRANSIT: its cost tables), so
 * agents sent to one target share it. On CPD the search stops at the
 * first node it would expand whose static path is clear: the rest of the
 * way is the database's. Costs are exact (straight, diagonal) pairs,
 * compared exactly. No allocation, no locks, no I/O.
 */
#include "twz_scratch.h"

/* ---- the heuristic ------------------------------------------------------ */

/* Make the memo the one of target t. */
static void heuristic_target(struct twz_scratch *sc, twz_node t)
{
	if (sc->h_target == t)
		return;
	if (sc->h_generation == UINT32_MAX) {
		for (uint32_t i = 0; i < sc->node_count; i++)
			sc->node[i].h_stamp = 0;
		sc->h_generation = 0;
	}
	sc->h_generation++;
	sc->h_target = t;
}

static int diagonal_step(const twz_db *db, twz_node a, twz_node b)
{
	uint32_t ax, ay, bx, by;

	twz__node_xy(db, a, &ax, &ay);
	twz__node_xy(db, b, &bx, &by);
	return ax != bx && ay != by;
}

/* The static path p[0 .. n) to t gives every node on it its cost: the
 * memo's spine, which the first moves of the nodes a detour touches soon
 * join. */
static void heuristic_seed(const twz_db *db, struct twz_scratch *sc,
			   const twz_node *p, size_t n)
{
	struct twz_scratch_node *nd = sc->node;
	struct twz__cost h = { 0, 0 };
	uint32_t hg = sc->h_generation;

	for (size_t i = n; i-- > 0; ) {
		if (i + 1 < n) {
			if (diagonal_step(db, p[i], p[i + 1]))
				h.d++;
			else
				h.s++;
		}
		nd[p[i]].u.h = h;
		nd[p[i]].h_stamp = hg;
	}
}

/* The static cost from v to t (same region r) into sc->node[v].u.h. */
static twz_status heuristic(const twz_db *db, struct twz_scratch *sc,
			    const struct twz_span *r, twz_node v, twz_node t)
{
	struct twz_scratch_node *nd = sc->node;
	uint32_t hg = sc->h_generation;

	if (nd[v].h_stamp == hg)
		return TWZ_OK;
	if (db->c.method == TWZ_METHOD_TRANSIT) {
		uint32_t s = 0, d = 0;
		twz_status st = db->backend->walk(db, v, t, r, NULL, 0, NULL,
						  &s, &d);
		if (st != TWZ_OK && st != TWZ_E_BUFFER_TOO_SMALL)
			return TWZ_E_DAMAGED;
		nd[v].u.h = (struct twz__cost){ s, d };
		nd[v].h_stamp = hg;
		return TWZ_OK;
	}
	/* CPD: first moves up to a node already known, then back. */
	uint32_t k = 0;
	twz_node x = v;
	while (x != t && nd[x].h_stamp != hg) {
		if (k == sc->node_count)
			return TWZ_E_DAMAGED;  /* a cycle: a crafted file */
		sc->stack[k++] = x;
		x = db->backend->next(db, x, t, r);
		if (x == TWZ_NONE)
			return TWZ_E_DAMAGED;
	}
	if (x == t) {
		nd[t].u.h = (struct twz__cost){ 0, 0 };
		nd[t].h_stamp = hg;
	}
	struct twz__cost h = nd[x].u.h;
	while (k) {
		twz_node y = sc->stack[--k];
		if (diagonal_step(db, y, x))
			h.d++;
		else
			h.s++;
		nd[y].u.h = h;
		nd[y].h_stamp = hg;
		x = y;
	}
	return TWZ_OK;
}

/* ---- the open list: a binary heap indexed by node ----------------------- */

/* Lower f first; on equal f the deeper node (larger g), then the lower id,
 * so the search follows the static path while it is open. */
static inline int before(const struct twz_scratch_node *nd, uint32_t a,
			 uint32_t b)
{
	const struct twz_scratch_node *x = &nd[a], *y = &nd[b];
	uint32_t xs = x->g.s + x->u.h.s, xd = x->g.d + x->u.h.d;
	uint32_t ys = y->g.s + y->u.h.s, yd = y->g.d + y->u.h.d;

	if (xs != ys || xd != yd) {
		/* Doubles settle all but near-equal costs (their rounding is
		 * far below the margin); those are compared exactly. */
		double fx = xs + xd * 1.41421356237309504880;
		double fy = ys + yd * 1.41421356237309504880;
		if (fx < fy - 1e-6)
			return 1;
		if (fx > fy + 1e-6)
			return 0;
		return twz__cost_less(xs, xd, ys, yd);
	}
	if (x->g.s != y->g.s || x->g.d != y->g.d)
		return twz__cost_less(y->g.s, y->g.d, x->g.s, x->g.d);
	return a < b;
}

static void sift_up(struct twz_scratch *sc, uint32_t i)
{
	uint32_t *heap = sc->heap, v = heap[i];

	while (i) {
		uint32_t p = (i - 1) / 2;
		if (!before(sc->node, v, heap[p]))
			break;
		heap[i] = heap[p];
		sc->node[heap[i]].pos = i;
		i = p;
	}
	heap[i] = v;
	sc->node[v].pos = i;
}

static uint32_t pop(struct twz_scratch *sc)
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
		if (c + 1 < n && before(sc->node, heap[c + 1], heap[c]))
			c++;
		if (!before(sc->node, heap[c], v))
			break;
		heap[i] = heap[c];
		sc->node[heap[i]].pos = i;
		i = c;
	}
	heap[i] = v;
	sc->node[v].pos = i;
	return top;
}

static void push(struct twz_scratch *sc, uint32_t v)
{
	sc->heap[sc->heap_len] = v;
	sc->heap_len++;
	sift_up(sc, sc->heap_len - 1);
}

/* ---- the search --------------------------------------------------------- */

/* The path the search found, from its parents, into buf. */
static twz_status hand_back(const struct twz_scratch *sc, twz_node s,
			    twz_node t, twz_node *buf, size_t cap, size_t *len,
			    uint32_t *straight, uint32_t *diagonal)
{
	const struct twz_scratch_node *nd = sc->node;
	size_t n = 1;

	for (twz_node x = t; x != s; x = nd[x].parent)
		n++;
	size_t i = n;
	for (twz_node x = t;; x = nd[x].parent) {
		i--;
		if (i < cap)
			buf[i] = x;
		if (x == s)
			break;
	}
	*len = n;
	if (straight)
		*straight = nd[t].g.s;
	if (diagonal)
		*diagonal = nd[t].g.d;
	return n > cap ? TWZ_E_BUFFER_TOO_SMALL : TWZ_OK;
}

/* ---- stopping early: a node whose static path is still clear ---------- */

/* Whether the move a -> b (neighbours) cuts the corner of a closed cell. */
static int cuts_closed(const twz_db *db, const twz_closed *cl, twz_node a,
		       twz_node b)
{
	uint32_t ax, ay, bx, by;

	twz__node_xy(db, a, &ax, &ay);
	twz__node_xy(db, b, &bx, &by);
	if (ax == bx || ay == by)
		return 0;
	unsigned m = twz_direction_move(TWZ_SYMBOL_TOWARD,
					(int32_t)bx - (int32_t)ax,
					(int32_t)by - (int32_t)ay);
	return twz__corner_closed(db, cl, (size_t)ay * db->c.width + ax, m);
}

/* The static path p[0 .. n) to t: which of its nodes still have a clear
 * way to t, and which not. */
static void clear_seed(const twz_db *db, struct twz_scratch *sc,
		       const twz_closed *cl, const twz_node *p, size_t n)
{
	const uint32_t yes = 2 * sc->generation, no = yes + 1;
	int clear = 1;

	for (size_t i = n; i-- > 0; ) {
		if (i + 1 < n && cuts_closed(db, cl, p[i], p[i + 1]))
			clear = 0;
		if (twz__is_closed(cl, p[i]))
			clear = 0;
		sc->node[p[i]].clear = clear ? yes : no;
	}
}

/*
 * Whether u's static path to t passes no closed cell and cuts no closed
 * corner, following first moves until a node whose answer this search
 * knows (the static path's were seeded). Every node followed learns the
 * answer, so the search's checks cost a move or two each.
 */
static int static_clear(const twz_db *db, struct twz_scratch *sc,
			const twz_closed *cl, const struct twz_span *r,
			twz_node u, twz_node t)
{
	struct twz_scratch_node *nd = sc->node;
	const uint32_t yes = 2 * sc->generation, no = yes + 1;
	uint32_t k = 0;
	int res;

	for (twz_node x = u;; ) {
		if (x == t || nd[x].clear == yes) {
			res = 1;
			break;
		}
		if (nd[x].clear == no) {
			res = 0;
			break;
		}
		if (twz__is_closed(cl, x)) {
			nd[x].clear = no;
			res = 0;
			break;
		}
		if (k == sc->node_count)
			return 0;  /* a cycle: a crafted file */
		twz_node y = db->backend->next(db, x, t, r);
		if (y == TWZ_NONE)
			return 0;
		sc->stack[k++] = x;
		if (cuts_closed(db, cl, x, y)) {
			res = 0;
			break;
		}
		x = y;
	}
	while (k)
		nd[sc->stack[--k]].clear = res ? yes : no;
	return res;
}

/* The answer through u, whose static path is clear: the search's path to
 * u, then the database's from u. */
static twz_status hand_back_via(const twz_db *db, struct twz_scratch *sc,
				const struct twz_span *r, twz_node s,
				twz_node u, twz_node t, twz_node *buf,
				size_t cap, size_t *len, uint32_t *straight,
				uint32_t *diagonal)
{
	const struct twz_scratch_node *nd = sc->node;
	size_t head = 1, tail = 0;
	uint32_t ts = 0, td = 0;

	twz_status st = db->backend->walk(db, u, t, r, sc->stack,
					  (size_t)sc->node_count + 1, &tail,
					  &ts, &td);
	if (st != TWZ_OK)
		return st == TWZ_E_BUFFER_TOO_SMALL ? TWZ_E_DAMAGED : st;
	for (twz_node x = u; x != s; x = nd[x].parent)
		head++;
	size_t n = head + tail - 1, i = head;
	for (twz_node x = u;; x = nd[x].parent) {
		i--;
		if (i < cap)
			buf[i] = x;
		if (x == s)
			break;
	}
	for (size_t j = 1; j < tail && head + j - 1 < cap; j++)
		buf[head + j - 1] = sc->stack[j];
	*len = n;
	if (straight)
		*straight = nd[u].g.s + ts;
	if (diagonal)
		*diagonal = nd[u].g.d + td;
	return n > cap ? TWZ_E_BUFFER_TOO_SMALL : TWZ_OK;
}

/* A lower bound of the static cost from (x, y) to (tx, ty): the cost on
 * open ground. */
static inline struct twz__cost lower_bound(const twz_db *db, uint32_t x,
					   uint32_t y, uint32_t tx, uint32_t ty)
{
	struct twz__cost c;

	twz_transit_reference(db->c.connectivity, x > tx ? x - tx : tx - x,
			      y > ty ? y - ty : ty - y, &c.s, &c.d);
	return c;
}

/*
 * The A*. On a TRANSIT file a static cost is a scan over pairs of
 * transit nodes, dear enough to put off: a node not in the memo enters
 * the open list keyed with the open-ground lower bound, its exact cost is
 * looked up only when it comes to the top, and it goes back in when its
 * key rose. A node is thus expanded only with its exact key, no greater
 * than any other's exact key, as with exact costs throughout, while the
 * nodes the bound already keeps off the path never cost a lookup. (On a
 * CPD file a lookup is a first move or two, and putting it off saves
 * less than it costs.)
 */
static twz_status astar(const twz_db *db, struct twz_scratch *sc,
			const twz_closed *cl, const struct twz_span *r,
			twz_node s, twz_node t, const twz_node *path,
			size_t path_len, twz_node *buf, size_t cap,
			size_t *len, uint32_t *straight, uint32_t *diagonal)
{
	struct twz_scratch_node *nd = sc->node;
	const uint32_t hg = sc->h_generation;
	const int lazy = db->c.method == TWZ_METHOD_TRANSIT;
	uint32_t tx, ty;
	twz_status st;

	twz__scratch_begin(sc);
	const uint32_t open = twz__open_stamp(sc), done = twz__done_stamp(sc);
	if (!lazy)
		clear_seed(db, sc, cl, path, path_len);
	twz__node_xy(db, t, &tx, &ty);
	if ((st = heuristic(db, sc, r, s, t)) != TWZ_OK)
		return st;
	nd[s].g = (struct twz__cost){ 0, 0 };
	nd[s].parent = TWZ_NONE;
	nd[s].stamp = open;
	sc->heap_len = 0;
	push(sc, s);
	while (sc->heap_len) {
		twz_node u = pop(sc);
		if (nd[u].h_stamp != hg) {
			/* Keyed with its lower bound (lazy). */
			struct twz__cost lb = nd[u].u.h;
			if ((st = heuristic(db, sc, r, u, t)) != TWZ_OK)
				return st;
			if (nd[u].u.h.s != lb.s || nd[u].u.h.d != lb.d) {
				push(sc, u);
				continue;
			}
		}
		nd[u].stamp = done;
		if (u == t)
			return hand_back(sc, s, t, buf, cap, len, straight,
					 diagonal);
		/* u's key is the least: when u's static path is clear, the
		 * path through it costs that key, which no other can beat.
		 * (CPD only: a CPD walk is its first moves, so the path
		 * handed back is the one checked; a TRANSIT walk goes by
		 * waypoints, and its first moves scan pairs.) */
		if (!lazy && static_clear(db, sc, cl, r, u, t))
			return hand_back_via(db, sc, r, s, u, t, buf, cap, len,
					     straight, diagonal);
		sc->expanded++;
		uint32_t ux, uy;
		twz__node_xy(db, u, &ux, &uy);
		size_t cell = (size_t)uy * db->c.width + ux;
		unsigned moves = sc->moves[u];
		for (unsigned m = 0; moves; m++, moves >>= 1) {
			if (!(moves & 1))
				continue;
			twz_node v = twz__move_node(db, cell, m);
			if (nd[v].stamp == done)
				continue;
			if (nd[v].stamp != open && twz__is_closed(cl, v)) {
				nd[v].stamp = done;  /* never asked again */
				continue;
			}
			int diag = twz_move_is_diagonal(m);
			if (diag && twz__corner_closed(db, cl, cell, m))
				continue;
			struct twz__cost g = nd[u].g;
			if (diag)
				g.d++;
			else
				g.s++;
			if (nd[v].stamp != open) {
				if (lazy && nd[v].h_stamp != hg)
					nd[v].u.h = lower_bound(db,
						ux + twz_move_dx[m],
						uy + twz_move_dy[m], tx, ty);
				else if ((st = heuristic(db, sc, r, v, t)) != TWZ_OK)
					return st;
				nd[v].g = g;
				nd[v].parent = u;
				nd[v].stamp = open;
				push(sc, v);
			} else if (twz__cost_less(g.s, g.d, nd[v].g.s, nd[v].g.d)) {
				nd[v].g = g;
				nd[v].parent = u;
				sift_up(sc, nd[v].pos);
			}
		}
	}
	return TWZ_E_UNREACHABLE;
}

/* Whether the path p[0 .. n) passes no closed cell and cuts no closed
 * corner (p[0] was checked). */
static int path_clear(const twz_db *db, const twz_closed *cl,
		      const twz_node *p, size_t n)
{
	uint32_t px, py;

	twz__node_xy(db, p[0], &px, &py);
	for (size_t i = 1; i < n; i++) {
		uint32_t x, y;
		if (twz__is_closed(cl, p[i]))
			return 0;
		twz__node_xy(db, p[i], &x, &y);
		if (x != px && y != py) {
			unsigned m = twz_direction_move(TWZ_SYMBOL_TOWARD,
							(int32_t)x - (int32_t)px,
							(int32_t)y - (int32_t)py);
			if (twz__corner_closed(db, cl,
					       (size_t)py * db->c.width + px, m))
				return 0;
		}
		px = x;
		py = y;
	}
	return 1;
}

twz_status twz_path_closed(const twz_db *db, twz_scratch *sc,
			   const twz_closed *closed, twz_node s, twz_node t,
			   twz_node *buf, size_t cap, size_t *len,
			   uint32_t *straight, uint32_t *diagonal)
{
	struct twz_span r;
	size_t n = 0;
	uint32_t ps = 0, pd = 0;

	if (len)
		*len = 0;
	if (!len || (!buf && cap) || !twz__scratch_fits(sc, db) ||
	    s >= db->c.node_count || t >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	sc->expanded = 0;
	twz__span_of(db, s, &r);
	if (!twz__in_span(db, &r, t) || twz__is_closed(closed, s) ||
	    twz__is_closed(closed, t))
		return TWZ_E_UNREACHABLE;
	/* The static path, into the scratch (it holds any path). */
	twz_status st = db->backend->walk(db, s, t, &r, sc->stack,
					  (size_t)sc->node_count + 1, &n, &ps,
					  &pd);
	if (st != TWZ_OK)
		return st == TWZ_E_BUFFER_TOO_SMALL ? TWZ_E_DAMAGED : st;
	if (!closed || (!closed->bits && !closed->blocked) ||
	    path_clear(db, closed, sc->stack, n)) {
		for (size_t i = 0; i < n && i < cap; i++)
			buf[i] = sc->stack[i];
		*len = n;
		if (straight)
			*straight = ps;
		if (diagonal)
			*diagonal = pd;
		return n > cap ? TWZ_E_BUFFER_TOO_SMALL : TWZ_OK;
	}
	heuristic_target(sc, t);
	heuristic_seed(db, sc, sc->stack, n);
	return astar(db, sc, closed, &r, s, t, sc->stack, n, buf, cap, len,
		     straight, diagonal);
}
