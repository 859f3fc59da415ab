/*
 * twz_world.c - the places a game shuts at run time (doors, rubble,
 * drawbridges), given once in the level's own terms and seen by every
 * database of the file: twz_world and the filters that read it.
 *
 * A grid's shut places are cells. Each agent size sees a cell through
 * its own nodes: a size-k agent on node (x, y) covers the k x k square
 * of cells with (x, y) as its corner of lowest x and y, so a shut cell
 * (cx, cy) shuts every node of that size in [cx - k + 1, cx] x
 * [cy - k + 1, cy]. The world keeps, for every layer's node, how many
 * shut cells its square covers, and updates those counts as cells shut
 * and open, so a query reads one count a node. A graph's or a navmesh's
 * shut places are its nodes (polygons); a count is then 0 or 1.
 */
#include "twz_geometry.h"
#include "twz_layers.h"
#include "twz_navmesh.h"
#include "twz_navmesh_format.h"
#include "twz_validate_layers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct twz_world {
	const struct twz_db *root;
	unsigned layer_count;
	const struct twz_db *view[TWZ_MAX_LAYERS];
	uint16_t *count[TWZ_MAX_LAYERS];  /* [view's node_count] */
	uint8_t *place;            /* a bit a place: grid cells, or the
				    * root's nodes */
	uint64_t places;           /* bits of place */
	uint64_t shut;             /* places shut now */
	uint8_t *links;            /* a bit an off-mesh link (graph levels) */
	uint32_t link_count;
	uint32_t links_shut;
	uint64_t version;          /* changes with every change */
};

static const struct twz_db *root_of(const struct twz_db *db)
{
	return db->parent ? db->parent : db;
}

twz_status twz_world_create(const twz_db *db, twz_world **out)
{
	if (!out)
		return TWZ_E_ARGUMENT;
	*out = NULL;
	if (!db)
		return TWZ_E_ARGUMENT;
	const struct twz_db *root = root_of(db);
	struct twz_world *w = calloc(1, sizeof *w);
	if (!w)
		return TWZ_E_NOMEM;
	w->root = root;
	w->layer_count = twz__layers_count(root);
	w->places = twz__is_graph(root)
		? root->c.node_count
		: (uint64_t)root->c.width * root->c.height;
	w->place = calloc((size_t)(w->places / 8) + 1, 1);
	w->link_count = twz__is_graph(root) ? root->graph.link_count : 0;
	w->links = calloc(w->link_count / 8 + 1, 1);
	int ok = w->place && w->links;
	for (unsigned l = 0; ok && l < w->layer_count; l++) {
		const struct twz_db *v = twz__layers_view(root, l);
		w->view[l] = v;
		w->count[l] = calloc((size_t)(v ? v->c.node_count : 0) + 1,
				     sizeof *w->count[l]);
		ok = w->count[l] != NULL;
	}
	if (!ok) {
		twz_world_free(w);
		return TWZ_E_NOMEM;
	}
	*out = w;
	return TWZ_OK;
}

void twz_world_free(twz_world *w)
{
	if (!w)
		return;
	for (unsigned l = 0; l < TWZ_MAX_LAYERS; l++)
		free(w->count[l]);
	free(w->place);
	free(w->links);
	free(w);
}

/* Add delta to the count of every node of every layer whose square
 * covers grid cell (cx, cy). */
static void cover_cell(struct twz_world *w, uint32_t cx, uint32_t cy, int delta)
{
	for (unsigned l = 0; l < w->layer_count; l++) {
		const struct twz_db *v = w->view[l];
		if (!v || !v->c.node_count)
			continue;
		uint32_t k = twz__agent_size(v);
		uint32_t x0 = cx + 1 >= k ? cx + 1 - k : 0;
		uint32_t y0 = cy + 1 >= k ? cy + 1 - k : 0;
		for (uint32_t y = y0; y <= cy; y++)
			for (uint32_t x = x0; x <= cx; x++) {
				twz_node n = twz__cell_node(v, (size_t)y * v->c.width + x);
				if (n != TWZ_NONE)
					w->count[l][n] = (uint16_t)(w->count[l][n] + delta);
			}
	}
}

/* Set place p (a grid cell index, or a root node) shut or open. */
static void set_place(struct twz_world *w, uint64_t p, int shut)
{
	int was = w->place[p >> 3] >> (p & 7) & 1;

	if (was == !!shut)
		return;
	w->place[p >> 3] ^= (uint8_t)(1u << (p & 7));
	w->shut += shut ? 1 : (uint64_t)-1;
	w->version++;
	if (twz__is_graph(w->root))
		w->count[0][p] = (uint16_t)!!shut;
	else
		cover_cell(w, (uint32_t)(p % w->root->c.width),
			   (uint32_t)(p / w->root->c.width), shut ? 1 : -1);
}

twz_status twz_world_shut_cell(twz_world *w, int64_t x, int64_t y, int shut)
{
	if (!w || twz__is_graph(w->root) || x < 0 || y < 0 ||
	    x >= w->root->c.width || y >= w->root->c.height)
		return TWZ_E_ARGUMENT;
	set_place(w, (uint64_t)y * w->root->c.width + (uint64_t)x, shut);
	return TWZ_OK;
}

twz_status twz_world_shut_node(twz_world *w, twz_node n, int shut)
{
	if (!w || n >= w->root->c.node_count)
		return TWZ_E_ARGUMENT;
	if (twz__is_graph(w->root)) {
		set_place(w, n, shut);
		return TWZ_OK;
	}
	uint32_t x, y;
	twz__node_xy(w->root, n, &x, &y);
	set_place(w, (uint64_t)y * w->root->c.width + x, shut);
	return TWZ_OK;
}

/* Whether navmesh polygon p (face index) overlaps the box: its x-z shape
 * meets the rectangle (separating axes: the rectangle's two and the
 * polygon's edges) and its heights meet [lo[1], hi[1]]. */
static int polygon_in_box(const struct twz_nm *nm, uint32_t p,
			  const double *lo, const double *hi)
{
	uint32_t first = nm->poly_first[p], n = nm->poly_first[p + 1] - first;
	double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
	double z0 = INFINITY, z1 = -INFINITY;

	for (uint32_t i = 0; i < n; i++) {
		const double *v = nm->vert + 3 * (size_t)nm->poly_vert[first + i];
		x0 = fmin(x0, v[0]), x1 = fmax(x1, v[0]);
		y0 = fmin(y0, v[1]), y1 = fmax(y1, v[1]);
		z0 = fmin(z0, v[2]), z1 = fmax(z1, v[2]);
	}
	if (x1 < lo[0] || x0 > hi[0] || z1 < lo[2] || z0 > hi[2] ||
	    y1 < lo[1] || y0 > hi[1])
		return 0;
	if (nm->sign[p] == 0)
		return 1;  /* a sliver: its box is its shape, near enough */
	double corner[4][3] = { { lo[0], 0, lo[2] }, { hi[0], 0, lo[2] },
				{ hi[0], 0, hi[2] }, { lo[0], 0, hi[2] } };
	for (uint32_t i = 0; i < n; i++) {
		const double *a = nm->vert + 3 * (size_t)nm->poly_vert[first + i];
		const double *b = nm->vert + 3 * (size_t)nm->poly_vert[first + (i + 1) % n];
		int outside = 1;
		for (int c = 0; c < 4 && outside; c++) {
			double ab = (b[0] - a[0]) * (corner[c][2] - a[2]) -
				    (corner[c][0] - a[0]) * (b[2] - a[2]);
			outside = nm->sign[p] * ab < 0;
		}
		if (outside)
			return 0;
	}
	return 1;
}

twz_status twz_world_shut_box(twz_world *w, const double lo[3],
			      const double hi[3], int shut)
{
	if (!w || !lo || !hi)
		return TWZ_E_ARGUMENT;
	for (int a = 0; a < 3; a++)
		if (!isfinite(lo[a]) || !isfinite(hi[a]) || lo[a] > hi[a])
			return TWZ_E_ARGUMENT;
	const struct twz_db *db = w->root;
	if (db->navmesh) {
		const struct twz_nm *nm = db->navmesh;
		uint32_t c0, c1, r0, r1;
		if (!twz_nm_cell_range(nm->origin_x, nm->origin_z, nm->cell,
				       nm->cols, nm->rows, lo[0], hi[0], lo[2],
				       hi[2], &c0, &c1, &r0, &r1))
			return TWZ_OK;
		for (uint32_t r = r0; r <= r1; r++)
			for (uint32_t c = c0; c <= c1; c++) {
				size_t cell = (size_t)r * nm->cols + c;
				for (uint32_t k = nm->cell_first[cell];
				     k < nm->cell_first[cell + 1]; k++) {
					uint32_t p = nm->cell_poly[k];
					if (polygon_in_box(nm, p, lo, hi))
						set_place(w, nm->poly_node[p], shut);
				}
			}
		return TWZ_OK;
	}
	if (twz__is_graph(db)) {
		if (!db->graph.coords)
			return TWZ_E_ARGUMENT;
		for (twz_node n = 0; n < db->c.node_count; n++) {
			double x = (double)(int64_t)twz_le64(db->graph.coords + 16 * (size_t)n);
			double y = (double)(int64_t)twz_le64(db->graph.coords + 16 * (size_t)n + 8);
			if (x >= lo[0] && x <= hi[0] && y >= lo[1] && y <= hi[1])
				set_place(w, n, shut);
		}
		return TWZ_OK;
	}
	/* Grids: the cells whose square [x, x + 1) x [y, y + 1) meets the
	 * box in x and y (a box of no width still takes the cell it is in). */
	double w0 = db->c.width, h0 = db->c.height;
	if (hi[0] < 0 || hi[1] < 0 || lo[0] >= w0 || lo[1] >= h0)
		return TWZ_OK;
	int64_t x0 = (int64_t)floor(fmax(lo[0], 0)), y0 = (int64_t)floor(fmax(lo[1], 0));
	int64_t x1 = (int64_t)ceil(fmin(hi[0], w0)) - 1, y1 = (int64_t)ceil(fmin(hi[1], h0)) - 1;
	if (x1 < x0)
		x1 = x0;
	if (y1 < y0)
		y1 = y0;
	for (int64_t y = y0; y <= y1 && y < db->c.height; y++)
		for (int64_t x = x0; x <= x1 && x < db->c.width; x++)
			set_place(w, (uint64_t)y * db->c.width + (uint64_t)x, shut);
	return TWZ_OK;
}

twz_status twz_world_shut_link(twz_world *w, uint32_t link, int shut)
{
	if (!w || link >= w->link_count)
		return TWZ_E_ARGUMENT;
	int was = w->links[link >> 3] >> (link & 7) & 1;
	if (was == !!shut)
		return TWZ_OK;
	w->links[link >> 3] ^= (uint8_t)(1u << (link & 7));
	w->links_shut += shut ? 1 : (uint32_t)-1;
	w->version++;
	return TWZ_OK;
}

void twz_world_open_all(twz_world *w)
{
	if (!w)
		return;
	memset(w->place, 0, (size_t)(w->places / 8) + 1);
	memset(w->links, 0, w->link_count / 8 + 1);
	w->links_shut = 0;
	for (unsigned l = 0; l < w->layer_count; l++)
		memset(w->count[l], 0, (size_t)(w->view[l] ? w->view[l]->c.node_count
							  : 0) * sizeof *w->count[l]);
	w->shut = 0;
	w->version++;
}

int twz_world_is_shut(const twz_world *w, const twz_db *db, twz_node n)
{
	if (!w || !db || root_of(db) != w->root || n >= db->c.node_count ||
	    db->layer >= w->layer_count)
		return 0;
	return w->count[db->layer][n] != 0;
}

twz_status twz__filter_make(const struct twz_db *db, const twz_filter *filter,
			    struct twz__filter *out)
{
	twz__filter_closed(NULL, out);
	if (!filter)
		return TWZ_OK;
	for (size_t i = 0; i < sizeof filter->reserved / sizeof filter->reserved[0]; i++)
		if (filter->reserved[i])
			return TWZ_E_ARGUMENT;
	const struct twz_world *w = filter->world;
	if (w) {
		if (root_of(db) != w->root || db->layer >= w->layer_count)
			return TWZ_E_ARGUMENT;
		if (w->shut)
			out->shut = w->count[db->layer];
		if (w->links_shut)
			out->shut_links = w->links;
		out->world = w;
		out->world_version = w->version;
	}
	const twz_closed *cl = filter->closed;
	if (cl && (cl->bits || cl->blocked))
		out->closed = cl;
	if (db->node_areas && (filter->exclude_areas & db->areas_present)) {
		out->exclude = filter->exclude_areas;
		out->areas = db->node_areas;
	}
	out->any = out->shut || out->shut_links || out->closed || out->areas;
	return TWZ_OK;
}
