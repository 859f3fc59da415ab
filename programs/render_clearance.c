/*
 * render_clearance.c - the clearance overlay: the level's clearance map
 * (precompute/clearance.c) over the scene's walkable cells, one colour a
 * clearance, so a reader sees where agents of each size fit. It reads no
 * database: a level or a database's cells do.
 */
#include "render_clearance.h"

#include <stdio.h>
#include <stdlib.h>

#include "clearance.h"

/* Clearances from this one up share a colour. */
#define SHOWN_MAX 8u

struct clearance_data {
	unsigned max;           /* largest clearance, capped at SHOWN_MAX */
	uint8_t map[];          /* [height][width] */
};

int twz_clearance_prepare(struct twz_scene *sc, struct twz_overlay_item *it,
			  struct twz_error *err)
{
	struct twz_grid g = { sc->width, sc->height, sc->walkable, 0 };
	size_t cells = (size_t)sc->width * sc->height;
	uint8_t *map = twz_clearance_map(&g);
	struct clearance_data *d = malloc(sizeof *d + (cells ? cells : 1));

	if (!map || !d) {
		free(map);
		free(d);
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", sc->name);
		return -1;
	}
	d->max = 0;
	for (size_t i = 0; i < cells; i++) {
		d->map[i] = map[i] > SHOWN_MAX ? SHOWN_MAX : map[i];
		if (d->map[i] > d->max)
			d->max = d->map[i];
	}
	free(map);
	it->data = d;
	return 0;
}

/* Clearance c of 1 .. max on viridis, largest brightest. */
static struct twz_rgb colour_of(unsigned c, unsigned max)
{
	return twz_palette_viridis(max > 1 ? (double)(c - 1) / (max - 1) : 1.0);
}

int twz_clearance_cell(const struct twz_scene *sc,
		       const struct twz_overlay_item *it, uint32_t x,
		       uint32_t y, struct twz_rgb *out)
{
	const struct clearance_data *d = it->data;
	unsigned c = d->map[(size_t)y * sc->width + x];

	if (!c)
		return 0;
	*out = colour_of(c, d->max);
	return 1;
}

void twz_clearance_legend(const struct twz_render *r,
			  const struct twz_overlay_item *it,
			  struct twz_legend *lg)
{
	const struct clearance_data *d = it->data;

	(void)r;
	twz_legend_add(lg, TWZ_LEGEND_HEADING, "clearance: largest agent");
	for (unsigned c = 1; c <= d->max; c++) {
		struct twz_legend_entry *e = twz_legend_add(lg, TWZ_LEGEND_SWATCH,
			c == SHOWN_MAX ? "%u or more cells" : c == 1 ? "%u cell" :
			"%u cells", c);
		e->colour = colour_of(c, d->max);
	}
}

void twz_clearance_release(struct twz_overlay_item *it)
{
	free(it->data);
	it->data = NULL;
}
