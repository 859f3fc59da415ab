/*
 * twz_validate_graph.c - content validation of a graph level (format
 * 1.4, TWZ_LEVEL_GRAPH; also the polygon graph of a navmesh): the
 * parameters, the regions, the CSR arcs, the id maps and every row
 * (FORMAT.md section 5e, checks G1 to G9). After it, a query reads only
 * inside the sections, follows only arcs that exist, and finds a run by
 * bisection in O(log region) steps.
 */
#include "twz_validate_graph.h"
#include "twz_validate_grid.h"
#include "twz_links_format.h"

static twz_status params_read(const struct twz_container *c,
			      const struct twz_content *v,
			      struct twz_graph_params *p)
{
	const uint8_t *b = v->data[TWZ_SECTION_GRAPH_PARAMS];

	if (!b || v->size[TWZ_SECTION_GRAPH_PARAMS] != TWZ_GP_SIZE)
		return TWZ_E_DAMAGED;
	if (!twz_all_zero(b + TWZ_GP_RESERVED, TWZ_GP_SIZE - TWZ_GP_RESERVED))
		return TWZ_E_RESERVED;
	p->arc_count = twz_le32(b + TWZ_GP_ARC_COUNT);
	p->max_degree = twz_le32(b + TWZ_GP_MAX_DEGREE);
	p->arc_bytes = twz_le32(b + TWZ_GP_ARC_BYTES);
	p->flags = twz_le32(b + TWZ_GP_FLAGS);
	p->run_count = twz_le64(b + TWZ_GP_RUN_COUNT);
	p->max_weight = twz_le64(b + TWZ_GP_MAX_WEIGHT);
	p->id_base = twz_le32(b + TWZ_GP_ID_BASE);
	/* G1: the figures every other size follows from. */
	if (p->flags & ~TWZ_GF_KNOWN)
		return TWZ_E_RESERVED;
	/* A node's choices are its arcs and, with off-mesh links, its
	 * link arcs (L2). */
	uint64_t choices = c->node_count ? c->node_count - 1 : 0;
	if (c->required_features & TWZ_FEATURE_LINKS)
		choices += TWZ_LINK_ARC_LIMIT;
	if (p->arc_bytes != twz_graph_arc_bytes(p->max_degree) ||
	    p->max_degree > choices ||
	    (uint64_t)p->arc_count > (uint64_t)c->node_count * p->max_degree ||
	    (p->arc_count && !p->max_weight) ||
	    !twz_graph_weight_ok(p->max_weight, c->node_count) ||
	    (uint64_t)p->id_base + c->node_count > 0xFFFFFFFFull)
		return TWZ_E_DAMAGED;
	if (p->run_count > TWZ_MAX_RUNS)
		return TWZ_E_LIMIT;
	if (p->run_count < c->node_count ||
	    p->run_count > (uint64_t)c->node_count * c->node_count)
		return TWZ_E_DAMAGED;
	return TWZ_OK;
}

/* G2: each section's exact size. */
static twz_status check_sizes(const struct twz_container *c,
			      const struct twz_content *v,
			      const struct twz_graph_params *p)
{
	uint64_t n = c->node_count;
	const struct { uint32_t kind; uint64_t size; } want[] = {
		{ TWZ_SECTION_GRAPH_REGIONS, 4 * ((uint64_t)c->component_count + 1) },
		{ TWZ_SECTION_GRAPH_ARC_FIRST, 4 * (n + 1) },
		{ TWZ_SECTION_GRAPH_ARC_HEAD, 4 * (uint64_t)p->arc_count },
		{ TWZ_SECTION_GRAPH_ARC_WEIGHT, 8 * (uint64_t)p->arc_count },
		{ TWZ_SECTION_GRAPH_NODE_ID, 4 * n },
		{ TWZ_SECTION_GRAPH_ID_NODE, 4 * n },
		{ TWZ_SECTION_GRAPH_ROW_OFFSETS, 4 * (n + 1) },
		{ TWZ_SECTION_GRAPH_RUN_START, 4 * p->run_count },
		{ TWZ_SECTION_GRAPH_RUN_ARC, p->arc_bytes * p->run_count },
	};

	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (!v->data[want[i].kind] || v->size[want[i].kind] != want[i].size)
			return TWZ_E_DAMAGED;
	if (p->flags & TWZ_GF_COORDS) {
		if (!v->data[TWZ_SECTION_GRAPH_COORDS] ||
		    v->size[TWZ_SECTION_GRAPH_COORDS] != 16 * n)
			return TWZ_E_DAMAGED;
	} else if (v->data[TWZ_SECTION_GRAPH_COORDS]) {
		return TWZ_E_DAMAGED;
	}
	/* No grid section in a graph file. */
	for (uint32_t k = 1; k <= TWZ_SECTION_KIND_MAX; k++)
		if (k != TWZ_SECTION_BUILD_INFO && v->data[k])
			return TWZ_E_DAMAGED;
	return TWZ_OK;
}

/* G4, G5: the arcs of each node, in order of head, inside its region,
 * no loop, weights within the bound. */
static twz_status check_arcs(const struct twz_container *c,
			     const struct twz_content *v,
			     const struct twz_graph_params *p)
{
	const uint8_t *first = v->data[TWZ_SECTION_GRAPH_ARC_FIRST];
	const uint8_t *head = v->data[TWZ_SECTION_GRAPH_ARC_HEAD];
	const uint8_t *weight = v->data[TWZ_SECTION_GRAPH_ARC_WEIGHT];
	const uint8_t *regions = v->data[TWZ_SECTION_GRAPH_REGIONS];
	uint32_t region = 0;

	if (twz_le32(first) != 0 ||
	    twz_le32(first + 4 * (size_t)c->node_count) != p->arc_count)
		return TWZ_E_DAMAGED;
	for (uint32_t n = 0; n < c->node_count; n++) {
		uint32_t a = twz_le32(first + 4 * (size_t)n);
		uint32_t b = twz_le32(first + 4 * ((size_t)n + 1));
		while (twz_le32(regions + 4 * ((size_t)region + 1)) <= n)
			region++;
		uint32_t lo = twz_le32(regions + 4 * (size_t)region);
		uint32_t hi = twz_le32(regions + 4 * ((size_t)region + 1));
		if (b < a || b - a > p->max_degree || b > p->arc_count)
			return TWZ_E_DAMAGED;
		for (uint32_t i = a; i < b; i++) {
			uint32_t h = twz_le32(head + 4 * (size_t)i);
			uint64_t w = twz_le64(weight + 8 * (size_t)i);
			if (h < lo || h >= hi || h == n || w == 0 ||
			    w > p->max_weight)
				return TWZ_E_DAMAGED;
			if (i > a && h <= twz_le32(head + 4 * ((size_t)i - 1)))
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

/* G6: NODE_ID and ID_NODE are inverse permutations. */
static twz_status check_ids(const struct twz_container *c,
			    const struct twz_content *v,
			    const struct twz_graph_params *p)
{
	const uint8_t *node_id = v->data[TWZ_SECTION_GRAPH_NODE_ID];
	const uint8_t *id_node = v->data[TWZ_SECTION_GRAPH_ID_NODE];

	for (uint32_t n = 0; n < c->node_count; n++) {
		uint32_t id = twz_le32(node_id + 4 * (size_t)n);
		if (id < p->id_base || id - p->id_base >= c->node_count ||
		    twz_le32(id_node + 4 * (size_t)(id - p->id_base)) != n)
			return TWZ_E_DAMAGED;
	}
	return TWZ_OK;
}

/* G7 to G9: every row starts at its region's first node, its runs rise
 * inside the region, and each names an arc of its source (or, with
 * off-mesh links, one of its link arcs, after its arcs) or says
 * unreachable. */
static twz_status check_rows(const struct twz_container *c,
			     const struct twz_content *v,
			     const struct twz_graph_params *p)
{
	const uint8_t *regions = v->data[TWZ_SECTION_GRAPH_REGIONS];
	const uint8_t *first = v->data[TWZ_SECTION_GRAPH_ARC_FIRST];
	const uint8_t *offsets = v->data[TWZ_SECTION_GRAPH_ROW_OFFSETS];
	const uint8_t *start = v->data[TWZ_SECTION_GRAPH_RUN_START];
	const uint8_t *arc = v->data[TWZ_SECTION_GRAPH_RUN_ARC];
	const uint8_t *links = c->required_features & TWZ_FEATURE_LINKS
		? v->data[TWZ_SECTION_LINK_FIRST] : NULL;
	uint32_t none = twz_graph_unreachable(p->arc_bytes);
	uint32_t region = 0;

	if (twz_le32(offsets) != 0 ||
	    twz_le32(offsets + 4 * (size_t)c->node_count) != p->run_count)
		return TWZ_E_DAMAGED;
	for (uint32_t n = 0; n < c->node_count; n++) {
		uint32_t a = twz_le32(offsets + 4 * (size_t)n);
		uint32_t b = twz_le32(offsets + 4 * ((size_t)n + 1));
		uint32_t deg = twz_le32(first + 4 * ((size_t)n + 1)) -
			       twz_le32(first + 4 * (size_t)n);
		if (links)
			deg += twz_le32(links + 4 * ((size_t)n + 1)) -
			       twz_le32(links + 4 * (size_t)n);
		while (twz_le32(regions + 4 * ((size_t)region + 1)) <= n)
			region++;
		uint32_t lo = twz_le32(regions + 4 * (size_t)region);
		uint32_t hi = twz_le32(regions + 4 * ((size_t)region + 1));
		if (b <= a || b > p->run_count || b - a > hi - lo)
			return TWZ_E_DAMAGED;
		if (twz_le32(start + 4 * (size_t)a) != lo)
			return TWZ_E_DAMAGED;
		for (uint32_t i = a; i < b; i++) {
			uint32_t t = twz_le32(start + 4 * (size_t)i);
			uint32_t m = twz_graph_run_arc(arc, p->arc_bytes, i);
			if (t >= hi || (i > a && t <= twz_le32(start + 4 * ((size_t)i - 1))))
				return TWZ_E_DAMAGED;
			if (m != none && m >= deg)
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

twz_status twz_graph_params_read(const struct twz_container *c,
				 const struct twz_content *v,
				 struct twz_graph_params *p)
{
	return params_read(c, v, p);
}

twz_status twz_validate_graph(const struct twz_container *c,
			      const struct twz_content *v)
{
	struct twz_graph_params p;
	twz_status st;

	if (c->method != TWZ_METHOD_CPD)
		return TWZ_E_DAMAGED;
	st = params_read(c, v, &p);
	if (st == TWZ_OK)
		st = check_sizes(c, v, &p);
	if (st == TWZ_OK)
		st = twz_check_regions(c, v->data[TWZ_SECTION_GRAPH_REGIONS]);
	if (st == TWZ_OK)
		st = check_arcs(c, v, &p);
	if (st == TWZ_OK && (c->required_features & TWZ_FEATURE_LINKS))
		st = twz_validate_links(c, v, &p);
	if (st == TWZ_OK)
		st = check_ids(c, v, &p);
	if (st == TWZ_OK)
		st = check_rows(c, v, &p);
	return st;
}

uint64_t twz_graph_section_limit(const struct twz_container *c, uint32_t kind,
				 int *exact)
{
	uint64_t n = c->node_count;
	/* Arcs join distinct nodes, at most n (n - 1) and u32-counted. */
	uint64_t arcs = n * (n ? n - 1 : 0);
	uint64_t runs = n * n;

	if (arcs > 0xFFFFFFFFull)
		arcs = 0xFFFFFFFFull;
	if (runs > TWZ_MAX_RUNS)
		runs = TWZ_MAX_RUNS;
	*exact = 1;
	switch (kind) {
	case TWZ_SECTION_GRAPH_PARAMS:
		return TWZ_GP_SIZE;
	case TWZ_SECTION_GRAPH_REGIONS:
		return 4 * ((uint64_t)c->component_count + 1);
	case TWZ_SECTION_GRAPH_ARC_FIRST:
	case TWZ_SECTION_GRAPH_ROW_OFFSETS:
		return 4 * (n + 1);
	case TWZ_SECTION_GRAPH_NODE_ID:
	case TWZ_SECTION_GRAPH_ID_NODE:
		return 4 * n;
	case TWZ_SECTION_GRAPH_COORDS:
		return 16 * n;
	}
	*exact = 0;
	switch (kind) {
	case TWZ_SECTION_GRAPH_ARC_HEAD:
		return 4 * arcs;
	case TWZ_SECTION_GRAPH_ARC_WEIGHT:
		return 8 * arcs;
	case TWZ_SECTION_GRAPH_RUN_START:
	case TWZ_SECTION_GRAPH_RUN_ARC:
		return 4 * runs;
	}
	return UINT64_MAX;
}
