/*
 * render_graph.c - `twigz render DB -o OUT.png|OUT.svg [--path S,T]...`
 * for a graph database baked with coordinates (--coords): every arc as
 * a line (one-way arcs lighter, with a tick toward their head), every
 * vertex as a dot, each asked path over them in its own colour with its
 * ends marked, and a legend of the paths' costs. Drawn on the canvases
 * render.c draws grids on.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "graph_cli.h"
#include "render.h"

#define SIDE 1024.0      /* pixels of the longer side of the drawing */
#define MARGIN 24.0
#define MAX_PATHS 16

struct place {
	double x0, y0, scale;   /* coordinate -> pixel */
	double top;             /* y of the drawing's top edge */
};

static void xy_of(const twz_db *db, const struct place *p, twz_node n,
		  double *x, double *y)
{
	int64_t cx = 0, cy = 0;

	twz_node_coords(db, n, &cx, &cy);
	*x = MARGIN + ((double)cx - p->x0) * p->scale;
	/* y up, as maps are drawn. */
	*y = p->top - ((double)cy - p->y0) * p->scale;
}

static int usage(const char *msg)
{
	return twz_cli_usage("%s", msg);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

int twz_graph_render_cmd(int argc, char **argv)
{
	const char *input = NULL, *out = NULL;
	uint32_t pair[MAX_PATHS][2];
	size_t paths = 0;
	int legend = 1;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		unsigned long s, t;
		char end;
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (!val)
				return usage("-o needs a file name");
			out = val;
			i++;
		} else if (!strcmp(a, "--path")) {
			if (!val || sscanf(val, "%lu,%lu%c", &s, &t, &end) != 2 ||
			    !s || !t || s > UINT32_MAX || t > UINT32_MAX)
				return usage("--path on a graph needs S,T (two vertex ids)");
			if (paths == MAX_PATHS)
				return usage("too many paths (at most 16)");
			pair[paths][0] = (uint32_t)s;
			pair[paths][1] = (uint32_t)t;
			paths++;
			i++;
		} else if (!strcmp(a, "--no-legend")) {
			legend = 0;
		} else if (a[0] == '-' && a[1]) {
			return usage("a graph is drawn with -o, --path S,T and --no-legend");
		} else if (!input) {
			input = a;
		} else {
			return usage("render takes one database");
		}
	}
	if (!input)
		return usage("render needs a database");
	if (!out)
		return usage("render needs -o OUT.png or -o OUT.svg");
	int rc = twz_cli_check_output("-o", out);
	if (rc)
		return rc;
	enum twz_canvas_kind kind;
	if (ends_with(out, ".svg")) {
		kind = TWZ_CANVAS_SVG;
	} else if (ends_with(out, ".png") && twz_png_available()) {
		kind = TWZ_CANVAS_RASTER;
	} else {
		fprintf(stderr, "twigz: %s: the picture must be .svg%s\n", out,
			twz_png_available() ? " or .png" : " (this build has no libpng)");
		return EXIT_USAGE;
	}

	twz_db *db;
	if ((rc = twz_cli_open_db(input, &db)) != 0)
		return rc;
	uint32_t n = twz_node_count(db);
	int64_t x, y;
	if (!n || twz_node_coords(db, 0, &x, &y) != TWZ_OK) {
		fprintf(stderr, "twigz: %s: a graph baked without --coords has no "
			"places to draw its vertices at\n", input);
		twz_close(db);
		return EXIT_INPUT;
	}
	for (size_t k = 0; k < paths; k++)
		for (int e = 0; e < 2; e++)
			if (pair[k][e] > n) {
				fprintf(stderr, "twigz: %s: vertex %u is not in the graph "
					"(ids 1 to %u)\n", input, pair[k][e], n);
				twz_close(db);
				return EXIT_INPUT;
			}

	/* The drawing's frame: the coordinates' bounding box. */
	double minx = 0, maxx = 0, miny = 0, maxy = 0;
	for (twz_node v = 0; v < n; v++) {
		twz_node_coords(db, v, &x, &y);
		if (!v || x < minx) minx = (double)x;
		if (!v || x > maxx) maxx = (double)x;
		if (!v || y < miny) miny = (double)y;
		if (!v || y > maxy) maxy = (double)y;
	}
	double span = maxx - minx > maxy - miny ? maxx - minx : maxy - miny;
	struct place p = { minx, miny, span > 0 ? SIDE / span : 1, 0 };
	double w = (maxx - minx) * p.scale + 2 * MARGIN;
	double h = (maxy - miny) * p.scale + 2 * MARGIN;
	double legend_h = legend ? (paths + 1) * TWZ_FONT_LINE * 2.0 + MARGIN : 0;
	p.top = MARGIN + (maxy - miny) * p.scale;

	struct twz_canvas c;
	struct twz_error err = { { 0 }, 0 };
	twz_node *buf = malloc(((size_t)n + 1) * sizeof *buf);
	twz_node heads[64];
	uint64_t weights[64];
	if (!buf || twz_canvas_init(&c, kind, (uint32_t)(w < 320 ? 320 : w),
				    (uint32_t)(h + legend_h), TWZ_COLOUR_BACKGROUND,
				    &err)) {
		free(buf);
		twz_close(db);
		fprintf(stderr, "twigz: %s: out of memory for the picture\n", out);
		return EXIT_NOMEM;
	}
	const struct twz_canvas_ops *ops = c.ops;
	ops->group(&c, "arcs");
	for (twz_node u = 0; u < n; u++) {
		size_t cnt, got;
		twz_node_arcs(db, u, heads, weights, 64, &cnt);
		got = cnt < 64 ? cnt : 64;
		for (size_t k = 0; k < got; k++) {
			twz_node v = heads[k];
			twz_node back[64];
			uint64_t bw[64];
			size_t bc;
			int both = 0;
			twz_node_arcs(db, v, back, bw, 64, &bc);
			for (size_t j = 0; j < bc && j < 64; j++)
				both |= back[j] == u;
			if (both && v < u)
				continue;  /* drawn from the other end */
			double xy[4];
			xy_of(db, &p, u, &xy[0], &xy[1]);
			xy_of(db, &p, v, &xy[2], &xy[3]);
			ops->line(&c, xy, 2, both ? 2.0 : 1.2, TWZ_COLOUR_WALL,
				  both ? 0.55 : 0.3);
			if (!both) {
				/* A tick toward the head: the last fifth. */
				double t[4] = { xy[0] + 0.75 * (xy[2] - xy[0]),
						xy[1] + 0.75 * (xy[3] - xy[1]),
						xy[2] - 0.1 * (xy[2] - xy[0]),
						xy[3] - 0.1 * (xy[3] - xy[1]) };
				ops->line(&c, t, 2, 2.5, TWZ_COLOUR_WALL, 0.6);
			}
		}
	}
	ops->group(&c, NULL);
	ops->group(&c, "vertices");
	for (twz_node v = 0; v < n; v++) {
		double vx, vy;
		xy_of(db, &p, v, &vx, &vy);
		ops->circle(&c, vx, vy, 2.0, TWZ_COLOUR_INK, 0.8);
	}
	ops->group(&c, NULL);
	ops->group(&c, "paths");
	char line[160];
	double ly = h + MARGIN / 2;
	if (legend) {
		snprintf(line, sizeof line, "%s: %u vertices", input, n);
		ops->text(&c, MARGIN, ly, 2, line, TWZ_COLOUR_INK);
		ly += TWZ_FONT_LINE * 2.0;
	}
	for (size_t k = 0; k < paths; k++) {
		twz_node s = twz_node_of_id(db, pair[k][0]);
		twz_node t = twz_node_of_id(db, pair[k][1]);
		struct twz_rgb col = twz_palette_category((unsigned)k);
		size_t len = 0;
		uint64_t cost = 0;
		twz_status st = twz_path(db, s, t, buf, (size_t)n + 1, &len);
		if (st == TWZ_OK)
			st = twz_cost_u64(db, s, t, &cost);
		if (st == TWZ_OK && len > 1) {
			double *xy = malloc(len * 2 * sizeof *xy);
			if (xy) {
				for (size_t i = 0; i < len; i++)
					xy_of(db, &p, buf[i], &xy[2 * i], &xy[2 * i + 1]);
				ops->line(&c, xy, len, 5.0, TWZ_COLOUR_HALO, 0.9);
				ops->line(&c, xy, len, 3.5, col, 1.0);
				free(xy);
			}
		}
		double sx, sy, tx, ty;
		xy_of(db, &p, s, &sx, &sy);
		xy_of(db, &p, t, &tx, &ty);
		ops->circle(&c, sx, sy, 6.0, col, 1.0);
		ops->circle(&c, tx, ty, 6.0, TWZ_COLOUR_HALO, 1.0);
		ops->circle(&c, tx, ty, 4.5, col, 1.0);
		if (legend) {
			if (st == TWZ_OK)
				snprintf(line, sizeof line, "%u -> %u: cost %" PRIu64
					 ", %zu arcs", pair[k][0], pair[k][1], cost,
					 len - 1);
			else
				snprintf(line, sizeof line, "%u -> %u: %s", pair[k][0],
					 pair[k][1], st == TWZ_E_UNREACHABLE
					 ? "unreachable" : twz_strerror(st));
			ops->rect(&c, MARGIN, ly, 14, 14, col, 1.0);
			ops->text(&c, MARGIN + 22, ly, 2, line, TWZ_COLOUR_INK);
			ly += TWZ_FONT_LINE * 2.0;
		}
	}
	ops->group(&c, NULL);

	uint8_t *png = NULL;
	size_t png_len = 0;
	if (c.failed) {
		fprintf(stderr, "twigz: %s: out of memory for the picture\n", out);
		rc = EXIT_NOMEM;
	} else if (kind == TWZ_CANVAS_SVG) {
		if (twz_svg_finish(&c) || twz_render_write_file(out, c.svg, c.svg_len, &err))
			rc = err.msg[0] ? twz_cli_error(&err) : EXIT_NOMEM;
	} else if (twz_png_encode(&c, &png, &png_len, out, &err) ||
		   twz_render_write_file(out, png, png_len, &err)) {
		rc = twz_cli_error(&err);
	}
	free(png);
	twz_canvas_free(&c);
	free(buf);
	twz_close(db);
	return rc;
}
