/*
 * method_transit_select.h - choosing the transit nodes of a block (the
 * claim they rest on is at the top of method_transit_select.c).
 */
#ifndef METHOD_TRANSIT_SELECT_H
#define METHOD_TRANSIT_SELECT_H

#include <stdint.h>

#include "transit.h"
#include "search_transit.h"

/* The ring (border lines of the inner box) and the outer square of a
 * block, in squares; both may reach past the grid. */
void twz_transit_block_rects(const struct twz_graph *tg, uint32_t block,
			     struct twz_rect *ring, struct twz_rect *outer);

/*
 * The transit nodes of block, ascending, in a malloc'd *list (NULL when
 * none). seen is node_count bytes of zero, left zero. 0, or -1 out of
 * memory.
 */
int twz_transit_select_block(struct twz_tsearch *ws, uint32_t block,
			     uint8_t *seen, uint32_t **list, uint32_t *len);

#endif
