/*
 * twz_validate_graph.h - the validator of graph levels (FORMAT.md
 * section 5e), as twz_validate.c and the runtime's graph back end call
 * it: the decoded parameters, the raw-size bounds checked before a
 * section is inflated, and content validation.
 */
#ifndef TWZ_VALIDATE_GRAPH_H
#define TWZ_VALIDATE_GRAPH_H

#include "twz_graph_format.h"
#include "twz_validate.h"

/* GRAPH_PARAMS, decoded. */
struct twz_graph_params {
	uint32_t arc_count;
	uint32_t max_degree;
	uint32_t arc_bytes;
	uint32_t flags;
	uint64_t run_count;
	uint64_t max_weight;
	uint32_t id_base;
};

/* Decode and check GRAPH_PARAMS against the header (check G1). */
twz_status twz_graph_params_read(const struct twz_container *c,
				 const struct twz_content *v,
				 struct twz_graph_params *p);

/* The largest raw size a graph section may claim, from the header alone
 * (*exact: the only size it may have); UINT64_MAX for other kinds. */
uint64_t twz_graph_section_limit(const struct twz_container *c, uint32_t kind,
				 int *exact);

/* Off-mesh links (FORMAT.md 5l, twz_validate_links.c): the raw size
 * kind 13 or 14 may claim, and checks L1 to L3, once the graph's arcs
 * and regions are checked (G1 to G5). */
uint64_t twz_links_raw_limit(const struct twz_container *c, uint32_t kind,
			     int *exact);
twz_status twz_validate_links(const struct twz_container *c,
			      const struct twz_content *v,
			      const struct twz_graph_params *p);

/* Step 2 for a file whose level kind is a graph: checks G1 to G9 (and
 * L1 to L3 with off-mesh links). */
twz_status twz_validate_graph(const struct twz_container *c,
			      const struct twz_content *v);

#endif /* TWZ_VALIDATE_GRAPH_H */
