/*
 * check_navmesh.c - navmesh levels: the OBJ reader (the forms exporters
 * write, and every malformed input refused in one line naming the file
 * and line), the polygon graph and its costs against the geometry.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_navmesh.h"
#include "test_support.h"
#include "twz_navmesh_geom.h"

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

static Suite *navmesh_suite(void)
{
	Suite *s = suite_create("navmesh");
	TCase *tc = tcase_create("reader");

	tcase_add_test(tc, reads_exporter_forms);
	tcase_add_test(tc, refuses_malformed);
	tcase_add_test(tc, graph_costs_and_keys);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(navmesh_suite());
}
