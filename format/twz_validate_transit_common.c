/*
 * twz_validate_transit_common.c - the TRANSIT checks that both layouts'
 * validators (twz_validate_transit.c, twz_validate_transit_access.c) and
 * the checks of sections read on use (twz_validate_transit_lazy.c)
 * share: the parameters, blocks and rings, local rows near their source,
 * row offsets, and one node's access list. It calls no validator.
 */
#include "twz_validate_grid.h"
#include "twz_validate_transit.h"

static inline uint32_t at32(const uint8_t *p, uint64_t i)
{
	return twz_le32(p + 4 * i);
}

twz_status twz_transit_params_read(const struct twz_container *c,
				   const uint8_t *p,
				   struct twz_tparams *pr)
{
	pr->ox = twz_le32(p + TWZ_TP_ORIGIN_X);
	pr->oy = twz_le32(p + TWZ_TP_ORIGIN_Y);
	pr->side = twz_le32(p + TWZ_TP_SIDE);
	pr->cols = twz_le32(p + TWZ_TP_COLS);
	pr->rows = twz_le32(p + TWZ_TP_ROWS);
	pr->inner = twz_le32(p + TWZ_TP_INNER);
	pr->outer = twz_le32(p + TWZ_TP_OUTER);
	pr->m = twz_le32(p + TWZ_TP_TRANSITS);
	pr->max_list = twz_le32(p + TWZ_TP_MAX_LIST);
	pr->dist_bytes = twz_le32(p + TWZ_TP_DIST_BYTES);
	if (!twz_all_zero(p + TWZ_TP_RESERVED, TWZ_TP_SIZE - TWZ_TP_RESERVED))
		return TWZ_E_RESERVED;
	/* The blocks cover the grid's box from the origin, and no more
	 * than one block past it; the squares' radii make the query rule
	 * exact only when outer >= 2 inner >= 2. */
	if (pr->side == 0 || pr->cols == 0 || pr->rows == 0 ||
	    pr->ox >= c->width || pr->oy >= c->height ||
	    pr->side > TWZ_MAX_SIDE || pr->cols > TWZ_MAX_SIDE ||
	    pr->rows > TWZ_MAX_SIDE ||
	    (uint64_t)(pr->cols - 1) * pr->side >= c->width - pr->ox ||
	    (uint64_t)(pr->rows - 1) * pr->side >= c->height - pr->oy)
		return TWZ_E_DAMAGED;
	if (pr->inner == 0 || pr->outer < 2 * (uint64_t)pr->inner ||
	    pr->outer > TWZ_MAX_SIDE)
		return TWZ_E_DAMAGED;
	/* The access-node layout (1.4) has no distance planes. */
	if (pr->m > c->node_count ||
	    ((c->required_features & TWZ_FEATURE_TRANSIT_ACCESS)
		     ? pr->dist_bytes != 0
		     : pr->dist_bytes != 4 && pr->dist_bytes != 8))
		return TWZ_E_DAMAGED;
	if (pr->max_list > TWZ_TRANSIT_MAX_LIST)
		return TWZ_E_LIMIT;
	return TWZ_OK;
}

uint32_t twz_transit_block_of(const struct twz_container *c,
			      const struct twz_tparams *pr, uint32_t cell)
{
	uint32_t x = cell % c->width, y = cell / c->width;

	if (x < pr->ox || y < pr->oy)
		return UINT32_MAX;
	uint32_t bx = (x - pr->ox) / pr->side, by = (y - pr->oy) / pr->side;
	if (bx >= pr->cols || by >= pr->rows)
		return UINT32_MAX;
	return by * pr->cols + bx;
}

/* Whether cell lies on the ring of block (bx, by): the border of its
 * inner box, where the transit nodes of the block are chosen. */
int twz_transit_on_ring(const struct twz_container *c,
			const struct twz_tparams *pr, uint32_t bx, uint32_t by,
			uint32_t cell)
{
	int64_t x = cell % c->width, y = cell / c->width;
	int64_t x0 = pr->ox + ((int64_t)bx - pr->inner) * pr->side;
	int64_t y0 = pr->oy + ((int64_t)by - pr->inner) * pr->side;
	int64_t x1 = pr->ox + ((int64_t)bx + 1 + pr->inner) * pr->side;
	int64_t y1 = pr->oy + ((int64_t)by + 1 + pr->inner) * pr->side;

	if (x < x0 || x > x1 || y < y0 || y > y1)
		return 0;
	return x == x0 || x == x1 || y == y0 || y == y1;
}

int twz_transit_ring_near(const struct twz_container *c,
			  const struct twz_tparams *pr, uint32_t bx,
			  uint32_t by, uint32_t cell)
{
	if (!twz_transit_on_ring(c, pr, bx, by, cell))
		return 0;
	uint32_t ab = twz_transit_block_of(c, pr, cell);
	if (ab == UINT32_MAX)
		return 0;
	uint32_t ax = ab % pr->cols, ay = ab / pr->cols;
	return (ax > bx ? ax - bx : bx - ax) <= pr->outer &&
	       (ay > by ? ay - by : by - ay) <= pr->outer;
}

/*
 * A local row answers the targets near its source: every run after the
 * row's first starts at a target in a block near the source's. So a row
 * holds at most one run more than there are nodes near its source, and
 * the local rows at most node_count (1 + near) runs (FORMAT.md, section
 * 10a). where (node_count entries) receives each node's block, packed.
 */
twz_status twz_transit_check_rows(const struct twz_container *c,
				  const struct twz_tparams *pr,
				  const uint8_t *offsets, const uint8_t *runs,
				  const uint32_t *where)
{
	for (uint32_t s = 0; s < c->node_count; s++) {
		uint32_t a = where[s], ax = a & BX_MASK, ay = a >> BX_BITS;
		uint32_t hi = at32(offsets, (uint64_t)s + 1);
		for (uint32_t k = at32(offsets, s) + 1; k < hi; k++) {
			uint32_t w = where[at32(runs, k) >> TWZ_RUN_SYMBOL_BITS];
			uint32_t tx = w & BX_MASK, ty = w >> BX_BITS;
			if ((tx > ax ? tx - ax : ax - tx) > pr->outer ||
			    (ty > ay ? ty - ay : ay - ty) > pr->outer)
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

twz_status twz_transit_offsets_ok(const struct twz_container *c,
				  const struct twz_content *v)
{
	const uint8_t *off = v->data[TWZ_SECTION_TRANSIT_ROW_OFFSETS];
	uint64_t runs = v->size[TWZ_SECTION_TRANSIT_RUNS] / 4;

	if (at32(off, 0) != 0 || at32(off, c->node_count) != runs)
		return TWZ_E_DAMAGED;
	for (uint32_t s = 0; s < c->node_count; s++)
		if (at32(off, (uint64_t)s + 1) <= at32(off, s))
			return TWZ_E_DAMAGED;
	return TWZ_OK;
}

int twz_transit_access_entry(const struct twz_container *c,
			     const struct twz_access_form *f,
			     const uint8_t *list, uint32_t k,
			     const uint8_t *rec, uint32_t b, uint32_t ncell,
			     uint32_t *i, uint32_t *es, uint32_t *ed)
{
	if (!f->packed) {
		const uint8_t *e = list + (uint64_t)k * TWZ_AE_SIZE;
		*i = twz_le32(e + TWZ_AE_TRANSIT);
		*es = twz_le16(e + TWZ_AE_STRAIGHT);
		*ed = twz_le16(e + TWZ_AE_DIAGONAL);
		return 0;
	}
	uint32_t e = at32(list, k);
	uint32_t l0 = at32(f->block_first, b);
	uint32_t l1 = at32(f->block_first, (uint64_t)b + 1);
	if (TWZ_AP_PLACE(e) >= l1 - l0)
		return -1;
	*i = at32(f->block_list, l0 + TWZ_AP_PLACE(e));
	const uint8_t *r = rec + (uint64_t)*i * TWZ_AN_SIZE;
	uint32_t ax = twz_le16(r + TWZ_AN_X), ay = twz_le16(r + TWZ_AN_Y);
	uint32_t nx = ncell % c->width, ny = ncell / c->width, rs, rd;
	twz_transit_reference(c->connectivity, ax > nx ? ax - nx : nx - ax,
			      ay > ny ? ay - ny : ny - ay, &rs, &rd);
	int64_t vs = (int64_t)rs + TWZ_AP_STRAIGHT(e) - TWZ_AP_BIAS;
	int64_t vd = (int64_t)rd + TWZ_AP_DIAGONAL(e) - TWZ_AP_BIAS;
	if (vs < 0 || vd < 0)
		return -1;
	*es = (uint32_t)vs;
	*ed = (uint32_t)vd;
	return 0;
}

/* TA7 for node n's list: each entry a transit node of n's region on its
 * block's ring, in its outer square (so the local rows answer the walk
 * to it), at a distance a path can have (twz_transit_counts_possible),
 * entries in order of cost. where_n: n's block, packed. */
twz_status twz_transit_access_list(const struct twz_container *c,
				   const struct twz_tparams *pr,
				   const struct twz_access_form *f,
				   const uint8_t *list, uint32_t len,
				   uint32_t n, const uint8_t *rec,
				   const uint8_t *node_cell,
				   const uint8_t *comp, uint32_t where_n)
{
	uint32_t bx = where_n & BX_MASK, by = where_n >> BX_BITS;
	uint32_t ncell = at32(node_cell, n);
	uint32_t ps = 0, pd = 0;

	for (uint32_t k = 0; k < len; k++) {
		uint32_t i, es, ed;
		if (twz_transit_access_entry(c, f, list, k, rec, by * pr->cols + bx,
					     ncell, &i, &es, &ed) != 0 ||
		    i >= pr->m)
			return TWZ_E_DAMAGED;
		uint32_t v = twz_le32(rec + (uint64_t)i * TWZ_AN_SIZE + TWZ_AN_NODE);
		uint32_t cell = at32(node_cell, v);
		if (at32(comp, v) != at32(comp, n) ||
		    !twz_transit_ring_near(c, pr, bx, by, cell))
			return TWZ_E_DAMAGED;
		uint32_t cx = cell % c->width, cy = cell / c->width;
		uint32_t nx = ncell % c->width, ny = ncell / c->width;
		if (!twz_transit_counts_possible(c->connectivity,
						 cx > nx ? cx - nx : nx - cx,
						 cy > ny ? cy - ny : ny - cy, es, ed))
			return TWZ_E_DAMAGED;
		if (k && twz_transit_cost_less(es, ed, ps, pd))
			return TWZ_E_DAMAGED;
		ps = es;
		pd = ed;
	}
	return TWZ_OK;
}
