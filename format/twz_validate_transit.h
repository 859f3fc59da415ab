/*
 * twz_validate_transit.h - what the two TRANSIT validators
 * (twz_validate_transit.c, the block-list layout of 1.1, FORMAT.md 5b;
 * twz_validate_transit_access.c, the access-node layout of 1.4, 5j) and
 * the checks of sections read on use (twz_validate_transit_lazy.c) share,
 * private to format/; twz_validate_transit_common.c holds it.
 */
#ifndef TWZ_VALIDATE_TRANSIT_H
#define TWZ_VALIDATE_TRANSIT_H

#include "twz_validate.h"

/* Block coordinates packed into one u32: both are below 2^14. */
#define BX_BITS 14
#define BX_MASK ((1u << BX_BITS) - 1)

/* The block of a cell, by * cols + bx; UINT32_MAX outside the grid. */
uint32_t twz_transit_block_of(const struct twz_container *c,
			      const struct twz_tparams *pr, uint32_t cell);

/* Whether cell lies on the ring of block (bx, by). */
int twz_transit_on_ring(const struct twz_container *c,
			const struct twz_tparams *pr, uint32_t bx, uint32_t by,
			uint32_t cell);

/* Whether cell lies on the ring of block (bx, by) and in a block near
 * it: where the block's transit nodes lie, which its nodes' local rows
 * reach (T9, TA7). */
int twz_transit_ring_near(const struct twz_container *c,
			  const struct twz_tparams *pr, uint32_t bx,
			  uint32_t by, uint32_t cell);

/* Every run of a local row after its first starts at a target near the
 * source's block; where[n] is node n's block, packed (BX_BITS). */
twz_status twz_transit_check_rows(const struct twz_container *c,
				  const struct twz_tparams *pr,
				  const uint8_t *offsets, const uint8_t *runs,
				  const uint32_t *where);

/* The form of a file's access entries: 8-byte (ACCESS), or packed
 * (ACCESS_PACKED) with the resident block lists their places index,
 * checked (TA7a) before any list. */
struct twz_access_form {
	int packed;
	const uint8_t *block_first;   /* packed: u32[blocks + 1] */
	const uint8_t *block_list;    /* packed: u32 transit indices */
};

/* Entry k of an access list of form f (of the node whose cell is ncell,
 * in block b): its transit index and counts; 0, or -1 when it names no
 * list place or a negative count. */
int twz_transit_access_entry(const struct twz_container *c,
			     const struct twz_access_form *f,
			     const uint8_t *list, uint32_t k,
			     const uint8_t *rec, uint32_t b, uint32_t ncell,
			     uint32_t *i, uint32_t *es, uint32_t *ed);

/* TA7 for node n's access list of len entries at list (of form f);
 * where_n is n's block, packed (BX_BITS). */
twz_status twz_transit_access_list(const struct twz_container *c,
				   const struct twz_tparams *pr,
				   const struct twz_access_form *f,
				   const uint8_t *list, uint32_t len,
				   uint32_t n, const uint8_t *rec,
				   const uint8_t *node_cell,
				   const uint8_t *comp, uint32_t where_n);

/* Whether section kind of v is one read on use (data NULL, checked by
 * twz_validate_transit_lazy.c chunk by chunk). */
static inline int twz_transit_deferred(const struct twz_content *v,
				       uint32_t kind)
{
	switch (kind) {
	case TWZ_SECTION_TRANSIT_RUNS:
		return (v->deferred & TWZ_DEFER_TRANSIT_RUNS) != 0;
	case TWZ_SECTION_ACCESS:
		return (v->deferred & TWZ_DEFER_ACCESS) != 0;
	case TWZ_SECTION_ACCESS_PACKED:
		return (v->deferred & TWZ_DEFER_ACCESS_PACKED) != 0;
	case TWZ_SECTION_ACCESS_TABLE:
		return (v->deferred & TWZ_DEFER_ACCESS_TABLE) != 0;
	}
	return 0;
}

/* The row offsets of deferred local rows: from 0 to the runs' count,
 * every row at least one run (the rest of T11 chunk by chunk). */
twz_status twz_transit_offsets_ok(const struct twz_container *c,
				  const struct twz_content *v);

/* a < b exactly, for costs (straight, diagonal) below 2^26 in both
 * halves. */
static inline int twz_transit_cost_less(uint32_t as, uint32_t ad, uint32_t bs,
					uint32_t bd)
{
	int64_t ds = (int64_t)as - bs, dd = (int64_t)bd - ad;

	if (ds < 0 && dd >= 0)
		return 1;
	if (ds >= 0 && dd <= 0)
		return 0;
	if (ds >= 0)
		return ds * ds < 2 * dd * dd;
	return ds * ds > 2 * dd * dd;
}

#endif /* TWZ_VALIDATE_TRANSIT_H */
