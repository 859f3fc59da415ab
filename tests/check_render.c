/*
 * check_render.c - `twigz render`: pictures of a tiny level checked pixel
 * by pixel at known cells (walls, a path cell, start and goal, distance
 * and first-move colours, run counts), the PNG and SVG the command writes,
 * and every malformed request refused with a one-line message.
 *
 * The level is a corridor with one opening, so the optimal path between
 * its two ends is unique and known:
 *
 *     @@@@@@@@@@      (1,1) -> (7,1) -> (7,2) -> (7,3) -> (1,3): cost 14
 *     @........@      (8,1) and (8,3) are floor off that path;
 *     @@@@@@@.@@      no diagonal fits through the opening (no corner
 *     @........@      cutting).
 *     @@@@@@@@@@
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(TWZ_HAVE_PNG) && TWZ_HAVE_PNG
#include <png.h>
#endif

#include "render.h"
#include "test_support.h"
#include "twz_format.h"

static const char corridor_text[] =
	"@@@@@@@@@@\n"
	"@........@\n"
	"@@@@@@@.@@\n"
	"@........@\n"
	"@@@@@@@@@@\n";

static const char corridor_map[] =
	"type octile\nheight 5\nwidth 10\nmap\n"
	"@@@@@@@@@@\n"
	"@........@\n"
	"@@@@@@@.@@\n"
	"@........@\n"
	"@@@@@@@@@@\n";

#define SCALE 16

/* ---- helpers ------------------------------------------------------------ */

struct fixture {
	struct twz_grid grid;
	uint8_t *db_buf;
	struct twz_scene scene;
	struct twz_overlay_item items[8];
	size_t n;
	struct twz_canvas canvas;
	struct twz_layout layout;
};

static void open_corridor(struct fixture *f)
{
	struct twz_error err = { { 0 }, 0 };
	size_t len;

	memset(f, 0, sizeof *f);
	twz_test_grid_from_text(&f->grid, corridor_text);
	f->db_buf = twz_test_bake(&f->grid, 8, TWZ_CODEC_RAW, 1, &len);
	ck_assert_int_eq(twz_scene_open_memory(f->db_buf, len, "corridor.twz",
					       &f->scene, &err), 0);
}

static void add(struct fixture *f, const char *name, const char *arg)
{
	struct twz_error err = { { 0 }, 0 };
	const struct twz_overlay *k = twz_overlay_find(name);

	ck_assert_msg(k != NULL, "no overlay %s", name);
	ck_assert_msg(twz_overlay_parse(&f->items[f->n], k, arg, &err) == 0,
		      "%s", err.msg);
	f->n++;
}

static void draw(struct fixture *f, enum twz_canvas_kind kind)
{
	struct twz_render_options opt;
	struct twz_error err = { { 0 }, 0 };

	twz_render_options_default(&opt);
	opt.scale = SCALE;
	opt.kind = kind;
	ck_assert_msg(twz_render_prepare(&f->scene, f->items, f->n, &err) == 0,
		      "%s", err.msg);
	ck_assert_msg(twz_render_draw(&f->scene, f->items, f->n, &opt,
				      &f->canvas, &f->layout, &err) == 0,
		      "%s", err.msg);
}

static void close_fixture(struct fixture *f)
{
	twz_canvas_free(&f->canvas);
	twz_render_release(f->items, f->n);
	twz_scene_close(&f->scene);
	free(f->db_buf);
	twz_grid_free(&f->grid);
}

/* The pixel at offset (dx, dy) from cell (x, y)'s centre. */
static struct twz_rgb at_cell(const struct fixture *f, uint32_t x, uint32_t y,
			      double dx, double dy)
{
	double px, py;

	twz_cell_centre(&f->layout, x, y, &px, &py);
	return twz_canvas_pixel(&f->canvas, (uint32_t)floor(px + dx),
				(uint32_t)floor(py + dy));
}

/* A pixel near the top-left corner of a cell: its fill, clear of marks
 * and grid lines. */
static struct twz_rgb cell_fill(const struct fixture *f, uint32_t x,
				uint32_t y)
{
	return at_cell(f, x, y, -SCALE / 2.0 + 3, -SCALE / 2.0 + 3);
}

#define ck_assert_rgb(got, want)                                              \
	do {                                                                   \
		struct twz_rgb g_ = (got), w_ = (want);                        \
		ck_assert_msg(g_.r == w_.r && g_.g == w_.g && g_.b == w_.b,    \
			      "%s: #%02x%02x%02x, expected #%02x%02x%02x",     \
			      #got, g_.r, g_.g, g_.b, w_.r, w_.g, w_.b);       \
	} while (0)

static const char *tmp_dir(void)
{
	static char dir[4096];

	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "twz_render_"));
	return dir;
}

static void write_text(const char *path, const char *text)
{
	twz_test_write_file(path, text, strlen(text));
}

/* Run the twigz command with args in dir; its exit status, its stderr in
 * err (malloc'd). */
static int run_args(const char *dir, const char *const args[], char **err)
{
	struct twz_test_run r;

	twz_test_run_tool(args, dir, 0, &r);
	ck_assert_msg(r.signal == 0, "could not run twigz %s", args[0]);
	free(r.out);
	*err = r.err;
	ck_assert_ptr_nonnull(*err);
	return r.status;
}

/* The same with args a list of words split at spaces (none has one). */
static int run_tool(const char *dir, const char *words, char **err)
{
	char buf[8192], *save = NULL;
	const char *args[64];
	size_t n = 0;

	snprintf(buf, sizeof buf, "%s", words);
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		ck_assert_uint_lt(n, 63);
		args[n++] = w;
	}
	args[n] = NULL;
	return run_args(dir, args, err);
}

/* One line: the refusal names the problem on one line. */
static void assert_one_line(const char *text, const char *needle)
{
	ck_assert_msg(strstr(text, needle) != NULL, "'%s' not in: %s", needle,
		      text);
	const char *nl = strchr(text, '\n');
	ck_assert_msg(nl && nl[1] == 0, "not one line: %s", text);
	ck_assert_msg(!strncmp(text, "twigz: ", 7), "no prefix: %s", text);
}

/* ---- Pixels -------------------------------------------------------------- */

START_TEST(test_render_path_pixels)
{
	struct fixture f;
	struct twz_rgb colour = twz_palette_category(0);
	double r = twz_mark_radius(SCALE) * 0.8;

	open_corridor(&f);
	add(&f, "path", "1,1,1,3");
	draw(&f, TWZ_CANVAS_RASTER);

	/* Walls and floor. */
	ck_assert_rgb(at_cell(&f, 0, 0, 0, 0), TWZ_COLOUR_WALL);
	ck_assert_rgb(at_cell(&f, 3, 2, 0, 0), TWZ_COLOUR_WALL);
	ck_assert_rgb(at_cell(&f, 9, 4, 0, 0), TWZ_COLOUR_WALL);
	ck_assert_rgb(at_cell(&f, 8, 1, 0, 0), TWZ_COLOUR_FLOOR);
	ck_assert_rgb(at_cell(&f, 8, 3, 0, 0), TWZ_COLOUR_FLOOR);
	/* The path goes through the opening and along both corridors. */
	ck_assert_rgb(at_cell(&f, 7, 2, 0, 0), colour);
	ck_assert_rgb(at_cell(&f, 4, 1, 0, 0), colour);
	ck_assert_rgb(at_cell(&f, 4, 3, 0, 0), colour);
	ck_assert_rgb(at_cell(&f, 7, 1, 0, 0), colour);
	/* ... and not above or below its line. */
	ck_assert_rgb(cell_fill(&f, 4, 1), TWZ_COLOUR_FLOOR);
	/* Start: a circle (its box corner is outside it); goal (the
	 * target): a square (its box corner is inside it). */
	ck_assert_rgb(at_cell(&f, 1, 1, 0, 0), colour);
	ck_assert_rgb(at_cell(&f, 1, 3, 0, 0), colour);
	ck_assert_rgb(at_cell(&f, 1, 1, r, r), TWZ_COLOUR_HALO);
	ck_assert_rgb(at_cell(&f, 1, 3, r, r), colour);
	/* Around the map: background. */
	ck_assert_rgb(twz_canvas_pixel(&f.canvas, 0, 0), TWZ_COLOUR_BACKGROUND);
	close_fixture(&f);
}
END_TEST

START_TEST(test_render_two_paths_two_colours)
{
	struct fixture f;

	open_corridor(&f);
	add(&f, "path", "1,1,8,1");
	add(&f, "path", "2,3,8,3");
	draw(&f, TWZ_CANVAS_RASTER);
	/* The first path runs through cell centres, the second one lane
	 * (its width and a gap) to its left: going east, above. */
	double lane = twz_line_width(SCALE) + 1.5;
	ck_assert_rgb(at_cell(&f, 5, 1, 0, 0), twz_palette_category(0));
	ck_assert_rgb(at_cell(&f, 5, 3, 0, -lane), twz_palette_category(1));
	ck_assert_rgb(at_cell(&f, 5, 3, 0, lane), TWZ_COLOUR_FLOOR);
	ck_assert_rgb(at_cell(&f, 7, 2, 0, 0), TWZ_COLOUR_FLOOR);
	/* Both through the opening: side by side. */
	close_fixture(&f);
	open_corridor(&f);
	add(&f, "path", "1,1,1,3");
	add(&f, "path", "2,1,2,3");
	draw(&f, TWZ_CANVAS_RASTER);
	ck_assert_rgb(at_cell(&f, 7, 2, 0, 0), twz_palette_category(0));
	struct twz_rgb side = at_cell(&f, 7, 2, lane, 0);
	struct twz_rgb other = at_cell(&f, 7, 2, -lane, 0);
	ck_assert_msg((side.r == 0x00 && side.g == 0x72 && side.b == 0xB2) !=
		      (other.r == 0x00 && other.g == 0x72 && other.b == 0xB2),
		      "second path not beside the first in the opening");
	close_fixture(&f);
}
END_TEST

START_TEST(test_render_distance_pixels)
{
	struct fixture f;

	open_corridor(&f);
	add(&f, "distance", "1,3");
	draw(&f, TWZ_CANVAS_RASTER);
	/* Costs to (1,3): (8,3) 7, (7,2) 7, (8,1) 9, (1,1) 14 (the most);
	 * near is bright: colour = viridis(1 - cost / 14). */
	ck_assert_rgb(cell_fill(&f, 8, 3), twz_palette_viridis(1 - 7 / 14.0));
	ck_assert_rgb(cell_fill(&f, 7, 2), twz_palette_viridis(1 - 7 / 14.0));
	ck_assert_rgb(cell_fill(&f, 8, 1), twz_palette_viridis(1 - 9 / 14.0));
	ck_assert_rgb(cell_fill(&f, 1, 1), twz_palette_viridis(0));
	ck_assert_rgb(cell_fill(&f, 2, 3), twz_palette_viridis(1 - 1 / 14.0));
	ck_assert_rgb(cell_fill(&f, 0, 2), TWZ_COLOUR_WALL);
	/* The target's marker: ink at its centre. */
	ck_assert_rgb(at_cell(&f, 1, 3, 0, 0), TWZ_COLOUR_INK);
	close_fixture(&f);
}
END_TEST

START_TEST(test_render_flow_colour_pixels)
{
	struct fixture f;

	open_corridor(&f);
	add(&f, "flow-colour", "1,3");
	draw(&f, TWZ_CANVAS_RASTER);
	/* Moves 0..3 are N E S W: the lower corridor goes west, the opening
	 * south, the upper corridor east toward the opening. */
	ck_assert_rgb(cell_fill(&f, 8, 3), twz_palette_move(3));
	ck_assert_rgb(cell_fill(&f, 4, 3), twz_palette_move(3));
	ck_assert_rgb(cell_fill(&f, 7, 2), twz_palette_move(2));
	ck_assert_rgb(cell_fill(&f, 3, 1), twz_palette_move(1));
	ck_assert_rgb(cell_fill(&f, 8, 1), twz_palette_move(3));
	ck_assert_rgb(cell_fill(&f, 7, 1), twz_palette_move(2));
	close_fixture(&f);
}
END_TEST

START_TEST(test_render_flow_arrows)
{
	struct fixture f;

	open_corridor(&f);
	add(&f, "flow", "1,3");
	draw(&f, TWZ_CANVAS_RASTER);
	/* Each cell's arrow passes through its centre, in ink on the floor;
	 * (8,3)'s arrow points west: its wide head is left of the centre,
	 * its narrow shaft right of it. */
	ck_assert_rgb(at_cell(&f, 8, 3, 0, 0), TWZ_COLOUR_INK);
	ck_assert_rgb(at_cell(&f, 7, 2, 0, 0), TWZ_COLOUR_INK);
	ck_assert_rgb(at_cell(&f, 8, 3, -2, 1.2), TWZ_COLOUR_INK);
	ck_assert_rgb(at_cell(&f, 8, 3, 2, 2.2), TWZ_COLOUR_FLOOR);
	/* (7,2)'s points south: wide below the centre. */
	ck_assert_rgb(at_cell(&f, 7, 2, 1.2, 2), TWZ_COLOUR_INK);
	ck_assert_rgb(at_cell(&f, 7, 2, 2.2, -2), TWZ_COLOUR_FLOOR);
	ck_assert_rgb(cell_fill(&f, 8, 3), TWZ_COLOUR_FLOOR);
	close_fixture(&f);
}
END_TEST

START_TEST(test_render_runs_pixels)
{
	struct fixture f;
	uint32_t lo = UINT32_MAX, hi = 0, checked = 0;

	open_corridor(&f);
	add(&f, "runs", NULL);
	draw(&f, TWZ_CANVAS_RASTER);
	for (twz_node n = 0; n < twz_node_count(f.scene.db); n++) {
		uint32_t c = twz_db_row_runs(f.scene.db, n);
		ck_assert_uint_gt(c, 0);
		lo = c < lo ? c : lo;
		hi = c > hi ? c : hi;
	}
	ck_assert_uint_gt(hi, lo);
	for (twz_node n = 0; n < twz_node_count(f.scene.db); n++) {
		uint32_t x, y, c = twz_db_row_runs(f.scene.db, n);
		twz_node_xy(f.scene.db, n, &x, &y);
		ck_assert_rgb(cell_fill(&f, x, y),
			      twz_palette_cividis((double)(c - lo) / (hi - lo)));
		checked++;
	}
	ck_assert_uint_eq(checked, 17);
	close_fixture(&f);
}
END_TEST

START_TEST(test_render_level_only)
{
	struct twz_scene sc;
	struct twz_error err = { { 0 }, 0 };
	struct twz_render_options opt;
	struct twz_canvas c;
	struct twz_layout l;
	const char *dir = tmp_dir();
	char path[4200];
	double px, py;

	snprintf(path, sizeof path, "%s/corridor.map", dir);
	write_text(path, corridor_map);
	ck_assert_int_eq(twz_scene_open(path, &sc, &err), 0);
	ck_assert_int_eq(sc.is_level, 1);
	ck_assert_ptr_null(sc.db);
	ck_assert_uint_eq(sc.walkable_count, 17);
	twz_render_options_default(&opt);
	opt.scale = 4;
	opt.legend = 0;
	ck_assert_int_eq(twz_render_prepare(&sc, NULL, 0, &err), 0);
	ck_assert_int_eq(twz_render_draw(&sc, NULL, 0, &opt, &c, &l, &err), 0);
	/* No legend: the map and a margin. */
	ck_assert_uint_eq(c.width, 10 * 4 + 2 * l.map_x);
	ck_assert_uint_eq(c.height, 5 * 4 + 2 * l.map_y);
	twz_cell_centre(&l, 3, 2, &px, &py);
	ck_assert_rgb(twz_canvas_pixel(&c, (uint32_t)px, (uint32_t)py),
		      TWZ_COLOUR_WALL);
	twz_cell_centre(&l, 7, 2, &px, &py);
	ck_assert_rgb(twz_canvas_pixel(&c, (uint32_t)px, (uint32_t)py),
		      TWZ_COLOUR_FLOOR);
	twz_canvas_free(&c);
	twz_scene_close(&sc);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* ---- Files ------------------------------------------------------------- */

#if defined(TWZ_HAVE_PNG) && TWZ_HAVE_PNG
/* The command's PNG equals the picture drawn here, byte for byte. */
START_TEST(test_render_png_file)
{
	const char *dir = tmp_dir();
	char map[4200], png[4200], *err;
	struct twz_scene sc;
	struct twz_error e = { { 0 }, 0 };
	struct twz_overlay_item it;
	struct twz_render_options opt;
	struct twz_canvas c;
	struct twz_layout l;
	png_image img;

	snprintf(map, sizeof map, "%s/corridor.map", dir);
	snprintf(png, sizeof png, "%s/out.png", dir);
	write_text(map, corridor_map);
	ck_assert_int_eq(run_tool(dir, "render corridor.map -o out.png --scale 16"
				  " --path 1,1,1,3", &err), 0);
	ck_assert_str_eq(err, "");
	free(err);

	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	ck_assert_int_ne(png_image_begin_read_from_file(&img, png), 0);
	img.format = PNG_FORMAT_RGB;
	uint8_t *pix = malloc(PNG_IMAGE_SIZE(img));
	ck_assert_ptr_nonnull(pix);
	ck_assert_int_ne(png_image_finish_read(&img, NULL, pix, 0, NULL), 0);

	ck_assert_int_eq(twz_scene_open(map, &sc, &e), 0);
	ck_assert_int_eq(twz_overlay_parse(&it, twz_overlay_find("path"),
					   "1,1,1,3", &e), 0);
	twz_render_options_default(&opt);
	opt.scale = 16;
	ck_assert_int_eq(twz_render_prepare(&sc, &it, 1, &e), 0);
	ck_assert_int_eq(twz_render_draw(&sc, &it, 1, &opt, &c, &l, &e), 0);
	ck_assert_uint_eq(img.width, c.width);
	ck_assert_uint_eq(img.height, c.height);
	ck_assert_int_eq(memcmp(pix, c.rgb, (size_t)c.width * c.height * 3), 0);

	/* And at the known cells: wall, path, goal. */
	double px, py;
	twz_cell_centre(&l, 3, 2, &px, &py);
	const uint8_t *p = pix + ((size_t)py * img.width + (size_t)px) * 3;
	ck_assert_rgb(((struct twz_rgb){ p[0], p[1], p[2] }), TWZ_COLOUR_WALL);
	twz_cell_centre(&l, 7, 2, &px, &py);
	p = pix + ((size_t)py * img.width + (size_t)px) * 3;
	ck_assert_rgb(((struct twz_rgb){ p[0], p[1], p[2] }),
		      twz_palette_category(0));
	twz_cell_centre(&l, 1, 3, &px, &py);
	p = pix + ((size_t)py * img.width + (size_t)px) * 3;
	ck_assert_rgb(((struct twz_rgb){ p[0], p[1], p[2] }),
		      twz_palette_category(0));

	png_image_free(&img);
	free(pix);
	twz_canvas_free(&c);
	twz_render_release(&it, 1);
	twz_scene_close(&sc);
	unlink(map);
	unlink(png);
	rmdir(dir);
}
END_TEST
#endif

START_TEST(test_render_svg_file)
{
	const char *dir = tmp_dir();
	char path[4200], *err, *svg;
	size_t len;

	snprintf(path, sizeof path, "%s/corridor.map", dir);
	write_text(path, corridor_map);
	ck_assert_int_eq(run_tool(dir, "render corridor.map -o out.svg --scale 16"
				  " --path 1,1,1,3 --flow 1,3", &err), 0);
	ck_assert_str_eq(err, "");
	free(err);
	snprintf(path, sizeof path, "%s/out.svg", dir);
	svg = (char *)twz_test_try_read_file(path, &len);
	ck_assert_ptr_nonnull(svg);
	ck_assert_int_eq(strncmp(svg, "<?xml", 5), 0);
	ck_assert_ptr_nonnull(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	ck_assert_str_eq(svg + len - 7, "</svg>\n");
	/* The wall at (3,2): scale 16, the map 12 pixels in, one rectangle
	 * per run of wall cells: (0,2) .. (6,2). */
	ck_assert_ptr_nonnull(strstr(svg, "<rect x=\"12\" y=\"44\" width=\"112\""
				     " height=\"16\" fill=\"#3b3b3b\"/>"));
	/* The path: one polyline through cell centres, in the first
	 * category colour, from (1,1) at (36,36) to (1,3) at (36,68). */
	char *line = strstr(svg, "<polyline points=\"36,36 ");
	ck_assert_ptr_nonnull(line);
	ck_assert_ptr_nonnull(strstr(line, " 132,52 ")); /* (7,2) */
	ck_assert_ptr_nonnull(strstr(svg, "stroke=\"#d55e00\""));
	ck_assert_ptr_nonnull(strstr(svg, "<g id=\"arrows\">\n<polygon"));
	ck_assert_ptr_nonnull(strstr(svg, "<g id=\"legend\">"));
	free(svg);
	unlink(path);
	snprintf(path, sizeof path, "%s/corridor.map", dir);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* ---- Refusals ------------------------------------------------------------ */

struct refusal {
	const char *args;
	int status;
	const char *message;
};

static const struct refusal refusals[] = {
	{ "render corridor.map -o out.svg --path 1,1,10,3", 3,
	  "--path 1,1,10,3: goal (10,3) is off the map (10 x 5 cells)" },
	{ "render corridor.map -o out.svg --path 1,9,1,3", 3,
	  "start (1,9) is off the map" },
	{ "render corridor.map -o out.svg --path 0,0,1,3", 3,
	  "start (0,0) is a blocked cell" },
	{ "render corridor.map -o out.svg --distance 4,2", 3,
	  "target (4,2) is a blocked cell" },
	{ "render corridor.map -o out.svg --sparkles", 2,
	  "unknown overlay 'sparkles'" },
	{ "render corridor.map -o out.svg --overlay sparkles=1,2", 2,
	  "unknown overlay 'sparkles'" },
	{ "render corridor.map -o out.svg --path 1,1,1", 2,
	  "--path needs SX,SY,GX,GY" },
	{ "render corridor.map -o out.svg --path 1,1,1,3,", 2,
	  "--path needs SX,SY,GX,GY" },
	{ "render corridor.map -o out.svg --path 1,-1,1,3", 2,
	  "--path needs SX,SY,GX,GY" },
	{ "render corridor.map -o out.svg --path", 2, "--path needs" },
	{ "render corridor.map -o out.svg --overlay runs=3", 2,
	  "--runs takes no argument" },
	{ "render corridor.map -o out.svg --runs --distance 1,3", 3,
	  "--runs and --distance both colour the cells" },
	{ "render corridor.map -o out.svg --flow 1,3 --flow 1,1", 3,
	  "--flow is asked for twice" },
	{ "render corridor.map -o out.svg --transit", 3,
	  "the database holds no transit nodes (it is a CPD database; bake with --method transit)" },
#if !(defined(TWZ_HAVE_PNG) && TWZ_HAVE_PNG)
	{ "render corridor.map -o out.png", 2, "built without libpng" },
#endif
	{ "render corridor.map -o out.gif", 2, "unknown picture type" },
	{ "render corridor.map", 2, "render needs -o" },
	{ "render -o out.svg", 2, "render needs a level or a database" },
	{ "render corridor.map -o out.svg --scale 0", 2, "--scale needs" },
	{ "render missing.map -o out.svg", 4, "missing.map: cannot open" },
	{ "render bad.map -o out.svg", 3, "bad.map" },
	{ "render bad.twz -o out.svg", 3, "bad.twz: " },
	{ "render big.map -o out.svg --path 0,0,1,1", 3,
	  "bake it with 'twigz build'" },
};

/* A TRANSIT database: its block grid and transit nodes are drawn, with
 * their legend lines, and the node count is the database's. */
START_TEST(test_render_transit_overlay)
{
	const char *root = getenv("TWZ_SOURCE_ROOT");
	const char *dir = tmp_dir();
	char demo[4200], path[4200], *err, *svg;

	ck_assert_ptr_nonnull(root);
	snprintf(demo, sizeof demo, "%s/data/demo.map", root);
	const char *const args[] = { "build", demo, "-o", "t.twz", "--method",
				     "transit", "--quiet", NULL };
	ck_assert_int_eq(run_args(dir, args, &err), 0);
	free(err);
	ck_assert_int_eq(run_tool(dir, "render t.twz -o t.svg --transit", &err), 0);
	ck_assert_str_eq(err, "");
	free(err);
	snprintf(path, sizeof path, "%s/t.svg", dir);
	svg = (char *)twz_test_try_read_file(path, NULL);
	ck_assert_ptr_nonnull(svg);
	char *grid = strstr(svg, "<g id=\"grid\">\n<polyline");
	ck_assert_ptr_nonnull(grid);
	ck_assert_ptr_nonnull(strstr(svg, "TRANSIT cells, "));
	const char *count = strstr(svg, " transit nodes");
	ck_assert_ptr_nonnull(count);
	while (count > svg && count[-1] >= '0' && count[-1] <= '9')
		count--;
	unsigned nodes = (unsigned)strtoul(count, NULL, 10);
	ck_assert_uint_gt(nodes, 0);
	/* One marker per transit node in the marks layer: a square on a
	 * white halo, two rectangles each. */
	char *marks = strstr(svg, "<g id=\"marks\">");
	ck_assert_ptr_nonnull(marks);
	char *end = strstr(marks, "</g>");
	ck_assert_ptr_nonnull(end);
	unsigned drawn = 0;
	for (char *p = marks; (p = strstr(p, "<rect")) && p < end; p++)
		drawn++;
	ck_assert_uint_eq(drawn, 2 * nodes);
	free(svg);
	unlink(path);
	snprintf(path, sizeof path, "%s/t.twz", dir);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_render_refusals)
{
	const struct refusal *r = &refusals[_i];
	const char *dir = tmp_dir();
	char path[4200], *err;
	struct stat st;

	snprintf(path, sizeof path, "%s/corridor.map", dir);
	write_text(path, corridor_map);
	snprintf(path, sizeof path, "%s/bad.map", dir);
	write_text(path, "type octile\nheight 2\nwidth 3\nmap\n...\n..\n");
	/* A database cut short: its magic and then nothing. */
	snprintf(path, sizeof path, "%s/bad.twz", dir);
	write_text(path, TWZ_MAGIC "\x01");
	/* Too many walkable cells to bake in memory for a picture. */
	snprintf(path, sizeof path, "%s/big.map", dir);
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "type octile\nheight 100\nwidth 200\nmap\n");
	for (int y = 0; y < 100; y++)
		fprintf(f, "%s\n", "........................................"
			"........................................"
			"........................................"
			"........................................"
			"........................................");
	ck_assert_int_eq(fclose(f), 0);

	int status = run_tool(dir, r->args, &err);
	ck_assert_msg(status == r->status, "%s: exit %d, not %d: %s", r->args,
		      status, r->status, err);
	assert_one_line(err, r->message);
	free(err);
	/* Nothing was written. */
	snprintf(path, sizeof path, "%s/out.svg", dir);
	ck_assert_int_ne(stat(path, &st), 0);
	snprintf(path, sizeof path, "%s/out.png", dir);
	ck_assert_int_ne(stat(path, &st), 0);
	const char *names[] = { "corridor.map", "bad.map", "bad.twz", "big.map" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		unlink(path);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A level too big to bake in memory still renders on its own. */
START_TEST(test_render_big_level_alone)
{
	const char *dir = tmp_dir();
	char path[4200], *err;
	struct stat st;

	snprintf(path, sizeof path, "%s/big.map", dir);
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "type octile\nheight 150\nwidth 150\nmap\n");
	for (int y = 0; y < 150; y++) {
		for (int x = 0; x < 150; x++)
			fputc((x % 10 == 5 && y % 30 != 0) ? '@' : '.', f);
		fputc('\n', f);
	}
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(run_tool(dir, "render big.map -o out.svg", &err), 0);
	free(err);
	snprintf(path, sizeof path, "%s/out.svg", dir);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_gt(st.st_size, 1000);
	unlink(path);
	snprintf(path, sizeof path, "%s/big.map", dir);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(test_render_argument_parsing)
{
	struct twz_overlay_item it;
	struct twz_error err = { { 0 }, 0 };
	const struct twz_overlay *path = twz_overlay_find("path");

	ck_assert_ptr_nonnull(path);
	ck_assert_ptr_null(twz_overlay_find("paths"));
	ck_assert_int_eq(twz_overlay_parse(&it, path, "0,12,345,6789", &err), 0);
	ck_assert_uint_eq(it.arg[0], 0);
	ck_assert_uint_eq(it.arg[1], 12);
	ck_assert_uint_eq(it.arg[2], 345);
	ck_assert_uint_eq(it.arg[3], 6789);
	ck_assert_int_ne(twz_overlay_parse(&it, path, "", &err), 0);
	ck_assert_int_ne(twz_overlay_parse(&it, path, NULL, &err), 0);
	ck_assert_int_ne(twz_overlay_parse(&it, path, "1,2,3,4,5", &err), 0);
	ck_assert_int_ne(twz_overlay_parse(&it, path, "1,2,3,99999999999", &err), 0);
	ck_assert_int_ne(twz_overlay_parse(&it, path, "1, 2,3,4", &err), 0);
	ck_assert_int_ne(twz_overlay_parse(&it, path, "1,2,3,4x", &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "'1,2,3,4x'"));
	/* Every overlay in the table has what the command and the legend
	 * need. */
	for (size_t i = 0; i < twz_overlay_count; i++) {
		const struct twz_overlay *o = &twz_overlays[i];
		ck_assert_ptr_nonnull(o->name);
		ck_assert_ptr_nonnull(o->help);
		ck_assert_uint_le(o->nargs, TWZ_OVERLAY_MAX_ARGS);
		ck_assert_int_eq(o->nargs == 0, o->arg_help == NULL);
		ck_assert_int_eq(!!(o->flags & TWZ_OVERLAY_FILLS_CELLS),
				 o->cell_colour != NULL);
		ck_assert_ptr_eq(twz_overlay_find(o->name), o);
	}
}
END_TEST

static Suite *twz_render_suite(void)
{
	Suite *s = suite_create("render");
	TCase *tc;

	tc = tcase_create("Pixels");
	tcase_add_test(tc, test_render_path_pixels);
	tcase_add_test(tc, test_render_two_paths_two_colours);
	tcase_add_test(tc, test_render_distance_pixels);
	tcase_add_test(tc, test_render_flow_colour_pixels);
	tcase_add_test(tc, test_render_flow_arrows);
	tcase_add_test(tc, test_render_runs_pixels);
	tcase_add_test(tc, test_render_level_only);
	suite_add_tcase(s, tc);

	tc = tcase_create("Files");
#if defined(TWZ_HAVE_PNG) && TWZ_HAVE_PNG
	tcase_add_test(tc, test_render_png_file);
#endif
	tcase_add_test(tc, test_render_svg_file);
	tcase_add_test(tc, test_render_big_level_alone);
	suite_add_tcase(s, tc);

	tc = tcase_create("Refusals");
	tcase_add_loop_test(tc, test_render_refusals, 0,
			    (int)(sizeof refusals / sizeof refusals[0]));
	tcase_add_test(tc, test_render_argument_parsing);
	tcase_add_test(tc, test_render_transit_overlay);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_render_suite());
}
