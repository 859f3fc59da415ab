/*
 * twz_validate_links.c - checks L1 to L3 of FORMAT.md section 5l: the
 * off-mesh links a graph file baked with --links holds, each way of a
 * link an arc of its own beside the node's graph arcs.
 */
#include "twz_validate_graph.h"
#include "twz_links_format.h"

uint64_t twz_links_raw_limit(const struct twz_container *c, uint32_t kind,
			     int *exact)
{
	*exact = kind == TWZ_SECTION_LINK_FIRST;
	if (kind == TWZ_SECTION_LINK_FIRST)
		return 4 * ((uint64_t)c->node_count + 1);
	return (uint64_t)TWZ_LINK_ARC_LIMIT * TWZ_LA_SIZE;
}

twz_status twz_validate_links(const struct twz_container *c,
			      const struct twz_content *v,
			      const struct twz_graph_params *p)
{
	const uint8_t *first = v->data[TWZ_SECTION_LINK_FIRST];
	const uint8_t *rec = v->data[TWZ_SECTION_LINK_ARCS];
	const uint8_t *arc_first = v->data[TWZ_SECTION_GRAPH_ARC_FIRST];
	const uint8_t *regions = v->data[TWZ_SECTION_GRAPH_REGIONS];
	uint64_t count = v->size[TWZ_SECTION_LINK_ARCS] / TWZ_LA_SIZE;
	uint32_t region = 0;

	/* L1: both sections, in a graph level's file of 1.5 or later. */
	if (c->level_kind != TWZ_LEVEL_GRAPH || c->minor < 5 || !first ||
	    !rec || v->size[TWZ_SECTION_LINK_FIRST] != 4 * ((uint64_t)c->node_count + 1) ||
	    v->size[TWZ_SECTION_LINK_ARCS] % TWZ_LA_SIZE ||
	    count > TWZ_LINK_ARC_LIMIT)
		return TWZ_E_DAMAGED;
	/* L2: each node's link arcs, one range after another. */
	if (twz_le32(first) != 0 ||
	    twz_le32(first + 4 * (size_t)c->node_count) != count)
		return TWZ_E_DAMAGED;
	for (uint32_t n = 0; n < c->node_count; n++) {
		uint32_t a = twz_le32(first + 4 * (size_t)n);
		uint32_t b = twz_le32(first + 4 * ((size_t)n + 1));
		uint32_t arcs = twz_le32(arc_first + 4 * ((size_t)n + 1)) -
				twz_le32(arc_first + 4 * (size_t)n);
		if (b < a || b > count || (uint64_t)arcs + (b - a) > p->max_degree)
			return TWZ_E_DAMAGED;
		while (twz_le32(regions + 4 * ((size_t)region + 1)) <= n)
			region++;
		uint32_t lo = twz_le32(regions + 4 * (size_t)region);
		uint32_t hi = twz_le32(regions + 4 * ((size_t)region + 1));
		/* L3: into the node's region, never to itself, a weight
		 * the path bound covers, link numbers rising. */
		for (uint32_t i = a; i < b; i++) {
			const uint8_t *r = rec + (size_t)i * TWZ_LA_SIZE;
			uint32_t h = twz_le32(r + TWZ_LA_HEAD);
			uint32_t k = twz_le32(r + TWZ_LA_LINK);
			uint64_t w = twz_le64(r + TWZ_LA_WEIGHT);
			if (h < lo || h >= hi || h == n || w == 0 ||
			    w > p->max_weight || k >= count)
				return TWZ_E_DAMAGED;
			if (i > a && k <= twz_le32(r - TWZ_LA_SIZE + TWZ_LA_LINK))
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}
