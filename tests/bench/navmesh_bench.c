/*
 * navmesh_bench.c - `ninja -C BUILD bench-navmesh`: navmesh queries from
 * the database (locate both points, the corridor by twz_path, funnel
 * waypoints) against what a navmesh library does per query: locate both
 * points, an online A* over the same polygons (centroid metric, the
 * straight x-z distance between centroids as heuristic), then the same
 * funnel. Same point pairs, same process; the figure is the ratio, and
 * every A* corridor's cost is checked against the database's.
 *
 *     navmesh_bench MESH.obj...   (plus random meshes made here)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bake_navmesh.h"
#include "level_navmesh.h"
#include "twigz.h"
#include "twz_rng.h"

#define PAIRS 20000u

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A jittered grid of w x h quads, one in ten left out, the rest kept
 * whole or cut into two triangles: an OBJ text, malloc'd. */
static char *grid_obj(uint64_t seed, unsigned w, unsigned h)
{
	size_t cap = 64 * (size_t)(w + 1) * (h + 1) + 64 * (size_t)w * h + 64, n = 0;
	char *t = malloc(cap);
	uint64_t s = seed;

	if (!t)
		return NULL;
	for (unsigned z = 0; z <= h; z++)
		for (unsigned x = 0; x <= w; x++)
			n += (size_t)snprintf(t + n, cap - n, "v %.4f 0 %.4f\n",
					      x + (double)rng_below(&s, 1000) / 4000.0 - 0.125,
					      z + (double)rng_below(&s, 1000) / 4000.0 - 0.125);
	for (unsigned z = 0; z < h; z++)
		for (unsigned x = 0; x < w; x++) {
			unsigned a = z * (w + 1) + x + 1, b = a + 1, c = b + w + 1, d = a + w + 1;
			unsigned r = rng_below(&s, 10);
			if (r == 0)
				continue;
			if (r < 4)
				n += (size_t)snprintf(t + n, cap - n, "f %u %u %u %u\n", a, b, c, d);
			else
				n += (size_t)snprintf(t + n, cap - n, "f %u %u %u\nf %u %u %u\n",
						      a, b, c, a, c, d);
		}
	return t;
}

/* The online search's state, sized once. */
struct astar {
	uint32_t n;
	double *g;
	uint32_t *parent, *stamp, *heap_pos, now;
	struct { double f; uint32_t v; } *heap;
	size_t len;
	uint64_t expanded;
};

static void heap_up(struct astar *a, size_t i)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (a->heap[p].f <= a->heap[i].f)
			break;
		__typeof__(a->heap[0]) t = a->heap[p];
		a->heap[p] = a->heap[i];
		a->heap[i] = t;
		a->heap_pos[a->heap[p].v] = (uint32_t)p;
		a->heap_pos[a->heap[i].v] = (uint32_t)i;
		i = p;
	}
}

static void heap_down(struct astar *a, size_t i)
{
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= a->len)
			break;
		if (c + 1 < a->len && a->heap[c + 1].f < a->heap[c].f)
			c++;
		if (a->heap[i].f <= a->heap[c].f)
			break;
		__typeof__(a->heap[0]) t = a->heap[c];
		a->heap[c] = a->heap[i];
		a->heap[i] = t;
		a->heap_pos[a->heap[c].v] = (uint32_t)c;
		a->heap_pos[a->heap[i].v] = (uint32_t)i;
		i = c;
	}
}

/* A* from s to t over m's polygons: the corridor into cor (face
 * indices, reversed then put right), its length returned; 0 when
 * unreachable. */
static size_t astar_run(struct astar *a, const struct twz_navmesh *m,
			uint32_t s, uint32_t t, uint32_t *cor, double *cost)
{
	const double *c = m->centroid;

	a->now++;
	a->len = 0;
	a->stamp[s] = a->now;
	a->g[s] = 0;
	a->parent[s] = UINT32_MAX;
	a->heap[0].v = s;
	a->heap[0].f = hypot(c[2 * t] - c[2 * s], c[2 * t + 1] - c[2 * s + 1]);
	a->heap_pos[s] = 0;
	a->len = 1;
	while (a->len) {
		uint32_t u = a->heap[0].v;
		a->heap[0] = a->heap[--a->len];
		if (a->len) {
			a->heap_pos[a->heap[0].v] = 0;
			heap_down(a, 0);
		}
		a->heap_pos[u] = UINT32_MAX;  /* closed */
		a->expanded++;
		if (u == t) {
			size_t n = 0;
			for (uint32_t v = t; v != UINT32_MAX; v = a->parent[v])
				cor[n++] = v;
			for (size_t i = 0; i < n / 2; i++) {
				uint32_t x = cor[i];
				cor[i] = cor[n - 1 - i];
				cor[n - 1 - i] = x;
			}
			*cost = a->g[t];
			return n;
		}
		for (uint32_t k = m->arc_first[u]; k < m->arc_first[u + 1]; k++) {
			uint32_t v = m->arc_head[k];
			double g = a->g[u] + m->arc_cost[k];
			if (a->stamp[v] == a->now && g >= a->g[v])
				continue;
			double h = hypot(c[2 * t] - c[2 * v], c[2 * t + 1] - c[2 * v + 1]);
			int fresh = a->stamp[v] != a->now;
			a->stamp[v] = a->now;
			a->g[v] = g;
			a->parent[v] = u;
			if (fresh || a->heap_pos[v] == UINT32_MAX) {
				/* New, or reopened (the heuristic is consistent,
				 * so this does not happen; kept for safety). */
				a->heap[a->len].v = v;
				a->heap[a->len].f = g + h;
				a->heap_pos[v] = (uint32_t)a->len;
				heap_up(a, a->len++);
			} else {
				a->heap[a->heap_pos[v]].f = g + h;
				heap_up(a, a->heap_pos[v]);
			}
		}
	}
	return 0;
}

static void random_point(const struct twz_navmesh *m, uint32_t f, uint64_t *s,
			 float *out)
{
	const uint32_t *idx = m->poly_vert + m->poly_first[f];
	uint32_t n = m->poly_first[f + 1] - m->poly_first[f];
	double w[TWZ_NAVMESH_MAX_POLY_VERTS], sum = 0, p[3] = { 0, 0, 0 };

	for (uint32_t i = 0; i < n; i++)
		sum += w[i] = (double)rng_below(s, 1000) + 50;
	for (uint32_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
			p[k] += w[i] / sum * m->vert[3 * (size_t)idx[i] + k];
	for (int k = 0; k < 3; k++)
		out[k] = (float)p[k];
}

static int bench_mesh(const char *name, struct twz_navmesh *m)
{
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;
	size_t len;
	twz_db *db;
	uint32_t n = m->poly_count;

	twz_bake_options_default(&opt);
	opt.name = name;
	double t0 = now();
	if (twz_bake_navmesh(m, &opt, NULL, &buf, &len, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	double bake = now() - t0;
	if (twz_open_memory(buf, len, 0, &db) != TWZ_OK) {
		fprintf(stderr, "%s: the baked database does not open\n", name);
		return -1;
	}
	float (*pairs)[6] = malloc(PAIRS * sizeof *pairs);
	twz_node *cor = malloc(((size_t)n + 1) * sizeof *cor);
	uint32_t *acor = malloc(((size_t)n + 1) * sizeof *acor);
	float (*pts)[3] = malloc(((size_t)n + 2) * sizeof *pts);
	struct astar a = { .n = n };
	a.g = malloc(n * sizeof *a.g);
	a.parent = malloc(n * sizeof *a.parent);
	a.stamp = calloc(n, sizeof *a.stamp);
	a.heap_pos = malloc(n * sizeof *a.heap_pos);
	a.heap = malloc(((size_t)n + 1) * sizeof *a.heap);
	if (!pairs || !cor || !acor || !pts || !a.g || !a.parent || !a.stamp ||
	    !a.heap_pos || !a.heap) {
		fprintf(stderr, "%s: out of memory\n", name);
		return -1;
	}
	uint64_t s = 2024;
	for (unsigned i = 0; i < PAIRS; i++) {
		random_point(m, rng_below(&s, n), &s, pairs[i]);
		random_point(m, rng_below(&s, n), &s, pairs[i] + 3);
	}
	/* The database: locate, corridor, funnel. */
	size_t cl, pl, sum_db = 0, sum_as = 0;
	unsigned reached = 0, mismatched = 0;
	t0 = now();
	for (unsigned i = 0; i < PAIRS; i++)
		if (twz_navmesh_path(db, pairs[i], pairs[i] + 3, TWZ_WAYPOINTS_FUNNEL, cor,
				     n, &cl, pts, (size_t)n + 2, &pl) == TWZ_OK) {
			sum_db += pl;
			reached++;
		}
	double t_db = now() - t0;
	/* Online: locate, A*, the same funnel. */
	t0 = now();
	for (unsigned i = 0; i < PAIRS; i++) {
		twz_node sa = twz_navmesh_locate(db, pairs[i]);
		twz_node sb = twz_navmesh_locate(db, pairs[i] + 3);
		int64_t fa, fb;
		double cost;
		if (sa == TWZ_NONE || sb == TWZ_NONE)
			continue;
		twz_node_id(db, sa, &fa);
		twz_node_id(db, sb, &fb);
		size_t k = astar_run(&a, m, (uint32_t)fa, (uint32_t)fb, acor, &cost);
		if (!k)
			continue;
		for (size_t j = 0; j < k; j++)
			cor[j] = twz_node_of_id(db, acor[j]);
		if (twz_navmesh_waypoints(db, pairs[i], pairs[i] + 3, cor, k,
					  TWZ_WAYPOINTS_FUNNEL, pts, (size_t)n + 2, &pl) == TWZ_OK)
			sum_as += pl;
	}
	double t_as = now() - t0;
	/* Outside the timing: the two corridors cost the same. */
	for (unsigned i = 0; i < PAIRS; i += 7) {
		twz_node sa = twz_navmesh_locate(db, pairs[i]);
		twz_node sb = twz_navmesh_locate(db, pairs[i] + 3);
		int64_t fa, fb;
		double ca, cd;
		twz_node_id(db, sa, &fa);
		twz_node_id(db, sb, &fb);
		size_t k = astar_run(&a, m, (uint32_t)fa, (uint32_t)fb, acor, &ca);
		if (twz_path(db, sa, sb, cor, n, &cl) != TWZ_OK || !k)
			continue;
		twz_navmesh_cost(db, cor, cl, &cd);
		if (fabs(ca - cd) > 1e-9 * (cd + 1))
			mismatched++;
	}
	printf("%-12s %7u %8.2f %10zu %7u %10.2f %10.2f %8.1fx %9.1f %6u\n", name, n,
	       bake, len, reached, t_db / PAIRS * 1e6, t_as / PAIRS * 1e6,
	       t_as / t_db, (double)a.expanded / PAIRS, mismatched);
	(void)sum_db;
	(void)sum_as;
	free(a.g);
	free(a.parent);
	free(a.stamp);
	free(a.heap_pos);
	free(a.heap);
	free(pairs);
	free(cor);
	free(acor);
	free(pts);
	twz_close(db);
	free(buf);
	return mismatched ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct twz_navmesh m;
	struct twz_error err = { { 0 }, 0 };
	int rc = 0;

	printf("%u random point pairs a mesh; us a query: locate both points, "
	       "corridor, funnel\n", PAIRS);
	printf("%-12s %7s %8s %10s %7s %10s %10s %9s %9s %6s\n", "mesh", "polys",
	       "bake s", "bytes", "paths", "db us", "A* us", "A*/db", "A* exp",
	       "diff");
	for (int i = 1; i < argc; i++) {
		if (twz_navmesh_load(argv[i], &m, &err) != 0) {
			fprintf(stderr, "%s\n", err.msg);
			return 1;
		}
		const char *base = strrchr(argv[i], '/');
		rc |= bench_mesh(base ? base + 1 : argv[i], &m);
		twz_navmesh_free(&m);
	}
	static const unsigned sides[] = { 30, 60, 90 };
	for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
		char name[32];
		char *obj = grid_obj(7 + i, sides[i], sides[i]);
		snprintf(name, sizeof name, "grid%u", sides[i]);
		if (!obj || twz_navmesh_parse((const uint8_t *)obj, strlen(obj), name, &m,
					      &err) != 0) {
			fprintf(stderr, "%s\n", obj ? err.msg : "out of memory");
			return 1;
		}
		rc |= bench_mesh(name, &m);
		twz_navmesh_free(&m);
		free(obj);
	}
	return rc ? 1 : 0;
}
