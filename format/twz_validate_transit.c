/*
 * twz_validate_transit.c - content validation of a TRANSIT database
 * (method 2) of the block-list layout, step 4 of FORMAT.md for that
 * method (section 5b, checks T1 to T11; T0 is twz_validate_content's);
 * the checks it shares with CPD on the grid are in twz_validate_grid.c,
 * those it shares with the access-node layout in
 * twz_validate_transit_common.c. After it succeeds
 * a query may follow every offset, index and move without checks: node
 * ids, transit indices, list and distance ranges, runs and their moves.
 * Distances themselves cannot be checked without searching; a crafted
 * file gets wrong answers from them, never a crash or an endless walk.
 */
#include "twz_validate_grid.h"
#include "twz_validate_method.h"
#include "twz_validate_transit.h"

static const uint32_t required[] = {
	TWZ_SECTION_CELL_NODE, TWZ_SECTION_NODE_CELL, TWZ_SECTION_NODE_COMPONENT,
	TWZ_SECTION_TRANSIT_PARAMS, TWZ_SECTION_TRANSIT_BLOCKS,
	TWZ_SECTION_TRANSIT_LISTS, TWZ_SECTION_TRANSIT_NODES,
	TWZ_SECTION_TRANSIT_NODE_DIST, TWZ_SECTION_TRANSIT_TABLE,
	TWZ_SECTION_TRANSIT_ROW_OFFSETS, TWZ_SECTION_TRANSIT_RUNS,
};

static inline uint32_t at32(const uint8_t *p, uint64_t i)
{
	return twz_le32(p + 4 * i);
}

/* Block b's ranges, from its record and the next one. */
struct block {
	uint32_t n0, n1;  /* its nodes */
	uint32_t l0, l1;  /* its entries in TRANSIT_LISTS */
	uint64_t d0, d1;  /* its entries in TRANSIT_NODE_DIST */
};

static struct block block_at(const uint8_t *blk, uint32_t b)
{
	const uint8_t *r = blk + (uint64_t)b * TWZ_TB_SIZE;

	return (struct block){
		twz_le32(r + TWZ_TB_FIRST_NODE),
		twz_le32(r + TWZ_TB_SIZE + TWZ_TB_FIRST_NODE),
		twz_le32(r + TWZ_TB_FIRST_LIST),
		twz_le32(r + TWZ_TB_SIZE + TWZ_TB_FIRST_LIST),
		twz_le64(r + TWZ_TB_FIRST_DIST),
		twz_le64(r + TWZ_TB_SIZE + TWZ_TB_FIRST_DIST),
	};
}

/* Block records: node ranges in block order that hold exactly the
 * block's nodes, transit lists and distance ranges that tile their
 * sections. A list holds distinct nodes of the block's ring, so no more
 * than the ring has cells: what a global query scans is bounded by the
 * parameters (twz_transit_list_cap), not by what the file claims. */
static twz_status check_blocks(const struct twz_container *c,
			       const struct twz_tparams *pr, const uint8_t *blk,
			       const uint8_t *node_cell, const uint8_t *lists,
			       uint64_t list_len, const uint8_t *nodes,
			       uint64_t dist_entries)
{
	uint32_t blocks = pr->cols * pr->rows;
	const uint8_t *end = blk + (uint64_t)blocks * TWZ_TB_SIZE;

	if (twz_le32(blk + TWZ_TB_FIRST_NODE) != 0 ||
	    twz_le32(blk + TWZ_TB_FIRST_LIST) != 0 ||
	    twz_le64(blk + TWZ_TB_FIRST_DIST) != 0 ||
	    twz_le32(end + TWZ_TB_FIRST_NODE) != c->node_count ||
	    twz_le32(end + TWZ_TB_FIRST_LIST) != list_len ||
	    twz_le64(end + TWZ_TB_FIRST_DIST) != dist_entries)
		return TWZ_E_DAMAGED;
	for (uint32_t b = 0; b < blocks; b++) {
		struct block r = block_at(blk, b);
		if (r.n1 < r.n0 || r.n1 > c->node_count || r.l1 < r.l0 ||
		    r.l1 > list_len || r.l1 - r.l0 > twz_transit_list_cap(pr) ||
		    r.d1 < r.d0 ||
		    r.d1 - r.d0 != (uint64_t)(r.n1 - r.n0) * (r.l1 - r.l0))
			return TWZ_E_DAMAGED;
		/* A block without nodes has no path to leave it by. */
		if (r.n1 == r.n0 && r.l1 != r.l0)
			return TWZ_E_DAMAGED;
		for (uint32_t n = r.n0; n < r.n1; n++)
			if (twz_transit_block_of(c, pr, at32(node_cell, n)) != b)
				return TWZ_E_DAMAGED;
		/* Ascending transit indices whose nodes lie on the block's
		 * ring, in its outer square: queries walk to them with local
		 * rows. */
		uint32_t bx = b % pr->cols, by = b / pr->cols;
		for (uint32_t l = r.l0; l < r.l1; l++) {
			uint32_t i = at32(lists, l);
			if (i >= pr->m || (l > r.l0 && i <= at32(lists, l - 1)))
				return TWZ_E_DAMAGED;
			if (!twz_transit_ring_near(c, pr, bx, by,
						   at32(node_cell, at32(nodes, i))))
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

/* The cells of nodes a and b, as the differences of their coordinates. */
static void cell_gap(const struct twz_container *c, const uint8_t *node_cell,
		     uint32_t a, uint32_t b, uint32_t *dx, uint32_t *dy)
{
	uint32_t ca = at32(node_cell, a), cb = at32(node_cell, b);
	uint32_t ax = ca % c->width, ay = ca / c->width;
	uint32_t bx = cb % c->width, by = cb / c->width;

	*dx = ax > bx ? ax - bx : bx - ax;
	*dy = ay > by ? ay - by : by - ay;
}

/* Entry k of a distance section of count entries, between nodes a and b:
 * the unreachable mark in both halves exactly when they lie in different
 * regions, else reference + residual in [0, TWZ_MAX_NODES) in both, and
 * counts a path between their cells can have. The counts into *s, *d
 * (unreachable: UINT32_MAX both). */
static int dist_ok(const struct twz_container *c, const struct twz_tparams *pr,
		   const struct twz_content *v, const uint8_t *d, uint64_t count,
		   uint64_t k, uint32_t a, uint32_t b, uint32_t *s, uint32_t *dd)
{
	const uint8_t *comp = v->data[TWZ_SECTION_NODE_COMPONENT];
	int64_t vs, vd, far;
	uint32_t dx, dy, rs, rd;

	if (pr->dist_bytes == 4) {
		vs = (int16_t)twz_le16(d + 2 * k);
		vd = (int16_t)twz_le16(d + 2 * (count + k));
		far = TWZ_TRANSIT_FAR16;
	} else {
		vs = (int32_t)twz_le32(d + 4 * k);
		vd = (int32_t)twz_le32(d + 4 * (count + k));
		far = TWZ_TRANSIT_FAR32;
	}
	*s = *dd = UINT32_MAX;
	if (vs == far || vd == far)
		return vs == vd && at32(comp, a) != at32(comp, b);
	if (at32(comp, a) != at32(comp, b))
		return 0;
	cell_gap(c, v->data[TWZ_SECTION_NODE_CELL], a, b, &dx, &dy);
	twz_transit_reference(c->connectivity, dx, dy, &rs, &rd);
	if (rs + vs < 0 || rs + vs >= TWZ_MAX_NODES || rd + vd < 0 ||
	    rd + vd >= TWZ_MAX_NODES)
		return 0;
	*s = (uint32_t)(rs + vs);
	*dd = (uint32_t)(rd + vd);
	return twz_transit_counts_possible(c->connectivity, dx, dy, *s, *dd);
}

static twz_status check_node_dist(const struct twz_container *c,
				  const struct twz_tparams *pr,
				  const struct twz_content *v, uint64_t count)
{
	const uint8_t *blk = v->data[TWZ_SECTION_TRANSIT_BLOCKS];
	const uint8_t *lists = v->data[TWZ_SECTION_TRANSIT_LISTS];
	const uint8_t *nodes = v->data[TWZ_SECTION_TRANSIT_NODES];
	const uint8_t *d = v->data[TWZ_SECTION_TRANSIT_NODE_DIST];
	uint32_t blocks = pr->cols * pr->rows, s, dd;
	uint64_t k = 0;

	for (uint32_t b = 0; b < blocks; b++) {
		struct block r = block_at(blk, b);
		for (uint32_t n = r.n0; n < r.n1; n++)
			for (uint32_t l = r.l0; l < r.l1; l++, k++)
				if (!dist_ok(c, pr, v, d, count, k, n,
					     at32(nodes, at32(lists, l)), &s, &dd))
					return TWZ_E_DAMAGED;
	}
	return TWZ_OK;
}

static twz_status check_table(const struct twz_container *c,
			      const struct twz_tparams *pr,
			      const struct twz_content *v, uint64_t count)
{
	const uint8_t *nodes = v->data[TWZ_SECTION_TRANSIT_NODES];
	const uint8_t *d = v->data[TWZ_SECTION_TRANSIT_TABLE];
	uint32_t s, dd;
	uint64_t k = 0;

	for (uint32_t i = 0; i < pr->m; i++)
		for (uint32_t j = i + 1; j < pr->m; j++, k++)
			if (!dist_ok(c, pr, v, d, count, k, at32(nodes, i),
				     at32(nodes, j), &s, &dd))
				return TWZ_E_DAMAGED;
	return TWZ_OK;
}

/* T10, across the two sections: a transit node's distances to its own
 * block's list are the table's between the two transit nodes (and 0 to
 * itself), since both are shortest. */
static twz_status check_transit_rows(const struct twz_container *c,
				     const struct twz_tparams *pr,
				     const struct twz_content *v,
				     uint64_t node_dist, uint64_t table)
{
	const uint8_t *blk = v->data[TWZ_SECTION_TRANSIT_BLOCKS];
	const uint8_t *lists = v->data[TWZ_SECTION_TRANSIT_LISTS];
	const uint8_t *nodes = v->data[TWZ_SECTION_TRANSIT_NODES];
	const uint8_t *nd = v->data[TWZ_SECTION_TRANSIT_NODE_DIST];
	const uint8_t *tab = v->data[TWZ_SECTION_TRANSIT_TABLE];
	uint32_t b = 0;

	/* Transit nodes ascend (T8), so their blocks do (node order). */
	for (uint32_t i = 0; i < pr->m; i++) {
		uint32_t n = at32(nodes, i);
		while (block_at(blk, b).n1 <= n)
			b++;
		struct block r = block_at(blk, b);
		uint64_t k = r.d0 + (uint64_t)(n - r.n0) * (r.l1 - r.l0);
		for (uint32_t l = r.l0; l < r.l1; l++, k++) {
			uint32_t j = at32(lists, l), s, d, ts = 0, td = 0;
			dist_ok(c, pr, v, nd, node_dist, k, n, at32(nodes, j), &s, &d);
			if (j != i) {
				uint32_t lo = i < j ? i : j, hi = i < j ? j : i;
				uint64_t t = (uint64_t)lo * (2 * (uint64_t)pr->m - lo - 1) / 2 +
					     (hi - lo - 1);
				dist_ok(c, pr, v, tab, table, t, n, at32(nodes, j), &ts, &td);
			}
			if (s != ts || d != td)
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

static twz_status check_local_rows(const struct twz_container *c,
				   const struct twz_tparams *pr,
				   const uint8_t *blk, const uint8_t *offsets,
				   const uint8_t *runs, uint32_t *where)
{
	uint32_t blocks = pr->cols * pr->rows;

	if (!where)
		return TWZ_E_NOMEM;
	for (uint32_t b = 0; b < blocks; b++) {
		struct block r = block_at(blk, b);
		uint32_t packed = (b / pr->cols) << BX_BITS | b % pr->cols;
		for (uint32_t n = r.n0; n < r.n1; n++)
			where[n] = packed;
	}
	return twz_transit_check_rows(c, pr, offsets, runs, where);
}

twz_status twz_validate_transit(const struct twz_container *c,
				const struct twz_content *v)
{
	struct twz_tparams pr;
	twz_status st;

	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
		if (!v->data[required[i]] && !twz_transit_deferred(v, required[i]))
			return TWZ_E_DAMAGED;
	for (uint32_t k = TWZ_SECTION_CELL_NODE; k <= TWZ_SECTION_NODE_COMPONENT; k++)
		if (v->size[k] != twz_expected_raw_size(c, k))
			return TWZ_E_DAMAGED;
	if (v->size[TWZ_SECTION_TRANSIT_PARAMS] != TWZ_TP_SIZE)
		return TWZ_E_DAMAGED;
	st = twz_transit_params_read(c, v->data[TWZ_SECTION_TRANSIT_PARAMS], &pr);
	if (st != TWZ_OK)
		return st;

	/* Sizes, each checked against a limit before it is multiplied. */
	uint64_t blocks = (uint64_t)pr.cols * pr.rows;
	if (blocks > TWZ_MAX_CELLS ||
	    v->size[TWZ_SECTION_TRANSIT_BLOCKS] != (blocks + 1) * TWZ_TB_SIZE)
		return TWZ_E_DAMAGED;
	uint64_t list_bytes = v->size[TWZ_SECTION_TRANSIT_LISTS];
	if (list_bytes % 4 || list_bytes / 4 > UINT32_MAX ||
	    v->size[TWZ_SECTION_TRANSIT_NODES] != (uint64_t)pr.m * 4)
		return TWZ_E_DAMAGED;
	uint64_t dist_bytes = v->size[TWZ_SECTION_TRANSIT_NODE_DIST];
	uint64_t table = (uint64_t)pr.m * (pr.m ? pr.m - 1 : 0) / 2;
	if (dist_bytes % pr.dist_bytes ||
	    v->size[TWZ_SECTION_TRANSIT_TABLE] != table * pr.dist_bytes)
		return TWZ_E_DAMAGED;
	if (v->size[TWZ_SECTION_TRANSIT_ROW_OFFSETS] !=
	    ((uint64_t)c->node_count + 1) * 4)
		return TWZ_E_DAMAGED;
	uint64_t run_bytes = v->size[TWZ_SECTION_TRANSIT_RUNS];
	if (!twz_runs_size_ok(run_bytes))
		return TWZ_E_DAMAGED;

	struct twz_cells g = twz_cells_of(c, v->data[TWZ_SECTION_CELL_NODE]);
	st = twz_check_nodes(c, &g, v);
	if (st != TWZ_OK)
		return st;
	const uint8_t *node_cell = v->data[TWZ_SECTION_NODE_CELL];
	const uint8_t *nodes = v->data[TWZ_SECTION_TRANSIT_NODES];
	for (uint32_t i = 0; i < pr.m; i++)
		if (at32(nodes, i) >= c->node_count ||
		    (i && at32(nodes, i) <= at32(nodes, i - 1)))
			return TWZ_E_DAMAGED;
	st = check_blocks(c, &pr, v->data[TWZ_SECTION_TRANSIT_BLOCKS], node_cell,
			  v->data[TWZ_SECTION_TRANSIT_LISTS], list_bytes / 4,
			  nodes, dist_bytes / pr.dist_bytes);
	if (st != TWZ_OK)
		return st;
	st = check_node_dist(c, &pr, v, dist_bytes / pr.dist_bytes);
	if (st != TWZ_OK)
		return st;
	st = check_table(c, &pr, v, table);
	if (st != TWZ_OK)
		return st;
	st = check_transit_rows(c, &pr, v, dist_bytes / pr.dist_bytes, table);
	if (st != TWZ_OK)
		return st;
	/* Direction symbols are decoded, and their moves checked, at query
	 * time; "no move" marks wildcards too. */
	if (!v->data[TWZ_SECTION_TRANSIT_RUNS])
		return twz_transit_offsets_ok(c, v);
	st = twz_check_runs(c, &g, node_cell,
			    v->data[TWZ_SECTION_TRANSIT_ROW_OFFSETS],
			    v->data[TWZ_SECTION_TRANSIT_RUNS], run_bytes / 4,
			    TWZ_ROW_DIRECTION | TWZ_ROW_ANY_NONE);
	if (st != TWZ_OK)
		return st;
	/* The region check of T7 is done with the scratch memory. */
	return check_local_rows(c, &pr, v->data[TWZ_SECTION_TRANSIT_BLOCKS],
				v->data[TWZ_SECTION_TRANSIT_ROW_OFFSETS],
				v->data[TWZ_SECTION_TRANSIT_RUNS], v->scratch);
}
