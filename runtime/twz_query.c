/*
 * twz_query.c - the query path: node lookups, first moves, paths, costs,
 * flow fields. No allocation, no locks, no I/O; offsets were validated at
 * open, so only the caller's arguments are checked here.
 */
#include "twz_db.h"

#include <math.h>

static inline uint32_t u32_at(const uint8_t *base, size_t i)
{
	return twz_le32(base + 4 * i);
}

uint32_t twz_node_count(const twz_db *db)
{
	return db ? db->c.node_count : 0;
}

twz_node twz_node_at(const twz_db *db, int64_t x, int64_t y)
{
	if (!db || x < 0 || y < 0 || x >= db->c.width || y >= db->c.height)
		return TWZ_NONE;
	return u32_at(db->cell_node, (size_t)y * db->c.width + (size_t)x);
}

twz_status twz_node_xy(const twz_db *db, twz_node node, uint32_t *x,
		       uint32_t *y)
{
	if (!db || node >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	uint32_t cell = u32_at(db->node_cell, node);
	if (x)
		*x = cell % db->c.width;
	if (y)
		*y = cell / db->c.width;
	return TWZ_OK;
}

/* The symbol of the run of row s that covers target t: the last run whose
 * start is <= t. Row s's first run starts at 0, so one always does. */
static unsigned row_symbol(const twz_db *db, twz_node s, twz_node t)
{
	uint32_t lo = u32_at(db->row_offsets, s);
	uint32_t hi = u32_at(db->row_offsets, (size_t)s + 1);
	uint32_t key = (t << TWZ_RUN_SYMBOL_BITS) | TWZ_RUN_SYMBOL_MASK;

	/* Invariant: runs[lo] <= key, runs[hi] > key (or hi is the end). */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (u32_at(db->runs, mid) <= key)
			lo = mid;
		else
			hi = mid;
	}
	return u32_at(db->runs, lo) & TWZ_RUN_SYMBOL_MASK;
}

/* The move (0..7) from s toward t, or TWZ_SYMBOL_NONE; nodes are valid,
 * distinct and in one region. */
static inline unsigned first_move(const twz_db *db, twz_node s, twz_node t)
{
	return row_symbol(db, s, t);
}

static inline int same_region(const twz_db *db, twz_node s, twz_node t)
{
	return u32_at(db->node_comp, s) == u32_at(db->node_comp, t);
}

static inline twz_node step(const twz_db *db, twz_node s, unsigned move)
{
	int64_t cell = (int64_t)u32_at(db->node_cell, s) + db->move_offset[move];
	return u32_at(db->cell_node, (size_t)cell);
}

twz_node twz_next(const twz_db *db, twz_node s, twz_node t)
{
	if (!db || s >= db->c.node_count || t >= db->c.node_count)
		return TWZ_NONE;
	if (s == t)
		return t;
	if (!same_region(db, s, t))
		return TWZ_NONE;
	unsigned move = first_move(db, s, t);
	if (move == TWZ_SYMBOL_NONE)
		return TWZ_NONE;
	return step(db, s, move);
}

/*
 * Walk s -> t. Calls visit-free code twice (path, cost) through this one
 * loop so both agree. A damaged (but checksum-skipped or crafted) file
 * could make the walk cycle: it is bounded by the node count.
 */
static twz_status walk(const twz_db *db, twz_node s, twz_node t,
		       twz_node *buf, size_t cap, size_t *len,
		       uint32_t *straight, uint32_t *diagonal)
{
	size_t n = 0;
	uint32_t st = 0, dg = 0;

	if (len)
		*len = 0;
	if (!db || s >= db->c.node_count || t >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	if (!same_region(db, s, t))
		return TWZ_E_UNREACHABLE;
	for (twz_node at = s;; ) {
		if (n < cap)
			buf[n] = at;
		n++;
		if (at == t)
			break;
		if (n > db->c.node_count)
			return TWZ_E_DAMAGED;
		unsigned move = first_move(db, at, t);
		if (move == TWZ_SYMBOL_NONE)
			return TWZ_E_DAMAGED;
		if (twz_move_is_diagonal(move))
			dg++;
		else
			st++;
		at = step(db, at, move);
	}
	if (len)
		*len = n;
	if (straight)
		*straight = st;
	if (diagonal)
		*diagonal = dg;
	return n > cap ? TWZ_E_BUFFER_TOO_SMALL : TWZ_OK;
}

twz_status twz_path(const twz_db *db, twz_node s, twz_node t, twz_node *buf,
		    size_t cap, size_t *len)
{
	if (!len || (!buf && cap))
		return TWZ_E_ARGUMENT;
	return walk(db, s, t, buf, cap, len, NULL, NULL);
}

twz_status twz_cost_exact(const twz_db *db, twz_node s, twz_node t,
			  uint32_t *straight, uint32_t *diagonal)
{
	uint32_t st = 0, dg = 0;
	twz_status r = walk(db, s, t, NULL, 0, NULL, &st, &dg);

	if (r == TWZ_E_BUFFER_TOO_SMALL)
		r = TWZ_OK;
	if (r == TWZ_OK) {
		if (straight)
			*straight = st;
		if (diagonal)
			*diagonal = dg;
	}
	return r;
}

double twz_cost(const twz_db *db, twz_node s, twz_node t)
{
	uint32_t st, dg;
	twz_status r = twz_cost_exact(db, s, t, &st, &dg);

	if (r == TWZ_OK)
		return st + dg * 1.41421356237309504880;
	if (r == TWZ_E_UNREACHABLE)
		return INFINITY;
	return -1.0;
}

twz_status twz_flow_field(const twz_db *db, twz_node t, twz_node *next,
			  size_t cap)
{
	if (!db || !next || t >= db->c.node_count || cap < db->c.node_count)
		return TWZ_E_ARGUMENT;
	for (twz_node n = 0; n < db->c.node_count; n++)
		next[n] = twz_next(db, n, t);
	return TWZ_OK;
}
