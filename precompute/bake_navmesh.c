/*
 * bake_navmesh.c - bake a navmesh: the spatial grid, the navmesh
 * sections, and the polygon graph (nodes the faces in file order, arcs
 * weighted by their exact integer keys) handed to the graph CPD bake.
 */
#include "bake_navmesh.h"
#include "level_costs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bake_graph.h"
#include "twz_navmesh_format.h"
#include "twz_writer.h"

void twz_navmesh_index_free(struct twz_navmesh_index *ix)
{
	free(ix->cell_first);
	free(ix->cell_poly);
	memset(ix, 0, sizeof *ix);
}

/* Fill ix for a grid of the given cell side; -1 out of memory, 1 when
 * the lists would hold more than cap entries. */
static int index_fill(const struct twz_navmesh *m, struct twz_navmesh_index *ix,
		      double cell, uint64_t cap)
{
	double w = m->max[0] - m->min[0], h = m->max[2] - m->min[2];
	uint64_t total = 0;

	/* The grid covers the mesh with a cell to spare at the far sides,
	 * the index boxes' padding included. */
	ix->cell = cell;
	ix->ox = m->min[0] - cell * 1e-3;
	ix->oz = m->min[2] - cell * 1e-3;
	ix->cols = (uint32_t)(w / cell) + 2;
	ix->rows = (uint32_t)(h / cell) + 2;
	size_t cells = (size_t)ix->cols * ix->rows;
	ix->cell_first = calloc(cells + 1, sizeof *ix->cell_first);
	if (!ix->cell_first)
		return -1;
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t p = 0; p < m->poly_count; p++) {
			const uint32_t *idx = m->poly_vert + m->poly_first[p];
			uint32_t n = m->poly_first[p + 1] - m->poly_first[p];
			double box[4] = { INFINITY, -INFINITY, INFINITY, -INFINITY };
			uint32_t c0, c1, r0, r1;
			for (uint32_t i = 0; i < n; i++) {
				const double *v = m->vert + 3 * (size_t)idx[i];
				if (v[0] < box[0]) box[0] = v[0];
				if (v[0] > box[1]) box[1] = v[0];
				if (v[2] < box[2]) box[2] = v[2];
				if (v[2] > box[3]) box[3] = v[2];
			}
			twz_nm_box_pad(box, cell);
			if (!twz_nm_cell_range(ix->ox, ix->oz, cell, ix->cols,
					       ix->rows, box[0], box[1], box[2],
					       box[3], &c0, &c1, &r0, &r1))
				continue;
			for (uint32_t r = r0; r <= r1; r++)
				for (uint32_t c = c0; c <= c1; c++) {
					size_t k = (size_t)r * ix->cols + c;
					if (pass == 0) {
						ix->cell_first[k + 1]++;
						total++;
					} else {
						ix->cell_poly[ix->cell_first[k]++] = p;
					}
				}
			if (pass == 0 && total > cap)
				return 1;
		}
		if (pass == 0) {
			for (size_t k = 0; k < cells; k++)
				ix->cell_first[k + 1] += ix->cell_first[k];
			ix->entries = (uint32_t)total;
			ix->cell_poly = malloc((total ? total : 1) * sizeof *ix->cell_poly);
			if (!ix->cell_poly)
				return -1;
		}
	}
	/* Pass 2 moved each start to the next cell's: shift back. */
	memmove(ix->cell_first + 1, ix->cell_first, cells * sizeof *ix->cell_first);
	ix->cell_first[0] = 0;
	return 0;
}

int twz_navmesh_index_build(const struct twz_navmesh *m,
			    struct twz_navmesh_index *ix)
{
	double w = m->max[0] - m->min[0], h = m->max[2] - m->min[2];
	double side = w > h ? w : h;
	/* About one polygon a cell on a mesh of even polygons. */
	double cell = sqrt(w * h / (m->poly_count ? m->poly_count : 1));
	uint64_t cap = TWZ_NAVMESH_MAX_GRID_ENTRIES(m->poly_count);

	if (!(cell > 0))
		cell = side > 0 ? side : 1;
	for (;;) {
		memset(ix, 0, sizeof *ix);
		if ((w / cell + 2) * (h / cell + 2) <=
		    (double)TWZ_NAVMESH_MAX_GRID_CELLS(m->poly_count)) {
			int rc = index_fill(m, ix, cell, cap);
			if (rc <= 0) {
				if (rc < 0)
					twz_navmesh_index_free(ix);
				return rc;
			}
		}
		twz_navmesh_index_free(ix);
		cell *= 2;
	}
}

static void *u32_section(const uint32_t *a, size_t n)
{
	uint8_t *b = malloc(n ? 4 * n : 1);

	if (b)
		for (size_t i = 0; i < n; i++)
			twz_put32(b + 4 * i, a[i]);
	return b;
}

int twz_bake_navmesh(const struct twz_navmesh *m,
		     const struct twz_bake_options *opt, const char *path,
		     uint8_t **buf, size_t *len, struct twz_error *err)
{
	struct twz_navmesh_index ix;
	struct twz_graph g;
	struct twz_arc *arcs = NULL;
	uint8_t *params = NULL, *verts = NULL, *portals = NULL, *areas = NULL;
	uint32_t *remap = NULL, *used = NULL, nverts = 0;
	void *polys = NULL, *pverts = NULL, *arc_first = NULL, *cells = NULL,
	     *cell_polys = NULL;
	const char *name = opt->name ? opt->name : "navmesh";
	size_t nidx = m->poly_first[m->poly_count];
	int rc = -1;

	memset(&g, 0, sizeof g);
	if (twz_navmesh_index_build(m, &ix) < 0) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
		return -1;
	}
	uint32_t max_verts = 0;
	for (uint32_t p = 0; p < m->poly_count; p++)
		if (m->poly_first[p + 1] - m->poly_first[p] > max_verts)
			max_verts = m->poly_first[p + 1] - m->poly_first[p];

	/* Only the vertices faces use are stored, numbered by first use. */
	remap = malloc(((size_t)m->vertex_count + 1) * sizeof *remap);
	used = malloc((nidx + 1) * sizeof *used);
	if (remap && used) {
		memset(remap, 0xFF, (size_t)m->vertex_count * sizeof *remap);
		for (size_t i = 0; i < nidx; i++) {
			uint32_t w = m->poly_vert[i];
			if (remap[w] == UINT32_MAX) {
				used[nverts] = w;
				remap[w] = nverts++;
			}
					}
	}
	params = calloc(1, TWZ_NP_SIZE);
	verts = malloc((size_t)nverts * 24 + 1);
	portals = malloc((size_t)m->arc_count * TWZ_NA_SIZE + 1);
	polys = u32_section(m->poly_first, (size_t)m->poly_count + 1);
	pverts = malloc(nidx * 4 + 1);
	arc_first = u32_section(m->arc_first, (size_t)m->poly_count + 1);
	cells = u32_section(ix.cell_first, (size_t)ix.cols * ix.rows + 1);
	cell_polys = u32_section(ix.cell_poly, ix.entries);
	arcs = malloc(((size_t)m->arc_count + 1) * sizeof *arcs);
	if (!params || !verts || !portals || !polys || !pverts || !arc_first ||
	    !cells || !cell_polys || !arcs || !remap || !used) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
		goto out;
	}
	twz_put32(params + TWZ_NP_VERTICES, nverts);
	twz_put32(params + TWZ_NP_POLYS, m->poly_count);
	twz_put32(params + TWZ_NP_INDICES, (uint32_t)nidx);
	twz_put32(params + TWZ_NP_ARCS, m->arc_count);
	twz_put32(params + TWZ_NP_COLS, ix.cols);
	twz_put32(params + TWZ_NP_ROWS, ix.rows);
	twz_put32(params + TWZ_NP_ENTRIES, ix.entries);
	twz_put32(params + TWZ_NP_MAX_VERTS, max_verts);
	twz_putf64(params + TWZ_NP_ORIGIN_X, ix.ox);
	twz_putf64(params + TWZ_NP_ORIGIN_Z, ix.oz);
	twz_putf64(params + TWZ_NP_CELL, ix.cell);
	twz_putf64(params + TWZ_NP_SCALE, m->scale);
	for (uint32_t w = 0; w < nverts; w++)
		for (int a = 0; a < 3; a++)
			twz_putf64(verts + 24 * (size_t)w + 8 * a, m->vert[3 * (size_t)used[w] + a]);
	for (size_t i = 0; i < nidx; i++)
		twz_put32((uint8_t *)pverts + 4 * i, remap[m->poly_vert[i]]);
	for (uint32_t a = 0; a < m->arc_count; a++) {
		twz_put32(portals + TWZ_NA_SIZE * a + TWZ_NA_HEAD, m->arc_head[a]);
		twz_put32(portals + TWZ_NA_SIZE * a + TWZ_NA_LEFT, remap[m->arc_left[a]]);
		twz_put32(portals + TWZ_NA_SIZE * a + TWZ_NA_RIGHT, remap[m->arc_right[a]]);
	}
	for (uint32_t p = 0; p < m->poly_count; p++)
		for (uint32_t a = m->arc_first[p]; a < m->arc_first[p + 1]; a++) {
			arcs[a].tail = p;
			arcs[a].head = m->arc_head[a];
			arcs[a].cost = m->arc_key[a];
		}
	if (twz_graph_from_arcs(&g, m->poly_count, arcs, m->arc_count, name, err) < 0)
		goto out;
	g.id_base = 0;
	g.level_hash = m->level_hash;

	/* Areas (FORMAT.md 5k): the faces' areas, beside the mesh. */
	size_t areas_size = 0;
	const struct twz_level_costs *lc = opt->costs;
	areas = lc ? twz_areas_section(lc, &areas_size) : NULL;
	if (lc && !areas) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
		goto out;
	}
	struct twz_out_section extra[] = {
		{ TWZ_SECTION_NAVMESH_PARAMS, params, TWZ_NP_SIZE },
		{ TWZ_SECTION_NAVMESH_VERTICES, verts, (size_t)nverts * 24 },
		{ TWZ_SECTION_NAVMESH_POLYS, polys, ((size_t)m->poly_count + 1) * 4 },
		{ TWZ_SECTION_NAVMESH_POLY_VERTS, pverts, nidx * 4 },
		{ TWZ_SECTION_NAVMESH_ARC_FIRST, arc_first, ((size_t)m->poly_count + 1) * 4 },
		{ TWZ_SECTION_NAVMESH_PORTALS, portals, (size_t)m->arc_count * TWZ_NA_SIZE },
		{ TWZ_SECTION_NAVMESH_CELLS, cells, ((size_t)ix.cols * ix.rows + 1) * 4 },
		{ TWZ_SECTION_NAVMESH_CELL_POLYS, cell_polys, (size_t)ix.entries * 4 },
		{ TWZ_SECTION_AREAS, areas, areas_size },
		{ TWZ_SECTION_PLACE_AREA, lc ? lc->place_area : NULL,
		  lc ? lc->places : 0 },
	};
	struct twz_graph_kind kind = {
		.level_kind = TWZ_LEVEL_NAVMESH,
		.features = TWZ_FEATURE_NAVMESH | (lc ? TWZ_FEATURE_AREAS : 0),
		.extra = extra,
		.extra_count = sizeof extra / sizeof extra[0] - (lc ? 0 : 2),
	};
	if (path)
		rc = twz_bake_graph(&g, &kind, opt, path, err);
	else
		rc = twz_bake_graph_encode(&g, &kind, opt, buf, len, err);
out:
	twz_graph_free(&g);
	twz_navmesh_index_free(&ix);
	free(arcs);
	free(params);
	free(verts);
	free(portals);
	free(polys);
	free(pverts);
	free(arc_first);
	free(cells);
	free(cell_polys);
	free(remap);
	free(used);
	free(areas);
	return rc;
}
