/*
 * clearance.c - the clearance map and the level an agent of a given size
 * sees; see clearance.h.
 */
#include "clearance.h"

#include <stdlib.h>
#include <string.h>

uint8_t *twz_clearance_map(const struct twz_grid *g)
{
	size_t w = g->width, h = g->height;
	size_t cells = w * h;
	uint8_t *c = malloc(cells ? cells : 1);

	if (!c)
		return NULL;
	/* From the corner of highest x and y back: a square of side s at
	 * (x, y) is walkable exactly when (x, y) is and squares of side
	 * s - 1 fit at its three neighbours toward higher x and y. */
	for (size_t y = h; y-- > 0;)
		for (size_t x = w; x-- > 0;) {
			size_t i = y * w + x;
			if (!g->walkable[i]) {
				c[i] = 0;
				continue;
			}
			unsigned right = x + 1 < w ? c[i + 1] : 0;
			unsigned down = y + 1 < h ? c[i + w] : 0;
			unsigned diag = x + 1 < w && y + 1 < h ? c[i + w + 1] : 0;
			unsigned m = right < down ? right : down;
			if (diag < m)
				m = diag;
			c[i] = (uint8_t)(m + 1 > TWZ_CLEARANCE_MAX ? TWZ_CLEARANCE_MAX
								  : m + 1);
		}
	return c;
}

int twz_grid_for_agent(const struct twz_grid *g, const uint8_t *clearance,
		       unsigned k, struct twz_grid *out, const char *name,
		       struct twz_error *err)
{
	size_t cells = (size_t)g->width * g->height;

	*out = *g;
	out->walkable = malloc(cells ? cells : 1);
	if (!out->walkable) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
		return -1;
	}
	for (size_t i = 0; i < cells; i++)
		out->walkable[i] = clearance[i] >= k;
	return 0;
}
