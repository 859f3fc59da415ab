/*
 * twz_validate_method.h - the content validators of each method and
 * layout, internal to format/: twz_validate_content (twz_validate.c)
 * hands a file to the one its header names. Each runs the checks
 * FORMAT.md lists for its layout (section 9, checks 33 to 47; section
 * 5b, checks T0 to T11; 5i; 5j; 5g) over the shared checks of
 * twz_validate_grid.c and twz_validate_transit_common.c, and none calls
 * another.
 */
#ifndef TWZ_VALIDATE_METHOD_H
#define TWZ_VALIDATE_METHOD_H

#include "twz_validate.h"

/* Method 1, the plain or the bucketed layout (twz_validate_cpd.c). */
twz_status twz_validate_cpd(const struct twz_container *c,
			    const struct twz_content *v);

/* Method 1 with TWZ_FEATURE_CPD_INLINE, 1.4 (twz_validate_cpd_inline.c;
 * FORMAT.md 5e, checks I1 to I6). */
twz_status twz_validate_cpd_inline(const struct twz_container *c,
				   const struct twz_content *v);

/* Method 2, the block lists of 1.1 (twz_validate_transit.c). */
twz_status twz_validate_transit(const struct twz_container *c,
				const struct twz_content *v);

/* Method 2 with TWZ_FEATURE_TRANSIT_ACCESS, 1.4
 * (twz_validate_transit_access.c; FORMAT.md 5j, checks TA1 to TA8). */
twz_status twz_validate_transit_access(const struct twz_container *c,
				       const struct twz_content *v);

/* A CPD file over a junction graph (twz_validate_junctions.c), and the
 * sizes its sections may claim. */
twz_status twz_validate_junctions(const struct twz_container *c,
				  const struct twz_content *v);
uint64_t twz_junctions_raw_limit(const struct twz_container *c, uint32_t kind,
				 int *exact);

#endif /* TWZ_VALIDATE_METHOD_H */
