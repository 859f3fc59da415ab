/*
 * check_navmesh.c - navmesh levels: the OBJ reader (the forms exporters
 * write, and every malformed input refused in one line naming the file
 * and line), the polygon graph and its costs against the geometry;
 * databases of the project's rooms mesh and of random meshes: corridors
 * optimal against an independent Dijkstra on random point pairs, funnel
 * paths inside their corridors through every portal with exact
 * endpoints and no longer than the midpoint paths, overlapping floors
 * located by height, nearest polygons, the three --apsp solvers and any
 * thread count baking the same bytes, hostile navmesh sections refused
 * at open, the golden file, the command line's JSON, and Recast fan
 * dumps whose zero-area triangles (slivers) bake and answer correctly
 * while other zero-area faces stay refused.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apsp_dense.h"
#include "bake_navmesh.h"
#include "level_navmesh.h"
#include "test_support.h"
#include "twz_rng.h"
#include "twz_navmesh_format.h"
#include "twz_navmesh_geom.h"
#include "twz_validate.h"

/* ---- the reader ------------------------------------------------------ */

static int parse(const char *text, struct twz_navmesh *m, struct twz_error *err)
{
	return twz_navmesh_parse((const uint8_t *)text, strlen(text), "t.obj", m, err);
}

static void parse_ok(const char *text, struct twz_navmesh *m)
{
	struct twz_error err = { { 0 }, 0 };

	ck_assert_msg(parse(text, m, &err) == 0, "refused: %s\n%s", err.msg, text);
}

/* text is refused with a message starting "t.obj:LINE: " (line 0: no
 * line) and holding word. */
static void refused(const char *text, unsigned line, const char *word)
{
	struct twz_navmesh m;
	struct twz_error err = { { 0 }, 0 };
	char head[32];

	ck_assert_msg(parse(text, &m, &err) != 0, "accepted:\n%s", text);
	if (line)
		snprintf(head, sizeof head, "t.obj:%u: ", line);
	else
		snprintf(head, sizeof head, "t.obj: ");
	ck_assert_msg(strncmp(err.msg, head, strlen(head)) == 0,
		      "message '%s' does not start '%s'", err.msg, head);
	ck_assert_msg(strstr(err.msg, word), "message '%s' lacks '%s'", err.msg, word);
	ck_assert_msg(!strchr(err.msg, '\n'), "message of several lines: %s", err.msg);
}

/* Two unit squares side by side in x, sharing the edge 2-3. */
static const char *two_squares =
	"v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 2 0 0\nv 2 0 1\n"
	"f 1 2 3 4\nf 2 5 6 3\n";

START_TEST(reads_exporter_forms)
{
	struct twz_navmesh m;

	parse_ok(two_squares, &m);
	ck_assert_uint_eq(m.poly_count, 2);
	ck_assert_uint_eq(m.arc_count, 2);
	ck_assert_uint_eq(m.arc_head[m.arc_first[0]], 1);
	ck_assert_uint_eq(m.arc_head[m.arc_first[1]], 0);
	/* centroid (0.5, 0.5) -> midpoint (1, 0.5) -> (1.5, 0.5) */
	ck_assert_double_eq_tol(m.arc_cost[0], 1.0, 1e-12);
	ck_assert_double_eq_tol(m.centroid[0], 0.5, 1e-12);
	ck_assert_double_eq_tol(m.centroid[3], 0.5, 1e-12);
	twz_navmesh_free(&m);

	/* v/vt/vn forms, negative indices, ignored statements, comments,
	 * CRLF, the other winding, a vertex colour, blank lines. */
	parse_ok("# exported\r\nmtllib a.mtl\r\no mesh\r\n"
		 "v 0 0 0\r\nv 1 0 0 1\r\nv 1 0 1 0.5 0.5 0.5\r\nv 0 0 1\r\n"
		 "vt 0 0\r\nvn 0 1 0\r\ng floor\r\nusemtl m\r\ns off\r\n\r\n"
		 "f 1/1/1 2/1/1 3/1/1 4/1/1\r\n"
		 "v 2 0 0\r\nv 2 0 1\r\n"
		 "f -1//1 -2//1 2 3/1\r\n", &m);
	ck_assert_uint_eq(m.poly_count, 2);
	ck_assert_uint_eq(m.arc_count, 2);
	ck_assert(m.area2[0] * m.area2[1] < 0);   /* windings differ */
	/* Walking 0 -> 1 over the edge x = 1: left is (1, 1) in x-z sense. */
	uint32_t l = m.arc_left[m.arc_first[0]], r = m.arc_right[m.arc_first[0]];
	double c0[3] = { m.centroid[0], 0, m.centroid[1] };
	ck_assert(twz_nm_area2(c0, m.vert + 3 * r, m.vert + 3 * l) > 0);
	twz_navmesh_free(&m);

	/* A straight-angle vertex (collinear neighbours) is convex. */
	parse_ok("v 0 0 0\nv 1 0 0\nv 2 0 0\nv 2 0 1\nv 0 0 1\nf 1 2 3 4 5\n", &m);
	ck_assert_uint_eq(m.poly_count, 1);
	ck_assert_uint_eq(m.arc_count, 0);
	twz_navmesh_free(&m);

	/* A straight run as a float-computing builder prints it: the
	 * middle vertex 8e-6 off the line, either way, is still straight. */
	parse_ok("v 100.000000 0 50.000000\nv 100.300003 0 50.000008\n"
		 "v 100.600006 0 50.000000\nv 100.600006 0 51\nv 100 0 51\n"
		 "f 1 2 3 4 5\n", &m);
	twz_navmesh_free(&m);
	parse_ok("v 100.000000 0 50.000000\nv 100.300003 0 49.999992\n"
		 "v 100.600006 0 50.000000\nv 100.600006 0 51\nv 100 0 51\n"
		 "f 1 2 3 4 5\n", &m);
	twz_navmesh_free(&m);

	/* Triangles: a fan of a square around its centre. */
	parse_ok("v 0 0 0\nv 2 0 0\nv 2 0 2\nv 0 0 2\nv 1 0 1\n"
		 "f 5 1 2\nf 5 2 3\nf 5 3 4\nf 5 4 1\n", &m);
	ck_assert_uint_eq(m.poly_count, 4);
	ck_assert_uint_eq(m.arc_count, 8);
	twz_navmesh_free(&m);
}
END_TEST

START_TEST(refuses_malformed)
{
	refused("", 0, "no faces");
	refused("v 0 0 0\nv 1 0 0\nv 0 0 1\n", 0, "no faces");
	refused("v 0 0 0\nv 1 0 0\nf 1 2\n", 3, "3 or more");
	refused("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n", 4, "out of range");
	refused("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 -4\n", 4, "out of range");
	refused("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 0\n", 4, "not a vertex index");
	refused("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 x\n", 4, "not a vertex index");
	refused("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3/a\n", 4, "not a vertex index");
	refused("v 0 0 nan\nv 1 0 0\nv 0 0 1\nf 1 2 3\n", 1, "NaN");
	refused("v 0 0 0\nv inf 0 0\nv 0 0 1\nf 1 2 3\n", 2, "infinite");
	refused("v 0 0 0\nv 1e300 0 0\nv 0 0 1\nf 1 2 3\n", 2, "too large");
	refused("v 0 0\nf 1 1 1\n", 1, "x y z");
	refused("v 0 0 zero\n", 1, "not a number");
	/* Degenerate: a repeated index, zero area (collinear, or the same
	 * x-z point at two heights), an edge folding back. */
	refused("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 1\n", 4, "degenerate");
	refused("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n", 4, "degenerate");
	refused("v 0 0 0\nv 0 1 0\nv 1 0 1\nf 1 2 3\n", 4, "degenerate");
	refused("v 0 0 0\nv 2 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 3 4\n", 5, "degenerate");
	/* Non-convex: an arrow head, and a pentagram (turns one way but
	 * winds twice). */
	refused("v 0 0 0\nv 2 0 1\nv 0 0 2\nv 1 0 1\nf 1 2 3 4\n", 5, "non-convex");
	refused("v 100 0 50\nv 100.3 0 50.01\nv 100.6 0 50\nv 100.6 0 51\nv 100 0 51\n"
		"f 1 2 3 4 5\n", 6, "non-convex");
	refused("v 0 0 3\nv 1.76 0 -2.43\nv -2.85 0 0.93\nv 2.85 0 0.93\n"
		"v -1.76 0 -2.43\nf 1 2 3 4 5\n", 6, "non-convex");
	/* An edge shared by three faces. */
	refused("v 0 0 0\nv 1 0 0\nv 0 0 1\nv 0 0 -1\nv 1 0 1\n"
		"f 1 2 3\nf 2 1 4\nf 1 2 5\n", 8, "more than two faces");
	refused("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\nbogus 1\n", 5, "unknown statement");
	refused("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3 \\\n", 4, "continuation");
	refused("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n\x01\x02\x00x\n", 5, "unknown");
}
END_TEST

/* Costs are the geometry's, keys are exact integers that keep sums
 * exact, and both directions of an arc cost the same. */
START_TEST(graph_costs_and_keys)
{
	struct twz_navmesh m;
	struct twz_error err = { { 0 }, 0 };
	const char *obj = twz_test_source_file("data/rooms.obj");

	ck_assert_msg(twz_navmesh_load(obj, &m, &err) == 0, "%s", err.msg);
	ck_assert_uint_gt(m.poly_count, 40);
	double total = 0;
	uint64_t keys = 0;
	for (uint32_t p = 0; p < m.poly_count; p++)
		for (uint32_t a = m.arc_first[p]; a < m.arc_first[p + 1]; a++) {
			uint32_t h = m.arc_head[a], back = UINT32_MAX;
			for (uint32_t b = m.arc_first[h]; b < m.arc_first[h + 1]; b++)
				if (m.arc_head[b] == p)
					back = b;
			ck_assert_msg(back != UINT32_MAX, "arc %u -> %u has no way back", p, h);
			ck_assert_uint_eq(m.arc_key[a], m.arc_key[back]);
			ck_assert(m.arc_left[a] == m.arc_right[back] &&
				  m.arc_right[a] == m.arc_left[back]);
			const double *pl = m.vert + 3 * m.arc_left[a];
			const double *pr = m.vert + 3 * m.arc_right[a];
			double want = twz_nm_arc_cost(m.centroid[2 * p], m.centroid[2 * p + 1],
						      m.centroid[2 * h], m.centroid[2 * h + 1],
						      pl, pr);
			ck_assert_double_eq_tol(m.arc_cost[a], want, 1e-12);
			ck_assert(fabs(m.arc_key[a] - m.arc_cost[a] * m.scale) <= 0.5);
			/* Left of the walk from p's centroid. */
			double c[3] = { m.centroid[2 * p], 0, m.centroid[2 * p + 1] };
			ck_assert(twz_nm_area2(c, pr, pl) > 0);
			total += m.arc_cost[a];
			keys += m.arc_key[a];
		}
	ck_assert(keys <= (uint64_t)TWZ_NAVMESH_KEY_BUDGET);
	ck_assert(total * m.scale > TWZ_NAVMESH_KEY_BUDGET / 8);
	twz_navmesh_free(&m);
}
END_TEST


/* ---- databases ------------------------------------------------------- */

static uint8_t *bake_mesh(const struct twz_navmesh *m, unsigned apsp,
			  unsigned threads, unsigned codec, size_t *len)
{
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;

	twz_bake_options_default(&opt);
	opt.threads = threads;
	opt.codec = codec;
	opt.level = 3;
	opt.apsp = apsp;
	opt.name = "mesh";
	ck_assert_msg(twz_bake_navmesh(m, &opt, NULL, &buf, len, &err) == 0,
		      "bake: %s", err.msg);
	return buf;
}

static void load_rooms(struct twz_navmesh *m)
{
	struct twz_error err = { { 0 }, 0 };

	ck_assert_msg(twz_navmesh_load(twz_test_source_file("data/rooms.obj"), m,
				       &err) == 0, "%s", err.msg);
}

/* Plain Dijkstra over the reader's graph, in its real costs. */
static void mesh_dijkstra(const struct twz_navmesh *m, uint32_t s, double *dist)
{
	uint8_t *done = calloc(m->poly_count, 1);

	ck_assert(done != NULL);
	for (uint32_t v = 0; v < m->poly_count; v++)
		dist[v] = INFINITY;
	dist[s] = 0;
	for (;;) {
		uint32_t u = UINT32_MAX;
		for (uint32_t v = 0; v < m->poly_count; v++)
			if (!done[v] && isfinite(dist[v]) &&
			    (u == UINT32_MAX || dist[v] < dist[u]))
				u = v;
		if (u == UINT32_MAX)
			break;
		done[u] = 1;
		for (uint32_t a = m->arc_first[u]; a < m->arc_first[u + 1]; a++)
			if (dist[u] + m->arc_cost[a] < dist[m->arc_head[a]])
				dist[m->arc_head[a]] = dist[u] + m->arc_cost[a];
	}
	free(done);
}

/* A random point inside face f: a random convex combination. */
static void random_point(const struct twz_navmesh *m, uint32_t f, uint64_t *s,
			 float *out)
{
	const uint32_t *idx = m->poly_vert + m->poly_first[f];
	uint32_t n = m->poly_first[f + 1] - m->poly_first[f];
	double w[TWZ_NAVMESH_MAX_POLY_VERTS], sum = 0, p[3] = { 0, 0, 0 };

	for (uint32_t i = 0; i < n; i++)
		sum += w[i] = (double)(rng_next(s) % 1000) + 50;
	for (uint32_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
			p[k] += w[i] / sum * m->vert[3 * (size_t)idx[i] + k];
	for (int k = 0; k < 3; k++)
		out[k] = (float)p[k];
}

static int in_face(const struct twz_navmesh *m, uint32_t f, double x, double z,
		   double tol)
{
	const uint32_t *idx = m->poly_vert + m->poly_first[f];
	uint32_t n = m->poly_first[f + 1] - m->poly_first[f];
	double sign = m->area2[f] > 0 ? 1 : -1, pt[3] = { x, 0, z };

	for (uint32_t i = 0; i < n; i++) {
		const double *a = m->vert + 3 * (size_t)idx[i];
		const double *b = m->vert + 3 * (size_t)idx[(i + 1) % n];
		if (sign * twz_nm_area2(a, b, pt) < -tol * twz_nm_dist2d(a, b))
			return 0;
	}
	return 1;
}

/* x-z distance between segments a-b and c-d. */
static double seg_dist(const double *a, const double *b, const double *c,
		       const double *d)
{
	double d1 = twz_nm_area2(a, b, c), d2 = twz_nm_area2(a, b, d);
	double d3 = twz_nm_area2(c, d, a), d4 = twz_nm_area2(c, d, b);

	if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) &&
	    ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
		return 0;
	const double *p[4] = { a, b, c, d }, *q0[4] = { c, c, a, a }, *q1[4] = { d, d, b, b };
	double best = INFINITY;
	for (int i = 0; i < 4; i++) {
		double t = twz_nm_segment_param(q0[i], q1[i], p[i][0], p[i][2]);
		double x = q0[i][0] + t * (q1[i][0] - q0[i][0]);
		double z = q0[i][2] + t * (q1[i][2] - q0[i][2]);
		double dd = hypot(x - p[i][0], z - p[i][2]);
		if (dd < best)
			best = dd;
	}
	return best;
}

/* Check `pairs` random queries of db (baked from m): corridor optimal
 * against the Dijkstra, joining the two located polygons; funnel path
 * from start to goal exactly, inside the corridor, through each portal
 * in order, no longer than the midpoint path. */
static void check_queries(const struct twz_navmesh *m, const twz_db *db,
			  uint64_t seed, unsigned pairs, const char *what)
{
	uint32_t n = m->poly_count;
	double *dist = malloc(n * sizeof *dist);
	twz_node *cor = malloc((n + 1) * sizeof *cor);
	float (*fun)[3] = malloc((n + 2) * sizeof *fun);
	float (*mid)[3] = malloc((n + 2) * sizeof *mid);
	uint64_t s = seed;
	unsigned reached = 0;

	ck_assert(dist && cor && fun && mid);
	for (unsigned q = 0; q < pairs; q++) {
		uint32_t fa = (uint32_t)(rng_next(&s) % n);
		uint32_t fb = (uint32_t)(rng_next(&s) % n);
		float a[3], b[3];
		random_point(m, fa, &s, a);
		random_point(m, fb, &s, b);
		twz_node na = twz_navmesh_locate(db, a), nb = twz_navmesh_locate(db, b);
		ck_assert_msg(na != TWZ_NONE && nb != TWZ_NONE, "%s: a point inside a face is off the mesh", what);
		int64_t ia, ib;
		ck_assert(twz_node_id(db, na, &ia) == TWZ_OK && twz_node_id(db, nb, &ib) == TWZ_OK);
		/* A point strictly inside a face of a flat-floored mesh
		 * lies in it or, on a shared edge, its neighbour. */
		ck_assert(in_face(m, (uint32_t)ia, a[0], a[2], 1e-4));
		mesh_dijkstra(m, (uint32_t)ia, dist);
		size_t clen, plen, mlen;
		twz_status st = twz_navmesh_path(db, a, b, TWZ_WAYPOINTS_FUNNEL, cor,
						 n, &clen, fun, n + 2, &plen);
		if (!isfinite(dist[ib])) {
			ck_assert_msg(st == TWZ_E_UNREACHABLE, "%s: %s for an unreachable goal",
				      what, twz_strerror(st));
			continue;
		}
		ck_assert_msg(st == TWZ_OK, "%s: %s", what, twz_strerror(st));
		reached++;
		ck_assert(cor[0] == na && cor[clen - 1] == nb);
		double cost;
		ck_assert(twz_navmesh_cost(db, cor, clen, &cost) == TWZ_OK);
		ck_assert_msg(fabs(cost - dist[ib]) <= 1e-9 * (dist[ib] + 1),
			      "%s: corridor %lld -> %lld costs %.12f, Dijkstra %.12f", what,
			      (long long)ia, (long long)ib, cost, dist[ib]);
		uint64_t key;
		ck_assert(twz_cost_u64(db, na, nb, &key) == TWZ_OK);
		/* Exact endpoints, a bounded count. */
		ck_assert(plen >= 2 && plen <= clen + 1);
		ck_assert(memcmp(fun[0], a, sizeof a) == 0);
		ck_assert(memcmp(fun[plen - 1], b, sizeof b) == 0);
		ck_assert(twz_navmesh_waypoints(db, a, b, cor, clen, TWZ_WAYPOINTS_MIDPOINTS,
						mid, n + 2, &mlen) == TWZ_OK);
		ck_assert_uint_eq(mlen, clen + 1);
		double fl = 0, ml = 0;
		for (size_t i = 1; i < plen; i++)
			fl += hypot((double)fun[i][0] - fun[i - 1][0], (double)fun[i][2] - fun[i - 1][2]);
		for (size_t i = 1; i < mlen; i++)
			ml += hypot((double)mid[i][0] - mid[i - 1][0], (double)mid[i][2] - mid[i - 1][2]);
		ck_assert_msg(fl <= ml + 1e-5, "%s: funnel %.9f longer than midpoints %.9f", what, fl, ml);
		/* Inside the corridor: samples of every segment lie in one of
		 * its polygons. */
		for (size_t i = 1; i < plen; i++)
			for (int k = 0; k <= 16; k++) {
				double x = fun[i - 1][0] + (fun[i][0] - fun[i - 1][0]) * k / 16.0;
				double z = fun[i - 1][2] + (fun[i][2] - fun[i - 1][2]) * k / 16.0;
				int inside = 0;
				for (size_t c = 0; c < clen && !inside; c++) {
					int64_t f;
					twz_node_id(db, cor[c], &f);
					inside = in_face(m, (uint32_t)f, x, z, 1e-4);
				}
				ck_assert_msg(inside, "%s: funnel point (%g, %g) outside its corridor", what, x, z);
			}
		/* Through each portal in order. */
		size_t seg = 1;
		for (size_t c = 0; c + 1 < clen; c++) {
			float l[3], r[3];
			ck_assert(twz_navmesh_portal(db, cor[c], cor[c + 1], l, r) == TWZ_OK);
			double dl[3] = { l[0], l[1], l[2] }, dr[3] = { r[0], r[1], r[2] };
			while (seg < plen) {
				double p0[3] = { fun[seg - 1][0], 0, fun[seg - 1][2] };
				double p1[3] = { fun[seg][0], 0, fun[seg][2] };
				if (seg_dist(p0, p1, dl, dr) <= 1e-4)
					break;
				seg++;
			}
			ck_assert_msg(seg < plen, "%s: the funnel path misses portal %zu of %zu",
				      what, c, clen - 1);
		}
	}
	ck_assert_msg(reached > pairs / 4, "%s: too few reachable pairs (%u)", what, reached);
	free(dist);
	free(cor);
	free(fun);
	free(mid);
}

START_TEST(rooms_corridors_and_funnels)
{
	struct twz_navmesh m;
	size_t len;

	load_rooms(&m);
	uint8_t *buf = bake_mesh(&m, TWZ_APSP_DIJKSTRA, 2, TWZ_CODEC_ZSTD, &len);
	twz_db *db = twz_test_open_buf(buf, len);
	twz_info in;
	ck_assert(twz_get_info(db, &in) == TWZ_OK);
	ck_assert_uint_eq(in.level_kind, TWZ_KIND_NAVMESH);
	ck_assert_uint_eq(in.node_count, m.poly_count);
	ck_assert_uint_eq(in.format_minor, 4);
	check_queries(&m, db, 12345, 400, "rooms");
	twz_close(db);
	free(buf);
	twz_navmesh_free(&m);
}
END_TEST

/* An L of three squares: the funnel bends at the inner corner, and only
 * there; a straight view needs no corner. */
START_TEST(funnel_known_corners)
{
	struct twz_navmesh m;
	size_t len, cl, pl;
	twz_node cor[8];
	float pts[8][3];

	parse_ok("v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 0 1\nv 1 0.5 1\nv 2 0 1\n"
		 "v 1 0 2\nv 2 0 2\n"
		 "f 1 2 5 4\nf 2 3 6 5\nf 5 6 8 7\n", &m);
	uint8_t *buf = bake_mesh(&m, TWZ_APSP_DIJKSTRA, 1, TWZ_CODEC_RAW, &len);
	twz_db *db = twz_test_open_buf(buf, len);
	float a[3] = { 0.5f, 0, 0.5f }, b[3] = { 1.25f, 0, 1.75f };
	ck_assert(twz_navmesh_path(db, a, b, TWZ_WAYPOINTS_FUNNEL, cor, 8, &cl, pts, 8, &pl) == TWZ_OK);
	ck_assert_uint_eq(cl, 3);
	ck_assert_uint_eq(pl, 3);
	ck_assert(pts[1][0] == 1 && pts[1][1] == 0.5f && pts[1][2] == 1);
	/* The other way round: the same corner. */
	ck_assert(twz_navmesh_path(db, b, a, TWZ_WAYPOINTS_FUNNEL, cor, 8, &cl, pts, 8, &pl) == TWZ_OK);
	ck_assert_uint_eq(pl, 3);
	ck_assert(pts[1][0] == 1 && pts[1][2] == 1);
	/* In sight across the first portal: straight. */
	float c[3] = { 1.75f, 0, 0.5f };
	ck_assert(twz_navmesh_path(db, a, c, TWZ_WAYPOINTS_FUNNEL, cor, 8, &cl, pts, 8, &pl) == TWZ_OK);
	ck_assert_uint_eq(cl, 2);
	ck_assert_uint_eq(pl, 2);
	/* Midpoints: (1, 0.25, 0.5) then (1.5, 0.25, 1). */
	ck_assert(twz_navmesh_path(db, a, b, TWZ_WAYPOINTS_MIDPOINTS, cor, 8, &cl, pts, 8, &pl) == TWZ_OK);
	ck_assert_uint_eq(pl, 4);
	ck_assert(pts[1][0] == 1 && pts[1][1] == 0.25f && pts[1][2] == 0.5f);
	ck_assert(pts[2][0] == 1.5f && pts[2][1] == 0.25f && pts[2][2] == 1);
	double cost;
	ck_assert(twz_navmesh_cost(db, cor, cl, &cost) == TWZ_OK);
	ck_assert_double_eq_tol(cost, 2.0, 1e-12);
	twz_close(db);
	free(buf);
	twz_navmesh_free(&m);
}
END_TEST

START_TEST(random_meshes)
{
	for (unsigned k = 0; k < 6; k++) {
		struct twz_navmesh m;
		struct twz_error err = { { 0 }, 0 };
		char what[32];
		char *obj = twz_test_random_obj(1000 + k, 6 + 3 * k, 5 + 2 * k);
		size_t len;
		snprintf(what, sizeof what, "random mesh %u", k);
		ck_assert_msg(parse(obj, &m, &err) == 0, "%s: %s", what, err.msg);
		uint8_t *buf = bake_mesh(&m, TWZ_APSP_DIJKSTRA, 1, TWZ_CODEC_RAW, &len);
		twz_db *db = twz_test_open_buf(buf, len);
		check_queries(&m, db, 77 + k, 150, what);
		twz_close(db);
		free(buf);
		twz_navmesh_free(&m);
		free(obj);
	}
}
END_TEST

/* The floors overlap in x-z: the height picks the polygon. */
START_TEST(overlapping_floors)
{
	struct twz_navmesh m;
	size_t len;

	load_rooms(&m);
	uint8_t *buf = bake_mesh(&m, TWZ_APSP_DIJKSTRA, 1, TWZ_CODEC_RAW, &len);
	twz_db *db = twz_test_open_buf(buf, len);
	float v[TWZ_NAVMESH_MAX_POLY_VERTS][3];
	size_t nv;
	/* (17, 10) lies under the upper corridor and in a ground room. */
	static const float heights[] = { 0, 3, -0.5f, 0.4f, 2.2f, 9 };
	static const float want[] = { 0, 3, 0, 0, 3, 3 };
	for (unsigned i = 0; i < 6; i++) {
		float p[3] = { 17, heights[i], 11 };
		twz_node n = twz_navmesh_locate(db, p);
		ck_assert(n != TWZ_NONE);
		ck_assert(twz_navmesh_polygon(db, n, v, TWZ_NAVMESH_MAX_POLY_VERTS, &nv) == TWZ_OK);
		ck_assert_msg(v[0][1] == want[i], "height %g located on floor %g", heights[i], v[0][1]);
	}
	/* Off the mesh, then the nearest polygon within a distance. */
	float off[3] = { -1, 0, 4 }, near[3];
	twz_node n;
	ck_assert(twz_navmesh_locate(db, off) == TWZ_NONE);
	ck_assert(twz_navmesh_nearest(db, off, 0.5f, &n, near) == TWZ_E_OUT_OF_RANGE);
	ck_assert(n == TWZ_NONE);
	ck_assert(twz_navmesh_nearest(db, off, 1.5f, &n, near) == TWZ_OK);
	ck_assert(fabsf(near[0]) < 1e-6f && fabsf(near[2] - 4) < 1e-6f && near[1] == 0);
	ck_assert(twz_navmesh_locate(db, near) == n);
	/* Above the upper corridor: the nearest is on it, 2 below. */
	float above[3] = { 30, 5, 10 };
	ck_assert(twz_navmesh_nearest(db, above, INFINITY, &n, near) == TWZ_OK);
	ck_assert(near[1] == 3 && near[0] == 30 && near[2] == 10);
	/* Arguments. */
	float nan3[3] = { NAN, 0, 0 };
	ck_assert(twz_navmesh_locate(db, nan3) == TWZ_NONE);
	ck_assert(twz_navmesh_locate(NULL, off) == TWZ_NONE);
	ck_assert(twz_navmesh_nearest(db, nan3, 1, &n, NULL) == TWZ_E_ARGUMENT);
	ck_assert(twz_navmesh_polygon(db, (twz_node)m.poly_count, v, 4, &nv) == TWZ_E_ARGUMENT);
	/* A corridor of non-adjacent polygons, sizes too small. */
	float a[3] = { 1, 0, 1 }, b[3] = { 17, 3, 10 }, pts[4][3];
	twz_node cor[2] = { twz_navmesh_locate(db, a), twz_navmesh_locate(db, b) };
	size_t cnt, clen;
	ck_assert(twz_navmesh_waypoints(db, a, b, cor, 2, TWZ_WAYPOINTS_FUNNEL, pts, 4, &cnt) == TWZ_E_ARGUMENT);
	twz_node big[128];
	ck_assert(twz_navmesh_path(db, a, b, TWZ_WAYPOINTS_MIDPOINTS, big, 2, &clen, pts, 4, &cnt) == TWZ_E_BUFFER_TOO_SMALL);
	ck_assert_uint_gt(clen, 2);
	ck_assert(twz_navmesh_path(db, a, b, TWZ_WAYPOINTS_MIDPOINTS, big, 128, &clen, pts, 4, &cnt) == TWZ_E_BUFFER_TOO_SMALL);
	ck_assert_uint_eq(cnt, clen + 1);
	/* One polygon: start and goal. */
	float c[3] = { 2, 0, 2 };
	ck_assert(twz_navmesh_path(db, a, c, TWZ_WAYPOINTS_FUNNEL, big, 128, &clen, pts, 4, &cnt) == TWZ_OK);
	ck_assert_uint_eq(clen, 1);
	ck_assert_uint_eq(cnt, 2);
	twz_close(db);
	free(buf);
	twz_navmesh_free(&m);
}
END_TEST

/* The three solvers and any thread count bake the same bytes. */
START_TEST(solvers_and_threads_agree)
{
	struct twz_navmesh m;
	size_t ref_len, len;
	char *obj = twz_test_random_obj(99, 12, 9);
	struct twz_error err = { { 0 }, 0 };

	for (int pass = 0; pass < 2; pass++) {
		if (pass == 0)
			load_rooms(&m);
		else
			ck_assert_msg(parse(obj, &m, &err) == 0, "%s", err.msg);
		uint8_t *ref = bake_mesh(&m, TWZ_APSP_DIJKSTRA, 1, TWZ_CODEC_ZSTD, &ref_len);
		static const unsigned runs[][2] = {
			{ TWZ_APSP_DIJKSTRA, 2 }, { TWZ_APSP_FLOYD, 1 },
			{ TWZ_APSP_FLOYD, 2 }, { TWZ_APSP_SQUARING, 1 },
			{ TWZ_APSP_SQUARING, 2 },
		};
		for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
			uint8_t *buf = bake_mesh(&m, runs[i][0], runs[i][1], TWZ_CODEC_ZSTD, &len);
			ck_assert_msg(len == ref_len && memcmp(buf, ref, len) == 0,
				      "--apsp %s on %u threads differs", twz_apsp_solver_name(runs[i][0]),
				      runs[i][1]);
			free(buf);
		}
		free(ref);
		twz_navmesh_free(&m);
	}
	free(obj);
}
END_TEST

/* ---- hostile files ------------------------------------------------------ */

static uint8_t *entry_of(uint8_t *buf, uint32_t kind)
{
	uint32_t n = twz_le32(buf + TWZ_H_SECTION_COUNT);

	for (uint32_t i = 0; i < n && i < TWZ_MAX_SECTIONS; i++) {
		uint8_t *e = buf + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		if (twz_le32(e + TWZ_S_KIND) == kind)
			return e;
	}
	return NULL;
}

static uint8_t *section(uint8_t *buf, uint32_t kind, uint64_t *size)
{
	uint8_t *e = entry_of(buf, kind);

	ck_assert_msg(e != NULL, "no section %u", kind);
	ck_assert_uint_eq(twz_le16(e + TWZ_S_CODEC), TWZ_CODEC_RAW);
	*size = twz_le64(e + TWZ_S_SIZE);
	return buf + twz_le64(e + TWZ_S_OFFSET);
}

/* Checksums recomputed, as a crafter would. */
static void reseal(uint8_t *buf, size_t len)
{
	uint32_t n = twz_le32(buf + TWZ_H_SECTION_COUNT);

	for (uint32_t i = 0; i < n && i < TWZ_MAX_SECTIONS; i++) {
		uint8_t *e = buf + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		uint64_t off = twz_le64(e + TWZ_S_OFFSET), size = twz_le64(e + TWZ_S_SIZE);
		if (off <= len && size <= len - off)
			twz_put64(e + TWZ_S_RAW_CHECKSUM, twz_checksum(buf + off, (size_t)size));
	}
	twz_put64(buf + TWZ_H_TABLE_CHECKSUM,
		  twz_checksum(buf + TWZ_HEADER_SIZE, (size_t)n * TWZ_SECTION_ENTRY_SIZE));
	twz_put64(buf + TWZ_H_HEADER_CHECKSUM, twz_checksum(buf, TWZ_H_HEADER_CHECKSUM));
}

/* Whatever a file that opened answers, a few queries end. */
static void queries_end(const twz_db *db)
{
	twz_node cor[256];
	float pts[257][3];
	size_t cl, pl;
	static const float pos[][3] = { { 1, 0, 1 }, { 17, 3, 10 }, { 45, 2, 4 }, { 5, 0, 25 } };

	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			twz_navmesh_path(db, pos[i], pos[j], TWZ_WAYPOINTS_FUNNEL, cor, 256,
					 &cl, pts, 257, &pl);
			twz_node n;
			twz_navmesh_nearest(db, pos[i], 3, &n, pts[0]);
		}
}

static twz_status open_sealed(uint8_t *buf, size_t len)
{
	twz_db *db;

	reseal(buf, len);
	twz_status st = twz_open_memory(buf, len, 0, &db);
	if (st == TWZ_OK) {
		queries_end(db);
		twz_close(db);
	}
	return st;
}

START_TEST(hostile_sections)
{
	struct twz_navmesh m;
	size_t len;
	uint64_t sz;

	load_rooms(&m);
	uint8_t *ref = bake_mesh(&m, TWZ_APSP_DIJKSTRA, 1, TWZ_CODEC_RAW, &len);
	uint8_t *buf = malloc(len);
	ck_assert(buf != NULL);
#define FRESH() memcpy(buf, ref, len)
	FRESH();
	ck_assert_int_eq(open_sealed(buf, len), TWZ_OK);

	/* Parameters. */
	uint8_t *pr;
	static const struct { unsigned off; uint32_t v; } bad_params[] = {
		{ TWZ_NP_POLYS, 1 }, { TWZ_NP_VERTICES, 0 }, { TWZ_NP_INDICES, 5 },
		{ TWZ_NP_ARCS, 0xFFFFFFFFu }, { TWZ_NP_COLS, 0 },
		{ TWZ_NP_ROWS, 0x10000000u }, { TWZ_NP_ENTRIES, 0xFFFFFFF0u },
		{ TWZ_NP_MAX_VERTS, 2 }, { TWZ_NP_MAX_VERTS, 256 },
	};
	for (size_t i = 0; i < sizeof bad_params / sizeof bad_params[0]; i++) {
		FRESH();
		pr = section(buf, TWZ_SECTION_NAVMESH_PARAMS, &sz);
		twz_put32(pr + bad_params[i].off, bad_params[i].v);
		ck_assert_msg(open_sealed(buf, len) != TWZ_OK, "param at %u accepted",
			      bad_params[i].off);
	}
	static const unsigned fields[] = { TWZ_NP_ORIGIN_X, TWZ_NP_CELL, TWZ_NP_SCALE };
	static const double values[] = { NAN, INFINITY, -1, 0, 1e300 };
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 5; j++) {
			if (fields[i] == TWZ_NP_ORIGIN_X && (values[j] == -1 || values[j] == 0))
				continue;
			/* The scale only says what a key is worth. */
			if (fields[i] == TWZ_NP_SCALE && values[j] == 1e300)
				continue;
			FRESH();
			pr = section(buf, TWZ_SECTION_NAVMESH_PARAMS, &sz);
			twz_putf64(pr + fields[i], values[j]);
			ck_assert_msg(open_sealed(buf, len) != TWZ_OK, "f64 %g at %u accepted",
				      values[j], fields[i]);
		}
	/* A vertex not finite, or too far. */
	FRESH();
	twz_putf64(section(buf, TWZ_SECTION_NAVMESH_VERTICES, &sz) + 16, NAN);
	ck_assert_int_eq(open_sealed(buf, len), TWZ_E_DAMAGED);
	FRESH();
	twz_putf64(section(buf, TWZ_SECTION_NAVMESH_VERTICES, &sz), 1e13);
	ck_assert_int_eq(open_sealed(buf, len), TWZ_E_DAMAGED);
	/* Polygons: falling offsets, too few vertices, an id out of range,
	 * zero area. */
	FRESH();
	uint8_t *po = section(buf, TWZ_SECTION_NAVMESH_POLYS, &sz);
	twz_put32(po + 4, twz_le32(po + 8) + 1);
	ck_assert_int_eq(open_sealed(buf, len), TWZ_E_DAMAGED);
	FRESH();
	po = section(buf, TWZ_SECTION_NAVMESH_POLYS, &sz);
	twz_put32(po + 4, 2);
	ck_assert_int_eq(open_sealed(buf, len), TWZ_E_DAMAGED);
	FRESH();
	uint8_t *pv = section(buf, TWZ_SECTION_NAVMESH_POLY_VERTS, &sz);
	twz_put32(pv + 4, 0xFFFFFFFFu);
	ck_assert_int_eq(open_sealed(buf, len), TWZ_E_DAMAGED);
	FRESH();
	pv = section(buf, TWZ_SECTION_NAVMESH_POLY_VERTS, &sz);
	po = section(buf, TWZ_SECTION_NAVMESH_POLYS, &sz);
	for (uint32_t i = 1; i < twz_le32(po + 4); i++)
		twz_put32(pv + 4 * i, twz_le32(pv));
	ck_assert_int_eq(open_sealed(buf, len), TWZ_E_DAMAGED);
	/* Portals: a head out of range, an edge neither polygon has, arc
	 * offsets that do not add up. */
	FRESH();
	uint8_t *pt = section(buf, TWZ_SECTION_NAVMESH_PORTALS, &sz);
	twz_put32(pt + TWZ_NA_HEAD, m.poly_count);
	ck_assert_int_eq(open_sealed(buf, len), TWZ_E_DAMAGED);
	FRESH();
	pt = section(buf, TWZ_SECTION_NAVMESH_PORTALS, &sz);
	twz_put32(pt + TWZ_NA_HEAD, (twz_le32(pt + TWZ_NA_HEAD) + 7) % m.poly_count);
	ck_assert_int_eq(open_sealed(buf, len), TWZ_E_DAMAGED);
	FRESH();
	pt = section(buf, TWZ_SECTION_NAVMESH_PORTALS, &sz);
	twz_put32(pt + TWZ_NA_LEFT, twz_le32(pt + TWZ_NA_RIGHT));
	ck_assert_int_eq(open_sealed(buf, len), TWZ_E_DAMAGED);
	FRESH();
	uint8_t *af = section(buf, TWZ_SECTION_NAVMESH_ARC_FIRST, &sz);
	twz_put32(af + 4 * m.poly_count, m.arc_count - 1);
	ck_assert_int_eq(open_sealed(buf, len), TWZ_E_DAMAGED);
	/* The grid: a polygon out of range, lists out of order, a polygon
	 * missing from a cell its box meets. */
	FRESH();
	uint8_t *cp = section(buf, TWZ_SECTION_NAVMESH_CELL_POLYS, &sz);
	twz_put32(cp, m.poly_count);
	ck_assert_int_eq(open_sealed(buf, len), TWZ_E_DAMAGED);
	FRESH();
	uint8_t *cf = section(buf, TWZ_SECTION_NAVMESH_CELLS, &sz);
	cp = section(buf, TWZ_SECTION_NAVMESH_CELL_POLYS, &sz);
	uint64_t cells = sz / 4, k = 0;
	(void)cells;
	uint64_t ncell = section(buf, TWZ_SECTION_NAVMESH_CELLS, &sz) ? sz / 4 - 1 : 0;
	while (k < ncell && twz_le32(cf + 4 * (k + 1)) - twz_le32(cf + 4 * k) < 2)
		k++;
	ck_assert(k < ncell);
	uint32_t at = twz_le32(cf + 4 * k);
	uint32_t x0 = twz_le32(cp + 4 * at), x1 = twz_le32(cp + 4 * (at + 1));
	twz_put32(cp + 4 * at, x1);
	twz_put32(cp + 4 * (at + 1), x0);
	ck_assert_int_eq(open_sealed(buf, len), TWZ_E_DAMAGED);
	FRESH();
	cp = section(buf, TWZ_SECTION_NAVMESH_CELL_POLYS, &sz);
	twz_put32(cp + 4 * (at + 1), x0);   /* x1 gone, x0 twice */
	ck_assert_int_eq(open_sealed(buf, len), TWZ_E_DAMAGED);
	FRESH();
	cf = section(buf, TWZ_SECTION_NAVMESH_CELLS, &sz);
	twz_put32(cf + 4 * (k + 1), twz_le32(cf + 4 * (k + 1)) - 1);  /* x1 moves to the next cell */
	ck_assert_int_eq(open_sealed(buf, len), TWZ_E_DAMAGED);
	/* Level kind and feature bit must agree. */
	FRESH();
	buf[TWZ_H_LEVEL_KIND] = TWZ_LEVEL_GRAPH;
	ck_assert(open_sealed(buf, len) != TWZ_OK);
	FRESH();
	twz_put64(buf + TWZ_H_REQUIRED, twz_le64(buf + TWZ_H_REQUIRED) & ~(uint64_t)TWZ_FEATURE_NAVMESH);
	ck_assert(open_sealed(buf, len) != TWZ_OK);
	/* A navmesh section missing: its kind renamed to an unknown one. */
	FRESH();
	twz_put32(entry_of(buf, TWZ_SECTION_NAVMESH_PORTALS) + TWZ_S_KIND, 79);
	ck_assert(open_sealed(buf, len) != TWZ_OK);

	/* Every byte of the navmesh sections set to 0xFF and to 0x80 in
	 * turn: refused or answering, never a crash. */
	for (uint32_t kind = TWZ_SECTION_NAVMESH_FIRST; kind <= TWZ_SECTION_NAVMESH_MAX; kind++) {
		FRESH();
		uint8_t *sec = section(buf, kind, &sz);
		size_t off = (size_t)(sec - buf);
		for (size_t i = 0; i < sz; i += (kind == TWZ_SECTION_NAVMESH_VERTICES ? 5 : 1))
			for (int v = 0; v < 2; v++) {
				FRESH();
				buf[off + i] = v ? 0x80 : 0xFF;
				open_sealed(buf, len);
			}
	}
	/* Truncated anywhere: refused. */
	for (size_t cut = 0; cut < len; cut += 97) {
		twz_db *db;
		ck_assert(twz_open_memory(ref, cut, 0, &db) != TWZ_OK);
	}
#undef FRESH
	free(buf);
	free(ref);
	twz_navmesh_free(&m);
}
END_TEST

/* ---- the golden file and the command line ------------------------------- */

START_TEST(golden_file)
{
	struct twz_navmesh m;
	twz_db *db;
	const char *path = twz_test_source_file("tests/golden/v1_4_navmesh.twz");

	load_rooms(&m);
	ck_assert_msg(twz_open(path, 0, &db) == TWZ_OK, "%s does not open", path);
	twz_info in;
	ck_assert(twz_get_info(db, &in) == TWZ_OK);
	ck_assert_uint_eq(in.format_major, 1);
	ck_assert_uint_eq(in.format_minor, 4);
	ck_assert_uint_eq(in.level_kind, TWZ_KIND_NAVMESH);
	ck_assert_uint_eq(in.node_count, m.poly_count);
	ck_assert_uint_eq(in.level_hash, m.level_hash);
	check_queries(&m, db, 4242, 200, "golden");
	twz_close(db);
	twz_navmesh_free(&m);
}
END_TEST

START_TEST(command_line)
{
	char dir[512], out[600], pts[600];
	struct twz_test_run r;

	twz_test_make_dir(dir, sizeof dir, "navmesh");
	snprintf(out, sizeof out, "%s/rooms.twz", dir);
	snprintf(pts, sizeof pts, "%s/bad.points", dir);
	const char *obj = twz_test_source_file("data/rooms.obj");
	const char *points = twz_test_source_file("data/rooms.points");
	const char *build[] = { "build", obj, "-o", out, "--quiet", NULL };
	twz_test_run_tool(build, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "build: %s", r.err);
	twz_test_run_free(&r);

	/* One query, JSON: the documented keys in order. */
	const char *q1[] = { "query", out, "1", "0", "1", "17", "3", "10", "--json", NULL };
	twz_test_run_tool(q1, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "query: %s", r.err);
	ck_assert_msg(strncmp(r.out, "{\"start\":[1,0,1],\"goal\":[17,3,10],\"cost\":", 41) == 0,
		      "%s", r.out);
	ck_assert(strstr(r.out, ",\"polygons\":[0,"));
	ck_assert(strstr(r.out, "],\"path\":[[1,0,1],"));
	ck_assert(strstr(r.out, ",[17,3,10]]}\n"));
	twz_test_run_free(&r);
	/* Midpoints: start, a midpoint per portal, goal. */
	const char *q2[] = { "query", out, "1", "0", "1", "4", "0", "12", "--json",
			     "--waypoints", "midpoints", NULL };
	twz_test_run_tool(q2, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "query: %s", r.err);
	/* centroid (4, 4) -> (4, 8) -> (4, 9) -> (4, 10) -> (4, 11 1/3) */
	ck_assert_msg(strstr(r.out, "\"cost\":7.33333333333333"), "%s", r.out);
	ck_assert_msg(strstr(r.out, "\"polygons\":[0,2,18],\"path\":[[1,0,1],[4,0,8],[4,0,10],[4,0,12]]}"),
		      "%s", r.out);
	twz_test_run_free(&r);
	/* A point off the mesh: a line saying so, exit 0. */
	const char *q3[] = { "query", out, "-5", "0", "1", "1", "0", "1", "--json", NULL };
	twz_test_run_tool(q3, NULL, 0, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "\"cost\":null,\"polygons\":[],\"path\":[],\"error\":\"start is off the mesh\""),
		      "%s", r.out);
	twz_test_run_free(&r);
	/* The points file: one line each, and verify passes. */
	const char *q4[] = { "query", out, "--points", points, NULL };
	twz_test_run_tool(q4, NULL, 0, &r);
	ck_assert_int_eq(r.status, 0);
	size_t lines = 0;
	for (const char *c = r.out; *c; c++)
		lines += *c == '\n';
	ck_assert_uint_eq(lines, 200);
	twz_test_run_free(&r);
	const char *v1[] = { "verify", out, points, NULL };
	twz_test_run_tool(v1, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "verify: %s%s", r.out, r.err);
	ck_assert(strstr(r.out, "200 passed, 0 failed"));
	twz_test_run_free(&r);
	/* A malformed points file: one line naming it, exit 3. */
	twz_test_write_file(pts, "1 0 1 2 0 2\n1 0 x 2 0 2\n", 24);
	const char *q5[] = { "query", out, "--points", pts, NULL };
	twz_test_run_tool(q5, NULL, 0, &r);
	ck_assert_int_eq(r.status, 3);
	ck_assert_msg(strstr(r.err, "bad.points:2: ") && !strchr(strchr(r.err, '\n') + 1, '\n'),
		      "%s", r.err);
	twz_test_run_free(&r);
	/* A malformed mesh: one line naming file and line, exit 3. */
	snprintf(pts, sizeof pts, "%s/bad.obj", dir);
	twz_test_write_file(pts, "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n", 32);
	const char *b2[] = { "build", pts, "-o", out, NULL };
	twz_test_run_tool(b2, NULL, 0, &r);
	ck_assert_int_eq(r.status, 3);
	ck_assert_msg(strstr(r.err, "bad.obj:4: face vertex 4 is out of range"), "%s", r.err);
	twz_test_run_free(&r);
	/* render draws the mesh and a path. */
	char svg[600];
	snprintf(out, sizeof out, "%s/rooms.twz", dir);
	snprintf(svg, sizeof svg, "%s/rooms.svg", dir);
	const char *r1[] = { "render", out, "-o", svg, "--path", "1", "0", "1", "17",
			     "3", "10", NULL };
	twz_test_run_tool(r1, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "render: %s", r.err);
	twz_test_run_free(&r);
	size_t svg_len;
	char *text = (char *)twz_test_read_file(svg, &svg_len);
	ck_assert(strstr(text, "<svg") && strstr(text, "polygons") && strstr(text, "path"));
	free(text);
	/* A database whose rows lie (each run's first arc): verify says
	 * so and exits 1. */
	{
		struct twz_navmesh m;
		size_t len;
		uint64_t sz;
		char lie[600];
		load_rooms(&m);
		uint8_t *buf = bake_mesh(&m, TWZ_APSP_DIJKSTRA, 1, TWZ_CODEC_RAW, &len);
		uint8_t *runs = section(buf, 57, &sz);   /* GRAPH_RUN_ARC */
		memset(runs, 0, (size_t)sz);
		reseal(buf, len);
		snprintf(lie, sizeof lie, "%s/lie.twz", dir);
		twz_test_write_file(lie, buf, len);
		const char *v2[] = { "verify", lie, points, NULL };
		twz_test_run_tool(v2, NULL, 0, &r);
		ck_assert_msg(r.status == 1, "verify of a lying database: %d %s%s", r.status,
			      r.out, r.err);
		ck_assert(strstr(r.out, " failed") && !strstr(r.out, " 0 failed"));
		twz_test_run_free(&r);
		free(buf);
		twz_navmesh_free(&m);
	}
	/* info describes the mesh. */
	snprintf(out, sizeof out, "%s/rooms.twz", dir);
	const char *i1[] = { "info", out, NULL };
	twz_test_run_tool(i1, NULL, 0, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "navmesh      69 polygons"), "%s", r.out);
	twz_test_run_free(&r);
	twz_test_remove_tree(dir);
}
END_TEST

/* ---- Recast fan dumps: slivers ---------------------------------------- */

/* Convex polygons on a lattice (x, z in units), many with straight
 * (180-degree) vertices where a long edge borders two polygons, each
 * listed from the vertex that makes its fan hold slivers; H has two
 * straight vertices in a row (a chain of two slivers). */
static const int fan_xz[][2] = {
	{ 0, 0 }, { 6, 0 }, { 6, 2 }, { 3, 2 }, { 0, 2 },     /* 0-4 */
	{ 3, 4 }, { 0, 4 }, { 6, 4 }, { 4, 4 },                /* 5-8 */
	{ 0, 6 }, { 3, 6 }, { 4, 6 }, { 6, 6 },                /* 9-12 */
	{ 6, 8 }, { 0, 8 }, { 8, 8 }, { 8, 0 }, { 8, 4 },      /* 13-17 */
};
static const int fan_polys[][8] = {
	{ 2, 3, 4, 0, 1, -1 },          /* A: straight at 3 */
	{ 4, 3, 5, 6, -1 },             /* B */
	{ 7, 8, 5, 3, 2, -1 },          /* C: straight at 8 */
	{ 6, 5, 10, 9, -1 },            /* D */
	{ 5, 8, 11, 10, -1 },           /* F */
	{ 8, 7, 12, 11, -1 },           /* G */
	{ 9, 10, 11, 12, 13, 14, -1 },  /* H: straight at 10 and 11 */
	{ 1, 16, 17, 7, 2, -1 },        /* I: straight at 2 */
	{ 7, 17, 15, 13, 12, -1 },      /* J: straight at 12 (7, 12, 13) */
};

/* The OBJ text duDumpPolyMeshToObj writes for these polygons: every
 * vertex with "%f" (x scaled by 0.3 and shifted, a slope in y), then
 * each polygon as the fan p0 p[j-1] p[j]. malloc'd. */
static char *fan_obj(void)
{
	size_t cap = 1 << 14, n = 0;
	char *t = malloc(cap);

	ck_assert(t != NULL);
	n += (size_t)snprintf(t + n, cap - n, "# Recast Navmesh\no NavMesh\n\n");
	for (size_t v = 0; v < sizeof fan_xz / sizeof fan_xz[0]; v++) {
		double x = 10.15 + 0.3 * fan_xz[v][0], z = -3.7 + 0.3 * fan_xz[v][1];
		n += (size_t)snprintf(t + n, cap - n, "v %f %f %f\n", x, 0.05 * x, z);
	}
	n += (size_t)snprintf(t + n, cap - n, "\n");
	for (size_t p = 0; p < sizeof fan_polys / sizeof fan_polys[0]; p++) {
		const int *q = fan_polys[p];
		for (int j = 2; q[j] >= 0; j++)
			n += (size_t)snprintf(t + n, cap - n, "f %d %d %d\n",
					      q[0] + 1, q[j - 1] + 1, q[j] + 1);
	}
	ck_assert(n < cap);
	return t;
}

/* Dijkstra from face s over the faces of m, with the rule stated
 * anew: faces sharing two cyclically adjacent vertex ids are adjacent,
 * the cost centre -> shared edge midpoint -> centre (the area centroid,
 * or for a face of no area the midpoint of its longest edge), the
 * cheapest shared edge. */
static void fan_dijkstra(const struct twz_navmesh *m, uint32_t s, double *dist)
{
	uint32_t n = m->poly_count;
	double *c = malloc(2 * (size_t)n * sizeof *c);
	uint8_t *done = calloc(n, 1);

	ck_assert(c && done);
	for (uint32_t f = 0; f < n; f++) {
		const uint32_t *idx = m->poly_vert + m->poly_first[f];
		uint32_t k = m->poly_first[f + 1] - m->poly_first[f];
		double a = 0, sx = 0, sz = 0, best = -1;
		for (uint32_t i = 0; i < k; i++) {
			const double *p = m->vert + 3 * (size_t)idx[i];
			const double *q = m->vert + 3 * (size_t)idx[(i + 1) % k];
			double cr = p[0] * q[2] - q[0] * p[2];
			a += cr;
			sx += (p[0] + q[0]) * cr;
			sz += (p[2] + q[2]) * cr;
			double l = hypot(q[0] - p[0], q[2] - p[2]);
			if (l > best) {
				best = l;
				c[2 * f] = 0.5 * (p[0] + q[0]);
				c[2 * f + 1] = 0.5 * (p[2] + q[2]);
			}
		}
		if (fabs(a) > 1e-9) {
			c[2 * f] = sx / (3 * a);
			c[2 * f + 1] = sz / (3 * a);
		}
		dist[f] = INFINITY;
	}
	dist[s] = 0;
	for (;;) {
		uint32_t u = UINT32_MAX;
		for (uint32_t v = 0; v < n; v++)
			if (!done[v] && isfinite(dist[v]) && (u == UINT32_MAX || dist[v] < dist[u]))
				u = v;
		if (u == UINT32_MAX)
			break;
		done[u] = 1;
		const uint32_t *iu = m->poly_vert + m->poly_first[u];
		uint32_t ku = m->poly_first[u + 1] - m->poly_first[u];
		for (uint32_t v = 0; v < n; v++) {
			const uint32_t *iv = m->poly_vert + m->poly_first[v];
			uint32_t kv = m->poly_first[v + 1] - m->poly_first[v];
			double w = INFINITY;
			if (v == u)
				continue;
			for (uint32_t i = 0; i < ku; i++)
				for (uint32_t j = 0; j < kv; j++) {
					uint32_t a = iu[i], b = iu[(i + 1) % ku];
					if (!((iv[j] == a && iv[(j + 1) % kv] == b) ||
					      (iv[j] == b && iv[(j + 1) % kv] == a)))
						continue;
					const double *p = m->vert + 3 * (size_t)a, *q = m->vert + 3 * (size_t)b;
					double mx = 0.5 * (p[0] + q[0]), mz = 0.5 * (p[2] + q[2]);
					double cost = hypot(mx - c[2 * u], mz - c[2 * u + 1]) +
						      hypot(c[2 * v] - mx, c[2 * v + 1] - mz);
					if (cost < w)
						w = cost;
				}
			if (dist[u] + w < dist[v])
				dist[v] = dist[u] + w;
		}
	}
	free(c);
	free(done);
}

static int face_is_flat(const struct twz_navmesh *m, uint32_t f)
{
	const uint32_t *idx = m->poly_vert + m->poly_first[f];
	const double *a = m->vert + 3 * (size_t)idx[0];
	const double *b = m->vert + 3 * (size_t)idx[1];
	const double *c = m->vert + 3 * (size_t)idx[2];

	return m->poly_first[f + 1] - m->poly_first[f] == 3 &&
	       fabs(twz_nm_area2(a, b, c)) < 1e-9;
}

START_TEST(recast_fan_slivers)
{
	struct twz_navmesh m;
	char *obj = fan_obj();
	size_t len;
	uint32_t slivers = 0;

	parse_ok(obj, &m);
	for (uint32_t f = 0; f < m.poly_count; f++)
		slivers += face_is_flat(&m, f);
	/* A, C, I and J one each, H two. */
	ck_assert_uint_eq(slivers, 6);
	/* Corridors: every face's distances against the rule restated. */
	double *d0 = malloc(m.poly_count * sizeof *d0), *d1 = malloc(m.poly_count * sizeof *d1);
	ck_assert(d0 && d1);
	for (uint32_t s = 0; s < m.poly_count; s++) {
		fan_dijkstra(&m, s, d0);
		mesh_dijkstra(&m, s, d1);
		for (uint32_t t = 0; t < m.poly_count; t++) {
			ck_assert_msg(isfinite(d0[t]), "face %u unreachable from %u", t, s);
			ck_assert_msg(fabs(d0[t] - d1[t]) <= 1e-9 * (d0[t] + 1),
				      "%u -> %u: %.12f, restated %.12f", s, t, d1[t], d0[t]);
		}
	}
	free(d0);
	free(d1);
	uint8_t *buf = bake_mesh(&m, TWZ_APSP_DIJKSTRA, 1, TWZ_CODEC_RAW, &len);
	twz_db *db = twz_test_open_buf(buf, len);
	check_queries(&m, db, 77, 400, "fan");
	/* Points along every sliver's edges (their ends left out: floats
	 * round a vertex on the mesh's rim off it) land in a face with area
	 * that holds them. */
	for (uint32_t f = 0; f < m.poly_count; f++) {
		if (!face_is_flat(&m, f))
			continue;
		const uint32_t *idx = m.poly_vert + m.poly_first[f];
		for (int k = 1; k < 8; k++)
			for (int e = 0; e < 3; e++) {
				const double *a = m.vert + 3 * (size_t)idx[e];
				const double *b = m.vert + 3 * (size_t)idx[(e + 1) % 3];
				float pt[3];
				for (int i = 0; i < 3; i++)
					pt[i] = (float)(a[i] + (b[i] - a[i]) * k / 8.0);
				twz_node nd = twz_navmesh_locate(db, pt);
				int64_t id;
				ck_assert(nd != TWZ_NONE && twz_node_id(db, nd, &id) == TWZ_OK);
				ck_assert_msg(!face_is_flat(&m, (uint32_t)id),
					      "located in sliver %lld", (long long)id);
				ck_assert(in_face(&m, (uint32_t)id, pt[0], pt[2], 1e-4));
				float q[3];
				ck_assert(twz_navmesh_nearest(db, pt, 1, &nd, q) == TWZ_OK);
				ck_assert(twz_node_id(db, nd, &id) == TWZ_OK);
				ck_assert(!face_is_flat(&m, (uint32_t)id));
			}
	}
	twz_close(db);
	free(buf);
	twz_navmesh_free(&m);
	/* The project's rooms, dumped as fans. */
	struct twz_error err = { { 0 }, 0 };
	ck_assert_msg(twz_navmesh_load(twz_test_source_file("data/rooms_fan.obj"), &m,
				       &err) == 0, "%s", err.msg);
	slivers = 0;
	for (uint32_t f = 0; f < m.poly_count; f++)
		slivers += face_is_flat(&m, f);
	ck_assert_uint_ge(slivers, 10);
	buf = bake_mesh(&m, TWZ_APSP_DIJKSTRA, 1, TWZ_CODEC_RAW, &len);
	db = twz_test_open_buf(buf, len);
	check_queries(&m, db, 78, 300, "rooms_fan");
	twz_close(db);
	free(buf);
	twz_navmesh_free(&m);
	/* Crafted: a triangle and a sliver along its edge; the sliver's
	 * middle vertex (its own) moved along the line stays a sliver and
	 * opens; moved onto an end it is flat and no sliver, refused. */
	parse_ok("v 0 0 0\nv 2 0 0\nv 0 0 1\nv 1 0 0\nf 1 2 3\nf 1 4 2\n", &m);
	buf = bake_mesh(&m, TWZ_APSP_DIJKSTRA, 1, TWZ_CODEC_RAW, &len);
	uint8_t *cp = malloc(len);
	ck_assert(cp != NULL);
	for (int pass = 0; pass < 3; pass++) {
		uint64_t sz;
		memcpy(cp, buf, len);
		uint8_t *vt = section(cp, TWZ_SECTION_NAVMESH_VERTICES, &sz);
		ck_assert_uint_eq(sz, 4 * 24);
		/* Vertices by first use: the middle one is the last. */
		ck_assert(twz_lef64(vt + 3 * 24) == 1);
		static const double x[3] = { 1.5, 0, 2 };
		twz_putf64(vt + 3 * 24, x[pass]);
		twz_status st = open_sealed(cp, len);
		ck_assert_msg(st == (pass == 0 ? TWZ_OK : TWZ_E_DAMAGED), "pass %d: %s",
			      pass, twz_strerror(st));
	}
	free(cp);
	free(buf);
	twz_navmesh_free(&m);
	free(obj);
}
END_TEST

/* Faces of zero area that are no slivers are still refused. */
START_TEST(refuses_bad_slivers)
{
	/* A lone collinear triangle, and one that meets a face only over
	 * a short edge. */
	refused("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n", 4, "longest edge");
	refused("v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 0 1\nf 1 2 4\nf 1 3 2\n", 6, "longest edge");
	/* Two slivers along each other only. */
	refused("v 0 0 0\nv 1 0 0\nv 2 0 0\nv 3 0 0\nf 1 2 4\nf 4 3 1\n", 5, "zero area");
	/* Collinear, but out of order (folding back along the line). */
	refused("v 0 0 0\nv 2 0 0\nv 1 0 0\nv 3 0 0\nv 0 0 1\n"
		"f 1 5 4\nf 1 2 3 4\n", 7, "not met in order");
	/* Repeated indices and coincident vertices in a would-be sliver. */
	refused("v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 0 1\nf 1 3 4\nf 1 2 2 3\n", 6, "appears twice");
	refused("v 0 0 0\nv 1 0 0\nv 1 0 0\nv 2 0 0\nv 0 0 1\nf 1 4 5\nf 1 2 3 4\n", 7, "same x-z");
	/* A sliver along a face's edge is accepted, with the edge's
	 * midpoint as its centre. */
	struct twz_navmesh m;
	parse_ok("v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 0 1\nf 1 3 4\nf 1 2 3\n", &m);
	ck_assert_uint_eq(m.arc_count, 2);
	ck_assert(m.centroid[2] == 1 && m.centroid[3] == 0);
	twz_navmesh_free(&m);
}
END_TEST

static Suite *navmesh_suite(void)
{
	Suite *s = suite_create("navmesh");
	TCase *tc = tcase_create("reader");

	tcase_add_test(tc, reads_exporter_forms);
	tcase_add_test(tc, refuses_malformed);
	tcase_add_test(tc, graph_costs_and_keys);
	suite_add_tcase(s, tc);
	tc = tcase_create("database");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, rooms_corridors_and_funnels);
	tcase_add_test(tc, funnel_known_corners);
	tcase_add_test(tc, random_meshes);
	tcase_add_test(tc, overlapping_floors);
	tcase_add_test(tc, solvers_and_threads_agree);
	tcase_add_test(tc, hostile_sections);
	tcase_add_test(tc, golden_file);
	tcase_add_test(tc, command_line);
	tcase_add_test(tc, recast_fan_slivers);
	tcase_add_test(tc, refuses_bad_slivers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(navmesh_suite());
}
