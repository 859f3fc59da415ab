/*
 * twz_backend.h - what a query method gives the runtime: one table of
 * hooks, chosen once at open from the file's method (twz_open.c), through
 * which twz_api.c dispatches each public call after checking its
 * arguments and regions. twz_cpd.c and twz_transit.c each define one.
 */
#ifndef TWZ_BACKEND_H
#define TWZ_BACKEND_H

#include "twz_db.h"

struct twz_backend {
	/* After validation: derive what the queries read (directories,
	 * decoded tables). */
	twz_status (*init)(struct twz_db *db);
	/* Free what init made, also after a failed init. */
	void (*fini)(struct twz_db *db);
	/* The next node from s toward t: s, t valid and distinct, both in
	 * s's region r. TWZ_NONE when the file is damaged. */
	twz_node (*next)(const struct twz_db *db, twz_node s, twz_node t,
			 const struct twz_span *r);
	/*
	 * Walk s -> t (valid, both in s's region r; s == t allowed): fills at
	 * most cap nodes of buf, the full node count in *len, the moves in
	 * *straight and *diagonal (each may be NULL). With len NULL only the
	 * cost is wanted. TWZ_E_BUFFER_TOO_SMALL when the path exceeds cap,
	 * TWZ_E_DAMAGED when the walk fails.
	 */
	twz_status (*walk)(const struct twz_db *db, twz_node s, twz_node t,
			   const struct twz_span *r, twz_node *buf, size_t cap,
			   size_t *len, uint32_t *straight, uint32_t *diagonal);
	/* next[n] for every node n toward t (valid, in region r): t for t,
	 * TWZ_NONE outside r. */
	void (*flow_field)(const struct twz_db *db, twz_node t,
			   const struct twz_span *r, twz_node *next);
};

extern const struct twz_backend twz_backend_cpd;
extern const struct twz_backend twz_backend_transit;
extern const struct twz_backend twz_backend_junctions;
extern const struct twz_backend twz_backend_graph;  /* twz_graph.c */

/* ---- what the back ends share ------------------------------------------ */

/* Whether the cell (x, y) is on the grid and holds a node (ctx is the
 * database): the question twz_move_legal asks. */
static inline int twz__walkable(const void *ctx, int64_t x, int64_t y)
{
	const struct twz_db *db = ctx;

	if (x < 0 || y < 0 || x >= db->c.width || y >= db->c.height)
		return 0;
	return twz__cell_node(db, (size_t)y * db->c.width + (size_t)x) != TWZ_NONE;
}

/* The legal moves from cell (x, y) of db's grid, a bit each. */
static inline unsigned twz__legal_moves(const struct twz_db *db, uint32_t x,
					uint32_t y)
{
	unsigned bits = 0;

	for (unsigned m = 0; m < db->c.connectivity; m++)
		if (twz_move_legal(twz__walkable, db, x, y, m))
			bits |= 1u << m;
	return bits;
}

/* A plain row (format 1.0 RUNS, TRANSIT local rows): the symbol of the
 * last run of row s whose start is <= t. A row's first run starts at or
 * before every target it serves, so one always does; the runs rise, so
 * twz_region_of's bisection finds it. */
static inline unsigned twz__plain_row_symbol(const uint8_t *row_offsets,
					     const uint8_t *runs, uint32_t s,
					     uint32_t t)
{
	uint32_t lo = twz_le32(row_offsets + 4 * (size_t)s);
	uint32_t hi = twz_le32(row_offsets + 4 * ((size_t)s + 1));
	uint32_t key = (t << TWZ_RUN_SYMBOL_BITS) | TWZ_RUN_SYMBOL_MASK;
	uint32_t k = lo + twz_region_of(runs + 4 * (size_t)lo, hi - lo, key);

	return twz_le32(runs + 4 * (size_t)k) & TWZ_RUN_SYMBOL_MASK;
}

/* What a walk hands back, kept alike by every back end: the nodes that
 * fit the caller's buffer, their count and the moves taken. */
struct twz_trail {
	twz_node *buf;
	size_t cap;
	size_t n;                  /* nodes visited, s included */
	uint32_t straight, diagonal;
};

static inline void twz__trail_visit(struct twz_trail *tr, twz_node at)
{
	if (tr->n < tr->cap)
		tr->buf[tr->n] = at;
	tr->n++;
}

static inline void twz__trail_move(struct twz_trail *tr, unsigned m)
{
	if (twz_move_is_diagonal(m))
		tr->diagonal++;
	else
		tr->straight++;
}

/* A walk s -> t on a grid whose moves cost by area (twz_areas.c): as the
 * back end's walk, the cost's parts, in units, into *a and *b. */
twz_status twz__areas_walk(const struct twz_db *db, twz_node s, twz_node t,
			   const struct twz_span *r, twz_node *buf, size_t cap,
			   size_t *len, uint64_t *a, uint64_t *b);

/* The walk reached t: hand its figures over. */
static inline twz_status twz__trail_end(const struct twz_trail *tr,
					size_t *len, uint32_t *straight,
					uint32_t *diagonal)
{
	if (len)
		*len = tr->n;
	if (straight)
		*straight = tr->straight;
	if (diagonal)
		*diagonal = tr->diagonal;
	return tr->n > tr->cap ? TWZ_E_BUFFER_TOO_SMALL : TWZ_OK;
}

#endif
