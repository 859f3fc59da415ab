/*
 * baseline_jps.c - jump point search (Harabor and Grastien) for 8-connected
 * grids without corner cutting: the variant for the project's rule that a
 * diagonal move needs both orthogonal neighbours walkable.
 *
 * Under that rule a diagonal move never has forced neighbours (the cells
 * that could force one are the cells the move needs open), and a straight
 * move east into (x, y) forces north (and north-east) when (x, y-1) is
 * open but (x-1, y-1), the cell beside the one it came from, is blocked:
 * then no path of equal cost reaches (x, y-1) without passing (x, y).
 * Diagonal jumps stop where a straight jump from them finds something.
 * A* with the octile heuristic runs over the jump points; the path
 * between two jump points is one straight or diagonal line.
 */
#include "baseline.h"

#include <stdlib.h>

#include "twz_format.h"

struct jps {
	struct twz_baseline *b;
	const uint8_t *open;     /* padded walkable grid */
	long pw;
	long goal;               /* padded cell of the target */
};

static inline void scan(struct jps *j, long i)
{
	j->b->scanned++;
	if (j->b->trace)
		twz_baseline_mark(j->b, j->b->cell_node[i], TWZ_TRACE_SCANNED);
}

/* From cell i along d (a straight step; side the perpendicular step):
 * the first jump point, or -1 at a wall. */
static long jump_straight(struct jps *j, long i, long d, long side)
{
	const uint8_t *open = j->open;

	for (;;) {
		i += d;
		if (!open[i])
			return -1;
		scan(j, i);
		if (i == j->goal)
			return i;
		if ((open[i - side] && !open[i - d - side]) ||
		    (open[i + side] && !open[i - d + side]))
			return i;
	}
}

/* From cell i diagonally (dx = +-1, dyp = +-pw): the first cell where the
 * target is, or a straight jump finds a jump point; -1 at a wall. */
static long jump_diagonal(struct jps *j, long i, long dx, long dyp)
{
	const uint8_t *open = j->open;

	for (;;) {
		if (!open[i + dx] || !open[i + dyp] || !open[i + dx + dyp])
			return -1;
		i += dx + dyp;
		scan(j, i);
		if (i == j->goal)
			return i;
		if (jump_straight(j, i, dx, j->pw) >= 0 ||
		    jump_straight(j, i, dyp, 1) >= 0)
			return i;
	}
}

/* The jump from cell i in direction (dx, dy). */
static long jump(struct jps *j, long i, int dx, int dy)
{
	if (dx && dy)
		return jump_diagonal(j, i, dx, dy * j->pw);
	if (dx)
		return jump_straight(j, i, dx, j->pw);
	return jump_straight(j, i, dy * j->pw, 1);
}

static inline int sign(int v)
{
	return (v > 0) - (v < 0);
}

/* The path through the jump points, target first in the queue, drawn out
 * cell by cell. */
static int jps_emit(struct twz_baseline *b, size_t k, twz_node *path,
		    size_t cap, struct twz_baseline_result *r)
{
	const uint32_t *jp = b->queue;
	uint32_t st = 0, dg = 0;
	size_t len = 1;

	if (path && cap)
		path[0] = jp[k - 1];
	r->first = jp[k - 1];
	for (size_t i = k - 1; i > 0; i--) {
		uint32_t a = b->xy[jp[i]], c = b->xy[jp[i - 1]];
		int dx = (int)(c & 0xFFFF) - (int)(a & 0xFFFF);
		int dy = (int)(c >> 16) - (int)(a >> 16);
		int steps = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
		long d = sign(dx) + (long)sign(dy) * b->pw;
		long cell = b->cell[jp[i]];
		if (dx && dy)
			dg += steps;
		else
			st += steps;
		for (int s = 0; s < steps; s++) {
			cell += d;
			if (len == 1)
				r->first = b->cell_node[cell];
			if (path && len < cap)
				path[len] = b->cell_node[cell];
			len++;
		}
	}
	r->straight = st;
	r->diagonal = dg;
	r->length = len;
	return 0;
}

int twz_baseline_jps(struct twz_baseline *b, twz_node s, twz_node t,
		     twz_node *path, size_t cap, struct twz_baseline_result *r)
{
	struct jps j = { b, b->open, (long)b->pw, (long)b->cell[t] };
	struct twz_baseline_entry *heap = b->heap;
	const uint32_t gen = twz_baseline_next_generation(b);
	const uint32_t open = 2 * gen, closed = open + 1;
	size_t len = 0;

	double hs = twz_baseline_h(b, s, t);
	b->state[s] = (struct twz_baseline_node){ 0.0, open, TWZ_NONE };
	b->generated = 1;
	twz_baseline_mark(b, s, TWZ_TRACE_GENERATED);
	twz_baseline_push(heap, &len, (struct twz_baseline_entry){
		hs, (float)hs, s });
	while (len) {
		struct twz_baseline_entry e = twz_baseline_pop(heap, &len);
		uint32_t u = e.node;
		struct twz_baseline_node *su = &b->state[u];
		if (su->stamp == closed || e.f > su->g + twz_baseline_h(b, u, t))
			continue;
		su->stamp = closed;
		b->expanded++;
		twz_baseline_mark(b, u, TWZ_TRACE_EXPANDED);
		if (u == t) {
			size_t k = 0;
			for (uint32_t v = t; v != s; v = b->state[v].parent)
				b->queue[k++] = v;
			b->queue[k++] = s;
			return jps_emit(b, k, path, cap, r);
		}

		/* The directions to jump in: all from the source; else the
		 * natural and forced ones of the way u was reached. */
		int dirs[8][2], nd = 0;
		long i = b->cell[u];
		if (su->parent == TWZ_NONE) {
			for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
				dirs[nd][0] = twz_move_dx[m];
				dirs[nd++][1] = twz_move_dy[m];
			}
		} else {
			uint32_t a = b->xy[su->parent], c = b->xy[u];
			int dx = sign((int)(c & 0xFFFF) - (int)(a & 0xFFFF));
			int dy = sign((int)(c >> 16) - (int)(a >> 16));
			const uint8_t *op = b->open;
			long pw = j.pw;
			if (dx && dy) {
				dirs[nd][0] = dx, dirs[nd++][1] = 0;
				dirs[nd][0] = 0, dirs[nd++][1] = dy;
				dirs[nd][0] = dx, dirs[nd++][1] = dy;
			} else if (dx) {
				dirs[nd][0] = dx, dirs[nd++][1] = 0;
				for (int side = -1; side <= 1; side += 2) {
					if (op[i + side * pw] &&
					    !op[i - dx + side * pw]) {
						dirs[nd][0] = 0, dirs[nd++][1] = side;
						dirs[nd][0] = dx, dirs[nd++][1] = side;
					}
				}
			} else {
				dirs[nd][0] = 0, dirs[nd++][1] = dy;
				for (int side = -1; side <= 1; side += 2) {
					if (op[i + side] && !op[i - dy * pw + side]) {
						dirs[nd][0] = side, dirs[nd++][1] = 0;
						dirs[nd][0] = side, dirs[nd++][1] = dy;
					}
				}
			}
		}
		for (int k = 0; k < nd; k++) {
			long jp = jump(&j, i, dirs[k][0], dirs[k][1]);
			if (jp < 0)
				continue;
			uint32_t v = b->cell_node[jp];
			struct twz_baseline_node *sv = &b->state[v];
			if (sv->stamp == closed)
				continue;
			double g = su->g + twz_baseline_h(b, u, v);
			if (sv->stamp == open) {
				if (!(g < sv->g))
					continue;
			} else {
				b->generated++;
				twz_baseline_mark(b, v, TWZ_TRACE_GENERATED);
			}
			double h = twz_baseline_h(b, v, t);
			sv->g = g;
			sv->stamp = open;
			sv->parent = u;
			twz_baseline_push(heap, &len, (struct twz_baseline_entry){
				g + h, (float)h, v });
		}
	}
	return 1;
}
