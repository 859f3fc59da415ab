/*
 * twz_geometry_graph.c - the geometry hooks (twz_geometry.h) of level
 * kinds whose nodes are a graph's: graph levels and navmesh polygons.
 * Arcs are the file's (GRAPH_ARC_FIRST, _HEAD, _WEIGHT), one-way where
 * the graph says so; the arcs into a node come from a reverse index the
 * scratch makes. A graph node's position is its coordinates (when the
 * bake had them); a polygon's is its centre. Sight on a graph is an arc
 * either way between two open nodes; on a navmesh, the straight segment
 * between the two polygons' centres staying on open polygons.
 */
#include "twz_scratch.h"
#include "twz_navmesh.h"

#include <stdlib.h>

/* Arc k's weight. */
static inline uint64_t weight_of(const struct twz_db *db, uint32_t k)
{
	return twz_le64(db->graph.arc_weight + 8 * (size_t)k);
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
	uint32_t lo, hi;
	unsigned k = 0;

	if (reverse) {
		lo = sc->in_first[n];
		hi = sc->in_first[n + 1];
	} else {
		lo = arc_first(db, n);
		hi = arc_first(db, n + 1);
	}
	while (lo + *cursor < hi && k < TWZ__ARC_BATCH) {
		uint32_t i = lo + (*cursor)++;
		uint32_t arc = reverse ? sc->in_arc[i] : i;
		twz_node v = reverse ? sc->in_tail[i] : arc_head(db, arc);
		if (twz__blocked(f, v))
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

static int graph_step(const struct twz_db *db, const struct twz__filter *f,
		      twz_node x, twz_node y, struct twz__cost *cost)
{
	int64_t k = find_arc(db, x, y);

	cost->a = k < 0 ? UINT64_MAX : weight_of(db, (uint32_t)k);
	cost->b = 0;
	return k >= 0 && !twz__blocked(f, y);
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
	uint32_t n = db->c.node_count, arcs = db->graph.arc_count;

	sc->in_first = calloc((size_t)n + 2, sizeof *sc->in_first);
	sc->in_tail = malloc(((size_t)arcs + 1) * sizeof *sc->in_tail);
	sc->in_arc = malloc(((size_t)arcs + 1) * sizeof *sc->in_arc);
	if (!sc->in_first || !sc->in_tail || !sc->in_arc)
		return TWZ_E_NOMEM;
	for (uint32_t k = 0; k < arcs; k++)
		sc->in_first[arc_head(db, k) + 2]++;
	for (uint32_t v = 0; v < n; v++)
		sc->in_first[v + 2] += sc->in_first[v + 1];
	for (twz_node x = 0; x < n; x++)
		for (uint32_t k = arc_first(db, x); k < arc_first(db, x + 1); k++) {
			uint32_t at = sc->in_first[arc_head(db, k) + 1]++;
			sc->in_tail[at] = x;
			sc->in_arc[at] = k;
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
