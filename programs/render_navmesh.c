/*
 * render_navmesh.c - `twigz render DB.twz -o OUT.svg|OUT.png` for a
 * navmesh database: the mesh seen from above (x right, z up), each
 * polygon filled by its height so floors read apart (higher ones drawn
 * over lower ones, half see-through, outlined), and each --path with its
 * corridor shaded and its waypoints (funnel or midpoints) drawn as a
 * line from a start mark to a goal mark.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_common.h"
#include "graph_cli.h"
#include "navmesh_cli.h"
#include "render.h"

#define MAX_PATHS 16

static int usage_error(const char *msg)
{
	fprintf(stderr, "twigz: %s (see 'twigz render --help')\n", msg);
	return EXIT_USAGE;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n > m && !strcasecmp(s + n - m, suffix);
}

struct poly_order {
	double y;
	uint32_t node;
};

static int by_height(const void *a, const void *b)
{
	const struct poly_order *x = a, *y = b;

	if (x->y != y->y)
		return x->y < y->y ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* World (x, z) to pixels. */
struct view {
	double x0, z1, scale, margin;
};

static void to_px(const struct view *v, double x, double z, double *px,
		  double *py)
{
	*px = v->margin + (x - v->x0) * v->scale;
	*py = v->margin + (v->z1 - z) * v->scale;
}

int twz_navmesh_render_wanted(int argc, char **argv)
{
	static const char *const valued[] = { "-o", "--output", "--scale",
					      "--overlay", "--closed", "--waypoints" };

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		char *end;
		int takes = 0;
		for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
			takes |= !strcmp(a, valued[k]);
		if (takes) {
			i++;
			continue;
		}
		if (a[0] == '-' && a[1] && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.')
			continue;
		strtod(a, &end);
		if (end != a && !*end)
			continue;
		return twz_cli_db_kind(a) == TWZ_KIND_NAVMESH;
	}
	return 0;
}

int twz_navmesh_render_cmd(int argc, char **argv)
{
	static const char *const modes[] = { "funnel", "midpoints", NULL };
	const char *input = NULL, *out = NULL;
	float paths[MAX_PATHS][6];
	size_t npaths = 0;
	double scale = 0;
	int legend = 1;
	unsigned mode = TWZ_WAYPOINTS_FUNNEL;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (++i == argc)
				return usage_error("-o needs a file name");
			out = argv[i];
		} else if (!strcmp(a, "--scale")) {
			char *end;
			if (++i == argc)
				return usage_error("--scale needs pixels per world unit");
			scale = strtod(argv[i], &end);
			if (*end || !(scale > 0 && scale <= 4096))
				return usage_error("--scale needs pixels per world unit, above 0 and up to 4096");
		} else if (!strcmp(a, "--no-legend")) {
			legend = 0;
		} else if (!strcmp(a, "--waypoints")) {
			if (++i == argc)
				return usage_error("--waypoints needs funnel or midpoints");
			if (!strcmp(argv[i], modes[0]))
				mode = TWZ_WAYPOINTS_FUNNEL;
			else if (!strcmp(argv[i], modes[1]))
				mode = TWZ_WAYPOINTS_MIDPOINTS;
			else
				return usage_error("--waypoints needs funnel or midpoints");
		} else if (!strcmp(a, "--path")) {
			if (npaths == MAX_PATHS)
				return usage_error("too many paths (at most 16)");
			if (i + 6 >= argc)
				return usage_error("--path on a navmesh needs SX SY SZ GX GY GZ");
			for (int k = 0; k < 6; k++) {
				char *end;
				double v = strtod(argv[i + 1 + k], &end);
				if (*end || end == argv[i + 1 + k] || !isfinite(v))
					return usage_error("--path on a navmesh needs SX SY SZ GX GY GZ");
				paths[npaths][k] = (float)v;
			}
			npaths++;
			i += 6;
		} else if (a[0] == '-' && a[1]) {
			return usage_error("on a navmesh, render takes -o, --path SX SY SZ GX GY GZ, "
					   "--waypoints, --scale and --no-legend");
		} else if (!input) {
			input = a;
		} else {
			return usage_error("render takes one level or database");
		}
	}
	if (!out)
		return usage_error("render needs -o OUT.png or -o OUT.svg");
	int rc = twz_cli_check_output("-o", out);
	if (rc)
		return rc;
	int svg = ends_with(out, ".svg");
	if (!svg && !ends_with(out, ".png")) {
		fprintf(stderr, "twigz: %s: the output name must end in .png or .svg\n", out);
		return EXIT_USAGE;
	}
	if (!svg && !twz_png_available()) {
		fprintf(stderr, "twigz: %s: this twigz was built without libpng (meson "
			"option png), so it cannot write PNG; write an .svg instead\n", out);
		return EXIT_USAGE;
	}

	twz_db *db;
	if ((rc = twz_cli_open_db(input, &db)) != 0)
		return rc;
	uint32_t n = twz_node_count(db);
	struct poly_order *order = malloc(((size_t)n + 1) * sizeof *order);
	float (*v)[3] = malloc(TWZ_NAVMESH_MAX_POLY_VERTS * sizeof *v);
	double *xy = malloc((TWZ_NAVMESH_MAX_POLY_VERTS + 1) * 2 * sizeof *xy);
	twz_node *cor = malloc(((size_t)n + 1) * sizeof *cor);
	float (*pts)[3] = malloc(((size_t)n + 2) * sizeof *pts);
	double *line = malloc(((size_t)n + 2) * 2 * sizeof *line);
	struct twz_canvas c;
	struct twz_error err = { { 0 }, 0 };
	double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
	size_t nv;
	uint8_t *png = NULL;
	size_t png_len = 0;

	memset(&c, 0, sizeof c);
	if (!order || !v || !xy || !cor || !pts || !line) {
		fprintf(stderr, "twigz: %s: out of memory\n", input);
		rc = EXIT_NOMEM;
		goto out;
	}
	for (uint32_t p = 0; p < n; p++) {
		twz_navmesh_polygon(db, p, v, TWZ_NAVMESH_MAX_POLY_VERTS, &nv);
		double ysum = 0;
		for (size_t i = 0; i < nv; i++) {
			for (int k = 0; k < 3; k++) {
				if (v[i][k] < lo[k]) lo[k] = v[i][k];
				if (v[i][k] > hi[k]) hi[k] = v[i][k];
			}
			ysum += v[i][1];
		}
		order[p].y = ysum / (double)nv;
		order[p].node = p;
	}
	qsort(order, n, sizeof *order, by_height);
	double w = hi[0] - lo[0], h = hi[2] - lo[2], side = w > h ? w : h;
	struct view vw = { lo[0], hi[2], scale, 16 };
	if (!(side > 0))
		side = 1;
	if (vw.scale == 0)
		vw.scale = 1000.0 / side;
	double pw = w * vw.scale + 2 * vw.margin, ph = h * vw.scale + 2 * vw.margin;
	double legend_h = legend ? 3 * TWZ_FONT_LINE * 2 + 8 : 0;
	if (pw < 200)
		pw = 200;
	if (pw * (ph + legend_h) > (double)TWZ_RENDER_MAX_PIXELS) {
		fprintf(stderr, "twigz: %s: a picture of %.0f x %.0f pixels is too large: "
			"lower --scale\n", out, pw, ph + legend_h);
		rc = EXIT_USAGE;
		goto out;
	}
	struct twz_rgb white = { 255, 255, 255 }, ink = { 40, 40, 40 };
	if (twz_canvas_init(&c, svg ? TWZ_CANVAS_SVG : TWZ_CANVAS_RASTER,
			    (uint32_t)ceil(pw), (uint32_t)ceil(ph + legend_h), white, &err)) {
		rc = twz_cli_error(&err);
		goto out;
	}
	double ylo = lo[1], yspan = hi[1] - lo[1];
	c.ops->group(&c, "polygons");
	for (uint32_t k = 0; k < n; k++) {
		twz_node p = order[k].node;
		twz_navmesh_polygon(db, p, v, TWZ_NAVMESH_MAX_POLY_VERTS, &nv);
		for (size_t i = 0; i < nv; i++)
			to_px(&vw, v[i][0], v[i][2], &xy[2 * i], &xy[2 * i + 1]);
		double t = yspan > 0 ? (order[k].y - ylo) / yspan : 0.5;
		/* The lowest floor opaque, higher ones let it show through. */
		c.ops->polygon(&c, xy, nv, twz_palette_viridis(0.15 + 0.7 * t),
			       order[k].y > ylo ? 0.6 : 0.9);
		xy[2 * nv] = xy[0];
		xy[2 * nv + 1] = xy[1];
		c.ops->line(&c, xy, nv + 1, 1, ink, 0.8);
	}
	c.ops->group(&c, NULL);
	for (size_t q = 0; q < npaths; q++) {
		size_t cl, pl;
		struct twz_rgb colour = twz_palette_category((unsigned)q);
		twz_status st = twz_navmesh_path(db, paths[q], paths[q] + 3, mode, cor, n,
						 &cl, pts, (size_t)n + 2, &pl);
		if (st != TWZ_OK) {
			fprintf(stderr, "twigz: %s: path %zu: %s\n", input, q + 1,
				st == TWZ_E_ARGUMENT ? "start or goal is off the mesh"
						     : twz_strerror(st));
			continue;
		}
		c.ops->group(&c, "path");
		for (size_t i = 0; i < cl; i++) {
			twz_navmesh_polygon(db, cor[i], v, TWZ_NAVMESH_MAX_POLY_VERTS, &nv);
			for (size_t j = 0; j < nv; j++)
				to_px(&vw, v[j][0], v[j][2], &xy[2 * j], &xy[2 * j + 1]);
			c.ops->polygon(&c, xy, nv, colour, 0.25);
		}
		for (size_t i = 0; i < pl; i++)
			to_px(&vw, pts[i][0], pts[i][2], &line[2 * i], &line[2 * i + 1]);
		twz_draw_haloed_line(&c, line, pl, 3, colour);
		twz_draw_start(&c, line[0], line[1], 6, colour);
		twz_draw_goal(&c, line[2 * (pl - 1)], line[2 * (pl - 1) + 1], 6, colour);
		c.ops->group(&c, NULL);
	}
	if (legend) {
		char text[160];
		double y0 = ph + 4;
		c.ops->group(&c, "legend");
		for (int i = 0; i < 5; i++) {
			c.ops->rect(&c, vw.margin + 14 * i, y0, 14, 14,
				    twz_palette_viridis(0.15 + 0.7 * i / 4.0), 0.9);
		}
		snprintf(text, sizeof text, "height %.3g .. %.3g (lower floors under higher)",
			 lo[1], hi[1]);
		c.ops->text(&c, vw.margin + 80, y0 + 2, 2, text, ink);
		snprintf(text, sizeof text, "%u polygons, top view: x right, z up; %s",
			 n, mode == TWZ_WAYPOINTS_FUNNEL ? "funnel waypoints" : "portal midpoints");
		c.ops->text(&c, vw.margin, y0 + 2 * TWZ_FONT_LINE + 4, 2, text, ink);
		c.ops->group(&c, NULL);
	}
	if (svg)
		twz_svg_finish(&c);
	if (c.failed) {
		fprintf(stderr, "twigz: %s: out of memory\n", out);
		rc = EXIT_NOMEM;
		goto out;
	}
	if (svg) {
		if (twz_render_write_file(out, c.svg, c.svg_len, &err))
			rc = twz_cli_error(&err);
	} else if (twz_png_encode(&c, &png, &png_len, out, &err) ||
		   twz_render_write_file(out, png, png_len, &err)) {
		rc = twz_cli_error(&err);
	}
out:
	free(png);
	twz_canvas_free(&c);
	free(order);
	free(v);
	free(xy);
	free(cor);
	free(pts);
	free(line);
	twz_close(db);
	return rc;
}
