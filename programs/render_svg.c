/*
 * render_svg.c - the vector canvas: each primitive becomes one SVG element
 * in a growing text buffer. Needs no library. Layers become named groups
 * (<g id="...">), so a picture can be taken apart in an editor.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void put(struct twz_canvas *c, const char *fmt, ...)
{
	va_list ap;

	if (c->failed)
		return;
	for (;;) {
		size_t room = c->svg_cap - c->svg_len;
		va_start(ap, fmt);
		int n = vsnprintf(c->svg + c->svg_len, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			c->failed = 1;
			return;
		}
		if ((size_t)n < room) {
			c->svg_len += (size_t)n;
			return;
		}
		size_t cap = c->svg_cap * 2 + (size_t)n;
		char *p = realloc(c->svg, cap);
		if (!p) {
			c->failed = 1;
			return;
		}
		c->svg = p;
		c->svg_cap = cap;
	}
}

/* Numbers with at most two decimals and no trailing zeros. */
static const char *num(char *buf, double v)
{
	snprintf(buf, 32, "%.2f", v);
	char *e = buf + strlen(buf);
	while (e > buf && e[-1] == '0')
		*--e = 0;
	if (e > buf && e[-1] == '.')
		*--e = 0;
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
	return buf;
}

static void put_paint(struct twz_canvas *c, const char *attr,
		      struct twz_rgb col, double alpha)
{
	put(c, " %s=\"#%02x%02x%02x\"", attr, col.r, col.g, col.b);
	if (alpha < 1) {
		char b[32];
		put(c, " %s-opacity=\"%s\"", attr, num(b, alpha));
	}
}

static void svg_rect(struct twz_canvas *c, double x, double y, double w,
		     double h, struct twz_rgb fill, double alpha)
{
	char a[32], b[32], d[32], e[32];

	put(c, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"",
	    num(a, x), num(b, y), num(d, w), num(e, h));
	put_paint(c, "fill", fill, alpha);
	put(c, "/>\n");
}

static void put_points(struct twz_canvas *c, const double *xy, size_t n)
{
	char a[32], b[32];

	put(c, " points=\"");
	for (size_t i = 0; i < n; i++)
		put(c, "%s%s,%s", i ? " " : "", num(a, xy[2 * i]),
		    num(b, xy[2 * i + 1]));
	put(c, "\"");
}

static void svg_line(struct twz_canvas *c, const double *xy, size_t n,
		     double width, struct twz_rgb colour, double alpha)
{
	char a[32];

	if (n == 0)
		return;
	if (n == 1) {
		c->ops->circle(c, xy[0], xy[1], width / 2, colour, alpha);
		return;
	}
	put(c, "<polyline");
	put_points(c, xy, n);
	put(c, " fill=\"none\" stroke-width=\"%s\" stroke-linejoin=\"round\""
	    " stroke-linecap=\"round\"", num(a, width));
	put_paint(c, "stroke", colour, alpha);
	put(c, "/>\n");
}

static void svg_polygon(struct twz_canvas *c, const double *xy, size_t n,
			struct twz_rgb fill, double alpha)
{
	if (n < 3)
		return;
	put(c, "<polygon");
	put_points(c, xy, n);
	put_paint(c, "fill", fill, alpha);
	put(c, "/>\n");
}

static void svg_circle(struct twz_canvas *c, double cx, double cy, double r,
		       struct twz_rgb fill, double alpha)
{
	char a[32], b[32], d[32];

	put(c, "<circle cx=\"%s\" cy=\"%s\" r=\"%s\"", num(a, cx), num(b, cy),
	    num(d, r));
	put_paint(c, "fill", fill, alpha);
	put(c, "/>\n");
}

/* The raster font's 5x7 glyph on a 6-pixel advance is close to a
 * monospace font of size 10 px (advance 0.6 em); its baseline is the
 * glyph's bottom row. */
static void svg_text(struct twz_canvas *c, double x, double y, unsigned px,
		     const char *s, struct twz_rgb colour)
{
	char a[32], b[32];

	put(c, "<text x=\"%s\" y=\"%s\" font-family=\"DejaVu Sans Mono,"
	    "Menlo,Consolas,monospace\" font-size=\"%u\"", num(a, x),
	    num(b, y + TWZ_FONT_H * px), 10 * px);
	put_paint(c, "fill", colour, 1);
	put(c, ">");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		switch (ch) {
		case '&': put(c, "&amp;"); break;
		case '<': put(c, "&lt;"); break;
		case '>': put(c, "&gt;"); break;
		case '"': put(c, "&quot;"); break;
		default:
			put(c, "%c", ch >= 32 && ch < 127 ? ch : '?');
		}
	}
	put(c, "</text>\n");
}

static void svg_group(struct twz_canvas *c, const char *name)
{
	if (name) {
		/* Cells share edges: anti-aliasing them shows seams. */
		int crisp = !strcmp(name, "level") || !strcmp(name, "cells");
		put(c, "<g id=\"%s\"%s>\n", name,
		    crisp ? " shape-rendering=\"crispEdges\"" : "");
		c->svg_open_groups++;
	} else if (c->svg_open_groups > 0) {
		put(c, "</g>\n");
		c->svg_open_groups--;
	}
}

static const struct twz_canvas_ops svg_ops = {
	.rect = svg_rect,
	.line = svg_line,
	.polygon = svg_polygon,
	.circle = svg_circle,
	.text = svg_text,
	.group = svg_group,
};

int twz_svg_init(struct twz_canvas *c, uint32_t width, uint32_t height,
		 struct twz_rgb background)
{
	memset(c, 0, sizeof *c);
	c->svg_cap = 1 << 16;
	c->svg = malloc(c->svg_cap);
	if (!c->svg)
		return -1;
	c->svg[0] = 0;
	c->ops = &svg_ops;
	c->kind = TWZ_CANVAS_SVG;
	c->width = width;
	c->height = height;
	put(c, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\""
	    " viewBox=\"0 0 %u %u\" shape-rendering=\"geometricPrecision\">\n",
	    width, height, width, height);
	svg_rect(c, 0, 0, width, height, background, 1);
	return c->failed ? -1 : 0;
}

int twz_svg_finish(struct twz_canvas *c)
{
	while (c->svg_open_groups > 0)
		svg_group(c, NULL);
	put(c, "</svg>\n");
	return c->failed ? -1 : 0;
}
