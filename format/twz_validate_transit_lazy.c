/*
 * twz_validate_transit_lazy.c - the checks of a TRANSIT file's sections
 * that a reader inflates on use (format 1.4, chunked, FORMAT.md 5h):
 * step 2 checks what the resident sections say of them, and these the
 * bytes of each chunk as it is first inflated, so a query never reads
 * what the open-time checks would have refused.
 */
#include "twz_validate_grid.h"
#include "twz_validate_transit.h"

static inline uint32_t at32(const uint8_t *p, uint64_t i)
{
	return twz_le32(p + 4 * i);
}

/* The block of node n, packed as the validators' where[] holds it. */
static uint32_t packed_block(const struct twz_container *c,
			     const struct twz_tparams *pr,
			     const uint8_t *node_cell, uint32_t n)
{
	uint32_t b = twz_transit_block_of(c, pr, at32(node_cell, n));

	if (b == UINT32_MAX)
		return UINT32_MAX;
	return (b / pr->cols) << BX_BITS | b % pr->cols;
}

static twz_status params(const struct twz_container *c,
			 const struct twz_content *v, struct twz_tparams *pr)
{
	return twz_transit_params_read(c, v->data[TWZ_SECTION_TRANSIT_PARAMS], pr);
}

twz_status twz_validate_transit_runs(const struct twz_container *c,
				     const struct twz_content *v,
				     const uint8_t *bytes, uint64_t base,
				     uint64_t avail, uint32_t first,
				     uint32_t last)
{
	const uint8_t *off = v->data[TWZ_SECTION_TRANSIT_ROW_OFFSETS];
	const uint8_t *node_cell = v->data[TWZ_SECTION_NODE_CELL];
	struct twz_cells g = twz_cells_of(c, v->data[TWZ_SECTION_CELL_NODE]);
	unsigned allow = TWZ_ROW_DIRECTION | TWZ_ROW_ANY_NONE;
	struct twz_tparams pr;
	twz_status st = params(c, v, &pr);

	if (st != TWZ_OK)
		return st;
	for (uint32_t s = first; s < last; s++) {
		uint64_t lo = at32(off, s), hi = at32(off, (uint64_t)s + 1);
		if (lo < base || hi > base + avail)
			return TWZ_E_DAMAGED;   /* a row across two chunks */
		const uint8_t *row = bytes + 4 * (lo - base);
		uint32_t cell = at32(node_cell, s);
		uint32_t x = cell % c->width, y = cell / c->width;
		uint32_t a = packed_block(c, &pr, node_cell, s);
		uint32_t ax = a & BX_MASK, ay = a >> BX_BITS;
		for (uint64_t r = 0; r < hi - lo; r++) {
			uint32_t run = at32(row, r);
			uint32_t start = run >> TWZ_RUN_SYMBOL_BITS;
			if (r == 0 ? start != 0
				   : start <= at32(row, r - 1) >> TWZ_RUN_SYMBOL_BITS)
				return TWZ_E_DAMAGED;
			if (start >= c->node_count ||
			    !twz_row_symbol_ok(&g, x, y, run & TWZ_RUN_SYMBOL_MASK,
					       allow))
				return TWZ_E_DAMAGED;
			if (!r)
				continue;
			/* T11: a later run starts near the source's block. */
			uint32_t w = packed_block(c, &pr, node_cell, start);
			uint32_t tx = w & BX_MASK, ty = w >> BX_BITS;
			if (a == UINT32_MAX || w == UINT32_MAX ||
			    (tx > ax ? tx - ax : ax - tx) > pr.outer ||
			    (ty > ay ? ty - ay : ay - ty) > pr.outer)
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

twz_status twz_validate_access_entries(const struct twz_container *c,
				       const struct twz_content *v,
				       const uint8_t *bytes, uint64_t base,
				       uint64_t avail, uint32_t first,
				       uint32_t last)
{
	const uint8_t *acc_first = v->data[TWZ_SECTION_ACCESS_FIRST];
	const uint8_t *node_cell = v->data[TWZ_SECTION_NODE_CELL];
	/* Step 2 fixed the form: packed where the block lists are, those
	 * resident and checked (TA7a). */
	struct twz_access_form f = {
		.packed = v->data[TWZ_SECTION_ACCESS_BLOCK_FIRST] != NULL,
		.block_first = v->data[TWZ_SECTION_ACCESS_BLOCK_FIRST],
		.block_list = v->data[TWZ_SECTION_ACCESS_BLOCK_LIST],
	};
	unsigned esize = f.packed ? 4 : TWZ_AE_SIZE;
	struct twz_tparams pr;
	twz_status st = params(c, v, &pr);

	if (st != TWZ_OK)
		return st;
	for (uint32_t n = first; n < last; n++) {
		uint64_t e0 = at32(acc_first, n), e1 = at32(acc_first, (uint64_t)n + 1);
		if (e0 < base || e1 > base + avail)
			return TWZ_E_DAMAGED;   /* a list across two chunks */
		uint32_t where = packed_block(c, &pr, node_cell, n);
		if (where == UINT32_MAX)
			return TWZ_E_DAMAGED;
		st = twz_transit_access_list(c, &pr, &f,
					     bytes + (e0 - base) * esize,
					     (uint32_t)(e1 - e0), n,
					     v->data[TWZ_SECTION_ACCESS_NODES],
					     node_cell,
					     v->data[TWZ_SECTION_NODE_COMPONENT],
					     where);
		if (st != TWZ_OK)
			return st;
	}
	return TWZ_OK;
}

twz_status twz_validate_access_table(const struct twz_container *c,
				     const struct twz_content *v,
				     const uint8_t *bytes, uint64_t base,
				     uint64_t len)
{
	uint64_t size = v->size[TWZ_SECTION_ACCESS_TABLE];
	uint64_t used = size - TWZ_AT_PAD;     /* the rows' bytes (TA5) */
	const uint8_t *rec = v->data[TWZ_SECTION_ACCESS_NODES];
	uint32_t m = (uint32_t)(v->size[TWZ_SECTION_ACCESS_NODES] / TWZ_AN_SIZE);

	(void)c;
	/* The bits past the last row: the high ones of its last byte,
	 * then the padding. */
	if (m && used && used - 1 >= base && used - 1 < base + len) {
		const uint8_t *r = rec + (uint64_t)(m - 1) * TWZ_AN_SIZE;
		uint64_t bits = twz_le64(r + TWZ_AN_ROW_BIT) +
				(uint64_t)(twz_le32(r + TWZ_AN_ROW_END) - m) *
					(r[TWZ_AN_WIDTH_S] + r[TWZ_AN_WIDTH_D]);
		if (bits % 8 && bytes[used - 1 - base] >> (bits % 8))
			return TWZ_E_RESERVED;
	}
	for (uint64_t k = used > base ? used : base; k < base + len; k++)
		if (bytes[k - base])
			return TWZ_E_RESERVED;
	return TWZ_OK;
}
