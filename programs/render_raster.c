/*
 * render_raster.c - the raster canvas: an RGB buffer and anti-aliased
 * primitives. Coverage is computed per pixel (exact for rectangles, from
 * the distance to the edge for circles and lines, 4x4 samples for
 * polygons), so a pixel fully inside a shape gets exactly its colour: the
 * tests rely on that at cell centres.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

static inline void blend(struct twz_canvas *c, int64_t x, int64_t y,
			 struct twz_rgb col, double a)
{
	if (x < 0 || y < 0 || x >= c->width || y >= c->height || a <= 0)
		return;
	uint8_t *p = c->rgb + ((size_t)y * c->width + (size_t)x) * 3;
	if (a >= 1) {
		p[0] = col.r;
		p[1] = col.g;
		p[2] = col.b;
		return;
	}
	p[0] = (uint8_t)lrint(p[0] + (col.r - p[0]) * a);
	p[1] = (uint8_t)lrint(p[1] + (col.g - p[1]) * a);
	p[2] = (uint8_t)lrint(p[2] + (col.b - p[2]) * a);
}

/* Pixel range [*lo, *hi) that [a, b) touches, clipped to [0, max). */
static int span(double a, double b, uint32_t max, int64_t *lo, int64_t *hi)
{
	if (!(a < b) || b <= 0 || a >= max)
		return 0;
	*lo = a < 0 ? 0 : (int64_t)floor(a);
	*hi = b > max ? max : (int64_t)ceil(b);
	return *lo < *hi;
}

/* The bounding box of n points: b = { min x, min y, max x, max y }. */
static void bounds(const double *xy, size_t n, double b[4])
{
	b[0] = b[1] = INFINITY;
	b[2] = b[3] = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		b[0] = fmin(b[0], xy[2 * i]);
		b[1] = fmin(b[1], xy[2 * i + 1]);
		b[2] = fmax(b[2], xy[2 * i]);
		b[3] = fmax(b[3], xy[2 * i + 1]);
	}
}

static inline double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

static void raster_rect(struct twz_canvas *c, double x, double y, double w,
			double h, struct twz_rgb fill, double alpha)
{
	int64_t x0, x1, y0, y1;

	if (!span(x, x + w, c->width, &x0, &x1) ||
	    !span(y, y + h, c->height, &y0, &y1))
		return;
	for (int64_t py = y0; py < y1; py++) {
		double cy = fmin(py + 1.0, y + h) - fmax((double)py, y);
		for (int64_t px = x0; px < x1; px++) {
			double cx = fmin(px + 1.0, x + w) - fmax((double)px, x);
			blend(c, px, py, fill, alpha * clamp01(cx) * clamp01(cy));
		}
	}
}

static void raster_circle(struct twz_canvas *c, double cx, double cy,
			  double r, struct twz_rgb fill, double alpha)
{
	int64_t x0, x1, y0, y1;

	if (!span(cx - r - 1, cx + r + 1, c->width, &x0, &x1) ||
	    !span(cy - r - 1, cy + r + 1, c->height, &y0, &y1))
		return;
	for (int64_t py = y0; py < y1; py++)
		for (int64_t px = x0; px < x1; px++) {
			double d = hypot(px + 0.5 - cx, py + 0.5 - cy);
			blend(c, px, py, fill, alpha * clamp01(r - d + 0.5));
		}
}

/* Distance from (px, py) to the segment a-b. */
static double seg_dist(double px, double py, double ax, double ay, double bx,
		       double by)
{
	double dx = bx - ax, dy = by - ay;
	double l2 = dx * dx + dy * dy;
	double t = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;

	t = t < 0 ? 0 : t > 1 ? 1 : t;
	return hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/*
 * A polyline is drawn through a coverage mask over its bounding box (the
 * maximum over its segments), then blended once, so joins are not
 * darkened twice by a translucent colour.
 */
static void raster_line(struct twz_canvas *c, const double *xy, size_t n,
			double width, struct twz_rgb colour, double alpha)
{
	double hw = width / 2, b[4];
	int64_t x0, x1, y0, y1;

	if (n == 0)
		return;
	bounds(xy, n, b);
	if (!span(b[0] - hw - 1, b[2] + hw + 1, c->width, &x0, &x1) ||
	    !span(b[1] - hw - 1, b[3] + hw + 1, c->height, &y0, &y1))
		return;
	size_t bw = (size_t)(x1 - x0), bh = (size_t)(y1 - y0);
	float *mask = calloc(bw * bh, sizeof *mask);
	if (!mask) {
		c->failed = 1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		double ax = xy[2 * i], ay = xy[2 * i + 1];
		double bx = i + 1 < n ? xy[2 * i + 2] : ax;
		double by = i + 1 < n ? xy[2 * i + 3] : ay;
		int64_t sx0, sx1, sy0, sy1;
		if (!span(fmin(ax, bx) - hw - 1, fmax(ax, bx) + hw + 1,
			  c->width, &sx0, &sx1) ||
		    !span(fmin(ay, by) - hw - 1, fmax(ay, by) + hw + 1,
			  c->height, &sy0, &sy1))
			continue;
		for (int64_t py = sy0; py < sy1; py++)
			for (int64_t px = sx0; px < sx1; px++) {
				double d = seg_dist(px + 0.5, py + 0.5, ax, ay,
						    bx, by);
				float cov = (float)clamp01(hw - d + 0.5);
				float *m = &mask[(size_t)(py - y0) * bw +
						 (size_t)(px - x0)];
				if (cov > *m)
					*m = cov;
			}
	}
	for (size_t y = 0; y < bh; y++)
		for (size_t x = 0; x < bw; x++)
			blend(c, x0 + (int64_t)x, y0 + (int64_t)y, colour,
			      alpha * mask[y * bw + x]);
	free(mask);
}

static int inside(const double *xy, size_t n, double px, double py)
{
	int in = 0;

	for (size_t i = 0, j = n - 1; i < n; j = i++) {
		double xi = xy[2 * i], yi = xy[2 * i + 1];
		double xj = xy[2 * j], yj = xy[2 * j + 1];
		if ((yi > py) != (yj > py) &&
		    px < (xj - xi) * (py - yi) / (yj - yi) + xi)
			in = !in;
	}
	return in;
}

static void raster_polygon(struct twz_canvas *c, const double *xy, size_t n,
			   struct twz_rgb fill, double alpha)
{
	double b[4];
	int64_t x0, x1, y0, y1;

	if (n < 3)
		return;
	bounds(xy, n, b);
	if (!span(b[0], b[2], c->width, &x0, &x1) ||
	    !span(b[1], b[3], c->height, &y0, &y1))
		return;
	for (int64_t py = y0; py < y1; py++)
		for (int64_t px = x0; px < x1; px++) {
			int hits = 0;
			for (int sy = 0; sy < 4; sy++)
				for (int sx = 0; sx < 4; sx++)
					hits += inside(xy, n, px + (sx + 0.5) / 4,
						       py + (sy + 0.5) / 4);
			blend(c, px, py, fill, alpha * hits / 16.0);
		}
}

static void raster_text(struct twz_canvas *c, double x, double y,
			unsigned px, const char *s, struct twz_rgb colour)
{
	for (; *s; s++, x += TWZ_FONT_ADVANCE * px) {
		const uint8_t *g = twz_font_glyph((unsigned char)*s);
		for (int row = 0; row < TWZ_FONT_H; row++)
			for (int col = 0; col < TWZ_FONT_W; col++)
				if (g[row] & (0x10 >> col))
					raster_rect(c, x + col * px, y + row * px,
						    px, px, colour, 1.0);
	}
}

static void raster_group(struct twz_canvas *c, const char *name)
{
	(void)c;
	(void)name;
}

static const struct twz_canvas_ops raster_ops = {
	.rect = raster_rect,
	.line = raster_line,
	.polygon = raster_polygon,
	.circle = raster_circle,
	.text = raster_text,
	.group = raster_group,
};

int twz_raster_init(struct twz_canvas *c, uint32_t width, uint32_t height,
		    struct twz_rgb background)
{
	size_t n = (size_t)width * height;

	memset(c, 0, sizeof *c);
	c->rgb = malloc(n ? n * 3 : 1);
	if (!c->rgb)
		return -1;
	for (size_t i = 0; i < n; i++) {
		c->rgb[3 * i] = background.r;
		c->rgb[3 * i + 1] = background.g;
		c->rgb[3 * i + 2] = background.b;
	}
	c->ops = &raster_ops;
	c->kind = TWZ_CANVAS_RASTER;
	c->width = width;
	c->height = height;
	return 0;
}

struct twz_rgb twz_canvas_pixel(const struct twz_canvas *c, uint32_t x,
				uint32_t y)
{
	struct twz_rgb v = { 0, 0, 0 };

	if (c->kind != TWZ_CANVAS_RASTER || x >= c->width || y >= c->height)
		return v;
	const uint8_t *p = c->rgb + ((size_t)y * c->width + x) * 3;
	v.r = p[0];
	v.g = p[1];
	v.b = p[2];
	return v;
}
