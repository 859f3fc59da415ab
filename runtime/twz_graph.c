/*
 * twz_graph.c - the back end of graph levels (format 1.4, FORMAT.md
 * section 5e): a node's row is a list of runs over its region's targets
 * in node order, each naming one of the node's out-arcs, or "no path";
 * the next node is the head of that arc. Also the public calls only a
 * graph answers: ids, arcs, coordinates and the exact u64 cost. No
 * allocation, no locks, no I/O after init.
 */
#include "twz_backend.h"
#include "twz_validate_graph.h"

#include <string.h>

int twz__is_graph(const struct twz_db *db)
{
	return db->c.level_kind != TWZ_LEVEL_GRID;
}

static twz_status graph_init(twz_db *db)
{
	struct twz_graph_view *g = &db->graph;
	struct twz_graph_params p;
	const uint8_t *const *d = db->content.data;

	if (twz_graph_params_read(&db->c, &db->content, &p) != TWZ_OK)
		return TWZ_E_DAMAGED;
	g->arc_count = p.arc_count;
	g->arc_bytes = p.arc_bytes;
	g->unreachable = twz_graph_unreachable(p.arc_bytes);
	g->id_base = p.id_base;
	g->run_count = p.run_count;
	g->regions = d[TWZ_SECTION_GRAPH_REGIONS];
	g->arc_first = d[TWZ_SECTION_GRAPH_ARC_FIRST];
	g->arc_head = d[TWZ_SECTION_GRAPH_ARC_HEAD];
	g->arc_weight = d[TWZ_SECTION_GRAPH_ARC_WEIGHT];
	g->node_id = d[TWZ_SECTION_GRAPH_NODE_ID];
	g->id_node = d[TWZ_SECTION_GRAPH_ID_NODE];
	g->row_offsets = d[TWZ_SECTION_GRAPH_ROW_OFFSETS];
	g->run_start = d[TWZ_SECTION_GRAPH_RUN_START];
	g->run_arc = d[TWZ_SECTION_GRAPH_RUN_ARC];
	g->coords = (p.flags & TWZ_GF_COORDS) ? d[TWZ_SECTION_GRAPH_COORDS] : NULL;
	if (db->c.required_features & TWZ_FEATURE_LINKS) {
		g->link_first = d[TWZ_SECTION_LINK_FIRST];
		g->link_arcs = d[TWZ_SECTION_LINK_ARCS];
		g->link_arc_count = (uint32_t)(db->content.size[TWZ_SECTION_LINK_ARCS] /
					       TWZ_LA_SIZE);
		/* Numbers lie below the arcs' count (L3); the links are
		 * as many as the largest number says. */
		for (uint32_t i = 0; i < g->link_arc_count; i++)
			if (twz__link_number(g, i) >= g->link_count)
				g->link_count = twz__link_number(g, i) + 1;
	}
	db->run_count = p.run_count;
	return TWZ_OK;
}

static void graph_fini(twz_db *db)
{
	memset(&db->graph, 0, sizeof db->graph);
}

/* The region of n: REGIONS by bisection. */
static inline uint32_t region_of(const twz_db *db, uint32_t n)
{
	if (db->c.component_count == 1)
		return 0;
	return twz_region_of(db->graph.regions, db->c.component_count, n);
}

/* The out-arc index row s stores for t (same region, s != t), or the
 * unreachable value: the last run starting at or before t. */
static inline uint32_t row_arc(const struct twz_graph_view *g, uint32_t s,
			       uint32_t t)
{
	uint32_t lo = twz_le32(g->row_offsets + 4 * (size_t)s);
	uint32_t hi = twz_le32(g->row_offsets + 4 * ((size_t)s + 1));
	/* Runs [lo, hi) rise and the first starts at the region's first
	 * node, so runs[lo] <= t. */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (twz_le32(g->run_start + 4 * (size_t)mid) <= t)
			lo = mid;
		else
			hi = mid;
	}
	return twz_graph_run_arc(g->run_arc, g->arc_bytes, lo);
}

/* One step from s toward t in s's region, over an arc or, past s's
 * arcs, a link arc; *weight gets its weight. */
static inline twz_node step(const twz_db *db, uint32_t s, uint32_t t,
			    uint64_t *weight)
{
	const struct twz_graph_view *g = &db->graph;
	uint32_t m = row_arc(g, s, t);

	if (m == g->unreachable)
		return TWZ_NONE;
	uint32_t a = twz_le32(g->arc_first + 4 * (size_t)s);
	uint32_t deg = twz_le32(g->arc_first + 4 * ((size_t)s + 1)) - a;
	if (m >= deg) {
		uint32_t lo, hi;
		twz__links_of(g, s, &lo, &hi);
		*weight = twz__link_weight(g, lo + m - deg);
		return twz__link_head(g, lo + m - deg);
	}
	*weight = twz_le64(g->arc_weight + 8 * ((size_t)a + m));
	return twz_le32(g->arc_head + 4 * ((size_t)a + m));
}

uint32_t twz__graph_region(const struct twz_db *db, twz_node n)
{
	return region_of(db, n);
}

twz_node twz__graph_next(const struct twz_db *db, twz_node s, twz_node t)
{
	uint64_t weight;

	if (s == t)
		return t;
	if (region_of(db, s) != region_of(db, t))
		return TWZ_NONE;
	return step(db, s, t, &weight);
}

twz_status twz__graph_walk(const struct twz_db *db, twz_node s, twz_node t,
			   twz_node *buf, size_t cap, size_t *len,
			   uint64_t *cost)
{
	struct twz_trail tr = { .buf = buf, .cap = cap };
	uint64_t sum = 0;
	twz_node at = s;

	if (len)
		*len = 0;
	if (s != t && region_of(db, s) != region_of(db, t))
		return TWZ_E_UNREACHABLE;
	twz__trail_visit(&tr, at);
	while (at != t) {
		uint64_t weight;
		twz_node nx = step(db, at, t, &weight);
		if (nx == TWZ_NONE) {
			if (at == s)
				return TWZ_E_UNREACHABLE;
			return TWZ_E_DAMAGED;  /* a node on the way lost t */
		}
		/* An optimal path has at most node_count - 1 arcs; with the
		 * weight bound open checked, the sum cannot overflow. */
		if (tr.n >= db->c.node_count)
			return TWZ_E_DAMAGED;
		sum += weight;
		at = nx;
		twz__trail_visit(&tr, at);
	}
	if (cost)
		*cost = sum;
	if (len)
		*len = tr.n;
	return tr.n > tr.cap ? TWZ_E_BUFFER_TOO_SMALL : TWZ_OK;
}

void twz__graph_flow_field(const struct twz_db *db, twz_node t,
			   twz_node *next)
{
	uint32_t r = region_of(db, t);
	uint32_t lo = twz_le32(db->graph.regions + 4 * (size_t)r);
	uint32_t hi = twz_le32(db->graph.regions + 4 * ((size_t)r + 1));

	for (uint32_t n = 0; n < db->c.node_count; n++) {
		uint64_t weight;
		if (n < lo || n >= hi)
			next[n] = TWZ_NONE;
		else
			next[n] = n == t ? t : step(db, n, t, &weight);
	}
}

/* ---- the back-end table, for what dispatches by hooks ------------------ */

static twz_node graph_next_hook(const twz_db *db, twz_node s, twz_node t,
				const struct twz_span *r)
{
	(void)r;
	return twz__graph_next(db, s, t);
}

static twz_status graph_walk_hook(const twz_db *db, twz_node s, twz_node t,
				  const struct twz_span *r, twz_node *buf,
				  size_t cap, size_t *len, uint32_t *straight,
				  uint32_t *diagonal)
{
	uint64_t cost = 0;
	twz_status st;

	(void)r;
	st = twz__graph_walk(db, s, t, buf, cap, len, &cost);
	if (st != TWZ_OK && st != TWZ_E_BUFFER_TOO_SMALL)
		return st;
	/* twz_cost_exact's two u32 hold a graph's cost only below 2^32. */
	if (straight && cost > UINT32_MAX)
		return TWZ_E_LIMIT;
	if (straight)
		*straight = (uint32_t)cost;
	if (diagonal)
		*diagonal = 0;
	return st;
}

static void graph_flow_hook(const twz_db *db, twz_node t,
			    const struct twz_span *r, twz_node *next)
{
	(void)r;
	twz__graph_flow_field(db, t, next);
}

const struct twz_backend twz_backend_graph = {
	.init = graph_init,
	.fini = graph_fini,
	.next = graph_next_hook,
	.walk = graph_walk_hook,
	.flow_field = graph_flow_hook,
};

/* ---- public calls of graph levels (twigz.h) ----------------------------- */

twz_status twz_cost_u64(const twz_db *db, twz_node s, twz_node t,
			uint64_t *cost)
{
	uint64_t c = 0;
	twz_status st;

	if (!db || !cost || !twz__is_graph(db) || s >= db->c.node_count ||
	    t >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	st = twz__graph_walk(db, s, t, NULL, 0, NULL, &c);
	if (st == TWZ_E_BUFFER_TOO_SMALL)
		st = TWZ_OK;
	if (st == TWZ_OK)
		*cost = c;
	return st;
}

twz_node twz_node_of_id(const twz_db *db, int64_t id)
{
	if (!db || !twz__is_graph(db) || id < db->graph.id_base ||
	    id - db->graph.id_base >= db->c.node_count)
		return TWZ_NONE;
	return twz_le32(db->graph.id_node + 4 * (size_t)(id - db->graph.id_base));
}

twz_status twz_node_id(const twz_db *db, twz_node n, int64_t *id)
{
	if (!db || !id || !twz__is_graph(db) || n >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	*id = twz_le32(db->graph.node_id + 4 * (size_t)n);
	return TWZ_OK;
}

twz_status twz_node_arcs(const twz_db *db, twz_node n, twz_node *heads,
			 uint64_t *weights, size_t cap, size_t *count)
{
	if (count)
		*count = 0;
	if (!db || !count || !twz__is_graph(db) || n >= db->c.node_count ||
	    ((!heads || !weights) && cap))
		return TWZ_E_ARGUMENT;
	const struct twz_graph_view *g = &db->graph;
	uint32_t a = twz_le32(g->arc_first + 4 * (size_t)n);
	uint32_t b = twz_le32(g->arc_first + 4 * ((size_t)n + 1));
	for (uint32_t i = a; i < b && i - a < cap; i++) {
		heads[i - a] = twz_le32(g->arc_head + 4 * (size_t)i);
		weights[i - a] = twz_le64(g->arc_weight + 8 * (size_t)i);
	}
	*count = b - a;
	return b - a > cap ? TWZ_E_BUFFER_TOO_SMALL : TWZ_OK;
}

twz_status twz_node_links(const twz_db *db, twz_node n, twz_node *heads,
			  uint64_t *weights, uint32_t *links, size_t cap,
			  size_t *count)
{
	if (count)
		*count = 0;
	if (!db || !count || !twz__is_graph(db) || n >= db->c.node_count ||
	    ((!heads || !weights || !links) && cap))
		return TWZ_E_ARGUMENT;
	uint32_t a, b;
	twz__links_of(&db->graph, n, &a, &b);
	for (uint32_t i = a; i < b && i - a < cap; i++) {
		heads[i - a] = twz__link_head(&db->graph, i);
		weights[i - a] = twz__link_weight(&db->graph, i);
		links[i - a] = twz__link_number(&db->graph, i);
	}
	*count = b - a;
	return b - a > cap ? TWZ_E_BUFFER_TOO_SMALL : TWZ_OK;
}

twz_status twz_node_coords(const twz_db *db, twz_node n, int64_t *x,
			   int64_t *y)
{
	if (!db || !twz__is_graph(db) || !db->graph.coords ||
	    n >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	if (x)
		*x = (int64_t)twz_le64(db->graph.coords + 16 * (size_t)n);
	if (y)
		*y = (int64_t)twz_le64(db->graph.coords + 16 * (size_t)n + 8);
	return TWZ_OK;
}
