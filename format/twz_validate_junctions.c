/*
 * twz_validate_junctions.c - content validation of a CPD file over a
 * junction graph (1.4, TWZ_FEATURE_JUNCTIONS; FORMAT.md, "Junction
 * graphs", checks J1 to J9): the plain node sections, the junctions and
 * the links that tile the other nodes as chains of cells with exactly two
 * moves, the junction rows and the link rows. Pure, no allocation.
 */
#include "twz_validate_grid.h"
#include "twz_validate_method.h"

static inline uint32_t at32(const uint8_t *p, uint64_t i)
{
	return twz_le32(p + 4 * i);
}

static inline const uint8_t *link_at(const uint8_t *links, uint32_t l)
{
	return links + (size_t)l * TWZ_JL_SIZE;
}

/* The sizes each junction section may have, from the header alone (the
 * limits the reader checks before inflating). */
uint64_t twz_junctions_raw_limit(const struct twz_container *c, uint32_t kind,
				 int *exact)
{
	uint64_t n = c->node_count;
	uint64_t runs = n * n < TWZ_MAX_RUNS ? n * n : TWZ_MAX_RUNS;

	*exact = kind == TWZ_SECTION_JUNCTION_PARAMS;
	switch (kind) {
	case TWZ_SECTION_JUNCTION_PARAMS:
		return TWZ_JP_SIZE;
	case TWZ_SECTION_JUNCTION_NODES:
		return 4 * n;
	case TWZ_SECTION_JUNCTION_ROW_OFFSETS:
	case TWZ_SECTION_LINK_ROW_OFFSETS:
		return 4 * (n + 1);
	case TWZ_SECTION_JUNCTION_RUNS:
		return 4 * runs;
	case TWZ_SECTION_JUNCTION_LINKS:
		return TWZ_JL_SIZE * n;
	case TWZ_SECTION_LINK_RUNS:
		return TWZ_JR_SIZE * runs;
	}
	return UINT64_MAX;
}

/* The node's cell as x and y. */
static inline void cell_xy(const struct twz_cells *g, const uint8_t *node_cell,
			   uint32_t n, uint32_t *x, uint32_t *y)
{
	uint32_t cell = at32(node_cell, n);

	*x = cell % g->width;
	*y = cell / g->width;
}

/* Legal moves from node n's cell, and whether one of them reaches v. */
static unsigned moves_of(const struct twz_cells *g, const uint8_t *node_cell,
			 uint32_t n, uint32_t v, int *reaches)
{
	uint32_t x, y;
	unsigned count = 0;

	cell_xy(g, node_cell, n, &x, &y);
	*reaches = 0;
	for (unsigned m = 0; m < g->connectivity; m++) {
		uint32_t w = twz_cells_neighbour(g, x, y, m);
		if (w == TWZ_NODE_NONE)
			continue;
		count++;
		*reaches |= w == v;
	}
	return count;
}

/*
 * J3, J4: junction nodes ascend, and they and the links' chains tile the
 * nodes [0, node_count) in node order; every chain cell has exactly two
 * moves, to the cell before it and the cell after it (the junctions A
 * and B at the two ends), so a path that enters a chain leaves it at its
 * other end.
 */
static twz_status check_links(const struct twz_container *c,
			      const struct twz_cells *g, const uint8_t *node_cell,
			      const uint8_t *jnodes, uint32_t jcount,
			      const uint8_t *links, uint32_t lcount)
{
	uint32_t j = 0, l = 0, n = 0;

	while (n < c->node_count) {
		if (j < jcount && at32(jnodes, j) == n) {
			j++;
			n++;
			continue;
		}
		if (l >= lcount)
			return TWZ_E_DAMAGED;
		const uint8_t *k = link_at(links, l);
		uint32_t a = twz_le32(k + TWZ_JL_A), b = twz_le32(k + TWZ_JL_B);
		uint32_t first = twz_le32(k + TWZ_JL_FIRST);
		uint32_t count = twz_le32(k + TWZ_JL_COUNT);
		if (first != n || count == 0 || a >= jcount || b >= jcount ||
		    count > c->node_count - n)
			return TWZ_E_DAMAGED;
		for (uint32_t i = 0; i < count; i++) {
			uint32_t prev = i ? n + i - 1 : at32(jnodes, a);
			uint32_t next = i + 1 < count ? n + i + 1 : at32(jnodes, b);
			int to_prev, to_next;
			if (prev == next ||
			    moves_of(g, node_cell, n + i, prev, &to_prev) != 2 ||
			    moves_of(g, node_cell, n + i, next, &to_next) != 2 ||
			    !to_prev || !to_next)
				return TWZ_E_DAMAGED;
		}
		n += count;
		l++;
	}
	return j == jcount && l == lcount ? TWZ_OK : TWZ_E_DAMAGED;
}

/* The first junction whose region is k or later: junctions ascend in
 * node order and DFS order numbers regions in node order, so their
 * regions never fall. */
static uint32_t first_junction_of(const uint8_t *comp, const uint8_t *jnodes,
				  uint32_t jcount, uint32_t k)
{
	uint32_t lo = 0, hi = jcount;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (at32(comp, at32(jnodes, mid)) < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The junctions [*lo, *hi) of junction j's region. */
static void region_junctions(const uint8_t *comp, const uint8_t *jnodes,
			     uint32_t jcount, uint32_t j, uint32_t *lo,
			     uint32_t *hi)
{
	uint32_t k = at32(comp, at32(jnodes, j));

	if (j >= *lo && j < *hi)
		return;
	*lo = first_junction_of(comp, jnodes, jcount, k);
	*hi = first_junction_of(comp, jnodes, jcount, k + 1);
}

/* J5, J6: a row of each junction over its region's junctions: runs start
 * at the region's first junction and ascend inside it; a symbol is a
 * legal move from the junction's cell or a direction symbol, and no move
 * (8) only in a region of one junction. */
static twz_status check_junction_rows(const struct twz_container *c,
				      const struct twz_cells *g,
				      const struct twz_content *v,
				      uint32_t jcount)
{
	const uint8_t *node_cell = v->data[TWZ_SECTION_NODE_CELL];
	const uint8_t *comp = v->data[TWZ_SECTION_NODE_COMPONENT];
	const uint8_t *jnodes = v->data[TWZ_SECTION_JUNCTION_NODES];
	const uint8_t *off = v->data[TWZ_SECTION_JUNCTION_ROW_OFFSETS];
	const uint8_t *runs = v->data[TWZ_SECTION_JUNCTION_RUNS];
	uint64_t run_count = v->size[TWZ_SECTION_JUNCTION_RUNS] / 4;
	uint32_t lo = 0, hi = 0;

	(void)c;
	if (at32(off, 0) != 0 || at32(off, jcount) != run_count)
		return TWZ_E_DAMAGED;
	for (uint32_t j = 0; j < jcount; j++) {
		uint32_t r0 = at32(off, j), r1 = at32(off, (uint64_t)j + 1);
		uint32_t x, y;
		region_junctions(comp, jnodes, jcount, j, &lo, &hi);
		cell_xy(g, node_cell, at32(jnodes, j), &x, &y);
		if (r1 <= r0 || r1 > run_count)
			return TWZ_E_DAMAGED;
		for (uint32_t r = r0; r < r1; r++) {
			uint32_t run = at32(runs, r);
			uint32_t start = run >> TWZ_RUN_SYMBOL_BITS;
			unsigned sym = run & TWZ_RUN_SYMBOL_MASK;
			if (r == r0 ? start != lo
				    : start <= at32(runs, r - 1) >> TWZ_RUN_SYMBOL_BITS)
				return TWZ_E_DAMAGED;
			if (start >= hi)
				return TWZ_E_DAMAGED;
			if (sym == TWZ_SYMBOL_NONE ? hi - lo != 1
			    : !twz_row_symbol_ok(g, x, y, sym, TWZ_ROW_DIRECTION))
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

/* J7, J8: a row of each link over the junctions of its region: runs
 * start at the region's first junction and ascend inside it, and each
 * difference is within +-TWZ_MAX_NODES. */
static twz_status check_link_rows(const struct twz_content *v,
				  uint32_t jcount, uint32_t lcount)
{
	const uint8_t *comp = v->data[TWZ_SECTION_NODE_COMPONENT];
	const uint8_t *jnodes = v->data[TWZ_SECTION_JUNCTION_NODES];
	const uint8_t *links = v->data[TWZ_SECTION_JUNCTION_LINKS];
	const uint8_t *off = v->data[TWZ_SECTION_LINK_ROW_OFFSETS];
	const uint8_t *runs = v->data[TWZ_SECTION_LINK_RUNS];
	uint64_t run_count = v->size[TWZ_SECTION_LINK_RUNS] / TWZ_JR_SIZE;
	uint32_t lo = 0, hi = 0;

	if (at32(off, 0) != 0 || at32(off, lcount) != run_count)
		return TWZ_E_DAMAGED;
	for (uint32_t l = 0; l < lcount; l++) {
		uint32_t a = twz_le32(link_at(links, l) + TWZ_JL_A);
		uint32_t r0 = at32(off, l), r1 = at32(off, (uint64_t)l + 1);
		region_junctions(comp, jnodes, jcount, a, &lo, &hi);
		if (r1 <= r0 || r1 > run_count)
			return TWZ_E_DAMAGED;
		for (uint32_t r = r0; r < r1; r++) {
			uint32_t start = twz_le32(runs + (size_t)r * TWZ_JR_SIZE);
			if (r == r0 ? start != lo
				    : start <= twz_le32(runs + (size_t)(r - 1) *
							      TWZ_JR_SIZE))
				return TWZ_E_DAMAGED;
			if (start >= hi)
				return TWZ_E_DAMAGED;
			/* A difference of two distances: the runtime's exact
			 * comparisons square sums of a few of them. */
			const uint8_t *e = runs + (size_t)r * TWZ_JR_SIZE;
			int64_t ds = (int32_t)twz_le32(e + TWZ_JR_STRAIGHT);
			int64_t dd = (int32_t)twz_le32(e + TWZ_JR_DIAGONAL);
			if (ds > TWZ_MAX_NODES || -ds > TWZ_MAX_NODES ||
			    dd > TWZ_MAX_NODES || -dd > TWZ_MAX_NODES)
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

twz_status twz_validate_junctions(const struct twz_container *c,
				  const struct twz_content *v)
{
	/* J1: the plain node sections, nothing of another layout. */
	static const uint32_t required[] = {
		TWZ_SECTION_CELL_NODE, TWZ_SECTION_NODE_CELL,
		TWZ_SECTION_NODE_COMPONENT, TWZ_SECTION_JUNCTION_PARAMS,
		TWZ_SECTION_JUNCTION_NODES, TWZ_SECTION_JUNCTION_ROW_OFFSETS,
		TWZ_SECTION_JUNCTION_RUNS, TWZ_SECTION_JUNCTION_LINKS,
		TWZ_SECTION_LINK_ROW_OFFSETS, TWZ_SECTION_LINK_RUNS,
	};
	/* Chunks are the container's, not the layout's. */
	if (c->method != TWZ_METHOD_CPD ||
	    (c->required_features & ~(uint64_t)TWZ_FEATURE_CHUNKED_SECTIONS) !=
	    TWZ_FEATURE_JUNCTIONS || c->minor < 4)
		return TWZ_E_DAMAGED;
	for (unsigned i = 0; i < sizeof required / sizeof *required; i++)
		if (!v->data[required[i]])
			return TWZ_E_DAMAGED;
	for (uint32_t k = TWZ_SECTION_CELL_NODE; k <= TWZ_SECTION_NODE_COMPONENT; k++)
		if (v->size[k] != twz_expected_raw_size(c, k))
			return TWZ_E_DAMAGED;

	/* J2: the parameters and the sizes that follow from them. */
	const uint8_t *p = v->data[TWZ_SECTION_JUNCTION_PARAMS];
	if (v->size[TWZ_SECTION_JUNCTION_PARAMS] != TWZ_JP_SIZE)
		return TWZ_E_DAMAGED;
	if (!twz_all_zero(p + TWZ_JP_RESERVED, TWZ_JP_SIZE - TWZ_JP_RESERVED))
		return TWZ_E_RESERVED;
	uint32_t jcount = twz_le32(p + TWZ_JP_JUNCTIONS);
	uint32_t lcount = twz_le32(p + TWZ_JP_LINKS);
	if (jcount > c->node_count || lcount > c->node_count - jcount ||
	    (c->node_count && !jcount) || jcount < c->component_count)
		return TWZ_E_DAMAGED;
	if (v->size[TWZ_SECTION_JUNCTION_NODES] != 4 * (uint64_t)jcount ||
	    v->size[TWZ_SECTION_JUNCTION_ROW_OFFSETS] != 4 * ((uint64_t)jcount + 1) ||
	    v->size[TWZ_SECTION_JUNCTION_LINKS] != TWZ_JL_SIZE * (uint64_t)lcount ||
	    v->size[TWZ_SECTION_LINK_ROW_OFFSETS] != 4 * ((uint64_t)lcount + 1) ||
	    !twz_runs_size_ok(v->size[TWZ_SECTION_JUNCTION_RUNS]) ||
	    v->size[TWZ_SECTION_LINK_RUNS] % TWZ_JR_SIZE ||
	    v->size[TWZ_SECTION_LINK_RUNS] / TWZ_JR_SIZE > TWZ_MAX_RUNS)
		return TWZ_E_DAMAGED;

	struct twz_cells g = twz_cells_of(c, v->data[TWZ_SECTION_CELL_NODE]);
	if (g.narrow)
		return TWZ_E_DAMAGED;
	twz_status st = twz_check_nodes(c, &g, v);
	if (st != TWZ_OK)
		return st;

	const uint8_t *jnodes = v->data[TWZ_SECTION_JUNCTION_NODES];
	for (uint32_t j = 0; j < jcount; j++)
		if (at32(jnodes, j) >= c->node_count ||
		    (j && at32(jnodes, j) <= at32(jnodes, j - 1)))
			return TWZ_E_DAMAGED;
	st = check_links(c, &g, v->data[TWZ_SECTION_NODE_CELL], jnodes, jcount,
			 v->data[TWZ_SECTION_JUNCTION_LINKS], lcount);
	if (st == TWZ_OK)
		st = check_junction_rows(c, &g, v, jcount);
	if (st == TWZ_OK)
		st = check_link_rows(v, jcount, lcount);
	return st;
}
