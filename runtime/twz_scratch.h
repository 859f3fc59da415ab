/*
 * twz_scratch.h - the per-thread search state of twigz.h's twz_scratch,
 * shared by the closed-cells A* (twz_closed.c) and the live flow field
 * (twz_live_flow.c): per-node records stamped with a search generation
 * (so nothing is cleared between searches), an indexed heap, a node stack
 * and every node's static moves. Everything is allocated at create.
 */
#ifndef TWZ_SCRATCH_H
#define TWZ_SCRATCH_H

#include "twz_backend.h"

/* An exact cost, straight + diagonal * sqrt(2). */
struct twz__cost {
	uint32_t s;
	uint32_t d;
};

/* a < b exactly: a.s + a.d sqrt2 < b.s + b.d sqrt2. */
static inline int twz__cost_less(uint32_t as, uint32_t ad, uint32_t bs,
				 uint32_t bd)
{
	int64_t ds = (int64_t)as - bs;  /* a < b iff ds < dd * sqrt2 */
	int64_t dd = (int64_t)bd - ad;

	if (ds < 0 && dd >= 0)
		return 1;
	if (ds >= 0 && dd <= 0)
		return 0;
	if (ds >= 0)
		return ds * ds < 2 * dd * dd;
	return ds * ds > 2 * dd * dd;
}

struct twz_scratch_node {
	struct twz__cost g;    /* A*: from s; flow: to t */
	union {
		struct twz__cost h; /* A*: the static cost to the target */
		uint32_t prev;      /* flow: previous node in its bucket */
	} u;
	uint32_t parent;       /* A*: node reached from */
	uint32_t stamp;        /* 2 * generation: open, + 1: closed/settled */
	uint32_t h_stamp;      /* h_generation: u.h is valid */
	uint32_t pos;          /* A*: heap slot; flow: next in its bucket */
	uint32_t clear;        /* A*: 2 * generation: the static path from
				* here is clear, + 1: it is not */
};

struct twz_scratch {
	const struct twz_db *db;
	uint32_t node_count;
	uint32_t generation;   /* of the search under way */
	uint32_t h_generation; /* of the heuristic memo, for h_target */
	twz_node h_target;     /* TWZ_NONE: no memo */
	uint64_t expanded;
	struct twz_scratch_node *node; /* [node_count] */
	uint32_t *heap;        /* [node_count] */
	uint32_t heap_len;
	uint32_t *stack;       /* [node_count + 1]: paths, chains, queues */
	uint8_t *moves;        /* [node_count]: static legal moves, a bit each */
	uint32_t *diag_floor;  /* [node_count + 1], 8-connected levels:
				* floor(d * sqrt(2)) for d diagonal moves */
};

/* Start a search: a fresh generation, whose stamps no node holds yet. */
static inline void twz__scratch_begin(struct twz_scratch *sc)
{
	if (sc->generation >= 0x7FFFFFFEu) {
		for (uint32_t i = 0; i < sc->node_count; i++)
			sc->node[i].stamp = sc->node[i].clear = 0;
		sc->generation = 0;
	}
	sc->generation++;
	sc->expanded = 0;
}

static inline uint32_t twz__open_stamp(const struct twz_scratch *sc)
{
	return 2 * sc->generation;
}

static inline uint32_t twz__done_stamp(const struct twz_scratch *sc)
{
	return 2 * sc->generation + 1;
}

/* Whether node n is closed right now. */
static inline int twz__is_closed(const twz_closed *cl, twz_node n)
{
	if (!cl)
		return 0;
	if (cl->bits && (cl->bits[n >> 3] >> (n & 7) & 1))
		return 1;
	return cl->blocked && cl->blocked(cl->ctx, n);
}

/* The cell index of a valid node. */
static inline size_t twz__node_cell(const struct twz_db *db, twz_node n)
{
	uint32_t x, y;

	twz__node_xy(db, n, &x, &y);
	return (size_t)y * db->c.width + x;
}

/* The node move m leads to from cell (legal by sc->moves). */
static inline twz_node twz__move_node(const struct twz_db *db, size_t cell,
				      unsigned m)
{
	return twz__cell_node(db, (size_t)((int64_t)cell + db->move_offset[m]));
}

/* Whether diagonal m from cell passes a closed cell. */
static inline int twz__corner_closed(const struct twz_db *db,
				     const twz_closed *cl, size_t cell,
				     unsigned m)
{
	return twz__is_closed(cl, twz__move_node(db, cell,
						  twz_diagonal_side_x(m))) ||
	       twz__is_closed(cl, twz__move_node(db, cell,
						  twz_diagonal_side_y(m)));
}

/* Check a scratch against the database a call names. */
static inline int twz__scratch_fits(const struct twz_scratch *sc,
				    const struct twz_db *db)
{
	return sc && db && sc->db == db;
}

#endif /* TWZ_SCRATCH_H */
