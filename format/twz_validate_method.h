/*
 * twz_validate_method.h - the content validators of each method, internal
 * to format/: twz_validate_content (twz_validate.c) hands a file to the
 * one its header names. Each runs the checks FORMAT.md lists for its
 * method (section 9, checks 33 to 47; section 5b, checks T0 to T11).
 */
#ifndef TWZ_VALIDATE_METHOD_H
#define TWZ_VALIDATE_METHOD_H

#include "twz_validate.h"

/* Method 1, either layout (twz_validate_cpd.c). */
twz_status twz_validate_cpd(const struct twz_container *c,
			    const struct twz_content *v);

/* Method 1 with TWZ_FEATURE_CPD_INLINE, 1.4 (twz_validate_cpd_inline.c;
 * FORMAT.md 5e, checks I1 to I6). */
twz_status twz_validate_cpd_inline(const struct twz_container *c,
				   const struct twz_content *v);

/* Checks 41 and 42 of REGIONS and of node records of `size` bytes that
 * start as NODE_RECORDS' (twz_validate_cpd.c), shared by both layouts
 * that hold them. */
struct twz_cells;
twz_status twz_cpd_check_regions(const struct twz_container *c,
				 const uint8_t *regions);
twz_status twz_cpd_check_records(const struct twz_container *c,
				 const struct twz_cells *g, const uint8_t *rec,
				 size_t size, const uint8_t *regions);

/* Method 2 (twz_validate_transit.c). */
twz_status twz_validate_transit(const struct twz_container *c,
				const struct twz_content *v);

/* A CPD file over a junction graph (twz_validate_junctions.c), and the
 * sizes its sections may claim. */
twz_status twz_validate_junctions(const struct twz_container *c,
				  const struct twz_content *v);
uint64_t twz_junctions_raw_limit(const struct twz_container *c, uint32_t kind,
				 int *exact);

#endif /* TWZ_VALIDATE_METHOD_H */
