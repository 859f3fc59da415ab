/*
 * runtime_driver.c - the runtime's answers checked with neither Check nor
 * the tool, so that they run where those do not build: the Windows build
 * runs this under Wine (scripts/test.sh, step windows), the native build
 * runs it too.
 *
 *   runtime_driver GOLDEN_DIR [LEVEL.map FILE.twz]...
 *
 * More LEVEL.map;FILE.twz pairs may come in the environment variable
 * TWZ_BAKED, separated by ';' (Windows paths hold ':').
 *
 * Each database is opened from its file and from memory; its info, every
 * cell's node, and the paths, costs, next moves and flow fields of a
 * sample of sources are compared with a plain Dijkstra on the level read
 * here, and the golden files with their known answers. Then the error
 * paths: no file, a directory, a device, empty, short, truncated and
 * damaged files, and a file with a UTF-8 name; and threads that query one
 * handle at once answer as one thread did. Files it writes go to the
 * working directory and are removed (which, on Windows, also proves that
 * twz_close unmapped them).
 */
/* C99 printf on MinGW too (%zu, %llu). */
#define __USE_MINGW_ANSI_STDIO 1

#include "twigz.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <pthread.h>
#endif

static unsigned long checks, failures;

#if defined(__MINGW32__)
#define PRINTF_LIKE __attribute__((format(gnu_printf, 3, 4)))
#elif defined(__GNUC__)
#define PRINTF_LIKE __attribute__((format(printf, 3, 4)))
#else
#define PRINTF_LIKE
#endif

static void check(int ok, int line, const char *fmt, ...) PRINTF_LIKE;

static void check(int ok, int line, const char *fmt, ...)
{
	va_list ap;

	checks++;
	if (ok)
		return;
	if (++failures <= 40) {
		fprintf(stderr, "runtime_driver.c:%d: ", line);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
}

#define CHECK(cond, ...) check((cond) != 0, __LINE__, __VA_ARGS__)

/* ---- files (UTF-8 names on Windows too) ------------------------------ */

static FILE *open_utf8(const char *path, const char *mode)
{
#ifdef _WIN32
	wchar_t wpath[1024], wmode[8];

	if (!MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1,
				 wpath, 1024) ||
	    !MultiByteToWideChar(CP_UTF8, 0, mode, -1, wmode, 8))
		return NULL;
	return _wfopen(wpath, wmode);
#else
	return fopen(path, mode);
#endif
}

static int remove_utf8(const char *path)
{
#ifdef _WIN32
	wchar_t wpath[1024];

	if (!MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1,
				 wpath, 1024))
		return -1;
	return _wremove(wpath);
#else
	return remove(path);
#endif
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = open_utf8(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n == cap) {
			uint8_t *grown = realloc(buf, cap ? 2 * cap : 65536);
			if (!grown) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = grown;
			cap = cap ? 2 * cap : 65536;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	*len = n;
	return buf;
}

static int write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = open_utf8(path, "wb");

	if (!f)
		return -1;
	int ok = fwrite(buf, 1, len, f) == len;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* ---- the level and a plain Dijkstra on it ---------------------------- */

struct level {
	uint32_t w, h;
	uint8_t *walk;          /* [w*h] */
	uint64_t hash;          /* XXH3-64 of the file's bytes */
};

static const int move_dx[8] = { 0, 1, 0, -1, 1, 1, -1, -1 };
static const int move_dy[8] = { -1, 0, 1, 0, -1, 1, 1, -1 };

/* A line of the level text: [*at, end) without its line end. */
static const char *next_line(const char **at, const char *end, size_t *n)
{
	const char *s = *at, *e = s;

	if (s >= end)
		return NULL;
	while (e < end && *e != '\n')
		e++;
	*at = e < end ? e + 1 : e;
	*n = (size_t)(e - s);
	if (*n && s[*n - 1] == '\r')
		(*n)--;
	return s;
}

/* An octile .map: type, height, width, map, then the rows. */
static int level_load(const char *path, struct level *lv)
{
	size_t len, n;
	uint8_t *text = read_file(path, &len);
	const char *at, *end, *line;
	unsigned long w = 0, h = 0;

	memset(lv, 0, sizeof *lv);
	if (!text)
		return -1;
	lv->hash = XXH3_64bits(text, len);
	at = (const char *)text;
	end = at + len;
	while ((line = next_line(&at, end, &n)) != NULL) {
		char copy[64], word[16] = "";
		unsigned long v = 0;
		if (n == 3 && !memcmp(line, "map", 3))
			break;
		if (n >= sizeof copy)
			continue;
		memcpy(copy, line, n);
		copy[n] = 0;
		if (sscanf(copy, "%15s %lu", word, &v) == 2) {
			if (!strcmp(word, "height"))
				h = v;
			else if (!strcmp(word, "width"))
				w = v;
		}
	}
	if (!w || !h || w > 4096 || h > 4096) {
		free(text);
		return -1;
	}
	lv->w = (uint32_t)w;
	lv->h = (uint32_t)h;
	lv->walk = calloc(w * h, 1);
	for (uint32_t y = 0; lv->walk && y < h; y++) {
		line = next_line(&at, end, &n);
		if (!line || n != w) {
			free(lv->walk);
			lv->walk = NULL;
			break;
		}
		for (uint32_t x = 0; x < w; x++)
			lv->walk[(size_t)y * w + x] =
				line[x] == '.' || line[x] == 'G' || line[x] == 'S';
	}
	free(text);
	return lv->walk ? 0 : -1;
}

static int walkable(const struct level *lv, int64_t x, int64_t y)
{
	return x >= 0 && y >= 0 && x < lv->w && y < lv->h &&
	       lv->walk[(size_t)y * lv->w + (size_t)x];
}

/* The move m from (x, y) is legal: the target walkable and, for a
 * diagonal, both cells it passes between (no corner cutting). */
static int move_legal(const struct level *lv, int64_t x, int64_t y, int m)
{
	int64_t nx = x + move_dx[m], ny = y + move_dy[m];

	return walkable(lv, nx, ny) &&
	       (m < 4 || (walkable(lv, nx, y) && walkable(lv, x, ny)));
}

/* straight + diagonal * sqrt(2); UINT32_MAX straight: unreached. */
struct cost {
	uint32_t s, d;
};

/* a < b, exactly. */
static int cost_less(struct cost a, struct cost b)
{
	int64_t ds = (int64_t)b.s - a.s, dd = (int64_t)a.d - b.d;

	/* a < b  <=>  dd * sqrt(2) < ds */
	if (dd <= 0)
		return ds > 0 || (ds <= 0 && 2 * dd * dd > ds * ds && dd < 0);
	return ds > 0 && 2 * dd * dd < ds * ds;
}

struct heap {
	uint32_t *cell;
	size_t n;
};

static void heap_push(struct heap *hp, const struct cost *dist, uint32_t c)
{
	size_t i = hp->n++;

	while (i && cost_less(dist[c], dist[hp->cell[(i - 1) / 2]])) {
		hp->cell[i] = hp->cell[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	hp->cell[i] = c;
}

static uint32_t heap_pop(struct heap *hp, const struct cost *dist)
{
	uint32_t top = hp->cell[0], last = hp->cell[--hp->n];
	size_t i = 0;

	for (;;) {
		size_t k = 2 * i + 1;
		if (k >= hp->n)
			break;
		if (k + 1 < hp->n && cost_less(dist[hp->cell[k + 1]], dist[hp->cell[k]]))
			k++;
		if (!cost_less(dist[hp->cell[k]], dist[last]))
			break;
		hp->cell[i] = hp->cell[k];
		i = k;
	}
	hp->cell[i] = last;
	return top;
}

/* Every cell's cost from (sx, sy); a cell is pushed again whenever its
 * cost falls, so the heap holds at most one entry a move. */
static void dijkstra(const struct level *lv, unsigned conn, uint32_t sx,
		     uint32_t sy, struct cost *dist, struct heap *hp)
{
	size_t cells = (size_t)lv->w * lv->h;
	uint8_t *done = calloc(cells, 1);

	for (size_t c = 0; c < cells; c++)
		dist[c].s = UINT32_MAX, dist[c].d = 0;
	if (!done)
		return;
	uint32_t src = sy * lv->w + sx;
	dist[src].s = 0;
	hp->n = 0;
	heap_push(hp, dist, src);
	while (hp->n) {
		uint32_t c = heap_pop(hp, dist);
		if (done[c])
			continue;
		done[c] = 1;
		int64_t x = c % lv->w, y = c / lv->w;
		for (unsigned m = 0; m < conn; m++) {
			if (!move_legal(lv, x, y, (int)m))
				continue;
			uint32_t nc = (uint32_t)((y + move_dy[m]) * lv->w +
						 (x + move_dx[m]));
			struct cost nd = dist[c];
			if (m < 4)
				nd.s++;
			else
				nd.d++;
			if (!done[nc] && (dist[nc].s == UINT32_MAX ||
					  cost_less(nd, dist[nc]))) {
				dist[nc] = nd;
				heap_push(hp, dist, nc);
			}
		}
	}
	free(done);
}

static int cost_eq(struct cost a, struct cost b)
{
	return a.s == b.s && a.d == b.d;
}

/* Connected regions under the level's moves. */
static uint32_t count_regions(const struct level *lv, unsigned conn)
{
	size_t cells = (size_t)lv->w * lv->h;
	uint8_t *seen = calloc(cells, 1);
	uint32_t *stack = malloc(cells * sizeof *stack);
	uint32_t regions = 0;

	for (size_t c = 0; seen && stack && c < cells; c++) {
		if (!lv->walk[c] || seen[c])
			continue;
		regions++;
		size_t n = 0;
		stack[n++] = (uint32_t)c;
		seen[c] = 1;
		while (n) {
			uint32_t k = stack[--n];
			int64_t x = k % lv->w, y = k / lv->w;
			for (unsigned m = 0; m < conn; m++) {
				if (!move_legal(lv, x, y, (int)m))
					continue;
				uint32_t nk = (uint32_t)((y + move_dy[m]) * lv->w +
							 (x + move_dx[m]));
				if (!seen[nk]) {
					seen[nk] = 1;
					stack[n++] = nk;
				}
			}
		}
	}
	free(seen);
	free(stack);
	return regions;
}

/* ---- one database against its level ---------------------------------- */

/* The move from a to b, or -1 when they are not one legal move apart. */
static int move_between(const struct level *lv, unsigned conn, uint32_t ax,
			uint32_t ay, uint32_t bx, uint32_t by)
{
	for (unsigned m = 0; m < conn; m++)
		if ((int64_t)ax + move_dx[m] == bx &&
		    (int64_t)ay + move_dy[m] == by)
			return move_legal(lv, ax, ay, (int)m) ? (int)m : -1;
	return -1;
}

/* The path's moves are legal, counted into *c. */
static int path_moves(const twz_db *db, const struct level *lv, unsigned conn,
		      const twz_node *p, size_t len, struct cost *c)
{
	uint32_t x, y, nx, ny;

	c->s = c->d = 0;
	if (twz_node_xy(db, p[0], &x, &y) != TWZ_OK)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if (twz_node_xy(db, p[i], &nx, &ny) != TWZ_OK)
			return 0;
		int m = move_between(lv, conn, x, y, nx, ny);
		if (m < 0)
			return 0;
		if (m < 4)
			c->s++;
		else
			c->d++;
		x = nx;
		y = ny;
	}
	return 1;
}

/* Sources (and flow-field targets) checked against Dijkstra. */
#define SAMPLE 24

static void check_db(const twz_db *db, const struct level *lv,
		     const char *name, size_t file_len)
{
	twz_info in;
	size_t cells = (size_t)lv->w * lv->h;
	uint32_t walk = 0;

	CHECK(twz_get_info(db, &in) == TWZ_OK, "%s: twz_get_info", name);
	for (size_t c = 0; c < cells; c++)
		walk += lv->walk[c];
	CHECK(in.format_major == 1, "%s: major %u", name, in.format_major);
	CHECK(in.method == 1 || in.method == 2, "%s: method %u", name, in.method);
	CHECK(in.connectivity == 8 || in.connectivity == 4, "%s: connectivity %u",
	      name, in.connectivity);
	unsigned conn = in.connectivity == 4 ? 4 : 8;
	CHECK(in.width == lv->w && in.height == lv->h, "%s: %ux%u, level %ux%u",
	      name, in.width, in.height, lv->w, lv->h);
	if (in.width != lv->w || in.height != lv->h)
		return;
	CHECK(in.node_count == walk && twz_node_count(db) == walk,
	      "%s: %u nodes, level has %u walkable cells", name, in.node_count,
	      walk);
	CHECK(in.component_count == count_regions(lv, conn),
	      "%s: %u regions, level has %u", name, in.component_count,
	      count_regions(lv, conn));
	CHECK(in.file_size == file_len, "%s: file_size %llu of %zu bytes", name,
	      (unsigned long long)in.file_size, file_len);
	CHECK(in.level_hash == lv->hash, "%s: level_hash", name);
	CHECK(in.memory_size > 0, "%s: memory_size 0", name);

	/* Every cell's node, and back. */
	uint8_t *seen = calloc(walk ? walk : 1, 1);
	twz_node *node = malloc(cells * sizeof *node);
	if (!seen || !node) {
		CHECK(0, "out of memory");
		free(seen);
		free(node);
		return;
	}
	for (uint32_t y = 0; y < lv->h; y++)
		for (uint32_t x = 0; x < lv->w; x++) {
			twz_node n = twz_node_at(db, x, y);
			uint32_t nx = UINT32_MAX, ny = UINT32_MAX;
			node[(size_t)y * lv->w + x] = n;
			if (!lv->walk[(size_t)y * lv->w + x]) {
				CHECK(n == TWZ_NONE, "%s: blocked (%u,%u) has node %u",
				      name, x, y, n);
				continue;
			}
			CHECK(n < walk && !seen[n], "%s: (%u,%u): node %u",
			      name, x, y, n);
			if (n >= walk)
				continue;
			seen[n] = 1;
			CHECK(twz_node_xy(db, n, &nx, &ny) == TWZ_OK && nx == x &&
			      ny == y, "%s: node %u at (%u,%u), not (%u,%u)",
			      name, n, nx, ny, x, y);
		}
	CHECK(twz_node_at(db, -1, 0) == TWZ_NONE &&
	      twz_node_at(db, lv->w, 0) == TWZ_NONE &&
	      twz_node_at(db, 0, lv->h) == TWZ_NONE, "%s: off the grid", name);
	CHECK(twz_node_xy(db, walk, NULL, NULL) == TWZ_E_ARGUMENT,
	      "%s: node_xy of node_count", name);
	free(seen);
	if (!walk) {
		free(node);
		return;
	}

	struct cost *dist = malloc(cells * sizeof *dist);
	struct heap hp = { malloc((8 * cells + 1) * sizeof *hp.cell), 0 };
	twz_node *path = malloc((walk + 1) * sizeof *path);
	twz_node *flow = malloc(walk * sizeof *flow);
	if (!dist || !hp.cell || !path || !flow) {
		CHECK(0, "out of memory");
		goto out;
	}
	size_t stride = walk > SAMPLE ? walk / SAMPLE : 1;
	for (size_t c0 = 0, k = 0; c0 < cells; c0++) {
		if (node[c0] == TWZ_NONE || k++ % stride)
			continue;
		twz_node s = node[c0];
		uint32_t sx = (uint32_t)(c0 % lv->w), sy = (uint32_t)(c0 / lv->w);
		dijkstra(lv, conn, sx, sy, dist, &hp);
		/* s to every node. */
		for (size_t c = 0; c < cells; c++) {
			twz_node t = node[c];
			if (t == TWZ_NONE)
				continue;
			struct cost got = { 99, 99 }, walked;
			size_t len = 99;
			twz_status st = twz_cost_exact(db, s, t, &got.s, &got.d);
			if (dist[c].s == UINT32_MAX) {
				CHECK(st == TWZ_E_UNREACHABLE, "%s: %u->%u: %s, not unreachable",
				      name, s, t, twz_strerror(st));
				CHECK(twz_next(db, s, t) == TWZ_NONE, "%s: next %u->%u", name, s, t);
				CHECK(isinf(twz_cost(db, s, t)), "%s: cost %u->%u", name, s, t);
				CHECK(twz_path(db, s, t, path, walk, &len) == TWZ_E_UNREACHABLE &&
				      len == 0, "%s: path %u->%u", name, s, t);
				continue;
			}
			CHECK(st == TWZ_OK && cost_eq(got, dist[c]),
			      "%s: %u->%u: %s %u+%u*sqrt2, Dijkstra %u+%u*sqrt2", name,
			      s, t, twz_strerror(st), got.s, got.d, dist[c].s, dist[c].d);
			double want = dist[c].s + dist[c].d * sqrt(2.0);
			CHECK(fabs(twz_cost(db, s, t) - want) <= 1e-9 * (1 + want),
			      "%s: twz_cost %u->%u", name, s, t);
			st = twz_path(db, s, t, path, walk, &len);
			CHECK(st == TWZ_OK && len >= 1 && path[0] == s &&
			      path[len - 1] == t, "%s: path %u->%u: %s", name, s, t,
			      twz_strerror(st));
			if (st != TWZ_OK || len < 1)
				continue;
			CHECK(path_moves(db, lv, conn, path, len, &walked) &&
			      cost_eq(walked, dist[c]),
			      "%s: path %u->%u is not a legal optimal walk", name, s, t);
			CHECK(twz_next(db, s, t) == (len > 1 ? path[1] : t),
			      "%s: next %u->%u is not the path's", name, s, t);
			if (len > 2) {
				twz_node head[2] = { TWZ_NONE, TWZ_NONE };
				size_t full = 0;
				CHECK(twz_path(db, s, t, head, 2, &full) ==
					      TWZ_E_BUFFER_TOO_SMALL &&
				      full == len && head[0] == path[0] &&
				      head[1] == path[1],
				      "%s: path %u->%u into 2 nodes", name, s, t);
			}
		}
		CHECK(twz_next(db, s, walk) == TWZ_NONE && twz_cost(db, s, TWZ_NONE) < 0 &&
		      twz_path(db, s, walk, path, walk, &(size_t){ 0 }) == TWZ_E_ARGUMENT,
		      "%s: an invalid node", name);

		/* The flow field toward s: distances are symmetric, so dist
		 * holds every node's cost to s. */
		CHECK(twz_flow_field(db, s, flow, walk - 1) == TWZ_E_ARGUMENT,
		      "%s: a flow field with too little room", name);
		CHECK(twz_flow_field(db, s, flow, walk) == TWZ_OK,
		      "%s: flow field toward %u", name, s);
		for (size_t c = 0; c < cells; c++) {
			twz_node n = node[c];
			if (n == TWZ_NONE)
				continue;
			CHECK(flow[n] == twz_next(db, n, s), "%s: flow %u->%u is not next",
			      name, n, s);
			if (dist[c].s == UINT32_MAX) {
				CHECK(flow[n] == TWZ_NONE, "%s: flow from unreachable %u", name, n);
				continue;
			}
			if (n == s) {
				CHECK(flow[n] == s, "%s: flow at its target", name);
				continue;
			}
			uint32_t x = (uint32_t)(c % lv->w), y = (uint32_t)(c / lv->w);
			uint32_t nx, ny;
			CHECK(flow[n] < walk && twz_node_xy(db, flow[n], &nx, &ny) == TWZ_OK,
			      "%s: flow %u->%u: node %u", name, n, s, flow[n]);
			if (flow[n] >= walk)
				continue;
			int m = move_between(lv, conn, x, y, nx, ny);
			struct cost step = dist[(size_t)ny * lv->w + nx];
			if (m >= 0) {
				if (m < 4)
					step.s++;
				else
					step.d++;
			}
			CHECK(m >= 0 && cost_eq(step, dist[c]),
			      "%s: flow %u->%u: not an optimal move", name, n, s);
		}
	}
out:
	free(dist);
	free(hp.cell);
	free(path);
	free(flow);
	free(node);
}

/* ---- one handle, many threads ---------------------------------------- */

#define THREADS 4
#define PAIRS 512

/* What a query answers for a pair, folded into one number. */
static uint64_t answer(const twz_db *db, twz_node s, twz_node t,
		       twz_node *path, size_t cap)
{
	uint32_t a = 0, b = 0;
	size_t len = 0;
	uint64_t h = twz_next(db, s, t);

	h = h * 1000003u + (uint64_t)twz_cost_exact(db, s, t, &a, &b);
	h = h * 1000003u + a;
	h = h * 1000003u + b;
	h = h * 1000003u + (uint64_t)twz_path(db, s, t, path, cap, &len);
	for (size_t i = 0; i < len && i < cap; i++)
		h = h * 1000003u + path[i];
	return h;
}

struct worker {
	const twz_db *db;
	const twz_node *pairs;  /* [2 * PAIRS] */
	const uint64_t *want;   /* [PAIRS] */
	unsigned id;
	unsigned long wrong;
	int no_memory;
};

static void work(struct worker *w)
{
	size_t cap = twz_node_count(w->db);
	twz_node *path = malloc((cap ? cap : 1) * sizeof *path);

	if (!path) {
		w->no_memory = 1;
		return;
	}
	/* Each thread walks the pairs several times, from its own start. */
	for (unsigned round = 0; round < 4; round++)
		for (size_t i = 0; i < PAIRS; i++) {
			size_t k = (i + round * 97u + w->id * 131u) % PAIRS;
			if (answer(w->db, w->pairs[2 * k], w->pairs[2 * k + 1], path,
				   cap) != w->want[k])
				w->wrong++;
		}
	free(path);
}

#ifdef _WIN32
static DWORD WINAPI work_thread(void *arg)
{
	work(arg);
	return 0;
}
#else
static void *work_thread(void *arg)
{
	work(arg);
	return NULL;
}
#endif

/* Several threads query one handle at once and answer as one did. */
static void check_threads(const twz_db *db, const char *name)
{
	uint32_t n = twz_node_count(db);
	twz_node *pairs = malloc(2 * PAIRS * sizeof *pairs), *path;
	uint64_t *want = malloc(PAIRS * sizeof *want), rng = 0x9E3779B97F4A7C15u;
	struct worker w[THREADS];

	path = malloc((n ? n : 1) * sizeof *path);
	if (!n || !pairs || !want || !path) {
		CHECK(n == 0, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < 2 * PAIRS; i++) {
		rng = rng * 6364136223846793005u + 1442695040888963407u;
		pairs[i] = (twz_node)((rng >> 33) % n);
	}
	for (size_t i = 0; i < PAIRS; i++)
		want[i] = answer(db, pairs[2 * i], pairs[2 * i + 1], path, n);
	for (int k = 0; k < THREADS; k++)
		w[k] = (struct worker){ db, pairs, want, (unsigned)k, 0, 0 };
#ifdef _WIN32
	HANDLE th[THREADS];
	for (int k = 0; k < THREADS; k++) {
		th[k] = CreateThread(NULL, 0, work_thread, &w[k], 0, NULL);
		CHECK(th[k] != NULL, "%s: CreateThread", name);
	}
	for (int k = 0; k < THREADS; k++)
		if (th[k]) {
			WaitForSingleObject(th[k], INFINITE);
			CloseHandle(th[k]);
		}
#else
	pthread_t th[THREADS];
	int started[THREADS];
	for (int k = 0; k < THREADS; k++) {
		started[k] = pthread_create(&th[k], NULL, work_thread, &w[k]) == 0;
		CHECK(started[k], "%s: pthread_create", name);
	}
	for (int k = 0; k < THREADS; k++)
		if (started[k])
			pthread_join(th[k], NULL);
#endif
	for (int k = 0; k < THREADS; k++)
		CHECK(!w[k].wrong && !w[k].no_memory,
		      "%s: thread %d: %lu answers differ from one thread's", name,
		      k, w[k].wrong);
out:
	free(pairs);
	free(want);
	free(path);
}

/* The database in path, from its file and from memory. */
static void check_file(const char *path, const struct level *lv)
{
	twz_db *db = NULL;
	size_t len = 0;
	uint8_t *bytes = read_file(path, &len);

	CHECK(bytes != NULL, "%s: cannot read it", path);
	twz_status st = twz_open(path, 0, &db);
	CHECK(st == TWZ_OK && db, "%s: twz_open: %s", path, twz_strerror(st));
	if (db) {
		check_db(db, lv, path, len);
		check_threads(db, path);
	}
	twz_close(db);
	if (!bytes)
		return;
	db = NULL;
	st = twz_open_memory(bytes, len, 0, &db);
	CHECK(st == TWZ_OK && db, "%s: twz_open_memory: %s", path, twz_strerror(st));
	if (db)
		check_db(db, lv, path, len);
	twz_close(db);
	free(bytes);
}

/* ---- the golden files ------------------------------------------------ */

/* Answers of tests/golden/v1_0.map, as tests/check_format.c knows them. */
static const struct known {
	unsigned sx, sy, gx, gy, reachable, straight, diagonal;
} golden_answers[] = {
	{ 0, 0, 9, 11, 1, 14, 3 },
	{ 0, 0, 0, 11, 1, 15, 0 },
	{ 2, 2, 8, 4, 1, 8, 0 },
	{ 5, 4, 9, 2, 1, 4, 1 },
	{ 11, 0, 15, 11, 1, 11, 2 },
	{ 14, 10, 11, 0, 1, 11, 2 },
	{ 3, 3, 3, 3, 1, 0, 0 },
	{ 0, 0, 15, 0, 0, 0, 0 },
	{ 15, 11, 9, 11, 0, 0, 0 },
};

static const struct golden {
	const char *name;
	unsigned minor, method, codec;
} goldens[] = {
	{ "v1_0.twz", 0, 1, 0 },
	{ "v1_0_zstd.twz", 0, 1, 1 },
	{ "v1_1.twz", 1, 1, 0 },
	{ "v1_1_zstd.twz", 1, 1, 1 },
	{ "v1_2.twz", 2, 1, 0 },
	{ "v1_2_zstd.twz", 2, 1, 1 },
	{ "v1_1_transit.twz", 1, 2, 0 },
};

static void check_golden(const char *dir, const struct golden *g,
			 const struct level *lv)
{
	char path[1024];
	twz_db *db = NULL;
	twz_info in;

	snprintf(path, sizeof path, "%s/%s", dir, g->name);
	twz_status st = twz_open(path, 0, &db);
	CHECK(st == TWZ_OK, "%s: %s", path, twz_strerror(st));
	if (st != TWZ_OK)
		return;
	twz_get_info(db, &in);
	CHECK(in.format_minor == g->minor && in.method == g->method &&
	      in.build_codec == g->codec && in.connectivity == 8 &&
	      in.width == 16 && in.height == 12 && in.node_count == 138 &&
	      in.component_count == 2, "%s: info", path);
	for (size_t i = 0; i < sizeof golden_answers / sizeof *golden_answers; i++) {
		const struct known *k = &golden_answers[i];
		twz_node s = twz_node_at(db, k->sx, k->sy), t = twz_node_at(db, k->gx, k->gy);
		uint32_t a = 99, b = 99;
		st = twz_cost_exact(db, s, t, &a, &b);
		if (k->reachable)
			CHECK(st == TWZ_OK && a == k->straight && b == k->diagonal,
			      "%s: (%u,%u)->(%u,%u): %s %u+%u*sqrt2", path, k->sx,
			      k->sy, k->gx, k->gy, twz_strerror(st), a, b);
		else
			CHECK(st == TWZ_E_UNREACHABLE, "%s: (%u,%u)->(%u,%u): %s",
			      path, k->sx, k->sy, k->gx, k->gy, twz_strerror(st));
	}
	twz_close(db);
	check_file(path, lv);
}

/* ---- error paths ----------------------------------------------------- */

#define TMP_PREFIX "runtime_driver_"

/* twz_open's status for bytes written to a file, and twz_open_memory's. */
static void expect_bytes(const char *what, const uint8_t *buf, size_t len,
			 twz_status want)
{
	const char *path = TMP_PREFIX "case.twz";
	twz_db *db = (twz_db *)&db;

	CHECK(write_file(path, buf, len) == 0, "%s: cannot write %s", what, path);
	twz_status st = twz_open(path, 0, &db);
	CHECK(st == want && (st == TWZ_OK) == (db != NULL),
	      "%s: twz_open: %s, want %s", what, twz_strerror(st), twz_strerror(want));
	twz_close(db);
	CHECK(remove_utf8(path) == 0, "%s: cannot remove %s after twz_close", what, path);
	db = (twz_db *)&db;
	st = twz_open_memory(len ? buf : (const uint8_t *)"", len, 0, &db);
	CHECK(st == want && (st == TWZ_OK) == (db != NULL),
	      "%s: twz_open_memory: %s, want %s", what, twz_strerror(st),
	      twz_strerror(want));
	twz_close(db);
}

static void expect_io(const char *path, int err, const char *what)
{
	twz_db *db = (twz_db *)&db;

	errno = 0;
	twz_status st = twz_open(path, 0, &db);
	int got = errno;
	CHECK(st == TWZ_E_IO && db == NULL && (!err || got == err),
	      "%s: twz_open: %s (errno %d: %s), want I/O error, errno %d",
	      what, twz_strerror(st), got, strerror(got), err);
}

static void check_errors(const char *dir, const struct level *lv)
{
	char path[1024], map[1024];
	twz_db *db = (twz_db *)&db;
	size_t len, maplen;

	snprintf(path, sizeof path, "%s/v1_2.twz", dir);
	snprintf(map, sizeof map, "%s/v1_0.map", dir);
	uint8_t *good = read_file(path, &len), *level = read_file(map, &maplen);
	CHECK(good && level && len > 1024, "%s: cannot read the golden files", dir);
	if (!good || !level || len <= 1024) {
		free(good);
		free(level);
		return;
	}
	uint8_t *bad = malloc(len);

	/* Arguments. */
	CHECK(twz_open(NULL, 0, &db) == TWZ_E_ARGUMENT && db == NULL, "NULL path");
	CHECK(twz_open(path, 0, NULL) == TWZ_E_ARGUMENT, "NULL out");
	CHECK(twz_open_memory(NULL, len, 0, &db) == TWZ_E_ARGUMENT, "NULL buffer");
	CHECK(twz_open_memory(good, len, 0, NULL) == TWZ_E_ARGUMENT, "NULL out");

	/* What the system refuses, with errno saying why. */
	expect_io(TMP_PREFIX "missing.twz", ENOENT, "a missing file");
	expect_io(TMP_PREFIX "missing/x.twz", ENOENT, "a missing folder");
	expect_io(dir, EISDIR, "a folder");
#ifdef _WIN32
	expect_io("NUL", EINVAL, "the NUL device");
	/* Not UTF-8: no file has that name. */
	expect_io(TMP_PREFIX "\xff\xfe.twz", EILSEQ, "a name that is not UTF-8");
#else
	expect_io("/dev/null", EINVAL, "/dev/null");
#endif

	/* What the format refuses, from a file and from memory alike. */
	expect_bytes("an empty file", good, 0, TWZ_E_NOT_TWIGZ);
	expect_bytes("7 bytes of a database", good, 7, TWZ_E_NOT_TWIGZ);
	expect_bytes("a level file", level, maplen, TWZ_E_NOT_TWIGZ);
	expect_bytes("the header alone", good, 128, TWZ_E_DAMAGED);
	expect_bytes("half a database", good, len / 2, TWZ_E_DAMAGED);
	expect_bytes("a database less its last byte", good, len - 1, TWZ_E_DAMAGED);
	memcpy(bad, good, len);
	bad[1] ^= 0x20;   /* "\x89twz": text-mode damage */
	expect_bytes("a damaged magic", bad, len, TWZ_E_NOT_TWIGZ);
	memcpy(bad, good, len);
	bad[8] = 2;       /* major 2 */
	expect_bytes("a newer major version", bad, len, TWZ_E_VERSION);
	memcpy(bad, good, len);
	bad[100] ^= 1;    /* a reserved header byte */
	expect_bytes("a damaged header", bad, len, TWZ_E_CHECKSUM);
	memcpy(bad, good, len);
	bad[len - 1] ^= 0x40;  /* inside the last section */
	expect_bytes("a damaged section", bad, len, TWZ_E_CHECKSUM);
	expect_bytes("the whole database", good, len, TWZ_OK);

	/* A UTF-8 name: e-acute, a Greek letter and an arrow. */
	const char *utf8 = TMP_PREFIX "\xc3\xa9t\xc3\xa9_\xce\xbb_\xe2\x86\x92.twz";
	CHECK(write_file(utf8, good, len) == 0, "cannot write the UTF-8 name");
	twz_db *a = NULL, *b = NULL;
	twz_status st = twz_open(utf8, 0, &a);
	CHECK(st == TWZ_OK, "a UTF-8 file name: %s", twz_strerror(st));
	/* Open twice at once: readers share the file. */
	st = twz_open(utf8, TWZ_OPEN_SKIP_CHECKSUMS, &b);
	CHECK(st == TWZ_OK, "the same file twice: %s", twz_strerror(st));
	if (a)
		check_db(a, lv, utf8, len);
	if (b)
		check_db(b, lv, utf8, len);
	twz_close(a);
	twz_close(b);
	CHECK(remove_utf8(utf8) == 0, "cannot remove the UTF-8 name after twz_close");

	free(bad);
	free(good);
	free(level);
}

/* ---- main ------------------------------------------------------------ */

static void check_baked(const char *map, const char *twz)
{
	struct level lv;

	if (level_load(map, &lv) != 0) {
		CHECK(0, "%s: cannot read the level", map);
		return;
	}
	check_file(twz, &lv);
	free(lv.walk);
}

int main(int argc, char **argv)
{
	struct level golden;
	char map[1024];
	unsigned long baked = 0;

	if (argc < 2 || argc % 2) {
		fprintf(stderr, "usage: runtime_driver GOLDEN_DIR [LEVEL.map FILE.twz]...\n");
		return 2;
	}
	printf("runtime_driver: libtwigz %s\n", twz_version());
	snprintf(map, sizeof map, "%s/v1_0.map", argv[1]);
	if (level_load(map, &golden) != 0) {
		fprintf(stderr, "%s: cannot read the golden level\n", map);
		return 1;
	}
	for (size_t i = 0; i < sizeof goldens / sizeof *goldens; i++)
		check_golden(argv[1], &goldens[i], &golden);
	printf("golden files: %lu checks, %lu failed\n", checks, failures);

	check_errors(argv[1], &golden);
	printf("error paths: %lu checks, %lu failed\n", checks, failures);

	for (int i = 2; i + 1 < argc; i += 2, baked++)
		check_baked(argv[i], argv[i + 1]);
	/* TWZ_BAKED: LEVEL.map;FILE.twz;... */
	const char *env = getenv("TWZ_BAKED");
	while (env && *env) {
		char pair[2][1024];
		for (int k = 0; k < 2; k++) {
			size_t n = strcspn(env, ";");
			CHECK(n > 0 && n < sizeof pair[k], "TWZ_BAKED: a bad entry");
			if (n == 0 || n >= sizeof pair[k])
				return 1;
			memcpy(pair[k], env, n);
			pair[k][n] = 0;
			env += n + (env[n] == ';');
		}
		check_baked(pair[0], pair[1]);
		baked++;
	}
	printf("%lu baked databases: %lu checks, %lu failed\n", baked, checks,
	       failures);
	free(golden.walk);
	printf("%lu passed, %lu failed\n", checks - failures, failures);
	return failures ? 1 : 0;
}
