/*
 * render_clearance.h - the clearance overlay of `twigz render`
 * (render_clearance.c): each walkable cell coloured by the largest agent
 * that stands on it, the side of the largest walkable square with the
 * cell as its corner of lowest x and y. Listed in render_overlays.c.
 */
#ifndef RENDER_CLEARANCE_H
#define RENDER_CLEARANCE_H

#include "render.h"

int twz_clearance_prepare(struct twz_scene *sc, struct twz_overlay_item *it,
			  struct twz_error *err);
int twz_clearance_cell(const struct twz_scene *sc,
		       const struct twz_overlay_item *it, uint32_t x,
		       uint32_t y, struct twz_rgb *out);
void twz_clearance_legend(const struct twz_render *r,
			  const struct twz_overlay_item *it,
			  struct twz_legend *lg);
void twz_clearance_release(struct twz_overlay_item *it);

#endif
