/*
 * twz_api.c - the public query API of twigz.h: argument and region checks,
 * then one call through the back end chosen at open (twz_backend.h).
 * Node lookups, versions, messages and info are answered here. No
 * allocation, no locks, no I/O.
 */
#include "twz_geometry.h"
#include "twz_cpd_inline.h"

#include <math.h>
#include <string.h>

#define TWZ_STR2(x) #x
#define TWZ_STR(x) TWZ_STR2(x)

const char *twz_version(void)
{
	return TWZ_STR(TWZ_VERSION_MAJOR) "." TWZ_STR(TWZ_VERSION_MINOR) "."
		TWZ_STR(TWZ_VERSION_PATCH);
}

unsigned twz_version_number(void)
{
	return TWZ_VERSION_NUMBER;
}

const char *twz_strerror(twz_status status)
{
	switch (status) {
	case TWZ_OK: return "success";
	case TWZ_E_ARGUMENT: return "invalid argument";
	case TWZ_E_IO: return "I/O error";
	case TWZ_E_NOMEM: return "out of memory";
	case TWZ_E_NOT_TWIGZ: return "not a twigz database";
	case TWZ_E_VERSION: return "database made by a newer, incompatible format version";
	case TWZ_E_FEATURE: return "database needs a feature this library lacks";
	case TWZ_E_DAMAGED: return "database is truncated or damaged";
	case TWZ_E_CHECKSUM: return "database checksum mismatch (damaged)";
	case TWZ_E_RESERVED: return "database has non-zero reserved fields";
	case TWZ_E_UNREACHABLE: return "goal unreachable";
	case TWZ_E_BUFFER_TOO_SMALL: return "buffer too small";
	case TWZ_E_LIMIT: return "database exceeds a size limit";
	case TWZ_E_START_OFF: return "start is not on the level";
	case TWZ_E_GOAL_OFF: return "goal is not on the level";
	case TWZ_E_START_SHUT: return "start is shut";
	case TWZ_E_GOAL_SHUT: return "goal is shut";
	case TWZ_E_OUT_OF_RANGE: return "nothing within range";
	case TWZ_IN_PROGRESS: return "search in progress";
	case TWZ_PARTIAL: return "goal unreachable: partial path to the nearest place reached";
	case TWZ_E_BUDGET: return "search budget spent";
	}
	return "unknown status";
}

uint32_t twz_node_count(const twz_db *db)
{
	return db ? db->c.node_count : 0;
}

twz_node twz_node_at(const twz_db *db, int64_t x, int64_t y)
{
	if (!db || x < 0 || y < 0 || x >= db->c.width || y >= db->c.height)
		return TWZ_NONE;
	return twz__cell_node(db, (size_t)y * db->c.width + (size_t)x);
}

twz_status twz_node_xy(const twz_db *db, twz_node node, uint32_t *x,
		       uint32_t *y)
{
	uint32_t nx, ny;

	if (!db || node >= db->c.node_count || twz__is_graph(db))
		return TWZ_E_ARGUMENT;
	twz__node_xy(db, node, &nx, &ny);
	if (x)
		*x = nx;
	if (y)
		*y = ny;
	return TWZ_OK;
}

/* twz_next's every case but the hot one, kept apart so that the hot
 * one's code stays short. */
static __attribute__((noinline)) twz_node next_cold(const twz_db *db,
						     twz_node s, twz_node t)
{
	struct twz_span r;

	if (!db || s >= db->c.node_count || t >= db->c.node_count)
		return TWZ_NONE;
	if (twz__is_graph(db))
		return twz__graph_next(db, s, t);
	if (s == t)
		return t;
	twz__span_of(db, s, &r);
	if (!twz__in_span(db, &r, t))
		return TWZ_NONE;
	return db->backend->next(db, s, t, &r);
}

twz_node twz_next(const twz_db *db, twz_node s, twz_node t)
{
	/* 1.4 CPD grids with wide records: one pass over the handle's
	 * first cache line, no back end call. */
	if (db && db->hot.wide_grid && s < db->hot.node_count &&
	    t < db->hot.node_count && s != t)
		return twz__hot_next(db, s, t);
	return next_cold(db, s, t);
}

twz_status twz_next_status(const twz_db *db, twz_node s, twz_node t,
			   twz_node *next)
{
	struct twz_span r;

	if (next)
		*next = TWZ_NONE;
	if (!db || !next || s >= db->c.node_count || t >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	twz__region_of(db, s, &r);
	if (s != t && !twz__in_region(db, &r, t))
		return TWZ_E_UNREACHABLE;
	twz_node n = twz_next(db, s, t);
	if (n != TWZ_NONE) {
		*next = n;
		return TWZ_OK;
	}
	/* A graph's rows say "no path" explicitly; a grid region's every
	 * node reaches every other, so a grid's NONE is damage. */
	return twz__is_graph(db) ? TWZ_E_UNREACHABLE : TWZ_E_DAMAGED;
}

twz_status twz_node_position(const twz_db *db, twz_node n, double pos[3])
{
	if (!db || !pos || n >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	return twz__geometry(db)->position(db, n, pos) == 0 ? TWZ_OK
							     : TWZ_E_ARGUMENT;
}

/* Walk s -> t: twz_path and twz_cost_exact share it so they agree. */
static twz_status walk(const twz_db *db, twz_node s, twz_node t,
		       twz_node *buf, size_t cap, size_t *len,
		       uint32_t *straight, uint32_t *diagonal)
{
	struct twz_span r;

	if (len)
		*len = 0;
	if (!db || s >= db->c.node_count || t >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	if (twz__is_graph(db))
		return db->backend->walk(db, s, t, NULL, buf, cap, len,
					 straight, diagonal);
	twz__span_of(db, s, &r);
	if (!twz__in_span(db, &r, t))
		return TWZ_E_UNREACHABLE;
	if (db->node_milli) {
		/* Moves cost by area: the cost's parts in units. */
		uint64_t a, b;
		twz_status st = twz__areas_walk(db, s, t, &r, buf, cap, len, &a, &b);
		if ((st == TWZ_OK || st == TWZ_E_BUFFER_TOO_SMALL) &&
		    (straight || diagonal) && (a > UINT32_MAX || b > UINT32_MAX))
			return TWZ_E_LIMIT;
		if (straight)
			*straight = (uint32_t)a;
		if (diagonal)
			*diagonal = (uint32_t)b;
		return st;
	}
	return db->backend->walk(db, s, t, &r, buf, cap, len, straight,
				diagonal);
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
	twz_status r;

	if (db && twz__is_graph(db)) {
		uint64_t c;
		r = twz_cost_u64(db, s, t, &c);
		return r == TWZ_OK ? (double)c
				   : r == TWZ_E_UNREACHABLE ? INFINITY : -1.0;
	}
	r = twz_cost_exact(db, s, t, &st, &dg);

	if (r == TWZ_OK)
		return (st + dg * 1.41421356237309504880) /
		       (db->cost_units ? db->cost_units : 1);
	if (r == TWZ_E_UNREACHABLE)
		return INFINITY;
	return -1.0;
}

/*
 * Whether every node of t's region r reaches t along next: no missing
 * move, no cycle. A file that passed validation can still hold moves
 * that loop (FORMAT.md, section 12), and a game follows a field without
 * counting. Node ids are below 2^26, so the top bits of each entry are
 * free to mark, in place, the nodes of the chain being followed (VISIT)
 * and those known to arrive (DONE); every node is visited at most twice,
 * then the marks are cleared.
 */
#define FLOW_VISIT 0x40000000u
#define FLOW_DONE 0x20000000u
#define FLOW_NODE (FLOW_DONE - 1)

static twz_status flow_check(const twz_db *db, twz_node t,
			     const struct twz_span *r, twz_node *next)
{
	twz_status st = TWZ_OK;
	uint32_t n = db->c.node_count;

	next[t] = t | FLOW_DONE;
	for (twz_node i = 0; i < n && st == TWZ_OK; i++) {
		twz_node at = i;
		if (next[i] == TWZ_NONE) {
			/* On a graph, a node of t's region may not reach it. */
			if (r && twz__in_span(db, r, i))
				st = TWZ_E_DAMAGED;  /* a move is missing */
			continue;
		}
		/* Follow the chain from i until it meets a node known to
		 * arrive, or itself. */
		for (;;) {
			twz_node v = next[at];
			if (v == TWZ_NONE || v & FLOW_VISIT) {
				st = TWZ_E_DAMAGED;
				break;
			}
			if (v & FLOW_DONE)
				break;
			next[at] = v | FLOW_VISIT;
			at = v;
		}
		/* Then mark it as arriving, or undo the marks. */
		for (at = i; next[at] != TWZ_NONE && next[at] & FLOW_VISIT;) {
			twz_node to = next[at] & FLOW_NODE;
			next[at] = to | (st == TWZ_OK ? FLOW_DONE : 0);
			at = to;
		}
	}
	for (twz_node i = 0; i < n; i++)
		if (next[i] != TWZ_NONE)
			next[i] &= FLOW_NODE;
	return st;
}

twz_status twz_flow_field(const twz_db *db, twz_node t, twz_node *next,
			  size_t cap)
{
	struct twz_span r;

	if (!db || !next || t >= db->c.node_count || cap < db->c.node_count)
		return TWZ_E_ARGUMENT;
	if (twz__is_graph(db)) {
		twz__graph_flow_field(db, t, next);
		return flow_check(db, t, NULL, next);
	}
	twz__span_of(db, t, &r);
	db->backend->flow_field(db, t, &r, next);
	return flow_check(db, t, &r, next);
}

twz_status twz_get_info(const twz_db *db, twz_info *info)
{
	if (!db || !info)
		return TWZ_E_ARGUMENT;
	memset(info, 0, sizeof *info);
	info->format_major = db->c.major;
	info->format_minor = db->c.minor;
	info->method = db->c.method;
	info->connectivity = db->c.connectivity;
	info->width = db->c.width;
	info->height = db->c.height;
	info->node_count = db->c.node_count;
	info->component_count = db->c.component_count;
	info->level_hash = db->c.level_hash;
	info->file_size = db->file_len;
	info->memory_size = db->memory_size;
	info->run_count = db->run_count;
	info->build_codec = db->c.build_codec;
	info->build_level = db->c.build_level;
	info->level_kind = db->c.level_kind;
	info->arc_count = twz__is_graph(db) ? db->graph.arc_count : 0;
	return TWZ_OK;
}
