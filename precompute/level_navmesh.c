/*
 * level_navmesh.c - the Wavefront OBJ navmesh reader: parse, check every
 * face (convex, not degenerate but for slivers along a neighbour's edge,
 * indices in range), find the shared edges,
 * and build the polygon graph with its costs and exact integer keys.
 */
#include "level_navmesh.h"
#include "level_costs.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_read.h"
#include "level_map.h"
#include "twz_navmesh_geom.h"

/* Coordinates beyond this are refused: areas and costs stay finite. */
#define COORD_LIMIT 1e12
/* A vertex that turns against the face's winding is non-convex only when
 * it lies farther than CONVEX_SLACK x (1 + the largest |x| or |z| of it
 * and its neighbours) from the line through its neighbours: builders
 * compute vertices in float and print them rounded, so a straight run
 * of vertices (a straight angle, which is convex) keeps about that much
 * noise. */
#define CONVEX_SLACK 1e-6

/* A growing array. */
struct vec {
	void *p;
	size_t n, cap, size;
};

static int vec_push(struct vec *v, const void *item)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 256;
		void *p = realloc(v->p, cap * v->size);
		if (!p)
			return -1;
		v->p = p;
		v->cap = cap;
	}
	memcpy((char *)v->p + v->n * v->size, item, v->size);
	v->n++;
	return 0;
}

/* The index of a name (cut to 31 bytes) among names, added when new;
 * UINT32_MAX out of memory. */
static uint32_t find_name(struct vec *names, const char *s, size_t len)
{
	char name[32] = { 0 };

	memcpy(name, s, len < 31 ? len : 31);
	for (size_t i = 0; i < names->n; i++)
		if (!memcmp((char *)names->p + 32 * i, name, 32))
			return (uint32_t)i;
	return vec_push(names, name) < 0 ? UINT32_MAX : (uint32_t)(names->n - 1);
}

int twz_navmesh_is_obj_path(const char *path)
{
	size_t n = strlen(path);

	return n >= 4 && path[n - 4] == '.' &&
	       tolower((unsigned char)path[n - 3]) == 'o' &&
	       tolower((unsigned char)path[n - 2]) == 'b' &&
	       tolower((unsigned char)path[n - 1]) == 'j';
}

void twz_navmesh_free(struct twz_navmesh *m)
{
	free(m->vert);
	free(m->poly_first);
	free(m->poly_vert);
	free(m->poly_line);
	free(m->poly_group);
	free(m->group_name);
	free(m->centroid);
	free(m->area2);
	free(m->arc_first);
	free(m->arc_head);
	free(m->arc_left);
	free(m->arc_right);
	free(m->arc_cost);
	free(m->arc_key);
	memset(m, 0, sizeof *m);
}

/* Next blank-separated token of [*p, end). */
static int next_token(const char **p, const char *end, const char **tok,
		      size_t *len)
{
	const char *s = *p;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s == end)
		return 0;
	*tok = s;
	while (s < end && *s != ' ' && *s != '\t')
		s++;
	*len = (size_t)(s - *tok);
	*p = s;
	return 1;
}

static int parse_double(const char *tok, size_t len, double *out)
{
	char buf[80];
	char *stop;

	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, tok, len);
	buf[len] = 0;
	*out = strtod(buf, &stop);
	return *stop ? -1 : 0;
}

/* A signed decimal integer filling [s, s+len), |v| < 2^40. */
static int parse_index(const char *s, size_t len, int64_t *out)
{
	int neg = 0;
	int64_t v = 0;
	size_t i = 0;

	if (len && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (i == len || len - i > 12)
		return -1;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = neg ? -v : v;
	return 0;
}

/* "i", "i/t", "i//n" or "i/t/n": the vertex index i; t and n, when
 * there, must be integers too. */
static int parse_face_ref(const char *tok, size_t len, int64_t *out)
{
	const char *slash = memchr(tok, '/', len);
	size_t head = slash ? (size_t)(slash - tok) : len;

	if (parse_index(tok, head, out) < 0)
		return -1;
	if (!slash)
		return 0;
	const char *s = slash + 1, *end = tok + len;
	for (int part = 0; part < 2 && s <= end; part++) {
		const char *e = memchr(s, '/', (size_t)(end - s));
		if (!e)
			e = end;
		int64_t dummy;
		if (e > s && parse_index(s, (size_t)(e - s), &dummy) < 0)
			return -1;
		if (e == end)
			return 0;
		s = e + 1;
	}
	return -1;
}

static int word_is(const char *s, size_t len, const char *w)
{
	return len == strlen(w) && memcmp(s, w, len) == 0;
}

/* Statements a navmesh does not use, written by exporters. */
static int ignored_statement(const char *s, size_t len)
{
	static const char *const words[] = {
		"o", "g", "s", "usemtl", "mtllib", "vn", "vt", "vp", "l",
		"p", "mg", "lod", "usemap", "maplib", "shadow_obj",
		"trace_obj", "bevel", "c_interp", "d_interp", "cstype",
		"deg", "bmat", "step", "curv", "curv2", "surf", "parm",
		"trim", "hole", "scrv", "sp", "end", "con", "ctech",
		"stech",
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (word_is(s, len, words[i]))
			return 1;
	return 0;
}

/* Check face f (vertex ids idx[0..n)): no repeated vertex, no zero
 * length edge, a non-zero area, every turn the same way (collinear
 * neighbours allowed) and one turn round in all. A face of zero area
 * passes only as a sliver (twz_nm_sliver_span), returning 1: whether a
 * neighbour anchors it is checked once the graph is built. */
static int check_face(const struct twz_navmesh *m, const uint32_t *idx,
		      uint32_t n, const char *name, uint32_t line,
		      double *area2, struct twz_error *err)
{
	const double *v = m->vert;

	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = i + 1; j < n; j++)
			if (idx[i] == idx[j]) {
				twz_error_set(err, "%s:%u: degenerate face: vertex %u appears twice",
					      name, line, idx[i] + 1);
				return -1;
			}
	for (uint32_t i = 0; i < n; i++) {
		double l = twz_nm_dist2d(v + 3 * (size_t)idx[i],
					 v + 3 * (size_t)idx[(i + 1) % n]);
		if (!(l > 0)) {
			twz_error_set(err, "%s:%u: degenerate face: vertices %u and %u are at the same x-z position",
				      name, line, idx[i] + 1, idx[(i + 1) % n] + 1);
			return -1;
		}
	}
	double cx, cz;
	double a2 = twz_nm_poly_centroid(v, idx, n, &cx, &cz);
	if (twz_nm_is_flat(v, idx, n)) {
		if (twz_nm_sliver_span(v, idx, n) < 0) {
			twz_error_set(err, "%s:%u: degenerate face: zero area in the x-z plane, and its vertices are not met in order along one straight edge",
				      name, line);
			return -1;
		}
		*area2 = a2;
		return 1;
	}
	if (!(a2 != 0)) {
		twz_error_set(err, "%s:%u: degenerate face: zero area in the x-z plane",
			      name, line);
		return -1;
	}
	double sign = a2 > 0 ? 1 : -1, turn = 0;
	for (uint32_t i = 0; i < n; i++) {
		const double *a = v + 3 * (size_t)idx[(i + n - 1) % n];
		const double *b = v + 3 * (size_t)idx[i];
		const double *c = v + 3 * (size_t)idx[(i + 1) % n];
		double ex = b[0] - a[0], ez = b[2] - a[2];
		double fx = c[0] - b[0], fz = c[2] - b[2];
		double cross = ex * fz - ez * fx, dot = ex * fx + ez * fz;
		double big = 1;
		for (int k = 0; k < 3; k += 2) {
			if (fabs(a[k]) > big) big = fabs(a[k]);
			if (fabs(b[k]) > big) big = fabs(b[k]);
			if (fabs(c[k]) > big) big = fabs(c[k]);
		}
		/* b's distance from the line a-c, against the slack. */
		double ac = twz_nm_dist2d(a, c);
		int straight = ac > 0 && fabs(cross) <= CONVEX_SLACK * big * ac;
		if (sign * cross < 0 && !straight && ac > 0) {
			twz_error_set(err, "%s:%u: non-convex face: it turns the other way at vertex %u",
				      name, line, idx[i] + 1);
			return -1;
		}
		if ((straight || ac == 0) && dot < 0) {
			twz_error_set(err, "%s:%u: degenerate face: its edges fold back at vertex %u",
				      name, line, idx[i] + 1);
			return -1;
		}
		turn += atan2(sign * cross, dot);
	}
	if (fabs(turn - 2 * M_PI) > 1e-6) {
		twz_error_set(err, "%s:%u: non-convex face: its edges wind round more than once",
			      name, line);
		return -1;
	}
	*area2 = a2;
	return 0;
}

/* An edge of a face, for finding the shared ones. */
struct edge {
	uint32_t lo, hi;   /* vertex ids, lo < hi */
	uint32_t poly;
	uint32_t at;       /* index of the edge's first vertex in the face */
};

static int edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi < y->hi ? -1 : 1;
	if (x->poly != y->poly)
		return x->poly < y->poly ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* A candidate arc, before parallel ones are folded. */
struct arc {
	uint32_t tail, head, at;   /* at: tail's edge */
	uint32_t p, q;             /* the edge in tail's order */
	uint32_t lo, hi;           /* the edge, for a tie-break both ways alike */
	double cost;
};

static int arc_cmp(const void *a, const void *b)
{
	const struct arc *x = a, *y = b;

	if (x->tail != y->tail)
		return x->tail < y->tail ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* The arc tail -> head over face tail's edge at, shared with head. */
static void make_arc(const struct twz_navmesh *m, uint32_t tail,
		     uint32_t head, uint32_t at, struct arc *a)
{
	const uint32_t *idx = m->poly_vert + m->poly_first[tail];
	uint32_t n = m->poly_first[tail + 1] - m->poly_first[tail];
	uint32_t p = idx[at], q = idx[(at + 1) % n];

	a->tail = tail;
	a->head = head;
	a->at = at;
	a->p = p;
	a->q = q;
	a->lo = p < q ? p : q;
	a->hi = p < q ? q : p;
	a->cost = twz_nm_arc_cost(m->centroid[2 * tail], m->centroid[2 * tail + 1],
				  m->centroid[2 * head], m->centroid[2 * head + 1],
				  m->vert + 3 * (size_t)p, m->vert + 3 * (size_t)q);
}

static int nomem(struct twz_error *err, const char *name)
{
	twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
	return -1;
}

/* The kept arc of tail f over the edge lo-hi, or -1. */
static int64_t arc_over(const struct twz_navmesh *m, const struct arc *arcs,
			uint32_t f, uint32_t lo, uint32_t hi)
{
	for (uint32_t k = m->arc_first[f]; k < m->arc_first[f + 1]; k++)
		if (arcs[k].lo == lo && arcs[k].hi == hi)
			return k;
	return -1;
}

/* The winding sign of every face into sgn (+1 counter-clockwise). A
 * sliver takes it from the neighbour across its span (a sliver has no
 * area, so no winding of its own): the winding the sliver would have
 * were its middle vertices pushed out of that neighbour, so that
 * portals leaving it are oriented like any face's. That neighbour has a
 * non-zero area or is itself a sliver anchored the same way (spans grow
 * along such a chain): a sliver without one, or in a loop of slivers,
 * is refused. arcs[] are the kept arcs, arc_first and arc_head built. */
static int winding(const struct twz_navmesh *m, const struct arc *arcs,
		   int8_t *sgn, const char *name, struct twz_error *err)
{
	uint32_t *path = malloc(((size_t)m->poly_count + 1) * sizeof *path);

	if (!path)
		return nomem(err, name);
	for (uint32_t f = 0; f < m->poly_count; f++) {
		const uint32_t *idx = m->poly_vert + m->poly_first[f];
		uint32_t n = m->poly_first[f + 1] - m->poly_first[f];
		sgn[f] = twz_nm_is_flat(m->vert, idx, n) ? 0 :
			 m->area2[f] > 0 ? 1 : -1;
	}
	for (uint32_t f = 0; f < m->poly_count; f++) {
		uint32_t len = 0, g = f;
		int8_t w = 0;
		/* Follow the spans to a face with a winding; 2 marks a face
		 * on the path (a loop). */
		while (sgn[g] == 0) {
			const uint32_t *idx = m->poly_vert + m->poly_first[g];
			uint32_t n = m->poly_first[g + 1] - m->poly_first[g];
			int s = twz_nm_sliver_span(m->vert, idx, n);
			uint32_t a = idx[s], b = idx[(s + 1) % n];
			int64_t k = arc_over(m, arcs, g, a < b ? a : b, a < b ? b : a);
			if (k < 0) {
				twz_error_set(err, "%s:%u: degenerate face: zero area in the x-z plane, and no face shares its longest edge",
					      name, m->poly_line[g]);
				free(path);
				return -1;
			}
			sgn[g] = 2;
			path[len++] = g;
			g = m->arc_head[k];
			if (sgn[g] == 2) {
				twz_error_set(err, "%s:%u: degenerate face: zero area in the x-z plane, and only faces of zero area along its longest edge",
					      name, m->poly_line[g]);
				free(path);
				return -1;
			}
		}
		w = sgn[g];
		/* Unwind: each sliver of the path from its anchor, nearest
		 * the anchor first. */
		while (len-- > 0) {
			uint32_t h = g;
			g = path[len];
			const uint32_t *idx = m->poly_vert + m->poly_first[g];
			uint32_t n = m->poly_first[g + 1] - m->poly_first[g];
			int s = twz_nm_sliver_span(m->vert, idx, n);
			uint32_t a = idx[s];
			const uint32_t *hidx = m->poly_vert + m->poly_first[h];
			uint32_t hn = m->poly_first[h + 1] - m->poly_first[h];
			/* Faces wound alike walk a shared edge opposite ways: the
			 * sliver walks a -> b; does h walk b -> a? */
			int opposite = 0;
			for (uint32_t i = 0; i < hn; i++)
				if (hidx[(i + 1) % hn] == a)
					opposite = hidx[i] == idx[(s + 1) % n];
			w = opposite ? w : (int8_t)-w;
			sgn[g] = w;
		}
	}
	free(path);
	return 0;
}

/* The keys of m's arcs' costs (total: their sum): the largest power of
 * two with total * scale <= budget / 2, so keys sum to at most budget / 2
 * + arcs (each rounds up by < 1). */
static void make_keys(struct twz_navmesh *m, double total)
{
	int ex = 0;

	m->scale = 1;
	if (total > 0) {
		frexp(TWZ_NAVMESH_KEY_BUDGET / 2 / total, &ex);
		m->scale = ldexp(1, ex - 1);
	}
	for (size_t i = 0; i < m->arc_count; i++) {
		double key = nearbyint(m->arc_cost[i] * m->scale);
		m->arc_key[i] = key < 1 ? 1 : (uint64_t)key;
	}
}

int twz_navmesh_weigh(struct twz_navmesh *m, const struct twz_level_costs *lc,
		      const char *name, struct twz_error *err)
{
	uint32_t kept = 0;
	double total = 0;

	(void)err, (void)name;
	for (uint32_t f = 0, a = 0; f < m->poly_count; f++) {
		uint32_t end = m->arc_first[f + 1];
		m->arc_first[f] = kept;
		for (; a < end; a++) {
			uint32_t h = m->arc_head[a];
			uint32_t mt = lc->place_milli[f], mh = lc->place_milli[h];
			if (!mt || !mh)
				continue;  /* a blocked face */
			const double *l = m->vert + 3 * (size_t)m->arc_left[a];
			const double *r = m->vert + 3 * (size_t)m->arc_right[a];
			double mx = 0.5 * (l[0] + r[0]), mz = 0.5 * (l[2] + r[2]);
			double in_tail = hypot(mx - m->centroid[2 * f], mz - m->centroid[2 * f + 1]);
			double in_head = hypot(m->centroid[2 * h] - mx, m->centroid[2 * h + 1] - mz);
			m->arc_head[kept] = h;
			m->arc_left[kept] = m->arc_left[a];
			m->arc_right[kept] = m->arc_right[a];
			m->arc_cost[kept] = (in_tail * mt + in_head * mh) / 1000.0;
			total += m->arc_cost[kept];
			kept++;
		}
	}
	m->arc_first[m->poly_count] = kept;
	m->arc_count = kept;
	make_keys(m, total);
	return 0;
}

/* Shared edges -> arcs, keys and scale. */
static int build_graph(struct twz_navmesh *m, const char *name,
		       struct twz_error *err)
{
	size_t edges_n = m->poly_first[m->poly_count];
	struct edge *e = malloc((edges_n ? edges_n : 1) * sizeof *e);
	struct arc *arcs = malloc((edges_n ? edges_n : 1) * sizeof *arcs);
	int8_t *sgn = malloc((size_t)m->poly_count + 1);
	size_t k = 0, na = 0;
	int rc = -1;

	if (!e || !arcs || !sgn) {
		nomem(err, name);
		goto out;
	}
	for (uint32_t f = 0; f < m->poly_count; f++) {
		const uint32_t *idx = m->poly_vert + m->poly_first[f];
		uint32_t n = m->poly_first[f + 1] - m->poly_first[f];
		for (uint32_t i = 0; i < n; i++) {
			uint32_t p = idx[i], q = idx[(i + 1) % n];
			e[k].lo = p < q ? p : q;
			e[k].hi = p < q ? q : p;
			e[k].poly = f;
			e[k].at = i;
			k++;
		}
	}
	qsort(e, edges_n, sizeof *e, edge_cmp);
	for (size_t i = 0; i < edges_n;) {
		size_t j = i + 1;
		while (j < edges_n && e[j].lo == e[i].lo && e[j].hi == e[i].hi)
			j++;
		if (j - i > 2) {
			twz_error_set(err, "%s:%u: edge %u-%u is shared by more than two faces (also the faces of lines %u and %u)",
				      name, m->poly_line[e[i + 2].poly], e[i].lo + 1,
				      e[i].hi + 1, m->poly_line[e[i].poly],
				      m->poly_line[e[i + 1].poly]);
			goto out;
		}
		if (j - i == 2) {
			make_arc(m, e[i].poly, e[i + 1].poly, e[i].at, &arcs[na++]);
			make_arc(m, e[i + 1].poly, e[i].poly, e[i + 1].at, &arcs[na++]);
		}
		i = j;
	}
	qsort(arcs, na, sizeof *arcs, arc_cmp);
	/* Fold parallel arcs (faces sharing several edges) to the cheapest,
	 * ties to the smaller edge, alike in both directions. */
	size_t kept = 0;
	for (size_t i = 0; i < na; i++) {
		size_t dup = kept;
		for (size_t j = kept; j-- > 0 && arcs[j].tail == arcs[i].tail;)
			if (arcs[j].head == arcs[i].head) {
				dup = j;
				break;
			}
		if (dup == kept) {
			arcs[kept++] = arcs[i];
			continue;
		}
		struct arc *d = &arcs[dup];
		if (arcs[i].cost < d->cost ||
		    (arcs[i].cost == d->cost &&
		     (arcs[i].lo < d->lo || (arcs[i].lo == d->lo && arcs[i].hi < d->hi)))) {
			uint32_t at = d->at;
			*d = arcs[i];
			d->at = at;  /* keep its place in the tail's order */
		}
	}
	na = kept;
	m->arc_count = (uint32_t)na;
	m->arc_first = calloc((size_t)m->poly_count + 1, sizeof *m->arc_first);
	m->arc_head = malloc((na ? na : 1) * sizeof *m->arc_head);
	m->arc_left = malloc((na ? na : 1) * sizeof *m->arc_left);
	m->arc_right = malloc((na ? na : 1) * sizeof *m->arc_right);
	m->arc_cost = malloc((na ? na : 1) * sizeof *m->arc_cost);
	m->arc_key = malloc((na ? na : 1) * sizeof *m->arc_key);
	if (!m->arc_first || !m->arc_head || !m->arc_left || !m->arc_right ||
	    !m->arc_cost || !m->arc_key) {
		nomem(err, name);
		goto out;
	}
	double total = 0;
	for (size_t i = 0; i < na; i++) {
		m->arc_first[arcs[i].tail + 1]++;
		m->arc_head[i] = arcs[i].head;
		m->arc_cost[i] = arcs[i].cost;
		total += arcs[i].cost;
	}
	for (uint32_t f = 0; f < m->poly_count; f++)
		m->arc_first[f + 1] += m->arc_first[f];
	if (winding(m, arcs, sgn, name, err) < 0)
		goto out;
	for (size_t i = 0; i < na; i++) {
		/* Leaving a counter-clockwise face over p -> q, q is on the
		 * left. */
		int8_t w = sgn[arcs[i].tail];
		m->arc_left[i] = w > 0 ? arcs[i].q : arcs[i].p;
		m->arc_right[i] = w > 0 ? arcs[i].p : arcs[i].q;
	}
	make_keys(m, total);
	rc = 0;
out:
	free(e);
	free(arcs);
	free(sgn);
	return rc;
}

int twz_navmesh_parse(const uint8_t *buf, size_t len, const char *name,
		      struct twz_navmesh *m, struct twz_error *err)
{
	struct vec verts = { .size = 3 * sizeof(double) };
	struct vec refs = { .size = sizeof(int64_t) };   /* raw face indices */
	struct vec faces = { .size = sizeof(uint32_t) }; /* first ref of each */
	struct vec lines = { .size = sizeof(uint32_t) };
	struct vec groups = { .size = sizeof(uint32_t) };  /* each face's */
	struct vec names = { .size = 32 };
	uint32_t group = UINT32_MAX;   /* none named yet: "default" */
	struct twz_lines it;
	const char *line;
	size_t ll;
	int rc = -1;

	memset(m, 0, sizeof *m);
	twz_lines_init(&it, buf, len);
	while (twz_lines_next(&it, &line, &ll)) {
		const char *p = line, *end = line + ll, *tok;
		size_t tl;
		uint32_t lno = it.number > UINT32_MAX ? UINT32_MAX : (uint32_t)it.number;

		if (memchr(line, 0, ll)) {
			twz_error_set(err, "%s:%u: not a text line (a NUL byte)", name, lno);
			goto out;
		}
		if (!next_token(&p, end, &tok, &tl) || tok[0] == '#')
			continue;
		if (ll && line[ll - 1] == '\\') {
			twz_error_set(err, "%s:%u: line continuations are not supported", name, lno);
			goto out;
		}
		if (word_is(tok, tl, "v")) {
			double xyz[3] = { 0, 0, 0 };
			int n = 0;
			while (next_token(&p, end, &tok, &tl)) {
				double d;
				if (parse_double(tok, tl, &d) < 0) {
					twz_error_set(err, "%s:%u: vertex coordinate '%.*s' is not a number",
						      name, lno, (int)(tl > 40 ? 40 : tl), tok);
					goto out;
				}
				if (n < 3)
					xyz[n] = d;
				n++;
			}
			if (n != 3 && n != 4 && n != 6 && n != 7) {
				twz_error_set(err, "%s:%u: a vertex needs x y z (got %d numbers)",
					      name, lno, n);
				goto out;
			}
			for (int i = 0; i < 3; i++)
				if (!isfinite(xyz[i]) || fabs(xyz[i]) > COORD_LIMIT) {
					twz_error_set(err, "%s:%u: vertex coordinate %s (finite, within +-1e12, expected)",
						      name, lno, isnan(xyz[i]) ? "is NaN" :
						      isinf(xyz[i]) ? "is infinite" : "is too large");
					goto out;
				}
			if (verts.n >= TWZ_NAVMESH_MAX_VERTICES) {
				twz_error_set(err, "%s:%u: more than %u vertices", name, lno,
					      TWZ_NAVMESH_MAX_VERTICES);
				goto out;
			}
			if (vec_push(&verts, xyz) < 0)
				goto oom;
		} else if (word_is(tok, tl, "f")) {
			uint32_t first = (uint32_t)refs.n, n = 0;
			uint32_t vc = (uint32_t)verts.n;
			while (next_token(&p, end, &tok, &tl)) {
				int64_t r;
				if (parse_face_ref(tok, tl, &r) < 0 || r == 0) {
					twz_error_set(err, "%s:%u: face vertex '%.*s' is not a vertex index (from 1, or negative from the end)",
						      name, lno, (int)(tl > 40 ? 40 : tl), tok);
					goto out;
				}
				if (r < 0) {
					if (-r > (int64_t)vc) {
						twz_error_set(err, "%s:%u: face vertex %lld is out of range (%u vertices so far)",
							      name, lno, (long long)r, vc);
						goto out;
					}
					r = vc + r + 1;  /* -1 is the last vertex */
				}
				if (++n > TWZ_NAVMESH_MAX_POLY_VERTS) {
					twz_error_set(err, "%s:%u: a face of more than %u vertices",
						      name, lno, TWZ_NAVMESH_MAX_POLY_VERTS);
					goto out;
				}
				if (vec_push(&refs, &r) < 0)
					goto oom;
			}
			if (n < 3) {
				twz_error_set(err, "%s:%u: a face needs 3 or more vertices (got %u)",
					      name, lno, n);
				goto out;
			}
			if (faces.n >= TWZ_NAVMESH_MAX_POLYS) {
				twz_error_set(err, "%s:%u: more than %u faces", name, lno,
					      TWZ_NAVMESH_MAX_POLYS);
				goto out;
			}
			if (group == UINT32_MAX &&
			    (group = find_name(&names, "default", 7)) == UINT32_MAX)
				goto oom;
			if (vec_push(&faces, &first) < 0 || vec_push(&lines, &lno) < 0 ||
			    vec_push(&groups, &group) < 0)
				goto oom;
		} else if ((word_is(tok, tl, "usemtl") || word_is(tok, tl, "g")) &&
			   next_token(&p, end, &tok, &tl)) {
			group = find_name(&names, tok, tl);
			if (group == UINT32_MAX)
				goto oom;
		} else if (!ignored_statement(tok, tl)) {
			twz_error_set(err, "%s:%u: unknown statement '%.*s' (an OBJ mesh of v and f lines expected)",
				      name, lno, (int)(tl > 20 ? 20 : tl), tok);
			goto out;
		}
	}
	if (faces.n == 0) {
		twz_error_set(err, "%s: no faces (a navmesh needs f lines)", name);
		goto out;
	}

	m->vertex_count = (uint32_t)verts.n;
	m->vert = verts.p;
	verts.p = NULL;
	m->poly_count = (uint32_t)faces.n;
	m->poly_line = lines.p;
	lines.p = NULL;
	m->poly_group = groups.p;
	groups.p = NULL;
	m->group_name = names.p;
	m->group_count = (uint32_t)names.n;
	names.p = NULL;
	m->poly_first = malloc(((size_t)m->poly_count + 1) * sizeof *m->poly_first);
	m->poly_vert = malloc(refs.n * sizeof *m->poly_vert);
	m->centroid = malloc((size_t)m->poly_count * 2 * sizeof *m->centroid);
	m->area2 = malloc((size_t)m->poly_count * sizeof *m->area2);
	if (!m->poly_first || !m->poly_vert || !m->centroid || !m->area2)
		goto oom;
	const uint32_t *first = faces.p;
	const int64_t *r = refs.p;
	for (uint32_t f = 0; f < m->poly_count; f++) {
		size_t lo = first[f], hi = f + 1 < m->poly_count ? first[f + 1] : refs.n;
		m->poly_first[f] = (uint32_t)lo;
		for (size_t i = lo; i < hi; i++) {
			if (r[i] > (int64_t)m->vertex_count) {
				twz_error_set(err, "%s:%u: face vertex %lld is out of range (%u vertices)",
					      name, m->poly_line[f], (long long)r[i],
					      m->vertex_count);
				goto out;
			}
			m->poly_vert[i] = (uint32_t)(r[i] - 1);
		}
	}
	m->poly_first[m->poly_count] = (uint32_t)refs.n;
	for (int a = 0; a < 3; a++) {
		m->min[a] = INFINITY;
		m->max[a] = -INFINITY;
	}
	for (uint32_t f = 0; f < m->poly_count; f++) {
		const uint32_t *idx = m->poly_vert + m->poly_first[f];
		uint32_t n = m->poly_first[f + 1] - m->poly_first[f];
		if (check_face(m, idx, n, name, m->poly_line[f], &m->area2[f], err) < 0)
			goto out;
		twz_nm_poly_center(m->vert, idx, n, &m->centroid[2 * f],
				   &m->centroid[2 * f + 1]);
		for (uint32_t i = 0; i < n; i++)
			for (int a = 0; a < 3; a++) {
				double c = m->vert[3 * (size_t)idx[i] + a];
				if (c < m->min[a]) m->min[a] = c;
				if (c > m->max[a]) m->max[a] = c;
			}
	}
	if (build_graph(m, name, err) < 0)
		goto out;
	m->level_hash = twz_level_hash(buf, len);
	rc = 0;
	goto out;
oom:
	nomem(err, name);
out:
	free(verts.p);
	free(refs.p);
	free(faces.p);
	free(lines.p);
	free(groups.p);
	free(names.p);
	if (rc < 0)
		twz_navmesh_free(m);
	return rc;
}

int twz_navmesh_load(const char *path, struct twz_navmesh *m,
		     struct twz_error *err)
{
	size_t len;
	uint8_t *buf = twz_read_file(path, TWZ_MAX_LEVEL_BYTES, &len, err);

	if (!buf)
		return -1;
	int rc = twz_navmesh_parse(buf, len, path, m, err);
	free(buf);
	return rc;
}
