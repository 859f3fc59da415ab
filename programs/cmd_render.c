/*
 * cmd_render.c - `twigz render LEVEL_OR_DB -o OUT.png|OUT.svg [options]`:
 * draws a level (.map) or a database (.twz) with overlays. The overlay
 * options come from the table in render_overlays.c, plus --baseline
 * (render_trace.c): each entry NAME is asked for as --NAME [ARGS] or
 * --overlay NAME[=ARGS]. --smooth draws every --path as a smooth-path
 * (its any-angle waypoints too).
 *
 * A level whose overlays read a database is baked in memory first when it
 * is small (TWZ_RENDER_BAKE_MAX walkable cells); a bigger one is refused
 * with a message, as baking it takes minutes: bake it with `twigz build`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_common.h"
#include "graph_cli.h"
#include "navmesh_cli.h"
#include "render.h"
#include "render_trace.h"

#define MAX_ITEMS 32

static void render_help(FILE *f)
{
	fprintf(f, "usage: twigz render LEVEL.map|DB.twz -o OUT.png|OUT.svg [options]\n"
		"  --scale N         pixels per cell, 1 to 64 (default: from the size)\n"
		"  --no-legend       leave the legend out\n"
		"  --grid, --no-grid lines between cells (default: from 12 pixels)\n"
		"  --closed FILE     cells closed right now, one 'x y' a line: drawn,\n"
		"                    and paths and flows go round them\n"
		"  --smooth          draw each --path with its any-angle waypoints\n"
		"overlays (also --overlay NAME[=ARGS]):\n");
	for (size_t i = 0; i < twz_overlay_count; i++) {
		const struct twz_overlay *o = &twz_overlays[i];
		char opt[48];
		snprintf(opt, sizeof opt, "--%s%s%s", o->name,
			 o->arg_help ? " " : "", o->arg_help ? o->arg_help : "");
		fprintf(f, "  %-26s %s\n", opt, o->help);
	}
	fprintf(f, "  --%s %s\n%29s%s\n%29sALGO: dijkstra, astar, greedy, bfs, "
		"dfs, jps, evasion\n", twz_trace_overlay.name,
		twz_trace_overlay.arg_help, "", twz_trace_overlay.help, "");
	fprintf(f, "A level is baked in memory for overlays that read a database "
		"when it has at\nmost %u walkable cells; bake bigger ones with "
		"'twigz build'.\n", TWZ_RENDER_BAKE_MAX);
}

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

static int unknown_overlay(const char *name)
{
	char msg[512];
	size_t len = (size_t)snprintf(msg, sizeof msg,
				      "unknown overlay '%.64s' (known:", name);
	for (size_t i = 0; i < twz_overlay_count && len < sizeof msg; i++)
		len += (size_t)snprintf(msg + len, sizeof msg - len, "%s %s",
					i ? "," : "", twz_overlays[i].name);
	if (len < sizeof msg)
		len += (size_t)snprintf(msg + len, sizeof msg - len, ", %s",
					twz_trace_overlay.name);
	if (len < sizeof msg)
		snprintf(msg + len, sizeof msg - len, ")");
	return usage_error(msg);
}

/* An overlay of the table, or the search trace overlay. */
static const struct twz_overlay *find_overlay(const char *name)
{
	if (!strcmp(name, twz_trace_overlay.name))
		return &twz_trace_overlay;
	return twz_overlay_find(name);
}

static int render_grid(int argc, char **argv);

int twz_cmd_render(int argc, char **argv)
{
	/* A navmesh is drawn from above with its paths (render_navmesh.c). */
	if (twz_navmesh_render_wanted(argc, argv))
		return twz_navmesh_render_cmd(argc, argv);
	return render_grid(argc, argv);
}

/* A grid level or database, or a graph's (handed on below). */
static int render_grid(int argc, char **argv)
{
	struct twz_overlay_item items[MAX_ITEMS];
	struct twz_render_options opt;
	struct twz_error err = { { 0 }, 0 };
	const char *input = NULL, *out = NULL, *closed = NULL;
	size_t n = 0;
	int smooth = 0;
	long v;

	static const char *const valued[] = { "-o", "--output", "--scale",
					      "--closed", "--overlay", "--path",
					      NULL };

	/* A graph is drawn by its coordinates (render_graph.c). */
	if (twz_cli_db_kind(twz_cli_db_word(argc, argv, valued)) == TWZ_KIND_GRAPH)
		return twz_graph_render_cmd(argc, argv);
	twz_render_options_default(&opt);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		const struct twz_overlay *ov = NULL;
		const char *ovarg = NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			render_help(stdout);
			return 0;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (!val)
				return usage_error("-o needs a file name");
			out = val;
			i++;
			continue;
		} else if (!strcmp(a, "--scale")) {
			if (!val || twz_cli_parse_int(val, 1, 64, &v))
				return usage_error("--scale needs a number of pixels from 1 to 64");
			opt.scale = (unsigned)v;
			i++;
			continue;
		} else if (!strcmp(a, "--closed")) {
			if (!val)
				return usage_error("--closed needs a file of closed cells");
			closed = val;
			i++;
			continue;
		} else if (!strcmp(a, "--no-legend")) {
			opt.legend = 0;
			continue;
		} else if (!strcmp(a, "--grid")) {
			opt.grid = 1;
			continue;
		} else if (!strcmp(a, "--no-grid")) {
			opt.grid = 0;
			continue;
		} else if (!strcmp(a, "--smooth")) {
			smooth = 1;
			continue;
		} else if (!strcmp(a, "--overlay")) {
			if (!val)
				return usage_error("--overlay needs NAME or NAME=ARGS");
			char name[64];
			const char *eq = strchr(val, '=');
			size_t len = eq ? (size_t)(eq - val) : strlen(val);
			snprintf(name, sizeof name, "%.*s",
				 (int)(len < sizeof name ? len : sizeof name - 1), val);
			if (!strcmp(name, "closed")) {
				/* --overlay closed=FILE, as --closed FILE. */
				if (!eq || !eq[1])
					return usage_error("--overlay closed needs =FILE");
				closed = eq + 1;
				i++;
				continue;
			}
			ov = find_overlay(name);
			if (!ov)
				return unknown_overlay(name);
			ovarg = eq ? eq + 1 : NULL;
			i++;
		} else if (a[0] == '-' && a[1] == '-' &&
			   (ov = find_overlay(a + 2)) != NULL) {
			if (ov->arg_help) {
				if (!val) {
					char msg[128];
					snprintf(msg, sizeof msg, "--%s needs %s",
						 ov->name, ov->arg_help);
					return usage_error(msg);
				}
				ovarg = val;
				i++;
			}
		} else if (a[0] == '-' && a[1]) {
			if (a[1] == '-')
				return unknown_overlay(a + 2);
			return usage_error("unknown option: options start with --");
		} else if (!input) {
			input = a;
			continue;
		} else {
			return usage_error("render takes one level or database");
		}
		if (n == MAX_ITEMS)
			return usage_error("too many overlays (at most 32)");
		if ((ov == &twz_trace_overlay ? twz_trace_overlay_parse :
		     twz_overlay_parse)(&items[n], ov, ovarg, &err))
			return usage_error(err.msg);
		n++;
	}
	if (!input)
		return usage_error("render needs a level or a database");
	if (smooth) {
		const struct twz_overlay *path = twz_overlay_find("path");
		const struct twz_overlay *sp = twz_overlay_find("smooth-path");
		int paths = 0;
		for (size_t i = 0; i < n; i++)
			if (items[i].kind == path || items[i].kind == sp) {
				items[i].kind = sp;
				paths = 1;
			}
		if (!paths)
			return usage_error("--smooth draws the --path overlays: "
					   "give at least one --path");
	}
	/* twz_smooth sees the database's walls, not the closed cells. */
	for (size_t i = 0; closed && i < n; i++)
		if (items[i].kind == twz_overlay_find("smooth-path"))
			return usage_error("--smooth does not see --closed cells: "
					   "use one or the other");
	if (!out)
		return usage_error("render needs -o OUT.png or -o OUT.svg");
	int checked = twz_cli_check_output("-o", out);
	if (checked)
		return checked;
	if (ends_with(out, ".svg")) {
		opt.kind = TWZ_CANVAS_SVG;
	} else if (ends_with(out, ".png")) {
		opt.kind = TWZ_CANVAS_RASTER;
		if (!twz_png_available()) {
			fprintf(stderr, "twigz: %s: this twigz was built without "
				"libpng (meson option png), so it cannot write "
				"PNG; write an .svg instead\n", out);
			return EXIT_USAGE;
		}
	} else {
		fprintf(stderr, "twigz: %s: unknown picture type: the name must "
			"end in .png or .svg\n", out);
		return EXIT_USAGE;
	}

	struct twz_scene sc;
	struct twz_canvas canvas;
	struct twz_layout layout;
	uint8_t *png = NULL;
	size_t png_len = 0;
	int rc = 0;

	if (twz_scene_open(input, &sc, &err))
		return twz_cli_error(&err);
	if (closed) {
		/* Drawn first, under the paths that go round the cells. */
		if (n == MAX_ITEMS) {
			twz_scene_close(&sc);
			return usage_error("too many overlays (at most 32)");
		}
		if (twz_scene_set_closed(&sc, closed, &err)) {
			twz_scene_close(&sc);
			return twz_cli_error(&err);
		}
		memmove(items + 1, items, n * sizeof *items);
		memset(&items[0], 0, sizeof items[0]);
		items[0].kind = &twz_overlay_closed;
		n++;
	}
	if (twz_render_prepare(&sc, items, n, &err)) {
		rc = twz_cli_error(&err);
		goto out_scene;
	}
	if (twz_render_draw(&sc, items, n, &opt, &canvas, &layout, &err)) {
		rc = twz_cli_error(&err);
		goto out_items;
	}
	if (opt.kind == TWZ_CANVAS_SVG) {
		if (twz_render_write_file(out, canvas.svg, canvas.svg_len, &err))
			rc = twz_cli_error(&err);
	} else if (twz_png_encode(&canvas, &png, &png_len, out, &err) ||
		   twz_render_write_file(out, png, png_len, &err)) {
		rc = twz_cli_error(&err);
	}
	free(png);
	twz_canvas_free(&canvas);
out_items:
	twz_render_release(items, n);
out_scene:
	twz_scene_close(&sc);
	return rc;
}
