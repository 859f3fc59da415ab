/*
 * twz_graph.h - the runtime's view of a graph level's sections (format
 * 1.4, FORMAT.md section 5e) and the back end's calls that twz_api.c
 * and other level kinds built on a graph (navmeshes) use: the next node,
 * the walk with its exact u64 cost, ids and arcs. Pointers address
 * validated sections; nothing here allocates, locks or does I/O.
 */
#ifndef TWZ_GRAPH_H
#define TWZ_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "twigz.h"
#include "twz_format.h"
#include "twz_links_format.h"

struct twz_db;

struct twz_graph_view {
	uint32_t arc_count;
	uint32_t arc_bytes;         /* of a RUN_ARC entry: 1, 2 or 4 */
	uint32_t unreachable;       /* the RUN_ARC value for "no path" */
	uint32_t id_base;           /* id of the node ID_NODE[0] names */
	uint64_t run_count;
	const uint8_t *regions;     /* u32[component_count + 1] */
	const uint8_t *arc_first;   /* u32[node_count + 1] */
	const uint8_t *arc_head;    /* u32[arc_count] */
	const uint8_t *arc_weight;  /* u64[arc_count] */
	const uint8_t *node_id;     /* u32[node_count] */
	const uint8_t *id_node;     /* u32[node_count] */
	const uint8_t *row_offsets; /* u32[node_count + 1] */
	const uint8_t *run_start;   /* u32[run_count] */
	const uint8_t *run_arc;     /* arc_bytes a run */
	const uint8_t *coords;      /* i64[2 * node_count], or NULL */
	/* Off-mesh links (FORMAT.md 5l), or NULL and 0: a row's arc index
	 * past a node's arcs names its link arc (index - degree) among
	 * [link_first[n], link_first[n + 1]). */
	const uint8_t *link_first;  /* u32[node_count + 1] */
	const uint8_t *link_arcs;   /* TWZ_LA_SIZE bytes a link arc */
	uint32_t link_arc_count;
	uint32_t link_count;        /* links (numbers 0 .. link_count - 1) */
};

/* Link arc i's head, link number and weight. */
static inline twz_node twz__link_head(const struct twz_graph_view *g, uint32_t i)
{
	return twz_le32(g->link_arcs + (size_t)i * TWZ_LA_SIZE + TWZ_LA_HEAD);
}

static inline uint32_t twz__link_number(const struct twz_graph_view *g,
					uint32_t i)
{
	return twz_le32(g->link_arcs + (size_t)i * TWZ_LA_SIZE + TWZ_LA_LINK);
}

static inline uint64_t twz__link_weight(const struct twz_graph_view *g,
					uint32_t i)
{
	return twz_le64(g->link_arcs + (size_t)i * TWZ_LA_SIZE + TWZ_LA_WEIGHT);
}

/* Node n's link arcs: [*lo, *hi) (none without links). */
static inline void twz__links_of(const struct twz_graph_view *g, uint32_t n,
				 uint32_t *lo, uint32_t *hi)
{
	*lo = *hi = 0;
	if (g->link_first) {
		*lo = twz_le32(g->link_first + 4 * (size_t)n);
		*hi = twz_le32(g->link_first + 4 * ((size_t)n + 1));
	}
}

/* Whether db's nodes are a graph's (a graph level or a navmesh). */
int twz__is_graph(const struct twz_db *db);

/* The region of node n (valid). */
uint32_t twz__graph_region(const struct twz_db *db, twz_node n);

/* The next node from s toward t (both valid): t when s == t, TWZ_NONE
 * when t is unreachable from s. */
twz_node twz__graph_next(const struct twz_db *db, twz_node s, twz_node t);

/*
 * Walk s -> t (both valid): fills at most cap nodes of buf (may be NULL
 * with cap 0), the node count in *len and the cost in *cost (each may be
 * NULL). TWZ_E_UNREACHABLE (*len 0), TWZ_E_BUFFER_TOO_SMALL when the
 * path exceeds cap, TWZ_E_DAMAGED when the stored moves fail.
 */
twz_status twz__graph_walk(const struct twz_db *db, twz_node s, twz_node t,
			   twz_node *buf, size_t cap, size_t *len,
			   uint64_t *cost);

/* next[n] = twz__graph_next(db, n, t) for every node n. */
void twz__graph_flow_field(const struct twz_db *db, twz_node t,
			   twz_node *next);

#endif /* TWZ_GRAPH_H */
