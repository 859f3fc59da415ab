/*
 * render_overlays.c - every kind of overlay `twigz render` draws, in one
 * table. An entry names its option, its arguments (cells, checked to be on
 * the map and walkable before prepare runs), whether it reads the
 * database, and its functions: prepare (read what will be drawn), one cell
 * colour (for overlays that colour cells), draw (per layer), legend.
 * Everything else (options, checks, layering, legend layout, SVG groups)
 * follows from the entry, so a new overlay is one more entry.
 *
 * The database is read through the public runtime API only, except the
 * run counts of its rows (twz_db_row_runs) and its TRANSIT block grid,
 * which the API does not expose: those come from twz_inspect.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "render_clearance.h"
#include "twz_format.h"
#include "twz_inspect.h"

#define SQRT2 1.41421356237309504880

/* ---- reading the database --------------------------------------------- */

uint32_t twz_db_row_runs(const twz_db *db, twz_node s)
{
	return twz_inspect_row_runs(db, s);
}

/* The move from node a to its neighbour b, or TWZ_MOVE_COUNT. */
static unsigned move_between(const twz_db *db, twz_node a, twz_node b)
{
	uint32_t ax, ay, bx, by;

	if (twz_node_xy(db, a, &ax, &ay) || twz_node_xy(db, b, &bx, &by))
		return TWZ_MOVE_COUNT;
	int64_t dx = (int64_t)bx - ax, dy = (int64_t)by - ay;
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		if (twz_move_dx[m] == dx && twz_move_dy[m] == dy)
			return m;
	return TWZ_MOVE_COUNT;
}

static int nomem(const struct twz_scene *sc, struct twz_error *err)
{
	twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", sc->name);
	return -1;
}

static void release_data(struct twz_overlay_item *it)
{
	free(it->data);
	it->data = NULL;
}

/* ---- path: one optimal path, start and goal --------------------------- */

struct path_data {
	size_t len;            /* nodes, 0 when unreachable */
	double cost;
	/* smooth-path: the path's any-angle waypoints (twz_smooth) */
	size_t way_len;
	double way_length;     /* their Euclidean length */
	twz_node *way;
	twz_node node[];
};

/* The path, and with smooth its waypoints after it in the same block. */
static int path_find(struct twz_scene *sc, struct twz_overlay_item *it,
		     int smooth, struct twz_error *err)
{
	twz_node s = twz_node_at(sc->db, it->arg[0], it->arg[1]);
	twz_node t = twz_node_at(sc->db, it->arg[2], it->arg[3]);
	size_t cap = (size_t)sc->info.node_count + 1, len = 0;
	struct path_data *p = malloc(sizeof *p + (smooth ? 2 : 1) * cap *
				     sizeof p->node[0]);
	uint32_t st = 0, dg = 0;

	if (!p)
		return nomem(sc, err);
	p->way = smooth ? p->node + cap : NULL;
	p->way_len = 0;
	p->way_length = 0;
	/* Around the closed cells, when there are any. */
	twz_status r = twz_scene_path(sc, s, t, p->node, cap, &len, &st, &dg);
	if (r == TWZ_E_UNREACHABLE) {
		len = 0;
	} else if (r != TWZ_OK) {
		free(p);
		if (r == TWZ_E_NOMEM)
			return nomem(sc, err);
		twz_error_set(err, "%s: --%s %s: %s", sc->name,
			      it->kind->name, it->text, twz_strerror(r));
		return -1;
	}
	p->len = len;
	p->cost = st + dg * SQRT2;
	if (smooth) {
		memcpy(p->way, p->node, len * sizeof *p->way);
		if (twz_smooth(sc->db, p->way, len, &p->way_len) != TWZ_OK) {
			free(p);
			twz_error_set(err, "%s: --%s %s: %s", sc->name,
				      it->kind->name, it->text,
				      twz_strerror(TWZ_E_DAMAGED));
			return -1;
		}
	}
	for (size_t i = 1; smooth && i < p->way_len; i++) {
		uint32_t x0, y0, x1, y1;
		twz_node_xy(sc->db, p->way[i - 1], &x0, &y0);
		twz_node_xy(sc->db, p->way[i], &x1, &y1);
		p->way_length += hypot((double)x1 - x0, (double)y1 - y0);
	}
	it->data = p;
	return 0;
}

static int path_prepare(struct twz_scene *sc, struct twz_overlay_item *it,
			struct twz_error *err)
{
	return path_find(sc, it, 0, err);
}

static int smooth_path_prepare(struct twz_scene *sc,
			       struct twz_overlay_item *it,
			       struct twz_error *err)
{
	return path_find(sc, it, 1, err);
}

/* Paths after the first run in lanes beside it (0, +1, -1, +2, ...
 * lanes), so where paths share cells every one of them shows. */
static double lane_offset(unsigned nth, double width)
{
	double lane = (nth + 1) / 2 * (nth % 2 ? 1.0 : -1.0);
	return lane * (width + 1.5);
}

/* Move a polyline sideways by off pixels (to the left of its direction,
 * y down), mitring the corners so the lane keeps its width. */
static void offset_lane(double *xy, size_t n, double off)
{
	double px = 0, py = 0;   /* the previous segment's normal */

	if (off == 0 || n < 2)
		return;
	for (size_t i = 0; i < n; i++) {
		double nx = px, ny = py;
		if (i + 1 < n) {
			double dx = xy[2 * i + 2] - xy[2 * i];
			double dy = xy[2 * i + 3] - xy[2 * i + 1];
			double len = hypot(dx, dy);
			nx = len > 0 ? dy / len : 0;
			ny = len > 0 ? -dx / len : 0;
		}
		if (i == 0) {
			px = nx;
			py = ny;
		}
		/* The mitre: along the mean normal, long enough that both
		 * neighbouring segments keep their distance. */
		double mx = px + nx, my = py + ny;
		double ml = hypot(mx, my);
		double k = 0;
		if (ml > 1e-9) {
			mx /= ml;
			my /= ml;
			double cosh = mx * nx + my * ny;
			k = cosh > 0.3 ? off / cosh : off / 0.3;
		}
		xy[2 * i] += mx * k;
		xy[2 * i + 1] += my * k;
		px = nx;
		py = ny;
	}
}

static void path_draw(const struct twz_render *r,
		      const struct twz_overlay_item *it, enum twz_layer layer)
{
	const struct path_data *p = it->data;
	const struct twz_layout *l = r->layout;
	struct twz_rgb colour = twz_palette_category(it->nth);
	double sx, sy, gx, gy;

	if (layer == TWZ_LAYER_LINES && p->len > 1) {
		double *xy = malloc(p->len * 2 * sizeof *xy);
		if (!xy) {
			r->canvas->failed = 1;
			return;
		}
		for (size_t i = 0; i < p->len; i++) {
			uint32_t x, y;
			twz_node_xy(r->scene->db, p->node[i], &x, &y);
			twz_cell_centre(l, x, y, &xy[2 * i], &xy[2 * i + 1]);
		}
		double w = twz_line_width(l->scale);
		offset_lane(xy, p->len, lane_offset(it->nth, w));
		twz_draw_haloed_line(r->canvas, xy, p->len, w, colour);
		free(xy);
	}
	if (layer == TWZ_LAYER_MARKS) {
		double rad = twz_mark_radius(l->scale);
		twz_cell_centre(l, it->arg[0], it->arg[1], &sx, &sy);
		twz_cell_centre(l, it->arg[2], it->arg[3], &gx, &gy);
		twz_draw_start(r->canvas, sx, sy, rad, colour);
		twz_draw_goal(r->canvas, gx, gy, rad, colour);
	}
}

static void path_legend(const struct twz_render *r,
			const struct twz_overlay_item *it, struct twz_legend *lg)
{
	const struct path_data *p = it->data;
	struct twz_legend_entry *e;

	(void)r;
	if (p->len)
		e = twz_legend_add(lg, TWZ_LEGEND_PATH, "(%u,%u) -> (%u,%u): %.2f",
				   it->arg[0], it->arg[1], it->arg[2], it->arg[3],
				   p->cost);
	else
		e = twz_legend_add(lg, TWZ_LEGEND_PATH, "(%u,%u) -> (%u,%u): no path",
				   it->arg[0], it->arg[1], it->arg[2], it->arg[3]);
	e->colour = twz_palette_category(it->nth);
}

/* ---- smooth-path: a path and its any-angle waypoints -------------------- */

/* Cell centres of n nodes, moved into the item's lane; NULL when out of
 * memory (the canvas is marked failed). */
static double *lane_points(const struct twz_render *r,
			   const struct twz_overlay_item *it,
			   const twz_node *node, size_t n)
{
	const struct twz_layout *l = r->layout;
	double *xy = malloc(n * 2 * sizeof *xy);

	if (!xy) {
		r->canvas->failed = 1;
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t x, y;
		twz_node_xy(r->scene->db, node[i], &x, &y);
		twz_cell_centre(l, x, y, &xy[2 * i], &xy[2 * i + 1]);
	}
	offset_lane(xy, n, lane_offset(it->nth, twz_line_width(l->scale)));
	return xy;
}

/* The grid path faint, the waypoint polyline over it, a dot at each
 * waypoint between start and goal. */
static void smooth_path_draw(const struct twz_render *r,
			     const struct twz_overlay_item *it,
			     enum twz_layer layer)
{
	const struct path_data *p = it->data;
	struct twz_rgb colour = twz_palette_category(it->nth);
	double w = twz_line_width(r->layout->scale);
	double *xy;

	if (layer == TWZ_LAYER_LINES && p->len > 1 &&
	    (xy = lane_points(r, it, p->node, p->len)) != NULL) {
		r->canvas->ops->line(r->canvas, xy, p->len, w, colour, 0.35);
		free(xy);
	}
	if (layer == TWZ_LAYER_LINES && p->way_len > 1 &&
	    (xy = lane_points(r, it, p->way, p->way_len)) != NULL) {
		twz_draw_haloed_line(r->canvas, xy, p->way_len, w, colour);
		free(xy);
	}
	if (layer == TWZ_LAYER_MARKS && p->way_len > 2 &&
	    (xy = lane_points(r, it, p->way, p->way_len)) != NULL) {
		double rad = twz_mark_radius(r->layout->scale) * 0.5;
		for (size_t i = 1; i + 1 < p->way_len; i++) {
			r->canvas->ops->circle(r->canvas, xy[2 * i], xy[2 * i + 1],
					       rad + 1, TWZ_COLOUR_HALO, 1);
			r->canvas->ops->circle(r->canvas, xy[2 * i], xy[2 * i + 1],
					       rad, colour, 1);
		}
		free(xy);
	}
	if (layer == TWZ_LAYER_MARKS)
		path_draw(r, it, layer);
}

static void smooth_path_legend(const struct twz_render *r,
			       const struct twz_overlay_item *it,
			       struct twz_legend *lg)
{
	const struct path_data *p = it->data;

	path_legend(r, it, lg);
	if (p->len)
		twz_legend_add(lg, TWZ_LEGEND_TEXT, "  any-angle %.2f, %zu waypoints",
			       p->way_length, p->way_len);
}

/* ---- flow and flow-colour: every cell's first move toward a target ----- */

struct flow_data {
	twz_node target;
	int any_unreachable;
	twz_node next[];       /* [node_count] */
};

static int flow_prepare(struct twz_scene *sc, struct twz_overlay_item *it,
			struct twz_error *err)
{
	uint32_t n = sc->info.node_count;
	struct flow_data *f = malloc(sizeof *f + (size_t)n * sizeof f->next[0]);

	if (!f)
		return nomem(sc, err);
	f->target = twz_node_at(sc->db, it->arg[0], it->arg[1]);
	twz_status st = twz_scene_flow(sc, f->target, f->next, n);
	if (st != TWZ_OK) {
		free(f);
		if (st == TWZ_E_NOMEM)
			return nomem(sc, err);
		twz_error_set(err, "%s: --%s %s: %s", sc->name, it->kind->name,
			      it->text, twz_strerror(st));
		return -1;
	}
	f->any_unreachable = 0;
	for (uint32_t i = 0; i < n; i++)
		if (f->next[i] == TWZ_NONE)
			f->any_unreachable = 1;
	it->data = f;
	return 0;
}

/* Arrows need about 12 pixels; on smaller cells one arrow stands for a
 * block of step x step cells. */
static unsigned arrow_step(unsigned scale)
{
	return scale >= 12 ? 1 : (12 + scale - 1) / scale;
}

static void target_mark(const struct twz_render *r,
			const struct twz_overlay_item *it)
{
	double x, y;

	twz_cell_centre(r->layout, it->arg[0], it->arg[1], &x, &y);
	twz_draw_target(r->canvas, x, y, twz_mark_radius(r->layout->scale));
}

static void flow_draw(const struct twz_render *r,
		      const struct twz_overlay_item *it, enum twz_layer layer)
{
	const struct flow_data *f = it->data;
	const struct twz_layout *l = r->layout;
	const struct twz_scene *sc = r->scene;
	unsigned step = arrow_step(l->scale);

	if (layer == TWZ_LAYER_MARKS)
		target_mark(r, it);
	if (layer != TWZ_LAYER_ARROWS)
		return;
	for (uint32_t y = step / 2; y < sc->height; y += step)
		for (uint32_t x = step / 2; x < sc->width; x += step) {
			twz_node n = twz_node_at(sc->db, x, y);
			if (n == TWZ_NONE || n == f->target ||
			    f->next[n] == TWZ_NONE)
				continue;
			unsigned m = move_between(sc->db, n, f->next[n]);
			if (m >= TWZ_MOVE_COUNT)
				continue;
			double cx, cy;
			twz_cell_centre(l, x, y, &cx, &cy);
			twz_draw_arrow(r->canvas, cx, cy,
				       l->scale * step * 0.78, m,
				       twz_contrast_ink(twz_render_cell_colour(r, x, y)));
		}
}

static void flow_legend(const struct twz_render *r,
			const struct twz_overlay_item *it, struct twz_legend *lg)
{
	unsigned step = arrow_step(r->layout->scale);
	struct twz_legend_entry *e;

	e = twz_legend_add(lg, TWZ_LEGEND_ARROW, "first move to (%u,%u)",
			   it->arg[0], it->arg[1]);
	e->colour = TWZ_COLOUR_FLOOR;
	e->move = 1;
	if (step > 1)
		twz_legend_add(lg, TWZ_LEGEND_TEXT, "(one arrow per %u x %u cells)",
			       step, step);
	twz_legend_add(lg, TWZ_LEGEND_TARGET, "target (%u,%u)", it->arg[0],
		       it->arg[1]);
}

static int flow_colour_cell(const struct twz_scene *sc,
			    const struct twz_overlay_item *it, uint32_t x,
			    uint32_t y, struct twz_rgb *out)
{
	const struct flow_data *f = it->data;
	twz_node n = twz_node_at(sc->db, x, y);

	if (n == TWZ_NONE || n == f->target)
		return 0;
	if (f->next[n] == TWZ_NONE) {
		*out = TWZ_COLOUR_UNREACHED;
		return 1;
	}
	unsigned m = move_between(sc->db, n, f->next[n]);
	if (m >= TWZ_MOVE_COUNT)
		return 0;
	*out = twz_palette_move(m);
	return 1;
}

static void flow_colour_draw(const struct twz_render *r,
			     const struct twz_overlay_item *it,
			     enum twz_layer layer)
{
	if (layer == TWZ_LAYER_MARKS)
		target_mark(r, it);
}

static void flow_colour_legend(const struct twz_render *r,
			       const struct twz_overlay_item *it,
			       struct twz_legend *lg)
{
	static const char *const names[8] = {
		"north", "east", "south", "west",
		"north-east", "south-east", "south-west", "north-west",
	};
	/* Around the compass, as the colours go. */
	static const unsigned order[8] = { 0, 4, 1, 5, 2, 6, 3, 7 };
	const struct flow_data *f = it->data;

	twz_legend_add(lg, TWZ_LEGEND_TEXT, "first move to (%u,%u):",
		       it->arg[0], it->arg[1]);
	for (unsigned i = 0; i < 8; i++) {
		unsigned m = order[i];
		if (r->scene->info.connectivity == 4 && twz_move_is_diagonal(m))
			continue;
		struct twz_legend_entry *e =
			twz_legend_add(lg, TWZ_LEGEND_ARROW, "%s", names[m]);
		e->colour = twz_palette_move(m);
		e->move = m;
	}
	if (f->any_unreachable)
		twz_legend_add(lg, TWZ_LEGEND_SWATCH, "no path")->colour =
			TWZ_COLOUR_UNREACHED;
	twz_legend_add(lg, TWZ_LEGEND_TARGET, "target (%u,%u)", it->arg[0],
		       it->arg[1]);
}

/* ---- distance: the cost of every cell's optimal path to a target ------- */

struct distance_data {
	twz_node target;
	double max;
	int any_unreachable;
	double cost[];         /* [node_count]; INFINITY: no path */
};

/*
 * Costs from the flow field in O(n): a cell's cost is its first move's
 * plus its successor's. Each chain of unknown costs is followed to a known
 * one, then filled in backwards; a chain longer than the node count means
 * the database loops (damaged).
 */
static int distance_prepare(struct twz_scene *sc, struct twz_overlay_item *it,
			    struct twz_error *err)
{
	uint32_t n = sc->info.node_count;
	struct distance_data *d = malloc(sizeof *d + (size_t)n * sizeof(double));
	twz_node *next = malloc(((size_t)n + 1) * sizeof *next);
	twz_node *chain = malloc(((size_t)n + 1) * sizeof *chain);
	int ret = -1;

	if (!d || !next || !chain) {
		ret = nomem(sc, err);
		goto out;
	}
	d->target = twz_node_at(sc->db, it->arg[0], it->arg[1]);
	if (twz_scene_flow(sc, d->target, next, n) != TWZ_OK)
		goto damaged;
	for (uint32_t i = 0; i < n; i++)
		d->cost[i] = NAN;
	d->cost[d->target] = 0;
	for (uint32_t i = 0; i < n; i++) {
		size_t len = 0;
		twz_node at = i;
		while (isnan(d->cost[at]) && next[at] != TWZ_NONE) {
			if (len > n)
				goto damaged;
			chain[len++] = at;
			at = next[at];
		}
		double c = isnan(d->cost[at]) ? INFINITY : d->cost[at];
		if (isnan(d->cost[at]))
			d->cost[at] = INFINITY;
		while (len--) {
			twz_node a = chain[len];
			unsigned m = move_between(sc->db, a, next[a]);
			if (m >= TWZ_MOVE_COUNT)
				goto damaged;
			c += twz_move_is_diagonal(m) ? SQRT2 : 1;
			d->cost[a] = c;
		}
	}
	d->max = 0;
	d->any_unreachable = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (isinf(d->cost[i]))
			d->any_unreachable = 1;
		else if (d->cost[i] > d->max)
			d->max = d->cost[i];
	}
	it->data = d;
	d = NULL;
	ret = 0;
	goto out;

damaged:
	twz_error_set(err, "%s: --distance %s: %s", sc->name, it->text,
		      twz_strerror(TWZ_E_DAMAGED));
out:
	free(d);
	free(next);
	free(chain);
	return ret;
}

static int distance_cell(const struct twz_scene *sc,
			 const struct twz_overlay_item *it, uint32_t x,
			 uint32_t y, struct twz_rgb *out)
{
	const struct distance_data *d = it->data;
	twz_node n = twz_node_at(sc->db, x, y);

	if (n == TWZ_NONE)
		return 0;
	if (isinf(d->cost[n])) {
		*out = TWZ_COLOUR_UNREACHED;
		return 1;
	}
	/* Near the target is bright. */
	*out = twz_palette_viridis(d->max > 0 ? 1 - d->cost[n] / d->max : 1);
	return 1;
}

static void distance_draw(const struct twz_render *r,
			  const struct twz_overlay_item *it, enum twz_layer layer)
{
	if (layer == TWZ_LAYER_MARKS)
		target_mark(r, it);
}

static struct twz_rgb viridis_reversed(double t)
{
	return twz_palette_viridis(1 - t);
}

static void distance_legend(const struct twz_render *r,
			    const struct twz_overlay_item *it,
			    struct twz_legend *lg)
{
	const struct distance_data *d = it->data;
	struct twz_legend_entry *e;

	(void)r;
	e = twz_legend_add(lg, TWZ_LEGEND_GRADIENT, "cost to (%u,%u)",
			   it->arg[0], it->arg[1]);
	e->palette = viridis_reversed;
	snprintf(e->lo, sizeof e->lo, "0");
	snprintf(e->hi, sizeof e->hi, "%.1f", d->max);
	if (d->any_unreachable)
		twz_legend_add(lg, TWZ_LEGEND_SWATCH, "no path")->colour =
			TWZ_COLOUR_UNREACHED;
	twz_legend_add(lg, TWZ_LEGEND_TARGET, "target (%u,%u)", it->arg[0],
		       it->arg[1]);
}

/* ---- runs: where the database spends its bytes -------------------------- */

struct runs_data {
	uint32_t min;
	uint32_t max;
	uint64_t total;
	uint32_t count[];      /* [node_count]: runs of the node's row */
};

static int runs_prepare(struct twz_scene *sc, struct twz_overlay_item *it,
			struct twz_error *err)
{
	uint32_t n = sc->info.node_count;
	struct runs_data *d = malloc(sizeof *d + (size_t)n * sizeof d->count[0]);

	(void)it;
	if (!d)
		return nomem(sc, err);
	d->min = UINT32_MAX;
	d->max = 0;
	d->total = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t c = twz_db_row_runs(sc->db, i);
		d->count[i] = c;
		d->total += c;
		if (c < d->min)
			d->min = c;
		if (c > d->max)
			d->max = c;
	}
	if (!d->total) {
		free(d);
		twz_error_set(err, "%s: --runs: the database holds no first-move "
			      "rows", sc->name);
		return -1;
	}
	it->data = d;
	return 0;
}

static double runs_t(const struct runs_data *d, uint32_t c)
{
	if (d->max <= d->min)
		return 0.5;
	return (double)(c - d->min) / (d->max - d->min);
}

static int runs_cell(const struct twz_scene *sc,
		     const struct twz_overlay_item *it, uint32_t x, uint32_t y,
		     struct twz_rgb *out)
{
	const struct runs_data *d = it->data;
	twz_node n = twz_node_at(sc->db, x, y);

	if (n == TWZ_NONE)
		return 0;
	*out = twz_palette_cividis(runs_t(d, d->count[n]));
	return 1;
}

static void runs_legend(const struct twz_render *r,
			const struct twz_overlay_item *it, struct twz_legend *lg)
{
	const struct runs_data *d = it->data;
	struct twz_legend_entry *e;
	uint32_t n = r->scene->info.node_count;

	e = twz_legend_add(lg, TWZ_LEGEND_GRADIENT, "runs in the cell's row");
	e->palette = twz_palette_cividis;
	snprintf(e->lo, sizeof e->lo, "%u", d->min);
	snprintf(e->hi, sizeof e->hi, "%u", d->max);
	twz_legend_add(lg, TWZ_LEGEND_TEXT, "%llu runs, %.1f per row",
		       (unsigned long long)d->total, n ? (double)d->total / n : 0);
	twz_legend_add(lg, TWZ_LEGEND_TEXT, "database: %.1f KiB in memory",
		       r->scene->info.memory_size / 1024.0);
}

/* ---- transit: TRANSIT cells and their transit nodes --------------------- */

/* What the overlay draws: the block grid and every transit node's cell. */
struct transit_data {
	struct twz_transit_params g;  /* the grid; g.nodes is not kept */
	uint32_t cell[];              /* [g.transit_count]: y << 16 | x */
};

static int transit_prepare(struct twz_scene *sc, struct twz_overlay_item *it,
			   struct twz_error *err)
{
	const twz_db *db = sc->db;

	if (sc->info.method != TWZ_METHOD_TRANSIT) {
		twz_error_set(err, "%s: --transit: the database holds no transit "
			      "nodes (it is a CPD database; bake with --method "
			      "transit)", sc->name);
		return -1;
	}
	struct twz_transit_params tp;
	twz_inspect_transit(db, &tp);
	struct transit_data *d = malloc(sizeof *d +
					(size_t)tp.transit_count * sizeof d->cell[0]);
	if (!d)
		return nomem(sc, err);
	d->g = tp;
	d->g.nodes = NULL;
	for (uint32_t i = 0; i < tp.transit_count; i++) {
		uint32_t x = 0, y = 0;
		twz_node_xy(db, twz_le32(tp.nodes + (size_t)tp.node_stride * i), &x, &y);
		d->cell[i] = y << 16 | x;
	}
	it->data = d;
	return 0;
}

static void transit_draw(const struct twz_render *r,
			 const struct twz_overlay_item *it, enum twz_layer layer)
{
	const struct transit_data *d = it->data;
	const struct twz_layout *l = r->layout;
	struct twz_canvas *c = r->canvas;
	struct twz_rgb colour = twz_palette_category(5);

	if (layer == TWZ_LAYER_GRID) {
		/* Block boundaries, clipped to the map. */
		double w = l->scale >= 4 ? 2 : 1;
		double x0 = l->map_x, y0 = l->map_y;
		double x1 = x0 + l->map_w, y1 = y0 + l->map_h;
		for (uint32_t k = 0; k <= d->g.cols; k++) {
			double px = x0 + ((double)d->g.origin_x + (double)k * d->g.side) * l->scale;
			if (px < x0 || px > x1)
				continue;
			double xy[4] = { px, y0, px, y1 };
			c->ops->line(c, xy, 2, w, colour, 0.8);
		}
		for (uint32_t k = 0; k <= d->g.rows; k++) {
			double py = y0 + ((double)d->g.origin_y + (double)k * d->g.side) * l->scale;
			if (py < y0 || py > y1)
				continue;
			double xy[4] = { x0, py, x1, py };
			c->ops->line(c, xy, 2, w, colour, 0.8);
		}
	}
	if (layer == TWZ_LAYER_MARKS) {
		double rad = twz_mark_radius(l->scale) * 0.7;
		for (uint32_t i = 0; i < d->g.transit_count; i++) {
			double px, py;
			twz_cell_centre(l, d->cell[i] & 0xFFFF, d->cell[i] >> 16, &px, &py);
			twz_draw_goal(c, px, py, rad, colour);
		}
	}
}

static void transit_legend(const struct twz_render *r,
			   const struct twz_overlay_item *it,
			   struct twz_legend *lg)
{
	const struct transit_data *d = it->data;

	(void)r;
	twz_legend_add(lg, TWZ_LEGEND_BOUNDARY, "TRANSIT cells, %u x %u of %u",
		       d->g.cols, d->g.rows, d->g.side)->colour = twz_palette_category(5);
	twz_legend_add(lg, TWZ_LEGEND_NODE, "%u transit nodes",
		       d->g.transit_count)->colour = twz_palette_category(5);
}

/* ---- the table ----------------------------------------------------------- */

const struct twz_overlay twz_overlays[] = {
	{
		.name = "path",
		.arg_help = "SX,SY,GX,GY",
		.help = "an optimal path (repeat for more)",
		.nargs = 4,
		.point_names = { "start", "goal" },
		.flags = TWZ_OVERLAY_NEEDS_DB | TWZ_OVERLAY_REPEATS,
		.prepare = path_prepare,
		.draw = path_draw,
		.legend = path_legend,
		.release = release_data,
	},
	{
		.name = "smooth-path",
		.arg_help = "SX,SY,GX,GY",
		.help = "an optimal path and its any-angle waypoints",
		.nargs = 4,
		.point_names = { "start", "goal" },
		.flags = TWZ_OVERLAY_NEEDS_DB | TWZ_OVERLAY_REPEATS,
		.prepare = smooth_path_prepare,
		.draw = smooth_path_draw,
		.legend = smooth_path_legend,
		.release = release_data,
	},
	{
		.name = "flow",
		.arg_help = "GX,GY",
		.help = "every cell's first move toward a target, as arrows",
		.nargs = 2,
		.point_names = { "target" },
		.flags = TWZ_OVERLAY_NEEDS_DB,
		.prepare = flow_prepare,
		.draw = flow_draw,
		.legend = flow_legend,
		.release = release_data,
	},
	{
		.name = "flow-colour",
		.arg_help = "GX,GY",
		.help = "every cell's first move toward a target, as a colour",
		.nargs = 2,
		.point_names = { "target" },
		.flags = TWZ_OVERLAY_NEEDS_DB | TWZ_OVERLAY_FILLS_CELLS,
		.prepare = flow_prepare,
		.cell_colour = flow_colour_cell,
		.draw = flow_colour_draw,
		.legend = flow_colour_legend,
		.release = release_data,
	},
	{
		.name = "distance",
		.arg_help = "GX,GY",
		.help = "the cost of every cell's path to a target, as a heat map",
		.nargs = 2,
		.point_names = { "target" },
		.flags = TWZ_OVERLAY_NEEDS_DB | TWZ_OVERLAY_FILLS_CELLS,
		.prepare = distance_prepare,
		.cell_colour = distance_cell,
		.draw = distance_draw,
		.legend = distance_legend,
		.release = release_data,
	},
	{
		.name = "runs",
		.arg_help = NULL,
		.help = "each source's run count: where the database spends bytes",
		.nargs = 0,
		.flags = TWZ_OVERLAY_NEEDS_DB | TWZ_OVERLAY_FILLS_CELLS,
		.prepare = runs_prepare,
		.cell_colour = runs_cell,
		.legend = runs_legend,
		.release = release_data,
	},
	{
		.name = "transit",
		.arg_help = NULL,
		.help = "TRANSIT cells and transit nodes (TRANSIT databases)",
		.nargs = 0,
		.flags = TWZ_OVERLAY_NEEDS_DB,
		.prepare = transit_prepare,
		.draw = transit_draw,
		.legend = transit_legend,
		.release = release_data,
	},
	{
		.name = "clearance",
		.arg_help = NULL,
		.help = "each cell's clearance: the largest agent standing there",
		.nargs = 0,
		.flags = TWZ_OVERLAY_FILLS_CELLS,
		.prepare = twz_clearance_prepare,
		.cell_colour = twz_clearance_cell,
		.legend = twz_clearance_legend,
		.release = twz_clearance_release,
	},
};

const size_t twz_overlay_count = sizeof twz_overlays / sizeof twz_overlays[0];

const struct twz_overlay *twz_overlay_find(const char *name)
{
	for (size_t i = 0; i < twz_overlay_count; i++)
		if (!strcmp(twz_overlays[i].name, name))
			return &twz_overlays[i];
	return NULL;
}

int twz_overlay_parse(struct twz_overlay_item *it,
		      const struct twz_overlay *kind, const char *text,
		      struct twz_error *err)
{
	const char *p = text ? text : "";
	unsigned got = 0;

	memset(it, 0, sizeof *it);
	it->kind = kind;
	snprintf(it->text, sizeof it->text, "%s", p);
	if (!kind->nargs) {
		if (text && *text) {
			twz_error_set(err, "--%s takes no argument, not '%s'",
				      kind->name, text);
			return -1;
		}
		return 0;
	}
	while (got < kind->nargs) {
		uint64_t v = 0;
		const char *start = p;
		while (*p >= '0' && *p <= '9' && v <= UINT32_MAX)
			v = v * 10 + (uint64_t)(*p++ - '0');
		if (p == start || v > UINT32_MAX - 1)
			break;
		it->arg[got++] = (uint32_t)v;
		if (got < kind->nargs) {
			if (*p != ',')
				break;
			p++;
		}
	}
	if (got < kind->nargs || *p) {
		twz_error_set(err, "--%s needs %s (%u whole numbers separated by "
			      "commas), not '%s'", kind->name, kind->arg_help,
			      kind->nargs, text ? text : "");
		return -1;
	}
	return 0;
}
