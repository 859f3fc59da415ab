/*
 * twz_geometry.h - the level as nodes and arcs, for the searches that
 * run at query time (twz_search.c, twz_field.c), nearest places
 * (twz_nearest.c) and smoothing (twz_smooth.c), which are written once
 * over it. What differs by level kind is a small table of hooks, chosen
 * at open: the arcs a filter lets an agent take from a node (cells and
 * their moves, or a graph's stored arcs), a node's position, line of
 * sight, and the cost of the database's own steps.
 *
 * A filter (struct twz__filter) is what one query may use of the level
 * right now: the places a twz_world shuts (widened to this database's
 * agent size), the caller's closed nodes, and the areas the agent
 * excludes. It only ever takes arcs away, so the database's static costs
 * stay exact lower bounds of the costs under any filter.
 */
#ifndef TWZ_GEOMETRY_H
#define TWZ_GEOMETRY_H

#include "twz_backend.h"
#include "twz_cost.h"

struct twz_scratch;

/* A public twz_filter resolved for one database. */
struct twz__filter {
	const uint16_t *shut;          /* the world's count of shut places
					* under each node, or NULL */
	const uint8_t *shut_links;     /* the world's shut off-mesh links, a
					* bit a link number, or NULL */
	const twz_closed *closed;      /* the caller's closed nodes, or NULL */
	uint64_t exclude;              /* areas the agent never enters */
	const uint64_t *areas;         /* each node's areas, a bit each (its
					* footprint's cells), or NULL */
	int any;                       /* whether any of the above takes
					* anything away */
	const void *world;             /* what it was made from, to tell two */
	uint64_t world_version;        /* filters of one level state apart */
};

/* Whether two resolved filters leave the level alike (the same world in
 * the same state, the same closed nodes and areas). */
static inline int twz__filter_same(const struct twz__filter *a,
				   const struct twz__filter *b)
{
	const twz_closed *x = a->closed, *y = b->closed;

	if (a->world != b->world || a->world_version != b->world_version ||
	    a->exclude != b->exclude || !x != !y)
		return 0;
	return !x || (x->bits == y->bits && x->blocked == y->blocked &&
		      x->ctx == y->ctx);
}

/* Whether node n is shut, closed or in an excluded area. */
static inline int twz__blocked(const struct twz__filter *f, twz_node n)
{
	if (!f->any)
		return 0;
	if (f->shut && f->shut[n])
		return 1;
	if (f->areas && (f->areas[n] & f->exclude))
		return 1;
	if (f->closed) {
		const twz_closed *cl = f->closed;
		if (cl->bits && (cl->bits[n >> 3] >> (n & 7) & 1))
			return 1;
		if (cl->blocked && cl->blocked(cl->ctx, n))
			return 1;
	}
	return 0;
}

/* Whether off-mesh link number k is shut. */
static inline int twz__link_shut(const struct twz__filter *f, uint32_t k)
{
	return f->shut_links && (f->shut_links[k >> 3] >> (k & 7) & 1);
}

/* Resolve filter (NULL: the static level) for db: TWZ_E_ARGUMENT when
 * its world belongs to another file or a reserved field is set. */
twz_status twz__filter_make(const struct twz_db *db, const twz_filter *filter,
			    struct twz__filter *out);

/* The arguments of a call given a path: db, its nodes valid, and the
 * filter resolved into f. */
static inline twz_status twz__path_args(const struct twz_db *db,
					const twz_filter *filter,
					const twz_node *path, size_t len,
					struct twz__filter *f)
{
	if (!db || (!path && len))
		return TWZ_E_ARGUMENT;
	for (size_t i = 0; i < len; i++)
		if (path[i] >= db->c.node_count)
			return TWZ_E_ARGUMENT;
	return twz__filter_make(db, filter, f);
}

/* The filter of a plain twz_closed (legacy calls). */
static inline void twz__filter_closed(const twz_closed *closed,
				      struct twz__filter *out)
{
	out->shut = NULL;
	out->shut_links = NULL;
	out->closed = closed;
	out->exclude = 0;
	out->areas = NULL;
	out->any = closed && (closed->bits || closed->blocked);
	out->world = NULL;
	out->world_version = 0;
}

/* One arc: its head and its exact cost. */
struct twz__arc {
	twz_node head;
	struct twz__cost cost;
};

/* Arcs a hook hands over at a time. */
#define TWZ__ARC_BATCH 16

struct twz_geometry {
	/* The arcs out of n (reverse: into n) that f lets an agent take,
	 * from *cursor on (0 at first): fills at most TWZ__ARC_BATCH of out,
	 * advances *cursor and returns how many; 0 once none are left.
	 * sc holds what the hook made at twz_scratch_create. */
	unsigned (*arcs)(const struct twz_db *db, const struct twz_scratch *sc,
			 const struct twz__filter *f, twz_node n, int reverse,
			 uint32_t *cursor, struct twz__arc *out);
	/* The database's own step x -> y (adjacent): whether f lets an
	 * agent take it, and its static cost into *cost. */
	int (*step)(const struct twz_db *db, const struct twz__filter *f,
		    twz_node x, twz_node y, struct twz__cost *cost);
	/* A cost no path from x to t undercuts (the static cost or less):
	 * what a search keys a node with before asking the database. */
	struct twz__cost (*lower_bound)(const struct twz_db *db, twz_node x,
					twz_node t);
	/* Node n's position in world units: 0, or -1 when the level gives
	 * its nodes none (a graph without coordinates). */
	int (*position)(const struct twz_db *db, twz_node n, double pos[3]);
	/* Whether an agent goes straight from a to b (both valid) without
	 * touching anything f takes away. */
	int (*sight)(const struct twz_db *db, const struct twz__filter *f,
		     twz_node a, twz_node b);
	/* What scratch create makes for this kind, and frees. */
	twz_status (*scratch_init)(const struct twz_db *db, struct twz_scratch *sc);
	void (*scratch_fini)(struct twz_scratch *sc);
};

extern const struct twz_geometry twz_geometry_grid;   /* twz_geometry_grid.c */
extern const struct twz_geometry twz_geometry_graph;  /* twz_geometry_graph.c */

/* The geometry of db's level kind. */
static inline const struct twz_geometry *twz__geometry(const struct twz_db *db)
{
	return twz__is_graph(db) ? &twz_geometry_graph : &twz_geometry_grid;
}

/* s's region, for the back end's hooks (grids; graphs find their own). */
static inline void twz__region_of(const struct twz_db *db, twz_node s,
				  struct twz_span *r)
{
	if (twz__is_graph(db)) {
		r->lo = r->len = 0;
		r->id = twz__graph_region(db, s);
	} else {
		twz__span_of(db, s, r);
	}
}

/* Whether t lies in the region r of twz__region_of. */
static inline int twz__in_region(const struct twz_db *db,
				 const struct twz_span *r, twz_node t)
{
	if (twz__is_graph(db))
		return twz__graph_region(db, t) == r->id;
	return twz__in_span(db, r, t);
}

/* The agent size db answers for (1 without agent sizes). */
static inline unsigned twz__agent_size(const struct twz_db *db)
{
	return db->agent_size ? db->agent_size : 1;
}

#endif /* TWZ_GEOMETRY_H */
