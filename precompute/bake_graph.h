/*
 * bake_graph.h - the CPD bake of a weighted directed graph (format 1.4,
 * FORMAT.md section 5e), for every level kind whose nodes are a graph's:
 * graph levels (.gr) and navmesh polygons. The graph's nodes are put in
 * DFS preorder, one region (weakly connected component) after another;
 * each source's complete set of optimal out-arcs toward every target is
 * found by one Dijkstra per source on the worker pool of bake.c (or by
 * the dense solvers of apsp_dense.h, opt->apsp), and each row is
 * run-length encoded with wildcards. The bytes do not depend on
 * opt->threads nor on the solver.
 */
#ifndef BAKE_GRAPH_H
#define BAKE_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "bake.h"
#include "graph.h"
#include "twz_error.h"
#include "twz_writer.h"

/* What a level kind adds to the graph's file. */
struct twz_graph_kind {
	unsigned level_kind;        /* TWZ_LEVEL_GRAPH or TWZ_LEVEL_NAVMESH */
	uint64_t features;          /* required feature bits besides
				       TWZ_FEATURE_GRAPH_LEVEL */
	/* The kind's own sections (kinds above TWZ_SECTION_GRAPH_LAST, in
	 * ascending order), written after the graph's; their bytes stay the
	 * caller's. They may name nodes by the file's ids (id_base + n of
	 * g's numbering): the runtime maps ids with GRAPH_ID_NODE. */
	const struct twz_out_section *extra;
	unsigned extra_count;
};

/* The graph bake's memory estimate, in bytes: g's nodes and arcs on
 * opt's threads and codec, with the dense solver when opt asks for it. */
uint64_t twz_bake_graph_estimate(const struct twz_graph *g,
				 const struct twz_bake_options *opt);

/*
 * Bake g into a database of the given kind (NULL: a plain graph level)
 * and write it atomically to path. Refuses first, before allocating, a
 * graph of more nodes than opt->max_nodes or TWZ_MAX_NODES, or whose
 * estimate exceeds the memory available (opt->max_memory), or more
 * than TWZ_APSP_MAX_NODES nodes for a dense solver. Messages name
 * opt->name. 0 on success.
 */
int twz_bake_graph(const struct twz_graph *g, const struct twz_graph_kind *kind,
		   const struct twz_bake_options *opt, const char *path,
		   struct twz_error *err);

/* The same into a malloc'd buffer (tests, fuzzing). */
int twz_bake_graph_encode(const struct twz_graph *g,
			  const struct twz_graph_kind *kind,
			  const struct twz_bake_options *opt, uint8_t **buf,
			  size_t *len, struct twz_error *err);

#endif /* BAKE_GRAPH_H */
