/*
 * render_closed.c - `twigz render --closed FILE`: cells closed right now
 * (closed_cells.h) drawn as closed doors, and the paths and flow fields
 * of the other overlays searched around them (twz_path_closed,
 * twz_flow_field_live) instead of read from the database's rows.
 */
#include <stdlib.h>
#include <string.h>

#include "closed_cells.h"
#include "render.h"

int twz_scene_set_closed(struct twz_scene *sc, const char *path,
			 struct twz_error *err)
{
	struct twz_closed_cells cells;

	if (twz_closed_cells_load(path, sc->width, sc->height, &cells,
				  err) != 0)
		return -1;
	free(sc->closed);
	sc->closed_count = 0;
	sc->closed = calloc((size_t)sc->width * sc->height + 1, 1);
	if (!sc->closed) {
		twz_closed_cells_free(&cells);
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", path);
		return -1;
	}
	for (size_t i = 0; i < cells.count; i++) {
		uint32_t x = cells.xy[2 * i], y = cells.xy[2 * i + 1];
		size_t cell = (size_t)y * sc->width + x;
		/* A listed wall is closed already; repeats count once. */
		if (!twz_scene_walkable(sc, x, y) || sc->closed[cell])
			continue;
		sc->closed[cell] = 1;
		sc->closed_count++;
	}
	twz_closed_cells_free(&cells);
	return 0;
}

/* The closed cells as the node bitmap of the scene's database and a
 * scratch for it; -1 when out of memory. */
static int closed_setup(const struct twz_scene *sc, uint8_t **bits,
			twz_scratch **scratch)
{
	uint32_t n = twz_node_count(sc->db);

	*scratch = NULL;
	*bits = calloc(TWZ_CLOSED_BYTES(n) + 1, 1);
	if (!*bits)
		return -1;
	for (twz_node v = 0; v < n; v++) {
		uint32_t x, y;
		twz_node_xy(sc->db, v, &x, &y);
		if (sc->closed[(size_t)y * sc->width + x])
			(*bits)[v >> 3] |= (uint8_t)(1u << (v & 7));
	}
	if (twz_scratch_create(sc->db, scratch) != TWZ_OK) {
		free(*bits);
		return -1;
	}
	return 0;
}

twz_status twz_scene_path(const struct twz_scene *sc, twz_node s, twz_node t,
			  twz_node *buf, size_t cap, size_t *len,
			  uint32_t *straight, uint32_t *diagonal)
{
	uint8_t *bits;
	twz_scratch *scratch;

	if (!sc->closed) {
		twz_status st = twz_path(sc->db, s, t, buf, cap, len);
		if (st == TWZ_OK)
			st = twz_cost_exact(sc->db, s, t, straight, diagonal);
		return st;
	}
	if (closed_setup(sc, &bits, &scratch))
		return TWZ_E_NOMEM;
	twz_closed cl = { bits, NULL, NULL };
	twz_status st = twz_path_closed(sc->db, scratch, &cl, s, t, buf, cap,
					len, straight, diagonal);
	twz_scratch_free(scratch);
	free(bits);
	/* A picture draws a shut end as no path. */
	if (st == TWZ_E_START_SHUT || st == TWZ_E_GOAL_SHUT)
		st = TWZ_E_UNREACHABLE;
	return st;
}

twz_status twz_scene_flow(const struct twz_scene *sc, twz_node t,
			  twz_node *next, size_t cap)
{
	uint8_t *bits;
	twz_scratch *scratch;

	if (!sc->closed)
		return twz_flow_field(sc->db, t, next, cap);
	if (closed_setup(sc, &bits, &scratch))
		return TWZ_E_NOMEM;
	twz_closed cl = { bits, NULL, NULL };
	twz_status st = twz_flow_field_live(sc->db, scratch, &cl, t, next, cap);
	twz_scratch_free(scratch);
	free(bits);
	return st;
}

/* ---- the overlay: closed cells as closed doors ------------------------- */

static void closed_draw(const struct twz_render *r,
			const struct twz_overlay_item *it, enum twz_layer layer)
{
	const struct twz_scene *sc = r->scene;
	const struct twz_layout *l = r->layout;
	struct twz_canvas *c = r->canvas;
	double s = l->scale;

	(void)it;
	if (layer != TWZ_LAYER_CELLS || !sc->closed)
		return;
	for (uint32_t y = 0; y < sc->height; y++)
		for (uint32_t x = 0; x < sc->width; x++) {
			if (!sc->closed[(size_t)y * sc->width + x])
				continue;
			double x0 = l->map_x + (double)x * s;
			double y0 = l->map_y + (double)y * s;
			c->ops->rect(c, x0, y0, s, s, TWZ_COLOUR_CLOSED, 1);
			if (l->scale < 6)
				continue;
			/* A cross: shut, not a wall of the level. */
			double in = s * 0.22, w = s >= 16 ? s / 10 : 1;
			double a[4] = { x0 + in, y0 + in, x0 + s - in, y0 + s - in };
			double b[4] = { x0 + s - in, y0 + in, x0 + in, y0 + s - in };
			c->ops->line(c, a, 2, w, TWZ_COLOUR_HALO, 1);
			c->ops->line(c, b, 2, w, TWZ_COLOUR_HALO, 1);
		}
}

static void closed_legend(const struct twz_render *r,
			  const struct twz_overlay_item *it,
			  struct twz_legend *lg)
{
	(void)it;
	twz_legend_add(lg, TWZ_LEGEND_SWATCH, "closed: %u cell%s",
		       r->scene->closed_count,
		       r->scene->closed_count == 1 ? "" : "s")->colour =
		TWZ_COLOUR_CLOSED;
}

const struct twz_overlay twz_overlay_closed = {
	.name = "closed",
	.arg_help = "FILE",
	.help = "cells closed right now (one 'x y' a line): drawn, and the "
		"paths and flows go round them",
	.nargs = 0,
	.flags = 0,
	.draw = closed_draw,
	.legend = closed_legend,
};
