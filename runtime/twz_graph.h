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
};

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
