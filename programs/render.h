/*
 * render.h - `twigz render`: draws a level and what a database knows about
 * it (paths, first moves, distances, run counts, transit nodes) as a PNG or
 * an SVG picture.
 *
 * Three parts, each in its own file:
 *   - a canvas (this header, render_raster.c, render_svg.c): a handful of
 *     drawing primitives in pixel coordinates, drawn into an RGB raster
 *     (encoded by render_png.c) or written as SVG elements;
 *   - the scene (render.c): the level, the optional database, the layout
 *     of map and legend, the level itself and the legend;
 *   - the overlays (render_overlays.c): one table entry per kind of
 *     overlay. A new level kind or a new kind of path adds one entry there;
 *     the command line, the checks of its arguments, the layering and the
 *     legend follow from the entry.
 */
#ifndef RENDER_H
#define RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "level_map.h"
#include "twigz.h"
#include "twz_error.h"

/* ---- colours --------------------------------------------------------- */

struct twz_rgb {
	uint8_t r;
	uint8_t g;
	uint8_t b;
};

#define TWZ_RGB(hex) ((struct twz_rgb){ (uint8_t)((hex) >> 16), \
	(uint8_t)((hex) >> 8), (uint8_t)(hex) })

/* The picture's fixed colours (the tests check pixels against them). */
#define TWZ_COLOUR_BACKGROUND TWZ_RGB(0xFFFFFF)  /* around map and legend */
#define TWZ_COLOUR_FLOOR      TWZ_RGB(0xF2F0EB)  /* walkable cell */
#define TWZ_COLOUR_WALL       TWZ_RGB(0x3B3B3B)  /* blocked cell */
#define TWZ_COLOUR_UNREACHED  TWZ_RGB(0xBDBDBD)  /* no path to the target */
#define TWZ_COLOUR_INK        TWZ_RGB(0x1A1A1A)  /* text, arrows */
#define TWZ_COLOUR_HALO       TWZ_RGB(0xFFFFFF)  /* outline under marks */
#define TWZ_COLOUR_CLOSED     TWZ_RGB(0x8C510A)  /* a cell closed right now */

/* Okabe-Ito categorical colours, for paths and markers (safe for the
 * common colour-vision deficiencies). n wraps around. */
struct twz_rgb twz_palette_category(unsigned n);

/* One colour per move 0..7 (N E S W NE SE SW NW): Paul Tol's muted set,
 * laid around the compass so neighbouring directions have neighbouring
 * hues. */
struct twz_rgb twz_palette_move(unsigned move);

/* Sequential maps, t in [0, 1] (clamped): viridis for distances, cividis
 * for run counts. Both are perceptually uniform and readable without
 * colour vision. */
struct twz_rgb twz_palette_viridis(double t);
struct twz_rgb twz_palette_cividis(double t);

/* Black or white, whichever reads better on bg. */
struct twz_rgb twz_contrast_ink(struct twz_rgb bg);

/* ---- canvas ------------------------------------------------------------ */

enum twz_canvas_kind {
	TWZ_CANVAS_RASTER,
	TWZ_CANVAS_SVG,
};

/* Coordinates are pixels, x right, y down, (0,0) the top-left corner of
 * the top-left pixel; alpha is the opacity from 0 to 1. */
struct twz_canvas;
struct twz_canvas_ops {
	void (*rect)(struct twz_canvas *c, double x, double y, double w,
		     double h, struct twz_rgb fill, double alpha);
	/* An open polyline of n points (xy[2n]), round joins and ends. */
	void (*line)(struct twz_canvas *c, const double *xy, size_t n,
		     double width, struct twz_rgb colour, double alpha);
	/* A closed polygon of n points, filled (even-odd). */
	void (*polygon)(struct twz_canvas *c, const double *xy, size_t n,
			struct twz_rgb fill, double alpha);
	void (*circle)(struct twz_canvas *c, double cx, double cy, double r,
		       struct twz_rgb fill, double alpha);
	/* Text in the 5x7 house font, its top-left corner at (x, y), each
	 * font pixel drawn as px by px pixels (see twz_text_width). */
	void (*text)(struct twz_canvas *c, double x, double y, unsigned px,
		     const char *s, struct twz_rgb colour);
	/* Start a named group of what follows (an SVG <g>); NULL ends it. */
	void (*group)(struct twz_canvas *c, const char *name);
};

struct twz_canvas {
	const struct twz_canvas_ops *ops;
	enum twz_canvas_kind kind;
	uint32_t width;          /* pixels */
	uint32_t height;
	int failed;              /* ran out of memory while drawing */
	/* raster */
	uint8_t *rgb;            /* [height][width][3] */
	/* svg */
	char *svg;               /* the document so far, NUL-terminated */
	size_t svg_len;
	size_t svg_cap;
	int svg_open_groups;
};

/* The largest picture made, in pixels (a raster holds 3 bytes each). */
#define TWZ_RENDER_MAX_PIXELS ((uint64_t)1 << 26)

/* A canvas of width x height pixels filled with background. 0 on success
 * (TWZ_ERR_NOMEM otherwise, with err set). */
int twz_canvas_init(struct twz_canvas *c, enum twz_canvas_kind kind,
		    uint32_t width, uint32_t height, struct twz_rgb background,
		    struct twz_error *err);
void twz_canvas_free(struct twz_canvas *c);

/* Raster only: the colour of pixel (x, y). */
struct twz_rgb twz_canvas_pixel(const struct twz_canvas *c, uint32_t x,
				uint32_t y);

/* Raster back end (render_raster.c) and SVG back end (render_svg.c). */
int twz_raster_init(struct twz_canvas *c, uint32_t width, uint32_t height,
		    struct twz_rgb background);
int twz_svg_init(struct twz_canvas *c, uint32_t width, uint32_t height,
		 struct twz_rgb background);
/* Closes the document; the text is c->svg, c->svg_len bytes. */
int twz_svg_finish(struct twz_canvas *c);

/* PNG encoding of a raster canvas into a malloc'd buffer. When the build
 * has no libpng, fails with a message saying so. 0 on success. */
int twz_png_encode(const struct twz_canvas *c, uint8_t **buf, size_t *len,
		   const char *name, struct twz_error *err);
/* Whether this build writes PNG. */
int twz_png_available(void);

/* The house font: 5x7 glyphs on a 6x9 cell (printable ASCII; anything
 * else draws as '?'). Rows of glyph ch, bit 4 the leftmost column. */
#define TWZ_FONT_W 5
#define TWZ_FONT_H 7
#define TWZ_FONT_ADVANCE 6
#define TWZ_FONT_LINE 10
const uint8_t *twz_font_glyph(unsigned char ch);

static inline double twz_text_width(const char *s, unsigned px)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n ? (double)(n * TWZ_FONT_ADVANCE - 1) * px : 0;
}

/* ---- scene ------------------------------------------------------------- */

/* What is drawn on: a level, and the database when there is one. */
struct twz_scene {
	const char *name;         /* input file, for messages and the title */
	uint32_t width;           /* cells */
	uint32_t height;
	uint8_t *walkable;        /* [height][width] */
	uint32_t walkable_count;
	twz_db *db;               /* NULL until needed / for a level */
	uint8_t *db_buf;          /* in-memory bake backing db, or NULL */
	twz_info info;            /* valid when db */
	struct twz_grid grid;     /* the level, when the input is a level */
	int is_level;
	uint8_t *closed;          /* [height][width]: cells closed right now
				   * (--closed FILE), or NULL */
	uint32_t closed_count;    /* walkable cells closed */
};

/* A level is baked in memory for overlays that read a database only up to
 * this many walkable cells; bigger levels are baked with `twigz build`. */
#define TWZ_RENDER_BAKE_MAX 16384u

/* Open a level (.map) or a database (.twz, told by its magic). 0 on
 * success; err names the file and the problem. */
int twz_scene_open(const char *path, struct twz_scene *sc,
		   struct twz_error *err);
/* Open a database held in memory (buf must outlive the scene). */
int twz_scene_open_memory(const uint8_t *buf, size_t len, const char *name,
			  struct twz_scene *sc, struct twz_error *err);
/* Make sure sc->db is there, baking a small level in memory. 0 or -1. */
int twz_scene_need_db(struct twz_scene *sc, const char *why,
		      struct twz_error *err);
void twz_scene_close(struct twz_scene *sc);

/* ---- closed cells (render_closed.c) ------------------------------------ */

/* Read --closed FILE for the scene (closed_cells.h). 0, or -1 with err
 * set. */
int twz_scene_set_closed(struct twz_scene *sc, const char *path,
			 struct twz_error *err);
/* twz_path and twz_cost_exact, or twz_path_closed when cells are closed. */
twz_status twz_scene_path(const struct twz_scene *sc, twz_node s, twz_node t,
			  twz_node *buf, size_t cap, size_t *len,
			  uint32_t *straight, uint32_t *diagonal);
/* twz_flow_field, or twz_flow_field_live when cells are closed. */
twz_status twz_scene_flow(const struct twz_scene *sc, twz_node t,
			  twz_node *next, size_t cap);
/* Draws the closed cells; cmd_render adds it for --closed FILE. */
extern const struct twz_overlay twz_overlay_closed;

static inline int twz_scene_walkable(const struct twz_scene *sc, int64_t x,
				     int64_t y)
{
	return x >= 0 && y >= 0 && x < sc->width && y < sc->height &&
	       sc->walkable[(size_t)y * sc->width + (size_t)x];
}

/* ---- layout ------------------------------------------------------------ */

struct twz_render_options {
	unsigned scale;           /* pixels per cell; 0: chosen from the size */
	int legend;               /* draw the legend */
	int grid;                 /* cell grid lines: 1, 0, or -1 for auto */
	enum twz_canvas_kind kind;
};

void twz_render_options_default(struct twz_render_options *opt);

struct twz_layout {
	unsigned scale;           /* pixels per cell */
	uint32_t map_x;           /* the map's top-left pixel */
	uint32_t map_y;
	uint32_t map_w;           /* pixels */
	uint32_t map_h;
	uint32_t legend_x;
	uint32_t legend_y;
	uint32_t legend_w;
	uint32_t legend_h;
	unsigned font_px;         /* font pixel size of the legend */
	uint32_t width;           /* the whole picture */
	uint32_t height;
};

/* The centre of cell (x, y) in pixels. */
static inline void twz_cell_centre(const struct twz_layout *l, uint32_t x,
				   uint32_t y, double *px, double *py)
{
	*px = l->map_x + (x + 0.5) * l->scale;
	*py = l->map_y + (y + 0.5) * l->scale;
}

/* ---- overlays ---------------------------------------------------------- */

/* Drawing happens in layers, each over the whole map, in this order. */
enum twz_layer {
	TWZ_LAYER_CELLS,    /* cell colours: at most one overlay fills cells */
	TWZ_LAYER_GRID,     /* lines between cells (transit cells) */
	TWZ_LAYER_ARROWS,   /* one arrow per cell (flow fields) */
	TWZ_LAYER_LINES,    /* paths */
	TWZ_LAYER_MARKS,    /* markers, nodes */
	TWZ_LAYER_COUNT
};

#define TWZ_OVERLAY_MAX_ARGS 4

/* One overlay asked for on the command line. */
struct twz_overlay_item {
	const struct twz_overlay *kind;
	char text[64];            /* the argument as given, for messages */
	uint32_t arg[TWZ_OVERLAY_MAX_ARGS];
	unsigned nth;             /* 0 for the first of its kind, 1 ... */
	void *data;               /* made by prepare, freed by release */
};

struct twz_legend;
struct twz_render;

/* Overlay flags. */
#define TWZ_OVERLAY_NEEDS_DB    0x1u  /* reads the database */
#define TWZ_OVERLAY_REPEATS     0x2u  /* may be asked for more than once */
#define TWZ_OVERLAY_FILLS_CELLS 0x4u  /* colours cells (cell_colour) */

/*
 * A kind of overlay. Arguments are nargs comma-separated whole numbers
 * forming (x, y) pairs, each named by point_names and checked to be a
 * walkable cell on the map before prepare is called.
 */
struct twz_overlay {
	const char *name;         /* option --NAME, or --overlay NAME=ARGS */
	const char *arg_help;     /* "SX,SY,GX,GY"; NULL: takes no argument */
	const char *help;         /* one line for the usage */
	unsigned nargs;
	const char *point_names[TWZ_OVERLAY_MAX_ARGS / 2];
	unsigned flags;
	/* Read what will be drawn; 0, or -1 with err set. */
	int (*prepare)(struct twz_scene *sc, struct twz_overlay_item *it,
		       struct twz_error *err);
	/* TWZ_OVERLAY_FILLS_CELLS: the colour of walkable cell (x, y), or 0
	 * to leave it as the floor. */
	int (*cell_colour)(const struct twz_scene *sc,
			   const struct twz_overlay_item *it, uint32_t x,
			   uint32_t y, struct twz_rgb *out);
	/* Draw the item's part of one layer. */
	void (*draw)(const struct twz_render *r,
		     const struct twz_overlay_item *it, enum twz_layer layer);
	/* Add the item's legend entries. */
	void (*legend)(const struct twz_render *r,
		       const struct twz_overlay_item *it, struct twz_legend *lg);
	void (*release)(struct twz_overlay_item *it);
};

extern const struct twz_overlay twz_overlays[];
extern const size_t twz_overlay_count;

/* The overlay called name, or NULL. */
const struct twz_overlay *twz_overlay_find(const char *name);

/* Parse an overlay's argument text into it (kind set, nth not). 0, or -1
 * with a message in err naming the overlay and the problem. */
int twz_overlay_parse(struct twz_overlay_item *it,
		      const struct twz_overlay *kind, const char *text,
		      struct twz_error *err);

/* A drawing in progress: what the overlays' draw functions see. */
struct twz_render {
	struct twz_scene *scene;
	const struct twz_layout *layout;
	struct twz_canvas *canvas;
	const struct twz_overlay_item *fill;  /* the item colouring cells */
};

/* The colour cell (x, y) ends up with under the marks (floor, wall or the
 * filling overlay's colour): marks pick a contrasting ink from it. */
struct twz_rgb twz_render_cell_colour(const struct twz_render *r, uint32_t x,
				      uint32_t y);

/* ---- legend -------------------------------------------------------------- */

enum twz_legend_kind {
	TWZ_LEGEND_HEADING,   /* bold-ish line of text */
	TWZ_LEGEND_TEXT,      /* plain line */
	TWZ_LEGEND_SWATCH,    /* a filled cell */
	TWZ_LEGEND_PATH,      /* start marker - line - goal marker */
	TWZ_LEGEND_TARGET,    /* the target marker */
	TWZ_LEGEND_ARROW,     /* an arrow of move `move` */
	TWZ_LEGEND_GRADIENT,  /* a colour bar from lo to hi */
	TWZ_LEGEND_NODE,      /* a transit node marker */
	TWZ_LEGEND_BOUNDARY,  /* a dashed cell boundary */
};

#define TWZ_LEGEND_MAX 48
#define TWZ_LEGEND_TEXT_MAX 48

struct twz_legend_entry {
	enum twz_legend_kind kind;
	struct twz_rgb colour;
	unsigned move;
	struct twz_rgb (*palette)(double t);
	char text[TWZ_LEGEND_TEXT_MAX];
	char lo[16];              /* gradient end labels */
	char hi[16];
};

struct twz_legend {
	struct twz_legend_entry e[TWZ_LEGEND_MAX];
	size_t count;
};

/* Add an entry (text printf-style); silently full at TWZ_LEGEND_MAX. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
struct twz_legend_entry *twz_legend_add(struct twz_legend *lg,
					enum twz_legend_kind kind,
					const char *fmt, ...);

/* ---- marks shared by the map and the legend ----------------------------- */

/* Sizes in pixels from the scale, with floors that keep them visible. */
double twz_mark_radius(unsigned scale);
double twz_line_width(unsigned scale);

void twz_draw_start(struct twz_canvas *c, double x, double y, double r,
		    struct twz_rgb colour);
void twz_draw_goal(struct twz_canvas *c, double x, double y, double r,
		   struct twz_rgb colour);
void twz_draw_target(struct twz_canvas *c, double x, double y, double r);
/* An arrow of move m (0..7) centred on (x, y), len pixels tip to tail. */
void twz_draw_arrow(struct twz_canvas *c, double x, double y, double len,
		    unsigned m, struct twz_rgb colour);
/* A polyline with a white outline under it. */
void twz_draw_haloed_line(struct twz_canvas *c, const double *xy, size_t n,
			  double width, struct twz_rgb colour);

/* ---- the whole picture -------------------------------------------------- */

/* Check and prepare the items (needing the database if any item reads
 * it). 0, or -1 with err set. */
int twz_render_prepare(struct twz_scene *sc, struct twz_overlay_item *items,
		       size_t n, struct twz_error *err);
void twz_render_release(struct twz_overlay_item *items, size_t n);

/* Lay out and draw a prepared scene on a new canvas (opt->kind). */
int twz_render_draw(struct twz_scene *sc, struct twz_overlay_item *items,
		    size_t n, const struct twz_render_options *opt,
		    struct twz_canvas *out, struct twz_layout *layout,
		    struct twz_error *err);


/* Write bytes to path atomically (a temporary file renamed into place). */
int twz_render_write_file(const char *path, const void *buf, size_t len,
			  struct twz_error *err);

/* Read-only view of a database's rows: how many runs source s's row
 * holds, or 0 when the database has no rows. */
uint32_t twz_db_row_runs(const twz_db *db, twz_node s);

#endif
