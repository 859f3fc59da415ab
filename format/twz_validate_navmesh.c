/*
 * twz_validate_navmesh.c - the validator of a navmesh database's own
 * sections (FORMAT.md, "Navmesh sections", checks N1 to N7): the
 * parameters, finite vertices, polygons of 3 to 255 vertices with a
 * non-zero x-z area or slivers along a portal, portals that are shared edges of their two
 * polygons, arcs that match the graph's, and a complete spatial grid.
 * Pure: bytes in, status out.
 */
#include "twz_validate_navmesh.h"

#include <math.h>

#include "twz_graph_format.h"
#include "twz_navmesh_format.h"
#include "twz_navmesh_geom.h"

uint64_t twz_navmesh_section_limit(const struct twz_container *c,
				   uint32_t kind, int *exact)
{
	uint64_t n = c->node_count;
	uint64_t idx = n * TWZ_NAVMESH_FILE_MAX_POLY_VERTS;

	*exact = 1;
	switch (kind) {
	case TWZ_SECTION_NAVMESH_PARAMS:
		return TWZ_NP_SIZE;
	case TWZ_SECTION_NAVMESH_POLYS:
	case TWZ_SECTION_NAVMESH_ARC_FIRST:
		return 4 * (n + 1);
	}
	*exact = 0;
	switch (kind) {
	case TWZ_SECTION_NAVMESH_VERTICES:
		return 24 * idx;
	case TWZ_SECTION_NAVMESH_POLY_VERTS:
		return 4 * idx;
	case TWZ_SECTION_NAVMESH_PORTALS:
		return (uint64_t)TWZ_NA_SIZE * idx;
	case TWZ_SECTION_NAVMESH_CELLS:
		return 4 * (TWZ_NAVMESH_MAX_GRID_CELLS(n) + 1);
	case TWZ_SECTION_NAVMESH_CELL_POLYS:
		return 4 * TWZ_NAVMESH_MAX_GRID_ENTRIES(n);
	}
	return UINT64_MAX;
}

/* N1: the parameters against the header. */
static twz_status read_params(const struct twz_container *c,
			      const struct twz_content *v,
			      struct twz_navmesh_params *p)
{
	const uint8_t *b = v->data[TWZ_SECTION_NAVMESH_PARAMS];
	uint64_t n = c->node_count;

	if (!b || v->size[TWZ_SECTION_NAVMESH_PARAMS] != TWZ_NP_SIZE)
		return TWZ_E_DAMAGED;
	p->vertices = twz_le32(b + TWZ_NP_VERTICES);
	p->polys = twz_le32(b + TWZ_NP_POLYS);
	p->indices = twz_le32(b + TWZ_NP_INDICES);
	p->arcs = twz_le32(b + TWZ_NP_ARCS);
	p->cols = twz_le32(b + TWZ_NP_COLS);
	p->rows = twz_le32(b + TWZ_NP_ROWS);
	p->entries = twz_le32(b + TWZ_NP_ENTRIES);
	p->max_verts = twz_le32(b + TWZ_NP_MAX_VERTS);
	p->ox = twz_lef64(b + TWZ_NP_ORIGIN_X);
	p->oz = twz_lef64(b + TWZ_NP_ORIGIN_Z);
	p->cell = twz_lef64(b + TWZ_NP_CELL);
	p->scale = twz_lef64(b + TWZ_NP_SCALE);
	if (p->polys != n || n == 0)
		return TWZ_E_DAMAGED;
	if (p->max_verts < 3 || p->max_verts > TWZ_NAVMESH_FILE_MAX_POLY_VERTS ||
	    p->indices < 3 * n || p->indices > (uint64_t)p->max_verts * n ||
	    p->vertices < 3 || p->vertices > p->indices || p->arcs > p->indices)
		return TWZ_E_DAMAGED;
	if (p->cols == 0 || p->rows == 0 ||
	    (uint64_t)p->cols * p->rows > TWZ_NAVMESH_MAX_GRID_CELLS(n) ||
	    p->entries > TWZ_NAVMESH_MAX_GRID_ENTRIES(n))
		return TWZ_E_LIMIT;
	if (!(fabs(p->ox) <= 2 * TWZ_NAVMESH_COORD_LIMIT) ||
	    !(fabs(p->oz) <= 2 * TWZ_NAVMESH_COORD_LIMIT) ||
	    !(p->cell > 0 && p->cell <= 4 * TWZ_NAVMESH_COORD_LIMIT) ||
	    !(p->scale > 0 && isfinite(p->scale)))
		return TWZ_E_DAMAGED;
	return TWZ_OK;
}

static int size_is(const struct twz_content *v, uint32_t kind, uint64_t size)
{
	return v->data[kind] && v->size[kind] == size;
}

/* Whether a u32 table a[0..n] starts at 0, never falls and ends at
 * last; with step_min > 0, rises by step_min..step_max a step. */
static int offsets_ok(const uint8_t *a, uint64_t n, uint32_t last,
		      uint32_t step_min, uint32_t step_max)
{
	uint32_t prev = twz_le32(a);

	if (prev != 0)
		return 0;
	for (uint64_t i = 1; i <= n; i++) {
		uint32_t x = twz_le32(a + 4 * i);
		if (x < prev || x - prev < step_min || x - prev > step_max)
			return 0;
		prev = x;
	}
	return prev == last;
}

/* Whether positions i and j of a polygon of cnt vertices are
 * neighbours (either way round); -1 is no position. */
static int adjacent(int64_t i, int64_t j, uint32_t cnt)
{
	return i >= 0 && j >= 0 && ((i + 1) % cnt == j || (j + 1) % cnt == i);
}

/* The position of vertex id w in polygon p's list, or -1. */
static int64_t find_vertex(const uint8_t *pv, uint32_t lo, uint32_t hi,
			   uint32_t w)
{
	for (uint32_t i = lo; i < hi; i++)
		if (twz_le32(pv + 4 * (size_t)i) == w)
			return i - lo;
	return -1;
}

/* Whether a polygon's u32 list holds poly (lists ascend). */
static int list_has(const uint8_t *list, uint32_t lo, uint32_t hi,
		    uint32_t poly)
{
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2, x = twz_le32(list + 4 * (size_t)mid);
		if (x == poly)
			return 1;
		if (x < poly)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Polygon [lo, hi) of the file, its vertices as ids and doubles, for
 * the shared geometry (at most TWZ_NAVMESH_FILE_MAX_POLY_VERTS). */
struct poly_buf {
	uint32_t n;
	uint32_t idx[TWZ_NAVMESH_FILE_MAX_POLY_VERTS];
	uint32_t id[TWZ_NAVMESH_FILE_MAX_POLY_VERTS];
	double v[3 * TWZ_NAVMESH_FILE_MAX_POLY_VERTS];
};

static void poly_load(const uint8_t *vert, const uint8_t *pv, uint32_t lo,
		      uint32_t hi, struct poly_buf *b)
{
	b->n = hi - lo;
	for (uint32_t i = 0; i < b->n; i++) {
		const uint8_t *a;
		b->id[i] = twz_le32(pv + 4 * ((size_t)lo + i));
		a = vert + 24 * (size_t)b->id[i];
		b->idx[i] = i;
		b->v[3 * i] = twz_lef64(a);
		b->v[3 * i + 1] = twz_lef64(a + 8);
		b->v[3 * i + 2] = twz_lef64(a + 16);
	}
}

static int flat(const uint8_t *vert, const uint8_t *pv, uint32_t lo,
		uint32_t hi)
{
	struct poly_buf b;

	poly_load(vert, pv, lo, hi, &b);
	return twz_nm_is_flat(b.v, b.idx, b.n);
}

/* Whether polygon [lo, hi) is a sliver (flat: twz_nm_sliver_span),
 * its span's vertex ids into *a, *b: the span position, or -1. */
static int sliver_span(const uint8_t *vert, const uint8_t *pv, uint32_t lo,
		       uint32_t hi, uint32_t *a, uint32_t *b)
{
	struct poly_buf pb;

	poly_load(vert, pv, lo, hi, &pb);
	if (!twz_nm_is_flat(pb.v, pb.idx, pb.n))
		return -1;
	int s = twz_nm_sliver_span(pb.v, pb.idx, pb.n);
	if (s >= 0 && a && b) {
		*a = pb.id[s];
		*b = pb.id[(s + 1) % pb.n];
	}
	return s;
}

twz_status twz_validate_navmesh(const struct twz_container *c,
				const struct twz_content *v)
{
	struct twz_navmesh_params p;
	twz_status st;
	uint64_t n = c->node_count;

	if (!(c->required_features & TWZ_FEATURE_NAVMESH) ||
	    c->level_kind != TWZ_LEVEL_NAVMESH)
		return TWZ_E_DAMAGED;
	if ((st = read_params(c, v, &p)) != TWZ_OK)
		return st;
	/* N2: sizes. */
	uint64_t cells = (uint64_t)p.cols * p.rows;
	if (!size_is(v, TWZ_SECTION_NAVMESH_VERTICES, 24 * (uint64_t)p.vertices) ||
	    !size_is(v, TWZ_SECTION_NAVMESH_POLYS, 4 * (n + 1)) ||
	    !size_is(v, TWZ_SECTION_NAVMESH_POLY_VERTS, 4 * (uint64_t)p.indices) ||
	    !size_is(v, TWZ_SECTION_NAVMESH_ARC_FIRST, 4 * (n + 1)) ||
	    !size_is(v, TWZ_SECTION_NAVMESH_PORTALS, (uint64_t)TWZ_NA_SIZE * p.arcs) ||
	    !size_is(v, TWZ_SECTION_NAVMESH_CELLS, 4 * (cells + 1)) ||
	    !size_is(v, TWZ_SECTION_NAVMESH_CELL_POLYS, 4 * (uint64_t)p.entries))
		return TWZ_E_DAMAGED;
	const uint8_t *vert = v->data[TWZ_SECTION_NAVMESH_VERTICES];
	const uint8_t *polys = v->data[TWZ_SECTION_NAVMESH_POLYS];
	const uint8_t *pv = v->data[TWZ_SECTION_NAVMESH_POLY_VERTS];
	const uint8_t *af = v->data[TWZ_SECTION_NAVMESH_ARC_FIRST];
	const uint8_t *portals = v->data[TWZ_SECTION_NAVMESH_PORTALS];
	const uint8_t *cf = v->data[TWZ_SECTION_NAVMESH_CELLS];
	const uint8_t *cp = v->data[TWZ_SECTION_NAVMESH_CELL_POLYS];

	/* N3: vertices finite and within the limit. */
	for (uint64_t i = 0; i < 3 * (uint64_t)p.vertices; i++)
		if (!(fabs(twz_lef64(vert + 8 * i)) <= TWZ_NAVMESH_COORD_LIMIT))
			return TWZ_E_DAMAGED;
	/* N4: polygons: 3..max_verts vertices each, ids in range, a
	 * non-zero area or, flat, a sliver (its portal checked in N5). */
	if (!offsets_ok(polys, n, p.indices, 3, p.max_verts))
		return TWZ_E_DAMAGED;
	for (uint64_t i = 0; i < p.indices; i++)
		if (twz_le32(pv + 4 * i) >= p.vertices)
			return TWZ_E_DAMAGED;
	for (uint32_t q = 0; q < n; q++) {
		uint32_t lo = twz_le32(polys + 4 * (size_t)q);
		uint32_t hi = twz_le32(polys + 4 * ((size_t)q + 1));
		double a2 = 0;
		const double o[3] = { twz_lef64(vert + 24 * (size_t)twz_le32(pv + 4 * (size_t)lo)), 0,
				      twz_lef64(vert + 24 * (size_t)twz_le32(pv + 4 * (size_t)lo) + 16) };
		for (uint32_t i = lo + 1; i + 1 < hi; i++) {
			const uint8_t *a = vert + 24 * (size_t)twz_le32(pv + 4 * (size_t)i);
			const uint8_t *b = vert + 24 * (size_t)twz_le32(pv + 4 * ((size_t)i + 1));
			double pa[3] = { twz_lef64(a), 0, twz_lef64(a + 16) };
			double pb[3] = { twz_lef64(b), 0, twz_lef64(b + 16) };
			a2 += twz_nm_area2(o, pa, pb);
		}
		if (!isfinite(a2))
			return TWZ_E_DAMAGED;
		/* A flat polygon must be a sliver; a polygon that is not
		 * flat has an area. */
		if (sliver_span(vert, pv, lo, hi, NULL, NULL) < 0 &&
		    (!(a2 != 0) || flat(vert, pv, lo, hi)))
			return TWZ_E_DAMAGED;
	}
	/* N5: portals. Arc k of polygon q goes to head over the edge
	 * (left, right), which is an edge of both, left and right as seen
	 * walking q -> head. */
	if (!offsets_ok(af, n, p.arcs, 0, p.max_verts))
		return TWZ_E_DAMAGED;
	for (uint32_t q = 0; q < n; q++) {
		uint32_t lo = twz_le32(polys + 4 * (size_t)q);
		uint32_t hi = twz_le32(polys + 4 * ((size_t)q + 1));
		uint32_t cnt = hi - lo;
		for (uint32_t k = twz_le32(af + 4 * (size_t)q);
		     k < twz_le32(af + 4 * ((size_t)q + 1)); k++) {
			const uint8_t *r = portals + (size_t)TWZ_NA_SIZE * k;
			uint32_t h = twz_le32(r + TWZ_NA_HEAD);
			uint32_t l = twz_le32(r + TWZ_NA_LEFT);
			uint32_t rt = twz_le32(r + TWZ_NA_RIGHT);
			if (h >= n || h == q || l >= p.vertices || rt >= p.vertices)
				return TWZ_E_DAMAGED;
			/* An edge of q: (right, left) or (left, right) in
			 * q's order, as q's winding says. */
			int64_t i = find_vertex(pv, lo, hi, rt);
			int64_t j = find_vertex(pv, lo, hi, l);
			if (!adjacent(i, j, cnt))
				return TWZ_E_DAMAGED;
			uint32_t hlo = twz_le32(polys + 4 * (size_t)h);
			uint32_t hhi = twz_le32(polys + 4 * ((size_t)h + 1));
			int64_t hi_ = find_vertex(pv, hlo, hhi, rt);
			int64_t hj = find_vertex(pv, hlo, hhi, l);
			uint32_t hc = hhi - hlo;
			if (!adjacent(hi_, hj, hc))
				return TWZ_E_DAMAGED;
		}
	}
	/* N5 for slivers: an arc crosses each sliver's span (so it lies
	 * along a neighbour's edge; spans grow along a chain of slivers,
	 * which therefore ends at a polygon with area). */
	for (uint32_t q = 0; q < n; q++) {
		uint32_t lo = twz_le32(polys + 4 * (size_t)q);
		uint32_t hi = twz_le32(polys + 4 * ((size_t)q + 1));
		uint32_t a, b;
		if (sliver_span(vert, pv, lo, hi, &a, &b) < 0)
			continue;
		uint32_t k = twz_le32(af + 4 * (size_t)q);
		for (; k < twz_le32(af + 4 * ((size_t)q + 1)); k++) {
			const uint8_t *r = portals + (size_t)TWZ_NA_SIZE * k;
			uint32_t l = twz_le32(r + TWZ_NA_LEFT);
			uint32_t rt = twz_le32(r + TWZ_NA_RIGHT);
			if ((l == a && rt == b) || (l == b && rt == a))
				break;
		}
		if (k == twz_le32(af + 4 * ((size_t)q + 1)))
			return TWZ_E_DAMAGED;
	}
	/* N6: the graph's arcs are the portals' (GRAPH_NODE_ID maps its
	 * nodes to polygons, face indices from 0). */
	const uint8_t *gaf = v->data[TWZ_SECTION_GRAPH_ARC_FIRST];
	const uint8_t *gah = v->data[TWZ_SECTION_GRAPH_ARC_HEAD];
	const uint8_t *gid = v->data[TWZ_SECTION_GRAPH_NODE_ID];
	if (!gaf || !gah || !gid)
		return TWZ_E_DAMAGED;
	if (twz_le32(gaf + 4 * n) != p.arcs)
		return TWZ_E_DAMAGED;
	for (uint32_t u = 0; u < n; u++) {
		uint32_t pu = twz_le32(gid + 4 * (size_t)u);
		if (pu >= n)
			return TWZ_E_DAMAGED;
		for (uint32_t k = twz_le32(gaf + 4 * (size_t)u);
		     k < twz_le32(gaf + 4 * ((size_t)u + 1)); k++) {
			uint32_t ph = twz_le32(gid + 4 * (size_t)twz_le32(gah + 4 * (size_t)k));
			uint32_t a = twz_le32(af + 4 * (size_t)pu);
			uint32_t b = twz_le32(af + 4 * ((size_t)pu + 1));
			while (a < b && twz_le32(portals + (size_t)TWZ_NA_SIZE * a + TWZ_NA_HEAD) != ph)
				a++;
			if (a == b)
				return TWZ_E_DAMAGED;
		}
	}
	/* N7: the spatial grid: ascending lists of valid polygons, every
	 * polygon's vertices on the grid, and every polygon in each cell its
	 * index box meets, the range clamped to the grid. */
	if (!offsets_ok(cf, cells, p.entries, 0, UINT32_MAX))
		return TWZ_E_DAMAGED;
	for (uint64_t k = 0; k < cells; k++) {
		uint32_t lo = twz_le32(cf + 4 * k), hi = twz_le32(cf + 4 * (k + 1));
		for (uint32_t i = lo; i < hi; i++) {
			uint32_t x = twz_le32(cp + 4 * (size_t)i);
			if (x >= n || (i > lo && x <= twz_le32(cp + 4 * ((size_t)i - 1))))
				return TWZ_E_DAMAGED;
		}
	}
	for (uint32_t q = 0; q < n; q++) {
		uint32_t lo = twz_le32(polys + 4 * (size_t)q);
		uint32_t hi = twz_le32(polys + 4 * ((size_t)q + 1));
		double box[4] = { INFINITY, -INFINITY, INFINITY, -INFINITY };
		uint32_t c0, c1, r0, r1;
		for (uint32_t i = lo; i < hi; i++) {
			const uint8_t *a = vert + 24 * (size_t)twz_le32(pv + 4 * (size_t)i);
			double x = twz_lef64(a), z = twz_lef64(a + 16);
			if (x < box[0]) box[0] = x;
			if (x > box[1]) box[1] = x;
			if (z < box[2]) box[2] = z;
			if (z > box[3]) box[3] = z;
		}
		/* A point of the polygon finds its cell: the grid covers
		 * the polygon's vertices. */
		if (!twz_nm_on_grid(p.ox, p.oz, p.cell, p.cols, p.rows, box[0], box[2]) ||
		    !twz_nm_on_grid(p.ox, p.oz, p.cell, p.cols, p.rows, box[1], box[3]))
			return TWZ_E_DAMAGED;
		twz_nm_box_pad(box, p.cell);
		twz_nm_cell_range(p.ox, p.oz, p.cell, p.cols, p.rows, box[0], box[1],
				  box[2], box[3], &c0, &c1, &r0, &r1);
		/* Each cell of the range holds q, so this costs no more than
		 * the lists' entries. */
		for (uint32_t r = r0; r <= r1; r++)
			for (uint32_t col = c0; col <= c1; col++) {
				uint64_t k = (uint64_t)r * p.cols + col;
				if (!list_has(cp, twz_le32(cf + 4 * k),
					      twz_le32(cf + 4 * (k + 1)), q))
					return TWZ_E_DAMAGED;
			}
	}
	return TWZ_OK;
}
