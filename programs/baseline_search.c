/*
 * baseline_search.c - the baselines' shared grid and state (see
 * baseline.h), and the searches over the plain move graph: Dijkstra, A*,
 * greedy best-first, breadth-first and depth-first. Jump point search is
 * in baseline_jps.c, the Evasion walker in baseline_evasion.c.
 */
#include "baseline.h"

#include <stdlib.h>
#include <string.h>

#include "twz_format.h"

#define SQRT2 1.41421356237309504880

static const struct {
	const char *name;
	const char *title;
} kinds[TWZ_BASELINE_COUNT] = {
	[TWZ_BASELINE_DIJKSTRA] = { "dijkstra", "Dijkstra" },
	[TWZ_BASELINE_ASTAR] = { "astar", "A* (octile)" },
	[TWZ_BASELINE_GREEDY] = { "greedy", "greedy best-first" },
	[TWZ_BASELINE_BFS] = { "bfs", "breadth-first" },
	[TWZ_BASELINE_DFS] = { "dfs", "depth-first" },
	[TWZ_BASELINE_JPS] = { "jps", "jump point search" },
	[TWZ_BASELINE_EVASION] = { "evasion", "Evasion (tracing)" },
};

const char *twz_baseline_name(enum twz_baseline_kind k)
{
	return k < TWZ_BASELINE_COUNT ? kinds[k].name : "?";
}

const char *twz_baseline_title(enum twz_baseline_kind k)
{
	return k < TWZ_BASELINE_COUNT ? kinds[k].title : "?";
}

int twz_baseline_find(const char *name)
{
	for (int k = 0; k < TWZ_BASELINE_COUNT; k++)
		if (!strcmp(kinds[k].name, name))
			return k;
	return -1;
}

int twz_baseline_supported(enum twz_baseline_kind k, unsigned connectivity)
{
	if (k >= TWZ_BASELINE_COUNT)
		return 0;
	return k != TWZ_BASELINE_JPS || connectivity == 8;
}

int twz_baseline_optimal(enum twz_baseline_kind k, unsigned connectivity)
{
	switch (k) {
	case TWZ_BASELINE_DIJKSTRA:
	case TWZ_BASELINE_ASTAR:
	case TWZ_BASELINE_JPS:
		return 1;
	case TWZ_BASELINE_BFS:
		/* Fewest moves is cheapest only when every move costs 1. */
		return connectivity == 4;
	default:
		return 0;
	}
}

void twz_baseline_free(struct twz_baseline *b)
{
	free(b->neighbour);
	free(b->xy);
	free(b->cell);
	free(b->cell_node);
	free(b->open);
	free(b->state);
	free(b->heap);
	free(b->queue);
	free(b->walk);
	free(b->waypoint);
	memset(b, 0, sizeof *b);
}

static int db_walkable(const void *db, int64_t x, int64_t y)
{
	return twz_node_at(db, x, y) != TWZ_NONE;
}

int twz_baseline_init(struct twz_baseline *b, const twz_db *db)
{
	twz_info info;

	memset(b, 0, sizeof *b);
	if (twz_get_info(db, &info) != TWZ_OK)
		return -1;
	if (info.width > 0xFFFFu || info.height > 0xFFFFu)
		return -1;
	uint32_t n = info.node_count;
	size_t alloc_n = n ? n : 1;
	size_t cells = (size_t)(info.width + 2) * (info.height + 2);
	b->node_count = n;
	b->width = info.width;
	b->height = info.height;
	b->pw = info.width + 2;
	b->connectivity = info.connectivity == 4 ? 4 : 8;
	/* A closed node pushes at most one entry per move, plus the
	 * source. */
	b->heap_cap = (uint64_t)n * TWZ_MOVE_COUNT + 2;
	b->neighbour = malloc(alloc_n * TWZ_MOVE_COUNT * sizeof *b->neighbour);
	b->xy = malloc(alloc_n * sizeof *b->xy);
	b->cell = malloc(alloc_n * sizeof *b->cell);
	b->cell_node = malloc(cells * sizeof *b->cell_node);
	b->open = calloc(cells, 1);
	b->state = calloc(alloc_n, sizeof *b->state);
	b->heap = malloc((size_t)b->heap_cap * sizeof *b->heap);
	b->queue = malloc((alloc_n + 1) * sizeof *b->queue);
	if (!b->neighbour || !b->xy || !b->cell || !b->cell_node || !b->open ||
	    !b->state || !b->heap || !b->queue) {
		twz_baseline_free(b);
		return -1;
	}
	for (size_t c = 0; c < cells; c++)
		b->cell_node[c] = TWZ_NONE;
	for (uint32_t v = 0; v < n; v++) {
		uint32_t x, y;
		twz_node_xy(db, v, &x, &y);
		b->xy[v] = y << 16 | x;
		b->cell[v] = (y + 1) * b->pw + x + 1;
		b->cell_node[b->cell[v]] = v;
		b->open[b->cell[v]] = 1;
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			twz_node to = TWZ_NONE;
			if (m < b->connectivity &&
			    twz_move_legal(db_walkable, db, x, y, m))
				to = twz_node_at(db, (int64_t)x + twz_move_dx[m],
						 (int64_t)y + twz_move_dy[m]);
			b->neighbour[(size_t)v * TWZ_MOVE_COUNT + m] = to;
		}
	}
	return 0;
}

uint32_t twz_baseline_next_generation(struct twz_baseline *b)
{
	/* Start again from zero before the stamps would wrap. */
	if (b->generation >= 0x7FFFFFFEu) {
		for (uint32_t v = 0; v < b->node_count; v++)
			b->state[v].stamp = 0;
		b->generation = 0;
	}
	return ++b->generation;
}

static inline double octile(const struct twz_baseline *b, uint32_t p,
			    uint32_t q)
{
	int dx = abs((int)(p & 0xFFFF) - (int)(q & 0xFFFF));
	int dy = abs((int)(p >> 16) - (int)(q >> 16));

	if (b->connectivity == 4)
		return dx + dy;
	int lo = dx < dy ? dx : dy;
	return (dx + dy) + (SQRT2 - 2.0) * lo;
}

double twz_baseline_h(const struct twz_baseline *b, uint32_t u, uint32_t v)
{
	return octile(b, b->xy[u], b->xy[v]);
}

void twz_baseline_emit(const struct twz_baseline *b, const uint32_t *seq,
		       size_t len, int backwards, twz_node *path, size_t cap,
		       struct twz_baseline_result *r)
{
	uint32_t st = 0, dg = 0, prev = 0;

	for (size_t i = 0; i < len; i++) {
		uint32_t v = backwards ? seq[len - 1 - i] : seq[i];
		if (path && i < cap)
			path[i] = v;
		if (i) {
			uint32_t d = b->cell[v] > b->cell[prev] ?
				     b->cell[v] - b->cell[prev] :
				     b->cell[prev] - b->cell[v];
			if (d == 1 || d == b->pw)
				st++;
			else
				dg++;
		}
		prev = v;
	}
	r->straight = st;
	r->diagonal = dg;
	r->length = len;
	r->first = len > 1 ? (backwards ? seq[len - 2] : seq[1]) : seq[0];
}

/* The parent chain from t back to s, into the queue (target first). */
static int chain(struct twz_baseline *b, uint32_t s, uint32_t t,
		 twz_node *path, size_t cap, struct twz_baseline_result *r)
{
	size_t k = 0;

	for (uint32_t v = t; v != s; v = b->state[v].parent)
		b->queue[k++] = v;
	b->queue[k++] = s;
	twz_baseline_emit(b, b->queue, k, 1, path, cap, r);
	return 0;
}

/*
 * Dijkstra (no heuristic), A* (f = g + h) and greedy best-first (f = h,
 * each node generated once and never improved). Written once, compiled
 * per kind with the kind a constant.
 */
static inline int best_first(struct twz_baseline *b, const int kind,
			     uint32_t s, uint32_t t, twz_node *path,
			     size_t cap, struct twz_baseline_result *r)
{
	static const double move_cost[TWZ_MOVE_COUNT] = {
		1, 1, 1, 1, SQRT2, SQRT2, SQRT2, SQRT2
	};
	const int dijkstra = kind == TWZ_BASELINE_DIJKSTRA;
	const int greedy = kind == TWZ_BASELINE_GREEDY;
	struct twz_baseline_entry *heap = b->heap;
	const uint32_t gen = twz_baseline_next_generation(b);
	const uint32_t open = 2 * gen, closed = open + 1;
	const uint32_t goal = b->xy[t];
	size_t len = 0;

	double hs = dijkstra ? 0 : octile(b, b->xy[s], goal);
	b->state[s] = (struct twz_baseline_node){ 0.0, open, TWZ_NONE };
	b->generated = 1;
	twz_baseline_mark(b, s, TWZ_TRACE_GENERATED);
	twz_baseline_push(heap, &len, (struct twz_baseline_entry){
		hs, (float)hs, s });
	while (len) {
		struct twz_baseline_entry e = twz_baseline_pop(heap, &len);
		uint32_t u = e.node;
		struct twz_baseline_node *su = &b->state[u];
		/* A stale duplicate: closed since, or reached more cheaply
		 * (its f was computed from a larger g, the same way). */
		if (su->stamp == closed)
			continue;
		if (!greedy &&
		    e.f > su->g + (dijkstra ? 0 : octile(b, b->xy[u], goal)))
			continue;
		double gu = su->g;
		su->stamp = closed;
		b->expanded++;
		twz_baseline_mark(b, u, TWZ_TRACE_EXPANDED);
		if (u == t)
			return chain(b, s, t, path, cap, r);
		const uint32_t *nb = &b->neighbour[(size_t)u * TWZ_MOVE_COUNT];
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			uint32_t v = nb[m];
			if (v == TWZ_NONE)
				continue;
			struct twz_baseline_node *sv = &b->state[v];
			/* Dijkstra's and A*'s (consistent) closed nodes are
			 * final; greedy never reopens a node. */
			if (sv->stamp == closed)
				continue;
			double g = gu + move_cost[m];
			if (sv->stamp == open) {
				if (greedy || !(g < sv->g))
					continue;
			} else {
				b->generated++;
				twz_baseline_mark(b, v, TWZ_TRACE_GENERATED);
			}
			double h = dijkstra ? 0 : octile(b, b->xy[v], goal);
			sv->g = g;
			sv->stamp = open;
			sv->parent = u;
			twz_baseline_push(heap, &len, (struct twz_baseline_entry){
				greedy ? h : g + h, (float)h, v });
		}
	}
	return 1;
}

/* Fewest moves: a FIFO queue, the target recognised when generated. */
static int bfs(struct twz_baseline *b, uint32_t s, uint32_t t,
	       twz_node *path, size_t cap, struct twz_baseline_result *r)
{
	const uint32_t seen = 2 * twz_baseline_next_generation(b);
	uint32_t *q = b->queue;
	uint32_t head = 0, tail = 0;

	b->state[s].stamp = seen;
	b->state[s].parent = TWZ_NONE;
	b->generated = 1;
	twz_baseline_mark(b, s, TWZ_TRACE_GENERATED);
	if (s == t)
		return chain(b, s, t, path, cap, r);
	q[tail++] = s;
	while (head < tail) {
		uint32_t u = q[head++];
		b->expanded++;
		twz_baseline_mark(b, u, TWZ_TRACE_EXPANDED);
		const uint32_t *nb = &b->neighbour[(size_t)u * TWZ_MOVE_COUNT];
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			uint32_t v = nb[m];
			if (v == TWZ_NONE || b->state[v].stamp == seen)
				continue;
			b->state[v].stamp = seen;
			b->state[v].parent = u;
			b->generated++;
			twz_baseline_mark(b, v, TWZ_TRACE_GENERATED);
			if (v == t)
				return chain(b, s, t, path, cap, r);
			q[tail++] = v;
		}
	}
	return 1;
}

/*
 * Depth-first, the textbook way: from the node on top of the stack take
 * its next unvisited neighbour in the fixed move order (N E S W NE SE SW
 * NW), or pop it when there is none. The stack is the path.
 */
static int dfs(struct twz_baseline *b, uint32_t s, uint32_t t,
	       twz_node *path, size_t cap, struct twz_baseline_result *r)
{
	const uint32_t seen = 2 * twz_baseline_next_generation(b);
	uint32_t *stack = b->queue;
	size_t depth = 0;

	b->state[s].stamp = seen;
	b->state[s].parent = 0;      /* the next move to try */
	stack[depth++] = s;
	b->generated = b->expanded = 1;
	twz_baseline_mark(b, s, TWZ_TRACE_EXPANDED);
	while (depth) {
		uint32_t u = stack[depth - 1];
		if (u == t) {
			twz_baseline_emit(b, stack, depth, 0, path, cap, r);
			return 0;
		}
		const uint32_t *nb = &b->neighbour[(size_t)u * TWZ_MOVE_COUNT];
		uint32_t m = b->state[u].parent, v = TWZ_NONE;
		for (; m < TWZ_MOVE_COUNT; m++) {
			v = nb[m];
			if (v != TWZ_NONE && b->state[v].stamp != seen)
				break;
		}
		if (m == TWZ_MOVE_COUNT) {
			depth--;
			continue;
		}
		b->state[u].parent = m + 1;
		b->state[v].stamp = seen;
		b->state[v].parent = 0;
		stack[depth++] = v;
		b->generated++;
		b->expanded++;
		twz_baseline_mark(b, v, TWZ_TRACE_EXPANDED);
	}
	return 1;
}

int twz_baseline_search(struct twz_baseline *b, enum twz_baseline_kind k,
			twz_node s, twz_node t, twz_node *path, size_t cap,
			struct twz_baseline_result *r)
{
	memset(r, 0, sizeof *r);
	r->first = s;
	b->expanded = b->generated = b->scanned = 0;
	b->waypoint_count = 0;
	if (!twz_baseline_supported(k, b->connectivity))
		return -1;
	switch (k) {
	case TWZ_BASELINE_DIJKSTRA:
		return best_first(b, TWZ_BASELINE_DIJKSTRA, s, t, path, cap, r);
	case TWZ_BASELINE_ASTAR:
		return best_first(b, TWZ_BASELINE_ASTAR, s, t, path, cap, r);
	case TWZ_BASELINE_GREEDY:
		return best_first(b, TWZ_BASELINE_GREEDY, s, t, path, cap, r);
	case TWZ_BASELINE_BFS:
		return bfs(b, s, t, path, cap, r);
	case TWZ_BASELINE_DFS:
		return dfs(b, s, t, path, cap, r);
	case TWZ_BASELINE_JPS:
		return twz_baseline_jps(b, s, t, path, cap, r);
	case TWZ_BASELINE_EVASION:
		return twz_baseline_evasion(b, s, t, path, cap, r);
	default:
		return -1;
	}
}
