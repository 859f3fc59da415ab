/*
 * twz_validate_grid.c - the grid checks the CPD and TRANSIT validators
 * share: node map, regions, node records and plain run rows; see
 * twz_validate_grid.h.
 */
#include "twz_validate_grid.h"

static inline uint32_t at32(const uint8_t *p, uint64_t i)
{
	return twz_le32(p + 4 * i);
}

static int node_cell_at(const void *node_cell, uint32_t n, uint64_t i)
{
	return at32(node_cell, n) == i;
}

/* The root of node n's set: path halving keeps later finds short. */
static inline uint32_t set_root(uint32_t *parent, uint32_t n)
{
	while (parent[n] != n) {
		parent[n] = parent[parent[n]];
		n = parent[n];
	}
	return n;
}

/*
 * Different ids are never reachable from each other: no legal move joins
 * two. And one id is one connected region, not several that only share
 * an id, so "same id" is exactly "reachable":
 * - in DFS order (CPD) a region's nodes are one range, and each but its
 *   first was reached from an earlier neighbour;
 * - any other order (TRANSIT's blocks) proves nothing, so the same pass
 *   joins every node with the nodes its moves reach (a union-find in the
 *   caller's scratch, parent) and counts the pieces: every region has a
 *   node, so a region of several pieces makes more pieces than regions.
 */
static inline twz_status components(const struct twz_container *c,
				    const struct twz_cells *cells,
				    const uint8_t *node_cell,
				    const uint8_t *comp, uint32_t *parent,
				    const int narrow, const int dfs)
{
	struct twz_cells g = *cells;
	uint32_t next = 0, prev = 0;
	uint64_t pieces = 0;

	g.narrow = narrow;
	if (!dfs)
		for (uint32_t n = 0; n < c->node_count; n++)
			parent[n] = n;
	for (uint32_t n = 0; n < c->node_count; n++) {
		uint32_t k = at32(comp, n);
		if (k > next || k >= c->component_count ||
		    (dfs && n && k != prev && k != next))
			return TWZ_E_DAMAGED;
		int joined = k == next || !dfs;
		if (k == next)
			next++;
		prev = k;
		uint32_t cell = at32(node_cell, n);
		uint32_t x = cell % g.width, y = cell / g.width;
		for (unsigned m = 0; m < g.connectivity; m++) {
			uint32_t v = twz_cells_neighbour(&g, x, y, m);
			if (v == TWZ_NODE_NONE)
				continue;
			if (at32(comp, v) != k)
				return TWZ_E_DAMAGED;
			if (dfs) {
				joined |= v < n;
			} else if (v > n) {
				/* Each move is seen from both ends: one
				 * joins. */
				uint32_t a = set_root(parent, n);
				uint32_t b = set_root(parent, v);
				if (a != b)
					parent[a > b ? a : b] = a < b ? a : b;
			}
		}
		if (!joined)
			return TWZ_E_DAMAGED;
	}
	if (next != c->component_count)
		return TWZ_E_DAMAGED;
	if (dfs)
		return TWZ_OK;
	for (uint32_t n = 0; n < c->node_count; n++)
		pieces += parent[n] == n;
	return pieces == c->component_count ? TWZ_OK : TWZ_E_DAMAGED;
}

static twz_status check_components(const struct twz_container *c,
				   const struct twz_cells *g,
				   const uint8_t *node_cell, const uint8_t *comp,
				   uint32_t *scratch)
{
	/* One copy of the loop for each width and order: it is run once a
	 * move, and then tests neither. */
	if (c->node_order == TWZ_ORDER_DFS)
		return g->narrow ? components(c, g, node_cell, comp, NULL, 1, 1)
				 : components(c, g, node_cell, comp, NULL, 0, 1);
	if (!scratch)
		return TWZ_E_NOMEM;
	return g->narrow ? components(c, g, node_cell, comp, scratch, 1, 0)
			 : components(c, g, node_cell, comp, scratch, 0, 0);
}

twz_status twz_check_nodes(const struct twz_container *c,
			   const struct twz_cells *g,
			   const struct twz_content *v)
{
	const uint8_t *node_cell = v->data[TWZ_SECTION_NODE_CELL];
	twz_status st = twz_check_node_map(c, g, node_cell_at, node_cell);

	if (st != TWZ_OK)
		return st;
	return check_components(c, g, node_cell,
				v->data[TWZ_SECTION_NODE_COMPONENT], v->scratch);
}

static inline twz_status runs_of(const struct twz_container *c,
				 const struct twz_cells *cells,
				 const uint8_t *node_cell, const uint8_t *offsets,
				 const uint8_t *runs, uint64_t run_count,
				 const int narrow, const unsigned allow)
{
	struct twz_cells g = *cells;

	g.narrow = narrow;
	if (at32(offsets, 0) != 0 || at32(offsets, c->node_count) != run_count)
		return TWZ_E_DAMAGED;
	for (uint32_t s = 0; s < c->node_count; s++) {
		uint32_t lo = at32(offsets, s), hi = at32(offsets, (uint64_t)s + 1);
		uint32_t cell = at32(node_cell, s);
		uint32_t x = cell % g.width, y = cell / g.width;
		if (hi <= lo || hi > run_count)
			return TWZ_E_DAMAGED;
		for (uint32_t r = lo; r < hi; r++) {
			uint32_t run = at32(runs, r);
			uint32_t start = run >> TWZ_RUN_SYMBOL_BITS;
			if (r == lo ? start != 0
				    : start <= at32(runs, r - 1) >> TWZ_RUN_SYMBOL_BITS)
				return TWZ_E_DAMAGED;
			if (start >= c->node_count ||
			    !twz_row_symbol_ok(&g, x, y, run & TWZ_RUN_SYMBOL_MASK,
					       allow))
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

twz_status twz_check_runs(const struct twz_container *c,
			  const struct twz_cells *g, const uint8_t *node_cell,
			  const uint8_t *offsets, const uint8_t *runs,
			  uint64_t run_count, unsigned allow)
{
	/* One copy of the loop, which runs once a run, for each set of
	 * symbols the validators pass; their layouts are never narrow. */
	if (!g->narrow) {
		switch (allow) {
		case 0:
			return runs_of(c, g, node_cell, offsets, runs, run_count,
				       0, 0);
		case TWZ_ROW_DIRECTION:
			return runs_of(c, g, node_cell, offsets, runs, run_count,
				       0, TWZ_ROW_DIRECTION);
		case TWZ_ROW_DIRECTION | TWZ_ROW_ANY_NONE:
			return runs_of(c, g, node_cell, offsets, runs, run_count,
				       0, TWZ_ROW_DIRECTION | TWZ_ROW_ANY_NONE);
		}
	}
	return runs_of(c, g, node_cell, offsets, runs, run_count, g->narrow,
		       allow);
}

/* ---- regions and node records of the bucketed CPD layouts ------------ */

twz_status twz_check_regions(const struct twz_container *c,
			     const uint8_t *regions)
{
	if (twz_le32(regions) != 0 ||
	    twz_le32(regions + 4 * (size_t)c->component_count) != c->node_count)
		return TWZ_E_DAMAGED;
	for (uint32_t k = 0; k < c->component_count; k++)
		if (twz_le32(regions + 4 * (size_t)k) >=
		    twz_le32(regions + 4 * ((size_t)k + 1)))
			return TWZ_E_DAMAGED;
	return TWZ_OK;
}

/* NODE_RECORDS (or 1.4's INLINE_RECORDS, records of `size` bytes that
 * start alike) and the grid's width, for record_at. */
struct records {
	const uint8_t *rec;
	uint32_t width;
	size_t size;
};

static int record_at(const void *ctx, uint32_t n, uint64_t i)
{
	const struct records *rs = ctx;
	const uint8_t *r = rs->rec + (size_t)n * rs->size;

	return twz_le16(r + TWZ_R_X) == i % rs->width &&
	       twz_le16(r + TWZ_R_Y) == i / rs->width;
}

/* Records: the inverse of CELL_NODE; and no legal move leaves a region. */
twz_status twz_cpd_check_records(const struct twz_container *c,
				 const struct twz_cells *g, const uint8_t *rec,
				 size_t size, const uint8_t *regions)
{
	struct records rs = { rec, c->width, size };
	twz_status st = twz_check_node_map(c, g, record_at, &rs);

	if (st != TWZ_OK)
		return st;
	for (uint32_t k = 0; k < c->component_count; k++) {
		uint32_t lo = twz_le32(regions + 4 * (size_t)k);
		uint32_t hi = twz_le32(regions + 4 * ((size_t)k + 1));
		for (uint32_t n = lo; n < hi; n++) {
			const uint8_t *r = rec + (size_t)n * size;
			uint32_t x = twz_le16(r + TWZ_R_X), y = twz_le16(r + TWZ_R_Y);
			/* DFS preorder: as in twz_check_nodes. */
			int joined = n == lo || c->node_order != TWZ_ORDER_DFS;
			for (unsigned m = 0; m < c->connectivity; m++) {
				uint32_t v = twz_cells_neighbour(g, x, y, m);
				if (v == TWZ_NODE_NONE)
					continue;
				if (v < lo || v >= hi)
					return TWZ_E_DAMAGED;
				joined |= v < n;
			}
			if (!joined)
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}
