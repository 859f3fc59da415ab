/*
 * baseline_search.c - the searches over the plain move graph (see
 * baseline.h): Dijkstra, A*, greedy best-first, breadth-first and
 * depth-first, and the one entry that runs any baseline. Jump point
 * search is in baseline_jps.c, the Evasion walker in baseline_evasion.c,
 * the grid and state they share in baseline.c.
 */
#include "baseline.h"

#include <stdlib.h>
#include <string.h>

#include "twz_format.h"

static void twz_baseline_emit(const struct twz_baseline *b, const uint32_t *seq,
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
		1, 1, 1, 1, TWZ_BASELINE_SQRT2, TWZ_BASELINE_SQRT2, TWZ_BASELINE_SQRT2, TWZ_BASELINE_SQRT2
	};
	const int dijkstra = kind == TWZ_BASELINE_DIJKSTRA;
	const int greedy = kind == TWZ_BASELINE_GREEDY;
	struct twz_baseline_entry *heap = b->heap;
	const uint32_t gen = twz_baseline_next_generation(b);
	const uint32_t open = 2 * gen, closed = open + 1;
	const uint32_t goal = b->xy[t];
	size_t len = 0;

	double hs = dijkstra ? 0 : twz_baseline_octile(b, b->xy[s], goal);
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
		    e.f > su->g + (dijkstra ? 0 : twz_baseline_octile(b, b->xy[u], goal)))
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
			double h = dijkstra ? 0 : twz_baseline_octile(b, b->xy[v], goal);
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
