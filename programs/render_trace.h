/*
 * render_trace.h - the `--baseline ALGO,SX,SY,GX,GY` overlay of `twigz
 * render` (render_trace.c): the cells one online search of baseline.h
 * touches on one problem, its path, and the database's path on top.
 *
 * It is an overlay like those of render_overlays.c's table, but its
 * argument starts with a word (the search's name), so the command parses
 * it with twz_trace_overlay_parse instead of twz_overlay_parse.
 */
#ifndef RENDER_TRACE_H
#define RENDER_TRACE_H

#include "render.h"

extern const struct twz_overlay twz_trace_overlay;

/* Parse "ALGO,SX,SY,GX,GY" into it (the cells into arg[], the whole text
 * into text). 0, or -1 with a message in err. */
int twz_trace_overlay_parse(struct twz_overlay_item *it,
			    const struct twz_overlay *kind, const char *text,
			    struct twz_error *err);

#endif
