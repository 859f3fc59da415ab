/*
 * render_trace.c - the `--baseline ALGO,SX,SY,GX,GY` overlay (see
 * render_trace.h): runs one search of baseline.h with its trace on, and
 * colours every cell it expanded, generated (queued, never expanded) or
 * only scanned (JPS's jumps, Evasion's line-of-sight checks); then draws
 * the search's path, Evasion's waypoints, and the database's optimal path
 * on top. The legend gives the counts and both costs.
 */
#include "render_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"

#define SQRT2 1.41421356237309504880

/* Light fills, so both paths read on top of them. */
#define COLOUR_EXPANDED  TWZ_RGB(0xF6B26B)
#define COLOUR_GENERATED TWZ_RGB(0xFBE3C4)
#define COLOUR_SCANNED   TWZ_RGB(0xA9CCE8)
#define COLOUR_SEARCH    TWZ_RGB(0x0072B2)   /* the search's path */
#define COLOUR_DATABASE  TWZ_RGB(0x1A1A1A)   /* the database's path */

struct trace_data {
	enum twz_baseline_kind kind;
	int found;
	double cost;
	double db_cost;
	uint64_t counts[4];      /* cells by TWZ_TRACE_* mark */
	uint64_t expanded;       /* the search's counters */
	uint64_t generated;
	uint64_t scanned;
	size_t len;              /* nodes of path */
	size_t db_len;           /* nodes of db_path, 0: unreachable */
	size_t waypoints;        /* Evasion: nodes of wp */
	uint8_t *trace;          /* [node_count] */
	twz_node *path;          /* [node_count + 1] */
	twz_node *db_path;
	twz_node *wp;
};

/* The search's name: the text before the first comma. */
static int kind_of(const char *text)
{
	char name[32];
	const char *comma = strchr(text, ',');
	size_t len = comma ? (size_t)(comma - text) : strlen(text);

	if (len >= sizeof name)
		return -1;
	memcpy(name, text, len);
	name[len] = 0;
	return twz_baseline_find(name);
}

int twz_trace_overlay_parse(struct twz_overlay_item *it,
			    const struct twz_overlay *kind, const char *text,
			    struct twz_error *err)
{
	const char *comma = text ? strchr(text, ',') : NULL;

	if (!text || kind_of(text) < 0) {
		char names[160];
		size_t n = 0;
		for (int k = 0; k < TWZ_BASELINE_COUNT && n < sizeof names; k++)
			n += (size_t)snprintf(names + n, sizeof names - n, "%s%s",
					      k ? ", " : "", twz_baseline_name(k));
		twz_error_set(err, "--%s needs %s with ALGO one of %s, not '%s'",
			      kind->name, kind->arg_help, names, text ? text : "");
		return -1;
	}
	if (!comma || twz_overlay_parse(it, kind, comma + 1, err)) {
		twz_error_set(err, "--%s needs %s (a search, then 4 whole "
			      "numbers, separated by commas), not '%s'",
			      kind->name, kind->arg_help, text);
		return -1;
	}
	snprintf(it->text, sizeof it->text, "%s", text);
	return 0;
}

static void trace_release(struct twz_overlay_item *it)
{
	struct trace_data *d = it->data;

	if (d) {
		free(d->trace);
		free(d->path);
		free(d->db_path);
		free(d->wp);
		free(d);
	}
	it->data = NULL;
}

static int trace_prepare(struct twz_scene *sc, struct twz_overlay_item *it,
			 struct twz_error *err)
{
	uint32_t n = sc->info.node_count;
	struct trace_data *d = calloc(1, sizeof *d);
	struct twz_baseline b;
	struct twz_baseline_result r;

	if (!d)
		goto nomem;
	it->data = d;
	d->kind = (enum twz_baseline_kind)kind_of(it->text);
	if (!twz_baseline_supported(d->kind, sc->info.connectivity)) {
		twz_error_set(err, "%s: --%s %s: %s runs on 8-connected grids "
			      "only", sc->name, it->kind->name, it->text,
			      twz_baseline_title(d->kind));
		goto fail;
	}
	d->trace = calloc(n ? n : 1, 1);
	d->path = malloc(((size_t)n + 1) * sizeof *d->path);
	d->db_path = malloc(((size_t)n + 1) * sizeof *d->db_path);
	d->wp = malloc(((size_t)n + 1) * sizeof *d->wp);
	if (!d->trace || !d->path || !d->db_path || !d->wp)
		goto nomem;
	if (twz_baseline_init(&b, sc->db) != 0)
		goto nomem;
	twz_node s = twz_node_at(sc->db, it->arg[0], it->arg[1]);
	twz_node t = twz_node_at(sc->db, it->arg[2], it->arg[3]);
	b.trace = d->trace;
	d->found = twz_baseline_search(&b, d->kind, s, t, d->path,
				       (size_t)n + 1, &r) == 0;
	d->expanded = b.expanded;
	d->generated = b.generated;
	d->scanned = b.scanned;
	if (d->found) {
		d->len = r.length;
		d->cost = r.straight + r.diagonal * SQRT2;
	}
	if (d->kind == TWZ_BASELINE_EVASION && d->found) {
		d->waypoints = b.waypoint_count;
		memcpy(d->wp, b.waypoint, b.waypoint_count * sizeof *d->wp);
	}
	twz_baseline_free(&b);
	for (uint32_t v = 0; v < n; v++)
		d->counts[d->trace[v]]++;

	size_t len = 0;
	uint32_t st = 0, dg = 0;
	twz_status rc = twz_path(sc->db, s, t, d->db_path, (size_t)n + 1, &len);
	if (rc == TWZ_OK && twz_cost_exact(sc->db, s, t, &st, &dg) == TWZ_OK) {
		d->db_len = len;
		d->db_cost = st + dg * SQRT2;
	} else if (rc != TWZ_E_UNREACHABLE) {
		twz_error_set(err, "%s: --%s %s: %s", sc->name, it->kind->name,
			      it->text, twz_strerror(rc));
		goto fail;
	}
	return 0;

nomem:
	twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", sc->name);
fail:
	trace_release(it);
	return -1;
}

static int trace_cell(const struct twz_scene *sc,
		      const struct twz_overlay_item *it, uint32_t x, uint32_t y,
		      struct twz_rgb *out)
{
	const struct trace_data *d = it->data;
	twz_node v = twz_node_at(sc->db, x, y);

	if (v == TWZ_NONE)
		return 0;
	switch (d->trace[v]) {
	case TWZ_TRACE_EXPANDED:
		*out = COLOUR_EXPANDED;
		return 1;
	case TWZ_TRACE_GENERATED:
		*out = COLOUR_GENERATED;
		return 1;
	case TWZ_TRACE_SCANNED:
		*out = COLOUR_SCANNED;
		return 1;
	default:
		return 0;
	}
}

/* A path of nodes as a haloed line. */
static void draw_nodes(const struct twz_render *r, const twz_node *p,
		       size_t n, double width, struct twz_rgb colour)
{
	double *xy;

	if (n < 2)
		return;
	xy = malloc(n * 2 * sizeof *xy);
	if (!xy) {
		r->canvas->failed = 1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t x = 0, y = 0;
		twz_node_xy(r->scene->db, p[i], &x, &y);
		twz_cell_centre(r->layout, x, y, &xy[2 * i], &xy[2 * i + 1]);
	}
	twz_draw_haloed_line(r->canvas, xy, n, width, colour);
	free(xy);
}

static void trace_draw(const struct twz_render *r,
		       const struct twz_overlay_item *it, enum twz_layer layer)
{
	const struct trace_data *d = it->data;
	const struct twz_layout *l = r->layout;
	double w = twz_line_width(l->scale);

	if (layer == TWZ_LAYER_LINES) {
		/* The search's path under, the database's thinner on top. */
		if (d->found)
			draw_nodes(r, d->path, d->len, w, COLOUR_SEARCH);
		draw_nodes(r, d->db_path, d->db_len, w * 0.5, COLOUR_DATABASE);
	}
	if (layer == TWZ_LAYER_MARKS) {
		double rad = twz_mark_radius(l->scale), x, y;
		for (size_t i = 1; i + 1 < d->waypoints; i++) {
			uint32_t cx = 0, cy = 0;
			twz_node_xy(r->scene->db, d->wp[i], &cx, &cy);
			twz_cell_centre(l, cx, cy, &x, &y);
			twz_draw_goal(r->canvas, x, y, rad * 0.6, COLOUR_SEARCH);
		}
		twz_cell_centre(l, it->arg[0], it->arg[1], &x, &y);
		twz_draw_start(r->canvas, x, y, rad, COLOUR_DATABASE);
		twz_cell_centre(l, it->arg[2], it->arg[3], &x, &y);
		twz_draw_goal(r->canvas, x, y, rad, COLOUR_DATABASE);
	}
}

static void trace_legend(const struct twz_render *r,
			 const struct twz_overlay_item *it,
			 struct twz_legend *lg)
{
	const struct trace_data *d = it->data;
	const char *name = twz_baseline_title(d->kind);

	(void)r;
	twz_legend_add(lg, TWZ_LEGEND_TEXT, "%s, (%u,%u) -> (%u,%u)", name,
		       it->arg[0], it->arg[1], it->arg[2], it->arg[3]);
	if (d->counts[TWZ_TRACE_EXPANDED])
		twz_legend_add(lg, TWZ_LEGEND_SWATCH, "%llu cells expanded",
			       (unsigned long long)d->counts[TWZ_TRACE_EXPANDED])
			->colour = COLOUR_EXPANDED;
	if (d->counts[TWZ_TRACE_GENERATED])
		twz_legend_add(lg, TWZ_LEGEND_SWATCH, "%llu more generated",
			       (unsigned long long)d->counts[TWZ_TRACE_GENERATED])
			->colour = COLOUR_GENERATED;
	if (d->counts[TWZ_TRACE_SCANNED])
		twz_legend_add(lg, TWZ_LEGEND_SWATCH, "%llu more scanned",
			       (unsigned long long)d->counts[TWZ_TRACE_SCANNED])
			->colour = COLOUR_SCANNED;
	if (d->found)
		twz_legend_add(lg, TWZ_LEGEND_PATH, "%.24s path: %.2f", name,
			       d->cost)->colour = COLOUR_SEARCH;
	else
		twz_legend_add(lg, TWZ_LEGEND_PATH, "%.24s: no path", name)
			->colour = COLOUR_SEARCH;
	if (d->waypoints > 2)
		twz_legend_add(lg, TWZ_LEGEND_TEXT, "(%zu waypoints)",
			       d->waypoints);
	if (d->db_len)
		twz_legend_add(lg, TWZ_LEGEND_PATH, "database path: %.2f",
			       d->db_cost)->colour = COLOUR_DATABASE;
	else
		twz_legend_add(lg, TWZ_LEGEND_PATH, "database: no path")
			->colour = COLOUR_DATABASE;
	twz_legend_add(lg, TWZ_LEGEND_TEXT, "(database: no search at all)");
}

const struct twz_overlay twz_trace_overlay = {
	.name = "baseline",
	.arg_help = "ALGO,SX,SY,GX,GY",
	.help = "the cells an online search touches, under the database's path",
	.nargs = 4,
	.point_names = { "start", "goal" },
	.flags = TWZ_OVERLAY_NEEDS_DB | TWZ_OVERLAY_FILLS_CELLS,
	.prepare = trace_prepare,
	.cell_colour = trace_cell,
	.draw = trace_draw,
	.legend = trace_legend,
	.release = trace_release,
};
