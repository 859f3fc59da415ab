/*
 * render.c - the scene (level and database), the layout of map and legend,
 * palettes, the marks shared by map and legend, and the drawing of a whole
 * picture layer by layer. What each overlay draws is in render_overlays.c.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bake.h"
#include "render.h"
#include "twz_format.h"

/* ---- palettes -------------------------------------------------------- */

struct twz_rgb twz_palette_category(unsigned n)
{
	/* Okabe & Ito, "Color Universal Design": vermillion, blue, bluish
	 * green, reddish purple, orange, sky blue, yellow, black. */
	static const uint32_t oi[8] = {
		0xD55E00, 0x0072B2, 0x009E73, 0xCC79A7,
		0xE69F00, 0x56B4E9, 0xF0E442, 0x000000,
	};
	return TWZ_RGB(oi[n % 8]);
}

struct twz_rgb twz_palette_move(unsigned move)
{
	/* Tol's muted colours around the compass N NE E SE S SW W NW:
	 * indigo, cyan, teal, green, olive, sand, rose, wine. */
	static const uint32_t by_move[8] = {
		0x332288, /* N */  0x44AA99, /* E */
		0x999933, /* S */  0xCC6677, /* W */
		0x88CCEE, /* NE */ 0x117733, /* SE */
		0xDDCC77, /* SW */ 0x882255, /* NW */
	};
	return TWZ_RGB(by_move[move % 8]);
}

static struct twz_rgb ramp(const uint32_t *stops, unsigned n, double t)
{
	if (!(t > 0))
		t = 0;
	if (t > 1)
		t = 1;
	double f = t * (n - 1);
	unsigned i = (unsigned)f;
	if (i >= n - 1)
		return TWZ_RGB(stops[n - 1]);
	double u = f - i;
	struct twz_rgb a = TWZ_RGB(stops[i]), b = TWZ_RGB(stops[i + 1]);
	struct twz_rgb c = {
		(uint8_t)lrint(a.r + (b.r - a.r) * u),
		(uint8_t)lrint(a.g + (b.g - a.g) * u),
		(uint8_t)lrint(a.b + (b.b - a.b) * u),
	};
	return c;
}

struct twz_rgb twz_palette_viridis(double t)
{
	static const uint32_t v[10] = {
		0x440154, 0x482878, 0x3E4A89, 0x31688E, 0x26828E,
		0x1F9E89, 0x35B779, 0x6DCD59, 0xB4DE2C, 0xFDE725,
	};
	return ramp(v, 10, t);
}

struct twz_rgb twz_palette_cividis(double t)
{
	static const uint32_t v[10] = {
		0x00204D, 0x00336F, 0x39486B, 0x575C6D, 0x707173,
		0x8A8779, 0xA69D75, 0xC4B56C, 0xE4CF5B, 0xFFEA46,
	};
	return ramp(v, 10, t);
}

struct twz_rgb twz_contrast_ink(struct twz_rgb bg)
{
	double y = 0.2126 * bg.r + 0.7152 * bg.g + 0.0722 * bg.b;
	return y > 120 ? TWZ_COLOUR_INK : TWZ_COLOUR_HALO;
}

/* ---- canvas ------------------------------------------------------------ */

int twz_canvas_init(struct twz_canvas *c, enum twz_canvas_kind kind,
		    uint32_t width, uint32_t height, struct twz_rgb background,
		    struct twz_error *err)
{
	int r = kind == TWZ_CANVAS_SVG ?
		twz_svg_init(c, width, height, background) :
		twz_raster_init(c, width, height, background);
	if (r) {
		twz_canvas_free(c);
		twz_error_kind_set(err, TWZ_ERR_NOMEM,
				   "out of memory for a %u x %u picture", width,
				   height);
	}
	return r;
}

void twz_canvas_free(struct twz_canvas *c)
{
	free(c->rgb);
	free(c->svg);
	c->rgb = NULL;
	c->svg = NULL;
}

/* ---- scene ------------------------------------------------------------- */

static int scene_from_db(struct twz_scene *sc, struct twz_error *err)
{
	twz_get_info(sc->db, &sc->info);
	sc->width = sc->info.width;
	sc->height = sc->info.height;
	sc->walkable = malloc((size_t)sc->width * sc->height + 1);
	if (!sc->walkable) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory",
				   sc->name);
		return -1;
	}
	sc->walkable_count = 0;
	for (uint32_t y = 0; y < sc->height; y++)
		for (uint32_t x = 0; x < sc->width; x++) {
			int w = twz_node_at(sc->db, x, y) != TWZ_NONE;
			sc->walkable[(size_t)y * sc->width + x] = (uint8_t)w;
			sc->walkable_count += (uint32_t)w;
		}
	return 0;
}

static int open_status(const char *name, twz_status st, struct twz_error *err)
{
	enum twz_error_kind k = st == TWZ_E_IO ? TWZ_ERR_IO :
		st == TWZ_E_NOMEM ? TWZ_ERR_NOMEM : TWZ_ERR_INPUT;
	if (st == TWZ_E_IO)
		twz_error_kind_set(err, k, "%s: cannot open: %s", name,
				   errno ? strerror(errno) : "I/O error");
	else
		twz_error_kind_set(err, k, "%s: %s", name, twz_strerror(st));
	return -1;
}

/* The scene of a database just opened (st from twz_open or
 * twz_open_memory into sc->db). */
static int scene_opened(struct twz_scene *sc, const char *name,
			twz_status st, struct twz_error *err)
{
	if (st != TWZ_OK)
		return open_status(name, st, err);
	if (scene_from_db(sc, err)) {
		twz_scene_close(sc);
		return -1;
	}
	return 0;
}

int twz_scene_open(const char *path, struct twz_scene *sc,
		   struct twz_error *err)
{
	unsigned char magic[TWZ_MAGIC_SIZE];
	size_t got;

	memset(sc, 0, sizeof *sc);
	sc->name = path;
	FILE *f = fopen(path, "rb");
	if (!f) {
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot open: %s", path,
				   strerror(errno));
		return -1;
	}
	got = fread(magic, 1, sizeof magic, f);
	fclose(f);
	if (got == sizeof magic && !memcmp(magic, TWZ_MAGIC, TWZ_MAGIC_SIZE)) {
		errno = 0;
		twz_status st = twz_open(path, 0, &sc->db);
		return scene_opened(sc, path, st, err);
	}
	if (twz_grid_load(path, &sc->grid, err) != 0)
		return -1;
	sc->is_level = 1;
	sc->width = sc->grid.width;
	sc->height = sc->grid.height;
	sc->walkable = sc->grid.walkable;
	for (size_t i = 0; i < (size_t)sc->width * sc->height; i++)
		sc->walkable_count += sc->walkable[i];
	return 0;
}

int twz_scene_open_memory(const uint8_t *buf, size_t len, const char *name,
			  struct twz_scene *sc, struct twz_error *err)
{
	memset(sc, 0, sizeof *sc);
	sc->name = name;
	errno = 0;
	twz_status st = twz_open_memory(buf, len, 0, &sc->db);
	return scene_opened(sc, name, st, err);
}

int twz_scene_need_db(struct twz_scene *sc, const char *why,
		      struct twz_error *err)
{
	struct twz_bake_options opt;
	struct twz_cpd cpd;
	size_t len;

	if (sc->db)
		return 0;
	if (sc->walkable_count > TWZ_RENDER_BAKE_MAX) {
		twz_error_set(err, "%s: %s reads a database, and this level has %u "
			      "walkable cells, more than the %u baked in memory for "
			      "a picture: bake it with 'twigz build' and render "
			      "the .twz", sc->name, why, sc->walkable_count,
			      TWZ_RENDER_BAKE_MAX);
		return -1;
	}
	twz_bake_options_default(&opt);
	opt.codec = TWZ_CODEC_RAW;
	opt.name = sc->name;
	if (twz_bake_cpd(&sc->grid, &opt, &cpd, err) != 0)
		return -1;
	int r = twz_cpd_encode(&cpd, &sc->grid, &opt, &sc->db_buf, &len, err);
	twz_cpd_free(&cpd);
	if (r != 0)
		return -1;
	errno = 0;
	twz_status st = twz_open_memory(sc->db_buf, len, 0, &sc->db);
	if (st != TWZ_OK)
		return open_status(sc->name, st, err);
	twz_get_info(sc->db, &sc->info);
	return 0;
}

void twz_scene_close(struct twz_scene *sc)
{
	twz_close(sc->db);
	free(sc->db_buf);
	if (sc->is_level)
		twz_grid_free(&sc->grid);
	else
		free(sc->walkable);
	free(sc->closed);
	memset(sc, 0, sizeof *sc);
}

/* ---- legend ------------------------------------------------------------ */

struct twz_legend_entry *twz_legend_add(struct twz_legend *lg,
					enum twz_legend_kind kind,
					const char *fmt, ...)
{
	static struct twz_legend_entry spare;
	va_list ap;

	if (lg->count >= TWZ_LEGEND_MAX) {
		memset(&spare, 0, sizeof spare);
		return &spare;
	}
	struct twz_legend_entry *e = &lg->e[lg->count];
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->colour = TWZ_COLOUR_INK;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof e->text, fmt, ap);
	va_end(ap);
	/* Two overlays on one target say "target" once. */
	for (size_t i = 0; i < lg->count; i++)
		if (lg->e[i].kind == kind && kind != TWZ_LEGEND_GRADIENT &&
		    !strcmp(lg->e[i].text, e->text))
			return &lg->e[i];
	lg->count++;
	return e;
}

/* Legend metrics, in pixels, for font pixel size px. */
#define PAD 12                     /* around map and legend */
#define SAMPLE_W 40                /* the picture left of an entry's text */
#define SAMPLE_GAP 10
#define BAR_W 200                  /* gradient bar */
#define BAR_H 14

static uint32_t entry_height(const struct twz_legend_entry *e, unsigned px)
{
	uint32_t line = TWZ_FONT_LINE * px + 4;
	switch (e->kind) {
	case TWZ_LEGEND_HEADING:
		return line + 2;
	case TWZ_LEGEND_TEXT:
		return line;
	case TWZ_LEGEND_GRADIENT:
		return line + BAR_H + 4 + line;
	default:
		return line > 22 ? line : 22;
	}
}

static double entry_width(const struct twz_legend_entry *e, unsigned px)
{
	double w = twz_text_width(e->text, px);
	switch (e->kind) {
	case TWZ_LEGEND_HEADING:
	case TWZ_LEGEND_TEXT:
		return w;
	case TWZ_LEGEND_GRADIENT:
		return w > BAR_W ? w : BAR_W;
	default:
		return SAMPLE_W + SAMPLE_GAP + w;
	}
}

static void draw_dashes(struct twz_canvas *c, double x0, double y0,
			double x1, double y1, double width,
			struct twz_rgb colour, double alpha);

static void draw_legend(struct twz_canvas *c, const struct twz_layout *l,
			const struct twz_legend *lg)
{
	unsigned px = l->font_px;
	double x = l->legend_x, y = l->legend_y;

	c->ops->group(c, "legend");
	for (size_t i = 0; i < lg->count; i++) {
		const struct twz_legend_entry *e = &lg->e[i];
		double h = entry_height(e, px);
		double cy = y + h / 2, sx = x + SAMPLE_W / 2.0;
		double tx = x + SAMPLE_W + SAMPLE_GAP;
		double ty = cy - TWZ_FONT_H * px / 2.0;
		switch (e->kind) {
		case TWZ_LEGEND_HEADING:
			c->ops->text(c, x, y + 2, px, e->text, TWZ_COLOUR_INK);
			/* A second pass one pixel right: a bold face. */
			c->ops->text(c, x + 1, y + 2, px, e->text, TWZ_COLOUR_INK);
			break;
		case TWZ_LEGEND_TEXT:
			c->ops->text(c, x, y + 2, px, e->text, TWZ_RGB(0x4D4D4D));
			break;
		case TWZ_LEGEND_SWATCH:
			c->ops->rect(c, sx - 9, cy - 9, 18, 18, TWZ_COLOUR_INK, 1);
			c->ops->rect(c, sx - 8, cy - 8, 16, 16, e->colour, 1);
			c->ops->text(c, tx, ty, px, e->text, TWZ_COLOUR_INK);
			break;
		case TWZ_LEGEND_PATH: {
			double xy[4] = { x + 6, cy, x + SAMPLE_W - 6, cy };
			twz_draw_haloed_line(c, xy, 2, 3, e->colour);
			twz_draw_start(c, xy[0], cy, 5, e->colour);
			twz_draw_goal(c, xy[2], cy, 5, e->colour);
			c->ops->text(c, tx, ty, px, e->text, TWZ_COLOUR_INK);
			break;
		}
		case TWZ_LEGEND_TARGET:
			twz_draw_target(c, sx, cy, 8);
			c->ops->text(c, tx, ty, px, e->text, TWZ_COLOUR_INK);
			break;
		case TWZ_LEGEND_ARROW:
			c->ops->rect(c, sx - 11, cy - 11, 22, 22, e->colour, 1);
			twz_draw_arrow(c, sx, cy, 18, e->move,
				       twz_contrast_ink(e->colour));
			c->ops->text(c, tx, ty, px, e->text, TWZ_COLOUR_INK);
			break;
		case TWZ_LEGEND_NODE:
			twz_draw_goal(c, sx, cy, 6, e->colour);
			c->ops->text(c, tx, ty, px, e->text, TWZ_COLOUR_INK);
			break;
		case TWZ_LEGEND_BOUNDARY:
			draw_dashes(c, x + 2, cy, x + SAMPLE_W - 2, cy, 2,
				    e->colour, 1);
			c->ops->text(c, tx, ty, px, e->text, TWZ_COLOUR_INK);
			break;
		case TWZ_LEGEND_GRADIENT: {
			double line = TWZ_FONT_LINE * px + 4;
			double by = y + line;
			c->ops->text(c, x, y + 2, px, e->text, TWZ_COLOUR_INK);
			c->ops->rect(c, x - 1, by - 1, BAR_W + 2, BAR_H + 2,
				     TWZ_COLOUR_INK, 1);
			for (int k = 0; k < BAR_W; k++)
				c->ops->rect(c, x + k, by, 1, BAR_H,
					     e->palette ? e->palette((k + 0.5) / BAR_W) :
					     e->colour, 1);
			c->ops->text(c, x, by + BAR_H + 4, px, e->lo,
				     TWZ_COLOUR_INK);
			c->ops->text(c, x + BAR_W - twz_text_width(e->hi, px),
				     by + BAR_H + 4, px, e->hi, TWZ_COLOUR_INK);
			break;
		}
		}
		y += h;
	}
	c->ops->group(c, NULL);
}

/* ---- marks ------------------------------------------------------------- */

double twz_mark_radius(unsigned scale)
{
	double r = scale * 0.42;
	return r < 4.5 ? 4.5 : r;
}

double twz_line_width(unsigned scale)
{
	double w = scale * 0.26;
	return w < 2.5 ? 2.5 : w;
}

static double halo_of(double r)
{
	double h = r * 0.25;
	return h < 1.5 ? 1.5 : h;
}

void twz_draw_start(struct twz_canvas *c, double x, double y, double r,
		    struct twz_rgb colour)
{
	c->ops->circle(c, x, y, r + halo_of(r), TWZ_COLOUR_HALO, 1);
	c->ops->circle(c, x, y, r, colour, 1);
}

void twz_draw_goal(struct twz_canvas *c, double x, double y, double r,
		   struct twz_rgb colour)
{
	double h = halo_of(r), s = r * 0.9;
	c->ops->rect(c, x - s - h, y - s - h, 2 * (s + h), 2 * (s + h),
		     TWZ_COLOUR_HALO, 1);
	c->ops->rect(c, x - s, y - s, 2 * s, 2 * s, colour, 1);
}

void twz_draw_target(struct twz_canvas *c, double x, double y, double r)
{
	c->ops->circle(c, x, y, r + halo_of(r), TWZ_COLOUR_HALO, 1);
	c->ops->circle(c, x, y, r, TWZ_COLOUR_INK, 1);
	c->ops->circle(c, x, y, r * 0.62, TWZ_COLOUR_HALO, 1);
	c->ops->circle(c, x, y, r * 0.32, TWZ_COLOUR_INK, 1);
}

void twz_draw_arrow(struct twz_canvas *c, double x, double y, double len,
		    unsigned m, struct twz_rgb colour)
{
	double dx = twz_move_dx[m % TWZ_MOVE_COUNT];
	double dy = twz_move_dy[m % TWZ_MOVE_COUNT];
	double n = hypot(dx, dy);
	double ux = dx / n, uy = dy / n;          /* along the arrow */
	double vx = -uy, vy = ux;                 /* across it */
	double half = len / 2, shaft = len * 0.09, head = len * 0.26;
	double neck = half - len * 0.42;
	/* (along, across) of the outline, tail first. */
	const double pts[7][2] = {
		{ -half, -shaft }, { neck, -shaft }, { neck, -head },
		{ half, 0 }, { neck, head }, { neck, shaft }, { -half, shaft },
	};
	double xy[14];

	for (int i = 0; i < 7; i++) {
		xy[2 * i] = x + ux * pts[i][0] + vx * pts[i][1];
		xy[2 * i + 1] = y + uy * pts[i][0] + vy * pts[i][1];
	}
	c->ops->polygon(c, xy, 7, colour, 1);
}

void twz_draw_haloed_line(struct twz_canvas *c, const double *xy, size_t n,
			  double width, struct twz_rgb colour)
{
	c->ops->line(c, xy, n, width + 2 * halo_of(width), TWZ_COLOUR_HALO, 1);
	c->ops->line(c, xy, n, width, colour, 1);
}

static void draw_dashes(struct twz_canvas *c, double x0, double y0,
			double x1, double y1, double width,
			struct twz_rgb colour, double alpha)
{
	double len = hypot(x1 - x0, y1 - y0), dash = 6, gap = 4;

	for (double s = 0; s < len; s += dash + gap) {
		double e = s + dash < len ? s + dash : len;
		double xy[4] = {
			x0 + (x1 - x0) * s / len, y0 + (y1 - y0) * s / len,
			x0 + (x1 - x0) * e / len, y0 + (y1 - y0) * e / len,
		};
		c->ops->line(c, xy, 2, width, colour, alpha);
	}
}

/* ---- layout ------------------------------------------------------------ */

void twz_render_options_default(struct twz_render_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->legend = 1;
	opt->grid = -1;
	opt->kind = TWZ_CANVAS_RASTER;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static void fill_legend(const struct twz_render *r,
			const struct twz_overlay_item *items, size_t n,
			struct twz_legend *lg)
{
	const struct twz_scene *sc = r->scene;

	lg->count = 0;
	twz_legend_add(lg, TWZ_LEGEND_HEADING, "%.40s", base_name(sc->name));
	twz_legend_add(lg, TWZ_LEGEND_TEXT, "%u x %u cells, %u walkable",
		       sc->width, sc->height, sc->walkable_count);
	if (sc->db)
		twz_legend_add(lg, TWZ_LEGEND_TEXT, "%s%s, %u-connected, %u region%s",
			       sc->info.method == 1 ? "CPD" : "TRANSIT",
			       sc->is_level ? " baked in memory" : "",
			       sc->info.connectivity, sc->info.component_count,
			       sc->info.component_count == 1 ? "" : "s");
	twz_legend_add(lg, TWZ_LEGEND_SWATCH, "floor")->colour = TWZ_COLOUR_FLOOR;
	twz_legend_add(lg, TWZ_LEGEND_SWATCH, "wall")->colour = TWZ_COLOUR_WALL;
	for (size_t i = 0; i < n; i++)
		if (items[i].kind->legend)
			items[i].kind->legend(r, &items[i], lg);
}

static unsigned auto_scale(const struct twz_scene *sc)
{
	uint32_t side = sc->width > sc->height ? sc->width : sc->height;
	unsigned s = side ? 960 / side : 1;
	return s < 1 ? 1 : s > 32 ? 32 : s;
}

static int layout_with(const struct twz_scene *sc, const struct twz_legend *lg,
		       const struct twz_render_options *opt,
		       struct twz_layout *l, struct twz_error *err)
{
	uint64_t lw = 0, lh = 0;

	if (opt->legend) {
		for (size_t i = 0; i < lg->count; i++) {
			double w = entry_width(&lg->e[i], l->font_px);
			if (w > lw)
				lw = (uint64_t)ceil(w);
			lh += entry_height(&lg->e[i], l->font_px);
		}
	}
	l->map_x = PAD;
	l->map_y = PAD;
	l->map_w = (uint32_t)((uint64_t)sc->width * l->scale);
	l->map_h = (uint32_t)((uint64_t)sc->height * l->scale);
	l->legend_w = (uint32_t)lw;
	l->legend_h = (uint32_t)lh;
	/* The legend goes beside a tall or square map, under a wide one. */
	uint64_t w, h;
	if (!opt->legend) {
		w = (uint64_t)l->map_w + 2 * PAD;
		h = (uint64_t)l->map_h + 2 * PAD;
	} else if ((uint64_t)l->map_w * 3 <= (uint64_t)l->map_h * 4) {
		l->legend_x = l->map_x + l->map_w + 2 * PAD;
		l->legend_y = PAD;
		w = (uint64_t)l->legend_x + lw + PAD;
		h = 2 * PAD + (lh > l->map_h ? lh : l->map_h);
	} else {
		l->legend_x = PAD;
		l->legend_y = l->map_y + l->map_h + 2 * PAD;
		w = 2 * PAD + (lw > l->map_w ? lw : l->map_w);
		h = (uint64_t)l->legend_y + lh + PAD;
	}
	if (w * h > TWZ_RENDER_MAX_PIXELS) {
		twz_error_set(err, "%s: the picture would be %llu x %llu pixels, "
			      "more than %llu million: ask for a smaller --scale",
			      sc->name, (unsigned long long)w, (unsigned long long)h,
			      (unsigned long long)(TWZ_RENDER_MAX_PIXELS >> 20));
		return -1;
	}
	l->width = (uint32_t)w;
	l->height = (uint32_t)h;
	return 0;
}

static void start_layout(const struct twz_scene *sc,
			 const struct twz_render_options *opt,
			 struct twz_layout *l)
{
	memset(l, 0, sizeof *l);
	l->scale = opt->scale ? opt->scale : auto_scale(sc);
	l->font_px = 2;
}

/* ---- drawing ------------------------------------------------------------ */

struct twz_rgb twz_render_cell_colour(const struct twz_render *r, uint32_t x,
				      uint32_t y)
{
	struct twz_rgb c;

	if (!twz_scene_walkable(r->scene, x, y))
		return TWZ_COLOUR_WALL;
	if (r->fill && r->fill->kind->cell_colour(r->scene, r->fill, x, y, &c))
		return c;
	return TWZ_COLOUR_FLOOR;
}

static int same_rgb(struct twz_rgb a, struct twz_rgb b)
{
	return a.r == b.r && a.g == b.g && a.b == b.b;
}

/* Paint cells row by row, one rectangle per run of equal colour (what the
 * SVG output is made of). want(): whether a cell is painted and how. */
static void paint_cells(const struct twz_render *r,
			int (*want)(const struct twz_render *r, uint32_t x,
				    uint32_t y, struct twz_rgb *out))
{
	const struct twz_layout *l = r->layout;
	struct twz_canvas *c = r->canvas;

	for (uint32_t y = 0; y < r->scene->height; y++) {
		uint32_t x = 0;
		while (x < r->scene->width) {
			struct twz_rgb col, next;
			if (!want(r, x, y, &col)) {
				x++;
				continue;
			}
			uint32_t end = x + 1;
			while (end < r->scene->width && want(r, end, y, &next) &&
			       same_rgb(next, col))
				end++;
			c->ops->rect(c, l->map_x + (double)x * l->scale,
				     l->map_y + (double)y * l->scale,
				     (double)(end - x) * l->scale, l->scale, col, 1);
			x = end;
		}
	}
}

static int want_wall(const struct twz_render *r, uint32_t x, uint32_t y,
		     struct twz_rgb *out)
{
	*out = TWZ_COLOUR_WALL;
	return !twz_scene_walkable(r->scene, x, y);
}

static int want_fill(const struct twz_render *r, uint32_t x, uint32_t y,
		     struct twz_rgb *out)
{
	return twz_scene_walkable(r->scene, x, y) &&
	       r->fill->kind->cell_colour(r->scene, r->fill, x, y, out);
}

static void draw_grid_lines(const struct twz_render *r)
{
	const struct twz_layout *l = r->layout;
	struct twz_canvas *c = r->canvas;
	struct twz_rgb ink = TWZ_COLOUR_INK;

	c->ops->group(c, "gridlines");
	for (uint32_t x = 1; x < r->scene->width; x++)
		c->ops->rect(c, l->map_x + (double)x * l->scale - 0.5, l->map_y,
			     1, l->map_h, ink, 0.12);
	for (uint32_t y = 1; y < r->scene->height; y++)
		c->ops->rect(c, l->map_x, l->map_y + (double)y * l->scale - 0.5,
			     l->map_w, 1, ink, 0.12);
	c->ops->group(c, NULL);
}

int twz_render_draw(struct twz_scene *sc, struct twz_overlay_item *items,
		    size_t n, const struct twz_render_options *opt,
		    struct twz_canvas *out, struct twz_layout *layout,
		    struct twz_error *err)
{
	static const char *const layer_names[TWZ_LAYER_COUNT] = {
		"cells", "grid", "arrows", "lines", "marks",
	};
	struct twz_legend *lg = calloc(1, sizeof *lg);
	struct twz_render r;
	int ret = -1;

	memset(out, 0, sizeof *out);
	if (!lg) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "out of memory");
		return -1;
	}
	memset(&r, 0, sizeof r);
	r.scene = sc;
	r.layout = layout;
	for (size_t i = 0; i < n; i++)
		if (items[i].kind->flags & TWZ_OVERLAY_FILLS_CELLS)
			r.fill = &items[i];
	start_layout(sc, opt, layout);
	fill_legend(&r, items, n, lg);
	if (layout_with(sc, lg, opt, layout, err))
		goto out_legend;
	if (twz_canvas_init(out, opt->kind, layout->width, layout->height,
			    TWZ_COLOUR_BACKGROUND, err))
		goto out_legend;
	r.canvas = out;

	struct twz_canvas *c = out;
	c->ops->group(c, "level");
	c->ops->rect(c, layout->map_x, layout->map_y, layout->map_w,
		     layout->map_h, TWZ_COLOUR_FLOOR, 1);
	paint_cells(&r, want_wall);
	c->ops->group(c, NULL);
	for (int layer = 0; layer < TWZ_LAYER_COUNT; layer++) {
		if (layer == TWZ_LAYER_GRID &&
		    (opt->grid > 0 || (opt->grid < 0 && layout->scale >= 12)))
			draw_grid_lines(&r);
		c->ops->group(c, layer_names[layer]);
		if (layer == TWZ_LAYER_CELLS && r.fill)
			paint_cells(&r, want_fill);
		for (size_t i = 0; i < n; i++)
			if (items[i].kind->draw)
				items[i].kind->draw(&r, &items[i],
						    (enum twz_layer)layer);
		c->ops->group(c, NULL);
	}
	if (opt->legend)
		draw_legend(c, layout, lg);
	if (c->kind == TWZ_CANVAS_SVG)
		twz_svg_finish(c);
	if (c->failed) {
		twz_canvas_free(c);
		twz_error_kind_set(err, TWZ_ERR_NOMEM,
				   "%s: out of memory while drawing", sc->name);
		goto out_legend;
	}
	ret = 0;
out_legend:
	free(lg);
	return ret;
}

/* ---- preparing the overlays ---------------------------------------------- */

int twz_render_prepare(struct twz_scene *sc, struct twz_overlay_item *items,
		       size_t n, struct twz_error *err)
{
	const struct twz_overlay_item *fill = NULL;

	for (size_t i = 0; i < n; i++) {
		struct twz_overlay_item *it = &items[i];
		const struct twz_overlay *k = it->kind;

		it->nth = 0;
		for (size_t j = 0; j < i; j++) {
			if (items[j].kind != k)
				continue;
			if (!(k->flags & TWZ_OVERLAY_REPEATS)) {
				twz_error_set(err, "%s: --%s is asked for twice; "
					      "draw one per picture", sc->name,
					      k->name);
				return -1;
			}
			it->nth++;
		}
		if (k->flags & TWZ_OVERLAY_FILLS_CELLS) {
			if (fill) {
				twz_error_set(err, "%s: --%s and --%s both colour "
					      "the cells; ask for one of them",
					      sc->name, fill->kind->name, k->name);
				return -1;
			}
			fill = it;
		}
		for (unsigned p = 0; p < k->nargs / 2; p++) {
			uint32_t x = it->arg[2 * p], y = it->arg[2 * p + 1];
			const char *what = k->point_names[p];
			if (x >= sc->width || y >= sc->height) {
				twz_error_set(err, "%s: --%s %s: %s (%u,%u) is off "
					      "the map (%u x %u cells)", sc->name,
					      k->name, it->text, what, x, y,
					      sc->width, sc->height);
				return -1;
			}
			if (!twz_scene_walkable(sc, x, y)) {
				twz_error_set(err, "%s: --%s %s: %s (%u,%u) is a "
					      "blocked cell", sc->name, k->name,
					      it->text, what, x, y);
				return -1;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct twz_overlay_item *it = &items[i];
		char why[48];
		snprintf(why, sizeof why, "--%s", it->kind->name);
		if ((it->kind->flags & TWZ_OVERLAY_NEEDS_DB) &&
		    twz_scene_need_db(sc, why, err))
			goto out_release;
		if (it->kind->prepare && it->kind->prepare(sc, it, err))
			goto out_release;
	}
	return 0;

out_release:
	twz_render_release(items, n);
	return -1;
}

void twz_render_release(struct twz_overlay_item *items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (items[i].kind && items[i].kind->release)
			items[i].kind->release(&items[i]);
		items[i].data = NULL;
	}
}

/* ---- output -------------------------------------------------------------- */

int twz_render_write_file(const char *path, const void *buf, size_t len,
			  struct twz_error *err)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 16);

	if (!tmp) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", path);
		return -1;
	}
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmp.XXXXXX", 12);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot create: %s", path,
				   strerror(errno));
		goto out_free;
	}
	const uint8_t *p = buf;
	size_t left = len;
	while (left) {
		ssize_t w = write(fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot write: %s",
					   path, w < 0 ? strerror(errno) : "no space");
			goto out_unlink;
		}
		p += w;
		left -= (size_t)w;
	}
	if (fchmod(fd, 0644) != 0 || close(fd) != 0) {
		fd = -1;
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot write: %s", path,
				   strerror(errno));
		goto out_unlink;
	}
	fd = -1;
	if (rename(tmp, path) != 0) {
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot write: %s", path,
				   strerror(errno));
		goto out_unlink;
	}
	free(tmp);
	return 0;

out_unlink:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out_free:
	free(tmp);
	return -1;
}
