/*
 * twz_scratch.h - the per-thread search state of twigz.h's twz_scratch:
 * per-node records stamped with a search generation (so nothing is
 * cleared between searches), one indexed heap, a node stack, what the
 * level kind's geometry made at create (a grid's static moves, a
 * graph's reverse arcs), and the state of the one search under way (a
 * path search, twz_search.c, or a field from a target, twz_field.c).
 * Everything is allocated at create.
 */
#ifndef TWZ_SCRATCH_H
#define TWZ_SCRATCH_H

#include "twz_geometry.h"

#include <string.h>

struct twz_scratch_node {
	struct twz__cost g;    /* path search: from s; field: to t */
	double key;            /* the heap key's value (twz__key below), set
				* whenever g or what the key adds changes:
				* it orders all but near-equal keys */
	uint32_t parent;       /* path search: node reached from; field: the
				* next node toward t */
	uint32_t stamp;        /* 2 * generation: open, + 1: settled */
	uint32_t pos;          /* heap slot; field in buckets: the next node
				* of its bucket */
	union {
		struct {
			struct twz__cost h;  /* the static cost to h_target
					      * (lazily, a lower bound until
					      * h_stamp says it is exact) */
			struct twz__cost hk; /* what the heap key adds to g:
					      * h, or with a landmark
					      * max(h + C, d(v, L)) */
			uint32_t h_stamp;    /* h_generation: h is exact */
			uint32_t clear;      /* 2 * generation: the static
					      * path from here is open, + 1:
					      * it is not */
		} path;
		struct {
			uint32_t link;       /* in buckets: the previous node
					      * of its bucket */
			uint32_t want;       /* generation: a node the caller
					      * waits for */
		} field;
	} u;
};

/* Landmarks a scratch may borrow. */
#define TWZ__MAX_LANDMARKS 8

/* What a scratch is doing. */
enum twz__mode {
	TWZ__IDLE = 0,
	TWZ__PATH,             /* a path search from s to t */
	TWZ__FIELD,            /* a field toward t */
};

struct twz_scratch {
	const struct twz_db *db;
	const struct twz_geometry *geo;
	uint32_t node_count;
	uint32_t generation;   /* of the search under way */
	uint32_t h_generation; /* of the heuristic memo, for h_target */
	twz_node h_target;     /* TWZ_NONE: no memo */
	uint64_t expanded;     /* nodes the search under way expanded */
	struct twz_scratch_node *node;  /* [node_count] */
	uint32_t *heap;        /* [node_count] */
	uint32_t heap_len;
	uint32_t *stack;       /* [node_count + 1]: paths, chains */
	/* Grids (twz_geometry_grid.c): */
	uint8_t *moves;        /* [node_count]: static legal moves, a bit each */
	/* Graphs (twz_geometry_graph.c): the arcs into each node. */
	uint32_t *in_first;    /* [node_count + 1] */
	uint32_t *in_tail;     /* [arcs]: the arc's tail */
	uint32_t *in_arc;      /* [arcs]: the arc, by its index in the file */
	/* A field's open list as a ring of buckets of cost (Dial's), when
	 * the geometry's arcs all cost from ring_width to less than
	 * (ring_size - 1) ring_width: a node of cost c goes to bucket
	 * floor(c / ring_width), and a bucket's nodes may be settled in any
	 * order. ring_size 0: the heap. */
	uint64_t ring_width;
	uint32_t ring_size;    /* a power of two */
	uint32_t *ring;        /* [ring_size]: each bucket's first node */
	uint64_t ring_at;      /* the bucket being settled */
	uint64_t ring_queued;  /* nodes in the ring */
	/* Landmarks the caller lent (twz_search_landmarks): complete fields
	 * toward nodes L_i, so d(v, t) >= d(v, L_i) - d(t, L_i) on the level
	 * as their filter leaves it. A search uses those t reaches (lm): with
	 * C the largest of the C_i = d(t, L_i), part by part, keys hold
	 * g + max(h + C, max_i d(v, L_i) + (C - C_i)), the true key plus C
	 * for every node alike, in whole parts. */
	const struct twz_scratch *landmark[TWZ__MAX_LANDMARKS];
	unsigned landmark_count;
	const struct twz_scratch *lm[TWZ__MAX_LANDMARKS];
	struct twz__cost lm_off[TWZ__MAX_LANDMARKS];   /* C - C_i */
	unsigned lm_count;
	struct twz__cost lm_c;
	/* The search under way. */
	enum twz__mode mode;
	twz_status state;      /* TWZ_IN_PROGRESS, or how it ended */
	struct twz__filter filter;
	twz_closed closed;     /* the filter's closed nodes, copied */
	twz_node s, t;
	struct twz_span region;  /* s's (path) or t's (field) region */
	uint64_t limit;        /* expansions allowed in all, UINT64_MAX: no
				* limit */
	int lazy;              /* keys start as lower bounds (TRANSIT) */
	int early;             /* stop at a node whose static path is open */
	int goal_h;            /* the goal is in s's region: keys hold h */
	twz_node via;          /* the answer: the search's path to via,
				* then the database's from via to t */
	size_t static_len;     /* the database's path from s, in stack: its
				* length (0: none) */
	twz_node best;         /* the settled node nearest the goal */
	struct twz__cost best_h;
	double best_d2;        /* its distance to the goal, when !goal_h */
	double goal_pos[3];    /* the goal's position, when !goal_h */
	int has_goal_pos;
	size_t wanted_left;    /* field: wanted nodes not settled yet */
	int complete;          /* field: every node that reaches t settled */
};

/* Start a search: a fresh generation, whose stamps no node holds yet. */
static inline void twz__scratch_begin(struct twz_scratch *sc)
{
	if (sc->generation >= 0x7FFFFFFEu) {
		/* Every stamp goes; so does the memo (the union shares it). */
		for (uint32_t i = 0; i < sc->node_count; i++) {
			sc->node[i].stamp = 0;
			memset(&sc->node[i].u, 0, sizeof sc->node[i].u);
		}
		sc->generation = 0;
		sc->h_generation = 0;
		sc->h_target = TWZ_NONE;
	}
	sc->generation++;
	sc->expanded = 0;
	sc->heap_len = 0;
}

/* A geometry whose arcs cost from lo to hi (lo > 0) lets fields use the
 * ring of buckets when the spread is small; otherwise they use the heap. */
static inline void twz__ring_fit(struct twz_scratch *sc, uint64_t lo,
				 uint64_t hi)
{
	sc->ring_size = 0;
	if (lo && hi / lo < 4096) {
		sc->ring_width = lo;
		sc->ring_size = 4;
		while (sc->ring_size < hi / lo + 2)
			sc->ring_size *= 2;
	}
}

static inline uint32_t twz__open_stamp(const struct twz_scratch *sc)
{
	return 2 * sc->generation;
}

static inline uint32_t twz__done_stamp(const struct twz_scratch *sc)
{
	return 2 * sc->generation + 1;
}

/* Check a scratch against the database a call names. */
static inline int twz__scratch_fits(const struct twz_scratch *sc,
				    const struct twz_db *db)
{
	return sc && db && sc->db == db;
}

/* The scratch's copy of a resolved filter: its closed nodes point into
 * the scratch, so a caller's twz_closed may go once the call returns. */
static inline void twz__scratch_filter(struct twz_scratch *sc,
				       const struct twz__filter *f)
{
	sc->filter = *f;
	if (f->closed) {
		sc->closed = *f->closed;
		sc->filter.closed = &sc->closed;
	}
}

/* ---- the open list: a binary heap of nodes indexed by node ---------------- */

/* A node's key in the heap: g + h in a path search, g in a field. (A
 * node in the open list has a finite h, so the sum needs no care.) */
static inline struct twz__cost twz__key(const struct twz_scratch *sc,
					const struct twz_scratch_node *x)
{
	struct twz__cost k = x->g;

	if (sc->mode == TWZ__PATH) {
		k.a += x->u.path.hk.a;
		k.b += x->u.path.hk.b;
	}
	return k;
}

/* Set x's key value after its g or its h changed. */
static inline void twz__key_set(const struct twz_scratch *sc,
				struct twz_scratch_node *x)
{
	x->key = twz__cost_value(twz__key(sc, x));
}

/* Lower key first; on equal keys the deeper node (larger g: it follows
 * the static path while that is open), then the lower id. The stored
 * values settle all but near-equal keys; those are compared exactly. */
static inline int twz__heap_before(const struct twz_scratch *sc, uint32_t a,
				   uint32_t b)
{
	const struct twz_scratch_node *x = &sc->node[a], *y = &sc->node[b];
	double margin = 1e-9 * (x->key + y->key);

	if (x->key < y->key - margin)
		return 1;
	if (x->key > y->key + margin)
		return 0;
	struct twz__cost kx = twz__key(sc, x), ky = twz__key(sc, y);
	if (!twz__cost_eq(kx, ky))
		return twz__cost_less(kx, ky);
	if (!twz__cost_eq(x->g, y->g))
		return twz__cost_less(y->g, x->g);
	return a < b;
}

/* ---- a grid's arcs, inline for the searches' loops ----------------------- */

/* The arcs of grid node n that f lets an agent take (twz_geometry.h's
 * arcs hook for grids, written here so the searches' inner loops inline
 * it): its legal moves (the scratch's bits) onto unblocked nodes, a
 * diagonal only past two unblocked nodes; moves are symmetric, so the
 * arcs into n are the same. */
static inline unsigned twz__grid_arcs(const struct twz_db *db,
				      const struct twz_scratch *sc,
				      const struct twz__filter *f, twz_node n,
				      int reverse, uint32_t *cursor,
				      struct twz__arc *out)
{
	static const struct twz__cost straight = { 1, 0 }, diagonal = { 0, 1 };
	uint32_t x, y;
	unsigned k = 0;

	(void)reverse;
	if (*cursor)
		return 0;
	*cursor = 1;
	twz__node_xy(db, n, &x, &y);
	int64_t cell = (int64_t)y * db->c.width + x;
	unsigned moves = sc->moves[n];
	for (unsigned m = 0; moves; m++, moves >>= 1) {
		if (!(moves & 1))
			continue;
		twz_node v = twz__cell_node(db, (size_t)(cell + db->move_offset[m]));
		if (twz__blocked(f, v))
			continue;
		int diag = twz_move_is_diagonal(m);
		if (diag && f->any &&
		    (twz__blocked(f, twz__cell_node(db, (size_t)(cell + db->move_offset[
			     twz_diagonal_side_x(m)]))) ||
		     twz__blocked(f, twz__cell_node(db, (size_t)(cell + db->move_offset[
			     twz_diagonal_side_y(m)])))))
			continue;
		out[k].head = v;
		if (db->node_milli) {
			/* Half the move in each cell, by its cost. */
			uint64_t units = (uint64_t)db->node_milli[n] + db->node_milli[v];
			out[k].cost.a = diag ? 0 : units;
			out[k].cost.b = diag ? units : 0;
		} else {
			out[k].cost = diag ? diagonal : straight;
		}
		k++;
	}
	return k;
}

/* The arcs hook of sc's geometry, the grid's inline. */
static inline unsigned twz__arcs(const struct twz_scratch *sc,
				 const struct twz__filter *f, twz_node n,
				 int reverse, uint32_t *cursor,
				 struct twz__arc *out)
{
	if (sc->moves)
		return twz__grid_arcs(sc->db, sc, f, n, reverse, cursor, out);
	return sc->geo->arcs(sc->db, sc, f, n, reverse, cursor, out);
}

/* Relax the arcs out of settled node u (reverse: into it), as every
 * search here does: a node reached for the first time is opened by
 * open(), one reached more cheaply is lowered by lower(). The searches
 * pass their own two (constants at each call, so each inlines its own
 * copy). A status open() returns other than TWZ_OK stops it. */
static inline twz_status twz__relax(struct twz_scratch *sc, twz_node u,
				    int reverse,
				    twz_status (*open)(struct twz_scratch *sc,
						       twz_node v, twz_node u,
						       struct twz__cost g),
				    void (*lower)(struct twz_scratch *sc,
						  twz_node v, twz_node u,
						  struct twz__cost g))
{
	struct twz_scratch_node *nd = sc->node;
	const uint32_t opened = twz__open_stamp(sc), done = twz__done_stamp(sc);
	struct twz__arc arcs[TWZ__ARC_BATCH];
	uint32_t cursor = 0;
	unsigned count;

	while ((count = twz__arcs(sc, &sc->filter, u, reverse, &cursor, arcs)) != 0)
		for (unsigned i = 0; i < count; i++) {
			twz_node v = arcs[i].head;
			if (nd[v].stamp == done)
				continue;
			struct twz__cost g = twz__cost_add(nd[u].g, arcs[i].cost);
			if (nd[v].stamp != opened) {
				twz_status st = open(sc, v, u, g);
				if (st != TWZ_OK)
					return st;
			} else if (twz__cost_less(g, nd[v].g)) {
				lower(sc, v, u, g);
			}
		}
	return TWZ_OK;
}

void twz__heap_push(struct twz_scratch *sc, uint32_t v);
void twz__heap_raise(struct twz_scratch *sc, uint32_t v);  /* v's key fell */
uint32_t twz__heap_pop(struct twz_scratch *sc);

#endif /* TWZ_SCRATCH_H */
