/*
 * twz_geometry_graph.c - the geometry hooks (twz_geometry.h) of level
 * kinds whose nodes are a graph's: graph levels and navmesh polygons.
 * Arcs are the file's (GRAPH_ARC_FIRST, _HEAD, _WEIGHT), one-way where
 * the graph says so, then the node's off-mesh link arcs (LINK_FIRST,
 * LINK_ARCS) unless the world shuts their link; the arcs into a node
 * come from a reverse index the scratch makes, which numbers link arc i
 * arc_count + i. A graph node's position is its coordinates (when the
 * bake had them); a polygon's is its centre. Sight on a graph is an arc
 * either way between two open nodes; on a navmesh, the straight segment
 * between the two polygons' centres staying on open polygons.
 */
#include "twz_scratch.h"
#include "twz_navmesh.h"

#include <stdlib.h>

/* Arc k's weight; k at or past the graph's arcs: link arc k - arc_count. */
static inline uint64_t weight_of(const struct twz_db *db, uint32_t k)
{
	if (k >= db->graph.arc_count)
		return twz__link_weight(&db->graph, k - db->graph.arc_count);
	return twz_le64(db->graph.arc_weight + 8 * (size_t)k);
}

/* Whether f lets an agent take arc k (numbered as for weight_of) into v. */
static inline int arc_open(const struct twz_db *db, const struct twz__filter *f,
			   uint32_t k, twz_node v)
{
	if (twz__blocked(f, v))
		return 0;
	return k < db->graph.arc_count ||
	       !twz__link_shut(f, twz__link_number(&db->graph, k - db->graph.arc_count));
}

static inline uint32_t arc_first(const struct twz_db *db, twz_node n)
{
	return twz_le32(db->graph.arc_first + 4 * (size_t)n);
}

static inline twz_node arc_head(const struct twz_db *db, uint32_t k)
{
	return twz_le32(db->graph.arc_head + 4 * (size_t)k);
}

static unsigned graph_arcs(const struct twz_db *db, const struct twz_scratch *sc,
			   const struct twz__filter *f, twz_node n, int reverse,
			   uint32_t *cursor, struct twz__arc *out)
{
	uint32_t lo, hi, links = 0, link_lo = 0, link_hi = 0;
	unsigned k = 0;

	if (reverse) {
		lo = sc->in_first[n];
		hi = sc->in_first[n + 1];
	} else {
		/* The arcs, then the link arcs, as one run of the cursor. */
		lo = arc_first(db, n);
		hi = arc_first(db, n + 1);
		twz__links_of(&db->graph, n, &link_lo, &link_hi);
		links = link_hi - link_lo;
	}
	while (lo + *cursor < hi + links && k < TWZ__ARC_BATCH) {
		uint32_t i = lo + (*cursor)++;
		uint32_t arc = reverse ? sc->in_arc[i]
			       : i < hi ? i : db->graph.arc_count + link_lo + (i - hi);
		twz_node v = reverse ? sc->in_tail[i]
			     : i < hi ? arc_head(db, arc)
				      : twz__link_head(&db->graph, link_lo + (i - hi));
		if (!arc_open(db, f, arc, v))
			continue;
		out[k].head = v;
		out[k].cost.a = weight_of(db, arc);
		out[k].cost.b = 0;
		k++;
	}
	return k;
}

/* The arc x -> y: heads rise within a node, so a bisection finds it. */
static int64_t find_arc(const struct twz_db *db, twz_node x, twz_node y)
{
	uint32_t lo = arc_first(db, x), hi = arc_first(db, x + 1);

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		twz_node h = arc_head(db, mid);
		if (h == y)
			return mid;
		if (h < y)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * The cheapest way x -> y, the arc or a link arc (only those f leaves
 * open, with open_only), into *weight (UINT64_MAX: none) and its link
 * number into *link (TWZ_NO_LINK: the arc; of equal weights an open one,
 * the arc, then the lowest number). Returns whether f lets an agent take
 * one of the cheapest.
 */
static int cheapest_way(const struct twz_db *db, const struct twz__filter *f,
			twz_node x, twz_node y, int open_only, uint64_t *weight,
			uint32_t *link)
{
	int64_t k = find_arc(db, x, y);
	int open = k >= 0 && arc_open(db, f, (uint32_t)k, y);
	uint64_t best = k < 0 || (open_only && !open)
		? UINT64_MAX : weight_of(db, (uint32_t)k);
	uint32_t lo, hi, way = TWZ_NO_LINK;

	twz__links_of(&db->graph, x, &lo, &hi);
	for (uint32_t i = lo; i < hi; i++) {
		uint32_t arc = db->graph.arc_count + i;
		uint64_t w = weight_of(db, arc);
		int here = arc_open(db, f, arc, y);
		if (twz__link_head(&db->graph, i) != y || w > best ||
		    (open_only && !here))
			continue;
		if (w < best || (!open && here))
			way = twz__link_number(&db->graph, i);
		open = (w == best && open) || here;
		best = w;
	}
	*weight = best;
	*link = way;
	return best != UINT64_MAX && open;
}

/* The database's step x -> y: its cheapest way there. */
static int graph_step(const struct twz_db *db, const struct twz__filter *f,
		      twz_node x, twz_node y, struct twz__cost *cost)
{
	uint32_t link;

	cost->b = 0;
	/* A dearer way open instead is another path, which a search
	 * finds. */
	return cheapest_way(db, f, x, y, 0, &cost->a, &link);
}

uint32_t twz_link_count(const twz_db *db)
{
	return db && twz__is_graph(db) ? db->graph.link_count : 0;
}

twz_status twz_step_link(const twz_db *db, const twz_filter *filter,
			 twz_node a, twz_node b, uint32_t *link)
{
	struct twz__filter f;
	uint64_t weight;

	if (!db || !link || !twz__is_graph(db) || a >= db->c.node_count ||
	    b >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	twz_status st = twz__filter_make(db, filter, &f);
	if (st != TWZ_OK)
		return st;
	return cheapest_way(db, &f, a, b, 1, &weight, link) ? TWZ_OK : TWZ_E_ARGUMENT;
}

static struct twz__cost graph_lower_bound(const struct twz_db *db, twz_node x,
					  twz_node t)
{
	struct twz__cost c = { 0, 0 };

	(void)db, (void)x, (void)t;
	return c;
}

static int graph_position(const struct twz_db *db, twz_node n, double pos[3])
{
	if (db->navmesh) {
		twz__nm_centre(db->navmesh, db->navmesh->node_poly[n], pos);
		return 0;
	}
	if (!db->graph.coords)
		return -1;
	pos[0] = (double)(int64_t)twz_le64(db->graph.coords + 16 * (size_t)n);
	pos[1] = (double)(int64_t)twz_le64(db->graph.coords + 16 * (size_t)n + 8);
	pos[2] = 0;
	return 0;
}

struct ray_ctx {
	const struct twz_db *db;
	const struct twz__filter *f;
};

static int polygon_open(const void *ctx, uint32_t poly)
{
	const struct ray_ctx *r = ctx;

	return !twz__blocked(r->f, r->db->navmesh->poly_node[poly]);
}

static int graph_sight(const struct twz_db *db, const struct twz__filter *f,
		       twz_node a, twz_node b)
{
	if (twz__blocked(f, a) || twz__blocked(f, b))
		return 0;
	if (a == b)
		return 1;
	if (!db->navmesh)
		return find_arc(db, a, b) >= 0 || find_arc(db, b, a) >= 0;
	const struct twz_nm *nm = db->navmesh;
	struct ray_ctx r = { db, f };
	double pa[3], pb[3];
	twz__nm_centre(nm, nm->node_poly[a], pa);
	twz__nm_centre(nm, nm->node_poly[b], pb);
	return twz__nm_ray(nm, nm->node_poly[a], pa, pb, nm->node_poly[b],
			   polygon_open, &r);
}

/* The arcs into every node: counted by head, then laid out by head in
 * the order of their tails, so a field's order is the file's. */
static twz_status graph_scratch_init(const struct twz_db *db,
				     struct twz_scratch *sc)
{
	const struct twz_graph_view *g = &db->graph;
	uint32_t n = db->c.node_count, arcs = g->arc_count + g->link_arc_count;

	sc->in_first = calloc((size_t)n + 2, sizeof *sc->in_first);
	sc->in_tail = malloc(((size_t)arcs + 1) * sizeof *sc->in_tail);
	sc->in_arc = malloc(((size_t)arcs + 1) * sizeof *sc->in_arc);
	if (!sc->in_first || !sc->in_tail || !sc->in_arc)
		return TWZ_E_NOMEM;
	for (uint32_t k = 0; k < g->arc_count; k++)
		sc->in_first[arc_head(db, k) + 2]++;
	for (uint32_t i = 0; i < g->link_arc_count; i++)
		sc->in_first[twz__link_head(g, i) + 2]++;
	for (uint32_t v = 0; v < n; v++)
		sc->in_first[v + 2] += sc->in_first[v + 1];
	for (twz_node x = 0; x < n; x++) {
		uint32_t lo, hi;
		for (uint32_t k = arc_first(db, x); k < arc_first(db, x + 1); k++) {
			uint32_t at = sc->in_first[arc_head(db, k) + 1]++;
			sc->in_tail[at] = x;
			sc->in_arc[at] = k;
		}
		twz__links_of(g, x, &lo, &hi);
		for (uint32_t i = lo; i < hi; i++) {
			uint32_t at = sc->in_first[twz__link_head(g, i) + 1]++;
			sc->in_tail[at] = x;
			sc->in_arc[at] = g->arc_count + i;
		}
	}
	/* Buckets of the lightest arc's width, when the heaviest is at
	 * most a few thousand of them. */
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint32_t k = 0; k < arcs; k++) {
		uint64_t w = weight_of(db, k);
		lo = w < lo ? w : lo;
		hi = w > hi ? w : hi;
	}
	if (arcs)
		twz__ring_fit(sc, lo, hi);
	return TWZ_OK;
}

static void graph_scratch_fini(struct twz_scratch *sc)
{
	free(sc->in_first);
	free(sc->in_tail);
	free(sc->in_arc);
	sc->in_first = sc->in_tail = sc->in_arc = NULL;
}

const struct twz_geometry twz_geometry_graph = {
	.arcs = graph_arcs,
	.step = graph_step,
	.lower_bound = graph_lower_bound,
	.position = graph_position,
	.sight = graph_sight,
	.scratch_init = graph_scratch_init,
	.scratch_fini = graph_scratch_fini,
};
