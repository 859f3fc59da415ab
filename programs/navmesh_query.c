/*
 * navmesh_query.c - twigz build, query, verify and info on navmesh
 * levels: baking an OBJ mesh, answering point-to-point queries with the
 * corridor and its waypoints (text or one JSON object a line), checking
 * a points file against a plain Dijkstra over the polygons, and the info
 * lines of a navmesh database.
 */
#include "navmesh_cli.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bake_navmesh.h"
#include "cli_common.h"
#include "closed_cells.h"
#include "file_read.h"
#include "level_costs.h"
#include "level_navmesh.h"
#include "query_session.h"
#include "twz_heap.h"
#include "twz_navmesh_geom.h"

/* ---- points files ------------------------------------------------------- */

void twz_points_free(struct twz_points *pts)
{
	free(pts->p);
	free(pts->line);
	memset(pts, 0, sizeof *pts);
}

/* A number filling a whole word; 0 on success. */
static int parse_coord(const char *s, size_t len, double *out)
{
	char buf[80], *end;

	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	*out = strtod(buf, &end);
	return *end || !isfinite(*out) ? -1 : 0;
}

int twz_points_load(const char *path, struct twz_points *pts,
		    struct twz_error *err)
{
	size_t len, cap = 0;
	uint8_t *buf = twz_read_file(path, (size_t)256 << 20, &len, err);
	struct twz_lines it;
	const char *line;
	size_t ll;

	memset(pts, 0, sizeof *pts);
	if (!buf)
		return -1;
	twz_lines_init(&it, buf, len);
	while (twz_lines_next(&it, &line, &ll)) {
		const char *p = line, *end = line + ll;
		double v[6];
		int n = 0;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end || *p == '#')
			continue;
		while (p < end) {
			const char *w = p;
			while (p < end && *p != ' ' && *p != '\t')
				p++;
			if (n == 6 || parse_coord(w, (size_t)(p - w), &v[n]) < 0) {
				twz_error_set(err, "%s:%lu: a query is six numbers: sx sy sz gx gy gz",
					      path, it.number);
				goto fail;
			}
			n++;
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
		}
		if (n != 6) {
			twz_error_set(err, "%s:%lu: a query is six numbers: sx sy sz gx gy gz",
				      path, it.number);
			goto fail;
		}
		if (pts->count == cap) {
			size_t nc = cap ? 2 * cap : 64;
			double *np = realloc(pts->p, nc * 6 * sizeof *np);
			if (np)
				pts->p = np;
			unsigned long *nl = realloc(pts->line, nc * sizeof *nl);
			if (nl)
				pts->line = nl;
			if (!np || !nl) {
				twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", path);
				goto fail;
			}
			cap = nc;
		}
		memcpy(pts->p + 6 * pts->count, v, sizeof v);
		pts->line[pts->count++] = it.number;
	}
	free(buf);
	return 0;
fail:
	free(buf);
	twz_points_free(pts);
	return -1;
}

double twz_navmesh_polyline_length(const float (*pts)[3], size_t n)
{
	double sum = 0;

	for (size_t i = 1; i < n; i++)
		sum += hypot((double)pts[i][0] - pts[i - 1][0],
			     (double)pts[i][2] - pts[i - 1][2]);
	return sum;
}

/* ---- query -------------------------------------------------------------- */

/* What one query gives: the corridor (face indices), its cost, the
 * waypoints; why names a failure ("start is off the mesh"). */
struct nm_answer {
	const char *why;
	double cost;
	size_t clen, plen;
};

struct nm_bufs {
	twz_node *corridor;   /* [node_count] */
	float (*pts)[3];      /* [node_count + 1] */
	size_t cap;
};

static int bufs_init(struct nm_bufs *b, const twz_db *db)
{
	b->cap = twz_node_count(db);
	b->corridor = malloc((b->cap + 1) * sizeof *b->corridor);
	b->pts = malloc((b->cap + 2) * sizeof *b->pts);
	return b->corridor && b->pts ? 0 : -1;
}

static void bufs_free(struct nm_bufs *b)
{
	free(b->corridor);
	free(b->pts);
}

/* What the user sees of a status. */
static const char *why_of(twz_status st)
{
	switch (st) {
	case TWZ_E_START_OFF: return "start is off the mesh";
	case TWZ_E_GOAL_OFF: return "goal is off the mesh";
	case TWZ_E_UNREACHABLE: return "unreachable";
	default: return twz_strerror(st);
	}
}

/* Solve one query, around what the filter takes away when sc is set;
 * TWZ_OK, or the status that stopped it (why says what the user sees). */
static twz_status solve(const twz_db *db, twz_scratch *sc, const twz_filter *f,
			const float s[3], const float g[3], unsigned mode,
			struct nm_bufs *b, struct nm_answer *a)
{
	twz_status st;

	memset(a, 0, sizeof *a);
	if (sc)
		st = twz_navmesh_find_path(db, sc, f, s, g, mode, 0, b->corridor,
					   b->cap, &a->clen, b->pts, b->cap + 1,
					   &a->plen);
	else
		st = twz_navmesh_path(db, s, g, mode, b->corridor, b->cap,
				      &a->clen, b->pts, b->cap + 1, &a->plen);
	if (st == TWZ_OK)
		st = twz_navmesh_cost(db, b->corridor, a->clen, &a->cost);
	if (st != TWZ_OK)
		a->why = why_of(st);
	return st;
}

static int64_t face_of(const twz_db *db, twz_node n)
{
	int64_t id = -1;

	twz_node_id(db, n, &id);
	return id;
}

static void print_answer(const twz_db *db, const float s[3], const float g[3],
			 const struct nm_bufs *b, const struct nm_answer *a,
			 twz_status st, int json)
{
	if (json) {
		printf("{\"start\":[%.9g,%.9g,%.9g],\"goal\":[%.9g,%.9g,%.9g],",
		       s[0], s[1], s[2], g[0], g[1], g[2]);
		if (st != TWZ_OK) {
			printf("\"cost\":null,\"polygons\":[],\"path\":[],\"error\":"
			       "\"%s\",\"status\":\"%s\"}\n", a->why,
			       twz_status_word(st));
			return;
		}
		printf("\"cost\":%.17g,\"polygons\":[", a->cost);
		for (size_t i = 0; i < a->clen; i++)
			printf(i ? ",%" PRId64 : "%" PRId64, face_of(db, b->corridor[i]));
		printf("],\"path\":[");
		for (size_t i = 0; i < a->plen; i++)
			printf(i ? ",[%.9g,%.9g,%.9g]" : "[%.9g,%.9g,%.9g]",
			       b->pts[i][0], b->pts[i][1], b->pts[i][2]);
		printf("]}\n");
		return;
	}
	printf("(%.9g,%.9g,%.9g) -> (%.9g,%.9g,%.9g): ", s[0], s[1], s[2], g[0],
	       g[1], g[2]);
	if (st != TWZ_OK) {
		printf("%s\n", a->why);
		return;
	}
	printf("cost %.9f, %zu polygons:", a->cost, a->clen);
	for (size_t i = 0; i < a->clen; i++)
		printf(" %" PRId64, face_of(db, b->corridor[i]));
	printf("; %zu waypoints, length %.9f:", a->plen,
	       twz_navmesh_polyline_length((const float (*)[3])b->pts, a->plen));
	for (size_t i = 0; i < a->plen; i++)
		printf(" (%.9g,%.9g,%.9g)", b->pts[i][0], b->pts[i][1], b->pts[i][2]);
	printf("\n");
}

int twz_navmesh_query_cmd(int argc, char **argv)
{
	static const char *const modes[] = { "funnel", "midpoints", NULL };
	struct twz_cli_args ar = TWZ_CLI_ARGS(argc, argv);
	const char *words[7] = { NULL };
	const char *points = NULL, *closed = NULL, *exclude = NULL, *a;
	int json = 0, rc;
	unsigned mode = TWZ_WAYPOINTS_FUNNEL;

	while ((a = twz_cli_next(&ar))) {
		if (!strcmp(a, "--json"))
			json = 1;
		else if (!strcmp(a, "--closed"))
			closed = twz_cli_value(&ar, a, "a file of shut faces or boxes");
		else if (!strcmp(a, "--exclude"))
			exclude = twz_cli_value(&ar, a, "area names, such as water,lava");
		else if (!strcmp(a, "--points"))
			points = twz_cli_value(&ar, a, "a points file");
		else if (!strcmp(a, "--waypoints"))
			mode = (unsigned)twz_cli_choice(&ar, a, modes, "funnel or midpoints");
		else if (a[0] == '-' && ((a[1] >= '0' && a[1] <= '9') || a[1] == '.'))
			twz_cli_place(&ar, a, words, 7);
		else
			twz_cli_operand(&ar, a, words, 7);
	}
	if (ar.status)
		return ar.status;
	int npos = 0;
	while (npos < 6 && words[1 + npos])
		npos++;
	if (!words[0])
		return twz_cli_usage("%s", "query needs a database");
	if (!points && npos != 6)
		return twz_cli_usage("%s", "query on a navmesh needs SX SY SZ GX GY GZ or --points FILE");
	if (points && npos)
		return twz_cli_usage("%s", "query takes either SX SY SZ GX GY GZ or --points FILE");
	struct twz_points q = { 0 };
	if (!points) {
		q.p = malloc(6 * sizeof *q.p);
		q.line = malloc(sizeof *q.line);
		if (!q.p || !q.line) {
			twz_points_free(&q);
			return EXIT_NOMEM;
		}
		q.count = 1;
		for (int k = 0; k < 6; k++) {
			char *end;
			q.p[k] = strtod(words[1 + k], &end);
			if (*end || end == words[1 + k] || !isfinite(q.p[k])) {
				twz_points_free(&q);
				return twz_cli_usage("coordinate '%s' is not a number", words[1 + k]);
			}
		}
	}

	twz_db *db;
	if ((rc = twz_cli_open_db(words[0], &db)) != 0) {
		twz_points_free(&q);
		return rc;
	}
	struct twz_error err = { { 0 }, 0 };
	if (points && twz_points_load(points, &q, &err) != 0) {
		rc = twz_cli_error(&err);
		twz_close(db);
		return rc;
	}
	struct nm_bufs b;
	twz_world *world = NULL;
	twz_scratch *sc = NULL;
	twz_filter filter;
	memset(&filter, 0, sizeof filter);
	if (bufs_init(&b, db) != 0 ||
	    ((closed || exclude) && (twz_world_create(db, &world) != TWZ_OK ||
				     twz_scratch_create(db, &sc) != TWZ_OK))) {
		fprintf(stderr, "twigz: %s: out of memory\n", words[0]);
		rc = EXIT_NOMEM;
		goto out;
	}
	if (closed && twz_closed_places_shut(closed, db, world, &err) != 0) {
		rc = twz_cli_error(&err);
		goto out;
	}
	filter.world = world;
	if (exclude && (rc = twz_exclude_areas(db, exclude, &filter)) != 0)
		goto out;
	for (size_t i = 0; i < q.count; i++) {
		float s[3], g[3];
		struct nm_answer an;
		for (int k = 0; k < 3; k++) {
			s[k] = (float)q.p[6 * i + k];
			g[k] = (float)q.p[6 * i + 3 + k];
		}
		twz_status st = solve(db, sc, &filter, s, g, mode, &b, &an);
		if (!twz_session_answered(st)) {
			fprintf(stderr, "twigz: %s: %s\n", words[0], twz_strerror(st));
			rc = EXIT_INPUT;
			goto out;
		}
		print_answer(db, s, g, &b, &an, st, json);
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "twigz: cannot write the output: %s\n", strerror(errno));
		rc = EXIT_IO;
	}
out:
	bufs_free(&b);
	twz_scratch_free(sc);
	twz_world_free(world);
	twz_points_free(&q);
	twz_close(db);
	return rc;
}

/* ---- verify ------------------------------------------------------------- */

/* The polygon graph as the verifier sees it: centroids computed here
 * from the vertices, arcs from the database's adjacency, costs from the
 * portals' midpoints. */
struct nm_graph {
	uint32_t n;
	double *cx, *cz;       /* [n] */
	uint32_t *first;       /* [n + 1] */
	uint32_t *head;
	double *cost;
};

static void graph_free(struct nm_graph *g)
{
	free(g->cx);
	free(g->cz);
	free(g->first);
	free(g->head);
	free(g->cost);
}

static int graph_of_db(const twz_db *db, struct nm_graph *g)
{
	float (*v)[3] = malloc(TWZ_NAVMESH_MAX_POLY_VERTS * sizeof *v);
	twz_node *heads = malloc(TWZ_NAVMESH_MAX_POLY_VERTS * sizeof *heads);
	uint64_t *w = malloc(TWZ_NAVMESH_MAX_POLY_VERTS * sizeof *w);
	size_t arcs = 0, cap = 1024, k;

	memset(g, 0, sizeof *g);
	g->n = twz_node_count(db);
	g->cx = malloc((g->n + 1) * sizeof *g->cx);
	g->cz = malloc((g->n + 1) * sizeof *g->cz);
	g->first = malloc((g->n + 1) * sizeof *g->first);
	g->head = malloc(cap * sizeof *g->head);
	g->cost = malloc(cap * sizeof *g->cost);
	if (!v || !heads || !w || !g->cx || !g->cz || !g->first || !g->head || !g->cost)
		goto fail;
	for (uint32_t p = 0; p < g->n; p++) {
		size_t nv;
		if (twz_navmesh_polygon(db, p, v, TWZ_NAVMESH_MAX_POLY_VERTS, &nv) != TWZ_OK)
			goto fail;
		/* Area centroid in x-z, around the first vertex. */
		double a2 = 0, sx = 0, sz = 0;
		for (size_t i = 1; i + 1 < nv; i++) {
			double ax = v[i][0] - v[0][0], az = v[i][2] - v[0][2];
			double bx = v[i + 1][0] - v[0][0], bz = v[i + 1][2] - v[0][2];
			double t = ax * bz - bx * az;
			a2 += t;
			sx += t * (ax + bx);
			sz += t * (az + bz);
		}
		g->cx[p] = v[0][0] + sx / (3 * a2);
		g->cz[p] = v[0][2] + sz / (3 * a2);
		/* A sliver has no area centroid: its longest edge's midpoint
		 * (FORMAT.md 5f). */
		double dv[3 * TWZ_NAVMESH_MAX_POLY_VERTS];
		uint32_t ix[TWZ_NAVMESH_MAX_POLY_VERTS];
		for (size_t i = 0; i < nv; i++) {
			ix[i] = (uint32_t)i;
			for (int c = 0; c < 3; c++)
				dv[3 * i + c] = v[i][c];
		}
		if (twz_nm_is_flat(dv, ix, (uint32_t)nv)) {
			double len;
			uint32_t s = twz_nm_longest_edge(dv, ix, (uint32_t)nv, &len);
			uint32_t t = s + 1 == nv ? 0 : s + 1;
			g->cx[p] = 0.5 * (dv[3 * s] + dv[3 * t]);
			g->cz[p] = 0.5 * (dv[3 * s + 2] + dv[3 * t + 2]);
		}
	}
	for (uint32_t p = 0; p < g->n; p++) {
		g->first[p] = (uint32_t)arcs;
		if (twz_node_arcs(db, p, heads, w, TWZ_NAVMESH_MAX_POLY_VERTS, &k) != TWZ_OK)
			goto fail;
		for (size_t i = 0; i < k; i++) {
			float l[3], r[3];
			if (twz_navmesh_portal(db, p, heads[i], l, r) != TWZ_OK)
				goto fail;
			double mx = 0.5 * ((double)l[0] + r[0]), mz = 0.5 * ((double)l[2] + r[2]);
			if (arcs == cap) {
				cap *= 2;
				uint32_t *nh = realloc(g->head, cap * sizeof *nh);
				if (nh)
					g->head = nh;
				double *nc = realloc(g->cost, cap * sizeof *nc);
				if (nc)
					g->cost = nc;
				if (!nh || !nc)
					goto fail;
			}
			g->head[arcs] = heads[i];
			g->cost[arcs] = hypot(mx - g->cx[p], mz - g->cz[p]) +
					hypot(g->cx[heads[i]] - mx, g->cz[heads[i]] - mz);
			arcs++;
		}
	}
	g->first[g->n] = (uint32_t)arcs;
	free(v);
	free(heads);
	free(w);
	return 0;
fail:
	free(v);
	free(heads);
	free(w);
	graph_free(g);
	return -1;
}

/* A binary heap of (distance, node) for the plain Dijkstra. */
struct heap_item {
	double d;
	uint32_t v;
};

static int item_before(const void *ctx, const void *a, const void *b)
{
	(void)ctx;
	return ((const struct heap_item *)a)->d < ((const struct heap_item *)b)->d;
}

/* dist[] from s over g; heap holds an entry per arc plus one. */
static void dijkstra(const struct nm_graph *g, uint32_t s, double *dist,
		     struct heap_item *heap)
{
	size_t n = 0;

	for (uint32_t v = 0; v < g->n; v++)
		dist[v] = INFINITY;
	dist[s] = 0;
	struct heap_item it = { 0, s };
	twz_heap_push(heap, &n, &it, sizeof it, item_before, NULL, NULL);
	while (n) {
		twz_heap_pop(heap, &n, &it, sizeof it, item_before, NULL, NULL);
		if (it.d > dist[it.v])
			continue;
		for (uint32_t a = g->first[it.v]; a < g->first[it.v + 1]; a++) {
			double nd = it.d + g->cost[a];
			if (nd < dist[g->head[a]]) {
				struct heap_item next = { nd, g->head[a] };
				dist[g->head[a]] = nd;
				twz_heap_push(heap, &n, &next, sizeof next,
					      item_before, NULL, NULL);
			}
		}
	}
}

int twz_navmesh_verify_cmd(int argc, char **argv)
{
	struct twz_cli_args ar = TWZ_CLI_ARGS(argc, argv);
	const char *files[2] = { NULL, NULL };
	const char *a;
	int rc;

	while ((a = twz_cli_next(&ar)))
		twz_cli_operand(&ar, a, files, 2);
	if (ar.status)
		return ar.status;
	if (!files[1])
		return twz_cli_usage("%s", "verify needs DB FILE.points");

	twz_db *db;
	if ((rc = twz_cli_open_db(files[0], &db)) != 0)
		return rc;
	struct twz_error err = { { 0 }, 0 };
	struct twz_points q;
	if (twz_points_load(files[1], &q, &err) != 0) {
		rc = twz_cli_error(&err);
		twz_close(db);
		return rc;
	}
	struct nm_graph g;
	struct nm_bufs b = { 0 };
	double *dist = NULL;
	struct heap_item *heap = NULL;
	size_t passed = 0, failed = 0, off = 0;
	float (*mid)[3] = NULL;

	if (graph_of_db(db, &g) != 0) {
		fprintf(stderr, "twigz: %s: out of memory\n", files[0]);
		rc = EXIT_NOMEM;
		goto out_q;
	}
	dist = malloc(((size_t)g.n + 1) * sizeof *dist);
	heap = malloc(((size_t)g.first[g.n] + 2) * sizeof *heap);
	mid = malloc(((size_t)g.n + 2) * sizeof *mid);
	if (!dist || !heap || !mid || bufs_init(&b, db) != 0) {
		fprintf(stderr, "twigz: %s: out of memory\n", files[0]);
		rc = EXIT_NOMEM;
		goto out;
	}
	for (size_t i = 0; i < q.count; i++) {
		float s[3], t[3];
		struct nm_answer an;
		char why[160] = "";
		for (int k = 0; k < 3; k++) {
			s[k] = (float)q.p[6 * i + k];
			t[k] = (float)q.p[6 * i + 3 + k];
		}
		twz_node ps = twz_navmesh_locate(db, s), pt = twz_navmesh_locate(db, t);
		if (ps == TWZ_NONE || pt == TWZ_NONE) {
			off++;
			continue;
		}
		dijkstra(&g, ps, dist, heap);
		twz_status st = solve(db, NULL, NULL, s, t, TWZ_WAYPOINTS_FUNNEL, &b, &an);
		if (st == TWZ_E_UNREACHABLE) {
			if (isfinite(dist[pt]))
				snprintf(why, sizeof why, "unreachable, Dijkstra's cost %.9f",
					 dist[pt]);
		} else if (st != TWZ_OK) {
			snprintf(why, sizeof why, "%s", an.why);
		} else if (!isfinite(dist[pt])) {
			snprintf(why, sizeof why, "a corridor where Dijkstra finds none");
		} else if (fabs(an.cost - dist[pt]) > 1e-6 * (dist[pt] + 1)) {
			snprintf(why, sizeof why, "cost %.9f, Dijkstra's %.9f", an.cost,
				 dist[pt]);
		} else if (b.corridor[0] != ps || b.corridor[an.clen - 1] != pt) {
			snprintf(why, sizeof why, "the corridor does not join the two polygons");
		} else if (an.plen < 2 || an.plen > an.clen + 1 ||
			   memcmp(b.pts[0], s, sizeof s) ||
			   memcmp(b.pts[an.plen - 1], t, sizeof t)) {
			snprintf(why, sizeof why, "the waypoints do not run from start to goal");
		} else {
			size_t mlen;
			double fl = twz_navmesh_polyline_length((const float (*)[3])b.pts, an.plen);
			if (twz_navmesh_waypoints(db, s, t, b.corridor, an.clen,
						  TWZ_WAYPOINTS_MIDPOINTS, mid, g.n + 2,
						  &mlen) != TWZ_OK) {
				snprintf(why, sizeof why, "no midpoint path");
			} else {
				double ml = twz_navmesh_polyline_length((const float (*)[3])mid, mlen);
				if (fl > ml * (1 + 1e-6) + 1e-6)
					snprintf(why, sizeof why, "funnel path %.9f longer than the midpoint path %.9f",
						 fl, ml);
			}
		}
		if (!why[0]) {
			passed++;
			continue;
		}
		if (++failed <= 10)
			fprintf(stderr, "twigz: %s:%lu: %s\n", files[1], q.line[i], why);
	}
	printf("%zu passed, %zu failed, %zu off the mesh\n", passed, failed, off);
	fflush(stdout);
	rc = twz_cli_verify_status(files[1], passed, failed, off, "off the mesh");
out:
	bufs_free(&b);
	free(dist);
	free(heap);
	free(mid);
	graph_free(&g);
out_q:
	twz_points_free(&q);
	twz_close(db);
	return rc;
}

/* ---- info ---------------------------------------------------------------- */

void twz_navmesh_info_print(const twz_db *db, int json)
{
	float v[TWZ_NAVMESH_MAX_POLY_VERTS][3];
	float lo[3] = { INFINITY, INFINITY, INFINITY };
	float hi[3] = { -INFINITY, -INFINITY, -INFINITY };
	size_t most = 0, tris = 0, nv;
	twz_info in;
	uint32_t n = twz_node_count(db);

	twz_get_info(db, &in);
	for (uint32_t p = 0; p < n; p++) {
		if (twz_navmesh_polygon(db, p, v, TWZ_NAVMESH_MAX_POLY_VERTS, &nv) != TWZ_OK)
			continue;
		if (nv > most)
			most = nv;
		tris += nv == 3;
		for (size_t i = 0; i < nv; i++)
			for (int k = 0; k < 3; k++) {
				if (v[i][k] < lo[k]) lo[k] = v[i][k];
				if (v[i][k] > hi[k]) hi[k] = v[i][k];
			}
	}
	if (json) {
		printf(",\"navmesh\":{\"polygons\":%u,\"triangles\":%zu,\"portals\":%" PRIu64
		       ",\"max_polygon_vertices\":%zu,\"bounds\":[[%.9g,%.9g,%.9g],[%.9g,%.9g,%.9g]]}",
		       n, tris, in.arc_count / 2, most, lo[0], lo[1], lo[2], hi[0],
		       hi[1], hi[2]);
		return;
	}
	printf("navmesh      %u polygons (%zu triangles, up to %zu vertices), %" PRIu64
	       " portals\n", n, tris, most, in.arc_count / 2);
	printf("bounds       x %.6g .. %.6g, y %.6g .. %.6g, z %.6g .. %.6g\n",
	       lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
}
