/*
 * twz_validate_transit_access.c - content validation of a TRANSIT file of
 * the access-node layout (format 1.4, TWZ_FEATURE_TRANSIT_ACCESS,
 * FORMAT.md 5j, checks TA1 to TA8, TA7 for either form of the access
 * entries: 8-byte ACCESS or packed ACCESS_PACKED). After it succeeds a query may follow
 * every index without checks: access ranges, transit indices, table rows
 * and their bits, local rows and their moves. Distances stay unproven;
 * a crafted file gets wrong answers from them, never a read outside the
 * file or an endless walk. What it shares with the block-list layout and
 * the checks of sections read on use is in twz_validate_transit_common.c.
 */
#include <string.h>

#include "twz_validate_grid.h"
#include "twz_validate_method.h"
#include "twz_validate_transit.h"

static const uint32_t required[] = {
	TWZ_SECTION_CELL_NODE, TWZ_SECTION_NODE_CELL, TWZ_SECTION_NODE_COMPONENT,
	TWZ_SECTION_TRANSIT_PARAMS, TWZ_SECTION_TRANSIT_ROW_OFFSETS,
	TWZ_SECTION_TRANSIT_RUNS, TWZ_SECTION_ACCESS_FIRST,
	TWZ_SECTION_ACCESS_NODES, TWZ_SECTION_ACCESS_TABLE,
};

/* The access entries: 8-byte ACCESS, or ACCESS_PACKED with the lists of
 * the blocks its places index. */
struct entries {
	const uint8_t *acc;           /* NULL: read on use */
	uint64_t count;
	struct twz_access_form form;
};

static inline uint32_t at32(const uint8_t *p, uint64_t i)
{
	return twz_le32(p + 4 * i);
}

/* TA3: nodes block after block, every one inside the block grid; where[n]
 * gets n's block, packed. */
static twz_status check_order(const struct twz_container *c,
			      const struct twz_tparams *pr,
			      const uint8_t *node_cell, uint32_t *where)
{
	uint32_t last = 0;

	if (!where)
		return TWZ_E_NOMEM;
	for (uint32_t n = 0; n < c->node_count; n++) {
		uint32_t b = twz_transit_block_of(c, pr, at32(node_cell, n));
		if (b == UINT32_MAX || b < last)
			return TWZ_E_DAMAGED;
		last = b;
		where[n] = (b / pr->cols) << BX_BITS | b % pr->cols;
	}
	return TWZ_OK;
}

/* TA4: transit records: nodes by region, then node; each row's end the
 * first index of another region; widths, reserved bytes, row bits laid
 * end to end. *bits: the table's length in bits. */
static twz_status check_records(const struct twz_container *c,
				const struct twz_tparams *pr, const uint8_t *rec,
				const uint8_t *node_cell, const uint8_t *comp,
				uint64_t *bits)
{
	uint64_t bit = 0;
	uint32_t end = pr->m;

	for (uint32_t i = pr->m; i-- > 0;) {
		const uint8_t *r = rec + (uint64_t)i * TWZ_AN_SIZE;
		uint32_t v = twz_le32(r + TWZ_AN_NODE);
		if (v >= c->node_count)
			return TWZ_E_DAMAGED;
		if (i + 1 < pr->m) {
			uint32_t w = twz_le32(r + TWZ_AN_SIZE + TWZ_AN_NODE);
			uint32_t cv = at32(comp, v), cw = at32(comp, w);
			if (cv > cw || (cv == cw && v >= w))
				return TWZ_E_DAMAGED;
			if (cv != cw)
				end = i + 1;
		}
		uint32_t cell = at32(node_cell, v);
		if (twz_le16(r + TWZ_AN_X) != cell % c->width ||
		    twz_le16(r + TWZ_AN_Y) != cell / c->width ||
		    twz_le32(r + TWZ_AN_ROW_END) != end ||
		    r[TWZ_AN_WIDTH_S] > TWZ_AN_MAX_WIDTH ||
		    r[TWZ_AN_WIDTH_D] > TWZ_AN_MAX_WIDTH)
			return TWZ_E_DAMAGED;
		if (twz_le16(r + TWZ_AN_RESERVED))
			return TWZ_E_RESERVED;
	}
	for (uint32_t i = 0; i < pr->m; i++) {
		const uint8_t *r = rec + (uint64_t)i * TWZ_AN_SIZE;
		if (twz_le64(r + TWZ_AN_ROW_BIT) != bit)
			return TWZ_E_DAMAGED;
		/* At most 2^26 x 56 bits a row: no overflow. */
		bit += (uint64_t)(twz_le32(r + TWZ_AN_ROW_END) - i - 1) *
		       (r[TWZ_AN_WIDTH_S] + r[TWZ_AN_WIDTH_D]);
	}
	*bits = bit;
	return TWZ_OK;
}

/* TA6: every table entry, reference plus base plus field, in
 * [0, TWZ_MAX_NODES) in both halves, and counts a path between the two
 * cells can have (twz_transit_counts_possible). */
static twz_status check_table(const struct twz_container *c,
			      const struct twz_tparams *pr, const uint8_t *rec,
			      const uint8_t *table)
{
	for (uint32_t i = 0; i < pr->m; i++) {
		const uint8_t *r = rec + (uint64_t)i * TWZ_AN_SIZE;
		unsigned ws = r[TWZ_AN_WIDTH_S], wd = r[TWZ_AN_WIDTH_D];
		int64_t bs = (int32_t)twz_le32(r + TWZ_AN_BASE_S);
		int64_t bd = (int32_t)twz_le32(r + TWZ_AN_BASE_D);
		uint32_t ax = twz_le16(r + TWZ_AN_X), ay = twz_le16(r + TWZ_AN_Y);
		uint64_t bit = twz_le64(r + TWZ_AN_ROW_BIT);
		uint32_t end = twz_le32(r + TWZ_AN_ROW_END);
		/* A reference cost is at most width + height in either half:
		 * with bases >= 0 and room for the widest field above, no
		 * entry of the row can leave the range, nor fall below the
		 * reference (on a 4-connected level, with no diagonal). */
		uint64_t span = (uint64_t)c->width + c->height;
		if (bs >= 0 && bd >= 0 &&
		    (c->connectivity != 4 || (bd == 0 && wd == 0)) &&
		    (uint64_t)bs + (UINT64_C(1) << ws) + span <= TWZ_MAX_NODES &&
		    (uint64_t)bd + (UINT64_C(1) << wd) + span <= TWZ_MAX_NODES)
			continue;
		for (uint32_t j = i + 1; j < end; j++, bit += ws + wd) {
			const uint8_t *q = rec + (uint64_t)j * TWZ_AN_SIZE;
			uint32_t bx = twz_le16(q + TWZ_AN_X), by = twz_le16(q + TWZ_AN_Y);
			uint32_t rs, rd;
			uint64_t f = TWZ_ACCESS_BITS(table, bit, ws + wd);
			twz_transit_reference(c->connectivity,
					      ax > bx ? ax - bx : bx - ax,
					      ay > by ? ay - by : by - ay, &rs, &rd);
			int64_t s = rs + bs + (int64_t)(f & ((UINT64_C(1) << ws) - 1));
			int64_t d = rd + bd + (int64_t)(f >> ws);
			if (s < 0 || s >= TWZ_MAX_NODES || d < 0 || d >= TWZ_MAX_NODES ||
			    !twz_transit_counts_possible(c->connectivity,
							 ax > bx ? ax - bx : bx - ax,
							 ay > by ? ay - by : by - ay,
							 (uint64_t)s, (uint64_t)d))
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

/* TA7a: the block lists of the packed form: they tile BLOCK_LIST, no
 * more entries than ACCESS_PACKED, each at most TWZ_AP_MAX_LIST long,
 * strictly increasing, below M. */
static twz_status check_block_lists(const struct twz_tparams *pr,
				    const struct entries *en, uint64_t listed)
{
	uint32_t blocks = pr->cols * pr->rows;

	if (at32(en->form.block_first, 0) != 0 ||
	    at32(en->form.block_first, blocks) != listed || listed > en->count)
		return TWZ_E_DAMAGED;
	for (uint32_t b = 0; b < blocks; b++) {
		uint32_t l0 = at32(en->form.block_first, b);
		uint32_t l1 = at32(en->form.block_first, (uint64_t)b + 1);
		if (l1 < l0 || l1 > listed || l1 - l0 > TWZ_AP_MAX_LIST)
			return TWZ_E_DAMAGED;
		for (uint32_t k = l0; k < l1; k++) {
			uint32_t i = at32(en->form.block_list, k);
			if (i >= pr->m || (k > l0 && i <= at32(en->form.block_list, k - 1)))
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

/* The places of one block's list, checked once for all of the block's
 * nodes: a node's entries only name places, so what TA7 asks of the
 * transit node behind a place is asked once a block, not once an entry. */
struct places {
	uint32_t block;               /* whose places these are */
	uint32_t l0, len;             /* the block's list in BLOCK_LIST */
	uint8_t checked[TWZ_AP_MAX_LIST];
	uint32_t region[TWZ_AP_MAX_LIST];
	uint16_t x[TWZ_AP_MAX_LIST], y[TWZ_AP_MAX_LIST];
};

/* Place p of block b's list (pl->block): a transit node on the block's
 * ring, in its outer square; its region and cell kept. 0, or -1. */
static int place_check(const struct twz_container *c,
		       const struct twz_tparams *pr, struct places *pl,
		       const struct twz_access_form *f, uint32_t p,
		       const uint8_t *rec, const uint8_t *node_cell,
		       const uint8_t *comp)
{
	uint32_t bx = pl->block % pr->cols, by = pl->block / pr->cols;
	uint32_t i = at32(f->block_list, pl->l0 + p);

	if (i >= pr->m)
		return -1;
	uint32_t v = twz_le32(rec + (uint64_t)i * TWZ_AN_SIZE + TWZ_AN_NODE);
	uint32_t cell = at32(node_cell, v);
	if (!twz_transit_ring_near(c, pr, bx, by, cell))
		return -1;
	pl->region[p] = at32(comp, v);
	pl->x[p] = (uint16_t)(cell % c->width);
	pl->y[p] = (uint16_t)(cell / c->width);
	pl->checked[p] = 1;
	return 0;
}

/* TA7 for the packed lists of every node at once: the same checks as
 * twz_transit_access_list, with each place's checked once a block (the
 * nodes come block after block, TA3). */
static twz_status check_packed_lists(const struct twz_container *c,
				     const struct twz_tparams *pr,
				     const uint8_t *first,
				     const struct entries *en,
				     const uint8_t *rec,
				     const uint8_t *node_cell,
				     const uint8_t *comp, const uint32_t *where)
{
	const struct twz_access_form *f = &en->form;
	struct places pl;

	pl.block = UINT32_MAX;
	for (uint32_t n = 0; n < c->node_count; n++) {
		uint32_t b = (where[n] >> BX_BITS) * pr->cols + (where[n] & BX_MASK);
		if (b != pl.block) {
			pl.block = b;
			pl.l0 = at32(f->block_first, b);
			pl.len = at32(f->block_first, (uint64_t)b + 1) - pl.l0;
			memset(pl.checked, 0, pl.len);
		}
		uint32_t e0 = at32(first, n), e1 = at32(first, (uint64_t)n + 1);
		uint32_t ncell = at32(node_cell, n), region = at32(comp, n);
		uint32_t nx = ncell % c->width, ny = ncell / c->width;
		uint32_t ps = 0, pd = 0;
		for (uint32_t k = e0; k < e1; k++) {
			uint32_t e = at32(en->acc, k), p = TWZ_AP_PLACE(e), rs, rd;
			if (p >= pl.len ||
			    (!pl.checked[p] &&
			     place_check(c, pr, &pl, f, p, rec, node_cell, comp) != 0) ||
			    pl.region[p] != region)
				return TWZ_E_DAMAGED;
			twz_transit_reference(c->connectivity,
					      pl.x[p] > nx ? pl.x[p] - nx : nx - pl.x[p],
					      pl.y[p] > ny ? pl.y[p] - ny : ny - pl.y[p],
					      &rs, &rd);
			int64_t es = (int64_t)rs + TWZ_AP_STRAIGHT(e) - TWZ_AP_BIAS;
			int64_t ed = (int64_t)rd + TWZ_AP_DIAGONAL(e) - TWZ_AP_BIAS;
			if (es < 0 || ed < 0 ||
			    !twz_transit_counts_possible(c->connectivity,
							 pl.x[p] > nx ? pl.x[p] - nx : nx - pl.x[p],
							 pl.y[p] > ny ? pl.y[p] - ny : ny - pl.y[p],
							 (uint64_t)es, (uint64_t)ed) ||
			    (k > e0 && twz_transit_cost_less((uint32_t)es, (uint32_t)ed, ps, pd)))
				return TWZ_E_DAMAGED;
			ps = (uint32_t)es;
			pd = (uint32_t)ed;
		}
	}
	return TWZ_OK;
}

/* TA7: access ranges that tile the entries, no longer than max_list,
 * and each list as above (en->acc NULL: deferred, its lists checked as
 * their chunks are inflated). */
static twz_status check_access(const struct twz_container *c,
			       const struct twz_tparams *pr,
			       const uint8_t *first, const struct entries *en,
			       const uint8_t *rec,
			       const uint8_t *node_cell, const uint8_t *comp,
			       const uint32_t *where)
{
	uint64_t cap = twz_transit_list_cap(pr);
	uint64_t entries = en->count;

	if (at32(first, 0) != 0 || at32(first, c->node_count) != entries)
		return TWZ_E_DAMAGED;
	for (uint32_t n = 0; n < c->node_count; n++) {
		uint32_t e0 = at32(first, n), e1 = at32(first, (uint64_t)n + 1);
		if (e1 < e0 || e1 > entries || e1 - e0 > cap)
			return TWZ_E_DAMAGED;
	}
	if (!en->acc)
		return TWZ_OK;
	if (en->form.packed)
		return check_packed_lists(c, pr, first, en, rec, node_cell, comp,
					  where);
	for (uint32_t n = 0; n < c->node_count; n++) {
		uint32_t e0 = at32(first, n), e1 = at32(first, (uint64_t)n + 1);
		twz_status st = twz_transit_access_list(
			c, pr, &en->form,
			en->acc + (uint64_t)e0 * (en->form.packed ? 4 : TWZ_AE_SIZE),
			e1 - e0, n, rec, node_cell, comp, where[n]);
		if (st != TWZ_OK)
			return st;
	}
	return TWZ_OK;
}

/* D(i, j) for transit nodes i != j of one region (TA4 puts j in i's row
 * or i in j's): its counts. */
static void table_counts(const struct twz_container *c, const uint8_t *rec,
			 const uint8_t *table, uint32_t i, uint32_t j,
			 int64_t *s, int64_t *d)
{
	uint32_t lo = i < j ? i : j, hi = i < j ? j : i, rs, rd;
	const uint8_t *r = rec + (uint64_t)lo * TWZ_AN_SIZE;
	const uint8_t *q = rec + (uint64_t)hi * TWZ_AN_SIZE;
	unsigned ws = r[TWZ_AN_WIDTH_S], wd = r[TWZ_AN_WIDTH_D];
	uint32_t ax = twz_le16(r + TWZ_AN_X), ay = twz_le16(r + TWZ_AN_Y);
	uint32_t bx = twz_le16(q + TWZ_AN_X), by = twz_le16(q + TWZ_AN_Y);
	uint64_t bit = twz_le64(r + TWZ_AN_ROW_BIT) +
		       (uint64_t)(hi - lo - 1) * (ws + wd);
	uint64_t f = TWZ_ACCESS_BITS(table, bit, ws + wd);

	twz_transit_reference(c->connectivity, ax > bx ? ax - bx : bx - ax,
			      ay > by ? ay - by : by - ay, &rs, &rd);
	*s = rs + (int64_t)(int32_t)twz_le32(r + TWZ_AN_BASE_S) +
	     (int64_t)(f & ((UINT64_C(1) << ws) - 1));
	*d = rd + (int64_t)(int32_t)twz_le32(r + TWZ_AN_BASE_D) +
	     (int64_t)(f >> ws);
}

/* TA7b: a transit node's own access entries are the table's distances
 * between the two transit nodes (0 to itself, TA7), since both are
 * shortest. */
static twz_status check_transit_entries(const struct twz_container *c,
					const struct twz_tparams *pr,
					const uint8_t *first,
					const struct entries *en,
					const uint8_t *rec, const uint8_t *table,
					const uint8_t *node_cell,
					const uint32_t *where)
{
	unsigned esize = en->form.packed ? 4 : TWZ_AE_SIZE;

	for (uint32_t i = 0; i < pr->m; i++) {
		uint32_t n = twz_le32(rec + (uint64_t)i * TWZ_AN_SIZE + TWZ_AN_NODE);
		uint32_t e0 = at32(first, n), e1 = at32(first, (uint64_t)n + 1);
		uint32_t b = (where[n] >> BX_BITS) * pr->cols + (where[n] & BX_MASK);
		const uint8_t *list = en->acc + (uint64_t)e0 * esize;
		for (uint32_t k = 0; k < e1 - e0; k++) {
			uint32_t j, es, ed;
			int64_t ts, td;
			twz_transit_access_entry(c, &en->form, list, k, rec, b,
						 at32(node_cell, n), &j, &es, &ed);
			if (j == i)
				continue;
			table_counts(c, rec, table, i, j, &ts, &td);
			if (ts != es || td != ed)
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

twz_status twz_validate_transit_access(const struct twz_container *c,
				       const struct twz_content *v)
{
	struct twz_tparams pr;
	twz_status st;

	/* TA1: the kinds of the layout, and the sizes the counts fix. */
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
	uint64_t n1 = (uint64_t)c->node_count + 1;
	/* Exactly one form of the entries. */
	/* Exactly one form of the entries, either of them possibly read
	 * on use; the block lists of the packed form are resident. */
	int has_plain = v->data[TWZ_SECTION_ACCESS] ||
			twz_transit_deferred(v, TWZ_SECTION_ACCESS);
	int has_packed = v->data[TWZ_SECTION_ACCESS_PACKED] ||
			 twz_transit_deferred(v, TWZ_SECTION_ACCESS_PACKED);
	struct entries en = { .form.packed = has_packed };
	uint32_t ekind = has_packed ? TWZ_SECTION_ACCESS_PACKED : TWZ_SECTION_ACCESS;
	unsigned esize = has_packed ? 4 : TWZ_AE_SIZE;
	if (has_plain == has_packed ||
	    has_packed != (v->data[TWZ_SECTION_ACCESS_BLOCK_FIRST] != NULL) ||
	    has_packed != (v->data[TWZ_SECTION_ACCESS_BLOCK_LIST] != NULL))
		return TWZ_E_DAMAGED;
	uint64_t acc_bytes = v->size[ekind];
	en.acc = v->data[ekind];
	en.count = acc_bytes / esize;
	if (has_packed) {
		en.form.block_first = v->data[TWZ_SECTION_ACCESS_BLOCK_FIRST];
		en.form.block_list = v->data[TWZ_SECTION_ACCESS_BLOCK_LIST];
		/* cols x rows <= 2^26 is checked below first */
		if ((uint64_t)pr.cols * pr.rows > TWZ_MAX_CELLS ||
		    v->size[TWZ_SECTION_ACCESS_BLOCK_FIRST] !=
			    4 * ((uint64_t)pr.cols * pr.rows + 1) ||
		    v->size[TWZ_SECTION_ACCESS_BLOCK_LIST] % 4)
			return TWZ_E_DAMAGED;
	}
	if ((uint64_t)pr.cols * pr.rows > TWZ_MAX_CELLS ||
	    v->size[TWZ_SECTION_TRANSIT_ROW_OFFSETS] != 4 * n1 ||
	    !twz_runs_size_ok(v->size[TWZ_SECTION_TRANSIT_RUNS]) ||
	    v->size[TWZ_SECTION_ACCESS_FIRST] != 4 * n1 ||
	    acc_bytes % esize || acc_bytes / esize > UINT32_MAX ||
	    v->size[TWZ_SECTION_ACCESS_NODES] != (uint64_t)pr.m * TWZ_AN_SIZE)
		return TWZ_E_DAMAGED;

	struct twz_cells g = twz_cells_of(c, v->data[TWZ_SECTION_CELL_NODE]);
	st = twz_check_nodes(c, &g, v);  /* TA2 */
	if (st != TWZ_OK)
		return st;
	const uint8_t *node_cell = v->data[TWZ_SECTION_NODE_CELL];
	const uint8_t *comp = v->data[TWZ_SECTION_NODE_COMPONENT];
	const uint8_t *rec = v->data[TWZ_SECTION_ACCESS_NODES];
	const uint8_t *table = v->data[TWZ_SECTION_ACCESS_TABLE];
	st = check_order(c, &pr, node_cell, v->scratch);
	if (st != TWZ_OK)
		return st;
	uint64_t bits;
	st = check_records(c, &pr, rec, node_cell, comp, &bits);
	if (st != TWZ_OK)
		return st;
	/* TA5: the table is its rows' bits, then zero padding. */
	uint64_t bytes = (bits + 7) / 8;
	if (v->size[TWZ_SECTION_ACCESS_TABLE] != bytes + TWZ_AT_PAD)
		return TWZ_E_DAMAGED;
	if (!table)
		goto access;  /* TA5 and TA6 as it is read */
	if ((bits % 8 && table[bytes - 1] >> (bits % 8)) ||
	    !twz_all_zero(table + bytes, TWZ_AT_PAD))
		return TWZ_E_RESERVED;
	st = check_table(c, &pr, rec, table);
	if (st != TWZ_OK)
		return st;
access:
	if (en.form.packed) {
		st = check_block_lists(&pr, &en,
				       v->size[TWZ_SECTION_ACCESS_BLOCK_LIST] / 4);
		if (st != TWZ_OK)
			return st;
	}
	st = check_access(c, &pr, v->data[TWZ_SECTION_ACCESS_FIRST], &en,
			  rec, node_cell, comp, v->scratch);
	if (st != TWZ_OK)
		return st;
	/* Only when both are resident: a chunk read on use is checked
	 * alone (twz_validate_transit_lazy.c). */
	if (table && en.acc) {
		st = check_transit_entries(c, &pr, v->data[TWZ_SECTION_ACCESS_FIRST],
					   &en, rec, table, node_cell, v->scratch);
		if (st != TWZ_OK)
			return st;
	}
	/* TA8: the local rows as in 1.1 (T11). */
	if (!v->data[TWZ_SECTION_TRANSIT_RUNS])
		return twz_transit_offsets_ok(c, v);
	st = twz_check_runs(c, &g, node_cell,
			    v->data[TWZ_SECTION_TRANSIT_ROW_OFFSETS],
			    v->data[TWZ_SECTION_TRANSIT_RUNS],
			    v->size[TWZ_SECTION_TRANSIT_RUNS] / 4,
			    TWZ_ROW_DIRECTION | TWZ_ROW_ANY_NONE);
	if (st != TWZ_OK)
		return st;
	return twz_transit_check_rows(c, &pr,
				      v->data[TWZ_SECTION_TRANSIT_ROW_OFFSETS],
				      v->data[TWZ_SECTION_TRANSIT_RUNS], v->scratch);
}
