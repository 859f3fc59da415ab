/*
 * twz_live_flow.c - twz_flow_field_live: a flow field searched on the
 * level as it is now, for a target whose rows no longer tell the truth
 * (cells closed at run time). The classic wavefront from the target,
 * reading only the grid: moves are symmetric (the corner rule asks the
 * same two cells both ways), so the node a node was reached from is its
 * next step toward t.
 *
 * 4-connected levels: breadth-first, every move costs 1, a FIFO holds
 * the frontier. 8-connected levels: Dijkstra over a ring of three
 * buckets, a cost c going to bucket floor(c) (exactly: straight +
 * floor(diagonal * sqrt(2))). Every move costs at least 1, so a node's
 * optimal predecessors are all in lower buckets: when a bucket comes up,
 * its nodes are final and may be settled in any order, and a move from
 * it lands one or two buckets on (at most 1 + sqrt(2) later). The
 * buckets are lists threaded through the scratch's node records, so a
 * node whose cost drops moves between them in O(1). No allocation, no
 * locks, no I/O.
 */
#include "twz_scratch.h"

#define RING 3

/* floor(c), c = s + d sqrt(2), exactly (d < node count: a path has fewer
 * moves than there are nodes). */
static inline uint32_t bucket_of(const struct twz_scratch *sc,
				 struct twz__cost c)
{
	return c.s + sc->diag_floor[c.d];
}

struct ring {
	uint32_t head[RING];
	uint64_t queued;
};

static inline void ring_insert(struct ring *rg, struct twz_scratch_node *nd,
			       uint32_t b, uint32_t v)
{
	uint32_t *head = &rg->head[b % RING];

	nd[v].u.prev = TWZ_NONE;
	nd[v].pos = *head;
	if (*head != TWZ_NONE)
		nd[*head].u.prev = v;
	*head = v;
	rg->queued++;
}

static inline void ring_unlink(struct ring *rg, struct twz_scratch_node *nd,
			       uint32_t b, uint32_t v)
{
	uint32_t p = nd[v].u.prev, q = nd[v].pos;

	if (p != TWZ_NONE)
		nd[p].pos = q;
	else
		rg->head[b % RING] = q;
	if (q != TWZ_NONE)
		nd[q].u.prev = p;
	rg->queued--;
}

static void sweep_octile(const twz_db *db, struct twz_scratch *sc,
			 const twz_closed *cl, twz_node t, twz_node *next)
{
	struct twz_scratch_node *nd = sc->node;
	const uint32_t open = twz__open_stamp(sc), done = twz__done_stamp(sc);
	struct ring rg = { { TWZ_NONE, TWZ_NONE, TWZ_NONE }, 0 };

	nd[t].g = (struct twz__cost){ 0, 0 };
	nd[t].stamp = open;
	ring_insert(&rg, nd, 0, t);
	for (uint32_t b = 0; rg.queued; b++) {
		uint32_t *head = &rg.head[b % RING];
		while (*head != TWZ_NONE) {
			twz_node u = *head;
			ring_unlink(&rg, nd, b, u);
			nd[u].stamp = done;
			sc->expanded++;
			size_t cell = twz__node_cell(db, u);
			unsigned moves = sc->moves[u];
			for (unsigned m = 0; moves; m++, moves >>= 1) {
				if (!(moves & 1))
					continue;
				twz_node v = twz__move_node(db, cell, m);
				if (nd[v].stamp == done)
					continue;
				if (nd[v].stamp != open &&
				    twz__is_closed(cl, v)) {
					nd[v].stamp = done;
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
					nd[v].g = g;
					nd[v].stamp = open;
					next[v] = u;
					ring_insert(&rg, nd, bucket_of(sc, g), v);
				} else if (twz__cost_less(g.s, g.d, nd[v].g.s,
							  nd[v].g.d)) {
					uint32_t ob = bucket_of(sc, nd[v].g);
					uint32_t nb = bucket_of(sc, g);
					nd[v].g = g;
					next[v] = u;
					if (ob != nb) {
						ring_unlink(&rg, nd, ob, v);
						ring_insert(&rg, nd, nb, v);
					}
				}
			}
		}
	}
}

static void sweep_uniform(const twz_db *db, struct twz_scratch *sc,
			  const twz_closed *cl, twz_node t, twz_node *next)
{
	struct twz_scratch_node *nd = sc->node;
	const uint32_t done = twz__done_stamp(sc);
	uint32_t *queue = sc->stack, head = 0, tail = 0;

	/* A node is marked when queued: its first discovery is final. */
	nd[t].stamp = done;
	queue[tail++] = t;
	while (head < tail) {
		twz_node u = queue[head++];
		size_t cell = twz__node_cell(db, u);
		unsigned moves = sc->moves[u];
		sc->expanded++;
		for (unsigned m = 0; moves; m++, moves >>= 1) {
			if (!(moves & 1))
				continue;
			twz_node v = twz__move_node(db, cell, m);
			if (nd[v].stamp == done)
				continue;
			nd[v].stamp = done;
			if (twz__is_closed(cl, v))
				continue;
			next[v] = u;
			queue[tail++] = v;
		}
	}
}

twz_status twz_flow_field_live(const twz_db *db, twz_scratch *sc,
			       const twz_closed *closed, twz_node t,
			       twz_node *next, size_t cap)
{
	if (!twz__scratch_fits(sc, db) || !next || t >= db->c.node_count ||
	    cap < db->c.node_count)
		return TWZ_E_ARGUMENT;
	for (uint32_t n = 0; n < db->c.node_count; n++)
		next[n] = TWZ_NONE;
	twz__scratch_begin(sc);
	sc->h_target = TWZ_NONE;  /* the bucket links overwrite the memo */
	if (twz__is_closed(closed, t))
		return TWZ_OK;
	next[t] = t;
	if (db->c.connectivity == 4)
		sweep_uniform(db, sc, closed, t, next);
	else
		sweep_octile(db, sc, closed, t, next);
	return TWZ_OK;
}
