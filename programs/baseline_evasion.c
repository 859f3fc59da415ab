/*
 * baseline_evasion.c - the obstacle-tracing "Evasion" pathfinder, the
 * kind games use when they keep no search state at all:
 *
 *   1. walk the straight line (Bresenham) toward the goal;
 *   2. where the next move is blocked, trace the obstacle on both sides at
 *      once, one wall follower keeping it on its left, one on its right,
 *      step for step; the first to reach a cell nearer the goal than the
 *      hit from which the line toward the goal is open wins (the shorter
 *      side), and the walk goes on from there;
 *   3. cut the loops out of the walk, then drop the waypoints that see
 *      each other: from each waypoint keep the farthest corner of the walk
 *      the straight line reaches without an illegal move.
 *
 * Every hit is strictly nearer the goal than the one before, so the walk
 * ends; when both tracers come round to where they started, the goal is
 * not reachable along this obstacle and Evasion gives up (as it does
 * past a budget of steps). The path returned is the lines between the
 * waypoints, cell by cell: legal moves only, its cost never below the
 * optimum. The tracers move orthogonally, which on this movement rule
 * reaches every cell an 8-connected path reaches.
 */
#include "baseline.h"

#include <stdlib.h>
#include <string.h>

#include "twz_format.h"

/* The tracers' headings, clockwise: N E S W (moves 0..3). */
#define RIGHT(h) (((h) + 1) & 3)
#define LEFT(h) (((h) + 3) & 3)

struct ev {
	struct twz_baseline *b;
	const uint8_t *open;
	long pw;
	long off[4];             /* padded offset of each heading */
	int conn8;
	uint32_t goal;           /* node */
	int gx, gy;
	size_t len;              /* of b->walk */
};

static inline int cell_x(const struct ev *e, uint32_t v)
{
	return (int)(e->b->xy[v] & 0xFFFF);
}

static inline int cell_y(const struct ev *e, uint32_t v)
{
	return (int)(e->b->xy[v] >> 16);
}

static inline int64_t dist2(const struct ev *e, uint32_t v)
{
	int64_t dx = cell_x(e, v) - e->gx, dy = cell_y(e, v) - e->gy;
	return dx * dx + dy * dy;
}

static inline int sign(int v)
{
	return (v > 0) - (v < 0);
}

/* The heading of a straight step. */
static unsigned heading_of(int dx, int dy)
{
	return dy < 0 ? 0 : dx > 0 ? 1 : dy > 0 ? 2 : 3;
}

/* Bresenham from one cell to another, a step at a time. */
struct line {
	int sx, sy;
	int adx, ady;
	int err;
};

static void line_start(struct line *l, int x0, int y0, int x1, int y1)
{
	l->adx = abs(x1 - x0);
	l->ady = abs(y1 - y0);
	l->sx = sign(x1 - x0);
	l->sy = sign(y1 - y0);
	l->err = (l->adx >= l->ady ? l->adx : l->ady) / 2;
}

static void line_step(struct line *l, int *mx, int *my)
{
	if (l->adx >= l->ady) {
		*mx = l->sx;
		*my = 0;
		l->err -= l->ady;
		if (l->err < 0) {
			l->err += l->adx;
			*my = l->sy;
		}
	} else {
		*my = l->sy;
		*mx = 0;
		l->err -= l->adx;
		if (l->err < 0) {
			l->err += l->ady;
			*mx = l->sx;
		}
	}
}

/*
 * The segment a -> c as the walk takes it: Bresenham's steps, each a
 * legal move; on a 4-connected grid a diagonal step is taken as its two
 * straight halves, x first when that cell is open, else y first. Appends
 * the cells after a to out (up to cap, *len counts them all) and adds the
 * moves to *st and *dg; 1 when the whole segment is legal ("clear").
 */
static int segment(struct ev *e, uint32_t a, uint32_t c, uint32_t *out,
		   size_t *len, size_t cap, uint32_t *st, uint32_t *dg)
{
	struct twz_baseline *b = e->b;
	const uint8_t *open = e->open;
	int ax = cell_x(e, a), ay = cell_y(e, a);
	int cx = cell_x(e, c), cy = cell_y(e, c);
	int steps = abs(cx - ax) > abs(cy - ay) ? abs(cx - ax) : abs(cy - ay);
	long i = b->cell[a];
	struct line l;

	line_start(&l, ax, ay, cx, cy);
	for (int k = 0; k < steps; k++) {
		int mx, my;
		long d[2];
		int n = 0, diagonal = 0;
		line_step(&l, &mx, &my);
		if (mx && my && e->conn8) {
			if (!open[i + mx] || !open[i + my * e->pw] ||
			    !open[i + mx + my * e->pw])
				return 0;
			d[n++] = mx + my * e->pw;
			diagonal = 1;
		} else if (mx && my) {
			int xfirst = open[i + mx];
			d[n++] = xfirst ? mx : my * e->pw;
			d[n++] = xfirst ? my * e->pw : mx;
		} else {
			d[n++] = mx + my * e->pw;
		}
		for (int h = 0; h < n; h++) {
			i += d[h];
			b->scanned++;
			if (!open[i])
				return 0;
			if (b->trace)
				twz_baseline_mark(b, b->cell_node[i],
						  TWZ_TRACE_SCANNED);
			if (out && *len < cap)
				out[*len] = b->cell_node[i];
			(*len)++;
		}
		if (diagonal)
			(*dg)++;
		else
			*st += (uint32_t)n;
	}
	return 1;
}

/* Append node v to the walk; 0 past the budget. */
static int walk_push(struct ev *e, uint32_t v)
{
	struct twz_baseline *b = e->b;

	if (e->len >= b->walk_cap)
		return 0;
	b->walk[e->len++] = v;
	b->expanded++;
	twz_baseline_mark(b, v, TWZ_TRACE_EXPANDED);
	return 1;
}

/* Whether the line from node v toward the goal can take its first step:
 * then a tracer may leave the wall there. */
static int line_opens(const struct ev *e, uint32_t v)
{
	const uint8_t *open = e->open;
	long i = e->b->cell[v];
	struct line l;
	int mx, my;

	line_start(&l, cell_x(e, v), cell_y(e, v), e->gx, e->gy);
	line_step(&l, &mx, &my);
	if (mx && my) {
		if (e->conn8)
			return open[i + mx] && open[i + my * e->pw] &&
			       open[i + mx + my * e->pw];
		return open[i + mx] || open[i + my * e->pw];
	}
	return open[i + mx + my * e->pw];
}

/* A wall follower: the wall on its left (hand 0) or right (hand 1). */
struct tracer {
	long at, start;
	unsigned h, start_h;
	int hand;
	int failed;
	size_t n;                /* cells in b->side[hand] */
};

/* One move of a tracer (turning on the spot as needed). 1 when it moved,
 * 0 when it is walled in or came round to where it started. */
static int tracer_move(struct ev *e, struct tracer *t)
{
	const uint8_t *open = e->open;

	for (int turns = 0; turns < 4; turns++) {
		unsigned side = t->hand ? RIGHT(t->h) : LEFT(t->h);
		if (open[t->at + e->off[side]]) {
			t->h = side;
			t->at += e->off[side];
		} else if (open[t->at + e->off[t->h]]) {
			t->at += e->off[t->h];
		} else {
			t->h = t->hand ? LEFT(t->h) : RIGHT(t->h);
			if (t->at == t->start && t->h == t->start_h)
				return 0;
			continue;
		}
		return !(t->at == t->start && t->h == t->start_h);
	}
	return 0;
}

/* Around the obstacle in direction w (a heading) from the walk's last
 * cell. 1 when a tracer left the wall (its cells appended to the walk),
 * 0 when Evasion gives up. */
static int trace_around(struct ev *e, unsigned w)
{
	struct twz_baseline *b = e->b;
	uint32_t hit = b->walk[e->len - 1];
	int64_t dh = dist2(e, hit);
	struct tracer tr[2];

	for (int k = 0; k < 2; k++) {
		tr[k].at = tr[k].start = b->cell[hit];
		tr[k].h = tr[k].start_h = k ? LEFT(w) : RIGHT(w);
		tr[k].hand = k;
		tr[k].failed = 0;
		tr[k].n = 0;
	}
	for (;;) {
		if (tr[0].failed && tr[1].failed)
			return 0;
		for (int k = 0; k < 2; k++) {
			struct tracer *t = &tr[k];
			if (t->failed)
				continue;
			if (!tracer_move(e, t) || t->n + e->len >= b->walk_cap) {
				t->failed = 1;
				continue;
			}
			uint32_t v = b->cell_node[t->at];
			b->side[k][t->n++] = v;
			b->expanded++;
			twz_baseline_mark(b, v, TWZ_TRACE_EXPANDED);
			if (v == e->goal || (dist2(e, v) < dh && line_opens(e, v))) {
				for (size_t i = 0; i < t->n; i++)
					b->walk[e->len++] = b->side[k][i];
				return 1;
			}
		}
	}
}

/* Step 1 and 2: the raw walk from s to the goal. 1 on arrival. */
static int walk(struct ev *e, uint32_t s)
{
	struct twz_baseline *b = e->b;
	const uint8_t *open = e->open;

	e->len = 0;
	if (!walk_push(e, s))
		return 0;
	for (;;) {
		uint32_t cur = b->walk[e->len - 1];
		if (cur == e->goal)
			return 1;
		struct line l;
		line_start(&l, cell_x(e, cur), cell_y(e, cur), e->gx, e->gy);
		unsigned wall = 4;
		while (wall == 4) {
			cur = b->walk[e->len - 1];
			if (cur == e->goal)
				return 1;
			long i = b->cell[cur];
			int mx, my;
			line_step(&l, &mx, &my);
			long dx = mx, dy = (long)my * e->pw;
			if (!(mx && my)) {
				if (!open[i + dx + dy])
					wall = heading_of(mx, my);
				else if (!walk_push(e, b->cell_node[i + dx + dy]))
					return 0;
			} else if (e->conn8 && open[i + dx] && open[i + dy] &&
				   open[i + dx + dy]) {
				if (!walk_push(e, b->cell_node[i + dx + dy]))
					return 0;
			} else {
				/* Take what straight half is open; the wall is
				 * the blocked half from there. */
				long first = open[i + dx] ? dx : open[i + dy] ? dy : 0;
				if (!first) {
					wall = heading_of(mx, 0);
					break;
				}
				long second = first == dx ? dy : dx;
				if (!walk_push(e, b->cell_node[i + first]))
					return 0;
				if (!open[i + first + second]) {
					wall = second == dx ? heading_of(mx, 0) :
					       heading_of(0, my);
				} else if (!walk_push(e, b->cell_node[i + first +
								      second])) {
					return 0;
				}
			}
		}
		if (!trace_around(e, wall))
			return 0;
	}
}

/* Step 3a: cut every loop out of the walk, in place. */
static void erase_loops(struct ev *e)
{
	struct twz_baseline *b = e->b;
	const uint32_t seen = 2 * twz_baseline_next_generation(b);
	uint32_t *w = b->walk;
	size_t k = 0;

	for (size_t i = 0; i < e->len; i++) {
		uint32_t v = w[i];
		struct twz_baseline_node *sv = &b->state[v];
		if (sv->stamp == seen && sv->parent < k && w[sv->parent] == v) {
			k = sv->parent + 1;
			continue;
		}
		sv->stamp = seen;
		sv->parent = (uint32_t)k;
		w[k++] = v;
	}
	e->len = k;
}

/* Whether the walk turns at index i (0 < i < len-1). */
static int corner(const struct ev *e, size_t i)
{
	const uint32_t *c = e->b->cell, *w = e->b->walk;
	return c[w[i]] - c[w[i - 1]] != c[w[i + 1]] - c[w[i]];
}

/* Step 3b: the next waypoint after index a: the farthest corner (or the
 * end) in a row of corners the line from w[a] reaches. */
static size_t next_waypoint(struct ev *e, size_t a)
{
	const uint32_t *w = e->b->walk;
	size_t best = a + 1;
	uint32_t st = 0, dg = 0;

	for (size_t c = a + 2; c < e->len; c++) {
		if (c + 1 < e->len && !corner(e, c))
			continue;
		size_t n = 0;
		if (!segment(e, w[a], w[c], NULL, &n, 0, &st, &dg))
			break;
		best = c;
	}
	return best;
}

static int prepare(struct twz_baseline *b)
{
	if (b->walk)
		return 0;
	/* The walk's budget: a few times every cell. */
	size_t cap = (size_t)b->node_count * 8 + 64;
	b->walk = malloc(3 * cap * sizeof *b->walk);
	b->waypoint = malloc(((size_t)b->node_count + 1) * sizeof *b->waypoint);
	if (!b->walk || !b->waypoint) {
		free(b->walk);
		free(b->waypoint);
		b->walk = b->waypoint = NULL;
		return -1;
	}
	b->side[0] = b->walk + cap;
	b->side[1] = b->walk + 2 * cap;
	b->walk_cap = cap;
	return 0;
}

int twz_baseline_evasion(struct twz_baseline *b, twz_node s, twz_node t,
			 twz_node *path, size_t cap,
			 struct twz_baseline_result *r)
{
	struct ev e;

	if (prepare(b))
		return 1;
	memset(&e, 0, sizeof e);
	e.b = b;
	e.open = b->open;
	e.pw = (long)b->pw;
	e.off[0] = -e.pw;
	e.off[1] = 1;
	e.off[2] = e.pw;
	e.off[3] = -1;
	e.conn8 = b->connectivity == 8;
	e.goal = t;
	e.gx = cell_x(&e, t);
	e.gy = cell_y(&e, t);
	if (!walk(&e, s))
		return 1;
	erase_loops(&e);

	/* The path: the lines between the waypoints. */
	uint32_t st = 0, dg = 0;
	size_t len = 1;
	if (path && cap)
		path[0] = s;
	b->waypoint[0] = s;
	b->waypoint_count = 1;
	for (size_t a = 0; a + 1 < e.len; ) {
		size_t c = next_waypoint(&e, a);
		uint32_t first[2];
		size_t n = 0;
		if (!path) {
			/* The first move is all a lag query wants. */
			segment(&e, b->walk[a], b->walk[c], first, &n, 1, &st, &dg);
			r->first = first[0];
			r->length = 0;
			b->waypoint[b->waypoint_count++] = b->walk[c];
			return 0;
		}
		segment(&e, b->walk[a], b->walk[c], path, &len, cap, &st, &dg);
		b->waypoint[b->waypoint_count++] = b->walk[c];
		a = c;
	}
	r->straight = st;
	r->diagonal = dg;
	r->length = len;
	r->first = len > 1 && cap > 1 ? path[1] : s;
	return 0;
}
